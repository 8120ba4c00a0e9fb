"""The NumPy way (issue 27 part 3): explicit constructors for occupancy
grids, masks, images and cost arrays; a warning when from_numpy would read
an array the other way; (row, col) or (x, y) per grid or per call."""
import pickle
import warnings

import numpy as np
import pytest

import libastar
from libastar import AmbiguousArrayWarning, Grid, InvalidArgumentError


def ros_map():
    """A ROS occupancy grid: a wall of 100 with a gap of unknown (-1), some
    cells at 50 (free at the default threshold 65)."""
    occ = np.zeros((5, 7), dtype=np.int8)
    occ[:, 3] = 100
    occ[2, 3] = -1
    occ[0, 1] = 50
    return occ


# ---- constructors ---------------------------------------------------------------------

def test_from_occupancy_threshold_and_unknown():
    occ = ros_map()
    g = Grid.from_occupancy(occ)
    free = g.to_numpy()
    assert free.shape == occ.shape
    assert not free[:, 3].any()                  # 100 and unknown: blocked
    assert free[0, 1] and free[0, 0]             # 50 < 65, 0 free
    with pytest.raises(libastar.NoPathError):
        g.find_path((0, 0), (6, 0))
    g = Grid.from_occupancy(occ, unknown="free")
    assert g.to_numpy()[2, 3] and not g.to_numpy()[1, 3]
    assert g.find_path((0, 0), (6, 0)).cost > 0  # through the unknown gap
    assert not Grid.from_occupancy(occ, threshold=50).to_numpy()[0, 1]
    assert Grid.from_occupancy(occ, threshold=101).to_numpy()[0, 3]


def test_from_occupancy_refuses_what_is_not_occupancy():
    occ = ros_map()
    bad = occ.astype(np.int16)
    bad[4, 6] = 101
    with pytest.raises(InvalidArgumentError, match=r"occupancy 101 at \(row=4, col=6\)"):
        Grid.from_occupancy(bad)
    with pytest.raises(TypeError, match="from_mask"):
        Grid.from_occupancy(occ > 50)
    with pytest.raises(TypeError, match="from_costs"):
        Grid.from_occupancy(occ.astype(float))
    with pytest.raises(InvalidArgumentError, match=r"threshold.*\[1, 101\]"):
        Grid.from_occupancy(occ, threshold=0)
    with pytest.raises(InvalidArgumentError, match="unknown: expected one of blocked|free"):
        Grid.from_occupancy(occ, unknown="open")


def test_from_mask():
    free = np.ones((4, 4), dtype=bool)
    free[1:3, 1:3] = False
    assert np.array_equal(Grid.from_mask(free).to_numpy(), free)
    assert np.array_equal(Grid.from_mask(~free, free=False).to_numpy(), free)
    with pytest.raises(TypeError, match="bool mask expected, got dtype uint8"):
        Grid.from_mask(free.astype(np.uint8))


def test_from_image_grey_rgb_rgba_float():
    img = np.full((4, 6), 255, dtype=np.uint8)
    img[:, 2] = 0          # a black wall
    img[0, 4] = 100        # grey 100: not dark at the default threshold 90
    img[1, 4] = 89         # dark
    g = Grid.from_image(img)
    assert not g.to_numpy()[:, 2].any() and g.to_numpy()[0, 4] and not g.to_numpy()[1, 4]
    assert not g.has_terrain                      # no cost 255 anywhere
    assert g.unsupported_reason(algo="jps") is None   # JPS takes it (no terrain)
    rgb = np.repeat(img[:, :, None], 3, axis=2)
    assert np.array_equal(Grid.from_image(rgb).to_numpy(), g.to_numpy())
    rgba = np.concatenate([rgb, np.zeros((4, 6, 1), np.uint8)], axis=2)
    assert np.array_equal(Grid.from_image(rgba).to_numpy(), g.to_numpy())
    assert np.array_equal(Grid.from_image(img / 255.0).to_numpy(), g.to_numpy())
    assert np.array_equal(Grid.from_image(img, dark="free").to_numpy(), ~g.to_numpy())
    assert Grid.from_image(img, threshold=101).to_numpy()[0, 4] == False  # noqa: E712
    with pytest.raises(InvalidArgumentError, match="float pixel 2"):
        Grid.from_image(img / 127.5)
    with pytest.raises(TypeError, match="uint8 image"):
        Grid.from_image(img.astype(np.int16))


