/*
** search/checked.h -- the grid searches' entry points for a caller that
** has validated its options already (astar_options_validate, once): the
** finder (src/finder/), which validates when a query is prepared and never
** again (issue 26: options validated at most once a query). Each does
** exactly what its public namesake does after that validation -- the same
** statuses in the same order, the same path and result. `opt` is never
** NULL; the other arguments are checked as by the public call.
*/
#ifndef ASTAR_SEARCH_CHECKED_H
#define ASTAR_SEARCH_CHECKED_H

#include "astar/jps_plus.h"
#include "astar/search.h"

/* astar_find_path: A*, or JPS with opt->algorithm == ASTAR_ALGO_JPS. ws and
** grid not NULL, path not NULL when cap > 0. */
astar_status astar__find_path_checked(astar_workspace *ws, const astar_grid *grid,
                                      const astar_options *opt, astar_point start, astar_point goal,
                                      astar_point *path, size_t cap, astar_result *result);

/* astar_search_begin. */
astar_status astar__search_begin_checked(astar_workspace *ws, const astar_grid *grid,
                                         const astar_options *opt, astar_point start,
                                         astar_point goal);

/* astar_jps_plus_find_path. ws, pre and grid not NULL, path not NULL when
** cap > 0. */
astar_status astar__jps_plus_find_path_checked(astar_workspace *ws, const astar_jps_plus *pre,
                                               const astar_grid *grid, const astar_options *opt,
                                               astar_point start, astar_point goal,
                                               astar_point *path, size_t cap, astar_result *result);

/* Does `pre` belong to `grid` as it is now? ASTAR_OK, ASTAR_MISMATCH
** (another grid object or size) or ASTAR_STALE (the grid changed since):
** what a JPS+ search checks first. */
astar_status astar__jps_plus_check(const astar_jps_plus *pre, const astar_grid *grid);

#endif /* ASTAR_SEARCH_CHECKED_H */
