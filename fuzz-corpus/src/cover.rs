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
use crate::cover_report::{totals, Block, Function, Line, Report};
use crate::source_lines::{self, Placed};
use crate::sources::{shorten, Sources};
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
    /// `-seeds_only`: not the generated corpus a seed directory brings.
    pub seeds_only: bool,
    pub fuzzcachedir: Option<&'a Path>,
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
        fuzz_cli::sanitizer::worker_env(o.lib, None),
    )
    .map_err(|e| CliError::misuse(format!("{}: {e}", fuzz_core::error::shown(o.lib))))?;
    let types: Vec<ArgType> = session.desc.args.clone();
    for e in p.entries.iter().chain(p.old.iter().flatten()) {
        if let Ok(values) = &e.values {
            codec::check_types(values, &types)
                .map_err(|err| CliError::from(err.in_file(&e.path)))?;
        }
    }
    let names: Vec<&str> = p.layout.symbols.iter().map(|s| s.name.as_str()).collect();
    let places = Places::new(&p.table, &p.ranges, &p.layout.placed, &names);
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
        functions: functions(&p, &places, &hits),
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
    // The library first: a bad one is the one line said, before any
    // warning about the corpus.
    std::fs::metadata(o.lib).map_err(|e| CliError::io(o.lib, &e))?;
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
    let mut dirs = o.dirs.to_vec();
    if !o.seeds_only {
        dirs.extend(generated_corpus(o)?);
    }
    let entries = read_entries(&dirs)?;
    if entries.is_empty() {
        fuzz_cli::exit::note(
            TOOL,
            &format!(
                "no corpus entries in {}: every function reads as not reached",
                o.dirs
                    .iter()
                    .map(|d| fuzz_core::error::shown(d))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
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
    let ranges = pctable::functions(&table);
    let want_lines = o.html.is_some() || o.lines.is_some() || o.diff.is_some();
    let layout = layout(o.lib, &table, &ranges, want_lines)?;
    let selected = match o.lines {
        Some(name) => select(&layout, name, o.lib)?,
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
/// whose name ends in `::FUNC` (a Rust or C++ path) or `.FUNC` (Go's), else the one whose
/// entry is at the address FUNC (`0x…`, as the listing shows a function
/// without a name).
fn select(layout: &Layout, name: &str, lib: &Path) -> Result<Vec<usize>, CliError> {
    let symbols = &layout.symbols;
    let find = |pred: &dyn Fn(&Symbol) -> bool| -> Vec<usize> {
        (0..symbols.len()).filter(|&i| pred(&symbols[i])).collect()
    };
    let mut found = find(&|s| s.name == name);
    if found.is_empty() && !name.is_empty() {
        // A Rust or C++ path, or a Go package path (pkg.Func, pkg.(*T).M).
        let (rust, go) = (format!("::{name}"), format!(".{name}"));
        found = find(&|s| s.name.ends_with(&rust) || s.name.ends_with(&go));
    }
    if found.is_empty() {
        // Inlined everywhere: its lines are in the functions it was
        // inlined into.
        let hosts: Vec<&str> = layout
            .placed
            .iter()
            .zip(symbols)
            .filter(|(p, _)| {
                p.inlined
                    .iter()
                    .any(|n| n == name || n.ends_with(&format!("::{name}")))
            })
            .map(|(_, s)| s.name.as_str())
            .collect();
        if let Some(first) = hosts.first() {
            return Err(CliError::misuse(format!(
                "-lines {name}: {name} has no code of its own in {}: it was inlined into {} \
                 (its lines, its copies summed, are shown with -lines {first})",
                fuzz_core::error::shown(lib),
                hosts.join(", ")
            )));
        }
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
    let diff = o.diff.zip(old).map(|(d, h)| cover_diff::Old {
        name: fuzz_core::error::shown(d),
        hit: &h.hit,
    });
    let page = o
        .html
        .map(|_| crate::cover_html::render(r, &mut sources, diff.as_ref()));
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

/// The generated corpus of the target of each seed directory operand
/// (`testdata/fuzz/<Target>`) in the cache, where it exists and is not
/// an operand already: said on stderr, as what `-seeds_only` leaves out.
fn generated_corpus(o: &Options) -> Result<Vec<PathBuf>, CliError> {
    let seed_targets: Vec<String> = o
        .dirs
        .iter()
        .filter(|d| !is_stdio(d) && d.is_dir())
        .filter_map(|d| {
            let fuzz = d.parent()?;
            let testdata = fuzz.parent()?;
            (fuzz.file_name()? == "fuzz" && testdata.file_name()? == "testdata")
                .then(|| d.file_name()?.to_str().map(str::to_string))
                .flatten()
        })
        .collect();
    if seed_targets.is_empty() {
        return Ok(Vec::new());
    }
    let Ok(root) = fuzz_cli::cache::env(o.fuzzcachedir)?.root() else {
        return Ok(Vec::new());
    };
    let Ok(id) = fuzz_core::store::cache::library_id(o.lib) else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for t in seed_targets {
        let dir = fuzz_core::store::cache::target_dir(&root, &id, &t);
        let known = o.dirs.iter().any(|d| same_dir(d, &dir));
        if dir.is_dir() && !known && !found.contains(&dir) {
            fuzz_cli::exit::note(
                TOOL,
                &format!(
                    "also replaying the generated corpus {} (-seeds_only leaves it out)",
                    fuzz_core::error::shown(&dir)
                ),
            );
            found.push(dir);
        }
    }
    Ok(found)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Every corpus file, read, each of which must parse. A file found in a
/// directory that does not start as a corpus file does (a README, a
/// `.gitkeep`) is skipped with a warning; one named as an operand, or one
/// that starts as a corpus file and is malformed, stops the report.
fn read_entries(dirs: &[PathBuf]) -> Result<Vec<Entry>, CliError> {
    let named: Vec<&PathBuf> = dirs.iter().filter(|d| is_stdio(d) || !d.is_dir()).collect();
    let files = corpus_files(dirs)?;
    let mut entries = Vec::with_capacity(files.len());
    for path in &files {
        let entry = crate::read_entry(path)?;
        if let Err(e) = &entry.values {
            if !named.contains(&path) && !entry.bytes.starts_with(b"go test fuzz v1") {
                fuzz_cli::exit::warn(
                    TOOL,
                    &format!(
                        "skipped {}: not a corpus file (it does not start with \"go test fuzz v1\")",
                        fuzz_core::error::shown(path)
                    ),
                );
                continue;
            }
            return Err(CliError::misuse(e.to_string()));
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// The library's functions, named, with the blocks and lines the entries
/// covered.
fn functions(p: &Prepared, places: &Places, hits: &Hits) -> Vec<Function> {
    let cwd = std::env::current_dir().ok();
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
                .zip(&places.line_ids[f])
                .map(|(l, &id)| Line {
                    file: l.file,
                    number: l.number,
                    blocks: l.blocks.iter().map(|&i| block(i)).collect(),
                    entries: hits.line_entries[id],
                    ran: hits.line_ran[id],
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
