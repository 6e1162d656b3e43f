//! Every tool and subcommand a script runs, each with work that succeeds,
//! work that finds something and bad input, run twice: with its output
//! read, and with its standard output closed after the first line (a pipe
//! into `head -1`). The exit code is the verdict on the whole input either
//! way, and work with side effects is done whole either way. (A signal in
//! the middle of each kind of work is limits.rs's
//! `every_phase_stops_within_a_second_of_a_signal`.)

use crate::common::*;
use std::path::Path;

/// A fresh work directory: two corpora of many entries (one with a
/// malformed file), a failing and a passing input of libmisbehave's
/// FuzzFail, and a seed corpus with a crasher.
fn work() -> tempfile::TempDir {
    let dir = tempdir();
    let d = dir.path();
    for corpus in ["a", "b", "bad"] {
        std::fs::create_dir(d.join(corpus)).unwrap();
    }
    for i in 0..400 {
        let body = format!("go test fuzz v1\n[]byte(\"{}{i}\")\n", "z".repeat(100));
        let corpus = if i % 2 == 0 { "a" } else { "b" };
        std::fs::write(d.join(corpus).join(format!("e{i:04}")), &body).unwrap();
        std::fs::write(d.join("bad").join(format!("e{i:04}")), &body).unwrap();
    }
    std::fs::write(d.join("bad/zz"), "go test fuzz v2\n").unwrap();
    std::fs::write(d.join("fail.v1"), "go test fuzz v1\n[]byte(\"xfail\")\n").unwrap();
    std::fs::write(d.join("pass.v1"), "go test fuzz v1\n[]byte(\"fine\")\n").unwrap();
    let seeds = d.join("testdata/fuzz/FuzzFail");
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::write(seeds.join("ok"), "go test fuzz v1\n[]byte(\"fine\")\n").unwrap();
    std::fs::write(seeds.join("x"), "go test fuzz v1\n[]byte(\"xbad\")\n").unwrap();
    std::fs::create_dir(d.join("raw")).unwrap();
    for i in 0..200 {
        std::fs::write(d.join("raw").join(format!("r{i}")), format!("raw{i}")).unwrap();
    }
    dir
}

#[test]
fn every_tool_exits_with_its_verdict_pipe_or_no_pipe() {
    let lib = example_lib("libmisbehave.so");
    let fixed = example_lib("libc_parse_gcc_fixed.so");
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<&str>, i32)> = vec![
        // fuzz-run replay: passing, failing, misuse.
        ("fuzz-run", vec!["-v", "-run", "^FuzzFail$/^ok$", &lib], 0),
        ("fuzz-run", vec!["-v", "-run", "^FuzzFail$", &lib], 1),
        ("fuzz-run", vec!["-run", "[", &lib], 2),
        // fuzz-worker list and run.
        ("fuzz-worker", vec!["list", &lib], 0),
        ("fuzz-worker", vec!["run", "-target", "FuzzFail", &lib, "pass.v1", "fail.v1"], 1),
        ("fuzz-worker", vec!["run", "-target", "FuzzFail", &lib, "pass.v1"], 0),
        ("fuzz-worker", vec!["run", "-target", "NoSuch", &lib, "pass.v1"], 2),
        // fuzz-minimize: a failing input shrinks, a passing one has nothing to keep.
        ("fuzz-minimize", vec!["-target", "FuzzFail", &lib, "fail.v1"], 0),
        ("fuzz-minimize", vec!["-target", "FuzzFail", &lib, "pass.v1"], 1),
        ("fuzz-minimize", vec!["-target", "FuzzFail", &lib, "missing.v1"], 2),
        // fuzz-convert.
        ("fuzz-convert", vec!["to-raw", "fail.v1"], 0),
        ("fuzz-convert", vec!["to-raw", "bad/zz"], 2),
        ("fuzz-convert", vec!["import", "-target", "FuzzImp", "raw"], 0),
        ("fuzz-convert", vec!["export", "a", "-o", "exported"], 0),
        // fuzz-corpus.
        ("fuzz-corpus", vec!["list", "a"], 0),
        ("fuzz-corpus", vec!["list", "bad"], 1),
        ("fuzz-corpus", vec!["check", "bad"], 1),
        ("fuzz-corpus", vec!["check", "a"], 0),
        ("fuzz-corpus", vec!["merge", "merged", "a", "b"], 0),
        ("fuzz-corpus", vec!["merge", "-lib", &fixed, "bylib", "a"], 0),
        ("fuzz-corpus", vec!["merge", "-lib", &lib, "bylib2", "nowhere"], 2),
        ("fuzz-corpus", vec!["fmt", "fail.v1", "pass.v1"], 0),
        ("fuzz-corpus", vec!["fmt", "bad/zz"], 2),
        // fuzz-clean, dry run of an empty cache.
        ("fuzz-clean", vec!["-n", "-fuzzcachedir", "cache"], 0),
        ("fuzz-clean", vec!["-older", "0", "-fuzzcachedir", "cache"], 2),
    ];
    for (tool, args, code) in &cases {
        let read = work();
        let r = run_in(read.path(), tool, args);
        assert_eq!(r.code, *code, "{tool} {args:?}\n{}\n{}", r.out(), r.stderr);
        let closed = work();
        let c = with_head_1(closed.path(), tool, args);
        assert_eq!(c.code, *code, "{tool} {args:?} | head -1\n{}", c.stderr);
        // What was written is the same: work is done whole.
        let written = |d: &Path| {
            let mut s = snapshot(d);
            s.retain(|(p, _)| !p.starts_with("home") && !p.starts_with("cache"));
            s
        };
        assert_eq!(
            written(read.path()),
            written(closed.path()),
            "{tool} {args:?}: the closed pipe changed what was written"
        );
    }
}
