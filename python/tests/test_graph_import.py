"""Graphs from a SciPy sparse matrix (Graph.from_csr) and from networkx
(Graph.from_networkx), searched through the Finder, against
scipy.sparse.csgraph.dijkstra and networkx.shortest_path_length."""
import math
import random

import numpy as np
import pytest

import libastar as la


def random_matrix(seed, n, density, integer=False):
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(seed)
    m = sp.random(n, n, density=density, random_state=rng, format="csr")
    m.data = np.round(m.data * 9 + 1) if integer else m.data * 5 + 0.1
    return m


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_from_csr_against_csgraph(directed, fmt):
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    for seed in range(8):
        m = random_matrix(seed, 120, 0.03).asformat(fmt)
        graph = la.Graph.from_csr(m, directed=directed)
        assert graph.node_count == 120
        assert graph.arc_count == m.nnz * (1 if directed else 2)
        dist = csgraph.dijkstra(m.tocsr(), directed=directed)
        finder = la.Finder(graph, "astar")
        rng = random.Random(seed)
        starts = [rng.randrange(120) for _ in range(40)]
        goals = [rng.randrange(120) for _ in range(40)]
        costs = finder.find_many(starts, goals, costs_only=True)
        np.testing.assert_allclose(costs, dist[starts, goals], rtol=1e-12)
        for s, g in zip(starts[:10], goals[:10]):
            if np.isfinite(dist[s, g]):
                assert la.Finder(graph, "bidir").find(s, g).cost == pytest.approx(dist[s, g])


def test_from_scipy_is_from_csr_and_explicit_zeros_are_arcs():
    sp = pytest.importorskip("scipy.sparse")
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    m = sp.csr_matrix((np.array([0.0, 2.0, 1.0]), (np.array([0, 1, 0]), np.array([1, 2, 2]))),
                      shape=(3, 3))
    assert m.nnz == 3
    g = la.Graph.from_scipy(m)
    assert g.arc_count == 3
    p = la.Finder(g, "dijkstra").find(0, 2)
    assert p.cost == 1.0 and list(p.nodes) == [0, 2]
    assert la.Finder(g, "dijkstra").find(0, 1).cost == csgraph.dijkstra(m)[0, 1] == 0.0


def test_from_csr_refuses_bad_matrices():
    sp = pytest.importorskip("scipy.sparse")
    with pytest.raises(ValueError, match="square"):
        la.Graph.from_csr(sp.csr_matrix(np.ones((2, 3))))
    with pytest.raises(la.InvalidArgumentError, match=r"edge 1 \(0 -> 2\): cost -1"):
        la.Graph.from_csr(sp.csr_matrix(np.array([[0, 1, -1], [0, 0, 0], [0, 0, 0.0]])))
    with pytest.raises(la.InvalidArgumentError, match="inf"):
        la.Graph.from_csr(sp.csr_matrix(np.array([[0, np.inf], [0, 0.0]])))
    with pytest.raises(TypeError, match="sparse"):
        la.Graph.from_csr(np.ones((2, 2)))
    with pytest.raises(la.OutOfBoundsError, match="outside"):
        la.Finder(la.Graph(3, [0], [1], [1.0]), "astar").find(0, 3)
    with pytest.raises(la.OutOfBoundsError, match="outside"):
        la.Finder(la.Graph(3, [0], [1], [1.0]), "astar").find_many([0, 5], [1, 1])


@pytest.mark.parametrize("directed", [True, False])
def test_from_networkx_against_shortest_path_length(directed):
    nx = pytest.importorskip("networkx")
    rng = random.Random(3)
    for seed in range(6):
        g = nx.gnp_random_graph(60, 0.06, seed=seed, directed=directed)
        # names of several kinds, weights on most edges (1 where missing)
        g = nx.relabel_nodes(g, {i: (f"n{i}" if i % 3 else (i, "t")) for i in g.nodes})
        for u, v in g.edges:
            if rng.random() < 0.8:
                g.edges[u, v]["weight"] = rng.choice([0.5, 1.0, 2.5, 4.0])
        graph = la.Graph.from_networkx(g)
        assert graph.names == list(g.nodes)
        finder = la.Finder(graph, "astar")
        nodes = list(g.nodes)
        for _ in range(30):
            s, t = rng.choice(nodes), rng.choice(nodes)
            try:
                want = nx.shortest_path_length(g, s, t, weight="weight")
            except nx.NetworkXNoPath:
                with pytest.raises(la.NoPathError):
                    finder.find(s, t)
                continue
            p = finder.find(s, t)
            assert p.cost == pytest.approx(want)
            assert p.nodes[0] == s and p.nodes[-1] == t and p.end == t
            total = sum(g.edges[a, b].get("weight", 1.0) for a, b in zip(p.nodes, p.nodes[1:]))
            assert total == pytest.approx(want)
        # many queries by name
        pairs = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(20)]
        many = finder.find_many([a for a, _ in pairs], [b for _, b in pairs])
        for (a, b), p in zip(pairs, many):
            if p:
                assert p.cost == pytest.approx(nx.shortest_path_length(g, a, b, weight="weight"))
                assert p.nodes[0] == a and p.nodes[-1] == b
            else:
                assert not nx.has_path(g, a, b)


