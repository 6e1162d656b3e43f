//! `fuzz-corpus fmt`: Go's canonical form of corpus files.
//!
//! Every file is read and decoded before anything is written, so one
//! malformed file leaves all of them as they were.

use crate::TOOL;
use fuzz_cli::io::{display, is_stdio, read_operand, write_stdout};
use fuzz_cli::{CliError, Status};
use fuzz_core::{format::codec, store::digest, store::fsutil};
use std::path::{Path, PathBuf};

pub fn run(files: &[PathBuf], in_place: bool, rename: bool) -> Result<Status, CliError> {
    let mut formatted = Vec::with_capacity(files.len());
    for path in files {
        if in_place && is_stdio(path) {
            return Err(CliError::misuse(
                "cannot rewrite standard input in place (-w, -rename)",
            ));
        }
        let bytes = read_operand(path)?;
        let values = codec::decode(&bytes).map_err(|e| e.in_file(display(path)))?;
        if values.is_empty() {
            return Err(CliError::misuse(format!(
                "{}: entry has no values",
                display(path)
            )));
        }
        formatted.push((path, bytes, codec::encode(&values)));
    }
    if !in_place {
        for (_, _, canonical) in &formatted {
            write_stdout(canonical)?;
        }
        return Ok(Status::Success);
    }
    let mut changed = 0;
    for (path, old, canonical) in &formatted {
        let target = if rename {
            renamed(path, canonical)
        } else {
            path.to_path_buf()
        };
        if target == **path && old == canonical {
            continue;
        }
        fsutil::write_atomic(&target, canonical)?;
        if target != **path {
            std::fs::remove_file(path).map_err(|e| CliError::io(path, &e))?;
            fuzz_cli::io::print_line(target.display())?;
        }
        changed += 1;
    }
    eprintln!("{TOOL}: {changed} of {} files rewritten", formatted.len());
    Ok(Status::Success)
}

fn renamed(path: &Path, canonical: &[u8]) -> PathBuf {
    path.with_file_name(digest::entry_name(canonical))
}
