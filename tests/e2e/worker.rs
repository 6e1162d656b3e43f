//! fuzz-worker: `list`, `run` and `bench` against the example libraries
//! (examples/build.sh, built once per test run), libraries the tests build
//! with gcc, and files that are not target libraries at all.
//!
//! Tests whose comment says "once a bug" check a fault that was found and
//! fixed (their failure messages say `BUG`: what has come back if they
//! fail); `EXAMPLES BUG` marks a fault in examples/, not in the worker.

use crate::common::*;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const TOOL: &str = "fuzz-worker";

/// One input's report from `fuzz-worker run`: the outcome after
/// `INPUT: `, and the indented lines below it, de-indented.
#[derive(Debug)]
struct Reported {
    outcome: String,
    report: String,
}

impl Reported {
    /// The outcome line and its report, for matching anywhere in both.
    fn all(&self) -> String {
        format!("{}\n{}", self.outcome, self.report)
    }
}

/// Splits `run`'s stdout into one `Reported` per input, asserting that there
/// is exactly one result line per input, in order, each starting with that
/// input's name, and that every other line is indented: whatever the target
/// printed never shows up as a result line of its own.
#[track_caller]
fn reported(r: &Run, inputs: &[&str]) -> Vec<Reported> {
    let out = r.out();
    let mut got: Vec<Reported> = Vec::new();
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("    ") {
            let last = got
                .last_mut()
                .unwrap_or_else(|| panic!("indented line before any result:\n{out}"));
            last.report.push_str(rest);
            last.report.push('\n');
            continue;
        }
        let i = got.len();
        assert!(
            i < inputs.len(),
            "more result lines than the {} inputs (target output leaked?):\n{out}",
            inputs.len()
        );
        let prefix = format!("{}: ", inputs[i]);
        let outcome = line.strip_prefix(&prefix).unwrap_or_else(|| {
            panic!("result line {i} should start with {prefix:?}: {line:?}\nwhole output:\n{out}")
        });
        got.push(Reported {
            outcome: outcome.to_string(),
            report: String::new(),
        });
    }
    assert_eq!(
        got.len(),
        inputs.len(),
        "want one result line per input:\n{out}\nstderr:\n{}",
        r.stderr
    );
    got
}

fn worker(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, TOOL, args)
}

/// Writes a raw input file into `dir`; returns its name (tests run in `dir`).
fn raw<'a>(dir: &Path, name: &'a str, bytes: &[u8]) -> &'a str {
    std::fs::write(dir.join(name), bytes).unwrap();
    name
}

/// Writes a v1 input file of the given Go literals into `dir`.
fn v1<'a>(dir: &Path, name: &'a str, values: &[&str]) -> &'a str {
    let mut body = String::from("go test fuzz v1\n");
    for v in values {
        body.push_str(v);
        body.push('\n');
    }
    std::fs::write(dir.join(name), body).unwrap();
    name
}

/// `run LIB [-target T] ARGS... INPUTS...` in `dir`, with the inputs' report.
#[track_caller]
fn run_inputs(
    dir: &Path,
    lib: &str,
    target: Option<&str>,
    flags: &[&str],
    inputs: &[&str],
    code: i32,
) -> Vec<Reported> {
    let mut args = vec!["run", lib];
    if let Some(t) = target {
        args.extend(["-target", t]);
    }
    args.extend(flags);
    args.extend(inputs);
    let r = worker(dir, &args).expect(code);
    reported(&r, inputs)
}

#[track_caller]
fn assert_ok(rep: &Reported, what: &str) {
    assert_eq!(rep.outcome, "ok", "{what}: want ok, got\n{}", rep.all());
}

/// Asserts that `text` contains `needle`, showing `text` when it does not.
#[track_caller]
fn has(text: &str, needle: &str) {
    assert!(text.contains(needle), "want {needle:?} in:\n{text}");
}

// ------------------------------------------------------------ planted bugs

#[test]
fn rust_typed_planted_bugs_fail_with_their_message() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("librust_typed.so");
    let record = known_input("rust_typed.FuzzRecord");
    let deep = v1(d, "deep", &["string(\"ab\")", "int64(4)", "[]byte(\"?\")"]);
    let zero = v1(d, "zero", &["string(\"\")", "int64(0)", "[]byte(\"!\")"]);
    let rep = run_inputs(d, &lib, Some("FuzzRecord"), &[], &[deep, &record, zero], 1);
    assert_ok(&rep[0], "FuzzRecord(\"ab\", 4, \"?\")");
    assert!(rep[1].outcome.starts_with("failed:"), "{}", rep[1].all());
    has(
        &rep[1].all(),
        "record \"ab\" with count 3 has a bang payload (1 bytes)",
    );
    assert_ok(&rep[2], "FuzzRecord(\"\", 0, \"!\")");

    let flags = known_input("rust_typed.FuzzFlags");
    let lax = v1(d, "lax", &["byte('\\a')", "bool(false)", "string(\"z\")"]);
    let rep = run_inputs(d, &lib, Some("FuzzFlags"), &[], &[lax, &flags], 1);
    assert_ok(&rep[0], "FuzzFlags(7, false, \"z\")");
    assert_eq!(
        rep[1].outcome,
        "failed: level 7 rejects strict word \"z\"",
        "{}",
        rep[1].all()
    );

    // The fixed build: the same inputs pass.
    let fixed = example_lib("librust_typed_fixed.so");
    for (target, input) in [("FuzzRecord", &record), ("FuzzFlags", &flags)] {
        let rep = run_inputs(d, &fixed, Some(target), &[], &[input], 0);
        assert_ok(&rep[0], target);
    }
}

