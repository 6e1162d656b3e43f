//! The worker side of fuzzing: serve a coordinator's requests (see
//! `fuzz_core::worker::protocol`) in a loop, mutating and executing in-process with
//! no system call per input.
//!
//! Per execution: the mutated values are packed into a reused buffer,
//! copied into shared memory (so the coordinator can recover the input if
//! the target kills us), the target is called, and the counters are read
//! back into features, which a local bit set says are new or not. A slice
//! ends when an input adds coverage or fails, or when its budget is spent;
//! only then is anything written to the pipe.

use crate::coverage::{CounterMap, Feature};
use crate::forked::Limits;
use crate::fuzzing::{text_of, Fuzzer, Slice};
use crate::library::TargetFn;
use crate::sancov;
use fuzz_core::search::minimize::{self, Budget};
use fuzz_core::worker::protocol::TargetKind;
use fuzz_core::worker::protocol::{self, Exec, Keep, Request, Response};
use fuzz_core::worker::shm::{Mutation, MutatorCall, Shm};

/// Marks a custom mutator call as under way: which one, on which argument,
/// with how much room, and a cross-over's other entry (empty for the other
/// calls; see [`Executor::guard_mutation`]).
pub type Mark<'a> = dyn FnMut(MutatorCall, usize, usize, &[u8]) + 'a;
use fuzz_core::{format::codec, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::time::{Duration, Instant};

/// One target, ready to execute.
pub struct Executor {
    /// The target library's file name, for crash sites.
    pub module: String,
    /// Dictionary words (`-dict`), written into inputs as hints are.
    pub dict: Vec<Vec<u8>>,
    /// Words of the target's machine code (`fuzz_core::search::codewords`), part
    /// of the automatic dictionary.
    pub code_words: Vec<Vec<u8>>,
    /// The target's own mutators, when it has any.
    pub custom: Option<crate::custom::Custom>,
    /// The same target built with comparison tracing (`-cmp_lib`), run
    /// only for the comparisons it makes ([`Executor::exec_for_comparisons`]).
    pub cmp_function: Option<TargetFn>,
    function: TargetFn,
    kind: TargetKind,
    map: CounterMap,
    shm: Shm,
    buf: Vec<u8>,
    pub features: Vec<Feature>,
}

impl Executor {
    pub fn new(
        module: String,
        function: TargetFn,
        kind: TargetKind,
        map: CounterMap,
        shm: Shm,
    ) -> Executor {
        Executor {
            module,
            dict: Vec::new(),
            code_words: Vec::new(),
            custom: None,
            cmp_function: None,
            function,
            kind,
            map,
            shm,
            buf: Vec::with_capacity(1 << 16),
            features: Vec::with_capacity(1 << 12),
        }
    }

    /// Executes one entry; `self.features` then holds its coverage.
    pub fn exec(&mut self, values: &[Value]) -> i32 {
        let input = self.kind.input(values, &mut self.buf);
        self.shm.begin(input);
        self.features.clear();
        sancov::set_tracing(true);
        let (ret, survived) = crate::known::call(self.function, input);
        sancov::set_tracing(false);
        self.shm.end();
        self.map.collect(&mut self.features);
        if survived {
            // A crash at a recorded site: rejected, its coverage dropped,
            // so that a crashing input never joins the corpus.
            self.features.clear();
            return -1;
        }
        ret
    }

    /// Runs `values` through the comparison build of the target, when
    /// there is one, so that the comparison tables hold what this input
    /// compares and nothing older (nothing happens without one). Its
    /// coverage is not read (its counters are its own; what it wrote into
    /// counters the two builds share, gcc's PC map, is cleared), and its
    /// return value does not count: the fast build judges every input.
    /// Shared memory holds the input, so a crash here is reported like
    /// any other.
    pub fn exec_for_comparisons(&mut self, values: &[Value]) {
        let Some(function) = self.cmp_function else {
            return;
        };
        let input = self.kind.input(values, &mut self.buf);
        self.shm.begin(input);
        sancov::clear_comparisons();
        sancov::set_tracing(true);
        // SAFETY: the same target's contract, in its other build.
        unsafe { function(input.as_ptr(), input.len()) };
        sancov::set_tracing(false);
        self.shm.end();
        self.map.reset();
    }

    /// Runs `mutate`, which may call the target's own custom mutators on
    /// `values`, seeded with `seed`, as the coordinator times and blames
    /// an execution: shared memory holds the input being mutated, and
    /// `mutate` marks each call it makes (`mark(call, arg, max_size,
    /// other)`), so that a mutator that crashes or hangs is reported as
    /// such, with what reproduces it. None when the target has no custom
    /// mutators.
    pub fn guard_mutation<R>(
        &mut self,
        values: &mut [Value],
        seed: u32,
        mutate: impl FnOnce(&crate::custom::Custom, &mut [Value], &mut Mark) -> R,
    ) -> Option<R> {
        let custom = self.custom.as_ref()?;
        let input = self.kind.input(values, &mut self.buf);
        self.shm.stage(input);
        let shm = &mut self.shm;
        let mut mark = |call, arg: usize, max_size: usize, other: &[u8]| {
            shm.stage_other(other);
            shm.begin_mutation(Mutation {
                call,
                arg: arg.min(u16::MAX as usize) as u16,
                max_size: max_size as u64,
                seed,
            })
        };
        let r = mutate(custom, values, &mut mark);
        self.shm.end_mutation();
        Some(r)
    }

    /// Coverage counters read per execution.
    pub fn counters(&self) -> u32 {
        self.map.total()
    }

    /// How an execution ended, given the target's return value.
    pub fn classify_ret(&self, ret: i32) -> Verdict {
        match (ret, &self.kind) {
            (-1, _) => Verdict::Rejected,
            (_, TargetKind::LibFuzzer) | (0, TargetKind::Typed) => Verdict::Ok,
            _ => Verdict::Failed,
        }
    }

    /// Runs again with stderr captured, for a failure's message.
    pub(crate) fn failure_message(&mut self, values: &[Value]) -> String {
        let (ret, text) = capture_stderr(|| self.exec(values));
        crate::supervise::failure_message(&text, ret)
    }
}

#[derive(PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Rejected,
    Failed,
}

