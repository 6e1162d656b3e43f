//! What a worker does when the target crashes: an alternate signal stack
//! (so a stack overflow can be reported at all), handlers that write the
//! signal, whether it was a stack overflow, and a symbolized backtrace to
//! stderr, tell the supervisor on the report pipe, and then let the signal
//! kill the process as it would have.
//!
//! Installed only in the process that runs targets, after fork, before the
//! first execution.

use std::io::Write;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

static REPORT_FD: AtomicI32 = AtomicI32::new(-1);
static STACK_LO: AtomicUsize = AtomicUsize::new(0);
static STACK_HI: AtomicUsize = AtomicUsize::new(0);
/// Off in the forked children that try minimization candidates: a crash
/// site needs module offsets only, and symbolizing costs milliseconds.
pub static SYMBOLIZE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

const SIGNALS: [libc::c_int; 6] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
    libc::SIGTRAP,
];
const ALT_STACK: usize = 4 << 20;

/// Installs the handlers. `report_fd` receives one line, `C <signal>
/// <stack-overflow 0|1>`, when the target crashes.
pub fn install(report_fd: RawFd) {
    REPORT_FD.store(report_fd, Ordering::Relaxed);
    // SAFETY: plain libc calls on this thread's own attributes and a fresh
    // mapping for the alternate stack; handlers are installed with
    // SA_ONSTACK so a stack overflow still has a stack to run on.
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
        for sig in SIGNALS {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = handler as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
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
            libc::signal(s, libc::SIG_DFL);
        }
        if info.is_null() {
            0
        } else {
            (*info).si_addr() as usize
        }
    };
    let overflow = is_stack_overflow(sig, addr);
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
    if matches!(sig, libc::SIGSEGV | libc::SIGBUS) {
        line.push(b" at address 0x");
        line.push_hex(addr);
    }
    line.push(b"\n");
    line.write_to(2);
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
    // SAFETY: alarm(2) is async-signal-safe.
    unsafe {
        libc::alarm(10);
    }
    let mut err = std::io::stderr().lock();
    write_backtrace(&mut err);
    let _ = err.flush();
    // SAFETY: re-raise with the default disposition: the process dies of
    // the signal, as it would have without us.
    unsafe {
        libc::raise(sig);
    }
}

/// A line built without allocating, for the signal handler.
struct StackLine {
    buf: [u8; 160],
    len: usize,
}

impl StackLine {
    fn new() -> StackLine {
        StackLine {
            buf: [0; 160],
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
    let start = if lead > 0 {
        (lead + 1).min(frames.len())
    } else {
        0
    };
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
