//! Reading coverage after an execution: every counter the instrumented
//! modules wrote, bucketed by powers of two (as Go and AFL bucket hit
//! counts) into *features* the coordinator can merge as a set.
//!
//! Reading also resets: each counter table is walked once per execution, a
//! 64-bit word at a time, and words that are zero (nearly all of them on a
//! large target) cost one load and one compare.

use crate::sancov::{self, Region, GUARDS_USED, GUARD_COUNTERS};
use std::sync::atomic::Ordering;

/// A covered counter and its hit-count bucket: `index << BUCKET_BITS |
/// bucket` (`fuzz_core::search::pctable`, where readers of features find it).
pub type Feature = u32;
pub use fuzz_core::search::pctable::BUCKET_BITS;

/// Where the counters live, in a fixed order so that every worker loading
/// the same library numbers them alike: the inline 8-bit counter regions in
/// registration order, then the guard counters, then the trace-pc map; and
/// after them, when on ([`CounterMap::with_outcomes`]), the comparison
/// outcome slots, features that are not edges.
pub struct CounterMap {
    tables: Vec<(*mut u8, usize, u32)>, // (start, len, first index)
    pc_map: bool,
    total: u32,
    module_counters: u32,
    /// The number of the first outcome slot, when they are read.
    outcomes: Option<u32>,
}

/// log2 bucket of a hit count (1 → 0, 2-3 → 1, 4-7 → 2, … 128-255 → 7).
#[inline(always)]
fn bucket(count: u8) -> u32 {
    7 - count.leading_zeros()
}

impl CounterMap {
    /// Snapshots the counter tables registered so far. Call it after the
    /// target library is loaded (its constructors register them). The
    /// 64 KiB trace-pc map is read only when `pc_map` says a module uses it.
    pub fn new(pc_map: bool) -> CounterMap {
        let mut tables = Vec::new();
        let mut next: u32 = 0;
        let regions: Vec<Region> = sancov::REGIONS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for r in regions {
            tables.push((r.start, r.len, next));
            next += r.len as u32;
        }
        let guards = GUARDS_USED.load(Ordering::Relaxed);
        if guards > 0 {
            let len = (guards + 1).min(sancov::GUARDS);
            tables.push((GUARD_COUNTERS.get() as *mut u8, len, next));
            next += len as u32;
        }
        let module_counters = next;
        if pc_map {
            // SAFETY: taking the address of the C map, never a reference.
            let map = std::ptr::addr_of_mut!(sancov::fuzz_worker_pc_map) as *mut u8;
            tables.push((map, 1 << 16, next));
            next += 1 << 16;
        }
        CounterMap {
            tables,
            pc_map,
            total: next,
            module_counters,
            outcomes: None,
        }
    }

    /// The same map over the counter tables registered by now (without
    /// comparison outcomes).
    pub fn remapped(&self) -> CounterMap {
        CounterMap::new(self.pc_map)
    }

    /// Reads comparison outcomes too (fuzz-run `-cmp_outcomes`), numbered
    /// after every counter, with sites relative to `base`, where the target
    /// library is mapped.
    pub fn with_outcomes(mut self, base: usize) -> CounterMap {
        sancov::note_outcomes(base);
        self.outcomes = Some(self.total);
        self
    }

    /// Counters whose features are edges: every one read, without the
    /// comparison outcomes.
    pub fn edge_counters(&self) -> u32 {
        self.total
    }

    /// Feature numbers (shifted right by [`BUCKET_BITS`]) an execution can
    /// give: the counters and the outcome slots.
    pub fn feature_space(&self) -> u32 {
        self.total + self.outcomes.map_or(0, |_| sancov::OUTCOMES as u32)
    }

    /// Counters of instrumented modules (without the fixed trace-pc map).
    pub fn module_counters(&self) -> u32 {
        self.module_counters
    }

    /// The number of the first counter of the table that starts at
    /// `start` (an inline counter region), as features number counters:
    /// `fuzz-worker pc-table` tells the PC table's entries by it.
    pub fn first_counter(&self, start: *mut u8) -> Option<u32> {
        self.tables
            .iter()
            .find(|&&(s, _, _)| s == start)
            .map(|&(_, _, first)| first)
    }

    /// Zeroes every counter.
    pub fn reset(&self) {
        for &(start, len, _) in &self.tables {
            // SAFETY: each table is `len` writable bytes (see `new`).
            unsafe { std::ptr::write_bytes(start, 0, len) };
        }
        sancov::reset_pc_edge();
        if self.outcomes.is_some() {
            take_outcomes(|_| {});
        }
    }

    /// Appends the features of the last execution to `out` and zeroes the
    /// counters, in one pass.
    pub fn collect(&self, out: &mut Vec<Feature>) {
        for &(start, len, first) in &self.tables {
            // SAFETY: each table is `len` readable and writable bytes.
            unsafe { collect_table(start, len, first, out) };
        }
        sancov::reset_pc_edge();
        if let Some(first) = self.outcomes {
            take_outcomes(|slot| out.push((first + slot) << BUCKET_BITS));
        }
    }
}

