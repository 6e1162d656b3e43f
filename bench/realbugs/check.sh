#!/usr/bin/env bash
# The checker: is INPUT the documented bug of BUG?
#
#   bench/realbugs/check.sh OUT BUG INPUT
#
# Replays the raw INPUT once against the buggy build (OUT/libfuzzer/BUG) and
# once against the fixed one (OUT/fixed/BUG), each under libFuzzer's replay
# with a 10 s per-input limit (-timeout=10) and 2 GiB (-rss_limit_mb=2048),
# and compares with BUG's line in bugs.tsv:
#   crash: the buggy build dies of a signal (libFuzzer's "deadly signal",
#          or a sanitizer's DEADLYSIGNAL report) or of an AddressSanitizer
#          error, and its report
#          matches both the site and the message patterns (extended regular
#          expressions, each matched against some line of the report);
#   hang:  the buggy build runs past the limit (libFuzzer: timeout);
#   loop:  an endless loop that also allocates: the buggy build runs past
#          the time limit or the memory limit (libFuzzer: timeout or
#          out-of-memory), whichever it reaches first;
# and, for both, the fixed build runs the input to its end and passes.
# Prints one word and exits 0 only for the first:
#   documented      the documented bug
#   other           the buggy build fails, but not as documented
#   not-reproduced  the buggy build passes
#   not-fixed       the buggy build fails as documented, the fixed one fails too
# With CHECK_LOG=DIR, the two replays' reports are kept as DIR/buggy.log
# and DIR/fixed.log.
set -euo pipefail

die() {
    echo "bench/realbugs/check.sh: $*" >&2
    exit 2
}
[ $# -eq 3 ] || die "usage: bench/realbugs/check.sh OUT BUG INPUT"
OUT=$1 BUG=$2 INPUT=$3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/set.sh"
[ -f "$INPUT" ] || die "no such input: $INPUT"
for b in "$OUT/libfuzzer/$BUG" "$OUT/fixed/$BUG"; do
    [ -x "$b" ] || die "$b is not built (bench/realbugs/build.sh $OUT $BUG)"
done
line=$(awk -F'\t' -v b="$BUG" '$1 == b' "$SETDIR/bugs.tsv")
[ -n "$line" ] || die "$BUG is not in bugs.tsv"
IFS=$'\t' read -r _ kind site message _ <<<"$line"

logs=${CHECK_LOG:-$(mktemp -d)}
mkdir -p "$logs"
replay() { # binary log -> exit status
    local rc=0
    # The outer timeout only guards against a replayer that never reports.
    timeout 120 "$1" -timeout=10 -rss_limit_mb=2048 "$INPUT" >"$2" 2>&1 || rc=$?
    echo "$rc"
}
brc=$(replay "$OUT/libfuzzer/$BUG" "$logs/buggy.log")
frc=$(replay "$OUT/fixed/$BUG" "$logs/fixed.log")

documented=0
case "$kind" in
crash)
    # A crash: libFuzzer's deadly signal, or a sanitizer's report of one
    # (UBSan's handler reports a SIGSEGV at the stack's end as a
    # stack-overflow), not a timeout or an out-of-memory.
    if grep -Eq 'ERROR: libFuzzer: deadly signal|Sanitizer:DEADLYSIGNAL|ERROR: AddressSanitizer: ' "$logs/buggy.log" &&
        grep -Eq -- "$site" "$logs/buggy.log" && grep -Eq -- "$message" "$logs/buggy.log"; then
        documented=1
    fi
    ;;
hang)
    grep -q 'ERROR: libFuzzer: timeout' "$logs/buggy.log" && documented=1
    ;;
loop)
    grep -Eq 'ERROR: libFuzzer: (timeout|out-of-memory)' "$logs/buggy.log" && documented=1
    ;;
*) die "bugs.tsv: $BUG has kind '$kind' (crash, hang or loop)" ;;
esac

[ -n "${CHECK_LOG:-}" ] || rm -rf "$logs"
if [ "$brc" = 0 ]; then
    echo not-reproduced
    exit 1
elif [ "$documented" = 0 ]; then
    echo other
    exit 1
elif [ "$frc" != 0 ]; then
    echo not-fixed
    exit 1
fi
echo documented
