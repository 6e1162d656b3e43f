//! The flags of `fuzz-worker`, the in-process executor.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-worker",
    version,
    about = "Load a coverage-instrumented target library and run inputs through its targets, in-process",
    long_about = "fuzz-worker loads a target library and executes its targets in-process. fuzz-run starts it as a worker; people use it to list a library's targets and to run single inputs.\n\nThe executor is not built yet: this release parses the flags and answers -help and -version."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the targets of a library and their argument types.
    List {
        /// The target library.
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// Print one JSON object per target.
        #[arg(long = "json")]
        json: bool,
    },
    /// Run inputs through a target, one by one, and report each.
    Run {
        /// The target library.
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// The target to run (needed when the library has several).
        #[arg(long = "target", value_name = "NAME")]
        target: Option<String>,
        /// Time one input may run before it counts as a hang.
        #[arg(long = "timeout", value_name = "D", default_value = "10s", value_parser = fuzz_core::duration::parse)]
        timeout: std::time::Duration,
        /// Inputs are raw bytes, not v1 files.
        #[arg(long = "raw")]
        raw: bool,
        /// Sanitizer runtime to preload (default: asked from clang-19).
        #[arg(long = "sanitizer-runtime", value_name = "PATH")]
        sanitizer_runtime: Option<PathBuf>,
        /// Input files; - reads one input from stdin.
        #[arg(value_name = "INPUT", required = true)]
        inputs: Vec<PathBuf>,
    },
}

pub const MAN: crate::man::Extra = crate::man::Extra {
    sections: &[
        ("EXIT STATUS", crate::man::EXIT_STATUS),
        (
            "EXAMPLES",
            "List the targets of a library:

    fuzz-worker list ./libparse.so

Re-run a crasher:

    fuzz-worker run ./libparse.so -target FuzzParse testdata/fuzz/FuzzParse/5be68f4bef781b36",
        ),
    ],
};
