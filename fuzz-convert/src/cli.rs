//! The flags of `fuzz-convert`, and the hand-written sections of its man
//! page: `-help`, the page in `man/` and the test keeping that page fresh
//! share this one definition.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use clap::{Args, Parser, Subcommand};
use fuzz_core::ArgType;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fuzz-convert",
    version,
    about = "Convert between \"go test fuzz v1\" corpus files and raw bytes; import AFL and \
        libFuzzer corpora",
    long_about = "fuzz-convert moves inputs between Go's corpus format and the raw files other \
tools use. to-raw extracts the bytes of one []byte or string argument of a v1 file; to-v1 \
wraps raw bytes into a v1 file, as Go's file2fuzz does; import turns AFL output directories \
and libFuzzer corpus directories into a target's testdata/fuzz/<Target>/ seed corpus; export \
turns a corpus directory back into raw files.\n\n\
FILE operands may be -, standard input; -o - is standard output. Input is checked in full \
before anything is written: a missing, unreadable or malformed operand is an error (exit 2) \
that names the file and line, and leaves every file as it was."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write the raw bytes of a []byte or string argument of a v1 file.
    #[command(
        name = "to-raw",
        long_about = "Write the raw bytes of a []byte or string argument of the v1 file FILE \
(- reads standard input) to standard output, or to -o FILE. An entry with several arguments \
needs -arg N to pick one, counted from 0; an argument of another type is an error naming its \
type. The bytes of a custom(\"type\", []byte(\"…\")) value can be extracted too."
    )]
    ToRaw(ToRaw),
    /// Wrap raw bytes into a one-argument v1 file, as Go's file2fuzz does.
    #[command(
        name = "to-v1",
        long_about = "Wrap the raw bytes of FILE (- reads standard input) into a v1 file \
holding one []byte (or, with -type string, string) value in Go's canonical form, as Go's \
file2fuzz writes it. The file goes to standard output, to -o FILE, or with -dir DIR into DIR \
under the name Go would give it (16 hex digits of the SHA-256 of its bytes), whose path is \
printed: the way to add a seed to testdata/fuzz/<Target>/."
    )]
    ToV1(ToV1),
    /// Import AFL and libFuzzer corpora into testdata/fuzz/<NAME>/.
    #[command(
        long_about = "Turn raw inputs into seed-corpus entries of the target NAME: each input \
becomes a one-argument v1 file of -type TYPE in <testdata>/fuzz/<NAME>/, named by the SHA-256 \
of its bytes. Each SRC is an AFL output directory (every instance in it: default/, or the \
names given to -M and -S), an AFL instance directory, one of its queue/, crashes/ or hangs/ \
directories, a libFuzzer corpus directory (a flat directory of raw files), a single raw file, \
or - for standard input. From AFL directories only the inputs (files named id:… or id_…) are \
taken; AFL's metadata (fuzzer_stats, plot_data, README.txt, .state/, .synced/, .cur_input) is \
skipped. A libFuzzer directory gives every regular file in it whose name does not start with \
a dot.\n\n\
Importing is idempotent: an input whose entry the directory already holds, under any name, \
is counted as already present and not written again. The paths of the new entries are \
printed on standard output, and a summary on standard error. Every SRC is read before \
anything is written."
    )]
    Import(Import),
    /// Export every v1 file of a corpus directory as a raw file.
    #[command(
        long_about = "Write the []byte or string value of every v1 file in DIR to a raw file \
of the same name in OUT_DIR (created if needed), as AFL's -i and libFuzzer's corpus \
directories want them. Entries with several arguments need -arg N. Every file is read and \
checked first: if one is malformed, or its value cannot be extracted, nothing is written and \
the error names the file and line."
    )]
    Export(Export),
}

