//! `fuzz-corpus cover`: which functions of a target library a corpus
//! reaches, block by block.
//!
//! The entries run through `fuzz-worker serve` one at a time, as in
//! `merge -lib` (a crash or hang skips the entry and costs a worker), and
//! the features each run reports name the counters it hit. `fuzz-worker
//! pc-table` says which basic block of the library each counter is
//! (`fuzz_core::search::pctable`); the blocks are grouped into functions at their
//! entry blocks, and the functions named from the ELF file
//! (`symbols.rs`). Everything is read and checked before anything runs,
//! and the HTML report is written only once the whole report is made.

use crate::{corpus_files, TOOL};
use fuzz_cli::io::is_stdio;
use fuzz_cli::{CliError, Status};
use fuzz_core::search::pctable::{self, PcEntry};
use fuzz_core::store::corpus::Entry;
use fuzz_core::worker::client::Session;
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::protocol::{Exec, Request, Response};
use fuzz_core::{format::codec, store::fsutil, ArgType};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

pub fn run(
    lib: &Path,
    target: Option<&str>,
    timeout: Duration,
    html: Option<&Path>,
    dirs: &[PathBuf],
) -> Result<Status, CliError> {
    // Everything is read and checked before anything runs.
    let entries = read_entries(dirs)?;
    if let Some(out) = html.filter(|p| !is_stdio(p)) {
        check_output(out)?;
    }
    std::fs::metadata(lib).map_err(|e| CliError::io(lib, &e))?;
    let worker_bin = fuzz_cli::find_worker::path()?;
    let table = read_pc_table(&worker_bin, lib)?;
    if table.is_empty() {
        return Err(CliError::misuse(format!(
            "{}: has no PC table to name covered blocks by: build it with \
             -fsanitize-coverage=inline-8bit-counters,pc-table (or -fsanitize=fuzzer-no-link); \
             trace-pc-guard and gcc's trace-pc builds have none",
            lib.display()
        )));
    }

    let scratch = fuzz_cli::scratch::dir()?;
    let capacity = entries.iter().map(|e| e.bytes.len()).max().unwrap_or(0) + 4096;
    fuzz_cli::interrupt::install();
    let stop = fuzz_cli::interrupt::interrupted;
    let mut session = Session::start(&worker_bin, lib, target, scratch.path(), capacity, stop)
        .map_err(|e| CliError::misuse(format!("{}: {e}", lib.display())))?;
    let types: Vec<ArgType> = session.desc.args.clone();
    for e in &entries {
        let values = e.values.as_ref().expect("checked above");
        codec::check_types(values, &types).map_err(|err| CliError::from(err.in_file(&e.path)))?;
    }

    let start = Instant::now();
    let ranges = pctable::functions(&table);
    let hits = run_entries(&mut session, &entries, timeout, &table, &ranges)?;
    let target_name = session.desc.name.clone();
    session.stop();
    for w in &hits.warnings {
        fuzz_cli::exit::warn(TOOL, w);
    }

    let report = Report {
        library: lib
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| lib.display().to_string()),
        target: target_name,
        corpus: dirs.iter().map(|d| d.display().to_string()).collect(),
        entries: entries.len(),
        skipped: hits.skipped,
        functions: functions(lib, &table, &ranges, hits.hit, hits.reached_by)?,
    };
    match html {
        Some(p) if is_stdio(p) => {
            fuzz_cli::io::write_stdout(crate::cover_html::render(&report).as_bytes())?
        }
        Some(p) => {
            print_listing(&report)?;
            fsutil::write_atomic(p, crate::cover_html::render(&report).as_bytes())?;
        }
        None => print_listing(&report)?,
    }
    let (cf, f, cb, b) = totals(&report.functions);
    eprintln!(
        "{TOOL}: ran {} {} ({} skipped) in {:.1}s: {cf}/{f} functions, {cb}/{b} blocks covered",
        report.entries,
        if report.entries == 1 {
            "entry"
        } else {
            "entries"
        },
        report.skipped,
        start.elapsed().as_secs_f64()
    );
    Ok(Status::Success)
}

