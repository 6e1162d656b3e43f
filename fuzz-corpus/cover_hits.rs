//! Running a corpus for `fuzz-corpus cover`: which blocks the entries
//! reach, and how many entries reach each function and each source line.
//!
//! Entries run one at a time through one `fuzz-worker serve` session, as
//! in `merge -lib`: a crash or a hang skips the entry (with a warning) and
//! costs a worker; a typed target's failure is noted and its coverage
//! counts. Each run's features name the counters it hit; an entry counts
//! once for every function and line it reaches, whatever it ran there.

use fuzz_cli::CliError;
use fuzz_core::format::codec;
use fuzz_core::search::pctable::{self, PcEntry};
use fuzz_core::store::corpus::Entry;
use fuzz_core::worker::client::Session;
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::protocol::{Exec, Request, Response};
use std::collections::HashMap;
use std::ops::Range;
use std::time::Duration;

use crate::source_lines::Placed;

/// Where each counter's block is: its function, its index in the PC
/// table and the line it starts (numbered across functions in order).
pub struct Places {
    by_counter: HashMap<u32, (usize, usize)>,
    line_of_block: Vec<Option<usize>>,
    lines: usize,
    /// Each function's entry block.
    entry: Vec<usize>,
}

impl Places {
    pub fn new(table: &[PcEntry], ranges: &[Range<usize>], placed: &[Placed]) -> Places {
        let mut by_counter = HashMap::with_capacity(table.len());
        for (f, r) in ranges.iter().enumerate() {
            for i in r.clone() {
                by_counter.insert(table[i].counter, (f, i));
            }
        }
        let mut line_of_block = vec![None; table.len()];
        let mut lines = 0;
        for p in placed {
            for l in &p.lines {
                for &b in &l.blocks {
                    if let Some(slot) = line_of_block.get_mut(b) {
                        *slot = Some(lines);
                    }
                }
                lines += 1;
            }
        }
        Places {
            by_counter,
            line_of_block,
            lines,
            entry: ranges.iter().map(|r| r.start).collect(),
        }
    }
}

/// What running the entries showed.
pub struct Hits {
    /// Per PC table entry (block): whether any entry reached it.
    pub hit: Vec<bool>,
    /// Per function: how many entries reached it.
    pub func_entries: Vec<usize>,
    /// Per line (numbered as in `Places`): how many entries reached it.
    pub line_entries: Vec<usize>,
    /// Entries that crashed or hung.
    pub skipped: usize,
    pub warnings: Vec<String>,
}

/// Runs every entry and marks the blocks its features name. A failing
/// entry's coverage counts (with a warning); a crash or hang skips it.
pub fn run_entries(
    session: &mut Session,
    entries: &[Entry],
    timeout: Duration,
    places: &Places,
) -> Result<Hits, CliError> {
    let mut hits = Hits {
        hit: vec![false; places.line_of_block.len()],
        func_entries: vec![0; places.entry.len()],
        line_entries: vec![0; places.lines],
        skipped: 0,
        warnings: Vec::new(),
    };
    for (i, e) in entries.iter().enumerate() {
        let Some(features) =
            run_one(session, e, timeout, &mut hits).map_err(|err| match err.status {
                // A stop: no report is made of part of a corpus.
                fuzz_cli::Status::Stopped(_) => {
                    CliError::stopped(&format!("{i} of {} entries ran; no report", entries.len()))
                }
                _ => err,
            })?
        else {
            continue;
        };
        let mut funcs: Vec<usize> = Vec::new();
        let mut blocks: Vec<usize> = Vec::new();
        for f in features {
            if let Some(&(func, i)) = places.by_counter.get(&pctable::counter_of(f)) {
                funcs.push(func);
                blocks.push(i);
            }
        }
        funcs.sort_unstable();
        funcs.dedup();
        // A function's entry block runs before any other of its blocks;
        // its 8-bit counter may still read 0, having wrapped after a
        // multiple of 256 runs in one execution.
        blocks.extend(funcs.iter().map(|&f| places.entry[f]));
        let mut lines: Vec<usize> = Vec::new();
        for &b in &blocks {
            hits.hit[b] = true;
            lines.extend(places.line_of_block[b]);
        }
        lines.sort_unstable();
        lines.dedup();
        for f in funcs {
            hits.func_entries[f] += 1;
        }
        for l in lines {
            hits.line_entries[l] += 1;
        }
    }
    Ok(hits)
}

/// A stop (Ctrl-C, SIGTERM), its progress said by `run_entries`.
fn stopped() -> CliError {
    CliError::stopped("")
}

/// Runs one entry: its features, or `None` when it was skipped (counted
/// and warned of in `hits`).
fn run_one(
    session: &mut Session,
    e: &Entry,
    timeout: Duration,
    hits: &mut Hits,
) -> Result<Option<Vec<u32>>, CliError> {
    let Ok(values) = e.values.as_ref() else {
        return Ok(None);
    };
    let Ok(text) = String::from_utf8(codec::encode(values)) else {
        return Ok(None);
    };
    let skip = |hits: &mut Hits, why: String| {
        hits.skipped += 1;
        hits.warnings.push(format!(
            "skipped {}: {why}",
            fuzz_core::error::shown(&e.path)
        ));
        None
    };
    Ok(
        match session.call(&Request::Run { id: 0, entry: text }, timeout) {
            Ok(Response::Ran {
                outcome, features, ..
            }) => {
                if let Exec::Failed { message } = outcome {
                    hits.warnings.push(format!(
                        "{}: fails: {} (its coverage counts)",
                        fuzz_core::error::shown(&e.path),
                        message.lines().next().unwrap_or("")
                    ));
                }
                Some(features)
            }
            Ok(Response::Error { message, .. }) => skip(hits, message),
            Ok(other) => skip(hits, format!("the worker answered {other:?}")),
            // Ctrl-C (or SIGTERM, SIGHUP): stop within a fraction of a second.
            Err(death) if death.kind == DeathKind::Stopped => return Err(stopped()),
            Err(death) => skip(hits, death.kind.to_string()),
        },
    )
}
