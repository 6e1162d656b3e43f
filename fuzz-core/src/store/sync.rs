//! A corpus shared by many fuzz-run instances through one directory that
//! they all see (`fuzz-run -sync DIR`: a local disk, NFS, CephFS, Lustre, a
//! Kubernetes ReadWriteMany volume). No daemon, no network protocol: only
//! files, each written whole and renamed into place, and per-instance
//! append-only indexes.
//!
//! ```text
//! DIR/<Target>/<digest>           corpus entries, v1 files named as the
//!                                 cache names them: a directory go test,
//!                                 fuzz-corpus and fuzz-convert read
//! DIR/crashers/<Target>/<digest>  the fleet's crashers (v1 files)
//! DIR/.sync/reports/<Target>/<digest>.txt   their reports
//! DIR/.sync/sites/<Target>/<hash> one file per crash site, created by the
//!                                 instance that found it first
//! DIR/.sync/instances/<id>/index  what instance <id> published, one
//!                                 `<Target>\t<digest>` line each, appended
//! DIR/.sync/instances/<id>/cursor how far <id> has read every other index
//! DIR/.sync/instances/<id>/status where <id> stands (JSON)
//! DIR/.sync/instances/<id>/lock   held while <id> runs
//! DIR/.sync/tmp/<id>/             <id>'s files being written
//! ```
//!
//! What this keeps true: a round costs in proportion to what is new, not
//! to the size of DIR: it stats each instance's index and reads only the
//! bytes appended since the last round (it never lists a target's
//! directory); an entry file is renamed into place before its index line
//! is written, so a line always names a whole file; a line is written in
//! one `write` to an index only its instance writes, and a reader takes
//! complete lines only, so an instance killed at any moment leaves nothing
//! torn (its next start cuts a partial last line); an instance that
//! restarts with the same id resumes from its cursor without re-running
//! what it has seen.
//!
//! And what no file in DIR can do, whoever put it there: every file is
//! reached through [`Confined`], from DIR's own descriptor without
//! following a symbolic link, read only if it is a regular file, without
//! blocking and up to a cap (an entry: what -max_len allows; an index: in
//! chunks), and written by a rename into place: nothing outside DIR is read
//! or written. A file that is not what it should be is skipped and named
//! ([`Fetched::skipped`]), never waited on.

use crate::error::{Error, Result};
use crate::store::confined::{Confined, Skip};
use crate::store::digest;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The directory of everything that is not a corpus entry or a crasher.
pub const META: &str = ".sync";
/// The directory of the fleet's crashers.
pub const CRASHERS: &str = "crashers";
const INSTANCES: &str = "instances";

/// How much of an index one read takes; a round reads at most
/// [`INDEX_ROUND`] of each.
const INDEX_CHUNK: u64 = 1 << 20;
const INDEX_ROUND: u64 = 16 << 20;
/// The most a status, a cursor or a claim can be.
const SMALL_FILE: u64 = 1 << 20;

/// One entry another instance published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    pub target: String,
    /// Its digest name.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What a round fetched.
#[derive(Debug, Default)]
pub struct Fetched {
    pub entries: Vec<Published>,
    /// Files passed over, each with why: `<path>: <reason>`.
    pub skipped: Vec<String>,
}

/// Where an instance stands, as `fuzz-corpus status` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    pub id: String,
    pub host: String,
    pub pid: u32,
    pub targets: Vec<String>,
    /// Executions over every run with this id (a resumed instance adds to
    /// what its earlier runs did).
    pub execs: u64,
    /// This run's rate.
    pub execs_per_sec: f64,
    /// Edges reached, summed over the instance's targets.
    pub coverage: u64,
    pub corpus: u64,
    /// Crashers recorded, over every run with this id.
    pub crashers: u64,
    /// Seconds since the Unix epoch, by the writer's clock (ages are taken
    /// from the file's modification time instead: see [`Seen`]).
    pub updated: u64,
    /// The instance's -sync_interval, in seconds: three of them without
    /// an update make it stale.
    pub interval: u64,
    /// It ended (its -fuzztime, a finding, a signal).
    #[serde(default)]
    pub done: bool,
}

/// One instance of a sync directory, as a reader finds it.
#[derive(Debug)]
pub struct Seen {
    pub id: String,
    /// Its status, or why it cannot be read.
    pub status: std::result::Result<Status, String>,
    /// Seconds since the status file was last written, by DIR's file
    /// system's clock against the reader's (not the writer's clock).
    pub age: Option<u64>,
    /// Whether a process holds the instance's lock now: `None` when that
    /// cannot be told.
    pub locked: Option<bool>,
}

