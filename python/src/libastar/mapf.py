"""Many agents, no collisions: multi-agent pathfinding (``astar/mapf.h``).

The model is the Moving AI MAPF benchmark's: a 4-connected grid (terrain
costs and diagonal moves do not apply), integer time steps; at every step
each agent waits or moves to a neighbour; two agents may not be in one cell
at one time (vertex conflict) nor swap cells during one step (swap
conflict); an agent that has arrived stays at its goal for ever. An agent's
cost is its arrival time; the sum of costs (SOC) and the makespan measure a
solution, the lower bound is the sum of the agents' single-agent distances.

    >>> import libastar
    >>> from libastar import mapf
    >>> grid = libastar.Grid.from_ascii("....\\n.##.\\n....\\n")
    >>> p = mapf.Problem(grid, starts=[(0, 0), (3, 0)], goals=[(3, 0), (0, 0)])
    >>> s = mapf.solve(p, algo="lacam-star")
    >>> s.solved, s.optimal, s.sum_of_costs, mapf.check(p, s).valid
    (True, True, 10, True)

- :class:`Problem` -- a map and N (start, goal) pairs: from a grid or map
  text, from a Moving AI ``.map`` + ``.scen`` (:meth:`Problem.from_movingai`)
  or generated (:meth:`Problem.random`, the benchmark's random-scenario rule,
  seeded);
- :func:`solve` -- any algorithm of :func:`algorithms` (the library's table:
  PIBT, LaCAM, LaCAM*, CBS, EECBS, prioritised planning) with time and work
  limits; a :class:`Solution`;
- :func:`check` -- the library's validator: a :class:`Report` of the first
  fault of any solution (yours too), or its figures.

The solvers run in C without the GIL (``on_improve`` takes it back for each
improvement). Cells are (x, y), or (row, col) on a grid made with
``order='rc'`` (and with a call's ``order=``), like the rest of the package.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _core, _order

__all__ = ["AlgorithmInfo", "FAULTS", "MAX_AGENTS", "Problem", "Report", "Solution", "Stats",
           "algorithms", "check", "release_memory", "solve", "solver_memory"]

Point = Tuple[int, int]

#: The most agents a problem may have (ASTAR_MAPF_MAX_AGENTS).
MAX_AGENTS: int = _core.MAPF_MAX_AGENTS
#: The validator's fault kinds (:attr:`Report.fault`), by their
#: astar_mapf_fault value: the enum's names (ASTAR_MAPF_VERTEX_CONFLICT ->
#: 'vertex_conflict'); ``FAULTS[0]`` is a valid solution's.
FAULTS: Tuple[str, ...] = ("valid", "agent_count", "empty_path", "wrong_start", "wrong_goal",
                           "off_map", "illegal_move", "vertex_conflict", "swap_conflict",
                           "goal_conflict")
# The library's phrase for each (astar_mapf_fault_name): Report.message.
_FAULT_TEXT: Tuple[str, ...] = _core.mapf_faults()
assert len(_FAULT_TEXT) == len(FAULTS), "astar_mapf_fault changed: name its kinds in FAULTS"

_FLAGS = {"optimal": 1, "bounded": 2, "complete": 4, "anytime": 8}
_U32 = 2**32 - 1
_U64 = 2**64 - 1


def _pkg() -> Any:
    """The package (fully imported by the time any call runs)."""
    return sys.modules[(__package__ or "libastar")]


class AlgorithmInfo(NamedTuple):
    """One row of the library's MAPF algorithm table (``astar_mapf_algo_info``)."""
    name: str       #: what ``algo=`` takes ('pibt', 'lacam', 'lacam-star', 'cbs', ...)
    summary: str    #: one line
    optimal: bool   #: a solution it reports optimal has the least sum of costs
    bounded: bool   #: sum of costs <= w x optimal
    complete: bool  #: given time, finds a solution when one exists, proves none otherwise
    anytime: bool   #: improves its solution until the limits run out
    id: int         #: the astar_mapf_algo value


_TABLE = tuple(AlgorithmInfo(name, summary, bool(flags & _FLAGS["optimal"]),
                             bool(flags & _FLAGS["bounded"]), bool(flags & _FLAGS["complete"]),
                             bool(flags & _FLAGS["anytime"]), i)
               for i, name, summary, flags in _core.mapf_algorithms())


