#!/usr/bin/env bash
# Executions per second of fuzz-minimize on crashes that end the process:
# Rust panics under panic = "abort", each candidate run in a forked child.
# With RUST_BACKTRACE=1 (this machine's environment, and many a
# developer's) and without it, for each build given. The crashes:
#   - examples' librust_typed_abort.so, FuzzRecord's known failure padded
#     to 5,003 bytes (64 executions);
#   - simple_asn1_utctime and xml_rs_doctype of bench/realbugs, the inputs
#     (this directory's files of those names) as fuzz-run first saved them
#     in its 2026-11-29 sitting, seed 1; run when REALBUGS names
#     bench/realbugs/build.sh's output directory.
#
#   bench/minimize-crash/run.sh              # this tree's release build
#   BINS="before=/tmp/old/release after=target/release" \
#       REALBUGS=bench/out/realbugs bench/minimize-crash/run.sh
#
# BINS is LABEL=DIR pairs (the label goes in the table, not the path).
# RUNS runs each (3). The rate is fuzz-minimize's own closing line
# ("A -> B bytes, N executions in Ts"). Results: a line per run appended to
# bench/minimize-crash/runs.tsv (committed), the medians on stdout.
# Goal (issue 41): minimizing such a crash at least 20 times faster than
# the build before (about 65 executions per second).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/../.."
. bench/lib.sh
RUNS=${RUNS:-3}
if [ -z "${BINS:-}" ]; then
    cargo build --release -q
    BINS=this=$PWD/target/release
fi
OUT=bench/out/minimize-crash
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
examples/build.sh "$OUT/lib" >/dev/null 2>&1
RUNS_TSV=$HERE/runs.tsv
[ -s "$RUNS_TSV" ] ||
    printf 'sitting\tcommit\tbuild\tcrash\trust_backtrace\trun\tbefore_bytes\tafter_bytes\texecs\tseconds\texecs_per_sec\tload1\n' >"$RUNS_TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(commit_label bench/minimize-crash/runs.tsv)

# ("ab" + 2,000 letters, 5, "!" + 3,000 letters): fails as ("ab", 3, "!").
python3 - "$OUT/record.v1" <<'EOF'
import random, sys
r = random.Random(2)
name = "ab" + "".join(r.choice("cdefghijklmnopqrstuvwxyz") for _ in range(2000))
payload = "!" + "".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(3000))
open(sys.argv[1], "w").write(f'go test fuzz v1\nstring("{name}")\nint64(5)\n[]byte("{payload}")\n')
EOF

# Each case: NAME LIBRARY INPUT [fuzz-minimize flags].
cases=("rust_typed_abort $OUT/lib/librust_typed_abort.so $OUT/record.v1 -target FuzzRecord")
if [ -n "${REALBUGS:-}" ]; then
    for bug in simple_asn1_utctime xml_rs_doctype; do
        lib=$REALBUGS/fuzz-run/lib$bug.so
        [ -f "$lib" ] || { echo "bench/minimize-crash/run.sh: no $lib (bench/realbugs/build.sh $REALBUGS first)" >&2; exit 2; }
        cases+=("$bug $(cd "$(dirname "$lib")" && pwd)/$(basename "$lib") $HERE/$bug")
    done
fi

declare -A rates
for run in $(seq 1 "$RUNS"); do
    for case in "${cases[@]}"; do
        read -r name lib input flags <<<"$case"
        for pair in $BINS; do
            label=$(bin_label "$pair") bin=$(bin_dir "$pair")
            for bt in 1 unset; do
                dir=$OUT/run
                rm -rf "$dir"
                mkdir -p "$dir"
                if [ "$bt" = 1 ]; then env=(env RUST_BACKTRACE=1); else env=(env -u RUST_BACKTRACE); fi
                # shellcheck disable=SC2086 # flags are words
                line=$(cd "$dir" && FUZZCACHE="$dir/cache" "${env[@]}" "$bin/fuzz-minimize" "$lib" $flags \
                    "$input" -o out 2>&1 | grep -E '^fuzz-minimize: [0-9]+ -> ' || true)
                [ -n "$line" ] || { echo "bench/minimize-crash/run.sh: $label's fuzz-minimize gave no summary on $name" >&2; exit 1; }
                read -r before after execs secs < <(sed -E \
                    's/^fuzz-minimize: ([0-9]+) -> ([0-9]+) bytes, ([0-9]+) executions in ([0-9.]+)s.*/\1 \2 \3 \4/' <<<"$line")
                # A time printed as zero (0.0 by builds that gave one decimal)
                # gives no rate.
                rate=$(awk -v n="$execs" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }')
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$label" "$name" "$bt" "$run" \
                    "$before" "$after" "$execs" "$secs" "$rate" "$(cut -d' ' -f1 /proc/loadavg)" >>"$RUNS_TSV"
                rates["$name $label $bt"]="${rates["$name $label $bt"]:-} $rate"
                echo "run $run: $name, $label, RUST_BACKTRACE=$bt: $line ($rate/s)" >&2
            done
        done
    done
done

printf 'fuzz-minimize of panic=abort Rust crashes, %s runs, median executions/s\n' "$RUNS"
for case in "${cases[@]}"; do
    read -r name _ <<<"$case"
    for pair in $BINS; do
        label=$(bin_label "$pair")
        for bt in 1 unset; do
            printf '%s\t%s\tRUST_BACKTRACE=%s\t%s\n' "$name" "$label" "$bt" "$(median <<<"${rates["$name $label $bt"]}")"
        done
    done
done
