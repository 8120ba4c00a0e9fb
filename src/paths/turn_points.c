/*
** paths/turn_points.c -- waypoints at turns (Patel 6.3, astar/path.h): the
** cells of a unit-step path where its direction changes, start and goal
** included, and their exact expansion back into the cells. Between two turn
** points the path runs straight along one of the 8 directions, so the
** points determine it; expanding walks each straight leg.
*/
#include "core/internal.h"

#include "astar/path.h"

/* Unit direction (sx, sy) of the step a -> b: each in {-1, 0, 1}; both 0
** when a == b. Coordinates are widened, so no difference overflows. */
static int64_t sgn(int64_t v) {
  return (v > 0) - (v < 0);
}

/* Is a -> b a unit step? Its (dx, dy) in *dx, *dy. */
static bool unit_step(astar_point a, astar_point b, int64_t *dx, int64_t *dy) {
  *dx = (int64_t)b.x - a.x, *dy = (int64_t)b.y - a.y;
  return *dx >= -1 && *dx <= 1 && *dy >= -1 && *dy <= 1 && (*dx != 0 || *dy != 0);
}

astar_status astar_path_turn_points(const astar_point *path, size_t n, astar_point *out, size_t cap,
                                    size_t *m) {
  if (!path || !m || n == 0 || (cap > 0 && !out)) return ASTAR_INVALID_ARGUMENT;
  /* Count first: nothing is written when the points do not fit. */
  size_t count = 1;
  int64_t px = 0, py = 0, dx, dy;
  for (size_t i = 1; i < n; i++) {
    if (!unit_step(path[i - 1], path[i], &dx, &dy)) return ASTAR_INVALID_ARGUMENT;
    if (i >= 2 && (dx != px || dy != py)) count++; /* path[i-1] is a turn */
    px = dx, py = dy;
  }
  if (n > 1) count++; /* the goal */
  *m = count;
  if (count > cap) return ASTAR_BUFFER_TOO_SMALL;
  /* out may be path: out[j] receives path[i] with j <= i, and the loop
  ** reads path[i] and path[i + 1] only, neither overwritten by another
  ** value yet; the direction into path[i] is carried over, not re-read. */
  out[0] = path[0];
  size_t j = 1;
  int64_t inx = 0, iny = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    const astar_point here = path[i], next = path[i + 1];
    (void)unit_step(here, next, &dx, &dy);
    if (i >= 1 && (dx != inx || dy != iny)) out[j++] = here;
    inx = dx, iny = dy;
  }
  if (n > 1) out[j] = path[n - 1];
  return ASTAR_OK;
}

astar_status astar_path_expand_turn_points(const astar_point *points, size_t m, astar_point *out,
                                           size_t cap, size_t *n) {
  if (!points || !n || m == 0 || (cap > 0 && !out)) return ASTAR_INVALID_ARGUMENT;
  size_t total = 1;
  for (size_t i = 1; i < m; i++) {
    const int64_t dx = (int64_t)points[i].x - points[i - 1].x;
    const int64_t dy = (int64_t)points[i].y - points[i - 1].y;
    const int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if ((ax == 0 && ay == 0) || (ax != 0 && ay != 0 && ax != ay)) return ASTAR_INVALID_ARGUMENT;
    const uint64_t len = (uint64_t)(ax > ay ? ax : ay);
    if (len >= (uint64_t)(SIZE_MAX - total)) return ASTAR_TOO_LARGE;
    total += (size_t)len;
  }
  *n = total;
  if (total > cap) return ASTAR_BUFFER_TOO_SMALL;
  size_t j = 0;
  out[j++] = points[0];
  for (size_t i = 1; i < m; i++) {
    int32_t x = points[i - 1].x, y = points[i - 1].y;
    const int32_t sx = (int32_t)sgn((int64_t)points[i].x - x);
    const int32_t sy = (int32_t)sgn((int64_t)points[i].y - y);
    while (x != points[i].x || y != points[i].y) {
      x += sx, y += sy;
      out[j++] = (astar_point){x, y};
    }
  }
  return ASTAR_OK;
}
