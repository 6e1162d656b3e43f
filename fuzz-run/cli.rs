//! The flags of `fuzz-run`, the coordinator.

use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-run",
    version,
    about = "Replay a target library's seed corpus, or fuzz one of its targets (go test -fuzz for shared objects)",
    long_about = "Without -fuzz, fuzz-run works like plain `go test`: every target of LIB replays its seed corpus (testdata/fuzz/<Target>/) and the result is reported per target. With -fuzz REGEXP it fuzzes the one target the expression matches, with -parallel worker processes, until -fuzztime runs out or a failure is found; the failing input is minimized and written to testdata/fuzz/<Target>/.\n\nThe fuzzing engine is not built yet: this release parses the flags and answers -help and -version."
)]
pub struct Cli {
    /// The target library (a coverage-instrumented shared object).
    #[arg(value_name = "LIB.so")]
    pub lib: PathBuf,

    /// Fuzz the target whose name matches this regular expression (exactly one must match).
    #[arg(long = "fuzz", value_name = "REGEXP")]
    pub fuzz: Option<String>,

    /// Replay only the targets matching REGEXP, or one entry with Target/NAME.
    #[arg(long = "run", value_name = "REGEXP")]
    pub run: Option<String>,

    /// How long to fuzz: a duration (10s, 1h30m) or a count of executions (1000x). Default: until stopped.
    #[arg(long = "fuzztime", value_name = "D|Nx", value_parser = fuzz_core::duration::Limit::parse)]
    pub fuzztime: Option<fuzz_core::duration::Limit>,

    /// Time (or count, Nx) allowed to minimize each failing or new input.
    #[arg(long = "fuzzminimizetime", value_name = "D|Nx", default_value = "60s", value_parser = fuzz_core::duration::Limit::parse)]
    pub fuzzminimizetime: fuzz_core::duration::Limit,

    /// Number of worker processes. Default: the number of CPUs.
    #[arg(long = "parallel", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub parallel: Option<u32>,

    /// Keep fuzzing after a failure, recording one crasher per crash site.
    #[arg(long = "keepfuzzing")]
    pub keepfuzzing: bool,

    /// Directory of the generated corpus cache (default: $FUZZCACHE, $XDG_CACHE_HOME/fuzz or ~/.cache/fuzz).
    #[arg(long = "fuzzcachedir", value_name = "DIR")]
    pub fuzzcachedir: Option<PathBuf>,

    /// Directory holding fuzz/<Target>/ seed corpora.
    #[arg(long = "testdata", value_name = "DIR", default_value = "testdata")]
    pub testdata: PathBuf,

    /// Time one input may run before it counts as a hang.
    #[arg(long = "timeout", value_name = "D", default_value = "10s", value_parser = fuzz_core::duration::parse)]
    pub timeout: std::time::Duration,

    /// Memory limit of a worker in MiB; exceeding it is a finding.
    #[arg(long = "rss_limit_mb", value_name = "MB", default_value_t = 2048)]
    pub rss_limit_mb: u64,

    /// Largest []byte or string argument the mutator makes, in bytes.
    #[arg(long = "max_len", value_name = "N", default_value_t = 4096)]
    pub max_len: usize,

    /// Seed of the random generator, for a reproducible run.
    #[arg(long = "seed", value_name = "N")]
    pub seed: Option<u64>,

    /// Print a line per corpus entry in regression mode.
    #[arg(long = "v")]
    pub verbose: bool,

    /// Print events as JSON lines on stdout.
    #[arg(long = "json")]
    pub json: bool,
}

pub const MAN: crate::man::Extra = crate::man::Extra {
    sections: &[
        ("EXIT STATUS", crate::man::EXIT_STATUS),
        (
            "FILES",
            "testdata/fuzz/<Target>/ :: The seed corpus of a target: every file is a \"go test fuzz v1\" file (see fuzz-convert(1)). Failing inputs are written here, named by the first 16 hex digits of the SHA-256 of their bytes.

<cache>/<library id>/<Target>/ :: The generated corpus, where <library id> is the library's name and the first 16 hex digits of the SHA-256 of its canonical path. See fuzz-clean(1) for where <cache> is and how to trim it.",
        ),
        (
            "ENVIRONMENT",
            "FUZZCACHE :: The corpus cache directory, unless -fuzzcachedir is given.

XDG_CACHE_HOME, HOME :: Without FUZZCACHE, the cache is $XDG_CACHE_HOME/fuzz, else $HOME/.cache/fuzz.

FUZZ_WORKER :: The fuzz-worker executable to start; by default the one beside fuzz-run, else the one on PATH.",
        ),
        (
            "EXAMPLES",
            "Replay every seed corpus of a library, as go test does:

    fuzz-run ./libparse.so

Fuzz the target FuzzParse for ten minutes with two workers:

    fuzz-run -fuzz '^FuzzParse$' -fuzztime 10m -parallel 2 ./libparse.so",
        ),
    ],
};
