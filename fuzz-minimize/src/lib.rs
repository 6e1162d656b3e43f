//! fuzz-minimize: shrink an input that makes a target fail (or, with
//! -coverage, that reaches some coverage) to the smallest one that still
//! does. The work happens in a fuzz-worker process, with the one minimizer
//! of fuzz-core; failure candidates run in children the worker forks, so
//! inputs that crash the process are minimized too.

pub mod cli;

use crate::cli::Cli;
use fuzz_cli::io::{check_output_file, display, read_operand, write_output};
use fuzz_cli::{CliError, Status};
use fuzz_core::duration::Limit;
use fuzz_core::worker::client::{Death, Session};
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::protocol::{Checked, Keep, Request, Response};
use fuzz_core::{format::codec, ArgType, Value};
use std::time::{Duration, Instant};

const TOOL: &str = "fuzz-minimize";

/// Runs fuzz-minimize on this process's arguments: the binary's whole body.
pub fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<Cli, _>(TOOL, run)
}

/// The request ended because the tool was told to stop: Ctrl-C, or a stop
/// signal sent to the worker with ours (a scheduler's).
fn stopped(death: &Death) -> bool {
    death.kind == DeathKind::Stopped
        || fuzz_cli::interrupt::stopped_with_us(&death.kind, &death.report)
}

/// The one line a request that failed ends the tool with: Ctrl-C (or a
/// stop signal sent with ours) is a stop, anything else misuse in the
/// worker's own words.
fn failed(death: &Death) -> CliError {
    if stopped(death) {
        return CliError::interrupted();
    }
    CliError::misuse(
        fuzz_core::worker::crash::last_said(&death.report)
            .map(str::to_string)
            .unwrap_or(format!("the worker died ({})", death.kind)),
    )
}

fn run(cli: Cli) -> Result<Status, CliError> {
    let worker_bin = fuzz_cli::find_worker::path()?;
    // Read the input and check -o before starting anything: a result that
    // could not be written is said at once, not after the whole budget.
    let input = read_operand(&cli.input)?;
    let name = display(&cli.input);
    if let Some(output) = &cli.output {
        check_output_file(output, "-o")?;
    }
    let target =
        fuzz_cli::target::choose(&worker_bin, &cli.lib, cli.target.as_deref(), &[&cli.input]);
    let dir = fuzz_cli::scratch::dir()?;
    let mut session = Session::start(
        &worker_bin,
        &cli.lib,
        target.as_deref(),
        dir.path(),
        input.len() * 2 + 4096,
        fuzz_cli::interrupt::interrupted,
        fuzz_cli::sanitizer::worker_env(&cli.lib, None),
    )
    .map_err(CliError::misuse)?;
    // Ctrl-C is ours once the worker is up: before, the session waits for
    // its hello without looking, and the default action ends the tool
    // (the worker dies with it).
    fuzz_cli::interrupt::install();
    let desc = session.desc.clone();
    let values = input_values(&cli, &input, &name, &desc.name, &desc.args)?;
    let entry = String::from_utf8(codec::encode(&values)).expect("v1 text is UTF-8");

    // How the input runs as given (in a forked child, so a crash is safe),
    // and so what must be kept. The worker keeps the child within
    // -timeout: no limit of the session's own.
    let check = Request::Check {
        id: 1,
        entry: entry.clone(),
        timeout_ms: cli.limits.timeout().as_millis() as u64,
        rss_limit_mb: cli.limits.rss_limit_mb,
    };
    let checked = match session.call(&check, Duration::ZERO) {
        Ok(Response::Checked { outcome, .. }) => outcome,
        Ok(Response::Error { message, .. }) => return Err(CliError::misuse(message)),
        Ok(other) => return Err(CliError::misuse(format!("unexpected answer {other:?}"))),
        Err(death) => return Err(failed(&death)),
    };
    let Some(keep) = what_to_keep(&cli, &name, &desc.name, checked) else {
        return Ok(Status::Finding);
    };

    let start = Instant::now();
    let (best, execs, interrupted) = minimize(&cli, &mut session, &entry, keep, start)?;
    session.stop();

    let best_values = codec::decode(best.as_bytes()).map_err(CliError::from)?;
    let out = if cli.raw {
        best_values[0].as_bytes().unwrap_or_default().to_vec()
    } else {
        best.clone().into_bytes()
    };
    write_output(cli.output.as_deref(), &out)?;
    let before = fuzz_core::search::minimize::size(&values);
    let after = fuzz_core::search::minimize::size(&best_values);
    eprintln!(
        "{TOOL}: {before} -> {after} bytes{} in {:.2}s{}",
        execs
            .map(|n| format!(", {n} executions"))
            .unwrap_or_default(),
        start.elapsed().as_secs_f64(),
        if interrupted {
            " (stopped early: the smallest input so far was written)"
        } else {
            ""
        }
    );
    Ok(Status::Success)
}

