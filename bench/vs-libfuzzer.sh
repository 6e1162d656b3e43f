#!/usr/bin/env bash
# fuzz-run beside libFuzzer, one worker each, on the same targets, the same
# seed corpus and the same wall time, and the ratio of their execs/s.
#
#   bench/vs-libfuzzer.sh [SECONDS]     # per run; default 60
#   QUICK=1 bench/vs-libfuzzer.sh       # 10 s per run
#
# Targets (each built twice from one harness source, with the same
# SanitizerCoverage flags: as a target library for fuzz-run and linked with
# clang-19's libFuzzer runtime):
#   trivial       a few nested byte comparisons (C)
#   zlib_inflate  inflateInit/inflate into a fixed output buffer, over the
#                 zlib C sources vendored in the libz-sys crate
#   serde_json    parse as serde_json::Value and print it back (Rust: one
#                 crate built as a cdylib and as a staticlib)
# The sources come through cargo's registry (a throwaway project under
# bench/out/vs-libfuzzer/sources; nothing is copied into the repository).
#
# Environment:
#   TARGETS="trivial zlib_inflate serde_json"   which targets, in this order
#   SEED=N            pass -seed N to both engines (fuzz-run then works in
#                     slices of 1000 executions, its reproducible mode);
#                     unset, both pick their own random seed
#   LIBFUZZER_NATIVE=1  compile the libFuzzer side of the C targets with
#                     -fsanitize=fuzzer (adds indirect-call and stack-depth
#                     instrumentation and -fno-builtin-memcmp & co.) instead
#                     of the very objects the target library is linked from
#   MAX_LEN=N         largest input, -max_len for both engines (default 4096,
#                     fuzz-run's default and libFuzzer's with these seeds)
#   FUZZ_BIN=DIR      take fuzz-run, fuzz-worker and fuzz-convert from DIR
#                     instead of building them (cargo build --release)
#   BARE_N=N          executions for the bare-cost lines (default 200000)
#   LENGTHS=S         afterwards, run both engines again for S seconds each on
#                     counting builds of the targets (the harness wrapped by a
#                     shim that counts calls and input bytes) and print the
#                     mean input length each engine executes; default 0 (off)
#   RECORD=1          append a row per (target, engine) to the committed
#                     table bench/vs-libfuzzer-runs.tsv (start, seconds,
#                     engine, execs/s, CPU share, edges, corpus files, exit,
#                     input limit, load before and after, fuzz-run's commit):
#                     the raw data of a quoted rate; run it three times for
#                     medians (bench/README.md says how they are read)
#
# Installs clang-19 and libclang-rt-19-dev with apt-get when missing (as
# root, or through sudo). Everything it builds and every run's logs are in
# bench/out/vs-libfuzzer/ (git-ignored); each run gets fresh corpus and
# cache directories.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="$here/out/vs-libfuzzer"

die() { echo "vs-libfuzzer: $*" >&2; exit 1; }
note() { echo "vs-libfuzzer: $*" >&2; }

secs="${1:-}"
if [ -z "$secs" ]; then
    if [ -n "${QUICK:-}" ] && [ "${QUICK:-0}" != 0 ]; then secs=10; else secs=60; fi
fi
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || die "usage: bench/vs-libfuzzer.sh [SECONDS] (QUICK=1 for 10 s)"
targets="${TARGETS:-trivial zlib_inflate serde_json}"
for t in $targets; do
    case "$t" in trivial | zlib_inflate | serde_json) ;; *) die "unknown target $t (TARGETS)" ;; esac
