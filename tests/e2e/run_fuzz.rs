//! fuzz-run in fuzz mode, on the example targets: planted bugs found with
//! one and two workers; crashers that fail regression replay until the
//! fixed build; hangs, exits, stack overflows, aborts and memory blow-ups
//! recorded with the exact input; -keepfuzzing; the cache carried to the
//! next run; reproducible -seed runs; Ctrl-C; -json events; misuse.

use crate::common::*;
use crate::work::Work;
use fuzz_core::format::codec::decode;
use fuzz_core::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn example(name: &str) -> PathBuf {
    PathBuf::from(example_lib(name))
}

fn bytes_of(path: &Path) -> Vec<u8> {
    let values = decode(&std::fs::read(path).unwrap()).unwrap();
    match &values[..] {
        [Value::Bytes(b)] => b.clone(),
        other => panic!("{}: not one []byte: {other:?}", path.display()),
    }
}

/// Asserts a run found a failure, wrote exactly one crasher, and reported
/// it Go's way; returns the crasher.
#[track_caller]
fn found_one(w: &Work, target: &str, r: &Run, needle: &str) -> PathBuf {
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
    let out = r.out();
    assert!(out.contains(&format!("--- FAIL: {target}")), "{out}");
    assert!(out.contains(needle), "want {needle:?} in:\n{out}");
    assert!(
        out.contains("Failing input written to testdata/fuzz/"),
        "{out}"
    );
    // The re-run line keeps the flags that change the outcome (-timeout).
    assert!(out.contains("\n    fuzz-run "), "{out}");
    assert!(out.contains(&format!(" -run {target}/")), "{out}");
    let crashers = w.crashers(target);
    assert_eq!(crashers.len(), 1, "{crashers:?}");
    let name = crashers[0]
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(fuzz_core::store::digest::name_matches(
        &name,
        &std::fs::read(&crashers[0]).unwrap()
    ));
    crashers[0].clone()
}

#[test]
fn planted_bugs_are_found_with_one_and_two_workers() {
    let cases: &[(&str, &str, &str)] = &[
        ("librust_typed.so", "^FuzzRecord$", "bang payload"),
        ("librust_typed.so", "^FuzzFlags$", "rejects strict word"),
        ("librust_bytes.so", "rust_bytes", "SIGABRT (Rust panic)"),
        ("libc_parse_clang.so", "c_parse_clang", "SIGSEGV"),
        ("libc_parse_gcc.so", "c_parse_gcc", "SIGSEGV"),
    ];
    for (i, (lib, pattern, needle)) in cases.iter().enumerate() {
        let parallel = if i % 2 == 0 { "1" } else { "2" };
        let w = Work::new();
        let started = Instant::now();
        let r = w.fuzz(
            example(lib),
            &["-fuzz", pattern, "-fuzztime", "90s", "-parallel", parallel],
        );
        let target = pattern.trim_matches(|c| c == '^' || c == '$');
        found_one(&w, target, &r, needle);
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{lib} {pattern}: took {:?}",
            started.elapsed()
        );
        // Progress went to stderr in Go's words.
        assert!(r.stderr.contains("fuzz: elapsed: "), "{}", r.stderr);
    }
}

/// The worker that lists the library is the run's first worker: a run of
/// one worker loads the library in one process, a run of two in two (the
/// library's constructor notes each load). No process of its and no
/// scratch directory outlive a run.
#[test]
fn the_listing_worker_is_the_first_worker() {
    let run_command = |mut cmd: std::process::Command| {
        use std::process::Stdio;
        let child = (cmd.stdin(Stdio::null()).stdout(Stdio::piped()))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let run = Run::from(child.wait_with_output().unwrap());
        let left = scratch_dirs_of(pid);
        assert!(left.is_empty(), "scratch directories left: {left:?}");
        run
    };
    // Two workers are both up well within 3 s; one execution may end a
    // run before a second has loaded the library.
    for (parallel, fuzztime, loads) in [("1", "1x", 1), ("2", "3s", 2)] {
        let w = Work::new();
        let noted = w.path().join("loads");
        let mut cmd = w.fuzz_command(
            example("libmisbehave.so"),
            &[
                "-fuzz",
                "^FuzzOk$",
                "-fuzztime",
                fuzztime,
                "-parallel",
                parallel,
            ],
        );
        cmd.env("FUZZ_EXAMPLE_LOADS", &noted);
        let r = run_command(cmd);
        assert_eq!(r.code, 0, "{}{}", r.out(), r.stderr);
        let pids = std::fs::read_to_string(&noted).unwrap();
        assert_eq!(pids.lines().count(), loads, "-parallel {parallel}: {pids}");
        // Replaying the seeds lists the library too, and runs the files in
        // workers of their own: one load to list, none left running.
        w.seed("FuzzOk", "a", "go test fuzz v1\n[]byte(\"a\")\n");
        std::fs::remove_file(&noted).unwrap();
        let mut cmd = w.fuzz_command(example("libmisbehave.so"), &["-run", "^FuzzOk$"]);
        cmd.env("FUZZ_EXAMPLE_LOADS", &noted);
        let r = run_command(cmd);
        assert_eq!(r.code, 0, "{}{}", r.out(), r.stderr);
        let pids = std::fs::read_to_string(&noted).unwrap();
        assert_eq!(pids.lines().count(), 2, "regression: {pids}");
        for pid in pids.lines() {
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "{pid} lives on"
            );
        }
    }
}

