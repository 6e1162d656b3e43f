//! One target's coordinator: the event loop that carries out the
//! decisions of its [`State`] (`dispatch.rs`: what to hand out, when a
//! turn ends; `triage.rs`: what answers and deaths mean). It alone touches
//! worker processes, files and the terminal: it starts a turn's workers,
//! turns their answers and deaths into events for the state, carries out
//! the actions that come back, watches for hangs and memory blow-ups, and
//! reports progress.

use crate::corpus::{self, Origin};
use crate::dispatch::{Clock, Kill, Look, Seen, Step};
use crate::findings::Outputs;
use crate::plan::Plan;
use crate::report::{fmt_duration, Failure, Reporter, Snapshot, Stop};
use crate::state::{Action, Finding, Phase, Slot, State};
use crate::sync::Syncer;
use crate::targets::TargetInfo;
use crate::turns::Turn;
use fuzz_cli::CliError;
use fuzz_core::run_events::{self, secs3, FuzzEvent};
use fuzz_core::worker::client::{Event, Killed, Spawn, Worker, WorkerId};
use fuzz_core::worker::protocol::{self, GoStatus, Response};
use fuzz_core::worker::serve_args::ServeArgs;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
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

/// How a target's workers are started.
struct Launcher {
    worker_bin: PathBuf,
    /// What every worker serves (the target and the warm-up set at each
    /// start).
    serve: ServeArgs,
    /// The workers' working directory: a Go package's.
    cwd: Option<PathBuf>,
    /// Room in shared memory for any input a mutation can make.
    capacity: usize,
    /// Shared memory files and stderr captures.
    dir: tempfile::TempDir,
    /// Workers started so far: the next one's number.
    spawned: usize,
    events: Sender<Event>,
}

impl Launcher {
    fn spawn(&mut self, target: &str, warm_up: bool) -> Result<(WorkerId, Worker), CliError> {
        let id = WorkerId(self.spawned);
        self.spawned += 1;
        let serve = ServeArgs {
            target: Some(target.to_string()),
            no_warm_up: !warm_up,
            ..self.serve.clone()
        };
        let spawn = Spawn {
            worker: &self.worker_bin,
            serve: &serve,
            dir: self.dir.path(),
            capacity: self.capacity,
            cwd: self.cwd.as_deref(),
        };
        let w = Worker::spawn(id, &spawn, self.events.clone()).map_err(CliError::misuse)?;
        Ok((id, w))
    }

    /// Removes what a worker left in the spawn directory.
    fn clean_up(&self, w: &Worker) {
        let _ = std::fs::remove_file(&w.shm_path);
        let capture = self.dir.path().join(format!("worker{}.stderr", w.index));
        let _ = std::fs::remove_file(capture);
    }
}

/// A worker process, owned by the shell, with what the hang watch last
/// saw of it.
struct Process {
    worker: Worker,
    seen: Seen,
}

/// One target's fuzzing, over all of its turns: its decisions' [`State`]
/// and what carries them out.
pub struct Coordinator {
    pub state: State,
    /// The processes of the turn's workers, by slot (`None` between a
    /// worker's death and its replacement).
    processes: Vec<Option<Process>>,
    outputs: Outputs,
    reporter: Reporter,
    launcher: Launcher,
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
        let launcher = Launcher {
            worker_bin: plan.worker_bin.clone(),
            serve: plan.serve.clone(),
            cwd: plan.cwd.clone(),
            capacity,
            dir: fuzz_cli::scratch::dir()?,
            spawned: 0,
            events: tx,
        };
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
            processes: Vec::new(),
            outputs,
            reporter,
            launcher,
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
                Some(w) => match self.process(w) {
                    Some(p) => {
                        let input = p.worker.input();
                        self.state.on_crashing(w, &input)
                    }
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
                    let Some(Process { mut worker, .. }) =
                        self.processes.get_mut(w).and_then(Option::take)
                    else {
                        return Ok(false);
                    };
                    let death = worker.death();
                    self.launcher.clean_up(&worker);
                    drop(worker);
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
        let idle = self.process(w).and_then(|p| p.worker.rss_mb());
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
                    self.launcher.worker_bin.display(),
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
                    if let Some(p) = self.processes.get_mut(w).and_then(Option::as_mut) {
                        // A worker gone meanwhile: its Gone event follows.
                        let _ = p.worker.send(&request);
                        // Its clock starts with each request.
                        p.seen.at = Instant::now();
                    }
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
        let (id, worker) = self
            .launcher
            .spawn(&self.state.target.name, self.state.warm_up)?;
        let seen = Seen {
            execs: 0,
            at: Instant::now(),
        };
        let process = Some(Process { worker, seen });
        match self.state.slots.get_mut(w) {
            Some(slot) => {
                slot.restart(id);
                self.processes[w] = process;
            }
            None => {
                self.state.slots.push(Slot::started(id));
                self.processes.push(process);
            }
        }
        Ok(())
    }

    /// The process of slot `w`'s worker, if it has one.
    fn process(&self, w: usize) -> Option<&Process> {
        self.processes.get(w).and_then(Option::as_ref)
    }

    /// Kills every worker of the turn (their deaths come back as events).
    fn kill_all(&mut self) {
        for (w, p) in self.processes.iter_mut().enumerate() {
            if let Some(p) = p {
                p.worker.kill(Killed::Stopping);
                self.state.slots[w].dying();
            }
        }
    }

    /// Stops the turn's workers (all at once: killed, then reaped) and
    /// empties their slots.
    fn stop_workers(&mut self) {
        self.kill_all();
        self.state.slots.clear();
        for p in self.processes.drain(..).flatten() {
            self.launcher.clean_up(&p.worker);
            p.worker.stop();
        }
    }

    /// Kills workers that hang past their allowance or pass the memory
    /// limit (the state's `watch` decides); their deaths come back as
    /// events.
    fn watch(&mut self) {
        let now = Instant::now();
        let rss_limit = self.state.cfg.rss_limit_mb;
        for (w, p) in self.processes.iter_mut().enumerate() {
            let Some(p) = p else { continue };
            let killed = p.worker.killed;
            let look = Look {
                execs: p.worker.shm.execs(),
                running: p.worker.shm.running(),
                rss_mb: (rss_limit > 0 && killed.is_none())
                    .then(|| p.worker.rss_mb())
                    .flatten(),
                killed,
                now,
            };
            let (seen, kill) = self.state.watch(w, &look, p.seen);
            p.seen = seen;
            match kill {
                Some(Kill::OutOfMemory(rss)) => p.worker.kill(Killed::OutOfMemory(rss)),
                Some(Kill::Timeout) => p.worker.time_out(),
                None => continue,
            }
            self.state.slots[w].dying();
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
