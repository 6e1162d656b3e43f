//! Writing what a target's run finds, and saying so: a failing input into
//! `testdata/fuzz/<Target>/` with go test's report (or a `failure` event),
//! an input with new coverage into the cache (a `new_input` event). The
//! decisions that lead here are `triage.rs`'s; this is where they touch
//! the disk.

use crate::corpus::{self, Origin};
use crate::report::{Failure, Reporter, Unwritten};
use crate::rerun::Rerun;
use crate::state::{Finding, FindingKind, State};
use fuzz_cli::CliError;
use fuzz_core::run_events::{self, FuzzEvent};
use fuzz_core::store::flush::Flusher;
use fuzz_core::store::{cache, digest, fsutil};
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::shm::{Mutation, MutatorCall};
use fuzz_core::{ArgType, Value};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

/// What a report says of a failure that passed when run again.
const NOT_AGAIN: &str =
    "It did not fail again when re-run in a fresh process: it may depend on what \
     ran before it in the same process (a leak, state left behind) or on something outside \
     the target (a signal from another process, the kernel's OOM killer).";

/// What a report says of a failure whose minimization the run's stop cut
/// short.
const CUT_SHORT: &str = "Its minimization was cut short when the run stopped: the input is as \
     small as minimizing had made it, not minimal.";

/// The largest input a report carries as text when it could not be
/// written; a larger one is named by its size and digest.
const INLINE_MAX: usize = 1 << 20;

/// Where a target's findings go, and what was written there.
pub struct Outputs {
    /// `testdata/fuzz/<Target>/`.
    pub seed_dir: PathBuf,
    /// The cache root, and this target's directory below it.
    pub cache_root: PathBuf,
    pub cache_dir: PathBuf,
    /// The library as the user named it, for messages.
    pub lib_shown: String,
    /// How to replay a crasher.
    rerun: Rerun,
    /// Files this run created for inputs as found, not yet recorded: only
    /// those are ever removed (replaced by the minimized input, or dropped
    /// when their crash site was recorded already). A recorded crasher is
    /// never in it: a later finding of its site that minimizes to the same
    /// bytes names the same file, and must not take it away.
    created: HashSet<PathBuf>,
    /// The cache could not be written, and that was said.
    cache_warned: bool,
    /// Flushes the cache's new files to disk, off the coordinator's
    /// thread: a worker's next slice does not wait for the disk. Every one
    /// is on the disk before a target's end is reported ([`Outputs::flush`]).
    flusher: Flusher,
}

impl Outputs {
    pub fn new(
        seed_dir: PathBuf,
        cache_root: PathBuf,
        cache_dir: PathBuf,
        rerun: Rerun,
    ) -> Outputs {
        Outputs {
            seed_dir,
            cache_root,
            cache_dir,
            lib_shown: rerun.lib().display().to_string(),
            rerun,
            created: HashSet::new(),
            cache_warned: false,
            flusher: Flusher::new(),
        }
    }

    /// Waits until every cache entry written is on the disk.
    pub fn flush(&mut self) {
        self.flusher.finish();
    }

    /// Writes an input that reached new coverage into the cache and says
    /// so with -json. A cache that cannot be written (full, read-only,
    /// removed under us) is a warning, said once: the input stays in the
    /// corpus of this run, and fuzzing goes on.
    pub fn keep(
        &mut self,
        state: &State,
        reporter: &Reporter,
        entry: &str,
        new_features: usize,
    ) -> Result<(), CliError> {
        let path = self.cache_dir.join(digest::entry_name(entry.as_bytes()));
        let written = cache::create_dir(&self.cache_root, &self.cache_dir)
            .and_then(|()| self.flusher.write_new(&path, entry.as_bytes()));
        if let Err(e) = written {
            if !self.cache_warned {
                self.cache_warned = true;
                reporter.say(&format!(
                    "fuzz-run: warning: cannot write the cache ({e}); new inputs are kept for this run only"
                ));
            }
            return Ok(());
        }
        let size = fuzz_core::format::codec::decode(entry.as_bytes())
            .map(|v| fuzz_core::search::minimize::size(&v))
            .unwrap_or(0);
        reporter.event(FuzzEvent::NewInput {
            path: path.display().to_string(),
            size,
            file_size: entry.len(),
            new_features,
            coverage: state.corpus.coverage(),
        })
    }