done
[ -z "${SEED:-}" ] || [[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be a number"
bare_n="${BARE_N:-200000}"
max_len="${MAX_LEN:-4096}"
[[ "$max_len" =~ ^[1-9][0-9]*$ ]] || die "MAX_LEN must be a positive number"
lengths="${LENGTHS:-0}"
[[ "$lengths" =~ ^[0-9]+$ ]] || die "LENGTHS must be a number of seconds"

# ------------------------------------------------------------ tools
CLANG=clang-19
command -v cargo >/dev/null || die "cargo is required (Rust stable)"
command -v rustc >/dev/null || die "rustc is required (Rust stable)"

# shellcheck source=bench/apt.sh
. "$here/apt.sh"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
libfuzzer_links() {
    local d
    d="$(mktemp -d)"
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$d/t.c"
    "$CLANG" -fsanitize=fuzzer "$d/t.c" -o "$d/t" >/dev/null 2>&1
    local rc=$?
    rm -rf "$d"
    return $rc
}
command -v "$CLANG" >/dev/null || apt_install clang-19 libclang-rt-19-dev
libfuzzer_links || apt_install libclang-rt-19-dev
libfuzzer_links || die "$CLANG -fsanitize=fuzzer does not link even with libclang-rt-19-dev"

# The binaries are copied out of target/ so that a rebuild by someone else
# during the runs cannot swap them underneath.
mkdir -p "$out"
bin="$out/bin"
if [ -n "${FUZZ_BIN:-}" ]; then
    from="$(cd "$FUZZ_BIN" && pwd)" || die "FUZZ_BIN: no directory $FUZZ_BIN"
    built_from="$(build_label "$root" "$FUZZ_BIN")"
else
    note "building fuzz-run, fuzz-worker, fuzz-convert (release)"
    cargo build --release --quiet --manifest-path "$root/Cargo.toml" \
        --bin fuzz-run --bin fuzz-worker --bin fuzz-convert ||
        die "cargo build --release failed (FUZZ_BIN=DIR uses already built binaries)"
    from="$root/target/release"
    built_from="$(build_label "$root")"
fi
for b in fuzz-run fuzz-worker fuzz-convert; do
    [ -x "$from/$b" ] || die "no $b in $from"
done
if [ "$from" != "$bin" ]; then
    rm -rf "$bin"
    mkdir -p "$bin"
    for b in fuzz-run fuzz-worker fuzz-convert; do cp "$from/$b" "$bin/$b"; done
    echo "${built_from:-$from}" >"$bin/built-from"
fi
export FUZZ_WORKER="$bin/fuzz-worker"

src="$out/src" lib="$out/lib" lf="$out/libfuzzer" obj="$out/obj"
rm -rf "$src" "$lib" "$lf" "$obj" "$out/seeds" "$out/testdata"
mkdir -p "$src" "$lib" "$lf" "$obj" "$out/seeds" "$out/testdata/fuzz" "$out/sources/src"

# ------------------------------------------------- sources via cargo
# A throwaway project whose only use is to have cargo fetch the crates and
# say where their sources are.
cat >"$out/sources/Cargo.toml" <<'TOML'
[package]
name = "vs-libfuzzer-sources"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
libz-sys = { version = "1", default-features = false, features = ["static"] }
serde_json = "1"

[workspace]
TOML
: >"$out/sources/src/lib.rs"
cargo fetch --quiet --manifest-path "$out/sources/Cargo.toml"
meta="$(cargo metadata --format-version 1 --manifest-path "$out/sources/Cargo.toml")"
manifest_of() { # crate name -> its Cargo.toml in the registry
    grep -o "\"manifest_path\":\"[^\"]*/$1-[0-9][^\"/]*/Cargo.toml\"" <<<"$meta" |
        head -n1 | sed 's/^"manifest_path":"//; s/"$//'
}
version_of() { basename "$(dirname "$1")" | sed "s/^$2-//"; }
libz_toml="$(manifest_of libz-sys)"
json_toml="$(manifest_of serde_json)"
{ [ -n "$libz_toml" ] && [ -n "$json_toml" ]; } || die "cargo metadata did not list libz-sys and serde_json"
zdir="$(dirname "$libz_toml")/src/zlib"
[ -f "$zdir/inflate.c" ] || die "no zlib sources in $zdir (is the static feature's vendored copy gone?)"
zlib_version="$(sed -n 's/^#define ZLIB_VERSION "\(.*\)"/\1/p' "$zdir/zlib.h")"
json_version="$(version_of "$json_toml" serde_json)"
libz_version="$(version_of "$libz_toml" libz-sys)"

# ------------------------------------------------------- harnesses
cat >"$src/trivial.c" <<'C'
#include <stddef.h>
#include <stdint.h>
volatile int trivial_sink;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n >= 4 && d[0] == 'F') {
        if (d[1] == 'U') {
            if (d[2] == 'Z') {
                if (d[3] == 'Z') trivial_sink++; /* no crash: the run goes on */
            }
        }
    }
    return 0;
}
C

