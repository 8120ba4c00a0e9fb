"""The finder (astar/finder.h) through Python: libastar.Finder, libastar.methods()
and the sliced Search -- every method of the library's table against A*
(optimal methods cost exactly A*'s on random maps), against `astar solve`
(the one-shot C searches of the tool), sliced against whole, and the
refusals naming the option."""
import random

import numpy as np
import pytest

import libastar as la

ALL = [m.name for m in la.methods()]
# The methods a grid finder runs (the mesh methods search a navigation mesh:
# test_mesh.py).
GRID_ALL = [m.name for m in la.methods() if not m.mesh]
# Methods whose path is an optimal 8-connected grid path under the Moving AI
# rules (the jump searches and CPD need uniform costs).
OPTIMAL_GRID = [m.name for m in la.methods()
                if m.optimal and m.grid and not m.any_angle]


def test_methods_come_from_the_library_table():
    names = [m.name for m in la.methods()]
    # One row per astar_method value, none missing: the ids are 0 .. n-1.
    assert len(names) == len(set(names))
    assert [m.id for m in la.methods()] == list(range(len(names)))
    for name in ("astar", "dijkstra", "greedy", "bidir", "ida", "beam", "dynamic", "bandwidth",
                 "f2f", "retarget", "jps", "jps-plus", "cpd", "hpa", "theta", "lazy-theta",
                 "anya", "fringe"):
        assert name in names
    info = {m.name: m for m in la.methods()}
    assert [m.id for m in la.methods()] == sorted(m.id for m in la.methods())
    assert info["jps-plus"].needs == ("jps_plus",) and info["cpd"].needs == ("cpd",)
    assert info["hpa"].needs == ("hpa",) and not info["hpa"].optimal
    assert info["astar"].sliced and info["bidir"].sliced and not info["jps"].sliced
    assert info["anya"].vec and info["anya"].any_angle and info["anya"].optimal
    assert "landmarks" in info["astar"].takes and info["astar"].work == "node expansions"
    assert all(m.summary and m.work for m in la.methods())
    # algo= takes every name of the table too.
    for name in names:
        assert la.Options(algo=name).algo == name


def random_grid(rng, terrain=False):
    w, h = rng.randint(4, 40), rng.randint(4, 30)
    walls = np.array([[rng.random() < 0.25 for _ in range(w)] for _ in range(h)])
    costs = np.where(walls, 0.0, 1.0)
    if terrain:
        costs = np.where(walls, 0.0, np.array([[rng.choice([1.0, 1.0, 2.5, 4.0])
                                               for _ in range(w)] for _ in range(h)]))
    return la.Grid.from_numpy(costs)


def ends(rng, grid):
    free = np.argwhere(grid.to_numpy())
    (sy, sx), (gy, gx) = (free[rng.randrange(len(free))] for _ in range(2))
    return (int(sx), int(sy)), (int(gx), int(gy))


def outcome(fn):
    try:
        return fn()
    except la.NoPathError:
        return None


def test_every_optimal_method_costs_what_astar_costs_on_random_maps():
    rng = random.Random(26)
    checked = {name: 0 for name in OPTIMAL_GRID + ["hpa", "theta", "lazy-theta", "anya"]}
    for case in range(60):
        grid = random_grid(rng)
        if grid.count_passable() < 2:
            continue
        finders = {name: la.Finder(grid, name) for name in checked}
        astar = la.Finder(grid, "astar")
        for _ in range(4):
            s, g = ends(rng, grid)
            ref = outcome(lambda: astar.find(s, g))
            for name, f in finders.items():
                p = outcome(lambda: f.find(s, g))
                where = (case, name, s, g)
                assert (p is None) == (ref is None), where
                if p is None:
                    continue
                checked[name] += 1
                if name in OPTIMAL_GRID:
                    assert p.cost == pytest.approx(ref.cost, rel=1e-9), where
                    assert grid.path_cost(p.cells) == pytest.approx(p.cost, rel=1e-9), where
                    assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == g, where
                elif name == "hpa":  # near-optimal, and a legal grid path
                    assert p.cost >= ref.cost - 1e-9, where
                    assert grid.path_cost(p.cells) == pytest.approx(p.cost, rel=1e-9), where
                elif name == "anya":  # the Euclidean shortest path: never longer
                    assert p.cost <= ref.cost + 1e-9, where
                    assert tuple(p.points[0]) == (s[0] + 0.5, s[1] + 0.5), where
                else:  # Theta*, Lazy Theta*: any-angle bends, no bound proven
                    assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == g, where
    assert all(n > 100 for n in checked.values()), checked


