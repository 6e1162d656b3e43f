//! fuzz-minimize against the example targets, and `fuzz-corpus merge -lib`
//! (coverage-aware merge), driven as binaries.

use crate::common::*;
use fuzz_core::format::codec::{decode, encode};
use fuzz_core::Value;
use std::collections::{BTreeSet, HashSet};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const TOOL: &str = "fuzz-minimize";

/// `n` seeded random bytes.
fn junk(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = Rng(seed);
    (0..n).map(|_| rng.next() as u8).collect()
}

/// Writes `bytes` to `dir/name`; returns `name` (commands run in `dir`).
fn put<'a>(dir: &Path, name: &'a str, bytes: &[u8]) -> &'a str {
    std::fs::write(dir.join(name), bytes).unwrap();
    name
}

fn minimize(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, TOOL, args)
}

/// fuzz-minimize's closing line, `fuzz-minimize: BEFORE -> AFTER bytes[,
/// N executions] in Ts…`: (before, after, executions).
#[track_caller]
fn summary(r: &Run) -> (usize, usize, Option<u64>) {
    let line = r
        .stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("fuzz-minimize: ") && l.contains(" bytes"))
        .unwrap_or_else(|| panic!("no summary line on stderr:\n{}", r.stderr));
    let rest = line.trim_start_matches("fuzz-minimize: ");
    let (before, rest) = rest.split_once(" -> ").expect(line);
    let (after, rest) = rest.split_once(" bytes").expect(line);
    let execs = rest
        .strip_prefix(", ")
        .and_then(|r| r.split_once(" executions"))
        .map(|(n, _)| n.parse::<u64>().expect(line));
    assert!(rest.contains(" in ") && rest.contains('s'), "{line}");
    (
        before.parse().expect(line),
        after.parse().expect(line),
        execs,
    )
}

/// `fuzz-worker run` of one input: its outcome line (after `INPUT: `) and
/// exit code.
fn worker_outcome(dir: &Path, lib: &str, target: Option<&str>, raw: bool, file: &str) -> Run {
    let mut args = vec!["run", lib];
    if let Some(t) = target {
        args.extend(["-target", t]);
    }
    if raw {
        args.push("-raw");
    }
    args.push(file);
    run_in(dir, "fuzz-worker", &args)
}

/// The number of coverage features one raw input reaches, from its own
/// `fuzz-worker run -coverage` process: each input is then the first
/// execution of its process, so two inputs are measured alike (a target
/// that initialises itself lazily, as c/parse.c does, reaches more on the
/// first execution of a process than on later ones).
#[track_caller]
fn features(dir: &Path, lib: &str, target: Option<&str>, file: &str) -> u64 {
    let mut args = vec!["run", lib, "-raw", "-coverage", "-json"];
    if let Some(t) = target {
        args.extend(["-target", t]);
    }
    args.push(file);
    let r = run_in(dir, "fuzz-worker", &args).expect(0);
    let v: serde_json::Value = serde_json::from_str(r.out().trim()).unwrap();
    assert_eq!(v["outcome"], "ok", "{}", r.out());
    v["features"].as_u64().unwrap()
}

// ---------------------------------------------------------------------------
// Failures shrink to their trigger.

/// `TLVV\x00` followed by junk, 4096 bytes in all: c/parse.c rejects
/// (returns -1 for) anything longer than 4096 bytes.
fn tlv_crash_input() -> Vec<u8> {
    let mut b = b"TLVV\x00".to_vec();
    b.extend(junk(1, 4096 - b.len()));
    b
}

#[test]
fn planted_segv_shrinks_to_its_five_bytes_clang() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang.so");
    let input = put(d, "big", &tlv_crash_input());
    let r = minimize(d, &[&lib, input, "-raw", "-o", "out"]).expect(0);
    assert!(r.stdout.is_empty(), "with -o, stdout stays empty");
    assert_eq!(std::fs::read(d.join("out")).unwrap(), b"TLVV\x00");
    // The process-killing crash is named with its site, before anything else.
    assert!(
        r.stderr
            .lines()
            .next()
            .unwrap()
            .starts_with("fuzz-minimize: big fails: SIGSEGV at libc_parse_clang.so+0x"),
        "{}",
        r.stderr
    );
    let (before, after, execs) = summary(&r);
    assert_eq!((before, after), (4096, 5), "{}", r.stderr);
    assert!(execs.unwrap() > 0, "{}", r.stderr);
    // The result still crashes, the same way.
    let w = worker_outcome(d, &lib, None, true, "out").expect(1);
    assert!(w.out().starts_with("out: crashed: SIGSEGV"), "{}", w.out());
}

