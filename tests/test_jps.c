/*
** test_jps.c -- Jump Point Search (options.algorithm = ASTAR_ALGO_JPS):
** optimal costs equal to the reference Dijkstra and to A* on thousands of
** seeded random maps (random obstacles, 1-wide mazes, rooms, open fields,
** sides around the 64-bit block boundaries of the bit scans), legal paths,
** every documented outcome, every ASTAR_UNSUPPORTED case, the status order,
** other move costs, weighted search and determinism.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})

static astar_options jps_opts(void) {
  astar_options o;
  astar_options_init(&o);
  o.algorithm = ASTAR_ALGO_JPS;
  return o;
}

static astar_grid *open_grid(int32_t w, int32_t h) {
  astar_grid *g = NULL;
  astar_grid_new(&g, w, h, NULL);
  return g;
}

/* A grid from rows of text: '#' blocked, anything else passable. */
static astar_grid *grid_of(const char *const *rows, int h) {
  astar_grid *g = open_grid((int32_t)strlen(rows[0]), h);
  for (int y = 0; g && y < h; y++)
    for (int x = 0; rows[y][x]; x++)
      if (rows[y][x] == '#') astar_grid_set_passable(g, x, y, false);
  return g;
}

static astar_workspace *ws_for(const astar_grid *g) {
  astar_workspace *ws = NULL;
  astar_workspace_new(&ws, g, NULL);
  return ws;
}

/* ---- map generators --------------------------------------------------------- */

enum { MAP_RANDOM, MAP_MAZE, MAP_ROOMS, MAP_OPEN, MAP_KINDS };

/* A perfect maze of 1-wide corridors (randomised depth-first search over
** the even cells), with a few extra walls knocked down so there are loops. */
static void carve_maze(astar_grid *g, rng *r) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  astar_grid_fill(g, false);
  const int32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  int32_t *stack = malloc(sizeof(int32_t) * (size_t)cw * (size_t)ch);
  unsigned char *seen = calloc((size_t)cw * (size_t)ch, 1);
  if (!stack || !seen) goto done;
  size_t n = 0;
  stack[n++] = 0;
  seen[0] = 1;
  astar_grid_set_passable(g, 0, 0, true);
  while (n) {
    const int32_t c = stack[n - 1], cx = c % cw, cy = c / cw;
    int32_t opts[4], k = 0;
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; d++) {
      const int32_t nx = cx + dx[d], ny = cy + dy[d];
      if (nx >= 0 && ny >= 0 && nx < cw && ny < ch && !seen[ny * cw + nx]) opts[k++] = d;
    }
    if (!k) {
      n--;
      continue;
    }
    const int d = opts[rng_range(r, 0, k - 1)];
    const int32_t nx = cx + dx[d], ny = cy + dy[d];
    seen[ny * cw + nx] = 1;
    astar_grid_set_passable(g, 2 * cx + dx[d], 2 * cy + dy[d], true);
    astar_grid_set_passable(g, 2 * nx, 2 * ny, true);
    stack[n++] = ny * cw + nx;
  }
  for (int32_t i = (w * h) / 40; i > 0; i--)
    astar_grid_set_passable(g, rng_range(r, 0, w - 1), rng_range(r, 0, h - 1), true);
done:
  free(stack);
  free(seen);
}

/* Open space with random rectangles (some 1 cell thick) and a sprinkle of
** single obstacles: long straight and diagonal runs with many corners. */
static void place_rooms(astar_grid *g, rng *r) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const int32_t rects = rng_range(r, 0, 2 + (w * h) / 300);
  for (int32_t i = 0; i < rects; i++) {
    const int32_t x0 = rng_range(r, 0, w - 1), y0 = rng_range(r, 0, h - 1);
    const int32_t rw = rng_range(r, 1, 1 + w / 3), rh = rng_range(r, 1, 1 + h / 3);
    for (int32_t y = y0; y < y0 + rh && y < h; y++)
      for (int32_t x = x0; x < x0 + rw && x < w; x++) astar_grid_set_passable(g, x, y, false);
  }
  for (int32_t i = rng_range(r, 0, (w * h) / 50); i > 0; i--)
    astar_grid_set_passable(g, rng_range(r, 0, w - 1), rng_range(r, 0, h - 1), false);
}

