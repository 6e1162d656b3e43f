//! The flags of `fuzz-corpus`.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-corpus",
    version,
    about = "List, check, format, merge and measure the coverage of directories of \"go test fuzz \
        v1\" corpus files",
    long_about = "fuzz-corpus works on corpus directories such as testdata/fuzz/<Target>/ and the \
        generated cache: it lists their entries, checks that every file parses as Go would read \
        it, rewrites files in Go's canonical form, merges directories without duplicates, and \
        reports which functions of a target library a corpus reaches."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the entries of corpus directories (or files): name, size, types and a preview of each
    /// value.
    List {
        /// Print one JSON object per entry instead of a table.
        #[arg(long = "json")]
        json: bool,
        /// Corpus directories or single files; - reads standard input.
        #[arg(value_name = "DIR", required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Check that every file parses; exit 1 naming file and line if one does not.
    Check {
        /// Also require each entry to have these types, e.g. 'string, int64'.
        #[arg(long = "types", value_name = "TYPES", value_parser = parse_types)]
        types: Option<TypeList>,
        /// Corpus directories or single files; - reads standard input.
        #[arg(value_name = "DIR", required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Print each file in Go's canonical form, or rewrite it in place.
    Fmt {
        /// Rewrite the files in place instead of printing them.
        #[arg(long = "w")]
        write: bool,
        /// Rewrite in place and rename each file to the digest of its new bytes.
        #[arg(long = "rename")]
        rename: bool,
        /// Files to format; - reads stdin.
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
    },
    /// Copy into DST every entry of the SRC directories that DST does not have (same bytes = same
    /// entry); with -lib, only entries that add coverage.
    Merge {
        /// Keep only entries that add coverage of this target library, smallest first (libFuzzer's
        /// -merge=1).
        #[arg(long = "lib", value_name = "LIB.so")]
        lib: Option<PathBuf>,
        /// With -lib: the target, needed when the library has several, unless DST or SRC is
        /// testdata/fuzz/<Target> or a cache directory <lib>-<16 hex>/<Target>, which names it.
        #[arg(long = "target", value_name = "NAME")]
        target: Option<String>,
        #[command(flatten)]
        timeout: fuzz_cli::limits::Timeout,
        /// The directory to merge into (created if needed).
        #[arg(value_name = "DST")]
        dst: PathBuf,
        /// Directories to merge from.
        #[arg(value_name = "SRC", required = true)]
        srcs: Vec<PathBuf>,
    },
    /// Report which functions of a target library the entries reach: covered blocks of each
    /// function, least covered first, and the totals; -html also draws it, -lines shows one
    /// function's source, -diff compares with another corpus.
    Cover {
        /// The target library, built with -fsanitize-coverage=inline-8bit-counters,pc-table (add -g
        /// for source lines).
        #[arg(value_name = "LIB.so")]
        lib: PathBuf,
        /// The target, needed when the library has several, unless a DIR is testdata/fuzz/<Target>
        /// or a cache directory <lib>-<16 hex>/<Target> (or a file in one), which names it.
        #[arg(long = "target", value_name = "NAME")]
        target: Option<String>,
        #[command(flatten)]
        timeout: fuzz_cli::limits::Timeout,
        /// Also write the report as a self-contained HTML page to FILE, each function opening to
        /// its source lines; - writes the page to stdout instead of the listing.
        #[arg(long = "html", value_name = "FILE")]
        html: Option<PathBuf>,
        /// Print the source of the function FUNC instead of the listing, each line marked covered
        /// (>), partly covered (~) or not reached (!), with the entries that reach it.
        #[arg(long = "lines", value_name = "FUNC", conflicts_with = "diff")]
        lines: Option<String>,
        /// Print what the corpus reaches that the corpus OLD does not (+) and the reverse (-), by
        /// function and line, instead of the listing.
        #[arg(long = "diff", value_name = "OLD")]
        diff: Option<PathBuf>,
        /// Replay only the DIRs given: without it, a DIR that is testdata/fuzz/<Target> brings
        /// the target's generated corpus in the cache too, as go test -coverprofile replays both.
        #[arg(long = "seeds_only")]
        seeds_only: bool,
        /// The corpus cache's root, where the generated corpus is (default: $FUZZCACHE, else
        /// $XDG_CACHE_HOME/fuzz, else ~/.cache/fuzz).
        #[arg(long = "fuzzcachedir", value_name = "DIR")]
        fuzzcachedir: Option<PathBuf>,
        /// Corpus directories or single files; - reads standard input. A file in a directory that
        /// is not a corpus file (a README, a .gitkeep) is skipped with a warning.
        #[arg(value_name = "DIR", required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Show where each fuzz-run instance sharing a -sync directory stands: one line per instance
    /// and a total, as afl-whatsup does. An instance is running while it holds its lock (where
    /// the file system has no locks: while its status is younger than three -sync_interval, by
    /// the status file's own time), stale once it is gone without saying done, broken when its
    /// status file cannot be read (shown beside the others; the exit status stays 0).
    Status {
        /// Print one JSON object per instance, then one for the total.
        #[arg(long = "json")]
        json: bool,
        /// The directory the instances were given as -sync DIR.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
}

/// A list of argument types, as `-types 'string, int64'` gives it.
#[derive(Clone, Debug)]
pub struct TypeList(pub Vec<fuzz_core::ArgType>);

fn parse_types(s: &str) -> Result<TypeList, String> {
    fuzz_core::ArgType::parse_list(s)
        .map(TypeList)
        .map_err(|e| e.to_string())
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        (
            "LIMITS",
            concat!(
                "For merge -lib and cover, which run entries:\n\n",
                fuzz_cli::man::limit!(timeout)
            ),
        ),
        (
            "EXIT STATUS",
            fuzz_cli::man::exit_status!(
                "0 :: Success: every file parses (list, check), or the formatting, merge, cover or
status is done.

1 :: A finding: a malformed corpus file (list, check).

2 :: Misuse: a bad flag or value, an operand that cannot be read (or, for fmt and merge, parsed), a
file or directory that cannot be written, a library that cannot be loaded or lacks the target
(merge -lib, cover); nothing is written then."
            ),
        ),
        (
            "OUTPUT",
            "list prints one line per entry: the file name, its size in bytes, its types separated
by commas, and a preview of each value (strings and byte slices quoted as Go would, cut at 32 bytes
with …). With -json, each line is a JSON object with the fields path, name, size, types (array of
strings), values (array of previews), and, for a malformed file, error instead of types and values.

check prints nothing on stdout when every file parses; each malformed file gets one line,
file:line: reason. File names that are not digests (16 or 64 hex digits of the SHA-256) are noted
on stderr without failing.

merge writes each new entry as a file named by the first 16 hex digits of the SHA-256 of its bytes,
atomically, so two merges into the same directory at once are safe; it prints the paths it added on
stdout and a count on stderr.

merge -lib LIB.so runs the entries through the target (in a fuzz-worker process): first every entry
of DST, for the coverage it has, then the entries of the SRC directories from the smallest to the
largest, keeping those that reach coverage DST does not have yet, as libFuzzer's -merge=1 does. An
entry that crashes the target or hangs past -timeout is skipped and named on stderr; the worker is
replaced. Entries are written as they are kept, so a merge stopped half-way is resumed by running
it again: what it already wrote is part of DST's coverage then.

cover LIB.so DIR... runs every entry through the target (in a fuzz-worker process, as merge -lib
does: an entry that crashes or hangs past -timeout is skipped and named on stderr; a typed target's
failure is noted and its coverage counts) and prints one line per function of the library: covered
blocks/total blocks, the percentage, the function's name (Rust and C++ names demangled) and its
source file:line when the library has debug information (-g; relative to the current directory when
below it), else the address of its entry in the library. Functions the corpus never reaches come
first, then the partly covered ones from the least covered up, then the fully covered ones. The
last line gives the totals: covered: F/N functions (P%), B/M blocks (Q%); a function counts as
covered when any of its blocks is. A block is a basic block of the library's PC table, so the
library must be built with -fsanitize-coverage=inline-8bit-counters,pc-table (or
-fsanitize=fuzzer-no-link); a library without one (gcc's trace-pc, trace-pc-guard) is refused.
Coverage is the library's, whichever target runs it; the library's initialisation (constructors,
LLVMFuzzerInitialize) counts with the first entry.

With -html FILE, cover also writes the report as one self-contained HTML page (no scripts, nothing
fetched, readable without JavaScript): the totals at the top, then the functions grouped by source
file (by name prefix without debug information), each with a bar of its covered blocks, its line
and how many entries reach it; functions not reached, partly and fully covered differ in colour and
mark. Each function opens to its source lines, each marked as below with the entries that reach
it; every line has an anchor (#f3-L42: function 3 of the report, line 42), the first line of each
run of lines not fully covered (a gap) links to the next gap, and the top of the page links to the
first, so that the gaps can be gone through one by one. Where a source file is not on this
machine the page says so and shows each line by the addresses of its blocks; a function without
debug information shows its blocks' addresses and marks. The page is written atomically once the
report is complete; -html - writes the page to stdout instead of the listing.

Lines. On x86-64, a function's machine code is decoded into its control-flow graph, every
instruction placed on its line by the library's DWARF line table (-g), and what each entry ran is
carried from the counted blocks to the uncounted ones (SanitizerCoverage does not count a block
whose run other counts imply, and a branch made a conditional move has no block): a block that
always leads to one that ran, the only way into one that ran, the other side of a branch whose one
side never ran. A line is covered when code of it ran and none of it never did, partly covered
when some of its code ran and some never did (a condition whose second half was never tested, a
loop never repeated), not reached when none ran, and shows a dot where the counts around its code
do not tell; its count is the number of entries that ran any of its code. Code inlined into a
function is placed on the inlined function's own lines, its copies summed. The page names a
line's conditional moves, whose two sides no count tells apart. Elsewhere, or without the
function's extent, a line is marked by the blocks that start on it, as libFuzzer's
-print_coverage does, and code inlined into a function is placed at the line of the call. Where
the compiler decided a test on the paths taken, or moved it to the line above (-O2), a line that
ran in source terms can show no code run.

-lines FUNC prints, instead of the listing, the function FUNC (every function of that name; else
those whose name ends in ::FUNC or .FUNC (Go's pkg.Func); several are separated by a blank line):
a header, FUNC FILE:LINE: C/N blocks (P%), reached by E entries, then each line from its first
with code to its last as
NUMBER MARK COUNT | TEXT, where MARK is > (covered), ~ (partly covered), ! (not reached), . (code
the counts do not tell of) or blank (no code), and TEXT is the source line's bytes as the
file has them. Lines of another file (code included from a header) follow under in FILE:. A
source file that cannot be read is warned of on stderr once, and its lines with code show the
addresses of their blocks instead of text; blocks without a line are listed by address at the end.
A function inlined wherever it is called has no code of its own: -lines names the functions it was
inlined into, whose -lines show its lines.

-diff OLD runs the entries of the corpus OLD (a directory or a file) too, and prints, instead of
the listing, what the corpus reaches that OLD does not, then what OLD reaches that the corpus does
not, as a diff: + for a gain, - for a loss, first a function's line (+ NAME FILE:LINE: B/N -> A/N
blocks, covered before and after), then each line where a block gained (lost) starts, as + NUMBER
| TEXT (FILE:NUMBER for a line of another file). The last line gives the totals: blocks: B/N -> A/N
(+G -L); functions: F/M -> G/M. The exit status is 0 whatever the difference; a CI job that wants
to fail on a loss greps for ^- . With -html FILE too, the page shows the same: the totals against
OLD and each changed function, linked to its source, whose changed lines are marked + and -.

A malformed entry (of the corpus or of -diff's), one of the wrong types for the target, a -lines
FUNC that names no function, -lines or -diff with -html - (both would write stdout), or a library
that cannot be loaded stops cover before anything runs or is written (exit 2).",
        ),
        (
            "EXAMPLES",
            "Check every seed corpus of a package:

    fuzz-corpus check testdata/fuzz/*

Rewrite hand-written seeds in canonical form, named as Go names them:

    fuzz-corpus fmt -rename testdata/fuzz/FuzzParse/*

Fold a colleague's corpus into yours:

    fuzz-corpus merge testdata/fuzz/FuzzParse ../their/testdata/fuzz/FuzzParse

See which functions a target's corpus never reaches, and draw it:

    fuzz-corpus cover -html cover.html ./libparse.so testdata/fuzz/FuzzParse

Show where in one function the corpus stops:

    fuzz-corpus cover -lines parse_record ./libparse.so testdata/fuzz/FuzzParse

In CI, what a night of fuzzing added to the seed corpus:

    fuzz-corpus cover -diff testdata/fuzz/FuzzParse ./libparse.so nightly-corpus/",
        ),
    ],
};
