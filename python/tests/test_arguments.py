"""Arguments at the package's boundary (issue 25, items 21 and 22): cells are
integers -- Python ints or NumPy integers, never str, float or bool -- and a
coordinate beyond int32 is a cell outside the grid like any other; bad
sizes, costs, heuristic values and limits raise errors naming the argument;
a masked array's masked cells are blocked. Real-number arguments (costs,
weights, factors) and yes-or-no arguments follow rules of the same kind
(issue 25, item 22): no str, bool or truthy object read as a number or a
flag."""
import decimal
import fractions
import math
import re

import numpy as np
import pytest

import libastar as la

# ---- cells: integers only (item 21) ------------------------------------------------------

NOT_CELLS = ["34", ("3", "4"), (2.99, 0.5), (2.0, 1.0), (True, 0), (0, False),
             (np.bool_(True), 0), (1, None), (1, 2, 3), (1,), 5, None, b"34",
             np.array([1.5, 2.0]), {1, 2}]


@pytest.mark.parametrize("bad", NOT_CELLS, ids=repr)
def test_a_cell_that_is_not_two_integers_is_refused(bad):
    g = la.Grid(10, 10)
    with pytest.raises(TypeError, match="start: an \\(x, y\\) pair of integers"):
        g.find_path(bad, (5, 5))
    with pytest.raises(TypeError, match="goal: an \\(x, y\\) pair of integers"):
        g.find_path((0, 0), bad)


@pytest.mark.parametrize("bad", NOT_CELLS[:6], ids=repr)
def test_every_search_takes_cells_by_the_same_rule(bad):
    g = la.Grid(10, 10)
    h = la.HexGrid(10, 10)
    wp = g.waypoints()
    q = la.Queue(g)
    for call in (lambda: g.find_path(bad, (5, 5), algo="jps"),
                 lambda: g.find_path(bad, (5, 5), algo="jps-plus"),
                 lambda: g.find_path(bad, (5, 5), algo="bidir"),
                 lambda: g.find_path_any(bad, [(5, 5)]),
                 lambda: h.find_path(bad, (5, 5)),
                 lambda: wp.find_path(bad, (5, 5)),
                 lambda: q.submit(bad, (5, 5))):
        with pytest.raises(TypeError, match="start"):
            call()
    assert q.pending == 0


@pytest.mark.parametrize("x", ["3", 2.5, 3.0, True, np.bool_(False), None, np.float32(1)],
                         ids=repr)
def test_the_cell_methods_take_integers_only(x):
    g = la.Grid(10, 10)
    h = la.HexGrid(10, 10)
    for grid in (g, h):
        for call in (lambda: grid.passable(x, 1), lambda: grid.contains(x, 1),
                     lambda: grid.terrain(x, 1), lambda: grid.set_passable(x, 1, False),
                     lambda: grid.set_terrain(x, 1, 2.0)):
            with pytest.raises(TypeError, match="x: an integer expected"):
                call()
        with pytest.raises(TypeError, match="y: an integer expected"):
            grid.passable(1, x)
    assert g.count_passable() == 100 and not g.has_terrain
    with pytest.raises(TypeError, match="a: an \\(x, y\\) pair"):
        g.waypoints().visible((x, 1), (2, 2))
    with pytest.raises(TypeError, match="a: an \\(x, y\\) pair"):
        h.distance((x, 1), (2, 2))
    with pytest.raises(TypeError, match="cell: an \\(x, y\\) pair"):
        h.neighbor((x, 1), 0)


def test_numpy_integers_are_cells():
    g = la.Grid(10, 10)
    want = g.find_path((3, 4), (5, 5))
    for start in [(np.int64(3), np.int64(4)), (np.uint8(3), np.int16(4)),
                  np.array([3, 4], dtype=np.int32), np.array([3, 4], dtype=np.uint64), [3, 4],
                  (np.array(3), 4)]:
        p = g.find_path(start, (5, 5))
        assert p.cells.tolist() == want.cells.tolist()
    assert g.passable(np.int32(3), np.uint16(4)) and g.contains(np.int64(9), 9)
    g.set_passable(np.int8(1), np.int8(1), False)
    assert not g.passable(1, 1)
    h = la.HexGrid(6, 6)
    assert h.distance(np.array([0, 0]), (np.int64(3), 0)) == h.distance((0, 0), (3, 0)) == 3
    q = la.Queue(g)
    q.submit(np.array([0, 0]), (np.int32(5), np.int32(5)))
    q.run()


