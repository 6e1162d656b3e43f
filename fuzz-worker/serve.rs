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
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::time::{Duration, Instant};

/// Serves requests until `Stop` or the coordinator goes away. Before the
/// first, after `Hello`, the target runs once on its empty input (the zero
/// values), unless `warm_up` is false: the warm-up that pays for its lazy
/// initialisation, so that every input the coordinator sends gets the time
/// limit alone.
pub fn serve(
    mut exec: Executor,
    target: &crate::library::Target,
    fd_in: RawFd,
    fd_out: RawFd,
    warm_up: bool,
) -> Result<(), String> {
    // Out of the way of a target that opens and closes descriptors.
    let (fd_in, fd_out) = (
        crate::crash::move_high(fd_in),
        crate::crash::move_high(fd_out),
    );
    // SAFETY: the coordinator passed these descriptors for our use alone.
    let input = unsafe { std::fs::File::from_raw_fd(fd_in) };
    let mut output = unsafe { std::fs::File::from_raw_fd(fd_out) };
    let mut fuzzer = Fuzzer::new(exec.counters());
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
    for line in BufReader::new(input).lines() {
        let line = line.map_err(|e| pipe_error("reading from the coordinator", &e))?;
        let request: Request = protocol::from_line(&line)?;
        let response = match request {
            Request::Stop => return Ok(()),
            Request::Run { id, entry } => match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => {
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
            },
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
                fuzzer.learn(&add_coverage);
                crate::known::learn(&known_crashes);
                // Under -seed (slices counted, not timed) times would make
                // runs differ: entries are not timed then.
                let added = fuzzer.add_entries(&mut exec, &corpus, millis.is_some());
                match added.and_then(|()| decode(&entry)) {
                    Err(message) => Response::Error { id, message },
                    Ok(parent) => {
                        let deadline = millis.map(|m| Instant::now() + Duration::from_millis(m));
                        let slice = Slice {
                            seed,
                            max_len,
                            max_execs,
                            deadline,
                            use_cmp,
                            search,
                        };
                        let (execs, found) = fuzzer.fuzz(&mut exec, &parent, &slice);
                        Response::Fuzzed { id, execs, found }
                    }
                }
            }
            Request::Check {
                id,
                entry,
                timeout_ms,
                rss_limit_mb,
            } => match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => {
                    let limits = Limits {
                        timeout: Duration::from_millis(timeout_ms),
                        rss_limit_mb,
                    };
                    let outcome = crate::forked::check(&mut exec, &values, limits);
                    Response::Checked { id, outcome }
                }
            },
            Request::Minimize {
                id,
                entry,
                keep,
                max_execs,
                millis,
                timeout_ms,
                rss_limit_mb,
            } => match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => {
                    let budget = Budget {
                        deadline: millis.map(|m| Instant::now() + Duration::from_millis(m)),
                        max_execs,
                    };
                    let limits = Limits {
                        timeout: Duration::from_millis(timeout_ms),
                        rss_limit_mb,
                    };
                    let (best, execs) =
                        shrink(&mut exec, id, &values, &keep, &budget, limits, &mut send);
                    Response::Minimized {
                        id,
                        entry: text_of(&best),
                        execs,
                    }
                }
            },
        };
        send(&response)?;
        reap_forks(&mut send, &mut forks_said)?;
    }
    Ok(())
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

/// Minimizes `values` while they keep `keep`: failures are tried in forked
/// children (a crash costs a fork), coverage in-process. The best so far
/// is sent as `Progress` at most every 200 ms.
fn shrink(
    exec: &mut Executor,
    id: u64,
    values: &[Value],
    keep: &Keep,
    budget: &Budget,
    limits: Limits,
    send: &mut dyn FnMut(&Response) -> Result<(), String>,
) -> (Vec<Value>, u64) {
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
                    (Some(_), None) => true,
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
    (best, stats.execs)
}
