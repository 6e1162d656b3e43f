#!/usr/bin/env bash
# The sizes of the inputs an engine added in a sitting's runs: how long the
# entries it found (and went on mutating) were.
#
#   bench/realbugs/sizes.sh OUT RESULTS.tsv
#
# For every fuzz-run row of RESULTS.tsv (engine fuzz-run or fuzz-run:FLAGS)
# whose run directory (OUT/runs/ENGINE/BUG/SEED) is still there, from its
# `new_input` events, and for every libfuzzer row, from the NEW and REDUCE
# lines of its log, prints one TSV line
#   engine bug seed new_inputs median_size p90_size max_size execs reduced
# sizes in bytes as found (each input is a mutant of an entry: shorter
# entries make shorter finds); execs and reduced from fuzz-run's `end`
# event ("-" when the build did not count reductions), from libFuzzer's
# last status line and its REDUCE lines. Commit the output beside the
# sitting's table (results/NAME-sizes.tsv) when quoting from it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
sitting_args bench/realbugs/sizes.sh "$@"
python3 - "$1/runs" "$2" <<'PY'
import json, os, re, statistics, sys
runs, table = sys.argv[1], sys.argv[2]
print("engine\tbug\tseed\tnew_inputs\tmedian_size\tp90_size\tmax_size\texecs\treduced")
seen = set()
for line in open(table):
    f = line.rstrip("\n").split("\t")
    if len(f) < 3 or f[0] == "engine" or not f[0].startswith(("fuzz-run", "libfuzzer")):
        continue
    key = tuple(f[:3])
    if key in seen:
        continue
    if f[0] == "libfuzzer":
        log = os.path.join(runs, *key, "log")
        if not os.path.exists(log):
            continue
        seen.add(key)
        sizes, execs, reduced = [], "-", 0
        for l in open(log, errors="replace"):
            m = re.match(r"#(\d+)\s+(NEW|REDUCE|pulse|DONE)\b", l)
            if not m:
                continue
            execs = m.group(1)
            size = re.search(r" L: (\d+)/", l)
            if m.group(2) == "NEW" and size:
                sizes.append(int(size.group(1)))
            reduced += m.group(2) == "REDUCE"
        if sizes:
            sizes.sort()
            p90 = sizes[int(0.9 * (len(sizes) - 1))]
            print("\t".join(str(x) for x in (*key, len(sizes), statistics.median(sizes), p90,
                                              sizes[-1], execs, reduced)))
        continue
    events = os.path.join(runs, *key, "events.jsonl")
    if not os.path.exists(events):
        continue
    seen.add(key)
    sizes, end = [], {}
    for l in open(events):
        try:
            e = json.loads(l)
        except ValueError:
            continue
        if e.get("event") == "new_input":
            sizes.append(e["size"])
        elif e.get("event") == "end":
            end = e
    if not sizes:
        continue
    sizes.sort()
    p90 = sizes[int(0.9 * (len(sizes) - 1))]
    print("\t".join(str(x) for x in (*key, len(sizes), statistics.median(sizes), p90,
                                      sizes[-1], end.get("execs", "-"), end.get("reduced", "-"))))
PY
