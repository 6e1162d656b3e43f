//! Regression mode (no -fuzz): every selected target replays its seed
//! corpus, `<testdata>/fuzz/<Target>/`, and the result is reported the way
//! plain `go test` reports fuzz targets and their entries.
//!
//! For each target, every seed file is decoded and type-checked here first.
//! As in Go, one malformed file (or one of the wrong types) fails the whole
//! target, every bad file is listed, and none of its entries runs. The good
//! entries then run in one `fuzz-worker run -json` process per target (the
//! worker survives a crashing entry and carries on with the next), and its
//! JSON lines become `--- PASS`/`--- SKIP`/`--- FAIL` lines, or with -json
//! our own JSON events (see the OUTPUT section of the man page).

use crate::cli::Cli;
use crate::rerun;
use crate::targets::{self, RunFilter, TargetInfo};
use fuzz_cli::io::write_stdout;
use fuzz_cli::{CliError, Status};
use fuzz_core::run_events::{
    secs3, EntryResult as EntryLine, Line, OutcomeDetails, RegressEnd, RegressEvent, TargetResult,
    Verdict,
};
use fuzz_core::worker::protocol::GoStatus;
use fuzz_core::worker::run_json::{RunLine, RunOutcome};
use fuzz_core::worker::serve_args::ServeArgs;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A failure report keeps its last lines, as fuzz-worker's text output does:
/// a target that wrote thousands of lines crashed at the end of them.
const REPORT_LINES: usize = 400;

/// Past this many bytes of file operands, the entries of one target are
/// split over several worker runs, so a huge corpus never hits ARG_MAX.
const ARGV_BUDGET: usize = 512 * 1024;

pub fn run(cli: &Cli) -> Result<Status, CliError> {
    let start = Instant::now();
    let pattern = cli.run.as_deref().unwrap_or("");
    let filter = RunFilter::new(pattern, "-run")?;
    let worker = fuzz_cli::find_worker::path()?;
    let scratch = fuzz_cli::scratch::dir()?;
    // The worker that lists the library serves nothing here (the files
    // are run by workers of their own): it ends at once.
    let serve = ServeArgs::new(cli.lib.clone(), None);
    let all = targets::list(&worker, cli, &serve, scratch.path())?.0;
    let selected: Vec<&TargetInfo> = all
        .iter()
        .filter(|t| filter.matches_target(&t.name))
        .collect();
    if selected.is_empty() {
        return Err(CliError::misuse(format!(
            "no target matches -run {pattern:?} (the library has: {})",
            targets::names(&all)
        )));
    }

    // Every selected corpus is read and checked before anything runs, so a
    // misuse error comes before any output. A Go fuzz test's f.Add values
    // are files of a scratch directory while they run.
    let plans: Vec<Plan> = selected
        .iter()
        .map(|t| Plan::read(cli, &filter, t, scratch.path()))
        .collect();
    if filter.selects_entries()
        && plans
            .iter()
            .all(|p| p.bad.is_empty() && p.entries.is_empty())
    {
        let dirs: Vec<String> = plans
            .iter()
            .map(|p| format!("{}/", p.dir.display()))
            .collect();
        return Err(CliError::misuse(format!(
            "-run {pattern:?} matches no seed corpus entry (looked in {})",
            dirs.join(", ")
        )));
    }

    let mut out = Output {
        json: cli.json,
        verbose: cli.verbose && !cli.json,
    };
    let mut failed_targets = 0usize;
    let mut ran_entries = 0usize;
    fuzz_cli::interrupt::install();
    for plan in &plans {
        let ran = run_target(cli, &worker, plan, &mut out)?;
        failed_targets += usize::from(!ran.passed);
        ran_entries += ran.entries;
        if fuzz_cli::interrupt::interrupted() {
            // Ctrl-C, SIGTERM: what ran is reported; the rest does not
            // run, and the replay is not a pass (exit 128 + the signal).
            break;
        }
    }

    let elapsed = start.elapsed().as_secs_f64();
    let lib = cli.lib_shown().display();
    let stopped = fuzz_cli::interrupt::interrupted().then(|| {
        let planned: usize = plans.iter().map(|p| p.entries.len()).sum();
        CliError::stopped(&format!(
            "{ran_entries} of {planned} seed corpus entries ran ({failed_targets} targets failed)"
        ))
    });
    if cli.json {
        let outcome = match (&stopped, failed_targets) {
            (Some(_), _) => "stopped",
            (None, 0) => "ok",
            (None, _) => "fail",
        };
        let end = RegressEnd {
            lib: lib.to_string(),
            outcome: outcome.to_string(),
            targets: plans.len(),
            failed: failed_targets,
            exit_code: stopped.as_ref().map(|e| e.status.code()),
            message: stopped.as_ref().map(|e| e.message.clone()),
        };
        out.json(RegressEvent::End(end), None, Some(elapsed))?;
    }
    if let Some(e) = stopped {
        return Err(e);
    }
    if !cli.json && failed_targets == 0 {
        let pass = if out.verbose { "PASS\n" } else { "" };
        out.text(&format!("{pass}ok  \t{lib}\t{elapsed:.3}s\n"))?;
    } else if !cli.json {
        out.text(&format!("FAIL\nFAIL\t{lib}\t{elapsed:.3}s\n"))?;
    }
    Ok(if failed_targets == 0 {
        Status::Success
    } else {
        Status::Finding
    })
}

