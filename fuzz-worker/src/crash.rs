//! What a worker does when the target crashes: an alternate signal stack
//! (so a stack overflow can be reported at all), handlers that write the
//! signal, whether it was a stack overflow, and a symbolized backtrace to
//! stderr, tell the supervisor on the report pipe, and then let the signal
//! kill the process as it would have.
//!
//! Installed only in the process that runs targets, after fork, before the
//! first execution.
//!
//! nix where it has a wrapper that needs no `unsafe` (signals sent and
//! raised, the alarm, the descriptor limit, thread ids); raw libc where it
//! has none (the thread's stack attributes, the alternate stack, tgkill,
//! dladdr) and in the handlers' writes to raw descriptors, which nix would
//! have wrapped in borrowed descriptors, unsafe as well.

use nix::sys::resource::{getrlimit, Resource};
use nix::sys::signal::{raise, sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
use nix::unistd::{alarm, getpid, gettid};
use std::io::Write;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

static REPORT_FD: AtomicI32 = AtomicI32::new(-1);
/// The pipe to the coordinator, which the handler tells of a crash before
/// writing the report (see [`tell_on_crash`]), the process that may write
/// it (a child of the worker must not), and the pipe's inode.
static TELL_FD: AtomicI32 = AtomicI32::new(-1);
static TELL_PID: AtomicI32 = AtomicI32::new(0);
static TELL_INO: AtomicU64 = AtomicU64::new(0);
/// Where crash and timeout reports go: a copy of stderr on a high,
/// close-on-exec descriptor, so that a target that closes fd 2 still has
/// its crash reported.
static OUT_FD: AtomicI32 = AtomicI32::new(2);
/// The thread that runs the target: a timeout report is its stack.
static MAIN_TID: AtomicI32 = AtomicI32::new(0);
/// The signal that asks for a timeout report (then the process dies).
pub const TIMEOUT_SIGNAL: Signal = Signal::SIGUSR1;
static STACK_LO: AtomicUsize = AtomicUsize::new(0);
static STACK_HI: AtomicUsize = AtomicUsize::new(0);
/// Off in the forked children that try minimization candidates: a crash
/// site needs module offsets only, and symbolizing costs milliseconds.
pub static SYMBOLIZE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

const SIGNALS: [Signal; 6] = [
    Signal::SIGSEGV,
    Signal::SIGBUS,
    Signal::SIGILL,
    Signal::SIGFPE,
    Signal::SIGABRT,
    Signal::SIGTRAP,
];
/// The signals a job is stopped with. A target that sends one to its own
/// process (`raise`, `kill(0, …)`) has crashed by it; one sent from
/// outside kills the process as it would have without us (see [`on_stop`]).
const STOP_SIGNALS: [Signal; 3] = [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP];
const ALT_STACK: usize = 4 << 20;

/// Moves `fd` to a high, close-on-exec descriptor (closing the old one),
/// out of the way of a target that opens and closes descriptors of its
/// own; the new number, or `fd` when it cannot be moved.
pub fn move_high(fd: RawFd) -> RawFd {
    // SAFETY: fcntl and close on a descriptor this process owns.
    unsafe {
        let high = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, high_floor());
        if high < 0 {
            return fd;
        }
        libc::close(fd);
        high
    }
}

/// The lowest descriptor [`move_high`] uses: near the top of what this
/// process may open.
fn high_floor() -> RawFd {
    let soft = match getrlimit(Resource::RLIMIT_NOFILE) {
        Ok((soft, _)) => soft.min(1 << 20) as RawFd,
        Err(_) => 1024,
    };
    (soft - 64).max(100)
}

/// This thread runs the target from now on (a process just forked, or the
/// worker itself), and reports go to a copy of its current stderr.
pub fn rebind() {
    MAIN_TID.store(gettid().as_raw(), Ordering::Relaxed);
    let old = OUT_FD.load(Ordering::Relaxed);
    let copy = nix::fcntl::fcntl(
        std::io::stderr(),
        nix::fcntl::FcntlArg::F_DUPFD_CLOEXEC(high_floor()),
    );
    if let Ok(copy) = copy {
        OUT_FD.store(copy, Ordering::Relaxed);
        if old > 2 {
            // SAFETY: closing our own earlier copy, which nothing else uses.
            unsafe { libc::close(old) };
        }
    }
}