/// The values of the input: its raw bytes as the one []byte or string
/// argument with -raw, else the v1 file, checked against the target's types.
fn input_values(
    cli: &Cli,
    input: &[u8],
    name: &str,
    target: &str,
    types: &[ArgType],
) -> Result<Vec<Value>, CliError> {
    if cli.raw {
        return match types {
            [ArgType::Bytes] => Ok(vec![Value::Bytes(input.to_vec())]),
            [ArgType::String] => Ok(vec![Value::String(input.to_vec())]),
            other => Err(CliError::misuse(format!(
                "-raw needs a target of one []byte or string argument; {target} takes ({})",
                ArgType::format_list(other)
            ))),
        };
    }
    let v = codec::decode(input).map_err(|e| CliError::from(e.in_file(name)))?;
    codec::check_types(&v, types).map_err(|e| CliError::from(e.in_file(name)))?;
    Ok(v)
}

/// What the minimization must keep, from how the input runs as given: its
/// failure (with -same, its crash site), or with -coverage its coverage.
/// `None`, said on stderr, when there is nothing to keep (exit 1).
fn what_to_keep(cli: &Cli, name: &str, target: &str, checked: Checked) -> Option<Keep> {
    match (cli.coverage, checked.failure_site()) {
        (true, Some(site)) => {
            eprintln!("{TOOL}: {name}: the input fails ({site}); minimize it without -coverage");
            None
        }
        (true, None) => match checked {
            // The features come from the forked check, as every candidate
            // runs forked too: a target that initialises itself on its
            // first run does so in each child alike.
            Checked::Ok { features } if !features.is_empty() => Some(Keep::Coverage {
                features,
                isolate: true,
            }),
            _ => {
                eprintln!("{TOOL}: {name}: the input reaches no coverage: nothing to keep");
                None
            }
        },
        (false, None) => {
            eprintln!(
                "{TOOL}: {name}: the input does not fail {target} ({}): nothing to minimize",
                if checked == Checked::Rejected {
                    "rejected"
                } else {
                    "ok"
                }
            );
            None
        }
        (false, Some(site)) => {
            eprintln!("{TOOL}: {name} fails: {}", site_words(site));
            // An input that dies of SIGTERM, SIGINT or SIGHUP keeps that
            // site: the worker keeps no other candidate dying so, since a
            // scheduler stopping the job kills candidates so too.
            let same = cli.same || checked.by_a_stop_signal();
            Some(Keep::Failure {
                site: same.then(|| site.to_string()),
            })
        }
    }
}

/// Has the worker minimize `entry` keeping `keep`, noting progress on
/// stderr every second; returns the smallest entry, the executions it
/// took when the worker finished, and whether it was cut short (Ctrl-C,
/// or a worker that died, the best so far standing).
fn minimize(
    cli: &Cli,
    session: &mut Session,
    entry: &str,
    keep: Keep,
    start: Instant,
) -> Result<(String, Option<u64>, bool), CliError> {
    let (max_execs, millis) = match cli.fuzzminimizetime {
        Limit::Time(d) => (None, Some(d.as_millis() as u64)),
        Limit::Count(n) => (Some(n), None),
    };
    let request = Request::Minimize {
        id: 3,
        entry: entry.to_string(),
        keep,
        max_execs,
        millis,
        timeout_ms: cli.limits.timeout().as_millis() as u64,
        rss_limit_mb: cli.limits.rss_limit_mb,
    };
    let mut best = entry.to_string();
    let mut last_note = Instant::now();
    let note = |r: &Response| {
        if let Response::Progress {
            entry, execs, size, ..
        } = r
        {
            best.clone_from(entry);
            if last_note.elapsed() >= Duration::from_secs(1) {
                last_note = Instant::now();
                eprintln!(
                    "{TOOL}: {:.0}s: {size} bytes after {execs} executions",
                    start.elapsed().as_secs_f64()
                );
            }
        }
    };
    // The worker keeps to -fuzzminimizetime and each candidate to
    // -timeout: no limit of the session's own.
    match session.call_noting(&request, Duration::ZERO, note) {
        Ok(Response::Minimized { entry, execs, .. }) => Ok((entry, Some(execs), false)),
        Ok(Response::Error { message, .. }) => Err(CliError::misuse(message)),
        Ok(other) => Err(CliError::misuse(format!("unexpected answer {other:?}"))),
        // Signalled with this process: a stop, the best so far standing.
        Err(death) if stopped(&death) => Ok((best, None, true)),
        Err(death) => {
            // Only an in-process (coverage) candidate can take the worker
            // down; the best so far stands.
            eprintln!(
                "{TOOL}: warning: the worker died ({}); keeping the best so far",
                death.kind
            );
            Ok((best, None, true))
        }
    }
}

/// A crash site as words for a sentence: "the target returned failure"
/// for a failure with no place of its own.
fn site_words(site: &str) -> String {
    if site == "failure" {
        "the target returned failure".into()
    } else {
        site.to_string()
    }
}
