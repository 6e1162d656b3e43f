//! Fuzz mode: Go's coordinator, one per target (`coordinator.rs`, an
//! event loop carrying out the decisions of `state.rs`), and the turns
//! several targets take.
//!
//! Load the seed corpus (testdata) and the generated corpus (cache), start
//! the workers, run every entry once for baseline coverage, then hand out
//! entries round robin for the workers to mutate. A worker answers when an
//! input reaches new coverage (minimized, written to the cache, queued) or
//! fails (minimized, written to `testdata/fuzz/<Target>/`, reported). A
//! worker that dies, hangs or blows its memory limit is a finding too: the
//! input it was running is read from its shared memory. Progress goes to
//! stderr every 3 s in Go's words; results to stdout, or as JSON events
//! with -json.
//!
//! Beyond Go, -fuzz may match several targets. Each has its own
//! [`Coordinator`] for the whole run, and they take turns (`turns.rs`
//! decides who and how long): a turn starts -parallel workers for its
//! target and stops them when it ends. The baseline runs once, on a
//! target's first turn; a later turn's fresh workers learn the coverage and
//! the corpus with their first slice, as a replaced worker does.

use crate::cli::Cli;
use crate::coordinator::{Coordinator, TurnEnd};
use crate::findings::Outputs;
use crate::plan::Plan;
use crate::report::{fmt_duration, Reporter, Stop};
use crate::rerun::Rerun;
use crate::state::Phase;
use crate::sync::Syncer;
use crate::targets::{self, TargetInfo};
use crate::turns::{Turns, TURN};
use crate::workers::Listed;
use fuzz_cli::{CliError, Status};
use fuzz_core::duration::{format_secs, Limit};
use fuzz_core::store::cache;
use fuzz_core::worker::protocol::GoStatus;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

pub fn run(cli: &Cli) -> Result<Status, CliError> {
    let start = Instant::now();
    let plan = Plan::new(cli)?;
    let worker_bin = &plan.worker_bin;
    let pattern = cli.fuzz.as_deref().unwrap_or_default();
    // The worker that lists the library becomes the first target's first
    // worker, and its scratch directory that target's workers'.
    let scratch = fuzz_cli::scratch::dir()?;
    let (targets, spare) = targets::list(worker_bin, cli, &plan.serve, scratch.path())?;
    let chosen = not_skipping(targets::select_for_fuzz(&targets, pattern)?);
    if chosen.is_empty() {
        return Ok(Status::Success);
    }
    targets::check_instrumented(&cli.lib, &chosen)?;
    if let Some(cmp_lib) = &cli.cmp_lib {
        targets::check_cmp_lib(worker_bin, cmp_lib, &chosen, scratch.path())?;
    }
    let mut listed = Some(Listed {
        spare,
        dir: scratch,
    });
    let several = chosen.len() > 1;
    let cache_root = fuzz_cli::cache::env(cli.fuzzcachedir.as_deref())?.root()?;
    let lib_id = cache::library_id(&cli.lib)?;
    let sync = match &cli.sync {
        Some(dir) => Some(Rc::new(RefCell::new(Syncer::open(
            dir,
            cli.sync_id.as_deref(),
            cli.sync_interval,
            fuzz_core::store::sync::entry_cap(cli.max_len),
        )?))),
        None => None,
    };
    let mut coordinators = Vec::new();
    let mut malformed = 0;
    for target in chosen {
        let outputs = Outputs::new(
            cache::seed_dir(&cli.testdata, &target.name),
            cache_root.clone(),
            cache::target_dir(&cache_root, &lib_id, &target.name),
            Rerun::from_cli(cli),
        );
        let reporter = Reporter::new(cli.json, start, &target.name, several);
        let opened = Coordinator::open(
            &plan,
            target,
            outputs,
            reporter,
            sync.clone(),
            listed.take(),
        );
        match opened? {
            Some(c) => coordinators.push(c),
            // As Go: a bad seed file fails the target before any fuzzing.
            None => malformed += 1,
        }
    }
    if coordinators.is_empty() {
        // Nothing to fuzz: every target failed before it started.
        if !cli.json {
            summary(cli, &coordinators, Status::Finding, start)?;
        }
        return Ok(Status::Finding);
    }
    if several {
        let names: Vec<&str> = coordinators
            .iter()
            .map(|c| c.state.target.name.as_str())
            .collect();
        announce(cli, &names);
    }
    fuzz_cli::interrupt::install();
    let interrupted = take_turns(cli, &mut coordinators)?;
    // Ctrl-C: every target not done yet ends where it stands.
    for c in coordinators
        .iter_mut()
        .filter(|c| c.state.phase != Phase::Finished)
    {
        c.finish(if interrupted {
            Stop::Interrupted
        } else {
            Stop::Time
        })?;
    }
    if let Some(sync) = &sync {
        sync.borrow_mut().keep(true);
    }
    let failed = malformed
        + coordinators
            .iter()
            .filter(|c| c.state.counts.failures > 0)
            .count();
    let status = if failed > 0 {
        Status::Finding
    } else {
        Status::Success
    };
    if !cli.json {
        summary(cli, &coordinators, status, start)?;
    }
    Ok(status)
}

