#!/usr/bin/env python3
"""table.py -- the tables and curves of the MAPF sitting (bench/mapf/run.py's CSV).

  table.py [--csv build/mapf-bench/results.csv] [--pibt build/mapf-bench/pibt-step.csv]
           [--svg-dir docs/images] [--md OUT.md]

Markdown tables on standard output (or --md): per map and agent count, for
each solver the instances solved out of those run, the mean sum of costs over
the lower bound (SOC/LB) and the median time to the first solution, over
the instances both solvers of the family's pair (ours, the peer) solved (so
the means compare like with like; n = how many); PIBT's time per step. SVG curves (written
here, no plotting library): success rate against agents, one panel per map,
for each family (docs/images/mapf-success-lacam.svg, mapf-success-cbs.svg),
the median time to the first solution (mapf-first-lacam.svg,
mapf-first-cbs.svg) and the mean SOC/LB (mapf-soc-lacam.svg,
mapf-soc-cbs.svg). Python 3 standard library only.
"""

import argparse
import collections
import csv
import math
import os
import statistics
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAMILIES = collections.OrderedDict([
    ("lacam", ["astar-pibt", "astar-lacam-star", "lacam3"]),
    ("cbs", ["astar-cbs", "astar-eecbs", "eecbs"]),
])
LABEL = {
    "astar-pibt": "libastar PIBT", "astar-lacam-star": "libastar LaCAM*",
    "astar-cbs": "libastar CBS", "astar-eecbs": "libastar EECBS w=1.2",
    "lacam3": "lacam3 (peer)", "eecbs": "EECBS w=1.2 (peer)",
}
COLOUR = {
    "astar-pibt": "#1b9e77", "astar-lacam-star": "#d95f02", "lacam3": "#7570b3",
    "astar-cbs": "#1b9e77", "astar-eecbs": "#d95f02", "eecbs": "#7570b3",
}
DASH = {"lacam3": "6,3", "eecbs": "6,3"}
# The pair each family compares (ours, the peer): SOC/LB and times are taken
# over the instances both solved, so that the means compare like with like.
PAIR = {"lacam": ("astar-lacam-star", "lacam3"), "cbs": ("astar-eecbs", "eecbs")}
MAP_ORDER = ["random-32-32-20", "random-64-64-10", "empty-32-32", "maze-32-32-4", "room-64-64-8",
             "warehouse-10-20-10-2-1", "den520d", "Berlin_1_256"]


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows += list(csv.DictReader(f))
    # the lower bound of an instance: whichever run reported it (ours and the checker do)
    lb = {}
    for r in rows:
        if num(r["lower_bound"]):
            lb[(r["map"], r["agents"], r["scen"])] = num(r["lower_bound"])
    for r in rows:
        r["lb"] = lb.get((r["map"], r["agents"], r["scen"]))
        r["ok"] = r["solved"] == "1"
    return rows


def family_of(solver):
    for f, s in FAMILIES.items():
        if solver in s:
            return f
    return None


def summarise(rows):
    """{family: {map: {agents: {solver: stats}}}} plus the common-solved counts."""
    by = collections.defaultdict(list)
    for r in rows:
        by[(family_of(r["solver"]), r["map"], int(r["agents"]), r["solver"])].append(r)
    out = collections.OrderedDict()
    for fam, solvers in FAMILIES.items():
        maps = [m for m in MAP_ORDER if any(k[0] == fam and k[1] == m for k in by)]
        maps += sorted({k[1] for k in by if k[0] == fam} - set(maps))
        out[fam] = collections.OrderedDict()
        for m in maps:
            out[fam][m] = collections.OrderedDict()
            counts = sorted({k[2] for k in by if k[0] == fam and k[1] == m})
            for n in counts:
                present = [s for s in solvers if by.get((fam, m, n, s))]
                solved_by = {s: {r["scen"] for r in by[(fam, m, n, s)] if r["ok"]} for s in present}
                pair = [s for s in PAIR[fam] if s in solved_by] or present
                common = set.intersection(*[solved_by[s] for s in pair]) if pair else set()
                cell = collections.OrderedDict()
                for s in present:
                    rs = by[(fam, m, n, s)]
                    com = [r for r in rs if r["ok"] and r["scen"] in common]
                    ratio = [num(r["soc"]) / r["lb"] for r in com if r["lb"]]
                    first = [num(r["time_first_ms"]) for r in com
                             if num(r["time_first_ms"]) is not None]
                    first_all = [num(r["time_first_ms"]) for r in rs
                                 if r["ok"] and num(r["time_first_ms"]) is not None]
                    step = [num(r["time_ms"]) / num(r["makespan"]) for r in rs
                            if r["ok"] and num(r["makespan"]) and num(r["time_ms"]) is not None]
                    cell[s] = dict(
                        solved=sum(r["ok"] for r in rs), runs=len(rs), k=len(com),
                        invalid=sum(r["note"].startswith("INVALID") for r in rs),
                        ratio=statistics.mean(ratio) if ratio else None,
                        first=statistics.median(first) if first else None,
                        first_all=statistics.median(first_all) if first_all else None,
                        step=statistics.median(step) if step else None)
                out[fam][m][n] = dict(cells=cell, common=len(common))
    return out


