//! fuzz-run: the coordinator. Without -fuzz it replays every target's seed
//! corpus, as plain `go test` does (`regress.rs`); with -fuzz it fuzzes the
//! targets it matches with worker processes (`fuzz.rs`), several in turns
//! (`turns.rs`). Targets are executed only by fuzz-worker processes this
//! tool starts.

pub mod cli;
mod coordinator;
mod corpus;
mod dispatch;
mod failure;
mod findings;
mod fuzz;
mod plan;
mod regress;
mod report;
mod rerun;
mod slot;
mod state;
mod sync;
mod targets;
mod triage;
mod turns;
mod workers;

use crate::cli::Cli;
use fuzz_cli::{CliError, Status};

const TOOL: &str = "fuzz-run";

/// A package directory's testdata, named as the user named the directory
/// (`testdata` for `.`, as go test prints it).
fn seed_root(dir: &std::path::Path) -> std::path::PathBuf {
    if dir == std::path::Path::new(".") {
        "testdata".into()
    } else {
        dir.join("testdata")
    }
}

/// A Go package's directory as the operand: its library stands for it, its
/// seed corpus is its own testdata/fuzz/ (unless -testdata says otherwise),
/// and its workers run in it, as go test runs tests.
fn take_package(
    cli: &mut Cli,
    matches: &clap::ArgMatches,
    package: fuzz_cli::package::Package,
) -> Result<(), CliError> {
    if cli.cmp_lib.is_some() {
        return Err(CliError::misuse(
            "-cmp_lib: a Go package is one build (its comparisons are noted without a second)",
        ));
    }
    if matches.value_source("testdata") != Some(clap::parser::ValueSource::CommandLine) {
        cli.testdata = seed_root(&package.operand);
    }
    // The workers run in the package's directory: what they are given by
    // path must not depend on where fuzz-run runs.
    if let Some(dict) = &cli.dict {
        cli.dict = Some(std::path::absolute(dict).map_err(|e| CliError::io(dict, &e))?);
    }
    cli.lib = package.lib.clone();
    cli.package = Some(package);
    Ok(())
}

/// Runs fuzz-run on this process's arguments: the binary's whole body.
pub fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run_with_matches::<Cli, _>(TOOL, |cli, matches| {
        let (json, fuzzing) = (cli.json, cli.fuzzing());
        let start = std::time::Instant::now();
        let result = run(cli, matches);
        if json {
            exit_event(&result, start, fuzzing);
        }
        result
    })
}

/// With -json, every run ends with this one event, whatever happened:
/// the outcome and the exit code (see OUTPUT in the man page).
fn exit_event(result: &Result<Status, CliError>, start: std::time::Instant, fuzzing: bool) {
    use fuzz_core::run_events::{secs3, Exit, FuzzEvent, Line, RegressEvent};
    let (outcome, code, message) = match result {
        Ok(Status::Success) => ("ok", 0, None),
        Ok(status) => ("fail", status.code(), None),
        Err(e) => (
            match e.status {
                Status::Stopped(_) => "stopped",
                Status::Misuse => "misuse",
                Status::Finding => "fail",
                Status::Success => "ok",
            },
            e.status.code(),
            Some(e.message.as_str()).filter(|m| !m.is_empty()),
        ),
    };
    let exit = Exit {
        outcome: outcome.to_string(),
        exit_code: code,
        message: message.map(str::to_string),
    };
    let elapsed = Some(secs3(start.elapsed().as_secs_f64()));
    // The same line in either mode, typed as that mode's events are.
    let _ = if fuzzing {
        fuzz_cli::io::print_json(&Line {
            event: FuzzEvent::Exit(exit),
            target: None,
            elapsed,
        })
    } else {
        fuzz_cli::io::print_json(&Line {
            event: RegressEvent::Exit(exit),
            target: None,
            elapsed,
        })
    };
}

fn run(mut cli: Cli, matches: &clap::ArgMatches) -> Result<Status, CliError> {
    if let Some(package) = fuzz_cli::package::build(&cli.lib)? {
        take_package(&mut cli, matches, package)?;
    }
    cli.check_testdata(matches)?;
    if cli.fuzzing() {
        fuzz::run(&cli)
    } else {
        regress::run(&cli)
    }
}
