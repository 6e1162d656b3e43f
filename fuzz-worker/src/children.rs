//! Processes the target forks. A fuzz target should not fork, but some do
//! (a library that spawns a helper, a test that runs a command): their
//! children must not outlive the worker, nor pile up by the thousand. The
//! worker is a child subreaper, so that what its target's children fork
//! comes back to it too; a fork of the target's (seen through
//! `pthread_atfork`, which libc's fork calls) asks the kernel to kill the
//! child when the worker dies, is counted, and the children are killed
//! and reaped when the request that forked them ends. The coordinator is
//! told once.
//!
//! Also what the worker's own children share (`run`'s in supervise.rs,
//! the checks' in forked.rs): how they fork and leave, how their pipe is
//! watched, how their end is read.

use nix::poll::{poll, PollFd, PollFlags};
use nix::sys::memfd::{memfd_create, MFdFlags};
use nix::sys::prctl;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{dup2_stderr, dup2_stdout, getppid, ForkResult, Pid};
use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::fd::BorrowedFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Forks the target made since they were last taken.
static FORKS: AtomicU64 = AtomicU64::new(0);
/// True while the worker itself forks (its checks and `run`'s children).
static OURS: AtomicBool = AtomicBool::new(false);

extern "C" fn in_parent() {
    if !OURS.load(Ordering::Relaxed) {
        FORKS.fetch_add(1, Ordering::Relaxed);
    }
}

extern "C" fn in_child() {
    // prctl is async-signal-safe, as a fork child requires, and nix's
    // wrapper allocates nothing.
    let _ = prctl::set_pdeathsig(Signal::SIGKILL);
}

/// Makes this process a subreaper and watches the forks of its target.
pub fn install() {
    let _ = prctl::set_child_subreaper(true);
    // SAFETY: pthread_atfork (nix has no wrapper) with handlers that only
    // touch atomics and call prctl.
    unsafe {
        libc::pthread_atfork(None, Some(in_parent), Some(in_child));
    }
}

/// fork(2) for the worker's own children, which are not the target's.
///
/// # Safety
/// As `fork`: the child must only call async-signal-safe functions until
/// it execs or exits, unless the process has no other thread.
///
/// The child is put in a process group of its own, apart from the worker
/// that watches it: a target that signals its process group (`kill(0,
/// SIGTERM)`) reaches its own process and what it forked, never its
/// watcher.
pub unsafe fn fork() -> nix::Result<ForkResult> {
    OURS.store(true, Ordering::Relaxed);
    // SAFETY: as this function's contract says.
    let forked = unsafe { nix::unistd::fork() };
    OURS.store(false, Ordering::Relaxed);
    if let Ok(ForkResult::Child) = forked {
        // setpgid is async-signal-safe.
        let _ = nix::unistd::setpgid(Pid::from_raw(0), Pid::from_raw(0));
    }
    forked
}

/// In a child the worker forked: dies when the worker does (and at once
/// if it is gone already).
pub fn die_with_parent() {
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || getppid() == Pid::from_raw(1) {
        exit_now(1);
    }
}

/// A memory file for what a child writes (its stderr, its reports).
pub fn capture_file(name: &str) -> Result<File, String> {
    let name = CString::new(name).map_err(|e| e.to_string())?;
    memfd_create(name.as_c_str(), MFdFlags::empty())
        .map(File::from)
        .map_err(|e| format!("memfd_create: {e}"))
}

/// In a child: stdout goes nowhere (to `capture` when /dev/null cannot be
/// opened), stderr to `capture`: what a target prints never mixes with the
/// worker's results.
pub fn quiet_stdout(capture: &File) {
    let null = File::options().write(true).open("/dev/null");
    let _ = match &null {
        Ok(null) => dup2_stdout(null),
        Err(_) => dup2_stdout(capture),
    };
    let _ = dup2_stderr(capture);
}

/// Everything written to a capture file so far.
pub fn read_capture(capture: &File) -> String {
    let mut text = Vec::new();
    let mut file = capture;
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.read_to_end(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// Leaves the child at once: no exit handlers of the target's, no
/// flushing of buffers the parent owns too (nix has no `_exit`).
pub fn exit_now(status: i32) -> ! {
    // SAFETY: _exit ends the process; it cannot fail.
    unsafe { libc::_exit(status) }
}

/// How many times the target forked since the last call.
pub fn take_forks() -> u64 {
    FORKS.swap(0, Ordering::Relaxed)
}

/// Kills every child of this process (what the target forked, and what
/// they forked and left) and reaps them. Returns how many there were.
pub fn kill_all() -> usize {
    let mut killed = 0;
    for pid in children() {
        let _ = kill(pid, Signal::SIGKILL);
        let _ = waitpid(pid, None);
        killed += 1;
    }
    // Children that had exited already, not yet reaped.
    while let Ok(status) = waitpid(None, Some(WaitPidFlag::WNOHANG)) {
        if status == WaitStatus::StillAlive {
            break;
        }
    }
    killed
}

/// The pids of this process's children, from /proc.
fn children() -> Vec<Pid> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse().ok().map(Pid::from_raw)),
            );
        }
    }
    out
}

/// True when `fd` has something to read (or its end) within `wait`.
pub fn readable(fd: BorrowedFd, wait: Duration) -> bool {
    let ms = u16::try_from(wait.as_millis()).unwrap_or(u16::MAX);
    poll(&mut [PollFd::new(fd, PollFlags::POLLIN)], ms).is_ok_and(|n| n > 0)
}

/// How a reaped child ended: the signal that killed it, or its exit code
/// (`(None, None)` when it could not be reaped).
pub fn signal_or_code(status: nix::Result<WaitStatus>) -> (Option<i32>, Option<i32>) {
    match status {
        Ok(WaitStatus::Signaled(_, signal, _)) => (Some(signal as i32), None),
        Ok(WaitStatus::Exited(_, code)) => (None, Some(code)),
        _ => (None, None),
    }
}
