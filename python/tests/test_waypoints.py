"""Waypoints: any-angle paths over the waypoint graph, against `astar solve
--space waypoints` and the grid's own optimum."""
import math
import pathlib

import numpy as np
import pytest

import libastar as la

ALGOS = ["astar", "dijkstra", "greedy", "bidir"]


@pytest.fixture(scope="module")
def cave(data_dir):
    return la.Grid.from_movingai(data_dir / "small" / "cave64.map")


@pytest.fixture(scope="module")
def graph(cave):
    return cave.waypoints()


def test_the_graph(cave, graph):
    assert isinstance(graph, la.Waypoints) and graph.grid is cave
    assert graph.count > 10 and graph.edge_count > graph.count and graph.memory > 0
    cells = graph.cells
    assert cells.shape == (graph.count, 2) and cells.dtype == np.int32
    assert all(cave.passable(x, y) for x, y in cells.tolist())
    for i in range(0, graph.count, 7):
        for j in graph.neighbors(i):
            assert i in graph.neighbors(j)
            assert graph.visible(tuple(cells[i]), tuple(cells[j]))
    with pytest.raises(la.OutOfBoundsError):
        graph.neighbors(graph.count)
    graph.check()
    assert "waypoints" in repr(graph)


@pytest.mark.parametrize("algo", ALGOS)
def test_same_as_the_tool(data_dir, cave, graph, solve, algo):
    path = data_dir / "small" / "cave64.map"
    for q in la.load_scen(f"{path}.scen")[::9]:
        p = graph.find_path(q.start, q.goal, algo=algo)
        ref = solve(path, q.start, q.goal, "--space", "waypoints", "--algo", algo)
        assert ref["rc"] == 0, ref["stderr"]
        assert p.cells.tolist() == [list(c) for c in ref["waypoints"]], q
        assert p.cost == pytest.approx(ref["cost"], rel=1e-9)
        assert p.expanded == ref["expanded"]


def test_any_angle_paths_are_no_longer_than_the_grid_optimum(data_dir, cave, graph):
    for q in la.load_scen(data_dir / "small" / "cave64.map.scen"):
        p = graph.find_path(q.start, q.goal)
        assert tuple(p.cells[0]) == q.start and tuple(p.cells[-1]) == q.goal
        assert p.cost <= q.optimal_length * (1 + 1e-9)
        segments = sum(math.dist(a, b) for a, b in zip(p.cells[:-1].tolist(), p.cells[1:].tolist()))
        assert p.cost == pytest.approx(segments)
        walked = la.Waypoints.expand(p)
        assert walked.tolist()[0] == list(q.start) and walked.tolist()[-1] == list(q.goal)
        assert cave.path_cost(walked) >= p.cost - 1e-9  # a legal grid path (else it raises)


def test_options_and_errors(cave):
    g = cave.copy()
    wp = g.waypoints(corner="always", straight_cost=2.0, side_cells=True)
    free = [tuple(c) for c in np.argwhere(g.to_numpy())[:, ::-1].tolist()]
    p = wp.find_path(free[0], free[-1])
    assert p.cost == pytest.approx(2 * sum(
        math.dist(a, b) for a, b in zip(p.cells[:-1].tolist(), p.cells[1:].tolist())))
    g.set_passable(*free[5], False)
    with pytest.raises(la.StaleError):
        wp.find_path(free[0], free[-1])
    with pytest.raises(la.StaleError):
        wp.check()
    with pytest.raises(la.UnsupportedError):
        la.Grid(4, 4).waypoints(corner="never")
    t = la.Grid.from_numpy(np.array([[1.0, 2.0], [1.0, 1.0]]))
    with pytest.raises(la.UnsupportedError):
        t.waypoints()
    with pytest.raises(la.InvalidArgumentError):
        la.Waypoints(cave, corner="sometimes")
    with pytest.raises(TypeError):
        la.Waypoints("grid")
    blocked = la.Grid(5, 5)
    blocked.set_passable(0, 0, False)
    with pytest.raises(la.StartBlockedError):
        blocked.waypoints().find_path((0, 0), (4, 4))
    assert la.Waypoints.expand([(0, 0), (3, 1)]).tolist() == [[0, 0], [1, 0], [2, 1], [3, 1]]


# ---- independent checks: the definitions of astar/waypoints.h written again in Python -----
# Cells are unit squares; in doubled coordinates a cell (x, y) is the square
# [2x, 2x+2] x [2y, 2y+2] and its centre (2x+1, 2y+1), so every test below is
# exact (integers and fractions, no floating point).

