//! `fuzz-corpus cover`'s source view against examples/c/stuck.c, whose
//! seed corpus (examples/c/testdata/fuzz/c_stuck/) leaves one branch
//! unreached and whose source says which lines that is: `-lines`, the
//! page as written and as headless Chromium renders it must mark exactly
//! those lines as not reached and the others as reached. Then `-diff`,
//! a library whose source is gone, and the bad input that changes nothing.

use crate::common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The comment that ends every line of stuck.c the seeds do not reach.
const UNREACHED: &str = "/* not reached by the seeds */";

fn stuck_c() -> PathBuf {
    root().join("examples/c/stuck.c")
}

fn seeds_dir() -> PathBuf {
    let d = root().join("examples/c/testdata/fuzz/c_stuck");
    assert!(d.is_dir(), "no seed corpus {}", d.display());
    d
}

fn seeds() -> String {
    seeds_dir().to_str().unwrap().to_string()
}

/// The numbers of the lines of stuck.c that end in `UNREACHED`.
fn unreached_lines() -> BTreeSet<u32> {
    let text = std::fs::read_to_string(stuck_c()).unwrap();
    let lines: BTreeSet<u32> = (1..)
        .zip(text.lines())
        .filter(|(_, l)| l.trim_end().ends_with(UNREACHED))
        .map(|(n, _)| n)
        .collect();
    assert!(lines.len() >= 5, "{lines:?}");
    lines
}

/// The number of the line of stuck.c that holds `needle`.
fn line_of(needle: &str) -> u32 {
    let text = std::fs::read_to_string(stuck_c()).unwrap();
    (1..)
        .zip(text.lines())
        .find(|(_, l)| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in stuck.c"))
        .0
}

/// A line's mark as the page's classes name it: "full", "part", "none",
/// "code" (code that starts no block).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Marked {
    mark: String,
    entries: Option<usize>,
}

/// Holds a report of stuck.c's lines (line -> mark and entry count) to
/// what its source says: exactly the `UNREACHED` lines are not reached,
/// every line where a block starts (it has a count) is otherwise reached
/// by at least one entry, and the branch's call and the `'a'` case carry
/// the counts the seeds give them.
#[track_caller]
fn check_marks(what: &str, marks: &BTreeMap<u32, Marked>) {
    let none: BTreeSet<u32> = marks
        .iter()
        .filter(|(_, m)| m.mark == "none")
        .map(|(&n, _)| n)
        .collect();
    assert_eq!(
        none,
        unreached_lines(),
        "{what}: lines not reached: {marks:#?}"
    );
    for (n, m) in marks {
        match (m.mark.as_str(), m.entries) {
            ("none", e) => assert!(matches!(e, Some(0)), "{what}: line {n}: {m:?}"),
            ("full" | "part", Some(e)) => assert!(e > 0, "{what}: line {n}: {m:?}"),
            ("full" | "code", None) => {}
            _ => panic!("{what}: line {n}: {m:?}"),
        }
    }
    let call = &marks[&line_of("reset(data[0]);")];
    assert_eq!(
        (call.mark.as_str(), call.entries),
        ("none", Some(0)),
        "{what}"
    );
    // Two seeds send 'a': add-nothing and add-two.
    let add = &marks[&line_of("add(data + 2, size - 2);")];
    assert_eq!(
        (add.mark.as_str(), add.entries),
        ("full", Some(2)),
        "{what}"
    );
}

/// Parses `-lines` output: the function headers, and for each source
/// line its marker and count.
fn parse_lines(out: &str) -> (Vec<String>, BTreeMap<u32, Marked>) {
    let mut headers = Vec::new();
    let mut marks = BTreeMap::new();
    for l in out.lines() {
        let Some((left, _text)) = l.split_once(" | ") else {
            headers.push(l.to_string());
            continue;
        };
        let mut f = left.split_whitespace();
        let n: u32 = f.next().unwrap().parse().unwrap_or_else(|_| panic!("{l}"));
        let Some(symbol) = f.next() else {
            continue;
        };
        let mark = match symbol {
            ">" => "full",
            "~" => "part",
            "!" => "none",
            "." => "code",
            other => panic!("unknown marker {other:?}: {l}"),
        };
        let entries = f.next().map(|c| c.parse().unwrap());
        marks.insert(
            n,
            Marked {
                mark: mark.to_string(),
                entries,
            },
        );
    }
    (headers, marks)
}