/// Calls `f` with fd 2 redirected to a memory file; returns its result and
/// what it wrote.
fn capture_stderr(f: impl FnOnce() -> i32) -> (i32, String) {
    // SAFETY: plain fd juggling on this process's own descriptors; fd 2 is
    // restored before returning.
    unsafe {
        let fd = libc::memfd_create(c"fuzz-worker-message".as_ptr(), 0);
        if fd < 0 {
            return (f(), String::new());
        }
        let saved = libc::dup(2);
        libc::dup2(fd, 2);
        let ret = f();
        libc::dup2(saved, 2);
        libc::close(saved);
        let mut file = std::fs::File::from_raw_fd(fd);
        use std::io::{Read, Seek};
        let _ = file.seek(std::io::SeekFrom::Start(0));
        let mut text = Vec::new();
        let _ = file.read_to_end(&mut text);
        (ret, String::from_utf8_lossy(&text).into_owned())
    }
}

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
        counters: exec.map.total(),
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
                    let module = exec.module.clone();
                    let limits = Limits {
                        timeout: Duration::from_millis(timeout_ms),
                        rss_limit_mb,
                    };
                    let outcome = crate::forked::check(&mut exec, &values, limits, &module);
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
    let module = exec.module.clone();
    let mut execs: u64 = 0;
    let mut last_sent = Instant::now();
    let mut still = |candidate: &[Value]| -> bool {
        execs += 1;
        let kept = match keep {
            Keep::Failure { site } => {
                let outcome = crate::forked::check(exec, candidate, limits, &module);
                match (outcome.failure_site(), site) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(got), Some(want)) => got == want,
                }
            }
            Keep::Coverage { isolate: true, .. } => {
                match crate::forked::check(exec, candidate, limits, &module) {
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
