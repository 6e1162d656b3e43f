//! A failure's life, from the input found to the finding recorded: one
//! state machine, each transition a function of the failure, its step and
//! how the step ended ([`after`]), unit-tested one by one below. It knows
//! nothing of the coordinator's state: the run's [`Rules`] come in, and a
//! failure to record goes out.
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
//! Each step is a worker's job (`Job::Failure` in state.rs); the input was
//! written as soon as it was found (`Action::Save`), and the smallest one
//! replaces it when it is recorded, so that a run killed meanwhile loses
//! nothing. `triage.rs` routes a worker's answers here.

use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::protocol::{Checked, Exec, Keep, Request};

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

/// A death being worked on: its kind and what the worker wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Crash {
    pub kind: DeathKind,
    pub report: String,
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
    /// Its life is over: record it, as it stands; `cut_short` when the
    /// run stopped its minimization.
    Record { failing: Failing, cut_short: bool },
}

/// What a failure's life goes by: the run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// `-timeout` and `-rss_limit_mb`, for each run of the input.
    pub timeout_ms: u64,
    pub rss_limit_mb: u64,
    /// `-fuzzminimizetime`, as executions or milliseconds.
    pub max_execs: Option<u64>,
    pub millis: Option<u64>,
    /// A crash that fails again is minimized (`-fuzzminimizetime` is not
    /// zero).
    pub shrink_crashes: bool,
    /// So is a typed failure (and the target takes bytes or strings).
    pub shrink_failures: bool,
}

/// A failure just found begins its life: run once more.
pub fn begin(rules: &Rules, failing: Failing) -> Next {
    let request = Request::Check {
        id: 0,
        entry: failing.entry.clone(),
        timeout_ms: rules.timeout_ms,
        rss_limit_mb: rules.rss_limit_mb,
    };
    Next::Step {
        step: FailureStep::Reproduce,
        failing,
        request,
        say: None,
    }
}

