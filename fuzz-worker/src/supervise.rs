//! Running inputs so that one crash does not stop the rest: a child process
//! (forked before any thread exists) executes the inputs one after another
//! and reports each on a pipe; the parent watches the clock and the child's
//! memory, and when the child dies, hangs or blows its memory limit, it
//! records what happened to the input in flight and starts a new child for
//! the rest.
//!
//! The child's stdout and stderr go to one memory file the parent can read,
//! so what a target prints never mixes with our results, and the part it
//! wrote while running one input is that input's message or crash report.
//!
//! The child first runs the warm-up (the empty input, or the zero values),
//! saying `W` when it is done, so that the target's lazy initialisation is
//! paid for before any input counts: the warm-up gets the allowance
//! ARCHITECTURE.md gives (max(60 s, 10 × -timeout)), every input -timeout. A
//! warm-up that crashes or hangs is skipped in the next child, whose first
//! input then gets the allowance. The child says `S <i> <stderr offset>`
//! before input i and `D <i> <return value> <features> <fingerprint>`
//! after it; the crash handler adds `C <signal> <stack overflow>` when it
//! can. Ctrl-C (SIGINT, SIGTERM, SIGHUP) stops it within a fraction of a
//! second; the outcomes so far are kept.

use crate::children::{exit_now, readable, signal_or_code};
use crate::coverage::fingerprint;
use crate::executor::{self, Executor, Verdict};
use crate::sancov;
use fuzz_core::worker::client::{rss_mb, warm_up_allowance};
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::Value;
use nix::fcntl::OFlag;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::waitpid;
use nix::unistd::{lseek, pipe2, read, write, ForkResult, Pid, Whence};
use std::fs::File;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

/// What happened to one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Ran and passed. `cov` is (features, fingerprint) when asked for.
    Ok {
        cov: Option<(usize, u64)>,
    },
    /// The target rejected it (returned -1).
    Rejected {
        cov: Option<(usize, u64)>,
    },
    /// A typed target returned failure; the message is what it wrote.
    Failed {
        message: String,
        cov: Option<(usize, u64)>,
    },
    /// Killed by a signal or a sanitizer; `kind` is `SIGSEGV`,
    /// `asan: heap-buffer-overflow`, …
    Crashed {
        kind: DeathKind,
        report: String,
    },
    StackOverflow {
        report: String,
    },
    /// Ran past the time limit `after`; it had run for `ran` when its
    /// stack was taken (the report: where it was).
    TimedOut {
        after: Duration,
        ran: Duration,
        report: String,
    },
    OutOfMemory {
        rss_mb: u64,
        report: String,
    },
    /// The target called exit().
    Exited {
        code: i32,
        report: String,
    },
}

impl Outcome {
    /// True for everything that is a finding.
    pub fn is_finding(&self) -> bool {
        !matches!(self, Outcome::Ok { .. } | Outcome::Rejected { .. })
    }
}

/// How to run the inputs.
pub struct Job<'a> {
    /// Each input's values, checked against the target's types.
    pub inputs: &'a [Vec<Value>],
    pub timeout: Duration,
    pub rss_limit_mb: u64,
    /// Run before the first input in each child: LLVMFuzzerInitialize,
    /// or for a Go library, its loading (see golib.rs). An error ends the
    /// child, and the run.
    pub init: &'a dyn Fn(&mut Executor) -> Result<(), String>,
    /// The warm-up input: the empty input, or the zero values.
    pub warm_up: &'a [Value],
    /// True once the run is to stop (Ctrl-C); asked every 20 ms.
    pub stop: fn() -> bool,
}

/// What became of the inputs: one outcome per input run, in order; fewer
/// than the inputs when the run was stopped.
pub struct Outcomes {
    pub outcomes: Vec<Outcome>,
    pub stopped: bool,
}

