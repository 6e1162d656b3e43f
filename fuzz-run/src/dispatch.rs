//! Handing out work, and when a turn ends: the scheduling half of the
//! coordinator's decisions (the other half, what answers and deaths mean,
//! is `triage.rs`).
//!
//! Go's coordinator first runs every corpus entry once (the baseline),
//! then hands each idle worker a slice of fuzzing from the next entry,
//! round robin, telling it the coverage and entries others found since it
//! last heard. What this keeps true: no work goes to a worker that has not
//! said hello; `-fuzztime Nx` is never overshot, since a slice is promised
//! its executions before it starts; while a failure is being minimized no
//! new slice starts (unless -keepfuzzing), as in Go.

use crate::corpus::{self, Entry, Origin};
use crate::failure::FailureStep;
use crate::state::{Action, Job, Life, Phase, Stage, State};
use fuzz_core::worker::client::{warm_up_allowance, Killed};
use fuzz_core::worker::protocol::{Keep, Request};
use fuzz_core::{ArgType, Value};
use std::time::{Duration, Instant};

/// What the hang watch last saw of a worker: its executions, and when
/// that count last moved or it was last sent a request. The shell keeps
/// it beside the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub execs: u64,
    pub at: Instant,
}

/// What the hang watch reads of a worker at one look.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub execs: u64,
    /// An execution is running (not between executions, nor waiting for
    /// its answer to be read).
    pub running: bool,
    /// Its resident memory, when the limit is on and it is not being
    /// killed already.
    pub rss_mb: Option<u64>,
    /// Why it is being killed, if it is.
    pub killed: Option<Killed>,
    pub now: Instant,
}

/// The hang watch's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    /// Past -rss_limit_mb, by this many MiB resident.
    OutOfMemory(u64),
    /// No progress within its allowance: asked for its stack, then killed
    /// (the shell's `Worker::time_out`, called again at every look until
    /// it is gone).
    Timeout,
}

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
pub const WARM_UP: u64 = u64::MAX;
/// The request id of an imported entry's run.
const IMPORT: u64 = u64::MAX - 1;

/// Where the turn's clock stands.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// The target's time is up (`-fuzztime`, in its last turn).
    pub out_of_time: bool,
    /// The turn's length is up: the next target's turn.
    pub hand_over: bool,
}

/// What the turn does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Go,
    /// The target is done: its -fuzztime or its count is spent.
    Finish,
    /// The turn is over and no work is in flight.
    HandOver,
}

impl State {
    /// Sets up the baseline, on the target's first turn: every entry is run
    /// once; an empty corpus starts from the zero values. Returns how many
    /// entries the baseline runs.
    pub fn begin(&mut self) -> usize {
        let total = self.corpus.len();
        let mut queue: Vec<usize> = (0..total).collect();
        queue.reverse();
        self.phase = Phase::Baseline {
            queue,
            done: 0,
            total,
        };
        if total == 0 {
            self.corpus.add(self.zero_entry());
        }
        total
    }

    /// The zero values of the target's arguments, as an entry.
    fn zero_entry(&self) -> Entry {
        let zero: Vec<Value> = self.target.args.iter().map(Value::zero).collect();
        Entry {
            name: "zero".into(),
            text: corpus::text_of(&zero),
            origin: Origin::New,
        }
    }

    /// Entries other instances published (`-sync`), to run once each; those
    /// already in the corpus are passed over.
    pub fn import(&mut self, entries: Vec<Vec<u8>>) {
        for bytes in entries {
            let Ok(values) = fuzz_core::format::codec::decode(&bytes) else {
                continue;
            };
            if fuzz_core::format::codec::check_types(&values, &self.target.args).is_err() {
                continue;
            }
            let text = corpus::text_of(&values);
            if !self.corpus.contains(&text) {
                self.imports.push_back(text);
            }
        }
    }

