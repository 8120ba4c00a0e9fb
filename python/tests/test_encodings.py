"""Path encodings (encode_path / decode_path, astar/path.h) and turn points:
round trips of every encoding on search paths (8 and 4 moves) and random
walks, the sizes the format promises, and damaged or bad input refused."""
import numpy as np
import pytest

import libastar
from grid_graph import random_costs

DIRS8 = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)]


def random_walk(rng, n, four=False, start=(0, 0)):
    steps = np.array(DIRS8[:4] if four else DIRS8)[rng.integers(4 if four else 8, size=n)]
    return np.vstack([[start], start + np.cumsum(steps, axis=0)]).astype(np.int32)


def search_paths():
    rng = np.random.default_rng(11)
    for moves in (8, 4):
        grid = libastar.Grid.from_numpy(random_costs(rng, 40, 40, wall=0.2))
        free = np.argwhere(grid.to_numpy())
        for _ in range(15):
            (sy, sx), (gy, gx) = free[rng.integers(len(free), size=2)]
            try:
                yield grid.find_path((int(sx), int(sy)), (int(gx), int(gy)), moves=moves)
            except libastar.NoPathError:
                pass


@pytest.mark.parametrize("encoding", libastar.ENCODINGS)
def test_round_trips(encoding):
    rng = np.random.default_rng(5)
    paths = [p.cells for p in search_paths()]
    paths += [random_walk(rng, int(n), four=bool(n % 2), start=(int(n), -7))
              for n in rng.integers(0, 700, size=30)]
    paths.append(np.array([[70000, 3], [70001, 4]], dtype=np.int32))  # wide positions
    for cells in paths:
        data = libastar.encode_path(cells, encoding)
        assert isinstance(data, bytes)
        assert libastar.path_encoding(data) == encoding
        back = libastar.decode_path(data)
        assert back.dtype == np.int32 and np.array_equal(back, cells)
        tp = libastar.turn_points(cells)
        assert np.array_equal(libastar.expand_turn_points(tp), cells)


def test_sizes_and_paths():
    # 4-connected, N 6, W 3, N 5, W 2 from (10, 20): the sizes of astar/path.h
    steps = [(0, -1)] * 6 + [(-1, 0)] * 3 + [(0, -1)] * 5 + [(-1, 0)] * 2
    cells = np.vstack([[10, 20], [10, 20] + np.cumsum(steps, axis=0)])
    assert len(libastar.encode_path(cells, "runs")) == 5 + 5
    assert len(libastar.encode_path(cells, "variable")) == 5 + 3
    assert len(libastar.encode_path(cells, "positions")) == 5 + 16 * 4
    p = libastar.Grid(30, 30).find_path((0, 0), (29, 3))
    assert np.array_equal(libastar.decode_path(libastar.encode_path(p)), p.cells)
    tp = libastar.turn_points(p)
    assert len(tp) == 3 and tp[0].tolist() == [0, 0] and tp[-1].tolist() == [29, 3]


def test_bad_input():
    with pytest.raises(libastar.InvalidArgumentError, match="8 neighbours"):
        libastar.encode_path([(0, 0), (2, 0)])
    with pytest.raises(libastar.InvalidArgumentError, match="at least one"):
        libastar.encode_path(np.zeros((0, 2), dtype=np.int32))
    with pytest.raises(libastar.InvalidArgumentError, match="encoding"):
        libastar.encode_path([(0, 0)], "zip")
    data = libastar.encode_path(random_walk(np.random.default_rng(1), 50), "turns")
    for bad in (data[:-1], data + b"\0", b"\x99" + data[1:], b""):
        with pytest.raises(libastar.ParseError):
            libastar.decode_path(bad)
    with pytest.raises(libastar.InvalidArgumentError):
        libastar.expand_turn_points([(0, 0), (2, 1)])
    with pytest.raises(TypeError):
        libastar.encode_path([(0.5, 0)])
