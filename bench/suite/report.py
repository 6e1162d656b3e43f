#!/usr/bin/env python3
"""The Markdown table of a bench/suite.sh campaign.

    report.py RESULTS.tsv MODE HEADER

RESULTS.tsv: one row per finished run (suite.sh writes it, header line
first). MODE: quick or full. HEADER: Markdown bullet lines to put under the
title. Writes the section to standard output: per target and engine the
edges of the kept corpus (the one meter: a replay through the libFuzzer
build), each engine's own execs/s, its CPU share, corpus size and notes;
for the planted-bug target cmp, the seconds to the bug. With several runs,
cells are "median (min-max)".
"""
import collections
import itertools
import math
import statistics
import sys

ENGINE_ORDER = [
    "fuzz-run", "libfuzzer", "aflpp", "aflpp-cmplog", "aflpp440", "aflpp440-cmplog", "go", "fuzz-run-no-cmp",
    "fuzz-run-no-entropic", "fuzz-run-no-cross-over", "fuzz-run-no-len-control",
    "fuzz-run-no-auto-dict", "fuzz-run-utf8", "fuzz-run-dict", "fuzz-run-cmp-lib",
    "fuzz-run-sync2", "fuzz-run-parallel2", "fuzz-run-parallel2-vary", "fuzz-run-parallel2-text",
    "libfuzzer-jobs2", "aflpp440-ms2",
]
TARGET_ORDER = ["zlib", "sqlite", "lua", "serde_json", "regex", "cmp"]


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def fmt(x, digits=0):
    if x is None:
        return "?"
    if digits == 0:
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


def cell(values, digits=0):
    vals = [v for v in values if v is not None]
    if not vals:
        return "?"
    if len(values) == 1:
        return fmt(vals[0], digits)
    med = statistics.median(vals)
    s = f"{fmt(med, digits)} ({fmt(min(vals), digits)}–{fmt(max(vals), digits)})"
    if len(vals) < len(values):
        s += f" [{len(values) - len(vals)} missing]"
    return s


def mann_whitney(a, b):
    """Mann-Whitney U of a against b (ties count a half) and its two-sided
    p: exact, from every way to split the pooled values (as FuzzBench's
    test on a few runs), or the normal approximation past 10 a side."""
    def u_of(xs, ys):
        return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in xs for y in ys)
    u = u_of(a, b)
    mid = len(a) * len(b) / 2
    if len(a) > 10 or len(b) > 10:
        n1, n2 = len(a), len(b)
        sd = (n1 * n2 * (n1 + n2 + 1) / 12) ** 0.5
        z = abs(u - mid) / sd if sd else 0.0
        return u, min(1.0, math.erfc(z / 2 ** 0.5))
    pooled = list(a) + list(b)
    hits = total = 0
    for pick in itertools.combinations(range(len(pooled)), len(a)):
        chosen = set(pick)
        xs = [pooled[i] for i in pick]
        ys = [pooled[i] for i in range(len(pooled)) if i not in chosen]
        total += 1
        if abs(u_of(xs, ys) - mid) >= abs(u - mid) - 1e-9:
            hits += 1
    return u, hits / total


def against_best(ours, peers):
    """fuzz-run's edges against the best of peers ({engine: [edges]}, the
    one with the highest median): (best, ratio of the medians, U, p,
    verdict), the verdict "above" or "below" at p < 0.05, else
    "undecided"; None without a peer."""
    if not peers or not ours:
        return None
    best = max(peers, key=lambda e: statistics.median(peers[e]))
    ratio = statistics.median(ours) / statistics.median(peers[best])
    u, p = mann_whitney(ours, peers[best])
    verdict = ("above" if ratio > 1 else "below") if p < 0.05 else "undecided"
    return best, ratio, u, p, verdict