/// Once a bug, fixed: Rust 1.95's panic hook starts its message with an empty line, and
/// `run` prints the first line of the failure as its message, so a panicking
/// typed target is reported as a bare `failed: ` with the panic only in the
/// indented report. The result line must carry a message.
#[test]
fn panic_in_typed_target_has_a_message_on_its_result_line() {
    let dir = tempdir();
    let lib = example_lib("librust_typed.so");
    let record = known_input("rust_typed.FuzzRecord");
    let rep = run_inputs(dir.path(), &lib, Some("FuzzRecord"), &[], &[&record], 1);
    let message = rep[0]
        .outcome
        .strip_prefix("failed:")
        .unwrap_or_else(|| panic!("want failed, got\n{}", rep[0].all()));
    assert!(
        !message.trim().is_empty(),
        "BUG: the failure has an empty message on its result line:\n{}",
        rep[0].all()
    );
}

#[test]
fn rust_libfuzzer_panic_is_a_sigabrt_crash() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("librust_bytes.so");
    let known = known_input("rust_bytes");
    let v1_rec = raw(d, "v1rec", b"FUZ1abc");
    let v2_rec = raw(d, "v2rec", b"FUZ2\x01x");
    let rep = run_inputs(d, &lib, None, &["-raw"], &[v1_rec, &known, v2_rec], 1);
    assert_ok(&rep[0], "FUZ1abc");
    assert_eq!(
        rep[1].outcome,
        "crashed: SIGABRT (Rust panic)",
        "{}",
        rep[1].all()
    );
    has(
        &rep[1].report,
        "range end index 14 out of range for slice of length 5",
    );
    assert_ok(&rep[2], "FUZ2\\x01x (after a crash)");

    let fixed = example_lib("librust_bytes_fixed.so");
    let rep = run_inputs(d, &fixed, None, &["-raw"], &[v1_rec, &known], 0);
    assert_ok(&rep[1], "the known input on the fixed build");
}

#[test]
fn c_parse_segfaults_on_gcc_clang_and_fuzzer_no_link_builds() {
    let dir = tempdir();
    let d = dir.path();
    let known = known_input("c_parse");
    let magic = raw(d, "magic", b"TLV");
    let keyed = raw(d, "keyed", b"TLVK\x01aV\x01b");
    for build in ["gcc", "clang", "fnl"] {
        let lib = example_lib(&format!("libc_parse_{build}.so"));
        let rep = run_inputs(d, &lib, None, &["-raw"], &[magic, &known, keyed], 1);
        assert_ok(&rep[0], build);
        assert_eq!(
            rep[1].outcome,
            "crashed: SIGSEGV",
            "{build}: {}",
            rep[1].all()
        );
        has(&rep[1].report, "parse.c");
        assert_ok(&rep[2], build);

        let fixed = example_lib(&format!("libc_parse_{build}_fixed.so"));
        let rep = run_inputs(d, &fixed, None, &["-raw"], &[magic, &known, keyed], 0);
        assert_ok(&rep[1], &format!("{build} fixed"));
    }
}

#[test]
fn c_asan_heap_overflow_is_a_sanitizer_crash() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_asan.so");
    let other = raw(d, "other", b"HBx");
    // The overflow needs a non-empty copy: see
    // c_asan_known_input_overflows for the known input itself.
    let overflow = raw(d, "overflow", b"HBOabc");
    let rep = run_inputs(d, &lib, None, &["-raw"], &[other, overflow, other], 1);
    assert_ok(&rep[0], "HBx");
    assert_eq!(
        rep[1].outcome,
        "crashed: asan: heap-buffer-overflow",
        "{}",
        rep[1].all()
    );
    has(
        &rep[1].report,
        "SUMMARY: AddressSanitizer: heap-buffer-overflow",
    );
    has(&rep[1].report, "asan.c");
    assert_ok(&rep[2], "HBx after the crash");

    let fixed = example_lib("libc_asan_fixed.so");
    let known = known_input("c_asan");
    let rep = run_inputs(d, &fixed, None, &["-raw"], &[overflow, &known], 0);
    assert_ok(&rep[0], "HBOabc on the fixed build");
    assert_ok(&rep[1], "HBO on the fixed build");
}

/// Once a bug, fixed: `run` keeps only the last 60 lines of a report, so an ASan report
/// loses its head: the `ERROR: AddressSanitizer:` line, `WRITE of size 1`
/// and the faulting frames. ARCHITECTURE.md: a sanitizer report is "shown in
/// full".
#[test]
fn asan_report_is_shown_in_full() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_asan.so");
    let overflow = raw(d, "overflow", b"HBOabc");
    let rep = run_inputs(d, &lib, None, &["-raw"], &[overflow], 1);
    let report = &rep[0].report;
    for needle in [
        "ERROR: AddressSanitizer: heap-buffer-overflow",
        "WRITE of size 1",
        "SUMMARY: AddressSanitizer: heap-buffer-overflow",
    ] {
        assert!(
            report.contains(needle),
            "BUG: the ASan report lacks {needle:?}:\n{report}"
        );
    }
}

/// Once a bug of examples/, fixed: `known-inputs/c_asan` is `HBO`, which makes `malloc(0)`
/// and writes its byte 0, but ASan's malloc(0) hands out one usable byte,
/// so nothing is reported. The known input must trigger the planted bug.
#[test]
fn c_asan_known_input_overflows() {
    let dir = tempdir();
    let lib = example_lib("libc_asan.so");
    let known = known_input("c_asan");
    let r = worker(dir.path(), &["run", &lib, "-raw", &known]);
    let rep = reported(&r, &[&known]);
    assert_eq!(
        rep[0].outcome,
        "crashed: asan: heap-buffer-overflow",
        "EXAMPLES BUG: examples/known-inputs/c_asan does not trigger the overflow:\n{}",
        rep[0].all()
    );
    assert_eq!(r.code, 1);
}