/// One target's seed corpus, read and checked.
struct Plan<'a> {
    target: &'a TargetInfo,
    /// `<testdata>/fuzz/<Target>`.
    dir: PathBuf,
    /// The entries `-run` selects: (file name, path), sorted by name.
    entries: Vec<(String, PathBuf)>,
    /// One message per file that is malformed, of the wrong types, or
    /// unreadable (`file:line: reason`); any makes the target fail unrun.
    bad: Vec<String>,
    /// A Go fuzz test whose set-up failed: what testing said (the target
    /// fails unrun, as under go test).
    setup_failed: Option<Vec<String>>,
    /// A Go fuzz test that skips (f.Skip before f.Fuzz): it passes unrun.
    skipped: bool,
}

impl<'a> Plan<'a> {
    fn read(cli: &Cli, filter: &RunFilter, target: &'a TargetInfo, scratch: &Path) -> Plan<'a> {
        let dir = cli.testdata.join("fuzz").join(&target.name);
        let mut plan = Plan {
            target,
            dir,
            entries: Vec::new(),
            bad: Vec::new(),
            setup_failed: None,
            skipped: false,
        };
        match target.go.as_ref().map(|g| g.status) {
            Some(GoStatus::Fail) => {
                plan.setup_failed = target.go.as_ref().map(crate::coordinator::setup_lines);
                return plan;
            }
            Some(GoStatus::Skip) => {
                plan.skipped = true;
                return plan;
            }
            _ => {}
        }
        plan.go_seeds(filter, scratch);
        let files = match fuzz_core::store::corpus::files_in(&plan.dir) {
            Ok(files) => files,
            // No seed corpus: nothing to replay, the target passes.
            Err(fuzz_core::Error::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Vec::new()
            }
            Err(e) => {
                plan.bad.push(e.to_string());
                Vec::new()
            }
        };
        // As Go does, every file is checked, even those -run leaves out: a
        // malformed corpus fails its target whatever is selected.
        for path in files {
            if let Err(why) = check_file(&path, &target.args) {
                plan.bad.push(why);
                continue;
            }
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if filter.matches_entry(&target.name, &name) {
                plan.entries.push((name, path));
            }
        }
        plan
    }
}

impl Plan<'_> {
    /// A Go fuzz test's f.Add values, as go test runs them first: each is
    /// written to `scratch` and named `seed#N` (-run Target/seed#0 picks
    /// one).
    fn go_seeds(&mut self, filter: &RunFilter, scratch: &Path) {
        let seeds = match crate::corpus::go_seeds(self.target.go.as_ref(), &self.target.args) {
            Ok(seeds) => seeds,
            Err(why) => {
                self.bad.push(why);
                return;
            }
        };
        for seed in seeds {
            if !filter.matches_entry(&self.target.name, &seed.name) {
                continue;
            }
            let path = scratch.join(format!("{}.{}", self.target.name, seed.name));
            match std::fs::write(&path, &seed.text) {
                Ok(()) => self.entries.push((seed.name, path)),
                Err(e) => self.bad.push(fuzz_core::Error::io(&path, e).to_string()),
            }
        }
    }
}

