//! `to-raw` and `to-v1`: one file at a time between a v1 entry and the raw
//! bytes other fuzzers and tools use. `to-v1` writes exactly what Go's
//! file2fuzz writes, so an entry added here is one Go would have added.

use crate::cli::{ToRaw, ToV1};
use crate::pick;
use fuzz_cli::io;
use fuzz_cli::{CliError, Status};
use fuzz_core::{format::codec, store::digest, store::fsutil, ArgType, Value};
use std::path::{Path, PathBuf};

/// `fuzz-convert to-raw`.
pub fn to_raw(args: ToRaw) -> Result<Status, CliError> {
    let bytes = io::read_operand(&args.file)?;
    let name = io::display(&args.file);
    let values = codec::decode(&bytes).map_err(|e| e.in_file(&name))?;
    let raw = pick::raw_bytes(&name, &bytes, &values, args.arg).map_err(CliError::misuse)?;
    if let Some(output) = &args.output {
        io::check_output_file(output, "-o")?;
    }
    io::write_output(args.output.as_deref(), raw)?;
    Ok(Status::Success)
}

/// `fuzz-convert to-v1`.
pub fn to_v1(args: ToV1) -> Result<Status, CliError> {
    let raw = io::read_operand(&args.file)?;
    match (&args.dir, &args.output) {
        (Some(dir), _) => io::check_output_dir(dir, "-dir")?,
        (None, Some(output)) => io::check_output_file(output, "-o")?,
        (None, None) => {}
    }
    let entry = encode(&args.arg_type, raw);
    match &args.dir {
        Some(dir) => {
            let path = add_to_dir(dir, &entry)?;
            let mut line = Vec::new();
            crate::path_line(&mut line, &path);
            io::write_stdout(&line)?;
        }
        None => io::write_output(args.output.as_deref(), &entry)?,
    }
    Ok(Status::Success)
}

/// The v1 file holding `raw` as one value of type `t` (`[]byte` or
/// `string`, which is all `-type` lets through).
pub fn encode(t: &ArgType, raw: Vec<u8>) -> Vec<u8> {
    let value = match t {
        ArgType::String => Value::String(raw),
        _ => Value::Bytes(raw),
    };
    codec::encode(&[value])
}

/// Writes `entry` into `dir` (created if needed) under its digest name and
/// returns its path; an entry already there is left as it is.
fn add_to_dir(dir: &Path, entry: &[u8]) -> Result<PathBuf, CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: not a directory (-dir)",
            fuzz_core::error::shown(dir)
        )));
    }
    fsutil::create_dir_all(dir)?;
    let path = dir.join(digest::entry_name(entry));
    fsutil::write_new_atomic(&path, entry)?;
    Ok(path)
}
