"""Space-time planning (astar/spacetime.h): reservations, cooperative A* /
WHCA*, SIPP. Plans are checked by an independent validator: legal moves
and waits, right ends, no vertex conflicts, no swaps."""

import math
import random

import numpy as np
import pytest

import libastar
from libastar import (Reservations, SafeIntervals, SpaceTimeWorkspace, find_cooperative,
                      plan_cooperative)


def random_map(seed, side=24, density=0.15):
    rng = np.random.default_rng(seed)
    mask = rng.random((side, side)) >= density
    grid = libastar.Grid.from_mask(mask)
    # The largest island's cells: every start and goal is reachable.
    labels = grid.islands()
    lab = np.asarray(labels.labels if hasattr(labels, "labels") else labels)
    ids, counts = np.unique(lab[lab > 0], return_counts=True)
    ys, xs = np.nonzero(lab == ids[np.argmax(counts)])
    cells = list(zip(xs.tolist(), ys.tolist()))
    return grid, cells


def agents(seed, cells, n):
    rng = random.Random(seed)
    chosen = rng.sample(cells, 2 * n)
    return chosen[:n], chosen[n:]


def legal_step(grid, a, b, moves):
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if max(dx, dy) > 1 or not grid.passable(*b):
        return False
    if dx and dy:
        if moves == 4:
            return False
        # no-cut (the default corner rule): both side cells free.
        return grid.passable(a[0], b[1]) and grid.passable(b[0], a[1])
    return True


def check_plans(grid, starts, goals, paths, moves=8, swaps=True):
    assert len(paths) == len(starts)
    horizon = max(len(p) for p in paths)
    at = []
    for p, s, g in zip(paths, starts, goals):
        assert p.ndim == 2 and p.shape[1] == 2
        assert tuple(p[0]) == tuple(s) and tuple(p[-1]) == tuple(g)
        for a, b in zip(p[:-1], p[1:]):
            assert legal_step(grid, tuple(a), tuple(b), moves), (a, b)
        # After its last cell an agent stays at its goal.
        full = np.concatenate([p, np.repeat(p[-1:], horizon + 1 - len(p), axis=0)])
        at.append([tuple(c) for c in full])
    for t in range(horizon + 1):
        now = [a[t] for a in at]
        assert len(set(now)) == len(now), f"vertex conflict at time {t}"
        if t and swaps:
            moved = {(a[t - 1], a[t]) for a in at if a[t - 1] != a[t]}
            for u, v in moved:
                assert (v, u) not in moved, f"swap {u} <-> {v} at time {t - 1}"


def test_the_validator_sees_conflicts():
    grid = libastar.Grid(4, 1)
    a, b = np.array([[0, 0], [1, 0], [2, 0]]), np.array([[2, 0], [1, 0], [0, 0]])
    with pytest.raises(AssertionError, match="vertex"):
        check_plans(grid, [(0, 0), (2, 0)], [(2, 0), (0, 0)], [a, b])
    a, b = np.array([[1, 0], [2, 0]]), np.array([[2, 0], [1, 0]])
    with pytest.raises(AssertionError, match="swap"):
        check_plans(grid, [(1, 0), (2, 0)], [(2, 0), (1, 0)], [a, b])
    with pytest.raises(AssertionError):  # a jump
        check_plans(grid, [(0, 0)], [(3, 0)], [np.array([[0, 0], [3, 0]])])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("window", [0, 8])
def test_plans_are_collision_free(seed, window):
    grid, cells = random_map(seed)
    n = 5 + 3 * seed  # 5 .. 20 agents
    starts, goals = agents(seed, cells, n)
    paths = plan_cooperative(grid, starts, goals, window=window)
    check_plans(grid, starts, goals, paths)


@pytest.mark.parametrize("moves", [4, 8])
def test_four_moves(moves):
    grid, cells = random_map(11, side=20, density=0.1)
    starts, goals = agents(11, cells, 10)
    paths = plan_cooperative(grid, starts, goals, moves=moves)
    check_plans(grid, starts, goals, paths, moves)


def test_deterministic():
    grid, cells = random_map(3)
    starts, goals = agents(3, cells, 12)
    for window in (0, 6):
        a = plan_cooperative(grid, starts, goals, window=window)
        b = plan_cooperative(grid, starts, goals, window=window)
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("moves", [4, 8])
def test_alone_is_optimal(seed, moves):
    grid, cells = random_map(100 + seed, side=32, density=0.25)
    (s,), (g,) = agents(seed, cells, 1)
    alone = find_cooperative(grid, s, g, moves=moves)
    ref = grid.find_path(s, g, moves=moves)
    assert alone.at_goal and math.isclose(alone.cost, ref.cost, rel_tol=1e-9)
    assert len(alone) - 1 == alone.arrival
    # Nothing to wait for: the timed path is a plain path of the same cost.
    assert math.isclose(grid.path_cost(alone.cells, moves=moves), ref.cost, rel_tol=1e-9)