#[test]
fn planted_segv_shrinks_to_its_five_bytes_gcc_on_stdout() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_gcc.so");
    let input = put(d, "big", &tlv_crash_input());
    // No -o: the raw result is the whole of stdout.
    let r = minimize(d, &[&lib, "-raw", input]).expect(0);
    assert_eq!(r.stdout, b"TLVV\x00", "stderr:\n{}", r.stderr);
    assert!(
        r.stderr
            .contains("fuzz-minimize: big fails: SIGSEGV at libc_parse_gcc.so+0x"),
        "{}",
        r.stderr
    );
    assert_eq!(summary(&r).0, 4096);
    assert_eq!(summary(&r).1, 5);
}

#[test]
fn typed_rust_failure_shrinks_every_argument() {
    record_shrinks_every_argument("librust_typed.so", "panic at src/lib.rs:", &[]);
}

/// The same panic under `panic = "abort"`, which ends the process: each
/// candidate runs in a forked child, and the site is still the panic's
/// location with `RUST_BACKTRACE=1` (which the children are not asked to
/// honour: a backtrace is symbolized afresh in each, many times the run).
#[test]
fn rust_panic_under_abort_shrinks_every_argument_with_rust_backtrace_set() {
    record_shrinks_every_argument(
        "librust_typed_abort.so",
        " at src/lib.rs:",
        &[("RUST_BACKTRACE", "1")],
    );
}

/// FuzzRecord's known failure padded out, minimized with and without
/// `-same` in `env`: `site` is in the line that says how it fails.
fn record_shrinks_every_argument(lib: &str, site: &str, env: &[(&str, &str)]) {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib(lib);
    // The known input ("ab", 3, "!") padded out: a 2002-byte name, count 5,
    // a 3001-byte payload.
    let mut rng = Rng(2);
    let mut name = b"ab".to_vec();
    name.extend((0..2000).map(|_| *rng.pick(b"cdefghijklmnopqrstuvwxyz")));
    let mut payload = b"!".to_vec();
    payload.extend(junk(3, 3000));
    let v1 = encode(&[Value::String(name), Value::Int64(5), Value::Bytes(payload)]);
    put(d, "record.v1", &v1);
    // With and without -same: the site of a typed failure is where the
    // panic happened, not its message (which names the payload's length).
    for same in [false, true] {
        let out = if same { "same.v1" } else { "any.v1" };
        let mut args = vec![
            lib.as_str(),
            "-target",
            "FuzzRecord",
            "record.v1",
            "-o",
            out,
        ];
        if same {
            args.push("-same");
        }
        let mut c = cmd(d, TOOL, &args);
        c.envs(env.iter().copied());
        let r = run_command(c).expect(0);
        let fails = r
            .stderr
            .lines()
            .find(|l| l.starts_with("fuzz-minimize: record.v1 fails: "))
            .unwrap_or_else(|| panic!("no line saying how record.v1 fails:\n{}", r.stderr));
        assert!(fails.contains(site), "want {site:?} in {fails:?}");
        // v1 in, v1 out, in canonical form.
        let bytes = std::fs::read(d.join(out)).unwrap();
        let values = decode(&bytes).unwrap_or_else(|e| panic!("{out}: {e}"));
        assert_eq!(bytes, encode(&values), "{out} is not canonical v1");
        let [Value::String(n), Value::Int64(count), Value::Bytes(p)] = values.as_slice() else {
            panic!("{out}: want (string, int64, []byte), got {values:?}");
        };
        assert_eq!(n, b"ab", "the name keeps only what the bug needs");
        assert_eq!(p, b"!", "the payload keeps only what the bug needs");
        // Numbers move towards zero, within the range that still panics.
        assert!(
            (3..=6).contains(count) && *count <= 5,
            "count {count} (started at 5, panics in 3..=6)"
        );
        let (before, after, _) = summary(&r);
        assert_eq!(before, 2002 + 3001, "{}", r.stderr);
        assert_eq!(after, 3, "{}", r.stderr);
        let w = worker_outcome(d, &lib, Some("FuzzRecord"), false, out).expect(1);
        assert!(w.out().contains("bang payload (1 bytes)"), "{}", w.out());
    }
}

