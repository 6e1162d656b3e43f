//! `fuzz-corpus cover`: which functions of a target library a corpus
//! reaches, block by block.
//!
//! The entries run through `fuzz-worker serve` one at a time, as in
//! `merge -lib` (a crash or hang skips the entry and costs a worker), and
//! the features each run reports name the counters it hit. `fuzz-worker
//! pc-table` says which basic block of the library each counter is
//! (`fuzz_core::search::pctable`); the blocks are grouped into functions at their
//! entry blocks, and the functions named from the ELF file
//! (`symbols.rs`), and, for the page, `-lines` and `-diff`, placed on
//! their source lines (`source_lines.rs`). Everything is read and checked
//! before anything runs, and the HTML report is written only once the
//! whole report is made.

use crate::cover_hits::{self, Hits, Places};
use crate::source_lines::{self, Placed};
use crate::sources::Sources;
use crate::symbols::Symbol;
use crate::{corpus_files, cover_diff, cover_text, TOOL};
use fuzz_cli::io::is_stdio;
use fuzz_cli::{CliError, Status};
use fuzz_core::search::pctable::{self, PcEntry};
use fuzz_core::store::corpus::Entry;
use fuzz_core::worker::client::Session;
use fuzz_core::{format::codec, store::fsutil, ArgType};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// What `fuzz-corpus cover` was asked for.
pub struct Options<'a> {
    pub lib: &'a Path,
    pub target: Option<&'a str>,
    pub timeout: Duration,
    pub html: Option<&'a Path>,
    /// `-lines FUNC`: print that function's source instead of the listing.
    pub lines: Option<&'a str>,
    /// `-diff OLD`: print what the corpus reaches that OLD does not, and
    /// the reverse, instead of the listing.
    pub diff: Option<&'a Path>,
    pub dirs: &'a [PathBuf],
}

/// What is read and checked before anything runs.
struct Prepared {
    entries: Vec<Entry>,
    old: Option<Vec<Entry>>,
    worker: PathBuf,
    /// -target's, or the one its operands' testdata or cache path names.
    target: Option<String>,
    table: Vec<PcEntry>,
    ranges: Vec<Range<usize>>,
    layout: Layout,
    /// `-lines FUNC`: the functions it names.
    selected: Vec<usize>,
}

/// The library's functions, named, and their lines when asked for.
struct Layout {
    symbols: Vec<Symbol>,
    files: Vec<String>,
    placed: Vec<Placed>,
}

pub fn run(o: &Options) -> Result<Status, CliError> {
    let p = prepare(o)?;
    let start = Instant::now();
    fuzz_cli::interrupt::install();
    let stop = fuzz_cli::interrupt::interrupted;
    let scratch = fuzz_cli::scratch::dir()?;
    let all = p.entries.iter().chain(p.old.iter().flatten());
    let capacity = all.map(|e| e.bytes.len()).max().unwrap_or(0) + 4096;
    let mut session = Session::start(
        &p.worker,
        o.lib,
        p.target.as_deref(),
        scratch.path(),
        capacity,
        stop,
    )
    .map_err(|e| CliError::misuse(format!("{}: {e}", fuzz_core::error::shown(o.lib))))?;
    let types: Vec<ArgType> = session.desc.args.clone();
    for e in p.entries.iter().chain(p.old.iter().flatten()) {
        if let Ok(values) = &e.values {
            codec::check_types(values, &types)
                .map_err(|err| CliError::from(err.in_file(&e.path)))?;
        }
    }
    let places = Places::new(&p.table, &p.ranges, &p.layout.placed);
    let hits = cover_hits::run_entries(&mut session, &p.entries, o.timeout, &places)?;
    let old_hits = match &p.old {
        Some(old) => Some(cover_hits::run_entries(
            &mut session,
            old,
            o.timeout,
            &places,
        )?),
        None => None,
    };
    let target_name = session.desc.name.clone();
    session.stop();
    for w in hits
        .warnings
        .iter()
        .chain(old_hits.iter().flat_map(|h| &h.warnings))
    {
        fuzz_cli::exit::warn(TOOL, w);
    }
    let report = Report {
        library: crate::file_name(o.lib),
        target: target_name,
        corpus: o.dirs.iter().map(|d| fuzz_core::error::shown(d)).collect(),
        entries: p.entries.len(),
        skipped: hits.skipped,
        functions: functions(&p, &hits),
        files: p.layout.files.clone(),
    };
    output(o, &p, &report, old_hits.as_ref())?;
    let old = p.old.as_ref().zip(old_hits.as_ref());
    eprintln!("{TOOL}: {}", summary(&report, old, start.elapsed()));
    Ok(Status::Success)
}

