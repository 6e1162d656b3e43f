//! Fuzz mode: Go's coordinator.
//!
//! Load the seed corpus (testdata) and the generated corpus (cache), start
//! the workers, run every entry once for baseline coverage, then hand out
//! entries round-robin for the workers to mutate. A worker answers when an
//! input reaches new coverage (it is checked against the merged coverage
//! here, minimized, written to the cache and queued) or fails (it is
//! minimized, written to testdata/fuzz/<Target>/ and reported). A worker
//! that dies, hangs or blows its memory limit is a finding too: the input
//! it was running is read from its shared memory, written, and the worker
//! replaced. Progress goes to stderr every 3 s in Go's words; results to
//! stdout, or as JSON events with -json.
//!
//! Beyond Go, -fuzz may match several targets. Each has its own
//! [`Coordinator`] (corpus, coverage, cache, crash sites, counters) for the
//! whole run, and they take turns (`turns.rs` decides who and how long):
//! a turn starts -parallel workers for its target and stops them when it
//! ends. The baseline runs once, on a target's first turn; a later turn's
//! fresh workers learn the coverage and the corpus with their first slice,
//! as a replaced worker does. A turn hands over when its time is up, once
//! the work in flight is done (a failure being minimized included).

use crate::report::{Failure, Reporter};
use crate::targets::{self, TargetInfo};
use crate::turns::{Schedule, Turn, TURN};
use fuzz_cli::run::Cli;
use fuzz_cli::{CliError, Status};
use fuzz_core::duration::{format_secs, Limit};
use fuzz_core::store::cache;
use fuzz_core::worker::client::{Event, Killed, Spawn, Worker};
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::protocol::TargetKind;
use fuzz_core::worker::protocol::{Exec, Found, Keep, Request, Response};
use fuzz_core::worker::shm::{Mutation, MutatorCall};
use fuzz_core::{
    format::codec, format::value, store::corpus, store::digest, store::fsutil, ArgType, Value,
};
use serde_json::json;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Budget for minimizing an input that brought new coverage: Go spends up
/// to -fuzzminimizetime on each; we cap it, so that a busy corpus does not
/// starve fuzzing.
const COVERAGE_MINIMIZE_MS: u64 = 1000;
const COVERAGE_MINIMIZE_EXECS: u64 = 5000;
/// And in all, minimizing new inputs may take this many executions plus
/// a tenth of those spent fuzzing (AFL's trimming takes a small share
/// too); beyond, new inputs are kept as found. On a slow target early in
/// a run, when every few hundred executions find something, minimizing
/// each for a second would leave little time to fuzz. Counted in
/// executions, not time, so that a -seed run stays reproducible.
const COVERAGE_MINIMIZE_ALLOWANCE: u64 = 20_000;
const COVERAGE_MINIMIZE_SHARE: u64 = 10;
/// The request id of a warm-up run, whose answer belongs to no job.
const WARM_UP: u64 = u64::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    Seed,
    Cache,
    New,
}

struct Entry {
    name: String,
    text: String,
    origin: Origin,
}

/// The kind and report of a worker's death.
type CrashInfo = Option<(String, String)>;

/// What a worker is busy with.
#[derive(Clone, Debug)]
enum Job {
    Idle,
    Baseline(usize),
    Fuzz(usize),
    MinimizeCoverage {
        entry: String,
        features: Vec<u32>,
    },
    /// Shrinking a failing input; `entry` is the smallest so far. For a
    /// worker that died, `crash` holds its kind and report.
    MinimizeFailure {
        entry: String,
        message: String,
        crash: CrashInfo,
    },
    ConfirmFailure {
        entry: String,
        message: String,
    },
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TurnEnd {
    /// Its time was up: the next target's turn.
    HandOver,
    /// The target is done: its -fuzztime, or a failure that stops it.
    Finished,
    /// Ctrl-C: every target stops.
    Interrupted,
}

/// One target's fuzzing, over all of its turns. The per-worker vectors
/// (`workers`, `jobs`, `ids`, `synced`, `shared`, `promised`, `ready`)
/// hold the current turn's workers, by slot; they are empty between turns.
struct Coordinator<'a> {
    cli: &'a Cli,
    target: TargetInfo,
    lib_shown: String,
    lib_file: String,
    seed_dir: PathBuf,
    /// The cache root, and this target's directory below it.
    cache_root: PathBuf,
    cache_dir: PathBuf,
    spawn_dir: tempfile::TempDir,
    worker_bin: PathBuf,
    capacity: usize,
    parallel: usize,
    workers: Vec<Option<Worker>>,
    /// The spawn number of each slot's worker: events carry it, and those
    /// of workers no longer in a slot (a turn before, a replaced one) are
    /// dropped.
    ids: Vec<usize>,
    spawned: usize,
    jobs: Vec<Job>,
    events: Sender<Event>,
    rx: Receiver<Event>,
    corpus: Vec<Entry>,
    hashes: HashSet<String>,
    next: usize,
    coverage: HashSet<u32>,
    coverage_log: Vec<u32>,
    synced: Vec<usize>,
    /// How many corpus entries each worker holds a copy of (the search
    /// beyond Go's chooses parents and splices among them).
    shared: Vec<usize>,
    /// Executions promised to each worker's slice in flight, so that
    /// -fuzztime Nx is not overshot by slices running side by side.
    promised: Vec<u64>,
    /// Whether each worker said hello: only then is it sent work (a
    /// request written before it reads would block this loop).
    ready: Vec<bool>,
    execs: u64,
    /// Executions spent minimizing new inputs.
    minimize_execs: u64,
    new_interesting: usize,
    baseline_count: usize,
    /// The baseline, run on the target's first turn: entries not handed
    /// out yet (last first), how many answered, how many in all.
    baseline_queue: Vec<usize>,
    baseline_done: usize,
    baseline_total: usize,
    /// The first turn began (the baseline was set up).
    begun: bool,
    /// The baseline is done: workers mutate.
    fuzzing: bool,
    sites: HashSet<String>,
    failures: usize,
    stopping: bool,
    /// The target is done: its end reported.
    finished: bool,
    rng: u64,
    reporter: Reporter,
    minimize_types: bool,
    /// Several targets share the run.
    several: bool,
    /// Time spent in the target's turns before the current one, and when
    /// the current one began.
    used: Duration,
    turn_began: Option<Instant>,
}

