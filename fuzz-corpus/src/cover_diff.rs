//! `fuzz-corpus cover -diff OLD`: what the corpus reaches that OLD does
//! not, and the reverse, by function and line, so that a CI job can show
//! what a night of fuzzing added (or what a pruned corpus lost).
//!
//! Both corpora run through the same library; a block counts as gained
//! when an entry of the new corpus runs it and none of OLD does, as lost
//! the other way. Every output line of a gain starts with `+`, of a loss
//! with `-`, as in a diff: first a function's line (name, place, covered
//! blocks before and after), then the source lines where a gained (lost)
//! block starts; the totals come last.

use crate::cover_report::{Block, Function, Report};
use crate::cover_text::addresses;
use crate::sources::Sources;
use fuzz_cli::CliError;
use std::io::Write;

/// Prints the differences between the report's coverage and `old_hit`
/// (per PC table entry: whether an entry of OLD ran it).
pub fn print(r: &Report, old_hit: &[bool], sources: &mut Sources) -> Result<(), CliError> {
    let olds = Old {
        name: String::new(),
        hit: old_hit,
    };
    let old = |b: &Block| olds.ran(b);
    let mut out = std::io::BufWriter::new(fuzz_cli::io::stdout());
    for (sign, want) in [('+', true), ('-', false)] {
        // A block changed this way: hit now and not before (+), or the
        // reverse (-).
        let changed = |b: &Block| b.hit == want && old(b) != want;
        for f in &r.functions {
            if all_blocks(f).any(&changed) {
                write_function(&mut out, sign, f, &old, &changed, sources)?;
            }
        }
    }
    let (mut ob, mut nb, mut gained, mut lost, mut of, mut nf, mut total) = (0, 0, 0, 0, 0, 0, 0);
    for f in &r.functions {
        let (o, g, l) = olds.function(f);
        ob += o;
        nb += f.covered;
        of += usize::from(o > 0);
        nf += usize::from(f.covered > 0);
        total += f.blocks;
        gained += g;
        lost += l;
    }
    writeln!(
        out,
        "blocks: {ob}/{total} -> {nb}/{total} (+{gained} -{lost}); functions: {of}/{n} -> {nf}/{n}",
        n = r.functions.len()
    )?;
    out.flush()?;
    Ok(())
}

/// What OLD covered of each block (per PC table entry), for the page.
pub struct Old<'a> {
    /// OLD as given.
    pub name: String,
    pub hit: &'a [bool],
}

impl Old<'_> {
    pub fn ran(&self, b: &Block) -> bool {
        self.hit.get(b.index).copied().unwrap_or(false)
    }

    /// A function's blocks OLD covered, gained and lost.
    pub fn function(&self, f: &Function) -> (usize, usize, usize) {
        let blocks: Vec<&Block> = all_blocks(f).collect();
        let before = blocks.iter().filter(|b| self.ran(b)).count();
        let gained = blocks.iter().filter(|b| b.hit && !self.ran(b)).count();
        let lost = blocks.iter().filter(|b| !b.hit && self.ran(b)).count();
        (before, gained, lost)
    }

    /// `+` where a block that starts on the line was gained, `-` where
    /// one was lost (`±` both), as the text diff marks lines.
    pub fn line(&self, l: &crate::cover_report::Line) -> Option<&'static str> {
        let gained = l.blocks.iter().any(|b| b.hit && !self.ran(b));
        let lost = l.blocks.iter().any(|b| !b.hit && self.ran(b));
        match (gained, lost) {
            (true, true) => Some("&plusmn;"),
            (true, false) => Some("+"),
            (false, true) => Some("&minus;"),
            (false, false) => None,
        }
    }
}

/// Every block of a function: those placed on lines and the others.
fn all_blocks(f: &Function) -> impl Iterator<Item = &Block> {
    f.lines
        .iter()
        .flat_map(|l| l.blocks.iter())
        .chain(f.unplaced.iter())
}

/// One function's part: its line, then the lines where a changed block
/// starts (with their source, else their blocks' addresses), then changed
/// blocks that no line holds.
fn write_function(
    out: &mut impl Write,
    sign: char,
    f: &Function,
    old: &dyn Fn(&Block) -> bool,
    changed: &dyn Fn(&Block) -> bool,
    sources: &mut Sources,
) -> Result<(), CliError> {
    let before = all_blocks(f).filter(|b| old(b)).count();
    writeln!(
        out,
        "{sign} {} {}: {before}/{n} -> {}/{n} blocks",
        f.name,
        f.location(),
        f.covered,
        n = f.blocks
    )?;
    for l in f.lines.iter().filter(|l| l.blocks.iter().any(changed)) {
        // The line's number; its file too when it is not the function's.
        let name = sources.name(l.file);
        let place = match &f.file {
            Some(own) if own == name => l.number.to_string(),
            _ => format!("{name}:{}", l.number),
        };
        let mut row = format!("{sign} {place:>6} | ").into_bytes();
        match sources.get(l.file).line(l.number) {
            Some(text) => row.extend_from_slice(text),
            None => row.extend_from_slice(addresses(l).as_bytes()),
        }
        row.push(b'\n');
        out.write_all(&row)?;
    }
    for b in f.unplaced.iter().filter(|b| changed(b)) {
        writeln!(out, "{sign} 0x{:x} (no source line)", b.offset)?;
    }
    Ok(())
}
