"""libastar -- A* pathfinding on grids and graphs, with NumPy grids.

The Python face of the libastar C library (the C extension ``libastar._core``
is compiled from the library's own sources). Searches run in C without the
GIL, so Python threads searching at once run in parallel.

    >>> import numpy as np, libastar
    >>> walls = np.zeros((8, 16), dtype=bool)      # rows, columns: arr[y, x]
    >>> walls[:7, 8] = True
    >>> grid = libastar.Grid.from_numpy(~walls)     # True = passable
    >>> path = grid.find_path((0, 0), (15, 0))
    >>> path.cells[:3].tolist(), round(path.cost, 3), path.expanded
    ([[0, 0], [1, 1], [2, 2]], 21.385, 60)

Cells are ``(x, y)``: x the column, y the row, (0, 0) the top left -- so a
NumPy array ``arr`` of the grid is indexed ``arr[y, x]``. Coordinates, like
every integer argument (sizes, counts, limits, indices), are integers
(Python's or NumPy's; str, float and bool raise TypeError naming the
argument); a cell outside the grid is outside however far (a search raises
OutOfBoundsError for (2**40, 0) as for (-1, 0)), and any other integer
outside its range raises an error naming the argument and the range
(InvalidArgumentError; OutOfBoundsError for an index). Real-number
arguments (costs, weights, factors) take Python's or NumPy's ints and
floats (str, bool, complex, None raise TypeError) within the library's
range for them (NaN, inf and values outside raise InvalidArgumentError
naming the argument and the range); yes-or-no arguments (``passable``,
``partial``, ...) take True or False, NumPy's bools, 1 or 0, and nothing
else -- "no" is not True.
"""

from __future__ import annotations

import enum
import math
import operator
import os
import re
import threading
from typing import (TYPE_CHECKING, Any, Callable, Dict, Hashable, Iterable, Iterator, List,
                    Literal, NamedTuple, Optional, Sequence, Tuple, Type, TypeVar, Union,
                    overload)

import numpy as np

from . import _core
from . import _arrays
from ._arrays import AmbiguousArrayWarning
from ._order import RC, XY, _cells_in, _cells_out, _order_of, _path_out, _point_in
from ._order import _check as _check_order

__all__ = [
    "AstarError", "CapacityError", "Clearance", "Cpd", "Event", "ExpiredError", "Finder",
    "Frame", "GoalBlockedError", "GraphPath", "Grid", "HexGrid", "Hpa", "InvalidArgumentError",
    "JpsPlus", "Landmarks", "LimitReachedError", "MethodInfo", "MismatchError", "NoMemoryError",
    "NoPathError", "Options", "Outcome", "OutOfBoundsError", "ParseError", "Path", "Queue",
    "QueueFullError", "ScenQuery", "Scenario", "Search", "StaleError", "StartBlockedError",
    "Status", "StoppedError", "Subgoal", "TooLargeError", "UnsupportedError", "Waypoints",
    "Workspace",
    "find_graph_path", "load_scen", "methods", "strerror", "__version__",
    "release_memory", "thread_workspace", "AmbiguousArrayWarning", "XY", "RC",
]

__version__ = _core.version()

Point = Tuple[int, int]
#: What a cell argument takes: a pair of integers -- a tuple, a list, an
#: XY / RC point, a NumPy row such as ``path.cells[0]``.
CellLike = Union[Sequence[int], np.ndarray]
#: What a start or goal of a :class:`Finder` takes: a cell (CellLike) on a
#: grid or a hex grid, a node on a :class:`Graph` or a :class:`CallbackSpace`
#: (its id, an int, or its name for a named graph: any hashable).
NodeLike = Union[CellLike, int, Hashable]


class _Unset:
    """The default of an option keyword a call did not give: the default of
    :class:`Options`, or the value in ``options=``."""

    def __repr__(self) -> str:
        return "<default>"

    # Equal to itself only, whatever the other side is: _given compares a
    # tuple of _UNSET with the values a call gave, which may be anything (a
    # NumPy array's == would answer with an array).
    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


_UNSET: Any = _Unset()
#: A heuristic: a name ('auto', 'octile', ...) or h(cell, goal) -> float.
Heuristic = Union[str, Callable[[Point, Point], float]]

# ---- statuses and exceptions -------------------------------------------------------

#: The library's statuses (``astar_status``): ``Status.NO_PATH.value`` is the C
#: code, ``Status.NO_PATH.name`` its name.
if TYPE_CHECKING:
    # What a type checker sees: the members of _core.STATUS_NAMES, written
    # out (test_typing.py checks they agree).
    class Status(enum.IntEnum):
        OK = 0
        NO_PATH = 1
        LIMIT_REACHED = 2
        START_BLOCKED = 3
        GOAL_BLOCKED = 4
        BUFFER_TOO_SMALL = 5
        OUT_OF_BOUNDS = 6
        INVALID_ARGUMENT = 7
        TOO_LARGE = 8
        NO_MEMORY = 9
        PARSE_ERROR = 10
        UNSUPPORTED = 11
        CAPACITY = 12
        IN_PROGRESS = 13
        PARTIAL = 14
        STOPPED = 15
        STALE = 16
        TURNS_NOT_RESERVED = 17
        QUEUE_FULL = 18
        MISMATCH = 19
        EXPIRED = 20
else:
    Status = enum.IntEnum("Status",
                          [(name, code) for code, name in enumerate(_core.STATUS_NAMES)])
    Status.__doc__ = "The C library's astar_status codes, by name."
    Status.__module__ = __name__


def strerror(status: int) -> str:
    """The library's sentence for a status (``astar_strerror``): a
    :class:`Status` or its code."""
    return _core.strerror(status)


class AstarError(Exception):
    """A libastar failure. Attributes:

    status   the :class:`Status` (``e.status.name``, ``e.status.value``);
    message  the library's sentence for it (``astar_strerror``), or the
             package's where that one does not fit (a graph search's
             CapacityError: its table of nodes, not a grid's workspace);
    detail   what exactly, when known (the unsupported option, the parse
             error, ...), else None;
    path     for a search, the :class:`Path` with its statistics (no cells).
    """

    def __init__(self, status: int, detail: Optional[str] = None, path: Optional["Path"] = None,
                 **info: Any):
        self.status = Status(status)
        self.code = self.status.value
        self.message = strerror(self.status)
        self.detail = detail
        self.path = path
        for key, value in info.items():
            setattr(self, key, value)
        super().__init__(self._text())

    def _text(self) -> str:
        return f"{self.message}: {self.detail}" if self.detail else self.message


class NoPathError(AstarError):
    """The goal cannot be reached from the start (``ASTAR_NO_PATH``)."""


class LimitReachedError(AstarError):
    """``max_expansions`` ran out before the goal was reached."""


class StoppedError(AstarError):
    """The search was stopped."""


class StartBlockedError(AstarError, ValueError):
    """The start cell is blocked."""


class GoalBlockedError(AstarError, ValueError):
    """The goal cell is blocked."""


class OutOfBoundsError(AstarError, IndexError):
    """A cell lies outside the grid."""


class InvalidArgumentError(AstarError, ValueError):
    """A bad argument or option value."""


class TooLargeError(AstarError, ValueError):
    """Dimensions beyond the library's limits."""


class NoMemoryError(AstarError, MemoryError):
    """The allocator failed."""


class ParseError(AstarError, ValueError):
    """Malformed map or scenario text; ``line`` and ``column`` (1-based, 0 when
    not tied to a place) and ``filename`` (None for text) say where."""

    line = 0
    column = 0
    filename: Optional[str] = None

    def _text(self) -> str:
        where = self.filename or "<text>"
        if self.line:
            where += f":{self.line}:{self.column}"
        return f"{where}: {self.detail or self.message}"


class UnsupportedError(AstarError):
    """The algorithm cannot honour these options or this map; ``detail`` says why."""


class CapacityError(AstarError):
    """The workspace (or the graph search's state table) is too small."""


class StaleError(AstarError):
    """The grid changed since the object was built."""


class MismatchError(AstarError, ValueError):
    """The object was built for another grid."""


class QueueFullError(AstarError):
    """The request queue has no free entry: release finished requests."""


class ExpiredError(AstarError):
    """The queue no longer holds that result."""


_ERRORS = {
    Status.NO_PATH: NoPathError, Status.LIMIT_REACHED: LimitReachedError,
    Status.STOPPED: StoppedError, Status.START_BLOCKED: StartBlockedError,
    Status.GOAL_BLOCKED: GoalBlockedError, Status.OUT_OF_BOUNDS: OutOfBoundsError,
    Status.INVALID_ARGUMENT: InvalidArgumentError, Status.TOO_LARGE: TooLargeError,
    Status.NO_MEMORY: NoMemoryError, Status.PARSE_ERROR: ParseError,
    Status.UNSUPPORTED: UnsupportedError, Status.CAPACITY: CapacityError,
    Status.STALE: StaleError, Status.MISMATCH: MismatchError,
    Status.QUEUE_FULL: QueueFullError, Status.EXPIRED: ExpiredError,
}


def _error(code: int, detail: Optional[str] = None, info: Optional[dict] = None,
           path: Optional["Path"] = None) -> AstarError:
    cls = _ERRORS.get(Status(code), AstarError)
    return cls(code, detail, path, **(info or {}))


_core.set_error_factory(_error)

# ---- options -------------------------------------------------------------------------

# The engine's variants (astar/engine.h): on a grid they always run on the
# engine (the grid as a space), like greedy and bidir.
_VARIANTS = {"ida": 8, "beam": 9, "dynamic": 10, "bandwidth": 11, "f2f": 12, "retarget": 13}
_ALGOS = {"astar": 0, "jps": 1, "jps-plus": 2, "dijkstra": 3, "greedy": 4, "bidir": 5,
          **_VARIANTS}
_ALGO_ALIASES = {"a*": "astar", "jpsplus": "jps-plus", "jps+": "jps-plus",
                 "bidirectional": "bidir", "ida*": "ida", "front-to-front": "f2f",
                 "retargeting": "retarget", "theta*": "theta", "lazy-theta*": "lazy-theta",
                 "lazytheta": "lazy-theta", "hpa*": "hpa"}
# Every method of the library's table (astar_method_info_of), by its name:
# what algo= (and Finder's method) takes.
_ALL_ALGOS = {name: mid for mid, name, *_ in _core.methods()}
_GRAPH_ALGOS = {"astar": 6, "dijkstra": 7, "greedy": 4, "bidir": 5, **_VARIANTS}
_CORNERS = {"no-cut": 0, "always": 1, "one-side": 2, "never": 3}
_HEURISTICS = {"auto": 0, "octile": 1, "manhattan": 2, "chebyshev": 3, "euclidean": 4, "zero": 5}
_TIES = {"larger-g": 0, "newest": 1, "cross": 2}
_REOPEN = {"auto": 0, "always": 1, "never": 2}
_OPEN_SETS = {"auto": 0, "heap4": 1, "heap2": 2, "bucket": 3}
# astar_method: the searches of the engine (hex grids, waypoints, graphs).
_METHODS = {"astar": 0, "dijkstra": 1, "greedy": 2, "bidir": 3, "ida": 4, "beam": 5,
            "dynamic": 6, "bandwidth": 7, "f2f": 8, "retarget": 9}
_VARIANT_DEFAULTS = {"beam_width": 1024, "epsilon": 1.0, "band_e": 0.0, "band_d": 0.0,
                     "retarget_interval": 32, "ida_transpositions": True}


def _choice(what: str, value: str, table: dict, aliases: Optional[dict] = None) -> str:
    key = str(value).lower().replace("_", "-")
    if aliases:
        key = aliases.get(key, key)
    if key not in table:
        raise InvalidArgumentError(
            Status.INVALID_ARGUMENT, f"{what}: expected one of {'|'.join(table)}, got {value!r}")
    return key


# The one converter of real-number arguments (costs, weights, factors,
# penalties, the variants' settings), the rule of _core.c's real_arg, which
# the C methods taking them (set_terrain, Waypoints) and the callbacks'
# values (heuristics, arc costs) use too: _real(value, what, low, high,
# low_open=False) -> float. Python ints and floats and NumPy integer and
# floating scalars only -- not bools, str, complex, None -- else TypeError
# naming `what` (float() read "2" as 2.0 and True as 1.0); NaN, the
# infinities and values outside [low, high] ((low, high] when low_open;
# high inf: any finite value) InvalidArgumentError naming `what` and the
# range. The ranges are the library's own (astar/search.h, astar/engine.h).
_real = _core.real
_OPTION_MAX = _core.OPTION_MAX  # ASTAR_OPTION_MAX: the largest cost, weight, penalty, floor

# The one converter of yes-or-no arguments, the rule of _core.c's flag_arg
# (Grid.set_passable and fill use it too): _flag(value, what) -> bool.
# True or False (a bool or a NumPy bool) or the integers 1 and 0 -- any
# other integer InvalidArgumentError, anything else (a str, None, a float,
# a list) TypeError naming `what` (bool() read "no" and [0] as True).
_flag = _core.flag


# The one converter of integer arguments other than cells (counts, limits,
# budgets, sizes, indices), the rule of _core.c's range_arg, which the C
# methods taking integers use too: _integer(value, what, low, high) -> int.
# Python ints and NumPy integers only, not bools -- else TypeError naming
# `what` (int() read "100" as 100 and 2.5 as 2); outside [low, high]
# InvalidArgumentError naming `what` and the range (not OverflowError, and
# not wrapped modulo 2^64 on the way to C).
_integer = _core.integer
_U32 = 2**32 - 1   # uint32_t settings
_U64 = 2**64 - 1   # uint64_t limits


def _count(what: str, value: Any) -> int:
    """An integer in [1, 2^32 - 1] (a C uint32_t setting)."""
    return _integer(value, what, 1, _U32)


def _variant(beam_width: int = 1024, epsilon: float = 1.0, band_e: float = 0.0,
             band_d: float = 0.0, retarget_interval: int = 32,
             ida_transpositions: bool = True) -> tuple:
    """The settings of the engine's variants, checked, as _core takes them:
    beam_width (beam: most open nodes), epsilon (dynamic: weight 1 + epsilon
    at the start), band_e / band_d (bandwidth: how much the heuristic may
    over- / underestimate), retarget_interval (retarget: expansions a leg),
    ida_transpositions (ida: cut nodes met again with no lower g)."""
    return (_count("beam_width", beam_width), _real(epsilon, "epsilon", 0.0, math.inf),
            _real(band_e, "band_e", 0.0, math.inf), _real(band_d, "band_d", 0.0, math.inf),
            _count("retarget_interval", retarget_interval),
            _flag(ida_transpositions, "ida_transpositions"))


class Event(NamedTuple):
    """One event of a search, as ``observer`` receives it (see astar/search.h)."""
    type: str          #: 'push', 'expand', 'improve', 'reopen', 'goal' or 'scan'
    cell: Point        #: the node's cell
    parent: Point      #: its parent's cell, (-1, -1) for the start
    g: float           #: cost from the start
    h: float           #: heuristic (as weighted)
    f: float           #: g + h
    expanded: int      #: expansions so far
    direction: int     #: turn-penalty searches: arrival direction 0..8, else -1


