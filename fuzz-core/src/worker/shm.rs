//! The memory a coordinator shares with one worker: the exact input under
//! test and a count of executions.
//!
//! The worker writes each input here before executing it (a copy, no
//! system call), and bumps the count. When a target kills the worker, the
//! coordinator reads the input that was running; when the count stops
//! moving for longer than the timeout, the worker is hung on that input.
//! The file lives in a private temporary directory the coordinator owns.
//!
//! A call of the target's own custom mutator runs target code too: the
//! worker stores the input it is about to mutate (without counting an
//! execution) and marks the call, with what it calls, its seed and its
//! room, so that a mutator that crashes or hangs is reported as the
//! mutator's fault, with what reproduces it, not blamed on the input
//! executed before. The coordinator times a marked call as it times an
//! execution.
//!
//! A cross-over takes a second entry: the worker stores it too, so that a
//! cross-over that fails is recorded with both of its inputs.
//!
//! Layout (native endianness): magic "FUZZSHM3", execs u64, input length
//! u64, capacity u64, finished executions u64, mutation u64 (0, or a
//! [`Mutation`] packed while a custom mutator runs), the mutation's room
//! u64, the other entry's length u64, then the input bytes (capacity) and
//! the other entry's bytes (capacity). An execution is running while the
//! two counts differ, so only a running one (or a marked mutation) can be
//! judged hung.

use crate::error::{Error, Result};
use memmap2::MmapMut;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: &[u8; 8] = b"FUZZSHM3";
const HEADER: usize = 64;
/// The mutation word's mark that a custom mutator is running.
const MUTATING: u64 = 1 << 32;

/// Which of the target's custom mutators a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MutatorCall {
    /// `LLVMFuzzerCustomMutator`.
    Mutator,
    /// `LLVMFuzzerCustomCrossOver`, of the stored input with another entry.
    CrossOver,
    /// `fuzz_mutate_NAME`, on a typed target's custom argument.
    Value,
}

/// A custom mutator call under way: which function, on which argument (of
/// a typed target; 0 otherwise), with how much room, from which seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mutation {
    pub call: MutatorCall,
    pub arg: u16,
    pub max_size: u64,
    pub seed: u32,
}

impl Mutation {
    fn pack(&self) -> u64 {
        let call = match self.call {
            MutatorCall::Mutator => 0u64,
            MutatorCall::CrossOver => 1,
            MutatorCall::Value => 2,
        };
        MUTATING | call << 33 | u64::from(self.arg) << 35 | u64::from(self.seed)
    }

    fn unpack(w: u64, max_size: u64) -> Option<Mutation> {
        if w & MUTATING == 0 {
            return None;
        }
        let call = match (w >> 33) & 3 {
            0 => MutatorCall::Mutator,
            1 => MutatorCall::CrossOver,
            _ => MutatorCall::Value,
        };
        Some(Mutation {
            call,
            arg: (w >> 35) as u16,
            max_size,
            seed: w as u32,
        })
    }
}

/// A mapped shared-memory file.
pub struct Shm {
    map: MmapMut,
}

impl Shm {
    /// Creates the file with room for inputs of `capacity` bytes (the
    /// input under test and a cross-over's other entry).
    pub fn create(path: &Path, capacity: usize) -> Result<Shm> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        file.set_len((HEADER + 2 * capacity) as u64)
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
        let fits = |m: &MmapMut| {
            let capacity = u64::from_ne_bytes(m[24..32].try_into().expect("8 bytes"));
            (m.len() as u64 - HEADER as u64) / 2 >= capacity
        };
        if map.len() < HEADER || &map[..8] != MAGIC || !fits(&map) {
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
        self.stage(input);
        self.word(8).fetch_add(1, Ordering::Release);
    }

    /// Stores an input without counting an execution: the one a custom
    /// mutator is about to be given.
    pub fn stage(&mut self, input: &[u8]) {
        let n = input.len().min(self.capacity());
        self.map[HEADER..HEADER + n].copy_from_slice(&input[..n]);
        self.word(16).store(n as u64, Ordering::Release);
    }

