//! Go reads what we write: corpora for real Go fuzz targets
//! (tests/go/interop) are written by our tools (single-argument ones with
//! `fuzz-convert to-v1`, multi-type ones hand-written in odd but valid
//! spellings and rewritten by `fuzz-corpus fmt -rename`), then `go test`
//! replays them. Every entry must run, decode to exactly our values, and
//! pass or fail as its values say.

use crate::common::*;
use fuzz_core::format::codec::decode;
use fuzz_core::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// What the Go targets log for a value list (see interop_test.go).
fn go_log(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| match v {
            Value::Bytes(b) | Value::String(b) => hex::encode(b),
            Value::Float64(x) => format!("{:016x}", x.to_bits()),
            Value::Float32(x) => format!("{:08x}", x.to_bits()),
            Value::Bool(b) => b.to_string(),
            Value::Int(n) | Value::Int64(n) => n.to_string(),
            Value::Int8(n) => n.to_string(),
            Value::Int16(n) => n.to_string(),
            Value::Int32(n) => n.to_string(),
            Value::Uint(n) | Value::Uint64(n) => n.to_string(),
            Value::Uint8(n) => n.to_string(),
            Value::Uint16(n) => n.to_string(),
            Value::Uint32(n) => n.to_string(),
            Value::Custom { .. } => unreachable!(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Multi-type entries, spelled the way people write them by hand: hex and
/// octal numbers, raw strings, character literals, comments, CRLF, blank
/// lines, NaN payloads. Each says whether the target must fail.
fn hand_written_multi() -> Vec<(&'static str, bool)> {
    vec![
        (
            "go test fuzz v1\r\nstring(`raw\\n`)\r\nint64(-0x10)\r\nrune('☃')\r\nbyte('\\xff')\r\n\
             float64(0x1p-2)\r\nfloat32(.5)\r\nbool(true)\r\nuint16(0o777)\r\n\
             []byte(\"\\x00\\u00e9\")\r\nint8(-128)\r\nuint64(0xffff_ffff_ffff_ffff)\r\n\
             int(017)\r\nuint32(4294967295)\r\nuint(0b1010)\r\nint16(-32768)\r\n",
            false,
        ),
        (
            "go test fuzz v1\n\n  string(\"a\\tb\") // a comment\nint64(9223372036854775807)\n\
             rune(-1)\nbyte(65)\nmath.Float64frombits(0x7ff0000000000001)\n\
             math.Float32frombits(0x7fc00001)\nbool(false)\nuint16(65535)\n[]byte(\"\")\n\
             int8(127)\nuint64(0)\nint(-9223372036854775808)\nuint32(0)\n\
             uint(18446744073709551615)\nint16(32767)\n\n",
            true,
        ),
        (
            "go test fuzz v1\nstring(\"héllo\\u200b\\xff\")\nint64( 42 , )\nint32(1114112)\n\
             byte('\\'')\nfloat64(-Inf)\nfloat32(NaN)\nbool(true)\nuint16(0)\n[]byte(`\\x`)\n\
             int8(0)\nuint64(1)\nint(1_000_000)\nuint32(0x80000000)\nuint(7)\nint16(0)",
            false,
        ),
        (
            "go test fuzz v1\nstring(\"\")\nint64(0)\nrune('\\U0010ffff')\nbyte(0)\n\
             float64(1e-400)\nfloat32(1.00000005960464477539)\nbool(false)\nuint16(1)\n\
             []byte(\"BUG\")\nint8(-1)\nuint64(2)\nint(3)\nuint32(4)\nuint(5)\nint16(6)\n",
            true,
        ),
    ]
}

/// Runs `go test -v -run ^Target$` in `pkg` and returns, per subtest name,
/// whether it passed and what it logged.
fn go_test(scratch: &Path, pkg: &Path, target: &str) -> BTreeMap<String, (bool, String)> {
    let out = go(scratch)
        .current_dir(pkg)
        .args(["test", "-count=1", "-v", "-run"])
        .arg(format!("^{target}$"))
        .arg(".")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        !text.contains("malformed") && !text.contains("unmarshal"),
        "Go could not read a file we wrote:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut logs = BTreeMap::new();
    let mut results = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.split("VALUES ").nth(1) {
            let (name, values) = rest.split_once(' ').unwrap_or((rest, ""));
            logs.insert(name.to_string(), values.to_string());
        }
        for (prefix, pass) in [("--- PASS: ", true), ("--- FAIL: ", false)] {
            if let Some(rest) = line.strip_prefix(prefix) {
                let name = rest.split(' ').next().unwrap();
                if name.contains('/') {
                    results.insert(name.to_string(), pass);
                }
            }
        }
    }
    results
        .into_iter()
        .map(|(name, pass)| {
            let log = logs.get(&name).cloned().unwrap_or_default();
            (name, (pass, log))
        })
        .collect()
}

#[test]
fn go_test_replays_corpora_our_tools_wrote() {
    let scratch = tempdir();
    let pkg = scratch.path().join("interop");
    std::fs::create_dir(&pkg).unwrap();
    for f in ["go.mod", "interop_test.go"] {
        std::fs::copy(root().join("tests/go/interop").join(f), pkg.join(f)).unwrap();
    }
    let mut expected = write_single_argument_corpora(scratch.path(), &pkg);
    expected.extend(write_multi_corpus(&pkg));

    let mut seen = BTreeMap::new();
    for target in ["FuzzBytes", "FuzzString", "FuzzMulti"] {
        seen.extend(go_test(scratch.path(), &pkg, target));
    }
    assert_eq!(
        seen.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "go test ran exactly the entries we wrote"
    );
    for (name, (pass, log)) in &expected {
        let (go_pass, go_log) = &seen[name];
        assert_eq!(
            go_pass,
            pass,
            "{name}: Go {}",
            if *go_pass { "passed" } else { "failed" }
        );
        assert_eq!(go_log, log, "{name}: Go decoded other values");
    }
    let failing = expected.values().filter(|(p, _)| !p).count();
    assert!(
        failing >= 10 && failing < expected.len() - 10,
        "{failing} failing entries"
    );
}

/// The corpora of the single-argument targets: random raw inputs (a third
/// with the target's failure marker) wrapped by fuzz-convert to-v1 into
/// `pkg`'s testdata. Returns, per subtest name, whether Go must pass it
/// and what it must log.
fn write_single_argument_corpora(scratch: &Path, pkg: &Path) -> BTreeMap<String, (bool, String)> {
    let raw = scratch.join("raw");
    std::fs::create_dir(&raw).unwrap();
    let mut rng = Rng(0x0001_e790);
    let mut expected: BTreeMap<String, (bool, String)> = BTreeMap::new();
    for (target, ty, marker) in [
        ("FuzzBytes", "[]byte", &b"BUG"[..]),
        ("FuzzString", "string", b"fail"),
    ] {
        let dir = pkg.join("testdata/fuzz").join(target);
        std::fs::create_dir_all(&dir).unwrap();
        for i in 0..40 {
            let mut input: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
            if i % 3 == 0 {
                if target == "FuzzString" {
                    let mut with = marker.to_vec();
                    with.extend_from_slice(&input);
                    input = with;
                } else {
                    let at = rng.below(input.len() + 1);
                    input.splice(at..at, marker.iter().copied());
                }
            }
            let file = raw.join(format!("{target}-{i}"));
            std::fs::write(&file, &input).unwrap();
            let r = run_in(
                pkg,
                "fuzz-convert",
                &[
                    "to-v1",
                    "-type",
                    ty,
                    "-dir",
                    dir.to_str().unwrap(),
                    file.to_str().unwrap(),
                ],
            )
            .expect(0);
            let written = std::path::PathBuf::from(r.out().trim());
            let bytes = std::fs::read(&written).unwrap();
            let values = decode(&bytes).unwrap();
            let fails = if target == "FuzzString" {
                input.starts_with(marker)
            } else {
                input.windows(3).any(|w| w == marker)
            };
            let name = written.file_name().unwrap().to_str().unwrap();
            expected.insert(format!("{target}/{name}"), (!fails, go_log(&values)));
        }
    }
    expected
}

/// The corpus of the multi-type target: the hand-written files,
/// canonicalised by fuzz-corpus fmt -rename, which must keep their values.
/// Returns what Go must do with each, as above.
fn write_multi_corpus(pkg: &Path) -> BTreeMap<String, (bool, String)> {
    let dir = pkg.join("testdata/fuzz/FuzzMulti");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (i, (text, fails)) in hand_written_multi().into_iter().enumerate() {
        let path = dir.join(format!("hand{i}"));
        std::fs::write(&path, text).unwrap();
        files.push((path, fails, decode(text.as_bytes()).unwrap()));
    }
    let mut args = vec!["fmt", "-rename"];
    let names: Vec<String> = files
        .iter()
        .map(|(p, _, _)| p.to_str().unwrap().to_string())
        .collect();
    args.extend(names.iter().map(String::as_str));
    let r = run_in(pkg, "fuzz-corpus", &args).expect(0);
    let out = r.out();
    let renamed: Vec<&str> = out.lines().collect();
    assert_eq!(
        renamed.len(),
        files.len(),
        "every hand-written file was renamed"
    );
    let mut expected = BTreeMap::new();
    for ((_, fails, values), new_path) in files.iter().zip(&renamed) {
        let name = Path::new(new_path).file_name().unwrap().to_str().unwrap();
        assert_eq!(
            decode(&std::fs::read(new_path).unwrap()).unwrap(),
            *values,
            "fmt keeps the values"
        );
        expected.insert(format!("FuzzMulti/{name}"), (!fails, go_log(values)));
    }
    expected
}