#[test]
fn asan_report_minimizes() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_asan.so");
    let mut input = b"HBO".to_vec();
    input.extend(junk(4, 1000));
    put(d, "asan", &input);
    let r = minimize(d, &[&lib, "asan", "-raw", "-o", "out"]).expect(0);
    assert!(
        r.stderr
            .contains("fuzz-minimize: asan fails: asan: heap-buffer-overflow"),
        "{}",
        r.stderr
    );
    let out = std::fs::read(d.join("out")).unwrap();
    // "HBO" and one more byte (ASan gives malloc(0) one usable byte, so
    // "HBO" alone does not overflow).
    assert!(
        out.starts_with(b"HBO") && out.len() <= 4,
        "{:?}\n{}",
        String::from_utf8_lossy(&out),
        r.stderr
    );
    assert_eq!(summary(&r).0, 1003);
}

#[test]
fn same_never_trades_one_bug_for_another() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    put(d, "drift", b"ABxyz");
    let base = [lib.as_str(), "drift", "-raw", "-target", "FuzzDrift"];

    // Without -same any failure will do, and the smallest one is "A": a
    // different bug (abort, not the NULL write). This is what makes the
    // -same half of the test mean something.
    let mut args = base.to_vec();
    args.extend(["-o", "any"]);
    let r = minimize(d, &args).expect(0);
    assert!(
        r.stderr
            .contains("fuzz-minimize: drift fails: SIGSEGV at libmisbehave.so+0x"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(d.join("any")).unwrap(), b"A", "{}", r.stderr);
    let w = worker_outcome(d, &lib, Some("FuzzDrift"), true, "any").expect(1);
    assert!(w.out().starts_with("any: crashed: SIGABRT"), "{}", w.out());

    // With -same, the crash site is kept: "AB", still a SIGSEGV.
    let mut args = base.to_vec();
    args.extend(["-same", "-o", "same"]);
    let r = minimize(d, &args).expect(0);
    assert_eq!(
        std::fs::read(d.join("same")).unwrap(),
        b"AB",
        "{}",
        r.stderr
    );
    let (before, after, _) = summary(&r);
    assert_eq!((before, after), (5, 2), "{}", r.stderr);
    let w = worker_outcome(d, &lib, Some("FuzzDrift"), true, "same").expect(1);
    assert!(w.out().starts_with("same: crashed: SIGSEGV"), "{}", w.out());
}

