//! fuzz-run with -fuzz matching several targets, which take turns: both
//! get executions and keep their caches; a bug in one is reported while
//! the other keeps its time; -json events name their target; counts are
//! per target and reproducible; Ctrl-C stops every target; one target
//! still runs exactly as Go's.

use crate::common::*;
use crate::work::Work;
use serde_json::Value as Json;
use std::time::{Duration, Instant};

/// The events of one target, in order.
fn of<'a>(ev: &'a [Json], target: &str) -> Vec<&'a Json> {
    ev.iter().filter(|e| e["target"] == target).collect()
}

/// The number in `execs: N (` of the last progress line tagged `[target]`.
fn last_execs(stderr: &str, target: &str) -> u64 {
    let line = stderr
        .lines()
        .rev()
        .find(|l| l.ends_with(&format!(" [{target}]")) && l.contains(", execs: "))
        .unwrap_or_else(|| panic!("no progress line for {target}:\n{stderr}"));
    let n = line.split(", execs: ").nth(1).unwrap().split(' ').next();
    n.unwrap().parse().unwrap()
}

/// The seconds in `turn of up to Xs with 2 workers [target]`.
fn turn_seconds(stderr: &str, target: &str) -> f64 {
    let tail = format!("s with 2 workers [{target}]");
    let line = stderr
        .lines()
        .find(|l| l.ends_with(&tail))
        .unwrap_or_else(|| panic!("no turn line for {target}:\n{stderr}"));
    let x = line.split("turn of up to ").nth(1).unwrap();
    let x = x.strip_suffix(&tail).unwrap();
    x.parse()
        .unwrap_or_else(|_| panic!("{target}: turn of {x:?}s, not 1.5-2 s:\n{stderr}"))
}

#[test]
fn two_targets_take_turns_and_both_keep_their_cache() {
    let w = Work::new();
    let started = Instant::now();
    let r = w
        .fuzz(
            example_lib("librust_typed_fixed.so"),
            &[
                "-fuzz",
                "^Fuzz(Record|Flags)$",
                "-fuzztime",
                "4s",
                "-parallel",
                "2",
            ],
        )
        .expect(0);
    // The run takes -fuzztime, shared: not 4 s per target.
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(3500) && took < Duration::from_secs(15),
        "took {took:?}"
    );
    let err = &r.stderr;
    assert!(
        err.starts_with(
            "fuzz: fuzzing 2 targets, 2s each, in turns of up to 10s: FuzzFlags, FuzzRecord\n"
        ),
        "{err}"
    );
    for target in ["FuzzFlags", "FuzzRecord"] {
        // Each gets its 2 s share, less what the turn before it overran.
        let turn = turn_seconds(err, target);
        assert!((1.5..=2.0).contains(&turn), "{target}: {turn}s:\n{err}");
        assert!(last_execs(err, target) > 1000, "{target}:\n{err}");
        assert!(!w.cached(target).is_empty(), "{target} wrote no cache");
    }
    // Every line about a target names it.
    for l in err.lines().skip(1) {
        assert!(
            l.ends_with(" [FuzzFlags]") || l.ends_with(" [FuzzRecord]"),
            "untagged line {l:?} in:\n{err}"
        );
    }
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("--- PASS: FuzzFlags ("), "{out}");
    assert!(lines[1].starts_with("--- PASS: FuzzRecord ("), "{out}");
    assert_eq!(lines[2], "PASS");
    assert!(lines[3].starts_with("ok  \t"), "{out}");
}

#[test]
fn a_bug_in_one_target_is_reported_and_the_other_gets_its_time() {
    let w = Work::new();
    // A third target whose seed corpus is malformed fails at once, as Go
    // fails it, and takes no turn.
    let bad = w.path().join("testdata/fuzz/FuzzReject");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("broken"), "go test fuzz v1\nint(1)\n").unwrap();
    let started = Instant::now();
    let r = w.fuzz(
        example_lib("libmisbehave.so"),
        &[
            "-fuzz",
            "^Fuzz(Fail|Ok|Reject)$",
            "-fuzztime",
            "4s",
            "-parallel",
            "2",
        ],
    );
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
    let took = started.elapsed();
    let out = r.out();
    assert!(
        out.contains("--- FAIL: FuzzReject (0.00s)\n    malformed seed corpus\n"),
        "{out}"
    );
    assert!(out.contains("--- FAIL: FuzzFail ("), "{out}");
    assert!(out.contains("bad input: starts with 'x'"), "{out}");
    assert!(
        out.contains("Failing input written to testdata/fuzz/FuzzFail/"),
        "{out}"
    );
    assert!(out.contains("fuzz-run -run FuzzFail/"), "{out}");
    assert!(out.contains("--- PASS: FuzzOk ("), "{out}");
    assert!(!out.contains("--- PASS: FuzzFail"), "{out}");
    assert!(
        out.ends_with("FAIL\nFAIL\t") || out.contains("\nFAIL\nFAIL\t"),
        "{out}"
    );
    assert_eq!(w.testdata("FuzzFail").len(), 1);
    assert!(w.testdata("FuzzOk").is_empty());
    // FuzzFail stopped at its bug; FuzzOk was given the time it left, so
    // the run still took -fuzztime.
    let err = &r.stderr;
    assert!(
        err.starts_with("fuzz: fuzzing 2 targets, 2s each"),
        "the malformed target takes no share:\n{err}"
    );
    assert!(
        err.contains("[FuzzFail]") && err.contains("[FuzzOk]"),
        "{err}"
    );
    assert!(!err.contains("[FuzzReject]"), "{err}");
    assert!(last_execs(err, "FuzzOk") > 100, "{err}");
    assert!(!w.cached("FuzzOk").is_empty());
    assert!(took >= Duration::from_millis(3500), "took {took:?}:\n{err}");
}

