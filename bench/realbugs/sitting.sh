#!/usr/bin/env bash
# A sitting of the real-bug benchmark: every (seed, bug, engine) run once by
# run.sh, its row appended to a committed results table, in parts that
# resume (a run whose row the table has already is skipped).
#
#   bench/realbugs/sitting.sh OUT RESULTS.tsv [BUG...]
#
# OUT is build.sh's output directory (built for the same SET); RESULTS.tsv
# is the sitting's table, e.g. bench/realbugs/results/heldout-300s.tsv:
# commit it as the sitting goes. BUGs default to every bug of the set.
# Environment: SET (empty, heldout or text, as build.sh), CAP (300), SEEDS
# ("1 2 3"), ENGINES ("fuzz-run libfuzzer aflpp440 aflpp440-cmplog"),
# JOBS (runs at once, default 1: one core each; 2 on this machine's two
# cores), MAX_LEN and FUZZ_BIN (as run.sh). Then report.sh OUT RESULTS.tsv
# prints the table.
set -euo pipefail
die() {
    echo "bench/realbugs/sitting.sh: $*" >&2
    exit 2
}
[ $# -ge 2 ] || die "usage: bench/realbugs/sitting.sh OUT RESULTS.tsv [BUG...]"
OUT=$1 RESULTS=$2
shift 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/set.sh"
CAP=${CAP:-300} SEEDS=${SEEDS:-1 2 3} JOBS=${JOBS:-1}
ENGINES=${ENGINES:-fuzz-run libfuzzer aflpp440 aflpp440-cmplog}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "JOBS must be a positive number, not '$JOBS'"
[ -d "$OUT" ] || die "no such directory: $OUT (build.sh OUT first)"
if [ $# -gt 0 ]; then
    bugs=("$@")
else
    mapfile -t bugs < <(grep -v '^#' "$SETDIR/bugs.tsv" | cut -f1 | grep .)
fi
mkdir -p "$(dirname "$RESULTS")"
RESULTS=$(cd "$(dirname "$RESULTS")" && pwd)/$(basename "$RESULTS")

# One input limit for the runs and for the test of which are done: a run is
# done when the table has its row with the same cap and limit.
MAX_LEN=${MAX_LEN:-4096}
jobs=()
for seed in $SEEDS; do
    for bug in "${bugs[@]}"; do
        for engine in $ENGINES; do
            if [ -f "$RESULTS" ] && awk -F'\t' -v e="$engine" -v b="$bug" -v s="$seed" -v c="$CAP" -v m="$MAX_LEN" \
                '$1 == e && $2 == b && $3 == s && $4 == c && $14 == m { f = 1 } END { exit !f }' "$RESULTS"; then
                continue
            fi
            jobs+=("$engine $bug $seed")
        done
    done
done
echo "bench/realbugs/sitting.sh: ${#jobs[@]} run(s) of at most $CAP s to do, $JOBS at once" >&2
[ "${#jobs[@]}" -gt 0 ] || exit 0
export OUT RESULTS CAP HERE MAX_LEN
printf '%s\n' "${jobs[@]}" |
    xargs -P "$JOBS" -L 1 bash -c '"$HERE/run.sh" "$OUT" "$@" >/dev/null' _