#[test]
fn a_candidate_over_the_memory_limit_is_out_of_memory() {
    // FuzzOOM allocates 64 MiB blocks on "oom" and, left alone, fails with
    // a message of its own after 4 GiB: each candidate runs in a forked
    // child, which -rss_limit_mb must stop as the worker itself would be.
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    put(d, "oom", b"oom");
    let args = [
        lib.as_str(),
        "oom",
        "-raw",
        "-target",
        "FuzzOOM",
        "-rss_limit_mb",
        "300",
        "-o",
        "small",
    ];
    let r = minimize(d, &args).expect(0);
    assert!(
        r.stderr.contains("fuzz-minimize: oom fails: out of memory"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("was not stopped"), "{}", r.stderr);
    assert_eq!(
        std::fs::read(d.join("small")).unwrap(),
        b"oom",
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------------------
// -coverage.

// What -coverage promises is that every feature the input reaches is still
// reached by the result; the result may reach more (a shorter input can
// take a branch the longer one did not). `fuzz-worker run -coverage` only
// prints a count and a fingerprint, so the robust check is: the result is
// not larger and its count (each input measured in its own process, see
// `features`) is at least the original's. A superset has at least as many
// features; a result that lost a feature and gained another would slip
// through, which the fingerprint cannot rule out either.

#[test]
fn coverage_keeps_every_feature() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    // FuzzOk branches on the low bit of the first byte: one odd byte
    // reaches all that this input does.
    let mut input = b"a".to_vec();
    input.extend(junk(5, 512));
    put(d, "ok", &input);
    let r = minimize(
        d,
        &[
            &lib,
            "-target",
            "FuzzOk",
            "-raw",
            "-coverage",
            "ok",
            "-o",
            "out",
        ],
    )
    .expect(0);
    let out = std::fs::read(d.join("out")).unwrap();
    assert_eq!(out.len(), 1, "{out:?}\n{}", r.stderr);
    assert_eq!(out[0] & 1, 1, "{out:?}: the odd branch is kept");
    let (before, after, _) = summary(&r);
    assert_eq!((before, after), (513, 1), "{}", r.stderr);
    let want = features(d, &lib, Some("FuzzOk"), "ok");
    let got = features(d, &lib, Some("FuzzOk"), "out");
    assert!(got >= want, "{got} features after, {want} before");

    // An input that fails has no coverage to keep: 1, and nothing written.
    put(d, "fails", b"x");
    let r = minimize(
        d,
        &[
            &lib,
            "-target",
            "FuzzFail",
            "-raw",
            "-coverage",
            "fails",
            "-o",
            "f.out",
        ],
    )
    .expect(1);
    r.one_line_error(TOOL, "fails");
    assert!(!d.join("f.out").exists());
    // Nor does one the target rejects.
    put(d, "empty", b"");
    let r = minimize(
        d,
        &[
            &lib,
            "-target",
            "FuzzReject",
            "-raw",
            "-coverage",
            "empty",
            "-o",
            "e.out",
        ],
    )
    .expect(1);
    r.one_line_error(TOOL, "no coverage");
    assert!(!d.join("e.out").exists());
}

#[test]
fn coverage_minimizes_a_target_that_initialises_lazily() {
    // Regression: fuzz-minimize -coverage once took the features to keep
    // from an in-process run, which also ran c/parse.c's one-time
    // init_handlers(); candidates forked from that warmed-up worker never
    // reached the init code again, so nothing shrank. The features now
    // come from a forked check, like every candidate.
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang_fixed.so");
    // Records of every kind (a key, values, another type, an empty value),
    // then junk.
    let mut input = b"TLVK\x02abV\x03xyzQ\x01!V\x00".to_vec();
    input.extend(junk(6, 120));
    put(d, "rich", &input);
    let r = minimize(
        d,
        &[
            &lib,
            "-raw",
            "-coverage",
            "-fuzzminimizetime",
            "4s",
            "rich",
            "-o",
            "out",
        ],
    )
    .expect(0);
    let out = std::fs::read(d.join("out")).unwrap();
    let want = features(d, &lib, None, "rich");
    let got = features(d, &lib, None, "out");
    assert!(got >= want, "{got} features after, {want} before");
    assert!(
        out.len() < input.len(),
        "nothing was cut from {} bytes ({} -> {} features)\n{}",
        input.len(),
        want,
        got,
        r.stderr
    );
}

// ---------------------------------------------------------------------------
// Ctrl-C.

#[test]
fn ctrl_c_writes_the_smallest_input_so_far() {
    interrupt_writes_the_smallest_input_so_far(false);
}

/// A scheduler stopping the job signals every process of it: the worker
/// and the children it runs candidates in die first here. That is a stop
/// like Ctrl-C, not the worker's death, and a candidate killed so is not
/// taken for one that fails.
#[test]
fn a_signal_to_every_process_writes_the_smallest_input_so_far() {
    interrupt_writes_the_smallest_input_so_far(true);
}

fn interrupt_writes_the_smallest_input_so_far(every_process: bool) {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libmisbehave.so");
    // FuzzSlowFail sleeps 5 ms per execution, so shrinking 4 KiB takes far
    // longer than this test waits.
    let mut input = vec![b'.'; 4096];
    input[2050] = b'F';
    put(d, "slow", &input);
    let marker = format!("FUZZ_TEST_MARK={}", d.display());
    let mut child = cmd(
        d,
        TOOL,
        &[&lib, "-raw", "-target", "FuzzSlowFail", "slow", "-o", "out"],
    )
    .env("FUZZ_TEST_MARK", d)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    // Interrupt after ~1.5 s, once a progress line shows it has shrunk
    // something (on a loaded machine that may take longer).
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut progressed = false;
    while !(progressed && start.elapsed() >= Duration::from_millis(1500)) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no progress after 20 s:\n{}",
            lines.join("\n")
        );
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(50)) {
            progressed |= line.contains(" bytes after ");
            lines.push(line);
        }
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "finished before the interrupt:\n{}",
        lines.join("\n")
    );
    if every_process {
        signal_every_process(&marker, child.id(), libc::SIGTERM);
    } else {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    }
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("still running 30 s after the start");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    reader.join().unwrap();
    lines.extend(rx.try_iter());
    let stderr = lines.join("\n");
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("stopped early"), "{stderr}");
    assert!(!stderr.contains("died"), "{stderr}");
    no_unfinished_writes(d);
    let out = std::fs::read(d.join("out")).unwrap_or_else(|e| panic!("out: {e}\n{stderr}"));
    assert!(out.len() < input.len(), "{} bytes\n{stderr}", out.len());
    assert!(out.contains(&b'F'));
    let w = worker_outcome(d, &lib, Some("FuzzSlowFail"), true, "out").expect(1);
    assert!(w.out().starts_with("out: failed: "), "{}", w.out());
    // The worker went with it.
    let gone = Instant::now();
    while !marked_processes(&marker).is_empty() && gone.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        marked_processes(&marker),
        Vec::<String>::new(),
        "left running"
    );
}

