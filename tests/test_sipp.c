/*
** test_sipp.c -- Safe Interval Path Planning (astar/spacetime.h). On seeded
** random maps, every movement rule, with moving obstacles (random walks
** that wait, turned into occupancies) and random occupancy intervals
** (some for ever): the arrival time equals a brute-force breadth-first
** search over (cell, time), with and without hold_goal; the path is a
** legal timed walk from the start at t0 to the goal that never meets an
** obstacle. Then the intervals themselves, the statuses and allocation
** failures.
*/
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})
#define MAXSIDE 10
#define MAXCELLS (MAXSIDE * MAXSIDE)
#define MAXOCC 200
#define MAXT 160 /* the brute force's last time step */

static const int MOVES[2] = {4, 8};
static const astar_corner CORNERS[4] = {ASTAR_CORNER_NO_CUT, ASTAR_CORNER_ALWAYS,
                                        ASTAR_CORNER_ONE_SIDE, ASTAR_CORNER_NEVER};

static int occupied(const astar_occupancy *occ, size_t n, astar_point c, uint32_t t) {
  for (size_t k = 0; k < n; k++)
    if (occ[k].cell.x == c.x && occ[k].cell.y == c.y && occ[k].t_from <= t && t <= occ[k].t_to)
      return 1;
  return 0;
}

static int occupied_later(const astar_occupancy *occ, size_t n, astar_point c, uint32_t t) {
  for (size_t k = 0; k < n; k++)
    if (occ[k].cell.x == c.x && occ[k].cell.y == c.y && occ[k].t_to >= t) return 1;
  return 0;
}

/* Earliest arrival by BFS over (cell, t), t0 <= t <= MAXT; -1 if none. */
static long brute(const astar_grid *g, const astar_options *o, const astar_occupancy *occ, size_t n,
                  astar_point s, astar_point goal, uint32_t t0, int hold) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  static unsigned char reach[2][MAXCELLS];
  memset(reach, 0, sizeof reach);
  if (occupied(occ, n, s, t0)) return -1;
  reach[0][s.y * w + s.x] = 1;
  for (uint32_t t = t0;; t++) {
    unsigned char *cur = reach[(t - t0) & 1], *nxt = reach[(t - t0 + 1) & 1];
    if (cur[(size_t)goal.y * (size_t)w + (size_t)goal.x] &&
        (!hold || !occupied_later(occ, n, goal, t)))
      return (long)t;
    if (t == MAXT) return -1;
    memset(nxt, 0, MAXCELLS);
    for (int i = 0; i < w * h; i++) {
      if (!cur[i]) continue;
      const astar_point p = P(i % w, i / w);
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          const astar_point q = P(p.x + dx, p.y + dy);
          if (!astar_grid_contains(g, q.x, q.y)) continue;
          if ((dx || dy) && !validate_step(g, o, p, q, NULL, NULL, 0)) continue;
          if (occupied(occ, n, q, t + 1)) continue;
          nxt[q.y * w + q.x] = 1;
        }
    }
  }
}

/* Random obstacles: walkers (a cell per time step, waits included) and
** a few random intervals, one of them possibly for ever. */
static size_t make_obstacles(const astar_grid *g, rng *r, astar_occupancy *occ) {
  size_t n = 0;
  const int walkers = rng_range(r, 0, 4);
  for (int k = 0; k < walkers; k++) {
    astar_point p = randmap_passable_cell(g, r);
    if (p.x < 0) break;
    uint32_t t = (uint32_t)rng_range(r, 0, 5);
    const int steps = rng_range(r, 3, 25);
    for (int s = 0; s < steps && n < MAXOCC - 8; s++) {
      const uint32_t stay = (uint32_t)rng_range(r, 0, 2);
      occ[n++] = (astar_occupancy){p, t, t + stay};
      t += stay + 1;
      const astar_point q = P(p.x + rng_range(r, -1, 1), p.y + rng_range(r, -1, 1));
      if (astar_grid_passable(g, q.x, q.y)) p = q;
    }
  }
  const int extra = rng_range(r, 0, 6);
  for (int k = 0; k < extra && n < MAXOCC; k++) {
    const astar_point p = randmap_passable_cell(g, r);
    if (p.x < 0) break;
    const uint32_t a = (uint32_t)rng_range(r, 0, 30);
    const uint32_t b = rng_range(r, 0, 9) == 0 ? ASTAR_TIME_MAX : a + (uint32_t)rng_range(r, 0, 8);
    occ[n++] = (astar_occupancy){p, a, b};
  }
  return n;
}

