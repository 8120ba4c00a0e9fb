/*
** sightref.c -- the tests' independent geometry of lines of sight
** (sightref.h).
*/
#include "util/sightref.h"

#include <math.h>
#include <stdlib.h>

bool ref_open_at(const astar_grid *g, int32_t x, int32_t y) {
  return astar_grid_contains(g, x, y) && astar_grid_passable(g, x, y);
}

/* n1/d1 < n2/d2 for d1, d2 > 0, exactly. */
static bool frac_less(int64_t n1, int64_t d1, int64_t n2, int64_t d2) {
  return n1 * d2 < n2 * d1;
}

/* Does the segment between the centres of a and b cross the open square of
** cell (x, y)? In doubled coordinates the centres are (2a.x+1, 2a.y+1) and
** the square is (2x, 2x+2) x (2y, 2y+2). The parameters t where the point
** of the segment is strictly inside on one axis form an open interval
** (l, h); the segment crosses the square when the two axes' intervals and
** [0, 1] share more than nothing: max(l, 0) < min(h, 1), in fractions. */
bool ref_crosses(astar_point a, astar_point b, int32_t x, int32_t y) {
  const int64_t p0[2] = {2 * (int64_t)a.x + 1, 2 * (int64_t)a.y + 1};
  const int64_t d[2] = {2 * (int64_t)(b.x - a.x), 2 * (int64_t)(b.y - a.y)};
  const int64_t edge[2] = {2 * (int64_t)x, 2 * (int64_t)y};
  int64_t nlo = 0, dlo = 1, nhi = 1, dhi = 1; /* max(l, 0) = nlo/dlo, min(h, 1) = nhi/dhi */
  for (int k = 0; k < 2; k++) {
    if (d[k] == 0) {
      if (!(edge[k] < p0[k] && p0[k] < edge[k] + 2)) return false;
      continue;
    }
    /* t where the coordinate meets each edge: (edge - p0) / d. */
    int64_t n1 = edge[k] - p0[k], n2 = edge[k] + 2 - p0[k], den = d[k];
    if (den < 0) n1 = -n1, n2 = -n2, den = -den;
    if (n1 > n2) {
      const int64_t tmp = n1;
      n1 = n2;
      n2 = tmp;
    }
    if (frac_less(nlo, dlo, n1, den)) nlo = n1, dlo = den;
    if (frac_less(n2, den, nhi, dhi)) nhi = n2, dhi = den;
  }
  return frac_less(nlo, dlo, nhi, dhi);
}

/* Line of sight, by definition: every cell whose open square the segment
** crosses is passable, and at every grid point on the segment the two
** side cells satisfy the corner rule. Only the cells of each column near
** the segment are tried (a rough floating-point range, widened by one);
** `crosses` decides exactly. */
bool ref_sight(const astar_grid *g, astar_corner corner, astar_point a, astar_point b) {
  if (!ref_open_at(g, a.x, a.y) || !ref_open_at(g, b.x, b.y)) return false;
  const int32_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
  const int32_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
  for (int32_t x = x0; x <= x1; x++) {
    int32_t lo = y0, hi = y1;
    if (a.x != b.x) {
      /* y of the line at the column's two edges, in cell units. */
      const double k = (double)(b.y - a.y) / (double)(b.x - a.x);
      const double ya = a.y + 0.5 + (x - a.x - 0.5) * k, yb = ya + k;
      const double mn = ya < yb ? ya : yb, mx = ya < yb ? yb : ya;
      if ((int32_t)floor(mn) - 1 > lo) lo = (int32_t)floor(mn) - 1;
      if ((int32_t)floor(mx) + 1 < hi) hi = (int32_t)floor(mx) + 1;
    }
    for (int32_t y = lo; y <= hi; y++)
      if (ref_crosses(a, b, x, y) && !ref_open_at(g, x, y)) return false;
  }
  if (a.x == b.x) return true; /* a vertical segment meets no grid point */
  const int64_t ax = 2 * (int64_t)a.x + 1, ay = 2 * (int64_t)a.y + 1;
  const int64_t dx = 2 * (int64_t)(b.x - a.x), dy = 2 * (int64_t)(b.y - a.y);
  for (int32_t x = x0 + 1; x <= x1; x++) {
    /* Grid point (x, y), doubled (2x, 2y), on the line: 2y = ay + (2x - ax) dy / dx. */
    const int64_t num = ay * dx + (2 * (int64_t)x - ax) * dy;
    if (num % (2 * dx) != 0) continue;
    const int32_t y = (int32_t)(num / (2 * dx));
    if (y <= y0 || y > y1) continue;
    const int32_t sx = b.x > a.x ? 1 : -1, sy = b.y > a.y ? 1 : -1;
    const bool s1 = ref_open_at(g, sx > 0 ? x : x - 1, sy > 0 ? y - 1 : y);
    const bool s2 = ref_open_at(g, sx > 0 ? x - 1 : x, sy > 0 ? y : y - 1);
    if (corner == ASTAR_CORNER_NEVER) return false;
    if (corner == ASTAR_CORNER_NO_CUT && !(s1 && s2)) return false;
    if (corner == ASTAR_CORNER_ONE_SIDE && !(s1 || s2)) return false;
  }
  return true;
}