def order(key, known):
    return (known.index(key), key) if key in known else (len(known), key)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: report.py RESULTS.tsv MODE HEADER")
    path, mode, header = sys.argv[1:]
    rows = []
    with open(path, encoding="utf-8") as f:
        names = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(names, line.rstrip("\n").split("\t"))))
    if not rows:
        sys.exit("report.py: no finished runs")
    secs = sorted({r["secs"] for r in rows})
    runs = max(int(r["run"]) for r in rows)
    by = collections.defaultdict(list)
    for r in rows:
        by[(r["target"], r["engine"])].append(r)
    targets = sorted({r["target"] for r in rows}, key=lambda t: order(t, TARGET_ORDER))
    engines = sorted({r["engine"] for r in rows}, key=lambda e: order(e, ENGINE_ORDER))
    loads = [num(r[k]) for r in rows for k in ("load0", "load1") if num(r[k]) is not None]

    label = "Quick mode" if mode == "quick" else "Full comparison"
    note = " — smoke-level, one run each, not a verdict" if mode == "quick" and runs == 1 else ""
    print(f"## {label}: {'/'.join(secs)} s per run, up to {runs} run(s){note}")
    print()
    print(header)
    if loads:
        print(f"- 1-minute load average at the start and end of the runs: {min(loads):.2f}–{max(loads):.2f}"
              " (2 runs at once make about 2)")
    print()
    cov_targets = [t for t in targets if t != "cmp"]
    peers = [e for e in ("libfuzzer", "aflpp", "aflpp-cmplog", "aflpp440", "aflpp440-cmplog") if e in engines]
    if cov_targets and "fuzz-run" in engines and peers:
        # The goal: fuzz-run's median at least the best peer's, per target.
        print("fuzz-run against the best peer of each target (medians of the edges, ranges in brackets):")
        print()
        print("| target | fuzz-run | best peer | its edges | fuzz-run / best | Mann-Whitney U, two-sided p |")
        print("|---|---:|---|---:|---:|---|")
        for t in cov_targets:
            ours = [num(r["edges"]) for r in by.get((t, "fuzz-run"), [])]
            theirs = {}
            for e in peers:
                got = [v for v in (num(r["edges"]) for r in by.get((t, e), [])) if v is not None]
                if got:
                    theirs[e] = got
            found = against_best([v for v in ours if v is not None], theirs)
            if found is None:
                continue
            best, ratio, u, p, verdict = found
            print(f"| {t} | {cell(ours)} | {best} | {cell(theirs[best])} | {ratio:.3f} | "
                  f"U = {u:g}, p = {p:.3f}: {verdict} |")
        print()
        print("The U test takes fuzz-run's runs against the best peer's (p < 0.05 decides; with 3 runs a "
              "side its smallest p is 0.1, with 5 a side 0.008).")
        print()
    if cov_targets:
        print("| target | engine | runs | edges | edges vs libFuzzer | execs/s | CPU | corpus files | notes |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for t in cov_targets:
            lf = [num(r["edges"]) for r in by.get((t, "libfuzzer"), [])]
            lf = [v for v in lf if v is not None]
            lf_med = statistics.median(lf) if lf else None
            for e in engines:
                rs = by.get((t, e))
                if not rs:
                    continue
                edges = [num(r["edges"]) for r in rs]
                got = [v for v in edges if v is not None]
                ratio = f"{statistics.median(got) / lf_med:.2f}" if got and lf_med else "–"
                notes = "; ".join(sorted({r["note"] for r in rs if r["note"]}))
                print(f"| {t} | {e} | {len(rs)} | {cell(edges)} | {ratio} | "
                      f"{cell([num(r['execs_per_sec']) for r in rs])} | "
                      f"{cell([num(r['cpu']) for r in rs], 2)} | "
                      f"{cell([num(r['corpus']) for r in rs])} | {notes} |")
        print()
    if "cmp" in targets:
        print("Time to the planted bug (`cmp`: `memcmp(data, \"MAGIC_1234\", 10)`, examples/cmp/cmp.c), "
              f"seconds from launch, capped at {'/'.join(secs)} s:")
        print()
        print("| engine | found | seconds | per run | execs/s |")
        print("|---|---:|---:|---|---:|")
        for e in engines:
            rs = by.get(("cmp", e))
            if not rs:
                continue
            times = [num(r["bug_secs"]) for r in sorted(rs, key=lambda r: int(r["run"]))]
            found = [v for v in times if v is not None]
            med = f"{statistics.median(found):.2f}" if found else "not found"
            if found and len(rs) > 1:
                med += f" ({min(found):.2f}–{max(found):.2f})"
            per = ", ".join("-" if v is None else f"{v:.2f}" for v in times)
            # libFuzzer reports 0 when it crashes before its first status line.
            rates = [num(r["execs_per_sec"]) or None for r in rs]
            print(f"| {e} | {len(found)}/{len(rs)} | {med} | {per} | "
                  f"{cell(rates) if any(rates) else '–'} |")
        print()
    print("edges: the corpus the engine kept (fuzz-run: its cache exported to raw files; libFuzzer: its "
          "corpus directory; AFL++: default/queue, or both instances' queues; Go: its $GOCACHE/fuzz directory, exported) plus the seeds, replayed through the target's "
          "libFuzzer build with -runs=0, its last cov: figure: one meter for every engine. "
          "execs/s: each engine's own figure (fuzz-run: execs / elapsed of its end event; libFuzzer: "
          "stat::average_exec_per_sec; AFL++: fuzzer_stats execs_per_sec; two-CPU engines: the sum of both processes'; Go: its last status line's execs / run length). CPU: CPU time / wall "
          "of the engine's process tree (a cgroup's count where the machine allows one, else the waited-for "
          "tree's rusage, which misses AFL++'s persistent target). Notes: why a run ended early, findings.")


if __name__ == "__main__":
    main()