/// Every corpus file, read, each of which must parse.
fn read_entries(dirs: &[PathBuf]) -> Result<Vec<Entry>, CliError> {
    let files = corpus_files(dirs)?;
    let mut entries = Vec::with_capacity(files.len());
    for path in &files {
        let entry = Entry::read(path)?;
        if let Err(e) = &entry.values {
            return Err(CliError::misuse(e.to_string()));
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// What running the entries showed.
struct Hits {
    /// Per PC table entry (block): whether any entry reached it.
    hit: Vec<bool>,
    /// Per function: how many entries reached it.
    reached_by: Vec<usize>,
    /// Entries that crashed or hung.
    skipped: usize,
    warnings: Vec<String>,
}

/// Runs every entry and marks the blocks its features name. A failing
/// entry's coverage counts (with a warning); a crash or hang skips it.
fn run_entries(
    session: &mut Session,
    entries: &[Entry],
    timeout: Duration,
    table: &[PcEntry],
    ranges: &[std::ops::Range<usize>],
) -> Result<Hits, CliError> {
    // Which function each counter's block belongs to, and where.
    let mut where_is: HashMap<u32, (usize, usize)> = HashMap::with_capacity(table.len());
    for (f, r) in ranges.iter().enumerate() {
        for i in r.clone() {
            where_is.insert(table[i].counter, (f, i));
        }
    }
    let mut hits = Hits {
        hit: vec![false; table.len()],
        reached_by: vec![0usize; ranges.len()],
        skipped: 0,
        warnings: Vec::new(),
    };
    for e in entries {
        let values = e.values.as_ref().expect("checked above");
        let Ok(text) = String::from_utf8(codec::encode(values)) else {
            continue;
        };
        let features = match session.call(&Request::Run { id: 0, entry: text }, timeout) {
            Ok(Response::Ran {
                outcome, features, ..
            }) => {
                if let Exec::Failed { message } = outcome {
                    hits.warnings.push(format!(
                        "{}: fails: {} (its coverage counts)",
                        e.path.display(),
                        message.lines().next().unwrap_or("")
                    ));
                }
                features
            }
            Ok(Response::Error { message, .. }) => {
                hits.skipped += 1;
                hits.warnings
                    .push(format!("skipped {}: {message}", e.path.display()));
                continue;
            }
            Ok(other) => {
                hits.skipped += 1;
                hits.warnings.push(format!(
                    "skipped {}: the worker answered {other:?}",
                    e.path.display()
                ));
                continue;
            }
            // Ctrl-C (or SIGTERM, SIGHUP): stop within a fraction of a second.
            Err(death) if death.kind == DeathKind::Stopped => return Err(CliError::interrupted()),
            Err(death) => {
                hits.skipped += 1;
                hits.warnings
                    .push(format!("skipped {}: {}", e.path.display(), death.kind));
                continue;
            }
        };
        let mut reached: Vec<usize> = Vec::new();
        for f in features {
            if let Some(&(func, i)) = where_is.get(&pctable::counter_of(f)) {
                hits.hit[i] = true;
                reached.push(func);
            }
        }
        reached.sort_unstable();
        reached.dedup();
        for func in reached {
            hits.reached_by[func] += 1;
        }
    }
    Ok(hits)
}

/// The library's functions (one per range of the PC table), named from
/// its symbols, with the blocks the entries covered.
fn functions(
    lib: &Path,
    table: &[PcEntry],
    ranges: &[std::ops::Range<usize>],
    hit: Vec<bool>,
    reached_by: Vec<usize>,
) -> Result<Vec<Function>, CliError> {
    let offsets: Vec<u64> = ranges.iter().map(|r| table[r.start].offset).collect();
    let symbols = crate::symbols::symbolize(lib, &offsets)
        .map_err(|e| CliError::misuse(format!("{}: {e}", lib.display())))?;
    let cwd = std::env::current_dir().ok();
    Ok(ranges
        .iter()
        .zip(symbols)
        .zip(reached_by)
        .map(|((r, sym), reached_by)| {
            let mut covered = hit[r.clone()].iter().filter(|&&h| h).count();
            // A function's entry block runs before any other of its
            // blocks; its 8-bit counter may still read 0, having wrapped
            // after a multiple of 256 runs in one execution.
            if covered > 0 && !hit[r.start] {
                covered += 1;
            }
            Function {
                name: sym.name,
                file: sym.file.map(|f| shorten(&f, cwd.as_deref())),
                line: sym.line,
                offset: table[r.start].offset,
                blocks: r.len(),
                covered,
                reached_by,
            }
        })
        .collect())
}

/// Refuses an output file that cannot be written, before anything runs.
fn check_output(out: &Path) -> Result<(), CliError> {
    if out.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: is a directory, not a file (-html)",
            out.display()
        )));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: no such directory (-html)",
            parent.display()
        )));
    }
    Ok(())
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
fn shorten(file: &str, cwd: Option<&Path>) -> String {
    if let Some(rest) = cwd.and_then(|c| Path::new(file).strip_prefix(c).ok()) {
        return rest.display().to_string();
    }
    file.to_string()
}

/// The listing: least covered first, then by place, with the totals last.
fn print_listing(report: &Report) -> Result<(), CliError> {
    let mut order: Vec<&Function> = report.functions.iter().collect();
    order.sort_by(|a, b| {
        (a.covered * b.blocks)
            .cmp(&(b.covered * a.blocks))
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.name.cmp(&b.name))
    });
    let fraction = |f: &Function| format!("{}/{}", f.covered, f.blocks);
    let fw = order.iter().map(|f| fraction(f).len()).max().unwrap_or(0);
    let nw = order
        .iter()
        .map(|f| f.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(48);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for f in &order {
        let line = format!(
            "{:>fw$} {:>6}  {:<nw$}  {}",
            fraction(f),
            percent(f.covered, f.blocks),
            f.name,
            f.location()
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    let (cf, f, cb, b) = totals(&report.functions);
    writeln!(
        out,
        "covered: {cf}/{f} functions ({}), {cb}/{b} blocks ({})",
        percent(cf, f),
        percent(cb, b)
    )?;
    out.flush()?;
    Ok(())
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
    fn paths_below_the_current_directory_are_relative() {
        let cwd = Path::new("/src/proj");
        assert_eq!(shorten("/src/proj/lib/a.c", Some(cwd)), "lib/a.c");
        assert_eq!(shorten("/usr/include/x.h", Some(cwd)), "/usr/include/x.h");
        assert_eq!(shorten("rel.c", None), "rel.c");
    }
}
