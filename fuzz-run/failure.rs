//! A failure's life, from the input found to the finding recorded: one
//! state machine, each transition a function of the failure, its step and
//! how the step ended ([`State::failure_after`]), unit-tested one by one below.
//!
//! ```text
//!  found ─▶ Reproduce ─ fails again, shrinkable ─▶ Minimize ─ typed ─▶ Confirm ─▶ recorded
//!   (saved     │  passes, or not shrinkable           │ a crash                 (its own
//!   at once)   └──────────────────────▶ recorded      └──────▶ recorded         message)
//!
//!  a stop, at any step: recorded as it stands (cut short while minimizing)
//!  the minimizer of a crash dies: recorded with its smallest input so far
//! ```
//!
//! Each step is a worker's job ([`Job::Failure`](crate::state::Job)); the
//! input was written as soon as it was found ([`Action::Save`]), and the
//! smallest one replaces it when it is recorded, so that a run killed
//! meanwhile loses nothing. `triage.rs` routes a worker's answers here.

use crate::state::{Crash, Finding, FindingKind, State};
use fuzz_core::worker::protocol::{Checked, Exec, Keep, Request};

#[cfg(doc)]
use crate::state::Action;

/// A failure being worked on.
#[derive(Clone, Debug, PartialEq)]
pub struct Failing {
    /// The smallest failing input so far, as v1 text.
    pub entry: String,
    /// The input as it was found.
    pub found: String,
    pub message: String,
    /// For a worker that died: how.
    pub crash: Option<Crash>,
    /// Whether it failed again when run once more (None: not run yet).
    pub reproduced: Option<bool>,
}

impl Failing {
    /// The finding it makes as it stands.
    pub fn finding(self, state: &State) -> Finding {
        let (kind, report) = match self.crash {
            Some(c) => (FindingKind::Death(c.kind), c.report),
            None => (FindingKind::Failure, String::new()),
        };
        let mut f = state.finding(self.entry, kind, self.message, report, None);
        f.found = Some(self.found);
        f.reproducible = self.reproduced;
        f
    }
}

/// Where a failure is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureStep {
    /// Run once more, in a fresh child process: does it fail again,
    /// before anything more is spent on it?
    Reproduce,
    /// Shrunk, keeping the site it fails at (so that the shrink never
    /// drifts to another bug).
    Minimize,
    /// A typed target's smallest input, run once more for its own message.
    Confirm,
}

/// How a failure's step ended.
#[derive(Debug)]
pub enum Ended<'a> {
    /// Reproduce: the check in a fresh child answered.
    Checked(&'a Checked),
    /// Minimize: the smallest input that kept the failure's site.
    Minimized(String),
    /// Confirm: the run answered.
    Ran(Exec),
    /// Minimize, of a crash: the worker died; the smallest input so far
    /// stands.
    Died,
    /// Any step: the run stops.
    Stopped,
}

/// What follows a step.
#[derive(Debug, PartialEq)]
pub enum Next {
    /// The next step: the failure as it now stands, the request that
    /// starts the step, and a line to say.
    Step {
        step: FailureStep,
        failing: Failing,
        request: Request,
        say: Option<String>,
    },
    /// Its life is over: record it.
    Record(Finding),
}

impl State {
    /// A failure just found begins its life: run once more.
    pub fn begin_failure(&self, failing: Failing) -> Next {
        let request = Request::Check {
            id: 0,
            entry: failing.entry.clone(),
            timeout_ms: self.cfg.timeout_ms(),
            rss_limit_mb: self.cfg.rss_limit_mb,
        };
        Next::Step {
            step: FailureStep::Reproduce,
            failing,
            request,
            say: None,
        }
    }

