"""Many agents that must not collide: cooperative A* and WHCA* (space-time).

Twelve agents cross a room with a pillar in the middle, half from the left
wall to the right and half the other way. plan_cooperative plans them in
order (4-connected unit steps and waits, the MAPF benchmark's moves) against the reservations of those before it; the script checks the
plans the way the tests do (no two agents in one cell at a time, no swaps)
and compares the sum of arrival times with the lower bound, the sum of each
agent's path length alone.
"""
from __future__ import annotations

import numpy as np

import libastar

free = np.ones((12, 16), dtype=bool)
free[4:8, 6:10] = False                      # a pillar
grid = libastar.Grid.from_mask(free)         # (x, y) order, the default
starts = [(0, 2 * i) for i in range(6)] + [(15, 2 * i + 1) for i in range(6)]
goals = [(15, 2 * i) for i in range(6)] + [(0, 2 * i + 1) for i in range(6)]


def check(paths: list[np.ndarray]) -> None:
    """No vertex conflict and no swap, with every agent held at its goal."""
    horizon = max(len(p) for p in paths)
    at = [np.vstack([p, np.repeat(p[-1:], horizon - len(p), axis=0)]) for p in paths]
    for t in range(horizon):
        cells = {tuple(a[t]) for a in at}
        assert len(cells) == len(at), f"two agents share a cell at t={t}"
        if t:
            moves = {(tuple(a[t - 1]), tuple(a[t])) for a in at}
            assert not any((b, a) in moves for a, b in moves if a != b), f"a swap at t={t}"


for window in (0, 8):
    paths = libastar.plan_cooperative(grid, starts, goals, window=window, moves=4)
    check(paths)
    soc = sum(len(p) - 1 for p in paths)
    bound = sum(len(grid.find_path(s, g, moves=4)) - 1 for s, g in zip(starts, goals))
    assert soc >= bound, (soc, bound)           # waiting and detours only add
    kind = "cooperative A*" if window == 0 else f"WHCA* (window {window})"
    print(f"{kind}: {len(paths)} agents, sum of arrival times {soc} "
          f"(alone: {bound}), makespan {max(len(p) for p in paths) - 1}")
