/*
** test_hex.c -- hexagonal grids (astar/hex.h). The ground truth is the
** test's own model of a hex map: cube coordinates from doubled offset
** coordinates (a formulation the library does not use), adjacency = cube
** distance 1, tied to geometry by the centres, and a plain Dijkstra over
** it. Against it: every engine method on hundreds of seeded random maps of
** every shape with and without terrain, paths checked step by step; the
** space's contract (arc order, predecessors, consistent heuristic); the
** coordinate conversions; the grid's API and terrain minimum; the ASCII hex
** format with every error kind at its exact line and column; allocation
** failure at every allocation of the grid and the parser.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

#define NSHAPES 4
#define PI 3.14159265358979323846
static const astar_hex_orientation ORI[NSHAPES] = {ASTAR_HEX_POINTY, ASTAR_HEX_POINTY,
                                                   ASTAR_HEX_FLAT, ASTAR_HEX_FLAT};
static const astar_hex_layout LAY[NSHAPES] = {ASTAR_HEX_ODD, ASTAR_HEX_EVEN, ASTAR_HEX_ODD,
                                              ASTAR_HEX_EVEN};
static const char *const SHAPE_NAME[NSHAPES] = {"odd-r", "even-r", "odd-q", "even-q"};

/* ---- the test's model ------------------------------------------------------------ */

typedef struct tcube {
  long q, r, s;
} tcube;

/* Doubled coordinates: a pointy map's columns count half cells (a shoved row
** starts one half cell right), a flat map's rows likewise; the even layouts
** are moved back one half cell so that the doubled coordinate minus the
** other one is even. Then the cube follows in one line. */
static tcube model_cube(int shape, long x, long y) {
  const long even = shape & 1;
  tcube c;
  if (shape < 2) {
    const long odd = labs(y) % 2, shove = even ? 1 - odd : odd;
    const long dx = 2 * x + shove - even;
    c.r = y;
    c.q = (dx - y) / 2;
  } else {
    const long odd = labs(x) % 2, shove = even ? 1 - odd : odd;
    const long dy = 2 * y + shove - even;
    c.q = x;
    c.r = (dy - x) / 2;
  }
  c.s = -c.q - c.r;
  return c;
}

static long model_dist(int shape, astar_point a, astar_point b) {
  const tcube ca = model_cube(shape, a.x, a.y), cb = model_cube(shape, b.x, b.y);
  const long dq = labs(ca.q - cb.q), dr = labs(ca.r - cb.r), ds = labs(ca.s - cb.s);
  return dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds);
}

#define MAXW 24
#define MAXC 576 /* MAXW * MAXW */

typedef struct tmap {
  int shape;
  int32_t w, h;
  unsigned char pass[MAXC];
  float ter[MAXC];
} tmap;

static bool model_adjacent(const tmap *m, astar_point a, astar_point b) {
  return model_dist(m->shape, a, b) == 1;
}

/* Plain Dijkstra from s over the model (a binary heap with lazy deletion):
** dist[y * w + x], INFINITY where unreachable or blocked. */
static void model_dijkstra(const tmap *m, astar_point s, double *dist) {
  typedef struct item {
    double d;
    int v;
  } item;
  static item heap[7 * MAXC + 1];
  static bool done[MAXC];
  const int n = m->w * m->h;
  for (int v = 0; v < n; v++) dist[v] = INFINITY, done[v] = false;
  const int sv = s.y * m->w + s.x;
  if (!m->pass[sv]) return;
  int len = 0;
  dist[sv] = 0;
  heap[len++] = (item){0, sv};
  while (len) {
    const item top = heap[0];
    heap[0] = heap[--len];
    for (int i = 0;;) { /* sift down */
      int c = 2 * i + 1;
      if (c >= len) break;
      if (c + 1 < len && heap[c + 1].d < heap[c].d) c++;
      if (heap[i].d <= heap[c].d) break;
      const item t = heap[i];
      heap[i] = heap[c], heap[c] = t, i = c;
    }
    if (done[top.v]) continue;
    done[top.v] = true;
    const astar_point u = {top.v % m->w, top.v / m->w};
    for (int dy = -1; dy <= 1; dy++) {
      for (int dx = -1; dx <= 1; dx++) {
        const astar_point p = {u.x + dx, u.y + dy};
        if (p.x < 0 || p.y < 0 || p.x >= m->w || p.y >= m->h || !model_adjacent(m, u, p)) continue;
        const int v = p.y * m->w + p.x;
        if (!m->pass[v] || top.d + m->ter[v] >= dist[v]) continue;
        dist[v] = top.d + m->ter[v];
        heap[len] = (item){dist[v], v};
        for (int i = len++; i > 0 && heap[(i - 1) / 2].d > heap[i].d; i = (i - 1) / 2) {
          const item t = heap[i];
          heap[i] = heap[(i - 1) / 2], heap[(i - 1) / 2] = t;
        }
      }
    }
  }
}

/* The path walks the model from s to t through passable cells, and its
** entry costs add up to `claimed`. */
static bool model_valid(const tmap *m, const astar_hex_grid *g, const astar_node *path, size_t n,
                        astar_point s, astar_point t, double claimed, char *why, size_t cap) {
  if (n == 0) return snprintf(why, cap, "empty path"), false;
  double sum = 0;
  astar_point prev = {-1, -1};
  for (size_t i = 0; i < n; i++) {
    const astar_point c = astar_hex_grid_cell(g, path[i]);
    if (c.x < 0 || !m->pass[c.y * m->w + c.x])
      return snprintf(why, cap, "step %zu: node %u is outside or blocked", i, path[i]), false;
    if (i == 0 && (c.x != s.x || c.y != s.y)) return snprintf(why, cap, "wrong start"), false;
    if (i > 0) {
      if (!model_adjacent(m, prev, c))
        return snprintf(why, cap, "step %zu: (%d,%d) -> (%d,%d) not adjacent", i, prev.x, prev.y,
                        c.x, c.y),
               false;
      sum += m->ter[c.y * m->w + c.x];
    }
    prev = c;
  }
  if (prev.x != t.x || prev.y != t.y) return snprintf(why, cap, "wrong end"), false;
  if (fabs(sum - claimed) > 1e-9 * (1 + sum))
    return snprintf(why, cap, "cost %.17g claimed, steps add up to %.17g", claimed, sum), false;
  return true;
}

