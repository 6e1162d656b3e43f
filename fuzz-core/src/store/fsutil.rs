//! Atomic file writes: a temporary file in the same directory, then a
//! rename, so that concurrent writers never clash and a reader never sees a
//! torn file.
//!
//! Temporary files and directories carry their owner in their names (this
//! boot's id and the process id: `.tmp-<boot>-<pid>-…`), so that what a
//! process killed with SIGKILL left behind can be told from what a live
//! one is writing, and removed by the next start ([`sweep`]). A name from
//! another boot, or from another host sharing the directory, is never
//! removed: its owner cannot be asked.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

/// `<first 8 hex digits of this boot's id>-<pid>`: who owns a temporary
/// file.
pub fn owner_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| format!("{}-{}", boot_id(), std::process::id()))
}

/// The first 8 hex digits of the kernel's random boot id.
fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .ok()
        .map(|s| s.chars().filter(char::is_ascii_hexdigit).take(8).collect())
        .filter(|s: &String| s.len() == 8)
        .unwrap_or_else(|| "00000000".into())
}

/// Removes what dead owners left in `dir`: entries named `<base><boot>-<pid>-…`
/// of this boot whose process is gone (a temporary file, or a whole
/// temporary directory). Returns how many were removed. Errors are
/// ignored: another process may be removing the same.
pub fn sweep(dir: &Path, base: &str) -> usize {
    let boot = boot_id();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(base)) else {
            continue;
        };
        let mut parts = rest.splitn(3, '-');
        let (Some(b), Some(pid), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if b != boot || pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let path = e.path();
        let gone = match e.file_type() {
            Ok(t) if t.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
        if gone.is_ok() {
            removed += 1;
        }
    }
    removed
}

/// A temporary directory in `dir` named `<base><owner>-…`, removed when
/// dropped (and by a later [`sweep`] if its owner is killed).
pub fn temp_dir(dir: &Path, base: &str) -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix(&format!("{base}{}-", owner_tag()))
        .tempdir_in(dir)
}

/// A temporary file in the directory of `path`, the file it will become:
/// an error names `path`, the file the caller asked for, never the
/// temporary file's name.
fn temp_for(path: &Path) -> Result<tempfile::NamedTempFile> {
    // 0666 before the umask, as Go and every ordinary tool creates files;
    // tempfile's own default, 0600, would hide corpora from other users.
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(&format!(".tmp-{}-", owner_tag()))
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(parent_of(path))
        .map_err(|e| Error::io(path, e))
}

pub(crate) fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path`, replacing any file there, atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut tmp = temp_for(path)?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Writes `bytes` to `path` atomically unless a file is already there.
/// Returns whether this call created the file. Two writers racing on the
/// same path both succeed; exactly one of them reports `true`.
pub fn write_new_atomic(path: &Path, bytes: &[u8]) -> Result<bool> {
    write_new(path, bytes, true)
}

/// [`write_new_atomic`] for one file of many written in a row (an
/// import, a merge): without its own flush to disk, which costs a disk
/// round trip per file (3,000 small files took 16 s); [`sync_dir`] flushes
/// them all at once when the batch is written. Atomic all the same: a
/// reader, or a run killed at any moment, sees the whole file or none.
pub fn write_new_atomic_in_batch(path: &Path, bytes: &[u8]) -> Result<bool> {
    write_new(path, bytes, false)
}

fn write_new(path: &Path, bytes: &[u8], sync: bool) -> Result<bool> {
    if path.symlink_metadata().is_ok() {
        return Ok(false);
    }
    let mut tmp = temp_for(path)?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    if sync {
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    }
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(Error::io(path, e.error)),
    }
}

/// Flushes to disk what a batch wrote into `dir` (the files and their
/// names): one `syncfs` of its file system and a sync of the directory.
pub fn sync_dir(dir: &Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let d = std::fs::File::open(dir).map_err(|e| Error::io(dir, e))?;
    // SAFETY: syncfs on a descriptor we own (nix has no wrapper).
    if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
        return Err(Error::io(dir, std::io::Error::last_os_error()));
    }
    d.sync_all().map_err(|e| Error::io(dir, e))
}

/// Creates a directory and its parents.
pub fn create_dir_all(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_refuses_to_clobber() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        assert!(write_new_atomic(&p, b"one").unwrap());
        assert!(!write_new_atomic(&p, b"two").unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"three").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"three");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary files left behind");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode & 0o044,
            0o044 & mode,
            "readable by others unless the umask says no"
        );
        assert_ne!(mode, 0o600, "not tempfile's private default");
    }

    #[test]
    fn what_dead_owners_left_is_swept_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let boot = boot_id();
        // pid 1 is alive; a pid far above pid_max is not.
        let dead = format!(".tmp-{boot}-999999999-abc");
        let live = format!(".tmp-{boot}-1-abc");
        let other_boot = ".tmp-0badb00t-999999999-abc".to_string();
        let mine = format!(".tmp-{}-abc", owner_tag());
        for n in [&dead, &live, &other_boot, &mine] {
            std::fs::write(d.join(n), b"x").unwrap();
        }
        std::fs::create_dir(d.join(format!("fuzz-run-{boot}-999999999-xyz"))).unwrap();
        std::fs::write(d.join(format!("fuzz-run-{boot}-999999999-xyz/f")), b"x").unwrap();
        assert_eq!(sweep(d, ".tmp-"), 1);
        assert_eq!(sweep(d, "fuzz-run-"), 1);
        let mut left: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut want = vec![live, other_boot, mine];
        want.sort();
        assert_eq!(left, want);
        let t = temp_dir(d, "fuzz-x-").unwrap();
        assert!(t
            .path()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with(&format!("fuzz-x-{}-", owner_tag())));
    }
}
