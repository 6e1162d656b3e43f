//! Limits, hangs and signals that mean the same in every tool: a hang is
//! reported in -timeout plus well under a second in every mode (the
//! warm-up pays for lazy initialisation once), every phase stops within a
//! second of SIGINT, SIGTERM or SIGHUP, and a limit of 0 means no limit.

use crate::common::*;
use crate::work::Work;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn misbehave() -> String {
    example_lib("libmisbehave.so")
}

/// Runs `c` and returns what it did and how long it took.
fn timed(c: Command) -> (Run, Duration) {
    let start = Instant::now();
    let r = run_command(c);
    (r, start.elapsed())
}

/// Asserts that a hang under `-timeout 1s` was reported within 1 s plus
/// well under a second (the allowance of the warm-up is not spent on it).
#[track_caller]
fn within_a_second_of_the_timeout(took: Duration, what: &str) {
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_millis(1900),
        "{what}: the hang took {took:?} to report with -timeout 1s"
    );
}

#[test]
fn a_hang_is_reported_in_the_timeout_in_every_mode() {
    let w = Work::new();
    let lib = misbehave();
    let hang = known_input("misbehave.FuzzHang");
    w.seed("FuzzHang", "hang", std::fs::read(&hang).unwrap());

    // fuzz-worker run.
    let (r, took) = timed(cmd(
        w.path(),
        "fuzz-worker",
        &["run", "-timeout", "1s", &lib, "-target", "FuzzHang", &hang],
    ));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.out().contains("timed out after 1s"), "{}", r.out());
    within_a_second_of_the_timeout(took, "fuzz-worker run");

    // Regression replay.
    let (r, took) = timed(cmd(
        w.path(),
        "fuzz-run",
        &["-run", "FuzzHang", "-timeout", "1s", &lib],
    ));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.out().contains("timed out after 1s"), "{}", r.out());
    within_a_second_of_the_timeout(took, "regression replay");

    // fuzz-corpus merge -lib: the hanging entry is skipped.
    let dst = w.path().join("merged");
    let seeds = w.path().join("testdata/fuzz/FuzzHang");
    let (r, took) = timed(cmd(
        w.path(),
        "fuzz-corpus",
        &[
            "merge",
            "-lib",
            &lib,
            "-target",
            "FuzzHang",
            "-timeout",
            "1s",
            dst.to_str().unwrap(),
            seeds.to_str().unwrap(),
        ],
    ));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("timeout"), "{}", r.stderr);
    within_a_second_of_the_timeout(took, "merge -lib");

    // Fuzz mode: a hanging seed during the baseline.
    let (r, took) = timed(w.fuzz_command(
        &lib,
        &["-fuzz", "^FuzzHang$", "-timeout", "1s", "-parallel", "1"],
    ));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.out().contains("ran longer than 1s (-timeout)"),
        "{}",
        r.out()
    );
    within_a_second_of_the_timeout(took, "fuzz mode");
}