/* A map of the given kind; side lengths drawn from `sides` half the time
** (the block boundaries of the scans), else at random up to max_side. */
static astar_grid *make_map(int kind, rng *r, int32_t max_side) {
  static const int32_t sides[] = {1,   2,   3,   61,  62,  63,  64,  65,  66,
                                  126, 127, 128, 129, 130, 189, 190, 191, 192};
  const int nsides = (int)(sizeof sides / sizeof sides[0]);
  int32_t w = rng_range(r, 1, max_side), h = rng_range(r, 1, max_side);
  if (rng_next(r) & 1) w = sides[rng_range(r, 0, nsides - 1)];
  if (rng_next(r) & 1) h = sides[rng_range(r, 0, nsides - 1)];
  astar_grid *g = NULL;
  if (kind == MAP_RANDOM) {
    randmap_spec spec = {w, h, rng_unit(r) * 0.45, 0, 0.5, 5.0};
    if (randmap_make(&g, &spec, r) != ASTAR_OK) return NULL;
    return g;
  }
  g = open_grid(w, h);
  if (!g) return NULL;
  if (kind == MAP_MAZE) carve_maze(g, r);
  if (kind == MAP_ROOMS) place_rooms(g, r);
  if (kind == MAP_OPEN && (rng_next(r) & 1))
    for (int32_t i = rng_range(r, 0, 3); i > 0; i--)
      astar_grid_set_passable(g, rng_range(r, 0, w - 1), rng_range(r, 0, h - 1), false);
  return g;
}

/* ---- checks ----------------------------------------------------------------------- */

typedef struct tally {
  long queries, found, unreachable;
} tally;

/*
** One JPS query against a known optimum `want` (< 0: unreachable). Checks
** the status, the cost, the path's legality and ends, and that A* agrees.
** `bound` > 0 relaxes the cost check to cost <= bound * want (weighted).
*/
static void check_query(astar_workspace *ws, const astar_grid *g, const astar_options *o,
                        astar_point s, astar_point t, double want, double bound, astar_point *path,
                        size_t cap, tally *tl, uint64_t seed) {
  astar_result r;
  char err[256];
  const astar_status st = astar_find_path(ws, g, o, s, t, path, cap, &r);
  tl->queries++;
  if (want < 0) {
    tl->unreachable++;
    CHECKF(st == ASTAR_NO_PATH, "seed %llu (%d,%d)->(%d,%d): status %d, want no path",
           (unsigned long long)seed, s.x, s.y, t.x, t.y, st);
    CHECK(r.length == 0 && r.cost == 0.0);
    return;
  }
  tl->found++;
  CHECKF(st == ASTAR_OK, "seed %llu (%d,%d)->(%d,%d): status %d", (unsigned long long)seed, s.x,
         s.y, t.x, t.y, st);
  if (st != ASTAR_OK) return;
  if (bound > 0)
    CHECKF(r.cost <= bound * want * (1 + 1e-12) + 1e-12,
           "seed %llu (%d,%d)->(%d,%d): cost %.17g > %g * %.17g", (unsigned long long)seed, s.x,
           s.y, t.x, t.y, r.cost, bound, want);
  else
    CHECKF(cost_equal(r.cost, want), "seed %llu (%d,%d)->(%d,%d): cost %.17g, optimal %.17g",
           (unsigned long long)seed, s.x, s.y, t.x, t.y, r.cost, want);
  CHECKF(validate_path(g, o, s, t, path, r.length, r.cost, err, sizeof err),
         "seed %llu (%d,%d)->(%d,%d): %s", (unsigned long long)seed, s.x, s.y, t.x, t.y, err);
  CHECK(r.stats.reopened == 0);
  CHECK(r.stats.expanded >= 1 || (s.x == t.x && s.y == t.y));
}

