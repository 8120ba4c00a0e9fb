"""libastar.mapf (issue 29 item 4): problems, every solver of the library's
table, the validator. Checked against references written here, sharing no
code with the library: a breadth-first lower bound, a validator of the MAPF
rules, the largest 4-connected region, and a brute-force search of the joint
space for the optimal sum of costs on tiny instances."""
import heapq
import itertools
import os
import pathlib
import re
from collections import deque

import numpy as np
import pytest

import libastar
from libastar import mapf

SOURCE = pathlib.Path(os.environ.get("ASTAR_SOURCE_DIR",
                                     pathlib.Path(__file__).resolve().parents[2]))
BENCH = SOURCE.parent / "shared" / "bench" / "mapf"
STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))
NAMES = [a.name for a in mapf.algorithms()]


# ---- references -------------------------------------------------------------------------

def passable(mask, c):
    x, y = c
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])


def bfs(mask, a, b):
    """4-connected distance from a to b on mask[y, x] (None: unreachable)."""
    dist = {a: 0}
    q = deque([a])
    while q:
        c = q.popleft()
        if c == b:
            return dist[c]
        for dx, dy in STEPS:
            n = (c[0] + dx, c[1] + dy)
            if n not in dist and passable(mask, n):
                dist[n] = dist[c] + 1
                q.append(n)
    return None


def cost(path):
    """The arrival time: the smallest t with path[t:] all the last cell."""
    t = len(path) - 1
    while t > 0 and path[t - 1] == path[-1]:
        t -= 1
    return max(t, 0)


def ref_valid(mask, starts, goals, paths):
    """The MAPF rules, written out: None when valid, else a word."""
    if len(paths) != len(starts):
        return "count"
    paths = [[tuple(c) for c in p] for p in paths]
    for i, p in enumerate(paths):
        if not p:
            return "empty"
        if p[0] != tuple(starts[i]) or p[-1] != tuple(goals[i]):
            return "ends"
    horizon = max(len(p) for p in paths)
    at = lambda p, t: p[min(t, len(p) - 1)]  # noqa: E731 -- the last cell holds
    for t in range(horizon):
        seen = {}
        for i, p in enumerate(paths):
            c = at(p, t)
            if not passable(mask, c):
                return "off"
            if t and abs(c[0] - at(p, t - 1)[0]) + abs(c[1] - at(p, t - 1)[1]) > 1:
                return "move"
            if c in seen:
                return "vertex"
            seen[c] = i
        if t:
            for i, j in itertools.combinations(range(len(paths)), 2):
                a0, a1, b0, b1 = at(paths[i], t - 1), at(paths[i], t), at(paths[j], t - 1), \
                    at(paths[j], t)
                if a0 != a1 and a0 == b1 and a1 == b0:
                    return "swap"
    return None


def ref_optimum(mask, starts, goals):
    """The least sum of costs, by Dijkstra over (positions, finished agents):
    a step costs the number of agents not yet finished; an agent at its goal
    may finish (for free), and then stays there for ever."""
    n = len(starts)
    start = (tuple(map(tuple, starts)), 0)
    goals = [tuple(g) for g in goals]
    best = {start: 0}
    heap = [(0, start)]
    full = (1 << n) - 1
    while heap:
        d, (pos, done) = heapq.heappop(heap)
        if d > best[(pos, done)]:
            continue
        if done == full:
            return d
        for i in range(n):   # finishing: free
            if not done >> i & 1 and pos[i] == goals[i]:
                s = (pos, done | 1 << i)
                if d < best.get(s, 1 << 60):
                    best[s] = d
                    heapq.heappush(heap, (d, s))
        moving = [i for i in range(n) if not done >> i & 1]
        step = bin(full ^ done).count("1")
        options = [[pos[i]] + [(pos[i][0] + dx, pos[i][1] + dy) for dx, dy in STEPS
                               if passable(mask, (pos[i][0] + dx, pos[i][1] + dy))]
                   for i in moving]
        for choice in itertools.product(*options):
            new = list(pos)
            for i, c in zip(moving, choice):
                new[i] = c
            if len(set(new)) < n:
                continue
            if any(new[i] == pos[j] and new[j] == pos[i] and i != j
                   for i in moving for j in range(n)):
                continue
            s = (tuple(new), done)
            if d + step < best.get(s, 1 << 60):
                best[s] = d + step
                heapq.heappush(heap, (d + step, s))
    return None


