/*
** test_jps_plus.c -- JPS+ (astar/jps_plus.h): optimal costs equal to A*
** and to a reference Dijkstra on thousands of seeded maps, valid paths
** (no corner cut), the edge cases of a search, every UNSUPPORTED rule, stale
** grids, the byte format (round trip, truncation, damage, another grid) and
** allocation failure in _new and _load.
*/
#include <astar/astar.h>
#include <astar/islands.h>
#include <astar/jps_plus.h>
#include <astar/knowledge.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})

/* Everything one map needs: grid, precomputation, workspace, path buffer. */
typedef struct rig {
  astar_grid *g;
  astar_jps_plus *pre;
  astar_workspace *ws;
  astar_point *path;
  size_t cap;
} rig;

static int rig_init(rig *r, astar_grid *g) {
  memset(r, 0, sizeof *r);
  r->g = g;
  r->cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
  r->path = malloc(r->cap * sizeof *r->path);
  if (!r->path || astar_jps_plus_new(&r->pre, g, NULL) != ASTAR_OK ||
      astar_workspace_new(&r->ws, g, NULL) != ASTAR_OK) {
    CHECK(0);
    return 0;
  }
  return 1;
}

static uint8_t *save_all(const astar_jps_plus *pre, size_t *len);

static void rig_free(rig *r) {
  astar_jps_plus_free(r->pre);
  astar_workspace_free(r->ws);
  astar_grid_free(r->g);
  free(r->path);
}

/* One query on both searches: same status, same cost, a valid path;
** `weight` bounds the JPS+ cost by weight * optimal. Returns 1 if fine. */
static int compare_one(rig *r, const astar_options *o, astar_point s, astar_point t, double weight,
                       const char *what, uint64_t seed) {
  astar_result ra, rj;
  astar_options oa = *o;
  oa.weight = 1.0;
  astar_status sa = astar_find_path(r->ws, r->g, &oa, s, t, NULL, 0, &ra);
  astar_status sj = astar_jps_plus_find_path(r->ws, r->pre, r->g, o, s, t, r->path, r->cap, &rj);
  if (sa == ASTAR_BUFFER_TOO_SMALL) sa = ASTAR_OK;
  CHECKF(sa == sj, "%s seed %llu (%d,%d)->(%d,%d): A* %s, JPS+ %s", what, (unsigned long long)seed,
         s.x, s.y, t.x, t.y, astar_strerror(sa), astar_strerror(sj));
  if (sa != sj || sj != ASTAR_OK) return sa == sj;
  int ok = 1;
  if (weight == 1.0) {
    CHECKF(cost_equal(ra.cost, rj.cost), "%s seed %llu (%d,%d)->(%d,%d): A* %.9f JPS+ %.9f", what,
           (unsigned long long)seed, s.x, s.y, t.x, t.y, ra.cost, rj.cost);
    ok = cost_equal(ra.cost, rj.cost);
  } else {
    CHECKF(rj.cost <= weight * ra.cost * (1 + 1e-9) + 1e-9, "%s seed %llu: %.9f > %g * %.9f", what,
           (unsigned long long)seed, rj.cost, weight, ra.cost);
  }
  char err[200];
  int valid = validate_path(r->g, o, s, t, r->path, rj.length, rj.cost, err, sizeof err);
  CHECKF(valid, "%s seed %llu (%d,%d)->(%d,%d): %s", what, (unsigned long long)seed, s.x, s.y, t.x,
         t.y, err);
  /* The workspace keeps the same path for astar_workspace_path. */
  size_t len = 0;
  CHECK(astar_workspace_path(r->ws, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(len == rj.length);
  return ok && valid;
}

/* Random maps of every shape: costs equal to A*'s for random endpoints. */
static void test_random_maps(void) {
  astar_options o;
  astar_options_init(&o);
  int failures = 0;
  for (uint64_t seed = 1; seed <= 3000 && failures < 5; seed++) {
    rng rr;
    rng_seed(&rr, seed * 7919);
    randmap_spec sp;
    randmap_random_spec(&sp, &rr, seed % 5 == 0 ? 150 : 70, 0);
    astar_grid *g;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      break;
    }
    for (int k = 0; k < 12; k++) {
      astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
      if (s.x < 0) break;
      if (!compare_one(&r, &o, s, t, 1.0, "random", seed)) failures++;
    }
    rig_free(&r);
  }
  CHECK(failures == 0);
}

/* The reference Dijkstra on a smaller sample (independent of the library). */
static void test_against_dijkstra(void) {
  astar_options o;
  astar_options_init(&o);
  int failures = 0;
  for (uint64_t seed = 1; seed <= 400 && failures < 5; seed++) {
    rng rr;
    rng_seed(&rr, seed * 104729);
    randmap_spec sp = {rng_range(&rr, 1, 80), rng_range(&rr, 1, 80), rng_unit(&rr) * 0.45, 0, 1, 1};
    astar_grid *g;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      break;
    }
    for (int k = 0; k < 5; k++) {
      astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
      if (s.x < 0) break;
      double ref = ref_dijkstra(g, &o, s, t);
      astar_result res;
      astar_status st = astar_jps_plus_find_path(r.ws, r.pre, g, &o, s, t, r.path, r.cap, &res);
      if (ref < 0) {
        CHECKF(st == ASTAR_NO_PATH, "seed %llu: %s", (unsigned long long)seed, astar_strerror(st));
        failures += st != ASTAR_NO_PATH;
      } else {
        CHECKF(st == ASTAR_OK && cost_equal(res.cost, ref), "seed %llu: %s %.9f vs %.9f",
               (unsigned long long)seed, astar_strerror(st), res.cost, ref);
        failures += !(st == ASTAR_OK && cost_equal(res.cost, ref));
      }
    }
    rig_free(&r);
  }
  CHECK(failures == 0);
}

