//! Exit codes and one-line errors, the same in every tool.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success: nothing found, the job done |
//! | 1 | a finding: a crasher, a failing or malformed corpus entry |
//! | 2 | misuse: a bad flag or value, an operand that cannot be read or parsed |
//! | 128+N | a job with a fixed amount of work stopped by signal N before it finished |
//!
//! A finding is an *outcome* a tool returns, not an error, so exit 1 never
//! mixes with exit 2. Errors print as `tool: message` on one line. A write
//! to a closed pipe ends only the printing (`io::stdout`): the work goes on
//! and the exit code is its verdict.

use clap::{CommandFactory, FromArgMatches};
use std::ffi::OsString;
use std::fmt;
use std::io::Write;
use std::process::ExitCode;

/// How a tool's run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Success,
    Finding,
    Misuse,
    /// A job with a fixed amount of work (a replay, `run`, a merge, a
    /// coverage report) stopped by this signal before it finished: exit
    /// 128 + the signal's number, as a shell reports a killed command.
    Stopped(i32),
}

impl Status {
    /// The exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Finding => 1,
            Status::Misuse => 2,
            Status::Stopped(sig) => (128 + sig.clamp(1, 127)) as u8,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s.code())
    }
}

/// An error that ends a tool: its message and the exit status it maps to.
#[derive(Debug)]
pub struct CliError {
    pub status: Status,
    pub message: String,
    /// End with exit 0 and say nothing: a closed stdout pipe, or a Ctrl-C
    /// before anything was done.
    quiet: bool,
}

impl CliError {
    /// Misuse (exit 2): a bad flag, value or operand.
    pub fn misuse(message: impl Into<String>) -> CliError {
        CliError {
            status: Status::Misuse,
            message: message.into(),
            quiet: false,
        }
    }

    /// Stopped by Ctrl-C before anything was done: exit 0, quietly, as
    /// ARCHITECTURE.md's exit-code table says of a Ctrl-C that saved nothing.
    pub fn interrupted() -> CliError {
        CliError {
            status: Status::Success,
            message: String::new(),
            quiet: true,
        }
    }

    /// A job with a fixed amount of work stopped by a signal (Ctrl-C,
    /// SIGTERM, SIGHUP) before it finished: exit 128 + its number, the
    /// message saying which signal and `how_far` the job got.
    pub fn stopped(how_far: &str) -> CliError {
        let sig = crate::interrupt::signal().unwrap_or(libc::SIGINT);
        let name = fuzz_core::worker::crash::signal_str(sig).unwrap_or("a signal");
        CliError {
            status: Status::Stopped(sig),
            message: format!("stopped by {name}: {how_far}"),
            quiet: false,
        }
    }

    /// A file operation that failed on an operand (exit 2), named by path.
    pub fn io(path: &std::path::Path, e: &std::io::Error) -> CliError {
        CliError::misuse(format!(
            "{}: {}",
            fuzz_core::error::shown(path),
            fuzz_core::error::describe(e)
        ))
    }