    /// The transition: failure `f` at `step` ended so. `None` when what
    /// ended is not that step's (an answer out of turn), which ends
    /// nothing.
    pub fn failure_after(&self, step: FailureStep, f: Failing, ended: Ended) -> Option<Next> {
        let record = |f: Failing| Some(Next::Record(f.finding(self)));
        match (step, ended) {
            (_, Ended::Stopped) => Some(Next::Record(Finding {
                cut_short: step == FailureStep::Minimize,
                ..f.finding(self)
            })),
            (FailureStep::Reproduce, Ended::Checked(outcome)) => {
                let Some(site) = outcome.failure_site() else {
                    return record(Failing {
                        reproduced: Some(false),
                        ..f
                    });
                };
                let f = Failing {
                    reproduced: Some(true),
                    ..f
                };
                if self.shrinkable(&f) {
                    Some(self.minimize(f, site.to_string()))
                } else {
                    record(f)
                }
            }
            (FailureStep::Minimize, Ended::Minimized(entry)) if f.crash.is_some() => {
                record(Failing { entry, ..f })
            }
            (FailureStep::Minimize, Ended::Minimized(entry)) => Some(Next::Step {
                step: FailureStep::Confirm,
                request: Request::Run {
                    id: 0,
                    entry: entry.clone(),
                },
                failing: Failing { entry, ..f },
                say: None,
            }),
            (FailureStep::Minimize, Ended::Died) if f.crash.is_some() => record(f),
            (FailureStep::Confirm, Ended::Ran(outcome)) => {
                let message = match outcome {
                    Exec::Failed { message } => message,
                    _ => f.message.clone(),
                };
                record(Failing { message, ..f })
            }
            _ => None,
        }
    }

    /// Whether a failure that failed again is minimized: a crash (not a
    /// hang or a blow-up, whose candidates would each cost the limit),
    /// whatever the argument types; a typed failure when the target takes
    /// bytes or strings.
    fn shrinkable(&self, f: &Failing) -> bool {
        match &f.crash {
            Some(c) => self.cfg.minimizing() && !c.kind.costs_a_limit(),
            None => self.minimizes_inputs(),
        }
    }

