#!/usr/bin/env bash
# Builds AFL++ 4.40c from the source that the registry package
# cargo-afl-common 0.18.2 ships (its AFLplusplus/ directory, which cargo-afl
# builds), against Debian's LLVM 19, into a prefix under bench/out/:
#
#   bench/aflpp/build.sh            # build (skipped when already built)
#   REBUILD=1 bench/aflpp/build.sh  # build again from a fresh unpack
#   MAKE_JOBS=2 bench/aflpp/build.sh  # parallel make (default 1, under nice)
#
# What it installs, in bench/out/aflpp/4.40c/:
#   bin/afl-fuzz, afl-showmap, afl-tmin, afl-cmin*, afl-cc and its names
#     (afl-clang-fast, afl-clang-fast++), afl-lto when lld-19 is there
#   lib/afl/afl-compiler-rt.o, libAFLDriver.a (utils/aflpp_driver), the LLVM
#     passes (PCGUARD, CmpLog instructions/routines/switches, dict2file, ...)
#   VERSION: the afl-fuzz -h banner line, printed at the end
#
# The crate comes through cargo (a throwaway project under bench/out/aflpp/
# fetch), which checks it against the registry index's checksum; the script
# checks the .crate against the checksum pinned below as well, then unpacks
# it under bench/out/aflpp/src. Then it builds a trivial persistent-mode
# harness with afl-clang-fast + libAFLDriver.a and runs afl-fuzz on it for a
# few seconds: the build counts only when that fuzzes.
#
# Installs llvm-19-dev, clang-19 and libclang-rt-19-dev with apt-get when
# missing (lld-19 is optional: it gives afl-clang-lto, which the suite does
# not use).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
out="$bench/out/aflpp"
crate=cargo-afl-common
crate_ver=0.18.2
# sha256 of cargo-afl-common-0.18.2.crate, as the registry index gives it
crate_sha256=627af952d3c9d69b19744d85d7f39ad1d2c00bdf5cd6a9128e35ccdc657fee86
afl_ver=4.40c
prefix="$out/$afl_ver"
src="$out/src/$crate-$crate_ver/AFLplusplus"
jobs="${MAKE_JOBS:-1}"
LLVM_CONFIG="${LLVM_CONFIG:-/usr/lib/llvm-19/bin/llvm-config}"

die() { echo "aflpp/build: $*" >&2; exit 1; }
note() { echo "aflpp/build: $*" >&2; }

# The build counts only if its trial fuzzes; VERSION is written last.
if [ "${REBUILD:-0}" = 0 ] && [ -s "$prefix/VERSION" ] && [ -x "$prefix/bin/afl-fuzz" ] &&
    [ -f "$prefix/lib/afl/libAFLDriver.a" ] && [ -f "$prefix/lib/afl/afl-compiler-rt.o" ]; then
    note "already built (REBUILD=1 to build again)"
    cat "$prefix/VERSION"
    exit 0
fi

# shellcheck source=bench/apt.sh
. "$bench/apt.sh"
# llvm-config comes with llvm-19 (which test.sh installs); the headers
# AFL++'s passes compile against come only with llvm-19-dev.
{ [ -x "$LLVM_CONFIG" ] && [ -e "$("$LLVM_CONFIG" --includedir)/llvm/Support/raw_ostream.h" ]; } ||
    apt_install llvm-19-dev
command -v clang-19 >/dev/null || apt_install clang-19
[ -d "$("$LLVM_CONFIG" --libdir)/clang" ] || apt_install libclang-rt-19-dev
[ -n "$(find "$("$LLVM_CONFIG" --libdir)/clang" -name 'libclang_rt.fuzzer*' 2>/dev/null | head -n1)" ] ||
    apt_install libclang-rt-19-dev
command -v cargo >/dev/null || die "cargo is required"
command -v make >/dev/null || die "make is required"
llvm_bin="$("$LLVM_CONFIG" --bindir)"
[ "$("$LLVM_CONFIG" --version | cut -d. -f1)" = 19 ] || die "$LLVM_CONFIG is not LLVM 19"

# ---------------------------------------------------------- the crate
fetch="$out/fetch"
mkdir -p "$fetch/src"
cat >"$fetch/Cargo.toml" <<TOML
[package]
name = "aflpp-source"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$crate = "=$crate_ver"

