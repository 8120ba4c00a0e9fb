"""Fog of war (Knowledge, astar/knowledge.h) and influence layers (Layer,
astar_layer_*): a search with them equals a plain search on the grid they
describe."""

import math

import numpy as np
import pytest

import libastar


def _random_map(rng, w, h, density=0.3):
    free = rng.random((h, w)) >= density
    return free


def _ends(rng, free):
    cells = np.argwhere(free)
    a, b = cells[rng.integers(len(cells), size=2)]
    return (int(a[1]), int(a[0])), (int(b[1]), int(b[0]))   # (x, y)


def _cost(find, s, g, **kw):
    """find(s, g, **kw)'s cost (find: a grid's find_path or a finder's find),
    inf without a path, -1 / -2 when the goal / start is blocked."""
    try:
        return find(s, g, **kw).cost
    except libastar.NoPathError:
        return math.inf
    except libastar.GoalBlockedError:
        return -1.0
    except libastar.StartBlockedError:
        return -2.0


def _reveal_some(rng, k, w, h):
    for _ in range(3):
        k.reveal_radius((int(rng.integers(w)), int(rng.integers(h))), int(rng.integers(1, 6)))
    for _ in range(20):
        k.reveal((int(rng.integers(w)), int(rng.integers(h))))


@pytest.mark.parametrize("method", ["astar", "dijkstra"])
def test_knowledge_equals_search_on_known_map(method):
    rng = np.random.default_rng(27)
    for trial in range(40):
        w, h = int(rng.integers(5, 30)), int(rng.integers(5, 30))
        free = _random_map(rng, w, h)
        truth = libastar.Grid.from_mask(free)
        k = libastar.Knowledge(truth)
        _reveal_some(rng, k, w, h)
        states = k.states()
        assert states.shape == (h, w)
        known = libastar.Grid.from_mask(states != 2)   # walls only where seen
        finder = libastar.Finder(truth, method, knowledge=k)
        for _ in range(5):
            s, g = _ends(rng, free)
            want = _cost(known.find_path, s, g, algo=method)
            assert _cost(truth.find_path, s, g, algo=method, knowledge=k) == pytest.approx(want)
            assert _cost(finder.find, s, g) == pytest.approx(want)


def test_every_method_honours_or_refuses():
    """A method either plans on the knowledge / layers (and then equals the
    plain search on the map they describe) or refuses with the finder's
    reason (UnsupportedError naming them) -- never ignores them."""
    rng = np.random.default_rng(5)
    free = _random_map(rng, 16, 12, 0.25)
    truth = libastar.Grid.from_mask(free)
    k = libastar.Knowledge(truth)
    _reveal_some(rng, k, 16, 12)
    known = libastar.Grid.from_mask(k.states() != 2)
    layer = libastar.Layer.from_array(rng.uniform(0, 2, (12, 16)))
    laid = libastar.Grid.from_costs(np.where(free, 1.0 + layer.to_array().astype(np.float64),
                                             np.inf))
    honoured = []
    for info in libastar.methods():
        if info.mesh:
            continue   # searches a navigation mesh, not a grid (test_mesh.py)
        for kw, plain, word in (({"knowledge": k}, known, "fog"),
                                ({"layers": [layer]}, laid, "layers")):
            try:
                finder = libastar.Finder(truth, info.name, **kw)
            except libastar.UnsupportedError as e:
                assert word in e.detail, (info.name, e.detail)
                continue
            honoured.append((info.name, word))
            ref = libastar.Finder(plain, info.name)
            for _ in range(5):
                s, g = _ends(rng, free)
                assert _cost(finder.find, s, g) == pytest.approx(_cost(ref.find, s, g),
                                                                   rel=1e-5)
    assert ("astar", "fog") in honoured and ("astar", "layers") in honoured


def test_unknown_blocked_and_priced():
    rng = np.random.default_rng(11)
    for trial in range(25):
        w, h = int(rng.integers(5, 25)), int(rng.integers(5, 25))
        free = _random_map(rng, w, h)
        truth = libastar.Grid.from_mask(free)
        blocked = libastar.Knowledge(truth, unknown="blocked")
        priced = libastar.Knowledge(truth, unknown="cost", unknown_cost=3.0)
        seed = int(rng.integers(1 << 30))
        _reveal_some(np.random.default_rng(seed), blocked, w, h)
        _reveal_some(np.random.default_rng(seed), priced, w, h)
        states = blocked.states()
        assert (priced.states() == states).all() and priced.version == blocked.version
        for _ in range(5):
            s, g = _ends(rng, free)
            # the start is taken as passable (the unit stands there)
            mask = states == 1
            mask[s[1], s[0]] = True
            want = _cost(libastar.Grid.from_mask(mask).find_path, s, g)
            assert _cost(truth.find_path, s, g, knowledge=blocked) == pytest.approx(want)
            costs = np.where(states == 2, np.inf, np.where(states == 0, 3.0, 1.0))
            costs[s[1], s[0]] = 1.0 if states[s[1], s[0]] != 0 else 3.0
            want = _cost(libastar.Grid.from_costs(costs).find_path, s, g)
            assert _cost(truth.find_path, s, g, knowledge=priced) == pytest.approx(want)


