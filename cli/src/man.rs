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

/// An EXIT STATUS section: a tool's own codes (in the markup of
/// [`to_roff`]), then what every tool shares.
#[macro_export]
macro_rules! exit_status {
    ($codes:literal) => {
        concat!(
            $codes,
            "\n\n",
            "128+N :: A job with a fixed amount of work (a replay, a run, a merge, a report) \
             stopped by signal N before it was done: 130 for Ctrl-C, 143 for SIGTERM, as a shell \
             reports a killed command; what was done is kept, and one line says how far it got. \
             Fuzzing and minimizing are stopped that way, and exit as above.\n\n\
             Every error is one line on standard error, \"tool: what is wrong\", naming the file, \
             line or flag. A closed standard output (a pipe into head) ends only the printing: \
             the work is done whole, and the exit status is its verdict on the whole input."
        )
    };
}
pub use crate::exit_status;

/// What a limit of 0 means, one entry per flag, for the LIMITS sections
/// of the tools that take them (`concat!` them).
#[macro_export]
macro_rules! limit {
    (timeout) => {
        "-timeout D :: How long one input may run before it counts as a hang (default 10s; Go's
durations: 300ms, 1m30s). 0 is no limit."
    };
    (rss) => {
        "-rss_limit_mb MB :: The resident memory a process running inputs may reach before it
counts as out of memory (default 2048). 0 is no limit."
    };
    (fuzztime) => {
        "-fuzztime D|Nx :: How long to fuzz: a duration, or a count of executions (1000x). Not
given, or 0: until stopped (Ctrl-C, SIGTERM). 0x is refused: a count is positive."
    };
    (minimizetime) => {
        "-fuzzminimizetime D|Nx :: How long minimizing one input may take (default 60s), or how many
executions. 0 (or 0x) is no minimizing: the input is kept as found."
    };
    (max_len) => {
        "-max_len N :: The largest []byte or string argument the mutator makes (default 4096). 0 is
refused: no input would fit. Seeds and cached entries larger than it still run."
    };
}
pub use crate::limit;

/// The exit status of a tool that runs inputs and writes no crasher
/// (fuzz-worker); the others have their own.
pub const EXIT_STATUS: &str = exit_status!(
    "0 :: Success: every input passed, or the job is done.

1 :: A finding: an input that fails, crashes, hangs or runs out of memory.

2 :: Misuse: a bad flag or value, no such target (or several, where one is needed), an operand that
cannot be read or parsed, a library that cannot be loaded."
);

/// Renders the page of one tool.
pub fn render(name: &str, cmd: Command, extra: &Extra) -> String {
    let mut cmd = cmd.name(name.to_string()).bin_name(name.to_string());
    cmd.build();
    let longs = crate::argv::long_names(&cmd);
    let man = Man::new(cmd.clone()).date("");
    let mut buf: Vec<u8> = Vec::new();
    man.render_title(&mut buf).unwrap();
    man.render_name_section(&mut buf).unwrap();
    buf.extend(format!(".SH SYNOPSIS\n{}", synopsis(&cmd, name)).bytes());
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
            page.push_str(&format!(".SS \"{full}\"\n{}", synopsis(&sub, &full)));
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
        crate::TOOLS
            .iter()
            .filter(|n| **n != name)
            .map(|n| format!("\\fB{}\\fR(1)", escape(n)))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    // The page is fuzz-run(1): "see OUTPUT below", not "in fuzz-run(1)".
    let page = page.replace(&format!(" in {}(1)", escape(name)), " below");
    ascii_roff(&crate::argv::go_style(&page, &longs, "\\-"))
}

/// The SYNOPSIS line of a command, as people type it: every flag spelled
/// `-name` with its value (`[-fuzz REGEXP]`), a required one without
/// brackets, operands by their names (`LIB.so`, `[INPUT]...`), and
/// `COMMAND` where a subcommand is expected. clap_mangen's own shows flags
/// without their values and operands as `<LIB.so>`.
pub fn synopsis(cmd: &Command, name: &str) -> String {
    let mut words = vec![format!("\\fB{}\\fR", escape(name))];
    let value = |arg: &clap::Arg| {
        let names = arg
            .get_value_names()
            .map(|v| {
                v.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
        format!("\\fI{}\\fR", escape(&names))
    };
    for arg in cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
    {
        let Some(long) = arg.get_long() else { continue };
        let mut word = match arg.get_short() {
            Some(short) => format!("\\fB\\-{short}\\fR|\\fB\\-{}\\fR", escape(long)),
            None => format!("\\fB\\-{}\\fR", escape(long)),
        };
        if arg.get_action().takes_values() {
            word = format!("{word} {}", value(arg));
        }
        words.push(if arg.is_required_set() {
            word
        } else {
            format!("[{word}]")
        });
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let word = if arg.is_required_set() {
            value(arg)
        } else {
            format!("[{}]", value(arg))
        };
        // GNU's spelling: FILE... and [FILE]...
        words.push(if many { format!("{word}...") } else { word });
    }
    if cmd.has_subcommands() {
        words.push("\\fICOMMAND\\fR".to_string());
    }
    format!("{}\n", words.join(" "))
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
