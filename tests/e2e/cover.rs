//! `fuzz-corpus cover` against the example targets: which functions a
//! corpus reaches, the listing and its totals, the HTML page, and the
//! errors (no PC table, a malformed entry) that leave nothing behind.

use crate::common::*;
use object::{Object, ObjectSection, ObjectSymbol};
use std::path::Path;
use std::process::{Command, Stdio};

/// One line of the listing: covered and total blocks, percent, name,
/// location (the parse assumes a name without spaces, as C names are).
#[derive(Debug)]
struct Row {
    covered: usize,
    blocks: usize,
    percent: f64,
    name: String,
    location: String,
}

/// The listing's function lines and its totals line.
fn listing(out: &str) -> (Vec<Row>, String) {
    let mut lines: Vec<&str> = out.lines().collect();
    let totals = lines.pop().expect("a totals line").to_string();
    let rows = lines
        .iter()
        .map(|l| {
            let mut f = l.split_whitespace();
            let (frac, pct, name) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            let (c, b) = frac.split_once('/').unwrap_or_else(|| panic!("{l}"));
            Row {
                covered: c.parse().unwrap(),
                blocks: b.parse().unwrap(),
                percent: pct.trim_end_matches('%').parse().unwrap(),
                name: name.to_string(),
                location: f.collect::<Vec<_>>().join(" "),
            }
        })
        .collect();
    (rows, totals)
}

fn row<'a>(rows: &'a [Row], name: &str) -> &'a Row {
    rows.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} not listed: {rows:?}"))
}

/// Blocks in a library's PC table, read from the ELF file itself: one
/// (pc, flags) pair of 8-byte words per block.
fn pc_table_blocks(lib: &str) -> usize {
    let data = std::fs::read(lib).unwrap();
    let file = object::File::parse(&*data).unwrap();
    let section = file
        .section_by_name("__sancov_pcs")
        .unwrap_or_else(|| panic!("{lib} has no __sancov_pcs section"));
    section.size() as usize / 16
}

/// The line `needle` is on in examples/c/parse.c.
fn parse_c_line(needle: &str) -> usize {
    let text = std::fs::read_to_string(root().join("examples/c/parse.c")).unwrap();
    1 + text
        .lines()
        .position(|l| l.starts_with(needle))
        .unwrap_or_else(|| panic!("{needle} not in parse.c"))
}

/// Builds examples/c/parse.c with clang-19 and `flags` into `dir`.
fn build_parse_c(dir: &Path, name: &str, flags: &[&str]) -> String {
    let clang = require_tool("clang-19");
    let out = dir.join(name);
    let status = Command::new(clang)
        .args(["-O1", "-fPIC", "-shared"])
        .args(flags)
        .arg(root().join("examples/c/parse.c"))
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "clang-19 failed building {name}");
    out.to_str().unwrap().to_string()
}

