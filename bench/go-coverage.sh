#!/usr/bin/env bash
# Go's own fuzz tests under three engines, one core each, with one meter:
#
#   fuzz-run   fuzz-run -fuzz ^FuzzX$ -parallel 1 . in the package (fuzz-build's library)
#   go-test    go test -fuzz ^FuzzX$ -parallel 1
#   libfuzzer  the way OSS-Fuzz fuzzes Go: the package built as a c-archive with
#              Go's libFuzzer instrumentation (-tags=libfuzzer -gcflags=all=-d=libfuzzer,
#              leaving out the packages go test -fuzz leaves out), a bytes-only
#              LLVMFuzzerTestOneInput that runs the fuzz test's own f.Fuzz body (copied
#              from Go's source, t.Fatalf a panic), linked with clang -fsanitize=fuzzer;
#              seeded with the fuzz test's f.Add values
#
# Each engine starts from the same seeds (the f.Add values) and fuzzes SECS
# seconds, RUNS times. The meter is Go's own: each run's corpus (the
# generated entries, and any crasher) copied as v1 files into a fresh copy
# of the package's testdata/fuzz/FuzzX/, then
#   go test -run=^FuzzX$ -coverpkg=<the package under test> -coverprofile
# and the statements with a count above zero are counted.
#
# The fuzz tests are Go 1.19's, copied into packages of their own as a user
# would copy them (package clause changed, a dot import of the package
# under test added): encoding/json FuzzUnmarshalJSON, compress/gzip
# FuzzReader (with its testdata), image/png FuzzDecode. Nothing of Go's is
# committed; everything is made under bench/out/go-coverage. Two runs go at
# once (JOBS), each on one core; go test -fuzz runs of one package take
# turns (one build cache each, its fuzz cache emptied before a run).
#
# Results: a line per run appended to bench/go-coverage-runs.tsv (sitting,
# commit, target, engine, run, statements covered, statements in all,
# executions reported, load), and the medians on stdout. commit is the
# checked-out commit the engine was built from (+dirty if the tree had
# changes); load is the machine's 5-minute load average as the run ended
# ("-" in rows from before the column was added).
#
#   bench/go-coverage.sh                  # SECS=600 RUNS=3 JOBS=2 PACKAGES="json gzip png"
#   SECS=20 RUNS=1 bench/go-coverage.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${SECS:-600}
RUNS=${RUNS:-3}
JOBS=${JOBS:-2}
ENGINES=${ENGINES:-fuzz-run go-test libfuzzer}
OUT=bench/out/go-coverage
TSV=$PWD/bench/go-coverage-runs.tsv
. bench/go-libfuzzer.sh
go_bench_tools
GOROOT_SRC=$(go env GOROOT)/src
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/pkg" "$OUT/runs" "$OUT/meter"
mkdir -p "$OUT/pkg" "$OUT/runs" "$OUT/meter"
export FUZZ_BUILD_CACHE="$OUT/build" GOFLAGS=-mod=mod GOPROXY=off
[ -s "$TSV" ] || printf 'sitting\tcommit\ttarget\tengine\trun\tsecs\tcovered\tstatements\texecs\tload\n' >"$TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +dirty)

# package NAME SRC_DIR OLD_CLAUSE IMPORT_PATH: Go's fuzz_test.go of SRC_DIR
# in a module of its own, with a dot import of the package under test.
package() {
    local name=$1 src=$2 old=$3 path=$4
    local dir="$OUT/pkg/$name"
    mkdir -p "$dir"
    printf 'module example.com/%s\n\ngo 1.19\n' "$name" >"$dir/go.mod"
    printf 'package %s\n' "$name" >"$dir/doc.go"
    sed -e "s|^package $old\$|package $name|" -e "s|^import (|import (\n\t. \"$path\"|" \
        "$GOROOT_SRC/$src/fuzz_test.go" >"$dir/fuzz_test.go"
    if [ -d "$GOROOT_SRC/$src/testdata" ]; then
        cp -r "$GOROOT_SRC/$src/testdata" "$dir/"
    fi
    (cd "$dir" && gofmt -w fuzz_test.go && go vet . >/dev/null)
}

# harness NAME TARGET IMPORTS...: the libFuzzer build of TARGET's f.Fuzz body.
harness() {
    local name=$1 target=$2
    shift 2
    libfuzzer_harness "$OUT/pkg/$name/fuzz_test.go" "$target" "$OUT/pkg/$name-libfuzzer" "$@"
}

