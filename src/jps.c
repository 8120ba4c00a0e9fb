/*
** jps.c -- Jump Point Search (placeholder until the implementation lands).
*/
#include "query.h"

astar_status astar__jps_find_path(astar_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  astar_point *path, size_t cap, astar_result *result) {
  (void)ws, (void)grid, (void)opt, (void)start, (void)goal, (void)path, (void)cap, (void)result;
  return ASTAR_UNSUPPORTED;
}
