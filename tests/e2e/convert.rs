//! fuzz-convert end to end: Go-written files to raw bytes, raw bytes to v1
//! files Go would write, AFL and libFuzzer trees into a seed corpus and back,
//! and every kind of bad input refused with one line, exit 2 and no file
//! touched.

use crate::common::*;
use std::fs;
use std::path::{Path, PathBuf};

const TOOL: &str = "fuzz-convert";

fn go_written(rel: &str) -> PathBuf {
    data("vectors/go-written").join(rel)
}

/// A crasher Go 1.19 wrote: `[]byte("BUG")`.
fn go_bug() -> PathBuf {
    go_written(
        "testdata/FuzzBytes/dd41b1fa66f374c7c0833e75558e623a0bf5a16fb0128f5953f5ddecf2000e81",
    )
}

/// A cache entry Go wrote for a target with 17 arguments, the first two
/// `string("0")` and `[]byte("0")`.
fn go_all() -> PathBuf {
    go_written("cache/FuzzAll/0582c5179747b13bb26ca9ef4bee7f789847490a0e454055bf9779dbb4d6f607")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// What to-v1 and import write for raw bytes: Go's file2fuzz output.
fn v1_bytes(literal: &str) -> Vec<u8> {
    format!("go test fuzz v1\n{literal}\n").into_bytes()
}

/// The contents of every file directly in `dir`, sorted.
fn contents(dir: &Path) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = fs::read_dir(dir)
        .unwrap()
        .map(|e| fs::read(e.unwrap().path()).unwrap())
        .collect();
    all.sort();
    all
}