def test_integer_arrays_of_cells_and_wrong_dtypes():
    g = la.Grid(10, 10)
    assert g.find_path_any((0, 0), np.array([[5, 5]], dtype=np.uint16)).end == (5, 5)
    assert g.path_cost(np.array([[0, 0], [1, 1]], dtype=np.int64)) == pytest.approx(math.sqrt(2))
    # Lists: cell by cell, naming the first bad one.
    for bad in ([(0, 0), (1.0, 1.0)], [(0, 0), ("1", "1")], [(0, 0), (True, False)],
                [(0, 0), (1,)], [(0, 0), (2**70, "x")], [(0, 0), (np.uint64(1), 1.5)]):
        for call, what in ((g.path_cost, "cells"), (lambda c: g.find_path_any((0, 0), c), "goals"),
                           (la.Waypoints.expand, "waypoints")):
            with pytest.raises(TypeError,
                               match=re.escape(f"{what}[1]: an (x, y) pair of integers")):
                call(bad)
    # Arrays: by their dtype.
    for bad in (np.array([[0.5, 0], [1, 1]]), np.array([[True, False]]), np.array([["0", "1"]])):
        with pytest.raises(TypeError, match="cells: \\(x, y\\) pairs of integers"):
            g.path_cost(bad)
        with pytest.raises(TypeError, match="waypoints: \\(x, y\\) pairs of integers"):
            la.Waypoints.expand(bad)


HUGE = [2**40, -2**40, 2**31, -2**31 - 1, 2**70, -2**70, np.int64(2**40), np.uint64(2**63)]


@pytest.mark.parametrize("v", HUGE, ids=repr)
def test_a_coordinate_beyond_int32_is_out_of_bounds(v):
    """Not OverflowError: the package's own error for a cell outside the grid,
    and the queries answer as for any other outside cell."""
    g = la.Grid(10, 10)
    for start, goal in (((v, 0), (5, 5)), ((0, v), (5, 5)), ((0, 0), (v, 1)), ((0, 0), (1, v))):
        for algo in ("astar", "jps", "bidir"):
            with pytest.raises(la.OutOfBoundsError):
                g.find_path(start, goal, algo=algo)
        with pytest.raises(la.OutOfBoundsError):
            la.HexGrid(10, 10).find_path(start, goal)
        with pytest.raises(la.OutOfBoundsError):
            g.waypoints().find_path(start, goal)
    assert not g.passable(v, 0) and not g.contains(0, v) and g.terrain(v, v) == 0
    with pytest.raises(la.OutOfBoundsError):
        g.set_passable(v, 0, False)
    with pytest.raises(la.OutOfBoundsError):
        g.set_terrain(0, v, 2.0)
    h = la.HexGrid(10, 10)
    assert not h.passable(v, 0) and not h.contains(0, v)
    with pytest.raises(la.OutOfBoundsError):
        h.set_passable(0, v)
    assert not g.waypoints().visible((0, 0), (v, 0))
    # Several goals: the outside one is skipped, as the others outside are.
    assert g.find_path_any((0, 0), [(v, 0), (3, 3)]).end == (3, 3)
    with pytest.raises(la.InvalidArgumentError) as e:
        g.path_cost([(0, 0), (v, 0)])
    assert e.value.index == 1
    q = la.Queue(g)
    rid = q.submit((v, 0), (5, 5))
    q.run()
    assert q.outcome(rid).status == la.Status.OUT_OF_BOUNDS


@pytest.mark.parametrize("v", [2**31, 2**40, -2**31 - 1, 2**70], ids=repr)
def test_coordinates_not_tied_to_a_grid_beyond_int32_are_refused(v):
    """A hex distance or a walked line has no grid to be outside of: beyond
    int32 it is an error, not a saturated (wrong) answer."""
    h = la.HexGrid(10, 10)
    with pytest.raises(la.OutOfBoundsError, match="b: .* beyond the int32"):
        h.distance((0, 0), (v, 0))
    with pytest.raises(la.OutOfBoundsError, match="cell: .* beyond the int32"):
        h.neighbor((0, v), 1)
    with pytest.raises(la.OutOfBoundsError, match="waypoints.* beyond the int32"):
        la.Waypoints.expand([(0, 0), (v, 0)])


# ---- errors naming the argument (item 22) -------------------------------------------------

@pytest.mark.parametrize("cls", [la.Grid, la.HexGrid])
def test_sizes_name_the_argument(cls):
    for w, h, name, err in ((0, 5, "width", la.InvalidArgumentError),
                            (-1, 5, "width", la.InvalidArgumentError),
                            (5, 0, "height", la.InvalidArgumentError),
                            (5, -2**40, "height", la.InvalidArgumentError),
                            (40000, 5, "width", la.TooLargeError),
                            (2**40, 5, "width", la.TooLargeError),
                            (20000, 20000, "width x height", la.TooLargeError)):
        with pytest.raises(err, match=f"{name}: ") as e:
            cls(w, h)
        assert str(h if name == "height" else w) in str(e.value)
    for bad in ("5", 5.0, True, None):
        with pytest.raises(TypeError, match="width: an integer expected"):
            cls(bad, 5)
    assert cls(np.int64(3), np.uint8(2)).shape == (2, 3)


