//! Operands and outputs are checked before any work or write (issue 22):
//! a place that cannot take the result is one line naming the user's path
//! in our words (never a temporary file's name, never "(os error N)"),
//! exit 2, at once and with nothing written.

use crate::common::*;
use std::path::Path;
use std::time::{Duration, Instant};

const ENTRY: &[u8] = b"go test fuzz v1\n[]byte(\"hi\")\n";
/// Not in canonical form: `fmt -w` would rewrite it.
const LOOSE: &[u8] = b"go test fuzz v1\n[]byte(  \"hi\"  )\n";

fn put(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// One line, exit 2, naming `path` and `why`, in our words.
#[track_caller]
fn refused_in_our_words(r: &Run, tool: &str, path: &str, why: &str) {
    assert_eq!(r.code, 2, "exit {}\n{}", r.code, r.stderr);
    r.one_line_error(tool, path);
    r.one_line_error(tool, why);
    for theirs in ["os error", ".tmp-", "at path"] {
        assert!(!r.stderr.contains(theirs), "{theirs:?} in: {}", r.stderr);
    }
}

#[test]
fn minimize_refuses_an_unwritable_o_before_minimizing() {
    let dir = tempdir();
    let d = dir.path();
    put(
        d,
        "file",
        b"a regular file, where a directory is expected\n",
    );
    let mut input = b"go test fuzz v1\n[]byte(\"".to_vec();
    input.extend(b"F".repeat(400));
    input.extend(b"\")\n");
    put(d, "slow.v1", &input);
    let lib = example_lib("libmisbehave.so");
    let nodir = d.join("nodir/x");
    let nodir = nodir.to_str().unwrap();
    // FuzzSlowFail takes 5 ms an execution: a minimization that started
    // would run for seconds before it got to -o.
    for (out, why) in [(nodir, "no such directory"), ("file/x", "not a directory")] {
        let start = Instant::now();
        let r = run_in(
            d,
            "fuzz-minimize",
            &["-target", "FuzzSlowFail", "-o", out, &lib, "slow.v1"],
        );
        refused_in_our_words(&r, "fuzz-minimize", out, why);
        r.one_line_error("fuzz-minimize", "(-o)");
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "refused only after {:?}",
            start.elapsed()
        );
    }
    std::fs::create_dir(d.join("ro")).unwrap();
    let before = snapshot(d);
    let c = cmd(
        d,
        "fuzz-minimize",
        &["-target", "FuzzSlowFail", "-o", "ro/x", &lib, "slow.v1"],
    );
    let r = run_read_only(&c, &["ro"]);
    refused_in_our_words(&r, "fuzz-minimize", "ro/x", "read-only file system");
    assert_eq!(snapshot(d), before);
}

#[test]
fn convert_refuses_outputs_it_cannot_write_and_writes_nothing() {
    let dir = tempdir();
    let d = dir.path();
    put(d, "in.v1", ENTRY);
    put(d, "raw", b"hi");
    put(d, "file", b"x");
    put(d, "corpus/a", ENTRY);
    std::fs::create_dir(d.join("ro")).unwrap();
    let cases: &[(&[&str], &str, &str)] = &[
        (&["to-raw", "-o", "ro/x", "in.v1"], "ro/x", "(-o)"),
        (
            &["to-raw", "-o", "file/x", "in.v1"],
            "file/x",
            "not a directory",
        ),
        (&["to-v1", "-o", "ro/x", "raw"], "ro/x", "(-o)"),
        (&["to-v1", "-dir", "ro/seeds", "raw"], "ro/seeds", "(-dir)"),
        (
            &["to-v1", "-dir", "file/seeds", "raw"],
            "file/seeds",
            "not a directory",
        ),
        (&["export", "-o", "ro/out", "corpus"], "ro/out", "(-o)"),
        (
            &["import", "-target", "FuzzX", "-testdata", "ro", "raw"],
            "ro/fuzz/FuzzX",
            "(-testdata)",
        ),
    ];
    let before = snapshot(d);
    for (args, path, why) in cases {
        let r = run_read_only(&cmd(d, "fuzz-convert", args), &["ro"]);
        refused_in_our_words(&r, "fuzz-convert", path, why);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert_eq!(snapshot(d), before, "{args:?} wrote");
    }
    // What the read-only mount said: in words, not errno.
    let r = run_read_only(
        &cmd(d, "fuzz-convert", &["to-raw", "-o", "ro/x", "in.v1"]),
        &["ro"],
    );
    r.one_line_error(
        "fuzz-convert",
        "ro/x: cannot be written: ro: read-only file system (-o)",
    );
}