impl Seen {
    /// `done`, `running`, `stale` (neither done nor heard from in three
    /// intervals, or its lock free), or `broken` (no readable status).
    pub fn state(&self) -> &'static str {
        let Ok(s) = &self.status else {
            return if self.locked == Some(true) {
                "starting"
            } else {
                "broken"
            };
        };
        if s.done {
            "done"
        } else if self.locked == Some(false) {
            "stale"
        } else if self.locked == Some(true) {
            "running"
        } else if self.age.unwrap_or(u64::MAX) > 3 * s.interval.max(1) {
            "stale"
        } else {
            "running"
        }
    }
}

/// True for a name usable as a `-sync_id`: one path component of letters,
/// digits, `.`, `_` and `-`, not hidden.
pub fn is_instance_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// True for a target name the directory can hold: a target's directory
/// name anywhere ([`crate::store::is_target_name`]), and not `crashers`,
/// which is the fleet's crashers' directory here.
pub fn is_target_name(name: &str) -> bool {
    crate::store::is_target_name(name.as_ref()) && name != CRASHERS
}

/// The most an entry's file can be for entries of `max_len` bytes: the v1
/// encoding spells a byte in at most four characters (`\xff`), and a file
/// has a header and a line per value.
pub fn entry_cap(max_len: usize) -> u64 {
    4 * max_len as u64 + (64 << 10)
}

/// What became of a crash written for the fleet.
#[derive(Debug, PartialEq, Eq)]
pub enum Recorded {
    /// This instance recorded the site first: its crasher's path.
    First(PathBuf),
    /// Another instance did: the crasher it wrote.
    Already(PathBuf),
}

/// One instance's side of a sync directory.
pub struct SyncDir {
    dir: Confined,
    id: String,
    /// Our own index, open for appending.
    index: File,
    /// How far we have read each other instance's index.
    cursor: BTreeMap<String, u64>,
    /// Each index's length when a read last ended on a partial line: not
    /// read again until it grows.
    waiting: BTreeMap<String, u64>,
    /// The most an entry's file may be.
    entry_cap: u64,
    /// What the earlier runs with this id did (executions, crashers).
    before: (u64, u64),
    /// Held for as long as this instance runs.
    _lock: File,
}

