//! fuzz-corpus: list, check, fmt and merge, driven as a binary.

use crate::common::*;
use std::path::Path;

const GO_BUG: &str = "vectors/go-written/testdata/FuzzBytes";

fn write(dir: &Path, name: &str, body: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(name), body).unwrap();
}

#[test]
fn list_shows_name_size_types_and_values() {
    let dir = tempdir();
    let r = run_in(
        dir.path(),
        "fuzz-corpus",
        &["list", data(GO_BUG).to_str().unwrap()],
    )
    .expect(0);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].contains("dd41b1fa66f374c7") && lines[1].contains("30"));
    assert!(
        lines[1].contains("[]byte") && lines[1].contains("\"BUG\""),
        "{out}"
    );
    assert!(lines[0].contains("\"BUG\\x8f\\r0\""), "{out}");

    let r = run_in(
        dir.path(),
        "fuzz-corpus",
        &["list", "-json", data(GO_BUG).to_str().unwrap()],
    )
    .expect(0);
    for line in r.out().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["types"][0], "[]byte");
        assert!(v["size"].as_u64().unwrap() > 0);
        assert!(v["name"].as_str().unwrap().len() == 64);
    }
}

#[test]
fn list_marks_malformed_entries_and_exits_1() {
    let dir = tempdir();
    let c = dir.path().join("c");
    write(&c, "good", "go test fuzz v1\nint(1)\n");
    write(&c, "bad", "go test fuzz v1\nint(1)\nint(x)\n");
    let r = run_in(dir.path(), "fuzz-corpus", &["list", "c"]).expect(1);
    assert!(r.out().contains("malformed: line 3:"), "{}", r.out());
    let r = run_in(dir.path(), "fuzz-corpus", &["list", "-json", "c"]).expect(1);
    assert!(r.out().contains("\"error\""));
}

/// issue 22: `list -` and `check -` looked for a file named `-`.
#[test]
fn list_check_and_cover_read_standard_input() {
    let dir = tempdir();
    let d = dir.path();
    let entry = b"go test fuzz v1\n[]byte(\"TLV\")\n";
    write(&d.join("c"), "a", "go test fuzz v1\nint(1)\n");
    let r = run_with_stdin(d, "fuzz-corpus", &["list", "-"], entry).expect(0);
    assert_eq!(r.out(), "-      30  []byte  \"TLV\"\n");
    let r = run_with_stdin(d, "fuzz-corpus", &["list", "-json", "c", "-"], entry).expect(0);
    let last: serde_json::Value = serde_json::from_str(r.out().lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["path"].as_str(), last["size"].as_u64()),
        (Some("-"), Some(30))
    );
    let r = run_with_stdin(d, "fuzz-corpus", &["check", "-"], entry).expect(0);
    assert!(
        r.stderr.contains("1 file checked, 0 malformed"),
        "{}",
        r.stderr
    );
    let r = run_with_stdin(
        d,
        "fuzz-corpus",
        &["check", "c", "-"],
        b"go test fuzz v1\nint(\n",
    )
    .expect(1);
    assert!(r.out().starts_with("<stdin>:2: "), "{}", r.out());
    let lib = example_lib("libc_parse_clang.so");
    let r = run_with_stdin(d, "fuzz-corpus", &["cover", &lib, "-"], entry).expect(0);
    assert!(r.out().contains("covered: "), "{}", r.out());
    // Standard input can be read once.
    let r = run_with_stdin(d, "fuzz-corpus", &["list", "-", "-"], entry).expect(2);
    r.one_line_error("fuzz-corpus", "standard input named twice");
}

#[test]
fn check_passes_go_written_corpora() {
    let dir = tempdir();
    for sub in ["FuzzAll", "FuzzBytes", "FuzzStrInt", "FuzzString"] {
        let d = data("vectors/go-written/testdata").join(sub);
        let r = run_in(dir.path(), "fuzz-corpus", &["check", d.to_str().unwrap()]).expect(0);
        assert!(r.stdout.is_empty());
        assert!(r.stderr.contains("0 malformed"), "{}", r.stderr);
    }
}