/// The value of attribute `name` in the tag starting at `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let end = tag.find('>')?;
    let at = tag[..end].find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The text of the first `<td class="cls">` after `from`.
fn cell<'a>(html: &'a str, from: usize, cls: &str) -> &'a str {
    let open = format!("<td class=\"{cls}\">");
    let at = from + html[from..].find(&open).unwrap() + open.len();
    &html[at..at + html[at..].find("</td>").unwrap()]
}

/// A page's functions (name -> class) and its lines (id -> mark, count,
/// next link), from the HTML as written or as Chromium serialises it.
struct Page {
    functions: BTreeMap<String, String>,
    lines: BTreeMap<String, (Marked, Option<String>)>,
    /// The function number of each function name.
    numbers: BTreeMap<String, String>,
}

fn parse_page(html: &str) -> Page {
    let mut functions = BTreeMap::new();
    let mut numbers = BTreeMap::new();
    for (at, _) in html.match_indices("<details class=\"fn ") {
        let tag = &html[at..];
        let class = attr(tag, "class")
            .unwrap()
            .trim_start_matches("fn ")
            .to_string();
        let id = attr(tag, "id").unwrap().to_string();
        let name_at = at + tag.find("<span class=\"name\">").unwrap() + 19;
        let name = &html[name_at..name_at + html[name_at..].find("</span>").unwrap()];
        functions.insert(name.to_string(), class);
        numbers.insert(name.to_string(), id);
    }
    let mut lines = BTreeMap::new();
    for (at, _) in html.match_indices("<tr id=\"f") {
        let tag = &html[at..];
        let id = attr(tag, "id").unwrap().to_string();
        let mark = attr(tag, "class").unwrap().to_string();
        let cnt = cell(html, at, "cnt");
        let row_end = at + tag.find("</tr>").unwrap();
        let next = html[at..row_end]
            .find("<td class=\"next\"><a href=\"#")
            .map(|k| attr(&html[at + k + 17..], "href").unwrap()[1..].to_string());
        let entries = (!cnt.is_empty()).then(|| cnt.parse().unwrap());
        lines.insert(id, (Marked { mark, entries }, next));
    }
    Page {
        functions,
        lines,
        numbers,
    }
}

/// Holds a page of stuck.c to its source, and checks that its "next"
/// links go round every line not fully covered.
#[track_caller]
fn check_page(what: &str, html: &str) {
    let page = parse_page(html);
    assert_eq!(page.functions["reset"], "none", "{what}");
    assert_eq!(page.functions["add"], "full", "{what}");
    assert_eq!(page.functions["LLVMFuzzerTestOneInput"], "part", "{what}");
    let mut marks = BTreeMap::new();
    for name in ["reset", "add", "LLVMFuzzerTestOneInput"] {
        let prefix = format!("{}-L", page.numbers[name]);
        for (id, (m, _)) in &page.lines {
            if let Some(n) = id.strip_prefix(&prefix) {
                assert!(
                    marks.insert(n.parse().unwrap(), m.clone()).is_none(),
                    "{id}"
                );
            }
        }
    }
    check_marks(what, &marks);
    // The links: from the header's to the first gap (a run of lines not
    // fully covered), then from each gap's first line to the next, round
    // all of them.
    let gap = |m: &Marked| m.mark == "none" || m.mark == "part";
    let mut starts: BTreeSet<&String> = BTreeSet::new();
    for name in ["reset", "add", "LLVMFuzzerTestOneInput"] {
        let prefix = format!("{}-L", page.numbers[name]);
        let mut lines: Vec<(u32, &String, &Marked)> = page
            .lines
            .iter()
            .filter_map(|(id, (m, _))| Some((id.strip_prefix(&prefix)?.parse().ok()?, id, m)))
            .collect();
        lines.sort_by_key(|l| l.0);
        let mut in_gap = false;
        for (_, id, m) in lines {
            if gap(m) && !in_gap {
                starts.insert(id);
            }
            in_gap = gap(m);
        }
    }
    let first_at = html
        .find("go to the first")
        .expect("a link to the first stop");
    let first = attr(&html[html[..first_at].rfind("<a ").unwrap()..], "href").unwrap();
    let mut seen = BTreeSet::new();
    let mut at = first[1..].to_string();
    while seen.insert(at.clone()) {
        let (m, next) = &page.lines[&at];
        assert!(gap(m), "{what}: {at} is {m:?}");
        at = next
            .clone()
            .unwrap_or_else(|| panic!("{what}: {at} has no next link"));
    }
    let seen: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(seen, starts, "{what}");
    // Only a gap's first line is a stop.
    assert!(page
        .lines
        .iter()
        .all(|(id, (_, next))| next.is_some() == starts.contains(id)));
}