#[test]
fn corpus_fmt_w_checks_every_file_before_rewriting_any() {
    let dir = tempdir();
    let d = dir.path();
    put(d, "rw/a", LOOSE);
    put(d, "ro/b", LOOSE);
    put(d, "rw/malformed", b"go test fuzz v1\n[]byte(\"x\"\n");
    put(d, "file", b"x");
    let before = snapshot(d);
    // The first operand could be rewritten; the second cannot: neither is.
    for flag in ["-w", "-rename"] {
        let r = run_read_only(
            &cmd(d, "fuzz-corpus", &["fmt", flag, "rw/a", "ro/b"]),
            &["ro"],
        );
        refused_in_our_words(&r, "fuzz-corpus", "ro/b", "read-only file system");
        r.one_line_error("fuzz-corpus", &format!("({flag})"));
        assert!(r.stdout.is_empty());
        assert_eq!(snapshot(d), before, "fmt {flag} wrote");
    }
    // The same file twice, or a bad second operand: nothing written.
    let cases: &[(&[&str], &str)] = &[
        (&["fmt", "-rename", "rw/a", "rw/a"], "rw/a: named twice"),
        (&["fmt", "-rename", "rw/a", "./rw/a"], "also as rw/a"),
        (&["fmt", "-w", "rw/a", "rw/../rw/a"], "named twice"),
        (&["fmt", "-rename", "rw/a", "rw/missing"], "rw/missing"),
        (
            &["fmt", "-rename", "rw/a", "rw/malformed"],
            "rw/malformed:2",
        ),
        (&["fmt", "-rename", "rw/a", "rw"], "is a directory"),
        (&["fmt", "-rename", "rw/a", "-"], "standard input"),
    ];
    for (args, needle) in cases {
        let r = run_in(d, "fuzz-corpus", args);
        refused_in_our_words(&r, "fuzz-corpus", needle, needle);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert_eq!(snapshot(d), before, "{args:?} wrote");
    }
    // Where it can, it does.
    run_in(d, "fuzz-corpus", &["fmt", "-w", "rw/a"]).expect(0);
    assert_eq!(std::fs::read(d.join("rw/a")).unwrap(), ENTRY);
}

#[test]
fn corpus_merge_and_cover_refuse_unwritable_outputs_before_running() {
    let dir = tempdir();
    let d = dir.path();
    put(d, "src/a", ENTRY);
    put(d, "file", b"x");
    std::fs::create_dir(d.join("ro")).unwrap();
    let lib = example_lib("libc_parse_clang.so");
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["merge", "ro/dst", "src"],
            "ro/dst",
            "read-only file system",
        ),
        (&["merge", "file/dst", "src"], "file/dst", "not a directory"),
        (
            &["merge", "-lib", &lib, "ro/dst", "src"],
            "ro/dst",
            "read-only file system",
        ),
        (
            &["cover", "-html", "ro/c.html", &lib, "src"],
            "ro/c.html",
            "(-html)",
        ),
        (
            &["cover", "-html", "file/c.html", &lib, "src"],
            "file/c.html",
            "not a directory",
        ),
    ];
    let before = snapshot(d);
    for (args, path, why) in cases {
        let r = run_read_only(&cmd(d, "fuzz-corpus", args), &["ro"]);
        refused_in_our_words(&r, "fuzz-corpus", path, why);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert_eq!(snapshot(d), before, "{args:?} wrote");
    }
}

/// A path from bytes, which need not be UTF-8.
fn os(bytes: &[u8]) -> &std::ffi::OsStr {
    std::os::unix::ffi::OsStrExt::from_bytes(bytes)
}

/// Runs `tool` in `dir` with `args`, any of which may not be UTF-8.
fn run_os(dir: &Path, tool: &str, args: &[&std::ffi::OsStr]) -> Run {
    let mut c = cmd(dir, tool, &[]);
    c.args(args);
    run_command(c)
}