@pytest.mark.parametrize("cls", [la.Grid, la.HexGrid])
@pytest.mark.parametrize("shape", [(0, 10), (10, 0), (0, 0)])
def test_an_empty_array_names_the_array(cls, shape):
    for dtype in (bool, float):
        with pytest.raises(la.InvalidArgumentError,
                           match=re.escape(f"array: shape {shape} has no cells")):
            cls.from_numpy(np.zeros(shape, dtype=dtype))


def test_graph_capacity_names_max_states_not_a_grid():
    with pytest.raises(la.CapacityError) as e:
        la.find_graph_path(0, -1, lambda n: [(n + 1, 1.0)], max_states=1000)
    text = str(e.value)
    assert "max_states=1000" in text and "grid" not in text, text
    assert e.value.status == la.Status.CAPACITY
    # Enough room: the same search succeeds.
    p = la.find_graph_path(0, 500, lambda n: [(n + 1, 1.0)], max_states=1000)
    assert p.cost == 500


@pytest.mark.parametrize("name", ["max_states", "max_degree"])
@pytest.mark.parametrize("bad", [0, -1, 2**32, 1.5, True, "10"], ids=repr)
def test_graph_limits_are_checked(name, bad):
    # Not integers: TypeError, by the rule of every integer argument (below).
    err, text = ((TypeError, f"{name}: an integer expected") if isinstance(bad, (bool, float, str))
                 else (la.InvalidArgumentError, f"{name}: an integer in [1, 2^32 - 1] expected"))
    with pytest.raises(err, match=re.escape(text)):
        la.find_graph_path(0, 3, lambda n: [(n + 1, 1.0)], **{name: bad})


@pytest.mark.parametrize("cost", [1e-50, 5e-46, 1e-300])
def test_a_cost_underflowing_float32_is_named_by_its_value(cost):
    text = f"{cost:g}"
    for cls in (la.Grid, la.HexGrid):
        with pytest.raises(la.InvalidArgumentError, match="float32") as e:
            cls.from_numpy(np.array([[1.0, cost]]))
        assert text in str(e.value) and "(x=1, y=0)" in str(e.value)
        g = cls(2, 2)
        with pytest.raises(la.InvalidArgumentError, match="float32") as e:
            g.set_terrain(1, 1, cost)
        assert text in str(e.value) and g.terrain(1, 1) == 1.0
    # The smallest float32 itself is a cost.
    g = la.Grid.from_numpy(np.array([[1.0, 1.5e-45]]))
    assert 0 < g.terrain(1, 0) < 1e-44


def test_a_cost_too_large_is_named_by_its_value():
    for cost in (1e40, 5e9):
        with pytest.raises(la.InvalidArgumentError, match="at most 1e\\+09") as e:
            la.Grid.from_numpy(np.array([[1.0, cost]]))
        assert f"{cost:g}" in str(e.value)
        with pytest.raises(la.InvalidArgumentError) as e:
            la.Grid(2, 2).set_terrain(0, 0, cost)
        assert f"cost: a number in (0, 1e9] expected, got {cost!r}" in str(e.value)


@pytest.mark.parametrize("value", [math.nan, -1.0, -1e-9, math.inf, -math.inf])
def test_a_bad_heuristic_value_is_an_error_where_it_is_returned(value):
    calls = []

    def h(cell, goal):
        calls.append(cell)
        return value if len(calls) == 3 else 0.0

    g = la.Grid(20, 20)
    for algo in ("astar",):  # the searches taking a Python heuristic
        calls.clear()
        with pytest.raises(ValueError, match=f"heuristic\\(\\(\\d+, \\d+\\), \\(19, 19\\)\\) "
                                             f"returned {value!r}"):
            g.find_path((0, 0), (19, 19), heuristic=h, algo=algo)
        # The search stopped there, calling no more Python.
        assert len(calls) == 3, (algo, len(calls))
    # The same for a graph of your own.
    calls.clear()
    with pytest.raises(ValueError, match=f"heuristic\\(node, goal\\) returned {value!r}"):
        la.find_graph_path(0, 50, lambda n: [(n + 1, 1.0), (n - 1, 1.0)],
                           heuristic=lambda a, b: h(a, b))
    assert len(calls) == 3


def test_good_heuristic_values_still_work():
    g = la.Grid(20, 20)
    p = g.find_path((0, 0), (19, 19), heuristic=lambda c, t: 0)
    assert p.cost == pytest.approx(19 * math.sqrt(2))
    p = g.find_path((0, 0), (19, 19), heuristic=lambda c, t: np.float32(max(abs(c[0] - t[0]),
                                                                           abs(c[1] - t[1]))))
    assert p.cost == pytest.approx(19 * math.sqrt(2))


# ---- masked arrays: masked cells are blocked (item 22) ------------------------------------

