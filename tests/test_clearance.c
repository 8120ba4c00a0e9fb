/*
** test_clearance.c -- astar/clearance.h against brute force: clearance
** values by trying every square, searches of k x k units against a
** reference Dijkstra over footprint states that re-derives the unit's
** movement from the cells it sweeps (never from clearance or derived grids),
** the path check against a brute-force walker, size 1 against the plain
** search, edits with staleness and incremental updates, allocation failure
** at every allocation in turn, the map-text type parser and bad arguments.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})
#define MAXK 4

/* ---- the brute-force model ------------------------------------------------ */

typedef struct world {
  const astar_grid *g;
  const uint8_t *types; /* [w*h] or NULL: all ground */
  int32_t w, h;
} world;

static bool trav(const world *wd, int32_t x, int32_t y, astar_capability m) {
  if (x < 0 || y < 0 || x >= wd->w || y >= wd->h) return false;
  if (!astar_grid_passable(wd->g, x, y)) return false;
  const unsigned t = wd->types ? wd->types[y * wd->w + x] : 0u;
  return (m >> t) & 1u;
}

static bool fits_bf(const world *wd, int32_t x, int32_t y, int32_t k, astar_capability m) {
  for (int32_t j = 0; j < k; j++)
    for (int32_t i = 0; i < k; i++)
      if (!trav(wd, x + i, y + j, m)) return false;
  return true;
}

static int32_t clearance_bf(const world *wd, int32_t x, int32_t y, astar_capability m,
                            int32_t cap) {
  int32_t k = 0;
  while (k < cap && fits_bf(wd, x, y, k + 1, m)) k++;
  return k;
}

static double foot_terrain(const world *wd, int32_t x, int32_t y, int32_t k) {
  double m = 0;
  for (int32_t j = 0; j < k; j++)
    for (int32_t i = 0; i < k; i++) {
      const double t = astar_grid_terrain(wd->g, x + i, y + j);
      if (t > m) m = t;
    }
  return m;
}

/* The unit's move a -> b from the cells it sweeps: b fits, and for a
** diagonal, the box around both footprints minus the footprints has at most
** as many untraversable cells as the corner rule allows. *cost as the model
** of astar/clearance.h. */
static bool step_bf(const world *wd, const astar_options *o, int32_t k, astar_capability m,
                    astar_point a, astar_point b, double *cost) {
  const int dx = b.x - a.x, dy = b.y - a.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return false;
  if (!fits_bf(wd, b.x, b.y, k, m)) return false;
  const bool diag = dx != 0 && dy != 0;
  if (diag) {
    if (o->moves != 8 || o->corner == ASTAR_CORNER_NEVER) return false;
    const int32_t bx = a.x < b.x ? a.x : b.x, by = a.y < b.y ? a.y : b.y;
    int blocked = 0;
    for (int32_t y = by; y <= by + k; y++)
      for (int32_t x = bx; x <= bx + k; x++) {
        const bool in_a = x >= a.x && x < a.x + k && y >= a.y && y < a.y + k;
        const bool in_b = x >= b.x && x < b.x + k && y >= b.y && y < b.y + k;
        if (!in_a && !in_b && !trav(wd, x, y, m)) blocked++;
      }
    if (o->corner == ASTAR_CORNER_NO_CUT && blocked > 0) return false;
    if (o->corner == ASTAR_CORNER_ONE_SIDE && blocked > 1) return false;
  }
  *cost = (diag ? o->diagonal_cost : o->straight_cost) * foot_terrain(wd, b.x, b.y, k);
  return true;
}

/* Reference Dijkstra over anchor states (O(V^2), small maps): optimal cost
** or -1. */
static double ref_unit(const world *wd, const astar_options *o, int32_t k, astar_capability m,
                       astar_point s, astar_point t) {
  const int32_t n = wd->w * wd->h;
  if (!fits_bf(wd, s.x, s.y, k, m) || !fits_bf(wd, t.x, t.y, k, m)) return -1;
  double *dist = malloc((size_t)n * sizeof *dist);
  char *done = calloc((size_t)n, 1);
  for (int32_t i = 0; i < n; i++) dist[i] = INFINITY;
  dist[s.y * wd->w + s.x] = 0;
  double answer = -1;
  for (;;) {
    int32_t u = -1;
    for (int32_t i = 0; i < n; i++)
      if (!done[i] && dist[i] < INFINITY && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    const astar_point a = P(u % wd->w, u / wd->w);
    if (a.x == t.x && a.y == t.y) {
      answer = dist[u];
      break;
    }
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const astar_point b = P(a.x + dx, a.y + dy);
        double c;
        if (b.x < 0 || b.y < 0 || b.x >= wd->w || b.y >= wd->h) continue;
        if (!step_bf(wd, o, k, m, a, b, &c)) continue;
        const int32_t v = b.y * wd->w + b.x;
        if (dist[u] + c < dist[v]) dist[v] = dist[u] + c;
      }
  }
  free(dist);
  free(done);
  return answer;
}

