/*
** test_batch.c -- astar/batch.h: many queries on one grid with several
** worker threads. Every slot must equal what one astar_find_path (or
** astar_jps_plus_find_path) call gives for that query alone -- status,
** cost, length, statistics, cells -- whatever the number of threads; costs
** must equal the reference Dijkstra's; the Moving AI lengths of the small
** maps must come out; bad arguments, short buffers and allocation failures
** get their statuses. The ThreadSanitizer stage of .ci/run runs this
** program.
*/
#include <astar/astar.h>
#include <astar/batch.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define MAXQ 160

/* Serial reference for one query: what the batch must reproduce. */
static astar_status serial_one(astar_workspace *ws, const astar_grid *g, const astar_jps_plus *pre,
                               const astar_options *o, const astar_query *q, astar_point *path,
                               size_t cap, astar_result *r) {
  if (pre) return astar_jps_plus_find_path(ws, pre, g, o, q->start, q->goal, path, cap, r);
  return astar_find_path(ws, g, o, q->start, q->goal, path, cap, r);
}

static void random_queries(const astar_grid *g, rng *r, astar_query *q, size_t n) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (size_t i = 0; i < n; i++) {
    /* Mostly passable endpoints; now and then a blocked or outside one. */
    if (rng_range(r, 0, 15) == 0) {
      q[i].start = (astar_point){rng_range(r, -1, w), rng_range(r, 0, h - 1)};
      q[i].goal = (astar_point){rng_range(r, 0, w - 1), rng_range(r, 0, h - 1)};
    } else {
      q[i].start = randmap_passable_cell(g, r);
      q[i].goal = randmap_passable_cell(g, r);
    }
  }
}

/* Run `n` queries through a batch of `threads` workers and compare every
** slot with the serial reference. Returns the failures. */
static int compare_batch(const astar_grid *g, const astar_jps_plus *pre, const astar_options *o,
                         const astar_query *q, size_t n, unsigned threads, size_t stride,
                         bool turns) {
  int bad = 0;
  astar_batch *b = NULL;
  astar_workspace *ws = NULL;
  astar_batch_result *res = calloc(n ? n : 1, sizeof *res);
  astar_point *paths = stride ? calloc((n ? n : 1) * stride, sizeof *paths) : NULL;
  astar_point *ref = calloc(stride ? stride : 1, sizeof *ref);
  CHECK(res && ref && (!stride || paths));
  CHECK_EQ(astar_batch_new(&b, g, threads, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&ws, g, NULL), ASTAR_OK);
  if (!b || !ws || !res || !ref || (stride && !paths)) goto done;
  if (turns) {
    CHECK_EQ(astar_batch_reserve(b, g, true), ASTAR_OK);
    CHECK_EQ(astar_workspace_reserve_turns(ws, g), ASTAR_OK);
  }
  unsigned used = 0;
  const astar_status st = astar_batch_find_paths(b, g, pre, o, q, n, res, paths, stride, &used);
  CHECK_EQ(st, ASTAR_OK);
  CHECK_EQ(used, (size_t)threads < n ? threads : (unsigned)n);
  for (size_t i = 0; st == ASTAR_OK && i < n; i++) {
    astar_result r;
    astar_status want = serial_one(ws, g, pre, o, &q[i], ref, stride, &r);
    if (want == ASTAR_BUFFER_TOO_SMALL && stride == 0) want = ASTAR_OK;
    const astar_batch_result *got = &res[i];
    bool same = got->status == want && got->result.cost == r.cost &&
                got->result.length == r.length && got->result.stats.expanded == r.stats.expanded &&
                got->result.stats.generated == r.stats.generated && got->result.end.x == r.end.x &&
                got->result.end.y == r.end.y;
    if (same && want == ASTAR_OK && stride)
      for (size_t k = 0; k < r.length; k++)
        same = same && paths[i * stride + k].x == ref[k].x && paths[i * stride + k].y == ref[k].y;
    if (!same) {
      bad++;
      CHECKF(same,
             "query %zu (%d,%d)->(%d,%d), %u threads: batch %s cost %.17g len %zu, "
             "serial %s cost %.17g len %zu",
             i, q[i].start.x, q[i].start.y, q[i].goal.x, q[i].goal.y, threads,
             astar_strerror(got->status), got->result.cost, got->result.length,
             astar_strerror(want), r.cost, r.length);
      if (bad > 3) break;
    }
  }
done:
  astar_workspace_free(ws);
  astar_batch_free(b);
  free(ref), free(paths), free(res);
  return bad;
}

