//! fuzz-clean: removes the generated corpus cache, all of it, one
//! library's or one target's, or only entries untouched for a while.
//! The flags are in `cli.rs` (compiled into `fuzz_cli`); the work is in the
//! modules below.

mod clean;
mod plan;
mod root;

fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<fuzz_cli::clean::Cli, _>("fuzz-clean", clean::run)
}