/* The whole path as the unit's walk: 1 with *cost, or 0 with *bad. */
static int walk_bf(const world *wd, const astar_options *o, int32_t k, astar_capability m,
                   const astar_point *path, size_t n, double *cost, size_t *bad) {
  double total = 0;
  for (size_t i = 0; i < n; i++) {
    if (!fits_bf(wd, path[i].x, path[i].y, k, m)) {
      *bad = i;
      return 0;
    }
    double c;
    if (i > 0) {
      if (!step_bf(wd, o, k, m, path[i - 1], path[i], &c)) {
        *bad = i;
        return 0;
      }
      total += c;
    }
  }
  *cost = total;
  return 1;
}

/* ---- random worlds ---------------------------------------------------------- */

/* A random map with random types: mostly ground, some swamp, water, trees. */
static astar_grid *random_world(rng *r, int32_t w, int32_t h, double density, int terrain,
                                uint8_t *types) {
  randmap_spec spec = {w, h, density, terrain, 0.5, 5.0};
  astar_grid *g = NULL;
  if (randmap_make(&g, &spec, r) != ASTAR_OK) return NULL;
  for (int32_t i = 0; i < w * h; i++) {
    const int32_t v = rng_range(r, 0, 9);
    types[i] = v < 6    ? ASTAR_TYPE_GROUND
               : v == 6 ? ASTAR_TYPE_SWAMP
               : v == 7 ? ASTAR_TYPE_WATER
               : v == 8 ? ASTAR_TYPE_TREES
                        : (uint8_t)rng_range(r, 0, 4);
  }
  return g;
}

static const astar_capability CAPS[3] = {
    ASTAR_CAPABILITY_WALKER,
    ASTAR_CAPABILITY(ASTAR_TYPE_GROUND) | ASTAR_CAPABILITY(ASTAR_TYPE_WATER),
    ASTAR_CAPABILITY_ALL,
};

static int compare_all(const world *wd, const astar_clearance *c, int32_t cap, const char *when,
                       uint64_t seed) {
  for (int ci = 0; ci < 3; ci++)
    for (int32_t y = 0; y < wd->h; y++)
      for (int32_t x = 0; x < wd->w; x++) {
        const int32_t want = clearance_bf(wd, x, y, CAPS[ci], cap);
        const int32_t got = astar_clearance_at(c, x, y, CAPS[ci]);
        if (want != got) {
          FAILF("%s seed %llu cap %d (%d,%d): clearance %d, brute force %d", when,
                (unsigned long long)seed, ci, x, y, got, want);
          return 0;
        }
      }
  return 1;
}

/* ---- tests -------------------------------------------------------------------- */

