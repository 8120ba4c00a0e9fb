/*
** test_anyangle.c -- lines of sight, string pulling and Theta* / Lazy
** Theta* (astar/anyangle.h) against the tests' own geometry
** (util/sightref.c: exact segment-square intersection, not the library's
** cell walk) on hundreds of seeded random grids, under every corner rule
** and 4 moves: sight agrees with the definition; smoothed paths keep their
** ends, are in sight segment by segment, expand to legal grid walks and
** are never longer than the grid path; Theta* paths exist exactly when a
** grid path does, are in sight, cost their Euclidean length, lie between
** the any-angle optimum through cell centres (Dijkstra over every pair of
** cells in sight) and the grid optimum; runs repeat exactly. Also: known
** paths, every status, the observer's events, and searching without
** allocating.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/sightref.h"
#include "util/validate.h"

#define MAXS 14            /* largest side of the random maps */
#define MAXC (MAXS * MAXS) /* most cells */

/* The rules tried: the three diagonal corner rules, and 4 moves. */
static void rule_options(astar_options *o, int k) {
  astar_options_init(o);
  if (k == 3) {
    o->moves = 4;
    o->corner = ASTAR_CORNER_NEVER;
  } else {
    o->corner = k == 0 ? ASTAR_CORNER_NO_CUT : k == 1 ? ASTAR_CORNER_ONE_SIDE : ASTAR_CORNER_ALWAYS;
  }
}

static astar_grid *random_map(rng *r) {
  randmap_spec spec;
  randmap_random_spec(&spec, r, MAXS, 0);
  astar_grid *g = NULL;
  if (randmap_make(&g, &spec, r) != ASTAR_OK) return NULL;
  return g;
}

static double polyline(const astar_point *p, size_t n) {
  double s = 0;
  for (size_t i = 1; i < n; i++) s += ref_euclid(p[i - 1], p[i]);
  return s;
}

/* ---- sight ---------------------------------------------------------------------- */

static void test_sight_random(void) {
  rng r;
  rng_seed(&r, 11);
  long tried = 0, seen = 0;
  for (int m = 0; m < 150; m++) {
    astar_grid *g = random_map(&r);
    CHECK(g != NULL);
    if (!g) return;
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    for (int k = 0; k < 4; k++) {
      astar_options o;
      rule_options(&o, k);
      for (int q = 0; q < 60; q++) {
        /* Ends anywhere, outside included. */
        const astar_point a = {rng_range(&r, -1, w), rng_range(&r, -1, h)};
        const astar_point b = {rng_range(&r, -1, w), rng_range(&r, -1, h)};
        const bool want =
            ref_open_at(g, a.x, a.y) && ref_open_at(g, b.x, b.y) && ref_sight(g, o.corner, a, b);
        const bool got = astar_line_of_sight(g, &o, a, b);
        CHECKF(got == want, "map %d rule %d (%d,%d)-(%d,%d): %d, want %d", m, k, a.x, a.y, b.x, b.y,
               got, want);
        CHECK(astar_line_of_sight(g, &o, b, a) == got);
        tried++;
        seen += got;
      }
    }
    astar_grid_free(g);
  }
  CHECK(seen > tried / 50); /* the test sees both answers often */
  CHECK(seen < tried);
  /* Degenerate arguments. */
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 3, 3, NULL) == ASTAR_OK);
  CHECK(!astar_line_of_sight(NULL, NULL, (astar_point){0, 0}, (astar_point){1, 1}));
  CHECK(astar_line_of_sight(g, NULL, (astar_point){0, 0}, (astar_point){2, 1}));
  astar_options bad;
  astar_options_init(&bad);
  bad.moves = 5;
  CHECK(!astar_line_of_sight(g, &bad, (astar_point){0, 0}, (astar_point){2, 1}));
  astar_grid_free(g);
}

/* ---- smoothing ------------------------------------------------------------------ */