/// Starts `c` with its output discarded and its processes marked.
fn start(mut c: Command, mark: &str) -> Child {
    c.env("FUZZ_TEST_MARK", mark)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// How a phase ends when stopped: fuzzing (and minimizing, which keeps
/// the smallest input so far) exits 0, as that is how it is stopped; a job
/// with a fixed amount of work (a replay, `run`, a merge) did not finish,
/// and exits 128 + the signal, as a shell reports a killed command.
#[derive(Clone, Copy, PartialEq)]
enum Ends {
    Done,
    Unfinished,
}

/// Sends `signal` once `c` has run for `after`, and asserts it ended
/// within a second with the exit code `ends` gives, and left no process of
/// its own behind.
#[track_caller]
fn stops_within_a_second(c: Command, after: Duration, signal: i32, phase: &str, ends: Ends) {
    let mark = format!("{phase}-{}", std::process::id());
    let marker = format!("FUZZ_TEST_MARK={mark}");
    let mut child = start(c, &mark);
    std::thread::sleep(after);
    let sent = Instant::now();
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("{phase}: still running 5 s after signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    assert!(
        took < Duration::from_secs(1),
        "{phase}: stopped after {took:?}"
    );
    let want = match ends {
        Ends::Done => 0,
        Ends::Unfinished => 128 + signal,
    };
    assert_eq!(status.code(), Some(want), "{phase}: signal {signal}");
    std::thread::sleep(Duration::from_millis(200));
    let left = marked_processes(&marker);
    assert!(left.is_empty(), "{phase}: processes left: {left:?}");
}

#[test]
fn every_phase_stops_within_a_second_of_a_signal() {
    let w = Work::new();
    let lib = misbehave();
    w.seed(
        "FuzzHang",
        "hang",
        std::fs::read(known_input("misbehave.FuzzHang")).unwrap(),
    );
    let hang_seed = w.path().join("testdata/fuzz/FuzzHang");
    let (int, term, hup) = (libc::SIGINT, libc::SIGTERM, libc::SIGHUP);
    let at = Duration::from_millis(1500);

    // Replaying a hang, in fuzz-worker run and in regression replay.
    let hang = known_input("misbehave.FuzzHang");
    let run = cmd(
        w.path(),
        "fuzz-worker",
        &["run", "-timeout", "60s", &lib, "-target", "FuzzHang", &hang],
    );
    stops_within_a_second(run, at, term, "fuzz-worker run (a hang)", Ends::Unfinished);
    let replay = cmd(
        w.path(),
        "fuzz-run",
        &["-run", "FuzzHang", "-timeout", "60s", &lib],
    );
    stops_within_a_second(
        replay,
        at,
        hup,
        "regression replay (a hang)",
        Ends::Unfinished,
    );

    // The baseline, on a hanging seed; fuzzing.
    let baseline = w.fuzz_command(&lib, &["-fuzz", "^FuzzHang$", "-timeout", "60s"]);
    stops_within_a_second(baseline, at, int, "baseline (a hang)", Ends::Done);
    let fuzzing = w.fuzz_command(
        example_lib("libc_parse_gcc_fixed.so"),
        &["-fuzz", "c_parse"],
    );
    stops_within_a_second(fuzzing, at, term, "fuzzing", Ends::Done);

    // merge -lib and cover, each on a hanging entry.
    let dst = w.path().join("merged");
    let merge = cmd(
        w.path(),
        "fuzz-corpus",
        &[
            "merge",
            "-lib",
            &lib,
            "-target",
            "FuzzHang",
            "-timeout",
            "60s",
            dst.to_str().unwrap(),
            hang_seed.to_str().unwrap(),
        ],
    );
    // (cover runs its entries through the same worker session as merge:
    // libmisbehave.so, a gcc trace-pc build, has no PC table to cover.)
    stops_within_a_second(merge, at, hup, "merge -lib (a hang)", Ends::Unfinished);

    // Minimizing.
    let slow = w.path().join("slow");
    std::fs::write(
        &slow,
        format!("go test fuzz v1\n[]byte({:?})\n", "F".repeat(400)),
    )
    .unwrap();
    let minimize = cmd(
        w.path(),
        "fuzz-minimize",
        &[
            &lib,
            "-target",
            "FuzzSlowFail",
            slow.to_str().unwrap(),
            "-o",
            "small",
        ],
    );
    stops_within_a_second(minimize, at, term, "minimizing", Ends::Done);
}

#[test]
fn limits_of_zero_mean_no_limit() {
    let w = Work::new();
    let lib = example_lib("libc_parse_gcc_fixed.so");
    // A bug-free library: no limit means no false crasher.
    for flags in [["-timeout", "0"], ["-rss_limit_mb", "0"]] {
        let mut args = vec!["-fuzz", "c_parse", "-fuzztime", "2s", "-parallel", "1"];
        args.extend(flags);
        let r = w.fuzz(&lib, &args);
        assert_eq!(r.code, 0, "{flags:?}\n{}\n{}", r.out(), r.stderr);
        assert!(w.crashers("c_parse_gcc_fixed").is_empty(), "{flags:?}");
    }
    // -fuzztime 0: until stopped.
    let run = w.start_fuzz(
        &lib,
        &["-fuzz", "c_parse", "-fuzztime", "0", "-parallel", "1"],
    );
    std::thread::sleep(Duration::from_secs(2));
    assert!(run.processes() >= 2, "-fuzztime 0 ended the run");
    let r = run.interrupt();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("stopped: interrupted"), "{}", r.stderr);

    // fuzz-worker run and fuzz-minimize: no limit is no limit, for a
    // passing input and a failing one.
    let ok = w.path().join("ok");
    std::fs::write(&ok, "go test fuzz v1\n[]byte(\"TLVK\\x01a\")\n").unwrap();
    let mis = misbehave();
    for flags in [["-timeout", "0"], ["-rss_limit_mb", "0"]] {
        let mut args = vec!["run", lib.as_str(), ok.to_str().unwrap()];
        args.extend(flags);
        run_in(w.path(), "fuzz-worker", &args).expect(0);
        let fail = known_input("misbehave.FuzzFail");
        let mut args = vec![
            mis.as_str(),
            "-target",
            "FuzzFail",
            fail.as_str(),
            "-o",
            "min",
        ];
        args.extend(flags);
        let r = run_in(w.path(), "fuzz-minimize", &args);
        assert_eq!(r.code, 0, "{flags:?}: {}", r.stderr);
        let min = std::fs::read_to_string(w.path().join("min")).unwrap();
        assert!(
            min.contains("[]byte(\"x\")"),
            "{flags:?}: still fails: {min}"
        );
    }

    // What is refused: a memory limit below an idle worker's use, and
    // counts that are no limit at all.
    let w = Work::new();
    let r = w.fuzz(
        &lib,
        &["-fuzz", "c_parse", "-rss_limit_mb", "1", "-fuzztime", "5s"],
    );
    let r = r.expect(2);
    let last = r.stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("fuzz-run: -rss_limit_mb 1: a worker uses "),
        "{}",
        r.stderr
    );
    for (flag, value) in [("-max_len", "0"), ("-parallel", "10000")] {
        let r = w.fuzz(&lib, &["-fuzz", "c_parse", flag, value, "-fuzztime", "5s"]);
        r.expect(2).one_line_error("fuzz-run", flag);
    }
    assert!(w.cache_entries().is_empty(), "refused runs wrote nothing");
}