def test_layers_add_to_terrain():
    rng = np.random.default_rng(3)
    for trial in range(40):
        w, h = int(rng.integers(5, 30)), int(rng.integers(5, 30))
        free = _random_map(rng, w, h, 0.2)
        terrain = rng.uniform(1.0, 4.0, (h, w)).astype(np.float32)
        a = rng.uniform(0.0, 5.0, (h, w)).astype(np.float32)
        b = rng.uniform(0.0, 2.0, (h, w)).astype(np.float32)
        wb = float(rng.uniform(0.0, 3.0))
        grid = libastar.Grid.from_costs(np.where(free, terrain, np.inf))
        la, lb = libastar.Layer.from_array(a), libastar.Layer.from_array(b)
        total = terrain.astype(np.float64) + a + np.float32(wb) * b
        plain = libastar.Grid.from_costs(np.where(free, total, np.inf))
        finder = libastar.Finder(grid, "astar", layers=[la, (lb, wb)])
        for _ in range(5):
            s, g = _ends(rng, free)
            want = _cost(plain.find_path, s, g)
            assert _cost(grid.find_path, s, g, layers=[la, (lb, wb)]) == pytest.approx(
                want, rel=1e-5)
            assert _cost(finder.find, s, g) == pytest.approx(want, rel=1e-5)


def test_knowledge_object():
    free = np.ones((4, 6), bool)
    free[1, 2] = False                      # (x=2, y=1)
    grid = libastar.Grid.from_mask(free)
    k = libastar.Knowledge(grid)
    assert (k.width, k.height, k.version, k.count_known) == (6, 4, 0, 0)
    assert k.get((2, 1)) == "unknown" and k.get((-1, 0)) == "blocked"
    k.reveal((2, 1))
    assert k.get((2, 1)) == "blocked" and k.version == 1
    k.reveal((2, 1))                        # seen the same: no change
    assert k.version == 1
    k.reveal((1, 2), order="rc")            # row 1, col 2: the same cell
    assert k.version == 1
    k.set((0, 0), "passable")
    assert k.states()[0, 0] == 1 and k.count_known == 2
    assert k.reveal_radius((5, 3), 1) == 3  # (5,3), (4,3), (5,2)
    k.reveal_cells([(0, 3), (1, 3)])
    assert k.count_known == 7
    k.clear()
    assert k.count_known == 0 and k.version > 7
    with pytest.raises(libastar.OutOfBoundsError):
        k.reveal((6, 0))
    with pytest.raises(libastar.InvalidArgumentError):
        k.set((0, 0), "seen")
    with pytest.raises(libastar.InvalidArgumentError):
        libastar.Knowledge(grid, unknown="maybe")
    with pytest.raises(libastar.InvalidArgumentError):
        libastar.Knowledge(grid, unknown="cost", unknown_cost=0)


def test_finder_follows_knowledge_changes():
    free = np.ones((5, 9), bool)
    free[:4, 4] = False
    grid = libastar.Grid.from_mask(free)
    k = libastar.Knowledge(grid)
    finder = libastar.Finder(grid, "astar", knowledge=k)
    assert finder.find((0, 0), (8, 0)).cost == pytest.approx(8.0)
    k.reveal_radius((4, 2), 2)
    assert finder.find((0, 0), (8, 0)).cost == pytest.approx(grid.find_path((0, 0), (8, 0)).cost)


def test_layer_object():
    layer = libastar.Layer(5, 3)
    assert (layer.width, layer.height) == (5, 3) and layer.to_array().sum() == 0
    layer.set((4, 2), 2.5)
    assert layer.get((4, 2)) == 2.5 and layer.to_array()[2, 4] == 2.5 and layer.get((9, 9)) == 0
    layer.fill(1.0)
    layer.add_cone((0, 0), 2.0, 4.0)
    assert layer.get((0, 0)) == pytest.approx(5.0) and layer.get((1, 0)) == pytest.approx(3.0)
    rc = libastar.Layer(5, 3, order="rc")
    rc.set((2, 4), 7.0)
    assert rc.to_array()[2, 4] == 7.0
    with pytest.raises(ValueError):
        layer.set((0, 0), -1.0)
    with pytest.raises(ValueError):
        layer.fill(math.nan)
    bad = np.zeros((3, 5))
    bad[1, 3] = math.inf
    with pytest.raises(ValueError, match=r"values\[1, 3\]"):
        libastar.Layer.from_array(bad)
    with pytest.raises(libastar.InvalidArgumentError):
        libastar.Layer.from_array(np.zeros(4))


def test_refusals():
    grid = libastar.Grid(6, 4)
    k = libastar.Knowledge(grid)
    layer = libastar.Layer(6, 4)
    with pytest.raises(libastar.UnsupportedError):
        libastar.Finder(grid, "jps", knowledge=k)
    with pytest.raises(libastar.UnsupportedError):
        grid.find_path((0, 0), (5, 3), algo="jps", knowledge=k)
    with pytest.raises(libastar.UnsupportedError):
        grid.find_path((0, 0), (5, 3), space="graph", layers=[layer])
    with pytest.raises(libastar.UnsupportedError):
        libastar.Finder(libastar.HexGrid(4, 4), "astar", knowledge=k)
    with pytest.raises(libastar.InvalidArgumentError):
        grid.find_path((0, 0), (5, 3), knowledge=libastar.Knowledge(libastar.Grid(5, 4)))
    with pytest.raises(libastar.InvalidArgumentError):
        grid.find_path((0, 0), (5, 3), layers=[libastar.Layer(6, 5)])
    with pytest.raises(TypeError):
        grid.find_path((0, 0), (5, 3), layers=["danger"])
    with pytest.raises(TypeError):
        grid.find_path((0, 0), (5, 3), knowledge=layer)
    with pytest.raises(ValueError):
        grid.find_path((0, 0), (5, 3), layers=[(layer, -1.0)])
    # without them: the ordinary search
    assert grid.find_path((0, 0), (5, 3), knowledge=None, layers=[]).cost == pytest.approx(
        grid.find_path((0, 0), (5, 3)).cost)
