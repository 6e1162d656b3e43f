//! The command line of fuzz-build, which turns source into a fuzzable
//! library. `-help` and the man page come from this one definition.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use std::path::PathBuf;

#[derive(clap::Parser, Debug)]
#[command(
    name = "fuzz-build",
    version,
    about = "Build a Go package, a Rust crate or C/C++ files into a library fuzz-run can fuzz",
    long_about = "Build a Go package's fuzz tests, a Rust crate, or C and C++ files into a \
    coverage-instrumented library fuzz-run can fuzz, and print its path.

What is built depends on SOURCE (default: the working directory):

A directory with a Cargo.toml is a Rust crate: its library (the fuzz_target! targets of the \
    fuzz-target crate, or an LLVMFuzzerTestOneInput) is built by cargo as a cdylib, in release \
    mode, every crate instrumented with SanitizerCoverage (-Cpasses=sancov-module, edge counters, \
    a PC table and comparison tracing). cargo is given the host's target triple, so that build \
    scripts and proc-macros stay uninstrumented. cargo's own freshness check decides what is \
    rebuilt.

Other directories are Go packages with fuzz tests (func FuzzXxx(f *testing.F) in their _test.go \
    files, in the package or in its external _test package) inside a module (a go.mod at or \
    above it). Every fuzz test becomes a target of the library, named as it is, taking the \
    arguments of its f.Fuzz function in Go's spelling (fuzz-worker list shows them). The library \
    runs each with Go's own testing package, as go test -fuzz does: f.Add values are its seeds \
    (replayed as seed#0, seed#1, ... before testdata/fuzz/<FuzzXxx>/, as go test names them), \
    t.Skip passes, t.Error, t.Fatal and panics are failures carrying testing's message, TestMain \
    runs, and an f.Fatal before f.Fuzz fails the fuzz test before any input. The package is \
    compiled as go test -fuzz compiles it, with the compiler's coverage counters and comparison \
    hooks (-gcflags=all=-d=libfuzzer, leaving out the packages go test leaves out: context, \
    internal/fuzz, reflect, runtime, sync, sync/atomic, syscall, testing, time), as a shared \
    library (go test -c -buildmode=c-shared). The harness that makes it a library is added with go \
    build -overlay: no file of the package, its module or Go's is written. Go 1.19 is supported \
    (the harness uses testing's internals, which change between releases); another release is \
    refused.

Files ending in .c, .cc, .cpp, .cxx or .C are C and C++ sources, compiled and linked into one \
    library with clang-19 (or clang) and -fsanitize-coverage=inline-8bit-counters,pc-table,\
    trace-cmp, as libFuzzer's users build; fuzz_target.h (typed targets) is on the include path. \
    Without clang, gcc (g++) builds them with -fsanitize-coverage=trace-pc,trace-cmp, which counts \
    blocks less finely; fuzz-build says so. -cflags adds the flags the sources need.

-fast builds a Rust crate or C files without comparison tracing: the fast library fuzz-run \
    -cmp_lib pairs with the full one (fuzz-run -fuzz T FAST.so -cmp_lib FULL.so).

The library is kept in a cache, and a second call with nothing changed prints the same path \
    without compiling anything: a Go package and C files are keyed by the content of what they are \
    built from (for C, every header the compiler read), a Rust crate by cargo. Its path depends \
    only on what is built (the directory, or the files) and -fast, so that fuzz-run's corpus \
    cache, named after the library's path, survives a rebuild. With -o the library is also copied \
    to LIB.

fuzz-run -fuzz FuzzXxx DIR builds through fuzz-build, so that in a Go package or a Rust crate, \
    fuzz-run -fuzz FuzzParse . does what go test -fuzz FuzzParse does."
)]
pub struct Cli {
    /// A Go package's or a Rust crate's directory, or C/C++ files [default: .]
    #[arg(value_name = "SOURCE")]
    pub sources: Vec<PathBuf>,