/* A random map of the given shape; terrain 0: none, 1: digits 1-9, 2:
** multiples of 1/64 in [0.5, 5] (exact sums in any order). Blocked cells
** get terrain too: the minimum counts every cell. */
static void model_make(tmap *m, rng *r, int shape, int terrain) {
  m->shape = shape;
  m->w = rng_range(r, 1, MAXW);
  m->h = rng_range(r, 1, MAXW);
  const double density = rng_unit(r) * 0.45;
  for (int v = 0; v < m->w * m->h; v++) {
    m->pass[v] = rng_unit(r) >= density;
    m->ter[v] = terrain == 0   ? 1.0f
                : terrain == 1 ? (float)rng_range(r, 1, 9)
                               : (float)rng_range(r, 32, 320) / 64.0f;
  }
}

static astar_hex_grid *model_grid(const tmap *m) {
  astar_hex_grid *g = NULL;
  if (astar_hex_grid_new(&g, m->w, m->h, ORI[m->shape], LAY[m->shape], NULL) != ASTAR_OK)
    return NULL;
  for (int32_t y = 0; y < m->h; y++) {
    for (int32_t x = 0; x < m->w; x++) {
      const int v = y * m->w + x;
      if (astar_hex_grid_set_terrain(g, x, y, m->ter[v]) != ASTAR_OK ||
          astar_hex_grid_set_passable(g, x, y, m->pass[v]) != ASTAR_OK) {
        astar_hex_grid_free(g);
        return NULL;
      }
    }
  }
  return g;
}

/* A workspace for spaces of up to `nodes` nodes, both directions. */
static astar_workspace *ws_for(const astar_space *sp) {
  astar_grid *tiny;
  astar_workspace *ws = NULL;
  if (astar_grid_new(&tiny, 1, 1, NULL) != ASTAR_OK) return NULL;
  if (astar_workspace_new(&ws, tiny, NULL) != ASTAR_OK) ws = NULL;
  astar_grid_free(tiny);
  if (ws && astar_workspace_reserve_space(ws, sp, ASTAR_RESERVE_BACKWARD) != ASTAR_OK) {
    astar_workspace_free(ws);
    ws = NULL;
  }
  return ws;
}

/* ---- the model against geometry and the library's coordinates ------------------ */

