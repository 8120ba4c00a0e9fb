"""Finder.find_many speaks the grid's coordinate order (issue 27 items 2
and 3 together): starts and goals go in through _cells_in, paths come out
through _path_out, per grid (``Grid(..., order='rc')``) or per call
(``order=``), exactly as Finder.find does for each query."""
import numpy as np
import pytest

import libastar as la


def maze(order, seed=3, w=40, h=40):
    rng = np.random.default_rng(seed)
    free = rng.random((h, w)) >= 0.3
    free[0, :] = True
    free[:, 0] = True
    return la.Grid.from_mask(free, order=order)


def pairs(grid, n=60, seed=5):
    """n queries as (x, y) cells of passable cells, a few without a path."""
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero(grid.to_numpy())
    i = rng.integers(0, len(xs), size=(n, 2))
    return (np.stack([xs[i[:, 0]], ys[i[:, 0]]], axis=1),
            np.stack([xs[i[:, 1]], ys[i[:, 1]]], axis=1))


def single(finder, s, g, **kw):
    try:
        return finder.find(s, g, **kw)
    except la.AstarError as e:
        return e.path


def same(a, b, transpose=False):
    cells = b.cells[:, ::-1] if transpose else b.cells
    end = None if b.end is None else (tuple(b.end)[::-1] if transpose else tuple(b.end))
    assert a.status == b.status and a.cost == pytest.approx(b.cost)
    assert np.array_equal(a.cells, cells), (a.cells, cells)
    assert (None if a.end is None else tuple(a.end)) == end


@pytest.mark.parametrize("method", ["astar", "jps", "theta"])
def test_find_many_on_an_rc_grid_is_find_per_query_and_xy_transposed(method):
    rc, xy = maze("rc"), maze("xy")
    s_xy, g_xy = pairs(xy)
    s_rc, g_rc = s_xy[:, ::-1].copy(), g_xy[:, ::-1].copy()
    f_rc, f_xy = la.Finder(rc, method), la.Finder(xy, method)
    many_rc = f_rc.find_many(s_rc, g_rc, threads=2)
    many_xy = f_xy.find_many(s_xy, g_xy, threads=2)
    assert any(p for p in many_rc) and len(many_rc) == len(s_rc)
    for i, p in enumerate(many_rc):
        assert p.order == "rc"
        same(p, single(f_rc, tuple(s_rc[i]), tuple(g_rc[i])))   # what find gives
        same(p, many_xy[i], transpose=True)                    # the (x, y) results
        assert many_xy[i].order == "xy"
    costs = f_rc.find_many(s_rc, g_rc, costs_only=True)
    want = [p.cost if p else np.inf for p in many_rc]
    assert np.allclose(costs, want)


def test_find_many_order_per_call_overrides_the_grid():
    xy = maze("xy")
    s, g = pairs(xy, n=20)
    f = la.Finder(xy, "astar")
    by_call = f.find_many(s[:, ::-1], g[:, ::-1], order="rc")
    plain = f.find_many(s, g)
    for a, b in zip(by_call, plain):
        assert a.order == "rc"
        same(a, b, transpose=True)
    rc = la.Finder(maze("rc"), "astar")
    for a, b in zip(rc.find_many(s, g, order="xy"), plain):
        assert a.order == "xy"
        same(a, b)
    with pytest.raises(la.InvalidArgumentError, match="order: expected 'xy' or 'rc'"):
        f.find_many(s, g, order="yx")


def test_order_on_a_space_finder_is_refused_not_ignored():
    hexes = la.HexGrid(6, 4)
    f = la.Finder(hexes, "astar")
    assert f.find_many([(0, 0)], [(5, 3)])[0].cost == f.find((0, 0), (5, 3)).cost
    for call in (lambda: f.find_many([(0, 0)], [(5, 3)], order="rc"),
                 lambda: f.find((0, 0), (5, 3), order="rc"),
                 lambda: f.begin((0, 0), (5, 3), order="xy")):
        with pytest.raises(la.InvalidArgumentError, match="order: '(rc|xy)' applies to a Grid"):
            call()


def test_load_and_waypoint_table_rules_are_keywords(tmp_path):
    """The movement rules of Cpd/Hpa/Landmarks.load and WaypointTable are
    typed keywords (no **rules): given, they are checked against the bytes."""
    g = la.Grid(16, 16)
    data = la.Landmarks(g, 2, moves=4).save()
    assert la.Landmarks.load(g, data, moves=4).memory > 0
    with pytest.raises(la.MismatchError):
        la.Landmarks.load(g, data, moves=8)
    with pytest.raises(TypeError, match="treshold"):
        la.Hpa.load(g, la.Hpa(g).save(), treshold=3)
    t = la.WaypointTable(g, "coarse", tile=4, moves=4, corner="never")
    assert t.count > 0
    with pytest.raises(TypeError, match="corners"):
        la.WaypointTable(g, corners="never")
