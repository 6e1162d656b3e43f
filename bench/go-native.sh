#!/usr/bin/env bash
# Go's own fuzz tests under fuzz-run and under go test -fuzz, side by side,
# one core each (-parallel 1), in one sitting:
#
#  1. execs/s: three fuzz tests of Go 1.19's standard library, copied into
#     packages of their own as a user would copy them (package clause and a
#     dot import changed, nothing else): encoding/json FuzzUnmarshalJSON,
#     net/netip FuzzParse (already an external test package), and
#     compress/gzip FuzzReader (with its testdata). Each engine starts from
#     the same seeds (the f.Add values, no cache) and runs SECS seconds,
#     RUNS times; execs/s is the executions it reports over SECS.
#  2. seconds to each planted bug of examples/go (its --- FAIL line's time,
#     as each engine reports it), CAP seconds at most, RUNS times.
#  3. where one execution's time goes under fuzz-run: perf samples of
#     fuzz-worker bench on a fuzz test whose function does nothing (the
#     cost around every input: cgo and the coroutine, testing's set-up of a
#     *testing.T, the harness, the worker), and on each target's first
#     seed. Needs perf (Debian: linux-perf); skipped with a note without it.
#
# The packages are made under bench/out/go-native from $(go env GOROOT)/src
# (nothing of Go's is committed). Results: a line per run in
# bench/out/go-native/runs.tsv (appended to), the summary on stdout.
#
#   bench/go-native.sh                 # SECS=60 RUNS=3 CAP=60
#   SECS=20 RUNS=1 bench/go-native.sh  # a quick look
#   PARTS=perf bench/go-native.sh      # only some parts: execs, bugs, perf
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${SECS:-60}
RUNS=${RUNS:-3}
CAP=${CAP:-60}
OUT=bench/out/go-native
command -v go >/dev/null || { echo "go-native.sh: needs go (apt-get install golang-go)" >&2; exit 2; }
case "$(go env GOVERSION)" in go1.19*) ;; *)
    echo "go-native.sh: needs Go 1.19 (fuzz-build's harness); this is $(go env GOVERSION)" >&2; exit 2 ;;
esac
cargo build --release -q
BIN=$PWD/target/release
GOROOT_SRC=$(go env GOROOT)/src
rm -rf "$OUT/pkg"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export FUZZ_BUILD_CACHE="$OUT/build"
RUNS_TSV="$OUT/runs.tsv"
[ -s "$RUNS_TSV" ] || printf 'sitting\tcommit\tkind\ttarget\tengine\trun\tvalue\tunit\n' >"$RUNS_TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(git rev-parse --short HEAD)
record() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$@" >>"$RUNS_TSV"; }

# package NAME MODULE_NAME SRC_DIR SRC_FILE OLD_CLAUSE NEW_CLAUSE [DOT_IMPORT]
package() {
    local name=$1 src=$2 file=$3 old=$4 new=$5 dot=${6:-}
    local dir="$OUT/pkg/$name"
    mkdir -p "$dir"
    printf 'module example.com/%s\n\ngo 1.19\n' "$name" >"$dir/go.mod"
    printf 'package %s\n' "$name" >"$dir/doc.go"
    if [ -n "$dot" ]; then
        sed -e "s|^package $old\$|package $new|" -e "s|^import (|import (\n\t. \"$dot\"|" \
            "$GOROOT_SRC/$src/$file" >"$dir/$file"
    else
        sed -e "s|^package $old\$|package $new|" "$GOROOT_SRC/$src/$file" >"$dir/$file"
    fi
    if [ -d "$GOROOT_SRC/$src/testdata" ]; then
        cp -r "$GOROOT_SRC/$src/testdata" "$dir/"
    fi
    # A fuzz test whose function does nothing: the cost around an input.
    printf 'package %s\n\nimport "testing"\n\nfunc FuzzNop(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) {})\n}\n' \
        "$name" >"$dir/nop_test.go"
    echo "$dir"
}
JSON=$(package jsonfuzz encoding/json fuzz_test.go json jsonfuzz encoding/json)
NETIP=$(package netipfuzz net/netip fuzz_test.go netip_test netipfuzz_test)
GZIP=$(package gzipfuzz compress/gzip fuzz_test.go gzip gzipfuzz compress/gzip)
for dir in "$JSON" "$NETIP" "$GZIP"; do
    (cd "$dir" && go vet . >/dev/null && "$BIN/fuzz-build" >/dev/null)
    # go test -fuzz's own instrumented build, so that no run pays for it.
    (cd "$dir" && go test -c -o /dev/null . >/dev/null)
