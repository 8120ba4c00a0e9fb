/*
** sightref.h -- the tests' own geometry of lines of sight between cell
** centres (astar/waypoints.h, astar/anyangle.h), derived independently of
** the library's cell walk: segment-square intersection with exact fractions
** and grid points found by divisibility; plus a dense Dijkstra for
** visibility graphs.
*/
#ifndef ASTAR_TEST_SIGHTREF_H
#define ASTAR_TEST_SIGHTREF_H

#include <astar/astar.h>

/* Inside the grid and passable. */
bool ref_open_at(const astar_grid *g, int32_t x, int32_t y);

/* Does the segment between the centres of a and b cross the open square of
** cell (x, y)? Exact. */
bool ref_crosses(astar_point a, astar_point b, int32_t x, int32_t y);

/* Line of sight by the definition: both ends passable, every cell whose
** open square the segment crosses passable, and at every grid point on the
** segment the two side cells allowed by `corner` (ASTAR_CORNER_NEVER: no
** grid point at all). */
bool ref_sight(const astar_grid *g, astar_corner corner, astar_point a, astar_point b);

/* Euclidean distance between two cells' centres. */
double ref_euclid(astar_point a, astar_point b);

/* The weighted length of the segment between the centres of a and b
** (astar/anyangle.h, "Cost"): for every cell (x, y) of the bounding box, the
** length of the segment inside the closed square [x, x+1] x [y, y+1]
** (clipped in floating point: a corner touched gives 0) times
** factor(ctx, x, y). */
double ref_weighted_length(astar_point a, astar_point b,
                           double (*factor)(void *ctx, int32_t x, int32_t y), void *ctx);

/* Dijkstra over nodes 0..n-1 with the dense n x n cost matrix m (INFINITY:
** no edge) from s to t; pred[] (n entries) receives the predecessors.
** Returns the cost, or -1 when t is unreachable (or out of memory). */
double ref_dense_dijkstra(const double *m, int n, int s, int t, int *pred);

#endif
