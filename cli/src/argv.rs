//! Go-style flag spelling on top of clap.
//!
//! Go and libFuzzer users type `-fuzztime 10s`, `-fuzztime=10s` or
//! `-rss_limit_mb 512`; GNU users type `--fuzztime=10s`. Before clap sees the
//! arguments, every spelling of a known flag is rewritten to clap's
//! `--name[=value]`, with `-` and `_` in the name treated alike. There are no
//! single-letter bundles, so `-v` is the flag `v`, never `-v` as a short
//! option. Help, errors and man pages are rewritten the other way, so people
//! see flags as `-name`, the way they type them.

use clap::Command;
use std::collections::HashMap;
use std::ffi::OsString;

/// Flags a command knows, by their spelling with `_` for `-`.
struct Flags {
    /// canonical (underscored) name -> (clap long name, takes a value)
    by_name: HashMap<String, (String, bool)>,
}

fn canon(name: &str) -> String {
    name.replace('-', "_")
}

impl Flags {
    fn of(cmd: &Command) -> Flags {
        let mut by_name = HashMap::new();
        for arg in cmd.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            let takes = arg.get_action().takes_values();
            by_name.insert(canon(long), (long.to_string(), takes));
            for alias in arg.get_all_aliases().unwrap_or_default() {
                by_name.insert(canon(alias), (long.to_string(), takes));
            }
        }
        Flags { by_name }
    }
}

/// Rewrites `args` (without the program name) for clap. `cmd` must have been
/// built (`Command::build`) so that help and version flags are present.
pub fn normalize(cmd: &Command, args: Vec<OsString>) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut cmd = cmd;
    let mut flags = Flags::of(cmd);
    let mut rest_are_operands = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if rest_are_operands {
            out.push(arg);
            continue;
        }
        let Some(s) = arg.to_str() else {
            out.push(arg);
            continue;
        };
        if s == "--" {
            rest_are_operands = true;
            out.push(arg);
            continue;
        }
        if let Some(body) = s.strip_prefix('-').filter(|b| !b.is_empty()) {
            let body = body.strip_prefix('-').unwrap_or(body);
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            // Only names that look like flags are rewritten; `-1` or `-` stay
            // operands or values.
            let looks_like_flag = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
            if looks_like_flag {
                let known = flags.by_name.get(&canon(name));
                let short = name.len() == 1
                    && cmd
                        .get_arguments()
                        .any(|a| a.get_short() == name.chars().next());
                if known.is_none() && short {
                    // A single letter clap knows as a short flag (-h, -V).
                    out.push(arg);
                    continue;
                }
                match known {
                    Some((long, takes)) => {
                        // A value always travels as `--name=value`, so that a
                        // value starting with '-' (`-arg -1`) stays a value.
                        let mut t = OsString::from(format!("--{long}"));
                        if let (false, Some(v)) = (*takes, value) {
                            // A switch given a value, as Go allows
                            // (`-v=true`, `-json=0`): on, off, or left to
                            // clap to refuse.
                            match go_bool(v) {
                                Some(true) => out.push(t),
                                Some(false) => {}
                                None => {
                                    t.push("=");
                                    t.push(v);
                                    out.push(t);
                                }
                            }
                            continue;
                        }
                        if let Some(v) = value {
                            t.push("=");
                            t.push(v);
                        } else if *takes {
                            if let Some(v) = args.next() {
                                t.push("=");
                                t.push(v);
                            }
                        }
                        out.push(t);
                    }
                    None => {
                        // Unknown: let clap report it, spelled as typed.
                        out.push(format!("--{body}").into());
                    }
                }
                continue;
            }
            out.push(arg);
            continue;
        }
        // An operand: perhaps a subcommand, whose flags apply from here on.
        if let Some(sub) = cmd.find_subcommand(s) {
            cmd = sub;
            flags = Flags::of(cmd);
        }
        out.push(arg);
    }
    out
}

/// A boolean as Go's `strconv.ParseBool` reads it, which is what its flag
/// package accepts after `-name=`.
fn go_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Every long flag name of a command and its subcommands.
pub fn long_names(cmd: &Command) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    fn walk(cmd: &Command, names: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            if let Some(l) = arg.get_long() {
                names.push(l.to_string());
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, names);
        }
    }
    walk(cmd, &mut names);
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.dedup();
    names
}

