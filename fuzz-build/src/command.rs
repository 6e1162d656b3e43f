//! Running the compilers: the command shown with -v, and a program that
//! cannot be run said in one line, with how to install it. A compiler
//! never outlives fuzz-build: it gets SIGKILL when fuzz-build dies, even of
//! SIGKILL (`fuzz_cli::child`), and what fuzz-build was building is swept
//! by the next build (`cache::Entry::scratch`).

use fuzz_cli::CliError;
use std::process::{Command, Output};

/// Runs `cmd` with its output captured and its stdin closed. A program
/// missing from PATH is misuse, with `install` (how to get it) in the
/// message.
pub fn run(cmd: &mut Command, verbose: bool, install: &str) -> Result<Output, CliError> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    if verbose {
        let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
        let line = format!("{program} {}", args.join(" "));
        match cmd.get_current_dir() {
            Some(dir) => eprintln!("fuzz-build: (cd {} && {line})", dir.display()),
            None => eprintln!("fuzz-build: {line}"),
        }
    }
    fuzz_cli::child::output(cmd)
        .map(|(out, _)| out)
        .map_err(|e| {
            CliError::misuse(if e.kind() == std::io::ErrorKind::NotFound {
                format!("cannot run {program}: it is not on PATH ({install})")
            } else {
                format!("cannot run {program}: {}", fuzz_core::error::describe(&e))
            })
        })
}
