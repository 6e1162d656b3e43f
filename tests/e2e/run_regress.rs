//! fuzz-run without -fuzz: regression replay of `testdata/fuzz/<Target>/`
//! against the example libraries, reported like plain `go test`.
//!
//! Each test lays out its own testdata directory in a temporary directory
//! (v1 files copied from examples/known-inputs/, raw libFuzzer inputs
//! wrapped by `fuzz-convert to-v1`, hand-written ones) and runs fuzz-run
//! there.

use crate::common::*;
use std::path::{Path, PathBuf};

const TOOL: &str = "fuzz-run";

fn fuzz_run(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, TOOL, args)
}

/// `<dir>/testdata/fuzz/<target>/`, created.
fn seed_dir(dir: &Path, target: &str) -> PathBuf {
    let d = dir.join("testdata").join("fuzz").join(target);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes a v1 file of the given Go literals as `<seed dir>/<name>`.
fn v1(dir: &Path, target: &str, name: &str, values: &[&str]) {
    let mut body = String::from("go test fuzz v1\n");
    for v in values {
        body.push_str(v);
        body.push('\n');
    }
    std::fs::write(seed_dir(dir, target).join(name), body).unwrap();
}

/// Copies a known input (a v1 file) into a target's seed corpus as `name`.
fn copy_known(dir: &Path, target: &str, known: &str, name: &str) {
    std::fs::copy(known_input(known), seed_dir(dir, target).join(name)).unwrap();
}

/// Wraps a raw known input with `fuzz-convert to-v1 -dir` into a
/// libFuzzer target's seed corpus; returns the file name Go would give it.
fn wrap_known(dir: &Path, target: &str, known: &str) -> String {
    let d = seed_dir(dir, target);
    let r = run_in(
        dir,
        "fuzz-convert",
        &["to-v1", "-dir", d.to_str().unwrap(), &known_input(known)],
    )
    .expect(0);
    let path = PathBuf::from(r.out().trim());
    assert!(path.is_file(), "fuzz-convert printed {path:?}");
    path.file_name().unwrap().to_str().unwrap().to_string()
}

/// Asserts `text` contains `needle`.
#[track_caller]
fn has(text: &str, needle: &str) {
    assert!(text.contains(needle), "want {needle:?} in:\n{text}");
}

#[track_caller]
fn lacks(text: &str, needle: &str) {
    assert!(!text.contains(needle), "want no {needle:?} in:\n{text}");
}

/// Asserts the last line is go test's `ok  \tLIB\t0.123s`.
#[track_caller]
fn ends_ok(r: &Run, lib: &str) {
    let out = r.out();
    let last = out.lines().last().unwrap_or_default();
    let re = regex::Regex::new(&format!(r"^ok  \t{}\t\d+\.\d{{3}}s$", regex::escape(lib))).unwrap();
    assert!(re.is_match(last), "want an ok line last:\n{out}");
}

/// Asserts the output ends with `FAIL` and `FAIL\tLIB\t0.123s`.
#[track_caller]
fn ends_fail(r: &Run, lib: &str) {
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n >= 2, "want FAIL lines:\n{out}");
    assert_eq!(lines[n - 2], "FAIL", "{out}");
    let re = regex::Regex::new(&format!(r"^FAIL\t{}\t\d+\.\d{{3}}s$", regex::escape(lib))).unwrap();
    assert!(re.is_match(lines[n - 1]), "want a FAIL line last:\n{out}");
}

/// The re-run commands printed after failing entries.
fn hints(r: &Run) -> Vec<String> {
    r.out()
        .lines()
        .filter_map(|l| l.strip_prefix("    To re-run: "))
        .map(str::to_string)
        .collect()
}