static void test_values_vs_brute_force(void) {
  for (uint64_t seed = 1; seed <= 120; seed++) {
    rng r;
    rng_seed(&r, seed * 7919);
    const int32_t w = rng_range(&r, 1, 30), h = rng_range(&r, 1, 30);
    uint8_t types[900];
    astar_grid *g = random_world(&r, w, h, rng_unit(&r) * 0.3, 0, types);
    CHECK(g != NULL);
    if (!g) continue;
    const int32_t cap = seed % 3 == 0 ? ASTAR_CLEARANCE_MAX : rng_range(&r, 1, 6);
    astar_clearance *c = NULL;
    CHECK(astar_clearance_new(&c, g, types, CAPS, 3, cap, NULL) == ASTAR_OK);
    const world wd = {g, types, w, h};
    compare_all(&wd, c, cap, "new", seed);
    CHECK(astar_clearance_current(c, g));
    CHECK(astar_clearance_max_size(c) == cap);
    CHECK(astar_clearance_type(c, w - 1, h - 1) == types[w * h - 1]);
    CHECK(astar_clearance_memory(c) >= (size_t)(w * h) * 4);
    astar_clearance_free(c);
    astar_grid_free(g);
  }
  /* No types: one capability, ALL, the grid's passability alone. */
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 6, 5, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 3, 2, false);
  astar_clearance *c = NULL;
  CHECK(astar_clearance_new(&c, g, NULL, NULL, 0, 255, NULL) == ASTAR_OK);
  CHECK(astar_clearance_at(c, 0, 0, ASTAR_CAPABILITY_ALL) == 3);
  CHECK(astar_clearance_at(c, 0, 3, ASTAR_CAPABILITY_ALL) == 2);
  CHECK(astar_clearance_at(c, 4, 0, ASTAR_CAPABILITY_ALL) == 2);
  CHECK(astar_clearance_at(c, 5, 4, ASTAR_CAPABILITY_ALL) == 1);
  CHECK(astar_clearance_at(c, 3, 2, ASTAR_CAPABILITY_ALL) == 0);
  CHECK(astar_clearance_at(c, -1, 0, ASTAR_CAPABILITY_ALL) == 0);
  CHECK(astar_clearance_at(c, 0, 0, ASTAR_CAPABILITY_WALKER) == -1);
  CHECK(astar_clearance_fits(c, 0, 0, 3, ASTAR_CAPABILITY_ALL));
  CHECK(!astar_clearance_fits(c, 0, 0, 4, ASTAR_CAPABILITY_ALL));
  astar_clearance_free(c);
  astar_grid_free(g);
}

static const astar_corner CORNERS[4] = {ASTAR_CORNER_NO_CUT, ASTAR_CORNER_ALWAYS,
                                        ASTAR_CORNER_ONE_SIDE, ASTAR_CORNER_NEVER};

/* A random anchor where a k-unit of m fits (half the time), else any cell. */
static astar_point pick(const world *wd, rng *r, int32_t k, astar_capability m) {
  for (int tries = 0; tries < 40; tries++) {
    const astar_point p = P(rng_range(r, 0, wd->w - 1), rng_range(r, 0, wd->h - 1));
    if (fits_bf(wd, p.x, p.y, k, m) || tries == 39) return p;
  }
  return P(0, 0);
}

