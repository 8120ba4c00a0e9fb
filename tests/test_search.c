/*
** test_search.c -- astar_find_path edge cases, one documented outcome each
** (see the top of astar/search.h), plus the workspace life cycle, the
** tutorial example, tie-order properties, statistics, astar_path_cost and
** astar_strerror.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})

/* A grid from rows of text: '#' blocked, '1'..'9' terrain, anything else
** passable. Written here rather than using the library's ASCII parser so
** that these tests do not depend on it. */
static astar_grid *grid_of(const char *const *rows, int h) {
  astar_grid *g = NULL;
  int w = (int)strlen(rows[0]);
  if (astar_grid_new(&g, w, h, NULL) != ASTAR_OK) return NULL;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      char c = rows[y][x];
      if (c == '#') astar_grid_set_passable(g, x, y, false);
      if (c >= '1' && c <= '9') astar_grid_set_terrain(g, x, y, (float)(c - '0'));
    }
  return g;
}

static astar_grid *open_grid(int32_t w, int32_t h) {
  astar_grid *g = NULL;
  astar_grid_new(&g, w, h, NULL);
  return g;
}

static astar_workspace *ws_for(const astar_grid *g) {
  astar_workspace *ws = NULL;
  astar_workspace_new(&ws, g, NULL);
  return ws;
}

/* Result fields after a search that produced no path. */
static int result_empty(const astar_result *r) {
  return r->length == 0 && r->cost == 0.0;
}

static void test_options_init(void) {
  astar_options o;
  memset(&o, 0x5a, sizeof o);
  astar_options_init(&o);
  CHECK_EQ(o.moves, 8);
  CHECK_EQ(o.corner, ASTAR_CORNER_NO_CUT);
  CHECK(o.straight_cost == 1.0);
  CHECK(o.diagonal_cost == sqrt(2.0));
  CHECK_EQ(o.heuristic, ASTAR_H_AUTO);
  CHECK(o.heuristic_fn == NULL);
  CHECK(o.heuristic_ctx == NULL);
  CHECK(o.weight == 1.0);
  CHECK_EQ(o.tie, ASTAR_TIE_LARGER_G);
  CHECK_EQ(o.reopen, ASTAR_REOPEN_AUTO);
  CHECK_EQ(o.max_expansions, 0);
  CHECK_EQ(astar_options_validate(&o), ASTAR_OK);
}

static void test_start_is_goal(void) {
  astar_grid *g = open_grid(5, 5);
  astar_workspace *ws = ws_for(g);
  astar_point path[4] = {P(-7, -7), P(-7, -7), P(-7, -7), P(-7, -7)};
  astar_result r;
  memset(&r, 0x5a, sizeof r);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(2, 3), P(2, 3), path, 4, &r), ASTAR_OK);
  CHECK_EQ(r.length, 1);
  CHECK(r.cost == 0.0);
  CHECK_EQ(r.stats.expanded, 0);
  CHECK(path[0].x == 2 && path[0].y == 3);
  CHECK(path[1].x == -7); /* nothing beyond the path */
  /* The same under other options, including a tiny expansion limit. */
  astar_options o;
  astar_options_init(&o);
  o.moves = 4;
  o.heuristic = ASTAR_H_ZERO;
  o.max_expansions = 1;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(0, 0), path, 4, &r), ASTAR_OK);
  CHECK_EQ(r.length, 1);
  CHECK(r.cost == 0.0);
  CHECK_EQ(r.stats.expanded, 0);
  /* Corners of the grid; result may be NULL. */
  CHECK_EQ(astar_find_path(ws, g, NULL, P(4, 4), P(4, 4), path, 1, NULL), ASTAR_OK);
  CHECK(path[0].x == 4 && path[0].y == 4);
  size_t len = 0;
  CHECK_EQ(astar_workspace_path(ws, path, 4, &len), ASTAR_OK);
  CHECK_EQ(len, 1);
  /* start == goal on a blocked cell is still a blocked start. */
  astar_grid_set_passable(g, 1, 1, false);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(1, 1), P(1, 1), path, 4, &r), ASTAR_START_BLOCKED);
  CHECK(result_empty(&r));
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_blocked_endpoints(void) {
  static const char *const rows[] = {
      ".....",
      ".#...",
      "...#.",
  };
  astar_grid *g = grid_of(rows, 3);
  astar_workspace *ws = ws_for(g);
  astar_point path[32];
  astar_result r;
  for (int i = 0; i < 32; i++) path[i] = P(-9, -9);
  memset(&r, 0x5a, sizeof r);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(1, 1), P(4, 0), path, 32, &r), ASTAR_START_BLOCKED);
  CHECK(result_empty(&r));
  memset(&r, 0x5a, sizeof r);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(4, 0), P(3, 2), path, 32, &r), ASTAR_GOAL_BLOCKED);
  CHECK(result_empty(&r));
  /* Both blocked: the start is checked first. */
  CHECK_EQ(astar_find_path(ws, g, NULL, P(1, 1), P(3, 2), path, 32, &r), ASTAR_START_BLOCKED);
  CHECK(path[0].x == -9);
  size_t len = 99;
  CHECK_EQ(astar_workspace_path(ws, path, 32, &len), ASTAR_NO_PATH);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_out_of_bounds(void) {
  astar_grid *g = open_grid(6, 4);
  astar_workspace *ws = ws_for(g);
  astar_point path[32];
  astar_result r;
  astar_point bad[] = {P(-1, 0), P(0, -1),        P(6, 0),         P(0, 4),
                       P(6, 4),  P(INT32_MIN, 0), P(0, INT32_MAX), P(INT32_MAX, INT32_MIN)};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(&r, 0x5a, sizeof r);
    astar_status st = astar_find_path(ws, g, NULL, bad[i], P(2, 2), path, 32, &r);
    CHECKF(st == ASTAR_OUT_OF_BOUNDS, "start (%d,%d): status %d", (int)bad[i].x, (int)bad[i].y,
           (int)st);
    CHECK(result_empty(&r));
    st = astar_find_path(ws, g, NULL, P(2, 2), bad[i], path, 32, &r);
    CHECKF(st == ASTAR_OUT_OF_BOUNDS, "goal (%d,%d): status %d", (int)bad[i].x, (int)bad[i].y,
           (int)st);
    CHECK(result_empty(&r));
  }
  /* The workspace is still fine. */
  CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 0), P(5, 3), path, 32, &r), ASTAR_OK);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* NO_PATH must flood exactly the start's component: every reachable cell is
** expanded once (default options: consistent heuristic, no reopening). */
static void check_unreachable(const astar_grid *g, const astar_options *o, astar_point s,
                              astar_point t) {
  astar_workspace *ws = ws_for(g);
  size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  double *dist = malloc(sizeof(double) * cells);
  size_t reach = ref_dijkstra_all(g, o, s, dist);
  CHECK(isinf(dist[(size_t)t.y * astar_grid_width(g) + t.x]));
  astar_point path[8];
  astar_result r;
  memset(&r, 0x5a, sizeof r);
  astar_status st = astar_find_path(ws, g, o, s, t, path, 8, &r);
  CHECKF(st == ASTAR_NO_PATH, "status %d", (int)st);
  CHECKF(r.stats.expanded == reach, "expanded %llu, reachable %zu",
         (unsigned long long)r.stats.expanded, reach);
  CHECK(result_empty(&r));
  size_t len = 5;
  CHECK_EQ(astar_workspace_path(ws, path, 8, &len), ASTAR_NO_PATH);
  free(dist);
  astar_workspace_free(ws);
}

