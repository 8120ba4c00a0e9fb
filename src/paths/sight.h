/*
** paths/sight.h -- lines of sight between cell centres on a square grid,
** and the cells a straight segment crosses. Shared by the waypoint graphs
** (spaces/waypoints.c), path smoothing (paths/smooth.c) and Theta*
** (anyangle/theta.c), so that "in sight" means one thing everywhere; the
** definition is the one of astar/waypoints.h and astar/anyangle.h.
*/
#ifndef ASTAR_PATHS_SIGHT_H
#define ASTAR_PATHS_SIGHT_H

#include "core/internal.h"

/* Do the centres of cells a and b, both inside the grid, see each other
** under `corner` (ASTAR_CORNER_NEVER: the segment may not pass through a
** grid point at all)? Walked from a's end first; the answer does not
** depend on the order (astar__sees fixes it anyway, for callers that need
** bit-identical work both ways). O(|dx| + |dy|), no allocation. */
bool astar__sight(const astar_grid *g, astar_corner corner, astar_point a, astar_point b);

/* astar__sight walked from the row-major earlier cell: a symmetric relation. */
bool astar__sees(const astar_grid *g, astar_corner corner, astar_point a, astar_point b);

/* Walk the segment from a's centre to b's centre as astar__sight does,
** writing the cells after a (b included) to cells[*len ...] while
** *len < cap; *len counts them all (cells may be NULL with cap 0). Where
** the segment passes through a grid point the walk steps diagonally. */
void astar__segment_cells(astar_point a, astar_point b, astar_point *cells, size_t cap,
                          size_t *len);

/* The corner rule lines of sight follow under search options o: o->corner,
** or ASTAR_CORNER_NEVER with 4 moves (no diagonal step at all). */
ASTAR__INLINE astar_corner astar__sight_corner(const astar_options *o) {
  return o->moves == 4 ? ASTAR_CORNER_NEVER : o->corner;
}

/* Euclidean distance between the centres of a and b. */
double astar__centre_distance(astar_point a, astar_point b);

#endif /* ASTAR_PATHS_SIGHT_H */
