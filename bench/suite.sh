#!/usr/bin/env bash
# Side-by-side benchmark suite: fuzz-run, libFuzzer and AFL++ (plain and
# CmpLog), plus ablations of fuzz-run's features, on real libraries whose
# sources come through cargo's registry, one core per run, the same seeds
# and the same wall time for every engine.
#
#   bench/suite.sh quick     # 60 s per run, 1 run each; prints the table
#   bench/suite.sh full      # 600 s per run, 3 runs each; medians and
#                            # ranges appended to bench/RESULTS.md;
#                            # resumable: finished runs are skipped
#   TARGETS="zlib sqlite" ENGINES="fuzz-run libfuzzer" bench/suite.sh quick
#
# The terms every engine runs on (the same for all):
#   - 10 s per input: fuzz-run's -timeout (its default), libFuzzer's
#     -timeout=10, AFL++'s -t 10000, go test -fuzz's own 10 s;
#   - a run ends at its first finding (a crash, a hang past those 10 s, out
#     of memory): fuzz-run and go test as they do by default, libFuzzer as
#     it does, AFL++ by AFL_BENCH_UNTIL_CRASH=1 and, for a hang, by this
#     script (SIGINT when its first hang is saved);
#   - a run that so ended before 90 % of its time is rerun, up to STOP_RERUNS
#     times (default 2), the same way for every engine; its row says how
#     many times it stopped and when. The row counts the last attempt (so a
#     run stopped every time counts with the corpus it had when it stopped).
#   Before 2026-11-29 the terms differed: fuzz-run ran with -keepfuzzing
#   (on past a finding), libFuzzer with its default -timeout of 1200 s and
#   AFL++ without -t (bench/README.md says which tables).
#   The time-to-bug target cmp is never rerun: its finding is the measure.
#
# Targets (harnesses are ours, in bench/suite/harness/):
#   zlib        inflate into a fixed buffer (zlib C sources of libz-sys)
#   sqlite      in-memory database, the input exec'd as SQL with limits
#               (the amalgamation of libsqlite3-sys, feature bundled)
#   lua         luaL_loadbufferx (text) + lua_pcall with an instruction
#               limit, no io/os/package/debug (Lua 5.4 of lua-src)
#   serde_json  parse a serde_json::Value and print it back (Rust)
#   regex       compile the input as a pattern, match a fixed haystack (Rust)
#   cmp         the planted bug of examples/cmp/cmp.c (a 10-byte memcmp):
#               time to the bug; each engine stops at it
# Engines:
#   fuzz-run                 ours, defaults, -parallel 1
#   fuzz-run-no-cmp          -use_cmp=0 (no comparison feedback)
#   fuzz-run-no-entropic     -entropic=0 (Go's round robin)
#   fuzz-run-no-cross-over   -cross_over=0 (no splicing)
#   fuzz-run-no-len-control  -len_control=0 (inputs may grow to -max_len at once)
#   fuzz-run-no-auto-dict    -auto_dict=0 (no dictionary of useful operands)
#   fuzz-run-ascii-num       -ascii_num=1 (numbers in text changed as numbers;
#                            off by default)
#   fuzz-run-utf8            -utf8=1 (whole UTF-8 characters written into text;
#                            off by default)
#   fuzz-run-lines           -lines=1 (whole lines moved in text, lines of
#                            other entries among them; off by default)
#   fuzz-run-fields          -fields=1 (whole fields of lists moved: an
#                            alternation's literals, a list's items; off by
#                            default)
#   fuzz-run-cmp-outcomes    -cmp_outcomes=1 (each comparison site's outcome,
#                            equal / below / above, counted as coverage; off
#                            by default)
#   fuzz-run-no-size-weight  -size_weight=0 (parents not weighed by size)
#   fuzz-run-fresh-weight    -fresh_weight=1 (a new entry weighs 4x until it
#                            has parented 64 chains; off by default)
#   fuzz-run-fresh-first     -fresh_first=1 (a new favoured entry parents its
#                            first 64 chains before any other; off by default)
#   fuzz-run-cull            -cull=1 (only the entries a greedy cover of the
#                            edges needs are favoured; off by default)
#   fuzz-run-stack           -stack=1 (1, 2, 4 or 8 mutations stacked on each
#                            input of a chain; off by default)
#   fuzz-run-no-reduce-inputs  -reduce_inputs=0 (entries keep the length they
#                            were found with)
#   fuzz-run-long            -reduce_inputs=0 -len_control=0 (entries keep
#                            their length, and inputs may grow to MAX_LEN
#                            at once: both ways of keeping inputs short off)
#   fuzz-run-code-strings    -code_strings=1 (string constants of the code as
#                            a dictionary; off by default)
#   fuzz-run-dict            -dict bench/suite/dict/TARGET.dict (not cmp)
#   fuzz-run-cmp-lib         a build without trace-cmp (fr-fast/), with the
#                            trace-cmp build as -cmp_lib (AFL++'s CmpLog way)
#   libfuzzer                clang-19 -fsanitize=fuzzer, defaults
#   aflpp                    Debian's AFL++ 4.04c, afl-clang-fast (PCGUARD),
#                            persistent mode through libAFLDriver.a
#   aflpp-cmplog             its CmpLog build (AFL_LLVM_CMPLOG=1) as the one
#                            binary, afl-fuzz -c 0 (see README: -c BIN failed)
#   aflpp440                 AFL++ 4.40c (bench/aflpp/build.sh, LLVM 19): one
#                            build, afl-clang-fast (PCGUARD), persistent mode,
#                            its dictionary (AFL_LLVM_DICT2FILE, C only) as -x
#   aflpp440-cmplog          two builds: the aflpp440 one fuzzed, with a
#                            CmpLog build as -c BIN, and the same -x
#   fuzz-run-sync2           two fuzz-run instances, -parallel 1 each, sharing
#                            one -sync directory (-sync_interval 10s): a run
#                            on two CPUs, not in the default selection; its
#                            corpus is the union they published
#   fuzz-run-parallel2       one fuzz-run, -parallel 2: two CPUs, not in the
#                            default selection (bench/suite/scaling.py sets
#                            both beside fuzz-run on one CPU)
#   fuzz-run-parallel2-vary  -parallel 2 -vary_workers 1: the second worker
#                            runs with -fields 1 -code_strings 1; two CPUs
#   fuzz-run-parallel2-text  -parallel 2 -fields 1 -code_strings 1: both
#                            workers so (what -vary_workers is set beside)
#   libfuzzer-jobs2          libFuzzer -jobs=2 -workers=2: two processes
#                            sharing its corpus directory (each reloads what
#                            the other wrote); two CPUs, not in the default
#   aflpp440-ms2             two AFL++ 4.40c instances as aflpp440, -M main and
#                            -S second in one output directory (AFL++'s own
#                            parallel mode); two CPUs, not in the default;
#                            its corpus is the union of their queues
#                            (scaling.py sets these two beside libfuzzer and
#                            aflpp440 on one CPU)
#   Of the two-instance engines (fuzz-run-sync2, libfuzzer-jobs2,
#   aflpp440-ms2), an instance that ends at a finding leaves the other to
#   run on alone to the end: the row's note says "finding", and the run is
#   not rerun (it did not end before 90 % of its time).
#   go                       Go's own fuzzer (go test -fuzz -parallel 1) on the
#                            same job done by Go's standard library, where
#                            it has one: zlib (compress/zlib), serde_json
#                            (encoding/json), regex (regexp); its corpus is
#                            replayed through the same meter (bench/suite/go/)
#
# Environment:
#   TARGETS, ENGINES   space-separated selections (defaults: all; the
#                      fuzz-run ablations whose flag the built fuzz-run
#                      lacks are left out of the default, with a note;
#                      naming one explicitly then is an error)
#   SECS, RUNS         seconds per run and runs per (target, engine)
#                      (quick: 60 and 1; full: 600 and 3)
#   INTERVAL           seconds between corpus samples (quick 10, full 60)
#   JOBS               runs at once (default 2, at most one per CPU)
#   PIN=0              do not pin each run to its own CPU with taskset
#   MAX_LEN            largest input for every engine (default 4096)
#   FUZZ_BIN=DIR       take fuzz-run, fuzz-worker, fuzz-convert from DIR
#                      (otherwise cargo build --release, with
#                      CARGO_TARGET_DIR=bench/out/target)
#   REBUILD=1          full mode: rebuild fuzz-run even if the campaign has
#                      binaries already (otherwise it keeps the ones it
#                      started with, so that resumed runs are comparable)
#   FRESH=1            full mode: forget finished runs and start over
#                      (full mode keeps them in the committed files
#                      bench/suite/campaign/{runs,timeline}.tsv: commit them
#                      as a campaign goes, and it resumes from any clone)
#   CAMPAIGN=NAME      full mode: keep the campaign in bench/suite/NAME/
#                      (its logs in bench/out/suite/NAME/) instead of
#                      bench/suite/campaign/, so that a campaign on new
#                      terms or a new build leaves the others whole
#   STOP_RERUNS        reruns of a run that ended early at a finding (2)
#   RECORD=1           quick mode: also append the table to bench/RESULTS.md,
#                      copy the plots to bench/suite/plots/ and the sitting's
#                      runs.tsv and timeline.tsv to bench/suite/sittings/
#                      (DATE-MODE-SECSs/, committed: the raw data of what
#                      RESULTS.md says); full mode: append even when this
#                      invocation ran nothing
#
# Everything built and every run's logs, final corpus and results are
# under bench/out/suite/ (git-ignored; the corpus samples taken during a
# run are removed once replayed). Installs clang-19,
# libclang-rt-19-dev, afl++ (which brings clang-14, the LLVM it is built
# against), golang-go and python3 with apt-get when missing; AFL++ 4.40c is
# built by bench/aflpp/build.sh (into bench/out/aflpp/) when missing.
#
# The whole script is one block, read before anything runs: bash reads a
# script as it goes, so an edit of this file during an hour-long sitting
# would otherwise be read from the middle of a line by the running one.
{
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
suite="$here/suite"
out="$here/out/suite"

die() { echo "suite: $*" >&2; exit 1; }
note() { echo "suite: $*" >&2; }

mode="${1:-}"
case "$mode" in
quick) def_secs=60 def_runs=1 def_interval=10 ;;
full) def_secs=600 def_runs=3 def_interval=60 ;;
*) die "usage: bench/suite.sh quick|full (see the comment at the top for the environment)" ;;
esac
secs="${SECS:-$def_secs}"
runs="${RUNS:-$def_runs}"
interval="${INTERVAL:-$def_interval}"
jobs="${JOBS:-2}"
max_len="${MAX_LEN:-4096}"
pin="${PIN:-1}"
stop_reruns="${STOP_RERUNS:-2}"
[[ "$stop_reruns" =~ ^[0-9]+$ ]] || die "STOP_RERUNS must be a number, not '$stop_reruns'"
for v in secs runs interval jobs max_len; do
    [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "${v^^} must be a positive number, not '${!v}'"
done
[ "$interval" -le "$secs" ] || die "INTERVAL ($interval) is longer than a run ($secs s)"
ncpu="$(nproc)"
[ "$pin" = 0 ] || [ "$jobs" -le "$ncpu" ] || die "JOBS=$jobs but only $ncpu CPUs to pin runs to (PIN=0 to share)"

all_targets="zlib sqlite lua serde_json regex cmp"
ablations="fuzz-run-no-cmp fuzz-run-no-entropic fuzz-run-no-cross-over fuzz-run-no-len-control \
fuzz-run-no-auto-dict fuzz-run-ascii-num fuzz-run-utf8 fuzz-run-lines fuzz-run-fields fuzz-run-cmp-outcomes \
fuzz-run-no-size-weight fuzz-run-fresh-weight fuzz-run-fresh-first fuzz-run-cull fuzz-run-stack \
fuzz-run-no-reduce-inputs fuzz-run-long fuzz-run-code-strings \
fuzz-run-dict fuzz-run-cmp-lib"
all_engines="fuzz-run libfuzzer aflpp aflpp-cmplog aflpp440 aflpp440-cmplog go $ablations"
# Runs on two CPUs (the scaling of -sync and -parallel): named explicitly.
wide_engines="fuzz-run-sync2 fuzz-run-parallel2 fuzz-run-parallel2-vary fuzz-run-parallel2-text \
libfuzzer-jobs2 aflpp440-ms2"
targets="${TARGETS:-$all_targets}"
engines_explicit="${ENGINES:-}"
engines="${ENGINES:-$all_engines}"
for t in $targets; do
    [[ " $all_targets " == *" $t "* ]] || die "unknown target '$t' (TARGETS; known: $all_targets)"
done
for e in $engines; do
    [[ " $all_engines $wide_engines " == *" $e "* ]] ||
        die "unknown engine '$e' (ENGINES; known: $all_engines $wide_engines)"
done
is_wide() { [[ " $wide_engines " == *" $1 "* ]]; }
for e in $engines; do
    ! is_wide "$e" || [ "$ncpu" -ge 2 ] || die "$e needs two CPUs; this machine has $ncpu"
done
uses() { [[ " $engines " == *" $1 "* ]]; }
uses_afl() { uses aflpp || uses aflpp-cmplog; }
uses_afl440() { uses aflpp440 || uses aflpp440-cmplog || uses aflpp440-ms2; }
go_twin() { # target -> the Go fuzz test doing its job, and its file
    case "$1" in
    zlib) echo "FuzzZlib zlib_test.go" ;;
    serde_json) echo "FuzzJSON json_test.go" ;;
    regex) echo "FuzzRegex regex_test.go" ;;
    esac
}
go_module() { # dir module file: a module of its own holding the twin's file
    mkdir -p "$1"
    printf 'module %s\n\ngo 1.19\n' "$2" >"$1/go.mod"
    cp "$suite/go/$3" "$1/"
}

