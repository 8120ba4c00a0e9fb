"""JPS+: the precomputation object, save / load, staleness, other grids."""
import numpy as np
import pytest

import libastar as la


@pytest.fixture
def cave(data_dir):
    return la.Grid.from_movingai(data_dir / "small" / "cave64.map")


def test_build_search_and_agree_with_astar(cave, data_dir):
    pre = cave.jps_plus()
    assert isinstance(pre, la.JpsPlus) and pre.grid is cave and pre.memory > 0
    for q in la.load_scen(data_dir / "small" / "cave64.map.scen")[::7]:
        a = cave.find_path(q.start, q.goal)
        j = pre.find_path(q.start, q.goal)
        assert j.cost == pytest.approx(a.cost, rel=1e-12)
        assert j.cost == pytest.approx(q.optimal_length, rel=1e-5)
        assert cave.path_cost(j.cells) == pytest.approx(j.cost)


def test_save_and_load(cave, tmp_path):
    pre = la.JpsPlus(cave)
    data = pre.save()
    assert isinstance(data, bytes) and len(data) > 100
    f = tmp_path / "cave.jpp"
    assert pre.save(f) == data and f.read_bytes() == data
    for source in (data, f, str(f)):
        loaded = la.JpsPlus.load(cave, source)
        loaded.verify()
        assert loaded.save() == data
        assert loaded.find_path((36, 43), (26, 52)).cost == pytest.approx(17.24264069, rel=1e-9)


def test_load_checks_the_data(cave):
    data = bytearray(cave.jps_plus().save())
    with pytest.raises(la.ParseError):
        la.JpsPlus.load(cave, bytes(data[:len(data) // 2]))
    data[len(data) // 2] ^= 0xFF
    with pytest.raises(la.ParseError):
        la.JpsPlus.load(cave, bytes(data))
    other = cave.copy()
    other.set_passable(*np.argwhere(cave.to_numpy())[0][::-1], False)
    with pytest.raises(la.MismatchError) as e:
        la.JpsPlus.load(other, cave.jps_plus().save())
    assert e.value.status == la.Status.MISMATCH


def test_stale_and_mismatched(cave):
    pre = cave.jps_plus()
    other = cave.copy()
    with pytest.raises(la.MismatchError):
        other.find_path((36, 43), (26, 52), algo="jps-plus", jps_plus=pre)
    cave.set_passable(0, 0, not cave.passable(0, 0))
    with pytest.raises(la.StaleError) as e:
        pre.find_path((36, 43), (26, 52))
    assert e.value.status.name == "STALE"
    # without an explicit object the grid rebuilds its own when it changed
    assert cave.find_path((36, 43), (26, 52), algo="jps-plus").cost == pytest.approx(17.24264069)


def test_grid_cache_follows_changes():
    g = la.Grid(20, 5)
    assert g.find_path((0, 2), (19, 2), algo="jps-plus").cost == 19
    for y in range(4):
        g.set_passable(10, y, False)
    p = g.find_path((0, 0), (19, 0), algo="jps-plus")
    assert p.cost == pytest.approx(g.find_path((0, 0), (19, 0)).cost)


def test_needs_uniform_costs():
    g = la.Grid.from_numpy(np.array([[1.0, 2.0], [1.0, 1.0]]))
    with pytest.raises(la.UnsupportedError) as e:
        g.jps_plus()
    assert "terrain" in e.value.detail
    with pytest.raises(la.UnsupportedError):
        la.Grid(4, 4).find_path((0, 0), (3, 3), algo="jps-plus", moves=4)


def test_a_grid_and_its_cached_jps_plus_are_collected():
    import gc
    import weakref
    g = la.Grid(30, 30)
    g.find_path((0, 0), (29, 29), algo="jps-plus")  # the grid keeps a JpsPlus, which keeps it
    ref = weakref.ref(g)
    del g
    gc.collect()
    assert ref() is None
