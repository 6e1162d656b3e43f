//! One target's coordinator: the event loop that carries out the
//! decisions of its [`State`] (`dispatch.rs`: what to hand out, when a
//! turn ends; `triage.rs`: what answers and deaths mean; `failure.rs`: a
//! failure's life). It alone touches files and the terminal, and the
//! worker processes through [`Workers`], their one owner: it starts a
//! turn's workers, turns their answers and deaths into events for the
//! state, carries out the actions that come back, has the hang watch look
//! at them, and reports progress.

use crate::corpus::{self, Origin};
use crate::dispatch::{Clock, Step};
use crate::findings::Outputs;
use crate::plan::Plan;
use crate::report::{fmt_duration, Failure, Reporter, Snapshot, Stop};
use crate::state::{Action, Finding, Phase, Slot, State};
use crate::sync::Syncer;
use crate::targets::TargetInfo;
use crate::turns::Turn;
use crate::workers::{Launcher, Listed, Workers};
use fuzz_cli::CliError;
use fuzz_core::run_events::{self, secs3, FuzzEvent};
use fuzz_core::worker::client::Event;
use fuzz_core::worker::protocol::{self, GoStatus, Response};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// Its time was up: the next target's turn.
    HandOver,
    /// The target is done: its -fuzztime, or a failure that stops it.
    Finished,
    /// Ctrl-C: every target stops.
    Interrupted,
}

/// One target's fuzzing, over all of its turns: its decisions' [`State`]
/// and what carries them out.
pub struct Coordinator {
    pub state: State,
    /// The turn's worker processes, by slot.
    workers: Workers,
    outputs: Outputs,
    reporter: Reporter,
    events: Receiver<Event>,
    /// Workers per turn.
    parallel: usize,
    /// Several targets share the run.
    several: bool,
    /// Time spent in the target's turns before the current one, and when
    /// the current one began.
    pub used: Duration,
    turn_began: Option<Instant>,
    /// The -sync directory, shared with the run's other targets.
    sync: Option<Rc<RefCell<Syncer>>>,
}

impl Coordinator {
    /// Loads `target`'s seed corpus and cache. A malformed seed corpus fails
    /// the target before any fuzzing, as in Go: it is reported, and `None`.
    pub fn open(
        plan: &Plan,
        target: &TargetInfo,
        outputs: Outputs,
        reporter: Reporter,
        sync: Option<Rc<RefCell<Syncer>>>,
        listed: Option<Listed>,
    ) -> Result<Option<Coordinator>, CliError> {
        let several = reporter.tagged();
        if let Some(go) = target.go.as_ref().filter(|g| g.status != GoStatus::Ok) {
            // As go test -fuzz: a fuzz test whose set-up failed fails
            // before any fuzzing (one that skips was left out before).
            let details = setup_lines(go).join("\n");
            report_unrunnable(
                &target.name,
                &reporter,
                "fuzz test failed",
                &details,
                several,
            )?;
            return Ok(None);
        }
        let (files, malformed) = corpus::load(&outputs.seed_dir, &target.args, Origin::Seed);
        let go_seeds = corpus::go_seeds(target.go.as_ref(), &target.args);
        if !malformed.is_empty() || go_seeds.is_err() {
            let mut details: Vec<String> = malformed.iter().map(|e| e.to_string()).collect();
            details.extend(go_seeds.err());
            report_unrunnable(
                &target.name,
                &reporter,
                "malformed seed corpus",
                &details.join("\n"),
                several,
            )?;
            return Ok(None);
        }
        // As go test: the f.Add values first, then the files.
        let seeds: Vec<corpus::Entry> = go_seeds
            .unwrap_or_default()
            .into_iter()
            .chain(files)
            .collect();
        // What a run killed with SIGKILL left half-written in the cache.
        fuzz_core::store::fsutil::sweep(&outputs.cache_dir, ".tmp-");
        let (cached, bad_cache) = corpus::load(&outputs.cache_dir, &target.args, Origin::Cache);
        for e in bad_cache {
            fuzz_cli::exit::warn("fuzz-run", &format!("skipping cache entry {e}"));
        }
        for e in &cached {
            touch(&outputs.cache_dir.join(&e.name));
        }
        let largest = seeds.iter().chain(&cached).map(|e| e.text.len()).max();
        let capacity =
            capacity_for(&target.args, plan.config.max_len).max(largest.unwrap_or(0)) + 64;
        let (tx, rx) = channel();
        let (spare, dir) = match listed {
            Some(Listed { spare, dir }) => (Some(spare), dir),
            None => (None, fuzz_cli::scratch::dir()?),
        };
        let workers = Workers::new(Launcher {
            worker_bin: plan.worker_bin.clone(),
            serve: plan.serve.clone(),
            cwd: plan.cwd.clone(),
            capacity,
            env: fuzz_cli::sanitizer::serve_env(&plan.serve),
            dir,
            events: tx,
            spare,
        });
        let rng = plan.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let mut state = State::new(
            plan.config.clone(),
            target.target.clone(),
            plan.lib_file.clone(),
            rng,
        );
        state.load(seeds.into_iter().chain(cached));
        reporter.event(FuzzEvent::Start)?;
        Ok(Some(Coordinator {
            state,
            workers,
            outputs,
            reporter,
            events: rx,
            parallel: plan.parallel,
            several,
            used: Duration::ZERO,
            turn_began: None,
            sync,
        }))
    }