/// The chosen targets but the Go fuzz tests that skip (f.Skip before
/// f.Fuzz), which go test -fuzz does not fuzz either: each is said.
fn not_skipping(mut chosen: Vec<&TargetInfo>) -> Vec<&TargetInfo> {
    chosen.retain(|t| {
        let skips = t.go.as_ref().is_some_and(|g| g.status == GoStatus::Skip);
        if skips {
            eprintln!(
                "fuzz-run: {}: not fuzzed: {}",
                t.name,
                t.go.as_ref().map(|g| g.why()).unwrap_or_default()
            );
        }
        !skips
    });
    chosen
}

/// Runs the turns until every target is done or Ctrl-C; true on Ctrl-C.
fn take_turns(cli: &Cli, coordinators: &mut [Coordinator]) -> Result<bool, CliError> {
    let mut turns = Turns::new(coordinators.len(), cli.fuzz_limit(), cli.seed.is_some());
    while let Some(turn) = turns.next_turn() {
        if fuzz_cli::interrupt::interrupted() {
            return Ok(true);
        }
        let c = &mut coordinators[turn.target];
        let began = Instant::now();
        let end = c.take_turn(&turn)?;
        if turns.spent(turn.target, began.elapsed(), end != TurnEnd::HandOver) {
            c.finish(Stop::Time)?;
        }
        if end == TurnEnd::Interrupted {
            return Ok(true);
        }
    }
    Ok(false)
}

/// go test's last lines: the targets that passed (when several shared
/// the run; the failures were reported as they were found), then PASS or
/// FAIL.
fn summary(
    cli: &Cli,
    coordinators: &[Coordinator],
    status: Status,
    start: Instant,
) -> Result<(), CliError> {
    let mut out = String::new();
    if coordinators.len() > 1 {
        for c in coordinators.iter().filter(|c| c.state.counts.failures == 0) {
            out.push_str(&format!(
                "--- PASS: {} ({:.2}s)\n",
                c.state.target.name,
                c.used.as_secs_f64()
            ));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let lib = cli.lib_shown().display();
    out.push_str(&match status {
        Status::Success => format!("PASS\nok  \t{lib}\t{secs:.3}s"),
        _ => format!("FAIL\nFAIL\t{lib}\t{secs:.3}s"),
    });
    fuzz_cli::io::print_line(out)
}

/// Says, when several targets match, which are fuzzed (those whose seed
/// corpus loaded) and how they share the run.
fn announce(cli: &Cli, names: &[&str]) {
    let n = names.len();
    let list = names.join(", ");
    let turns = format!("in turns of up to {}", format_secs(TURN.as_secs()));
    let how = match cli.fuzz_limit() {
        _ if n < 2 => String::new(),
        Some(Limit::Time(d)) => format!(", {} each, {turns}", fmt_duration(d / n as u32)),
        Some(Limit::Count(c)) if cli.seed.is_some() => {
            format!(", {c} executions each, one after another")
        }
        Some(Limit::Count(c)) => format!(", {c} executions each, {turns}"),
        None => format!(", {turns} until stopped"),
    };
    let plural = if n == 1 { "" } else { "s" };
    if n > 0 {
        eprintln!("fuzz: fuzzing {n} target{plural}{how}: {list}");
    }
}