def _segment_touches_square(a, b, cell):
    """Does the closed segment between the centres of cells a and b touch the
    closed square of `cell`? (Liang-Barsky clipping in exact arithmetic.)"""
    from fractions import Fraction
    p = (2 * a[0] + 1, 2 * a[1] + 1)
    q = (2 * b[0] + 1, 2 * b[1] + 1)
    t0, t1 = Fraction(0), Fraction(1)
    for axis in (0, 1):
        lo, hi, d = 2 * cell[axis], 2 * cell[axis] + 2, q[axis] - p[axis]
        if d == 0:
            if not lo <= p[axis] <= hi:
                return False
            continue
        ta, tb = Fraction(lo - p[axis], d), Fraction(hi - p[axis], d)
        t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
        if t0 > t1:
            return False
    return True


def _sees(free, a, b):
    """Line of sight under the corner rule 'no-cut': both cells passable and
    the closed segment between their centres touches no blocked square."""
    if not (free[a[1], a[0]] and free[b[1], b[0]]):
        return False
    for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            if not free[y, x] and _segment_touches_square(a, b, (x, y)):
                return False
    return True


def _corner_cells(free):
    """The waypoints under 'no-cut' without side cells: for every grid point
    whose four cells hold exactly one blocked one (outside counts as blocked),
    the passable cell diagonal to it; row-major order."""
    h, w = free.shape
    def ok(x, y):
        return 0 <= x < w and 0 <= y < h and bool(free[y, x])
    out = set()
    for py in range(h + 1):
        for px in range(w + 1):
            four = [(px - 1, py - 1), (px, py - 1), (px - 1, py), (px, py)]
            blocked = [c for c in four if not ok(*c)]
            if len(blocked) == 1:
                bx, by = blocked[0]
                out.add((2 * px - 1 - bx, 2 * py - 1 - by))
    return sorted(out, key=lambda c: (c[1], c[0]))


def _visibility_cost(free, corners, start, goal):
    """Dijkstra over start, the corners and goal joined when in sight: the
    cost the waypoint search must find (None: unreachable)."""
    import heapq
    nodes = [start] + [c for c in corners if c not in (start, goal)] + [goal]
    dist = {0: 0.0}
    heap = [(0.0, 0)]
    done = set()
    while heap:
        d, i = heapq.heappop(heap)
        if i in done:
            continue
        if nodes[i] == goal:
            return d
        done.add(i)
        for j, c in enumerate(nodes):
            if j not in done and _sees(free, nodes[i], c):
                nd = d + math.dist(nodes[i], c)
                if nd < dist.get(j, math.inf):
                    dist[j] = nd
                    heapq.heappush(heap, (nd, j))
    return None


def _random_free(seed, w=14, h=11, density=0.25):
    rng = np.random.default_rng(seed)
    return rng.random((h, w)) >= density


@pytest.mark.parametrize("seed", range(6))
def test_against_an_independent_visibility_graph(seed):
    """The waypoint set, the lines of sight and the path cost, recomputed
    from the definitions; and the bounds: straight line <= cost <= the
    optimal 8-connected grid path, a path exactly when a grid path exists."""
    free = _random_free(seed)
    grid = la.Grid.from_numpy(free)
    wp = grid.waypoints()
    corners = _corner_cells(free)
    assert [tuple(c) for c in wp.cells.tolist()] == corners
    rng = np.random.default_rng(100 + seed)
    for _ in range(40):  # sight between cell pairs, blocked ones included
        a, b = (tuple(int(v) for v in rng.integers(0, (free.shape[1], free.shape[0])))
                for _ in range(2))
        assert wp.visible(a, b) == _sees(free, a, b), (a, b)
    for i, c in enumerate(corners):
        expect = [j for j, d in enumerate(corners) if j != i and _sees(free, c, d)]
        assert wp.neighbors(i) == expect
    open_cells = [tuple(c) for c in np.argwhere(free)[:, ::-1].tolist()]
    found = 0
    for k in range(12):
        start = open_cells[int(rng.integers(len(open_cells)))]
        goal = open_cells[int(rng.integers(len(open_cells)))]
        expect = _visibility_cost(free, corners, start, goal)
        try:
            grid_cost = grid.find_path(start, goal).cost
        except la.NoPathError:
            grid_cost = None
        for algo in ALGOS:
            if expect is None:
                with pytest.raises(la.NoPathError):
                    wp.find_path(start, goal, algo=algo)
                continue
            p = wp.find_path(start, goal, algo=algo)
            pts = [tuple(c) for c in p.cells.tolist()]
            assert pts[0] == start and pts[-1] == goal
            assert all(_sees(free, u, v) for u, v in zip(pts, pts[1:])), pts
            assert all(c in corners for c in pts[1:-1]), pts
            assert p.cost == pytest.approx(sum(math.dist(u, v) for u, v in zip(pts, pts[1:])))
            assert p.cost >= math.dist(start, goal) - 1e-9
            if algo != "greedy":  # greedy best-first has no cost bound
                assert p.cost <= grid_cost * (1 + 1e-9)
                assert p.cost == pytest.approx(expect, rel=1e-12), (algo, start, goal)
        assert (expect is None) == (grid_cost is None), (start, goal)
        found += expect is not None
    assert found >= 6