static void test_searches_vs_reference(void) {
  long solved = 0, total = 0;
  for (uint64_t seed = 1; seed <= 90; seed++) {
    rng r;
    rng_seed(&r, seed * 104729);
    const int32_t w = rng_range(&r, 4, 18), h = rng_range(&r, 4, 18);
    uint8_t types[18 * 18];
    const int terrain = seed % 3 == 0;
    astar_grid *g = random_world(&r, w, h, rng_unit(&r) * 0.2, terrain, types);
    CHECK(g != NULL);
    if (!g) continue;
    const world wd = {g, types, w, h};
    astar_clearance *c = NULL;
    astar_grid *scratch = NULL;
    astar_workspace *ws = NULL;
    CHECK(astar_clearance_new(&c, g, types, CAPS, 3, MAXK, NULL) == ASTAR_OK);
    CHECK(astar_grid_new(&scratch, w, h, NULL) == ASTAR_OK);
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_point path[18 * 18];
    for (int q = 0; q < 24; q++) {
      astar_options o;
      astar_options_init(&o);
      o.moves = rng_range(&r, 0, 3) ? 8 : 4;
      o.corner = CORNERS[rng_range(&r, 0, 3)];
      if (rng_range(&r, 0, 2) == 0) o.diagonal_cost = 1.5;
      const bool jps =
          !terrain && o.moves == 8 && o.corner == ASTAR_CORNER_NO_CUT && rng_range(&r, 0, 1);
      if (jps) o.algorithm = ASTAR_ALGO_JPS;
      const int32_t k = rng_range(&r, 1, MAXK);
      const astar_capability m = CAPS[rng_range(&r, 0, 2)];
      const astar_point s = pick(&wd, &r, k, m), t = pick(&wd, &r, k, m);
      const double want = ref_unit(&wd, &o, k, m, s, t);
      astar_result res;
      const astar_status st = astar_clearance_find_path(ws, c, g, scratch, &o, k, m, s, t, path,
                                                        sizeof path / sizeof *path, &res);
      total++;
      if (want < 0) {
        if (st == ASTAR_OK)
          FAILF("seed %llu q %d: k %d found a path (%g) the reference says does not exist",
                (unsigned long long)seed, q, (int)k, res.cost);
        else if (st != ASTAR_NO_PATH && st != ASTAR_START_BLOCKED && st != ASTAR_GOAL_BLOCKED)
          FAILF("seed %llu q %d: status %s", (unsigned long long)seed, q, astar_strerror(st));
        if (!fits_bf(&wd, s.x, s.y, k, m) && st != ASTAR_START_BLOCKED)
          FAILF("seed %llu q %d: start does not fit, got %s", (unsigned long long)seed, q,
                astar_strerror(st));
        continue;
      }
      if (st != ASTAR_OK) {
        FAILF("seed %llu q %d: k %d %s, reference cost %g", (unsigned long long)seed, q, (int)k,
              astar_strerror(st), want);
        continue;
      }
      solved++;
      if (!cost_equal(res.cost, want))
        FAILF("seed %llu q %d (k %d %s): cost %.9g, reference %.9g", (unsigned long long)seed, q,
              (int)k, jps ? "jps" : "astar", res.cost, want);
      double walked = -1, checked = -1;
      size_t bad = 0;
      if (!walk_bf(&wd, &o, k, m, path, res.length, &walked, &bad))
        FAILF("seed %llu q %d: path leaves the unit's room at step %zu", (unsigned long long)seed,
              q, bad);
      else if (!cost_equal(walked, res.cost))
        FAILF("seed %llu q %d: walked cost %g, reported %g", (unsigned long long)seed, q, walked,
              res.cost);
      CHECK(path[0].x == s.x && path[0].y == s.y);
      CHECK(path[res.length - 1].x == t.x && path[res.length - 1].y == t.y);
      CHECK(astar_clearance_path_cost(c, g, &o, k, m, path, res.length, &checked, NULL) ==
            ASTAR_OK);
      CHECK(cost_equal(checked, res.cost));
    }
    astar_workspace_free(ws);
    astar_grid_free(scratch);
    astar_clearance_free(c);
    astar_grid_free(g);
  }
  CHECKF(solved > total / 4, "only %ld of %ld queries solvable: the test checks too little", solved,
         total);
}

/* Random walks (mostly legal steps, some jumps): the library's verdict and
** first bad index equal the brute-force walker's; costs equal. */
static void test_path_check_vs_brute_force(void) {
  long accepted = 0, rejected = 0;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    rng r;
    rng_seed(&r, seed * 15485863);
    const int32_t w = rng_range(&r, 3, 14), h = rng_range(&r, 3, 14);
    uint8_t types[14 * 14];
    astar_grid *g = random_world(&r, w, h, rng_unit(&r) * 0.15, (int)(seed % 2), types);
    if (!g) continue;
    const world wd = {g, types, w, h};
    astar_clearance *c = NULL;
    CHECK(astar_clearance_new(&c, g, types, CAPS, 3, MAXK, NULL) == ASTAR_OK);
    for (int q = 0; q < 60; q++) {
      astar_options o;
      astar_options_init(&o);
      o.moves = rng_range(&r, 0, 3) ? 8 : 4;
      o.corner = CORNERS[rng_range(&r, 0, 3)];
      o.turn_penalty = rng_range(&r, 0, 1) ? 0.25 : 0.0;
      const int32_t k = rng_range(&r, 1, 3);
      const astar_capability m = CAPS[rng_range(&r, 0, 2)];
      astar_point path[12];
      const size_t n = (size_t)rng_range(&r, 1, 12);
      path[0] = pick(&wd, &r, k, m);
      for (size_t i = 1; i < n; i++) {
        if (rng_range(&r, 0, 20) == 0) {
          path[i] = P(rng_range(&r, -1, w), rng_range(&r, -1, h));
        } else {
          path[i] = P(path[i - 1].x + rng_range(&r, -1, 1), path[i - 1].y + rng_range(&r, -1, 1));
        }
      }
      double want = 0, got = 0;
      size_t wbad = 0, gbad = 99;
      int ok = walk_bf(&wd, &o, k, m, path, n, &want, &wbad);
      /* Turn penalties, as astar_path_cost charges them. */
      if (ok)
        for (size_t i = 2; i < n; i++)
          if (path[i].x - path[i - 1].x != path[i - 1].x - path[i - 2].x ||
              path[i].y - path[i - 1].y != path[i - 1].y - path[i - 2].y)
            want += o.turn_penalty;
      const astar_status st = astar_clearance_path_cost(c, g, &o, k, m, path, n, &got, &gbad);
      if (ok) {
        accepted++;
        if (st != ASTAR_OK || !cost_equal(got, want))
          FAILF("seed %llu q %d: %s cost %g, brute force accepts with %g", (unsigned long long)seed,
                q, astar_strerror(st), got, want);
      } else {
        rejected++;
        if (st != ASTAR_INVALID_ARGUMENT || gbad != wbad)
          FAILF("seed %llu q %d: %s at %zu, brute force rejects at %zu", (unsigned long long)seed,
                q, astar_strerror(st), gbad, wbad);
      }
    }
    astar_clearance_free(c);
    astar_grid_free(g);
  }
  CHECK(accepted > 100);
  CHECK(rejected > 100);
}

