"""Planning beyond one query: distance and flow fields, D* Lite and LPA*,
units of several sizes, smoothing, islands and path encodings.

Thin layers over the C library (``astar/field.h``, ``astar/dstar.h``,
``astar/clearance.h``, ``astar/anyangle.h``, ``astar/islands.h``,
``astar/path.h``); the long calls (fields, plans, islands, smoothing) run
without the GIL. Re-exported by :mod:`libastar`: use ``libastar.DStarLite``,
``grid.distance_field(...)`` and so on.

Cells go in through :func:`_pin` / :func:`_cells_in` and come out through
:func:`_out`, the one place each, so that a choice of (row, col) or (x, y)
applies to every call here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

import numpy as np

from . import _core, _order

if TYPE_CHECKING:  # the package's names, bound at run time by _bind (it imports this first)
    from . import (_NO_CELLS, Clearance, Event, Finder, Heuristic, InvalidArgumentError,
                   Options, Path, Status, _cells, _error, _options, _point, _real)
# The typed option keywords (defined before libastar imports this module).
from . import _UNSET, _given  # noqa: E402

Point = Tuple[int, int]

_NEEDED = ("_NO_CELLS", "Clearance", "Finder", "InvalidArgumentError", "Options", "Path",
           "Status", "_cells", "_error", "_options", "_point", "_real")


def _bind(namespace: dict) -> None:
    """Take the package's names once it has defined them (libastar/__init__.py
    imports this module before defining Grid, which derives from _GridPlanning)."""
    globals().update({name: namespace[name] for name in _NEEDED})

__all__ = ["DStarLite", "Field", "Islands", "LPAStar", "decode_path", "encode_path",
           "expand_turn_points", "turn_points", "ENCODINGS"]


# ---- cells in and out: the one place each ------------------------------------------------

def _pin(grid: Any, p: Any, what: str) -> Point:
    """A cell argument, as the C library takes it ((x, y)): read in the
    grid's order (``grid.order``; an XY / RC point as it says)."""
    return _order._point_in(grid, p, None, what)


def _cells_in(grid: Any, cells: Any, what: str, strict: bool = False) -> np.ndarray:
    """Cells as an (n, 2) int32 (x, y) array: a Path's (whatever its order),
    or pairs in the grid's order ((x, y) without a grid)."""
    if isinstance(cells, Path):
        return _cells(cells.xy, what, strict)
    return _order._cells_in(grid, cells, None, what, strict)


def _out(grid: Any, cells: np.ndarray) -> np.ndarray:
    """Cells the C library gave ((x, y), shape (n, 2)) in the grid's order
    ((x, y) without a grid)."""
    return _order._cells_out(grid, cells, None)


def _pt(cell: Any) -> Point:
    """A cell of an (n, 2) array as a tuple of Python ints."""
    return (int(cell[0]), int(cell[1]))


def _as_cells(data: Any) -> np.ndarray:
    return np.frombuffer(data, dtype=np.int32).reshape(-1, 2)


def _goals_in(grid: Any, goals: Any) -> np.ndarray:
    """One cell (a pair of integers) or a sequence of cells, as an (n, 2)
    int32 array (n >= 1)."""
    if isinstance(goals, (tuple, list)) and len(goals) == 2 and not any(
            isinstance(v, (tuple, list, np.ndarray)) for v in goals):
        return np.array([_pin(grid, goals, "goals")], dtype=np.int32)
    if isinstance(goals, np.ndarray) and goals.ndim == 1:
        return np.array([_pin(grid, goals, "goals")], dtype=np.int32)
    g = _cells_in(grid, goals, "goals")
    if len(g) == 0:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT, "goals: at least one cell")
    return g


# ---- distance and flow fields --------------------------------------------------------------

# The directions of astar/path.h (0 N, 1 E, 2 S, 3 W, 4 NE, 5 SE, 6 SW, 7 NW), as (dx, dy);
# row 8 is "no step" (255 in the C arrays).
_STEPS = np.array([[0, -1], [1, 0], [0, 1], [-1, 0], [1, -1], [1, 1], [-1, 1], [-1, -1],
                   [0, 0]], dtype=np.int32)


