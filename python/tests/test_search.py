"""Grid.find_path: algorithms, options, outcomes, statuses carried by exceptions."""
import math

import numpy as np
import pytest

import libastar as la

SQRT2 = math.sqrt(2.0)
ALGOS = ["astar", "jps", "jps-plus", "dijkstra", "greedy", "bidir"]
OPTIMAL = ["astar", "jps", "jps-plus", "dijkstra", "bidir"]


@pytest.fixture
def wall():
    """16 x 8, a wall down column 8 from row 0 to 6: the way round is row 7."""
    a = np.ones((8, 16), dtype=bool)
    a[:7, 8] = False
    return la.Grid.from_numpy(a)


def legal(grid, path, **kw):
    """The path's cost recomputed by the library's validator (raises if illegal)."""
    return grid.path_cost(path.cells, **kw)


@pytest.mark.parametrize("algo", ALGOS)
def test_every_algorithm(wall, algo):
    p = wall.find_path((0, 0), (15, 0), algo=algo)
    assert p.status == la.Status.OK and p.cause == la.Status.OK
    assert isinstance(p.cells, np.ndarray) and p.cells.dtype == np.int32
    assert p.cells.shape == (len(p), 2)
    assert tuple(p.cells[0]) == (0, 0) and tuple(p.cells[-1]) == (15, 0)
    assert p.end == (15, 0)
    assert legal(wall, p) == pytest.approx(p.cost, rel=1e-12)
    assert p.expanded > 0 and p.generated >= p.expanded and p.max_open > 0
    assert p.stats["expanded"] == p.expanded
    if algo in OPTIMAL:
        assert p.cost == pytest.approx(7 * SQRT2 + 7 * SQRT2, abs=0) or \
            p.cost == pytest.approx(21.384776310850242)
    assert bool(p) and list(p)[0] == (0, 0)


def test_optimal_algorithms_agree(wall):
    costs = {a: wall.find_path((0, 0), (15, 0), algo=a).cost for a in OPTIMAL}
    assert max(costs.values()) - min(costs.values()) < 1e-9
    a, j = (wall.find_path((0, 0), (15, 0), algo=x) for x in ("astar", "jps"))
    assert j.expanded < a.expanded


def test_start_equals_goal():
    p = la.Grid(3, 3).find_path((1, 1), (1, 1))
    assert len(p) == 1 and p.cost == 0 and p.expanded == 0


def test_long_path_beyond_the_first_buffer():
    # A serpentine maze: the path is far longer than the extension's first
    # buffer (1024 cells), so it is copied from the workspace afterwards.
    a = np.ones((61, 61), dtype=bool)
    for i, y in enumerate(range(1, 60, 2)):
        a[y, :] = False
        a[y, 60 if i % 2 == 0 else 0] = True
    g = la.Grid.from_numpy(a)
    for algo in ("astar", "jps", "jps-plus", "bidir", "greedy"):
        p = g.find_path((0, 0), (0, 60), algo=algo)
        assert len(p) > 1500
        assert legal(g, p) == pytest.approx(p.cost)
    p = g.find_path_any((0, 0), [(0, 60), (60, 60)])
    assert len(p) > 1500


def test_heuristics_and_weights(wall):
    base = wall.find_path((0, 0), (15, 0)).cost
    for h in ("auto", "octile", "chebyshev", "euclidean", "zero"):
        assert wall.find_path((0, 0), (15, 0), heuristic=h).cost == pytest.approx(base)
    w = wall.find_path((0, 0), (15, 0), weight=3)
    assert base <= w.cost <= 3 * base
    z = wall.find_path((0, 0), (15, 0), heuristic="zero")
    assert z.expanded == wall.find_path((0, 0), (15, 0), algo="dijkstra").expanded


def test_moves_corners_costs():
    g = la.Grid(5, 5)
    p4 = g.find_path((0, 0), (4, 4), moves=4)
    assert p4.cost == 8 and len(p4) == 9
    p = g.find_path((0, 0), (4, 4), straight_cost=10, diagonal_cost=14)
    assert p.cost == 56
    g.set_passable(1, 0, False)
    # (0,0) -> (1,1) cuts the corner of (1,0): forbidden by no-cut, allowed by one-side
    assert g.find_path((0, 0), (1, 1)).cost == 2
    assert g.find_path((0, 0), (1, 1), corner="one-side").cost == pytest.approx(SQRT2)
    assert g.find_path((0, 0), (1, 1), corner="never").cost == 2


