//! Crashes -keepfuzzing has recorded already, which a worker survives.
//!
//! After the first crash at a site, a shallow bug may be hit every hundred
//! executions; ending the worker for each (a process start, a library
//! load, a warm-up) would cut the rate to a few percent of what it was.
//! So each crash the worker reports carries a fingerprint: its signal and
//! the top three frames inside the target library that are not Rust's
//! standard library or a sanitizer's (offsets, taken without allocating in
//! the crash handler). The coordinator tells its workers the fingerprints
//! of the crash sites it has recorded; a crash with one of them, inside a
//! guarded call (`c/guard.c`), returns from the call instead of ending the
//! process: the execution counts as rejected, and fuzzing goes on.
//!
//! What this keeps true: a crash not known (a new bug) ends the worker and
//! is reported exactly as before; guarded calls (one `sigsetjmp` without a
//! system call) are made only once a fingerprint is known; the handler
//! reads only tables filled before the target ran.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

const CAPACITY: usize = 1024;
static KNOWN: [AtomicU64; CAPACITY] = [const { AtomicU64::new(0) }; CAPACITY];
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// A fingerprint is known: calls are guarded.
static ANY: AtomicBool = AtomicBool::new(false);

/// Where the target library is mapped, and the functions of its runtime
/// (module-relative ranges, sorted), whose frames do not count; and where
/// the worker's own code is.
struct Module {
    lo: usize,
    hi: usize,
    base: usize,
    runtime: Vec<(usize, usize)>,
    own: (usize, usize),
}

static MODULE: OnceLock<Module> = OnceLock::new();

extern "C" {
    fn fuzz_worker_guarded_call(
        f: crate::library::TargetFn,
        data: *const u8,
        size: usize,
        crashed: *mut libc::c_int,
    ) -> libc::c_int;
    fn fuzz_worker_guard_active() -> libc::c_int;
    fn fuzz_worker_guard_escape();
}

/// Sets up fingerprinting for the library whose target is `f` and whose
/// [`runtime_ranges`] are `runtime`: where the library's code and the
/// worker's own lie, from the loader's list of what it mapped (not from
/// every mapping of the library's file: the code scans map it too).
pub fn init_for(f: crate::library::TargetFn, runtime: Vec<(usize, usize)>) {
    // SAFETY: dladdr on the address of a function of the loaded library.
    let base = unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        libc::dladdr(f as *const libc::c_void, &mut info);
        info.dli_fbase as usize
    };
    let objects = crate::loaded::objects();
    let span = |addr: usize| {
        objects
            .iter()
            .find(|o| o.contains(addr))
            .and_then(|o| o.span())
            .unwrap_or((0, 0))
    };
    let (lo, hi) = span(f as usize);
    let _ = MODULE.set(Module {
        lo,
        hi,
        base,
        runtime,
        own: span(own as *const () as usize),
    });
}

/// The address the target library is loaded at (after [`init_for`]).
pub fn target_base() -> Option<usize> {
    MODULE.get().map(|m| m.base)
}

/// True for an address in the worker's own executable.
fn own(ip: usize) -> bool {
    MODULE.get().is_some_and(|m| ip >= m.own.0 && ip < m.own.1)
}

/// The module-relative ranges of the runtime's functions in a library.
pub fn runtime_ranges(path: &std::path::Path) -> Vec<(usize, usize)> {
    use object::{Object, ObjectSymbol};
    let Ok(data) = crate::library::file_bytes(path) else {
        return Vec::new();
    };
    let Ok(file) = object::File::parse(&*data) else {
        return Vec::new();
    };
    let mut ranges: Vec<(usize, usize)> = file
        .symbols()
        .chain(file.dynamic_symbols())
        .filter(|s| s.size() > 0 && s.kind() == object::SymbolKind::Text)
        .filter_map(|s| {
            let name = s.name().ok()?;
            let demangled = rustc_demangle::try_demangle(name)
                .map(|d| format!("{d:#}"))
                .unwrap_or_else(|_| name.to_string());
            fuzz_core::worker::crash::is_runtime_function(&demangled)
                .then(|| (s.address() as usize, (s.address() + s.size()) as usize))
        })
        .collect();
    ranges.sort_unstable();
    ranges.dedup();
    ranges
}

/// Adds fingerprints the coordinator knows.
pub fn learn(fingerprints: &[u64]) {
    for &fp in fingerprints {
        let n = COUNT.load(Ordering::Relaxed);
        if n >= CAPACITY || (0..n).any(|i| KNOWN[i].load(Ordering::Relaxed) == fp) {
            continue;
        }
        KNOWN[n].store(fp, Ordering::Relaxed);
        COUNT.store(n + 1, Ordering::Release);
        ANY.store(true, Ordering::Release);
    }
}

