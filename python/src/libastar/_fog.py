"""Fog of war (``astar/knowledge.h``) and influence layers (``astar_layer_*``).

A :class:`Knowledge` is what one player knows of a grid: unknown cells,
cells seen passable, cells seen blocked. A search given ``knowledge=``
(:meth:`Grid.find_path`, :class:`Finder`) plans on that view: known cells as
recorded, unknown cells as the knowledge's ``unknown`` rule says
('passable', the default; 'blocked'; or 'cost': passable at ``unknown_cost``
times the cost). The start is taken as passable.

A :class:`Layer` holds extra per-cell costs (danger, say). A search given
``layers=[...]`` charges, for entering cell v, the move cost times
``terrain(v) + sum(weight_i * layer_i(v))``.
"""

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._order import _cells_in, _check, _core_error, _point_in

#: The states of a cell in a :class:`Knowledge` (astar_cell_knowledge).
STATES = ("unknown", "passable", "blocked")
_UNKNOWN_RULES = {"passable": 0, "blocked": 1, "cost": 2}   # astar_unknown


def _state_of(state: Union[str, int]) -> int:
    if isinstance(state, str) and state in STATES:
        return STATES.index(state)
    if type(state) is int and 0 <= state <= 2:
        return state
    raise _core_error(f"state: 'unknown', 'passable' or 'blocked' expected, got {state!r}")


class Knowledge(_core.Knowledge):
    """One player's knowledge of ``grid`` (``astar_knowledge_new``): every
    cell unknown at first. ``unknown``: how a search treats cells never
    seen -- 'passable' (default), 'blocked', or 'cost' (passable, entry cost
    times ``unknown_cost``, in (0, OPTION_MAX]). Cells go in in the grid's
    order (``order=`` per call). 1 byte a cell.

    Like the C object it must not change (reveal, set, clear) while a search
    on another thread reads it.
    """

    def __new__(cls, grid: Any, *, unknown: str = "passable",
                unknown_cost: float = 2.0) -> "Knowledge":
        return super().__new__(cls, grid)

    def __init__(self, grid: Any, *, unknown: str = "passable", unknown_cost: float = 2.0) -> None:
        if unknown not in _UNKNOWN_RULES:
            raise _core_error(f"unknown: 'passable', 'blocked' or 'cost' expected, got {unknown!r}")
        self._grid = grid
        self._unknown = unknown
        self._unknown_cost = _core.real(unknown_cost, "unknown_cost", 0.0, _core.OPTION_MAX, True)

    @property
    def grid(self) -> Any:
        """The grid revealed from (the truth)."""
        return self._grid

    @property
    def unknown(self) -> str:
        return self._unknown

    @property
    def unknown_cost(self) -> float:
        return self._unknown_cost

    def reveal(self, cell: Any, *, order: Optional[str] = None) -> None:  # type: ignore[override]
        """Record the grid's truth at ``cell`` (``astar_knowledge_reveal``)."""
        super().reveal(self._grid, _point_in(self._grid, cell, order, "cell"))

    def reveal_cells(self, cells: Any, *, order: Optional[str] = None) -> None:
        """Reveal each of ``cells`` (an (n, 2) array or pairs)."""
        for x, y in _cells_in(self._grid, cells, order, "cells").tolist():
            super().reveal(self._grid, (x, y))

    def reveal_radius(self, center: Any, radius: int, *,  # type: ignore[override]
                      order: Optional[str] = None) -> int:
        """Reveal every cell within Euclidean distance ``radius`` of ``center``
        (``astar_knowledge_reveal_radius``); returns how many cells changed
        state (replan when one of them blocks the path)."""
        r = _core.integer(radius, "radius", 0, 2**31 - 1)
        return int(super().reveal_radius(self._grid, _point_in(self._grid, center, order,
                                                               "center"), r))

    def set(self, cell: Any, state: Union[str, int], *,
            order: Optional[str] = None) -> None:
        """Set what is known of ``cell``: 'unknown', 'passable' or 'blocked'."""
        super().set(_point_in(self._grid, cell, order, "cell"), _state_of(state))

    def get(self, cell: Any, *, order: Optional[str] = None) -> str:  # type: ignore[override]
        """What is known of ``cell``: 'unknown', 'passable' or 'blocked'
        ('blocked' outside the grid)."""
        return STATES[super().get(_point_in(self._grid, cell, order, "cell"))]

    def states(self) -> np.ndarray:  # type: ignore[override]
        """Every cell's state as a (height, width) uint8 array (0 unknown,
        1 passable, 2 blocked), indexed ``[row, col]``."""
        return np.frombuffer(super().states(), dtype=np.uint8).reshape(self.height, self.width).copy()

    def __repr__(self) -> str:
        return (f"<Knowledge {self.width} x {self.height}, {self.count_known} known, "
                f"version {self.version}, unknown {self._unknown!r}>")


