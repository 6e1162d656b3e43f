//! The coordinator–worker protocol: line-delimited JSON over two pipes that
//! are not the worker's stdin or stdout (the target's own output must never
//! corrupt it). Both ends use these types, so the wire format lives here
//! once. Corpus entries travel as v1 text (`codec::encode`), which is
//! always valid UTF-8.
//!
//! The exact input under test is not sent per execution: the worker keeps
//! it in shared memory (`shm.rs`), so that when a target kills the worker,
//! the coordinator still reads it there.

use crate::format::value::{self, Value};
use crate::worker::crash::DeathKind;
use crate::ArgType;
use serde::{Deserialize, Serialize};

/// Bumped whenever a message changes shape; a worker of another version is
/// refused at the handshake.
pub const VERSION: u32 = 7;

/// How a target takes its input.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// `LLVMFuzzerTestOneInput`: one `[]byte`; -1 rejects, anything else
    /// passes.
    #[serde(rename = "libfuzzer")]
    LibFuzzer,
    /// `FuzzName`: packed typed arguments; 0 passes, -1 rejects, anything
    /// else fails.
    #[serde(rename = "typed")]
    Typed,
}

impl TargetKind {
    /// What a target of this kind takes for `values`: a libFuzzer entry
    /// its one argument's bytes as they are (no copy), a typed target the
    /// values packed into `buf` ([`value::pack_into`]).
    pub fn input<'a>(&self, values: &'a [Value], buf: &'a mut Vec<u8>) -> &'a [u8] {
        match self {
            TargetKind::LibFuzzer => values.first().and_then(Value::as_bytes).unwrap_or_default(),
            TargetKind::Typed => {
                value::pack_into(values, buf);
                buf
            }
        }
    }
}

/// A target as a worker describes it: in its handshake, and in
/// `fuzz-worker list -json` (see [`Listed`]).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TargetDesc {
    /// Its symbol for a typed target (`FuzzParse`), the library's name for
    /// a libFuzzer entry (`png_read`).
    pub name: String,
    pub kind: TargetKind,
    /// The argument types, in order, as Go's names; a libFuzzer entry
    /// takes `[]byte`.
    #[serde(with = "go_types")]
    pub args: Vec<ArgType>,
}

impl TargetDesc {
    /// True when `other`, a target of another build of the same code, is
    /// this one's build there: the libFuzzer entry for a libFuzzer target
    /// (whatever the file is called), else the typed target of the same
    /// name (`-cmp_lib` pairs the two builds by this rule).
    pub fn same_target(&self, other: &TargetDesc) -> bool {
        self.kind == other.kind && (self.kind == TargetKind::LibFuzzer || self.name == other.name)
    }

    /// `(string, int64)`, for messages.
    pub fn signature(&self) -> String {
        ArgType::format_list(&self.args)
    }
}

/// The build of `want` among `targets`, by [`TargetDesc::same_target`],
/// taking the same argument types; why not, when it is missing.
pub fn build_of<'a, T: AsRef<TargetDesc>>(
    targets: &'a [T],
    want: &TargetDesc,
) -> Result<&'a T, String> {
    match targets.iter().find(|t| want.same_target(t.as_ref())) {
        Some(t) if t.as_ref().args == want.args => Ok(t),
        Some(t) => Err(format!(
            "its {} takes ({}), not ({}) as {}'s does",
            t.as_ref().name,
            t.as_ref().signature(),
            want.signature(),
            want.name
        )),
        None => {
            let names: Vec<&str> = targets.iter().map(|t| t.as_ref().name.as_str()).collect();
            Err(format!(
                "it has no build of {} (it has: {})",
                want.name,
                names.join(", ")
            ))
        }
    }
}

impl AsRef<TargetDesc> for TargetDesc {
    fn as_ref(&self) -> &TargetDesc {
        self
    }
}

/// One line of `fuzz-worker list -json`: a target and what else the
/// tools that never load a library need to know of it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    #[serde(flatten)]
    pub target: TargetDesc,
    /// The symbol the worker calls.
    pub symbol: String,
    /// The library calls the trace-cmp callbacks (`-cmp_lib` needs them).
    #[serde(default)]
    pub trace_cmp: bool,
    /// The library has SanitizerCoverage instrumentation of some kind (it
    /// calls a `__sanitizer_cov_*` function): without, fuzzing is blind.
    #[serde(default)]
    pub coverage: bool,
    /// The target's own mutators, by symbol.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mutators: Vec<String>,
    /// For a fuzz test of a Go package (a library fuzz-build made), what
    /// go test's set-up of it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go: Option<GoTest>,
}

