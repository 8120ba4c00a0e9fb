"""The engine's variants (astar/engine.h: ida, beam, dynamic, bandwidth, f2f,
retarget) through Python, each held to its bound on the cost against
references computed apart from it: the Moving AI scenario's optimal lengths,
a breadth-first search of the 8-puzzle written here, and plain Dijkstra."""
import collections
import math

import pytest

import libastar as la

OPTIMAL = ["ida", "f2f"]  # C = C*
VARIANTS = ["ida", "beam", "dynamic", "bandwidth", "f2f", "retarget"]


@pytest.fixture(scope="module")
def cave(data_dir):
    return la.Grid.from_movingai(data_dir / "small" / "cave64.map")


@pytest.fixture(scope="module")
def queries(data_dir):
    return la.load_scen(data_dir / "small" / "cave64.map.scen")[::4]


def _close(a, b):
    return a == pytest.approx(b, rel=1e-6, abs=1e-6)


def test_grid_variants_keep_their_bounds(cave, queries):
    for q in queries:
        best = q.optimal_length
        for algo in OPTIMAL:
            p = cave.find_path(q.start, q.goal, algo=algo)
            assert _close(p.cost, best), (algo, q)
            assert p.cells[0].tolist() == list(q.start) and p.cells[-1].tolist() == list(q.goal)
            assert _close(cave.path_cost(p.cells), p.cost)  # a legal path of that cost
        ida = cave.find_path(q.start, q.goal, algo="ida")
        assert ida.iterations >= 1 and ida.dropped == 0
        for eps in (0.5, 2.0):
            p = cave.find_path(q.start, q.goal, algo="dynamic", epsilon=eps)
            assert best - 1e-6 <= p.cost <= (1 + eps) * best + 1e-6, (eps, q)
        # Octile distance underestimates by less than the optimum: with band_d
        # that large nothing is dropped and C <= C* + band_e.
        for band_e in (0.0, 3.0):
            p = cave.find_path(q.start, q.goal, algo="bandwidth", band_e=band_e, band_d=best + 1)
            assert best - 1e-6 <= p.cost <= best + band_e + 1e-6, (band_e, q)
            assert p.dropped == 0
        r = cave.find_path(q.start, q.goal, algo="retarget", retarget_interval=4)
        assert r.cost >= best - 1e-6 and r.iterations >= 1
        assert _close(cave.path_cost(r.cells), r.cost)


def test_beam_is_a_star_until_it_drops(cave, queries):
    dropped = 0
    for q in queries:
        wide = cave.find_path(q.start, q.goal, algo="beam", beam_width=1 << 20)
        assert wide.dropped == 0 and _close(wide.cost, q.optimal_length)
        try:
            p = cave.find_path(q.start, q.goal, algo="beam", beam_width=8)
        except la.NoPathError as e:
            assert e.path.dropped > 0  # a lost path is always a dropped one
            dropped += 1
            continue
        assert p.cost >= q.optimal_length - 1e-6
        if p.dropped == 0:
            assert _close(p.cost, q.optimal_length)
        dropped += p.dropped > 0
    assert dropped > 0  # width 8 is narrow enough to drop on a cave


def test_variants_with_options_space_graph(cave, queries):
    q = queries[-1]
    opts = la.Options(algo="dynamic", space="graph", epsilon=0.25)
    p = cave.find_path(q.start, q.goal, options=opts)
    assert q.optimal_length - 1e-6 <= p.cost <= 1.25 * q.optimal_length + 1e-6
    assert "epsilon=0.25" in repr(opts) and opts.replace(epsilon=1).epsilon == 1
    assert cave.unsupported_reason(algo="ida") is None
    with pytest.raises(la.UnsupportedError):
        cave.find_path(q.start, q.goal, algo="f2f", heuristic=lambda a, b: 0.0)


# ---- the 8-puzzle: IDA*'s home ground ----------------------------------------------------

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def _moves(state):
    i = state.index(0)
    x, y = i % 3, i // 3
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < 3 and 0 <= y + dy < 3:
            j = (y + dy) * 3 + x + dx
            s = list(state)
            s[i], s[j] = s[j], s[i]
            yield tuple(s), 1.0