def test_terrain_methods_cost_what_astar_costs():
    rng = random.Random(2601)
    names = [m.name for m in la.methods() if m.optimal and m.terrain and m.grid]
    assert "astar" in names and "bidir" in names and "jps" not in names
    for case in range(30):
        grid = random_grid(rng, terrain=True)
        if grid.count_passable() < 2:
            continue
        s, g = ends(rng, grid)
        ref = outcome(lambda: grid.find_path(s, g))
        for name in names:
            p = outcome(lambda: la.Finder(grid, name).find(s, g))
            assert (p is None) == (ref is None), (case, name)
            if p is not None:
                assert p.cost == pytest.approx(ref.cost, rel=1e-9), (case, name)


@pytest.mark.parametrize("name", ["cave64.map", "maze64-1.map"])
def test_the_tools_one_shot_searches(data_dir, solve, name):
    """Each method's path and cost are what `astar solve --algo M` prints."""
    path = data_dir / "small" / name
    grid = la.Grid.from_movingai(path)
    finders = {m: la.Finder(grid, m) for m in ("theta", "lazy-theta", "cpd", "hpa", "anya",
                                               "jps-plus", "bidir", "ida")}
    for q in la.load_scen(f"{path}.scen")[::97]:
        for m, f in finders.items():
            ref = solve(path, q.start, q.goal, "--algo", m)
            p = f.find(q.start, q.goal)
            assert ref["rc"] == 0, (m, q, ref["stderr"])
            assert p.cost == pytest.approx(ref["cost"], rel=1e-8), (m, q)
            if m == "anya":
                assert p.cells.shape == (0, 2) and p.points.dtype == np.float64
                assert tuple(p.points[0]) == (q.start[0] + 0.5, q.start[1] + 0.5)
                assert tuple(p.points[-1]) == (q.goal[0] + 0.5, q.goal[1] + 0.5)
                assert len(p) == len(p.points)
            else:
                want = ref["waypoints"] if m in ("theta", "lazy-theta") else ref["path"]
                assert p.cells.tolist() == [list(c) for c in want], (m, q)
            if ref["expanded"] is not None and m not in ("cpd", "hpa"):
                assert p.expanded == ref["expanded"], (m, q)


def test_sliced_equals_whole_for_every_method(data_dir):
    grid = la.Grid.from_movingai(data_dir / "small" / "cave64.map")
    queries = la.load_scen(str(data_dir / "small" / "cave64.map.scen"))[::151]
    for name in GRID_ALL:
        f = la.Finder(grid, name, beam_width=64, epsilon=0.5, band_e=2.0, band_d=1.0)
        for q in queries:
            whole = outcome(lambda: f.find(q.start, q.goal))
            search = f.begin(q.start, q.goal)
            steps = 0
            while not search.step(7):
                steps += 1
                assert steps < 10**6
            sliced = outcome(search.finish)
            assert (whole is None) == (sliced is None), (name, q)
            if whole is None:
                continue
            assert sliced.cost == whole.cost and len(sliced) == len(whole), (name, q)
            assert np.array_equal(sliced.cells, whole.cells), (name, q)
            assert sliced.work == whole.work and search.work == whole.work, (name, q)
            if f.info.sliced and whole.work > 7:
                assert search.steps > 1, (name, q)  # resumed across steps
            if not f.info.sliced:
                assert search.steps == 1, (name, q)  # ran whole in the first


def test_a_search_in_progress_ends_stale_when_the_grid_changes():
    grid = la.Grid(64, 64)
    f = la.Finder(grid, "astar")
    search = f.begin((0, 0), (63, 63))
    assert not search.step(5)
    grid.set_passable(30, 30, False)
    assert search.step(5)
    assert search.status == la.Status.STALE
    with pytest.raises(la.StaleError):
        search.finish()
    with pytest.raises(RuntimeError, match="finished or cancelled"):
        search.step(5)


def test_a_sliced_search_keeps_its_workspace():
    grid = la.Grid(32, 32)
    ws = la.Workspace()
    f = la.Finder(grid)
    search = f.begin((0, 0), (31, 31), workspace=ws)
    with pytest.raises(RuntimeError, match="workspace"):
        f.find((0, 0), (1, 1), workspace=ws)
    search.cancel()
    assert f.find((0, 0), (1, 1), workspace=ws).cost == pytest.approx(2 ** 0.5)
    with pytest.raises(RuntimeError, match="not done"):
        f.begin((0, 0), (31, 31)).finish()


