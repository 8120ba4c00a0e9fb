#!/usr/bin/env python3
"""bench/python/compare.py -- libastar's Python package against scikit-image,
SciPy, networkx and igraph: the same queries on the same maps, in one run
(issue 27, "Measure"; the table of docs/python-guide.md, "How fast").

    make bench-python                          # builds the package, runs this
    PYTHONPATH=build/python/lib /usr/bin/python3 bench/python/compare.py
        [--quick] [--rounds 3] [--maps random1000,den520d,open4096]
        [--movingai DIR] [--markdown] [--json FILE] [--batch-only]

Maps (all 8-connected, straight step 1, diagonal sqrt 2):
  random1000  1000 x 1000, 20 % of the cells walls drawn at random (seed 27);
              query pairs drawn at random among the passable cells (seed 27)
  den520d     Moving AI dao/den520d (256 x 257) and its scenario's queries,
              every k-th line of the file so that every length bucket is there
              (shared/bench/movingai beside the repository, or --movingai,
              or $ASTAR_MOVINGAI; skipped when absent)
  open4096    4096 x 4096, 400 wall rectangles with sides 4..64 drawn at
              random (seed 27, ~3 % of the cells); query pairs at least 1000
              cells apart (seed 27)

Rules. libastar searches under the Moving AI rule (no corner cutting: a
diagonal step needs both orthogonal neighbours free). SciPy, networkx and
igraph search a graph this script builds with exactly that rule, so their
costs must equal libastar's. scikit-image's MCP cannot forbid corner
cutting: its 8-connected moves are any step into a free cell, which is
libastar's corner="always"; scikit-image is therefore timed and checked
against libastar with corner="always" (same rule), and the script reports how
much shorter those corner-cutting paths are than the Moving AI ones.

Correctness. Every path every library returns is checked (it starts and ends
at the query's cells, every cell is free, every step is a legal move under the
library's rule) and its cost must equal the reference cost of libastar A*
under the same rule (relative 1e-9); on den520d libastar must also give the
scenario's optimal length (relative 1e-5). Mismatches are printed and make
the exit status 1.

Timing. Each library is prepared once outside the timing (its preparation --
a CSR matrix, a networkx or igraph graph, an MCP object, a Finder -- is
reported separately); then every query is timed alone (time.perf_counter
around the call, the path and its cost included). The whole sequence runs
--rounds times (3); a query's time is its median over the rounds, a
library's figure the median over its queries. The slow libraries run on a
subset of the queries (evenly spread over the list); a ratio is the median,
over the peer's queries, of its time over libastar A*'s on the same query
(A* under the peer's rule). A library whose queries take over 2 s runs one
round. The batch line compares a loop of Finder.find with
Finder.find_many(threads=2) (when the package has it; "n/a" otherwise) and
with two Python threads calling Finder.find (the searches release the GIL),
over all of a map's queries; the "machine check" line (two threads of a
GIL-free NumPy sort against one) says how much parallelism the machine gave
the run, the ceiling of those figures. Timings on a busy machine are noisy:
compare ratios, and runs.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import json
import math
import os
import pathlib
import statistics
import sys
import threading
import time

import numpy as np

import libastar

SQRT2 = math.sqrt(2.0)
REL_TOL = 1e-9      # a path's cost against the reference cost (same rule)
SCEN_TOL = 1e-5     # libastar against the scenario's 6-significant-digit lengths
SEED = 27
ROOT = pathlib.Path(__file__).resolve().parents[2]


def optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


scipy_sparse = optional("scipy.sparse")
csgraph = optional("scipy.sparse.csgraph")
skgraph = optional("skimage.graph")
nx = optional("networkx")
igraph = optional("igraph")


# ---- maps and queries ------------------------------------------------------

class Map:
    """A map: free[y, x] (True = passable), its libastar Grid, the queries
    ((x, y) start, (x, y) goal, optimal length or None) and how many of them
    each kind of library runs (the rest is too slow to wait for)."""

    def __init__(self, name, about, free, queries, subsets):
        self.name, self.about, self.free = name, about, free
        self.height, self.width = free.shape
        self.queries = queries
        self.subsets = subsets   # runner group -> number of queries
        self.grid = libastar.Grid.from_numpy(free)
        self.note = ""


def random_pairs(free, count, rng, min_dist=0):
    ys, xs = np.nonzero(free)
    out = []
    while len(out) < count:
        i, j = rng.integers(0, len(xs), size=2)
        s, g = (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j]))
        if max(abs(s[0] - g[0]), abs(s[1] - g[1])) >= max(min_dist, 1):
            out.append((s, g, None))
    return out


def map_random(n, density, count, subsets):
    rng = np.random.default_rng(SEED)
    free = rng.random((n, n)) >= density
    return Map(f"random{n}", f"{n}x{n}, {round(100 * density)} % random walls (seed {SEED})",
               free, random_pairs(free, count, rng), subsets)


def map_open(n, rects, side, count, subsets, min_dist):
    rng = np.random.default_rng(SEED)
    free = np.ones((n, n), dtype=bool)
    for _ in range(rects):
        w, h = rng.integers(side[0], side[1] + 1, size=2)
        x, y = rng.integers(0, n - w), rng.integers(0, n - h)
        free[y:y + h, x:x + w] = False
    blocked = 100.0 * (1.0 - free.mean())
    return Map(f"open{n}", f"{n}x{n}, {rects} wall rectangles {side[0]}..{side[1]} cells "
               f"({blocked:.1f} % blocked, seed {SEED})", free,
               random_pairs(free, count, rng, min_dist), subsets)


def map_movingai(folder, name, count, subsets):
    path = folder / "dao" / f"{name}.map"
    grid = libastar.Grid.from_movingai(str(path))
    free = grid.to_numpy()
    scen = libastar.load_scen(str(path) + ".scen")
    step = max(1, len(scen) // count)
    queries = [(tuple(q.start), tuple(q.goal), q.optimal_length) for q in scen[::step]][:count]
    return Map(name, f"Moving AI dao/{name}.map ({grid.width}x{grid.height}), "
               f"{len(queries)} of its {len(scen)} scenario queries (every {step}th)",
               free, queries, subsets)


def spread(items, k):
    """k items evenly spread over the list (all when k >= len)."""
    if k >= len(items):
        return list(range(len(items)))
    return sorted({round(i * (len(items) - 1) / max(k - 1, 1)) for i in range(k)})


# ---- the graph of the Moving AI rule, for SciPy, networkx, igraph -----------

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def moving_ai_csr(free):
    """The grid as a CSR matrix of its legal moves (node y * W + x; weight 1 or
    sqrt 2; a diagonal step only with both orthogonal neighbours free)."""
    h, w = free.shape
    pad = np.zeros((h + 2, w + 2), dtype=bool)
    pad[1:-1, 1:-1] = free
    n = h * w
    allowed = np.zeros((n, 8), dtype=bool)
    for k, (dx, dy) in enumerate(DIRS):
        ok = free & pad[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
        if dx and dy:
            ok &= pad[1:h + 1, 1 + dx:w + 1 + dx] & pad[1 + dy:h + 1 + dy, 1:w + 1]
        allowed[:, k] = ok.ravel()
    offsets = np.array([dy * w + dx for dx, dy in DIRS], dtype=np.int32)
    targets = (np.arange(n, dtype=np.int32).reshape(n, 1) + offsets)[allowed]
    weights = np.broadcast_to(np.array([1.0] * 4 + [SQRT2] * 4), (n, 8))[allowed]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(allowed.sum(axis=1), out=indptr[1:])
    del allowed
    return scipy_sparse.csr_matrix((weights, targets, indptr), shape=(n, n))


# ---- runners: prepared once, then one query at a time -----------------------

class Runner:
    """name, rule ('no-cut' or 'always'), group (the subset size key),
    prepare(m) -> None, query(s, g) -> raw, cells(raw) -> (n, 2) (x, y),
    cost(raw) -> the library's own cost (None when it gives none)."""
    rule = "no-cut"
    group = "ours"
    ours = False

    def cost(self, raw):
        return None


