"""Memory: the workspaces searches use, and how to give their memory back.

Run: PYTHONPATH=build/python/lib /usr/bin/python3 python/examples/memory.py
"""
from __future__ import annotations

import threading

import libastar

big = libastar.Grid(2048, 2048)

# A search without workspace= uses the calling thread's hidden workspace,
# which grows to the largest grid searched (about 38 bytes a cell) and keeps
# that memory for the next search.
big.find_path((0, 0), (2047, 2047))
print(f"hidden workspace: {libastar.thread_workspace().nbytes / 1e6:.0f} MB")

# Give it back (the next search grows it again).
freed = libastar.release_memory()
print(f"release_memory() freed {freed / 1e6:.0f} MB; "
      f"now {libastar.thread_workspace().nbytes} bytes")

# Or own the workspace: pass it to every search, shrink or close it when done.
ws = libastar.Workspace()
small = libastar.Grid(64, 64)
for goal in [(63, 0), (63, 63), (0, 63)]:
    small.find_path((0, 0), goal, workspace=ws)
print(f"own workspace after 64x64 searches: {ws.nbytes} bytes")
big.find_path((0, 0), (2047, 0), workspace=ws)
print(f"after one 2048x2048 search: {ws.nbytes / 1e6:.0f} MB; shrink() frees "
      f"{ws.shrink() / 1e6:.0f} MB")

# A with-block closes it at the end; each thread needs its own.
def worker(results: list[float]) -> None:
    with libastar.Workspace() as mine:
        finder = libastar.Finder(big, "jps")
        results.append(finder.find((0, 0), (2047, 1000), workspace=mine).cost)


results: list[float] = []
threads = [threading.Thread(target=worker, args=(results,)) for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("two threads, their own workspaces, closed after:", [round(c, 1) for c in results])
