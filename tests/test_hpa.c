/*
** test_hpa.c -- HPA* (astar/hierarchy.h) against the reference Dijkstra and
** the independent path validator. On seeded random grids (densities, sizes
** not multiples of the cluster size, 4 / 8 moves, every corner rule,
** terrain), levels 1..3 and cluster sizes 4..16: a path is found exactly
** when the reference finds one; every path is legal, starts and ends where
** asked, costs what the result says (= astar_path_cost), at least the
** optimum and at most the abstract path's cost. Incremental updates after
** random edits give the bytes of a full rebuild; save / load round trips,
** every truncation and random damage are refused without a crash; stale and
** mismatched grids; failing the 1st, 2nd, ... allocation of new,
** query_new, update and load gives ASTAR_NO_MEMORY and leaks nothing.
** Levels 2..4 (the level-by-level join, direct path and refinement): random
** maps with small clusters, endpoints near each other (same or neighbouring
** clusters) as well as far apart, and a start and goal of one level-1
** cluster joined only through the neighbouring cluster.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define CAP 4096

static astar_point pathbuf[CAP];

static void random_rules(rng *r, astar_options *o, astar_hpa_options *ho) {
  astar_options_init(o);
  astar_hpa_options_init(ho);
  o->moves = rng_range(r, 0, 3) == 0 ? 4 : 8;
  o->corner = (astar_corner)rng_range(r, 0, 3);
  if (rng_range(r, 0, 3) == 0) {
    o->straight_cost = 1.0 + rng_range(r, 0, 3) * 0.5;
    o->diagonal_cost = o->straight_cost * (1.0 + rng_range(r, 0, 4) * 0.25);
  }
  ho->cluster_size = rng_range(r, 4, 16);
  ho->levels = rng_range(r, 1, 3);
  ho->ratio = rng_range(r, 2, 3);
  ho->wide_entrance = rng_range(r, 1, 8);
  ho->smooth = rng_range(r, 0, 3) != 0;
}

static astar_grid *random_grid(rng *r, int32_t maxside) {
  randmap_spec sp;
  sp.width = rng_range(r, 1, maxside);
  sp.height = rng_range(r, 1, maxside);
  sp.density = rng_unit(r) * 0.4;
  sp.terrain = rng_range(r, 0, 2) == 0;
  sp.terrain_lo = 0.5;
  sp.terrain_hi = 4.0;
  astar_grid *g = NULL;
  if (randmap_make(&g, &sp, r) != ASTAR_OK) return NULL;
  return g;
}

static double worst_ratio;

/* Queries on one map: existence, legality, cost bounds. */
static void check_queries(rng *r, const astar_grid *g, const astar_options *o, const astar_hpa *hpa,
                          astar_hpa_query *q, int nq, uint64_t seed) {
  for (int k = 0; k < nq; k++) {
    const astar_point s = randmap_passable_cell(g, r), t = randmap_passable_cell(g, r);
    if (s.x < 0) return;
    const double opt = ref_dijkstra(g, o, s, t);
    astar_hpa_result res;
    const astar_status st = astar_hpa_find_path(q, hpa, g, s, t, pathbuf, CAP, &res);
    if (opt < 0) {
      if (st != ASTAR_NO_PATH)
        FAILF("seed %llu: (%d,%d)->(%d,%d) status %d, no path exists", (unsigned long long)seed,
              s.x, s.y, t.x, t.y, (int)st);
      continue;
    }
    if (st != ASTAR_OK) {
      FAILF("seed %llu: (%d,%d)->(%d,%d) status %d, optimum %g", (unsigned long long)seed, s.x, s.y,
            t.x, t.y, (int)st, opt);
      continue;
    }
    char err[200];
    if (!validate_path(g, o, s, t, pathbuf, res.length, res.cost, err, sizeof err)) {
      FAILF("seed %llu: invalid path: %s", (unsigned long long)seed, err);
      continue;
    }
    double pc = -1;
    if (astar_path_cost(g, o, pathbuf, res.length, &pc, NULL) != ASTAR_OK || pc != res.cost)
      FAILF("seed %llu: path cost %g != %g", (unsigned long long)seed, pc, res.cost);
    if (res.cost < opt - 1e-9 * opt)
      FAILF("seed %llu: cost %.17g below optimum %.17g", (unsigned long long)seed, res.cost, opt);
    if (res.cost > res.abstract_cost + 1e-9 * res.abstract_cost && res.length > 1)
      FAILF("seed %llu: cost %.17g above abstract %.17g", (unsigned long long)seed, res.cost,
            res.abstract_cost);
    if (opt > 0 && res.cost / opt > worst_ratio) worst_ratio = res.cost / opt;
  }
}

