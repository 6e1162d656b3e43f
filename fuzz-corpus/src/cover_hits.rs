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
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::time::Duration;

use crate::cover_report::{LineRan, Mark};
use crate::machine_flow::{Flow, Ran};
use crate::source_lines::Placed;

/// Where each counter's block is: its function, its index in the PC
/// table and the line it starts; and, for the functions whose machine
/// code was read, their machine blocks and the lines of each. Lines are
/// numbered once across functions by file and line, so that a line of a
/// function inlined in several places is one line, its copies summed.
pub struct Places<'a> {
    by_counter: HashMap<u32, (usize, usize)>,
    /// For functions without machine blocks only.
    line_of_block: Vec<Option<usize>>,
    lines: usize,
    /// Per function, the number of each of its lines.
    pub line_ids: Vec<Vec<usize>>,
    /// Each function's entry block.
    entry: Vec<usize>,
    machine: Vec<Option<Walk<'a>>>,
    /// Per function: the functions it was inlined into too.
    inlined_into: Vec<Vec<usize>>,
}

/// A function's machine blocks, with the lines (numbered as in `Places`)
/// of each, and the line of each conditional move or set.
struct Walk<'a> {
    flow: &'a Flow,
    lines: Vec<Vec<usize>>,
    choices: Vec<usize>,
    /// The lines that hold code inlined from another function.
    inlined: Vec<usize>,
}

impl<'a> Places<'a> {
    /// `names` are the functions' names, by which `Placed::inlined`
    /// names them.
    pub fn new(
        table: &[PcEntry],
        ranges: &[Range<usize>],
        placed: &'a [Placed],
        names: &[&str],
    ) -> Places<'a> {
        let mut by_counter = HashMap::with_capacity(table.len());
        for (f, r) in ranges.iter().enumerate() {
            for i in r.clone() {
                by_counter.insert(table[i].counter, (f, i));
            }
        }
        let mut line_of_block = vec![None; table.len()];
        let mut machine = Vec::with_capacity(placed.len());
        let mut number: HashMap<(usize, u32), usize> = HashMap::new();
        let mut line_ids = Vec::with_capacity(placed.len());
        for p in placed {
            let mut ids = Vec::with_capacity(p.lines.len());
            for l in &p.lines {
                let next = number.len();
                let id = *number.entry((l.file, l.number)).or_insert(next);
                if p.machine.is_none() {
                    for &b in &l.blocks {
                        if let Some(slot) = line_of_block.get_mut(b) {
                            *slot = Some(id);
                        }
                    }
                }
                ids.push(id);
            }
            machine.push(p.machine.as_ref().map(|m| {
                Walk {
                    flow: &m.flow,
                    lines: m
                        .block_lines
                        .iter()
                        .map(|ls| ls.iter().map(|&l| ids[l]).collect())
                        .collect(),
                    choices: m.choices.iter().map(|&l| ids[l]).collect(),
                    inlined: (0..ids.len())
                        .filter(|&l| m.inlined_lines[l])
                        .map(|l| ids[l])
                        .collect(),
                }
            }));
            line_ids.push(ids);
        }
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (f, n) in names.iter().enumerate() {
            by_name.entry(n).or_default().push(f);
        }
        let mut inlined_into = vec![Vec::new(); placed.len()];
        for (host, p) in placed.iter().enumerate() {
            for f in p
                .inlined
                .iter()
                .flat_map(|n| by_name.get(n.as_str()))
                .flatten()
            {
                inlined_into[*f].push(host);
            }
        }
        Places {
            by_counter,
            line_of_block,
            lines: number.len(),
            line_ids,
            inlined_into,
            entry: ranges.iter().map(|r| r.start).collect(),
            machine,
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
    /// Per line of a function whose machine code was read: its mark, from
    /// what ran of each of its instructions.
    pub line_ran: Vec<Option<LineRan>>,
    /// Entries that crashed or hung.
    pub skipped: usize,
    pub warnings: Vec<String>,
}

/// What the entries did with one machine block: ran it (some entry),
/// may have (the graph could not tell for some entry), or never did.
#[derive(Clone, Copy, Default)]
struct Seen {
    yes: bool,
    unknown: bool,
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
        line_ran: vec![None; places.lines],
        skipped: 0,
        warnings: Vec::new(),
    };
    let mut seen: Vec<Vec<Seen>> = places
        .machine
        .iter()
        .map(|m| vec![Seen::default(); m.as_ref().map_or(0, |m| m.flow.blocks.len())])
        .collect();
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
        count_entry(places, &features, &mut hits, &mut seen);
    }
    mark_lines(places, &seen, &mut hits);
    Ok(hits)
}

