//! fuzz-corpus: list, check, format, merge and cover corpus directories.

mod check;
pub mod cli;
mod cover;
mod cover_diff;
mod cover_hits;
mod cover_html;
mod cover_report;
mod cover_text;
mod fmt;
mod list;
mod machine_flow;
mod merge;
mod merge_cov;
mod source_lines;
mod sources;
mod status;
mod symbols;

use crate::cli::{Cli, Command};
use fuzz_cli::io::is_stdio;
use fuzz_cli::{CliError, Status};
use fuzz_core::store::corpus::Entry;
use std::path::{Path, PathBuf};

const TOOL: &str = "fuzz-corpus";

/// Runs fuzz-corpus on this process's arguments: the binary's whole body.
pub fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<Cli, _>(TOOL, run)
}

fn run(cli: Cli) -> Result<Status, CliError> {
    match cli.command {
        Command::List { json, dirs } => list::run(&dirs, json),
        Command::Check { types, dirs } => check::run(&dirs, types.map(|t| t.0).as_deref()),
        Command::Fmt {
            write,
            rename,
            files,
        } => fmt::run(&files, write || rename, rename),
        Command::Cover {
            lib,
            target,
            timeout,
            html,
            lines,
            diff,
            seeds_only,
            fuzzcachedir,
            dirs,
        } => cover::run(&cover::Options {
            lib: &lib,
            target: target.as_deref(),
            timeout: timeout.timeout,
            html: html.as_deref(),
            lines: lines.as_deref(),
            diff: diff.as_deref(),
            seeds_only,
            fuzzcachedir: fuzzcachedir.as_deref(),
            dirs: &dirs,
        }),
        Command::Status { json, dir } => status::run(&dir, json),
        Command::Merge {
            lib: Some(lib),
            target,
            timeout,
            dst,
            srcs,
        } => merge_cov::run(&lib, target.as_deref(), timeout.timeout, &dst, &srcs),
        Command::Merge {
            lib: None,
            target,
            dst,
            srcs,
            ..
        } => {
            if target.is_some() {
                return Err(CliError::misuse("-target needs -lib"));
            }
            merge::run(&dst, &srcs)
        }
    }
}

/// The files named by operands that may each be a corpus directory, a
/// single file or `-`, standard input (read by [`read_entry`]). Every
/// operand is checked before anything is read, so a missing one is
/// reported before any output.
fn corpus_files(operands: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    if operands.iter().filter(|op| is_stdio(op)).count() > 1 {
        return Err(CliError::misuse(
            "-: standard input named twice (it can be read once)",
        ));
    }
    for op in operands.iter().filter(|op| !is_stdio(op)) {
        std::fs::metadata(op).map_err(|e| CliError::io(op, &e))?;
    }
    let mut files = Vec::new();
    for op in operands {
        if is_stdio(op) {
            files.push(op.clone());
        } else if op.is_dir() {
            files.extend(fuzz_core::store::corpus::files_in(op)?);
        } else {
            files.push(op.clone());
        }
    }
    Ok(files)
}

/// Reads and decodes one corpus file, `-` being standard input (listed as
/// `-`, called `<stdin>` in messages). Only an I/O failure is an error; a
/// malformed file is an entry whose `values` is the error.
fn read_entry(path: &Path) -> Result<Entry, CliError> {
    if !is_stdio(path) {
        return Ok(Entry::read(path)?);
    }
    let bytes = fuzz_cli::io::read_operand(path)?;
    let shown = fuzz_cli::io::display(path);
    let values = fuzz_core::format::codec::decode(&bytes).map_err(|e| e.in_file(&shown));
    Ok(Entry {
        path: path.to_path_buf(),
        bytes,
        values,
    })
}

/// The file name of a path, for notes and listings.
fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| fuzz_core::error::shown(p))
}
