//! The SanitizerCoverage runtime: every callback an instrumented library
//! references, defined here in the fuzz-worker crate itself (a
//! `#[no_mangle]` function in a dependency that nothing calls would be
//! dropped from the executable even with `-rdynamic`). The C half, for what
//! Rust cannot express, is `c/sancov.c`.
//!
//! Counters are plain memory written by instrumented code: inline 8-bit
//! counter regions that each module registers (clang, rustc), one array for
//! `trace-pc-guard`, and a hashed map for gcc's `trace-pc` (in C). The
//! worker reads and resets them between executions (`coverage.rs`).
//! Comparison operands go into small fixed tables, overwritten as they
//! fill, so that a callback costs a hash and a store (real targets make
//! tens of thousands of them per input); the integer table and its
//! callbacks are in C, which has the caller's address (the comparison site
//! that `-cmp_outcomes` counts).
//!
//! Invariant: targets run on the worker's main thread; the tables are
//! written without locks. A target's own threads may race on them, which
//! can tear an entry but never breaks memory safety of the worker (entries
//! are plain integers and bytes).

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Memory written by instrumented code and read by the worker.
pub struct Racy<T>(UnsafeCell<T>);
// SAFETY: see the module invariant: plain-old-data tables whose torn writes
// are harmless.
unsafe impl<T> Sync for Racy<T> {}
impl<T> Racy<T> {
    pub const fn new(v: T) -> Self {
        Racy(UnsafeCell::new(v))
    }
    pub fn get(&self) -> *mut T {
        self.0.get()
    }
}

/// An inline 8-bit counter region of one module, and its PC table.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    pub start: *mut u8,
    pub len: usize,
}
// SAFETY: the region is memory of a loaded module that stays mapped for the
// life of the process (targets are never unloaded).
unsafe impl Send for Region {}

/// A module's PC table: pairs of (pc, flags), one per counter.
#[derive(Clone, Copy, Debug)]
pub struct PcTable {
    pub start: *const usize,
    pub len: usize,
}
// SAFETY: as for Region.
unsafe impl Send for PcTable {}

pub static REGIONS: Mutex<Vec<Region>> = Mutex::new(Vec::new());
pub static PC_TABLES: Mutex<Vec<PcTable>> = Mutex::new(Vec::new());

/// Counters of `trace-pc-guard` builds, indexed by guard value (from 1).
pub const GUARDS: usize = 1 << 21;
pub static GUARD_COUNTERS: Racy<[u8; GUARDS]> = Racy::new([0; GUARDS]);
/// The highest guard handed out so far.
pub static GUARDS_USED: AtomicUsize = AtomicUsize::new(0);

extern "C" {
    /// gcc `trace-pc` counters, hashed by module-relative PC (c/sancov.c).
    pub static mut fuzz_worker_pc_map: [u8; 1 << 16];
    /// Non-zero while a target runs (c/sancov.c).
    pub static mut fuzz_worker_tracing: i32;
    pub fn fuzz_worker_pc_add_module(lo: usize, hi: usize);
    pub fn fuzz_worker_pc_reset_edge();
    /// Comparison outcomes (c/sancov.c): a bit per site and outcome, the
    /// slots set since the last read, in the order they were set, and
    /// their count; on when non-zero.
    pub static mut fuzz_worker_outcome_seen: [u64; OUTCOMES / 64];
    pub static mut fuzz_worker_outcome_list: [u32; OUTCOMES];
    pub static mut fuzz_worker_outcome_count: u32;
    pub static mut fuzz_worker_outcomes_on: i32;
    fn fuzz_worker_outcome_module(lo: usize);
}

/// Comparison outcome slots (c/sancov.c's `OUTCOME_BITS`).
pub const OUTCOMES: usize = 1 << 18;

/// Turns the noting of comparison outcomes on, with sites numbered
/// relative to `lo`, where the target library is mapped.
pub fn note_outcomes(lo: usize) {
    // SAFETY: plain C globals, set once before any target runs.
    unsafe {
        fuzz_worker_outcome_module(lo);
        std::ptr::write_volatile(std::ptr::addr_of_mut!(fuzz_worker_outcomes_on), 1);
    }
}

#[no_mangle]
pub extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, end: *mut u8) {
    if start.is_null() || end <= start {
        return;
    }
    let len = end as usize - start as usize;
    let mut regions = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    if !regions.iter().any(|r| r.start == start) {
        regions.push(Region { start, len });
    }
}

#[no_mangle]
pub extern "C" fn __sanitizer_cov_pcs_init(start: *const usize, end: *const usize) {
    if start.is_null() || end <= start {
        return;
    }
    let len = (end as usize - start as usize) / (2 * std::mem::size_of::<usize>());
    let mut tables = PC_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if !tables.iter().any(|t| t.start == start) {
        tables.push(PcTable { start, len });
    }
}