    /// One turn: -parallel workers for this target, fuzzing until the
    /// turn's time is up (then handing over) or the target is done. The
    /// workers are stopped when it ends, whatever the outcome.
    pub fn take_turn(&mut self, turn: &Turn) -> Result<TurnEnd, CliError> {
        self.turn_began = Some(Instant::now());
        if self.several {
            self.reporter.resume();
            let workers = self.parallel;
            self.reporter.say_elapsed(&match turn.length {
                Some(d) => format!("turn of up to {} with {workers} workers", fmt_duration(d)),
                None => format!("turn with {workers} workers, until done"),
            });
            self.reporter.event(FuzzEvent::Turn {
                workers: self.parallel,
                seconds: turn.length.map(|d| secs3(d.as_secs_f64())),
            })?;
        }
        let mut result = Ok(TurnEnd::Finished);
        for w in 0..self.parallel {
            if let Err(e) = self.replace_worker(w) {
                result = Err(e);
                break;
            }
        }
        if result.is_ok() {
            result = self.turn_loop(turn);
        }
        self.stop_workers();
        if let Some(began) = self.turn_began.take() {
            self.used += began.elapsed();
        }
        result
    }

    /// The loop of one turn. With `turn.last`, the end of its length is
    /// the end of the target's -fuzztime (as Go's run ends: at once, unless
    /// a failure is being minimized); otherwise the turn hands over when
    /// its length is up, once the work in flight is done. A turn never ends
    /// before the baseline is done.
    fn turn_loop(&mut self, turn: &Turn) -> Result<TurnEnd, CliError> {
        let end_of_length = turn.length.map(|d| Instant::now() + d);
        let (deadline, hand_over_at) = if turn.last {
            (end_of_length, None)
        } else {
            (None, end_of_length)
        };
        if self.state.phase == Phase::NotBegun {
            self.begin();
        }
        let mut last_progress = Instant::now();
        let mut last_watch = Instant::now();
        loop {
            if fuzz_cli::interrupt::interrupted() {
                self.finish(Stop::Interrupted)?;
                return Ok(TurnEnd::Interrupted);
            }
            if let Some(total) = self.state.advance() {
                self.baseline_done(total)?;
            }
            let now = Instant::now();
            let clock = Clock {
                out_of_time: deadline.is_some_and(|d| now >= d),
                hand_over: hand_over_at.is_some_and(|t| now >= t),
            };
            match self.state.step(clock) {
                Step::Go => {}
                Step::Finish => {
                    self.finish(Stop::Time)?;
                    return Ok(TurnEnd::Finished);
                }
                Step::HandOver => {
                    self.progress(true)?;
                    return Ok(TurnEnd::HandOver);
                }
            }
            let actions = self.state.hand_out(clock);
            let mut finished = self.carry_out(actions)?;
            if !finished {
                let event = self.events.recv_timeout(Duration::from_millis(50));
                finished = self.handle(event)?;
            }
            if finished {
                self.finish(Stop::Finding)?;
                return Ok(TurnEnd::Finished);
            }
            if last_watch.elapsed() >= Duration::from_millis(100) {
                last_watch = Instant::now();
                self.watch();
            }
            if let (Some(sync), true) = (&self.sync, self.state.is_fuzzing()) {
                let now = self.snapshot();
                let new = sync.borrow_mut().take(&self.state.target.name, now);
                self.state.import(new);
            }
            if self.state.is_fuzzing() && last_progress.elapsed() >= Duration::from_secs(3) {
                last_progress = Instant::now();
                self.progress(false)?;
            }
        }
    }

