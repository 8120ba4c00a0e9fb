"""Distance and flow fields (Grid.distance_field, flow_field, field):
every cell's cost against SciPy's Dijkstra on the grid's graph built
independently (grid_graph.py) and against the package's own single
queries, several goals, next steps that walk optimal paths, errors."""
import math
import threading

import numpy as np
import pytest

import libastar
from grid_graph import cost_to_goals, grid_of, random_costs


def passable_cells(costs, rng, k):
    ys, xs = np.nonzero(np.isfinite(costs))
    pick = rng.choice(len(xs), size=min(k, len(xs)), replace=False)
    return [(int(xs[i]), int(ys[i])) for i in pick]


@pytest.mark.parametrize("seed", range(12))
def test_distance_field_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(5, 30)), int(rng.integers(5, 30))
    costs = random_costs(rng, h, w, wall=0.25, terrain=seed % 2 == 1)
    grid = grid_of(costs)
    goals = passable_cells(costs, rng, 1 + seed % 3)
    if not goals:
        pytest.skip("no passable cell")
    got = grid.distance_field(goals)
    ref = cost_to_goals(costs, goals)
    assert got.shape == (h, w) and got.dtype == np.float64
    assert np.array_equal(np.isinf(got), np.isinf(ref))
    fin = np.isfinite(ref)
    np.testing.assert_allclose(got[fin], ref[fin], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_field_against_single_queries(seed):
    rng = np.random.default_rng(100 + seed)
    costs = random_costs(rng, 16, 20, wall=0.3, terrain=seed % 2 == 0)
    grid = grid_of(costs)
    goal = passable_cells(costs, rng, 1)[0]
    f = grid.field(goal)
    for start in passable_cells(costs, rng, 25):
        try:
            p = grid.find_path(start, goal)
        except libastar.NoPathError:
            assert f.cost[start[1], start[0]] == math.inf
            with pytest.raises(libastar.NoPathError):
                f.path(start)
            continue
        assert f.cost[start[1], start[0]] == pytest.approx(p.cost, rel=1e-12)
        walk = f.path(start)
        assert tuple(walk[0]) == start and tuple(walk[-1]) == goal
        assert grid.path_cost(walk) == pytest.approx(p.cost, rel=1e-12)


def test_flow_field_next_steps_walk_optimal_paths():
    rng = np.random.default_rng(7)
    costs = random_costs(rng, 24, 24, wall=0.2, terrain=True)
    grid = grid_of(costs)
    goals = passable_cells(costs, rng, 3)
    dist = grid.distance_field(goals)
    nxt = grid.flow_field(goals)
    assert nxt.shape == (24, 24, 2)
    for y in range(24):
        for x in range(24):
            n = tuple(nxt[y, x].tolist())
            if not math.isfinite(dist[y, x]) or (x, y) in goals:
                assert n == (-1, -1)
                continue
            # one step, then the rest of an optimal path
            step = grid.path_cost([(x, y), n])
            assert dist[y, x] == pytest.approx(step + dist[n[1], n[0]], rel=1e-12)


def test_field_arrays_and_errors():
    grid = libastar.Grid.from_ascii("....#\n..#..\n.....\n")
    f = grid.field([(0, 0), (4, 2)])
    assert f.directions.dtype == np.uint8 and f.directions[0, 0] == 255
    assert f.cost[0, 4] == math.inf and f.cost[1, 2] == math.inf
    assert f.expanded == 13
    assert len(f.goals) == 2 and "2 goal" in repr(f)
    with pytest.raises(libastar.GoalBlockedError):
        grid.distance_field((4, 0))
    with pytest.raises(libastar.OutOfBoundsError):
        grid.distance_field([(0, 0), (9, 9)])
    with pytest.raises(libastar.InvalidArgumentError, match="goals"):
        grid.distance_field([])
    with pytest.raises(libastar.InvalidArgumentError, match="max_cost"):
        grid.distance_field((0, 0), max_cost=-1)
    with pytest.raises(libastar.UnsupportedError):
        grid.distance_field((0, 0), turn_penalty=1.0)
    with pytest.raises(TypeError, match="GIL"):
        grid.distance_field((0, 0), heuristic=lambda a, b: 0.0)
    near = grid.distance_field((0, 0), max_cost=2.5)
    assert near[0, 2] == 2.0 and near[2, 4] == math.inf
    four = grid.distance_field((0, 0), moves=4)
    assert four[2, 4] == 6.0
    grid.set_passable(1, 0, False)
    with pytest.raises(libastar.StaleError):
        f.path((1, 1))


def test_field_releases_the_gil():
    """Fields on two threads at once give the same arrays as one at a time."""
    rng = np.random.default_rng(3)
    grid = grid_of(random_costs(rng, 300, 300, wall=0.2))
    goal = passable_cells(grid.to_numpy(costs=True), rng, 1)[0]
    want = grid.distance_field(goal)
    out = [None, None]

    def run(i):
        out[i] = grid.distance_field(goal)

    ts = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(np.array_equal(o, want) for o in out)
