"""find_graph_path: the library's engine over a graph described in Python."""
import heapq
import math
import random

import numpy as np
import pytest

import libastar as la


def dijkstra(graph, start, goal):
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, n = heapq.heappop(heap)
        if n == goal:
            return d
        if d > dist[n]:
            continue
        for m, c in graph[n]:
            if d + c < dist.get(m, math.inf):
                dist[m] = d + c
                heapq.heappush(heap, (d + c, m))
    return None


def random_graph(rng, n, degree):
    graph = {f"n{i}": [] for i in range(n)}
    for i in range(n):
        for _ in range(degree):
            j = rng.randrange(n)
            if j != i:
                graph[f"n{i}"].append((f"n{j}", rng.choice([1.0, 2.0, 3.5, 0.5])))
    return graph


@pytest.mark.parametrize("algo", ["astar", "dijkstra", "bidir"])
def test_random_graphs_against_dijkstra(algo):
    rng = random.Random(14)
    for _ in range(30):
        graph = random_graph(rng, 40, 3)
        reverse = {n: [] for n in graph}
        for n, arcs in graph.items():
            for m, c in arcs:
                reverse[m].append((n, c))
        s, g = rng.sample(sorted(graph), 2)
        expected = dijkstra(graph, s, g)
        kw = {"predecessors": reverse.__getitem__} if algo == "bidir" else {}
        if expected is None:
            with pytest.raises(la.NoPathError):
                la.find_graph_path(s, g, graph.__getitem__, algo=algo, **kw)
            continue
        p = la.find_graph_path(s, g, graph.__getitem__, algo=algo, **kw)
        assert p.status == la.Status.OK and p.nodes[0] == s and p.nodes[-1] == g
        assert p.cost == pytest.approx(expected)
        # the path's arcs exist and add up
        total = sum(min(c for m, c in graph[a] if m == b) for a, b in zip(p.nodes, p.nodes[1:]))
        assert total == pytest.approx(p.cost)


def test_grid_as_a_python_graph_matches_the_grid(data_dir):
    grid = la.Grid.from_movingai(data_dir / "small" / "rooms64-8.map")
    free = grid.to_numpy()
    h, w = free.shape
    moves = [(0, -1, 1.0), (1, 0, 1.0), (0, 1, 1.0), (-1, 0, 1.0), (1, -1, math.sqrt(2)),
             (1, 1, math.sqrt(2)), (-1, 1, math.sqrt(2)), (-1, -1, math.sqrt(2))]

    def ok(x, y):
        return 0 <= x < w and 0 <= y < h and free[y, x]

    def neighbors(cell):
        x, y = cell
        for dx, dy, c in moves:
            if ok(x + dx, y + dy) and (dx == 0 or dy == 0 or (ok(x + dx, y) and ok(x, y + dy))):
                yield (x + dx, y + dy), c

    def octile(a, b):
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        return max(dx, dy) + (math.sqrt(2) - 1) * min(dx, dy)

    for q in la.load_scen(data_dir / "small" / "rooms64-8.map.scen")[::40]:
        p = la.find_graph_path(q.start, q.goal, neighbors, heuristic=octile, consistent=True)
        assert p.cost == pytest.approx(grid.find_path(q.start, q.goal).cost)
        assert p.cost == pytest.approx(q.optimal_length, rel=1e-5)
        assert grid.path_cost(np.array(p.nodes)) == pytest.approx(p.cost)
        assert p.states >= len(p.nodes) and p.expanded > 0


def test_a_puzzle_with_integer_states():
    # Reach 0 from n by steps -1 (cost 1) or //2 (cost 1): states are ints.
    def succ(n):
        return [(n - 1, 1.0), (n // 2, 1.0)] if n > 0 else []

    p = la.find_graph_path(1000, 0, succ, algo="dijkstra")
    assert p.nodes[0] == 1000 and p.nodes[-1] == 0 and p.cost == len(p.nodes) - 1 == 10


def test_errors_and_limits():
    line = {i: [(i + 1, 1.0)] for i in range(100)}
    line[100] = []
    with pytest.raises(la.CapacityError):
        la.find_graph_path(0, 100, line.__getitem__, max_states=10, workspace=la.Workspace())
    # a workspace with a larger table from before finds the path all the same
    assert la.find_graph_path(0, 100, line.__getitem__, max_states=10).cost == 100
    with pytest.raises(la.LimitReachedError):
        la.find_graph_path(0, 100, line.__getitem__, max_expansions=5)
    p = la.find_graph_path(0, 100, line.__getitem__, max_expansions=5, partial=True,
                           heuristic=lambda a, b: float(b - a), consistent=True)
    assert p.status == la.Status.PARTIAL and p.nodes[0] == 0
    with pytest.raises(la.NoPathError):
        la.find_graph_path(0, 500, line.__getitem__)
    with pytest.raises(KeyError):
        la.find_graph_path(0, 5, {0: [(1, 1.0)]}.__getitem__)  # the callback's own exception
    with pytest.raises(ValueError, match="finite"):
        la.find_graph_path(0, 5, lambda n: [(n + 1, -1.0)])
    with pytest.raises(ValueError, match="max_degree"):
        la.find_graph_path(0, 5, lambda n: [(n + 1, 1.0)] * 3, max_degree=2)
    with pytest.raises(la.UnsupportedError):
        la.find_graph_path(0, 5, line.__getitem__, algo="bidir")  # no predecessors
