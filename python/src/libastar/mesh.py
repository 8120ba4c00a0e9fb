"""Navigation meshes (``astar/mesh.h``, ``astar/navmesh_build.h``): convex
polygons covering the free space, built from a grid or a polygon map, and
searched with Polyanya (the Euclidean shortest path) or A* over the polygons
with the funnel (Detour's kind of path) through the one query API.

    >>> import libastar
    >>> from libastar import mesh
    >>> grid = libastar.Grid.from_ascii("......\\n..##..\\n......\\n")
    >>> nav = mesh.NavMesh(grid)                        # radius 0, merged polygons
    >>> f = libastar.Finder(nav.mesh, "polyanya")
    >>> path = f.find((0.5, 1.5), (5.5, 1.5))
    >>> path.points.tolist(), round(path.cost, 6)
    ([[0.5, 1.5], [2.0, 1.0], [4.0, 1.0], [5.5, 1.5]], 5.162278)

- :class:`Mesh` -- read and written in Polyanya's mesh format (version 2;
  version 1 is read too), made from polygons (:meth:`Mesh.from_polygons`),
  checked (:meth:`Mesh.validate`), asked which polygon holds a point
  (:meth:`Mesh.locate`, :meth:`Mesh.locate_many`); its vertices and
  polygons as NumPy arrays;
- :class:`PolyMap` -- a polygon map (Polyanya's poly format: the free space
  is the even-odd union of its polygons);
- :class:`NavMesh` -- a builder: the mesh of a :class:`libastar.Grid` (cell
  (x, y) is the square [x, x+1] x [y, y+1]; where exactly two diagonally
  opposite cells of a grid point are blocked the free space does not pass
  through it -- Anya's corner rule, so Polyanya's length equals Anya's) or
  of a :class:`PolyMap`, with an agent ``radius`` and obstacles added and
  removed later (only the polygons they touch are rebuilt);
- searches: ``libastar.Finder(mesh, "polyanya" | "funnel")`` and its
  ``find(start, goal)``: a :class:`libastar.Path` whose ``points`` are the
  start, the bends and the goal, ``cost`` its length, the search's figures
  (``expanded``, ``generated``, ...; ``corridor``: the funnel's polygons).
  The search runs in C without the GIL.

Points are (x, y) pairs of finite numbers in the mesh's coordinates (a grid's
mesh: cell units, y down). Errors are the package's: ParseError with
``line`` and ``column`` (and the fault's ``polygon``, ``vertex``, ``kind``)
for bad text, InvalidArgumentError naming the argument and its range,
StartBlockedError / GoalBlockedError for an end outside the mesh.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core

__all__ = ["BuildStats", "Fault", "FAULTS", "Location", "Mesh", "NavMesh", "PLACES", "PolyMap",
           "RADIUS_MAX", "RADIUS_SIDES", "build"]

#: The fault kinds (:attr:`Fault.kind`), by their astar_mesh_fault_kind value.
FAULTS: Tuple[str, ...] = ("none", "syntax", "range", "degenerate", "not_convex", "clockwise",
                           "neighbour", "overlap", "loose_vertex", "too_large")
#: Where a point is (:attr:`Location.place`), by astar_mesh_place value.
PLACES: Tuple[str, ...] = ("outside", "inside", "edge", "vertex")
#: The largest agent radius (astar_navmesh_options.radius).
RADIUS_MAX: float = 1e6
#: Sides of the polygon standing for the agent's disc (ASTAR_NAVMESH_RADIUS_SIDES).
RADIUS_SIDES: int = _core.NAVMESH_RADIUS_SIDES


def _pkg() -> Any:
    return sys.modules[(__package__ or "libastar")]


class Fault(NamedTuple):
    """What is wrong with a mesh (``astar_mesh_fault``): :meth:`Mesh.validate`."""
    kind: str      #: one of :data:`FAULTS`
    polygon: int   #: the polygon at fault, -1 when none
    vertex: int    #: the vertex at fault, -1 when none
    other: int     #: the other polygon (neighbour, overlap), -1 when none
    line: int      #: text only: 1-based line, 0 otherwise
    column: int    #: text only: 1-based column, 0 otherwise
    message: str   #: the library's sentence naming the polygon and vertex


class Location(NamedTuple):
    """Which polygon holds a point (``astar_mesh_location``): :meth:`Mesh.locate`."""
    place: str     #: 'outside', 'inside', 'edge' or 'vertex'
    polygon: int   #: the smallest-index polygon whose closure holds the point; -1 outside
    other: int     #: on an edge: the polygon across it (-1 at a border); else -1
    vertex: int    #: on a vertex: the vertex; else -1


class BuildStats(NamedTuple):
    """What a build or the last edit did (``astar_navmesh_stats``)."""
    constraints: int      #: constraint edges inserted (after splitting)
    triangles: int        #: triangles of the triangulation (free and blocked)
    free_triangles: int   #: of them in free space
    polygons: int         #: polygons of the mesh (non-empty slots)
    removed: int          #: the last edit: polygons removed (0 for a build)
    added: int            #: the last edit: polygons made
    nbytes: int           #: bytes the builder holds (its mesh included)


def _text(source: Any, what: str) -> Tuple[bytes, Optional[str]]:
    """(bytes, filename or None): text given as str / bytes, or a path."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, str) and ("\n" in source or "\r" in source or
                                    source.lstrip().startswith(("mesh", "poly"))):
        return source.encode(), None
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            return f.read(), os.fspath(source)
    raise TypeError(f"{what}: a path or the text itself expected, got {type(source).__name__}")


