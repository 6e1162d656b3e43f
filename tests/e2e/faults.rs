//! Faults around a run and in its target: a SIGKILL of fuzz-run while it
//! fuzzes, while a worker hangs and while it minimizes, a worker killed
//! from outside, a full disk under testdata or
//! the cache. Each ends with the exact input on disk or in the report.

use crate::common::*;
use crate::work::Work;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn misbehave() -> String {
    example_lib("libmisbehave.so")
}

/// Runs `c` in a mount namespace of its own (`unshare -m`) in which `dir`
/// (relative to `c`'s working directory) is a small tmpfs filled to the
/// last byte after `prepare` (shell) ran in it. The tmpfs goes with the
/// namespace when `c` ends. Needs root, as CI runs.
fn on_a_full_disk(c: &Command, dir: &str, prepare: &str) -> Run {
    require_tool("unshare");
    require_tool("mount");
    let script = format!(
        "set -e; mkdir -p {dir}; mount -t tmpfs -o size=256k tmpfs {dir}; {prepare}; \
         cat /dev/zero > {dir}/.fill 2>/dev/null || true; exec \"$@\""
    );
    run_in_mount_namespace(c, &script)
}

#[test]
fn a_full_testdata_keeps_the_input_in_the_report_and_still_exits_1() {
    let w = Work::new();
    let seeds = w.path().join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::write(seeds.join("seed"), "go test fuzz v1\n[]byte(\"segu\")\n").unwrap();
    let lib = misbehave();
    let c = w.fuzz_command(
        &lib,
        &["-fuzz", "^FuzzSegv$", "-fuzztime", "60s", "-parallel", "1"],
    );
    let r = on_a_full_disk(
        &c,
        "testdata",
        "mkdir -p testdata/fuzz/FuzzSegv && cp seeds/seed testdata/fuzz/FuzzSegv/",
    );
    assert_eq!(
        r.code,
        1,
        "a finding, written or not\n{}\n{}",
        r.out(),
        r.stderr
    );
    let out = r.out();
    assert!(out.contains("--- FAIL: FuzzSegv"), "{out}");
    assert!(
        out.contains("Failing input could not be written to testdata/fuzz/FuzzSegv: "),
        "{out}"
    );
    assert!(out.contains("No space left on device"), "{out}");
    assert!(out.contains("Here it is, as a v1 file:"), "{out}");
    assert!(
        out.contains("    go test fuzz v1\n    []byte(\"segv\")\n"),
        "the exact input, as a v1 file: {out}"
    );
    assert!(!out.contains("To re-run"), "nothing to re-run: {out}");
}

/// A finding too large to show in the report (over 1 MiB), with testdata
/// full: written to the cache instead, and the report says where.
#[test]
fn a_finding_over_a_mib_with_testdata_full_is_written_elsewhere_and_said() {
    let w = Work::new();
    // The seed, too large for the full testdata, is in the cache.
    let lib = example_lib("libfaults.so");
    let id = fuzz_core::store::cache::library_id(Path::new(&lib)).unwrap();
    let cached = fuzz_core::store::cache::target_dir(Path::new(&w.cache()), &id, "FuzzBig");
    std::fs::create_dir_all(&cached).unwrap();
    let seed = format!("go test fuzz v1\n[]byte(\"{}\")\n", "a".repeat(1_200_000));
    std::fs::write(cached.join("big"), seed).unwrap();
    let c = w.fuzz_command(
        example_lib("libfaults.so"),
        &[
            "-fuzz",
            "^FuzzBig$",
            "-fuzztime",
            "60s",
            "-parallel",
            "1",
            "-max_len",
            "2000000",
            "-fuzzminimizetime",
            "2s",
        ],
    );
    let mut c = c;
    let marker = format!("big-{}", std::process::id());
    c.env("FUZZ_TEST_MARK", &marker);
    let r = on_a_full_disk(&c, "testdata", "true");
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    let left = marked_processes(&format!("FUZZ_TEST_MARK={marker}"));
    assert!(left.is_empty(), "processes left: {left:?}");
    assert!(nothing_torn(&w).is_empty(), "unfinished writes left");
    let out = r.out();
    assert!(
        out.contains("Failing input could not be written to testdata/fuzz/FuzzBig: "),
        "{out}"
    );
    assert!(!out.contains("It was not kept"), "{out}");
    let at = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("It was written to "))
        .and_then(|l| l.strip_suffix(" instead."))
        .unwrap_or_else(|| panic!("where it went: {out}"));
    let kept = std::fs::read(at).unwrap();
    let values = fuzz_core::format::codec::decode(&kept).unwrap();
    let bytes = values[0].as_bytes().unwrap();
    assert!(bytes.len() > 1_100_000, "{}", bytes.len());
    assert!(bytes.iter().any(|&b| b != b'a'));
    // It replays as the failure it was.
    let again = run_in(
        w.path(),
        "fuzz-worker",
        &[
            "run",
            "-target",
            "FuzzBig",
            &example_lib("libfaults.so"),
            at,
        ],
    );
    assert_eq!(again.code, 1, "{}", again.out());
}