#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_pc_guard_init(start: *mut u32, stop: *mut u32) {
    if start.is_null() || start == stop {
        return;
    }
    // SAFETY: the compiler hands us the module's guard array [start, stop).
    unsafe {
        if *start != 0 {
            return; // this module was initialised already
        }
        let mut p = start;
        while p < stop {
            let n = GUARDS_USED.fetch_add(1, Ordering::Relaxed) + 1;
            // Guards past the table share its last slot rather than overflow.
            *p = n.min(GUARDS - 1) as u32;
            p = p.add(1);
        }
    }
}

#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_pc_guard(guard: *mut u32) {
    // SAFETY: guard points into a module's guard array; its value is an
    // index below GUARDS by construction.
    unsafe {
        let i = *guard as usize;
        let counters = &mut *GUARD_COUNTERS.get();
        counters[i] = counters[i].wrapping_add(1);
    }
}

#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_pc_indir(callee: usize) {
    // An indirect call: its target is coverage too, hashed into the pc map.
    let h = (callee as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48;
    // SAFETY: index masked to the map's size.
    unsafe {
        let map = &mut *std::ptr::addr_of_mut!(fuzz_worker_pc_map);
        let slot = &mut map[(h as usize) & 0xffff];
        *slot = slot.wrapping_add(1);
    }
}

// ---- comparisons -------------------------------------------------------

/// One integer comparison: its operands and their width in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct IntCmp {
    pub a: u64,
    pub b: u64,
    pub size: u8,
}

/// One comparison of byte strings (memcmp, strcmp, …), up to 32 bytes of
/// each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct MemCmp {
    pub a: [u8; 32],
    pub b: [u8; 32],
    pub a_len: u8,
    pub b_len: u8,
}

/// The integer comparison table's entries (c/sancov.c's `INT_CMPS`; a test checks that
/// the two sides agree).
pub const INT_CMPS: usize = 1024;
// c/sancov.c's `struct int_cmp` is this size too (it asserts the same).
const _: () = assert!(std::mem::size_of::<IntCmp>() == 24);
pub const MEM_CMPS: usize = 256;
pub static MEM_TABLE: Racy<[MemCmp; MEM_CMPS]> = Racy::new(
    [MemCmp {
        a: [0; 32],
        b: [0; 32],
        a_len: 0,
        b_len: 0,
    }; MEM_CMPS],
);

extern "C" {
    /// The integer comparisons, written by c/sancov.c's callbacks (which
    /// are there for the caller's address) and by `record`.
    static mut fuzz_worker_int_table: [IntCmp; INT_CMPS];
    /// Its size in C, for the test that the two sides agree.
    #[cfg(test)]
    static fuzz_worker_int_table_bytes: u64;
    fn fuzz_worker_record(a: u64, b: u64, size: u8);
}

/// Records an unequal comparison into the integer table (c/sancov.c), as
/// the integer comparison callbacks do.
pub fn record(a: u64, b: u64, size: u8) {
    // SAFETY: a plain C function writing a plain table.
    unsafe { fuzz_worker_record(a, b, size) }
}

/// gcc's float comparison hooks: the bit patterns are what an input holds.
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_cmpf(a: f32, b: f32) {
    record(a.to_bits() as u64, b.to_bits() as u64, 4)
}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_cmpd(a: f64, b: f64) {
    record(a.to_bits(), b.to_bits(), 8)
}

/// `cases[0]` is the number of cases, `cases[1]` the operand width in bits,
/// then the case values.
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_switch(val: u64, cases: *const u64) {
    if cases.is_null() {
        return;
    }
    // SAFETY: the compiler passes an array of cases[0] + 2 values.
    unsafe {
        let n = *cases as usize;
        let bits = *cases.add(1);
        let size = (bits / 8).clamp(1, 8) as u8;
        let vals = std::slice::from_raw_parts(cases.add(2), n);
        // A switch on a byte (a lexer's, an interpreter's opcodes) says
        // little that one byte mutation in 256 does not find, and runs for
        // every character or instruction: skipped, as libFuzzer does.
        if vals.last().map_or(true, |&c| c < 256) {
            return;
        }
        // Record the cases on either side of the value: the ones a
        // mutation can most plausibly reach. clang passes them sorted (as
        // u64), so a binary search finds them; an interpreter's switch of
        // hundreds of cases runs for every instruction it executes, and a
        // scan of them all was most of SQLite's execution time.
        let i = vals.partition_point(|&c| c < val);
        // A value on a case: its neighbour above is the other side.
        let above = if vals.get(i) == Some(&val) { i + 1 } else { i };
        if let Some(&above) = vals.get(above) {
            record(val, above, size);
        }
        if let Some(&below) = i.checked_sub(1).and_then(|j| vals.get(j)) {
            record(val, below, size);
        }
    }
}

