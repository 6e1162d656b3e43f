//! The worker side of fuzzing: serve a coordinator's requests (see
//! `fuzz_core::worker::protocol`) in a loop, mutating and executing in-process with
//! no system call per input.
//!
//! Every input runs through the one executor (`executor.rs`), and its
//! features go to the fuzzing loop (`fuzzing.rs`), whose bit set says
//! whether they are new. A slice ends when an input adds coverage or fails,
//! or when its budget is spent; only then is anything written to the pipe.

use crate::executor::{Executor, Verdict};
use crate::forked::Limits;
use crate::fuzzing::{text_of, Fuzzer, Slice};
use fuzz_core::search::minimize::{self, Budget};
use fuzz_core::worker::protocol::{self, Exec, Keep, Request, Response};
use fuzz_core::{format::codec, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::time::{Duration, Instant};

/// Serves requests until `Stop` or the coordinator goes away. Before the
/// first, after `Hello`, the target runs once on its empty input (the zero
/// values), unless `warm_up` is false: the warm-up that pays for its lazy
/// initialisation, so that every input the coordinator sends gets the time
/// limit alone. Requests come on `fds.0`, after `pending` (those read
/// already), answers go to `fds.1`.
pub fn serve(
    mut exec: Executor,
    target: &crate::library::Target,
    (fd_in, fd_out): (RawFd, RawFd),
    pending: Vec<u8>,
    warm_up: bool,
) -> Result<(), String> {
    // Out of the way of a target that opens and closes descriptors.
    let (fd_in, fd_out) = (
        crate::crash::move_high(fd_in),
        crate::crash::move_high(fd_out),
    );
    crate::crash::tell_on_crash(fd_out);
    // SAFETY: the coordinator passed these descriptors for our use alone.
    let input = unsafe { std::fs::File::from_raw_fd(fd_in) };
    let mut output = unsafe { std::fs::File::from_raw_fd(fd_out) };
    let mut fuzzer = Fuzzer::new(exec.feature_space());
    let mut send = |r: &Response| -> Result<(), String> {
        output
            .write_all(protocol::to_line(r).as_bytes())
            .map_err(|e| pipe_error("writing to the coordinator", &e))
    };
    send(&Response::Hello {
        version: protocol::VERSION,
        target: target.desc.clone(),
        counters: exec.counters(),
    })?;
    let ok = warm_up && {
        let zero: Vec<Value> = target.args.iter().map(Value::zero).collect();
        let ret = exec.exec(&zero);
        // Its coverage is not learned: the coordinator has not seen it.
        exec.classify_ret(ret) != Verdict::Failed
    };
    send(&Response::Warmed { ok })?;
    let mut forks_said = false;
    for line in BufReader::new(std::io::Cursor::new(pending).chain(input)).lines() {
        let line = line.map_err(|e| pipe_error("reading from the coordinator", &e))?;
        let request: Request = protocol::from_line(&line)?;
        let Some(response) = answer(&mut exec, &mut fuzzer, request, &mut send) else {
            return Ok(());
        };
        send(&response)?;
        reap_forks(&mut send, &mut forks_said)?;
    }
    Ok(())
}

/// The answer to one request; None for `Stop`.
fn answer(
    exec: &mut Executor,
    fuzzer: &mut Fuzzer,
    request: Request,
    send: &mut dyn FnMut(&Response) -> Result<(), String>,
) -> Option<Response> {
    let response = match request {
        Request::Stop => return None,
        Request::Run { id, entry } => run_entry(exec, fuzzer, id, &entry),
        Request::Fuzz {
            id,
            entry,
            seed,
            max_execs,
            millis,
            max_len,
            add_coverage,
            known_crashes,
            use_cmp,
            corpus,
            search,
        } => {
            let slice = Slice {
                seed,
                max_len,
                max_execs,
                deadline: None,
                use_cmp,
                search,
            };
            let shared = Shared {
                corpus: &corpus,
                add_coverage: &add_coverage,
                known_crashes: &known_crashes,
            };
            fuzz_slice(exec, fuzzer, id, &entry, shared, slice, millis)
        }
        Request::Check {
            id,
            entry,
            timeout_ms,
            rss_limit_mb,
        } => {
            let limits = Limits {
                timeout: Duration::from_millis(timeout_ms),
                rss_limit_mb,
            };
            match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => Response::Checked {
                    id,
                    outcome: crate::forked::check(exec, &values, limits),
                },
            }
        }
        Request::Minimize {
            id,
            entry,
            keep,
            max_execs,
            millis,
            timeout_ms,
            rss_limit_mb,
        } => {
            let budget = Budget {
                deadline: millis.map(|m| Instant::now() + Duration::from_millis(m)),
                max_execs,
            };
            let limits = Limits {
                timeout: Duration::from_millis(timeout_ms),
                rss_limit_mb,
            };
            let task = Shrink {
                id,
                keep: &keep,
                budget: &budget,
                limits,
            };
            match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => shrink(exec, &values, task, send),
            }
        }
    };
    Some(response)
}

/// `Run`: one entry, its coverage learned (it is the coordinator's now).
fn run_entry(exec: &mut Executor, fuzzer: &mut Fuzzer, id: u64, entry: &str) -> Response {
    let values = match decode(entry) {
        Err(message) => return Response::Error { id, message },
        Ok(values) => values,
    };
    let ret = exec.exec(&values);
    let features = exec.features.clone();
    fuzzer.learn(&features);
    let outcome = match exec.classify_ret(ret) {
        Verdict::Ok => Exec::Ok,
        Verdict::Rejected => Exec::Rejected,
        Verdict::Failed => Exec::Failed {
            message: exec.failure_message(&values),
        },
    };
    Response::Ran {
        id,
        outcome,
        features,
    }
}