class Ours(Runner):
    ours = True

    def __init__(self, label, method="astar", rule="no-cut", via="finder"):
        self.name, self.method, self.rule, self.via = label, method, rule, via

    def prepare(self, m):
        kw = {} if self.rule == "no-cut" else {"corner": self.rule}
        self.finder = libastar.Finder(m.grid, self.method, **kw)
        if self.via == "grid":
            grid, opts = m.grid, libastar.Options(algo=self.method, **kw)
            self.query = lambda s, g: grid.find_path(s, g, options=opts)
        else:
            self.query = self.finder.find

    def cells(self, raw):
        return raw.cells

    def cost(self, raw):
        return raw.cost


class SkimageRoute(Runner):
    name, rule, group = "scikit-image route_through_array", "always", "route"

    def prepare(self, m):
        self.costs = np.where(m.free, 1.0, np.inf)

    def query(self, s, g):
        return skgraph.route_through_array(self.costs, (s[1], s[0]), (g[1], g[0]),
                                           fully_connected=True, geometric=True)

    def cells(self, raw):
        return np.asarray(raw[0])[:, ::-1]

    def cost(self, raw):
        return raw[1]


class SkimageMCP(Runner):
    name, rule, group = "scikit-image MCP_Geometric (reused)", "always", "skimage"

    def prepare(self, m):
        self.mcp = skgraph.MCP_Geometric(np.where(m.free, 1.0, np.inf), fully_connected=True)

    def query(self, s, g):
        costs, _ = self.mcp.find_costs([(s[1], s[0])], [(g[1], g[0])])
        return self.mcp.traceback((g[1], g[0])), costs[g[1], g[0]]

    cells = SkimageRoute.cells
    cost = SkimageRoute.cost


