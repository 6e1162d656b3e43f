//! fuzz-build: builds a Go package's fuzz tests into a library fuzz-run
//! can fuzz (`go.rs`), kept in a cache by the content it is built from
//! (`cache.rs`), and prints its path. The flags are in `cli.rs` (compiled
//! into `fuzz_cli`).

mod cache;
pub mod cli;
mod go;

use crate::cli::Cli;
use fuzz_cli::io::print_line;
use fuzz_cli::{CliError, Status};
use std::path::Path;

/// Runs fuzz-build on this process's arguments: the binary's whole body.
pub fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<Cli, _>("fuzz-build", run)
}

fn run(cli: Cli) -> Result<Status, CliError> {
    if cli.output.as_deref() == Some(Path::new("-")) {
        return Err(CliError::misuse(
            "-o -: a library is a file; name one (or leave -o out and use the path printed)",
        ));
    }
    let root = cache::root(cli.cachedir.as_deref())?;
    let dir = cli.dir.as_deref().unwrap_or(Path::new("."));
    let lib = go::build(dir, &root, cli.verbose)?;
    let shown = match &cli.output {
        Some(out) => {
            cache::copy_out(&lib, out)?;
            out.clone()
        }
        None => lib,
    };
    print_line(shown.display().to_string())?;
    Ok(Status::Success)
}