def test_exact_cases():
    # An open grid has no corners: every path is the straight segment.
    empty = la.Grid(9, 6)
    wp = empty.waypoints()
    assert wp.count == 0 and wp.edge_count == 0 and wp.cells.shape == (0, 2)
    p = wp.find_path((0, 0), (8, 5))
    assert p.cells.tolist() == [[0, 0], [8, 5]] and p.cost == pytest.approx(math.hypot(8, 5))
    assert empty.waypoints(straight_cost=2.5).find_path((8, 5), (0, 0)).cost == \
        pytest.approx(2.5 * math.hypot(8, 5))
    assert wp.find_path((3, 3), (3, 3)).cells.tolist() == [[3, 3]]

    # A wall hanging from the top, x = 3, rows 0-2: two corners below it,
    # the path goes round them: 2 sqrt(13) + 2.
    wall = la.Grid(7, 5)
    for y in range(3):
        wall.set_passable(3, y, False)
    wp = wall.waypoints()
    assert wp.cells.tolist() == [[2, 3], [4, 3]]
    assert wp.edge_count == 1 and wp.neighbors(0) == [1] and wp.neighbors(1) == [0]
    for algo in ALGOS:
        p = wp.find_path((0, 0), (6, 0), algo=algo)
        assert p.cells.tolist() == [[0, 0], [2, 3], [4, 3], [6, 0]], algo
        assert p.cost == pytest.approx(2 * math.sqrt(13) + 2)
    assert wall.find_path((0, 0), (6, 0)).cost > p.cost  # the grid path is longer
    assert not wp.visible((0, 0), (6, 0)) and wp.visible((0, 0), (2, 3))
    assert not wp.visible((0, 0), (3, 0))  # a blocked end

    # Two diagonal blocked cells: only 'always' squeezes between them.
    pinch = la.Grid.from_numpy(np.array([[True, False], [False, True]]))
    for corner in ("no-cut", "one-side"):
        with pytest.raises(la.NoPathError):
            pinch.waypoints(corner=corner).find_path((0, 0), (1, 1))
    p = pinch.waypoints(corner="always").find_path((0, 0), (1, 1))
    assert p.cells.tolist() == [[0, 0], [1, 1]] and p.cost == pytest.approx(math.sqrt(2))


@pytest.mark.parametrize("corner", ["no-cut", "one-side", "always"])
def test_bounds_under_every_corner_rule(corner):
    for seed in range(3):
        free = _random_free(50 + seed, 20, 16, 0.3)
        grid = la.Grid.from_numpy(free)
        for side in (False, True):
            wp = grid.waypoints(corner=corner, side_cells=side)
            open_cells = [tuple(c) for c in np.argwhere(free)[:, ::-1].tolist()]
            rng = np.random.default_rng(seed)
            for _ in range(15):
                start = open_cells[int(rng.integers(len(open_cells)))]
                goal = open_cells[int(rng.integers(len(open_cells)))]
                try:
                    upper = grid.find_path(start, goal, corner=corner).cost
                except la.NoPathError:
                    with pytest.raises(la.NoPathError):
                        wp.find_path(start, goal)
                    continue
                p = wp.find_path(start, goal)
                assert math.dist(start, goal) - 1e-9 <= p.cost <= upper * (1 + 1e-9)
                assert grid.path_cost(la.Waypoints.expand(p), corner=corner) >= p.cost - 1e-9


def test_errors_carry_the_path_and_detail():
    g = la.Grid(6, 6)
    wp = g.waypoints()
    g.set_passable(4, 1, False)
    with pytest.raises(la.StaleError) as e:
        wp.find_path((0, 0), (5, 5))
    assert "build it again" in str(e.value)
    assert g.waypoints().find_path((0, 0), (5, 5)).cost == pytest.approx(math.hypot(5, 5))
    with pytest.raises(la.OutOfBoundsError):
        g.waypoints().find_path((0, 0), (6, 0))
    with pytest.raises(la.GoalBlockedError):
        g.waypoints().find_path((0, 0), (4, 1))
    with pytest.raises(la.InvalidArgumentError):
        g.waypoints().find_path((0, 0), (5, 5), algo="jps")
    with pytest.raises(ValueError):
        la.Waypoints.expand(np.zeros((3,), dtype=np.int32))
    assert la.Waypoints.expand([]).shape == (0, 2)


def test_threads_share_one_graph(cave, graph):
    """One graph searched by several threads at once (the GIL released):
    the same paths as one after the other."""
    import threading
    queries = [(q.start, q.goal) for q in la.load_scen(
        pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "small" /
        "cave64.map.scen")[::3]]
    serial = [graph.find_path(s, g).cells.tolist() for s, g in queries]
    results, errors = {}, []

    def run(k):
        try:
            results[k] = [graph.find_path(s, g).cells.tolist() for s, g in queries]
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and all(results[k] == serial for k in range(4))