/* Queries on many random maps of every kind under options `o`: each map
** gets a reference Dijkstra from a few starts, then JPS to several goals
** (reachable or not). Every tenth query is also compared with A*. */
static void random_maps(astar_options o, int maps, int32_t max_side, uint64_t seed0, double bound,
                        tally *tl) {
  astar_options ao = o;
  ao.algorithm = ASTAR_ALGO_ASTAR;
  ao.weight = 1.0;
  for (int m = 0; m < maps; m++) {
    const uint64_t seed = seed0 + (uint64_t)m;
    rng r;
    rng_seed(&r, seed);
    astar_grid *g = make_map((int)(seed % MAP_KINDS), &r, max_side);
    CHECK(g != NULL);
    if (!g) continue;
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    const size_t cells = (size_t)w * (size_t)h;
    double *dist = malloc(sizeof(double) * cells);
    astar_point *path = malloc(sizeof(astar_point) * cells);
    astar_workspace *ws = ws_for(g), *aws = ws_for(g);
    CHECK(dist && path && ws && aws);
    if (!dist || !path || !ws || !aws) goto next;
    for (int k = 0; k < 3; k++) {
      const astar_point s = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      CHECK(ref_dijkstra_all(g, &o, s, dist) != (size_t)-1);
      for (int j = 0; j < 8; j++) {
        const astar_point t = randmap_passable_cell(g, &r);
        const double want = dist[(size_t)t.y * (size_t)w + (size_t)t.x];
        check_query(ws, g, &o, s, t, isinf(want) ? -1 : want, bound, path, cells, tl, seed);
        if (tl->queries % 10 == 0 && bound == 0) {
          astar_result ra, rj;
          const astar_status sa = astar_find_path(aws, g, &ao, s, t, NULL, 0, &ra);
          const astar_status sj = astar_find_path(ws, g, &o, s, t, NULL, 0, &rj);
          CHECK(sa == sj);
          CHECKF(cost_equal(ra.cost, rj.cost), "seed %llu: A* %.17g, JPS %.17g",
                 (unsigned long long)seed, ra.cost, rj.cost);
        }
      }
    }
  next:
    astar_workspace_free(ws);
    astar_workspace_free(aws);
    free(dist);
    free(path);
    astar_grid_free(g);
  }
}

static void test_random_maps(void) {
  tally tl = {0, 0, 0};
  random_maps(jps_opts(), 2500, 160, 1000, 0, &tl);
  CHECK(tl.found > 20000);
  CHECK(tl.unreachable > 1000);
}

/* Whole grids of 62..65 and 126..130 columns and rows: every start and
** goal pair near the block boundaries along long lines. */
static void test_block_boundaries(void) {
  astar_options o = jps_opts();
  tally tl = {0, 0, 0};
  for (int32_t w = 62; w <= 130; w++) {
    if (w > 66 && w < 126) continue;
    for (int vertical = 0; vertical < 2; vertical++) {
      const int32_t gw = vertical ? 3 + w % 4 : w, gh = vertical ? w : 3 + w % 4;
      astar_grid *g = open_grid(gw, gh);
      astar_workspace *ws = ws_for(g);
      const size_t cells = (size_t)gw * (size_t)gh;
      astar_point *path = malloc(sizeof(astar_point) * cells);
      double *dist = malloc(sizeof(double) * cells);
      rng r;
      rng_seed(&r, (uint64_t)w * 2 + (uint64_t)vertical);
      /* Obstacles in the side lines only, so the scans run the whole length
      ** and must notice every blocked-to-free turn. */
      for (int32_t i = 0; i < w / 4; i++) {
        const int32_t a = rng_range(&r, 0, w - 1), b = rng_range(&r, 0, 1) * (3 + w % 4 - 1);
        if (vertical)
          astar_grid_set_passable(g, b, a, false);
        else
          astar_grid_set_passable(g, a, b, false);
      }
      for (int k = 0; k < 6; k++) {
        const astar_point s = randmap_passable_cell(g, &r);
        ref_dijkstra_all(g, &o, s, dist);
        for (int32_t i = 0; i < (int32_t)cells; i++) {
          const astar_point t = {i % gw, i / gw};
          if (!astar_grid_passable(g, t.x, t.y)) continue;
          const double want = dist[i];
          check_query(ws, g, &o, s, t, isinf(want) ? -1 : want, 0, path, cells, &tl, (uint64_t)w);
        }
      }
      free(path);
      free(dist);
      astar_workspace_free(ws);
      astar_grid_free(g);
    }
  }
  CHECK(tl.found > 1000);
}