/* Structured maps: corridors (long rays, forced neighbours at every door),
** open fields (one long jump), rooms, and diagonal-only squeezes. */
static astar_grid *make_structured(int kind, int32_t w, int32_t h, rng *rr) {
  astar_grid *g;
  if (astar_grid_new(&g, w, h, NULL) != ASTAR_OK) return NULL;
  switch (kind) {
  case 0: /* open field with a few blocks */
    for (int i = 0; i < (w * h) / 200; i++)
      astar_grid_set_passable(g, rng_range(rr, 0, w - 1), rng_range(rr, 0, h - 1), false);
    break;
  case 1: /* horizontal walls every 3 rows with random doors */
    for (int32_t y = 2; y < h; y += 3)
      for (int32_t x = 0; x < w; x++)
        if (rng_unit(rr) > 0.08) astar_grid_set_passable(g, x, y, false);
    break;
  case 2: /* vertical corridors of width 1..3 */
    for (int32_t x = 0; x < w; x += rng_range(rr, 2, 4)) {
      int32_t door = rng_range(rr, 0, h - 1);
      for (int32_t y = 0; y < h; y++)
        if (y != door) astar_grid_set_passable(g, x, y, false);
    }
    break;
  case 3: /* rooms: a lattice of walls with one gap per wall segment */
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if ((x % 8 == 7 && (y % 8) != 3) || (y % 8 == 7 && (x % 8) != 4))
          astar_grid_set_passable(g, x, y, false);
    break;
  default: /* checkerboard pockets: many diagonal squeezes (illegal moves) */
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if (((x + y) % 2 == 0) && rng_unit(rr) < 0.4) astar_grid_set_passable(g, x, y, false);
    break;
  }
  return g;
}

static void test_structured_maps(void) {
  astar_options o;
  astar_options_init(&o);
  int failures = 0;
  for (uint64_t seed = 1; seed <= 300 && failures < 5; seed++) {
    rng rr;
    rng_seed(&rr, seed);
    int kind = (int)(seed % 5);
    astar_grid *g = make_structured(kind, rng_range(&rr, 2, 200), rng_range(&rr, 2, 120), &rr);
    if (!g) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      break;
    }
    for (int k = 0; k < 10; k++) {
      astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
      if (s.x < 0) break;
      if (!compare_one(&r, &o, s, t, 1.0, "structured", seed)) failures++;
    }
    rig_free(&r);
  }
  CHECK(failures == 0);
}

/* Other costs (straight <= diagonal < 2 straight), tie orders and weights. */
static void test_option_variants(void) {
  static const double costs[][2] = {{1, 1}, {1, 1.5}, {10, 14}, {2, 3.9}, {1, 1.41421356}};
  static const astar_tie ties[] = {ASTAR_TIE_LARGER_G, ASTAR_TIE_NEWEST, ASTAR_TIE_CROSS};
  int failures = 0;
  for (uint64_t seed = 1; seed <= 600 && failures < 5; seed++) {
    rng rr;
    rng_seed(&rr, seed * 31337);
    randmap_spec sp;
    randmap_random_spec(&sp, &rr, 90, 0);
    astar_grid *g;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      break;
    }
    astar_options o;
    astar_options_init(&o);
    o.straight_cost = costs[seed % 5][0];
    o.diagonal_cost = costs[seed % 5][1];
    o.tie = ties[(seed / 5) % 3];
    o.heuristic = seed % 2 ? ASTAR_H_OCTILE : ASTAR_H_AUTO;
    o.reopen = seed % 3 ? ASTAR_REOPEN_AUTO : ASTAR_REOPEN_NEVER;
    double weight = (seed % 7 == 0) ? 1.5 : (seed % 11 == 0 ? 0.5 : 1.0);
    o.weight = weight;
    for (int k = 0; k < 8; k++) {
      astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
      if (s.x < 0) break;
      if (!compare_one(&r, &o, s, t, weight > 1 ? weight : 1.0, "variant", seed)) failures++;
    }
    rig_free(&r);
  }
  CHECK(failures == 0);
}