    /// Stores a cross-over's other entry (empty for the other calls),
    /// before the call is marked.
    pub fn stage_other(&mut self, other: &[u8]) {
        let n = other.len().min(self.capacity());
        let at = HEADER + self.capacity();
        self.map[at..at + n].copy_from_slice(&other[..n]);
        self.word(56).store(n as u64, Ordering::Release);
    }

    /// The other entry stored with the last marked cross-over.
    pub fn other(&self) -> Vec<u8> {
        let n = (self.word(56).load(Ordering::Acquire) as usize).min(self.capacity());
        let at = HEADER + self.capacity();
        self.map[at..at + n].to_vec()
    }

    /// Marks the execution begun by [`Shm::begin`] as finished.
    pub fn end(&mut self) {
        let begun = self.word(8).load(Ordering::Relaxed);
        self.word(32).store(begun, Ordering::Release);
    }

    /// Marks a custom mutator call as under way, on the staged input.
    pub fn begin_mutation(&mut self, m: Mutation) {
        self.word(48).store(m.max_size, Ordering::Release);
        self.word(40).store(m.pack(), Ordering::Release);
    }

    /// Marks the custom mutator call as finished.
    pub fn end_mutation(&mut self) {
        self.word(40).store(0, Ordering::Release);
    }

    /// The custom mutator call under way, if one is.
    pub fn mutation(&self) -> Option<Mutation> {
        let w = self.word(40).load(Ordering::Acquire);
        Mutation::unpack(w, self.word(48).load(Ordering::Acquire))
    }

    /// True while the target's code runs: an execution, or a custom
    /// mutator call.
    pub fn running(&self) -> bool {
        self.executing() || self.mutation().is_some()
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

    /// A file of `capacity` in a new directory, mapped by both ends:
    /// (directory, coordinator, worker).
    fn both_ends(capacity: usize) -> (tempfile::TempDir, Shm, Shm) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("shm");
        let coord = Shm::create(&p, capacity).unwrap();
        let worker = Shm::open(&p).unwrap();
        (dir, coord, worker)
    }

    #[test]
    fn both_ends_see_the_input() {
        let (dir, coord, mut worker) = both_ends(16);
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
        // A mutation: the staged input, no execution counted, marked.
        worker.stage(b"parent");
        assert!(!coord.running());
        let m = Mutation {
            call: MutatorCall::Value,
            arg: 3,
            max_size: 4096,
            seed: 0xdead_beef,
        };
        worker.begin_mutation(m);
        assert!(coord.running() && !coord.executing());
        assert_eq!(coord.mutation(), Some(m));
        assert_eq!(coord.input(), b"parent");
        assert_eq!(coord.execs(), 2);
        worker.end_mutation();
        assert!(!coord.running());
        assert_eq!(coord.mutation(), None);
        for call in [MutatorCall::Mutator, MutatorCall::CrossOver] {
            let m = Mutation {
                call,
                arg: 0,
                max_size: 0,
                seed: 0,
            };
            worker.begin_mutation(m);
            assert_eq!(coord.mutation(), Some(m));
        }
        assert!(Shm::open(&dir.path().join("bad")).is_err());
    }

    #[test]
    fn a_cross_over_stores_its_other_entry_beside_the_input() {
        let (_dir, coord, mut worker) = both_ends(8);
        worker.stage(b"first");
        worker.stage_other(b"the second, cut");
        assert_eq!(coord.input(), b"first");
        assert_eq!(coord.other(), b"the seco");
        worker.stage(&[1u8; 8]);
        assert_eq!(coord.other(), b"the seco");
        worker.stage_other(b"");
        assert_eq!(coord.other(), b"");
        assert_eq!(coord.input(), [1u8; 8]);
    }

    #[test]
    fn a_file_too_small_for_its_capacity_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("shm");
        Shm::create(&p, 64).unwrap();
        let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.set_len((HEADER + 64) as u64).unwrap();
        let err = Shm::open(&p).err().expect("refused").to_string();
        assert!(
            err.contains("not a fuzz-worker shared memory file"),
            "{err}"
        );
    }
}