/* The model's adjacency is the geometry's: neighbours' centres are sqrt(3)
** apart and no other cells' are closer than 3; the library's conversions,
** distance and neighbours agree with the model everywhere, negative
** coordinates included; the round trips are exact. */
static void test_coordinates(void) {
  const double root3 = sqrt(3.0);
  for (int sh = 0; sh < NSHAPES; sh++) {
    const astar_hex_orientation o = ORI[sh];
    const astar_hex_layout l = LAY[sh];
    int bad = 0;
    for (int32_t y = -9; y <= 9; y++) {
      for (int32_t x = -9; x <= 9; x++) {
        const astar_point c = {x, y};
        const astar_hex_axial a = astar_hex_offset_to_axial(o, l, c);
        const astar_point back = astar_hex_axial_to_offset(o, l, a);
        const astar_hex_cube cube = astar_hex_axial_to_cube(a);
        const astar_hex_axial a2 = astar_hex_cube_to_axial(cube);
        bad += back.x != x || back.y != y;
        bad += cube.q + cube.r + cube.s != 0 || a2.q != a.q || a2.r != a.r;
        /* Axial to offset and back is exact too. */
        const astar_hex_axial ax = {x, y};
        const astar_hex_axial ax2 =
            astar_hex_offset_to_axial(o, l, astar_hex_axial_to_offset(o, l, ax));
        bad += ax2.q != x || ax2.r != y;
        double cc[2];
        astar_hex_center(o, l, c, cc);
        for (int32_t v = -2; v <= 2; v++) {
          for (int32_t u = -2; u <= 2; u++) {
            const astar_point d = {x + u, y + v};
            const long md = model_dist(sh, c, d);
            const int64_t ld = astar_hex_distance(a, astar_hex_offset_to_axial(o, l, d));
            double dc[2];
            astar_hex_center(o, l, d, dc);
            const double e = hypot(dc[0] - cc[0], dc[1] - cc[1]);
            bad += ld != md;
            if (md == 1) bad += fabs(e - root3) > 1e-9;
            if (md >= 2) bad += e < 3.0 - 1e-9;
          }
        }
        /* The six neighbours, in the documented on-screen directions: d
        ** at 60 d degrees counter-clockwise from east (pointy) or from
        ** 30 degrees below east (flat), y pointing down. */
        for (int d = 0; d < 6; d++) {
          const astar_point n = astar_hex_neighbor(o, l, c, d);
          double nc[2];
          astar_hex_center(o, l, n, nc);
          const double angle = (o == ASTAR_HEX_FLAT ? -30.0 : 0.0) + 60.0 * d;
          const double ex = root3 * cos(angle * PI / 180), ey = -root3 * sin(angle * PI / 180);
          bad += model_dist(sh, c, n) != 1;
          bad += fabs(nc[0] - cc[0] - ex) > 1e-9 || fabs(nc[1] - cc[1] - ey) > 1e-9;
          const astar_point m = astar_hex_neighbor(o, l, n, d + 3);
          bad += m.x != x || m.y != y;
        }
      }
    }
    CHECKF(bad == 0, "%s: %d disagreements", SHAPE_NAME[sh], bad);
  }
  /* Red Blob's odd-r picture: the neighbours of (1,1) and of (1,2). */
  static const astar_point odd_row[6] = {{2, 1}, {2, 0}, {1, 0}, {0, 1}, {1, 2}, {2, 2}};
  static const astar_point even_row[6] = {{2, 2}, {1, 1}, {0, 1}, {0, 2}, {0, 3}, {1, 3}};
  for (int d = 0; d < 6; d++) {
    const astar_point a =
        astar_hex_neighbor(ASTAR_HEX_POINTY, ASTAR_HEX_ODD, (astar_point){1, 1}, d);
    const astar_point b =
        astar_hex_neighbor(ASTAR_HEX_POINTY, ASTAR_HEX_ODD, (astar_point){1, 2}, d);
    CHECK(a.x == odd_row[d].x && a.y == odd_row[d].y);
    CHECK(b.x == even_row[d].x && b.y == even_row[d].y);
  }
  /* Directions modulo 6, any int. */
  const astar_hex_axial e = astar_hex_direction(0), w = astar_hex_direction(3);
  CHECK(e.q == 1 && e.r == 0 && w.q == -1 && w.r == 0);
  CHECK(astar_hex_direction(-1).q == 0 && astar_hex_direction(-1).r == 1);
  CHECK(astar_hex_direction(6).q == 1 && astar_hex_direction(6).r == 0);
  CHECK(astar_hex_direction(INT32_MIN).q == astar_hex_direction(((INT32_MIN % 6) + 6) % 6).q);
  (void)astar_hex_direction(INT32_MAX);
  /* Extreme coordinates: exact distance, no overflow. */
  const astar_hex_axial lo = {INT32_MIN, INT32_MIN}, hi = {INT32_MAX, INT32_MAX};
  CHECK(astar_hex_distance(lo, hi) == 2 * ((int64_t)INT32_MAX - INT32_MIN));
  const astar_hex_axial mix1 = {INT32_MIN, INT32_MAX}, mix2 = {INT32_MAX, INT32_MIN};
  CHECK(astar_hex_distance(mix1, mix2) == (int64_t)INT32_MAX - INT32_MIN);
  for (int sh = 0; sh < NSHAPES; sh++) {
    const astar_point far = {INT32_MAX, INT32_MIN};
    (void)astar_hex_neighbor(ORI[sh], LAY[sh], far, 1);
    (void)astar_hex_offset_to_axial(ORI[sh], LAY[sh], far);
  }
  /* Unknown enum values read as pointy / odd. */
  const astar_point c = {3, 5};
  const astar_hex_axial a1 =
      astar_hex_offset_to_axial((astar_hex_orientation)7, (astar_hex_layout)9, c);
  const astar_hex_axial a2 = astar_hex_offset_to_axial(ASTAR_HEX_POINTY, ASTAR_HEX_ODD, c);
  CHECK(a1.q == a2.q && a1.r == a2.r);
}

/* ---- the grid ------------------------------------------------------------------------ */