/*
** Every distance from a scan's origin to its event, in all four directions:
** on a 2-line strip whose first line is blocked but for one hole, the goal
** is the hole, found only as the forced neighbour the scan along the second
** line passes; and on a 1-line strip, a wall at every distance must stop the
** scan. A block-boundary slip in the scans shows up as a missed event.
*/
static void test_every_offset(void) {
  const int32_t n = 300;
  astar_options o = jps_opts();
  astar_point path[2 * 300];
  astar_result r;
  char err[256];
  long bad = 0;
  for (int vertical = 0; vertical < 2; vertical++) {
#define AT(a, b) (vertical ? P(b, a) : P(a, b))
    astar_grid *g = vertical ? open_grid(2, n) : open_grid(n, 2);
    astar_workspace *ws = ws_for(g);
    for (int32_t i = 0; i < n; i++) astar_grid_set_passable(g, AT(i, 0).x, AT(i, 0).y, false);
    for (int32_t hole = 0; hole < n; hole++) {
      astar_grid_set_passable(g, AT(hole, 0).x, AT(hole, 0).y, true);
      for (int32_t s = 0; s < n; s++) {
        /* No diagonal enters the hole (its side cells are walls). */
        const astar_point st = AT(s, 1), t = AT(hole, 0);
        const double want = (double)(s > hole ? s - hole : hole - s) + 1.0;
        const astar_status got = astar_find_path(ws, g, &o, st, t, path, 2 * (size_t)n, &r);
        if (got == ASTAR_OK && r.cost == want &&
            validate_path(g, &o, st, t, path, r.length, r.cost, err, sizeof err))
          continue;
        if (bad++ < 5)
          CHECKF(0, "vertical %d hole %d start %d: status %d cost %.17g", vertical, hole, s, got,
                 r.cost);
      }
      astar_grid_set_passable(g, AT(hole, 0).x, AT(hole, 0).y, false);
    }
    astar_workspace_free(ws);
    astar_grid_free(g);

    g = vertical ? open_grid(1, n) : open_grid(n, 1);
    ws = ws_for(g);
    for (int32_t wall = 0; wall < n; wall++) {
      astar_grid_set_passable(g, AT(wall, 0).x, AT(wall, 0).y, false);
      for (int32_t s = 0; s < n; s++) {
        if (s == wall) continue;
        /* The end beyond the wall is cut off; the near end is not. */
        const astar_point st = AT(s, 0), beyond = AT(s < wall ? n - 1 : 0, 0);
        const astar_point near = AT(s < wall ? 0 : n - 1, 0);
        const bool cut = !(s < wall && wall == n - 1) && !(s > wall && wall == 0);
        const astar_status got1 =
            cut ? astar_find_path(ws, g, &o, st, beyond, path, 2 * (size_t)n, &r) : ASTAR_NO_PATH;
        const astar_status got2 = astar_find_path(ws, g, &o, st, near, path, 2 * (size_t)n, &r);
        if (got1 == ASTAR_NO_PATH && got2 == ASTAR_OK &&
            r.cost == (double)(s < wall ? s : n - 1 - s))
          continue;
        if (bad++ < 5)
          CHECKF(0, "vertical %d wall %d start %d: statuses %d %d", vertical, wall, s, got1, got2);
      }
      astar_grid_set_passable(g, AT(wall, 0).x, AT(wall, 0).y, true);
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
#undef AT
  }
  CHECK_EQ(bad, 0);
}

/* A long 3-row corridor: scans crossing hundreds of 64-bit words. */
static void test_long_lines(void) {
  const int32_t n = 20000;
  astar_options o = jps_opts();
  astar_point *path = malloc(sizeof(astar_point) * (size_t)n);
  char err[256];
  for (int vertical = 0; vertical < 2; vertical++) {
    astar_grid *g = vertical ? open_grid(3, n) : open_grid(n, 3);
    astar_workspace *ws = ws_for(g);
#define AT(a, b) (vertical ? P(b, a) : P(a, b))
    /* A wall stub on the side line far away forces a jump point there. */
    astar_grid_set_passable(g, AT(n / 2, 0).x, AT(n / 2, 0).y, false);
    astar_result r;
    const astar_point s = AT(0, 1), t = AT(n - 1, 1);
    CHECK_EQ(astar_find_path(ws, g, &o, s, t, path, (size_t)n, &r), ASTAR_OK);
    CHECK(r.cost == (double)(n - 1));
    CHECK_EQ(r.length, (size_t)n);
    CHECKF(validate_path(g, &o, s, t, path, r.length, r.cost, err, sizeof err), "%s", err);
    CHECK(r.stats.expanded <= 4);
    const astar_point t2 = AT(n - 1, 0);
    CHECK_EQ(astar_find_path(ws, g, &o, t2, AT(0, 2), path, (size_t)n, &r), ASTAR_OK);
    CHECKF(cost_equal(r.cost, (double)(n - 3) + 2 * sqrt(2.0)), "%.17g", r.cost);
    CHECKF(validate_path(g, &o, t2, AT(0, 2), path, r.length, r.cost, err, sizeof err), "%s", err);
#undef AT
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  free(path);
}

/* Other move costs in the supported range, and the other tie orders. */
static void test_costs_and_ties(void) {
  static const double costs[][2] = {{10, 14}, {1, 1}, {1, 1.99}, {3, 4}, {2, 2.5}};
  for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++) {
    astar_options o = jps_opts();
    o.straight_cost = costs[i][0];
    o.diagonal_cost = costs[i][1];
    tally tl = {0, 0, 0};
    random_maps(o, 200, 100, 50000 + 1000 * i, 0, &tl);
    CHECK(tl.found > 1000);
  }
  for (int tie = ASTAR_TIE_NEWEST; tie <= ASTAR_TIE_CROSS; tie++) {
    astar_options o = jps_opts();
    o.tie = (astar_tie)tie;
    tally tl = {0, 0, 0};
    random_maps(o, 200, 100, 60000 + 1000 * (uint64_t)tie, 0, &tl);
    CHECK(tl.found > 1000);
  }
  astar_options o = jps_opts();
  o.heuristic = ASTAR_H_OCTILE;
  o.reopen = ASTAR_REOPEN_NEVER;
  tally tl = {0, 0, 0};
  random_maps(o, 200, 120, 70000, 0, &tl);
}

/* Weighted JPS: within the weight of optimal; weight 0 is Dijkstra. */
static void test_weighted(void) {
  astar_options o = jps_opts();
  o.weight = 1.5;
  tally tl = {0, 0, 0};
  random_maps(o, 400, 120, 80000, 1.5, &tl);
  CHECK(tl.found > 2000);
  o.weight = 0.0;
  random_maps(o, 100, 100, 90000, 0, &tl);
}

static void test_start_is_goal(void) {
  astar_grid *g = open_grid(70, 5);
  astar_workspace *ws = ws_for(g);
  astar_options o = jps_opts();
  astar_point path[2];
  astar_result r;
  CHECK_EQ(astar_find_path(ws, g, &o, P(66, 2), P(66, 2), path, 2, &r), ASTAR_OK);
  CHECK_EQ(r.length, 1);
  CHECK(r.cost == 0.0);
  CHECK(r.stats.expanded == 0);
  CHECK(path[0].x == 66 && path[0].y == 2);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_outcomes(void) {
  static const char *const rows[] = {
      "....#.....", "....#.....", "....#..#..", "....####..",
      "..........", "######.###", "......#...",
  };
  astar_grid *g = grid_of(rows, 7);
  astar_workspace *ws = ws_for(g);
  astar_options o = jps_opts();
  astar_point path[64];
  astar_result r;
  /* Unreachable: the walled-in bottom-left corner. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(0, 6), path, 64, &r), ASTAR_NO_PATH);
  CHECK(r.length == 0 && r.cost == 0.0 && r.stats.expanded > 0);
  size_t len = 5;
  CHECK_EQ(astar_workspace_path(ws, path, 64, &len), ASTAR_NO_PATH);
  CHECK_EQ(len, 0);
  /* The reverse: the start's region is a closed pocket. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(2, 6), P(9, 0), path, 64, &r), ASTAR_NO_PATH);
  CHECK_EQ(r.stats.expanded, 1); /* the start only: no jump point in the pocket */
  CHECK_EQ(astar_find_path(ws, g, &o, P(4, 0), P(0, 0), path, 64, &r), ASTAR_START_BLOCKED);
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(4, 0), path, 64, &r), ASTAR_GOAL_BLOCKED);
  CHECK_EQ(astar_find_path(ws, g, &o, P(4, 0), P(4, 1), path, 64, &r), ASTAR_START_BLOCKED);
  CHECK_EQ(astar_find_path(ws, g, &o, P(-1, 0), P(4, 1), path, 64, &r), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(10, 0), path, 64, &r), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(0, 7), path, 64, &r), ASTAR_OUT_OF_BOUNDS);

  /* A found path, then too small a buffer, then astar_workspace_path. */
  char err[256];
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 0), path, 64, &r), ASTAR_OK);
  const double want = ref_dijkstra(g, &o, P(0, 0), P(9, 0));
  CHECKF(cost_equal(r.cost, want), "%.17g vs %.17g", r.cost, want);
  CHECKF(validate_path(g, &o, P(0, 0), P(9, 0), path, r.length, r.cost, err, sizeof err), "%s",
         err);
  const size_t n = r.length;
  astar_point small[4];
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 0), small, 4, &r), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(r.length, n);
  CHECK_EQ(astar_workspace_path(ws, path, 64, &len), ASTAR_OK);
  CHECK_EQ(len, n);
  CHECKF(validate_path(g, &o, P(0, 0), P(9, 0), path, len, want, err, sizeof err), "%s", err);

  /* Expansion limit: cut short after exactly max_expansions pops. */
  astar_result full;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 0), path, 64, &full), ASTAR_OK);
  CHECK(full.stats.expanded >= 3);
  for (uint64_t lim = 1; lim < full.stats.expanded; lim++) {
    o.max_expansions = lim;
    CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 0), path, 64, &r), ASTAR_LIMIT_REACHED);
    CHECK_EQ(r.stats.expanded, lim);
    CHECK(r.length == 0 && r.cost == 0.0);
  }
  o.max_expansions = full.stats.expanded;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 0), path, 64, &r), ASTAR_OK);
  CHECK(r.cost == full.cost);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static bool never_stop(void *ctx) {
  (void)ctx;
  return false;
}