class Field:
    """A distance field (``astar/field.h``): for every cell its cost to the
    nearest goal and its next step there, as NumPy arrays shaped like the
    grid (indexed ``[y, x]``).

    cost        float64 (height, width): cost to the nearest goal; ``inf`` for
                blocked and unreachable cells (and beyond ``max_cost``)
    directions  uint8 (height, width): the next step's direction, 0 N, 1 E,
                2 S, 3 W, 4 NE, 5 SE, 6 SW, 7 NW; 255 at a goal and where there
                is no path
    next        int32 (height, width, 2): the next cell, (-1, -1) where none
                (cells as paths give them)
    goals       the goals, (n, 2)
    expanded    cells the flood settled

    Costs follow the options' moves, corner rule, move costs, terrain and
    terrain_scale exactly as :meth:`Grid.find_path` charges them; ties
    between equal next steps go to the first of N, E, S, W, NE, SE, SW, NW.
    """

    __slots__ = ("cost", "directions", "goals", "expanded", "_grid", "_version")

    def __init__(self, grid: Any, goals: Any = None, *, max_cost: float = 0.0,
                 options: Optional[Options] = None,
                 algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                 corner: str = _UNSET, straight_cost: float = _UNSET,
                 diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                 weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                 max_expansions: int = _UNSET, open_set: str = _UNSET, partial: bool = _UNSET,
                 terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
                 heuristic_floor: float = _UNSET,
                 observer: Optional[Callable[[Event], Any]] = _UNSET, beam_width: int = _UNSET,
                 epsilon: float = _UNSET, band_e: float = _UNSET, band_d: float = _UNSET,
                 retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET):
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        if goals is None:
            raise TypeError("goals: a cell or a sequence of cells expected")
        opts = _options(options, rules)
        g = _goals_in(grid, goals)
        cost, nxt, expanded = _core.field(grid, opts._tuple, g.tobytes(),
                                          _real(max_cost, "max_cost", 0.0, math.inf))
        h, w = grid.height, grid.width
        self.cost = np.frombuffer(cost, dtype=np.float64).reshape(h, w)
        self.directions = np.frombuffer(nxt, dtype=np.uint8).reshape(h, w)
        self.goals = _out(grid, g)
        self.expanded = expanded
        self._grid = grid
        self._version = grid.version

    @property
    def next(self) -> np.ndarray:
        d = np.minimum(self.directions, 8).astype(np.intp)
        h, w = self.directions.shape
        ys, xs = np.mgrid[0:h, 0:w]
        cells = np.stack([xs, ys], axis=-1).astype(np.int32) + _STEPS[d]
        cells[d == 8] = -1
        return _out(self._grid, cells.reshape(-1, 2)).reshape(h, w, 2)

    def path(self, start: Point) -> np.ndarray:
        """The optimal path from ``start`` to its nearest goal, (n, 2), by
        following the next steps (O(path length)); raises NoPathError,
        StartBlockedError, OutOfBoundsError, or StaleError when the grid
        changed since the field was built."""
        x, y = _pin(self._grid, start, "start")
        if self._grid.version != self._version:
            raise _error(Status.STALE, "the grid changed since the field was built")
        h, w = self.directions.shape
        if not (0 <= x < w and 0 <= y < h):
            raise _error(Status.OUT_OF_BOUNDS, f"start: ({x}, {y}) lies outside the grid")
        if not self._grid.passable(x, y):
            raise _error(Status.START_BLOCKED)
        if not math.isfinite(self.cost[y, x]):
            raise _error(Status.NO_PATH)
        cells = [(x, y)]
        d = self.directions[y, x]
        while d != 255:
            x += int(_STEPS[d, 0])
            y += int(_STEPS[d, 1])
            cells.append((x, y))
            d = self.directions[y, x]
        return _out(self._grid, np.array(cells, dtype=np.int32))

    def __repr__(self) -> str:
        reached = int(np.isfinite(self.cost).sum())
        return f"<Field {len(self.goals)} goal(s), {reached} cells reached>"


# ---- islands ----------------------------------------------------------------------------------

