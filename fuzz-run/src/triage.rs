//! What a worker's answer or death means: the triage half of the
//! coordinator's decisions (the other half, handing out work, is
//! `dispatch.rs`).
//!
//! An answer carries coverage to merge, an input to keep or minimize, or a
//! typed target's failure. A death (the worker's pipe closed) is a crash,
//! a hang, a memory blow-up or an exit: its input is recovered from shared
//! memory, then minimized (a crash, in forked children keeping its crash
//! site) or recorded as it stands (a hang or a blow-up, whose candidates
//! would each cost the limit), and the worker is replaced. What this keeps
//! true, as Go does: while one failure is being minimized, others are
//! dropped (unless -keepfuzzing, which instead drops a failure at a crash
//! site already recorded); a worker that never said hello is misuse (the
//! library does not load), not a finding.

use crate::corpus::Origin;
use crate::dispatch::WARM_UP;
use crate::failure::{self, Crash, Ended, Failing, FailureStep, Next};
use crate::report;
use crate::state::{Action, Finding, FindingKind, Job, Phase, Stage, State};
use fuzz_core::format::value;
use fuzz_core::worker::client::Death;
use fuzz_core::worker::crash::{self, DeathKind};
use fuzz_core::worker::protocol::{Exec, Found, Request, Response, TargetKind};
use fuzz_core::Value;
use std::collections::HashSet;

impl State {
    /// Worker `w` answered (its handshake's version checked already). An
    /// error is misuse that ends the run: a request it could not serve.
    pub fn on_answer(&mut self, w: usize, response: Response) -> Result<Vec<Action>, String> {
        let job = std::mem::replace(&mut self.slots[w].job, Job::Idle);
        match response {
            Response::Hello { counters, .. } => {
                self.corpus.set_counters(counters);
                // A worker started for a minimization has its job already.
                self.slots[w].job = job;
                self.slots[w].said_hello();
                Ok(Vec::new())
            }
            Response::Warmed { ok } => {
                self.slots[w].job = job;
                self.slots[w].warmed(ok);
                Ok(Vec::new())
            }
            Response::Warning { message } => {
                self.slots[w].job = job;
                Ok(self.warning(message))
            }
            // Needs the worker's shared memory: the coordinator hands it to
            // `on_crashing`.
            Response::Crashing => {
                self.slots[w].job = job;
                Ok(Vec::new())
            }
            Response::Error { message, .. } => Err(format!("worker {w}: {message}")),
            // Only a spare lists, and only before it is told to serve.
            Response::Targets { .. } => Err(format!("worker {w}: a list of targets, unasked")),
            Response::Ran { id: WARM_UP, .. } => {
                // A warm-up before a minimization: the job goes on.
                self.counts.execs += 1;
                self.slots[w].job = job;
                Ok(Vec::new())
            }
            Response::Ran {
                outcome, features, ..
            } => {
                self.counts.execs += 1;
                Ok(self.ran(w, job, outcome, &features))
            }
            Response::Fuzzed {
                execs,
                found,
                reduced,
                ..
            } => {
                self.slots[w].promised = 0;
                self.counts.execs += execs;
                self.counts.reduced += reduced;
                Ok(self.found(w, found))
            }
            Response::Progress { entry, .. } => {
                // The smallest failing input so far replaces the one held.
                self.slots[w].job = match job {
                    Job::Failure(FailureStep::Minimize, f) => {
                        Job::Failure(FailureStep::Minimize, Failing { entry, ..f })
                    }
                    other => other,
                };
                Ok(Vec::new())
            }
            Response::Checked { outcome, .. } => match job {
                Job::Failure(step, f) => Ok(self.step_ended(w, step, f, Ended::Checked(&outcome))),
                _ => Ok(Vec::new()),
            },
            Response::Minimized { entry, execs, .. } => {
                self.slots[w].promised = 0;
                self.counts.execs += execs;
                Ok(self.minimized(w, job, entry, execs))
            }
        }
    }

    /// A single run answered: a baseline entry, or a failure confirmed.
    fn ran(&mut self, w: usize, job: Job, outcome: Exec, features: &[u32]) -> Vec<Action> {
        match job {
            Job::Baseline(i) => {
                if let Phase::Baseline { done, .. } = &mut self.phase {
                    *done += 1;
                }
                self.corpus.learn(features);
                let Exec::Failed { message } = outcome else {
                    return Vec::new();
                };
                self.corpus.mark_failed(i);
                let e = self.corpus.get(i);
                let entry = e.text.clone();
                let seed = (e.origin == Origin::Seed).then(|| e.name.clone());
                let f = self.finding(entry, FindingKind::Failure, message, String::new(), seed);
                self.record(f)
            }
            Job::Import(entry) => {
                // Kept if it adds coverage here; a failure of another
                // instance's entry is not this instance's finding.
                let new = self.corpus.unseen(features);
                if new.is_empty() || matches!(outcome, Exec::Failed { .. }) {
                    return Vec::new();
                }
                self.accept_from(entry, &new, true)
            }
            Job::Failure(step, f) => self.step_ended(w, step, f, Ended::Ran(outcome)),
            _ => Vec::new(),
        }
    }

