//! `-sync DIR`: this run's side of a corpus shared by many instances
//! (`fuzz_core::store::sync` keeps the directory's format). One [`Syncer`]
//! serves every target of the run: each target's coordinator publishes what
//! it adds, and every -sync_interval one round fetches what the others
//! published for all targets (the first rounds sooner: 1 s after the
//! start, then 2 s, 4 s, ... until the gap reaches -sync_interval, since
//! the instances of a fleet find most of their coverage in its first
//! seconds, each the same easy part unless they share it); a target's entries wait in its inbox until
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
    /// When the last round ran; `None` before the first. The rounds run
    /// so far.
    last: Option<Instant>,
    rounds: u32,
    /// When the cursor and the status were last written (by a round, at
    /// most once per -sync_interval: the quicker first rounds only read).
    kept: Option<Instant>,
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
            rounds: 0,
            kept: None,
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

    /// A round is due: the first, or [`gap`] after the last.
    pub fn due(&self) -> bool {
        self.last
            .map_or(true, |t| t.elapsed() >= gap(self.rounds, self.interval))
    }

    /// Runs a round when one is due (fetching what the others published
    /// since the last, for every target; keeping where this instance
    /// stands), and hands `target`'s waiting entries over.
    pub fn take(&mut self, target: &str, now: Snapshot) -> Vec<Vec<u8>> {
        self.snapshots.insert(target.to_string(), now);
        if self.due() {
            // One instant for both: a round due an interval after the last
            // write finds the interval passed, however long the fetch took.
            let began = Instant::now();
            self.last = Some(began);
            self.rounds = self.rounds.saturating_add(1);
            match self.dir.fetch_new() {
                Ok(new) => {
                    for p in new.entries {
                        self.inbox.entry(p.target).or_default().push(p.bytes);
                    }
                    for what in new.skipped {
                        self.skipped(what);
                    }
                }
                Err(e) => self.warn("cannot read what the others published", &e),
            }
            if self
                .kept
                .map_or(true, |t| began.duration_since(t) >= self.interval)
            {
                self.kept = Some(began);
                self.keep(false);
            }
        }
        self.inbox.remove(target).unwrap_or_default()
    }

    /// Writes the cursor (how far the others' indexes were read: a restart
    /// with the same id goes on from there; one that finds it an interval
    /// behind runs those entries once more, and keeps none it has) and the
    /// status; `done` when the run ends.
    pub fn keep(&mut self, done: bool) {
        if let Err(e) = self.dir.save_cursor() {
            self.warn("cannot keep the cursor", &e);
        }
        self.write_status(done);
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
    fn write_status(&mut self, done: bool) {
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

/// The time from the last round to the next, after `rounds` rounds: 1 s
/// after the first, doubling after each, up to `interval`. Tried and not
/// kept: a tenth of the time run (rounds every second for 10 s, within
/// 10 % of the time run after), level with this ramp on two instances at
/// 120 s (ahead on SQLite, behind on Lua; bench/LOG.md) for about three
/// times its rounds in the first minutes.
fn gap(rounds: u32, interval: Duration) -> Duration {
    let ramp = Duration::from_secs(1 << (rounds.max(1) - 1).min(20));
    ramp.min(interval)
}

/// This machine's host name (the kernel's), or "localhost".
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| fuzz_core::store::sync::is_instance_id(h))
        .unwrap_or_else(|| "localhost".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &Path, id: &str, interval: Duration) -> Syncer {
        Syncer::open(dir, Some(id), interval, 1 << 20).unwrap()
    }

    fn snap(execs: u64, edges: usize, crashers: usize) -> Snapshot {
        Snapshot {
            execs,
            new_interesting: 0,
            corpus: 2,
            edges,
            features: edges,
            crashers,
            reduced: 0,
        }
    }

    #[test]
    fn what_one_instance_publishes_waits_for_the_other_s_target_to_take_it() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a", Duration::ZERO);
        let mut b = open(d.path(), "b", Duration::ZERO);
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"x\")\n");
        a.publish("FuzzY", b"go test fuzz v1\n[]byte(\"y\")\n");
        // b's round fetches both; FuzzX's entry goes to FuzzX only, and
        // FuzzY's waits in the inbox for FuzzY's turn.
        let x = b.take("FuzzX", snap(1, 1, 0));
        assert_eq!(x, vec![b"go test fuzz v1\n[]byte(\"x\")\n".to_vec()]);
        assert_eq!(b.take("FuzzX", snap(1, 1, 0)), Vec::<Vec<u8>>::new());
        let y = b.take("FuzzY", snap(1, 1, 0));
        assert_eq!(y, vec![b"go test fuzz v1\n[]byte(\"y\")\n".to_vec()]);
        // An instance never fetches what it published itself.
        assert!(a.take("FuzzX", snap(1, 1, 0)).is_empty());
    }

    #[test]
    fn the_first_rounds_come_after_1_2_4_s_then_every_interval() {
        let d = tempfile::tempdir().unwrap();
        let mut b = open(d.path(), "b", Duration::from_secs(30));
        b.take("FuzzX", snap(0, 0, 0));
        assert!(!b.due(), "the next round is a second away");
        let interval = Duration::from_secs(30);
        let gaps: Vec<u64> = (1..9).map(|r| gap(r, interval).as_secs()).collect();
        assert_eq!(gaps, [1, 2, 4, 8, 16, 30, 30, 30]);
        assert_eq!(gap(u32::MAX, interval), interval);
        assert_eq!(
            gap(3, Duration::from_millis(500)),
            Duration::from_millis(500),
            "never above the interval"
        );
    }

    #[test]
    fn the_quicker_rounds_read_but_write_the_cursor_and_status_once_per_interval() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a", Duration::ZERO);
        let mut b = open(d.path(), "b", Duration::from_secs(3600));
        let own = d.path().join(".sync/instances/b");
        let read = |f: &str| std::fs::read_to_string(own.join(f)).unwrap();
        b.take("FuzzX", snap(0, 0, 0));
        let (cursor, status) = (read("cursor"), read("status"));
        assert!(status.contains("\"execs\":0"), "{status}");
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"new\")\n");
        b.last = Some(Instant::now() - Duration::from_secs(2)); // the 1 s round is due
        assert!(b.due());
        assert_eq!(b.take("FuzzX", snap(1, 1, 0)).len(), 1, "fetched");
        assert_eq!(
            (read("cursor"), read("status")),
            (cursor.clone(), status),
            "not written again within the interval"
        );
        // An interval after the last write, a round writes both again.
        b.kept = Some(Instant::now() - Duration::from_secs(3600));
        b.last = Some(Instant::now() - Duration::from_secs(3600));
        assert!(b.take("FuzzX", snap(2, 1, 0)).is_empty());
        assert_ne!(read("cursor"), cursor, "the cursor past a's entry");
        assert!(read("status").contains("\"execs\":2"), "{}", read("status"));
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"newer\")\n");
        b.rounds = 1;
        b.last = Some(Instant::now() - Duration::from_secs(2));
        assert_eq!(b.take("FuzzX", snap(3, 1, 0)).len(), 1);
        b.keep(true);
        assert!(
            read("status").contains("\"done\":true"),
            "written at the end"
        );
        drop(b);
        let mut again = open(d.path(), "b", Duration::from_secs(3600));
        assert!(
            again.take("FuzzX", snap(0, 0, 0)).is_empty(),
            "the end's cursor is past both entries"
        );
    }

    #[test]
    fn a_round_runs_once_per_interval_and_the_cursor_is_kept() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a", Duration::ZERO);
        let mut b = open(d.path(), "b", Duration::from_secs(3600));
        assert!(b.due(), "the first round is due at once");
        assert!(b.take("FuzzX", snap(0, 0, 0)).is_empty());
        assert!(!b.due());
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"late\")\n");
        assert!(
            b.take("FuzzX", snap(0, 0, 0)).is_empty(),
            "fetched before its interval"
        );
        // A new run of b (the same id) starts after what the first fetched.
        drop(b);
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"later\")\n");
        let mut b = open(d.path(), "b", Duration::ZERO);
        let got = b.take("FuzzX", snap(0, 0, 0));
        assert_eq!(got.len(), 2, "both entries published after b's first round");
        drop(b);
        let mut b = open(d.path(), "b", Duration::ZERO);
        assert!(
            b.take("FuzzX", snap(0, 0, 0)).is_empty(),
            "the cursor was kept"
        );
    }

    #[test]
    fn the_first_instance_to_record_a_site_keeps_it() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a", Duration::ZERO);
        let mut b = open(d.path(), "b", Duration::ZERO);
        let entry = b"go test fuzz v1\n[]byte(\"boom\")\n";
        assert_eq!(a.record("FuzzX", "SIGSEGV at f", entry, "report"), None);
        let theirs = b
            .record(
                "FuzzX",
                "SIGSEGV at f",
                b"go test fuzz v1\n[]byte(\"bam\")\n",
                "r",
            )
            .expect("a's claim holds");
        assert_eq!(std::fs::read(&theirs).unwrap(), entry);
        assert_eq!(b.record("FuzzX", "another site", entry, "r"), None);
    }

    #[test]
    fn the_status_sums_the_targets_and_says_done() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a", Duration::from_secs(30));
        a.note("FuzzX", snap(100, 10, 1));
        a.note("FuzzY", snap(50, 5, 0));
        a.note("FuzzX", snap(200, 12, 1));
        a.keep(true);
        let seen = fuzz_core::store::sync::statuses(d.path()).unwrap();
        let [one] = &seen[..] else { panic!("{seen:?}") };
        let s = one.status.as_ref().unwrap();
        assert_eq!((s.execs, s.coverage, s.corpus, s.crashers), (250, 17, 4, 1));
        assert_eq!(s.targets, ["FuzzX", "FuzzY"]);
        assert!(s.done && s.interval == 30 && s.id == "a");
        assert_eq!(one.state(), "done");
    }

    #[test]
    fn a_failing_directory_is_said_once_per_kind_and_the_run_goes_on() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("sync");
        let mut a = open(&root, "a", Duration::ZERO);
        std::fs::remove_dir_all(&root).unwrap();
        assert!(a.take("FuzzX", snap(1, 1, 0)).is_empty());
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"x\")\n");
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"z\")\n");
        let said = a.said.len();
        assert!(said >= 2, "{:?}", a.said);
        assert!(a.take("FuzzX", snap(2, 1, 0)).is_empty());
        a.publish("FuzzX", b"go test fuzz v1\n[]byte(\"w\")\n");
        assert_eq!(a.said.len(), said, "said again: {:?}", a.said);
    }

    #[test]
    fn a_bad_directory_or_id_is_a_one_line_misuse() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("f");
        std::fs::write(&file, b"").unwrap();
        let e = Syncer::open(&file, Some("a"), Duration::ZERO, 1)
            .err()
            .unwrap();
        assert_eq!(e.status, fuzz_cli::Status::Misuse);
        assert!(
            e.message.starts_with("-sync ") && !e.message.contains('\n'),
            "{}",
            e.message
        );
        let e = Syncer::open(d.path(), Some("../x"), Duration::ZERO, 1)
            .err()
            .unwrap();
        assert!(e.message.starts_with("-sync: "), "{}", e.message);
    }
}
