//! Go libraries: a package's fuzz tests, built by fuzz-build into a shared
//! library that runs them with Go's own testing package (fuzz-build/src/go.rs
//! says how it is built). Such a library exports no typed
//! targets of its own; it exports these functions, which this module is
//! the only caller of:
//!
//! - `fuzz_go_list()`: its fuzz tests' names, one per line;
//! - `fuzz_go_describe(name)`: runs the fuzz test as go test -fuzz's
//!   coordinator does (its f.Add calls, its f.Fuzz) and says, in JSON, how
//!   that went, its argument types and its f.Add values as corpus files;
//! - `fuzz_go_prepare(name, args)`: runs it as one of go test's fuzzing
//!   workers, up to where testing hands over the function that runs one
//!   input;
//! - `fuzz_go_tables(&tables)`: its coverage counters and the comparisons
//!   its hooks note;
//! - `fuzz_go_drive(resume, ctx)`: runs inputs on a goroutine, asking
//!   `resume` for each, until it says there are no more.
//!
//! Three facts of Go shape how the worker uses them. Go starts threads as
//! the library loads, and a forked child of a process with threads gets
//! one: so a Go library is loaded only in a process that forks no more
//! (`describe` runs in forked children for that reason, and `run`'s
//! children load the library themselves). Go's own signal handlers must
//! come after the worker's, which then see only faults outside Go code (a
//! nil dereference in Go is Go's panic): so the crash handlers are
//! installed before loading. And a goroutine that entered Go from C hands
//! its processor to another thread whenever it waits, as testing's does
//! for each input: so the inputs are run from a goroutine of Go's own, and
//! the worker's code that asks for them runs as a coroutine on its own
//! stack ([`within`]), entered by that goroutine through `resume` and left
//! at every call of the target ([`call`]). No system call is made per
//! input.

use crate::library::TargetFn;
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use fuzz_core::worker::protocol::{GoStatus, GoTest};
use fuzz_core::ArgType;
use nix::fcntl::OFlag;
use nix::sys::wait::waitpid;
use nix::unistd::{pipe2, read, write, ForkResult};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The export that marks a Go library.
pub const DESCRIBE: &str = "fuzz_go_describe";

/// One fuzz test as `fuzz_go_describe` tells of it.
#[derive(serde::Deserialize)]
struct Description {
    status: GoStatus,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    seeds: Vec<String>,
    #[serde(default)]
    output: String,
    #[serde(default)]
    counters: usize,
}

/// A fuzz test of a Go library: its argument types (none when its set-up
/// failed), what go test's set-up said of it, and how many coverage
/// counters the library has.
pub struct Described {
    pub name: String,
    pub args: Vec<ArgType>,
    pub test: GoTest,
    pub counters: usize,
}

/// Describes the fuzz tests of the Go library at `path` (only `only` when
/// given), each in a child process of its own that loads the library:
/// this process stays free of Go's threads, and one fuzz test's set-up
/// (a TestMain's os.Exit, say) cannot end another's.
pub fn describe(path: &Path, only: Option<&str>) -> Result<Vec<Described>, String> {
    let text = in_child(path, |lib| {
        // SAFETY: the library's fuzz_go_list, as this module's doc says.
        let list = unsafe { export::<unsafe extern "C" fn() -> *mut c_char>(lib, "fuzz_go_list")? };
        Ok(take_string(unsafe { list() }))
    })?;
    let mut names: Vec<String> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if let Some(name) = only {
        if !names.iter().any(|n| n == name) {
            return Err(format!(
                "no target {name:?} (the library has: {})",
                names.join(", ")
            ));
        }
        names = vec![name.to_string()];
    }
    let mut out = Vec::new();
    for name in names {
        let c_name = CString::new(name.clone()).map_err(|e| e.to_string())?;
        let text = in_child(path, |lib| {
            // SAFETY: the library's fuzz_go_describe, given a C string.
            let f = unsafe {
                export::<unsafe extern "C" fn(*const c_char) -> *mut c_char>(lib, DESCRIBE)?
            };
            Ok(take_string(unsafe { f(c_name.as_ptr()) }))
        })
        .map_err(|e| format!("fuzz test {name}: {e}"))?;
        let d: Description = serde_json::from_str(&text)
            .map_err(|e| format!("fuzz test {name}: unexpected description ({e}): {text}"))?;
        let args = if d.status == GoStatus::Ok {
            d.args
                .iter()
                .map(|a| a.parse::<ArgType>())
                .collect::<Result<_, _>>()
                .map_err(|e| format!("fuzz test {name}: {e}"))?
        } else {
            Vec::new()
        };
        out.push(Described {
            name,
            args,
            test: GoTest {
                status: d.status,
                seeds: d.seeds,
                output: d.output,
            },
            counters: d.counters,
        });
    }
    Ok(out)
}

