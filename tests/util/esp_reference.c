/*
** esp_reference.c -- the exhaustive Euclidean-shortest-path reference of
** esp_reference.h: exact segment legality, corner visibility graph,
** O(V^2) Dijkstra. Deliberately plain; nothing shared with src/anyangle.
*/
#include "util/esp_reference.h"

#include <math.h>
#include <stdlib.h>

static int blocked(const astar_grid *g, int64_t x, int64_t y) {
  return !(astar_grid_contains(g, (int32_t)x, (int32_t)y) &&
           astar_grid_passable(g, (int32_t)x, (int32_t)y));
}

static int64_t floor_div(int64_t a, int64_t b) { /* b > 0 */
  int64_t q = a / b;
  if (a % b != 0 && a < 0) q--;
  return q;
}

/* Is the point (xm / m, ym / m) (lattice units, m > 0) allowed on a path? */
static int point_ok(const astar_grid *g, int64_t xm, int64_t ym, int64_t m) {
  const int64_t cell = 2 * m; /* a map cell is two lattice units */
  const int onx = xm % cell == 0, ony = ym % cell == 0;
  const int64_t cx = floor_div(xm, cell), cy = floor_div(ym, cell);
  if (onx && ony) {
    const int nw = blocked(g, cx - 1, cy - 1), ne = blocked(g, cx, cy - 1);
    const int sw = blocked(g, cx - 1, cy), se = blocked(g, cx, cy);
    if (nw && ne && sw && se) return 0;
    if (nw && se && !ne && !sw) return 0; /* squeeze */
    if (ne && sw && !nw && !se) return 0;
    return 1;
  }
  if (onx) return !blocked(g, cx - 1, cy) || !blocked(g, cx, cy);
  if (ony) return !blocked(g, cx, cy - 1) || !blocked(g, cx, cy);
  return !blocked(g, cx, cy);
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int esp_segment_legal(const astar_grid *g, int64_t px, int64_t py, int64_t qx, int64_t qy) {
  const int64_t dx = qx - px, dy = qy - py;
  const int64_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  /* parameter t in [0, m]; every crossing of a grid line (even lattice
  ** coordinate) is an integer t, and so is every midpoint between two */
  const int64_t m = 4 * (adx ? adx : 1) * (ady ? ady : 1);
  size_t n = 0, cap = (size_t)(adx + ady) + 8;
  int64_t *t = malloc(cap * sizeof *t);
  if (!t) return 0;
  t[n++] = 0;
  t[n++] = m;
  if (dx != 0) {
    const int64_t lo = px < qx ? px : qx, hi = px < qx ? qx : px;
    for (int64_t x = floor_div(lo, 2) * 2; x <= hi; x += 2)
      if (x > lo && x < hi) t[n++] = m * (x - px) / dx;
  }
  if (dy != 0) {
    const int64_t lo = py < qy ? py : qy, hi = py < qy ? qy : py;
    for (int64_t y = floor_div(lo, 2) * 2; y <= hi; y += 2)
      if (y > lo && y < hi) t[n++] = m * (y - py) / dy;
  }
  qsort(t, n, sizeof *t, cmp_i64);
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++) {
    ok = point_ok(g, px * m + dx * t[i], py * m + dy * t[i], m);
    if (ok && i + 1 < n && t[i + 1] != t[i]) {
      const int64_t mid = (t[i] + t[i + 1]) / 2;
      ok = point_ok(g, px * m + dx * mid, py * m + dy * mid, m);
    }
  }
  free(t);
  return ok;
}

struct esp_graph {
  const astar_grid *g;
  size_t n;           /* corners */
  int64_t *x, *y;     /* lattice coordinates of the corners */
  unsigned char *vis; /* n * n: corners i and j see each other */
};