/* Size 1 and capability ALL without types is the ordinary search, exactly:
** same path, cost and statistics. */
static void test_size_one_is_plain_search(void) {
  for (uint64_t seed = 1; seed <= 40; seed++) {
    rng r;
    rng_seed(&r, seed * 2654435761u);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 1);
    astar_grid *g = NULL, *scratch = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    astar_clearance *c = NULL;
    astar_workspace *ws = NULL;
    CHECK(astar_clearance_new(&c, g, NULL, NULL, 0, 8, NULL) == ASTAR_OK);
    CHECK(astar_grid_new(&scratch, spec.width, spec.height, NULL) == ASTAR_OK);
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    static astar_point p1[1600], p2[1600];
    for (int q = 0; q < 10; q++) {
      astar_options o;
      astar_options_init(&o);
      o.corner = CORNERS[q % 4];
      if (q % 5 == 4) o.moves = 4;
      const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_result r1, r2;
      const astar_status s1 = astar_find_path(ws, g, &o, s, t, p1, 1600, &r1);
      const astar_status s2 = astar_clearance_find_path(ws, c, g, scratch, &o, 1,
                                                        ASTAR_CAPABILITY_ALL, s, t, p2, 1600, &r2);
      CHECK_EQ(s1, s2);
      CHECK(r1.cost == r2.cost);
      CHECK_EQ(r1.length, r2.length);
      CHECK_EQ(r1.stats.expanded, r2.stats.expanded);
      if (s1 == ASTAR_OK && r1.length == r2.length)
        CHECK(memcmp(p1, p2, r1.length * sizeof *p1) == 0);
    }
    astar_workspace_free(ws);
    astar_grid_free(scratch);
    astar_clearance_free(c);
    astar_grid_free(g);
  }
}