    /// A fuzzing slice ended, with what it found.
    fn found(&mut self, w: usize, found: Option<Found>) -> Vec<Action> {
        match found {
            None => Vec::new(),
            Some(Found::NewCoverage { entry, features }) => {
                let mut new = self.corpus.unseen(&features);
                let pending = self.being_minimized();
                new.retain(|f| !pending.contains(f));
                if new.is_empty() {
                    return Vec::new();
                }
                match self.minimize_coverage(w, &entry, &new) {
                    Some(a) => vec![a],
                    None => self.accept(entry, &new),
                }
            }
            Some(Found::Failure { .. }) if self.minimizing_failure() => Vec::new(),
            Some(Found::Failure { entry, message }) => {
                if self.seen_site(&crash::failure_site(&message)) {
                    return Vec::new();
                }
                let failing = Failing {
                    found: entry.clone(),
                    entry,
                    message,
                    crash: None,
                    reproduced: None,
                };
                self.found_failing(w, failing)
            }
        }
    }

    /// The new features the workers are minimizing now: they are learned
    /// when that ends, and under `-parallel` a second worker that reached
    /// one meanwhile would minimize its copy for nothing (up to a second of
    /// its time), to see it dropped then. Empty, with nothing allocated,
    /// when no worker is minimizing.
    fn being_minimized(&self) -> HashSet<u32> {
        let minimizing = self.slots.iter().filter_map(|s| match &s.job {
            Job::MinimizeCoverage { features, .. } => Some(features),
            _ => None,
        });
        minimizing.flatten().copied().collect()
    }

    /// A minimization ended with the smallest input that kept its property.
    fn minimized(&mut self, w: usize, job: Job, entry: String, execs: u64) -> Vec<Action> {
        match job {
            Job::MinimizeCoverage { features, .. } => {
                self.counts.minimize_execs += execs;
                self.accept(entry, &features)
            }
            Job::Failure(step, f) => self.step_ended(w, step, f, Ended::Minimized(entry)),
            _ => Vec::new(),
        }
    }

    /// An input with new coverage: into the corpus, and kept (the cache)
    /// when it still adds something.
    pub fn accept(&mut self, entry: String, features: &[u32]) -> Vec<Action> {
        self.accept_from(entry, features, false)
    }

    /// As [`State::accept`]; `imported` for an entry another instance
    /// published, which is not published again.
    fn accept_from(&mut self, entry: String, features: &[u32], imported: bool) -> Vec<Action> {
        if !self.corpus.learn(features) {
            return Vec::new();
        }
        let added = self.corpus.add(crate::corpus::Entry {
            name: fuzz_core::store::digest::entry_name(entry.as_bytes()),
            text: entry.clone(),
            origin: Origin::New,
        });
        if !added {
            return Vec::new();
        }
        self.counts.new_interesting += 1;
        vec![Action::Keep {
            entry,
            new_features: features.len(),
            imported,
        }]
    }

    /// A failure just found: its input is written at once, then its life
    /// begins (failure.rs) on worker `w`.
    fn found_failing(&mut self, w: usize, failing: Failing) -> Vec<Action> {
        let save = Action::Save(failing.entry.clone());
        let next = failure::begin(&self.failure_rules(), failing);
        let mut actions = vec![save];
        actions.extend(self.go_on(w, next));
        actions
    }

    /// Failure `f`'s `step` on worker `w` ended so: what its life does next.
    fn step_ended(&mut self, w: usize, step: FailureStep, f: Failing, ended: Ended) -> Vec<Action> {
        match failure::after(&self.failure_rules(), step, f, ended) {
            Some(next) => self.go_on(w, next),
            None => Vec::new(),
        }
    }

    /// Carries out a failure's next step on worker `w`: its request sent
    /// (after its line), or the finding recorded.
    fn go_on(&mut self, w: usize, next: Next) -> Vec<Action> {
        match next {
            Next::Step {
                step,
                failing,
                request,
                say,
            } => {
                let mut actions: Vec<Action> = say.map(Action::Say).into_iter().collect();
                actions.push(self.send(w, Job::Failure(step, failing), request));
                actions
            }
            Next::Record { failing, cut_short } => {
                let finding = self.finding_of(failing, cut_short);
                self.record(finding)
            }
        }
    }

    /// Worker `w`'s pipe closed and the worker was reaped: `death` says
    /// how it ended. `Err` is why it could not start (it never said
    /// hello): misuse, the run ends.
    pub fn on_death(&mut self, w: usize, death: Death) -> Result<Vec<Action>, String> {
        let early = self.slots[w].saved_early.take();
        let mut actions = self.triage_death(w, death)?;
        // The input saved as the worker began to die stays only where the
        // decision keeps it (saved, or recorded as found or as it stands);
        // a finding dropped (a site recorded already, another failure being
        // minimized, a stop) takes it away.
        if let Some(early) = early {
            let kept = actions.iter().any(|a| match a {
                Action::Save(e) => *e == early,
                Action::Record(f)
                | Action::Claim(f)
                | Action::Replace {
                    fallback: Some(f), ..
                } => {
                    f.seed_entry.is_none() && (f.entry == early || f.found.as_ref() == Some(&early))
                }
                _ => false,
            });
            if !kept {
                actions.insert(0, Action::Discard(early));
            }
        }
        Ok(actions)
    }

