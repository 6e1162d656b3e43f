//! What one target's coordinator knows, and the values its decisions
//! return.
//!
//! [`State`] holds the corpus and its coverage, each worker slot's job, the
//! phase, the counts and the crash sites recorded. Its decisions
//! (`dispatch.rs`: what work to hand out and when a turn ends; `triage.rs`:
//! what an answer or a death means) change it and return [`Action`]s:
//! what to send to whom, whom to replace, what to write and report,
//! whether to stop. The event loop in `coordinator.rs` carries them out; it
//! (with `workers.rs`, the only owner of the worker processes) alone touches
//! processes, files and the terminal, so the decisions can be tested
//! without any of them.

use crate::corpus::{Corpus, Entry};
use crate::failure::{self, Ended, Failing, FailureStep, Next};
pub use crate::slot::{Life, Slot, Stage};
use fuzz_core::duration::Limit;
use fuzz_core::search::rng::splitmix64;
use fuzz_core::worker::client::WorkerId;
use fuzz_core::worker::crash::{self, DeathKind};
use fuzz_core::worker::protocol::{Request, Search, TargetDesc};
use fuzz_core::worker::shm::Mutation;
use std::collections::HashSet;
use std::fmt;
use std::time::Duration;

/// What the decisions depend on, read once from the command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// `-fuzztime`: `None` runs until stopped.
    pub fuzztime: Option<Limit>,
    /// `-fuzzminimizetime`.
    pub minimize: Limit,
    pub keepfuzzing: bool,
    /// `-timeout`, per input.
    pub timeout: Duration,
    pub rss_limit_mb: u64,
    pub max_len: usize,
    /// `-seed` was given: slices are counted, not timed, so that the run
    /// repeats exactly.
    pub seeded: bool,
    pub use_cmp: bool,
    pub search: Search,
    /// `-vary_workers`: every second worker runs [`Config::search_for`]'s
    /// other search.
    pub vary_workers: bool,
    /// `-sync`: a finding is the fleet's, its site claimed before it is
    /// recorded here ([`Action::Claim`]).
    pub shared: bool,
}

impl Config {
    /// `-fuzzminimizetime` as a count or a time budget.
    pub fn minimize_budget(&self) -> (Option<u64>, Option<u64>) {
        match self.minimize {
            Limit::Time(d) => (None, Some(d.as_millis() as u64)),
            Limit::Count(n) => (Some(n), None),
        }
    }

    /// `-fuzzminimizetime 0` turns minimization off.
    pub fn minimizing(&self) -> bool {
        match self.minimize {
            Limit::Time(d) => !d.is_zero(),
            Limit::Count(n) => n > 0,
        }
    }

    pub fn timeout_ms(&self) -> u64 {
        self.timeout.as_millis() as u64
    }

    /// The search worker slot `w` runs: `search`, with `-vary_workers`
    /// the text switches (-fields, -code_strings) on in every second slot.
    pub fn search_for(&self, w: usize) -> Search {
        let mut search = self.search;
        if self.vary_workers && w % 2 == 1 {
            search.fields = true;
            search.code_strings = true;
        }
        search
    }
}

/// What a worker is busy with.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    Idle,
    /// Running corpus entry `i` once, for the baseline.
    Baseline(usize),
    /// A fuzzing slice from corpus entry `i`.
    Fuzz(usize),
    /// Running an entry another instance published (`-sync`) once: it is
    /// kept if it adds coverage here.
    Import(String),
    /// Shrinking an input that reached `features`, keeping them.
    MinimizeCoverage {
        entry: String,
        features: Vec<u32>,
    },
    /// A step of a failure's life (failure.rs).
    Failure(FailureStep, Failing),
}

impl Job {
    /// Work on a failure, which (unless -keepfuzzing) holds other work back.
    pub fn is_failure(&self) -> bool {
        matches!(self, Job::Failure(..))
    }
}

/// Where a target is in its run.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// It has not had a turn yet.
    NotBegun,
    /// Every entry runs once: those not handed out yet (last first), how
    /// many answered, how many in all.
    Baseline {
        queue: Vec<usize>,
        done: usize,
        total: usize,
    },
    /// Workers mutate.
    Fuzzing,
    /// Done: its end reported.
    Finished,
}