    /// Sets up the baseline, on the target's first turn, and says so.
    fn begin(&mut self) {
        match self.state.begin() {
            0 => self.reporter.say("warning: starting with empty corpus"),
            total => self.reporter.baseline(0, total, None),
        }
    }

    fn baseline_done(&mut self, total: usize) -> Result<(), CliError> {
        let workers = self.state.slots.len();
        if total > 0 {
            self.reporter.baseline(total, total, Some(workers));
        } else {
            // Go says nothing here for an empty corpus; the worker count is
            // worth a line.
            self.reporter
                .say_elapsed(&format!("now fuzzing with {workers} workers"));
        }
        self.reporter.event(FuzzEvent::Baseline {
            entries: total,
            coverage: self.state.corpus.coverage(),
            workers,
        })
    }

    /// Turns one event from the workers into decisions and carries them
    /// out; true when the target is done.
    fn handle(&mut self, event: Result<Event, RecvTimeoutError>) -> Result<bool, CliError> {
        let actions = match event {
            Ok(Event::Answer(id, Response::Crashing)) => match self.state.slot_of(id) {
                Some(w) => match self.workers.input(w) {
                    Some(input) => self.state.on_crashing(w, &input),
                    None => return Ok(false),
                },
                None => return Ok(false),
            },
            Ok(Event::Answer(id, response)) => match self.state.slot_of(id) {
                Some(w) => {
                    self.check_version(&response)?;
                    if let Response::Hello { .. } = response {
                        self.check_idle_memory(w)?;
                    }
                    self.state
                        .on_answer(w, response)
                        .map_err(CliError::misuse)?
                }
                None => return Ok(false),
            },
            Ok(Event::Gone(id)) => match self.state.slot_of(id) {
                Some(w) => {
                    let Some(death) = self.workers.reap(w) else {
                        return Ok(false);
                    };
                    if fuzz_cli::interrupt::stopped_with_us(&death.kind, &death.report) {
                        // Left to finish(), as a worker it stops itself:
                        // a failure it was minimizing is recorded there,
                        // as it stands.
                        self.state.slots[w].vacate();
                        return Ok(false);
                    }
                    self.state
                        .on_death(w, death)
                        .map_err(|why| self.start_failure(&why))?
                }
                None => return Ok(false),
            },
            Ok(Event::Garbled(id, msg)) => {
                if let Some(w) = self.state.slot_of(id) {
                    fuzz_cli::exit::warn("fuzz-run", &format!("worker {w}: {msg}"));
                }
                return Ok(false);
            }
            Err(RecvTimeoutError::Timeout) => return Ok(false),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(CliError::misuse("all workers are gone"));
            }
        };
        self.carry_out(actions)
    }

    /// A memory limit below what a worker uses before it runs any input is
    /// refused at once: every input would blow it.
    fn check_idle_memory(&self, w: usize) -> Result<(), CliError> {
        let limit = self.state.cfg.rss_limit_mb;
        let idle = self.workers.rss_mb(w);
        match idle {
            Some(idle) if limit > 0 && idle >= limit => Err(CliError::misuse(format!(
                "-rss_limit_mb {limit}: a worker uses {idle} MiB before it runs any input; \
                 give it more (or 0 for no limit)"
            ))),
            _ => Ok(()),
        }
    }

    /// A worker of another version is refused at its handshake.
    fn check_version(&self, response: &Response) -> Result<(), CliError> {
        match response {
            Response::Hello { version, .. } if *version != protocol::VERSION => {
                Err(CliError::misuse(format!(
                    "{} speaks protocol version {version}, fuzz-run {}: install matching versions (or set FUZZ_WORKER)",
                    self.workers.worker_bin().display(),
                    protocol::VERSION
                )))
            }
            _ => Ok(()),
        }
    }

    fn start_failure(&self, why: &str) -> CliError {
        CliError::misuse(format!(
            "{}: the worker could not start: {why}",
            self.outputs.lib_shown
        ))
    }

    /// Carries out decisions in order; true when they finish the target.
    fn carry_out(&mut self, actions: Vec<Action>) -> Result<bool, CliError> {
        let mut finish = false;
        for action in actions {
            match action {
                Action::Send(w, request) => {
                    self.workers.send(w, &request);
                }
                Action::Replace { slot, fallback } => {
                    if let Err(e) = self.replace_worker(slot) {
                        if let Some(f) = fallback {
                            let recorded = self.state.record(f);
                            self.carry_out(recorded)?;
                        }
                        return Err(e);
                    }
                }
                Action::Keep {
                    entry,
                    new_features,
                    imported,
                } => {
                    self.outputs
                        .keep(&self.state, &self.reporter, &entry, new_features)?;
                    if let (Some(sync), false) = (&self.sync, imported) {
                        sync.borrow_mut()
                            .publish(&self.state.target.name, entry.as_bytes());
                    }
                }
                Action::Save(entry) => self.outputs.save(&entry),
                Action::Discard(entry) => self.outputs.discard(&entry),
                Action::Record(f) => {
                    let elapsed = self.target_elapsed();
                    self.outputs
                        .record(&self.state, &self.reporter, f, elapsed)?;
                }
                Action::Claim(f) => {
                    let theirs = self.claim(&f);
                    let then = self.state.claimed(f, theirs);
                    finish |= self.carry_out(then)?;
                }
                Action::Say(line) => self.reporter.say(&line),
                Action::Warn(line) => self.reporter.say(&format!("fuzz-run: warning: {line}")),
                Action::Finish => finish = true,
            }
        }
        Ok(finish)
    }

    /// With -sync, records a finding for the fleet: its crasher into
    /// `DIR/crashers/<Target>/`, its site claimed. Returns the crasher
    /// another instance recorded first for the site, if one did.
    fn claim(&mut self, f: &Finding) -> Option<PathBuf> {
        let sync = self.sync.as_ref()?;
        let report = format!("{}\n{}\n{}", f.kind, f.message, f.report);
        sync.borrow_mut().record(
            &self.state.target.name,
            &f.site,
            f.entry.as_bytes(),
            &report,
        )
    }

    /// A new worker in slot `w`, in place of the one there, if any; it is
    /// told all coverage and the corpus with its first slice once ready.
    fn replace_worker(&mut self, w: usize) -> Result<(), CliError> {
        let id = self
            .workers
            .start(w, &self.state.target.name, self.state.warm_up)?;
        match self.state.slots.get_mut(w) {
            Some(slot) => slot.restart(id),
            None => self.state.slots.push(Slot::started(id)),
        }
        Ok(())
    }

    /// Kills every worker of the turn (their deaths come back as events).
    fn kill_all(&mut self) {
        for w in self.workers.kill_all() {
            self.state.slots[w].dying();
        }
    }

    /// Stops the turn's workers (all at once: killed, then reaped) and
    /// empties their slots.
    fn stop_workers(&mut self) {
        self.state.slots.clear();
        self.workers.stop_all();
    }

    /// Kills workers that hang past their allowance or pass the memory
    /// limit (the state's `watch` decides); their deaths come back as
    /// events.
    fn watch(&mut self) {
        let rss_limit = self.state.cfg.rss_limit_mb;
        for (w, look, seen) in self.workers.looks(rss_limit) {
            let (seen, kill) = self.state.watch(w, &look, seen);
            if self.workers.apply(w, seen, kill) {
                self.state.slots[w].dying();
            }
        }
    }

    /// Where the run stands.
    fn snapshot(&self) -> Snapshot {
        let c = &self.state.counts;
        Snapshot {
            execs: c.execs,
            new_interesting: c.new_interesting,
            corpus: c.loaded + c.new_interesting,
            edges: self.state.corpus.edges(),
            features: self.state.corpus.coverage(),
            crashers: c.failures,
            reduced: c.reduced,
        }
    }

    /// The progress line; `last` closes a turn or the run.
    fn progress(&mut self, last: bool) -> Result<(), CliError> {
        let now = self.snapshot();
        self.reporter.progress(now, last)
    }

    /// How long the target has been fuzzed, for its `--- FAIL` line: since
    /// the run started when it has the run to itself, else its turns'.
    fn target_elapsed(&self) -> Duration {
        if self.several {
            self.used + self.turn_began.map_or(Duration::ZERO, |b| b.elapsed())
        } else {
            self.reporter.elapsed()
        }
    }

    /// The target is done: its -fuzztime is up, a failure stops it, or
    /// Ctrl-C. Its workers (if it has the turn) are killed, a failure being
    /// minimized is recorded as it stands, and its end is reported.
    pub fn finish(&mut self, stop: Stop) -> Result<(), CliError> {
        self.kill_all();
        for f in self.state.stop_jobs() {
            let recorded = self.state.record(f);
            self.carry_out(recorded)?;
        }
        for (entry, keep) in self.state.early_saves_at_stop() {
            if !keep {
                self.outputs.discard(&entry);
            } else if let Some(path) = self.outputs.keep_as_found(&entry) {
                self.state.counts.failures += 1;
                self.reporter.say(&format!(
                    "fuzz: a worker was crashing as the run stopped: its input is kept as found \
                     (not minimized) in {}",
                    path.display()
                ));
            }
        }
        // Outside its turn, the target's last line was said when its last
        // turn handed over (or it never had a turn).
        if self.turn_began.is_some() {
            self.progress(true)?;
        }
        // Every cache entry on the disk before the end is reported.
        self.outputs.flush();
        self.state.phase = Phase::Finished;
        if let Some(sync) = &self.sync {
            sync.borrow_mut()
                .note(&self.state.target.name, self.snapshot());
        }
        let fuzzed = self.used + self.turn_began.map_or(Duration::ZERO, |b| b.elapsed());
        self.reporter.summary(self.snapshot(), fuzzed, stop)
    }
}

