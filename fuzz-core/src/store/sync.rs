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

use crate::error::{Error, Result};
use crate::store::digest;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The directory of everything that is not a corpus entry or a crasher.
pub const META: &str = ".sync";
/// The directory of the fleet's crashers.
pub const CRASHERS: &str = "crashers";

/// One entry another instance published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    pub target: String,
    /// Its digest name.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Where an instance stands, as `fuzz-corpus status` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    pub id: String,
    pub host: String,
    pub pid: u32,
    pub targets: Vec<String>,
    pub execs: u64,
    pub execs_per_sec: f64,
    /// Edges reached, summed over the instance's targets.
    pub coverage: u64,
    pub corpus: u64,
    pub crashers: u64,
    /// Seconds since the Unix epoch.
    pub updated: u64,
    /// The instance's -sync_interval, in seconds: three of them without
    /// an update make it stale.
    pub interval: u64,
    /// It ended (its -fuzztime, a finding, a signal).
    #[serde(default)]
    pub done: bool,
}

impl Status {
    /// Silent for three intervals while not done.
    pub fn is_stale(&self, now: u64) -> bool {
        !self.done && now.saturating_sub(self.updated) > 3 * self.interval.max(1)
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

/// True for a target name the directory can hold: one path component,
/// not hidden, not `crashers`, and no tab or newline (the index's
/// separators).
pub fn is_target_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name != CRASHERS
        && !name.contains(['/', '\t', '\n', '\0'])
}

/// One instance's side of a sync directory.
pub struct SyncDir {
    root: PathBuf,
    id: String,
    /// Our own index, open for appending.
    index: File,
    /// How far we have read each other instance's index.
    cursor: BTreeMap<String, u64>,
    /// Held for as long as this instance runs.
    _lock: File,
}

impl SyncDir {
    /// Opens DIR as instance `id` (creating what is missing), refusing an
    /// id another running instance holds; cuts a torn last line of its own
    /// index and reads its cursor, so that a restart resumes.
    pub fn open(root: &Path, id: &str) -> Result<SyncDir> {
        if !is_instance_id(id) {
            return Err(Error::Invalid(format!(
                "{id:?} is not a usable -sync_id: letters, digits, '.', '_' and '-' only, not starting with '.'"
            )));
        }
        let me = root.join(META).join("instances").join(id);
        for dir in [&me, &root.join(META).join("tmp").join(id)] {
            crate::store::fsutil::create_dir_all(dir)?;
        }
        let lock_path = me.join("lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| Error::io(&lock_path, e))?;
        if !try_lock(&lock) {
            return Err(Error::Invalid(format!(
                "{}: another running instance has -sync_id {id}",
                crate::error::shown(root)
            )));
        }
        let index_path = me.join("index");
        let mut index = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&index_path)
            .map_err(|e| Error::io(&index_path, e))?;
        cut_torn_line(&mut index).map_err(|e| Error::io(&index_path, e))?;
        let cursor_path = me.join("cursor");
        let cursor = match std::fs::read(&cursor_path) {
            Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
            Err(_) => BTreeMap::new(),
        };
        Ok(SyncDir {
            root: root.to_path_buf(),
            id: id.to_string(),
            index,
            cursor,
            _lock: lock,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Writes `bytes` to `dir/name` whole: into our temporary directory,
    /// then renamed into place (the same file system, so atomic). Returns
    /// whether this call put it there (an entry another instance published
    /// first is left as it is: same name, same bytes).
    fn place(&self, dir: &Path, name: &str, bytes: &[u8]) -> Result<bool> {
        let path = dir.join(name);
        if path.exists() {
            return Ok(false);
        }
        crate::store::fsutil::create_dir_all(dir)?;
        let tmp_dir = self.root.join(META).join("tmp").join(&self.id);
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(&tmp_dir)
            .map_err(|e| Error::io(&tmp_dir, e))?;
        tmp.write_all(bytes).map_err(|e| Error::io(&path, e))?;
        tmp.as_file().sync_all().map_err(|e| Error::io(&path, e))?;
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
        tmp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
        Ok(true)
    }

    /// Publishes a corpus entry of `target` (its v1 bytes): the file, then
    /// the line in our index. Returns whether it was new to DIR.
    pub fn publish(&mut self, target: &str, bytes: &[u8]) -> Result<bool> {
        check_target(target)?;
        let name = digest::entry_name(bytes);
        let new = self.place(&self.root.join(target), &name, bytes)?;
        if new {
            let line = format!("{target}\t{name}\n");
            // One write of a whole line: an index has one writer, and a
            // reader takes complete lines only.
            self.index
                .write_all(line.as_bytes())
                .map_err(|e| Error::io(self.index_path(), e))?;
        }
        Ok(new)
    }

    fn index_path(&self) -> PathBuf {
        self.root
            .join(META)
            .join("instances")
            .join(&self.id)
            .join("index")
    }

    /// What the other instances published since the last call, in the
    /// order they did. A line whose file cannot be read (removed by hand)
    /// is passed over. The cursor moves in memory; [`SyncDir::save_cursor`]
    /// keeps it.
    pub fn fetch_new(&mut self) -> Result<Vec<Published>> {
        let instances = self.root.join(META).join("instances");
        let mut out = Vec::new();
        let rd = std::fs::read_dir(&instances).map_err(|e| Error::io(&instances, e))?;
        let mut others: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|id| id != &self.id && is_instance_id(id))
            .collect();
        others.sort();
        for other in others {
            let path = instances.join(&other).join("index");
            let from = self.cursor.get(&other).copied().unwrap_or(0);
            let (lines, to) = match read_lines_from(&path, from) {
                Ok(x) => x,
                Err(_) => continue, // not there yet
            };
            for line in lines {
                let Some((target, name)) = line.split_once('\t') else {
                    continue;
                };
                if !is_target_name(target) || !digest::is_digest_name(name) {
                    continue;
                }
                if let Ok(bytes) = std::fs::read(self.root.join(target).join(name)) {
                    out.push(Published {
                        target: target.to_string(),
                        name: name.to_string(),
                        bytes,
                    });
                }
            }
            self.cursor.insert(other, to);
        }
        Ok(out)
    }

    /// Keeps how far the other indexes have been read, so that a restart
    /// with the same id does not run them again.
    pub fn save_cursor(&self) -> Result<()> {
        let path = self
            .root
            .join(META)
            .join("instances")
            .join(&self.id)
            .join("cursor");
        let text = serde_json::to_vec(&self.cursor).expect("a cursor serializes");
        crate::store::fsutil::write_atomic(&path, &text)
    }

    /// Claims `site` of `target` for the fleet: true when no instance had
    /// recorded it (the file is created exclusively, which NFS and the
    /// others keep atomic).
    pub fn claim_site(&self, target: &str, site: &str, crasher: &str) -> Result<bool> {
        check_target(target)?;
        let dir = self.root.join(META).join("sites").join(target);
        crate::store::fsutil::create_dir_all(&dir)?;
        let path = dir.join(&digest::sha256_hex(site.as_bytes())[..16]);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                let _ = writeln!(f, "{site}\n{crasher}\n{}", self.id);
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(Error::io(&path, e)),
        }
    }

    /// Writes a crasher of `target` into `DIR/crashers/<target>/` and its
    /// report beside, under `.sync/reports/`; returns the crasher's path.
    pub fn write_crasher(&self, target: &str, bytes: &[u8], report: &str) -> Result<PathBuf> {
        check_target(target)?;
        let name = digest::entry_name(bytes);
        let dir = self.root.join(CRASHERS).join(target);
        self.place(&dir, &name, bytes)?;
        let reports = self.root.join(META).join("reports").join(target);
        self.place(&reports, &format!("{name}.txt"), report.as_bytes())?;
        Ok(dir.join(name))
    }

    /// Writes this instance's status, whole.
    pub fn write_status(&self, status: &Status) -> Result<()> {
        let path = self
            .root
            .join(META)
            .join("instances")
            .join(&self.id)
            .join("status");
        let text = serde_json::to_vec(status).expect("a status serializes");
        crate::store::fsutil::write_atomic(&path, &text)
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

/// The complete lines of `path` from byte `from` on, and the offset after
/// the last of them (a partial last line is left for the next read).
fn read_lines_from(path: &Path, from: u64) -> std::io::Result<(Vec<String>, u64)> {
    let mut f = File::open(path)?;
    let len = f.metadata()?.len();
    if len <= from {
        // Nothing new (or an index cut after a crash: start over from its
        // end rather than read past it).
        return Ok((Vec::new(), from.min(len)));
    }
    f.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::with_capacity((len - from) as usize);
    f.take(len - from).read_to_end(&mut buf)?;
    let complete = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let lines = String::from_utf8_lossy(&buf[..complete])
        .lines()
        .map(str::to_string)
        .collect();
    Ok((lines, from + complete as u64))
}

/// Takes an exclusive lock on `f` (flock), without waiting; false when
/// another process holds it. The lock goes with the process.
fn try_lock(f: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this File owns.
    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Cuts a partial last line (an instance killed mid-write) off an index.
fn cut_torn_line(index: &mut File) -> std::io::Result<()> {
    let len = index.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    index.seek(SeekFrom::Start(0))?;
    let mut buf = Vec::with_capacity(len as usize);
    index.read_to_end(&mut buf)?;
    let keep = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep as u64 != len {
        index.set_len(keep as u64)?;
    }
    Ok(())
}

/// Every instance's status in DIR, by id.
pub fn statuses(root: &Path) -> Result<Vec<Status>> {
    let instances = root.join(META).join("instances");
    let rd = std::fs::read_dir(&instances).map_err(|e| Error::io(&instances, e))?;
    let mut out = Vec::new();
    for e in rd.filter_map(|e| e.ok()) {
        let path = e.path().join("status");
        if let Ok(bytes) = std::fs::read(&path) {
            let status: Status = serde_json::from_slice(&bytes).map_err(|err| {
                Error::Invalid(format!(
                    "{}: not a status file: {err}",
                    crate::error::shown(&path)
                ))
            })?;
            out.push(status);
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(s: &str) -> Vec<u8> {
        format!("go test fuzz v1\n[]byte({s:?})\n").into_bytes()
    }

    #[test]
    fn instances_see_each_other_s_entries_once() {
        let d = tempfile::tempdir().unwrap();
        let mut a = SyncDir::open(d.path(), "a").unwrap();
        let mut b = SyncDir::open(d.path(), "b").unwrap();
        assert!(a.publish("FuzzX", &entry("1")).unwrap());
        assert!(a.publish("FuzzY", &entry("2")).unwrap());
        assert!(!b.publish("FuzzX", &entry("1")).unwrap(), "already there");
        let got = b.fetch_new().unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(
            (got[0].target.as_str(), got[0].bytes.clone()),
            ("FuzzX", entry("1"))
        );
        assert!(b.fetch_new().unwrap().is_empty(), "nothing new");
        assert!(a.fetch_new().unwrap().is_empty(), "b published nothing new");
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
        let mut a = SyncDir::open(d.path(), "a").unwrap();
        a.publish("T", &entry("1")).unwrap();
        {
            let mut b = SyncDir::open(d.path(), "b").unwrap();
            assert_eq!(b.fetch_new().unwrap().len(), 1);
            b.save_cursor().unwrap();
            assert!(
                SyncDir::open(d.path(), "b").is_err(),
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
        let mut b = SyncDir::open(d.path(), "b").unwrap();
        let got = b.fetch_new().unwrap();
        assert_eq!(got.len(), 1, "only what came after its cursor");
        assert_eq!(got[0].bytes, entry("2"));
        drop(a);
        let mut a = SyncDir::open(d.path(), "a").unwrap();
        assert!(!std::fs::read_to_string(&index).unwrap().ends_with("0123"));
        a.publish("T", &entry("3")).unwrap();
        assert_eq!(b.fetch_new().unwrap()[0].bytes, entry("3"));
    }

    #[test]
    fn sites_are_claimed_once_for_the_fleet() {
        let d = tempfile::tempdir().unwrap();
        let a = SyncDir::open(d.path(), "a").unwrap();
        let b = SyncDir::open(d.path(), "b").unwrap();
        assert!(a.claim_site("T", "SIGSEGV at lib.so+0x10", "x").unwrap());
        assert!(!b.claim_site("T", "SIGSEGV at lib.so+0x10", "y").unwrap());
        assert!(b.claim_site("T", "SIGABRT at lib.so+0x20", "y").unwrap());
        let p = a.write_crasher("T", &entry("boom"), "report").unwrap();
        assert!(p.starts_with(d.path().join("crashers/T")));
        assert_eq!(std::fs::read(p).unwrap(), entry("boom"));
    }

    #[test]
    fn statuses_and_staleness() {
        let d = tempfile::tempdir().unwrap();
        let a = SyncDir::open(d.path(), "a").unwrap();
        let s = Status {
            id: "a".into(),
            host: "h".into(),
            pid: 1,
            targets: vec!["T".into()],
            execs: 10,
            execs_per_sec: 5.0,
            coverage: 3,
            corpus: 2,
            crashers: 0,
            updated: 1000,
            interval: 30,
            done: false,
        };
        a.write_status(&s).unwrap();
        assert_eq!(statuses(d.path()).unwrap(), std::slice::from_ref(&s));
        assert!(!s.is_stale(1090));
        assert!(s.is_stale(1091));
        assert!(!Status { done: true, ..s }.is_stale(5000));
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