def _named(e: Exception, filename: Optional[str]) -> Exception:
    pkg = _pkg()
    if filename and isinstance(e, pkg.ParseError):
        e.filename = filename
        e.args = (e._text(),)
    return e


def _points(points: Any, what: str, min_count: int = 0) -> np.ndarray:
    """(x, y) pairs of finite numbers as a contiguous float64 (n, 2) array."""
    pkg = _pkg()
    try:
        a = np.asarray(points)
    except Exception:
        raise TypeError(f"{what}: (x, y) pairs of numbers expected") from None
    if a.dtype == object or a.dtype.kind not in "iuf" or a.dtype == np.bool_:
        if a.size == 0:
            a = np.zeros((0, 2))
        else:
            raise TypeError(f"{what}: (x, y) pairs of numbers expected, got {a.dtype} values")
    if a.ndim != 2 or a.shape[1] != 2:
        if a.size == 0:
            a = a.reshape(0, 2)
        else:
            raise pkg.InvalidArgumentError(
                pkg.Status.INVALID_ARGUMENT, f"{what}: (x, y) pairs expected, got shape {a.shape}")
    a = np.ascontiguousarray(a, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        bad = int(np.argmax(~np.all(np.isfinite(a), axis=1)))
        raise pkg.InvalidArgumentError(
            pkg.Status.INVALID_ARGUMENT,
            f"{what}[{bad}]: finite coordinates expected, got {tuple(a[bad].tolist())}")
    if len(a) < min_count:
        raise pkg.InvalidArgumentError(
            pkg.Status.INVALID_ARGUMENT,
            f"{what}: at least {min_count} points expected, got {len(a)}")
    return a


def _point(p: Any, what: str) -> Tuple[float, float]:
    """One (x, y) point of finite numbers."""
    pkg = _pkg()
    try:
        x, y = p
    except (TypeError, ValueError):
        raise TypeError(f"{what}: an (x, y) pair of numbers expected, got {p!r}") from None
    inf = math.inf
    return (pkg._real(x, f"{what}[0]", -inf, inf), pkg._real(y, f"{what}[1]", -inf, inf))


class Mesh(_core.Mesh):
    """A navigation mesh (``astar_mesh``): V vertices and P convex polygons,
    counter-clockwise by the sign of the cross product in the coordinates
    as given, neighbour k of a polygon across its edge from vertex k-1 to
    vertex k (-1 at a border). Read-only: a :class:`NavMesh`'s mesh changes
    only through its builder (``version`` counts the edits; polygons an edit
    removed are empty slots, ``sizes[i] == 0``). Threads may locate and
    search it at once.

    Make one with :meth:`read`, :meth:`from_polygons` or a :class:`NavMesh`."""

    def __new__(cls, *args: Any, **kw: Any) -> "Mesh":
        raise TypeError("Mesh: make one with Mesh.read(text or path), Mesh.from_polygons(...) "
                        "or NavMesh(grid or polymap).mesh")

    @classmethod
    def read(cls, source: Any) -> "Mesh":
        """A mesh from Polyanya's mesh format (version 2, or 1): the text
        (str or bytes) or a path. Validated; ParseError with ``line``,
        ``column``, ``polygon``, ``vertex`` and ``kind`` otherwise."""
        text, filename = _text(source, "source")
        try:
            return _core.mesh_read(cls, text)
        except _pkg().AstarError as e:
            raise _named(e, filename) from None

    @classmethod
    def from_polygons(cls, vertices: Any, polygons: Iterable[Sequence[int]]) -> "Mesh":
        """A mesh from ``vertices`` ((V, 2) numbers) and ``polygons`` (each
        a sequence of >= 3 vertex indices, counter-clockwise); neighbours are
        derived from shared edges. InvalidArgumentError naming the polygon
        when they do not make a valid mesh."""
        pkg = _pkg()
        v = _points(vertices, "vertices")
        sizes: List[int] = []
        flat: List[int] = []
        for i, poly in enumerate(polygons):
            idx = [pkg._integer(k, f"polygons[{i}]", -2**31, 2**31 - 1) for k in poly]
            sizes.append(len(idx))
            flat.extend(idx)
        return _core.mesh_from_polygons(cls, v.tobytes(), np.array(sizes, dtype=np.uint32).tobytes(),
                                        np.array(flat, dtype=np.int32).tobytes())

    def write(self, path: Any = None) -> str:  # type: ignore[override]
        """The mesh in format version 2 (empty slots left out, polygons
        renumbered); also written to ``path`` when given."""
        text = _core.Mesh.write(self).decode()
        if path is not None:
            with open(path, "w", encoding="ascii") as f:
                f.write(text)
        return text

    def validate(self) -> Optional[Fault]:  # type: ignore[override]
        """Check the mesh again (convex, counter-clockwise, neighbours
        symmetric, no overlaps): None when valid, else the first
        :class:`Fault`."""
        t = _core.Mesh.validate(self)
        if t is None:
            return None
        kind, polygon, vertex, other, line, column, message = t
        return Fault(FAULTS[kind] if 0 <= kind < len(FAULTS) else str(kind), polygon, vertex,
                     other, line, column, message)

    def locate(self, point: Any) -> Location:  # type: ignore[override]
        """Which polygon holds ``point`` (x, y): a :class:`Location` (exact;
        on an edge or a vertex the polygon of the smallest index)."""
        x, y = _point(point, "point")
        place, polygon, other, vertex = _core.Mesh.locate(self, x, y)
        return Location(PLACES[place], polygon, other, vertex)

    def locate_many(self, points: Any) -> np.ndarray:  # type: ignore[override]
        """The polygon holding each of ``points`` ((N, 2) numbers): int32
        array, -1 where outside."""
        a = _points(points, "points")
        return np.frombuffer(_core.Mesh.locate_many(self, a.tobytes()), dtype=np.int32).copy()

    @property
    def vertices(self) -> np.ndarray:  # type: ignore[override]
        """The vertices, float64 of shape (V, 2)."""
        return np.frombuffer(_core.Mesh.vertices(self), dtype=np.float64).reshape(-1, 2).copy()

    def _lists(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        sizes, vs, ns = _core.Mesh.polygons(self)
        return (np.frombuffer(sizes, dtype=np.uint32), np.frombuffer(vs, dtype=np.int32),
                np.frombuffer(ns, dtype=np.int32))

    @property
    def polygons(self) -> List[np.ndarray]:  # type: ignore[override]
        """Each polygon slot's vertex indices (int32 arrays, counter-clockwise;
        empty for an empty slot)."""
        sizes, vs, _ = self._lists()
        return [a.copy() for a in np.split(vs, np.cumsum(sizes)[:-1])] if len(sizes) else []

    @property
    def neighbours(self) -> List[np.ndarray]:
        """Each polygon slot's neighbours (int32 arrays: neighbour k across the
        edge from vertex k-1 to vertex k; -1 at a border)."""
        sizes, _, ns = self._lists()
        return [a.copy() for a in np.split(ns, np.cumsum(sizes)[:-1])] if len(sizes) else []

    @property
    def sizes(self) -> np.ndarray:
        """Vertices of each polygon slot (uint32; 0: an empty slot)."""
        return self._lists()[0].copy()

    def __len__(self) -> int:
        """Polygons (non-empty slots)."""
        return int(np.count_nonzero(self._lists()[0]))

    def __repr__(self) -> str:
        return (f"<Mesh {self.vertex_count} vertices, {len(self)} polygons, "
                f"area {self.area:.6g}>")


class PolyMap(_core.PolyMap):
    """A polygon map (Polyanya's poly format, version 1): simple polygons
    whose symmetric difference is the free space (a point is free when an
    odd number of them hold it) -- typically a border and obstacles inside.

    ``PolyMap(polygons)``: each polygon a sequence of >= 3 (x, y) points,
    either orientation; :meth:`read` for text or a file."""

    def __new__(cls, polygons: Iterable[Any]) -> "PolyMap":
        pts = [_points(p, f"polygons[{i}]") for i, p in enumerate(polygons)]
        sizes = np.array([len(p) for p in pts], dtype=np.uint32)
        flat = np.concatenate(pts) if pts else np.zeros((0, 2))
        return _core.polymap_new(cls, np.ascontiguousarray(flat, dtype=np.float64).tobytes(),
                                 sizes.tobytes())

    @classmethod
    def read(cls, source: Any) -> "PolyMap":
        """A polygon map from its text (str or bytes) or a path; ParseError
        with ``line`` and ``column`` otherwise."""
        text, filename = _text(source, "source")
        try:
            return _core.polymap_read(cls, text)
        except _pkg().AstarError as e:
            raise _named(e, filename) from None

    @property
    def polygons(self) -> List[np.ndarray]:  # type: ignore[override]
        """The polygons, each float64 of shape (n, 2)."""
        return [np.frombuffer(b, dtype=np.float64).reshape(-1, 2).copy()
                for b in _core.PolyMap.polygons(self)]

    def write(self, path: Any = None) -> str:  # type: ignore[override]
        """The map in the poly format; also written to ``path`` when given."""
        text = _core.PolyMap.write(self).decode()
        if path is not None:
            with open(path, "w", encoding="ascii") as f:
                f.write(text)
        return text

    def __len__(self) -> int:
        return len(_core.PolyMap.polygons(self))

    def __repr__(self) -> str:
        return f"<PolyMap {len(self)} polygons>"


Source = Union["PolyMap", Any]


class NavMesh(_core.NavMesh):
    """A navigation-mesh builder (``astar_navmesh``): the constrained Delaunay
    triangulation of a map's free space, merged into convex polygons
    (``merge``), shrunk by an agent ``radius`` (every path keeps at least
    that far from the obstacles), and obstacles added and removed later,
    rebuilding only the polygons they touch.

    ``source``: a :class:`libastar.Grid` (cells are unit squares, y down,
    Anya's corner rule; terrain costs ignored), a :class:`PolyMap`, or a
    path or text of either (a ``.poly`` file or text starting with
    ``poly``; anything else is read as a grid map). ``radius``: a number in
    [0, 1e6]. ``mesh`` is the built :class:`Mesh`, edited in place by
    :meth:`add_obstacle` and :meth:`remove_obstacle` (a :class:`libastar.Finder`
    on it follows the edits). Edits need no search running on the mesh
    (RuntimeError)."""

    _mesh: Optional[Mesh] = None
    _radius: float
    _merge: bool

    def __new__(cls, source: Any, *, radius: float = 0.0, merge: bool = True) -> "NavMesh":
        pkg = _pkg()
        r = pkg._real(radius, "radius", 0.0, RADIUS_MAX)
        m = pkg._flag(merge, "merge")
        src = _source(source)
        self = _core.navmesh_build(cls, src, r, m)
        self._radius = r
        self._merge = m
        return self

    @property
    def radius(self) -> float:
        return self._radius

    @property
    def merge(self) -> bool:
        return self._merge

    @property
    def mesh(self) -> Mesh:
        """The mesh (owned by this builder; changed in place by its edits)."""
        if self._mesh is None:
            self._mesh = _core.NavMesh.borrow_mesh(self, Mesh)
        return self._mesh

    @property
    def stats(self) -> BuildStats:  # type: ignore[override]
        """Figures of the build and of the last edit."""
        return BuildStats(*_core.NavMesh.stats(self))

    def add_obstacle(self, points: Any) -> int:
        """Add an obstacle: a simple polygon of >= 3 (x, y) points (either
        orientation) in map coordinates, grown by the radius. Returns its id
        (for :meth:`remove_obstacle`; ids count up from 1, never reused)."""
        a = _points(points, "points", 3)
        return int(_core.NavMesh.add_obstacle(self, a.tobytes()))

    def remove_obstacle(self, id: int) -> None:
        """Remove obstacle ``id``: its region is free again where nothing else
        blocks it. InvalidArgumentError when there is no such obstacle."""
        pkg = _pkg()
        _core.NavMesh.remove_obstacle(self, pkg._integer(id, "id", 1, 2**32 - 1))

    def __repr__(self) -> str:
        s = self.stats
        return f"<NavMesh {s.polygons} polygons, radius {self._radius:g}>"


def _source(source: Any) -> Any:
    pkg = _pkg()
    if isinstance(source, (_core.Grid, _core.PolyMap)):
        return source
    if isinstance(source, (str, bytes, bytearray, memoryview, os.PathLike)):
        text, filename = _text(source, "source")
        is_poly = (filename or "").endswith(".poly") or text.lstrip().startswith(b"poly")
        try:
            if is_poly:
                return _core.polymap_read(PolyMap, text)
            return pkg.Grid.load(text)
        except pkg.AstarError as e:
            raise _named(e, filename) from None
    raise TypeError(f"source: a Grid, a PolyMap, or a path or text of one expected, got "
                    f"{type(source).__name__}")


def build(source: Any, *, radius: float = 0.0, merge: bool = True) -> NavMesh:
    """``NavMesh(source, radius=radius, merge=merge)``: the builder; its
    ``mesh`` is the navigation mesh."""
    return NavMesh(source, radius=radius, merge=merge)


# ---- the finder's mesh door (libastar.Finder on a Mesh or a NavMesh) -----------------------

_MESH_SETTINGS = ("weight", "max_expansions")


def _mesh_finder(finder: Any, target: Any, name: str, kw: dict, given: dict) -> None:
    """Finder.__init__ on a mesh: Polyanya or the funnel
    (astar_finder_new_mesh)."""
    pkg = _pkg()
    mesh = target.mesh if isinstance(target, NavMesh) else target
    info = pkg._METHOD_BY_NAME[name]
    if not info.mesh:
        ms = ", ".join(m.name for m in pkg._METHOD_TABLE if m.mesh)
        raise pkg._unsupported(f"{name}: does not search navigation meshes; a Mesh is searched "
                               f"by {ms}")
    for key, v in given.items():
        if v is None or v is False or (key == "unit_size" and not isinstance(v, bool) and v == 1):
            continue
        raise pkg._unsupported(f"{key}=: prepares a grid search; a mesh finder takes "
                               "weight= and max_expansions= only")
    extra = sorted(k for k in kw if k not in _MESH_SETTINGS)
    if extra:
        raise pkg._unsupported(f"{extra[0]}=: a mesh finder takes weight= and "
                               "max_expansions= only")
    weight = pkg._real(kw.get("weight", 1.0), "weight", 1.0, pkg._OPTION_MAX)
    maxexp = pkg._integer(kw.get("max_expansions", 0), "max_expansions", 0, 2**64 - 1)
    finder._grid = target
    finder._info = info
    finder._options = None
    finder._att = {}
    finder._mesh = mesh
    finder._c = _core.MeshFinder(mesh, info.id, weight, maxexp)


def _mesh_find(finder: Any, start: Any, goal: Any, workspace: Any) -> Any:
    pkg = _pkg()
    s = _point(start, "start")
    g = _point(goal, "goal")
    return _mesh_outcome(finder._c.find(workspace or pkg._workspace(), s, g))


def _mesh_outcome(t: tuple) -> Any:
    """The Path of a mesh finder's result tuple, or its status's exception."""
    pkg = _pkg()
    p = pkg._path(t[:19])
    p.corridor = t[19]
    if p.status in (pkg.Status.OK, pkg.Status.PARTIAL):
        if p.points is None:
            p.points = np.zeros((0, 2))
        return p
    raise pkg._error(t[0], pkg._pythonic(t[10]), path=p)


def _mesh_find_many(finder: Any, starts: Any, goals: Any, costs_only: Any,
                    order: Optional[str]) -> Any:
    pkg = _pkg()
    costs_only = pkg._flag(costs_only, "costs_only")
    if order is not None:
        raise TypeError("order: a mesh finder's points are (x, y)")
    s = _points(starts, "starts")
    g = _points(goals, "goals")
    if len(s) != len(g):
        raise pkg.InvalidArgumentError(pkg.Status.INVALID_ARGUMENT,
                                       f"goals: {len(s)} expected (one per start), got {len(g)}")
    ws = pkg._workspace()
    paths = []
    for a, b in zip(s.tolist(), g.tolist()):
        t = finder._c.find(ws, (a[0], a[1]), (b[0], b[1]))
        p = pkg._path(t[:19])
        p.corridor = t[19]
        if p.points is None:
            p.points = np.zeros((0, 2))
        paths.append(p)
    finder.threads_used = 1
    if costs_only:
        return np.array([p.cost if p.status == pkg.Status.OK else np.inf for p in paths],
                        dtype=np.float64)
    return paths