def largest_region(mask):
    """The cells of the largest 4-connected region (ties: the one holding
    the smallest cell number y * width + x)."""
    h, w = mask.shape
    label = -np.ones(mask.shape, dtype=int)
    regions = []
    for y in range(h):
        for x in range(w):
            if mask[y, x] and label[y, x] < 0:
                cells, q = [], deque([(x, y)])
                label[y, x] = len(regions)
                while q:
                    c = q.popleft()
                    cells.append(c)
                    for dx, dy in STEPS:
                        n = (c[0] + dx, c[1] + dy)
                        if passable(mask, n) and label[n[1], n[0]] < 0:
                            label[n[1], n[0]] = len(regions)
                            q.append(n)
                regions.append(set(cells))
    return max(regions, key=len)   # max keeps the first of equal sizes


def random_mask(rng, w, h, walls):
    mask = rng.random((h, w)) >= walls
    return mask


def built(algo):
    """Whether the library has the algorithm's solver: a row without one
    answers UnsupportedError (src/mapf/solve.c), even for one agent."""
    try:
        mapf.solve(mapf.Problem(libastar.Grid(2, 1), [(0, 0)], [(1, 0)]), algo, max_work=10**5)
    except libastar.UnsupportedError:
        return False
    return True


def need(algo):
    if not built(algo):
        pytest.skip(f"{algo}: its solver is not built into the library yet (UnsupportedError)")


# ---- the table --------------------------------------------------------------------------

def test_algorithms_are_the_library_table():
    """One row per astar_mapf_algo value, in enum order, named as the header
    names them; every name is what solve(algo=) takes."""
    rows = mapf.algorithms()
    assert [r.id for r in rows] == list(range(len(rows)))
    assert all(r.name and r.summary for r in rows)
    header = SOURCE / "include" / "astar" / "mapf.h"
    if header.exists():
        text = header.read_text()
        enum = re.search(r"typedef enum astar_mapf_algo \{(.*?)\}", text, re.S).group(1)
        members = re.findall(r"ASTAR_MAPF_(\w+)", enum)
        assert members[-1] == "ALGO_COUNT" and len(members) - 1 == len(rows)
        assert [m.lower().replace("_", "-") for m in members[:-1]] == [r.name for r in rows]
        listed = re.search(r'const char \*name;\s*/\*(.*?)\*/', text).group(1)
        assert re.findall(r'"([\w-]+)"', listed) == [r.name for r in rows]
        faults = re.search(r"typedef enum astar_mapf_fault \{(.*?)\}", text, re.S).group(1)
        kinds = re.findall(r"ASTAR_MAPF_(\w+)", faults)
        assert [k.lower() for k in kinds] == list(mapf.FAULTS) + ["fault_count"]
    by = {r.name: r for r in rows}
    assert by["cbs"].optimal and not by["cbs"].anytime
    assert by["eecbs"].bounded
    assert by["lacam-star"].anytime and by["lacam-star"].complete
    assert not by["pibt"].optimal and not by["prioritized"].complete
    g = libastar.Grid(3, 1)
    p = mapf.Problem(g, [(0, 0)], [(2, 0)])
    for r in rows:   # a name or the row itself
        if not built(r.name):
            with pytest.raises(libastar.UnsupportedError, match=f"algo: {r.name} cannot"):
                mapf.solve(p, r.name)
            continue
        assert mapf.solve(p, r.name, max_work=10**6).algo == r.name
        assert mapf.solve(p, r, max_work=10**6).sum_of_costs == 2


# ---- problems ---------------------------------------------------------------------------