echo "== building (packages, fuzz-build's libraries, go test's and libFuzzer's builds)" >&2
# The packages: name, its fuzz test, the package under test, the harness's imports.
declare -A WANT
for p in ${PACKAGES:-json gzip png}; do
    case $p in json | gzip | png) WANT[$p]=1 ;; *)
        echo "go-coverage.sh: PACKAGES: no package $p (json, gzip, png)" >&2; exit 2 ;;
    esac
done
SPECS=""
if [ -n "${WANT[json]:-}" ]; then
    package jsonfuzz encoding/json json encoding/json
    harness jsonfuzz FuzzUnmarshalJSON '. "encoding/json"'
    SPECS+=" jsonfuzz:FuzzUnmarshalJSON:encoding/json"
fi
if [ -n "${WANT[gzip]:-}" ]; then
    package gzipfuzz compress/gzip gzip compress/gzip
    harness gzipfuzz FuzzReader '"bytes"' '"io"' '. "compress/gzip"'
    SPECS+=" gzipfuzz:FuzzReader:compress/gzip"
fi
if [ -n "${WANT[png]:-}" ]; then
    package pngfuzz image/png png image/png
    # FuzzDecode reads image/'s shared testdata (../testdata): copied along,
    # under the package, as a user copying the test would.
    cp -r "$GOROOT_SRC/image/testdata" "$OUT/pkg/pngfuzz/testdata/image"
    sed -i 's|"\.\./testdata"|"testdata/image"|' "$OUT/pkg/pngfuzz/fuzz_test.go"
    harness pngfuzz FuzzDecode '"bytes"' '"image"' '. "image/png"'
    SPECS+=" pngfuzz:FuzzDecode:image/png"
fi
for spec in $SPECS; do
    IFS=: read -r name target _ <<<"$spec"
    dir="$OUT/pkg/$name"
    (cd "$dir" && "$BIN/fuzz-build" >/dev/null)
    # go test -fuzz's instrumented build, once per package's own cache.
    (cd "$dir" && GOCACHE="$OUT/gocache-$name" go test -run='^$' -fuzz="^$target\$" \
        -fuzztime=1x -parallel=1 . >/dev/null)
    # The f.Add seeds as raw files, for libFuzzer.
    seeds="$OUT/pkg/$name-libfuzzer/seeds"
    rm -rf "$seeds" "$seeds-v1"
    mkdir -p "$seeds" "$seeds-v1"
    (cd "$dir" && "$BIN/fuzz-worker" list -json "$("$BIN/fuzz-build")") | python3 -c '
import json, sys
out, target = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    t = json.loads(line)
    if t["name"] == target:
        for i, s in enumerate(t.get("go", {}).get("seeds", [])):
            open(f"{out}/seed{i}", "w").write(s)
' "$seeds-v1" "$target"
    "$BIN/fuzz-convert" export -o "$seeds" "$seeds-v1" >/dev/null
done

# run ENGINE NAME TARGET RUN: one fuzzing run; its corpus ends up as v1
# files in $OUT/runs/ENGINE-TARGET-RUN/corpus, its executions in .../execs.
run() {
    local engine=$1 name=$2 target=$3 n=$4
    local dir="$OUT/pkg/$name" at="$OUT/runs/$engine-$target-$n"
    rm -rf "$at"
    mkdir -p "$at/corpus"
    case $engine in
    fuzz-run)
        cp -r "$dir" "$at/pkg"
        (cd "$at/pkg" && FUZZCACHE="$at/cache" "$BIN/fuzz-run" -fuzz "^$target\$" \
            -fuzztime "${SECS}s" -parallel 1 . >"$at/log" 2>&1) || true
        find "$at/cache" "$at/pkg/testdata/fuzz/$target" -type f -path "*/$target/*" \
            -exec cp {} "$at/corpus/" \; 2>/dev/null || true
        grep -o 'done: elapsed [^,]*, execs [0-9]*' "$at/log" | grep -o '[0-9]*$' >"$at/execs" || echo 0 >"$at/execs"
        ;;
    go-test)
        cp -r "$dir" "$at/pkg"
        (
            flock 9
            rm -rf "$OUT/gocache-$name/fuzz"
            (cd "$at/pkg" && GOCACHE="$OUT/gocache-$name" go test -run='^$' -fuzz="^$target\$" \
                -fuzztime="${SECS}s" -parallel=1 . >"$at/log" 2>&1) || true
            cp "$OUT/gocache-$name/fuzz/example.com/$name/$target/"* "$at/corpus/" 2>/dev/null || true
        ) 9>"$OUT/lock-$name"
        cp "$at/pkg/testdata/fuzz/$target/"* "$at/corpus/" 2>/dev/null || true
        { grep -o 'execs: [0-9]*' "$at/log" | tail -1 | grep -o '[0-9]*$' || echo 0; } >"$at/execs"
        ;;
    libfuzzer)
        local lf="$OUT/pkg/$name-libfuzzer"
        mkdir -p "$at/raw" "$at/artifacts"
        cp "$lf/seeds/"* "$at/raw/"
        "$lf/fuzzer" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$at/artifacts/" "$at/raw" >"$at/log" 2>&1 || true
        "$BIN/fuzz-convert" import -target "$target" -testdata "$at/v1" "$at/raw" "$at/artifacts" \
            >/dev/null 2>&1 || true
        cp "$at/v1/fuzz/$target/"* "$at/corpus/" 2>/dev/null || true
        { grep -o 'stat::number_of_executed_units: *[0-9]*' "$at/log" | grep -o '[0-9]*$' || echo 0; } >"$at/execs"
        ;;
    esac
    cut -d' ' -f2 /proc/loadavg >"$at/load"
}