static void test_smooth_random(void) {
  rng r;
  rng_seed(&r, 12);
  static astar_point path[MAXC], out[MAXC], inplace[MAXC], walk[8 * MAXC];
  astar_workspace *ws = NULL;
  long smoothed = 0, shorter = 0;
  for (int m = 0; m < 150; m++) {
    astar_grid *g = random_map(&r);
    CHECK(g != NULL);
    if (!g) break;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int k = 0; k < 4; k++) {
      astar_options o;
      rule_options(&o, k);
      for (int q = 0; q < 10; q++) {
        const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
        if (s.x < 0) continue;
        astar_result res;
        if (astar_find_path(ws, g, &o, s, t, path, MAXC, &res) != ASTAR_OK) continue;
        size_t len = 0;
        CHECK(astar_path_smooth(g, &o, path, res.length, out, MAXC, &len) == ASTAR_OK);
        CHECK(len >= 1 && len <= res.length);
        CHECK(out[0].x == s.x && out[0].y == s.y);
        CHECK(out[len - 1].x == t.x && out[len - 1].y == t.y);
        for (size_t i = 1; i < len; i++)
          CHECKF(ref_sight(g, o.corner, out[i - 1], out[i]), "map %d rule %d: segment %zu", m, k,
                 i);
        /* Never longer than the grid path's polyline (its cost with 1 and sqrt 2). */
        const double grid_len = polyline(path, res.length), smooth_len = polyline(out, len);
        CHECK(smooth_len <= grid_len + 1e-9);
        CHECK(cost_equal(astar_polyline_length(out, len), smooth_len));
        shorter += smooth_len < grid_len - 1e-9;
        smoothed++;
        /* The cells it walks form a legal grid path under the rule. */
        size_t wl = 0;
        CHECK(astar_waypoints_expand(out, len, walk, 8 * MAXC, &wl) == ASTAR_OK);
        char err[128];
        CHECKF(validate_walk(g, &o, walk, wl, NULL, NULL, err, sizeof err), "map %d rule %d: %s", m,
               k, err);
        /* In place gives the same points. */
        for (size_t i = 0; i < res.length; i++) inplace[i] = path[i];
        size_t il = 0;
        CHECK(astar_path_smooth(g, &o, inplace, res.length, inplace, res.length, &il) == ASTAR_OK);
        CHECK(il == len);
        for (size_t i = 0; i < len && i < il; i++)
          CHECK(inplace[i].x == out[i].x && inplace[i].y == out[i].y);
        /* One point short: BUFFER_TOO_SMALL, the length, nothing touched. */
        if (len > 1) {
          for (size_t i = 0; i < res.length; i++) inplace[i] = path[i];
          size_t need = 0;
          CHECK(astar_path_smooth(g, &o, inplace, res.length, inplace, len - 1, &need) ==
                ASTAR_BUFFER_TOO_SMALL);
          CHECK(need == len);
          for (size_t i = 0; i < res.length; i++)
            CHECK(inplace[i].x == path[i].x && inplace[i].y == path[i].y);
        }
      }
    }
    astar_workspace_free(ws);
    ws = NULL;
    astar_grid_free(g);
  }
  CHECK(smoothed > 1000);
  CHECK(shorter > smoothed / 4);
}