static void test_random_maps(void) {
  long maps = 0;
  for (uint64_t seed = 1; seed <= 300; seed++) {
    rng r;
    rng_seed(&r, seed);
    astar_grid *g = random_grid(&r, seed % 10 == 0 ? 70 : 40);
    if (!g) continue;
    astar_options o;
    astar_hpa_options ho;
    random_rules(&r, &o, &ho);
    astar_hpa *hpa = NULL;
    astar_hpa_query *q = NULL;
    astar_status st = astar_hpa_new(&hpa, g, &o, &ho, NULL);
    CHECKF(st == ASTAR_OK, "seed %llu: new %d", (unsigned long long)seed, (int)st);
    if (st == ASTAR_OK) st = astar_hpa_query_new(&q, hpa, NULL);
    if (st == ASTAR_OK) {
      check_queries(&r, g, &o, hpa, q, 30, seed);
      maps++;
    }
    astar_hpa_query_free(q);
    astar_hpa_free(hpa);
    astar_grid_free(g);
  }
  CHECK(maps > 250);
  printf("     worst cost / optimum on the random maps: %.3f\n", worst_ratio);
}

/* Many levels of small clusters; near endpoints exercise the direct paths. */
static void test_levels(void) {
  long maps = 0;
  for (uint64_t seed = 1000; seed < 1150; seed++) {
    rng r;
    rng_seed(&r, seed);
    astar_grid *g = random_grid(&r, 64);
    if (!g) continue;
    astar_options o;
    astar_hpa_options ho;
    random_rules(&r, &o, &ho);
    ho.cluster_size = rng_range(&r, 4, 6);
    ho.levels = rng_range(&r, 2, 4);
    ho.ratio = ho.levels == 4 ? 2 : rng_range(&r, 2, 3);
    astar_hpa *hpa = NULL;
    astar_hpa_query *q = NULL;
    astar_status st = astar_hpa_new(&hpa, g, &o, &ho, NULL);
    CHECKF(st == ASTAR_OK, "seed %llu: new %d", (unsigned long long)seed, (int)st);
    if (st == ASTAR_OK) st = astar_hpa_query_new(&q, hpa, NULL);
    if (st == ASTAR_OK) {
      check_queries(&r, g, &o, hpa, q, 10, seed);
      /* Near pairs: the goal within a level-2 cluster's side of the start. */
      const int32_t reach = ho.cluster_size * ho.ratio;
      for (int k = 0; k < 20; k++) {
        const astar_point s = randmap_passable_cell(g, &r);
        if (s.x < 0) break;
        const astar_point t = {s.x + rng_range(&r, -reach, reach),
                               s.y + rng_range(&r, -reach, reach)};
        if (!astar_grid_contains(g, t.x, t.y) || !astar_grid_passable(g, t.x, t.y)) continue;
        const double opt = ref_dijkstra(g, &o, s, t);
        astar_hpa_result res;
        st = astar_hpa_find_path(q, hpa, g, s, t, pathbuf, CAP, &res);
        if (opt < 0) {
          CHECKF(st == ASTAR_NO_PATH, "seed %llu: near pair status %d, no path exists",
                 (unsigned long long)seed, (int)st);
          continue;
        }
        char err[200];
        CHECKF(st == ASTAR_OK &&
                   validate_path(g, &o, s, t, pathbuf, res.length, res.cost, err, sizeof err),
               "seed %llu: near pair (%d,%d)->(%d,%d) status %d", (unsigned long long)seed, s.x,
               s.y, t.x, t.y, (int)st);
        if (st != ASTAR_OK) continue;
        CHECKF(res.cost >= opt - 1e-9 * opt, "seed %llu: near pair below the optimum",
               (unsigned long long)seed);
        CHECKF(res.cost <= res.abstract_cost + 1e-9 * res.abstract_cost || res.length == 1,
               "seed %llu: near pair above its abstract cost", (unsigned long long)seed);
      }
      maps++;
    }
    astar_hpa_query_free(q);
    astar_hpa_free(hpa);
    astar_grid_free(g);
  }
  CHECK(maps > 120);

  /* Start and goal in one level-1 cluster, a wall between them: the only way
  ** is through the cluster to the east, inside their level-2 cluster, which
  ** has no level-2 node at all (the rest of the grid is blocked). */
  static const char *rows[8] = {"........########", "........########", "####....########",
                                "........########", "################", "################",
                                "################", "################"};
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 16, 8, NULL) == ASTAR_OK);
  for (int32_t y = 0; g && y < 8; y++)
    for (int32_t x = 0; x < 16; x++) astar_grid_set_passable(g, x, y, rows[y][x] == '.');
  for (int levels = 1; g && levels <= 3; levels++) {
    astar_hpa_options ho;
    astar_hpa_options_init(&ho);
    ho.cluster_size = 4;
    ho.levels = levels;
    astar_hpa *hpa = NULL;
    astar_hpa_query *q = NULL;
    CHECK(astar_hpa_new(&hpa, g, NULL, &ho, NULL) == ASTAR_OK);
    CHECK(hpa && astar_hpa_query_new(&q, hpa, NULL) == ASTAR_OK);
    if (q) {
      astar_hpa_result res;
      const astar_point s = {1, 1}, t = {1, 3};
      CHECKF(astar_hpa_find_path(q, hpa, g, s, t, pathbuf, CAP, &res) == ASTAR_OK,
             "levels %d: wall pair not found", levels);
      astar_options o;
      astar_options_init(&o);
      const double opt = ref_dijkstra(g, &o, s, t);
      CHECKF(res.cost >= opt - 1e-9 && res.cost <= res.abstract_cost + 1e-9,
             "levels %d: cost %g, optimum %g, abstract %g", levels, res.cost, opt,
             res.abstract_cost);
    }
    astar_hpa_query_free(q);
    astar_hpa_free(hpa);
  }
  astar_grid_free(g);
}