/// Calls the target, guarded when a fingerprint is known; true in the
/// second value when it crashed at a known site and was survived.
pub fn call(f: crate::library::TargetFn, input: &[u8]) -> (i32, bool) {
    if !ANY.load(Ordering::Relaxed) {
        // SAFETY: calling the target as its contract says, with its input.
        return (unsafe { f(input.as_ptr(), input.len()) }, false);
    }
    let mut crashed: libc::c_int = 0;
    // SAFETY: as above; the guard returns here when the handler escapes.
    let ret = unsafe { fuzz_worker_guarded_call(f, input.as_ptr(), input.len(), &mut crashed) };
    (ret, crashed != 0)
}

/// The return addresses on this thread's stack, innermost first, as many
/// as `ips` holds; how many. Allocates nothing (a crash handler's).
fn stack_here(ips: &mut [usize; 64]) -> usize {
    let mut n = 0;
    // SAFETY: walking this thread's own stack; nothing else walks it.
    unsafe {
        backtrace::trace_unsynchronized(|f| {
            ips[n] = f.ip() as usize;
            n += 1;
            n < ips.len()
        });
    }
    n
}

/// In the crash handler: the crash's fingerprint, from the stack, without
/// allocating.
pub fn fingerprint_here(signal: i32) -> u64 {
    let mut ips = [0usize; 64];
    let n = stack_here(&mut ips);
    let (mut hash, _) = fingerprint_of(signal, &ips[..n], true, &own, MODULE.get());
    // A Rust panic aborts after unwinding to the boundary of the target's
    // entry: its stack no longer tells panics apart, its location does.
    let mut tail = [0u8; 4096];
    if let Some(at) = fuzz_core::worker::crash::panic_location(stderr_tail(&mut tail)) {
        for &b in at.as_bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// The end of what this process wrote to stderr (a file: the request's
/// capture), read without allocating; the longest valid UTF-8 in it.
fn stderr_tail(buf: &mut [u8]) -> &str {
    // SAFETY: lseek and pread on stderr, into a caller's buffer.
    let n = unsafe {
        let end = libc::lseek(2, 0, libc::SEEK_END);
        if end <= 0 {
            return "";
        }
        let n = (end as usize).min(buf.len());
        let got = libc::pread(2, buf.as_mut_ptr().cast(), n, end - n as libc::off_t);
        got.max(0) as usize
    };
    let bytes = &buf[..n];
    // Skip a character cut at the start; stop before one cut at the end.
    for start in 0..4.min(bytes.len()) {
        match std::str::from_utf8(&bytes[start..]) {
            Ok(s) => return s,
            Err(e) if e.error_len().is_none() => {
                let end = start + e.valid_up_to();
                return std::str::from_utf8(&bytes[start..end]).unwrap_or("");
            }
            Err(_) => {}
        }
    }
    ""
}

/// In a call made to end the process (`exit`, `raise(SIGKILL)`: ends.rs):
/// when the target library made it (the first frame past the worker's own
/// is the target's), the fingerprint of the stack with `what` in the
/// signal's place; None for a call of the worker's own (its timeout
/// handler's SIGKILL, its exit), or of another library's.
pub fn fingerprint_of_call(what: i32) -> Option<u64> {
    let mut ips = [0usize; 64];
    let n = stack_here(&mut ips);
    let ips = &ips[..n];
    let caller = ips.iter().find(|&&ip| !own(ip))?;
    let m = MODULE.get()?;
    if *caller < m.lo || *caller >= m.hi {
        return None;
    }
    match fingerprint_of(what, ips, false, &own, Some(m)) {
        (_, 0) => None,
        (hash, _) => Some(hash),
    }
}

/// The fingerprint of a stack: the signal, and the top three frames in
/// the target library that are not its runtime's, between the handler (and
/// the signal trampoline when `trampoline`, and coverage callbacks) and the
/// executor; and how many target frames it took.
fn fingerprint_of(
    signal: i32,
    ips: &[usize],
    trampoline: bool,
    own: &dyn Fn(usize) -> bool,
    module: Option<&Module>,
) -> (u64, usize) {
    let lead = ips.iter().take_while(|&&ip| own(ip)).count();
    let mut i = if lead > 0 && trampoline {
        lead + 1
    } else {
        lead
    };
    while i < ips.len() && own(ips[i]) {
        i += 1;
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: u64| {
        for b in v.to_le_bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    mix(signal as u64);
    let Some(m) = module else {
        return (hash, 0);
    };
    let mut taken = 0;
    for &ip in &ips[i.min(ips.len())..] {
        if own(ip) || taken == 3 {
            break;
        }
        if ip < m.lo || ip >= m.hi {
            continue;
        }
        let Some(off) = ip.checked_sub(m.base) else {
            continue;
        };
        let runtime = m
            .runtime
            .binary_search_by(|&(a, b)| {
                if off < a {
                    std::cmp::Ordering::Greater
                } else if off >= b {
                    std::cmp::Ordering::Less
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok();
        if !runtime {
            mix(off as u64);
            taken += 1;
        }
    }
    (hash, taken)
}

/// In a call the target made to end its process (ends.rs): when it is at
/// a known site inside a guarded call, the call returns as a survived
/// crash would, and this does not return; else returns.
pub fn survive_call_if_known(fingerprint: u64) {
    // SAFETY: reading a flag the guard keeps.
    if unsafe { fuzz_worker_guard_active() } == 0 || !is_known(fingerprint) {
        return;
    }
    // SAFETY: what the target wrote in this call is dropped from the
    // request's stderr, and the guarded call returns.
    unsafe {
        libc::ftruncate(2, 0);
        fuzz_worker_guard_escape();
    }
}

fn is_known(fingerprint: u64) -> bool {
    let n = COUNT.load(Ordering::Acquire);
    (0..n).any(|i| KNOWN[i].load(Ordering::Relaxed) == fingerprint)
}

/// In the crash handler: when the crash is a known one inside a guarded
/// call, survives it (the call returns) and does not return; else returns.
/// `reinstall` puts the crash handlers back (the handler's own
/// `crash::reinstall`, passed in so that this module need not import the
/// one that imports it).
pub fn survive_if_known(signal: i32, fingerprint: u64, reinstall: fn()) {
    // SAFETY: reading a flag the guard keeps.
    if unsafe { fuzz_worker_guard_active() } == 0 {
        return;
    }
    if !is_known(fingerprint) {
        return;
    }
    // SAFETY: async-signal-safe calls only: what the target wrote about
    // this crash (a panic's message) is dropped from the request's stderr,
    // the handlers are put back, the signal unblocked, and the guarded call
    // returns.
    unsafe {
        libc::ftruncate(2, 0);
        reinstall();
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        fuzz_worker_guard_escape();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A target library mapped at 0x1000..0x5000 (base 0x1000) whose
    /// runtime is the function at offsets 0x800..0x900; the worker's own
    /// code at 0x9000 and up; libc anywhere else.
    fn module() -> Module {
        Module {
            lo: 0x1000,
            hi: 0x5000,
            base: 0x1000,
            runtime: vec![(0x800, 0x900)],
            own: (0x9000, 0xa000),
        }
    }

    #[test]
    fn fingerprints_pass_over_our_frames_and_count_three_of_the_target_s() {
        let m = module();
        let own = |ip: usize| (0x9000..0xa000).contains(&ip);
        let fp = |signal, ips: &[usize], trampoline| {
            fingerprint_of(signal, ips, trampoline, &own, Some(&m))
        };
        // The handler's frames (ours), the signal trampoline (libc), then
        // the target's frames, then the executor (ours again).
        let (a, taken) = fp(
            11,
            &[0x9001, 0x9002, 0x7000, 0x1100, 0x1200, 0x1300, 0x9003],
            true,
        );
        assert_eq!(taken, 3);
        // A fourth frame of the target's does not count; neither does its
        // runtime (0x1850 is at offset 0x850) nor libc between them.
        let (b, _) = fp(
            11,
            &[
                0x9001, 0x7000, 0x1100, 0x1850, 0x6000, 0x1200, 0x1300, 0x1400, 0x9003,
            ],
            true,
        );
        assert_eq!(a, b, "the same three frames of the target's");
        // Another frame, another site; another signal, another site.
        let (c, _) = fp(11, &[0x9001, 0x7000, 0x1100, 0x1200, 0x1304, 0x9003], true);
        assert_ne!(a, c);
        let (d, _) = fp(6, &[0x9001, 0x7000, 0x1100, 0x1200, 0x1300, 0x9003], true);
        assert_ne!(a, d, "the signal counts");
        // Outside a handler (a call the target made: ends.rs) there is no
        // trampoline to pass over: the first frame past ours is the target's.
        let (e, taken) = fp(11, &[0x9001, 0x1100, 0x1200, 0x1300, 0x9003], false);
        assert_eq!((e, taken), (a, 3));
        // No frame of the target's: nothing taken, the signal alone.
        let (f, taken) = fp(11, &[0x9001, 0x7000, 0x6000, 0x9003], true);
        assert_eq!(taken, 0);
        assert_eq!(f, fingerprint_of(11, &[], true, &own, None).0);
    }
}
