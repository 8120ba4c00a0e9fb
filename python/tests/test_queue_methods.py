"""The request queue with any method (Queue.submit(method=, finder=,
unit_size=, smooth=)): every outcome equals the one-shot search of the same
finder; units of several sizes share one queue; the refusals name why."""
import numpy as np
import pytest

import libastar as la


@pytest.fixture
def cave(data_dir):
    return la.Grid.from_movingai(data_dir / "small" / "cave64.map")


@pytest.fixture
def queries(data_dir):
    return la.load_scen(data_dir / "small" / "cave64.map.scen")[::7][:16]


def run_all(q, submit):
    got = {}
    for i, s in enumerate(submit):
        s(q, i, lambda o: got.__setitem__(o.user, o))
    frames = 0
    while q.pending:
        q.update(300)
        frames += 1
    return got, frames


@pytest.mark.parametrize("method", ["astar", "dijkstra", "jps", "theta", "lazy-theta", "greedy",
                                    "bidir", "beam"])
def test_methods_equal_one_shot(cave, queries, method):
    q = la.Queue(cave, capacity=len(queries))
    got, _ = run_all(q, [lambda q, i, cb, s=s: q.submit(s.start, s.goal, method=method, user=i,
                                                         callback=cb) for s in queries])
    finder = la.Finder(cave, method)
    for i, s in enumerate(queries):
        ref = finder.find(s.start, s.goal)
        assert got[i].ok, got[i]
        np.testing.assert_array_equal(got[i].path.cells, ref.cells)
        assert got[i].path.cost == pytest.approx(ref.cost, rel=1e-12)


@pytest.mark.parametrize("method", ["jps-plus", "cpd", "hpa", "astar"])
def test_finders_with_precomputations(cave, queries, method):
    finder = la.Finder(cave, method, **({"landmarks": 4} if method == "astar" else {}))
    q = la.Queue(cave, capacity=len(queries))
    got, _ = run_all(q, [lambda q, i, cb, s=s: q.submit(s.start, s.goal, finder=finder, user=i,
                                                         callback=cb) for s in queries])
    for i, s in enumerate(queries):
        ref = finder.find(s.start, s.goal)
        assert got[i].ok
        np.testing.assert_array_equal(got[i].path.cells, ref.cells)
        assert got[i].path.cost == pytest.approx(ref.cost, rel=1e-12)


def test_units_of_several_sizes_share_a_queue(cave, queries):
    q = la.Queue(cave, capacity=3 * len(queries), max_unit=3)
    subs = []
    for k in (1, 2, 3):
        for s in queries:
            subs.append((k, s))
    got, _ = run_all(q, [lambda q, i, cb, k=k, s=s: q.submit(s.start, s.goal, unit_size=k, user=i,
                                                              callback=cb)
                         for k, s in subs])
    for i, (k, s) in enumerate(subs):
        try:
            ref = cave.find_path(s.start, s.goal, unit_size=k)
        except la.AstarError as e:
            assert got[i].status == e.status
            continue
        assert got[i].ok
        np.testing.assert_array_equal(got[i].path.cells, ref.cells)
        assert got[i].path.cost == pytest.approx(ref.cost, rel=1e-12)
    assert any(got[i].ok for i, (k, _) in enumerate(subs) if k == 3)


def test_smoothed_requests(cave, queries):
    q = la.Queue(cave, capacity=len(queries))
    got, _ = run_all(q, [lambda q, i, cb, s=s: q.submit(s.start, s.goal, smooth=True, user=i,
                                                         callback=cb) for s in queries])
    for i, s in enumerate(queries):
        ref = cave.smooth(cave.find_path(s.start, s.goal))
        np.testing.assert_array_equal(got[i].path.cells, ref.cells)
        assert got[i].path.cost == pytest.approx(ref.cost, rel=1e-12)


def test_refusals(cave, queries):
    s = queries[0]
    q = la.Queue(cave, capacity=4)
    with pytest.raises(la.UnsupportedError, match="[Aa]nya"):
        q.submit(s.start, s.goal, method="anya")
    with pytest.raises(la.UnsupportedError, match="[Aa]nya"):
        q.submit(s.start, s.goal, finder=la.Finder(cave, "anya"))
    with pytest.raises(la.MismatchError):
        q.submit(s.start, s.goal, finder=la.Finder(la.Grid(64, 64)))
    with pytest.raises(la.InvalidArgumentError, match="finder"):
        q.submit(s.start, s.goal, finder=la.Finder(cave), moves=4)
    with pytest.raises(la.InvalidArgumentError, match="unit_size"):
        q.submit(s.start, s.goal, unit_size=5)          # beyond max_unit (4)
    with pytest.raises(la.UnsupportedError):
        q.submit(s.start, s.goal, finder=la.Finder(cave, heuristic=lambda a, b: 0.0))
    with pytest.raises(la.UnsupportedError, match="graph"):
        q.submit(s.start, s.goal, space="graph")
    with pytest.raises(TypeError, match="Finder"):
        q.submit(s.start, s.goal, finder="astar")
    assert q.pending == 0