static void test_edits_and_updates(void) {
  for (uint64_t seed = 1; seed <= 120; seed++) {
    rng r;
    rng_seed(&r, seed * 998244353u);
    const int32_t w = rng_range(&r, 2, 24), h = rng_range(&r, 2, 24);
    uint8_t types[24 * 24];
    astar_grid *g = random_world(&r, w, h, 0.15, 0, types);
    if (!g) continue;
    const int32_t cap = seed % 4 == 0 ? ASTAR_CLEARANCE_MAX : rng_range(&r, 1, 7);
    astar_clearance *c = NULL;
    CHECK(astar_clearance_new(&c, g, types, CAPS, 3, cap, NULL) == ASTAR_OK);
    for (int round = 0; round < 8; round++) {
      astar_point changed[6];
      const size_t n = (size_t)rng_range(&r, 1, 6);
      const uint64_t v0 = astar_grid_version(g);
      for (size_t i = 0; i < n; i++) {
        changed[i] = P(rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1));
        astar_grid_set_passable(g, changed[i].x, changed[i].y,
                                !astar_grid_passable(g, changed[i].x, changed[i].y));
      }
      CHECK(astar_grid_version(g) != v0);
      CHECK(!astar_clearance_current(c, g));
      /* A stale object refuses to be used. */
      astar_grid *out = NULL;
      CHECK(astar_grid_new(&out, w, h, NULL) == ASTAR_OK);
      CHECK(astar_clearance_fill_grid(c, g, 1, CAPS[0], out) == ASTAR_STALE);
      CHECK(astar_clearance_set_type(c, g, 0, 0, 1) == ASTAR_STALE);
      astar_point one = P(0, 0);
      CHECK(astar_clearance_path_cost(c, g, NULL, 1, CAPS[0], &one, 1, NULL, NULL) == ASTAR_STALE);
      astar_grid_free(out);
      if (round % 3 == 2)
        CHECK(astar_clearance_update(c, g) == ASTAR_OK);
      else
        CHECK(astar_clearance_update_cells(c, g, changed, n) == ASTAR_OK);
      CHECK(astar_clearance_current(c, g));
      const world wd = {g, types, w, h};
      if (!compare_all(&wd, c, cap, "update", seed)) break;
      /* Type changes go through the object (its copy of the types). */
      const int32_t x = rng_range(&r, 0, w - 1), y = rng_range(&r, 0, h - 1);
      const uint8_t t = (uint8_t)rng_range(&r, 0, 4);
      CHECK(astar_clearance_set_type(c, g, x, y, t) == ASTAR_OK);
      types[y * w + x] = t;
      CHECK(astar_clearance_type(c, x, y) == t);
      if (!compare_all(&wd, c, cap, "set_type", seed)) break;
    }
    astar_clearance_free(c);
    astar_grid_free(g);
  }
}

/* The derived grid's terrain is the footprint's largest factor; its
** smallest factor is what the heuristic uses. */
static void test_derived_terrain(void) {
  rng r;
  rng_seed(&r, 4242);
  uint8_t types[20 * 16];
  astar_grid *g = random_world(&r, 20, 16, 0.1, 1, types), *out = NULL;
  CHECK(g != NULL);
  CHECK(astar_grid_new(&out, 20, 16, NULL) == ASTAR_OK);
  astar_clearance *c = NULL;
  CHECK(astar_clearance_new(&c, g, types, CAPS, 3, 5, NULL) == ASTAR_OK);
  const world wd = {g, types, 20, 16};
  for (int32_t k = 1; k <= 5; k++) {
    CHECK(astar_clearance_fill_grid(c, g, k, CAPS[2], out) == ASTAR_OK);
    float mn = INFINITY;
    for (int32_t y = 0; y < 16; y++)
      for (int32_t x = 0; x < 20; x++) {
        CHECK(astar_grid_passable(out, x, y) == fits_bf(&wd, x, y, k, CAPS[2]));
        const int32_t kx = x + k <= 20 ? k : 20 - x, ky = y + k <= 16 ? k : 16 - y;
        double want = 0;
        for (int32_t j = 0; j < ky; j++)
          for (int32_t i = 0; i < kx; i++)
            if (astar_grid_terrain(g, x + i, y + j) > want)
              want = astar_grid_terrain(g, x + i, y + j);
        CHECK(astar_grid_terrain(out, x, y) == (float)want);
        if ((float)want < mn) mn = (float)want;
      }
    CHECK(astar_grid_min_terrain(out) == mn);
  }
  /* A grid without terrain clears out's layer. */
  astar_grid_clear_terrain(g);
  CHECK(astar_clearance_update(c, g) == ASTAR_OK);
  CHECK(astar_clearance_fill_grid(c, g, 2, CAPS[0], out) == ASTAR_OK);
  CHECK(!astar_grid_has_terrain(out));
  astar_clearance_free(c);
  astar_grid_free(out);
  astar_grid_free(g);
}