/// Decodes one seed file and checks it against the target's types; the
/// error is `file:line: reason` (`file: reason` for a type mismatch).
fn check_file(path: &Path, args: &[fuzz_core::ArgType]) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| fuzz_core::Error::io(path, e).to_string())?;
    let values =
        fuzz_core::format::codec::decode(&bytes).map_err(|e| e.in_file(path).to_string())?;
    fuzz_core::format::codec::check_types(&values, args).map_err(|e| e.in_file(path).to_string())
}

/// Where results go: Go-shaped text, or JSON lines.
struct Output {
    json: bool,
    verbose: bool,
}

impl Output {
    fn text(&mut self, s: &str) -> Result<(), CliError> {
        write_stdout(s.as_bytes())
    }

    /// An event about `target` (or the run), `elapsed` seconds long.
    fn json(
        &mut self,
        event: RegressEvent,
        target: Option<&str>,
        elapsed: Option<f64>,
    ) -> Result<(), CliError> {
        fuzz_cli::io::print_json(&Line {
            event,
            target: target.map(str::to_string),
            elapsed: elapsed.map(secs3),
        })
    }
}

/// How one entry ended, from the worker's JSON line.
struct EntryResult {
    name: String,
    path: PathBuf,
    /// The worker's line (or one made up when the worker lost the entry).
    report: RunOutcome,
}

impl EntryResult {
    fn outcome(&self) -> &'static str {
        self.report.name()
    }

    fn passed(&self) -> bool {
        self.report.passed()
    }

    /// The entry's time for the `(0.00s)` column: the worker does not time
    /// entries, so only a hang, which ran for the timeout, shows a time.
    fn secs(&self) -> f64 {
        match self.report {
            RunOutcome::Timeout { timeout_ms, .. } => timeout_ms as f64 / 1000.0,
            _ => 0.0,
        }
    }

    /// The failure's text: a first line saying what happened, then the
    /// message or report, as go test shows a failing subtest's log.
    fn failure_text(&self) -> String {
        let (first, rest) = match &self.report {
            RunOutcome::Failed { message } => {
                let message = &go_log(message);
                if message.trim().is_empty() {
                    (
                        "failed (the target wrote no message)".to_string(),
                        String::new(),
                    )
                } else {
                    (message.to_string(), String::new())
                }
            }
            RunOutcome::Crashed { kind, report } => {
                // A sanitizer's kind names itself (`asan: heap-buffer-overflow`);
                // a signal gets a verb (`crashed: SIGSEGV`).
                let first = if kind.contains(':') {
                    kind.to_string()
                } else {
                    format!("crashed: {kind}")
                };
                (first, report.to_string())
            }
            RunOutcome::StackOverflow { report, .. } => {
                ("stack overflow".to_string(), report.to_string())
            }
            RunOutcome::Timeout { timeout_ms, .. } => (
                format!("timed out after {:?}", Duration::from_millis(*timeout_ms)),
                String::new(),
            ),
            RunOutcome::Oom { rss_mb, report, .. } => (
                format!("out of memory ({rss_mb} MiB resident)"),
                report.to_string(),
            ),
            RunOutcome::Exit {
                exit_code, report, ..
            } => (
                format!("exited with status {exit_code} (the target called exit)"),
                report.to_string(),
            ),
            RunOutcome::Lost { message } => (message.to_string(), String::new()),
            RunOutcome::Ok | RunOutcome::Rejected => (String::new(), String::new()),
        };
        if rest.trim().is_empty() {
            first
        } else {
            format!("{first}\n{rest}")
        }
    }
}