/// A Go fuzz test as go test -fuzz sets it up, before any input: its
/// `f.Add` values, or why it cannot run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct GoTest {
    pub status: GoStatus,
    /// The `f.Add` values, in order, each as a corpus file in Go's own
    /// encoding; replayed as `seed#0`, `seed#1`, … before testdata's files,
    /// as go test names them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<String>,
    /// What testing printed for the fuzz test during its set-up (its
    /// failure, or why it skipped), as go test shows it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output: String,
}

/// How a Go fuzz test's set-up ended.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum GoStatus {
    /// It reached `f.Fuzz` and can run inputs.
    Ok,
    /// It failed (`f.Fatal`, a panic, a second `f.Fuzz`, an `f.Add` of the
    /// wrong types, no `f.Fuzz` at all).
    Fail,
    /// It called `f.Skip` before `f.Fuzz`.
    Skip,
}

impl GoTest {
    /// One line on why a fuzz test whose set-up did not end `Ok` cannot run.
    pub fn why(&self) -> String {
        let what = match self.status {
            GoStatus::Ok => "it is ready",
            GoStatus::Fail => "its set-up failed",
            GoStatus::Skip => "it skips",
        };
        match self.said().first() {
            Some(first) => format!("{what}: {first}"),
            None => what.to_string(),
        }
    }

    /// What testing said of the set-up, without its own lines (`=== FUZZ`,
    /// `--- FAIL`, `FAIL`, `PASS`), unindented by the 4 spaces of a test's
    /// log.
    pub fn said(&self) -> Vec<&str> {
        self.output
            .lines()
            .filter(|l| {
                let t = l.trim();
                !t.is_empty()
                    && !l.starts_with("--- ")
                    && !l.starts_with("=== ")
                    && t != "FAIL"
                    && t != "PASS"
            })
            .map(|l| l.strip_prefix("    ").unwrap_or(l))
            .collect()
    }
}

impl std::ops::Deref for Listed {
    type Target = TargetDesc;
    fn deref(&self) -> &TargetDesc {
        &self.target
    }
}

impl AsRef<TargetDesc> for Listed {
    fn as_ref(&self) -> &TargetDesc {
        &self.target
    }
}

/// Argument types on the wire as Go spells them (`"[]byte"`, `"int64"`).
mod go_types {
    use crate::ArgType;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(types: &[ArgType], s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<String> = types.iter().map(ArgType::to_string).collect();
        names.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ArgType>, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        names
            .iter()
            .map(|n| n.parse::<ArgType>().map_err(serde::de::Error::custom))
            .collect()
    }
}

/// What the coordinator asks of a worker.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Execute `entry` once and report its coverage (baseline).
    Run { id: u64, entry: String },
    /// Mutate and execute, starting from `entry`, until an input adds
    /// coverage or fails, or the slice ends (`max_execs` executions or
    /// `millis` milliseconds, whichever comes first). `add_coverage` are
    /// features other workers found since this one last heard, `corpus`
    /// the entries added to the corpus since then (the worker keeps its own
    /// copy, to choose parents from and to splice with).
    Fuzz {
        id: u64,
        entry: String,
        seed: u64,
        max_execs: Option<u64>,
        millis: Option<u64>,
        max_len: usize,
        add_coverage: Vec<u32>,
        /// Use comparison operands the target recorded (input-to-state).
        use_cmp: bool,
        corpus: Vec<String>,
        /// The search beyond Go's (`fuzz_core::search::schedule`, `splice`).
        search: Search,
        /// Fingerprints of crashes at sites already recorded (under
        /// -keepfuzzing), added since the worker last heard: it survives
        /// those instead of dying of them.
        #[serde(default)]
        known_crashes: Vec<u64>,
    },
    /// Shrink `entry` while it keeps `keep`. Failure candidates run in
    /// forked children, so a crash costs a fork, not the worker;
    /// `timeout_ms` and `rss_limit_mb` bound each of them.
    Minimize {
        id: u64,
        entry: String,
        keep: Keep,
        max_execs: Option<u64>,
        millis: Option<u64>,
        timeout_ms: u64,
        rss_limit_mb: u64,
    },
    /// Execute `entry` once in a forked child (within `timeout_ms` and
    /// `rss_limit_mb`) and say how it ended, with its crash site: does it
    /// fail, and where?
    Check {
        id: u64,
        entry: String,
        timeout_ms: u64,
        rss_limit_mb: u64,
    },
    /// Exit.
    Stop,
}

