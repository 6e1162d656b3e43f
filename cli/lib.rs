//! Command-line conventions shared by the seven tools, and every tool's clap
//! definition.
//!
//! The binaries stay thin: each `main` parses its arguments here, calls into
//! `fuzz-core`, and maps the outcome to an exit code with [`exit::run`]. The
//! clap definitions live beside each tool (`fuzz-run/cli.rs`, …) and are
//! compiled into this library too, so that `--help`, the man pages in `man/`
//! and the test that keeps those pages fresh all come from one definition.

// The tools' clap definitions below are compiled in here: their doc
// comments are --help text (`testdata/fuzz/<Target>/` is a path to read,
// not HTML), so rustdoc's HTML check does not apply to them.
#![allow(rustdoc::invalid_html_tags)]

pub mod argv;
pub mod cache;
pub mod child;
pub mod exit;
pub mod find_worker;
pub mod interrupt;
pub mod io;
pub mod limits;
pub mod man;
pub mod package;
pub mod scratch;
pub mod target;

#[path = "../fuzz-build/cli.rs"]
pub mod build;
#[path = "../fuzz-clean/cli.rs"]
pub mod clean;
#[path = "../fuzz-convert/cli.rs"]
pub mod convert;
#[path = "../fuzz-corpus/cli.rs"]
pub mod corpus;
#[path = "../fuzz-minimize/cli.rs"]
pub mod minimize;
#[path = "../fuzz-run/cli.rs"]
pub mod run;
#[path = "../fuzz-worker/cli.rs"]
pub mod worker;

pub use exit::{CliError, Status};

/// The tools, by binary name, with their clap command and man page extras.
pub fn tools() -> Vec<(&'static str, clap::Command, &'static man::Extra)> {
    use clap::CommandFactory;
    vec![
        ("fuzz-run", run::Cli::command(), &run::MAN),
        ("fuzz-worker", worker::Cli::command(), &worker::MAN),
        ("fuzz-minimize", minimize::Cli::command(), &minimize::MAN),
        ("fuzz-convert", convert::Cli::command(), &convert::MAN),
        ("fuzz-corpus", corpus::Cli::command(), &corpus::MAN),
        ("fuzz-clean", clean::Cli::command(), &clean::MAN),
        ("fuzz-build", build::Cli::command(), &build::MAN),
    ]
}