# The zlib job is the suite's (bench/suite/harness/zlib.c).
cp "$here/suite/harness/zlib.c" "$src/zlib_inflate.c"

mkdir -p "$src/serde_json/src"
cat >"$src/serde_json/Cargo.toml" <<TOML
[package]
name = "json_harness"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
crate-type = ["cdylib", "staticlib"]

[dependencies]
serde_json = "=$json_version"

[features]
count = []

[workspace]
TOML
cat >"$src/serde_json/src/lib.rs" <<'RUST'
//! Parse the input as a serde_json::Value and print it back.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    let input = if size == 0 {
        &[][..]
    } else {
        // SAFETY: the engine passes `size` readable bytes at `data`.
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    #[cfg(feature = "count")]
    count::add(size);
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(input) {
        std::hint::black_box(serde_json::to_string(&v).ok());
    }
    0
}

/// LENGTHS=S only: calls and input bytes, written to $BENCH_COUNT_FILE.<pid>.
#[cfg(feature = "count")]
mod count {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    static BYTES: AtomicU64 = AtomicU64::new(0);
    pub fn add(n: usize) {
        let b = BYTES.fetch_add(n as u64, Relaxed) + n as u64;
        let c = CALLS.fetch_add(1, Relaxed) + 1;
        if c & 0xffff == 0 {
            if let Some(p) = std::env::var_os("BENCH_COUNT_FILE") {
                let mut p = p.into_string().unwrap_or_default();
                p.push_str(&format!(".{}", std::process::id()));
                let _ = std::fs::write(p, format!("{c} {b}\n"));
            }
        }
    }
}
RUST

# LENGTHS=S only: wraps a C harness (compiled with
# -DLLVMFuzzerTestOneInput=bench_inner) to count calls and input bytes.
cat >"$src/count.c" <<'C'
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int bench_inner(const uint8_t *d, size_t n);
static unsigned long long calls, bytes;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    bytes += n;
    if ((++calls & 0xffff) == 0 && getenv("BENCH_COUNT_FILE")) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", getenv("BENCH_COUNT_FILE"), (int)getpid());
        FILE *f = fopen(path, "w");
        if (f) { fprintf(f, "%llu %llu\n", calls, bytes); fclose(f); }
    }
    return bench_inner(d, n);
}
C

