//! A target that ends its own process: `exit(N)`, `raise(SIGKILL)`,
//! `kill(getpid() or 0, SIGKILL)`. None of them goes through a signal
//! handler, so without this each would cost -keepfuzzing a new worker every
//! time the input is found again (an easy `exit` is found again every few
//! executions: tens of executions a second instead of millions).
//!
//! The worker defines the three functions itself; `-rdynamic` (build.rs)
//! exports them, so the target library's calls reach them before libc's.
//! Called from the target (a frame of the target library on the stack),
//! each writes the call's fingerprint to the report, as the crash handler
//! does for a crash, and then: at a site the coordinator has recorded, in a
//! guarded call, the call returns as a survived crash does (known_crashes.rs);
//! anywhere else, libc's function does what it always does. Called by the
//! worker itself, it is libc's function at once.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

/// What stands in a fingerprint for the signal: `exit(N)` is 256 + N (an
/// exit's status counts, as a signal does), a SIGKILL the target sent
/// itself is the signal.
fn exit_code(status: c_int) -> i32 {
    0x100 | (status & 0xff)
}

/// The target's call ends the process: fingerprinted, and survived when
/// known (then this does not return).
fn target_ends(what: i32) {
    if let Some(fp) = crate::known_crashes::fingerprint_of_call(what) {
        crate::crash::write_fingerprint(fp);
        crate::known_crashes::survive_call_if_known(fp);
    }
}

/// libc's definition of `name`, the next after the worker's own.
fn next(name: &'static std::ffi::CStr, cache: &AtomicPtr<c_void>) -> *mut c_void {
    let mut f = cache.load(Ordering::Relaxed);
    if f.is_null() {
        // SAFETY: dlsym with a constant name; RTLD_NEXT looks past this
        // executable, at libc.
        f = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
        cache.store(f, Ordering::Relaxed);
    }
    f
}

/// Finds libc's three functions now, outside any signal handler: the crash
/// handler's last act is `raise`, and `dlsym` is not async-signal-safe.
/// Called where the crash handlers are installed (crash.rs), before a
/// target runs; a forked child inherits what was found.
pub fn resolve() {
    next(c"exit", &EXIT);
    next(c"raise", &RAISE);
    next(c"kill", &KILL);
}

static EXIT: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());
static RAISE: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());
static KILL: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// `exit(3)`, for the target library and for this process alike.
#[no_mangle]
pub extern "C" fn exit(status: c_int) -> ! {
    target_ends(exit_code(status));
    let f = next(c"exit", &EXIT);
    if f.is_null() {
        // SAFETY: no libc exit to be found: leave at once.
        unsafe { libc::_exit(status) }
    }
    // SAFETY: libc's exit, which has this signature.
    let f: extern "C" fn(c_int) -> ! = unsafe { std::mem::transmute(f) };
    f(status)
}

/// `raise(3)`: a SIGKILL from the target is its end.
#[no_mangle]
pub extern "C" fn raise(sig: c_int) -> c_int {
    if sig == libc::SIGKILL {
        target_ends(sig);
    }
    let f = next(c"raise", &RAISE);
    if f.is_null() {
        // SAFETY: the system call raise makes, to this thread.
        return unsafe {
            libc::syscall(libc::SYS_tgkill, libc::getpid(), libc::gettid(), sig) as c_int
        };
    }
    // SAFETY: libc's raise, which has this signature.
    let f: extern "C" fn(c_int) -> c_int = unsafe { std::mem::transmute(f) };
    f(sig)
}

/// `kill(2)`: a SIGKILL from the target to its own process, or to its
/// process group, is its end.
#[no_mangle]
pub extern "C" fn kill(pid: libc::pid_t, sig: c_int) -> c_int {
    // SAFETY: getpid cannot fail.
    if sig == libc::SIGKILL && (pid == 0 || pid == unsafe { libc::getpid() }) {
        target_ends(sig);
    }
    let f = next(c"kill", &KILL);
    if f.is_null() {
        // SAFETY: the system call kill makes.
        return unsafe { libc::syscall(libc::SYS_kill, pid, sig) as c_int };
    }
    // SAFETY: libc's kill, which has this signature.
    let f: extern "C" fn(libc::pid_t, c_int) -> c_int = unsafe { std::mem::transmute(f) };
    f(pid, sig)
}
