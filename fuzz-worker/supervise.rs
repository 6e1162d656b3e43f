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
//! DESIGN.md gives (max(60 s, 10 × -timeout)), every input -timeout. A
//! warm-up that crashes or hangs is skipped in the next child, whose first
//! input then gets the allowance. The child says `S <i> <stderr offset>`
//! before input i and `D <i> <return value> <features> <fingerprint>`
//! after it; the crash handler adds `C <signal> <stack overflow>` when it
//! can. Ctrl-C (SIGINT, SIGTERM, SIGHUP) stops it within a fraction of a
//! second; the outcomes so far are kept.

use crate::coverage::fingerprint;
use crate::executor::{self, Executor, Verdict};
use crate::sancov;
use fuzz_core::worker::client::{rss_mb, warm_up_allowance};
use fuzz_core::worker::crash::DeathKind;
use fuzz_core::Value;
use std::os::fd::RawFd;
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
    /// Run before the first input in each child (LLVMFuzzerInitialize).
    pub init: &'a dyn Fn(),
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
    let capture = memfd()?;
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
            }
            limit = job.timeout;
        }
    }
    // SAFETY: closing our memfd.
    unsafe { libc::close(capture) };
    Ok(Outcomes { outcomes, stopped })
}

/// How a child's warm-up went.
enum Wait {
    Ok,
    Failed,
    Stopped,
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

fn memfd() -> Result<RawFd, String> {
    // SAFETY: memfd_create with a static name.
    let fd = unsafe { libc::memfd_create(c"fuzz-worker-output".as_ptr(), 0) };
    if fd < 0 {
        return Err(format!("memfd_create: {}", std::io::Error::last_os_error()));
    }
    Ok(fd)
}

enum Event {
    Done { ret: i32, cov: Option<(usize, u64)> },
    Died(Outcome),
    Stopped,
}

struct Child {
    pid: libc::pid_t,
    reports: RawFd,
    capture: RawFd,
    buf: Vec<u8>,
    stderr_offset: u64,
    crash: Option<(i32, bool)>,
    exited: bool,
}

fn spawn(
    job: &Job,
    exec: &mut Executor,
    first: usize,
    capture: RawFd,
    warm_up: bool,
) -> Result<Child, String> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: creating a pipe into a local array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    let (read_end, write_end) = (fds[0], fds[1]);
    // SAFETY: the worker has no other threads here (DESIGN.md: fork before
    // starting any thread); the child only runs the target loop and exits
    // with _exit, never returning into the parent's code.
    let pid = unsafe { crate::children::fork() };
    if pid < 0 {
        return Err(format!("fork: {}", std::io::Error::last_os_error()));
    }
    if pid == 0 {
        // SAFETY: in the child: die with the parent, redirect output, then
        // run inputs. What the target writes to stdout is dropped: stderr
        // alone is its message.
        unsafe {
            let parent = libc::getppid();
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 || parent == 1 {
                libc::_exit(1);
            }
            libc::close(read_end);
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
            libc::dup2(if null >= 0 { null } else { capture }, 1);
            libc::dup2(capture, 2);
            child_loop(job, exec, first, write_end, warm_up);
        }
    }
    // SAFETY: the parent keeps only the read end.
    unsafe { libc::close(write_end) };
    Ok(Child {
        pid,
        reports: read_end,
        capture,
        buf: Vec::new(),
        stderr_offset: 0,
        crash: None,
        exited: false,
    })
}

/// The child: run inputs `first..` and report each. Never returns.
///
/// # Safety
/// Call only in a freshly forked child.
unsafe fn child_loop(job: &Job, exec: &mut Executor, first: usize, out: RawFd, warm_up: bool) -> ! {
    crate::crash::install(out);
    sancov::clear_comparisons();
    (job.init)();
    if warm_up {
        exec.exec(job.warm_up);
        send(out, "W\n");
    }
    // Initialisation may have touched counters; from here on each read
    // also resets, so the tables are walked once per input.
    exec.reset_counters();
    for i in first..job.inputs.len() {
        let offset = libc::lseek(2, 0, libc::SEEK_END);
        send(out, &format!("S {i} {offset}\n"));
        let ret = exec.exec(&job.inputs[i]);
        let features = &exec.features;
        send(
            out,
            &format!(
                "D {i} {ret} {} {:x}\n",
                features.len(),
                fingerprint(features)
            ),
        );
    }
    libc::_exit(0)
}

