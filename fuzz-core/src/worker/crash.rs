//! What a crash report says: the sanitizer's verdict, and the crash site
//! that tells bugs apart (`-keepfuzzing` keeps one crasher per site;
//! `fuzz-minimize -same` keeps the site).
//!
//! Reports are what fuzz-worker writes when a target dies: the sanitizer's
//! own report if any, then `==fuzz-worker== deadly signal …` and frames
//! `#N 0xADDR in NAME FILE:LINE (module+0xOFFSET)`. The site is the crash
//! kind plus the top three frames inside the target's module, as module +
//! offset, so that the same bug compares equal across processes with
//! different load addresses.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a process running a target ended, when it did not come back with
/// an answer. Its text (`Display`) is what reports and `-json` events say:
/// `SIGSEGV`, `SIGABRT (Rust panic)`, `asan: heap-buffer-overflow`,
/// `stack overflow`, `exit status 3`, `timeout`,
/// `out of memory (2100 MiB resident)`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "death", rename_all = "snake_case")]
pub enum DeathKind {
    /// Killed by a signal; `panic` when a Rust panic aborted the process.
    Signal {
        signal: i32,
        panic: bool,
    },
    /// A sanitizer's verdict: `asan`, `heap-buffer-overflow`.
    Sanitizer {
        tool: String,
        bug: String,
    },
    StackOverflow,
    /// The target called `exit`.
    Exit {
        status: i32,
    },
    /// An input ran past the time limit.
    Timeout,
    /// The process passed the memory limit.
    OutOfMemory {
        rss_mb: u64,
    },
    /// Neither a signal nor an exit status could be read.
    Lost,
    /// No process could be made to run the input (fork failed): not the
    /// target's doing.
    CannotRun,
    /// Killed by the tool that started it, because it was stopping.
    Stopped,
    /// The target closed the worker's descriptors to its coordinator: the
    /// worker could not go on (not an exit of the target's).
    LostPipes,
}

/// What a worker writes when its target closed its pipes.
pub const LOST_PIPES: &str =
    "==fuzz-worker== the target closed the descriptors the worker talks to the coordinator on";

impl DeathKind {
    /// True for deaths that no candidate of a minimization should be made
    /// to repeat, since each would cost the limit: a hang, a memory blow-up.
    pub fn costs_a_limit(&self) -> bool {
        matches!(self, DeathKind::Timeout | DeathKind::OutOfMemory { .. })
    }

    /// True for a death by SIGTERM, SIGINT or SIGHUP, the signals that stop
    /// a job: a scheduler sends them to every process of it, a target's
    /// children too, so such a death may be a stop rather than the input's.
    pub fn by_a_stop_signal(&self) -> bool {
        matches!(
            self,
            DeathKind::Signal { signal, panic: false }
                if [libc::SIGTERM, libc::SIGINT, libc::SIGHUP].contains(signal)
        )
    }
}

impl fmt::Display for DeathKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeathKind::Signal { signal, panic } => {
                f.write_str(&signal_name(*signal))?;
                if *panic {
                    f.write_str(" (Rust panic)")?;
                }
                Ok(())
            }
            DeathKind::Sanitizer { tool, bug } => write!(f, "{tool}: {bug}"),
            DeathKind::StackOverflow => f.write_str("stack overflow"),
            DeathKind::Exit { status } => write!(f, "exit status {status}"),
            DeathKind::Timeout => f.write_str("timeout"),
            DeathKind::OutOfMemory { rss_mb } => {
                write!(f, "out of memory ({rss_mb} MiB resident)")
            }
            DeathKind::Lost => f.write_str("lost"),
            DeathKind::CannotRun => f.write_str("cannot fork"),
            DeathKind::Stopped => f.write_str("stopped"),
            DeathKind::LostPipes => f.write_str("the target closed the worker's pipes"),
        }
    }
}

/// What a worker that did not start said last: its last line that is not
/// empty and not a fingerprint, without the `fuzz-worker: ` of its own
/// errors.
pub fn last_said(report: &str) -> Option<&str> {
    (report.lines().rev().map(str::trim))
        .find(|l| !l.is_empty() && !l.starts_with(FINGERPRINT.trim_end()))
        .map(|l| l.strip_prefix("fuzz-worker: ").unwrap_or(l))
}