# ------------------------------------------------------------ seeds
seed() { # target name bytes(printf format)
    mkdir -p "$out/seeds/$1"
    # shellcheck disable=SC2059
    printf "$3" >"$out/seeds/$1/$2"
}
seed trivial a 'AAAA'
seed trivial b 'F'
seed trivial c 'FUxx'
seed zlib_inflate empty '\170\234\003\000\000\000\000\001'
seed zlib_inflate fixed '\170\332\313\110\315\311\311\327\121\310\100\241\312\363\213\162\122\270\000\205\343\011\123'
seed zlib_inflate stored '\170\001\001\015\000\362\377\173\042\141\042\072\133\061\054\062\054\063\135\175\030\036\003\176'
seed zlib_inflate dynamic '\170\332\325\215\311\025\100\100\024\004\123\151\011\170\366\045\013\007\011\014\006\143\373\014\143\231\350\375\040\134\364\265\252\136\227\275\304\146\124\075\242\322\164\055\150\351\306\140\346\165\007\235\122\343\140\074\011\373\240\241\316\105\041\330\233\037\124\054\135\352\350\321\252\123\062\262\162\301\244\066\103\232\333\156\167\340\371\101\030\305\111\232\345\050\177\177\140\277\333\013\313\242\206\271'
seed serde_json object '{"name":"fuzz","tags":["a","b"],"n":-12.5e3,"ok":true,"none":null}'
seed serde_json array '[1, 2.0, "\\u00e9\\n", {}, [], false]'
seed serde_json string '"plain"'
seed serde_json number '1234567890123456789'
for t in $targets; do
    for f in "$out/seeds/$t"/*; do
        "$bin/fuzz-convert" to-v1 -dir "$out/testdata/fuzz/$t" "$f" >/dev/null
    done
done

# ----------------------------------------------------------- builds
# shellcheck disable=SC2054 # commas inside one flag
COV=(-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp)
CFLAGS_BENCH=(-g -O1 -fPIC -w)
# c_target NAME COUNT HARNESS LIBSRC...: lib/libNAME.so and libfuzzer/NAME
# from the same objects (with COUNT=1: NAME_count, the harness's entry
# renamed to bench_inner and wrapped by the uninstrumented counting shim).
c_target() {
    local name="$1" count="$2" harness="$3" f o out_name="$1" objs=() hflags=()
    shift 3
    mkdir -p "$obj/$name"
    for f in "$@"; do
        o="$obj/$name/$(basename "$f" .c).o"
        [ -f "$o" ] || "$CLANG" "${CFLAGS_BENCH[@]}" "${COV[@]}" -I"$zdir" -c "$f" -o "$o"
        objs+=("$o")
    done
    if [ "$count" = 1 ]; then
        out_name="${name}_count"
        hflags=(-DLLVMFuzzerTestOneInput=bench_inner)
        "$CLANG" -O1 -fPIC -w -c "$src/count.c" -o "$obj/count.o"
        objs+=("$obj/count.o")
    fi
    o="$obj/$name/harness$count.o"
    "$CLANG" "${CFLAGS_BENCH[@]}" "${COV[@]}" -I"$zdir" "${hflags[@]}" -c "$harness" -o "$o"
    objs+=("$o")
    "$CLANG" -shared "${objs[@]}" -o "$lib/lib$out_name.so"
    if [ "${LIBFUZZER_NATIVE:-0}" != 0 ] && [ "$count" = 0 ]; then
        "$CLANG" "${CFLAGS_BENCH[@]}" -fsanitize=fuzzer -I"$zdir" "$harness" "$@" -o "$lf/$out_name"
    else
        "$CLANG" -fsanitize=fuzzer "${objs[@]}" -o "$lf/$out_name"
    fi
}
# rust_target COUNT: lib/libserde_json.so (the crate as a cdylib) and
# libfuzzer/serde_json (the same compilation, as a staticlib, under
# libFuzzer's main); with COUNT=1, serde_json_count with the count feature.
rust_target() {
    local count="$1" out_name=serde_json features=() host rel
    [ "$count" = 0 ] || { out_name=serde_json_count; features=(--features count); }
    host="$(rustc -vV | sed -n 's/^host: //p')"
    (
        # --target HOST keeps the sancov flags off build scripts and proc-macros.
        RUSTFLAGS=$("$root/examples/rustflags.sh")
        export RUSTFLAGS
        unset CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
        cargo build --quiet --release --target "$host" "${features[@]}" \
            --manifest-path "$src/serde_json/Cargo.toml" --target-dir "$out/cargo"
    )
    rel="$out/cargo/$host/release"
    cp "$rel/libjson_harness.so" "$lib/lib$out_name.so"
    # rustc links the cdylib with --gc-sections, which drops the counters of
    # unreachable functions (serde_json's unused API) with them; the same
    # here, or libFuzzer would scan 3.7x more counters per execution.
    "$CLANG" -fsanitize=fuzzer "$rel/libjson_harness.a" -o "$lf/$out_name" \
        -Wl,--gc-sections -Wl,-z,start-stop-gc -lgcc_s -lutil -lrt -lpthread -lm -ldl
}
build_target() { # target COUNT
    case "$1" in
    trivial) c_target trivial "$2" "$src/trivial.c" ;;
    zlib_inflate)
        c_target zlib_inflate "$2" "$src/zlib_inflate.c" \
            "$zdir"/{adler32,crc32,inffast,inflate,inftrees,zutil}.c
        ;;
    serde_json) rust_target "$2" ;;
    esac
}
note "building targets"
for t in $targets; do
    build_target "$t" 0
    if [ "$lengths" != 0 ]; then
        build_target "$t" 1
        cp -r "$out/testdata/fuzz/$t" "$out/testdata/fuzz/${t}_count"
    fi
done

# ------------------------------------------------------------- runs
json_num() { # key json-line -> number
    sed -n "s/.*\"$1\":\([0-9.eE+-]*\).*/\1/p" <<<"$2" | head -n1
}
div() { awk -v a="$1" -v b="$2" -v f="${3:-%.0f}" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf f, a / b }'; }
# Edges reached by a corpus, as libFuzzer's build of the target counts
# them (cov: after replaying it with -runs=0): one meter for both engines.
replay_edges() { # target dirs...
    local t="$1"
    shift
    "$lf/$t" -runs=0 "$@" 2>&1 | sed -n 's/.*\(INITED\|DONE\) *cov: \([0-9]*\).*/\2/p' | tail -n1
}
# Mean input length from the counting shim's files (calls bytes, per pid).
mean_len() { # file prefix
    cat "$1".* 2>/dev/null | awk '{ c += $1; b += $2 } END { if (c > 0) printf "%.0f", b / c }'
}
TIMEFORMAT='%R %U %S'
declare -A R