#[test]
fn a_full_cache_is_one_warning_and_fuzzing_goes_on() {
    let w = Work::new();
    let lib = example_lib("libc_parse_gcc_fixed.so");
    let c = w.fuzz_command(
        &lib,
        &["-fuzz", "c_parse", "-fuzztime", "3s", "-parallel", "1"],
    );
    let r = on_a_full_disk(&c, "cache", "true");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("cannot write the cache"))
        .collect();
    assert_eq!(warnings.len(), 1, "one warning:\n{}", r.stderr);
    assert!(
        warnings[0].contains("No space left on device"),
        "{}",
        warnings[0]
    );
    let done = r
        .stderr
        .lines()
        .find(|l| l.starts_with("fuzz: done:"))
        .unwrap();
    assert!(done.contains("stopped: time"), "{done}");
    assert!(
        !done.contains("corpus 0 "),
        "the corpus grew in memory: {done}"
    );
}

#[test]
fn a_sigkill_while_minimizing_leaves_the_input_as_found() {
    let w = Work::new();
    // No 'F' in the seed: the failure is found by mutation, and every
    // candidate of its minimization takes 5 ms.
    w.seed(
        "FuzzSlowFail",
        "seed",
        format!("go test fuzz v1\n[]byte({:?})\n", "a".repeat(600)),
    );
    let lib = misbehave();
    // -reduce_inputs 0: every input reaches the same code, so with it on the
    // pool's entry shrinks while fuzzing and the failure may be found in an
    // input shorter than the 500 bytes that tell "as found" from minimized.
    let run = w.start_fuzz(
        &lib,
        &[
            "-fuzz",
            "^FuzzSlowFail$",
            "-parallel",
            "1",
            "-reduce_inputs",
            "0",
        ],
    );
    let stderr = run.stderr_path();
    let start = Instant::now();
    while !std::fs::read_to_string(&stderr)
        .unwrap_or_default()
        .contains("fuzz: minimizing")
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no failure to minimize in 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = run.pid();
    // Its scratch directory (shared memory, stderr captures), looked at
    // while it runs: after the SIGKILL any tool that starts workers may
    // remove it, and the other tests running beside this one do.
    let scratch = || scratch_dirs_of(pid);
    assert_eq!(scratch().len(), 1, "{:?}", scratch());
    let left = run.kill();
    assert!(left.is_empty(), "processes left running: {left:?}");
    // The next tool that starts workers removes what the killed one left.
    w.fuzz(&lib, &["-fuzz", "^FuzzOk$", "-fuzztime", "1x"])
        .expect(0);
    assert!(scratch().is_empty(), "{:?}", scratch());
    let crashers = w.crashers("FuzzSlowFail");
    assert_eq!(crashers.len(), 1, "{crashers:?}");
    let bytes = std::fs::read(&crashers[0]).unwrap();
    let values = fuzz_core::format::codec::decode(&bytes).unwrap();
    let input = values[0].as_bytes().unwrap();
    assert!(input.contains(&b'F'), "the failing input as found");
    assert!(input.len() > 500, "not minimized: {} bytes", input.len());
    // It replays as a failure.
    let r = run_in(
        w.path(),
        "fuzz-worker",
        &[
            "run",
            &lib,
            "-target",
            "FuzzSlowFail",
            crashers[0].to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
}

/// Nothing torn after a SIGKILL: every cache entry and every seed-corpus
/// file under the run's directory is a whole v1 file. Returns the
/// unfinished writes left behind (`.tmp-<boot>-<pid>-…` files, which the
/// next start of fuzz-run sweeps because their owner is gone).
fn nothing_torn(w: &Work) -> Vec<std::path::PathBuf> {
    let mut unfinished = Vec::new();
    for e in walkdir::WalkDir::new(w.path()).min_depth(1) {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy();
        if name.starts_with(".tmp-") {
            unfinished.push(e.into_path());
        } else if e.file_type().is_file() && name != "CACHEDIR.TAG" {
            let bytes = std::fs::read(e.path()).unwrap();
            assert!(
                fuzz_core::format::codec::decode(&bytes).is_ok(),
                "torn: {}",
                e.path().display()
            );
        }
    }
    unfinished
}

#[test]
fn a_sigkill_while_fuzzing_leaves_no_process_and_nothing_torn() {
    let lib = example_lib("libc_parse_clang_fixed.so");
    let fuzz = ["-fuzz", "^c_parse_clang_fixed$", "-parallel", "2"];
    // Early (workers starting, the baseline) and later (fuzzing, the
    // cache being written).
    for after in [Duration::from_millis(700), Duration::from_secs(3)] {
        let w = Work::new();
        let run = w.start_fuzz(&lib, &fuzz);
        std::thread::sleep(after);
        let left = run.kill();
        assert!(left.is_empty(), "after {after:?}, processes left: {left:?}");
        let unfinished = nothing_torn(&w);
        if after >= Duration::from_secs(3) {
            assert!(!w.cache_entries().is_empty(), "it had been fuzzing");
        }
        assert!(w.testdata("c_parse_clang_fixed").is_empty(), "no finding");
        // What a write cut short left, the next run sweeps; the entries
        // (every other file) stay.
        let kept: Vec<_> = w
            .cache_entries()
            .into_iter()
            .filter(|f| !unfinished.contains(f))
            .collect();
        let again = w.fuzz(&lib, &[&fuzz[..], &["-fuzztime", "1x"]].concat());
        assert_eq!(again.code, 0, "{}", again.out());
        for f in &unfinished {
            assert!(!f.exists(), "not swept: {}", f.display());
        }
        let now = w.cache_entries();
        assert!(kept.iter().all(|k| now.contains(k)), "{kept:?}\n{now:?}");
    }
}

#[test]
fn a_sigkill_while_a_worker_hangs_leaves_no_process_and_nothing_torn() {
    let w = Work::new();
    w.seed("FuzzHang", "hang", "go test fuzz v1\n[]byte(\"hang\")\n");
    let lib = misbehave();
    let run = w.start_fuzz(
        &lib,
        &["-fuzz", "^FuzzHang$", "-parallel", "1", "-timeout", "60s"],
    );
    // The baseline runs the seed: the worker loops for its 60 s.
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(run.processes(), 2, "fuzz-run and its hanging worker");
    let left = run.kill();
    assert!(left.is_empty(), "processes left: {left:?}");
    assert_eq!(nothing_torn(&w), Vec::<std::path::PathBuf>::new());
    assert_eq!(w.testdata("FuzzHang").len(), 1, "only the seed");
}

/// The scratch directories of the tool process `pid` in /dev/shm.
#[test]
fn a_worker_killed_from_outside_is_saved_saying_it_did_not_fail_again() {
    let w = Work::new();
    let lib = example_lib("libc_parse_gcc_fixed.so");
    let run = w.start_fuzz(
        &lib,
        &[
            "-fuzz",
            "c_parse",
            "-fuzztime",
            "60s",
            "-parallel",
            "1",
            "-json",
        ],
    );
    std::thread::sleep(Duration::from_secs(2));
    // SIGKILL the worker, as the kernel's OOM killer would.
    let pids = run.worker_pids();
    assert_eq!(pids.len(), 1, "{pids:?}");
    // SAFETY: signalling a process this test's run started.
    unsafe { libc::kill(pids[0], libc::SIGKILL) };
    let r = run.wait();
    assert_eq!(r.code, 1, "{}", r.stderr);
    let failure: serde_json::Value = r
        .out()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["event"] == "failure")
        .expect("a failure event");
    assert_eq!(failure["kind"], "SIGKILL");
    assert_eq!(
        failure["site"], "SIGKILL",
        "a death without a stack: its kind"
    );
    assert_eq!(failure["reproducible"], false, "{failure}");
    assert!(failure["message"]
        .as_str()
        .unwrap()
        .contains("fuzzing process crashed: SIGKILL"));
    let path = failure["path"].as_str().unwrap();
    assert!(w.path().join(path).is_file(), "{path}");
    // Without -json, the report says it in words.
    let _ = Path::new(path);
}

/// One row of the fault matrix: a target that misbehaves one way, the seed
/// one byte away from its trigger, and what must come of it.
struct Fault {
    lib: &'static str,
    target: &'static str,
    seed: &'static str,
    flags: &'static [&'static str],
    /// In the report's headline.
    kind: &'static str,
    /// The exact input saved (minimized: the trigger itself), one of
    /// these when the seed is one mutation away from more than one failure.
    inputs: &'static [&'static [u8]],
}