def algorithms() -> Tuple[AlgorithmInfo, ...]:
    """Every MAPF algorithm of the library, from its table
    (``astar_mapf_algo_info_get``), in ``astar_mapf_algo`` order."""
    return _TABLE


def _cells_bytes(grid: Any, cells: Any, order: Optional[str], what: str) -> bytes:
    return _order._cells_in(grid, cells, order, what).tobytes()


def _out(grid: Any, data: bytes, order: Optional[str]) -> List[Point]:
    a = np.frombuffer(data, dtype=np.int32).reshape(-1, 2)
    a = _order._cells_out(grid, a, order)
    return [(int(x), int(y)) for x, y in a.tolist()]


class Problem:
    """A MAPF instance: the passable cells of a map and N agents' starts and
    goals (``astar_mapf_problem``; the map is copied -- editing the grid
    afterwards does not change the problem).

    ``grid``: a :class:`libastar.Grid`, or a map as text or a path (Moving AI
    ``.map`` or ASCII, what ``Grid.load`` reads). ``starts``, ``goals``: N
    cells each (N in 1 .. MAX_AGENTS), starts pairwise distinct, goals
    pairwise distinct, all on passable cells; the error names the agent
    (``e.agent``). ``order``: 'xy' or 'rc' for the cells given and returned
    (default: the grid's).
    """

    def __init__(self, grid: Any, starts: Any, goals: Any, *,
                 order: Optional[str] = None) -> None:
        lib = _pkg()
        if not isinstance(grid, lib.Grid):
            if not isinstance(grid, (str, bytes, bytearray, memoryview, os.PathLike)):
                raise TypeError(f"grid: a libastar.Grid, or map text or a path, expected, got "
                                f"{type(grid).__name__}")
            grid = lib.Grid.load(grid)
        self._grid = grid
        self._order = _order._check(order) if order is not None else _order._order_of(grid)
        s = _cells_bytes(grid, starts, self._order, "starts")
        g = _cells_bytes(grid, goals, self._order, "goals")
        self._p = _core.MapfProblem(grid, s, g)
        self._lower_bound: Optional[int] = None

    @classmethod
    def random(cls, grid: Any, n: int, seed: int = 0, *,
               order: Optional[str] = None) -> "Problem":
        """A generated instance of ``n`` agents by the benchmark's random-
        scenario rule (``astar_mapf_random_instance``): starts drawn
        uniformly without repetition from the largest 4-connected region of
        the map, goals likewise, independently; the same (map, n, seed) gives
        the same instance on every platform. TooLargeError when the region
        has fewer than ``n`` cells."""
        lib = _pkg()
        if not isinstance(grid, lib.Grid):
            grid = lib.Grid.load(grid)
        s, g = _core.mapf_random(grid, n, seed)
        o = _order._check(order) if order is not None else _order._order_of(grid)
        starts = _out(grid, s, o)
        goals = _out(grid, g, o)
        return cls(grid, starts, goals, order=o)

    @classmethod
    def from_movingai(cls, map_source: Any, scen_source: Any, agents: int, *,
                      order: Optional[str] = None) -> "Problem":
        """The benchmark's instance: a Moving AI ``.map`` and the first
        ``agents`` queries of a ``.scen`` (paths or their text). The
        scenario's map size must be the map's."""
        lib = _pkg()
        grid = map_source if isinstance(map_source, lib.Grid) else lib.Grid.from_movingai(
            map_source)
        scen = lib.load_scen(scen_source)
        n = _core.integer(agents, "agents", 1, MAX_AGENTS)
        if n > len(scen):
            raise lib.InvalidArgumentError(
                lib.Status.INVALID_ARGUMENT,
                f"agents: {n} agents asked, the scenario has {len(scen)} queries")
        rows = scen[:n]
        for q in rows:
            if (q.map_width, q.map_height) != (grid.width, grid.height):
                raise lib.InvalidArgumentError(
                    lib.Status.INVALID_ARGUMENT,
                    f"scen_source: line {q.line} is for a {q.map_width} x {q.map_height} map, "
                    f"the map is {grid.width} x {grid.height}")
        # The scenario's cells are (x, y) whatever the order in force.
        p = cls(grid, [q.start for q in rows], [q.goal for q in rows], order="xy")
        p._order = _order._check(order) if order is not None else _order._order_of(grid)
        return p

    @property
    def grid(self) -> Any:
        """The grid it was made from (the problem holds its own copy of the map)."""
        return self._grid

    @property
    def agents(self) -> int:
        """The number of agents."""
        return int(self._p.agents)

    def __len__(self) -> int:
        return self.agents

    @property
    def width(self) -> int:
        return int(self._p.width)

    @property
    def height(self) -> int:
        return int(self._p.height)

    @property
    def order(self) -> str:
        """'xy' or 'rc': the order of the cells it takes and gives."""
        return self._order

    @property
    def starts(self) -> List[Point]:
        return _out(self._grid, self._p.ends()[0], self._order)

    @property
    def goals(self) -> List[Point]:
        return _out(self._grid, self._p.ends()[1], self._order)

    @property
    def memory(self) -> int:
        """Bytes the problem holds."""
        return int(self._p.memory)

    @property
    def lower_bound(self) -> int:
        """The sum of the agents' single-agent 4-connected distances
        (``astar_mapf_lower_bound``); NoPathError (``e.agent``) when an
        agent cannot reach its goal."""
        if self._lower_bound is None:
            self._lower_bound = int(self._p.lower_bound())
        return self._lower_bound

    def passable(self, cell: Any) -> bool:
        """Whether ``cell`` is on the problem's map and passable."""
        x, y = _order._point_in(self._grid, cell, self._order, "cell")
        return bool(self._p.passable(x, y))

    def __repr__(self) -> str:
        return f"<mapf.Problem {self.agents} agents on {self.width} x {self.height}>"


