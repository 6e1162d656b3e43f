//! fuzz-convert: "go test fuzz v1" corpus files to raw bytes and back, and
//! AFL and libFuzzer corpora into and out of `testdata/fuzz/<Target>/`.
//!
//! The binary stays thin: each subcommand has its own module, which reads
//! and checks every operand before it writes anything, so that a bad input
//! is one line on stderr, exit 2, and no file touched.

pub mod cli;
mod export;
mod import;
mod layout;
mod pick;
mod raw;

use crate::cli::{Cli, Command};
use fuzz_cli::{CliError, Status};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// The name errors and reports start with.
const TOOL: &str = "fuzz-convert";

/// Runs fuzz-convert on this process's arguments: the binary's whole body.
pub fn main() -> ExitCode {
    fuzz_cli::exit::run::<Cli, _>(TOOL, run)
}

fn run(cli: Cli) -> Result<Status, CliError> {
    match cli.command {
        Command::ToRaw(args) => raw::to_raw(args),
        Command::ToV1(args) => raw::to_v1(args),
        Command::Import(args) => import::import(args),
        Command::Export(args) => export::export(args),
    }
}

/// Prints a report for people, `fuzz-convert: message`, on stderr.
fn note(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{TOOL}: {msg}");
}

/// Prints a warning on stderr.
fn warn(msg: &str) {
    fuzz_cli::exit::warn(TOOL, msg);
}

/// A path as the bytes of one line of stdout: paths need not be UTF-8.
fn path_line(out: &mut Vec<u8>, path: &Path) {
    out.extend_from_slice(path.as_os_str().as_encoded_bytes());
    out.push(b'\n');
}

/// True when both paths exist and are the same directory.
fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `n thing` or `n things`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
