//! The flags of `fuzz-run`, the coordinator.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use clap::Parser;
use fuzz_core::worker::protocol::parse_flag01;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-run",
    version,
    about = "Replay a target library's seed corpus, or fuzz its targets (go test -fuzz for shared \
        objects)",
    long_about = "Without -fuzz, fuzz-run works like plain `go test`: every target of LIB replays \
        its seed corpus, the files in <testdata>/fuzz/<Target>/ (every regular file whatever its \
        name, in name order; subdirectories are ignored), and the results are reported on standard \
        output in go test's format (see OUTPUT in fuzz-run(1)). -run REGEXP selects targets and \
        -run Target/NAME single entries, as go test -run does: the pattern is split on '/', the \
        first part matches target names and the second seed file names, both unanchored. -v prints \
        a line per entry, -json one JSON object per entry and per target.\n\n\
        Every seed file must be a \"go test fuzz v1\" file holding the target's argument types \
        ([]byte for a libFuzzer entry point; fuzz-convert import makes such files from raw ones). \
        As in Go, one malformed file or one of the wrong types fails its whole target: every bad \
        file is listed as file:line: reason and none of that target's entries runs. A target \
        without a seed corpus passes. The entries of each target run in one fuzz-worker process \
        under -timeout and -rss_limit_mb; a crash, a hang or a memory blow-up fails its entry and \
        the others still run.\n\n\
        LIB may be a Rust crate's directory (fuzz-build builds its library first, see \
        fuzz-build(1); its seed corpus is <DIR>/testdata/fuzz/<Target>/ and the workers run in \
        the crate's directory), or a Go package's directory (fuzz-run -fuzz FuzzParse . in the \
        package): fuzz-build builds its fuzz tests into a library first, the seed corpus \
        is the package's own testdata/fuzz/<FuzzXxx>/ after each fuzz test's f.Add values \
        (seed#0, seed#1, ...), the workers run in the package's directory, as go test runs tests, \
        and a failure's re-run line is go test's own. A fuzz test whose set-up fails (f.Fatal \
        before f.Fuzz, a second f.Fuzz) fails before any input, as under go test; one that skips \
        passes and is not fuzzed.\n\n\
        Exit status 0 when every entry passes, 1 when any fails, crashes or hangs or any seed file \
        is bad, 2 on misuse: a library that cannot be loaded, an invalid regular expression, -run \
        matching no target (or, with Target/NAME, no entry).\n\n\
        With -fuzz REGEXP, fuzz-run fuzzes the target the expression matches (none: exit 2 naming \
        the targets there are; several take turns, see SEVERAL TARGETS in fuzz-run(1)). It loads \
        the seed corpus and the generated corpus (the cache; see FILES), starts -parallel \
        fuzz-worker processes, runs every entry once for baseline coverage (an empty corpus starts \
        from the zero values), then lets the workers mutate: Go's mutator, plus what Go lacks \
        (each switched with its flag): comparison operands written into inputs (-use_cmp; -cmp_lib \
        takes them from a second build with trace-cmp, so that LIB can be built without it and run \
        faster), an automatic dictionary of the operands that paid off and of the wide constants \
        in the target's code (-auto_dict), the string constants the code hands over with their \
        length (-code_strings 1, off by default), dictionary words (-dict), whole UTF-8 characters \
        written into text (-utf8 1, off by default), whole lines moved in text (-lines 1, off by \
        default), whole fields of lists moved (-fields 1, off by default), numbers written as \
        text changed as numbers (-ascii_num 1, off by default), each comparison's outcome \
        counted as coverage (-cmp_outcomes 1, off by default), several mutations stacked on each \
        input (-stack 1, off by default), parents chosen by the rarity of the coverage they reach \
        instead of round-robin (-entropic), two entries spliced into one (-cross_over), \
        and inputs that grow by small steps (-len_control). An input that reaches new coverage is \
        minimized (for at most 1 s, and in all for at most a tenth of the executions, beyond which \
        inputs are kept as found) and written to the cache; a failure is minimized within \
        -fuzzminimizetime, written to testdata/fuzz/<Target>/ and reported like go test's (see \
        FUZZING OUTPUT), exit 1. A worker that crashes, hangs past -timeout or passes \
        -rss_limit_mb is a finding too: the exact input is read from the memory it shares with \
        fuzz-run, a crash is minimized keeping its crash site (each candidate in a forked child), \
        and the worker is replaced. With -keepfuzzing, one crasher per crash site is kept and \
        fuzzing goes on. Progress goes to standard error every 3 seconds in Go's words. Ctrl-C \
        stops the workers and exits 0, or 1 when a crasher was saved (a failure being minimized is \
        saved as it stands); so do SIGTERM and SIGHUP, and a worker that dies of one of the three \
        within a second of fuzz-run's own (a scheduler stopping a job, as Slurm's scancel, signals \
        every process of it) is a stop, not a finding.\n\n\
        The flags that only concern fuzzing (-fuzztime, -fuzzminimizetime, -parallel, \
        -vary_workers, -keepfuzzing, -fuzzcachedir, -max_len, -dict, -cmp_lib, -use_cmp, \
        -cmp_outcomes, -seed, -sync, -sync_id, -sync_interval, and the Search switches) are \
        ignored without it."
)]
pub struct Cli {
    /// The target library (a coverage-instrumented shared object), or a Go package's or a Rust
    /// crate's directory, which fuzz-build builds into one (its seed corpus: <DIR>/testdata/fuzz/).
    #[arg(value_name = "LIB.so|DIR")]
    pub lib: PathBuf,

