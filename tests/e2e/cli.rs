//! Conventions every tool shares: help and version, Go-style flag spelling,
//! one-line errors with exit 2, a broken pipe ending quietly with 0.

use crate::common::*;

#[test]
fn every_tool_answers_help_and_version() {
    let dir = tempdir();
    for tool in TOOLS {
        for flag in ["-help", "--help", "-h"] {
            let r = run_in(dir.path(), tool, &[flag]).expect(0);
            let out = r.out();
            assert!(out.contains("Usage:"), "{tool} {flag}:\n{out}");
            assert!(
                !out.contains("--"),
                "{tool} {flag} should show flags as -name:\n{out}"
            );
            assert!(r.stderr.is_empty(), "{tool} {flag} wrote to stderr");
        }
        for flag in ["-version", "--version", "-V"] {
            let r = run_in(dir.path(), tool, &[flag]).expect(0);
            assert_eq!(
                r.out().trim(),
                format!("{tool} {}", env!("CARGO_PKG_VERSION")),
                "{tool} {flag}"
            );
        }
    }
}

#[test]
fn unknown_flags_are_one_line_and_exit_2() {
    let dir = tempdir();
    for tool in TOOLS {
        let r = run_in(dir.path(), tool, &["-fuzzbogus"]).expect(2);
        r.one_line_error(tool, "-fuzzbogus");
        assert!(r.stdout.is_empty());
        assert!(!r.stderr.contains("--fuzzbogus"), "{}", r.stderr);
    }
}

/// issue 22: `fuzz-corpus` alone printed 20 lines of usage on stdout.
#[test]
fn no_subcommand_is_one_line_and_exit_2() {
    let dir = tempdir();
    for (tool, subcommands) in [
        ("fuzz-worker", "list, run, bench"),
        ("fuzz-convert", "to-raw, to-v1, import, export"),
        ("fuzz-corpus", "list, check, fmt, merge, cover, status"),
    ] {
        let r = run_in(dir.path(), tool, &[]).expect(2);
        assert!(r.stdout.is_empty(), "{tool}: {}", r.out());
        r.one_line_error(
            tool,
            &format!("a subcommand is required ({subcommands}); see '{tool} -help'"),
        );
    }
}

#[test]
fn bad_flag_values_are_one_line_and_exit_2() {
    let dir = tempdir();
    let cases: &[(&str, &[&str], &str)] = &[
        ("fuzz-run", &["-fuzztime", "abc", "x.so"], "-fuzztime"),
        ("fuzz-run", &["-fuzztime=0x", "x.so"], "-fuzztime"),
        ("fuzz-run", &["-parallel", "0", "x.so"], "-parallel"),
        ("fuzz-run", &["-timeout", "-1s", "x.so"], "-timeout"),
        ("fuzz-minimize", &["x.so"], "INPUT"),
        (
            "fuzz-corpus",
            &["check", "-types", "int, uintptr", "."],
            "uintptr",
        ),
        ("fuzz-clean", &["-older", "forever"], "-older"),
    ];
    for (tool, args, needle) in cases {
        let r = run_in(dir.path(), tool, args).expect(2);
        r.one_line_error(tool, needle);
    }
}

#[test]
fn go_and_gnu_spellings_mean_the_same() {
    let dir = tempdir();
    let corpus = dir.path().join("c");
    std::fs::create_dir(&corpus).unwrap();
    std::fs::write(
        corpus.join("a"),
        b"go test fuzz v1\nstring(\"a\")\nint64(1)\n",
    )
    .unwrap();
    for types in [
        &["-types", "string, int64"][..],
        &["-types=string, int64"],
        &["--types", "string, int64"],
        &["--types=string, int64"],
    ] {
        let mut args = vec!["check"];
        args.extend_from_slice(types);
        args.push("c");
        run_in(dir.path(), "fuzz-corpus", &args).expect(0);
    }
    // The same flag, with the wrong types, finds the entry malformed.
    run_in(
        dir.path(),
        "fuzz-corpus",
        &["check", "-types", "string", "c"],
    )
    .expect(1);
    // A flag given twice: the last wins, as in Go (a Makefile's
    // `$(FUZZFLAGS) -types ...`), for values and switches alike.
    run_in(
        dir.path(),
        "fuzz-corpus",
        &["check", "-types", "string", "-types", "string, int64", "c"],
    )
    .expect(0);
    run_in(
        dir.path(),
        "fuzz-corpus",
        &["check", "-types", "string, int64", "-types", "string", "c"],
    )
    .expect(1);
    let r = run_in(dir.path(), "fuzz-corpus", &["list", "-json", "-json", "c"]).expect(0);
    assert!(r.out().starts_with('{'), "{}", r.out());
}

