//! `fuzz-corpus cover`'s line marks held to llvm-cov's line counts for
//! the same corpus: tests/data/cover/tokens.c built twice at each of -O0,
//! -O1 and -O2, once with SanitizerCoverage for `cover`, once with
//! `-fprofile-instr-generate -fcoverage-mapping` and a driver that runs
//! each input once, whose profile llvm-cov reads. On every line both mark,
//! "reached" (covered or partly) must agree with "llvm-cov counts > 0",
//! except for the lines listed below with the reason they cannot: what
//! the compiler did to the machine code leaves no instruction of theirs
//! that tells (at -O0 only the shared return of a function whose every
//! return is early).

use crate::common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The corpus: a byte-by-byte gate passed one and two bytes deep, numbers,
/// a string with an escape, a comment, a stray `)`, an unknown word.
/// Left unreached: negative numbers, hex overflow, bad escapes, `false`,
/// unterminated strings, `quit`.
const INPUTS: &[&[u8]] = &[
    b"q",
    b"qu",
    b"12 (34)",
    b"\"a\\nb\"",
    b"true",
    b"0x1f",
    b"# c\n1",
    b")",
    b"x",
];

/// A line where the marks disagree, and why.
struct Known {
    line: u32,
    /// The line's text (trimmed), to catch a moved line.
    text: &'static str,
    why: &'static str,
}

/// Brace: at -O0 a function has one return sequence, on its closing
/// brace; it runs after every `return`, while llvm-cov counts the brace
/// only when control falls off the end.
const SHARED_RETURN: &str = "the function's one return sequence sits on its closing brace";
/// Tail merging: identical code at the end of several paths is kept
/// once, and the line table gives it one of their lines.
const TAIL_MERGED: &str = "code of several lines merged into one copy placed on this line";
/// Jump threading and hoisting: where the compiler knows a condition's
/// outcome on a path, or moved the test into the line above, the line's
/// own instructions are not on the paths the corpus took.
const THREADED: &str = "its test was decided on the corpus's paths or moved to the line above";
/// The graph cannot tell whether the line's uncounted code ran.
const UNTOLD: &str = "the counts around its code do not tell whether it ran";

fn known(level: &str) -> Vec<Known> {
    let k = |line, text, why| Known { line, text, why };
    match level {
        "-O0" => vec![k(41, "}", SHARED_RETURN)],
        "-O1" => vec![k(67, "lx->errors++;", TAIL_MERGED), k(102, "lx->at++;", UNTOLD)],
        "-O2" => vec![
            k(74, "if (digits == 0)", THREADED),
            k(102, "lx->at++;", UNTOLD),
            k(133, "if (n > 2 && d[2] == 'i') {", THREADED),
            k(
                146,
                "if (n >= 5 && d[0] == 'f' && d[1] == 'a' && d[2] == 'l' && d[3] == 's' && d[4] == 'e') {",
                THREADED,
            ),
            k(148, "return 1;", TAIL_MERGED),
        ],
        _ => unreachable!(),
    }
}

fn tokens_c() -> PathBuf {
    data("cover/tokens.c")
}

/// Writes each input raw (for the llvm-cov driver) and as a corpus file.
fn write_inputs(dir: &Path) -> (Vec<PathBuf>, PathBuf) {
    let raw = dir.join("raw");
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&raw).unwrap();
    std::fs::create_dir_all(&corpus).unwrap();
    let mut files = Vec::new();
    for (i, input) in INPUTS.iter().enumerate() {
        let f = raw.join(i.to_string());
        std::fs::write(&f, input).unwrap();
        files.push(f);
        let literal: String = input
            .iter()
            .map(|&c| match c {
                b' '..=b'~' if c != b'"' && c != b'\\' => (c as char).to_string(),
                _ => format!("\\x{c:02x}"),
            })
            .collect();
        std::fs::write(
            corpus.join(format!("in{i}")),
            format!("go test fuzz v1\n[]byte(\"{literal}\")\n"),
        )
        .unwrap();
    }
    (files, corpus)
}