/// What one target's replay came to.
struct Ran {
    passed: bool,
    /// Its entries that ran (fewer than planned when a signal stopped it).
    entries: usize,
}

/// Runs one target's plan and prints its result.
fn run_target(cli: &Cli, worker: &Path, plan: &Plan, out: &mut Output) -> Result<Ran, CliError> {
    let ran = |passed| Ran { passed, entries: 0 };
    let start = Instant::now();
    let name = &plan.target.name;
    if out.verbose {
        out.text(&format!("=== RUN   {name}\n"))?;
    }
    let secs = start.elapsed().as_secs_f64();
    if !plan.bad.is_empty() {
        unrun(name, Unrun::Malformed(&plan.bad), secs, out)?;
        return Ok(ran(false));
    }
    if let Some(said) = &plan.setup_failed {
        unrun(name, Unrun::SetupFailed(said), secs, out)?;
        return Ok(ran(false));
    }
    if plan.skipped {
        let said: Vec<&str> = plan.target.go.iter().flat_map(|g| g.said()).collect();
        unrun(name, Unrun::Skipped(&said), secs, out)?;
        return Ok(ran(true));
    }
    if out.verbose {
        let mut s = String::new();
        for (entry, _) in &plan.entries {
            let _ = writeln!(s, "=== RUN   {name}/{entry}");
        }
        out.text(&s)?;
    }
    let results = run_entries(cli, worker, plan)?;
    let secs = start.elapsed().as_secs_f64();
    let passed = if out.json {
        json_results(cli, name, &results, secs, out)
    } else {
        text_results(cli, name, &results, secs, out)
    }?;
    Ok(Ran {
        passed,
        entries: results.len(),
    })
}

/// Why a target ran none of its entries.
enum Unrun<'a> {
    /// Its seed corpus holds malformed files (one line each): it fails,
    /// as in Go.
    Malformed(&'a [String]),
    /// A Go fuzz test whose set-up failed (f.Fatal before f.Fuzz, a
    /// panic, a second f.Fuzz): it fails, as under go test, with what
    /// testing said.
    SetupFailed(&'a [String]),
    /// A Go fuzz test that skips before f.Fuzz: it passes (shown with -v,
    /// as go test shows it).
    Skipped(&'a [&'a str]),
}

/// Reports a target that ran none of its entries.
fn unrun(name: &str, why: Unrun, secs: f64, out: &mut Output) -> Result<(), CliError> {
    let (verdict, lines): (&str, Vec<&str>) = match &why {
        Unrun::Malformed(bad) => ("FAIL", bad.iter().map(String::as_str).collect()),
        Unrun::SetupFailed(said) => ("FAIL", said.iter().map(String::as_str).collect()),
        Unrun::Skipped(said) => ("SKIP", said.to_vec()),
    };
    if out.json {
        let (malformed, setup) = match why {
            Unrun::Malformed(bad) => (bad.to_vec(), None),
            Unrun::SetupFailed(said) => (Vec::new(), Some(said.join("\n"))),
            Unrun::Skipped(_) => (Vec::new(), None),
        };
        let target = TargetResult {
            outcome: if verdict == "FAIL" {
                Verdict::Fail
            } else {
                Verdict::Skip
            },
            entries: 0,
            passed: 0,
            skipped: 0,
            failed: 0,
            malformed,
            setup,
        };
        return out.json(RegressEvent::Target(target), Some(name), Some(secs));
    }
    if verdict == "SKIP" && !out.verbose {
        return Ok(());
    }
    let mut s = format!("--- {verdict}: {name} ({secs:.2}s)\n");
    for line in lines {
        indent_into(&mut s, line, 4);
    }
    out.text(&s)
}