/// The DOM of a page as headless Chromium renders it.
fn chromium_dom(page: &Path, scratch: &Path) -> String {
    let chromium = require_tool("chromium");
    let profile = scratch.join("chromium-profile");
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .env("HOME", scratch)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium --dump-dom did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let dom = reader.join().unwrap();
    assert!(
        out.status.success(),
        "chromium failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    dom
}

#[test]
fn cover_lines_marks_exactly_the_lines_no_seed_reaches() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_stuck.so");
    let seeds = seeds();
    let mut marks = BTreeMap::new();
    for func in ["reset", "add", "LLVMFuzzerTestOneInput"] {
        let r = run_in(d, "fuzz-corpus", &["cover", "-lines", func, &lib, &seeds]).expect(0);
        let (headers, m) = parse_lines(&r.out());
        assert_eq!(headers.len(), 1, "{}", r.out());
        assert!(
            headers[0].starts_with(&format!("{func} ")),
            "{}",
            headers[0]
        );
        assert!(!r.stderr.contains("warning"), "{}", r.stderr);
        marks.extend(m);
    }
    check_marks("-lines", &marks);
    // The source's own text follows each marker, byte for byte.
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-lines", "reset", &lib, &seeds],
    )
    .expect(0);
    let text = std::fs::read_to_string(stuck_c()).unwrap();
    let first = *unreached_lines().first().unwrap() as usize;
    let row = r.out().lines().nth(1).unwrap().to_string();
    assert!(row.ends_with(text.lines().nth(first - 1).unwrap()), "{row}");
    assert!(
        r.out()
            .lines()
            .next()
            .unwrap()
            .contains("0/1 blocks (0.0%), reached by 0 entries"),
        "{}",
        r.out()
    );
}

#[test]
fn cover_html_opens_each_function_to_its_marked_lines() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_stuck.so");
    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "page.html", &lib, &seeds()],
    )
    .expect(0);
    assert!(r.out().contains("LLVMFuzzerTestOneInput"), "{}", r.out());
    let html = std::fs::read_to_string(d.join("page.html")).unwrap();
    check_page("the page", &html);
    // The source is in the page, escaped.
    assert!(html.contains("if (data[1] == &#39;!&#39;)"), "{html}");
    for outside in ["http://", "https://", "<script", "<link", "src=", "@import"] {
        assert!(!html.contains(outside), "the page references {outside}");
    }
}

#[test]
fn cover_html_marks_survive_a_browser() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_stuck.so");
    run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "page.html", &lib, &seeds()],
    )
    .expect(0);
    let dom = chromium_dom(&d.join("page.html"), d);
    assert!(dom.contains("<details class=\"fn "), "{dom}");
    check_page("Chromium's DOM", &dom);
}

