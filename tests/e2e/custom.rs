//! Custom mutators, on the examples of `examples/custom/`: libFuzzer's
//! `LLVMFuzzerCustomMutator` (a CRC-sealed record), `LLVMFuzzerCustomCrossOver`
//! (CRC-sealed configurations) and a typed Rust target taking a
//! self-mutating custom value (`custom(expr)`, `fuzz_mutate_expr`).
//!
//! The worker finds the symbols (`list -json`), runs the known inputs, and
//! replays custom values as seeds; fuzzing finds each planted bug through
//! the custom mutator, which the default mutators alone do not reach, and a
//! seeded run stays reproducible.

use crate::common::*;
use crate::work::Work;
use fuzz_core::format::codec::decode;
use fuzz_core::Value;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What examples/build.sh builds from examples/custom/.
pub const LIBRARIES: [&str; 10] = [
    "libcustom_record.so",
    "libcustom_record_fixed.so",
    "libcustom_record_nomutator.so",
    "libcustom_record_mutator_crash.so",
    "libcustom_record_mutator_hang.so",
    "libcustom_config.so",
    "libcustom_config_fixed.so",
    "libcustom_config_cross_over_crash.so",
    "librust_custom.so",
    "librust_custom_fixed.so",
];

fn lib(name: &str) -> String {
    let path = example_lib(name);
    assert!(
        Path::new(&path).is_file(),
        "examples/build.sh did not build {name}"
    );
    path
}

/// CRC-32 (ISO-HDLC), as examples/custom/crc32.h computes it.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// The payload of a record sealed with its CRC-32, if the seal is right.
fn unseal(record: &[u8]) -> Option<&[u8]> {
    let (payload, crc) = record.split_at(record.len().checked_sub(4)?);
    (crc32(payload).to_le_bytes() == crc).then_some(payload)
}

/// The inputs in the generated corpus of a libFuzzer entry.
fn cached_bytes(w: &Work) -> Vec<Vec<u8>> {
    w.cache_entries()
        .iter()
        .map(|path| one_bytes(&decode(&std::fs::read(path).unwrap()).unwrap()))
        .collect()
}

/// The payloads of the sealed records in the generated corpus of a
/// libFuzzer entry.
fn cached_sealed(w: &Work) -> Vec<Vec<u8>> {
    cached_bytes(w)
        .iter()
        .filter_map(|bytes| unseal(bytes).map(<[u8]>::to_vec))
        .collect()
}

/// Asserts a run found one failure quickly and wrote one crasher, which
/// it returns decoded.
#[track_caller]
fn found_one(w: &Work, target: &str, r: &Run, started: Instant, needle: &str) -> Vec<Value> {
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
    let out = r.out();
    assert!(out.contains(&format!("--- FAIL: {target}")), "{out}");
    assert!(out.contains(needle), "want {needle:?} in:\n{out}");
    let crashers = w.crashers(target);
    assert_eq!(crashers.len(), 1, "{crashers:?}\n{out}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{target}: took {:?}",
        started.elapsed()
    );
    decode(&std::fs::read(&crashers[0]).unwrap()).unwrap()
}

fn one_bytes(values: &[Value]) -> Vec<u8> {
    match values {
        [Value::Bytes(b)] => b.clone(),
        other => panic!("not one []byte: {other:?}"),
    }
}