class Options:
    """Search options for :meth:`Grid.find_path` (all keyword arguments; the
    defaults are the Moving AI rules). Build one once and pass it as
    ``options=`` to save the checking in tight loops.

    algo            'astar' (default), 'jps', 'jps-plus', 'dijkstra', 'greedy', 'bidir',
                    or the engine's variants 'ida', 'beam', 'dynamic', 'bandwidth',
                    'f2f' (front-to-front), 'retarget' (astar/engine.h: each one's
                    bound on the cost)
    space           'grid' (the grid's own loops) or 'graph' (the search engine on
                    the grid as a space; greedy, bidir and the variants always run
                    there)
    moves           8 or 4
    corner          'no-cut' (Moving AI), 'always', 'one-side', 'never'
    straight_cost, diagonal_cost   1 and sqrt(2); any pair in (0, 1e9]
    heuristic       'auto' (octile, Manhattan with 4 moves), 'octile', 'manhattan',
                    'chebyshev', 'euclidean', 'zero', or a callable
                    ``h(cell, goal) -> float`` (keeps the GIL: slower) returning a
                    finite number >= 0 (else ValueError, where it is returned)
    weight          1, in [0, 1e9]; > 1 is weighted A* (cost <= weight x optimal)
    tie             'larger-g', 'newest', 'cross'
    reopen          'auto', 'always', 'never'
    max_expansions  0 = no limit
    open_set        'auto', 'heap4', 'heap2', 'bucket' (same paths, other speed)
    partial         False; True returns the path to the best node reached
                    (status PARTIAL) instead of raising NoPathError / LimitReachedError
    terrain_scale   1; alpha in [0, 1]: terrain t counts as 1 + alpha (t - 1)
    turn_penalty    0, in [0, 1e9]; added at every change of direction
    heuristic_floor 0, in [0, 1e9]; see "Costs and optimality" in astar/search.h
    observer        None, or a callable receiving every :class:`Event` (keeps the GIL)
    beam_width      1024; beam: the most nodes the open list holds
    epsilon         1, finite, >= 0; dynamic: the weight falls from 1 + epsilon to 1
                    at the goal
    band_e, band_d  0, 0, finite, >= 0; bandwidth: how much the heuristic may over-
                    and underestimate (cost <= optimal + band_e)
    retarget_interval  32; retarget: expansions a leg
    ida_transpositions True; ida: cut nodes met again in an iteration with no lower g
    """

    _FIELDS = ("algo", "space", "moves", "corner", "straight_cost", "diagonal_cost",
               "heuristic", "weight", "tie", "reopen", "max_expansions", "open_set", "partial",
               "terrain_scale", "turn_penalty", "heuristic_floor", "observer",
               "beam_width", "epsilon", "band_e", "band_d", "retarget_interval",
               "ida_transpositions")
    __slots__ = _FIELDS + ("_tuple", "_method")

    def __init__(self, *, algo: str = "astar", space: str = "grid", moves: int = 8,
                 corner: str = "no-cut", straight_cost: float = 1.0,
                 diagonal_cost: float = math.sqrt(2.0), heuristic: Any = "auto",
                 weight: float = 1.0, tie: str = "larger-g", reopen: str = "auto",
                 max_expansions: int = 0, open_set: str = "auto", partial: bool = False,
                 terrain_scale: float = 1.0, turn_penalty: float = 0.0,
                 heuristic_floor: float = 0.0, observer: Optional[Callable[[Event], Any]] = None,
                 beam_width: int = 1024, epsilon: float = 1.0, band_e: float = 0.0,
                 band_d: float = 0.0, retarget_interval: int = 32,
                 ida_transpositions: bool = True):
        self.algo = _choice("algo", algo, _ALL_ALGOS, _ALGO_ALIASES)
        self.space = _choice("space", space, {"grid": 0, "graph": 1})
        try:
            self.moves = _integer(moves, "moves", 4, 8)  # TypeError for 8.0, "8", True
        except InvalidArgumentError:
            self.moves = 0
        if self.moves not in (4, 8):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT,
                                       f"moves: expected 4 or 8, got {moves!r}")
        self.corner = _choice("corner", corner, _CORNERS)
        self.straight_cost = _real(straight_cost, "straight_cost", 0.0, _OPTION_MAX, True)
        self.diagonal_cost = _real(diagonal_cost, "diagonal_cost", 0.0, _OPTION_MAX, True)
        if callable(heuristic):
            self.heuristic = heuristic
        else:
            self.heuristic = _choice("heuristic", heuristic, _HEURISTICS)
        self.weight = _real(weight, "weight", 0.0, _OPTION_MAX)
        self.tie = _choice("tie", tie, _TIES)
        self.reopen = _choice("reopen", reopen, _REOPEN)
        self.max_expansions = _integer(max_expansions, "max_expansions", 0, _U64)
        self.open_set = _choice("open_set", open_set, _OPEN_SETS)
        self.partial = _flag(partial, "partial")
        self.terrain_scale = _real(terrain_scale, "terrain_scale", 0.0, 1.0)
        self.turn_penalty = _real(turn_penalty, "turn_penalty", 0.0, _OPTION_MAX)
        self.heuristic_floor = _real(heuristic_floor, "heuristic_floor", 0.0, _OPTION_MAX)
        if observer is not None and not callable(observer):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT, "observer: a callable expected")
        self.observer = observer
        variant = _variant(beam_width, epsilon, band_e, band_d, retarget_interval,
                           ida_transpositions)
        (self.beam_width, self.epsilon, self.band_e, self.band_d, self.retarget_interval,
         self.ida_transpositions) = variant
        if self.space == "graph":
            if self.algo not in _GRAPH_ALGOS:
                raise InvalidArgumentError(
                    Status.INVALID_ARGUMENT,
                    f"space='graph': {self.algo} searches the grid with its own loop only (the "
                    "engine runs astar, dijkstra, greedy, bidir, " + ", ".join(_VARIANTS) + ")")
            code = _GRAPH_ALGOS[self.algo]
        else:
            # The grid methods the old numbering lacks (theta, cpd, ...) are
            # the finder's alone: their number there is the method's.
            code = _ALGOS.get(self.algo, 0)
        self._method = _ALL_ALGOS[self.algo]
        h_fn = self.heuristic if callable(self.heuristic) else None
        obs: Optional[Callable[..., None]] = None
        if observer is not None:
            user = observer

            def obs(*args: Any) -> None:
                user(Event(*args))
        self._tuple = (code, self.moves, _CORNERS[self.corner], self.straight_cost,
                       self.diagonal_cost, 0 if h_fn else _HEURISTICS[self.heuristic],
                       self.weight, _TIES[self.tie], _REOPEN[self.reopen], self.max_expansions,
                       _OPEN_SETS[self.open_set], self.partial, self.terrain_scale,
                       self.turn_penalty, self.heuristic_floor, h_fn, obs, variant)

    def replace(self, *, algo: str = _UNSET, space: str = _UNSET,
                moves: int = _UNSET, corner: str = _UNSET,
                straight_cost: float = _UNSET, diagonal_cost: float = _UNSET,
                heuristic: Heuristic = _UNSET, weight: float = _UNSET,
                tie: str = _UNSET, reopen: str = _UNSET,
                max_expansions: int = _UNSET, open_set: str = _UNSET,
                partial: bool = _UNSET, terrain_scale: float = _UNSET,
                turn_penalty: float = _UNSET, heuristic_floor: float = _UNSET,
                observer: Optional[Callable[[Event], Any]] = _UNSET,
                beam_width: int = _UNSET, epsilon: float = _UNSET,
                band_e: float = _UNSET, band_d: float = _UNSET,
                retarget_interval: int = _UNSET,
                ida_transpositions: bool = _UNSET) -> "Options":
        """A copy with the options given changed."""
        changes = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        kw = {f: getattr(self, f) for f in self._FIELDS}
        kw.update(changes)
        return Options(**kw)

    def __repr__(self) -> str:
        parts = []
        for f in self._FIELDS:
            v = getattr(self, f)
            if v != _DEFAULT_VALUES[f]:
                parts.append(f"{f}={v!r}")
        return f"Options({', '.join(parts)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and all(
            getattr(self, f) == getattr(other, f) for f in self._FIELDS)

    __hash__ = None  # type: ignore[assignment]


_DEFAULT_OPTIONS = Options()
_DEFAULT_VALUES = {f: getattr(_DEFAULT_OPTIONS, f) for f in Options._FIELDS}


# The options a call names: the public signatures list them as keyword
# parameters -- not **kw -- so that a type checker flags a misspelled one
# (mypy 1.0 ignores Unpack[TypedDict] on **kw without
# --enable-incomplete-feature=Unpack). Their default, _UNSET, means "not
# given": the Options default, or the value in options=.
OPTION_NAMES = Options._FIELDS
RULE_NAMES = ("moves", "corner", "straight_cost", "diagonal_cost")
_NOTHING_GIVEN = {n: (_UNSET,) * n for n in (len(OPTION_NAMES) - 1, len(OPTION_NAMES),
                                              len(RULE_NAMES))}


def _given(values: Tuple[Any, ...], names: Tuple[str, ...] = OPTION_NAMES) -> Dict[str, Any]:
    """The keyword arguments a call gave: ``values`` are its parameters
    ``names`` in that order (test_typing.py checks every signature lists
    them so); those left at _UNSET are left out. A tuple, not locals(): a
    search without options pays ~0.1 us for this, not ~4."""
    if _NOTHING_GIVEN.get(len(values)) == values:   # _Unset.__eq__ answers first
        return {}
    return {n: v for n, v in zip(names, values) if v is not _UNSET}


def _options(options: Optional[Options], kw: dict) -> Options:
    if options is None:
        return Options(**kw) if kw else _DEFAULT_OPTIONS
    if not isinstance(options, Options):
        raise TypeError("options: an Options object expected")
    return options.replace(**kw) if kw else options


# ---- paths -------------------------------------------------------------------------------

class Path:
    """A search's result.

    cells      np.ndarray of shape (n, 2), int32: the (x, y) cells, start first
    cost       the path's cost (0 without a path)
    status     Status.OK, or Status.PARTIAL for a partial path (``partial=True``)
    cause      why a partial path stopped short (NO_PATH, LIMIT_REACHED, ...), else OK
    end        the last cell, None without a path
    expanded, generated, reopened, max_open   the search's statistics
    retargeted True when islands retargeted the goal (not used by Python yet)
    dropped    beam, bandwidth: open-list entries dropped (else 0)
    iterations ida: bounds tried; retarget: legs run (else 0)
    work       what the method charges a budget for (MethodInfo.work)
    sight_checks        theta, lazy-theta: lines of sight tested (else 0)
    abstract_expanded, abstract_length   hpa: abstract nodes expanded, nodes of the
               abstract path (else 0)
    grid_cost  with smoothing: the cost of the grid path before it (else 0)
    points     Anya: its path as float64 (x, y) points on grid corners, shape (n, 2)
               (``cells`` is then empty); a mesh finder's (polyanya, funnel): the
               start, the bends and the goal in mesh coordinates; None for every
               other method (its points are the cells' centres, ``cells + 0.5``)
    corridor   funnel: polygons of the corridor A* found (else 0)

    order      'xy' or 'rc': the order of ``cells``, ``points`` and ``end`` (the
               grid's, or the search's ``order=``); ``xy`` and ``rc``: the
               cells in either order whatever it is

    ``len(path)`` is the number of cells (points), ``bool(path)`` whether it
    has any, iterating gives its cells as tuples (in ``order``).
    """

    __slots__ = ("order",
                 "cells", "cost", "status", "cause", "end", "expanded", "generated", "reopened",
                 "max_open", "retargeted", "dropped", "iterations", "work", "sight_checks",
                 "abstract_expanded", "abstract_length", "grid_cost", "points", "corridor")

    def __init__(self, cells: np.ndarray, cost: float, status: Status, cause: Status,
                 end: Optional[Point], expanded: int, generated: int, reopened: int,
                 max_open: int, retargeted: bool = False, dropped: int = 0,
                 iterations: int = 0, work: int = 0, sight_checks: int = 0,
                 abstract_expanded: int = 0, abstract_length: int = 0, grid_cost: float = 0.0,
                 points: Optional[np.ndarray] = None):
        self.order = "xy"  # the library's; _path_out converts
        self.work = work
        self.sight_checks = sight_checks
        self.abstract_expanded = abstract_expanded
        self.abstract_length = abstract_length
        self.grid_cost = grid_cost
        self.points = points
        self.corridor = 0
        self.cells = cells
        self.cost = cost
        self.status = status
        self.cause = cause
        self.end = end
        self.expanded = expanded
        self.generated = generated
        self.reopened = reopened
        self.max_open = max_open
        self.retargeted = retargeted
        self.dropped = dropped
        self.iterations = iterations

    @property
    def xy(self) -> np.ndarray:
        """The cells as (x, y) -- x the column, y the row -- shape (n, 2)."""
        return self.cells if self.order == "xy" else _cells_out(None, self.cells, "rc")

    @property
    def rc(self) -> np.ndarray:
        """The cells as (row, col), NumPy's ``array[row, col]``, shape (n, 2)."""
        return self.cells if self.order == "rc" else _cells_out(None, self.cells, "rc")

    @property
    def stats(self) -> dict:
        """The statistics as a dict."""
        return {"expanded": self.expanded, "generated": self.generated,
                "reopened": self.reopened, "max_open": self.max_open}

    def __len__(self) -> int:
        return len(self.points) if self.points is not None else len(self.cells)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[Tuple[Any, Any]]:
        for x, y in (self.points if self.points is not None else self.cells).tolist():
            yield (x, y)

    def __repr__(self) -> str:
        kind = "points" if self.points is not None else "cells"
        kind += " (row, col)" if self.order == "rc" else ""
        return (f"<Path {self.status.name} {len(self)} {kind}, cost {self.cost:.6g}, "
                f"expanded {self.expanded}>")


_NO_CELLS = np.zeros((0, 2), dtype=np.int32)
_NO_CELLS.setflags(write=False)


def _path(t: tuple) -> Path:
    """A Path from the C result tuple
    (status, cells, cost, expanded, generated, reopened, max_open, end, cause, retargeted,
    detail, dropped, iterations)."""
    cells = (np.frombuffer(t[1], dtype=np.int32).reshape(-1, 2) if t[1] is not None
             else _NO_CELLS)
    if len(t) <= 13:
        return Path(cells, t[2], Status(t[0]), Status(t[8]), t[7], t[3], t[4], t[5], t[6], t[9],
                    t[11], t[12])
    # A finder's: then (work, sight_checks, abstract_expanded, abstract_length,
    # grid_cost, points).
    points = np.frombuffer(t[18], dtype=np.float64).reshape(-1, 2) if t[18] is not None else None
    return Path(cells, t[2], Status(t[0]), Status(t[8]), t[7], t[3], t[4], t[5], t[6], t[9],
                t[11], t[12], t[13], t[14], t[15], t[16], t[17], points)


def _outcome(t: tuple) -> Path:
    """The Path of a search, or raise its status's exception (carrying the Path)."""
    p = _path(t)
    if p.status in (Status.OK, Status.PARTIAL):
        return p
    raise _error(t[0], _pythonic(t[10]) if len(t) > 10 else None, path=p)


# The one converter of cells, shared with the methods taking x and y
# (grid.passable(x, y), ...): _core.point(p, what, strict=False) -> (x, y).
# Integers only -- Python ints and NumPy integers, not bools -- else
# TypeError naming `what`; a coordinate beyond int32 is outside every grid
# and is handed on as INT32_MAX / INT32_MIN, so the library answers it as
# any other outside cell (OutOfBoundsError); `strict` (cells not tied to a
# grid: a walked line) raises OutOfBoundsError instead.
_point = _core.point
_INT32 = np.iinfo(np.int32)


def _cells(cells: Any, what: str, strict: bool = False) -> np.ndarray:
    """(x, y) cells as a contiguous int32 array of shape (n, 2), by the rule
    of :func:`_point`: a NumPy integer array whole, any other iterable cell
    by cell (np.asarray would make ints of bools, and floats of a uint64
    beside an int)."""
    if not isinstance(cells, np.ndarray) or cells.dtype == object:
        return np.array([_point(c, f"{what}[{i}]", strict) for i, c in enumerate(cells)],
                        dtype=np.int32).reshape(-1, 2)
    a = cells
    if a.dtype.kind not in "iu":
        if a.size == 0:
            return np.zeros((0, 2), dtype=np.int32)
        # float, bool, str: int() would have truncated or parsed them.
        raise TypeError(f"{what}: (x, y) pairs of integers expected, got {a.dtype} values")
    if a.size % 2:
        raise ValueError(f"{what}: (x, y) pairs expected, got shape {a.shape}")
    beyond = (a > _INT32.max) | (a < _INT32.min) if a.dtype.kind == "i" else a > _INT32.max
    if strict and np.any(beyond):
        bad = a.reshape(-1, 2)[np.any(beyond.reshape(-1, 2), axis=1)][0]
        raise OutOfBoundsError(Status.OUT_OF_BOUNDS,
                               f"{what}: {tuple(bad.tolist())} lies beyond the int32 coordinates")
    a = np.minimum(a, _INT32.max) if a.dtype.kind == "u" else np.clip(a, _INT32.min, _INT32.max)
    return np.ascontiguousarray(a.astype(np.int32).reshape(-1, 2))


class Workspace(_core.Workspace):
    """The scratch memory of searches (``astar_workspace``): node records,
    open list, marks -- about 38 bytes a cell of the largest grid searched
    with it, kept for the next search (a 4096 x 4096 search leaves ~600 MB).

    Every search takes ``workspace=``; without it a search uses the calling
    thread's own hidden workspace (:func:`thread_workspace`), which
    :func:`release_memory` empties. A workspace serves one search at a time
    (one per thread). ``nbytes``: the bytes it holds; ``shrink()`` frees them
    (it grows again on the next search) and returns how many;
    ``close()`` frees them for good (searches with it then raise
    ValueError); ``with Workspace() as ws:`` closes it at the end. Both
    raise RuntimeError while a search holds it (a sliced :class:`Search`
    until ``finish()`` or ``cancel()``). Dropping the last reference frees
    it too.
    """

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.nbytes} bytes"
        return f"<Workspace {state}>"


# One hidden workspace per thread, grown to the largest grid it searched
# (release_memory() empties the calling thread's).
_local = threading.local()


def _workspace() -> Workspace:
    ws = getattr(_local, "workspace", None)
    if ws is None:
        ws = _local.workspace = Workspace()
    return ws


def thread_workspace() -> Workspace:
    """The calling thread's hidden workspace: what a search without
    ``workspace=`` uses (``thread_workspace().nbytes``: the memory it keeps)."""
    return _workspace()


def release_memory() -> int:
    """Free the calling thread's hidden workspace (what searches without
    ``workspace=`` grew it to); returns the bytes freed. The next search
    grows it again. Other threads' workspaces, and workspaces you made, are
    theirs: ``ws.shrink()``. RuntimeError while a search of this thread
    holds it."""
    ws = getattr(_local, "workspace", None)
    return ws.shrink() if ws is not None else 0


# ---- text and files ------------------------------------------------------------------------