/// Runs every input (until stopped) through `exec`, in children (each
/// runs a copy of it), and returns one outcome per input, in order.
pub fn run_all(job: &Job, exec: &mut Executor) -> Result<Outcomes, String> {
    let capture = crate::children::capture_file("fuzz-worker-output")?;
    let capture = &capture;
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(job.inputs.len());
    let allowance = warm_up_allowance(job.timeout);
    let mut warm_up = true;
    let mut stopped = false;
    'children: while outcomes.len() < job.inputs.len() {
        let first = outcomes.len();
        let mut child = spawn(job, exec, first, capture, warm_up)?;
        let mut first_limit = allowance;
        if warm_up {
            match child.wait_warm(allowance, job) {
                Wait::Ok => first_limit = job.timeout,
                Wait::Failed => {
                    // Its crash or hang is not an input's: the next child
                    // skips the warm-up, and its first input gets the
                    // allowance.
                    warm_up = false;
                    continue;
                }
                Wait::Stopped => {
                    stopped = true;
                    break;
                }
                Wait::Error(why) => return Err(why),
            }
        }
        let mut limit = first_limit;
        loop {
            let i = outcomes.len();
            if i >= job.inputs.len() {
                child.finish();
                break;
            }
            match child.wait_input(i, limit, job) {
                Event::Done { ret, cov } => {
                    outcomes.push(classify_return(exec, ret, cov, child.stderr_since()))
                }
                Event::Died(outcome) => {
                    outcomes.push(outcome);
                    break; // start a new child for the rest
                }
                Event::Stopped => {
                    stopped = true;
                    break 'children;
                }
                Event::Error(why) => return Err(why),
            }
            limit = job.timeout;
        }
    }
    Ok(Outcomes { outcomes, stopped })
}

/// How a child's warm-up went.
enum Wait {
    Ok,
    Failed,
    Stopped,
    /// The child could not get ready to run (its `E` line).
    Error(String),
}

fn classify_return(
    exec: &Executor,
    ret: i32,
    cov: Option<(usize, u64)>,
    stderr: String,
) -> Outcome {
    match exec.classify_ret(ret) {
        Verdict::Rejected => Outcome::Rejected { cov },
        Verdict::Ok => Outcome::Ok { cov },
        Verdict::Failed => Outcome::Failed {
            message: executor::failure_message(&stderr, ret),
            cov,
        },
    }
}

enum Event {
    Done {
        ret: i32,
        cov: Option<(usize, u64)>,
    },
    Died(Outcome),
    Stopped,
    /// The child could not get ready to run (its `E` line).
    Error(String),
}

struct Child<'a> {
    pid: Pid,
    reports: OwnedFd,
    capture: &'a File,
    buf: Vec<u8>,
    stderr_offset: u64,
    /// Where the current input's output ended, once it is done.
    stderr_end: Option<u64>,
    crash: Option<(i32, bool)>,
    exited: bool,
}

fn spawn<'a>(
    job: &Job,
    exec: &mut Executor,
    first: usize,
    capture: &'a File,
    warm_up: bool,
) -> Result<Child<'a>, String> {
    let (read_end, write_end) = pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe: {e}"))?;
    // SAFETY: the worker has no other threads here (ARCHITECTURE.md: fork before
    // starting any thread); the child only runs the target loop and exits
    // with _exit, never returning into the parent's code.
    match unsafe { crate::children::fork() } {
        Err(e) => Err(format!("fork: {e}")),
        Ok(ForkResult::Child) => {
            drop(read_end);
            child_loop(job, exec, first, capture, write_end, warm_up)
        }
        Ok(ForkResult::Parent { child }) => Ok(Child {
            pid: child,
            reports: read_end,
            capture,
            buf: Vec::new(),
            stderr_offset: 0,
            stderr_end: None,
            crash: None,
            exited: false,
        }),
    }
}