@pytest.mark.parametrize("cls", [la.Grid, la.HexGrid])
def test_masked_cells_are_blocked(cls):
    mask = np.array([[0, 1, 0], [0, 1, 0], [0, 0, 0]], dtype=bool)
    g = cls.from_numpy(np.ma.masked_array(np.ones((3, 3), dtype=bool), mask=mask))
    np.testing.assert_array_equal(g.to_numpy(), ~mask)
    # Costs: the data under the mask does not matter (not even a negative
    # cost); the rest keeps its costs.
    costs = np.ma.masked_array([[1.0, -5.0, 2.0], [1.0, np.nan, 3.0], [1.0, 1e-50, 1.0]],
                               mask=[[0, 1, 0], [0, 1, 0], [0, 1, 0]])
    g = cls.from_numpy(costs)
    want = np.array([[1, np.inf, 2], [1, np.inf, 3], [1, np.inf, 1]], dtype=np.float32)
    np.testing.assert_array_equal(g.to_numpy(costs=True), want)
    # Integers with a mask, and a mask of nothing.
    g = cls.from_numpy(np.ma.masked_equal(np.array([[1, 7], [3, 1]]), 7))
    assert not g.passable(1, 0) and g.terrain(0, 1) == 3
    assert cls.from_numpy(np.ma.masked_array(np.ones((2, 2)))).count_passable() == 4
    if cls is la.Grid:
        g = la.Grid.from_numpy(np.ma.masked_array(np.ones((3, 3), dtype=bool), mask=mask))
        p = g.find_path((0, 0), (2, 0))
        assert not any(mask[y, x] for x, y in p) and len(p) > 3  # around the masked cells


# ---- every other integer argument: the rule of cells (items 21 and 22) ---------------------

class _Objects:
    """What the calls below work on: a grid with one wall (so its waypoint
    graph has 4 waypoints), a hex grid, a queue holding one request."""

    def __init__(self):
        self.grid = la.Grid(10, 10)
        self.grid.set_passable(5, 5, False)
        self.hex = la.HexGrid(6, 6)
        self.wp = self.grid.waypoints()
        self.queue = la.Queue(self.grid)
        self.rid = self.queue.submit((0, 0), (9, 9))

    def graph(self, **kw):
        return la.find_graph_path(0, 3, lambda n: [(n + 1, 1.0)], **kw)


# (argument, call(objects, value)): every integer argument but cells and sizes.
INTEGER_ARGS = [
    ("max_expansions", lambda o, v: la.Options(max_expansions=v)),
    ("max_expansions", lambda o, v: o.grid.find_path((0, 0), (9, 9), max_expansions=v)),
    ("max_expansions", lambda o, v: o.hex.find_path((0, 0), (5, 5), max_expansions=v)),
    ("max_expansions", lambda o, v: o.wp.find_path((0, 0), (9, 9), max_expansions=v)),
    ("max_expansions", lambda o, v: o.graph(max_expansions=v)),
    ("moves", lambda o, v: la.Options(moves=v)),
    ("beam_width", lambda o, v: la.Options(beam_width=v)),
    ("beam_width", lambda o, v: o.hex.find_path((0, 0), (5, 5), algo="beam", beam_width=v)),
    ("retarget_interval", lambda o, v: la.Options(retarget_interval=v)),
    ("max_states", lambda o, v: o.graph(max_states=v)),
    ("max_degree", lambda o, v: o.graph(max_degree=v)),
    ("capacity", lambda o, v: la.Queue(o.grid, v)),
    ("path_capacity", lambda o, v: la.Queue(o.grid, path_capacity=v)),
    ("priority", lambda o, v: o.queue.submit((0, 0), (9, 9), priority=v)),
    ("budget", lambda o, v: o.queue.update(v)),
    ("budget", lambda o, v: la.Queue(o.grid).run(budget=v)),
    ("max_updates", lambda o, v: o.queue.run(max_updates=v)),
    ("rid", lambda o, v: o.queue.poll(v)),
    ("rid", lambda o, v: o.queue.cancel(v)),
    ("rid", lambda o, v: o.queue.release(v)),
    ("n", lambda o, v: o.queue.set_restarts(v)),
    ("d", lambda o, v: o.hex.neighbor((2, 2), v)),
    ("i", lambda o, v: o.wp.neighbors(v)),
    ("status", lambda o, v: la.strerror(v)),
]
ARG_IDS = [f"{name}-{k}" for k, (name, _) in enumerate(INTEGER_ARGS)]

NOT_INTEGERS = ["100", "3", 2.5, 3.0, True, False, np.bool_(True), None, np.float64(3.0), b"3",
                [3], np.array([3, 4])]


@pytest.mark.parametrize("name,call", INTEGER_ARGS, ids=ARG_IDS)
def test_integer_arguments_take_integers_only(name, call):
    """int() read "100" as 100, 2.5 as 2 and True as 1; now TypeError
    naming the argument, as for a cell."""
    o = _Objects()
    for bad in NOT_INTEGERS:
        if bad is None and name == "max_updates":
            continue  # None: no limit
        with pytest.raises(TypeError, match=re.escape(f"{name}: an integer expected, got ")):
            call(o, bad)
    # Nothing was done on the way: the queue holds its one request still.
    assert o.queue.pending == 1 and o.queue.poll(o.rid) == "queued"


