#!/usr/bin/env python3
"""fields.py -- distance and flow fields: the cost to the nearest exit and
the next step for every cell of a map at once, as NumPy arrays; hundreds
of units then move without searching.

    PYTHONPATH=build/python/lib python3 python/examples/fields.py
"""
import pathlib

import numpy as np

import libastar

root = pathlib.Path(__file__).resolve().parents[2]
grid = libastar.Grid.from_movingai(root / "tests" / "data" / "small" / "cave64.map")

exits = [(5, 5), (50, 50)]                      # cells (x, y); arrays are [y, x]
field = grid.field(exits)
cost = field.cost                               # float64 (64, 64), inf = unreachable
print(f"{np.isfinite(cost).sum()} cells reach an exit; the farthest costs "
      f"{cost[np.isfinite(cost)].max():.2f}; {field.expanded} cells settled")

dist = grid.distance_field(exits)               # the same costs alone
assert np.array_equal(dist, cost)
step = grid.flow_field(exits)                   # (64, 64, 2): the next cell of each cell
print("next cell of (30, 20):", tuple(step[20, 30]))

# 200 units, one step per frame each, all read from the arrays.
rng = np.random.default_rng(0)
free = np.argwhere(np.isfinite(cost))[:, ::-1]      # reachable (x, y) cells
units = free[rng.choice(len(free), 200)]
frames = 0
while not all(tuple(u) in exits for u in units.tolist()):
    nxt = step[units[:, 1], units[:, 0]]
    moving = nxt[:, 0] >= 0
    units[moving] = nxt[moving]
    frames += 1
print(f"200 units reached the exits in {frames} frames, no search run")

# One unit's whole path, and the same cost as a search:
path = field.path((30, 20))
print(f"path from (30, 20): {len(path)} cells, cost {cost[20, 30]:.2f} "
      f"(find_path to its exit: {grid.find_path((30, 20), tuple(path[-1])).cost:.2f})")
