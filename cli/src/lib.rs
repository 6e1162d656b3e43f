//! Command-line conventions shared by the seven tools: arguments spelled
//! Go's way (`-fuzz`), exit codes and one-line errors, standard input and
//! output, Ctrl-C, limits, the library cache, the environment a worker of a
//! library built with AddressSanitizer starts in, and the man pages' renderer.
//!
//! Each tool is a crate of its own (`fuzz-run/`, …) whose `main` parses its
//! arguments with its clap definition (`fuzz-run/src/cli.rs`), does the work
//! with `fuzz-core`, and maps the outcome to an exit code with
//! [`exit::run`]. `--help`, the man pages in `man/` and the test that keeps
//! those pages fresh all come from that one definition.

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
pub mod sanitizer;
pub mod scratch;
pub mod target;

pub use exit::{CliError, Status};

/// The seven tools, by binary name (each man page's SEE ALSO).
pub const TOOLS: [&str; 7] = [
    "fuzz-run",
    "fuzz-worker",
    "fuzz-minimize",
    "fuzz-convert",
    "fuzz-corpus",
    "fuzz-clean",
    "fuzz-build",
];