/* Every pair of cells on small maps: exhaustive, where corner cases live. */
static void test_all_pairs(void) {
  astar_options o;
  astar_options_init(&o);
  int failures = 0;
  for (uint64_t seed = 1; seed <= 60 && failures < 5; seed++) {
    rng rr;
    rng_seed(&rr, seed * 65537);
    randmap_spec sp = {
        rng_range(&rr, 1, 14), rng_range(&rr, 1, 14), 0.1 + 0.3 * rng_unit(&rr), 0, 1, 1};
    astar_grid *g;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      break;
    }
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    for (int32_t i = 0; i < w * h; i++)
      for (int32_t j = 0; j < w * h; j++) {
        astar_point s = P(i % w, i / w), t = P(j % w, j / w);
        if (!astar_grid_passable(g, s.x, s.y) || !astar_grid_passable(g, t.x, t.y)) continue;
        if (!compare_one(&r, &o, s, t, 1.0, "all pairs", seed)) failures++;
      }
    rig_free(&r);
  }
  CHECK(failures == 0);
}

/* A 12 x 5 map with a wall splitting off the right part. */
static astar_grid *small_map(void) {
  static const char *rows[] = {"......#.....", "......#.....", "..##..#.....", "......#.....",
                               "......#....."};
  astar_grid *g;
  if (astar_grid_new(&g, 12, 5, NULL) != ASTAR_OK) return NULL;
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 12; x++)
      if (rows[y][x] == '#') astar_grid_set_passable(g, x, y, false);
  return g;
}

static void test_edge_cases(void) {
  rig r;
  astar_grid *g = small_map();
  if (!g || !rig_init(&r, g)) return;
  astar_result res;
  astar_point buf[64];
  /* start == goal: one cell, cost 0, nothing expanded. */
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(1, 1), P(1, 1), buf, 64, &res) ==
        ASTAR_OK);
  CHECK(res.length == 1 && res.cost == 0 && res.stats.expanded == 0);
  CHECK(buf[0].x == 1 && buf[0].y == 1);
  /* Unreachable goal: NO_PATH after expanding the start side. */
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(10, 2), buf, 64, &res) ==
        ASTAR_NO_PATH);
  CHECK(res.length == 0 && res.cost == 0 && res.stats.expanded > 0);
  CHECK(res.end.x == -1 && res.end.y == -1 && res.cause == ASTAR_NO_PATH);
  CHECK(astar_workspace_path(r.ws, buf, 64, &res.length) == ASTAR_NO_PATH);
  /* Blocked and outside endpoints, start checked first. */
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(6, 0), P(7, 0), buf, 64, &res) ==
        ASTAR_START_BLOCKED);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(2, 2), buf, 64, &res) ==
        ASTAR_GOAL_BLOCKED);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(-1, 0), P(2, 2), buf, 64, &res) ==
        ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(12, 0), buf, 64, &res) ==
        ASTAR_OUT_OF_BOUNDS);
  /* Open field straight line: the start and the goal are the only jump
  ** points expanded (the goal is generated directly from the start). */
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 4), P(5, 4), buf, 64, &res) ==
        ASTAR_OK);
  CHECK(res.stats.expanded == 2 && res.length == 6 && res.cost == 5.0);
  CHECK(res.end.x == 5 && res.end.y == 4 && res.cause == ASTAR_OK);
  /* Diagonal then straight, the straight part free: the goal test
  ** generates the goal from the start itself -- start and goal expanded. */
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(3, 1), buf, 64, &res) ==
        ASTAR_OK);
  CHECK(res.stats.expanded == 2 && res.length == 4);
  /* A buffer too small reports the length; the workspace keeps the path. */
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), buf, 2, &res) ==
        ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length > 2);
  size_t len = 0;
  CHECK(astar_workspace_path(r.ws, buf, 64, &len) == ASTAR_OK && len == res.length);
  CHECK(len > 0 && buf[len - 1].x == 5 && buf[len - 1].y == 4);
  /* NULL arguments. */
  CHECK(astar_jps_plus_find_path(NULL, r.pre, g, NULL, P(0, 0), P(1, 1), buf, 64, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_jps_plus_find_path(r.ws, NULL, g, NULL, P(0, 0), P(1, 1), buf, 64, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, NULL, NULL, P(0, 0), P(1, 1), buf, 64, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(1, 1), NULL, 5, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(1, 1), NULL, 0, NULL) ==
        ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_jps_plus_new(NULL, g, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_jps_plus *p = (astar_jps_plus *)&r;
  CHECK(astar_jps_plus_new(&p, NULL, NULL) == ASTAR_INVALID_ARGUMENT && p == NULL);
  astar_jps_plus_free(NULL);
  CHECK(astar_jps_plus_memory(NULL) == 0);
  /* About 16 bytes per padded cell. */
  size_t mem = astar_jps_plus_memory(r.pre);
  CHECK(mem >= (size_t)14 * 7 * 16 && mem < (size_t)14 * 7 * 16 + 8192);
  rig_free(&r);
}

/* A long winding path and an expansion limit. */
static void test_limit(void) {
  rng rr;
  rng_seed(&rr, 5);
  astar_grid *g = make_structured(1, 60, 40, &rr);
  rig r;
  if (!g || !rig_init(&r, g)) return;
  astar_options o;
  astar_options_init(&o);
  astar_result full, res;
  astar_point s = P(0, 0), t = P(59, 39);
  astar_grid_set_passable(g, 0, 0, true);
  astar_grid_set_passable(g, 59, 39, true);
  astar_jps_plus_free(r.pre);
  CHECK(astar_jps_plus_new(&r.pre, g, NULL) == ASTAR_OK);
  astar_status st = astar_jps_plus_find_path(r.ws, r.pre, g, &o, s, t, r.path, r.cap, &full);
  CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
  CHECK(full.stats.expanded > 3);
  for (uint64_t lim = 1; lim < full.stats.expanded; lim++) {
    o.max_expansions = lim;
    CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, &o, s, t, r.path, r.cap, &res) ==
          ASTAR_LIMIT_REACHED);
    CHECK(res.stats.expanded == lim && res.length == 0);
  }
  o.max_expansions = full.stats.expanded;
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, &o, s, t, r.path, r.cap, &res) == st);
  CHECK(res.stats.expanded == full.stats.expanded && res.cost == full.cost);
  rig_free(&r);
}

