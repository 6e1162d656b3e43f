//! The command that replays one failing entry, as both modes print it
//! ("To re-run:" after a failure, `rerun` in -json events): the same
//! library, testdata directory and limits, `-run Target/NAME`, every word
//! shell-quoted, so that pasting it into a shell reproduces the failure.

use crate::cli::Cli;
use fuzz_cli::limits::{Limits, DEFAULT_RSS_LIMIT_MB, DEFAULT_TIMEOUT};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the re-run line keeps of a run's command line.
#[derive(Clone, Debug)]
pub struct Rerun {
    lib: PathBuf,
    testdata: PathBuf,
    /// A limit at its default is left out of the line.
    limits: Limits,
    /// A Go package's directory, as given: its entries re-run with go test.
    package: Option<PathBuf>,
}

impl Rerun {
    pub fn from_cli(cli: &Cli) -> Rerun {
        Rerun {
            lib: cli.lib_shown().to_path_buf(),
            testdata: cli.testdata.clone(),
            limits: cli.limits,
            package: cli
                .package
                .as_ref()
                .filter(|p| {
                    cli.testdata == p.operand.join("testdata")
                        || (p.operand == Path::new(".") && cli.testdata == Path::new("testdata"))
                })
                .map(|p| p.operand.clone()),
        }
    }

    pub fn lib(&self) -> &Path {
        &self.lib
    }

    /// `fuzz-run [-testdata DIR] [-timeout D] [-rss_limit_mb N] -run T/NAME LIB`.
    pub fn line(&self, target: &str, entry: &str) -> String {
        line(self, target, entry)
    }
}

/// The re-run line of `cli`'s run for one entry.
pub fn command(cli: &Cli, target: &str, entry: &str) -> String {
    Rerun::from_cli(cli).line(target, entry)
}

fn line(cli: &Rerun, target: &str, entry: &str) -> String {
    if let Some(dir) = &cli.package {
        return go_test_line(dir, target, entry);
    }
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    let run = if plain(target) && plain(entry) {
        format!("{target}/{entry}")
    } else {
        format!("^{}$/^{}$", regex_literal(target), regex_literal(entry))
    };
    let mut words = vec!["fuzz-run".to_string()];
    if cli.testdata != Path::new("testdata") {
        words.push("-testdata".into());
        words.push(shell_quote_os(cli.testdata.as_os_str()));
    }
    if cli.limits.timeout() != DEFAULT_TIMEOUT {
        words.push("-timeout".into());
        words.push(go_duration(cli.limits.timeout()));
    }
    if cli.limits.rss_limit_mb != DEFAULT_RSS_LIMIT_MB {
        words.push(format!("-rss_limit_mb {}", cli.limits.rss_limit_mb));
    }
    words.push("-run".into());
    words.push(shell_quote(&run));
    words.push(shell_quote_os(cli.lib.as_os_str()));
    words.join(" ")
}

/// A regular expression that matches `s` alone, on one line: control
/// characters (a newline in a file name) as escapes, so that the re-run
/// line stays one line.
fn regex_literal(s: &str) -> String {
    regex::escape(s)
        .chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '\t' => "\\t".to_string(),
            c if c.is_control() => format!("\\x{{{:x}}}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

/// Quotes a path for any POSIX shell, whatever its bytes: as
/// [`shell_quote`] when it is printable UTF-8, else one word made by
/// `printf` from octal escapes (dash has no `$'...'`), on one line. (A
/// newline at the very end of a path would be lost by the command
/// substitution; one inside it is kept.)
pub fn shell_quote_os(s: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = s.as_bytes();
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !text.chars().any(char::is_control) {
            return shell_quote(text);
        }
    }
    // Each byte that is not printable ASCII, as an octal escape of printf's;
    // the rest quoted as shell_quote quotes it.
    let mut fmt = String::new();
    for &b in bytes {
        match b {
            b'%' => fmt.push_str("%%"),
            b'\\' => fmt.push_str("\\\\"),
            b'\'' => fmt.push_str("'\\''"),
            0x20..=0x7e => fmt.push(b as char),
            _ => fmt.push_str(&format!("\\{b:03o}")),
        }
    }
    format!("\"$(printf '{fmt}')\"")
}

/// A Go package's entry re-runs as go test runs it: `go test
/// -run=Target/NAME` in the package's directory (Go's own line), or with
/// the package named when it is elsewhere.
fn go_test_line(dir: &Path, target: &str, entry: &str) -> String {
    let run = shell_quote(&format!("-run={target}/{entry}"));
    if dir == Path::new(".") || dir == Path::new("./") {
        return format!("go test {run}");
    }
    let shown = dir.to_string_lossy();
    let package = if dir.is_absolute() || shown.starts_with("./") || shown.starts_with("../") {
        shown.into_owned()
    } else {
        format!("./{shown}")
    };
    format!("go test {run} {}", shell_quote(&package))
}

/// A duration as fuzz-run's and fuzz-worker's -timeout read it, exactly.
pub fn go_duration(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else if d.as_nanos() % 1_000_000 == 0 {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}ns", d.as_nanos())
    }
}

/// Quotes a word for a POSIX shell, only when it needs it.
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '-' | '.' | '/' | ':' | ',' | '+' | '=' | '@' | '%')
        });
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_round_trip() {
        for d in [
            Duration::from_secs(10),
            Duration::from_millis(1500),
            Duration::from_nanos(1_000_001),
        ] {
            assert_eq!(fuzz_core::duration::parse(&go_duration(d)).unwrap(), d);
        }
    }

    #[test]
    fn any_bytes_paste_into_sh_and_bash() {
        use std::os::unix::ffi::OsStrExt;
        let odd = std::ffi::OsStr::from_bytes(b"./lib\xffodd it's %d\\ \n.so");
        let word = shell_quote_os(odd);
        assert!(!word.contains('\n'), "{word}");
        for sh in ["sh", "bash"] {
            let out = std::process::Command::new(sh)
                .arg("-c")
                .arg(format!("printf %s {word}"))
                .output()
                .unwrap();
            assert_eq!(out.stdout, odd.as_bytes(), "{sh}: {word}");
        }
        assert_eq!(regex_literal("a\nb"), "a\\nb");
        assert!(regex::Regex::new(&format!("^{}$", regex_literal("x\ny.z")))
            .unwrap()
            .is_match("x\ny.z"));
    }

    #[test]
    fn go_packages_rerun_with_go_test() {
        assert_eq!(
            go_test_line(Path::new("."), "FuzzX", "abc"),
            "go test -run=FuzzX/abc"
        );
        assert_eq!(
            go_test_line(Path::new("examples/go"), "FuzzX", "seed#0"),
            "go test '-run=FuzzX/seed#0' ./examples/go"
        );
    }

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(shell_quote("./lib.so"), "./lib.so");
        assert_eq!(shell_quote("my lib.so"), "'my lib.so'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
