#!/usr/bin/env bash
# Executions per second of a sitting's misses, from the runs' own files:
# how hard each engine worked on a bug none of its runs found in the cap.
#
#   bench/realbugs/rates.sh OUT RESULTS.tsv
#
# For every row of RESULTS.tsv with found 0 whose run directory
# (OUT/runs/ENGINE/BUG/SEED) is still there, prints one TSV line
#   engine bug seed execs seconds execs_per_s
# from fuzz-run's `end` event (execs, fuzzed_seconds), libFuzzer's `Done N
# runs in S second(s)` line, or AFL++'s fuzzer_stats (execs_done,
# run_time); a run whose files say neither is left out. Runs that found
# their bug stopped early, and their rates are left out too. Commit the
# output beside the sitting's table (results/NAME-rates.tsv) when quoting
# from it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
sitting_args bench/realbugs/rates.sh "$@"
python3 - "$1/runs" "$2" <<'PY'
import json, os, re, sys
runs, table = sys.argv[1], sys.argv[2]

def fuzz_run(d):
    for line in open(os.path.join(d, "events.jsonl")):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("event") == "end":
            return e["execs"], e["fuzzed_seconds"]
    return None

def libfuzzer(d):
    for line in open(os.path.join(d, "log"), errors="replace"):
        m = re.match(r"Done (\d+) runs in (\d+) second", line)
        if m:
            return int(m.group(1)), float(m.group(2))
    return None

def aflpp(d):
    stats = {}
    for line in open(os.path.join(d, "out", "default", "fuzzer_stats")):
        key, _, value = line.partition(":")
        stats[key.strip()] = value.strip()
    return int(stats["execs_done"]), float(stats["run_time"])

readers = {"fuzz-run": fuzz_run, "libfuzzer": libfuzzer, "aflpp440": aflpp, "aflpp440-cmplog": aflpp}
print("engine\tbug\tseed\texecs\tseconds\texecs_per_s")
for line in open(table):
    f = line.rstrip("\n").split("\t")
    # fuzz-run:FLAGS (run.sh's ablations) reads as fuzz-run.
    reader = readers.get(f[0].split(":")[0]) if len(f) >= 5 else None
    if reader is None or f[0] == "engine" or f[4] != "0":
        continue
    d = os.path.join(runs, f[0], f[1], f[2])
    try:
        got = reader(d)
    except (OSError, KeyError, ValueError):
        got = None
    if got and got[1] > 0:
        execs, secs = got
        print("%s\t%s\t%s\t%d\t%.0f\t%.0f" % (f[0], f[1], f[2], execs, secs, execs / secs))
PY
