//! Ctrl-C (SIGINT), SIGTERM and SIGHUP as a flag the long-running tools
//! poll, so that they stop cleanly: workers stopped, nothing half-written,
//! the best result so far saved.

use fuzz_core::worker::crash::DeathKind;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The first of them that arrived.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    let _ = SIGNAL.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
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

/// The signal that interrupted this process (the first, when several
/// came), once [`interrupted`].
pub fn signal() -> Option<i32> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// How long the death of a process of ours by SIGTERM, SIGINT or SIGHUP
/// waits for this process's own signal before it counts as what it seems.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// Whether a process of ours that died of `kind` was stopped with this
/// one: a scheduler stopping a job (Slurm's scancel and time limit,
/// systemd's control group) signals every process of it, and a worker or
/// child may die before this process's handler has run. Such a death is no
/// finding when this process is [`interrupted`] within [`STOP_GRACE`]; one
/// that is not (the target raised the signal itself, or someone signalled
/// that process alone) is what it seems.
pub fn stopped_with_us(kind: &DeathKind, report: &str) -> bool {
    stopped_with(kind, report, interrupted)
}

/// Whether this process is [`interrupted`], or is within [`STOP_GRACE`]:
/// for a process of ours that ended early without saying why, which may
/// have had its signal before this one.
pub fn stop_follows() -> bool {
    stop_comes(interrupted)
}

fn stopped_with(kind: &DeathKind, report: &str, stop: fn() -> bool) -> bool {
    fuzz_core::worker::crash::maybe_a_stop(kind, report) && stop_comes(stop)
}

/// Whether `stop` says so within [`STOP_GRACE`].
pub fn stop_comes(stop: fn() -> bool) -> bool {
    let waited = Instant::now();
    while !stop() {
        if waited.elapsed() >= STOP_GRACE {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never() -> bool {
        false
    }

    fn always() -> bool {
        true
    }

    #[test]
    fn only_a_stop_signal_with_our_own_stop_is_a_stop() {
        let term = DeathKind::Signal {
            signal: libc::SIGTERM,
            panic: false,
        };
        assert!(stopped_with(&term, "", always));
        let waited = Instant::now();
        assert!(!stopped_with(&term, "", never));
        assert!(waited.elapsed() >= STOP_GRACE);
        for kind in [
            DeathKind::Signal {
                signal: libc::SIGSEGV,
                panic: false,
            },
            DeathKind::Signal {
                signal: libc::SIGTERM,
                panic: true,
            },
            DeathKind::Exit { status: 0 },
        ] {
            assert!(!stopped_with(&kind, "", always), "{kind:?}");
        }
        // Sent by the target to itself: the worker's handler said so.
        let own = "==fuzz-worker== deadly signal SIGTERM (sent by the target to itself)\n";
        assert!(!stopped_with(&term, own, always));
    }
}
