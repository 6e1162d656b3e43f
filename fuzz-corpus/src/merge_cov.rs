//! `fuzz-corpus merge -lib`: keep only the entries that add coverage, as
//! libFuzzer's `-merge=1`. Every entry of DST first, for the coverage it
//! holds; then the SRC entries from the smallest up, each kept if it
//! reaches a feature not seen yet. A crash or hang skips the entry (and
//! costs a new worker); entries are written as they are kept, so running
//! the merge again after an interruption carries on from there.

use crate::TOOL;
use fuzz_cli::io::print_path;
use fuzz_cli::{CliError, Status};
use fuzz_core::store::corpus::{files_in, Entry};
use fuzz_core::worker::client::Session;
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::worker::protocol::{Exec, Request, Response};
use fuzz_core::{format::codec, store::digest, store::fsutil, ArgType};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub fn run(
    lib: &Path,
    target: Option<&str>,
    timeout: Duration,
    dst: &Path,
    srcs: &[PathBuf],
) -> Result<Status, CliError> {
    let mut incoming = crate::merge::read_sources(dst, srcs)?;
    let existing = if dst.is_dir() {
        files_in(dst)?
            .iter()
            .map(|p| Entry::read(p))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let worker_bin = fuzz_cli::find_worker::path()?;
    let operands: Vec<&Path> = std::iter::once(dst)
        .chain(srcs.iter().map(PathBuf::as_path))
        .collect();
    let target = fuzz_cli::target::choose(&worker_bin, lib, target, &operands);
    let scratch = fuzz_cli::scratch::dir()?;
    let capacity = incoming
        .iter()
        .chain(&existing)
        .map(|e| e.bytes.len())
        .max()
        .unwrap_or(0)
        + 4096;
    let mut session = start_session(
        &worker_bin,
        lib,
        target.as_deref(),
        scratch.path(),
        capacity,
    )?;
    if session.counters == 0 {
        return Err(CliError::misuse(format!(
            "{}: the library has no coverage instrumentation, so a merge by coverage would keep \
             nothing (-lib); build it with clang -fsanitize-coverage=inline-8bit-counters,pc-table \
             (gcc: -fsanitize-coverage=trace-pc), or merge without -lib",
            fuzz_core::error::shown(lib)
        )));
    }
    let types: Vec<ArgType> = session.desc.args.clone();
    // Every entry must be readable and of the target's types before
    // anything runs or is written.
    for e in incoming.iter().chain(&existing) {
        let values = e
            .values
            .as_ref()
            .map_err(|err| CliError::misuse(err.to_string()))?;
        codec::check_types(values, &types).map_err(|err| CliError::from(err.in_file(&e.path)))?;
    }

    let start = Instant::now();
    let mut have: HashSet<String> = existing
        .iter()
        .map(|e| digest::sha256_hex(&e.bytes))
        .collect();
    let mut skipped: Vec<String> = Vec::new();
    let mut coverage = covered(&mut session, &existing, timeout, &mut skipped)?;
    let baseline = coverage.len();
    // Smallest first, so that of two entries reaching the same coverage,
    // the smaller one is kept.
    incoming.sort_by(|a, b| a.bytes.len().cmp(&b.bytes.len()).then(a.path.cmp(&b.path)));
    fsutil::create_dir_all(dst)?;
    let (mut added, mut considered) = (0, 0);
    for e in &incoming {
        if !have.insert(digest::sha256_hex(&e.bytes)) {
            continue;
        }
        considered += 1;
        let features = features_of(&mut session, e, timeout, &mut skipped).map_err(|err| {
            far(
                err,
                format!(
                    "{} of {} entries considered, {added} merged (they are kept)",
                    considered - 1,
                    incoming.len()
                ),
            )
        })?;
        let Some(features) = features else {
            continue;
        };
        let new = features.iter().filter(|f| !coverage.contains(f)).count();
        if new == 0 {
            continue;
        }
        coverage.extend(features);
        let path = dst.join(digest::entry_name(&e.bytes));
        if fsutil::write_new_atomic(&path, &e.bytes)? {
            added += 1;
            print_path(&path)?;
        }
    }
    session.stop();
    for s in &skipped {
        fuzz_cli::exit::warn(TOOL, &format!("skipped {s}"));
    }
    eprintln!(
        "{TOOL}: merged {added} of {considered} new entries into {} by coverage \
         ({baseline} -> {} features, {} skipped) in {:.1}s",
        fuzz_core::error::shown(dst),
        coverage.len(),
        skipped.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(Status::Success)
}

/// A worker serving the target, its failure to start one line naming LIB.
fn start_session(
    worker_bin: &Path,
    lib: &Path,
    target: Option<&str>,
    scratch: &Path,
    capacity: usize,
) -> Result<Session, CliError> {
    fuzz_cli::interrupt::install();
    let stop = fuzz_cli::interrupt::interrupted;
    let env = fuzz_cli::sanitizer::worker_env(lib, None);
    Session::start(worker_bin, lib, target, scratch, capacity, stop, env).map_err(|e| {
        // The worker's own message may name the library already.
        let shown = fuzz_core::error::shown(lib);
        match e.to_string() {
            m if m.starts_with(&shown) => CliError::misuse(m),
            m => CliError::misuse(format!("{shown}: {m}")),
        }
    })
}

/// The coverage of the destination's entries, which the merge adds to.
fn covered(
    session: &mut Session,
    existing: &[Entry],
    timeout: Duration,
    skipped: &mut Vec<String>,
) -> Result<HashSet<u32>, CliError> {
    let mut coverage = HashSet::new();
    for (i, e) in existing.iter().enumerate() {
        let features = features_of(session, e, timeout, skipped).map_err(|err| {
            let n = existing.len();
            far(
                err,
                format!("nothing merged: {i} of {n} entries of the destination run"),
            )
        })?;
        coverage.extend(features.unwrap_or_default());
    }
    Ok(coverage)
}

/// A stop (Ctrl-C, SIGTERM) said with how far the merge got; any other
/// error as it is.
fn far(e: CliError, how_far: String) -> CliError {
    match e.status {
        fuzz_cli::Status::Stopped(_) => CliError::stopped(&how_far),
        _ => e,
    }
}

/// A stop, its progress said by the caller ([`far`]).
fn stopped() -> CliError {
    CliError::stopped("")
}

/// The coverage features one entry reaches; `None` when it is rejected,
/// or fails, crashes or hangs, which `skipped` then records. Ctrl-C (or
/// SIGTERM, SIGHUP) stops the merge within a fraction of a second, what
/// was kept so far kept.
fn features_of(
    session: &mut Session,
    e: &Entry,
    timeout: Duration,
    skipped: &mut Vec<String>,
) -> Result<Option<Vec<u32>>, CliError> {
    let Some(entry) = e
        .values
        .as_ref()
        .ok()
        .and_then(|v| String::from_utf8(codec::encode(v)).ok())
    else {
        return Ok(None);
    };
    Ok(
        match session.call(&Request::Run { id: 0, entry }, timeout) {
            Ok(Response::Ran {
                outcome: Exec::Ok,
                features,
                ..
            }) => Some(features),
            Ok(Response::Ran {
                outcome: Exec::Rejected,
                ..
            }) => None,
            Ok(Response::Ran {
                outcome: Exec::Failed { message },
                ..
            }) => {
                skipped.push(format!(
                    "{}: fails: {}",
                    fuzz_core::error::shown(&e.path),
                    message.lines().next().unwrap_or("")
                ));
                None
            }
            Ok(_) => None,
            Err(death) if death.kind == DeathKind::Stopped => return Err(stopped()),
            Err(death) => {
                skipped.push(format!(
                    "{}: {}",
                    fuzz_core::error::shown(&e.path),
                    death.kind
                ));
                None
            }
        },
    )
}