run_fuzzrun() { # key target secs dir: fills R[key.fr_*]
    local k="$1" t="$2" s="$3" d="$4" rc end wall user sys cdir seedflag=()
    [ -z "${SEED:-}" ] || seedflag=(-seed "$SEED")
    mkdir -p "$d"
    note "$t: fuzz-run, $s s"
    set +e
    { time (cd "$d" && timeout -k 10 $((s + 180)) "$bin/fuzz-run" -fuzz "^$t\$" \
        -fuzztime "${s}s" -parallel 1 -fuzzcachedir "$d/fr-cache" \
        -testdata "$out/testdata" -max_len "$max_len" -json "${seedflag[@]}" "$lib/lib$t.so" \
        >"$d/fuzz-run.json" 2>"$d/fuzz-run.log"); } 2>"$d/fuzz-run.time"
    rc=$?
    set -e
    end="$(grep '"event":"end"' "$d/fuzz-run.json" | tail -n1 || true)"
    read -r wall user sys <"$d/fuzz-run.time"
    if [ $rc -ne 0 ] || [ -z "$end" ]; then
        note "$t: fuzz-run exited $rc (see $d/fuzz-run.log and fuzz-run.json):"
        tail -n 15 "$d/fuzz-run.log" >&2
    fi
    R[$k.fr_rc]=$rc
    R[$k.fr_eps]="$(div "$(json_num execs "$end")" "$(json_num elapsed "$end")")"
    R[$k.fr_cov]="$(json_num coverage "$end")"
    R[$k.fr_cpu]="$(div "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$wall" %.2f)"
    R[$k.fr_epc]="$(div "$(json_num execs "$end")" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")"
    mkdir -p "$d/fr-raw"
    cdir="$(find "$d/fr-cache" -mindepth 2 -maxdepth 2 -type d 2>/dev/null | head -n1)"
    [ -z "$cdir" ] || "$bin/fuzz-convert" export -o "$d/fr-raw" "$cdir" >/dev/null 2>&1 || true
    R[$k.fr_n]="$(find "$d/fr-raw" -type f | wc -l)"
}

run_libfuzzer() { # key target secs dir: fills R[key.lf_*]
    local k="$1" t="$2" s="$3" d="$4" rc wall user sys units last seedflag=()
    [ -z "${SEED:-}" ] || seedflag=(-seed="$SEED")
    mkdir -p "$d/lf-corpus"
    note "$t: libFuzzer, $s s"
    set +e
    { time (cd "$d" && timeout -k 10 $((s + 180)) "$lf/$t" -max_total_time="$s" \
        -print_final_stats=1 -max_len="$max_len" "${seedflag[@]}" -artifact_prefix="$d/" \
        "$d/lf-corpus" "$out/seeds/${t%_count}" 2>"$d/libfuzzer.log"); } 2>"$d/libfuzzer.time"
    rc=$?
    set -e
    read -r wall user sys <"$d/libfuzzer.time"
    if [ $rc -ne 0 ]; then
        note "$t: libFuzzer exited $rc (see $d/libfuzzer.log):"
        tail -n 15 "$d/libfuzzer.log" >&2
    fi
    units="$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)/\1/p' "$d/libfuzzer.log")"
    last="$(grep -E '^#[0-9]+.*cov: ' "$d/libfuzzer.log" | tail -n1 || true)"
    R[$k.lf_rc]=$rc
    R[$k.lf_eps]="$(div "$units" "$wall")"
    R[$k.lf_avg]="$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\)/\1/p' "$d/libfuzzer.log")"
    R[$k.lf_cov]="$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")"
    R[$k.lf_ft]="$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")"
    R[$k.lf_cpu]="$(div "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$wall" %.2f)"
    R[$k.lf_epc]="$(div "$units" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")"
    R[$k.lf_n]="$(find "$d/lf-corpus" -type f | wc -l)"
}