def test_reservations_table():
    res = Reservations(64)
    assert len(res) == 0 and res.capacity == 64 and res.memory > 0
    res.reserve(7, [(0, 0), (1, 0), (2, 0)], t0=3, hold=None)
    assert res.at((1, 0), 4) == 7 and res.at((1, 0), 3) is None
    assert res.at((2, 0), 1000) == 7  # the goal, held for ever
    assert res.move((0, 0), (1, 0), 3) == 7 and res.move((1, 0), (0, 0), 3) is None
    with pytest.raises(libastar.InvalidArgumentError):
        res.reserve(8, [(1, 0)], t0=4)  # another agent's (cell, time)
    with pytest.raises(libastar.InvalidArgumentError):
        res.reserve(8, [(0, 0), (5, 5)])  # not neighbours
    with pytest.raises(libastar.InvalidArgumentError, match="hold"):
        res.reserve(8, [(0, 0)], hold=-1)
    res.release(7, before=5)
    assert res.at((1, 0), 4) is None and res.at((2, 0), 5) == 7
    res.clear()
    assert len(res) == 0 and res.at((2, 0), 1000) is None
    with pytest.raises(libastar.CapacityError):
        Reservations(2).reserve(0, [(0, 0), (1, 0), (2, 0)])


def test_cooperative_avoids_reservations():
    grid = libastar.Grid(5, 1)  # a corridor: nobody can pass
    res = Reservations(64)
    res.reserve(0, [(4, 0), (3, 0), (2, 0)], hold=2)  # comes to the middle, leaves at t 4
    p = find_cooperative(grid, (0, 0), (4, 0), reservations=res, agent=1)
    cells = [tuple(c) for c in p.cells]
    for t, c in enumerate(cells):
        assert res.at(c, t) in (None, 1)
    res.reserve(0, [(2, 0)], t0=5, hold=None)
    # Held for ever: no way through (the horizon cuts the search).
    with pytest.raises(libastar.LimitReachedError):
        find_cooperative(grid, (0, 0), (4, 0), reservations=res, agent=1, horizon=50)
    # The agent's goal held for ever by another: refused at once.
    with pytest.raises(libastar.GoalBlockedError):
        find_cooperative(grid, (0, 0), (2, 0), reservations=res, agent=1)


def test_windowed_ends_short():
    grid = libastar.Grid(30, 1)
    p = find_cooperative(grid, (0, 0), (29, 0), window=5)
    assert not p.at_goal and p.arrival == 5 and tuple(p.cells[-1]) == (5, 0)
    assert math.isclose(p.estimate, 29.0)


def test_sipp_alone_and_with_obstacles():
    grid, cells = random_map(5, side=20, density=0.2)
    (s,), (g,) = agents(9, cells, 1)
    ws = SpaceTimeWorkspace(1 << 16)
    free = SafeIntervals(grid).find_path(s, g, workspace=ws)
    steps = len(grid.find_path(s, g, moves=8, straight_cost=1, diagonal_cost=1).cells) - 1
    assert free.arrival == steps and free.cost == steps and ws.memory > 0
    # Another unit walks the first path: SIPP must keep out of its way.
    other = free.cells
    sipp = SafeIntervals(grid, SafeIntervals.occupancies(other, hold=None))
    assert sipp.intervals > grid.count_passable()
    (s2,), (g2,) = agents(10, [c for c in cells if c not in {tuple(x) for x in other}], 1)
    p = sipp.find_path(s2, g2)
    # SIPP's obstacles are occupancies: only vertex conflicts are excluded.
    check_plans(grid, [tuple(other[0]), s2], [tuple(other[-1]), g2], [other, p.cells],
                swaps=False)


def test_order_rc():
    grid = libastar.Grid(8, 4)
    p = find_cooperative(grid, (1, 6), (3, 0), order="rc")
    assert tuple(p.cells[0]) == (1, 6) and tuple(p.cells[-1]) == (3, 0)
    paths = plan_cooperative(grid, [(0, 0), (3, 7)], [(3, 7), (0, 0)], order="rc")
    assert tuple(paths[0][-1]) == (3, 7)


def test_bad_arguments():
    grid = libastar.Grid(4, 4)
    with pytest.raises(libastar.InvalidArgumentError, match="two agents"):
        plan_cooperative(grid, [(0, 0), (0, 0)], [(1, 1), (2, 2)])
    with pytest.raises(libastar.InvalidArgumentError, match="goals"):
        plan_cooperative(grid, [(0, 0)], [(1, 1), (2, 2)])
    with pytest.raises(libastar.InvalidArgumentError, match="window"):
        find_cooperative(grid, (0, 0), (1, 1), window=-1)
    with pytest.raises(libastar.InvalidArgumentError, match="capacity"):
        Reservations(0)
    with pytest.raises(TypeError, match="start"):
        find_cooperative(grid, (0.5, 0), (1, 1))
    with pytest.raises(libastar.OutOfBoundsError):
        find_cooperative(grid, (0, 0), (9, 9))
    with pytest.raises(libastar.OutOfBoundsError):
        SafeIntervals(grid, [((9, 9), 0, 1)])
    with pytest.raises(libastar.UnsupportedError):
        find_cooperative(grid, (0, 0), (1, 1), options=libastar.Options(turn_penalty=1.0))


def test_threads_with_own_workspaces():
    import threading
    grid, cells = random_map(21, side=48, density=0.2)
    starts, goals = agents(21, cells, 8)
    want = plan_cooperative(grid, starts, goals)
    got = [None, None]

    def run(i):
        got[i] = plan_cooperative(grid, starts, goals, workspace=SpaceTimeWorkspace(1 << 18))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g in got:
        assert all(np.array_equal(x, y) for x, y in zip(g, want))
