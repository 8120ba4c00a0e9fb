"""HexGrid: the hex map format, NumPy, coordinates, searches against `astar solve`."""
import numpy as np
import pytest

import libastar as la

ALGOS = ["astar", "dijkstra", "greedy", "bidir"]


@pytest.mark.parametrize("name", ["pointy.hex", "flat.hex"])
@pytest.mark.parametrize("algo", ALGOS)
def test_same_paths_as_the_tool(data_dir, solve, name, algo):
    path = data_dir / "hex" / name
    g = la.HexGrid.load(path)
    assert g.start is not None and g.goal is not None
    p = g.find_path(g.start, g.goal, algo=algo)
    ref = solve(path, g.start, g.goal, "--algo", algo)
    assert ref["rc"] == 0, ref["stderr"]
    assert p.cells.tolist() == [list(c) for c in ref["path"]]
    assert p.cost == pytest.approx(ref["cost"], rel=1e-9)
    assert p.expanded == ref["expanded"]


def test_shapes_and_coordinates():
    g = la.HexGrid(6, 4, "flat", "even-q")
    assert (g.orientation, g.layout, g.shape) == ("flat", "even-q", (4, 6))
    assert la.HexGrid(3, 3).layout == "odd-r"
    assert g.distance((0, 0), (5, 3)) >= 5
    for d in range(6):
        n = g.neighbor((2, 2), d)
        assert g.distance((2, 2), n) == 1
    with pytest.raises(la.InvalidArgumentError):
        la.HexGrid(3, 3, "pointy", "odd-q")
    with pytest.raises(la.InvalidArgumentError):
        la.HexGrid(3, 3, "round")


def test_numpy_terrain_and_costs():
    a = np.ones((5, 7))
    a[2, 1:6] = 0  # a wall
    a[0, 3] = 4
    g = la.HexGrid.from_numpy(a)
    assert not g.passable(3, 2) and g.terrain(3, 0) == 4 and g.min_terrain == 1
    np.testing.assert_array_equal(g.to_numpy(), a > 0)
    np.testing.assert_array_equal(g.to_numpy(costs=True), np.where(a > 0, a, np.inf))
    p = g.find_path((3, 0), (3, 4))
    cost = sum(g.terrain(x, y) for x, y in p.cells[1:].tolist())
    assert p.cost == pytest.approx(cost)
    for a_, b_ in zip(p.cells[:-1].tolist(), p.cells[1:].tolist()):
        assert g.distance(tuple(a_), tuple(b_)) == 1


def test_errors():
    g = la.HexGrid(4, 4)
    g.set_passable(0, 0, False)
    with pytest.raises(la.StartBlockedError):
        g.find_path((0, 0), (3, 3))
    with pytest.raises(la.OutOfBoundsError):
        g.find_path((1, 1), (4, 4))
    with pytest.raises(la.ParseError) as e:
        la.HexGrid.load("hex pointy\n. . x\n")
    assert (e.value.line, e.value.column) == (2, 5)
    g.set_passable(1, 0, False)
    g.set_passable(0, 1, False)
    with pytest.raises(la.NoPathError):
        la.HexGrid.load("hex pointy\nS # .\n # # .\n. . G\n").find_path((0, 0), (2, 2))


def test_pickle(data_dir):
    import pickle
    g = la.HexGrid.load(data_dir / "hex" / "flat.hex")
    h = pickle.loads(pickle.dumps(g))
    assert (h.orientation, h.layout, h.start, h.goal) == (g.orientation, g.layout, g.start, g.goal)
    np.testing.assert_array_equal(h.to_numpy(costs=True), g.to_numpy(costs=True))