#[test]
fn cmp_examples_known_inputs_crash_and_fail() {
    let dir = tempdir();
    let d = dir.path();
    let known = known_input("cmp_c");
    let near = raw(d, "near", b"MAGIC_1235");
    for lib in ["libcmp_c", "libcmp_c_clang"] {
        let rep = run_inputs(
            d,
            &example_lib(&format!("{lib}.so")),
            None,
            &["-raw"],
            &[near, &known, near],
            1,
        );
        assert_ok(&rep[0], lib);
        assert_eq!(
            rep[1].outcome,
            "crashed: SIGABRT",
            "{lib}: {}",
            rep[1].all()
        );
        has(&rep[1].report, "cmp.c");
        assert_ok(&rep[2], lib);
        let fixed = example_lib(&format!("{lib}_fixed.so"));
        let rep = run_inputs(d, &fixed, None, &["-raw"], &[&known], 0);
        assert_ok(&rep[0], &format!("{lib}_fixed"));
    }

    // The number read from text: one more digit, or one off, passes.
    let known = known_input("cmp_number");
    let off = raw(d, "off", b"4096000000018");
    let longer = raw(d, "longer", b"40960000000170");
    let lib = example_lib("libcmp_number.so");
    let rep = run_inputs(d, &lib, None, &["-raw"], &[off, &known, longer], 1);
    assert_ok(&rep[0], "cmp_number(4096000000018)");
    assert_eq!(rep[1].outcome, "crashed: SIGABRT", "{}", rep[1].all());
    has(&rep[1].report, "number.c");
    assert_ok(&rep[2], "cmp_number(40960000000170)");
    let fixed = example_lib("libcmp_number_fixed.so");
    let rep = run_inputs(d, &fixed, None, &["-raw"], &[&known], 0);
    assert_ok(&rep[0], "cmp_number on the fixed build");

    let magic = known_input("rust_cmp.FuzzMagic");
    let near = v1(d, "near.v1", &["[]byte(\"MAGIC_1235\")"]);
    let lib = example_lib("librust_cmp.so");
    let rep = run_inputs(d, &lib, Some("FuzzMagic"), &[], &[near, &magic], 1);
    assert_ok(&rep[0], "FuzzMagic(MAGIC_1235)");
    assert!(rep[1].outcome.starts_with("failed:"), "{}", rep[1].all());
    has(&rep[1].all(), "magic payload reached");
    let fixed = example_lib("librust_cmp_fixed.so");
    let rep = run_inputs(d, &fixed, Some("FuzzMagic"), &[], &[&magic], 0);
    assert_ok(&rep[0], "FuzzMagic on the fixed build");

    let params = known_input("rust_cmp.FuzzParams");
    let full = v1(d, "full.v1", &["[]byte(\"a=1;session-token=x\")"]);
    let rep = run_inputs(d, &lib, Some("FuzzParams"), &[], &[full, &params], 1);
    assert_ok(&rep[0], "FuzzParams(a=1;session-token=x)");
    assert!(rep[1].outcome.starts_with("failed:"), "{}", rep[1].all());
    has(&rep[1].all(), "empty session token");
    let rep = run_inputs(d, &fixed, Some("FuzzParams"), &[], &[&params], 0);
    assert_ok(&rep[0], "FuzzParams on the fixed build");
}

// ------------------------------------------------------------- misbehave

#[test]
fn misbehave_failures_rejections_and_typed_arguments() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    let fine = v1(d, "fine", &["[]byte(\"y\")"]);

    let fail = known_input("misbehave.FuzzFail");
    let long = v1(d, "long", &["[]byte(\"xyz\")"]);
    let rep = run_inputs(d, &lib, Some("FuzzFail"), &[], &[fine, &fail, long], 1);
    assert_ok(&rep[0], "FuzzFail(y)");
    assert_eq!(
        rep[1].outcome,
        "failed: bad input: starts with 'x' (1 bytes)",
        "{}",
        rep[1].all()
    );
    assert_eq!(
        rep[2].outcome,
        "failed: bad input: starts with 'x' (3 bytes)"
    );

    // A rejection is not a finding: exit 0.
    let reject = known_input("misbehave.FuzzReject");
    let rep = run_inputs(d, &lib, Some("FuzzReject"), &[], &[&reject, fine], 0);
    assert_eq!(rep[0].outcome, "rejected", "{}", rep[0].all());
    assert_ok(&rep[1], "FuzzReject(y)");

    let typed = known_input("misbehave.FuzzTyped");
    let off = v1(d, "off", &["string(\"boom\")", "int64(41)", "bool(true)"]);
    let unflagged = v1(
        d,
        "unflagged",
        &["string(\"boom\")", "int64(42)", "bool(false)"],
    );
    let rep = run_inputs(
        d,
        &lib,
        Some("FuzzTyped"),
        &[],
        &[off, &typed, unflagged],
        1,
    );
    assert_ok(&rep[0], "FuzzTyped(boom, 41, true)");
    assert_eq!(
        rep[1].outcome,
        "failed: FuzzTyped: boom with 42 (flag=true)"
    );
    assert_eq!(
        rep[2].outcome,
        "failed: FuzzTyped: boom with 42 (flag=false)"
    );
}

