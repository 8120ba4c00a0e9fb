#!/usr/bin/env python3
"""navmesh.py -- navigation meshes (libastar.mesh): the mesh of a cave map,
Polyanya's optimal paths over it against Anya's on the grid (the same
lengths: both are the Euclidean shortest path under the same corner rule),
the funnel's (A* over the polygons, string-pulled) and how much longer they
are, an agent radius, and an obstacle added and removed. With a mesh file
(Polyanya's format) as argument, its figures and a few queries instead.

    PYTHONPATH=build/python/lib python3 python/examples/navmesh.py
    PYTHONPATH=build/python/lib python3 python/examples/navmesh.py MESH
"""
import pathlib
import sys
import time

import numpy as np

import libastar
from libastar import mesh

root = pathlib.Path(__file__).resolve().parents[2]
if len(sys.argv) > 1:
    m = mesh.Mesh.read(sys.argv[1])
    (x0, y0), (x1, y1) = m.bounds
    print(f"{sys.argv[1]}: {m.vertex_count} vertices, {len(m)} polygons, area {m.area:.6g}")
    f = libastar.Finder(m, "polyanya")
    rng = np.random.default_rng(1)
    for _ in range(5):
        s, g = (tuple(rng.uniform((x0, y0), (x1, y1))) for _ in range(2))
        try:
            p = f.find(s, g)
            print(f"  ({s[0]:.1f}, {s[1]:.1f}) -> ({g[0]:.1f}, {g[1]:.1f}): {p.cost:.4f}, "
                  f"{len(p)} points")
        except libastar.AstarError as e:
            print(f"  ({s[0]:.1f}, {s[1]:.1f}) -> ({g[0]:.1f}, {g[1]:.1f}): {e.status.name}")
    sys.exit(0)

grid = libastar.Grid.from_movingai(root / "tests" / "data" / "small" / "cave64.map")
t0 = time.perf_counter()
nav = mesh.NavMesh(grid)
ms = (time.perf_counter() - t0) * 1e3
s = nav.stats
print(f"cave64.map: {grid.count_passable()} free cells -> {s.polygons} convex polygons "
      f"({s.free_triangles} triangles merged) in {ms:.1f} ms; area {nav.mesh.area:g}")

polyanya = libastar.Finder(nav, "polyanya")
funnel = libastar.Finder(nav, "funnel")
anya = libastar.Finder(grid, "anya")
free = np.argwhere(grid.to_numpy())[:, ::-1]   # (x, y) of the free cells
rng = np.random.default_rng(7)
worst, ratios, n = 0.0, [], 0
while n < 200:
    a, b = free[rng.integers(len(free), size=2)]
    try:
        want = anya.find(a, b).cost
    except libastar.NoPathError:
        continue
    p = polyanya.find(a + 0.5, b + 0.5)      # the cells' centres
    worst = max(worst, abs(p.cost - want))
    ratios.append(funnel.find(a + 0.5, b + 0.5).cost / p.cost)
    n += 1
print(f"{n} queries: Polyanya = Anya to {worst:.1e}; the funnel {100 * (np.mean(ratios) - 1):.2f}% "
      f"longer on average, {100 * (max(ratios) - 1):.2f}% at most")

a, b = free[0] + 0.5, free[-1] + 0.5
p = polyanya.find(a, b)
print(f"({a[0]}, {a[1]}) -> ({b[0]}, {b[1]}): {p.cost:.4f} over {len(p)} points")
r = libastar.Finder(mesh.NavMesh(grid, radius=0.4), "polyanya").find(a, b)
print(f"  with an agent radius of 0.4: {r.cost:.4f} (keeps 0.4 from every wall)")
assert p.points is not None   # a mesh finder's path is points
mid = p.points[len(p) // 2]
box = [(mid[0] - 1, mid[1] - 1), (mid[0] + 1, mid[1] - 1), (mid[0] + 1, mid[1] + 1),
       (mid[0] - 1, mid[1] + 1)]
oid = nav.add_obstacle(box)
print(f"  a 2 x 2 obstacle on its way: {nav.stats.removed} polygons rebuilt into "
      f"{nav.stats.added}; now {polyanya.find(a, b).cost:.4f}")
nav.remove_obstacle(oid)
print(f"  removed again: {polyanya.find(a, b).cost:.4f}")