static void test_allocation_failure(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 9, 7, NULL) == ASTAR_OK);
  uint8_t types[63] = {0};
  types[10] = ASTAR_TYPE_WATER;
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  astar_clearance *c = NULL;
  CHECK(astar_clearance_new(&c, g, types, CAPS, 2, 4, &al) == ASTAR_OK);
  const long needed = fa.requests;
  CHECK(needed >= 1);
  astar_clearance_free(c);
  CHECK(fa.blocks == 0);
  for (long k = 1; k <= needed; k++) {
    failalloc_init(&fa);
    fa.fail_at = k;
    c = (astar_clearance *)&fa; /* must be reset to NULL */
    CHECK(astar_clearance_new(&c, g, types, CAPS, 2, 4, &al) == ASTAR_NO_MEMORY);
    CHECK(c == NULL);
    CHECK(fa.blocks == 0);
    CHECK(fa.osize_mismatches == 0);
  }
  /* fill_grid: out's terrain layer is its one allocation. */
  astar_grid_set_terrain(g, 2, 2, 3.0f);
  CHECK(astar_clearance_new(&c, g, types, CAPS, 2, 4, NULL) == ASTAR_OK);
  failalloc_init(&fa);
  astar_grid *out = NULL;
  CHECK(astar_grid_new(&out, 9, 7, &al) == ASTAR_OK);
  const long before = fa.requests;
  fa.fail_at = before + 1;
  CHECK(astar_clearance_fill_grid(c, g, 2, CAPS[0], out) == ASTAR_NO_MEMORY);
  CHECK(astar_grid_count_passable(out) == 0);
  CHECK(astar_clearance_fill_grid(c, g, 2, CAPS[0], out) == ASTAR_OK);
  CHECK(astar_grid_has_terrain(out));
  CHECK(astar_grid_terrain(out, 1, 1) == 3.0f);
  astar_grid_free(out);
  CHECK(fa.blocks == 0);
  CHECK(fa.osize_mismatches == 0);
  astar_clearance_free(c);
  astar_grid_free(g);
}

static void test_types_parse(void) {
  const char mai[] = "type octile\nheight 3\nwidth 5\nmap\n.GSWT\n@O...\n..WW.\n";
  astar_grid *g = NULL;
  CHECK(astar_movingai_parse_map(&g, mai, sizeof mai - 1, NULL, NULL) == ASTAR_OK);
  uint8_t t[15];
  CHECK(astar_terrain_types_parse(mai, sizeof mai - 1, g, t, 14) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_terrain_types_parse(mai, sizeof mai - 1, g, t, 15) == ASTAR_OK);
  const uint8_t want[15] = {0, 0, 1, 2, 3, 4, 4, 0, 0, 0, 0, 0, 2, 2, 0};
  CHECK(memcmp(t, want, 15) == 0);
  /* The loader blocks W and T; a boat's cells are opened on request. */
  CHECK(!astar_grid_passable(g, 3, 0));
  CHECK(astar_terrain_open(g, t, ASTAR_CAPABILITY(ASTAR_TYPE_WATER)) == ASTAR_OK);
  CHECK(astar_grid_passable(g, 3, 0) && astar_grid_passable(g, 2, 2));
  CHECK(!astar_grid_passable(g, 4, 0) && !astar_grid_passable(g, 0, 1));
  CHECK(astar_terrain_types_parse(mai, 30, g, t, 15) == ASTAR_MISMATCH);
  astar_grid_free(g);

  const char ascii[] = "; comment\n\n.S#\n; inside\nWTG\r\n";
  CHECK(astar_parse_map(&g, ascii, sizeof ascii - 1, NULL, NULL, NULL, NULL) == ASTAR_OK);
  CHECK(astar_grid_width(g) == 3 && astar_grid_height(g) == 2);
  CHECK(astar_terrain_types_parse(ascii, sizeof ascii - 1, g, t, 15) == ASTAR_OK);
  const uint8_t want2[6] = {0, 0, 4, 2, 3, 0};
  CHECK(memcmp(t, want2, 6) == 0);
  CHECK(astar_terrain_types_parse(NULL, 0, g, t, 15) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_terrain_open(NULL, t, 1) == ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g);
}

