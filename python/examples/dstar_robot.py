#!/usr/bin/env python3
"""dstar_robot.py -- a robot crossing a map it does not know: it plans with
D* Lite on what it has seen (unknown cells assumed free), walks one cell a
step, and each wall its sensor finds (radius 2) is reported to the planner,
which repairs its search instead of starting again.

    PYTHONPATH=build/python/lib python3 python/examples/dstar_robot.py
"""
import numpy as np

import libastar

# The world as it is: a wall with one door, and some boulders.
truth = np.ones((30, 40), dtype=bool)           # True = free, indexed [y, x]
truth[5:30, 20] = False
truth[5, 20:35] = False
rng = np.random.default_rng(4)
truth[rng.random(truth.shape) < 0.08] = False
truth[0:2, 0:2] = truth[28:30, 38:40] = True    # the start and the goal are free

known = libastar.Grid(40, 30)                   # what the robot knows: all free
start, goal = (0, 0), (39, 29)
robot = libastar.DStarLite(known, start, goal)
first = robot.plan()
print(f"first plan on the empty map: {len(first)} cells, cost {first.cost:.2f}")

walked, found, expanded, fresh = 0, 0, 0, 0
while robot.start != goal:
    x, y = robot.start
    # The sensor: every wall within 2 cells not known yet.
    seen = [(cx, cy) for cy in range(max(0, y - 2), min(30, y + 3))
            for cx in range(max(0, x - 2), min(40, x + 3))
            if not truth[cy, cx] and known.passable(cx, cy)]
    if seen:
        robot.block(seen)                       # edits `known` and repairs the search
        found += len(seen)
    path = robot.path()                         # replans only when something changed
    expanded += path.expanded
    fresh += known.find_path(robot.start, goal).expanded  # for comparison only
    robot.move_to(robot.next())
    walked += 1

print(f"arrived after {walked} steps; {found} walls discovered; "
      f"{expanded} vertices expanded over all replans")
print(f"a fresh A* at every step instead: {fresh} expansions ({fresh / expanded:.1f}x)")
print("planner stats:", robot.stats["total"])
