//! Operands that may be `-`: reading stdin, writing stdout, and naming them
//! in messages.

use crate::exit::CliError;
use std::io::{Read, Write};
use std::path::Path;

/// True when an operand names stdin or stdout.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How an operand is named in messages.
pub fn display(path: &Path) -> String {
    if is_stdio(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads a whole operand, `-` being stdin. A directory, a missing file or an
/// unreadable one is misuse (exit 2), named in the message.
pub fn read_operand(path: &Path) -> Result<Vec<u8>, CliError> {
    if is_stdio(path) {
        let mut buf = Vec::new();
        std::io::stdin().lock().read_to_end(&mut buf).map_err(|e| {
            CliError::misuse(format!("<stdin>: {}", fuzz_core::error::describe(&e)))
        })?;
        return Ok(buf);
    }
    if path.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: is a directory, not a file",
            path.display()
        )));
    }
    std::fs::read(path).map_err(|e| {
        CliError::misuse(format!(
            "{}: {}",
            path.display(),
            fuzz_core::error::describe(&e)
        ))
    })
}

/// Writes bytes to an output operand: stdout when `None` or `-`, else the
/// file, replaced atomically so that a reader never sees half of it.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match path {
        None => write_stdout(bytes),
        Some(p) if is_stdio(p) => write_stdout(bytes),
        Some(p) => {
            if p.is_dir() {
                return Err(CliError::misuse(format!(
                    "{}: is a directory, not a file (-o)",
                    p.display()
                )));
            }
            fuzz_core::store::fsutil::write_atomic(p, bytes)?;
            Ok(())
        }
    }
}

/// Writes to stdout; a closed pipe becomes a quiet exit 0 upstream.
pub fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Prints one line of results on stdout (a path, a listing line). Unlike
/// `println!`, a closed pipe is an error to return, not a panic.
pub fn print_line(line: impl std::fmt::Display) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    Ok(())
}
