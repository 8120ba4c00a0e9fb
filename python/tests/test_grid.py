"""Grid: construction, NumPy in and out, cells, terrain, map files, errors."""
import math
import pickle

import numpy as np
import pytest

import libastar as la


def test_new_grid_is_open():
    g = la.Grid(5, 3)
    assert (g.width, g.height, g.shape) == (5, 3, (3, 5))
    assert g.count_passable() == 15
    assert not g.has_terrain and g.min_terrain == 1.0
    assert g.start is None and g.goal is None
    assert g.to_numpy().shape == (3, 5) and g.to_numpy().all()
    assert g.memory > 0
    assert "5 x 3" in repr(g)


@pytest.mark.parametrize("w,h", [(0, 3), (3, 0), (-1, 5)])
def test_bad_sizes(w, h):
    with pytest.raises(la.InvalidArgumentError) as e:
        la.Grid(w, h)
    assert e.value.status == la.Status.INVALID_ARGUMENT
    assert isinstance(e.value, ValueError)


def test_too_large():
    with pytest.raises(la.TooLargeError):
        la.Grid(40000, 2)


def test_cells_and_terrain():
    g = la.Grid(4, 4)
    v0 = g.version
    g.set_passable(1, 2, False)
    assert not g.passable(1, 2) and g.passable(2, 1)
    assert g.version > v0
    assert not g.passable(-1, 0) and not g.passable(4, 0)  # outside reads as blocked
    assert g.contains(3, 3) and not g.contains(4, 3)
    g.set_terrain(0, 0, 2.5)
    assert g.terrain(0, 0) == 2.5 and g.has_terrain
    g.set_terrain(3, 3, 0.5)
    assert g.min_terrain == 0.5
    g.clear_terrain()
    assert not g.has_terrain and g.terrain(0, 0) == 1.0
    g.fill(False)
    assert g.count_passable() == 0
    g.fill(True)
    assert g.count_passable() == 16


def test_out_of_bounds_is_an_index_error():
    g = la.Grid(3, 3)
    with pytest.raises(la.OutOfBoundsError) as e:
        g.set_passable(3, 0, False)
    assert isinstance(e.value, IndexError)
    assert e.value.status.name == "OUT_OF_BOUNDS" and e.value.code == int(la.Status.OUT_OF_BOUNDS)
    assert e.value.message == la.strerror(la.Status.OUT_OF_BOUNDS)


@pytest.mark.parametrize("cost", [0.0, -1.0, math.inf, math.nan, 2e9])
def test_bad_terrain(cost):
    with pytest.raises(la.InvalidArgumentError):
        la.Grid(2, 2).set_terrain(0, 0, cost)


def test_from_numpy_bool():
    a = np.ones((3, 4), dtype=bool)
    a[1, 2] = False  # row 1, column 2: the cell (2, 1)
    g = la.Grid.from_numpy(a)
    assert (g.width, g.height) == (4, 3)
    assert not g.passable(2, 1) and g.passable(1, 2)
    assert not g.has_terrain
    np.testing.assert_array_equal(g.to_numpy(), a)


def test_from_numpy_costs():
    a = np.array([[1, 2, 0], [np.inf, 1.5, np.nan], [1, 1, 9]], dtype=np.float64)
    g = la.Grid.from_numpy(a)
    assert [g.passable(x, y) for y in range(3) for x in range(3)] == \
        [True, True, False, False, True, False, True, True, True]
    assert g.terrain(1, 0) == 2.0 and g.terrain(1, 1) == 1.5 and g.terrain(2, 2) == 9.0
    c = g.to_numpy(costs=True)
    assert c.dtype == np.float32
    expected = np.where(np.isfinite(a) & (a > 0), a, np.inf).astype(np.float32)
    np.testing.assert_array_equal(c, expected)
    # what to_numpy(costs=True) gives, from_numpy takes back
    np.testing.assert_array_equal(la.Grid.from_numpy(c).to_numpy(costs=True), c)


def test_from_numpy_integers_zero_is_a_wall():
    g = la.Grid.from_numpy(np.array([[1, 0, 1], [1, 1, 1]], dtype=np.int32))
    assert not g.passable(1, 0) and g.count_passable() == 5 and not g.has_terrain


def test_from_numpy_rejects():
    with pytest.raises(ValueError):
        la.Grid.from_numpy(np.ones(5))
    with pytest.raises(la.InvalidArgumentError, match="negative cost"):
        la.Grid.from_numpy(np.array([[1.0, -2.0]]))
    with pytest.raises(la.InvalidArgumentError, match="terrain cost"):
        la.Grid.from_numpy(np.array([[1.0, 5e9]]))
    with pytest.raises(TypeError):
        la.Grid.from_numpy(np.array([["a", "b"]]))


