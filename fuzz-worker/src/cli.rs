//! The flags of `fuzz-worker`, the in-process executor.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-worker",
    version,
    about = "Load a coverage-instrumented target library and run inputs through its targets, \
        in-process",
    long_about = "fuzz-worker loads a target library and executes its targets in-process. fuzz-run \
        starts it as a worker; people use it to list a library's targets and to run single \
        inputs.\n\n\
        It provides every SanitizerCoverage callback instrumented code references (inline 8-bit \
        counters and PC tables, trace-pc-guard, gcc's trace-pc, the trace-cmp family) and \
        interposes libc's memcmp, strcmp and friends, so comparisons reach the fuzzer. A library \
        built with -fsanitize=address -shared-libasan is run with the AddressSanitizer runtime \
        preloaded."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the targets of a library and their argument types.
    List {
        /// The target library.
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// Print one JSON object per target.
        #[arg(long = "json")]
        json: bool,
        /// Sanitizer runtime to preload (default: asked from clang-19).
        #[arg(long = "sanitizer-runtime", value_name = "PATH")]
        sanitizer_runtime: Option<PathBuf>,
    },
    /// Run inputs through a target, one by one, and report each.
    Run {
        /// The target library.
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// The target to run (needed when the library has several).
        #[arg(long = "target", value_name = "NAME")]
        target: Option<String>,
        #[command(flatten)]
        limits: fuzz_cli::limits::Limits,
        /// Inputs are raw bytes, not v1 files.
        #[arg(long = "raw")]
        raw: bool,
        /// Sanitizer runtime to preload (default: asked from clang-19).
        #[arg(long = "sanitizer-runtime", value_name = "PATH")]
        sanitizer_runtime: Option<PathBuf>,
        /// Also print how many coverage features each input reached, and a fingerprint of them.
        #[arg(long = "coverage")]
        coverage: bool,
        /// Print one JSON object per input instead of a line (see OUTPUT).
        #[arg(long = "json")]
        json: bool,
        /// Input files; - reads one input from stdin.
        #[arg(value_name = "INPUT", required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Serve a coordinator (fuzz-run starts workers this way): requests on
    /// one inherited pipe, answers on another, the input under test in a
    /// shared memory file.
    #[command(hide = true)]
    Serve(fuzz_core::worker::serve_args::ServeArgs),
    /// Print the PC table of a library (fuzz-corpus cover reads it): one
    /// line per basic block, with the counter number its coverage features
    /// carry, its module-relative address and its flags. A Go library's is
    /// found in its machine code.
    #[command(hide = true, name = "pc-table")]
    PcTable {
        /// The target library.
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// Sanitizer runtime to preload (default: asked from clang-19).
        #[arg(long = "sanitizer-runtime", value_name = "PATH")]
        sanitizer_runtime: Option<PathBuf>,
    },
    /// Measure the cost of one bare execution (reset counters, call, read counters), in-process.
    Bench {
        /// The target library.
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// The target to run (needed when the library has several).
        #[arg(long = "target", value_name = "NAME")]
        target: Option<String>,
        /// Number of executions (at least 1).
        #[arg(
            long = "n",
            value_name = "N",
            default_value_t = 100_000,
            value_parser = parse_count
        )]
        n: u64,
        /// The limits of the one run in a child that checks the input before the timing, as
        /// run runs it.
        #[command(flatten)]
        limits: fuzz_cli::limits::Limits,
        /// The input is raw bytes, not a v1 file.
        #[arg(long = "raw")]
        raw: bool,
        /// Sanitizer runtime to preload (default: asked from clang-19).
        #[arg(long = "sanitizer-runtime", value_name = "PATH")]
        sanitizer_runtime: Option<PathBuf>,
        /// Note comparison outcomes too, as fuzz-run -cmp_outcomes 1 does.
        #[arg(long = "cmp-outcomes")]
        cmp_outcomes: bool,
        /// The input to execute (default: the zero values of the target's arguments).
        #[arg(value_name = "INPUT")]
        input: Option<PathBuf>,
    },
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        (
            "LIMITS",
            concat!(
                fuzz_cli::man::limit!(timeout),
                "\n\n",
                fuzz_cli::man::limit!(rss)
            ),
        ),
        (
            "OUTPUT",
            "list prints one line per target: its name, a tab, and its argument types (\"[]byte\"
for a libFuzzer entry point). With -json, one object per line with the fields name, kind
(\"libfuzzer\" or \"typed\"), symbol, args and trace_cmp (true when the library calls the trace-cmp
callbacks: its comparisons reach the fuzzer, and it can serve as fuzz-run's -cmp_lib), coverage
(false when the library calls no SanitizerCoverage function at all: fuzz-run will not fuzz it), and
mutators when the library exports custom mutators for the target (their symbols, see CUSTOM
MUTATORS).

run prints one line per input, \"INPUT: outcome\", where the outcome is one of:

ok :: The target returned normally (a libFuzzer entry returned anything but -1; a typed target
returned 0).

rejected :: The target returned -1 (Go's t.Skip): the input is not interesting.

failed: MESSAGE :: A typed target returned another value; MESSAGE is what it wrote to stderr while
running the input.

crashed: KIND :: The target died of a signal (SIGSEGV, SIGABRT, …) or a sanitizer report (asan:
heap-buffer-overflow, …). The lines after it, indented, are what the target wrote and a symbolized
backtrace.

stack overflow :: The target overflowed its stack.

timed out after D :: The input ran longer than -timeout (the first input in each worker process is
allowed max(60s, 10 × -timeout), for lazy initialisation).

out of memory :: The worker's resident memory passed -rss_limit_mb.

exited with status N :: The target called exit().

One crashing input does not stop the rest: each runs in a worker process that is replaced when it
dies. Exit status 1 when any input failed, crashed, hung or ran out of memory.

With -json, run prints one object per line instead: input (the operand as given), outcome (ok,
rejected, failed, crashed, stack-overflow, timeout, oom or exit), and where they apply kind (the
signal or sanitizer), message (a failure's message), report (what the target wrote and the
backtrace), exit_code, timeout_ms, rss_mb, features and fingerprint (the coverage the input
reached).",
        ),
        (
            "CUSTOM MUTATORS",
            "A target library may export functions that mutate its inputs better than bytes can be
mutated, keeping them well-formed. fuzz-worker looks them up when it loads the library (list -json
names them, in mutators) and fuzzing calls them. Each returns the size of the input it made, never
more than the room it was given (a larger answer is cut to it); 0 means it made none, and the input
is left as it was.

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int \
seed) :: libFuzzer's, for the LLVMFuzzerTestOneInput entry: changes the size bytes at data in
place, within max_size bytes.

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t \
size2, uint8_t *out, size_t max_out_size, unsigned int seed) :: libFuzzer's, for the same entry:
writes into out an input made from two others.

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) :: Exported by fuzz-worker:
the default mutator, for custom mutators to call on the parts they do not understand. It makes
small byte changes and writes operands the target was seen comparing (memcmp, strcmp and trace-cmp
operands) and dictionary words (fuzz-run's -dict, and the automatic dictionary: operands that led
to new coverage, wide constants of the target's code) into the input.

size_t fuzz_mutate_NAME(uint8_t *data, size_t size, size_t max_size, unsigned int seed) :: The
mutator of the self-mutating custom type NAME, with the custom mutator's contract, for typed
targets; max_size is fuzz-run's -max_len, or the value's own length when that is longer (-max_len
and length control bound []byte and string arguments only). A target declares an argument of that
type as custom(NAME) in its FuzzName_args list; it is packed as a []byte (a 4-byte little-endian
length, then the bytes), and corpus files store it as custom(\"NAME\", []byte(\"…\")), which Go
does not read. NAME must be ASCII letters, digits and _, so that the symbol is a C identifier (the
lower-case prefix keeps it from being taken for a target); a custom value without a mutator, or
whose type name has other characters, is never changed by fuzzing.

Reproducibility :: The same input and seed must give the same result, so that a run with -seed is
reproducible: a mutator draws its randomness from seed, and from LLVMFuzzerMutate, which
fuzz-worker reseeds from seed right before each call. (What LLVMFuzzerMutate writes from the
comparison tables also depends on what the target compared before, as everything does in a seeded
run.)

Coverage :: What a mutator's own code covers is not counted as the next input's coverage: the
counters are cleared after each call. Its integer comparisons do reach the comparison tables, as in
libFuzzer.

fuzz_target.h declares these functions, and defines FUZZ_CUSTOM_MUTATOR(NAME) and a small
generator, fuzz_rng. In Rust, the fuzz-target crate's custom_value! registers a type implementing
CustomValue and exports its mutator, and libfuzzer_custom_mutator! and libfuzzer_custom_cross_over!
export libFuzzer's two. examples/custom/ holds one of each.",
        ),
        (
            "ENVIRONMENT",
            "ASAN_OPTIONS :: Passed on to AddressSanitizer, after fuzz-worker's own defaults
(abort_on_error=1:detect_leaks=0).

LD_PRELOAD :: Kept, after the sanitizer runtime when one is needed.",
        ),
        ("EXIT STATUS", fuzz_cli::man::EXIT_STATUS),
        (
            "EXAMPLES",
            "List the targets of a library:

    fuzz-worker list ./libparse.so

Re-run a crasher:

    fuzz-worker run ./libparse.so -target FuzzParse testdata/fuzz/FuzzParse/5be68f4bef781b36",
        ),
    ],
};

