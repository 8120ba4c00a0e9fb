/*
** astar/grid_space.h -- the square grid of astar/grid.h as a search space
** (astar/space.h), so that the engine's algorithms (astar/engine.h) run on
** it: bidirectional search, IDA*, beam search, ... The grid's own searches
** (astar/search.h: A*, JPS, JPS+) stay the fastest way to search a grid.
** Part of libastar.
*/
#ifndef ASTAR_GRID_SPACE_H
#define ASTAR_GRID_SPACE_H

#include "base.h"
#include "grid.h"
#include "search.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** The grid of astar/grid.h seen as a graph, for the engine's algorithms
** (bidirectional search, IDA*, beam, ...): node id y * width + x; the moves,
** corner rule, move costs and terrain of `opt` (NULL: the defaults); its
** built-in heuristic (octile, or Manhattan with 4 moves; scaled by the
** grid's smallest terrain factor, so admissible and consistent) unless
** opt->heuristic says otherwise (ASTAR_H_CALLBACK is not available here).
** Successors come in the grid's direction order N, E, S, W, NE, SE, SW, NW;
** blocked cells have none and are not usable. The game-loop options of
** astar_options (layers, knowledge, turn penalty, ...) do not apply.
**
** The result refers to `grid` and to `holder`, caller storage that must
** outlive every use of *out (no allocation). The grid must not change
** while the space is searched. Returns ASTAR_OK, or ASTAR_INVALID_ARGUMENT
** (NULL arguments, invalid options, ASTAR_H_CALLBACK).
** Retains: the holder keeps the grid (read by every call of the space's
** functions): it must outlive every use of the space. Thread safety:
** read-only during searches -- any number of threads may search the space
** at once while the grid does not change.
*/
typedef struct astar_grid_space {
  const astar_grid *grid; /* the grid */
  int32_t width;          /* its width (node id = y * width + x) */
  int rule;               /* move rule (internal) */
  double cost[8];         /* cost of a move per direction */
  int hkind;              /* heuristic kind (internal) */
  double ha, hb;          /* heuristic coefficients (internal) */
  uint64_t wdiv;          /* UINT64_MAX / width + 1: row = node * wdiv >> 64 (internal) */
} astar_grid_space;

ASTAR_API astar_status astar_grid_space_init(astar_space *out, astar_grid_space *holder,
                                             const astar_grid *grid, const astar_options *opt);

/* Node id of cell (x, y) on a grid space, and back. No checks. */
ASTAR_API astar_node astar_grid_space_node(const astar_grid_space *gs, astar_point cell);
ASTAR_API astar_point astar_grid_space_cell(const astar_grid_space *gs, astar_node node);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_GRID_SPACE_H */