fn run_ok(mut c: Command, what: &str) -> String {
    let out = c.stdin(Stdio::null()).output().unwrap();
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// llvm-cov's count of each line of tokens.c that has one: > 0 or not.
fn llvm_cov_lines(dir: &Path, level: &str, inputs: &[PathBuf]) -> BTreeMap<u32, bool> {
    let driver = dir.join("driver.c");
    std::fs::write(
        &driver,
        r#"#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) return 2;
        uint8_t *buf = malloc(1 << 16);
        size_t n = fread(buf, 1, 1 << 16, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    return 0;
}
"#,
    )
    .unwrap();
    let exe = dir.join(format!("prof{level}"));
    let mut c = Command::new(require_tool("clang-19"));
    c.args([
        "-g",
        level,
        "-fprofile-instr-generate",
        "-fcoverage-mapping",
    ])
    .arg(tokens_c())
    .arg(&driver)
    .arg("-o")
    .arg(&exe);
    run_ok(c, "clang-19 (profile build)");
    let raw = dir.join(format!("p{level}.profraw"));
    let mut c = Command::new(&exe);
    c.args(inputs).env("LLVM_PROFILE_FILE", &raw);
    run_ok(c, "the profile build");
    let data = dir.join(format!("p{level}.profdata"));
    let mut c = Command::new(require_tool("llvm-profdata-19"));
    c.arg("merge").arg("-o").arg(&data).arg(&raw);
    run_ok(c, "llvm-profdata-19 merge");
    let mut c = Command::new(require_tool("llvm-cov-19"));
    c.arg("show")
        .arg(&exe)
        .arg(format!("-instr-profile={}", data.display()))
        .arg(tokens_c())
        .arg("-use-color=false");
    let shown = run_ok(c, "llvm-cov-19 show");
    // "   12|      3|code": a count; "   13|       |code": none.
    let mut lines = BTreeMap::new();
    for l in shown.lines() {
        let mut cols = l.splitn(3, '|');
        let (Some(n), Some(count)) = (cols.next(), cols.next()) else {
            continue;
        };
        let (Ok(n), count) = (n.trim().parse::<u32>(), count.trim()) else {
            continue;
        };
        if count.is_empty() {
            continue;
        }
        let digits = count.trim_end_matches(['k', 'M', 'G']);
        let value: f64 = digits.parse().unwrap_or_else(|_| panic!("{l}"));
        lines.insert(n, value > 0.0);
    }
    lines
}

/// `fuzz-corpus cover`'s mark of each line of tokens.c, through `-lines`
/// of every function the listing names: '>', '~', '!' or '.'.
fn cover_marks(dir: &Path, level: &str, corpus: &Path) -> BTreeMap<u32, (char, Option<usize>)> {
    let lib = dir.join(format!("libtokens{level}.so"));
    let mut c = Command::new(require_tool("clang-19"));
    c.args(["-g", level, "-fPIC", "-shared"])
        .arg("-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp")
        .arg(tokens_c())
        .arg("-o")
        .arg(&lib);
    run_ok(c, "clang-19 (coverage build)");
    let (lib, corpus) = (lib.to_str().unwrap(), corpus.to_str().unwrap());
    let listing = run_in(dir, "fuzz-corpus", &["cover", lib, corpus]).expect(0);
    let names: Vec<String> = listing
        .out()
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 3 && f[0].contains('/') && f[1].ends_with('%')).then(|| f[2].to_string())
        })
        .collect();
    assert!(!names.is_empty(), "{}", listing.out());
    let mut marks = BTreeMap::new();
    for name in &names {
        let r = run_in(dir, "fuzz-corpus", &["cover", "-lines", name, lib, corpus]).expect(0);
        for l in r.out().lines() {
            let Some((left, _)) = l.split_once(" | ") else {
                continue;
            };
            let mut f = left.split_whitespace();
            let n: u32 = f.next().unwrap().parse().unwrap();
            if let Some(mark) = f.next() {
                let count = f.next().map(|c| c.parse().unwrap());
                let mark = mark.chars().next().unwrap();
                let old = marks.insert(n, (mark, count));
                // A line inlined into several functions is one line.
                assert!(
                    old.map_or(true, |o| o == (mark, count)),
                    "line {n}: {old:?} and {mark}"
                );
            }
        }
    }
    marks
}

