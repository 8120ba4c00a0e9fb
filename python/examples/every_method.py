#!/usr/bin/env python3
"""every_method.py -- every search method of libastar through one query
API, libastar.Finder: prepared once, then asked any number of times. Grids,
hex grids, graphs from SciPy and networkx, and graphs of Python callbacks.

    PYTHONPATH=build/python/lib python3 python/examples/every_method.py [map]
"""
import os
import sys
import tempfile

import libastar

here = os.path.dirname(os.path.abspath(__file__))
map_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    here, "..", "..", "tests", "data", "small", "cave64.map")
grid = libastar.Grid.from_movingai(map_path)
start, goal = (5, 5), (50, 50)

# 1. Every method of the library's table that searches a square grid.
for m in libastar.methods():
    if not m.grid:
        continue
    finder = libastar.Finder(grid, m.name)          # precomputations built here
    try:
        path = finder.find(start, goal)
    except libastar.NoPathError:                    # beam and bandwidth drop nodes:
        print(f"{m.name:11s} missed the path")       # they may miss a path
        continue
    kind = "optimal" if m.optimal else "bounded" if m.bounded else "any-angle" \
        if m.any_angle else "fast"
    print(f"{m.name:11s} {kind:9s} cost {path.cost:8.3f}  {len(path):3d} points  "
          f"work {path.work}")

# 2. Preparation objects: build once, save, load (checked against the grid).
with tempfile.TemporaryDirectory() as tmp:
    files = {key: os.path.join(tmp, f"{key}.bin") for key in ("cpd", "hpa", "landmarks", "jps")}
    libastar.Cpd(grid).save(files["cpd"])          # or data = Cpd(grid).save() -> bytes
    libastar.Hpa(grid).save(files["hpa"])
    libastar.Landmarks(grid).save(files["landmarks"])
    libastar.JpsPlus(grid).save(files["jps"])
    # Loaded (from a file or bytes), each checked against the grid.
    for key, finder in (
            ("cpd", libastar.Finder(grid, "cpd", cpd=libastar.Cpd.load(grid, files["cpd"]))),
            ("hpa", libastar.Finder(grid, "hpa", hpa=libastar.Hpa.load(grid, files["hpa"]))),
            ("landmarks", libastar.Finder(
                grid, "astar", landmarks=libastar.Landmarks.load(grid, files["landmarks"]))),
            ("jps", libastar.Finder(
                grid, "jps-plus", jps_plus=libastar.JpsPlus.load(grid, files["jps"])))):
        cost = finder.find(start, goal).cost
        print(f"{key:9s} {os.path.getsize(files[key]):7d} bytes saved, loaded: cost {cost:.3f}")
    other = grid.copy()
    other.set_passable(*start, False)
    try:
        libastar.Cpd.load(other, files["cpd"])
    except libastar.MismatchError as e:
        print("another grid:", type(e).__name__)

# 3. The engine's methods on a hex grid (offset (x, y) cells).
hexes = libastar.HexGrid(12, 8, "pointy")
for y in range(1, 7):
    hexes.set_passable(6, y, False)
for method in ("astar", "bidirectional", "dijkstra"):
    p = libastar.Finder(hexes, method).find((0, 4), (11, 4))
    print(f"hex {method:13s} cost {p.cost:.1f}, {len(p)} cells")

# 4. A graph from a SciPy sparse matrix (CSR) and from networkx.
try:
    import scipy.sparse  # type: ignore[import]  # (scipy ships no type information)
    roads = scipy.sparse.csr_matrix(([4.0, 1.0, 1.0, 1.0], ([0, 0, 1, 2], [3, 1, 2, 3])),
                                    shape=(4, 4))
    g = libastar.Graph.from_csr(roads)                  # entry [i, j]: arc i -> j
    p = libastar.Finder(g, "dijkstra").find(0, 3)
    assert isinstance(p, libastar.NodePath)             # a graph's path: its nodes
    print(f"CSR graph: {list(p.nodes)} cost {p.cost}")   # [0, 1, 2, 3] cost 3.0
except ImportError:
    print("CSR graph: scipy is not installed")
try:
    import networkx  # type: ignore[import]  # (nor does networkx)
    city = networkx.Graph()
    city.add_edge("home", "shop", weight=2.0)
    city.add_edge("shop", "work", weight=2.0)
    city.add_edge("home", "work", weight=5.0)
    g = libastar.Graph.from_networkx(city)              # node names both ways
    p = libastar.Finder(g, "bidir").find("home", "work")
    assert isinstance(p, libastar.NodePath)
    print(f"networkx graph: {p.nodes} cost {p.cost}")   # ['home', 'shop', 'work'] 4.0
except ImportError:
    print("networkx graph: networkx is not installed")

# 5. A graph of Python callbacks: nodes 0 .. n-1 on a ring, chords every 10.
n = 100


def successors(i):
    arcs = [((i + 1) % n, 1.0), ((i - 1) % n, 1.0)]
    if i % 10 == 0:
        arcs.append(((i + 50) % n, 3.0))
    return arcs


ring = libastar.CallbackSpace(n, successors, predecessors=successors)
for method in ("astar", "bidir", "fringe"):
    p = libastar.Finder(ring, method).find(0, 55)
    print(f"callbacks {method:6s} cost {p.cost}, {len(p)} nodes")