/// The transition: failure `f` at `step` ended so. `None` when what ended
/// is not that step's (an answer out of turn), which ends nothing.
pub fn after(rules: &Rules, step: FailureStep, f: Failing, ended: Ended) -> Option<Next> {
    let record = |failing: Failing| {
        Some(Next::Record {
            failing,
            cut_short: false,
        })
    };
    match (step, ended) {
        (_, Ended::Stopped) => Some(Next::Record {
            failing: f,
            cut_short: step == FailureStep::Minimize,
        }),
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
            if shrinkable(rules, &f) {
                Some(minimize(rules, f, site.to_string()))
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

/// Whether a failure that failed again is minimized: a crash (not a hang
/// or a blow-up, whose candidates would each cost the limit), whatever the
/// argument types; a typed failure by the rules.
fn shrinkable(rules: &Rules, f: &Failing) -> bool {
    match &f.crash {
        Some(c) => rules.shrink_crashes && !c.kind.costs_a_limit(),
        None => rules.shrink_failures,
    }
}

/// The minimization of `f`, keeping `site`.
fn minimize(rules: &Rules, f: Failing, site: String) -> Next {
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
            max_execs: rules.max_execs,
            millis: rules.millis,
            timeout_ms: rules.timeout_ms,
            rss_limit_mb: rules.rss_limit_mb,
        },
        failing: f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default rules: -timeout 10s, minimizing on.
    fn rules() -> Rules {
        Rules {
            timeout_ms: 10_000,
            rss_limit_mb: 2048,
            max_execs: None,
            millis: Some(60_000),
            shrink_crashes: true,
            shrink_failures: true,
        }
    }

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

    fn recorded(next: Option<Next>) -> (Failing, bool) {
        match next {
            Some(Next::Record { failing, cut_short }) => (failing, cut_short),
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
        let (step, f, request, say) = stepped(Some(begin(&rules(), typed())));
        assert_eq!((step, f, say), (FailureStep::Reproduce, typed(), None));
        let Request::Check {
            entry, timeout_ms, ..
        } = request
        else {
            panic!("{request:?}")
        };
        assert_eq!((entry.as_str(), timeout_ms), ("big", 10_000));
    }

    #[test]
    fn one_that_passes_when_run_again_is_recorded_saying_so() {
        let ok = Checked::Ok { features: vec![] };
        for f in [typed(), crash(segv())] {
            let (got, cut_short) = recorded(after(
                &rules(),
                FailureStep::Reproduce,
                f,
                Ended::Checked(&ok),
            ));
            assert_eq!(got.reproduced, Some(false));
            assert_eq!((got.entry.as_str(), cut_short), ("big", false));
        }
    }

    #[test]
    fn one_that_fails_again_is_minimized_keeping_its_site_when_it_can_be() {
        let again = fails_again();
        let reproduce = |r: &Rules, f| after(r, FailureStep::Reproduce, f, Ended::Checked(&again));
        let (step, f, request, say) = stepped(reproduce(&rules(), typed()));
        assert_eq!((step, f.reproduced), (FailureStep::Minimize, Some(true)));
        assert_eq!(
            say.as_deref(),
            Some("fuzz: minimizing 3-byte failing input file")
        );
        let Request::Minimize {
            keep,
            entry,
            millis,
            ..
        } = request
        else {
            panic!("{request:?}")
        };
        let site = Some("src/lib.rs:3".to_string());
        assert_eq!(keep, Keep::Failure { site });
        assert_eq!((entry.as_str(), millis), ("big", Some(60_000)));
        let (step, ..) = stepped(reproduce(&rules(), crash(segv())));
        assert_eq!(step, FailureStep::Minimize);
        // A hang or a blow-up is not: each candidate would cost the limit.
        for kind in [DeathKind::Timeout, DeathKind::OutOfMemory { rss_mb: 9 }] {
            let (got, _) = recorded(reproduce(&rules(), crash(kind)));
            assert_eq!(got.reproduced, Some(true));
        }
        // Nor anything the rules leave whole (-fuzzminimizetime 0; a
        // typed target without bytes or strings).
        let off = Rules {
            shrink_crashes: false,
            shrink_failures: false,
            ..rules()
        };
        for f in [typed(), crash(segv())] {
            recorded(reproduce(&off, f));
        }
    }

    #[test]
    fn a_minimized_crash_is_recorded_and_a_typed_failure_confirmed_first() {
        let r = rules();
        let small = || Ended::Minimized("b".into());
        let (got, _) = recorded(after(&r, FailureStep::Minimize, crash(segv()), small()));
        assert_eq!((got.entry.as_str(), got.found.as_str()), ("b", "big"));
        let (step, f, request, _) = stepped(after(&r, FailureStep::Minimize, typed(), small()));
        assert_eq!((step, f.entry.as_str()), (FailureStep::Confirm, "b"));
        assert!(matches!(request, Request::Run { entry, .. } if entry == "b"));
        // Confirmed: its own message, or the one it had when it passes.
        let said = Exec::Failed {
            message: "b is bad".into(),
        };
        let (got, _) = recorded(after(&r, FailureStep::Confirm, f.clone(), Ended::Ran(said)));
        assert_eq!(
            (got.entry.as_str(), got.message.as_str()),
            ("b", "b is bad")
        );
        let (got, _) = recorded(after(&r, FailureStep::Confirm, f, Ended::Ran(Exec::Ok)));
        assert_eq!(got.message, "boom");
    }

    #[test]
    fn a_stop_records_it_as_it_stands_cut_short_only_while_minimizing() {
        for step in [
            FailureStep::Reproduce,
            FailureStep::Minimize,
            FailureStep::Confirm,
        ] {
            let (got, cut_short) = recorded(after(&rules(), step, typed(), Ended::Stopped));
            assert_eq!(cut_short, step == FailureStep::Minimize, "{step:?}");
            assert_eq!(got, typed());
        }
        // The minimizer of a crash that dies leaves its smallest so far.
        let f = Failing {
            entry: "smaller".into(),
            ..crash(segv())
        };
        let (got, cut_short) = recorded(after(&rules(), FailureStep::Minimize, f, Ended::Died));
        assert_eq!((got.entry.as_str(), cut_short), ("smaller", false));
    }

    #[test]
    fn an_answer_out_of_turn_ends_nothing() {
        let r = rules();
        let again = fails_again();
        let checked = Ended::Checked(&again);
        assert!(after(&r, FailureStep::Minimize, typed(), checked).is_none());
        let ran = Ended::Ran(Exec::Ok);
        assert!(after(&r, FailureStep::Reproduce, typed(), ran).is_none());
        assert!(after(&r, FailureStep::Minimize, typed(), Ended::Died).is_none());
    }
}