static void test_bad_arguments(void) {
  astar_grid *g = NULL, *other = NULL, *out = NULL;
  CHECK(astar_grid_new(&g, 6, 6, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&other, 7, 6, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&out, 6, 6, NULL) == ASTAR_OK);
  astar_clearance *c = (astar_clearance *)g;
  const astar_capability dup[2] = {1, 1};
  uint8_t bad_types[36] = {0};
  bad_types[5] = ASTAR_TERRAIN_TYPES;
  CHECK(astar_clearance_new(NULL, g, NULL, NULL, 0, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, NULL, NULL, NULL, 0, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(c == NULL);
  CHECK(astar_clearance_new(&c, g, NULL, NULL, 0, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, g, NULL, NULL, 0, 256, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, g, NULL, dup, 2, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, g, NULL, CAPS, 0, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, g, NULL, CAPS, 9, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, g, bad_types, CAPS, 1, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_new(&c, g, NULL, CAPS, 3, 4, NULL) == ASTAR_OK);
  astar_clearance_free(NULL);

  CHECK(astar_clearance_update(NULL, g) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_update(c, other) == ASTAR_MISMATCH);
  CHECK(astar_clearance_update_cells(c, g, NULL, 1) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_update_cells(c, other, NULL, 0) == ASTAR_MISMATCH);
  const astar_point outside = P(6, 0);
  CHECK(astar_clearance_update_cells(c, g, &outside, 1) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_clearance_update_cells(c, g, NULL, 0) == ASTAR_OK);
  CHECK(astar_clearance_set_type(c, g, 6, 0, 1) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_clearance_set_type(c, g, 0, 0, ASTAR_TERRAIN_TYPES) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_set_type(c, other, 0, 0, 1) == ASTAR_MISMATCH);
  CHECK(!astar_clearance_current(c, other));
  CHECK(!astar_clearance_current(NULL, g));
  CHECK(astar_clearance_at(NULL, 0, 0, CAPS[0]) == -1);
  CHECK(!astar_clearance_fits(c, 0, 0, 0, CAPS[0]));
  CHECK(!astar_clearance_fits(c, 0, 0, 5, CAPS[0]));
  CHECK(astar_clearance_memory(NULL) == 0);
  CHECK(astar_clearance_max_size(NULL) == 0);

  CHECK(astar_clearance_fill_grid(c, g, 1, CAPS[0], NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_fill_grid(c, g, 1, CAPS[0], g) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_fill_grid(c, g, 0, CAPS[0], out) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_fill_grid(c, g, 5, CAPS[0], out) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_fill_grid(c, g, 1, 12345, out) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_fill_grid(NULL, g, 1, CAPS[0], out) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_fill_grid(c, other, 1, CAPS[0], out) == ASTAR_MISMATCH);
  CHECK(astar_clearance_fill_grid(c, g, 1, CAPS[0], other) == ASTAR_MISMATCH);

  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point path[64];
  astar_result res;
  CHECK(astar_clearance_find_path(ws, c, g, out, NULL, 9, CAPS[0], P(0, 0), P(5, 5), path, 64,
                                  &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(res.length == 0 && res.end.x == -1);
  /* A 4 x 4 unit fits with its anchor at (2, 2) but not at (3, 3). */
  CHECK(astar_clearance_find_path(ws, c, g, out, NULL, 4, CAPS[0], P(0, 0), P(3, 3), path, 64,
                                  &res) == ASTAR_GOAL_BLOCKED);
  CHECK(astar_clearance_find_path(ws, c, g, out, NULL, 4, CAPS[0], P(0, 0), P(2, 2), path, 64,
                                  &res) == ASTAR_OK);
  CHECK(res.length == 3);
  double cost;
  size_t bad = 7;
  CHECK(astar_clearance_path_cost(c, g, NULL, 4, CAPS[0], path, 0, &cost, &bad) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_path_cost(c, g, NULL, 4, CAPS[0], NULL, 1, &cost, &bad) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_clearance_path_cost(c, other, NULL, 4, CAPS[0], path, 3, &cost, &bad) ==
        ASTAR_MISMATCH);
  const astar_point jump[2] = {P(0, 0), P(2, 0)};
  CHECK(astar_clearance_path_cost(c, g, NULL, 2, CAPS[0], jump, 2, &cost, &bad) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(bad == 1);
  astar_options o;
  astar_options_init(&o);
  o.moves = 5;
  CHECK(astar_clearance_path_cost(c, g, &o, 2, CAPS[0], jump, 1, &cost, &bad) ==
        ASTAR_INVALID_ARGUMENT);
  astar_workspace_free(ws);
  astar_clearance_free(c);
  astar_grid_free(out);
  astar_grid_free(other);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_values_vs_brute_force);
  RUN(test_searches_vs_reference);
  RUN(test_path_check_vs_brute_force);
  RUN(test_size_one_is_plain_search);
  RUN(test_edits_and_updates);
  RUN(test_derived_terrain);
  RUN(test_allocation_failure);
  RUN(test_types_parse);
  RUN(test_bad_arguments);
  return check_summary();
}