class Islands:
    """The connected components of a grid under a movement rule
    (``astar/islands.h``). ``labels``: uint32 array shaped like the grid, 0
    for blocked cells, islands numbered 1 .. ``count`` in row-major order of
    their first cell. ``np.asarray(islands)`` is ``labels``."""

    __slots__ = ("labels", "count", "_grid", "_version")

    def __init__(self, grid: Any, *, options: Optional[Options] = None,
                 algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                 corner: str = _UNSET, straight_cost: float = _UNSET,
                 diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                 weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                 max_expansions: int = _UNSET, open_set: str = _UNSET, partial: bool = _UNSET,
                 terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
                 heuristic_floor: float = _UNSET,
                 observer: Optional[Callable[[Event], Any]] = _UNSET, beam_width: int = _UNSET,
                 epsilon: float = _UNSET, band_e: float = _UNSET, band_d: float = _UNSET,
                 retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET):
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        opts = _options(options, rules)
        labels, count = _core.islands(grid, opts._tuple)
        self.labels = np.frombuffer(labels, dtype=np.uint32).reshape(grid.height, grid.width)
        self.count = count
        self._grid = grid
        self._version = grid.version

    @property
    def current(self) -> bool:
        """True while the grid has not changed since they were labelled."""
        return self._grid.version == self._version

    def of(self, cell: Point) -> int:
        """The island of ``cell`` (0: blocked or outside the grid)."""
        x, y = _pin(self._grid, cell, "cell")
        h, w = self.labels.shape
        return int(self.labels[y, x]) if 0 <= x < w and 0 <= y < h else 0

    def same_island(self, a: Point, b: Point) -> bool:
        """Can a unit at ``a`` reach ``b``? False when either is blocked or outside."""
        i = self.of(a)
        return i != 0 and i == self.of(b)

    @property
    def sizes(self) -> np.ndarray:
        """Cells of each island: ``sizes[i]`` for island i (``sizes[0]``: blocked cells)."""
        return np.bincount(self.labels.ravel(), minlength=self.count + 1)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.labels if dtype is None else self.labels.astype(dtype)

    def __repr__(self) -> str:
        return f"<Islands {self.count} of {self._grid!r}>"


# ---- units of several sizes -------------------------------------------------------------------

def _finder_for_size(grid: Any, opts: Options, unit_size: int) -> Any:
    """A finder of ``opts`` for a unit of ``unit_size`` cells, with the grid's
    clearance kept while the grid does not change."""
    cache = grid.__dict__.setdefault("_sized", {})
    key = (id(opts), unit_size)
    hit = cache.get(key)
    if hit is not None and hit[0] is opts and hit[1] == grid.version:
        return hit[2]
    clr = grid.__dict__.get("_clearance")
    if clr is None or clr[0] != grid.version or clr[2] < unit_size:
        size = max(8, unit_size)
        clr = (grid.version, Clearance(grid, size), size)
        grid.__dict__["_clearance"] = clr
    if len(cache) > 16:
        cache.clear()
    finder = Finder(grid, opts.algo, options=opts, clearance=clr[1], unit_size=unit_size)
    cache[key] = (opts, grid.version, finder)
    return finder


# ---- smoothing ----------------------------------------------------------------------------------

# ---- the grid's planning methods -------------------------------------------------------------

