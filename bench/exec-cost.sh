#!/usr/bin/env bash
# The cost of one bare execution in fuzz-worker (reset the coverage
# counters, call the target, read the counters back), on a trivial target
# and on a generated C target with 100k+ edges, beside libFuzzer's
# executions per second on the same targets (libFuzzer's figure includes its
# mutator, ours does not: read it as context, not as a race).
#
#   bench/exec-cost.sh [N]      # N executions per measurement (default 300000)
#
# Needs gcc, clang-19 (with libFuzzer: apt-get install clang-19 libclang-rt-19-dev
# if -fsanitize=fuzzer fails). Writes its builds under bench/out/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
n="${1:-300000}"
out="$here/out/exec-cost"
mkdir -p "$out"
for tool in gcc clang-19; do
    command -v "$tool" >/dev/null || { echo "exec-cost: $tool is required" >&2; exit 1; }
done

cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin fuzz-worker
worker="$root/target/release/fuzz-worker"

cat > "$out/trivial.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n > 0 && d[0] == 'x') return 1;
    return 0;
}
C
"$here/gen-wide-target.sh" 4000 25 > "$out/wide.c"
printf 'ABCDEFG' > "$out/input"

build() { # name compiler flags... source
    local name="$1" cc="$2"; shift 2
    "$cc" -O1 -fPIC -shared "$@" -o "$out/lib$name.so"
}
echo "building targets..." >&2
for t in trivial wide; do
    build "${t}_clang" clang-19 -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp "$out/$t.c"
    build "${t}_gcc" gcc -fsanitize-coverage=trace-pc,trace-cmp "$out/$t.c"
    clang-19 -O1 -fsanitize=fuzzer "$out/$t.c" -o "$out/${t}_libfuzzer"
done

printf '%-14s %-34s %12s %14s\n' target build "ns/exec" "execs/s"
for t in trivial wide; do
    for b in clang gcc; do
        line="$("$worker" bench -raw -n "$n" "$out/lib${t}_$b.so" "$out/input")"
        ns="$(sed -n 's/.*: \([0-9]*\) ns\/exec.*/\1/p' <<<"$line")"
        eps="$(sed -n 's/.*(\([0-9]*\) execs\/s).*/\1/p' <<<"$line")"
        counters="$(sed -n 's/.*(\([0-9]*\) from modules.*/\1/p' <<<"$line")"
        desc="fuzz-worker, $b"
        [ "$b" = clang ] && desc="$desc ($counters counters)"
        [ "$b" = gcc ] && desc="$desc (64K trace-pc map)"
        printf '%-14s %-34s %12s %14s\n' "$t" "$desc" "$ns" "$eps"
    done
    start=$(date +%s%N)
    "$out/${t}_libfuzzer" -runs="$n" -seed=1 -max_len=8 >/dev/null 2>&1
    ns=$(( ($(date +%s%N) - start) / n ))
    printf '%-14s %-34s %12s %14s\n' "$t" "libFuzzer 19 (-runs, with mutation)" "$ns" "$(( 1000000000 / (ns > 0 ? ns : 1) ))"
done