# ------------------------------------------------------------ tools
CLANG=clang-19
AFL_CC=afl-clang-fast
AFL_LIB=/usr/lib/afl
AFL440="$here/out/aflpp/4.40c" # bench/aflpp/build.sh's prefix
command -v cargo >/dev/null || die "cargo is required (Rust stable)"
command -v rustc >/dev/null || die "rustc is required (Rust stable)"
command -v taskset >/dev/null || [ "$pin" = 0 ] || die "taskset (util-linux) is required, or PIN=0"
# shellcheck source=bench/apt.sh
. "$here/apt.sh"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
libfuzzer_links() {
    local d rc=0
    d="$(mktemp -d)"
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$d/t.c"
    "$CLANG" -fsanitize=fuzzer "$d/t.c" -o "$d/t" >/dev/null 2>&1 || rc=$?
    rm -rf "$d"
    return $rc
}
command -v "$CLANG" >/dev/null || apt_install clang-19 libclang-rt-19-dev
libfuzzer_links || apt_install libclang-rt-19-dev
libfuzzer_links || die "$CLANG -fsanitize=fuzzer does not link even with libclang-rt-19-dev"
command -v python3 >/dev/null || apt_install python3
if uses go; then
    command -v go >/dev/null || apt_install golang-go
    # The suite's own build cache (Go's fuzz cache is under it), offline.
    export GOCACHE="$out/gocache" GOPROXY=off
fi
if uses_afl; then
    # Debian's afl++ 4.04c depends on clang-14 (its LLVM passes are built
    # against LLVM 14); afl-clang-fast runs that clang. afl-clang-lto would
    # also need lld-14 and is not used: FuzzBench's AFL++ build is PCGUARD.
    if ! command -v afl-fuzz >/dev/null || [ ! -f "$AFL_LIB/libAFLDriver.a" ]; then apt_install afl++; fi
    for f in afl-fuzz "$AFL_CC"; do command -v "$f" >/dev/null || die "afl++ installed but no $f"; done
    for f in libAFLDriver.a afl-compiler-rt.o; do
        [ -f "$AFL_LIB/$f" ] || die "no $AFL_LIB/$f (dpkg -L afl++ says where the package puts it)"
    done
fi
if uses_afl440; then
    # AFL++ 4.40c from the registry's cargo-afl-common 0.18.2, built against
    # LLVM 19 once (the script skips when it is built; one make job, niced).
    MAKE_JOBS=1 "$here/aflpp/build.sh" >/dev/null || die "bench/aflpp/build.sh failed"
    for f in bin/afl-fuzz bin/afl-clang-fast lib/afl/libAFLDriver.a lib/afl/afl-compiler-rt.o VERSION; do
        [ -e "$AFL440/$f" ] || die "bench/aflpp/build.sh left no ${AFL440#"$root"/}/$f"
    done
fi

campaign="${CAMPAIGN:-campaign}"
[[ "$campaign" =~ ^campaign[A-Za-z0-9._-]*$ ]] ||
    die "CAMPAIGN must be a name starting with 'campaign' (a directory of bench/suite/), not '$campaign'"
[ "$mode" = full ] || [ -z "${CAMPAIGN:-}" ] || die "CAMPAIGN is for full mode"
if [ "$mode" = full ] && [ "$campaign" != campaign ]; then
    mode_dir="$out/$campaign"
else
    mode_dir="$out/$mode"
fi
mkdir -p "$mode_dir"
# Finished runs. quick: in bench/out, afresh each time (the sitting before
# is kept whole in bench/out/suite/quick.prev until the next one starts:
# its runs' logs and findings, its tables). full: in the
# committed files bench/suite/campaign/{runs,timeline}.tsv, one row per
# finished run (and per corpus sample), so that a campaign goes on in
# another session from a fresh clone: commit them as it goes.
results_cols='mode\tsecs\ttarget\tengine\trun\trc\twall\tcpu\texecs_per_sec\tedges\tcorpus\tbug_secs\tnote\tload0\tload1\tstarted\tfuzz_run'
timeline_cols='secs\ttarget\tengine\trun\tseconds\tedges'
if [ "$mode" = full ]; then
    store="$suite/$campaign"
else
    store="$mode_dir"
fi
if [ "$mode" = quick ]; then
    rm -rf "$out/quick.prev"
    mv "$mode_dir" "$out/quick.prev"
    mkdir -p "$mode_dir"
elif [ "${FRESH:-0}" != 0 ]; then
    rm -rf "$mode_dir/runs" "$store/runs.tsv" "$store/timeline.tsv"
fi
mkdir -p "$store"
# shellcheck disable=SC2059 # the column lists are formats
{
    [ -s "$store/runs.tsv" ] || printf "$results_cols\n" >"$store/runs.tsv"
    [ -s "$store/timeline.tsv" ] || printf "$timeline_cols\n" >"$store/timeline.tsv"
    [ "$(head -n1 "$store/runs.tsv")" = "$(printf "$results_cols")" ] ||
        die "${store#"$root"/}/runs.tsv has other columns than this script writes (FRESH=1 starts over)"
}

