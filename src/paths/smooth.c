/*
** paths/smooth.c -- lines of sight for callers, the cost of an any-angle
** path, and string pulling (astar/anyangle.h): a grid path straightened by
** dropping every bend the previous kept point can see past, as long as
** the straight line costs no more than the way it replaces.
*/
#include "paths/checked.h"
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

astar_status astar_polyline_cost(const astar_grid *grid, const astar_options *opt,
                                 const astar_point *pts, size_t n, double *cost,
                                 size_t *bad_index) {
  astar_options o;
  if (!grid || !cost || (!pts && n) || !resolve(opt, &o)) return ASTAR_INVALID_ARGUMENT;
  return astar__polyline_cost_checked(grid, &o, pts, n, cost, bad_index);
}

astar_status astar__polyline_cost_checked(const astar_grid *grid, const astar_options *opt,
                                          const astar_point *pts, size_t n, double *cost,
                                          size_t *bad_index) {
  const astar_options o = *opt;
  *cost = 0.0;
  for (size_t i = 0; i < n; i++)
    if (!astar_grid_contains(grid, pts[i].x, pts[i].y)) {
      if (bad_index) *bad_index = i;
      return ASTAR_INVALID_ARGUMENT;
    }
  if (!n) return ASTAR_OK;
  astar__view v;
  if (astar__view_init(&v, grid, &o, pts[0]) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  for (size_t i = 1; i < n; i++)
    if (!astar__view_sees(&v, pts[i - 1], pts[i])) {
      if (bad_index) *bad_index = i;
      return ASTAR_INVALID_ARGUMENT;
    }
  /* On a uniform view, the length first and the cost once: what
  ** straight_cost x astar_polyline_length gives. */
  double sum = 0.0;
  for (size_t i = 1; i < n; i++) sum += astar__view_length(&v, pts[i - 1], pts[i]);
  *cost = o.straight_cost * sum;
  return ASTAR_OK;
}

/* The relative slack that lets a straight line replace a way of the same
** cost computed in another order (a straight run of equal cells split at a
** bend or not): rounding, never a real difference. */
#define SMOOTH_SLACK (1.0 + 1e-12)

/*
** The string-pulling pass: the kept points of path[0 .. n-1] (n >= 1)
** written to out[] while they fit (out NULL: counted only); returns how
** many. Invariant on a weighted view: `run` is the weighted length of the
** segment anchor -> path[i], and never more than that of the input from
** the anchor to path[i]; the line anchor -> path[i + 1] replaces path[i]
** only when it weighs no more than run plus the step path[i] -> path[i + 1],
** so the result never weighs more than the input. On a uniform view the
** triangle inequality makes that test always true: it is skipped.
*/
static size_t pull(const astar__view *v, const astar_point *path, size_t n, astar_point *out,
                   size_t cap) {
  size_t k = 0;
  astar_point anchor = path[0];
  if (out && k < cap) out[k] = anchor;
  k++;
  double run = !v->uniform && n > 1 ? astar__view_length(v, path[0], path[1]) : 0.0;
  for (size_t i = 1; i + 1 < n; i++) {
    /* read before out[k] (k <= i) may overwrite path[i] in place */
    const astar_point here = path[i], next = path[i + 1];
    double step = 0.0;
    if (astar__view_sees(v, anchor, next)) {
      if (v->uniform) continue;
      step = astar__view_length(v, here, next);
      const double line = astar__view_length(v, anchor, next);
      if (line <= (run + step) * SMOOTH_SLACK) {
        run = line;
        continue;
      }
    } else if (!v->uniform) {
      step = astar__view_length(v, here, next);
    }
    anchor = here;
    run = step;
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
  return astar__path_smooth_checked(grid, &o, path, n, out, cap, len);
}

astar_status astar__path_smooth_checked(const astar_grid *grid, const astar_options *opt,
                                        const astar_point *path, size_t n, astar_point *out,
                                        size_t cap, size_t *len) {
  const astar_options o = *opt;
  *len = 0;
  for (size_t i = 0; i < n; i++)
    if (!astar_grid_contains(grid, path[i].x, path[i].y)) return ASTAR_OUT_OF_BOUNDS;
  if (!n) return ASTAR_OK;
  astar__view v;
  if (astar__view_init(&v, grid, &o, path[0]) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  /* The result never has more points than the input: with room for n the
  ** one pass writes; otherwise count first so a short buffer (or the path
  ** itself, in place) is left untouched. */
  if (cap < n) {
    *len = pull(&v, path, n, NULL, 0);
    if (*len > cap) return ASTAR_BUFFER_TOO_SMALL;
  }
  *len = pull(&v, path, n, out, cap);
  return ASTAR_OK;
}
