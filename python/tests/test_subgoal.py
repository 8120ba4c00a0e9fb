"""Subgoal graphs (astar/subgoal.h) through Python: libastar.Subgoal, save /
load, staleness, other grids, and Finder(grid, 'subgoal') -- optimal like A*."""
import pickle

import numpy as np
import pytest

import libastar as la


@pytest.fixture
def cave(data_dir):
    return la.Grid.from_movingai(data_dir / "small" / "cave64.map")


def test_build_and_search_like_astar(cave, data_dir):
    sg = la.Subgoal(cave)
    assert isinstance(sg, la.Subgoal) and sg.grid is cave and sg.memory > 0 and sg.current
    f = la.Finder(cave, "subgoal", subgoal=sg)
    assert f.attachments["subgoal"] is sg and f.method == "subgoal"
    built = la.Finder(cave, "subgoal")          # built here when not given
    assert isinstance(built.attachments["subgoal"], la.Subgoal)
    for q in la.load_scen(data_dir / "small" / "cave64.map.scen")[::5]:
        a = cave.find_path(q.start, q.goal)
        p = f.find(q.start, q.goal)
        assert p.cost == a.cost                   # A*'s exact cost (astar/subgoal.h)
        assert p.cost == pytest.approx(q.optimal_length, rel=1e-5)
        assert cave.path_cost(p.cells) == pytest.approx(p.cost)
        assert built.find(q.start, q.goal).cost == a.cost
        assert cave.find_path(q.start, q.goal, algo="subgoal").cost == a.cost
    for levels in (1, 2, 3):
        g = la.Finder(cave, "subgoal", subgoal=la.Subgoal(cave, levels=levels))
        assert g.find((36, 43), (26, 52)).cost == cave.find_path((36, 43), (26, 52)).cost


def test_many_and_sliced(cave):
    f = la.Finder(cave, "subgoal")
    free = np.argwhere(cave.to_numpy())[:, ::-1]
    starts, goals = free[::37][:20], free[::41][:20]
    many = f.find_many(starts, goals, threads=2)
    for s, g, p in zip(starts, goals, many):
        assert p.cost == f.find(s, g).cost
    search = f.begin((36, 43), (26, 52))
    while not search.step(1):
        pass
    assert search.finish().cost == f.find((36, 43), (26, 52)).cost


def test_save_and_load(cave, tmp_path):
    sg = la.Subgoal(cave, levels=2)
    data = sg.save()
    assert isinstance(data, bytes) and data[:8] == b"ASTARSGG"
    path = tmp_path / "cave.sg"
    assert sg.save(path) == data and path.read_bytes() == data
    for source in (data, path, str(path)):
        loaded = la.Subgoal.load(cave, source)
        assert loaded.save() == data
        f = la.Finder(cave, "subgoal", subgoal=loaded)
        assert f.find((36, 43), (26, 52)).cost == cave.find_path((36, 43), (26, 52)).cost
    again = pickle.loads(pickle.dumps(sg))
    assert again.save() == data


def test_load_checks_the_data(cave):
    data = bytearray(la.Subgoal(cave).save())
    with pytest.raises(la.ParseError):
        la.Subgoal.load(cave, bytes(data[:len(data) // 2]))
    data[len(data) - 9] ^= 0xFF
    with pytest.raises(la.ParseError):
        la.Subgoal.load(cave, bytes(data))
    other = cave.copy()
    other.set_passable(*np.argwhere(cave.to_numpy())[0][::-1], False)
    with pytest.raises(la.MismatchError):
        la.Subgoal.load(other, la.Subgoal(cave).save())


def test_stale_mismatch_and_refusals(cave):
    sg = la.Subgoal(cave)
    with pytest.raises(la.MismatchError):
        la.Finder(cave.copy(), "subgoal", subgoal=sg)
    with pytest.raises(la.MismatchError):
        la.Finder(cave, "subgoal", subgoal=sg, diagonal_cost=1.5)
    with pytest.raises(la.UnsupportedError, match="smooth"):
        la.Finder(cave, "subgoal", subgoal=sg, smooth=True)
    with pytest.raises(la.UnsupportedError):
        la.Finder(cave, "astar", subgoal=sg)
    with pytest.raises(la.UnsupportedError):
        la.Subgoal(cave, moves=4)
    with pytest.raises(ValueError, match="levels"):
        la.Subgoal(cave, levels=65)
    with pytest.raises(TypeError, match="subgoal"):
        la.Finder(cave, "subgoal", subgoal=la.Cpd(la.Grid(4, 4)))
    f = la.Finder(cave, "subgoal", subgoal=sg)
    limited = la.Finder(cave, "subgoal", subgoal=sg, max_expansions=1)
    with pytest.raises(la.LimitReachedError):
        limited.find((36, 43), (26, 52))
    cave.set_passable(0, 0, not cave.passable(0, 0))
    assert not sg.current
    with pytest.raises(la.StaleError):
        f.find((36, 43), (26, 52))
    with pytest.raises(la.StaleError, match="subgoal: built before"):
        f.refresh()
    own = la.Finder(cave, "subgoal")              # built here: refresh rebuilds it
    cave.set_passable(0, 0, not cave.passable(0, 0))
    own.refresh()
    assert own.find((36, 43), (26, 52)).cost == cave.find_path((36, 43), (26, 52)).cost