# fuzz-run & co: copied out of the build directory so that a rebuild during
# the runs changes nothing; a full campaign keeps its first build.
bin="$mode_dir/bin"
if [ -n "${FUZZ_BIN:-}" ] || [ "$mode" = quick ] || [ "${REBUILD:-0}" != 0 ] || [ ! -x "$bin/fuzz-run" ]; then
    if [ -n "${FUZZ_BIN:-}" ]; then
        from="$(cd "$FUZZ_BIN" && pwd)" || die "FUZZ_BIN: no directory $FUZZ_BIN"
        built_from="$(build_label "$root" "$FUZZ_BIN")"
    else
        note "building fuzz-run, fuzz-worker, fuzz-convert (release, CARGO_TARGET_DIR=bench/out/target)"
        CARGO_TARGET_DIR="$here/out/target" cargo build --release --quiet --manifest-path "$root/Cargo.toml" \
            --bin fuzz-run --bin fuzz-worker --bin fuzz-convert ||
            die "cargo build --release failed (someone mid-edit? retry, or FUZZ_BIN=DIR)"
        from="$here/out/target/release"
        built_from="$(build_label "$root")"
    fi
    for b in fuzz-run fuzz-worker fuzz-convert; do [ -x "$from/$b" ] || die "no $b in $from"; done
    if [ "$(cd "$from" && pwd)" != "$(mkdir -p "$bin" && cd "$bin" && pwd)" ]; then
        for b in fuzz-run fuzz-worker fuzz-convert; do cp "$from/$b" "$bin/$b.new" && mv "$bin/$b.new" "$bin/$b"; done
        echo "$built_from" >"$bin/built-from"
    fi
else
    note "full campaign: keeping the fuzz-run binaries it started with ($(cat "$bin/built-from" 2>/dev/null || echo '?'); REBUILD=1 to rebuild)"
fi
export FUZZ_WORKER="$bin/fuzz-worker"

# The ablations need their flag in the fuzz-run at hand.
fr_help="$("$bin/fuzz-run" --help 2>&1)"
ablation_flag() { # engine -> the flag it turns off (or -dict)
    case "$1" in
    fuzz-run-no-cmp) echo use_cmp ;;
    fuzz-run-no-entropic) echo entropic ;;
    fuzz-run-no-cross-over) echo cross_over ;;
    fuzz-run-no-len-control) echo len_control ;;
    fuzz-run-no-auto-dict) echo auto_dict ;;
    fuzz-run-ascii-num) echo ascii_num ;;
    fuzz-run-utf8) echo utf8 ;;
    fuzz-run-lines) echo lines ;;
    fuzz-run-fields) echo fields ;;
    fuzz-run-cmp-outcomes) echo cmp_outcomes ;;
    fuzz-run-no-size-weight) echo size_weight ;;
    fuzz-run-fresh-weight) echo fresh_weight ;;
    fuzz-run-fresh-first) echo fresh_first ;;
    fuzz-run-cull) echo cull ;;
    fuzz-run-stack) echo stack ;;
    fuzz-run-no-reduce-inputs | fuzz-run-long) echo reduce_inputs ;;
    fuzz-run-code-strings) echo code_strings ;;
    fuzz-run-dict) echo dict ;;
    fuzz-run-cmp-lib) echo cmp_lib ;;
    fuzz-run-parallel2-vary) echo vary_workers ;;
    esac
}
kept=""
dropped=""
for e in $engines; do
    f="$(ablation_flag "$e")"
    if [ -n "$f" ] && ! grep -qE -- "^ +-$f( |$)" <<<"$fr_help"; then
        [ -z "$engines_explicit" ] || die "engine $e needs fuzz-run's -$f, which $bin/fuzz-run does not have"
        dropped+="$e "
        continue
    fi
    kept+="$e "
done
engines="${kept% }"
[ -n "$engines" ] || die "no engine left to run"
[ -z "$dropped" ] || note "left out (the built fuzz-run has no such flag yet): ${dropped% }"

# ------------------------------------------------- sources via cargo
# A throwaway project whose only use is to have cargo fetch the crates and
# say where their sources are; versions pinned so that every session of a
# campaign builds the same code.
src_proj="$out/sources"
mkdir -p "$src_proj/src"
cat >"$src_proj/Cargo.toml" <<'TOML'
[package]
name = "bench-suite-sources"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
libz-sys = { version = "=1.1.31", default-features = false, features = ["static"] }
libsqlite3-sys = { version = "=0.39.1", features = ["bundled"] }
lua-src = "=551.1.0"
serde_json = "=1.0.154"
regex = "=1.13.1"

[workspace]
TOML
: >"$src_proj/src/lib.rs"
cargo fetch --quiet --manifest-path "$src_proj/Cargo.toml" || die "cargo fetch of the target crates failed"
meta="$(cargo metadata --format-version 1 --manifest-path "$src_proj/Cargo.toml")"
crate_dir() { # crate name -> its directory in the registry
    grep -o "\"manifest_path\":\"[^\"]*/$1-[0-9][^\"/]*/Cargo.toml\"" <<<"$meta" |
        head -n1 | sed 's/^"manifest_path":"//; s/\/Cargo.toml"$//'
}
zdir="$(crate_dir libz-sys)/src/zlib"
sqldir="$(crate_dir libsqlite3-sys)/sqlite3"
luadir="$(crate_dir lua-src)/lua-5.4.9"
[ -f "$zdir/inflate.c" ] || die "no zlib sources in $zdir"
[ -f "$sqldir/sqlite3.c" ] || die "no sqlite3.c in $sqldir"
[ -f "$luadir/lvm.c" ] || die "no Lua 5.4.9 sources in $luadir"
versions="zlib $(sed -n 's/^#define ZLIB_VERSION "\(.*\)"/\1/p' "$zdir/zlib.h") (libz-sys 1.1.31), \
SQLite $(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$sqldir/sqlite3.h") (libsqlite3-sys 0.39.1), \
Lua 5.4.9 (lua-src 551.1.0), serde_json 1.0.154, regex 1.13.1"

# ------------------------------------------------------------ builds
# Every C target is compiled four ways from the same sources and flags
# (-g -O1, and the -fno-builtin-* set that -fsanitize=fuzzer implies, so
# that memcmp & co stay calls every engine can see):
#   fr/libT.so      clang-19 inline-8bit-counters,pc-table,trace-cmp: fuzz-run
#   fr-fast/libT.so the same without trace-cmp (fuzz-run-cmp-lib, whose
#                   -cmp_lib is fr/libT.so)
#   lf/T            the same objects linked with -fsanitize=fuzzer: libFuzzer,
#                   and the meter every engine's corpus is replayed through
#   afl/T           afl-clang-fast (PCGUARD) + libAFLDriver.a
#   aflcmp/T        the same with AFL_LLVM_CMPLOG=1 (afl-fuzz -c 0)
#   afl440/T        AFL++ 4.40c's afl-clang-fast (PCGUARD) + its libAFLDriver.a,
#                   with AFL_LLVM_DICT2FILE=afl440/T.dict (its -x)
#   afl440cmp/T     the same with AFL_LLVM_CMPLOG=1 (4.40c's -c BIN)
# Rust targets: one crate per target (cdylib + staticlib), built three times
# (four with fr-fast, the fr flags without trace-compares):
# the sancov flags of the fr/lf build; trace-pc-guard for afl/T, linked with
# AFL++'s afl-compiler-rt.o and libAFLDriver.a; trace-pc-guard plus
# trace-compares for aflcmp/T (afl-compiler-rt's __sanitizer_cov_trace_cmp*
# feed its CmpLog map); afl440/T and afl440cmp/T the same with 4.40c's
# afl-compiler-rt.o and libAFLDriver.a, and no dictionary (the dict2file
# pass runs in afl-cc, not in rustc).
build="$out/build"
mkdir -p "$build"
# shellcheck disable=SC2054 # commas inside one flag
COV=(-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp)
# shellcheck disable=SC2054
COV_FAST=(-fsanitize-coverage=inline-8bit-counters,pc-table)
CBASE=(-g -O1 -w -fno-builtin-memcmp -fno-builtin-bcmp -fno-builtin-strcmp -fno-builtin-strncmp
    -fno-builtin-strcasecmp -fno-builtin-strncasecmp -fno-builtin-strstr -fno-builtin-memmem)
