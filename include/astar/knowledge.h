/*
** astar/knowledge.h -- fog of war: what one player knows of a shared grid
** (seed 000, "unexplored areas").
**
** A knowledge object records, per cell, unknown / known passable / known
** blocked, as seen at the moment of revealing. Many players can keep their
** own knowledge of one grid without copying it. A search given
** options.knowledge plans on the player's view: known cells as recorded,
** unknown cells as options.unknown says (passable -- the seed's behaviour --,
** blocked, or passable at options.unknown_cost times the cost). The start is
** taken as passable (the unit stands there). Memory: 1 byte a cell.
*/
#ifndef ASTAR_KNOWLEDGE_H
#define ASTAR_KNOWLEDGE_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum astar_cell_knowledge {
  ASTAR_CELL_UNKNOWN = 0,  /* never seen */
  ASTAR_CELL_PASSABLE = 1, /* seen passable */
  ASTAR_CELL_BLOCKED = 2   /* seen blocked */
} astar_cell_knowledge;

/* Knowledge of a grid of `grid`'s size with every cell unknown. Allocates.
** Retains: nothing (the grids given here and to reveal are read during the
** call only). Thread safety: read-only during searches (options.knowledge)
** and the const calls -- any number of threads may search with it at once;
** reveal, set and clear need exclusive access: no search may read it
** meanwhile. */
ASTAR_API astar_status astar_knowledge_new(astar_knowledge **out, const astar_grid *grid,
                                           const astar_allocator *alloc);
/* Release it. NULL is allowed. */
ASTAR_API void astar_knowledge_free(astar_knowledge *k);

/* Record the truth of (x, y) from `grid` (which must have k's size): O(1).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT or ASTAR_OUT_OF_BOUNDS. */
ASTAR_API astar_status astar_knowledge_reveal(astar_knowledge *k, const astar_grid *grid, int32_t x,
                                              int32_t y);

/* Reveal every cell within Euclidean distance `radius` of (x, y) (clipped
** to the grid); *changed (may be NULL) receives how many cells changed
** state -- a caller replans when a revealed cell blocks its path.
** O(radius^2), no allocation. */
ASTAR_API astar_status astar_knowledge_reveal_radius(astar_knowledge *k, const astar_grid *grid,
                                                     int32_t x, int32_t y, int32_t radius,
                                                     size_t *changed);

/* Set a cell's state directly (for maps known in advance, scripted events). */
ASTAR_API astar_status astar_knowledge_set(astar_knowledge *k, int32_t x, int32_t y,
                                           astar_cell_knowledge state);

/* The state of (x, y); ASTAR_CELL_BLOCKED outside. */
ASTAR_API astar_cell_knowledge astar_knowledge_get(const astar_knowledge *k, int32_t x, int32_t y);

/* Forget everything (all unknown). */
ASTAR_API void astar_knowledge_clear(astar_knowledge *k);

/* Number of known cells. O(cells). */
ASTAR_API size_t astar_knowledge_count_known(const astar_knowledge *k);

ASTAR_API int32_t astar_knowledge_width(const astar_knowledge *k);
ASTAR_API int32_t astar_knowledge_height(const astar_knowledge *k);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_KNOWLEDGE_H */