def test_problem_from_grid_and_text():
    g = libastar.Grid.from_ascii("....\n.##.\n....\n")
    p = mapf.Problem(g, [(0, 0), (3, 2)], [(3, 0), (0, 2)])
    assert (p.agents, len(p), p.width, p.height) == (2, 2, 4, 3)
    assert p.starts == [(0, 0), (3, 2)] and p.goals == [(3, 0), (0, 2)]
    assert p.lower_bound == 3 + 3 and p.memory > 0 and p.grid is g
    assert p.passable((0, 1)) and not p.passable((1, 1)) and not p.passable((9, 9))
    q = mapf.Problem("....\n.##.\n....\n", [(0, 0)], [(3, 2)])
    assert q.lower_bound == 5
    # The map is copied: editing the grid later does not change the problem.
    g.set_passable(0, 1, False)
    assert p.passable((0, 1))


def test_problem_order_rc():
    g = libastar.Grid.from_ascii("....\n.##.\n....\n", )
    p = mapf.Problem(g, [(0, 0), (2, 3)], [(0, 3), (2, 0)], order="rc")
    assert p.starts == [(0, 0), (2, 3)] and p.order == "rc"
    s = mapf.solve(p, "lacam", max_work=10**6)
    assert s.paths[0][0] == (0, 0) and s.paths[0][-1] == (0, 3)
    assert mapf.check(p, s).valid


def test_lower_bound_is_the_bfs_sum():
    rng = np.random.default_rng(29)
    for trial in range(20):
        mask = random_mask(rng, 12, 9, 0.25)
        g = libastar.Grid.from_mask(mask)
        p = mapf.Problem.random(g, 5, seed=trial)
        want = sum(bfs(mask, s, t) for s, t in zip(p.starts, p.goals))
        assert p.lower_bound == want


def test_unreachable_goal_names_the_agent():
    g = libastar.Grid.from_ascii("..#..\n")
    p = mapf.Problem(g, [(0, 0), (1, 0)], [(1, 0), (4, 0)])
    with pytest.raises(libastar.NoPathError) as e:
        p.lower_bound
    assert e.value.agent == 1
    s = mapf.solve(p, "lacam", max_work=10**5)
    assert not s.solved and s.status == libastar.Status.NO_PATH and s.paths == []


def test_random_instances_follow_the_rule():
    """Starts pairwise distinct, goals too, all in the largest region;
    the same seed the same instance, another seed another one."""
    rng = np.random.default_rng(7)
    for trial in range(10):
        mask = random_mask(rng, 16, 10, 0.3)
        region = largest_region(mask)
        g = libastar.Grid.from_mask(mask)
        n = min(12, len(region))
        p = mapf.Problem.random(g, n, seed=trial)
        assert len(set(p.starts)) == n and len(set(p.goals)) == n
        assert set(p.starts) <= region and set(p.goals) <= region
        again = mapf.Problem.random(g, n, seed=trial)
        assert (again.starts, again.goals) == (p.starts, p.goals)
    g = libastar.Grid(20, 20)
    a, b = mapf.Problem.random(g, 30, 1), mapf.Problem.random(g, 30, 2)
    assert (a.starts, a.goals) != (b.starts, b.goals)
    with pytest.raises(libastar.TooLargeError, match="n: 401 agents"):
        mapf.Problem.random(g, 401, 0)


def test_from_movingai(tmp_path):
    m = tmp_path / "tiny.map"
    m.write_text("type octile\nheight 3\nwidth 5\nmap\n.....\n.@@..\n.....\n")
    s = tmp_path / "tiny.scen"
    s.write_text("version 1\n0\ttiny.map\t5\t3\t0\t0\t4\t2\t6\n"
                 "0\ttiny.map\t5\t3\t4\t0\t0\t2\t6\n0\ttiny.map\t5\t3\t0\t2\t4\t0\t6\n")
    p = mapf.Problem.from_movingai(m, s, 2)
    assert p.starts == [(0, 0), (4, 0)] and p.goals == [(4, 2), (0, 2)]
    assert mapf.Problem.from_movingai(str(m), s.read_text(), 3).agents == 3
    with pytest.raises(libastar.InvalidArgumentError, match="agents: 4 agents asked, the "
                       "scenario has 3"):
        mapf.Problem.from_movingai(m, s, 4)
    bad = tmp_path / "bad.scen"
    bad.write_text("version 1\n0\ttiny.map\t6\t3\t0\t0\t4\t2\t6\n")
    with pytest.raises(libastar.InvalidArgumentError, match="scen_source: line 2"):
        mapf.Problem.from_movingai(m, bad, 1)