/// True for a death that may be a stop rather than the input's: by SIGTERM,
/// SIGINT or SIGHUP ([`DeathKind::by_a_stop_signal`]) that the process did
/// not send itself. A worker's handler writes the crash header for a stop
/// signal only when the process sent it to itself (`raise`, `kill(0, …)`,
/// `kill(getpid(), …)`: the signal's `si_pid` is its own), so that such a
/// signal is the target's doing and replays as it was found.
pub fn maybe_a_stop(kind: &DeathKind, report: &str) -> bool {
    kind.by_a_stop_signal() && !reported_signal(report).is_some_and(|k| k.by_a_stop_signal())
}

/// `asan: heap-buffer-overflow`, and the like for the other sanitizers, when
/// the report holds a sanitizer's verdict.
pub fn sanitizer_kind(report: &str) -> Option<DeathKind> {
    let kind = |tool: &str, bug: &str| DeathKind::Sanitizer {
        tool: tool.into(),
        bug: bug.into(),
    };
    for (marker, name) in [
        ("ERROR: AddressSanitizer: ", "asan"),
        ("ERROR: LeakSanitizer: ", "lsan"),
        ("ERROR: MemorySanitizer: ", "msan"),
        ("WARNING: ThreadSanitizer: ", "tsan"),
    ] {
        if let Some(pos) = report.find(marker) {
            let rest = &report[pos + marker.len()..];
            let bug = rest.split_whitespace().next().unwrap_or("error");
            return Some(kind(name, bug));
        }
    }
    if report.contains("runtime error: ") && report.contains("UndefinedBehaviorSanitizer") {
        return Some(kind("ubsan", "undefined behavior"));
    }
    None
}

/// True when the report says the target overflowed its stack.
pub fn is_stack_overflow(report: &str) -> bool {
    report.contains("deadly signal") && report.contains("(stack overflow)")
}

/// A signal's name, without allocating (`None` for a signal without one
/// here): the crash handler uses it.
pub fn signal_str(sig: i32) -> Option<&'static str> {
    Some(match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        10 => "SIGUSR1",
        11 => "SIGSEGV",
        12 => "SIGUSR2",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        31 => "SIGSYS",
        _ => return None,
    })
}

/// A signal's name, for reports.
pub fn signal_name(sig: i32) -> String {
    match signal_str(sig) {
        Some(s) => s.into(),
        None => format!("signal {sig}"),
    }
}

/// The signal named in a fuzz-worker crash header, if the report has one:
/// a process killed later (its handler blocked) still died of this.
pub fn reported_signal(report: &str) -> Option<DeathKind> {
    let rest = &report[report.find("==fuzz-worker== deadly signal ")? + 30..];
    let name = rest.split_whitespace().next()?;
    let signal = (1..65).find(|&s| signal_str(s) == Some(name)).or_else(|| {
        name.strip_prefix("signal")
            .and_then(|n| n.trim().parse().ok())
    })?;
    Some(DeathKind::Signal {
        signal,
        panic: false,
    })
}

/// The kind of a process death, from its signal or exit code and what it
/// wrote: `asan: heap-buffer-overflow`, `stack overflow`, `SIGSEGV`,
/// `SIGABRT (Rust panic)`, `exit status 3`.
pub fn death_kind(signal: Option<i32>, exit_code: Option<i32>, report: &str) -> DeathKind {
    if let Some(kind) = sanitizer_kind(report) {
        return kind;
    }
    if is_stack_overflow(report) {
        return DeathKind::StackOverflow;
    }
    // Killed by the handler's alarm or by a watchdog after the crash
    // header was written: the crash is what the header says.
    if matches!(signal, Some(9) | Some(14)) {
        if let Some(kind) = reported_signal(report) {
            return kind;
        }
    }
    if report.contains(LOST_PIPES) {
        return DeathKind::LostPipes;
    }
    match (signal, exit_code) {
        (Some(signal), _) => DeathKind::Signal {
            signal,
            panic: report.contains("panicked at"),
        },
        (None, Some(status)) => DeathKind::Exit { status },
        (None, None) => DeathKind::Lost,
    }
}

