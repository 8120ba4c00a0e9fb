/*
** anyangle/checked.h -- Theta* and Lazy Theta* for a caller that has
** validated its options already (the finder, src/finder/: options
** validated once when a query is prepared). Exactly what
** astar_anyangle_find_path does after its validation.
*/
#ifndef ASTAR_ANYANGLE_CHECKED_H
#define ASTAR_ANYANGLE_CHECKED_H

#include "astar/anyangle.h"

/* astar_anyangle_find_path with `opt` not NULL and valid; ws and grid not
** NULL, path not NULL when cap > 0. */
astar_status astar__anyangle_find_path_checked(astar_workspace *ws, const astar_grid *grid,
                                               const astar_options *opt,
                                               astar_anyangle_method method, astar_point start,
                                               astar_point goal, astar_point *path, size_t cap,
                                               astar_anyangle_result *result);

#endif /* ASTAR_ANYANGLE_CHECKED_H */