static double my_h(void *ctx, astar_point c, astar_point g) {
  (void)ctx, (void)c, (void)g;
  return 0;
}

static void my_observer(void *ctx, const astar_event *e) {
  (void)ctx, (void)e;
}

static bool my_stop(void *ctx) {
  (void)ctx;
  return false;
}

static void test_unsupported(void) {
  rig r;
  astar_grid *g = small_map();
  if (!g || !rig_init(&r, g)) return;
  astar_options o;
  astar_result res;
  astar_point a = P(0, 0), b = P(5, 4);
#define EXPECT(field, value, status)                                                               \
  do {                                                                                             \
    astar_options_init(&o);                                                                        \
    o.field = value;                                                                               \
    CHECKF(astar_jps_plus_find_path(r.ws, r.pre, g, &o, a, b, r.path, r.cap, &res) == (status),    \
           "%s", #field " = " #value);                                                             \
  } while (0)
  EXPECT(moves, 4, ASTAR_UNSUPPORTED);
  EXPECT(corner, ASTAR_CORNER_ALWAYS, ASTAR_UNSUPPORTED);
  EXPECT(corner, ASTAR_CORNER_ONE_SIDE, ASTAR_UNSUPPORTED);
  EXPECT(corner, ASTAR_CORNER_NEVER, ASTAR_UNSUPPORTED);
  EXPECT(diagonal_cost, 0.9, ASTAR_UNSUPPORTED);
  EXPECT(diagonal_cost, 2.0, ASTAR_UNSUPPORTED);
  EXPECT(diagonal_cost, 3.0, ASTAR_UNSUPPORTED);
  EXPECT(straight_cost, 1.5, ASTAR_UNSUPPORTED); /* d = sqrt2 < s */
  EXPECT(heuristic, ASTAR_H_MANHATTAN, ASTAR_UNSUPPORTED);
  EXPECT(heuristic, ASTAR_H_CHEBYSHEV, ASTAR_UNSUPPORTED);
  EXPECT(heuristic, ASTAR_H_EUCLIDEAN, ASTAR_UNSUPPORTED);
  EXPECT(heuristic, ASTAR_H_ZERO, ASTAR_UNSUPPORTED);
  EXPECT(reopen, ASTAR_REOPEN_ALWAYS, ASTAR_UNSUPPORTED);
  EXPECT(partial, true, ASTAR_UNSUPPORTED);
  EXPECT(turn_penalty, 0.5, ASTAR_UNSUPPORTED);
  EXPECT(stop_fn, my_stop, ASTAR_UNSUPPORTED);
  EXPECT(terrain_scale, 0.5, ASTAR_UNSUPPORTED);
  /* Bad values are invalid, not unsupported. */
  EXPECT(moves, 6, ASTAR_INVALID_ARGUMENT);
  EXPECT(weight, -1.0, ASTAR_INVALID_ARGUMENT);
  EXPECT(straight_cost, 0.0, ASTAR_INVALID_ARGUMENT);
  EXPECT(heuristic, ASTAR_H_CALLBACK, ASTAR_INVALID_ARGUMENT); /* no function */
  /* Allowed: weights, other ties, reopen never, straight == diagonal, and
  ** algorithm / open_set are ignored. */
  EXPECT(weight, 2.0, ASTAR_OK);
  EXPECT(weight, 0.0, ASTAR_OK);
  EXPECT(tie, ASTAR_TIE_CROSS, ASTAR_OK);
  EXPECT(observer, my_observer, ASTAR_OK); /* sees the jump points (test_observer.c) */
  EXPECT(reopen, ASTAR_REOPEN_NEVER, ASTAR_OK);
  EXPECT(diagonal_cost, 1.0, ASTAR_OK);
  EXPECT(algorithm, ASTAR_ALGO_JPS, ASTAR_OK);
  EXPECT(open_set, ASTAR_OPEN_BUCKET, ASTAR_OK);
#undef EXPECT
  astar_options_init(&o);
  o.heuristic = ASTAR_H_CALLBACK;
  o.heuristic_fn = my_h;
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, &o, a, b, r.path, r.cap, &res) ==
        ASTAR_UNSUPPORTED);
  /* The general loop's features: fog of war, islands, influence layers. */
  astar_knowledge *kn = NULL;
  astar_islands *isl = NULL;
  astar_layer *lay = NULL;
  CHECK(astar_knowledge_new(&kn, g, NULL) == ASTAR_OK);
  CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK);
  CHECK(astar_layer_new(&lay, 12, 5, NULL) == ASTAR_OK);
  const astar_layer *layers[1] = {lay};
  const float lw[1] = {1.0f};
  astar_options_init(&o);
  o.knowledge = kn;
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, &o, a, b, r.path, r.cap, &res) ==
        ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  o.islands = isl;
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, &o, a, b, r.path, r.cap, &res) ==
        ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  o.layers = layers;
  o.layer_weights = lw;
  o.nlayers = 1;
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, &o, a, b, r.path, r.cap, &res) ==
        ASTAR_UNSUPPORTED);
  astar_knowledge_free(kn);
  astar_islands_free(isl);
  astar_layer_free(lay);
  /* A terrain layer: the precomputation refuses the grid. */
  astar_grid *tg;
  CHECK(astar_grid_clone(&tg, g, NULL) == ASTAR_OK);
  CHECK(astar_grid_set_terrain(tg, 1, 1, 2.0f) == ASTAR_OK);
  astar_jps_plus *tp = NULL;
  CHECK(astar_jps_plus_new(&tp, tg, NULL) == ASTAR_UNSUPPORTED && tp == NULL);
  size_t tlen;
  uint8_t *tbuf = save_all(r.pre, &tlen);
  CHECK(astar_jps_plus_load(&tp, tg, tbuf, tlen, NULL) == ASTAR_UNSUPPORTED && tp == NULL);
  free(tbuf);
  astar_grid_free(tg);
  /* A workspace too small for the grid. */
  astar_grid *tiny;
  astar_workspace *tws;
  CHECK(astar_grid_new(&tiny, 2, 2, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&tws, tiny, NULL) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(tws, r.pre, g, NULL, a, b, r.path, r.cap, &res) == ASTAR_CAPACITY);
  astar_workspace_free(tws);
  astar_grid_free(tiny);
  rig_free(&r);
}