#[test]
fn misbehave_deaths_are_reported_and_the_rest_still_run() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    let fine = v1(d, "fine", &["[]byte(\"y\")"]);

    let exit = known_input("misbehave.FuzzExit");
    let rep = run_inputs(d, &lib, Some("FuzzExit"), &[], &[fine, &exit, fine], 1);
    assert_ok(&rep[0], "FuzzExit(y)");
    assert_eq!(
        rep[1].outcome,
        "exited with status 3 (the target called exit)",
        "{}",
        rep[1].all()
    );
    assert_ok(&rep[2], "FuzzExit(y) after the exit");

    let deep = known_input("misbehave.FuzzStackOverflow");
    let rep = run_inputs(
        d,
        &lib,
        Some("FuzzStackOverflow"),
        &[],
        &[fine, &deep, fine],
        1,
    );
    assert_eq!(rep[1].outcome, "stack overflow", "{}", rep[1].all());
    has(&rep[1].report, "misbehave.c");
    assert_ok(&rep[2], "FuzzStackOverflow(y) after the overflow");

    let abort = known_input("misbehave.FuzzAbort");
    let rep = run_inputs(d, &lib, Some("FuzzAbort"), &[], &[&abort, fine], 1);
    assert_eq!(rep[0].outcome, "crashed: SIGABRT", "{}", rep[0].all());
    has(&rep[0].report, "misbehave.c");
    assert_ok(&rep[1], "FuzzAbort(y) after the abort");

    // Crashes in the middle of a list, twice: every later input still runs.
    let segv = known_input("misbehave.FuzzSegv");
    let other = v1(d, "other", &["[]byte(\"z\")"]);
    let inputs = [fine, &segv, other, &segv, fine];
    let rep = run_inputs(d, &lib, Some("FuzzSegv"), &[], &inputs, 1);
    for i in [0, 2, 4] {
        assert_ok(&rep[i], &format!("input {i} of FuzzSegv"));
    }
    for i in [1, 3] {
        assert_eq!(rep[i].outcome, "crashed: SIGSEGV", "{}", rep[i].all());
        has(&rep[i].report, "misbehave.c");
    }
}

#[test]
fn hang_is_cut_at_the_timeout() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    // The warm-up pays for lazy initialisation: every input, the first
    // one included, gets -timeout.
    let fine = v1(d, "fine", &["[]byte(\"y\")"]);
    let hang = known_input("misbehave.FuzzHang");
    let start = Instant::now();
    let rep = run_inputs(
        d,
        &lib,
        Some("FuzzHang"),
        &["-timeout", "1s"],
        &[fine, &hang, fine],
        1,
    );
    let took = start.elapsed();
    assert_ok(&rep[0], "FuzzHang(y)");
    assert!(
        rep[1].outcome.starts_with("timed out after 1s (it ran 1."),
        "{}",
        rep[1].all()
    );
    // Where it was when the limit struck: the hang's site.
    assert!(rep[1].report.contains("in FuzzHang"), "{}", rep[1].all());
    assert_ok(&rep[2], "FuzzHang(y) after the hang");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(3),
        "a 1s timeout took {took:?}"
    );
}

#[test]
fn memory_blowup_is_cut_at_the_rss_limit() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    let fine = v1(d, "fine", &["[]byte(\"y\")"]);
    let oom = known_input("misbehave.FuzzOOM");
    let start = Instant::now();
    let rep = run_inputs(
        d,
        &lib,
        Some("FuzzOOM"),
        &["-rss_limit_mb", "300"],
        &[fine, &oom, fine],
        1,
    );
    assert_ok(&rep[0], "FuzzOOM(y)");
    let mib: u64 = rep[1]
        .outcome
        .strip_prefix("out of memory (")
        .and_then(|r| r.strip_suffix(" MiB resident)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("want out of memory (N MiB resident), got\n{}", rep[1].all()));
    assert!(
        mib > 300 && mib < 2048,
        "{mib} MiB resident at a 300 MiB limit"
    );
    assert_ok(&rep[2], "FuzzOOM(y) after the blow-up");
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(20),
        "cutting the OOM took {took:?}"
    );
}

// ------------------------------------------------------ the target's output

const NOISY: &str = r#"
#include <stdio.h>
#include <stdlib.h>

/* A typed target ([]byte) that prints lines looking like results. */
int FuzzNoisy(const unsigned char *args, unsigned long len) {
    printf("fake-input: ok\n");
    fflush(stdout);
    if (len >= 5 && args[4] == 'f') {
        fprintf(stderr, "noisy failure\n");
        return 1;
    }
    fprintf(stderr, "fake-input: crashed: SIGSEGV\n");
    if (len >= 5 && args[4] == 'c')
        abort();
    return 0;
}
"#;

#[test]
fn target_output_never_becomes_a_result_line() {
    let dir = tempdir();
    let d = dir.path();
    let lib = gcc_so(d, "libnoisy.so", NOISY);
    let a = raw(d, "a", b"a");
    let c = raw(d, "c", b"c");
    let f = raw(d, "f", b"f");
    // `reported` checks that every unindented line is an input's result.
    let rep = run_inputs(d, &lib, None, &["-raw"], &[a, c, a, f, a], 1);
    assert_ok(&rep[0], "a");
    assert!(rep[1].outcome == "crashed: SIGABRT", "{}", rep[1].all());
    assert_ok(&rep[2], "a after a crash");
    assert!(rep[3].outcome.starts_with("failed: "), "{}", rep[3].all());
    has(&rep[3].all(), "noisy failure");
    assert_ok(&rep[4], "a after a failure");

    // The same through the example targets' stderr.
    let lib = example_lib("libmisbehave.so");
    let fail = known_input("misbehave.FuzzFail");
    let rep = run_inputs(d, &lib, Some("FuzzFail"), &[], &[&fail, &fail], 1);
    assert!(rep
        .iter()
        .all(|r| r.outcome.starts_with("failed: bad input")));
}