c_sources() { # target -> the library's sources, one a line
    case "$1" in
    zlib) printf '%s\n' "$zdir"/{adler32,crc32,inffast,inflate,inftrees,zutil}.c ;;
    sqlite) printf '%s\n' "$sqldir/sqlite3.c" ;;
    lua)
        local f
        for f in "$luadir"/*.c; do
            case "$(basename "$f")" in
            lua.c | luac.c | linit.c | liolib.c | loslib.c | loadlib.c | ldblib.c) ;;
            *) printf '%s\n' "$f" ;;
            esac
        done
        ;;
    cmp) ;;
    esac
}
c_harness() {
    case "$1" in
    cmp) echo "$root/examples/cmp/cmp.c" ;;
    *) echo "$suite/harness/$1.c" ;;
    esac
}
c_flags() { # target -> -I and -D flags
    case "$1" in
    zlib) echo "-I$zdir" ;;
    sqlite) echo "-I$sqldir -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_TEMP_STORE=3" ;;
    lua) echo "-I$luadir" ;;
    cmp) ;;
    esac
}
is_rust() { [ "$1" = serde_json ] || [ "$1" = regex ]; }

# compile_objs DIR CC [FLAGS...] -- SOURCES...: objects into DIR, printed
compile_objs() {
    local dir="$1" cc="$2" flags=() f o
    shift 2
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    mkdir -p "$dir"
    for f in "$@"; do
        o="$dir/$(basename "$f" .c).o"
        "$cc" "${flags[@]}" -c "$f" -o "$o" >&2 || die "$cc failed on $f"
        echo "$o"
    done
}

build_c() { # target flavour(frlf|frfast|afl|aflcmp|afl440|afl440cmp)
    local t="$1" fl="$2" d="$build/$1" srcs=() objs=() extra
    mapfile -t srcs < <(c_sources "$t")
    srcs+=("$(c_harness "$t")")
    read -r -a extra <<<"$(c_flags "$t")"
    case "$fl" in
    frlf)
        mapfile -t objs < <(compile_objs "$d/obj-frlf" "$CLANG" -fPIC "${CBASE[@]}" "${COV[@]}" "${extra[@]}" -- "${srcs[@]}")
        [ "${#objs[@]}" -eq "${#srcs[@]}" ] || die "$CLANG failed on $t"
        mkdir -p "$d/fr" "$d/lf"
        "$CLANG" -shared "${objs[@]}" -o "$d/fr/lib$t.so" -lm || die "linking $d/fr/lib$t.so failed"
        "$CLANG" -fsanitize=fuzzer "${objs[@]}" -o "$d/lf/$t" -lm || die "linking the libFuzzer build of $t failed"
        ;;
    frfast)
        mapfile -t objs < <(compile_objs "$d/obj-frfast" "$CLANG" -fPIC "${CBASE[@]}" "${COV_FAST[@]}" "${extra[@]}" -- "${srcs[@]}")
        [ "${#objs[@]}" -eq "${#srcs[@]}" ] || die "$CLANG failed on $t (fr-fast)"
        mkdir -p "$d/fr-fast"
        "$CLANG" -shared "${objs[@]}" -o "$d/fr-fast/lib$t.so" -lm || die "linking $d/fr-fast/lib$t.so failed"
        ;;
    afl | aflcmp | afl440 | afl440cmp)
        local envs=(AFL_QUIET=1 AFL_DONT_OPTIMIZE=1) cc="$AFL_CC" lib="$AFL_LIB"
        case "$fl" in afl440*) cc="$AFL440/bin/afl-clang-fast" lib="$AFL440/lib/afl" ;; esac
        case "$fl" in *cmp) envs+=(AFL_LLVM_CMPLOG=1) ;; esac
        mkdir -p "$d/$fl"
        # 4.40c's automatic dictionary: the dict2file pass appends every
        # compilation unit's constants to one file (an absolute path).
        if [ "$fl" = afl440 ]; then
            rm -f "$d/$fl/$t.dict"
            envs+=(AFL_LLVM_DICT2FILE="$d/$fl/$t.dict")
        fi
        mapfile -t objs < <(
            export "${envs[@]}"
            compile_objs "$d/obj-$fl" "$cc" "${CBASE[@]}" "${extra[@]}" -- "${srcs[@]}"
        )
        [ "${#objs[@]}" -eq "${#srcs[@]}" ] || die "$cc failed on $t ($fl)"
        env "${envs[@]}" "$cc" "${objs[@]}" "$lib/libAFLDriver.a" -o "$d/$fl/$t" -lm ||
            die "linking the AFL++ build of $t ($fl) with libAFLDriver.a failed"
        ;;
    esac
}

build_rust() { # target flavour(frlf|frfast|afl|aflcmp|afl440|afl440cmp)
    local t="$1" fl="$2" d="$build/$1" crate="$build/$1/crate" host rel flags dep
    host="$(rustc -vV | sed -n 's/^host: //p')"
    case "$t" in serde_json) dep='serde_json = "=1.0.154"' ;; regex) dep='regex = "=1.13.1"' ;; esac
    mkdir -p "$crate"
    cat >"$crate/Cargo.toml" <<TOML
[package]
name = "suite_$t"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "$suite/harness/$t.rs"
crate-type = ["cdylib", "staticlib"]

[dependencies]
$dep

[workspace]
TOML
    case "$fl" in
    frlf) flags=$("$root/examples/rustflags.sh") ;;
    frfast) flags=$("$root/examples/rustflags.sh" inline-8bit-counters pc-table) ;;
    afl | afl440) flags=$("$root/examples/rustflags.sh" trace-pc-guard) ;;
    aflcmp | afl440cmp) flags=$("$root/examples/rustflags.sh" trace-pc-guard trace-compares) ;;
    esac
    (
        # --target HOST keeps the sancov flags off build scripts.
        export RUSTFLAGS="$flags"
        unset CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_TARGET_DIR
        cargo build --quiet --release --target "$host" --manifest-path "$crate/Cargo.toml" \
            --target-dir "$d/cargo-$fl"
    ) || die "cargo build of the $t harness ($fl) failed"
    rel="$d/cargo-$fl/$host/release"
    # --gc-sections drops the counters of unreachable code, as rustc does
    # for the cdylib.
    # shellcheck disable=SC2054 # commas inside one flag
    local gc=(-Wl,--gc-sections -Wl,-z,start-stop-gc -lgcc_s -lutil -lrt -lpthread -lm -ldl)
    case "$fl" in
    frlf)
        mkdir -p "$d/fr" "$d/lf"
        cp "$rel/libsuite_$t.so" "$d/fr/lib$t.so"
        "$CLANG" -fsanitize=fuzzer "$rel/libsuite_$t.a" -o "$d/lf/$t" "${gc[@]}" ||
            die "linking the libFuzzer build of $t failed"
        ;;
    frfast)
        mkdir -p "$d/fr-fast"
        cp "$rel/libsuite_$t.so" "$d/fr-fast/lib$t.so"
        ;;
    afl | aflcmp | afl440 | afl440cmp)
        local lib="$AFL_LIB"
        case "$fl" in afl440*) lib="$AFL440/lib/afl" ;; esac
        mkdir -p "$d/$fl"
        # libAFLDriver's reference to the entry is weak: -u pulls it in.
        "$CLANG" -Wl,-u,LLVMFuzzerTestOneInput "$lib/afl-compiler-rt.o" "$lib/libAFLDriver.a" \
            "$rel/libsuite_$t.a" -o "$d/$fl/$t" "${gc[@]}" || die "linking the AFL++ build of $t ($fl) failed"
        ;;
    esac
}

# A build is redone when its inputs change: the harness, the flags, the
# compilers, or build_rev_* (bump when the build steps above change).
build_rev_c=2
build_rev_rust=3
toolchain="$("$CLANG" --version | head -n1); $(rustc --version)"
if uses_afl; then toolchain+="; afl-fuzz $(afl-fuzz -h 2>&1 | grep -o '++[0-9.a-z]*' | head -n1) with $("$AFL_CC" --version 2>&1 | head -n1)"; fi
build_target() { # target flavour
    local t="$1" fl="$2" stamp want h tc
    local rev="$build_rev_c"
    if is_rust "$t"; then h="$suite/harness/$t.rs" rev="$build_rev_rust"; else h="$(c_harness "$t")"; fi
    # AFL++ 4.40c's builds also change with it (its VERSION names the crate).
    case "$fl" in afl440*) tc="$toolchain; $(cat "$AFL440/VERSION")" ;; *) tc="$toolchain" ;; esac
    want="$(cat "$h" <(echo "$rev $tc $fl ${CBASE[*]} ${COV[*]} $(c_flags "$t")") |
        sha256sum | cut -c1-16)"
    stamp="$build/$t/stamp-$fl"
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return; fi
    note "building $t ($fl)"
    rm -f "$stamp"
    if is_rust "$t"; then build_rust "$t" "$fl"; else build_c "$t" "$fl"; fi
    echo "$want" >"$stamp"
}
for t in $targets; do
    build_target "$t" frlf
    if uses fuzz-run-cmp-lib; then build_target "$t" frfast; fi
    if uses aflpp; then build_target "$t" afl; fi
    if uses aflpp-cmplog; then build_target "$t" aflcmp; fi
    if uses_afl440; then build_target "$t" afl440; fi
    if uses aflpp440-cmplog; then build_target "$t" afl440cmp; fi
done
if uses_afl440; then toolchain+="; $(head -n1 "$AFL440/VERSION" | cut -d' ' -f1) (bench/aflpp/build.sh)"; fi
# Go's twins: one short fuzzing run each fills the build cache with the
# instrumented standard library, so that runs start at once.
if uses go; then
    toolchain+="; $(go version)"
    for t in $targets; do
        [ -n "$(go_twin "$t")" ] || continue
        read -r name file <<<"$(go_twin "$t")"
        wdir="$build/go-warmup/$t"
        rm -rf "$wdir"
        go_module "$wdir" "benchsuite/warmup/$t" "$file"
        note "building the Go twin of $t ($name)"
        (cd "$wdir" && go test -run '^$' -fuzz "^$name\$" -fuzztime 1x -parallel 1 >"$wdir/log" 2>&1) || {
            tail -n 20 "$wdir/log" >&2
            die "go test -fuzz of $suite/go/$file failed"
        }
        rm -rf "$GOCACHE/fuzz/benchsuite/warmup"
    done
fi

# ------------------------------------------------------------ seeds
# A few small seed files per target, raw (libFuzzer, AFL++) and as
# "go test fuzz v1" files (fuzz-run): the same inputs for every engine.
seeds="$out/seeds"
rm -rf "$seeds" "$out/seeds-v1"
seed() { # target name bytes (printf format)
    mkdir -p "$seeds/$1"
    # shellcheck disable=SC2059
    printf "$3" >"$seeds/$1/$2"
}
seed zlib empty '\170\234\003\000\000\000\000\001'
seed zlib fixed '\170\332\313\110\315\311\311\327\121\310\100\241\312\363\213\162\122\270\000\205\343\011\123'
seed zlib stored '\170\001\001\015\000\362\377\173\042\141\042\072\133\061\054\062\054\063\135\175\030\036\003\176'
seed zlib dynamic '\170\332\325\215\311\025\100\100\024\004\123\151\011\170\366\045\013\007\011\014\006\143\373\014\143\231\350\375\040\134\364\265\252\136\227\275\304\146\124\075\242\322\164\055\150\351\306\140\346\165\007\235\122\343\140\074\011\373\240\241\316\105\041\330\233\037\124\054\135\352\350\321\252\123\062\262\162\301\244\066\103\232\333\156\167\340\371\101\030\305\111\232\345\050\177\177\140\277\333\013\313\242\206\271'
seed sqlite table "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);\nINSERT INTO t VALUES(1,'one',1.5),(2,'two',NULL);\nSELECT a, upper(b), c*2 FROM t WHERE a > 0 ORDER BY b;\n"
seed sqlite expr "SELECT 1+2*3, 'a'||'b', length(x'0102'), abs(-5), coalesce(NULL, 7), typeof(3.0);"
seed sqlite cte "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<10) SELECT sum(x), group_concat(x) FROM c;"
seed sqlite index "CREATE TABLE u(k TEXT UNIQUE, v); CREATE INDEX uv ON u(v); INSERT INTO u VALUES('x',1); UPDATE u SET v=v+1; DELETE FROM u WHERE k='y'; PRAGMA integrity_check;"
seed lua loop 'local t = {}\nfor i = 1, 10 do t[i] = i * i end\nreturn #t\n'
seed lua strings 'local s = string.format("%%d %%s", 42, "x"):rep(3)\nreturn s:upper():find("X"), s:gsub("x", "y")\n'
seed lua fib 'local function f(n) if n < 2 then return n end return f(n-1) + f(n-2) end\nreturn f(10)\n'
seed lua coroutine 'local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)\nreturn co(1), co(5), setmetatable({}, {__index = function(_, k) return k end}).x\n'
seed serde_json object '{"name":"fuzz","tags":["a","b"],"n":-12.5e3,"ok":true,"none":null}'
seed serde_json array '[1, 2.0, "\\u00e9\\n", {}, [], false]'
seed serde_json string '"plain"'
seed serde_json number '1234567890123456789'
seed regex simple 'a+b*c?'
seed regex words '(?i)hello\\s+(world|there)\\b'
seed regex email '^([a-z0-9._%%+-]+)@([a-z0-9.-]+)\\.[a-z]{2,}$'
seed regex classes '[[:alpha:]]{2,5}|\\d+(?:\\.\\d+)?|\\p{Greek}+'
seed regex named '(?P<y>\\d{4})-(?P<m>\\d{2})-(?P<d>\\d{2})'
seed cmp short 'fuzz'
seed cmp hello 'hello, world'
for t in $targets; do
    for f in "$seeds/$t"/*; do
        "$bin/fuzz-convert" to-v1 -dir "$out/seeds-v1/fuzz/$t" "$f" >/dev/null ||
            die "fuzz-convert to-v1 failed on $f"
    done
done

# ------------------------------------------------------------ runs
# The one meter: a corpus (the seeds plus what an engine kept) replayed
# through the target's libFuzzer build with -runs=0; its last cov: figure.
# Its artifacts (slow-unit-* of inputs slower than 10 s) go under bench/out,
# not into the caller's directory.
empty="$out/empty"
meter_artifacts="$out/meter-artifacts"
mkdir -p "$empty" "$meter_artifacts"
meter() { # target dirs... -> edges (empty if the replay failed)
    local t="$1"
    shift
    "$build/$t/lf/$t" -runs=0 -artifact_prefix="$meter_artifacts/" "$empty" "$@" 2>&1 |
        sed -n 's/.*\(INITED\|DONE\) *cov: \([0-9]*\).*/\2/p' | tail -n1 || true
}
json_num() { sed -n "s/.*\"$1\":\([0-9.eE+-]*\).*/\1/p" <<<"$2" | head -n1; }
now_us() { local t="$EPOCHREALTIME"; echo "${t/./}"; }