def test_from_costs_wall_said_once():
    c = np.array([[1.0, 2.0, np.inf], [1.5, 1.0, 1.0]])
    g = Grid.from_costs(c)
    assert np.array_equal(g.to_numpy(costs=True), c.astype(np.float32))
    with pytest.raises(InvalidArgumentError, match=r"cost 0 at \(row=0, col=0\).*wall='inf'"):
        Grid.from_costs(np.where(c == 1.0, 0.0, c))
    z = np.where(np.isinf(c), 0.0, c)
    assert np.array_equal(Grid.from_costs(z, wall="zero").to_numpy(), g.to_numpy())
    with pytest.raises(InvalidArgumentError, match="with wall='zero' a wall is 0"):
        Grid.from_costs(c, wall="zero")
    for wall in ("inf", "zero"):
        with pytest.raises(InvalidArgumentError, match=r"NaN is not a cost"):
            Grid.from_costs(np.where(c == 2.0, np.nan, z if wall == "zero" else c), wall=wall)
    with pytest.raises(InvalidArgumentError, match="negative"):
        Grid.from_costs(-c)
    with pytest.raises(TypeError, match="from_mask"):
        Grid.from_costs(c > 1)
    with pytest.raises(InvalidArgumentError, match="wall: expected one of inf|zero"):
        Grid.from_costs(c, wall="nan")


def test_hex_grid_has_the_constructors():
    occ = ros_map()
    h = libastar.HexGrid.from_occupancy(occ, unknown="free", orientation="flat")
    assert h.to_numpy()[2, 3] and not h.to_numpy()[1, 3] and h.orientation == "flat"
    assert np.array_equal(libastar.HexGrid.from_mask(occ == 0).to_numpy(), occ == 0)
    assert libastar.HexGrid.from_image(np.zeros((2, 2), np.uint8)).count_passable() == 0
    assert libastar.HexGrid.from_costs(np.full((2, 3), 2.0)).to_numpy(costs=True)[0, 0] == 2


# ---- from_numpy: the ambiguous arrays ---------------------------------------------------

def test_from_numpy_warns_on_an_occupancy_grid():
    occ = ros_map()
    occ[occ == -1] = 0
    with pytest.warns(AmbiguousArrayWarning, match="from_occupancy"):
        g = Grid.from_numpy(occ)
    # the old reading is kept: 0 blocked, 100 terrain
    assert not g.to_numpy()[0, 0] and g.to_numpy(costs=True)[0, 3] == 100


def test_from_numpy_names_from_occupancy_for_unknown_cells():
    with pytest.raises(InvalidArgumentError, match="negative costs.*from_occupancy"):
        Grid.from_numpy(ros_map())


def test_from_numpy_warns_on_an_image():
    img = np.full((4, 4), 255, dtype=np.uint8)
    img[1, :3] = 0
    with pytest.warns(AmbiguousArrayWarning, match="from_image"):
        g = Grid.from_numpy(img)
    assert g.to_numpy(costs=True)[0, 0] == 255
    assert issubclass(AmbiguousArrayWarning, UserWarning)


def test_from_numpy_is_quiet_on_what_it_means():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Grid.from_numpy(np.ones((3, 3), dtype=bool))
        Grid.from_numpy(np.array([[1, 0], [3, 1]], dtype=np.int8))   # 0/1-ish costs
        Grid.from_numpy(np.array([[1.0, np.inf], [2.5, 1.0]]))
        Grid.from_numpy(np.array([[1, 0], [200, 1]], dtype=np.uint8))  # no 255


# ---- (row, col) or (x, y) ----------------------------------------------------------------

def corridor():
    """A square 6x6 map whose only way from the top left to the top right
    runs down and round: a swapped start or goal gives another path."""
    free = np.ones((6, 6), dtype=bool)
    free[0:5, 2] = False
    return free


def test_default_order_is_xy():
    g = Grid.from_mask(corridor())
    assert g.order == "xy" and Grid(3, 3).order == "xy"
    p = g.find_path((0, 0), (5, 0))
    assert p.order == "xy" and tuple(p.cells[-1]) == (5, 0) and p.end == (5, 0)
    assert np.array_equal(p.xy, p.cells) and np.array_equal(p.rc, p.cells[:, ::-1])


def test_order_per_grid():
    free = corridor()
    xy = Grid.from_mask(free).find_path((0, 0), (5, 0))
    g = Grid.from_mask(free, order="rc")
    p = g.find_path((0, 0), (0, 5))       # (row, col)
    assert p.order == "rc" and p.end == (0, 5)
    assert np.array_equal(p.cells, xy.cells[:, ::-1]) and np.array_equal(p.xy, xy.cells)
    assert all(free[r, c] for r, c in p.cells)      # index the array with the path
    assert "(row, col)" in repr(p)
    assert g.path_cost(p.cells) == pytest.approx(p.cost)
    assert pickle.loads(pickle.dumps(g)).order == "rc"
    for make in (Grid.from_occupancy, Grid.from_image):
        arr = np.where(free, 0, 100).astype(np.int8) if make == Grid.from_occupancy else \
            np.where(free, 255, 0).astype(np.uint8)
        assert make(arr, order="rc").find_path((0, 0), (0, 5)).cost == pytest.approx(p.cost)
    assert Grid(4, 2, order="rc").shape == (2, 4)


