#!/usr/bin/env python3
"""game_loop.py -- many units asking for paths, answered over frames by the
request queue under a budget of expansions per frame; a door closes while
requests are pending (running searches restart on the new map).

    PYTHONPATH=build/python/lib python3 python/examples/game_loop.py
"""
import random

import numpy as np

import libastar

rng = random.Random(1)
walls = np.zeros((64, 64), dtype=bool)
walls[32, :] = True
walls[32, 10] = walls[32, 50] = False      # two doors in a long wall
grid = libastar.Grid.from_numpy(~walls)

arrived = []


def on_path(outcome):
    """Called from queue.update() when a unit's request is answered."""
    unit = outcome.user
    if outcome.ok:
        unit["path"] = outcome.path.cells
    arrived.append((unit["name"], outcome.status.name, len(outcome.path), outcome.restarts))


queue = libastar.Queue(grid, capacity=32, auto_release=True)
free = np.argwhere(~walls)
for i in range(20):
    (sy, sx), (gy, gx) = free[rng.randrange(len(free))], free[rng.randrange(len(free))]
    unit = {"name": f"unit{i}", "path": None}
    queue.submit((int(sx), int(sy)), (int(gx), int(gy)), user=unit, callback=on_path,
                 priority=1 if i < 3 else 0)   # three officers first

frame = 0
while queue.pending:
    f = queue.update(budget=400)            # at most 400 expansions this frame
    frame += 1
    if frame == 3:
        grid.set_passable(10, 32, False)    # a door closes mid-game
    print(f"frame {frame:2}: {f.expanded:3} expansions, {f.finished} answered, "
          f"{f.pending} pending, {f.restarted} restarted")

for name, status, cells, restarts in arrived:
    print(f"{name:7} {status:8} {cells:3} cells{'  (restarted)' if restarts else ''}")