def _manhattan(state, goal):
    where = {t: k for k, t in enumerate(goal)}
    return float(sum(abs(k % 3 - where[t] % 3) + abs(k // 3 - where[t] // 3)
                     for k, t in enumerate(state) if t))


def _bfs_depth(start, goal):
    seen = {start: 0}
    todo = collections.deque([start])
    while todo:
        s = todo.popleft()
        if s == goal:
            return seen[s]
        for t, _ in _moves(s):
            if t not in seen:
                seen[t] = seen[s] + 1
                todo.append(t)
    return None


def _scramble(steps, seed):
    import random
    rng = random.Random(seed)
    s = GOAL
    for _ in range(steps):
        s = rng.choice([t for t, _ in _moves(s)])
    return s


@pytest.mark.parametrize("seed", range(4))
def test_puzzle_against_breadth_first_search(seed):
    start = _scramble(40, seed)
    depth = _bfs_depth(start, GOAL)
    common = dict(heuristic=_manhattan, predecessors=_moves, consistent=True, max_degree=4)
    for algo in OPTIMAL + ["astar", "bidir"]:
        p = la.find_graph_path(start, GOAL, _moves, algo=algo, **common)
        assert p.cost == depth and len(p.nodes) == depth + 1, algo
        assert all(b in dict(_moves(a)) for a, b in zip(p.nodes, p.nodes[1:]))
    ida = la.find_graph_path(start, GOAL, _moves, algo="ida", **common)
    assert ida.iterations >= 1
    assert ida.iterations <= depth - _manhattan(start, GOAL) + 1  # bounds rise by >= 1
    dyn = la.find_graph_path(start, GOAL, _moves, algo="dynamic", epsilon=1.0, **common)
    assert depth <= dyn.cost <= 2 * depth
    band = la.find_graph_path(start, GOAL, _moves, algo="bandwidth", band_e=2, band_d=depth,
                              **common)
    assert depth <= band.cost <= depth + 2
    ret = la.find_graph_path(start, GOAL, _moves, algo="retarget", **common)
    assert ret.cost >= depth and (ret.cost - depth) % 2 == 0  # the puzzle's parity


def test_puzzle_errors():
    start = _scramble(10, 7)
    with pytest.raises(la.UnsupportedError):  # bidirectional without predecessors
        la.find_graph_path(start, GOAL, _moves, algo="f2f", heuristic=_manhattan)
    with pytest.raises(la.InvalidArgumentError):
        la.find_graph_path(start, GOAL, _moves, algo="beam", beam_width=0)
    with pytest.raises(la.InvalidArgumentError):
        la.find_graph_path(start, GOAL, _moves, algo="dynamic", epsilon=-1)
    with pytest.raises(la.InvalidArgumentError):
        la.find_graph_path(start, GOAL, _moves, algo="retarget", retarget_interval=2 ** 32)
    with pytest.raises(TypeError):
        la.find_graph_path(start, GOAL, _moves, algo="beam", width=4)
    with pytest.raises(la.InvalidArgumentError):
        la.Options(band_e=math.inf)


# ---- hex grids and waypoint graphs -------------------------------------------------------

def test_hex_and_waypoints_take_the_variants(cave, queries):
    hexgrid = la.HexGrid(12, 9)
    for x in range(2, 9):
        hexgrid.set_passable(x, 4, False)
    best = hexgrid.find_path((0, 4), (11, 4), algo="dijkstra").cost
    for algo in OPTIMAL:
        assert hexgrid.find_path((0, 4), (11, 4), algo=algo).cost == pytest.approx(best)
    p = hexgrid.find_path((0, 4), (11, 4), algo="dynamic", epsilon=0.5)
    assert best <= p.cost <= 1.5 * best + 1e-9
    wp = cave.waypoints()
    for q in queries[::3]:
        best = wp.find_path(q.start, q.goal, algo="dijkstra").cost
        assert best <= q.optimal_length * (1 + 1e-9)
        for algo in OPTIMAL:
            assert wp.find_path(q.start, q.goal, algo=algo).cost == pytest.approx(best), algo
        p = wp.find_path(q.start, q.goal, algo="dynamic", epsilon=0.5)
        assert best - 1e-9 <= p.cost <= 1.5 * best + 1e-9
        p = wp.find_path(q.start, q.goal, algo="beam", beam_width=1 << 20)
        assert p.dropped == 0 and p.cost == pytest.approx(best)


def test_same_as_the_tool(data_dir, cave, solve):
    """The same search as `astar solve --algo X` (the engine on the grid as
    a space): cells, cost and expansions."""
    path = data_dir / "small" / "cave64.map"
    settings = {"ida": ({}, []), "beam": ({"beam_width": 16}, ["--width", "16"]),
                "dynamic": ({"epsilon": 0.5}, ["--epsilon", "0.5"]),
                "bandwidth": ({"band_e": 1.0, "band_d": 40.0}, ["--band-e", "1", "--band-d", "40"]),
                "f2f": ({}, []), "retarget": ({}, [])}
    for q in la.load_scen(f"{path}.scen")[::13]:
        for algo, (kw, cli) in settings.items():
            ref = solve(path, q.start, q.goal, "--algo", algo, *cli)
            try:
                p = cave.find_path(q.start, q.goal, algo=algo, **kw)
            except la.NoPathError:
                assert ref["rc"] != 0, (algo, q)
                continue
            assert ref["rc"] == 0, ref["stderr"]
            assert p.cells.tolist() == [list(c) for c in ref["path"]], (algo, q)
            assert p.cost == pytest.approx(ref["cost"], rel=1e-9), (algo, q)
            assert p.expanded == ref["expanded"], (algo, q)