    /// The Go package LIB.so was built from, when a directory was given (set by main).
    #[arg(skip)]
    pub package: Option<fuzz_cli::package::Package>,

    /// Fuzz the target whose name matches this regular expression; several matching take turns.
    #[arg(long = "fuzz", value_name = "REGEXP")]
    pub fuzz: Option<String>,

    /// Replay only the targets matching REGEXP, or one entry with Target/NAME.
    #[arg(long = "run", value_name = "REGEXP")]
    pub run: Option<String>,

    /// How long to fuzz: a duration (10s, 1h30m) or a count of executions (1000x). Default: until
    /// stopped.
    #[arg(long = "fuzztime", value_name = "D|Nx", value_parser = fuzz_core::duration::Limit::parse)]
    pub fuzztime: Option<fuzz_core::duration::Limit>,

    /// Time (or count, Nx) allowed to minimize each failing or new input.
    #[arg(
        long = "fuzzminimizetime",
        value_name = "D|Nx",
        default_value = "60s",
        value_parser = fuzz_core::duration::Limit::parse
    )]
    pub fuzzminimizetime: fuzz_core::duration::Limit,

    /// Number of worker processes. Default: the number of CPUs.
    #[arg(long = "parallel", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub parallel: Option<u32>,

    /// With -parallel 2 or more, let the workers search differently (1): every second worker
    /// (the second, fourth, ...) runs with the text switches -fields 1 and -code_strings 1 on top
    /// of the other Search flags, as AFL++'s secondary instances run other schedules, so that the
    /// workers find different things and hand them to each other; or run every worker alike (0,
    /// the default).
    #[arg(
        long = "vary_workers",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    )]
    pub vary_workers: bool,

    /// Keep fuzzing after a failure (a failing seed too), recording one crasher per crash site.
    #[arg(long = "keepfuzzing")]
    pub keepfuzzing: bool,

    /// Directory of the generated corpus cache (default: $FUZZCACHE, $XDG_CACHE_HOME/fuzz or
    /// ~/.cache/fuzz); a relative path is resolved against the working directory.
    #[arg(long = "fuzzcachedir", value_name = "DIR")]
    pub fuzzcachedir: Option<PathBuf>,

    /// Directory holding fuzz/<Target>/ seed corpora. Given, it must be a directory, and one that
    /// exists in regression mode (fuzzing creates it); the default may be missing.
    #[arg(long = "testdata", value_name = "DIR", default_value = "testdata")]
    pub testdata: PathBuf,

    #[command(flatten)]
    pub limits: fuzz_cli::limits::Limits,

    /// Largest []byte or string argument the mutator makes, in bytes.
    #[arg(long = "max_len", value_name = "N", default_value_t = 4096)]
    pub max_len: usize,

    /// A dictionary (AFL/libFuzzer format: one "word" or name="word" per line, \xNN escapes) whose
    /// words the mutator writes into inputs.
    #[arg(long = "dict", value_name = "FILE")]
    pub dict: Option<PathBuf>,

    /// A second build of LIB, with comparison tracing (trace-cmp), run only for the operands of the
    /// comparisons its targets make: about one input in twenty runs through it, so that LIB itself
    /// can be built without trace-cmp and run at full speed, as AFL++'s CmpLog binary (-c) is used.
    /// Its libFuzzer entry stands for LIB's, its typed targets for the ones of the same name and
    /// types.
    #[arg(long = "cmp_lib", value_name = "FILE")]
    pub cmp_lib: Option<PathBuf>,

    /// Use the operands of the comparisons the target makes to guide mutation (1, the default) or
    /// not (0): where one operand is in the input (as bytes in either byte order, or as the decimal
    /// digits of a number the target read from text), the other is written there.
    #[arg(
        long = "use_cmp",
        value_name = "0|1",
        default_value = "1",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    )]
    pub use_cmp: bool,

    /// Count the outcome of each comparison the target makes (equal, below, above) as coverage of
    /// its own (1), or not (0, the default): an input that decides a comparison another way than
    /// the corpus ever did is kept even when no edge tells it (a result stored, or fed to a select
    /// or to arithmetic), as AFL++ counts such hidden decisions as edges. Needs LIB built with
    /// trace-cmp (with -cmp_lib, LIB has none and nothing is counted). The corpus grows; the edges
    /// shown stay the counters' alone.
    #[arg(
        long = "cmp_outcomes",
        value_name = "0|1",
        default_value = "0",
        value_parser = parse_flag01,
        action = clap::ArgAction::Set
    )]
    pub cmp_outcomes: bool,

    /// The switches of the search beyond Go's (fuzz_core::worker::protocol::Search).
    #[command(flatten)]
    pub search: fuzz_core::worker::protocol::Search,

    /// Seed of the random generator, for a reproducible run.
    #[arg(long = "seed", value_name = "N")]
    pub seed: Option<u64>,

    /// Share the corpus with other fuzz-run instances through DIR, a directory they all see (see
    /// SYNC in fuzz-run(1)): every entry this instance adds is published there, and every
    /// -sync_interval what the others published is run once and kept if it adds coverage here.
    #[arg(long = "sync", value_name = "DIR")]
    pub sync: Option<PathBuf>,

    /// This instance's name in the -sync directory (letters, digits, '.', '_', '-'); an instance
    /// restarted with the same name resumes where it stopped. Default: the host name and the
    /// process id. A Slurm array task passes $SLURM_ARRAY_TASK_ID.
    #[arg(long = "sync_id", value_name = "NAME")]
    pub sync_id: Option<String>,

    /// How often to import what the other instances published, and to update this instance's
    /// status. The first rounds come sooner, while coverage comes fast: 1 s after the start, then
    /// 2 s, 4 s, ... until the gap reaches D.
    #[arg(
        long = "sync_interval",
        value_name = "D",
        default_value = "30s",
        value_parser = parse_interval
    )]
    pub sync_interval: std::time::Duration,

    /// Print a line per corpus entry in regression mode.
    #[arg(long = "v")]
    pub verbose: bool,

    /// Print events as JSON lines on stdout.
    #[arg(long = "json")]
    pub json: bool,
}