/// Installs the handlers. `report_fd` receives one line, `C <signal>
/// <stack-overflow 0|1>`, when the target crashes. [`TIMEOUT_SIGNAL`]
/// writes where the target's thread is, then ends the process.
pub fn install(report_fd: RawFd) {
    crate::ends::resolve();
    REPORT_FD.store(report_fd, Ordering::Relaxed);
    rebind();
    // SAFETY: plain libc calls on this thread's own attributes and a fresh
    // mapping for the alternate stack (nix wraps none of them).
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) == 0 {
            let mut addr: *mut libc::c_void = std::ptr::null_mut();
            let mut size: libc::size_t = 0;
            libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
            STACK_LO.store(addr as usize, Ordering::Relaxed);
            STACK_HI.store(addr as usize + size, Ordering::Relaxed);
            libc::pthread_attr_destroy(&mut attr);
        }
        let stack = libc::mmap(
            std::ptr::null_mut(),
            ALT_STACK,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if stack != libc::MAP_FAILED {
            let ss = libc::stack_t {
                ss_sp: stack,
                ss_flags: 0,
                ss_size: ALT_STACK,
            };
            libc::sigaltstack(&ss, std::ptr::null_mut());
        }
    }
    reinstall();
    let timeout = SigAction::new(
        SigHandler::SigAction(on_timeout),
        SaFlags::SA_SIGINFO | SaFlags::SA_ONSTACK,
        SigSet::empty(),
    );
    // SAFETY: the handler only does what a signal handler may (see it),
    // and what it shares with the rest of the process is atomics.
    unsafe {
        let _ = sigaction(TIMEOUT_SIGNAL, &timeout);
    }
}

/// From now on a crash in this process (not in its children, which
/// inherit the handler) writes [`CRASHING_LINE`] to `fd`, the pipe to the
/// coordinator, before anything else: the coordinator saves the input
/// while the report is written, which takes a while (symbolizing the
/// backtrace).
///
/// [`CRASHING_LINE`]: fuzz_core::worker::protocol::CRASHING_LINE
pub fn tell_on_crash(fd: RawFd) {
    // SAFETY: fstat of a descriptor into a zeroed struct of our own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return;
    }
    TELL_INO.store(st.st_ino, Ordering::Relaxed);
    TELL_PID.store(std::process::id() as i32, Ordering::Relaxed);
    TELL_FD.store(fd, Ordering::Relaxed);
}

/// The handler's first words, to the coordinator (see [`tell_on_crash`]):
/// only from the worker itself, and only while the descriptor is still the
/// pipe (a target that closed it may have opened a file of its own there).
fn tell_crashing() {
    let fd = TELL_FD.load(Ordering::Relaxed);
    if fd < 0 || getpid().as_raw() != TELL_PID.load(Ordering::Relaxed) {
        return;
    }
    let line = fuzz_core::worker::protocol::CRASHING_LINE.as_bytes();
    // SAFETY: fstat and write(2) are async-signal-safe; the struct and the
    // line are our own.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &mut st) == 0 && st.st_ino == TELL_INO.load(Ordering::Relaxed) {
            libc::write(fd, line.as_ptr().cast(), line.len());
        }
    }
}

/// Installs the crash handler for the crash signals (again, after a crash
/// the worker survived: the handler resets them on entry). On the
/// alternate stack (SA_ONSTACK), so that a stack overflow still has a
/// stack to run on. Called from the handler too: nix's SigAction and
/// sigaction allocate nothing.
pub fn reinstall() {
    let crash = SigAction::new(
        SigHandler::SigAction(handler),
        SaFlags::SA_SIGINFO | SaFlags::SA_ONSTACK | SaFlags::SA_NODEFER,
        SigSet::empty(),
    );
    // Not SA_NODEFER: the signal stays blocked in its handler, so that
    // raising it again there kills the process once the handler returns.
    let stop = SigAction::new(
        SigHandler::SigAction(on_stop),
        SaFlags::SA_SIGINFO | SaFlags::SA_ONSTACK,
        SigSet::empty(),
    );
    // SAFETY: the handlers only do what a signal handler may (see them),
    // and what they share with the rest of the process is atomics.
    unsafe {
        for sig in SIGNALS {
            let _ = sigaction(sig, &crash);
        }
        for sig in STOP_SIGNALS {
            let _ = sigaction(sig, &stop);
        }
    }
}