done

# go's executions in a run: the last progress line's count.
go_execs() { grep -o 'execs: [0-9]*' "$1" | tail -1 | grep -o '[0-9]*$' || echo 0; }
ours_execs() { grep -o 'done: elapsed [^,]*, execs [0-9]*' "$1" | grep -o '[0-9]*$' || echo 0; }

PARTS=${PARTS:-execs bugs perf}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

if part execs; then
echo "== execs/s, ${SECS}s x $RUNS, -parallel 1 (go test -fuzz, then fuzz-run)"
for spec in "$JSON FuzzUnmarshalJSON" "$NETIP FuzzParse" "$GZIP FuzzReader"; do
    set -- $spec
    dir=$1 target=$2
    for run in $(seq 1 "$RUNS"); do
        log="$OUT/go-$target-$run.log"
        (cd "$dir" && go clean -fuzzcache && go test -run='^$' -fuzz="^$target\$" \
            -fuzztime="${SECS}s" -parallel=1 . >"$log" 2>&1) || true
        g=$(go_execs "$log")
        record execs "$target" go-test "$run" "$((g / SECS))" execs/s
        log="$OUT/ours-$target-$run.log"
        rm -rf "$OUT/cache"
        (cd "$dir" && FUZZCACHE="$OUT/cache" "$BIN/fuzz-run" -fuzz "^$target\$" \
            -fuzztime "${SECS}s" -parallel 1 . >"$log" 2>&1) || true
        o=$(ours_execs "$log")
        record execs "$target" fuzz-run "$run" "$((o / SECS))" execs/s
        printf '%-18s run %s: go test %8d execs/s, fuzz-run %8d execs/s (x%s)\n' "$target" "$run" \
            "$((g / SECS))" "$((o / SECS))" "$(awk -v a="$o" -v b="$g" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
    done
done

fi

if part bugs; then
echo "== seconds to each planted bug of examples/go, ${CAP}s cap, -parallel 1"
# The --- FAIL: T (Ns) line each engine prints, or "-" when not found.
fail_secs() {
    local line
    line=$(grep -m1 -E "^--- FAIL: $2 \([0-9.]+s\)" "$1" || true)
    if [ -z "$line" ]; then echo -; else echo "$line" | grep -oE '[0-9.]+s\)' | tr -d 's)'; fi
}
for target in FuzzScale FuzzQuote FuzzParseRecord; do
    for run in $(seq 1 "$RUNS"); do
        for engine in go-test fuzz-run; do
            dir="$OUT/bugs-$engine-$target-$run"
            rm -rf "$dir"
            cp -r examples/go "$dir"
            rm -rf "$dir/testdata"
            log="$OUT/bug-$engine-$target-$run.log"
            if [ "$engine" = go-test ]; then
                (cd "$dir" && go clean -fuzzcache && go test -run='^$' -fuzz="^$target\$" \
                    -fuzztime="${CAP}s" -parallel=1 . >"$log" 2>&1) || true
            else
                rm -rf "$OUT/cache"
                (cd "$dir" && FUZZCACHE="$OUT/cache" "$BIN/fuzz-run" -fuzz "^$target\$" \
                    -fuzztime "${CAP}s" -parallel 1 . >"$log" 2>&1) || true
            fi
            s=$(fail_secs "$log" "$target")
            record bug-seconds "$target" "$engine" "$run" "$s" s
            printf '%-16s run %s %-8s %s s\n' "$target" "$run" "$engine" "$s"
        done
    done