def test_terrain_costs():
    a = np.ones((3, 5))
    a[1, 1:4] = 9  # a swamp in the middle row
    g = la.Grid.from_numpy(a)
    p = g.find_path((0, 1), (4, 1), moves=4)
    assert p.cost == 6  # round the swamp: up, 4 across... then down
    assert legal(g, p, moves=4) == 6
    with pytest.raises(la.UnsupportedError) as e:
        g.find_path((0, 1), (4, 1), algo="jps")
    assert "terrain" in e.value.detail
    assert g.unsupported_reason(algo="jps") == e.value.detail
    assert g.unsupported_reason() is None


def test_turn_penalty_and_scaling():
    g = la.Grid(8, 8)
    straight = g.find_path((0, 0), (7, 3), turn_penalty=5)
    assert straight.cost >= g.find_path((0, 0), (7, 3)).cost
    t = la.Grid.from_numpy(np.full((4, 4), 3.0))
    assert t.find_path((0, 0), (3, 0), terrain_scale=0.0).cost == 3
    assert t.find_path((0, 0), (3, 0)).cost == 9


def test_space_graph_runs_the_engine(wall):
    a = wall.find_path((0, 0), (15, 0))
    e = wall.find_path((0, 0), (15, 0), space="graph")
    assert e.cost == pytest.approx(a.cost)
    with pytest.raises(la.InvalidArgumentError):
        la.Options(algo="jps", space="graph")
    with pytest.raises(la.UnsupportedError) as err:
        wall.find_path((0, 0), (15, 0), algo="bidir", tie="cross")
    assert "ties" in err.value.detail


def test_no_path_raises_with_statistics():
    a = np.ones((5, 5), dtype=bool)
    a[:, 2] = False
    g = la.Grid.from_numpy(a)
    with pytest.raises(la.NoPathError) as e:
        g.find_path((0, 0), (4, 4))
    err = e.value
    assert err.status == la.Status.NO_PATH and err.status.name == "NO_PATH"
    assert err.code == 1 and err.message == la.strerror(1) == str(err)
    assert err.path.expanded == 10 and len(err.path) == 0 and err.path.end is None
    # partial: the path to the best node instead
    p = g.find_path((0, 0), (4, 4), partial=True)
    assert p.status == la.Status.PARTIAL and p.cause == la.Status.NO_PATH
    assert p.end is not None and p.end[0] == 1


def test_limit_reached():
    g = la.Grid(50, 50)
    with pytest.raises(la.LimitReachedError) as e:
        g.find_path((0, 0), (49, 49), heuristic="zero", max_expansions=10)
    assert e.value.path.expanded == 10
    p = g.find_path((0, 0), (49, 49), heuristic="zero", max_expansions=10, partial=True)
    assert p.status == la.Status.PARTIAL and p.cause == la.Status.LIMIT_REACHED


@pytest.mark.parametrize("algo", ALGOS)
def test_blocked_and_outside(algo):
    g = la.Grid(4, 4)
    g.set_passable(0, 0, False)
    g.set_passable(3, 3, False)
    with pytest.raises(la.StartBlockedError) as e:
        g.find_path((0, 0), (1, 1), algo=algo)
    assert e.value.status == la.Status.START_BLOCKED
    with pytest.raises(la.GoalBlockedError):
        g.find_path((1, 1), (3, 3), algo=algo)
    with pytest.raises(la.OutOfBoundsError) as e:
        g.find_path((1, 1), (9, 1), algo=algo)
    assert isinstance(e.value, IndexError)


def test_bad_options():
    g = la.Grid(3, 3)
    for kw in ({"algo": "dfs"}, {"moves": 6}, {"corner": "sometimes"}, {"weight": -1},
               {"straight_cost": 0}, {"diagonal_cost": math.inf}, {"tie": "x"},
               {"terrain_scale": 2}, {"max_expansions": -1}, {"open_set": "fib"}):
        with pytest.raises(la.InvalidArgumentError) as e:
            g.find_path((0, 0), (2, 2), **kw)
        assert e.value.status == la.Status.INVALID_ARGUMENT and e.value.detail
    with pytest.raises(TypeError):
        g.find_path(0, (2, 2))
    with pytest.raises(TypeError):
        g.find_path((0, 0), (2, 2), colour="red")


def test_names_are_forgiving():
    g = la.Grid(3, 3)
    assert g.find_path((0, 0), (2, 2), algo="JPS_PLUS", corner="NO_CUT", tie="Larger_G").cost


def test_options_objects(wall):
    o = la.Options(algo="jps", weight=1.0)
    assert repr(o) == "Options(algo='jps')"
    p = wall.find_path((0, 0), (15, 0), options=o)
    q = wall.find_path((0, 0), (15, 0), options=o, algo="astar")  # keyword overrides
    assert p.cost == pytest.approx(q.cost) and p.expanded < q.expanded
    assert o.replace(algo="astar") == la.Options()
    with pytest.raises(TypeError):
        wall.find_path((0, 0), (15, 0), options={"algo": "jps"})