    /// Ends the baseline once every entry has answered; returns how many
    /// entries it ran when it just ended.
    pub fn advance(&mut self) -> Option<usize> {
        match self.phase {
            Phase::Baseline { done, total, .. } if done == total => {
                self.phase = Phase::Fuzzing;
                if self.corpus.first_passing().is_none() {
                    // Every seed failed (-keepfuzzing goes on past them):
                    // fuzzing starts from the zero values, as it does from
                    // an empty corpus.
                    self.corpus.add(self.zero_entry());
                }
                Some(total)
            }
            _ => None,
        }
    }

    /// Whether the turn goes on, the target is done, or the turn hands
    /// over. With a failure being minimized, the target's time being up
    /// waits for it (as Go's run does); a hand-over waits for all work in
    /// flight.
    pub fn step(&self, clock: Clock) -> Step {
        if !self.is_fuzzing() {
            return Step::Go;
        }
        // No more to hand out once the count is spoken for; the run ends
        // when the slices in flight have answered.
        let count_done = self.execs_left() == Some(0)
            && !self
                .slots
                .iter()
                .any(|s| matches!(s.job, Job::Fuzz(_) | Job::MinimizeCoverage { .. }));
        if (clock.out_of_time || count_done) && !self.minimizing_failure() {
            return Step::Finish;
        }
        if clock.hand_over && !self.busy() {
            return Step::HandOver;
        }
        Step::Go
    }

    /// Work for every idle worker that is ready: a baseline entry while
    /// there are any, then fuzzing slices.
    pub fn hand_out(&mut self, clock: Clock) -> Vec<Action> {
        let out_of_execs = self.execs_left() == Some(0);
        let may_fuzz = self.is_fuzzing()
            && !self.minimizing_failure()
            && !clock.out_of_time
            && !out_of_execs
            && !clock.hand_over;
        let mut actions = Vec::new();
        for w in 0..self.slots.len() {
            if self.slots[w].job != Job::Idle || !self.slots[w].usable() {
                continue;
            }
            let next = match &mut self.phase {
                Phase::Baseline { queue, .. } => queue.pop(),
                _ => None,
            };
            if let Some(i) = next {
                let entry = self.corpus.get(i).text.clone();
                actions.push(self.send(
                    w,
                    Job::Baseline(i),
                    Request::Run {
                        id: i as u64,
                        entry,
                    },
                ));
            } else if !may_fuzz {
                continue;
            } else if let Some(entry) = self.imports.pop_front() {
                let request = Request::Run {
                    id: IMPORT,
                    entry: entry.clone(),
                };
                actions.push(self.send(w, Job::Import(entry), request));
            } else {
                actions.extend(self.fuzz_slice(w));
            }
        }
        actions
    }

    /// A fuzzing slice for worker `w` from the next entry, with what it has
    /// not heard yet; `None` when nothing is left to hand out.
    fn fuzz_slice(&mut self, w: usize) -> Option<Action> {
        let i = self.corpus.next_parent()?;
        let seed = self.next_seed();
        let workers = self.slots.len() as u64;
        let (max_execs, millis) = match (self.cfg.seeded, self.execs_left()) {
            (true, Some(left)) => (Some(left.min(1000)), None),
            (true, None) => (Some(1000), None),
            (false, Some(left)) => (Some(left.div_ceil(workers).max(1)), Some(100)),
            (false, None) => (None, Some(100)),
        };
        if max_execs == Some(0) {
            return None; // the count is spoken for by slices in flight
        }
        let search = self.cfg.search_for(w);
        let slot = &mut self.slots[w];
        slot.promised = max_execs.unwrap_or(0);
        let (add_coverage, synced) = self.corpus.features_since(slot.synced);
        slot.synced = synced;
        let corpus = if search.entropic || search.cross_over {
            let (texts, shared) = self.corpus.texts_since(slot.shared);
            slot.shared = shared;
            texts
        } else {
            Vec::new()
        };
        let known_crashes = self.known_crashes[slot.told.min(self.known_crashes.len())..].to_vec();
        slot.told = self.known_crashes.len();
        let request = Request::Fuzz {
            known_crashes,
            id: i as u64,
            entry: self.corpus.get(i).text.clone(),
            seed,
            max_execs,
            millis,
            max_len: self.cfg.max_len,
            add_coverage,
            use_cmp: self.cfg.use_cmp,
            corpus,
            search,
        };
        Some(self.send(w, Job::Fuzz(i), request))
    }