/// Once a bug, fixed: the child's stdout and stderr go to one capture file, so what a
/// typed target prints on stdout becomes (the first line of) its failure
/// message. ARCHITECTURE.md: "the failure's message is what the target wrote to
/// stderr in that call".
#[test]
fn failure_message_is_what_the_target_wrote_to_stderr() {
    let dir = tempdir();
    let d = dir.path();
    let lib = gcc_so(d, "libnoisy.so", NOISY);
    let f = raw(d, "f", b"f");
    let rep = run_inputs(d, &lib, None, &["-raw"], &[f], 1);
    assert_eq!(
        rep[0].outcome,
        "failed: noisy failure",
        "BUG: stdout became part of the failure message:\n{}",
        rep[0].all()
    );
    assert!(!rep[0].all().contains("fake-input: ok"), "{}", rep[0].all());
}

#[test]
fn input_from_stdin() {
    let dir = tempdir();
    let lib = example_lib("libc_parse_gcc.so");
    let r = run_with_stdin(dir.path(), TOOL, &["run", &lib, "-raw", "-"], b"TLVV\x00").expect(1);
    let rep = reported(&r, &["<stdin>"]);
    assert_eq!(rep[0].outcome, "crashed: SIGSEGV", "{}", rep[0].all());
}

// --------------------------------------------------------------- coverage

/// `run -coverage` on each input: (features, fingerprint) per input.
#[track_caller]
fn coverage(
    dir: &Path,
    lib: &str,
    target: Option<&str>,
    flags: &[&str],
    inputs: &[&str],
) -> Vec<(usize, String)> {
    let mut all = vec!["-coverage"];
    all.extend(flags);
    let rep = run_inputs(dir, lib, target, &all, inputs, 0);
    rep.iter()
        .map(|r| {
            let (_, cov) = r
                .outcome
                .split_once(" (coverage: ")
                .unwrap_or_else(|| panic!("no coverage in {:?}", r.outcome));
            let (n, fp) = cov
                .strip_suffix(')')
                .and_then(|c| c.split_once(" features, fingerprint "))
                .unwrap_or_else(|| panic!("bad coverage in {:?}", r.outcome));
            assert!(
                fp.len() == 16 && fp.chars().all(|c| c.is_ascii_hexdigit()),
                "{fp}"
            );
            (n.parse().unwrap(), fp.to_string())
        })
        .collect()
}

#[test]
fn coverage_tells_paths_apart_on_clang_rustc_and_gcc_builds() {
    let dir = tempdir();
    let d = dir.path();
    // c/parse.c: no magic / magic only / a K and a V record. The first
    // input of a process initialises the handler table (its own branch),
    // so a warm-up input comes first.
    let warm = raw(d, "warm", b"TLV");
    let magic = raw(d, "magic", b"TLV");
    let junk = raw(d, "junk", b"XYZ");
    let records = raw(d, "records", b"TLVK\x01aV\x01b");
    for build in ["gcc", "clang", "fnl"] {
        let lib = example_lib(&format!("libc_parse_{build}.so"));
        let cov = coverage(
            d,
            &lib,
            None,
            &["-raw"],
            &[warm, magic, junk, records, magic],
        );
        assert_eq!(cov[1], cov[4], "{build}: the same input twice: {cov:?}");
        assert_ne!(cov[1].1, cov[2].1, "{build}: TLV vs XYZ: {cov:?}");
        assert_ne!(cov[1].1, cov[3].1, "{build}: TLV vs records: {cov:?}");
        assert!(cov[3].0 > cov[1].0, "{build}: records reach more: {cov:?}");
        assert!(cov[1].0 > cov[2].0, "{build}: magic reaches more: {cov:?}");
    }

    // rustc: FuzzRecord's nested checks, and the libFuzzer entry's parser.
    let lib = example_lib("librust_typed.so");
    let zero = v1(d, "zero", &["string(\"\")", "int64(0)", "[]byte(\"\")"]);
    let deep = v1(d, "deep", &["string(\"ab\")", "int64(4)", "[]byte(\"\")"]);
    let cov = coverage(d, &lib, Some("FuzzRecord"), &[], &[zero, deep, zero, deep]);
    assert_eq!(cov[0], cov[2], "the same input twice: {cov:?}");
    assert_eq!(cov[1], cov[3], "the same input twice: {cov:?}");
    assert_ne!(cov[0].1, cov[1].1, "different depths: {cov:?}");
    let lib = example_lib("librust_bytes.so");
    let v1_rec = raw(d, "v1rec", b"FUZ1");
    let other = raw(d, "other", b"ABCD");
    let cov = coverage(d, &lib, None, &["-raw"], &[v1_rec, other, v1_rec]);
    assert_eq!(cov[0], cov[2], "the same input twice: {cov:?}");
    assert_ne!(cov[0].1, cov[1].1, "FUZ1 vs ABCD: {cov:?}");

    // gcc trace-pc, typed C: FuzzOk branches on the first byte's low bit.
    let lib = example_lib("libmisbehave.so");
    let odd = v1(d, "odd", &["[]byte(\"a\")"]);
    let even = v1(d, "even", &["[]byte(\"b\")"]);
    let cov = coverage(d, &lib, Some("FuzzOk"), &[], &[odd, even, odd, even]);
    assert_eq!(cov[0], cov[2], "the same input twice: {cov:?}");
    assert_eq!(cov[1], cov[3], "the same input twice: {cov:?}");
    assert_ne!(cov[0].1, cov[1].1, "odd vs even: {cov:?}");
}