def fmt(v, spec):
    return "--" if v is None else format(v, spec)


def markdown(summary, pibt_rows, rows=()):
    lines = []
    loads = collections.defaultdict(list)
    for r in rows:
        if num(r.get("load1")) is not None:
            loads[r["solver"]].append(num(r["load1"]))
    if loads:
        lines.append("Machine load (1-minute load average on 2 cores when each run began, "
                     "mean): " + ", ".join("%s %.1f" % (LABEL.get(s, s), statistics.mean(v))
                                           for s, v in sorted(loads.items())) + ".")
        lines.append("")
    for fam, maps in summary.items():
        if not maps:
            continue
        solvers = [s for s in FAMILIES[fam]
                   if any(s in c["cells"] for m in maps.values() for c in m.values())]
        lines.append("### %s family: %s" % (fam, ", ".join(LABEL[s] for s in solvers)))
        lines.append("")
        lines.append("Each cell: solved / run · mean SOC/LB · median ms to the first solution; "
                     "the last two over the n instances that both %s and %s solved "
                     "(\"(k)\": over the k of them this solver solved too; \"--\": none)."
                     % (LABEL[PAIR[fam][0]], LABEL[PAIR[fam][1]]))
        lines.append("")
        head = ["map", "agents"] + [LABEL[s] for s in solvers] + ["n"]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for m, counts in maps.items():
            for n, c in counts.items():
                cells = c["cells"]
                row = [m, str(n)]
                for s in solvers:
                    x = cells.get(s)
                    if x is None:
                        row.append("not run")
                        continue
                    solved = "%d/%d" % (x["solved"], x["runs"])
                    if x["invalid"]:
                        solved += " (%d invalid)" % x["invalid"]
                    row.append("%s · %s · %s%s" % (
                        solved, fmt(x["ratio"], ".3f"), fmt(x["first"], ".1f"),
                        " (%d)" % x["k"] if x["k"] != c["common"] and x["k"] else ""))
                row.append(str(c["common"]))
                lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    if pibt_rows:
        lines.append("### PIBT: time per step (ms): the solve's time over its steps, "
                     "the distance tables included; min and median of the repetitions")
        lines.append("")
        lines.append("| map | agents | libastar PIBT min | median | steps | lacam3's PIBT min | "
                     "median | steps | runs each |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        by = collections.defaultdict(list)
        for r in pibt_rows:
            by[(r.get("map", "den520d"), int(r["agents"]), r["solver"])].append(r)
        for (m, n) in sorted({(k[0], k[1]) for k in by}):
            row = [m, str(n)]
            reps = 0
            for s in ["libastar", "lacam3-pibt"]:
                rs = by.get((m, n, s), [])
                v = [num(r["ms_per_step"]) for r in rs if r["solved"] == "True"]
                reps = max(reps, len(rs))
                row.append(fmt(min(v) if v else None, ".3f"))
                row.append(fmt(statistics.median(v) if v else None, ".3f"))
                row.append(rs[0]["steps"] + ("" if rs and rs[0]["solved"] == "True"
                                             else " (unsolved)") if rs else "--")
            row.append(str(reps))
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines).replace("LaCAM*", "LaCAM\\*")  # Markdown: a star, not emphasis