#[test]
fn cover_lists_what_the_corpus_reaches_and_what_it_does_not() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang_fixed.so");
    // A key record (on_key) and input without the magic: on_value and
    // on_other are never called.
    bytes_corpus(d, "corpus", &[("key", "TLVK\\x01a"), ("nomagic", "xyz")]);
    let r = run_in(d, "fuzz-corpus", &["cover", &lib, "corpus"]).expect(0);
    let (rows, totals) = listing(&r.out());
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(rows.len(), 4, "{names:?}");

    let on_key = row(&rows, "on_key");
    assert!(
        on_key.covered == on_key.blocks && on_key.blocks > 0,
        "{on_key:?}"
    );
    assert_eq!(on_key.percent, 100.0);
    let entry = row(&rows, "LLVMFuzzerTestOneInput");
    assert!(
        entry.covered > 0 && entry.covered < entry.blocks,
        "{entry:?}"
    );
    for name in ["on_value", "on_other"] {
        let r = row(&rows, name);
        assert_eq!((r.covered, r.percent), (0, 0.0), "{r:?}");
        assert!(r.blocks > 0);
    }
    // Locations are the functions' own lines (debug information, -g).
    let parse_c = root().join("examples/c/parse.c");
    for (name, def) in [
        ("on_key", "static void on_key("),
        ("on_value", "static void on_value("),
        ("on_other", "static void on_other("),
        (
            "LLVMFuzzerTestOneInput",
            "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {",
        ),
    ] {
        assert_eq!(
            row(&rows, name).location,
            format!("{}:{}", parse_c.display(), parse_c_line(def)),
        );
    }
    // Least covered first.
    for w in rows.windows(2) {
        assert!(w[0].percent <= w[1].percent, "not sorted: {names:?}");
    }
    // The totals add up, and every block of the PC table is counted.
    let covered: usize = rows.iter().map(|r| r.covered).sum();
    let blocks: usize = rows.iter().map(|r| r.blocks).sum();
    assert_eq!(blocks, pc_table_blocks(&lib));
    assert!(
        totals.starts_with(&format!(
            "covered: 2/4 functions (50.0%), {covered}/{blocks} blocks ("
        )),
        "{totals}"
    );
    assert!(
        r.stderr.contains("ran 2 entries (0 skipped)"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);

    // Entries that reach the other two handlers: every function covered,
    // and more blocks than before.
    bytes_corpus(
        d,
        "more",
        &[("value", "TLVK\\x01aV\\x01b"), ("other", "TLV\\x00\\x00")],
    );
    let r = run_in(d, "fuzz-corpus", &["cover", &lib, "corpus", "more"]).expect(0);
    let (rows2, totals2) = listing(&r.out());
    for name in ["on_value", "on_other", "on_key", "LLVMFuzzerTestOneInput"] {
        assert!(row(&rows2, name).covered > 0, "{name}: {rows2:?}");
    }
    let covered2: usize = rows2.iter().map(|r| r.covered).sum();
    assert!(covered2 > covered, "{covered2} <= {covered}");
    assert!(
        totals2.starts_with("covered: 4/4 functions (100.0%)"),
        "{totals2}"
    );
}

#[test]
fn cover_skips_a_crashing_entry_with_a_warning() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang.so");
    // "TLVV\x00" is the planted NULL dereference in on_value.
    bytes_corpus(
        d,
        "corpus",
        &[("crash", "TLVV\\x00"), ("key", "TLVK\\x01a")],
    );
    let r = run_in(d, "fuzz-corpus", &["cover", &lib, "corpus"]).expect(0);
    let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{}", r.stderr);
    assert!(
        warnings[0].starts_with("fuzz-corpus: warning: skipped ")
            && warnings[0].contains("corpus/crash")
            && warnings[0].contains("SIGSEGV"),
        "{}",
        warnings[0]
    );
    assert!(
        r.stderr.contains("ran 2 entries (1 skipped)"),
        "{}",
        r.stderr
    );
    // The entry after the crash still ran (in a new worker); the crash's
    // coverage is not counted.
    let (rows, totals) = listing(&r.out());
    assert!(row(&rows, "on_key").covered > 0);
    assert_eq!(row(&rows, "on_value").covered, 0);
    assert!(totals.starts_with("covered: 2/4 functions"), "{totals}");
}

