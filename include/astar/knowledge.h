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
** taken as passable (the unit stands there). Memory: 1 byte a cell, plus
** 48 KiB of change log.
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

/* Knowledge of a grid of `grid`'s size with every cell unknown. Allocates
** (the cells and the change log, never again after).
** Retains: nothing (the grids given here and to reveal are read during the
** call only). Thread safety: read-only during searches (options.knowledge)
** and the const calls -- any number of threads may search with it at once;
** reveal, set and clear need exclusive access: no search may read it
** meanwhile. (A sliced search or a queued request may be pending across
** them: it notices the change, see astar_knowledge_version.) */
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

/*
** A counter that every change of what the player knows increases: by one
** for each cell whose state (unknown / passable / blocked) changes --
** through reveal, reveal_radius or set -- and by one for a clear that
** forgets anything. A call that writes what was already known (revealing a
** cell again, seen the same; setting a cell to its state; clearing a
** knowledge that knows nothing) changes nothing, so a game may reveal every
** unit's sight every frame at no cost to the searches. New knowledge starts
** at 0. Monotonic: two different states of one object never share a
** version, so an object derived from the knowledge (a cached path, a
** planner) records it to tell it is outdated, as with astar_grid_version.
**
** Searches follow it as they follow the grid's version: a sliced search
** (astar_search_step) and the request queue (astar/queue.h) treat a change
** of their options.knowledge between two steps as a change of the grid
** (ASTAR_STALE, or a restart) when it concerns what they have read. They
** look only at the changes they can see:
** with ASTAR_UNKNOWN_PASSABLE (the default) a cell becoming or ceasing to
** be known blocked; with ASTAR_UNKNOWN_BLOCKED a cell becoming or ceasing
** to be known passable; with ASTAR_UNKNOWN_COST (unknown_cost other than 1)
** any change. Revealing open ground under the default policy, what
** exploring units do all the time, therefore stops no search: its answer
** is the same on the new knowledge. The knowledge also logs which cells
** its last 4,096 changes of each kind were, so the grid A* goes on when no
** changed cell lies next to what it has reached (astar_search_step): a wall
** revealed across the map restarts nothing. NULL gives 0. O(1).
*/
ASTAR_API uint64_t astar_knowledge_version(const astar_knowledge *k);

/* Number of known cells. O(cells). */
ASTAR_API size_t astar_knowledge_count_known(const astar_knowledge *k);

ASTAR_API int32_t astar_knowledge_width(const astar_knowledge *k);
ASTAR_API int32_t astar_knowledge_height(const astar_knowledge *k);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_KNOWLEDGE_H */