// ---------------------------------------------------------------------------
// Exit codes.

#[test]
fn an_input_that_does_not_fail_exits_1() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang.so");
    put(d, "fine", b"TLVK\x01aV\x00");
    let r = minimize(d, &[&lib, "-raw", "fine", "-o", "out"]).expect(1);
    r.one_line_error(TOOL, "does not fail");
    assert!(r.stderr.contains("fine"), "{}", r.stderr);
    assert!(!d.join("out").exists());
    assert!(r.stdout.is_empty());
    // One the target rejects (c/parse.c: over 4096 bytes) says so.
    let mut long = tlv_crash_input();
    long.push(0);
    put(d, "long", &long);
    let r = minimize(d, &[&lib, "-raw", "long", "-o", "out"]).expect(1);
    r.one_line_error(TOOL, "rejected");
    assert!(!d.join("out").exists());
}

/// issue 22: `-target` was demanded even of an input in
/// testdata/fuzz/<Target>/, whose path says which target it belongs to.
#[test]
fn the_input_s_path_names_the_target() {
    let dir = tempdir();
    let d = dir.path();
    let typed = example_lib("librust_typed.so");
    let record = std::fs::read(known_input("rust_typed.FuzzRecord")).unwrap();
    let cache = "cache/fuzz/rust_typed-0123456789abcdef/FuzzRecord";
    for sub in [
        "testdata/fuzz/FuzzRecord",
        "testdata/fuzz/FuzzNope",
        cache,
        "src",
    ] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
        put(&d.join(sub), "record", &record);
    }
    let quick = ["-fuzzminimizetime", "50x"];
    // Three targets and no -target: the seed or cache path names FuzzRecord.
    for input in [
        "testdata/fuzz/FuzzRecord/record",
        &format!("{cache}/record"),
    ] {
        let r = minimize(d, &[&quick[..], &[&typed, input]].concat()).expect(0);
        assert_eq!(r.stdout, record, "{input}");
    }
    // Named relative to testdata/fuzz/ too.
    let inner = d.join("testdata/fuzz");
    minimize(
        &inner,
        &[&quick[..], &[&typed, "FuzzRecord/record"]].concat(),
    )
    .expect(0);
    // A path naming a target the library does not have, or none at all.
    let r = minimize(d, &[&typed, "testdata/fuzz/FuzzNope/record"]).expect(2);
    r.one_line_error(TOOL, "no target \"FuzzNope\"");
    let r = minimize(d, &[&typed, "src/record"]).expect(2);
    r.one_line_error(TOOL, "-target");
    // A library with one target uses it, whatever the path's name.
    let parse = example_lib("libc_parse_clang.so");
    put(&d.join("testdata/fuzz/FuzzNope"), "tlv", &tlv_crash_input());
    let args = [&quick[..], &["-raw", &parse, "testdata/fuzz/FuzzNope/tlv"]].concat();
    minimize(d, &args).expect(0);

    // merge -lib: DST names the target.
    let r = run_in(
        d,
        "fuzz-corpus",
        &["merge", "-lib", &typed, "testdata/fuzz/FuzzRecord", "src"],
    )
    .expect(0);
    assert!(
        r.stderr.contains("merged 0 of 0 new entries"),
        "{}",
        r.stderr
    );
    run_in(d, "fuzz-corpus", &["merge", "-lib", &typed, "dst", "src"])
        .expect(2)
        .one_line_error("fuzz-corpus", "-target");
}