def _source(source: Any) -> Tuple[bytes, Optional[str]]:
    """(bytes, filename or None) of map or scenario text given as text or a path."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, str) and ("\n" in source or "\r" in source):
        return source.encode(), None
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            return f.read(), os.fspath(source)
    raise TypeError(f"a path or the text itself expected, got {type(source).__name__}")


def _named(exc: AstarError, filename: Optional[str]) -> AstarError:
    if filename and isinstance(exc, ParseError):
        exc.filename = filename
        exc.args = (exc._text(),)
    return exc


def _parse_map(cls: Any, source: Any, kind: str) -> Any:
    text, filename = _source(source)
    try:
        grid, start, goal = _core.parse_map(cls, text, kind)
    except AstarError as e:
        raise _named(e, filename) from None
    grid.start, grid.goal = start, goal
    return grid


# ---- the square grid -----------------------------------------------------------------------

def _cost_arrays(array: Any) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """(passable uint8, terrain float32 or None) from a bool or cost array.
    The masked cells of a NumPy masked array are blocked (whatever their
    data: np.asarray would drop the mask and open them)."""
    if isinstance(array, np.ma.MaskedArray):
        # 0: a blocked cost
        array = array.filled(False if array.dtype == np.bool_ else 0)  # type: ignore[no-untyped-call]
    a = np.asarray(array)
    if a.ndim != 2:
        raise ValueError(f"array: a 2-D array (rows, columns) expected, got shape {a.shape}")
    if 0 in a.shape:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT,
                                   f"array: shape {a.shape} has no cells (a grid has at least "
                                   "one row and one column)")
    if a.dtype == np.bool_:
        return np.ascontiguousarray(a, dtype=np.uint8), None
    if not (np.issubdtype(a.dtype, np.number)) or np.iscomplexobj(a):
        raise TypeError(f"array: a bool or real number array expected, got dtype {a.dtype}")
    c = a.astype(np.float64, copy=False)
    passable = np.isfinite(c) & (c > 0)

    # What the grid cannot store, named with the value given (in float32 a
    # cost of 1e-50 would read "0" and one of 1e40 "inf").
    def refuse(bad: np.ndarray, why: str) -> None:
        if np.any(bad):
            y, x = np.argwhere(bad)[0]
            raise InvalidArgumentError(Status.INVALID_ARGUMENT,
                                       f"array: terrain cost {c[y, x]:g} at (x={x}, y={y}): "
                                       + why)

    refuse(c < 0, "negative costs are an error (use 0, inf or nan for blocked cells)"
           + _arrays.negative_hint(a))
    refuse(passable & (c > _core.TERRAIN_MAX),
           f"costs are at most {_core.TERRAIN_MAX:g} (use inf for blocked cells)")
    terrain = np.where(passable, c, 1.0).astype(np.float32)
    refuse(passable & (terrain == 0),
           "it rounds to 0 in float32, as the grid stores costs (the smallest is 1.4e-45)")
    if np.all(terrain == 1.0):
        return np.ascontiguousarray(passable, dtype=np.uint8), None
    return np.ascontiguousarray(passable, dtype=np.uint8), np.ascontiguousarray(terrain)


# The grid's planning methods (fields, islands, clearance, smoothing): _planning.py.
from ._planning import _GridPlanning  # noqa: E402


class Grid(_GridPlanning, _core.Grid):
    """A square grid: passable and blocked cells and a terrain cost per cell.

    ``Grid(width, height)`` has every cell passable with terrain cost 1.
    ``start`` and ``goal`` are the ``S`` and ``G`` cells of an ASCII map
    (None otherwise). A grid may be searched by many threads at once; it may
    not be changed while a search runs (RuntimeError).
    """

    start: Optional[Point] = None
    goal: Optional[Point] = None
    _order = "xy"   # grid.order: 'xy' or 'rc' (read by _order._point_in on every search)

    # -- construction

    def __init__(self, width: int, height: int, *, order: str = "xy") -> None:
        """``order``: how this grid's points go in and paths come out, 'xy'
        (the default: x the column, y the row) or 'rc' (row, col: NumPy's
        ``array[row, col]``); see :attr:`order`."""
        super().__init__(width, height)
        self.order = order

    @property
    def order(self) -> str:
        """'xy' (the default) or 'rc': the order of the cells this grid's
        searches take and give (start, goal, ``path.cells``, ``path.end``) when
        a call does not say (``order=``). Settable. An :class:`XY` or
        :class:`RC` point is read as it says whatever the order."""
        return self._order

    @order.setter
    def order(self, value: str) -> None:
        self._order = _check_order(value)

    @classmethod
    def _from_arrays(cls, arrays: Tuple[np.ndarray, Optional[np.ndarray]],
                     order: str) -> "Grid":
        passable, terrain = arrays
        h, w = passable.shape
        grid = cls(w, h)
        grid.order = order
        grid._load(passable, terrain)
        return grid

    @classmethod
    def from_occupancy(cls, array: Any, *, threshold: int = _arrays.OCCUPIED_THRESHOLD,
                       unknown: str = "blocked", order: str = "xy") -> "Grid":
        """A grid from a ROS occupancy grid (``nav_msgs/OccupancyGrid``: int8
        rows x columns, 0..100 the chance of a wall in percent, -1 unknown;
        ``np.array(msg.data, dtype=np.int8).reshape(msg.info.height,
        msg.info.width)``). A cell is blocked when its value is >= ``threshold``
        (default 65, map_server's ``occupied_thresh`` 0.65; an integer in
        [1, 101]); unknown cells are ``unknown='blocked'`` (the default) or
        'free'. Values outside -1..100 raise InvalidArgumentError naming the
        cell; a non-integer array TypeError. ``order``: as :class:`Grid`."""
        return cls._from_arrays(_arrays.occupancy(array, threshold, unknown), order)

    @classmethod
    def from_mask(cls, mask: Any, *, free: bool = True, order: str = "xy") -> "Grid":
        """A grid from a bool array (rows x columns): True is a free cell
        (``free=True``, the default) or a blocked one (``free=False``: an
        obstacle mask). Other dtypes raise TypeError naming the constructor
        for them. ``order``: as :class:`Grid`."""
        return cls._from_arrays(_arrays.mask(mask, free), order)

    @classmethod
    def from_image(cls, image: Any, *, threshold: int = _arrays.DARK_THRESHOLD,
                   dark: str = "blocked", order: str = "xy") -> "Grid":
        """A grid from a picture of the map: uint8 grey (rows x columns), RGB
        or RGBA (rows x columns x 3 or 4, alpha ignored; grey = 0.299 R +
        0.587 G + 0.114 B), or floats in [0, 1] (scikit-image's, x 255). A
        pixel is dark when its grey is < ``threshold`` (default 90: map_server's
        ``occupied_thresh`` 0.65 on darkness (255 - grey) / 255); dark pixels
        are walls (``dark='blocked'``, the default, as map_server) or the
        free space (``dark='free'``). ``order``: as :class:`Grid`."""
        return cls._from_arrays(_arrays.image(image, threshold, dark), order)

    @classmethod
    def from_costs(cls, costs: Any, *, wall: str = "inf", order: str = "xy") -> "Grid":
        """A grid from terrain costs (rows x columns, any real dtype):
        entering a cell costs the move's cost times its value, in (0, 1e9]
        (stored as float32). ``wall='inf'`` (the default): +inf is a wall and 0
        an error; ``wall='zero'``: 0 is a wall and inf an error. NaN, negative
        costs and costs beyond 1e9 are errors (InvalidArgumentError naming the
        cell) either way. ``order``: as :class:`Grid`."""
        return cls._from_arrays(_arrays.costs(costs, wall), order)

    @classmethod
    def from_numpy(cls, array: Any) -> "Grid":
        """A grid from a 2-D array indexed ``array[y, x]`` (rows, columns).

        bool array: True = passable. Number array: the terrain cost of each
        cell (entering a cell costs the move's cost times it); 0, inf and
        nan mark blocked cells; negative costs are an error. Costs are stored
        as float32, in (0, 1e9]: one that rounds to 0 in float32 (1e-50) is an
        error too. The masked cells of a NumPy masked array are blocked.

        Say what the array is instead: :meth:`from_mask`, :meth:`from_occupancy`
        (ROS int8, 0 free, 100 occupied, -1 unknown), :meth:`from_image`,
        :meth:`from_costs`. An int8 array of 0..100 (occupancy, read here
        inverted) or a uint8 array of 0 and 255 (an image, white read as cost
        255) gives an :class:`AmbiguousArrayWarning` naming the constructor
        that reads it as meant.
        """
        _arrays.check_numpy(array)
        passable, terrain = _cost_arrays(array)
        h, w = passable.shape
        grid = cls(w, h)
        grid._load(passable, terrain)
        return grid

    @classmethod
    def from_movingai(cls, source: Any) -> "Grid":
        """A Moving AI ``.map`` from a path or its text (str with newlines, or bytes)."""
        return _parse_map(cls, source, "movingai")

    @classmethod
    def from_ascii(cls, source: Any) -> "Grid":
        """A plain ASCII map (``.`` open, ``#`` blocked, ``1``-``9`` terrain, ``S``, ``G``)."""
        return _parse_map(cls, source, "ascii")

    @classmethod
    def load(cls, source: Any) -> "Grid":
        """Either format, recognised by its first line, from a path or text."""
        return _parse_map(cls, source, "auto")

    def to_numpy(self, costs: bool = False) -> np.ndarray:
        """The grid as an array indexed [y, x]: bool passability, or with
        ``costs=True`` float32 terrain costs with inf for blocked cells (what
        :meth:`from_numpy` takes back)."""
        costs = _flag(costs, "costs")
        passable, terrain = self._export()
        p = np.frombuffer(passable, dtype=np.uint8).reshape(self.height, self.width).astype(bool)
        if not costs:
            return p
        if terrain is None:
            c = np.ones((self.height, self.width), dtype=np.float32)
        else:
            c = np.frombuffer(terrain, dtype=np.float32).reshape(self.height, self.width).copy()
        c[~p] = np.inf
        return c

    @property
    def shape(self) -> Tuple[int, int]:
        """(height, width), the shape of :meth:`to_numpy`."""
        return (self.height, self.width)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild_grid, (type(self), self.to_numpy(costs=True), self.start, self.goal,
                                self.order))

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.width} x {self.height}, "
                f"{self.count_passable()} passable{', terrain' if self.has_terrain else ''}>")

    # -- searching

    def find_path(self, start: CellLike, goal: CellLike, *, options: Optional[Options] = None,
                  workspace: Optional[Workspace] = None, jps_plus: Optional["JpsPlus"] = None,
                  order: Optional[str] = None, unit_size: int = 1,
                  knowledge: Optional["Knowledge"] = None, layers: "LayersArg" = None,
                  algo: str = _UNSET, space: str = _UNSET,
                  moves: int = _UNSET, corner: str = _UNSET,
                  straight_cost: float = _UNSET, diagonal_cost: float = _UNSET,
                  heuristic: Heuristic = _UNSET, weight: float = _UNSET,
                  tie: str = _UNSET, reopen: str = _UNSET,
                  max_expansions: int = _UNSET, open_set: str = _UNSET,
                  partial: bool = _UNSET, terrain_scale: float = _UNSET,
                  turn_penalty: float = _UNSET,
                  heuristic_floor: float = _UNSET,
                  observer: Optional[Callable[[Event], Any]] = _UNSET,
                  beam_width: int = _UNSET, epsilon: float = _UNSET,
                  band_e: float = _UNSET, band_d: float = _UNSET,
                  retarget_interval: int = _UNSET,
                  ida_transpositions: bool = _UNSET) -> Path:
        """The path from ``start`` to ``goal`` (``(x, y)`` pairs) as a :class:`Path`.

        Keyword arguments are :class:`Options` (``algo=``, ``heuristic=``,
        ``moves=``, ``corner=``, ``weight=``, ...; not given: the default,
        or ``options``' value), or pass ``options=``.
        ``algo='jps-plus'`` uses ``jps_plus`` when given, else a precomputation
        the grid keeps (rebuilt when the grid changes). ``workspace``: the
        thread's own by default. ``order``: 'xy' or 'rc', the order of
        ``start``, ``goal`` and the path's cells (default: the grid's
        :attr:`order`, 'xy' unless it was made with another). ``unit_size=k``:
        the path of a k x k unit's top-left cell (``astar/clearance.h``; the
        grid's clearance is kept while the grid does not change).
        ``knowledge``: a :class:`Knowledge` -- plan on what a player knows
        (fog of war); ``layers``: :class:`Layer` objects or (layer, weight)
        pairs, extra costs added to the terrain (see ``_fog.py``).

        Raises NoPathError, LimitReachedError, StartBlockedError,
        GoalBlockedError, OutOfBoundsError, UnsupportedError (``detail`` says
        which option or map property), ... -- all :class:`AstarError` with the
        ``status``; a search's statistics are in ``e.path``.
        """
        given = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        opts = _options(options, given)
        s, g = _point_in(self, start, order, "start"), _point_in(self, goal, order, "goal")
        if type(unit_size) is not int or unit_size != 1:
            unit_size = _integer(unit_size, "unit_size", 1, 255)
        overlay = _fog._overlay(self, knowledge, layers)
        if overlay is not None:  # fog of war / layers: a finder prepared with them
            return _path_out(self, Finder(
                self, opts.algo, options=opts, jps_plus=jps_plus, unit_size=unit_size,
                knowledge=knowledge, layers=layers).find(s, g, workspace=workspace, order="xy"),
                order)
        if unit_size > 1:  # a big unit: the finder of its derived grid (_planning.py)
            return _path_out(self, _planning._finder_for_size(self, opts, unit_size).find(
                s, g, workspace=workspace, order="xy"), order)
        # Through the finder (astar/finder.h), prepared for this query: the
        # one way every method runs. A method's precomputation is the given
        # one or the grid's own (kept while the grid does not change).
        att: Any = [None] * 6
        if opts.algo == "jps-plus":
            att[0] = jps_plus if jps_plus is not None else self._jps_plus_cached()
        elif opts.algo in ("cpd", "hpa") and opts.space != "graph":
            att[1 if opts.algo == "cpd" else 2] = self._prep_cached(opts.algo, opts)
        elif opts.algo == "subgoal" and opts.space != "graph":
            # (table, overlay, subgoal): the graph is the finder's argument
            att += [None, None, self._prep_cached("subgoal", opts)]
        att = tuple(att)
        # The last finder prepared here is reused while the same Options
        # object (options=, or the defaults) asks with the same attachments:
        # a finder without attachments follows the grid's edits, and a
        # precomputation rebuilt for a changed grid is another object.
        cached = self.__dict__.get("_finder")
        if cached is not None and cached[0] is opts and all(
                a is b for a, b in zip(cached[1], att)):
            finder = cached[2]
        else:
            args = (self, opts._method, opts._tuple, att, False, 1, opts.space == "graph")
            why = _core.finder_reason(*args)
            if why is not None:
                raise _unsupported(_pythonic(why))
            finder = _core.Finder(*args)
            self.__dict__["_finder"] = (opts, att, finder)
        return _path_out(self, _outcome(finder.find(workspace or _workspace(), s, g)), order)

    def find_path_any(self, start: CellLike, goals: Iterable[CellLike], *,
                      options: Optional[Options] = None, workspace: Optional[Workspace] = None,
                      order: Optional[str] = None,
                      algo: str = _UNSET, space: str = _UNSET,
                      moves: int = _UNSET, corner: str = _UNSET,
                      straight_cost: float = _UNSET,
                      diagonal_cost: float = _UNSET,
                      heuristic: Heuristic = _UNSET, weight: float = _UNSET,
                      tie: str = _UNSET, reopen: str = _UNSET,
                      max_expansions: int = _UNSET, open_set: str = _UNSET,
                      partial: bool = _UNSET, terrain_scale: float = _UNSET,
                      turn_penalty: float = _UNSET,
                      heuristic_floor: float = _UNSET,
                      observer: Optional[Callable[[Event], Any]] = _UNSET,
                      beam_width: int = _UNSET, epsilon: float = _UNSET,
                      band_e: float = _UNSET, band_d: float = _UNSET,
                      retarget_interval: int = _UNSET,
                      ida_transpositions: bool = _UNSET) -> Path:
        """The cheapest path from ``start`` to any of ``goals`` (A* or Dijkstra);
        ``path.end`` is the goal reached. Blocked or outside goals are skipped."""
        given = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        opts = _options(options, given)
        g = _cells_in(self, goals, order, "goals")
        if len(g) == 0:
            raise InvalidArgumentError(Status.INVALID_ARGUMENT, "goals: at least one")
        return _path_out(self, _outcome(_core.grid_find(
            self, workspace or _workspace(), None, _point_in(self, start, order, "start"),
            g.tobytes(), opts._tuple)), order)

    def path_cost(self, cells: Any, *, options: Optional[Options] = None,
                  order: Optional[str] = None,
                  algo: str = _UNSET, space: str = _UNSET,
                  moves: int = _UNSET, corner: str = _UNSET,
                  straight_cost: float = _UNSET, diagonal_cost: float = _UNSET,
                  heuristic: Heuristic = _UNSET, weight: float = _UNSET,
                  tie: str = _UNSET, reopen: str = _UNSET,
                  max_expansions: int = _UNSET, open_set: str = _UNSET,
                  partial: bool = _UNSET, terrain_scale: float = _UNSET,
                  turn_penalty: float = _UNSET,
                  heuristic_floor: float = _UNSET,
                  observer: Optional[Callable[[Event], Any]] = _UNSET,
                  beam_width: int = _UNSET, epsilon: float = _UNSET,
                  band_e: float = _UNSET, band_d: float = _UNSET,
                  retarget_interval: int = _UNSET,
                  ida_transpositions: bool = _UNSET) -> float:
        """The cost of a path (sequence of (x, y)) under the options' moves, corner
        rule and costs; raises InvalidArgumentError (``e.index``: the first bad
        cell) when a step is not a legal move."""
        given = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        opts = _options(options, given)
        return _core.path_cost(self, _cells_in(self, cells, order, "cells").tobytes(),
                               opts._tuple)

    def unsupported_reason(self, *, options: Optional[Options] = None,
                           algo: str = _UNSET, space: str = _UNSET,
                           moves: int = _UNSET, corner: str = _UNSET,
                           straight_cost: float = _UNSET,
                           diagonal_cost: float = _UNSET,
                           heuristic: Heuristic = _UNSET,
                           weight: float = _UNSET, tie: str = _UNSET,
                           reopen: str = _UNSET, max_expansions: int = _UNSET,
                           open_set: str = _UNSET, partial: bool = _UNSET,
                           terrain_scale: float = _UNSET,
                           turn_penalty: float = _UNSET,
                           heuristic_floor: float = _UNSET,
                           observer: Optional[Callable[[Event], Any]] = _UNSET,
                           beam_width: int = _UNSET, epsilon: float = _UNSET,
                           band_e: float = _UNSET, band_d: float = _UNSET,
                           retarget_interval: int = _UNSET,
                           ida_transpositions: bool = _UNSET) -> Optional[str]:
        """Why these options' algorithm cannot run on this grid (None: it can):
        the library's sentence (``astar_finder_unsupported_reason``)."""
        given = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        opts = _options(options, given)
        return _pythonic(_core.finder_reason(self, opts._method, opts._tuple, (None,) * 6,
                                             False, 1, opts.space == "graph"))

    def jps_plus(self) -> "JpsPlus":
        """A new JPS+ precomputation of this grid (see :class:`JpsPlus`)."""
        return JpsPlus(self)

    def waypoints(self, *, corner: str = "no-cut", straight_cost: float = 1.0,
                  side_cells: bool = False) -> "Waypoints":
        """The waypoint graph of this grid for any-angle paths (see :class:`Waypoints`)."""
        return Waypoints(self, corner=corner, straight_cost=straight_cost,
                         side_cells=side_cells)

    def _prep_cached(self, key: str, opts: Options) -> Any:
        """The grid's own CPD, HPA* hierarchy or subgoal graph for the rules of ``opts``,
        built again when the grid changed."""
        cache = self.__dict__.setdefault("_preps", {})
        rules = (key, opts.moves, opts.corner, opts.straight_cost, opts.diagonal_cost)
        cached = cache.get(rules)
        if cached is None or cached[0] != self.version:
            cache.clear() if len(cache) > 8 else None
            cached = cache[rules] = (self.version, _PREP_TYPES[key](self, options=_rules(opts)))
        return cached[1]

    def _jps_plus_cached(self) -> "JpsPlus":
        cached = self.__dict__.get("_jps_plus")
        version = self.version
        if cached is None or cached[0] != version:
            cached = (version, JpsPlus(self))
            self.__dict__["_jps_plus"] = cached
        return cached[1]