# snapshot ENGINE RUNDIR DEST: copy the corpus the engine has kept so far
snapshot() {
    local e="$1" d="$2" dest="$3" from depth=1
    mkdir -p "$dest"
    case "$e" in
    fuzz-run-sync2) from="$d/sync/$t" ;;  # the union the pair published
    fuzz-run*) from="$d/cache" depth=3 ;; # cache/<library id>/<target>/
    go) from="$go_cache" ;;                 # set by attempt
    libfuzzer*) from="$d/corpus" ;;
    aflpp440-ms2)
        # Each instance's queue in a directory of its own (their file names
        # may be alike); the meter reads directories recursively.
        local q to
        for q in "$d"/afl/*/queue; do
            [ -d "$q" ] || continue
            to="$dest/$(basename "$(dirname "$q")")"
            mkdir -p "$to"
            find "$q" -mindepth 1 -maxdepth 1 -type f ! -name '.*' -exec cp -t "$to" {} + 2>/dev/null || true
        done
        return 0
        ;;
    aflpp*) from="$d/afl/default/queue" ;;
    esac
    [ -d "$from" ] || return 0
    # Files may vanish under us (libFuzzer's -reduce_inputs); temporary
    # files start with a dot.
    find "$from" -mindepth "$depth" -maxdepth "$depth" -type f ! -name '.*' \
        -exec cp -t "$dest" {} + 2>/dev/null || true
}

# CPU time of a run's process tree, counted by a cgroup of its own where
# this machine lets us make one (cgroup v2, or v1's cpuacct; as root), so
# that processes nobody waits for count too. Without one, the shell's
# rusage of the waited-for tree is the figure.
cg_base=""
if [ -f /sys/fs/cgroup/cgroup.controllers ] && mkdir -p /sys/fs/cgroup/bench-suite 2>/dev/null; then
    cg_base=/sys/fs/cgroup/bench-suite cg_file=cpu.stat
elif [ -d /sys/fs/cgroup/cpuacct ] && mkdir -p /sys/fs/cgroup/cpuacct/bench-suite 2>/dev/null; then
    cg_base=/sys/fs/cgroup/cpuacct/bench-suite cg_file=cpuacct.usage
fi
cg_make() { # name -> the cgroup's directory, or nothing
    [ -n "$cg_base" ] || return 0
    local d="$cg_base/$1-$$-$RANDOM"
    mkdir "$d" 2>/dev/null && echo "$d"
}
cg_join() { # dir pid
    [ -z "$1" ] || echo "$2" >"$1/cgroup.procs" 2>/dev/null || true
}
cg_done() { # dir -> CPU seconds used in it (nothing without one); removes it
    [ -n "$1" ] && [ -f "$1/$cg_file" ] || return 0
    case "$cg_file" in
    cpu.stat) awk '$1 == "usage_usec" { printf "%.3f\n", $2 / 1e6 }' "$1/$cg_file" ;;
    *) awk '{ printf "%.3f\n", $1 / 1e9 }' "$1/$cg_file" ;;
    esac
    rmdir "$1" 2>/dev/null || true
}

# stop_at_hang ENGINE RUNDIR PID: ends an AFL++ run at its first saved hang,
# as the other engines end at theirs (AFL_BENCH_UNTIL_CRASH covers crashes
# only). SIGINT to timeout(1), which passes it to afl-fuzz's process group;
# afl-fuzz then writes its stats and exits. Once per run.
stop_at_hang() {
    case "$1" in aflpp*) ;; *) return 0 ;; esac
    [ ! -e "$2/hang-stop" ] || return 0
    compgen -G "$2/afl/*/hangs/id:*" >/dev/null || return 0
    touch "$2/hang-stop"
    pkill -INT -P "$3" 2>/dev/null || true
}

# run_one TARGET ENGINE RUN CPU: one run (attempt), rerun up to STOP_RERUNS
# times while it ends early at a finding (not on cmp, whose finding is the
# measure); the stopped attempts' directories are kept beside it (RUN.stopK),
# with their logs and findings but without their corpus samples, which
# nothing replays (the row counts the last attempt).
run_one() {
    local t="$1" e="$2" r="$3" cpu="$4" k stops="" stopped_at
    for ((k = 1; ; k++)); do
        stopped_at=""
        # Not "attempt || ...": that would turn off set -e inside it.
        attempt "$t" "$e" "$r" "$cpu" "$stops" "$((k <= stop_reruns))"
        [ -n "$stopped_at" ] || return 0
        stops="${stops:+$stops, }$stopped_at s"
        rm -rf "$mode_dir/runs/${secs}s/$t/$e/$r.stop$k"
        mv "$mode_dir/runs/${secs}s/$t/$e/$r" "$mode_dir/runs/${secs}s/$t/$e/$r.stop$k"
        rm -rf "$mode_dir/runs/${secs}s/$t/$e/$r.stop$k/snap" "$mode_dir/runs/${secs}s/$t/$e/$r.stop$k/snap-raw"
        note "$t/$e/$r ended at a finding at $stopped_at s; run again ($k of $stop_reruns)"
    done
}