/// Rewrites `--name` to `-name` in text meant for people (help, errors).
/// `dashes` is how a dash is written in the text: `"-"`, or `"\\-"` in roff
/// (where `--sanitizer-runtime` is `\-\-sanitizer\-runtime`).
pub fn go_style(text: &str, longs: &[String], dash: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let double = format!("{dash}{dash}");
    // Each name as the text writes it, longest first.
    let spelled: Vec<String> = longs.iter().map(|l| l.replace('-', dash)).collect();
    let mut rest = text;
    while let Some(pos) = rest.find(&double) {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + double.len()..];
        let hit = spelled.iter().find(|l| {
            after.starts_with(l.as_str())
                && !after[l.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
        match hit {
            Some(l) => {
                out.push_str(dash);
                out.push_str(l);
                rest = &after[l.len()..];
            }
            None => {
                out.push_str(&double);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction};

    fn cmd() -> Command {
        let mut c = Command::new("t")
            .arg(Arg::new("fuzztime").long("fuzztime"))
            .arg(Arg::new("rss").long("rss_limit_mb"))
            .arg(Arg::new("v").long("v").action(ArgAction::SetTrue))
            .arg(Arg::new("num").long("arg"))
            .arg(Arg::new("files").num_args(0..))
            .subcommand(Command::new("sub").arg(Arg::new("o").long("o")));
        c.build();
        c
    }

    fn norm(args: &[&str]) -> Vec<String> {
        normalize(&cmd(), args.iter().map(OsString::from).collect())
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn every_spelling_of_a_flag() {
        assert_eq!(norm(&["-fuzztime", "1s"]), ["--fuzztime=1s"]);
        assert_eq!(norm(&["-fuzztime=1s"]), ["--fuzztime=1s"]);
        assert_eq!(norm(&["--fuzztime=1s"]), ["--fuzztime=1s"]);
        assert_eq!(norm(&["-rss-limit-mb", "5"]), ["--rss_limit_mb=5"]);
        assert_eq!(norm(&["--rss_limit_mb=5"]), ["--rss_limit_mb=5"]);
        assert_eq!(norm(&["-v", "x"]), ["--v", "x"]);
    }

    #[test]
    fn switches_take_go_s_boolean_spellings() {
        for on in ["1", "t", "T", "TRUE", "true", "True"] {
            assert_eq!(norm(&[&format!("-v={on}")]), ["--v"], "{on}");
        }
        for off in ["0", "f", "F", "FALSE", "false", "False"] {
            assert!(norm(&[&format!("--v={off}")]).is_empty(), "{off}");
        }
        // As in Go, a switch's value must be joined by '='.
        assert_eq!(norm(&["-v", "true"]), ["--v", "true"]);
        assert_eq!(norm(&["-v=yes"]), ["--v=yes"], "left to clap to refuse");
    }

    #[test]
    fn values_and_operands_untouched() {
        assert_eq!(norm(&["-arg", "-1"]), ["--arg=-1"]);
        assert_eq!(norm(&["-", "-5"]), ["-", "-5"]);
        assert_eq!(norm(&["--", "-v"]), ["--", "-v"]);
        assert_eq!(norm(&["-fuzztime", "-v"]), ["--fuzztime=-v"]);
        assert_eq!(norm(&["-fuzztime"]), ["--fuzztime"]);
    }

    #[test]
    fn subcommand_flags_and_unknown_flags() {
        assert_eq!(norm(&["sub", "-o", "f"]), ["sub", "--o=f"]);
        assert_eq!(norm(&["-bogus"]), ["--bogus"]);
        assert_eq!(norm(&["-help"]), ["--help"]);
        assert_eq!(norm(&["-h"]), ["-h"]);
    }

    #[test]
    fn text_shows_go_spelling() {
        let longs = vec!["fuzztime".to_string(), "v".to_string()];
        assert_eq!(
            go_style("use --fuzztime <D> or --v, not --vv --", &longs, "-"),
            "use -fuzztime <D> or -v, not --vv --"
        );
        assert_eq!(go_style("\\-\\-fuzztime", &longs, "\\-"), "\\-fuzztime");
        let longs = vec!["sanitizer-runtime".to_string()];
        assert_eq!(
            go_style("\\fB\\-\\-sanitizer\\-runtime\\fR", &longs, "\\-"),
            "\\fB\\-sanitizer\\-runtime\\fR"
        );
    }
}
