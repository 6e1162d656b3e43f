#!/usr/bin/env bash
# One run of the real-bug benchmark: ENGINE fuzzes BUG from an empty corpus
# with SEED until the first crash or hang it saves, or the cap.
#
#   bench/realbugs/run.sh OUT ENGINE BUG SEED
#
# OUT is build.sh's output directory. ENGINE is fuzz-run, libfuzzer,
# aflpp440 or aflpp440-cmplog; fuzz-run:FLAGS is fuzz-run with FLAGS
# (comma-separated, each -flag=value: fuzz-run:-reduce_inputs=0) added,
# for an ablation, named so in the table. CAP (seconds, default 300) caps the run; every engine has a
# 10 s per-input limit, so a hang counts when the engine saves it, a
# 2 GiB limit on its resident memory, and one limit on the inputs it makes,
# MAX_LEN bytes (default 4096: libFuzzer's own default from an empty corpus
# and fuzz-run's; AFL++ would otherwise grow inputs up to 1 MB):
#   fuzz-run   -fuzz '^BUG$' -timeout 10s -fuzztime CAPs -parallel 1
#              -max_len MAX_LEN -seed SEED -fuzzminimizetime 0s (no
#              minimization: the input is saved as found, as libFuzzer
#              saves it), a fresh cache and
#              testdata directory; the time is the crasher file's mtime
#              from the process's start (as AFL++'s below: when it was
#              saved; the failure event of -json comes after the check
#              that it fails again). fuzz-run and fuzz-worker come from FUZZ_BIN (a
#              directory), else the repository's target/release (cargo
#              build --release). Its -rss_limit_mb default is 2048.
#   libfuzzer  OUT/libfuzzer/BUG -timeout=10 -max_total_time=CAP -seed=SEED
#              -max_len=MAX_LEN on an empty corpus directory (it exits on its first crash,
#              timeout or OOM); the time is its artifact's mtime from the
#              process's start, as for the others. -rss_limit_mb=2048.
#   aflpp440   OUT/aflpp440/afl-fuzz -V CAP -t 10000 -G MAX_LEN -m none -s SEED
#              -i in -o out [-x OUT/aflpp440/BUG.dict] -- OUT/aflpp440/BUG, in
#              the one-byte corpus `echo >in/seed` writes (AFL++ needs an
#              input and skips empty ones); the 2 GiB limit is the build's
#              (rss_limit.c), not -m. AFL_BENCH_UNTIL_CRASH=1, and the run
#              stops afl-fuzz at its first file in crashes/ or hangs/; the
#              time is that file's mtime from the process's start.
#   aflpp440-cmplog  the same with OUT/aflpp440cmp/BUG, its CmpLog build,
#              as -c BIN (AFL++'s configuration in FuzzBench).
# The saved input goes through check.sh. Prints one TSV line and appends it
# to OUT/results.tsv, or to the file RESULTS names (a sitting's committed
# table, bench/realbugs/results/*.tsv):
#   engine bug seed cap found time_s kind verdict input started commit load0 load1 max_len
# found is 1 when the engine saved an input within the cap (time_s is then
# its time, else the cap); kind is the engine's word for it (crash,
# timeout, oom; AFL++'s crash sig:NN or hang, ...), or how the engine
# itself failed when it saved nothing (a miss); verdict is check.sh's
# (documented, other, ...), "-" when nothing was found; started is the
# run's start (UTC), commit the repository's commit checked out (+dirty when
# files outside bench/ had changes; fuzz-run's binaries are built from it unless
# FUZZ_BIN says otherwise, which the column then names), load0 and load1
# the 1-minute load average before and after the run, max_len the input
# limit every engine had. The run's files stay
# in OUT/runs/ENGINE/BUG/SEED. SET=heldout runs a held-out bug
# (heldout/bugs.tsv), SET=text a text parser's (text/bugs.tsv).
set -euo pipefail

