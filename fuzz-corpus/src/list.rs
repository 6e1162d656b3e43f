//! `fuzz-corpus list`: what a corpus holds, for people and for scripts.

use crate::{corpus_files, read_entry};
use fuzz_cli::{CliError, Status};
use fuzz_core::store::corpus::Entry;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// Bytes of a string or byte slice shown in a preview.
const PREVIEW: usize = 32;

pub fn run(dirs: &[PathBuf], json: bool) -> Result<Status, CliError> {
    let files = corpus_files(dirs)?;
    let mut out = std::io::BufWriter::new(fuzz_cli::io::stdout());
    let mut malformed = 0;
    for path in &files {
        let entry = read_entry(path)?;
        let size = entry.bytes.len();
        if json {
            let mut obj = serde_json::json!({
                "name": entry.name(),
                "size": size,
            });
            fuzz_cli::io::json_path(&mut obj, "path", path);
            match &entry.values {
                Ok(values) => {
                    obj["types"] = values.iter().map(|v| v.arg_type().to_string()).collect();
                    obj["values"] = values.iter().map(|v| v.preview(PREVIEW)).collect();
                }
                Err(_) => {
                    malformed += 1;
                    obj["error"] = reason(&entry).into();
                }
            }
            writeln!(out, "{obj}")?;
        } else {
            // The path as its bytes: a script reads it back exactly.
            out.write_all(path.as_os_str().as_bytes())?;
            match &entry.values {
                Ok(values) => {
                    let types: Vec<String> =
                        values.iter().map(|v| v.arg_type().to_string()).collect();
                    let previews: Vec<String> = values.iter().map(|v| v.preview(PREVIEW)).collect();
                    writeln!(
                        out,
                        "  {size:>6}  {}  {}",
                        types.join(","),
                        previews.join(" ")
                    )?;
                }
                Err(_) => {
                    malformed += 1;
                    writeln!(out, "  {size:>6}  malformed: {}", reason(&entry))?;
                }
            }
        }
    }
    out.flush()?;
    Ok(if malformed > 0 {
        Status::Finding
    } else {
        Status::Success
    })
}

/// Why an entry is malformed, without the file name the listing shows
/// already.
fn reason(entry: &Entry) -> String {
    match fuzz_core::format::codec::decode(&entry.bytes) {
        Err(e) => e.to_string(),
        Ok(_) => String::new(),
    }
}