/* Every option JPS cannot honour gives ASTAR_UNSUPPORTED; invalid values
** still give ASTAR_INVALID_ARGUMENT first; endpoint checks come after. */
static void test_unsupported(void) {
  astar_grid *g = open_grid(10, 10);
  astar_workspace *ws = ws_for(g);
  astar_point path[32];
  astar_result r;
  astar_options o;
#define UNSUP(stmt)                                                                                \
  do {                                                                                             \
    o = jps_opts();                                                                                \
    stmt;                                                                                          \
    CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_UNSUPPORTED);       \
    CHECK(r.length == 0 && r.cost == 0.0 && r.stats.expanded == 0);                                \
    /* unsupported before the endpoints are looked at */                                           \
    CHECK_EQ(astar_find_path(ws, g, &o, P(-5, 0), P(9, 9), path, 32, &r), ASTAR_UNSUPPORTED);      \
    CHECK_EQ(astar_find_path(ws, g, &o, P(3, 3), P(3, 3), path, 32, &r), ASTAR_UNSUPPORTED);       \
    /* and the reason is a sentence naming JPS */                                                  \
    const char *why_ = astar_unsupported_reason(&o, g);                                            \
    CHECKF(why_ &&strstr(why_, "JPS") && strlen(why_) > 20, "%s: reason %s", #stmt,                \
           why_ ? why_ : "(null)");                                                                \
  } while (0)
  o = jps_opts();
  CHECK(astar_unsupported_reason(&o, g) == NULL);
  o.algorithm = ASTAR_ALGO_ASTAR;
  o.moves = 4;
  CHECK(astar_unsupported_reason(&o, g) == NULL); /* A* honours everything */
  CHECK(astar_unsupported_reason(NULL, g) == NULL);
  UNSUP(o.moves = 4);
  UNSUP(o.corner = ASTAR_CORNER_ALWAYS);
  UNSUP(o.corner = ASTAR_CORNER_ONE_SIDE);
  UNSUP(o.corner = ASTAR_CORNER_NEVER);
  UNSUP(o.straight_cost = 2.0);                          /* straight > diagonal */
  UNSUP(o.diagonal_cost = 2.0);                          /* diagonal == 2 * straight */
  UNSUP((o.straight_cost = 1.0, o.diagonal_cost = 3.0)); /* diagonal > 2 * straight */
  UNSUP(o.heuristic = ASTAR_H_MANHATTAN);
  UNSUP(o.heuristic = ASTAR_H_CHEBYSHEV);
  UNSUP(o.heuristic = ASTAR_H_EUCLIDEAN);
  UNSUP(o.heuristic = ASTAR_H_ZERO);
  UNSUP(o.reopen = ASTAR_REOPEN_ALWAYS);
  /* Features of the general A* loop that JPS does not implement. */
  UNSUP(o.partial = true);
  UNSUP((o.stop_fn = never_stop, o.stop_interval = 16));
  UNSUP(o.turn_penalty = 0.5);
  astar_layer *layer = NULL;
  astar_knowledge *know = NULL;
  astar_islands *isl = NULL;
  CHECK_EQ(astar_layer_new(&layer, 10, 10, NULL), ASTAR_OK);
  CHECK_EQ(astar_knowledge_new(&know, g, NULL), ASTAR_OK);
  CHECK_EQ(astar_islands_new(&isl, g, NULL, NULL), ASTAR_OK);
  const astar_layer *layers[1] = {layer};
  const float lw[1] = {1.0f};
  UNSUP((o.layers = layers, o.layer_weights = lw, o.nlayers = 1));
  UNSUP(o.knowledge = know);
  UNSUP(o.islands = isl);
  astar_islands_free(isl);
  astar_knowledge_free(know);
  astar_layer_free(layer);
