"""Finder.find_many: many queries on worker threads (astar_batch_find),
the GIL released for the whole batch; every result identical to the
single query's, in the same order."""
import math
import random
import threading
import time

import numpy as np
import pytest

import libastar as la


def cave(seed=7, w=64, h=48, walls=0.3):
    rng = np.random.default_rng(seed)
    free = rng.random((h, w)) >= walls
    free[0, :] = True
    return la.Grid.from_numpy(free)


def queries(grid, n, seed=1, outside=True):
    rng = random.Random(seed)
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    starts = [rng.choice(cells) for _ in range(n)]
    goals = [rng.choice(cells) for _ in range(n)]
    if outside:   # and a few the single query refuses
        starts[1] = (-1, 3)
        goals[2] = (grid.width, 0)
    return starts, goals


def single(finder, s, g):
    try:
        return finder.find(s, g)
    except la.AstarError as e:
        return e.path


FIELDS = ("status", "cause", "cost", "end", "expanded", "generated", "reopened", "max_open",
          "dropped", "iterations", "work", "sight_checks", "abstract_expanded",
          "abstract_length", "grid_cost")


def same(a, b):
    for f in FIELDS:
        assert getattr(a, f) == getattr(b, f), f
    assert np.array_equal(a.cells, b.cells)
    if a.points is None:
        assert b.points is None
    else:
        assert np.array_equal(a.points, b.points)


CASES = [("astar", {}), ("dijkstra", {}), ("jps", {}), ("jps-plus", {}), ("cpd", {}),
         ("hpa", {}), ("theta", {}), ("lazy-theta", {}), ("anya", {}), ("bidir", {}),
         ("fringe", {}), ("greedy", {}), ("astar", {"smooth": True}),
         ("astar", {"unit_size": 2}), ("astar", {"space": "graph"}),
         ("bidir", {"space": "graph"}), ("astar", {"partial": True}),
         ("astar", {"landmarks": 4})]


@pytest.mark.parametrize("method,kw", CASES, ids=[f"{m}-{'-'.join(k)}" for m, k in CASES])
def test_identical_to_single_queries(method, kw):
    grid = cave(walls=0.05 if "unit_size" in kw else 0.3)   # room for 2 x 2 units
    finder = la.Finder(grid, method, **kw)
    starts, goals = queries(grid, 60)
    ones = [single(finder, s, g) for s, g in zip(starts, goals)]
    assert any(p.status == la.Status.OK for p in ones)
    assert any(p.status != la.Status.OK for p in ones)
    for threads in (1, 2, 3):
        many = finder.find_many(starts, goals, threads=threads)
        assert len(many) == len(ones)
        for a, b in zip(many, ones):
            same(a, b)
    costs = finder.find_many(np.array(starts), np.array(goals), costs_only=True)
    want = np.array([p.cost if p.status == la.Status.OK else np.inf for p in ones])
    assert costs.dtype == np.float64 and np.array_equal(costs, want)


@pytest.mark.parametrize("method", ["astar", "anya", "hpa", "bidir"])
def test_paths_longer_than_their_slot(monkeypatch, method):
    """A path longer than the slot a query got runs again in a second batch:
    the results are the same."""
    grid = cave(3)
    finder = la.Finder(grid, method)
    starts, goals = queries(grid, 40, seed=5)
    ones = [single(finder, s, g) for s, g in zip(starts, goals)]
    monkeypatch.setattr(la, "_BATCH_SLOT", 4)
    monkeypatch.setattr(la, "_BATCH_CHUNK", 7)     # and several batches of queries
    many = finder.find_many(starts, goals, threads=2)
    assert max(len(p) for p in ones) > 4
    for a, b in zip(many, ones):
        same(a, b)


def test_spaces_identical_to_single_queries(monkeypatch):
    sp = pytest.importorskip("scipy.sparse")
    m = sp.random(300, 300, density=0.01, random_state=np.random.default_rng(2), format="csr")
    graph = la.Graph.from_csr(m)
    rng = random.Random(4)
    starts = [rng.randrange(300) for _ in range(80)]
    goals = [rng.randrange(300) for _ in range(80)]
    for method in ("astar", "bidir", "dijkstra"):
        finder = la.Finder(graph, method)
        ones = [single(finder, s, g) for s, g in zip(starts, goals)]
        for slot in (0, 2):
            monkeypatch.setattr(la, "_BATCH_SLOT", slot)
            many = finder.find_many(np.array(starts), np.array(goals), threads=2)
            for a, b in zip(many, ones):
                assert (a.status, a.cost, a.expanded) == (b.status, b.cost, b.expanded)
                assert np.array_equal(a.ids, b.ids)