#[test]
fn a_library_without_coverage_instrumentation_is_not_fuzzed_but_replays() {
    let d = tempdir();
    let lib = gcc_so(
        d.path(),
        "libplain.so",
        "#include <stddef.h>\n#include <stdint.h>\n\
         int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return n > 3 && d[0] == 'x'; }\n",
    );
    let work = d.path().join("work");
    std::fs::create_dir_all(work.join("testdata/fuzz/plain")).unwrap();
    std::fs::write(
        work.join("testdata/fuzz/plain/seed"),
        "go test fuzz v1\n[]byte(\"abc\")\n",
    )
    .unwrap();
    let before = snapshot(&work);
    let cache = d.path().join("cache");
    let r = run_in(
        &work,
        "fuzz-run",
        &[
            "-fuzz",
            ".",
            "-fuzztime",
            "2s",
            "-fuzzcachedir",
            cache.to_str().unwrap(),
            &lib,
        ],
    )
    .expect(2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("fuzz-run: ")
            && r.stderr
                .contains("libplain.so: the library has no coverage instrumentation")
            && r.stderr.contains("-fsanitize-coverage="),
        "{}",
        r.stderr
    );
    assert_eq!(
        snapshot(&work),
        before,
        "fuzz-run changed the work directory"
    );
    assert!(
        !cache.exists(),
        "fuzz-run made a cache for a run it refused"
    );
    // fuzz-worker says so in its listing; replay still runs the seeds.
    let listed = run_in(&work, "fuzz-worker", &["list", "-json", &lib]).expect(0);
    assert!(
        listed.out().contains("\"coverage\":false"),
        "{}",
        listed.out()
    );
    let r = run_in(&work, "fuzz-run", &["-v", &lib]).expect(0);
    assert!(r.out().contains("--- PASS: plain/seed"), "{}", r.out());
    // A merge by coverage would keep nothing: refused, as fuzzing is
    // (issue 33: it kept 0 entries and exited 0), writing nothing.
    let before = snapshot(&work);
    let r = run_in(
        &work,
        "fuzz-corpus",
        &["merge", "-lib", &lib, "merged", "testdata/fuzz/plain"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "the library has no coverage instrumentation");
    assert_eq!(
        snapshot(&work),
        before,
        "merge -lib changed the work directory"
    );
    // An instrumented library lists as such.
    let listed = run_in(
        &work,
        "fuzz-worker",
        &["list", "-json", &example_lib("libc_parse_gcc.so")],
    )
    .expect(0);
    assert!(
        listed.out().contains("\"coverage\":true"),
        "{}",
        listed.out()
    );
}

/// A scheduler that stops a job (Slurm's scancel and time limit, systemd's
/// control group) signals every process of it, the workers too, and a
/// worker may die of it before fuzz-run's own handler has run: that is a
/// stop, not a crash of the target, and nothing is written to testdata.
/// Here every worker gets the signal 50 ms before fuzz-run does, the worst
/// order. A worker killed so while fuzz-run is not stopping is a finding
/// still, named by its signal.
#[test]
fn a_signal_to_every_process_of_a_run_is_a_stop_not_a_finding() {
    let lib = example_lib("libc_parse_gcc_fixed.so");
    let fuzzing_with = |w: &Work, parallel: &str| {
        let run = w.start_fuzz(&lib, &["-fuzz", "c_parse", "-parallel", parallel]);
        std::thread::sleep(Duration::from_millis(1500));
        let workers = run.worker_pids();
        assert_eq!(workers.len().to_string(), parallel, "{workers:?}");
        (run, workers)
    };
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let w = Work::new();
        let (run, _) = fuzzing_with(&w, "2");
        let r = run.stop_every_process(signal);
        assert_eq!(r.code, 0, "signal {signal}\n{}\n{}", r.out(), r.stderr);
        assert!(r.stderr.contains("stopped: interrupted"), "{}", r.stderr);
        assert!(w.crashers("c_parse_gcc_fixed").is_empty(), "{}", r.out());
    }
    let w = Work::new();
    let (run, workers) = fuzzing_with(&w, "1");
    // SAFETY: signalling a worker of the run this test started.
    unsafe { libc::kill(workers[0], libc::SIGTERM) };
    let r = run.wait_all();
    assert_eq!(r.code, 1, "{}\n{}", r.out(), r.stderr);
    assert!(r.out().contains("SIGTERM"), "{}", r.out());
    assert_eq!(w.crashers("c_parse_gcc_fixed").len(), 1, "{}", r.out());
}