#[test]
fn json_events_name_their_target() {
    let w = Work::new();
    let r = w.fuzz(
        example_lib("libmisbehave.so"),
        &[
            "-fuzz",
            "^Fuzz(Fail|Ok)$",
            "-fuzztime",
            "3s",
            "-parallel",
            "1",
            "-json",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let ev = json_events(&r);
    for e in &ev {
        assert!(
            e["target"] == "FuzzFail" || e["target"] == "FuzzOk",
            "event without its target: {e}"
        );
        assert!(e["elapsed"].is_number(), "{e}");
    }
    for target in ["FuzzFail", "FuzzOk"] {
        let mine = of(&ev, target);
        let kinds: Vec<&str> = mine.iter().map(|e| e["event"].as_str().unwrap()).collect();
        assert_eq!(kinds.first(), Some(&"start"), "{target}: {kinds:?}");
        assert_eq!(kinds.last(), Some(&"end"), "{target}: {kinds:?}");
        assert!(
            kinds.contains(&"turn") && kinds.contains(&"baseline"),
            "{target}: {kinds:?}"
        );
        // The baseline runs once, however many turns.
        assert_eq!(kinds.iter().filter(|k| **k == "baseline").count(), 1);
        let turn = mine.iter().find(|e| e["event"] == "turn").unwrap();
        assert_eq!(turn["workers"], 1, "{turn}");
        let end = mine.last().unwrap();
        assert!(end["execs"].as_u64().unwrap() > 0, "{end}");
        assert_eq!(end["interrupted"], false);
    }
    let failure = ev.iter().find(|e| e["event"] == "failure").unwrap();
    assert_eq!(failure["target"], "FuzzFail");
    assert!(failure["path"]
        .as_str()
        .unwrap()
        .contains("testdata/fuzz/FuzzFail/"));
    let ends: Vec<&Json> = ev.iter().filter(|e| e["event"] == "end").collect();
    assert_eq!(ends.len(), 2);
    let fail_end = of(&ev, "FuzzFail").last().unwrap()["failures"].clone();
    assert_eq!(fail_end, 1);
    assert_eq!(of(&ev, "FuzzOk").last().unwrap()["failures"], 0);
    // FuzzOk's turn begins once FuzzFail is done.
    let fail_end_at = of(&ev, "FuzzFail").last().unwrap()["elapsed"]
        .as_f64()
        .unwrap();
    let ok_turn_at = of(&ev, "FuzzOk")
        .into_iter()
        .find(|e| e["event"] == "turn")
        .unwrap()["elapsed"]
        .as_f64()
        .unwrap();
    assert!(ok_turn_at >= fail_end_at, "{ok_turn_at} < {fail_end_at}");
}

#[test]
fn a_count_is_per_target_and_each_run_is_its_own() {
    // -fuzztime Nx with -seed: the targets run one after the other, each
    // exactly the run it would be alone.
    let lib = example_lib("librust_typed_fixed.so");
    let args = |pattern| {
        [
            "-fuzz",
            pattern,
            "-json",
            "-parallel",
            "1",
            "-seed",
            "3",
            "-fuzztime",
            "20000x",
        ]
    };
    let both = Work::new();
    let r = both.fuzz(&lib, &args("^Fuzz(Record|Flags)$")).expect(0);
    let ev = json_events(&r);
    for target in ["FuzzFlags", "FuzzRecord"] {
        let end = *of(&ev, target).last().unwrap();
        assert_eq!(end["event"], "end");
        assert_eq!(end["execs"], 20000, "{end}");
        let turns: Vec<&Json> = of(&ev, target)
            .into_iter()
            .filter(|e| e["event"] == "turn")
            .collect();
        assert_eq!(turns.len(), 1, "one turn each under -seed");
        assert!(turns[0]["seconds"].is_null());
    }
    let alone = Work::new();
    let r = alone.fuzz(&lib, &args("^FuzzRecord$")).expect(0);
    let end = json_events(&r)
        .into_iter()
        .find(|e| e["event"] == "end")
        .unwrap();
    let both_end = *of(&ev, "FuzzRecord").last().unwrap();
    assert_eq!(end["coverage"], both_end["coverage"]);
    assert_eq!(end["new_interesting"], both_end["new_interesting"]);
    assert!(!alone.cached("FuzzRecord").is_empty());
    assert_eq!(alone.cached("FuzzRecord"), both.cached("FuzzRecord"));
}

#[test]
fn ctrl_c_with_several_targets_stops_every_one_cleanly() {
    let w = Work::new();
    let lib = example_lib("librust_typed_fixed.so");
    let fuzzing = w.start_fuzz(
        &lib,
        &[
            "-fuzz",
            "^Fuzz(Record|Flags)$",
            "-fuzztime",
            "60s",
            "-parallel",
            "2",
            "-json",
        ],
    );
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        fuzzing.processes(),
        3,
        "the coordinator and the two workers of the target whose turn it is"
    );
    // Also asserts that no process and no unfinished cache write is left.
    let r = fuzzing.interrupt().expect(0);
    // Both targets end, interrupted: the one whose turn it was, and the
    // one still waiting for its first.
    let ev = json_events(&r);
    for target in ["FuzzFlags", "FuzzRecord"] {
        let end = *of(&ev, target).last().unwrap();
        assert_eq!(end["event"], "end", "{target}");
        assert_eq!(end["interrupted"], true, "{end}");
    }
    assert!(
        of(&ev, "FuzzFlags").last().unwrap()["execs"]
            .as_u64()
            .unwrap()
            > 0,
        "the first target had its turn"
    );
    assert_eq!(of(&ev, "FuzzRecord").last().unwrap()["execs"], 0);
}

#[test]
fn one_target_runs_as_go_runs_it() {
    // -fuzz matching one target: no turns, no names in brackets, no PASS
    // line per target: go test's output.
    let w = Work::new();
    let r = w
        .fuzz(
            example_lib("librust_typed_fixed.so"),
            &["-fuzz", "Flags", "-fuzztime", "1s", "-parallel", "1"],
        )
        .expect(0);
    let err = &r.stderr;
    assert!(
        err.starts_with("warning: starting with empty corpus\nfuzz: elapsed: "),
        "{err}"
    );
    assert!(!err.contains('[') && !err.contains("turn"), "{err}");
    assert!(err.contains(", execs: "), "{err}");
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "PASS");
    assert!(lines[1].starts_with("ok  \t"), "{out}");
    // Its events name it too.
    let r = w
        .fuzz(
            example_lib("librust_typed_fixed.so"),
            &["-fuzz", "Flags", "-fuzztime", "500x", "-json"],
        )
        .expect(0);
    let ev = json_events(&r);
    assert!(!ev.iter().any(|e| e["event"] == "turn"));
    assert!(ev.iter().all(|e| e["target"] == "FuzzFlags"), "{ev:?}");
    // And a pattern matching nothing is still misuse, naming the targets.
    w.fuzz(
        example_lib("librust_typed_fixed.so"),
        &["-fuzz", "Nothing", "-fuzztime", "1x"],
    )
    .expect(2)
    .one_line_error("fuzz-run", "FuzzRecord");
}

