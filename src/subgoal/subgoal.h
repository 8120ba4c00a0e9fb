/*
** subgoal/subgoal.h -- internal interface of the subgoal graphs
** (astar/subgoal.h) for the finder's method row (finder/m_subgoal.c).
** The graph's layout is private to src/subgoal/.
*/
#ifndef ASTAR_SUBGOAL_INTERNAL_H
#define ASTAR_SUBGOAL_INTERNAL_H

#include "astar/subgoal.h"
#include "core/internal.h"

/* ASTAR_OK when `sg` serves `grid` with the rules of `opt` (moves, corner,
** straight and diagonal costs); ASTAR_MISMATCH for another grid object, size
** or rules; ASTAR_STALE when the grid's version moved since the build or
** load. No allocation. */
astar_status astar__subgoal_fits(const astar_subgoal *sg, const astar_grid *grid,
                                 const astar_options *opt);

/* Bytes of per-query scratch a search on `sg` needs (the caller keeps them
** in its workspace, 16-byte aligned, and passes them to every search; their
** content between searches is the search's business: zeroed when fresh). */
size_t astar__subgoal_scratch_bytes(const astar_subgoal *sg);

/*
** One query on `sg` (which fits `grid`: astar__subgoal_fits was checked).
** scratch / scratch_bytes: as above (ASTAR_INVALID_ARGUMENT when too
** small). max_expansions: 0 for none, else ASTAR_LIMIT_REACHED after that
** many graph expansions. Writes the cells of the path, start and goal
** included, into path[0 .. cap-1]; res as astar_find_path fills it
** (res->length the full length even when cap is short:
** ASTAR_BUFFER_TOO_SMALL), res->stats.expanded counts graph vertices
** expanded (start and goal included) by both of the query's searches (the
** goal side's upward one and the A*), res->stats.generated their pushes;
** both are 0 when start and goal are joined by a free octile line (no
** search).
** Statuses: ASTAR_OK, ASTAR_NO_PATH, ASTAR_START_BLOCKED,
** ASTAR_GOAL_BLOCKED, ASTAR_OUT_OF_BOUNDS, ASTAR_BUFFER_TOO_SMALL,
** ASTAR_LIMIT_REACHED. Never allocates.
*/
astar_status astar__subgoal_find_path(const astar_subgoal *sg, const astar_grid *grid,
                                      void *scratch, size_t scratch_bytes, uint64_t max_expansions,
                                      astar_point start, astar_point goal, astar_point *path,
                                      size_t cap, astar_result *res);

#endif /* ASTAR_SUBGOAL_INTERNAL_H */
