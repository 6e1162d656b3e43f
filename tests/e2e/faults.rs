//! Faults around a run and in its target: a SIGKILL of fuzz-run while it
//! minimizes, a worker killed from outside, a full disk under testdata or
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
    let mut u = Command::new("unshare");
    u.args(["-m", "--propagation", "private", "sh", "-c", &script, "sh"])
        .arg(c.get_program())
        .args(c.get_args());
    if let Some(cwd) = c.get_current_dir() {
        u.current_dir(cwd);
    }
    for (k, v) in c.get_envs() {
        match v {
            Some(v) => u.env(k, v),
            None => u.env_remove(k),
        };
    }
    run_command(u)
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
    let run = w.start_fuzz(&lib, &["-fuzz", "^FuzzSlowFail$", "-parallel", "1"]);
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
    let left = run.kill();
    assert!(left.is_empty(), "processes left running: {left:?}");
    // Its scratch directory (shared memory, stderr captures) is left, and
    // the next tool that starts workers removes it.
    let scratch = || scratch_dirs_of(pid);
    assert_eq!(scratch().len(), 1, "{:?}", scratch());
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

/// The scratch directories of the tool process `pid` in /dev/shm.
fn scratch_dirs_of(pid: u32) -> Vec<String> {
    std::fs::read_dir("/dev/shm")
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("fuzz-tools-") && n.contains(&format!("-{pid}-")))
        .collect()
}

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