def test_refusals_name_the_option():
    grid = la.Grid(16, 8)
    grid.set_terrain(3, 3, 2.0)
    with pytest.raises(la.UnsupportedError) as e:
        la.Finder(grid, "jps")
    assert "terrain" in e.value.detail and e.value.status == la.Status.UNSUPPORTED
    assert grid.unsupported_reason(algo="jps") == e.value.detail
    flat = la.Grid(16, 8)
    cases = [
        (dict(method="theta", partial=True), "partial="),
        (dict(method="anya", weight=2.0), "weight"),
        (dict(method="astar", jps_plus=la.JpsPlus(flat)), "jps_plus= is attached"),
        (dict(method="theta", unit_size=2), "any-angle paths are for one-cell units"),
        (dict(method="anya", smooth=True), "smooth"),
        (dict(method="jps", turn_penalty=1.0), "turn penalty"),
        (dict(method="bidir", tie="cross"), "tie"),
        (dict(method="cpd", max_expansions=10), "max_expansions="),
        (dict(method="bidir", observer=lambda e: None), "observer"),
    ]
    for kw, words in cases:
        with pytest.raises(la.UnsupportedError) as e:
            la.Finder(flat, **kw)
        assert words in e.value.detail, (kw, e.value.detail)
        assert "cfg." not in e.value.detail and "options." not in e.value.detail, e.value.detail
    with pytest.raises(la.InvalidArgumentError, match="method: expected one of"):
        la.Finder(flat, "dstar")
    with pytest.raises(TypeError, match="cpd: a Cpd expected"):
        la.Finder(flat, "cpd", cpd=la.Landmarks(flat))
    with pytest.raises(la.InvalidArgumentError, match="unit_size"):
        la.Finder(flat, unit_size=0)


def test_attachments_are_built_or_given_and_refreshed():
    grid = la.Grid(40, 30)
    for y in range(25):
        grid.set_passable(20, y, False)
    hpa = la.Finder(grid, "hpa")
    assert set(hpa.attachments) == {"hpa"} and isinstance(hpa.attachments["hpa"], la.Hpa)
    before = hpa.find((0, 0), (39, 0)).cost
    grid.set_passable(20, 0, True)          # a gap opens at the top
    with pytest.raises(la.StaleError, match="refresh"):
        hpa.find((0, 0), (39, 0))
    hpa.refresh()
    after = hpa.find((0, 0), (39, 0))
    assert after.cost < before and after.cost == pytest.approx(39.0)
    given = la.Cpd(grid)
    cpd = la.Finder(grid, "cpd", cpd=given)
    assert cpd.attachments["cpd"] is given and cpd.find((0, 0), (39, 0)).cost == 39.0
    grid.set_passable(20, 0, False)
    with pytest.raises(la.StaleError):
        cpd.find((0, 0), (39, 0))
    with pytest.raises(la.StaleError, match="cpd: built before"):
        cpd.refresh()
    lm = la.Finder(grid, "astar", landmarks=4)
    ref = la.Finder(grid, "astar").find((0, 29), (39, 29))
    p = lm.find((0, 29), (39, 29))
    assert p.cost == pytest.approx(ref.cost) and p.expanded <= ref.expanded


def test_units_and_smoothing():
    grid = la.Grid(20, 11)
    for y in range(11):
        if y != 5:
            grid.set_passable(10, y, False)  # a gap one cell wide
    small = la.Finder(grid).find((0, 5), (18, 5))
    with pytest.raises(la.NoPathError):
        la.Finder(grid, unit_size=2).find((0, 5), (18, 5))
    grid.set_passable(10, 6, True)          # now two cells wide
    with pytest.raises(la.StaleError):
        la.Finder(grid, unit_size=2, clearance=la.Clearance(la.Grid(20, 11)))
    big = la.Finder(grid, "jps", unit_size=2).find((0, 5), (18, 5))
    assert big.cost >= small.cost
    for x, y in big:                         # every footprint cell is open
        assert all(grid.passable(x + i, y + j) for i in (0, 1) for j in (0, 1))
    smooth = la.Finder(grid, "astar", smooth=True).find((0, 0), (19, 10))
    plain = la.Finder(grid, "astar").find((0, 0), (19, 10))
    assert smooth.grid_cost == pytest.approx(plain.cost)
    assert smooth.cost <= plain.cost + 1e-9 and len(smooth) < len(plain)