impl SyncDir {
    /// Opens DIR as instance `id` (creating what is missing), refusing an
    /// id another running instance holds; cuts a torn last line of its own
    /// index and reads its cursor, so that a restart resumes. Entries
    /// larger than `entry_cap` bytes are passed over.
    pub fn open(root: &Path, id: &str, entry_cap: u64) -> Result<SyncDir> {
        if !is_instance_id(id) {
            return Err(Error::Invalid(format!(
                "{id:?} is not a usable -sync_id: letters, digits, '.', '_' and '-' only, not starting with '.'"
            )));
        }
        if let Err(e) = std::fs::create_dir_all(root) {
            return Err(Error::io(root, e));
        }
        let dir = Confined::open(root)?;
        let me = [META, INSTANCES, id];
        dir.dir(&[META, "tmp", id], true)?;
        let lock = dir.open_rw(&me, "lock", nix::fcntl::OFlag::empty())?;
        if !try_lock(&lock) {
            return Err(Error::Invalid(format!(
                "{}: another running instance has -sync_id {id}",
                crate::error::shown(root)
            )));
        }
        let mut index = dir.open_append(&me, "index")?;
        cut_torn_line(&mut index)
            .map_err(|e| Error::io(dir.path(&[META, INSTANCES, id, "index"]), e))?;
        let cursor = match dir.read(&[META, INSTANCES, id, "cursor"], SMALL_FILE) {
            Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
            Err(_) => BTreeMap::new(),
        };
        let before = match dir.read(&[META, INSTANCES, id, "status"], SMALL_FILE) {
            Ok(bytes) => {
                serde_json::from_slice::<Status>(&bytes).map_or((0, 0), |s| (s.execs, s.crashers))
            }
            Err(_) => (0, 0),
        };
        Ok(SyncDir {
            dir,
            id: id.to_string(),
            index,
            cursor,
            waiting: BTreeMap::new(),
            entry_cap,
            before,
            _lock: lock,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn root(&self) -> &Path {
        self.dir.root()
    }

    fn tmp(&self) -> [&str; 3] {
        [META, "tmp", &self.id]
    }

    /// Publishes a corpus entry of `target` (its v1 bytes): the file, then
    /// the line in our index. Returns whether it was new to DIR.
    pub fn publish(&mut self, target: &str, bytes: &[u8]) -> Result<bool> {
        check_target(target)?;
        let name = digest::entry_name(bytes);
        if self.dir.exists(&[target, &name]) {
            return Ok(false);
        }
        if !self.dir.place(&self.tmp(), &[target], &name, bytes, true)? {
            return Ok(false);
        }
        let line = format!("{target}\t{name}\n");
        // One write of a whole line: an index has one writer, and a
        // reader takes complete lines only.
        self.index
            .write_all(line.as_bytes())
            .map_err(|e| Error::io(self.dir.path(&[META, INSTANCES, &self.id, "index"]), e))?;
        Ok(true)
    }

    /// What the other instances published since the last call, in the
    /// order they did. A line whose file is gone (removed by hand) is passed
    /// over in silence; a file that is not a regular file, or is larger
    /// than an entry can be, is passed over and named. The cursor moves in
    /// memory; [`SyncDir::save_cursor`] keeps it.
    pub fn fetch_new(&mut self) -> Result<Fetched> {
        let mut out = Fetched::default();
        let others: Vec<String> = self
            .dir
            .list(&[META, INSTANCES])?
            .into_iter()
            .filter(|id| id != &self.id && is_instance_id(id))
            .collect();
        for other in others {
            self.fetch_from(&other, &mut out);
        }
        Ok(out)
    }

    /// Reads what is new in `other`'s index (at most [`INDEX_ROUND`] of
    /// it) and the entries it names.
    fn fetch_from(&mut self, other: &str, out: &mut Fetched) {
        let index = [META, INSTANCES, other, "index"];
        let mut from = self.cursor.get(other).copied().unwrap_or(0);
        let mut read = 0;
        while read < INDEX_ROUND {
            let (chunk, len) = match self.dir.read_at(&index, from, INDEX_CHUNK) {
                Ok(x) => x,
                Err(Skip::Missing) => return, // not there yet
                Err(why) => {
                    out.skipped.push(format!(
                        "{}: {why}",
                        crate::error::shown(&self.dir.path(&index))
                    ));
                    return;
                }
            };
            if len < from {
                // Cut after a crash: go on from its end.
                from = len;
                break;
            }
            if chunk.is_empty() || self.waiting.get(other) == Some(&len) {
                break;
            }
            read += chunk.len() as u64;
            let complete = chunk.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            if complete == 0 {
                if chunk.len() as u64 == INDEX_CHUNK {
                    // A line no instance writes: not an index; skip what
                    // is there.
                    out.skipped.push(format!(
                        "{}: not an index (a line longer than {INDEX_CHUNK} bytes): skipped to its end",
                        crate::error::shown(&self.dir.path(&index))
                    ));
                    from = len;
                } else {
                    // A partial last line: read again when the file grows.
                    self.waiting.insert(other.to_string(), len);
                }
                break;
            }
            self.waiting.remove(other);
            for line in chunk[..complete].split(|&b| b == b'\n') {
                self.take_line(line, out);
            }
            from += complete as u64;
        }
        self.cursor.insert(other.to_string(), from);
    }

    fn take_line(&self, line: &[u8], out: &mut Fetched) {
        let Ok(line) = std::str::from_utf8(line) else {
            return;
        };
        let Some((target, name)) = line.split_once('\t') else {
            return;
        };
        if !is_target_name(target) || !digest::is_digest_name(name) {
            return;
        }
        match self.dir.read(&[target, name], self.entry_cap) {
            Ok(bytes) => out.entries.push(Published {
                target: target.to_string(),
                name: name.to_string(),
                bytes,
            }),
            Err(Skip::Missing) => {}
            Err(why) => out.skipped.push(format!(
                "{}: {why}",
                crate::error::shown(&self.dir.path(&[target, name]))
            )),
        }
    }

    /// Keeps how far the other indexes have been read, so that a restart
    /// with the same id does not run them again.
    pub fn save_cursor(&self) -> Result<()> {
        let text = serde_json::to_vec(&self.cursor).expect("a cursor serializes");
        self.replace_own("cursor", &text)
    }

    /// Replaces the file `name` of this instance's own directory, whole.
    fn replace_own(&self, name: &str, bytes: &[u8]) -> Result<()> {
        self.dir
            .place(
                &self.tmp(),
                &[META, INSTANCES, &self.id],
                name,
                bytes,
                false,
            )
            .map(|_| ())
    }

    /// Records a crash of `target` at `site` for the fleet: the crasher
    /// (its v1 bytes) into `DIR/crashers/<target>/` and its report under
    /// `.sync/reports/`, then the site claimed, so that a claim always has
    /// its crasher. A site claimed before whose crasher is not there (its
    /// writer failed or was killed) counts as unclaimed. An error means the
    /// crasher could not be written for the fleet.
    pub fn record_crash(
        &self,
        target: &str,
        site: &str,
        bytes: &[u8],
        report: &str,
    ) -> Result<Recorded> {
        check_target(target)?;
        let name = digest::entry_name(bytes);
        let placed = self
            .dir
            .place(&self.tmp(), &[CRASHERS, target], &name, bytes, true)?;
        let mine = self.dir.path(&[CRASHERS, target, &name]);
        let sites = [META, "sites", target];
        let claim_name = &digest::sha256_hex(site.as_bytes())[..16];
        let claim = format!("{site}\n{name}\n{}\n", self.id);
        if !self.dir.create_new(&sites, claim_name, claim.as_bytes())? {
            let theirs = self
                .dir
                .read(&[META, "sites", target, claim_name], SMALL_FILE)
                .ok()
                .and_then(|b| {
                    let text = String::from_utf8_lossy(&b).into_owned();
                    text.lines().nth(1).map(str::to_string)
                })
                .filter(|n| {
                    digest::is_digest_name(n) && self.dir.stat(&[CRASHERS, target, n]).is_ok()
                });
            match theirs {
                Some(n) if n == name => return Ok(Recorded::Already(mine)),
                Some(n) => {
                    if placed {
                        // Ours, and not needed: the site has its crasher.
                        let _ = self.dir.remove(&[CRASHERS, target], &name);
                    }
                    return Ok(Recorded::Already(self.dir.path(&[CRASHERS, target, &n])));
                }
                None => {
                    self.dir
                        .place(&self.tmp(), &sites, claim_name, claim.as_bytes(), false)?;
                }
            }
        }
        self.dir.place(
            &self.tmp(),
            &[META, "reports", target],
            &format!("{name}.txt"),
            report.as_bytes(),
            false,
        )?;
        Ok(Recorded::First(mine))
    }

    /// Writes this instance's status, whole; its executions and crashers
    /// are added to those of the earlier runs with this id.
    pub fn write_status(&self, status: &Status) -> Result<()> {
        let status = Status {
            execs: status.execs + self.before.0,
            crashers: status.crashers + self.before.1,
            ..status.clone()
        };
        let text = serde_json::to_vec(&status).expect("a status serializes");
        self.replace_own("status", &text)
    }
}

fn check_target(target: &str) -> Result<()> {
    if is_target_name(target) {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "target {target:?} cannot be synced: its name is not one plain path component"
        )))
    }
}