/// Reports a target whose seed corpus holds malformed files, as Go does.
/// A target that fails before any fuzzing: a malformed seed corpus, or a
/// Go fuzz test whose set-up failed (`headline` says which).
fn report_unrunnable(
    target: &str,
    reporter: &Reporter,
    headline: &str,
    details: &str,
    several: bool,
) -> Result<(), CliError> {
    if reporter.json {
        return reporter.event(FuzzEvent::Failure(run_events::Failure::unrunnable(
            headline, details,
        )));
    }
    Failure {
        target,
        elapsed: if several {
            Duration::ZERO
        } else {
            reporter.elapsed()
        },
        headline,
        details,
        written: None,
        unwritten: None,
        rerun: None,
        seed_entry: None,
    }
    .print()
}

/// What testing printed of a Go fuzz test's set-up that failed (or
/// skipped), for a report.
pub fn setup_lines(go: &protocol::GoTest) -> Vec<String> {
    let said = go.said();
    if said.is_empty() {
        vec![go.why()]
    } else {
        said.into_iter().map(str::to_string).collect()
    }
}

/// Marks a cache entry as used now, so that `fuzz-clean -older` keeps it.
fn touch(path: &Path) {
    if let Ok(f) = std::fs::OpenOptions::new().write(true).open(path) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
}

/// Room in shared memory for any input a mutation can make.
fn capacity_for(types: &[fuzz_core::ArgType], max_len: usize) -> usize {
    types
        .iter()
        .map(|t| t.fixed_size().unwrap_or(4 + max_len))
        .sum()
}