fn lines(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs a command that must fail with exit 2, one line naming `needle` on
/// stderr, nothing on stdout, and no change under `dir`.
#[track_caller]
fn refused(dir: &Path, args: &[&str], needle: &str) -> Run {
    let before = snapshot(dir);
    let r = run_in(dir, TOOL, args).expect(2);
    r.one_line_error(TOOL, needle);
    assert!(r.stdout.is_empty(), "stdout should be empty: {}", r.out());
    assert_eq!(snapshot(dir), before, "{args:?} changed files");
    r
}

// ---- to-raw ----

#[test]
fn to_raw_go_written_bytes() {
    let t = tempdir();
    let r = run_in(t.path(), TOOL, &["to-raw", s(&go_bug())]).expect(0);
    assert_eq!(r.stdout, b"BUG");
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let other = go_written(
        "testdata/FuzzBytes/40d26594eecd0b872c3a66e8157b7d7a056c11046c2c38880883d17b6cbbbf8f",
    );
    let r = run_in(t.path(), TOOL, &["to-raw", s(&other)]).expect(0);
    assert_eq!(r.stdout, b"BUG\x8f\r0");
    let string = go_written(
        "testdata/FuzzString/c3a1253fb1d377cb6e9834313e00569d168d8734659c5e4fe4391a03235deaa9",
    );
    let r = run_in(t.path(), TOOL, &["to-raw", s(&string)]).expect(0);
    assert_eq!(r.stdout, b"xyz");
}

#[test]
fn to_raw_multi_argument_entry_needs_arg() {
    let t = tempdir();
    let r = refused(t.path(), &["to-raw", s(&go_all())], "-arg N");
    assert!(r.stderr.contains("17 arguments"), "{}", r.stderr);
    assert!(r.stderr.contains("(string, []byte, int,"), "{}", r.stderr);
    let all = go_all();
    let r = run_in(t.path(), TOOL, &["to-raw", "-arg", "0", s(&all)]).expect(0);
    assert_eq!(r.stdout, b"0");
    for spelling in [&["-arg=1"][..], &["--arg", "1"], &["--arg=1"]] {
        let mut args = vec!["to-raw"];
        args.extend_from_slice(spelling);
        args.push(s(&all));
        let r = run_in(t.path(), TOOL, &args).expect(0);
        assert_eq!(r.stdout, b"0", "{spelling:?}");
    }
    // Argument 12 is float32(1.5), on line 14.
    let r = refused(t.path(), &["to-raw", "-arg", "12", s(&go_all())], "float32");
    assert!(r.stderr.contains(":14: argument 12"), "{}", r.stderr);
    let r = refused(t.path(), &["to-raw", "-arg", "99", s(&go_all())], "-arg 99");
    assert!(r.stderr.contains("out of range"), "{}", r.stderr);
    refused(t.path(), &["to-raw", "-arg", "-1", s(&go_all())], "-arg");
    refused(t.path(), &["to-raw", "-arg", "x", s(&go_all())], "-arg");
}

#[test]
fn to_raw_names_the_type_of_a_non_byte_value() {
    let t = tempdir();
    let exit = go_written(
        "testdata/FuzzExit/2c942056e554827eea1341f8333a8d9eabd88f52196dc790cde1ed6932128001",
    );
    let r = refused(t.path(), &["to-raw", s(&exit)], "uint16");
    assert!(r.stderr.contains(":2: "), "{}", r.stderr);
}

#[test]
fn to_raw_from_stdin_to_stdout_or_file() {
    let t = tempdir();
    let file = b"go test fuzz v1\nstring(\"\\x00hi\\xff\")\nint64(3)\n";
    let r = run_with_stdin(t.path(), TOOL, &["to-raw", "-arg", "0", "-"], file).expect(0);
    assert_eq!(r.stdout, b"\x00hi\xff");
    let r = run_with_stdin(
        t.path(),
        TOOL,
        &["to-raw", "-arg", "0", "-o", "-", "-"],
        file,
    )
    .expect(0);
    assert_eq!(r.stdout, b"\x00hi\xff");
    let r = run_with_stdin(
        t.path(),
        TOOL,
        &["to-raw", "-arg=0", "-o", "out.bin", "-"],
        file,
    )
    .expect(0);
    assert!(r.stdout.is_empty());
    assert_eq!(fs::read(t.path().join("out.bin")).unwrap(), b"\x00hi\xff");
    // A malformed stdin is named as such, with its line.
    let r = run_with_stdin(
        t.path(),
        TOOL,
        &["to-raw", "-"],
        b"go test fuzz v1\n[]byte(x)\n",
    )
    .expect(2);
    r.one_line_error(TOOL, "<stdin>:2:");
}

#[test]
fn to_raw_extracts_custom_values() {
    let t = tempdir();
    let file = t.path().join("c.v1");
    write(
        &file,
        b"go test fuzz v1\ncustom(\"tree\", []byte(\"\\x01\\x02\"))\n",
    );
    let r = run_in(t.path(), TOOL, &["to-raw", "c.v1"]).expect(0);
    assert_eq!(r.stdout, b"\x01\x02");
}

#[test]
fn broken_pipe_exits_zero() {
    use std::process::Stdio;
    let t = tempdir();
    let big = vec![b'A'; 1 << 20];
    write(
        &t.path().join("big.v1"),
        &v1_bytes(&format!("[]byte(\"{}\")", String::from_utf8(big).unwrap())),
    );
    let mut child = cmd(t.path(), TOOL, &["to-raw", "big.v1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let r = Run::from(child.wait_with_output().unwrap()).expect(0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

// ---- to-v1 ----

#[test]
fn to_v1_writes_what_go_writes() {
    let t = tempdir();
    let r = run_with_stdin(t.path(), TOOL, &["to-v1", "-"], b"BUG").expect(0);
    assert_eq!(r.stdout, fs::read(go_bug()).unwrap());
    let r = run_with_stdin(t.path(), TOOL, &["to-v1", "-type", "string", "-"], b"xyz").expect(0);
    let go = go_written(
        "testdata/FuzzString/c3a1253fb1d377cb6e9834313e00569d168d8734659c5e4fe4391a03235deaa9",
    );
    assert_eq!(r.stdout, fs::read(go).unwrap());
    let r = run_with_stdin(
        t.path(),
        TOOL,
        &["to-v1", "-type=[]byte", "-o", "e.v1", "-"],
        b"",
    )
    .expect(0);
    assert!(r.stdout.is_empty());
    assert_eq!(
        fs::read(t.path().join("e.v1")).unwrap(),
        v1_bytes("[]byte(\"\")")
    );
}

#[test]
fn to_v1_of_every_byte_value_round_trips() {
    let t = tempdir();
    let all: Vec<u8> = (0..=255).collect();
    write(&t.path().join("all.bin"), &all);
    let r = run_in(t.path(), TOOL, &["to-v1", "-o", "all.v1", "all.bin"]).expect(0);
    assert!(r.stdout.is_empty());
    let v1 = fs::read(t.path().join("all.v1")).unwrap();
    assert!(
        v1.starts_with(b"go test fuzz v1\n[]byte(\"\\x00\\x01"),
        "{v1:?}"
    );
    assert!(v1.ends_with(b"\\xff\")\n"));
    assert!(v1.is_ascii(), "Go quotes every non-ASCII byte");
    let r = run_in(t.path(), TOOL, &["to-raw", "all.v1"]).expect(0);
    assert_eq!(r.stdout, all);
    for t_name in ["string", "[]byte"] {
        let r = run_with_stdin(t.path(), TOOL, &["to-v1", "-type", t_name, "-"], &all).expect(0);
        let back = run_with_stdin(t.path(), TOOL, &["to-raw", "-"], &r.stdout).expect(0);
        assert_eq!(back.stdout, all, "{t_name}");
    }
}

#[test]
fn to_v1_dir_adds_a_seed_named_as_go_names_it() {
    let t = tempdir();
    write(&t.path().join("bug.bin"), b"BUG");
    let dir = "testdata/fuzz/FuzzBytes";
    let r = run_in(t.path(), TOOL, &["to-v1", "-dir", dir, "bug.bin"]).expect(0);
    assert_eq!(r.out(), format!("{dir}/dd41b1fa66f374c7\n"));
    let written = t.path().join(dir).join("dd41b1fa66f374c7");
    assert_eq!(fs::read(&written).unwrap(), fs::read(go_bug()).unwrap());
    let before = snapshot(t.path());
    let r = run_in(t.path(), TOOL, &["to-v1", "-dir", dir, "bug.bin"]).expect(0);
    assert_eq!(r.out(), format!("{dir}/dd41b1fa66f374c7\n"));
    assert_eq!(snapshot(t.path()), before);
    refused(
        t.path(),
        &["to-v1", "-dir", dir, "-o", "x", "bug.bin"],
        "-dir",
    );
    refused(
        t.path(),
        &["to-v1", "-dir", "bug.bin", "bug.bin"],
        "not a directory",
    );
}

// ---- import ----

/// A fake AFL++ output directory with a main and a secondary instance, all
/// the metadata AFL writes, and these inputs.
fn afl_tree(root: &Path) {
    let d = root.join("out/default");
    write(&d.join("queue/id:000000,time:0,execs:0,orig:seed"), b"seed");
    write(
        &d.join("queue/id:000001,src:000000,time:12,execs:34,op:havoc,rep:2,+cov"),
        b"q\xff1",
    );
    write(
        &d.join("queue/.state/auto_extras/id:000000"),
        b"not an input",
    );
    write(
        &d.join("queue/.state/redundant_edges/id:000001"),
        b"not an input",
    );
    write(
        &d.join("crashes/README.txt"),
        b"Command line used to find this crash:\n",
    );
    write(
        &d.join("crashes/id:000000,sig:11,src:000001,time:40,execs:99,op:havoc,rep:4"),
        b"crash\x00",
    );
    fs::create_dir_all(d.join("hangs")).unwrap();
    write(
        &d.join("hangs/id:000000,src:000000,time:50,execs:120,op:flip1,pos:0"),
        b"hang",
    );
    write(&d.join("fuzzer_stats"), b"start_time        : 1\n");
    write(&d.join("plot_data"), b"# relative_time\n");
    write(&d.join("cmdline"), b"./harness\n");
    write(&d.join("fuzz_bitmap"), &[0xffu8; 64]);
    write(&d.join(".cur_input"), b"current");
    write(&d.join(".synced/s1"), b"\x00\x00\x00\x01");
    // A secondary instance whose inputs use AFL's colon-free names.
    let s1 = root.join("out/s1");
    write(&s1.join("queue/id_000000,time_0,orig_seed"), b"seed");
    write(&s1.join("crashes/id_000000,sig_06,src_000000"), b"abort");
    fs::create_dir_all(s1.join("hangs")).unwrap();
    write(&s1.join("fuzzer_stats"), b"start_time        : 2\n");
}

/// The inputs of [`afl_tree`], as v1 files.
fn afl_entries() -> Vec<Vec<u8>> {
    let mut want: Vec<Vec<u8>> = [
        r#"[]byte("seed")"#,
        r#"[]byte("q\xff1")"#,
        r#"[]byte("crash\x00")"#,
        r#"[]byte("hang")"#,
        r#"[]byte("abort")"#,
    ]
    .iter()
    .map(|l| v1_bytes(l))
    .collect();
    want.sort();
    want
}

#[test]
fn import_afl_output_takes_exactly_the_inputs() {
    let t = tempdir();
    afl_tree(t.path());
    let r = run_in(t.path(), TOOL, &["import", "-target", "FuzzParse", "out"]).expect(0);
    let dest = t.path().join("testdata/fuzz/FuzzParse");
    assert_eq!(contents(&dest), afl_entries());
    // Every new entry is printed, and named by the digest of its bytes.
    let printed = lines(&r.stdout);
    assert_eq!(printed.len(), 5, "{}", r.out());
    for p in &printed {
        let name = p.strip_prefix("testdata/fuzz/FuzzParse/").expect(p);
        let bytes = fs::read(t.path().join(p)).unwrap();
        assert_eq!(name, fuzz_core::store::digest::entry_name(&bytes));
    }
    // The secondary's seed is the main's: one entry, counted once.
    assert_eq!(
        r.stderr,
        "fuzz-convert: imported 5 new entries (1 already present) into testdata/fuzz/FuzzParse\n"
    );
}

#[test]
fn import_afl_instance_queue_and_crashes_dirs() {
    let t = tempdir();
    afl_tree(t.path());
    let one = |args: &[&str]| -> Vec<Vec<u8>> {
        let td = tempdir();
        let mut full = vec!["import", "-target", "F", "-testdata", s(td.path())];
        full.extend_from_slice(args);
        run_in(t.path(), TOOL, &full).expect(0);
        contents(&td.path().join("fuzz/F"))
    };
    let instance = one(&["out/default"]);
    assert_eq!(instance.len(), 4);
    assert_eq!(
        one(&["out/default/queue"]),
        vec![
            v1_bytes(r#"[]byte("q\xff1")"#),
            v1_bytes(r#"[]byte("seed")"#)
        ]
    );
    assert_eq!(
        one(&["out/default/crashes"]),
        vec![v1_bytes(r#"[]byte("crash\x00")"#)]
    );
    assert_eq!(
        one(&["out/s1/crashes/"]),
        vec![v1_bytes(r#"[]byte("abort")"#)]
    );
    // `.` inside crashes/ is still AFL's crashes directory: no README.txt.
    let td = tempdir();
    let crashes = t.path().join("out/default/crashes");
    run_in(
        &crashes,
        TOOL,
        &["import", "-target", "F", "-testdata", s(td.path()), "."],
    )
    .expect(0);
    assert_eq!(
        contents(&td.path().join("fuzz/F")),
        vec![v1_bytes(r#"[]byte("crash\x00")"#)]
    );
}

#[test]
fn import_libfuzzer_corpus_takes_every_file() {
    let t = tempdir();
    let c = t.path().join("corpus");
    write(&c.join("3f786850e387550fdab836ed7e6dc881de23001b"), b"a");
    write(
        &c.join("crash-89e6c98d92887913cadf06b2adb97f26cde4849b"),
        b"\xff\xfe",
    );
    write(&c.join("README"), b"raw too");
    write(&c.join(".hidden"), b"skipped");
    write(&c.join("sub/inner"), b"skipped, with a warning");
    let r = run_in(
        t.path(),
        TOOL,
        &["import", "-target", "png_read", "-type", "string", "corpus"],
    )
    .expect(0);
    let mut want = vec![
        v1_bytes(r#"string("a")"#),
        v1_bytes(r#"string("\xff\xfe")"#),
        v1_bytes(r#"string("raw too")"#),
    ];
    want.sort();
    assert_eq!(contents(&t.path().join("testdata/fuzz/png_read")), want);
    assert_eq!(lines(&r.stdout).len(), 3);
    assert!(r.stderr.contains("corpus/sub"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("imported 3 new entries (0 already present)"),
        "{}",
        r.stderr
    );
    // A single raw file, and stdin, are inputs too.
    write(&t.path().join("one.bin"), b"one");
    run_in(
        t.path(),
        TOOL,
        &["import", "-target", "png_read", "one.bin"],
    )
    .expect(0);
    run_with_stdin(
        t.path(),
        TOOL,
        &["import", "-target", "png_read", "-"],
        b"two",
    )
    .expect(0);
    let got = contents(&t.path().join("testdata/fuzz/png_read"));
    assert!(got.contains(&v1_bytes(r#"[]byte("one")"#)));
    assert!(got.contains(&v1_bytes(r#"[]byte("two")"#)));
    // A v1 file among raw inputs is wrapped like any input, with a warning.
    write(&t.path().join("v1/a"), &v1_bytes("int(1)"));
    let r = run_in(t.path(), TOOL, &["import", "-target", "png_read", "v1"]).expect(0);
    assert!(
        r.stderr
            .contains("warning: v1/a is already a \"go test fuzz v1\" file"),
        "{}",
        r.stderr
    );
    let got = contents(&t.path().join("testdata/fuzz/png_read"));
    assert!(got.contains(&v1_bytes(r#"[]byte("go test fuzz v1\nint(1)\n")"#)));
}

#[test]
fn import_twice_adds_nothing() {
    let t = tempdir();
    afl_tree(t.path());
    run_in(t.path(), TOOL, &["import", "-target", "FuzzParse", "out"]).expect(0);
    let before = snapshot(t.path());
    let r = run_in(
        t.path(),
        TOOL,
        &["import", "-target", "FuzzParse", "out", "out/default"],
    )
    .expect(0);
    assert!(r.stdout.is_empty(), "{}", r.out());
    assert_eq!(
        r.stderr,
        "fuzz-convert: imported 0 new entries (10 already present) into testdata/fuzz/FuzzParse\n"
    );
    assert_eq!(snapshot(t.path()), before);
}

#[test]
fn import_knows_entries_go_wrote_under_64_digit_names() {
    let t = tempdir();
    let dest = t.path().join("testdata/fuzz/FuzzBytes");
    write(
        &dest.join(go_bug().file_name().unwrap()),
        &fs::read(go_bug()).unwrap(),
    );
    write(&t.path().join("bug"), b"BUG");
    let before = snapshot(t.path());
    let r = run_in(t.path(), TOOL, &["import", "-target", "FuzzBytes", "bug"]).expect(0);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("(1 already present)"), "{}", r.stderr);
    assert_eq!(snapshot(t.path()), before);
}

// ---- export ----

#[test]
fn export_round_trips_import() {
    let t = tempdir();
    let c = t.path().join("corpus");
    for b in 0..=255u8 {
        write(&c.join(format!("byte{b:03}")), &[b]);
    }
    let all: Vec<u8> = (0..=255).rev().collect();
    write(&c.join("all"), &all);
    write(&c.join("empty"), b"");
    run_in(t.path(), TOOL, &["import", "-target", "F", "corpus"]).expect(0);
    let dest = t.path().join("testdata/fuzz/F");
    assert_eq!(fs::read_dir(&dest).unwrap().count(), 258);
    let r = run_in(
        t.path(),
        TOOL,
        &["export", "-o", "seeds", "testdata/fuzz/F"],
    )
    .expect(0);
    assert!(r.stdout.is_empty());
    assert_eq!(
        r.stderr,
        "fuzz-convert: exported 258 entries from testdata/fuzz/F to seeds\n"
    );
    assert_eq!(contents(&t.path().join("seeds")), contents(&c));
    // Named like the source files.
    for e in fs::read_dir(&dest).unwrap() {
        let name = e.unwrap().file_name();
        assert!(t.path().join("seeds").join(&name).is_file(), "{name:?}");
    }
    // And back again: nothing new.
    let r = run_in(t.path(), TOOL, &["import", "-target", "F", "seeds"]).expect(0);
    assert!(
        r.stderr
            .contains("imported 0 new entries (258 already present)"),
        "{}",
        r.stderr
    );
}

#[test]
fn export_multi_argument_entries_with_arg() {
    let t = tempdir();
    let dir = t.path().join("FuzzStrInt");
    for e in fs::read_dir(go_written("testdata/FuzzStrInt")).unwrap() {
        let e = e.unwrap();
        write(&dir.join(e.file_name()), &fs::read(e.path()).unwrap());
    }
    refused(t.path(), &["export", "-o", "out", "FuzzStrInt"], "-arg N");
    refused(
        t.path(),
        &["export", "-o", "out", "-arg", "1", "FuzzStrInt"],
        "int64",
    );
    run_in(
        t.path(),
        TOOL,
        &["export", "-o", "out", "-arg", "0", "FuzzStrInt"],
    )
    .expect(0);
    assert_eq!(
        contents(&t.path().join("out")),
        vec![b"q0".to_vec(), b"q0".to_vec()]
    );
}

// ---- bad input: exit 2, one line, nothing written ----

#[test]
fn bad_operands_are_refused_and_nothing_is_written() {
    let t = tempdir();
    afl_tree(t.path());
    write(
        &t.path().join("bad.v1"),
        b"go test fuzz v1\n[]byte(\"ok\")\nint(\n",
    );
    write(&t.path().join("raw.bin"), b"raw");
    let p = t.path();
    refused(p, &["to-raw", "missing.v1"], "missing.v1");
    refused(p, &["to-raw", "-o", "out.bin", "missing.v1"], "missing.v1");
    refused(p, &["to-raw", "out"], "out");
    refused(p, &["to-raw", "-o", "out.bin", "bad.v1"], "bad.v1:3:");
    refused(p, &["to-raw", "raw.bin"], "raw.bin:1:");
    refused(p, &["to-v1", "-o", "x.v1", "missing.bin"], "missing.bin");
    refused(p, &["to-v1", "-dir", "seeds", "out"], "out");
    refused(p, &["to-v1", "-type", "int", "raw.bin"], "-type");
    refused(
        p,
        &["to-v1", "-type", "int", "-dir", "seeds", "raw.bin"],
        "int",
    );
    refused(p, &["to-raw", "-bogus", "bad.v1"], "-bogus");
    refused(p, &["frobnicate"], "frobnicate");
    refused(
        p,
        &["import", "-target", "F", "-type", "rune", "raw.bin"],
        "-type",
    );
    refused(
        p,
        &["import", "-target", "F", "out", "missing-dir"],
        "missing-dir",
    );
    refused(
        p,
        &["import", "-target", "F", "missing-dir", "out"],
        "missing-dir",
    );
    refused(p, &["import", "-target", "../F", "out"], "-target");
    refused(p, &["import", "out"], "required");
    refused(p, &["import", "-target", "F"], "required");
    run_in(p, TOOL, &["import", "-target", "F", "raw.bin"]).expect(0);
    refused(
        p,
        &["import", "-target", "F", "testdata/fuzz/F/"],
        "imported into",
    );
    write(
        &p.join("td/fuzz/F"),
        b"a file where the corpus directory should be",
    );
    refused(
        p,
        &["import", "-target", "F", "-testdata", "td", "out"],
        "td/fuzz/F",
    );
}

#[test]
fn export_checks_every_file_before_writing() {
    let t = tempdir();
    let dir = t.path().join("corpus");
    write(&dir.join("a"), &v1_bytes(r#"[]byte("a")"#));
    write(&dir.join("b"), &v1_bytes(r#"string("b")"#));
    write(
        &dir.join("c"),
        b"go test fuzz v1\n\n[]byte(\"c\")\nbool(maybe)\n",
    );
    write(&dir.join("d"), &v1_bytes(r#"[]byte("d")"#));
    let p = t.path();
    let r = refused(p, &["export", "-o", "out", "corpus"], "corpus/c:4:");
    assert!(r.stderr.contains("bool"), "{}", r.stderr);
    fs::remove_file(dir.join("c")).unwrap();
    write(&dir.join("c"), &v1_bytes("float64(1.5)"));
    refused(p, &["export", "-o", "out", "corpus"], "corpus/c:2: ");
    fs::remove_file(dir.join("c")).unwrap();
    refused(p, &["export", "-o", "out", "missing"], "missing");
    refused(p, &["export", "-o", "out", "corpus/a"], "corpus/a");
    refused(p, &["export", "-o", "corpus", "corpus"], "-o");
    refused(p, &["export", "-o", "corpus/a", "corpus"], "corpus/a");
    refused(p, &["export", "corpus"], "required");
    run_in(p, TOOL, &["export", "-o", "out", "corpus"]).expect(0);
    assert_eq!(
        contents(&p.join("out")),
        vec![b"a".to_vec(), b"b".to_vec(), b"d".to_vec()]
    );
}

// ---- help ----

#[test]
fn help_shows_go_style_flags() {
    let t = tempdir();
    let r = run_in(t.path(), TOOL, &["-help"]).expect(0);
    for sub in ["to-raw", "to-v1", "import", "export"] {
        assert!(r.out().contains(sub), "{}", r.out());
    }
    for (sub, flags) in [
        ("to-raw", &["-arg <N>", "-o <FILE>"][..]),
        ("to-v1", &["-type <TYPE>", "-dir <DIR>"]),
        (
            "import",
            &[
                "-target <NAME>",
                "-type <TYPE>",
                "-testdata <DIR>",
                "<SRC>...",
            ],
        ),
        ("export", &["-o <OUT_DIR>", "-arg <N>"]),
    ] {
        let r = run_in(t.path(), TOOL, &[sub, "-help"]).expect(0);
        for f in flags {
            assert!(r.out().contains(f), "{sub}: {f} missing:\n{}", r.out());
        }
        assert!(
            !r.out().contains("--"),
            "{sub} help shows --flags:\n{}",
            r.out()
        );
    }
}

#[test]
fn import_takes_every_afl_queue_and_names_what_it_skips() {
    // An instance with only queue/ (AFL writes fuzzer_stats after a
    // while), and an output directory holding only default/queue/.
    let t = tempdir();
    write(&t.path().join("out/default/queue/id:000000,orig:a"), b"a");
    write(&t.path().join("out/early/queue/id:000000,orig:b"), b"b");
    write(&t.path().join("out/early/queue/notes.txt"), b"mine");
    let r = run_in(t.path(), TOOL, &["import", "-target", "F", "out"]).expect(0);
    assert_eq!(
        contents(&t.path().join("testdata/fuzz/F")),
        vec![v1_bytes(r#"[]byte("a")"#), v1_bytes(r#"[]byte("b")"#)]
    );
    assert!(
        r.stderr
            .contains("out/early/queue/notes.txt: skipping a file that is not an AFL input"),
        "{}",
        r.stderr
    );
    // Nothing to import from a directory that holds files: an error that
    // says why, and nothing written.
    let u = tempdir();
    write(&u.path().join("runs/a/b/notes.txt"), b"x");
    let before = snapshot(u.path());
    let r = run_in(u.path(), TOOL, &["import", "-target", "F", "runs"]).expect(2);
    r.one_line_error(
        TOOL,
        "runs: nothing to import: of the 1 files it holds, none is",
    );
    assert_eq!(snapshot(u.path()), before);
}