class Stats(NamedTuple):
    """A solve's statistics (``astar_mapf_stats``)."""
    bound: float         #: proven: optimal SOC >= bound
    time_first: float    #: seconds to the first solution (-1: none)
    time_total: float    #: seconds spent in the solve
    improvements: int    #: solutions found (anytime: 1 + improvements)
    high_level: int      #: high-level nodes / configurations generated
    low_level: int       #: low-level expansions (PIBT: agent-steps)
    peak_memory: int     #: most bytes of scratch held


@dataclass
class Solution:
    """What :func:`solve` found.

    paths         one list of cells per agent: its cell at t = 0, 1, ... up
                  to its arrival (empty lists when not solved)
    solved        a valid solution is in ``paths``
    optimal       ... proven optimal in sum of costs
    status        Status.OK, or why not solved: NO_PATH (proven unsolvable),
                  LIMIT_REACHED (time, work, memory or steps ran out first)
    sum_of_costs, makespan, lower_bound   the figures (0 when not solved)
    algo          the algorithm's name
    stats         :class:`Stats`
    improvements  (sum_of_costs, seconds) of each solution found, in order
    """
    paths: List[List[Point]]
    solved: bool
    optimal: bool
    status: Any
    sum_of_costs: int
    makespan: int
    lower_bound: int
    algo: str
    stats: Stats
    improvements: List[Tuple[int, float]] = field(default_factory=list)

    @property
    def costs(self) -> List[int]:
        """Each agent's cost: its arrival time (the last change of cell)."""
        out = []
        for p in self.paths:
            t = len(p) - 1
            while t > 0 and p[t - 1] == p[-1]:
                t -= 1
            out.append(max(t, 0))
        return out

    def __bool__(self) -> bool:
        return self.solved


class Report(NamedTuple):
    """The validator's verdict (``astar_mapf_report``): the first fault in
    time order (ties: the smaller agent), or ``valid`` with the figures."""
    valid: bool
    fault: str              #: its kind, one of FAULTS: 'valid', 'vertex_conflict', 'swap_conflict', ...
    message: str            #: the library's phrase for it ('vertex conflict', ...)
    agent: Optional[int]    #: the agent at fault (a conflict: the earlier-numbered one)
    other: Optional[int]    #: a conflict's other (later-numbered) agent
    time: Optional[int]     #: the time step of the fault (a swap: the step's end)
    cell: Optional[Point]   #: the cell of the fault
    sum_of_costs: int
    makespan: int


# One solver (its scratch) per thread, kept for the next solve.
_local = threading.local()


def _solver() -> Any:
    s = getattr(_local, "solver", None)
    if s is None:
        s = _local.solver = _core.MapfSolver()
    return s


def solver_memory() -> int:
    """Bytes the calling thread's solver holds (``astar_mapf_solver_memory``):
    :func:`solve` keeps one solver per thread, whose scratch grows to the
    largest problem it solved."""
    s = getattr(_local, "solver", None)
    return int(s.memory) if s is not None else 0


