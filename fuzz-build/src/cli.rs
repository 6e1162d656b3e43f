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
    about = "Build a Go package's fuzz tests into a library fuzz-run can fuzz",
    long_about = "Build a Go package's fuzz tests into a library fuzz-run can fuzz, and print \
    its path.

DIR (default: the working directory) is a Go package with fuzz tests (func FuzzXxx(f \
    *testing.F) in its _test.go files, in the package or in its external _test package) inside a \
    module (a go.mod at or above it). Every fuzz test becomes a target of the library, named as it \
    is, taking the arguments of its f.Fuzz function in Go's spelling (fuzz-worker list shows \
    them). The library runs each with Go's own testing package, as go test -fuzz does: f.Add \
    values are its seeds (replayed as seed#0, seed#1, ... before testdata/fuzz/<FuzzXxx>/, as go \
    test names them), t.Skip passes, t.Error, t.Fatal and panics are failures carrying testing's \
    message, TestMain runs, and an f.Fatal before f.Fuzz fails the fuzz test before any input.

The package is compiled as go test -fuzz compiles it, with the compiler's coverage counters \
    and comparison hooks (-gcflags=all=-d=libfuzzer, leaving out the packages go test leaves out: \
    context, internal/fuzz, reflect, runtime, sync, sync/atomic, syscall, testing, time), as a \
    shared library (go test -c -buildmode=c-shared). The harness that makes it a library is added \
    with go build -overlay: no file of the package, its module or Go's is written. Go 1.19 is \
    supported (the harness uses testing's internals, which change between releases); another \
    release is refused.

The library is kept in a cache by the content of what it is built from (the package and every \
    package of its module it imports, their files, go.mod and go.sum, the Go release and the \
    environment): a second call with nothing changed prints the same path without running the \
    compiler. Its path depends only on the package's directory, so that fuzz-run's corpus cache, \
    named after the library's path, survives a rebuild. With -o the library is also copied to LIB.

fuzz-run -fuzz FuzzXxx DIR builds through fuzz-build, so that in a Go package, fuzz-run -fuzz \
    FuzzParse . does what go test -fuzz FuzzParse does."
)]
pub struct Cli {
    /// The Go package to build [default: .]
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Also copy the library to LIB (- is not allowed: a library is a file)
    #[arg(long = "o", value_name = "LIB")]
    pub output: Option<PathBuf>,

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

2 :: Misuse: a bad flag, a DIR that is not a Go package in a module, a package without fuzz tests,
a Go release other than 1.19, a package that does not compile (go's errors are shown above the
error line), no go or no C compiler (a library needs cgo).

fuzz-build finds nothing, so it never exits 1."
            ),
        ),
        (
            "FILES",
            "\
<cache>/<name>-<16 hex>/lib<name>.so :: The library built from the package in one directory:
<name> is the last element of its import path, the hex digits the first 16 of the SHA-256 of the
directory's canonical path. Rebuilt in place (atomically) when the package changes.

<cache>/<name>-<16 hex>/lib<name>.so.key :: The SHA-256 of what the library was built from.

<cache> :: -cachedir DIR if given, else $FUZZ_BUILD_CACHE, else $XDG_CACHE_HOME/fuzz-build, else
$HOME/.cache/fuzz-build. It carries a CACHEDIR.TAG.",
        ),
        (
            "ENVIRONMENT",
            "\
FUZZ_BUILD_CACHE, XDG_CACHE_HOME, HOME :: Where the cache is (see FILES).

PATH :: go is run from it, and the C compiler cgo needs (gcc, or $CC).

GOFLAGS, GOCACHE, GOPATH, GOPROXY, CC :: Go's own, passed on to go.",
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

    fuzz-run .",
        ),
    ],
};