/// The child: die with the parent, send stdout nowhere and stderr to the
/// capture (stderr alone is a target's message), then run inputs `first..`
/// and report each. Never returns. The process has no other thread, so
/// it may allocate.
fn child_loop(
    job: &Job,
    exec: &mut Executor,
    first: usize,
    capture: &File,
    out: OwnedFd,
    warm_up: bool,
) -> ! {
    crate::children::die_with_parent();
    crate::children::quiet_stdout(capture);
    crate::crash::install(out.as_raw_fd());
    sancov::clear_comparisons();
    if let Err(e) = (job.init)(exec) {
        send(&out, &format!("E {}\n", e.replace('\n', " ")));
        exit_now(INIT_FAILED)
    }
    crate::golib::within(|| {
        if warm_up {
            exec.exec(job.warm_up);
            send(&out, "W\n");
        }
        // Initialisation may have touched counters; from here on each read
        // also resets, so the tables are walked once per input.
        exec.reset_counters();
        for i in first..job.inputs.len() {
            let offset = lseek(std::io::stderr(), 0, Whence::SeekEnd).unwrap_or(-1);
            send(&out, &format!("S {i} {offset}\n"));
            let ret = exec.exec(&job.inputs[i]);
            let end = lseek(std::io::stderr(), 0, Whence::SeekEnd).unwrap_or(-1);
            let features = &exec.features;
            send(
                &out,
                &format!(
                    "D {i} {ret} {} {:x} {end}\n",
                    features.len(),
                    fingerprint(features)
                ),
            );
        }
    });
    exit_now(0)
}

/// The exit status of a child whose initialisation failed (it said why in
/// an `E` line).
const INIT_FAILED: i32 = 119;

/// Sends one report line, or leaves: the parent is gone.
fn send(fd: &OwnedFd, line: &str) {
    let mut rest = line.as_bytes();
    while !rest.is_empty() {
        match write(fd, rest) {
            Ok(n) if n > 0 => rest = &rest[n..],
            _ => exit_now(101),
        }
    }
}