/// Counts one entry's run (the counters its `features` name) into `hits`
/// and, for functions with machine blocks, into `seen`.
fn count_entry(places: &Places, features: &[u32], hits: &mut Hits, seen: &mut [Vec<Seen>]) {
    let mut funcs: Vec<usize> = Vec::new();
    let mut blocks: HashSet<usize> = HashSet::new();
    for &f in features {
        if let Some(&(func, i)) = places.by_counter.get(&pctable::counter_of(f)) {
            funcs.push(func);
            blocks.insert(i);
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
    for &f in &funcs {
        hits.func_entries[f] += 1;
        let Some(walk) = &places.machine[f] else {
            continue;
        };
        let ran = walk.flow.ran(true, |i| blocks.contains(&i));
        for (b, r) in ran.into_iter().enumerate() {
            match r {
                Ran::Yes => {
                    seen[f][b].yes = true;
                    lines.extend(&walk.lines[b]);
                }
                Ran::Unknown => seen[f][b].unknown = true,
                Ran::No => {}
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    for l in lines {
        hits.line_entries[l] += 1;
    }
}

/// Marks each line of a function with machine blocks from what the
/// entries did with the blocks its instructions are in: reached when one
/// of them ran, partly when another never did, not reached when none ran
/// and none may have, unknown otherwise.
fn mark_lines(places: &Places, seen: &[Vec<Seen>], hits: &mut Hits) {
    // Per line: some block ran, some never ran, some may have; from the
    // functions the entries reached, and apart from those they did not.
    // A copy of a line inlined into a function nothing reached is that
    // function's gap, shown on its own lines (the call's): it counts only
    // where the line has no copy in a reached function, and then says
    // nothing of the line itself.
    let mut state = vec![(false, false, false); places.lines];
    let mut unreached = vec![(false, false, false); places.lines];
    let mut inlined_unreached = vec![false; places.lines];
    let mut choices = vec![0; places.lines];
    let mut walked = vec![false; places.lines];
    for (f, (walk, seen)) in places.machine.iter().zip(seen).enumerate() {
        let Some(walk) = walk else { continue };
        let into = if hits.func_entries[f] > 0 {
            &mut state
        } else {
            &mut unreached
        };
        for (lines, s) in walk.lines.iter().zip(seen) {
            for &l in lines {
                let st = &mut into[l];
                st.0 |= s.yes;
                st.1 |= !s.yes && !s.unknown;
                st.2 |= !s.yes && s.unknown;
                walked[l] = true;
            }
        }
        for &l in &walk.choices {
            choices[l] += 1;
        }
        if hits.func_entries[f] == 0 {
            // Its code inlined from elsewhere, or all of it when its body
            // ran inlined into a function that was reached.
            let ran_inlined = places.inlined_into[f]
                .iter()
                .any(|&h| hits.func_entries[h] > 0);
            let lines: Vec<usize> = match ran_inlined {
                true => walk.lines.iter().flatten().copied().collect(),
                false => walk.inlined.clone(),
            };
            for l in lines {
                inlined_unreached[l] = true;
            }
        }
    }
    for l in (0..places.lines).filter(|&l| walked[l]) {
        if state[l] == (false, false, false) {
            state[l] = match inlined_unreached[l] {
                true => (false, false, true),
                false => unreached[l],
            };
        }
        let mark = match state[l] {
            (true, false, _) => Mark::Covered,
            (true, true, _) => Mark::Partly,
            (false, _, true) => Mark::Unknown,
            (false, _, false) => Mark::NotReached,
        };
        hits.line_ran[l] = Some(LineRan {
            mark,
            entries: (mark != Mark::Unknown).then_some(hits.line_entries[l]),
            choices: choices[l],
        });
    }
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
