//! The pages in man/ are exactly what the clap definitions render, and they
//! read well: groff finds nothing to warn about, and `man -l` shows the
//! flags as people type them. The definitions themselves stay reviewable:
//! no source line of theirs is wider than rustfmt's 100 columns.

use crate::common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// The tools, by binary name, with their clap command and man page extras,
/// in `fuzz_cli::TOOLS`'s order (each page's SEE ALSO).
fn tools() -> Vec<(&'static str, clap::Command, &'static fuzz_cli::man::Extra)> {
    use clap::CommandFactory;
    let tools = vec![
        (
            "fuzz-run",
            fuzz_run::cli::Cli::command(),
            &fuzz_run::cli::MAN,
        ),
        (
            "fuzz-worker",
            fuzz_worker::cli::Cli::command(),
            &fuzz_worker::cli::MAN,
        ),
        (
            "fuzz-minimize",
            fuzz_minimize::cli::Cli::command(),
            &fuzz_minimize::cli::MAN,
        ),
        (
            "fuzz-convert",
            fuzz_convert::cli::Cli::command(),
            &fuzz_convert::cli::MAN,
        ),
        (
            "fuzz-corpus",
            fuzz_corpus::cli::Cli::command(),
            &fuzz_corpus::cli::MAN,
        ),
        (
            "fuzz-clean",
            fuzz_clean::cli::Cli::command(),
            &fuzz_clean::cli::MAN,
        ),
        (
            "fuzz-build",
            fuzz_build::cli::Cli::command(),
            &fuzz_build::cli::MAN,
        ),
    ];
    let names: Vec<&str> = tools.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(
        names,
        fuzz_cli::TOOLS,
        "a tool without its man page, or a page without its tool"
    );
    tools
}

fn page_path(tool: &str) -> std::path::PathBuf {
    root().join("man").join(format!("{tool}.1"))
}

#[test]
fn man_pages_are_fresh() {
    let update = std::env::var_os("UPDATE_MAN").is_some();
    let mut stale = Vec::new();
    for (name, cmd, extra) in tools() {
        let page = fuzz_cli::man::render(name, cmd, extra);
        let path = page_path(name);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != page {
            if update {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &page).unwrap();
            } else {
                stale.push(name);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "man pages out of date: {stale:?}; regenerate them with \
         `UPDATE_MAN=1 cargo test --test e2e man_pages` and commit man/"
    );
}

#[test]
fn man_pages_read_well() {
    require_tool("groff");
    require_tool("man");
    for tool in TOOLS {
        let path = page_path(tool);
        let out = Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&path)
            .output()
            .unwrap();
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && warnings.trim().is_empty(),
            "{}: groff warns:\n{warnings}",
            path.display()
        );
        let out = Command::new("man")
            .arg("-l")
            .arg(&path)
            .env("MANWIDTH", "80")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .output()
            .unwrap();
        assert!(out.status.success(), "man -l {} failed", path.display());
        let text = String::from_utf8_lossy(&out.stdout);
        // Strip overstrike formatting if the pager left any.
        let text: String = text
            .split('\u{8}')
            .enumerate()
            .map(|(i, s)| {
                if i == 0 {
                    s
                } else {
                    &s[s.char_indices().nth(1).map_or(s.len(), |(j, _)| j)..]
                }
            })
            .collect();
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES"] {
            assert!(text.contains(section), "{tool}(1) lacks {section}:\n{text}");
        }
        assert!(
            !text.contains("--help") && text.contains("-help"),
            "{tool}(1) should spell flags as -name:\n{text}"
        );
    }
}

#[test]
fn convert_page_documents_the_v1_format() {
    let page = std::fs::read_to_string(page_path("fuzz-convert")).unwrap();
    for needle in [
        "go test fuzz v1",
        "Float64frombits",
        "Unicode 13",
        "custom(",
        "SHA",
    ] {
        assert!(
            page.contains(needle),
            "fuzz-convert(1) should mention {needle}"
        );
    }
}

