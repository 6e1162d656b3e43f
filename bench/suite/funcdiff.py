#!/usr/bin/env python3
"""Where two engines' corpora differ, function by function.

    funcdiff.py [-n N] A.txt... -- B.txt...

Each file is the output of a target's libFuzzer build replaying one run's
final corpus with -print_coverage=1 (the suite's meter build), e.g.

    build/regex/lf/regex -runs=0 -print_coverage=1 empty seeds/regex \
        RUNDIR/snap/600 >A1.txt 2>&1

For every function (the Rust hash suffix dropped, so that a function's
copies count together), the median edges covered over the A runs and over
the B runs; prints the N functions (default 25) where B's median is most
above A's, then the N where A's is most above B's, then both totals.
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r"^(?:UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) (\S+)")


def load(path):
    """Function name -> (edges covered, edges in all) of one replay."""
    got = collections.defaultdict(lambda: [0, 0])
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                name = re.sub(r"::h[0-9a-f]{16}$", "", m.group(3))
                got[name][0] += int(m.group(1))
                got[name][1] += int(m.group(2))
    if not got:
        sys.exit(f"funcdiff.py: {path}: no COVERED_FUNC lines (was it run with -print_coverage=1?)")
    return got


def main():
    args = sys.argv[1:]
    n = 25
    if len(args) >= 2 and args[0] == "-n":
        n = int(args[1])
        args = args[2:]
    if "--" not in args:
        sys.exit("usage: funcdiff.py [-n N] A.txt... -- B.txt...")
    cut = args.index("--")
    a_files, b_files = args[:cut], args[cut + 1:]
    if not a_files or not b_files:
        sys.exit("usage: funcdiff.py [-n N] A.txt... -- B.txt...")
    a = [load(p) for p in a_files]
    b = [load(p) for p in b_files]
    names = set().union(*a, *b)
    total = {}
    for run in a + b:
        for k, (_, all_edges) in run.items():
            total[k] = all_edges
    rows = []
    for k in names:
        ma = statistics.median(r[k][0] if k in r else 0 for r in a)
        mb = statistics.median(r[k][0] if k in r else 0 for r in b)
        rows.append((mb - ma, ma, mb, total.get(k, 0), k))
    rows.sort()
    print("| B − A | A | B | of | function |")
    print("|---:|---:|---:|---:|---|")
    for part in (rows[::-1][:n], rows[:n]):
        for d, ma, mb, t, k in part:
            if d == 0:
                continue
            print(f"| {d:+g} | {ma:g} | {mb:g} | {t} | `{k[:140]}` |")
        print("| | | | | |")
    ta = statistics.median(sum(v[0] for v in r.values()) for r in a)
    tb = statistics.median(sum(v[0] for v in r.values()) for r in b)
    print(f"\nmedian edges over all functions: A {ta:g} ({len(a)} runs), B {tb:g} ({len(b)} runs)")


if __name__ == "__main__":
    main()