/// SIGTERM, SIGINT or SIGHUP. Sent by this process itself (its `si_pid`
/// is our pid: `raise`, `kill(0, …)`, `kill(getpid(), …)` in the target),
/// it is the input's crash, reported as one ([`handler`]); from anyone
/// else it is a stop, and the process dies of it at once, saying nothing.
/// Either way the default disposition comes back first, and the signal,
/// raised again while blocked here, ends the process when this returns.
extern "C" fn on_stop(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: reading the siginfo the kernel passed, getpid and resetting
    // dispositions, all async-signal-safe.
    let own = unsafe {
        for s in STOP_SIGNALS {
            libc::signal(s as libc::c_int, libc::SIG_DFL);
        }
        !info.is_null() && (*info).si_pid() == libc::getpid()
    };
    if own {
        handler(sig, info, ctx);
    } else if let Ok(sig) = Signal::try_from(sig) {
        let _ = raise(sig);
    }
}

/// A flag a Go library watches (golib.rs): set to 1, it writes where its
/// goroutines are, and sets it to 2.
static GO_WHERE: AtomicPtr<u32> = AtomicPtr::new(std::ptr::null_mut());

/// On a timeout, ask the Go library through `flag` where its goroutines
/// are, rather than show this thread's stack (which only waits for Go).
pub fn on_timeout_ask(flag: *mut u32) {
    GO_WHERE.store(flag, Ordering::Release);
}

/// Asks the Go library where it is (see [`on_timeout_ask`]) and waits up
/// to 400 ms for its answer; true when it answered.
fn go_answered() -> bool {
    let flag = GO_WHERE.load(Ordering::Acquire);
    if flag.is_null() {
        return false;
    }
    // SAFETY: a u32 of the loaded library's, which both sides only load
    // and store whole; nanosleep is async-signal-safe.
    unsafe {
        let flag = &*(flag as *const AtomicU32);
        flag.store(1, Ordering::SeqCst);
        for _ in 0..40 {
            if flag.load(Ordering::SeqCst) == 2 {
                return true;
            }
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 10_000_000,
            };
            libc::nanosleep(&pause, std::ptr::null_mut());
        }
    }
    false
}

/// The time limit struck: write where the target's thread is (its stack:
/// the site of a hang), then die. Sent to the process, it may land on any
/// thread: it is passed on to the one that runs the target.
extern "C" fn on_timeout(_: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // gettid, tgkill and write are async-signal-safe; the stack walk
    // allocates, and should it block, the sender's SIGKILL follows.
    let main = MAIN_TID.load(Ordering::Relaxed);
    if main != 0 && gettid().as_raw() != main {
        // SAFETY: tgkill (nix has no wrapper) to a thread of this process.
        unsafe {
            libc::syscall(
                libc::SYS_tgkill,
                libc::getpid(),
                main,
                TIMEOUT_SIGNAL as libc::c_int,
            )
        };
        return;
    }
    if go_answered() {
        let _ = raise(Signal::SIGKILL);
    }
    let out = OUT_FD.load(Ordering::Relaxed);
    let mut line = StackLine::new();
    line.push(b"==fuzz-worker== timeout: the input ran past the time limit; it was here:\n");
    line.write_to(out);
    write_backtrace(&mut FdOut(out));
    let _ = raise(Signal::SIGKILL);
}

/// Writes the fingerprint line of a crash report where reports go (see
/// [`fuzz_core::worker::crash::FINGERPRINT`]), without allocating.
pub fn write_fingerprint(fingerprint: u64) {
    let mut fp = StackLine::new();
    fp.push(fuzz_core::worker::crash::FINGERPRINT.as_bytes());
    fp.push_hex(fingerprint as usize);
    fp.push(b"\n");
    fp.write_to(OUT_FD.load(Ordering::Relaxed));
}

/// The exit status of a worker whose target closed its descriptors to the
/// coordinator.
pub const LOST_PIPES_STATUS: i32 = 86;

