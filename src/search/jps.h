/*
** search/jps.h -- Jump Point Search (search/jps.c), reached through
** astar_find_path with options.algorithm == ASTAR_ALGO_JPS.
*/
#ifndef ASTAR_SEARCH_JPS_H
#define ASTAR_SEARCH_JPS_H

#include "search/query.h"

/* Jump Point Search (jps.c); same contract as astar_find_path, opt not NULL
** and validated by the caller (astar_options_validate). */
astar_status astar__jps_find_path(astar_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  astar_point *path, size_t cap, astar_result *result);

#endif /* ASTAR_SEARCH_JPS_H */
