//! The targets of a library and how fuzz-run picks among them.
//!
//! fuzz-run never loads a library itself: [`list`] starts a spare worker
//! (`fuzz-worker serve --list LIB`, `fuzz_core::worker::spare`), which
//! answers with the targets `fuzz-worker list -json` would print and then
//! waits: in fuzz mode it becomes the first worker. Targets are then chosen
//! by name, the way Go's testing package does:
//!
//! - `-run REGEXP` ([`RunFilter`]) selects the targets to replay in
//!   regression mode, and with `Target/NAME` single seed corpus entries.
//! - `-fuzz REGEXP` ([`select_for_fuzz`]) selects the targets to fuzz: one
//!   or several, which then take turns.
//!
//! Both patterns are Go's: split on `/` (outside brackets and parentheses)
//! into one regular expression per level, and on a top-level `|` into
//! alternatives; each element is unanchored, so `FuzzBytes` also matches
//! `FuzzBytes2`. The first element matches the target's name, the second the
//! seed file's name. The regular expressions are the `regex` crate's, whose
//! syntax is close to Go's RE2.

use crate::cli::Cli;
use fuzz_cli::CliError;
use fuzz_core::worker::protocol::{build_of, Listed};
use fuzz_core::worker::serve_args::ServeArgs;
use fuzz_core::worker::spare::{ListError, Spare};
use regex::Regex;
use std::path::Path;

/// One target of a library, as `fuzz-worker list -json` describes it. Its
/// name is its symbol for a typed target (`FuzzParse`), the library's name
/// for a libFuzzer entry (`png_read`); its seed corpus is
/// `testdata/fuzz/<name>/`.
pub type TargetInfo = Listed;

/// The names of `targets`, comma-separated, for messages.
pub fn names(targets: &[TargetInfo]) -> String {
    let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    names.join(", ")
}

/// Lists the targets of the run's library (in a Go package's directory,
/// when one was given: a Go fuzz test's set-up runs as the list is made)
/// with a spare worker that would serve as `serve` says (its files in
/// `dir`): the targets, and the spare, which fuzz mode makes its first
/// worker (dropped, it is killed).
pub fn list(
    worker: &Path,
    cli: &Cli,
    serve: &ServeArgs,
    dir: &Path,
) -> Result<(Vec<TargetInfo>, Spare), CliError> {
    let cwd = cli.package.as_ref().map(|p| p.dir.as_path());
    list_in(worker, serve, cwd, dir)
}

/// Lists the targets of `serve.lib` by starting `worker serve --list` on
/// it (in `cwd`, when given) and reading its answer.
///
/// A library the worker cannot load (missing file, missing symbol, no
/// targets) is misuse: the worker's one-line error is relayed without its
/// `fuzz-worker: ` prefix.
fn list_in(
    worker: &Path,
    serve: &ServeArgs,
    cwd: Option<&Path>,
    dir: &Path,
) -> Result<(Vec<TargetInfo>, Spare), CliError> {
    let lib = &serve.lib;
    let env = fuzz_cli::sanitizer::serve_env(serve);
    let (spare, targets) = Spare::start(worker, serve, dir, cwd, env).map_err(|e| match e {
        ListError::Start(why) => CliError::misuse(why),
        ListError::Failed { stderr, status } => worker_error(&stderr, status),
        ListError::Garbled(why) => CliError::misuse(format!(
            "{}: unexpected answer from {} serve --list: {why}",
            lib.display(),
            worker.display()
        )),
        ListError::Version(theirs) => CliError::misuse(format!(
            "{} speaks protocol version {theirs}, fuzz-run {}: install matching versions (or \
             set FUZZ_WORKER)",
            worker.display(),
            fuzz_core::worker::protocol::VERSION
        )),
    })?;
    if targets.is_empty() {
        return Err(CliError::misuse(format!(
            "{}: the library has no fuzz targets (no LLVMFuzzerTestOneInput, no Fuzz* function)",
            lib.display()
        )));
    }
    Ok((targets, spare))
}