#undef UNSUP
  /* A grid with a terrain layer, even an all-ones one. */
  astar_grid_set_terrain(g, 5, 5, 2.0f);
  astar_grid_set_terrain(g, 5, 5, 1.0f);
  CHECK(astar_grid_has_terrain(g));
  o = jps_opts();
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_UNSUPPORTED);
  {
    const char *why = astar_unsupported_reason(&o, g);
    CHECK(why && strstr(why, "terrain") && strstr(why, "uniform costs"));
  }
  astar_grid_clear_terrain(g);
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_OK);
  CHECK_EQ(r.length, 10);

  /* Invalid values first: a bad option value is an invalid argument even
  ** when it would also be unsupported. */
  o = jps_opts();
  o.moves = 6;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_INVALID_ARGUMENT);
  o = jps_opts();
  o.straight_cost = -1.0;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_INVALID_ARGUMENT);
  o = jps_opts();
  o.heuristic = ASTAR_H_CALLBACK; /* without a function: invalid */
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_INVALID_ARGUMENT);
  o = jps_opts();
  o.weight = -1.0;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_find_path(NULL, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_INVALID_ARGUMENT);
  /* Supported options that A* treats specially are fine: open_set, weight. */
  o = jps_opts();
  o.open_set = ASTAR_OPEN_BUCKET;
  o.weight = 2.0;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(9, 9), path, 32, &r), ASTAR_OK);

  /* A workspace too small for the grid: capacity, as with A*. */
  astar_grid *big = open_grid(40, 40);
  o = jps_opts();
  CHECK_EQ(astar_find_path(ws, big, &o, P(0, 0), P(1, 1), path, 32, &r), ASTAR_CAPACITY);
  astar_grid_free(big);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static double cb_zero(void *ctx, astar_point c, astar_point t) {
  (void)ctx, (void)c, (void)t;
  return 0.0;
}