    /// Also copy the library to LIB (- is not allowed: a library is a file)
    #[arg(long = "o", value_name = "LIB")]
    pub output: Option<PathBuf>,

    /// Build without comparison tracing: the fast library of a -cmp_lib pair (Rust and C)
    #[arg(long = "fast")]
    pub fast: bool,

    /// More flags for the C/C++ compiler, split at spaces (-cflags=-Iinclude)
    #[arg(long = "cflags", value_name = "FLAGS", allow_hyphen_values = true)]
    pub cflags: Option<String>,

    /// The build cache [default: $FUZZ_BUILD_CACHE, $XDG_CACHE_HOME/fuzz-build,
    /// $HOME/.cache/fuzz-build]
    #[arg(long = "cachedir", value_name = "DIR")]
    pub cachedir: Option<PathBuf>,

    /// Show the commands run and their output
    #[arg(long = "v")]
    pub verbose: bool,
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        (
            "EXIT STATUS",
            fuzz_cli::man::exit_status!(
                "0 :: The library is built (or was built already): its path is on standard output.

2 :: Misuse: a bad flag, a SOURCE that is neither a Rust crate, a Go package in a module nor C/C++
files, a package without fuzz tests, a crate without a library, a Go release other than 1.19,
sources that do not compile (the compiler's errors are shown above the error line), no go, cargo
or C compiler.

fuzz-build finds nothing, so it never exits 1."
            ),
        ),
        (
            "FILES",
            "\
<cache>/<name>-<16 hex>/lib<name>.so :: The library built from one SOURCE: <name> is the last
element of a Go package's import path, a crate's library name, or the first C file's name; the hex
digits are the first 16 of the SHA-256 of the canonical paths built (and -fast). Replaced
atomically when the sources change.

<cache>/<name>-<16 hex>/lib<name>.so.key :: The SHA-256 of what the library was built from (Go,
C), and lib<name>.so.deps, the files a C build read.

<cache>/<name>-<16 hex>/cargo/ :: cargo's target directory for a Rust crate. (cargo writes the
crate's Cargo.lock beside its Cargo.toml when there is none, as cargo build does; nothing else of
the crate's is written.)

<cache> :: -cachedir DIR if given, else $FUZZ_BUILD_CACHE, else $XDG_CACHE_HOME/fuzz-build, else
$HOME/.cache/fuzz-build. It carries a CACHEDIR.TAG.",
        ),
        (
            "ENVIRONMENT",
            "\
FUZZ_BUILD_CACHE, XDG_CACHE_HOME, HOME :: Where the cache is (see FILES).

PATH :: go, cargo and the C compilers are run from it (clang-19, clang, gcc; cgo needs gcc or
$CC).

GOFLAGS, GOCACHE, GOPATH, GOPROXY, CC :: Go's own, passed on to go.

RUSTFLAGS :: Added after the instrumentation flags for a Rust crate. CARGO_BUILD_TARGET and
CARGO_BUILD_RUSTFLAGS are ignored: the host's triple and the instrumentation are set.",
        ),
        (
            "EXAMPLES",
            "\
Build the fuzz tests of the package in the working directory, and list them:

    fuzz-worker list \"$(fuzz-build)\"

Fuzz one of them for a minute, as go test -fuzz FuzzParse -fuzztime 1m would (fuzz-run builds
through fuzz-build):

    fuzz-run -fuzz FuzzParse -fuzztime 1m .

Replay every seed of every fuzz test, as go test does:

    fuzz-run .

Fuzz a Rust crate's targets, as for a Go package:

    fuzz-run -fuzz FuzzRecord path/to/crate

Build C files, the full build and the fast one, and fuzz the pair (an LLVMFuzzerTestOneInput is
named after the library: fuzz-worker list shows it):

    fuzz-build -o libparse.so parse.c -cflags=-Iinclude
    fuzz-build -o libparse-fast.so -fast parse.c -cflags=-Iinclude
    fuzz-run -fuzz . -cmp_lib libparse.so libparse-fast.so",
        ),
    ],
};