#[test]
fn cover_diff_shows_what_a_corpus_adds_and_loses_by_line() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_stuck.so");
    // Old: a doubling. New: the bang that reaches reset, an addition, and
    // no doubling.
    let old = bytes_corpus(d, "old", &[("double", "sx")])
        .display()
        .to_string();
    let new = bytes_corpus(d, "new", &[("bang", "r!"), ("add", "a12")])
        .display()
        .to_string();
    let r = run_in(d, "fuzz-corpus", &["cover", "-diff", &old, &lib, &new]).expect(0);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    let summary = lines.last().unwrap();
    assert!(
        summary.starts_with("blocks: ") && summary.contains("; functions: 1/3 -> 3/3"),
        "{out}"
    );
    let row = |sign: char, needle: &str| -> Option<usize> {
        lines
            .iter()
            .position(|l| l.starts_with(sign) && l.contains(needle))
    };
    // Gains: the functions reset and add, reached now, with their lines;
    // the call of reset, where its block starts.
    let reset = row('+', "+ reset ").expect(&out);
    assert!(lines[reset].contains(": 0/1 -> 1/1 blocks"), "{out}");
    assert!(row('+', "+ add ").is_some(), "{out}");
    let call = line_of("reset(data[0]);");
    let gained_call = row('+', "reset(data[0]);").expect(&out);
    assert!(
        lines[gained_call].starts_with(&format!("+ {call:>6} | ")),
        "{}",
        lines[gained_call]
    );
    // Losses: only the doubling's line, in LLVMFuzzerTestOneInput.
    let lost: Vec<&&str> = lines.iter().filter(|l| l.starts_with('-')).collect();
    assert_eq!(lost.len(), 2, "{out}");
    assert!(lost[0].starts_with("- LLVMFuzzerTestOneInput "), "{out}");
    assert!(
        lost[1].starts_with(&format!("- {:>6} | ", line_of("total = total * 2;"))),
        "{out}"
    );
    // Every gained or lost line is a line of the diff, and nothing else is.
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("+ ") || l.starts_with("- ")));
    assert!(r.stderr.contains("1 entry of -diff's"), "{}", r.stderr);

    // With -html too, the page holds the same diff: the totals, the
    // changed functions linked to their source, the changed lines marked.
    let page = d.join("diff.html");
    let page_s = page.to_str().unwrap();
    let args = ["cover", "-diff", &old, "-html", page_s, &lib, &new];
    let r2 = run_in(d, "fuzz-corpus", &args).expect(0);
    assert_eq!(r2.out(), out, "the text diff is the same with -html");
    let html = std::fs::read_to_string(&page).unwrap();
    let section = &html[html.find("<section class=\"diff\">").expect(&html)..];
    let section = &section[..section.find("</section>").unwrap()];
    // The text's totals, "(+G -L)", are the page's.
    let counts = &summary[summary.find("(+").unwrap() + 2..summary.find(')').unwrap()];
    let (gained, lost) = counts.split_once(" -").unwrap();
    let totals = format!("+{gained} gained, &minus;{lost} lost");
    assert!(section.contains(&totals), "{totals}: {section}");
    let parsed = parse_page(&html);
    for (name, change) in [
        ("reset", "+1 "),
        ("add", "+"),
        ("LLVMFuzzerTestOneInput", "+"),
    ] {
        let link = format!("<a href=\"#{}\">{name}</a>", parsed.numbers[name]);
        let row = section.lines().find(|l| l.contains(&link)).expect(section);
        assert!(
            row.contains(&format!("<td class=\"chg\">{change}")),
            "{row}"
        );
    }
    let own = section
        .lines()
        .find(|l| l.contains("LLVMFuzzerTestOneInput"))
        .unwrap();
    assert!(own.contains("&minus;1</td>"), "{own}");
    let f = &parsed.numbers["LLVMFuzzerTestOneInput"];
    let marked = |n: u32| {
        let id = format!("<tr id=\"{f}-L{n}\"");
        let row = &html[html.find(&id).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        row.find("<span class=\"chg\">")
            .map(|k| row[k + 18..].chars().next().unwrap())
    };
    assert_eq!(marked(call), Some('+'));
    assert_eq!(marked(line_of("total = total * 2;")), Some('&'));
    assert_eq!(marked(line_of("switch (data[0]) {")), None);

    // The same corpus on both sides: no difference, the totals alone.
    let r = run_in(d, "fuzz-corpus", &["cover", "-diff", &new, &lib, &new]).expect(0);
    let out = r.out();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("(+0 -0)"), "{out}");
}