/// Refuses to fuzz a library without SanitizerCoverage instrumentation:
/// every input would look alike, and the run would find nothing new for
/// its whole -fuzztime (libFuzzer refuses it too). Replaying it is fine.
pub fn check_instrumented(lib: &Path, chosen: &[&TargetInfo]) -> Result<(), CliError> {
    if chosen.iter().all(|t| t.coverage) {
        return Ok(());
    }
    Err(CliError::misuse(format!(
        "{}: the library has no coverage instrumentation (no __sanitizer_cov_* call), so fuzzing \
         would be blind; build it with clang -fsanitize-coverage=inline-8bit-counters,pc-table \
         (gcc: -fsanitize-coverage=trace-pc; Rust: the flags of examples/rustflags.sh)",
        lib.display()
    )))
}

/// Checks that `cmp_lib` (`-cmp_lib`) can stand in for the library of
/// `chosen` when comparisons are traced: a target library that calls the
/// trace-cmp callbacks, with a build of each chosen target (its libFuzzer
/// entry for a libFuzzer target, whatever the file is called; a typed
/// target of the same name and argument types). Misuse otherwise, naming
/// the flag.
pub fn check_cmp_lib(
    worker: &Path,
    cmp_lib: &Path,
    chosen: &[&TargetInfo],
    dir: &Path,
) -> Result<(), CliError> {
    let misuse = |why: String| CliError::misuse(format!("-cmp_lib {}: {why}", cmp_lib.display()));
    let serve = ServeArgs::new(cmp_lib.to_path_buf(), None);
    let (theirs, _spare) = list_in(worker, &serve, None, dir).map_err(|e| {
        // The message names the file already.
        CliError::misuse(format!("-cmp_lib: {}", e.message))
    })?;
    if !theirs.iter().any(|t| t.trace_cmp) {
        return Err(misuse(
            "it calls no trace-cmp callbacks: build it with -fsanitize-coverage=trace-cmp \
             (rustc: -Cllvm-args=-sanitizer-coverage-trace-compares)"
                .into(),
        ));
    }
    for want in chosen {
        build_of(&theirs, want).map_err(misuse)?;
    }
    Ok(())
}

/// The error a worker that did not succeed ends with: its own one-line
/// message (without the `fuzz-worker: ` prefix) when it gave one, else how
/// it ended. Always misuse: the worker exits 2 on bad operands, and any
/// other failure of the worker itself is not a finding in the target.
pub fn worker_error(stderr: &[u8], status: std::process::ExitStatus) -> CliError {
    let text = String::from_utf8_lossy(stderr);
    match fuzz_core::worker::crash::last_said(&text) {
        Some(line) => CliError::misuse(line),
        None => CliError::misuse(format!("fuzz-worker failed ({status})")),
    }
}

/// A `-run` or `-fuzz` pattern, split as Go splits it.
#[derive(Debug)]
pub struct RunFilter {
    /// Alternatives (top-level `|`), each a list of per-level expressions.
    alternatives: Vec<Vec<Regex>>,
}

impl RunFilter {
    /// Compiles `pattern`, given to `flag` (`-run`, `-fuzz`). An element
    /// that is not a valid regular expression is misuse, named as Go names
    /// it: `invalid regexp for element 0 of -run ("["): …`.
    pub fn new(pattern: &str, flag: &str) -> Result<RunFilter, CliError> {
        let mut alternatives = Vec::new();
        for alt in split_pattern(pattern) {
            let mut elems = Vec::new();
            for (i, elem) in alt.iter().enumerate() {
                let re = Regex::new(elem).map_err(|e| {
                    CliError::misuse(format!(
                        "invalid regexp for element {i} of {flag} ({elem:?}): {}",
                        one_line_regex_error(&e)
                    ))
                })?;
                elems.push(re);
            }
            alternatives.push(elems);
        }
        Ok(RunFilter { alternatives })
    }