    /// Worker `w`'s crash handler said the input in shared memory crashed
    /// the target: while fuzzing, that input is saved at once, before the
    /// handler's report (a symbolized backtrace) is written and the worker
    /// is gone, when the death is triaged as any other.
    pub fn on_crashing(&mut self, w: usize, input: &[u8]) -> Vec<Action> {
        let slot = &self.slots[w];
        if !matches!(slot.job, Job::Fuzz(_)) || !slot.life.warm() || slot.saved_early.is_some() {
            return Vec::new();
        }
        let Some(entry) = self.entry_of(input) else {
            return Vec::new();
        };
        self.slots[w].saved_early = Some(entry.clone());
        vec![Action::Save(entry)]
    }

    fn triage_death(&mut self, w: usize, death: Death) -> Result<Vec<Action>, String> {
        let job = std::mem::replace(&mut self.slots[w].job, Job::Idle);
        self.slots[w].promised = 0;
        let stage = self.slots[w].life.stage();
        self.slots[w].vacate();
        let said_hello = stage.is_some_and(|s| s != Stage::Loading);
        if death.kind == DeathKind::Stopped {
            return Ok(Vec::new());
        }
        if stage == Some(Stage::WarmingUp) {
            // It died in its warm-up, on the empty input: a finding like
            // any other (its input is in shared memory), and the workers
            // that follow skip the warm-up, which would kill each of them.
            self.warm_up = false;
        }
        if !said_hello {
            // The library does not load, or its initialisation fails.
            let kind = death.kind.to_string();
            let why = crash::last_said(&death.report).unwrap_or(&kind).to_string();
            return Err(why);
        }
        self.counts.execs += 1;
        let entry = self.input_of(&job, &death);
        if let Job::Failure(FailureStep::Minimize, f) = &job {
            if f.crash.is_some() {
                // The worker minimizing a crash died: the crash is recorded
                // with its smallest input so far.
                let actions = self.step_ended(w, FailureStep::Minimize, f.clone(), Ended::Died);
                return Ok(then_replace(w, actions));
            }
        }
        if let Some(mutation) = death.mutation {
            // It died in the target's own custom mutator: the input it was
            // mutating is recorded, but it is not a crasher of the target,
            // so it is not minimized. As for any finding, one made while a
            // failure is being minimized is dropped (unless -keepfuzzing).
            if self.minimizing_failure() {
                return Ok(vec![replace(w)]);
            }
            let kind = FindingKind::Mutator {
                death: death.kind,
                mutation,
                other: death.other,
            };
            let f = self.finding(entry, kind, String::new(), death.report, None);
            return Ok(then_replace(w, self.record(f)));
        }
        let seed = self.baseline_died(&job);
        let headline = report::death_headline(&death.kind, self.cfg.timeout, self.cfg.rss_limit_mb);
        let kind = FindingKind::Death(death.kind.clone());
        let f = self.finding(entry, kind, headline, death.report, seed);
        // Under -keepfuzzing, a crash at a site already recorded costs
        // nothing more than a new worker; while one failure is being
        // minimized, others are dropped, as Go does (unless -keepfuzzing).
        if f.seed_entry.is_none() && self.seen_site(&f.site) {
            self.knows(&f.report);
            return Ok(vec![replace(w)]);
        }
        if self.minimizing_failure() {
            return Ok(vec![replace(w)]);
        }
        // A seed is reported as Go reports it; a hang, whose run again
        // would cost another -timeout, as it stands; so are the loss of the
        // worker's pipes (a child process keeps its own, and would pass)
        // and a death in a typed failure's minimization.
        let as_it_stands = f.seed_entry.is_some()
            || matches!(death.kind, DeathKind::Timeout | DeathKind::LostPipes)
            || matches!(job, Job::Failure(FailureStep::Minimize, _));
        if as_it_stands {
            return Ok(then_replace(w, self.record(f)));
        }
        Ok(self.check_in_a_fresh_worker(w, f, death.kind))
    }

    /// A baseline entry killed its worker: counted as run and marked
    /// failed; the seed file's name when it was a seed.
    fn baseline_died(&mut self, job: &Job) -> Option<String> {
        let Job::Baseline(i) = *job else {
            return None;
        };
        if let Phase::Baseline { done, .. } = &mut self.phase {
            *done += 1;
        }
        self.corpus.mark_failed(i);
        let e = self.corpus.get(i);
        (e.origin == Origin::Seed).then(|| e.name.clone())
    }