/// issue 22: a library path with a byte that is not UTF-8 became U+FFFD
/// in the target's directory and in messages. A libFuzzer entry, named
/// after its library's file, is refused; every other path keeps its bytes
/// (the cache directory, paths on stdout) and messages quote it as a shell
/// reads it back.
#[test]
fn paths_that_are_not_utf8_keep_their_bytes() {
    let dir = tempdir();
    let d = dir.path();
    std::fs::copy(
        example_lib("libc_parse_clang.so"),
        d.join(os(b"libc\xffparse.so")),
    )
    .unwrap();
    std::fs::copy(
        example_lib("libmisbehave.so"),
        d.join(os(b"libmis\xffbehave.so")),
    )
    .unwrap();
    put(d, "crash", b"TLVV\x00");
    put(d, "corpus/a", ENTRY);
    let parse = os(b"libc\xffparse.so");
    let quoted = "$'libc\\xffparse.so': the library's file name is not UTF-8";
    for (tool, args) in [
        ("fuzz-minimize", vec![os(b"-raw"), parse, os(b"crash")]),
        ("fuzz-run", vec![parse]),
        ("fuzz-run", vec![os(b"-fuzz"), os(b"c"), parse]),
        ("fuzz-corpus", vec![os(b"cover"), parse, os(b"corpus")]),
        (
            "fuzz-corpus",
            vec![os(b"merge"), os(b"-lib"), parse, os(b"dst"), os(b"corpus")],
        ),
    ] {
        let r = run_os(d, tool, &args).expect(2);
        r.one_line_error(tool, quoted);
        assert!(!r.stderr.contains('\u{fffd}'), "{}", r.stderr);
    }
    assert!(!d.join("dst").exists() && !d.join("home").exists());

    // Typed targets take their names from symbols: the library runs, and
    // its cache directory keeps the byte.
    let typed = os(b"libmis\xffbehave.so");
    let fuzz = ["-fuzz", "^FuzzOk$", "-fuzztime", "200x", "-parallel", "1"];
    let mut args: Vec<&std::ffi::OsStr> = fuzz.iter().map(|a| os(a.as_bytes())).collect();
    args.extend([os(b"-fuzzcachedir"), os(b"cache"), typed]);
    run_os(d, "fuzz-run", &args).expect(0);
    let ids: Vec<Vec<u8>> = std::fs::read_dir(d.join("cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_encoded_bytes())
        .filter(|n| n != b"CACHEDIR.TAG")
        .collect();
    assert_eq!(ids.len(), 1);
    assert!(
        ids[0].starts_with(b"mis\xffbehave-"),
        "{:?}",
        String::from_utf8_lossy(&ids[0])
    );
    let r = run_os(
        d,
        "fuzz-clean",
        &[os(b"-n"), os(b"-fuzzcachedir"), os(b"cache"), typed],
    );
    assert!(r.expect(0).stdout.starts_with(
        &d.join("cache")
            .join(os(&ids[0]))
            .into_os_string()
            .into_encoded_bytes()
    ));

    // Corpus paths: exact on stdout, quoted in messages.
    std::fs::create_dir(d.join(os(b"c\xff"))).unwrap();
    std::fs::write(d.join(os(b"c\xff/e")), ENTRY).unwrap();
    let r = run_os(d, "fuzz-corpus", &[os(b"list"), os(b"c\xff")]).expect(0);
    assert!(r.stdout.starts_with(b"c\xff/e  "), "{:?}", r.out());
    let r = run_os(
        d,
        "fuzz-corpus",
        &[os(b"merge"), os(b"d\xfe"), os(b"c\xff")],
    )
    .expect(0);
    let written = r.stdout.strip_suffix(b"\n").unwrap();
    assert!(written.starts_with(b"d\xfe/"), "{:?}", r.out());
    assert_eq!(std::fs::read(d.join(os(written))).unwrap(), ENTRY);
    assert!(r.stderr.contains("into $'d\\xfe'"), "{}", r.stderr);
    let r = run_os(d, "fuzz-corpus", &[os(b"list"), os(b"no\xfedir")]).expect(2);
    r.one_line_error("fuzz-corpus", "$'no\\xfedir': No such file or directory");
    let r = run_os(
        d,
        "fuzz-convert",
        &[
            os(b"to-raw"),
            os(b"-o"),
            os(b"no\xfedir/x"),
            os(b"corpus/a"),
        ],
    );
    r.expect(2).one_line_error(
        "fuzz-convert",
        "$'no\\xfedir/x': cannot be written: $'no\\xfedir'",
    );
}