#[test]
fn every_json_run_ends_with_one_exit_event_and_every_text_run_with_its_verdict() {
    // A malformed seed: a failure event, then the exit event (there was
    // no end before); the text output closes with FAIL.
    let w = Work::new();
    w.seed("FuzzFail", "bad", "go test fuzz v2\n");
    let lib = example_lib("libmisbehave.so");
    let r = w.fuzz(&lib, &["-fuzz", "^FuzzFail$", "-fuzztime", "2s", "-json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let ev = json_events(&r);
    assert_eq!(ev.last().unwrap()["event"], "failure", "{ev:?}");
    let r = w.fuzz(&lib, &["-fuzz", "^FuzzFail$", "-fuzztime", "2s"]);
    assert_eq!(r.code, 1);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.len() >= 2
            && lines[lines.len() - 2] == "FAIL"
            && lines[lines.len() - 1].starts_with("FAIL\t"),
        "{out}"
    );
    // Misuse: the exit event says so, its message the error's.
    let r = w.fuzz(&lib, &["-fuzz", "^NoSuch$", "-json"]);
    assert_eq!(r.code, 2);
    let last: Json = serde_json::from_str(r.out().lines().last().unwrap()).unwrap();
    assert_eq!(last["event"], "exit");
    assert_eq!(last["outcome"], "misuse");
    assert!(
        last["message"].as_str().unwrap().contains("NoSuch"),
        "{last}"
    );
    // Replay ends with it too.
    let r = w.fuzz(&lib, &["-run", "^FuzzOk$", "-json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let last: Json = serde_json::from_str(r.out().lines().last().unwrap()).unwrap();
    assert_eq!(last["outcome"], "ok", "{last}");
}