fn list_json(dir: &Path, lib: &str) -> Vec<Json> {
    run_in(dir, "fuzz-worker", &["list", "-json", lib])
        .expect(0)
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn the_worker_lists_the_custom_mutators() {
    let dir = tempdir();
    let d = dir.path();
    for name in LIBRARIES {
        lib(name);
    }
    let entry = |name: &str, mutators: &[&str]| {
        let mut v = serde_json::json!({
            "name": name,
            "kind": "libfuzzer",
            "symbol": "LLVMFuzzerTestOneInput",
            "args": ["[]byte"],
            "trace_cmp": true,
            "coverage": true,
        });
        if !mutators.is_empty() {
            v["mutators"] = serde_json::json!(mutators);
        }
        v
    };
    assert_eq!(
        list_json(d, &lib("libcustom_record.so")),
        [entry("custom_record", &["LLVMFuzzerCustomMutator"])]
    );
    // Without a mutator the field is left out.
    assert_eq!(
        list_json(d, &lib("libcustom_record_nomutator.so")),
        [entry("custom_record_nomutator", &[])]
    );
    assert_eq!(
        list_json(d, &lib("libcustom_config.so")),
        [entry("custom_config", &["LLVMFuzzerCustomCrossOver"])]
    );
    for rust in ["librust_custom.so", "librust_custom_fixed.so"] {
        assert_eq!(
            list_json(d, &lib(rust)),
            [serde_json::json!({
                "name": "FuzzEval",
                "kind": "typed",
                "symbol": "FuzzEval",
                "args": ["custom(expr)"],
                "trace_cmp": true,
                "coverage": true,
                "mutators": ["fuzz_mutate_expr"],
            })]
        );
    }
    let r = run_in(d, "fuzz-worker", &["list", &lib("librust_custom.so")]).expect(0);
    assert_eq!(r.out(), "FuzzEval\tcustom(expr)\n");
    // The mutator is exported under the documented name, not as a target.
    require_tool("nm");
    let out = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib("librust_custom.so"))
        .output()
        .unwrap();
    let syms = String::from_utf8_lossy(&out.stdout);
    assert!(
        syms.lines().any(|l| l.ends_with(" T fuzz_mutate_expr")),
        "{syms}"
    );
}

#[test]
fn known_inputs_fail_until_the_fixed_builds() {
    let dir = tempdir();
    let d = dir.path();
    let record = known_input("custom_record");
    let config = known_input("custom_config");
    // The known inputs are sealed records.
    let bytes = std::fs::read(&record).unwrap();
    assert_eq!(unseal(&bytes), Some(&b"CRC!"[..]));
    let bytes = std::fs::read(&config).unwrap();
    assert_eq!(unseal(&bytes), Some(&b"mode=fast\nlevel=9\n"[..]));

    for (name, input) in [
        ("libcustom_record.so", &record),
        ("libcustom_record_nomutator.so", &record),
        ("libcustom_config.so", &config),
    ] {
        let r = run_in(d, "fuzz-worker", &["run", "-raw", &lib(name), input]).expect(1);
        assert!(
            r.out().starts_with(&format!("{input}: crashed: SIGABRT")),
            "{name}: {}",
            r.out()
        );
    }
    for (name, input) in [
        ("libcustom_record_fixed.so", &record),
        ("libcustom_config_fixed.so", &config),
    ] {
        let r = run_in(d, "fuzz-worker", &["run", "-raw", &lib(name), input]).expect(0);
        assert_eq!(r.out(), format!("{input}: ok\n"));
    }
    // A record with a wrong seal is turned away before the payload.
    let mut broken = std::fs::read(&record).unwrap();
    *broken.last_mut().unwrap() ^= 1;
    std::fs::write(d.join("broken"), &broken).unwrap();
    let r = run_in(
        d,
        "fuzz-worker",
        &["run", "-raw", &lib("libcustom_record.so"), "broken"],
    )
    .expect(0);
    assert_eq!(r.out(), "broken: ok\n");

    // The custom value: a division by 3 - 3.
    let eval = known_input("rust_custom.FuzzEval");
    let values = decode(&std::fs::read(&eval).unwrap()).unwrap();
    assert_eq!(
        values,
        [Value::Custom {
            name: "expr".into(),
            data: vec![5, 0, 7, 3, 0, 3, 0, 3],
        }]
    );
    let r = run_in(d, "fuzz-worker", &["run", &lib("librust_custom.so"), &eval]).expect(1);
    assert!(
        r.out()
            .starts_with(&format!("{eval}: failed: attempt to divide by zero")),
        "{}",
        r.out()
    );
    run_in(
        d,
        "fuzz-worker",
        &["run", &lib("librust_custom_fixed.so"), &eval],
    )
    .expect(0);
    // Bytes that are no tree are rejected, never run.
    std::fs::write(
        d.join("bad-tree"),
        "go test fuzz v1\ncustom(\"expr\", []byte(\"\\x09\"))\n",
    )
    .unwrap();
    let r = run_in(
        d,
        "fuzz-worker",
        &["run", &lib("librust_custom.so"), "bad-tree"],
    )
    .expect(0);
    assert_eq!(r.out(), "bad-tree: rejected\n");
}

