//! `fuzz-worker pc-table LIB`: the PC table of a target library, for
//! `fuzz-corpus cover`'s coverage report.
//!
//! The corpus itself is not run here: fuzz-corpus runs its entries through
//! `fuzz-worker serve`, as `merge -lib` does (crashes and hangs cost a
//! worker, not the report), and each run's features name the counters it
//! hit. This table says which basic block of the library each counter
//! stands for, as a module-relative address that the ELF file's symbol
//! and line tables can name (`fuzz_core::search::pctable`). Counters are numbered
//! by `CounterMap`, the same way in every worker that loads the library.
//!
//! Each instrumented module registers its inline counters and its PC table
//! from its constructor, one entry per block in the same order; a counter
//! region and a PC table are paired by the module they lie in. Blocks of
//! other instrumented modules loaded with the library are left out.

use crate::coverage::CounterMap;
use crate::library::Library;
use crate::sancov;
use fuzz_core::search::pctable::PcEntry;

/// The entries of `lib`'s own PC table, in counter order; empty when the
/// library was built without `-fsanitize-coverage=pc-table` (or without
/// inline 8-bit counters to go with it).
pub fn pc_table(lib: &Library) -> Vec<PcEntry> {
    let map = CounterMap::new(lib.uses_pc_map);
    let regions = sancov::REGIONS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let tables = sancov::PC_TABLES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let objects = crate::loaded::objects();
    let Some(me) = objects.iter().filter(|m| !m.is_executable()).find(|m| {
        m.path == lib.path || std::fs::canonicalize(&m.path).is_ok_and(|p| p == lib.path)
    }) else {
        return Vec::new();
    };
    let mine_regions = regions.iter().filter(|r| me.contains(r.start as usize));
    let mine_tables = tables.iter().filter(|t| me.contains(t.start as usize));
    let mut out = Vec::new();
    for (region, table) in mine_regions.zip(mine_tables) {
        let Some(first) = map.first_counter(region.start) else {
            continue;
        };
        if region.len != table.len {
            continue; // not a pair after all: no block can be named
        }
        // SAFETY: the compiler registered `len` (pc, flags) pairs of words
        // in a module that stays loaded for the life of the process.
        let words = unsafe { std::slice::from_raw_parts(table.start, table.len * 2) };
        for (i, pair) in words.chunks_exact(2).enumerate() {
            // LLVM can leave a block it deleted in the table as a small
            // constant with no relocation: not an address of the library,
            // and no block to name.
            if !me.contains(pair[0]) {
                continue;
            }
            out.push(PcEntry {
                counter: first + i as u32,
                offset: pair[0].wrapping_sub(me.bias) as u64,
                flags: pair[1] as u64,
            });
        }
    }
    out
}