    /// A death run once more in a fresh worker in slot `w`, warmed with an
    /// entry that passed (so that its children inherit the target's lazy
    /// initialisation instead of each repeating it under -timeout). No
    /// worker to run it in (EAGAIN, EMFILE): it is recorded as it stands
    /// before the run gives up.
    fn check_in_a_fresh_worker(&mut self, w: usize, f: Finding, kind: DeathKind) -> Vec<Action> {
        let mut actions = vec![Action::Replace {
            slot: w,
            fallback: Some(f.clone()),
        }];
        if let Some(passing) = self.corpus.first_passing() {
            let warm = passing.text.clone();
            actions.push(Action::Send(
                w,
                Request::Run {
                    id: WARM_UP,
                    entry: warm,
                },
            ));
        }
        let failing = Failing {
            found: f.entry.clone(),
            entry: f.entry,
            message: f.message,
            crash: Some(Crash {
                kind,
                report: f.report,
            }),
            reproduced: None,
        };
        // The input is saved first: Save comes before the replacement.
        let mut checked = self.found_failing(w, failing);
        checked.splice(1..1, actions);
        checked
    }

    /// The input a dead worker was running, as an entry: from shared
    /// memory; for a minimization, the smallest failing input it kept
    /// (shared memory holds the last candidate it tried).
    fn input_of(&self, job: &Job, death: &Death) -> String {
        if let Job::Failure(FailureStep::Minimize, f) = job {
            return f.entry.clone();
        }
        if let Some(entry) = self.entry_of(&death.input) {
            return entry;
        }
        match job {
            Job::Baseline(i) | Job::Fuzz(i) => self.corpus.get(*i).text.clone(),
            Job::Import(entry) => entry.clone(),
            Job::MinimizeCoverage { entry, .. } => entry.clone(),
            Job::Failure(_, f) => f.entry.clone(),
            _ => String::new(),
        }
    }

    /// The input in a worker's shared memory as an entry, when it unpacks
    /// into the target's arguments.
    fn entry_of(&self, input: &[u8]) -> Option<String> {
        let values = match self.target.kind {
            TargetKind::LibFuzzer => Some(vec![Value::Bytes(input.to_vec())]),
            TargetKind::Typed => value::unpack_all(input, &self.target.args),
        }?;
        Some(crate::corpus::text_of(&values))
    }
}

/// A new worker in slot `w`.
fn replace(w: usize) -> Action {
    Action::Replace {
        slot: w,
        fallback: None,
    }
}

/// `actions`, then a new worker in slot `w` unless they finish the target.
fn then_replace(w: usize, mut actions: Vec<Action>) -> Vec<Action> {
    if !actions.iter().any(|a| matches!(a, Action::Finish)) {
        actions.push(replace(w));
    }
    actions
}

#[cfg(test)]
mod tests {
    use crate::failure::{Crash, Failing, FailureStep};
    use crate::state::tests::{config, state};
    use crate::state::{Action, Config, FindingKind, Job, Life, Phase, Stage};
    use fuzz_core::worker::client::Death;
    use fuzz_core::worker::crash::DeathKind;
    use fuzz_core::worker::protocol::{Checked, Exec, Found, Keep, Request, Response};
    use std::time::Duration;

    fn death(kind: DeathKind, input: &[u8], report: &str) -> Death {
        Death {
            kind,
            report: report.into(),
            input: input.to_vec(),
            mutation: None,
            other: None,
        }
    }

    fn segv() -> DeathKind {
        DeathKind::Signal {
            signal: 11,
            panic: false,
        }
    }

    const REPORT: &str = "==fuzz-worker== deadly signal SIGSEGV\n    #0 0x1 in f (libt.so+0x10)\n";

    /// The packed input of a typed target of one []byte.
    fn packed(bytes: &[u8]) -> Vec<u8> {
        let mut v = (bytes.len() as u32).to_le_bytes().to_vec();
        v.extend_from_slice(bytes);
        v
    }