#[test]
fn cover_html_groups_functions_by_file_with_totals_on_top() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang_fixed.so");
    bytes_corpus(d, "corpus", &[("key", "TLVK\\x01a"), ("nomagic", "xyz")]);
    std::fs::create_dir(d.join("out")).unwrap();
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "out/report.html", &lib, "corpus"],
    )
    .expect(0);
    // The listing still goes to stdout.
    assert!(r.out().contains("on_key"), "{}", r.out());
    let html = std::fs::read_to_string(d.join("out/report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.trim_end().ends_with("</html>"));
    assert!(html.contains("Coverage of libc_parse_clang_fixed.so"));
    // The summary at the top, before any function.
    let summary = html
        .find("2 of 4 functions reached")
        .expect("function totals");
    assert!(html.contains("of 4 functions reached") && html.contains("blocks covered"));
    // One group, the source file, holding the four functions, each row
    // marked by how much of it is covered.
    let group = html.find("examples/c/parse.c</span>").expect("file group");
    assert!(summary < group);
    assert_eq!(html.matches("<details class=\"group").count(), 1, "{html}");
    let row_class = |name: &str| -> String {
        let at = html
            .find(&format!("<span class=\"name\">{name}</span>"))
            .unwrap_or_else(|| panic!("no row for {name}"));
        let open = "<details class=\"fn ";
        let start = html[..at].rfind(open).unwrap() + open.len();
        html[start..start + 4].to_string()
    };
    assert_eq!(row_class("on_key"), "full");
    assert_eq!(row_class("LLVMFuzzerTestOneInput"), "part");
    assert_eq!(row_class("on_value"), "none");
    assert_eq!(row_class("on_other"), "none");
    // Self-contained: nothing fetched, nothing run.
    for outside in ["http://", "https://", "<script", "<link", "src="] {
        assert!(!html.contains(outside), "the page references {outside}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(d.join("out")).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");

    // -html - : the page on stdout, instead of the listing.
    let r = run_in(d, "fuzz-corpus", &["cover", "-html", "-", &lib, "corpus"]).expect(0);
    let out = r.out();
    assert!(out.starts_with("<!DOCTYPE html>"), "{out}");
    assert!(!out.contains("covered: 2/4"), "listing mixed into the page");
    assert_eq!(out, html, "the same report, the same page");
}

#[test]
fn cover_without_debug_information_groups_by_name_prefix() {
    let dir = tempdir();
    let d = dir.path();
    let lib = build_parse_c(
        d,
        "libparse_nodebug.so",
        &["-fsanitize-coverage=inline-8bit-counters,pc-table"],
    );
    bytes_corpus(d, "corpus", &[("key", "TLVK\\x01a")]);
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "report.html", &lib, "corpus"],
    )
    .expect(0);
    let (rows, totals) = listing(&r.out());
    // Names from the symbol table; for a location, the function's address,
    // as the symbol table has it.
    assert_eq!(rows.len(), 4, "{rows:?}");
    let data = std::fs::read(&lib).unwrap();
    let file = object::File::parse(&*data).unwrap();
    for r in &rows {
        let sym = file
            .symbols()
            .find(|s| s.name() == Ok(r.name.as_str()))
            .unwrap_or_else(|| panic!("no symbol {}", r.name));
        assert_eq!(r.location, format!("0x{:x}", sym.address()), "{r:?}");
    }
    assert!(row(&rows, "on_key").covered > 0);
    assert_eq!(row(&rows, "on_other").covered, 0);
    assert!(totals.starts_with("covered: 2/4 functions"), "{totals}");
    let html = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(
        html.contains("<span class=\"gname prefix\">on_*</span>"),
        "{html}"
    );
    assert!(html.contains("<span class=\"gname prefix\">(other)</span>"));
    assert!(html.contains("<span class=\"name\">LLVMFuzzerTestOneInput</span>"));
    // Without lines, each function keeps its blocks' addresses and marks.
    assert!(
        html.contains("no debug information: build with -g"),
        "{html}"
    );
    assert!(html.contains("<code class=\"blk none\">"), "{html}");
}

