"""A reference for the planning tests: a grid's moves as a SciPy sparse
graph, built here from the rules of astar/search.h (8 moves, corner rule
'no-cut', straight 1, diagonal sqrt 2, entering a cell costs the move's cost
times its terrain), independently of the library."""
import math

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, dijkstra

import libastar

MOVES8 = [(0, -1, 1.0), (1, 0, 1.0), (0, 1, 1.0), (-1, 0, 1.0),
          (1, -1, math.sqrt(2)), (1, 1, math.sqrt(2)), (-1, 1, math.sqrt(2)),
          (-1, -1, math.sqrt(2))]


def random_costs(rng, h, w, wall=0.3, terrain=False):
    """A cost array: inf walls, 1 or random terrain in [1, 5)."""
    c = np.where(rng.random((h, w)) < wall, np.inf, 1.0)
    if terrain:
        c = np.where(np.isfinite(c), np.round(1 + 4 * rng.random((h, w)), 2), c)
    return c


def graph_of(costs, moves=8):
    """The CSR graph of a cost array (inf: blocked): node y * w + x."""
    h, w = costs.shape
    costs = costs.astype(np.float32).astype(np.float64)  # the grid stores float32 costs
    free = np.isfinite(costs)
    rows, cols, vals = [], [], []
    for dx, dy, step in (MOVES8 if moves == 8 else MOVES8[:4]):
        for y in range(h):
            for x in range(w):
                nx, ny = x + dx, y + dy
                if not (free[y, x] and 0 <= nx < w and 0 <= ny < h and free[ny, nx]):
                    continue
                if dx and dy and not (free[y, nx] and free[ny, x]):
                    continue  # no-cut: both side cells passable
                rows.append(y * w + x)
                cols.append(ny * w + nx)
                vals.append(step * costs[ny, nx])
    return sp.csr_matrix((vals, (rows, cols)), shape=(h * w, h * w))


def cost_to_goals(costs, goals, moves=8):
    """Reference cost from every cell to the nearest goal (x, y), shape (h, w)."""
    h, w = costs.shape
    g = graph_of(costs, moves)
    d = dijkstra(g.T.tocsr(), indices=[y * w + x for x, y in goals], min_only=True)
    d = d.reshape(h, w)
    d[~np.isfinite(costs)] = np.inf
    return d


def labels_of(costs, moves=8):
    """Reference islands: connected components of the graph (blocked cells 0);
    returns a function (a, b) -> same island."""
    h, w = costs.shape
    n, lab = connected_components(graph_of(costs, moves), directed=False)
    lab = lab.reshape(h, w)
    free = np.isfinite(costs)
    return lambda a, b: bool(free[a[1], a[0]] and free[b[1], b[0]]
                             and lab[a[1], a[0]] == lab[b[1], b[0]])


def grid_of(costs):
    return libastar.Grid.from_numpy(costs)
