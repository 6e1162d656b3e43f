#!/usr/bin/env bash
# One run of the real-bug benchmark: ENGINE fuzzes BUG from an empty corpus
# with SEED until the first crash or hang it saves, or the cap.
#
#   bench/realbugs/run.sh OUT ENGINE BUG SEED
#
# OUT is build.sh's output directory. ENGINE is fuzz-run, libfuzzer or
# aflpp440 (not built yet: an error). CAP (seconds, default 300) caps the
# run; every engine has a 10 s per-input limit, so a hang counts when the
# engine saves it:
#   fuzz-run   -fuzz '^BUG$' -timeout 10s -fuzztime CAPs -parallel 1
#              -seed SEED -fuzzminimizetime 0s (no minimization: the input
#              is saved as found, as libFuzzer saves it), a fresh cache and
#              testdata directory; the time is the failure event's elapsed
#              (-json). fuzz-run and fuzz-worker come from FUZZ_BIN (a
#              directory), else the repository's target/release (cargo
#              build --release).
#   libfuzzer  OUT/libfuzzer/BUG -timeout=10 -max_total_time=CAP -seed=SEED
#              on an empty corpus directory; the time is the process's
#              wall time (it exits on its first crash, timeout or OOM).
# The saved input goes through check.sh. Prints one TSV line and appends it
# to OUT/results.tsv:
#   engine bug seed cap found time_s kind verdict input
# found is 1 when the engine saved an input within the cap (time_s is then
# its time, else the cap); kind is the engine's word for it (crash,
# timeout, oom, ...), or how the engine itself failed when it saved nothing
# (a miss); verdict is check.sh's (documented, other, ...), "-"
# when nothing was found. The run's files stay in OUT/runs/ENGINE/BUG/SEED.
set -euo pipefail

die() {
    echo "bench/realbugs/run.sh: $*" >&2
    exit 2
}
[ $# -eq 4 ] || die "usage: bench/realbugs/run.sh OUT ENGINE BUG SEED"
OUT=$(cd "$1" && pwd) || die "no such directory: $1"
ENGINE=$2 BUG=$3 SEED=$4
CAP=${CAP:-300}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be a number"
[[ "$CAP" =~ ^[0-9]+$ ]] || die "CAP must be a number of seconds"
grep -q "^$BUG	" "$HERE/bugs.tsv" || die "$BUG is not in bugs.tsv"

dir="$OUT/runs/$ENGINE/$BUG/$SEED"
rm -rf "$dir"
mkdir -p "$dir"
found=0 time_s=$CAP kind=- input=-

engine_fuzz_run() {
    local bin=${FUZZ_BIN:-$ROOT/target/release} lib="$OUT/fuzz-run/lib$BUG.so" rc=0
    [ -x "$bin/fuzz-run" ] || die "no fuzz-run in $bin (cargo build --release, or FUZZ_BIN=DIR)"
    [ -f "$lib" ] || die "$lib is not built (bench/realbugs/build.sh $OUT $BUG)"
    (
        cd "$dir"
        timeout $((CAP + 120)) "$bin/fuzz-run" -fuzz "^$BUG\$" -timeout 10s -fuzztime "${CAP}s" \
            -parallel 1 -seed "$SEED" -fuzzminimizetime 0s -fuzzcachedir cache -testdata testdata \
            -json "$lib" >events.jsonl 2>stderr.log
    ) || rc=$?
    # The first failure event: its elapsed, its kind, the crasher written.
    local failure
    failure=$(python3 - "$dir/events.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") == "failure" and e.get("path"):
        print("%.2f\t%s\t%s" % (e["elapsed"], e.get("kind", "?").replace("\t", " "), e["path"]))
        break
PY
    )
    if [ -n "$failure" ]; then
        local path
        IFS=$'\t' read -r time_s kind path <<<"$failure"
        case "$path" in /*) ;; *) path="$dir/$path" ;; esac
        "$bin/fuzz-convert" to-raw "$path" >"$dir/input" || die "fuzz-convert to-raw $path failed"
        found=1 input="$dir/input"
    elif [ "$rc" != 0 ]; then
        # The engine itself failed: nothing saved, the run counts as a miss.
        kind="fuzz-run exited $rc"
        echo "bench/realbugs/run.sh: fuzz-run exited $rc without a failure event (see $dir/stderr.log)" >&2
    fi
}

engine_libfuzzer() {
    local bin="$OUT/libfuzzer/$BUG" rc=0 start end art
    [ -x "$bin" ] || die "$bin is not built (bench/realbugs/build.sh $OUT $BUG)"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    start=$(date +%s.%N)
    (
        cd "$dir"
        timeout $((CAP + 120)) "$bin" -timeout=10 -max_total_time="$CAP" -seed="$SEED" \
            -rss_limit_mb=2048 -artifact_prefix=artifacts/ corpus >log 2>&1
    ) || rc=$?
    end=$(date +%s.%N)
    art=$(find "$dir/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | head -n1)
    if [ -n "$art" ]; then
        found=1 input=$art
        kind=$(basename "$art" | sed 's/-.*//')
        time_s=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
    elif [ "$rc" != 0 ]; then
        # The engine itself died (a crash that broke its own handler): nothing
        # saved, the run counts as a miss.
        kind="libFuzzer exited $rc"
        echo "bench/realbugs/run.sh: libFuzzer exited $rc without an artifact (see $dir/log)" >&2
    fi
}

engine_aflpp440() {
    die "aflpp440: AFL++ 4.40c builds are not built yet (bench/realbugs/build.sh has no such flavour)"
}

case "$ENGINE" in
fuzz-run) engine_fuzz_run ;;
libfuzzer) engine_libfuzzer ;;
aflpp440) engine_aflpp440 ;;
*) die "unknown engine: $ENGINE (fuzz-run, libfuzzer, aflpp440)" ;;
esac

verdict=-
if [ "$found" = 1 ]; then
    verdict=$(CHECK_LOG="$dir/check" "$HERE/check.sh" "$OUT" "$BUG" "$input" || true)
    [ -n "$verdict" ] || verdict=error
fi
row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$ENGINE" "$BUG" "$SEED" "$CAP" "$found" "$time_s" "$kind" "$verdict" "$input")
[ -f "$OUT/results.tsv" ] ||
    printf 'engine\tbug\tseed\tcap\tfound\ttime_s\tkind\tverdict\tinput\n' >"$OUT/results.tsv"
echo "$row" >>"$OUT/results.tsv"
echo "$row"
