#!/usr/bin/env bash
# What comparison feedback and dictionaries buy: time to the planted bug
# behind a 10-byte memcmp (examples/cmp/cmp.c), for fuzz-run with
# comparison feedback (-use_cmp=1, the default), without it (-use_cmp=0,
# Go's engine), and for libFuzzer 19 on the same source; and behind a Rust
# slice equality rustc compiles to one 80-bit compare (examples/cmp/rust):
# fuzz-run with its automatic dictionary (the default, which reads the
# constant from the code), without it, with -dict, and libFuzzer 19 on the
# same comparison (bench/cmp/magic.rs); and behind a number the target
# reads from decimal text (examples/cmp/number.c), also with the library
# built without trace-cmp, alone and with the trace-cmp build as -cmp_lib.
# Each run is capped; "-" means not found.
#
#   bench/cmp-feedback.sh [SECONDS] [RUNS]    # defaults: 60 s, 3 runs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
cap="${1:-60}"
runs="${2:-3}"
out="$here/out/cmp-feedback"
rm -rf "$out" && mkdir -p "$out"
command -v clang-19 >/dev/null || { echo "cmp-feedback: clang-19 is required" >&2; exit 1; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
export PATH="$root/target/release:$PATH"
"$root/examples/build.sh" "$out/lib" >/dev/null
clang-19 -g -O1 -fno-builtin-memcmp -fsanitize=fuzzer "$root/examples/cmp/cmp.c" -o "$out/cmp_libfuzzer"
# The number compared as text, built by clang-19 both ways: a shared object
# with the examples' clang flags for fuzz-run, and libFuzzer's binary.
clang-19 -g -O1 -fPIC -shared -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp \
    "$root/examples/cmp/number.c" -o "$out/lib/libcmp_number_clang.so"
clang-19 -g -O1 -fsanitize=fuzzer "$root/examples/cmp/number.c" -o "$out/number_libfuzzer"
# The Rust comparison for libFuzzer: the examples' sancov flags, a static
# library of one file, linked by clang-19 with libFuzzer's main.
read -ra sancov <<<"$("$root/examples/rustflags.sh")"
rustc --edition 2021 --crate-type staticlib -C opt-level=3 -C panic=abort -C debuginfo=1 \
    "${sancov[@]}" "$here/cmp/magic.rs" -o "$out/libmagic.a"
clang-19 -fsanitize=fuzzer "$out/libmagic.a" -o "$out/magic_libfuzzer" \
    -Wl,--gc-sections -lpthread -ldl -lm

# Seconds until fuzz-run exits 1 (found), or "-" after the cap.
# ours LIB PATTERN [FLAGS...]
ours() {
    local dir="$out/run-$RANDOM" start end status=0 lib="$1" pattern="$2"
    shift 2
    mkdir -p "$dir"
    start=$(date +%s.%N)
    (cd "$dir" && fuzz-run -fuzz "$pattern" -parallel 1 -fuzztime "${cap}s" \
        -fuzzminimizetime 0 -fuzzcachedir cache "$@" "$out/lib/$lib" >/dev/null 2>&1) || status=$?
    end=$(date +%s.%N)
    if [ "$status" -eq 1 ]; then printf '%.2f' "$(echo "$end - $start" | bc)"; else printf -- '-'; fi
}
theirs() { # [BINARY]: libFuzzer's seconds to a crash
    local dir="$out/lf-$RANDOM" start end status=0 bin="${1:-$out/cmp_libfuzzer}"
    mkdir -p "$dir/corpus"
    start=$(date +%s.%N)
    (cd "$dir" && "$bin" -max_total_time="$cap" corpus >/dev/null 2>&1) || status=$?
    end=$(date +%s.%N)
    if ls "$dir"/crash-* >/dev/null 2>&1; then printf '%.2f' "$(echo "$end - $start" | bc)"; else printf -- '-'; fi
}

row() { # label, then the command printing one time
    local label="$1"
    shift
    printf '%-40s' "$label"
    for ((i = 1; i <= runs; i++)); do printf '%10s' "$("$@")"; done
    echo
}
echo "memcmp(data, \"MAGIC_1234\", 10) in C (examples/cmp/cmp.c):"
printf '%-40s' "engine"; for ((i = 1; i <= runs; i++)); do printf '%10s' "run $i"; done; echo
row "fuzz-run, comparison feedback" ours libcmp_c_clang.so cmp_c_clang -use_cmp 1
row "fuzz-run -use_cmp=0 (Go's engine)" ours libcmp_c_clang.so cmp_c_clang -use_cmp 0
row "libFuzzer 19" theirs
echo
echo "a number read from decimal text == 4096000000017 in C (examples/cmp/number.c):"
row "fuzz-run, comparison feedback" ours libcmp_number_clang.so cmp_number_clang -use_cmp 1
row "fuzz-run -use_cmp=0 (Go's engine)" ours libcmp_number_clang.so cmp_number_clang -use_cmp 0
row "fuzz-run, no trace-cmp build" ours libcmp_number_fast.so cmp_number_fast
row "fuzz-run, that, -cmp_lib trace-cmp build" ours libcmp_number_fast.so cmp_number_fast -cmp_lib "$out/lib/libcmp_number.so"
row "libFuzzer 19" theirs "$out/number_libfuzzer"
printf 'magic="MAGIC_1234"\n' > "$out/magic.dict"
echo
echo "payload == b\"MAGIC_1234\" in Rust (examples/cmp/rust), one 80-bit compare:"
row "fuzz-run (automatic dictionary)" ours librust_cmp.so FuzzMagic
row "fuzz-run -auto_dict=0" ours librust_cmp.so FuzzMagic -auto_dict 0
row "fuzz-run -auto_dict=0 -dict magic.dict" ours librust_cmp.so FuzzMagic -auto_dict 0 -dict "$out/magic.dict"
row "libFuzzer 19" theirs "$out/magic_libfuzzer"
echo
echo "seconds to the planted bug; - = not found in ${cap}s"