/* Endpoints, buffers, stale and mismatched grids. */
static void test_statuses(void) {
  astar_grid *g = NULL, *g2 = NULL;
  CHECK(astar_grid_new(&g, 40, 30, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&g2, 40, 30, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < 25; y++) astar_grid_set_passable(g, 20, y, false);
  astar_hpa *hpa = NULL;
  astar_hpa_query *q = NULL;
  CHECK(astar_hpa_new(&hpa, g, NULL, NULL, NULL) == ASTAR_OK);
  CHECK(astar_hpa_query_new(&q, hpa, NULL) == ASTAR_OK);
  astar_hpa_result res;
  const astar_point a = {2, 2}, b = {38, 2};
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, b, pathbuf, CAP, &res), ASTAR_OK);
  const size_t n = res.length;
  CHECK(n > 30);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, b, pathbuf, 5, &res), ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length >= n);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, b, pathbuf, res.length, &res), ASTAR_OK);
  CHECK_EQ(res.length, n);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, a, pathbuf, CAP, &res), ASTAR_OK);
  CHECK_EQ(res.length, 1);
  CHECK(res.cost == 0);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, (astar_point){-1, 0}, b, pathbuf, CAP, &res),
           ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, (astar_point){20, 0}, b, pathbuf, CAP, &res),
           ASTAR_START_BLOCKED);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, (astar_point){20, 1}, pathbuf, CAP, &res),
           ASTAR_GOAL_BLOCKED);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g2, a, b, pathbuf, CAP, &res), ASTAR_MISMATCH);
  CHECK_EQ(astar_hpa_find_path(NULL, hpa, g, a, b, pathbuf, CAP, &res), ASTAR_INVALID_ARGUMENT);
  /* Wall off the gap: stale until updated, then no path. */
  for (int32_t y = 25; y < 30; y++) astar_grid_set_passable(g, 20, y, false);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, b, pathbuf, CAP, &res), ASTAR_STALE);
  uint64_t rebuilt = 0;
  CHECK_EQ(astar_hpa_update(hpa, g, 20, 25, 20, 29, &rebuilt), ASTAR_OK);
  CHECK(rebuilt >= 1 && rebuilt <= 4);
  CHECK_EQ(astar_hpa_find_path(q, hpa, g, a, b, pathbuf, CAP, &res), ASTAR_NO_PATH);
  CHECK_EQ(astar_hpa_update(hpa, g2, 0, 0, 1, 1, NULL), ASTAR_MISMATCH);
  /* Bad settings. */
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  astar_hpa *bad = (astar_hpa *)1;
  ho.cluster_size = 3;
  CHECK_EQ(astar_hpa_new(&bad, g, NULL, &ho, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(bad == NULL);
  astar_hpa_options_init(&ho);
  ho.levels = 5;
  CHECK_EQ(astar_hpa_new(&bad, g, NULL, &ho, NULL), ASTAR_INVALID_ARGUMENT);
  astar_options o;
  astar_options_init(&o);
  o.turn_penalty = 1;
  CHECK_EQ(astar_hpa_new(&bad, g, &o, NULL, NULL), ASTAR_UNSUPPORTED);
  CHECK(astar_hpa_memory(hpa) > 0);
  astar_hpa_stats hs;
  astar_hpa_get_stats(hpa, &hs);
  CHECK_EQ(hs.levels, 1);
  CHECK(hs.level[0].clusters == 6 && hs.level[0].nodes > 0);
  astar_hpa_query_free(q);
  astar_hpa_free(hpa);
  astar_hpa_free(NULL);
  astar_hpa_query_free(NULL);
  astar_grid_free(g);
  astar_grid_free(g2);
}

/* Saved bytes of hpa (malloc'ed; *n its length), or NULL. */
static unsigned char *save_bytes(const astar_hpa *hpa, size_t *n) {
  *n = 0;
  if (astar_hpa_save(hpa, NULL, 0, n) != ASTAR_BUFFER_TOO_SMALL) return NULL;
  unsigned char *b = malloc(*n);
  size_t m = 0;
  if (b && astar_hpa_save(hpa, b, *n, &m) != ASTAR_OK) {
    free(b);
    return NULL;
  }
  return b;
}

/* Random edits then an update equal a fresh build, byte for byte; queries still hold. */
static void test_update_equals_rebuild(void) {
  long compared = 0;
  for (uint64_t seed = 1000; seed < 1080; seed++) {
    rng r;
    rng_seed(&r, seed);
    astar_grid *g = random_grid(&r, 48);
    if (!g) continue;
    astar_options o;
    astar_hpa_options ho;
    random_rules(&r, &o, &ho);
    astar_hpa *hpa = NULL;
    astar_hpa_query *q = NULL;
    if (astar_hpa_new(&hpa, g, &o, &ho, NULL) != ASTAR_OK) {
      FAILF("seed %llu: new", (unsigned long long)seed);
      astar_grid_free(g);
      continue;
    }
    for (int e = 0; e < 6; e++) {
      const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
      const int32_t x0 = rng_range(&r, 0, w - 1), y0 = rng_range(&r, 0, h - 1);
      const int32_t x1 = x0 + rng_range(&r, 0, 3) < w ? x0 + rng_range(&r, 0, 3) : w - 1;
      const int32_t y1 = y0 + rng_range(&r, 0, 3) < h ? y0 + rng_range(&r, 0, 3) : h - 1;
      for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) {
          if (rng_range(&r, 0, 2) == 0) astar_grid_set_passable(g, x, y, rng_range(&r, 0, 1));
          if (astar_grid_has_terrain(g) && rng_range(&r, 0, 2) == 0)
            astar_grid_set_terrain(g, x, y, (float)rng_range(&r, 32, 256) / 64.0f);
        }
      uint64_t rebuilt = 0;
      CHECK_EQ(astar_hpa_update(hpa, g, x1, y1, x0, y0, &rebuilt), ASTAR_OK);
      CHECK(rebuilt >= 1 && rebuilt <= 9);
      astar_hpa *fresh = NULL;
      CHECK_EQ(astar_hpa_new(&fresh, g, &o, &ho, NULL), ASTAR_OK);
      size_t na = 0, nb = 0;
      unsigned char *a = save_bytes(hpa, &na), *b = save_bytes(fresh, &nb);
      if (!a || !b || na != nb || memcmp(a, b, na) != 0)
        FAILF("seed %llu edit %d: update differs from a rebuild (%zu vs %zu bytes)",
              (unsigned long long)seed, e, na, nb);
      else
        compared++;
      astar_hpa_stats s1, s2;
      astar_hpa_get_stats(hpa, &s1);
      astar_hpa_get_stats(fresh, &s2);
      CHECK_EQ(s1.entrances, s2.entrances);
      CHECK_EQ(s1.level[0].arcs, s2.level[0].arcs);
      free(a);
      free(b);
      astar_hpa_free(fresh);
    }
    if (astar_hpa_query_new(&q, hpa, NULL) == ASTAR_OK) check_queries(&r, g, &o, hpa, q, 10, seed);
    astar_hpa_query_free(q);
    astar_hpa_free(hpa);
    astar_grid_free(g);
  }
  CHECK(compared > 300);
}

