/*
** astar/field.h -- a distance field to one goal: group movement (Patel
** 3.4.3) and "many units, one destination".
**
** astar_field_new runs one reverse Dijkstra search from the goal (or from
** several goals at once: astar_field_new_goals) over the
** whole grid (or until max_cost) and stores, for every cell reached, its cost
** to the goal and its next step. Then any number of units get their optimal
** path in O(path length) with astar_field_path, without searching. Costs
** follow the options (moves, corner rule, move costs, terrain, terrain_scale
** and layers); the heuristic and tie options do not apply. Ties between
** equally cheap next steps are broken by the fixed direction order N, E, S,
** W, NE, SE, SW, NW, so paths are deterministic.
** The field records astar_grid_version() (paths from a stale field:
** ASTAR_STALE). Memory: 9 bytes a cell plus a temporary workspace.
*/
#ifndef ASTAR_FIELD_H
#define ASTAR_FIELD_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A distance field. Retains: nothing (the grid and options, layers
** included, are read while it is built; astar_field_path is given the grid
** again). Thread safety: read-only once built -- any number of threads may
** ask it for costs and paths at once. */
typedef struct astar_field astar_field;

/* Build the field of `goal` on `grid`. max_cost > 0 stops the flood at that
** cost (cells beyond count as unreachable); 0 floods everything reachable.
** opt may be NULL (defaults). Allocates; O(cells log cells).
** Returns ASTAR_OK, ASTAR_OUT_OF_BOUNDS, ASTAR_GOAL_BLOCKED,
** ASTAR_INVALID_ARGUMENT, ASTAR_UNSUPPORTED (turn_penalty or knowledge set)
** or ASTAR_NO_MEMORY. stats (may be NULL) receives the flood's work. */
ASTAR_API astar_status astar_field_new(astar_field **out, const astar_grid *grid,
                                       const astar_options *opt, astar_point goal, double max_cost,
                                       const astar_allocator *alloc, astar_stats *stats);
/* The field of several goals goals[0 .. ngoals-1] (ngoals >= 1; a goal may
** repeat): every goal is a source at cost 0, so each cell gets its cost to
** the NEAREST goal and its next step towards it (ties between goals are
** broken by the flood's order: cost, then cell index). astar_field_new is
** this with one goal; astar_field_goal gives goals[0]; a path's
** result->end is the goal it reaches. Returns as astar_field_new, plus
** ASTAR_INVALID_ARGUMENT for goals NULL or ngoals 0; ASTAR_OUT_OF_BOUNDS or
** ASTAR_GOAL_BLOCKED when any goal is outside or blocked. Allocates. */
ASTAR_API astar_status astar_field_new_goals(astar_field **out, const astar_grid *grid,
                                             const astar_options *opt, const astar_point *goals,
                                             size_t ngoals, double max_cost,
                                             const astar_allocator *alloc, astar_stats *stats);

/* Release it. NULL is allowed. */
ASTAR_API void astar_field_free(astar_field *field);

/* Cost from (x, y) to the goal; INFINITY when unreachable or outside. O(1). */
ASTAR_API double astar_field_cost(const astar_field *field, int32_t x, int32_t y);

/* The optimal path from `start` to the goal, start first, into (path, cap),
** as astar_find_path would return it (result may be NULL; its stats are
** zero: nothing is searched). ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (result->length
** says the need), ASTAR_NO_PATH, ASTAR_OUT_OF_BOUNDS, ASTAR_START_BLOCKED,
** ASTAR_STALE (the grid changed; pass the grid the field was built on).
** O(path length), no allocation. */
ASTAR_API astar_status astar_field_path(const astar_field *field, const astar_grid *grid,
                                        astar_point start, astar_point *path, size_t cap,
                                        astar_result *result);

/* The next-step value of astar_field_export for a goal or an unreached cell. */
#define ASTAR_FIELD_NO_STEP 255u

/* Copy the whole field out, row-major (index y * width + x): cost[] the
** cost to the goal (INFINITY unreached or blocked), next[] the direction of
** the next step (0 N, 1 E, 2 S, 3 W, 4 NE, 5 SE, 6 SW, 7 NW, as
** astar/path.h numbers them; ASTAR_FIELD_NO_STEP at a goal and where
** unreached). Either array may be NULL (not both); each has room for `cap`
** cells. What bulk users (the Python package's NumPy arrays, images) need
** without width x height calls. ASTAR_OK, ASTAR_INVALID_ARGUMENT (field
** NULL, both arrays NULL), ASTAR_BUFFER_TOO_SMALL (cap < width * height;
** nothing written). O(cells), no allocation. */
ASTAR_API astar_status astar_field_export(const astar_field *field, double *cost, uint8_t *next,
                                          size_t cap);

/* The goal (with several goals, the first). */
ASTAR_API astar_point astar_field_goal(const astar_field *field);

/* Bytes held from its allocator. */
ASTAR_API size_t astar_field_memory(const astar_field *field);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_FIELD_H */