/// The counts a run reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub execs: u64,
    /// Executions spent minimizing new inputs.
    pub minimize_execs: u64,
    /// Inputs added to the corpus in this run.
    pub new_interesting: usize,
    /// Entries loaded at start (seeds and cache).
    pub loaded: usize,
    /// Findings recorded.
    pub failures: usize,
    /// Entries the workers replaced by shorter inputs (-reduce_inputs).
    pub reduced: u64,
}

/// What a finding is.
#[derive(Clone, Debug, PartialEq)]
pub enum FindingKind {
    /// A typed target returned failure (or a seed corpus file is bad).
    Failure,
    /// The worker died running the input.
    Death(DeathKind),
    /// The worker died in the target's own custom mutator, call `mutation`;
    /// `other` is a cross-over's other entry.
    Mutator {
        death: DeathKind,
        mutation: Mutation,
        other: Option<Vec<u8>>,
    },
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingKind::Failure => f.write_str("failure"),
            FindingKind::Death(k) => write!(f, "{k}"),
            FindingKind::Mutator { death, .. } => write!(f, "custom mutator: {death}"),
        }
    }
}

/// A failure to write and report.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The failing input, as v1 text.
    pub entry: String,
    pub kind: FindingKind,
    /// Its headline and message (a typed target's failure message; what
    /// a death means). A mutator's headline is made when it is written,
    /// since it names where the cross-over's other entry went.
    pub message: String,
    /// What the worker wrote: crash header, backtrace, sanitizer report.
    pub report: String,
    /// The seed file that failed, for a seed found failing in the baseline
    /// (Go reports those without writing anything).
    pub seed_entry: Option<String>,
    pub site: String,
    /// The input as it was found, written already, when `entry` is what
    /// minimizing it left: `entry` then replaces it.
    pub found: Option<String>,
    /// Whether it failed again when run once more in a fresh process;
    /// `None` when it was not run again (a seed, a hang, a site already
    /// seen).
    pub reproducible: Option<bool>,
    /// Its minimization was cut short by the run's stop: `entry` is as
    /// small as it got.
    pub cut_short: bool,
}

/// What the event loop is to do.
#[derive(Debug)]
pub enum Action {
    /// Send `request` to the worker of this slot.
    Send(usize, Request),
    /// Start a new worker in this slot in place of the one there; if it
    /// cannot start, record `fallback` before the run gives up.
    Replace {
        slot: usize,
        fallback: Option<Finding>,
    },
    /// An input that reached new coverage: into the cache, and reported;
    /// published for the other instances unless it came from them.
    Keep {
        entry: String,
        new_features: usize,
        imported: bool,
    },
    /// A failing input just found: write it at once, before anything is
    /// spent on it (it is reported when its work is done).
    Save(String),
    /// A finding: write it (unless it is a seed; in place of the input as
    /// found, when it was minimized) and report it.
    Record(Finding),
    /// A finding under `-sync`: its crasher into the shared directory and
    /// its site claimed there; which instance had it first comes back
    /// through [`State::claimed`].
    Claim(Finding),
    /// An input saved when it was found turned out to be a crash site
    /// already recorded: its file goes (if this run wrote it).
    Discard(String),
    /// A line for people.
    Say(String),
    /// A warning, said once.
    Warn(String),
    /// The target is done: a finding stops it.
    Finish,
}

/// One target's coordinator state.
pub struct State {
    pub cfg: Config,
    pub target: TargetDesc,
    /// The library's file name, as crash reports name it (crash sites).
    pub lib_file: String,
    pub corpus: Corpus,
    pub slots: Vec<Slot>,
    pub phase: Phase,
    pub counts: Counts,
    /// Crash sites recorded (`-keepfuzzing` keeps one crasher per site).
    sites: HashSet<String>,
    /// The SplitMix64 state that seeds each request: from `-seed` when
    /// given, so that a run repeats.
    rng: u64,
    /// Entries other instances published, waiting to run once (`-sync`).
    pub imports: std::collections::VecDeque<String>,
    /// New workers run the warm-up (not once one died in it: every new one
    /// would).
    pub warm_up: bool,
    /// Warnings the workers asked to say, said once each.
    warned: HashSet<String>,
    /// Fingerprints of the crashes at recorded sites (-keepfuzzing), which
    /// workers survive instead of dying of.
    pub known_crashes: Vec<u64>,
}

