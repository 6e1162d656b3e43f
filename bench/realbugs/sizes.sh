#!/usr/bin/env bash
# The sizes of the inputs fuzz-run added in a sitting's runs, from their
# `new_input` events: how long the entries it found (and went on mutating)
# were.
#
#   bench/realbugs/sizes.sh OUT RESULTS.tsv
#
# For every fuzz-run row of RESULTS.tsv (engine fuzz-run or fuzz-run:FLAGS)
# whose run directory (OUT/runs/ENGINE/BUG/SEED) is still there, prints one
# TSV line
#   engine bug seed new_inputs median_size p90_size max_size execs reduced
# sizes in bytes as found (each input is a mutant of an entry: shorter
# entries make shorter finds); execs and reduced from the `end` event
# ("-" when the build did not count reductions). Commit the output beside
# the sitting's table (results/NAME-sizes.tsv) when quoting from it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
sitting_args bench/realbugs/sizes.sh "$@"
python3 - "$1/runs" "$2" <<'PY'
import json, os, statistics, sys
runs, table = sys.argv[1], sys.argv[2]
print("engine\tbug\tseed\tnew_inputs\tmedian_size\tp90_size\tmax_size\texecs\treduced")
seen = set()
for line in open(table):
    f = line.rstrip("\n").split("\t")
    if len(f) < 3 or f[0] == "engine" or not f[0].startswith("fuzz-run"):
        continue
    key = tuple(f[:3])
    events = os.path.join(runs, *key, "events.jsonl")
    if key in seen or not os.path.exists(events):
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