# attempt TARGET ENGINE RUN CPU STOPS MAY_RERUN: one run, its samples
# replayed, its result line appended to the store's runs.tsv; a run that
# could not start fails. With MAY_RERUN=1, a run that ended early at a
# finding writes no line and sets stopped_at (its wall seconds) instead;
# STOPS lists when the earlier attempts stopped, for the line's note.
attempt() {
    local t="$1" e="$2" r="$3" cpu="$4" stops="$5" may_rerun="$6"
    local d rc=0 t0 cmd=() envs=() load0 load1 started wd go_cache="" lib
    d="$mode_dir/runs/${secs}s/$t/$e/$r"
    rm -rf "$d"
    mkdir -p "$d/snap"
    wd="$d"
    # This whole job (engine, sampler, replays) on its own CPU.
    [ "$pin" = 0 ] || taskset -cp "$cpu" "$BASHPID" >/dev/null || die "taskset -cp $cpu failed"
    case "$e" in
    fuzz-run*)
        mkdir -p "$d/testdata/fuzz"
        cp -r "$out/seeds-v1/fuzz/$t" "$d/testdata/fuzz/$t"
        local par=1 cache="$d/cache"
        [[ "$e" != fuzz-run-parallel2* ]] || par=2
        [ "$e" != fuzz-run-sync2 ] || cache="$d/cache/{i}" # two.sh: one each
        cmd=("$bin/fuzz-run" -fuzz "^$t\$" -fuzztime "${secs}s" -parallel "$par" -max_len "$max_len"
            -testdata "$d/testdata" -fuzzcachedir "$cache" -json)
        # Its defaults are the suite's terms: -timeout 10s, and the run
        # ends at its first finding.
        lib="$build/$t/fr/lib$t.so"
        case "$e" in
        fuzz-run-no-cmp) cmd+=(-use_cmp=0) ;;
        fuzz-run-no-entropic) cmd+=(-entropic=0) ;;
        fuzz-run-no-cross-over) cmd+=(-cross_over=0) ;;
        fuzz-run-no-len-control) cmd+=(-len_control=0) ;;
        fuzz-run-no-auto-dict) cmd+=(-auto_dict=0) ;;
        fuzz-run-ascii-num) cmd+=(-ascii_num=1) ;;
        fuzz-run-utf8) cmd+=(-utf8=1) ;;
        fuzz-run-lines) cmd+=(-lines=1) ;;
        fuzz-run-fields) cmd+=(-fields=1) ;;
        fuzz-run-cmp-outcomes) cmd+=(-cmp_outcomes=1) ;;
        fuzz-run-no-size-weight) cmd+=(-size_weight=0) ;;
        fuzz-run-fresh-weight) cmd+=(-fresh_weight=1) ;;
        fuzz-run-fresh-first) cmd+=(-fresh_first=1) ;;
        fuzz-run-cull) cmd+=(-cull=1) ;;
        fuzz-run-stack) cmd+=(-stack=1) ;;
        fuzz-run-no-reduce-inputs) cmd+=(-reduce_inputs=0) ;;
        fuzz-run-long) cmd+=(-reduce_inputs=0 -len_control=0) ;;
        fuzz-run-code-strings) cmd+=(-code_strings=1) ;;
        fuzz-run-dict) cmd+=(-dict "$suite/dict/$t.dict") ;;
        fuzz-run-cmp-lib) cmd+=(-cmp_lib "$lib"); lib="$build/$t/fr-fast/lib$t.so" ;;
        fuzz-run-parallel2-vary) cmd+=(-vary_workers=1) ;;
        fuzz-run-parallel2-text) cmd+=(-fields=1 -code_strings=1) ;;
        fuzz-run-sync2)
            # As two machines of a fleet: each its own cache, one -sync
            # directory between them.
            cmd=("$suite/two.sh" "" "" -- "${cmd[@]}" -sync "$d/sync" -sync_id "{i}" -sync_interval 10s)
            ;;
        esac
        cmd+=("$lib")
        ;;
    libfuzzer*)
        mkdir -p "$d/corpus"
        cmd=("$build/$t/lf/$t" -max_total_time="$secs" -max_len="$max_len" -timeout=10
            -print_final_stats=1 -artifact_prefix="$d/")
        # Two jobs at once, each its own process writing fuzz-JOB.log here.
        [ "$e" != libfuzzer-jobs2 ] || cmd+=(-jobs=2 -workers=2)
        cmd+=("$d/corpus" "$seeds/$t")
        ;;
    aflpp*)
        # The suite's terms: 10 s per input (-t, in ms), and the run ends
        # at its first crash (here) or hang (stop_at_hang).
        envs=(AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
            AFL_BENCH_UNTIL_CRASH=1)
        case "$e" in
        aflpp440*)
            # 4.40c: the plain build fuzzed, with its automatic dictionary
            # (C targets) and, for CmpLog, the CmpLog build beside it (-c
            # BIN, as AFL++ recommends: it works in 4.40c).
            cmd=("$AFL440/bin/afl-fuzz" -V "$secs" -t 10000 -G "$max_len" -i "$seeds/$t" -o "$d/afl")
            [ ! -s "$build/$t/afl440/$t.dict" ] || cmd+=(-x "$build/$t/afl440/$t.dict")
            [ "$e" != aflpp440-cmplog ] || cmd+=(-c "$build/$t/afl440cmp/$t")
            cmd+=(-- "$build/$t/afl440/$t")
            # AFL++'s parallel mode: a main and a secondary instance.
            [ "$e" != aflpp440-ms2 ] || cmd=("$suite/two.sh" "-M main" "-S second" -- "${cmd[0]}" "{role}" "${cmd[@]:1}")
            ;;
        aflpp-cmplog)
            # CmpLog: the CmpLog build is both binaries (-c 0). With a
            # separate plain binary (-c BIN) Debian's 4.04c solved no
            # comparison here.
            cmd=(afl-fuzz -V "$secs" -t 10000 -G "$max_len" -i "$seeds/$t" -o "$d/afl" -c 0 -- "$build/$t/aflcmp/$t")
            ;;
        *) cmd=(afl-fuzz -V "$secs" -t 10000 -G "$max_len" -i "$seeds/$t" -o "$d/afl" -- "$build/$t/afl/$t") ;;
        esac
        ;;
    go)
        # A module of its own per run: Go keeps what it finds in
        # $GOCACHE/fuzz/<module>/<FuzzName>/, as v1 files.
        local name file mod
        read -r name file <<<"$(go_twin "$t")"
        mod="benchsuite/$mode/${secs}s/$t/run$r"
        wd="$d/go"
        go_module "$wd" "$mod" "$file"
        mkdir -p "$wd/testdata/fuzz"
        cp -r "$out/seeds-v1/fuzz/$t" "$wd/testdata/fuzz/$name"
        go_cache="$GOCACHE/fuzz/$mod/$name"
        rm -rf "$go_cache"
        cmd=(go test -run '^$' -fuzz "^$name\$" -fuzztime "${secs}s" -parallel 1)
        ;;
    esac
    load0="$(cut -d' ' -f1 /proc/loadavg)"
    printf -v started '%(%Y-%m-%dT%H:%M:%S)T' -1
    touch "$d/t0"
    t0="$(now_us)"
    local cg
    cg="$(cg_make "$t-$e-$r")"
    (
        cd "$wd"
        cg_join "$cg" "$BASHPID"
        TIMEFORMAT='%R %U %S'
        { time env "${envs[@]}" timeout -k 10 $((secs + 300)) "${cmd[@]}" \
            >"$d/stdout" 2>"$d/stderr"; } 2>"$d/time"
    ) &
    local pid=$! k sample_t
    # Corpus samples every INTERVAL seconds; the last one after the run.
    for ((k = 1; k * interval < secs; k++)); do
        sample_t=$((k * interval))
        while [ $(($(now_us) - t0)) -lt $((sample_t * 1000000)) ]; do
            kill -0 "$pid" 2>/dev/null || break 2
            stop_at_hang "$e" "$d" "$pid"
            sleep 0.2
        done
        kill -0 "$pid" 2>/dev/null || break
        snapshot "$e" "$d" "$d/snap/$sample_t"
    done
    while kill -0 "$pid" 2>/dev/null; do
        stop_at_hang "$e" "$d" "$pid"
        sleep 0.2
    done
    wait "$pid" || rc=$?
    snapshot "$e" "$d" "$d/snap/$secs"
    load1="$(cut -d' ' -f1 /proc/loadavg)"
    local wall user sys cpu_frac eps="" why="" bug="" end last n_final
    read -r wall user sys <"$d/time" || { wall=0 user=0 sys=0; }
    cpu_frac="$(awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { if (w > 0) printf "%.2f", (u + s) / w }')"
    # Where a cgroup counted the run, its figure: it includes processes that
    # nobody waited for (AFL++'s persistent target under its fork server),
    # which the shell's rusage misses.
    local cg_secs
    cg_secs="$(cg_done "$cg")"
    if [ -n "$cg_secs" ]; then
        cpu_frac="$(awk -v w="$wall" -v c="$cg_secs" 'BEGIN { if (w > 0) printf "%.2f", c / w }')"
    fi

    # Each engine's own rate, and a check that it ran at all.
    case "$e" in
    fuzz-run*)
        # The end event (else the last progress); the rate is the sum of
        # the instances' (fuzz-run-sync2 has two end events).
        local ends=()
        mapfile -t ends < <(grep '"event":"end"' "$d/stdout" || true)
        [ "${#ends[@]}" != 0 ] || mapfile -t ends < <(grep '"event":"progress"' "$d/stdout" | tail -n1 || true)
        if [ "${#ends[@]}" = 0 ] || { [ "$rc" != 0 ] && [ "$rc" != 1 ]; }; then
            tail -n 20 "$d/stderr" >&2
            die "$t/$e/$r: fuzz-run did not run (exit $rc; see ${d#"$root"/}/stderr)"
        fi
        eps=0
        for end in "${ends[@]}"; do
            eps="$(awk -v e="$eps" -v x="$(json_num execs "$end")" -v s="$(json_num elapsed "$end")" \
                'BEGIN { if (s > 0) e += x / s; printf "%.0f", e }')"
        done
        [ "$rc" = 0 ] || why="finding (exit $rc)"
        if [ "$t" = cmp ]; then
            bug="$(find "$d/testdata/fuzz/$t" -type f -newer "$d/t0" -printf '%T@\n' | sort -n | head -n1)"
        fi
        ;;
    go)
        # "fuzz: elapsed: 1m0s, execs: 1108519 (18474/sec), new interesting: ..."
        last="$(grep -E '^fuzz: elapsed: .*, execs: [0-9]+' "$d/stdout" | tail -n1 || true)"
        if [ -z "$last" ] || { [ "$rc" != 0 ] && [ "$rc" != 1 ]; }; then
            tail -n 20 "$d/stdout" "$d/stderr" >&2
            die "$t/$e/$r: go test -fuzz did not run (exit $rc; see ${d#"$root"/}/stdout)"
        fi
        # Its mean rate: every execution over the fuzzing time it was given.
        eps="$(sed -n 's/.*, execs: \([0-9]*\) .*/\1/p' <<<"$last" | awk -v s="$secs" '{ printf "%.0f", $1 / s }')"
        [ "$rc" = 0 ] || why="finding (exit $rc)"
        ;;
    libfuzzer*)
        # One log, or with -jobs one per job (fuzz-JOB.log): the rate is
        # the sum of the jobs'.
        local logs=("$d/stderr") log one
        [ "$e" != libfuzzer-jobs2 ] || logs=("$d"/fuzz-*.log)
        eps=0
        for log in "${logs[@]}"; do
            grep -q 'INITED' "$log" 2>/dev/null || {
                tail -n 20 "$d/stderr" "$log" >&2
                die "$t/$e/$r: libFuzzer did not start (exit $rc; see ${log#"$root"/})"
            }
            one="$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\)/\1/p' "$log" | tail -n1)"
            if [ -z "$one" ]; then
                last="$(grep -E '^#[0-9]+.*exec/s: ' "$log" | tail -n1 || true)"
                one="$(sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p' <<<"$last")"
            fi
            eps=$((eps + ${one:-0}))
        done
        [ "$rc" = 0 ] || why="finding (exit $rc)"
        if [ "$t" = cmp ]; then
            bug="$(find "$d" -maxdepth 1 -name 'crash-*' -printf '%T@\n' | sort -n | head -n1)"
        fi
        ;;
    aflpp*)
        # One instance (default/), or aflpp440-ms2's two (main/, second/):
        # rates and findings summed.
        local stats=("$d/afl/default/fuzzer_stats")
        [ "$e" != aflpp440-ms2 ] || stats=("$d/afl/main/fuzzer_stats" "$d/afl/second/fuzzer_stats")
        local f crashes=0 hangs=0
        for f in "${stats[@]}"; do
            [ -f "$f" ] || {
                tail -n 30 "$d/stdout" "$d/stderr" >&2
                die "$t/$e/$r: afl-fuzz did not start (exit $rc; no ${f#"$d"/}; see ${d#"$root"/}/stdout)"
            }
        done
        eps="$(sed -n 's/^execs_per_sec *: *\([0-9.]*\).*/\1/p' "${stats[@]}" | awk '{ e += $1 } END { printf "%.0f", e }')"
        [ "$rc" = 0 ] || why="exit $rc"
        crashes="$(sed -n 's/^saved_crashes *: *\([0-9]*\).*/\1/p' "${stats[@]}" | awk '{ n += $1 } END { print n + 0 }')"
        hangs="$(sed -n 's/^saved_hangs *: *\([0-9]*\).*/\1/p' "${stats[@]}" | awk '{ n += $1 } END { print n + 0 }')"
        [ "$crashes" = 0 ] || why="${why:+$why, }$crashes crashes"
        [ "$hangs" = 0 ] || why="${why:+$why, }$hangs hangs"
        if [ "$t" = cmp ]; then
            bug="$(find "$d"/afl/*/crashes -name 'id:*' -printf '%T@\n' 2>/dev/null | sort -n | head -n1)"
        fi
        ;;
    esac
    if [ -n "$bug" ]; then
        bug="$(awk -v b="$bug" -v t="$t0" 'BEGIN { printf "%.2f", b - t / 1e6 }')"
    elif [ "$t" = cmp ]; then
        bug="-"
    fi
    if [ "$t" != cmp ] && awk -v w="$wall" -v s="$secs" 'BEGIN { exit !(w < 0.9 * s) }'; then
        if [ "$may_rerun" = 1 ]; then
            stopped_at="${wall%.*}"
            return 0
        fi
        why="${why:+$why, }stopped at ${wall%.*} s"
    fi
    [ -z "$stops" ] || why="${why:+$why, }rerun after stops at $stops"

    # Replay every sample through the meter; fuzz-run's and Go's are v1 files.
    local s raw edges final_edges="" timeline="$d/timeline.tsv"
    : >"$timeline"
    for s in $(find "$d/snap" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -n); do
        raw="$d/snap/$s"
        if { [[ "$e" == fuzz-run* ]] || [ "$e" = go ]; } && [ -n "$(ls -A "$raw")" ]; then
            raw="$d/snap-raw/$s"
            "$bin/fuzz-convert" export -o "$raw" "$d/snap/$s" >/dev/null 2>"$d/export.err" ||
                die "$t/$e/$r: fuzz-convert export of sample $s failed: $(head -n3 "$d/export.err")"
        fi
        edges="$(meter "$t" "$seeds/$t" "$raw")"
        [ -n "$edges" ] || note "$t/$e/$r: the replay of sample $s gave no cov: line"
        printf '%s\t%s\t%s\t%s\t%s\n' "$t" "$e" "$r" "$s" "$edges" >>"$timeline"
        final_edges="$edges"
    done
    # Sampling times the run did not live to see keep its final corpus.
    for ((k = 1; k * interval < secs; k++)); do
        [ -d "$d/snap/$((k * interval))" ] ||
            printf '%s\t%s\t%s\t%s\t%s\n' "$t" "$e" "$r" "$((k * interval))" "$final_edges" >>"$timeline"
    done
    n_final="$(find "$d/snap/$secs" -type f | wc -l)"
    # Every sample is replayed now: keep the final corpus (funcdiff.py
    # reads it) and drop the others, which made a quick sitting's
    # directory hold about a gigabyte, and the next sitting wait minutes
    # to remove it.
    for s in $(find "$d/snap" -mindepth 1 -maxdepth 1 -type d -printf '%f\n'); do
        [ "$s" = "$secs" ] || rm -rf "$d/snap/$s" "$d/snap-raw/$s"
    done
    local row rows
    printf -v row '%s\t' "$mode" "$secs" "$t" "$e" "$r" "$rc" "$wall" "$cpu_frac" "${eps:-}" "${final_edges:-}" \
        "$n_final" "${bug:-}" "${why:-}" "$load0" "$load1" "$started"
    row+="$(cat "$bin/built-from" 2>/dev/null || echo '?')"
    rows="$(sed "s/^/$secs\t/" "$timeline")"
    # One write each (O_APPEND): the other jobs append to the same files.
    printf '%s\n' "$rows" >>"$store/timeline.tsv"
    printf '%s\n' "$row" >>"$store/runs.tsv"
    note "done $t/$e/$r: ${final_edges:-?} edges, ${eps:-?} execs/s${bug:+, bug at $bug s}${why:+ ($why)} [cpu $cpu]"
}

