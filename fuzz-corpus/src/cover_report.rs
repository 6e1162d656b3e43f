//! The coverage report `fuzz-corpus cover` makes, as its listing, its
//! page, -lines and -diff read it: functions, their blocks and lines, and
//! the totals. Made by `cover.rs`, written by `cover_text.rs`,
//! `cover_html.rs` and `cover_diff.rs`.

/// One basic block (a PC table entry) and whether any entry ran it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its index in the PC table.
    pub index: usize,
    /// Its module-relative address.
    pub offset: u64,
    pub hit: bool,
}

/// A source line of a function that holds code (`source_lines.rs`).
#[derive(Clone, Debug)]
pub struct Line {
    /// Index into `Report::files`.
    pub file: usize,
    pub number: u32,
    /// The blocks that start on the line; none when its code belongs to
    /// blocks that start elsewhere.
    pub blocks: Vec<Block>,
    /// How many corpus entries run one of its blocks.
    pub entries: usize,
    /// Its mark from what ran of each of its instructions, when the
    /// function's machine code was read (`machine_flow.rs`).
    pub ran: Option<LineRan>,
}

/// A line's mark from its instructions, and the entries that ran any of
/// them (`None` where the graph cannot tell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRan {
    pub mark: Mark,
    pub entries: Option<usize>,
    /// Its conditional moves and sets: choices made without a branch,
    /// whose two sides no count tells apart.
    pub choices: usize,
}

/// How much of a line the corpus reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Every block that starts on it ran.
    Covered,
    /// Some of them ran.
    Partly,
    /// None ran.
    NotReached,
    /// It holds code but starts no block, in a function partly covered:
    /// its code runs as part of blocks whose counts do not say.
    Unknown,
}

impl Mark {
    /// The CSS class of the page (the same as a function's).
    pub fn class(self) -> &'static str {
        match self {
            Mark::Covered => "full",
            Mark::Partly => "part",
            Mark::NotReached => "none",
            Mark::Unknown => "code",
        }
    }
    /// The one-character marker of `-lines` and `-diff`.
    pub fn symbol(self) -> char {
        match self {
            Mark::Covered => '>',
            Mark::Partly => '~',
            Mark::NotReached => '!',
            Mark::Unknown => '.',
        }
    }
}

/// One function of the library and how much of it the corpus reached.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    /// Module-relative address of its entry block.
    pub offset: u64,
    pub blocks: usize,
    pub covered: usize,
    /// How many corpus entries reach it.
    pub reached_by: usize,
    /// Its source lines with code, in order of file and line (empty
    /// unless lines were asked for, or without debug information).
    pub lines: Vec<Line>,
    /// Its blocks the line table does not place.
    pub unplaced: Vec<Block>,
}

impl Function {
    /// `file:line`; without debug information, the entry's address in
    /// the library (`0x…`), which also tells apart functions of one name
    /// (instances of one generic function).
    pub fn location(&self) -> String {
        match (&self.file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            (Some(f), None) => f.clone(),
            _ => format!("0x{:x}", self.offset),
        }
    }

    /// A line's mark. A line that starts no block is marked only when
    /// the whole function is reached or is not.
    pub fn mark(&self, line: &Line) -> Mark {
        if let Some(r) = line.ran {
            return r.mark;
        }
        let (hit, all) = if line.blocks.is_empty() {
            (self.covered, self.blocks)
        } else {
            let hit = line.blocks.iter().filter(|b| b.hit).count();
            (hit, line.blocks.len())
        };
        match (hit, line.blocks.is_empty()) {
            (0, _) => Mark::NotReached,
            (h, _) if h == all => Mark::Covered,
            (_, true) => Mark::Unknown,
            _ => Mark::Partly,
        }
    }

    /// The entries that reach a line, where the counts say: for a line
    /// that starts no block, only 0 in a function not reached.
    pub fn line_entries(&self, line: &Line) -> Option<usize> {
        if let Some(r) = line.ran {
            return r.entries;
        }
        if line.blocks.is_empty() {
            (self.covered == 0).then_some(0)
        } else {
            Some(line.entries)
        }
    }
}

