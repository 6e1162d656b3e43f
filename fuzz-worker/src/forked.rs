//! Running one input in a forked child, for minimizing failures: a crash
//! or hang kills the child, not the worker, so a crash costs a fork rather
//! than a new worker process. The worker has no threads, so forking is
//! safe; the child inherits the loaded target, its state and the crash
//! handlers (told not to symbolize: a crash site needs module offsets
//! only).

use crate::children::{exit_now, readable, signal_or_code};
use crate::executor::{self, Executor, Verdict};

use fuzz_core::worker::crash::{self, DeathKind};
use fuzz_core::worker::protocol::Checked;
use fuzz_core::Value;
use nix::fcntl::OFlag;
use nix::sys::memfd::{memfd_create, MFdFlags};
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitStatus};
use nix::unistd::{dup2_stderr, pipe2, read, write, ForkResult, Pid};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

// Exit codes a child uses to say how the target returned; anything else is
// the target's own exit.
const OK: i32 = 120;
const REJECTED: i32 = 121;
const FAILED: i32 = 122;

/// What a child may take: time, and resident memory (checked every
/// [`RSS_EVERY`] while it runs).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub timeout: Duration,
    pub rss_limit_mb: u64,
}

const RSS_EVERY: Duration = Duration::from_millis(50);

/// Runs `values` once in a child; with a Go library loaded, which rules
/// forks out (golib.rs), in this process: a Go fuzz test's failures are
/// Go's own, and leave the process standing, while one that ends it (an
/// os.Exit) ends the worker, as it ends Go's.
///
/// A check is judged by its crash site (every caller keeps the site, none
/// shows the report), so the target is not asked for its own backtrace:
/// the child runs with `RUST_BACKTRACE=0`. A Rust library that never
/// panicked in the worker (built with panic = "abort") would otherwise
/// symbolize one afresh in every child, many times the run's cost; the
/// site (the panic's location, or the crash handler's frames) needs none,
/// and the first check and the minimizer's candidates run alike.
pub fn check(exec: &mut Executor, values: &[Value], limits: Limits) -> Checked {
    if crate::golib::loaded() {
        return in_process(exec, values);
    }
    let (capture, (from_child, to_parent)) = match (
        memfd_create(c"fuzz-worker-check", MFdFlags::empty()),
        pipe2(OFlag::O_CLOEXEC),
    ) {
        (Ok(capture), Ok(pipe)) => (File::from(capture), pipe),
        (Err(e), _) | (_, Err(e)) => return cannot_run(e.to_string()),
    };
    // SAFETY: the worker has no other thread; the child only executes the
    // target and leaves with _exit.
    let pid = match unsafe { crate::children::fork() } {
        Err(e) => return cannot_run(format!("fork: {e}")),
        Ok(ForkResult::Child) => {
            drop(from_child);
            run_child(exec, values, &capture, &to_parent)
        }
        Ok(ForkResult::Parent { child }) => child,
    };
    drop(to_parent);
    let watched = watch(pid, &from_child, limits);
    drop(from_child);
    let status = waitpid(pid, None);
    let mut report = Vec::new();
    let mut capture = capture;
    let _ = capture.seek(SeekFrom::Start(0));
    let _ = capture.read_to_end(&mut report);
    let report = String::from_utf8_lossy(&report).into_owned();
    judge(watched, status, report, &exec.module)
}

/// [`check`] without a child.
fn in_process(exec: &mut Executor, values: &[Value]) -> Checked {
    let (ret, text) = executor::capture_stderr(|| exec.exec(values));
    match exec.classify_ret(ret) {
        Verdict::Ok => Checked::Ok {
            features: exec.features.clone(),
        },
        Verdict::Rejected => Checked::Rejected,
        Verdict::Failed => {
            let message = executor::failure_message(&text, ret);
            Checked::Failed {
                site: crash::failure_site(&message),
                message,
            }
        }
    }
}

fn cannot_run(report: String) -> Checked {
    Checked::Died {
        kind: DeathKind::CannotRun,
        site: String::new(),
        report,
    }
}