#[test]
fn broken_pipe_exits_0() {
    let dir = tempdir();
    let corpus = dir.path().join("c");
    std::fs::create_dir(&corpus).unwrap();
    for i in 0..3000 {
        let body = format!(
            "go test fuzz v1\nint64({i})\nstring(\"{}\")\n",
            "x".repeat(200)
        );
        std::fs::write(corpus.join(format!("e{i:05}")), body).unwrap();
    }
    let r = with_head_1(dir.path(), "fuzz-corpus", &["list", "c"]).expect(0);
    assert!(r.out().contains("e00000"));
    // The reader is gone now; the tool must end quietly.
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

#[test]
fn a_closed_pipe_ends_the_printing_not_the_work_nor_the_verdict() {
    let dir = tempdir();
    let d = dir.path();
    for corpus in ["a", "b"] {
        std::fs::create_dir(d.join(corpus)).unwrap();
    }
    for i in 0..3000 {
        let body = format!(
            "go test fuzz v1\nint64({i})\nstring(\"{}\")\n",
            "y".repeat(300)
        );
        let name = if i % 2 == 0 { "a" } else { "b" };
        std::fs::write(d.join(name).join(format!("e{i:05}")), body).unwrap();
    }
    // merge A B | head -1: every entry merged all the same.
    let r = with_head_1(d, "fuzz-corpus", &["merge", "m", "a", "b"]).expect(0);
    assert_eq!(
        std::fs::read_dir(d.join("m")).unwrap().count(),
        3000,
        "{}",
        r.stderr
    );
    // fmt -rename | head -1: every file renamed.
    let files: Vec<String> = (0..3000).step_by(2).map(|i| format!("a/e{i:05}")).collect();
    let mut args = vec!["fmt", "-rename"];
    args.extend(files.iter().map(String::as_str));
    let r = with_head_1(d, "fuzz-corpus", &args).expect(0);
    let digests = std::fs::read_dir(d.join("a"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().len() == 16)
        .count();
    assert_eq!(digests, 1500, "{}", r.stderr);
    // A malformed file among many: the verdict is 1, pipe or no pipe.
    std::fs::write(d.join("b").join("zz-bad"), "go test fuzz v2\n").unwrap();
    with_head_1(d, "fuzz-corpus", &["check", "b"]).expect(1);
    with_head_1(d, "fuzz-corpus", &["list", "b"]).expect(1);
}

#[test]
fn small_things_a_careful_user_notices() {
    let dir = tempdir();
    let d = dir.path();
    // A flag is echoed as it was typed.
    let r = run_in(d, "fuzz-run", &["--bogus", "x.so"]).expect(2);
    r.one_line_error("fuzz-run", "\"--bogus\"");
    // A switch's value after a space is said to be one, not blamed on the
    // operand after it.
    let r = run_in(d, "fuzz-run", &["-v", "true", "x.so"]).expect(2);
    r.one_line_error(
        "fuzz-run",
        "-v true: a switch takes a value only after '=' (-v=true)",
    );
    // -dict's errors name the flag.
    let lib = example_lib("libmisbehave.so");
    std::fs::write(d.join("bad.dict"), "bad line\n").unwrap();
    let r = run_in(
        d,
        "fuzz-run",
        &["-fuzz", "FuzzOk", "-dict", "bad.dict", &lib],
    )
    .expect(2);
    r.one_line_error("fuzz-run", "bad.dict:1: expected a quoted word");
    assert!(r.stderr.trim_end().ends_with("(-dict)"), "{}", r.stderr);
    // A note is a note, not a "warning: note:".
    std::fs::create_dir(d.join("c")).unwrap();
    std::fs::write(d.join("c/x"), "go test fuzz v1\n[]byte(\"a\")\n").unwrap();
    let r = run_in(d, "fuzz-corpus", &["check", "c"]).expect(0);
    assert!(
        r.stderr
            .starts_with("fuzz-corpus: note: c/x: name is not a digest"),
        "{}",
        r.stderr
    );
    // A run shorter than a progress tick shows its own rate, not 0/sec.
    let r = run_in(
        d,
        "fuzz-run",
        &[
            "-fuzz",
            "^FuzzOk$",
            "-fuzztime",
            "1000x",
            "-fuzzcachedir",
            "cache",
            &lib,
        ],
    )
    .expect(0);
    assert!(!r.stderr.contains("(0/sec)"), "{}", r.stderr);
}
