//! `-sync DIR`: this run's side of a corpus shared by many instances
//! (`fuzz_core::store::sync` keeps the directory's format). One [`Syncer`]
//! serves every target of the run: each target's coordinator publishes what
//! it adds, and every -sync_interval one round fetches what the others
//! published for all targets; a target's entries wait in its inbox until
//! its coordinator takes them (its turn), to be run once and kept if they
//! add coverage here. A shared file system that fails now and then (NFS)
//! costs a warning, not the run.

use crate::report::Snapshot;
use fuzz_cli::CliError;
use fuzz_core::store::sync::{Recorded, Status, SyncDir};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub struct Syncer {
    dir: SyncDir,
    interval: Duration,
    /// When the last round ran; `None` before the first.
    last: Option<Instant>,
    /// Fetched entries (v1 bytes) by target, not taken yet.
    inbox: HashMap<String, Vec<Vec<u8>>>,
    /// Each target's last snapshot, and the run's start, for the status.
    snapshots: HashMap<String, Snapshot>,
    started: Instant,
    host: String,
    /// The failures of the shared directory said so far, each once.
    said: HashSet<String>,
}

impl Syncer {
    /// Opens DIR as this instance (`-sync_id`, or the host name and pid).
    /// Entries larger than `entry_cap` bytes are passed over.
    pub fn open(
        dir: &Path,
        id: Option<&str>,
        interval: Duration,
        entry_cap: u64,
    ) -> Result<Syncer, CliError> {
        let host = host_name();
        let id = match id {
            Some(id) => id.to_string(),
            None => format!("{host}-{}", std::process::id()),
        };
        let dir = SyncDir::open(dir, &id, entry_cap).map_err(|e| match e {
            fuzz_core::Error::Invalid(m) => CliError::misuse(format!("-sync: {m}")),
            other => CliError::misuse(format!("-sync {}: {other}", dir.display())),
        })?;
        Ok(Syncer {
            dir,
            interval,
            last: None,
            inbox: HashMap::new(),
            snapshots: HashMap::new(),
            started: Instant::now(),
            host,
            said: HashSet::new(),
        })
    }

    /// Says a failure of the shared directory, once per kind of failure
    /// (what failed and why, whatever the file).
    fn warn(&mut self, what: &str, e: &fuzz_core::Error) {
        let why = match e {
            fuzz_core::Error::Io { source, .. } => format!("{:?}", source.kind()),
            other => other.to_string(),
        };
        if self.said.insert(format!("{what}\t{why}")) {
            fuzz_cli::exit::warn(
                "fuzz-run",
                &format!(
                    "-sync {}: {what}: {e} (going on; said once)",
                    self.dir.root().display()
                ),
            );
        }
    }

    /// Says a file of the shared directory that was passed over, once.
    fn skipped(&mut self, what: String) {
        if self.said.insert(what.clone()) {
            fuzz_cli::exit::warn(
                "fuzz-run",
                &format!("-sync: passed over {what} (said once)"),
            );
        }
    }

    /// A round is due: the first, or -sync_interval after the last.
    pub fn due(&self) -> bool {
        self.last.map_or(true, |t| t.elapsed() >= self.interval)
    }

    /// Runs a round when one is due (fetching what the others published
    /// since the last, for every target; keeping where this instance
    /// stands), and hands `target`'s waiting entries over.
    pub fn take(&mut self, target: &str, now: Snapshot) -> Vec<Vec<u8>> {
        self.snapshots.insert(target.to_string(), now);
        if self.due() {
            self.last = Some(Instant::now());
            match self.dir.fetch_new() {
                Ok(new) => {
                    for p in new.entries {
                        self.inbox.entry(p.target).or_default().push(p.bytes);
                    }
                    for what in new.skipped {
                        self.skipped(what);
                    }
                    if let Err(e) = self.dir.save_cursor() {
                        self.warn("cannot keep the cursor", &e);
                    }
                }
                Err(e) => self.warn("cannot read what the others published", &e),
            }
            self.write_status(false);
        }
        self.inbox.remove(target).unwrap_or_default()
    }

    /// Notes where `target` stands, for the status.
    pub fn note(&mut self, target: &str, now: Snapshot) {
        self.snapshots.insert(target.to_string(), now);
    }

    /// Publishes an entry this instance added to `target`'s corpus.
    pub fn publish(&mut self, target: &str, entry: &[u8]) {
        if let Err(e) = self.dir.publish(target, entry) {
            self.warn("cannot publish", &e);
        }
    }

    /// Records a crash for the fleet (its crasher written, then its site
    /// claimed): `Some(path)` of the crasher another instance recorded
    /// first for the same site, `None` when this one is first. A crasher
    /// that cannot be written is said every time (it is then kept here
    /// only), and counts as first.
    pub fn record(
        &mut self,
        target: &str,
        site: &str,
        entry: &[u8],
        report: &str,
    ) -> Option<std::path::PathBuf> {
        match self.dir.record_crash(target, site, entry, report) {
            Ok(Recorded::First(_)) => None,
            Ok(Recorded::Already(theirs)) => Some(theirs),
            Err(e) => {
                fuzz_cli::exit::warn(
                    "fuzz-run",
                    &format!(
                        "-sync {}: the crasher of {target} could not be written for the fleet: {e}; it is kept in this instance's own place only",
                        self.dir.root().display()
                    ),
                );
                None
            }
        }
    }

    /// Writes this instance's status: the sums over its targets; `done`
    /// when the run ends.
    pub fn write_status(&mut self, done: bool) {
        let sum = |f: fn(&Snapshot) -> u64| self.snapshots.values().map(f).sum::<u64>();
        let execs = sum(|s| s.execs);
        let secs = self.started.elapsed().as_secs_f64();
        let mut targets: Vec<String> = self.snapshots.keys().cloned().collect();
        targets.sort();
        let status = Status {
            id: self.dir.id().to_string(),
            host: self.host.clone(),
            pid: std::process::id(),
            targets,
            execs,
            execs_per_sec: if secs > 0.0 {
                (execs as f64 / secs).round()
            } else {
                0.0
            },
            coverage: sum(|s| s.edges as u64),
            corpus: sum(|s| s.corpus as u64),
            crashers: sum(|s| s.crashers as u64),
            updated: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            interval: self.interval.as_secs().max(1),
            done,
        };
        if let Err(e) = self.dir.write_status(&status) {
            self.warn("cannot write the status", &e);
        }
    }
}

/// This machine's host name (the kernel's), or "localhost".
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| fuzz_core::store::sync::is_instance_id(h))
        .unwrap_or_else(|| "localhost".into())
}