/// The target closed the worker's pipes to the coordinator (or its stderr):
/// say so where a report can still go, and end with the status that
/// tells it from an exit of the target's.
pub fn lost_pipes() -> ! {
    let out = OUT_FD.load(Ordering::Relaxed);
    let mut line = StackLine::new();
    line.push(fuzz_core::worker::crash::LOST_PIPES.as_bytes());
    line.push(b"\n");
    // The copy of stderr may have been closed with the pipes: then stderr.
    // SAFETY: fcntl F_GETFD only asks whether a descriptor is open.
    let open = unsafe { libc::fcntl(out, libc::F_GETFD) } >= 0;
    line.write_to(if open { out } else { 2 });
    // SAFETY: leaving at once; nothing of ours is left to flush.
    unsafe { libc::_exit(LOST_PIPES_STATUS) }
}

/// A descriptor to write a report to, not closed when dropped.
struct FdOut(RawFd);

impl Write for FdOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // SAFETY: write(2) of a caller's buffer to a descriptor we keep open.
        let n = unsafe { libc::write(self.0, buf.as_ptr().cast(), buf.len()) };
        if n < 0 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn is_stack_overflow(sig: libc::c_int, addr: usize) -> bool {
    if sig != libc::SIGSEGV && sig != libc::SIGBUS {
        return false;
    }
    let lo = STACK_LO.load(Ordering::Relaxed);
    let hi = STACK_HI.load(Ordering::Relaxed);
    // The guard area lies just below the lowest stack address; a fault
    // near the bottom of the stack is an overflow.
    lo != 0 && addr < hi && addr + (1 << 20) >= lo && addr < lo + (64 << 10)
}

extern "C" fn handler(sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // Restore the default first: a fault inside this handler then kills
    // the process instead of looping.
    // SAFETY: resetting a disposition and reading the siginfo the kernel
    // passed.
    let addr = unsafe {
        for s in SIGNALS {
            libc::signal(s as libc::c_int, libc::SIG_DFL);
        }
        if info.is_null() {
            0
        } else {
            (*info).si_addr() as usize
        }
    };
    let overflow = is_stack_overflow(sig, addr);
    // A crash -keepfuzzing has recorded already, in a guarded call: the
    // call returns and the worker goes on (this does not return then).
    let fingerprint = crate::known_crashes::fingerprint_here(sig);
    crate::known_crashes::survive_if_known(sig, fingerprint, reinstall);
    tell_crashing();
    // First what matters, without allocating: the crash may have happened
    // inside malloc with its lock held, and anything that allocates could
    // then block forever. The header and the report line are built on the
    // stack and written with write(2).
    let mut line = StackLine::new();
    line.push(b"==fuzz-worker== deadly signal ");
    match fuzz_core::worker::crash::signal_str(sig) {
        Some(name) => line.push(name.as_bytes()),
        None => {
            line.push(b"signal ");
            line.push_dec(sig as usize);
        }
    }
    if overflow {
        line.push(b" (stack overflow)");
    }
    if STOP_SIGNALS.iter().any(|&s| s as libc::c_int == sig) {
        line.push(b" (sent by the target to itself)");
    }
    if matches!(sig, libc::SIGSEGV | libc::SIGBUS) {
        line.push(b" at address 0x");
        line.push_hex(addr);
    }
    line.push(b"\n");
    let out = OUT_FD.load(Ordering::Relaxed);
    line.write_to(out);
    write_fingerprint(fingerprint);
    let fd = REPORT_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        let mut r = StackLine::new();
        r.push(b"C ");
        r.push_dec(sig as usize);
        r.push(if overflow { b" 1\n" } else { b" 0\n" });
        r.write_to(fd);
    }
    // Then the backtrace, which allocates; should it block, the alarm ends
    // the process, and the header above already says what happened.
    // alarm(2) is async-signal-safe.
    alarm::set(10);
    write_backtrace(&mut FdOut(out));
    // Re-raised with the default disposition: the process dies of the
    // signal, as it would have without us.
    if let Ok(sig) = Signal::try_from(sig) {
        let _ = raise(sig);
    }
}

/// A line built without allocating, for the signal handler.
struct StackLine {
    buf: [u8; 200],
    len: usize,
}

