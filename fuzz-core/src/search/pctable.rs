//! A target library's PC table, as `fuzz-worker pc-table` reports it and
//! `fuzz-corpus cover` reads it: the one place that says how a coverage
//! feature names a basic block of the library.
//!
//! `-fsanitize-coverage=inline-8bit-counters,pc-table` gives every basic
//! block of a module one 8-bit counter and one PC table entry (its address
//! and a flags word whose bit 0 marks a function's entry block), in the
//! same order; the compiler emits each function's entries together, entry
//! block first. The worker numbers counters across modules in a fixed order
//! and reports a counter hit by an execution as the feature
//! `counter << 3 | bucket` (fuzz-worker/src/coverage.rs); an entry of the table
//! below carries that counter number, so a feature maps to a block without
//! the reader knowing how the worker lays its counters out. Addresses are
//! module-relative (the runtime PC less the module's load bias), so they
//! compare with the ELF file's symbol and line tables.
//!
//! The text form is a header line, then one line per entry:
//! `COUNTER OFFSET FLAGS`, the counter in decimal, the offset in hex
//! without `0x`, the flags in decimal.

use crate::error::{Error, Result};
use std::ops::Range;

/// The first line of the text form; a reader refuses anything else.
pub const HEADER: &str = "fuzz-worker pc-table v1";

/// One basic block of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcEntry {
    /// The worker's number for the block's counter (see `counter_of`).
    pub counter: u32,
    /// The block's address, relative to the library's load bias.
    pub offset: u64,
    /// SanitizerCoverage's flags; bit 0 marks a function's entry block.
    pub flags: u64,
}

impl PcEntry {
    pub fn is_function_entry(&self) -> bool {
        self.flags & 1 != 0
    }
}

/// The low bits of a coverage feature that hold its hit-count bucket: a
/// feature is `counter << BUCKET_BITS | bucket`.
pub const BUCKET_BITS: u32 = 3;

/// The counter (the edge) a coverage feature reports.
pub fn counter_of(feature: u32) -> u32 {
    feature >> BUCKET_BITS
}

/// The text form of a table.
pub fn format(entries: &[PcEntry]) -> String {
    let mut out = String::with_capacity(16 + entries.len() * 16);
    out.push_str(HEADER);
    out.push('\n');
    for e in entries {
        out.push_str(&format!("{} {:x} {}\n", e.counter, e.offset, e.flags));
    }
    out
}

/// Reads the text form. An error names the line at fault.
pub fn parse(text: &str) -> Result<Vec<PcEntry>> {
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Err(Error::Invalid(format!(
            "not a PC table (want {HEADER:?} on the first line)"
        )));
    }
    let mut entries = Vec::new();
    for (i, line) in lines.enumerate() {
        let bad = || Error::Invalid(format!("PC table line {}: {line:?}", i + 2));
        let mut f = line.split(' ');
        let (Some(c), Some(o), Some(fl), None) = (f.next(), f.next(), f.next(), f.next()) else {
            return Err(bad());
        };
        entries.push(PcEntry {
            counter: c.parse().map_err(|_| bad())?,
            offset: u64::from_str_radix(o, 16).map_err(|_| bad())?,
            flags: fl.parse().map_err(|_| bad())?,
        });
    }
    Ok(entries)
}

/// The functions of a table, as ranges of its entries: each starts at an
/// entry block and runs to the next one. Entries before the first entry
/// block (a table the compiler did not write, in practice) form a function
/// of their own.
pub fn functions(entries: &[PcEntry]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        match out.last_mut() {
            Some(last) if !e.is_function_entry() => last.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(counter: u32, offset: u64, flags: u64) -> PcEntry {
        PcEntry {
            counter,
            offset,
            flags,
        }
    }

    #[test]
    fn round_trip() {
        let t = vec![e(0, 0x1150, 1), e(1, 0x1198, 0), e(7, 0xff_ffff_ffff, 2)];
        let text = format(&t);
        assert_eq!(
            text,
            "fuzz-worker pc-table v1\n0 1150 1\n1 1198 0\n7 ffffffffff 2\n"
        );
        assert_eq!(parse(&text).unwrap(), t);
        assert_eq!(parse(HEADER).unwrap(), vec![]);
    }

    #[test]
    fn refuses_what_is_not_a_table() {
        assert!(parse("").is_err());
        assert!(parse("fuzz-worker pc-table v2\n").is_err());
        let err = parse("fuzz-worker pc-table v1\n0 10 1\n1 zz 0\n").unwrap_err();
        assert!(err.to_string().contains("line 3"), "{err}");
        assert!(parse("fuzz-worker pc-table v1\n0 10\n").is_err());
        assert!(parse("fuzz-worker pc-table v1\n0 10 1 4\n").is_err());
    }

    #[test]
    fn functions_start_at_entry_blocks() {
        let t = vec![
            e(0, 0x10, 1),
            e(1, 0x14, 0),
            e(2, 0x18, 0),
            e(3, 0x20, 1),
            e(4, 0x30, 1),
            e(5, 0x34, 0),
        ];
        assert_eq!(functions(&t), vec![0..3, 3..4, 4..6]);
        let headless = vec![e(0, 0x10, 0), e(1, 0x14, 0), e(2, 0x20, 1)];
        assert_eq!(functions(&headless), vec![0..2, 2..3]);
        assert!(functions(&[]).is_empty());
        assert_eq!(counter_of(5 << 3 | 7), 5);
    }
}
