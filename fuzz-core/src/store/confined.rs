//! A directory that many processes, and perhaps several users, write
//! (`-sync DIR`), read and written so that no file in it can hurt the
//! reader: every path is walked from the directory's own descriptor, one
//! component at a time, without following a symbolic link (`O_NOFOLLOW`);
//! a file is read only if it is a regular file, opened without blocking
//! (a FIFO never stalls a reader) and up to a cap (a sparse terabyte is
//! refused, not read); a file is written into a temporary file of the
//! directory's and renamed into place, which replaces a symbolic link
//! rather than writing through it. Nothing is ever read or written outside
//! the directory.

use crate::error::{Error, Result};
use nix::errno::Errno;
use nix::fcntl::{openat, renameat, renameat2, OFlag, RenameFlags};
use nix::sys::stat::{fstat, mkdirat, Mode, SFlag};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// A directory whose files are reached from its descriptor alone.
pub struct Confined {
    root: PathBuf,
    fd: OwnedFd,
}

/// Why a file of the directory was not read.
#[derive(Debug)]
pub enum Skip {
    /// Not there.
    Missing,
    /// A FIFO, a device, a socket, a directory or a symbolic link: what
    /// it is.
    NotAFile(&'static str),
    /// Larger than the cap (its size).
    TooLarge(u64),
    /// Any other error.
    Failed(Error),
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::Missing => write!(f, "not there"),
            Skip::NotAFile(what) => write!(f, "a {what}, not a regular file"),
            Skip::TooLarge(n) => write!(f, "{n} bytes, more than is read of such a file"),
            Skip::Failed(e) => write!(f, "{e}"),
        }
    }
}

/// A path inside the directory: its components, each one plain (not
/// empty, `.` or `..`, no `/`).
pub type Rel<'a> = &'a [&'a str];

const DIR_FLAGS: OFlag = OFlag::O_DIRECTORY
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC);

fn plain(c: &str) -> bool {
    !c.is_empty() && c != "." && c != ".." && !c.contains(['/', '\0'])
}

/// What a file of mode `mode` (`st_mode`) is, when it is not a regular
/// file: "FIFO", "character device", ... (for messages).
pub fn kind(mode: u32) -> &'static str {
    match SFlag::from_bits_truncate(mode & SFlag::S_IFMT.bits()) {
        SFlag::S_IFIFO => "FIFO",
        SFlag::S_IFCHR => "character device",
        SFlag::S_IFBLK => "block device",
        SFlag::S_IFSOCK => "socket",
        SFlag::S_IFDIR => "directory",
        SFlag::S_IFLNK => "symbolic link",
        _ => "special file",
    }
}

fn is_regular(mode: u32) -> bool {
    mode & SFlag::S_IFMT.bits() == SFlag::S_IFREG.bits()
}

