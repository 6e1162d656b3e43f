#!/usr/bin/env python3
"""How each engine scales to a second CPU, from a bench/suite.sh sitting that
ran an engine on one CPU beside its two-CPU form: fuzz-run beside
fuzz-run-sync2 (two instances sharing a -sync directory) and
fuzz-run-parallel2 (one instance, two workers); libfuzzer beside
libfuzzer-jobs2 (-jobs=2 -workers=2); aflpp440 beside aflpp440-ms2 (-M and
-S).

    scaling.py TIMELINE.tsv SECS

TIMELINE.tsv: the suite's selection (target, engine, run, seconds, edges;
header first). For each target and each one-CPU engine that has a two-CPU
form in the sitting: the median edges the one-CPU engine has at SECS, then
for each two-CPU form the time its runs took to reach that (linearly
between samples; a run that never did counts as SECS) as a fraction of
SECS (the goal: at most 0.56, that is 0.9 of linear per added core), and
its own median edges at SECS (for two instances, the union of their
corpora). Writes a Markdown table to standard output.

A two-CPU engine may be relabelled ENGINE@LABEL in the timeline (another
build's runs of ENGINE, from another sitting, set beside this sitting's
one-CPU runs): it is a form of ENGINE, reported under its own label.
"""
import collections
import statistics
import sys

# One-CPU engine -> its two-CPU forms.
WIDE = {
    "fuzz-run": ["fuzz-run-sync2", "fuzz-run-parallel2", "fuzz-run-parallel2-vary",
                 "fuzz-run-parallel2-text"],
    "libfuzzer": ["libfuzzer-jobs2"],
    "aflpp440": ["aflpp440-ms2"],
}


def time_to(samples, goal, secs):
    """First time the (seconds, edges) samples reach goal, interpolated."""
    prev = (0.0, 0.0)
    for t, e in sorted(samples):
        if e >= goal:
            t0, e0 = prev
            if e == e0:
                return t
            return t0 + (t - t0) * (goal - e0) / (e - e0)
        prev = (t, e)
    return float(secs)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scaling.py TIMELINE.tsv SECS")
    secs = float(sys.argv[2])
    runs = collections.defaultdict(list)  # (target, engine, run) -> samples
    with open(sys.argv[1]) as f:
        next(f)
        for line in f:
            t, e, r, s, edges = line.rstrip("\n").split("\t")
            if edges:
                runs[(t, e, r)].append((float(s), float(edges)))
    targets = sorted({t for t, _, _ in runs})
    print("| target | engine | runs | time to its 1-CPU edges at "
          f"{secs:.0f} s (fraction) | edges at {secs:.0f} s |")
    print("|---|---|---:|---|---:|")
    for t in targets:
        for base, wides in WIDE.items():
            single = [max(s)[1] for (tt, e, _), s in runs.items()
                      if tt == t and e == base and max(s)[0] >= secs]
            present = sorted({e for tt, e, _ in runs
                              if tt == t and e.split("@")[0] in wides},
                             key=lambda e: (wides.index(e.split("@")[0]), e))
            if not single or not present:
                continue
            goal = statistics.median(single)
            print(f"| {t} | {base} (1 CPU) | {len(single)} | – | {goal:,.0f} |")
            for w in present:
                mine = [s for (tt, e, _), s in runs.items() if tt == t and e == w]
                fr = sorted(time_to(s, goal, secs) / secs for s in mine)
                ends = [max(s)[1] for s in mine]
                cell = f"{statistics.median(fr):.2f}"
                if len(fr) > 1:
                    cell += f" ({fr[0]:.2f}–{fr[-1]:.2f})"
                print(f"| {t} | {w} (2 CPUs) | {len(mine)} | {cell} | "
                      f"{statistics.median(ends):,.0f} |")


if __name__ == "__main__":
    main()