/* Changing the grid after building makes the precomputation stale. */
static void test_stale(void) {
  rig r;
  astar_grid *g = small_map();
  if (!g || !rig_init(&r, g)) return;
  astar_result res;
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_BUFFER_TOO_SMALL);
  /* The same cells in another grid object: not the grid it was built for. */
  astar_grid *copy;
  CHECK(astar_grid_clone(&copy, g, NULL) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, copy, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_MISMATCH);
  astar_grid_free(copy);
  /* Setting a cell to what it already is changes nothing. */
  CHECK(astar_grid_set_passable(g, 0, 0, true) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_grid_set_passable(g, 3, 3, false) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_STALE);
  /* Even when the cell is set back: the version moved on. */
  CHECK(astar_grid_set_passable(g, 3, 3, true) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_STALE);
  /* A terrain layer also changes the version. */
  astar_jps_plus_free(r.pre);
  CHECK(astar_jps_plus_new(&r.pre, g, NULL) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_grid_set_terrain(g, 4, 4, 3.0f) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_STALE);
  /* Rebuilt after the change (and the terrain removed): fine again. */
  astar_grid_clear_terrain(g);
  astar_grid_set_passable(g, 1, 3, false);
  astar_jps_plus_free(r.pre);
  CHECK(astar_jps_plus_new(&r.pre, g, NULL) == ASTAR_OK);
  CHECK(astar_jps_plus_find_path(r.ws, r.pre, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
        ASTAR_BUFFER_TOO_SMALL);
  rig_free(&r);
}

/* Serialise pre into a malloc'd buffer. */
static uint8_t *save_all(const astar_jps_plus *pre, size_t *len) {
  CHECK(astar_jps_plus_save(pre, NULL, 0, len) == ASTAR_BUFFER_TOO_SMALL);
  /* Callers read and patch the 40-byte header. */
  CHECKF(*len >= 40, "saved size %zu", *len);
  uint8_t *buf = *len >= 40 ? malloc(*len) : NULL;
  if (!buf) return NULL;
  size_t n = 0;
  CHECK(astar_jps_plus_save(pre, buf, *len - 1, &n) == ASTAR_BUFFER_TOO_SMALL && n == *len);
  CHECK(astar_jps_plus_save(pre, buf, *len, &n) == ASTAR_OK && n == *len);
  return buf;
}