def test_numpy_integers_are_integer_arguments():
    o = _Objects()
    opts = la.Options(max_expansions=np.uint64(500), moves=np.int8(4), beam_width=np.int32(7),
                      retarget_interval=np.uint16(9))
    assert (opts.max_expansions, opts.moves, opts.beam_width, opts.retarget_interval) == \
        (500, 4, 7, 9)
    assert type(opts.max_expansions) is int and type(opts.moves) is int
    assert o.grid.find_path((0, 0), (9, 9), max_expansions=np.int64(1000)).cost > 0
    q = la.Queue(o.grid, np.int64(4), path_capacity=np.uint32(3))
    rid = q.submit((0, 0), (9, 9), priority=np.int16(-2))
    assert q.poll(np.uint32(rid)) == "queued"
    q.set_restarts(np.uint8(2))
    q.update(np.int64(10_000))
    assert q.poll(np.int64(rid)) == "done" and q.outcome(rid).ok
    q.release(np.uint64(rid))
    assert q.run(budget=np.int32(10), max_updates=np.int8(3)) == 0
    assert o.hex.neighbor((2, 2), np.int64(1)) == o.hex.neighbor((2, 2), 1)
    assert o.wp.neighbors(np.int32(0)) == o.wp.neighbors(0) != []
    assert la.strerror(np.int64(1)) == la.strerror(la.Status.NO_PATH) == la.strerror(1)
    assert o.graph(max_states=np.int64(100), max_degree=np.uint8(2),
                   max_expansions=np.int64(100)).cost == 3


U64, U32 = 2**64 - 1, 2**32 - 1
# (argument index in INTEGER_ARGS, values out of range, the range as named).
OUT_OF_RANGE = [
    (0, [-1, 2**64, 2**64 + 1, -2**70], "0, 2^64 - 1"),
    (1, [-1, 2**64 + 1], "0, 2^64 - 1"),   # 2**64 + 1 wrapped to 1: LimitReachedError
    (2, [-1, 2**64 + 1], "0, 2^64 - 1"),
    (3, [-1, 2**64 + 1], "0, 2^64 - 1"),
    (4, [-1, 2**64 + 1], "0, 2^64 - 1"),
    (6, [0, -1, 2**32], "1, 2^32 - 1"),
    (7, [0, 2**32 + 5], "1, 2^32 - 1"),
    (8, [0, 2**32], "1, 2^32 - 1"),
    (11, [0, -1, 2**24 + 1, 2**63], "1, 2^24"),
    (12, [0, -5, 2**28 + 1, 2**61], "1, 2^28"),  # 2**61 cells: 2**64 bytes, wrapped to 0
    (13, [2**31, -2**31 - 1, 2**70], "-2^31, 2^31 - 1"),
    (14, [0, -1, 2**64, 2**64 + 1], "1, 2^64 - 1"),  # -1 ran without limit, 2**64 + 1 as 1
    (15, [0, -1], "1, 2^64 - 1"),
    (16, [-1, 2**64], "0, 2^64 - 1"),
    (17, [-1, 2**32, 2**64 + 1], "0, 2^32 - 1"),
    (18, [-1, 2**32], "0, 2^32 - 1"),
    (19, [-1, 2**32], "0, 2^32 - 1"),
    (20, [-1, 2**32, 2**64], "0, 2^32 - 1"),
    (21, [-1, 6, 2**70, -2**70], "0, 5"),
    (22, [-1, 4, 2**32 + 1, 2**64 + 1], "0, 3"),  # 2**64 + 1 gave the neighbours of 1
    (23, [-1, len(la.Status), 2**70], f"0, {len(la.Status) - 1}"),
]


@pytest.mark.parametrize("k,values,bounds", OUT_OF_RANGE,
                         ids=[ARG_IDS[k] for k, _, _ in OUT_OF_RANGE])
def test_integers_out_of_range_name_the_argument_and_the_range(k, values, bounds):
    """Not OverflowError, not wrapped modulo 2^32 or 2^64 on the way to C,
    not quietly clamped: the package's error with the argument and its
    range (an index: OutOfBoundsError, an IndexError)."""
    name, call = INTEGER_ARGS[k]
    err = la.OutOfBoundsError if name == "i" else la.InvalidArgumentError
    o = _Objects()
    for v in values:
        with pytest.raises(err) as e:
            call(o, v)
        assert f"{name}: an integer in [{bounds}] expected, got {v!r}" in str(e.value)
    assert o.queue.pending == 1 and o.queue.poll(o.rid) == "queued"