/// How long a child may take to load the library and run a fuzz test's
/// set-up: the warm-up allowance ARCHITECTURE.md gives a first execution.
const SET_UP: Duration = Duration::from_secs(60);

/// Runs `job` on the library at `path` in a forked child and returns what
/// it produced; the child's stdout goes nowhere and its stderr is kept for
/// the error should it die.
fn in_child(
    path: &Path,
    job: impl FnOnce(&libloading::os::unix::Library) -> Result<String, String>,
) -> Result<String, String> {
    let (from_child, to_parent) = pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe: {e}"))?;
    let stderr = crate::children::capture_file("fuzz-worker-go-set-up")?;
    // SAFETY: this process has no thread but this one (a Go library is
    // never loaded in it); the child ends with _exit.
    match unsafe { crate::children::fork() } {
        Err(e) => Err(format!("fork: {e}")),
        Ok(ForkResult::Child) => {
            drop(from_child);
            crate::children::die_with_parent();
            crate::children::quiet_stdout(&stderr);
            let result = open(path).and_then(|lib| job(&lib));
            let (code, text) = match result {
                Ok(text) => (0, text),
                Err(e) => (3, e),
            };
            let mut rest = text.as_bytes();
            while let Ok(n @ 1..) = write(&to_parent, rest) {
                rest = &rest[n..];
            }
            crate::children::exit_now(code)
        }
        Ok(ForkResult::Parent { child }) => {
            drop(to_parent);
            let mut got = Vec::new();
            let deadline = Instant::now() + SET_UP;
            let mut timed_out = false;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    timed_out = true;
                    let _ = nix::sys::signal::kill(child, nix::sys::signal::Signal::SIGKILL);
                    break;
                }
                if !crate::children::readable(
                    from_child.as_fd(),
                    left.min(Duration::from_millis(100)),
                ) {
                    continue;
                }
                let mut chunk = [0u8; 65536];
                match read(&from_child, &mut chunk) {
                    Ok(n) if n > 0 => got.extend_from_slice(&chunk[..n]),
                    Err(nix::errno::Errno::EINTR) => continue,
                    _ => break,
                }
            }
            let status = waitpid(child, None);
            let text = String::from_utf8_lossy(&got).into_owned();
            let said = crate::children::read_capture(&stderr);
            let (signal, code) = crate::children::signal_or_code(status);
            match (timed_out, signal, code) {
                (true, ..) => Err(format!(
                    "its set-up ran past {}s (killed){}",
                    SET_UP.as_secs(),
                    tail(&said)
                )),
                (_, None, Some(0)) => Ok(text),
                (_, None, Some(3)) => Err(text),
                (_, Some(sig), _) => Err(format!(
                    "the process loading it died of {}{}",
                    fuzz_core::worker::crash::signal_str(sig).unwrap_or("a signal"),
                    tail(&said)
                )),
                (_, _, code) => Err(format!(
                    "the process loading it exited with status {} during its set-up (a TestMain \
                     or an init calling os.Exit?){}",
                    code.unwrap_or(-1),
                    tail(&said)
                )),
            }
        }
    }
}

/// The last lines of what a child wrote to stderr, for an error message.
fn tail(said: &str) -> String {
    let lines: Vec<&str> = said.trim().lines().collect();
    if lines.is_empty() {
        return String::new();
    }
    let from = lines.len().saturating_sub(20);
    format!(": {}", lines[from..].join("\n"))
}

/// Opens the library at `path`.
fn open(path: &Path) -> Result<libloading::os::unix::Library, String> {
    // SAFETY: loading runs the library's initialisers: that is what a
    // target library is for.
    unsafe {
        libloading::os::unix::Library::open(
            Some(path),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
        )
    }
    .map_err(|e| format!("cannot load: {e}"))
}

