#!/usr/bin/env python3
"""run.py -- the navigation-mesh sitting (issue 30 "Measure"; docs/navmesh.md),
in one process, interleaved, medians:

  peer    libastar's Polyanya (`astar bench --mesh`) against the authors' C++
          Polyanya (bench/navmesh/polyanya_peer.cpp, built by peer.sh) on
          Polyanya's own meshes, arena and aurora, triangles and merged, with
          their scenarios: time per query, and identical lengths (every query,
          relative 1e-9).
  grid    libastar's Polyanya on a mesh built from a grid map (`astar mesh`)
          against libastar's Anya on the grid (`astar bench --algo anya`),
          between the same points (cell centres: the scenario's cells + 0.5);
          the mean ratio of length to the grid's 8-connected optimum side by
          side (equal when the lengths are: the per-query identity is the
          polyanya tests' job).
  funnel  libastar's A* + funnel against its Polyanya on the same meshes:
          time per query, and the length ratio funnel / Polyanya.
  build   `astar mesh` on den520d, aurora and Berlin_0_1024 (1024 x 1024):
          build time (median of the rounds), polygons, vertices, the
          builder's bytes and the process's peak resident memory.

Each comparison runs its contestants alternately, ROUNDS times (the order
swapped each round), each run REPEAT timed passes over the queries after one
untimed pass; a query's time is the median of its ROUNDS x REPEAT times, and
a table's figure the median (and the mean) over the queries of those.

usage: run.py [--only peer,grid,funnel,build] [--rounds N] [--repeat R]
              [--every K] [--grid-queries Q] [--out DIR]
(--every K: the peer and funnel comparisons take every K-th query of each
scenario; --grid-queries Q: about Q queries a map in the grid comparison.)
Results: DIR (default bench/navmesh/results/<UTC date>/): peer.csv,
grid.csv, funnel.csv, build.csv (one row a query or a build) and summary.md
(the tables of docs/navmesh.md). Environment: ASTAR (default build/astar),
NAVMESH_PEER (default <repo>/../peers/polyanya; its bin/polyanya_run),
SHARED (default <repo>/../shared). Python 3 standard library only.
"""

import argparse
import csv
import datetime
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("SHARED", os.path.join(REPO, "..", "shared"))
NAV = os.path.join(SHARED, "bench", "navmesh")
MOVINGAI = os.path.join(SHARED, "bench", "movingai")
ASTAR = os.environ.get("ASTAR", os.path.join(REPO, "build", "astar"))
PEER = os.environ.get("NAVMESH_PEER", os.path.join(REPO, "..", "peers", "polyanya"))
PEER_BIN = os.path.join(PEER, "bin", "polyanya_run")

PEER_MESHES = [("arena", "arena"), ("arena-merged", "arena"), ("aurora", "aurora"),
               ("aurora-merged", "aurora")]
GRID_MAPS = [("arena", os.path.join(NAV, "maps", "arena.map"), os.path.join(NAV, "scenarios", "arena.scen")),
             ("aurora", os.path.join(NAV, "maps", "aurora.map"), os.path.join(NAV, "scenarios", "aurora.scen"))]
for fam, name in [("dao", "den520d"), ("bg512", "AR0011SR"), ("room", "32room_000"),
                  ("street", "Berlin_0_512"), ("maze", "maze512-8-0")]:
    GRID_MAPS.append((name, os.path.join(MOVINGAI, fam, name + ".map"),
                      os.path.join(MOVINGAI, fam, name + ".map.scen")))
BUILD_MAPS = [("den520d", os.path.join(MOVINGAI, "dao", "den520d.map")),
              ("aurora", os.path.join(NAV, "maps", "aurora.map")),
              ("Berlin_0_1024", os.path.join(MOVINGAI, "street", "Berlin_0_1024.map"))]


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode not in (0,):
        raise SystemExit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-2000:]))
    return r.stdout


def read_times(text):
    """pass,index,micros,length,expanded -> {index: ([micros...], length, expanded)}"""
    out = {}
    for row in csv.DictReader(io.StringIO(text)):
        i = int(row["index"])
        e = out.setdefault(i, [[], float(row["length"]), int(row["expanded"])])
        e[0].append(float(row["micros"]))
    return out


