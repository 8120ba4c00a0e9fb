"""Queue: path requests over frames, callbacks into Python, budgets, map edits."""
import numpy as np
import pytest

import libastar as la


@pytest.fixture
def cave(data_dir):
    return la.Grid.from_movingai(data_dir / "small" / "cave64.map")


@pytest.fixture
def queries(data_dir):
    return la.load_scen(data_dir / "small" / "cave64.map.scen")[::5][:30]


def test_results_equal_find_path(cave, queries):
    q = la.Queue(cave, capacity=len(queries))
    got = {}
    ids = [q.submit(s.start, s.goal, user=i, callback=lambda o: got.__setitem__(o.user, o))
           for i, s in enumerate(queries)]
    assert len(set(ids)) == len(ids) and all(i != 0 for i in ids)
    frames = 0
    while q.pending:
        f = q.update(500)
        assert isinstance(f, la.Frame) and f.expanded <= 500 and not f.path_held
        frames += 1
    assert frames > 1 and len(got) == len(queries)
    for i, s in enumerate(queries):
        o = got[i]
        ref = cave.find_path(s.start, s.goal)
        assert o.ok and o.status == la.Status.OK and o.id == ids[i]
        np.testing.assert_array_equal(o.path.cells, ref.cells)
        assert o.path.cost == ref.cost and o.path.expanded == ref.expanded
        assert o.grid_version == cave.version and o.restarts == 0
        assert q.outcome(ids[i]) is o and q.poll(ids[i]) == "done"
        q.release(ids[i])
        assert q.poll(ids[i]) == "unknown" and q.outcome(ids[i]) is None
    assert q.pending == 0


def test_priority_order(cave, queries):
    q = la.Queue(cave, capacity=8)
    order = []
    low = q.submit(queries[0].start, queries[0].goal, priority=0, callback=order.append)
    high = q.submit(queries[1].start, queries[1].goal, priority=5, callback=order.append)
    q.run(budget=100_000)
    assert [o.id for o in order] == [high, low]


def test_immediate_answers_and_states(cave):
    q = la.Queue(cave, capacity=4)
    blocked = next((x, y) for y in range(64) for x in range(64) if not cave.passable(x, y))
    free = next((x, y) for y in range(64) for x in range(64) if cave.passable(x, y))
    same = q.submit(free, free)
    bad = q.submit(free, blocked)
    assert q.poll(same) == "done" and q.poll(bad) == "done"
    seen = []
    q.callback = seen.append
    f = q.update(1)
    assert f.finished == 2 and [o.id for o in seen] == [same, bad]
    assert seen[0].ok and len(seen[0].path) == 1
    assert seen[1].status == la.Status.GOAL_BLOCKED and not seen[1].path
    assert isinstance(seen[1].error(), la.GoalBlockedError) and seen[0].error() is None


def test_cancel_release_and_full(cave, queries):
    q = la.Queue(cave, capacity=2)
    a = q.submit(queries[0].start, queries[0].goal)
    b = q.submit(queries[1].start, queries[1].goal)
    with pytest.raises(la.QueueFullError) as e:
        q.submit(queries[2].start, queries[2].goal)
    assert e.value.status == la.Status.QUEUE_FULL
    q.cancel(a)
    assert q.poll(a) == "cancelled"
    with pytest.raises(la.InvalidArgumentError):
        q.release(b)  # still queued: cancel it first
    q.release(a)
    c = q.submit(queries[2].start, queries[2].goal)
    q.run()
    assert q.poll(b) == "done" and q.poll(c) == "done"
    with pytest.raises(la.InvalidArgumentError):
        q.cancel(b)  # done: release it instead


def test_auto_release(cave, queries):
    q = la.Queue(cave, capacity=2, auto_release=True)
    seen = []
    for s in queries[:6]:  # more than the capacity, in turns
        if q.pending >= 2:
            q.run()
        q.submit(s.start, s.goal, callback=seen.append)
    q.run()
    assert len(seen) == 6 and all(o.ok for o in seen)
    assert all(q.poll(o.id) == "unknown" for o in seen)


def test_paths_longer_than_the_buffer(cave, queries):
    q = la.Queue(cave, capacity=4, path_capacity=2)
    s = max(queries, key=lambda x: x.optimal_length)
    rid = q.submit(s.start, s.goal)
    q.run()
    o = q.outcome(rid)
    ref = cave.find_path(s.start, s.goal)
    assert o.ok and len(o.path) == len(ref) > 2
    np.testing.assert_array_equal(o.path.cells, ref.cells)


def test_grid_edits_from_a_callback_and_restarts(cave, queries):
    q = la.Queue(cave, capacity=4)
    s = max(queries, key=lambda x: x.optimal_length)
    wall = next((x, y) for y in range(64) for x in range(64)
                if cave.passable(x, y) and (x, y) not in (s.start, s.goal))
    first = q.submit(s.start, s.start)  # answered at submission: its callback comes first

    def edit(outcome):
        cave.set_passable(*wall, False)  # allowed from a callback

    q._requests[first] = (edit, None)
    rid = q.submit(s.start, s.goal)
    q.update(10)   # delivers `first` (the edit), then starts the long search
    cave.set_passable(*wall, True)  # an edit between updates: the running search restarts
    q.run()
    o = q.outcome(rid)
    assert o.ok and o.restarts >= 1 and o.grid_version == cave.version


def test_callback_exceptions_propagate(cave, queries):
    q = la.Queue(cave, capacity=4)

    def boom(outcome):
        raise ValueError("from the callback")

    q.submit(queries[0].start, queries[0].goal, callback=boom)
    with pytest.raises(ValueError, match="from the callback"):
        q.run()
    assert q.pending == 0


def test_update_inside_a_callback_is_refused(cave, queries):
    q = la.Queue(cave, capacity=4)
    errors = []

    def nested(outcome):
        try:
            q.update(10)
        except la.AstarError as e:
            errors.append(e)

    q.submit(queries[0].start, queries[0].goal, callback=nested)
    q.run()
    assert errors and errors[0].status == la.Status.INVALID_ARGUMENT


def test_submitting_from_a_callback(cave, queries):
    q = la.Queue(cave, capacity=4, auto_release=True)
    done = []

    def chain(outcome):
        done.append(outcome)
        if len(done) < 3:
            q.submit(queries[len(done)].start, queries[len(done)].goal, callback=chain)

    q.submit(queries[0].start, queries[0].goal, callback=chain)
    q.run()
    assert len(done) == 3


def test_refused_requests(cave, queries):
    q = la.Queue(cave, capacity=4)
    with pytest.raises(la.UnsupportedError, match="finder"):  # JPS+ needs its table: a Finder
        q.submit(queries[0].start, queries[0].goal, algo="jps-plus")
    with pytest.raises(la.UnsupportedError):
        q.submit(queries[0].start, queries[0].goal, heuristic=lambda c, g: 0.0)
    with pytest.raises(la.InvalidArgumentError):
        q.update(0)
    with pytest.raises(TypeError):
        la.Queue("not a grid")


def test_turns_need_reserving(cave, queries):
    q = la.Queue(cave, capacity=4)
    seen = []
    q.submit(queries[0].start, queries[0].goal, turn_penalty=1.0, callback=seen.append)
    q.run()
    assert seen[0].status == la.Status.TURNS_NOT_RESERVED
    q.reserve_turns()
    q.submit(queries[0].start, queries[0].goal, turn_penalty=1.0, callback=seen.append)
    q.run()
    assert seen[1].ok
    assert seen[1].path.cost == pytest.approx(
        cave.find_path(queries[0].start, queries[0].goal, turn_penalty=1.0).cost)
