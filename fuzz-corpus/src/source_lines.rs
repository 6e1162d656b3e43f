//! Where a function's code is in its source, for `cover -html`, `-lines`
//! and `-diff`: each line of the function that holds code, the PC table's
//! blocks placed on the line where they start, and, on x86-64 with the
//! function's extent known, its machine blocks (`machine_flow.rs`) with
//! the lines their instructions are on, so that `cover_hits.rs` can mark
//! a line by what ran of every instruction of it. There, inlined code is
//! placed on the lines of the function inlined (one line, wherever it was
//! inlined, its copies summed); elsewhere it is placed at the line of the
//! call, and a line is as covered as the blocks that start on it (as
//! libFuzzer's `-print_coverage` and LLVM's sancov reports place blocks).

use crate::machine_flow::Flow;
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
#[derive(Clone, Debug, Default)]
pub struct Placed {
    pub lines: Vec<CodeLine>,
    pub unplaced: Vec<usize>,
    /// Its machine code's blocks, when it could be read.
    pub machine: Option<Machine>,
    /// The functions inlined into it, by name (where its machine code was
    /// read).
    pub inlined: Vec<String>,
}

/// A function's machine blocks (`machine_flow.rs`) and where they are
/// in its source.
#[derive(Clone, Debug)]
pub struct Machine {
    pub flow: Flow,
    /// Per machine block, the lines (indices into `Placed::lines`) its
    /// instructions are on.
    pub block_lines: Vec<Vec<usize>>,
    /// The line of each conditional move or set.
    pub choices: Vec<usize>,
    /// Per line: whether code inlined from another function is on it.
    pub inlined_lines: Vec<bool>,
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

/// Places one function's blocks, and finds its other lines with code.
/// With the function's extent (its symbol's size) and its x86-64 code,
/// every instruction is placed where the line table puts it, inlined code
/// on the lines of the function inlined (`place_machine`); otherwise the
/// blocks where they start and the other rows of the line table at the
/// line of the call.
fn place(lookup: &Lookup, table: &[PcEntry], range: Range<usize>, files: &mut Files) -> Placed {
    let mut order: Vec<usize> = range.clone().collect();
    order.sort_by_key(|&i| table[i].offset);
    let mut end = None;
    if let (true, Some(&first), Some(&last)) = (lookup.has_lines(), order.first(), order.last()) {
        let lo = table[range.start].offset.min(table[first].offset);
        end = lookup
            .function_end(lo)
            .filter(|&end| end > table[last].offset);
    }
    if let Some(hi) = end {
        if let Some(placed) = place_machine(lookup, table, range.clone(), hi, files) {
            return placed;
        }
    }
    let mut lines: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
    let mut unplaced = Vec::new();
    for &i in &order {
        match lookup.outer_line(table[i].offset) {
            Some((file, line)) => lines.entry((files.id(file), line)).or_default().push(i),
            None => unplaced.push(i),
        }
    }
    if lookup.has_lines() && !range.is_empty() {
        let lo = table[range.start].offset;
        let last = order.last().map_or(lo, |&i| table[i].offset);
        let hi = end.unwrap_or(last.saturating_add(1));
        for (a, _) in lookup.code_ranges(lo, hi) {
            if let Some((file, line)) = lookup.outer_line(a) {
                lines.entry((files.id(file), line)).or_default();
            }
        }
    }
    Placed {
        lines: code_lines(lines),
        unplaced,
        machine: None,
        inlined: Vec::new(),
    }
}

fn code_lines(lines: BTreeMap<(usize, u32), Vec<usize>>) -> Vec<CodeLine> {
    lines
        .into_iter()
        .map(|((file, number), blocks)| CodeLine {
            file,
            number,
            blocks,
        })
        .collect()
}

/// Places a function through its machine code (`lo..hi`): its machine
/// blocks, each with the lines its instructions are on, and its counted
/// blocks on the line of their first instruction. `None` when the code
/// cannot be read or decoded.
fn place_machine(
    lookup: &Lookup,
    table: &[PcEntry],
    range: Range<usize>,
    hi: u64,
    files: &mut Files,
) -> Option<Placed> {
    let lo = table[range.start].offset;
    let code = lookup.x86_64_code(lo, hi)?;
    let counted: HashMap<u64, usize> = range.clone().map(|i| (table[i].offset, i)).collect();
    let flow = Flow::decode(code, lo, &counted, |a| lookup.rodata_i32(a))?;
    let rows: Vec<(u64, u64, (usize, u32))> = lookup
        .line_rows(lo, hi)
        .into_iter()
        .map(|(a, b, file, line)| (a, b, (files.id(file), line)))
        .collect();
    // Rows are in address order and do not overlap.
    let key_of = |a: u64| {
        let r = rows[rows.partition_point(|&(_, e, _)| e <= a)..].first()?;
        (r.0 <= a).then_some(r.2)
    };
    let mut lines: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
    let mut unplaced = Vec::new();
    let mut order: Vec<usize> = range.collect();
    order.sort_by_key(|&i| table[i].offset);
    for &i in &order {
        match key_of(table[i].offset) {
            Some(key) => lines.entry(key).or_default().push(i),
            None => unplaced.push(i),
        }
    }
    for b in &flow.blocks {
        for &a in &b.instrs {
            if let Some(key) = key_of(a) {
                lines.entry(key).or_default();
            }
        }
    }
    let keys: Vec<(usize, u32)> = lines.keys().copied().collect();
    let line_of = |a: u64| keys.binary_search(&key_of(a)?).ok();
    let mut inlined = Vec::new();
    let mut inlined_lines = vec![false; keys.len()];
    for &(a, _, key) in &rows {
        if let Some(name) = lookup.inlined_name(a) {
            inlined.push(name);
            if let Ok(l) = keys.binary_search(&key) {
                inlined_lines[l] = true;
            }
        }
    }
    inlined.sort();
    inlined.dedup();
    let block_lines = flow
        .blocks
        .iter()
        .map(|b| {
            let mut l: Vec<usize> = b.instrs.iter().filter_map(|&a| line_of(a)).collect();
            l.sort_unstable();
            l.dedup();
            l
        })
        .collect();
    let choices = flow
        .blocks
        .iter()
        .flat_map(|b| b.choices.iter().filter_map(|&a| line_of(a)))
        .collect();
    Some(Placed {
        lines: code_lines(lines),
        unplaced,
        machine: Some(Machine {
            flow,
            block_lines,
            choices,
            inlined_lines,
        }),
        inlined,
    })
}