    /// Worker `w` is to shrink an input that reached `new` features,
    /// keeping them, when the budget allows; `None` when it does not (the
    /// input is then kept as found).
    pub fn minimize_coverage(&mut self, w: usize, entry: &str, new: &[u32]) -> Option<Action> {
        // Minimizing counts against -fuzztime Nx too, so its budget is
        // promised like a slice's.
        let (max_execs, millis) = self.cfg.minimize_budget();
        let budget = max_execs
            .unwrap_or(u64::MAX)
            .min(COVERAGE_MINIMIZE_EXECS)
            .min(self.execs_left().unwrap_or(u64::MAX));
        let within_share = self.counts.minimize_execs
            < COVERAGE_MINIMIZE_ALLOWANCE + self.counts.execs / COVERAGE_MINIMIZE_SHARE;
        if !self.minimizes_inputs() || budget == 0 || !within_share {
            return None;
        }
        self.slots[w].promised = budget;
        let request = Request::Minimize {
            id: 0,
            entry: entry.to_string(),
            keep: Keep::Coverage {
                features: new.to_vec(),
                isolate: false,
            },
            max_execs: Some(budget),
            // Under -seed, counts only: a time limit would make runs differ.
            millis: (!self.cfg.seeded)
                .then(|| millis.unwrap_or(u64::MAX).min(COVERAGE_MINIMIZE_MS)),
            timeout_ms: self.cfg.timeout_ms(),
            rss_limit_mb: self.cfg.rss_limit_mb,
        };
        let job = Job::MinimizeCoverage {
            entry: entry.to_string(),
            features: new.to_vec(),
        };
        Some(self.send(w, job, request))
    }

    /// Inputs (a typed target's failures, new coverage) are minimized
    /// when -fuzzminimizetime allows and the target takes bytes or a
    /// string, as Go minimizes only those; a crash is minimized whatever
    /// the types (numbers move towards zero too).
    pub fn minimizes_inputs(&self) -> bool {
        self.cfg.minimizing()
            && self
                .target
                .args
                .iter()
                .any(|a| matches!(a, ArgType::Bytes | ArgType::String))
    }

    /// How long worker `w`, which has run `execs` executions, may go
    /// without progress before it counts as hung (zero: no limit, as
    /// `-timeout 0` says). Its start and warm-up pay for the target's lazy
    /// initialisation (ARCHITECTURE.md: max(60 s, 10 × -timeout)), and so does
    /// its first input when the warm-up failed; after that every input
    /// gets -timeout. A worker that runs its own forked children under
    /// -timeout (re-running or minimizing a failure) gets room for its own
    /// verdict to come first.
    pub fn allowance(&self, w: usize, execs: u64) -> Duration {
        let timeout = self.cfg.timeout;
        let slot = &self.slots[w];
        if timeout.is_zero() {
            Duration::ZERO
        } else if match slot.life.stage() {
            Some(Stage::Working { cold }) => cold && execs <= 2,
            _ => true,
        } {
            warm_up_allowance(timeout)
        } else if matches!(
            slot.job,
            Job::Failure(FailureStep::Reproduce | FailureStep::Minimize, _)
                | Job::MinimizeCoverage { .. }
        ) {
            timeout * 2 + Duration::from_secs(1)
        } else {
            timeout
        }
    }

    /// The hang watch, at one look at worker `w`: what it has now seen of
    /// it, and whether to kill it. Memory comes first: an input that
    /// touches gigabytes runs slowly under load and may pass its time limit
    /// too; it is the memory it is killed for, as its replay will say.
    pub fn watch(&self, w: usize, look: &Look, seen: Seen) -> (Seen, Option<Kill>) {
        if !self.watched(w) {
            return (seen, None);
        }
        // Loading and initializing runs no execution, and must not hang
        // unseen: its clock runs from the start. Otherwise progress, or no
        // execution running (between executions, or its answer waits in
        // our queue), is not a hang.
        let loading = self.slots[w].life.stage() == Some(Stage::Loading);
        let seen = if look.execs != seen.execs || (!loading && !look.running) {
            Seen {
                execs: look.execs,
                at: look.now,
            }
        } else {
            seen
        };
        let limit = self.cfg.rss_limit_mb;
        if let Some(rss) = look.rss_mb.filter(|&r| limit > 0 && r > limit) {
            if look.killed.is_none() {
                return (seen, Some(Kill::OutOfMemory(rss)));
            }
        }
        let allowance = self.allowance(w, look.execs);
        let hung = !allowance.is_zero() && look.now.duration_since(seen.at) > allowance;
        if look.killed == Some(Killed::Timeout) || hung {
            return (seen, Some(Kill::Timeout));
        }
        (seen, None)
    }

