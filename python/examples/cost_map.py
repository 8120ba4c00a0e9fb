"""Cost maps: terrain costs from a float array, with the wall said once.

Run: PYTHONPATH=build/python/lib /usr/bin/python3 python/examples/cost_map.py
"""
from __future__ import annotations

import numpy as np

import libastar

rng = np.random.default_rng(7)
rows, cols = 64, 96
# Entering a cell costs the move's cost (1 straight, sqrt 2 diagonal) times
# the cell's value: 1 on the road, 2..5 off it, inf a wall.
cost = 1.0 + 4.0 * rng.random((rows, cols))
cost[32, :] = 1.0                          # a road across the map
cost[10:54, 60] = np.inf                   # a wall with a gap at the ends

# wall="inf" (the default): inf is a wall, and 0 is an error, as is NaN.
grid = libastar.Grid.from_costs(cost, wall="inf", order="rc")
path = grid.find_path((0, 0), (63, 95))
r, c = path.cells[:, 0], path.cells[:, 1]
print(path, "- on the road for", int((r == 32).sum()), "cells")
assert np.isfinite(cost[r, c]).all()
assert grid.path_cost(path.cells) == path.cost

# Some arrays mark walls with 0 instead: say so once with wall="zero".
zero_walls = np.where(np.isinf(cost), 0.0, cost)
same = libastar.Grid.from_costs(zero_walls, wall="zero", order="rc")
assert same.find_path((0, 0), (63, 95)).cost == path.cost

# The other convention given by mistake is an error naming the cell, not a
# silently different map.
try:
    libastar.Grid.from_costs(zero_walls)               # wall="inf", but 0s
except libastar.InvalidArgumentError as e:
    print("refused:", e.detail)

# NaN (no data) is never read as a wall or as a cost: decide what it means.
holes = cost.copy()
holes[0, 5] = np.nan
try:
    libastar.Grid.from_costs(holes)
except libastar.InvalidArgumentError as e:
    print("refused:", e.detail)
grid = libastar.Grid.from_costs(np.where(np.isnan(holes), np.inf, holes), order="rc")

# Cost-aware searches: A* and Dijkstra honour terrain; JPS needs uniform costs.
print("jps:", grid.unsupported_reason(algo="jps"))
print("dijkstra cost:", round(grid.find_path((0, 0), (63, 95), algo="dijkstra").cost, 3))
