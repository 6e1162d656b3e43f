#!/usr/bin/env bash
# The rate of a -keepfuzzing run after its first finding, by the way the
# target ended its process: exit(3), raise(SIGKILL), a SIGSEGV. Each target
# has its one bug one byte deep ("B" first), found again every few hundred
# executions once found: a worker that must be replaced each time runs at
# the rate of process starts, one that survives the recorded site (a crash
# through the crash handler; an exit or a SIGKILL the target calls, through
# fuzz-worker's own exit, raise and kill) at the rate of executions.
#
# One core each (-parallel 1), SECS seconds, RUNS runs; execs/s is the run's
# own figure on its "done:" line (the bug is found within the first 0.1 s).
# Goal (issue 34): after an exit() or SIGKILL finding, at least half the
# rate after a SIGSEGV finding.
#
#   bench/keepfuzzing-ends.sh                  # SECS=20 RUNS=3
#   FUZZ_BIN=/other/target/release bench/keepfuzzing-ends.sh   # another build
#
# Results: a line per run in bench/out/keepfuzzing-ends/runs.tsv (appended
# to), the medians on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SECS=${SECS:-20}
RUNS=${RUNS:-3}
OUT=bench/out/keepfuzzing-ends
if [ -z "${FUZZ_BIN:-}" ]; then
    cargo build --release -q
    FUZZ_BIN=$PWD/target/release
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RUNS_TSV="$OUT/runs.tsv"
[ -s "$RUNS_TSV" ] || printf 'sitting\tcommit\tbin\tend\trun\texecs_per_sec\tcrashers\n' >"$RUNS_TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(git rev-parse --short HEAD)

for end in exit kill segv; do
    case $end in
    exit) body='exit(3);' ;;
    kill) body='raise(SIGKILL);' ;;
    segv) body='{ volatile int *p = 0; *p = 1; }' ;;
    esac
    cat >"$OUT/$end.c" <<EOF
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
volatile int sink;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n > 0 && d[0] == 'B')
        $body
    for (size_t i = 0; i < n; i++)
        sink += d[i];
    return 0;
}
EOF
    gcc -shared -fPIC -O1 -g -fsanitize-coverage=trace-pc "$OUT/$end.c" -o "$OUT/lib$end.so"
done

declare -A rates
for run in $(seq 1 "$RUNS"); do
    for end in exit kill segv; do
        dir="$OUT/run-$end"
        rm -rf "$dir"
        mkdir -p "$dir"
        line=$(cd "$dir" && FUZZCACHE="$dir/cache" "$FUZZ_BIN/fuzz-run" -fuzz . -keepfuzzing \
            -fuzztime "${SECS}s" -parallel 1 "$OUT/lib$end.so" 2>&1 | grep 'fuzz: done:' || true)
        rate=$(sed -n 's/.*execs [0-9]* (\([0-9]*\)\/sec).*/\1/p' <<<"$line")
        crashers=$(sed -n 's/.*crashers \([0-9]*\).*/\1/p' <<<"$line")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$FUZZ_BIN" "$end" "$run" \
            "${rate:-0}" "${crashers:-0}" >>"$RUNS_TSV"
        rates[$end]="${rates[$end]:-} ${rate:-0}"
        echo "run $run: $end ${rate:-0} execs/s, crashers ${crashers:-0}" >&2
    done
done

segv=$(median <<<"${rates[segv]}")
printf 'after the first finding, -keepfuzzing, one core, %s s x %s (%s)\n' "$SECS" "$RUNS" "$FUZZ_BIN"
for end in exit kill segv; do
    m=$(median <<<"${rates[$end]}")
    printf '  %-5s %12s execs/s (median of%s)  x%s of segv\n' "$end" "$m" "${rates[$end]}" \
        "$(awk -v a="$m" -v b="$segv" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
done