/// rustfmt keeps code within 100 columns but never breaks a string literal
/// or a doc comment (its `error_on_line_overflow` and `format_strings` are
/// nightly-only), and flag help is exactly that: without this check it grows
/// into lines of thousands of characters that no diff can review. Wrap help
/// with more `///` lines (clap joins a paragraph's lines with a space), a
/// `\` line continuation in a string (keep the space before the `\`), or,
/// in a man page's hand-written sections, plain newlines inside a paragraph
/// (`man::to_roff` joins them); `man_pages_are_fresh` shows that the output
/// did not change.
#[test]
fn help_sources_fit_100_columns() {
    const WIDTH: usize = 100;
    let mut files: Vec<_> = TOOLS
        .iter()
        .map(|tool| root().join(tool).join("src/cli.rs"))
        .collect();
    for entry in std::fs::read_dir(root().join("cli/src")).unwrap() {
        files.push(entry.unwrap().path());
    }
    let mut wide = Vec::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let width = line.chars().count();
            if width > WIDTH {
                let rel = path.strip_prefix(root()).unwrap_or(path);
                wide.push(format!("{}:{}: {width} columns", rel.display(), i + 1));
            }
        }
    }
    assert!(
        wide.is_empty(),
        "help source lines wider than {WIDTH} columns:\n{}",
        wide.join("\n")
    );
}

