//! `import`: raw inputs from AFL and libFuzzer into a target's seed corpus.
//!
//! Every SRC is found and read before the first write, so a bad operand
//! leaves the corpus untouched; entries are written with
//! `write_new_atomic` under their digest names and an entry whose bytes the
//! directory already holds (under any name) is not written again, so a
//! second import adds nothing and concurrent runs never tear a file.

use crate::cli::Import;
use crate::{count, layout, note, path_line, raw, same_dir, warn};
use fuzz_cli::{io, CliError, Status};
use fuzz_core::{store::cache, store::corpus, store::digest, store::fsutil};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// `fuzz-convert import`.
pub fn import(args: Import) -> Result<Status, CliError> {
    check_target(&args.target)?;
    let dest = cache::seed_dir(&args.testdata, &args.target);
    io::check_output_dir(&dest, "-testdata")?;

    let mut files = Vec::new();
    let mut warnings = Vec::new();
    for src in &args.sources {
        if same_dir(src, &dest) {
            return Err(CliError::misuse(format!(
                "{}: is the corpus directory being imported into",
                fuzz_core::error::shown(src)
            )));
        }
        let found = layout::inputs(src)?;
        files.extend(found.files);
        warnings.extend(found.warnings);
    }
    let mut inputs = Vec::with_capacity(files.len());
    for path in &files {
        inputs.push(io::read_operand(path)?);
    }
    for w in &warnings {
        warn(w);
    }
    warn_v1(&files, &inputs);

    let mut present = existing(&dest);
    let mut added: Vec<PathBuf> = Vec::new();
    let mut already = 0;
    if !inputs.is_empty() {
        fsutil::create_dir_all(&dest)?;
    }
    for input in inputs {
        let entry = raw::encode(&args.arg_type, input);
        if !present.insert(digest::sha256_hex(&entry)) {
            already += 1;
            continue;
        }
        let path = dest.join(digest::entry_name(&entry));
        if fsutil::write_new_atomic_in_batch(&path, &entry)? {
            added.push(path);
        } else if std::fs::read(&path).is_ok_and(|b| b == entry) {
            already += 1; // another writer got there first
        } else {
            warn(&format!(
                "{}: exists with other contents; left as it is",
                fuzz_core::error::shown(&path)
            ));
        }
    }

    if !added.is_empty() {
        fsutil::sync_dir(&dest)?;
    }
    let mut out = Vec::new();
    for path in &added {
        path_line(&mut out, path);
    }
    let printed = io::write_stdout(&out);
    note(&format!(
        "imported {} ({} already present) into {}",
        count(added.len(), "new entry", "new entries"),
        already,
        fuzz_core::error::shown(&dest)
    ));
    printed.map(|()| Status::Success)
}

/// Warns when inputs are corpus files already: wrapping them again is
/// rarely what was meant.
fn warn_v1(files: &[PathBuf], inputs: &[Vec<u8>]) {
    let v1: Vec<&PathBuf> = files
        .iter()
        .zip(inputs)
        .filter(|(_, bytes)| is_v1(bytes))
        .map(|(path, _)| path)
        .collect();
    if let Some(first) = v1.first() {
        let which = match v1.len() {
            1 => format!(
                "{} is already a \"go test fuzz v1\" file",
                io::display(first)
            ),
            n => format!(
                "{n} inputs ({}, …) are already \"go test fuzz v1\" files",
                io::display(first)
            ),
        };
        warn(&format!(
            "{which}: imported as raw bytes like any input (fuzz-corpus merge copies v1 entries as they are)"
        ));
    }
}

/// True for bytes that already look like a corpus file rather than a raw
/// input.
fn is_v1(bytes: &[u8]) -> bool {
    let header = fuzz_core::format::codec::HEADER.as_bytes();
    bytes
        .strip_prefix(header)
        .is_some_and(|rest| rest.starts_with(b"\n") || rest.starts_with(b"\r\n"))
}

/// A target name becomes one directory name.
fn check_target(name: &str) -> Result<(), CliError> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
        return Err(CliError::misuse(format!(
            "invalid -target {name:?}: want a target's name, such as FuzzParse"
        )));
    }
    Ok(())
}

/// The SHA-256 of every file already in the corpus directory, whatever its
/// name (Go 1.19's 64-digit names, seeds people named).
fn existing(dir: &Path) -> HashSet<String> {
    let files = corpus::files_in(dir).unwrap_or_default();
    files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| digest::sha256_hex(&b))
        .collect()
}
