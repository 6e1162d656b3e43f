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
# One function per flavour; FLAVOURS (default "fuzzrun libfuzzer fixed")
# picks which are built:
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
#   aflpp440   (not built yet: errors)
# C code in -sys crates is compiled by clang-19 with the matching
# -fsanitize-coverage flags (CFLAGS_<target> for the cc crate). A bug whose
# directory holds a file named asan has its C code built with
# AddressSanitizer too (-fsanitize=address): the libFuzzer binaries link the
# ASan runtime, the fuzz-run library is left with its __asan_* references,
# which fuzz-worker resolves by preloading clang-19's shared runtime (as for
# examples/c/asan.c). Without it a memory-corrupting C bug can wreck the
# process before an in-process engine saves the input.
# Builds are niced, one job at a time (CARGO_BUILD_JOBS, default 1); cargo's
# directories are OUT/cargo-buggy and OUT/cargo-fixed, so a rerun only
# redoes what changed.
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

if [ $# -gt 0 ]; then
    BUGS=("$@")
else
    mapfile -t BUGS < <(cd "$HERE/bugs" && ls -d -- */ | tr -d /)
fi
for bug in "${BUGS[@]}"; do
    [ -f "$HERE/bugs/$bug/harness.rs" ] || die "no such bug: $bug (bugs/$bug/harness.rs)"
done
FLAVOURS=${FLAVOURS:-fuzzrun libfuzzer fixed}

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
SANCOV_C="-g -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp \
-fno-builtin-memcmp -fno-builtin-bcmp -fno-builtin-strcmp -fno-builtin-strncmp"
# Libraries the Rust staticlib needs when clang links it (as bench/suite.sh).
# shellcheck disable=SC2054 # commas inside one flag
RUST_LINK=(-Wl,--gc-sections -Wl,-z,start-stop-gc -lgcc_s -lutil -lrt -lpthread -lm -ldl)

# cargo_build BUG VARIANT RUSTFLAGS CFLAGS TARGETDIR: builds bugs/BUG/VARIANT
# (--locked: the committed Cargo.lock) into TARGETDIR; prints the release
# directory.
cargo_build() {
    local bug=$1 variant=$2 rustflags=$3 cflags=$4 tdir=$5
    local cflags_var="CFLAGS_${HOST//-/_}"
    (
        export RUSTFLAGS="$rustflags" CC="$CLANG" "$cflags_var=$cflags"
        nice -n 10 "$CARGO" build --quiet --locked --release --target "$HOST" \
            --manifest-path "$HERE/bugs/$bug/$variant/Cargo.toml" --target-dir "$tdir"
    ) >&2 || die "cargo build of bugs/$bug/$variant failed"
    echo "$tdir/$HOST/release"
}

# c_flags BUG: the C flags of BUG's instrumented builds.
c_flags() {
    if [ -f "$HERE/bugs/$1/asan" ]; then
        echo "$SANCOV_C -fsanitize=address"
    else
        echo "$SANCOV_C"
    fi
}

# link_libfuzzer BUG STATICLIB OUTPUT
link_libfuzzer() {
    local sanitize=fuzzer
    [ -f "$HERE/bugs/$1/asan" ] && sanitize=fuzzer,address
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

flavour_aflpp440() {
    die "aflpp440: AFL++ 4.40c builds are not built yet"
}

for fl in $FLAVOURS; do
    declare -F "flavour_$fl" >/dev/null || die "unknown flavour: $fl (fuzzrun, libfuzzer, fixed, aflpp440)"
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
} >"$OUT/toolchain.tsv"
note "built ${#BUGS[@]} bug(s) ($FLAVOURS) into $OUT"
