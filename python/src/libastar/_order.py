"""Coordinates in and out: (x, y) or (row, col), per grid or per call.

The library's cells are (x, y): x the column, y the row. NumPy indexes
``array[row, col]``, so the package lets a grid (``Grid(..., order='rc')``,
``Grid.from_occupancy(..., order='rc')``) or a call (``order='rc'``) say
which one its points and paths are in. The default is ``'xy'``.

Every public function that takes cells reads them through :func:`_point_in`
(one point) or :func:`_cells_in` (many), and every path it gives back goes
out through :func:`_cells_out` (an array of cells) or :func:`_path_out` (a
Path): these four are the one place where the order is applied. Their
names and signatures are stable; other parts of the package call them.

A point may say its own order -- ``libastar.XY(x, y)``, ``libastar.RC(row,
col)`` -- and is then never misread: it is converted whatever the order
in force, except that a call's explicit ``order=`` that contradicts it is an
error (a square map would otherwise give another path without a word).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

from . import _core

ORDERS = ("xy", "rc")
_ALIASES = {"xy": "xy", "rc": "rc", "row-col": "rc", "rowcol": "rc", "ij": "rc",
            "x-y": "xy", "col-row": "xy"}


class XY(NamedTuple):
    """A cell as (x, y): x the column, y the row; read as such whatever the order."""
    x: int
    y: int


class RC(NamedTuple):
    """A cell as (row, col) -- NumPy's ``array[row, col]``; read as such whatever the order."""
    row: int
    col: int


def _check(order: Any) -> str:
    key = str(order).lower().replace("_", "-") if isinstance(order, str) else None
    if key is None or key not in _ALIASES:
        # InvalidArgumentError, built by the package's error factory.
        raise _core_error(f"order: expected 'xy' or 'rc', got {order!r}")
    return _ALIASES[key]


def _core_error(detail: str) -> Exception:
    from . import InvalidArgumentError, Status  # the package's, once it is imported
    return InvalidArgumentError(Status.INVALID_ARGUMENT, detail)


def _order_of(grid: Any, order: Optional[str] = None) -> str:
    """The order in force: the call's ``order`` when given, else the grid's
    (``grid._order``, what ``grid.order`` sets; 'xy' for an object without
    one -- a plain attribute, read without a property call on every search)."""
    if order is not None:
        return _check(order)
    return getattr(grid, "_order", "xy")


def _point_in(grid: Any, p: Any, order: Optional[str] = None,
              what: str = "point") -> Tuple[int, int]:
    """One cell given by the user -> the library's (x, y), checked by the
    package's integer rule (``_core.point``: integers only, TypeError naming
    ``what``). ``order``: the call's ``order=`` (None: the grid's). An
    :class:`XY` or :class:`RC` point is read as it says; against an explicit
    ``order`` that contradicts it, InvalidArgumentError naming ``what``."""
    if type(p) is not tuple and isinstance(p, (XY, RC)):
        says = "xy" if isinstance(p, XY) else "rc"
        if order is not None and _check(order) != says:
            raise _core_error(f"{what}: {type(p).__name__}{tuple(p)} given with "
                              f"order={order!r}")
        c = _core.point(p, what)
        return c if says == "xy" else (c[1], c[0])
    c = _core.point(p, what)
    o = _check(order) if order is not None else getattr(grid, "_order", "xy")
    return c if o == "xy" else (c[1], c[0])


def _cells_in(grid: Any, cells: Any, order: Optional[str] = None, what: str = "cells",
              strict: bool = False) -> np.ndarray:
    """Cells given by the user (an (n, 2) array or any iterable of pairs) in
    the order in force -> a contiguous int32 (n, 2) array of (x, y), by the
    rule of ``libastar._cells`` (integers only, TypeError naming ``what``)."""
    from . import _cells  # the package's converter (defined after this module loads)
    c = _cells(cells, what, strict)
    if _order_of(grid, order) == "xy":
        return c
    return np.ascontiguousarray(c[:, ::-1])


def _cells_out(grid: Any, cells: np.ndarray, order: Optional[str] = None) -> np.ndarray:
    """The library's (x, y) cells (an (n, 2) array, any dtype) -> the order
    in force: the same array for 'xy', a contiguous (row, col) copy for
    'rc'. The one way a path leaves the package."""
    if _order_of(grid, order) == "xy":
        return cells
    out = np.ascontiguousarray(cells[:, ::-1])
    out.setflags(write=cells.flags.writeable)
    return out


def _path_out(grid: Any, path: Any, order: Optional[str] = None) -> Any:
    """A Path of the library's (x, y) made to speak the order in force:
    ``cells``, ``points`` and ``end`` converted by :func:`_cells_out`,
    ``path.order`` set. Returns ``path`` (changed in place)."""
    o = _order_of(grid, order)
    path.order = o
    if o == "rc":
        path.cells = _cells_out(grid, path.cells, o)
        if path.points is not None:
            path.points = _cells_out(grid, path.points, o)
        if path.end is not None:
            path.end = (path.end[1], path.end[0])
    return path