def test_from_networkx_options():
    nx = pytest.importorskip("networkx")
    g = nx.Graph()
    g.add_edge("a", "b", weight=5.0, length=1.0)
    g.add_edge("b", "c", weight=5.0, length=1.0)
    g.add_edge("a", "c", weight=20.0, length=3.0)
    assert la.Finder(la.Graph.from_networkx(g), "dijkstra").find("a", "c").cost == 10.0
    assert la.Finder(la.Graph.from_networkx(g, "length"), "dijkstra").find("a", "c").cost == 2.0
    assert la.Finder(la.Graph.from_networkx(g, None), "dijkstra").find("a", "c").cost == 1.0
    graph = la.Graph.from_networkx(g)
    assert graph.index("b") == 1 and sorted(graph.successors("b")) == [("a", 5.0), ("c", 5.0)]
    with pytest.raises(la.OutOfBoundsError, match="'z' is not a node"):
        la.Finder(graph, "astar").find("a", "z")
    mg = nx.MultiDiGraph()
    mg.add_edge(0, 1, weight=3.0)
    mg.add_edge(0, 1, weight=1.0)
    assert la.Finder(la.Graph.from_networkx(mg), "astar").find(0, 1).cost == 1.0


def test_coordinates_give_an_admissible_heuristic():
    """A road-like graph with positions: A* with the Euclidean heuristic
    expands fewer nodes than Dijkstra and finds the same costs."""
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(5)
    n = 400
    xy = rng.random((n, 2)) * 100
    tails, heads, costs = [], [], []
    for i in range(n):
        d = np.hypot(*(xy - xy[i]).T)
        for j in np.argsort(d)[1:5]:
            tails.append(i)
            heads.append(int(j))
            costs.append(float(d[j]) * rng.uniform(1.0, 1.3))
    m = sp.csr_matrix((costs, (tails, heads)), shape=(n, n))
    plain = la.Graph(n, tails, heads, costs)
    located = la.Graph(n, tails, heads, costs, coords=xy)
    assert located.has_coords and not plain.has_coords
    dist = csgraph.dijkstra(m)
    fewer = 0
    for s, g in rng.integers(n, size=(30, 2)).tolist():
        if not np.isfinite(dist[s, g]):
            continue
        a = la.Finder(located, "astar").find(s, g)
        b = la.Finder(plain, "dijkstra").find(s, g)
        assert a.cost == pytest.approx(dist[s, g]) and b.cost == pytest.approx(dist[s, g])
        fewer += a.expanded < b.expanded
    assert fewer > 10


@pytest.mark.parametrize("method", ["astar", "bidir", "ida", "f2f"])
def test_landmarks_on_graphs_stay_exact_and_expand_less(method):
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    m = random_matrix(9, 400, 0.01)
    graph = la.Graph.from_csr(m)
    table = la.SpaceLandmarks(graph, 8)
    assert table.count == 8 and table.space is graph and table.memory > 0
    with_lm = la.Finder(graph, method, landmarks=table)
    plain = la.Finder(graph, method)
    dist = csgraph.dijkstra(m)
    rng = random.Random(2)
    fewer = tried = 0
    for _ in range(40 if method != "ida" else 8):
        s, g = rng.randrange(400), rng.randrange(400)
        if not np.isfinite(dist[s, g]):
            continue
        a = with_lm.find(s, g)
        assert a.cost == pytest.approx(dist[s, g])
        tried += 1
        fewer += a.expanded <= plain.find(s, g).expanded
    assert tried and fewer >= 0.8 * tried


