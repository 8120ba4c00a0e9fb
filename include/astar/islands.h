/*
** astar/islands.h -- connected components ("islands", seed 000 speed tips)
** precomputed for one movement rule, so that reachability is an O(1) test
** and a search to an unreachable goal returns at once instead of flooding
** the map.
**
** Two cells are in one island when a path joins them under the moves and
** corner rule the islands were built for (these relations are symmetric for
** every rule of astar_options). A search given options.islands built for its
** own moves/corner returns ASTAR_NO_PATH without expanding anything when the
** goal is on another island -- or, with options.retarget, searches to the
** reachable cell nearest the goal instead (result.end says which).
** Islands record astar_grid_version(); after the grid changes, call
** astar_islands_update (searches with stale islands return ASTAR_STALE).
** Memory: 4 bytes a cell, plus up to 2 for the island sizes.
*/
#ifndef ASTAR_ISLANDS_H
#define ASTAR_ISLANDS_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Label the islands of `grid` for opt->moves and opt->corner (opt NULL:
** the defaults). O(cells) time. Allocates.
** Retains: nothing (the grid is read during this call and update; its
** version is recorded). Thread safety: read-only during searches
** (options.islands) and the const calls -- any number of threads may use
** it at once; astar_islands_update needs exclusive access. */
ASTAR_API astar_status astar_islands_new(astar_islands **out, const astar_grid *grid,
                                         const astar_options *opt, const astar_allocator *alloc);
/* Release them. NULL is allowed. */
ASTAR_API void astar_islands_free(astar_islands *isl);

/* Relabel after the grid changed (same dimensions). O(cells), no allocation.
** ASTAR_OK, or ASTAR_INVALID_ARGUMENT for another size of grid. */
ASTAR_API astar_status astar_islands_update(astar_islands *isl, const astar_grid *grid);

/* True when `grid` has not changed since the islands were (re)built. */
ASTAR_API bool astar_islands_current(const astar_islands *isl, const astar_grid *grid);

/* Island of (x, y): 1 .. count, numbered in row-major order of their first
** cell; 0 for blocked or outside cells. O(1). */
ASTAR_API uint32_t astar_islands_id(const astar_islands *isl, int32_t x, int32_t y);

/* Number of islands. */
ASTAR_API uint32_t astar_islands_count(const astar_islands *isl);

/* Cells of island `id` (0 for an unknown id). O(1). */
ASTAR_API size_t astar_islands_size(const astar_islands *isl, uint32_t id);

/* Can a unit at a reach b? False when either is blocked or outside. O(1). */
ASTAR_API bool astar_islands_reachable(const astar_islands *isl, astar_point a, astar_point b);

/* The cell of island `id` nearest to `target` (octile distance, then row-
** major order), into *out. O(cells) worst case, no allocation. ASTAR_OK or
** ASTAR_INVALID_ARGUMENT (no such island). */
ASTAR_API astar_status astar_islands_nearest(const astar_islands *isl, uint32_t id,
                                             astar_point target, astar_point *out);

/* Moves and corner rule the islands were built for. */
ASTAR_API int astar_islands_moves(const astar_islands *isl);
ASTAR_API astar_corner astar_islands_corner(const astar_islands *isl);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_ISLANDS_H */