    fn kinds(actions: &[Action]) -> Vec<&'static str> {
        actions
            .iter()
            .map(|a| match a {
                Action::Send(_, Request::Run { .. }) => "run",
                Action::Send(_, Request::Minimize { .. }) => "minimize",
                Action::Send(_, Request::Fuzz { .. }) => "fuzz",
                Action::Send(_, Request::Check { .. }) => "check",
                Action::Send(..) => "send",
                Action::Replace { fallback: None, .. } => "replace",
                Action::Replace { .. } => "replace+fallback",
                Action::Save(_) => "save",
                Action::Discard(_) => "discard",
                Action::Keep { .. } => "keep",
                Action::Record(_) => "record",
                Action::Claim(_) => "claim",
                Action::Say(_) => "say",
                Action::Warn(_) => "warn",
                Action::Finish => "finish",
            })
            .collect()
    }

    /// The answer of a check that died again at `site`.
    fn died_again(site: &str) -> Response {
        Response::Checked {
            id: 0,
            outcome: Checked::Died {
                kind: segv(),
                site: site.into(),
                report: REPORT.into(),
            },
        }
    }

    #[test]
    fn a_crash_is_saved_run_again_in_a_fresh_worker_then_minimized_keeping_its_site() {
        let mut s = state(config(), 2, &["go test fuzz v1\n[]byte(\"ok\")\n"]);
        s.phase = Phase::Fuzzing;
        s.slots[1].job = Job::Fuzz(0);
        let a = s
            .on_death(1, death(segv(), &packed(b"boom"), REPORT))
            .unwrap();
        assert_eq!(kinds(&a), ["save", "replace+fallback", "run", "check"]);
        assert!(
            matches!(&a[0], Action::Save(e) if e == "go test fuzz v1\n[]byte(\"boom\")\n"),
            "the input as found is written before anything is spent on it"
        );
        assert!(matches!(
            &s.slots[1].job,
            Job::Failure(FailureStep::Reproduce, _)
        ));
        assert_eq!(s.counts.execs, 1, "the fatal execution counts");
        // Another worker's crash meanwhile is dropped, as Go does.
        s.slots[0].job = Job::Fuzz(0);
        let a = s.on_death(0, death(segv(), &packed(b"x"), REPORT)).unwrap();
        assert_eq!(kinds(&a), ["replace"]);
        // It crashes again: minimized, keeping the site the check saw.
        let a = s
            .on_answer(1, died_again("SIGSEGV at libt.so+0x10"))
            .unwrap();
        assert_eq!(kinds(&a), ["say", "minimize"]);
        match &a[1] {
            Action::Send(1, Request::Minimize { entry, keep, .. }) => {
                assert_eq!(entry, "go test fuzz v1\n[]byte(\"boom\")\n");
                assert_eq!(
                    keep,
                    &Keep::Failure {
                        site: Some("SIGSEGV at libt.so+0x10".into())
                    }
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            &s.slots[1].job,
            Job::Failure(FailureStep::Minimize, f) if f.crash.is_some()
        ));
        // The minimizer answers: recorded with its kind and report, in
        // place of the input as found; the run stops.
        let a = s
            .on_answer(
                1,
                Response::Minimized {
                    id: 0,
                    entry: "small".into(),
                    execs: 40,
                },
            )
            .unwrap();
        assert_eq!(kinds(&a), ["record", "finish"]);
        let Action::Record(f) = &a[0] else { panic!() };
        assert_eq!(f.entry, "small");
        assert_eq!(
            f.found.as_deref(),
            Some("go test fuzz v1\n[]byte(\"boom\")\n")
        );
        assert_eq!(f.kind, FindingKind::Death(segv()));
        assert_eq!(f.message, "fuzzing process crashed: SIGSEGV");
        assert_eq!(f.reproducible, Some(true), "it crashed again");
        assert_eq!(s.counts.failures, 1);
    }

    #[test]
    fn an_input_saved_as_its_worker_began_to_die_stays_only_where_it_is_kept() {
        let mut s = state(config(), 2, &["go test fuzz v1\n[]byte(\"ok\")\n"]);
        s.phase = Phase::Fuzzing;
        // Only a fuzzing worker's input is saved so.
        s.slots[1].job = Job::Baseline(0);
        s.slots[1].warmed(true);
        assert!(s.on_crashing(1, &packed(b"ok")).is_empty());
        s.slots[1].job = Job::Fuzz(0);
        let a = s.on_crashing(1, &packed(b"boom"));
        let boom = "go test fuzz v1\n[]byte(\"boom\")\n";
        assert!(matches!(&a[..], [Action::Save(e)] if e == boom), "{a:?}");
        assert!(s.on_crashing(1, &packed(b"boom")).is_empty(), "once");
        // Its death: saved again (the same file) and checked, as ever.
        let a = s
            .on_death(1, death(segv(), &packed(b"boom"), REPORT))
            .unwrap();
        assert_eq!(kinds(&a), ["save", "replace+fallback", "run", "check"]);
        assert_eq!(s.slots[1].saved_early, None);
        // Another worker's crash meanwhile is dropped, as Go does: what it
        // saved goes.
        s.slots[0].job = Job::Fuzz(0);
        s.slots[0].warmed(true);
        assert_eq!(kinds(&s.on_crashing(0, &packed(b"x"))), ["save"]);
        let a = s.on_death(0, death(segv(), &packed(b"x"), REPORT)).unwrap();
        assert_eq!(kinds(&a), ["discard", "replace"]);
        assert!(matches!(&a[0], Action::Discard(e) if e == "go test fuzz v1\n[]byte(\"x\")\n"));
    }

    #[test]
    fn under_sync_an_input_saved_as_its_worker_died_stays_while_its_site_is_claimed() {
        // A worker loses its pipes after its crash handler saved the
        // input: the death is recorded as it stands, claimed first, and
        // what was saved is not discarded meanwhile.
        let lose_pipes = |keepfuzzing| {
            let cfg = Config {
                shared: true,
                keepfuzzing,
                ..config()
            };
            let mut s = state(cfg, 1, &["go test fuzz v1\n[]byte(\"ok\")\n"]);
            s.phase = Phase::Fuzzing;
            s.slots[0].job = Job::Fuzz(0);
            assert_eq!(kinds(&s.on_crashing(0, &packed(b"gone"))), ["save"]);
            let gone = death(DeathKind::LostPipes, &packed(b"gone"), REPORT);
            kinds(&s.on_death(0, gone).unwrap())
        };
        // Without -keepfuzzing the target stops: no worker takes the dead
        // one's place. Under it, one does and fuzzing goes on.
        assert_eq!(lose_pipes(false), ["claim", "finish"]);
        assert_eq!(lose_pipes(true), ["claim", "replace"]);
    }

    #[test]
    fn a_death_that_passes_when_run_again_is_recorded_saying_so() {
        // As the kernel's OOM killer, or a kill from another process.
        let killed = DeathKind::Signal {
            signal: 9,
            panic: false,
        };
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::Fuzz(0);
        let a = s
            .on_death(0, death(killed.clone(), &packed(b"k"), ""))
            .unwrap();
        assert_eq!(kinds(&a), ["save", "replace+fallback", "run", "check"]);
        let passed = Response::Checked {
            id: 0,
            outcome: Checked::Ok { features: vec![] },
        };
        let a = s.on_answer(0, passed).unwrap();
        assert_eq!(kinds(&a), ["record", "finish"]);
        let Action::Record(f) = &a[0] else { panic!() };
        assert_eq!(f.reproducible, Some(false));
        assert_eq!(f.kind, FindingKind::Death(killed));
    }

    #[test]
    fn hangs_are_recorded_as_they_stand_and_blow_ups_after_a_check() {
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::Fuzz(0);
        let a = s
            .on_death(0, death(DeathKind::Timeout, &packed(b"h"), ""))
            .unwrap();
        assert_eq!(
            kinds(&a),
            ["record", "finish"],
            "a re-run would cost another -timeout"
        );
        let Action::Record(f) = &a[0] else { panic!() };
        assert!(f.message.contains("-timeout"));
        assert_eq!(f.reproducible, None);

        let oom = DeathKind::OutOfMemory { rss_mb: 3000 };
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::Fuzz(0);
        let a = s
            .on_death(0, death(oom.clone(), &packed(b"h"), ""))
            .unwrap();
        assert_eq!(kinds(&a), ["save", "replace+fallback", "run", "check"]);
        let again = Response::Checked {
            id: 0,
            outcome: Checked::Died {
                kind: oom,
                site: "out of memory at ".into(),
                report: String::new(),
            },
        };
        let a = s.on_answer(0, again).unwrap();
        assert_eq!(
            kinds(&a),
            ["record", "finish"],
            "each candidate would cost the limit"
        );
        let Action::Record(f) = &a[0] else { panic!() };
        assert!(f.message.contains("-rss_limit_mb"));
        assert_eq!(f.reproducible, Some(true));
    }

    #[test]
    fn keepfuzzing_replaces_the_worker_and_drops_a_known_site() {
        let cfg = Config {
            keepfuzzing: true,
            ..config()
        };
        let mut s = state(cfg, 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::Fuzz(0);
        let a = s
            .on_death(0, death(DeathKind::Timeout, &packed(b"h"), REPORT))
            .unwrap();
        assert_eq!(kinds(&a), ["record", "replace"]);
        assert!(
            !s.slots[0].usable(),
            "a dead worker's slot waits for the new one"
        );
        // Its replacement, past its hello and warm-up.
        s.slots[0].life = Life::Alive(Stage::Working { cold: false });
        s.slots[0].job = Job::Fuzz(0);
        let a = s
            .on_death(0, death(DeathKind::Timeout, &packed(b"i"), REPORT))
            .unwrap();
        assert_eq!(
            kinds(&a),
            ["replace"],
            "same site: nothing more than a new worker"
        );
        assert_eq!(s.counts.failures, 1);
    }

    #[test]
    fn a_failing_seed_is_reported_without_minimizing_and_stops() {
        let mut s = state(config(), 1, &["a"]);
        s.begin();
        s.slots[0].job = Job::Baseline(0);
        let a = s
            .on_answer(
                0,
                Response::Ran {
                    id: 0,
                    outcome: Exec::Failed {
                        message: "bad".into(),
                    },
                    features: vec![1, 2],
                },
            )
            .unwrap();
        assert_eq!(kinds(&a), ["record", "finish"]);
        let Action::Record(f) = &a[0] else { panic!() };
        assert_eq!(f.seed_entry.as_deref(), Some("seed0"));
        assert_eq!(s.corpus.coverage(), 2, "its coverage counts");
        assert_eq!(s.advance(), Some(1));
    }

    #[test]
    fn under_keepfuzzing_a_failing_seed_is_recorded_and_never_fuzzed_from() {
        let cfg = Config {
            keepfuzzing: true,
            ..config()
        };
        let mut s = state(cfg, 1, &["a", "b"]);
        s.begin();
        s.slots[0].job = Job::Baseline(0);
        let failed = Exec::Failed {
            message: "bad".into(),
        };
        let a = s
            .on_answer(
                0,
                Response::Ran {
                    id: 0,
                    outcome: failed,
                    features: vec![1],
                },
            )
            .unwrap();
        assert_eq!(kinds(&a), ["record"], "no finish: fuzzing goes on");
        assert_eq!(s.corpus.first_passing().unwrap().name, "seed1");
    }

    #[test]
    fn a_worker_that_never_said_hello_is_misuse() {
        let mut s = state(config(), 1, &[]);
        s.slots[0].life = Life::Alive(Stage::Loading);
        let why = s
            .on_death(
                0,
                death(
                    DeathKind::Exit { status: 2 },
                    b"",
                    "fuzz-worker: lib.so: undefined symbol: foo\n",
                ),
            )
            .unwrap_err();
        assert_eq!(why, "lib.so: undefined symbol: foo");
        let stopped = death(DeathKind::Stopped, b"", "");
        assert!(s.on_death(0, stopped).unwrap().is_empty());
    }

    #[test]
    fn new_coverage_is_minimized_then_kept_once() {
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.corpus.learn(&[1]);
        s.slots[0].job = Job::Fuzz(0);
        let found = Found::NewCoverage {
            entry: "big".into(),
            features: vec![1, 2, 3],
        };
        let a = s
            .on_answer(
                0,
                Response::Fuzzed {
                    id: 0,
                    execs: 100,
                    found: Some(found),
                    reduced: 0,
                },
            )
            .unwrap();
        assert_eq!(kinds(&a), ["minimize"]);
        assert_eq!(
            s.slots[0].job,
            Job::MinimizeCoverage {
                entry: "big".into(),
                features: vec![2, 3]
            }
        );
        let done = Response::Minimized {
            id: 0,
            entry: "b".into(),
            execs: 10,
        };
        let a = s.on_answer(0, done.clone()).unwrap();
        assert!(matches!(
            a.as_slice(),
            [Action::Keep {
                new_features: 2,
                ..
            }]
        ));
        assert_eq!((s.counts.execs, s.counts.minimize_execs), (110, 10));
        assert_eq!(s.counts.new_interesting, 1);
        s.slots[0].job = Job::MinimizeCoverage {
            entry: "b".into(),
            features: vec![2, 3],
        };
        assert!(
            s.on_answer(0, done).unwrap().is_empty(),
            "nothing new any more"
        );
    }

    #[test]
    fn coverage_another_worker_is_minimizing_is_not_minimized_twice() {
        let mut s = state(config(), 2, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::MinimizeCoverage {
            entry: "big".into(),
            features: vec![2, 3],
        };
        let fuzzed = |features: Vec<u32>| Response::Fuzzed {
            id: 0,
            execs: 100,
            found: Some(Found::NewCoverage {
                entry: "other".into(),
                features,
            }),
            reduced: 0,
        };
        s.slots[1].job = Job::Fuzz(0);
        assert!(s.on_answer(1, fuzzed(vec![3, 2])).unwrap().is_empty());
        s.slots[1].job = Job::Fuzz(0);
        let a = s.on_answer(1, fuzzed(vec![2, 3, 4])).unwrap();
        assert_eq!(kinds(&a), ["minimize"]);
        assert_eq!(
            s.slots[1].job,
            Job::MinimizeCoverage {
                entry: "other".into(),
                features: vec![4]
            },
            "only what no one is minimizing"
        );
        // Once the first minimization is over, its features are learned;
        // had it died instead, they would be new again.
        s.slots[0].job = Job::Idle;
        s.slots[1].job = Job::Fuzz(0);
        let a = s.on_answer(1, fuzzed(vec![2])).unwrap();
        assert_eq!(kinds(&a), ["minimize"]);
    }

    #[test]
    fn a_typed_failure_is_minimized_then_confirmed_for_its_message() {
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::Fuzz(0);
        let failure = Found::Failure {
            entry: "big".into(),
            message: "bad input\nthread '<unnamed>' panicked at src/lib.rs:3:5:".into(),
        };
        let a = s
            .on_answer(
                0,
                Response::Fuzzed {
                    id: 0,
                    execs: 5,
                    found: Some(failure),
                    reduced: 0,
                },
            )
            .unwrap();
        assert_eq!(kinds(&a), ["save", "check"]);
        let again = Response::Checked {
            id: 0,
            outcome: Checked::Failed {
                message: "bad input".into(),
                site: "panic at src/lib.rs:3:5".into(),
            },
        };
        let a = s.on_answer(0, again).unwrap();
        assert_eq!(kinds(&a), ["say", "minimize"]);
        match &a[1] {
            Action::Send(_, Request::Minimize { keep, .. }) => assert_eq!(
                keep,
                &Keep::Failure {
                    site: Some("panic at src/lib.rs:3:5".into())
                }
            ),
            other => panic!("{other:?}"),
        }
        let progress = Response::Progress {
            id: 0,
            entry: "smaller".into(),
            execs: 3,
            size: 7,
        };
        s.on_answer(0, progress).unwrap();
        assert!(
            matches!(&s.slots[0].job, Job::Failure(FailureStep::Minimize, f) if f.entry == "smaller" && f.found == "big")
        );
        let a = s
            .on_answer(
                0,
                Response::Minimized {
                    id: 0,
                    entry: "small".into(),
                    execs: 9,
                },
            )
            .unwrap();
        assert_eq!(kinds(&a), ["run"]);
        let a = s
            .on_answer(
                0,
                Response::Ran {
                    id: 0,
                    outcome: Exec::Failed {
                        message: "its own message".into(),
                    },
                    features: vec![],
                },
            )
            .unwrap();
        let Action::Record(f) = &a[0] else {
            panic!("{a:?}")
        };
        assert_eq!(
            (f.entry.as_str(), f.message.as_str()),
            ("small", "its own message")
        );
        assert_eq!(
            f.found.as_deref(),
            Some("big"),
            "the saved input it replaces"
        );
    }

    #[test]
    fn a_dying_minimizer_records_its_smallest_input() {
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].job = Job::Failure(
            FailureStep::Minimize,
            Failing {
                entry: "smallest".into(),
                found: "found".into(),
                message: "fuzzing process crashed: SIGSEGV".into(),
                crash: Some(Crash {
                    kind: segv(),
                    report: REPORT.into(),
                }),
                reproduced: Some(true),
            },
        );
        let a = s
            .on_death(0, death(segv(), &packed(b"last candidate"), REPORT))
            .unwrap();
        assert_eq!(kinds(&a), ["record", "finish"]);
        let Action::Record(f) = &a[0] else { panic!() };
        assert_eq!(f.entry, "smallest");
    }

    #[test]
    fn a_death_in_the_warm_up_is_a_finding_and_later_workers_skip_it() {
        let mut s = state(config(), 1, &["a"]);
        s.phase = Phase::Fuzzing;
        s.slots[0].life = Life::Alive(Stage::WarmingUp);
        assert!(!s.slots[0].usable(), "no work before the warm-up is done");
        let a = s.on_death(0, death(segv(), &packed(b""), REPORT)).unwrap();
        assert_eq!(kinds(&a), ["save", "replace+fallback", "run", "check"]);
        assert!(matches!(&a[0], Action::Save(e) if e == "go test fuzz v1\n[]byte(\"\")\n"));
        assert!(!s.warm_up, "the next workers skip the warm-up");
        // A worker whose warm-up failed gets the allowance for its first
        // input, then -timeout.
        let mut s = state(config(), 1, &["a"]);
        s.slots[0].life = Life::Alive(Stage::Loading);
        assert_eq!(s.allowance(0, 0), Duration::from_secs(100), "loading");
        s.on_answer(0, hello(&s)).unwrap();
        assert_eq!(s.allowance(0, 1), Duration::from_secs(100), "warming up");
        s.on_answer(0, Response::Warmed { ok: false }).unwrap();
        assert!(s.slots[0].usable());
        assert_eq!(
            s.allowance(0, 2),
            Duration::from_secs(100),
            "its first input"
        );
        assert_eq!(s.allowance(0, 3), Duration::from_secs(10), "then -timeout");
        s.slots[0].warmed(true);
        assert_eq!(
            s.allowance(0, 2),
            Duration::from_secs(10),
            "warmed: -timeout at once"
        );
        let mut s = state(
            Config {
                timeout: Duration::ZERO,
                ..config()
            },
            1,
            &[],
        );
        assert_eq!(s.allowance(0, 5), Duration::ZERO, "-timeout 0: no limit");
        s.slots[0].life = Life::Alive(Stage::WarmingUp);
        assert_eq!(s.allowance(0, 0), Duration::ZERO);
    }

    #[test]
    fn a_warning_is_said_once() {
        let mut s = state(config(), 1, &[]);
        let w = || Response::Warning {
            message: "the target forks".into(),
        };
        assert_eq!(kinds(&s.on_answer(0, w()).unwrap()), ["warn"]);
        assert!(s.on_answer(0, w()).unwrap().is_empty());
    }

    fn hello(s: &crate::state::State) -> Response {
        Response::Hello {
            version: fuzz_core::worker::protocol::VERSION,
            target: s.target.clone(),
            counters: 0,
        }
    }

    #[test]
    fn hello_makes_a_worker_ready_and_keeps_a_job_given_before() {
        let mut s = state(config(), 1, &[]);
        s.slots[0].life = Life::Alive(Stage::Loading);
        s.slots[0].job = Job::Failure(
            FailureStep::Confirm,
            Failing {
                entry: "e".into(),
                found: "e".into(),
                message: "m".into(),
                crash: None,
                reproduced: Some(true),
            },
        );
        let hello = Response::Hello {
            version: fuzz_core::worker::protocol::VERSION,
            target: s.target.clone(),
            counters: 0,
        };
        assert!(s.on_answer(0, hello).unwrap().is_empty());
        assert_eq!(s.slots[0].life, Life::Alive(Stage::WarmingUp));
        assert!(s.slots[0].job.is_failure());
        let error = Response::Error {
            id: 0,
            message: "bad entry".into(),
        };
        assert_eq!(s.on_answer(0, error).unwrap_err(), "worker 0: bad entry");
    }
}