/// Hands every comparison outcome slot set since the last call to `each`,
/// and clears them: only the slots set are visited.
fn take_outcomes(mut each: impl FnMut(u32)) {
    // SAFETY: c/sancov.c's plain arrays, written by targets on this thread
    // only (the module invariant of sancov.rs); the count never exceeds
    // the list's length, as each slot is listed once until cleared here.
    unsafe {
        let count = std::ptr::addr_of_mut!(sancov::fuzz_worker_outcome_count);
        let list = &*std::ptr::addr_of!(sancov::fuzz_worker_outcome_list);
        let seen = &mut *std::ptr::addr_of_mut!(sancov::fuzz_worker_outcome_seen);
        let n = (*count as usize).min(list.len());
        for &slot in &list[..n] {
            let slot = slot & (sancov::OUTCOMES as u32 - 1);
            seen[slot as usize / 64] = 0;
            each(slot);
        }
        *count = 0;
    }
}

/// # Safety
/// `start..start+len` must be valid, writable memory.
unsafe fn collect_table(start: *mut u8, len: usize, first: u32, out: &mut Vec<Feature>) {
    let mut i = 0;
    // Unaligned head, byte by byte.
    while i < len && (start as usize + i) % 8 != 0 {
        take(start.add(i), first + i as u32, out);
        i += 1;
    }
    // Aligned body: a cache line (eight words) at a time, OR-ed together so
    // that the common all-zero line costs a few vector instructions.
    while i + 64 <= len {
        let line = std::slice::from_raw_parts(start.add(i) as *const u64, 8);
        if line.iter().fold(0, |acc, w| acc | w) != 0 {
            for k in 0..8 {
                take_word(
                    start.add(i + 8 * k) as *mut u64,
                    first + (i + 8 * k) as u32,
                    out,
                );
            }
        }
        i += 64;
    }
    while i + 8 <= len {
        take_word(start.add(i) as *mut u64, first + i as u32, out);
        i += 8;
    }
    while i < len {
        take(start.add(i), first + i as u32, out);
        i += 1;
    }
}

/// The features of eight counters read as one aligned word (zeroed
/// after): only its non-zero bytes are visited.
#[inline(always)]
unsafe fn take_word(p: *mut u64, index: u32, out: &mut Vec<Feature>) {
    let mut w = *p;
    if w == 0 {
        return;
    }
    *p = 0;
    // Counters are bytes in memory order: little-endian in the word.
    let w_le = u64::from_le(w);
    w = w_le;
    while w != 0 {
        let k = w.trailing_zeros() / 8;
        let c = (w >> (8 * k)) as u8;
        out.push(((index + k) << BUCKET_BITS) | bucket(c));
        w &= !(0xffu64 << (8 * k));
    }
}

#[inline(always)]
unsafe fn take(p: *mut u8, index: u32, out: &mut Vec<Feature>) {
    let c = *p;
    if c != 0 {
        out.push((index << BUCKET_BITS) | bucket(c));
        *p = 0;
    }
}

/// A short fingerprint of a feature set, to tell coverage apart in output.
pub fn fingerprint(features: &[Feature]) -> u64 {
    let mut sorted = features.to_vec();
    sorted.sort_unstable();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in sorted {
        for b in f.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_powers_of_two() {
        assert_eq!(bucket(1), 0);
        assert_eq!(bucket(2), 1);
        assert_eq!(bucket(3), 1);
        assert_eq!(bucket(4), 2);
        assert_eq!(bucket(127), 6);
        assert_eq!(bucket(128), 7);
        assert_eq!(bucket(255), 7);
    }

    #[test]
    fn collect_reads_and_resets_unaligned_tables() {
        let mut buf = vec![0u8; 200];
        let base = buf.as_mut_ptr();
        // An unaligned window of 181 bytes: head, cache lines, words, tail.
        // SAFETY: 3 + 181 bytes lie within `buf`'s 200.
        let (start, len) = unsafe { (base.add(3), 181) };
        // SAFETY: each offset is below 181, inside the window.
        unsafe {
            *start = 1;
            *start.add(9) = 5;
            *start.add(28) = 200;
            *start.add(130) = 2;
            *start.add(180) = 1;
        }
        let mut out = Vec::new();
        // SAFETY: the window is `len` bytes of `buf`, which outlives the call.
        unsafe { collect_table(start, len, 100, &mut out) };
        out.sort();
        assert_eq!(
            out,
            vec![
                100 << 3,
                (109 << 3) | 2,
                (128 << 3) | 7,
                (230 << 3) | 1,
                280 << 3
            ]
        );
        assert!(buf.iter().all(|&b| b == 0));
    }

    #[test]
    fn every_byte_of_a_dense_word_counts() {
        let mut buf = vec![0u64; 16];
        let start = buf.as_mut_ptr() as *mut u8;
        let counts = [1u8, 2, 3, 4, 8, 16, 128, 255];
        // SAFETY (the three blocks below): `buf` is 128 bytes, and every
        // offset written or read is below 128.
        for (k, &c) in counts.iter().enumerate() {
            unsafe { *start.add(64 + k) = c };
        }
        unsafe { *start.add(127) = 1 };
        let mut out = Vec::new();
        unsafe { collect_table(start, 128, 0, &mut out) };
        out.sort();
        let mut want: Vec<u32> = counts
            .iter()
            .enumerate()
            .map(|(k, &c)| ((64 + k as u32) << 3) | bucket(c))
            .collect();
        want.push(127 << 3);
        assert_eq!(out, want);
        assert!(buf.iter().all(|&w| w == 0));
    }
}