def _rebuild_grid(cls: Any, costs: np.ndarray, start: Optional[Point], goal: Optional[Point],
                  order: str = "xy") -> "Grid":
    grid = cls.from_costs(costs, order=order)
    grid.start, grid.goal = start, goal
    return grid


class JpsPlus(_core.JpsPlus):
    """JPS+: jump distances precomputed for one grid (``JpsPlus(grid)`` or
    ``grid.jps_plus()``), the fastest optimal search on uniform-cost grids
    (8 moves, no corner cutting, no terrain). Valid while the grid does not
    change: a search on a changed grid raises StaleError."""

    @classmethod
    def load(cls, grid: Grid, source: Any) -> "JpsPlus":
        """Load bytes made by :meth:`save` (bytes, or a file path) for ``grid``;
        raises ParseError (damaged data) or MismatchError (another grid)."""
        if isinstance(source, (bytes, bytearray, memoryview)):
            data, name = bytes(source), "<bytes>"
        else:
            with open(source, "rb") as f:
                data, name = f.read(), os.fspath(source)
        try:
            return cls._load(grid, data)
        except ParseError as e:
            raise _named(e, str(name)) from None

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self).load, (self.grid, self.save()))

    def save(self, path: Any = None) -> bytes:
        """The precomputation as bytes (a portable format); also written to
        ``path`` when given."""
        data = super().save()
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data

    def find_path(self, start: CellLike, goal: CellLike, *, options: Optional[Options] = None,
                  workspace: Optional[Workspace] = None, order: Optional[str] = None,
                  space: str = _UNSET, moves: int = _UNSET,
                  corner: str = _UNSET, straight_cost: float = _UNSET,
                  diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                  weight: float = _UNSET, tie: str = _UNSET,
                  reopen: str = _UNSET, max_expansions: int = _UNSET,
                  open_set: str = _UNSET, partial: bool = _UNSET,
                  terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
                  heuristic_floor: float = _UNSET,
                  observer: Optional[Callable[[Event], Any]] = _UNSET,
                  beam_width: int = _UNSET, epsilon: float = _UNSET,
                  band_e: float = _UNSET, band_d: float = _UNSET,
                  retarget_interval: int = _UNSET,
                  ida_transpositions: bool = _UNSET) -> Path:
        """``grid.find_path(start, goal, algo='jps-plus', jps_plus=self, ...)``."""
        kw = _given(
            (space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions), OPTION_NAMES[1:])
        return self.grid.find_path(start, goal, options=options, workspace=workspace,
                                   order=order, algo="jps-plus", jps_plus=self, **kw)

    def __repr__(self) -> str:
        return f"<JpsPlus of {self.grid!r}, {self.memory} bytes>"


def _engine_tuple(algo: str, weight: float, tie: str, reopen: str, max_expansions: int,
                  partial: bool, variant: dict) -> tuple:
    """The engine options of the hex, waypoint and graph searches; `variant`:
    the keyword arguments of :func:`_variant` (others raise TypeError)."""
    method = _METHODS[_choice("algo", algo, _METHODS, _ALGO_ALIASES)]
    tie_key = _choice("tie", tie, {"larger-g": 0, "newest": 1})
    max_expansions = _integer(max_expansions, "max_expansions", 0, _U64)
    unknown = set(variant) - set(_VARIANT_DEFAULTS)
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
    return (method, _real(weight, "weight", 0.0, _OPTION_MAX), _TIES[tie_key],
            _REOPEN[_choice("reopen", reopen, _REOPEN)], max_expansions,
            _flag(partial, "partial"), _variant(**variant))


class Waypoints(_core.Waypoints):
    """The waypoint graph of a grid (``astar/waypoints.h``): the obstacles'
    convex corners joined by lines of sight, searched for any-angle paths --
    straight segments between waypoints, never costlier than the optimal
    8-connected grid path. ``Waypoints(grid, corner='no-cut', straight_cost=1,
    side_cells=False)`` or ``grid.waypoints(...)``; building costs one line of
    sight test per pair of waypoints (milliseconds for a thousand of them),
    without the GIL. A changed grid makes searches raise StaleError.

    ``corner``: 'no-cut', 'one-side' or 'always' (sightlines are diagonal, so
    not 'never'); ``side_cells``: under 'no-cut', more waypoints and paths
    closer to the any-angle optimum. No terrain costs.
    """

    _rules: Dict[str, Any]  # the rules a finder searching the graph is prepared with

    def __new__(cls, grid: Grid, *, corner: str = "no-cut", straight_cost: float = 1.0,
                side_cells: bool = False) -> "Waypoints":
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        # straight_cost and side_cells: checked by _core.Waypoints (real_arg, flag_arg).
        self = super().__new__(cls, grid, _CORNERS[_choice("corner", corner, _CORNERS)],
                               straight_cost, side_cells)
        # The rules a finder searching the graph must be prepared with.
        self._rules = dict(corner=_choice("corner", corner, _CORNERS),
                           straight_cost=_real(straight_cost, "straight_cost", 0.0,
                                               _OPTION_MAX, True))
        return self

    @property
    def cells(self) -> np.ndarray:
        """The waypoints' cells, shape (count, 2), int32 (x, y); row i is waypoint i."""
        return np.frombuffer(self._cells(), dtype=np.int32).reshape(-1, 2)

    def find_path(self, start: CellLike, goal: CellLike, *, algo: str = "astar", weight: float = 1.0,
                  tie: str = "larger-g", reopen: str = "auto", max_expansions: int = 0,
                  partial: bool = False, workspace: Optional[Workspace] = None,
                  beam_width: int = 1024, epsilon: float = 1.0,
                  band_e: float = 0.0, band_d: float = 0.0, retarget_interval: int = 32,
                  ida_transpositions: bool = True, order: Optional[str] = None) -> Path:
        """An any-angle path: ``path.cells`` are its waypoints (the start, the
        corners it bends at, the goal), ``path.cost`` the length of its straight
        segments (x straight_cost); :meth:`expand` gives the cells walked.
        ``algo``: 'astar', 'dijkstra', 'greedy', 'bidir' or a variant ('ida',
        'beam', 'dynamic', 'bandwidth', 'f2f', 'retarget'; ``variant``: their
        settings as in :class:`Options`). ``order``: as for :meth:`Grid.find_path`
        (default: the grid's). Raises as :meth:`Grid.find_path`."""
        variant: Dict[str, Any] = dict(
            beam_width=beam_width, epsilon=epsilon, band_e=band_e, band_d=band_d,
            retarget_interval=retarget_interval, ida_transpositions=ida_transpositions)
        _engine_tuple(algo, weight, tie, reopen, max_expansions, partial, variant)  # checked
        s = _point_in(self.grid, start, order, "start")   # checked before the finder is made
        g = _point_in(self.grid, goal, order, "goal")
        # Through the finder: the engine's method over this graph of the grid.
        finder = Finder(self.grid, _choice("algo", algo, _METHODS, _ALGO_ALIASES), waypoints=self,
                        weight=weight, tie=tie, reopen=reopen, max_expansions=max_expansions,
                        partial=partial, **self._rules, **variant)
        return _path_out(self.grid, finder.find(s, g, workspace=workspace, order="xy"), order)

    @staticmethod
    def expand(waypoints: Any) -> np.ndarray:
        """The cells a walk along ``waypoints`` (a Path, or (x, y) pairs) passes
        through, shape (n, 2): between waypoints in sight of each other, a
        legal 8-connected grid path under the graph's corner rule. For a
        Path, in its order (``path.order``)."""
        is_path = isinstance(waypoints, Path)
        cells = waypoints.xy if is_path else waypoints
        c = _cells(cells, "waypoints", strict=True)
        out = np.frombuffer(_core.waypoints_expand(c.tobytes()), dtype=np.int32).reshape(-1, 2)
        return _cells_out(None, out, waypoints.order) if is_path else out

    def __repr__(self) -> str:
        return f"<Waypoints of {self.grid!r}: {self.count} waypoints, {self.edge_count} edges>"


# ---- Moving AI scenarios -----------------------------------------------------------------

# ---- the finder: one way to ask for a path ------------------------------------------------

# astar_method_info.flags and the attachments' bits (astar/finder.h).
_MF = {"optimal": 0x1, "bounded": 0x2, "sliced": 0x4, "grid": 0x8, "space": 0x10,
       "any_angle": 0x20, "terrain": 0x40, "needs_prep": 0x80, "vec": 0x100, "mesh": 0x200}
_ATTACH = ("jps_plus", "cpd", "hpa", "landmarks", "table", "waypoints", "subgoal")


class MethodInfo(NamedTuple):
    """One row of the library's method table (``astar_method_info``)."""
    name: str             #: what ``method=`` / ``algo=`` takes ('astar', 'jps-plus', 'theta', ...)
    summary: str          #: one line
    optimal: bool         #: exact (with an admissible heuristic and weight <= 1)
    bounded: bool         #: within a documented factor of optimal
    sliced: bool          #: resumes across Search.step calls (else runs whole in the first)
    grid: bool            #: searches a square grid
    space: bool           #: the engine runs it (also space='graph', hex grids, waypoint graphs)
    any_angle: bool       #: paths of straight segments, not grid moves
    terrain: bool         #: honours terrain costs
    vec: bool             #: its path is points on grid corners (Path.points: Anya)
    mesh: bool            #: searches a navigation mesh (Finder(mesh, ...): polyanya, funnel)
    needs: Tuple[str, ...]   #: the attachments it cannot run without ('jps_plus', 'cpd', 'hpa',
    #: 'subgoal')
    takes: Tuple[str, ...]   #: the attachments it can be given
    work: str             #: what Search.step charges against a budget
    id: int               #: the astar_method value


def _method_info(t: tuple) -> MethodInfo:
    mid, name, summary, flags, needs, takes, work = t
    def bits(mask: int) -> Tuple[str, ...]:
        return tuple(n for i, n in enumerate(_ATTACH) if mask & (1 << i))

    return MethodInfo._make((name, summary, *(bool(flags & _MF[k]) for k in (
        "optimal", "bounded", "sliced", "grid", "space", "any_angle", "terrain", "vec",
        "mesh")),
        bits(needs), bits(takes), work, mid))


_METHOD_TABLE = tuple(_method_info(t) for t in _core.methods())
_METHOD_BY_NAME = {m.name: m for m in _METHOD_TABLE}


def methods() -> Tuple[MethodInfo, ...]:
    """Every search method of the library, from its method table
    (``astar_method_info_of``), in ``astar_method`` order."""
    return _METHOD_TABLE


def _method_name(method: Any) -> str:
    if isinstance(method, MethodInfo):
        return method.name
    return _choice("method", method, _METHOD_BY_NAME, _ALGO_ALIASES)


# The library's sentences name C fields; the package's keywords instead.
_PYTHONIC = [(re.compile(r"cfg\.engine\.(\w+)"), r"\1="), (re.compile(r"options\.(\w+)"), r"\1="),
             (re.compile(r"\bengine\.(\w+)"), r"\1="),
             (re.compile(r"cfg\.(\w+)"), r"\1="),
             (re.compile(r"leave heuristic= at ASTAR_H_AUTO"), "leave heuristic='auto'"),
             (re.compile(r"ASTAR_H_AUTO"), "'auto'"), (re.compile(r"ASTAR_TIE_CROSS"), "tie='cross'"),
             (re.compile(r"ASTAR_H_CALLBACK"), "a callable heuristic"),
             (re.compile(r"\(astar_jps_plus_new\)"), "(JpsPlus(grid))"),
             (re.compile(r"\(astar_cpd_build\)"), "(Cpd(grid))"),
             (re.compile(r"\(astar_hpa_new\)"), "(Hpa(grid))"),
             (re.compile(r"\(make the finder with astar_finder_new_subgoal\)"),
              "(Finder(grid, 'subgoal', subgoal=Subgoal(grid)))"),
             (re.compile(r"\(astar_clearance_new\)"), "(Clearance(grid))"),
             (re.compile(r"\(astar_finder_new_mesh\)"), "(Finder(mesh, ...))")]


def _pythonic(reason: Optional[str]) -> Optional[str]:
    if reason is None:
        return None
    for pattern, repl in _PYTHONIC:
        reason = pattern.sub(repl, reason)
    return reason


def _rules(opts: "Options") -> "Options":
    """The movement rules of ``opts`` alone (what a precomputation holds)."""
    return Options(moves=opts.moves, corner=opts.corner, straight_cost=opts.straight_cost,
                   diagonal_cost=opts.diagonal_cost)


_P = TypeVar("_P", bound="_Prep")


class _Prep(_core.Prep):
    _KIND = -1

    def __repr__(self) -> str:
        state = "current" if self.current else "stale"
        return f"<{type(self).__name__} of {self.grid!r}, {self.memory} bytes, {state}>"

    def save(self, path: Any = None) -> bytes:
        """The precomputation as bytes (the library's portable format:
        ``astar_cpd_save``, ``astar_hpa_save``, ``astar_landmarks_save``);
        also written to ``path`` when given. A Clearance has no file format
        (UnsupportedError): build it again."""
        data = _core.prep_save(self)
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data

    @classmethod
    def load(cls: Type[_P], grid: Grid, source: Any, *, options: Optional[Options] = None,
             moves: int = _UNSET, corner: str = _UNSET,
             straight_cost: float = _UNSET, diagonal_cost: float = _UNSET) -> _P:
        """Load bytes made by :meth:`save` (bytes, or a file path) for
        ``grid``, checked against it: MismatchError for bytes saved for
        another grid (size, cells, terrain) or other movement rules (moves,
        corner, straight_cost, diagonal_cost as in :class:`Options`; none
        given: those the bytes record), ParseError for damaged bytes."""
        rules = _given((moves, corner, straight_cost, diagonal_cost), RULE_NAMES)
        if isinstance(source, (bytes, bytearray, memoryview)):
            data, name = bytes(source), "<bytes>"
        else:
            with open(source, "rb") as f:
                data, name = f.read(), os.fspath(source)
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        opts = None if options is None and not rules else _options(options, rules)._tuple
        try:
            return _core.prep_load(cls, cls._KIND, grid, opts, data)
        except ParseError as e:
            raise _named(e, str(name)) from None

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_load_prep, (type(self), self.grid, self.save()))


def _load_prep(cls: Any, grid: Grid, data: bytes) -> Any:
    return cls.load(grid, data)


class Cpd(_Prep):
    """A compressed path database of a grid (``astar/cpd.h``): the optimal first
    move from every cell to every cell, for ``method='cpd'``. ``Cpd(grid,
    **rules)``: the movement rules (moves, corner, straight_cost,
    diagonal_cost) as in :class:`Options`. Building costs one search per
    passable cell (seconds on a 512 x 512 map), without the GIL. No terrain."""
    _KIND = 0

    def __new__(cls, grid: Grid, *, options: Optional[Options] = None,
                moves: int = _UNSET, corner: str = _UNSET,
                straight_cost: float = _UNSET, diagonal_cost: float = _UNSET) -> "Cpd":
        rules = _given(
            (moves, corner, straight_cost, diagonal_cost), RULE_NAMES)
        return super().__new__(cls, cls._KIND, grid, _options(options, rules)._tuple, 0, 0)


