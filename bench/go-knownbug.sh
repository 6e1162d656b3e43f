#!/usr/bin/env bash
# A known bug of an older Go release, timed under three engines, one core
# each: golang/go#40196, archive/tar's parsePAXRecord slicing out of range
# on a PAX record whose length field has more digits than the length it
# gives ("0005 a=b\n"). OSS-Fuzz found it (July 2020); Go 1.16 fixed it.
# Go 1.15.15 still has it.
#
# The old source is Debian bullseye's golang-1.15-src (1.15.15-1~deb11u4:
# Go 1.15.15 and the security patches its changelog lists, none of them in
# archive/tar), fetched from deb.debian.org and checked against its SHA-256.
# Its archive/tar, with its testdata, becomes the package example.com/tarold/tar,
# and the fuzz test bench/go-knownbug/fuzz_test.go (written for this before
# any engine ran on it; why it is not Go's own FuzzReader is said there)
# is the package example.com/tarold beside it. Nothing of Go's is committed;
# everything is made under bench/out/go-knownbug.
#
#   fuzz-run   fuzz-run -fuzz ^FuzzReader$ -parallel 1 -seed SEED
#              -fuzzminimizetime 0s -json . (fuzz-build's library)
#   go-test    go test -fuzz ^FuzzReader$ -parallel 1 -fuzzminimizetime 0s,
#              its test binary built beforehand, a fresh fuzz cache
#              (go test has no seed flag: its three runs differ by chance)
#   libfuzzer  the OSS-Fuzz build (bench/go-libfuzzer.sh) -seed=SEED
#              -timeout=10, from the same seeds (the archives f.Add adds)
#
# Each run stops at its first crash, or at CAP seconds (default 600), none
# minimizes, and the time is one clock for all: the saved input's mtime from
# the engine's start. The crash counts as the bug when its report names
# parsePAXRecord. Results: a line per run appended to
# bench/go-knownbug-runs.tsv (sitting, commit, engine, seed, cap, found,
# seconds, the bug or not, executions as the engine reports them: fuzz-run's
# end event, go test's last count, libFuzzer's "Done N runs"), and the
# medians on stdout.
#
#   bench/go-knownbug.sh                  # CAP=600 SEEDS="1 2 3" JOBS=2
set -euo pipefail
cd "$(dirname "$0")/.."
CAP=${CAP:-600}
SEEDS=${SEEDS:-1 2 3}
JOBS=${JOBS:-2}
ENGINES=${ENGINES:-fuzz-run go-test libfuzzer}
OUT=bench/out/go-knownbug
TSV=$PWD/bench/go-knownbug-runs.tsv
DEB=golang-1.15-src_1.15.15-1~deb11u4_amd64.deb
DEB_SHA256=e580f570f706d801191f9a17e55156736fc5979a6a878bab9304ca007ae29941
DEB_URL=http://deb.debian.org/debian/pool/main/g/golang-1.15/$DEB
. bench/go-libfuzzer.sh
go_bench_tools
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/pkg" "$OUT/runs"
mkdir -p "$OUT/pkg" "$OUT/runs"
export FUZZ_BUILD_CACHE="$OUT/build" GOFLAGS=-mod=mod GOPROXY=off
[ -s "$TSV" ] || printf 'sitting\tcommit\tengine\tseed\tcap\tfound\tsecs\tbug\texecs\n' >"$TSV"
SITTING=$(date -u +%Y-%m-%dT%H:%MZ)
COMMIT=$(git rev-parse --short HEAD)

echo "== the old source ($DEB)" >&2
if ! echo "$DEB_SHA256  $OUT/$DEB" | sha256sum -c --status 2>/dev/null; then
    curl -fsSL -o "$OUT/$DEB" "$DEB_URL"
    echo "$DEB_SHA256  $OUT/$DEB" | sha256sum -c --quiet