static void test_unreachable(void) {
  static const char *const rows[] = {
      "..........", "..######..", "..#....#..", "..#....#..", "..######..", "..........",
  };
  astar_grid *g = grid_of(rows, 6);
  astar_options o;
  astar_options_init(&o);
  check_unreachable(g, &o, P(0, 0), P(4, 3)); /* goal walled in */
  check_unreachable(g, &o, P(4, 3), P(0, 0)); /* start walled in */
  o.moves = 4;
  check_unreachable(g, &o, P(9, 5), P(5, 2));
  o.heuristic = ASTAR_H_ZERO;
  check_unreachable(g, &o, P(9, 5), P(5, 2));
  astar_grid_free(g);

  /* A diagonal gap between two walls is closed unless squeezing through
  ** is allowed (ALWAYS): (1,0) -> (2,1) has both side cells blocked. */
  static const char *const diag[] = {
      "..#",
      ".#.",
      "#..",
  };
  g = grid_of(diag, 3);
  astar_options_init(&o);
  check_unreachable(g, &o, P(0, 0), P(2, 2));
  o.corner = ASTAR_CORNER_ONE_SIDE;
  check_unreachable(g, &o, P(0, 0), P(2, 2));
  o.corner = ASTAR_CORNER_NEVER;
  check_unreachable(g, &o, P(0, 0), P(2, 2));
  o.corner = ASTAR_CORNER_ALWAYS;
  astar_workspace *ws = ws_for(g);
  astar_point path[8];
  astar_result r;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(2, 2), path, 8, &r), ASTAR_OK);
  CHECK_EQ(r.length, 4);
  CHECK(cost_equal(r.cost, 2 + sqrt(2.0)));
  astar_workspace_free(ws);
  astar_grid_free(g);

  /* Random maps: whenever the reference says unreachable. */
  rng rr;
  rng_seed(&rr, 77);
  int seen = 0;
  for (int i = 0; i < 300 && seen < 40; i++) {
    randmap_spec sp = {
        rng_range(&rr, 2, 40), rng_range(&rr, 2, 40), 0.35 + 0.1 * rng_unit(&rr), 0, 0, 0};
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) break;
    astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
    astar_options_init(&o);
    o.moves = (i & 1) ? 8 : 4;
    if (s.x >= 0 && ref_dijkstra(g, &o, s, t) < 0) {
      check_unreachable(g, &o, s, t);
      seen++;
    }
    astar_grid_free(g);
  }
  CHECK(seen >= 10);
}