    /// The minimization of `f`, keeping `site`.
    fn minimize(&self, f: Failing, site: String) -> Next {
        let (max_execs, millis) = self.cfg.minimize_budget();
        Next::Step {
            step: FailureStep::Minimize,
            say: Some(format!(
                "fuzz: minimizing {}-byte failing input file",
                f.entry.len()
            )),
            request: Request::Minimize {
                id: 0,
                entry: f.entry.clone(),
                keep: Keep::Failure { site: Some(site) },
                max_execs,
                millis,
                timeout_ms: self.cfg.timeout_ms(),
                rss_limit_mb: self.cfg.rss_limit_mb,
            },
            failing: f,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::tests::{config, state};
    use crate::state::Config;
    use fuzz_core::duration::Limit;
    use fuzz_core::worker::crash::DeathKind;

    fn typed() -> Failing {
        Failing {
            entry: "big".into(),
            found: "big".into(),
            message: "boom".into(),
            crash: None,
            reproduced: None,
        }
    }

    fn crash(kind: DeathKind) -> Failing {
        Failing {
            crash: Some(Crash {
                kind,
                report: "r".into(),
            }),
            ..typed()
        }
    }

    fn segv() -> DeathKind {
        DeathKind::Signal {
            signal: 11,
            panic: false,
        }
    }

    fn fails_again() -> Checked {
        Checked::Failed {
            message: "boom".into(),
            site: "src/lib.rs:3".into(),
        }
    }

    fn recorded(next: Option<Next>) -> Finding {
        match next {
            Some(Next::Record(f)) => f,
            other => panic!("not recorded: {other:?}"),
        }
    }

    fn stepped(next: Option<Next>) -> (FailureStep, Failing, Request, Option<String>) {
        match next {
            Some(Next::Step {
                step,
                failing,
                request,
                say,
            }) => (step, failing, request, say),
            other => panic!("no step: {other:?}"),
        }
    }

    #[test]
    fn a_failure_begins_by_running_once_more() {
        let s = state(config(), 1, &[]);
        let (step, f, request, say) = stepped(Some(s.begin_failure(typed())));
        assert_eq!((step, f, say), (FailureStep::Reproduce, typed(), None));
        assert!(matches!(request, Request::Check { entry, .. } if entry == "big"));
    }

    #[test]
    fn one_that_passes_when_run_again_is_recorded_saying_so() {
        let s = state(config(), 1, &[]);
        let ok = Checked::Ok { features: vec![] };
        for f in [typed(), crash(segv())] {
            let got = recorded(s.failure_after(FailureStep::Reproduce, f, Ended::Checked(&ok)));
            assert_eq!(got.reproducible, Some(false));
            assert_eq!((got.entry.as_str(), got.cut_short), ("big", false));
        }
    }

    #[test]
    fn one_that_fails_again_is_minimized_keeping_its_site_when_it_can_be() {
        let s = state(config(), 1, &[]);
        let again = fails_again();
        let (step, f, request, say) =
            stepped(s.failure_after(FailureStep::Reproduce, typed(), Ended::Checked(&again)));
        assert_eq!((step, f.reproduced), (FailureStep::Minimize, Some(true)));
        assert_eq!(
            say.as_deref(),
            Some("fuzz: minimizing 3-byte failing input file")
        );
        let Request::Minimize { keep, entry, .. } = request else {
            panic!("{request:?}")
        };
        assert_eq!(
            keep,
            Keep::Failure {
                site: Some("src/lib.rs:3".into())
            }
        );
        assert_eq!(entry, "big");
        // A hang or a blow-up is not: each candidate would cost the limit.
        for kind in [DeathKind::Timeout, DeathKind::OutOfMemory { rss_mb: 9 }] {
            let f = crash(kind);
            let got = recorded(s.failure_after(FailureStep::Reproduce, f, Ended::Checked(&again)));
            assert_eq!(got.reproducible, Some(true));
        }
        // Nor anything under -fuzzminimizetime 0.
        let off = state(
            Config {
                minimize: Limit::Count(0),
                ..config()
            },
            1,
            &[],
        );
        for f in [typed(), crash(segv())] {
            recorded(off.failure_after(FailureStep::Reproduce, f, Ended::Checked(&again)));
        }
    }

    #[test]
    fn a_minimized_crash_is_recorded_and_a_typed_failure_confirmed_first() {
        let s = state(config(), 1, &[]);
        let small = || Ended::Minimized("b".into());
        let got = recorded(s.failure_after(FailureStep::Minimize, crash(segv()), small()));
        assert_eq!(
            (got.entry.as_str(), got.found.as_deref()),
            ("b", Some("big"))
        );
        let (step, f, request, _) =
            stepped(s.failure_after(FailureStep::Minimize, typed(), small()));
        assert_eq!((step, f.entry.as_str()), (FailureStep::Confirm, "b"));
        assert!(matches!(request, Request::Run { entry, .. } if entry == "b"));
        // Confirmed: its own message, or the one it had when it passes.
        let said = Exec::Failed {
            message: "b is bad".into(),
        };
        let got = recorded(s.failure_after(FailureStep::Confirm, f.clone(), Ended::Ran(said)));
        assert_eq!(
            (got.entry.as_str(), got.message.as_str()),
            ("b", "b is bad")
        );
        let got = recorded(s.failure_after(FailureStep::Confirm, f, Ended::Ran(Exec::Ok)));
        assert_eq!(got.message, "boom");
    }

    #[test]
    fn a_stop_records_it_as_it_stands_cut_short_only_while_minimizing() {
        let s = state(config(), 1, &[]);
        for step in [
            FailureStep::Reproduce,
            FailureStep::Minimize,
            FailureStep::Confirm,
        ] {
            let got = recorded(s.failure_after(step, typed(), Ended::Stopped));
            assert_eq!(got.cut_short, step == FailureStep::Minimize, "{step:?}");
            assert_eq!(got.entry, "big");
        }
        // The minimizer of a crash that dies leaves its smallest so far.
        let f = Failing {
            entry: "smaller".into(),
            ..crash(segv())
        };
        let got = recorded(s.failure_after(FailureStep::Minimize, f, Ended::Died));
        assert_eq!((got.entry.as_str(), got.cut_short), ("smaller", false));
    }

    #[test]
    fn an_answer_out_of_turn_ends_nothing() {
        let s = state(config(), 1, &[]);
        let again = fails_again();
        assert!(s
            .failure_after(FailureStep::Minimize, typed(), Ended::Checked(&again))
            .is_none());
        assert!(s
            .failure_after(FailureStep::Reproduce, typed(), Ended::Ran(Exec::Ok))
            .is_none());
        assert!(s
            .failure_after(FailureStep::Minimize, typed(), Ended::Died)
            .is_none());
    }
}
