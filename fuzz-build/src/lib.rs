//! fuzz-build: builds a Go package's fuzz tests (`go.rs`), a Rust crate
//! (`rust.rs`) or C and C++ files (`c.rs`) into a library fuzz-run can
//! fuzz, kept in a cache (`cache.rs`), and prints its path. The flags are
//! in `cli.rs`; the compilers are run through `command.rs`.

mod c;
mod cache;
pub mod cli;
mod command;
mod go;
mod rust;

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
    let kind = Kind::of(&cli)?;
    let root = cache::root(cli.cachedir.as_deref())?;
    let lib = match kind {
        Kind::Go(dir) => go::build(dir, &root, cli.verbose)?,
        Kind::Rust(dir, shown) => rust::build(&dir, &shown, &root, cli.fast, cli.verbose)?,
        Kind::C(sources) => c::build(&sources, &root, cli.verbose)?,
    };
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

/// What SOURCE is, told apart before anything is built or written.
enum Kind<'a> {
    /// A Go package's directory (go.rs checks the rest).
    Go(&'a Path),
    /// A Rust crate's canonical directory, and the directory as shown.
    Rust(std::path::PathBuf, String),
    /// C and C++ files.
    C(c::Sources<'a>),
}

impl<'a> Kind<'a> {
    fn of(cli: &'a Cli) -> Result<Kind<'a>, CliError> {
        let given = &cli.sources;
        if !given.is_empty() && given.iter().all(|p| c::language(p).is_some()) {
            for p in given {
                if !p.is_file() {
                    return Err(CliError::misuse(format!(
                        "{}: {}",
                        fuzz_cli::io::display(p),
                        if p.exists() {
                            "not a file"
                        } else {
                            "no such file"
                        }
                    )));
                }
            }
            let cflags = cli.cflags.as_deref().unwrap_or("");
            return Ok(Kind::C(c::Sources {
                given,
                cflags: cflags.split_whitespace().map(str::to_string).collect(),
                fast: cli.fast,
            }));
        }
        let first = given.first().map_or(Path::new("."), |p| p.as_path());
        let shown = fuzz_cli::io::display(first);
        if given.len() > 1 {
            let other = given
                .iter()
                .find(|p| c::language(p).is_none())
                .map_or(first, |p| p.as_path());
            return Err(CliError::misuse(format!(
                "{}: not a C or C++ file (.c, .cc, .cpp, .cxx), as more than one SOURCE must \
                 be; a Go package or a Rust crate is one directory",
                fuzz_cli::io::display(other)
            )));
        }
        if cli.cflags.is_some() {
            return Err(CliError::misuse(format!(
                "-cflags: {shown} is not a C or C++ file (.c, .cc, .cpp, .cxx)"
            )));
        }
        if !first.is_dir() {
            return Err(CliError::misuse(if first.exists() {
                format!(
                    "{shown}: not a directory (a Go package or a Rust crate) nor a C or C++ \
                     file (.c, .cc, .cpp, .cxx)"
                )
            } else {
                format!("{shown}: no such file or directory")
            }));
        }
        if first.join("Cargo.toml").is_file() {
            let dir = std::fs::canonicalize(first).map_err(|e| CliError::io(first, &e))?;
            return Ok(Kind::Rust(dir, shown));
        }
        let has_go = std::fs::read_dir(first).is_ok_and(|d| {
            d.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "go"))
        });
        if !has_go {
            return Err(CliError::misuse(format!(
                "{shown}: neither a Rust crate (no Cargo.toml) nor a Go package (no .go files)"
            )));
        }
        if cli.fast {
            return Err(CliError::misuse(format!(
                "-fast: {shown} is not a Rust crate or C files; a Go package has one build \
                 (with comparison hooks)"
            )));
        }
        Ok(Kind::Go(first))
    }
}