#[test]
fn crasher_fails_regression_until_the_fixed_build() {
    let w = Work::new();
    let lib = example("libc_parse_clang.so");
    let r = w.fuzz(
        &lib,
        &[
            "-fuzz",
            "c_parse_clang",
            "-fuzztime",
            "90s",
            "-parallel",
            "1",
        ],
    );
    let crasher = found_one(&w, "c_parse_clang", &r, "SIGSEGV");
    let name = crasher.file_name().unwrap().to_str().unwrap().to_string();
    // The report's re-run command fails the same way.
    let r = run_in(
        w.path(),
        "fuzz-run",
        &[
            "-run",
            &format!("c_parse_clang/{name}"),
            lib.to_str().unwrap(),
        ],
    )
    .expect(1);
    assert!(r.out().contains("SIGSEGV"), "{}", r.out());
    // The fixed library, same testdata, same target name: passes.
    let fixed_dir = w.path().join("fixed");
    std::fs::create_dir(&fixed_dir).unwrap();
    let fixed = fixed_dir.join("libc_parse_clang.so");
    std::fs::copy(example("libc_parse_clang_fixed.so"), &fixed).unwrap();
    let r = run_in(w.path(), "fuzz-run", &[fixed.to_str().unwrap()]).expect(0);
    assert!(r.out().contains("ok"), "{}", r.out());
}

#[test]
fn deaths_are_recorded_with_the_exact_input() {
    // Each misbehaving target starts from a seed one byte away from its
    // trigger, so that plain mutation reaches it quickly.
    let cases: &[(&str, &str, &str, &[&str])] = &[
        ("FuzzSegv", "segu", "SIGSEGV", &[]),
        ("FuzzAbort", "abors", "SIGABRT", &[]),
        (
            "FuzzExit",
            "exis",
            "exited unexpectedly: exit status 3",
            &[],
        ),
        ("FuzzStackOverflow", "deeo", "stack overflow", &[]),
        ("FuzzHang", "hanf", "hung", &["-timeout", "1s"]),
        ("FuzzOOM", "ooo", "out of memory", &["-rss_limit_mb", "300"]),
    ];
    let misbehave = example("libmisbehave.so");
    let trigger = |t: &str| match t {
        "FuzzSegv" => &b"segv"[..],
        "FuzzAbort" => b"abort",
        "FuzzExit" => b"exit",
        "FuzzStackOverflow" => b"deep",
        "FuzzHang" => b"hang",
        _ => b"oom",
    };
    for (target, near, needle, extra) in cases {
        let w = Work::new();
        w.seed(
            target,
            "seed",
            format!("go test fuzz v1\n[]byte({near:?})\n"),
        );
        // A first input that passes, so the grace for a worker's first
        // execution is spent before the hang.
        w.seed(target, "seed0", "go test fuzz v1\n[]byte(\"\")\n");
        let mut args = vec!["-fuzz", target, "-fuzztime", "120s", "-parallel", "1"];
        args.extend_from_slice(extra);
        let r = w.fuzz(&misbehave, &args);
        let crasher = found_one(&w, target, &r, needle);
        assert_eq!(
            bytes_of(&crasher),
            trigger(target),
            "{target}: the exact input"
        );
    }
}