runs="$out/runs"
rm -rf "$runs"
mkdir -p "$runs"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
printf -v started '%(%Y-%m-%d %H:%M:%S %Z)T' -1
started_utc="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
note "$secs s per run; load average before: $load_before"
for t in $targets; do
    run_fuzzrun "$t" "$t" "$secs" "$runs/$t"
    run_libfuzzer "$t" "$t" "$secs" "$runs/$t"
    # One meter for both: each final corpus (seeds included) replayed
    # through the libFuzzer build.
    R[$t.fr_edges]="$(replay_edges "$t" "$out/seeds/$t" "$runs/$t/fr-raw")"
    R[$t.lf_edges]="$(replay_edges "$t" "$out/seeds/$t" "$runs/$t/lf-corpus")"
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# ------------------------------------------ the committed rows (RECORD=1)
if [ "${RECORD:-0}" != 0 ]; then
    table="$here/vs-libfuzzer-runs.tsv"
    [ -s "$table" ] || printf 'started\tsecs\ttarget\tengine\texecs_per_sec\tcpu\tedges\tcorpus\trc\tmax_len\tload0\tload1\tfuzz_run\n' >"$table"
    for t in $targets; do
        for e in fr lf; do
            printf '%s\t' "$started_utc" "$secs" "$t" "$([ $e = fr ] && echo fuzz-run || echo libfuzzer)" \
                "${R[$t.${e}_eps]:-}" "${R[$t.${e}_cpu]:-}" "${R[$t.${e}_edges]:-}" "${R[$t.${e}_n]:-}" \
                "${R[$t.${e}_rc]:-}" "$max_len" "${load_before%% *}" "${load_after%% *}" >>"$table"
            printf '%s\n' "$(cat "$bin/built-from" 2>/dev/null || echo '?')" >>"$table"
        done
    done
    note "rows appended to ${table#"$root"/} (commit it)"
fi

# -------------------------------------------- input lengths (LENGTHS=S)
if [ "$lengths" != 0 ]; then
    for t in $targets; do
        d="$runs/${t}_count"
        BENCH_COUNT_FILE="$d/count-fr" run_fuzzrun "$t.len" "${t}_count" "$lengths" "$d"
        BENCH_COUNT_FILE="$d/count-lf" run_libfuzzer "$t.len" "${t}_count" "$lengths" "$d"
        R[$t.len.fr_mean]="$(mean_len "$d/count-fr")"
        R[$t.len.lf_mean]="$(mean_len "$d/count-lf")"
    done
fi

# ---------------------------------------------- bare execution cost
# fuzz-worker bench: reset counters, call, read counters, N times on one
# seed, with no mutation and no coordinator: the floor under fuzz-run's rate.
declare -A B
for t in $targets; do
    big="$(find "$out/seeds/$t" -type f -printf '%s %p\n' | sort -rn | head -n1 | cut -d' ' -f2-)"
    line="$("$bin/fuzz-worker" bench -raw -n "$bare_n" "$lib/lib$t.so" "$big" 2>&1 || true)"
    B[$t.ns]="$(sed -n 's/.*: \([0-9]*\) ns\/exec.*/\1/p' <<<"$line")"
    B[$t.counters]="$(sed -n 's/.*(\([0-9]*\) from modules.*/\1/p' <<<"$line")"
    B[$t.seed]="$(basename "$big") ($(wc -c <"$big") bytes)"
done