die() {
    echo "bench/realbugs/run.sh: $*" >&2
    exit 2
}
[ $# -eq 4 ] || die "usage: bench/realbugs/run.sh OUT ENGINE BUG SEED"
OUT=$(cd "$1" && pwd) || die "no such directory: $1"
ENGINE=$2 BUG=$3 SEED=$4
CAP=${CAP:-300}
MAX_LEN=${MAX_LEN:-4096}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/set.sh"
ROOT=$(cd "$HERE/../.." && pwd)
[[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be a number"
[[ "$CAP" =~ ^[0-9]+$ ]] || die "CAP must be a number of seconds"
[[ "$MAX_LEN" =~ ^[1-9][0-9]*$ ]] || die "MAX_LEN must be a positive number of bytes"
grep -q "^$BUG	" "$SETDIR/bugs.tsv" || die "$BUG is not in bugs.tsv"

RESULTS=${RESULTS:-$OUT/results.tsv}
COLUMNS_TSV='engine\tbug\tseed\tcap\tfound\ttime_s\tkind\tverdict\tinput\tstarted\tcommit\tload0\tload1\tmax_len'
if [ -s "$RESULTS" ] && [ "$(head -n1 "$RESULTS")" != "$(printf "$COLUMNS_TSV")" ]; then
    die "$RESULTS has other columns than this script writes (an older table: move it away)"
fi
# +dirty: a file outside bench/ (the engine's sources) differs from the
# commit; bench/ itself changes as a sitting goes (its results tables).
commit=$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- . ':!bench' || echo +dirty)
[ -z "${FUZZ_BIN:-}" ] || commit="$commit, FUZZ_BIN=${FUZZ_BIN#"$ROOT"/}"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load0=$(cut -d' ' -f1 /proc/loadavg)

dir="$OUT/runs/$ENGINE/$BUG/$SEED"
rm -rf "$dir"
mkdir -p "$dir"
found=0 time_s=$CAP kind=- input=-

engine_fuzz_run() {
    local bin=${FUZZ_BIN:-$ROOT/target/release} lib="$OUT/fuzz-run/lib$BUG.so" rc=0
    [ -x "$bin/fuzz-run" ] || die "no fuzz-run in $bin (cargo build --release, or FUZZ_BIN=DIR)"
    [ -f "$lib" ] || die "$lib is not built (bench/realbugs/build.sh $OUT $BUG)"
    local start
    start=$(date +%s.%N)
    (
        cd "$dir"
        timeout $((CAP + 120)) "$bin/fuzz-run" -fuzz "^$BUG\$" -timeout 10s -fuzztime "${CAP}s" \
            -parallel 1 -max_len "$MAX_LEN" -seed "$SEED" -fuzzminimizetime 0s -fuzzcachedir cache -testdata testdata \
            -json "${extra[@]}" "$lib" >events.jsonl 2>stderr.log
    ) || rc=$?
    # The first failure event: the crasher written (its mtime from the
    # start) and its kind.
    local failure
    failure=$(python3 - "$dir" "$start" <<'PY'
import json, os, sys
run, start = sys.argv[1], float(sys.argv[2])
for line in open(os.path.join(run, "events.jsonl")):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") == "failure" and e.get("path"):
        path = os.path.join(run, e["path"])
        saved = os.stat(path).st_mtime - start
        print("%.2f\t%s\t%s" % (saved, e.get("kind", "?").replace("\t", " "), path))
        break
PY
    )
    if [ -n "$failure" ]; then
        local path
        IFS=$'\t' read -r time_s kind path <<<"$failure"
        "$bin/fuzz-convert" to-raw "$path" >"$dir/input" || die "fuzz-convert to-raw $path failed"
        found=1 input="$dir/input"
    elif [ "$rc" != 0 ]; then
        # The engine itself failed: nothing saved, the run counts as a miss.
        kind="fuzz-run exited $rc"
        echo "bench/realbugs/run.sh: fuzz-run exited $rc without a failure event (see $dir/stderr.log)" >&2
    fi
}

engine_libfuzzer() {
    local bin="$OUT/libfuzzer/$BUG" rc=0 start art
    [ -x "$bin" ] || die "$bin is not built (bench/realbugs/build.sh $OUT $BUG)"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    start=$(date +%s.%N)
    (
        cd "$dir"
        timeout $((CAP + 120)) "$bin" -timeout=10 -max_total_time="$CAP" -max_len="$MAX_LEN" -seed="$SEED" \
            -rss_limit_mb=2048 -artifact_prefix=artifacts/ corpus >log 2>&1
    ) || rc=$?
    art=$(find "$dir/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | head -n1)
    if [ -n "$art" ]; then
        found=1 input=$art
        kind=$(basename "$art" | sed 's/-.*//')
        time_s=$(python3 -c 'import os, sys; print("%.2f" % (os.stat(sys.argv[1]).st_mtime - float(sys.argv[2])))' \
            "$art" "$start")
    elif [ "$rc" != 0 ]; then
        # The engine itself died (a crash that broke its own handler): nothing
        # saved, the run counts as a miss.
        kind="libFuzzer exited $rc"
        echo "bench/realbugs/run.sh: libFuzzer exited $rc without an artifact (see $dir/log)" >&2
    fi
}

# engine_aflpp440 [CMPLOG]: AFL++ 4.40c; with CMPLOG, its CmpLog build as
# -c BIN beside the plain one.
engine_aflpp440() {
    local bin="$OUT/aflpp440/$BUG" fuzz="$OUT/aflpp440/afl-fuzz" rc=0 start pid first args
    [ -x "$bin" ] || die "$bin is not built (FLAVOURS=aflpp440 bench/realbugs/build.sh $OUT $BUG)"
    [ -x "$fuzz" ] || die "no $fuzz (FLAVOURS=aflpp440 bench/realbugs/build.sh $OUT $BUG)"
    if [ -n "${1:-}" ]; then
        [ -x "$OUT/aflpp440cmp/$BUG" ] ||
            die "$OUT/aflpp440cmp/$BUG is not built (FLAVOURS=aflpp440cmp bench/realbugs/build.sh $OUT $BUG)"
    fi
    # AFL++ needs at least one input and skips empty files; the driver
    # skips the empty input too. So its corpus is one file of one byte, the
    # newline that `echo >in/seed` writes (no bug's input).
    mkdir -p "$dir/in"
    echo >"$dir/in/seed"
    args=(-V "$CAP" -t 10000 -G "$MAX_LEN" -m none -s "$SEED" -i in -o out)
    [ ! -s "$OUT/aflpp440/$BUG.dict" ] || args+=(-x "$OUT/aflpp440/$BUG.dict")
    [ -z "${1:-}" ] || args+=(-c "$OUT/aflpp440cmp/$BUG")
    start=$(date +%s.%N)
    (
        cd "$dir"
        exec env AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_BENCH_UNTIL_CRASH=1 \
            AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
            timeout -k 10 $((CAP + 120)) "$fuzz" "${args[@]}" -- "$bin" >log 2>&1
    ) &
    pid=$!
    # AFL_BENCH_UNTIL_CRASH stops afl-fuzz at its first crash, not at a
    # hang: watch both directories and stop it (SIGTERM: its own clean exit)
    # at the first file. Twice a second, with builtins but the sleep: the
    # time is the file's, not the watcher's.
    while kill -0 "$pid" 2>/dev/null; do
        if compgen -G "$dir/out/default/crashes/id:*" >/dev/null ||
            compgen -G "$dir/out/default/hangs/id:*" >/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.5
    done
    wait "$pid" || rc=$?
    # The log without its colours and the line afl-fuzz prints for every
    # queue entry it picks (megabytes a run): its setup and its summary.
    sed -i -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' -e '/^\[\*\] Fuzzing test case #/d' "$dir/log"
    # The first saved input, by the time afl-fuzz wrote it (its file's
    # mtime) from the start of the process, as for the other engines.
    first=$(python3 - "$dir/out/default" "$start" <<'PY'
import os, sys
out, start = sys.argv[1], float(sys.argv[2])
files = []
for sub in ("crashes", "hangs"):
    d = os.path.join(out, sub)
    for name in os.listdir(d) if os.path.isdir(d) else []:
        if name.startswith("id:"):
            files.append((os.stat(os.path.join(d, name)).st_mtime, sub, name))
if files:
    mtime, sub, name = min(files)
    if sub == "hangs":
        kind = "hang"
    else:
        sig = [f[4:] for f in name.split(",") if f.startswith("sig:")]
        kind = "crash sig:%s" % sig[0] if sig else "crash"
    print("%.2f\t%s\t%s" % (mtime - start, kind, os.path.join(out, sub, name)))
PY
    )
    if [ -n "$first" ]; then
        IFS=$'\t' read -r time_s kind input <<<"$first"
        found=1
    elif [ "$rc" != 0 ]; then
        kind="afl-fuzz exited $rc"
        echo "bench/realbugs/run.sh: afl-fuzz exited $rc without a crash or hang (see $dir/log)" >&2
    fi
}

extra=()
case "$ENGINE" in
fuzz-run) engine_fuzz_run ;;
fuzz-run:-*)
    IFS=, read -r -a extra <<<"${ENGINE#fuzz-run:}"
    engine_fuzz_run
    ;;
libfuzzer) engine_libfuzzer ;;
aflpp440) engine_aflpp440 ;;
aflpp440-cmplog) engine_aflpp440 cmplog ;;
*) die "unknown engine: $ENGINE (fuzz-run, libfuzzer, aflpp440, aflpp440-cmplog)" ;;
esac

verdict=-
if [ "$found" = 1 ]; then
    verdict=$(CHECK_LOG="$dir/check" "$HERE/check.sh" "$OUT" "$BUG" "$input" || true)
    [ -n "$verdict" ] || verdict=error
fi
load1=$(cut -d' ' -f1 /proc/loadavg)
# The input's path is relative to OUT (a path of this machine is no record).
row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$ENGINE" "$BUG" "$SEED" "$CAP" "$found" \
    "$time_s" "$kind" "$verdict" "${input#"$OUT"/}" "$started" "$commit" "$load0" "$load1" "$MAX_LEN")
# Under a lock on the table: runs of a sitting may end together.
{
    flock 9
    [ -s "$RESULTS" ] || printf "$COLUMNS_TSV\n" >&9
    echo "$row" >&9
} 9>>"$RESULTS"
echo "$row"