/* Random maps, A* with every movement rule and terrain, 1 .. 8 threads. */
static void test_astar_matches_serial(void) {
  rng r;
  rng_seed(&r, 20261124);
  static const unsigned threads[] = {1, 2, 3, 8};
  astar_query q[MAXQ];
  for (int m = 0; m < 24; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 48, 1);
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_options_init(&o);
    o.moves = rng_range(&r, 0, 1) ? 8 : 4;
    o.corner = (astar_corner)rng_range(&r, 0, 2);
    o.tie = (astar_tie)rng_range(&r, 0, 2);
    const bool turns = m % 4 == 3;
    if (turns) o.turn_penalty = 0.5;
    const size_t n = (size_t)rng_range(&r, 1, MAXQ);
    random_queries(g, &r, q, n);
    const size_t stride = (size_t)spec.width * (size_t)spec.height;
    compare_batch(g, NULL, &o, q, n, threads[m % 4], stride, turns);
    astar_grid_free(g);
  }
}

/* JPS and JPS+ (uniform costs, no corner cutting) through the batch. */
static void test_jps_matches_serial(void) {
  rng r;
  rng_seed(&r, 77);
  astar_query q[MAXQ];
  for (int m = 0; m < 12; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 64, 0);
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_options_init(&o);
    o.algorithm = ASTAR_ALGO_JPS;
    astar_jps_plus *pre = NULL;
    CHECK_EQ(astar_jps_plus_new(&pre, g, NULL), ASTAR_OK);
    random_queries(g, &r, q, MAXQ);
    const size_t stride = (size_t)spec.width * (size_t)spec.height;
    compare_batch(g, NULL, &o, q, MAXQ, 1 + (unsigned)(m % 3), stride, false);
    compare_batch(g, pre, &o, q, MAXQ, 2 + (unsigned)(m % 3), stride, false);
    astar_jps_plus_free(pre);
    astar_grid_free(g);
  }
}

/* Costs against the reference Dijkstra, paths legal, on random maps. */
static void test_costs_against_dijkstra(void) {
  rng r;
  rng_seed(&r, 5150);
  astar_query q[64];
  astar_batch_result res[64];
  for (int m = 0; m < 10; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 1);
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    if (!g) continue;
    const size_t stride = (size_t)spec.width * (size_t)spec.height;
    astar_point *paths = malloc(64 * stride * sizeof *paths);
    astar_batch *b = NULL;
    CHECK_EQ(astar_batch_new(&b, g, 2, NULL), ASTAR_OK);
    for (size_t i = 0; i < 64; i++) {
      q[i].start = randmap_passable_cell(g, &r);
      q[i].goal = randmap_passable_cell(g, &r);
    }
    CHECK(paths != NULL);
    if (b && paths && q[0].start.x >= 0) {
      CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 64, res, paths, stride, NULL), ASTAR_OK);
      for (size_t i = 0; i < 64; i++) {
        const double want = ref_dijkstra(g, NULL, q[i].start, q[i].goal);
        if (want < 0) {
          CHECK_EQ(res[i].status, ASTAR_NO_PATH);
          continue;
        }
        CHECK_EQ(res[i].status, ASTAR_OK);
        CHECKF(cost_equal(res[i].result.cost, want), "query %zu: %.17g vs Dijkstra %.17g", i,
               res[i].result.cost, want);
        char err[160];
        CHECKF(validate_path(g, NULL, q[i].start, q[i].goal, paths + i * stride,
                             res[i].result.length, res[i].result.cost, err, sizeof err),
               "query %zu: %s", i, err);
      }
    }
    astar_batch_free(b);
    free(paths);
    astar_grid_free(g);
  }
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    const long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
      *len = fread(buf, 1, (size_t)n, f);
      buf[*len] = '\0';
    }
  }
  fclose(f);
  return buf;
}