/// The child: dies with the worker, writes its stderr to `capture`, runs
/// the input, sends the coverage it reached, and says how the target
/// returned by its exit code.
fn run_child(exec: &mut Executor, values: &[Value], capture: &File, out: &OwnedFd) -> ! {
    // Die with the worker, should it be killed while this runs.
    crate::children::die_with_parent();
    let _ = dup2_stderr(capture);
    crate::crash::rebind();
    crate::crash::SYMBOLIZE.store(false, std::sync::atomic::Ordering::Relaxed);
    // The child is the only thread (check's SAFETY), so nothing reads the
    // environment while it changes. A library that has panicked before has
    // read it already and keeps what it read: slower, not wrong.
    std::env::set_var("RUST_BACKTRACE", "0");
    let ret = exec.exec(values);
    let bytes: Vec<u8> = exec.features.iter().flat_map(|f| f.to_le_bytes()).collect();
    let mut rest = &bytes[..];
    while let Ok(n @ 1..) = write(out, rest) {
        rest = &rest[n..];
    }
    exit_now(match exec.classify_ret(ret) {
        Verdict::Ok => OK,
        Verdict::Rejected => REJECTED,
        Verdict::Failed => FAILED,
    })
}

/// What the parent saw of a child: what it sent, and how the watch ended.
struct Watched {
    sent: Vec<u8>,
    timed_out: bool,
    /// Killed past the memory limit, at this many MiB.
    blown: Option<u64>,
}

/// Reads what the child sends until it is gone (EOF), within the timeout
/// and the memory limit (a limit of 0 is no limit, for time and memory
/// alike). Past the time limit the child is asked where it is (it writes
/// its stack, the hang's site, and dies), then killed if it has not died
/// within the grace.
fn watch(pid: Pid, from_child: &OwnedFd, limits: Limits) -> Watched {
    let mut watched = Watched {
        sent: Vec::new(),
        timed_out: false,
        blown: None,
    };
    let mut deadline = (!limits.timeout.is_zero()).then(|| Instant::now() + limits.timeout);
    let mut last_rss = Instant::now();
    loop {
        let left = deadline.map_or(RSS_EVERY, |d| d.saturating_duration_since(Instant::now()));
        if left.is_zero() {
            if watched.timed_out {
                let _ = kill(pid, Signal::SIGKILL);
                return watched;
            }
            watched.timed_out = true;
            let _ = kill(pid, crate::crash::TIMEOUT_SIGNAL);
            deadline = Some(Instant::now() + fuzz_core::worker::client::STACK_GRACE);
            continue;
        }
        let ready = readable(
            from_child.as_fd(),
            left.min(RSS_EVERY).max(Duration::from_millis(1)),
        );
        if last_rss.elapsed() >= RSS_EVERY {
            last_rss = Instant::now();
            let rss = fuzz_core::worker::client::rss_mb(pid.as_raw()).unwrap_or(0);
            if limits.rss_limit_mb > 0 && rss > limits.rss_limit_mb {
                watched.blown = Some(rss);
                let _ = kill(pid, Signal::SIGKILL);
                return watched;
            }
        }
        if !ready {
            continue;
        }
        let mut chunk = [0u8; 65536];
        match read(from_child, &mut chunk) {
            Ok(n) if n > 0 => watched.sent.extend_from_slice(&chunk[..n]),
            _ => return watched,
        }
    }
}

/// The outcome of a check, from what was watched, the child's end and
/// what it wrote to stderr; `module` is the target library's file name
/// (for the crash site).
fn judge(
    watched: Watched,
    status: nix::Result<WaitStatus>,
    report: String,
    module: &str,
) -> Checked {
    let died = |kind: DeathKind, report: String| Checked::Died {
        site: crash::site(&kind, &report, module),
        kind,
        report,
    };
    if let Some(rss) = watched.blown {
        return died(DeathKind::OutOfMemory { rss_mb: rss }, report);
    }
    if watched.timed_out {
        let kind = crash::reported_signal(&report).unwrap_or(DeathKind::Timeout);
        return died(kind, report);
    }
    let (signal, code) = signal_or_code(status);
    match code {
        Some(OK) => Checked::Ok {
            features: watched
                .sent
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        },
        Some(REJECTED) => Checked::Rejected,
        Some(FAILED) => {
            let message = executor::failure_message(&report, 1);
            Checked::Failed {
                site: crash::failure_site(&message),
                message,
            }
        }
        _ => died(crash::death_kind(signal, code, &report), report),
    }
}
