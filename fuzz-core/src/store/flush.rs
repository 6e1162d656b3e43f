//! Flushing written files to disk off the writer's thread.
//!
//! fuzz-run writes every input that reaches new coverage into the cache as
//! it keeps it, and a worker's next slice waits for that write. The write
//! itself is atomic ([`fsutil`]: a temporary file, then a
//! link), so a reader, or a run killed at any moment, sees the whole file
//! or none; what takes the time is the `fsync` that puts it on the disk,
//! a disk round trip (0.2 ms for a small file on the project's idle
//! machine, a few ms under load, more on a laptop's disk or a network file
//! system; with dozens of new entries a second in a run's first minute). A
//! [`Flusher`] hands that `fsync` to a thread of its own: the file is on
//! the disk a moment later instead of before the next slice, and every
//! file is when [`Flusher::finish`] (or dropping the flusher) returns.
//! What a power cut in that moment can lose is a cache entry (regenerated
//! by fuzzing; a file left empty by it is skipped, with a warning, when
//! the cache is next read). A crasher is written with its `fsync` in
//! place ([`fsutil::write_new_atomic`]).

use crate::error::{Error, Result};
use crate::store::fsutil;
use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, SendError, Sender};
use std::thread::JoinHandle;

/// Files written and not yet flushed, and the thread that flushes them
/// (started with the first file). The queue holds paths, not open files:
/// a burst of new entries ties up no descriptors, and `fsync` on the file
/// opened again flushes what was written through the first descriptor
/// (the data belongs to the file, not to the descriptor).
#[derive(Default)]
pub struct Flusher {
    queue: Option<Sender<PathBuf>>,
    thread: Option<JoinHandle<usize>>,
    /// Flushed on the caller's thread: the flushing thread could not be
    /// started, or is gone.
    flushed_here: usize,
}

impl Flusher {
    pub fn new() -> Flusher {
        Flusher::default()
    }

    /// Writes `bytes` to `path` atomically unless a file is there already,
    /// as [`fsutil::write_new_atomic`] does, and leaves its flush to disk
    /// to this flusher's thread. Returns whether this call created the
    /// file.
    pub fn write_new(&mut self, path: &Path, bytes: &[u8]) -> Result<bool> {
        let Some(queue) = self.sender() else {
            // No thread to do it: flushed here, as before there was one.
            let created = fsutil::write_new_atomic(path, bytes)?;
            self.flushed_here += usize::from(created);
            return Ok(created);
        };
        if !fsutil::write_new_atomic_in_batch(path, bytes)? {
            return Ok(false);
        }
        if let Err(SendError(path)) = queue.send(path.to_path_buf()) {
            // The thread is gone (only a panic could end it early): here.
            flush(&path).map_err(|e| Error::io(&path, e))?;
            self.flushed_here += 1;
        }
        Ok(true)
    }

    /// The queue to the flushing thread, started on first use; `None` when
    /// it cannot be started.
    fn sender(&mut self) -> Option<&Sender<PathBuf>> {
        if self.queue.is_none() && self.thread.is_none() {
            let (tx, rx) = channel();
            let started = std::thread::Builder::new()
                .name("flush".into())
                .spawn(move || flush_all(rx));
            if let Ok(handle) = started {
                self.queue = Some(tx);
                self.thread = Some(handle);
            }
        }
        self.queue.as_ref()
    }

    /// Waits until every file written through this flusher is flushed;
    /// returns how many have been, all told. The flusher can go on being
    /// used: a later write starts a new thread.
    pub fn finish(&mut self) -> usize {
        // Closing the queue ends the thread once it has emptied it.
        self.queue = None;
        if let Some(handle) = self.thread.take() {
            self.flushed_here += handle.join().unwrap_or(0);
        }
        self.flushed_here
    }
}

impl Drop for Flusher {
    fn drop(&mut self) {
        self.finish();
    }
}

/// One file's data and size to disk. Opened without following a link and
/// without waiting, and flushed only if it is a regular file: whatever
/// took its place since (a FIFO would block an open) is left alone.
fn flush(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::ErrorKind::InvalidInput.into());
    }
    file.sync_all()
}

/// The flushing thread: each file as it comes, then the directories of
/// those that came together (a link is on the disk once its directory
/// is). Errors are not reported: the write itself succeeded (a file
/// removed since, by `fuzz-clean`, has nothing left to flush), and what is
/// at stake is only whether the file outlives a power cut. Returns how
/// many files it flushed.
fn flush_all(queue: Receiver<PathBuf>) -> usize {
    let mut flushed = 0;
    let mut dirs = HashSet::new();
    while let Ok(first) = queue.recv() {
        let mut next = Some(first);
        while let Some(path) = next {
            if flush(&path).is_ok() {
                flushed += 1;
            }
            dirs.insert(fsutil::parent_of(&path).to_path_buf());
            next = queue.try_recv().ok();
        }
        for dir in dirs.drain() {
            let _ = File::open(&dir).and_then(|d| d.sync_all());
        }
    }
    flushed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_written_is_there_whole_and_flushed_when_finish_returns() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = Flusher::new();
        for i in 0..50 {
            let path = dir.path().join(format!("e{i}"));
            assert!(f.write_new(&path, format!("entry {i}").as_bytes()).unwrap());
        }
        // A file already there is left as it is, and not flushed again.
        assert!(!f.write_new(&dir.path().join("e7"), b"other").unwrap());
        assert_eq!(f.finish(), 50);
        for i in 0..50 {
            let text = std::fs::read_to_string(dir.path().join(format!("e{i}"))).unwrap();
            assert_eq!(text, format!("entry {i}"));
        }
        // No temporary file is left beside them.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 50);
        // After finish, a write starts a new thread and counts on.
        assert!(f.write_new(&dir.path().join("late"), b"x").unwrap());
        assert_eq!(f.finish(), 51);
    }

    #[test]
    fn a_fifo_put_in_a_files_place_before_its_flush_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e");
        std::fs::write(&path, b"x").unwrap();
        std::fs::remove_file(&path).unwrap();
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // Would block forever if opened for reading as a plain file.
        assert!(flush(&path).is_err());
        let link = dir.path().join("l");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(flush(&link).is_err());
    }

    #[test]
    fn a_write_that_fails_names_the_file_and_hands_nothing_over() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = Flusher::new();
        let path = dir.path().join("missing").join("e");
        let e = f.write_new(&path, b"x").unwrap_err().to_string();
        assert!(e.contains(&path.display().to_string()), "{e}");
        assert_eq!(f.finish(), 0);
    }
}
