#!/usr/bin/env bash
# The real-bug table from run.sh's results: per bug and engine, how many
# runs found the documented bug and the median time, a miss counting as
# the cap (an input the checker did not call documented is a miss too, and
# so is one saved after the cap: an engine's last input may run past it).
#
#   bench/realbugs/report.sh OUT [RESULTS.tsv]
#
# Reads OUT/results.tsv (or the file given); when a (engine, bug, seed) was
# run more than once, the last row counts. Prints a Markdown table, bugs in
# bugs.tsv's order, engines in the order they first appear, after a line
# that says where it comes from: the rows' first and last start, their
# commits, caps, input limits and the range of their load averages (for
# tables with those columns, 2026-11-29 on). With BASE=ENGINE, a second
# table sets every other engine's times against BASE's, bug by bug, over
# the seeds both ran: the Mann-Whitney U of BASE's times against the
# other's (a miss counting as the cap, so a lower time is a better run)
# and its two-sided p (bench/suite/report.py's test).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || {
    echo "usage: bench/realbugs/report.sh OUT [RESULTS.tsv]" >&2
    exit 2
}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/set.sh"
results=${2:-$1/results.tsv}
[ -f "$results" ] || {
    echo "bench/realbugs/report.sh: no results in $results" >&2
    exit 2
}
python3 - "$SETDIR/bugs.tsv" "$results" "$HERE/../suite" "${BASE:-}" <<'PY'
import statistics, sys
order = [l.split("\t")[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
last = {}
engines = []
started, commits, caps, lens, loads = [], set(), set(), set(), []
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 9 or f[0] == "engine":
        continue
    engine, bug, seed, cap, found, time_s, _kind, verdict, _input = f[:9]
    caps.add(cap)
    if len(f) >= 13:
        started.append(f[9])
        commits.add(f[10])
        loads += [float(x) for x in f[11:13] if x.replace(".", "", 1).isdigit()]
    lens.add(f[13] if len(f) >= 14 else "not recorded")
    if engine not in engines:
        engines.append(engine)
    # a find saved after the cap (a 10 s hang begun before it) is a miss
    hit = found == "1" and verdict == "documented" and float(time_s) <= float(cap)
    last[(engine, bug, seed)] = (hit, float(time_s) if hit else float(cap))
if started:
    print("Runs started %s to %s; commit %s; cap %s s; input limit %s bytes; load %.2f to %.2f.\n" % (
        min(started), max(started), ", ".join(sorted(commits)), ", ".join(sorted(caps)),
        ", ".join(sorted(lens)), min(loads), max(loads)))
print("| bug | " + " | ".join(engines) + " |")
print("|---|" + "---:|" * len(engines))
for bug in order + sorted({b for (_, b, _) in last} - set(order)):
    cells = []
    for engine in engines:
        runs = [v for (e, b, _), v in last.items() if e == engine and b == bug]
        if not runs:
            cells.append("")
            continue
        k = sum(1 for hit, _ in runs if hit)
        cells.append("%d/%d, %.1f s" % (k, len(runs), statistics.median(t for _, t in runs)))
    if any(cells):
        print("| `%s` | %s |" % (bug, " | ".join(cells)))
base = sys.argv[4]
if base:
    if base not in engines:
        sys.exit("bench/realbugs/report.sh: BASE=%s ran no row of this table" % base)
    sys.path.insert(0, sys.argv[3])
    from report import mann_whitney
    others = [e for e in engines if e != base]
    print("\n%s against each engine, seed by seed where both ran: median seconds (a miss is the cap), "
          "Mann-Whitney U of %s's times against the other's and its two-sided p; a U below the "
          "half of n x n means %s was faster.\n" % (base, base, base))
    print("| bug | " + " | ".join(others) + " |")
    print("|---|" + "---|" * len(others))
    for bug in order + sorted({b for (_, b, _) in last} - set(order)):
        cells = []
        for engine in others:
            seeds = sorted({s for (e, b, s) in last if e == engine and b == bug} &
                           {s for (e, b, s) in last if e == base and b == bug}, key=int)
            if not seeds:
                cells.append("")
                continue
            a = [last[(base, bug, s)][1] for s in seeds]
            o = [last[(engine, bug, s)][1] for s in seeds]
            u, p = mann_whitney(a, o)
            cells.append("%d seeds: %.1f against %.1f s, U = %g, p = %.3f" % (
                len(seeds), statistics.median(a), statistics.median(o), u, p))
        if any(cells):
            print("| `%s` | %s |" % (bug, " | ".join(cells)))
PY