#[test]
fn keepfuzzing_collects_two_different_bugs() {
    let w = Work::new();
    let r = w.fuzz(
        example("libmisbehave.so"),
        &[
            "-fuzz",
            "FuzzTwoBugs",
            "-keepfuzzing",
            "-fuzztime",
            "20s",
            "-parallel",
            "2",
        ],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    let crashers = w.crashers("FuzzTwoBugs");
    assert_eq!(
        crashers.len(),
        2,
        "one crasher per crash site: {crashers:?}"
    );
    let mut prefixes: Vec<Vec<u8>> = crashers.iter().map(|c| bytes_of(c)[..2].to_vec()).collect();
    prefixes.sort();
    assert_eq!(prefixes, vec![b"A1".to_vec(), b"B2".to_vec()]);
    let out = r.out();
    assert!(out.contains("SIGSEGV") && out.contains("SIGABRT"), "{out}");
}

#[test]
fn a_failing_seed_stops_the_run_unless_keepfuzzing() {
    // A crasher found before sits in the seed corpus, as it does for a
    // second run in the same directory or a restarted Slurm task.
    let w = Work::new();
    w.seed("FuzzTwoBugs", "a1", "go test fuzz v1\n[]byte(\"A1\")\n");
    let lib = example("libmisbehave.so");
    let fuzz = [
        "-fuzz",
        "^FuzzTwoBugs$",
        "-fuzztime",
        "20s",
        "-parallel",
        "1",
    ];
    let r = w.fuzz(&lib, &fuzz);
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    let out = r.out();
    assert!(
        out.contains("failure while testing seed corpus entry: FuzzTwoBugs/a1"),
        "{out}"
    );
    assert!(
        w.crashers("FuzzTwoBugs").is_empty(),
        "it stopped at the seed"
    );
    // Under -keepfuzzing the seed is reported and fuzzing goes on to the
    // target's other bug.
    let r = w.fuzz(&lib, &[&fuzz[..], &["-keepfuzzing"]].concat());
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    let out = r.out();
    assert!(
        out.contains("failure while testing seed corpus entry: FuzzTwoBugs/a1"),
        "{out}"
    );
    let crashers = w.crashers("FuzzTwoBugs");
    assert_eq!(crashers.len(), 1, "{crashers:?}\n{out}");
    assert_eq!(&bytes_of(&crashers[0])[..2], b"B2");
}

#[test]
fn second_run_starts_from_the_cache() {
    let w = Work::new();
    // A target without lazy initialisation, whose coverage depends on the
    // input alone.
    let lib = example("librust_typed_fixed.so");
    let args = [
        "-fuzz",
        "^FuzzRecord$",
        "-json",
        "-parallel",
        "1",
        "-seed",
        "7",
        "-fuzztime",
        "40000x",
    ];
    let first = w.fuzz(&lib, &args).expect(0);
    let ev = json_events(&first);
    let end = ev.iter().find(|e| e["event"] == "end").unwrap();
    assert!(end["new_interesting"].as_u64().unwrap() > 3, "{end}");
    let second = w.fuzz(&lib, &args).expect(0);
    let ev2 = json_events(&second);
    let base = ev2.iter().find(|e| e["event"] == "baseline").unwrap();
    assert_eq!(
        base["entries"].as_u64().unwrap(),
        end["new_interesting"].as_u64().unwrap(),
        "the second run loads what the first one kept"
    );
    assert_eq!(
        base["coverage"], end["coverage"],
        "the second run's baseline coverage is the first run's final coverage"
    );
    let end2 = ev2.iter().find(|e| e["event"] == "end").unwrap();
    // It may find more (its search starts elsewhere), never all again.
    assert!(
        end2["new_interesting"].as_u64().unwrap() < end["new_interesting"].as_u64().unwrap(),
        "the second run rediscovered what the cache holds: {end2}"
    );
}

#[test]
fn a_seed_and_one_worker_make_a_reproducible_run() {
    let typed = example("librust_typed_fixed.so");
    let run = || {
        let w = Work::new();
        let r = w.fuzz(
            &typed,
            &[
                "-fuzz",
                "^FuzzRecord$",
                "-json",
                "-parallel",
                "1",
                "-seed",
                "42",
                "-fuzztime",
                "20000x",
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut names: Vec<String> = walkdir::WalkDir::new(w.path().join("cache"))
            .min_depth(3) // <lib>/<Target>/<entry>: not the root's CACHEDIR.TAG
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let end = json_events(&r)
            .into_iter()
            .find(|e| e["event"] == "end")
            .unwrap();
        (names, end["execs"].clone(), end["coverage"].clone())
    };
    let (a, b) = (run(), run());
    assert!(!a.0.is_empty());
    assert_eq!(a, b, "same seed, same corpus, same counts");
}

#[test]
fn json_events_follow_the_schema() {
    let w = Work::new();
    let r = w.fuzz(
        example("librust_typed.so"),
        &[
            "-fuzz",
            "^FuzzRecord$",
            "-json",
            "-parallel",
            "1",
            "-fuzztime",
            "60s",
        ],
    );
    assert_eq!(r.code, 1);
    let ev = json_events(&r);
    let kinds: Vec<&str> = ev.iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"start"));
    assert_eq!(kinds.last(), Some(&"end"));
    assert!(
        kinds.contains(&"baseline") && kinds.contains(&"failure"),
        "{kinds:?}"
    );
    for e in &ev {
        assert!(e["elapsed"].is_number(), "{e}");
    }
    let f = ev.iter().find(|e| e["event"] == "failure").unwrap();
    assert!(f["path"]
        .as_str()
        .unwrap()
        .contains("testdata/fuzz/FuzzRecord/"));
    assert!(f["message"].as_str().unwrap().contains("bang payload"));
}

#[test]
fn ctrl_c_stops_cleanly() {
    let w = Work::new();
    let lib = example("libc_parse_clang_fixed.so");
    let fuzzing = w.start_fuzz(&lib, &["-fuzz", "c_parse", "-parallel", "2"]);
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(fuzzing.processes(), 3, "the coordinator and two workers");
    // Also asserts that no process and no unfinished cache write is left.
    fuzzing.interrupt().expect(0);
}

#[test]
fn fuzz_pattern_must_match_a_target() {
    // (Several matching take turns: run_multi.rs.)
    let w = Work::new();
    let lib = example("libmisbehave.so");
    let r = w
        .fuzz(&lib, &["-fuzz", "NoSuchTarget", "-fuzztime", "1x"])
        .expect(2);
    r.one_line_error("fuzz-run", "FuzzOk");
    let r = w.fuzz(&lib, &["-fuzz", "[", "-fuzztime", "1x"]).expect(2);
    r.one_line_error("fuzz-run", "-fuzz");
}

#[test]
fn a_failing_seed_is_reported_as_go_does() {
    let w = Work::new();
    w.seed("FuzzFail", "bad-seed", "go test fuzz v1\n[]byte(\"x1\")\n");
    let r = w.fuzz(
        example("libmisbehave.so"),
        &["-fuzz", "FuzzFail", "-fuzztime", "10s"],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    assert!(
        r.out()
            .contains("failure while testing seed corpus entry: FuzzFail/bad-seed"),
        "{}",
        r.out()
    );
    assert!(r.out().contains("bad input"), "{}", r.out());
    // As in Go, a failing seed is not written again.
    assert!(w.crashers("FuzzFail").is_empty());
}

/// Fuzzes `target` of the example `lib` on one worker for up to 60 s
/// with `flags`: it must find its planted bug (`needle` in the report)
/// within 30 s. Returns the crasher's bytes.
fn finds_within_30s(lib: &str, target: &str, needle: &str, flags: &[&str]) -> Vec<u8> {
    let w = Work::new();
    let started = Instant::now();
    let mut args = vec!["-fuzz", target, "-fuzztime", "60s", "-parallel", "1"];
    args.extend_from_slice(flags);
    let r = w.fuzz(example(lib), &args);
    let crasher = found_one(&w, target, &r, needle);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    bytes_of(&crasher)
}

/// The control: the same target fuzzed for `fuzztime` on one worker with
/// a feature off (`flags`) finds nothing and exits 0.
fn finds_nothing(lib: &str, target: &str, fuzztime: &str, flags: &[&str]) {
    let w = Work::new();
    let mut args = vec!["-fuzz", target, "-fuzztime", fuzztime, "-parallel", "1"];
    args.extend_from_slice(flags);
    let r = w.fuzz(example(lib), &args);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
}

#[test]
fn comparison_feedback_finds_a_bug_behind_a_ten_byte_memcmp() {
    // Go's engine (coverage alone) does not find this one in minutes; the
    // operands of the interposed memcmp lead straight to it.
    let crasher = finds_within_30s(
        "libcmp_c_clang.so",
        "cmp_c_clang",
        "SIGABRT",
        &["-use_cmp", "1"],
    );
    assert!(crasher.starts_with(b"MAGIC_1234"));
    // Without comparison feedback and the dictionaries read from the code
    // (memcmp's constant is one of the code's strings too), nothing gets
    // there: the control.
    finds_nothing(
        "libcmp_c_clang.so",
        "cmp_c_clang",
        "500000x",
        &["-use_cmp", "0", "-auto_dict", "0", "-code_strings", "0"],
    );
}

#[test]
fn comparison_feedback_writes_numbers_read_from_text_as_digits() {
    // The target compares the value of the digits it read, 4096000000017;
    // no byte of the input is ever an operand. Writing the operand's
    // decimal digits over the number's finds it in a few executions.
    let crasher = finds_within_30s("libcmp_number.so", "cmp_number", "SIGABRT", &[]);
    assert!(crasher.starts_with(b"4096000000017"));
    // Without comparison feedback (Go's engine), nothing gets there.
    finds_nothing("libcmp_number.so", "cmp_number", "3s", &["-use_cmp", "0"]);
}

#[test]
fn the_code_s_wide_constants_find_what_no_comparison_shows() {
    // rustc compiles `payload == b"MAGIC_1234"` to one 80-bit compare:
    // trace-cmp shows no operand, and no call is interposed. The automatic
    // dictionary reads the constant from the machine code.
    finds_within_30s("librust_cmp.so", "FuzzMagic", "magic payload reached", &[]);
    // Without it, nothing gets there: the control.
    finds_nothing("librust_cmp.so", "FuzzMagic", "5s", &["-auto_dict", "0"]);
}

#[test]
fn the_code_s_string_constants_find_a_key_looked_up_in_a_hashed_map() {
    // FuzzParams looks the key "session-token" up in a HashMap: a name
    // reaches the interposed bcmp only when its hash shares the key's
    // bucket, so comparison operands lead there only now and then. The
    // code hands the key over as a pointer and a length, which
    // -code_strings reads.
    let crasher = finds_within_30s(
        "librust_cmp.so",
        "FuzzParams",
        "empty session token",
        &["-code_strings", "1"],
    );
    assert!(String::from_utf8_lossy(&crasher).contains("session-token"));
    // Without it, two other routes get there now and then, so the control
    // turns all three off: comparison operands (once in 5.8 s in CI, a
    // name whose hash shared the key's bucket reached bcmp), and the
    // automatic dictionary, since LLVM may inline the 13-byte compare as
    // two overlapping 8-byte immediates, "session-" and "on-token" (once in
    // 3 s in CI, once in twelve 5 s runs by hand).
    finds_nothing(
        "librust_cmp.so",
        "FuzzParams",
        "5s",
        &["-code_strings", "0", "-use_cmp", "0", "-auto_dict", "0"],
    );
}

#[test]
fn a_dictionary_word_finds_what_no_comparison_shows() {
    // The same bug with the automatic dictionary off: a -dict word.
    let w = Work::new();
    std::fs::write(
        w.path().join("magic.dict"),
        "# the magic\nmagic=\"MAGIC_\\x31234\"\n",
    )
    .unwrap();
    let r = w.fuzz(
        example("librust_cmp.so"),
        &[
            "-fuzz",
            "FuzzMagic",
            "-auto_dict",
            "0",
            "-dict",
            "magic.dict",
            "-fuzztime",
            "60s",
            "-parallel",
            "1",
        ],
    );
    found_one(&w, "FuzzMagic", &r, "magic payload reached");
    // A bad dictionary is one line naming its line, before anything runs.
    std::fs::write(w.path().join("bad.dict"), "\"ok\"\nmagic=MAGIC\n").unwrap();
    let r = w
        .fuzz(
            example("librust_cmp.so"),
            &["-fuzz", "FuzzMagic", "-dict", "bad.dict"],
        )
        .expect(2);
    r.one_line_error("fuzz-run", "bad.dict:2:");
}

#[test]
fn a_comparison_build_gives_its_operands_to_a_build_without_trace_cmp() {
    // libcmp_number_fast.so is number.c built without trace-cmp: alone,
    // fuzzing it never sees the operand. With its trace-cmp build as
    // -cmp_lib, a share of the parents run through that build, and its
    // operands are written into the fast build's inputs.
    let cmp = example_lib("libcmp_number.so");
    let crasher = finds_within_30s(
        "libcmp_number_fast.so",
        "cmp_number_fast",
        "SIGABRT",
        &["-cmp_lib", &cmp],
    );
    assert!(crasher.starts_with(b"4096000000017"));
    // The control: the fast build alone.
    finds_nothing("libcmp_number_fast.so", "cmp_number_fast", "3s", &[]);
}

#[test]
fn a_cmp_lib_that_cannot_serve_is_one_line_of_misuse() {
    // Each is refused before anything runs: exit 2, one line naming the
    // flag, no cache and no seed corpus written.
    let w = Work::new();
    let bad = [
        (
            example_lib("libladder.so"),
            "it calls no trace-cmp callbacks",
        ),
        (
            example_lib("librust_typed.so"),
            "it has no build of cmp_number_fast (it has: FuzzAllTypes",
        ),
        ("missing.so".to_string(), "missing.so"),
    ];
    for (cmp, why) in bad {
        let r = w
            .fuzz(
                example("libcmp_number_fast.so"),
                &["-fuzz", ".", "-fuzztime", "1s", "-cmp_lib", &cmp],
            )
            .expect(2);
        r.one_line_error("fuzz-run", "-cmp_lib");
        assert!(r.stderr.contains(why), "{}", r.stderr);
        assert!(
            std::fs::read_dir(w.path()).unwrap().next().is_none(),
            "nothing written"
        );
    }
}

#[test]
fn a_worker_that_cannot_start_is_misuse_not_a_finding() {
    // LLVMFuzzerInitialize exits: the library lists fine, but no worker
    // ever says hello. Exit 2, one line, nothing written.
    let w = Work::new();
    let src = w.path().join("init.c");
    std::fs::write(
        &src,
        "#include <stdlib.h>\n#include <stdint.h>\n#include <stddef.h>\n\
         int LLVMFuzzerInitialize(int *c, char ***v) { (void)c; (void)v; exit(7); }\n\
         int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n",
    )
    .unwrap();
    let lib = w.path().join("libinit.so");
    // Instrumented (gcc's trace-pc), or fuzz-run would refuse it first.
    let out = std::process::Command::new(require_tool("gcc"))
        .args(["-shared", "-fPIC", "-fsanitize-coverage=trace-pc", "-o"])
        .arg(&lib)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = w
        .fuzz(&lib, &["-fuzz", "init", "-fuzztime", "10s"])
        .expect(2);
    let last = r.stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("fuzz-run: ") && last.contains("could not start: exit status 7"),
        "{}",
        r.stderr
    );
    assert!(!w.path().join("testdata").exists());
}

#[test]
fn crash_sites_match_through_a_symlinked_library() {
    // The worker loads the canonical path; sites must still match, so the
    // crash minimizes to its five bytes.
    let w = Work::new();
    let link = w.path().join("libparse.so");
    std::os::unix::fs::symlink(example("libc_parse_clang.so"), &link).unwrap();
    let r = w.fuzz(&link, &["-fuzz", ".", "-fuzztime", "90s", "-parallel", "1"]);
    let crasher = found_one(&w, "parse", &r, "SIGSEGV");
    // Minimized to a value record alone: "TLVV", a length byte, and
    // exactly that many bytes (shrinking removes bytes and makes them
    // readable; it does not zero a length, so the length is whatever the
    // crasher found had). Unminimized crashers carry more records.
    let bytes = bytes_of(&crasher);
    assert!(
        bytes.starts_with(b"TLVV") && bytes.len() >= 5 && bytes.len() == 5 + bytes[4] as usize,
        "{bytes:?}\n{}\n{}",
        r.out(),
        r.stderr
    );
}

#[test]
fn a_count_is_exact_with_several_workers() {
    // Slices in flight are counted against -fuzztime Nx, so that two
    // workers do not overshoot it.
    for extra in [&["-seed", "3"][..], &[]] {
        let w = Work::new();
        let mut args = vec![
            "-fuzz",
            "^FuzzRecord$",
            "-json",
            "-parallel",
            "2",
            "-fuzztime",
            "12345x",
        ];
        args.extend_from_slice(extra);
        let r = w.fuzz(example("librust_typed_fixed.so"), &args).expect(0);
        let end = json_events(&r)
            .into_iter()
            .find(|e| e["event"] == "end")
            .unwrap();
        assert_eq!(end["execs"], 12345, "{extra:?}: {end}");
    }
}