    /// Whether worker `w`'s clock runs: while it has work, and while it
    /// loads and warms up (which must not hang unseen).
    pub fn watched(&self, w: usize) -> bool {
        let slot = &self.slots[w];
        slot.life != Life::Vacant && (slot.job != Job::Idle || !slot.life.warm())
    }
}

#[cfg(test)]
mod tests {
    use crate::dispatch::{Clock, Kill, Look, Seen, Step};
    use crate::failure::{Failing, FailureStep};
    use crate::state::tests::{config, state};
    use crate::state::{Action, Config, Job, Life, Phase, Stage};
    use fuzz_core::duration::Limit;
    use fuzz_core::worker::client::Killed;
    use fuzz_core::worker::protocol::{Request, Search};
    use std::time::Duration;

    /// One look of the hang watch at worker 0, `after` its last progress.
    fn look(
        s: &crate::state::State,
        execs: u64,
        running: bool,
        rss_mb: Option<u64>,
        killed: Option<Killed>,
        after: Duration,
    ) -> Option<Kill> {
        let at = std::time::Instant::now();
        let seen = Seen { execs: 5, at };
        let look = Look {
            execs,
            running,
            rss_mb,
            killed,
            now: at + after,
        };
        let (now_seen, kill) = s.watch(0, &look, seen);
        let moved = execs != 5 || (s.slots[0].life != Life::Alive(Stage::Loading) && !running);
        assert_eq!(now_seen.at == look.now, moved && s.watched(0), "{look:?}");
        kill
    }

    #[test]
    fn the_hang_watch_kills_for_memory_first_then_for_time_and_spares_progress() {
        let mut s = state(config(), 1, &[]);
        s.slots[0].job = Job::Fuzz(0);
        let (t, past) = (Duration::from_secs(1), Duration::from_secs(11));
        // -timeout 10 s, a worker past its warm-up with work.
        assert_eq!(look(&s, 5, true, None, None, t), None);
        assert_eq!(look(&s, 5, true, None, None, past), Some(Kill::Timeout));
        assert_eq!(
            look(&s, 6, true, None, None, past),
            None,
            "it made progress"
        );
        assert_eq!(
            look(&s, 5, false, None, None, past),
            None,
            "between executions"
        );
        // Memory first; once killed for it, not again, though its time
        // may run out meanwhile; a timeout goes on to its SIGKILL.
        let over = Some(4096);
        assert_eq!(
            look(&s, 5, true, over, None, past),
            Some(Kill::OutOfMemory(4096))
        );
        assert_eq!(look(&s, 5, true, Some(2048), None, t), None, "at the limit");
        let oom = Some(Killed::OutOfMemory(4096));
        assert_eq!(look(&s, 5, true, over, oom, t), None);
        let timeout = Some(Killed::Timeout);
        assert_eq!(look(&s, 6, true, None, timeout, t), Some(Kill::Timeout));
        // Loading runs no execution: its clock runs all the same, with
        // the warm-up's allowance (100 s here).
        s.slots[0].life = Life::Alive(Stage::Loading);
        let loading = Duration::from_secs(101);
        assert_eq!(look(&s, 5, false, None, None, past), None);
        assert_eq!(look(&s, 5, false, None, None, loading), Some(Kill::Timeout));
        // Nothing to do and warm, or no worker: not watched.
        s.slots[0].life = Life::Alive(Stage::Working { cold: false });
        s.slots[0].job = Job::Idle;
        assert_eq!(look(&s, 5, true, over, None, loading), None);
        s.slots[0].life = Life::Vacant;
        s.slots[0].job = Job::Fuzz(0);
        assert_eq!(look(&s, 5, true, over, None, loading), None);
        // -timeout 0: no limit of time, memory still watched.
        let mut s = state(
            Config {
                timeout: Duration::ZERO,
                ..config()
            },
            1,
            &[],
        );
        s.slots[0].job = Job::Fuzz(0);
        assert_eq!(look(&s, 5, true, None, None, loading), None);
        assert_eq!(
            look(&s, 5, true, over, None, t),
            Some(Kill::OutOfMemory(4096))
        );
    }

