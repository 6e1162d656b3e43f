//! fuzz-clean: removes the generated corpus cache, all of it, one
//! library's or one target's, or only entries untouched for a while.
//! The flags are in `cli.rs`; the work is in the
//! modules below.

mod clean;
pub mod cli;
mod plan;
mod root;

/// Runs fuzz-clean on this process's arguments: the binary's whole body.
pub fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<crate::cli::Cli, _>("fuzz-clean", clean::run)
}