#[test]
fn cover_line_marks_agree_with_llvm_cov_at_o0_o1_and_o2() {
    let dir = tempdir();
    let d = dir.path();
    let (inputs, corpus) = write_inputs(d);
    let source: Vec<String> = std::fs::read_to_string(tokens_c())
        .unwrap()
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    let gate = 1 + source
        .iter()
        .position(|l| l == "if (n > 0 && d[0] == 'q') {")
        .unwrap() as u32;
    for (level, at_least) in [("-O0", 120), ("-O1", 60), ("-O2", 60)] {
        let llvm = llvm_cov_lines(d, level, &inputs);
        let ours = cover_marks(d, level, &corpus);
        let mut compared = 0;
        let mut disagree = BTreeMap::new();
        for (&n, &(mark, _)) in &ours {
            let Some(&ran) = llvm.get(&n) else { continue };
            compared += 1;
            let reached = matches!(mark, '>' | '~');
            if reached != ran || mark == '.' {
                disagree.insert(n, (mark, ran));
            }
        }
        let expected = known(level);
        for k in &expected {
            assert_eq!(
                source[k.line as usize - 1],
                k.text,
                "{level}: line {} moved",
                k.line
            );
        }
        let listed: Vec<u32> = expected.iter().map(|k| k.line).collect();
        let found: Vec<u32> = disagree.keys().copied().collect();
        let report: Vec<String> = disagree
            .iter()
            .map(|(n, (m, ran))| {
                let why = expected
                    .iter()
                    .find(|k| k.line == *n)
                    .map_or("NOT LISTED", |k| k.why);
                format!(
                    "line {n} ({}): ours {m}, llvm-cov {ran}: {why}",
                    source[*n as usize - 1]
                )
            })
            .collect();
        assert_eq!(
            found,
            listed,
            "{level}: {compared} lines compared:\n{}",
            report.join("\n")
        );
        assert!(
            compared >= at_least,
            "{level}: only {compared} lines compared"
        );
        // The issue's example: the 'q' gate is passed by every entry that
        // reaches word(), whatever its first byte.
        let (mark, count) = ours[&gate];
        assert!(
            matches!(mark, '>' | '~'),
            "{level}: gate line {gate} marked {mark}"
        );
        assert_eq!(
            count,
            Some(4),
            "{level}: q, qu, true and x pass line {gate}"
        );
        // The line of weight(), inlined into LLVMFuzzerTestOneInput and
        // into tokens_never_called, is covered: the second copy is its
        // caller's gap, not weight()'s.
        let weight = 1 + source
            .iter()
            .position(|l| l == "return errors * 2 + 1;")
            .unwrap() as u32;
        assert_eq!(ours[&weight].0, '>', "{level}: line {weight}");
        // Never a line marked not reached that llvm-cov says ran, except
        // where listed (and only at -O2).
        for (n, (m, ran)) in &disagree {
            if *m == '!' && *ran {
                assert_eq!(level, "-O2", "line {n} not reached but ran");
            }
        }
        eprintln!(
            "{level}: {compared} lines compared; disagreements:\n{}",
            report.join("\n")
        );
    }
}

/// Builds tests/data/cover/rust-tokens as examples/build.sh builds a Rust
/// target (examples/rustflags.sh, --target the host), at `opt_level`.
fn build_rust_tokens(dir: &Path, opt_level: &str) -> PathBuf {
    let flags = Command::new("sh")
        .arg(root().join("examples/rustflags.sh"))
        .output()
        .unwrap();
    assert!(flags.status.success());
    let rustc = Command::new(require_tool("rustc"))
        .arg("-vV")
        .output()
        .unwrap();
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .unwrap();
    let target_dir = dir.join("cargo-target");
    let mut c = Command::new(require_tool("cargo"));
    c.args(["build", "--release", "--quiet", "--target", &host])
        .arg("--manifest-path")
        .arg(data("cover/rust-tokens/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env("RUSTFLAGS", String::from_utf8_lossy(&flags.stdout).trim())
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", opt_level)
        .env_remove("CARGO_BUILD_TARGET");
    run_ok(c, "cargo build (rust-tokens)");
    target_dir.join(host).join("release/libtok.so")
}

#[test]
fn cover_lines_of_a_rust_target_at_opt_level_1_stay_in_its_own_code() {
    let dir = tempdir();
    let d = dir.path();
    let lib = build_rust_tokens(d, "1");
    let (_, corpus) = write_inputs(d);
    let (lib, corpus) = (lib.to_str().unwrap(), corpus.to_str().unwrap());
    let r = run_in(d, "fuzz-corpus", &["cover", "-lines", "lex", lib, corpus]).expect(0);
    let out = r.out();
    assert!(
        out.starts_with("tok::lex ") && out.lines().next().unwrap().contains("lib.rs:"),
        "{out}"
    );
    // The code inlined into lex: the crate's own and core's, nothing of
    // the crates it never calls (a PC table entry for a deleted block,
    // taken for an address, once brought in a hundred files of std and
    // gimli).
    let files: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("in ")).collect();
    assert!(
        files
            .iter()
            .all(|f| f.contains("/library/core/") || f.contains("/library/alloc/")),
        "{files:?}"
    );
    let source = std::fs::read_to_string(data("cover/rust-tokens/src/lib.rs")).unwrap();
    let marks: BTreeMap<u32, char> = out
        .lines()
        .take_while(|l| !l.starts_with("in "))
        .filter_map(|l| {
            let (left, _) = l.split_once(" | ")?;
            let mut f = left.split_whitespace();
            Some((f.next()?.parse().ok()?, f.next()?.chars().next()?))
        })
        .collect();
    // The corpus has no upper-case hex digit: that test never ran; the
    // loop over tokens did.
    let line = |needle: &str| 1 + source.lines().position(|l| l.trim() == needle).unwrap() as u32;
    assert_eq!(marks.get(&line("while lx.token() {")), Some(&'>'), "{out}");
    let upper = line("if c >= b'A' && c <= b'F' {");
    assert_eq!(marks.get(&upper), Some(&'!'), "{out}");
    assert!(marks.len() > 40, "{out}");
}