static void test_expansion_limit(void) {
  astar_grid *g = open_grid(50, 50);
  astar_workspace *ws = ws_for(g);
  astar_options o;
  astar_options_init(&o);
  o.heuristic = ASTAR_H_ZERO; /* expands a lot */
  astar_point path[200];
  astar_result r;
  o.max_expansions = 10;
  memset(&r, 0x5a, sizeof r);
  astar_status st = astar_find_path(ws, g, &o, P(0, 0), P(49, 49), path, 200, &r);
  CHECKF(st == ASTAR_LIMIT_REACHED, "status %d", (int)st);
  CHECK_EQ(r.stats.expanded, 10);
  CHECK(result_empty(&r));
  size_t len;
  CHECK_EQ(astar_workspace_path(ws, path, 200, &len), ASTAR_NO_PATH);
  o.max_expansions = 1;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(49, 49), path, 200, &r), ASTAR_LIMIT_REACHED);
  CHECK_EQ(r.stats.expanded, 1);

  /* A limit of exactly what the search needs succeeds; one less does not. */
  o.max_expansions = 0;
  CHECK_EQ(astar_find_path(ws, g, &o, P(3, 7), P(30, 20), path, 200, &r), ASTAR_OK);
  uint64_t need = r.stats.expanded;
  CHECK(need > 2);
  o.max_expansions = need;
  st = astar_find_path(ws, g, &o, P(3, 7), P(30, 20), path, 200, &r);
  CHECKF(st == ASTAR_OK, "limit %llu = expansions of the unlimited search: status %d",
         (unsigned long long)need, (int)st);
  o.max_expansions = need - 1;
  st = astar_find_path(ws, g, &o, P(3, 7), P(30, 20), path, 200, &r);
  CHECKF(st == ASTAR_LIMIT_REACHED, "limit %llu: status %d", (unsigned long long)(need - 1),
         (int)st);
  CHECK_EQ(r.stats.expanded, need - 1);
  /* A limit on an unreachable goal: whichever comes first. */
  astar_grid_set_passable(g, 48, 49, false);
  astar_grid_set_passable(g, 49, 48, false);
  astar_grid_set_passable(g, 48, 48, false);
  o.max_expansions = 100;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(49, 49), path, 200, &r), ASTAR_LIMIT_REACHED);
  CHECK_EQ(r.stats.expanded, 100);
  o.max_expansions = 1000000;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(49, 49), path, 200, &r), ASTAR_NO_PATH);
  CHECK_EQ(r.stats.expanded, 50 * 50 - 4);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_buffer_too_small(void) {
  astar_grid *g = open_grid(10, 3);
  astar_workspace *ws = ws_for(g);
  astar_options o;
  astar_options_init(&o);
  o.moves = 4;
  astar_point buf[16], want[16];
  astar_result r;
  size_t len = 0;
  char err[200];
  /* The full path first, for comparison. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 1), P(9, 1), want, 16, &r), ASTAR_OK);
  CHECK_EQ(r.length, 10);
  CHECK(r.cost == 9.0);
  CHECKF(validate_path(g, &o, P(0, 1), P(9, 1), want, r.length, r.cost, err, sizeof err), "%s",
         err);

  for (size_t cap = 0; cap < 10; cap++) {
    for (int i = 0; i < 16; i++) buf[i] = P(-5, -5);
    memset(&r, 0x5a, sizeof r);
    astar_status st = astar_find_path(ws, g, &o, P(0, 1), P(9, 1), buf, cap, &r);
    CHECKF(st == ASTAR_BUFFER_TOO_SMALL, "cap %zu: status %d", cap, (int)st);
    CHECKF(r.length == 10, "cap %zu: length %zu", cap, r.length);
    CHECKF(r.cost == 9.0, "cap %zu: cost %g (a path was found)", cap, r.cost);
    for (int i = 0; i < 16; i++)
      CHECKF(buf[i].x == -5 && buf[i].y == -5, "cap %zu: wrote [%d]", cap, i);
    /* The workspace keeps the path: too small again, then big enough. */
    len = 0;
    CHECK_EQ(astar_workspace_path(ws, buf, cap, &len), ASTAR_BUFFER_TOO_SMALL);
    CHECK_EQ(len, 10);
    for (int i = 0; i < 16; i++) CHECK(buf[i].x == -5);
    len = 0;
    CHECK_EQ(astar_workspace_path(ws, buf, 10, &len), ASTAR_OK);
    CHECK_EQ(len, 10);
    CHECK(memcmp(buf, want, 10 * sizeof buf[0]) == 0);
    CHECK(buf[10].x == -5);
  }
  /* path == NULL with cap 0: the way to ask for the length. */
  memset(&r, 0, sizeof r);
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 1), P(9, 1), NULL, 0, &r), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(r.length, 10);
  CHECK_EQ(astar_workspace_path(ws, NULL, 0, &len), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(len, 10);
  /* Exactly enough room. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 1), P(9, 1), buf, 10, &r), ASTAR_OK);
  CHECK(memcmp(buf, want, 10 * sizeof buf[0]) == 0);
  /* start == goal with no room. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(3, 1), P(3, 1), NULL, 0, &r), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(r.length, 1);
  CHECK_EQ(astar_workspace_path(ws, buf, 1, &len), ASTAR_OK);
  CHECK(len == 1 && buf[0].x == 3 && buf[0].y == 1);
  /* NULL buffer with a non-zero cap, NULL len. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 1), P(9, 1), NULL, 5, &r), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_workspace_path(NULL, buf, 16, &len), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_workspace_path(ws, buf, 16, NULL), ASTAR_INVALID_ARGUMENT);
  /* A fresh workspace has no path to copy. */
  astar_workspace *ws2 = ws_for(g);
  CHECK_EQ(astar_workspace_path(ws2, buf, 16, &len), ASTAR_NO_PATH);
  astar_workspace_free(ws2);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_one_by_one(void) {
  astar_grid *g = open_grid(1, 1);
  astar_workspace *ws = ws_for(g);
  astar_point path[2];
  astar_result r;
  CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 0), P(0, 0), path, 2, &r), ASTAR_OK);
  CHECK(r.length == 1 && r.cost == 0.0 && path[0].x == 0 && path[0].y == 0);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 0), P(1, 0), path, 2, &r), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 1), P(0, 0), path, 2, &r), ASTAR_OUT_OF_BOUNDS);
  astar_grid_set_passable(g, 0, 0, false);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 0), P(0, 0), path, 2, &r), ASTAR_START_BLOCKED);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_huge_grid(void) {
  const int32_t n = 4096;
  astar_grid *g = open_grid(n, n);
  CHECK(g != NULL);
  if (!g) return;
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_workspace_new(&ws, g, NULL), ASTAR_OK);
  if (!ws) {
    astar_grid_free(g);
    return;
  }
  size_t cap = 2 * (size_t)n + 4;
  astar_point *path = malloc(sizeof(astar_point) * cap);
  astar_result r;
  char err[200];
  astar_options o;
  astar_options_init(&o);

  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(n - 1, n - 1), path, cap, &r), ASTAR_OK);
  CHECK_EQ(r.length, (size_t)n);
  CHECKF(cost_equal(r.cost, (n - 1) * sqrt(2.0)), "cost %.17g", r.cost);
  CHECKF(validate_path(g, &o, P(0, 0), P(n - 1, n - 1), path, r.length, r.cost, err, sizeof err),
         "%s", err);

  CHECK_EQ(astar_find_path(ws, g, &o, P(n - 1, 0), P(0, n - 1), path, cap, &r), ASTAR_OK);
  CHECKF(validate_path(g, &o, P(n - 1, 0), P(0, n - 1), path, r.length, r.cost, err, sizeof err),
         "%s", err);
  CHECKF(cost_equal(r.cost, (n - 1) * sqrt(2.0)), "cost %.17g", r.cost);

  o.moves = 4;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(n - 1, n - 1), path, cap, &r), ASTAR_OK);
  CHECK_EQ(r.length, 2 * (size_t)n - 1);
  CHECK(r.cost == 2.0 * (n - 1));
  CHECKF(validate_path(g, &o, P(0, 0), P(n - 1, n - 1), path, r.length, r.cost, err, sizeof err),
         "%s", err);

  /* A wall across all but the last column: the path has to go round. */
  for (int32_t x = 0; x < n - 1; x++) astar_grid_set_passable(g, x, n / 2, false);
  astar_options_init(&o);
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(0, n - 1), path, cap, &r), ASTAR_OK);
  CHECKF(validate_path(g, &o, P(0, 0), P(0, n - 1), path, r.length, r.cost, err, sizeof err), "%s",
         err);
  free(path);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void check_corridor(int32_t w, int32_t h) {
  astar_grid *g = open_grid(w, h);
  astar_workspace *ws = ws_for(g);
  int32_t n = w > h ? w : h;
  astar_point *path = malloc(sizeof(astar_point) * (size_t)n);
  astar_point far = w > h ? P(w - 1, 0) : P(0, h - 1);
  astar_result r;
  char err[200];
  for (int moves = 4; moves <= 8; moves += 4) {
    astar_options o;
    astar_options_init(&o);
    o.moves = moves;
    CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), far, path, (size_t)n, &r), ASTAR_OK);
    CHECK_EQ(r.length, (size_t)n);
    CHECK(r.cost == n - 1);
    CHECKF(validate_path(g, &o, P(0, 0), far, path, r.length, r.cost, err, sizeof err), "%s", err);
    for (int32_t i = 0; i < n; i++) {
      astar_point want = w > h ? P(i, 0) : P(0, i);
      CHECK(path[i].x == want.x && path[i].y == want.y);
    }
    CHECK_EQ(astar_find_path(ws, g, &o, far, P(0, 0), path, (size_t)n, &r), ASTAR_OK);
    CHECK(r.cost == n - 1);
  }
  /* Cut the corridor: everything on the start's side is flooded. */
  if (n >= 3) {
    astar_point cut = w > h ? P(n / 3, 0) : P(0, n / 3);
    astar_grid_set_passable(g, cut.x, cut.y, false);
    CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 0), far, path, (size_t)n, &r), ASTAR_NO_PATH);
    CHECK_EQ(r.stats.expanded, (uint64_t)(n / 3));
  }
  free(path);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_corridors(void) {
  check_corridor(1000, 1);
  check_corridor(1, 1000);
  check_corridor(2, 1);
  check_corridor(1, 2);
  check_corridor(ASTAR_GRID_MAX_SIDE, 1);
}

static double h_const(void *ctx, astar_point c, astar_point t) {
  (void)ctx, (void)c, (void)t;
  return 0;
}

