#!/usr/bin/env python3
"""movingai.py -- a Moving AI map and its scenario: every query solved with
JPS+ (precomputed once, saved, loaded back) and checked against the optimal
length the benchmark gives.

    PYTHONPATH=build/python/lib python3 python/examples/movingai.py [MAP [SCEN]]

Without arguments it uses the repository's tests/data/small/cave64.map.
"""
import os
import sys
import tempfile
import time

import libastar

here = os.path.dirname(os.path.abspath(__file__))
map_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    here, "..", "..", "tests", "data", "small", "cave64.map")
scen_path = sys.argv[2] if len(sys.argv) > 2 else map_path + ".scen"

grid = libastar.Grid.from_movingai(map_path)
queries = libastar.load_scen(scen_path)
print(f"{os.path.basename(map_path)}: {grid.width} x {grid.height}, "
      f"{grid.count_passable()} passable cells, {len(queries)} queries")

t0 = time.perf_counter()
pre = grid.jps_plus()
print(f"JPS+ precomputed in {1000 * (time.perf_counter() - t0):.1f} ms ({pre.memory} bytes)")
with tempfile.TemporaryDirectory() as tmp:
    saved = os.path.join(tmp, "map.jpp")
    pre.save(saved)
    pre = libastar.JpsPlus.load(grid, saved)  # checks the file belongs to this grid

worst = 0.0
expanded = 0
t0 = time.perf_counter()
for q in queries:
    p = pre.find_path(q.start, q.goal)
    worst = max(worst, abs(p.cost - q.optimal_length) / max(q.optimal_length, 1.0))
    expanded += p.expanded
seconds = time.perf_counter() - t0
print(f"{len(queries)} queries in {seconds:.3f} s ({1e6 * seconds / len(queries):.1f} us each, "
      f"{expanded / len(queries):.1f} jump points expanded on average)")
print(f"largest relative error against the optimal lengths: {worst:.2e}")
if worst > 1e-5:
    sys.exit("mismatch")
