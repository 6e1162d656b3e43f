//! fuzz-run: flags are parsed; the engine behind them lands with the engine
//! issues, so every run ends with a clear "not built yet" error.

fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<fuzz_cli::run::Cli, _>("fuzz-run", |_cli| {
        Err(fuzz_cli::CliError::misuse(
            "not built yet: this release of fuzz-run only parses its flags",
        ))
    })
}