impl Cli {
    /// `-fuzztime`, where 0 means until stopped, as in Go.
    pub fn fuzz_limit(&self) -> Option<fuzz_core::duration::Limit> {
        self.fuzztime
            .filter(|l| *l != fuzz_core::duration::Limit::Time(std::time::Duration::ZERO))
    }
}

/// `-sync_interval`: a positive duration.
impl Cli {
    /// True when -fuzz asks for fuzzing: as in Go, `-fuzz ''` fuzzes
    /// nothing, a regression run.
    pub fn fuzzing(&self) -> bool {
        self.fuzz.as_deref().is_some_and(|p| !p.is_empty())
    }

    /// The library as reports name it: the Go package's directory as given
    /// when it was built from one, else the library's path.
    pub fn lib_shown(&self) -> &std::path::Path {
        self.package.as_ref().map_or(&self.lib, |p| &p.operand)
    }

    /// A -testdata given on the command line must be a directory, and in
    /// regression mode one that exists: a mistyped path would otherwise
    /// pass with no seed corpus at all. Fuzzing may create it. The default,
    /// `testdata`, may be missing, as in Go.
    pub fn check_testdata(&self, matches: &clap::ArgMatches) -> Result<(), fuzz_cli::CliError> {
        if matches.value_source("testdata") != Some(clap::parser::ValueSource::CommandLine) {
            return Ok(());
        }
        let why = match std::fs::metadata(&self.testdata) {
            Ok(m) if m.is_dir() => return Ok(()),
            Ok(_) => "not a directory".to_string(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if self.fuzzing() {
                    return Ok(());
                }
                "no such directory (a regression run reads the seed corpus from it)".to_string()
            }
            Err(e) => fuzz_core::error::describe(&e),
        };
        Err(fuzz_cli::CliError::misuse(format!(
            "{}: {why} (-testdata)",
            self.testdata.display()
        )))
    }
}