def test_the_ends_of_the_ranges_are_accepted():
    o = _Objects()
    assert o.grid.find_path((0, 0), (9, 9), max_expansions=U64).cost > 0
    assert la.Options(beam_width=U32, retarget_interval=1).beam_width == U32
    q = o.queue
    q.set_restarts(U32)
    q.set_restarts(0)
    assert q.poll(U32) == q.poll(0) == "unknown"
    a = q.submit((0, 0), (9, 9), priority=2**31 - 1)
    b = q.submit((0, 0), (9, 9), priority=-2**31)
    q.update(U64)
    assert all(q.poll(r) == "done" for r in (o.rid, a, b))
    assert q.run(budget=U64, max_updates=0) == 0
    assert la.Queue(o.grid, 1, path_capacity=1).capacity == 1
    assert [o.hex.neighbor((2, 2), d) for d in range(6)] == \
        [o.hex.neighbor((2, 2), np.int64(d)) for d in range(6)]
    assert o.wp.count == 4 and o.wp.neighbors(3) != []
    assert la.strerror(0) and la.strerror(len(la.Status) - 1)


@pytest.mark.parametrize("moves", [6, 0, -4, 2**70])
def test_moves_is_4_or_8(moves):
    with pytest.raises(la.InvalidArgumentError, match=f"moves: expected 4 or 8, got {moves}"):
        la.Options(moves=moves)


def test_an_index_into_an_empty_graph_says_so():
    wp = la.Grid(5, 5).waypoints()   # no walls: no corners, no waypoints
    assert wp.count == 0
    with pytest.raises(la.OutOfBoundsError) as e:
        wp.neighbors(0)
    assert e.value.message == "index out of range"
    assert str(e.value) == "index out of range: i: the graph has no waypoints, got 0"


# ---- real-number arguments: costs, weights, factors (item 22) ------------------------------

# (argument, call(objects, value), the accepted range as named): every
# real-number argument, through every way in.
REAL_ARGS = [
    ("straight_cost", lambda o, v: la.Options(straight_cost=v), "a number in (0, 1e9]"),
    ("diagonal_cost", lambda o, v: la.Options(diagonal_cost=v), "a number in (0, 1e9]"),
    ("straight_cost", lambda o, v: o.grid.find_path((0, 0), (9, 9), straight_cost=v),
     "a number in (0, 1e9]"),
    ("diagonal_cost", lambda o, v: o.queue.submit((0, 0), (9, 9), diagonal_cost=v),
     "a number in (0, 1e9]"),
    ("weight", lambda o, v: la.Options(weight=v), "a number in [0, 1e9]"),
    ("weight", lambda o, v: o.grid.find_path((0, 0), (9, 9), weight=v), "a number in [0, 1e9]"),
    ("weight", lambda o, v: o.hex.find_path((0, 0), (5, 5), weight=v), "a number in [0, 1e9]"),
    ("weight", lambda o, v: o.wp.find_path((0, 0), (9, 9), weight=v), "a number in [0, 1e9]"),
    ("weight", lambda o, v: o.graph(weight=v), "a number in [0, 1e9]"),
    ("terrain_scale", lambda o, v: la.Options(terrain_scale=v), "a number in [0, 1]"),
    ("turn_penalty", lambda o, v: la.Options(turn_penalty=v), "a number in [0, 1e9]"),
    ("heuristic_floor", lambda o, v: la.Options(heuristic_floor=v), "a number in [0, 1e9]"),
    ("epsilon", lambda o, v: la.Options(epsilon=v), "a finite number >= 0"),
    ("epsilon", lambda o, v: o.hex.find_path((0, 0), (5, 5), algo="dynamic", epsilon=v),
     "a finite number >= 0"),
    ("band_e", lambda o, v: la.Options(band_e=v), "a finite number >= 0"),
    ("band_d", lambda o, v: o.graph(algo="bandwidth", band_d=v), "a finite number >= 0"),
    ("cost", lambda o, v: o.grid.set_terrain(1, 1, v), "a number in (0, 1e9]"),
    ("cost", lambda o, v: o.hex.set_terrain(1, 1, v), "a number in (0, 1e9]"),
    ("straight_cost", lambda o, v: o.grid.waypoints(straight_cost=v), "a number in (0, 1e9]"),
    ("straight_cost", lambda o, v: la.Waypoints(o.grid, straight_cost=v), "a number in (0, 1e9]"),
    ("an arc cost from neighbors()", lambda o, v: o.graph(neighbors=lambda n: [(n + 1, v)]),
     "a finite number >= 0"),
    ("an arc cost from predecessors()",
     # Branching forward, so that the backward search runs too.
     lambda o, v: o.graph(algo="bidir", neighbors=lambda n: [(n + 1, 1.0), (n + 1000, 1.0)],
                          predecessors=lambda n: [(n - 1, v)]), "a finite number >= 0"),
]
REAL_IDS = [f"{name.split()[-1]}-{k}" for k, (name, _, _) in enumerate(REAL_ARGS)]

NOT_REALS = ["2", "1.5", "nan", b"2", True, False, np.bool_(True), np.array(True), None, 2 + 0j,
             np.complex128(2), [2.0], (2.0,), np.array([2.0, 3.0]), np.array("2"),
             fractions.Fraction(3, 2), decimal.Decimal("2"), np.timedelta64(2, "s"), object()]