impl State {
    pub fn new(cfg: Config, target: TargetDesc, lib_file: String, rng: u64) -> State {
        State {
            cfg,
            target,
            lib_file,
            corpus: Corpus::default(),
            slots: Vec::new(),
            phase: Phase::NotBegun,
            counts: Counts::default(),
            sites: HashSet::new(),
            rng,
            imports: std::collections::VecDeque::new(),
            warm_up: true,
            warned: HashSet::new(),
            known_crashes: Vec::new(),
        }
    }

    /// Adds loaded entries to the corpus; they make the baseline.
    pub fn load(&mut self, entries: impl IntoIterator<Item = Entry>) {
        for e in entries {
            self.corpus.add(e);
        }
        self.counts.loaded = self.corpus.len();
    }

    /// The slot of the worker numbered `id`; `None` for one no longer in a
    /// slot.
    pub fn slot_of(&self, id: WorkerId) -> Option<usize> {
        self.slots.iter().position(|s| s.id == id)
    }

    pub fn is_fuzzing(&self) -> bool {
        self.phase == Phase::Fuzzing
    }

    /// Some worker has work.
    pub fn busy(&self) -> bool {
        self.slots.iter().any(|s| s.job != Job::Idle)
    }

    /// A failure is being worked on, which (unless -keepfuzzing) holds
    /// every other finding and new slice back, as in Go.
    pub fn minimizing_failure(&self) -> bool {
        !self.cfg.keepfuzzing && self.slots.iter().any(|s| s.job.is_failure())
    }

    /// Executions `-fuzztime Nx` leaves to hand out; `None` when time or
    /// nothing bounds the run.
    pub fn execs_left(&self) -> Option<u64> {
        match self.cfg.fuzztime {
            Some(Limit::Count(n)) => {
                let promised: u64 = self.slots.iter().map(|s| s.promised).sum();
                Some(n.saturating_sub(self.counts.execs).saturating_sub(promised))
            }
            _ => None,
        }
    }

    /// A fresh seed for a request.
    pub fn next_seed(&mut self) -> u64 {
        splitmix64(&mut self.rng)
    }

    /// Puts `request` to slot `w`, whose job becomes `job`.
    pub fn send(&mut self, w: usize, job: Job, request: Request) -> Action {
        self.slots[w].job = job;
        Action::Send(w, request)
    }

    /// The crash site of a failure: a typed target's failure by where it
    /// failed (a Rust panic's location), a death by its kind and frames.
    pub fn site_of(&self, kind: &FindingKind, message: &str, report: &str) -> String {
        match kind {
            FindingKind::Failure => crash::failure_site(message),
            _ => crash::site(kind, report, &self.lib_file),
        }
    }

    /// Under -keepfuzzing, a failure at a site already recorded is dropped
    /// before anything is spent on it.
    pub fn seen_site(&self, site: &str) -> bool {
        self.cfg.keepfuzzing && self.sites.contains(site)
    }

    /// A finding: recorded unless -keepfuzzing has one at its site
    /// already; it stops the target unless -keepfuzzing. A failing seed
    /// too: under -keepfuzzing it is reported and fuzzing goes on, so that
    /// an instance whose seed corpus holds a crasher found before (by
    /// itself, or by another instance sharing the directory) still fuzzes.
    pub fn record(&mut self, finding: Finding) -> Vec<Action> {
        self.knows(&finding.report);
        if self.cfg.keepfuzzing && !self.sites.insert(finding.site.clone()) {
            // Two workers found the same bug at once: one crasher is kept.
            return finding.found.map(Action::Discard).into_iter().collect();
        }
        let mut actions = if self.cfg.shared && finding.seed_entry.is_none() {
            vec![Action::Claim(finding)]
        } else {
            self.recorded(finding)
        };
        // Without -keepfuzzing a finding ends the target, whoever had it
        // first: said now, so that no worker is started in its place.
        if !self.cfg.keepfuzzing {
            actions.push(Action::Finish);
        }
        actions
    }

    /// A finding recorded here, and counted.
    fn recorded(&mut self, finding: Finding) -> Vec<Action> {
        self.counts.failures += 1;
        vec![Action::Record(finding)]
    }