pub fn run(cli: &Cli) -> Result<Status, CliError> {
    let start = Instant::now();
    let pattern = cli.fuzz.as_deref().unwrap_or_default();
    if let Some(dict) = &cli.dict {
        // Checked here, so that a bad dictionary is one line naming the
        // line at fault, before anything starts.
        let text = fuzz_cli::io::read_operand(dict)?;
        fuzz_core::search::dict::parse(&text).map_err(|e| CliError::from(e.in_file(dict)))?;
    }
    let worker_bin = fuzz_cli::find_worker::path()?;
    let targets = targets::list(&worker_bin, &cli.lib)?;
    let chosen = targets::select_for_fuzz(&targets, pattern)?;
    if let Some(cmp_lib) = &cli.cmp_lib {
        targets::check_cmp_lib(&worker_bin, cmp_lib, &chosen)?;
    }
    let several = chosen.len() > 1;
    let cache_root = fuzz_cli::cache::env(cli.fuzzcachedir.as_deref())?.root()?;
    let lib_id = cache::library_id(&cli.lib)?;
    let lib_shown = cli.lib.display().to_string();
    let mut coordinators = Vec::new();
    let mut malformed = 0;
    for target in chosen {
        let cache_dir = cache::target_dir(&cache_root, &lib_id, &target.name);
        let reporter = Reporter::new(cli.json, start, &target.name, several);
        let dirs = (cache_root.clone(), cache_dir);
        match Coordinator::open(cli, target, dirs, &worker_bin, reporter, several)? {
            Some(c) => coordinators.push(c),
            // As Go: a bad seed file fails the target before any fuzzing.
            None if !several => return Ok(Status::Finding),
            None => malformed += 1,
        }
    }

    if several {
        let names: Vec<&str> = coordinators
            .iter()
            .map(|c| c.target.name.as_str())
            .collect();
        announce(cli, &names);
    }

    fuzz_cli::interrupt::install();

    let mut schedule = Schedule::new(coordinators.len(), cli.fuzztime, cli.seed.is_some());
    let mut interrupted = false;
    while let Some(turn) = schedule.next_turn() {
        if fuzz_cli::interrupt::interrupted() {
            interrupted = true;
            break;
        }
        let c = &mut coordinators[turn.target];
        let began = Instant::now();
        let end = c.take_turn(&turn)?;
        let time_up = schedule.spent(turn.target, began.elapsed(), end != TurnEnd::HandOver);
        if time_up {
            c.finish(false)?;
        }
        if end == TurnEnd::Interrupted {
            interrupted = true;
            break;
        }
    }
    // Ctrl-C: every target not done yet ends where it stands.
    for c in coordinators.iter_mut().filter(|c| !c.finished) {
        c.finish(interrupted)?;
    }

    let failed = malformed + coordinators.iter().filter(|c| c.failures > 0).count();
    let status = if failed > 0 {
        Status::Finding
    } else {
        Status::Success
    };
    if !cli.json {
        let mut out = String::new();
        if several {
            // The failures were reported as they were found; the rest pass.
            for c in coordinators.iter().filter(|c| c.failures == 0) {
                out.push_str(&format!(
                    "--- PASS: {} ({:.2}s)\n",
                    c.target.name,
                    c.used.as_secs_f64()
                ));
            }
        }
        let secs = start.elapsed().as_secs_f64();
        out.push_str(&match status {
            Status::Success => format!("PASS\nok  \t{lib_shown}\t{secs:.3}s"),
            _ => format!("FAIL\nFAIL\t{lib_shown}\t{secs:.3}s"),
        });
        fuzz_cli::io::print_line(out)?;
    }
    Ok(status)
}

/// Says, when several targets match, which are fuzzed (those whose seed
/// corpus loaded) and how they share the run.
fn announce(cli: &Cli, names: &[&str]) {
    let n = names.len();
    let list = names.join(", ");
    let turns = format!("in turns of up to {}", format_secs(TURN.as_secs()));
    let how = match cli.fuzztime {
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

/// A duration as Go prints one (`2.5s`, `1m0s`, `250ms`), to the
/// millisecond.
fn fmt_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{}ms", d.as_millis())
    } else if d.subsec_millis() == 0 || d >= Duration::from_secs(60) {
        format_secs(d.as_secs())
    } else {
        format!("{}.{:03}", d.as_secs(), d.subsec_millis())
            .trim_end_matches('0')
            .to_string()
            + "s"
    }
}

impl<'a> Coordinator<'a> {
    /// Loads `target`'s seed corpus and cache. A malformed seed corpus fails
    /// the target before any fuzzing, as in Go: it is reported, and `None`.
    fn open(
        cli: &'a Cli,
        target: &TargetInfo,
        (cache_root, cache_dir): (PathBuf, PathBuf),
        worker_bin: &Path,
        reporter: Reporter,
        several: bool,
    ) -> Result<Option<Coordinator<'a>>, CliError> {
        let target = target.clone();
        let seed_dir = cache::seed_dir(&cli.testdata, &target.name);
        let (seeds, malformed) = load(&seed_dir, &target.args, Origin::Seed);
        if !malformed.is_empty() {
            let details: Vec<String> = malformed.iter().map(|e| e.to_string()).collect();
            if cli.json {
                reporter.event(json!({"event": "failure", "kind": "malformed seed corpus", "message": details.join("\n")}))?;
            } else {
                Failure {
                    target: &target.name,
                    elapsed: if several {
                        Duration::ZERO
                    } else {
                        reporter.elapsed()
                    },
                    headline: "malformed seed corpus",
                    details: &details.join("\n"),
                    written: None,
                    lib: &cli.lib.display().to_string(),
                    seed_entry: None,
                }
                .print()?;
            }
            return Ok(None);
        }
        let (cached, bad_cache) = load(&cache_dir, &target.args, Origin::Cache);
        for e in bad_cache {
            fuzz_cli::exit::warn("fuzz-run", &format!("skipping cache entry {e}"));
        }
        for e in &cached {
            touch(&cache_dir.join(&e.name));
        }

