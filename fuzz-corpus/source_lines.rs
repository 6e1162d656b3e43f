//! Where a function's blocks are in its source, for `cover -html`,
//! `-lines` and `-diff`: each block of the PC table is placed on the line
//! its address has in the DWARF line table, and every other line that
//! holds code of the function is kept too, with no block.
//!
//! A block is placed where it *starts*, as libFuzzer's `-print_coverage`
//! and LLVM's sancov reports place it: the PC table gives where blocks
//! start, not where they end, and SanitizerCoverage leaves uncounted the
//! blocks whose run another block's count implies (a block that joins two
//! branches, one that only leads to counted ones), so the code after a
//! block start need not belong to that block. A line is then exactly as
//! covered as the blocks that start on it; a line that holds code but
//! starts no block has no count of its own (`cover.rs` marks it only when
//! its whole function is or is not reached). Code inlined into a function
//! is placed at the line of the call, so that a function's lines are its
//! own.

use crate::symbols::Lookup;
use fuzz_core::search::pctable::PcEntry;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

/// One source line of a function that holds code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLine {
    /// Index into `Files::paths`.
    pub file: usize,
    pub number: u32,
    /// The blocks (PC table indices) that start on the line, in address
    /// order; none when the line's code belongs to blocks starting
    /// elsewhere.
    pub blocks: Vec<usize>,
}

/// A function's lines, in order of file and line, and the blocks the
/// line table does not place (no debug information for them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placed {
    pub lines: Vec<CodeLine>,
    pub unplaced: Vec<usize>,
}

/// The source files lines are in, each named once, as DWARF names them.
#[derive(Default)]
pub struct Files {
    pub paths: Vec<String>,
    index: HashMap<String, usize>,
}

impl Files {
    fn id(&mut self, path: String) -> usize {
        if let Some(&i) = self.index.get(&path) {
            return i;
        }
        self.paths.push(path.clone());
        self.index.insert(path, self.paths.len() - 1);
        self.paths.len() - 1
    }
}

/// Places the blocks of each function (`ranges` of `table`).
pub fn place_all(
    lookup: &Lookup,
    table: &[PcEntry],
    ranges: &[Range<usize>],
) -> (Files, Vec<Placed>) {
    let mut files = Files::default();
    let placed = ranges
        .iter()
        .map(|r| place(lookup, table, r.clone(), &mut files))
        .collect();
    (files, placed)
}

/// Places one function's blocks, and finds its other lines with code: the
/// line table's rows from its entry to the end of its symbol (to its last
/// block start without one).
fn place(lookup: &Lookup, table: &[PcEntry], range: Range<usize>, files: &mut Files) -> Placed {
    let mut lines: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
    let mut unplaced = Vec::new();
    let mut order: Vec<usize> = range.clone().collect();
    order.sort_by_key(|&i| table[i].offset);
    for &i in &order {
        match lookup.outer_line(table[i].offset) {
            Some((file, line)) => lines.entry((files.id(file), line)).or_default().push(i),
            None => unplaced.push(i),
        }
    }
    if lookup.has_lines() && !range.is_empty() {
        let lo = table[range.start].offset;
        let last = order.last().map_or(lo, |&i| table[i].offset);
        let hi = lookup
            .function_end(lo)
            .filter(|&end| end > last)
            .unwrap_or(last.saturating_add(1));
        for (a, _) in lookup.code_ranges(lo, hi) {
            if let Some((file, line)) = lookup.outer_line(a) {
                lines.entry((files.id(file), line)).or_default();
            }
        }
    }
    Placed {
        lines: lines
            .into_iter()
            .map(|((file, number), blocks)| CodeLine {
                file,
                number,
                blocks,
            })
            .collect(),
        unplaced,
    }
}