/// The line on stderr that ends a run: what ran, how long, the totals.
fn summary(r: &Report, old: Option<(&Vec<Entry>, &Hits)>, took: Duration) -> String {
    let entries = |n: usize| format!("{n} {}", if n == 1 { "entry" } else { "entries" });
    let old = match old {
        Some((old, h)) => format!(
            ", {} of -diff's ({} skipped)",
            entries(old.len()),
            h.skipped
        ),
        None => String::new(),
    };
    let (cf, f, cb, b) = totals(&r.functions);
    format!(
        "ran {} ({} skipped){old} in {:.1}s: {cf}/{f} functions, {cb}/{b} blocks covered",
        entries(r.entries),
        r.skipped,
        took.as_secs_f64()
    )
}

/// Reads and checks everything before anything runs: the corpus (and
/// -diff's), the output's directory, the library's PC table, names and
/// lines, and -lines' function.
fn prepare(o: &Options) -> Result<Prepared, CliError> {
    let entries = read_entries(o.dirs)?;
    let old = match o.diff {
        Some(d) => Some(
            read_entries(std::slice::from_ref(&d.to_path_buf()))
                .map_err(|e| CliError::misuse(format!("-diff {e}")))?,
        ),
        None => None,
    };
    if let Some(out) = o.html {
        if is_stdio(out) {
            if let Some(flag) = [(o.lines.is_some(), "-lines"), (o.diff.is_some(), "-diff")]
                .iter()
                .find_map(|&(given, flag)| given.then_some(flag))
            {
                return Err(CliError::misuse(format!(
                    "-html - and {flag} both write to stdout: give -html a file"
                )));
            }
        } else {
            fuzz_cli::io::check_output_file(out, "-html")?;
        }
    }
    std::fs::metadata(o.lib).map_err(|e| CliError::io(o.lib, &e))?;
    fuzz_cli::target::check_library_name(o.lib)?;
    let worker = fuzz_cli::find_worker::path()?;
    let table = read_pc_table(&worker, o.lib)?;
    if table.is_empty() {
        return Err(CliError::misuse(format!(
            "{}: has no PC table to name covered blocks by: build it with \
             -fsanitize-coverage=inline-8bit-counters,pc-table (or -fsanitize=fuzzer-no-link); \
             trace-pc-guard and gcc's trace-pc builds have none",
            fuzz_core::error::shown(o.lib)
        )));
    }
    let ranges = pctable::functions(&table);
    let want_lines = o.html.is_some() || o.lines.is_some() || o.diff.is_some();
    let layout = layout(o.lib, &table, &ranges, want_lines)?;
    let selected = match o.lines {
        Some(name) => select(&layout.symbols, name, o.lib)?,
        None => Vec::new(),
    };
    let operands: Vec<&Path> = o.dirs.iter().map(PathBuf::as_path).collect();
    let target = fuzz_cli::target::choose(&worker, o.lib, o.target, &operands);
    Ok(Prepared {
        entries,
        old,
        worker,
        target,
        table,
        ranges,
        layout,
        selected,
    })
}

/// Names the functions and, when `want_lines`, places their blocks on
/// source lines.
fn layout(
    lib: &Path,
    table: &[PcEntry],
    ranges: &[Range<usize>],
    want_lines: bool,
) -> Result<Layout, CliError> {
    crate::symbols::with_lookup(lib, |lookup| {
        let symbols = ranges
            .iter()
            .map(|r| lookup.symbol(table[r.start].offset))
            .collect();
        let (files, placed) = if want_lines {
            let (files, placed) = source_lines::place_all(lookup, table, ranges);
            (files.paths, placed)
        } else {
            (Vec::new(), vec![Placed::default(); ranges.len()])
        };
        Layout {
            symbols,
            files,
            placed,
        }
    })
    .map_err(|e| CliError::misuse(format!("{}: {e}", fuzz_core::error::shown(lib))))
}

/// The functions `-lines FUNC` names: those of that name, else those
/// whose name ends in `::FUNC` (a Rust or C++ path), else the one whose
/// entry is at the address FUNC (`0x…`, as the listing shows a function
/// without a name).
fn select(symbols: &[Symbol], name: &str, lib: &Path) -> Result<Vec<usize>, CliError> {
    let find = |pred: &dyn Fn(&Symbol) -> bool| -> Vec<usize> {
        (0..symbols.len()).filter(|&i| pred(&symbols[i])).collect()
    };
    let mut found = find(&|s| s.name == name);
    if found.is_empty() && !name.is_empty() {
        let suffix = format!("::{name}");
        found = find(&|s| s.name.ends_with(&suffix));
    }
    if found.is_empty() {
        return Err(CliError::misuse(format!(
            "-lines {name}: no function of that name in {} (the listing names them)",
            fuzz_core::error::shown(lib)
        )));
    }
    Ok(found)
}