/// `bench -n`: a positive number of executions.
fn parse_count(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("0 executions measure nothing: want 1 or more".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{s:?} is not a number of executions")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use fuzz_core::worker::serve_args::ServeArgs;
    use std::path::PathBuf;

    fn parsed(args: &ServeArgs) -> ServeArgs {
        let argv = std::iter::once("fuzz-worker".into()).chain(args.to_args());
        match Cli::try_parse_from(argv)
            .expect("the client's command line parses")
            .command
        {
            Command::Serve(s) => s,
            other => panic!("not serve: {other:?}"),
        }
    }

    /// The command line the client writes is the one the worker reads:
    /// every field set away from its default comes back as it went (a
    /// field added to ServeArgs must be set here, and then fails this
    /// test until `to_args` writes it).
    #[test]
    fn the_serve_command_line_round_trips() {
        let bare = ServeArgs {
            shm: "w.shm".into(),
            ..ServeArgs::new("lib.so".into(), None)
        };
        assert_eq!(parsed(&bare), bare);
        let full = ServeArgs {
            lib: PathBuf::from("-a lib.so"),
            target: Some("-FuzzDash".into()),
            shm: PathBuf::from("/tmp/w 0.shm"),
            dict: Some("d.dict".into()),
            fd_in: 7,
            fd_out: 8,
            cmp_lib: Some("cmp.so".into()),
            sanitizer_runtime: Some("rt.so".into()),
            no_warm_up: true,
            cmp_outcomes: true,
            list: true,
        };
        assert_eq!(parsed(&full), full);
    }
}