def ours(mesh, scen, algo, repeat, tmp, every=1):
    times = os.path.join(tmp, "times.csv")
    cmd = [ASTAR, "bench", "--mesh", mesh, scen, "--algo", algo, "--repeat", str(repeat),
           "--warmup", "100000000", "--times", times, "--quiet"]
    if every > 1:
        cmd += ["--every", str(every)]
    sh(cmd)
    with open(times) as f:
        return read_times(f.read())


def peer(mesh, scen, repeat):
    return read_times(sh([PEER_BIN, mesh, scen, str(repeat)]))


def merge(acc, runs):
    for i, (t, length, exp) in runs.items():
        e = acc.setdefault(i, [[], length, exp])
        e[0].extend(t)


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def same(a, b):
    if a < 0 or b < 0:
        return (a < 0) == (b < 0)
    return abs(a - b) <= 1e-9 * max(1.0, abs(a))


def sitting(contestants, rounds):
    """contestants: [(name, fn)] -> {name: {index: [times, length, expanded]}}, interleaved."""
    acc = {name: {} for name, _ in contestants}
    for r in range(rounds):
        order = contestants if r % 2 == 0 else list(reversed(contestants))
        for name, fn in order:
            merge(acc[name], fn())
    return acc


def subset_scen(src, tmp, every):
    """Every K-th query of a scenario (0, K, 2K, ...), as a file both sides read."""
    if every <= 1:
        return src
    dst = os.path.join(tmp, "every%d-%s" % (every, os.path.basename(src)))
    with open(src) as f, open(dst, "w") as g:
        lines = f.read().splitlines()
        g.write(lines[0] + "\n")
        for k, line in enumerate(l for l in lines[1:] if l.strip()):
            if k % every == 0:
                g.write(line + "\n")
    return dst


def shifted_scen(src, dst, every):
    """The scenario's cells as points at their centres (Anya's convention)."""
    with open(src) as f, open(dst, "w") as g:
        lines = f.read().splitlines()
        g.write(lines[0] + "\n")
        for k, line in enumerate(l for l in lines[1:] if l.strip()):
            if k % every:
                continue
            p = line.split("\t")
            for j in (4, 5, 6, 7):
                p[j] = repr(int(p[j]) + 0.5)
            g.write("\t".join(p) + "\n")


def run_peer(a, tmp, w, summary):
    rows = []
    summary.append("### libastar Polyanya vs the authors' C++ Polyanya\n")
    summary.append("| mesh | polygons | queries | ours median us | peer median us | ours mean us | "
                   "peer mean us | peer/ours (median) | lengths identical |")
    summary.append("|---|---|---|---|---|---|---|---|---|")
    for mesh_name, scen_name in PEER_MESHES:
        mesh = os.path.join(NAV, "meshes", mesh_name + ".mesh")
        scen = subset_scen(os.path.join(NAV, "scenarios", scen_name + ".scen"), tmp, a.every)
        acc = sitting([("ours", lambda: ours(mesh, scen, "polyanya", a.repeat, tmp)),
                       ("peer", lambda: peer(mesh, scen, a.repeat))], a.rounds)
        o, p = acc["ours"], acc["peer"]
        idx = sorted(o)
        assert sorted(p) == idx, "the two ran different queries"
        om = [med(o[i][0]) for i in idx]
        pm = [med(p[i][0]) for i in idx]
        identical = sum(same(o[i][1], p[i][1]) for i in idx)
        for k, i in enumerate(idx):
            rows.append([mesh_name, i, "%.3f" % om[k], "%.3f" % pm[k], o[i][1], p[i][1],
                         o[i][2], p[i][2], int(same(o[i][1], p[i][1]))])
        polys = json.loads(sh([ASTAR, "mesh", mesh, "--json"]))["polygons"]
        summary.append("| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %d / %d |" % (
            mesh_name, polys, len(idx), med(om), med(pm), statistics.mean(om), statistics.mean(pm),
            med(pm) / med(om), identical, len(idx)))
        print(summary[-1], flush=True)
    w("peer.csv", ["mesh", "query", "ours_us", "peer_us", "ours_length", "peer_length",
                   "ours_expanded", "peer_popped", "identical"], rows)
    summary.append("")