/// The switches of the search beyond Go's mutator, each off giving Go's
/// behaviour back: one definition for fuzz-run's flags (with the `clap`
/// feature, as fuzz-run flattens them: the doc comments are its --help),
/// the wire between fuzz-run and its workers, and the engine's settings
/// (fuzz-worker's fuzzing.rs, `crate::search::schedule::Weights`). A new
/// switch is a field here and the code that reads it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[cfg_attr(feature = "clap", command(next_help_heading = "Search"))]
pub struct Search {
    /// Choose which entry to mutate by the rarity of the coverage it reaches, small entries first
    /// (1, the default), or round-robin as Go does (0).
    #[cfg_attr(feature = "clap", arg(
        long = "entropic",
        value_name = "0|1",
        default_value = "1",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub entropic: bool,

    /// Now and then splice two entries into one before mutating (1, the default), or never (0).
    #[cfg_attr(feature = "clap", arg(
        long = "cross_over",
        value_name = "0|1",
        default_value = "1",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub cross_over: bool,

    /// Length control, as libFuzzer's: []byte and string arguments grow beyond the corpus's longest
    /// by small steps, after N×log2(length) executions without new coverage; 0 lets them grow to
    /// -max_len at once.
    #[cfg_attr(
        feature = "clap",
        arg(long = "len_control", value_name = "N", default_value_t = 100)
    )]
    pub len_control: u32,

    /// An automatic dictionary (1, the default), or none (0): the comparison operands that led to
    /// new coverage (with -use_cmp), and the text constants and file signatures compared in the
    /// target's x86-64 code that no comparison callback shows (rustc's `slice == b"MAGIC_1234"`, a
    /// 24-bit `== b"GIF"`, an inlined `starts_with` of PNG's signature).
    #[cfg_attr(feature = "clap", arg(
        long = "auto_dict",
        value_name = "0|1",
        default_value = "1",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub auto_dict: bool,

    /// Now and then write a string constant the target's x86-64 code hands over with its length (a
    /// map's key, a keyword, a constant memcmp's bytes: `params.get("phone-context")`) into a
    /// []byte or string argument (1), or never (0, the default). Such a key reaches no comparison
    /// until an input holds it when the code looks it up in a hashed map. The constants are read
    /// from the library once per worker: printable, no spaces, 2 to 32 bytes.
    #[cfg_attr(feature = "clap", arg(
        long = "code_strings",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub code_strings: bool,

    /// Now and then write a whole character outside ASCII (two to four bytes of UTF-8: é, Ж, 日, 😀)
    /// into a []byte or string argument that is valid UTF-8, inserted or in place of one (1), or
    /// never (0, the default). Byte mutations almost never make such a character, and a target that
    /// reads text rejects the broken sequences they make instead; arguments that are not valid
    /// UTF-8 are left alone. For targets whose paths need text in other scripts: on SQLite and
    /// serde_json it costs coverage (bench/README.md).
    #[cfg_attr(feature = "clap", arg(
        long = "utf8",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub utf8: bool,

    /// Now and then move whole lines in a []byte or string argument that holds text made of lines
    /// (1): a line of another entry inserted at a line start or in place of a line, a line
    /// removed, or the start of another line (its blanks and punctuation: "> ", "- ", "  ", ":")
    /// written before a line, so that a line takes another's kind; or never (0, the default).
    /// For block-structured text (Markdown's quotes and lists, YAML, TOML tables, patches), whose
    /// bugs want a few short lines of the right kinds together; an argument that neither it nor
    /// the other entry holds a newline in, or that is not text (not valid UTF-8), is left alone.
    #[cfg_attr(feature = "clap", arg(
        long = "lines",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub lines: bool,

    /// Now and then move whole fields of a list in a []byte or string argument (1): the argument
    /// split at a separator it holds (| , ; & space / : tab), a field of another entry inserted
    /// or in place of one, a field removed or written twice; or never (0, the default). For
    /// alternations, lists of columns or values, query strings and paths, where what a target
    /// does depends on how many items a list has and which; arguments without a separator, and
    /// arguments that are not text (not valid UTF-8), are left alone.
    #[cfg_attr(feature = "clap", arg(
        long = "fields",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub fields: bool,

    /// Now and then find a number written as decimal text in a []byte or string argument (a JSON
    /// number, a SQL LIMIT, a regex's {2,5}) and change it as a number: ±1, ×2, ÷2, negated, a
    /// random value of its size, a value at an integer type's edge, written back as text (1); or
    /// never (0, the default), leaving numbers to the byte mutators, as Go does. Text without a
    /// number gets one inserted. AFL++ and libFuzzer do the same; on the bench suite's libraries
    /// it gained nothing at 60 s (bench/LOG.md), so it is for targets whose paths hang on a value.
    #[cfg_attr(feature = "clap", arg(
        long = "ascii_num",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub ascii_num: bool,

    /// With -entropic, weigh smaller entries more (1, the default: an entry's weight is divided
    /// by 1 + √(size/64)), or weigh them by what they reach and their speed alone (0), as AFL++
    /// 4.40c nearly does.
    #[cfg_attr(feature = "clap", arg(
        long = "size_weight",
        value_name = "0|1",
        default_value = "1",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub size_weight: bool,

    /// With -entropic, weigh an entry 4 times more until it has been the parent of 64 chains of
    /// mutations (1), as AFL++ weighs entries not yet fuzzed; or not (0, the default).
    #[cfg_attr(feature = "clap", arg(
        long = "fresh_weight",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub fresh_weight: bool,

    /// With -entropic, mutate each new entry that is favoured before any other, the oldest first,
    /// until it has been the parent of 64 chains of mutations (1), as AFL++ fuzzes new favoured
    /// entries first; or let new entries compete by weight alone (0, the default).
    #[cfg_attr(feature = "clap", arg(
        long = "fresh_first",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub fresh_first: bool,

    /// With -entropic, favour only the entries a greedy cover of the edges needs (1): each edge
    /// not yet covered takes its smallest entry, which covers all of its edges, as AFL++ culls its
    /// queue; or favour every edge's smallest entry (0, the default).
    #[cfg_attr(feature = "clap", arg(
        long = "cull",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub cull: bool,

    /// Stack several mutations on each input of a chain of mutations (1): each chain draws a
    /// height of 1, 2, 4 or 8, and each of its inputs gets 1 to that many mutations more than the
    /// one before, as AFL++'s havoc stacks 1 to 2, 4, 8 or 16 on each input; or one each, as Go
    /// and libFuzzer do (0, the default).
    #[cfg_attr(feature = "clap", arg(
        long = "stack",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub stack: bool,

    /// With -entropic, let a shorter input take the place of the entry it was made from when it
    /// reaches every coverage feature that entry brought to the corpus, and nothing new (1, the
    /// default), as libFuzzer's -reduce_inputs does: entries stay short while fuzzing goes on,
    /// without -fuzzminimizetime's cost. The worker mutates the shorter input from then on; the
    /// corpus on disk keeps the entry as found. Or keep each entry as found (0).
    #[cfg_attr(feature = "clap", arg(
        long = "reduce_inputs",
        value_name = "0|1",
        default_value = "1",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    ))]
    pub reduce_inputs: bool,
}