class Hpa(_Prep):
    """An HPA* hierarchy of a grid (``astar/hierarchy.h``) for ``method='hpa'``:
    ``Hpa(grid, cluster_size=16, levels=1, **rules)``. ``update()`` brings it
    up to the grid's edits in place."""
    _KIND = 1

    def __new__(cls, grid: Grid, *, cluster_size: int = 16, levels: int = 1,
                options: Optional[Options] = None,
                moves: int = _UNSET, corner: str = _UNSET,
                straight_cost: float = _UNSET, diagonal_cost: float = _UNSET) -> "Hpa":
        rules = _given(
            (moves, corner, straight_cost, diagonal_cost), RULE_NAMES)
        return super().__new__(cls, cls._KIND, grid, _options(options, rules)._tuple,
                               _integer(cluster_size, "cluster_size", 4, 2**30),
                               _integer(levels, "levels", 1, 8))


class Landmarks(_Prep):
    """A landmark table of a grid (``astar/landmarks.h``): the ALT heuristic
    for A* and the engine's methods, ``Landmarks(grid, count=4, **rules)``."""
    _KIND = 2

    def __new__(cls, grid: Grid, count: int = 4, *, options: Optional[Options] = None,
                moves: int = _UNSET, corner: str = _UNSET,
                straight_cost: float = _UNSET, diagonal_cost: float = _UNSET) -> "Landmarks":
        rules = _given(
            (moves, corner, straight_cost, diagonal_cost), RULE_NAMES)
        return super().__new__(cls, cls._KIND, grid, _options(options, rules)._tuple,
                               _integer(count, "count", 1, 2**31 - 1), 0)


class Clearance(_Prep):
    """The clearance of every cell of a grid (``astar/clearance.h``): what
    units bigger than one cell need (``Finder(..., unit_size=2)`` makes one
    itself when none is given). ``max_size``: the largest unit side."""
    _KIND = 3
    max_size: int   #: the largest unit side it answers for

    def __new__(cls, grid: Grid, max_size: int = 8) -> "Clearance":
        self = super().__new__(cls, cls._KIND, grid, Options()._tuple,
                               _integer(max_size, "max_size", 1, 255), 0)
        self.max_size = max_size
        return self

    def __reduce__(self) -> Tuple[Any, ...]:
        # No file format: a pickle builds it again for the grid.
        return (type(self), (self.grid, self.max_size))


class Subgoal(_Prep):
    """A subgoal graph of a grid (``astar/subgoal.h``) for ``method='subgoal'``:
    A* over precomputed obstacle corners, optimal paths. ``Subgoal(grid,
    levels=0, **rules)``: ``levels`` 1 the simple graph, 2 two-level, N at most
    N levels, 0 N-level (rounds until one lowers under 1 % of the top
    subgoals). 8 moves, no corner cutting, no terrain, straight_cost <=
    diagonal_cost < 2 * straight_cost. Built without the GIL; stale after an
    edit of the grid (build it again)."""
    _KIND = 4

    def __new__(cls, grid: Grid, *, levels: int = 0, options: Optional[Options] = None,
                moves: int = _UNSET, corner: str = _UNSET,
                straight_cost: float = _UNSET, diagonal_cost: float = _UNSET) -> "Subgoal":
        rules = _given(
            (moves, corner, straight_cost, diagonal_cost), RULE_NAMES)
        return super().__new__(cls, cls._KIND, grid, _options(options, rules)._tuple,
                               _integer(levels, "levels", 0, 64), 0)


_PREP_TYPES = {"cpd": Cpd, "hpa": Hpa, "landmarks": Landmarks, "clearance": Clearance,
               "subgoal": Subgoal}


def _unsupported(detail: Optional[str]) -> AstarError:
    p = Path(_NO_CELLS, 0.0, Status.UNSUPPORTED, Status.UNSUPPORTED, None, 0, 0, 0, 0)
    return _error(int(Status.UNSUPPORTED), detail, path=p)


#: What a :class:`Finder` searches: a square grid, a hex grid, a graph, callbacks,
#: or a navigation mesh (a :class:`mesh.Mesh`, or a :class:`mesh.NavMesh`'s).
Space = Union["Grid", "HexGrid", "Graph", "CallbackSpace", "Mesh", "NavMesh"]


class Finder:
    """A prepared query (``astar/finder.h``): one method, one grid, the options
    and what the method is prepared from, checked once; every search
    afterwards runs without checking again.

        finder = libastar.Finder(grid, "jps-plus", jps_plus=table, smooth=True)
        path = finder.find((0, 0), (15, 0))          # a Path, whatever the method

    ``method``: a name of :func:`methods` ('astar', 'dijkstra', 'jps',
    'jps-plus', 'cpd', 'hpa', 'subgoal', 'theta', 'lazy-theta', 'anya', 'greedy',
    'bidir', 'ida', 'beam', 'dynamic', 'bandwidth', 'f2f', 'retarget'). Keywords are
    :class:`Options` (or pass ``options=``), and:

    jps_plus, cpd, hpa,  the method's precomputation (:class:`JpsPlus`, :class:`Cpd`,
    subgoal              :class:`Hpa`, :class:`Subgoal`); built here for the grid
                         when not given
    landmarks            a :class:`Landmarks` table, or a count (built here): the
                         heuristic of astar and the engine's methods
    waypoints            a :class:`Waypoints` graph: the engine's methods search it
                         (any-angle paths of its waypoints)
    table                a :class:`WaypointTable`: the waypoint-table heuristic of astar
    smooth               string-pull the path (terrain honoured; Path.grid_cost: before)
    unit_size            a unit of k x k cells: the path of its top-left cell
                         (``clearance``: a :class:`Clearance`, built here when not given)
    knowledge            a :class:`Knowledge`: plan on what a player knows (fog of war)
    layers               :class:`Layer` objects or (layer, weight) pairs: extra costs

    What the method cannot honour raises :class:`UnsupportedError` here, its
    ``detail`` the library's sentence naming the option. Read-only once made:
    threads search with one finder at once. After the grid changes, a
    finder with attachments raises StaleError until :meth:`refresh`.
    """

    _grid: Grid          # a space finder: its space (see _space)
    _options: Options    # a space finder: None (the engine tuple holds its settings)
    _smooth: bool
    _unit_size: int
    _c: Any              # _core.Finder, or _core.SpaceFinder for a space finder

    def __init__(self, grid: Space, method: Any = "astar", *, options: Optional[Options] = None,
                 jps_plus: Optional[JpsPlus] = None, cpd: Optional[Cpd] = None,
                 hpa: Optional[Hpa] = None, landmarks: Any = None,
                 waypoints: Optional["Waypoints"] = None, clearance: Optional[Clearance] = None,
                 smooth: bool = False, unit_size: int = 1,
                 table: Optional["WaypointTable"] = None,
                 knowledge: Optional["Knowledge"] = None, layers: "LayersArg" = None,
                 subgoal: Optional[Subgoal] = None,
                 space: str = _UNSET, moves: int = _UNSET,
                 corner: str = _UNSET, straight_cost: float = _UNSET,
                 diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                 weight: float = _UNSET, tie: str = _UNSET,
                 reopen: str = _UNSET, max_expansions: int = _UNSET,
                 open_set: str = _UNSET, partial: bool = _UNSET,
                 terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
                 heuristic_floor: float = _UNSET,
                 observer: Optional[Callable[[Event], Any]] = _UNSET,
                 beam_width: int = _UNSET, epsilon: float = _UNSET,
                 band_e: float = _UNSET, band_d: float = _UNSET,
                 retarget_interval: int = _UNSET,
                 ida_transpositions: bool = _UNSET) -> None:
        kw = _given(
            (space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions), OPTION_NAMES[1:])
        if subgoal is not None and not isinstance(grid, _core.Grid):
            raise _unsupported("subgoal: a subgoal graph belongs to a square grid (a Grid)")
        if isinstance(grid, (_core.Mesh, _core.NavMesh)):
            self._smooth, self._unit_size = False, 1
            if knowledge is not None or layers:
                raise _unsupported("knowledge and layers: fog of war and influence layers are "
                                   "the square grid's (a Grid)")
            mesh._mesh_finder(self, grid, _method_name(method), kw, dict(
                options=options, jps_plus=jps_plus, cpd=cpd, hpa=hpa, landmarks=landmarks,
                waypoints=waypoints, clearance=clearance, smooth=smooth, unit_size=unit_size,
                table=table))
            self._smooth, self._unit_size = False, 1
            return
        if not isinstance(grid, _core.Grid):
            if _space_kind(grid) is None:
                raise TypeError("grid: a Grid, HexGrid, Graph, CallbackSpace, Mesh or NavMesh "
                                f"expected, got {type(grid).__name__}")
            if knowledge is not None or layers:
                raise _unsupported("knowledge and layers: fog of war and influence layers are "
                                   "the square grid's (a Grid)")
            _space_finder(self, grid, _method_name(method), kw, dict(
                options=options, jps_plus=jps_plus, cpd=cpd, hpa=hpa, landmarks=landmarks,
                waypoints=waypoints, clearance=clearance, smooth=smooth, unit_size=unit_size,
                table=table))
            self._smooth, self._unit_size = False, 1
            return
        name = _method_name(method)
        self._grid = grid
        self._overlay = _fog._overlay(grid, knowledge, layers)
        self._info = _METHOD_BY_NAME[name]
        self._options = _options(options, dict(kw, algo=name))
        self._smooth = _flag(smooth, "smooth")
        self._unit_size = _integer(unit_size, "unit_size", 1, 255)
        self._owned: set = set()   # attachments built here (refresh() rebuilds them)
        self._built: dict = {}     # their grid version
        self._lm_count = 4
        att = {"jps_plus": jps_plus, "cpd": cpd, "hpa": hpa, "landmarks": landmarks,
               "waypoints": waypoints, "clearance": clearance, "table": table,
               "subgoal": subgoal}
        for key, kind in (("jps_plus", JpsPlus), ("cpd", Cpd), ("hpa", Hpa),
                          ("landmarks", Landmarks), ("waypoints", Waypoints),
                          ("clearance", Clearance), ("table", WaypointTable),
                          ("subgoal", Subgoal)):
            v = att[key]
            if v is None or isinstance(v, kind) or (key == "landmarks" and not isinstance(
                    v, (bool, np.bool_)) and isinstance(v, (int, np.integer))):
                continue
            raise TypeError(f"{key}: a {kind.__name__} expected, got {type(v).__name__}")
        if isinstance(att["landmarks"], (int, np.integer)):
            self._lm_count = _integer(att["landmarks"], "landmarks", 1, 2**31 - 1)
            att["landmarks"] = self._build("landmarks", self._lm_count)
        if self._options.space != "graph":
            for need in self._info.needs:
                if att[need] is None:
                    att[need] = self._build(need)
            if self._unit_size > 1 and att["clearance"] is None:
                att["clearance"] = self._build("clearance")
        self._att = att
        self._make()

    def _build(self, key: str, count: int = 4) -> Any:
        self._owned.add(key)
        self._built[key] = self._grid.version
        if key == "jps_plus":
            return JpsPlus(self._grid)
        if key == "landmarks":
            return Landmarks(self._grid, count, options=_rules(self._options))
        if key == "clearance":
            return Clearance(self._grid, max(8, self._unit_size))
        return _PREP_TYPES[key](self._grid, options=_rules(self._options))

    def _args(self) -> tuple:
        a = self._att
        return (self._grid, self._info.id, self._options._tuple,
                (a["jps_plus"], a["cpd"], a["hpa"], a["landmarks"], a["waypoints"],
                 a["clearance"], a["table"], self._overlay, a["subgoal"]), self._smooth, self._unit_size, self._options.space == "graph")

    def _make(self) -> None:
        why = _core.finder_reason(*self._args())
        if why is not None:
            raise _unsupported(_pythonic(why))
        self._c = _core.Finder(*self._args())

    # -- what it is
    @property
    def method(self) -> str:
        return self._info.name

    @property
    def info(self) -> MethodInfo:
        """The method's row of :func:`methods`."""
        return self._info

    @property
    def grid(self) -> Space:
        """What the finder searches: its Grid, or the HexGrid, Graph or CallbackSpace."""
        return self._grid

    @property
    def options(self) -> Options:
        return self._options

    @property
    def attachments(self) -> dict:
        """What the finder was prepared from (name -> object), built here or given."""
        return {k: v for k, v in self._att.items() if v is not None}

    def __repr__(self) -> str:
        extra = "".join(f", {k}" for k in self.attachments)
        extra += ", smooth" if self._smooth else ""
        extra += f", unit {self._unit_size}" if self._unit_size > 1 else ""
        return f"<Finder {self.method} on {self._grid!r}{extra}>"

    # -- searching
    _space: Any = None   # the HexGrid, Graph or CallbackSpace of a space finder
    _mesh: Any = None    # the Mesh of a mesh finder (Finder(mesh, 'polyanya'))
    threads_used: int = 0  #: workers the last find_many ran on

    def find(self, start: NodeLike, goal: NodeLike, *, workspace: Optional[Workspace] = None,
             order: Optional[str] = None) -> Path:
        """The path from ``start`` to ``goal`` as a :class:`Path` (for Anya its
        ``points``; on a Graph or CallbackSpace a :class:`NodePath`, start and
        goal nodes); raises as :meth:`Grid.find_path`. ``order``: 'xy' or
        'rc' (default: the grid's :attr:`Grid.order`; grids only)."""
        if self._mesh is not None:
            if order is not None:
                raise TypeError("order: a mesh finder's points are (x, y)")
            return mesh._mesh_find(self, start, goal, workspace)
        if self._space is not None:
            _no_order(self._space, order)
            return _space_outcome(self._space, self._c.find(
                workspace or _workspace(), _node_in(self._space, start, "start"),
                _node_in(self._space, goal, "goal")))
        g = self._grid
        return _path_out(g, _outcome(self._c.find(
            workspace or _workspace(), _point_in(g, start, order, "start"),
            _point_in(g, goal, order, "goal"))), order)

    @overload
    def find_many(self, starts: Any, goals: Any, *, threads: Optional[int] = None,
                  costs_only: Literal[False] = False, batch: Optional["Batch"] = None,
                  order: Optional[str] = None) -> List[Path]: ...

    @overload
    def find_many(self, starts: Any, goals: Any, *, threads: Optional[int] = None,
                  costs_only: Literal[True], batch: Optional["Batch"] = None,
                  order: Optional[str] = None) -> np.ndarray: ...

    @overload
    def find_many(self, starts: Any, goals: Any, *, threads: Optional[int] = None,
                  costs_only: bool, batch: Optional["Batch"] = None,
                  order: Optional[str] = None) -> Union[List[Path], np.ndarray]: ...

    def find_many(self, starts: Any, goals: Any, *, threads: Optional[int] = None,
                  costs_only: bool = False, batch: Optional["Batch"] = None,
                  order: Optional[str] = None) -> Union[List[Path], np.ndarray]:
        """Many queries at once on worker threads (``astar_batch_find``), the
        GIL released for the whole batch: query i goes from ``starts[i]`` to
        ``goals[i]`` ((N, 2) arrays or sequences of cells; on a Graph, nodes).
        On a Grid the cells, in and out, are in ``order`` ('xy' or 'rc'; None:
        the grid's :attr:`Grid.order`), as :meth:`find` reads and gives them.
        Returns the list of their :class:`Path` in query order, each exactly
        what :meth:`find` gives for it alone (a query without a path gives its
        Path with that ``status`` -- falsy -- instead of raising), or with
        ``costs_only=True`` a float64 array of the costs (inf where no path
        reached the goal). ``threads``: workers (None: one per processor);
        ``batch``: a :class:`Batch` of your own (its workspaces) instead of
        the one kept for the calling thread. A finder calling Python (a
        heuristic, an observer, a CallbackSpace) runs on one thread.
        ``finder.threads_used``: the workers the last batch ran on. A mesh
        finder runs its queries one after another on the calling thread (each
        without the GIL), starts and goals (N, 2) points."""
        if self._mesh is not None:
            return mesh._mesh_find_many(self, starts, goals, costs_only, order)
        return _find_many(self, starts, goals, threads, costs_only, batch, order)

    def begin(self, start: NodeLike, goal: NodeLike, *,
              workspace: Optional[Workspace] = None, order: Optional[str] = None) -> "Search":
        """A sliced search (the game loop): ``search.step(budget)`` until it is
        done, then ``search.finish()``. Methods the table marks ``sliced``
        resume between steps; the others run whole in the first step, which
        reports all their work. The search has a workspace of its own unless
        given one (taken until finish or cancel). ``order``: as :meth:`find`
        (a mesh finder's start and goal are (x, y) points)."""
        return Search(self, start, goal, workspace, order)

    def refresh(self) -> None:
        """After the grid changed: bring the attachments the finder built
        itself up to date (HPA* and clearance in place, the others built
        again) and prepare again. An attachment you gave that is out of date
        raises StaleError naming it: update or rebuild it and pass it again
        (make a new Finder)."""
        if self._space is not None or self._mesh is not None:
            return   # a space or mesh finder has no attachments: it follows its space or mesh
        for key, obj in list(self._att.items()):
            if obj is None:
                continue
            if key in self._owned:
                if self._built.get(key) == self._grid.version:
                    continue
                if isinstance(obj, _Prep) and obj.update():
                    self._built[key] = self._grid.version
                    continue
                self._att[key] = self._build(key, self._lm_count)
            elif isinstance(obj, (_Prep, WaypointTable)) and not obj.current:
                raise StaleError(Status.STALE, f"{key}: built before the grid's last change; "
                                 "update() or build it again, and make a new Finder with it")
        self._make()


