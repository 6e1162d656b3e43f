//! The memory a coordinator shares with one worker: the exact input under
//! test and a count of executions.
//!
//! The worker writes each input here before executing it (a copy, no
//! system call), and bumps the count. When a target kills the worker, the
//! coordinator reads the input that was running; when the count stops
//! moving for longer than the timeout, the worker is hung on that input.
//! The file lives in a private temporary directory the coordinator owns.
//!
//! The same holds for a call of the target's own custom mutator, which
//! runs target code too: the worker stores the input it is mutating and
//! the call's seed, marked as a mutation, so that a mutator that crashes
//! or hangs is reported as the mutator's fault, with the input and seed
//! that reproduce it, not blamed on the input executed before.
//!
//! Layout (native endianness): magic "FUZZSHM2", execs u64, input length
//! u64, capacity u64, finished executions u64, mutation u64 (0, or 1 << 32
//! | the seed while a custom mutator runs), then the input bytes. An
//! execution (or mutation) is running while the two counts differ, so only
//! a running one can be judged hung.

use crate::error::{Error, Result};
use memmap2::MmapMut;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: &[u8; 8] = b"FUZZSHM2";
const HEADER: usize = 48;
/// The mutation word's mark that a custom mutator is running.
const MUTATING: u64 = 1 << 32;

/// A mapped shared-memory file.
pub struct Shm {
    map: MmapMut,
}

impl Shm {
    /// Creates the file with room for inputs of `capacity` bytes.
    pub fn create(path: &Path, capacity: usize) -> Result<Shm> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        file.set_len((HEADER + capacity) as u64)
            .map_err(|e| Error::io(path, e))?;
        // SAFETY: the file is ours, private to this run, and sized above;
        // the only other user is the worker, which follows this layout.
        let mut map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| Error::io(path, e))?;
        map[..8].copy_from_slice(MAGIC);
        map[24..32].copy_from_slice(&(capacity as u64).to_ne_bytes());
        Ok(Shm { map })
    }

    /// Opens a file the coordinator created.
    pub fn open(path: &Path) -> Result<Shm> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        // SAFETY: as in `create`.
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| Error::io(path, e))?;
        if map.len() < HEADER || &map[..8] != MAGIC {
            return Err(Error::Invalid(format!(
                "{}: not a fuzz-worker shared memory file",
                path.display()
            )));
        }
        Ok(Shm { map })
    }

    fn word(&self, at: usize) -> &AtomicU64 {
        // SAFETY: `at` is one of the 8-aligned header words; the mapping is
        // page-aligned and at least HEADER bytes long.
        unsafe { &*(self.map.as_ptr().add(at) as *const AtomicU64) }
    }

    /// Room for one input, in bytes.
    pub fn capacity(&self) -> usize {
        self.word(24).load(Ordering::Relaxed) as usize
    }

    /// Executions so far.
    pub fn execs(&self) -> u64 {
        self.word(8).load(Ordering::Relaxed)
    }

    /// Stores the input about to run and counts the execution. An input
    /// longer than the capacity is stored cut (the coordinator sizes the
    /// capacity for every input it can send or a mutation can make).
    pub fn begin(&mut self, input: &[u8]) {
        let n = input.len().min(self.capacity());
        self.map[HEADER..HEADER + n].copy_from_slice(&input[..n]);
        self.word(16).store(n as u64, Ordering::Release);
        self.word(8).fetch_add(1, Ordering::Release);
    }

    /// Marks the execution begun by [`Shm::begin`] as finished.
    pub fn end(&mut self) {
        let begun = self.word(8).load(Ordering::Relaxed);
        self.word(32).store(begun, Ordering::Release);
    }

    /// Stores the input a custom mutator is about to mutate, with the
    /// call's seed, and counts the call as an execution, so that the
    /// coordinator times it as one; [`Shm::end_mutation`] ends it.
    pub fn begin_mutation(&mut self, input: &[u8], seed: u32) {
        self.word(40)
            .store(MUTATING | u64::from(seed), Ordering::Release);
        self.begin(input);
    }

    /// Marks the mutation begun by [`Shm::begin_mutation`] as finished.
    pub fn end_mutation(&mut self) {
        self.end();
        self.word(40).store(0, Ordering::Release);
    }

    /// The seed of the custom mutator call under way, if one is.
    pub fn mutation(&self) -> Option<u32> {
        let w = self.word(40).load(Ordering::Acquire);
        (w & MUTATING != 0).then_some(w as u32)
    }

    /// True while an execution is running (begun, not finished).
    pub fn executing(&self) -> bool {
        self.word(8).load(Ordering::Acquire) != self.word(32).load(Ordering::Acquire)
    }

    /// The last input stored.
    pub fn input(&self) -> Vec<u8> {
        let n = (self.word(16).load(Ordering::Acquire) as usize).min(self.capacity());
        self.map[HEADER..HEADER + n].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ends_see_the_input() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("shm");
        let coord = Shm::create(&p, 16).unwrap();
        let mut worker = Shm::open(&p).unwrap();
        worker.begin(b"hello");
        assert_eq!(coord.input(), b"hello");
        assert_eq!(coord.execs(), 1);
        assert!(coord.executing());
        worker.end();
        assert!(!coord.executing());
        worker.begin(&[7u8; 40]);
        assert_eq!(coord.input(), vec![7u8; 16]);
        assert_eq!(coord.execs(), 2);
        assert_eq!(coord.mutation(), None);
        worker.end();
        worker.begin_mutation(b"parent", 0xdead_beef);
        assert!(coord.executing());
        assert_eq!(coord.mutation(), Some(0xdead_beef));
        assert_eq!(coord.input(), b"parent");
        worker.end_mutation();
        assert!(!coord.executing());
        assert_eq!(coord.mutation(), None);
        worker.begin_mutation(b"", 0);
        assert_eq!(coord.mutation(), Some(0));
        std::fs::write(dir.path().join("bad"), b"not shm at all, no").unwrap();
        assert!(Shm::open(&dir.path().join("bad")).is_err());
    }
}