/* Issue 25 item 2: a file built with the default rules (8 moves, no corner
** cutting, 1 and sqrt 2 -- what `astar precompute` writes) loads for those
** only: 4 moves, costs 10/14 or corner cutting are refused, where a loaded
** object used to search with the file's rules and return diagonal steps to
** a 4-move caller. A file built for 4 moves loads for 4 moves. */
static void test_load_rules(void) {
  static const char *const rows[] = {
      "..........#.....", "..........#.....", "....####..#.....", "....#.....#.....",
      "....#...........", "....#.....####..", "..........#.....", "..........#.....",
  };
  astar_grid *g = randmap_from_rows(rows, 8, '#');
  CHECK(g != NULL);
  if (!g) return;
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  ho.cluster_size = 4;
  astar_hpa *h = NULL;
  CHECK_EQ(astar_hpa_new(&h, g, NULL, &ho, NULL), ASTAR_OK);
  size_t n = 0;
  unsigned char *bytes = h ? save_bytes(h, &n) : NULL;
  astar_hpa_free(h);
  CHECK(bytes != NULL);
  if (!bytes) {
    astar_grid_free(g);
    return;
  }
  astar_options o;
  astar_options_init(&o);
  h = NULL;
  CHECK_EQ(astar_hpa_load(&h, g, NULL, bytes, n, NULL), ASTAR_OK);
  astar_hpa_free(h);
  h = NULL;
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_OK);
  astar_hpa_free(h);
  o.moves = 4;
  h = (astar_hpa *)1;
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_MISMATCH);
  CHECK(h == NULL);
  astar_options_init(&o);
  o.straight_cost = 10;
  o.diagonal_cost = 14;
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_MISMATCH);
  astar_options_init(&o);
  o.corner = ASTAR_CORNER_ALWAYS;
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_MISMATCH);
  astar_options_init(&o);
  o.terrain_scale = 0.5;
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_UNSUPPORTED);
  o.terrain_scale = -1;
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_INVALID_ARGUMENT);
  free(bytes);
  /* Built for 4 moves: loads for 4 moves, searches with 4 moves only. */
  astar_options_init(&o);
  o.moves = 4;
  CHECK_EQ(astar_hpa_new(&h, g, &o, &ho, NULL), ASTAR_OK);
  bytes = h ? save_bytes(h, &n) : NULL;
  astar_hpa_free(h);
  h = NULL;
  CHECK_EQ(astar_hpa_load(&h, g, NULL, bytes, n, NULL), ASTAR_MISMATCH);
  CHECK_EQ(astar_hpa_load(&h, g, &o, bytes, n, NULL), ASTAR_OK);
  astar_hpa_query *q = NULL;
  if (h) CHECK_EQ(astar_hpa_query_new(&q, h, NULL), ASTAR_OK);
  if (q) {
    astar_hpa_result res;
    CHECK_EQ(
        astar_hpa_find_path(q, h, g, (astar_point){0, 7}, (astar_point){15, 0}, pathbuf, CAP, &res),
        ASTAR_OK);
    for (size_t i = 1; i < res.length; i++)
      CHECK(abs(pathbuf[i].x - pathbuf[i - 1].x) + abs(pathbuf[i].y - pathbuf[i - 1].y) == 1);
  }
  astar_hpa_query_free(q);
  astar_hpa_free(h);
  free(bytes);
  astar_grid_free(g);
}

