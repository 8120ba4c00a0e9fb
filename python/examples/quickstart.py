#!/usr/bin/env python3
"""quickstart.py -- a NumPy map, a path, every algorithm, and what failures look like.

    PYTHONPATH=build/python/lib python3 python/examples/quickstart.py
"""
import numpy as np

import libastar

# The map as an array indexed [y, x]: terrain costs, 0 = wall.
costs = np.ones((12, 30))
costs[0:9, 10] = 0          # a wall with a gap at the bottom
costs[3:12, 20] = 0         # a wall with a gap at the top
costs[5:8, 12:18] = 5       # a swamp: entering a swamp cell costs 5
grid = libastar.Grid.from_numpy(costs)
print(grid)

start, goal = (1, 1), (28, 10)
path = grid.find_path(start, goal)
print(f"A*: {len(path)} cells, cost {path.cost:.3f}, {path.expanded} cells expanded")

# Draw it: '#' wall, '~' swamp, '*' path.
picture = np.where(costs == 0, "#", np.where(costs > 1, "~", "."))
picture[path.cells[:, 1], path.cells[:, 0]] = "*"
print("\n".join("".join(row) for row in picture))

# The same query with the other algorithms (JPS needs uniform costs: say why).
for algo in ("dijkstra", "bidir", "greedy", "jps"):
    try:
        p = grid.find_path(start, goal, algo=algo)
        print(f"{algo:9} cost {p.cost:8.3f}  expanded {p.expanded:5}")
    except libastar.UnsupportedError as e:
        print(f"{algo:9} unsupported: {e.detail}")

# Without the swamp every algorithm runs; JPS expands a handful of jump points.
flat = libastar.Grid.from_numpy(costs > 0)
for algo in ("astar", "jps", "jps-plus"):
    p = flat.find_path(start, goal, algo=algo)
    print(f"{algo:9} cost {p.cost:8.3f}  expanded {p.expanded:5}  (uniform costs)")

# Failures are exceptions carrying the library's status.
flat.set_passable(10, 10, False)  # close the first gap...
flat.set_passable(10, 11, False)
flat.set_passable(10, 9, False)
try:
    flat.find_path(start, goal)
except libastar.NoPathError as e:
    print(f"{e.status.name} ({e.code}): {e}; {e.path.expanded if e.path else 0} cells searched")
# ...or ask for the path to the closest point reached instead.
p = flat.find_path(start, goal, partial=True)
print(f"partial path to {p.end} ({p.status.name}, because {p.cause.name})")