# ------------------------------------------------------------ table
eps_cell() { # key engine
    local v="${R[$1.$2_eps]:-}"
    [ "${R[$1.$2_rc]:-0}" = 0 ] || v="${v:-?} (exit ${R[$1.$2_rc]})"
    printf '%s' "${v:-?}"
}
echo
echo "vs-libfuzzer: $secs s per run, 1 worker / 1 process each, started $started"
echo "  machine: $(nproc) CPUs; load average before $load_before, after $load_after"
echo "  fuzz-run and fuzz-worker built from $(cat "$bin/built-from" 2>/dev/null || echo '?')"
echo "  $("$CLANG" --version | head -n1); $(rustc --version); zlib $zlib_version (libz-sys $libz_version); serde_json $json_version"
[ -z "${SEED:-}" ] || echo "  -seed $SEED for both engines"
[ "$max_len" = 4096 ] || echo "  -max_len $max_len for both engines"
[ "${LIBFUZZER_NATIVE:-0}" = 0 ] || echo "  C targets' libFuzzer side compiled with -fsanitize=fuzzer"
echo
printf '| %-12s | %14s | %14s | %5s | %9s | %9s | %12s | %16s | %11s |\n' target "fuzz-run ex/s" "libFuzzer ex/s" \
    ratio "cpu fr/lf" "ratio/cpu" "fuzz-run cov" "libFuzzer cov/ft" "edges fr/lf"
echo '|--------------|---------------:|---------------:|------:|----------:|----------:|-------------:|-----------------:|------------:|'
for t in $targets; do
    printf '| %-12s | %14s | %14s | %5s | %9s | %9s | %12s | %16s | %11s |\n' "$t" \
        "$(eps_cell "$t" fr)" "$(eps_cell "$t" lf)" \
        "$(div "${R[$t.fr_eps]:-}" "${R[$t.lf_eps]:-}" %.2f)" \
        "${R[$t.fr_cpu]:-?}/${R[$t.lf_cpu]:-?}" "$(div "${R[$t.fr_epc]:-}" "${R[$t.lf_epc]:-}" %.2f)" \
        "${R[$t.fr_cov]:-?}" "${R[$t.lf_cov]:-?}/${R[$t.lf_ft]:-?}" "${R[$t.fr_edges]:-?}/${R[$t.lf_edges]:-?}"
done
list() { # key-suffix: "target N, ..."
    local t s=""
    for t in $targets; do s+="$t ${R[$t.$1]:-?}, "; done
    printf '%s' "${s%, }"
}
cat <<NOTES

  ex/s: fuzz-run = execs / elapsed, both from its end event; libFuzzer =
    stat::number_of_executed_units / wall time (its own
    stat::average_exec_per_sec: $(list lf_avg)).
  fuzz-run cov: the end event's coverage, distinct (counter, hit-count
    bucket) features. libFuzzer cov/ft: its last status line (cov: edges
    hit, ft: its features). Different measures: compare "edges" instead.
  edges fr/lf: each engine's final corpus (the seeds, plus fuzz-run's
    cache: $(list fr_n); libFuzzer's corpus: $(list lf_n) files) replayed
    through the libFuzzer build with -runs=0 (its cov:): one meter for both.
  ratio: fuzz-run ex/s / libFuzzer ex/s. cpu: (user + sys) / wall of
    the process tree (fuzz-run: coordinator and worker); below 1 when the
    engine waits (fuzz-run: its worker on the coordinator) or other work
    takes the CPU. ratio/cpu: the ratio of executions per CPU second,
    which a busy machine disturbs less.
NOTES
if [ "$lengths" != 0 ]; then
    echo
    echo "input lengths ($lengths s runs on counting builds: mean bytes per execution, and execs/s):"
    for t in $targets; do
        printf '  %-12s fuzz-run %6s bytes (%s ex/s)   libFuzzer %6s bytes (%s ex/s)\n' "$t" \
            "${R[$t.len.fr_mean]:-?}" "$(eps_cell "$t.len" fr)" "${R[$t.len.lf_mean]:-?}" "$(eps_cell "$t.len" lf)"
    done
fi
echo
echo "bare execution cost (fuzz-worker bench -raw -n $bare_n on the largest seed; no mutation, no coordinator):"
for t in $targets; do
    printf '  %-12s %8s ns/exec  %5s counters  seed %s\n' "$t" "${B[$t.ns]:-?}" "${B[$t.counters]:-?}" "${B[$t.seed]}"
done
echo
echo "logs: $runs/<target>/{fuzz-run.json,fuzz-run.log,libfuzzer.log}"
