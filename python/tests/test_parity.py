"""Parity with the C tool: on seeded random maps and options, find_path gives
what `astar solve` prints -- the same outcome, the same cells, the same cost
and the same number of expansions."""
import random

import numpy as np
import pytest

import libastar as la

CASES = 300


def random_map(rng):
    w, h = rng.randint(2, 48), rng.randint(2, 40)
    density = rng.choice([0.0, 0.1, 0.25, 0.35])
    terrain = rng.random() < 0.35
    rows = []
    for _ in range(h):
        row = ""
        for _ in range(w):
            if rng.random() < density:
                row += "#"
            elif terrain and rng.random() < 0.3:
                row += str(rng.randint(1, 9))
            else:
                row += "."
        rows.append(row)
    return "\n".join(rows) + "\n", terrain


def random_options(rng, terrain):
    algos = ["astar", "dijkstra", "greedy", "bidir"] + ([] if terrain else ["jps", "jps-plus"])
    algo = rng.choice(algos)
    kw = {"algo": algo}
    cli = ["--algo", algo]
    jump = algo in ("jps", "jps-plus")
    engine = algo in ("greedy", "bidir")
    if not jump:
        if rng.random() < 0.4:
            kw["moves"] = 4
            cli += ["--moves", "4"]
        corner = rng.choice(["no-cut", "always", "one-side", "never"])
        kw["corner"] = corner
        cli += ["--corner", corner]
    if rng.random() < 0.3 and not jump:
        s, d = rng.choice([(1.0, 1.5), (10.0, 14.0), (2.0, 2.5), (1.0, 1.0)])
        kw.update(straight_cost=s, diagonal_cost=d)
        cli += ["--costs", f"{s!r},{d!r}"]
    if rng.random() < 0.3 and algo not in ("dijkstra",) and not jump:
        h = rng.choice(["octile", "chebyshev", "euclidean", "zero", "manhattan"])
        kw["heuristic"] = h
        cli += ["--heuristic", h]
    if rng.random() < 0.3 and algo in ("astar", "greedy", "bidir"):
        w = rng.choice([0.5, 1.5, 2.0, 3.0])
        kw["weight"] = w
        cli += ["--weight", repr(w)]
    tie = rng.choice(["larger-g", "newest"] + ([] if engine else ["cross"]))
    kw["tie"] = tie
    cli += ["--tie", tie]
    if algo == "astar" and rng.random() < 0.2:
        kw["turn_penalty"] = 0.5
        cli += ["--turn-penalty", "0.5"]
    if not jump and rng.random() < 0.15:
        r = rng.choice(["always", "never"])
        kw["reopen"] = r
        cli += ["--reopen", r]
    return kw, cli


def test_random_maps_and_options(tmp_path, solve, report):
    rng = random.Random(2014)
    compared = found = 0
    for case in range(CASES):
        text, terrain = random_map(rng)
        f = tmp_path / f"m{case}.txt"
        f.write_text(text)
        grid = la.Grid.from_ascii(text)
        free = np.argwhere(grid.to_numpy())
        if len(free) == 0:
            continue
        (sy, sx), (gy, gx) = (free[rng.randrange(len(free))] for _ in range(2))
        start, goal = (int(sx), int(sy)), (int(gx), int(gy))
        kw, cli = random_options(rng, terrain)
        ref = solve(f, start, goal, *cli)
        where = f"case {case}: {start} -> {goal} {cli}\n{text}"
        try:
            p = grid.find_path(start, goal, **kw)
        except la.NoPathError as e:
            assert ref["rc"] == 1 and "no path" in ref["status"], where
            assert e.path.expanded == ref["expanded"], where
            compared += 1
            continue
        assert ref["rc"] == 0, where + ref["stderr"]
        assert p.cells.tolist() == [list(c) for c in ref["path"]], where
        assert p.cost == pytest.approx(ref["cost"], rel=1e-9, abs=1e-9), where
        assert p.expanded == ref["expanded"], where
        compared += 1
        found += 1
    assert compared > CASES * 0.9 and found > CASES * 0.6
    report(f"parity with `astar solve`: {compared} random queries, {found} with a path, "
           "identical cells, cost and expansions")


def test_benchmark_maps_every_algorithm(data_dir, solve):
    for name in ("cave64.map", "maze64-1.map"):
        path = data_dir / "small" / name
        grid = la.Grid.from_movingai(path)
        for q in la.load_scen(f"{path}.scen")[::37]:
            for algo in ("astar", "jps", "jps-plus", "dijkstra", "greedy", "bidir"):
                p = grid.find_path(q.start, q.goal, algo=algo)
                ref = solve(path, q.start, q.goal, "--algo", algo)
                assert p.cells.tolist() == [list(c) for c in ref["path"]], (name, q, algo)
                assert p.expanded == ref["expanded"]