// ------------------------------------------------------------------- list

fn list(dir: &Path, lib: &str) -> Vec<String> {
    let r = worker(dir, &["list", lib]).expect(0);
    let mut lines: Vec<String> = r.out().lines().map(str::to_string).collect();
    lines.sort();
    lines
}

fn list_json(dir: &Path, lib: &str) -> Vec<serde_json::Value> {
    let r = worker(dir, &["list", "-json", lib]).expect(0);
    let mut v: Vec<serde_json::Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    v.sort_by_key(|o| o["name"].as_str().unwrap_or_default().to_string());
    v
}

#[test]
fn list_typed_rust_library() {
    let dir = tempdir();
    let lib = example_lib("librust_typed.so");
    let all_types = "int8, int16, rune, int64, int, byte, uint16, uint32, uint64, uint, \
                     float32, float64, rune, bool, string, []byte";
    assert_eq!(
        list(dir.path(), &lib),
        [
            format!("FuzzAllTypes\t{all_types}"),
            "FuzzFlags\tbyte, bool, string".to_string(),
            "FuzzRecord\tstring, int64, []byte".to_string(),
        ]
    );
    let json = list_json(dir.path(), &lib);
    assert_eq!(json.len(), 3);
    assert_eq!(
        json[2],
        serde_json::json!({
            "name": "FuzzRecord",
            "kind": "typed",
            "symbol": "FuzzRecord",
            "args": ["string", "int64", "[]byte"],
            "trace_cmp": true,
            "coverage": true,
        })
    );
    assert_eq!(
        json[1]["args"],
        serde_json::json!(["byte", "bool", "string"])
    );
    let args: Vec<&str> = json[0]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(args.join(", "), all_types);
}

#[test]
fn list_libfuzzer_library_is_named_after_its_file() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_gcc.so");
    assert_eq!(list(d, &lib), ["c_parse_gcc\t[]byte"]);
    let json = list_json(d, &lib);
    assert_eq!(
        json,
        [serde_json::json!({
            "name": "c_parse_gcc",
            "kind": "libfuzzer",
            "symbol": "LLVMFuzzerTestOneInput",
            "args": ["[]byte"],
            "trace_cmp": true,
            "coverage": true,
        })]
    );
    // ARCHITECTURE.md: without a leading `lib`, without `.so` and what follows.
    for name in ["libpng_read.so.1", "png_read.so"] {
        std::fs::copy(&lib, d.join(name)).unwrap();
        assert_eq!(list(d, name), ["png_read\t[]byte"], "{name}");
    }
    // An ASan build (the worker re-executes itself with the runtime).
    assert_eq!(list(d, &example_lib("libc_asan.so")), ["c_asan\t[]byte"]);
}

#[test]
fn list_misbehave() {
    let dir = tempdir();
    let lib = example_lib("libmisbehave.so");
    let mut want: Vec<String> = [
        "FuzzAbort",
        "FuzzDrift",
        "FuzzExit",
        "FuzzFail",
        "FuzzHang",
        "FuzzOOM",
        "FuzzOk",
        "FuzzReject",
        "FuzzSegv",
        "FuzzSlowFail",
        "FuzzStackOverflow",
        "FuzzTwoBugs",
    ]
    .iter()
    .map(|t| format!("{t}\t[]byte"))
    .collect();
    want.push("FuzzTyped\tstring, int64, bool".to_string());
    want.sort();
    assert_eq!(list(dir.path(), &lib), want);
    for o in list_json(dir.path(), &lib) {
        assert_eq!(o["kind"], "typed", "{o}");
        assert_eq!(o["symbol"], o["name"], "{o}");
    }
}

// ------------------------------------------------------------------ misuse