@pytest.mark.parametrize("open_set", ["auto", "heap4", "heap2", "bucket"])
def test_open_sets_give_the_same_path(wall, open_set):
    ref = wall.find_path((0, 0), (15, 0))
    p = wall.find_path((0, 0), (15, 0), open_set=open_set)
    np.testing.assert_array_equal(p.cells, ref.cells)
    assert p.expanded == ref.expanded


def test_ties(wall):
    for tie in ("larger-g", "newest", "cross"):
        p = wall.find_path((0, 0), (15, 0), tie=tie)
        assert p.cost == pytest.approx(21.384776310850242)


def test_python_heuristic(wall):
    calls = []

    def octile(cell, goal):
        calls.append(cell)
        dx, dy = abs(cell[0] - goal[0]), abs(cell[1] - goal[1])
        return max(dx, dy) + (SQRT2 - 1) * min(dx, dy)

    p = wall.find_path((0, 0), (15, 0), heuristic=octile)
    ref = wall.find_path((0, 0), (15, 0))
    assert p.cost == pytest.approx(ref.cost) and calls
    assert p.expanded >= ref.expanded


def test_exceptions_in_callbacks_propagate(wall):
    def bad(cell, goal):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        wall.find_path((0, 0), (15, 0), heuristic=bad)

    def bad_observer(event):
        if event.type == "expand" and event.expanded > 3:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        wall.find_path((0, 0), (15, 0), observer=bad_observer)
    assert wall.find_path((0, 0), (15, 0)).cost  # the workspace is fine afterwards


def test_observer_sees_the_search(wall):
    events = []
    p = wall.find_path((0, 0), (15, 0), observer=events.append)
    assert all(isinstance(e, la.Event) for e in events)
    assert events[0].type == "push" and events[0].cell == (0, 0) and events[0].parent == (-1, -1)
    assert events[-1].type == "goal" and events[-1].cell == (15, 0)
    assert sum(e.type == "expand" for e in events) + 1 == p.expanded
    jps = []
    wall.find_path((0, 0), (15, 0), algo="jps", observer=jps.append)
    assert any(e.type == "scan" for e in jps)


def test_several_goals(wall):
    p = wall.find_path_any((0, 0), [(15, 0), (3, 3), (15, 7)])
    assert p.end == (3, 3) and tuple(p.cells[-1]) == (3, 3)
    p = wall.find_path_any((0, 0), np.array([[15, 0], [9, 0]]))
    assert p.end in ((15, 0), (9, 0))
    with pytest.raises(la.UnsupportedError):
        wall.find_path_any((0, 0), [(15, 0)], algo="jps")
    with pytest.raises(la.InvalidArgumentError):
        wall.find_path_any((0, 0), [])


def test_path_cost_finds_the_bad_step():
    g = la.Grid(4, 4)
    assert g.path_cost([(0, 0), (1, 1), (2, 1)]) == pytest.approx(1 + SQRT2)
    with pytest.raises(la.InvalidArgumentError) as e:
        g.path_cost([(0, 0), (1, 1), (3, 1)])
    assert e.value.index == 2


def test_explicit_workspace(wall):
    ws = la.Workspace()
    assert ws.memory >= 0
    p = wall.find_path((0, 0), (15, 0), workspace=ws)
    assert ws.memory > 0 and p.cost
    big = la.Grid(300, 300)
    assert big.find_path((0, 0), (299, 299), workspace=ws).cost == pytest.approx(299 * SQRT2)


def test_statuses_match_the_header(source_dir):
    """Status lists the C enum's names in order (include/astar/base.h)."""
    import re
    text = (source_dir / "include" / "astar" / "base.h").read_text()
    body = text[text.index("typedef enum astar_status"):text.index("} astar_status;")]
    names = re.findall(r"^\s+ASTAR_([A-Z_]+)\b", body, re.M)
    assert names[-1] == "STATUS_COUNT"
    assert [s.name for s in la.Status] == names[:-1]
    for s in la.Status:
        assert la.strerror(s) != "unknown status"
        err = la._error(int(s))
        assert isinstance(err, la.AstarError) and err.status is s


def test_version(source_dir):
    import re
    text = (source_dir / "include" / "astar" / "base.h").read_text()
    assert la.__version__ == re.search(r'ASTAR_VERSION_STRING "([^"]+)"', text).group(1)


def test_module_docstring_example():
    import doctest
    failures, tests = doctest.testmod(la, verbose=False)
    assert tests > 0 and failures == 0