static void test_unsupported_callback(void) {
  astar_grid *g = open_grid(4, 4);
  astar_workspace *ws = ws_for(g);
  astar_options o = jps_opts();
  o.heuristic = ASTAR_H_CALLBACK;
  o.heuristic_fn = cb_zero;
  astar_result r;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(3, 3), NULL, 0, &r), ASTAR_UNSUPPORTED);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* The same query twice, with others in between and on a second workspace:
** the same path, cell for cell, and the same statistics. */
static void test_determinism(void) {
  for (uint64_t seed = 7; seed < 200; seed++) {
    rng r;
    rng_seed(&r, seed);
    astar_grid *g = make_map((int)(seed % MAP_KINDS), &r, 150);
    const size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
    astar_point *p1 = malloc(sizeof(astar_point) * cells),
                *p2 = malloc(sizeof(astar_point) * cells);
    astar_workspace *ws = ws_for(g), *ws2 = ws_for(g);
    astar_options o = jps_opts();
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_result r1, r2;
    const astar_status st1 = astar_find_path(ws, g, &o, s, t, p1, cells, &r1);
    for (int k = 0; k < 3; k++)
      astar_find_path(ws, g, &o, randmap_passable_cell(g, &r), randmap_passable_cell(g, &r), p2,
                      cells, &r2);
    for (int k = 0; k < 2; k++) {
      const astar_status st2 = astar_find_path(k ? ws2 : ws, g, &o, s, t, p2, cells, &r2);
      CHECK(st1 == st2);
      CHECK(r1.length == r2.length && r1.cost == r2.cost);
      CHECK(memcmp(&r1.stats, &r2.stats, sizeof r1.stats) == 0);
      if (st1 == ASTAR_OK && r1.length == r2.length)
        CHECK(memcmp(p1, p2, sizeof(astar_point) * r1.length) == 0);
    }
    astar_workspace_free(ws);
    astar_workspace_free(ws2);
    free(p1);
    free(p2);
    astar_grid_free(g);
  }
}