class _GraphObjects(_Objects):
    def graph(self, neighbors=lambda n: [(n + 1, 1.0)], **kw):
        return la.find_graph_path(0, 3, neighbors, **kw)


def _untouched(o):
    """Nothing was done on the way: no terrain, no cell opened or blocked,
    the queue holds its one request still."""
    assert not o.grid.has_terrain and o.grid.count_passable() == 99 and not o.grid.passable(5, 5)
    assert np.all(o.hex.to_numpy(costs=True) == 1)
    assert o.queue.pending == 1 and o.queue.poll(o.rid) == "queued"


@pytest.mark.parametrize("name,call,bounds", REAL_ARGS, ids=REAL_IDS)
def test_real_arguments_take_real_numbers_only(name, call, bounds):
    """float() read "2" as 2.0 and True as 1.0, and a heuristic's or an
    arc's True counted 1; now TypeError naming the argument."""
    o = _GraphObjects()
    for bad in NOT_REALS:
        with pytest.raises(TypeError, match=re.escape(f"{name}: a real number expected, got ")):
            call(o, bad)
    _untouched(o)


# Outside the library's range (astar/search.h, engine.h, grid.h), by range.
OUT_OF_REAL_RANGE = {
    "a number in (0, 1e9]": [0, 0.0, -0.0, -1, -1e-300, 1e9 * (1 + 1e-15), 2e9, 10**400,
                             math.nan, math.inf, -math.inf, np.float32(np.nan), np.int64(-3)],
    "a number in [0, 1e9]": [-0.5, -1, -1e-300, 1e10, 10**400, -10**400, math.nan, math.inf,
                             -math.inf, np.float64(-2)],
    "a number in [0, 1]": [-0.1, 1.5, 2, math.nan, math.inf],
    "a finite number >= 0": [-1, -1e-300, math.nan, math.inf, -math.inf, 10**400,
                             np.float16(np.inf)],
}


@pytest.mark.parametrize("name,call,bounds", REAL_ARGS, ids=REAL_IDS)
def test_reals_out_of_range_name_the_argument_and_the_range(name, call, bounds):
    """Not accepted and refused later by the library with a bare "invalid
    argument" (weight=1e10), not OverflowError (10**400): the package's
    error naming the argument and its range, the library's own."""
    o = _GraphObjects()
    for v in OUT_OF_REAL_RANGE[bounds]:
        with pytest.raises(la.InvalidArgumentError) as e:
            call(o, v)
        assert f"{name}: {bounds} expected, got {v!r}" in str(e.value)
    _untouched(o)


def test_numpy_numbers_and_the_ends_of_the_ranges_are_real_arguments():
    o = _Objects()
    opts = la.Options(straight_cost=np.float32(2), diagonal_cost=np.int64(3), weight=np.uint8(2),
                      terrain_scale=np.float16(0.5), turn_penalty=np.array(1.5),
                      heuristic_floor=np.longdouble(0), epsilon=np.float64(0.25), band_e=3,
                      band_d=np.int32(1))
    assert (opts.straight_cost, opts.diagonal_cost, opts.weight, opts.terrain_scale,
            opts.turn_penalty, opts.heuristic_floor, opts.epsilon, opts.band_e, opts.band_d) == \
        (2, 3, 2, 0.5, 1.5, 0, 0.25, 3, 1)
    assert all(type(getattr(opts, f)) is float
               for f in ("straight_cost", "diagonal_cost", "weight", "turn_penalty", "band_e"))
    for kw in ({"straight_cost": 1e9, "diagonal_cost": 1e9}, {"weight": 0}, {"weight": 1e9},
               {"terrain_scale": 0}, {"terrain_scale": 1}, {"turn_penalty": 1e9},
               {"heuristic_floor": 1e9}, {"epsilon": 1e300}, {"straight_cost": 5e-324}):
        la.Options(**kw)
    assert o.grid.find_path((0, 0), (9, 0), straight_cost=np.float32(10),
                            diagonal_cost=np.int8(14)).cost == 90
    assert o.hex.find_path((0, 0), (5, 0), weight=np.float32(2)).cost > 0
    assert o.grid.waypoints(straight_cost=np.float64(2)).find_path((0, 0), (9, 0)).cost == 18
    o.grid.set_terrain(1, 1, np.float32(2.5))
    o.grid.set_terrain(2, 2, np.int16(3))
    o.grid.set_terrain(3, 3, 1e9)
    o.hex.set_terrain(1, 1, np.array(4.0))
    assert (o.grid.terrain(1, 1), o.grid.terrain(2, 2), o.grid.terrain(3, 3),
            o.hex.terrain(1, 1)) == (2.5, 3, 1e9, 4)
    p = la.find_graph_path(0, 3, lambda n: [(n + 1, np.float32(0.5)), (n + 2, np.int64(2))],
                           heuristic=lambda a, b: np.float32(0))
    assert p.cost == 1.5


