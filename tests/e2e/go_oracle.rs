//! Differential test of our codec against Go's own: thousands of generated
//! corpus files (odd literals, comments, unary operators, mutated lines,
//! random values written by our encoder, every Unicode code point) go
//! through Go 1.19's `unmarshalCorpusFile`/`marshalCorpusFile` (reached by
//! go:linkname from tests/go/oracle) and through ours. Verdicts must agree;
//! where Go accepts, our canonical bytes must be Go's.

use crate::common::*;
use fuzz_core::format::codec::{decode, encode};
use fuzz_core::Value;
use std::collections::BTreeMap;
use std::path::Path;

const CALLEES: &[&str] = &[
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "byte",
    "rune",
    "float32",
    "float64",
    "bool",
    "string",
    "[]byte",
    "math.Float64frombits",
    "math.Float32frombits",
    "[]uint8",
    "[4]byte",
    "uintptr",
    "complex128",
    "math.Sqrt",
    "(int64)",
    "Int64",
    "[ ]byte",
    "mathx.Float64frombits",
    "[]byte ",
    "int64 ",
];

const ARGS: &[&str] = &[
    "0",
    "1",
    "-1",
    "+1",
    "0x10",
    "0X1F",
    "-0x80",
    "0o17",
    "0O17",
    "017",
    "08",
    "0b101",
    "0B2",
    "1_000",
    "1__0",
    "_1",
    "1_",
    "0x_1",
    "0_7",
    "0_9",
    "09.5",
    "1.5",
    "-1.5",
    ".5",
    "1.",
    "1e5",
    "1E+5",
    "1e",
    "0x1p-2",
    "0x1.8p1",
    "0x1.8",
    "1p5",
    "1i",
    "-Inf",
    "+Inf",
    "Inf",
    "NaN",
    "-NaN",
    "!Inf",
    "^Inf",
    "&Inf",
    "<-Inf",
    "~Inf",
    "*Inf",
    "true",
    "false",
    "True",
    "nil",
    "!true",
    "'a'",
    "'\\x41'",
    "'\\377'",
    "'\\400'",
    "'ab'",
    "''",
    "'\\''",
    "'\"'",
    "'☃'",
    "'\\u00e9'",
    "'\\ud800'",
    "'\\U0010ffff'",
    "'\\U00110000'",
    "-'a'",
    "'\\a'",
    "'\\q'",
    "\"abc\"",
    "\"a\\x00b\"",
    "\"\\q\"",
    "`raw`",
    "`a\\nb`",
    "\"\\u00e9\"",
    "\"\\377\"",
    "\"\\'\"",
    "-\"a\"",
    "(5)",
    "5 + 1",
    "- 5",
    "-  /*c*/ 5",
    "5 ...",
    "5...",
    "5,",
    "5,,",
    "5, 6",
    "",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "255",
    "256",
    "-128",
    "-129",
    "65535",
    "65536",
    "4294967295",
    "2147483647",
    "-2147483648",
    "1114111",
    "1114112",
    "0x7ff8000000000001",
    "0x7fc00000",
    "0x7fc00001",
    "0x1ffffffff",
    "1e308",
    "1e309",
    "3.4028235e38",
    "3.4028236e38",
    "1e-46",
    "4.9e-324",
    "2.4703282292062327e-324",
    "2.4703282292062328e-324",
    "0x1p-1074",
    "0x1p-1075",
    "0x1.fffffffffffffp1023",
    "0x1.fffffffffffff8p1023",
    "0x.8p1",
    "0x1P+2",
    "1e-400",
    "0.000001",
    "1_0.5e1_0",
    "123456789012345678901234567890",
    "0x1p-149",
    "0x1p-150",
    "0x1.000001p0",
    "16777217",
    "1.00000005960464477539",
    "0e99999",
    "1e99999",
    "0.1e-99999",
    "\"é\"",
    "\"\\U0001F600\"",
    "\"\\u200b\"",
    "`a\rb`",
    "x",
    "int64(5)",
    "[]byte(\"a\")",
    "'\\x80'",
    "'\\u0100'",
];

const DECOR_PRE: &[&str] = &["", "", "", " ", "\t", "\u{feff}", "\u{a0}", "\r", "/* c */"];
const DECOR_SUF: &[&str] = &[
    "",
    "",
    "",
    " ",
    "\t",
    "// x",
    "/* y */",
    ";",
    " \r",
    "\u{85}",
    "/*",
    " int64(1)",
    ")",
    "\u{feff}",
    "\x0b",
];
const MUTATE: &[u8] = b"()[]{},.;:-+!^&*~<>=_ \t\r'\"`\\0123456789abcdefxXoOpPeEiIn/\x00\xff\xc3";