def release_memory() -> int:
    """Free the calling thread's solver (the next :func:`solve` makes a new
    one); returns the bytes freed."""
    freed = solver_memory()
    _local.solver = None
    return freed


def solve(problem: Problem, algo: Union[str, AlgorithmInfo] = "lacam-star", *, w: float = 1.2,
          time_limit: float = 0.0, max_work: int = 0, max_memory: int = 0, seed: int = 0,
          max_steps: int = 0, window: int = 0,
          on_improve: Optional[Callable[[int, float], Any]] = None) -> Solution:
    """Solve ``problem`` with ``algo`` (a name of :func:`algorithms`, or its row).

    w           eecbs: the suboptimality bound, in [1, 1000]
    time_limit  seconds, in [0, 1e6]; 0: none (a time limit makes the result
                depend on the machine; ``max_work`` does not)
    max_work    the deterministic limit: high-level nodes plus low-level
                expansions (PIBT: agent-steps); 0: none
    max_memory  bytes of scratch the solver may hold; 0: none
    seed        randomised tie-breaking (pibt, lacam, lacam-star) and orders
                (prioritized)
    max_steps   pibt: most time steps; prioritized: the horizon; 0: automatic;
                in [0, 2^28]
    window      prioritized: 0 full cooperative A*, W >= 1 windowed (WHCA*: plans
                W steps ahead, follows W / 2 of them, plans again); in [0, 2^28]
    on_improve  on_improve(sum_of_costs, seconds), called for each solution an
                anytime solver finds (lacam-star); an exception it raises is
                raised when the solve returns

    Returns a :class:`Solution`; not solved (``solved`` False, ``status``
    NO_PATH or LIMIT_REACHED) is an answer, not an error. Errors: a bad
    argument (TypeError, InvalidArgumentError naming it), UnsupportedError
    (the algorithm cannot take this problem), NoMemoryError.
    """
    lib = _pkg()
    if not isinstance(problem, Problem):
        raise TypeError(f"problem: a mapf.Problem expected, got {type(problem).__name__}")
    name = algo.name if isinstance(algo, AlgorithmInfo) else algo
    status, paths, st, improvements = _core.mapf_solve(
        _solver(), problem._p, name, w, time_limit, max_work, max_memory, seed, max_steps, window,
        on_improve)
    solved, optimal, soc, makespan, lb, bound, t_first, t_total, n_impr, hl, ll, peak = st
    out = [_out(problem._grid, p, problem._order) for p in paths]
    return Solution(out, bool(solved), bool(optimal), lib.Status(status), int(soc), int(makespan),
                    int(lb), str(name),
                    Stats(float(bound), float(t_first), float(t_total), int(n_impr), int(hl),
                          int(ll), int(peak)),
                    [(int(c), float(t)) for c, t in improvements])


def check(problem: Problem, solution: Any) -> Report:
    """Check a solution against ``problem`` with the library's validator
    (``astar_mapf_check``): agent count, starts, goals, cells on the map,
    legal moves (a wait or a 4-neighbour step), no vertex, swap or goal-
    holding conflict at any time. ``solution``: a :class:`Solution` or one
    sequence of cells per agent (lists of pairs, (T, 2) arrays)."""
    if not isinstance(problem, Problem):
        raise TypeError(f"problem: a mapf.Problem expected, got {type(problem).__name__}")
    paths = solution.paths if isinstance(solution, Solution) else solution
    if isinstance(paths, (str, bytes)) or not hasattr(paths, "__len__"):
        raise TypeError(f"solution: a Solution or a sequence of paths expected, got "
                        f"{type(paths).__name__}")
    data = [_cells_bytes(problem._grid, p, problem._order, f"solution[{i}]")
            for i, p in enumerate(paths)]
    fault, agent, other, t, x, y, soc, makespan = _core.mapf_check(problem._p, data)
    none = fault == 0
    cell: Optional[Point] = None
    if (x, y) != (-1, -1) and not none:
        cell = (x, y) if problem._order == "xy" else (y, x)
    return Report(none, FAULTS[fault], _FAULT_TEXT[fault], None if agent < 0 else int(agent),
                  None if other < 0 else int(other), None if none else int(t), cell, int(soc),
                  int(makespan))