impl Confined {
    /// Opens `root` (which may itself be a symbolic link: it is what the
    /// user named); everything below it is reached without following one.
    pub fn open(root: &Path) -> Result<Confined> {
        let fd = nix::fcntl::open(root, OFlag::O_DIRECTORY | OFlag::O_CLOEXEC, Mode::empty())
            .map_err(|e| Error::io(root, e.into()))?;
        Ok(Confined {
            root: root.to_path_buf(),
            fd,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of `rel`, for messages.
    pub fn path(&self, rel: Rel) -> PathBuf {
        rel.iter().fold(self.root.clone(), |p, c| p.join(c))
    }

    fn check(&self, rel: Rel) -> Result<()> {
        match rel.iter().find(|c| !plain(c)) {
            Some(c) => Err(Error::Invalid(format!(
                "{}: {c:?} is not a plain path component",
                crate::error::shown(&self.root)
            ))),
            None => Ok(()),
        }
    }

    /// The directory `rel`, reached without following a symbolic link;
    /// with `create`, made where missing.
    pub fn dir(&self, rel: Rel, create: bool) -> Result<OwnedFd> {
        self.check(rel)?;
        let mut fd = nix::unistd::dup(self.fd.as_fd()).map_err(|e| self.err(&[], e))?;
        for (i, c) in rel.iter().enumerate() {
            let next = match openat(fd.as_fd(), *c, DIR_FLAGS, Mode::empty()) {
                Err(Errno::ENOENT) if create => {
                    match mkdirat(fd.as_fd(), *c, Mode::from_bits_truncate(0o777)) {
                        Ok(()) | Err(Errno::EEXIST) => {}
                        Err(e) => return Err(self.err(&rel[..=i], e)),
                    }
                    openat(fd.as_fd(), *c, DIR_FLAGS, Mode::empty())
                }
                other => other,
            };
            fd = next.map_err(|e| match e {
                Errno::ELOOP | Errno::ENOTDIR => Error::Invalid(format!(
                    "{}: a symbolic link or a file where a directory should be: not followed",
                    crate::error::shown(&self.path(&rel[..=i]))
                )),
                e => self.err(&rel[..=i], e),
            })?;
        }
        Ok(fd)
    }

    fn err(&self, rel: Rel, e: Errno) -> Error {
        Error::io(self.path(rel), e.into())
    }

    /// Opens the file `rel` for reading: a regular file, not followed
    /// through a symbolic link, opened without blocking.
    fn open_file(&self, rel: Rel) -> std::result::Result<File, Skip> {
        let (name, dir) = rel.split_last().ok_or(Skip::Missing)?;
        let dir = match self.dir(dir, false) {
            Ok(d) => d,
            Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                return Err(Skip::Missing)
            }
            Err(e) => return Err(Skip::Failed(e)),
        };
        self.check(&[name]).map_err(Skip::Failed)?;
        let flags = OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
        let fd = match openat(dir.as_fd(), *name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::ENOENT) => return Err(Skip::Missing),
            Err(Errno::ELOOP) => return Err(Skip::NotAFile("symbolic link")),
            Err(e) => return Err(Skip::Failed(self.err(rel, e))),
        };
        let st = fstat(fd.as_fd()).map_err(|e| Skip::Failed(self.err(rel, e)))?;
        if !is_regular(st.st_mode) {
            return Err(Skip::NotAFile(kind(st.st_mode)));
        }
        Ok(File::from(fd))
    }

    /// The whole file `rel`, at most `cap` bytes.
    pub fn read(&self, rel: Rel, cap: u64) -> std::result::Result<Vec<u8>, Skip> {
        let f = self.open_file(rel)?;
        let len = f
            .metadata()
            .map_err(|e| Skip::Failed(Error::io(self.path(rel), e)))?
            .len();
        if len > cap {
            return Err(Skip::TooLarge(len));
        }
        let mut buf = Vec::with_capacity(len as usize);
        f.take(cap + 1)
            .read_to_end(&mut buf)
            .map_err(|e| Skip::Failed(Error::io(self.path(rel), e)))?;
        if buf.len() as u64 > cap {
            return Err(Skip::TooLarge(buf.len() as u64));
        }
        Ok(buf)
    }

    /// The bytes of `rel` from `from` on, at most `max` of them, and the
    /// file's length.
    pub fn read_at(
        &self,
        rel: Rel,
        from: u64,
        max: u64,
    ) -> std::result::Result<(Vec<u8>, u64), Skip> {
        let mut f = self.open_file(rel)?;
        let fail = |e| Skip::Failed(Error::io(self.path(rel), e));
        let len = f.metadata().map_err(fail)?.len();
        if len <= from {
            return Ok((Vec::new(), len));
        }
        f.seek(SeekFrom::Start(from)).map_err(fail)?;
        let want = (len - from).min(max);
        let mut buf = Vec::with_capacity(want as usize);
        f.take(want).read_to_end(&mut buf).map_err(fail)?;
        Ok((buf, len))
    }

    /// The length and modification time (seconds since the epoch) of the
    /// regular file `rel`.
    pub fn stat(&self, rel: Rel) -> std::result::Result<(u64, i64), Skip> {
        let f = self.open_file(rel)?;
        let st = fstat(f.as_fd()).map_err(|e| Skip::Failed(self.err(rel, e)))?;
        Ok((st.st_size as u64, st.st_mtime))
    }

    /// Whether anything is at `rel` (a symbolic link counts: it is not
    /// followed).
    pub fn exists(&self, rel: Rel) -> bool {
        let Some((name, dir)) = rel.split_last() else {
            return true;
        };
        let Ok(dir) = self.dir(dir, false) else {
            return false;
        };
        nix::sys::stat::fstatat(dir.as_fd(), *name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW)
            .is_ok()
    }

    /// Whether a process holds the lock file `rel` (flock): `None` when it
    /// cannot be told (no such file, not a regular file, no locks here).
    pub fn held(&self, rel: Rel) -> Option<bool> {
        let f = self.open_file(rel).ok()?;
        // SAFETY: flock on a descriptor this File owns.
        let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) };
        if r == 0 {
            return Some(false); // released as `f` closes
        }
        (Errno::last() == Errno::EWOULDBLOCK).then_some(true)
    }

    /// The names in the directory `rel` (`.` and `..` left out).
    pub fn list(&self, rel: Rel) -> Result<Vec<String>> {
        let fd = self.dir(rel, false)?;
        let mut dir = nix::dir::Dir::from_fd(fd).map_err(|e| self.err(rel, e))?;
        let mut names = Vec::new();
        for e in dir.iter() {
            let e = e.map_err(|e| self.err(rel, e))?;
            if let Ok(name) = e.file_name().to_str() {
                if name != "." && name != ".." {
                    names.push(name.to_string());
                }
            }
        }
        names.sort();
        Ok(names)
    }

    /// Writes `bytes` to a fresh file of the directory `tmp` and renames
    /// it to `dir/name`: replacing what is there (a symbolic link there is
    /// replaced, not followed) unless `new_only`, when an existing `name`
    /// is left as it is. Returns whether the file was put in place.
    pub fn place(
        &self,
        tmp: Rel,
        dir: Rel,
        name: &str,
        bytes: &[u8],
        new_only: bool,
    ) -> Result<bool> {
        self.check(&[name])?;
        let tmp_fd = self.dir(tmp, true)?;
        let dir_fd = self.dir(dir, true)?;
        let (tmp_name, mut file) = self.fresh(&tmp_fd, tmp)?;
        let path = self.path(&[dir, &[name]].concat());
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| Error::io(&path, e));
        if let Err(e) = written {
            let _ = nix::unistd::unlinkat(
                tmp_fd.as_fd(),
                tmp_name.as_str(),
                nix::unistd::UnlinkatFlags::NoRemoveDir,
            );
            return Err(e);
        }
        let unlink_tmp = || {
            let _ = nix::unistd::unlinkat(
                tmp_fd.as_fd(),
                tmp_name.as_str(),
                nix::unistd::UnlinkatFlags::NoRemoveDir,
            );
        };
        let renamed = if new_only {
            match renameat2(
                tmp_fd.as_fd(),
                tmp_name.as_str(),
                dir_fd.as_fd(),
                name,
                RenameFlags::RENAME_NOREPLACE,
            ) {
                // A file system without RENAME_NOREPLACE (NFS): a hard
                // link, which fails on an existing name just the same;
                // the temporary name goes either way.
                Err(Errno::EINVAL | Errno::ENOSYS) => {
                    let linked = nix::unistd::linkat(
                        tmp_fd.as_fd(),
                        tmp_name.as_str(),
                        dir_fd.as_fd(),
                        name,
                        nix::fcntl::AtFlags::empty(),
                    );
                    unlink_tmp();
                    linked
                }
                other => other,
            }
        } else {
            renameat(tmp_fd.as_fd(), tmp_name.as_str(), dir_fd.as_fd(), name)
        };
        match renamed {
            Ok(()) => Ok(true),
            Err(e) => {
                unlink_tmp();
                match e {
                    Errno::EEXIST => Ok(false),
                    e => Err(self.err(&[dir, &[name]].concat(), e)),
                }
            }
        }
    }

    /// A new file in the directory `fd` (`rel`), made exclusively.
    fn fresh(&self, fd: &OwnedFd, rel: Rel) -> Result<(String, File)> {
        for _ in 0..64 {
            let name = format!(".tmp-{:016x}", rand_u64());
            let flags = OFlag::O_WRONLY
                | OFlag::O_CREAT
                | OFlag::O_EXCL
                | OFlag::O_NOFOLLOW
                | OFlag::O_CLOEXEC;
            match openat(
                fd.as_fd(),
                name.as_str(),
                flags,
                Mode::from_bits_truncate(0o644),
            ) {
                Ok(f) => return Ok((name, File::from(f))),
                Err(Errno::EEXIST) => continue,
                Err(e) => return Err(self.err(rel, e)),
            }
        }
        Err(Error::Invalid(format!(
            "{}: cannot make a temporary file",
            crate::error::shown(&self.path(rel))
        )))
    }

    /// Creates `dir/name` exclusively with `bytes` (a claim): false when
    /// it exists (a symbolic link there counts as existing: never
    /// followed).
    pub fn create_new(&self, dir: Rel, name: &str, bytes: &[u8]) -> Result<bool> {
        self.check(&[name])?;
        let dir_fd = self.dir(dir, true)?;
        let flags =
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        match openat(dir_fd.as_fd(), name, flags, Mode::from_bits_truncate(0o644)) {
            Ok(fd) => {
                let mut f = File::from(fd);
                f.write_all(bytes)
                    .map_err(|e| Error::io(self.path(&[dir, &[name]].concat()), e))?;
                Ok(true)
            }
            Err(Errno::EEXIST) => Ok(false),
            Err(e) => Err(self.err(&[dir, &[name]].concat(), e)),
        }
    }

    /// Opens `dir/name` to append to, created if missing: a regular file,
    /// not followed through a symbolic link.
    pub fn open_append(&self, dir: Rel, name: &str) -> Result<File> {
        self.open_rw(dir, name, OFlag::O_APPEND)
    }

    /// Opens `dir/name` to read and write (a lock file, an index), created
    /// if missing, with `extra` flags: a regular file, not followed through
    /// a symbolic link.
    pub fn open_rw(&self, dir: Rel, name: &str, extra: OFlag) -> Result<File> {
        self.check(&[name])?;
        let dir_fd = self.dir(dir, true)?;
        let rel = [dir, &[name]].concat();
        let flags = OFlag::O_RDWR
            | OFlag::O_CREAT
            | OFlag::O_NOFOLLOW
            | OFlag::O_NONBLOCK
            | OFlag::O_CLOEXEC
            | extra;
        let fd =
            openat(dir_fd.as_fd(), name, flags, Mode::from_bits_truncate(0o644)).map_err(|e| {
                match e {
                    Errno::ELOOP => Error::Invalid(format!(
                        "{}: a symbolic link: not followed",
                        crate::error::shown(&self.path(&rel))
                    )),
                    e => self.err(&rel, e),
                }
            })?;
        let st = fstat(fd.as_fd()).map_err(|e| self.err(&rel, e))?;
        if !is_regular(st.st_mode) {
            return Err(Error::Invalid(format!(
                "{}: a {}, not a regular file",
                crate::error::shown(&self.path(&rel)),
                kind(st.st_mode)
            )));
        }
        // Blocking from here on: it is a regular file.
        let f = File::from(fd);
        let _ = nix::fcntl::fcntl(f.as_fd(), nix::fcntl::FcntlArg::F_SETFL(extra));
        Ok(f)
    }

    /// Removes `dir/name` (a file this process made).
    pub fn remove(&self, dir: Rel, name: &str) -> Result<()> {
        self.check(&[name])?;
        let dir_fd = self.dir(dir, false)?;
        nix::unistd::unlinkat(
            dir_fd.as_fd(),
            name,
            nix::unistd::UnlinkatFlags::NoRemoveDir,
        )
        .map_err(|e| self.err(&[dir, &[name]].concat(), e))
    }
}