class _GridPlanning:
    """The planning methods of :class:`libastar.Grid` (it derives from this)."""

    def distance_field(self, goals: Any, *, max_cost: float = 0.0,
                       options: Optional[Options] = None,
                       algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                       corner: str = _UNSET, straight_cost: float = _UNSET,
                       diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                       weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                       max_expansions: int = _UNSET, open_set: str = _UNSET,
                       partial: bool = _UNSET, terrain_scale: float = _UNSET,
                       turn_penalty: float = _UNSET, heuristic_floor: float = _UNSET,
                       observer: Optional[Callable[[Event], Any]] = _UNSET,
                       beam_width: int = _UNSET, epsilon: float = _UNSET,
                       band_e: float = _UNSET, band_d: float = _UNSET,
                       retarget_interval: int = _UNSET,
                       ida_transpositions: bool = _UNSET) -> np.ndarray:
        """The cost from every cell to the nearest of ``goals`` (one cell or a
        sequence) as a float64 array shaped like the grid (``[y, x]``), ``inf``
        where unreachable or blocked -- one reverse Dijkstra flood in C without
        the GIL (``astar/field.h``). ``max_cost`` > 0 stops the flood there.
        Options: the movement rules and terrain_scale of :class:`Options`."""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        return Field(self, goals, max_cost=max_cost, options=options, **rules).cost

    def flow_field(self, goals: Any, *, max_cost: float = 0.0,
                   options: Optional[Options] = None,
                   algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                   corner: str = _UNSET, straight_cost: float = _UNSET,
                   diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                   weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                   max_expansions: int = _UNSET, open_set: str = _UNSET,
                   partial: bool = _UNSET, terrain_scale: float = _UNSET,
                   turn_penalty: float = _UNSET, heuristic_floor: float = _UNSET,
                   observer: Optional[Callable[[Event], Any]] = _UNSET,
                   beam_width: int = _UNSET, epsilon: float = _UNSET, band_e: float = _UNSET,
                   band_d: float = _UNSET, retarget_interval: int = _UNSET,
                   ida_transpositions: bool = _UNSET) -> np.ndarray:
        """The next cell of every cell's optimal path to the nearest of
        ``goals``, an int32 array of shape (height, width, 2) ((-1, -1) at the
        goals and where there is no path). See :class:`Field` for both arrays
        and the directions."""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        return Field(self, goals, max_cost=max_cost, options=options, **rules).next

    def field(self, goals: Any, *, max_cost: float = 0.0, options: Optional[Options] = None,
              algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
              corner: str = _UNSET, straight_cost: float = _UNSET,
              diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
              weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
              max_expansions: int = _UNSET, open_set: str = _UNSET, partial: bool = _UNSET,
              terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
              heuristic_floor: float = _UNSET,
              observer: Optional[Callable[[Event], Any]] = _UNSET, beam_width: int = _UNSET,
              epsilon: float = _UNSET, band_e: float = _UNSET, band_d: float = _UNSET,
              retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET) -> Field:
        """The :class:`Field` of ``goals``: costs, directions, next cells, paths."""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        return Field(self, goals, max_cost=max_cost, options=options, **rules)

    def islands(self, *, options: Optional[Options] = None,
                algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                corner: str = _UNSET, straight_cost: float = _UNSET,
                diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                max_expansions: int = _UNSET, open_set: str = _UNSET, partial: bool = _UNSET,
                terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
                heuristic_floor: float = _UNSET,
                observer: Optional[Callable[[Event], Any]] = _UNSET, beam_width: int = _UNSET,
                epsilon: float = _UNSET, band_e: float = _UNSET, band_d: float = _UNSET,
                retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET) -> Islands:
        """The grid's :class:`Islands` under the options' moves and corner rule."""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        return Islands(self, options=options, **rules)

    def same_island(self, a: Point, b: Point, *, options: Optional[Options] = None,
                    algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                    corner: str = _UNSET, straight_cost: float = _UNSET,
                    diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                    weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                    max_expansions: int = _UNSET, open_set: str = _UNSET,
                    partial: bool = _UNSET, terrain_scale: float = _UNSET,
                    turn_penalty: float = _UNSET, heuristic_floor: float = _UNSET,
                    observer: Optional[Callable[[Event], Any]] = _UNSET,
                    beam_width: int = _UNSET, epsilon: float = _UNSET, band_e: float = _UNSET,
                    band_d: float = _UNSET, retarget_interval: int = _UNSET,
                    ida_transpositions: bool = _UNSET) -> bool:
        """Can a unit at ``a`` reach ``b``? (Labels the whole grid: for many
        questions keep ``grid.islands()``.)"""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        return Islands(self, options=options, **rules).same_island(a, b)

    def clearance(self, max_size: int = 8) -> np.ndarray:
        """The clearance of every cell (``astar/clearance.h``): the side of the
        largest square of passable cells with the cell as its top-left corner,
        capped at ``max_size`` (1 .. 255), as a uint8 array shaped like the
        grid. A k x k unit fits with its top-left cell at p when
        ``clearance[p] >= k``."""
        grid: Any = self
        c = Clearance(grid, max_size)
        return np.frombuffer(_core.clearance_array(c), dtype=np.uint8).reshape(grid.height,
                                                                               grid.width)

    def smooth(self, path: Any, *, options: Optional[Options] = None,
               algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
               corner: str = _UNSET, straight_cost: float = _UNSET,
               diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
               weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
               max_expansions: int = _UNSET, open_set: str = _UNSET, partial: bool = _UNSET,
               terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
               heuristic_floor: float = _UNSET,
               observer: Optional[Callable[[Event], Any]] = _UNSET, beam_width: int = _UNSET,
               epsilon: float = _UNSET, band_e: float = _UNSET, band_d: float = _UNSET,
               retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET) -> Path:
        """String-pull a path (``astar_path_smooth``): the start, the bends it
        cannot see past, the goal, as a :class:`Path` whose ``cells`` are those
        points and whose ``cost`` is what the straight segments cost on this grid
        (``astar_polyline_cost``: each segment's length inside every cell times
        the cell's terrain factor), never more than the input's; ``grid_cost`` is
        the input path's cost as grid moves. With terrain a straight line
        through expensive cells is refused and the bend kept: the smoothed path
        never claims less than its cells cost. ``path``: a :class:`Path` or (x,
        y) cells, a legal path under the options (a search's with the same)."""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        grid: Any = self
        opts = _options(options, rules)
        c = _cells_in(grid, path, "path")
        pts, cost = _core.smooth(grid, opts._tuple, c.tobytes())
        grid_cost = grid.path_cost(c, options=opts, order="xy") if len(c) > 1 else 0.0
        cells = _as_cells(pts)
        end = _pt(cells[-1]) if len(cells) else None
        return _order._path_out(grid, Path(cells, cost, Status.OK, Status.OK, end, 0, 0, 0, 0,
                                           grid_cost=grid_cost))

    def polyline_cost(self, points: Any, *, options: Optional[Options] = None,
                      algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                      corner: str = _UNSET, straight_cost: float = _UNSET,
                      diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                      weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                      max_expansions: int = _UNSET, open_set: str = _UNSET,
                      partial: bool = _UNSET, terrain_scale: float = _UNSET,
                      turn_penalty: float = _UNSET, heuristic_floor: float = _UNSET,
                      observer: Optional[Callable[[Event], Any]] = _UNSET,
                      beam_width: int = _UNSET, epsilon: float = _UNSET,
                      band_e: float = _UNSET, band_d: float = _UNSET,
                      retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET) -> float:
        """The cost of straight segments between consecutive ``points`` (a
        smoothed path, Theta*'s, a waypoint path) on this grid, terrain weighed
        (``astar_polyline_cost``); raises InvalidArgumentError (``e.index``: the
        first point outside the grid or out of sight of the one before)."""
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        opts = _options(options, rules)
        return _core.polyline_cost(self, opts._tuple, _cells_in(self, points, "points").tobytes())


