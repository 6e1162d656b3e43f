//! Man pages, rendered from the same clap definitions the binaries parse,
//! with hand-written sections (EXIT STATUS, FILES, ENVIRONMENT, EXAMPLES, …)
//! appended. `tests/e2e/man_pages.rs` fails when a page in `man/` is stale.

use clap::Command;
use clap_mangen::Man;

/// Hand-written sections of a tool's page, in order: a title and a body in
/// a small markup (see [`to_roff`]).
pub struct Extra {
    pub sections: &'static [(&'static str, &'static str)],
}

/// The exit status section every page shares.
pub const EXIT_STATUS: &str = "\
0 :: Success: nothing was found and the job is done (a Ctrl-C that saved no crasher, too).

1 :: A finding: a crasher written, a failing or malformed corpus entry, an input that fails.

2 :: Misuse: a bad flag or value, no target matched (or several, where one is needed), an operand
that cannot be read or parsed, a library that cannot be loaded.

Every error is one line on standard error, \"tool: what is wrong\", naming the file, line or flag.
A broken pipe on standard output exits 0.";

/// Renders the page of one tool.
pub fn render(name: &str, cmd: Command, extra: &Extra) -> String {
    let mut cmd = cmd.name(name.to_string()).bin_name(name.to_string());
    cmd.build();
    let longs = crate::argv::long_names(&cmd);
    let man = Man::new(cmd.clone()).date("");
    let mut buf: Vec<u8> = Vec::new();
    man.render_title(&mut buf).unwrap();
    man.render_name_section(&mut buf).unwrap();
    man.render_synopsis_section(&mut buf).unwrap();
    man.render_description_section(&mut buf).unwrap();
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut buf).unwrap();
    }
    let mut page = String::from_utf8(buf).expect("clap_mangen writes UTF-8");
    let subs: Vec<&Command> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    if !subs.is_empty() {
        page.push_str(".SH COMMANDS\n");
        for sub in subs {
            let full = format!("{name} {}", sub.get_name());
            let sub = sub.clone().name(full.clone()).bin_name(full.clone());
            let man = Man::new(sub.clone());
            let mut b = Vec::new();
            man.render_synopsis_section(&mut b).unwrap();
            let synopsis = String::from_utf8(b).unwrap();
            // Turn the sub-page's SYNOPSIS heading into a subsection.
            let synopsis = synopsis.replacen(".SH SYNOPSIS\n", &format!(".SS \"{full}\"\n"), 1);
            page.push_str(&synopsis);
            if let Some(about) = sub.get_long_about().or(sub.get_about()) {
                page.push_str(&text_to_roff(&about.to_string()));
            }
            let mut b = Vec::new();
            if sub.get_arguments().any(|a| !a.is_hide_set()) {
                man.render_options_section(&mut b).unwrap();
                let opts = String::from_utf8(b).unwrap();
                page.push_str(&opts.replacen(".SH OPTIONS\n", ".PP\nOptions:\n", 1));
            }
        }
    }
    for (title, body) in extra.sections {
        page.push_str(&format!(".SH \"{title}\"\n"));
        page.push_str(&to_roff(body));
    }
    page.push_str(&format!(
        ".SH VERSION\nv{}\n.SH \"SEE ALSO\"\n{}\n",
        env!("CARGO_PKG_VERSION"),
        crate::tools()
            .iter()
            .map(|(n, _, _)| *n)
            .filter(|n| *n != name)
            .map(|n| format!("\\fB{}\\fR(1)", escape(n)))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    ascii_roff(&crate::argv::go_style(&page, &longs, "\\-"))
}

/// Writes every non-ASCII character as a roff `\[uXXXX]` escape, so the page
/// renders the same whatever encoding groff assumes.
fn ascii_roff(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    for c in page.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", c as u32));
        }
    }
    out
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            '\'' => out.push_str("\\(aq"),
            '`' => out.push_str("\\(ga"),
            _ => out.push(c),
        }
    }
    if out.starts_with('.') {
        out.insert_str(0, "\\&");
    }
    out
}

fn text_to_roff(text: &str) -> String {
    let mut out = String::new();
    for para in text.split("\n\n") {
        out.push_str(".PP\n");
        out.push_str(&escape(para.trim()));
        out.push('\n');
    }
    out
}

/// Turns the small markup of [`Extra`] bodies into roff. Paragraphs are
/// separated by blank lines; a paragraph `term :: text` is a tagged
/// paragraph; a paragraph whose lines all start with four spaces is shown
/// verbatim (examples); `*` starts a bullet. The lines of a paragraph, or of
/// a tagged paragraph's text, are joined with single spaces, so the source
/// wraps them freely; a term is taken as written, so a long one continues
/// its line with a `\` in the string.
pub fn to_roff(body: &str) -> String {
    let mut out = String::new();
    for para in body.split("\n\n") {
        if para.trim().is_empty() {
            continue;
        }
        if para.lines().all(|l| l.starts_with("    ") || l.is_empty()) {
            out.push_str(".PP\n.RS 4\n.nf\n");
            for line in para.lines() {
                out.push_str(&escape(line.strip_prefix("    ").unwrap_or(line)));
                out.push('\n');
            }
            out.push_str(".fi\n.RE\n");
        } else if let Some((term, text)) = para.split_once(" :: ") {
            out.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                escape(term.trim()),
                escape(&text.split_whitespace().collect::<Vec<_>>().join(" "))
            ));
        } else if let Some(item) = para.strip_prefix("* ") {
            out.push_str(&format!(
                ".IP \\(bu 2\n{}\n",
                escape(&item.split_whitespace().collect::<Vec<_>>().join(" "))
            ));
        } else {
            out.push_str(&format!(
                ".PP\n{}\n",
                escape(&para.split_whitespace().collect::<Vec<_>>().join(" "))
            ));
        }
    }
    out
}