#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_div4(val: u32) {
    record(val as u64, 0, 4)
}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_div8(val: u64) {
    record(val, 0, 8)
}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_gep(idx: usize) {
    record(idx as u64, 0, 8)
}

/// Called from the interposed libc comparisons in c/sancov.c.
#[no_mangle]
pub extern "C" fn fuzz_worker_hook_memcmp(a: *const u8, b: *const u8, n1: usize, n2: usize) {
    let (n1, n2) = (n1.min(32), n2.min(32));
    let mut e = MemCmp {
        a_len: n1 as u8,
        b_len: n2 as u8,
        ..MemCmp::default()
    };
    // SAFETY: the caller compared at least n1 bytes of a and n2 of b.
    unsafe {
        std::ptr::copy_nonoverlapping(a, e.a.as_mut_ptr(), n1);
        std::ptr::copy_nonoverlapping(b, e.b.as_mut_ptr(), n2);
    }
    // The slot: a hash of the lengths and the first and last eight bytes
    // of each side (the table is a cache; a collision only replaces).
    let word = |s: &[u8; 32], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap());
    let (ea, eb) = (n1.saturating_sub(8), n2.saturating_sub(8));
    let h = (word(&e.a, 0) ^ word(&e.a, ea).rotate_left(17) ^ word(&e.b, 0).rotate_left(31))
        ^ (word(&e.b, eb).rotate_left(47) ^ (n1 as u64) << 8 ^ n2 as u64);
    let h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32;
    // SAFETY: index masked below MEM_CMPS.
    unsafe {
        (*MEM_TABLE.get())[(h as usize) % MEM_CMPS] = e;
    }
}

/// Marks the start and end of a target execution: only comparisons made
/// inside the target are recorded by the interposed libc functions.
pub fn set_tracing(on: bool) {
    // SAFETY: a plain int flag in c/sancov.c, written by this thread only.
    unsafe {
        std::ptr::write_volatile(std::ptr::addr_of_mut!(fuzz_worker_tracing), on as i32);
    }
}

/// The comparisons recorded so far (non-empty entries), for the mutator.
pub fn int_comparisons() -> Vec<IntCmp> {
    // SAFETY: a copy of a plain table; see the module invariant.
    let table = unsafe { *std::ptr::addr_of!(fuzz_worker_int_table) };
    table.iter().copied().filter(|c| c.size != 0).collect()
}

/// Entries of every module's PC table (one per inline counter).
pub fn pc_table_entries() -> usize {
    PC_TABLES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|t| t.len)
        .sum()
}

/// The byte-string comparisons recorded so far.
pub fn mem_comparisons() -> Vec<MemCmp> {
    // SAFETY: as above.
    let table = unsafe { *MEM_TABLE.get() };
    table
        .iter()
        .copied()
        .filter(|c| c.a_len != 0 || c.b_len != 0)
        .collect()
}

/// The recorded comparisons as mutation hints.
pub fn hints() -> fuzz_core::search::hints::Hints {
    fuzz_core::search::hints::Hints {
        ints: int_comparisons()
            .into_iter()
            .map(|c| fuzz_core::search::hints::IntHint {
                a: c.a,
                b: c.b,
                size: c.size,
            })
            .collect(),
        bytes: mem_comparisons()
            .into_iter()
            .map(|c| fuzz_core::search::hints::BytesHint {
                a: c.a[..c.a_len as usize].to_vec(),
                b: c.b[..c.b_len as usize].to_vec(),
            })
            .collect(),
    }
}

/// Forgets every recorded comparison.
pub fn clear_comparisons() {
    // SAFETY: as above.
    unsafe {
        *std::ptr::addr_of_mut!(fuzz_worker_int_table) = [IntCmp::default(); INT_CMPS];
        *MEM_TABLE.get() = [MemCmp::default(); MEM_CMPS];
    }
}

/// Tells the gcc `trace-pc` hashing where a loaded module lies, so that its
/// PCs are hashed relative to its base.
pub fn add_pc_module(lo: usize, hi: usize) {
    // SAFETY: a plain C function that appends to a fixed table.
    unsafe { fuzz_worker_pc_add_module(lo, hi) }
}

/// Starts a new edge chain for `trace-pc` (called before each execution).
pub fn reset_pc_edge() {
    // SAFETY: resets a thread-local in c/sancov.c.
    unsafe { fuzz_worker_pc_reset_edge() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_reads_the_integer_table_c_writes_no_further() {
        // SAFETY: a constant, written once by the C compiler.
        let c = unsafe { fuzz_worker_int_table_bytes };
        assert_eq!(c as usize, std::mem::size_of::<[IntCmp; INT_CMPS]>());
    }
}