def run_grid(a, tmp, w, summary):
    rows = []
    summary.append("### libastar Polyanya on a mesh of the grid vs libastar Anya on the grid\n")
    summary.append("| map | mesh polygons | queries | Polyanya median us | Polyanya mean us | "
                   "Anya mean us | Anya/Polyanya (mean) | Polyanya length / grid opt | Anya cost / grid opt |")
    summary.append("|---|---|---|---|---|---|---|---|---|")
    for name, mp, scen in GRID_MAPS:
        if not (os.path.exists(mp) and os.path.exists(scen)):
            print("skipped (missing):", mp)
            continue
        nq = sum(1 for l in open(scen) if l.strip()) - 1
        every = max(1, nq // a.grid_queries)
        mesh = os.path.join(tmp, name + ".mesh")
        built = json.loads(sh([ASTAR, "mesh", mp, "-o", mesh, "--json"]))
        pts = os.path.join(tmp, name + ".points.scen")
        shifted_scen(scen, pts, every)
        anya_runs = []

        def anya():
            j = json.loads(sh([ASTAR, "bench", scen, "--map", mp, "--algo", "anya", "--every",
                               str(every), "--repeat", str(a.repeat), "--json"]))
            anya_runs.append(j)
            return {}

        acc = sitting([("poly", lambda: ours(mesh, pts, "polyanya", a.repeat, tmp)),
                       ("anya", anya)], a.rounds)
        o = acc["poly"]
        idx = sorted(o)
        om = [med(o[i][0]) for i in idx]
        anya_us = med([r["us_per_query"] for r in anya_runs])
        anya_ratio = anya_runs[0].get("mean_cost_ratio", float("nan"))
        with open(pts) as f:
            opt = [float(l.split()[8]) for l in f.read().splitlines()[1:] if l.strip()]
        ratios = [o[i][1] / opt[i] for i in idx if o[i][1] >= 0 and opt[i] > 0]
        poly_ratio = statistics.mean(ratios) if ratios else float("nan")
        for k, i in enumerate(idx):
            rows.append([name, i, "%.3f" % om[k], o[i][1], opt[i], o[i][2]])
        summary.append("| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.6f | %.6f |" % (
            name, built["polygons"], len(idx), med(om), statistics.mean(om), anya_us,
            anya_us / statistics.mean(om), poly_ratio, anya_ratio))
        print(summary[-1], flush=True)
    w("grid.csv", ["map", "query", "polyanya_us", "polyanya_length", "grid_optimum",
                   "polyanya_expanded"], rows)
    summary.append("")


def run_funnel(a, tmp, w, summary):
    rows = []
    summary.append("### A* + funnel vs Polyanya (libastar, same mesh, same points)\n")
    summary.append("| mesh | queries | Polyanya median us | funnel median us | Polyanya/funnel "
                   "(median) | mean length ratio | max length ratio | funnel paths optimal |")
    summary.append("|---|---|---|---|---|---|---|---|")
    for mesh_name, scen_name in PEER_MESHES:
        mesh = os.path.join(NAV, "meshes", mesh_name + ".mesh")
        scen = subset_scen(os.path.join(NAV, "scenarios", scen_name + ".scen"), tmp, a.every)
        acc = sitting([("polyanya", lambda: ours(mesh, scen, "polyanya", a.repeat, tmp)),
                       ("funnel", lambda: ours(mesh, scen, "funnel", a.repeat, tmp))], a.rounds)
        p, f = acc["polyanya"], acc["funnel"]
        idx = sorted(p)
        pm = [med(p[i][0]) for i in idx]
        fm = [med(f[i][0]) for i in idx]
        ratios = [f[i][1] / p[i][1] for i in idx if p[i][1] > 0 and f[i][1] > 0]
        optimal = sum(1 for r in ratios if r <= 1 + 1e-9)
        for k, i in enumerate(idx):
            rows.append([mesh_name, i, "%.3f" % pm[k], "%.3f" % fm[k], p[i][1], f[i][1]])
        summary.append("| %s | %d | %.2f | %.2f | %.2f | %.5f | %.4f | %d / %d |" % (
            mesh_name, len(idx), med(pm), med(fm), med(pm) / med(fm), statistics.mean(ratios),
            max(ratios), optimal, len(ratios)))
        print(summary[-1], flush=True)
    w("funnel.csv", ["mesh", "query", "polyanya_us", "funnel_us", "polyanya_length",
                     "funnel_length"], rows)
    summary.append("")


def run_build(a, tmp, w, summary):
    rows = []
    summary.append("### Mesh build (astar mesh MAP -o OUT.mesh)\n")
    summary.append("| map | size | merge | polygons | vertices | build ms (median) | builder MiB | "
                   "mesh MiB | peak RSS MiB |")
    summary.append("|---|---|---|---|---|---|---|---|---|")
    for name, mp in BUILD_MAPS:
        if not os.path.exists(mp):
            print("skipped (missing):", mp)
            continue
        with open(mp) as f:
            head = f.read(200).split()
        size = "%s x %s" % (head[head.index("width") + 1], head[head.index("height") + 1])
        for merge_opt in ([], ["--no-merge"]):
            runs = []
            for _ in range(a.rounds):
                runs.append(json.loads(sh([ASTAR, "mesh", mp, "-o",
                                            os.path.join(tmp, "b.mesh"), "--json"] + merge_opt)))
            j = runs[0]
            ms = med([r["build_ms"] for r in runs])
            rss = max(r["peak_rss_mib"] for r in runs)
            for r in runs:
                rows.append([name, "no" if merge_opt else "yes", r["polygons"], r["vertices"],
                             r["build_ms"], r["builder_bytes"], r["mesh_bytes"], r["peak_rss_mib"]])
            summary.append("| %s | %s | %s | %d | %d | %.1f | %.1f | %.1f | %.1f |" % (
                name, size, "no" if merge_opt else "yes", j["polygons"], j["vertices"], ms,
                j["builder_bytes"] / 2**20, j["mesh_bytes"] / 2**20, rss))
            print(summary[-1], flush=True)
    w("build.csv", ["map", "merge", "polygons", "vertices", "build_ms", "builder_bytes",
                    "mesh_bytes", "peak_rss_mib"], rows)
    summary.append("")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="peer,grid,funnel,build")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--every", type=int, default=1,
                    help="peer and funnel: every K-th query of each scenario")
    ap.add_argument("--grid-queries", type=int, default=500,
                    help="about this many queries a map in the grid comparison")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    date = datetime.datetime.utcnow().strftime("%Y-%m-%d")
    out = a.out or os.path.join(REPO, "bench", "navmesh", "results", date)
    os.makedirs(out, exist_ok=True)
    if "peer" in a.only and not os.access(PEER_BIN, os.X_OK):
        raise SystemExit("%s missing: run bench/navmesh/peer.sh first" % PEER_BIN)

    def w(name, header, rows):
        with open(os.path.join(out, name), "w", newline="") as f:
            c = csv.writer(f)
            c.writerow(header)
            c.writerows(rows)

    rev = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                         text=True).stdout.strip()
    cpu = ""
    try:
        cpu = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")][0]
    except (OSError, IndexError):
        pass
    summary = ["# Navigation-mesh sitting %s" % date, "",
               "libastar %s, %s, %s, %d cores; rounds %d, repeat %d, every %d, grid queries %d; "
               "load average at start %s" % (
                   rev, platform.platform(), cpu, os.cpu_count(), a.rounds, a.repeat, a.every,
                   a.grid_queries,
                   " ".join("%.2f" % x for x in os.getloadavg())), ""]
    with tempfile.TemporaryDirectory() as tmp:
        for part, fn in [("peer", run_peer), ("grid", run_grid), ("funnel", run_funnel),
                         ("build", run_build)]:
            if part in a.only.split(","):
                fn(a, tmp, w, summary)
    summary.append("load average at the end: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(summary))


if __name__ == "__main__":
    sys.exit(main())
