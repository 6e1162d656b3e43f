#!/usr/bin/env python3
"""Coverage-over-time plots for bench/suite.sh, one SVG per target.

    plot.py TIMELINE.tsv OUTDIR [TITLE-SUFFIX]

TIMELINE.tsv has a header line and then one row per sample:
    target  engine  run  seconds  edges
(edges: the corpus the engine had kept at that time, seeds included,
replayed through the target's libFuzzer build with -runs=0). Each plot has
one line per engine, the median over runs at each sampling time, and a
shaded band from the lowest to the highest run when there are several.
Plain SVG written by hand: no plotting library needed.
"""
import collections
import html
import os
import statistics
import sys

# One colour per engine, the same in every plot.
ENGINE_COLORS = {
    "fuzz-run": "#2ca02c", "libfuzzer": "#8c564b", "aflpp": "#1f77b4",
    "aflpp-cmplog": "#d62728", "aflpp440": "#000080", "aflpp440-cmplog": "#ff9896",
    "go": "#00add8", "fuzz-run-no-cmp": "#9467bd",
    "fuzz-run-no-entropic": "#ff7f0e", "fuzz-run-no-cross-over": "#e377c2",
    "fuzz-run-no-len-control": "#17becf", "fuzz-run-no-auto-dict": "#7f7f7f",
    "fuzz-run-utf8": "#c5b0d5",
    "fuzz-run-dict": "#bcbd22", "fuzz-run-cmp-lib": "#aec7e8",
}
OTHER_COLORS = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173"]
ENGINE_ORDER = list(ENGINE_COLORS)


def engine_key(e):
    return (ENGINE_ORDER.index(e), e) if e in ENGINE_ORDER else (len(ENGINE_ORDER), e)
W, H = 700, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 250, 40, 50


def nice_step(span, ticks=5):
    if span <= 0:
        return 1
    raw = span / ticks
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def plot(target, series, suffix):
    """series: {engine: {t: [edges per run]}} -> SVG text."""
    ts = sorted({t for e in series.values() for t in e})
    vals = [v for e in series.values() for vs in e.values() for v in vs]
    if not ts or not vals:
        return None
    tmax = max(ts)
    lo, hi = min(vals), max(vals)
    pad = max(1, (hi - lo) * 0.05)
    ymin, ymax = max(0, lo - pad), hi + pad
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(t):
        return LEFT + pw * t / tmax if tmax else LEFT

    def y(v):
        return TOP + ph * (1 - (v - ymin) / (ymax - ymin)) if ymax > ymin else TOP + ph / 2

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
        f'<rect width="{W}" height="{H}" fill="white"/>',
        f'<text x="{LEFT}" y="22" font-size="15" font-weight="bold">'
        f"{html.escape(target)}{html.escape(suffix)}</text>",
    ]
    # axes and grid
    step = nice_step(ymax - ymin)
    v = (ymin // step + 1) * step
    while v < ymax:
        out.append(f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{LEFT + pw}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += step
    tstep = nice_step(tmax, 6)
    t = 0.0
    while t <= tmax + 1e-9:
        out.append(f'<line x1="{x(t):.1f}" y1="{TOP + ph}" x2="{x(t):.1f}" y2="{TOP + ph + 4}" stroke="black"/>')
        out.append(f'<text x="{x(t):.1f}" y="{TOP + ph + 18}" text-anchor="middle">{t:g}</text>')
        t += tstep
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 12}" text-anchor="middle">seconds</text>')
    out.append(
        f'<text transform="translate(16 {TOP + ph / 2}) rotate(-90)" text-anchor="middle">'
        "edges (libFuzzer replay, cov:)</text>"
    )
    for i, engine in enumerate(sorted(series, key=engine_key)):
        pts = series[engine]
        color = ENGINE_COLORS.get(engine, OTHER_COLORS[i % len(OTHER_COLORS)])
        times = sorted(pts)
        if any(len(pts[t]) > 1 for t in times):
            upper = " ".join(f"{x(t):.1f},{y(max(pts[t])):.1f}" for t in times)
            lower = " ".join(f"{x(t):.1f},{y(min(pts[t])):.1f}" for t in reversed(times))
            out.append(f'<polygon points="{upper} {lower}" fill="{color}" fill-opacity="0.15" stroke="none"/>')
        line = " ".join(f"{x(t):.1f},{y(statistics.median(pts[t])):.1f}" for t in times)
        out.append(f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="2"/>')
        for t in times:
            out.append(f'<circle cx="{x(t):.1f}" cy="{y(statistics.median(pts[t])):.1f}" r="2.5" fill="{color}"/>')
        ly = TOP + 14 + 18 * i
        last = statistics.median(pts[times[-1]])
        out.append(f'<line x1="{LEFT + pw + 12}" y1="{ly - 4}" x2="{LEFT + pw + 32}" y2="{ly - 4}" '
                   f'stroke="{color}" stroke-width="3"/>')
        out.append(f'<text x="{LEFT + pw + 38}" y="{ly}">{html.escape(engine)} ({last:g})</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: plot.py TIMELINE.tsv OUTDIR [TITLE-SUFFIX]")
    src, outdir = sys.argv[1], sys.argv[2]
    suffix = sys.argv[3] if len(sys.argv) == 4 else ""
    data = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    with open(src, encoding="utf-8") as f:
        next(f, None)
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 5 or not parts[4].isdigit():
                continue
            target, engine, _run, secs, edges = parts
            data[target][engine][float(secs)].append(int(edges))
    os.makedirs(outdir, exist_ok=True)
    for target, series in sorted(data.items()):
        svg = plot(target, series, suffix)
        if svg:
            path = os.path.join(outdir, f"{target}.svg")
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
            print(path)


if __name__ == "__main__":
    main()