/// Writes what was asked for: the listing, or -lines' or -diff's text,
/// and the page.
fn output(o: &Options, p: &Prepared, r: &Report, old: Option<&Hits>) -> Result<(), CliError> {
    let lib_time = std::fs::metadata(o.lib).and_then(|m| m.modified()).ok();
    let mut sources = Sources::new(&r.files, lib_time);
    let page = o.html.map(|_| crate::cover_html::render(r, &mut sources));
    match (o.html, &page) {
        (Some(out), Some(page)) if is_stdio(out) => {
            return fuzz_cli::io::write_stdout(page.as_bytes());
        }
        _ => {}
    }
    match old {
        Some(old) => cover_diff::print(r, &old.hit, &mut sources)?,
        None if o.lines.is_some() => cover_text::print_lines(r, &p.selected, &mut sources)?,
        None => cover_text::print_listing(r)?,
    }
    if let (Some(out), Some(page)) = (o.html, &page) {
        fsutil::write_atomic(out, page.as_bytes())?;
    }
    Ok(())
}

/// Every corpus file, read, each of which must parse.
fn read_entries(dirs: &[PathBuf]) -> Result<Vec<Entry>, CliError> {
    let files = corpus_files(dirs)?;
    let mut entries = Vec::with_capacity(files.len());
    for path in &files {
        let entry = crate::read_entry(path)?;
        if let Err(e) = &entry.values {
            return Err(CliError::misuse(e.to_string()));
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// The library's functions, named, with the blocks and lines the entries
/// covered.
fn functions(p: &Prepared, hits: &Hits) -> Vec<Function> {
    let cwd = std::env::current_dir().ok();
    let mut line_id = 0;
    let block = |i: usize| Block {
        index: i,
        offset: p.table[i].offset,
        hit: hits.hit[i],
    };
    p.ranges
        .iter()
        .zip(&p.layout.symbols)
        .zip(&p.layout.placed)
        .enumerate()
        .map(|(f, ((r, sym), placed))| {
            let lines = placed
                .lines
                .iter()
                .map(|l| {
                    line_id += 1;
                    Line {
                        file: l.file,
                        number: l.number,
                        blocks: l.blocks.iter().map(|&i| block(i)).collect(),
                        entries: hits.line_entries[line_id - 1],
                    }
                })
                .collect();
            Function {
                name: sym.name.clone(),
                file: sym.file.as_deref().map(|f| shorten(f, cwd.as_deref())),
                line: sym.line,
                offset: p.table[r.start].offset,
                blocks: r.len(),
                covered: hits.hit[r.clone()].iter().filter(|&&h| h).count(),
                reached_by: hits.func_entries[f],
                lines,
                unplaced: placed.unplaced.iter().map(|&i| block(i)).collect(),
            }
        })
        .collect()
}

/// Asks `fuzz-worker pc-table` for the library's PC table. The worker's
/// own complaint (a library that cannot be loaded, …) is the error.
fn read_pc_table(worker: &Path, lib: &Path) -> Result<Vec<PcEntry>, CliError> {
    let out = std::process::Command::new(worker)
        .arg("pc-table")
        .arg(lib)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| CliError::misuse(format!("cannot start {}: {e}", worker.display())))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("fuzz-worker: "))
            .map(str::to_string)
            .unwrap_or_else(|| format!("{} pc-table failed ({})", worker.display(), out.status));
        return Err(CliError::misuse(why));
    }
    pctable::parse(&String::from_utf8_lossy(&out.stdout)).map_err(|e| {
        CliError::misuse(format!(
            "{}: {e}: install matching versions of the tools",
            worker.display()
        ))
    })
}

/// A source path as shown: relative to the current directory when below it.
pub fn shorten(file: &str, cwd: Option<&Path>) -> String {
    if let Some(rest) = cwd.and_then(|c| Path::new(file).strip_prefix(c).ok()) {
        return rest.display().to_string();
    }
    file.to_string()
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
    }

    #[test]
    fn paths_below_the_current_directory_are_relative() {
        let cwd = Path::new("/src/proj");
        assert_eq!(shorten("/src/proj/lib/a.c", Some(cwd)), "lib/a.c");
        assert_eq!(shorten("/usr/include/x.h", Some(cwd)), "/usr/include/x.h");
        assert_eq!(shorten("rel.c", None), "rel.c");
    }
}