class Search:
    """A sliced search of a :class:`Finder` (``finder.begin(start, goal)``).

        search = finder.begin((0, 0), (15, 0))
        while not search.step(500):      # at most about 500 units of work a frame
            pass
        path = search.finish()

    ``step(budget)`` returns True once the search ended (``budget`` 0: no
    limit), ``work`` adds up what the steps reported (``info.work``), ``status``
    the outcome so far. The grid may change between steps: the search then
    ends with StaleError. ``cancel()`` abandons it."""

    def __init__(self, finder: Finder, start: NodeLike, goal: NodeLike,
                 workspace: Optional[Workspace] = None, order: Optional[str] = None) -> None:
        self._finder = finder
        self._c = finder._c
        s: Any
        g: Any
        self._order: Optional[str]
        if finder._mesh is not None:
            if order is not None:
                raise TypeError("order: a mesh finder's points are (x, y)")
            self._order = None
            s = mesh._point(start, "start")
            g = mesh._point(goal, "goal")
        else:
            self._order = _order_of(finder.grid, order)
        if finder._mesh is not None:
            pass
        elif finder._space is not None:
            _no_order(finder._space, order)
            s = _node_in(finder._space, start, "start")
            g = _node_in(finder._space, goal, "goal")
        else:
            s = _point_in(finder.grid, start, order, "start")
            g = _point_in(finder.grid, goal, order, "goal")
        self._ws = workspace if workspace is not None else Workspace()
        self.work = 0
        self.steps = 0
        st = Status(self._c.begin(self._ws, s, g))
        self._open = True
        self.status = Status.IN_PROGRESS if st == Status.OK else st

    @property
    def done(self) -> bool:
        return self.status != Status.IN_PROGRESS

    def step(self, budget: int = 0) -> bool:
        """At most about ``budget`` units of the method's work; True when done."""
        budget = _integer(budget, "budget", 0, _U64)
        if not self._open:
            raise RuntimeError("the search was finished or cancelled")
        if self.done:
            return True
        st, work = self._c.step(self._ws, budget)
        self.work += work
        self.steps += 1
        self.status = Status(st)
        return self.done

    def finish(self) -> Path:
        """The path (a :class:`Path`, as ``finder.find`` gives it), or the
        outcome's exception; RuntimeError before the search is done."""
        if not self._open:
            raise RuntimeError("the search was finished or cancelled")
        if not self.done:
            raise RuntimeError("the search is not done: step() until it returns True")
        t = self._c.finish(self._ws)
        self._open = False
        if self._finder._mesh is not None:
            return mesh._mesh_outcome(t)
        if self._finder._space is not None:
            return _space_outcome(self._finder._space, t)
        return _path_out(self._finder.grid, _outcome(t), self._order)

    def cancel(self) -> None:
        if self._open:
            self._c.cancel(self._ws)
            self._open = False

    def __del__(self) -> None:
        try:
            self.cancel()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def __repr__(self) -> str:
        return f"<Search {self._finder.method} {self.status.name}, {self.steps} steps>"


class ScenQuery(NamedTuple):
    """One query of a Moving AI ``.scen`` file."""
    bucket: int
    map: str
    map_width: int
    map_height: int
    start: Point
    goal: Point
    optimal_length: float
    line: int


class Scenario(list):
    """The queries of a ``.scen`` file (a list of :class:`ScenQuery`);
    ``version`` is the file's version (1.0)."""

    version: float = 1.0
    filename: Optional[str] = None


def load_scen(source: Any) -> Scenario:
    """Parse a Moving AI ``.scen`` (a path, or the text itself)."""
    text, filename = _source(source)
    try:
        version, rows = _core.parse_scen(text)
    except AstarError as e:
        raise _named(e, filename) from None
    scen = Scenario(ScenQuery(b, m, w, h, (sx, sy), (gx, gy), opt, line)
                    for b, m, w, h, sx, sy, gx, gy, opt, line in rows)
    scen.version = version
    scen.filename = filename
    return scen


# ---- the request queue ----------------------------------------------------------------------

class Frame(NamedTuple):
    """What one :meth:`Queue.update` did."""
    expanded: int    #: expansions spent (<= budget)
    finished: int    #: results delivered
    pending: int     #: requests still pending
    restarted: int   #: searches restarted because the grid changed
    path_held: bool  #: always False here (every path is copied when delivered)


class Outcome:
    """How a queued request ended: ``id``, ``user`` (what was submitted with
    it), ``status`` (what find_path's status would be: OK, NO_PATH, ...),
    ``path`` (a :class:`Path`, no cells when none), ``grid_version`` (the grid
    version it was computed on) and ``restarts``."""

    __slots__ = ("id", "user", "status", "path", "grid_version", "restarts")

    def __init__(self, id: int, user: Any, status: Status, path: Path, grid_version: int,
                 restarts: int):
        self.id = id
        self.user = user
        self.status = status
        self.path = path
        self.grid_version = grid_version
        self.restarts = restarts

    @property
    def ok(self) -> bool:
        """True when a full path was found."""
        return self.status == Status.OK

    def error(self) -> Optional[AstarError]:
        """The exception find_path would raise for this outcome (None when OK/PARTIAL)."""
        if self.status in (Status.OK, Status.PARTIAL):
            return None
        return _error(self.status, path=self.path)

    def __repr__(self) -> str:
        return f"<Outcome #{self.id} {self.status.name} {self.path!r}>"


class Queue:
    """The path-request queue: many agents' requests spread over frames under a
    budget of expansions per :meth:`update` (``astar/queue.h``).

    ``Queue(grid, capacity=64)``; ``rid = q.submit(start, goal, callback=fn,
    user=unit, priority=0, **options)``; every frame ``q.update(budget)``
    runs searches (without the GIL) and calls each finished request's
    callback with an :class:`Outcome` (in the thread calling update, with the
    GIL). ``q.outcome(rid)`` gives it too until ``q.release(rid)`` frees the
    request's entry (``auto_release=True`` releases after delivery). The grid
    may be edited between updates or from callbacks; running requests then
    restart (see ``astar/queue.h``). ``callback`` on the queue receives every
    outcome, after the request's own.
    """

    def __init__(self, grid: Grid, capacity: int = 64, *, path_capacity: int = 256,
                 auto_release: bool = False, callback: Optional[Callable[[Outcome], Any]] = None,
                 max_unit: int = 4):
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        self._q = _core.Queue(grid, capacity, self._sink)  # capacity in [1, 2^24]
        self.max_unit = _integer(max_unit, "max_unit", 1, 255)
        if self.max_unit != 4:  # astar_queue_set_units; 4 is the queue's own default
            self._q.set_units(self.max_unit)
        self._requests: dict = {}   # id -> (callback, user)
        self._outcomes: dict = {}   # id -> Outcome
        self._orders: dict = {}     # id -> the order of its start, goal and path
        self.path_capacity = _integer(path_capacity, "path_capacity", 1, _core.GRID_MAX_CELLS)
        self.auto_release = _flag(auto_release, "auto_release")
        self.callback = callback
        self.capacity = operator.index(capacity)  # checked by _core.Queue

    @property
    def grid(self) -> Grid:
        return self._q.grid

    @property
    def pending(self) -> int:
        """Requests queued or running, or answered but not yet delivered."""
        return self._q.pending

    def submit(self, start: CellLike, goal: CellLike, *, priority: int = 0,
               callback: Optional[Callable[[Outcome], Any]] = None, user: Any = None,
               options: Optional[Options] = None, method: Any = None,
               finder: Optional["Finder"] = None, unit_size: int = 1, smooth: bool = False,
               order: Optional[str] = None,
               algo: str = _UNSET, space: str = _UNSET,
               moves: int = _UNSET, corner: str = _UNSET,
               straight_cost: float = _UNSET, diagonal_cost: float = _UNSET,
               heuristic: Heuristic = _UNSET, weight: float = _UNSET,
               tie: str = _UNSET, reopen: str = _UNSET,
               max_expansions: int = _UNSET, open_set: str = _UNSET,
               partial: bool = _UNSET, terrain_scale: float = _UNSET,
               turn_penalty: float = _UNSET, heuristic_floor: float = _UNSET,
               observer: Optional[Callable[[Event], Any]] = _UNSET,
               beam_width: int = _UNSET, epsilon: float = _UNSET,
               band_e: float = _UNSET, band_d: float = _UNSET,
               retarget_interval: int = _UNSET,
               ida_transpositions: bool = _UNSET) -> int:
        """Queue a request; returns its id. Options as for find_path (no
        Python heuristic or observer). Any method: ``method=`` (or ``algo=``)
        names one the queue prepares itself (A*, Dijkstra, JPS, Theta*, Lazy
        Theta*, the engine's methods), ``unit_size`` (1 .. ``max_unit``) a k x
        k unit, ``smooth`` string pulling; or ``finder=`` a :class:`Finder`
        of this grid (any method and what it was prepared from -- JPS+, CPD,
        HPA*, landmarks, waypoints -- its unit and smoothing; then no other
        option). Anya's paths are points: not queued. ``order``: of
        ``start``, ``goal`` and the outcome's path, as for find_path
        (default: the grid's). Raises QueueFullError, UnsupportedError
        (``detail`` says why)."""
        kw = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        o = _order_of(self.grid, order)
        s = _point_in(self.grid, start, order, "start")
        g = _point_in(self.grid, goal, order, "goal")
        if finder is not None:
            if not isinstance(finder, Finder):
                raise TypeError(f"finder: a Finder expected, got {type(finder).__name__}")
            if options is not None or kw or method is not None or unit_size != 1 or smooth:
                raise InvalidArgumentError(
                    Status.INVALID_ARGUMENT, "finder: the finder's own options, method, unit "
                    "and smoothing rule (give no other option)")
            rid = self._q.submit(s, g, priority, None, self.path_capacity, 0, 1, False,
                                 finder._c)
            self._requests[rid] = (callback, user)
            self._orders[rid] = o
            return rid
        if method is not None:
            kw["algo"] = _method_name(method)
        opts = _options(options, kw)
        if opts.space == "graph":
            raise _unsupported("space='graph': the queue searches its grid (a Finder of "
                               "another space cannot be queued)")
        if _METHOD_BY_NAME[opts.algo].needs:
            raise _unsupported(f"{opts.algo} needs its precomputation: queue a Finder prepared "
                               f"with it (finder=Finder(grid, {opts.algo!r}))")
        try:
            rid = self._q.submit(s, g, priority, opts._tuple, self.path_capacity, opts._method,
                                 _integer(unit_size, "unit_size", 1, 255),
                                 _flag(smooth, "smooth"), None)
        except UnsupportedError as e:
            raise _unsupported(_pythonic(e.detail) or e.message) from None
        self._requests[rid] = (callback, user)
        self._orders[rid] = o
        return rid

    def update(self, budget: int) -> Frame:
        """Deliver answered requests, then spend at most ``budget`` (>= 1)
        expansions. An exception raised by a callback ends the update and
        propagates (after the C update returns)."""
        return Frame(*self._q.update(budget))

    def run(self, budget: int = 10_000, max_updates: Optional[int] = None) -> int:
        """Update until nothing is pending (at most ``max_updates`` times,
        None: no limit); returns the number of updates."""
        budget = _integer(budget, "budget", 1, _U64)
        if max_updates is not None:
            max_updates = _integer(max_updates, "max_updates", 0, _U64)
        n = 0
        while self.pending and (max_updates is None or n < max_updates):
            self.update(budget)
            n += 1
        return n

    def _sink(self, rid: int, t: tuple, grid_version: int, restarts: int) -> None:
        callback, user = self._requests.get(rid, (None, None))
        p = _path_out(self.grid, _path(t), self._orders.get(rid))
        outcome = Outcome(rid, user, p.status, p, grid_version, restarts)
        self._outcomes[rid] = outcome
        try:
            if callback is not None:
                callback(outcome)
            if self.callback is not None:
                self.callback(outcome)
        finally:
            if self.auto_release:
                self.release(rid)

    def poll(self, rid: int) -> str:
        """'queued', 'running', 'done', 'cancelled' or 'unknown'."""
        return self._q.poll(rid)[0]

    def outcome(self, rid: int) -> Optional[Outcome]:
        """The outcome of a delivered request (None before, or once released)."""
        return self._outcomes.get(rid)

    def cancel(self, rid: int) -> None:
        """Cancel a queued or running request (no callback)."""
        self._q.cancel(rid)

    def release(self, rid: int) -> None:
        """Forget a done or cancelled request, freeing its entry."""
        self._q.release(rid)
        self._requests.pop(rid, None)
        self._orders.pop(rid, None)
        self._outcomes.pop(rid, None)

    def set_restarts(self, n: int) -> None:
        """Restarts of a running request whose grid changed before it ends STALE."""
        self._q.set_restarts(n)

    def reserve_turns(self) -> None:
        """Allow requests with ``turn_penalty > 0``."""
        self._q.reserve_turns()

    def __len__(self) -> int:
        return self.pending

    def __repr__(self) -> str:
        return f"<Queue {self.pending} pending, capacity {self.capacity}>"


# ---- hex grids -------------------------------------------------------------------------------

_HEX_LAYOUTS = {"pointy": {"odd": False, "odd-r": False, "even": True, "even-r": True},
                "flat": {"odd": False, "odd-q": False, "even": True, "even-q": True}}


class HexGrid(_core.HexGrid):
    """A hex grid (``astar/hex.h``) in offset coordinates (x column, y row).

    ``HexGrid(width, height, orientation='pointy'|'flat', layout='odd'|'even')``
    (``odd-r``, ``even-r`` for pointy, ``odd-q``, ``even-q`` for flat).
    Entering a cell costs its terrain (1 unless set).
    """

    start: Optional[Point] = None
    goal: Optional[Point] = None

    def __init__(self, width: int, height: int, orientation: str = "pointy",
                 layout: str = "odd"):
        o = _choice("orientation", orientation, _HEX_LAYOUTS)
        even = _HEX_LAYOUTS[o].get(str(layout).lower())
        if even is None:
            raise InvalidArgumentError(
                Status.INVALID_ARGUMENT,
                f"layout: expected one of {'|'.join(_HEX_LAYOUTS[o])} for {o} hexagons, "
                f"got {layout!r}")
        super().__init__(width, height, o == "flat", even)

    @property
    def orientation(self) -> str:
        return "flat" if self.flat else "pointy"

    @property
    def layout(self) -> str:
        return ("even-" if self.even else "odd-") + ("q" if self.flat else "r")

    @property
    def shape(self) -> Tuple[int, int]:
        return (self.height, self.width)

    @classmethod
    def load(cls, source: Any) -> "HexGrid":
        """An ASCII hex map (``hex pointy|flat [layout]`` header) from a path or text."""
        text, filename = _source(source)
        try:
            grid, start, goal = _core.parse_hex(cls, text)
        except AstarError as e:
            raise _named(e, filename) from None
        grid.start, grid.goal = start, goal
        return grid

    @classmethod
    def _from_arrays(cls, arrays: Tuple[np.ndarray, Optional[np.ndarray]], orientation: str,
                     layout: str) -> "HexGrid":
        passable, terrain = arrays
        h, w = passable.shape
        grid = cls(w, h, orientation, layout)
        grid._load(passable, terrain)
        return grid

    @classmethod
    def from_occupancy(cls, array: Any, *, threshold: int = _arrays.OCCUPIED_THRESHOLD,
                       unknown: str = "blocked", orientation: str = "pointy",
                       layout: str = "odd") -> "HexGrid":
        """As :meth:`Grid.from_occupancy` (ROS int8 0..100, -1 unknown)."""
        return cls._from_arrays(_arrays.occupancy(array, threshold, unknown), orientation,
                                layout)

    @classmethod
    def from_mask(cls, mask: Any, *, free: bool = True, orientation: str = "pointy",
                  layout: str = "odd") -> "HexGrid":
        """As :meth:`Grid.from_mask` (True = free unless ``free=False``)."""
        return cls._from_arrays(_arrays.mask(mask, free), orientation, layout)

    @classmethod
    def from_image(cls, image: Any, *, threshold: int = _arrays.DARK_THRESHOLD,
                   dark: str = "blocked", orientation: str = "pointy",
                   layout: str = "odd") -> "HexGrid":
        """As :meth:`Grid.from_image` (dark pixels blocked unless ``dark='free'``)."""
        return cls._from_arrays(_arrays.image(image, threshold, dark), orientation, layout)

    @classmethod
    def from_costs(cls, costs: Any, *, wall: str = "inf", orientation: str = "pointy",
                   layout: str = "odd") -> "HexGrid":
        """As :meth:`Grid.from_costs` (``wall='inf'`` or 'zero', said once)."""
        return cls._from_arrays(_arrays.costs(costs, wall), orientation, layout)

    @classmethod
    def from_numpy(cls, array: Any, orientation: str = "pointy",
                   layout: str = "odd") -> "HexGrid":
        """As :meth:`Grid.from_numpy`: bool passability or costs (0/inf/nan blocked)."""
        _arrays.check_numpy(array, "HexGrid.from_numpy")
        passable, terrain = _cost_arrays(array)
        h, w = passable.shape
        grid = cls(w, h, orientation, layout)
        grid._load(passable, terrain)
        return grid

    def to_numpy(self, costs: bool = False) -> np.ndarray:
        costs = _flag(costs, "costs")
        passable, terrain = self._export()
        p = np.frombuffer(passable, dtype=np.uint8).reshape(self.height, self.width).astype(bool)
        if not costs:
            return p
        c = np.frombuffer(terrain, dtype=np.float32).reshape(self.height, self.width).copy()
        c[~p] = np.inf
        return c

    def find_path(self, start: CellLike, goal: CellLike, *, algo: str = "astar", weight: float = 1.0,
                  tie: str = "larger-g", reopen: str = "auto", max_expansions: int = 0,
                  partial: bool = False, workspace: Optional[Workspace] = None,
                  beam_width: int = 1024, epsilon: float = 1.0,
                  band_e: float = 0.0, band_d: float = 0.0, retarget_interval: int = 32,
                  ida_transpositions: bool = True) -> Path:
        """The path (offset cells) by the search engine: ``algo`` 'astar',
        'dijkstra', 'greedy', 'bidir' or a variant ('ida', 'beam', 'dynamic',
        'bandwidth', 'f2f', 'retarget'; ``variant``: their settings
        ``beam_width``, ``epsilon``, ``band_e``, ``band_d``,
        ``retarget_interval``, ``ida_transpositions`` as in :class:`Options`).
        Raises as :meth:`Grid.find_path`."""
        variant: Dict[str, Any] = dict(
            beam_width=beam_width, epsilon=epsilon, band_e=band_e, band_d=band_d,
            retarget_interval=retarget_interval, ida_transpositions=ida_transpositions)
        t = _engine_tuple(algo, weight, tie, reopen, max_expansions, partial, variant)
        return _outcome(_core.hex_find(self, workspace or _workspace(),
                                       _point(start, "start"), _point(goal, "goal"), t))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild_hex, (type(self), self.to_numpy(costs=True), self.orientation,
                               self.layout, self.start, self.goal))

    def __repr__(self) -> str:
        return (f"<HexGrid {self.orientation} {self.layout} {self.width} x {self.height}, "
                f"{self.count_passable()} passable>")