#[test]
fn check_names_file_and_line_and_exits_1() {
    let dir = tempdir();
    let c = dir.path().join("c");
    write(
        &c,
        "0123456789abcdef",
        "go test fuzz v1\nstring(\"a\")\nint64(9223372036854775808)\n",
    );
    let r = run_in(dir.path(), "fuzz-corpus", &["check", "c"]).expect(1);
    let out = r.out();
    assert!(
        out.starts_with("c/0123456789abcdef:3: malformed line \"int64(9223372036854775808)\""),
        "{out}"
    );
    assert!(out.contains("out of range"), "{out}");
}

#[test]
fn check_notes_names_that_are_not_digests_without_failing() {
    let dir = tempdir();
    let c = dir.path().join("c");
    write(&c, "seed-one", "go test fuzz v1\nint(1)\n");
    write(&c, "0000000000000000", "go test fuzz v1\nint(2)\n");
    let r = run_in(dir.path(), "fuzz-corpus", &["check", "c"]).expect(0);
    assert!(
        r.stderr.contains("seed-one: name is not a digest"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("0000000000000000: name does not match"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_with_types_applies_gos_type_check() {
    let dir = tempdir();
    let c = dir.path().join("c");
    write(&c, "a", "go test fuzz v1\nstring(\"a\")\nint64(1)\n");
    run_in(
        dir.path(),
        "fuzz-corpus",
        &["check", "-types", "string, int64", "c"],
    )
    .expect(0);
    let r = run_in(
        dir.path(),
        "fuzz-corpus",
        &["check", "-types", "string, int", "c"],
    )
    .expect(1);
    assert!(r.out().contains("mismatched types"), "{}", r.out());
}

#[test]
fn fmt_prints_gos_canonical_form() {
    let dir = tempdir();
    write(
        dir.path(),
        "odd",
        "go test fuzz v1\r\n  int32(65) // A\r\n\r\nuint8(7)\nfloat64(0x1p-2)\nint64(0x_ff)",
    );
    let r = run_in(dir.path(), "fuzz-corpus", &["fmt", "odd"]).expect(0);
    assert_eq!(
        r.out(),
        "go test fuzz v1\nrune('A')\nbyte('\\a')\nfloat64(0.25)\nint64(255)\n"
    );
    // Unchanged on disk without -w.
    assert!(std::fs::read_to_string(dir.path().join("odd"))
        .unwrap()
        .contains("0x_ff"));
    let r = run_with_stdin(
        dir.path(),
        "fuzz-corpus",
        &["fmt", "-"],
        b"go test fuzz v1\nbyte(65)\n",
    )
    .expect(0);
    assert_eq!(r.out(), "go test fuzz v1\nbyte('A')\n");
}

#[test]
fn fmt_w_and_rename_rewrite_in_place() {
    let dir = tempdir();
    let c = dir.path().join("c");
    write(&c, "a", "go test fuzz v1\nint64(0x10)\n");
    write(&c, "b", "go test fuzz v1\nint64(16)\n");
    run_in(dir.path(), "fuzz-corpus", &["fmt", "-w", "c/a", "c/b"]).expect(0);
    assert_eq!(
        std::fs::read_to_string(c.join("a")).unwrap(),
        "go test fuzz v1\nint64(16)\n"
    );
    let r = run_in(dir.path(), "fuzz-corpus", &["fmt", "-rename", "c/a"]).expect(0);
    let name = fuzz_core::store::digest::entry_name(b"go test fuzz v1\nint64(16)\n");
    assert_eq!(r.out().trim(), format!("c/{name}"));
    assert!(!c.join("a").exists() && c.join(&name).exists());
    // Renaming a file that already has its digest name changes nothing.
    let r = run_in(
        dir.path(),
        "fuzz-corpus",
        &["fmt", "-rename", &format!("c/{name}")],
    )
    .expect(0);
    assert!(r.out().is_empty());
}

#[test]
fn fmt_refuses_bad_input_and_changes_nothing() {
    let dir = tempdir();
    let c = dir.path().join("c");
    write(&c, "good", "go test fuzz v1\nint64(0x10)\n");
    write(&c, "bad", "go test fuzz v1\nint64(0x10)\nfloat64(Inf)\n");
    let before = snapshot(dir.path());
    let r = run_in(dir.path(), "fuzz-corpus", &["fmt", "-w", "c/good", "c/bad"]).expect(2);
    r.one_line_error("fuzz-corpus", "c/bad:3:");
    for (args, needle) in [
        (&["fmt", "c"][..], "is a directory"),
        (&["fmt", "missing"], "missing"),
        (&["fmt", "-w", "-"], "standard input"),
        (&["list", "missing"], "missing"),
        (&["check", "c", "missing"], "missing"),
        (&["merge", "c/good", "c"], "not a directory"),
        (&["merge", "d", "missing"], "missing"),
    ] {
        let r = run_in(dir.path(), "fuzz-corpus", args).expect(2);
        r.one_line_error("fuzz-corpus", needle);
        assert!(r.stdout.is_empty(), "{args:?} wrote to stdout");
    }
    // A library that is not there is named once.
    let r = run_in(
        dir.path(),
        "fuzz-corpus",
        &["merge", "-lib", "nolib.so", "d", "c"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "nolib.so");
    assert_eq!(r.stderr.matches("nolib.so").count(), 1, "{}", r.stderr);
    assert_eq!(snapshot(dir.path()), before, "nothing changed");
}

#[test]
fn merge_takes_the_union_without_duplicates() {
    let dir = tempdir();
    let (a, b, dst) = (
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("dst"),
    );
    write(&a, "one", "go test fuzz v1\nint(1)\n");
    write(&a, "two", "go test fuzz v1\nint(2)\n");
    write(&b, "two-again", "go test fuzz v1\nint(2)\n");
    write(&b, "three", "go test fuzz v1\nint(3)\n");
    write(&dst, "existing-one", "go test fuzz v1\nint(1)\n");
    let r = run_in(dir.path(), "fuzz-corpus", &["merge", "dst", "a", "b"]).expect(0);
    assert_eq!(r.out().lines().count(), 2, "{}", r.out());
    assert!(r.stderr.contains("merged 2 new entries"), "{}", r.stderr);
    let names: Vec<String> = std::fs::read_dir(&dst)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3);
    for body in ["go test fuzz v1\nint(2)\n", "go test fuzz v1\nint(3)\n"] {
        let name = fuzz_core::store::digest::entry_name(body.as_bytes());
        assert_eq!(std::fs::read_to_string(dst.join(name)).unwrap(), body);
    }
    // Again: nothing new.
    let r = run_in(dir.path(), "fuzz-corpus", &["merge", "dst", "a", "b"]).expect(0);
    assert!(r.out().is_empty());
    assert!(r.stderr.contains("merged 0 new entries"), "{}", r.stderr);
}

#[test]
fn merge_refuses_malformed_sources_and_writes_nothing() {
    let dir = tempdir();
    let a = dir.path().join("a");
    write(&a, "good", "go test fuzz v1\nint(1)\n");
    write(&a, "bad", "go test fuzz v1\nint(1.5)\n");
    let before = snapshot(dir.path());
    let r = run_in(dir.path(), "fuzz-corpus", &["merge", "dst", "a"]).expect(2);
    r.one_line_error("fuzz-corpus", "a/bad:2:");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn concurrent_merges_into_one_directory_are_safe() {
    let dir = tempdir();
    for s in 0..4 {
        let src = dir.path().join(format!("src{s}"));
        for i in 0..300 {
            // Sources overlap: entry i appears in several of them.
            let body = format!("go test fuzz v1\nint({})\n", i + s * 100);
            write(&src, &format!("e{i}"), &body);
        }
    }
    let children: Vec<_> = (0..4)
        .map(|s| {
            cmd(
                dir.path(),
                "fuzz-corpus",
                &["merge", "dst", &format!("src{s}")],
            )
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let entries: Vec<_> = std::fs::read_dir(dir.path().join("dst")).unwrap().collect();
    // 0..600 distinct values, no temporary files left.
    assert_eq!(entries.len(), 600);
    for e in entries {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        assert!(fuzz_core::format::codec::decode(&bytes).is_ok());
        assert!(fuzz_core::store::digest::name_matches(
            p.file_name().unwrap().to_str().unwrap(),
            &bytes
        ));
    }
}
