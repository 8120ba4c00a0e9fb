"""What people hold, read the way they mean it: occupancy grids, masks,
images and cost arrays -> (passable uint8, terrain float32 or None), the
pair a grid loads (``grid._load``).

Each reader takes one kind of array and says how it reads it; the grid's
constructors (``Grid.from_occupancy``, ``from_mask``, ``from_image``,
``from_costs``) are thin over them. :func:`check_numpy` finds the arrays
``from_numpy`` (bool passability or costs with 0 as a wall) would read the
other way round and warns, naming the constructor that reads them right.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import numpy as np

from . import _core

Arrays = Tuple[np.ndarray, Optional[np.ndarray]]

#: ROS map_server's occupied_thresh (0.65): an occupancy value >= 65 is a wall.
OCCUPIED_THRESHOLD = 65
#: A pixel darker than this grey level (0..255) is dark: map_server's
#: occupied_thresh 0.65 on (255 - grey) / 255, i.e. grey <= 89.
DARK_THRESHOLD = 90


class AmbiguousArrayWarning(UserWarning):
    """An array that a constructor reads one way looks meant the other way
    (an occupancy grid or an image given to ``from_numpy``, which reads
    numbers as costs with 0 as a wall). The message names the constructor
    that reads it as meant; ``warnings.simplefilter('error',
    libastar.AmbiguousArrayWarning)`` makes it an error."""


AmbiguousArrayWarning.__module__ = "libastar"


def _invalid(detail: str) -> Exception:
    from . import InvalidArgumentError, Status
    return InvalidArgumentError(Status.INVALID_ARGUMENT, detail)


def _two_d(array: Any, what: str = "array", ndim: Tuple[int, ...] = (2,)) -> np.ndarray:
    if isinstance(array, np.ma.MaskedArray):
        raise TypeError(f"{what}: a masked array: fill it first (array.filled(...)) with the "
                        "value its masked cells mean")
    a = np.asarray(array)
    if a.ndim not in ndim:
        raise ValueError(f"{what}: a 2-D array (rows, columns) expected, got shape {a.shape}")
    if 0 in a.shape[:2]:
        raise _invalid(f"{what}: shape {a.shape} has no cells (a grid has at least one row "
                       "and one column)")
    return a


def _at(bad: np.ndarray) -> str:
    r, c = np.argwhere(bad)[0][:2]
    return f"(row={r}, col={c})"


def _choice(what: str, value: Any, allowed: Tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise _invalid(f"{what}: expected one of {'|'.join(allowed)}, got {value!r}")
    return value


def _passable(free: np.ndarray) -> Arrays:
    return np.ascontiguousarray(free, dtype=np.uint8), None


def occupancy(array: Any, threshold: int = OCCUPIED_THRESHOLD,
              unknown: str = "blocked") -> Arrays:
    """ROS occupancy (nav_msgs/OccupancyGrid data, int8): 0..100 the
    probability of a wall in percent, -1 unknown. A cell >= ``threshold``
    (an integer in [1, 101]) is blocked; ``unknown`` 'blocked' or 'free'."""
    a = _two_d(array)
    if a.dtype == np.bool_ or a.dtype.kind not in "iu":
        raise TypeError(f"array: integer occupancy values (-1, 0..100) expected, got dtype "
                        f"{a.dtype} (a bool mask: Grid.from_mask; costs: Grid.from_costs)")
    threshold = _core.integer(threshold, "threshold", 1, 101)
    unknown = _choice("unknown", unknown, ("blocked", "free"))
    bad = (a < -1) | (a > 100)
    if np.any(bad):
        raise _invalid(f"array: occupancy {a[bad][0]} at {_at(bad)}: expected -1 (unknown) or "
                       "0..100")
    free = (a >= 0) & (a < threshold)
    if unknown == "free":
        free |= a == -1
    return _passable(free)


def mask(array: Any, free: bool = True) -> Arrays:
    """A boolean mask: True = free (``free=True``) or True = blocked (``free=False``)."""
    a = _two_d(array)
    if a.dtype != np.bool_:
        raise TypeError(f"array: a bool mask expected, got dtype {a.dtype} (occupancy: "
                        "Grid.from_occupancy; an image: Grid.from_image; costs: "
                        "Grid.from_costs; or array != 0)")
    free = _core.flag(free, "free")
    return _passable(a if free else ~a)


def image(array: Any, threshold: int = DARK_THRESHOLD, dark: str = "blocked") -> Arrays:
    """A picture of the map: uint8 grey (rows, cols), RGB (rows, cols, 3) or
    RGBA (rows, cols, 4; alpha ignored) -- colours to grey by ITU-R 601 luma
    (0.299 R + 0.587 G + 0.114 B) -- or floats in [0, 1] (as scikit-image
    reads them; x 255). A pixel is dark when its grey < ``threshold`` (an
    integer in [1, 255]); ``dark`` 'blocked' (map_server: black is a wall)
    or 'free' (light pixels are walls)."""
    a = _two_d(array, ndim=(2, 3))
    if a.ndim == 3 and a.shape[2] not in (3, 4):
        raise ValueError(f"array: grey (rows, cols), RGB or RGBA (rows, cols, 3 or 4) "
                         f"expected, got shape {a.shape}")
    if a.dtype == np.uint8:
        g = a.astype(np.float64)
    elif a.dtype.kind == "f":
        g = a.astype(np.float64)
        bad = ~np.isfinite(g) | (g < 0) | (g > 1)
        if np.any(bad):
            raise _invalid(f"array: float pixel {g[bad][0]:g} at {_at(bad)}: a float image is "
                           "in [0, 1]")
        g = g * 255.0
    else:
        raise TypeError(f"array: a uint8 image or floats in [0, 1] expected, got dtype {a.dtype} "
                        "(occupancy: Grid.from_occupancy; costs: Grid.from_costs; a bool mask: "
                        "Grid.from_mask)")
    if g.ndim == 3:
        g = g[:, :, 0] * 0.299 + g[:, :, 1] * 0.587 + g[:, :, 2] * 0.114
    threshold = _core.integer(threshold, "threshold", 1, 255)
    dark = _choice("dark", dark, ("blocked", "free"))
    is_dark = g < threshold
    return _passable(~is_dark if dark == "blocked" else is_dark)


def costs(array: Any, wall: str = "inf") -> Arrays:
    """Terrain costs (any real array): entering a cell costs the move's cost
    times its value, in (0, 1e9]. ``wall='inf'``: +inf marks a wall, and 0
    is an error; ``wall='zero'``: 0 marks a wall, and inf is an error. NaN,
    negative costs and costs beyond 1e9 are errors in both, naming the cell."""
    a = _two_d(array)
    wall = _choice("wall", wall, ("inf", "zero"))
    if a.dtype == np.bool_:
        raise TypeError("array: a bool array is a mask: Grid.from_mask")
    if not np.issubdtype(a.dtype, np.number) or np.iscomplexobj(a):
        raise TypeError(f"array: real costs expected, got dtype {a.dtype}")
    c = a.astype(np.float64, copy=False)

    def refuse(bad: np.ndarray, why: str) -> None:
        if np.any(bad):
            raise _invalid(f"array: cost {c[bad][0]:g} at {_at(bad)}: {why}")

    refuse(np.isnan(c), "NaN is not a cost (a wall is "
           + ("inf" if wall == "inf" else "0") + f" with wall={wall!r})")
    refuse(c < 0, "negative costs are an error")
    if wall == "inf":
        refuse(c == 0, "a cost is > 0; with wall='inf' a wall is inf (wall='zero': 0 is one)")
        blocked = np.isposinf(c)
    else:
        refuse(np.isinf(c), "with wall='zero' a wall is 0 (wall='inf': inf is one)")
        blocked = c == 0
    passable = ~blocked
    refuse(passable & (c > _core.TERRAIN_MAX), f"costs are at most {_core.TERRAIN_MAX:g}")
    terrain = np.where(passable, c, 1.0).astype(np.float32)
    refuse(passable & (terrain == 0),
           "it rounds to 0 in float32, as the grid stores costs (the smallest is 1.4e-45)")
    if np.all(terrain == 1.0):
        return _passable(passable)
    return np.ascontiguousarray(passable, dtype=np.uint8), np.ascontiguousarray(terrain)


def check_numpy(array: Any, caller: str = "Grid.from_numpy") -> None:
    """Warn (:class:`AmbiguousArrayWarning`) when ``from_numpy`` -- bool
    passability, else costs with 0 (and inf, NaN) a wall -- would read an
    array the other way round from what it most likely is:

    - an int8 array of 0..100 holding 0 and 100 (ROS occupancy): read as costs, its free
      cells (0) become walls and its walls (100) cost 100;
    - a uint8 array holding both 0 and 255 (an image): black becomes walls
      and white terrain of cost 255, which JPS and JPS+ refuse.

    An int8 array holding -1 (unknown) is refused as before (a negative
    cost); the error then names from_occupancy (see :func:`negative_hint`)."""
    a = array if isinstance(array, np.ndarray) else None
    if a is None or a.ndim != 2 or a.size == 0:
        return
    if a.dtype == np.int8 and a.min() == 0 and a.max() == 100:
        warnings.warn(
            f"{caller} reads numbers as terrain costs with 0 as a wall, but this int8 array of "
            "0..100 looks like a ROS occupancy grid (0 free, 100 occupied), which that reads "
            "inverted: use Grid.from_occupancy(array) (or Grid.from_costs(array, wall='zero') "
            "to mean costs)", AmbiguousArrayWarning, stacklevel=3)
    elif a.dtype == np.uint8 and a.max() == 255 and a.min() == 0:
        warnings.warn(
            f"{caller} reads numbers as terrain costs with 0 as a wall, but this uint8 array of "
            "0 and 255 looks like an image: white becomes terrain of cost 255 (JPS refuses "
            "it): use Grid.from_image(array) (or Grid.from_costs(array, wall='zero') to mean "
            "costs)", AmbiguousArrayWarning, stacklevel=3)


def negative_hint(array: Any) -> str:
    """What to add to from_numpy's error for negative costs when the array
    looks like occupancy (int8 with -1)."""
    a = array if isinstance(array, np.ndarray) else None
    if a is not None and a.dtype.kind == "i" and a.size and a.min() == -1 and a.max() <= 100:
        return " -- this looks like a ROS occupancy grid (-1 unknown): Grid.from_occupancy(array)"
    return ""
