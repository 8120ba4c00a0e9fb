"""Smoothing (Grid.smooth, Finder(smooth=True), the queue's smooth=) and
islands (Grid.islands, same_island). A smoothed path honours terrain: it
never claims less than its cells cost (the bug the project fixed: a line
through a cost-9 swamp reported at its length, 19), never costs more than
the grid path, and never less than the Euclidean optimum (Anya) times the
cheapest terrain. Islands against SciPy's connected components of the
grid's graph."""
import math

import numpy as np
import pytest

import libastar
from grid_graph import labels_of, random_costs


def swamp():
    grid = libastar.Grid(20, 9)
    for y in range(1, 8):
        for x in range(5, 15):
            grid.set_terrain(x, y, 9.0)
    return grid


def test_swamp_is_not_crossed():
    grid = swamp()
    p = grid.find_path((0, 4), (19, 4))
    assert p.cost == pytest.approx(11 + 8 * math.sqrt(2))
    s = grid.smooth(p)
    assert len(s.cells) >= 3                     # it bends round the swamp
    assert s.cost < p.cost - 0.5                 # and straightens the detour
    assert s.cost > 19.0 + 2                     # not the line's length (the old bug)
    assert s.grid_cost == pytest.approx(p.cost)
    assert grid.polyline_cost(s.cells) == s.cost
    assert grid.polyline_cost([(0, 4), (19, 4)]) == pytest.approx(99.0)
    f = libastar.Finder(grid, "astar", smooth=True).find((0, 4), (19, 4))
    assert np.array_equal(f.cells, s.cells) and f.cost == pytest.approx(s.cost)
    # terrain_scale 0: the swamp is ignored, the one segment
    s0 = grid.smooth(p, terrain_scale=0.0)
    assert len(s0.cells) == 2 and s0.cost == 19.0


@pytest.mark.parametrize("seed", range(8))
def test_smoothed_cost_bounds(seed):
    rng = np.random.default_rng(300 + seed)
    costs = random_costs(rng, 30, 30, wall=0.15, terrain=seed % 2 == 1)
    grid = libastar.Grid.from_numpy(costs)
    plain = libastar.Grid.from_numpy(np.isfinite(costs))
    cheapest = float(np.min(costs[np.isfinite(costs)]).astype(np.float32))
    free = np.argwhere(np.isfinite(costs))
    n = 0
    for _ in range(20):
        (sy, sx), (gy, gx) = free[rng.integers(len(free), size=2)]
        s, g = (int(sx), int(sy)), (int(gx), int(gy))
        try:
            p = grid.find_path(s, g)
        except libastar.NoPathError:
            continue
        sm = grid.smooth(p)
        assert tuple(sm.cells[0]) == s and tuple(sm.cells[-1]) == g
        assert sm.cost == grid.polyline_cost(sm.cells)
        assert sm.cost <= grid.polyline_cost(p.cells) * (1 + 1e-12)
        if s != g:
            anya = libastar.Finder(plain, "anya").find(s, g)
            assert sm.cost >= anya.cost * cheapest * (1 - 1e-12)
        if seed % 2 == 0:   # no terrain: the polyline of a grid path is its cost
            assert sm.cost <= p.cost * (1 + 1e-12)
        n += 1
    assert n > 5


def test_smooth_errors():
    grid = libastar.Grid.from_ascii("...\n.#.\n...\n")
    with pytest.raises(libastar.InvalidArgumentError, match="index|points"):
        grid.polyline_cost([(0, 0), (2, 2)])        # through the wall
    with pytest.raises(libastar.AstarError):
        grid.smooth([(0, 0), (5, 5)])
    assert len(grid.smooth([(0, 0)]).cells) == 1


@pytest.mark.parametrize("seed", range(8))
def test_islands_against_scipy(seed):
    rng = np.random.default_rng(400 + seed)
    costs = random_costs(rng, 20, 26, wall=0.35 + 0.02 * seed)
    grid = libastar.Grid.from_numpy(costs)
    isl = grid.islands()
    same = labels_of(costs)
    assert isl.labels.shape == (20, 26) and isl.labels.dtype == np.uint32
    assert np.array_equal(isl.labels == 0, ~np.isfinite(costs))
    assert isl.count == int(isl.labels.max()) and isl.sizes.sum() == 20 * 26
    free = np.argwhere(np.isfinite(costs))[:, ::-1]
    for _ in range(200):
        a, b = (tuple(int(v) for v in free[i]) for i in rng.integers(len(free), size=2))
        assert isl.same_island(a, b) == same(a, b)
    assert not isl.same_island((0, 0), (99, 99))
    assert np.array_equal(np.asarray(isl), isl.labels)


def test_islands_rules_and_edits():
    grid = libastar.Grid.from_ascii(".#\n#.\n")
    assert grid.islands().count == 2                   # no corner cutting
    assert grid.islands(corner="always").count == 1
    assert grid.same_island((0, 0), (1, 1), corner="always")
    assert not grid.same_island((0, 0), (1, 1))
    isl = grid.islands()
    grid.set_passable(1, 0, True)
    assert not isl.current and grid.islands().count == 1