class Layer(_core.Layer):
    """An influence layer of ``width`` x ``height`` zeros (``astar_layer_new``):
    extra per-cell costs, finite and >= 0. Cells go in as (x, y), or as
    ``order`` says ('xy' or 'rc'). 4 bytes a cell.

    Like the C object it must not change while a search on another thread
    reads it.
    """

    def __new__(cls, width: int, height: int, *, order: str = "xy") -> "Layer":
        return super().__new__(cls, width, height)

    def __init__(self, width: int, height: int, *, order: str = "xy") -> None:
        self._order = _check(order)

    @classmethod
    def from_array(cls, values: Any, *, order: str = "xy") -> "Layer":
        """A layer of the values of a 2-D array indexed ``[row, col]``
        (shape (height, width)); every value finite and >= 0."""
        a = np.asarray(values)
        if a.ndim != 2 or a.dtype.kind not in "biuf":
            raise _core_error(f"values: a 2-D numeric array expected, got shape {a.shape} of "
                              f"{a.dtype}")
        layer = cls(a.shape[1], a.shape[0], order=order)
        layer.load(np.ascontiguousarray(a, dtype=np.float32).tobytes())
        return layer

    def to_array(self) -> np.ndarray:
        """The values as a (height, width) float32 array indexed ``[row, col]``."""
        return np.frombuffer(self.values(), dtype=np.float32).reshape(self.height,
                                                                      self.width).copy()

    def set(self, cell: Any, value: float, *,
            order: Optional[str] = None) -> None:
        super().set(_point_in(self, cell, order, "cell"), value)

    def get(self, cell: Any, *, order: Optional[str] = None) -> float:
        """The value at ``cell`` (0 outside)."""
        return float(super().get(_point_in(self, cell, order, "cell")))

    def fill(self, value: float) -> None:
        super().fill(value)

    def add_cone(self, center: Any, radius: float, value: float, *,
                 order: Optional[str] = None) -> None:
        """Add ``value * (1 - d / radius)`` at distance d < ``radius`` of
        ``center`` (a unit's threat, say; ``astar_layer_add_cone``)."""
        super().add_cone(_point_in(self, center, order, "center"), radius, value)

    def __repr__(self) -> str:
        return f"<Layer {self.width} x {self.height}>"


LayersArg = Optional[Sequence[Union[Layer, Tuple[Layer, float]]]]


def _overlay(grid: Any, knowledge: Optional[Knowledge], layers: LayersArg) -> Any:
    """The _core.Overlay a search's options point to, or None when neither
    is given. Checks the types and that each has the grid's size."""
    if knowledge is None and not layers:
        return None
    if knowledge is not None:
        if not isinstance(knowledge, Knowledge):
            raise TypeError(f"knowledge: a Knowledge expected, got {type(knowledge).__name__}")
        if (knowledge.width, knowledge.height) != (grid.width, grid.height):
            raise _core_error(f"knowledge: {knowledge.width} x {knowledge.height}, the grid is "
                              f"{grid.width} x {grid.height}")
    objs, weights = [], []
    for i, item in enumerate(layers or ()):
        layer, w = (item, 1.0) if isinstance(item, Layer) else (item if isinstance(
            item, tuple) and len(item) == 2 else (item, None))
        if not isinstance(layer, Layer) or w is None:
            raise TypeError(f"layers[{i}]: a Layer or a (Layer, weight) pair expected, got "
                            f"{type(item).__name__}")
        if (layer.width, layer.height) != (grid.width, grid.height):
            raise _core_error(f"layers[{i}]: {layer.width} x {layer.height}, the grid is "
                              f"{grid.width} x {grid.height}")
        objs.append(layer)
        weights.append(_core.real(w, f"layers[{i}] weight", 0.0, _core.OPTION_MAX))
    rule = _UNKNOWN_RULES[knowledge.unknown] if knowledge is not None else 0
    cost = knowledge.unknown_cost if knowledge is not None else 2.0
    return _core.Overlay(knowledge, tuple(objs), tuple(weights), rule, cost)


__all__ = ["Knowledge", "Layer", "STATES"]