# ---- SVG -------------------------------------------------------------------------------


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_panels(summary, fam, what, title):
    """Small multiples, one per map: x = agents (the sitting's counts), y = what."""
    maps = summary.get(fam) or {}
    if not maps:
        return None
    solvers = [s for s in FAMILIES[fam]
               if any(s in c["cells"] for m in maps.values() for c in m.values())]
    cols = 4
    rows_n = math.ceil(len(maps) / cols)
    pw, ph, ml, mt = 210, 150, 46, 24
    W = cols * pw + 20
    H = rows_n * (ph + 50) + 70
    logy = what == "first"
    vals = [c["cells"][s]["first_all" if logy else "ratio"]
            for m in maps.values() for c in m.values() for s in c["cells"]] \
        if what != "success" else []
    vals = [v for v in vals if v]
    rlo, rhi = 1.0, max(vals + [1.1]) if what == "ratio" else 1.0
    rhi = math.ceil(rhi * 10) / 10
    vals = [v for v in vals if v]
    if logy:
        lo = 10 ** math.floor(math.log10(max(min(vals), 1e-3))) if vals else 0.1
        hi = 10 ** math.ceil(math.log10(max(vals))) if vals else 1e4
        hi = max(hi, lo * 10)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="16" font-size="14">%s</text>' % esc(title)]
    for k, (m, counts) in enumerate(maps.items()):
        ox = 10 + (k % cols) * pw + ml
        oy = 30 + (k // cols) * (ph + 50) + mt
        iw, ih = pw - ml - 14, ph - mt - 10
        out.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (ox, oy - 8, esc(m)))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
                   % (ox, oy, iw, ih))
        ns = list(counts)
        xs = {n: ox + (iw * (i + 0.5) / len(ns)) for i, n in enumerate(ns)}
        for n in ns:
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                       % (xs[n], oy + ih + 13, n))

        def y_of(v):
            if logy:
                v = min(max(v, lo), hi)
                return oy + ih - ih * (math.log10(v) - math.log10(lo)) / (
                    math.log10(hi) - math.log10(lo))
            if what == "ratio":
                return oy + ih - ih * (v - rlo) / (rhi - rlo)
            return oy + ih - ih * v

        ticks = ([lo * 10 ** i for i in range(int(round(math.log10(hi / lo))) + 1)] if logy
                 else [rlo, (rlo + rhi) / 2, rhi] if what == "ratio" else [0, 0.5, 1])
        for tv in ticks:
            y = y_of(tv)
            out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                       % (ox, ox + iw, y, y))
            lab = ("%g" % tv) if logy else ("%.2f" % tv) if what == "ratio" \
                else "%d%%" % (tv * 100)
            out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (ox - 3, y + 4, lab))
        for j, s in enumerate(solvers):
            pts = []
            for n in ns:
                x = counts[n]["cells"].get(s)
                if x is None:
                    continue
                if what == "success":
                    v = x["solved"] / x["runs"] if x["runs"] else None
                elif what == "ratio":
                    v = x["ratio"]
                else:
                    v = x["first_all"]
                if v is not None:
                    pts.append((xs[n] + (j - 1) * 2, y_of(v)))
            if not pts:
                continue
            out.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>' % (
                COLOUR[s], ' stroke-dasharray="%s"' % DASH[s] if s in DASH else "",
                " ".join("%.1f,%.1f" % p for p in pts)))
            for p in pts:
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (p[0], p[1],
                                                                              COLOUR[s]))
    ly = H - 22
    for j, s in enumerate(solvers):
        lx = 20 + j * 250
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"%s/>' % (
            lx, lx + 30, ly, ly, COLOUR[s],
            ' stroke-dasharray="%s"' % DASH[s] if s in DASH else ""))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 36, ly + 4, esc(LABEL[s])))
    out.append('<text x="%d" y="%d" fill="#555">x: agents; %s</text>' % (
        20, H - 6, "y: instances solved" if what == "success" else
        "y: mean SOC / lower bound, over the instances both of the pair solved"
        if what == "ratio" else
        "y: median ms to the first solution (log), solved instances"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv", action="append",
                    help="run.py's CSV; several are joined (default "
                    "build/mapf-bench/results.csv)")
    ap.add_argument("--pibt", default=os.path.join(REPO, "build", "mapf-bench", "pibt-step.csv"))
    ap.add_argument("--svg-dir", help="write the curves here (e.g. docs/images)")
    ap.add_argument("--md", help="write the tables here instead of standard output")
    ap.add_argument("--title", default="", help="suffix of the pictures' titles (the sitting)")
    a = ap.parse_args()
    rows = load(a.csv or [os.path.join(REPO, "build", "mapf-bench", "results.csv")])
    summary = summarise(rows)
    pibt_rows = []
    if os.path.exists(a.pibt):
        with open(a.pibt) as f:
            pibt_rows = list(csv.DictReader(f))
    text = markdown(summary, pibt_rows, rows)
    if a.md:
        with open(a.md, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if a.svg_dir:
        os.makedirs(a.svg_dir, exist_ok=True)
        for fam in FAMILIES:
            for what, name, t in [("success", "success", "Instances solved"),
                                  ("first", "first", "Time to the first solution"),
                                  ("ratio", "soc", "Sum of costs / lower bound")]:
                svg = svg_panels(summary, fam, what, "%s, %s family%s" % (t, fam, a.title))
                if svg:
                    p = os.path.join(a.svg_dir, "mapf-%s-%s.svg" % (name, fam))
                    with open(p, "w") as f:
                        f.write(svg)
                    print("wrote", p, file=sys.stderr)


if __name__ == "__main__":
    main()
