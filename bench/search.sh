#!/usr/bin/env bash
# What rarity scheduling (-entropic), splicing (-cross_over), whole UTF-8
# characters (-utf8), numbers changed as numbers (-ascii_num) and
# comparison outcomes counted as coverage (-cmp_outcomes) buy: seconds
# until a planted bug that needs them is found, each switched on and off,
# with libFuzzer 19 on the same source beside them.
#
#   bench/search.sh [SECONDS] [RUNS]     # cap per run (default 60), runs (3)
#   ONLY="script length" bench/search.sh # only those planted bugs
#
# examples/search/ladder.c: eight nested byte checks and an abort at the
#   top, fuzzed from 300 seeds that reach nothing (a corpus like a real
#   one, mostly done). Coverage rewards each rung; the question is how much
#   of the time goes to the entry on the highest rung.
# examples/search/halves.c: a ladder at the start of the input, another at
#   its end, an abort when both are complete. Once both ladders are known,
#   completing one on an entry of the other brings nothing new until every
#   rung is in place at once; a splice joins them.
# examples/search/script.c: valid UTF-8 or rejected (the validation not
#   instrumented, as Rust's std is not), an abort at three emoji (four
#   bytes each, F0 9F ..); each one found is a rung. Byte mutations must
#   write a valid four-byte sequence in one go; -utf8 1 writes characters.
# examples/search/length.c: a header "size=N", an abort when N is 65,536 to
#   65,599 (just past 16 bits), from the seed "size=100"; byte mutations
#   must write four exact digits in one go, -ascii_num 1 rewrites the number.
# examples/search/hidden.c: eight comparisons chained through computed
#   values, never a branch, an abort when all hold; no edge moves until the
#   last, -cmp_outcomes 1 counts each comparison's outcome (built with
#   clang's trace-cmp for fuzz-run; libFuzzer's value profile,
#   -use_value_profile=1, is its way to the same signal).
# Comparison feedback is off (-use_cmp 0; libFuzzer: -use_cmp=0): the byte
# checks would otherwise be solved by copying their operands, which is
# bench/cmp-feedback.sh's subject, not this one's. Targets are gcc trace-pc
# builds for fuzz-run (hidden.c: clang-19 trace-cmp), clang-19
# -fsanitize=fuzzer for libFuzzer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
cap="${1:-60}"
runs="${2:-3}"
out="$here/out/search"
rm -rf "$out" && mkdir -p "$out"
command -v clang-19 >/dev/null || { echo "search.sh: clang-19 is required (apt-get install clang-19 libclang-rt-19-dev)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "search.sh: python3 is required" >&2; exit 1; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
export PATH="$root/target/release:$PATH"
"$root/examples/build.sh" "$out/lib" >/dev/null
targets="ladder halves script length hidden"
for t in $targets; do
    clang-19 -g -O1 -fsanitize=fuzzer "$root/examples/search/$t.c" -o "$out/${t}_libfuzzer"
done

# The seeds: 300 useless ones for the ladder, one for the halves; raw files
# for libFuzzer and v1 files for fuzz-run (fuzz-convert import).
python3 - "$out/raw" "$targets" <<'PY'
import os, random, sys
random.seed(1)
base = sys.argv[1]
for t in sys.argv[2].split():
    os.makedirs(f"{base}/{t}")
for i in range(300):
    n = random.randint(8, 20)
    open(f"{base}/ladder/seed{i:03}", "wb").write(bytes(random.choice(b"abcdefghijKMNOP") for _ in range(n)))
open(f"{base}/halves/start", "wb").write(b"xxxxxxxxxxxx")
open(f"{base}/script/start", "wb").write(b"text")
open(f"{base}/length/start", "wb").write(b"size=100")
open(f"{base}/hidden/start", "wb").write(b"xxxxxxxx")
PY
for t in $targets; do
    fuzz-convert import -testdata "$out/testdata" -target "$t" "$out/raw/$t" >/dev/null
done

ours() { # target flags... -> seconds to the bug, or -
    local t="$1" dir="$out/run-$RANDOM$RANDOM" start end status=0
    shift
    mkdir -p "$dir"
    cp -r "$out/testdata" "$dir/testdata"
    start=$(date +%s.%N)
    (cd "$dir" && fuzz-run -fuzz . -parallel 1 -fuzztime "${cap}s" -use_cmp 0 \
        -fuzzminimizetime 0 -fuzzcachedir cache "$@" "$out/lib/lib$t.so" >/dev/null 2>&1) || status=$?
    end=$(date +%s.%N)
    if [ "$status" -eq 1 ]; then printf '%.2f' "$(echo "$end - $start" | bc)"; else printf -- '-'; fi
}
theirs() { # target flags... -> seconds to the bug, or -
    local t="$1" dir="$out/lf-$RANDOM$RANDOM" start end
    shift
    mkdir -p "$dir/corpus"
    start=$(date +%s.%N)
    (cd "$dir" && "$out/${t}_libfuzzer" -use_cmp=0 -max_total_time="$cap" "$@" corpus "$out/raw/$t" >/dev/null 2>&1) || true
    end=$(date +%s.%N)
    if ls "$dir"/crash-* >/dev/null 2>&1; then printf '%.2f' "$(echo "$end - $start" | bc)"; else printf -- '-'; fi
}
row() { # label, then the command printing one time
    local label="$1"
    shift
    printf '%-50s' "$label"
    for ((i = 1; i <= runs; i++)); do printf '%10s' "$("$@")"; done
    echo
}
want() { # target -> whether ONLY (default: every one) names it
    [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]
}
header() {
    echo "$1"
    printf '%-50s' "engine"; for ((i = 1; i <= runs; i++)); do printf '%10s' "run $i"; done; echo
}
if want ladder; then
    header "ladder behind 300 useless seeds (examples/search/ladder.c):"
    row "fuzz-run (rarity scheduling, the default)" ours ladder
    row "fuzz-run -entropic 0 (Go's round robin)" ours ladder -entropic 0
    row "libFuzzer 19 -use_cmp=0" theirs ladder
    echo
fi
if want halves; then
    header "two halves found apart (examples/search/halves.c):"
    row "fuzz-run (splicing, the default)" ours halves
    row "fuzz-run -cross_over 0" ours halves -cross_over 0
    row "libFuzzer 19 -use_cmp=0" theirs halves
    echo
fi
if want script; then
    header "three emoji in valid UTF-8 (examples/search/script.c):"
    row "fuzz-run -utf8 1 (whole UTF-8 characters)" ours script -utf8 1
    row "fuzz-run (the default, -utf8 0)" ours script
    row "libFuzzer 19 -use_cmp=0" theirs script
    echo
fi
if want length; then
    header "a size just past 16 bits written as text (examples/search/length.c):"
    row "fuzz-run -ascii_num 1 (numbers as numbers)" ours length -ascii_num 1
    row "fuzz-run (the default, -ascii_num 0)" ours length
    row "libFuzzer 19 -use_cmp=0" theirs length
    echo
fi
if want hidden; then
    header "eight decisions no edge shows (examples/search/hidden.c):"
    row "fuzz-run -cmp_outcomes 1 (outcomes as coverage)" ours hidden -cmp_outcomes 1
    row "fuzz-run (the default, -cmp_outcomes 0)" ours hidden
    row "libFuzzer 19 -use_cmp=0" theirs hidden
    row "libFuzzer 19 -use_cmp=0 -use_value_profile=1" theirs hidden -use_value_profile=1
    echo
fi
echo "seconds to the planted bug; - = not found in ${cap}s"