done

fi

part perf || exit 0
echo "== where an execution's time goes (perf, fuzz-worker bench)"
if ! command -v perf >/dev/null || ! perf record -o /dev/null true >/dev/null 2>&1; then
    echo "(no perf here: apt-get install linux-perf)"
    exit 0
fi
# Where the samples fall. Inclusive shares (a frame and what it calls) of:
# the fuzz function itself (the f.Fuzz closure), testing's report of each
# input (fmtDuration: the time formatted with fmt, instrumented), its
# runtime.Callers (run's and tRunner's), the goroutine stack growing
# (morestack: testing's goroutine per input starts small); self samples of
# the worker (fuzz-worker's code: counters, the packing, the comparison
# tables) and of the cgo calls and the coroutine switch. What is left is
# the rest of testing's set-up of a *testing.T and the goroutine it runs
# the input on (allocation, scheduling, reflect's call).
categorize() {
    local data=$1 closure=$2
    {
        perf report -i "$data" --children --sort sym --stdio 2>/dev/null |
            awk -v closure="$closure" '
            /^ *[0-9.]+%/ {
                incl = $1 + 0; sym = $0; sub(/^[^]]*\] /, "", sym); sub(/ *$/, "", sym)
                if (sym == closure) a["fuzz function"] += incl
                else if (sym == "testing.fmtDuration") a["report (fmtDuration)"] += incl
                else if (sym == "runtime.Callers") a["runtime.Callers"] += incl
                else if (sym == "runtime.morestack.abi0") a["stack growth"] += incl
            }
            END { for (k in a) printf "%s\t%.1f\n", k, a[k] }'
        perf report -i "$data" --no-children --sort dso,sym --stdio 2>/dev/null | awk '
            /^ *[0-9.]+%/ {
                pct = $1 + 0; dso = $2; sym = $0; sub(/^[^]]*\] /, "", sym)
                if (sym ~ /corosensei|golib::|cgocall|cgocallback|asmcgocall|exitsyscall|entersyscall|fuzz_go_|_cgo/) b["cgo+coroutine"] += pct
                else if (dso == "fuzz-worker") b["worker"] += pct
            }
            END { for (k in b) printf "%s\t%.1f\n", k, b[k] }'
    } | awk -F'\t' '{ v[$1] = $2; sum += $2 } END {
        for (k in v) printf "    %-22s %5.1f%%\n", k, v[k]
        printf "    %-22s %5.1f%%\n", "the rest of testing", 100 - sum }' | sort -k2 -t'%' 
}
for spec in "$JSON FuzzNop jsonfuzz" "$JSON FuzzUnmarshalJSON jsonfuzz" \
    "$NETIP FuzzParse netipfuzz_test" "$GZIP FuzzReader gzipfuzz"; do
    set -- $spec
    dir=$1 target=$2
    closure="example.com/$3.$target.func1"
    lib=$(cd "$dir" && "$BIN/fuzz-build")
    input=()
    if [ "$target" != FuzzNop ]; then
        (cd "$dir" && "$BIN/fuzz-worker" list -json "$lib") | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    if t['name'] == '$target':
        sys.stdout.write(t['go']['seeds'][0])" >"$OUT/seed-$target"
        input=("$OUT/seed-$target")
    fi
    line=$(cd "$dir" && perf record -q -g -o "$OUT/perf-$target.data" -- \
        "$BIN/fuzz-worker" bench -target "$target" -n 200000 "$lib" "${input[@]}" 2>/dev/null)
    echo "$target (seed #0): $line"
    record exec-ns "$target" fuzz-run 1 "$(echo "$line" | grep -o '[0-9]* ns/exec' | grep -o '[0-9]*')" ns
    categorize "$OUT/perf-$target.data" "$closure"
done
