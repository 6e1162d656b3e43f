//! Atomic file writes: a temporary file in the same directory, then a
//! rename, so that concurrent writers never clash and a reader never sees a
//! torn file.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

fn temp_in(dir: &Path) -> Result<tempfile::NamedTempFile> {
    // 0666 before the umask, as Go and every ordinary tool creates files;
    // tempfile's own default, 0600, would hide corpora from other users.
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(".tmp-")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path`, replacing any file there, atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut tmp = temp_in(parent_of(path))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Writes `bytes` to `path` atomically unless a file is already there.
/// Returns whether this call created the file. Two writers racing on the
/// same path both succeed; exactly one of them reports `true`.
pub fn write_new_atomic(path: &Path, bytes: &[u8]) -> Result<bool> {
    if path.symlink_metadata().is_ok() {
        return Ok(false);
    }
    let mut tmp = temp_in(parent_of(path))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(Error::io(path, e.error)),
    }
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
}