static void test_grid_api(void) {
  astar_hex_grid *g = (astar_hex_grid *)&g;
  CHECK(astar_hex_grid_new(NULL, 3, 3, ASTAR_HEX_POINTY, ASTAR_HEX_ODD, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_grid_new(&g, 0, 3, ASTAR_HEX_POINTY, ASTAR_HEX_ODD, NULL) ==
            ASTAR_INVALID_ARGUMENT &&
        g == NULL);
  CHECK(astar_hex_grid_new(&g, 3, -1, ASTAR_HEX_FLAT, ASTAR_HEX_ODD, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_grid_new(&g, 3, 3, (astar_hex_orientation)2, ASTAR_HEX_ODD, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_grid_new(&g, 3, 3, ASTAR_HEX_FLAT, (astar_hex_layout)-1, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_grid_new(&g, ASTAR_HEX_MAX_SIDE + 1, 1, ASTAR_HEX_FLAT, ASTAR_HEX_ODD, NULL) ==
        ASTAR_TOO_LARGE);
  CHECK(astar_hex_grid_new(&g, 20000, 20000, ASTAR_HEX_FLAT, ASTAR_HEX_ODD, NULL) ==
            ASTAR_TOO_LARGE &&
        g == NULL);

  CHECK(astar_hex_grid_new(&g, 5, 4, ASTAR_HEX_FLAT, ASTAR_HEX_EVEN, NULL) == ASTAR_OK);
  CHECK(astar_hex_grid_width(g) == 5 && astar_hex_grid_height(g) == 4);
  CHECK(astar_hex_grid_orientation(g) == ASTAR_HEX_FLAT &&
        astar_hex_grid_layout(g) == ASTAR_HEX_EVEN);
  CHECK(astar_hex_grid_count_passable(g) == 20 && astar_hex_grid_min_terrain(g) == 1.0f);
  CHECK(astar_hex_grid_contains(g, 4, 3) && !astar_hex_grid_contains(g, 5, 0) &&
        !astar_hex_grid_contains(g, 0, -1));
  CHECK(!astar_hex_grid_passable(g, -1, 0) && astar_hex_grid_terrain(g, 9, 9) == 0.0f);

  /* Passability and the version. */
  uint64_t v = astar_hex_grid_version(g);
  CHECK(astar_hex_grid_set_passable(g, 2, 1, false) == ASTAR_OK);
  CHECK(!astar_hex_grid_passable(g, 2, 1) && astar_hex_grid_count_passable(g) == 19);
  CHECK(astar_hex_grid_version(g) > v);
  v = astar_hex_grid_version(g);
  CHECK(astar_hex_grid_set_passable(g, 2, 1, false) == ASTAR_OK && astar_hex_grid_version(g) == v);
  CHECK(astar_hex_grid_set_passable(g, 5, 1, false) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_hex_grid_set_passable(NULL, 0, 0, false) == ASTAR_INVALID_ARGUMENT);

  /* Terrain and its minimum, through a rescan. */
  const float bad[] = {0.0f, -1.0f, NAN, INFINITY, 2e9f};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(astar_hex_grid_set_terrain(g, 0, 0, bad[i]) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_grid_set_terrain(g, 7, 0, 2.0f) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_hex_grid_set_terrain(NULL, 0, 0, 2.0f) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_grid_version(g) == v);
  CHECK(astar_hex_grid_set_terrain(g, 1, 1, 0.5f) == ASTAR_OK);
  CHECK(astar_hex_grid_min_terrain(g) == 0.5f && astar_hex_grid_version(g) > v);
  CHECK(astar_hex_grid_set_terrain(g, 2, 1, 0.5f) == ASTAR_OK); /* blocked cells count too */
  CHECK(astar_hex_grid_set_terrain(g, 1, 1, 3.0f) == ASTAR_OK);
  CHECK(astar_hex_grid_min_terrain(g) == 0.5f);
  CHECK(astar_hex_grid_set_terrain(g, 2, 1, 2.0f) == ASTAR_OK);
  CHECK(astar_hex_grid_min_terrain(g) == 1.0f);
  for (int32_t y = 0; y < 4; y++)
    for (int32_t x = 0; x < 5; x++) CHECK(astar_hex_grid_set_terrain(g, x, y, 4.0f) == ASTAR_OK);
  CHECK(astar_hex_grid_min_terrain(g) == 4.0f && astar_hex_grid_terrain(g, 1, 1) == 4.0f);
  CHECK(astar_hex_grid_set_terrain(g, 4, 3, ASTAR_HEX_TERRAIN_MAX) == ASTAR_OK);
  CHECK(astar_hex_grid_terrain(g, 4, 3) == ASTAR_HEX_TERRAIN_MAX);

  /* Node ids. */
  CHECK(astar_hex_grid_node(g, (astar_point){3, 2}) == 13);
  CHECK(astar_hex_grid_node(g, (astar_point){5, 2}) == ASTAR_NODE_NONE);
  CHECK(astar_hex_grid_cell(g, 13).x == 3 && astar_hex_grid_cell(g, 13).y == 2);
  CHECK(astar_hex_grid_cell(g, 20).x == -1 && astar_hex_grid_cell(NULL, 0).y == -1);

  /* NULL grids read as empty. */
  CHECK(astar_hex_grid_width(NULL) == 0 && astar_hex_grid_height(NULL) == 0);
  CHECK(!astar_hex_grid_contains(NULL, 0, 0) && astar_hex_grid_version(NULL) == 0);
  CHECK(astar_hex_grid_count_passable(NULL) == 0 && astar_hex_grid_min_terrain(NULL) == 0.0f);
  CHECK(astar_hex_grid_node(NULL, (astar_point){0, 0}) == ASTAR_NODE_NONE);

  /* The space. */
  astar_space sp;
  CHECK(astar_hex_space(NULL, &sp) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_space(g, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_hex_space(g, &sp) == ASTAR_OK && astar_space_validate(&sp) == ASTAR_OK);
  CHECK(sp.node_count == 20 && sp.max_degree == 6 &&
        sp.flags == (ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT));
  double xyz[3] = {9, 9, 9}, want[2];
  CHECK(sp.ops->position(sp.self, 13, xyz));
  astar_hex_center(ASTAR_HEX_FLAT, ASTAR_HEX_EVEN, (astar_point){3, 2}, want);
  CHECK(xyz[0] == want[0] && xyz[1] == want[1] && xyz[2] == 0.0);
  CHECK(!sp.ops->usable(sp.self, astar_hex_grid_node(g, (astar_point){2, 1})));
  astar_hex_grid_free(g);
  astar_hex_grid_free(NULL);
}

/* The space's contract on random maps: successors are the passable model
** neighbours in direction order with the entered cell's terrain;
** predecessors list exactly the reversed arcs; the heuristic is consistent
** on every arc and never above the true distance. */
static void test_space_contract(void) {
  static tmap m;
  static double dist[MAXC];
  rng r;
  rng_seed(&r, 606);
  int bad = 0, arcs_seen = 0;
  for (int k = 0; k < 60; k++) {
    model_make(&m, &r, k % NSHAPES, k % 3);
    astar_hex_grid *g = model_grid(&m);
    CHECK(g != NULL);
    if (!g) return;
    astar_space sp;
    CHECK(astar_hex_space(g, &sp) == ASTAR_OK);
    const astar_node goal = (astar_node)rng_range(&r, 0, m.w * m.h - 1);
    for (astar_node v = 0; v < sp.node_count; v++) {
      const astar_point c = astar_hex_grid_cell(g, v);
      astar_arc out[6], in[6];
      const size_t n = sp.ops->successors(sp.self, v, out, 6);
      const size_t ni = sp.ops->predecessors(sp.self, v, in, 6);
      bad += sp.ops->usable(sp.self, v) != (bool)m.pass[v];
      /* Successors: the passable neighbours, in direction order. */
      size_t want = 0;
      for (int d = 0; d < 6; d++) {
        const astar_point nb = astar_hex_neighbor(ORI[m.shape], LAY[m.shape], c, d);
        if (!m.pass[v] || nb.x < 0 || nb.y < 0 || nb.x >= m.w || nb.y >= m.h ||
            !m.pass[nb.y * m.w + nb.x])
          continue;
        const astar_node u = (astar_node)(nb.y * m.w + nb.x);
        bad += !model_adjacent(&m, c, nb);
        bad += want >= n || out[want].node != u || out[want].cost != m.ter[u];
        bad += want >= ni || in[want].node != u || in[want].cost != m.ter[v];
        want++;
      }
      bad += n != want || ni != want;
      arcs_seen += (int)n;
      /* A short buffer gets a prefix. */
      if (n > 1) bad += sp.ops->successors(sp.self, v, out, 1) != 1;
      /* Consistency towards the goal, on every arc. */
      const double hv = sp.ops->heuristic(sp.self, v, goal);
      bad += hv < 0 || (v == goal && hv != 0);
      for (size_t i = 0; i < n; i++)
        bad += hv > out[i].cost + sp.ops->heuristic(sp.self, out[i].node, goal) + 1e-12;
    }
    /* Admissible: never above the model's distance to the goal. */
    for (int q = 0; q < 5; q++) {
      const astar_point a = {rng_range(&r, 0, m.w - 1), rng_range(&r, 0, m.h - 1)};
      model_dijkstra(&m, a, dist);
      const double d = dist[goal];
      if (d < INFINITY)
        bad += sp.ops->heuristic(sp.self, (astar_node)(a.y * m.w + a.x), goal) > d + 1e-9;
    }
    astar_hex_grid_free(g);
  }
  CHECKF(bad == 0, "%d contract violations", bad);
  CHECK(arcs_seen > 10000);
}

/* Every engine method on random maps of every shape against the model's
** Dijkstra; paths checked step by step. */
static void test_random_maps(void) {
  static tmap m;
  static double dist[MAXC];
  static astar_node path[MAXC];
  rng r;
  rng_seed(&r, 20240609);
  int compared = 0, unreachable = 0, blocked = 0;
  for (int k = 0; k < 480; k++) {
    model_make(&m, &r, k % NSHAPES, (k / NSHAPES) % 3);
    astar_hex_grid *g = model_grid(&m);
    CHECK(g != NULL);
    if (!g) return;
    float mt = m.ter[0];
    for (int v = 1; v < m.w * m.h; v++) mt = m.ter[v] < mt ? m.ter[v] : mt;
    CHECK(astar_hex_grid_min_terrain(g) == mt);
    astar_space sp;
    CHECK(astar_hex_space(g, &sp) == ASTAR_OK);
    astar_workspace *ws = ws_for(&sp);
    CHECK(ws != NULL);
    if (!ws) {
      astar_hex_grid_free(g);
      return;
    }
    for (int q = 0; q < 4; q++) {
      const astar_point s = {rng_range(&r, 0, m.w - 1), rng_range(&r, 0, m.h - 1)};
      model_dijkstra(&m, s, dist);
      for (int t = 0; t < 3; t++) {
        const astar_point goal = {rng_range(&r, 0, m.w - 1), rng_range(&r, 0, m.h - 1)};
        const astar_node sn = astar_hex_grid_node(g, s), gn = astar_hex_grid_node(g, goal);
        const double ref = dist[gn];
        /* The methods up to bidirectional; the variants of Patel 4 after
        ** them are test_variants.c's. */
        for (int method = 0; method <= ASTAR_METHOD_BIDIRECTIONAL; method++) {
          astar_engine_options o;
          astar_engine_options_init(&o);
          o.method = (astar_method)method;
          o.tie = rng_range(&r, 0, 1) ? ASTAR_TIE_LARGER_G : ASTAR_TIE_NEWEST;
          if (method == ASTAR_METHOD_ASTAR && rng_range(&r, 0, 3) == 0) o.weight = 1.5;
          astar_engine_result res;
          const astar_status st = astar_space_find_path(ws, &sp, &o, sn, gn, path, MAXC, &res);
          if (!m.pass[sn] || !m.pass[gn]) {
            CHECK(st == (m.pass[sn] ? ASTAR_GOAL_BLOCKED : ASTAR_START_BLOCKED));
            blocked += method == 0;
            continue;
          }
          if (ref == INFINITY) {
            CHECKF(st == ASTAR_NO_PATH, "map %d %s: status %d for no path", k, SHAPE_NAME[m.shape],
                   (int)st);
            unreachable += method == 0;
            continue;
          }
          CHECKF(st == ASTAR_OK, "map %d method %d: status %d", k, method, (int)st);
          if (st != ASTAR_OK) continue;
          char why[160];
          CHECKF(model_valid(&m, g, path, res.length, s, goal, res.cost, why, sizeof why),
                 "map %d %s method %s: %s", k, SHAPE_NAME[m.shape], astar_method_name(o.method),
                 why);
          if (method != ASTAR_METHOD_GREEDY)
            CHECKF(res.cost <= o.weight * ref * (1 + 1e-12) + 1e-9 &&
                       (o.weight != 1.0 || fabs(res.cost - ref) <= 1e-9 * (1 + ref)),
                   "map %d %s method %s weight %g: cost %.17g, optimal %.17g", k,
                   SHAPE_NAME[m.shape], astar_method_name(o.method), o.weight, res.cost, ref);
          compared += method == 0;
        }
      }
    }
    astar_workspace_free(ws);
    astar_hex_grid_free(g);
  }
  CHECKF(compared > 2500 && unreachable > 100 && blocked > 500,
         "compared %d, unreachable %d, blocked %d", compared, unreachable, blocked);
}

/* ---- the ASCII format ---------------------------------------------------------------- */

static void test_parse_valid(void) {
  const char *text = "; a pointy map\n"
                     "\n"
                     "  hex\tpointy odd-r  \r\n"
                     ". . # . G\r\n"
                     " . 3 # . .\r\n"
                     "; between rows\n"
                     "\tS . . 2 9";
  astar_hex_grid *g = NULL;
  astar_point s, gl;
  astar_parse_error e;
  CHECK(astar_hex_parse_map(&g, text, strlen(text), NULL, &s, &gl, &e) == ASTAR_OK);
  CHECK(g && astar_hex_grid_width(g) == 5 && astar_hex_grid_height(g) == 3);
  CHECK(astar_hex_grid_orientation(g) == ASTAR_HEX_POINTY &&
        astar_hex_grid_layout(g) == ASTAR_HEX_ODD);
  CHECK(s.x == 0 && s.y == 2 && gl.x == 4 && gl.y == 0);
  CHECK(!astar_hex_grid_passable(g, 2, 0) && !astar_hex_grid_passable(g, 2, 1));
  CHECK(astar_hex_grid_passable(g, 4, 0) && astar_hex_grid_passable(g, 0, 2));
  CHECK(astar_hex_grid_terrain(g, 1, 1) == 3.0f && astar_hex_grid_terrain(g, 4, 2) == 9.0f);
  CHECK(astar_hex_grid_terrain(g, 3, 2) == 2.0f && astar_hex_grid_terrain(g, 0, 0) == 1.0f);
  CHECK(astar_hex_grid_count_passable(g) == 13 && astar_hex_grid_min_terrain(g) == 1.0f);
  CHECK(astar_hex_is_map(text, strlen(text)));
  astar_hex_grid_free(g);

  /* Flat, even-q, dense rows, CR line ends; default layouts; no S or G. */
  const char *flat = "hex flat even-q\r..1#\r#..9\r";
  CHECK(astar_hex_parse_map(&g, flat, strlen(flat), NULL, &s, &gl, NULL) == ASTAR_OK);
  CHECK(astar_hex_grid_orientation(g) == ASTAR_HEX_FLAT &&
        astar_hex_grid_layout(g) == ASTAR_HEX_EVEN);
  CHECK(astar_hex_grid_width(g) == 4 && astar_hex_grid_height(g) == 2 && s.x == -1 && gl.y == -1);
  CHECK(astar_hex_grid_terrain(g, 2, 0) == 1.0f && !astar_hex_grid_passable(g, 0, 1));
  astar_hex_grid_free(g);
  static const struct {
    const char *text;
    astar_hex_orientation o;
    astar_hex_layout l;
  } defaults[] = {{"hex pointy\n.", ASTAR_HEX_POINTY, ASTAR_HEX_ODD},
                  {"hex flat\n.", ASTAR_HEX_FLAT, ASTAR_HEX_ODD},
                  {"hex pointy even-r\n.", ASTAR_HEX_POINTY, ASTAR_HEX_EVEN},
                  {"hex flat odd-q\n.", ASTAR_HEX_FLAT, ASTAR_HEX_ODD}};
  for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
    CHECK(astar_hex_parse_map(&g, defaults[i].text, strlen(defaults[i].text), NULL, NULL, NULL,
                              NULL) == ASTAR_OK);
    CHECK(astar_hex_grid_orientation(g) == defaults[i].o &&
          astar_hex_grid_layout(g) == defaults[i].l);
    astar_hex_grid_free(g);
  }
  /* Not NUL-terminated: the length is the end. */
  const char buf[] = {'h', 'e', 'x', ' ', 'f', 'l', 'a', 't', '\n', '.', '#', 'x'};
  CHECK(astar_hex_parse_map(&g, buf, sizeof buf - 1, NULL, NULL, NULL, NULL) == ASTAR_OK);
  CHECK(astar_hex_grid_width(g) == 2);
  astar_hex_grid_free(g);

  /* Detection. */
  CHECK(astar_hex_is_map(";c\n\n hex flat\n", 13));
  CHECK(astar_hex_is_map("hex", 3));
  CHECK(!astar_hex_is_map("hexagon\n", 8));
  CHECK(!astar_hex_is_map("type octile\n", 12));
  CHECK(!astar_hex_is_map("...\nhex\n", 8));
  CHECK(!astar_hex_is_map("", 0) && !astar_hex_is_map(NULL, 5));
}

/* One malformed text: the status, where, and what the message says. */
static void parse_err(int at, const char *text, astar_status want, int32_t line, int32_t col,
                      const char *says) {
  astar_hex_grid *g = (astar_hex_grid *)&g;
  astar_point s = {7, 7}, gl = {7, 7};
  astar_parse_error e;
  memset(&e, 0, sizeof e);
  const astar_status st = astar_hex_parse_map(&g, text, strlen(text), NULL, &s, &gl, &e);
  CHECKF(st == want && e.line == line && e.column == col && strstr(e.message, says) && !g &&
             s.x == -1 && gl.x == -1,
         "case at line %d: status %d, %d:%d '%s' (expected %d, %d:%d '%s')", at, (int)st,
         (int)e.line, (int)e.column, e.message, (int)want, (int)line, (int)col, says);
}
#define PARSE_ERR(...) parse_err(__LINE__, __VA_ARGS__)

static void test_parse_errors(void) {
  const astar_status P = ASTAR_PARSE_ERROR, L = ASTAR_TOO_LARGE;
  /* The header. */
  PARSE_ERR("", P, 1, 1, "missing the header");
  PARSE_ERR("; only a comment\n\n", P, 3, 1, "missing the header");
  PARSE_ERR("  ; only a comment", P, 1, 19, "missing the header");
  PARSE_ERR("hexagon pointy\n..\n", P, 1, 1,
            "expected the header 'hex pointy|flat [LAYOUT]', got 'hexagon'");
  PARSE_ERR("\n . # \n", P, 2, 2, "got '.'");
  PARSE_ERR("  hex  \n..\n", P, 1, 8, "missing orientation after 'hex'");
  PARSE_ERR("hex round\n..\n", P, 1, 5, "unknown orientation 'round' (expected pointy or flat)");
  PARSE_ERR("hex Pointy\n..\n", P, 1, 5, "unknown orientation 'Pointy'");
  PARSE_ERR("hex pointy odd\n..\n", P, 1, 12, "unknown layout 'odd' (expected odd-r or even-r)");
  PARSE_ERR("hex flat odd-x\n..\n", P, 1, 10, "unknown layout 'odd-x' (expected odd-q or even-q)");
  PARSE_ERR("hex pointy odd-q\n..\n", P, 1, 12,
            "layout odd-q is for flat maps; pointy maps take odd-r or even-r");
  PARSE_ERR("hex flat\teven-r\n..\n", P, 1, 10,
            "layout even-r is for pointy maps; flat maps take odd-q or even-q");
  PARSE_ERR("hex flat odd-q 12x4\n..\n", P, 1, 16, "unexpected text '12x4' after the header");
  /* Rows. */
  PARSE_ERR("hex pointy\n", P, 2, 1, "the map has no rows");
  PARSE_ERR("hex pointy", P, 1, 11, "the map has no rows");
  PARSE_ERR("hex pointy\n; c\n   \n", P, 4, 1, "the map has no rows");
  PARSE_ERR("hex pointy\n. x .\n", P, 2, 3, "unknown cell character 'x' (expected . # 1-9 S G)");
  PARSE_ERR("hex pointy\n..\n.0\n", P, 3, 2, "unknown cell character '0'");
  PARSE_ERR("hex pointy\n.@\n", P, 2, 2, "unknown cell character '@'");
  PARSE_ERR("hex pointy\n. ;\n", P, 2, 3, "unknown cell character ';'");
  PARSE_ERR("hex pointy\n.\x01\n", P, 2, 2, "unknown cell character '\\x01'");
  PARSE_ERR("hex pointy\n. \xc3\xa9\n", P, 2, 3, "'\\xc3'");
  PARSE_ERR("hex pointy\n. . .\n . .\n", P, 3, 5, "row 2 (y=1) has 2 cells, expected 3");
  PARSE_ERR("hex pointy\n. . .\n . . . .\n", P, 3, 8, "row 2 (y=1) has 4 cells, expected 3");
  PARSE_ERR("hex flat\n...\n...\n;\n\n....\n", P, 6, 4, "row 3 (y=2) has 4 cells, expected 3");
  PARSE_ERR("hex pointy\n.S.\n..S\n", P, 3, 3,
            "second start 'S' (the first is at line 2, column 2)");
  PARSE_ERR("hex pointy\nG  .\n;\n G .\n", P, 4, 2,
            "second goal 'G' (the first is at line 2, column 1)");
  /* Size limits. */
  {
    const size_t w = ASTAR_HEX_MAX_SIDE + 1;
    char *t = malloc(w * 2 + 16);
    CHECK(t != NULL);
    if (t) {
      memcpy(t, "hex flat\n", 9);
      for (size_t i = 0; i < w; i++) t[9 + 2 * i] = '.', t[10 + 2 * i] = ' ';
      t[9 + 2 * w] = '\0';
      PARSE_ERR(t, L, 2, (int32_t)(2 * ASTAR_HEX_MAX_SIDE + 1),
                "the row has 32769 cells, the limit is 32768");
      /* One cell fewer is fine. */
      t[9 + 2 * (w - 1)] = '\0';
      astar_hex_grid *g = NULL;
      CHECK(astar_hex_parse_map(&g, t, strlen(t), NULL, NULL, NULL, NULL) == ASTAR_OK);
      CHECK(astar_hex_grid_width(g) == ASTAR_HEX_MAX_SIDE);
      astar_hex_grid_free(g);
      free(t);
    }
  }
  {
    const size_t h = ASTAR_HEX_MAX_SIDE + 1;
    char *t = malloc(2 * h + 16);
    CHECK(t != NULL);
    if (t) {
      memcpy(t, "hex pointy\n", 11);
      for (size_t y = 0; y < h; y++) t[11 + 2 * y] = '.', t[12 + 2 * y] = '\n';
      t[11 + 2 * h] = '\0';
      PARSE_ERR(t, L, (int32_t)h + 1, 1, "the map has more than 32768 rows");
      t[11 + 2 * (h - 1)] = '\0';
      astar_hex_grid *g = NULL;
      CHECK(astar_hex_parse_map(&g, t, strlen(t), NULL, NULL, NULL, NULL) == ASTAR_OK);
      CHECK(astar_hex_grid_height(g) == ASTAR_HEX_MAX_SIDE);
      astar_hex_grid_free(g);
      free(t);
    }
  }
  /* The cell limit needs 2^28 cells of text: only on request. */
  if (getenv("ASTAR_TEST_HUGE")) {
    const size_t w = ASTAR_HEX_MAX_SIDE, h = ASTAR_HEX_MAX_CELLS / w + 1;
    char *t = malloc((w + 1) * h + 16);
    CHECK(t != NULL);
    if (t) {
      memcpy(t, "hex pointy\n", 11);
      for (size_t y = 0; y < h; y++) {
        memset(t + 11 + y * (w + 1), '.', w);
        t[11 + y * (w + 1) + w] = '\n';
      }
      t[11 + h * (w + 1)] = '\0';
      PARSE_ERR(t, L, (int32_t)h + 1, 1, "the map has more than 268435456 cells");
      free(t);
    }
  }
  /* Arguments. */
  astar_parse_error e;
  astar_hex_grid *g = (astar_hex_grid *)&g;
  CHECK(astar_hex_parse_map(NULL, "hex flat\n.", 10, NULL, NULL, NULL, &e) ==
            ASTAR_INVALID_ARGUMENT &&
        e.line == 0);
  CHECK(astar_hex_parse_map(&g, NULL, 3, NULL, NULL, NULL, &e) == ASTAR_INVALID_ARGUMENT && !g);
  CHECK(astar_hex_parse_map(&g, NULL, 0, NULL, NULL, NULL, &e) == ASTAR_PARSE_ERROR &&
        e.line == 1 && e.column == 1);
}

/* The sample maps of tests/data/hex parse and are solvable. */
static void test_sample_files(void) {
  static const char *const files[] = {"data/hex/pointy.hex", "data/hex/flat.hex"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    FILE *f = fopen(files[i], "rb");
    CHECKF(f != NULL, "cannot open %s", files[i]);
    if (!f) continue;
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    astar_hex_grid *g = NULL;
    astar_point s, gl;
    astar_parse_error e;
    const astar_status st = astar_hex_parse_map(&g, text, n, NULL, &s, &gl, &e);
    CHECKF(st == ASTAR_OK, "%s:%d:%d: %s", files[i], (int)e.line, (int)e.column, e.message);
    if (st != ASTAR_OK) continue;
    CHECK(s.x >= 0 && gl.x >= 0 && astar_hex_is_map(text, n));
    astar_space sp;
    CHECK(astar_hex_space(g, &sp) == ASTAR_OK);
    astar_workspace *ws = ws_for(&sp);
    astar_node path[4096];
    astar_engine_result a, d;
    CHECK(astar_space_find_path(ws, &sp, NULL, astar_hex_grid_node(g, s),
                                astar_hex_grid_node(g, gl), path, 4096, &a) == ASTAR_OK);
    astar_engine_options o;
    astar_engine_options_init(&o);
    o.method = ASTAR_METHOD_DIJKSTRA;
    CHECK(astar_space_find_path(ws, &sp, &o, astar_hex_grid_node(g, s), astar_hex_grid_node(g, gl),
                                path, 4096, &d) == ASTAR_OK);
    CHECK(a.cost == d.cost && a.stats.expanded <= d.stats.expanded);
    astar_workspace_free(ws);
    astar_hex_grid_free(g);
  }
}

/* ---- allocation failure ------------------------------------------------------------ */

/* Fail the k-th allocation for k = 1, 2, ... until creation succeeds: every
** failure is ASTAR_NO_MEMORY with *out NULL and nothing leaked. */
static void test_failalloc(void) {
  int fails = 0;
  for (long k = 1; k < 50; k++) {
    failalloc fa;
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    const astar_allocator a = failalloc_allocator(&fa);
    astar_hex_grid *g = (astar_hex_grid *)&g;
    const astar_status st = astar_hex_grid_new(&g, 7, 5, ASTAR_HEX_FLAT, ASTAR_HEX_ODD, &a);
    if (st == ASTAR_OK) {
      CHECK(fa.failures == 0 && fa.blocks == 3);
      /* Edits and searches never allocate. */
      const long calls = fa.calls;
      CHECK(astar_hex_grid_set_terrain(g, 1, 1, 0.25f) == ASTAR_OK);
      CHECK(astar_hex_grid_set_terrain(g, 1, 1, 3.0f) == ASTAR_OK); /* rescan */
      CHECK(astar_hex_grid_set_passable(g, 2, 2, false) == ASTAR_OK);
      astar_space sp;
      CHECK(astar_hex_space(g, &sp) == ASTAR_OK);
      CHECK(fa.calls == calls);
      astar_hex_grid_free(g);
      CHECK(fa.blocks == 0 && fa.bytes == 0 && fa.osize_mismatches == 0);
      break;
    }
    fails++;
    CHECK(st == ASTAR_NO_MEMORY && g == NULL && fa.blocks == 0 && fa.failures == 1);
  }
  CHECK(fails == 3);

  const char *text = "hex pointy even-r\nS . 2\n # . G\n";
  fails = 0;
  for (long k = 1; k < 50; k++) {
    failalloc fa;
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    const astar_allocator a = failalloc_allocator(&fa);
    astar_hex_grid *g = (astar_hex_grid *)&g;
    astar_point s = {5, 5};
    astar_parse_error e;
    const astar_status st = astar_hex_parse_map(&g, text, strlen(text), &a, &s, NULL, &e);
    if (st == ASTAR_OK) {
      CHECK(s.x == 0 && s.y == 0 && astar_hex_grid_terrain(g, 2, 0) == 2.0f);
      astar_hex_grid_free(g);
      CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
      break;
    }
    fails++;
    CHECK(st == ASTAR_NO_MEMORY && g == NULL && s.x == -1 && fa.blocks == 0 && e.line == 0 &&
          strstr(e.message, "out of memory"));
  }
  CHECK(fails == 3);
}

int main(void) {
  RUN(test_coordinates);
  RUN(test_grid_api);
  RUN(test_space_contract);
  RUN(test_random_maps);
  RUN(test_parse_valid);
  RUN(test_parse_errors);
  RUN(test_sample_files);
  RUN(test_failalloc);
  return check_summary();
}
