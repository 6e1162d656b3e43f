#!/usr/bin/env bash
# Builds the real-bug benchmark's harnesses (bench/realbugs/README.md).
#
#   bench/realbugs/build.sh OUT [BUG...]
#
# Each bug's harness (bugs/BUG/harness.rs) is two cargo packages, one per
# library version, each its own workspace with its own Cargo.lock:
# bugs/BUG/buggy (the released version with the bug) and bugs/BUG/fixed
# (the release that fixed it). Everything comes from the crates.io registry
# through cargo; C libraries come as the C source a -sys crate bundles.
#
# One function per flavour; FLAVOURS (default all five: "fuzzrun libfuzzer
# fixed aflpp440 aflpp440cmp") picks which are built:
#   fuzzrun    OUT/fuzz-run/libBUG.so   buggy cdylib, rustc's sancov flags
#                                       (examples/README.md), for fuzz-run;
#                                       its libFuzzer target is named BUG
#   libfuzzer  OUT/libfuzzer/BUG        the same objects (the staticlib of
#                                       the same cargo build) linked with
#                                       clang-19 -fsanitize=fuzzer: libFuzzer
#                                       19, and the checker's buggy replayer
#   fixed      OUT/fixed/BUG            the fixed version, built and linked
#                                       the same way: the checker's fixed
#                                       replayer
#   aflpp440   OUT/aflpp440/BUG         the buggy harness for AFL++ 4.40c, as
#                                       bench/suite.sh builds its afl440
#                                       flavour: Rust with rustc's sancov
#                                       trace-pc-guard, C by its afl-clang-fast
#                                       (PCGUARD), linked with its
#                                       afl-compiler-rt.o and libAFLDriver.a
#                                       (persistent mode, shared-memory input)
#                                       and rss_limit.c; OUT/aflpp440/BUG.dict
#                                       its dictionary of the C code
#                                       (AFL_LLVM_DICT2FILE), when there is C
#                                       code; OUT/aflpp440/afl-fuzz and
#                                       VERSION, the AFL++ that built them
#   aflpp440cmp OUT/aflpp440cmp/BUG     the same with CmpLog (AFL_LLVM_CMPLOG=1,
#                                       rustc's trace-compares): afl-fuzz's
#                                       -c BIN beside OUT/aflpp440/BUG
# C code in -sys crates is compiled by clang-19 with the matching
# -fsanitize-coverage flags (CFLAGS_<target> for the cc crate). A bug whose
# directory holds a file named asan has its C code built with
# AddressSanitizer too (-fsanitize=address): the libFuzzer binaries link the
# ASan runtime, the fuzz-run library is left with its __asan_* references,
# which fuzz-worker resolves by preloading clang-19's shared runtime (as for
# examples/c/asan.c). Without it a memory-corrupting C bug can wreck the
# process before an in-process engine saves the input.
# AFL++ 4.40c is bench/aflpp/build.sh's (bench/out/aflpp/4.40c, which that
# script builds when it is missing, ~2 minutes); AFL440=DIR takes another
# prefix that script made.
# Builds are niced, one job at a time (CARGO_BUILD_JOBS, default 1); cargo's
# directories are OUT/cargo-buggy, OUT/cargo-fixed, OUT/cargo-aflpp440 and
# OUT/cargo-aflpp440cmp,
# so a rerun only redoes what changed (but for the aflpp440 flavour's -sys
# crates, whose C code is compiled again so that the dictionary is whole).
set -euo pipefail

die() {
    echo "bench/realbugs/build.sh: $*" >&2
    exit 1
}
note() { echo "bench/realbugs/build.sh: $*" >&2; }