/* Identical results from the built and the loaded precomputation. */
static void test_round_trip(void) {
  int failures = 0;
  for (uint64_t seed = 1; seed <= 60 && failures < 3; seed++) {
    rng rr;
    rng_seed(&rr, seed * 977);
    randmap_spec sp;
    randmap_random_spec(&sp, &rr, 130, 0);
    astar_grid *g;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      break;
    }
    size_t len;
    uint8_t *buf = save_all(r.pre, &len);
    CHECK(len == 40 + 16 * (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g));
    astar_jps_plus *loaded = NULL;
    CHECK(astar_jps_plus_load(&loaded, g, buf, len, NULL) == ASTAR_OK);
    if (loaded) {
      CHECK(astar_jps_plus_memory(loaded) == astar_jps_plus_memory(r.pre));
      /* Saving the loaded object gives the same bytes. */
      size_t len2;
      uint8_t *buf2 = save_all(loaded, &len2);
      CHECK(len2 == len && buf2 && memcmp(buf, buf2, len) == 0);
      free(buf2);
      astar_point *p2 = malloc(r.cap * sizeof *p2);
      for (int k = 0; k < 10 && p2; k++) {
        astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
        if (s.x < 0) break;
        astar_result a, b;
        astar_status sa = astar_jps_plus_find_path(r.ws, r.pre, g, NULL, s, t, r.path, r.cap, &a);
        astar_status sb = astar_jps_plus_find_path(r.ws, loaded, g, NULL, s, t, p2, r.cap, &b);
        int same = sa == sb && a.cost == b.cost && a.length == b.length &&
                   a.stats.expanded == b.stats.expanded && a.stats.generated == b.stats.generated;
        for (size_t i = 0; same && sa == ASTAR_OK && i < a.length; i++)
          same = r.path[i].x == p2[i].x && r.path[i].y == p2[i].y;
        CHECKF(same, "seed %llu query %d", (unsigned long long)seed, k);
        failures += !same;
      }
      free(p2);
    }
    astar_jps_plus_free(loaded);
    free(buf);
    rig_free(&r);
  }
}