/// A roff line as text: fonts dropped, escapes resolved.
fn plain(roff: &str) -> String {
    let mut s = roff.to_string();
    for (from, to) in [
        ("\\fB", ""),
        ("\\fI", ""),
        ("\\fR", ""),
        ("\\fP", ""),
        ("\\&", ""),
        ("\\-", "-"),
        ("\\(aq", "'"),
        ("\\*(Aq", "'"),
        ("\\(ga", "`"),
        ("\\e", "\\"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// Every (sub)command of every tool with the name people type for it
/// (`fuzz-corpus merge`), built, so that -help and -version are there.
fn commands() -> Vec<(String, clap::Command)> {
    let mut out = Vec::new();
    for (name, cmd, _) in tools() {
        let mut cmd = cmd.name(name).bin_name(name);
        cmd.build();
        for sub in cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        {
            out.push((format!("{name} {}", sub.get_name()), sub.clone()));
        }
        out.push((name.to_string(), cmd));
    }
    out
}

/// issue 22: SYNOPSIS lines showed `[-fuzz] [-run]` as if the flags took
/// no value, operands as `<LIB.so>`, and `--sanitizer-runtime`.
#[test]
fn synopsis_lines_show_each_flag_with_its_value() {
    for (full, cmd) in commands() {
        let tool = full.split(' ').next().unwrap();
        let page = std::fs::read_to_string(page_path(tool)).unwrap();
        let heading = if full == tool {
            ".SH SYNOPSIS".to_string()
        } else {
            format!(".SS \"{full}\"")
        };
        let mut lines = page.lines().skip_while(|l| *l != heading);
        assert!(lines.next().is_some(), "{tool}(1) has no {heading}");
        let line = plain(lines.next().unwrap());
        assert!(line.starts_with(&format!("{full} ")), "{line}");
        for bad in ["<", ">", "--"] {
            assert!(
                !line.contains(bad),
                "{bad:?} in the SYNOPSIS of {full}: {line}"
            );
        }
        let words = format!(" {} ", &line[full.len()..]);
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let value = || {
                arg.get_value_names()
                    .map(|v| v.join(" "))
                    .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
            };
            let want = match (arg.get_long(), arg.get_short()) {
                (Some(long), Some(short)) => format!("-{short}|-{long}"),
                (Some(long), None) if arg.get_action().takes_values() => {
                    format!("-{long} {}", value())
                }
                (Some(long), None) => format!("-{long}"),
                _ => value(),
            };
            let want = if arg.is_required_set() {
                format!(" {want}")
            } else {
                format!(" [{want}]")
            };
            assert!(
                words.contains(&format!("{want} ")) || words.contains(&format!("{want}... ")),
                "the SYNOPSIS of {full} lacks {want:?}: {line}"
            );
        }
    }
}

/// The long flags of a command, as defined.
fn longs(cmd: &clap::Command) -> BTreeSet<String> {
    cmd.get_arguments()
        .filter_map(|a| a.get_long())
        .map(str::to_string)
        .collect()
}

/// Code in a README: fenced or indented lines, and inline `spans`.
fn code_of_markdown(text: &str) -> Vec<String> {
    let mut code = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if fenced || line.starts_with("    ") {
            code.push(line.to_string());
        } else {
            code.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    code
}

/// The verbatim blocks (examples) and SYNOPSIS lines of a man page.
fn code_of_page(page: &str) -> Vec<String> {
    let mut code = Vec::new();
    let mut verbatim = false;
    let mut lines = page.lines().peekable();
    while let Some(line) = lines.next() {
        match line {
            ".nf" => verbatim = true,
            ".fi" => verbatim = false,
            _ if line == ".SH SYNOPSIS" || line.starts_with(".SS ") => {
                code.extend(lines.peek().map(|l| plain(l)));
            }
            _ if verbatim => code.push(plain(line)),
            _ => {}
        }
    }
    code
}

/// Each flag a command line of one of our tools uses in `code`, checked
/// against that tool's (or subcommand's) clap definition: known, and
/// spelled as defined, `-name`. Returns what is wrong.
fn check_command_lines(code: &[String], cmds: &[(String, clap::Command)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for line in code {
        for tool in TOOLS {
            for (at, _) in line.match_indices(&format!("{tool} ")) {
                // A command starts the line, or follows a pipe or a prompt.
                let before = line[..at].trim_end();
                if !(before.is_empty() || before.ends_with(['|', '$', '('])) {
                    continue;
                }
                let words: Vec<&str> = line[at + tool.len()..]
                    .split_whitespace()
                    .take_while(|w| !["|", ">", "<", ";", "&&", "2>"].contains(w))
                    .take_while(|w| !w.starts_with('#'))
                    .collect();
                let sub = words
                    .iter()
                    .find(|w| !w.starts_with('-'))
                    .map(|w| format!("{tool} {w}"))
                    .filter(|full| cmds.iter().any(|(n, _)| n == full));
                let known: BTreeSet<String> = cmds
                    .iter()
                    .filter(|(n, _)| match &sub {
                        Some(full) => n == full || n == tool,
                        None => n == tool || n.starts_with(&format!("{tool} ")),
                    })
                    .flat_map(|(_, c)| longs(c))
                    .collect();
                for w in words.iter().flat_map(|w| w.split('|')) {
                    let w = w.trim_matches(|c| "[]().,;:'\"".contains(c));
                    let Some(name) = w.strip_prefix('-') else {
                        continue;
                    };
                    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '-') {
                        continue;
                    }
                    let name = name.split('=').next().unwrap();
                    if !known.contains(name) && !["h", "V"].contains(&name) {
                        wrong.push(format!("{w} is not a flag of {tool}: {line}"));
                    }
                }
            }
        }
    }
    wrong
}

/// issue 22: `--sanitizer-runtime` in fuzz-worker(1), `-sanitizer-runtime`
/// in its help. Every flag in the man pages, every -help, README.md,
/// ARCHITECTURE.md and examples/README.md is spelled `-name` as clap defines it, and every
/// command line shown uses flags its tool has.
#[test]
fn every_flag_is_spelled_as_defined_everywhere() {
    let cmds = commands();
    let all: BTreeSet<String> = cmds.iter().flat_map(|(_, c)| longs(c)).collect();
    let mut texts: Vec<(String, String)> = Vec::new();
    for tool in TOOLS {
        let page = std::fs::read_to_string(page_path(tool)).unwrap();
        texts.push((format!("{tool}(1)"), plain(&page)));
    }
    let dir = tempdir();
    for (full, _) in &cmds {
        let mut args: Vec<&str> = full.split(' ').collect();
        let tool = args.remove(0);
        args.push("-help");
        let r = run_in(dir.path(), tool, &args).expect(0);
        texts.push((format!("{full} -help"), r.out()));
    }
    // README.md shows that GNU spelling works too: that paragraph only.
    // (examples/README.md shows cargo's --target: only its command lines
    // of our tools are checked, below.)
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let readme: Vec<&str> = readme
        .split("\n\n")
        .filter(|p| !p.contains("every spelling"))
        .collect();
    texts.push(("README.md".to_string(), readme.join("\n\n")));
    let design = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    texts.push(("ARCHITECTURE.md".to_string(), design));
    let mut wrong = Vec::new();
    for (what, text) in &texts {
        for long in &all {
            for (at, _) in text.match_indices(&format!("--{long}")) {
                let next = text[at + 2 + long.len()..].chars().next();
                if !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                    wrong.push(format!("{what}: --{long}"));
                }
            }
        }
    }
    for tool in TOOLS {
        let page = std::fs::read_to_string(page_path(tool)).unwrap();
        for w in check_command_lines(&code_of_page(&page), &cmds) {
            wrong.push(format!("{tool}(1): {w}"));
        }
    }
    for doc in ["README.md", "ARCHITECTURE.md", "examples/README.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for w in check_command_lines(&code_of_markdown(&text), &cmds) {
            wrong.push(format!("{doc}: {w}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "flags spelled otherwise than defined:\n{}",
        wrong.join("\n")
    );
}

/// issue 22: the EXIT STATUS of tools that never write crashers spoke of
/// crashers, and fuzz-run(1) sent readers to fuzz-run(1).
#[test]
fn pages_speak_of_their_own_tool() {
    for tool in TOOLS {
        let page = plain(&std::fs::read_to_string(page_path(tool)).unwrap());
        let exit = page
            .split(".SH \"EXIT STATUS\"")
            .nth(1)
            .and_then(|s| s.split("\n.SH ").next())
            .unwrap_or_else(|| panic!("{tool}(1) has no EXIT STATUS"));
        if tool != "fuzz-run" {
            assert!(!exit.contains("crasher"), "{tool}(1) EXIT STATUS:\n{exit}");
        }
        let body = page.split(".SH \"SEE ALSO\"").next().unwrap();
        assert!(
            !body.contains(&format!("{tool}(1)")),
            "{tool}(1) refers to itself"
        );
    }
}

/// The targets examples/README.md lists for each library: its table of
/// libraries (a row without a library continues the one above; a `_fixed`
/// variant shares its library's row) and the tables of targets of the
/// libraries that have one (after a paragraph that starts with the
/// library's name: "`libmisbehave.so` holds …").
fn readme_targets(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let spans = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(|s| s.split('(').next().unwrap().trim().to_string())
            .collect()
    };
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut table = "";
    let mut libs: Vec<String> = Vec::new();
    let mut described = String::new();
    for line in text.lines() {
        if !line.starts_with('|') {
            table = "";
            if let Some(lib) = spans(line).first().filter(|_| line.starts_with("`lib")) {
                described = lib.clone();
            }
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells[1].starts_with("library (+") {
            table = "libraries";
            continue;
        }
        if cells[1] == "target" && cells[2] == "behaviour" {
            table = "targets";
            continue;
        }
        if cells[1].starts_with("---") {
            continue;
        }
        match table {
            "libraries" => {
                let named: Vec<String> = spans(cells[1])
                    .into_iter()
                    .filter(|s| s.ends_with(".so"))
                    .collect();
                if !named.is_empty() {
                    libs = named;
                }
                // Not the libFuzzer symbols a target is said to have.
                let targets: Vec<String> = spans(cells[3])
                    .into_iter()
                    .filter(|t| !t.starts_with("LLVMFuzzer"))
                    .collect();
                for (i, lib) in libs.iter().enumerate() {
                    let lib = out.entry(lib.clone()).or_default();
                    // `liba.so`, `libb.so` | `a`, `b`: one target each.
                    if libs.len() > 1 && targets.len() == libs.len() {
                        lib.insert(targets[i].clone());
                    } else {
                        lib.extend(targets.iter().cloned());
                    }
                }
            }
            "targets" => {
                let lib = out.entry(described.clone()).or_default();
                lib.extend(spans(cells[1]).into_iter().take(1));
            }
            _ => {}
        }
    }
    out
}

/// issue 22: the examples README's table missed three targets that
/// `fuzz-worker list` shows. Every library examples/build.sh builds is in
/// it, with exactly the targets the worker lists (a `_fixed` variant's
/// libFuzzer target is its library's name, `…_fixed`).
#[test]
fn examples_readme_lists_every_target_of_every_library() {
    let text = std::fs::read_to_string(root().join("examples/README.md")).unwrap();
    let readme = readme_targets(&text);
    let dir = tempdir();
    let mut wrong = Vec::new();
    for lib in EXAMPLE_LIBRARIES.iter().chain(&crate::custom::LIBRARIES) {
        let r = run_in(dir.path(), "fuzz-worker", &["list", &example_lib(lib)]).expect(0);
        let base = lib.replace("_fixed.so", ".so");
        let listed: BTreeSet<String> = r
            .out()
            .lines()
            .map(|l| l.split('\t').next().unwrap())
            .map(|t| match lib.ends_with("_fixed.so") {
                true => t.strip_suffix("_fixed").unwrap_or(t).to_string(),
                false => t.to_string(),
            })
            .collect();
        match readme.get(&base) {
            None => wrong.push(format!("{lib}: not in the table")),
            Some(said) if *said != listed => wrong.push(format!(
                "{lib}: the README lists {said:?}, fuzz-worker list {listed:?}"
            )),
            Some(_) => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "examples/README.md:\n{}",
        wrong.join("\n")
    );
}
