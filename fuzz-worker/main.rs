//! fuzz-worker: flags are parsed; the engine behind them lands with the engine
//! issues, so every run ends with a clear "not built yet" error.

fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<fuzz_cli::worker::Cli, _>("fuzz-worker", |_cli| {
        Err(fuzz_cli::CliError::misuse(
            "not built yet: this release of fuzz-worker only parses its flags",
        ))
    })
}