@pytest.mark.skipif(not (BENCH / "scen").is_dir(), reason="no ../shared/bench/mapf")
def test_from_movingai_benchmark():
    scen = BENCH / "scen" / "random-32-32-10-random-1.scen"
    p = mapf.Problem.from_movingai(BENCH / "maps" / "random-32-32-10.map", scen, 40)
    rows = libastar.load_scen(scen)[:40]
    assert p.starts == [q.start for q in rows] and p.goals == [q.goal for q in rows]
    s = mapf.solve(p, "lacam", time_limit=5.0)
    assert s.solved and mapf.check(p, s).valid and s.sum_of_costs >= p.lower_bound


# ---- the validator ----------------------------------------------------------------------

OPEN = np.ones((3, 5), dtype=bool)


def faults_of(mask, starts, goals, paths):
    p = mapf.Problem(libastar.Grid.from_mask(mask), starts, goals)
    return mapf.check(p, paths)


def test_check_accepts_a_valid_solution():
    r = faults_of(OPEN, [(0, 0), (4, 2)], [(4, 0), (0, 2)],
                  [[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
                   [(4, 2), (4, 2), (3, 2), (2, 2), (1, 2), (0, 2), (0, 2)]])
    assert r.valid and r.fault == "valid" and r.agent is None and r.cell is None
    assert (r.sum_of_costs, r.makespan) == (4 + 5, 5)


@pytest.mark.parametrize("case", [
    # (starts, goals, paths, fault, agents, time, cell)
    ([(0, 0), (1, 1)], [(2, 0), (1, 0)], [[(0, 0), (1, 0), (2, 0)], [(1, 1), (1, 0)]],
     "vertex_conflict", {0, 1}, 1, (1, 0)),
    ([(0, 0), (1, 0)], [(1, 0), (0, 0)], [[(0, 0), (1, 0)], [(1, 0), (0, 0)]],
     "swap_conflict", {0, 1}, 1, None),
    # agent 0 arrives at (1, 0) at t = 1 and its path ends there; agent 1
    # enters that cell at t = 2
    ([(0, 0), (3, 0)], [(1, 0), (0, 1)],
     [[(0, 0), (1, 0)], [(3, 0), (2, 0), (1, 0), (1, 1), (0, 1)]],
     "goal_conflict", {0, 1}, 2, (1, 0)),
    ([(0, 0)], [(2, 0)], [[(1, 0), (2, 0)]], "wrong_start", {0}, None, None),
    ([(0, 0)], [(2, 0)], [[(0, 0), (1, 0)]], "wrong_goal", {0}, None, None),
    ([(0, 0)], [(3, 0)], [[(0, 0), (2, 0), (3, 0)]], "illegal_move", {0}, 1, (2, 0)),
    ([(0, 0)], [(1, 1)], [[(0, 0), (1, 1)]], "illegal_move", {0}, 1, (1, 1)),
    ([(0, 0)], [(0, 2)], [[(0, 0), (-1, 0), (-1, 1), (0, 1), (0, 2)]], "off_map", {0}, 1,
     (-1, 0)),
    ([(0, 0), (4, 2)], [(4, 0), (0, 2)], [[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], []],
     "empty_path", {1}, None, None),
    ([(0, 0), (4, 2)], [(4, 0), (0, 2)], [[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]],
     "agent_count", set(), None, None),
])
def test_check_catches_planted_faults(case):
    starts, goals, paths, fault, agents, time, cell = case
    r = faults_of(OPEN, starts, goals, paths)
    assert not r.valid
    assert r.fault == fault, r
    assert r.fault in mapf.FAULTS
    assert {a for a in (r.agent, r.other) if a is not None} == agents, r
    if time is not None:
        assert r.time == time, r
    if cell is not None:
        assert r.cell == cell, r
    if fault != "agent_count":
        assert ref_valid(OPEN, starts, goals, paths) is not None


def test_check_blocked_cell():
    mask = OPEN.copy()
    mask[0, 2] = False
    r = faults_of(mask, [(1, 0)], [(3, 0)], [[(1, 0), (2, 0), (3, 0)]])
    assert r.fault == "off_map" and r.time == 1 and r.cell == (2, 0)


def test_check_agrees_with_the_reference_on_damaged_solutions():
    """A valid solution with one cell changed, wait inserted or removed:
    the library and the reference agree on valid or not."""
    rng = np.random.default_rng(3)
    agreed = invalid = 0
    for trial in range(60):
        mask = random_mask(rng, 7, 6, 0.15)
        g = libastar.Grid.from_mask(mask)
        p = mapf.Problem.random(g, 4, seed=trial)
        s = mapf.solve(p, "lacam", max_work=10**6, seed=trial)
        if not s.solved:
            continue
        paths = [list(q) for q in s.paths]
        assert ref_valid(mask, p.starts, p.goals, paths) is None
        i = int(rng.integers(len(paths)))
        k = int(rng.integers(len(paths[i])))
        what = trial % 3
        if what == 0:
            x, y = paths[i][k]
            dx, dy = STEPS[int(rng.integers(4))]
            paths[i][k] = (x + dx, y + dy)
        elif what == 1:
            paths[i].insert(k, paths[i][k])
        elif len(paths[i]) > 1:
            del paths[i][k]
        want = ref_valid(mask, p.starts, p.goals, paths) is None
        r = mapf.check(p, paths)
        assert r.valid == want, (trial, r, paths)
        agreed += 1
        invalid += not want
    assert agreed >= 40 and invalid >= 10


# ---- solving ----------------------------------------------------------------------------

TINY = [
    # (map, starts, goals): instances small enough for the joint-space search
    ("...\n.#.\n...\n", [(0, 0), (2, 2)], [(2, 2), (0, 0)]),
    ("....\n", [(0, 0), (3, 0)], [(3, 0), (0, 0)]),   # no solution: a corridor
    ("#.#\n...\n#.#\n", [(1, 0), (0, 1), (2, 1)], [(1, 2), (2, 1), (0, 1)]),
    ("....\n.#..\n....\n", [(0, 0), (1, 0), (3, 2)], [(1, 0), (3, 2), (0, 0)]),
    ("...\n...\n", [(0, 0), (1, 0), (2, 0)], [(2, 1), (1, 1), (0, 1)]),
]


@pytest.mark.parametrize("algo", NAMES)
def test_every_algorithm_solves_small_instances(algo):
    """Each of the table's algorithms on the tiny instances and on random
    8 x 8 ones: every solution passes check() and the reference validator,
    its figures are the paths'; the optimal ones are the brute-force
    optimum, EECBS within w, and none below it."""
    need(algo)
    info = {r.name: r for r in mapf.algorithms()}[algo]
    for text, starts, goals in TINY:
        grid = libastar.Grid.from_ascii(text)
        mask = grid.to_numpy()
        p = mapf.Problem(grid, starts, goals)
        best = ref_optimum(mask, starts, goals)
        s = mapf.solve(p, algo, max_work=2 * 10**6, time_limit=10.0, w=1.5)
        if best is None:
            assert not s.solved and s.paths == []
            if info.complete:
                assert s.status == libastar.Status.NO_PATH
            continue
        if not s.solved:
            assert not info.complete, (algo, text)
            continue
        assert ref_valid(mask, starts, goals, s.paths) is None, (algo, text, s.paths)
        assert mapf.check(p, s).valid
        assert s.sum_of_costs == sum(cost(q) for q in s.paths) == sum(s.costs)
        assert s.makespan == max(cost(q) for q in s.paths)
        assert s.sum_of_costs >= best and s.lower_bound == p.lower_bound <= best
        if s.optimal:
            assert s.sum_of_costs == best, (algo, text)
        if info.optimal and not info.anytime:   # cbs: optimal whenever it solves
            assert s.optimal and s.sum_of_costs == best, (algo, text)
        if info.bounded:
            assert s.sum_of_costs <= 1.5 * best + 1e-9, (algo, text)
    rng = np.random.default_rng(11)
    solved = 0
    for trial in range(6):
        mask = random_mask(rng, 8, 8, 0.2)
        p = mapf.Problem.random(libastar.Grid.from_mask(mask), 5, seed=trial)
        # An anytime solver goes on to the work limit: a small one.
        s = mapf.solve(p, algo, max_work=10**5 if info.anytime else 2 * 10**6, seed=trial)
        if s.solved:
            solved += 1
            assert ref_valid(mask, p.starts, p.goals, s.paths) is None, (algo, trial)
            assert mapf.check(p, s).valid
            assert s.sum_of_costs >= s.lower_bound == p.lower_bound
            assert s.stats.time_total >= 0 and s.stats.improvements >= 1
    assert solved >= 3, algo


def test_prioritized_windowed():
    """window= reaches the library: WHCA* plans W steps ahead; its plans pass
    the reference validator like the full cooperative A*'s."""
    need("prioritized")
    rng = np.random.default_rng(17)
    solved = 0
    for trial in range(5):
        mask = random_mask(rng, 10, 10, 0.15)
        p = mapf.Problem.random(libastar.Grid.from_mask(mask), 8, seed=trial)
        for window in (0, 4):
            s = mapf.solve(p, "prioritized", window=window, max_work=10**6)
            if s.solved:
                solved += 1
                assert ref_valid(mask, p.starts, p.goals, s.paths) is None, (trial, window)
    assert solved >= 5


def test_lacam_star_reports_its_improvements():
    g = libastar.Grid(10, 10)
    p = mapf.Problem.random(g, 12, seed=4)
    seen = []
    s = mapf.solve(p, "lacam-star", max_work=3 * 10**5,
                   on_improve=lambda soc, t: seen.append((soc, t)))
    assert s.solved and seen == s.improvements and len(seen) == s.stats.improvements >= 1
    costs = [c for c, _ in seen]
    assert costs == sorted(costs, reverse=True) and costs[-1] == s.sum_of_costs
    assert all(t >= 0 for _, t in seen)
    with pytest.raises(ZeroDivisionError):   # the callback's own exception
        mapf.solve(p, "lacam-star", max_work=10**4, on_improve=lambda soc, t: 1 / 0)


def test_solves_are_deterministic_under_a_work_limit():
    g = libastar.Grid.from_mask(random_mask(np.random.default_rng(5), 16, 16, 0.2))
    p = mapf.Problem.random(g, 20, seed=9)
    for algo in ("pibt", "lacam", "prioritized"):
        if not built(algo):
            continue
        a = mapf.solve(p, algo, max_work=10**6, seed=3)
        b = mapf.solve(p, algo, max_work=10**6, seed=3)
        assert a.paths == b.paths and a.sum_of_costs == b.sum_of_costs


def test_a_tiny_work_limit_stops_a_solver():
    p = mapf.Problem.random(libastar.Grid(12, 12), 30, seed=1)
    s = mapf.solve(p, "lacam", max_work=1)
    assert s.solved or s.status == libastar.Status.LIMIT_REACHED
    if not s.solved:
        assert s.paths == [] and s.sum_of_costs == 0 and s.stats.time_first == -1


# ---- arguments ----------------------------------------------------------------------------

def test_bad_arguments_name_themselves():
    g = libastar.Grid.from_ascii("....\n.#..\n....\n")
    p = mapf.Problem(g, [(0, 0), (3, 2)], [(3, 0), (0, 2)])
    bad = [
        (dict(algo="astar"), libastar.InvalidArgumentError, "algo: expected one of pibt"),
        (dict(algo=3), TypeError, "algo: an algorithm's name"),
        (dict(w=0.5), libastar.InvalidArgumentError, r"w: a number in \[1, 1000\]"),
        (dict(w="2"), TypeError, "w: a real number expected"),
        (dict(time_limit=-1), libastar.InvalidArgumentError, r"time_limit: a number in \[0, "),
        (dict(time_limit=float("nan")), libastar.InvalidArgumentError, "time_limit"),
        (dict(max_work=-1), libastar.InvalidArgumentError, r"max_work: an integer in \[0, "),
        (dict(max_work=1.5), TypeError, "max_work: an integer expected"),
        (dict(seed=2**64), libastar.InvalidArgumentError, "seed: an integer in"),
        (dict(seed=True), TypeError, "seed: an integer expected"),
        (dict(max_steps=2**28 + 1), libastar.InvalidArgumentError,
         r"max_steps: an integer in \[0, 2\^28\]"),
        (dict(window=2**32), libastar.InvalidArgumentError, "window"),
        (dict(window=-1), libastar.InvalidArgumentError, "window"),
        (dict(max_memory=-5), libastar.InvalidArgumentError, "max_memory"),
        (dict(on_improve=5), TypeError, "on_improve: a callable or None"),
    ]
    for kw, exc, msg in bad:
        with pytest.raises(exc, match=msg):
            mapf.solve(p, **kw)
    with pytest.raises(TypeError, match="problem: a mapf.Problem"):
        mapf.solve(g)
    with pytest.raises(TypeError, match="problem: a mapf.Problem"):
        mapf.check(g, [])
    with pytest.raises(TypeError, match="solution: a Solution or a sequence"):
        mapf.check(p, 5)
    with pytest.raises(TypeError, match=r"solution\[1\]\[0\]"):
        mapf.check(p, [[(0, 0)], [("a", 0)]])


def test_bad_problems_name_the_argument_and_agent():
    g = libastar.Grid.from_ascii("....\n.#..\n....\n")
    cases = [
        (([(0, 0), (0, 0)], [(3, 0), (0, 2)]), libastar.InvalidArgumentError,
         r"starts\[1\]: \(0, 0\) is starts\[0\] too", 1),
        (([(0, 0), (2, 0)], [(3, 0), (3, 0)]), libastar.InvalidArgumentError,
         r"goals\[1\]: \(3, 0\) is goals\[0\] too", 1),
        (([(0, 0), (1, 1)], [(3, 0), (0, 2)]), libastar.StartBlockedError,
         r"starts\[1\]: \(1, 1\) is blocked", 1),
        (([(0, 0)], [(1, 1)]), libastar.GoalBlockedError, r"goals\[0\]: \(1, 1\) is blocked", 0),
        (([(0, 0), (4, 0)], [(3, 0), (0, 2)]), libastar.OutOfBoundsError,
         r"starts\[1\]: \(4, 0\) lies outside the 4 x 3 grid", 1),
        (([(0, 0)], [(0, -1)]), libastar.OutOfBoundsError, r"goals\[0\]: \(0, -1\) lies outside",
         0),
    ]
    for (starts, goals), exc, msg, agent in cases:
        with pytest.raises(exc, match=msg) as e:
            mapf.Problem(g, starts, goals)
        assert e.value.agent == agent
    with pytest.raises(libastar.InvalidArgumentError, match="starts, goals: as many goals"):
        mapf.Problem(g, [(0, 0)], [(3, 0), (0, 2)])
    with pytest.raises(libastar.InvalidArgumentError, match=r"starts, goals: 1 \.\. 2\^20"):
        mapf.Problem(g, [], [])
    with pytest.raises(TypeError, match=r"starts\[0\]: an \(x, y\) pair"):
        mapf.Problem(g, [(0, "a")], [(3, 0)])
    with pytest.raises(TypeError, match="grid: a libastar.Grid"):
        mapf.Problem(42, [(0, 0)], [(3, 0)])
    with pytest.raises(libastar.InvalidArgumentError, match=r"n: an integer in \[1, 2\^20\]"):
        mapf.Problem.random(g, 0)
    with pytest.raises(TypeError, match="seed: an integer expected"):
        mapf.Problem.random(g, 2, seed="1")


def test_module_doctest():
    import doctest
    failures, tests = doctest.testmod(mapf, verbose=False)
    assert tests > 0 and failures == 0