/// The same in replay mode (no -fuzz), where fuzz-run runs `fuzz-worker
/// run` and it runs the entries in a child: with every process signalled,
/// that child first while it runs a hanging entry, the entry is not a
/// failure (it did not finish), what ran before it is reported, and the
/// replay is not a pass.
#[test]
fn a_signal_to_every_process_of_a_replay_is_a_stop_not_a_failure() {
    let lib = misbehave();
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let w = Work::new();
        let seeds = w.seed_dir("FuzzHang");
        std::fs::write(seeds.join("a"), "go test fuzz v1\n[]byte(\"fine\")\n").unwrap();
        std::fs::write(seeds.join("b"), "go test fuzz v1\n[]byte(\"hang\")\n").unwrap();
        let run = w.start_fuzz(&lib, &["-run", "^FuzzHang$", "-timeout", "60s", "-v"]);
        // fuzz-worker run and its child, which is in the hang.
        let start = Instant::now();
        while run.worker_pids().len() < 2 || start.elapsed() < Duration::from_millis(1500) {
            assert!(start.elapsed() < Duration::from_secs(20), "no child");
            std::thread::sleep(Duration::from_millis(50));
        }
        let r = run.stop_every_process(signal);
        // Not a pass: the job did not finish (exit 128 + the signal), and
        // it says how far it got.
        assert_eq!(
            r.code,
            128 + signal,
            "signal {signal}\n{}\n{}",
            r.out(),
            r.stderr
        );
        assert!(
            r.stderr.contains("stopped by SIG")
                && r.stderr.contains("1 of 2 seed corpus entries ran"),
            "{}",
            r.stderr
        );
        assert!(!r.out().contains("ok  "), "{}", r.out());
        assert!(r.out().contains("--- PASS: FuzzHang/a"), "{}", r.out());
        assert!(!r.out().contains("FAIL"), "signal {signal}\n{}", r.out());
        assert!(!r.out().contains("crashed"), "signal {signal}\n{}", r.out());
    }
}