#[test]
fn misuse_exits_2_with_one_line_and_writes_nothing() {
    let dir = tempdir();
    let d = dir.path();
    let parse = example_lib("libc_parse_clang.so");
    let typed = example_lib("librust_typed.so");
    put(d, "crash", b"TLVV\x00");
    put(d, "malformed.v1", b"go test fuzz v1\n[]byte(\"abc\"\n");
    put(
        d,
        "record.v1",
        &std::fs::read(known_input("rust_typed.FuzzRecord")).unwrap(),
    );
    std::fs::create_dir(d.join("adir")).unwrap();
    put(d, "notelf.so", b"not a library\n");
    // A shared object that loads but exports no target.
    require_tool("gcc");
    put(
        d,
        "plain.c",
        b"int plain_add(int a, int b) { return a + b; }\n",
    );
    let cc = std::process::Command::new("gcc")
        .args(["-shared", "-fPIC", "plain.c", "-o", "libplain.so"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );

    let cases: [(&[&str], &str); 9] = [
        // A malformed v1 file: named with its line.
        (&[&parse, "malformed.v1"], "malformed.v1:2"),
        // A v1 file of the wrong arity for the target.
        (&[&parse, "record.v1"], "record.v1"),
        (&[&parse, "-raw", "missing"], "missing"),
        (&[&parse, "-raw", "adir"], "adir"),
        (&[&typed, "-target", "FuzzRecord", "-raw", "crash"], "-raw"),
        (&[&typed, "-target", "FuzzNope", "record.v1"], "FuzzNope"),
        (&[&typed, "record.v1"], "-target"),
        (&["notelf.so", "-raw", "crash"], "notelf.so"),
        (&["libplain.so", "-raw", "crash"], "no fuzz targets"),
    ];
    for (args, needle) in cases {
        let mut args = args.to_vec();
        args.extend(["-o", "out"]);
        let r = minimize(d, &args);
        assert_eq!(r.code, 2, "{args:?}: exit {}\n{}", r.code, r.stderr);
        r.one_line_error(TOOL, needle);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!d.join("out").exists(), "{args:?} wrote -o");
    }
}

// ---------------------------------------------------------------------------
// fuzz-corpus merge -lib.

/// The summary line of `fuzz-corpus merge -lib`: `merged K of N new entries
/// into DST by coverage (A -> B features, S skipped) in Ts`.
#[derive(Debug, PartialEq)]
struct Merged {
    kept: usize,
    new: usize,
    before: usize,
    after: usize,
    skipped: usize,
    secs: f64,
}

#[track_caller]
fn merged(r: &Run) -> Merged {
    let line = r
        .stderr
        .lines()
        .find(|l| l.starts_with("fuzz-corpus: merged "))
        .unwrap_or_else(|| panic!("no summary line:\n{}", r.stderr));
    let words: Vec<&str> = line
        .split([' ', '(', ')'])
        .filter(|w| !w.is_empty())
        .collect();
    // fuzz-corpus: merged K of N new entries into DST by coverage A -> B
    // features, S skipped in Ts
    let n = |i: usize| -> usize {
        words[i]
            .trim_end_matches(',')
            .parse()
            .unwrap_or_else(|_| panic!("word {i} of {line:?}"))
    };
    let at = words.iter().position(|w| *w == "coverage").expect(line);
    assert_eq!(
        (
            words[3],
            words[5],
            words[at + 2],
            words[at + 6],
            words[at + 7]
        ),
        ("of", "new", "->", "skipped", "in"),
        "{line}"
    );
    Merged {
        kept: n(2),
        new: n(4),
        before: n(at + 1),
        after: n(at + 3),
        skipped: n(at + 5),
        secs: words[at + 8].trim_end_matches('s').parse().expect(line),
    }
}

/// 1,000 distinct raw inputs for c/parse.c: short TLV-ish byte strings,
/// half of them behind the magic.
fn tlv_inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng(0x5eed);
    let mut seen = HashSet::new();
    let mut inputs = Vec::new();
    while inputs.len() < 1000 {
        let mut b = if rng.chance(2) {
            b"TLV".to_vec()
        } else {
            Vec::new()
        };
        for _ in 0..1 + rng.below(16) {
            b.push(*rng.pick(b"TLVK V\x00\x01\x02abcXYZ"));
        }
        if seen.insert(b.clone()) {
            inputs.push(b);
        }
    }
    inputs
}

/// The inputs of `tlv_inputs` as raw files, imported with `fuzz-convert
/// import` into `dir/testdata/fuzz/<target>/`, which is returned.
fn imported_corpus(dir: &Path, target: &str) -> PathBuf {
    let raw = dir.join("raw");
    std::fs::create_dir(&raw).unwrap();
    for (i, b) in tlv_inputs().iter().enumerate() {
        std::fs::write(raw.join(format!("{i:04}")), b).unwrap();
    }
    run_in(
        dir,
        "fuzz-convert",
        &["import", "-target", target, "-testdata", "testdata", "raw"],
    )
    .expect(0);
    let corpus = dir.join("testdata/fuzz").join(target);
    assert_eq!(
        names(&corpus).len(),
        1000,
        "distinct inputs, distinct entries"
    );
    corpus
}