/// The whole report.
pub struct Report {
    /// The library's file name.
    pub library: String,
    pub target: String,
    /// The corpus operands, as given.
    pub corpus: Vec<String>,
    /// Entries run, and of those skipped (crashed or hung).
    pub entries: usize,
    pub skipped: usize,
    pub functions: Vec<Function>,
    /// The source files lines are in, as the debug information names
    /// them (`Line::file` indexes it).
    pub files: Vec<String>,
}

/// Totals: (covered functions, functions, covered blocks, blocks).
pub fn totals<'a>(
    functions: impl IntoIterator<Item = &'a Function>,
) -> (usize, usize, usize, usize) {
    functions
        .into_iter()
        .fold((0, 0, 0, 0), |(cf, f, cb, b), x| {
            (
                cf + usize::from(x.covered > 0),
                f + 1,
                cb + x.covered,
                b + x.blocks,
            )
        })
}

/// A percentage with one decimal, rounded, except that only what is
/// complete shows 100.0% and only what is untouched shows 0.0%.
pub fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "0.0%".to_string();
    }
    let tenths = ((part as u128 * 2000 + whole as u128) / (2 * whole as u128)) as u64;
    let tenths = if part == 0 || part == whole {
        tenths
    } else {
        tenths.clamp(1, 999)
    };
    format!("{}.{}%", tenths / 10, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_but_never_to_the_ends() {
        assert_eq!(percent(0, 7), "0.0%");
        assert_eq!(percent(7, 7), "100.0%");
        assert_eq!(percent(2, 3), "66.7%");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(1, 8), "12.5%");
        assert_eq!(percent(1, 100_000), "0.1%");
        assert_eq!(percent(99_999, 100_000), "99.9%");
        assert_eq!(percent(0, 0), "0.0%");
    }

    #[test]
    fn lines_are_marked_by_the_blocks_that_start_on_them() {
        let block = |index, hit| Block {
            index,
            offset: 0x1000 + index as u64,
            hit,
        };
        let line = |blocks: Vec<Block>, entries| Line {
            file: 0,
            number: 1,
            blocks,
            entries,
            ran: None,
        };
        let function = |covered, blocks| Function {
            name: "f".to_string(),
            file: None,
            line: None,
            offset: 0x1000,
            blocks,
            covered,
            reached_by: usize::from(covered > 0),
            lines: Vec::new(),
            unplaced: Vec::new(),
        };
        let partly = function(2, 4);
        let both = line(vec![block(0, true), block(1, true)], 3);
        let some = line(vec![block(0, true), block(1, false)], 1);
        let none = line(vec![block(2, false)], 0);
        let code = line(Vec::new(), 0);
        assert_eq!(partly.mark(&both), Mark::Covered);
        assert_eq!(partly.mark(&some), Mark::Partly);
        assert_eq!(partly.mark(&none), Mark::NotReached);
        assert_eq!(partly.mark(&code), Mark::Unknown);
        assert_eq!(partly.line_entries(&both), Some(3));
        assert_eq!(partly.line_entries(&code), None);
        // A line that starts no block takes its whole function's state
        // when that says it: all blocks ran, or none.
        assert_eq!(function(4, 4).mark(&code), Mark::Covered);
        assert_eq!(function(4, 4).line_entries(&code), None);
        assert_eq!(function(0, 4).mark(&code), Mark::NotReached);
        assert_eq!(function(0, 4).line_entries(&code), Some(0));
        // Where the machine code was read, its mark is the line's.
        let walked = Line {
            ran: Some(LineRan {
                mark: Mark::Partly,
                entries: Some(2),
                choices: 1,
            }),
            ..line(Vec::new(), 0)
        };
        assert_eq!(function(0, 4).mark(&walked), Mark::Partly);
        assert_eq!(function(0, 4).line_entries(&walked), Some(2));
    }
}
