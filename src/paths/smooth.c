/*
** paths/smooth.c -- lines of sight for callers and string pulling
** (astar/anyangle.h): a grid path straightened by dropping every bend the
** previous kept point can see past.
*/
#include "paths/sight.h"

/* Options resolved for a sight test: the defaults for NULL; false when they
** are invalid. */
static bool resolve(const astar_options *opt, astar_options *o) {
  if (!opt) {
    astar_options_init(o);
    return true;
  }
  *o = *opt;
  return astar_options_validate(o) == ASTAR_OK;
}

bool astar_line_of_sight(const astar_grid *grid, const astar_options *opt, astar_point a,
                         astar_point b) {
  astar_options o;
  if (!grid || !resolve(opt, &o) || !astar_grid_contains(grid, a.x, a.y) ||
      !astar_grid_contains(grid, b.x, b.y))
    return false;
  return astar__sees(grid, astar__sight_corner(&o), a, b);
}

double astar_polyline_length(const astar_point *pts, size_t n) {
  double sum = 0.0;
  for (size_t i = 1; pts && i < n; i++) sum += astar__centre_distance(pts[i - 1], pts[i]);
  return sum;
}

/* The string-pulling pass: the kept points of path[0 .. n-1] (n >= 1)
** written to out[] while they fit (out NULL: counted only); returns how many. */
static size_t pull(const astar_grid *g, astar_corner corner, const astar_point *path, size_t n,
                   astar_point *out, size_t cap) {
  size_t k = 0;
  astar_point anchor = path[0];
  if (out && k < cap) out[k] = anchor;
  k++;
  for (size_t i = 1; i + 1 < n; i++) {
    if (astar__sees(g, corner, anchor, path[i + 1])) continue;
    anchor = path[i]; /* read before out[k] (k <= i) may overwrite it in place */
    if (out && k < cap) out[k] = anchor;
    k++;
  }
  if (n > 1) {
    if (out && k < cap) out[k] = path[n - 1];
    k++;
  }
  return k;
}

astar_status astar_path_smooth(const astar_grid *grid, const astar_options *opt,
                               const astar_point *path, size_t n, astar_point *out, size_t cap,
                               size_t *len) {
  astar_options o;
  if (!grid || !len || (!path && n) || (!out && cap) || !resolve(opt, &o))
    return ASTAR_INVALID_ARGUMENT;
  *len = 0;
  for (size_t i = 0; i < n; i++)
    if (!astar_grid_contains(grid, path[i].x, path[i].y)) return ASTAR_OUT_OF_BOUNDS;
  if (!n) return ASTAR_OK;
  const astar_corner corner = astar__sight_corner(&o);
  /* The result never has more points than the input: with room for n the
  ** one pass writes; otherwise count first so a short buffer (or the path
  ** itself, in place) is left untouched. */
  if (cap < n) {
    *len = pull(grid, corner, path, n, NULL, 0);
    if (*len > cap) return ASTAR_BUFFER_TOO_SMALL;
  }
  *len = pull(grid, corner, path, n, out, cap);
  return ASTAR_OK;
}
