//! `fuzz-worker run -json`: one line per input, one definition for the
//! worker that writes it and fuzz-run's regression mode that reads it (and
//! fuzz-worker(1), whose OUTPUT section documents the same fields).

use serde::{Deserialize, Serialize};

/// One input's line.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RunLine {
    /// The input as named on the command line.
    pub input: String,
    #[serde(flatten)]
    pub outcome: RunOutcome,
    /// With `-coverage`: the coverage features the input reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<usize>,
    /// With `-coverage`: a fingerprint of them, 16 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

/// How the input ended (`"outcome"`); `kind` says it in words for every
/// finding.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum RunOutcome {
    Ok,
    /// The target rejected it (returned -1).
    Rejected,
    /// A typed target's failure: what it wrote.
    Failed {
        message: String,
    },
    /// A signal or a sanitizer: `SIGSEGV`, `asan: heap-buffer-overflow`, …
    Crashed {
        kind: String,
        report: String,
    },
    StackOverflow {
        kind: String,
        report: String,
    },
    Timeout {
        kind: String,
        timeout_ms: u64,
        ran_ms: u64,
        report: String,
    },
    Oom {
        kind: String,
        rss_mb: u64,
        report: String,
    },
    /// The target called exit().
    Exit {
        kind: String,
        exit_code: i32,
        report: String,
    },
    /// Never written by the worker: its reader's word for an input the
    /// worker ended without reporting.
    Lost {
        message: String,
    },
}

impl RunOutcome {
    /// The `"outcome"` word.
    pub fn name(&self) -> &'static str {
        match self {
            RunOutcome::Ok => "ok",
            RunOutcome::Rejected => "rejected",
            RunOutcome::Failed { .. } => "failed",
            RunOutcome::Crashed { .. } => "crashed",
            RunOutcome::StackOverflow { .. } => "stack-overflow",
            RunOutcome::Timeout { .. } => "timeout",
            RunOutcome::Oom { .. } => "oom",
            RunOutcome::Exit { .. } => "exit",
            RunOutcome::Lost { .. } => "lost",
        }
    }

    /// Ran to its end without a finding.
    pub fn passed(&self) -> bool {
        matches!(self, RunOutcome::Ok | RunOutcome::Rejected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_the_documented_fields() {
        let line = RunLine {
            input: "a".into(),
            outcome: RunOutcome::Timeout {
                kind: "timeout".into(),
                timeout_ms: 10,
                ran_ms: 12,
                report: "r".into(),
            },
            features: None,
            fingerprint: None,
        };
        let text = serde_json::to_string(&line).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["outcome"], "timeout");
        assert_eq!(v["timeout_ms"], 10);
        assert!(v.get("features").is_none(), "{text}");
        assert_eq!(serde_json::from_str::<RunLine>(&text).unwrap(), line);
        let ok = r#"{"input":"x","outcome":"ok","features":3,"fingerprint":"00ff"}"#;
        let ok: RunLine = serde_json::from_str(ok).unwrap();
        assert_eq!((ok.outcome.name(), ok.features), ("ok", Some(3)));
        let so = r#"{"input":"x","outcome":"stack-overflow","kind":"stack overflow","report":""}"#;
        assert!(!serde_json::from_str::<RunLine>(so)
            .unwrap()
            .outcome
            .passed());
    }
}