/// The inputs of `tlv_inputs` as v1 files named by digest, written directly
/// into `dir/corpus` (fuzz-convert import syncs every file it writes, which
/// costs seconds on a busy disk; one test importing is enough). Returns the
/// directory and each entry's file name with its raw bytes.
fn written_corpus(dir: &Path) -> (PathBuf, Vec<(String, Vec<u8>)>) {
    let corpus = dir.join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    let mut entries = Vec::new();
    for b in tlv_inputs() {
        let v1 = encode(&[Value::Bytes(b.clone())]);
        let name = fuzz_core::store::digest::entry_name(&v1);
        std::fs::write(corpus.join(&name), &v1).unwrap();
        entries.push((name, b));
    }
    (corpus, entries)
}

/// Whether c/parse.c's planted bug fires on `data`: a 'V' record before any
/// non-empty 'K' record.
fn parse_crashes(data: &[u8]) -> bool {
    if data.len() > 4096 || !data.starts_with(b"TLV") {
        return false;
    }
    let (mut i, mut key) = (3, false);
    while i + 2 <= data.len() {
        let (t, len) = (data[i], data[i + 1] as usize);
        if len > data.len() - i - 2 {
            break;
        }
        match t {
            b'K' => key = len > 0,
            b'V' if !key => return true,
            _ => {}
        }
        i += 2 + len;
    }
    false
}

/// File names in `dir`, sorted.
fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn merge(dir: &Path, lib: &str, dst: &str, src: &str) -> Run {
    run_in(dir, "fuzz-corpus", &["merge", "-lib", lib, dst, src])
}

#[test]
fn merge_by_coverage_keeps_the_coverage_with_far_fewer_entries() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang_fixed.so");
    let corpus = imported_corpus(d, "c_parse_clang_fixed");
    let src = corpus.to_str().unwrap();

    let r = merge(d, &lib, "dst", src).expect(0);
    let m = merged(&r);
    eprintln!(
        "merge -lib: kept {} of {} entries ({} -> {} features) in {:.1}s",
        m.kept, m.new, m.before, m.after, m.secs
    );
    assert_eq!(m.new, 1000, "{}", r.stderr);
    assert_eq!((m.before, m.skipped), (0, 0), "{}", r.stderr);
    assert!(m.after > 0);
    assert!(
        m.kept > 0 && m.kept * 20 <= m.new,
        "kept {} of {}: not far fewer",
        m.kept,
        m.new
    );
    // stdout names exactly the files written, and they are DST's only files.
    let printed: Vec<String> = r.out().lines().map(String::from).collect();
    assert_eq!(printed.len(), m.kept, "{}", r.out());
    let kept = names(&d.join("dst"));
    assert_eq!(kept.len(), m.kept);
    for p in &printed {
        let p = Path::new(p);
        assert!(p.starts_with("dst"), "{}", p.display());
        let bytes = std::fs::read(d.join(p)).unwrap();
        // Named by digest, the bytes of one of the SRC entries.
        let name = p.file_name().unwrap().to_str().unwrap();
        assert_eq!(name, fuzz_core::store::digest::entry_name(&bytes));
        assert!(corpus.join(name).is_file(), "{name} is not from SRC");
    }

    // The kept entries alone reach the same coverage: merged into another
    // empty directory, every one is kept again and the count matches.
    let r2 = merge(d, &lib, "dst2", "dst").expect(0);
    let m2 = merged(&r2);
    assert_eq!(
        (m2.kept, m2.new, m2.before, m2.after, m2.skipped),
        (m.kept, m.kept, 0, m.after, 0),
        "{}",
        r2.stderr
    );
    assert_eq!(names(&d.join("dst2")), kept);

    // The same merge again adds nothing and changes nothing.
    let before = snapshot(&d.join("dst"));
    let r3 = merge(d, &lib, "dst", src).expect(0);
    let m3 = merged(&r3);
    assert_eq!(
        (m3.kept, m3.new, m3.before, m3.after),
        (0, 1000 - m.kept, m.after, m.after),
        "{}",
        r3.stderr
    );
    assert!(r3.stdout.is_empty(), "{}", r3.out());
    assert_eq!(snapshot(&d.join("dst")), before);

    // A merge stopped half-way has written a prefix of what it keeps
    // (smallest first, in stdout's order); running it again carries on to
    // the same result. (The whole merge takes a fraction of a second, too
    // short to interrupt reliably, so the prefix is laid down by hand.)
    std::fs::create_dir(d.join("resumed")).unwrap();
    for p in &printed[..printed.len() / 2] {
        let name = Path::new(p).file_name().unwrap();
        std::fs::copy(d.join(p), d.join("resumed").join(name)).unwrap();
    }
    let r4 = merge(d, &lib, "resumed", src).expect(0);
    let m4 = merged(&r4);
    assert_eq!(names(&d.join("resumed")), kept, "{}", r4.stderr);
    assert_eq!(m4.kept, m.kept - printed.len() / 2);
    assert_eq!(m4.after, m.after);
}

