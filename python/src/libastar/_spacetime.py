"""Many agents without collisions: space-time planning (``astar/spacetime.h``).

Time is counted in integer steps; every move (straight, diagonal) and every
wait takes one step, so a timed path is a (T, 2) array with one cell per
step: ``path[k]`` is the agent's cell at time ``t0 + k`` and two equal rows
are a wait. Two agents conflict when they are in one cell at one time, or
swap cells during one step.

- :class:`Reservations` -- the reservation table: (cell, time) -> agent and
  move reservations, that agents write their timed paths into;
- :func:`find_cooperative` -- cooperative A* (Silver 2005) for one agent
  against a table, full or windowed (WHCA*);
- :func:`plan_cooperative` -- every agent of a list, one after the other
  (cooperative A*) or in rounds of windowed plans (WHCA*);
- :class:`SafeIntervals` -- SIPP (Phillips & Likhachev 2011): moving
  obstacles with known occupancy times, earliest-arrival single-agent paths.

The searches run in C without the GIL. Cells go in through
:func:`libastar._order._point_in` / ``_cells_in`` and paths leave through
``_cells_out`` (the grid's or the call's ``order``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _core, _order

if TYPE_CHECKING:
    from . import Options

TIME_MAX = 1 << 28        # ASTAR_TIME_MAX: the largest time step the library takes
_AGENT_NONE = 0xFFFFFFFF  # ASTAR_AGENT_NONE / ASTAR_HOLD_FOREVER
_RULES = ("moves", "corner", "straight_cost", "diagonal_cost", "max_expansions")
_DEFAULT_STATES = 1 << 20

__all__ = ["Reservations", "SafeIntervals", "SpaceTimeWorkspace", "TimedPath",
           "find_cooperative", "plan_cooperative"]


def _pkg() -> Any:
    """The package (fully imported by the time any call runs)."""
    return sys.modules[__package__ or "libastar"]


def _int(value: Any, what: str, low: int, high: int) -> int:
    return _core.integer(value, what, low, high)


def _options(options: Any, rules: Tuple[Any, ...]) -> Any:
    lib = _pkg()
    given = lib._given(rules, _RULES)
    return lib._options(options, given)


def _grid(grid: Any) -> Any:
    if not isinstance(grid, _core.Grid):
        raise TypeError("grid: a Grid expected")
    return grid


@dataclass
class TimedPath:
    """A space-time search's answer.

    cells     (T, 2) int32 array: the cell at each time step t0, t0 + 1, ...
    t0        the time of ``cells[0]``
    cost      the cost of its moves and waits (SIPP: arrival - t0, in steps)
    estimate  cost + the distance left from the last cell (windowed paths)
    at_goal   the path ends at the goal (a windowed path may end short)
    arrival   the time of the last cell (t0 + T - 1)
    expanded  states the search expanded
    """
    cells: np.ndarray
    t0: int
    cost: float
    estimate: float
    at_goal: bool
    arrival: int
    expanded: int

    def __len__(self) -> int:
        return int(self.cells.shape[0])


def _timed(grid: Any, out: tuple, t0: int, order: Optional[str]) -> TimedPath:
    data, cost, estimate, at_goal, arrival, expanded = out
    cells = np.frombuffer(data, dtype=np.int32).reshape(-1, 2).copy()
    return TimedPath(_order._cells_out(grid, cells, order), t0, cost, estimate, bool(at_goal),
                     int(arrival), int(expanded))


class SpaceTimeWorkspace:
    """Scratch memory of the space-time searches (astar_spacetime_workspace):
    room for ``max_states`` (cell, time) or (cell, interval) states, about 56
    bytes each, allocated once; a search that needs more raises
    CapacityError. One search at a time: one workspace per thread."""

    def __init__(self, max_states: int = _DEFAULT_STATES) -> None:
        self._ws = _core.SpaceTimeWorkspace(_int(max_states, "max_states", 1, 1 << 28))
        self.max_states = int(max_states)

    @property
    def memory(self) -> int:
        """Bytes held."""
        return int(self._ws.memory())


def _workspace(ws: Optional[SpaceTimeWorkspace], grid: Any) -> Any:
    if ws is None:
        cells = int(grid.width) * int(grid.height)
        return _core.SpaceTimeWorkspace(max(4096, min(_DEFAULT_STATES, cells * 64)))
    if not isinstance(ws, SpaceTimeWorkspace):
        raise TypeError("workspace: a SpaceTimeWorkspace expected")
    return ws._ws


class Reservations:
    """A reservation table (astar_reservations): who occupies which cell at
    which time step, and who makes which move. ``capacity``: reservations it
    can hold (1 .. 2^26; one per (cell, time) of a path, one per move, one per
    goal held for ever; about 64 bytes each, allocated once). ``grid``
    (optional) gives the order of the cells (``grid.order``); else (x, y).
    One writer at a time, with no search reading it meanwhile."""

    def __init__(self, capacity: int = 1 << 16, *, grid: Any = None) -> None:
        self._res = _core.Reservations(_int(capacity, "capacity", 1, 1 << 26))
        self._grid = grid

    def reserve(self, agent: int, path: Any, *, t0: int = 0, hold: Optional[int] = 0,
                order: Optional[str] = None) -> None:
        """Write ``agent``'s timed path (cells at t0, t0 + 1, ...; a TimedPath
        or (T, 2) cells), reserving each step's move too, then keep its last
        cell ``hold`` more steps (None: for ever). All or nothing: a cell,
        move or goal another agent holds is InvalidArgumentError, a full table
        CapacityError."""
        a = _int(agent, "agent", 0, _AGENT_NONE - 1)
        if isinstance(path, TimedPath):
            cells = _order._cells_in(self._grid, path.cells, order, "path")
        else:
            cells = _order._cells_in(self._grid, path, order, "path")
        if len(cells) == 0:
            raise _pkg()._error(int(_pkg().Status.INVALID_ARGUMENT), "path: no cells")
        t = _int(t0, "t0", 0, TIME_MAX)
        h = _AGENT_NONE if hold is None else _int(hold, "hold", 0, TIME_MAX)
        self._res.reserve_path(a, cells.tobytes(), t, h)

    def at(self, cell: Any, t: int, *, order: Optional[str] = None) -> Optional[int]:
        """The agent in ``cell`` at time ``t`` (None: free)."""
        x, y = _order._point_in(self._grid, cell, order, "cell")
        a = self._res.at(x, y, _int(t, "t", 0, 0xFFFFFFFF))
        return None if a < 0 else int(a)

    def move(self, source: Any, target: Any, t: int, *,
             order: Optional[str] = None) -> Optional[int]:
        """The agent moving from ``source`` at time ``t`` to the neighbouring
        ``target`` at t + 1 (None: nobody)."""
        fx, fy = _order._point_in(self._grid, source, order, "source")
        tx, ty = _order._point_in(self._grid, target, order, "target")
        a = self._res.move(fx, fy, tx, ty, _int(t, "t", 0, 0xFFFFFFFF))
        return None if a < 0 else int(a)

    def release(self, agent: Optional[int] = None, before: Optional[int] = None) -> None:
        """Drop the reservations of ``agent`` (None: every agent) at times
        before ``before`` (None: all of them, goals held for ever too)."""
        a = _AGENT_NONE if agent is None else _int(agent, "agent", 0, _AGENT_NONE - 1)
        b = _AGENT_NONE if before is None else _int(before, "before", 0, _AGENT_NONE)
        self._res.release(a, b)

    def clear(self) -> None:
        """Forget every reservation (O(1))."""
        self._res.clear()

    def __len__(self) -> int:
        return int(self._res.sizes()[0])

    @property
    def capacity(self) -> int:
        return int(self._res.sizes()[1])

    @property
    def memory(self) -> int:
        """Bytes held."""
        return int(self._res.sizes()[2])


def find_cooperative(grid: Any, start: Any, goal: Any, *,
                     reservations: Optional[Reservations] = None, agent: int = 0, t0: int = 0,
                     window: int = 0, horizon: int = 1024, wait_cost: Optional[float] = None,
                     true_distance: bool = True, workspace: Optional[SpaceTimeWorkspace] = None,
                     order: Optional[str] = None, options: Optional["Options"] = None,
                     moves: Optional[int] = None, corner: Optional[str] = None,
                     straight_cost: Optional[float] = None, diagonal_cost: Optional[float] = None,
                     max_expansions: Optional[int] = None) -> TimedPath:
    """Cooperative A* (astar_coop_find_path): ``agent``'s cheapest timed path
    from ``start`` at time ``t0`` that enters no (cell, time) and makes no
    swap another agent holds in ``reservations`` (None: alone).

    window 0: full search, states up to t0 + ``horizon``; the path ends at the
    goal at a time from which nobody else occupies it (reserve it with
    ``hold=None``). window W: WHCA*, reservations looked at for W steps; the
    path ends at the goal or at t0 + W (``at_goal`` says which).
    Moves cost as in Grid.find_path (straight / diagonal cost times the
    entered cell's terrain); a wait costs ``wait_cost`` (None: straight_cost).
    ``true_distance``: the heuristic is the distance ignoring others (a
    distance field built per call, as WHCA* needs); False: octile / Manhattan.
    Options: moves, corner, straight_cost, diagonal_cost, max_expansions."""
    lib = _pkg()
    rules = tuple(lib._UNSET if v is None else v
                  for v in (moves, corner, straight_cost, diagonal_cost, max_expansions))
    return _coop(lib, _grid(grid), start, goal, reservations, agent, t0, window, horizon,
                 wait_cost, true_distance, _workspace(workspace, grid),
                 _options(options, rules), order)


def _coop(lib: Any, grid: Any, start: Any, goal: Any, reservations: Optional[Reservations],
          agent: int, t0: int, window: int, horizon: int, wait_cost: Optional[float],
          true_distance: bool, ws: Any, opts: Any, order: Optional[str]) -> TimedPath:
    s = _order._point_in(grid, start, order, "start")
    g = _order._point_in(grid, goal, order, "goal")
    if reservations is not None and not isinstance(reservations, Reservations):
        raise TypeError("reservations: a Reservations table or None expected")
    t = _int(t0, "t0", 0, TIME_MAX)
    w = _int(window, "window", 0, TIME_MAX)
    h = _int(horizon, "horizon", 1, TIME_MAX)
    wc = -1.0 if wait_cost is None else lib._real(wait_cost, "wait_cost", 0.0,
                                                   float(_core.OPTION_MAX))
    out = _core.coop_find(ws, grid, opts._tuple,
                          None if reservations is None else reservations._res, s, g,
                          _int(agent, "agent", 0, _AGENT_NONE - 1), t, w, h, wc,
                          bool(true_distance))
    return _timed(grid, out, t, order)


def plan_cooperative(grid: Any, starts: Any, goals: Any, *, window: int = 0,
                     replan: Optional[int] = None, horizon: int = 1024,
                     wait_cost: Optional[float] = None, max_steps: int = 4096,
                     capacity: Optional[int] = None,
                     workspace: Optional[SpaceTimeWorkspace] = None,
                     order: Optional[str] = None, options: Optional["Options"] = None,
                     moves: Optional[int] = None, corner: Optional[str] = None,
                     straight_cost: Optional[float] = None, diagonal_cost: Optional[float] = None,
                     max_expansions: Optional[int] = None) -> List[np.ndarray]:
    """Collision-free timed paths for many agents: agent i from ``starts[i]``
    to ``goals[i]`` (distinct starts, distinct goals). Returns one (T_i, 2)
    array per agent, ``paths[i][k]`` its cell at time k; after its last cell
    an agent stays at its goal. No two agents share a cell at a time or swap.

    window 0: cooperative A* -- agents planned in list order, each against the
    reservations of those before it (its path reserved, its goal held for
    ever); ``horizon`` bounds each search. window W: WHCA* -- in rounds, every
    agent plans W steps ahead against the others' reservations and follows
    ``replan`` steps of it (default W // 2, at least 1), until all stand at
    their goals (``max_steps`` steps at most: else LimitReachedError).
    Priority order is not complete: an agent that finds no path raises the
    search's error, its ``detail`` naming the agent. Deterministic.
    ``capacity``: the reservation table's (None: enough for these plans);
    ``workspace``: a SpaceTimeWorkspace to reuse (None: one for this call).
    Options: as :func:`find_cooperative`."""
    lib = _pkg()
    grid = _grid(grid)
    s = _order._cells_in(grid, starts, order, "starts")
    g = _order._cells_in(grid, goals, order, "goals")
    n = len(s)
    if len(g) != n:
        raise lib._error(int(lib.Status.INVALID_ARGUMENT),
                         f"goals: {len(g)} goals for {n} starts")
    for what, c in (("starts", s), ("goals", g)):
        if len({(int(x), int(y)) for x, y in c}) != n:
            raise lib._error(int(lib.Status.INVALID_ARGUMENT), f"{what}: two agents share a cell")
    rules = tuple(lib._UNSET if v is None else v
                  for v in (moves, corner, straight_cost, diagonal_cost, max_expansions))
    opts = _options(options, rules)
    ws = _workspace(workspace, grid)
    w = _int(window, "window", 0, TIME_MAX)
    steps = _int(max_steps, "max_steps", 1, TIME_MAX)
    # What the plans can reserve: per agent, a cell and a move a step and
    # its goal (full: up to horizon steps; windowed: the current cell twice,
    # W steps and W held at the goal).
    h = _int(horizon, "horizon", 1, TIME_MAX)
    need = n * ((3 * w + 6) if w else (2 * h + 4))
    res = Reservations(min(1 << 26, max(64, need)) if capacity is None else capacity)
    xy = (None, "xy")  # inside: the library's (x, y) cells, no grid order
    if w == 0:
        paths = []
        for i in range(n):
            p = _run(lib, i, grid, s[i], g[i], res, 0, 0, horizon, wait_cost, ws, opts)
            res.reserve(i, p.cells, t0=0, hold=None, order=xy[1])
            paths.append(p.cells)
        return [_order._cells_out(grid, p, order) for p in paths]
    follow = (w // 2 or 1) if replan is None else _int(replan, "replan", 1, w)
    where = [s[i].copy() for i in range(n)]
    trail: List[List[np.ndarray]] = [[s[i][None, :]] for i in range(n)]
    t = 0
    while not all((where[i] == g[i]).all() for i in range(n)):
        if t >= steps:
            raise lib._error(int(lib.Status.LIMIT_REACHED),
                             f"max_steps: the agents are not all at their goals after {t} steps")
        res.clear()
        # Each agent's cell now and at the next step is its own: an agent
        # planned earlier may not step into the cell of one planned later.
        for i in range(n):
            res.reserve(i, np.stack([where[i], where[i]]), t0=t, hold=0, order=xy[1])
        plans = []
        for i in range(n):
            p = _run(lib, i, grid, where[i], g[i], res, t, w, horizon, wait_cost, ws, opts)
            keep = max(0, t + w - p.arrival) if p.at_goal else 0
            res.reserve(i, p.cells, t0=t, hold=keep, order=xy[1])
            plans.append(p.cells)
        for i in range(n):
            c = plans[i]
            # Follow `follow` steps; a plan that stops early stays at its end.
            take = c[1:follow + 1]
            if len(take) < follow:
                take = np.concatenate([take, np.repeat(c[-1:], follow - len(take), axis=0)])
            trail[i].append(take)
            where[i] = take[-1].copy()
        t += follow
    out = []
    for i in range(n):
        c = np.concatenate(trail[i])
        end = len(c)
        while end > 1 and (c[end - 2] == c[-1]).all():
            end -= 1
        out.append(_order._cells_out(grid, np.ascontiguousarray(c[:end]), order))
    return out


def _run(lib: Any, i: int, grid: Any, start: np.ndarray, goal: np.ndarray,
         res: Reservations, t0: int, window: int, horizon: int, wait_cost: Optional[float],
         ws: Any, opts: Any) -> TimedPath:
    try:
        return _coop(lib, grid, (int(start[0]), int(start[1])), (int(goal[0]), int(goal[1])),
                     res, i, t0, window, horizon, wait_cost, True, ws, opts, "xy")
    except lib.AstarError as e:
        raise lib._error(int(e.status), f"agent {i} (from {tuple(int(v) for v in start)} at "
                         f"time {t0} to {tuple(int(v) for v in goal)}): {e.detail or e.message}"
                         ) from e


class SafeIntervals:
    """SIPP (astar_sipp): the safe intervals of ``grid`` given moving
    obstacles, each ``(cell, t_from, t_to)``: it occupies ``cell`` at every
    step t_from .. t_to (t_to None: from t_from on, for ever). Read-only once
    built; searches on several threads need one workspace each."""

    def __init__(self, grid: Any, obstacles: Sequence[Tuple[Any, int, Optional[int]]] = (), *,
                 order: Optional[str] = None) -> None:
        self._grid = _grid(grid)
        rec = np.zeros(len(obstacles), dtype=[("x", "=i4"), ("y", "=i4"), ("f", "=u4"),
                                              ("t", "=u4")])
        for k, ob in enumerate(obstacles):
            if not isinstance(ob, (tuple, list)) or len(ob) != 3:
                raise TypeError(f"obstacles[{k}]: (cell, t_from, t_to) expected")
            x, y = _order._point_in(grid, ob[0], order, f"obstacles[{k}] cell")
            f = _int(ob[1], f"obstacles[{k}] t_from", 0, TIME_MAX)
            t = TIME_MAX if ob[2] is None else _int(ob[2], f"obstacles[{k}] t_to", f, TIME_MAX)
            rec[k] = (x, y, f, t)
        self._sipp = _core.Sipp(grid, rec.tobytes())

    @staticmethod
    def occupancies(path: Any, *, t0: int = 0, hold: Optional[int] = 0) -> List[tuple]:
        """The obstacles of a timed path (a TimedPath or (T, 2) cells in the
        grid's order): one per step, its last cell kept ``hold`` more steps
        (None: for ever)."""
        cells = path.cells if isinstance(path, TimedPath) else np.asarray(path)
        out: List[tuple] = [((int(c[0]), int(c[1])), t0 + k, t0 + k)
                            for k, c in enumerate(cells[:-1])]
        last = cells[-1]
        end = None if hold is None else t0 + len(cells) - 1 + int(hold)
        out.append(((int(last[0]), int(last[1])), t0 + len(cells) - 1, end))
        return out

    @property
    def intervals(self) -> int:
        return int(self._sipp.sizes()[0])

    @property
    def memory(self) -> int:
        return int(self._sipp.sizes()[1])

    def find_path(self, start: Any, goal: Any, *, t0: int = 0, hold_goal: bool = True,
                  workspace: Optional[SpaceTimeWorkspace] = None, order: Optional[str] = None,
                  options: Optional["Options"] = None, moves: Optional[int] = None,
                  corner: Optional[str] = None, max_expansions: Optional[int] = None) -> TimedPath:
        """The earliest-arriving timed path from ``start`` at ``t0`` to
        ``goal`` that never shares a (cell, time) with an obstacle
        (astar_sipp_find_path); every move and wait takes one step, whatever
        its cost. ``hold_goal``: the path ends in the goal's last safe
        interval (the agent can stay). ``cost`` is arrival - t0, in steps.
        A swap with an obstacle is not detected (obstacles are occupancies)."""
        lib = _pkg()
        rules = tuple(lib._UNSET if v is None else v
                      for v in (moves, corner, None, None, max_expansions))
        opts = _options(options, rules)
        s = _order._point_in(self._grid, start, order, "start")
        g = _order._point_in(self._grid, goal, order, "goal")
        t = _int(t0, "t0", 0, TIME_MAX)
        out = _core.sipp_find(_workspace(workspace, self._grid), self._sipp, self._grid,
                              opts._tuple, s, g, t, _core.flag(hold_goal, "hold_goal"))
        return _timed(self._grid, out, t, order)