/* Damaged bytes are refused: every truncation, every flipped byte, junk
** data with a correct checksum cannot be produced by flipping, so also a
** table whose checksum was recomputed after an edit (the rule check). */
static void test_load_rejects(void) {
  rig r;
  astar_grid *g = small_map();
  if (!g || !rig_init(&r, g)) return;
  size_t len;
  uint8_t *buf = save_all(r.pre, &len);
  if (!buf || len < 40) return; /* save_all has reported it */
  astar_jps_plus *p = NULL;
  for (size_t n = 0; n < len; n++) {
    astar_status st = astar_jps_plus_load(&p, g, buf, n, NULL);
    CHECKF(st == ASTAR_PARSE_ERROR && p == NULL, "truncated to %zu: %s", n, astar_strerror(st));
  }
  uint8_t *big = malloc(len + 1);
  memcpy(big, buf, len);
  big[len] = 0;
  CHECK(astar_jps_plus_load(&p, g, big, len + 1, NULL) == ASTAR_PARSE_ERROR && p == NULL);
  free(big);
  for (size_t i = 0; i < len; i++)
    for (int bit = 0; bit < 8; bit += 3) {
      buf[i] ^= (uint8_t)(1u << bit);
      astar_status st = astar_jps_plus_load(&p, g, buf, len, NULL);
      CHECKF(st == ASTAR_PARSE_ERROR && p == NULL, "byte %zu bit %d: %s", i, bit,
             astar_strerror(st));
      astar_jps_plus_free(p);
      p = NULL;
      buf[i] ^= (uint8_t)(1u << bit);
    }
  CHECK(astar_jps_plus_load(&p, g, buf, len, NULL) == ASTAR_OK && p != NULL);
  astar_jps_plus_free(p);
  p = NULL;
  CHECK(astar_jps_plus_load(&p, g, NULL, 0, NULL) == ASTAR_PARSE_ERROR);
  CHECK(astar_jps_plus_load(&p, g, NULL, 5, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_jps_plus_load(&p, NULL, buf, len, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_jps_plus_load(NULL, g, buf, len, NULL) == ASTAR_INVALID_ARGUMENT);

  /* Another grid of the same size, and one of another size. */
  astar_grid *other;
  CHECK(astar_grid_clone(&other, g, NULL) == ASTAR_OK);
  astar_grid_set_passable(other, 9, 1, false);
  CHECK(astar_jps_plus_load(&p, other, buf, len, NULL) == ASTAR_MISMATCH && !p);
  astar_grid_set_passable(other, 9, 1, true); /* same cells again: fine */
  CHECK(astar_jps_plus_load(&p, other, buf, len, NULL) == ASTAR_OK && p);
  astar_jps_plus_free(p);
  p = NULL;
  astar_grid_free(other);
  CHECK(astar_grid_new(&other, 11, 5, NULL) == ASTAR_OK);
  CHECK(astar_jps_plus_load(&p, other, buf, len, NULL) == ASTAR_MISMATCH && !p);
  astar_grid_free(other);

  /* Random junk of the right length. */
  rng rr;
  rng_seed(&rr, 99);
  for (int k = 0; k < 200; k++) {
    uint8_t *junk = malloc(len);
    for (size_t i = 0; i < len; i++) junk[i] = (uint8_t)rng_next(&rr);
    if (k % 2) memcpy(junk, buf, 40); /* a valid header over junk data */
    CHECK(astar_jps_plus_load(&p, g, junk, len, NULL) == ASTAR_PARSE_ERROR && !p);
    free(junk);
  }
  free(buf);
  rig_free(&r);
}

/* The rule check catches a wrong table even with a correct checksum: build
** the table of a grid with one more wall, then pass it off (with its
** checksum of cells patched) as the table of the original grid. */
static uint64_t test_hash(uint64_t h, uint64_t w) {
  h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
  return h ^ (h >> 29);
}
static uint64_t rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
static void wr64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void reseal(uint8_t *buf, size_t len);

static void test_load_checks_rules(void) {
  rig r;
  astar_grid *g = small_map();
  if (!g || !rig_init(&r, g)) return;
  size_t len, len2;
  uint8_t *good = save_all(r.pre, &len);
  astar_grid *other;
  astar_jps_plus *op = NULL;
  CHECK(astar_grid_clone(&other, g, NULL) == ASTAR_OK);
  astar_grid_set_passable(other, 9, 2, false);
  CHECK(astar_jps_plus_new(&op, other, NULL) == ASTAR_OK);
  uint8_t *bad = save_all(op, &len2);
  if (good && bad && len == len2) {
    memcpy(bad + 24, good + 24, 8); /* claim the original grid's cells */
    reseal(bad, len);
    astar_jps_plus *p = NULL;
    /* Another grid's jumps stay inside this grid: loading (which checks
    ** only that) accepts them; verifying every entry refuses them. */
    const astar_status st = astar_jps_plus_load(&p, g, bad, len, NULL);
    CHECK(st == ASTAR_OK || (st == ASTAR_PARSE_ERROR && !p));
    if (p) CHECK(astar_jps_plus_verify(p, g) == ASTAR_PARSE_ERROR);
    astar_jps_plus_free(p);
  }
  CHECK(astar_jps_plus_verify(r.pre, g) == ASTAR_OK);
  CHECK(astar_jps_plus_verify(r.pre, other) == ASTAR_MISMATCH);
  CHECK(astar_jps_plus_verify(NULL, g) == ASTAR_INVALID_ARGUMENT);
  free(good);
  free(bad);
  astar_jps_plus_free(op);
  astar_grid_free(other);
  rig_free(&r);
}

/* Recompute the whole-file checksum of a saved buffer (after an edit). */
static void reseal(uint8_t *buf, size_t len) {
  uint64_t h = UINT64_C(0x243f6a8885a308d3);
  for (size_t i = 0; i < 32; i += 8) h = test_hash(h, rd64(buf + i));
  for (size_t i = 40; i + 8 <= len; i += 8) h = test_hash(h, rd64(buf + i));
  wr64(buf + 32, h);
}

/* Fuzz: random edits with the checksum made right again, so that they
** reach the header checks and the bounds check. An edit of the data is
** refused, or (when its jumps stay inside the grid) loaded, refused by
** astar_jps_plus_verify and searched without harm; an edit of the header
** is refused or (the grid's checksum) read as another grid; nothing crashes
** or leaks (run under ASan in CI). */
static void test_load_fuzz(void) {
  rng rr;
  rng_seed(&rr, 2024);
  int loaded_damaged = 0;
  for (int m = 0; m < 20; m++) {
    randmap_spec sp = {rng_range(&rr, 1, 40), rng_range(&rr, 1, 40), 0.35 * rng_unit(&rr), 0, 1, 1};
    astar_grid *g;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    astar_jps_plus *pre = NULL;
    CHECK(astar_jps_plus_new(&pre, g, NULL) == ASTAR_OK);
    size_t len;
    uint8_t *good = save_all(pre, &len);
    uint8_t *buf = malloc(len);
    for (int it = 0; it < 200 && good && buf; it++) {
      memcpy(buf, good, len);
      int edits = rng_range(&rr, 1, 3);
      for (int e = 0; e < edits; e++) {
        size_t at = it % 4 == 0 ? (size_t)rng_range(&rr, 0, 31)
                                : 40 + (size_t)rng_range(&rr, 0, (int32_t)(len - 41));
        buf[at] = (uint8_t)rng_next(&rr);
      }
      reseal(buf, len);
      astar_jps_plus *p = NULL;
      astar_status st = astar_jps_plus_load(&p, g, buf, len, NULL);
      if (memcmp(buf, good, len) == 0) {
        CHECK(st == ASTAR_OK);
      } else if (memcmp(buf, good, 24) == 0 && memcmp(buf + 32, good + 32, len - 32) != 0 &&
                 memcmp(buf + 40, good + 40, len - 40) == 0) {
        CHECKF(st == ASTAR_MISMATCH && !p, "map %d edit %d: %s", m, it,
               astar_strerror(st)); /* only the grid checksum changed */
      } else {
        const bool data_only = memcmp(buf, good, 32) == 0; /* 32..39: the resealed sum */
        /* A data edit whose jumps stay inside the grid loads (the trust
        ** model of astar_jps_plus_load); verifying it must refuse it, and
        ** searching it must be memory-safe (ASan in CI). */
        if (data_only && st == ASTAR_OK) {
          CHECKF(astar_jps_plus_verify(p, g) == ASTAR_PARSE_ERROR, "map %d edit %d: verified", m,
                 it);
          astar_workspace *ws = NULL;
          CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
          static astar_point path[2048];
          for (int k = 0; k < 20 && ws; k++) {
            const astar_point a = randmap_passable_cell(g, &rr), b = randmap_passable_cell(g, &rr);
            astar_result res;
            if (a.x >= 0) (void)astar_jps_plus_find_path(ws, p, g, NULL, a, b, path, 2048, &res);
          }
          astar_workspace_free(ws);
          loaded_damaged++;
        } else {
          CHECKF((st == ASTAR_PARSE_ERROR || st == ASTAR_MISMATCH) && !p, "map %d edit %d: %s", m,
                 it, astar_strerror(st));
          if (data_only || memcmp(buf + 24, good + 24, 8) == 0)
            CHECKF(st == ASTAR_PARSE_ERROR, "map %d edit %d: data edit read as %s", m, it,
                   astar_strerror(st));
        }
      }
      astar_jps_plus_free(p);
    }
    free(buf);
    free(good);
    astar_jps_plus_free(pre);
    astar_grid_free(g);
  }
  /* The case above must occur, or the test would not test it. */
  CHECKF(loaded_damaged >= 5, "%d damaged tables loaded", loaded_damaged);
}

/* Allocation failure at every allocation of _new and _load: NO_MEMORY,
** *out NULL, nothing leaked; searches never allocate. */
static void test_failalloc(void) {
  astar_grid *g = small_map();
  if (!g) return;
  astar_jps_plus *pre = NULL;
  CHECK(astar_jps_plus_new(&pre, g, NULL) == ASTAR_OK);
  size_t len;
  uint8_t *buf = save_all(pre, &len);
  astar_jps_plus_free(pre);
  for (int which = 0; which < 2 && buf; which++) {
    int succeeded = 0;
    for (long k = 1; k < 20 && !succeeded; k++) {
      failalloc fa;
      failalloc_init(&fa);
      failalloc_fail_in(&fa, k);
      astar_allocator a = failalloc_allocator(&fa);
      astar_jps_plus *p = (astar_jps_plus *)&fa;
      astar_status st =
          which == 0 ? astar_jps_plus_new(&p, g, &a) : astar_jps_plus_load(&p, g, buf, len, &a);
      if (st == ASTAR_OK) {
        succeeded = 1;
        CHECK(p != NULL && fa.failures == 0);
        CHECK(astar_jps_plus_memory(p) == fa.bytes);
        /* A search on it calls the allocator not at all. */
        astar_workspace *ws;
        CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
        long calls = fa.calls;
        astar_result res;
        CHECK(astar_jps_plus_find_path(ws, p, g, NULL, P(0, 0), P(5, 4), NULL, 0, &res) ==
              ASTAR_BUFFER_TOO_SMALL);
        CHECK(fa.calls == calls);
        astar_workspace_free(ws);
        astar_jps_plus_free(p);
      } else {
        CHECKF(st == ASTAR_NO_MEMORY && p == NULL, "%s failing at %ld: %s", which ? "load" : "new",
               k, astar_strerror(st));
      }
      CHECKF(fa.blocks == 0 && fa.bytes == 0, "leak: %ld blocks", fa.blocks);
      CHECK(fa.osize_mismatches == 0);
    }
    CHECK(succeeded);
  }
  free(buf);
  astar_grid_free(g);
}

/* Grids at the extremes: 1 x N, N x 1, fully blocked but the endpoints,
** wider than 64 and 128 columns (bit-row words), and long rays. */
static void test_shapes(void) {
  static const int32_t dims[][2] = {{1, 1}, {1, 50}, {50, 1}, {200, 3}, {3, 200}, {130, 130}};
  astar_options o;
  astar_options_init(&o);
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    astar_grid *g;
    if (astar_grid_new(&g, dims[i][0], dims[i][1], NULL) != ASTAR_OK) continue;
    rig r;
    if (!rig_init(&r, g)) {
      astar_grid_free(g);
      continue;
    }
    const int32_t w = dims[i][0], h = dims[i][1];
    astar_point corners[4] = {P(0, 0), P(w - 1, 0), P(0, h - 1), P(w - 1, h - 1)};
    for (int a = 0; a < 4; a++)
      for (int b = 0; b < 4; b++) compare_one(&r, &o, corners[a], corners[b], 1.0, "shape", i);
    rig_free(&r);
  }
}

int main(void) {
  RUN(test_edge_cases);
  RUN(test_unsupported);
  RUN(test_stale);
  RUN(test_limit);
  RUN(test_shapes);
  RUN(test_all_pairs);
  RUN(test_random_maps);
  RUN(test_against_dijkstra);
  RUN(test_structured_maps);
  RUN(test_option_variants);
  RUN(test_round_trip);
  RUN(test_load_rejects);
  RUN(test_load_checks_rules);
  RUN(test_load_fuzz);
  RUN(test_failalloc);
  return check_summary();
}