/* An open field: one straight or diagonal jump, few expansions. */
static void test_open_field(void) {
  astar_grid *g = open_grid(300, 200);
  astar_workspace *ws = ws_for(g);
  astar_options o = jps_opts();
  astar_point path[600];
  astar_result r;
  char err[256];
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(299, 199), path, 600, &r), ASTAR_OK);
  CHECKF(cost_equal(r.cost, 100 + 199 * sqrt(2.0)), "%.17g", r.cost);
  CHECK_EQ(r.length, 300);
  CHECK_EQ(r.stats.expanded, 2);
  CHECKF(validate_path(g, &o, P(0, 0), P(299, 199), path, r.length, r.cost, err, sizeof err), "%s",
         err);
  CHECK_EQ(astar_find_path(ws, g, &o, P(150, 0), P(150, 199), path, 600, &r), ASTAR_OK);
  CHECK(r.cost == 199.0);
  CHECK_EQ(r.stats.expanded, 2);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* The goal test at the start (issue 31 item 5): when the octile route from
** the start is free, the goal is generated from it and the start's other
** scans are skipped -- here the NE diagonal's row scans would meet the jump
** points around the pillar and push them. The path is the route's:
** diagonal steps first, then the straight run. */
static void test_goal_from_start(void) {
  astar_grid *g = open_grid(40, 20);
  for (int x = 30; x <= 31; x++)
    for (int y = 2; y <= 3; y++) astar_grid_set_passable(g, x, y, false);
  astar_workspace *ws = ws_for(g);
  astar_options o = jps_opts();
  astar_point path[64];
  astar_result r;
  char err[256];
  CHECK_EQ(astar_find_path(ws, g, &o, P(5, 10), P(35, 15), path, 64, &r), ASTAR_OK);
  CHECKF(cost_equal(r.cost, 25 + 5 * sqrt(2.0)), "%.17g", r.cost);
  CHECK_EQ(r.length, 31);
  CHECK_EQ(r.stats.expanded, 2);  /* the start, then the goal */
  CHECK_EQ(r.stats.generated, 2); /* the start and the goal alone */
  CHECK(path[5].x == 10 && path[5].y == 15 && path[6].x == 11 && path[6].y == 15);
  CHECKF(validate_path(g, &o, P(5, 10), P(35, 15), path, r.length, r.cost, err, sizeof err), "%s",
         err);
  /* A jump point on the straight run (the pillar beside row 4): the scans
  ** decide, as before; the cost is the same optimum. */
  CHECK_EQ(astar_find_path(ws, g, &o, P(5, 10), P(38, 4), path, 64, &r), ASTAR_OK);
  CHECKF(cost_equal(r.cost, 27 + 6 * sqrt(2.0)), "%.17g", r.cost);
  CHECK(r.stats.generated > 2);
  CHECKF(validate_path(g, &o, P(5, 10), P(38, 4), path, r.length, r.cost, err, sizeof err), "%s",
         err);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_start_is_goal);
  RUN(test_outcomes);
  RUN(test_unsupported);
  RUN(test_unsupported_callback);
  RUN(test_open_field);
  RUN(test_goal_from_start);
  RUN(test_long_lines);
  RUN(test_every_offset);
  RUN(test_block_boundaries);
  RUN(test_random_maps);
  RUN(test_costs_and_ties);
  RUN(test_weighted);
  RUN(test_determinism);
  return check_summary();
}
