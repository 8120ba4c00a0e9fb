#!/usr/bin/env python3
"""many_agents.py -- units of several sizes and methods sharing one request
queue: islands say which orders are hopeless before any search, the queue
answers the others over frames under a budget (each with its method, unit
size, smoothing, or a prepared Finder), and paths are stored compactly.

    PYTHONPATH=build/python/lib python3 python/examples/many_agents.py
"""
import pathlib

import numpy as np

import libastar

root = pathlib.Path(__file__).resolve().parents[2]
grid = libastar.Grid.from_movingai(root / "tests" / "data" / "small" / "cave64.map")

islands = grid.islands()                        # labels array, 0 = blocked
print(f"{islands.count} islands; the largest has {islands.sizes[1:].max()} cells")
clear = grid.clearance(4)                       # uint8: the largest unit fitting at each cell
print(f"cells where a 3 x 3 unit fits: {(clear >= 3).sum()}")

rng = np.random.default_rng(2)
hpa = libastar.Finder(grid, "hpa", smooth=True)      # prepared once, queued many times
queue = libastar.Queue(grid, capacity=64, max_unit=3)
done: list = []
refused = 0
kinds: list = [dict(), dict(method="jps"), dict(unit_size=2), dict(unit_size=3),
         dict(smooth=True), dict(finder=hpa), dict(method="theta")]
for i in range(40):
    kind = kinds[i % len(kinds)]
    k = kind.get("unit_size", 1)
    fits = np.argwhere(clear >= k)[:, ::-1]     # (x, y) where a k x k unit fits
    (sx, sy), (gx, gy) = fits[rng.choice(len(fits), 2)].tolist()
    if not islands.same_island((sx, sy), (gx, gy)):
        refused += 1                            # no search can succeed: skip it
        continue
    queue.submit((sx, sy), (gx, gy), user=(i, kind), callback=done.append, **kind)
frames = queue.run(budget=2000)
done.sort(key=lambda o: o.user[0])
ok = [o for o in done if o.ok]
print(f"{len(done)} requests answered in {frames} frames ({refused} skipped by islands); "
      f"{len(ok)} paths found; the others: {[o.status.name for o in done if not o.ok]} "
      "(islands are a one-cell unit's: a big one may still find no way through)")
for o in done[:7]:
    i, kind = o.user
    print(f"  #{i} {kind.get('method', 'finder: hpa' if 'finder' in kind else 'astar')}"
          f"{', unit %d' % kind['unit_size'] if 'unit_size' in kind else ''}"
          f"{', smoothed' if 'smooth' in kind else ''}: {o.status.name}, {len(o.path)} points, "
          f"cost {o.path.cost:.2f}")

# Storing paths: a few bits a step instead of 8 bytes a cell.
cells = next(o.path.cells for o in done if o.ok and not o.user[1])
for enc in libastar.ENCODINGS:
    data = libastar.encode_path(cells, enc)
    assert np.array_equal(libastar.decode_path(data), cells)
    print(f"  {enc:10s} {len(data):4d} bytes for {len(cells)} cells")