/// Takes an exclusive lock on `f` (flock), without waiting; false when
/// another process holds it. The lock goes with the process. A reader
/// looking (a shared lock for a moment: `fuzz-corpus status`) is waited out.
fn try_lock(f: &File) -> bool {
    use std::os::fd::AsRawFd;
    for _ in 0..10 {
        // SAFETY: flock on a descriptor this File owns.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

/// Cuts a partial last line (an instance killed mid-write) off our own
/// index. A line is short (a target name, a tab, a digest), so the last
/// newline is in its last 4 KiB; an index without one there was not
/// written by us and is refused.
fn cut_torn_line(index: &mut File) -> std::io::Result<()> {
    const TAIL: u64 = 4096;
    let len = index.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let from = len.saturating_sub(TAIL);
    index.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::with_capacity((len - from) as usize);
    index.take(TAIL).read_to_end(&mut buf)?;
    let keep = match buf.iter().rposition(|&b| b == b'\n') {
        Some(i) => from + i as u64 + 1,
        None if from == 0 => 0,
        None => {
            return Err(std::io::Error::other(
                "does not end in index lines (a line longer than 4096 bytes): not written by fuzz-run; move it away",
            ))
        }
    };
    if keep != len {
        index.set_len(keep)?;
    }
    Ok(())
}

/// Every instance in DIR, by id: its status as far as it can be read.
pub fn statuses(root: &Path) -> Result<Vec<Seen>> {
    let dir = Confined::open(root)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut out = Vec::new();
    for id in dir.list(&[META, INSTANCES])? {
        if !is_instance_id(&id) {
            continue;
        }
        let file = [META, INSTANCES, &id, "status"];
        let shown = crate::error::shown(&dir.path(&file));
        let status = match dir.read(&file, SMALL_FILE) {
            Ok(bytes) => serde_json::from_slice::<Status>(&bytes)
                .map_err(|e| format!("{shown}: not a status file: {e}")),
            Err(Skip::Missing) => Err("no status written yet".to_string()),
            Err(why) => Err(format!("{shown}: {why}")),
        };
        let age = dir
            .stat(&file)
            .ok()
            .map(|(_, mtime)| now.saturating_sub(mtime.max(0) as u64));
        let locked = dir.held(&[META, INSTANCES, &id, "lock"]);
        out.push(Seen {
            id,
            status,
            age,
            locked,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;

    const CAP: u64 = 1 << 20;

    fn entry(s: &str) -> Vec<u8> {
        format!("go test fuzz v1\n[]byte({s:?})\n").into_bytes()
    }

    fn open(d: &Path, id: &str) -> SyncDir {
        SyncDir::open(d, id, CAP).unwrap()
    }

    #[test]
    fn instances_see_each_other_s_entries_once() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a");
        let mut b = open(d.path(), "b");
        assert!(a.publish("FuzzX", &entry("1")).unwrap());
        assert!(a.publish("FuzzY", &entry("2")).unwrap());
        assert!(!b.publish("FuzzX", &entry("1")).unwrap(), "already there");
        let got = b.fetch_new().unwrap();
        assert_eq!(got.entries.len(), 2);
        assert!(got.skipped.is_empty());
        assert_eq!(
            (got.entries[0].target.as_str(), got.entries[0].bytes.clone()),
            ("FuzzX", entry("1"))
        );
        assert!(b.fetch_new().unwrap().entries.is_empty(), "nothing new");
        assert!(
            a.fetch_new().unwrap().entries.is_empty(),
            "b published nothing new"
        );
        // The directory is a corpus: one file per entry, nothing else.
        let names: Vec<_> = std::fs::read_dir(d.path().join("FuzzX"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [digest::entry_name(&entry("1"))]);
    }

    #[test]
    fn a_restart_resumes_and_a_torn_line_is_cut() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a");
        a.publish("T", &entry("1")).unwrap();
        {
            let mut b = open(d.path(), "b");
            assert_eq!(b.fetch_new().unwrap().entries.len(), 1);
            b.save_cursor().unwrap();
            assert!(
                SyncDir::open(d.path(), "b", CAP).is_err(),
                "one running instance per id"
            );
        }
        a.publish("T", &entry("2")).unwrap();
        // a dies in the middle of a line.
        let index = d.path().join(".sync/instances/a/index");
        OpenOptions::new()
            .append(true)
            .open(&index)
            .unwrap()
            .write_all(b"T\t0123")
            .unwrap();
        let mut b = open(d.path(), "b");
        let got = b.fetch_new().unwrap().entries;
        assert_eq!(got.len(), 1, "only what came after its cursor");
        assert_eq!(got[0].bytes, entry("2"));
        drop(a);
        let mut a = open(d.path(), "a");
        assert!(!std::fs::read_to_string(&index).unwrap().ends_with("0123"));
        a.publish("T", &entry("3")).unwrap();
        assert_eq!(b.fetch_new().unwrap().entries[0].bytes, entry("3"));
    }

    #[test]
    fn a_partial_line_is_not_read_again_until_the_index_grows() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a");
        let mut b = open(d.path(), "b");
        a.publish("T", &entry("1")).unwrap();
        let index = d.path().join(".sync/instances/a/index");
        let mut f = OpenOptions::new().append(true).open(&index).unwrap();
        f.write_all(b"T\t").unwrap();
        assert_eq!(b.fetch_new().unwrap().entries.len(), 1);
        assert_eq!(b.waiting.get("a"), Some(&(index.metadata().unwrap().len())));
        assert!(b.fetch_new().unwrap().entries.is_empty());
        let name = digest::entry_name(&entry("2"));
        std::fs::create_dir_all(d.path().join("T")).unwrap();
        std::fs::write(d.path().join("T").join(&name), entry("2")).unwrap();
        writeln!(f, "{name}").unwrap();
        assert_eq!(b.fetch_new().unwrap().entries[0].bytes, entry("2"));
    }

    #[test]
    fn a_file_that_is_not_an_entry_is_named_and_passed_over() {
        let d = tempfile::tempdir().unwrap();
        let mut a = open(d.path(), "a");
        let mut b = SyncDir::open(d.path(), "b", 100).unwrap();
        a.publish("T", &entry("1")).unwrap();
        a.publish("T", &entry(&"x".repeat(200))).unwrap();
        let fifo = digest::entry_name(b"fifo");
        nix::unistd::mkfifo(
            &d.path().join("T").join(&fifo),
            nix::sys::stat::Mode::from_bits_truncate(0o644),
        )
        .unwrap();
        writeln!(a.index, "T\t{fifo}").unwrap();
        let got = b.fetch_new().unwrap();
        assert_eq!(got.entries.len(), 1);
        assert_eq!(got.skipped.len(), 2, "{:?}", got.skipped);
        assert!(
            got.skipped[0].contains("more than is read"),
            "{:?}",
            got.skipped
        );
        assert!(got.skipped[1].contains("a FIFO"), "{:?}", got.skipped);
    }

    #[test]
    fn a_site_is_claimed_with_its_crasher() {
        let d = tempfile::tempdir().unwrap();
        let a = open(d.path(), "a");
        let b = open(d.path(), "b");
        let site = "SIGSEGV at lib.so+0x10";
        let first = a.record_crash("T", site, &entry("x"), "report").unwrap();
        let Recorded::First(p) = first else {
            panic!("{first:?}")
        };
        assert!(p.starts_with(d.path().join("crashers/T")));
        assert_eq!(std::fs::read(&p).unwrap(), entry("x"));
        // Another input at the same site: b's crasher is not kept.
        assert_eq!(
            b.record_crash("T", site, &entry("y"), "report").unwrap(),
            Recorded::Already(p.clone())
        );
        assert_eq!(
            std::fs::read_dir(d.path().join("crashers/T"))
                .unwrap()
                .count(),
            1
        );
        assert!(matches!(
            b.record_crash("T", "SIGABRT at lib.so+0x20", &entry("y"), "r")
                .unwrap(),
            Recorded::First(_)
        ));
        // A claim whose crasher is gone is no claim.
        std::fs::remove_file(&p).unwrap();
        assert!(matches!(
            b.record_crash("T", site, &entry("z"), "r").unwrap(),
            Recorded::First(_)
        ));
    }

    #[test]
    fn statuses_are_read_whatever_the_files() {
        let d = tempfile::tempdir().unwrap();
        let a = open(d.path(), "a");
        let s = Status {
            id: "a".into(),
            host: "h".into(),
            pid: 1,
            targets: vec!["T".into()],
            execs: 10,
            execs_per_sec: 5.0,
            coverage: 3,
            corpus: 2,
            crashers: 1,
            updated: 1000,
            interval: 30,
            done: false,
        };
        a.write_status(&s).unwrap();
        let _b = open(d.path(), "b");
        std::fs::create_dir_all(d.path().join(".sync/instances/c")).unwrap();
        std::fs::write(d.path().join(".sync/instances/c/status"), "{}").unwrap();
        let seen = statuses(d.path()).unwrap();
        let ids: Vec<&str> = seen.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(seen[0].status.as_ref().unwrap(), &s);
        // Its age is in whole seconds: a second may tick during the test.
        assert_eq!(seen[0].state(), "running");
        assert!(matches!(seen[0].age, Some(0 | 1)), "{:?}", seen[0].age);
        assert_eq!(seen[1].state(), "starting");
        assert_eq!(seen[2].state(), "broken");
        drop(a);
        assert_eq!(statuses(d.path()).unwrap()[0].state(), "stale");
        // A resumed instance adds to what it did before.
        let a = open(d.path(), "a");
        a.write_status(&s).unwrap();
        let again = statuses(d.path()).unwrap();
        let again = again[0].status.as_ref().unwrap();
        assert_eq!((again.execs, again.crashers), (20, 2));
    }

    #[test]
    fn names() {
        assert!(is_instance_id("node7-1234") && is_instance_id("3"));
        for bad in ["", ".x", "a/b", "a b"] {
            assert!(!is_instance_id(bad), "{bad}");
        }
        assert!(is_target_name("FuzzX") && is_target_name("png-read"));
        for bad in ["", ".sync", "crashers", "a/b", "a\tb"] {
            assert!(!is_target_name(bad), "{bad}");
        }
    }
}