# ---- D* Lite and LPA* ------------------------------------------------------------------------------

class _Planner:
    _LPA = False

    def __init__(self, grid: Any, start: Point, goal: Point, *,
                 options: Optional[Options] = None,
                 algo: str = _UNSET, space: str = _UNSET, moves: int = _UNSET,
                 corner: str = _UNSET, straight_cost: float = _UNSET,
                 diagonal_cost: float = _UNSET, heuristic: Heuristic = _UNSET,
                 weight: float = _UNSET, tie: str = _UNSET, reopen: str = _UNSET,
                 max_expansions: int = _UNSET, open_set: str = _UNSET, partial: bool = _UNSET,
                 terrain_scale: float = _UNSET, turn_penalty: float = _UNSET,
                 heuristic_floor: float = _UNSET,
                 observer: Optional[Callable[[Event], Any]] = _UNSET, beam_width: int = _UNSET,
                 epsilon: float = _UNSET, band_e: float = _UNSET, band_d: float = _UNSET,
                 retarget_interval: int = _UNSET, ida_transpositions: bool = _UNSET):
        rules = _given(
            (algo, space, moves, corner, straight_cost, diagonal_cost, heuristic, weight, tie,
             reopen, max_expansions, open_set, partial, terrain_scale, turn_penalty,
             heuristic_floor, observer, beam_width, epsilon, band_e, band_d, retarget_interval,
             ida_transpositions))
        if not isinstance(grid, _core.Grid):
            raise TypeError("grid: a Grid expected")
        self._grid = grid
        self._options = _options(options, rules)
        self._c = _core.DStar(grid, self._options._tuple, self._LPA, _pin(grid, start, "start"),
                              _pin(grid, goal, "goal"))
        self._planned: Optional[Path] = None

    grid = property(lambda self: self._grid)
    options = property(lambda self: self._options)

    @property
    def start(self) -> Point:
        """The start (D* Lite: the agent's cell)."""
        return _pt(_out(self._grid, np.array([self._c.start], dtype=np.int32))[0])

    @property
    def goal(self) -> Point:
        return _pt(_out(self._grid, np.array([self._c.goal], dtype=np.int32))[0])

    @property
    def memory(self) -> int:
        return self._c.memory

    def plan(self) -> Path:
        """Repair the search after the edits (and moves) since the last plan
        -- the first plan is a full search -- without the GIL, and return the
        path as a :class:`Path` (``expanded``: vertices this plan made
        consistent, the edits' repair included). Its cost equals a fresh
        search's on the grid as it is now. Raises NoPathError,
        StartBlockedError, GoalBlockedError."""
        st, cost, expanded, requeued, updated, plans = self._c.plan()
        self._planned = None
        if st != Status.OK:
            p = Path(_NO_CELLS, 0.0, Status(st), Status(st), None, expanded, 0, 0, 0)
            raise _error(st, path=p)
        cells = _as_cells(self._c.path())
        end = _pt(cells[-1]) if len(cells) else None
        self._planned = _order._path_out(self._grid, Path(cells, cost, Status.OK, Status.OK, end,
                                                          expanded, 0, 0, 0))
        return self._planned

    def path(self) -> Path:
        """The current path: the last plan's while nothing changed since,
        else a new :meth:`plan`."""
        if self._planned is not None:
            return self._planned
        return self.plan()

    @property
    def cost(self) -> float:
        """The current path's cost (plans when needed)."""
        return self.path().cost

    def update(self, cells: Any) -> None:
        """Tell the planner that these cells of its grid changed (you edited
        the grid yourself: ``set_passable``, ``set_terrain``...)."""
        self._c.update_cells(_cells_in(self._grid, cells, "cells").tobytes())
        self._planned = None

    def sync(self) -> None:
        """Compare every cell with the grid and repair what changed (when
        you cannot say which cells you edited): O(cells), no GIL."""
        self._c.sync()
        self._planned = None

    def set_cost(self, cell: Point, cost: float) -> None:
        """Edit the grid and tell the planner: ``cost`` ``inf`` (or 0)
        blocks the cell, a finite cost > 0 opens it with that terrain cost."""
        x, y = _pin(self._grid, cell, "cell")
        if isinstance(cost, (int, float, np.integer, np.floating)) and not isinstance(
                cost, (bool, np.bool_)) and (cost == 0 or cost == math.inf):
            self._grid.set_passable(x, y, False)
        else:
            c = _real(cost, "cost", 0.0, _core.TERRAIN_MAX, True)
            if c != 1.0 or self._grid.has_terrain:
                self._grid.set_terrain(x, y, c)
            self._grid.set_passable(x, y, True)
        self._c.update_cells(np.array([[x, y]], dtype=np.int32).tobytes())
        self._planned = None

    def block(self, cells: Any) -> None:
        """Block these cells of the grid (a wall discovered) and tell the planner."""
        self._set_passable(cells, False)

    def unblock(self, cells: Any) -> None:
        """Open these cells of the grid and tell the planner."""
        self._set_passable(cells, True)

    def _set_passable(self, cells: Any, passable: bool) -> None:
        c = _goals_in(self._grid, cells)
        # Every cell checked before any is edited: the planner's snapshot and
        # the grid never disagree.
        for x, y in c.tolist():
            if not self._grid.contains(x, y):
                raise _error(Status.OUT_OF_BOUNDS, f"cells: ({x}, {y}) lies outside the grid")
        for x, y in c.tolist():
            self._grid.set_passable(x, y, passable)
        self._c.update_cells(c.tobytes())
        self._planned = None

    @property
    def stats(self) -> dict:
        """Work since creation and of the last plan: ``{'total': {...}, 'last': {...}}``
        with expanded, requeued, updated and plans."""
        names = ("expanded", "requeued", "updated", "plans")
        total, last = self._c.stats()
        return {"total": dict(zip(names, total)), "last": dict(zip(names, last))}

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.start} -> {self.goal} on {self._grid!r}>")


