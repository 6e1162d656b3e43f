//! `export`: a corpus directory of v1 files to a directory of raw files,
//! the seeds AFL (`-i`) and libFuzzer (corpus operands) read. Every file is
//! decoded and checked before the first write: one malformed file, or one
//! whose value has no raw bytes, and nothing is written.

use crate::cli::Export;
use crate::{count, note, pick, same_dir};
use fuzz_cli::{io, CliError, Status};
use fuzz_core::{format::codec, store::corpus, store::fsutil};

/// `fuzz-convert export`.
pub fn export(args: Export) -> Result<Status, CliError> {
    let out_dir = &args.output;
    if io::is_stdio(out_dir) {
        return Err(CliError::misuse(
            "export writes a directory: -o - (standard output) cannot hold it",
        ));
    }
    if out_dir.exists() {
        if !out_dir.is_dir() {
            return Err(CliError::misuse(format!(
                "{}: not a directory (-o)",
                fuzz_core::error::shown(out_dir)
            )));
        }
        if same_dir(out_dir, &args.dir) {
            return Err(CliError::misuse(format!(
                "{}: -o is the corpus directory itself: its entries would be overwritten",
                fuzz_core::error::shown(out_dir)
            )));
        }
    }
    if args.dir.exists() && !args.dir.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: not a directory (use to-raw for one file)",
            fuzz_core::error::shown(&args.dir)
        )));
    }
    io::check_output_dir(out_dir, "-o")?;

    let mut raws = Vec::new();
    for path in corpus::files_in(&args.dir)? {
        let bytes = io::read_operand(&path)?;
        let shown = fuzz_core::error::shown(&path);
        let values = codec::decode(&bytes).map_err(|e| e.in_file(&path))?;
        let raw = pick::raw_bytes(&shown, &bytes, &values, args.arg).map_err(CliError::misuse)?;
        let Some(name) = path.file_name() else {
            continue;
        };
        let dest = out_dir.join(name);
        if dest.is_dir() {
            return Err(CliError::misuse(format!(
                "{}: is a directory, cannot write {shown} there",
                fuzz_core::error::shown(&dest)
            )));
        }
        raws.push((dest, raw.to_vec()));
    }

    fsutil::create_dir_all(out_dir)?;
    for (dest, raw) in &raws {
        fsutil::write_atomic(dest, raw)?;
    }
    note(&format!(
        "exported {} from {} to {}",
        count(raws.len(), "entry", "entries"),
        fuzz_core::error::shown(&args.dir),
        fuzz_core::error::shown(out_dir)
    ));
    Ok(Status::Success)
}