/* The small Moving AI maps of the repository: every optimal length, two
** threads, A* and JPS+, costs only (stride 0). */
static void test_movingai_small(void) {
  static const char *const maps[] = {"cave64", "maze64-1", "random64-25", "rooms64-8"};
  for (size_t m = 0; m < sizeof maps / sizeof *maps; m++) {
    char mp[128], sp[128];
    snprintf(mp, sizeof mp, "data/small/%s.map", maps[m]);
    snprintf(sp, sizeof sp, "data/small/%s.map.scen", maps[m]);
    size_t ml = 0, sl = 0;
    char *mt = read_all(mp, &ml), *st = read_all(sp, &sl);
    astar_grid *g = NULL;
    astar_scen *scen = NULL;
    CHECKF(mt && st, "%s", mp);
    if (mt && st) {
      CHECK_EQ(astar_movingai_parse_map(&g, mt, ml, NULL, NULL), ASTAR_OK);
      CHECK_EQ(astar_movingai_parse_scen(&scen, st, sl, NULL, NULL), ASTAR_OK);
    }
    free(mt), free(st);
    const size_t n = scen ? astar_scen_count(scen) : 0;
    astar_query *q = malloc((n ? n : 1) * sizeof *q);
    astar_batch_result *res = malloc((n ? n : 1) * sizeof *res);
    astar_batch *b = NULL;
    astar_jps_plus *pre = NULL;
    if (g && q && res && n && astar_batch_new(&b, g, 2, NULL) == ASTAR_OK &&
        astar_jps_plus_new(&pre, g, NULL) == ASTAR_OK) {
      const astar_scen_query *sq = astar_scen_queries(scen);
      for (size_t i = 0; i < n; i++) q[i] = (astar_query){sq[i].start, sq[i].goal};
      for (int with_pre = 0; with_pre < 2; with_pre++) {
        CHECK_EQ(
            astar_batch_find_paths(b, g, with_pre ? pre : NULL, NULL, q, n, res, NULL, 0, NULL),
            ASTAR_OK);
        size_t wrong = 0;
        for (size_t i = 0; i < n; i++)
          if (res[i].status != ASTAR_OK || fabs(res[i].result.cost - sq[i].optimal_length) >
                                               1e-5 * fmax(1.0, sq[i].optimal_length))
            wrong++;
        CHECKF(wrong == 0, "%s: %zu of %zu queries wrong (%s)", maps[m], wrong, n,
               with_pre ? "jps+" : "a*");
      }
    } else {
      CHECKF(0, "%s: could not set up", maps[m]);
    }
    astar_jps_plus_free(pre);
    astar_batch_free(b);
    free(q), free(res);
    astar_scen_free(scen);
    astar_grid_free(g);
  }
}

/* Short path slots, no slots, turn states missing, bad arguments. */
static void test_statuses(void) {
  astar_grid *g = NULL, *big = NULL;
  CHECK_EQ(astar_grid_new(&g, 16, 8, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&big, 40, 40, NULL), ASTAR_OK);
  astar_batch *b = NULL;
  CHECK_EQ(astar_batch_new(&b, g, 3, NULL), ASTAR_OK);
  if (!g || !big || !b) goto done;
  CHECK_EQ(astar_batch_threads(b), 3);
  CHECK(astar_batch_memory(b) > (size_t)3 * 16 * 8);
  const astar_query q[3] = {{{0, 0}, {15, 0}}, {{0, 0}, {3, 0}}, {{2, 2}, {2, 2}}};
  astar_batch_result res[3];
  astar_point paths[3 * 8];
  /* Slots of 8 cells: the 16-cell path does not fit, the others do. */
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 3, res, paths, 8, NULL), ASTAR_OK);
  CHECK_EQ(res[0].status, ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(res[0].result.length, 16);
  CHECK_EQ(res[1].status, ASTAR_OK);
  CHECK_EQ(res[1].result.length, 4);
  CHECK(paths[8].x == 0 && paths[11].x == 3 && paths[11].y == 0);
  CHECK_EQ(res[2].status, ASTAR_OK);
  CHECK(paths[16].x == 2 && paths[16].y == 2);
  /* No slots: costs only, found paths are OK. */
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK(res[0].status == ASTAR_OK && res[0].result.cost == 15.0 && res[0].result.length == 16);
  /* A turn penalty without turn states, then with them. */
  astar_options o;
  astar_options_init(&o);
  o.turn_penalty = 1;
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, &o, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK_EQ(res[0].status, ASTAR_TURNS_NOT_RESERVED);
  CHECK_EQ(astar_batch_reserve(b, g, true), ASTAR_OK);
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, &o, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK_EQ(res[0].status, ASTAR_OK);
  /* Bad arguments. */
  unsigned used = 99;
  CHECK_EQ(astar_batch_find_paths(NULL, g, NULL, NULL, q, 3, res, NULL, 0, &used),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(used, 0);
  CHECK_EQ(astar_batch_find_paths(b, NULL, NULL, NULL, q, 3, res, NULL, 0, NULL),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, NULL, 3, res, NULL, 0, NULL),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 3, NULL, NULL, 0, NULL),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 3, res, NULL, 4, NULL),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, SIZE_MAX / 2, res, paths, 4, NULL),
           ASTAR_INVALID_ARGUMENT);
  o.moves = 5;
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, &o, q, 3, res, NULL, 0, NULL),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find_paths(b, big, NULL, NULL, q, 3, res, NULL, 0, NULL), ASTAR_CAPACITY);
  CHECK_EQ(astar_batch_reserve(b, big, false), ASTAR_OK);
  CHECK_EQ(astar_batch_find_paths(b, big, NULL, NULL, q, 3, res, NULL, 0, &used), ASTAR_OK);
  CHECK_EQ(used, 3);
  CHECK_EQ(astar_batch_find_paths(b, big, NULL, NULL, q, 0, res, NULL, 0, &used), ASTAR_OK);
  CHECK_EQ(used, 0);
  astar_batch *x = (astar_batch *)&used;
  CHECK_EQ(astar_batch_new(&x, g, ASTAR_BATCH_MAX_THREADS + 1, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(x == NULL);
  CHECK_EQ(astar_batch_new(&x, NULL, 1, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_new(NULL, g, 1, NULL), ASTAR_INVALID_ARGUMENT);
  /* 0 threads: one per online processor. */
  CHECK_EQ(astar_batch_new(&x, g, 0, NULL), ASTAR_OK);
  CHECK(x && astar_batch_threads(x) >= 1);
  astar_batch_free(x);
  astar_batch_free(NULL);
  CHECK_EQ(astar_batch_threads(NULL), 0);
done:
  astar_batch_free(b);
  astar_grid_free(big);
  astar_grid_free(g);
}

/* Fail the 1st, 2nd, ... allocation of astar_batch_new and of a growing
** reserve in turn: a status, nothing leaked, the batch still usable. */
static void test_allocation_failures(void) {
  astar_grid *g = NULL, *big = NULL;
  CHECK_EQ(astar_grid_new(&g, 20, 10, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&big, 30, 30, NULL), ASTAR_OK);
  if (!g || !big) goto done;
  const astar_query q[2] = {{{0, 0}, {19, 9}}, {{19, 0}, {0, 9}}};
  astar_batch_result res[2];
  bool finished = false;
  for (long k = 1; k < 200 && !finished; k++) {
    failalloc fa;
    failalloc_init(&fa);
    fa.fail_at = k;
    astar_allocator a = failalloc_allocator(&fa);
    astar_batch *b = NULL;
    const astar_status st = astar_batch_new(&b, g, 3, &a);
    if (st == ASTAR_OK) {
      finished = fa.failures == 0;
      CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 2, res, NULL, 0, NULL), ASTAR_OK);
      CHECK(res[0].status == ASTAR_OK && res[1].status == ASTAR_OK);
      /* Growing fails at some request after this one, or never. */
      failalloc_fail_in(&fa, 1 + k % 5);
      const astar_status rs = astar_batch_reserve(b, big, true);
      CHECK(rs == ASTAR_OK || rs == ASTAR_NO_MEMORY);
      CHECK_EQ(astar_batch_find_paths(b, g, NULL, NULL, q, 2, res, NULL, 0, NULL), ASTAR_OK);
      CHECK(res[0].status == ASTAR_OK && res[1].status == ASTAR_OK);
      astar_batch_free(b);
    } else {
      CHECK_EQ(st, ASTAR_NO_MEMORY);
      CHECK(b == NULL);
    }
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "fail at %ld: %ld blocks leaked", k, fa.blocks);
    CHECK_EQ(fa.osize_mismatches, 0);
  }
  CHECK(finished);