def _rebuild_hex(cls: Any, costs: np.ndarray, orientation: str, layout: str,
                 start: Optional[Point], goal: Optional[Point]) -> "HexGrid":
    grid = cls.from_numpy(costs, orientation, layout)
    grid.start, grid.goal = start, goal
    return grid


# ---- graphs of your own: the engine over Python callbacks -------------------------------------

class GraphPath(NamedTuple):
    """A path found by :func:`find_graph_path`."""
    nodes: list       #: the nodes, start first
    cost: float
    status: Status    #: OK or PARTIAL
    expanded: int
    generated: int
    reopened: int
    max_open: int
    states: int       #: distinct nodes the search met
    dropped: int = 0     #: beam, bandwidth: open-list entries dropped
    iterations: int = 0  #: ida: bounds tried; retarget: legs run


def find_graph_path(start: Any, goal: Any, neighbors: Callable[[Any], Iterable[Tuple[Any, float]]],
                    *, heuristic: Optional[Callable[[Any, Any], float]] = None,
                    predecessors: Optional[Callable[[Any], Iterable[Tuple[Any, float]]]] = None,
                    algo: str = "astar", weight: float = 1.0, tie: str = "larger-g",
                    reopen: str = "auto", max_expansions: int = 0, partial: bool = False,
                    consistent: bool = False, max_states: int = 1 << 20, max_degree: int = 64,
                    workspace: Optional[Workspace] = None, beam_width: int = 1024,
                    epsilon: float = 1.0, band_e: float = 0.0, band_d: float = 0.0,
                    retarget_interval: int = 32, ida_transpositions: bool = True) -> GraphPath:
    """A path on a graph you describe in Python: nodes are any hashable
    values, ``neighbors(node)`` yields ``(node, cost)`` pairs (costs finite,
    >= 0, at most ``max_degree``), ``heuristic(node, goal)`` estimates the
    remaining cost (a finite number >= 0, else ValueError; None: 0, i.e.
    Dijkstra), ``predecessors`` lists the arcs
    into a node (needed by ``algo='bidir'``, 'f2f' and 'retarget').
    ``algo``: 'astar', 'dijkstra', 'greedy', 'bidir', 'ida' (IDA*: memory
    for the current path only; suits unit costs such as puzzles), 'beam',
    'dynamic', 'bandwidth', 'f2f', 'retarget' (``variant``: their settings
    as in :class:`Options`). ``consistent=True`` promises a
    consistent heuristic (fewer re-expansions). The library's engine runs the
    search (``astar/implicit.h``), calling back into Python for every node:
    it holds the GIL. ``max_states`` sizes the table of nodes a search may
    meet (CapacityError naming it when it fills up; a workspace keeps the
    largest table it was given); it and ``max_degree`` are in [1, 2^32 - 1].
    Raises as :meth:`Grid.find_path`; an exception in a callback propagates.
    """
    variant: Dict[str, Any] = dict(
        beam_width=beam_width, epsilon=epsilon, band_e=band_e, band_d=band_d,
        retarget_interval=retarget_interval, ida_transpositions=ida_transpositions)
    t = _engine_tuple(algo, weight, tie, reopen, max_expansions, partial, variant)
    max_states = _count("max_states", max_states)
    max_degree = _count("max_degree", max_degree)
    ids: dict = {}
    nodes: list = []

    def node_id(node: Any) -> int:
        i = ids.get(node)
        if i is None:
            i = ids[node] = len(nodes)
            nodes.append(node)
        return i

    def arcs(fn: Callable[[Any], Iterable[Tuple[Any, float]]]
             ) -> Callable[[int], List[Tuple[int, float]]]:
        def call(i: int) -> List[Tuple[int, float]]:
            return [(node_id(m), c) for m, c in fn(nodes[i])]
        return call

    h: Optional[Callable[[int, int], float]] = None
    if heuristic is not None:
        hf = heuristic

        def h(a: int, b: int) -> float:
            return hf(nodes[a], nodes[b])
    consistent = _flag(consistent, "consistent")
    flags = _core.SPACE_ADMISSIBLE | (_core.SPACE_CONSISTENT if consistent or heuristic is None
                                      else 0)
    s, g = node_id(start), node_id(goal)
    r = _core.implicit_find(workspace or _workspace(), s, g, arcs(neighbors),
                            arcs(predecessors) if predecessors is not None else None, h,
                            max_states, max_degree, flags, t)
    status = Status(r[0])
    path_nodes = ([nodes[i] for i in np.frombuffer(r[1], dtype=np.uint64).tolist()]
                  if r[1] is not None else [])
    result = GraphPath(path_nodes, r[2], status, r[3], r[4], r[5], r[6], r[9], r[10], r[11])
    if status in (Status.OK, Status.PARTIAL):
        return result
    if status == Status.CAPACITY:
        # The library's sentence speaks of a grid's workspace; here the
        # table of nodes filled up.
        raise _error(status, f"max_states={max_states} distinct nodes met before the search "
                     "ended: raise max_states (or bound the graph)",
                     {"message": "the graph search's table of nodes is full"})
    raise _error(status)


# ---- every space through the finder, many queries at once ------------------------------------
#
# Points go in through _node_in / _points_in and paths come out through
# _space_path / _batch_paths: the one place each where a coordinate order
# (row, col) or (x, y) would be applied.

class Batch(_core.Batch):
    """Worker threads for :meth:`Finder.find_many` (``astar/batch.h``):
    ``Batch(threads=0)`` (0: one per processor), each worker with a
    workspace of its own that grows to the largest grid searched and is
    freed with the Batch (``memory``: the bytes held). ``find_many`` keeps
    one per calling thread when none is given; pass your own to control
    that memory, one call at a time per Batch."""

    def __repr__(self) -> str:
        return f"<Batch {self.threads} threads, {self.memory} bytes>"


def _batch_for(threads: Any) -> Batch:
    """The calling thread's Batch of `threads` workers (None: one per processor)."""
    n = 0 if threads is None else _integer(threads, "threads", 1, 256)
    cache = getattr(_local, "batches", None)
    if cache is None:
        cache = _local.batches = {}
    b = cache.get(n)
    if b is None:
        cache.clear()   # one batch a thread: its workspaces are the memory it holds
        b = cache[n] = Batch(n)
    return b


def release_batches() -> None:
    """Drop the calling thread's Batch that :meth:`Finder.find_many` keeps
    (its workers' workspaces: about 38 bytes a cell of the largest grid
    searched, per worker)."""
    getattr(_local, "batches", {}).clear()


# Points of the path slot each query of a batch gets (0: chosen by the
# batch's size; a longer path runs again in a second batch). The tests set
# it small to run that second batch.
_BATCH_SLOT = 0
_BATCH_CHUNK = 1 << 16

_EDGE = np.dtype([("from", "<u4"), ("to", "<u4"), ("cost", "<f8")])


def _edge_array(tails: Any, heads: Any, costs: Any, n: int) -> np.ndarray:
    tails = np.asarray(tails)
    heads = np.asarray(heads)
    costs = np.asarray(costs, dtype=np.float64)
    for what, a in (("tails", tails), ("heads", heads)):
        if a.size and a.dtype.kind not in "iu":
            raise TypeError(f"{what}: integer node ids expected, got {a.dtype} values")
        if a.size and (a.min() < 0 or a.max() >= n):
            bad = int(a[(a < 0) | (a >= n)][0])
            raise InvalidArgumentError(Status.INVALID_ARGUMENT,
                                       f"{what}: node {bad} outside [0, {n - 1}]")
    bad = ~np.isfinite(costs) | (costs < 0) | (costs > 1e15)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise InvalidArgumentError(
            Status.INVALID_ARGUMENT,
            f"edge {i} ({int(tails[i])} -> {int(heads[i])}): cost {costs[i]!r}, expected a "
            "finite number in [0, 1e15]")
    e = np.empty(len(costs), dtype=_EDGE)
    e["from"], e["to"], e["cost"] = tails, heads, costs
    return e


class Graph(_core.Graph):
    """A static graph in compressed (CSR) form (``astar/graph.h``), searched
    by the engine's methods through :class:`Finder`:

        g = libastar.Graph.from_csr(matrix)               # SciPy sparse, directed
        g = libastar.Graph.from_networkx(nx_graph)        # node names kept
        path = libastar.Finder(g, "dijkstra").find(a, b)  # path.nodes, path.cost

    ``Graph(node_count, tails, heads, costs, *, directed=True, coords=None,
    names=None)``: arcs ``tails[i] -> heads[i]`` of cost ``costs[i]`` (finite,
    >= 0); ``directed=False``: every edge both ways. ``coords``: an
    (node_count, 2) array of positions: A* then has the Euclidean heuristic,
    scaled so that it never overestimates. ``names``: a node name for every
    id (what ``find`` takes and ``path.nodes`` gives). Read-only once made:
    threads search it at once."""

    directed: bool                 #: arcs one way (False: every edge both ways)
    _names: Optional[list]         # node names by id, or None
    _index: Dict[Any, int]         # name -> id (named graphs only)

    def __new__(cls, node_count: int, tails: Any = (), heads: Any = (), costs: Any = (), *,
                directed: bool = True, coords: Any = None, names: Any = None) -> "Graph":
        n = _integer(node_count, "node_count", 1, 2**31)
        e = _edge_array(tails, heads, costs, n)
        xy = None
        if coords is not None:
            xy = np.ascontiguousarray(coords, dtype=np.float64)
            if xy.shape != (n, 2):
                raise ValueError(f"coords: shape ({n}, 2) expected, got {xy.shape}")
        self = super().__new__(cls, n, e.tobytes(), not _flag(directed, "directed"),
                               None if xy is None else xy.tobytes())
        self.directed = bool(directed)
        self._names = None if names is None else list(names)
        if self._names is not None:
            if len(self._names) != n:
                raise ValueError(f"names: {n} names expected, got {len(self._names)}")
            self._index = {name: i for i, name in enumerate(self._names)}
            if len(self._index) != n:
                raise ValueError("names: every name must be distinct")
        return self

    @classmethod
    def from_csr(cls, matrix: Any, *, directed: bool = True, coords: Any = None,
                 names: Any = None) -> "Graph":
        """A graph of a SciPy sparse matrix (any format; CSR read as is):
        entry ``[i, j]`` is an arc i -> j of that cost -- every stored entry,
        explicit zeros included (as ``scipy.sparse.csgraph`` reads a sparse
        matrix). ``directed=False``: each entry is an edge usable both ways
        (csgraph's ``directed=False``)."""
        if not hasattr(matrix, "tocsr"):
            raise TypeError(f"matrix: a SciPy sparse matrix expected, got {type(matrix).__name__}")
        m = matrix.tocsr()
        rows, cols = m.shape
        if rows != cols:
            raise ValueError(f"matrix: a square matrix expected, got shape {m.shape}")
        tails = np.repeat(np.arange(rows, dtype=np.int64), np.diff(m.indptr))
        return cls(rows, tails, m.indices, m.data, directed=directed, coords=coords, names=names)

    from_scipy = from_csr

    @classmethod
    def from_networkx(cls, graph: Any, weight: Optional[str] = "weight", *,
                      coords: Any = None) -> "Graph":
        """A graph of a networkx graph: its nodes (``graph.nodes`` order) by
        name both ways -- ``find`` takes names, ``path.nodes`` gives them --
        and its edges' ``weight`` attribute as costs (1 where missing, and
        for ``weight=None``), as ``networkx.shortest_path_length`` reads
        them. Directed when the graph is; multigraphs keep every edge.
        ``coords``: a dict name -> (x, y), or an attribute name (``'pos'``)."""
        names = list(graph.nodes)
        index = {name: i for i, name in enumerate(names)}
        if weight is None:
            edges = [(u, v, 1.0) for u, v in graph.edges()]
        else:
            edges = list(graph.edges(data=weight, default=1.0))
        tails = np.array([index[u] for u, _, _ in edges], dtype=np.int64)
        heads = np.array([index[v] for _, v, _ in edges], dtype=np.int64)
        costs = np.array([c for _, _, c in edges], dtype=np.float64)
        if isinstance(coords, str):
            coords = {name: graph.nodes[name][coords] for name in names}
        xy = None if coords is None else [coords[name] for name in names]
        return cls(max(len(names), 1), tails, heads, costs, directed=graph.is_directed(),
                   coords=xy, names=names if names else None)

    @classmethod
    def from_dimacs(cls, gr: Any, co: Any = None, *, directed: bool = True) -> "Graph":
        """A graph of the 9th DIMACS Challenge's shortest-path files
        (``astar_dimacs_parse_gr``): ``gr`` a ``.gr`` file (a path, or the text
        itself), nodes the file's ids minus one; ``co`` its ``.co``
        coordinates (the Euclidean heuristic, scaled to stay admissible);
        ``directed=False``: every arc both ways. ParseError names the file,
        line and column."""
        text, filename = _source(gr)
        try:
            self = _core.dimacs_gr(cls, text, not _flag(directed, "directed"))
        except AstarError as e:
            raise _named(e, filename) from None
        self.directed, self._names = bool(directed), None
        if co is not None:
            text, filename = _source(co)
            try:
                _core.dimacs_co(self, text)
            except AstarError as e:
                raise _named(e, filename) from None
        return self

    def dimacs_queries(self, p2p: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The queries of a DIMACS ``.p2p`` file for this graph
        (``astar_dimacs_parse_p2p``): (sources, targets, expected costs), the
        ids minus one as int64 arrays, the costs float64 (nan where the file
        gives none) -- ready for :meth:`Finder.find_many`."""
        text, filename = _source(p2p)
        try:
            a, b, c = _core.dimacs_p2p(text, self.node_count)
        except AstarError as e:
            raise _named(e, filename) from None
        costs = np.frombuffer(c, dtype=np.float64).copy()
        costs[costs < 0] = np.nan
        return (np.frombuffer(a, dtype=np.uint32).astype(np.int64),
                np.frombuffer(b, dtype=np.uint32).astype(np.int64), costs)

    @property
    def names(self) -> Optional[list]:
        """The nodes' names (id i is names[i]), or None: nodes are ids."""
        return self._names

    def index(self, node: Any) -> int:
        """The id of a node (its name, or an id)."""
        return _node_in(self, node, "node")

    def successors(self, node: Any) -> list:
        """The arcs out of ``node``: (node, cost) pairs, by name when named."""
        return [(self._name(v), c) for v, c in self._arcs(_node_in(self, node, "node"), True)]

    def _name(self, i: int) -> Any:
        return self._names[i] if self._names is not None else i

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        return f"<Graph {kind}, {self.node_count} nodes, {self.arc_count} arcs>"


class CallbackSpace:
    """A graph you describe with Python functions, searched by the engine's
    methods through :class:`Finder`: nodes are the ids 0 .. node_count - 1,
    ``successors(i)`` returns the arcs out of i as (node, cost) pairs (costs
    finite, >= 0, at most ``max_degree``), ``predecessors(i)`` the arcs into
    i (needed by 'bidir', 'f2f' and 'retarget'), ``heuristic(a, b)`` an
    estimate of the cost from a to b (None: 0, i.e. Dijkstra);
    ``consistent=True`` promises a consistent heuristic. The searches call
    back into Python for every node: they hold the GIL, and ``find_many``
    runs them on one thread. An exception in a callback propagates.
    (:func:`find_graph_path` is the engine's search of graphs too large to
    number, with any hashable nodes.)"""

    def __init__(self, node_count: int, successors: Callable[[int], Iterable[Tuple[int, float]]],
                 *, predecessors: Optional[Callable[[int], Iterable[Tuple[int, float]]]] = None,
                 heuristic: Optional[Callable[[int, int], float]] = None, max_degree: int = 64,
                 consistent: bool = False):
        self.node_count = _integer(node_count, "node_count", 1, 2**32 - 2)
        self.max_degree = _integer(max_degree, "max_degree", 1, 2**32 - 1)
        for what, fn in (("successors", successors), ("predecessors", predecessors),
                         ("heuristic", heuristic)):
            if fn is not None and not callable(fn):
                raise TypeError(f"{what}: a callable expected, got {type(fn).__name__}")
        self.successors, self.predecessors, self.heuristic = successors, predecessors, heuristic
        self.consistent = _flag(consistent, "consistent")

    def _owner(self) -> tuple:
        flags = _core.SPACE_ADMISSIBLE | (_core.SPACE_CONSISTENT
                                          if self.consistent or self.heuristic is None else 0)
        return (self.node_count, self.successors, self.predecessors, self.heuristic,
                self.max_degree, flags)

    def __repr__(self) -> str:
        return f"<CallbackSpace {self.node_count} nodes>"


_TABLE_PICKS = {"auto": 0, "doors": 1, "coarse": 2, "given": 3}
_TABLE_FORMS = {"bound": 0, "seed": 1}


class WaypointTable(_core.WaypointTable):
    """The waypoint table of a grid (``astar/waypoint_table.h``): exact costs
    between a few waypoints (doors, or a coarse grid), a heuristic for A* on
    maps of rooms and doors where the straight-line ones are poor:
    ``Finder(grid, "astar", table=WaypointTable(grid))``.

    ``WaypointTable(grid, pick='auto', *, form='bound', gap=2, tile=16,
    max_count=1024, nearest=4, cells=None, moves=, corner=, straight_cost=,
    diagonal_cost=)``: ``pick`` 'doors' (one
    waypoint per gap at most ``gap`` cells wide), 'coarse' (one per tile of
    side ``tile``), 'auto' (doors, else coarse), 'given' (``cells``, (x, y)
    pairs); ``form`` 'bound' (admissible: optimal paths) or 'seed' (faster,
    not optimal); moves .. diagonal_cost the movement rules as in :class:`Options`. Built
    without the GIL; valid while the grid does not change (the finder then
    raises StaleError). The library has no file format for it."""

    _args: Dict[str, Any]   # what __reduce__ builds it again from

    def __new__(cls, grid: Grid, pick: str = "auto", *, form: str = "bound", gap: int = 2,
                tile: int = 16, max_count: int = 1024, nearest: int = 4, cells: Any = None,
                options: Optional[Options] = None,
                moves: int = _UNSET, corner: str = _UNSET,
                straight_cost: float = _UNSET, diagonal_cost: float = _UNSET) -> "WaypointTable":
        rules = _given((moves, corner, straight_cost, diagonal_cost), RULE_NAMES)
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        p = _choice("pick", pick, _TABLE_PICKS)
        if (p == "given") != (cells is not None):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT,
                                       "cells: given with pick='given', and only then")
        c = None if cells is None else _cells(cells, "cells").tobytes()
        self = super().__new__(cls, grid, _options(options, rules)._tuple, _TABLE_PICKS[p],
                               _TABLE_FORMS[_choice("form", form, _TABLE_FORMS)], gap, tile,
                               max_count, nearest, c)
        self._args = dict(pick=p, form=form, gap=gap, tile=tile, max_count=max_count,
                          nearest=nearest, cells=cells, options=options, **rules)
        return self

    @property
    def cells(self) -> np.ndarray:
        """The waypoints' cells, shape (count, 2), int32 (x, y)."""
        return np.frombuffer(self._cells(), dtype=np.int32).reshape(-1, 2)

    def __reduce__(self) -> Tuple[Any, ...]:
        # No file format: a pickle builds it again for (a copy of) the grid.
        return (_rebuild_table, (type(self), self.grid, self._args))

    def __repr__(self) -> str:
        return f"<WaypointTable of {self.grid!r}: {self.count} waypoints, {self.memory} bytes>"