/// A function the library exports.
///
/// # Safety
/// `T` must be the function pointer type of the export.
unsafe fn export<T: Copy>(lib: &libloading::os::unix::Library, name: &str) -> Result<T, String> {
    // SAFETY: as the caller promises.
    unsafe { lib.get::<T>(name.as_bytes()) }
        .map(|f| *f)
        .map_err(|_| format!("not a Go library of fuzz-build's: it exports no {name}"))
}

/// A C string the library allocated (C.CString: malloc), freed.
fn take_string(p: *mut c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string from malloc, ours to free.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        libc::free(p.cast());
        s
    }
}

/// What `fuzz_go_tables` fills in.
#[repr(C)]
struct Tables {
    counters: *mut u8,
    counters_len: usize,
    tracing: *mut u32,
    ints: *const IntCmp,
    int_count: *mut u32,
    int_cap: usize,
    strs: *const StrCmp,
    str_count: *mut u32,
    str_cap: usize,
    /// Set to 1 to have the library write where its goroutines are (it
    /// sets 2 when it has).
    where_: *mut u32,
}

/// An integer comparison the Go hooks noted (trace.go's fuzzbuildIntCmp).
#[repr(C)]
#[derive(Clone, Copy)]
struct IntCmp {
    a: u64,
    b: u64,
    size: u32,
    site: u32,
}

/// A string comparison the Go hooks noted (trace.go's fuzzbuildStrCmp).
#[repr(C)]
#[derive(Clone, Copy)]
struct StrCmp {
    a: [u8; 32],
    b: [u8; 32],
    a_len: u8,
    b_len: u8,
}

type Resume = extern "C" fn(*mut c_void, c_int, *mut *const u8, *mut usize) -> c_int;
type Drive = unsafe extern "C" fn(Resume, *mut c_void);

/// The Go library this process has loaded, if any.
struct Loaded {
    drive: Drive,
    tables: Tables,
    _lib: libloading::os::unix::Library,
}

// SAFETY: the tables point into the library, loaded for the life of the
// process; they are read only by the thread running the worker's code,
// between inputs.
unsafe impl Send for Loaded {}
unsafe impl Sync for Loaded {}

static LOADED: OnceLock<Loaded> = OnceLock::new();

/// True once a Go library is loaded in this process (which then forks no
/// more).
pub fn loaded() -> bool {
    LOADED.get().is_some()
}

/// Loads the Go library at `path` into this process for good, to run its
/// fuzz test `name`, whose argument types are `args`: the test is set up
/// as a go test worker's is, and its coverage counters are registered.
/// The crash handlers must be installed already.
pub fn load(path: &Path, name: &str, args: &[ArgType]) -> Result<(), String> {
    if LOADED.get().is_some() {
        return Ok(());
    }
    let lib = open(path)?;
    let types: Vec<String> = args.iter().map(ArgType::to_string).collect();
    let c_name = CString::new(name).map_err(|e| e.to_string())?;
    let c_types = CString::new(types.join(", ")).map_err(|e| e.to_string())?;
    // SAFETY: the library's exports, with the prototypes this module's doc
    // gives.
    let loaded = unsafe {
        type Prepare = unsafe extern "C" fn(*const c_char, *const c_char) -> *mut c_char;
        let prepare = export::<Prepare>(&lib, "fuzz_go_prepare")?;
        let failed = take_string(prepare(c_name.as_ptr(), c_types.as_ptr()));
        if !failed.is_empty() {
            return Err(format!("fuzz test {name}: {}", failed.trim_end()));
        }
        let tables_fn = export::<unsafe extern "C" fn(*mut Tables)>(&lib, "fuzz_go_tables")?;
        let mut tables: Tables = std::mem::zeroed();
        tables_fn(&mut tables);
        Loaded {
            drive: export::<Drive>(&lib, "fuzz_go_drive")?,
            tables,
            _lib: lib,
        }
    };
    let t = &loaded.tables;
    if !t.counters.is_null() {
        // SAFETY: counters_len bytes of the library's counter section.
        crate::sancov::__sanitizer_cov_8bit_counters_init(t.counters, unsafe {
            t.counters.add(t.counters_len)
        });
    }
    crate::crash::on_timeout_ask(t.where_);
    let _ = LOADED.set(loaded);
    Ok(())
}

/// The worker's code that runs inputs, as a coroutine: it yields each
/// input's packed arguments and is resumed with the target's return value.
type Worker<'a> = Coroutine<c_int, (usize, usize), (), DefaultStack>;