fn parse_interval(s: &str) -> Result<std::time::Duration, String> {
    match fuzz_core::duration::parse(s)? {
        d if d.is_zero() => Err(format!("{s:?}: want a positive duration (30s, 1m)")),
        d => Ok(d),
    }
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        (
            "LIMITS",
            concat!(
                fuzz_cli::man::limit!(timeout),
                "\n\n",
                fuzz_cli::man::limit!(rss),
                "\n\n",
                fuzz_cli::man::limit!(fuzztime),
                "\n\n",
                fuzz_cli::man::limit!(minimizetime),
                "\n\n",
                fuzz_cli::man::limit!(max_len)
            ),
        ),
        (
            "OUTPUT",
            "In regression mode (no -fuzz), results go to standard output in the shape of plain go
test's, and only errors and warnings to standard error. A failing target looks like this:

    --- FAIL: FuzzRecord (0.01s)
        --- FAIL: FuzzRecord/3f2a9c0d11e4b5a6 (0.00s)
            record \"ab\" with count 3 has a bang payload (1 bytes)
            thread '<unnamed>' panicked at src/lib.rs:26:29:
        To re-run: fuzz-run -run FuzzRecord/3f2a9c0d11e4b5a6 ./librecord.so
    FAIL
    FAIL    ./librecord.so  0.123s

--- FAIL: Target (T) :: A target that failed, with the time it took. Under it, one block per
failing entry: --- FAIL: Target/NAME, then what went wrong indented by eight spaces, then the
command that re-runs just that entry (with the -testdata, -timeout and -rss_limit_mb given, when
they are not the defaults). Entries' own times are not measured: they show 0.00s, except a hang,
which shows the timeout.

What went wrong :: For a typed target that returned failure, its message (what it wrote to standard
error while running the entry; a Rust panic's message and location). For a crash, a first line
naming it (crashed: SIGSEGV, asan: heap-buffer-overflow, stack overflow, timed out after 1s, out of
memory (N MiB resident), exited with status N (the target called exit)), then what the target wrote
and the symbolized backtrace, up to its last 400 lines.

Malformed seed files :: A target whose seed corpus holds a file that is not a valid v1 file, or
whose values are not of the target's types, fails without running anything: --- FAIL: Target
(0.00s), then one line per bad file, indented by four spaces, as file:line: reason (file: reason
for a type mismatch, which names the types found and wanted).

-v :: Also lists what passes, as go test -v lists subtests: a line when each target and each of its
entries starts, then the target's result with one line per entry under it. An entry the target
rejected (it returned -1, Go's t.Skip) is a SKIP, which passes:

    === RUN   FuzzFlags
    === RUN   FuzzFlags/0a1b2c3d4e5f6a7b
    === RUN   FuzzFlags/empty
    --- PASS: FuzzFlags (0.01s)
        --- PASS: FuzzFlags/0a1b2c3d4e5f6a7b (0.00s)
        --- SKIP: FuzzFlags/empty (0.00s)
            rejected: the target returned -1
    PASS
    ok      ./librecord.so  0.045s

Last line :: When everything passed, ok, two spaces, a tab, LIB as given, a tab and the total time
(preceded by a PASS line under -v); else a line FAIL, then FAIL, a tab, LIB, a tab and the time.

-json :: Replaces all of the above with one JSON object per line. Per entry, once its target has
run: event \"entry\", target, entry (the file name), file (its path), outcome (\"pass\", \"skip\"
or \"fail\"), result (fuzz-worker's outcome: ok, rejected, failed, crashed, stack-overflow,
timeout, oom, exit, or lost when the worker ended without reporting the entry), the worker's kind,
message, report, exit_code, timeout_ms and rss_mb where they apply, and rerun (the re-run command)
for a failure. Per target, after its entries: event \"target\", target, outcome (\"pass\" or
\"fail\"), elapsed (seconds), entries, passed, skipped, failed, and malformed (the file:line:
reason lines of its bad seed files; when there are any, no entry ran). Then: event \"end\", lib,
outcome (\"ok\", \"fail\" or \"stopped\"), elapsed, targets, failed (the number of failed
targets). Last, in every mode and however the run ended: event \"exit\", outcome (\"ok\",
\"fail\", \"stopped\" or \"misuse\"), exit_code (the tool's exit status), elapsed, and message
when the run ended in an error.",
        ),
        (
            "FUZZING OUTPUT",
            "Standard error, as go test -fuzz prints it:

    warning: starting with empty corpus
    fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed
    fuzz: elapsed: 0s, gathering baseline coverage: 3/3 completed, now fuzzing with 2 workers
    fuzz: elapsed: 3s, execs: 120934 (40311/sec), new interesting: 12 (total: 15), coverage: 85 \
edges (240 features)
    fuzz: minimizing 57-byte failing input file
    fuzz: done: elapsed 3.2s, execs 131020 (40943/sec), corpus 15 (12 new), coverage 85 edges \
(240 features), crashers 1; stopped: finding

The progress line keeps Go's fields in Go's order and appends the coverage (edges: coverage counters
reached; features: counters and hit-count buckets, and comparison outcomes with -cmp_outcomes 1)
and, once there are any, \", crashers: N\". With an empty corpus, Go's baseline lines are replaced
by \"now fuzzing with N workers\". Every target's run ends with the \"fuzz: done\" line: how long it
was fuzzed, executions and their rate, the corpus, the coverage, the crashers saved and why it
stopped: time (its -fuzztime), finding, or interrupted (Ctrl-C, SIGTERM, SIGHUP). No line is said
twice.

A failure, on standard output:

    --- FAIL: FuzzRecord (0.22s)
        record \"ab\" with count 3 has a bang payload (1 bytes)
        thread '<unnamed>' panicked at src/lib.rs:26:29:
        Failing input written to testdata/fuzz/FuzzRecord/e753fdb25b331bdc
        To re-run:
        fuzz-run -run FuzzRecord/e753fdb25b331bdc ./librecord.so
    FAIL
    FAIL    ./librecord.so  0.223s

A worker's death reads \"fuzzing process crashed: SIGSEGV\" (or asan: heap-buffer-overflow, stack
overflow, SIGABRT (Rust panic)), \"fuzzing process hung: an input ran longer than 10s (-timeout)\",
\"fuzzing process ran out of memory (…)\" or \"fuzzing process exited unexpectedly: exit status
3\", followed by the target's report with a symbolized backtrace. A failure at a crash site not
seen before in the run is run once more in a fresh process before it is minimized; one that passes
is still saved and reported (exit 1), with the line \"It did not fail again when re-run in a fresh
process\" and why that may be (a leak, state left behind by earlier inputs, a signal from another
process such as the kernel's OOM killer). A hang is not run again: that would cost another
-timeout. A death inside the target's own
custom mutator reads \"the target's custom mutator crashed: SIGSEGV\" (or hung, exited), then the
call: which function, on the recorded input, with its max_size and seed (see CUSTOM MUTATORS); its
kind in -json is \"custom mutator: SIGSEGV\" and so on. A seed that fails during baseline is
reported with \"failure while testing seed corpus entry: Target/NAME\" and is not written again;
it stops the target, but under -keepfuzzing it is recorded as any failure is and fuzzing goes on. A
run that ends without failure prints PASS and ok, a tab, LIB and the time.

-json :: Replaces the standard output above with one JSON object per line, each with event, target
(the target's name) and elapsed (seconds since the run started): start; turn, only when several
targets take turns (workers, seconds: how long the turn may last, null for until the target is
done); baseline (entries, coverage: the number of coverage features the corpus reaches, workers);
progress, every 3 s (execs, execs_per_sec, new_interesting, total, coverage); new_input (path,
size: the bytes of its []byte and string arguments, file_size: the v1 file's, new_features,
coverage); failure (kind, message, report, path: the crasher written or null for a failing seed
or one that could not be written, site: the crash site, seed_entry, reproducible: whether it failed
again when run once more, null when it was not run again, minimization_cut_short: true when the
run stopped while it was minimized (the input is not minimal); and when the crasher could not be
written: write_error, input: the v1 text when at most 1 MiB, input_size, input_sha256, kept_at:
where it was written instead, <cache>/<library id>/crashers/<Target>/ or else a new directory of the
system's temporary one, null when nowhere); end (execs,
new_interesting, coverage, edges, corpus, failures, fuzzed_seconds, execs_per_sec, stopped: time,
finding or interrupted, interrupted). A target whose seed corpus is malformed has only a failure
event (kind \"malformed seed corpus\"). Last of all, once per run: event \"exit\" (see OUTPUT).
Progress lines still go to standard error, but for the summary line, which the end event
replaces.

The input first :: A failing input is written to testdata/fuzz/<Target>/ as soon as it is found,
before it is run again or minimized; the minimized input then takes its place. A run killed while
minimizing leaves the input as found. If it cannot be written (a full disk, a read-only directory),
the report on standard output says why and holds the input as a v1 file's text (above 1 MiB: its
size and SHA-256), and the exit status is still 1. A cache that cannot be written is one warning;
fuzzing goes on, the new inputs kept for this run.

Crash site :: What tells bugs apart: the failure's kind and, for a Rust panic, its first \"panicked
at FILE:LINE:COL\" location outside Rust's standard library; else the top three frames inside the
target library (as module + offset), passing over the frames of Rust's standard library, the panic
machinery and sanitizer runtimes; a death with no such frame (exit N, a signal from outside, out of
memory) is its kind and status alone. For a typed target's failure: where a Rust panic happened,
else one site. -keepfuzzing keeps one crasher per site; minimization keeps the site, so a shrink
never turns one bug into another.

Reproducible runs :: With -seed N and -parallel 1 on a deterministic target, a run with -fuzztime
Nx makes the same inputs, the same corpus and the same counts every time: work is handed out in
slices of executions, not of time.",
        ),
        (
            "SEVERAL TARGETS",
            "When -fuzz matches several targets (Go refuses to), they take turns: during a turn,
all -parallel workers serve one target; when the turn is over they stop, and the next target's
workers start. Each target keeps its own corpus, coverage, cache directory, crash sites and counts
for the whole run; its baseline runs once, on its first turn, and the fresh workers of a later turn
are given its coverage and corpus instead. The targets take turns in the library's order,
round-robin, so that each gets time early; a turn lasts at most 10 s, and hands over once the work
in flight is done (a failure being minimized is finished first).

-fuzztime D :: The run takes D: each of the k targets has D/k, in turns. A target that stops early
leaves its time to the others.

-fuzztime Nx :: N executions for each target, the work it would get alone. With -seed, each target
has a single turn, one after the other, so that each target's run is the reproducible run it would
be alone.

No -fuzztime :: Turns of 10 s until Ctrl-C.

A failure stops its target only (under -keepfuzzing, not even that): it is written and reported as
above, and the other targets keep their turns; the exit status is then 1. A malformed seed corpus,
or a failing seed without -keepfuzzing, fails its target the same way. Ctrl-C stops the run: every
target ends where it stands (a failure being minimized is saved as it stands), exit 0, or 1 when any
crasher was saved.

Standard error starts with a line naming the targets and how they share the run, each turn starts
with a line, and every line about a target ends with its name in brackets:

    fuzz: fuzzing 2 targets, 30s each, in turns of up to 10s: FuzzFlags, FuzzRecord
    fuzz: elapsed: 0s, turn of up to 10s with 2 workers [FuzzFlags]
    fuzz: elapsed: 0s, gathering baseline coverage: 0/4 completed [FuzzFlags]
    fuzz: elapsed: 3s, execs: 120934 (40311/sec), new interesting: 12 (total: 16) [FuzzFlags]
    fuzz: elapsed: 10s, turn of up to 10s with 2 workers [FuzzRecord]

The last line of a turn is its target's progress; the rate counts only the target's own turns. On
standard output, failures are reported as they are found; at the end, a --- PASS: Target (T) line
for each target without failure (T: the time its turns took), then PASS and ok, or FAIL and FAIL,
once for the run.",
        ),
        (
            "SYNC",
            "With -sync DIR, instances of fuzz-run share one corpus through a directory they all
see: a local one, NFS, CephFS, Lustre, a Kubernetes ReadWriteMany volume. There is no daemon, no
network protocol and no scheduler of ours: the instances are started by yours (a Slurm job array, a
Kubernetes Indexed Job, a CI matrix; examples/ has one of each) and meet only through files, each
written whole and renamed into place. One DIR serves any number of targets and libraries.

Publishing :: Every input this instance adds to its corpus while fuzzing (one that reached new
coverage) is written to DIR/<Target>/ and a line naming it is appended to this instance's index.
The seed corpus and the cache an instance starts from are not: each instance reads its own.

Importing :: Once at the start, then 1 s, 2 s, 4 s, ... apart until the gap reaches -sync_interval,
then every -sync_interval, the instance reads what the other instances appended to their indexes
since its last round, runs each new entry once, and keeps it (in its corpus and cache) only if it
adds coverage here. A round reads only what was added: it
lists the instances, not the corpus, so its cost does not grow with DIR.

Crashers :: A crasher is written to testdata/fuzz/<Target>/ as without -sync, and to
DIR/crashers/<Target>/, with its report under DIR/.sync/reports/. With -keepfuzzing, the fleet keeps
one crasher per crash site: an instance that finds a site another has recorded already leaves no
file. A site is claimed only after its crasher is written, and a claim whose crasher is missing
counts for nothing, so a full disk at the wrong moment loses no finding: a crasher that cannot be
written to DIR is said every time, and stays in this instance's testdata/fuzz/. Without
-keepfuzzing, an instance stops at its first finding and the others go on. With it, only the
instance that records a site exits 1 for it: one that finds a recorded site ends as if it had not.

Instances :: -sync_id names this instance in DIR; one name is held by one running process at a time
(a second is refused, exit 2). An instance restarted with the same name (a Slurm task that is
requeued: pass $SLURM_ARRAY_TASK_ID) resumes from where it had read the others' indexes. Killed at
any moment, an instance leaves nothing torn: an index line always names a whole file, and a partial
last line is cut at its next start. A shared directory that fails now and then is a warning, not
the end of the run.

Status :: Each instance writes its status (id, host, pid, targets, executions, rate, coverage,
corpus, crashers, last update) under DIR/.sync/ at every round and at its end; a resumed instance
counts the executions and crashers of its earlier runs. fuzz-corpus status DIR shows one line per
instance and a total.

A shared directory :: DIR is a place many processes, often of several users, write, and no file in
it is trusted. Every file is opened from DIR's own descriptor, one directory at a time, without
following a symbolic link, and read only if it is a regular file, without blocking, and up to a
bound (an entry: four times -max_len and 64 KiB; an index: 1 MiB at a time, 16 MiB of each a
round). A FIFO, a device, a link or a file too large is passed over with one warning naming it;
nothing is read from outside DIR and nothing written there. Each kind of failure of DIR is warned
about once.

The layout of DIR:

    DIR/<Target>/                corpus entries, v1 files named by their SHA-256:
                                 a corpus directory go test and fuzz-corpus read
    DIR/crashers/<Target>/       the fleet's crashers
    DIR/.sync/instances/<id>/    an instance's index, cursor, status and lock
    DIR/.sync/reports/<Target>/  the crashers' reports
    DIR/.sync/sites/<Target>/    one file per crash site recorded
    DIR/.sync/tmp/<id>/          files being written

When the instances are done, fuzz-corpus merge -lib LIB.so -target T OUT DIR/T makes a minimal
corpus of the fleet's, and fuzz-corpus merge testdata/fuzz/T DIR/crashers/T collects its crashers
(examples/slurm/distill.sbatch does both for every target).",
        ),
        (
            "CUSTOM MUTATORS",
            "When the library exports custom mutators (libFuzzer's LLVMFuzzerCustomMutator and
LLVMFuzzerCustomCrossOver, or fuzz_mutate_NAME for a typed target's custom(NAME) arguments:
fuzz-worker(1) documents them), the workers use them to make inputs, seeding each call from the
run's own generator, so that a run with -seed stays reproducible. The seed and crasher files of a
target with custom arguments hold custom(\"NAME\", []byte(\"…\")) lines, which go test does not
read. A call of a custom mutator runs the target's code, and is watched as an execution is: a
mutator that crashes, hangs (-timeout) or blows -rss_limit_mb is a failure of the mutator, reported
with the function, the room (max_size) and the seed of the call, and written with the input it was
mutating (not minimized: the input alone does not fail). A cross-over's other input is named in the
report: the seed file that holds it, or a file written beside the crasher in
testdata/fuzz/<Target>/ (an entry of the generated corpus, which fuzz-clean may remove).",
        ),
        (
            "EXIT STATUS",
            fuzz_cli::man::exit_status!(
                "0 :: Success: every seed passed, or fuzzing ran for -fuzztime and found nothing (a
Ctrl-C that saved no crasher, too).

1 :: A finding: a crasher written to testdata/fuzz/<Target>/, a seed that fails, crashes or hangs,
a malformed seed file.

2 :: Misuse: a bad flag or value, no target matched, a -testdata that is not a directory (or, in
regression mode, does not exist), a library that cannot be loaded."
            ),
        ),
        (
            "FILES",
            "testdata/fuzz/<Target>/ :: The seed corpus of a target: every file is a \"go test fuzz
v1\" file (see fuzz-convert(1)). Failing inputs are written here, named by the first 16 hex digits
of the SHA-256 of their bytes.

<cache>/<library id>/<Target>/ :: The generated corpus, where <library id> is the library's name
and the first 16 hex digits of the SHA-256 of its canonical path. See fuzz-clean(1) for where
<cache> is and how to trim it.

<cache>/CACHEDIR.TAG :: Written when fuzz-run creates the cache directory (or finds it empty), so
that backup tools skip it and fuzz-clean knows it for a cache. A directory that already held other
files is not tagged, and fuzz-clean will refuse to clean it.",
        ),
        (
            "ENVIRONMENT",
            "FUZZCACHE :: The corpus cache directory, unless -fuzzcachedir is given.

XDG_CACHE_HOME, HOME :: Without FUZZCACHE, the cache is $XDG_CACHE_HOME/fuzz, else
$HOME/.cache/fuzz. A relative FUZZCACHE or HOME is resolved against the working directory; a
relative XDG_CACHE_HOME is ignored, as the XDG Base Directory specification says.

FUZZ_WORKER :: The fuzz-worker executable to start; by default the one beside fuzz-run, else the
one on PATH.",
        ),
        (
            "EXAMPLES",
            "Replay every seed corpus of a library, as go test does:

    fuzz-run ./libparse.so

Replay one target's corpus, showing every entry, then one entry:

    fuzz-run -v -run '^FuzzParse$' ./libparse.so
    fuzz-run -run FuzzParse/5be68f4bef781b36 ./libparse.so

Fuzz the target FuzzParse for ten minutes with two workers:

    fuzz-run -fuzz '^FuzzParse$' -fuzztime 10m -parallel 2 ./libparse.so

Fuzz every target of the library for an hour in all, taking turns:

    fuzz-run -fuzz . -fuzztime 1h ./libparse.so",
        ),
    ],
};