/// Flags of `fuzz-convert to-raw`.
#[derive(Args, Debug)]
pub struct ToRaw {
    /// Extract argument N of a multi-argument entry, counted from 0.
    #[arg(long = "arg", value_name = "N")]
    pub arg: Option<usize>,
    /// Write the bytes to FILE instead of standard output (- is standard output).
    #[arg(long = "o", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The v1 file to read; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Flags of `fuzz-convert to-v1`.
#[derive(Args, Debug)]
pub struct ToV1 {
    /// The type of the value: []byte or string.
    #[arg(long = "type", value_name = "TYPE", default_value = "[]byte", value_parser = raw_type)]
    pub arg_type: ArgType,
    /// Write the v1 file to FILE instead of standard output (- is standard output).
    #[arg(long = "o", value_name = "FILE", conflicts_with = "dir")]
    pub output: Option<PathBuf>,
    /// Write the file into DIR (created if needed), named by the SHA-256 of its bytes, and print
    /// its path.
    #[arg(long = "dir", value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// The raw file to wrap; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Flags of `fuzz-convert import`.
#[derive(Args, Debug)]
pub struct Import {
    /// The target whose seed corpus receives the entries: <testdata>/fuzz/<NAME>/.
    #[arg(long = "target", value_name = "NAME", required = true)]
    pub target: String,
    /// The type of each entry's value: []byte or string.
    #[arg(long = "type", value_name = "TYPE", default_value = "[]byte", value_parser = raw_type)]
    pub arg_type: ArgType,
    /// The testdata directory that holds fuzz/<NAME>/.
    #[arg(long = "testdata", value_name = "DIR", default_value = "testdata")]
    pub testdata: PathBuf,
    /// AFL output, instance or queue directories, libFuzzer corpus directories, raw files, or -.
    #[arg(value_name = "SRC", required = true)]
    pub sources: Vec<PathBuf>,
}

/// Flags of `fuzz-convert export`.
#[derive(Args, Debug)]
pub struct Export {
    /// The directory that receives the raw files (created if needed).
    #[arg(long = "o", value_name = "OUT_DIR", required = true)]
    pub output: PathBuf,
    /// Extract argument N of multi-argument entries, counted from 0.
    #[arg(long = "arg", value_name = "N")]
    pub arg: Option<usize>,
    /// The corpus directory of v1 files, such as testdata/fuzz/<Target>.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// `-type`: the types whose value is raw bytes.
fn raw_type(s: &str) -> Result<ArgType, String> {
    match s {
        "[]byte" => Ok(ArgType::Bytes),
        "string" => Ok(ArgType::String),
        _ => Err("want []byte or string".to_string()),
    }
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        ("FORMAT", FORMAT),
        ("AFL AND LIBFUZZER", AFL_LIBFUZZER),
        ("EXIT STATUS", EXIT_STATUS),
        ("FILES", FILES),
        ("EXAMPLES", EXAMPLES),
    ],
};

const EXIT_STATUS: &str = fuzz_cli::man::exit_status!(
    "0 :: Success: the conversion, import or export is done.

2 :: Misuse: a bad flag or value, an operand that cannot be read or parsed (a malformed v1 file is
named with its line), a file or directory that cannot be written; nothing is written then.

fuzz-convert finds nothing, so it never exits 1."
);

const FORMAT: &str = "\
A corpus file is Go's \"go test fuzz v1\" format (golang/go#48717), read and written byte for byte
as Go 1.19 does. The first line is the header