    /// Whether the target named `name` is selected.
    pub fn matches_target(&self, name: &str) -> bool {
        self.alternatives
            .iter()
            .any(|alt| alt.first().map_or(true, |re| re.is_match(name)))
    }

    /// Whether the seed corpus entry (file name) `entry` of target `target`
    /// is selected. A pattern without a second element selects every entry
    /// of a selected target; elements past the second are ignored (entries
    /// have no subtests).
    pub fn matches_entry(&self, target: &str, entry: &str) -> bool {
        self.alternatives.iter().any(|alt| {
            alt.first().map_or(true, |re| re.is_match(target))
                && alt.get(1).map_or(true, |re| re.is_match(entry))
        })
    }

    /// True when some alternative narrows the entries (`Target/NAME` with a
    /// NAME that is not empty).
    pub fn selects_entries(&self) -> bool {
        self.alternatives
            .iter()
            .any(|alt| alt.get(1).is_some_and(|re| !re.as_str().is_empty()))
    }
}

/// The regex crate's error text on one line: the last line of its
/// multi-line rendering is the reason.
fn one_line_regex_error(e: &regex::Error) -> String {
    let text = e.to_string();
    let reason = text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("invalid regular expression");
    reason.trim_start_matches("error: ").to_string()
}

/// Go's `splitRegexp`: alternatives on a top-level `|`, levels on a
/// top-level `/`; neither splits inside `[...]` or `(...)` or after a
/// backslash.
fn split_pattern(s: &str) -> Vec<Vec<String>> {
    let mut alternatives = Vec::new();
    let mut elems = Vec::new();
    let mut cur = String::new();
    let (mut brackets, mut parens) = (0usize, 0isize);
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '[' => brackets += 1,
            // An unmatched ']' is legal.
            ']' => brackets = brackets.saturating_sub(1),
            '(' if brackets == 0 => parens += 1,
            ')' if brackets == 0 => parens -= 1,
            '\\' => {
                cur.push(c);
                if let Some(next) = chars.next() {
                    cur.push(next);
                }
                continue;
            }
            '/' if brackets == 0 && parens == 0 => {
                elems.push(std::mem::take(&mut cur));
                continue;
            }
            '|' if brackets == 0 && parens == 0 => {
                elems.push(std::mem::take(&mut cur));
                alternatives.push(std::mem::take(&mut elems));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    elems.push(cur);
    alternatives.push(elems);
    alternatives
}

/// The targets `-fuzz pattern` selects, in the library's order: one is
/// fuzzed as Go fuzzes it, several take turns (`turns.rs`). None matching
/// is misuse naming the targets there are (Go exits 0 on none, which hides
/// typos in CI); so is an invalid regular expression.
pub fn select_for_fuzz<'a>(
    targets: &'a [TargetInfo],
    pattern: &str,
) -> Result<Vec<&'a TargetInfo>, CliError> {
    let filter = RunFilter::new(pattern, "-fuzz")?;
    let matched: Vec<&TargetInfo> = targets
        .iter()
        .filter(|t| filter.matches_target(&t.name))
        .collect();
    if matched.is_empty() {
        return Err(CliError::misuse(format!(
            "no target matches -fuzz {pattern:?} (the library has: {})",
            names(targets)
        )));
    }
    Ok(matched)
}

#[cfg(test)]
mod tests {
    use super::*;

    use fuzz_core::worker::protocol::{TargetDesc, TargetKind};
    use fuzz_core::ArgType;

    fn t(name: &str) -> TargetInfo {
        Listed {
            target: TargetDesc {
                name: name.into(),
                kind: TargetKind::Typed,
                args: vec![ArgType::Bytes],
            },
            symbol: name.into(),
            trace_cmp: false,
            coverage: true,
            mutators: Vec::new(),
            go: None,
        }
    }