/// The yielder of the running coroutine, for [`call`].
static YIELDER: AtomicPtr<Yielder<c_int, (usize, usize)>> = AtomicPtr::new(std::ptr::null_mut());

/// Room for the worker's own code, which runs on the coroutine's stack.
const STACK: usize = 16 << 20;

/// Runs `f`, which may call a Go target (through [`call`]), where it can:
/// with a Go library loaded, as a coroutine driven by a goroutine of the
/// library's (see the module doc); without, as it is.
pub fn within<R>(f: impl FnOnce() -> R) -> R {
    let Some(loaded) = LOADED.get() else {
        return f();
    };
    let mut result = None;
    let stack = DefaultStack::new(STACK).unwrap_or_else(|e| {
        eprintln!("fuzz-worker: cannot map a stack for the Go driver: {e}");
        std::process::exit(2)
    });
    {
        let body = |y: &Yielder<c_int, (usize, usize)>, _first: c_int| {
            YIELDER.store(y as *const _ as *mut _, Ordering::Release);
            result = Some(f());
            YIELDER.store(std::ptr::null_mut(), Ordering::Release);
        };
        // SAFETY: the coroutine borrows `result` and `f`, and is driven to
        // its end (or dropped) before this block ends.
        let mut worker: Worker = unsafe { Coroutine::with_stack_unchecked(stack, body) };
        // SAFETY: the library's fuzz_go_drive, given our resume and the
        // coroutine it resumes; it returns once the coroutine has ended.
        unsafe { (loaded.drive)(resume, (&mut worker as *mut Worker).cast()) };
    }
    result.unwrap_or_else(|| {
        eprintln!("fuzz-worker: the Go driver returned before the work was done");
        std::process::exit(2)
    })
}

/// Called by the library's driving goroutine for the next input, with the
/// last one's return value: resumes the worker's coroutine until it calls
/// the target again (1, the input in `data` and `len`) or ends (0).
extern "C" fn resume(ctx: *mut c_void, ret: c_int, data: *mut *const u8, len: *mut usize) -> c_int {
    // SAFETY: ctx is the coroutine `within` passed to the driver, alive
    // until the driver returns.
    let worker = unsafe { &mut *ctx.cast::<Worker>() };
    match worker.resume(ret) {
        CoroutineResult::Yield((p, n)) => {
            // SAFETY: the driver's out-parameters.
            unsafe {
                *data = p as *const u8;
                *len = n;
            }
            1
        }
        CoroutineResult::Return(()) => 0,
    }
}

/// The target function of every Go fuzz test (the prototype of typed
/// targets): hands the input to the library's driving goroutine and
/// returns what the fuzz test made of it (0 passed, 1 failed with its
/// message on stderr), then moves the comparisons it noted into the
/// worker's tables.
pub unsafe extern "C" fn call(data: *const u8, len: usize) -> c_int {
    let y = YIELDER.load(Ordering::Acquire);
    if y.is_null() {
        eprintln!("fuzz-worker: a Go fuzz test was called outside the Go driver");
        std::process::abort();
    }
    // SAFETY: the yielder of the coroutine this code runs in.
    let ret = unsafe { (*y).suspend((data as usize, len)) };
    take_comparisons();
    ret
}

/// The target function for Go fuzz tests, as the executor calls targets.
pub const TARGET: TargetFn = call;

/// Moves what the Go hooks noted in the last input into the worker's
/// comparison tables, and empties theirs.
fn take_comparisons() {
    let Some(loaded) = LOADED.get() else { return };
    let t = &loaded.tables;
    // SAFETY: the library's tables (see `Tables`), which its hooks write
    // only while an input runs, and no input runs now.
    unsafe {
        let n = (*t.int_count as usize).min(t.int_cap);
        for e in std::slice::from_raw_parts(t.ints, n) {
            crate::sancov::record(e.a, e.b, e.size as u8);
        }
        *t.int_count = 0;
        let n = (*t.str_count as usize).min(t.str_cap);
        for e in std::slice::from_raw_parts(t.strs, n) {
            crate::sancov::fuzz_worker_hook_memcmp(
                e.a.as_ptr(),
                e.b.as_ptr(),
                e.a_len as usize,
                e.b_len as usize,
            );
        }
        *t.str_count = 0;
    }
}