/* Dijkstra over nodes 0..n-1 with a dense symmetric matrix of costs
** (INFINITY: no edge); -1 when t is unreachable. */
double ref_dense_dijkstra(const double *m, int n, int s, int t, int *pred) {
  double *d = malloc((size_t)n * sizeof *d);
  bool *done = malloc((size_t)n);
  double result = -1;
  if (!d || !done) goto out;
  for (int v = 0; v < n; v++) d[v] = INFINITY, done[v] = false, pred[v] = -1;
  d[s] = 0;
  for (;;) {
    int u = -1;
    for (int v = 0; v < n; v++)
      if (!done[v] && d[v] < INFINITY && (u < 0 || d[v] < d[u])) u = v;
    if (u < 0) break;
    if (u == t) {
      result = d[u];
      break;
    }
    done[u] = true;
    for (int v = 0; v < n; v++)
      if (m[(size_t)u * (size_t)n + (size_t)v] < INFINITY &&
          d[u] + m[(size_t)u * (size_t)n + (size_t)v] < d[v]) {
        d[v] = d[u] + m[(size_t)u * (size_t)n + (size_t)v];
        pred[v] = u;
      }
  }
out:
  free(d);
  free(done);
  return result;
}

double ref_euclid(astar_point a, astar_point b) {
  const double dx = a.x - b.x, dy = a.y - b.y;
  return sqrt(dx * dx + dy * dy);
}

/* Liang-Barsky: the part of the segment p0 + t d, t in [0, 1], inside the
** square [x, x+1] x [y, y+1], as its parameter interval. */
double ref_weighted_length(astar_point a, astar_point b,
                           double (*factor)(void *ctx, int32_t x, int32_t y), void *ctx) {
  const double p0[2] = {a.x + 0.5, a.y + 0.5};
  const double d[2] = {(double)b.x - a.x, (double)b.y - a.y};
  const double len = sqrt(d[0] * d[0] + d[1] * d[1]);
  const int32_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
  const int32_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
  double sum = 0.0;
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++) {
      const double lo[2] = {x, y}, hi[2] = {x + 1.0, y + 1.0};
      double t0 = 0.0, t1 = 1.0;
      for (int k = 0; k < 2; k++) {
        if (d[k] == 0.0) {
          if (p0[k] < lo[k] || p0[k] > hi[k]) t1 = -1.0;
          continue;
        }
        double ta = (lo[k] - p0[k]) / d[k], tb = (hi[k] - p0[k]) / d[k];
        if (ta > tb) {
          const double t = ta;
          ta = tb;
          tb = t;
        }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
      }
      if (t1 > t0) sum += factor(ctx, x, y) * (t1 - t0) * len;
    }
  return sum;
}