#[test]
fn custom_values_replay_as_seeds() {
    let w = Work::new();
    let seeds = w.seed_dir("FuzzEval");
    std::fs::copy(known_input("rust_custom.FuzzEval"), seeds.join("div")).unwrap();
    std::fs::write(
        seeds.join("seven"),
        "go test fuzz v1\ncustom(\"expr\", []byte(\"\\x00\\a\"))\n",
    )
    .unwrap();
    let r = w.fuzz(lib("librust_custom.so"), &["-v"]).expect(1);
    let out = r.out();
    assert!(out.contains("--- FAIL: FuzzEval/div"), "{out}");
    assert!(out.contains("attempt to divide by zero"), "{out}");
    assert!(out.contains("--- PASS: FuzzEval/seven"), "{out}");
    w.fuzz(lib("librust_custom_fixed.so"), &[]).expect(0);
    // A custom value of another type is a malformed seed, named as such.
    std::fs::write(
        seeds.join("tree"),
        "go test fuzz v1\ncustom(\"tree\", []byte(\"\"))\n",
    )
    .unwrap();
    let r = w.fuzz(lib("librust_custom_fixed.so"), &[]).expect(1);
    assert!(
        r.out().contains("[custom(tree)], want [custom(expr)]"),
        "{}",
        r.out()
    );
}

#[test]
fn the_default_mutators_do_not_get_past_the_checksum() {
    // The control for the next test: the same target without its custom
    // mutator, comparison feedback on. Coverage never gets past the seal.
    let w = Work::new();
    let r = w.fuzz(
        lib("libcustom_record_nomutator.so"),
        &[
            "-fuzz",
            "custom_record_nomutator",
            "-fuzztime",
            "5s",
            "-parallel",
            "2",
            "-use_cmp",
            "1",
        ],
    );
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
    assert!(w.crashers("custom_record_nomutator").is_empty());
    assert!(r.out().contains("ok"), "{}", r.out());
}

#[test]
fn the_custom_mutator_finds_the_checksummed_bug() {
    let w = Work::new();
    let started = Instant::now();
    let r = w.fuzz(
        lib("libcustom_record.so"),
        &[
            "-fuzz",
            "custom_record",
            "-fuzztime",
            "60s",
            "-parallel",
            "1",
        ],
    );
    let crasher = one_bytes(&found_one(&w, "custom_record", &r, started, "SIGABRT"));
    // Minimized, and still a sealed record: only those reach the payload.
    let payload = unseal(&crasher).unwrap_or_else(|| {
        panic!(
            "not a sealed record: {:?}",
            crasher.escape_ascii().to_string()
        )
    });
    assert!(
        payload.starts_with(b"CRC!"),
        "{:?}",
        payload.escape_ascii().to_string()
    );
}

/// What a failure's report says between `head` and the next `)`: the
/// custom mutator call's details.
#[track_caller]
fn call_after<'a>(out: &'a str, head: &str) -> &'a str {
    out.split(head)
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no {head:?} in:\n{out}"))
}

/// Copies the seeds of examples/custom's `custom_config` into `seeds`;
/// returns the copies.
fn copy_config_seeds(seeds: &Path) -> Vec<PathBuf> {
    let examples_seeds = root().join("examples/custom/testdata/fuzz/custom_config");
    let mut copies = Vec::new();
    for e in std::fs::read_dir(&examples_seeds).unwrap() {
        let e = e.unwrap();
        let copy = seeds.join(e.file_name());
        std::fs::copy(e.path(), &copy).unwrap();
        copies.push(copy);
    }
    copies
}