unsafe fn send(fd: RawFd, line: &str) {
    let mut rest = line.as_bytes();
    while !rest.is_empty() {
        let n = libc::write(fd, rest.as_ptr().cast(), rest.len());
        if n <= 0 {
            libc::_exit(101);
        }
        rest = &rest[n as usize..];
    }
}

impl Child {
    /// Waits for the child's warm-up, within `limit` (none for zero).
    fn wait_warm(&mut self, limit: Duration, job: &Job) -> Wait {
        let start = Instant::now();
        loop {
            while let Some(line) = self.next_line() {
                if line == "W" {
                    return Wait::Ok;
                }
            }
            if (job.stop)() {
                self.kill();
                return Wait::Stopped;
            }
            let over = !limit.is_zero() && start.elapsed() > limit;
            let blown =
                rss_mb(self.pid).is_some_and(|r| r > job.rss_limit_mb && job.rss_limit_mb > 0);
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
                        started = Some(Instant::now());
                    }
                    ["D", n, ret, count, fp] if n.parse() == Ok(i) => {
                        let cov = Some((
                            count.parse().unwrap_or(0),
                            u64::from_str_radix(fp, 16).unwrap_or(0),
                        ));
                        return Event::Done {
                            ret: ret.parse().unwrap_or(0),
                            cov,
                        };
                    }
                    ["C", sig, overflow] => {
                        self.crash = Some((sig.parse().unwrap_or(0), *overflow == "1"));
                    }
                    _ => {}
                }
            }
            if self.exited {
                return Event::Died(self.death());
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
            if let Some(rss) = rss_mb(self.pid).filter(|_| rss_limit_mb > 0) {
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
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.pid, crate::crash::TIMEOUT_SIGNAL) };
        let asked = Instant::now();
        while !self.exited && asked.elapsed() < fuzz_core::worker::client::STACK_GRACE {
            self.poll(Duration::from_millis(20));
        }
        self.kill();
    }

    /// Reads what the child sent within `wait`; notes EOF.
    fn poll(&mut self, wait: Duration) {
        let mut pfd = libc::pollfd {
            fd: self.reports,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll and read on our own pipe end.
        unsafe {
            if libc::poll(&mut pfd, 1, wait.as_millis() as libc::c_int) <= 0 {
                return;
            }
            let mut chunk = [0u8; 4096];
            let n = libc::read(self.reports, chunk.as_mut_ptr().cast(), chunk.len());
            if n <= 0 {
                self.exited = true;
            } else {
                self.buf.extend_from_slice(&chunk[..n as usize]);
            }
        }
    }

    fn next_line(&mut self) -> Option<String> {
        let pos = self.buf.iter().position(|&b| b == b'\n')?;
        let line: Vec<u8> = self.buf.drain(..=pos).collect();
        Some(String::from_utf8_lossy(&line).trim_end().to_string())
    }

    /// What the child wrote since the current input started.
    fn stderr_since(&self) -> String {
        // SAFETY: fstat and pread on our memfd.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(self.capture, &mut st) != 0 {
                return String::new();
            }
            let end = st.st_size as u64;
            let start = self.stderr_offset.min(end);
            let mut buf = vec![0u8; (end - start) as usize];
            let n = libc::pread(
                self.capture,
                buf.as_mut_ptr().cast(),
                buf.len(),
                start as libc::off_t,
            );
            buf.truncate(n.max(0) as usize);
            String::from_utf8_lossy(&buf).into_owned()
        }
    }

    fn kill(&mut self) {
        // SAFETY: killing and reaping our own child.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
            let mut status = 0;
            libc::waitpid(self.pid, &mut status, 0);
            libc::close(self.reports);
        }
        self.exited = true;
    }

    /// The child is gone: how, and what it left on stderr.
    fn death(&mut self) -> Outcome {
        let mut status = 0;
        // SAFETY: reaping our own child and closing our pipe end.
        unsafe {
            libc::waitpid(self.pid, &mut status, 0);
            libc::close(self.reports);
        }
        let report = self.stderr_since();
        if let Some((_, true)) = self.crash {
            return Outcome::StackOverflow { report };
        }
        let (signal, code) = if libc::WIFSIGNALED(status) {
            (Some(libc::WTERMSIG(status)), None)
        } else {
            (None, Some(libc::WEXITSTATUS(status)))
        };
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
        // SAFETY: reaping our own child and closing our pipe end.
        unsafe {
            let mut status = 0;
            libc::waitpid(self.pid, &mut status, 0);
            libc::close(self.reports);
        }
    }
}