/// The site of a typed target's failure (it returned failure rather than
/// dying): a caught Rust panic is told apart by where it panicked, a Go
/// fuzz test's failure by [`go_location`]; any other failure is one site,
/// since its message may quote the input.
pub fn failure_site(message: &str) -> String {
    if let Some(at) = panic_location(message) {
        return format!("panic at {at}");
    }
    match go_location(message) {
        Some(at) => format!("failure at {at}"),
        None => "failure".into(),
    }
}

/// Where a Go failure happened: for a panic (or a fatal error), the first
/// frame of the goroutine's stack outside Go's runtime, testing and
/// reflect, as `FILE:LINE`; for `t.Error` or `t.Fatal`, the `FILE:LINE`
/// testing put before the first message. None when `report` is not Go's.
pub fn go_location(report: &str) -> Option<String> {
    let lines: Vec<&str> = report.lines().map(str::trim).collect();
    if let Some(start) = lines
        .iter()
        .position(|l| l.starts_with("goroutine ") && l.ends_with("]:"))
    {
        let frames = lines[start + 1..].chunks_exact(2);
        for frame in frames {
            let (function, at) = (frame[0], frame[1]);
            let Some(at) = go_file_line(at.split(" +0x").next().unwrap_or(at)) else {
                break;
            };
            let name = function.rsplit_once('(').map_or(function, |(n, _)| n);
            if !is_go_machinery(name) {
                return Some(at.to_string());
            }
        }
    }
    lines.iter().find_map(|l| {
        let (at, _) = l.split_once(": ")?;
        go_file_line(at).map(str::to_string)
    })
}

/// `FILE.go:LINE`, as Go prints a source position, or None.
fn go_file_line(text: &str) -> Option<&str> {
    let (file, line) = text.rsplit_once(':')?;
    (file.ends_with(".go") && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
        .then_some(text)
}

/// Functions of the machinery around a Go failure: the runtime, testing
/// (which runs the fuzz function and recovers its panic) and reflect
/// (which calls it).
fn is_go_machinery(function: &str) -> bool {
    function == "panic"
        || [
            "runtime.",
            "runtime/debug.",
            "testing.",
            "reflect.",
            "internal/fuzz.",
        ]
        .iter()
        .any(|p| function.starts_with(p))
}

/// Where a Rust panic happened: the first `panicked at FILE:LINE:COL`
/// location outside the standard library (a panic escaping an
/// `extern "C"` function prints a second one, inside core).
pub fn panic_location(report: &str) -> Option<&str> {
    report.lines().find_map(|line| {
        let pos = line.find(" panicked at ")?;
        let rest = &line[pos + 13..];
        // Before Rust 1.73: `panicked at 'message', src/lib.rs:3:5`.
        let at = match rest.strip_prefix('\'') {
            Some(quoted) => quoted.rsplit_once("', ").map_or(rest, |(_, at)| at),
            None => rest,
        };
        let at = at.trim_end().trim_end_matches(':');
        (!at.is_empty() && !in_std(at)).then_some(at)
    })
}

/// A source location (or a frame's file) inside Rust's standard library.
fn in_std(location: &str) -> bool {
    location.contains("/rustc/")
        || ["library/core/", "library/std/", "library/alloc/"]
            .iter()
            .any(|p| location.starts_with(p) || location.contains(&format!("/{p}")))
}

/// True for a function of the machinery around a bug rather than of the
/// bug: Rust's standard library and panic runtime, sanitizer runtimes.
/// Crash sites pass over their frames (fuzz-worker's crash fingerprints
/// too, by this same rule).
pub fn is_runtime_function(name: &str) -> bool {
    let name = name
        .trim_start_matches('<')
        .trim_start_matches('_')
        .trim_start_matches('<');
    const PREFIXES: [&str; 14] = [
        "std::",
        "core::",
        "alloc::",
        "rust_begin_unwind",
        "rust_panic",
        "rust_start_panic",
        "rust_eh_personality",
        "panic_abort::",
        "panic_unwind::",
        "asan_",
        "sanitizer_",
        "interceptor_",
        "ubsan_",
        "lsan_",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p))
}

