#!/usr/bin/env bash
# From a find to its report: fuzz-run on real bugs that are Rust panics
# under panic = "abort" (bench/realbugs' fuzz-run builds), with
# RUST_BACKTRACE=1, one core, each seed run twice per build: with the
# default -fuzzminimizetime (the crasher minimized before it is reported)
# and with -fuzzminimizetime 0s (reported as found). The two ways do not
# find at the same moment (the default minimizes new corpus entries too,
# which changes the search); one way and one seed on two builds mostly do,
# so compare builds seed by seed, within a way.
#
#   BINS="before=/tmp/old/release after=target/release" \
#       bench/minimize-crash/report-time.sh bench/out/realbugs
#
# BINS is LABEL=DIR pairs (default: this tree's release build); SEEDS
# ("1 2 3"); BUGS (five sub-second panics). Each run's seconds to its
# `failure` event and to its `exit` event go to
# bench/minimize-crash/report-time-runs.tsv (committed), the medians to
# stdout.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 1 ] || { echo "usage: bench/minimize-crash/report-time.sh REALBUGS_OUT" >&2; exit 2; }
REALBUGS=$(cd "$1" && pwd)
cd "$HERE/../.."
. bench/lib.sh
SEEDS=${SEEDS:-1 2 3}
BUGS=${BUGS:-simple_asn1_utctime bcder_ber cel_call jpeg_no_frame rulex_utf8}
if [ -z "${BINS:-}" ]; then
    cargo build --release -q
    BINS=this=$PWD/target/release
fi
OUT=$PWD/bench/out/minimize-crash/report-time
RUNS_TSV=$HERE/report-time-runs.tsv
[ -s "$RUNS_TSV" ] ||
    printf 'sitting\tcommit\tbuild\tbug\tseed\tminimize\tfailure_s\texit_s\tcrasher_bytes\tload1\n' >"$RUNS_TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(commit_label bench/minimize-crash/report-time-runs.tsv)

declare -A exits
for seed in $SEEDS; do
    for bug in $BUGS; do
        lib=$REALBUGS/fuzz-run/lib$bug.so
        [ -f "$lib" ] || { echo "bench/minimize-crash/report-time.sh: no $lib (bench/realbugs/build.sh first)" >&2; exit 2; }
        for pair in $BINS; do
            label=$(bin_label "$pair") bin=$(bin_dir "$pair")
            for minimize in default 0s; do
                dir=$OUT/run
                rm -rf "$dir"
                mkdir -p "$dir"
                flags=()
                [ "$minimize" = default ] || flags=(-fuzzminimizetime "$minimize")
                (cd "$dir" && RUST_BACKTRACE=1 timeout 300 "$bin/fuzz-run" -fuzz "^$bug\$" -timeout 10s \
                    -fuzztime 120s -parallel 1 -seed "$seed" "${flags[@]}" -fuzzcachedir cache \
                    -testdata testdata -json "$lib" >events.jsonl 2>stderr.log) || true
                read -r failure_s exit_s bytes < <(python3 - "$dir" <<'PY'
import json, os, sys
run = sys.argv[1]
failure = exit_ = "-"
size = "-"
for line in open(os.path.join(run, "events.jsonl")):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") == "failure" and failure == "-":
        failure = "%.3f" % e.get("elapsed", -1)
        if e.get("path"):
            size = str(os.path.getsize(os.path.join(run, e["path"])))
    if e.get("event") == "exit":
        exit_ = "%.3f" % e.get("elapsed", -1)
print(failure, exit_, size)
PY
                )
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$label" "$bug" "$seed" \
                    "$minimize" "$failure_s" "$exit_s" "$bytes" "$(cut -d' ' -f1 /proc/loadavg)" >>"$RUNS_TSV"
                exits["$bug $label $minimize"]="${exits["$bug $label $minimize"]:-} $exit_s"
                echo "seed $seed: $bug, $label, -fuzzminimizetime $minimize: failure at $failure_s s, exit at $exit_s s, $bytes bytes" >&2
            done
        done
    done
done

printf 'fuzz-run, RUST_BACKTRACE=1, one core: median seconds to the exit event (seeds %s)\n' "$SEEDS"
printf 'bug\tbuild\tminimized\tnot minimized\n'
for bug in $BUGS; do
    for pair in $BINS; do
        label=$(bin_label "$pair")
        printf '%s\t%s\t%s\t%s\n' "$bug" "$label" "$(median <<<"${exits["$bug $label default"]}")" \
            "$(median <<<"${exits["$bug $label 0s"]}")"
    done
done