/// What a `Fuzz` request shares of the coordinator's findings: entries
/// new to this worker, coverage found elsewhere, and the crashes recorded
/// (`known_crashes.rs`).
struct Shared<'a> {
    corpus: &'a [String],
    add_coverage: &'a [u32],
    known_crashes: &'a [u64],
}

/// `Fuzz`: the shared entries and coverage taken in, then one slice from
/// `entry`; its time (`millis`, none under -seed) starts once the entries
/// are in.
fn fuzz_slice(
    exec: &mut Executor,
    fuzzer: &mut Fuzzer,
    id: u64,
    entry: &str,
    shared: Shared,
    mut slice: Slice,
    millis: Option<u64>,
) -> Response {
    fuzzer.learn(shared.add_coverage);
    crate::known_crashes::learn(shared.known_crashes);
    // Under -seed (slices counted, not timed) times would make runs
    // differ: entries are not timed then.
    let added = fuzzer.add_entries(exec, shared.corpus, millis.is_some());
    match added.and_then(|()| decode(entry)) {
        Err(message) => Response::Error { id, message },
        Ok(parent) => {
            slice.deadline = millis.map(|m| Instant::now() + Duration::from_millis(m));
            let (execs, found) = fuzzer.fuzz(exec, &parent, &slice);
            Response::Fuzzed {
                id,
                execs,
                found,
                reduced: fuzzer.take_reduced(),
            }
        }
    }
}

/// After a request: what the target forked while serving it is killed and
/// reaped, and the coordinator is told, once.
fn reap_forks(
    send: &mut dyn FnMut(&Response) -> Result<(), String>,
    said: &mut bool,
) -> Result<(), String> {
    let forks = crate::children::take_forks();
    if forks == 0 {
        return Ok(());
    }
    let killed = crate::children::kill_all();
    if !*said {
        *said = true;
        send(&Response::Warning {
            message: format!(
                "the target forks ({forks} times in one request, {killed} children still \
                 running at its end): its children are killed when each request ends, and \
                 with the worker"
            ),
        })?;
    }
    Ok(())
}

/// A failure of the pipes to the coordinator: a descriptor the target
/// closed ends the worker saying so; anything else is an error.
fn pipe_error(doing: &str, e: &std::io::Error) -> String {
    if e.raw_os_error() == Some(libc::EBADF) {
        crate::crash::lost_pipes();
    }
    format!("{doing}: {e}")
}

fn decode(entry: &str) -> Result<Vec<Value>, String> {
    codec::decode(entry.as_bytes()).map_err(|e| format!("bad entry from the coordinator: {e}"))
}

/// A `Minimize` request: what to keep, within what budget and limits.
struct Shrink<'a> {
    id: u64,
    keep: &'a Keep,
    budget: &'a Budget,
    limits: Limits,
}

/// Minimizes `values` while they keep `task.keep`: failures are tried in
/// forked children (a crash costs a fork), coverage in-process. The best
/// so far is sent as `Progress` at most every 200 ms.
fn shrink(
    exec: &mut Executor,
    values: &[Value],
    task: Shrink,
    send: &mut dyn FnMut(&Response) -> Result<(), String>,
) -> Response {
    let Shrink {
        id,
        keep,
        budget,
        limits,
    } = task;
    let mut wanted: Vec<u32> = match keep {
        Keep::Coverage { features, .. } => features.clone(),
        Keep::Failure { .. } => Vec::new(),
    };
    wanted.sort_unstable();
    let mut execs: u64 = 0;
    let mut last_sent = Instant::now();
    let mut still = |candidate: &[Value]| -> bool {
        execs += 1;
        let kept = match keep {
            Keep::Failure { site } => {
                let outcome = crate::forked::check(exec, candidate, limits);
                match (outcome.failure_site(), site) {
                    (None, _) => false,
                    // A child stopped by a scheduler signalling every
                    // process of the job has not shown that the candidate
                    // fails; a failure of that kind is kept by its site.
                    (Some(_), None) => !outcome.by_a_stop_signal(),
                    (Some(got), Some(want)) => got == want,
                }
            }
            Keep::Coverage { isolate: true, .. } => {
                match crate::forked::check(exec, candidate, limits) {
                    fuzz_core::worker::protocol::Checked::Ok { mut features } => {
                        features.sort_unstable();
                        wanted.iter().all(|f| features.binary_search(f).is_ok())
                    }
                    _ => false,
                }
            }
            Keep::Coverage { .. } => {
                let ret = exec.exec(candidate);
                if exec.classify_ret(ret) != Verdict::Ok {
                    return false;
                }
                let mut got = exec.features.clone();
                got.sort_unstable();
                wanted.iter().all(|f| got.binary_search(f).is_ok())
            }
        };
        if kept && last_sent.elapsed() >= Duration::from_millis(200) {
            last_sent = Instant::now();
            let _ = send(&Response::Progress {
                id,
                entry: text_of(candidate),
                execs,
                size: minimize::size(candidate),
            });
        }
        kept
    };
    let (best, stats) = minimize::minimize(values, budget, &mut still, &mut |_| {});
    Response::Minimized {
        id,
        entry: text_of(&best),
        execs: stats.execs,
    }
}
