"""Memory under control (issue 27 part 4): workspaces the user owns and can
shrink or close, and the module-level release of the hidden per-thread one."""
import os
import threading

import numpy as np
import pytest

import libastar

SIDE = 1024  # ~38 bytes a cell: ~40 MB of workspace


def rss() -> int:
    """Resident bytes of this process (Linux), else None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


@pytest.fixture(scope="module")
def big():
    return libastar.Grid(SIDE, SIDE)


def test_release_memory_frees_the_hidden_workspace(big, report):
    libastar.release_memory()
    small = libastar.thread_workspace().nbytes
    assert small < 64 * 1024, small              # an empty workspace: a few kilobytes
    path = big.find_path((0, 0), (SIDE - 1, SIDE - 1))
    held = libastar.thread_workspace().nbytes
    assert held > 30 * SIDE * SIDE, held           # grown to the grid, and kept
    before = rss()
    freed = libastar.release_memory()
    assert freed >= held - small
    assert libastar.thread_workspace().nbytes == small
    if before is not None:
        # Informative only: whether the pages go back to the system is the
        # C allocator's choice (glibc maps large blocks, but raises its
        # threshold once such a block is freed).
        report(f"memory: {held} bytes held after a {SIDE}x{SIDE} search, {small} after "
               f"release_memory(); RSS {before >> 20} -> {rss() >> 20} MiB")
    again = big.find_path((0, 0), (SIDE - 1, SIDE - 1))   # and searching still works
    assert again.cost == path.cost and np.array_equal(again.cells, path.cells)
    assert libastar.release_memory() > 30 * SIDE * SIDE
    assert libastar.release_memory() == 0          # nothing left to free


def test_release_memory_is_the_calling_threads(big):
    libastar.release_memory()
    other = {}

    def run():
        big.find_path((0, 0), (SIDE - 1, SIDE - 1))
        other["ws"] = libastar.thread_workspace()
        other["nbytes"] = other["ws"].nbytes

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert other["nbytes"] > 30 * SIDE * SIDE
    assert libastar.thread_workspace() is not other["ws"]
    assert libastar.release_memory() == 0          # this thread's was empty
    assert other["ws"].nbytes == other["nbytes"]   # the other thread's is not touched
    assert other["ws"].shrink() > 30 * SIDE * SIDE


def test_own_workspace_shrink_and_close(big):
    ws = libastar.Workspace()
    assert isinstance(ws, libastar.Workspace)
    empty = ws.nbytes
    p = big.find_path((0, 0), (SIDE - 1, 0), workspace=ws)
    assert ws.nbytes > 30 * SIDE * SIDE
    assert ws.memory <= ws.nbytes
    assert ws.shrink() >= ws.nbytes - empty
    assert ws.nbytes == empty and not ws.closed
    assert big.find_path((0, 0), (SIDE - 1, 0), workspace=ws).cost == p.cost
    assert ws.close() > 30 * SIDE * SIDE
    assert ws.closed and ws.nbytes == 0 and "closed" in repr(ws)
    with pytest.raises(ValueError, match="closed"):
        big.find_path((0, 0), (1, 1), workspace=ws)
    assert ws.close() == 0 and ws.shrink() == 0    # closing twice is harmless


def test_context_manager_closes():
    grid = libastar.Grid(64, 64)
    with libastar.Workspace() as ws:
        assert grid.find_path((0, 0), (63, 63), workspace=ws)
        assert ws.nbytes > 64 * 64
    assert ws.closed


def test_every_search_takes_a_workspace():
    grid = libastar.Grid(32, 32)
    ws = libastar.Workspace()
    assert grid.find_path((0, 0), (31, 31), workspace=ws)
    assert grid.find_path_any((0, 0), [(31, 31)], workspace=ws)
    assert libastar.Finder(grid, "jps").find((0, 0), (31, 31), workspace=ws)
    hexgrid = libastar.HexGrid(16, 16)
    assert hexgrid.find_path((0, 0), (15, 15), workspace=ws)
    assert libastar.find_graph_path(0, 5, lambda n: [(n + 1, 1.0)], workspace=ws).cost == 5
    assert ws.shrink() > 0


def test_shrink_refused_while_a_search_holds_it():
    grid = libastar.Grid(256, 256)
    ws = libastar.Workspace()
    search = libastar.Finder(grid, "astar").begin((0, 0), (255, 255), workspace=ws)
    search.step(10)
    with pytest.raises(RuntimeError, match="in use"):
        ws.shrink()
    with pytest.raises(RuntimeError, match="in use"):
        ws.close()
    while not search.step(1000):
        pass
    assert search.finish().cost > 0
    assert ws.shrink() > 0