def test_space_landmarks_save_load(tmp_path):
    import pickle
    m = random_matrix(4, 200, 0.02)
    graph = la.Graph.from_csr(m)
    table = la.SpaceLandmarks(graph, 4)
    data = table.save(tmp_path / "g.lm")
    again = la.SpaceLandmarks.load(graph, tmp_path / "g.lm")
    assert again.save() == data
    f, g = la.Finder(graph, "astar", landmarks=again), la.Finder(graph, "astar", landmarks=table)
    starts, goals = list(range(0, 200, 7)), list(range(199, 0, -7))
    assert np.array_equal(f.find_many(starts, goals, costs_only=True),
                          g.find_many(starts, goals, costs_only=True))
    with pytest.raises(la.MismatchError):
        la.SpaceLandmarks.load(la.Graph.from_csr(m * 2), data)
    with pytest.raises(la.MismatchError):
        la.SpaceLandmarks.load(la.Graph.from_csr(random_matrix(4, 150, 0.02)), data)
    with pytest.raises(la.ParseError, match="bad.lm"):
        (tmp_path / "bad.lm").write_bytes(data[:40])
        la.SpaceLandmarks.load(graph, tmp_path / "bad.lm")
    with pytest.raises(la.MismatchError, match="another map"):
        la.Finder(la.Graph.from_csr(m), "astar", landmarks=table)
    with pytest.raises(la.UnsupportedError, match="landmarks="):
        la.Finder(la.CallbackSpace(3, lambda i: []), "astar", landmarks=2)
    hexes = la.HexGrid(20, 12)
    lm = pickle.loads(pickle.dumps(la.SpaceLandmarks(hexes, 3)))
    assert la.Finder(lm.space, "astar", landmarks=lm).find((0, 0), (19, 11)).cost == \
        la.Finder(hexes, "astar").find((0, 0), (19, 11)).cost


def test_engine_settings_on_graphs():
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    rng = np.random.default_rng(8)
    n = 300
    xy = rng.random((n, 2)) * 50
    tails, heads, costs = [], [], []
    for i in range(n):
        for j in np.argsort(np.hypot(*(xy - xy[i]).T))[1:4]:
            tails.append(i)
            heads.append(int(j))
            costs.append(float(np.hypot(*(xy[j] - xy[i]))) * 1.1)
    graph = la.Graph(n, tails, heads, costs, coords=xy)
    sp = pytest.importorskip("scipy.sparse")
    dist = csgraph.dijkstra(sp.csr_matrix((costs, (tails, heads)), shape=(n, n)))
    weighted = la.Finder(graph, "astar", weight=1.5)
    dynamic = la.Finder(graph, "dynamic", epsilon=0.5)
    for s, g in rng.integers(n, size=(40, 2)).tolist():
        if np.isfinite(dist[s, g]):
            assert dist[s, g] - 1e-9 <= weighted.find(s, g).cost <= 1.5 * dist[s, g] + 1e-9
            assert dynamic.find(s, g).cost <= 1.5 * dist[s, g] + 1e-9
    far = max(((s, g) for s in range(n) for g in range(0, n, 17) if np.isfinite(dist[s, g])),
              key=lambda q: dist[q])
    with pytest.raises(la.LimitReachedError):
        la.Finder(graph, "dijkstra", max_expansions=3).find(*far)
    p = la.Finder(graph, "astar", max_expansions=3, partial=True).find(*far)
    assert p.status == la.Status.PARTIAL and p.nodes[0] == far[0]
    with pytest.raises(TypeError, match="beam_widht"):
        la.Finder(graph, "beam", beam_widht=4)
    with pytest.raises(la.InvalidArgumentError, match="weight"):
        la.Finder(graph, "astar", weight=-1)


def test_dimacs_files(data_dir, tmp_path):
    d = data_dir / "dimacs"
    graph = la.Graph.from_dimacs(d / "tiny.gr", d / "tiny.co")
    assert graph.node_count == 6 and graph.arc_count == 9 and graph.has_coords
    sources, targets, costs = graph.dimacs_queries(d / "tiny.p2p")
    assert sources.tolist() == [0, 1, 4] and targets.tolist() == [4, 5, 0]
    assert costs[:2].tolist() == [20.0, 12.0] and np.isnan(costs[2])
    got = la.Finder(graph, "astar").find_many(sources, targets, costs_only=True)
    assert got[:2].tolist() == [20.0, 12.0] and got[2] == np.inf     # one way: no path back
    assert la.Finder(graph, "dijkstra").find(0, 4).nodes.tolist() == [0, 2, 5, 4]
    both = la.Graph.from_dimacs((d / "tiny.gr").read_text(), directed=False)
    assert both.arc_count == 18 and la.Finder(both, "bidir").find(4, 0).cost == 20.0
    with pytest.raises(la.ParseError, match=r"bad_arc.gr:5:5"):
        la.Graph.from_dimacs(d / "bad_arc.gr")
    bad = tmp_path / "bad.p2p"
    bad.write_text("p aux sp p2p 1\nq 1 9\n")
    with pytest.raises(la.ParseError, match=r"bad.p2p:2"):
        graph.dimacs_queries(bad)
    with pytest.raises(la.ParseError, match="<text>:1:13: .* the graph has 6"):
        la.Graph.from_dimacs(d / "tiny.gr", "p aux sp co 2\nv 1 0 0\nv 2 1 1\n")
