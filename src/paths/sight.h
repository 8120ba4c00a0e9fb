/*
** paths/sight.h -- lines of sight between cell centres on a square grid,
** and the cells a straight segment crosses. Shared by the waypoint graphs
** (spaces/waypoints.c), path smoothing (paths/smooth.c) and Theta*
** (anyangle/theta.c), so that "in sight" means one thing everywhere; the
** definition is the one of astar/waypoints.h and astar/anyangle.h.
*/
#ifndef ASTAR_PATHS_SIGHT_H
#define ASTAR_PATHS_SIGHT_H

#include "gameloop/layers.h"

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

/*
** The map an any-angle path is judged on under search options (astar/anyangle.h,
** "Cost"): which cells are open -- the grid's truth, or with knowledge the
** player's view of it, unknown cells by options.unknown and the path's
** first cell always open (the unit stands there, as for the search) -- and
** what each cell costs per unit of length: its entry cost factor as the
** grid searches compute it (search/general.h: terrain after terrain_scale,
** plus the weighted layers, times unknown_cost for an unknown cell under
** ASTAR_UNKNOWN_COST). Only read; holds no memory.
*/
typedef struct astar__view {
  const astar_grid *g;
  const astar_knowledge *k;         /* NULL: the grid's truth */
  ptrdiff_t start;                  /* padded index of the cell taken as open (k only) */
  astar_unknown unknown;            /* how k's unknown cells count */
  double unknown_cost;              /* their factor with ASTAR_UNKNOWN_COST */
  double alpha;                     /* terrain_scale */
  const astar_layer *const *layers; /* nlayers influence layers and their weights */
  const float *weights;
  size_t nlayers;
  astar_corner corner; /* astar__sight_corner of the options */
  bool uniform;        /* every factor is 1: a segment weighs its length */
} astar__view;

/* The view of options o (valid) on g for a path starting at `start` (inside
** g). ASTAR_INVALID_ARGUMENT when a layer or the knowledge has another
** size than g; ASTAR_OK otherwise. */
astar_status astar__view_init(astar__view *v, const astar_grid *g, const astar_options *o,
                              astar_point start);

/* Do the centres of a and b (inside the grid) see each other on the view?
** Without knowledge exactly astar__sees; with it the same walk judged on the
** player's cells. Symmetric. O(|dx| + |dy|). */
bool astar__view_sees(const astar__view *v, astar_point a, astar_point b);

/* The weighted length of the segment between the centres of a and b (inside
** the grid): the sum over the cells it crosses of the length inside each
** times the cell's factor (a grid point touched costs nothing). Its Euclidean
** length on a uniform view; 0 for a == b. Symmetric up to rounding, exact
** integer walk, O(|dx| + |dy|). */
double astar__view_length(const astar__view *v, astar_point a, astar_point b);

#endif /* ASTAR_PATHS_SIGHT_H */