/// A run on a target whose custom mutator crashes or hangs on the calls
/// whose seed is a multiple of 64 (the target itself passes every input):
/// the failure must blame the mutator call, name its seed, and record the
/// input it was mutating, which replays without failing.
#[track_caller]
fn blames_the_mutator(name: &str, extra: &[&str], needle: &str) {
    let w = Work::new();
    let started = Instant::now();
    let mut args = vec!["-fuzz", name, "-fuzztime", "60s", "-parallel", "1"];
    args.extend_from_slice(extra);
    let r = w.fuzz(lib(&format!("lib{name}.so")), &args);
    let crasher = one_bytes(&found_one(&w, name, &r, started, needle));
    let out = r.out();
    // The call, its room (length control's cap, at most -max_len) and
    // its seed.
    let call = call_after(
        &out,
        "It was in LLVMFuzzerCustomMutator (on the recorded input, max_size ",
    );
    let (room, seed) = call
        .split_once(", seed ")
        .and_then(|(r, s)| Some((r.parse::<usize>().ok()?, s.parse::<u32>().ok()?)))
        .unwrap_or_else(|| panic!("no room and seed in {call:?}"));
    assert!((4..=4096).contains(&room), "{out}");
    // The seed of the very call that failed, not of an earlier one.
    assert_eq!(seed % 64, 0, "{out}");
    assert!(out.contains("the bug is in the mutator"), "{out}");
    // Not minimized: it is the input the mutator was given, which the
    // mutator's own records are made from, or a corpus entry (a new entry
    // is minimized by bytes, so it may have lost its seal), or short.
    let in_corpus = cached_bytes(&w).contains(&crasher);
    assert!(
        unseal(&crasher).is_some() || crasher.len() < 4 || in_corpus,
        "{:?}",
        crasher.escape_ascii().to_string()
    );
    // Replaying it runs the target alone, which passes.
    let replay = run_in(
        w.path(),
        "fuzz-run",
        &["-run", name, &lib(&format!("lib{name}.so"))],
    );
    assert_eq!(replay.code, 0, "{}\n{}", replay.out(), replay.stderr);
}

#[test]
fn a_crashing_custom_mutator_is_blamed_with_its_seed() {
    blames_the_mutator(
        "custom_record_mutator_crash",
        &[],
        "the target's custom mutator crashed: SIGSEGV",
    );
}

#[test]
fn a_hanging_custom_mutator_is_caught_by_the_timeout() {
    blames_the_mutator(
        "custom_record_mutator_hang",
        &["-timeout", "1s"],
        "the target's custom mutator hung: a call ran longer than 1s (-timeout)",
    );
}