static void test_smooth_arguments(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 4, 4, NULL) == ASTAR_OK);
  astar_point p[3] = {{0, 0}, {1, 1}, {2, 1}}, out[3];
  size_t len = 99;
  CHECK(astar_path_smooth(g, NULL, p, 0, NULL, 0, &len) == ASTAR_OK && len == 0);
  CHECK(astar_path_smooth(NULL, NULL, p, 3, out, 3, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_smooth(g, NULL, p, 3, out, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_smooth(g, NULL, NULL, 3, out, 3, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_smooth(g, NULL, p, 3, NULL, 3, &len) == ASTAR_INVALID_ARGUMENT);
  astar_options bad;
  astar_options_init(&bad);
  bad.straight_cost = -1;
  CHECK(astar_path_smooth(g, &bad, p, 3, out, 3, &len) == ASTAR_INVALID_ARGUMENT);
  p[1].x = 7;
  CHECK(astar_path_smooth(g, NULL, p, 3, out, 3, &len) == ASTAR_OUT_OF_BOUNDS);
  p[1].x = 1;
  /* Open grid: (0,0) sees (2,1), so the bend goes. */
  CHECK(astar_path_smooth(g, NULL, p, 3, out, 3, &len) == ASTAR_OK);
  CHECK(len == 2 && out[1].x == 2 && out[1].y == 1);
  CHECK(astar_path_smooth(g, NULL, p, 1, out, 1, &len) == ASTAR_OK && len == 1);
  astar_grid_free(g);
}

/* ---- Theta* and Lazy Theta* ----------------------------------------------------- */

typedef struct theta_tally {
  long paths, optimal;
  long lazy_above_grid; /* Lazy Theta* paths longer than the grid optimum */
  double worst;         /* largest cost / any-angle optimum through centres */
  uint64_t sight[2];    /* sight checks of Theta*, Lazy Theta* */
  uint64_t expanded[2]; /* expansions of each */
} theta_tally;

static void check_theta_map(const astar_grid *g, astar_workspace *ws, const astar_options *o, int m,
                            int k, rng *r, theta_tally *t) {
  static astar_point cells[MAXC], path[MAXC], again[MAXC], walk[8 * MAXC];
  static double full[MAXC * MAXC];
  static int pred[MAXC], index_of[MAXC];
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  int n = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      index_of[y * w + x] = -1;
      if (ref_open_at(g, x, y)) index_of[y * w + x] = n, cells[n++] = (astar_point){x, y};
    }
  if (n == 0) return;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      full[(size_t)i * (size_t)n + (size_t)j] =
          i != j && ref_sight(g, o->corner, cells[i], cells[j]) ? ref_euclid(cells[i], cells[j])
                                                                : INFINITY;
  for (int q = 0; q < 8; q++) {
    const astar_point s = cells[rng_range(r, 0, n - 1)], gl = cells[rng_range(r, 0, n - 1)];
    const double grid_opt = ref_dijkstra(g, o, s, gl);
    const double any_opt =
        s.x == gl.x && s.y == gl.y
            ? 0.0
            : ref_dense_dijkstra(full, n, index_of[s.y * w + s.x], index_of[gl.y * w + gl.x], pred);
    for (int method = 0; method < 2; method++) {
      astar_anyangle_result res;
      const astar_status st = astar_anyangle_find_path(ws, g, o, (astar_anyangle_method)method, s,
                                                       gl, path, MAXC, &res);
      if (grid_opt < 0) {
        CHECKF(st == ASTAR_NO_PATH, "map %d rule %d: status %d, want NO_PATH", m, k, st);
        CHECK(any_opt < 0);
        continue;
      }
      CHECKF(st == ASTAR_OK, "map %d rule %d method %d: status %d", m, k, method, st);
      if (st != ASTAR_OK) continue;
      CHECK(path[0].x == s.x && path[0].y == s.y);
      CHECK(path[res.length - 1].x == gl.x && path[res.length - 1].y == gl.y);
      for (size_t i = 1; i < res.length; i++)
        CHECKF(ref_sight(g, o->corner, path[i - 1], path[i]),
               "map %d rule %d method %d: segment %zu not in sight", m, k, method, i);
      CHECK(cost_equal(res.cost, polyline(path, res.length)));
      CHECKF(res.cost >= any_opt - 1e-9, "map %d rule %d method %d: %.9f below optimum %.9f", m, k,
             method, res.cost, any_opt);
      /* Theta* never came out longer than the grid optimum (not a theorem:
      ** checked here and on the shared maps, docs/paths.md); Lazy Theta*
      ** can, when a node expanded on an assumed sight is re-parented to a
      ** worse neighbour -- rarely (counted below). */
      if (method == ASTAR_ANYANGLE_THETA)
        CHECKF(res.cost <= grid_opt + 1e-9, "map %d rule %d: Theta* %.9f above grid %.9f", m, k,
               res.cost, grid_opt);
      else
        t->lazy_above_grid += res.cost > grid_opt + 1e-9;
      size_t wl = 0;
      CHECK(astar_waypoints_expand(path, res.length, walk, 8 * MAXC, &wl) == ASTAR_OK);
      char err[128];
      CHECKF(validate_walk(g, o, walk, wl, NULL, NULL, err, sizeof err), "map %d rule %d: %s", m, k,
             err);
      /* The same search again: the same points and statistics. */
      astar_anyangle_result res2;
      CHECK(astar_anyangle_find_path(ws, g, o, (astar_anyangle_method)method, s, gl, again, MAXC,
                                     &res2) == ASTAR_OK);
      CHECK(res2.length == res.length && res2.cost == res.cost &&
            res2.stats.expanded == res.stats.expanded && res2.sight_checks == res.sight_checks);
      for (size_t i = 0; i < res.length && i < res2.length; i++)
        CHECK(again[i].x == path[i].x && again[i].y == path[i].y);
      t->paths++;
      t->optimal += cost_equal(res.cost, any_opt);
      if (any_opt > 0 && res.cost / any_opt > t->worst) t->worst = res.cost / any_opt;
      t->sight[method] += res.sight_checks;
      t->expanded[method] += res.stats.expanded;
    }
  }
}

static void test_theta_random(void) {
  rng r;
  rng_seed(&r, 13);
  theta_tally t = {0};
  for (int m = 0; m < 200; m++) {
    astar_grid *g = random_map(&r);
    CHECK(g != NULL);
    if (!g) break;
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int k = 0; k < 4; k++) {
      astar_options o;
      rule_options(&o, k);
      check_theta_map(g, ws, &o, m, k, &r, &t);
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  printf("     %ld any-angle paths: %.1f%% optimal through centres, worst %.4fx; sight checks "
         "Theta* %llu, Lazy %llu; Lazy above the grid optimum %ld\n",
         t.paths, 100.0 * (double)t.optimal / (double)(t.paths ? t.paths : 1), t.worst,
         (unsigned long long)t.sight[0], (unsigned long long)t.sight[1], t.lazy_above_grid);
  CHECK(t.paths > 3000);
  CHECK(t.optimal > t.paths / 2);           /* mostly optimal on small maps */
  CHECK(t.sight[1] < t.sight[0]);           /* the point of being lazy */
  CHECK(t.lazy_above_grid * 200 < t.paths); /* rare: under 1% of Lazy Theta*'s paths */
}

typedef struct event_log {
  int n, push, expand, improve, goal, other;
  astar_event_type first, last;
} event_log;

static void log_event(void *ctx, const astar_event *e) {
  event_log *l = ctx;
  if (l->n++ == 0) l->first = e->type;
  l->last = e->type;
  switch (e->type) {
  case ASTAR_EVENT_PUSH:
    l->push++;
    break;
  case ASTAR_EVENT_EXPAND:
    l->expand++;
    break;
  case ASTAR_EVENT_IMPROVE:
    l->improve++;
    break;
  case ASTAR_EVENT_GOAL:
    l->goal++;
    break;
  default:
    l->other++;
    break;
  }
}

static void test_theta_known(void) {
  static const char *const rows[] = {
      "..........", /* 0 */
      "..........", /* 1 */
      "....#.....", /* 2 */
      "....#.....", /* 3 */
      "....#.....", /* 4 */
      "..........", /* 5 */
  };
  astar_grid *g = randmap_from_rows(rows, 6, '#');
  CHECK(g != NULL);
  if (!g) return;
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point p[16];
  astar_anyangle_result res;
  for (int method = 0; method < 2; method++) {
    /* In sight: one segment. */
    CHECK(astar_anyangle_find_path(ws, g, NULL, (astar_anyangle_method)method, (astar_point){0, 0},
                                   (astar_point){9, 1}, p, 16, &res) == ASTAR_OK);
    CHECK(res.length == 2 && cost_equal(res.cost, sqrt(82.0)));
    /* Around the wall's end: (0,3) -> (9,3) bends once, at a cell by the wall's top or bottom. */
    CHECK(astar_anyangle_find_path(ws, g, NULL, (astar_anyangle_method)method, (astar_point){0, 3},
                                   (astar_point){9, 3}, p, 16, &res) == ASTAR_OK);
    CHECK(res.length == 3);
    CHECK(p[1].x == 3 || p[1].x == 4 || p[1].x == 5);
    CHECK(p[1].y == 1 || p[1].y == 5);
    /* Start == goal: one point, cost 0. */
    CHECK(astar_anyangle_find_path(ws, g, NULL, (astar_anyangle_method)method, (astar_point){2, 2},
                                   (astar_point){2, 2}, p, 16, &res) == ASTAR_OK);
    CHECK(res.length == 1 && res.cost == 0.0 && p[0].x == 2 && p[0].y == 2);
    /* Costs scale with straight_cost; diagonal_cost plays no part. */
    astar_options o;
    astar_options_init(&o);
    o.straight_cost = 10;
    o.diagonal_cost = 11;
    CHECK(astar_anyangle_find_path(ws, g, &o, (astar_anyangle_method)method, (astar_point){0, 0},
                                   (astar_point){9, 1}, p, 16, &res) == ASTAR_OK);
    CHECK(cost_equal(res.cost, 10 * sqrt(82.0)));
    /* The observer: PUSH first, GOAL last, an EXPAND for every expansion but the goal's. */
    event_log log = {0};
    o.observer = log_event;
    o.observer_ctx = &log;
    CHECK(astar_anyangle_find_path(ws, g, &o, (astar_anyangle_method)method, (astar_point){0, 3},
                                   (astar_point){9, 3}, p, 16, &res) == ASTAR_OK);
    CHECK(log.first == ASTAR_EVENT_PUSH && log.last == ASTAR_EVENT_GOAL && log.goal == 1);
    CHECK((uint64_t)log.expand + 1 == res.stats.expanded);
    CHECK((uint64_t)(log.push + log.improve) == res.stats.generated);
    CHECK(log.other == 0);
  }
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_theta_statuses(void) {
  static const char *const rows[] = {
      "...#....",
      "...#....",
      "...#....",
  };
  astar_grid *g = randmap_from_rows(rows, 3, '#');
  astar_grid *big = NULL;
  CHECK(g != NULL && astar_grid_new(&big, 40, 40, NULL) == ASTAR_OK);
  if (!g || !big) return;
  /* A workspace that fails every allocation once made: searches never allocate. */
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, &al) == ASTAR_OK);
  if (!ws) return;
  failalloc_fail_in(&fa, 1);
  const long before = fa.requests;
  astar_point p[8];
  astar_anyangle_result res;
  const astar_point a = {0, 0}, b = {7, 2}, wall = {3, 1};
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, b, p, 8, &res) ==
        ASTAR_NO_PATH);
  CHECK(res.length == 0 && res.cost == 0 && res.stats.expanded == 9);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, (astar_point){2, 2}, p, 1,
                                 &res) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length == 2);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, (astar_point){2, 2}, NULL, 0,
                                 NULL) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, wall, b, p, 8, &res) ==
        ASTAR_START_BLOCKED);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, wall, p, 8, &res) ==
        ASTAR_GOAL_BLOCKED);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, (astar_point){8, 0}, p, 8,
                                 &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, (astar_point){-1, 0}, b, p, 8,
                                 &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_anyangle_find_path(ws, big, NULL, ASTAR_ANYANGLE_THETA, a, a, p, 8, &res) ==
        ASTAR_CAPACITY);
  CHECK(astar_anyangle_find_path(NULL, g, NULL, ASTAR_ANYANGLE_THETA, a, b, p, 8, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anyangle_find_path(ws, NULL, NULL, ASTAR_ANYANGLE_THETA, a, b, p, 8, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anyangle_find_path(ws, g, NULL, (astar_anyangle_method)2, a, b, p, 8, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, b, NULL, 8, &res) ==
        ASTAR_INVALID_ARGUMENT);
  /* Options the segment cost model cannot honour. */
  astar_options o;
  for (int k = 0; k < 7; k++) {
    astar_options_init(&o);
    switch (k) {
    case 0:
      o.turn_penalty = 1;
      break;
    case 1:
      o.partial = true;
      break;
    case 2:
      o.terrain_scale = 0.5;
      break;
    case 3:
      o.heuristic = ASTAR_H_OCTILE;
      break;
    case 4:
      o.algorithm = ASTAR_ALGO_JPS;
      break;
    case 5:
      o.heuristic = ASTAR_H_ZERO;
      break;
    default:
      o.weight = -1;
      break;
    }
    CHECK(astar_anyangle_find_path(ws, g, &o, ASTAR_ANYANGLE_LAZY_THETA, a, (astar_point){2, 2}, p,
                                   8,
                                   &res) == (k == 6 ? ASTAR_INVALID_ARGUMENT : ASTAR_UNSUPPORTED));
  }
  /* A limit of 2 expansions: LIMIT_REACHED. */
  astar_options_init(&o);
  o.max_expansions = 2;
  CHECK(astar_anyangle_find_path(ws, g, &o, ASTAR_ANYANGLE_THETA, a, (astar_point){2, 2}, p, 8,
                                 &res) == ASTAR_LIMIT_REACHED);
  CHECK(res.stats.expanded == 2);
  CHECK(fa.requests == before); /* nothing asked of the allocator */
  /* Terrain on the grid: unsupported. */
  CHECK(astar_grid_set_terrain(g, 0, 0, 2.0f) == ASTAR_OK);
  CHECK(astar_anyangle_find_path(ws, g, NULL, ASTAR_ANYANGLE_THETA, a, (astar_point){2, 2}, p, 8,
                                 &res) == ASTAR_UNSUPPORTED);
  /* After a Theta* search, the grid A*'s last path is not offered. */
  size_t len = 0;
  CHECK(astar_workspace_path(ws, p, 8, &len) == ASTAR_NO_PATH);
  astar_workspace_free(ws);
  astar_grid_free(g);
  astar_grid_free(big);
}

int main(void) {
  RUN(test_sight_random);
  RUN(test_smooth_random);
  RUN(test_smooth_arguments);
  RUN(test_theta_random);
  RUN(test_theta_known);
  RUN(test_theta_statuses);
  return check_summary();
}