# The queue: run-major, so that a stopped campaign has whole rounds;
# within a round the one-CPU runs first and the two-CPU runs after them,
# so that one-CPU runs go JOBS at once (as in a selection with no
# two-CPU engine) rather than each alone between two of the others.
queue=()
narrow=0
wide=0
for ((r = 1; r <= runs; r++)); do
    for pass in narrow wide; do
        for t in $targets; do
            for e in $engines; do
                if is_wide "$e"; then width=wide; else width=narrow; fi
                [ "$width" = "$pass" ] || continue
                if [ "$e" = fuzz-run-dict ] && [ ! -f "$suite/dict/$t.dict" ]; then
                    note "no dictionary for $t: fuzz-run-dict does not run on it (n/a in the table)"
                    continue
                fi
                if [ "$e" = go ] && [ -z "$(go_twin "$t")" ]; then
                    note "no Go twin of $t: go does not run on it (n/a in the table)"
                    continue
                fi
                awk -F'\t' -v k="$mode $secs $t $e $r" '$1" "$2" "$3" "$4" "$5 == k { f = 1 } END { exit !f }' \
                    "$store/runs.tsv" && continue
                queue+=("$t $e $r")
                if [ "$width" = wide ]; then wide=$((wide + 1)); else narrow=$((narrow + 1)); fi
            done
        done
    done
