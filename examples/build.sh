#!/usr/bin/env bash
# Builds every example target into OUTDIR, instrumented with
# SanitizerCoverage as ARCHITECTURE.md ("Targets") describes.
#
#   examples/build.sh OUTDIR
#
# Needs cargo/rustc (stable), gcc and clang-19. Without clang-19 the
# clang-only variants (libc_parse_clang*.so, libc_stuck.so, libc_parse_fnl*.so,
# libc_asan*.so, libcmp_c_clang*.so, libcustom_*.so, libhidden.so) are skipped with a
# note on stderr;
# everything else is required, and a missing compiler is an error.
# Cargo's build directory is OUTDIR/cargo, so a second run into the same
# OUTDIR only relinks what changed. See examples/README.md for what each
# library holds.
set -euo pipefail

die() {
    echo "examples/build.sh: $*" >&2
    exit 1
}

[ $# -eq 1 ] || die "usage: examples/build.sh OUTDIR"
mkdir -p "$1" || die "cannot create $1"
OUT=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
INCLUDE="$HERE/../fuzz-target/include"

# Concurrent runs into one OUTDIR (parallel test binaries) take turns: the
# fixed and unfixed Rust builds share a cargo output file.
if command -v flock >/dev/null; then
    exec 9>"$OUT/.build.lock"
    flock 9
fi

CARGO=${CARGO:-cargo}
command -v "$CARGO" >/dev/null || die "cargo not found (install Rust stable: https://rustup.rs)"
command -v rustc >/dev/null || die "rustc not found (install Rust stable: https://rustup.rs)"
GCC=${GCC:-gcc}
command -v "$GCC" >/dev/null || die "gcc not found (apt-get install gcc)"
CLANG=${CLANG:-clang-19}
if command -v "$CLANG" >/dev/null; then
    HAVE_CLANG=1
else
    HAVE_CLANG=0
    echo "examples/build.sh: note: $CLANG not found; skipping the clang-19 variants" \
        "(libc_parse_clang*, libc_stuck, libc_parse_fnl*, libc_asan*, libcmp_c_clang*, libcustom_*, libhidden);" \
        "install it with: apt-get install clang-19" >&2
fi

HOST=$(rustc -vV | sed -n 's/^host: //p')
[ -n "$HOST" ] || die "cannot read the host triple from rustc -vV"

# ---------------------------------------------------------------- Rust
# --target HOST keeps RUSTFLAGS away from build scripts and proc-macros,
# which would not link with SanitizerCoverage references.
RUSTFLAGS=$("$HERE/rustflags.sh")
export RUSTFLAGS
# Settings from the caller's environment that would change the build.
unset CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS CARGO_ENCODED_RUSTFLAGS

# rust_example DIR LIBNAME: builds DIR into OUT/libLIBNAME.so and, with
# --features fixed, OUT/libLIBNAME_fixed.so.
rust_example() {
    local dir=$1 lib=$2 features suffix
    for features in "" fixed; do
        suffix=${features:+_$features}
        "$CARGO" build --quiet --release --target "$HOST" \
            --manifest-path "$HERE/$dir/Cargo.toml" \
            --target-dir "$OUT/cargo" ${features:+--features "$features"} ||
            die "cargo build of examples/$dir${features:+ (--features $features)} failed"
        cp "$OUT/cargo/$HOST/release/lib$lib.so" "$OUT/lib$lib$suffix.so.tmp.$$"
        mv "$OUT/lib$lib$suffix.so.tmp.$$" "$OUT/lib$lib$suffix.so"
    done
}

rust_example rust-typed rust_typed
rust_example rust-bytes rust_bytes
rust_example cmp/rust rust_cmp
rust_example custom/rust rust_custom

# rust-typed once more with panic = "abort", as cargo-fuzz and most Rust
# harnesses build: a panic ends the process (SIGABRT) instead of returning
# a failure. Its own target directory: other RUSTFLAGS would rebuild the
# others' dependencies.
RUSTFLAGS="$RUSTFLAGS -Cpanic=abort" "$CARGO" build --quiet --release --target "$HOST" \
    --manifest-path "$HERE/rust-typed/Cargo.toml" --target-dir "$OUT/cargo-abort" ||
    die "cargo build of examples/rust-typed with -Cpanic=abort failed"
cp "$OUT/cargo-abort/$HOST/release/librust_typed.so" "$OUT/librust_typed_abort.so.tmp.$$"
mv "$OUT/librust_typed_abort.so.tmp.$$" "$OUT/librust_typed_abort.so"

# ------------------------------------------------------------------- C
CFLAGS_COMMON=(-g -O1 -fPIC -shared -Wall -Wextra -I"$INCLUDE")
# shellcheck disable=SC2054 # commas inside one flag
GCC_COV=(-fsanitize-coverage=trace-pc,trace-cmp)
# shellcheck disable=SC2054
CLANG_COV=(-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp)
# The 10-byte memcmp must stay a call, where the worker's interposed
# memcmp sees it, not be expanded inline into wide loads.
NO_BUILTIN_CMP=(-fno-builtin-memcmp -fno-builtin-bcmp)

# build_c OUTPUT COMPILER ARGS...: compiles to OUT/OUTPUT, atomically.
build_c() {
    local out=$1 compiler=$2
    shift 2
    "$compiler" "${CFLAGS_COMMON[@]}" "$@" -o "$OUT/$out.tmp.$$" ||
        die "$compiler failed building $out"
    mv "$OUT/$out.tmp.$$" "$OUT/$out"
}

build_c libc_parse_gcc.so "$GCC" "${GCC_COV[@]}" "$HERE/c/parse.c"
build_c libc_parse_gcc_fixed.so "$GCC" "${GCC_COV[@]}" -DFIXED "$HERE/c/parse.c"
build_c libmisbehave.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/c/misbehave.c"
build_c libfaults.so "$GCC" -fsanitize-coverage=trace-pc -pthread "$HERE/c/faults.c"
build_c libcmp_c.so "$GCC" "${GCC_COV[@]}" "${NO_BUILTIN_CMP[@]}" "$HERE/cmp/cmp.c"
build_c libcmp_c_fixed.so "$GCC" "${GCC_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED "$HERE/cmp/cmp.c"
build_c libcmp_number.so "$GCC" "${GCC_COV[@]}" "$HERE/cmp/number.c"
build_c libcmp_number_fixed.so "$GCC" "${GCC_COV[@]}" -DFIXED "$HERE/cmp/number.c"
# The same without trace-cmp: fuzz-run -cmp_lib libcmp_number.so.
build_c libcmp_number_fast.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/cmp/number.c"
# The search beyond Go's (bench/search.sh): trace-pc alone, no operands.
build_c libladder.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/search/ladder.c"
build_c libhalves.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/search/halves.c"
build_c libscript.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/search/script.c"
build_c liblength.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/search/length.c"
build_c libblocks.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/search/blocks.c"
build_c libalternation.so "$GCC" -fsanitize-coverage=trace-pc "$HERE/search/alternation.c"

if [ "$HAVE_CLANG" = 1 ]; then
    build_c libc_parse_clang.so "$CLANG" "${CLANG_COV[@]}" "$HERE/c/parse.c"
    build_c libc_parse_clang_fixed.so "$CLANG" "${CLANG_COV[@]}" -DFIXED "$HERE/c/parse.c"
    build_c libc_stuck.so "$CLANG" "${CLANG_COV[@]}" "$HERE/c/stuck.c"
    build_c libc_parse_fnl.so "$CLANG" -fsanitize=fuzzer-no-link "$HERE/c/parse.c"
    build_c libc_parse_fnl_fixed.so "$CLANG" -fsanitize=fuzzer-no-link -DFIXED "$HERE/c/parse.c"
    build_c libc_asan.so "$CLANG" -fsanitize=address -shared-libasan "${CLANG_COV[@]}" "$HERE/c/asan.c"
    build_c libc_asan_fixed.so "$CLANG" -fsanitize=address -shared-libasan "${CLANG_COV[@]}" -DFIXED "$HERE/c/asan.c"
    build_c libcmp_c_clang.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" "$HERE/cmp/cmp.c"
    build_c libcmp_c_clang_fixed.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED "$HERE/cmp/cmp.c"
    build_c libcustom_record.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" "$HERE/custom/record.c"
    build_c libcustom_record_fixed.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED "$HERE/custom/record.c"
    build_c libcustom_record_nomutator.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DNO_CUSTOM_MUTATOR "$HERE/custom/record.c"
    build_c libcustom_record_mutator_crash.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED -DMUTATOR_BUG=1 "$HERE/custom/record.c"
    build_c libcustom_record_mutator_hang.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED -DMUTATOR_BUG=2 "$HERE/custom/record.c"
    build_c libcustom_config.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" "$HERE/custom/config.c"
    build_c libcustom_config_fixed.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED "$HERE/custom/config.c"
    # Hidden decisions (-cmp_outcomes): trace-cmp, fuzzed with -use_cmp 0.
    build_c libhidden.so "$CLANG" "${CLANG_COV[@]}" "$HERE/search/hidden.c"
    build_c libcustom_config_cross_over_crash.so "$CLANG" "${CLANG_COV[@]}" "${NO_BUILTIN_CMP[@]}" -DFIXED -DCROSS_OVER_BUG "$HERE/custom/config.c"
fi

echo "examples/build.sh: built $(find "$OUT" -maxdepth 1 -name 'lib*.so' | wc -l) libraries in $OUT" >&2
