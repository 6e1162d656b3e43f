//! The flags of `fuzz-minimize`.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-minimize",
    version,
    about = "Shrink an input that makes a target fail (or that adds coverage) to the smallest one \
        that still does",
    long_about = "fuzz-minimize shrinks INPUT against a target of LIB: it keeps failing (any \
        failure; with -same, at the same crash site), or with -coverage keeps every coverage \
        feature it reaches. The smallest input found is written to -o (default: stdout); sizes \
        before and after, the number of executions and progress go to stderr.\n\n\
        It uses Go's strategy (cut the tail, remove bytes, remove runs of bytes, make bytes \
        readable) on every string and []byte argument, and moves numbers towards zero. Go's step \
        that removes runs of bytes is quadratic; here it is bounded to O(n log n) on inputs above \
        128 bytes (golang/go#48820). Each candidate that must fail runs in a child process the \
        worker forks, so inputs that crash the process are minimized too. A crash site is the \
        failure's kind and the top three frames inside the target library (module + offset); for a \
        typed target's failure, where a Rust panic happened. Ctrl-C stops and writes the smallest \
        input so far."
)]
pub struct Cli {
    /// The target library.
    #[arg(value_name = "LIB.so")]
    pub lib: PathBuf,
    /// The input to shrink: a v1 file, or raw bytes with -raw; - reads stdin.
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The target, needed when the library has several, unless INPUT is in testdata/fuzz/<Target>/
    /// or in a cache directory <lib>-<16 hex>/<Target>/, which names it.
    #[arg(long = "target", value_name = "NAME")]
    pub target: Option<String>,
    /// Where to write the smallest input (default: stdout).
    #[arg(long = "o", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Read and write raw bytes instead of v1 files.
    #[arg(long = "raw")]
    pub raw: bool,
    /// Keep the coverage the input adds instead of its failure.
    #[arg(long = "coverage")]
    pub coverage: bool,
    /// Keep the same crash site, so a shrink never drifts to another bug.
    #[arg(long = "same")]
    pub same: bool,
    /// Time (or count, Nx) the minimization may take.
    #[arg(
        long = "fuzzminimizetime",
        value_name = "D|Nx",
        default_value = "60s",
        value_parser = fuzz_core::duration::Limit::parse
    )]
    pub fuzzminimizetime: fuzz_core::duration::Limit,
    #[command(flatten)]
    pub limits: fuzz_cli::limits::Limits,
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        (
            "LIMITS",
            concat!(
                fuzz_cli::man::limit!(minimizetime),
                "\n\n",
                fuzz_cli::man::limit!(timeout),
                "\n\n",
                fuzz_cli::man::limit!(rss)
            ),
        ),
        (
            "EXIT STATUS",
            fuzz_cli::man::exit_status!(
                "0 :: The smallest input found was written (also after a Ctrl-C).

1 :: The input does not fail (nothing to keep); with -coverage, it reaches no coverage.

2 :: Misuse: a bad flag or value, an input that cannot be read or parsed, an -o that cannot be
written (said before any work), a library that cannot be loaded."
            ),
        ),
        (
            "EXAMPLES",
            "Shrink a crasher and keep its crash site:

    fuzz-minimize ./libparse.so -target FuzzParse -same -o small crash.v1",
        ),
    ],
};