    /// A finding reported as an error (exit 1).
    pub fn finding(message: impl Into<String>) -> CliError {
        CliError {
            status: Status::Finding,
            message: message.into(),
            quiet: false,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<fuzz_core::Error> for CliError {
    fn from(e: fuzz_core::Error) -> CliError {
        let quiet = e.is_broken_pipe();
        CliError {
            status: Status::Misuse,
            message: e.to_string(),
            quiet,
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError {
            status: Status::Misuse,
            quiet: e.kind() == std::io::ErrorKind::BrokenPipe,
            message: fuzz_core::error::describe(&e),
        }
    }
}

/// Folds a message onto one line.
pub fn one_line(msg: &str) -> String {
    let mut s = msg.trim().replace("\r\n", "\n");
    s = s.replace('\n', "; ");
    s
}

/// Prints `tool: message` to stderr.
pub fn print_error(tool: &str, msg: &str) {
    let _ = writeln!(std::io::stderr(), "{tool}: {}", one_line(msg));
}

/// Prints `tool: warning: message` to stderr.
pub fn warn(tool: &str, msg: &str) {
    let _ = writeln!(std::io::stderr(), "{tool}: warning: {}", one_line(msg));
}

/// Prints `tool: note: message` to stderr: worth knowing, nothing wrong.
pub fn note(tool: &str, msg: &str) {
    let _ = writeln!(std::io::stderr(), "{tool}: note: {}", one_line(msg));
}

/// Parses the process arguments for a tool, with Go-style flag spelling.
/// Help and version go to stdout with exit 0; a usage error is one line on
/// stderr and exit 2.
pub fn parse<T: CommandFactory + FromArgMatches>(tool: &str) -> Result<T, ExitCode> {
    parse_from(tool, std::env::args_os().skip(1).collect())
}

pub fn parse_from<T: CommandFactory + FromArgMatches>(
    tool: &str,
    args: Vec<OsString>,
) -> Result<T, ExitCode> {
    parse_matches_from(tool, args).map(|(v, _)| v)
}

/// [`parse_from`], also returning clap's matches, which tell a flag given
/// on the command line from one left to its default.
pub fn parse_matches_from<T: CommandFactory + FromArgMatches>(
    tool: &str,
    args: Vec<OsString>,
) -> Result<(T, clap::ArgMatches), ExitCode> {
    // Help text on its own line under each flag keeps the columns straight
    // once `--name` is shown as `-name`.
    // A flag given twice takes the last value, as Go's flag package does
    // and Makefiles rely on (`$(FUZZFLAGS) -parallel 4`).
    let mut cmd = T::command().next_line_help(true).args_override_self(true);
    let original: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    cmd.build();
    let longs = crate::argv::long_names(&cmd);
    let mut argv = vec![OsString::from(tool)];
    argv.extend(crate::argv::normalize(&cmd, args));
    let result = cmd
        .clone()
        .try_get_matches_from(argv)
        .and_then(|m| T::from_arg_matches(&m).map(|v| (v, m)));
    match result {
        Ok(parsed) => Ok(parsed),
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let text = e.render().to_string();
                    let text = crate::argv::go_style(&text, &longs, "-");
                    let mut out = std::io::stdout().lock();
                    let _ = out.write_all(text.as_bytes());
                    let _ = out.flush();
                    Err(Status::Success.into())
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    // Misuse, so one line on stderr, not the usage on stdout.
                    print_error(tool, &missing_subcommand(tool, &cmd));
                    Err(Status::Misuse.into())
                }
                ErrorKind::UnknownArgument => {
                    let arg = match e.get(clap::error::ContextKind::InvalidArg) {
                        Some(clap::error::ContextValue::String(s)) => s.clone(),
                        _ => String::from("?"),
                    };
                    print_error(tool, &unknown_argument(tool, &cmd, &original, &arg));
                    Err(Status::Misuse.into())
                }
                _ => {
                    let text = e.render().to_string();
                    // The message up to the first blank line, on one line.
                    let first = text
                        .trim_start()
                        .lines()
                        .take_while(|l| !l.trim().is_empty())
                        .map(str::trim)
                        .collect::<Vec<_>>()
                        .join(" ")
                        .trim_start_matches("error: ")
                        .to_string();
                    let tip = text
                        .lines()
                        .find_map(|l| l.trim().strip_prefix("tip: "))
                        .map(|t| format!(" ({t})"))
                        .unwrap_or_default();
                    let msg = crate::argv::go_style(&format!("{first}{tip}"), &longs, "-");
                    print_error(tool, &format!("{msg}; see '{tool} -help'"));
                    Err(Status::Misuse.into())
                }
            }
        }
    }
}

/// What an unknown flag or stray operand is called: as it was typed
/// (`--bogus` stays `--bogus`); a stray operand that follows a switch and
/// reads `true` or `false` was meant as its value, which Go's flags take
/// only after `=`.
fn unknown_argument(tool: &str, cmd: &clap::Command, original: &[String], arg: &str) -> String {
    let name = arg.trim_start_matches('-');
    let typed = original
        .iter()
        .find(|a| a.starts_with('-') && a.trim_start_matches('-').split('=').next() == Some(name))
        .map_or(arg, String::as_str);
    let is_switch = |a: &str| {
        let long = a.trim_start_matches('-');
        a.starts_with('-')
            && cmd
                .get_arguments()
                .chain(cmd.get_subcommands().flat_map(|s| s.get_arguments()))
                .any(|x| x.get_long() == Some(long) && !x.get_action().takes_values())
    };
    for pair in original.windows(2) {
        if is_switch(&pair[0]) && (pair[1] == "true" || pair[1] == "false") {
            return format!(
                "{} {}: a switch takes a value only after '=' ({0}={1}); alone it means true; \
                 see '{tool} -help'",
                pair[0], pair[1]
            );
        }
    }
    format!("unknown flag or argument {typed:?}; see '{tool} -help'")
}

/// What a tool run without its subcommand says: the subcommands there are.
fn missing_subcommand(tool: &str, cmd: &clap::Command) -> String {
    let subs: Vec<&str> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .map(|s| s.get_name())
        .collect();
    if subs.is_empty() {
        format!("an operand is required; see '{tool} -help'")
    } else {
        format!(
            "a subcommand is required ({}); see '{tool} -help'",
            subs.join(", ")
        )
    }
}

/// Runs a tool's body and turns its outcome into the exit code.
pub fn run<T, F>(tool: &str, body: F) -> ExitCode
where
    T: CommandFactory + FromArgMatches,
    F: FnOnce(T) -> Result<Status, CliError>,
{
    let args = match parse::<T>(tool) {
        Ok(a) => a,
        Err(code) => return code,
    };
    finish(tool, body(args))
}

/// [`run`], for a body that must know which flags were given on the
/// command line (clap's matches: `value_source`).
pub fn run_with_matches<T, F>(tool: &str, body: F) -> ExitCode
where
    T: CommandFactory + FromArgMatches,
    F: FnOnce(T, &clap::ArgMatches) -> Result<Status, CliError>,
{
    let args = std::env::args_os().skip(1).collect();
    let (args, matches) = match parse_matches_from::<T>(tool, args) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    finish(tool, body(args, &matches))
}

/// Maps a body's result to an exit code, printing the error if any.
pub fn finish(tool: &str, result: Result<Status, CliError>) -> ExitCode {
    match result {
        Ok(status) => status.into(),
        Err(e) if e.quiet => Status::Success.into(),
        Err(e) => {
            print_error(tool, &e.message);
            e.status.into()
        }
    }
}