#[test]
fn cover_without_the_source_keeps_the_block_addresses() {
    let dir = tempdir();
    let d = dir.path();
    // Built from a copy of stuck.c that is then removed.
    let src = d.join("gone.c");
    std::fs::copy(stuck_c(), &src).unwrap();
    let lib = d.join("libgone.so");
    let status = Command::new(require_tool("clang-19"))
        .args(["-g", "-O1", "-fPIC", "-shared"])
        .arg("-fsanitize-coverage=inline-8bit-counters,pc-table")
        .arg(&src)
        .arg("-o")
        .arg(&lib)
        .stdin(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::remove_file(&src).unwrap();
    let lib = lib.to_str().unwrap();
    let seeds = seeds();
    let r = run_in(d, "fuzz-corpus", &["cover", "-lines", "reset", lib, &seeds]).expect(0);
    let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{}", r.stderr);
    assert!(
        warnings[0].contains("gone.c is not on this machine"),
        "{}",
        r.stderr
    );
    // reset's entry block is the function itself: its line shows the
    // address of the symbol.
    let data = std::fs::read(lib).unwrap();
    let file = object::File::parse(&*data).unwrap();
    use object::{Object, ObjectSymbol};
    let addr = file
        .symbols()
        .find(|s| s.name() == Ok("reset"))
        .expect("reset in .symtab")
        .address();
    let out = r.out();
    let first = *unreached_lines().first().unwrap();
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("{first} ! 0 | "))
                && l.ends_with(&format!("0x{addr:x}"))),
        "{out}"
    );

    run_in(
        d,
        "fuzz-corpus",
        &["cover", "-html", "page.html", lib, &seeds],
    )
    .expect(0);
    let html = std::fs::read_to_string(d.join("page.html")).unwrap();
    assert!(html.contains("gone.c is not on this machine"), "{html}");
    assert!(
        html.contains(&format!("<span class=\"addr\">0x{addr:x}</span>")),
        "{html}"
    );
}

#[test]
fn cover_lines_and_diff_refuse_bad_input_and_change_nothing() {
    let dir = tempdir();
    let d = dir.path();
    let lib = example_lib("libc_stuck.so");
    let new = bytes_corpus(d, "new", &[("add", "a12")])
        .display()
        .to_string();
    let bad = bytes_corpus(d, "bad", &[("ok", "sx")])
        .display()
        .to_string();
    std::fs::write(
        Path::new(&bad).join("zz-broken"),
        "go test fuzz v1\n[]byte(\n",
    )
    .unwrap();
    let before = snapshot(d);
    let cases: [(&[&str], &str); 6] = [
        (&["-lines", "nope"], "-lines nope"),
        (&["-lines", ""], "-lines"),
        (&["-diff", "nowhere"], "-diff nowhere"),
        (&["-diff", &bad], "zz-broken"),
        (&["-lines", "add", "-diff", &new], "-diff"),
        (&["-lines", "add", "-html", "-"], "-html -"),
    ];
    for (flags, needle) in cases {
        let mut args = vec!["cover", "-html", "page.html"];
        if flags.contains(&"-html") {
            args.truncate(1);
        }
        args.extend_from_slice(flags);
        args.extend([lib.as_str(), new.as_str()]);
        let r = run_in(d, "fuzz-corpus", &args).expect(2);
        r.one_line_error("fuzz-corpus", needle);
        if flags[0] == "-diff" && needle == "zz-broken" {
            assert!(r.stderr.contains("-diff"), "{}", r.stderr);
        }
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.out());
        assert_eq!(snapshot(d), before, "{args:?} changed something");
    }
}