static void test_random(void) {
  rng r;
  rng_seed(&r, 2011);
  astar_spacetime_workspace *ws = NULL;
  CHECK(astar_spacetime_workspace_new(&ws, 1 << 14, NULL) == ASTAR_OK);
  if (!ws) return;
  static astar_occupancy occ[MAXOCC];
  static astar_point path[MAXT + 2];
  int found = 0, none = 0;
  for (int round = 0; round < 1500; round++) {
    randmap_spec spec = {
        rng_range(&r, 2, MAXSIDE), rng_range(&r, 2, MAXSIDE), rng_unit(&r) * 0.3, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_options_init(&o);
    o.moves = MOVES[rng_range(&r, 0, 1)];
    o.corner = CORNERS[rng_range(&r, 0, 3)];
    const size_t n = make_obstacles(g, &r, occ);
    astar_sipp *sp = NULL;
    CHECK(astar_sipp_new(&sp, g, occ, n, NULL) == ASTAR_OK);
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    if (!sp || s.x < 0) {
      astar_sipp_free(sp);
      astar_grid_free(g);
      continue;
    }
    const uint32_t t0 = (uint32_t)rng_range(&r, 0, 6);
    const int hold = rng_range(&r, 0, 1);
    astar_coop_result cr;
    const astar_status st =
        astar_sipp_find_path(ws, sp, g, &o, s, t, t0, hold != 0, path, MAXT + 2, &cr);
    const long ref = brute(g, &o, occ, n, s, t, t0, hold);
    if (st == ASTAR_OK && cr.arrival <= MAXT) {
      found++;
      CHECKF((long)cr.arrival == ref, "round %d: arrival %u, brute %ld", round, cr.arrival, ref);
      CHECK(cr.length == cr.arrival - t0 + 1 && cr.cost == (double)(cr.arrival - t0));
      CHECK(path[0].x == s.x && path[0].y == s.y);
      CHECK(path[cr.length - 1].x == t.x && path[cr.length - 1].y == t.y);
      for (size_t k = 0; k < cr.length; k++) {
        if (occupied(occ, n, path[k], t0 + (uint32_t)k))
          FAILF("round %d: the path meets an obstacle at step %zu", round, k);
        if (k > 0 && (path[k].x != path[k - 1].x || path[k].y != path[k - 1].y) &&
            !validate_step(g, &o, path[k - 1], path[k], NULL, NULL, 0))
          FAILF("round %d: illegal step %zu", round, k);
      }
    } else if (st == ASTAR_OK) {
      CHECK(ref < 0); /* beyond the brute force's reach */
    } else {
      none++;
      CHECKF(st == ASTAR_NO_PATH || st == ASTAR_START_BLOCKED || st == ASTAR_GOAL_BLOCKED,
             "round %d: %s", round, astar_strerror(st));
      CHECKF(ref < 0, "round %d: %s but brute arrives at %ld", round, astar_strerror(st), ref);
    }
    astar_sipp_free(sp);
    astar_grid_free(g);
  }
  printf("     %d paths compared, %d without a path\n", found, none);
  CHECK(found > 1000);
  astar_spacetime_workspace_free(ws);
}

/* Safe intervals on one cell, statuses. */
static void test_intervals_and_statuses(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 5, 1, NULL) == ASTAR_OK);
  if (!g) return;
  /* A corridor; (2,0) is occupied at 2..4 and 6..6 (and 3..5 overlaps). */
  const astar_occupancy occ[3] = {{P(2, 0), 2, 4}, {P(2, 0), 6, 6}, {P(2, 0), 3, 5}};
  astar_sipp *sp = NULL;
  CHECK(astar_sipp_new(&sp, g, occ, 3, NULL) == ASTAR_OK);
  if (!sp) return;
  /* 7 padded cells x 3 rows = 21 cells with one interval, (2,0) two more. */
  CHECK(astar_sipp_intervals(sp) == 21 + 1);
  astar_spacetime_workspace *ws = NULL;
  CHECK(astar_spacetime_workspace_new(&ws, 256, NULL) == ASTAR_OK);
  astar_point path[32];
  astar_coop_result cr;
  /* From (0,0) at 0: (2,0) is free at 1 only, then from 7: arrive (4,0) at 4? at 1 we
  ** can be in (2,0) only if we got there in 2 steps: no. So wait until 7. */
  CHECK(astar_sipp_find_path(ws, sp, g, NULL, P(0, 0), P(4, 0), 0, false, path, 32, &cr) ==
        ASTAR_OK);
  CHECK(cr.arrival == 9 && cr.length == 10);
  CHECK(path[7].x == 2 && path[6].x == 1);
  CHECK(astar_sipp_find_path(ws, sp, g, NULL, P(0, 0), P(4, 0), 0, false, path, 3, &cr) ==
        ASTAR_BUFFER_TOO_SMALL);
  CHECK(cr.length == 10);
  /* Statuses. */
  CHECK(astar_sipp_find_path(ws, sp, g, NULL, P(2, 0), P(4, 0), 3, false, path, 32, &cr) ==
        ASTAR_START_BLOCKED);
  CHECK(astar_sipp_find_path(ws, sp, g, NULL, P(0, 0), P(5, 0), 0, false, path, 32, &cr) ==
        ASTAR_OUT_OF_BOUNDS);
  astar_options o;
  astar_options_init(&o);
  o.max_expansions = 1;
  CHECK(astar_sipp_find_path(ws, sp, g, &o, P(0, 0), P(4, 0), 0, false, path, 32, &cr) ==
        ASTAR_LIMIT_REACHED);
  astar_spacetime_workspace *tiny = NULL;
  CHECK(astar_spacetime_workspace_new(&tiny, 2, NULL) == ASTAR_OK);
  CHECK(astar_sipp_find_path(tiny, sp, g, NULL, P(0, 0), P(4, 0), 0, false, path, 32, &cr) ==
        ASTAR_CAPACITY);
  astar_spacetime_workspace_free(tiny);
  /* A goal occupied for ever: hold_goal refuses, a visit is fine. */
  const astar_occupancy forever[1] = {{P(4, 0), 5, ASTAR_TIME_MAX}};
  astar_sipp *sp2 = NULL;
  CHECK(astar_sipp_new(&sp2, g, forever, 1, NULL) == ASTAR_OK);
  CHECK(astar_sipp_find_path(ws, sp2, g, NULL, P(0, 0), P(4, 0), 0, true, path, 32, &cr) ==
        ASTAR_GOAL_BLOCKED);
  CHECK(astar_sipp_find_path(ws, sp2, g, NULL, P(0, 0), P(4, 0), 0, false, path, 32, &cr) ==
        ASTAR_OK);
  CHECK(cr.arrival == 4);
  CHECK(astar_sipp_find_path(ws, sp2, g, NULL, P(0, 0), P(4, 0), 1, false, path, 32, &cr) ==
        ASTAR_NO_PATH);
  astar_sipp_free(sp2);
  /* Bad occupancies. */
  const astar_occupancy bad1[1] = {{P(9, 0), 0, 1}};
  const astar_occupancy bad2[1] = {{P(1, 0), 5, 1}};
  CHECK(astar_sipp_new(&sp2, g, bad1, 1, NULL) == ASTAR_OUT_OF_BOUNDS && sp2 == NULL);
  CHECK(astar_sipp_new(&sp2, g, bad2, 1, NULL) == ASTAR_INVALID_ARGUMENT && sp2 == NULL);
  CHECK(astar_sipp_new(&sp2, g, NULL, 1, NULL) == ASTAR_INVALID_ARGUMENT);
  /* Stale and mismatched grids. */
  astar_grid *other = NULL;
  CHECK(astar_grid_new(&other, 6, 1, NULL) == ASTAR_OK);
  CHECK(astar_sipp_find_path(ws, sp, other, NULL, P(0, 0), P(4, 0), 0, false, path, 32, &cr) ==
        ASTAR_MISMATCH);
  astar_grid_free(other);
  CHECK(astar_grid_set_passable(g, 3, 0, false) == ASTAR_OK);
  CHECK(astar_sipp_find_path(ws, sp, g, NULL, P(0, 0), P(4, 0), 0, false, path, 32, &cr) ==
        ASTAR_STALE);
  CHECK(astar_sipp_memory(sp) > 0 && astar_sipp_memory(NULL) == 0);
  astar_sipp_free(sp);
  astar_sipp_free(NULL);
  astar_spacetime_workspace_free(ws);
  astar_grid_free(g);
}

static void test_alloc_failure(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 6, 6, NULL) == ASTAR_OK);
  const astar_occupancy occ[2] = {{P(1, 1), 0, 3}, {P(2, 2), 1, 1}};
  failalloc fa;
  astar_allocator al = failalloc_allocator(&fa);
  failalloc_init(&fa);
  astar_sipp *sp = NULL;
  CHECK(astar_sipp_new(&sp, g, occ, 2, &al) == ASTAR_OK);
  const long needed = fa.requests;
  CHECK(needed >= 3);
  CHECK(astar_sipp_memory(sp) == fa.bytes);
  astar_sipp_free(sp);
  CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  for (long k = 1; k <= needed; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    sp = (astar_sipp *)&fa;
    CHECK(astar_sipp_new(&sp, g, occ, 2, &al) == ASTAR_NO_MEMORY && sp == NULL);
    CHECKF(fa.blocks == 0, "leak after failing request %ld", k);
  }
  astar_grid_free(g);
}

int main(void) {
  RUN(test_intervals_and_statuses);
  RUN(test_random);
  RUN(test_alloc_failure);
  return check_summary();
}
