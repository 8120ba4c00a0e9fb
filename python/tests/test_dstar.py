"""D* Lite and LPA* (libastar.DStarLite, LPAStar): on random edit sequences
(walls found, cells opened, terrain raised and lowered) and, for D* Lite,
an agent walking, every replanned cost equals a fresh search on the edited
grid and every path is a legal walk of that cost; then the statuses and
the errors."""
import math

import numpy as np
import pytest

import libastar
from grid_graph import random_costs


def fresh_cost(grid, start, goal):
    try:
        return grid.find_path(start, goal).cost
    except libastar.NoPathError:
        return None


def check_plan(planner, grid, start, goal):
    want = fresh_cost(grid, start, goal)
    if want is None:
        with pytest.raises(libastar.NoPathError):
            planner.plan()
        return None
    p = planner.plan()
    assert p.cost == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert tuple(p.cells[0]) == tuple(start) and tuple(p.cells[-1]) == tuple(goal)
    assert grid.path_cost(p.cells) == pytest.approx(p.cost, rel=1e-12, abs=1e-12)
    return p


def random_edit(rng, planner, grid, keep):
    h, w = grid.shape
    x, y = int(rng.integers(w)), int(rng.integers(h))
    if (x, y) in keep:
        return
    r = rng.random()
    if r < 0.4:
        planner.block([(x, y)])
    elif r < 0.7:
        planner.unblock([(x, y)])
    elif r < 0.85:
        planner.set_cost((x, y), float(np.float32(1 + 5 * rng.random())))
    else:
        grid.set_passable(x, y, not grid.passable(x, y))  # edited by hand, then told
        planner.update([(x, y)])


@pytest.mark.parametrize("seed", range(10))
def test_lpa_star_random_edits(seed):
    rng = np.random.default_rng(seed)
    costs = random_costs(rng, 18, 22, wall=0.2, terrain=seed % 2 == 1)
    costs[0, 0] = costs[17, 21] = 1.0
    grid = libastar.Grid.from_numpy(costs)
    start, goal = (0, 0), (21, 17)
    planner = libastar.LPAStar(grid, start, goal)
    for _ in range(40):
        check_plan(planner, grid, start, goal)
        for _ in range(int(rng.integers(1, 4))):
            random_edit(rng, planner, grid, {start, goal})


@pytest.mark.parametrize("seed", range(10))
def test_dstar_lite_agent_walks_and_discovers(seed):
    rng = np.random.default_rng(50 + seed)
    costs = random_costs(rng, 20, 20, wall=0.15, terrain=seed % 3 == 0)
    costs[0, 0] = costs[19, 19] = 1.0
    grid = libastar.Grid.from_numpy(costs)
    goal = (19, 19)
    planner = libastar.DStarLite(grid, (0, 0), goal)
    for _ in range(200):
        agent = planner.start
        if agent == goal:
            break
        p = check_plan(planner, grid, agent, goal)
        if p is None:
            planner.unblock([tuple(c) for c in np.argwhere(~grid.to_numpy())[:, ::-1][:5]])
            continue
        step = planner.next()
        assert step == tuple(p.cells[1])
        planner.move_to(step)
        assert planner.start == step
        for _ in range(int(rng.integers(0, 3))):
            random_edit(rng, planner, grid, {step, goal})
    # after a move along the path and no edit, the path continues from there
    if planner.start != goal:
        p = planner.path()
        planner.move_to(tuple(p.cells[1]))
        assert planner.path().cost == pytest.approx(fresh_cost(grid, planner.start, goal))


def test_sync_finds_the_edits():
    grid = libastar.Grid(12, 12)
    planner = libastar.LPAStar(grid, (0, 0), (11, 11))
    assert planner.cost == pytest.approx(11 * math.sqrt(2))
    for i in range(1, 11):
        grid.set_passable(i, i, False)
    planner.sync()
    assert planner.cost == pytest.approx(grid.find_path((0, 0), (11, 11)).cost)
    assert planner.stats["total"]["plans"] == 2


def test_statuses_and_errors():
    grid = libastar.Grid.from_ascii("S..\n.#.\n..G\n")
    d = libastar.DStarLite(grid, (0, 0), (2, 2))
    assert d.path().cost == pytest.approx(4.0)  # round the wall: no corner cutting
    d.block([(2, 1), (1, 2)])
    with pytest.raises(libastar.NoPathError):
        d.plan()
    d.unblock([(2, 1)])
    assert d.plan().cost == pytest.approx(grid.find_path((0, 0), (2, 2)).cost)
    d.set_cost((2, 2), math.inf)
    with pytest.raises(libastar.GoalBlockedError):
        d.plan()
    d.set_cost((2, 2), 3.0)
    assert grid.terrain(2, 2) == 3.0 and d.plan().cost == pytest.approx(
        grid.find_path((0, 0), (2, 2)).cost)
    d.restart((2, 0), (0, 2))
    assert d.start == (2, 0) and d.goal == (0, 2)
    assert d.path().cost == pytest.approx(grid.find_path((2, 0), (0, 2)).cost)
    lpa = libastar.LPAStar(grid, (0, 0), (2, 2))
    with pytest.raises(AttributeError):
        lpa.move_to((0, 1))
    with pytest.raises(libastar.OutOfBoundsError):
        libastar.DStarLite(grid, (0, 0), (5, 5))
    with pytest.raises(libastar.UnsupportedError, match="weight"):
        libastar.DStarLite(grid, (0, 0), (2, 2), weight=2.0)
    before = grid.to_numpy().copy()
    with pytest.raises(libastar.OutOfBoundsError):
        d.block([(0, 1), (9, 9)])               # nothing edited: (0, 1) stays open
    assert np.array_equal(grid.to_numpy(), before)
    d.block([0, 1])                             # one cell, as a list: the goal cut off
    assert not grid.passable(0, 1)
    for plan in (d.plan, lambda: grid.find_path(d.start, d.goal)):
        with pytest.raises(libastar.NoPathError):
            plan()
    with pytest.raises(libastar.InvalidArgumentError, match="cost"):
        d.set_cost((1, 0), -1.0)
    assert d.memory > 0 and "DStarLite" in repr(d)