[workspace]
TOML
: >"$fetch/src/lib.rs"
note "fetching $crate $crate_ver with cargo"
cargo fetch --quiet --manifest-path "$fetch/Cargo.toml" || die "cargo fetch of $crate $crate_ver failed"
lock_sum="$(awk -v n="$crate" -v v="$crate_ver" '
    $1 == "name" { name = $3 } $1 == "version" { ver = $3 }
    $1 == "checksum" && name == "\"" n "\"" && ver == "\"" v "\"" { gsub(/"/, "", $3); print $3 }' \
    "$fetch/Cargo.lock")"
[ "$lock_sum" = "$crate_sha256" ] ||
    die "the index's checksum of $crate $crate_ver is '$lock_sum', not the pinned $crate_sha256"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
file="$(find "$cargo_home/registry/cache" -name "$crate-$crate_ver.crate" 2>/dev/null | head -n1)"
[ -n "$file" ] || die "cargo fetched $crate $crate_ver but its .crate is not under $cargo_home/registry/cache"
sum="$(sha256sum "$file" | cut -d' ' -f1)"
[ "$sum" = "$crate_sha256" ] || die "$file has sha256 $sum, not $crate_sha256"
note "$crate-$crate_ver.crate: sha256 $sum (as the index says)"
rm -rf "$out/src"
mkdir -p "$out/src"
tar -xzf "$file" -C "$out/src" || die "unpacking $file failed"
[ -f "$src/config.h" ] || die "no AFLplusplus/ in $crate $crate_ver"
src_ver="$(sed -n 's/^#define VERSION "++\(.*\)"/\1/p' "$src/config.h")"
[ "$src_ver" = "$afl_ver" ] || die "$crate $crate_ver holds AFL++ $src_ver, not $afl_ver"

# ---------------------------------------------------------- build
# Only what the suite needs: afl-fuzz & co, the LLVM mode (afl-cc, its
# passes, afl-compiler-rt.o) and the libFuzzer driver. No PERFORMANCE=1
# (-march=native): the machine's CPU may change between sessions.
log="$out/build.log"
note "building AFL++ $afl_ver with LLVM $("$LLVM_CONFIG" --version) (make -j$jobs under nice; log: ${log#"$bench"/})"
mk=(nice -n 10 make -C "$src" -j"$jobs" PREFIX="$prefix" LLVM_CONFIG="$LLVM_CONFIG" NO_PYTHON=1 NO_NYX=1)
: >"$log"
step() { # what make-args...: one make run into the log, or the log's tail and die
    local what="$1"
    shift
    "${mk[@]}" "$@" >>"$log" 2>&1 || { tail -n 30 "$log" >&2; die "$what failed (see ${log#"$bench"/})"; }
}
step "make afl-fuzz" afl-fuzz afl-showmap afl-tmin afl-gotcpu afl-analyze afl-cmin
step "make -f GNUmakefile.llvm" -f GNUmakefile.llvm
step "make -C utils/aflpp_driver" -C utils/aflpp_driver libAFLDriver.a
for f in afl-fuzz afl-cc afl-compiler-rt.o SanitizerCoveragePCGUARD.so cmplog-instructions-pass.so \
    cmplog-routines-pass.so cmplog-switches-pass.so afl-llvm-dict2file.so utils/aflpp_driver/libAFLDriver.a; do
    [ -e "$src/$f" ] || die "the build made no $f (see ${log#"$bench"/})"
done
rm -rf "$prefix"
# The LLVM mode's own install (afl-cc, its names, the passes, the runtime),
# then the rest by hand ('make install' would build everything first).
step "make -f GNUmakefile.llvm install" -f GNUmakefile.llvm install
(cd "$src" && install -m 755 afl-fuzz afl-showmap afl-tmin afl-gotcpu afl-analyze afl-cmin afl-cmin.bash \
    afl-whatsup afl-plot "$prefix/bin/" && install -m 644 utils/aflpp_driver/libAFLDriver.a "$prefix/lib/afl/") ||
    die "installing into ${prefix#"$bench"/} failed"
[ -x "$prefix/bin/afl-clang-fast" ] || die "no afl-clang-fast in the prefix"
[ -f "$prefix/lib/afl/afl-compiler-rt.o" ] || die "no afl-compiler-rt.o in the prefix"

# ---------------------------------------------------------- trial
# A persistent-mode harness (libAFLDriver.a: __AFL_LOOP and shared-memory
# input) whose crash needs a 4-byte integer and a 4-byte memcmp operand:
# built plain (with AFL_LLVM_DICT2FILE, which must find "fuzz") and with
# AFL_LLVM_CMPLOG=1, then fuzzed as the suite's aflpp440-cmplog runs it,
# -c CMPLOG_BUILD -- PLAIN_BUILD, without the dictionary (so that what
# solves the compares is CmpLog), for up to 30 s or until the crash.
trial="$out/trial"
rm -rf "$trial"
mkdir -p "$trial/in"
cat >"$trial/t.c" <<'C'
#include <stdint.h>
#include <stddef.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    uint32_t v;
    if (n < 8) return 0;
    memcpy(&v, d, 4);
    if (v == 0x4b43414eu && memcmp(d + 4, "fuzz", 4) == 0) __builtin_trap();
    return 0;
}
C
printf 'hello, world' >"$trial/in/seed"
AFL_QUIET=1 AFL_LLVM_DICT2FILE="$trial/auto.dict" "$prefix/bin/afl-clang-fast" -O1 "$trial/t.c" \
    "$prefix/lib/afl/libAFLDriver.a" -o "$trial/plain" >"$trial/cc.log" 2>&1 ||
    { cat "$trial/cc.log" >&2; die "afl-clang-fast could not build the trial harness"; }
AFL_QUIET=1 AFL_LLVM_CMPLOG=1 "$prefix/bin/afl-clang-fast" -O1 "$trial/t.c" \
    "$prefix/lib/afl/libAFLDriver.a" -o "$trial/cmplog" >>"$trial/cc.log" 2>&1 ||
    { cat "$trial/cc.log" >&2; die "afl-clang-fast (AFL_LLVM_CMPLOG=1) could not build the trial harness"; }
grep -q '"fuzz"' "$trial/auto.dict" 2>/dev/null ||
    die "AFL_LLVM_DICT2FILE did not write \"fuzz\" into ${trial#"$bench"/}/auto.dict"
note "trial: afl-fuzz -c cmplog -- plain, up to 30 s"
AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_BENCH_UNTIL_CRASH=1 \
    timeout -k 5 90 nice -n 10 "$prefix/bin/afl-fuzz" -V 30 -i "$trial/in" -o "$trial/out" \
    -c "$trial/cmplog" -- "$trial/plain" >"$trial/fuzz.log" 2>&1 ||
    { tail -n 30 "$trial/fuzz.log" >&2; die "afl-fuzz did not run the trial harness"; }
sed -i 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$trial/fuzz.log"
stats="$trial/out/default/fuzzer_stats"
[ -f "$stats" ] || { tail -n 30 "$trial/fuzz.log" >&2; die "afl-fuzz wrote no fuzzer_stats"; }
execs="$(sed -n 's/^execs_done *: *//p' "$stats")"
[ "${execs:-0}" -gt 0 ] || die "afl-fuzz executed nothing on the trial harness"
grep -q 'Persistent mode binary detected' "$trial/fuzz.log" || die "afl-fuzz did not see a persistent-mode binary"
grep -q 'SHARED MEMORY FUZZING' "$trial/fuzz.log" || die "afl-fuzz did not use shared-memory input"
crashes="$(sed -n 's/^saved_crashes *: *//p' "$stats")"
secs="$(sed -n 's/^run_time *: *//p' "$stats")"
note "trial: persistent mode, shared-memory input; $execs executions in $secs s, $crashes crash(es)"
[ "${crashes:-0}" -gt 0 ] ||
    note "WARNING: -c CMPLOG_BUILD did not solve the trial's compares in 30 s (see ${trial#"$bench"/}/fuzz.log)"

banner="$(grep -m1 -o 'afl-fuzz++[0-9.a-z]* based on .*' "$trial/fuzz.log" || true)"
[ -n "$banner" ] || banner="$("$prefix/bin/afl-fuzz" --version 2>&1 | head -n1)"
{
    echo "$banner"
    echo "built from $crate $crate_ver (sha256 $crate_sha256) with LLVM $("$LLVM_CONFIG" --version)," \
        "$("$llvm_bin/clang" --version | head -n1)"
} >"$prefix/VERSION"
cat "$prefix/VERSION"