impl Child<'_> {
    /// Waits for the child's warm-up, within `limit` (none for zero).
    fn wait_warm(&mut self, limit: Duration, job: &Job) -> Wait {
        let start = Instant::now();
        loop {
            while let Some(line) = self.next_line() {
                if line == "W" {
                    return Wait::Ok;
                }
                if let Some(why) = line.strip_prefix("E ") {
                    self.kill();
                    return Wait::Error(why.to_string());
                }
            }
            if (job.stop)() {
                self.kill();
                return Wait::Stopped;
            }
            let over = !limit.is_zero() && start.elapsed() > limit;
            let blown = rss_mb(self.pid.as_raw())
                .is_some_and(|r| r > job.rss_limit_mb && job.rss_limit_mb > 0);
            if self.exited || over || blown {
                self.kill();
                return Wait::Failed;
            }
            self.poll(Duration::from_millis(20));
        }
    }

    /// Waits for input `i` to finish, within `limit` (none for zero) once
    /// it has started.
    fn wait_input(&mut self, i: usize, limit: Duration, job: &Job) -> Event {
        let rss_limit_mb = job.rss_limit_mb;
        let mut started: Option<Instant> = None;
        let wait_start = Instant::now();
        loop {
            if (job.stop)() {
                self.kill();
                return Event::Stopped;
            }
            while let Some(line) = self.next_line() {
                let parts: Vec<&str> = line.split_whitespace().collect();
                match parts.as_slice() {
                    ["S", n, off] if n.parse() == Ok(i) => {
                        self.stderr_offset = off.parse().unwrap_or(0);
                        self.stderr_end = None;
                        started = Some(Instant::now());
                    }
                    ["D", n, ret, count, fp, end] if n.parse() == Ok(i) => {
                        // What the input wrote ends here: the child may be
                        // writing the next one's by the time this is read.
                        self.stderr_end = end.parse().ok();
                        let cov = Some((
                            count.parse().unwrap_or(0),
                            u64::from_str_radix(fp, 16).unwrap_or(0),
                        ));
                        return Event::Done {
                            ret: ret.parse().unwrap_or(0),
                            cov,
                        };
                    }
                    ["E", ..] => {
                        self.kill();
                        return Event::Error(line[2..].to_string());
                    }
                    ["C", sig, overflow] => {
                        self.crash = Some((sig.parse().unwrap_or(0), *overflow == "1"));
                    }
                    _ => {}
                }
            }
            if self.exited {
                let death = self.death();
                // Signalled from outside with this process (a scheduler
                // stopping the job signals every process of it, the child
                // maybe first): a stop, not the input's failure.
                if let Outcome::Crashed { kind, report } = &death {
                    if fuzz_core::worker::crash::maybe_a_stop(kind, report)
                        && fuzz_cli::interrupt::stop_comes(job.stop)
                    {
                        return Event::Stopped;
                    }
                }
                return Event::Died(death);
            }
            let clock = started.unwrap_or(wait_start);
            if !limit.is_zero() && clock.elapsed() > limit {
                let ran = clock.elapsed();
                self.ask_for_stack();
                let report = self.stderr_since();
                // A crash whose handler then blocked is still that crash.
                if let Some(kind) = fuzz_core::worker::crash::reported_signal(&report) {
                    return Event::Died(Outcome::Crashed { kind, report });
                }
                return Event::Died(Outcome::TimedOut {
                    after: limit,
                    ran,
                    report,
                });
            }
            if let Some(rss) = rss_mb(self.pid.as_raw()).filter(|_| rss_limit_mb > 0) {
                if rss > rss_limit_mb {
                    self.kill();
                    return Event::Died(Outcome::OutOfMemory {
                        rss_mb: rss,
                        report: self.stderr_since(),
                    });
                }
            }
            self.poll(Duration::from_millis(20));
        }
    }

    /// The child ran past its limit: it is asked where it is (it writes its
    /// stack and dies), and killed if it has not died within the grace.
    fn ask_for_stack(&mut self) {
        let _ = kill(self.pid, crate::crash::TIMEOUT_SIGNAL);
        let asked = Instant::now();
        while !self.exited && asked.elapsed() < fuzz_core::worker::client::STACK_GRACE {
            self.poll(Duration::from_millis(20));
        }
        self.kill();
    }

    /// Reads what the child sent within `wait`; notes EOF.
    fn poll(&mut self, wait: Duration) {
        if !readable(self.reports.as_fd(), wait) {
            return;
        }
        let mut chunk = [0u8; 4096];
        match read(&self.reports, &mut chunk) {
            Ok(n) if n > 0 => self.buf.extend_from_slice(&chunk[..n]),
            _ => self.exited = true,
        }
    }

    fn next_line(&mut self) -> Option<String> {
        let pos = self.buf.iter().position(|&b| b == b'\n')?;
        let line: Vec<u8> = self.buf.drain(..=pos).collect();
        Some(String::from_utf8_lossy(&line).trim_end().to_string())
    }

    /// What the child wrote for the current input: from its start to its
    /// end, or to now while it runs (or when it died).
    fn stderr_since(&self) -> String {
        let Ok(meta) = self.capture.metadata() else {
            return String::new();
        };
        let end = self.stderr_end.unwrap_or(u64::MAX).min(meta.len());
        let start = self.stderr_offset.min(end);
        let mut buf = vec![0u8; (end - start) as usize];
        let n = self.capture.read_at(&mut buf, start).unwrap_or(0);
        buf.truncate(n);
        String::from_utf8_lossy(&buf).into_owned()
    }

    fn kill(&mut self) {
        let _ = kill(self.pid, Signal::SIGKILL);
        let _ = waitpid(self.pid, None);
        self.exited = true;
    }

    /// The child is gone: how, and what it left on stderr.
    fn death(&mut self) -> Outcome {
        let status = waitpid(self.pid, None);
        let report = self.stderr_since();
        if let Some((_, true)) = self.crash {
            return Outcome::StackOverflow { report };
        }
        let (signal, code) = signal_or_code(status);
        let kind = fuzz_core::worker::crash::death_kind(signal, code, &report);
        match kind {
            DeathKind::StackOverflow => Outcome::StackOverflow { report },
            DeathKind::Exit { status } => Outcome::Exited {
                code: status,
                report,
            },
            _ => Outcome::Crashed { kind, report },
        }
    }

    /// Ends a child that has run every input.
    fn finish(&mut self) {
        let _ = waitpid(self.pid, None);
    }
}