    /// Writes a failing input into `testdata/fuzz/<Target>/`, named by
    /// its digest: the path, or why it could not be written.
    fn write_crasher(&mut self, entry: &str) -> Result<PathBuf, String> {
        let path = self.seed_dir.join(digest::entry_name(entry.as_bytes()));
        fsutil::create_dir_all(&self.seed_dir)
            .and_then(|()| fsutil::write_new_atomic(&path, entry.as_bytes()))
            .map(|created| {
                if created {
                    self.created.insert(path.clone());
                }
                path
            })
            .map_err(|e| e.to_string())
    }

    /// Writes an input a report names: it stays, whatever is discarded
    /// later (see `created`).
    fn write_recorded(&mut self, entry: &str) -> Result<PathBuf, String> {
        let path = self.write_crasher(entry)?;
        self.created.remove(&path);
        Ok(path)
    }

    /// Removes the file of a failing input saved when it was found, if this
    /// run wrote it: its crash site was recorded by another.
    pub fn discard(&mut self, entry: &str) {
        let path = self.seed_dir.join(digest::entry_name(entry.as_bytes()));
        if self.created.remove(&path) {
            let _ = std::fs::remove_file(&path);
        }
    }

    /// Keeps a failing input saved when it was found (see [`Outputs::save`])
    /// as it stands, when the run stops before its death is triaged; its
    /// path, or None when it was not written.
    pub fn keep_as_found(&mut self, entry: &str) -> Option<PathBuf> {
        let path = self.seed_dir.join(digest::entry_name(entry.as_bytes()));
        self.created.remove(&path).then_some(path)
    }

    /// Writes a failing input as soon as it is found, before it is
    /// minimized. Should that fail, the report says so when the finding is
    /// recorded (with the input in it).
    pub fn save(&mut self, entry: &str) {
        let _ = self.write_crasher(entry);
    }

    /// Writes a finding (unless it is a failing seed, which Go reports
    /// without writing; in place of the input as found, when it was
    /// minimized) and reports it; `elapsed` is how long the target has
    /// been fuzzed. An input that cannot be written is reported with the
    /// report (the input as v1 text, and why), still as a finding.
    pub fn record(
        &mut self,
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
        let mut details: Vec<&str> = Vec::new();
        if f.reproducible == Some(false) {
            details.push(NOT_AGAIN);
        }
        if f.cut_short {
            details.push(CUT_SHORT);
        }
        details.extend(lines);
        details.extend(f.report.lines());
        let (written, unwritten) = match f.seed_entry {
            Some(_) => (None, None),
            None => match self.write_recorded(&f.entry) {
                Ok(path) => {
                    self.replace_found(&f, &path);
                    (Some(path.display().to_string()), None)
                }
                Err(e) => (None, Some(self.unwritten(&f.entry, e))),
            },
        };
        reporter.event(FuzzEvent::Failure(run_events::Failure {
            kind: kind.to_string(),
            message: message.to_string(),
            report: Some(f.report.clone()),
            path: written.clone(),
            site: Some(f.site.clone()),
            seed_entry: f.seed_entry.clone(),
            reproducible: f.reproducible,
            minimization_cut_short: f.cut_short,
            unwritten: unwritten.as_ref().map(|u| run_events::Unwritten {
                write_error: u.error.clone(),
                input: u.text.clone(),
                input_size: f.entry.len(),
                input_sha256: digest::sha256_hex(f.entry.as_bytes()),
                kept_at: u.kept_at.clone(),
            }),
        }))?;
        if reporter.json {
            return Ok(());
        }
        let rerun = written.as_deref().map(|path| {
            let name = path.rsplit('/').next().unwrap_or(path);
            self.rerun.line(&state.target.name, name)
        });
        Failure {
            target: &state.target.name,
            elapsed,
            headline: &headline,
            details: &details.join("\n"),
            written: written.as_deref(),
            unwritten: unwritten.as_ref(),
            rerun: rerun.as_deref(),
            seed_entry: f.seed_entry.as_deref(),
        }
        .print()
    }

