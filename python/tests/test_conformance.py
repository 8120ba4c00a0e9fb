"""Conformance through Python: a subset of the 83,006 Moving AI queries
(../shared/bench/movingai: every STRIDE-th query of every map, the first
included), each solved with the optimal length, relative error <= 1e-5 --
the rule of `astar bench --check`. Skipped, with the reason, when the
benchmark folder is absent (ASTAR_REQUIRE_MOVINGAI=1 makes that a failure)."""
import time

import pytest

import libastar as la

# algorithm -> query stride (bidirectional search is the slowest per query)
STRIDES = {"astar": 50, "jps": 50, "jps-plus": 50, "bidir": 250}
TOLERANCE = 1e-5


def scenarios(movingai):
    files = sorted(movingai.glob("*/*.map.scen"))
    assert files, f"no .map.scen under {movingai}"
    return files


@pytest.mark.parametrize("algo", list(STRIDES))
def test_movingai_subset(movingai, algo, report):
    stride = STRIDES[algo]
    opts = la.Options(algo=algo)
    queries = maps = 0
    mismatches = []
    t0 = time.perf_counter()
    for scen_file in scenarios(movingai):
        grid = la.Grid.from_movingai(scen_file.with_suffix(""))  # X.map.scen -> X.map
        scen = la.load_scen(scen_file)
        maps += 1
        for q in scen[::stride]:
            queries += 1
            try:
                cost = grid.find_path(q.start, q.goal, options=opts).cost
            except la.AstarError as e:
                mismatches.append((scen_file.name, q.line, q.optimal_length, e.status.name))
                continue
            if abs(cost - q.optimal_length) > TOLERANCE * max(q.optimal_length, 1.0):
                mismatches.append((scen_file.name, q.line, q.optimal_length, cost))
    seconds = time.perf_counter() - t0
    report(f"conformance {algo:8} {queries:5} queries (every {stride}th) on {maps} maps: "
           f"{len(mismatches)} mismatches, {seconds:.1f} s")
    assert maps >= 31 if movingai.name == "movingai" else maps > 0
    assert not mismatches, mismatches[:10]