    /// The fleet's answer to a claim: `theirs` is the crasher another
    /// instance recorded first for the site, `None` when this one is first
    /// (or the shared directory failed). Under -keepfuzzing a site the
    /// fleet has is neither written nor counted here, and what was saved of
    /// it goes; without, it is recorded here too (and the target stops, as
    /// `record` said).
    pub fn claimed(&mut self, finding: Finding, theirs: Option<std::path::PathBuf>) -> Vec<Action> {
        match theirs {
            Some(theirs) if self.cfg.keepfuzzing => {
                let said = format!(
                    "fuzz: {} is in {} already (another instance found it first): not written again",
                    finding.site,
                    theirs.display()
                );
                let saved = [Some(finding.entry), finding.found].into_iter().flatten();
                std::iter::once(Action::Say(said))
                    .chain(saved.map(Action::Discard))
                    .collect()
            }
            _ => self.recorded(finding),
        }
    }

    /// Under -keepfuzzing, the crash a report tells of is at a site that
    /// is recorded (or being recorded): workers are told its fingerprint,
    /// and survive it from then on.
    pub fn knows(&mut self, report: &str) {
        if let Some(fp) = crash::fingerprint(report).filter(|_| self.cfg.keepfuzzing) {
            if !self.known_crashes.contains(&fp) {
                self.known_crashes.push(fp);
            }
        }
    }

    /// A warning a worker asked to say: once per run.
    pub fn warning(&mut self, message: String) -> Vec<Action> {
        if self.warned.insert(message.clone()) {
            vec![Action::Warn(message)]
        } else {
            Vec::new()
        }
    }

    /// A finding made of its parts, its site computed.
    pub fn finding(
        &self,
        entry: String,
        kind: FindingKind,
        message: String,
        report: String,
        seed_entry: Option<String>,
    ) -> Finding {
        let site = self.site_of(&kind, &message, &report);
        Finding {
            entry,
            kind,
            message,
            report,
            seed_entry,
            site,
            found: None,
            reproducible: None,
            cut_short: false,
        }
    }

    /// The target stops: every worker's job ends, and a failure being
    /// minimized is returned as it stands, to be recorded.
    pub fn stop_jobs(&mut self) -> Vec<Finding> {
        let mut pending = Vec::new();
        for s in &mut self.slots {
            if let Job::Failure(step, f) = std::mem::replace(&mut s.job, Job::Idle) {
                pending.push((step, f));
            }
        }
        let rules = self.failure_rules();
        (pending.into_iter())
            .filter_map(
                |(step, f)| match failure::after(&rules, step, f, Ended::Stopped) {
                    Some(Next::Record { failing, cut_short }) => {
                        Some(self.finding_of(failing, cut_short))
                    }
                    _ => None,
                },
            )
            .collect()
    }

    /// What a failure's life goes by in this run (failure.rs).
    pub fn failure_rules(&self) -> failure::Rules {
        let (max_execs, millis) = self.cfg.minimize_budget();
        failure::Rules {
            timeout_ms: self.cfg.timeout_ms(),
            rss_limit_mb: self.cfg.rss_limit_mb,
            max_execs,
            millis,
            shrink_crashes: self.cfg.minimizing(),
            shrink_failures: self.minimizes_inputs(),
        }
    }

    /// The finding a failure makes as it stands; `cut_short` when the run
    /// stopped its minimization.
    pub fn finding_of(&self, failing: Failing, cut_short: bool) -> Finding {
        let (kind, report) = match failing.crash {
            Some(c) => (FindingKind::Death(c.kind), c.report),
            None => (FindingKind::Failure, String::new()),
        };
        let mut f = self.finding(failing.entry, kind, failing.message, report, None);
        f.found = Some(failing.found);
        f.reproducible = failing.reproduced;
        f.cut_short = cut_short;
        f
    }