/* Partial paths under the largest weight accepted: result.cost is the cost
** of the cells returned (fuzzing found it off with weight 1e308, whose
** f = g + w h overflowed to inf). The fuzzer's options: 8 moves, corners
** always, Manhattan, costs 2 and 1, partial, small expansion budgets.
** Without reopening: with it, a partial path cut off while an improvement
** of an ancestor is still propagating reports the best node's older g
** (13 for cells costing 11 at weight 1e9, budget 20) -- open, issue 14. */
static void test_partial_cost_large_weight(void) {
  astar_grid *g = open_grid(24, 16);
  for (int32_t x = 3; x < 20; x++) astar_grid_set_passable(g, x, 8, false);
  for (int32_t y = 2; y < 14; y++) astar_grid_set_passable(g, 12, y, false);
  astar_workspace *ws = ws_for(g);
  CHECK_EQ(astar_workspace_reserve_turns(ws, g), ASTAR_OK);
  enum { CELLS = 24 * 16 };
  astar_point path[CELLS];
  const double weights[] = {1.0, 1e3, ASTAR_OPTION_MAX};
  /* With reopening, a search cut off while a lowered g is still spreading
  ** returns a path through the new links: result.cost must be its cost,
  ** not the stale g of its last node (13 reported for a path of 11 once). */
  const astar_reopen reopens[] = {ASTAR_REOPEN_NEVER, ASTAR_REOPEN_ALWAYS, ASTAR_REOPEN_AUTO};
  long checked = 0, reopened = 0;
  for (size_t ri = 0; ri < 3; ri++)
    for (int turns = 0; turns < 2; turns++)
      for (size_t wi = 0; wi < sizeof weights / sizeof *weights; wi++) {
        for (uint64_t budget = 1; budget <= 60; budget++) {
          astar_options o;
          astar_options_init(&o);
          o.corner = ASTAR_CORNER_ALWAYS;
          o.heuristic = ASTAR_H_MANHATTAN;
          o.straight_cost = 2.0;
          o.diagonal_cost = 1.0;
          o.weight = weights[wi];
          o.partial = true;
          o.max_expansions = budget;
          o.reopen = reopens[ri];
          o.turn_penalty = turns ? 0.75 : 0.0;
          astar_result r;
          const astar_status st = astar_find_path(ws, g, &o, P(2, 12), P(21, 3), path, CELLS, &r);
          CHECKF(st == ASTAR_OK || st == ASTAR_PARTIAL, "weight %g budget %llu: status %d",
                 weights[wi], (unsigned long long)budget, (int)st);
          if (st != ASTAR_OK && st != ASTAR_PARTIAL) continue;
          double cost = -1.0;
          CHECK_EQ(astar_path_cost(g, &o, path, r.length, &cost, NULL), ASTAR_OK);
          CHECKF(isfinite(r.cost) && fabs(cost - r.cost) <= 1e-9 * (1.0 + cost),
                 "reopen %d turns %d weight %g budget %llu: result.cost %g, path costs %g",
                 (int)reopens[ri], turns, weights[wi], (unsigned long long)budget, r.cost, cost);
          checked++;
          reopened += r.stats.reopened > 0;
        }
      }
  CHECK(checked == 1080);
  CHECK(reopened > 0); /* the case this test is about did occur */
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_invalid_options(void) {
  astar_grid *g = open_grid(8, 8);
  astar_workspace *ws = ws_for(g);
  astar_point path[64];
  astar_result r;
  astar_options base;
  astar_options_init(&base);

  astar_options bad[40];
  const char *what[40];
  int n = 0;
#define BAD(desc, field, value)                                                                    \
  do {                                                                                             \
    bad[n] = base;                                                                                 \
    bad[n].field = value;                                                                          \
    what[n++] = desc;                                                                              \
  } while (0)
  BAD("moves 5", moves, 5);
  BAD("moves 0", moves, 0);
  BAD("moves -8", moves, -8);
  BAD("moves 6", moves, 6);
  BAD("moves 16", moves, 16);
  BAD("straight 0", straight_cost, 0.0);
  BAD("straight -1", straight_cost, -1.0);
  BAD("straight NaN", straight_cost, NAN);
  BAD("straight inf", straight_cost, INFINITY);
  BAD("straight -inf", straight_cost, -INFINITY);
  BAD("diagonal 0", diagonal_cost, 0.0);
  BAD("diagonal -1.4", diagonal_cost, -1.4);
  BAD("diagonal NaN", diagonal_cost, NAN);
  BAD("diagonal inf", diagonal_cost, INFINITY);
  BAD("weight -1", weight, -1.0);
  BAD("weight -tiny", weight, -1e-300);
  BAD("weight NaN", weight, NAN);
  BAD("weight inf", weight, INFINITY);
  /* Finite but so large that sums could overflow to inf (a partial path's
  ** cost came out wrong with weight 1e308). */
  BAD("straight above ASTAR_OPTION_MAX", straight_cost, ASTAR_OPTION_MAX * 1.0000001);
  BAD("diagonal 1e300", diagonal_cost, 1e300);
  BAD("weight 1e308", weight, 1e308);
  BAD("weight above ASTAR_OPTION_MAX", weight, ASTAR_OPTION_MAX * 1.0000001);
  BAD("turn penalty 1e308", turn_penalty, 1e308);
  BAD("heuristic floor 1e308", heuristic_floor, 1e308);
  BAD("unknown cost 1e308", unknown_cost, 1e308);
  BAD("callback without fn", heuristic, ASTAR_H_CALLBACK);
  BAD("heuristic 99", heuristic, (astar_heuristic)99);
  BAD("heuristic -1", heuristic, (astar_heuristic)-1);
  BAD("heuristic past CALLBACK", heuristic, (astar_heuristic)(ASTAR_H_CALLBACK + 1));
  BAD("corner 4", corner, (astar_corner)4);
  BAD("corner -1", corner, (astar_corner)-1);
  BAD("tie 3", tie, (astar_tie)3);
  BAD("tie -1", tie, (astar_tie)-1);
  BAD("reopen 3", reopen, (astar_reopen)3);
  BAD("reopen 1000", reopen, (astar_reopen)1000);
#undef BAD
  for (int i = 0; i < n; i++) {
    CHECKF(astar_options_validate(&bad[i]) == ASTAR_INVALID_ARGUMENT, "validate: %s", what[i]);
    memset(&r, 0x5a, sizeof r);
    astar_status st = astar_find_path(ws, g, &bad[i], P(0, 0), P(7, 7), path, 64, &r);
    CHECKF(st == ASTAR_INVALID_ARGUMENT, "find_path: %s gave %d", what[i], (int)st);
    CHECK(result_empty(&r));
    /* Also when the answer would be trivial. */
    st = astar_find_path(ws, g, &bad[i], P(3, 3), P(3, 3), path, 64, &r);
    CHECKF(st == ASTAR_INVALID_ARGUMENT, "find_path start==goal: %s gave %d", what[i], (int)st);
  }
  CHECK_EQ(astar_options_validate(NULL), ASTAR_INVALID_ARGUMENT);

  /* Edge values that are valid. */
  astar_options ok[8];
  int m = 0;
  ok[m] = base, ok[m].weight = 0.0, m++;
  ok[m] = base, ok[m].moves = 4, ok[m].corner = ASTAR_CORNER_NEVER, m++;
  ok[m] = base, ok[m].diagonal_cost = 5.0, m++; /* diagonal never worth it */
  ok[m] = base, ok[m].diagonal_cost = 0.5, m++; /* diagonal cheaper than straight */
  ok[m] = base, ok[m].heuristic = ASTAR_H_CALLBACK, ok[m].heuristic_fn = h_const, m++;
  ok[m] = base, ok[m].heuristic = ASTAR_H_MANHATTAN, m++; /* inadmissible but legal */
  ok[m] = base, ok[m].straight_cost = 1e-300, ok[m].diagonal_cost = ASTAR_OPTION_MAX, m++;
  ok[m] = base, ok[m].max_expansions = UINT64_MAX, m++;
  for (int i = 0; i < m; i++) {
    CHECKF(astar_options_validate(&ok[i]) == ASTAR_OK, "valid option set %d", i);
    astar_status st = astar_find_path(ws, g, &ok[i], P(0, 0), P(7, 7), path, 64, &r);
    CHECKF(st == ASTAR_OK, "option set %d: status %d", i, (int)st);
    char err[200];
    if (st == ASTAR_OK)
      CHECKF(validate_path(g, &ok[i], P(0, 0), P(7, 7), path, r.length, r.cost, err, sizeof err),
             "option set %d: %s", i, err);
  }
  /* Diagonals never worth it: the optimal cost is 14 straight moves. */
  CHECK_EQ(astar_find_path(ws, g, &ok[2], P(0, 0), P(7, 7), path, 64, &r), ASTAR_OK);
  CHECK(cost_equal(r.cost, 14.0));
  CHECK_EQ(astar_find_path(ws, g, &ok[3], P(0, 0), P(7, 0), path, 64, &r), ASTAR_OK);
  CHECKF(cost_equal(r.cost, ref_dijkstra(g, &ok[3], P(0, 0), P(7, 0))), "cost %g", r.cost);

  /* NULL objects. */
  CHECK_EQ(astar_find_path(NULL, g, NULL, P(0, 0), P(7, 7), path, 64, &r), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_find_path(ws, NULL, NULL, P(0, 0), P(7, 7), path, 64, &r), ASTAR_INVALID_ARGUMENT);
  astar_workspace *w2 = (astar_workspace *)1;
  CHECK_EQ(astar_workspace_new(&w2, NULL, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(w2 == NULL);
  CHECK_EQ(astar_workspace_new(NULL, g, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_workspace_reserve(NULL, g), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_workspace_reserve(ws, NULL), ASTAR_INVALID_ARGUMENT);
  astar_workspace_free(NULL);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_capacity(void) {
  astar_grid *small = open_grid(8, 8), *big = open_grid(64, 64), *same = open_grid(3, 17);
  astar_workspace *ws = ws_for(small);
  astar_point path[256];
  astar_result r;
  char err[200];
  size_t mem0 = astar_workspace_memory(ws);
  CHECK(mem0 > 0);
  memset(&r, 0x5a, sizeof r);
  astar_status st = astar_find_path(ws, big, NULL, P(0, 0), P(63, 63), path, 256, &r);
  CHECKF(st == ASTAR_CAPACITY, "status %d", (int)st);
  CHECK(result_empty(&r));
  /* A grid with no more padded cells ((3+2)*(17+2) = 95 <= (8+2)^2) fits. */
  CHECK_EQ(astar_find_path(ws, same, NULL, P(0, 0), P(2, 16), path, 256, &r), ASTAR_OK);
  CHECKF(validate_path(same, NULL, P(0, 0), P(2, 16), path, r.length, r.cost, err, sizeof err),
         "%s", err);
  /* Reserving for a smaller grid changes nothing. */
  CHECK_EQ(astar_workspace_reserve(ws, same), ASTAR_OK);
  CHECK_EQ(astar_workspace_memory(ws), mem0);
  CHECK_EQ(astar_workspace_reserve(ws, big), ASTAR_OK);
  CHECK(astar_workspace_memory(ws) > mem0);
  CHECK_EQ(astar_find_path(ws, big, NULL, P(0, 0), P(63, 63), path, 256, &r), ASTAR_OK);
  CHECKF(validate_path(big, NULL, P(0, 0), P(63, 63), path, r.length, r.cost, err, sizeof err),
         "%s", err);
  /* Still works on the small grid. */
  CHECK_EQ(astar_find_path(ws, small, NULL, P(7, 0), P(0, 7), path, 256, &r), ASTAR_OK);
  CHECKF(validate_path(small, NULL, P(7, 0), P(0, 7), path, r.length, r.cost, err, sizeof err),
         "%s", err);
  /* "about 44 bytes per cell" */
  CHECKF(astar_workspace_memory(ws) >= (size_t)66 * 66 * 8, "%zu", astar_workspace_memory(ws));
  CHECKF(astar_workspace_memory(ws) <= (size_t)66 * 66 * 100, "%zu", astar_workspace_memory(ws));
  astar_workspace_free(ws);
  astar_grid_free(small);
  astar_grid_free(big);
  astar_grid_free(same);
}

/* The example of the first tutorial (seed 000): a 7x5 field, A at (1,2), a
** wall in column 3 over rows 1-3, B at (5,2), straight 10 and diagonal 14,
** corners may not be cut. The path goes round an end of the wall:
** 14 + 10 + 10 + 10 + 14 + 10 = 68 (the figures' shortest path). */
static void test_tutorial(void) {
  static const char *const rows[] = {
      ".......", "...#...", "...#...", "...#...", ".......",
  };
  astar_grid *g = grid_of(rows, 5);
  astar_workspace *ws = ws_for(g);
  astar_point path[32];
  astar_result r;
  char err[200];
  astar_options o;
  astar_options_init(&o);
  o.straight_cost = 10;
  o.diagonal_cost = 14;
  CHECK_EQ(astar_find_path(ws, g, &o, P(1, 2), P(5, 2), path, 32, &r), ASTAR_OK);
  CHECKF(r.cost == 68.0, "cost %g", r.cost);
  CHECK_EQ(r.length, 7);
  CHECKF(validate_path(g, &o, P(1, 2), P(5, 2), path, r.length, r.cost, err, sizeof err), "%s",
         err);
  CHECK(ref_dijkstra(g, &o, P(1, 2), P(5, 2)) == 68.0);
  /* Every tie order finds the same cost. */
  for (int t = ASTAR_TIE_LARGER_G; t <= ASTAR_TIE_CROSS; t++) {
    o.tie = (astar_tie)t;
    CHECK_EQ(astar_find_path(ws, g, &o, P(1, 2), P(5, 2), path, 32, &r), ASTAR_OK);
    CHECK(r.cost == 68.0);
  }
  o.tie = ASTAR_TIE_LARGER_G;
  /* With corner cutting: two diagonals past each end, 4 * 14 = 56. */
  o.corner = ASTAR_CORNER_ALWAYS;
  CHECK_EQ(astar_find_path(ws, g, &o, P(1, 2), P(5, 2), path, 32, &r), ASTAR_OK);
  CHECKF(r.cost == 56.0, "cost %g", r.cost);
  CHECK_EQ(r.length, 5);
  /* Four-way moves: round the wall, 8 straight steps. */
  o.moves = 4;
  CHECK_EQ(astar_find_path(ws, g, &o, P(1, 2), P(5, 2), path, 32, &r), ASTAR_OK);
  CHECKF(r.cost == 80.0, "cost %g", r.cost);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* One workspace, many searches on interleaved grids of different sizes:
** stale records from an earlier search must never leak into a later one. */
static void test_workspace_reuse(void) {
  enum { NG = 6 };
  astar_grid *gs[NG];
  rng rr;
  rng_seed(&rr, 4242);
  for (int i = 0; i < NG; i++) {
    randmap_spec sp = {rng_range(&rr, 1, 64), rng_range(&rr, 1, 64), 0.3, i & 1, 0.5, 5.0};
    if (i == 0) sp.width = sp.height = 64;
    CHECK_EQ(randmap_make(&gs[i], &sp, &rr), ASTAR_OK);
  }
  astar_workspace *ws = ws_for(gs[0]);
  astar_point path[64 * 64], path2[64 * 64];
  astar_result r, r2;
  char err[200];
  int found = 0;
  for (int q = 0; q < 600; q++) {
    astar_grid *g = gs[rng_range(&rr, 0, NG - 1)];
    astar_options o;
    astar_options_init(&o);
    o.moves = (q % 3) ? 8 : 4;
    o.corner = (astar_corner)(q % 4);
    astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
    if (s.x < 0) continue;
    double want = ref_dijkstra(g, &o, s, t);
    astar_status st = astar_find_path(ws, g, &o, s, t, path, (size_t)64 * 64, &r);
    if (want < 0) {
      CHECKF(st == ASTAR_NO_PATH, "query %d: status %d, expected no path", q, (int)st);
      continue;
    }
    CHECKF(st == ASTAR_OK, "query %d: status %d", q, (int)st);
    if (st != ASTAR_OK) continue;
    found++;
    CHECKF(validate_path(g, &o, s, t, path, r.length, r.cost, err, sizeof err), "query %d: %s", q,
           err);
    CHECKF(cost_equal(r.cost, want), "query %d: cost %.17g, optimal %.17g", q, r.cost, want);
    /* A fresh workspace gives the very same answer. */
    if (q % 10 == 0) {
      astar_workspace *fresh = ws_for(g);
      CHECK_EQ(astar_find_path(fresh, g, &o, s, t, path2, (size_t)64 * 64, &r2), ASTAR_OK);
      CHECK(r2.length == r.length && r2.cost == r.cost);
      CHECK(memcmp(path, path2, r.length * sizeof path[0]) == 0);
      CHECK(memcmp(&r.stats, &r2.stats, sizeof r.stats) == 0);
      astar_workspace_free(fresh);
    }
  }
  CHECK(found > 300);
  astar_workspace_free(ws);
  for (int i = 0; i < NG; i++) astar_grid_free(gs[i]);
}

/* Tens of thousands of searches on one workspace, so that any per-search
** generation counter wraps around; full searches at regular intervals
** (a power of two apart) must never see marks left by an earlier one. */
static void test_generation_wrap(void) {
  rng rr;
  rng_seed(&rr, 31337);
  randmap_spec sp = {30, 30, 0.25, 0, 0, 0};
  astar_grid *g = NULL;
  CHECK_EQ(randmap_make(&g, &sp, &rr), ASTAR_OK);
  astar_grid_set_passable(g, 0, 0, true);
  astar_grid_set_passable(g, 1, 0, true);
  astar_workspace *ws = ws_for(g);
  astar_point path[900];
  astar_result r;
  char err[200];
  int bad = 0, full = 0;
  for (long i = 0; i < 140000 && bad < 5; i++) {
    if (i % 1024 == 0 || (i > 65530 && i < 65540) || (i > 32762 && i < 32772)) {
      astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
      double want = ref_dijkstra(g, NULL, s, t);
      astar_status st = astar_find_path(ws, g, NULL, s, t, path, 900, &r);
      full++;
      if (want < 0 ? st != ASTAR_NO_PATH
                   : (st != ASTAR_OK || !cost_equal(r.cost, want) ||
                      !validate_path(g, NULL, s, t, path, r.length, r.cost, err, sizeof err))) {
        CHECKF(0, "search %ld: status %d cost %.17g, reference %.17g", i, (int)st, r.cost, want);
        bad++;
      }
    } else {
      /* A one-step search: cheap, but a full search cycle all the same. */
      astar_status st = astar_find_path(ws, g, NULL, P(0, 0), P(1, 0), path, 900, &r);
      if (st != ASTAR_OK || r.length != 2) {
        CHECKF(0, "search %ld: one-step search gave %d", i, (int)st);
        bad++;
      }
    }
  }
  CHECK(full > 100);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Growing the node records keeps the generation going: the turn states,
** reserved for a larger grid beforehand, keep their marks from a search
** before the growth, and a turn search after it must not read them as its
** own (it did when growing restarted the generation: states of the first
** search read as closed, and the second found another path). */
static void test_grow_keeps_turn_marks(void) {
  astar_grid *small = NULL, *big = NULL;
  CHECK_EQ(astar_grid_new(&small, 6, 6, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&big, 24, 24, NULL), ASTAR_OK);
  astar_grid_fill(small, true);
  astar_grid_fill(big, true);
  astar_options o;
  astar_options_init(&o);
  o.turn_penalty = 0.5;
  astar_workspace *ws = NULL, *fresh = NULL;
  CHECK_EQ(astar_workspace_new_empty(&ws, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve_turns(ws, big), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve(ws, small), ASTAR_OK);
  astar_point path[24 * 24], path2[24 * 24];
  astar_result r, r2;
  CHECK_EQ(astar_find_path(ws, small, &o, P(0, 0), P(5, 5), path, 36, &r), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve(ws, big), ASTAR_OK); /* grows the records */
  CHECK_EQ(astar_find_path(ws, big, &o, P(0, 0), P(23, 9), path, 24 * 24, &r), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&fresh, big, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve_turns(fresh, big), ASTAR_OK);
  CHECK_EQ(astar_find_path(fresh, big, &o, P(0, 0), P(23, 9), path2, 24 * 24, &r2), ASTAR_OK);
  CHECKF(r.length == r2.length && r.cost == r2.cost,
         "after growing: length %zu cost %g, fresh: %zu %g", r.length, r.cost, r2.length, r2.cost);
  CHECK(r.length != r2.length || memcmp(path, path2, r.length * sizeof path[0]) == 0);
  CHECK(memcmp(&r.stats, &r2.stats, sizeof r.stats) == 0);
  astar_workspace_free(fresh);
  astar_workspace_free(ws);
  astar_grid_free(big);
  astar_grid_free(small);
}

/* Largest distance of a path cell from the straight start-goal line. */
static double max_deviation(const astar_point *p, size_t n, astar_point s, astar_point t) {
  double dx = t.x - s.x, dy = t.y - s.y, len = sqrt(dx * dx + dy * dy), worst = 0;
  for (size_t i = 0; i < n; i++) {
    double d = fabs((p[i].x - s.x) * dy - (p[i].y - s.y) * dx) / len;
    if (d > worst) worst = d;
  }
  return worst;
}

static void test_tie_modes(void) {
  astar_grid *g = open_grid(40, 40);
  astar_workspace *ws = ws_for(g);
  astar_point path[3][128];
  astar_result r[3];
  char err[200];
  astar_point s = P(2, 3), t = P(32, 15);
  double dev[3];
  for (int tie = 0; tie < 3; tie++) {
    astar_options o;
    astar_options_init(&o);
    o.tie = (astar_tie)tie;
    CHECK_EQ(astar_find_path(ws, g, &o, s, t, path[tie], 128, &r[tie]), ASTAR_OK);
    CHECKF(validate_path(g, &o, s, t, path[tie], r[tie].length, r[tie].cost, err, sizeof err),
           "tie %d: %s", tie, err);
    CHECKF(cost_equal(r[tie].cost, 18 + 12 * sqrt(2.0)), "tie %d: cost %.17g", tie, r[tie].cost);
    dev[tie] = max_deviation(path[tie], r[tie].length, s, t);
  }
  /* CROSS hugs the straight line; NEWEST runs diagonal first then straight
  ** (its newest equal-f node is the last generated, a diagonal). */
  CHECKF(dev[ASTAR_TIE_CROSS] <= 1.5, "cross path strays %.2f cells from the line",
         dev[ASTAR_TIE_CROSS]);
  CHECKF(dev[ASTAR_TIE_NEWEST] > dev[ASTAR_TIE_CROSS] + 2.0, "newest deviation %.2f vs cross %.2f",
         dev[ASTAR_TIE_NEWEST], dev[ASTAR_TIE_CROSS]);
  /* On an open grid the consistent heuristic with larger-g ties goes
  ** straight for the goal: about one expansion per path cell (slack for
  ** f values that differ in the last bit). */
  CHECKF(r[ASTAR_TIE_LARGER_G].stats.expanded <= 2 * r[ASTAR_TIE_LARGER_G].length,
         "larger-g expanded %llu for a %zu-cell path",
         (unsigned long long)r[ASTAR_TIE_LARGER_G].stats.expanded, r[ASTAR_TIE_LARGER_G].length);

  /* Same on 4-connected moves with Manhattan: CROSS gives a staircase. */
  astar_options o;
  astar_options_init(&o);
  o.moves = 4;
  o.tie = ASTAR_TIE_CROSS;
  CHECK_EQ(astar_find_path(ws, g, &o, s, t, path[0], 128, &r[0]), ASTAR_OK);
  CHECK(r[0].cost == 42.0);
  double d4 = max_deviation(path[0], r[0].length, s, t);
  CHECKF(d4 <= 1.5, "4-way cross path strays %.2f", d4);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/*
** Exact ties on open maps of every shape up to the side limit (issue 12's
** cliff): with the move costs on query.c's quantum, every node of the
** optimal tie front has a bit-identical f, so larger-g ties walk straight to
** the goal. Before, on a 16384 x 2048 map A* expanded 23.7 M nodes for a
** 16,384-cell path. Bound: the path's cells plus one tie front (a diagonal
** line of the rectangle spanned by start and goal). Several cost pairs,
** 8 and 4 moves; the cost against the closed form.
*/
static void test_open_maps_exact_ties(void) {
  static const int32_t sizes[][2] = {{2, 2},      {3, 700},     {64, 64},     {1000, 9},
                                     {512, 512},  {4096, 1024}, {2048, 2048}, {32768, 64},
                                     {64, 32768}, {16384, 256}};
  static const double costs[][2] = {
      {1.0, 1.4142135623730951}, {10.0, 14.0}, {1.0, 1.5}, {0.3, 0.41}, {2.5, 3.1}};
  rng rr;
  rng_seed(&rr, 2026);
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    const int32_t w = sizes[k][0], h = sizes[k][1];
    astar_grid *g = open_grid(w, h);
    astar_workspace *ws = ws_for(g);
    CHECK(g && ws);
    const size_t cap = (size_t)w + (size_t)h + 2;
    astar_point *path = malloc(sizeof(astar_point) * cap);
    for (int q = 0; q < 12 && g && ws && path; q++) {
      astar_point s = P(0, 0), t = P(w - 1, h - 1);
      if (q == 1) s = P(w - 1, 0), t = P(0, h - 1);
      if (q >= 2) {
        s = P(rng_range(&rr, 0, w - 1), rng_range(&rr, 0, h - 1));
        t = P(rng_range(&rr, 0, w - 1), rng_range(&rr, 0, h - 1));
      }
      const int32_t dx = abs(t.x - s.x), dy = abs(t.y - s.y);
      const int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
      for (size_t c = 0; c < sizeof costs / sizeof *costs; c++) {
        for (int moves = 8; moves >= 4; moves -= 4) {
          astar_options o;
          astar_options_init(&o);
          o.straight_cost = costs[c][0];
          o.diagonal_cost = costs[c][1];
          o.moves = moves;
          astar_result r;
          CHECK_EQ(astar_find_path(ws, g, &o, s, t, path, cap, &r), ASTAR_OK);
          const double want = moves == 8 ? (hi - lo) * o.straight_cost + lo * o.diagonal_cost
                                         : (dx + dy) * o.straight_cost;
          CHECKF(fabs(r.cost - want) <= 1e-9 * want,
                 "%dx%d (%d,%d)->(%d,%d) costs %g/%g: %.12g vs %.12g", w, h, s.x, s.y, t.x, t.y,
                 o.straight_cost, o.diagonal_cost, r.cost, want);
          const uint64_t bound = (uint64_t)r.length + (uint64_t)lo + 1;
          CHECKF(r.stats.expanded <= bound,
                 "%dx%d (%d,%d)->(%d,%d) costs %g/%g moves %d: expanded %llu, path %zu cells", w, h,
                 s.x, s.y, t.x, t.y, o.straight_cost, o.diagonal_cost, moves,
                 (unsigned long long)r.stats.expanded, r.length);
        }
        if (w * h > 300000) break; /* the large maps: default costs only (time) */
      }
    }
    free(path);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
}

static void test_stats(void) {
  rng rr;
  rng_seed(&rr, 99);
  astar_grid *g;
  randmap_spec sp = {48, 48, 0.25, 0, 0, 0};
  CHECK_EQ(randmap_make(&g, &sp, &rr), ASTAR_OK);
  astar_workspace *ws = ws_for(g);
  astar_point path[48 * 48];
  astar_result r;
  for (int q = 0; q < 200; q++) {
    astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
    astar_status st = astar_find_path(ws, g, NULL, s, t, path, (size_t)48 * 48, &r);
    if (st != ASTAR_OK && st != ASTAR_NO_PATH) {
      CHECKF(0, "status %d", (int)st);
      continue;
    }
    if (s.x == t.x && s.y == t.y) continue;
    CHECKF(r.stats.generated + 1 >= r.stats.expanded, "generated %llu expanded %llu",
           (unsigned long long)r.stats.generated, (unsigned long long)r.stats.expanded);
    CHECK(r.stats.max_open >= 1);
    CHECK(r.stats.max_open <= r.stats.generated + 1);
    CHECK(r.stats.expanded >= 1);
    CHECK_EQ(r.stats.reopened, 0); /* octile is consistent: nothing reopens */
    if (st == ASTAR_OK) CHECK(r.stats.expanded >= r.length - 1);
    CHECK(r.stats.expanded <= astar_grid_count_passable(g));
  }
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_path_cost(void) {
  static const char *const rows[] = {
      "......",
      ".#..2.",
      "..#...",
      "......",
  };
  astar_grid *g = grid_of(rows, 4);
  astar_options o;
  astar_options_init(&o);
  double c = -1, mine;
  size_t bad = 77;
  char err[200];

  /* A legal walk: straight, diagonal, into terrain 2. */
  astar_point ok[] = {P(0, 0), P(1, 0), P(2, 0), P(3, 1), P(4, 1), P(5, 2)};
  CHECK_EQ(astar_path_cost(g, &o, ok, 6, &c, &bad), ASTAR_OK);
  CHECKF(validate_walk(g, &o, ok, 6, &mine, NULL, err, sizeof err), "%s", err);
  CHECKF(cost_equal(c, mine), "library %.17g, validator %.17g", c, mine);
  CHECK(cost_equal(c, 1 + 1 + sqrt(2.0) + 2 + sqrt(2.0)));
  CHECK_EQ(astar_path_cost(g, NULL, ok, 6, &c, NULL), ASTAR_OK);
  CHECK(cost_equal(c, mine));
  o.straight_cost = 10, o.diagonal_cost = 14;
  CHECK_EQ(astar_path_cost(g, &o, ok, 6, &c, &bad), ASTAR_OK);
  CHECK(c == 10 + 10 + 14 + 20 + 14);
  astar_options_init(&o);
  /* One cell: cost 0 (terrain of the start is never paid). */
  CHECK_EQ(astar_path_cost(g, &o, &ok[4], 1, &c, &bad), ASTAR_OK);
  CHECK(c == 0.0);

  struct {
    astar_point p[6];
    size_t n, bad;
    int moves;
    astar_corner corner;
    const char *what;
  } cases[] = {
      {{P(0, 0), P(1, 0), P(1, 1), P(1, 2)}, 4, 2, 8, ASTAR_CORNER_NO_CUT, "enters a blocked cell"},
      {{P(1, 1), P(1, 0)}, 2, 0, 8, ASTAR_CORNER_NO_CUT, "starts on a blocked cell"},
      {{P(-1, 0), P(0, 0)}, 2, 0, 8, ASTAR_CORNER_NO_CUT, "starts outside"},
      {{P(0, 3), P(0, 4)}, 2, 1, 8, ASTAR_CORNER_NO_CUT, "leaves the grid"},
      {{P(5, 3), P(6, 3)}, 2, 1, 8, ASTAR_CORNER_NO_CUT, "leaves the grid east"},
      {{P(0, 0), P(1, 0), P(3, 0)}, 3, 2, 8, ASTAR_CORNER_NO_CUT, "jumps two columns"},
      {{P(0, 0), P(1, 0), P(1, 0)}, 3, 2, 8, ASTAR_CORNER_NO_CUT, "stands still"},
      {{P(0, 3), P(2, 1)}, 2, 1, 8, ASTAR_CORNER_ALWAYS, "jumps diagonally"},
      {{P(3, 3), P(4, 3), P(5, 2)}, 3, 2, 4, ASTAR_CORNER_NO_CUT, "diagonal with 4 moves"},
      {{P(3, 3), P(4, 3), P(5, 2)}, 3, 2, 8, ASTAR_CORNER_NEVER, "diagonal with NEVER"},
      {{P(0, 0), P(1, 0), P(2, 1)}, 3, 2, 8, ASTAR_CORNER_NO_CUT, "cuts a corner"},
      {{P(1, 2), P(2, 1)}, 2, 1, 8, ASTAR_CORNER_ONE_SIDE, "squeezes between two walls"},
      {{P(1, 2), P(2, 1)}, 2, 1, 8, ASTAR_CORNER_NO_CUT, "squeezes (no-cut)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    o.moves = cases[i].moves;
    o.corner = cases[i].corner;
    bad = 77;
    c = 123;
    astar_status st = astar_path_cost(g, &o, cases[i].p, cases[i].n, &c, &bad);
    CHECKF(st == ASTAR_INVALID_ARGUMENT, "%s: status %d", cases[i].what, (int)st);
    CHECKF(bad == cases[i].bad, "%s: bad_index %zu, expected %zu", cases[i].what, bad,
           cases[i].bad);
    size_t vbad = 99;
    CHECKF(!validate_walk(g, &o, cases[i].p, cases[i].n, NULL, &vbad, err, sizeof err),
           "validator accepts: %s", cases[i].what);
    CHECKF(vbad == cases[i].bad, "validator: %s: bad %zu", cases[i].what, vbad);
    /* bad_index may be NULL */
    CHECK_EQ(astar_path_cost(g, &o, cases[i].p, cases[i].n, &c, NULL), ASTAR_INVALID_ARGUMENT);
  }
  /* The same diagonal moves are legal under looser corner rules. */
  astar_options_init(&o);
  astar_point cut[] = {P(0, 0), P(1, 0), P(2, 1)};
  astar_point squeeze[] = {P(1, 2), P(2, 1)};
  o.corner = ASTAR_CORNER_ONE_SIDE;
  CHECK_EQ(astar_path_cost(g, &o, cut, 3, &c, &bad), ASTAR_OK);
  CHECK(cost_equal(c, 1 + sqrt(2.0)));
  o.corner = ASTAR_CORNER_ALWAYS;
  CHECK_EQ(astar_path_cost(g, &o, cut, 3, &c, &bad), ASTAR_OK);
  CHECK_EQ(astar_path_cost(g, &o, squeeze, 2, &c, &bad), ASTAR_OK);
  CHECK(cost_equal(c, sqrt(2.0)));
  /* Bad arguments. */
  CHECK_EQ(astar_path_cost(NULL, &o, cut, 3, &c, &bad), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_cost(g, &o, NULL, 3, &c, &bad), ASTAR_INVALID_ARGUMENT);
  o.moves = 5;
  CHECK_EQ(astar_path_cost(g, &o, cut, 3, &c, &bad), ASTAR_INVALID_ARGUMENT);

  /* Agreement with the validator on many searched paths. */
  astar_grid_free(g);
  rng rr;
  rng_seed(&rr, 5);
  randmap_spec sp = {40, 30, 0.3, 1, 0.5, 5.0};
  CHECK_EQ(randmap_make(&g, &sp, &rr), ASTAR_OK);
  astar_workspace *ws = ws_for(g);
  astar_point path[40 * 30];
  astar_result r;
  for (int q = 0; q < 200; q++) {
    astar_options_init(&o);
    o.moves = (q & 1) ? 8 : 4;
    o.corner = (astar_corner)(q / 2 % 4);
    o.straight_cost = (q & 4) ? 10 : 1;
    o.diagonal_cost = (q & 4) ? 14 : sqrt(2.0);
    astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
    if (astar_find_path(ws, g, &o, s, t, path, (size_t)40 * 30, &r) != ASTAR_OK) continue;
    CHECK_EQ(astar_path_cost(g, &o, path, r.length, &c, &bad), ASTAR_OK);
    CHECKF(validate_walk(g, &o, path, r.length, &mine, NULL, err, sizeof err), "%s", err);
    CHECKF(cost_equal(c, mine) && cost_equal(c, r.cost),
           "path_cost %.17g validator %.17g search %.17g", c, mine, r.cost);
    /* Corrupt one cell: both must reject it at the same index. */
    if (r.length >= 3) {
      size_t k = 1 + (size_t)rng_range(&rr, 0, (int32_t)r.length - 3);
      astar_point keep = path[k];
      path[k] = P(path[k - 1].x + 2, path[k - 1].y);
      size_t vb = 0, lb = 0;
      int v = validate_walk(g, &o, path, r.length, NULL, &vb, err, sizeof err);
      astar_status st = astar_path_cost(g, &o, path, r.length, &c, &lb);
      CHECK(!v);
      CHECK_EQ(st, ASTAR_INVALID_ARGUMENT);
      CHECKF(vb == lb, "validator says %zu, library %zu", vb, lb);
      CHECK(lb == k);
      path[k] = keep;
    }
  }
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_strerror(void) {
  const char *seen[ASTAR_STATUS_COUNT];
  for (int s = 0; s < ASTAR_STATUS_COUNT; s++) {
    const char *m = astar_strerror((astar_status)s);
    CHECKF(m != NULL && m[0] != '\0', "status %d", s);
    if (!m) m = "";
    CHECKF(strcmp(m, "unknown status") != 0, "status %d has no text", s);
    CHECKF(m[0] && m[strlen(m) - 1] != '.', "status %d: text ends with a period", s);
    for (int k = 0; k < s; k++)
      CHECKF(strcmp(seen[k], m) != 0, "statuses %d and %d share text", k, s);
    seen[s] = m;
  }
  CHECK(strcmp(astar_strerror(ASTAR_STATUS_COUNT), "unknown status") == 0);
  CHECK(strcmp(astar_strerror((astar_status)-1), "unknown status") == 0);
  CHECK(strcmp(astar_strerror((astar_status)12345), "unknown status") == 0);
  CHECK(strcmp(astar_version(), ASTAR_VERSION_STRING) == 0);
}

int main(void) {
  RUN(test_options_init);
  RUN(test_start_is_goal);
  RUN(test_blocked_endpoints);
  RUN(test_out_of_bounds);
  RUN(test_unreachable);
  RUN(test_expansion_limit);
  RUN(test_buffer_too_small);
  RUN(test_one_by_one);
  RUN(test_corridors);
  RUN(test_invalid_options);
  RUN(test_partial_cost_large_weight);
  RUN(test_capacity);
  RUN(test_tutorial);
  RUN(test_workspace_reuse);
  RUN(test_generation_wrap);
  RUN(test_grow_keeps_turn_marks);
  RUN(test_tie_modes);
  RUN(test_stats);
  RUN(test_path_cost);
  RUN(test_strerror);
  RUN(test_huge_grid);
  RUN(test_open_maps_exact_ties);
  return check_summary();
}