# meter NAME TARGET COVERPKG CORPUS: "covered statements" of COVERPKG when go
# test replays CORPUS (v1 files) as TARGET's testdata, with the seeds.
meter() {
    local name=$1 target=$2 coverpkg=$3 corpus=$4
    local m
    m=$(mktemp -d "$OUT/meter/m.XXXXXX")
    cp -r "$OUT/pkg/$name" "$m/pkg"
    mkdir -p "$m/pkg/testdata/fuzz/$target"
    cp "$corpus/"* "$m/pkg/testdata/fuzz/$target/" 2>/dev/null || true
    (cd "$m/pkg" && GOCACHE="$OUT/gocache-meter" go test -run="^$target\$" -coverpkg="$coverpkg" \
        -coverprofile="$m/cover.out" . >"$m/log" 2>&1) || true
    python3 - "$m/cover.out" <<'EOF'
import sys
blocks = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    place, stmts, count = line.rsplit(" ", 2)
    old = blocks.get(place, (int(stmts), 0))
    blocks[place] = (int(stmts), max(old[1], int(count)))
print(sum(s for s, c in blocks.values() if c > 0), sum(s for s, _ in blocks.values()))
EOF
    rm -rf "$m"
}

export -f run
export OUT BIN SECS
jobs_file="$OUT/jobs"
: >"$jobs_file"
for n in $(seq 1 "$RUNS"); do
    for spec in $SPECS; do
        IFS=: read -r name target _ <<<"$spec"
        for engine in $ENGINES; do echo "$engine $name $target $n" >>"$jobs_file"; done
    done
done
echo "== $(wc -l <"$jobs_file") runs of ${SECS}s, $JOBS at once" >&2
xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _ <"$jobs_file"

for n in $(seq 1 "$RUNS"); do
    for spec in $SPECS; do
        IFS=: read -r name target coverpkg <<<"$spec"
        for engine in $ENGINES; do
            at="$OUT/runs/$engine-$target-$n"
            read -r covered total < <(meter "$name" "$target" "$coverpkg" "$at/corpus")
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$target" "$engine" \
                "$n" "$SECS" "$covered" "$total" "$(cat "$at/execs")" "$(cat "$at/load")" >>"$TSV"
        done
    done
done

echo "== statements covered (median of $RUNS, ${SECS}s, one core each), sitting $SITTING"
python3 - "$TSV" "$SITTING" <<'EOF'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()[1:]]
rows = [r for r in rows if r[0] == sys.argv[2]]
for target in dict.fromkeys(r[2] for r in rows):
    line = [target]
    for engine in dict.fromkeys(r[3] for r in rows):
        cov = [int(r[6]) for r in rows if r[2] == target and r[3] == engine]
        ex = [int(r[8]) for r in rows if r[2] == target and r[3] == engine]
        tot = [int(r[7]) for r in rows if r[2] == target and r[3] == engine][0]
        line.append(f"{engine} {statistics.median(cov):g}/{tot} ({min(cov)}-{max(cov)}), "
                    f"{statistics.median(ex) / float(rows[0][5]):.0f} execs/s")
    print("; ".join(line))
EOF