def test_find_path_goes_through_the_finder_for_every_method(data_dir):
    grid = la.Grid.from_movingai(data_dir / "small" / "maze64-1.map")
    scen = la.load_scen(str(data_dir / "small" / "maze64-1.map.scen"))
    q = scen[len(scen) // 2]
    for name in GRID_ALL:
        kw = dict(beam_width=4096) if name == "beam" else {}
        try:
            p = grid.find_path(q.start, q.goal, algo=name, **kw)
        except la.NoPathError:
            assert name in ("bandwidth",), name  # band_e = band_d = 0 prunes the way
            continue
        f = la.Finder(grid, name, **kw).find(q.start, q.goal)
        assert p.cost == f.cost and len(p) == len(f), name
        if name in OPTIMAL_GRID:
            assert p.cost == pytest.approx(q.optimal_length, abs=1e-6), name


def test_threads_share_a_finder():
    from concurrent.futures import ThreadPoolExecutor
    grid = la.Grid(200, 200)
    for y in range(0, 190):
        grid.set_passable(100, y, False)
    f = la.Finder(grid, "jps")
    ref = f.find((0, 0), (199, 0))
    with ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(lambda _: f.find((0, 0), (199, 0)), range(16)))
    assert all(np.array_equal(p.cells, ref.cells) and p.cost == ref.cost for p in paths)


def test_hex_and_waypoint_searches_go_through_the_finder():
    """HexGrid.find_path and Waypoints.find_path prepare a finder (over the hex
    grid as a space, over the waypoint graph): the same paths as a Finder, and
    the finder's refusals -- a two-sided search has no partial paths (the
    partial flag was silently ignored before)."""
    h = la.HexGrid(8, 8)
    for algo in ("bidir", "ida", "f2f"):
        with pytest.raises(la.UnsupportedError, match="no partial paths") as e:
            h.find_path((0, 0), (7, 7), algo=algo, partial=True)
        assert "partial=" in e.value.detail and "engine." not in e.value.detail
    assert h.find_path((0, 0), (7, 7), algo="bidir").cost == h.find_path((0, 0), (7, 7)).cost
    g = la.Grid(12, 9)
    for y in range(7):
        g.set_passable(6, y, False)
    wp = g.waypoints()
    with pytest.raises(la.UnsupportedError, match="no partial paths"):
        wp.find_path((0, 0), (11, 0), algo="f2f", partial=True)
    for algo in ("astar", "dijkstra", "bidir", "greedy"):
        p = wp.find_path((0, 0), (11, 0), algo=algo)
        f = la.Finder(g, algo, waypoints=wp).find((0, 0), (11, 0))
        assert p.cells.tolist() == f.cells.tolist() and p.cost == f.cost, algo
    with pytest.raises(la.UnsupportedError, match="terrain"):
        g.set_terrain(0, 8, 2.0)
        la.Finder(g, "astar", waypoints=g.waypoints())


def test_a_sliced_search_from_outside_the_grid_ends_as_find_does():
    grid = la.Grid(10, 10)
    for kw in (dict(method="astar"), dict(method="jps"), dict(method="bidir", space="graph"),
               dict(method="anya")):
        f = la.Finder(grid, **kw)
        with pytest.raises(la.OutOfBoundsError):
            f.find((0, 0), (10, 0))
        search = f.begin((0, 0), (10, 0))
        while not search.step(3):
            pass
        with pytest.raises(la.OutOfBoundsError):
            search.finish()
        assert f.find((0, 0), (9, 0)).cost == pytest.approx(9.0), kw


def test_find_path_reuses_its_finder_and_follows_the_grid():
    """grid.find_path keeps the finder of its last Options object: the same
    answers as a fresh one after edits, for the grid's loops, a cached
    precomputation and space='graph'."""
    grid = la.Grid(24, 12)
    for name, kw in (("astar", {}), ("jps-plus", {}), ("bidir", {}), ("astar", {"space": "graph"})):
        opts = la.Options(algo=name, **kw)
        first = grid.find_path((0, 0), (23, 0), options=opts)
        assert grid.find_path((0, 0), (23, 0), options=opts).cost == first.cost
        for y in range(11):
            grid.set_passable(12, y, False)
        p = grid.find_path((0, 0), (23, 0), options=opts)
        fresh = la.Finder(grid, name, **kw).find((0, 0), (23, 0))
        assert p.cost == fresh.cost > first.cost, name
        if name != "jps-plus":
            grid.set_terrain(12, 11, 5.0)
            p = grid.find_path((0, 0), (23, 0), options=opts)
            assert p.cost == la.Finder(grid, name, **kw).find((0, 0), (23, 0)).cost, name
        grid = la.Grid(24, 12)