    #[test]
    fn splits_like_go() {
        assert_eq!(split_pattern("A"), vec![vec!["A"]]);
        assert_eq!(split_pattern("A/B"), vec![vec!["A", "B"]]);
        assert_eq!(split_pattern("A|B/C"), vec![vec!["A"], vec!["B", "C"]]);
        assert_eq!(split_pattern("[/|]x/(a|b)"), vec![vec!["[/|]x", "(a|b)"]]);
        assert_eq!(split_pattern(r"a\/b"), vec![vec![r"a\/b"]]);
        assert_eq!(split_pattern("]/x"), vec![vec!["]", "x"]]);
        assert_eq!(split_pattern(""), vec![vec![""]]);
    }

    #[test]
    fn matches_targets_and_entries() {
        let f = RunFilter::new("Record/^ab", "-run").unwrap();
        assert!(f.matches_target("FuzzRecord"));
        assert!(!f.matches_target("FuzzFlags"));
        assert!(f.matches_entry("FuzzRecord", "abc"));
        assert!(!f.matches_entry("FuzzRecord", "cab"));
        assert!(!f.matches_entry("FuzzFlags", "abc"));
        assert!(f.selects_entries());
        let f = RunFilter::new("Flags|Record/x", "-run").unwrap();
        assert!(f.matches_entry("FuzzFlags", "anything"));
        assert!(!f.matches_entry("FuzzRecord", "y"));
        assert!(RunFilter::new("", "-run").unwrap().matches_entry("A", "b"));
        assert!(!RunFilter::new("A/", "-run").unwrap().selects_entries());
    }

    #[test]
    fn invalid_regexp_names_the_element() {
        let e = RunFilter::new("A/[", "-run").unwrap_err();
        assert!(
            e.message
                .starts_with("invalid regexp for element 1 of -run (\"[\"): "),
            "{}",
            e.message
        );
        assert!(!e.message.contains('\n'));
    }

    #[test]
    fn fuzz_selects_one_or_several() {
        let ts = [t("FuzzBytes"), t("FuzzBytes2"), t("FuzzString")];
        let names = |v: Vec<&TargetInfo>| v.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(select_for_fuzz(&ts, "String").unwrap()),
            ["FuzzString"]
        );
        assert_eq!(
            names(select_for_fuzz(&ts, "^FuzzBytes$").unwrap()),
            ["FuzzBytes"]
        );
        assert_eq!(
            names(select_for_fuzz(&ts, "Bytes").unwrap()),
            ["FuzzBytes", "FuzzBytes2"]
        );
        assert_eq!(
            names(select_for_fuzz(&ts, "String|Bytes$").unwrap()),
            ["FuzzBytes", "FuzzString"]
        );
        let e = select_for_fuzz(&ts, "Nope").unwrap_err();
        assert!(e.message.contains("FuzzBytes, FuzzBytes2, FuzzString"));
        let e = select_for_fuzz(&ts, "(").unwrap_err();
        assert!(e.message.contains("-fuzz"), "{}", e.message);
    }

    /// One line of `fuzz-worker list -json`, one target of a `targets` answer.
    fn parse_list_line(line: &str) -> Result<TargetInfo, serde_json::Error> {
        serde_json::from_str(line)
    }

    #[test]
    fn parses_list_lines() {
        let t = parse_list_line(
            r#"{"args":["string","int64","[]byte"],"kind":"typed","name":"FuzzRecord","symbol":"FuzzRecord"}"#,
        )
        .unwrap();
        assert_eq!(t.name, "FuzzRecord");
        assert_eq!(
            t.args,
            vec![ArgType::String, ArgType::Int64, ArgType::Bytes]
        );
        assert!(parse_list_line(r#"{"name":"x"}"#).is_err());
        assert!(parse_list_line(r#"{"name":"x","kind":"typed","args":["nope"]}"#).is_err());
    }
}
