//! Go's own fuzz tests, unmodified: built by fuzz-build, fuzzed and
//! replayed by fuzz-run with Go's semantics, their corpus files read and
//! written both ways with `go test` itself. The packages are
//! examples/go (planted bugs), tests/go/semantics (one rule of go test per
//! fuzz test) and tests/go/testmain, each copied to a scratch directory
//! first: what the runs write stays out of the tree.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Go's build cache for these tests, shared by all of them, so that the
/// instrumented standard library is compiled once per test run (Go's
/// cache is safe to share between processes).
fn gocache() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) => root().join(t),
        None => root().join("target"),
    };
    target.join("e2e-gocache")
}

/// A Go package of the repository, copied to a scratch directory that also
/// holds the tools' caches and a home.
struct Pkg {
    scratch: tempfile::TempDir,
}

impl Pkg {
    fn copy(rel: &str) -> Pkg {
        require_tool("go");
        let scratch = tempdir();
        let from = root().join(rel);
        for e in walkdir::WalkDir::new(&from) {
            let e = e.unwrap();
            let to = scratch
                .path()
                .join("pkg")
                .join(e.path().strip_prefix(&from).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
        Pkg { scratch }
    }

    /// The package's directory.
    fn dir(&self) -> PathBuf {
        self.scratch.path().join("pkg")
    }

    /// A command run in the package's directory, with an environment of
    /// its own: offline Go, the shared build cache, every cache of ours in
    /// the scratch directory.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Command {
        let s = self.scratch.path();
        let mut c = Command::new(program);
        c.args(args)
            .current_dir(self.dir())
            .env("HOME", s.join("home"))
            .env_remove("FUZZCACHE")
            .env_remove("XDG_CACHE_HOME")
            .env("FUZZ_BUILD_CACHE", s.join("build"))
            .env("GOCACHE", gocache())
            .env("GOPATH", s.join("gopath"))
            .env("GOFLAGS", "-mod=mod")
            .env("GOPROXY", "off")
            .env("GOTOOLCHAIN", "local");
        c
    }

    /// One of our tools, run in the package's directory.
    fn tool(&self, name: &str, args: &[&str]) -> Run {
        run_command(self.command(bin(name), args))
    }

    /// `go` itself, run in the package's directory.
    fn go(&self, args: &[&str]) -> Run {
        run_command(self.command("go", args))
    }

    /// `fuzz-run -fuzz PATTERN -fuzztime TIME -parallel 1 EXTRA... .`
    fn fuzz(&self, pattern: &str, time: &str, extra: &[&str]) -> Run {
        let mut args = vec!["-fuzz", pattern, "-fuzztime", time, "-parallel", "1"];
        args.extend_from_slice(extra);
        args.push(".");
        self.tool("fuzz-run", &args)
    }

    /// The library fuzz-build makes of the package.
    fn build(&self) -> String {
        self.tool("fuzz-build", &[])
            .expect(0)
            .out()
            .trim()
            .to_string()
    }

    /// The crashers written for `target`, by name.
    fn crashers(&self, target: &str) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(self.dir().join("testdata/fuzz").join(target))
                .map(|d| {
                    d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default();
        names.sort();
        names
    }
}

/// A directory holding a `go` that logs its arguments to `log` and runs
/// the real one: put first on PATH, it shows which go commands ran.
fn logging_go(dir: &Path, log: &Path, rewrite_version: Option<&str>) -> PathBuf {
    let real = require_tool("go");
    let shims = dir.join("shims");
    std::fs::create_dir_all(&shims).unwrap();
    let version = match rewrite_version {
        Some(v) => format!(
            "if [ \"$1\" = env ]; then {real} \"$@\" | sed 's/\"GOVERSION\": \"[^\"]*\"/\"GOVERSION\": \"{v}\"/'; exit; fi\n",
            real = real.display()
        ),
        None => String::new(),
    };
    let script = format!(
        "#!/bin/sh\necho \"$*\" >> {}\n{version}exec {} \"$@\"\n",
        log.display(),
        real.display()
    );
    let go = shims.join("go");
    std::fs::write(&go, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&go, std::fs::Permissions::from_mode(0o755)).unwrap();
    shims
}

/// PATH with `first` before the rest.
fn path_with(first: &Path) -> String {
    format!(
        "{}:{}",
        first.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn fuzz_build_makes_a_target_of_every_fuzz_test_and_rebuilds_only_on_change() {
    let pkg = Pkg::copy("examples/go");
    let before = snapshot(&pkg.dir());
    let log = pkg.scratch.path().join("go.log");
    let shims = logging_go(pkg.scratch.path(), &log, None);
    let build = || {
        run_command({
            let mut c = pkg.command(bin("fuzz-build"), &[]);
            c.env("PATH", path_with(&shims));
            c
        })
    };
    let compiles = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("test -c"))
            .count()
    };

    let first = build().expect(0);
    let lib = first.out().trim().to_string();
    assert!(
        first
            .stderr
            .contains("fuzz-build: building example.com/gofuzz"),
        "{}",
        first.stderr
    );
    assert_eq!(compiles(), 1);
    // Every fuzz test, the external test package's too, in Go's spelling.
    let list = pkg.tool("fuzz-worker", &["list", &lib]).expect(0);
    assert_eq!(
        list.out(),
        "FuzzParseRecord\tstring\nFuzzScale\tint64, string\nFuzzQuote\t[]byte\n"
    );
    // f.Add values come with the listing, as Go encodes them.
    let json = pkg.tool("fuzz-worker", &["list", "-json", &lib]).expect(0);
    assert!(
        json.out()
            .contains(r#""seeds":["go test fuzz v1\nint64(3)\nstring(\"k\")\n"]"#),
        "{}",
        json.out()
    );
    // The package's files are as they were: the harness was an overlay.
    assert_eq!(snapshot(&pkg.dir()), before);

    // Nothing changed: the same library, and no compiler run.
    let again = build().expect(0);
    assert_eq!(again.out().trim(), lib);
    assert!(!again.stderr.contains("building"), "{}", again.stderr);
    assert_eq!(compiles(), 1, "the second build ran the compiler");

    // A source file changed: rebuilt, at the same path.
    let source = pkg.dir().join("record.go");
    let mut text = std::fs::read_to_string(&source).unwrap();
    text.push_str("\n// a change\n");
    std::fs::write(&source, text).unwrap();
    let third = build().expect(0);
    assert_eq!(third.out().trim(), lib);
    assert_eq!(compiles(), 2, "a changed package was not rebuilt");

    // -o copies it out.
    let out = pkg.scratch.path().join("copy.so");
    let o = pkg
        .tool("fuzz-build", &["-o", out.to_str().unwrap()])
        .expect(0);
    assert_eq!(o.out().trim(), out.to_str().unwrap());
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&lib).unwrap());
}

#[test]
fn fuzz_build_refuses_what_it_cannot_build_in_one_line_changing_nothing() {
    let pkg = Pkg::copy("examples/go");
    // Another Go release than the harness was written for.
    let log = pkg.scratch.path().join("go.log");
    let shims = logging_go(pkg.scratch.path(), &log, Some("go1.21.0"));
    let before = snapshot(pkg.scratch.path());
    let mut c = pkg.command(bin("fuzz-build"), &[]);
    c.env("PATH", path_with(&shims));
    let r = run_command(c).expect(2);
    r.one_line_error("fuzz-build", "go1.21.0 is not supported");
    let mut after = snapshot(pkg.scratch.path());
    after.retain(|(p, _)| p != Path::new("go.log") && !p.starts_with("build"));
    let mut before = before;
    before.retain(|(p, _)| !p.starts_with("build"));
    assert_eq!(after, before);

    // A package without fuzz tests.
    for f in ["record_test.go", "quote_test.go"] {
        std::fs::remove_file(pkg.dir().join(f)).unwrap();
    }
    let r = pkg.tool("fuzz-build", &[]).expect(2);
    r.one_line_error("fuzz-build", "no fuzz tests");
    // A directory outside any module, and one that is not there.
    let loose = pkg.scratch.path().join("loose");
    std::fs::create_dir_all(&loose).unwrap();
    std::fs::write(loose.join("a.go"), "package a\n").unwrap();
    let r = pkg.tool("fuzz-build", &[loose.to_str().unwrap()]).expect(2);
    r.one_line_error("fuzz-build", "not in a Go module");
    let r = pkg.tool("fuzz-build", &["no-such-dir"]).expect(2);
    r.one_line_error("fuzz-build", "no-such-dir");
}

#[test]
fn fuzz_run_finds_each_planted_bug_and_go_test_reproduces_it() {
    let pkg = Pkg::copy("examples/go");
    for (target, says) in [
        ("FuzzScale", "the sign is lost"),
        ("FuzzQuote", "gave \"?\""),
        ("FuzzParseRecord", "index out of range"),
    ] {
        let pattern = format!("^{target}$");
        let r = pkg.fuzz(&pattern, "60s", &[]).expect(1);
        let out = r.out();
        assert!(out.contains(says), "{target}: {out}\n{}", r.stderr);
        let crashers = pkg.crashers(target);
        assert_eq!(crashers.len(), 1, "{target}: {crashers:?}");
        let name = &crashers[0];
        assert!(
            out.contains(&format!(
                "Failing input written to testdata/fuzz/{target}/{name}"
            )),
            "{out}"
        );
        let rerun = format!("go test -run={target}/{name}");
        assert!(out.contains(&rerun), "{out}");
        // go test reads the file we wrote, and fails the same way.
        let go = pkg
            .go(&["test", &format!("-run={target}/{name}"), "."])
            .expect(1);
        assert!(go.out().contains(says), "{}", go.out());
    }
    // Replaying the seeds, as go test does: the three crashers fail.
    let r = pkg.tool("fuzz-run", &["."]).expect(1);
    for target in ["FuzzScale", "FuzzQuote", "FuzzParseRecord"] {
        assert!(
            r.out().contains(&format!("--- FAIL: {target} ")),
            "{}",
            r.out()
        );
    }
}

#[test]
fn crashers_go_test_writes_fail_when_fuzz_run_replays_them() {
    let pkg = Pkg::copy("examples/go");
    // FuzzQuote's bug is one byte away from its seed: Go's own fuzzer
    // finds it in a tenth of a second (FuzzScale's takes it from one to
    // more than sixty seconds: bench/LOG.md).
    pkg.go(&[
        "test",
        "-run=^$",
        "-fuzz=^FuzzQuote$",
        "-fuzztime=120s",
        "-parallel=1",
        ".",
    ])
    .expect(1);
    let crashers = pkg.crashers("FuzzQuote");
    assert_eq!(crashers.len(), 1, "{crashers:?}");
    let name = &crashers[0];
    let r = pkg.tool("fuzz-run", &["."]).expect(1);
    let out = r.out();
    assert!(
        out.contains(&format!("--- FAIL: FuzzQuote/{name} ")) && out.contains("round trip of"),
        "{out}"
    );
    // -run picks it, as go test's -run does.
    let one = format!("FuzzQuote/{name}");
    pkg.tool("fuzz-run", &["-run", &one, "."]).expect(1);
    pkg.tool("fuzz-run", &["-run", "FuzzQuote/seed#0", "."])
        .expect(0);
}

/// `fuzz-worker run`'s line for one input of FuzzVerdicts.
fn verdict(pkg: &Pkg, lib: &str, input: &str, env: &[(&str, &Path)]) -> Run {
    let file = pkg.scratch.path().join(format!("in-{input}"));
    std::fs::write(&file, format!("go test fuzz v1\nstring({input:?})\n")).unwrap();
    let mut c = pkg.command(
        bin("fuzz-worker"),
        &[
            "run",
            "-target",
            "FuzzVerdicts",
            lib,
            file.to_str().unwrap(),
        ],
    );
    for (k, v) in env {
        c.env(k, v);
    }
    run_command(c)
}

#[test]
fn go_tests_run_as_go_test_runs_them() {
    let pkg = Pkg::copy("tests/go/semantics");
    let lib = pkg.build();
    let list = pkg.tool("fuzz-worker", &["list", &lib]).expect(0).out();
    assert!(list.contains("FuzzVerdicts\tstring\n"), "{list}");
    assert!(
        list.contains("FuzzFatalFirst\t(cannot run: its set-up failed: semantics_test.go:")
            && list.contains("not ready to fuzz"),
        "{list}"
    );
    assert!(
        list.contains("FuzzSkipAll\t(cannot run: it skips: "),
        "{list}"
    );
    assert!(list.contains("F.Fuzz called more than once"), "{list}");

    // Each verdict, as testing gives it.
    let tmp = pkg.scratch.path().join("tmp");
    let cleanups = pkg.scratch.path().join("cleanups");
    std::fs::create_dir_all(&tmp).unwrap();
    let env = [
        ("TMPDIR", tmp.as_path()),
        ("SEMANTICS_CLEANUP", cleanups.as_path()),
    ];
    for (input, code, says) in [
        ("pass", 0, "ok"),
        ("skip", 0, "ok"),
        ("error", 1, "semantics_test.go:35: an error for \"error\""),
        ("fatal", 1, "semantics_test.go:37: fatal for \"fatal\""),
        ("panic", 1, "panic: a panic for panic"),
        ("goexit", 1, "test executed panic(nil) or runtime.Goexit"),
        (
            "exit0",
            1,
            "panic: unexpected call to os.Exit(0) during test",
        ),
        ("parallel", 1, "failed after t.Parallel"),
        ("exit3", 1, "exited with status 3"),
    ] {
        let r = verdict(&pkg, &lib, input, &env).expect(code);
        assert!(r.out().contains(says), "{input}: {}{}", r.out(), r.stderr);
        if input == "panic" {
            // The stack, down to the line that panicked.
            assert!(r.out().contains("semantics_test.go:39"), "{}", r.out());
        }
        if code == 1 && input != "exit3" {
            // t.Log's line is part of the failure's log.
            assert!(r.out().contains(&format!("input {input:?}")), "{}", r.out());
        }
    }
    // A hang: past -timeout, where the fuzz test's goroutine was, down to
    // the line that spins (the worker's own thread only waits for Go).
    let file = pkg.scratch.path().join("in-hang");
    std::fs::write(&file, "go test fuzz v1\nstring(\"hang\")\n").unwrap();
    let r = pkg
        .tool(
            "fuzz-worker",
            &[
                "run",
                "-timeout",
                "1s",
                "-target",
                "FuzzVerdicts",
                &lib,
                file.to_str().unwrap(),
            ],
        )
        .expect(1);
    let out = r.out();
    assert!(out.contains("timed out after 1s"), "{out}");
    assert!(
        out.contains("the fuzz test's goroutines were here"),
        "{out}"
    );
    // The spinning loop is lines 50-51; Go 1.19 gives its back edge the
    // line of the closure's end (53) when the goroutine is caught there.
    let spinning = (50..=53).any(|n| out.contains(&format!("semantics_test.go:{n} ")));
    assert!(
        out.contains("example.com/semantics.FuzzVerdicts.func1") && spinning,
        "{out}"
    );
    // t.Cleanup ran for every input but the one that exited, and t.TempDir
    // removed its directories, as under go test.
    let ran = std::fs::read_to_string(&cleanups).unwrap();
    for input in [
        "pass", "skip", "error", "fatal", "panic", "goexit", "exit0", "parallel",
    ] {
        assert!(
            ran.lines().any(|l| l == input),
            "no cleanup for {input}: {ran:?}"
        );
    }
    assert!(!ran.contains("exit3"), "{ran}");
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert_eq!(
        left.len(),
        1,
        "only the exiting input's temporary directory stays"
    );

    // Replay: the same verdicts go test gives.
    let ours = pkg.tool("fuzz-run", &["."]).expect(1).out();
    let go = pkg.go(&["test", "."]).expect(1).out();
    for target in ["FuzzSeeds", "FuzzFatalFirst", "FuzzTwice"] {
        let line = format!("--- FAIL: {target} ");
        assert!(ours.contains(&line), "ours: {ours}");
        assert!(go.contains(&line), "go: {go}");
    }
    for both in [
        "--- FAIL: FuzzSeeds/seed#1 ",
        "semantics_test.go:65: seed 2 is bad",
        "semantics_test.go:72: not ready to fuzz",
        "panic: testing: F.Fuzz called more than once",
    ] {
        assert!(ours.contains(both), "ours lacks {both:?}: {ours}");
        assert!(go.contains(both), "go lacks {both:?}: {go}");
    }
    assert!(!ours.contains("FuzzSkipAll"), "{ours}");
    let verbose = pkg
        .tool("fuzz-run", &["-v", "-run", "FuzzSkipAll", "."])
        .expect(0);
    assert!(
        verbose.out().contains("--- SKIP: FuzzSkipAll")
            && verbose.out().contains("nothing to fuzz here"),
        "{}",
        verbose.out()
    );
    // Fuzzing a fuzz test whose set-up fails fails at once; one that skips
    // is not fuzzed.
    let r = pkg
        .tool(
            "fuzz-run",
            &["-fuzz", "FuzzFatalFirst", "-fuzztime", "5s", "."],
        )
        .expect(1);
    assert!(r.out().contains("not ready to fuzz"), "{}", r.out());
    pkg.tool(
        "fuzz-run",
        &["-fuzz", "FuzzSkipAll", "-fuzztime", "5s", "."],
    )
    .expect(0);
}

#[test]
fn a_test_main_sets_up_every_fuzz_test() {
    let pkg = Pkg::copy("tests/go/testmain");
    pkg.tool("fuzz-run", &["."]).expect(0);
    // Fuzzing runs it too (in the worker, whose TestMain would os.Exit
    // after m.Run: it never gets there); the planted "stop" is found.
    let r = pkg.fuzz("FuzzNeedsMain", "60s", &[]).expect(1);
    assert!(r.out().contains("testmain_test.go:27: stop"), "{}", r.out());
    assert!(!r.out().contains("TestMain did not run"), "{}", r.out());
}

#[test]
fn comparison_feedback_and_keepfuzzing_work_on_go_fuzz_tests() {
    let pkg = Pkg::copy("tests/go/semantics");
    // A string and a 32-bit equality: the hooks' operands find them.
    let r = pkg.fuzz("^FuzzCompare$", "60s", &[]).expect(1);
    assert!(
        r.out().contains("found the magic \"fuzz-go!\" 0xc0ffee42"),
        "{}",
        r.out()
    );
    // Without them (nor the code's strings), not in seconds.
    std::fs::remove_dir_all(pkg.dir().join("testdata")).unwrap();
    pkg.fuzz(
        "^FuzzCompare$",
        "10s",
        &["-use_cmp", "0", "-code_strings", "0"],
    )
    .expect(0);
    // Two bugs at two sites: -keepfuzzing keeps one crasher for each.
    let r = pkg
        .fuzz("^FuzzTwoBugs$", "20s", &["-keepfuzzing"])
        .expect(1);
    let crashers = pkg.crashers("FuzzTwoBugs");
    assert_eq!(crashers.len(), 2, "{crashers:?}\n{}", r.out());
    let out = r.out();
    assert!(out.contains("first bug"), "{out}");
    assert!(out.contains("assignment to entry in nil map"), "{out}");
}

#[test]
fn fuzz_minimize_and_cover_take_a_go_library() {
    let pkg = Pkg::copy("examples/go");
    let lib = pkg.build();
    let input = pkg.scratch.path().join("long");
    std::fs::write(&input, "go test fuzz v1\n[]byte(\"abcdef\\x7fghijk\")\n").unwrap();
    let r = pkg
        .tool(
            "fuzz-minimize",
            &["-target", "FuzzQuote", &lib, input.to_str().unwrap()],
        )
        .expect(0);
    assert_eq!(r.out(), "go test fuzz v1\n[]byte(\"\\x7f\")\n");
    // Go emits no PC table: the blocks are found from the instructions
    // that increment each counter, and the lines marked as for C.
    let corpus = pkg.scratch.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::copy(&input, corpus.join("a")).unwrap();
    let corpus = corpus.to_str().unwrap();
    let args = [
        "cover",
        "-target",
        "FuzzQuote",
        "-lines",
        "Quote",
        &lib,
        corpus,
    ];
    let r = pkg.tool("fuzz-corpus", &args).expect(0);
    let out = r.out();
    let header = out.lines().next().unwrap();
    assert!(
        header.starts_with("example.com/gofuzz.Quote ") && header.contains("record.go:"),
        "{out}"
    );
    let source = std::fs::read_to_string(root().join("examples/go/record.go")).unwrap();
    let mark = |needle: &str| {
        let n = 1 + source.lines().position(|l| l.trim() == needle).unwrap();
        let row = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&n.to_string()))
            .unwrap_or_else(|| panic!("line {n} ({needle}) not shown:\n{out}"));
        row.split_whitespace().nth(1).unwrap().to_string()
    };
    // No byte of the entry is below 0x20 or a backslash: those cases
    // never ran; the default case did, once per entry.
    assert_eq!(mark("sb.WriteString(\"\\\\x\")"), "!", "{out}");
    assert_eq!(mark("sb.WriteByte('\\\\')"), "!", "{out}");
    assert_eq!(mark("for _, c := range b {"), ">", "{out}");
    let listing = pkg
        .tool(
            "fuzz-corpus",
            &["cover", "-target", "FuzzQuote", &lib, corpus],
        )
        .expect(0);
    assert!(
        listing.out().contains("example.com/gofuzz.Quote"),
        "{}",
        listing.out()
    );
}