class DStarLite(_Planner):
    """D* Lite (``astar/dstar.h``): an agent walking to a fixed goal on a map
    that changes. The search runs backward from the goal and is repaired,
    not redone, after edits and moves.

        planner = libastar.DStarLite(grid, start, goal)
        while planner.start != planner.goal:
            step = planner.path().cells[1]       # or planner.next()
            planner.move_to(step)
            planner.block(walls_seen_from(step)) # edits the grid, tells the planner

    Options: moves, corner, straight_cost, diagonal_cost, a consistent
    heuristic, heuristic_floor (others raise UnsupportedError). After every
    plan the cost equals a fresh :meth:`Grid.find_path` from the agent's
    cell on the grid as edited. One thread at a time.
    """

    def next(self) -> Point:
        """The agent's next cell on the current path (plans when needed)."""
        self.path()
        return _pt(_out(self._grid, np.array([self._c.next()], dtype=np.int32))[0])

    def move_to(self, cell: Point) -> None:
        """The agent is now at ``cell`` (usually :meth:`next`). Moving along
        the path keeps the search's work: the next plan has nothing to
        repair unless the map changed."""
        self._c.move(_pin(self._grid, cell, "cell"))
        self._planned = None

    def restart(self, start: Point, goal: Point) -> None:
        """New orders: another start and goal, the search state dropped."""
        self._c.restart(_pin(self._grid, start, "start"), _pin(self._grid, goal, "goal"))
        self._planned = None


