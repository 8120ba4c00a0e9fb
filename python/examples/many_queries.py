#!/usr/bin/env python3
"""many_queries.py -- many queries on all cores: Finder.find_many runs a
batch on worker threads with the GIL released, each result identical to
the single query's, in query order.

    PYTHONPATH=build/python/lib python3 python/examples/many_queries.py [map] [threads]
"""
import os
import sys
import threading
import time

import numpy as np

import libastar

here = os.path.dirname(os.path.abspath(__file__))
map_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    here, "..", "..", "tests", "data", "small", "cave64.map")
threads = int(sys.argv[2]) if len(sys.argv) > 2 else None     # None: one per core
grid = libastar.Grid.from_movingai(map_path)

# Queries as (N, 2) arrays of (x, y) cells: random passable cells.
rng = np.random.default_rng(1)
free = np.argwhere(grid.to_numpy())[:, ::-1]                   # (row, col) -> (x, y)
starts = free[rng.integers(len(free), size=2000)]
goals = free[rng.integers(len(free), size=2000)]

finder = libastar.Finder(grid, "jps")

t = time.perf_counter()
one_by_one = []
for s, g in zip(starts, goals):
    try:
        one_by_one.append(finder.find(s, g).cost)
    except libastar.NoPathError:
        one_by_one.append(np.inf)
loop = time.perf_counter() - t

t = time.perf_counter()
paths = finder.find_many(starts, goals, threads=threads)       # list of Path, in order
batch = time.perf_counter() - t
costs = finder.find_many(starts, goals, threads=threads, costs_only=True)   # float64, inf: none

assert np.array_equal(costs, one_by_one)
assert all(p.cost == c for p, c in zip(paths, one_by_one) if p)
print(f"{len(starts)} queries: a loop of find() {loop * 1e3:.1f} ms, find_many on "
      f"{finder.threads_used} threads {batch * 1e3:.1f} ms (x{loop / batch:.2f})")
print(f"{sum(1 for p in paths if not p)} without a path (status {paths[0].status.name} ...)")

# The GIL is released for the whole batch: other Python threads run meanwhile.
ticks = []
worker = threading.Thread(target=finder.find_many, args=(starts, goals))
worker.start()
while worker.is_alive():
    ticks.append(time.perf_counter())
    time.sleep(0.001)
worker.join()
print(f"the main thread ran {len(ticks)} times during the batch")

# Your own Batch: its workers' workspaces are yours to keep or drop.
pool = libastar.Batch(2)
finder.find_many(starts[:100], goals[:100], batch=pool)
print(f"{pool!r}")
del pool                      # frees them (libastar.release_batches(): the one kept per thread)