/// A cross-over that crashes is recorded with both of its inputs: the one
/// it was crossing (the crasher file) and the other entry, named in the
/// report (a seed file, or a file written beside the crasher).
#[test]
fn a_crashing_cross_over_records_its_other_entry_too() {
    let name = "custom_config_cross_over_crash";
    let w = Work::new();
    let seeds = w.seed_dir(name);
    let seed_names: Vec<String> = copy_config_seeds(&seeds)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let lib = lib(&format!("lib{name}.so"));
    let r = w.fuzz(&lib, &["-fuzz", name, "-fuzztime", "60s", "-parallel", "1"]);
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
    let out = r.out();
    assert!(
        out.contains("the target's custom mutator crashed: SIGSEGV"),
        "{out}"
    );
    // The call names the other entry's file, its room and its seed.
    let call = call_after(
        &out,
        "It was in LLVMFuzzerCustomCrossOver (of the recorded input and ",
    );
    let (other_path, rest) = call
        .split_once(", max_out_size ")
        .unwrap_or_else(|| panic!("{call:?}"));
    let seed: u32 = rest
        .split_once(", seed ")
        .and_then(|(_, s)| s.parse().ok())
        .unwrap_or_else(|| panic!("{call:?}"));
    assert_eq!(seed % 64, 0, "{out}");
    let other_path = w.path().join(other_path);
    assert_eq!(other_path.parent(), Some(seeds.as_path()), "{out}");
    let other_name = other_path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    // What the cross-over said it was given, before it crashed.
    let sizes = out
        .split("cross-over of ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .and_then(|l| l.strip_suffix(" bytes"))
        .and_then(|l| l.split_once(" and "))
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .unwrap_or_else(|| panic!("no sizes in:\n{out}"));
    let other = one_bytes(&decode(&std::fs::read(&other_path).unwrap()).unwrap());
    assert_eq!(other.len(), sizes.1, "{out}");
    // The crasher is the first input; the other is a seed or a file of
    // its own, named by its digest.
    let crashers = w.crashers(name);
    let written: Vec<&PathBuf> = crashers.iter().filter(|p| **p != other_path).collect();
    let crasher = match written[..] {
        [one] => one,
        // The cross-over of an entry with itself: one file.
        [] => &other_path,
        _ => panic!("{crashers:?}"),
    };
    let first = one_bytes(&decode(&std::fs::read(crasher).unwrap()).unwrap());
    assert_eq!(first.len(), sizes.0, "{out}");
    assert!(
        seed_names.contains(&other_name) || crashers.contains(&other_path),
        "{other_name} {crashers:?}"
    );
    // Both replay, and pass: the bug is in the cross-over.
    let replay = run_in(w.path(), "fuzz-run", &["-run", name, &lib]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.out(), replay.stderr);
}

#[test]
fn the_custom_cross_over_combines_two_seeds() {
    let w = Work::new();
    let mut lines = Vec::new();
    for copy in copy_config_seeds(&w.seed_dir("custom_config")) {
        let bytes = one_bytes(&decode(&std::fs::read(copy).unwrap()).unwrap());
        lines.push(
            unseal(&bytes)
                .expect("the example seeds are sealed")
                .to_vec(),
        );
    }
    lines.sort();
    assert_eq!(lines, [&b"level=9\n"[..], b"mode=fast\n"]);
    // Each seed alone is fine.
    w.fuzz(lib("libcustom_config.so"), &[]).expect(0);

    let started = Instant::now();
    let r = w.fuzz(
        lib("libcustom_config.so"),
        &[
            "-fuzz",
            "custom_config",
            "-fuzztime",
            "60s",
            "-parallel",
            "1",
        ],
    );
    let crasher = one_bytes(&found_one(&w, "custom_config", &r, started, "SIGABRT"));
    let payload = unseal(&crasher).unwrap_or_else(|| {
        panic!(
            "not a sealed record: {:?}",
            crasher.escape_ascii().to_string()
        )
    });
    let text = String::from_utf8_lossy(payload);
    let has = |line: &str| text.lines().any(|l| l == line);
    assert!(has("mode=fast") && has("level=9"), "{text:?}");
}

#[test]
fn the_custom_value_mutator_finds_the_division_by_zero() {
    let w = Work::new();
    let started = Instant::now();
    let r = w.fuzz(
        lib("librust_custom.so"),
        &["-fuzz", "FuzzEval", "-fuzztime", "60s", "-parallel", "2"],
    );
    let values = found_one(&w, "FuzzEval", &r, started, "attempt to divide by zero");
    match &values[..] {
        [Value::Custom { name, data }] => {
            assert_eq!(name, "expr");
            // A division (tag 5) somewhere in a well-formed tree.
            assert!(data.contains(&5), "{data:?}");
        }
        other => panic!("not one custom value: {other:?}"),
    }
    // The crasher file keeps the custom type in its line, and replays.
    let crasher = &w.crashers("FuzzEval")[0];
    let text = std::fs::read_to_string(crasher).unwrap();
    assert!(text.contains("custom(\"expr\", []byte(\""), "{text}");
    let r = w.fuzz(lib("librust_custom.so"), &[]).expect(1);
    assert!(r.out().contains("attempt to divide by zero"), "{}", r.out());
}

#[test]
fn a_seeded_run_with_custom_mutators_is_reproducible() {
    for (name, target) in [
        ("librust_custom_fixed.so", "FuzzEval"),
        ("libcustom_record_fixed.so", "custom_record_fixed"),
        ("libcustom_config_fixed.so", "custom_config_fixed"),
    ] {
        let run = || {
            let w = Work::new();
            if target == "custom_config_fixed" {
                copy_config_seeds(&w.seed_dir(target));
            }
            let r = w.fuzz(
                lib(name),
                &[
                    "-fuzz",
                    target,
                    "-json",
                    "-parallel",
                    "1",
                    "-seed",
                    "42",
                    "-fuzztime",
                    "20000x",
                ],
            );
            assert_eq!(r.code, 0, "{name}: {}", r.stderr);
            let end = r
                .out()
                .lines()
                .map(|l| serde_json::from_str::<Json>(l).unwrap())
                .find(|e| e["event"] == "end")
                .unwrap();
            // Only the custom mutators make new custom values, and sealed
            // records with a payload: finding some shows they ran.
            if target == "FuzzEval" {
                assert!(!w.cached(target).is_empty(), "{name}: nothing new found");
            } else {
                assert!(
                    cached_sealed(&w).iter().any(|p| !p.is_empty()),
                    "{name}: no new sealed record"
                );
            }
            (
                w.cached(target),
                end["execs"].clone(),
                end["coverage"].clone(),
            )
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b, "{name}: same seed, same corpus, same counts");
    }
}

#[test]
fn the_c_header_writes_a_custom_value_and_its_mutator() {
    // FUZZ_CUSTOM_MUTATOR and fuzz_args_read_custom, warning-free in C and
    // C++, even with hidden visibility.
    const SOURCE: &str = r#"
#include "fuzz_target.h"
#include <stdio.h>

/* A "word": lowercase letters only. */
FUZZ_CUSTOM_MUTATOR(word) {
    fuzz_rng r = fuzz_rng_init(fuzz_seed);
    size_t i;
    if (fuzz_size < fuzz_max_size && fuzz_rng_below(&r, 2))
        fuzz_size++;
    for (i = 0; i < fuzz_size; i++)
        if (fuzz_data[i] < 'a' || fuzz_data[i] > 'z' || fuzz_rng_below(&r, 4) == 0)
            fuzz_data[i] = (uint8_t)('a' + fuzz_rng_below(&r, 26));
    return fuzz_size;
}

FUZZ_TARGET(FuzzWord, "custom(word), int64") {
    fuzz_args a = fuzz_args_init(fuzz_data, fuzz_size);
    const uint8_t *w;
    size_t n;
    int64_t k;
    fuzz_args_read_custom(&a, &w, &n);
    fuzz_args_read_i64(&a, &k);
    if (!fuzz_args_end(&a))
        return FUZZ_REJECT;
    if (fuzz_bytes_eq(w, n, "boom") && k == 1) {
        fprintf(stderr, "boom word\n");
        return FUZZ_FAIL;
    }
    return FUZZ_PASS;
}
"#;
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("word.c"), SOURCE).unwrap();
    let include = root().join("fuzz-target/include");
    let include = format!("-I{}", include.display());
    for (compiler, lang) in [("gcc", "c"), ("g++", "c++"), ("clang-19", "c")] {
        require_tool(compiler);
        let out = std::process::Command::new(compiler)
            .args(["-x", lang, "-O1", "-fPIC", "-shared", "-fvisibility=hidden"])
            .args(["-Wall", "-Wextra", "-Werror", &include, "word.c", "-o"])
            .arg(format!("libword_{lang}.so"))
            .args(if lang == "c" {
                &["-std=c99", "-Wpedantic"][..]
            } else {
                &["-Wpedantic"][..]
            })
            .current_dir(d)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{compiler}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lib = d.join(format!("libword_{lang}.so")).display().to_string();
        assert_eq!(
            list_json(d, &lib),
            [serde_json::json!({
                "name": "FuzzWord",
                "kind": "typed",
                "symbol": "FuzzWord",
                "args": ["custom(word)", "int64"],
                "trace_cmp": false,
                "coverage": false,
                "mutators": ["fuzz_mutate_word"],
            })]
        );
        std::fs::write(
            d.join("boom"),
            "go test fuzz v1\ncustom(\"word\", []byte(\"boom\"))\nint64(1)\n",
        )
        .unwrap();
        let r = run_in(d, "fuzz-worker", &["run", &lib, "boom"]).expect(1);
        assert_eq!(r.out(), "boom: failed: boom word\n");
    }
}