def walk(pred, s, g):
    out = [g]
    while out[-1] != s:
        p = pred[out[-1]]
        if p < 0:
            return []
        out.append(int(p))
    return out[::-1]


class Scipy(Runner):
    def __init__(self, oracle=False):
        self.oracle = oracle
        self.group = "oracle" if oracle else "scipy"
        self.name = ("scipy dijkstra, limit=the answer (best case)" if oracle
                     else "scipy csgraph.dijkstra")

    def prepare(self, m):
        self.csr, self.w = shared_csr(m), m.width

    def query(self, s, g, limit=np.inf):
        si, gi = s[1] * self.w + s[0], g[1] * self.w + g[0]
        dist, pred, _ = csgraph.dijkstra(self.csr, directed=True, indices=si, limit=limit,
                                         return_predecessors=True, min_only=True)
        return walk(pred, si, gi), dist[gi], self.w

    def cells(self, raw):
        ids = np.asarray(raw[0])
        return np.column_stack([ids % raw[2], ids // raw[2]])

    def cost(self, raw):
        return raw[1]


class Networkx(Runner):
    group = "nx"

    def __init__(self, astar):
        self.astar = astar
        self.name = "networkx astar_path" if astar else "networkx shortest_path (Dijkstra)"

    def prepare(self, m):
        self.g, self.w = shared_nx(m), m.width
        w = self.w

        def octile(a, b):
            dx, dy = abs(a % w - b % w), abs(a // w - b // w)
            return max(dx, dy) + (SQRT2 - 1.0) * min(dx, dy)
        self.h = octile

    def query(self, s, g):
        si, gi = s[1] * self.w + s[0], g[1] * self.w + g[0]
        if self.astar:
            return nx.astar_path(self.g, si, gi, heuristic=self.h, weight="weight"), self.w
        return nx.shortest_path(self.g, si, gi, weight="weight"), self.w

    def cells(self, raw):
        ids = np.asarray(raw[0])
        return np.column_stack([ids % raw[1], ids // raw[1]])


class Igraph(Runner):
    name, group = "igraph get_shortest_paths", "igraph"

    def prepare(self, m):
        self.g, self.w = shared_igraph(m), m.width

    def query(self, s, g):
        si, gi = s[1] * self.w + s[0], g[1] * self.w + g[0]
        return self.g.get_shortest_paths(si, to=gi, weights="weight", output="vpath")[0], self.w

    cells = Networkx.cells


_shared = {}
PREP = {}   # (map, what) -> seconds (the shared graphs, reported once)


def _once(m, what, build):
    key = (m.name, what)
    if key not in _shared:
        t0 = time.perf_counter()
        _shared[key] = build()
        PREP[key] = time.perf_counter() - t0
    return _shared[key]


def shared_csr(m):
    return _once(m, "CSR matrix (scipy)", lambda: moving_ai_csr(m.free))


def shared_nx(m):
    return _once(m, "networkx graph (from the CSR)",
                 lambda: nx.from_scipy_sparse_array(shared_csr(m)))


def shared_igraph(m):
    def build():
        coo = scipy_sparse.triu(shared_csr(m), format="coo")
        g = igraph.Graph(n=m.width * m.height, edges=np.column_stack([coo.row, coo.col]).tolist())
        g.es["weight"] = coo.data.tolist()
        return g
    return _once(m, "igraph graph (from the CSR)", build)


def runners_for(args):
    out = [Ours("libastar A* (Finder.find)"),
           Ours("libastar A* (Grid.find_path)", via="grid"),
           Ours("libastar JPS (Finder.find)", method="jps"),
           Ours("libastar A* corner='always' (Finder.find)", rule="always")]
    missing = []
    if skgraph:
        out += [SkimageMCP(), SkimageRoute()]
    else:
        missing.append("scikit-image")
    if csgraph:
        out += [Scipy(), Scipy(oracle=True)]
        if nx:
            out += [Networkx(astar=True), Networkx(astar=False)]
        else:
            missing.append("networkx")
        if igraph:
            out.append(Igraph())
        else:
            missing.append("igraph")
    else:
        missing.append("scipy (and with it networkx, igraph)")
    return out, missing


# ---- correctness -------------------------------------------------------------

def check_path(free, cells, s, g, rule):
    """(cost, None) for a legal path from s to g under rule, else (None, why)."""
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    if len(cells) == 0:
        return None, "no path"
    if tuple(cells[0]) != tuple(s) or tuple(cells[-1]) != tuple(g):
        return None, f"runs {tuple(cells[0])} -> {tuple(cells[-1])}"
    x, y = cells[:, 0], cells[:, 1]
    h, w = free.shape
    if (x < 0).any() or (y < 0).any() or (x >= w).any() or (y >= h).any() or not free[y, x].all():
        return None, "a cell is blocked or outside"
    d = np.diff(cells, axis=0)
    if (np.abs(d) > 1).any() or (np.abs(d).sum(axis=1) == 0).any():
        return None, "a step is not a move to a neighbour"
    diag = (d[:, 0] != 0) & (d[:, 1] != 0)
    if rule == "no-cut" and diag.any():
        px, py, dx, dy = x[:-1][diag], y[:-1][diag], d[diag, 0], d[diag, 1]
        if not (free[py, px + dx] & free[py + dy, px]).all():
            return None, "a diagonal step cuts a corner"
    n_diag = int(diag.sum())
    return math.fsum([len(d) - n_diag, SQRT2 * n_diag]), None


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


# ---- measuring ---------------------------------------------------------------

def timed(fn, *a):
    t0 = time.perf_counter()
    r = fn(*a)
    return time.perf_counter() - t0, r


def reference(m):
    """libastar A*'s cost under each rule for every query (untimed): what every
    library is checked against; a query without a path is dropped."""
    finders = {r: libastar.Finder(m.grid, "astar", **({} if r == "no-cut" else {"corner": r}))
               for r in ("no-cut", "always")}
    kept, ref = [], {"no-cut": [], "always": []}
    for q in m.queries:
        try:
            costs = {r: f.find(q[0], q[1]).cost for r, f in finders.items()}
        except libastar.NoPathError:
            continue
        kept.append(q)
        for r in ref:
            ref[r].append(costs[r])
    m.queries, m.ref = kept, ref


def run_map(m, runners, rounds, problems, log, slow=2.0):
    """Times every runner on its subset of the map's queries, checks every
    path of the first round. A runner whose queries take over `slow` seconds
    (median) runs one round only: its noise is small beside its time."""
    reference(m)
    once = set()
    idx = {r.name: spread(m.queries, m.subsets.get(r.group, 0)) for r in runners}
    times = {r.name: {i: [] for i in idx[r.name]} for r in runners}
    prep, ok = {}, {}
    for r in runners:
        if not idx[r.name]:
            continue
        try:
            prep[r.name], _ = timed(r.prepare, m)
        except MemoryError:
            log(f"  {r.name}: out of memory preparing it, skipped")
            idx[r.name] = []
    for rnd in range(rounds):
        for r in runners:
            if not idx[r.name] or r.name in once:
                continue
            gc.collect()
            bad = 0
            for i in idx[r.name]:
                s, g, opt = m.queries[i]
                oracle = getattr(r, "oracle", False)
                extra = {"limit": m.ref[r.rule][i] * (1 + 1e-9)} if oracle else {}
                dt, raw = timed(lambda: r.query(s, g, **extra))
                times[r.name][i].append(dt)
                if rnd:
                    continue
                cost, why = check_path(m.free, r.cells(raw), s, g, r.rule)
                ref = m.ref[r.rule][i]
                own = r.cost(raw)
                if why is None and not close(cost, ref, REL_TOL):
                    why = f"cost {cost!r}, libastar A* ({r.rule}) {ref!r}"
                if why is None and own is not None and not close(own, cost, REL_TOL):
                    why = f"reports cost {own!r}, its path costs {cost!r}"
                if why is None and r.ours and r.rule == "no-cut" and opt is not None \
                        and not close(cost, opt, SCEN_TOL):
                    why = f"cost {cost!r}, the scenario says {opt!r}"
                if why:
                    bad += 1
                    problems.append(f"{m.name} query {i} {s}->{g}: {r.name}: {why}")
                    log(f"  MISMATCH {problems[-1]}")
            if rnd == 0:
                ok[r.name] = bad == 0
                if statistics.median(t[0] for t in times[r.name].values()) > slow:
                    once.add(r.name)
        log(f"  round {rnd + 1}/{rounds} done")
    med = {name: {i: statistics.median(ts) for i, ts in per.items()} for name, per in times.items()}
    return idx, med, prep, ok, once


def parallelism(threads=2, rounds=3, size=1 << 21):
    """How much faster `threads` threads run a GIL-free NumPy workload (a
    sort) than one: what the machine gives this process right now, the
    ceiling of the batch figures."""
    data = np.random.default_rng(SEED).random(size)
    work = [data.copy() for _ in range(2 * threads)]

    def sort(a):
        np.sort(a, kind="quicksort")
    out = []
    for _ in range(rounds):
        one, _ = timed(lambda: [sort(a) for a in work])
        pool = [threading.Thread(target=lambda k=k: [sort(a) for a in work[k::threads]])
                for k in range(threads)]
        t0 = time.perf_counter()
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        out.append(one / (time.perf_counter() - t0))
    return statistics.median(out)


def run_batch(m, rounds, threads=2):
    """Seconds (median over rounds) for all the map's queries: a loop of
    Finder.find, find_many(threads=2) when present, and two Python threads
    taking the next query in turn, each with its own Workspace made and
    warmed up outside the timing (a thread's first search allocates its
    workspace: on a large map that is most of a query's time)."""
    f = libastar.Finder(m.grid, "astar")
    starts = [q[0] for q in m.queries]
    goals = [q[1] for q in m.queries]
    ref = m.ref["no-cut"]
    res = {"loop": [], "find_many": [], "python threads": []}
    has_many = hasattr(f, "find_many")
    problems = []
    spaces = [libastar.Workspace() for _ in range(threads)]
    for ws in spaces:
        f.find(starts[0], goals[0], workspace=ws)
    if has_many:   # its workers' workspaces, kept for this thread, warmed up too
        f.find_many(starts[:threads], goals[:threads], threads=threads)

    def python_threads():
        nxt = itertools.count()
        out = [None] * len(starts)

        def work(ws):
            for i in iter(nxt.__next__, None):
                if i >= len(starts):
                    return
                out[i] = f.find(starts[i], goals[i], workspace=ws)
        pool = [threading.Thread(target=work, args=(ws,)) for ws in spaces]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        return out

    for rnd in range(rounds):
        gc.collect()
        dt, paths = timed(lambda: [f.find(s, g) for s, g in zip(starts, goals)])
        res["loop"].append(dt)
        if has_many:
            dt, paths = timed(lambda: f.find_many(starts, goals, threads=threads))
            res["find_many"].append(dt)
            costs = [p.cost for p in paths]
            if rnd == 0 and (len(costs) != len(ref)
                             or not all(close(a, b, REL_TOL) for a, b in zip(costs, ref))):
                problems.append(f"{m.name}: find_many's costs differ from Finder.find's")
        dt, paths = timed(python_threads)
        res["python threads"].append(dt)
        if rnd == 0 and not all(close(p.cost, c, REL_TOL) for p, c in zip(paths, ref)):
            problems.append(f"{m.name}: the threads' costs differ from Finder.find's")
    return {k: (statistics.median(v) if v else None) for k, v in res.items()}, problems


# ---- reporting ----------------------------------------------------------------

def fmt_ms(s):
    if s is None:
        return "n/a"
    ms = 1000 * s
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def summarize(m, runners, idx, med, prep, ok, once, rounds):
    """Rows: name, queries, median ms, libastar A* median ms on the same
    queries, ratio, preparation s, check."""
    base = med.get("libastar A* (Finder.find)", {})
    base_always = med.get("libastar A* corner='always' (Finder.find)", {})
    rows = []
    for r in runners:
        ids = idx.get(r.name) or []
        if not ids:
            continue
        mine = statistics.median(med[r.name][i] for i in ids)
        ref_tab = base_always if r.rule == "always" else base
        same = all(i in ref_tab for i in ids)
        ours = statistics.median(ref_tab[i] for i in ids) if same else None
        # the median of the per-query ratios: the subsets are small, and a
        # ratio of medians would compare different queries' times
        ratio = statistics.median(med[r.name][i] / ref_tab[i] for i in ids) if same else None
        rows.append({"name": r.name, "rule": r.rule, "queries": len(ids), "median_s": mine,
                     "ours_s": ours, "ratio": ratio,
                     "prep_s": prep.get(r.name), "ok": ok.get(r.name),
                     "rounds": 1 if r.name in once else rounds})
    return rows


def print_table(m, rows, batch, out):
    out(f"\n{m.name}: {m.about}")
    if not rows:
        out("  (no library timed)")
    else:
        out(f"  {'library':<46} {'rule':<7} {'n':>4} {'rounds':>6} {'median ms':>10} {'A* ms':>8} "
            f"{'ratio':>8} {'check':>6}")
    for r in rows:
        ratio = "--" if r["name"].startswith("libastar A*") else (
            f"{r['ratio']:.2f}x" if r["ratio"] else "n/a")
        out(f"  {r['name']:<46} {r['rule']:<7} {r['queries']:>4} {r['rounds']:>6} "
            f"{fmt_ms(r['median_s']):>10} {fmt_ms(r['ours_s']):>8} {ratio:>8} "
            f"{'ok' if r['ok'] else 'FAIL':>6}")
    if m.note and rows:
        out(f"  {m.note}")
    cut = [(a - b) / a for a, b in zip(m.ref["no-cut"], m.ref["always"]) if a > 0]
    if cut:
        out(f"  corner-cutting paths (corner='always', scikit-image's rule) are shorter than the "
            f"Moving AI ones by {100 * statistics.median(cut):.2f} % (median; max "
            f"{100 * max(cut):.2f} %) on these queries")
    for (name, what), s in PREP.items():
        if name == m.name:
            out(f"  prepared once: {what} {s:.2f} s")
    if batch:
        loop, many, thr = batch["loop"], batch["find_many"], batch["python threads"]
        n = len(m.queries)
        out(f"  batch of {n} A* queries: loop {loop:.3f} s; find_many(threads=2) "
            + (f"{many:.3f} s = {loop / many:.2f}x" if many else "n/a (no Finder.find_many)")
            + f"; 2 Python threads {thr:.3f} s = {loop / thr:.2f}x")


def markdown(maps_rows):
    lines = ["| map | library (rule) | queries | median ms/query "
             "| libastar A* ms (same queries) | peer / libastar |",
             "|---|---|---:|---:|---:|---:|"]
    for m, rows, batch in maps_rows:
        for r in rows:
            x = r["ratio"]
            ratio = ("1" if r["name"].startswith("libastar A*") else "n/a" if not x else
                     f"{x:.0f}x" if x >= 100 else f"{x:.1f}x" if x >= 10 else f"{x:.2f}x")
            lines.append(f"| {m.name} | {r['name']} ({r['rule']}) | {r['queries']} | "
                         f"{fmt_ms(r['median_s'])} | {fmt_ms(r['ours_s'])} | {ratio} |")
    return "\n".join(lines)


# ---- main ----------------------------------------------------------------------

# How many queries each kind of runner gets (Runner.group), full and --quick.
QUICK = dict(ours=6, scipy=3, oracle=3, skimage=3, route=2, nx=2, igraph=3)
SUBSETS = {
    "random1000": dict(ours=60, scipy=10, oracle=10, skimage=10, route=5, nx=3, igraph=10),
    "den520d": dict(ours=222, scipy=45, oracle=45, skimage=45, route=15, nx=10, igraph=45),
    # SciPy's limit= only slows it down here; networkx and igraph would need
    # tens of GB for 16.7 M nodes (the map's note says so)
    "open4096": dict(ours=40, scipy=1, skimage=1, route=1),
}


def build_maps(args, log):
    folder = pathlib.Path(args.movingai or os.environ.get("ASTAR_MOVINGAI")
                          or ROOT.parent / "shared" / "bench" / "movingai")
    q = args.quick
    maps = []
    for name in args.maps.split(","):
        t0 = time.perf_counter()
        sub = dict(QUICK) if q else SUBSETS.get(name)
        if name == "random1000":
            maps.append(map_random(64 if q else 1000, 0.2, 6 if q else 60, sub))
        elif name == "den520d":
            if not (folder / "dao" / "den520d.map.scen").exists():
                log(f"den520d: skipped, no Moving AI data at {folder} (--movingai)")
                continue
            if q:
                sub["nx"] = 1
            maps.append(map_movingai(folder, "den520d", 6 if q else 222, sub))
        elif name == "open4096":
            maps.append(map_open(128 if q else 4096, 4 if q else 400, (4, 16) if q else (4, 64),
                                 4 if q else 40, sub, 32 if q else 1000))
            if not q:
                maps[-1].note = ("not run here: networkx and igraph (16.7 M nodes as Python "
                                 "objects: tens of GB), SciPy with limit= (slower than without)")
        else:
            sys.exit(f"--maps: unknown map {name!r} (random1000, den520d, open4096)")
        log(f"{maps[-1].name}: made in {time.perf_counter() - t0:.1f} s")
    return maps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="small maps (64x64, 256x256), a few queries, 1 round: a smoke test")
    ap.add_argument("--rounds", type=int, default=None, help="timing rounds (3; --quick 1)")
    ap.add_argument("--maps", default="random1000,den520d,open4096")
    ap.add_argument("--movingai", help="the Moving AI folder (shared/bench/movingai)")
    ap.add_argument("--markdown", action="store_true", help="also print the guide's table")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--batch-only", action="store_true",
                    help="only the batch lines (loop, find_many, threads), no peers")
    args = ap.parse_args(argv)
    rounds = args.rounds or (1 if args.quick else 3)
    if rounds < 1:
        ap.error("--rounds: at least 1")

    def log(s):
        print(s, file=sys.stderr, flush=True)

    t_start = time.perf_counter()
    versions = {"python": sys.version.split()[0], "numpy": np.__version__,
                "libastar": getattr(libastar, "__version__", "?")}
    for label, mod in (("scipy", "scipy"), ("scikit-image", "skimage"),
                       ("networkx", "networkx"), ("igraph", "igraph")):
        mod = optional(mod)
        versions[label] = getattr(mod, "__version__", "missing") if mod else "missing"
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"machine: {os.cpu_count()} CPUs, load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f"; {rounds} round(s)")
    runners, missing = runners_for(args)
    if args.batch_only:
        runners, missing = [], []
    if missing:
        print("not installed, not measured: " + ", ".join(missing))

    par = parallelism(rounds=1, size=1 << 18) if args.quick else parallelism()
    print(f"machine check: 2 threads sort with NumPy (no GIL) {par:.2f}x as fast as one "
          "(2.0 on an idle 2-core machine): the ceiling of the batch lines")
    problems, report = [], []
    for m in build_maps(args, log):
        log(f"{m.name}: {len(m.queries)} queries")
        idx, med, prep, ok, once = run_map(m, runners, rounds, problems, log)
        rows = summarize(m, runners, idx, med, prep, ok, once, rounds)
        batch, bp = run_batch(m, rounds)
        problems += bp
        print_table(m, rows, batch, print)
        report.append((m, rows, batch))
        _shared.clear()
        gc.collect()
    print("\nload average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
          + f"; whole run {time.perf_counter() - t_start:.0f} s")
    if args.markdown:
        print("\n" + markdown(report))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"versions": versions, "rounds": rounds, "problems": problems,
                       "parallelism": par,
                       "maps": [{"name": m.name, "about": m.about, "queries": len(m.queries),
                                 "rows": rows, "batch": batch,
                                 "prep": {w: s for (n, w), s in PREP.items() if n == m.name}}
                                for m, rows, batch in report]}, f, indent=1)
    if problems:
        print(f"\n{len(problems)} MISMATCH(ES):")
        for p in problems:
            print("  " + p)
        return 1
    print("\ncorrectness: every path checked, every cost agrees "
          f"(relative {REL_TOL:g}; scenario lengths {SCEN_TOL:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
