#!/usr/bin/env bash
# The first execution: how long fuzz-run and libFuzzer take from their
# start to a run of one execution on an empty corpus, on bench/realbugs'
# builds of the sub-second bugs (their fuzz-run and libFuzzer flavours).
# fuzz-run: `-fuzztime 1x -parallel 1 -json`, its wall time and its own
# `baseline` (the worker up, the empty corpus run) and `end` (the one
# execution done) events; libFuzzer: `-runs=1`, its wall time. Both exit
# right after, so the wall time is start-up, one execution and shut-down.
#
#   bench/startup.sh bench/out/realbugs
#
# RUNS (5) runs each, one at a time; FUZZ_BIN a fuzz-run build (default:
# this tree's release build); BUGS the bugs (five sub-second ones).
# Every run goes to bench/startup-runs.tsv (committed), the medians to
# stdout; fuzz-run's runs also to bench/startup-parts-runs.tsv, with its
# `start` event (the targets listed: a `fuzz-worker list` process done)
# and its `exit` event (the workers stopped), beside `end`.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bench/startup.sh REALBUGS_OUT" >&2; exit 2; }
REALBUGS=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
. bench/lib.sh
RUNS=${RUNS:-5}
BUGS=${BUGS:-bcder_ber cel_call jpeg_no_frame rulex_utf8 zlib_gzip_extra}
if [ -z "${FUZZ_BIN:-}" ]; then
    cargo build --release -q
    FUZZ_BIN=$PWD/target/release
fi
OUT=$PWD/bench/out/startup
RUNS_TSV=$PWD/bench/startup-runs.tsv
PARTS_TSV=$PWD/bench/startup-parts-runs.tsv
[ -s "$RUNS_TSV" ] ||
    printf 'sitting\tcommit\tengine\tbug\trun\twall_s\tbaseline_s\tend_s\tload1\n' >"$RUNS_TSV"
[ -s "$PARTS_TSV" ] ||
    printf 'sitting\tcommit\tbug\trun\tstart_s\tend_s\texit_s\twall_s\n' >"$PARTS_TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(commit_label bench/startup-runs.tsv bench/startup-parts-runs.tsv)
now() { date +%s.%N; }

declare -A walls
for run in $(seq 1 "$RUNS"); do
    for bug in $BUGS; do
        for engine in fuzz-run libfuzzer; do
            dir=$OUT/run
            rm -rf "$dir"
            mkdir -p "$dir/corpus"
            baseline=- end=- started=- exited=-
            if [ "$engine" = fuzz-run ]; then
                start=$(now)
                (cd "$dir" && "$FUZZ_BIN/fuzz-run" -fuzz "^$bug\$" -fuzztime 1x -parallel 1 -seed 1 -json \
                    -fuzzcachedir cache -testdata testdata "$REALBUGS/fuzz-run/lib$bug.so" >events.jsonl 2>stderr.log) ||
                    echo "bench/startup.sh: fuzz-run exited $? on $bug (see $dir/stderr.log)" >&2
                stop=$(now)
                read -r baseline end started exited < <(python3 - "$dir/events.jsonl" <<'PY'
import json, sys
got = {}
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") in ("baseline", "end", "start", "exit") and e["event"] not in got:
        got[e["event"]] = "%.3f" % e["elapsed"]
print(*(got.get(k, "-") for k in ("baseline", "end", "start", "exit")))
PY
                )
            else
                start=$(now)
                (cd "$dir" && "$REALBUGS/libfuzzer/$bug" -runs=1 -seed=1 corpus >stderr.log 2>&1) ||
                    echo "bench/startup.sh: libFuzzer exited $? on $bug (see $dir/stderr.log)" >&2
                stop=$(now)
            fi
            wall=$(awk -v a="$start" -v b="$stop" 'BEGIN { printf "%.3f", b - a }')
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$engine" "$bug" "$run" \
                "$wall" "$baseline" "$end" "$(cut -d' ' -f1 /proc/loadavg)" >>"$RUNS_TSV"
            walls["$bug $engine"]="${walls["$bug $engine"]:-} $wall"
            [ "$engine" = libfuzzer ] ||
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$bug" "$run" \
                    "$started" "$end" "$exited" "$wall" >>"$PARTS_TSV"
        done
    done
done

printf 'start to exit after one execution, median seconds of %s runs\nbug\tfuzz-run\tlibFuzzer\n' "$RUNS"
for bug in $BUGS; do
    printf '%s\t%s\t%s\n' "$bug" "$(median <<<"${walls["$bug fuzz-run"]}")" "$(median <<<"${walls["$bug libfuzzer"]}")"
done
