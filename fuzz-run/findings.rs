//! Writing what a target's run finds, and saying so: a failing input into
//! `testdata/fuzz/<Target>/` with go test's report (or a `failure` event),
//! an input with new coverage into the cache (a `new_input` event). The
//! decisions that lead here are `triage.rs`'s; this is where they touch
//! the disk.

use crate::corpus::{self, Origin};
use crate::report::{Failure, Reporter};
use crate::state::{Finding, FindingKind, State};
use fuzz_cli::CliError;
use fuzz_core::store::{cache, digest, fsutil};
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::shm::{Mutation, MutatorCall};
use fuzz_core::{ArgType, Value};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

/// Where a target's findings go.
pub struct Places {
    /// `testdata/fuzz/<Target>/`.
    pub seed_dir: PathBuf,
    /// The cache root, and this target's directory below it.
    pub cache_root: PathBuf,
    pub cache_dir: PathBuf,
    /// The library as the user named it, for the report's re-run line.
    pub lib_shown: String,
}

impl Places {
    /// Writes an input that reached new coverage into the cache and says
    /// so with -json.
    pub fn keep(
        &self,
        state: &State,
        reporter: &Reporter,
        entry: &str,
        new_features: usize,
    ) -> Result<(), CliError> {
        cache::create_dir(&self.cache_root, &self.cache_dir)?;
        let path = self.cache_dir.join(digest::entry_name(entry.as_bytes()));
        fsutil::write_new_atomic(&path, entry.as_bytes())?;
        let size = fuzz_core::format::codec::decode(entry.as_bytes())
            .map(|v| fuzz_core::search::minimize::size(&v))
            .unwrap_or(0);
        reporter.event(json!({
            "event": "new_input", "path": path.display().to_string(),
            "size": size, "file_size": entry.len(), "new_features": new_features,
            "coverage": state.corpus.coverage(),
        }))
    }

    /// Writes a finding (unless it is a failing seed, which Go reports
    /// without writing) and reports it; `elapsed` is how long the target
    /// has been fuzzed.
    pub fn record(
        &self,
        state: &State,
        reporter: &Reporter,
        f: Finding,
        elapsed: Duration,
    ) -> Result<(), CliError> {
        let message = match &f.kind {
            FindingKind::Mutator {
                death,
                mutation,
                other,
            } => {
                let other = match other {
                    Some(o) => Some(self.other_entry(state, o)?),
                    None => None,
                };
                mutator_headline(state, death, mutation, other.as_deref())
            }
            _ => f.message.clone(),
        };
        let mut lines = message.lines();
        let kind = f.kind.to_string();
        let headline = lines.next().unwrap_or(&kind).to_string();
        let mut details: Vec<&str> = lines.collect();
        details.extend(f.report.lines());
        let written = if f.seed_entry.is_none() {
            fsutil::create_dir_all(&self.seed_dir)?;
            let path = self.seed_dir.join(digest::entry_name(f.entry.as_bytes()));
            fsutil::write_new_atomic(&path, f.entry.as_bytes())?;
            Some(path.display().to_string())
        } else {
            None
        };
        reporter.event(json!({
            "event": "failure", "kind": kind, "message": message,
            "report": f.report, "path": written, "site": f.site,
            "seed_entry": f.seed_entry,
        }))?;
        if reporter.json {
            return Ok(());
        }
        Failure {
            target: &state.target.name,
            elapsed,
            headline: &headline,
            details: &details.join("\n"),
            written: written.as_deref(),
            lib: &self.lib_shown,
            seed_entry: f.seed_entry.as_deref(),
        }
        .print()
    }

    /// Where the other entry of a cross-over that failed is: the seed file
    /// that holds it, or else a file written beside the crasher (a cached
    /// entry may be cleaned away), named by its digest.
    fn other_entry(&self, state: &State, other: &[u8]) -> Result<String, CliError> {
        let text = corpus::text_of(&[Value::Bytes(other.to_vec())]);
        let seed = state
            .corpus
            .entries()
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
}

/// What to say of a worker that died in a call `m` of the target's custom
/// mutators: the mutator's fault, and how to reproduce it (`other`: where
/// a cross-over's other entry is).
fn mutator_headline(state: &State, kind: &DeathKind, m: &Mutation, other: Option<&str>) -> String {
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
            let name = match state.target.args.get(usize::from(m.arg)) {
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
            state.cfg.rss_limit_mb
        );
    }
    let what = match kind {
        DeathKind::Timeout => format!(
            "hung: a call ran longer than {:?} (-timeout)",
            state.cfg.timeout
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