def test_python_heuristic_runs_on_one_thread():
    grid = cave()
    calls = []

    def h(a, b):
        calls.append(a)
        return 0.0
    finder = la.Finder(grid, "astar", heuristic=h)
    starts, goals = queries(grid, 10, outside=False)
    many = finder.find_many(starts, goals, threads=4)
    assert finder.threads_used == 1 and calls
    for a, s, g in zip(many, starts, goals):
        same(a, single(finder, s, g))


def test_arguments():
    grid = cave()
    finder = la.Finder(grid, "astar")
    with pytest.raises(ValueError, match="as many"):
        finder.find_many([(0, 0)], [(1, 1), (2, 2)])
    with pytest.raises(la.InvalidArgumentError, match="threads"):
        finder.find_many([(0, 0)], [(1, 1)], threads=0)
    with pytest.raises(TypeError, match="starts"):
        finder.find_many(np.array([[0.5, 1.0]]), [(1, 1)])
    with pytest.raises(TypeError, match="batch"):
        finder.find_many([(0, 0)], [(1, 1)], batch=3)
    assert finder.find_many([], []) == []
    assert finder.find_many(np.zeros((0, 2), int), np.zeros((0, 2), int),
                            costs_only=True).shape == (0,)
    b = la.Batch(2)
    assert b.threads == 2
    finder.find_many([(0, 0)], [(60, 40)], batch=b)
    assert b.memory > 0 and finder.threads_used == 1    # one query: one worker


def test_gil_released_during_a_batch():
    """Another Python thread runs while a batch runs: the main thread's loop
    never waits for the batch's whole length."""
    rng = np.random.default_rng(1)
    free = rng.random((384, 384)) >= 0.3
    grid = la.Grid.from_numpy(free)
    finder = la.Finder(grid, "dijkstra")
    cells = np.argwhere(free)[:, ::-1]
    n, alone = 20, 0.0
    while alone < 0.2 and n <= 5120:   # long enough to tell, on a fast machine too
        n *= 2
        starts = cells[rng.integers(len(cells), size=n)]
        goals = cells[rng.integers(len(cells), size=n)]
        t0 = time.perf_counter()
        finder.find_many(starts, goals, threads=1, costs_only=True)
        alone = time.perf_counter() - t0
    done = threading.Event()
    span = []

    def run():
        t = time.perf_counter()
        finder.find_many(starts, goals, threads=1, costs_only=True)
        span.append((t, time.perf_counter()))
        done.set()
    worker = threading.Thread(target=run)
    ticks = []
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    start, end = span[0]
    inside = [t for t in ticks if start < t < end]
    assert end - start > 0.05, "the batch too short to tell"
    # Holding the GIL, the loop would stop for the whole batch: no tick
    # inside it. Released, it ticks throughout -- the count only, not the
    # gaps: on a loaded machine the scheduler may pause the loop a while.
    assert len(inside) >= 5, (alone, end - start, len(inside))


def test_waypoint_graph_and_prepared_objects():
    grid = cave(walls=0.15)
    starts, goals = queries(grid, 30, seed=9)
    for finder in (la.Finder(grid, "astar", waypoints=la.Waypoints(grid)),
                   la.Finder(grid, "bidir", waypoints=la.Waypoints(grid)),
                   la.Finder(grid, "jps-plus", jps_plus=la.JpsPlus(grid)),
                   la.Finder(grid, "astar", landmarks=la.Landmarks(grid, 6))):
        many = finder.find_many(starts, goals, threads=2)
        for a, s, g in zip(many, starts, goals):
            same(a, single(finder, s, g))


def test_stale_finder_answers_stale_per_query():
    grid = cave()
    finder = la.Finder(grid, "jps-plus")
    grid.set_passable(0, 0, not grid.passable(0, 0))
    starts, goals = queries(grid, 5, outside=False)
    many = finder.find_many(starts, goals)
    assert all(p.status == la.Status.STALE for p in many)
    with pytest.raises(la.StaleError):
        finder.find(starts[0], goals[0])
