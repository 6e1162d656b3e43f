//! The pages in man/ are exactly what the clap definitions render, and they
//! read well: groff finds nothing to warn about, and `man -l` shows the
//! flags as people type them. The definitions themselves stay reviewable:
//! no source line of theirs is wider than rustfmt's 100 columns.

use crate::common::*;
use std::process::Command;

fn page_path(tool: &str) -> std::path::PathBuf {
    root().join("man").join(format!("{tool}.1"))
}

#[test]
fn man_pages_are_fresh() {
    let update = std::env::var_os("UPDATE_MAN").is_some();
    let mut stale = Vec::new();
    for (name, cmd, extra) in fuzz_cli::tools() {
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
        .map(|tool| root().join(tool).join("cli.rs"))
        .collect();
    for entry in std::fs::read_dir(root().join("cli")).unwrap() {
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