def test_from_numpy_non_contiguous():
    a = np.arange(1, 13, dtype=np.float64).reshape(3, 4).T  # a transposed view
    g = la.Grid.from_numpy(a)
    assert (g.width, g.height) == (3, 4)
    np.testing.assert_array_equal(g.to_numpy(costs=True), a.astype(np.float32))


def test_copy_is_independent():
    g = la.Grid.from_numpy(np.array([[1, 2], [3, 0]], dtype=float))
    c = g.copy()
    assert type(c) is la.Grid
    c.set_passable(0, 0, False)
    assert g.passable(0, 0)
    np.testing.assert_array_equal(g.to_numpy(costs=True)[1], c.to_numpy(costs=True)[1])


def test_pickle_round_trip():
    g = la.Grid.from_ascii("S.#\n.3.\n..G\n")
    h = pickle.loads(pickle.dumps(g))
    np.testing.assert_array_equal(g.to_numpy(costs=True), h.to_numpy(costs=True))
    assert (h.start, h.goal) == ((0, 0), (2, 2))


MOVINGAI = "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n.@T.\r\n...."


def test_movingai_text_bytes_and_file(tmp_path):
    for source in (MOVINGAI, MOVINGAI.encode()):
        g = la.Grid.from_movingai(source)
        assert (g.width, g.height, g.count_passable()) == (4, 3, 10)
    f = tmp_path / "tiny.map"
    f.write_text(MOVINGAI)
    for source in (f, str(f)):
        g = la.Grid.from_movingai(source)
        assert not g.passable(1, 1) and not g.passable(2, 1)
    assert la.Grid.load(f).count_passable() == 10


def test_movingai_benchmark_file(data_dir):
    g = la.Grid.from_movingai(data_dir / "small" / "cave64.map")
    assert (g.width, g.height, g.count_passable()) == (64, 64, 2646)


def test_ascii_map_start_goal_and_terrain():
    g = la.Grid.from_ascii("; a comment\nS.2\n#.G\n")
    assert (g.start, g.goal) == ((0, 0), (2, 1))
    assert g.terrain(2, 0) == 2.0 and not g.passable(0, 1)
    auto = la.Grid.load("S.2\n#.G\n")
    assert (auto.start, auto.goal) == ((0, 0), (2, 1))


def test_parse_errors_say_where(tmp_path):
    with pytest.raises(la.ParseError) as e:
        la.Grid.from_movingai("type octile\nheight 2\nwidth 2\nmap\n..\n.x\n")
    err = e.value
    assert (err.line, err.column) == (6, 2)
    assert err.status == la.Status.PARSE_ERROR and isinstance(err, ValueError)
    assert str(err).startswith("<text>:6:2: ")
    f = tmp_path / "bad.map"
    f.write_text("type octile\nheight 2\nwidth 2\nmap\n..\n.x\n")
    with pytest.raises(la.ParseError) as e:
        la.Grid.from_movingai(f)
    assert e.value.filename == str(f) and str(e.value).startswith(f"{f}:6:2: ")


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        la.Grid.from_movingai("/nonexistent/x.map")


def test_load_scen(data_dir, tmp_path):
    scen = la.load_scen(data_dir / "small" / "cave64.map.scen")
    assert scen.version == 1.0 and len(scen) > 10
    q = scen[0]
    assert q.map == "cave64.map" and (q.map_width, q.map_height) == (64, 64)
    assert q.start == (56, 14) and q.goal == (55, 11)
    assert q.optimal_length == pytest.approx(3.41421356) and q.line == 2
    with pytest.raises(la.ParseError) as e:
        la.load_scen("version 1\n0\tm.map\t4\t4\t0\t0\n")
    assert e.value.line == 2


def test_grid_may_not_change_during_a_search_in_another_thread():
    # The guard itself: a grid counted as being searched refuses changes.
    import threading
    g = la.Grid(600, 600)
    started = threading.Event()
    errors = []

    def observer(event):
        # Runs inside a search (the search holds the GIL for Python observers,
        # so this only shows that the guard is up during the search).
        if not started.is_set():
            started.set()
            try:
                g.set_passable(5, 5, False)
            except RuntimeError as e:
                errors.append(e)

    g.find_path((0, 0), (20, 20), observer=observer)
    assert errors and "being searched" in str(errors[0])
    g.set_passable(5, 5, False)  # fine once the search is over


def test_a_grid_is_initialised_once():
    g = la.Grid(3, 3)
    pre = g.jps_plus()
    with pytest.raises(RuntimeError, match="initialised once"):
        g.__init__(5, 5)
    assert (g.width, pre.grid.width) == (3, 3)
    h = la.HexGrid(3, 3)
    with pytest.raises(RuntimeError):
        h.__init__(4, 4)