/// The cache id of a library, as fuzz-run names its generated corpus:
/// `<stem>-<first 16 hex digits of sha256(canonical path)>`.
fn library_id(lib: &Path) -> String {
    use sha2::Digest;
    let canon = std::fs::canonicalize(lib).unwrap();
    let digest = hex::encode(sha2::Sha256::digest(canon.as_os_str().as_encoded_bytes()));
    let stem = lib.file_name().unwrap().to_str().unwrap();
    let stem = stem.trim_end_matches(".so").trim_start_matches("lib");
    format!("{stem}-{}", &digest[..16])
}

#[test]
fn cover_replays_the_generated_corpus_beside_the_seeds_and_skips_stray_files() {
    let dir = tempdir();
    let d = dir.path();
    let lib = d.join("libc_stuck.so");
    std::fs::copy(example_lib("libc_stuck.so"), &lib).unwrap();
    let seeds = d.join("testdata/fuzz/c_stuck");
    std::fs::create_dir_all(&seeds).unwrap();
    for e in std::fs::read_dir(seeds_dir()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), seeds.join(e.file_name())).unwrap();
    }
    // A folder's README and .gitkeep are not entries: warned of, skipped.
    std::fs::write(seeds.join("README.md"), "# seeds for c_stuck\n").unwrap();
    std::fs::write(seeds.join(".gitkeep"), "").unwrap();
    // The generated corpus holds the input no seed has.
    let generated = d
        .join("home/.cache/fuzz")
        .join(library_id(&lib))
        .join("c_stuck");
    std::fs::create_dir_all(&generated).unwrap();
    std::fs::write(generated.join("bang"), "go test fuzz v1\n[]byte(\"r!\")\n").unwrap();
    let before = snapshot(d);
    let (lib_s, seeds_s) = (lib.to_str().unwrap(), seeds.to_str().unwrap());

    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-lines", "reset", lib_s, seeds_s],
    )
    .expect(0);
    for stray in ["README.md", ".gitkeep"] {
        assert!(
            r.stderr
                .lines()
                .any(|l| l.contains("warning: skipped") && l.contains(stray)),
            "{}",
            r.stderr
        );
    }
    assert!(
        r.stderr.contains("also replaying the generated corpus")
            && r.stderr.contains("-seeds_only"),
        "{}",
        r.stderr
    );
    let (_, marks) = parse_lines(&r.out());
    assert!(
        marks
            .values()
            .all(|m| m.mark == "full" && m.entries == Some(1)),
        "{}",
        r.out()
    );

    let r = run_in(
        d,
        "fuzz-corpus",
        &["cover", "-seeds_only", "-lines", "reset", lib_s, seeds_s],
    )
    .expect(0);
    assert!(!r.stderr.contains("generated corpus"), "{}", r.stderr);
    let (_, marks) = parse_lines(&r.out());
    assert!(marks.values().all(|m| m.mark == "none"), "{}", r.out());

    // An empty folder is said, not a silent 0 %.
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let r = run_in(d, "fuzz-corpus", &["cover", lib_s, empty.to_str().unwrap()]).expect(0);
    assert!(
        r.stderr.contains("no corpus entries in") && r.stderr.contains("empty"),
        "{}",
        r.stderr
    );
    std::fs::remove_dir(&empty).unwrap();
    // A stray file named as an operand is still an error.
    let readme = seeds.join("README.md");
    run_in(
        d,
        "fuzz-corpus",
        &["cover", lib_s, readme.to_str().unwrap()],
    )
    .expect(2)
    .one_line_error("fuzz-corpus", "README.md");
    assert_eq!(snapshot(d), before, "cover changed a file");
}