def _rebuild_table(cls: Any, grid: Grid, args: Dict[str, Any]) -> "WaypointTable":
    args = dict(args)
    return cls(grid, args.pop("pick"), **args)


class SpaceLandmarks(_core.SpaceLandmarks):
    """A landmark table of a :class:`HexGrid` or a :class:`Graph`
    (``astar_landmarks_new``): the ALT heuristic of the engine's methods on
    that map, ``Finder(graph, "astar", landmarks=SpaceLandmarks(graph, 8))``
    (or ``landmarks=8``, built there). Building costs one or two Dijkstra
    searches over the map per landmark, without the GIL. ``save(path=None)``
    and ``SpaceLandmarks.load(map, source)`` use the library's format, checked
    against the map's arcs (MismatchError for another map). It pickles with
    a HexGrid (a Graph does not pickle)."""

    def __new__(cls, space: Any, count: int = 4) -> "SpaceLandmarks":
        if _space_kind(space) not in (0, 1):
            raise TypeError(f"space: a HexGrid or a Graph expected, got {type(space).__name__}")
        return super().__new__(cls, space, count, None)

    def save(self, path: Any = None) -> bytes:
        """The table as bytes (``astar_landmarks_save``); also written to
        ``path`` when given."""
        data = super().save()
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data

    @classmethod
    def load(cls, space: Any, source: Any) -> "SpaceLandmarks":
        """Load bytes made by :meth:`save` (bytes, or a file path) for ``space``."""
        if isinstance(source, (bytes, bytearray, memoryview)):
            data, name = bytes(source), "<bytes>"
        else:
            with open(source, "rb") as f:
                data, name = f.read(), os.fspath(source)
        if _space_kind(space) not in (0, 1):
            raise TypeError(f"space: a HexGrid or a Graph expected, got {type(space).__name__}")
        try:
            return _core.SpaceLandmarks.__new__(cls, space, 1, data)
        except ParseError as e:
            raise _named(e, str(name)) from None

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self).load, (self.space, self.save()))

    def __repr__(self) -> str:
        return f"<SpaceLandmarks of {self.space!r}: {self.count} landmarks, {self.memory} bytes>"


class NodePath(Path):
    """A path on a :class:`Graph` or a :class:`CallbackSpace`: a :class:`Path`
    whose ``nodes`` are the graph's nodes (names for a named graph, else an
    int64 array of ids), ``ids`` always the ids; ``cells`` is empty and
    ``end`` the last node."""

    __slots__ = ("nodes", "ids")
    nodes: Any          #: the names of a named graph (a list), else the ids
    ids: np.ndarray     #: int64 node ids, start first

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.nodes if isinstance(self.nodes, list) else self.nodes.tolist())

    def __repr__(self) -> str:
        return (f"<NodePath {self.status.name} {len(self)} nodes, cost {self.cost:.6g}, "
                f"expanded {self.expanded}>")


_SPACE_KINDS = {"HexGrid": 0, "Graph": 1, "CallbackSpace": 2}
_NONE_NODE = 2**32 - 1


def _space_kind(space: Any) -> Optional[int]:
    if isinstance(space, _core.HexGrid):
        return 0
    if isinstance(space, _core.Graph):
        return 1
    if isinstance(space, CallbackSpace):
        return 2
    return None


def _node_in(space: Any, p: Any, what: str) -> int:
    """A start or goal of a space finder as the space's node id: a hex
    grid's (x, y) cell (_NONE_NODE outside it, which the search answers with
    OutOfBoundsError as a grid does), a graph's node name or id."""
    if isinstance(space, _core.HexGrid):
        x, y = _point(p, what)
        if not space.contains(x, y):
            return _NONE_NODE
        return y * space.width + x
    names = getattr(space, "_names", None)
    if names is not None:
        try:
            return space._index[p]
        except (KeyError, TypeError):
            raise OutOfBoundsError(Status.OUT_OF_BOUNDS,
                                   f"{what}: {p!r} is not a node of the graph") from None
    n = space.node_count
    i = _integer(p, what, 0, 2**63 - 1)
    if i >= n:
        raise OutOfBoundsError(Status.OUT_OF_BOUNDS, f"{what}: node {i} outside [0, {n - 1}]")
    return i


def _nodes_in(space: Any, points: Any, what: str) -> np.ndarray:
    """Many starts or goals as node ids (uint32), by the rule of _node_in."""
    if isinstance(space, _core.HexGrid):
        c = _cells(points, what).astype(np.int64)
        inside = ((c[:, 0] >= 0) & (c[:, 0] < space.width) & (c[:, 1] >= 0)
                  & (c[:, 1] < space.height))
        ids = np.where(inside, c[:, 1] * space.width + c[:, 0], _NONE_NODE)
        return ids.astype(np.uint32)
    if (getattr(space, "_names", None) is None and isinstance(points, np.ndarray)
            and points.dtype.kind in "iu"):
        a = points.reshape(-1).astype(np.int64)
        bad = (a < 0) | (a >= space.node_count)
        if np.any(bad):
            raise OutOfBoundsError(Status.OUT_OF_BOUNDS, f"{what}: node {int(a[bad][0])} "
                                   f"outside [0, {space.node_count - 1}]")
        return a.astype(np.uint32)
    return np.array([_node_in(space, p, f"{what}[{i}]") for i, p in enumerate(points)],
                    dtype=np.uint32)


def _space_path(space: Any, t: tuple) -> Path:
    """The Path of a space finder's result tuple (SpaceFinder.find): a hex
    grid's cells, or a graph's nodes (NodePath)."""
    (st, nodes, cost, expanded, generated, reopened, max_open, end, cause, dropped,
     iterations, work, _detail) = t
    ids = (np.frombuffer(nodes, dtype=np.uint32).astype(np.int64) if nodes is not None
           else np.zeros(0, dtype=np.int64))
    st, cause = Status(st), Status(cause)
    if isinstance(space, _core.HexGrid):
        w = space.width
        cells = np.stack([ids % w, ids // w], axis=1).astype(np.int32) if len(ids) else _NO_CELLS
        end_cell = (int(end % w), int(end // w)) if end >= 0 else None
        return Path(cells, cost, st, cause, end_cell, expanded, generated, reopened, max_open,
                    False, dropped, iterations, work)
    names = getattr(space, "_names", None)
    p = NodePath(_NO_CELLS, cost, st, cause, None, expanded, generated, reopened, max_open,
                 False, dropped, iterations, work)
    p.ids = ids
    p.nodes = [names[i] for i in ids.tolist()] if names is not None else ids
    p.end = (names[end] if names is not None else end) if end >= 0 else None
    return p


def _space_outcome(space: Any, t: tuple) -> Path:
    p = _space_path(space, t)
    if p.status in (Status.OK, Status.PARTIAL):
        return p
    raise _error(t[0], t[12], path=p)


def _space_finder(self: "Finder", space: Any, name: str, kw: dict, given: dict) -> None:
    """Finder.__init__ for a hex grid, a Graph or a CallbackSpace: the engine's
    method over the space (astar_finder_new_space)."""
    info = _METHOD_BY_NAME[name]
    kind = _space_kind(space)
    what = type(space).__name__
    if not info.space:
        engine = ", ".join(m.name for m in _METHOD_TABLE if m.space)
        raise _unsupported(f"{name}: searches square grids; a {what} is searched by the "
                           f"engine's methods ({engine})")
    lm = given.pop("landmarks")
    if lm is not None:
        if kind == 2:
            raise _unsupported("landmarks=: a table is built on a HexGrid or a Graph, not on "
                               "callbacks")
        if isinstance(lm, (int, np.integer)) and not isinstance(lm, (bool, np.bool_)):
            lm = SpaceLandmarks(space, int(lm))
        elif not isinstance(lm, SpaceLandmarks):
            raise TypeError(f"landmarks: a SpaceLandmarks expected, got {type(lm).__name__}")
        elif lm.space is not space:
            raise MismatchError(Status.MISMATCH, "landmarks: built on another map")
    for key, v in given.items():
        if v not in (None, False, 1):
            raise _unsupported(f"{key}=: prepares a grid search; a {what} takes the engine's "
                               "settings only (weight, tie, reopen, max_expansions, partial, "
                               "beam_width, epsilon, band_e, band_d, retarget_interval, "
                               "ida_transpositions)")
    if kind == 2 and space.predecessors is None and name in ("bidir", "f2f", "retarget"):
        raise _unsupported(f"{name}: searches backward from the goal too: give the space "
                           "predecessors=")
    settings = {k: kw.pop(k) for k in ("weight", "tie", "reopen", "max_expansions", "partial")
                if k in kw}
    # Checked as the engine's settings of any search; the method is the
    # table's row (fringe included).
    t = _engine_tuple("astar", settings.get("weight", 1.0), settings.get("tie", "larger-g"),
                      settings.get("reopen", "auto"), settings.get("max_expansions", 0),
                      settings.get("partial", False), kw)
    t = (info.id,) + t[1:]
    self._grid = space
    self._info = info
    self._options = None   # type: ignore[assignment]  # the engine tuple holds its settings
    self._att = {}
    self._space = space
    self._att = {"landmarks": lm} if lm is not None else {}
    self._c = _core.SpaceFinder(kind, space._owner() if kind == 2 else space, t, lm)


def _find_many(self: "Finder", starts: Any, goals: Any, threads: Any, costs_only: bool,
               batch: Optional[Batch], order: Optional[str]) -> Union[List[Path], np.ndarray]:
    costs_only = _flag(costs_only, "costs_only")
    if batch is not None and not isinstance(batch, _core.Batch):
        raise TypeError(f"batch: a Batch expected, got {type(batch).__name__}")
    one_thread = self._space is not None and isinstance(self._space, CallbackSpace)
    one_thread = one_thread or (self._options is not None and (
        callable(self._options.heuristic) or self._options.observer is not None))
    if batch is None:
        batch = _batch_for(1 if one_thread else threads)
    if self._space is not None:
        _no_order(self._space, order)
        s = _nodes_in(self._space, starts, "starts")
        g = _nodes_in(self._space, goals, "goals")
    else:
        order = _order_of(self._grid, order)   # checked once, before any search
        s = _cells_in(self._grid, starts, order, "starts")
        g = _cells_in(self._grid, goals, order, "goals")
    if len(s) != len(g):
        raise ValueError(f"starts and goals: as many of each expected, got {len(s)} and "
                         f"{len(g)}")
    if len(s) == 0:
        return np.zeros(0, dtype=np.float64) if costs_only else []
    q = np.ascontiguousarray(np.concatenate([s.reshape(len(s), -1), g.reshape(len(g), -1)],
                                            axis=1))
    # Batches of at most _BATCH_CHUNK queries: the path slots of one stay
    # within about 64 MB whatever N (the results do not depend on it).
    used, costs, paths = 0, [], []
    for at in range(0, len(q), _BATCH_CHUNK):
        part = q[at:at + _BATCH_CHUNK].tobytes()
        if self._space is not None:
            u, out = self._c.batch(batch, part, costs_only, _BATCH_SLOT)
        else:
            u, out = _core.grid_batch(batch, self._c, part, costs_only, _BATCH_SLOT)
        used = max(used, u)
        if costs_only:
            c = np.frombuffer(out[0], dtype=np.float64).copy()
            c[np.frombuffer(out[1], dtype=np.int32) != int(Status.OK)] = np.inf
            costs.append(c)
        else:
            paths += _batch_paths(self, out, order)
    self.threads_used = used
    return np.concatenate(costs) if costs_only else paths


def _no_order(space: Any, order: Optional[str]) -> None:
    """A space finder's points are its own (a hex grid's offset (x, y), a
    graph's nodes): an ``order=`` would be silently ignored, so it is refused."""
    if order is not None:
        raise InvalidArgumentError(
            Status.INVALID_ARGUMENT, f"order: {order!r} applies to a Grid's cells; a "
            f"{type(space).__name__}'s points are its own (hex cells (x, y), graph nodes)")


def _batch_paths(self: "Finder", out: list, order: Optional[str] = None) -> List[Path]:
    """The Paths of a batch, in query order; a query without a path gives
    its Path with the status (falsy), never an exception."""
    if self._space is not None:
        return [_space_path(self._space, t) for t in out]
    return [_path_out(self._grid, _path(t), order) for t in out]


__all__ += ["Batch", "CallbackSpace", "Graph", "NodePath", "SpaceLandmarks", "WaypointTable",
            "release_batches"]


# ---- planning: fields, D* Lite / LPA*, islands, sizes, smoothing, encodings (_planning.py) -----

from . import _planning  # noqa: E402

_planning._bind(globals())
from ._planning import (ENCODINGS, DStarLite, Field, Islands, LPAStar,  # noqa: E402
                        decode_path, encode_path, expand_turn_points, path_encoding, turn_points)

__all__ += ["DStarLite", "ENCODINGS", "Field", "Islands", "LPAStar", "decode_path", "encode_path",
            "expand_turn_points", "path_encoding", "turn_points"]


# ---- fog of war and influence layers (_fog.py) -------------------------------------------------

from . import _fog  # noqa: E402
from ._fog import STATES, Knowledge, Layer, LayersArg  # noqa: E402

__all__ += ["Knowledge", "Layer", "STATES"]

# ---- space-time: reservations, cooperative A* / WHCA*, SIPP (_spacetime.py) ---------------------

from ._spacetime import (Reservations, SafeIntervals, SpaceTimeWorkspace,  # noqa: E402
                         TimedPath, find_cooperative, plan_cooperative)

__all__ += ["Reservations", "SafeIntervals", "SpaceTimeWorkspace", "TimedPath",
            "find_cooperative", "plan_cooperative"]

# ---- multi-agent pathfinding: PIBT, LaCAM*, CBS / EECBS, ... (mapf.py) --------------------------

from . import mapf  # noqa: E402

# ---- navigation meshes: Polyanya and the funnel (mesh.py) ----------------------------------

from . import mesh  # noqa: E402
from .mesh import Mesh, NavMesh, PolyMap  # noqa: E402

__all__ += ["mesh", "Mesh", "NavMesh", "PolyMap"]

__all__ += ["mapf"]
