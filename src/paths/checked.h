/*
** paths/checked.h -- string pulling and the cost of an any-angle path for
** a caller that has validated its options already (the finder,
** src/finder/: options validated once when a query is prepared). Exactly
** what astar_path_smooth and astar_polyline_cost do after their validation.
*/
#ifndef ASTAR_PATHS_CHECKED_H
#define ASTAR_PATHS_CHECKED_H

#include "astar/anyangle.h"

/* astar_path_smooth with `opt` not NULL and valid. */
astar_status astar__path_smooth_checked(const astar_grid *grid, const astar_options *opt,
                                        const astar_point *path, size_t n, astar_point *out,
                                        size_t cap, size_t *len);

/* astar_polyline_cost with `opt` not NULL and valid. */
astar_status astar__polyline_cost_checked(const astar_grid *grid, const astar_options *opt,
                                          const astar_point *pts, size_t n, double *cost,
                                          size_t *bad_index);

#endif /* ASTAR_PATHS_CHECKED_H */
