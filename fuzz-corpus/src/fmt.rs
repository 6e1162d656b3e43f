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
    if in_place {
        check_in_place(files, if rename { "-rename" } else { "-w" })?;
    }
    let mut formatted = Vec::with_capacity(files.len());
    for path in files {
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
            fuzz_cli::io::print_path(&target)?;
        }
        changed += 1;
    }
    eprintln!("{TOOL}: {changed} of {} files rewritten", formatted.len());
    Ok(Status::Success)
}

/// Every operand of an in-place rewrite is a file that can be rewritten,
/// each named once (a file rewritten, renamed and then met again would be
/// gone), checked before anything is read or written.
fn check_in_place(files: &[PathBuf], flag: &str) -> Result<(), CliError> {
    use std::os::unix::fs::MetadataExt;
    let mut seen: Vec<((u64, u64), &Path)> = Vec::with_capacity(files.len());
    for path in files {
        if is_stdio(path) {
            return Err(CliError::misuse(format!(
                "cannot rewrite standard input in place ({flag})"
            )));
        }
        let meta = std::fs::metadata(path).map_err(|e| CliError::io(path, &e))?;
        let id = (meta.dev(), meta.ino());
        if let Some((_, first)) = seen.iter().find(|(seen_id, _)| *seen_id == id) {
            let also = if first == path {
                String::new()
            } else {
                format!(", also as {}", fuzz_core::error::shown(first))
            };
            return Err(CliError::misuse(format!(
                "{}: named twice{also} ({flag} rewrites each file once)",
                fuzz_core::error::shown(path)
            )));
        }
        seen.push((id, path));
        fuzz_cli::io::check_output_file(path, flag)?;
    }
    Ok(())
}

fn renamed(path: &Path, canonical: &[u8]) -> PathBuf {
    path.with_file_name(digest::entry_name(canonical))
}
