//! The codec against every vector Go produced (tests/data/vectors): Go's
//! verdict on 109 hand-written files, the values Go decoded, Go's canonical
//! re-encoding, the verdict of a real Go test binary after its type check,
//! and the files `go test -fuzz` wrote itself.

use crate::common::data;
use fuzz_core::format::codec::{check_types, decode, encode, literal};
use fuzz_core::{ArgType, Value};
use serde_json::Value as Json;

fn hand(name: &str) -> Vec<u8> {
    std::fs::read(data("vectors/hand").join(name)).unwrap()
}

/// A decoded value as the Go harness logged it: `<type> <value>`.
fn as_go_logs_it(v: &Value) -> String {
    fn inner(lit: &str) -> &str {
        let open = lit.find('(').unwrap();
        &lit[open + 1..lit.len() - 1]
    }
    match v {
        Value::Bytes(_) => format!("[]byte {}", inner(&literal(v))),
        Value::String(s) if s.len() > 200 => {
            format!(
                "string len={} {:?}...",
                s.len(),
                String::from_utf8_lossy(&s[..16])
            )
        }
        Value::String(_) => format!("string {}", inner(&literal(v))),
        Value::Bool(b) => format!("bool {b}"),
        Value::Int(n) => format!("int {n}"),
        Value::Int8(n) => format!("int8 {n}"),
        Value::Int16(n) => format!("int16 {n}"),
        Value::Int32(n) => format!("int32 {n}"),
        Value::Int64(n) => format!("int64 {n}"),
        Value::Uint(n) => format!("uint {n}"),
        Value::Uint8(n) => format!("uint8 {n}"),
        Value::Uint16(n) => format!("uint16 {n}"),
        Value::Uint32(n) => format!("uint32 {n}"),
        Value::Uint64(n) => format!("uint64 {n}"),
        Value::Float32(f) => {
            let text = if f.is_nan() {
                "NaN".to_string()
            } else {
                inner(&literal(v)).to_string()
            };
            format!("float32 {text} bits=0x{:08x}", f.to_bits())
        }
        Value::Float64(f) => {
            let text = if f.is_nan() {
                "NaN".to_string()
            } else {
                inner(&literal(v)).to_string()
            };
            format!("float64 {text} bits=0x{:016x}", f.to_bits())
        }
        Value::Custom { .. } => unreachable!("Go never writes custom values"),
    }
}

#[test]
fn go_unmarshal_verdicts_values_and_canonical_bytes() {
    let verdicts: Vec<Json> =
        serde_json::from_slice(&std::fs::read(data("vectors/verdicts.json")).unwrap()).unwrap();
    assert_eq!(verdicts.len(), 109);
    let mut checked = 0;
    for v in &verdicts {
        let name = v["name"].as_str().unwrap();
        let accepted = v["accepted"].as_bool().unwrap();
        let got = decode(&hand(name));
        assert_eq!(
            got.is_ok(),
            accepted,
            "{name}: Go says accepted={accepted}, we say {got:?} (Go: {})",
            v["error"]
        );
        if let Ok(values) = got {
            let want: Vec<&str> = v["values"]
                .as_array()
                .map(|a| a.iter().map(|s| s.as_str().unwrap()).collect())
                .unwrap_or_default();
            let logged: Vec<String> = values.iter().map(as_go_logs_it).collect();
            if name == "str-long-100k" {
                assert_eq!(logged[0], "string len=100000 \"AAAAAAAAAAAAAAAA\"...");
            } else {
                assert_eq!(logged, want, "{name}: decoded values");
            }
            if let Some(canonical) = v["canonical"].as_str() {
                if name != "str-long-100k" {
                    assert_eq!(
                        String::from_utf8(encode(&values)).unwrap(),
                        canonical,
                        "{name}: canonical bytes"
                    );
                }
            }
            // Whatever we write, we read back to the same values.
            assert_eq!(
                decode(&encode(&values)).unwrap(),
                values,
                "{name}: round trip"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 109);
}

fn target_types(target: &str) -> Vec<ArgType> {
    let t = |s: &str| s.parse::<ArgType>().unwrap();
    match target {
        "FuzzDecBytes" => vec![t("[]byte")],
        "FuzzDecString" => vec![t("string")],
        "FuzzDecInt" => vec![t("int")],
        "FuzzDecInt8" => vec![t("int8")],
        "FuzzDecInt16" => vec![t("int16")],
        "FuzzDecInt32" => vec![t("int32")],
        "FuzzDecInt64" => vec![t("int64")],
        "FuzzDecUint" => vec![t("uint")],
        "FuzzDecUint8" => vec![t("uint8")],
        "FuzzDecUint16" => vec![t("uint16")],
        "FuzzDecUint32" => vec![t("uint32")],
        "FuzzDecUint64" => vec![t("uint64")],
        "FuzzDecFloat32" => vec![t("float32")],
        "FuzzDecFloat64" => vec![t("float64")],
        "FuzzDecBool" => vec![t("bool")],
        "FuzzDecStrInt64" => vec![t("string"), t("int64")],
        other => panic!("unknown target {other}"),
    }
}

#[test]
fn go_test_binary_verdicts_after_type_check() {
    let runs: Vec<Json> = serde_json::from_slice(
        &std::fs::read(data(
            "vectors/transcripts/53_hand_vectors_test_binary_runs.json",
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(runs.len(), 109);
    for r in &runs {
        let name = r["name"].as_str().unwrap();
        let target = r["target"].as_str().unwrap();
        let passed = r["rc"].as_i64().unwrap() == 0;
        let ours = decode(&hand(name)).and_then(|v| check_types(&v, &target_types(target)));
        assert_eq!(
            ours.is_ok(),
            passed,
            "{name} under {target}: Go's test binary {} it, we say {ours:?}",
            if passed { "accepted" } else { "rejected" }
        );
    }
}

#[test]
fn files_go_wrote_decode_and_reencode_to_the_same_bytes() {
    let mut n = 0;
    for dir in ["vectors/go-written/testdata", "vectors/go-written/cache"] {
        for target in std::fs::read_dir(data(dir)).unwrap() {
            for f in std::fs::read_dir(target.unwrap().path()).unwrap() {
                let path = f.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                let values = decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(encode(&values), bytes, "{}", path.display());
                let name = path.file_name().unwrap().to_str().unwrap();
                assert!(fuzz_core::store::digest::name_matches(name, &bytes));
                assert_eq!(name.len(), 64, "Go 1.19 names files by the full digest");
                n += 1;
            }
        }
    }
    assert_eq!(n, 19);
}

#[test]
fn go_marshal_samples_reencode_byte_for_byte() {
    let text =
        std::fs::read_to_string(data("vectors/transcripts/51_canonical_marshal_samples.txt"))
            .unwrap();
    let mut files = 0;
    for section in text.split("### ").skip(1) {
        let body: Vec<&str> = section
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("--- ") && !l.starts_with("### "))
            .collect();
        let file = format!("{}\n", body.join("\n"));
        let values = decode(file.as_bytes()).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!values.is_empty());
        assert_eq!(String::from_utf8(encode(&values)).unwrap(), file);
        files += 1;
    }
    assert_eq!(files, 9);
}
