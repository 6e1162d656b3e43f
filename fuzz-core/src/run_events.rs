//! fuzz-run's `-json` lines: one definition for the coordinator that
//! writes them, the tests that read them and fuzz-run(1), whose OUTPUT
//! and FUZZING OUTPUT sections document the same fields.
//!
//! Every line is a [`Line`]: the event (its `"event"` field names it) with
//! the target and the seconds elapsed where they apply. Fuzzing writes
//! [`FuzzEvent`]s, regression mode [`RegressEvent`]s; both end with the
//! same [`Exit`].

use serde::{Deserialize, Serialize};

/// One line of output: an event, stamped.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Line<E> {
    #[serde(flatten)]
    pub event: E,
    /// The target the event is about (every fuzzing event has one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Seconds: since the run started for fuzzing's events and `exit`;
    /// the target's or the run's own time for regression mode's `target`
    /// and `end`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed: Option<f64>,
}

/// Seconds to the millisecond, as every `elapsed` and `seconds` is written.
pub fn secs3(secs: f64) -> f64 {
    (secs * 1000.0).round() / 1000.0
}

/// With `-fuzz`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum FuzzEvent {
    Start,
    /// Several targets take turns: this one's begins.
    Turn {
        workers: usize,
        /// How long the turn may last; `None` until the target is done.
        seconds: Option<f64>,
    },
    /// The seed corpus and the cache have run.
    Baseline {
        entries: usize,
        /// Coverage features the corpus reaches.
        coverage: usize,
        workers: usize,
    },
    /// Every 3 s.
    Progress(Progress),
    /// An input with new coverage, written to the cache.
    NewInput {
        path: String,
        /// The bytes of its `[]byte` and `string` arguments.
        size: usize,
        /// The v1 file's.
        file_size: usize,
        new_features: usize,
        coverage: usize,
    },
    Failure(Failure),
    /// The target's run is over.
    End(FuzzEnd),
    Exit(Exit),
}

/// The `progress` event's counts.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Progress {
    pub execs: u64,
    pub execs_per_sec: f64,
    pub new_interesting: usize,
    /// Entries in the corpus.
    pub total: usize,
    /// Coverage features.
    pub coverage: usize,
    pub edges: usize,
    pub crashers: usize,
}

/// A failure, found while fuzzing or before it could start (a malformed
/// seed corpus, a Go fuzz test whose set-up failed: `kind` says which, and
/// only `message` is filled in besides).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Failure {
    pub kind: String,
    pub message: String,
    /// What the worker wrote: crash header, backtrace, sanitizer report.
    pub report: Option<String>,
    /// The crasher written; `None` for a failing seed or one that could
    /// not be written.
    pub path: Option<String>,
    /// The crash site that tells bugs apart.
    pub site: Option<String>,
    /// The seed file that failed during the baseline.
    pub seed_entry: Option<String>,
    /// Whether it failed again when run once more in a fresh process;
    /// `None` when it was not run again.
    pub reproducible: Option<bool>,
    /// The run stopped while it was minimized: the input is not minimal.
    pub minimization_cut_short: bool,
    /// When the crasher could not be written.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub unwritten: Option<Unwritten>,
}

impl Failure {
    /// A target that failed before any fuzzing.
    pub fn unrunnable(kind: &str, message: &str) -> Failure {
        Failure {
            kind: kind.to_string(),
            message: message.to_string(),
            report: None,
            path: None,
            site: None,
            seed_entry: None,
            reproducible: None,
            minimization_cut_short: false,
            unwritten: None,
        }
    }
}

/// A crasher that could not be written, and what is known of it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Unwritten {
    pub write_error: String,
    /// The v1 text, when at most 1 MiB.
    pub input: Option<String>,
    pub input_size: usize,
    pub input_sha256: String,
    /// Where it was written instead, if anywhere.
    pub kept_at: Option<String>,
}

/// The `end` of a target's fuzzing.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FuzzEnd {
    pub execs: u64,
    pub new_interesting: usize,
    pub coverage: usize,
    pub edges: usize,
    pub failures: usize,
    pub corpus: usize,
    /// Entries of the workers' copies of the corpus that a shorter input
    /// took the place of (-reduce_inputs; the files keep the entries as
    /// found).
    #[serde(default)]
    pub reduced: u64,
    pub fuzzed_seconds: f64,
    pub execs_per_sec: f64,
    /// `time`, `finding` or `interrupted`.
    pub stopped: String,
    pub interrupted: bool,
}

/// Without `-fuzz`: the seed corpora replayed.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RegressEvent {
    /// One seed corpus entry, once its target has run.
    Entry(EntryResult),
    /// A target, after its entries.
    Target(TargetResult),
    /// The run, after its targets.
    End(RegressEnd),
    Exit(Exit),
}

/// `pass`, `skip` or `fail`, as `go test -json` says.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Skip,
    Fail,
}

/// An entry's line: the worker's fields of its outcome, under the worker's
/// word for it (`result`) and the verdict (`outcome`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct EntryResult {
    pub entry: String,
    pub outcome: Verdict,
    /// fuzz-worker's outcome: ok, rejected, failed, crashed, …, or lost.
    pub result: String,
    #[serde(flatten)]
    pub details: OutcomeDetails,
    /// Its path, and the path's bytes in hex when they are not UTF-8.
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_hex: Option<String>,
    /// The command that runs it again, for a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun: Option<String>,
}