#[test]
fn cover_picks_a_target_as_the_other_tools_do() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("librust_typed_fixed.so");
    std::fs::create_dir(d.join("corpus")).unwrap();
    std::fs::copy(
        known_input("rust_typed.FuzzRecord"),
        d.join("corpus").join("record"),
    )
    .unwrap();
    // Several targets and no -target: exit 2, naming the flag.
    let r = run_in(d, "fuzz-corpus", &["cover", &lib, "corpus"]).expect(2);
    r.one_line_error("fuzz-corpus", "-target");
    assert!(r.stdout.is_empty());
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-target", "FuzzNope", &lib, "corpus"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "FuzzNope");

    let r = run_in(
        d,
        "fuzz-corpus",
        &[
            "cover",
            "-target",
            "FuzzRecord",
            "-html",
            "r.html",
            &lib,
            "corpus",
        ],
    )
    .expect(0);
    let (rows, _) = listing(&r.out());
    assert!(row(&rows, "FuzzRecord").covered > 0, "{rows:?}");
    assert_eq!(row(&rows, "FuzzFlags").covered, 0);
    assert_eq!(row(&rows, "FuzzAllTypes").covered, 0);
    // Rust names are demangled, without their hashes.
    assert!(
        rows.iter().any(|r| r.name.starts_with("fuzz_target::")),
        "{rows:?}"
    );
    assert!(rows
        .iter()
        .all(|r| !r.name.starts_with("_ZN") && !r.name.starts_with("_R")));
    let html = std::fs::read_to_string(d.join("r.html")).unwrap();
    assert!(html.contains("target <code>FuzzRecord</code>"), "{html}");

    // A seed directory names its target, as -target would (issue 22); one
    // the library does not have is the error -target FuzzNope gets.
    for t in ["FuzzRecord", "FuzzNope"] {
        let seeds = d.join("testdata/fuzz").join(t);
        std::fs::create_dir_all(&seeds).unwrap();
        std::fs::copy(known_input("rust_typed.FuzzRecord"), seeds.join("record")).unwrap();
    }
    let named = run_in(
        d,
        "fuzz-corpus",
        &["cover", &lib, "testdata/fuzz/FuzzRecord"],
    )
    .expect(0);
    assert_eq!(listing(&named.out()).0.len(), rows.len());
    assert!(row(&listing(&named.out()).0, "FuzzRecord").covered > 0);
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", &lib, "testdata/fuzz/FuzzNope/record"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "no target \"FuzzNope\"");
}

#[test]
fn cover_refuses_a_library_without_a_pc_table() {
    let dir = tempdir();
    let d = dir.path();
    bytes_corpus(d, "corpus", &[("key", "TLVK\\x01a")]);
    let guard = build_parse_c(
        d,
        "libparse_guard.so",
        &["-g", "-fsanitize-coverage=trace-pc-guard"],
    );
    for lib in [example_lib("libc_parse_gcc_fixed.so"), guard] {
        let r = run_in(
            d,
            "fuzz-corpus",
            &["cover", "-html", "report.html", &lib, "corpus"],
        )
        .expect(2);
        r.one_line_error(
            "fuzz-corpus",
            "build it with -fsanitize-coverage=inline-8bit-counters,pc-table",
        );
        assert!(r.stderr.contains(&lib), "{}", r.stderr);
        assert!(r.stdout.is_empty());
        assert!(!d.join("report.html").exists());
    }
}

#[test]
fn cover_refuses_a_malformed_entry_and_writes_nothing() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_parse_clang_fixed.so");
    let c = bytes_corpus(d, "corpus", &[("good", "TLVK\\x01a")]);
    std::fs::write(c.join("zz-broken"), "go test fuzz v1\n[]byte(\"abc\"\n").unwrap();
    let before = snapshot(d);
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "report.html", &lib, "corpus"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "zz-broken:2");
    assert!(r.stdout.is_empty());
    assert_eq!(snapshot(d), before, "nothing written");

    // An entry of the wrong type for the target, the same way.
    std::fs::write(c.join("zz-broken"), "go test fuzz v1\nstring(\"TLV\")\n").unwrap();
    let before = snapshot(d);
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "report.html", &lib, "corpus"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "zz-broken");
    assert!(r.stdout.is_empty());
    assert_eq!(snapshot(d), before, "nothing written");

    // Operands that cannot be used: a missing directory, an -html file in
    // a missing directory, a missing library.
    std::fs::remove_file(c.join("zz-broken")).unwrap();
    let r = run_in(d, "fuzz-corpus", &["cover", &lib, "nowhere"]).expect(2);
    r.one_line_error("fuzz-corpus", "nowhere");
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "no/dir/report.html", &lib, "corpus"],
    )
    .expect(2);
    r.one_line_error("fuzz-corpus", "no/dir");
    assert!(r.stdout.is_empty());
    let r = run_in(d, "fuzz-corpus", &["cover", "missing.so", "corpus"]).expect(2);
    r.one_line_error("fuzz-corpus", "missing.so");
}