/* Round trip, every truncation, random damage, another grid. */
static void test_save_load(void) {
  for (uint64_t seed = 2000; seed < 2030; seed++) {
    rng r;
    rng_seed(&r, seed);
    astar_grid *g = random_grid(&r, 40);
    if (!g) continue;
    astar_options o;
    astar_hpa_options ho;
    random_rules(&r, &o, &ho);
    astar_hpa *hpa = NULL, *back = NULL;
    CHECK_EQ(astar_hpa_new(&hpa, g, &o, &ho, NULL), ASTAR_OK);
    size_t n = 0, n2 = 0;
    unsigned char *a = save_bytes(hpa, &n);
    CHECK(a != NULL);
    if (!a) {
      astar_hpa_free(hpa);
      astar_grid_free(g);
      continue;
    }
    CHECK_EQ(astar_hpa_load(&back, g, &o, a, n, NULL), ASTAR_OK);
    unsigned char *b = back ? save_bytes(back, &n2) : NULL;
    CHECK(b && n2 == n && memcmp(a, b, n) == 0);
    free(b);
    if (back) {
      astar_hpa_query *q = NULL;
      CHECK_EQ(astar_hpa_query_new(&q, back, NULL), ASTAR_OK);
      if (q) check_queries(&r, g, &o, back, q, 10, seed);
      astar_hpa_query_free(q);
    }
    astar_hpa_free(back);
    for (size_t k = 0; k < n; k += (n > 400 ? 7 : 1)) {
      astar_hpa *x = (astar_hpa *)1;
      const astar_status st = astar_hpa_load(&x, g, &o, a, k, NULL);
      if (st != ASTAR_PARSE_ERROR || x != NULL)
        FAILF("seed %llu: truncated to %zu: %d", (unsigned long long)seed, k, (int)st);
    }
    unsigned char *d = malloc(n);
    for (int t = 0; t < 200 && d; t++) {
      memcpy(d, a, n);
      const int flips = rng_range(&r, 1, 3);
      for (int f = 0; f < flips; f++)
        d[rng_range(&r, 0, (int32_t)n - 1)] ^= (unsigned char)rng_range(&r, 1, 255);
      astar_hpa *x = NULL;
      const astar_status st = astar_hpa_load(&x, g, &o, d, n, NULL);
      if (memcmp(d, a, n) != 0 && st != ASTAR_PARSE_ERROR && st != ASTAR_MISMATCH)
        FAILF("seed %llu: damaged bytes loaded: %d", (unsigned long long)seed, (int)st);
      astar_hpa_free(x);
    }
    free(d);
    /* Another grid: other cells, other size. */
    astar_grid *g2 = NULL;
    CHECK_EQ(astar_grid_clone(&g2, g, NULL), ASTAR_OK);
    const astar_point c = randmap_passable_cell(g2, &r);
    if (c.x >= 0) {
      astar_grid_set_passable(g2, c.x, c.y, false);
      astar_hpa *x = NULL;
      CHECK_EQ(astar_hpa_load(&x, g2, &o, a, n, NULL), ASTAR_MISMATCH);
    }
    astar_grid_free(g2);
    CHECK_EQ(astar_grid_new(&g2, astar_grid_width(g) + 1, astar_grid_height(g), NULL), ASTAR_OK);
    astar_hpa *x = NULL;
    CHECK_EQ(astar_hpa_load(&x, g2, &o, a, n, NULL), ASTAR_MISMATCH);
    astar_grid_free(g2);
    /* The rules it was built for are recorded, and other rules refused. */
    astar_options fo;
    astar_hpa_options fho;
    CHECK_EQ(astar_hpa_file_options(a, n, &fo, &fho), ASTAR_OK);
    CHECK(fo.moves == o.moves && fo.straight_cost == o.straight_cost);
    CHECK(fo.corner == (o.moves == 4 ? ASTAR_CORNER_NEVER : o.corner));
    CHECK(fo.diagonal_cost == o.diagonal_cost);
    CHECK(fho.cluster_size == ho.cluster_size && fho.levels == ho.levels && fho.ratio == ho.ratio &&
          fho.wide_entrance == ho.wide_entrance && fho.smooth == ho.smooth);
    CHECK_EQ(astar_hpa_file_options(a, n - 1, NULL, NULL), ASTAR_PARSE_ERROR);
    for (int k = 0; k < 5; k++) {
      astar_options other = o;
      bool same = false;
      switch (k) {
      case 0:
        other.moves = o.moves == 4 ? 8 : 4;
        break;
      case 1: /* 4 moves have no corner rule */
        other.corner = (astar_corner)(((int)o.corner + 1) % 4);
        same = o.moves == 4;
        break;
      case 2:
        other.straight_cost = o.straight_cost * 2;
        break;
      case 3: /* 4 moves have no diagonal cost */
        other.diagonal_cost = o.diagonal_cost + 0.125;
        same = o.moves == 4;
        break;
      default:
        other.turn_penalty = 1.0;
        break;
      }
      astar_hpa *y = (astar_hpa *)1;
      const astar_status want = k == 4 ? ASTAR_UNSUPPORTED : same ? ASTAR_OK : ASTAR_MISMATCH;
      const astar_status st = astar_hpa_load(&y, g, &other, a, n, NULL);
      if (st != want || (st != ASTAR_OK) != (y == NULL))
        FAILF("seed %llu: load under other rules (%d): %d, want %d", (unsigned long long)seed, k,
              (int)st, (int)want);
      astar_hpa_free(y);
    }
    free(a);
    astar_hpa_free(hpa);
    astar_grid_free(g);
  }
}