/// Runs a printed re-run command with `sh -c` in `dir`, fuzz-run on PATH,
/// adding `extra` flags right after the program name.
fn run_hint(dir: &Path, hint: &str, extra: &str) -> Run {
    let rest = hint
        .strip_prefix("fuzz-run ")
        .unwrap_or_else(|| panic!("hint should start with fuzz-run: {hint}"));
    let bin_dir = bin(TOOL).parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("fuzz-run {extra} {rest}"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("FUZZCACHE")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", dir.join("home"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    Run::from(out)
}

/// FuzzRecord's seed corpus: the known crasher, as `crasher`, and `fine`,
/// which passes.
fn record_crasher_and_fine(dir: &Path) {
    copy_known(dir, "FuzzRecord", "rust_typed.FuzzRecord", "crasher");
    v1(
        dir,
        "FuzzRecord",
        "fine",
        &[r#"string("q")"#, "int64(1)", r#"[]byte("")"#],
    );
}

/// The `=== RUN` names of a -v run.
fn run_lines(r: &Run) -> Vec<String> {
    r.out()
        .lines()
        .filter_map(|l| l.strip_prefix("=== RUN   "))
        .map(str::to_string)
        .collect()
}

#[test]
fn all_passing_seeds_print_only_the_ok_line() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    v1(
        d,
        "FuzzRecord",
        "plain",
        &[r#"string("ab")"#, "int64(9)", r#"[]byte("!")"#],
    );
    v1(
        d,
        "FuzzRecord",
        "other",
        &[r#"string("zz")"#, "int64(3)", r#"[]byte("")"#],
    );
    v1(
        d,
        "FuzzFlags",
        "x",
        &["byte('\\a')", "bool(false)", r#"string("z")"#],
    );
    // An empty seed directory passes; subdirectories are not entries, even
    // when they hold a failing input.
    seed_dir(d, "FuzzAllTypes");
    copy_known(d, "FuzzRecord/nested", "rust_typed.FuzzRecord", "crasher");
    let r = fuzz_run(d, &[&lib]).expect(0);
    assert_eq!(
        r.out().lines().count(),
        1,
        "want just the ok line:\n{}",
        r.out()
    );
    ends_ok(&r, &lib);
    assert!(r.stderr.is_empty(), "stderr: {}", r.stderr);
    // No testdata at all passes too.
    let empty = tempdir();
    ends_ok(&fuzz_run(empty.path(), &[&lib]).expect(0), &lib);
}

#[test]
fn typed_rust_failures_are_reported_and_the_hint_reruns_one_entry() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    copy_known(d, "FuzzRecord", "rust_typed.FuzzRecord", "3f2a9c0d11e4b5a6");
    v1(
        d,
        "FuzzRecord",
        "0-passes",
        &[r#"string("ab")"#, "int64(9)", r#"[]byte("!")"#],
    );
    v1(
        d,
        "FuzzRecord",
        "zz-passes",
        &[r#"string("q")"#, "int64(1)", r#"[]byte("")"#],
    );
    copy_known(d, "FuzzFlags", "rust_typed.FuzzFlags", "flags-crasher");
    let r = fuzz_run(d, &[&lib]).expect(1);
    let out = r.out();
    has(&out, "--- FAIL: FuzzRecord (");
    has(&out, "\n    --- FAIL: FuzzRecord/3f2a9c0d11e4b5a6 (0.00s)\n        record \"ab\" with count 3 has a bang payload (1 bytes)\n");
    has(
        &out,
        &format!("\n    To re-run: fuzz-run -run FuzzRecord/3f2a9c0d11e4b5a6 {lib}\n"),
    );
    has(&out, "--- FAIL: FuzzFlags (");
    has(
        &out,
        "    --- FAIL: FuzzFlags/flags-crasher (0.00s)\n        level 7 rejects strict word \"z\"",
    );
    // Without -v, passing entries and targets are not listed.
    lacks(&out, "passes");
    lacks(&out, "FuzzAllTypes");
    lacks(&out, "PASS");
    ends_fail(&r, &lib);
    assert!(r.stderr.is_empty(), "stderr: {}", r.stderr);

    // The hint re-runs that entry and nothing else.
    let hs = hints(&r);
    assert_eq!(hs.len(), 2, "{out}");
    let hint = hs.iter().find(|h| h.contains("FuzzRecord")).unwrap();
    let again = run_hint(d, hint, "-v").expect(1);
    assert_eq!(
        run_lines(&again),
        ["FuzzRecord", "FuzzRecord/3f2a9c0d11e4b5a6"],
        "{}",
        again.out()
    );
    has(
        &again.out(),
        "record \"ab\" with count 3 has a bang payload",
    );

    // The fixed build passes the same corpus.
    let fixed = example_lib("librust_typed_fixed.so");
    ends_ok(&fuzz_run(d, &[&fixed]).expect(0), &fixed);
}

#[test]
fn libfuzzer_c_crash_and_its_fixed_build() {
    let lib = example_lib("libc_parse_gcc.so");
    let dir = tempdir();
    let d = dir.path();
    let name = wrap_known(d, "c_parse_gcc", "c_parse");
    assert_eq!(name.len(), 16, "{name}");
    // Go's file2fuzz-style file without a final newline, which passes.
    std::fs::write(
        seed_dir(d, "c_parse_gcc").join("harmless"),
        "go test fuzz v1\n[]byte(\"TLVK\\x01\")",
    )
    .unwrap();
    let r = fuzz_run(d, &[&lib]).expect(1);
    let out = r.out();
    has(&out, "--- FAIL: c_parse_gcc (");
    has(
        &out,
        &format!("    --- FAIL: c_parse_gcc/{name} (0.00s)\n        crashed: SIGSEGV\n"),
    );
    has(
        &out,
        &format!("    To re-run: fuzz-run -run c_parse_gcc/{name} {lib}\n"),
    );
    lacks(&out, "harmless");
    ends_fail(&r, &lib);

    let again = run_hint(d, &hints(&r)[0], "-v").expect(1);
    assert_eq!(
        run_lines(&again),
        ["c_parse_gcc".to_string(), format!("c_parse_gcc/{name}")]
    );

    // The same entries under the fixed build's name pass.
    let fixed = example_lib("libc_parse_gcc_fixed.so");
    std::fs::rename(
        d.join("testdata/fuzz/c_parse_gcc"),
        d.join("testdata/fuzz/c_parse_gcc_fixed"),
    )
    .unwrap();
    let r = fuzz_run(d, &["-v", &fixed]).expect(0);
    has(
        &r.out(),
        &format!("    --- PASS: c_parse_gcc_fixed/{name} (0.00s)"),
    );
    has(&r.out(), "    --- PASS: c_parse_gcc_fixed/harmless (0.00s)");
    ends_ok(&r, &fixed);
}

#[test]
fn asan_build_reports_the_sanitizer_kind() {
    let lib = example_lib("libc_asan.so");
    let dir = tempdir();
    let d = dir.path();
    let name = wrap_known(d, "c_asan", "c_asan");
    let r = fuzz_run(d, &[&lib]).expect(1);
    let out = r.out();
    has(
        &out,
        &format!("    --- FAIL: c_asan/{name} (0.00s)\n        asan: heap-buffer-overflow\n"),
    );
    has(&out, "AddressSanitizer");
    has(
        &out,
        &format!("    To re-run: fuzz-run -run c_asan/{name} {lib}\n"),
    );
    ends_fail(&r, &lib);

    let fixed = example_lib("libc_asan_fixed.so");
    std::fs::rename(
        d.join("testdata/fuzz/c_asan"),
        d.join("testdata/fuzz/c_asan_fixed"),
    )
    .unwrap();
    ends_ok(&fuzz_run(d, &[&fixed]).expect(0), &fixed);
}

#[test]
fn run_selects_targets_and_entries() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    record_crasher_and_fine(d);
    v1(
        d,
        "FuzzFlags",
        "fine",
        &["byte(7)", "bool(true)", r#"string("a")"#],
    );
    v1(
        d,
        "FuzzFlags",
        "other",
        &["byte(1)", "bool(true)", r#"string("z")"#],
    );

    // A target: the other's failure does not run.
    let r = fuzz_run(d, &["-v", "-run", "Flags", &lib]).expect(0);
    assert_eq!(
        run_lines(&r),
        ["FuzzFlags", "FuzzFlags/fine", "FuzzFlags/other"]
    );
    // Alternatives, as Go splits them.
    let r = fuzz_run(d, &["-v", "-run", "^FuzzAllTypes$|Flags/^o", &lib]).expect(0);
    assert_eq!(
        run_lines(&r),
        ["FuzzAllTypes", "FuzzFlags", "FuzzFlags/other"]
    );
    // One entry of each target that has it.
    let r = fuzz_run(d, &["-v", "-run", "/^fine$", &lib]).expect(0);
    assert_eq!(
        run_lines(&r),
        [
            "FuzzAllTypes",
            "FuzzFlags",
            "FuzzFlags/fine",
            "FuzzRecord",
            "FuzzRecord/fine"
        ]
    );
    // Target/NAME, = spelling.
    let r = fuzz_run(d, &["-run=FuzzRecord/crasher", &lib]).expect(1);
    has(&r.out(), "--- FAIL: FuzzRecord/crasher");
    lacks(&r.out(), "fine");
}

#[test]
fn verbose_lists_every_entry_and_skips_rejected_ones() {
    let lib = example_lib("libmisbehave.so");
    let dir = tempdir();
    let d = dir.path();
    v1(d, "FuzzOk", "a", &[r#"[]byte("a")"#]);
    v1(d, "FuzzOk", "b", &[r#"[]byte("b")"#]);
    copy_known(d, "FuzzReject", "misbehave.FuzzReject", "empty");
    let r = fuzz_run(d, &["-v", "-run", "^Fuzz(Ok|Reject|Typed)$", &lib]).expect(0);
    let out = r.out();
    let want = [
        "=== RUN   FuzzOk",
        "=== RUN   FuzzOk/a",
        "=== RUN   FuzzOk/b",
        "--- PASS: FuzzOk (",
        "    --- PASS: FuzzOk/a (0.00s)",
        "    --- PASS: FuzzOk/b (0.00s)",
        "=== RUN   FuzzReject",
        "=== RUN   FuzzReject/empty",
        "--- PASS: FuzzReject (",
        "    --- SKIP: FuzzReject/empty (0.00s)",
        "=== RUN   FuzzTyped",
        "--- PASS: FuzzTyped (",
        "PASS",
        "ok  \t",
    ];
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("        ")).collect();
    assert_eq!(lines.len(), want.len(), "{out}");
    for (line, want) in lines.iter().zip(want) {
        assert!(
            line.starts_with(want),
            "want {want:?}, got {line:?} in:\n{out}"
        );
    }
    ends_ok(&r, &lib);
}

#[test]
fn hangs_exits_and_failures_each_fail_their_entry() {
    let lib = example_lib("libmisbehave.so");
    let dir = tempdir();
    let d = dir.path();
    // An entry that passes first, so the hang is not the worker's first
    // input (which is allowed max(60s, 10 x -timeout)).
    v1(d, "FuzzHang", "a", &[r#"[]byte("a")"#]);
    copy_known(d, "FuzzHang", "misbehave.FuzzHang", "hang");
    v1(d, "FuzzHang", "z", &[r#"[]byte("z")"#]);
    copy_known(d, "FuzzExit", "misbehave.FuzzExit", "exit");
    copy_known(d, "FuzzFail", "misbehave.FuzzFail", "fail");
    copy_known(d, "FuzzTyped", "misbehave.FuzzTyped", "typed");
    let r = fuzz_run(
        d,
        &[
            "-v",
            "-timeout",
            "1s",
            "-run",
            "^Fuzz(Hang|Exit|Fail|Typed)$",
            &lib,
        ],
    )
    .expect(1);
    let out = r.out();
    has(&out, "    --- PASS: FuzzHang/a (0.00s)");
    has(
        &out,
        "    --- FAIL: FuzzHang/hang (1.00s)\n        timed out after 1s\n",
    );
    has(
        &out,
        "    To re-run: fuzz-run -timeout 1s -run FuzzHang/hang ",
    );
    // The worker carries on after the hang.
    has(&out, "    --- PASS: FuzzHang/z (0.00s)");
    has(
        &out,
        "    --- FAIL: FuzzExit/exit (0.00s)\n        exited with status 3",
    );
    has(
        &out,
        "    --- FAIL: FuzzFail/fail (0.00s)\n        bad input: starts with 'x' (1 bytes)",
    );
    has(&out, "        FuzzTyped: boom with 42 (flag=true)");
    ends_fail(&r, &lib);
}

#[test]
fn testdata_flag_picks_the_corpus_directory() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    let corpora = d.join("my corpora").join("fuzz").join("FuzzRecord");
    std::fs::create_dir_all(&corpora).unwrap();
    std::fs::copy(
        known_input("rust_typed.FuzzRecord"),
        corpora.join("crasher"),
    )
    .unwrap();
    // Nothing in ./testdata: passes.
    ends_ok(&fuzz_run(d, &[&lib]).expect(0), &lib);
    let r = fuzz_run(d, &["-testdata", "my corpora", &lib]).expect(1);
    has(&r.out(), "    --- FAIL: FuzzRecord/crasher");
    let hint = &hints(&r)[0];
    assert_eq!(
        hint,
        &format!("fuzz-run -testdata 'my corpora' -run FuzzRecord/crasher {lib}")
    );
    let again = run_hint(d, hint, "-v").expect(1);
    assert_eq!(run_lines(&again), ["FuzzRecord", "FuzzRecord/crasher"]);
}

/// issue 22: `-testdata FILE` was a finding in replay mode and ignored by
/// -fuzz, and a mistyped `-testdata` passed with no seed corpus at all.
#[test]
fn an_explicit_testdata_must_be_a_directory() {
    let lib = example_lib("libc_parse_clang_fixed.so");
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("file"), "not a directory\n").unwrap();
    let fuzz = ["-fuzz", "c_parse", "-fuzztime", "100x", "-parallel", "1"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["-testdata", "file"],
            "file: not a directory (-testdata)",
        ),
        (vec!["-testdata", "nodir"], "nodir: no such directory"),
        (
            vec!["-fuzz", "", "-testdata", "nodir"],
            "nodir: no such directory",
        ),
        (vec!["-testdata", "file/sub"], "file/sub: "),
        (
            [&fuzz[..], &["-testdata", "file"]].concat(),
            "file: not a directory (-testdata)",
        ),
    ];
    let before = snapshot(d);
    for (mut args, needle) in cases {
        args.push(&lib);
        let r = fuzz_run(d, &args).expect(2);
        r.one_line_error(TOOL, needle);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.out());
        assert_eq!(snapshot(d), before, "{args:?} wrote");
    }
    // The default may be missing, as in Go; fuzzing creates what it needs.
    ends_ok(&fuzz_run(d, &[&lib]).expect(0), &lib);
    let args = [
        &fuzz[..],
        &["-testdata", "new", "-fuzzcachedir", "cache", &lib],
    ]
    .concat();
    fuzz_run(d, &args).expect(0);
}

#[test]
fn entry_names_that_need_quoting_get_a_hint_that_works() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    copy_known(d, "FuzzRecord", "rust_typed.FuzzRecord", "it's (1)");
    copy_known(d, "FuzzRecord", "rust_typed.FuzzRecord", "it's (1) too");
    copy_known(d, "FuzzRecord", "rust_typed.FuzzRecord", "-dash");
    let r = fuzz_run(d, &[&lib]).expect(1);
    let hs = hints(&r);
    assert_eq!(hs.len(), 3, "{}", r.out());
    has(&r.out(), "    --- FAIL: FuzzRecord/-dash (0.00s)");
    for (hint, entry) in hs.iter().zip(["-dash", "it's (1)", "it's (1) too"]) {
        let again = run_hint(d, hint, "-v").expect(1);
        assert_eq!(
            run_lines(&again),
            ["FuzzRecord".to_string(), format!("FuzzRecord/{entry}")],
            "{hint}"
        );
    }
}

#[test]
fn malformed_and_mistyped_seed_files_fail_the_target_unrun() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    let seeds = seed_dir(d, "FuzzRecord");
    std::fs::write(seeds.join("a-header"), "go test fuzz v2\nstring(\"x\")\n").unwrap();
    std::fs::write(
        seeds.join("b-line3"),
        "go test fuzz v1\nstring(\"x\")\nint64(1\n[]byte(\"\")\n",
    )
    .unwrap();
    v1(
        d,
        "FuzzRecord",
        "c-types",
        &["int64(1)", r#"string("x")"#, r#"[]byte("")"#],
    );
    v1(d, "FuzzRecord", "d-count", &[r#"string("x")"#]);
    std::fs::write(seeds.join("e-empty"), "").unwrap();
    // A good entry that would fail if anything ran.
    copy_known(d, "FuzzRecord", "rust_typed.FuzzRecord", "f-crasher");
    v1(
        d,
        "FuzzFlags",
        "ok",
        &["byte(1)", "bool(false)", r#"string("")"#],
    );

    let r = fuzz_run(d, &["-v", "-run", "Record|Flags", &lib]).expect(1);
    let out = r.out();
    let block: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("--- FAIL: FuzzRecord ("))
        .take(6)
        .collect();
    assert_eq!(block.len(), 6, "{out}");
    let want = [
        "    testdata/fuzz/FuzzRecord/a-header:1: unknown encoding version",
        "    testdata/fuzz/FuzzRecord/b-line3:3: malformed line \"int64(1\"",
        "    testdata/fuzz/FuzzRecord/c-types: mismatched types in corpus entry: [int64, string, []byte], want [string, int64, []byte]",
        "    testdata/fuzz/FuzzRecord/d-count: wrong number of values in corpus entry: 1, want 3",
        "    testdata/fuzz/FuzzRecord/e-empty: empty file",
    ];
    for (line, want) in block[1..].iter().zip(want) {
        assert!(
            line.starts_with(want),
            "want {want:?}, got {line:?} in:\n{out}"
        );
    }
    // Nothing of FuzzRecord ran; FuzzFlags did, and passed.
    assert_eq!(
        run_lines(&r),
        ["FuzzFlags", "FuzzFlags/ok", "FuzzRecord"],
        "{out}"
    );
    lacks(&out, "f-crasher");
    lacks(&out, "bang payload");
    lacks(&out, "To re-run");
    has(&out, "--- PASS: FuzzFlags (");
    ends_fail(&r, &lib);

    // As in Go, selecting the good entry does not excuse the bad files.
    let r = fuzz_run(d, &["-run", "FuzzRecord/f-crasher", &lib]).expect(1);
    has(&r.out(), "a-header:1: ");
    lacks(&r.out(), "bang payload");
}

#[test]
fn go_written_files_are_read_and_type_checked() {
    let go = data("vectors/go-written/testdata");
    let dir = tempdir();
    let d = dir.path();
    let copy_all = |from: &str, to: &Path| -> Vec<String> {
        std::fs::create_dir_all(to).unwrap();
        let mut names = Vec::new();
        for f in std::fs::read_dir(go.join(from)).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_str().unwrap().to_string();
            std::fs::copy(&f, to.join(&name)).unwrap();
            names.push(name);
        }
        names
    };
    // Go's crashers of other signatures: each one is a type error for
    // FuzzRecord(string, int64, []byte), reported with its file.
    let record = d.join("testdata/fuzz/FuzzRecord");
    let mut names = Vec::new();
    for target in [
        "FuzzStrInt",
        "FuzzAll",
        "FuzzString",
        "FuzzHang",
        "FuzzExit",
    ] {
        names.extend(copy_all(target, &record));
    }
    let typed = example_lib("librust_typed.so");
    let r = fuzz_run(d, &["-run", "FuzzRecord", &typed]).expect(1);
    let out = r.out();
    for name in &names {
        let line = out
            .lines()
            .find(|l| l.contains(name.as_str()))
            .unwrap_or_else(|| panic!("{name} not reported:\n{out}"));
        assert!(
            line.starts_with(&format!("    testdata/fuzz/FuzzRecord/{name}: "))
                && line.contains("wrong number of values in corpus entry: "),
            "{line}"
        );
    }
    has(&out, "wrong number of values in corpus entry: 17, want 3");

    // Single values of other types do not fit a libFuzzer entry's []byte.
    let c = example_lib("libc_parse_gcc.so");
    let other = d.join("other/fuzz/c_parse_gcc");
    let mut names = Vec::new();
    for target in ["FuzzString", "FuzzHang", "FuzzExit"] {
        names.extend(copy_all(target, &other));
    }
    let r = fuzz_run(d, &["-testdata", "other", &c]).expect(1);
    for name in &names {
        has(
            &r.out(),
            &format!("    other/fuzz/c_parse_gcc/{name}: mismatched types in corpus entry: ["),
        );
    }
    has(
        &r.out(),
        "mismatched types in corpus entry: [uint16], want [[]byte]",
    );

    // Go's []byte files replay on it.
    copy_all("FuzzBytes", &d.join("testdata/fuzz/c_parse_gcc"));
    let r = fuzz_run(d, &["-v", &c]).expect(0);
    assert_eq!(run_lines(&r).len(), 3, "{}", r.out());
}

#[test]
fn json_events() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    record_crasher_and_fine(d);
    std::fs::write(
        seed_dir(d, "FuzzFlags").join("bad"),
        "go test fuzz v1\nnope\n",
    )
    .unwrap();
    let r = fuzz_run(d, &["-json", "-v", &lib]).expect(1);
    let events: Vec<serde_json::Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let kinds: Vec<(&str, &str)> = events
        .iter()
        .map(|e| {
            (
                e["event"].as_str().unwrap(),
                e["target"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("target", "FuzzAllTypes"),
            ("target", "FuzzFlags"),
            ("entry", "FuzzRecord"),
            ("entry", "FuzzRecord"),
            ("target", "FuzzRecord"),
            ("end", ""),
            ("exit", ""),
        ],
        "{}",
        r.out()
    );
    assert_eq!(events[0]["outcome"], "pass");
    assert_eq!(events[1]["outcome"], "fail");
    let malformed = events[1]["malformed"][0].as_str().unwrap();
    assert!(
        malformed.starts_with("testdata/fuzz/FuzzFlags/bad:2: malformed line"),
        "{malformed}"
    );
    assert_eq!(events[2]["entry"], "crasher");
    assert_eq!(events[2]["file"], "testdata/fuzz/FuzzRecord/crasher");
    assert_eq!(events[2]["outcome"], "fail");
    assert_eq!(events[2]["result"], "failed");
    assert!(events[2]["message"]
        .as_str()
        .unwrap()
        .contains("bang payload"));
    assert_eq!(
        events[2]["rerun"],
        format!("fuzz-run -run FuzzRecord/crasher {lib}").as_str()
    );
    assert_eq!(events[3]["outcome"], "pass");
    assert_eq!(events[3]["result"], "ok");
    assert_eq!(events[4]["outcome"], "fail");
    assert_eq!(events[4]["entries"], 2);
    assert_eq!(events[4]["failed"], 1);
    assert_eq!(events[5]["outcome"], "fail");
    assert_eq!(events[5]["failed"], 2);
    assert_eq!(events[5]["lib"], lib.as_str());
}

#[test]
fn misuse_is_one_line_and_exit_2() {
    let lib = example_lib("librust_typed.so");
    let dir = tempdir();
    let d = dir.path();
    copy_known(d, "FuzzRecord", "rust_typed.FuzzRecord", "crasher");
    let cases: [(&[&str], &str); 5] = [
        (&["no-such-lib.so"], "no-such-lib.so"),
        (&["-run", "[", &lib], "invalid regexp for element 0 of -run"),
        (
            &["-run", "Record/(", &lib],
            "invalid regexp for element 1 of -run",
        ),
        (
            &["-run", "Nope", &lib],
            "(the library has: FuzzAllTypes, FuzzFlags, FuzzRecord)",
        ),
        (
            &["-run", "Record/nope", &lib],
            "matches no seed corpus entry",
        ),
    ];
    for (args, needle) in cases {
        let r = fuzz_run(d, args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.out(), r.stderr);
        r.one_line_error(TOOL, needle);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.out());
    }
}

#[test]
fn the_rerun_line_pastes_into_sh_for_any_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempdir();
    let d = dir.path();
    // A library whose name is not UTF-8, and an entry with a newline.
    let lib_name = std::ffi::OsStr::from_bytes(b"lib\xffodd.so");
    std::fs::copy(example_lib("librust_typed.so"), d.join(lib_name)).unwrap();
    let seeds = d.join("testdata/fuzz/FuzzRecord");
    std::fs::create_dir_all(&seeds).unwrap();
    let known = std::fs::read(known_input("rust_typed.FuzzRecord")).unwrap();
    std::fs::write(seeds.join("two\nlines"), &known).unwrap();
    let lib_arg = std::path::Path::new(".").join(lib_name);
    let out = cmd(d, "fuzz-run", &[])
        .arg(&lib_arg)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let r = Run::from(out).expect(1);
    let line = r
        .out()
        .lines()
        .find_map(|l| l.trim().strip_prefix("To re-run: ").map(str::to_string))
        .unwrap_or_else(|| panic!("{}", r.out()));
    // Pasted into sh (dash) and bash, it runs that entry, and it fails.
    let bin_dir = bin("fuzz-run").parent().unwrap().to_path_buf();
    for sh in ["sh", "bash"] {
        let out = std::process::Command::new(sh)
            .arg("-c")
            .arg(&line)
            .current_dir(d)
            .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
            .env("HOME", d.join("home"))
            .output()
            .unwrap();
        let r = Run::from(out);
        assert_eq!(r.code, 1, "{sh}: {line}\n{}\n{}", r.out(), r.stderr);
        assert!(
            r.out().contains("--- FAIL: FuzzRecord/two"),
            "{sh}: {}",
            r.out()
        );
    }
    // JSON keeps the library path's bytes.
    let out = cmd(d, "fuzz-corpus", &["list", "-json"])
        .arg(
            d.join(lib_name)
                .parent()
                .unwrap()
                .join("testdata/fuzz/FuzzRecord"),
        )
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"name\":\"two\\nlines\""));
    let odd_dir = d.join(std::ffi::OsStr::from_bytes(b"c\xfe"));
    std::fs::create_dir(&odd_dir).unwrap();
    std::fs::write(odd_dir.join("e"), &known).unwrap();
    let out = cmd(d, "fuzz-corpus", &["list", "-json"])
        .arg(&odd_dir)
        .output()
        .unwrap();
    let obj: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hex = obj["path_hex"].as_str().unwrap();
    assert_eq!(
        hex::decode(hex).unwrap(),
        odd_dir.join("e").as_os_str().as_bytes()
    );
}