/// A target's results as -json events: one per entry, then the target's;
/// returns whether it passed.
fn json_results(
    cli: &Cli,
    name: &str,
    results: &[EntryResult],
    secs: f64,
    out: &mut Output,
) -> Result<bool, CliError> {
    let failed = results.iter().filter(|r| !r.passed()).count();
    let skipped = results.iter().filter(|r| r.outcome() == "rejected").count();
    for r in results {
        let (file, file_hex) = fuzz_cli::io::path_text(&r.path);
        let entry = EntryLine {
            entry: r.name.clone(),
            outcome: match r.report {
                RunOutcome::Ok => Verdict::Pass,
                RunOutcome::Rejected => Verdict::Skip,
                _ => Verdict::Fail,
            },
            result: r.outcome().to_string(),
            // The worker's fields of the finding, but its own word for it.
            details: OutcomeDetails::of(&r.report),
            file,
            file_hex,
            rerun: (!r.passed()).then(|| rerun::command(cli, name, &r.name)),
        };
        out.json(RegressEvent::Entry(entry), Some(name), None)?;
    }
    let target = TargetResult {
        outcome: if failed == 0 {
            Verdict::Pass
        } else {
            Verdict::Fail
        },
        entries: results.len(),
        passed: results.len() - failed - skipped,
        skipped,
        failed,
        malformed: Vec::new(),
        setup: None,
    };
    out.json(RegressEvent::Target(target), Some(name), Some(secs))?;
    Ok(failed == 0)
}

/// A target's results in go test's words: silent when it passed (unless
/// -v), else a line per entry that failed; returns whether it passed.
fn text_results(
    cli: &Cli,
    name: &str,
    results: &[EntryResult],
    secs: f64,
    out: &mut Output,
) -> Result<bool, CliError> {
    let failed = results.iter().filter(|r| !r.passed()).count();
    if failed == 0 && !out.verbose {
        return Ok(true);
    }
    let verdict = if failed == 0 { "PASS" } else { "FAIL" };
    let mut s = format!("--- {verdict}: {name} ({secs:.2}s)\n");
    for r in results {
        let t = r.secs();
        match r.outcome() {
            "ok" if out.verbose => {
                let _ = writeln!(s, "    --- PASS: {name}/{} ({t:.2}s)", r.name);
            }
            "rejected" if out.verbose => {
                let _ = writeln!(s, "    --- SKIP: {name}/{} ({t:.2}s)", r.name);
                indent_into(&mut s, "rejected: the target returned -1", 8);
            }
            "ok" | "rejected" => {}
            _ => {
                let _ = writeln!(s, "    --- FAIL: {name}/{} ({t:.2}s)", r.name);
                indent_into(&mut s, &last_lines(&r.failure_text()), 8);
                let _ = writeln!(s, "    To re-run: {}", rerun::command(cli, name, &r.name));
            }
        }
    }
    out.text(&s)?;
    Ok(failed == 0)
}

/// Runs a plan's entries through `fuzz-worker run -json`, one worker per
/// target (more only for a corpus too large for one command line).
fn run_entries(cli: &Cli, worker: &Path, plan: &Plan) -> Result<Vec<EntryResult>, CliError> {
    let mut results = Vec::with_capacity(plan.entries.len());
    let mut rest = plan.entries.as_slice();
    while !rest.is_empty() {
        let mut n = 0;
        let mut budget = 0;
        while n < rest.len() && (n == 0 || budget + rest[n].1.as_os_str().len() < ARGV_BUDGET) {
            budget += rest[n].1.as_os_str().len() + 1;
            n += 1;
        }
        let (batch, more) = rest.split_at(n);
        results.extend(run_batch(cli, worker, &plan.target.name, batch)?);
        rest = more;
    }
    Ok(results)
}