/// Asserts exit 2, nothing on stdout, and one line on stderr,
/// `fuzz-worker: …`, containing every needle.
#[track_caller]
fn misuse(dir: &Path, args: &[&str], needles: &[&str]) {
    let r = worker(dir, args).expect(2);
    assert!(r.stdout.is_empty(), "{args:?}: stdout:\n{}", r.out());
    r.one_line_error(TOOL, needles[0]);
    for n in &needles[1..] {
        assert!(
            r.stderr.to_lowercase().contains(&n.to_lowercase()),
            "{args:?}: the error should mention {n:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_library_that_is_not_a_target_is_one_line_exit_2() {
    let dir = tempdir();
    let d = dir.path();
    gcc_so(d, "libfoo.so", "int foo(void) { return 1; }\n");
    gcc_so(
        d,
        "libundef.so",
        "int missing_function_xyz(int);\n\
         int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) {\n\
             return missing_function_xyz((int)n);\n\
         }\n",
    );
    std::fs::write(d.join("text.so"), "not a library\n").unwrap();
    // A real shared object whose ELF header says AArch64 (e_machine = 183).
    let mut elf = std::fs::read(example_lib("libc_parse_gcc.so")).unwrap();
    elf[18..20].copy_from_slice(&183u16.to_le_bytes());
    std::fs::write(d.join("arm64.so"), elf).unwrap();
    std::fs::create_dir(d.join("dir.so")).unwrap();
    let input = raw(d, "input", b"x");

    let cases: [(&str, &[&str]); 6] = [
        ("libfoo.so", &["no fuzz targets"]),
        ("text.so", &["not an ELF"]),
        ("arm64.so", &["aarch64"]),
        ("missing.so", &["no such file"]),
        ("dir.so", &["directory"]),
        ("libundef.so", &["missing_function_xyz", "undefined symbol"]),
    ];
    for (lib, reason) in cases {
        let mut needles = vec![lib];
        needles.extend(reason);
        misuse(d, &["list", lib], &needles);
        misuse(d, &["run", lib, "-raw", input], &needles);
        misuse(d, &["bench", lib], &needles);
    }
}

#[test]
fn bad_targets_and_inputs_are_one_line_exit_2() {
    let dir = tempdir();
    let d = dir.path();
    let misbehave = example_lib("libmisbehave.so");
    let typed = example_lib("librust_typed.so");
    let fine = v1(d, "fine", &["[]byte(\"y\")"]);
    misuse(
        d,
        &["run", &misbehave, "-target", "FuzzNope", fine],
        &["FuzzNope"],
    );
    misuse(
        d,
        &["bench", &misbehave, "-target", "FuzzNope"],
        &["FuzzNope"],
    );
    misuse(d, &["run", &misbehave, fine], &["-target", "FuzzOk"]);

    // Every input is checked before any runs: a good input first prints
    // nothing either.
    let record = v1(d, "record", &["string(\"\")", "int64(0)", "[]byte(\"\")"]);
    let malformed = v1(
        d,
        "malformed",
        &["string(\"ab\")", "int64(3", "[]byte(\"!\")"],
    );
    misuse(
        d,
        &["run", &typed, "-target", "FuzzRecord", record, malformed],
        &["malformed:3"],
    );
    let wrong = v1(d, "wrong", &["string(\"ab\")", "int32(3)", "[]byte(\"!\")"]);
    misuse(
        d,
        &["run", &typed, "-target", "FuzzRecord", record, wrong],
        &["wrong", "int64"],
    );
    misuse(
        d,
        &["run", &typed, "-target", "FuzzRecord", fine],
        &["fine"],
    );
    misuse(
        d,
        &["run", &typed, "-target", "FuzzRecord", "-raw", fine],
        &["-raw", "FuzzRecord"],
    );
    misuse(
        d,
        &["run", &misbehave, "-target", "FuzzOk", fine, "absent"],
        &["absent"],
    );
}

// ---------------------------------------------------------------- exports

/// The SanitizerCoverage callbacks ARCHITECTURE.md ("Targets") says fuzz-worker
/// provides, listed here on purpose: the
/// test fails when the executable drops one.
const EXPORTS: [&str; 31] = [
    "__sanitizer_cov_8bit_counters_init",
    "__sanitizer_cov_pcs_init",
    "__sanitizer_cov_trace_pc_guard_init",
    "__sanitizer_cov_trace_pc_guard",
    "__sanitizer_cov_trace_pc",
    "__sanitizer_cov_trace_pc_indir",
    "__sanitizer_cov_trace_cmp1",
    "__sanitizer_cov_trace_cmp2",
    "__sanitizer_cov_trace_cmp4",
    "__sanitizer_cov_trace_cmp8",
    "__sanitizer_cov_trace_const_cmp1",
    "__sanitizer_cov_trace_const_cmp2",
    "__sanitizer_cov_trace_const_cmp4",
    "__sanitizer_cov_trace_const_cmp8",
    "__sanitizer_cov_trace_cmpf",
    "__sanitizer_cov_trace_cmpd",
    "__sanitizer_cov_trace_switch",
    "__sanitizer_cov_trace_div4",
    "__sanitizer_cov_trace_div8",
    "__sanitizer_cov_trace_gep",
    "__sancov_lowest_stack",
    "LLVMFuzzerMutate",
    "memcmp",
    "bcmp",
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strncasecmp",
    "strstr",
    "strcasestr",
    "memmem",
];

#[test]
fn worker_exports_every_sanitizer_callback() {
    require_tool("nm");
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(bin(TOOL))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "nm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let defined: std::collections::HashSet<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .map(|name| name.split('@').next().unwrap())
        .collect();
    let missing: Vec<&str> = EXPORTS
        .iter()
        .copied()
        .filter(|s| !defined.contains(s))
        .collect();
    assert!(
        missing.is_empty(),
        "fuzz-worker does not export {missing:?}"
    );

    // -fsanitize=fuzzer-no-link code reaches __sancov_lowest_stack through
    // the TLS model: it must be a thread-local symbol.
    require_tool("readelf");
    let out = Command::new("readelf")
        .args(["--dyn-syms", "-W"])
        .arg(bin(TOOL))
        .output()
        .unwrap();
    let syms = String::from_utf8_lossy(&out.stdout);
    let line = syms
        .lines()
        .find(|l| l.split_whitespace().last() == Some("__sancov_lowest_stack"))
        .expect("__sancov_lowest_stack in readelf --dyn-syms");
    assert!(line.contains(" TLS "), "not thread-local: {line}");
}

// ------------------------------------------------------------------- bench

#[test]
fn bench_prints_ns_per_exec() {
    let dir = tempdir();
    let d = dir.path();
    let input = raw(d, "input", b"TLVK\x01aV\x01b");
    let lib = example_lib("libc_parse_clang.so");
    let r = worker(d, &["bench", &lib, "-n", "2000", "-raw", input]).expect(0);
    let out = r.out();
    assert_eq!(out.lines().count(), 1, "{out}");
    has(&out, "ns/exec");

    // A typed target with no input runs the zero values of every type.
    let lib = example_lib("librust_typed.so");
    let r = worker(d, &["bench", &lib, "-target", "FuzzAllTypes", "-n", "2000"]).expect(0);
    let out = r.out();
    assert_eq!(out.lines().count(), 1, "{out}");
    has(&out, "ns/exec");
}

#[test]
fn bench_reports_a_failing_input_as_run_does_and_refuses_zero() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    // A hang: reported within -timeout + 1 s, exit 1, not timed.
    let hang = raw(d, "hang", b"hang");
    let start = std::time::Instant::now();
    let r = worker(
        d,
        &[
            "bench", &lib, "-target", "FuzzHang", "-timeout", "1s", "-raw", hang,
        ],
    )
    .expect(1);
    let took = start.elapsed();
    assert!(took < std::time::Duration::from_secs(2), "took {took:?}");
    assert!(
        r.out().starts_with(&format!("{hang}: timed out after 1s")),
        "{}",
        r.out()
    );
    assert!(!r.out().contains("ns/exec"), "{}", r.out());
    // A crash, as run prints it.
    let segv = raw(d, "segv", b"segv");
    let r = worker(d, &["bench", &lib, "-target", "FuzzSegv", "-raw", segv]).expect(1);
    let run = worker(d, &["run", &lib, "-target", "FuzzSegv", "-raw", segv]).expect(1);
    assert_eq!(
        r.out().lines().next(),
        run.out().lines().next(),
        "bench:\n{}\nrun:\n{}",
        r.out(),
        run.out()
    );
    // A passing input is timed; -n 0 is refused in one line.
    let ok = raw(d, "ok", b"fine");
    let r = worker(
        d,
        &[
            "bench", &lib, "-target", "FuzzSegv", "-n", "100", "-raw", ok,
        ],
    )
    .expect(0);
    has(&r.out(), "ns/exec");
    let r = worker(
        d,
        &["bench", &lib, "-target", "FuzzSegv", "-n", "0", "-raw", ok],
    )
    .expect(2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    has(&r.stderr, "-n");
}

#[test]
fn each_failures_message_is_its_own() {
    // The child may run the next input before the parent reads the last
    // one's message: each message ends where its input ended (issue 33:
    // three failing entries each carried the later ones' messages).
    let dir = tempdir();
    let d = dir.path();
    let inputs = [
        raw(d, "e1", b"x1"),
        raw(d, "e2", b"xx22"),
        raw(d, "e3", b"xxx333"),
    ];
    let lib = example_lib("libmisbehave.so");
    for round in 0..30 {
        let reps = run_inputs(d, &lib, Some("FuzzFail"), &["-raw"], &inputs, 1);
        for (rep, n) in reps.iter().zip([2, 4, 6]) {
            let all = rep.all();
            let own = format!("starts with 'x' ({n} bytes)");
            assert!(all.contains(&own), "round {round}: {all}");
            assert_eq!(
                all.matches("bad input").count(),
                1,
                "round {round}: another entry's message in this one's:\n{all}"
            );
        }
    }
}

/// Once a bug: a FIFO named as the library hung every tool that takes one
/// (opening it waits for a writer), and a device could be read without
/// end. Each tool now refuses both in one line, exit 2, at once. (An input
/// or corpus file that is a FIFO is read as cat reads it: `<(...)` works.)
#[test]
fn a_fifo_or_a_device_named_as_the_library_is_refused_at_once() {
    let dir = tempdir();
    let d = dir.path();
    nix::unistd::mkfifo(&d.join("fifo.so"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.so")).unwrap();
    let input = raw(d, "input", b"x");
    std::fs::create_dir(d.join("src")).unwrap();
    let before = snapshot(d);
    let marker = format!("FUZZ_TEST_MARK=fifo-{}", std::process::id());
    for (lib, kind) in [("fifo.so", "a FIFO"), ("zero.so", "a character device")] {
        let runs: [(&str, &[&str]); 8] = [
            ("fuzz-worker", &["list", lib]),
            ("fuzz-worker", &["run", lib, "-raw", input]),
            ("fuzz-worker", &["bench", lib]),
            ("fuzz-run", &[lib, "-fuzz", ".", "-fuzztime", "1x"]),
            ("fuzz-run", &[lib]),
            ("fuzz-minimize", &[lib, "-target", "FuzzX", input]),
            ("fuzz-corpus", &["cover", lib, "."]),
            ("fuzz-corpus", &["merge", "-lib", lib, "dst", "src"]),
        ];
        for (tool, args) in runs {
            // Under timeout(1): a hang is exit 124, not a stalled suite.
            let c = cmd(d, tool, args);
            let mut t = Command::new("timeout");
            t.arg("30").arg(c.get_program()).args(c.get_args());
            t.current_dir(d)
                .env("FUZZ_TEST_MARK", &marker["FUZZ_TEST_MARK=".len()..]);
            for (k, v) in c.get_envs() {
                match v {
                    Some(v) => t.env(k, v),
                    None => t.env_remove(k),
                };
            }
            let r = run_command(t);
            assert_eq!(
                r.code,
                2,
                "BUG: {tool} {args:?} (124 is a hang): {}{}",
                r.out(),
                r.stderr
            );
            r.one_line_error(tool, lib);
            assert!(r.stderr.contains(kind), "{tool} {args:?}: {}", r.stderr);
            assert!(!d.join("dst").exists(), "{tool} {args:?} made dst");
            assert!(
                snapshot(d) == before,
                "{tool} {args:?} changed the directory"
            );
            let left = marked_processes(&marker);
            assert!(left.is_empty(), "{tool} {args:?} left {left:?}");
        }
    }
}
