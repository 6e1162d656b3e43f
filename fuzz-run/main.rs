//! fuzz-run: the coordinator. Without -fuzz it replays every target's seed
//! corpus, as plain `go test` does (`regress.rs`); with -fuzz it fuzzes the
//! targets it matches with worker processes (`fuzz.rs`), several in turns
//! (`turns.rs`). Targets are executed only by fuzz-worker processes this
//! tool starts.

mod coordinator;
mod corpus;
mod dispatch;
mod findings;
mod fuzz;
mod regress;
mod report;
mod rerun;
mod state;
mod sync;
mod targets;
mod triage;
mod turns;

use fuzz_cli::run::Cli;
use fuzz_cli::{CliError, Status};

const TOOL: &str = "fuzz-run";

fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run_with_matches::<Cli, _>(TOOL, run)
}

fn run(cli: Cli, matches: &clap::ArgMatches) -> Result<Status, CliError> {
    cli.check_testdata(matches)?;
    fuzz_cli::target::check_library_name(&cli.lib)?;
    if cli.fuzzing() {
        fuzz::run(&cli)
    } else {
        regress::run(&cli)
    }
}
