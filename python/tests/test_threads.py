"""Threads: searches release the GIL, so Python threads search in parallel on
one shared grid (each with its own workspace) and get identical results; a
grid cannot change, nor a workspace serve two searches, while a search runs."""
import os
import threading
import time

import numpy as np
import pytest

import libastar as la


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(7)
    a = rng.random((512, 512)) > 0.3
    g = la.Grid.from_numpy(a)
    free = np.argwhere(a)
    pick = rng.choice(len(free), size=(120, 2))
    queries = [(tuple(free[i][::-1].tolist()), tuple(free[j][::-1].tolist())) for i, j in pick]
    return g, queries


def solve_all(grid, queries):
    out = []
    for s, t in queries:
        try:
            p = grid.find_path(s, t)
            out.append((p.cost, p.cells.tobytes(), p.expanded))
        except la.NoPathError:
            out.append(None)
    return out


def test_two_threads_in_parallel(big, report):
    grid, queries = big
    solve_all(grid, queries[:5])  # warm up this thread's workspace
    t0, c0 = time.perf_counter(), time.process_time()
    one = solve_all(grid, queries)
    t_one, c_one = time.perf_counter() - t0, time.process_time() - c0

    results = [None, None]
    ready = threading.Barrier(3)

    def worker(k):
        solve_all(grid, queries[:5])  # this thread's workspace, made before the clock starts
        ready.wait()
        results[k] = solve_all(grid, queries)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    ready.wait()
    t0, c0 = time.perf_counter(), time.process_time()
    for t in threads:
        t.join()
    t_two, c_two = time.perf_counter() - t0, time.process_time() - c0
    assert results[0] == one and results[1] == one
    report(f"threads: {len(queries)} A* searches (512x512, 30% walls): one thread {t_one:.2f} s "
           f"(CPU {c_one / t_one:.2f}); the same in each of 2 threads at once {t_two:.2f} s "
           f"(CPU {c_two / t_two:.2f}): {2 * t_one / t_two:.2f}x the throughput of one thread "
           f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; not asserted)")


def test_the_gil_is_released_during_a_search():
    g = la.Grid(1200, 1200)
    done = threading.Event()
    spins = 0

    def search():
        g.find_path((0, 0), (1199, 1199), heuristic="zero")  # ~1.4 M expansions
        done.set()

    t = threading.Thread(target=search)
    t.start()
    while not done.is_set():
        spins += 1
    t.join()
    # Had the search held the GIL, this thread could hardly have run meanwhile.
    assert spins > 10_000


def test_no_changes_while_another_thread_searches():
    g = la.Grid(1200, 1200)
    refused = []
    t = threading.Thread(target=lambda: g.find_path((0, 0), (1199, 1199), heuristic="zero"))
    t.start()
    while t.is_alive():
        try:
            g.set_passable(600, 600, True)  # the value it has: harmless when allowed
        except RuntimeError as e:
            refused.append(e)
            break
    t.join()
    assert refused and "being searched" in str(refused[0])
    g.set_passable(600, 600, False)  # allowed again


def test_one_workspace_one_search_at_a_time():
    g = la.Grid(1200, 1200)
    ws = la.Workspace()
    errors = []
    t = threading.Thread(
        target=lambda: g.find_path((0, 0), (1199, 1199), heuristic="zero", workspace=ws))
    t.start()
    while t.is_alive():
        try:
            g.find_path((0, 0), (1, 1), workspace=ws)
        except RuntimeError as e:
            errors.append(e)
            break
    t.join()
    assert errors and "workspace" in str(errors[0])


def test_queue_refuses_another_thread_during_update(data_dir):
    cave = la.Grid.from_movingai(data_dir / "small" / "cave64.map")
    q = la.Queue(cave, capacity=4)
    seen = []

    def from_other_thread(outcome):
        box = []
        th = threading.Thread(target=lambda: box.append(_try(lambda: q.poll(outcome.id))))
        th.start()
        th.join()
        seen.append(box[0])

    q.submit((36, 43), (26, 52), callback=from_other_thread)
    q.run()
    assert isinstance(seen[0], RuntimeError) and "another thread" in str(seen[0])


def _try(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - returned for the assertion
        return e
