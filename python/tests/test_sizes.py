"""Units of several sizes (find_path(unit_size=k), Finder(unit_size=k),
Grid.clearance): against a reference built here -- a plain search on the
grid eroded for a k x k unit (a cell open when the whole footprint with it
as top-left corner is passable; its terrain the footprint's largest) --
and the clearance against a brute-force count."""
import numpy as np
import pytest

import libastar
from grid_graph import random_costs


def eroded(costs, k):
    """The derived grid of a k x k unit: top-left anchors, as cost arrays."""
    h, w = costs.shape
    c = costs.astype(np.float32).astype(np.float64)
    out = np.full((h, w), np.inf)
    for y in range(h - k + 1):
        for x in range(w - k + 1):
            foot = c[y:y + k, x:x + k]
            if np.all(np.isfinite(foot)):
                out[y, x] = foot.max()
    return out


def brute_clearance(costs, cap):
    h, w = costs.shape
    free = np.isfinite(costs)
    out = np.zeros((h, w), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            k = 0
            while k < cap and y + k < h and x + k < w and free[y:y + k + 1, x:x + k + 1].all():
                k += 1
            out[y, x] = k
    return out


@pytest.mark.parametrize("seed", range(6))
def test_clearance_array(seed):
    rng = np.random.default_rng(seed)
    costs = random_costs(rng, 15, 19, wall=0.15)
    grid = libastar.Grid.from_numpy(costs)
    for cap in (1, 3, 8):
        got = grid.clearance(cap)
        assert got.shape == (15, 19) and got.dtype == np.uint8
        assert np.array_equal(got, brute_clearance(costs, cap))


@pytest.mark.parametrize("seed", range(10))
def test_sizes_against_the_eroded_grid(seed):
    rng = np.random.default_rng(200 + seed)
    costs = random_costs(rng, 24, 24, wall=0.08, terrain=seed % 2 == 1)
    grid = libastar.Grid.from_numpy(costs)
    for k in (1, 2, 3):
        ref_costs = eroded(costs, k)
        if not np.isfinite(ref_costs).any():
            continue
        ref = libastar.Grid.from_numpy(ref_costs)
        finder = libastar.Finder(grid, "astar", unit_size=k)
        ys, xs = np.nonzero(np.isfinite(ref_costs))
        for _ in range(12):
            i, j = rng.integers(len(xs), size=2)
            s, g = (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j]))
            try:
                want = ref.find_path(s, g)
            except libastar.NoPathError:
                with pytest.raises(libastar.NoPathError):
                    grid.find_path(s, g, unit_size=k)
                continue
            got = grid.find_path(s, g, unit_size=k)
            assert got.cost == pytest.approx(want.cost, rel=1e-12)
            assert ref.path_cost(got.cells) == pytest.approx(want.cost, rel=1e-12)
            assert finder.find(s, g).cost == pytest.approx(want.cost, rel=1e-12)


def test_unit_that_does_not_fit():
    grid = libastar.Grid.from_ascii("....\n.#..\n....\n")
    with pytest.raises(libastar.StartBlockedError):
        grid.find_path((0, 0), (2, 1), unit_size=2)  # its footprint holds the wall
    assert grid.find_path((2, 0), (2, 1), unit_size=2).cost == 1.0
    with pytest.raises(libastar.InvalidArgumentError, match="unit_size"):
        grid.find_path((0, 0), (3, 2), unit_size=0)
    # the grid's clearance follows its edits
    grid.set_passable(1, 1, True)
    assert grid.find_path((0, 0), (2, 1), unit_size=2).cost == pytest.approx(1 + 2 ** 0.5)
