#!/usr/bin/env python3
"""Issue 41's table: fuzz-run against the best peer of each library, one
sitting each.

    lead.py CAMPAIGN_DIR...

Each CAMPAIGN_DIR holds a runs.tsv that bench/suite.sh full wrote (for
instance bench/suite/campaign-2026-12-02-lua). For every (campaign, target)
with fuzz-run's default runs, the peers of the same campaign are set beside
it: the best peer is the one with the highest median edges, and the row
gives fuzz-run's median over it with the Mann-Whitney U and two-sided p
of fuzz-run's runs against that peer's. A comparison never crosses
campaigns: each is one sitting on one machine state. The peers the goal
names (libFuzzer, AFL++ 4.40c plain and CmpLog) that a campaign lacks are
listed, since the best of a set with one missing may not be the best.

Last, the median over the libraries of the ratio, taking for a library the
campaign named last on the command line that has it.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import TARGET_ORDER, against_best, cell, order  # noqa: E402

OURS = "fuzz-run"
# The peers of issue 41's goal, and their names in the table.
PEERS = {
    "libfuzzer": "libFuzzer",
    "aflpp440": "AFL++ 4.40c",
    "aflpp440-cmplog": "AFL++ 4.40c CmpLog",
}


def runs_of(path):
    """{(target, engine): [edges, ...]} of a campaign's full-mode rows."""
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row.get("mode") != "full":
                continue
            try:
                edges = float(row["edges"])
            except (KeyError, ValueError):
                continue
            out.setdefault((row["target"], row["engine"]), []).append(edges)
    return out


def main():
    dirs = sys.argv[1:]
    if not dirs:
        sys.exit("usage: lead.py CAMPAIGN_DIR...")
    for d in dirs:
        if not os.path.isfile(os.path.join(d, "runs.tsv")):
            sys.exit(f"lead.py: {os.path.join(d, 'runs.tsv')}: no such file (a campaign directory holds runs.tsv)")
    print("| library | campaign | fuzz-run | best peer | × | U | p | verdict | peers not run |")
    print("|---|---|---|---|---:|---:|---:|---|---|")
    latest = {}
    for d in dirs:
        runs = runs_of(os.path.join(d, "runs.tsv"))
        name = os.path.basename(os.path.normpath(d))
        targets = sorted({t for t, e in runs if e == OURS}, key=lambda t: order(t, TARGET_ORDER))
        for target in targets:
            ours = runs[(target, OURS)]
            peers = {e: v for (t, e), v in runs.items() if t == target and e in PEERS}
            missing = ", ".join(PEERS[e] for e in PEERS if e not in peers) or "none"
            found = against_best(ours, peers)
            if found is None:
                print(f"| {target} | {name} | {cell(ours)} | none | | | | | {missing} |")
                continue
            best, ratio, u, p, verdict = found
            cells = [
                target, name, cell(ours), f"{PEERS[best]} {cell(peers[best])}",
                f"{ratio:.3f}", f"{u:g} of {len(ours) * len(peers[best])}", f"{p:.3f}", verdict, missing,
            ]
            print("| " + " | ".join(cells) + " |")
            latest[target] = ratio
    if latest:
        print()
        shown = ", ".join(f"{t} ×{r:.3f}" for t, r in sorted(latest.items(), key=lambda kv: order(kv[0], TARGET_ORDER)))
        print(f"Median over {len(latest)} libraries (each its campaign named last): "
              f"×{statistics.median(latest.values()):.3f} ({shown})")


if __name__ == "__main__":
    main()