class LPAStar(_Planner):
    """LPA* (Lifelong Planning A*, ``astar/dstar.h``): repeated plans between
    a fixed start and goal while the map changes; each plan repairs the
    forward search. Same edits and guarantees as :class:`DStarLite`
    (no moves: :meth:`restart` for other ends)."""

    def restart(self, start: Point, goal: Point) -> None:
        self._c.restart(_pin(self._grid, start, "start"), _pin(self._grid, goal, "goal"))
        self._planned = None


# ---- path encodings -----------------------------------------------------------------------------

#: The encodings of ``astar/path.h``: bytes per step roughly 4, 3/8, 3/8, per run 11/8,
#: and prefix-coded turns with Elias-gamma run lengths.
ENCODINGS = ("positions", "directions", "turns", "runs", "variable")


def encode_path(path: Any, encoding: str = "variable") -> bytes:
    """A path (a :class:`Path` or cells, unit steps) as portable bytes
    (``astar_path_encode``): 'positions' (4 bytes a step), 'directions'
    (3 bits a step, 2 when 4-connected), 'turns' (relative directions, 3 or 2
    bits), 'runs' ((direction, length) pairs, 11 or 10 bits a run),
    'variable' (prefix-coded turns and run lengths: the smallest on long
    straight runs). :func:`decode_path` reads any of them back."""
    key = str(encoding).lower()
    if key not in ENCODINGS:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT,
                                   f"encoding: expected one of {'|'.join(ENCODINGS)}, "
                                   f"got {encoding!r}")
    return _core.path_encode(_cells_in(None, path, "path", strict=True).tobytes(),
                             ENCODINGS.index(key))


def decode_path(data: Any) -> np.ndarray:
    """The cells, shape (n, 2), of bytes made by :func:`encode_path` (any
    encoding: the header says which); ParseError for anything else."""
    cells, _ = _core.path_decode(bytes(data))
    return _out(None, _as_cells(cells))


def path_encoding(data: Any) -> str:
    """Which encoding ``data`` (from :func:`encode_path`) uses."""
    return ENCODINGS[_core.path_decode(bytes(data))[1]]


def turn_points(path: Any) -> np.ndarray:
    """The cells where a unit-step path changes direction, with its first
    and last cells (``astar_path_turn_points``): a compact exact form."""
    return _out(None, _as_cells(_core.turn_points(
        _cells_in(None, path, "path", strict=True).tobytes(), False)))


def expand_turn_points(points: Any) -> np.ndarray:
    """The cell path through ``points`` (consecutive ones on one of the 8
    directions): the inverse of :func:`turn_points`."""
    return _out(None, _as_cells(_core.turn_points(
        _cells_in(None, points, "points", strict=True).tobytes(), True)))


__all__ += ["path_encoding"]