impl Search {
    /// Every switch off: Go's own engine.
    pub const GO: Search = Search {
        entropic: false,
        cross_over: false,
        len_control: 0,
        auto_dict: false,
        code_strings: false,
        utf8: false,
        lines: false,
        fields: false,
        ascii_num: false,
        size_weight: false,
        fresh_weight: false,
        fresh_first: false,
        cull: false,
        stack: false,
        reduce_inputs: false,
    };
}

/// A 0|1 switch as fuzz-run's flags spell it (`true` and `false` too).
pub fn parse_flag01(s: &str) -> Result<bool, String> {
    match s {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(format!("{s:?}: want 0 or 1")),
    }
}

/// What a minimization must keep.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Keep {
    /// The input keeps failing (returning failure, crashing, hanging); with
    /// `site`, at that crash site (`fuzz_core::worker::crash`).
    Failure { site: Option<String> },
    /// The input keeps reaching every one of these features, without
    /// failing. With `isolate`, each candidate runs in a forked child (a
    /// candidate that crashes is then just not kept); without, in-process.
    Coverage { features: Vec<u32>, isolate: bool },
}

/// What a worker answers.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Response {
    /// Sent first by a worker started with `serve --list`, when the library
    /// is loaded: its targets, as `fuzz-worker list -json` lists them. The
    /// worker then waits for the [`ServeArgs`] that name the one to serve
    /// (one line of JSON), and goes on as a worker started with them.
    ///
    /// [`ServeArgs`]: crate::worker::serve_args::ServeArgs
    Targets { version: u32, targets: Vec<Listed> },
    /// Sent once at start, when the library is loaded and initialized.
    Hello {
        version: u32,
        target: TargetDesc,
        /// Coverage counters the worker reads per execution.
        counters: u32,
    },
    /// Sent once after `Hello`, when the warm-up run (the empty input, or
    /// the zero values) is done: the target's lazy initialisation is paid
    /// for, and from here on every input gets the time limit. `ok` is
    /// false when the warm-up failed (returned failure, or was skipped):
    /// the first input then gets the warm-up's allowance.
    Warmed { ok: bool },
    /// Something the tool should say once (a target that forks, …).
    Warning { message: String },
    /// The result of `Run`.
    Ran {
        id: u64,
        outcome: Exec,
        features: Vec<u32>,
    },
    /// The result of `Fuzz`.
    Fuzzed {
        id: u64,
        execs: u64,
        found: Option<Found>,
        /// Entries of the worker's copy of the corpus that a shorter input
        /// took the place of during the slice (`Search::reduce_inputs`).
        #[serde(default)]
        reduced: u64,
    },
    /// The result of `Minimize`: the smallest entry that kept the property.
    Minimized { id: u64, entry: String, execs: u64 },
    /// Sent while minimizing, when the entry shrank (at most a few times a
    /// second): the smallest so far, so that an interrupted minimization
    /// still leaves its best.
    Progress {
        id: u64,
        entry: String,
        execs: u64,
        size: usize,
    },
    /// The result of `Check`.
    Checked { id: u64, outcome: Checked },
    /// A request the worker could not serve (a malformed entry, …).
    Error { id: u64, message: String },
    /// Written by the worker's crash handler before its crash report (a
    /// backtrace to symbolize, which takes a while): the input in shared
    /// memory crashed the target, and the worker is dying of it. The
    /// coordinator may save that input at once; the report comes with the
    /// worker's death.
    Crashing,
}