/// A frame of a report in the runtime (see [`is_runtime_function`]),
/// judged by its function's name (and file), when the report has them.
fn is_runtime_frame(line: &str) -> bool {
    let Some(name) = line
        .split(" in ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
    else {
        return false;
    };
    is_runtime_function(name) || in_std(line)
}

/// The marker of the line a worker's crash report gives its fingerprint
/// on (see fuzz-worker's `known_crashes.rs`).
pub const FINGERPRINT: &str = "==fuzz-worker== fingerprint: ";

/// The crash fingerprint a worker's report gives, if any.
pub fn fingerprint(report: &str) -> Option<u64> {
    let at = report.find(FINGERPRINT)? + FINGERPRINT.len();
    let hex: String = report[at..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    u64::from_str_radix(&hex, 16).ok()
}

/// The top `n` frames of a report that lie in `module` (a file name such as
/// `libparse.so`), as `module+0xOFFSET`, leaving out the frames of the
/// runtime around the bug (Rust's standard library, the panic machinery,
/// sanitizers), which a target built from Rust carries in its own module.
pub fn module_frames(report: &str, module: &str, n: usize) -> Vec<String> {
    let prefix = format!("{module}+0x");
    report
        .lines()
        .filter(|l| !is_runtime_frame(l))
        .filter_map(|l| {
            let open = l.rfind(" (")?;
            let inner = l[open + 2..].strip_suffix(')')?;
            // ASan prints the module's full path; fuzz-worker its name.
            let inner = inner.rsplit('/').next().unwrap_or(inner);
            inner.starts_with(&prefix).then(|| inner.to_string())
        })
        .take(n)
        .collect()
}

/// As [`module_frames`], each frame named by its function. Frames without
/// a name (a PLT stub the time limit caught the loop in) are passed over
/// when others have one; a report without names falls back to offsets.
pub fn module_functions(report: &str, module: &str, n: usize) -> Vec<String> {
    let prefix = format!("{module}+0x");
    let named: Vec<String> = report
        .lines()
        .filter(|l| !is_runtime_frame(l) && l.contains(&prefix))
        .filter_map(|l| {
            l.split(" in ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .filter(|name| *name != "??")
                .map(|name| format!("{module}:{name}"))
        })
        .take(n)
        .collect();
    if named.is_empty() {
        module_frames(report, module, n)
    } else {
        named
    }
}

/// The crash site of a death: its kind, and what names the bug: where a
/// Rust panic happened, else the top three frames inside `module`. A death
/// with no stack there (an exit, a signal from outside, a memory blow-up)
/// is its kind and status alone.
pub fn site(kind: impl fmt::Display, report: &str, module: &str) -> String {
    let kind = kind.to_string();
    // "out of memory (N MiB resident)": the figure differs from run to run.
    let kind = match kind.find(OOM) {
        Some(i) => &kind[..i + OOM.len()],
        None => &kind,
    };
    if let Some(at) = panic_location(report) {
        return format!("{kind} at {at}");
    }
    if let Some(at) = go_location(report) {
        return format!("{kind} at {at}");
    }
    // A hang is caught anywhere in its loop: its frames are named by their
    // functions (when the report has names), which do not move.
    let frames = if kind == "timeout" {
        module_functions(report, module, 3)
    } else {
        module_frames(report, module, 3)
    };
    if frames.is_empty() {
        return kind.to_string();
    }
    format!("{kind} at {}", frames.join(" "))
}

const OOM: &str = "out of memory";

/// The most of a target's output a report keeps: its first and last
/// halves, with the cut said between them.
pub const REPORT_MAX: usize = 64 << 10;

/// A report of `head`, then `cut` bytes left out, then `tail`.
pub fn cut_report(head: &[u8], cut: u64, tail: &[u8]) -> String {
    format!(
        "{}\n... [{cut} bytes of the target's output cut: a report keeps its first and last {} KiB] ...\n{}",
        String::from_utf8_lossy(head),
        REPORT_MAX / 2 / 1024,
        String::from_utf8_lossy(tail)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_worker_s_last_words_pass_over_fingerprints() {
        use super::last_said;
        let report = "fuzz-worker: lib.so: cannot load\n==fuzz-worker== fingerprint: 1f\n\n";
        assert_eq!(last_said(report), Some("lib.so: cannot load"));
        assert_eq!(last_said("  exit 7 \n"), Some("exit 7"));
        assert_eq!(last_said("==fuzz-worker== fingerprint: 2a\n"), None);
    }

    #[test]
    fn go_failure_sites() {
        use super::{failure_site, go_location};
        let fatal =
            "--- FAIL: FuzzParse (0.00s)\n    parse_test.go:9: found it: \"a: b.go:3\" 42\n";
        assert_eq!(failure_site(fatal), "failure at parse_test.go:9");
        let panic = "--- FAIL: FuzzX (0.00s)\n    testing.go:1356: panic: boom\n        goroutine 6 [running]:\n        \
            runtime/debug.Stack()\n        \t/usr/lib/go-1.19/src/runtime/debug/stack.go:24 +0xdb\n        \
            testing.tRunner.func1()\n        \t/usr/lib/go-1.19/src/testing/testing.go:1356 +0x1f2\n        \
            panic({0x7f3b59ef8d20, 0x7f3b59f298d8})\n        \t/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212\n        \
            example.com/parse_test.FuzzX.func1(0x0?, {0xc00001a090, 0x3, 0x7f3b59cb1d19?})\n        \
            \t/tmp/p/x_test.go:11 +0x351\n        reflect.Value.call({0x7f3b59efaa40?})\n";
        assert_eq!(failure_site(panic), "failure at /tmp/p/x_test.go:11");
        // A fatal error that ends the process: its goroutine's first frame.
        let fatal_error = "fatal error: concurrent map writes\n\ngoroutine 7 [running]:\n\
            runtime.throw({0x1, 0x2})\n\t/usr/lib/go-1.19/src/runtime/panic.go:1047 +0x5d\n\
            example.com/m.(*T).Put(...)\n\t/src/m/m.go:30\n";
        assert_eq!(go_location(fatal_error).as_deref(), Some("/src/m/m.go:30"));
        assert_eq!(go_location("the target returned 1"), None);
        assert_eq!(go_location("thread 'x' panicked at src/lib.rs:3:5:"), None);
    }

    use super::*;

    const REPORT: &str = "==fuzz-worker== deadly signal SIGSEGV at address 0x0\n    #0 0x7f1 in f parse.c:8 (libp.so+0x1300)\n    #1 0x7f2 in g parse.c:9 (libp.so+0x1400)\n    #2 0x7f3 in h (libc.so.6+0x10)\n";

    #[test]
    fn sites_ignore_addresses() {
        assert_eq!(
            site("SIGSEGV", REPORT, "libp.so"),
            "SIGSEGV at libp.so+0x1300 libp.so+0x1400"
        );
        assert_eq!(
            site("out of memory (2100 MiB resident)", REPORT, "libp.so"),
            site("out of memory (4000 MiB resident)", REPORT, "libp.so"),
        );
        assert_eq!(
            module_frames(REPORT, "libc.so.6", 3),
            vec!["libc.so.6+0x10"]
        );
    }

    #[test]
    fn kinds_and_failure_sites() {
        let text = |k: DeathKind| k.to_string();
        assert_eq!(text(death_kind(Some(11), None, REPORT)), "SIGSEGV");
        assert_eq!(
            text(death_kind(
                Some(6),
                None,
                "thread 'x' panicked at a.rs:1:2:"
            )),
            "SIGABRT (Rust panic)"
        );
        assert_eq!(death_kind(None, Some(3), ""), DeathKind::Exit { status: 3 });
        assert_eq!(text(death_kind(None, Some(3), "")), "exit status 3");
        assert_eq!(text(death_kind(Some(14), None, REPORT)), "SIGSEGV");
        assert_eq!(text(death_kind(Some(9), None, "")), "SIGKILL");
        assert_eq!(text(death_kind(Some(40), None, "")), "signal 40");
        assert_eq!(
            text(DeathKind::OutOfMemory { rss_mb: 2100 }),
            "out of memory (2100 MiB resident)"
        );
        assert_eq!(
            failure_site("boom\nthread '<unnamed>' (7) panicked at src/lib.rs:26:29:"),
            "panic at src/lib.rs:26:29"
        );
        assert_eq!(failure_site("bad input: 'x' (3 bytes)"), "failure");
    }

    #[test]
    fn rust_panics_are_keyed_by_where_they_happened_outside_std() {
        // A panic escaping an extern "C" function: its location, then a
        // second panic inside core.
        let report = "thread '<unnamed>' panicked at src/lib.rs:32:9:\nindex out of bounds\n\
            thread '<unnamed>' panicked at library/core/src/panicking.rs:225:5:\n\
            panic in a function that cannot unwind\n\
            ==fuzz-worker== deadly signal SIGABRT\n\
            #0 0x1 in std::sys::pal::unix::abort_internal /rustc/abc/library/std/src/sys/pal/unix/mod.rs:1 (librb.so+0x900)\n\
            #1 0x2 in core::panicking::panic_nounwind_fmt (librb.so+0xa00)\n\
            #2 0x3 in rb::parse src/lib.rs:32 (librb.so+0x100)\n";
        let kind = death_kind(Some(6), None, report);
        assert_eq!(
            site(&kind, report, "librb.so"),
            "SIGABRT (Rust panic) at src/lib.rs:32:9"
        );
        let other = report.replace("src/lib.rs:32:9", "src/lib.rs:31:5");
        assert_ne!(
            site(&kind, &other, "librb.so"),
            site(&kind, report, "librb.so")
        );
        assert_eq!(
            panic_location("thread 'main' panicked at 'boom', src/main.rs:4:5"),
            Some("src/main.rs:4:5"),
            "the form before Rust 1.73"
        );
        assert_eq!(
            panic_location("thread 'x' panicked at library/core/src/panicking.rs:1:1:"),
            None
        );
        // Frames of std in the target's own module are passed over.
        let no_panic = "==fuzz-worker== deadly signal SIGSEGV\n\
            #0 0x1 in core::ptr::write /rustc/abc/library/core/src/ptr/mod.rs:9 (librb.so+0x500)\n\
            #1 0x2 in rb::store src/lib.rs:10 (librb.so+0x120)\n";
        assert_eq!(
            site("SIGSEGV", no_panic, "librb.so"),
            "SIGSEGV at librb.so+0x120"
        );
    }

    #[test]
    fn a_hang_is_keyed_by_the_functions_it_was_in() {
        let at = |pc: &str| {
            format!(
                "==fuzz-worker== timeout: the input ran past the time limit; it was here:\n    \
                 #0 0x1 in spin misbehave.c:100 (libm.so+{pc})\n    #1 0x2 in FuzzHang misbehave.c:99 (libm.so+0x1400)\n"
            )
        };
        assert_eq!(
            site("timeout", &at("0x14b9"), "libm.so"),
            "timeout at libm.so:spin libm.so:FuzzHang"
        );
        assert_eq!(
            site("timeout", &at("0x14b9"), "libm.so"),
            site("timeout", &at("0x14c2"), "libm.so")
        );
        assert_eq!(site("timeout", "", "libm.so"), "timeout");
        let in_plt = at("0x14b9").replace("in spin", "in ??");
        assert_eq!(
            site("timeout", &in_plt, "libm.so"),
            "timeout at libm.so:FuzzHang"
        );
    }

    #[test]
    fn a_death_without_a_stack_is_its_kind_and_status() {
        assert_eq!(site("exit status 3", "", "libp.so"), "exit status 3");
        assert_eq!(site("exit status 0", "", "libp.so"), "exit status 0");
        assert_eq!(site("SIGKILL", "", "libp.so"), "SIGKILL");
        assert_eq!(
            site("out of memory (3000 MiB resident)", "", "libp.so"),
            "out of memory"
        );
        assert_ne!(site("exit status 3", "", "l"), site("timeout", "", "l"));
    }

    #[test]
    fn sanitizers() {
        let r = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6";
        assert_eq!(
            sanitizer_kind(r).unwrap().to_string(),
            "asan: heap-buffer-overflow"
        );
        assert_eq!(sanitizer_kind(REPORT), None);
        assert!(is_stack_overflow(
            "==fuzz-worker== deadly signal SIGSEGV (stack overflow) at"
        ));
    }
}