impl StackLine {
    fn new() -> StackLine {
        StackLine {
            buf: [0; 200],
            len: 0,
        }
    }
    fn push(&mut self, b: &[u8]) {
        let n = b.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&b[..n]);
        self.len += n;
    }
    fn push_hex(&mut self, mut v: usize) {
        let mut digits = [0u8; 16];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b"0123456789abcdef"[v & 15];
            v >>= 4;
            if v == 0 {
                break;
            }
        }
        let d = digits;
        self.push(&d[i..]);
    }
    fn push_dec(&mut self, mut v: usize) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        let d = digits;
        self.push(&d[i..]);
    }
    fn write_to(&self, fd: i32) {
        // SAFETY: write(2) of our own buffer.
        unsafe {
            libc::write(fd, self.buf.as_ptr().cast(), self.len);
        }
    }
}

/// Writes the current stack, symbolized where symbols allow, skipping the
/// frames of the handler itself.
pub fn write_backtrace(out: &mut impl Write) {
    let mut frames: Vec<usize> = Vec::new();
    // SAFETY: unsynchronized tracing is fine here: the process is about to
    // die and no other thread of ours walks the stack.
    unsafe {
        backtrace::trace_unsynchronized(|f| {
            frames.push(f.ip() as usize);
            frames.len() < 256
        });
    }
    // Frames in this executable are ours: the handler (before the signal
    // trampoline) and the executor (where the target was called from).
    // Only the frames between are shown, and only they are symbolized:
    // symbolizing our own frames would parse our own debug information.
    let base = own_base();
    let ours = |ip: usize| own_module(ip, base);
    let lead = frames.iter().take_while(|&&ip| ours(ip)).count();
    let mut start = if lead > 0 {
        (lead + 1).min(frames.len())
    } else {
        0
    };
    // Interrupted inside one of our coverage callbacks (a timeout strikes
    // in a loop gcc's trace-pc instruments): the target's frames are those
    // that called it.
    while start < frames.len() && ours(frames[start]) {
        start += 1;
    }
    let end = frames[start..]
        .iter()
        .position(|&ip| ours(ip))
        .map_or(frames.len(), |i| start + i);
    let mut lines = Vec::new();
    for ip in &frames[start..end] {
        let mut name = String::new();
        let mut loc = String::new();
        if SYMBOLIZE.load(Ordering::Relaxed) {
            // SAFETY: as above.
            unsafe {
                backtrace::resolve_unsynchronized(*ip as *mut libc::c_void, |s| {
                    if name.is_empty() {
                        if let Some(n) = s.name() {
                            name = format!("{n:#}");
                        }
                        if let (Some(f), Some(l)) = (s.filename(), s.lineno()) {
                            loc = format!(" {}:{l}", f.display());
                        }
                    }
                });
            }
        }
        lines.push((*ip, name, loc, module_offset(*ip)));
    }
    let frames = &lines[..];
    let mut n = 0;
    let mut i = 0;
    while i < frames.len() {
        let (ip, name, loc, module) = &frames[i];
        let name = if name.is_empty() { "??" } else { name };
        let _ = writeln!(out, "    #{n} {ip:#x} in {name}{loc} ({module})");
        // Collapse a run of the same frame (deep recursion).
        let mut same = i + 1;
        while same < frames.len() && frames[same].0 == *ip {
            same += 1;
        }
        if same - i > 2 {
            let _ = writeln!(out, "    ... the same frame {} more times", same - i - 1);
            i = same;
        } else {
            i += 1;
        }
        n += 1;
    }
}

/// The load address of this executable.
fn own_base() -> usize {
    // SAFETY: dladdr on the address of one of our own functions.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        libc::dladdr(own_base as *const libc::c_void, &mut info);
        info.dli_fbase as usize
    }
}

/// True when `ip` lies in this executable.
fn own_module(ip: usize, base: usize) -> bool {
    // SAFETY: dladdr only reads loader data structures.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        libc::dladdr(ip as *const libc::c_void, &mut info) != 0 && info.dli_fbase as usize == base
    }
}

/// `module+0xoffset` of an address, via dladdr.
pub fn module_offset(ip: usize) -> String {
    // SAFETY: dladdr only reads loader data structures.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(ip as *const libc::c_void, &mut info) != 0 && !info.dli_fname.is_null() {
            let path = std::ffi::CStr::from_ptr(info.dli_fname).to_string_lossy();
            let file = path.rsplit('/').next().unwrap_or(&path).to_string();
            return format!("{file}+{:#x}", ip - info.dli_fbase as usize);
        }
    }
    format!("{ip:#x}")
}