/// The fields of a [`RunOutcome`](crate::worker::run_json::RunOutcome)
/// beside its name, each where it applies.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct OutcomeDetails {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rss_mb: Option<u64>,
}

impl OutcomeDetails {
    pub fn of(outcome: &crate::worker::run_json::RunOutcome) -> OutcomeDetails {
        use crate::worker::run_json::RunOutcome as O;
        let mut d = OutcomeDetails::default();
        match outcome {
            O::Ok | O::Rejected => {}
            O::Failed { message } | O::Lost { message } => d.message = Some(message.clone()),
            O::Crashed { kind, report } | O::StackOverflow { kind, report } => {
                d.kind = Some(kind.clone());
                d.report = Some(report.clone());
            }
            O::Timeout {
                kind,
                timeout_ms,
                report,
                ..
            } => {
                d.kind = Some(kind.clone());
                d.timeout_ms = Some(*timeout_ms);
                d.report = Some(report.clone());
            }
            O::Oom {
                kind,
                rss_mb,
                report,
            } => {
                d.kind = Some(kind.clone());
                d.rss_mb = Some(*rss_mb);
                d.report = Some(report.clone());
            }
            O::Exit {
                kind,
                exit_code,
                report,
            } => {
                d.kind = Some(kind.clone());
                d.exit_code = Some(*exit_code);
                d.report = Some(report.clone());
            }
        }
        d
    }
}

/// A target's line in regression mode.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TargetResult {
    pub outcome: Verdict,
    pub entries: usize,
    pub passed: usize,
    pub skipped: usize,
    pub failed: usize,
    /// The `file:line: reason` lines of its bad seed files; when there are
    /// any, no entry ran.
    pub malformed: Vec<String>,
    /// What a Go fuzz test said when its set-up failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
}

/// The run's line in regression mode.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RegressEnd {
    pub lib: String,
    /// `ok`, `fail` or `stopped`.
    pub outcome: String,
    pub targets: usize,
    /// Targets that failed.
    pub failed: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The last line of every run, in every mode, however it ended.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Exit {
    /// `ok`, `fail`, `stopped` or `misuse`.
    pub outcome: String,
    /// The tool's exit status.
    pub exit_code: u8,
    /// When the run ended in an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::run_json::RunOutcome;

    fn round_trip<E>(line: &Line<E>) -> serde_json::Value
    where
        E: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
    {
        let text = serde_json::to_string(line).unwrap();
        assert_eq!(
            &serde_json::from_str::<Line<E>>(&text).unwrap(),
            line,
            "{text}"
        );
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn a_failure_has_one_shape_whether_found_or_unrunnable() {
        let early = Line {
            event: FuzzEvent::Failure(Failure::unrunnable("malformed seed corpus", "a:1: bad")),
            target: Some("FuzzX".into()),
            elapsed: Some(0.5),
        };
        let mut found = Failure::unrunnable("SIGSEGV", "crashed");
        found.path = Some("testdata/fuzz/FuzzX/0a".into());
        found.unwritten = Some(Unwritten {
            write_error: "disk full".into(),
            input: None,
            input_size: 3,
            input_sha256: "ab".into(),
            kept_at: None,
        });
        let found = Line {
            event: FuzzEvent::Failure(found),
            target: Some("FuzzX".into()),
            elapsed: Some(1.0),
        };
        let (a, b) = (round_trip(&early), round_trip(&found));
        assert_eq!(a["event"], "failure");
        assert_eq!(a["kind"], "malformed seed corpus");
        let keys = |v: &serde_json::Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.retain(|k| {
                ![
                    "write_error",
                    "input",
                    "input_size",
                    "input_sha256",
                    "kept_at",
                ]
                .contains(&k.as_str())
            });
            k.sort();
            k
        };
        assert_eq!(keys(&a), keys(&b), "{a}\n{b}");
        assert!(a.get("write_error").is_none() && b["write_error"] == "disk full");
        assert!(a["path"].is_null() && a["reproducible"].is_null());
    }

    #[test]
    fn an_entry_carries_the_worker_s_fields_under_its_own_verdict() {
        let outcome = RunOutcome::Timeout {
            kind: "timeout".into(),
            timeout_ms: 10,
            ran_ms: 12,
            report: "r".into(),
        };
        let line = Line {
            event: RegressEvent::Entry(EntryResult {
                entry: "e".into(),
                outcome: Verdict::Fail,
                result: outcome.name().into(),
                details: OutcomeDetails::of(&outcome),
                file: "testdata/fuzz/F/e".into(),
                file_hex: None,
                rerun: Some("fuzz-run -run F/e lib.so".into()),
            }),
            target: Some("F".into()),
            elapsed: None,
        };
        let v = round_trip(&line);
        assert_eq!(
            (v["event"].as_str(), v["outcome"].as_str()),
            (Some("entry"), Some("fail"))
        );
        assert_eq!(
            (v["result"].as_str(), v["timeout_ms"].as_u64()),
            (Some("timeout"), Some(10))
        );
        assert!(
            v.get("ran_ms").is_none() && v.get("elapsed").is_none(),
            "{v}"
        );
        let exit = Line {
            event: RegressEvent::Exit(Exit {
                outcome: "ok".into(),
                exit_code: 0,
                message: None,
            }),
            target: None,
            elapsed: Some(0.25),
        };
        let v = round_trip(&exit);
        assert_eq!(
            (v["event"].as_str(), v["exit_code"].as_i64()),
            (Some("exit"), Some(0))
        );
    }
}
