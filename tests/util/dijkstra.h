/*
** dijkstra.h -- a deliberately plain reference Dijkstra over the movement
** model of astar/search.h, used as the ground truth for optimal costs.
*/
#ifndef ASTAR_TEST_DIJKSTRA_H
#define ASTAR_TEST_DIJKSTRA_H

#include <astar/astar.h>

/* Optimal cost from start to goal under `opt` (NULL: defaults; only moves,
** corner, straight_cost and diagonal_cost matter), or -1 when the goal is
** unreachable or either endpoint is outside the grid or blocked. */
double ref_dijkstra(const astar_grid *g, const astar_options *opt, astar_point start,
                    astar_point goal);

/* Distances from `start` to every cell, dist[y * width + x], INFINITY where
** unreachable. Returns the number of reachable cells (the start included),
** 0 when the start is outside or blocked, (size_t)-1 when out of memory. */
size_t ref_dijkstra_all(const astar_grid *g, const astar_options *opt, astar_point start,
                        double *dist);

#endif