/// A random number for temporary names (no need for good randomness:
/// O_EXCL settles any clash).
fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn nothing_outside_is_read_or_written() {
        let d = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "secret").unwrap();
        let root = d.path().join("root");
        std::fs::create_dir(&root).unwrap();
        symlink(&secret, root.join("link")).unwrap();
        symlink(outside.path(), root.join("dirlink")).unwrap();
        nix::unistd::mkfifo(&root.join("fifo"), Mode::from_bits_truncate(0o644)).unwrap();
        let c = Confined::open(&root).unwrap();
        assert!(matches!(
            c.read(&["link"], 100),
            Err(Skip::NotAFile("symbolic link"))
        ));
        assert!(matches!(
            c.read(&["fifo"], 100),
            Err(Skip::NotAFile("FIFO"))
        ));
        assert!(matches!(
            c.read(&["dirlink", "secret"], 100),
            Err(Skip::Failed(_))
        ));
        assert!(matches!(c.read(&["none"], 100), Err(Skip::Missing)));
        assert!(c.place(&["tmp"], &["dirlink"], "x", b"x", true).is_err());
        // A file placed over a symbolic link replaces the link.
        assert!(c.place(&["tmp"], &[], "link", b"mine", false).unwrap());
        assert_eq!(std::fs::read(&secret).unwrap(), b"secret");
        assert_eq!(std::fs::read(root.join("link")).unwrap(), b"mine");
        assert!(c.open_append(&["dirlink"], "index").is_err());
        assert!(!c.create_new(&[], "fifo", b"claim").unwrap());
        assert!(c.open_append(&[], "fifo").is_err());
        let names: Vec<String> = std::fs::read_dir(outside.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["secret"]);
        // A large file is refused, not read.
        let big = File::create(root.join("big")).unwrap();
        big.set_len(1 << 40).unwrap();
        assert!(matches!(c.read(&["big"], 1 << 20), Err(Skip::TooLarge(_))));
        let (chunk, len) = c.read_at(&["big"], 0, 4096).unwrap();
        assert_eq!((chunk.len(), len), (4096, 1 << 40));
        assert!(c.place(&["tmp"], &["T"], "..", b"x", true).is_err());
    }
}