done
total="${#queue[@]}"
note "$mode: $secs s per run, $runs run(s), samples every $interval s, $jobs at once; $total run(s) to do"
uptime >&2
if [ "$total" -gt 0 ]; then
    # A two-CPU run goes alone; the others JOBS at once.
    rounds=$(((narrow + jobs - 1) / jobs + wide))
    note "about $(((rounds * (secs + 15) + 59) / 60)) minutes"
fi

# Two (JOBS) runs at once, each pinned to its own CPU.
declare -A cpu_of=()
# On Ctrl-C or kill, stop the runs under way (every process they started,
# by id; timeout(1) puts the engines in process groups of their own).
descendants() {
    local c
    for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        descendants "$c"
        echo "$c"
    done
}
stop_runs() {
    local p pids=() more
    for p in "${!cpu_of[@]}"; do
        mapfile -t more < <(descendants "$p")
        pids+=("${more[@]}" "$p")
    done
    [ "${#pids[@]}" = 0 ] || kill -TERM "${pids[@]}" 2>/dev/null || true
    die "interrupted; finished runs are kept in ${store#"$root"/}/runs.tsv, rerun to go on"
}
trap stop_runs INT TERM
free_cpus=()
slot=0
slot_run=
for ((i = 0; i < jobs; i++)); do free_cpus+=("$((i % ncpu))"); done
failed=0
reap() {
    local pid rc=0
    wait -n -p pid "${!cpu_of[@]}" || rc=$?
    [ "$rc" = 0 ] || failed=1
    free_cpus+=("${cpu_of[$pid]}")
    unset "cpu_of[$pid]"
}
for job in "${queue[@]}"; do
    [ "$failed" = 0 ] || break
    while [ "${#cpu_of[@]}" -ge "$jobs" ]; do reap; done
    [ "$failed" = 0 ] || break
    read -r t e r <<<"$job"
    if is_wide "$e"; then
        # Two CPUs: alone on the machine's first two, the others waiting.
        while [ "${#cpu_of[@]}" -gt 0 ]; do reap; done
        [ "$failed" = 0 ] || break
        run_one "$t" "$e" "$r" 0,1 &
        cpu_of[$!]=wide
        wait "$!" || failed=1
        unset "cpu_of[$!]"
        continue
    fi
    # The CPU turns round from run to run (the job in place s of run r
    # takes CPU (s + r - 1) mod JOBS), so that each engine runs on each
    # CPU: the CPUs of one machine run the same engine at rates that
    # differ. Waiting for that CPU costs the seconds between two runs'
    # ends, more when a run ended early (a finding); with PIN=0 the CPU is
    # only a label and nothing waits.
    if [ "$r" != "$slot_run" ]; then
        slot=0
        slot_run="$r"
    fi
    want=$(((slot + r - 1) % jobs % ncpu))
    slot=$((slot + 1))
    if [ "$pin" != 0 ]; then
        while [[ " ${free_cpus[*]} " != *" $want "* ]] && [ "${#cpu_of[@]}" -gt 0 ]; do reap; done
        [ "$failed" = 0 ] || break
    fi
    cpu="${free_cpus[0]}"
    [[ " ${free_cpus[*]} " != *" $want "* ]] || cpu="$want"
    rest=()
    taken=0
    for c in "${free_cpus[@]}"; do
        if [ "$taken" = 0 ] && [ "$c" = "$cpu" ]; then
            taken=1
        else
            rest+=("$c")
        fi
    done
    free_cpus=("${rest[@]}")
    run_one "$t" "$e" "$r" "$cpu" &
    cpu_of[$!]="$cpu"
done
while [ "${#cpu_of[@]}" -gt 0 ]; do reap; done
[ "$failed" = 0 ] || die "a run failed (see above); finished runs are kept in ${store#"$root"/}/runs.tsv, rerun to go on"

# ------------------------------------------------------------ report
# This invocation's selection of the finished runs (a campaign's files may
# hold other targets, engines or run lengths).
results="$mode_dir/results.tsv"
# (Not timeline.tsv: in quick mode the store is this same directory.)
timeline="$mode_dir/timeline-selected.tsv"
pick='index(" " T " ", " " t " ") && index(" " E " ", " " e " ") && r <= R'
awk -F'\t' -v m="$mode" -v s="$secs" -v T="$targets" -v E="$engines" -v R="$runs" \
    "NR == 1 || (\$1 == m && \$2 == s && (t = \$3) != \"\" && (e = \$4) != \"\" && (r = \$5) && $pick)" \
    "$store/runs.tsv" >"$results"
printf 'target\tengine\trun\tseconds\tedges\n' >"$timeline"
awk -F'\t' -v OFS='\t' -v s="$secs" -v T="$targets" -v E="$engines" -v R="$runs" \
    "NR > 1 && \$1 == s && (t = \$2) != \"\" && (e = \$3) != \"\" && (r = \$4) && $pick { print t, e, r, \$5, \$6 }" \
    "$store/timeline.tsv" >>"$timeline"
[ "$(wc -l <"$results")" -gt 1 ] || die "no finished runs to report"
# Seeds alone: every run's point at 0 s.
for t in $targets; do
    e0="$(meter "$t" "$seeds/$t")"
    awk -F'\t' -v OFS='\t' -v t="$t" -v e0="$e0" 'NR > 1 && $3 == t { print t, $4, $5, 0, e0 }' \
        "$results" >>"$timeline"
done
plots="$mode_dir/plots"
rm -rf "$plots"
python3 "$suite/plot.py" "$timeline" "$plots" " ($mode: ${secs} s, $runs run(s), 1 core each)" >/dev/null ||
    die "plotting failed"

header="$(
    echo "- measured: runs started $(awk -F'\t' 'NR > 1 { print $16 }' "$results" | sort | sed -n '1p;$p' | uniq |
        paste -sd' ' | sed 's/ / to /; s/T/ /g') ($(date +%Z)), bench/suite.sh $mode: $secs s per run, $runs run(s) per (target, engine), $jobs runs at once, each pinned to one of $ncpu CPUs ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))"
    echo "- fuzz-run built from $(awk -F'\t' 'NR > 1 { print $17 }' "$results" | sort -u | paste -sd';' |
        sed 's/;/; /g'); $toolchain"
    echo "- targets: $versions"
    echo "- terms: 10 s per input for every engine; a run ends at its first finding, and one that so ended before 90 % of its time was rerun (up to $stop_reruns times; notes say when it stopped)"
    [ -z "$dropped" ] || echo "- not run (the fuzz-run built has no such flag): ${dropped% }"
)"
summary="$mode_dir/summary.md"
python3 "$suite/report.py" "$results" "$mode" "$header" >"$summary" || die "the report failed"
if [ -n "$(for e in $engines; do ! is_wide "$e" || echo "$e"; done)" ]; then
    { echo; echo "Scaling to two CPUs (bench/suite/scaling.py):"; echo
      python3 "$suite/scaling.py" "$timeline" "$secs"; } >>"$summary" || die "the scaling table failed"
fi
echo
cat "$summary"
echo
echo "plots: ${plots#"$root"/}/*.svg; runs: ${mode_dir#"$root"/}/runs/"
# A full campaign appends its table when this invocation finished it; a
# rerun with nothing left to do only prints it (RECORD=1 appends anyway).
record=0
if [ "$mode" = full ] && [ "$total" -gt 0 ]; then record=1; fi
[ "${RECORD:-0}" = 0 ] || record=1
if [ "$record" = 1 ]; then
    if [ ! -f "$here/RESULTS.md" ]; then
        printf '# Benchmark results\n\nTables appended by bench/suite.sh (see bench/README.md).\n' >"$here/RESULTS.md"
    fi
    {
        echo
        cat "$summary"
    } >>"$here/RESULTS.md"
    if [ "$mode" = quick ]; then
        mkdir -p "$suite/plots"
        cp "$plots"/*.svg "$suite/plots/"
        # The raw rows of the table just appended (full mode's are in the
        # store, committed as the campaign goes).
        sitting="$suite/sittings/$(date -u +%Y-%m-%dT%H%MZ)-quick-${secs}s"
        mkdir -p "$sitting"
        cp "$results" "$sitting/runs.tsv"
        cp "$timeline" "$sitting/timeline.tsv"
        note "appended to bench/RESULTS.md; plots copied to bench/suite/plots/; runs to ${sitting#"$root"/}/ (commit them)"
    else
        mkdir -p "$store/plots"
        cp "$plots"/*.svg "$store/plots/"
        note "appended to bench/RESULTS.md; plots copied to ${store#"$root"/}/plots/"
    fi
fi
exit 0
}