@pytest.mark.parametrize("bad", ["1", True, np.bool_(False), None, 1j, decimal.Decimal(1)],
                         ids=repr)
def test_a_heuristic_value_that_is_not_a_number_is_a_type_error(bad):
    """A heuristic returning True counted 1, "1" raised a TypeError naming
    nothing: now a TypeError naming the call, where it was returned."""
    g = la.Grid(20, 20)
    with pytest.raises(TypeError, match=re.escape("returned ") + ".*"
                       + re.escape(f"{bad!r}: a heuristic is a finite number >= 0")) as e:
        g.find_path((0, 0), (19, 19), heuristic=lambda c, t: bad)
    assert re.match(r"heuristic\(\(\d+, \d+\), \(19, 19\)\) returned", str(e.value))
    with pytest.raises(TypeError, match=re.escape(f"heuristic(node, goal) returned ")):
        la.find_graph_path(0, 5, lambda n: [(n + 1, 1.0)], heuristic=lambda a, b: bad)


# ---- yes-or-no arguments (item 22) ---------------------------------------------------------

# (argument, call(objects, value)): every yes-or-no argument.
FLAG_ARGS = [
    ("passable", lambda o, v: o.grid.set_passable(1, 1, v)),
    ("passable", lambda o, v: o.grid.fill(v)),
    ("passable", lambda o, v: o.hex.set_passable(1, 1, v)),
    ("partial", lambda o, v: la.Options(partial=v)),
    ("partial", lambda o, v: o.grid.find_path((0, 0), (9, 9), partial=v)),
    ("partial", lambda o, v: o.queue.submit((0, 0), (9, 9), partial=v)),
    ("partial", lambda o, v: o.hex.find_path((0, 0), (5, 5), partial=v)),
    ("partial", lambda o, v: o.wp.find_path((0, 0), (9, 9), partial=v)),
    ("partial", lambda o, v: o.graph(partial=v)),
    ("ida_transpositions", lambda o, v: la.Options(ida_transpositions=v)),
    ("ida_transpositions", lambda o, v: o.graph(algo="ida", ida_transpositions=v)),
    ("consistent", lambda o, v: o.graph(consistent=v)),
    ("side_cells", lambda o, v: o.grid.waypoints(side_cells=v)),
    ("side_cells", lambda o, v: la.Waypoints(o.grid, side_cells=v)),
    ("auto_release", lambda o, v: la.Queue(o.grid, auto_release=v)),
    ("costs", lambda o, v: o.grid.to_numpy(costs=v)),
    ("costs", lambda o, v: o.hex.to_numpy(costs=v)),
]
FLAG_IDS = [f"{name}-{k}" for k, (name, _) in enumerate(FLAG_ARGS)]

NOT_FLAGS = ["no", "False", "0", "", "yes", b"", None, 0.0, 1.0, np.float64(0), 0j, [0], [], (),
             np.array([True, False]), np.array([0]), np.array("True"), object()]


@pytest.mark.parametrize("name,call", FLAG_ARGS, ids=FLAG_IDS)
def test_flags_take_true_or_false_only(name, call):
    """The "p" format and bool() took anything truthy: set_passable(x, y,
    "no") opened the cell, fill([0]) the whole grid. Now TypeError naming
    the argument."""
    o = _Objects()
    for bad in NOT_FLAGS:
        with pytest.raises(TypeError, match=re.escape(f"{name}: True or False expected, got ")):
            call(o, bad)
    _untouched(o)


@pytest.mark.parametrize("name,call", FLAG_ARGS, ids=FLAG_IDS)
def test_integers_other_than_0_and_1_are_not_flags(name, call):
    o = _Objects()
    for bad in (2, -1, 2**64, np.int64(2), np.uint8(255)):
        with pytest.raises(la.InvalidArgumentError) as e:
            call(o, bad)
        assert f"{name}: True or False (or 1 or 0) expected, got {bad!r}" in str(e.value)
    _untouched(o)


def test_bools_numpy_bools_0_and_1_are_flags():
    g = la.Grid(4, 4)
    for v, want in ((False, False), (True, True), (np.bool_(False), False), (np.bool_(True), True),
                    (0, False), (1, True), (np.uint8(0), False), (np.int64(1), True),
                    (np.array(False), False), (np.array(1), True)):
        g.set_passable(1, 1, v)
        assert g.passable(1, 1) is want, v
        g.fill(v)
        assert g.count_passable() == (16 if want else 0), v
        opts = la.Options(partial=v, ida_transpositions=v)
        assert opts.partial is want and opts.ida_transpositions is want
        assert g.to_numpy(costs=v).dtype == (np.float32 if want else bool)
        assert la.Queue(g, auto_release=v).auto_release is want
    # A uint8 passability array cell by cell, as the grid stores it.
    cells = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    h = la.HexGrid(2, 2)
    for (y, x), v in np.ndenumerate(cells):
        h.set_passable(x, y, v)
    np.testing.assert_array_equal(h.to_numpy(), cells.astype(bool))
