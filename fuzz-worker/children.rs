//! Processes the target forks. A fuzz target should not fork, but some do
//! (a library that spawns a helper, a test that runs a command): their
//! children must not outlive the worker, nor pile up by the thousand. The
//! worker is a child subreaper, so that what its target's children fork
//! comes back to it too; a fork of the target's (seen through
//! `pthread_atfork`, which libc's fork calls) asks the kernel to kill the
//! child when the worker dies, is counted, and the children are killed
//! and reaped when the request that forked them ends. The coordinator is
//! told once.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    // SAFETY: prctl is async-signal-safe, as a fork child requires.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}

/// Makes this process a subreaper and watches the forks of its target.
pub fn install() {
    // SAFETY: prctl on this process; pthread_atfork with handlers that
    // only touch atomics and call prctl.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        libc::pthread_atfork(None, Some(in_parent), Some(in_child));
    }
}

/// fork(2) for the worker's own children, which are not the target's.
///
/// # Safety
/// As `fork`: the child must only call async-signal-safe functions until
/// it execs or exits, unless the process has no other thread.
pub unsafe fn fork() -> libc::pid_t {
    OURS.store(true, Ordering::Relaxed);
    let pid = libc::fork();
    OURS.store(false, Ordering::Relaxed);
    pid
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
        // SAFETY: killing and reaping processes that are our children.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
        }
        killed += 1;
    }
    // Children that had exited already, not yet reaped.
    // SAFETY: reaping our own children.
    unsafe {
        let mut status = 0;
        while libc::waitpid(-1, &mut status, libc::WNOHANG) > 0 {}
    }
    killed
}

/// The pids of this process's children, from /proc.
fn children() -> Vec<libc::pid_t> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<libc::pid_t>().ok()),
            );
        }
    }
    out
}
