//! `fuzz-corpus check`: does every file parse as Go would read it?

use crate::{corpus_files, file_name, read_entry, TOOL};
use fuzz_cli::{CliError, Status};
use fuzz_core::{format::codec, store::digest, ArgType};
use std::io::Write;
use std::path::PathBuf;

pub fn run(dirs: &[PathBuf], types: Option<&[ArgType]>) -> Result<Status, CliError> {
    let files = corpus_files(dirs)?;
    let mut out = fuzz_cli::io::stdout();
    let mut bad = 0;
    for path in &files {
        let entry = read_entry(path)?;
        let verdict = entry.values.and_then(|values| match types {
            Some(want) => codec::check_types(&values, want).map_err(|e| e.in_file(path)),
            None => Ok(()),
        });
        if let Err(e) = verdict {
            bad += 1;
            writeln!(out, "{e}")?;
            continue;
        }
        if fuzz_cli::io::is_stdio(path) {
            continue; // standard input has no name to check
        }
        let name = file_name(path);
        if !digest::is_digest_name(&name) {
            fuzz_cli::exit::note(
                TOOL,
                &format!(
                    "{}: name is not a digest (16 or 64 hex digits of the SHA-256 of the file)",
                    fuzz_core::error::shown(path)
                ),
            );
        } else if !digest::name_matches(&name, &entry.bytes) {
            fuzz_cli::exit::note(
                TOOL,
                &format!(
                    "{}: name does not match the SHA-256 of the file's bytes",
                    fuzz_core::error::shown(path)
                ),
            );
        }
    }
    out.flush()?;
    eprintln!(
        "{TOOL}: {} {} checked, {bad} malformed",
        files.len(),
        if files.len() == 1 { "file" } else { "files" }
    );
    Ok(if bad > 0 {
        Status::Finding
    } else {
        Status::Success
    })
}