#[test]
fn merge_by_coverage_skips_crashing_entries() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang.so");
    let (corpus, entries) = written_corpus(d);
    let src = corpus.to_str().unwrap();
    let crashing: BTreeSet<String> = entries
        .iter()
        .filter(|(_, b)| parse_crashes(b))
        .map(|(n, _)| corpus.join(n).display().to_string())
        .collect();
    assert!(crashing.len() >= 5, "the corpus should hold crashers");

    let r = merge(d, &lib, "dst", src).expect(0);
    let m = merged(&r);
    eprintln!(
        "merge -lib (buggy build): kept {} of {}, {} skipped ({} -> {} features) in {:.1}s",
        m.kept, m.new, m.skipped, m.before, m.after, m.secs
    );
    // Every crashing entry, and nothing else, is named with its signal.
    let skipped: BTreeSet<String> = r
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("fuzz-corpus: warning: skipped "))
        .map(|l| {
            let (path, why) = l.rsplit_once(": ").expect(l);
            assert_eq!(why, "SIGSEGV", "{l}");
            path.to_string()
        })
        .collect();
    assert_eq!(skipped, crashing, "{}", r.stderr);
    assert_eq!(m.skipped, crashing.len());
    assert!(m.kept > 0);
    // Nothing kept crashes.
    let kept: Vec<String> = names(&d.join("dst"))
        .into_iter()
        .map(|n| format!("dst/{n}"))
        .collect();
    assert_eq!(kept.len(), m.kept);
    let mut args = vec!["run", lib.as_str()];
    args.extend(kept.iter().map(String::as_str));
    run_in(d, "fuzz-worker", &args).expect(0);
    for k in &kept {
        let values = decode(&std::fs::read(d.join(k)).unwrap()).unwrap();
        let [Value::Bytes(b)] = values.as_slice() else {
            panic!("{k}: {values:?}")
        };
        assert!(!parse_crashes(b), "{k} crashes");
    }
}

#[test]
fn merge_by_coverage_misuse_exits_2_and_writes_nothing() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang_fixed.so");
    std::fs::create_dir(d.join("src")).unwrap();
    std::fs::write(
        d.join("src").join("good"),
        "go test fuzz v1\n[]byte(\"TLVK\\x01a\")\n",
    )
    .unwrap();

    // -target means nothing without -lib.
    let r = run_in(
        d,
        "fuzz-corpus",
        &["merge", "-target", "c_parse_clang_fixed", "dst", "src"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "-lib");
    assert!(!d.join("dst").exists());

    // An unknown target.
    let r = run_in(
        d,
        "fuzz-corpus",
        &["merge", "-lib", &lib, "-target", "nope", "dst", "src"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "nope");
    assert!(!d.join("dst").exists());

    // A malformed entry in SRC stops the merge before anything is written,
    // even though the good entry sorts first.
    std::fs::write(
        d.join("src").join("zz-broken"),
        "go test fuzz v1\n[]byte(\"abc\"\n",
    )
    .unwrap();
    let r = merge(d, &lib, "dst", "src").expect(2);
    r.one_line_error("fuzz-corpus", "zz-broken:2");
    assert!(r.stdout.is_empty());
    assert!(!d.join("dst").exists());
    // Nor into an existing DST.
    std::fs::create_dir(d.join("dst")).unwrap();
    let r = merge(d, &lib, "dst", "src").expect(2);
    r.one_line_error("fuzz-corpus", "zz-broken:2");
    assert!(names(&d.join("dst")).is_empty());
    // An entry of the wrong type is refused the same way.
    std::fs::write(
        d.join("src").join("zz-broken"),
        "go test fuzz v1\nstring(\"TLV\")\n",
    )
    .unwrap();
    let r = merge(d, &lib, "dst", "src").expect(2);
    r.one_line_error("fuzz-corpus", "zz-broken");
    assert!(names(&d.join("dst")).is_empty());
}