const MATRIX: &[Fault] = &[
    Fault {
        lib: "libmisbehave.so",
        target: "FuzzSegv",
        seed: "segu",
        flags: &[],
        kind: "crashed: SIGSEGV",
        inputs: &[b"segv"],
    },
    Fault {
        lib: "libmisbehave.so",
        target: "FuzzAbort",
        seed: "abors",
        flags: &[],
        kind: "crashed: SIGABRT",
        inputs: &[b"abort"],
    },
    Fault {
        lib: "libmisbehave.so",
        target: "FuzzExit",
        seed: "exis",
        flags: &[],
        kind: "exit status 3",
        inputs: &[b"exit"],
    },
    Fault {
        lib: "libmisbehave.so",
        target: "FuzzHang",
        seed: "hanf",
        flags: &["-timeout", "1s"],
        kind: "hung",
        inputs: &[b"hang"],
    },
    Fault {
        lib: "libmisbehave.so",
        target: "FuzzOOM",
        seed: "ooo",
        flags: &["-rss_limit_mb", "300"],
        kind: "out of memory",
        inputs: &[b"oom"],
    },
    Fault {
        lib: "libmisbehave.so",
        target: "FuzzStackOverflow",
        seed: "deeo",
        flags: &[],
        kind: "stack overflow",
        inputs: &[b"deep"],
    },
    // The signals a job is stopped with, sent by the target to its own
    // process group or to itself: findings (not stops), found and replayed.
    Fault {
        lib: "libfaults.so",
        target: "FuzzKillGroup",
        seed: "grouq",
        flags: &[],
        kind: "crashed: SIGTERM",
        inputs: &[b"group"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzRaiseTerm",
        seed: "tern",
        flags: &[],
        kind: "crashed: SIGTERM",
        inputs: &[b"term"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzRaiseInt",
        seed: "intq",
        flags: &[],
        kind: "crashed: SIGINT",
        inputs: &[b"intr"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzKillSelf",
        seed: "kilk",
        flags: &[],
        kind: "crashed: SIGKILL",
        inputs: &[b"kill"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzExitZero",
        seed: "donf",
        flags: &[],
        kind: "exit status 0",
        inputs: &[b"done"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzThread",
        seed: "threae",
        flags: &[],
        kind: "crashed: SIGSEGV",
        inputs: &[b"thread"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzCloseFds",
        seed: "closf",
        flags: &[],
        kind: "lost its pipes",
        inputs: &[b"close"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzQuiet",
        seed: "quieu",
        flags: &[],
        kind: "crashed: SIGSEGV",
        inputs: &[b"quiet"],
    },
    Fault {
        lib: "libfaults.so",
        target: "FuzzNoisy",
        seed: "noisx",
        flags: &[],
        kind: "crashed: SIGABRT",
        inputs: &[b"noisy"],
    },
    Fault {
        // A Rust panic in a libFuzzer entry: `data[4]` of a 4-byte input, or
        // its other panic, a body past the end, whose smallest input is the
        // length byte '0' (48) and no body: FUZ3 is a mutation or two from
        // either (the search finds the second in about a third of runs).
        lib: "librust_bytes.so",
        target: "rust_bytes",
        seed: "FUZ3",
        flags: &[],
        kind: "crashed: SIGABRT (Rust panic)",
        inputs: &[b"FUZ2", b"FUZ20"],
    },
];

#[test]
fn the_fault_matrix_saves_each_exact_input_and_leaves_nothing_behind() {
    for f in MATRIX {
        let w = Work::new();
        w.seed(
            f.target,
            "seed",
            format!("go test fuzz v1\n[]byte({:?})\n", f.seed),
        );
        let lib = example_lib(f.lib);
        let mut args = vec![
            "-fuzz",
            &format!("^{}$", f.target)[..],
            "-fuzztime",
            "60s",
            "-parallel",
            "1",
        ]
        .into_iter()
        .map(str::to_string)
        .collect::<Vec<_>>();
        args.extend(f.flags.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let start = Instant::now();
        let run = w.start_fuzz(&lib, &args);
        let r = run.wait_all();
        let took = start.elapsed();
        assert_eq!(r.code, 1, "{}: {}\n{}", f.target, r.out(), r.stderr);
        let out = r.out();
        assert!(
            out.contains(f.kind),
            "{}: want {:?} in\n{out}",
            f.target,
            f.kind
        );
        let crashers = w.crashers(f.target);
        assert_eq!(crashers.len(), 1, "{}: {crashers:?}", f.target);
        let bytes = std::fs::read(&crashers[0]).unwrap();
        let values = fuzz_core::format::codec::decode(&bytes).unwrap();
        let saved = values[0].as_bytes().unwrap();
        assert!(
            f.inputs.contains(&saved),
            "{}: the exact input: {saved:?} is none of {:?}",
            f.target,
            f.inputs
        );
        // A report keeps at most the first and last 32 KiB of the target's
        // output; the crash header survives a closed stderr.
        assert!(
            out.len() < 80 << 10,
            "{}: a {} byte report",
            f.target,
            out.len()
        );
        if f.target == "FuzzNoisy" {
            assert!(out.contains("bytes of the target's output cut"), "{out}");
        }
        if f.target == "FuzzQuiet" {
            assert!(
                out.contains("==fuzz-worker== deadly signal SIGSEGV"),
                "{out}"
            );
        }
        // It replays as the same failure.
        let name = crashers[0].file_name().unwrap().to_str().unwrap();
        let mut replay = vec!["-run".to_string(), format!("{}/{name}", f.target)];
        replay.extend(f.flags.iter().map(|s| s.to_string()));
        replay.push(lib.clone());
        let replay: Vec<&str> = replay.iter().map(String::as_str).collect();
        let again = run_in(w.path(), "fuzz-run", &replay);
        assert_eq!(again.code, 1, "{}: replay\n{}", f.target, again.out());
        if f.kind.starts_with("crashed: SIG") {
            assert!(
                again.out().contains(f.kind),
                "{}: replay\n{}",
                f.target,
                again.out()
            );
        }
        // And so does fuzz-worker run, on the file.
        let mut args = vec!["run", "-target", f.target];
        args.extend(f.flags);
        args.extend([&lib[..], crashers[0].to_str().unwrap()]);
        let worker = run_in(w.path(), "fuzz-worker", &args);
        assert_eq!(
            worker.code,
            1,
            "{}: fuzz-worker run\n{}",
            f.target,
            worker.out()
        );
        // A finding ends the run long before its -fuzztime of 60 s.
        assert!(took < Duration::from_secs(30), "{}: {took:?}", f.target);
        eprintln!("fault matrix: {} reported in {took:.1?}", f.target);
    }
}

#[test]
fn a_target_that_forks_is_warned_of_once_and_its_children_go() {
    let w = Work::new();
    w.seed("FuzzFork", "seed", "go test fuzz v1\n[]byte(\"forj\")\n");
    let run = w.start_fuzz(
        example_lib("libfaults.so"),
        &["-fuzz", "^FuzzFork$", "-fuzztime", "4s", "-parallel", "1"],
    );
    let r = run.wait_all();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("the target forks"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", r.stderr);
}

#[test]
fn keepfuzzing_keeps_one_crasher_per_bug() {
    // Four bugs without a stack (exit 3, SIGKILL, a hang, exit 0), and two
    // Rust panics at different places in one libFuzzer entry.
    let cases: &[(&str, &str, &str, &[&str], usize)] = &[
        (
            "libfaults.so",
            "FuzzFourBugs",
            "go test fuzz v1\n[]byte(\"x\")\n",
            &["-timeout", "1s", "-parallel", "2"],
            4,
        ),
        (
            "librust_bytes.so",
            "rust_bytes",
            "go test fuzz v1\n[]byte(\"FUZ1abc\")\n",
            &["-parallel", "1"],
            2,
        ),
    ];
    for (lib, target, seed, flags, want) in cases {
        let w = Work::new();
        w.seed(target, "seed", seed);
        let mut args = vec!["-fuzz", target, "-keepfuzzing", "-fuzztime", "20s"];
        args.extend_from_slice(flags);
        let run = w.start_fuzz(example_lib(lib), &args);
        let r = run.wait_all();
        assert_eq!(r.code, 1, "{target}: {}", r.stderr);
        let crashers = w.crashers(target);
        assert_eq!(crashers.len(), *want, "{target}: {crashers:?}\n{}", r.out());
        for c in &crashers {
            let name = c.file_name().unwrap().to_str().unwrap();
            let lib = example_lib(lib);
            let mut replay = vec!["-run".to_string(), format!("{target}/{name}")];
            replay.extend(
                flags
                    .iter()
                    .filter(|f| **f != "-parallel" && **f != "2" && **f != "1")
                    .map(|s| s.to_string()),
            );
            replay.push(lib);
            let replay: Vec<&str> = replay.iter().map(String::as_str).collect();
            assert_eq!(
                run_in(w.path(), "fuzz-run", &replay).code,
                1,
                "{target}/{name} replays"
            );
        }
    }
}

/// Ctrl-C while a failure is minimized: the input is recorded as small as
/// minimizing had made it, and the report says the minimization was cut
/// short (it is not minimal).
#[test]
fn a_minimization_cut_short_by_ctrl_c_is_said() {
    let w = Work::new();
    // Every execution sleeps 5 ms; an input with an 'F' fails.
    w.seed(
        "FuzzSlowFail",
        "seed",
        format!("go test fuzz v1\n[]byte({:?})\n", "G".repeat(4000)),
    );
    let run = w.start_fuzz(
        misbehave(),
        &[
            "-fuzz",
            "^FuzzSlowFail$",
            "-parallel",
            "1",
            "-fuzztime",
            "60s",
        ],
    );
    let start = Instant::now();
    while !std::fs::read_to_string(run.stderr_path())
        .unwrap_or_default()
        .contains("minimizing")
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no failure found"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(50));
    let r = run.interrupt();
    assert_eq!(r.code, 1, "a crasher saved\n{}", r.stderr);
    let out = r.out();
    assert!(out.contains("--- FAIL: FuzzSlowFail"), "{out}");
    assert!(out.contains("minimization was cut short"), "{out}");
    assert_eq!(w.crashers("FuzzSlowFail").len(), 1, "{out}");
}

/// Without -keepfuzzing, two workers on a target with several shallow
/// bugs: the run stops at its first finding, and every crasher it leaves in
/// testdata is one it reported and counted (a second worker's crash, saved
/// as it began, used to stay behind unreported when the run stopped).
#[test]
fn every_crasher_written_is_reported_and_counted() {
    for run in 0..20 {
        let w = Work::new();
        w.seed("FuzzFourBugs", "seed", "go test fuzz v1\n[]byte(\"x\")\n");
        let r = w
            .start_fuzz(
                example_lib("libfaults.so"),
                &[
                    "-fuzz",
                    "^FuzzFourBugs$",
                    "-fuzztime",
                    "30s",
                    "-parallel",
                    "2",
                    "-timeout",
                    "1s",
                ],
            )
            .wait_all();
        assert_eq!(r.code, 1, "run {run}: {}", r.stderr);
        assert!(
            nothing_torn(&w).is_empty(),
            "run {run}: unfinished writes left"
        );
        let files = w.crashers("FuzzFourBugs");
        let out = r.out();
        for f in &files {
            let name = f.file_name().unwrap().to_str().unwrap();
            assert!(
                out.contains(name),
                "run {run}: {name} not reported:\n{out}\n{}",
                r.stderr
            );
        }
        let counted = r
            .stderr
            .lines()
            .find_map(|l| l.split("crashers ").nth(1))
            .and_then(|c| c.split(';').next())
            .and_then(|c| c.trim().parse::<usize>().ok())
            .unwrap_or_else(|| panic!("run {run}: no count\n{}", r.stderr));
        assert_eq!(counted, files.len(), "run {run}: {files:?}\n{}", r.stderr);
    }
}

/// Under -keepfuzzing, an easy exit() found again and again costs no new
/// worker each time: the worker's own exit() returns from the call at a
/// recorded site. Before, every one cost a process start (about 1,250
/// executions a second against 250,000: bench/keepfuzzing-ends.sh); the
/// bound here is 20 times below what a debug build does, and 8 times above
/// what restarts allowed.
#[test]
fn keepfuzzing_after_an_easy_exit_keeps_its_workers() {
    let w = Work::new();
    w.seed("FuzzEasyExit", "seed", "go test fuzz v1\n[]byte(\"F\")\n");
    let run = w.start_fuzz(
        example_lib("libfaults.so"),
        &[
            "-fuzz",
            "^FuzzEasyExit$",
            "-keepfuzzing",
            "-fuzztime",
            "5s",
            "-parallel",
            "1",
            "-json",
        ],
    );
    let r = run.wait_all();
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(w.crashers("FuzzEasyExit").len(), 1);
    let end: serde_json::Value = r
        .out()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| e["event"] == "end")
        .expect("an end event");
    let execs = end["execs"].as_u64().unwrap();
    assert!(execs >= 50_000, "{execs} executions in 5 s: {end}");
}

/// A crash whose report blocks: glibc's malloc aborts on a corrupted heap
/// holding its arena's lock, and the worker's crash handler, whose
/// backtrace allocates, waits on that lock until -timeout ends the worker.
/// The input is on disk at once all the same: the handler tells fuzz-run
/// before it writes anything else, and fuzz-run saves the input from the
/// worker's shared memory.
#[test]
fn a_crash_whose_report_blocks_has_its_input_saved_at_once() {
    let w = Work::new();
    w.seed("FuzzHeap", "seed", "go test fuzz v1\n[]byte(\"heaq\")\n");
    let lib = example_lib("libfaults.so");
    let args = [
        "-fuzz",
        "^FuzzHeap$",
        "-fuzztime",
        "60s",
        "-parallel",
        "1",
        "-timeout",
        "8s",
    ];
    let started = std::time::SystemTime::now();
    let r = w.start_fuzz(&lib, &args).wait_all();
    let ended = std::time::SystemTime::now();
    // Saved early and recorded later: no half-written file anywhere.
    no_unfinished_writes(w.path());
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    assert!(r.out().contains("corrupted top size"), "{}", r.out());
    let crashers = w.crashers("FuzzHeap");
    assert_eq!(crashers.len(), 1, "{crashers:?}");
    let values = fuzz_core::format::codec::decode(&std::fs::read(&crashers[0]).unwrap()).unwrap();
    assert_eq!(values[0].as_bytes().unwrap(), b"heap");
    let saved = std::fs::metadata(&crashers[0]).unwrap().modified().unwrap();
    let after_start = saved.duration_since(started).unwrap();
    let before_end = ended.duration_since(saved).unwrap();
    // Saved before -timeout could end the blocked worker (the build before
    // saved it then, 8.5 s in), and so more than the two -timeouts before
    // the end that the worker and the check in a fresh one each waited
    // (16.5 s here; the build before: 8 s).
    assert!(
        after_start < Duration::from_secs(8) && before_end > Duration::from_secs(12),
        "saved {after_start:?} after the start, {before_end:?} before the end\n{}",
        r.out()
    );
}