    go test fuzz v1

and every following line holds one argument of the fuzz target, in order, written as a Go
conversion of a literal. Lines end in a newline; blank lines are ignored, and white space around a
value is allowed. The types are:

[]byte(\"…\") :: a byte slice, as an interpreted string literal (\"…\") or a raw one (`…`).

string(\"…\") :: a string; its bytes need not be UTF-8.

int(…), int8(…), int16(…), int32(…), int64(…) :: signed integers, in decimal, or in hex (0x), octal
(0o or a leading 0) or binary (0b), with an optional minus sign.

uint(…), uint8(…), uint16(…), uint32(…), uint64(…) :: unsigned integers, likewise but without a
sign.

byte('…'), rune('…') :: uint8 and int32 written as a character literal, which is how Go writes them
(a number is accepted too).

float32(…), float64(…) :: floating-point numbers in decimal or hex notation, including
float64(NaN), float64(+Inf) and float64(-Inf); a NaN with an unusual payload is written
math.Float64frombits(0x…) or math.Float32frombits(0x…), which is read back bit for bit.

bool(true), bool(false) :: booleans.

An example, the entry of a target func(t *testing.T, s string, n int64, b []byte):

    go test fuzz v1
    string(\"hello\\n\")
    int64(-7)
    []byte(\"\\x00\\xffBUG\")

Canonical output, which these tools write, matches Go 1.19's byte for byte: strings are quoted as
Go's strconv.Quote quotes them, and what counts as printable follows unicode.IsPrint with Go 1.19's
tables, which are Unicode 13. A file Go reads, these tools read; a file Go refuses, they refuse,
naming the file, the line and the reason.

Files are named by the first 16 hex digits of the SHA-256 of their exact bytes, as current Go names
them. Go 1.19 wrote all 64 digits; both are digest names, and a file of any other name is read all
the same.

custom(\"type\", []byte(\"…\")) is our one extension, for values a target mutates itself; Go does
not read it. to-raw and export extract its bytes like those of a []byte.";

const AFL_LIBFUZZER: &str = "\
AFL and AFL++ write an output directory (-o) holding one directory per fuzzer instance: default/
for a single instance, or the names given to -M and -S. Each instance directory has queue/ (the
corpus), crashes/ and hangs/, whose inputs are named id:NNNNNN,… (id_NNNNNN,… where a colon cannot
be used), and metadata that is not input: fuzzer_stats, plot_data, cmdline, fuzz_bitmap,
.cur_input, .synced/, crashes/README.txt and queue/.state/. import takes only the id: files of
queue/, crashes/ and hangs/, from whichever level SRC names. A directory called queue, crashes or
hangs counts as AFL's when it sits in an instance directory or holds id: files.

libFuzzer keeps its corpus in flat directories of raw files with any names (usually the SHA-1 of
the contents), and writes crash-, leak-, timeout- and oom- files beside it. import takes every
regular file of such a directory whose name does not start with a dot; subdirectories are skipped
with a warning. A single file given as SRC is imported whatever its name.

Each input becomes the entry []byte(\"…\") (or string(\"…\") under -type string), exactly what
to-v1 writes, in <testdata>/fuzz/<NAME>/, named by its digest. Inputs are taken whole, however
large; the target's -max_len applies when fuzzing, not here. Inputs already present (the same bytes
under any name, including Go's 64-digit names) are counted, not rewritten, so running import again
adds nothing. An input that is itself a v1 file is wrapped like any other, with a warning:
fuzz-corpus merge is the way to copy entries between corpus directories.

export goes the other way, for seeding AFL (-i) or libFuzzer (corpus directory arguments) with a Go
corpus: every entry's value becomes a raw file of the same name. Go's entries for multi-argument
targets need -arg N; AFL and libFuzzer harnesses that decode several values from one input need
their own conversion.";

const FILES: &str = "\
testdata/fuzz/<Target>/ :: The seed corpus of a target, relative to the current directory unless
-testdata names another testdata directory. import writes here.

<cache>/<library id>/<Target>/ :: The generated corpus of fuzz-run(1), in the same format; to-raw
and export read it like any corpus directory.";

const EXAMPLES: &str = "\
Print the input of a crasher that Go or fuzz-run wrote:

    fuzz-convert to-raw testdata/fuzz/FuzzParse/dd41b1fa66f374c7 | xxd

Extract the second argument (the []byte) of a multi-argument entry into a file:

    fuzz-convert to-raw -arg 1 -o input.bin testdata/fuzz/FuzzAll/b7fa8f77b0202160

Add a file as a seed of FuzzParse, and print where it went:

    fuzz-convert to-v1 -dir testdata/fuzz/FuzzParse sample.png

Wrap standard input as a string entry:

    printf 'hello' | fuzz-convert to-v1 -type string -

Import an AFL++ run (every instance's queue, crashes and hangs) and a libFuzzer corpus into the
seed corpus of the target png_read:

    fuzz-convert import -target png_read out/ corpus/

Import only the crashes of one AFL instance:

    fuzz-convert import -target png_read out/default/crashes

Export a Go corpus as seeds for AFL++ and libFuzzer:

    fuzz-convert export -o seeds testdata/fuzz/FuzzParse
    afl-fuzz -i seeds -o out -- ./harness
    ./libfuzzer_harness corpus/ seeds/";