fi
rm -rf "$OUT/deb"
dpkg-deb -x "$OUT/$DEB" "$OUT/deb"
old="$OUT/deb/usr/share/go-1.15/src/archive/tar"
pkg="$OUT/pkg/tarold"
mkdir -p "$pkg/tar"
cp "$old"/*.go "$pkg/tar/"
rm "$pkg"/tar/*_test.go
cp -r "$old/testdata" "$pkg/tar/"
printf 'module example.com/tarold\n\ngo 1.19\n' >"$pkg/go.mod"
printf 'package tarold\n' >"$pkg/doc.go"
cp bench/go-knownbug/fuzz_test.go "$pkg/"

echo "== building (fuzz-build's library, go test's and libFuzzer's builds)" >&2
(cd "$pkg" && "$BIN/fuzz-build" >/dev/null)
(cd "$pkg" && GOCACHE="$OUT/gocache" go test -run='^$' -fuzz='^FuzzReader$' -fuzztime=1x \
    -parallel=1 . >/dev/null)
rm -rf "$OUT/gocache/fuzz"
LIBFUZZER_MODULE="example.com/tarold=$pkg" libfuzzer_harness "$pkg/fuzz_test.go" FuzzReader \
    "$OUT/pkg/tarold-libfuzzer" '"bytes"' '"io"' '"example.com/tarold/tar"'
mkdir -p "$OUT/pkg/seeds"
cp "$pkg"/tar/testdata/*.tar "$OUT/pkg/seeds/"

# run ENGINE SEED: one run; writes found, secs and bug (1 when the report
# names parsePAXRecord) to its directory.
run() {
    local engine=$1 seed=$2 at="$OUT/runs/$1-$2" start saved=""
    rm -rf "$at"
    mkdir -p "$at"
    cp -r "$OUT/pkg/tarold" "$at/pkg"
    start=$(date +%s.%N)
    case $engine in
    fuzz-run)
        (cd "$at/pkg" && timeout $((CAP + 120)) "$BIN/fuzz-run" -fuzz '^FuzzReader$' -fuzztime "${CAP}s" \
            -parallel 1 -seed "$seed" -fuzzminimizetime 0s -fuzzcachedir "$at/cache" -json . \
            >"$at/events.jsonl" 2>"$at/log") || true
        saved=$(find "$at/pkg/testdata/fuzz/FuzzReader" -type f 2>/dev/null | head -1)
        cat "$at/events.jsonl" >>"$at/log"
        { grep -o '"event":"end","execs":[0-9]*' "$at/log" | grep -o '[0-9]*$' || echo 0; } >"$at/execs"
        ;;
    go-test)
        cp -r "$OUT/gocache" "$at/gocache"
        (cd "$at/pkg" && GOCACHE="$at/gocache" timeout $((CAP + 120)) go test -run='^$' \
            -fuzz='^FuzzReader$' -fuzztime="${CAP}s" -fuzzminimizetime=0s -parallel=1 . \
            >"$at/log" 2>&1) || true
        saved=$(find "$at/pkg/testdata/fuzz/FuzzReader" -type f 2>/dev/null | head -1)
        { grep -o 'execs: [0-9]*' "$at/log" | tail -1 | grep -o '[0-9]*$' || echo 0; } >"$at/execs"
        ;;
    libfuzzer)
        mkdir -p "$at/corpus" "$at/artifacts"
        cp "$OUT/pkg/seeds/"* "$at/corpus/"
        (cd "$at" && timeout $((CAP + 120)) "$OUT/pkg/tarold-libfuzzer/fuzzer" -seed="$seed" \
            -max_total_time="$CAP" -timeout=10 -rss_limit_mb=2048 -artifact_prefix=artifacts/ \
            corpus >"$at/log" 2>&1) || true
        saved=$(find "$at/artifacts" -type f 2>/dev/null | head -1)
        { grep -o 'Done [0-9]* runs' "$at/log" | grep -o '[0-9]*' || echo 0; } >"$at/execs"
        ;;
    esac
    if [ -n "$saved" ]; then
        echo 1 >"$at/found"
        python3 -c 'import os, sys; print("%.2f" % (os.stat(sys.argv[1]).st_mtime - float(sys.argv[2])))' \
            "$saved" "$start" >"$at/secs"
        if grep -q parsePAXRecord "$at/log"; then echo 1; else echo 0; fi >"$at/bug"
    else
        echo 0 >"$at/found"
        echo "$CAP" >"$at/secs"
        echo - >"$at/bug"
    fi
}

export -f run
export OUT BIN CAP
jobs_file="$OUT/jobs"
: >"$jobs_file"
for seed in $SEEDS; do
    for engine in $ENGINES; do echo "$engine $seed" >>"$jobs_file"; done
done
echo "== $(wc -l <"$jobs_file") runs, ${CAP}s cap, $JOBS at once" >&2
xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _ <"$jobs_file"

while read -r engine seed; do
    at="$OUT/runs/$engine-$seed"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SITTING" "$COMMIT" "$engine" "$seed" "$CAP" \
        "$(cat "$at/found")" "$(cat "$at/secs")" "$(cat "$at/bug")" "$(cat "$at/execs")" >>"$TSV"
done <"$jobs_file"

echo "== seconds to golang/go#40196 (median of the runs, ${CAP}s cap), sitting $SITTING"
python3 - "$TSV" "$SITTING" <<'EOF'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()[1:]]
rows = [r for r in rows if r[0] == sys.argv[2]]
for engine in dict.fromkeys(r[2] for r in rows):
    mine = [r for r in rows if r[2] == engine]
    secs = [float(r[6]) if r[7] == "1" else float(r[4]) for r in mine]
    found = sum(1 for r in mine if r[7] == "1")
    print(f"{engine}: found {found}/{len(mine)}, median {statistics.median(secs):g} s "
          f"({', '.join(r[6] if r[7] == '1' else 'miss' for r in mine)})")
EOF
