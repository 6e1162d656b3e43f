//! Turning input files into the values a target takes (one `[]byte` for a
//! libFuzzer entry), checked against its types: every input is checked
//! before any runs.

use crate::library::Target;
use fuzz_cli::io::{display, read_operand};
use fuzz_cli::CliError;
use fuzz_core::{format::codec, ArgType, Value};
use std::path::Path;

/// Reads one input file (v1, or raw bytes with `raw`) for `target`.
pub fn load(path: &Path, target: &Target, raw: bool) -> Result<Vec<Value>, CliError> {
    let bytes = read_operand(path)?;
    let name = display(path);
    let values = if raw {
        match target.args.as_slice() {
            [ArgType::Bytes] => vec![Value::Bytes(bytes)],
            [ArgType::String] => vec![Value::String(bytes)],
            other => {
                return Err(CliError::misuse(format!(
                    "{name}: -raw needs a target of one []byte or string argument; {} takes ({})",
                    target.name,
                    ArgType::format_list(other)
                )))
            }
        }
    } else {
        let values = codec::decode(&bytes).map_err(|e| CliError::from(e.in_file(&name)))?;
        codec::check_types(&values, &target.args).map_err(|e| CliError::from(e.in_file(&name)))?;
        values
    };
    Ok(values)
}

/// The zero values of a target's arguments.
pub fn zero(target: &Target) -> Vec<Value> {
    target.args.iter().map(Value::zero).collect()
}