def test_order_per_call_overrides_the_grid():
    g = Grid.from_mask(corridor())                  # 'xy'
    p = g.find_path((0, 0), (0, 5), order="rc")
    q = g.find_path((0, 0), (5, 0))
    assert p.order == "rc" and np.array_equal(p.cells, q.cells[:, ::-1])
    assert g.find_path_any((0, 0), [(0, 5)], order="rc").end == (0, 5)
    f = libastar.Finder(g, "jps")
    assert np.array_equal(f.find((0, 0), (0, 5), order="rc").cells, p.cells)
    s = f.begin((0, 0), (0, 5), order="rc")
    while not s.step(100):
        pass
    assert np.array_equal(s.finish().cells, p.cells)
    assert g.path_cost(p.cells, order="rc") == pytest.approx(q.cost)
    with pytest.raises(InvalidArgumentError, match="order: expected 'xy' or 'rc'"):
        g.find_path((0, 0), (5, 0), order="yx")
    with pytest.raises(InvalidArgumentError, match="order"):
        Grid(3, 3, order="ij ")


def test_swapped_points_are_not_read_silently():
    """On a square map a (row, col) point read as (x, y) is another cell:
    an RC / XY point is read as it says, and an explicit order that
    contradicts it is an error, not another path."""
    g = Grid.from_mask(corridor())                  # 'xy'
    right = g.find_path((0, 0), (5, 0))
    assert np.array_equal(g.find_path(libastar.RC(0, 0), libastar.RC(0, 5)).cells, right.cells)
    rc = Grid.from_mask(corridor(), order="rc")
    assert np.array_equal(rc.find_path(libastar.XY(0, 0), libastar.XY(5, 0)).xy, right.cells)
    with pytest.raises(InvalidArgumentError, match=r"goal: RC\(0, 5\) given with order='xy'"):
        g.find_path((0, 0), libastar.RC(0, 5), order="xy")
    wrong = g.find_path((0, 0), (0, 5))             # a plain tuple in the wrong order
    assert not np.array_equal(wrong.cells, right.cells)


def test_the_queue_follows_the_order():
    rc = Grid.from_mask(corridor(), order="rc")
    want = rc.find_path((0, 0), (0, 5))
    q = libastar.Queue(rc)
    a = q.submit((0, 0), (0, 5))                       # the grid's order
    b = q.submit((0, 0), (5, 0), order="xy")           # the call's
    q.run()
    pa, pb = q.outcome(a).path, q.outcome(b).path
    assert pa.order == "rc" and np.array_equal(pa.cells, want.cells)
    assert pb.order == "xy" and np.array_equal(pb.cells, want.xy)


def test_waypoints_follow_the_order():
    free = corridor()
    xy = Grid.from_mask(free)
    rc = Grid.from_mask(free, order="rc")
    want = xy.waypoints().find_path((0, 0), (5, 0))
    got = rc.waypoints().find_path((0, 0), (0, 5))
    assert got.order == "rc" and np.array_equal(got.cells, want.cells[:, ::-1])
    assert np.array_equal(libastar.Waypoints.expand(got),
                          libastar.Waypoints.expand(want)[:, ::-1])
    assert rc.waypoints().find_path(libastar.XY(0, 0), libastar.XY(5, 0)).cost == want.cost
    assert np.array_equal(xy.waypoints().find_path((0, 0), (0, 5), order="rc").cells, got.cells)


def test_planning_follows_the_grids_order():
    """Fields, islands, smoothing and D* Lite / LPA* read and give cells in
    the grid's order (they call _point_in / _cells_out)."""
    free = corridor()
    xy, rc = Grid.from_mask(free), Grid.from_mask(free, order="rc")
    fx, fr = xy.field((5, 0)), rc.field((0, 5))
    assert np.array_equal(fr.goals, [[0, 5]]) and np.array_equal(fr.cost, fx.cost)
    assert np.array_equal(fr.path((0, 0)), fx.path((0, 0))[:, ::-1])
    assert np.array_equal(fr.next, fx.next[..., ::-1])
    assert rc.same_island((0, 0), (0, 5)) and rc.islands().of((5, 0)) == xy.islands().of((0, 5))
    p = rc.find_path((0, 0), (0, 5))
    s = rc.smooth(p)
    assert s.order == "rc" and np.array_equal(s.xy, xy.smooth(xy.find_path((0, 0), (5, 0))).cells)
    for kind in (libastar.DStarLite, libastar.LPAStar):
        pr, px = kind(rc, (0, 0), (0, 5)), kind(xy, (0, 0), (5, 0))
        assert pr.goal == (0, 5) and pr.plan().order == "rc"
        assert np.array_equal(pr.path().cells, px.plan().cells[:, ::-1])
    d = libastar.DStarLite(rc, (0, 0), (0, 5))
    step = d.next()
    assert step == tuple(d.path().cells[1]) and free[step]
    d.move_to(step)
    assert d.start == step