/* Fail the 1st, 2nd, ... allocation of new, query_new, update and load. */
static void test_allocation_failures(void) {
  rng r;
  rng_seed(&r, 77);
  randmap_spec sp = {37, 29, 0.25, 1, 0.5, 3.0};
  astar_grid *g = NULL;
  CHECK_EQ(randmap_make(&g, &sp, &r), ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  ho.cluster_size = 6;
  ho.levels = 2;
  astar_hpa *ref = NULL;
  CHECK_EQ(astar_hpa_new(&ref, g, &o, &ho, NULL), ASTAR_OK);
  size_t n = 0;
  unsigned char *bytes = save_bytes(ref, &n);
  for (int which = 0; which < 4; which++) {
    long ok_at = 0;
    for (long k = 1; k < 5000 && !ok_at; k++) {
      failalloc fa;
      failalloc_init(&fa);
      astar_allocator al = failalloc_allocator(&fa);
      astar_hpa *h = NULL;
      astar_hpa_query *q = NULL;
      astar_status st;
      if (which == 0) {
        failalloc_fail_in(&fa, k);
        st = astar_hpa_new(&h, g, &o, &ho, &al);
      } else if (which == 1) {
        st = astar_hpa_new(&h, g, &o, &ho, &al);
        failalloc_fail_in(&fa, k);
        if (st == ASTAR_OK) st = astar_hpa_query_new(&q, h, &al);
      } else if (which == 2) {
        st = astar_hpa_new(&h, g, &o, &ho, &al);
        astar_grid_set_passable(g, 10, 10, !astar_grid_passable(g, 10, 10));
        failalloc_fail_in(&fa, k);
        if (st == ASTAR_OK) st = astar_hpa_update(h, g, 10, 10, 10, 10, NULL);
        if (st == ASTAR_NO_MEMORY) {
          /* Stale until the same update succeeds; then as fresh as a build. */
          astar_hpa_query *q2 = NULL;
          astar_point pth[8];
          if (astar_hpa_query_new(&q2, ref, NULL) == ASTAR_OK)
            CHECK(astar_hpa_find_path(q2, h, g, (astar_point){0, 0}, (astar_point){1, 1}, pth, 8,
                                      NULL) == ASTAR_STALE);
          astar_hpa_query_free(q2);
          CHECK_EQ(astar_hpa_update(h, g, 10, 10, 10, 10, NULL), ASTAR_OK);
        }
        astar_grid_set_passable(g, 10, 10, !astar_grid_passable(g, 10, 10));
        if (h && astar_hpa_update(h, g, 10, 10, 10, 10, NULL) == ASTAR_OK) {
          size_t m = 0;
          unsigned char *b2 = save_bytes(h, &m);
          CHECK(b2 && m == n && memcmp(b2, bytes, n) == 0);
          free(b2);
        }
      } else {
        failalloc_fail_in(&fa, k);
        st = astar_hpa_load(&h, g, &o, bytes, n, &al);
      }
      if (st == ASTAR_OK)
        ok_at = k;
      else if (st != ASTAR_NO_MEMORY)
        FAILF("case %d, failing allocation %ld: status %d", which, k, (int)st);
      if (which == 0 || which == 3) CHECK(st == ASTAR_OK || h == NULL);
      if (which == 1) CHECK(st == ASTAR_OK || q == NULL);
      astar_hpa_query_free(q);
      astar_hpa_free(h);
      if (fa.blocks != 0 || fa.osize_mismatches != 0)
        FAILF("case %d, failing allocation %ld: %ld blocks leaked, %ld size mismatches", which, k,
              fa.blocks, fa.osize_mismatches);
    }
    CHECKF(ok_at > 1, "case %d never failed", which);
  }
  free(bytes);
  astar_hpa_free(ref);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_statuses);
  RUN(test_random_maps);
  RUN(test_levels);
  RUN(test_update_equals_rebuild);
  RUN(test_load_rules);
  RUN(test_save_load);
  RUN(test_allocation_failures);
  return check_summary();
}