/// [`Response::Crashing`] as a line, for a signal handler, which cannot
/// build one.
pub const CRASHING_LINE: &str = "{\"op\":\"crashing\"}\n";

/// How one execution ended, when the worker survived it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Exec {
    Ok,
    Rejected,
    Failed { message: String },
}

/// How an input ran in a forked child.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Checked {
    /// Passed; `features` is the coverage it reached.
    Ok {
        features: Vec<u32>,
    },
    Rejected,
    /// A typed target's failure return.
    Failed {
        message: String,
        site: String,
    },
    /// The child died (signal, sanitizer, exit) or hung.
    Died {
        kind: DeathKind,
        site: String,
        report: String,
    },
}

impl Checked {
    /// The site of a failing outcome; `None` when the input passed.
    pub fn failure_site(&self) -> Option<&str> {
        match self {
            Checked::Ok { .. } | Checked::Rejected => None,
            Checked::Failed { site, .. } | Checked::Died { site, .. } => Some(site),
        }
    }

    /// Whether the child died of SIGTERM, SIGINT or SIGHUP that it did not
    /// send itself: maybe a stop (see [`crate::worker::crash::maybe_a_stop`]).
    pub fn by_a_stop_signal(&self) -> bool {
        matches!(self, Checked::Died { kind, report, .. }
            if crate::worker::crash::maybe_a_stop(kind, report))
    }
}

/// Something a fuzzing slice found.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Found {
    /// An input that reached features the worker had not seen.
    NewCoverage { entry: String, features: Vec<u32> },
    /// An input the target failed on (a typed target's failure return).
    Failure { entry: String, message: String },
}

/// One message as a line, ready to write.
pub fn to_line<T: Serialize>(msg: &T) -> String {
    let mut s = serde_json::to_string(msg).expect("protocol messages always serialize");
    s.push('\n');
    s
}