done:
  astar_grid_free(big);
  astar_grid_free(g);
}

/* The same batch again and again, with 1 and 4 threads: identical output. */
static void test_repeatable(void) {
  rng r;
  rng_seed(&r, 4242);
  randmap_spec spec = {96, 64, 0.3, 1, 0.5, 4.0};
  astar_grid *g = NULL;
  CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
  if (!g) return;
  astar_query q[MAXQ];
  random_queries(g, &r, q, MAXQ);
  astar_batch_result first[MAXQ], again[MAXQ];
  astar_batch *b1 = NULL, *b4 = NULL;
  CHECK_EQ(astar_batch_new(&b1, g, 1, NULL), ASTAR_OK);
  CHECK_EQ(astar_batch_new(&b4, g, 4, NULL), ASTAR_OK);
  if (b1 && b4) {
    CHECK_EQ(astar_batch_find_paths(b1, g, NULL, NULL, q, MAXQ, first, NULL, 0, NULL), ASTAR_OK);
    for (int rep = 0; rep < 5; rep++) {
      CHECK_EQ(astar_batch_find_paths(b4, g, NULL, NULL, q, MAXQ, again, NULL, 0, NULL), ASTAR_OK);
      for (size_t i = 0; i < MAXQ; i++)
        CHECK(first[i].status == again[i].status && first[i].result.cost == again[i].result.cost &&
              first[i].result.stats.expanded == again[i].result.stats.expanded);
    }
  }
  astar_batch_free(b4);
  astar_batch_free(b1);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_astar_matches_serial);
  RUN(test_jps_matches_serial);
  RUN(test_costs_against_dijkstra);
  RUN(test_movingai_small);
  RUN(test_statuses);
  RUN(test_allocation_failures);
  RUN(test_repeatable);
  return check_summary();
}