    fn sent(actions: &[Action]) -> Vec<(usize, &Request)> {
        actions
            .iter()
            .map(|a| match a {
                Action::Send(w, r) => (*w, r),
                other => panic!("not a send: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_baseline_runs_every_entry_once_then_fuzzing_begins() {
        let mut s = state(config(), 2, &["a", "b", "c"]);
        assert_eq!(s.begin(), 3);
        let a = s.hand_out(Clock::default());
        let ids: Vec<_> = sent(&a)
            .iter()
            .map(|(w, r)| match r {
                Request::Run { id, .. } => (*w, *id),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(ids, [(0, 0), (1, 1)], "in corpus order, one per worker");
        assert!(s.hand_out(Clock::default()).is_empty(), "both busy");
        assert_eq!(s.step(Clock::default()), Step::Go);
        assert_eq!(s.advance(), None);
        s.phase = Phase::Baseline {
            queue: vec![],
            done: 3,
            total: 3,
        };
        assert_eq!(s.advance(), Some(3));
        assert!(s.is_fuzzing());
    }

    #[test]
    fn an_empty_corpus_starts_from_the_zero_values() {
        let mut s = state(config(), 1, &[]);
        assert_eq!(s.begin(), 0);
        assert_eq!(s.corpus.len(), 1);
        assert_eq!(s.corpus.get(0).text, "go test fuzz v1\n[]byte(\"\")\n");
        assert_eq!(s.advance(), Some(0));
        let a = s.hand_out(Clock::default());
        assert!(matches!(sent(&a)[..], [(0, Request::Fuzz { id: 0, .. })]));
    }

    #[test]
    fn when_every_seed_failed_fuzzing_starts_from_the_zero_values() {
        let mut s = state(config(), 1, &["a"]);
        assert_eq!(s.begin(), 1);
        s.corpus.mark_failed(0); // as triage marks a seed that failed
        s.phase = Phase::Baseline {
            queue: vec![],
            done: 1,
            total: 1,
        };
        assert_eq!(s.advance(), Some(1));
        assert_eq!(s.corpus.len(), 2);
        assert_eq!(s.corpus.first_passing().unwrap().name, "zero");
        let a = s.hand_out(Clock::default());
        assert!(matches!(sent(&a)[..], [(0, Request::Fuzz { .. })]), "{a:?}");
    }

    #[test]
    fn slices_go_round_robin_and_tell_what_is_new() {
        let mut s = state(config(), 2, &["a", "b"]);
        s.phase = Phase::Fuzzing;
        s.corpus.learn(&[5, 6]);
        let a = s.hand_out(Clock::default());
        let got: Vec<_> = sent(&a)
            .into_iter()
            .map(|(w, r)| match r {
                Request::Fuzz {
                    id,
                    add_coverage,
                    corpus,
                    millis,
                    max_execs,
                    ..
                } => (
                    w,
                    *id,
                    add_coverage.clone(),
                    corpus.len(),
                    *millis,
                    *max_execs,
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                (0, 0, vec![5, 6], 2, Some(100), None),
                (1, 1, vec![5, 6], 2, Some(100), None)
            ]
        );
        // Worker 0 answers; it is told only what was added since.
        s.slots[0].job = Job::Idle;
        s.corpus.learn(&[7]);
        let a = s.hand_out(Clock::default());
        match sent(&a)[..] {
            [(
                0,
                Request::Fuzz {
                    id,
                    add_coverage,
                    corpus,
                    ..
                },
            )] => {
                assert_eq!(
                    (*id, add_coverage.as_slice(), corpus.len()),
                    (0, &[7][..], 0)
                );
            }
            ref other => panic!("{other:?}"),
        }
    }

    #[test]
    fn with_vary_workers_every_second_worker_runs_the_text_switches() {
        let searches = |vary_workers| {
            let cfg = Config {
                vary_workers,
                search: Search {
                    code_strings: false,
                    ..config().search
                },
                ..config()
            };
            let mut s = state(cfg, 4, &["a"]);
            s.phase = Phase::Fuzzing;
            let a = s.hand_out(Clock::default());
            sent(&a)
                .into_iter()
                .map(|(w, r)| match r {
                    Request::Fuzz { search, .. } => (w, search.fields, search.code_strings),
                    other => panic!("{other:?}"),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            searches(true),
            [
                (0, false, false),
                (1, true, true),
                (2, false, false),
                (3, true, true)
            ]
        );
        assert!(searches(false).iter().all(|&(_, f, c)| !f && !c));
    }

    #[test]
    fn a_count_is_never_overshot_and_ends_the_target() {
        let mut s = state(
            Config {
                fuzztime: Some(Limit::Count(10)),
                seeded: true,
                ..config()
            },
            2,
            &["a"],
        );
        s.phase = Phase::Fuzzing;
        let a = s.hand_out(Clock::default());
        assert!(
            matches!(
                sent(&a)[..],
                [(
                    0,
                    Request::Fuzz {
                        max_execs: Some(10),
                        millis: None,
                        ..
                    }
                )]
            ),
            "{a:?}"
        );
        assert_eq!(s.execs_left(), Some(0), "the slice is promised all 10");
        assert_eq!(s.step(Clock::default()), Step::Go, "it is in flight");
        s.slots[0].job = Job::Idle;
        s.slots[0].promised = 0;
        s.counts.execs = 10;
        assert_eq!(s.step(Clock::default()), Step::Finish);
    }

    #[test]
    fn time_up_waits_for_a_failure_being_minimized_and_hand_over_for_all_work() {
        let mut s = state(config(), 2, &["a"]);
        s.phase = Phase::Fuzzing;
        let up = Clock {
            out_of_time: true,
            hand_over: false,
        };
        assert_eq!(s.step(up), Step::Finish);
        s.slots[1].job = Job::Failure(
            FailureStep::Confirm,
            Failing {
                entry: "a".into(),
                found: "a".into(),
                message: "m".into(),
                crash: None,
                reproduced: None,
            },
        );
        assert_eq!(s.step(up), Step::Go);
        assert!(
            s.hand_out(Clock::default()).is_empty(),
            "no slice while minimizing a failure"
        );
        let over = Clock {
            out_of_time: false,
            hand_over: true,
        };
        assert_eq!(s.step(over), Step::Go, "work in flight");
        s.slots[1].job = Job::Idle;
        assert_eq!(s.step(over), Step::HandOver);
        assert!(
            s.hand_out(over).is_empty(),
            "nothing new once the turn is over"
        );
    }

    #[test]
    fn coverage_minimization_has_a_budget() {
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        let a = s.minimize_coverage(0, "e", &[1]).expect("within budget");
        assert!(matches!(
            a,
            Action::Send(
                0,
                Request::Minimize {
                    max_execs: Some(5000),
                    millis: Some(1000),
                    ..
                }
            )
        ));
        assert_eq!(s.slots[0].promised, 5000);
        s.counts.minimize_execs = 20_000;
        assert!(
            s.minimize_coverage(0, "e", &[1]).is_none(),
            "its share is spent"
        );
        s.counts.execs = 1_000_000;
        assert!(
            s.minimize_coverage(0, "e", &[1]).is_some(),
            "fuzzing earned more"
        );
        let mut s = state(
            Config {
                minimize: Limit::Count(0),
                ..config()
            },
            1,
            &["a"],
        );
        assert!(
            s.minimize_coverage(0, "e", &[1]).is_none(),
            "-fuzzminimizetime 0"
        );
    }
}