fn value_line(rng: &mut Rng) -> Vec<u8> {
    let mut line = Vec::new();
    line.extend_from_slice(rng.pick(DECOR_PRE).as_bytes());
    line.extend_from_slice(rng.pick(CALLEES).as_bytes());
    if rng.chance(6) {
        line.push(b' ');
    }
    line.push(b'(');
    if rng.chance(6) {
        line.extend_from_slice(b" /**/ ");
    }
    line.extend_from_slice(rng.pick(ARGS).as_bytes());
    if rng.chance(8) {
        line.extend_from_slice(b" ,");
    }
    line.push(b')');
    line.extend_from_slice(rng.pick(DECOR_SUF).as_bytes());
    if rng.chance(3) {
        for _ in 0..=rng.below(3) {
            let at = rng.below(line.len() + 1);
            match rng.below(3) {
                0 => line.insert(at, *rng.pick(MUTATE)),
                1 if at < line.len() => {
                    line.remove(at);
                }
                _ if at < line.len() => line[at] = *rng.pick(MUTATE),
                _ => {}
            }
        }
    }
    line
}

fn random_value(rng: &mut Rng) -> Value {
    let bytes = |rng: &mut Rng| -> Vec<u8> {
        let n = rng.below(12);
        (0..n)
            .map(|_| match rng.below(4) {
                0 => rng.next() as u8,
                1 => b"\x00\x7f\x80\xff\"\\'\n\t"[rng.below(9)],
                _ => b' ' + rng.below(95) as u8,
            })
            .collect()
    };
    let unicode = |rng: &mut Rng| -> Vec<u8> {
        let mut s = String::new();
        for _ in 0..rng.below(6) {
            if let Some(c) = char::from_u32(rng.next() as u32 % 0x11_0000) {
                s.push(c);
            }
        }
        s.into_bytes()
    };
    let float_bits = |rng: &mut Rng| -> u64 {
        match rng.below(4) {
            0 => rng.next(),
            1 => (rng.next() & 0x800f_ffff_ffff_ffff) | 0x7ff0_0000_0000_0000,
            2 => (rng.below(2000) as f64 / 8.0 - 100.0).to_bits(),
            _ => f64::from(rng.next() as u32 as f32).to_bits() ^ (rng.next() & 1) << 63,
        }
    };
    match rng.below(17) {
        0 => Value::Bytes(bytes(rng)),
        1 => Value::String(unicode(rng)),
        2 => Value::Bool(rng.chance(2)),
        3 => Value::Int(rng.next() as i64 >> rng.below(64)),
        4 => Value::Int8(rng.next() as i8),
        5 => Value::Int16(rng.next() as i16),
        6 => Value::Int32(match rng.below(3) {
            0 => rng.next() as i32,
            1 => (rng.next() % 0x11_0000) as i32,
            _ => 0xd800 + rng.below(0x800) as i32,
        }),
        7 => Value::Int64(rng.next() as i64),
        8 => Value::Uint(rng.next() >> rng.below(64)),
        9 => Value::Uint8(rng.next() as u8),
        10 => Value::Uint16(rng.next() as u16),
        11 => Value::Uint32(rng.next() as u32),
        12 => Value::Uint64(rng.next()),
        13 => Value::Float32(f32::from_bits(match rng.below(3) {
            0 => rng.next() as u32,
            1 => (rng.next() as u32 & 0x807f_ffff) | 0x7f80_0000,
            _ => (f64::from_bits(float_bits(rng)) as f32).to_bits(),
        })),
        14 => Value::Float64(f64::from_bits(float_bits(rng))),
        15 => Value::String(bytes(rng)),
        _ => Value::Bytes(unicode(rng)),
    }
}

