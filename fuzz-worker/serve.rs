//! The worker side of fuzzing: serve a coordinator's requests (see
//! `fuzz_core::protocol`) in a loop, mutating and executing in-process with
//! no system call per input.
//!
//! Per execution: the mutated values are packed into a reused buffer,
//! copied into shared memory (so the coordinator can recover the input if
//! the target kills us), the target is called, and the counters are read
//! back into features, which a local bit set says are new or not. A slice
//! ends when an input adds coverage or fails, or when its budget is spent;
//! only then is anything written to the pipe.

use crate::coverage::{CounterMap, Feature};
use crate::library::{Kind, TargetFn};
use crate::sancov;
use fuzz_core::minimize::{self, Budget};
use fuzz_core::mutator::{Mutator, CHAIN};
use fuzz_core::protocol::{self, Exec, Found, Keep, Request, Response};
use fuzz_core::shm::Shm;
use fuzz_core::{codec, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::time::{Duration, Instant};

/// The features seen so far, one bit each.
struct Known {
    bits: Vec<u64>,
}

impl Known {
    fn new(counters: u32) -> Known {
        Known {
            bits: vec![0; ((counters as usize) << 3).div_ceil(64) + 1],
        }
    }
    /// Marks a feature seen; true if it was not before.
    fn insert(&mut self, f: Feature) -> bool {
        let (w, b) = ((f / 64) as usize, f % 64);
        match self.bits.get_mut(w) {
            Some(word) if *word & (1 << b) == 0 => {
                *word |= 1 << b;
                true
            }
            _ => false,
        }
    }
}

/// One target, ready to execute.
pub struct Executor {
    /// The target library's file name, for crash sites.
    pub module: String,
    /// Dictionary words (`-dict`), written into inputs as hints are.
    pub dict: Vec<Vec<u8>>,
    function: TargetFn,
    kind: Kind,
    map: CounterMap,
    shm: Shm,
    buf: Vec<u8>,
    pub features: Vec<Feature>,
}

impl Executor {
    pub fn new(
        module: String,
        function: TargetFn,
        kind: Kind,
        map: CounterMap,
        shm: Shm,
    ) -> Executor {
        Executor {
            module,
            dict: Vec::new(),
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
        // A libFuzzer entry takes the bytes as they are: no packing copy.
        let input: &[u8] = match self.kind {
            Kind::LibFuzzer => values.first().and_then(Value::as_bytes).unwrap_or_default(),
            Kind::Typed => {
                self.buf.clear();
                pack_into(values, &mut self.buf);
                &self.buf
            }
        };
        self.shm.begin(input);
        self.features.clear();
        sancov::set_tracing(true);
        // SAFETY: calling the target as its contract says, with its input.
        let ret = unsafe { (self.function)(input.as_ptr(), input.len()) };
        sancov::set_tracing(false);
        self.shm.end();
        self.map.collect(&mut self.features);
        ret
    }

    /// How an execution ended, given the target's return value.
    pub fn classify_ret(&self, ret: i32) -> Verdict {
        match (ret, &self.kind) {
            (-1, _) => Verdict::Rejected,
            (_, Kind::LibFuzzer) | (0, Kind::Typed) => Verdict::Ok,
            _ => Verdict::Failed,
        }
    }

    /// Runs again with stderr captured, for a failure's message.
    fn failure_message(&mut self, values: &[Value]) -> String {
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

fn pack_into(values: &[Value], out: &mut Vec<u8>) {
    for v in values {
        match v {
            Value::Bytes(b) | Value::String(b) | Value::Custom { data: b, .. } => {
                out.extend_from_slice(&(b.len() as u32).to_le_bytes());
                out.extend_from_slice(b);
            }
            Value::Bool(x) => out.push(*x as u8),
            Value::Int(x) | Value::Int64(x) => out.extend_from_slice(&x.to_le_bytes()),
            Value::Int8(x) => out.push(*x as u8),
            Value::Int16(x) => out.extend_from_slice(&x.to_le_bytes()),
            Value::Int32(x) => out.extend_from_slice(&x.to_le_bytes()),
            Value::Uint(x) | Value::Uint64(x) => out.extend_from_slice(&x.to_le_bytes()),
            Value::Uint8(x) => out.push(*x),
            Value::Uint16(x) => out.extend_from_slice(&x.to_le_bytes()),
            Value::Uint32(x) => out.extend_from_slice(&x.to_le_bytes()),
            Value::Float32(x) => out.extend_from_slice(&x.to_bits().to_le_bytes()),
            Value::Float64(x) => out.extend_from_slice(&x.to_bits().to_le_bytes()),
        }
    }
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

/// Serves requests until `Stop` or the coordinator goes away.
pub fn serve(
    mut exec: Executor,
    target: &crate::library::Target,
    fd_in: RawFd,
    fd_out: RawFd,
) -> Result<(), String> {
    // SAFETY: the coordinator passed these descriptors for our use alone.
    let input = unsafe { std::fs::File::from_raw_fd(fd_in) };
    let mut output = unsafe { std::fs::File::from_raw_fd(fd_out) };
    let mut known = Known::new(exec.map.total());
    let mut send = |r: &Response| -> Result<(), String> {
        output
            .write_all(protocol::to_line(r).as_bytes())
            .map_err(|e| format!("writing to the coordinator: {e}"))
    };
    send(&Response::Hello {
        version: protocol::VERSION,
        target: target.name.clone(),
        kind: match target.kind {
            Kind::LibFuzzer => "libfuzzer".into(),
            Kind::Typed => "typed".into(),
        },
        args: target.args.iter().map(|a| a.to_string()).collect(),
        counters: exec.map.total(),
    })?;
    for line in BufReader::new(input).lines() {
        let line = line.map_err(|e| format!("reading from the coordinator: {e}"))?;
        let request: Request = protocol::from_line(&line)?;
        let response = match request {
            Request::Stop => return Ok(()),
            Request::Run { id, entry } => match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => {
                    let ret = exec.exec(&values);
                    let features = exec.features.clone();
                    for &f in &features {
                        known.insert(f);
                    }
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
                use_cmp,
            } => {
                for f in add_coverage {
                    known.insert(f);
                }
                match decode(&entry) {
                    Err(message) => Response::Error { id, message },
                    Ok(parent) => {
                        let deadline = millis.map(|m| Instant::now() + Duration::from_millis(m));
                        let slice = Slice {
                            seed,
                            max_len,
                            max_execs,
                            deadline,
                            use_cmp,
                        };
                        let (execs, found) = fuzz(&mut exec, &mut known, &parent, &slice);
                        Response::Fuzzed { id, execs, found }
                    }
                }
            }
            Request::Check {
                id,
                entry,
                timeout_ms,
            } => match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => {
                    let module = exec.module.clone();
                    let outcome = crate::forked::check(
                        &mut exec,
                        &values,
                        Duration::from_millis(timeout_ms),
                        &module,
                    );
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
            } => match decode(&entry) {
                Err(message) => Response::Error { id, message },
                Ok(values) => {
                    let budget = Budget {
                        deadline: millis.map(|m| Instant::now() + Duration::from_millis(m)),
                        max_execs,
                    };
                    let timeout = Duration::from_millis(timeout_ms);
                    let (best, execs) =
                        shrink(&mut exec, id, &values, &keep, &budget, timeout, &mut send);
                    Response::Minimized {
                        id,
                        entry: text_of(&best),
                        execs,
                    }
                }
            },
        };
        send(&response)?;
    }
    Ok(())
}

fn decode(entry: &str) -> Result<Vec<Value>, String> {
    codec::decode(entry.as_bytes()).map_err(|e| format!("bad entry from the coordinator: {e}"))
}

/// The limits and switches of one fuzzing slice.
struct Slice {
    seed: u64,
    max_len: usize,
    max_execs: Option<u64>,
    deadline: Option<Instant>,
    use_cmp: bool,
}

/// How often (one mutation in this many) a comparison hint is used
/// instead of Go's mutators, and how often (in executions) the hints are
/// read again from the comparison tables.
const HINT_ONE_IN: usize = 4;
const HINT_REFRESH: u64 = 256;
/// One mutation in this many writes a dictionary word (`-dict`).
const DICT_ONE_IN: usize = 8;

/// One fuzzing slice: mutate from `parent` (restoring it every CHAIN
/// mutations, as Go does) until something is found or the budget ends.
/// With `use_cmp`, a share of the mutations write operands the target was
/// seen comparing (`fuzz_core::hints`).
fn fuzz(
    exec: &mut Executor,
    known: &mut Known,
    parent: &[Value],
    slice: &Slice,
) -> (u64, Option<Found>) {
    let mut mutator = Mutator::new(slice.seed, slice.max_len);
    let mut values = parent.to_vec();
    let mut hints = fuzz_core::hints::Hints::default();
    let mut execs: u64 = 0;
    loop {
        if slice.max_execs.is_some_and(|m| execs >= m) {
            return (execs, None);
        }
        if execs % 64 == 0 && slice.deadline.is_some_and(|d| Instant::now() >= d) {
            return (execs, None);
        }
        if slice.use_cmp && execs % HINT_REFRESH == 0 {
            hints = sancov::hints();
        }
        if execs % CHAIN as u64 == 0 {
            values.clone_from_slice(parent);
        }
        let draw = mutator.rng_mut().intn(DICT_ONE_IN * HINT_ONE_IN);
        let worded = !exec.dict.is_empty() && draw < HINT_ONE_IN && {
            let rng = mutator.rng_mut();
            let word = &exec.dict[rng.intn(exec.dict.len())];
            fuzz_core::hints::place_word(&mut values, word, rng, slice.max_len)
        };
        let hinted = !worded
            && !hints.is_empty()
            && draw % HINT_ONE_IN == 0
            && fuzz_core::hints::mutate(&mut values, &hints, mutator.rng_mut(), slice.max_len);
        if !worded && !hinted {
            mutator.mutate(&mut values);
        }
        let ret = exec.exec(&values);
        execs += 1;
        match exec.classify_ret(ret) {
            Verdict::Rejected => continue,
            Verdict::Failed => {
                let message = exec.failure_message(&values);
                let entry = String::from_utf8(codec::encode(&values)).expect("v1 text is UTF-8");
                return (execs, Some(Found::Failure { entry, message }));
            }
            Verdict::Ok => {}
        }
        let mut new: Vec<u32> = Vec::new();
        for &f in &exec.features {
            if known.insert(f) {
                new.push(f);
            }
        }
        if !new.is_empty() {
            let entry = String::from_utf8(codec::encode(&values)).expect("v1 text is UTF-8");
            return (
                execs,
                Some(Found::NewCoverage {
                    entry,
                    features: new,
                }),
            );
        }
    }
}

fn text_of(values: &[Value]) -> String {
    String::from_utf8(codec::encode(values)).expect("v1 text is UTF-8")
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
    timeout: Duration,
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
                let outcome = crate::forked::check(exec, candidate, timeout, &module);
                match (outcome.failure_site(), site) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(got), Some(want)) => got == want,
                }
            }
            Keep::Coverage { isolate: true, .. } => {
                match crate::forked::check(exec, candidate, timeout, &module) {
                    fuzz_core::protocol::Checked::Ok { mut features } => {
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