    /// The inputs saved as their workers began to crash, whose deaths the
    /// stop leaves untriaged, each with whether it stays. With a failure
    /// recorded and no -keepfuzzing, none does (a crash found while
    /// another is minimized is dropped so, as Go drops it); else each stays
    /// as found, to be reported and counted.
    pub fn early_saves_at_stop(&mut self) -> Vec<(String, bool)> {
        let keep = self.counts.failures == 0 || self.cfg.keepfuzzing;
        (self.slots.iter_mut())
            .filter_map(|s| s.saved_early.take())
            .map(|entry| (entry, keep))
            .collect()
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::corpus::Origin;
    use crate::failure::Crash;
    use fuzz_core::worker::protocol::TargetKind;
    use fuzz_core::ArgType;

    /// A state for a typed target of one `[]byte`, with `slots` ready
    /// workers (no processes) and these entries loaded.
    pub fn state(cfg: Config, slots: usize, entries: &[&str]) -> State {
        let target = TargetDesc {
            name: "FuzzT".into(),
            kind: TargetKind::Typed,
            args: vec![ArgType::Bytes],
        };
        let mut s = State::new(cfg, target, "libt.so".into(), 7);
        s.load(entries.iter().enumerate().map(|(i, t)| Entry {
            name: format!("seed{i}"),
            text: t.to_string(),
            origin: Origin::Seed,
        }));
        for id in 0..slots {
            let mut slot = Slot::started(WorkerId(id));
            slot.life = Life::Alive(Stage::Working { cold: false });
            s.slots.push(slot);
        }
        s
    }

    pub fn config() -> Config {
        Config {
            fuzztime: None,
            minimize: Limit::Time(Duration::from_secs(60)),
            keepfuzzing: false,
            timeout: Duration::from_secs(10),
            rss_limit_mb: 2048,
            max_len: 4096,
            seeded: false,
            use_cmp: true,
            shared: false,
            vary_workers: false,
            search: Search {
                entropic: true,
                cross_over: true,
                len_control: 100,
                auto_dict: true,
                code_strings: true,
                ascii_num: true,
                size_weight: true,
                ..Search::GO
            },
        }
    }

    #[test]
    fn keepfuzzing_records_one_finding_per_site_and_goes_on() {
        let mut s = state(
            Config {
                keepfuzzing: true,
                ..config()
            },
            1,
            &[],
        );
        let f = s.finding(
            "e".into(),
            FindingKind::Failure,
            "boom".into(),
            String::new(),
            None,
        );
        assert_eq!(f.site, "failure");
        let a = s.record(f.clone());
        assert!(matches!(a.as_slice(), [Action::Record(_)]), "{a:?}");
        assert!(s.seen_site("failure"));
        assert!(s.record(f).is_empty(), "a second finding at the site");
        assert_eq!(s.counts.failures, 1);
    }

    #[test]
    fn under_sync_a_finding_is_claimed_first_and_one_the_fleet_has_is_not_recorded() {
        let shared = |keepfuzzing| Config {
            shared: true,
            keepfuzzing,
            ..config()
        };
        let finding = |s: &mut State, seed: Option<&str>| {
            let mut f = s.finding(
                "e".into(),
                FindingKind::Failure,
                "boom".into(),
                String::new(),
                seed.map(str::to_string),
            );
            f.found = Some("as found".into());
            f
        };
        let theirs = || Some(std::path::PathBuf::from("DIR/crashers/F/x"));
        // Under -keepfuzzing, a site the fleet has: said, what was saved
        // of it discarded, nothing counted.
        let mut s = state(shared(true), 1, &[]);
        let f = finding(&mut s, None);
        let [Action::Claim(f)] = &s.record(f)[..] else {
            panic!("not claimed first")
        };
        assert_eq!(s.counts.failures, 0, "counted before the fleet answered");
        let a = s.claimed(f.clone(), theirs());
        let [Action::Say(said), Action::Discard(e), Action::Discard(found)] = &a[..] else {
            panic!("{a:?}")
        };
        assert!(said.contains("DIR/crashers/F/x") && said.contains("another instance"));
        assert_eq!((e.as_str(), found.as_str()), ("e", "as found"));
        assert_eq!(s.counts.failures, 0);
        let again = s.record(f.clone());
        assert!(
            matches!(again.as_slice(), [Action::Discard(_)]),
            "its site is known here now, never claimed again: {again:?}"
        );
        // The first instance at a site records it and goes on.
        let mut s = state(shared(true), 1, &[]);
        let f = finding(&mut s, None);
        assert!(matches!(s.claimed(f, None).as_slice(), [Action::Record(_)]));
        assert_eq!(s.counts.failures, 1);
        // Without -keepfuzzing the instance stops at its finding, whoever
        // had it first: the stop comes with the claim, so that nothing
        // (no new worker) is started while it is answered.
        let mut s = state(shared(false), 1, &[]);
        let f = finding(&mut s, None);
        let [Action::Claim(f), Action::Finish] = &s.record(f)[..] else {
            panic!("not claimed then finished")
        };
        let a = s.claimed(f.clone(), theirs());
        assert!(matches!(a.as_slice(), [Action::Record(_)]), "{a:?}");
        assert_eq!(s.counts.failures, 1);
        // A failing seed is this instance's own: never claimed.
        let mut s = state(shared(true), 1, &[]);
        let f = finding(&mut s, Some("seed0"));
        assert!(matches!(s.record(f).as_slice(), [Action::Record(_)]));
    }

    #[test]
    fn a_finding_or_a_failing_seed_stops_the_target_unless_keepfuzzing() {
        let finding = |s: &mut State, seed: Option<&str>| {
            s.finding(
                "e".into(),
                FindingKind::Failure,
                "boom".into(),
                String::new(),
                seed.map(str::to_string),
            )
        };
        for seed in [None, Some("seed0")] {
            let mut s = state(config(), 1, &[]);
            let f = finding(&mut s, seed);
            assert!(
                matches!(s.record(f).as_slice(), [Action::Record(_), Action::Finish]),
                "{seed:?}"
            );
            let keep = Config {
                keepfuzzing: true,
                ..config()
            };
            let mut s = state(keep, 1, &[]);
            let f = finding(&mut s, seed);
            assert!(
                matches!(s.record(f).as_slice(), [Action::Record(_)]),
                "{seed:?} under -keepfuzzing"
            );
            assert_eq!(s.counts.failures, 1);
        }
    }

    #[test]
    fn a_crash_saved_as_the_run_stops_goes_after_a_finding_and_stays_alone() {
        let mut s = state(config(), 2, &["a"]);
        s.slots[1].saved_early = Some("go test fuzz v1\n[]byte(\"b\")\n".into());
        s.counts.failures = 1;
        let got = s.early_saves_at_stop();
        assert_eq!(got.len(), 1);
        assert!(!got[0].1, "after a finding, without -keepfuzzing: dropped");
        assert_eq!(s.slots[1].saved_early, None);
        assert!(s.early_saves_at_stop().is_empty(), "taken once");
        // Stopped by time or a signal with nothing recorded: it stays.
        s.counts.failures = 0;
        s.slots[0].saved_early = Some("go test fuzz v1\n[]byte(\"c\")\n".into());
        assert!(s.early_saves_at_stop()[0].1);
        // Under -keepfuzzing, every bug stays.
        let mut k = state(
            Config {
                keepfuzzing: true,
                ..config()
            },
            1,
            &["a"],
        );
        k.counts.failures = 3;
        k.slots[0].saved_early = Some("go test fuzz v1\n[]byte(\"d\")\n".into());
        assert!(k.early_saves_at_stop()[0].1);
    }

    #[test]
    fn stopping_returns_the_failures_being_minimized() {
        let mut s = state(config(), 3, &["a"]);
        s.slots[0].job = Job::Fuzz(0);
        s.slots[1].job = Job::Failure(
            FailureStep::Minimize,
            Failing {
                entry: "small".into(),
                found: "big".into(),
                message: "fuzzing process crashed: SIGSEGV".into(),
                crash: Some(Crash {
                    kind: DeathKind::Signal {
                        signal: 11,
                        panic: false,
                    },
                    report: "==fuzz-worker== deadly signal SIGSEGV\n #0 0x1 in f (libt.so+0x10)\n"
                        .into(),
                }),
                reproduced: Some(true),
            },
        );
        s.slots[2].job = Job::Failure(
            FailureStep::Confirm,
            Failing {
                entry: "x".into(),
                found: "xx".into(),
                message: "bad".into(),
                crash: None,
                reproduced: None,
            },
        );
        let pending = s.stop_jobs();
        assert!(!s.busy());
        assert_eq!(pending.len(), 2);
        assert_eq!(pending[0].entry, "small");
        assert_eq!(
            pending[0].found.as_deref(),
            Some("big"),
            "it replaces what was saved"
        );
        assert_eq!(pending[0].site, "SIGSEGV at libt.so+0x10");
        assert!(pending[0].cut_short, "its minimization was cut short");
        assert!(
            !pending[1].cut_short,
            "a confirmation is not a minimization"
        );
        assert_eq!(pending[1].kind, FindingKind::Failure);
    }

    #[test]
    fn execs_left_counts_what_slices_in_flight_were_promised() {
        let mut s = state(
            Config {
                fuzztime: Some(Limit::Count(1000)),
                ..config()
            },
            2,
            &[],
        );
        s.counts.execs = 300;
        s.slots[0].promised = 500;
        assert_eq!(s.execs_left(), Some(200));
        s.slots[1].promised = 500;
        assert_eq!(s.execs_left(), Some(0));
        let s = state(config(), 1, &[]);
        assert_eq!(s.execs_left(), None);
    }
}