    /// The minimized input is on disk: the input as found, written when it
    /// was found, goes (if this run wrote it).
    fn replace_found(&mut self, f: &Finding, written: &std::path::Path) {
        let Some(found) = f.found.as_deref().filter(|&found| found != f.entry) else {
            return;
        };
        let path = self.seed_dir.join(digest::entry_name(found.as_bytes()));
        if path != written && self.created.remove(&path) {
            let _ = std::fs::remove_file(&path);
        }
    }

    /// What a report says of an input it could not write to testdata: it
    /// is written where there is room, the cache (beside the target's
    /// corpus, never in it: a crasher there would be replayed as an entry)
    /// and then a fresh directory of the system's temporary one; a small
    /// one is also shown as text.
    fn unwritten(&self, entry: &str, error: String) -> Unwritten {
        let text = (entry.len() <= INLINE_MAX).then(|| entry.to_string());
        let name = digest::entry_name(entry.as_bytes());
        let in_cache = || -> Option<PathBuf> {
            let dir = self
                .cache_dir
                .parent()?
                .join("crashers")
                .join(self.seed_dir.file_name()?);
            fsutil::create_dir_all(&dir).ok()?;
            let path = dir.join(&name);
            fsutil::write_new_atomic(&path, entry.as_bytes()).ok()?;
            Some(path)
        };
        let in_temp = || -> Option<PathBuf> {
            let dir = tempfile::Builder::new()
                .prefix("fuzz-run-crasher-")
                .tempdir()
                .ok()?
                .keep();
            let path = dir.join(&name);
            match fsutil::write_new_atomic(&path, entry.as_bytes()) {
                Ok(_) => Some(path),
                Err(_) => {
                    let _ = std::fs::remove_dir_all(&dir);
                    None
                }
            }
        };
        Unwritten {
            dir: self.seed_dir.display().to_string(),
            error,
            text,
            size: entry.len(),
            sha256: digest::sha256_hex(entry.as_bytes()),
            kept_at: in_cache().or_else(in_temp).map(|p| p.display().to_string()),
        }
    }

    /// Where the other entry of a cross-over that failed is: the seed file
    /// that holds it, or else a file written beside the crasher (a cached
    /// entry may be cleaned away), named by its digest.
    fn other_entry(&mut self, state: &State, other: &[u8]) -> Result<String, CliError> {
        let text = corpus::text_of(&[Value::Bytes(other.to_vec())]);
        let seed = state
            .corpus
            .entries()
            .iter()
            .find(|e| e.origin == Origin::Seed && e.text == text);
        let path = match seed {
            Some(e) => self.seed_dir.join(&e.name),
            None => match self.write_recorded(&text) {
                Ok(path) => path,
                Err(e) => {
                    return Ok(format!(
                        "another corpus entry (it could not be written: {e})"
                    ))
                }
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(dir: &std::path::Path) -> Outputs {
        Outputs::new(
            dir.join("testdata/fuzz/T"),
            dir.join("cache"),
            dir.join("cache/lib/T"),
            Rerun::from_cli(&<crate::cli::Cli as clap::Parser>::parse_from([
                "fuzz-run", "lib.so",
            ])),
        )
    }

    #[test]
    fn a_recorded_crasher_is_never_discarded() {
        let d = tempfile::tempdir().unwrap();
        let mut p = outputs(d.path());
        let a = "go test fuzz v1\n[]byte(\"A1\")\n";
        let b = "go test fuzz v1\n[]byte(\"A1xxxx\")\n";
        let name = |e: &str| p_path(d.path(), e);
        // The first finding of a site: saved as found, recorded minimized.
        p.save(b);
        let recorded = p.write_recorded(a).unwrap();
        assert_eq!(recorded, name(a));
        // A second finding of the same site, as found and then minimized
        // to the same bytes, both dropped: the recorded file stays.
        p.save(b);
        p.discard(b);
        p.discard(a);
        assert!(name(a).exists(), "the recorded crasher was removed");
        // What was saved and dropped is gone.
        p.save("go test fuzz v1\n[]byte(\"B2\")\n");
        p.discard("go test fuzz v1\n[]byte(\"B2\")\n");
        assert!(!name("go test fuzz v1\n[]byte(\"B2\")\n").exists());
    }

    fn p_path(dir: &std::path::Path, entry: &str) -> PathBuf {
        dir.join("testdata/fuzz/T")
            .join(digest::entry_name(entry.as_bytes()))
    }
}