/// The candidate files, by name.
fn candidates() -> BTreeMap<String, Vec<u8>> {
    let mut rng = Rng(0x05ee_d0fc_0dec);
    let mut files = BTreeMap::new();
    for i in 0..6000 {
        let mut f = b"go test fuzz v1\n".to_vec();
        if rng.chance(40) {
            f = rng
                .pick(&[
                    &b"go test fuzz v1\r\n"[..],
                    b"go test fuzz v1\r\r\n",
                    b" go test fuzz v1\n",
                    b"go test fuzz v1",
                    b"\xef\xbb\xbfgo test fuzz v1\n",
                    b"go test fuzz v2\n",
                    b"",
                ])
                .to_vec();
        }
        for j in 0..=rng.below(3) {
            if j > 0 {
                let seps: [&[u8]; 4] = [b"\n", b"\n\n", b"\r\n", b"\n \t\n"];
                let sep: &[u8] = seps[rng.below(seps.len())];
                f.extend_from_slice(sep);
            }
            f.extend(value_line(&mut rng));
        }
        if rng.chance(2) {
            f.push(b'\n');
        }
        files.insert(format!("gen{i:05}"), f);
    }
    // Every callee with every argument, plainly.
    for (i, callee) in CALLEES.iter().enumerate() {
        for (j, arg) in ARGS.iter().enumerate() {
            let f = format!("go test fuzz v1\n{callee}({arg})\n");
            files.insert(format!("gen-pair-{i:02}-{j:03}"), f.into_bytes());
        }
    }
    for i in 0..3000 {
        let values: Vec<Value> = (0..=rng.below(3)).map(|_| random_value(&mut rng)).collect();
        files.insert(format!("val{i:05}"), encode(&values));
    }
    // Every Unicode scalar value, in strings and runes: the writer's
    // printable table must be Go's everywhere.
    let all: String = (0..=0x10_ffffu32).filter_map(char::from_u32).collect();
    files.insert(
        "unicode-all".into(),
        encode(&[Value::String(all.into_bytes())]),
    );
    let runes: Vec<Value> = (0..0x3_0000u32)
        .step_by(7)
        .chain(0xe_0000..0xe_0200)
        .map(|c| Value::Int32(c as i32))
        .collect();
    files.insert("unicode-runes".into(), encode(&runes));
    files
}

fn oracle_verdicts(scratch: &Path, dir: &Path) -> BTreeMap<String, (String, String)> {
    let src = root().join("tests/go/oracle");
    let bin = scratch.join("oracle.test");
    let out = go(scratch)
        .current_dir(&src)
        .args(["test", "-c", "-o"])
        .arg(&bin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "building the Go oracle failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = std::process::Command::new(&bin)
        .args(["-test.run", "^TestOracle$"])
        .env("ORACLE_DIR", dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "Go oracle failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut verdicts = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let mut parts = line.splitn(3, '\t');
        let (Some(name), Some(verdict)) = (parts.next(), parts.next()) else {
            continue;
        };
        if name.starts_with("gen") || name.starts_with("val") || name.starts_with("unicode") {
            verdicts.insert(
                name.to_string(),
                (verdict.to_string(), parts.next().unwrap_or("").to_string()),
            );
        }
    }
    verdicts
}

#[test]
fn our_codec_agrees_with_gos_on_generated_files() {
    let scratch = tempdir();
    let dir = scratch.path().join("files");
    std::fs::create_dir(&dir).unwrap();
    let files = candidates();
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let go = oracle_verdicts(scratch.path(), &dir);
    assert_eq!(go.len(), files.len(), "the oracle answered for every file");
    let mut mismatches = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for (name, bytes) in &files {
        let (verdict, detail) = &go[name];
        let ours = decode(bytes);
        let agree = match (verdict.as_str(), &ours) {
            ("ACCEPT", Ok(values)) => {
                accepted += 1;
                hex::encode(encode(values)) == *detail
            }
            ("EMPTY", Ok(values)) => values.is_empty(),
            ("REJECT", Err(_)) => {
                rejected += 1;
                true
            }
            _ => false,
        };
        if name.starts_with("val") || name.starts_with("unicode") {
            // What we write, Go reads back to the very same bytes.
            assert!(
                verdict == "ACCEPT" && hex::encode(bytes) == *detail,
                "{name}: Go does not re-encode our file to the same bytes: {:?}",
                String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
            );
        }
        if !agree {
            mismatches.push(format!(
                "{name}: {:?}\n  Go: {verdict} {}\n  us: {:?}",
                String::from_utf8_lossy(bytes),
                if verdict == "ACCEPT" {
                    String::from_utf8_lossy(&hex::decode(detail).unwrap()).into_owned()
                } else {
                    detail.clone()
                },
                ours.map(|v| String::from_utf8_lossy(&encode(&v)).into_owned())
                    .map_err(|e| e.to_string())
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} files judged differently:\n{}",
        mismatches.len(),
        files.len(),
        mismatches[..mismatches.len().min(25)].join("\n")
    );
    eprintln!(
        "go oracle: {} files, {accepted} accepted, {rejected} rejected, all judged alike",
        files.len()
    );
    // The generator must reach both verdicts in earnest.
    assert!(
        accepted > 2000 && rejected > 2000,
        "accepted {accepted}, rejected {rejected}"
    );
}