/// Parses one line.
pub fn from_line<'a, T: Deserialize<'a>>(line: &'a str) -> Result<T, String> {
    serde_json::from_str(line.trim_end()).map_err(|e| format!("protocol error: {e}: {line:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crash_handler_s_line_is_crashing() {
        assert_eq!(to_line(&Response::Crashing), CRASHING_LINE);
        assert_eq!(from_line::<Response>(CRASHING_LINE), Ok(Response::Crashing));
    }

    #[test]
    fn round_trip() {
        let r = Request::Fuzz {
            known_crashes: vec![0xfeed],
            id: 3,
            entry: "go test fuzz v1\n[]byte(\"\\xff\")\n".into(),
            seed: 9,
            max_execs: None,
            millis: Some(100),
            max_len: 4096,
            add_coverage: vec![8, 17],
            use_cmp: true,
            corpus: vec!["go test fuzz v1\n[]byte(\"a\")\n".into()],
            search: Search {
                entropic: true,
                len_control: 100,
                auto_dict: true,
                code_strings: true,
                utf8: true,
                lines: true,
                fields: true,
                ascii_num: true,
                size_weight: true,
                ..Search::GO
            },
        };
        let line = to_line(&r);
        assert!(line.ends_with('\n') && !line[..line.len() - 1].contains('\n'));
        assert_eq!(from_line::<Request>(&line).unwrap(), r);
        let a = Response::Fuzzed {
            id: 3,
            execs: 1000,
            found: Some(Found::Failure {
                entry: "e".into(),
                message: "boom\nline 2".into(),
            }),
            reduced: 7,
        };
        assert_eq!(from_line::<Response>(&to_line(&a)).unwrap(), a);
        assert!(from_line::<Response>("{\"op\":\"nope\"}").is_err());
        let hello = Response::Hello {
            version: VERSION,
            target: TargetDesc {
                name: "FuzzRecord".into(),
                kind: TargetKind::Typed,
                args: vec![ArgType::String, ArgType::Int64, ArgType::Bytes],
            },
            counters: 12,
        };
        let line = to_line(&hello);
        assert!(
            line.contains(r#""kind":"typed","args":["string","int64","[]byte"]"#),
            "{line}"
        );
        assert_eq!(from_line::<Response>(&line).unwrap(), hello);
        let died = Response::Checked {
            id: 1,
            outcome: Checked::Died {
                kind: DeathKind::OutOfMemory { rss_mb: 3000 },
                site: "s".into(),
                report: String::new(),
            },
        };
        assert_eq!(from_line::<Response>(&to_line(&died)).unwrap(), died);
    }

    #[test]
    fn listed_lines_and_builds() {
        let line = r#"{"name":"FuzzRecord","kind":"typed","symbol":"FuzzRecord","args":["string","int64","[]byte"],"trace_cmp":true}"#;
        let l: Listed = serde_json::from_str(line).unwrap();
        assert_eq!(l.name, "FuzzRecord");
        assert_eq!(l.kind, TargetKind::Typed);
        assert!(l.trace_cmp && l.mutators.is_empty());
        assert!(serde_json::from_str::<Listed>(
            r#"{"name":"x","kind":"typed","symbol":"x","args":["nope"]}"#
        )
        .is_err());
        assert!(serde_json::from_str::<Listed>(
            r#"{"name":"x","kind":"other","symbol":"x","args":[]}"#
        )
        .is_err());
        let t = |name: &str, kind, args: Vec<ArgType>| TargetDesc {
            name: name.into(),
            kind,
            args,
        };
        let lf = t("png", TargetKind::LibFuzzer, vec![ArgType::Bytes]);
        let other_lf = t("png_cmp", TargetKind::LibFuzzer, vec![ArgType::Bytes]);
        let a = t("FuzzA", TargetKind::Typed, vec![ArgType::Int]);
        let a_bytes = t("FuzzA", TargetKind::Typed, vec![ArgType::Bytes]);
        assert!(
            lf.same_target(&other_lf),
            "libFuzzer entries pair whatever their names"
        );
        assert!(!a.same_target(&lf));
        assert_eq!(
            build_of(&[a.clone(), other_lf.clone()], &lf).unwrap(),
            &other_lf
        );
        assert!(build_of(&[a_bytes], &a)
            .unwrap_err()
            .contains("takes ([]byte), not (int)"));
        assert!(build_of(&[lf], &a)
            .unwrap_err()
            .contains("no build of FuzzA"));
    }
}