fn run_batch(
    cli: &Cli,
    worker: &Path,
    target: &str,
    batch: &[(String, PathBuf)],
) -> Result<Vec<EntryResult>, CliError> {
    let mut cmd = Command::new(worker);
    cmd.envs(fuzz_cli::sanitizer::worker_env(&cli.lib, None))
        .arg("run")
        .arg("-json")
        .arg("-target")
        .arg(target)
        .arg("-timeout")
        .arg(rerun::go_duration(cli.limits.timeout()))
        .arg("-rss_limit_mb")
        .arg(cli.limits.rss_limit_mb.to_string())
        .arg("--")
        .arg(&cli.lib)
        .args(batch.iter().map(|(_, p)| operand(cli, p)));
    if let Some(package) = &cli.package {
        cmd.current_dir(&package.dir);
    }
    let (out, stopped) = fuzz_cli::child::output(&mut cmd).map_err(|e| {
        CliError::misuse(format!(
            "cannot run {}: {}",
            worker.display(),
            fuzz_core::error::describe(&e)
        ))
    })?;
    if out.status.code() == Some(2) {
        return Err(targets::worker_error(&out.stderr, out.status));
    }
    // Whatever else the worker said (warnings) is passed on; that it was
    // stopped too, fuzz-run says itself.
    let stderr = String::from_utf8_lossy(&out.stderr);
    for line in stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| !stopped || !l.starts_with("fuzz-worker: stopped by "))
    {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
    let mut lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<RunLine>(l).ok().map(|l| l.outcome))
        .collect::<Vec<_>>()
        .into_iter();
    let lost = || {
        let why = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map_or_else(
                || out.status.to_string(),
                |l| format!("{}: {l}", out.status),
            );
        RunOutcome::Lost {
            message: format!("fuzz-worker ended without reporting this entry ({why})"),
        }
    };
    // Stopped by Ctrl-C, or by a scheduler that signalled the worker too
    // (it may have ended before this process had its own signal): the
    // entries it did not report did not run.
    let stopped = stopped || (lines.len() < batch.len() && fuzz_cli::interrupt::stop_follows());
    let ran = if stopped { lines.len() } else { batch.len() };
    Ok(batch[..ran.min(batch.len())]
        .iter()
        .map(|(name, path)| EntryResult {
            name: name.clone(),
            path: path.clone(),
            report: lines.next().flatten().unwrap_or_else(lost),
        })
        .collect())
}

/// An entry's path as the worker's operand: one that starts with `-` is
/// not taken for a flag, and with a Go package, whose directory the worker
/// runs in, it is absolute.
fn operand(cli: &Cli, p: &Path) -> OsString {
    if cli.package.is_some() {
        return std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .into_os_string();
    }
    if p.as_os_str().to_string_lossy().starts_with('-') {
        Path::new(".").join(p).into_os_string()
    } else {
        p.as_os_str().to_owned()
    }
}

/// A Go fuzz test's failure as its subtest's log: testing's message is
/// the fuzz test's own `--- FAIL: FuzzX (0.00s)` line with the log under
/// it, which go test shows under the entry's line; any other message as it
/// is.
fn go_log(message: &str) -> String {
    let Some(rest) = message
        .strip_prefix("--- FAIL: ")
        .and_then(|m| m.split_once('\n'))
        .map(|(_, rest)| rest)
    else {
        return message.to_string();
    };
    rest.lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Appends `text` to `s`, every line indented by `n` spaces (empty lines
/// stay empty).
fn indent_into(s: &mut String, text: &str, n: usize) {
    for line in text.trim_end().lines() {
        let line = line.trim_end();
        if line.is_empty() {
            s.push('\n');
        } else {
            let _ = writeln!(s, "{:n$}{line}", "");
        }
    }
}

/// The first line and the last [`REPORT_LINES`] of a long text.
fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    if lines.len() <= REPORT_LINES + 1 {
        return lines.join("\n");
    }
    let cut = lines.len() - REPORT_LINES;
    let mut out = vec![
        lines[0].to_string(),
        format!("... {} earlier lines of output", cut - 1),
    ];
    out.extend(lines[cut..].iter().map(|l| l.to_string()));
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_lines() {
        let mut s = String::new();
        indent_into(&mut s, "a\n\nb\n", 4);
        assert_eq!(s, "    a\n\n    b\n");
    }

    #[test]
    fn keeps_the_end_of_long_reports() {
        let text: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let kept = last_lines(&text.join("\n"));
        let lines: Vec<&str> = kept.lines().collect();
        assert_eq!(lines[0], "0");
        assert_eq!(lines.len(), REPORT_LINES + 2);
        assert_eq!(*lines.last().unwrap(), "999");
    }
}
