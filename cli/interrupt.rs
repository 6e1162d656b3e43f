//! Ctrl-C (SIGINT), SIGTERM and SIGHUP as a flag the long-running tools
//! poll, so that they stop cleanly: workers stopped, nothing half-written,
//! the best result so far saved.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Turns SIGINT, SIGTERM and SIGHUP into the flag [`interrupted`] reads.
pub fn install() {
    // SAFETY: the handler only stores to an atomic, which is
    // async-signal-safe.
    unsafe {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(sig, on_signal as *const () as libc::sighandler_t);
        }
    }
}

/// True once SIGINT, SIGTERM or SIGHUP arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