esp_graph *esp_graph_new(const astar_grid *g) {
  esp_graph *eg = calloc(1, sizeof *eg);
  if (!eg) return NULL;
  eg->g = g;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const size_t maxn = (size_t)(w + 1) * (size_t)(h + 1);
  eg->x = malloc(maxn * sizeof *eg->x);
  eg->y = malloc(maxn * sizeof *eg->y);
  if (!eg->x || !eg->y) {
    esp_graph_free(eg);
    return NULL;
  }
  for (int32_t j = 0; j <= h; j++)
    for (int32_t i = 0; i <= w; i++) {
      const int b =
          blocked(g, i - 1, j - 1) + blocked(g, i, j - 1) + blocked(g, i - 1, j) + blocked(g, i, j);
      if (b == 1) {
        eg->x[eg->n] = 2 * (int64_t)i;
        eg->y[eg->n] = 2 * (int64_t)j;
        eg->n++;
      }
    }
  eg->vis = calloc(eg->n * eg->n + 1, 1);
  if (!eg->vis) {
    esp_graph_free(eg);
    return NULL;
  }
  for (size_t i = 0; i < eg->n; i++)
    for (size_t j = i + 1; j < eg->n; j++)
      eg->vis[i * eg->n + j] = eg->vis[j * eg->n + i] =
          (unsigned char)esp_segment_legal(g, eg->x[i], eg->y[i], eg->x[j], eg->y[j]);
  return eg;
}

void esp_graph_free(esp_graph *eg) {
  if (!eg) return;
  free(eg->x);
  free(eg->y);
  free(eg->vis);
  free(eg);
}

size_t esp_graph_corners(const esp_graph *eg) {
  return eg->n;
}

static double len(int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  const double dx = (double)(x1 - x0), dy = (double)(y1 - y0);
  return 0.5 * sqrt(dx * dx + dy * dy);
}

double esp_graph_query(const esp_graph *eg, astar_point s, astar_point t) {
  const astar_grid *g = eg->g;
  if (blocked(g, s.x, s.y) || blocked(g, t.x, t.y)) return -1.0;
  if (s.x == t.x && s.y == t.y) return 0.0;
  const int64_t sx = 2 * (int64_t)s.x + 1, sy = 2 * (int64_t)s.y + 1;
  const int64_t tx = 2 * (int64_t)t.x + 1, ty = 2 * (int64_t)t.y + 1;
  if (esp_segment_legal(g, sx, sy, tx, ty)) return len(sx, sy, tx, ty);
  const size_t n = eg->n;
  /* vertices 0 .. n-1 corners, n the start, n + 1 the goal */
  double *dist = malloc((n + 2) * sizeof *dist);
  unsigned char *done = calloc(n + 2, 1), *to_goal = calloc(n + 1, 1);
  if (!dist || !done || !to_goal) {
    free(dist), free(done), free(to_goal);
    return -2.0;
  }
  for (size_t i = 0; i < n; i++) {
    dist[i] = esp_segment_legal(g, sx, sy, eg->x[i], eg->y[i]) ? len(sx, sy, eg->x[i], eg->y[i])
                                                               : INFINITY;
    to_goal[i] = (unsigned char)esp_segment_legal(g, eg->x[i], eg->y[i], tx, ty);
  }
  double best = INFINITY;
  for (;;) {
    size_t u = n;
    for (size_t i = 0; i < n; i++)
      if (!done[i] && dist[i] < INFINITY && (u == n || dist[i] < dist[u])) u = i;
    if (u == n || dist[u] >= best) break;
    done[u] = 1;
    if (to_goal[u]) {
      const double c = dist[u] + len(eg->x[u], eg->y[u], tx, ty);
      if (c < best) best = c;
    }
    for (size_t v = 0; v < n; v++)
      if (!done[v] && eg->vis[u * n + v]) {
        const double c = dist[u] + len(eg->x[u], eg->y[u], eg->x[v], eg->y[v]);
        if (c < dist[v]) dist[v] = c;
      }
  }
  free(dist), free(done), free(to_goal);
  return best < INFINITY ? best : -1.0;
}