        let (tx, rx) = channel();
        let spawn_dir = tempfile::Builder::new()
            .prefix("fuzz-run-")
            .tempdir_in(if Path::new("/dev/shm").is_dir() {
                Path::new("/dev/shm")
            } else {
                Path::new("/tmp")
            })
            .or_else(|_| tempfile::tempdir())
            .map_err(|e| CliError::misuse(format!("cannot create a temporary directory: {e}")))?;
        let parallel = cli
            .parallel
            .map(|p| p as usize)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let parallel = match cli.fuzztime {
            Some(Limit::Count(n)) => parallel.min(n.max(1) as usize),
            _ => parallel,
        }
        .max(1);
        let mut largest = 0;
        for e in seeds.iter().chain(&cached) {
            largest = largest.max(e.text.len());
        }
        let capacity = capacity_for(&target.args, cli.max_len).max(largest) + 64;
        let rng = cli.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let minimize_types = target
            .args
            .iter()
            .any(|a| matches!(a, ArgType::Bytes | ArgType::String));
        reporter.event(json!({"event": "start"}))?;
        let mut c = Coordinator {
            cli,
            lib_shown: cli.lib.display().to_string(),
            // The worker loads the canonical path: crash reports name that file.
            lib_file: std::fs::canonicalize(&cli.lib)
                .unwrap_or_else(|_| cli.lib.clone())
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            target,
            seed_dir,
            cache_root,
            cache_dir,
            spawn_dir,
            worker_bin: worker_bin.to_path_buf(),
            capacity,
            parallel,
            workers: Vec::new(),
            ids: Vec::new(),
            spawned: 0,
            jobs: Vec::new(),
            events: tx,
            rx,
            corpus: Vec::new(),
            hashes: HashSet::new(),
            next: 0,
            coverage: HashSet::new(),
            coverage_log: Vec::new(),
            synced: Vec::new(),
            shared: Vec::new(),
            promised: Vec::new(),
            ready: Vec::new(),
            execs: 0,
            minimize_execs: 0,
            new_interesting: 0,
            baseline_count: 0,
            baseline_queue: Vec::new(),
            baseline_done: 0,
            baseline_total: 0,
            begun: false,
            fuzzing: false,
            sites: HashSet::new(),
            failures: 0,
            stopping: false,
            finished: false,
            rng,
            reporter,
            minimize_types,
            several,
            used: Duration::ZERO,
            turn_began: None,
        };
        for e in seeds.into_iter().chain(cached) {
            c.add(e);
        }
        c.baseline_count = c.corpus.len();
        Ok(Some(c))
    }

    /// One turn: -parallel workers for this target, fuzzing until the
    /// turn's time is up (then handing over) or the target is done. The
    /// workers are stopped when it ends, whatever the outcome.
    fn take_turn(&mut self, turn: &Turn) -> Result<TurnEnd, CliError> {
        self.turn_began = Some(Instant::now());
        if self.several {
            self.reporter.resume();
            let workers = self.parallel;
            self.reporter.say_elapsed(&match turn.length {
                Some(d) => format!("turn of up to {} with {workers} workers", fmt_duration(d)),
                None => format!("turn with {workers} workers, until done"),
            });
            self.reporter.event(json!({
                "event": "turn", "workers": self.parallel,
                "seconds": turn.length.map(|d| (d.as_secs_f64() * 1000.0).round() / 1000.0),
            }))?;
        }
        let mut result = Ok(TurnEnd::Finished);
        for slot in 0..self.parallel {
            self.workers.push(None);
            self.ids.push(usize::MAX);
            self.jobs.push(Job::Idle);
            self.synced.push(0);
            self.shared.push(0);
            self.promised.push(0);
            self.ready.push(false);
            if let Err(e) = self.replace_worker(slot) {
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

    /// Stops the turn's workers (all at once: killed, then reaped) and
    /// empties their slots.
    fn stop_workers(&mut self) {
        for w in self.workers.iter_mut().flatten() {
            w.kill(Killed::Stopping);
        }
        for w in self.workers.drain(..).flatten() {
            let capture = self
                .spawn_dir
                .path()
                .join(format!("worker{}.stderr", w.index));
            w.stop();
            let _ = std::fs::remove_file(capture);
        }
        self.ids.clear();
        self.jobs.clear();
        self.synced.clear();
        self.shared.clear();
        self.promised.clear();
        self.ready.clear();
    }

    /// The slot of the worker an event comes from; `None` for a worker no
    /// longer in a slot.
    fn slot_of(&self, id: usize) -> Option<usize> {
        self.ids.iter().position(|&i| i == id)
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
}

/// Reads every entry of a corpus directory, type-checked; the good ones and
/// the errors.
fn load(dir: &Path, types: &[ArgType], origin: Origin) -> (Vec<Entry>, Vec<fuzz_core::Error>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let Ok(files) = corpus::files_in(dir) else {
        return (good, bad);
    };
    for path in files {
        let entry = match corpus::Entry::read(&path) {
            Ok(e) => e,
            Err(e) => {
                bad.push(e);
                continue;
            }
        };
        let checked = entry.values.and_then(|v| {
            codec::check_types(&v, types)
                .map(|_| v)
                .map_err(|e| e.in_file(&path))
        });
        match checked {
            Ok(values) => good.push(Entry {
                name: path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                text: String::from_utf8(codec::encode(&values)).expect("v1 text is UTF-8"),
                origin,
            }),
            Err(e) => bad.push(e),
        }
    }
    (good, bad)
}

/// Marks a cache entry as used now, so that `fuzz-clean -older` keeps it.
fn touch(path: &Path) {
    if let Ok(f) = std::fs::OpenOptions::new().write(true).open(path) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
}

/// Room in shared memory for any input a mutation can make.
fn capacity_for(types: &[ArgType], max_len: usize) -> usize {
    types
        .iter()
        .map(|t| t.fixed_size().unwrap_or(4 + max_len))
        .sum()
}

impl Coordinator<'_> {
    fn spawn(&self, id: usize) -> Result<Worker, CliError> {
        let spawn = Spawn {
            worker: &self.worker_bin,
            lib: &self.cli.lib,
            target: Some(self.target.name.as_str()),
            dir: self.spawn_dir.path(),
            capacity: self.capacity,
            sanitizer_runtime: None,
            dict: self.cli.dict.as_deref(),
            cmp_lib: self.cli.cmp_lib.as_deref(),
        };
        Worker::spawn(id, &spawn, self.events.clone()).map_err(CliError::misuse)
    }

    /// A new worker in slot `w` (in place of the one there, if any), told
    /// all coverage and the corpus with its first slice once ready.
    fn replace_worker(&mut self, w: usize) -> Result<(), CliError> {
        let id = self.spawned;
        self.spawned += 1;
        let fresh = self.spawn(id)?;
        self.workers[w] = Some(fresh);
        self.ids[w] = id;
        self.synced[w] = 0;
        self.shared[w] = 0;
        self.ready[w] = false;
        Ok(())
    }

    fn next_seed(&mut self) -> u64 {
        // SplitMix64: one seed per request, from -seed when given.
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Adds an entry to the corpus unless it is there already.
    fn add(&mut self, e: Entry) -> bool {
        if !self.hashes.insert(digest::sha256_hex(e.text.as_bytes())) {
            return false;
        }
        self.corpus.push(e);
        true
    }

    fn total_execs_left(&self) -> Option<u64> {
        match self.cli.fuzztime {
            Some(Limit::Count(n)) => {
                let promised: u64 = self.promised.iter().sum();
                Some(n.saturating_sub(self.execs).saturating_sub(promised))
            }
            _ => None,
        }
    }

    fn minimize_budget(&self) -> (Option<u64>, Option<u64>) {
        match self.cli.fuzzminimizetime {
            Limit::Time(d) => (None, Some(d.as_millis() as u64)),
            Limit::Count(n) => (Some(n), None),
        }
    }

    /// Crashes are minimized whatever the argument types (numbers move
    /// towards zero too), unless -fuzzminimizetime is 0.
    fn minimizing_allowed_for_crash(&self) -> bool {
        match self.cli.fuzzminimizetime {
            Limit::Time(d) => !d.is_zero(),
            Limit::Count(n) => n > 0,
        }
    }

    fn minimizing_allowed(&self) -> bool {
        self.minimize_types
            && match self.cli.fuzzminimizetime {
                Limit::Time(d) => !d.is_zero(),
                Limit::Count(n) => n > 0,
            }
    }

    fn send(&mut self, w: usize, job: Job, request: Request) {
        let sent = match self.workers[w].as_mut() {
            Some(worker) => worker.send(&request),
            None => return,
        };
        match sent {
            Ok(()) => self.jobs[w] = job,
            Err(_) => {
                // The worker is gone; its Gone event will follow.
                self.jobs[w] = job;
            }
        }
    }

    /// Sets up the baseline, on the target's first turn: every entry is run
    /// once; an empty corpus starts from the zero values.
    fn begin(&mut self) {
        self.begun = true;
        self.baseline_queue = (0..self.corpus.len()).collect();
        self.baseline_queue.reverse();
        self.baseline_total = self.baseline_queue.len();
        if self.baseline_total == 0 {
            self.reporter.say("warning: starting with empty corpus");
            let zero: Vec<Value> = self.target.args.iter().map(Value::zero).collect();
            let text = String::from_utf8(codec::encode(&zero)).expect("v1 text is UTF-8");
            self.add(Entry {
                name: "zero".into(),
                text,
                origin: Origin::New,
            });
        } else {
            self.reporter.baseline(0, self.baseline_total, None);
        }
    }

    /// The loop of one turn. With `turn.last`, the end of its length is
    /// the end of the target's -fuzztime (as Go's run ends: at once, unless
    /// a failure is being minimized); otherwise the turn hands over when
    /// its length is up, once the work in flight is done. A turn never ends
    /// before the baseline is done.
    fn turn_loop(&mut self, turn: &Turn) -> Result<TurnEnd, CliError> {
        let start = Instant::now();
        let end_of_length = turn.length.map(|d| start + d);
        let (deadline, hand_over_at) = if turn.last {
            (end_of_length, None)
        } else {
            (None, end_of_length)
        };
        if !self.begun {
            self.begin();
        }
        let mut last_progress = Instant::now();
        let mut last_watch = Instant::now();
        loop {
            if fuzz_cli::interrupt::interrupted() {
                self.finish(true)?;
                return Ok(TurnEnd::Interrupted);
            }
            if !self.fuzzing && self.baseline_done == self.baseline_total {
                self.fuzzing = true;
                if self.baseline_total > 0 {
                    self.reporter.baseline(
                        self.baseline_done,
                        self.baseline_total,
                        Some(self.workers.len()),
                    );
                }
                self.reporter.event(json!({
                    "event": "baseline", "entries": self.baseline_total,
                    "coverage": self.coverage.len(), "workers": self.workers.len(),
                }))?;
            }
            let fuzzing = self.fuzzing;
            let now = Instant::now();
            let out_of_time = deadline.is_some_and(|d| now >= d);
            // No more to hand out once the count is spoken for; the run
            // ends when the slices in flight have answered.
            let out_of_execs = self.total_execs_left() == Some(0);
            let count_done = out_of_execs
                && !self
                    .jobs
                    .iter()
                    .any(|j| matches!(j, Job::Fuzz(_) | Job::MinimizeCoverage { .. }));
            if fuzzing && (out_of_time || count_done) && !self.minimizing_failure() {
                self.finish(false)?;
                return Ok(TurnEnd::Finished);
            }
            if self.stopping && !self.busy() {
                self.finish(false)?;
                return Ok(TurnEnd::Finished);
            }
            let handing_over = fuzzing && hand_over_at.is_some_and(|t| now >= t);
            if handing_over && !self.busy() {
                self.progress()?;
                return Ok(TurnEnd::HandOver);
            }
            // Hand out work.
            for w in 0..self.workers.len() {
                let usable =
                    self.ready[w] && self.workers[w].as_ref().is_some_and(|x| x.killed.is_none());
                if !matches!(self.jobs[w], Job::Idle) || !usable || self.stopping {
                    continue;
                }
                if let Some(i) = self.baseline_queue.pop() {
                    let entry = self.corpus[i].text.clone();
                    self.send(
                        w,
                        Job::Baseline(i),
                        Request::Run {
                            id: i as u64,
                            entry,
                        },
                    );
                } else if fuzzing
                    && !self.minimizing_failure()
                    && !out_of_time
                    && !out_of_execs
                    && !handing_over
                {
                    self.dispatch_fuzz(w);
                }
            }
            let stop = match self.rx.recv_timeout(Duration::from_millis(50)) {
                Ok(Event::Answer(id, response)) => match self.slot_of(id) {
                    Some(w) => self.answer(w, response)?,
                    None => false,
                },
                Ok(Event::Gone(id)) => match self.slot_of(id) {
                    Some(w) => self.gone(w)?,
                    None => false,
                },
                Ok(Event::Garbled(id, msg)) => {
                    if let Some(w) = self.slot_of(id) {
                        fuzz_cli::exit::warn("fuzz-run", &format!("worker {w}: {msg}"));
                    }
                    false
                }
                Err(RecvTimeoutError::Timeout) => false,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(CliError::misuse("all workers are gone"));
                }
            };
            if stop {
                self.finish(false)?;
                return Ok(TurnEnd::Finished);
            }
            if last_watch.elapsed() >= Duration::from_millis(100) {
                last_watch = Instant::now();
                self.watch();
            }
            if self.fuzzing && last_progress.elapsed() >= Duration::from_secs(3) {
                last_progress = Instant::now();
                self.progress()?;
            }
        }
    }

    fn busy(&self) -> bool {
        self.jobs.iter().any(|j| !matches!(j, Job::Idle))
    }

    fn minimizing_failure(&self) -> bool {
        !self.cli.keepfuzzing
            && self
                .jobs
                .iter()
                .any(|j| matches!(j, Job::MinimizeFailure { .. } | Job::ConfirmFailure { .. }))
    }

    fn progress(&mut self) -> Result<(), CliError> {
        let total = self.baseline_count + self.new_interesting;
        self.reporter
            .progress(self.execs, self.new_interesting, total, self.coverage.len())
    }

    fn dispatch_fuzz(&mut self, w: usize) {
        if self.corpus.is_empty() {
            return;
        }
        let i = self.next % self.corpus.len();
        self.next += 1;
        let seed = self.next_seed();
        let workers = self.workers.len() as u64;
        let (max_execs, millis) = match (self.cli.seed, self.total_execs_left()) {
            (Some(_), Some(left)) => (Some(left.min(1000)), None),
            (Some(_), None) => (Some(1000), None),
            (None, Some(left)) => (Some(left.div_ceil(workers).max(1)), Some(100)),
            (None, None) => (None, Some(100)),
        };
        if max_execs == Some(0) {
            return; // the count is spoken for by slices in flight
        }
        self.promised[w] = max_execs.unwrap_or(0);
        let add_coverage = self.coverage_log[self.synced[w]..].to_vec();
        self.synced[w] = self.coverage_log.len();
        let search = fuzz_core::worker::protocol::Search {
            entropic: self.cli.entropic,
            cross_over: self.cli.cross_over,
            len_control: self.cli.len_control,
            auto_dict: self.cli.auto_dict,
            utf8: self.cli.utf8,
        };
        let corpus = if search.entropic || search.cross_over {
            let new = self.corpus[self.shared[w]..]
                .iter()
                .map(|e| e.text.clone())
                .collect();
            self.shared[w] = self.corpus.len();
            new
        } else {
            Vec::new()
        };
        let entry = self.corpus[i].text.clone();
        self.send(
            w,
            Job::Fuzz(i),
            Request::Fuzz {
                id: i as u64,
                entry,
                seed,
                max_execs,
                millis,
                max_len: self.cli.max_len,
                add_coverage,
                use_cmp: self.cli.use_cmp,
                corpus,
                search,
            },
        );
    }

    /// Checks for hung and bloated workers.
    fn watch(&mut self) {
        let grace = (self.cli.timeout * 10).max(Duration::from_secs(60));
        for w in 0..self.workers.len() {
            if matches!(self.jobs[w], Job::Idle) {
                continue;
            }
            let Some(worker) = self.workers[w].as_mut() else {
                continue;
            };
            let execs = worker.shm.execs();
            if execs != worker.seen_execs || !worker.shm.running() {
                // Progress, or no execution running (the worker is between
                // executions, or its answer waits in our queue): not hung.
                worker.seen_execs = execs;
                worker.seen_at = Instant::now();
            }
            // A worker minimizing times its own forked candidates; give it
            // room so that its own verdict comes first.
            let minimizing = matches!(
                self.jobs[w],
                Job::MinimizeFailure { .. } | Job::MinimizeCoverage { .. }
            );
            let limit = if execs <= 1 {
                grace
            } else if minimizing {
                self.cli.timeout * 2 + Duration::from_secs(1)
            } else {
                self.cli.timeout
            };
            if worker.seen_at.elapsed() > limit {
                worker.kill(Killed::Timeout);
                continue;
            }
            if let Some(rss) = worker.rss_mb() {
                if rss > self.cli.rss_limit_mb {
                    worker.kill(Killed::OutOfMemory(rss));
                }
            }
        }
    }

    fn answer(&mut self, w: usize, response: Response) -> Result<bool, CliError> {
        let job = std::mem::replace(&mut self.jobs[w], Job::Idle);
        match response {
            Response::Hello { version, .. } => {
                if version != fuzz_core::worker::protocol::VERSION {
                    return Err(CliError::misuse(format!(
                        "{} speaks protocol version {version}, fuzz-run {}: install matching versions (or set FUZZ_WORKER)",
                        self.worker_bin.display(),
                        fuzz_core::worker::protocol::VERSION
                    )));
                }
                self.jobs[w] = job;
                self.ready[w] = true;
                Ok(false)
            }
            Response::Error { message, .. } => {
                Err(CliError::misuse(format!("worker {w}: {message}")))
            }
            Response::Ran { id: WARM_UP, .. } => {
                // A warm-up before a minimization: the job goes on.
                self.execs += 1;
                self.jobs[w] = job;
                Ok(false)
            }
            Response::Ran {
                outcome, features, ..
            } => {
                self.execs += 1;
                match job {
                    Job::Baseline(i) => {
                        self.baseline_done += 1;
                        for f in features {
                            if self.coverage.insert(f) {
                                self.coverage_log.push(f);
                            }
                        }
                        if let Exec::Failed { message } = outcome {
                            let e = &self.corpus[i];
                            let entry = e.text.clone();
                            let seed_name = (e.origin == Origin::Seed).then(|| e.name.clone());
                            return self.failure(&entry, &message, "", "failure", seed_name);
                        }
                        Ok(false)
                    }
                    Job::ConfirmFailure { entry, message } => match outcome {
                        Exec::Failed { message: now } => self.failure_found(&entry, &now),
                        _ => self.failure_found(&entry, &message),
                    },
                    _ => Ok(false),
                }
            }
            Response::Fuzzed { execs, found, .. } => {
                self.promised[w] = 0;
                self.execs += execs;
                match found {
                    None => Ok(false),
                    Some(Found::NewCoverage { entry, features }) => {
                        let new: Vec<u32> = features
                            .into_iter()
                            .filter(|f| !self.coverage.contains(f))
                            .collect();
                        if new.is_empty() {
                            return Ok(false);
                        }
                        // Minimizing counts against -fuzztime Nx too, so
                        // its budget is promised like a slice's.
                        let (max_execs, millis) = self.minimize_budget();
                        let budget = max_execs
                            .unwrap_or(u64::MAX)
                            .min(COVERAGE_MINIMIZE_EXECS)
                            .min(self.total_execs_left().unwrap_or(u64::MAX));
                        let within_share = self.minimize_execs
                            < COVERAGE_MINIMIZE_ALLOWANCE + self.execs / COVERAGE_MINIMIZE_SHARE;
                        if self.minimizing_allowed() && budget > 0 && within_share {
                            self.promised[w] = budget;
                            self.send(
                                w,
                                Job::MinimizeCoverage {
                                    entry: entry.clone(),
                                    features: new.clone(),
                                },
                                Request::Minimize {
                                    id: 0,
                                    entry,
                                    keep: Keep::Coverage {
                                        features: new,
                                        isolate: false,
                                    },
                                    max_execs: Some(budget),
                                    // Under -seed, counts only: a time
                                    // limit would make runs differ.
                                    millis: if self.cli.seed.is_some() {
                                        None
                                    } else {
                                        Some(millis.unwrap_or(u64::MAX).min(COVERAGE_MINIMIZE_MS))
                                    },
                                    timeout_ms: self.cli.timeout.as_millis() as u64,
                                    rss_limit_mb: self.cli.rss_limit_mb,
                                },
                            );
                            Ok(false)
                        } else {
                            self.accept(&entry, &new)?;
                            Ok(false)
                        }
                    }
                    Some(Found::Failure { .. }) if self.minimizing_failure() => Ok(false),
                    Some(Found::Failure { message, .. })
                        if self.seen_site(&fuzz_core::worker::crash::failure_site(&message)) =>
                    {
                        Ok(false)
                    }
                    Some(Found::Failure { entry, message }) => {
                        if self.minimizing_allowed() {
                            let site = fuzz_core::worker::crash::failure_site(&message);
                            self.minimize_failure(w, entry, message, None, site);
                            Ok(false)
                        } else {
                            self.failure_found(&entry, &message)
                        }
                    }
                }
            }
            Response::Progress { entry, .. } => {
                // The smallest failing input so far replaces the one we hold.
                if let Job::MinimizeFailure { message, crash, .. } = job {
                    self.jobs[w] = Job::MinimizeFailure {
                        entry,
                        message,
                        crash,
                    };
                } else {
                    self.jobs[w] = job;
                }
                Ok(false)
            }
            Response::Checked { .. } => Ok(false),
            Response::Minimized { entry, execs, .. } => {
                self.promised[w] = 0;
                self.execs += execs;
                match job {
                    Job::MinimizeCoverage { features, .. } => {
                        self.minimize_execs += execs;
                        self.accept(&entry, &features)?;
                        Ok(false)
                    }
                    Job::MinimizeFailure {
                        message,
                        crash: Some((kind, report)),
                        ..
                    } => self.failure(&entry, &message, &report, &kind, None),
                    Job::MinimizeFailure { message, .. } => {
                        // Run the smallest input once more for its own message.
                        self.send(
                            w,
                            Job::ConfirmFailure {
                                entry: entry.clone(),
                                message,
                            },
                            Request::Run { id: 0, entry },
                        );
                        Ok(false)
                    }
                    _ => Ok(false),
                }
            }
        }
    }

    /// Asks worker `w` to shrink a failing input, keeping its failure site
    /// (so the shrink never drifts to another bug).
    fn minimize_failure(
        &mut self,
        w: usize,
        entry: String,
        message: String,
        crash: CrashInfo,
        site: String,
    ) {
        self.reporter.say(&format!(
            "fuzz: minimizing {}-byte failing input file",
            entry.len()
        ));
        let (max_execs, millis) = self.minimize_budget();
        let timeout_ms = self.cli.timeout.as_millis() as u64;
        self.send(
            w,
            Job::MinimizeFailure {
                entry: entry.clone(),
                message,
                crash,
            },
            Request::Minimize {
                id: 0,
                entry,
                keep: Keep::Failure { site: Some(site) },
                max_execs,
                millis,
                timeout_ms,
                rss_limit_mb: self.cli.rss_limit_mb,
            },
        );
    }

    /// An input with new coverage: into the cache and the corpus.
    fn accept(&mut self, entry: &str, features: &[u32]) -> Result<(), CliError> {
        let mut fresh = false;
        for &f in features {
            if self.coverage.insert(f) {
                self.coverage_log.push(f);
                fresh = true;
            }
        }
        if !fresh {
            return Ok(());
        }
        let name = digest::entry_name(entry.as_bytes());
        if self.add(Entry {
            name: name.clone(),
            text: entry.to_string(),
            origin: Origin::New,
        }) {
            self.new_interesting += 1;
            cache::create_dir(&self.cache_root, &self.cache_dir)?;
            let path = self.cache_dir.join(&name);
            fsutil::write_new_atomic(&path, entry.as_bytes())?;
            let size = codec::decode(entry.as_bytes())
                .map(|v| fuzz_core::search::minimize::size(&v))
                .unwrap_or(0);
            self.reporter.event(json!({
                "event": "new_input", "path": path.display().to_string(),
                "size": size, "file_size": entry.len(), "new_features": features.len(),
                "coverage": self.coverage.len(),
            }))?;
        }
        Ok(())
    }

    /// The crash site of a failure: a typed target's failure by where it
    /// failed (a Rust panic's location), a death by its kind and frames.
    fn site_of(&self, kind: &str, message: &str, report: &str) -> String {
        if report.is_empty() {
            fuzz_core::worker::crash::failure_site(message)
        } else {
            fuzz_core::worker::crash::site(kind, report, &self.lib_file)
        }
    }

    /// Under -keepfuzzing, a failure at a site already recorded is dropped
    /// before anything is spent on it.
    fn seen_site(&self, site: &str) -> bool {
        self.cli.keepfuzzing && self.sites.contains(site)
    }

    /// A typed target's failure found while fuzzing.
    fn failure_found(&mut self, entry: &str, message: &str) -> Result<bool, CliError> {
        self.failure(entry, message, "", "failure", None)
    }

    /// Records a finding: writes it (unless it is a failing seed, which Go
    /// reports without writing) and reports it; stops unless -keepfuzzing.
    fn failure(
        &mut self,
        entry: &str,
        headline_and_message: &str,
        report: &str,
        kind: &str,
        seed_entry: Option<String>,
    ) -> Result<bool, CliError> {
        let mut lines = headline_and_message.lines();
        let headline = lines.next().unwrap_or(kind).to_string();
        let mut details: Vec<&str> = lines.collect();
        details.extend(report.lines());
        let site = self.site_of(kind, headline_and_message, report);
        if self.cli.keepfuzzing && !self.sites.insert(site.clone()) {
            return Ok(false); // a crash site we have already recorded
        }
        let written = if seed_entry.is_none() {
            fsutil::create_dir_all(&self.seed_dir)?;
            let path = self.seed_dir.join(digest::entry_name(entry.as_bytes()));
            fsutil::write_new_atomic(&path, entry.as_bytes())?;
            Some(path.display().to_string())
        } else {
            None
        };
        self.failures += 1;
        self.reporter.event(json!({
            "event": "failure", "kind": kind, "message": headline_and_message,
            "report": report, "path": written, "site": site,
            "seed_entry": seed_entry,
        }))?;
        if !self.cli.json {
            Failure {
                target: &self.target.name,
                elapsed: self.target_elapsed(),
                headline: &headline,
                details: &details.join("\n"),
                written: written.as_deref(),
                lib: &self.lib_shown,
                seed_entry: seed_entry.as_deref(),
            }
            .print()?;
        }
        // Under -keepfuzzing only a failing seed stops the run.
        Ok(!self.cli.keepfuzzing || seed_entry.is_some())
    }

    /// A worker's pipe closed: find out why, record the input it was on.
    fn gone(&mut self, w: usize) -> Result<bool, CliError> {
        let Some(mut worker) = self.workers[w].take() else {
            return Ok(false);
        };
        let job = std::mem::replace(&mut self.jobs[w], Job::Idle);
        self.promised[w] = 0;
        let death = worker.death();
        let _ = std::fs::remove_file(&worker.shm_path);
        let _ = std::fs::remove_file(
            self.spawn_dir
                .path()
                .join(format!("worker{}.stderr", worker.index)),
        );
        drop(worker);
        if death.kind == DeathKind::Stopped || self.stopping {
            return Ok(false);
        }
        if !self.ready[w] {
            // It never said hello: the library does not load or its
            // initialisation fails. That is misuse, not a finding.
            let kind = death.kind.to_string();
            let why = death
                .report
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or(&kind)
                .trim_start_matches("fuzz-worker: ")
                .to_string();
            return Err(CliError::misuse(format!(
                "{}: the worker could not start: {why}",
                self.lib_shown
            )));
        }
        self.execs += 1;
        // The input it was running, as an entry.
        let recovered = match self.target.kind {
            TargetKind::LibFuzzer => Some(vec![Value::Bytes(death.input.clone())]),
            TargetKind::Typed => value::unpack_all(&death.input, &self.target.args),
        };
        let job_entry = match &job {
            Job::Baseline(i) | Job::Fuzz(i) => Some(self.corpus[*i].text.clone()),
            Job::MinimizeCoverage { entry, .. }
            | Job::MinimizeFailure { entry, .. }
            | Job::ConfirmFailure { entry, .. } => Some(entry.clone()),
            Job::Idle => None,
        };
        let entry = match (&job, recovered) {
            // Shared memory holds the last candidate a minimization tried;
            // the failing input is the smallest one it kept.
            (Job::MinimizeFailure { entry, .. }, _) => entry.clone(),
            (_, Some(v)) => String::from_utf8(codec::encode(&v)).expect("v1 text is UTF-8"),
            (_, None) => job_entry.unwrap_or_default(),
        };
        if let Job::MinimizeFailure {
            message,
            crash: Some((kind, report)),
            ..
        } = &job
        {
            // The worker minimizing a crash died: record the crash with its
            // smallest input so far.
            let (message, kind, report) = (message.clone(), kind.clone(), report.clone());
            let stop = self.failure(&entry, &message, &report, &kind, None)?;
            if !stop {
                self.replace_worker(w)?;
            }
            return Ok(stop);
        }
        if let Some(m) = death.mutation {
            // It died in the target's own custom mutator: the input it was
            // mutating is recorded, but it is not a crasher of the target,
            // so it is not minimized. As for any finding, one made while a
            // failure is being minimized is dropped (unless -keepfuzzing).
            if self.minimizing_failure() {
                self.replace_worker(w)?;
                return Ok(false);
            }
            let kind = format!("custom mutator: {}", death.kind);
            // A cross-over's other entry is written only for a finding
            // that is kept (not one at a site -keepfuzzing has recorded).
            let dropped =
                !death.report.is_empty() && self.seen_site(&self.site_of(&kind, "", &death.report));
            let other = match &death.other {
                Some(other) if !dropped => Some(self.record_other_entry(other)?),
                _ => None,
            };
            let headline = self.mutator_headline(&death.kind, &m, other.as_deref());
            let stop = self.failure(&entry, &headline, &death.report, &kind, None)?;
            if !stop {
                self.replace_worker(w)?;
            }
            return Ok(stop);
        }
        let headline = match &death.kind {
            DeathKind::Timeout => format!(
                "fuzzing process hung: an input ran longer than {:?} (-timeout)",
                self.cli.timeout
            ),
            k @ DeathKind::OutOfMemory { .. } => {
                format!(
                    "fuzzing process ran {k}, over -rss_limit_mb {}",
                    self.cli.rss_limit_mb
                )
            }
            k @ DeathKind::Exit { .. } => {
                format!("fuzzing process exited unexpectedly: {k} (the target called exit)")
            }
            k => format!("fuzzing process crashed: {k}"),
        };
        let kind = death.kind.to_string();
        let seed_entry = match job {
            Job::Baseline(i) => {
                self.baseline_done += 1;
                (self.corpus[i].origin == Origin::Seed).then(|| self.corpus[i].name.clone())
            }
            _ => None,
        };
        // Under -keepfuzzing, a crash at a site already recorded costs
        // nothing more than a new worker.
        if seed_entry.is_none() && self.seen_site(&self.site_of(&kind, "", &death.report)) {
            self.replace_worker(w)?;
            return Ok(false);
        }
        // While one failure is being minimized, other workers' failures are
        // ignored, as Go does (unless -keepfuzzing): the worker is replaced.
        if self.minimizing_failure() {
            self.replace_worker(w)?;
            return Ok(false);
        }
        // A crash (not a hang or a memory blow-up, whose candidates would
        // each cost the limit) is minimized by a fresh worker, each
        // candidate in a forked child, keeping the crash site.
        let shrinkable = seed_entry.is_none()
            && self.minimizing_allowed_for_crash()
            && !death.kind.costs_a_limit()
            && !matches!(job, Job::MinimizeFailure { .. });
        if shrinkable {
            if let Err(e) = self.replace_worker(w) {
                // No worker to minimize with (EAGAIN, EMFILE): the crash is
                // written as it stands before the run gives up.
                self.failure(&entry, &headline, &death.report, &kind, None)?;
                return Err(e);
            }
            // Warm the new worker with an entry that passed, so that the
            // candidates it forks inherit the target's lazy initialisation
            // instead of each repeating it under -timeout.
            if let Some(warm) = self.corpus.first().map(|e| e.text.clone()) {
                if let Some(worker) = self.workers[w].as_mut() {
                    let _ = worker.send(&Request::Run {
                        id: WARM_UP,
                        entry: warm,
                    });
                }
            }
            let site = fuzz_core::worker::crash::site(&kind, &death.report, &self.lib_file);
            self.minimize_failure(w, entry, headline, Some((kind, death.report)), site);
            return Ok(false);
        }
        let stop = self.failure(&entry, &headline, &death.report, &kind, seed_entry)?;
        if !stop {
            // Keep fuzzing: a new worker in its place, told all coverage.
            self.replace_worker(w)?;
        }
        Ok(stop)
    }

    /// Where the other entry of a cross-over that failed is: the seed file
    /// that holds it, or else a file written beside the crasher (a cached
    /// entry may be cleaned away), named by its digest.
    fn record_other_entry(&self, other: &[u8]) -> Result<String, CliError> {
        let text = String::from_utf8(codec::encode(&[Value::Bytes(other.to_vec())]))
            .expect("v1 text is UTF-8");
        let seed = self
            .corpus
            .iter()
            .find(|e| e.origin == Origin::Seed && e.text == text);
        let path = match seed {
            Some(e) => self.seed_dir.join(&e.name),
            None => {
                fsutil::create_dir_all(&self.seed_dir)?;
                let path = self.seed_dir.join(digest::entry_name(text.as_bytes()));
                fsutil::write_new_atomic(&path, text.as_bytes())?;
                path
            }
        };
        Ok(path.display().to_string())
    }

    /// What to say of a worker that died in a call `m` of the target's
    /// custom mutators: the mutator's fault, and how to reproduce it
    /// (`other`: where a cross-over's other entry is).
    fn mutator_headline(&self, kind: &DeathKind, m: &Mutation, other: Option<&str>) -> String {
        let call = match m.call {
            MutatorCall::Mutator => format!(
                "LLVMFuzzerCustomMutator (on the recorded input, max_size {}, seed {})",
                m.max_size, m.seed
            ),
            MutatorCall::CrossOver => format!(
                "LLVMFuzzerCustomCrossOver (of the recorded input and {}, max_out_size {}, seed {})",
                other.unwrap_or("another corpus entry"),
                m.max_size,
                m.seed
            ),
            MutatorCall::Value => {
                let name = match self.target.args.get(usize::from(m.arg)) {
                    Some(ArgType::Custom(name)) => format!("fuzz_mutate_{name}"),
                    _ => "the custom value's mutator".to_string(),
                };
                format!(
                    "{name} (on argument {} of the recorded input, max_size {}, seed {})",
                    m.arg + 1,
                    m.max_size,
                    m.seed
                )
            }
        };
        if let DeathKind::OutOfMemory { .. } = kind {
            // The memory may have been taken by the executions before.
            return format!(
                "fuzzing process ran {kind}, over -rss_limit_mb {}, in the target's custom mutator\n\
                 It was in {call}; the target's executions before it may hold the memory.",
                self.cli.rss_limit_mb
            );
        }
        let what = match kind {
            DeathKind::Timeout => format!(
                "hung: a call ran longer than {:?} (-timeout)",
                self.cli.timeout
            ),
            k @ DeathKind::Exit { .. } => format!("exited: {k}"),
            k => format!("crashed: {k}"),
        };
        format!(
            "the target's custom mutator {what}\n\
             It was in {call}: the bug is in the mutator, not in the target \
             (running the input does not call the mutator)."
        )
    }

    /// The target is done: its -fuzztime is up, a failure stops it, or
    /// Ctrl-C. Its workers (if it has the turn) are killed, a failure being
    /// minimized is saved as it stands, and its end is reported.
    fn finish(&mut self, interrupted: bool) -> Result<(), CliError> {
        self.stopping = true;
        // A failure being minimized when we stop is saved as it is.
        let pending: Vec<(String, String, CrashInfo)> = self
            .jobs
            .iter()
            .filter_map(|j| match j {
                Job::MinimizeFailure {
                    entry,
                    message,
                    crash,
                } => Some((entry.clone(), message.clone(), crash.clone())),
                Job::ConfirmFailure { entry, message } => {
                    Some((entry.clone(), message.clone(), None))
                }
                _ => None,
            })
            .collect();
        for w in self.workers.iter_mut().flatten() {
            w.kill(Killed::Stopping);
        }
        for j in self.jobs.iter_mut() {
            *j = Job::Idle;
        }
        for (entry, message, crash) in pending {
            let (kind, report) = crash.unwrap_or_else(|| ("failure".into(), String::new()));
            self.failure(&entry, &message, &report, &kind, None)?;
        }
        // Outside its turn, the target's last line was said when its last
        // turn handed over (or it never had a turn).
        if self.turn_began.is_some() {
            self.progress()?;
        }
        self.finished = true;
        self.reporter.event(json!({
            "event": "end", "execs": self.execs, "new_interesting": self.new_interesting,
            "coverage": self.coverage.len(), "failures": self.failures,
            "interrupted": interrupted,
        }))
    }
}