[ $# -ge 1 ] || die "usage: bench/realbugs/build.sh OUT [BUG...]"
mkdir -p "$1" || die "cannot create $1"
OUT=$(cd "$1" && pwd)
shift
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/set.sh"

if [ $# -gt 0 ]; then
    BUGS=("$@")
else
    mapfile -t BUGS < <(cd "$SETDIR/bugs" && ls -d -- */ | tr -d /)
fi
for bug in "${BUGS[@]}"; do
    [ -f "$SETDIR/bugs/$bug/harness.rs" ] || die "no such bug: $bug (bugs/$bug/harness.rs)"
done
FLAVOURS=${FLAVOURS:-fuzzrun libfuzzer fixed aflpp440 aflpp440cmp}

CARGO=${CARGO:-cargo}
CLANG=${CLANG:-clang-19}
command -v "$CARGO" >/dev/null || die "cargo not found"
command -v rustc >/dev/null || die "rustc not found"
command -v "$CLANG" >/dev/null || die "$CLANG not found (apt-get install clang-19 libclang-rt-19-dev)"
HOST=$(rustc -vV | sed -n 's/^host: //p')
[ -n "$HOST" ] || die "cannot read the host triple from rustc -vV"
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
unset CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_TARGET_DIR

# The instrumentation of the fuzz-run and libFuzzer builds (one build, both
# link it): Rust as examples/README.md says, C as bench/suite.sh's clang-19
# targets (memcmp & co kept as calls that both engines see).
SANCOV_RUST="-Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=3 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares"
C_NO_BUILTIN="-fno-builtin-memcmp -fno-builtin-bcmp -fno-builtin-strcmp -fno-builtin-strncmp"
SANCOV_C="-g -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp $C_NO_BUILTIN"
# Libraries the Rust staticlib needs when clang links it (as bench/suite.sh).
# shellcheck disable=SC2054 # commas inside one flag
RUST_LINK=(-Wl,--gc-sections -Wl,-z,start-stop-gc -lgcc_s -lutil -lrt -lpthread -lm -ldl)

# cargo_build BUG VARIANT RUSTFLAGS CFLAGS TARGETDIR [CC]: builds
# bugs/BUG/VARIANT (--locked: the committed Cargo.lock) into TARGETDIR, C
# code by CC (default clang-19); prints the release directory.
cargo_build() {
    local bug=$1 variant=$2 rustflags=$3 cflags=$4 tdir=$5 cc=${6:-$CLANG}
    local cflags_var="CFLAGS_${HOST//-/_}"
    (
        export RUSTFLAGS="$rustflags" CC="$cc" "$cflags_var=$cflags"
        nice -n 10 "$CARGO" build --quiet --locked --release --target "$HOST" \
            --manifest-path "$SETDIR/bugs/$bug/$variant/Cargo.toml" --target-dir "$tdir"
    ) >&2 || die "cargo build of bugs/$bug/$variant failed"
    echo "$tdir/$HOST/release"
}

# c_flags BUG: the C flags of BUG's instrumented builds.
c_flags() {
    if [ -f "$SETDIR/bugs/$1/asan" ]; then
        echo "$SANCOV_C -fsanitize=address"
    else
        echo "$SANCOV_C"
    fi
}

# link_libfuzzer BUG STATICLIB OUTPUT
link_libfuzzer() {
    local sanitize=fuzzer
    [ -f "$SETDIR/bugs/$1/asan" ] && sanitize=fuzzer,address
    mkdir -p "$(dirname "$3")"
    set -- "$2" "$3"
    "$CLANG" -fsanitize=$sanitize "$1" -o "$2.tmp.$$" "${RUST_LINK[@]}" ||
        die "linking $2 with libFuzzer failed"
    mv "$2.tmp.$$" "$2"
}

# install FILE DEST: copies atomically.
install_file() {
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2.tmp.$$"
    mv "$2.tmp.$$" "$2"
}

flavour_fuzzrun() {
    local rel
    rel=$(cargo_build "$1" buggy "$SANCOV_RUST" "$(c_flags "$1")" "$OUT/cargo-buggy")
    install_file "$rel/librb_$1.so" "$OUT/fuzz-run/lib$1.so"
}

flavour_libfuzzer() {
    local rel
    rel=$(cargo_build "$1" buggy "$SANCOV_RUST" "$(c_flags "$1")" "$OUT/cargo-buggy")
    link_libfuzzer "$1" "$rel/librb_$1.a" "$OUT/libfuzzer/$1"
}

flavour_fixed() {
    local rel
    rel=$(cargo_build "$1" fixed "$SANCOV_RUST" "$(c_flags "$1")" "$OUT/cargo-fixed")
    link_libfuzzer "$1" "$rel/librb_$1.a" "$OUT/fixed/$1"
}

# AFL++ 4.40c: bench/aflpp/build.sh's prefix, built when missing (the script
# returns at once when it is there), or AFL440 (a prefix that script made).
afl440_ready=0
afl440_prefix() {
    [ "$afl440_ready" = 0 ] || return 0
    local f
    if [ -z "${AFL440:-}" ]; then
        AFL440="$HERE/../out/aflpp/4.40c"
        note "AFL++ 4.40c: bench/aflpp/build.sh (builds it when missing)"
        MAKE_JOBS=1 "$HERE/../aflpp/build.sh" >&2 || die "bench/aflpp/build.sh failed"
    fi
    for f in bin/afl-fuzz bin/afl-clang-fast lib/afl/afl-compiler-rt.o lib/afl/libAFLDriver.a VERSION; do
        [ -e "$AFL440/$f" ] ||
            die "AFL440=$AFL440 has no $f (unset AFL440 to build AFL++ 4.40c with bench/aflpp/build.sh)"
    done
    AFL440=$(cd "$AFL440" && pwd)
    grep -q '^afl-fuzz++4\.40c ' "$AFL440/VERSION" || die "$AFL440/VERSION does not say afl-fuzz++4.40c"
    mkdir -p "$OUT/aflpp440"
    # The fuzzer that goes with the builds (run.sh runs this one), what it
    # is, and the memory limit (rss_limit.c).
    install_file "$AFL440/bin/afl-fuzz" "$OUT/aflpp440/afl-fuzz"
    install_file "$AFL440/VERSION" "$OUT/aflpp440/VERSION"
    "$CLANG" -O2 -c "$HERE/rss_limit.c" -o "$OUT/aflpp440/rss_limit.o.tmp.$$" ||
        die "compiling rss_limit.c failed"
    mv "$OUT/aflpp440/rss_limit.o.tmp.$$" "$OUT/aflpp440/rss_limit.o"
    afl440_ready=1
}

# links_packages BUG VARIANT: the packages of bugs/BUG/VARIANT's build that
# declare `links` (the -sys crates, which build C code), one a line.
links_packages() {
    "$CARGO" metadata --quiet --locked --format-version 1 --filter-platform "$HOST" \
        --manifest-path "$SETDIR/bugs/$1/$2/Cargo.toml" |
        python3 -c 'import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p.get("links"):
        print("%s@%s" % (p["name"], p["version"]))' ||
        die "cargo metadata of bugs/$1/$2 failed"
}

# The AFL++ build (bench/suite.sh's afl440 flavour): Rust instrumented by
# rustc with sancov trace-pc-guard, whose callbacks AFL++'s
# afl-compiler-rt.o implements (as cargo-afl does); C code of -sys crates by
# AFL++'s afl-clang-fast (its PCGUARD pass), with the same C flags as the
# other builds but SanitizerCoverage's (AFL_DONT_OPTIMIZE: cc's -O3 only, no
# -funroll-loops added) and its dict2file pass writing the C code's
# constants to OUT/aflpp440/BUG.dict (afl-fuzz -x), as the suite does; the
# staticlib linked with libAFLDriver.a (LLVMFuzzerTestOneInput in
# persistent mode) and rss_limit.o. rustc cannot run AFL++'s passes (an
# LLVM 19 plugin; rustc's LLVM is its own and stable rustc loads no
# plugins), so Rust code has no dictionary, as in the suite.
flavour_aflpp440() { afl440_build "$1" aflpp440; }

# The CmpLog build beside it (afl-fuzz -c BIN, AFL++'s configuration in
# FuzzBench): the same, with AFL_LLVM_CMPLOG=1 for the C code and rustc's
# trace-compares for the Rust code (afl-compiler-rt.o's
# __sanitizer_cov_trace_cmp* hooks fill the CmpLog map, as in the suite's
# afl440cmp flavour); its own cargo directory, no dictionary.
flavour_aflpp440cmp() { afl440_build "$1" aflpp440cmp; }

# afl440_build BUG DIR: the aflpp440 or aflpp440cmp flavour of BUG, as
# OUT/DIR/BUG.
afl440_build() {
    local bug=$1 fl=$2 rel dict="" tdir="$OUT/cargo-$2" pkg pkgs san=() cflags rustflags envs
    afl440_prefix
    mkdir -p "$OUT/$fl"
    envs=(AFL_QUIET=1 AFL_DONT_OPTIMIZE=1)
    if [ "$fl" = aflpp440 ]; then
        dict="$OUT/aflpp440/$bug.dict"
        envs+=(AFL_LLVM_DICT2FILE="$dict")
        rustflags=$("$HERE/../../examples/rustflags.sh" trace-pc-guard)
        # Compile the -sys crates' C code again, so that dict2file (which
        # only runs when afl-clang-fast compiles) writes the whole dictionary.
        rm -f "$dict"
        pkgs=$(links_packages "$bug" buggy)
        for pkg in $pkgs; do
            "$CARGO" clean --quiet --release --target "$HOST" --manifest-path "$SETDIR/bugs/$bug/buggy/Cargo.toml" \
                --target-dir "$tdir" -p "$pkg" >&2 || die "cargo clean -p $pkg failed"
        done
    else
        envs+=(AFL_LLVM_CMPLOG=1)
        rustflags=$("$HERE/../../examples/rustflags.sh" trace-pc-guard trace-compares)
    fi
    cflags="-g $C_NO_BUILTIN"
    [ -f "$SETDIR/bugs/$bug/asan" ] && cflags="$cflags -fsanitize=address" san=(-fsanitize=address)
    rel=$(
        export "${envs[@]}"
        cargo_build "$bug" buggy "$rustflags" "$cflags" "$tdir" "$AFL440/bin/afl-clang-fast"
    )
    # libAFLDriver's reference to the entry is weak: -u pulls it in.
    "$CLANG" "${san[@]}" -Wl,-u,LLVMFuzzerTestOneInput "$AFL440/lib/afl/afl-compiler-rt.o" \
        "$AFL440/lib/afl/libAFLDriver.a" "$OUT/aflpp440/rss_limit.o" "$rel/librb_$bug.a" \
        -o "$OUT/$fl/$bug.tmp.$$" "${RUST_LINK[@]}" || die "linking the AFL++ build of $bug ($fl) failed"
    mv "$OUT/$fl/$bug.tmp.$$" "$OUT/$fl/$bug"
    # The plain flavour's dictionary: kept when the C code gave words.
    if [ -n "$dict" ] && [ -s "$dict" ]; then
        note "$bug: aflpp440 dictionary of the C code: $(grep -c . "$dict") word(s)"
    elif [ -n "$dict" ]; then
        rm -f "$dict"
    fi
}

for fl in $FLAVOURS; do
    declare -F "flavour_$fl" >/dev/null || die "unknown flavour: $fl (fuzzrun, libfuzzer, fixed, aflpp440, aflpp440cmp)"
done
for bug in "${BUGS[@]}"; do
    for fl in $FLAVOURS; do
        note "$bug: $fl"
        "flavour_$fl" "$bug"
    done
done
# What was built with what, for the results.
{
    echo "rustc	$(rustc --version)"
    echo "clang	$("$CLANG" --version | head -n1)"
    [ "$afl440_ready" = 0 ] || echo "aflpp440	$(paste -sd' ' "$AFL440/VERSION")"
} >"$OUT/toolchain.tsv"
note "built ${#BUGS[@]} bug(s) ($FLAVOURS) into $OUT"
