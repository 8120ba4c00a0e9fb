/*
** test_splice.c -- path splicing and re-costing (astar/splice.h) against an
** oracle built from the reference Dijkstra (tests/util/dijkstra.c) and the
** independent path validator (tests/util/validate.c). On random maps
** (every movement rule, with and without terrain) an optimal path is
** found, a unit is put somewhere on it, random cells are blocked (some on
** the path ahead) and the path is repaired. Checked every time: the status
** (start/goal blocked, no path exactly when the reference says so), the
** returned path is legal from the unit to the goal with the claimed cost,
** a full search is optimal, an intact path is optimal, a spliced path
** costs at most max_ratio x the new optimum, and the decision -- intact,
** spliced (how many detours) or full search -- is exactly the one the
** oracle predicts by replaying Patel's rule with reference distances
** (unbounded local searches make the local optimum well defined). Also:
** edge cases by hand, the expansion bound, no_fallback, max_splices,
** too-small buffers, no allocation, arguments, and astar_path_recost.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define MAXP 4096 /* room for any path of the random maps */

#define ROUNDS 1500 /* 0.3 s in Release */

static void random_opt(astar_options *o, rng *r) {
  astar_options_init(o);
  o->moves = rng_range(r, 0, 3) == 0 ? 4 : 8;
  o->corner = (astar_corner)rng_range(r, 0, 3);
  if (rng_range(r, 0, 3) == 0) o->diagonal_cost = 1.5;
}

static double nominal_step(const astar_grid *g, const astar_options *o, astar_point a,
                           astar_point b) {
  const double c = (a.x != b.x && a.y != b.y) ? o->diagonal_cost : o->straight_cost;
  return c * (double)astar_grid_terrain(g, b.x, b.y);
}

/* The oracle: Patel's rule replayed with reference distances. Returns the
** expected kind and the number of splices (for SPLICED). */
static astar_repair_kind oracle(const astar_grid *g, const astar_options *o,
                                const astar_splice_options *so, const astar_point *p, size_t n,
                                size_t pos, uint32_t *splices, size_t *first_break) {
  size_t i = pos, anchor = pos;
  bool broke = false;
  *splices = 0;
  *first_break = n - 1;
  while (i < n - 1) {
    if (validate_step(g, o, p[i], p[i + 1], NULL, NULL, 0)) {
      i++;
      continue;
    }
    if (!broke) *first_break = i;
    broke = true;
    if (so->max_splices && *splices >= so->max_splices) return ASTAR_REPAIR_FULL;
    const size_t a = i >= anchor + so->before ? i - so->before : anchor;
    size_t b = i + 1 + so->after < n - 1 ? i + 1 + so->after : n - 1;
    while (b < n - 1 && !astar_grid_passable(g, p[b].x, p[b].y)) b++;
    double nominal = 0.0;
    for (size_t k = a; k < b; k++) nominal += nominal_step(g, o, p[k], p[k + 1]);
    const double d = ref_dijkstra(g, o, p[a], p[b]);
    if (d < 0.0) return ASTAR_REPAIR_FULL;
    /* A tie within rounding would make the decision depend on the sum's
    ** order: the random cases avoid it by chance, flag it if it happens. */
    if (d > so->max_ratio * nominal) return ASTAR_REPAIR_FULL;
    (*splices)++;
    anchor = i = b;
  }
  return broke ? ASTAR_REPAIR_SPLICED : ASTAR_REPAIR_INTACT;
}

static void test_random(void) {
  rng r;
  rng_seed(&r, 20261124);
  astar_point *path = malloc(MAXP * sizeof *path), *out = malloc(MAXP * sizeof *out);
  int kinds[5] = {0}, nopath = 0, blocked = 0;
  for (int round = 0; round < ROUNDS; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 28, 1);
    if (spec.width < 3) spec.width = 3;
    spec.density *= 0.6;
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK) {
      FAILF("randmap_make");
      continue;
    }
    astar_options o;
    random_opt(&o, &r);
    astar_splice_options so;
    astar_splice_options_init(&so);
    so.before = (size_t)rng_range(&r, 0, 6);
    so.after = (size_t)rng_range(&r, 0, 10);
    so.max_ratio = 1.0 + rng_unit(&r) * 2.0;
    so.max_expansions = UINT64_MAX / 4; /* unbounded: the oracle's local optimum */
    if (rng_range(&r, 0, 7) == 0) so.max_splices = 1;
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_result res;
    if (s.x < 0 || astar_find_path(ws, g, &o, s, t, path, MAXP, &res) != ASTAR_OK) {
      astar_workspace_free(ws);
      astar_grid_free(g);
      continue;
    }
    const size_t n = res.length;
    const size_t pos = (size_t)rng_range(&r, 0, (int32_t)(n - 1));
    /* Edits: block cells, half of them on the path ahead of the unit. */
    const int edits = rng_range(&r, 0, 4);
    for (int e = 0; e < edits; e++) {
      astar_point c;
      if (rng_range(&r, 0, 1) && n - pos > 1)
        c = path[(size_t)rng_range(&r, (int32_t)pos + 1, (int32_t)(n - 1))];
      else
        c = randmap_passable_cell(g, &r);
      /* Block it; the goal only now and then (1 in 4 draws). */
      const bool is_goal = c.x == path[n - 1].x && c.y == path[n - 1].y;
      const bool block = is_goal ? rng_range(&r, 0, 3) == 0 : rng_range(&r, 0, 9) != 0;
      if (c.x >= 0 && block) astar_grid_set_passable(g, c.x, c.y, false);
    }
    size_t len = 0;
    astar_repair rep;
    const astar_status st = astar_path_splice(ws, g, &o, &so, path, n, pos, out, MAXP, &len, &rep);
    const astar_point unit = path[pos], goal = path[n - 1];
    const double best = ref_dijkstra(g, &o, unit, goal);
    if (!astar_grid_passable(g, unit.x, unit.y)) {
      CHECKF(st == ASTAR_START_BLOCKED && rep.kind == ASTAR_REPAIR_BLOCKED, "round %d: %d", round,
             (int)st);
      blocked++;
    } else if (!astar_grid_passable(g, goal.x, goal.y)) {
      CHECKF(st == ASTAR_GOAL_BLOCKED && rep.kind == ASTAR_REPAIR_BLOCKED, "round %d: %d", round,
             (int)st);
      blocked++;
    } else if (best < 0.0) {
      CHECKF(st == ASTAR_NO_PATH && rep.kind == ASTAR_REPAIR_GAVE_UP && len == 0,
             "round %d: %d kind %d", round, (int)st, (int)rep.kind);
      nopath++;
    } else {
      char err[200];
      if (st != ASTAR_OK) {
        FAILF("round %d: status %d", round, (int)st);
      } else {
        CHECK(len == rep.length);
        if (!validate_path(g, &o, unit, goal, out, len, rep.cost, err, sizeof err))
          FAILF("round %d kind %d: %s", round, (int)rep.kind, err);
        uint32_t sp = 0;
        size_t fb = 0;
        const astar_repair_kind want = oracle(g, &o, &so, path, n, pos, &sp, &fb);
        CHECKF(rep.kind == want, "round %d: kind %d, oracle %d", round, (int)rep.kind, (int)want);
        CHECKF(rep.first_break == fb, "round %d: break %zu, oracle %zu", round, rep.first_break,
               fb);
        if (rep.kind == ASTAR_REPAIR_SPLICED)
          CHECKF(rep.splices == sp, "round %d: %u splices, oracle %u", round, rep.splices, sp);
        if (rep.kind == ASTAR_REPAIR_FULL || rep.kind == ASTAR_REPAIR_INTACT)
          CHECKF(cost_equal(rep.cost, best), "round %d kind %d: %.17g vs optimum %.17g", round,
                 (int)rep.kind, rep.cost, best);
        if (rep.kind == ASTAR_REPAIR_SPLICED)
          CHECKF(rep.cost <= so.max_ratio * best * (1 + 1e-9) && rep.cost >= best * (1 - 1e-9),
                 "round %d: %.17g vs optimum %.17g ratio %g", round, rep.cost, best, so.max_ratio);
        kinds[rep.kind]++;
      }
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  /* Every outcome must actually have been exercised. */
  CHECKF(kinds[ASTAR_REPAIR_INTACT] > 20 && kinds[ASTAR_REPAIR_SPLICED] > 20 &&
             kinds[ASTAR_REPAIR_FULL] > 20 && nopath > 3 && blocked > 3,
         "intact %d spliced %d full %d nopath %d blocked %d", kinds[0], kinds[1], kinds[2], nopath,
         blocked);
  free(path);
  free(out);
}

/* A corridor map by hand: the unit walks east along row 2. */
static const char *const ROWS[] = {
    "..........", /* 0 */
    "..........", /* 1 */
    "..........", /* 2 */
    "..........", /* 3 */
    "..........", /* 4 */
};

static size_t east_path(astar_point *p, int32_t y, int32_t x0, int32_t x1) {
  size_t n = 0;
  for (int32_t x = x0; x <= x1; x++) p[n++] = (astar_point){x, y};
  return n;
}

static void test_edges(void) {
  astar_grid *g = randmap_from_rows(ROWS, 5, '#');
  astar_workspace *ws = NULL;
  CHECK(g && astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point p[16], out[64];
  const size_t n = east_path(p, 2, 0, 9);
  size_t len = 99;
  astar_repair rep;
  astar_options o;
  astar_options_init(&o);

  /* Intact: copied from the unit's cell on. */
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 3, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_INTACT && len == 7 && out[0].x == 3 && out[6].x == 9);
  CHECK(cost_equal(rep.cost, 6.0) && rep.first_break == n - 1 && rep.expanded == 0);

  /* Blockage on the unit's next step: the local search starts at the unit. */
  astar_grid_set_passable(g, 4, 2, false);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 3, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_SPLICED && rep.splices == 1 && rep.first_break == 3);
  CHECK(out[0].x == 3 && out[0].y == 2 && out[len - 1].x == 9 && out[len - 1].y == 2);
  CHECK(cost_equal(rep.cost, ref_dijkstra(g, &o, p[3], p[n - 1])) &&
        cost_equal(rep.cost, 6.0 + sqrt(2.0)));

  /* The unit's own cell blocked. */
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 4, out, 64, &len, &rep) == ASTAR_START_BLOCKED);
  CHECK(rep.kind == ASTAR_REPAIR_BLOCKED && len == 0);

  /* A wall across the map: no path. The local search fails, the full search
  ** proves it. */
  for (int32_t y = 0; y < 5; y++) astar_grid_set_passable(g, 6, y, false);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 0, out, 64, &len, &rep) == ASTAR_NO_PATH);
  CHECK(rep.kind == ASTAR_REPAIR_GAVE_UP && rep.full_status == ASTAR_NO_PATH && len == 0);
  CHECK(rep.local_searches == 1);

  /* The blockage at the goal: ASTAR_GOAL_BLOCKED, nothing searched. */
  for (int32_t y = 0; y < 5; y++) astar_grid_set_passable(g, 6, y, true);
  astar_grid_set_passable(g, 4, 2, true);
  astar_grid_set_passable(g, 9, 2, false);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 0, out, 64, &len, &rep) == ASTAR_GOAL_BLOCKED);
  CHECK(rep.kind == ASTAR_REPAIR_BLOCKED && rep.local_searches == 0);
  astar_grid_set_passable(g, 9, 2, true);

  /* The blockage next to the goal: b is clamped to the goal. */
  astar_grid_set_passable(g, 8, 2, false);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 0, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_SPLICED && rep.first_break == 7);
  CHECK(out[len - 1].x == 9 && out[len - 1].y == 2);

  /* max_ratio 0: never splice -> full search, optimal. */
  astar_splice_options so;
  astar_splice_options_init(&so);
  so.max_ratio = 0.0;
  CHECK(astar_path_splice(ws, g, &o, &so, p, n, 0, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_FULL && rep.length_check_failed);
  CHECK(cost_equal(rep.cost, ref_dijkstra(g, &o, p[0], p[n - 1])));
  /* ... and with no_fallback, no path. */
  so.no_fallback = true;
  CHECK(astar_path_splice(ws, g, &o, &so, p, n, 0, out, 64, &len, &rep) == ASTAR_NO_PATH);
  CHECK(rep.kind == ASTAR_REPAIR_GAVE_UP && len == 0 && rep.full_status == ASTAR_OK);

  /* The expansion bound: 1 expansion cannot get around; fallback. */
  astar_splice_options_init(&so);
  so.max_expansions = 1;
  CHECK(astar_path_splice(ws, g, &o, &so, p, n, 0, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_FULL && !rep.length_check_failed && rep.local_searches == 1);

  /* Two breaks far apart: two splices; max_splices 1 -> full search. */
  astar_grid_set_passable(g, 8, 2, true);
  astar_point q[40];
  astar_grid *g2 = NULL;
  CHECK(astar_grid_new(&g2, 40, 5, NULL) == ASTAR_OK);
  CHECK(astar_workspace_reserve(ws, g2) == ASTAR_OK);
  const size_t m = east_path(q, 2, 0, 39);
  astar_grid_set_passable(g2, 5, 2, false);
  astar_grid_set_passable(g2, 30, 2, false);
  astar_splice_options_init(&so);
  CHECK(astar_path_splice(ws, g2, &o, &so, q, m, 0, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_SPLICED && rep.splices == 2 && rep.first_break == 4);
  double c2 = 0.0;
  CHECK(astar_path_cost(g2, &o, out, len, &c2, NULL) == ASTAR_OK && cost_equal(c2, rep.cost));
  so.max_splices = 1;
  CHECK(astar_path_splice(ws, g2, &o, &so, q, m, 0, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_FULL && rep.local_searches == 1);

  /* Too small a buffer: the needed length, then the same path with room. */
  astar_splice_options_init(&so);
  astar_point small[10];
  CHECK(astar_path_splice(ws, g2, &o, &so, q, m, 0, small, 10, &len, &rep) ==
        ASTAR_BUFFER_TOO_SMALL);
  const size_t need = len;
  CHECK(need == rep.length && need > 10);
  CHECK(astar_path_splice(ws, g2, &o, &so, q, m, 0, out, 64, &len, &rep) == ASTAR_OK);
  CHECK(len == need);
  CHECK(astar_path_splice(ws, g2, &o, &so, q, m, 0, NULL, 0, &len, &rep) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(len == need);
  astar_grid_free(g2);

  /* Arguments and unsupported options. */
  CHECK(astar_path_splice(NULL, g, &o, NULL, p, n, 0, out, 64, &len, &rep) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, n, out, 64, &len, &rep) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, 0, 0, out, 64, &len, &rep) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 0, NULL, 64, &len, &rep) ==
        ASTAR_INVALID_ARGUMENT);
  so.max_ratio = NAN;
  CHECK(astar_path_splice(ws, g, &o, &so, p, n, 0, out, 64, &len, &rep) == ASTAR_INVALID_ARGUMENT);
  o.turn_penalty = 1.0;
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 0, out, 64, &len, &rep) == ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  o.terrain_scale = 0.5;
  CHECK(astar_path_splice(ws, g, &o, NULL, p, n, 0, out, 64, &len, &rep) == ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  astar_point outside[2] = {{0, 2}, {10, 2}};
  CHECK(astar_path_splice(ws, g, &o, NULL, outside, 2, 0, out, 64, &len, &rep) ==
        ASTAR_OUT_OF_BOUNDS);
  /* A workspace too small for the grid. */
  astar_grid *big = NULL;
  astar_workspace *tiny = NULL;
  astar_grid *one = NULL;
  CHECK(astar_grid_new(&big, 100, 100, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&one, 2, 2, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&tiny, one, NULL) == ASTAR_OK);
  astar_grid_set_passable(big, 1, 0, false);
  astar_point bp[3] = {{0, 0}, {1, 0}, {2, 0}};
  CHECK(astar_path_splice(tiny, big, &o, NULL, bp, 3, 0, out, 64, &len, &rep) == ASTAR_CAPACITY);
  astar_workspace_free(tiny);
  astar_grid_free(one);
  astar_grid_free(big);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Splicing never allocates: a failing allocator behind the grid and the
** workspace sees no request during repairs. */
static void test_no_alloc(void) {
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  astar_grid *g = NULL;
  astar_workspace *ws = NULL;
  CHECK(astar_grid_new(&g, 30, 30, &al) == ASTAR_OK);
  CHECK(astar_workspace_new(&ws, g, &al) == ASTAR_OK);
  astar_point p[40], out[200];
  const size_t n = east_path(p, 10, 0, 29);
  astar_grid_set_passable(g, 12, 10, false);
  const long before = fa.requests;
  fa.fail_from = fa.requests + 1; /* any request from now on fails */
  size_t len = 0;
  astar_repair rep;
  CHECK(astar_path_splice(ws, g, NULL, NULL, p, n, 0, out, 200, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_SPLICED);
  astar_splice_options so;
  astar_splice_options_init(&so);
  so.max_ratio = 0;
  CHECK(astar_path_splice(ws, g, NULL, &so, p, n, 0, out, 200, &len, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_FULL);
  CHECK(fa.requests == before && fa.failures == 0);
  astar_workspace_free(ws);
  astar_grid_free(g);
  CHECK(fa.blocks == 0);
}

static void test_recost(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 10, 10, NULL) == ASTAR_OK);
  astar_point p[10];
  const size_t n = east_path(p, 3, 0, 9);
  double c = -1;
  size_t fb = 0;
  CHECK(astar_path_recost(g, NULL, p, n, 2, &c, &fb) == ASTAR_OK);
  CHECK(cost_equal(c, 7.0) && fb == n - 1);
  CHECK(astar_grid_set_terrain(g, 5, 3, 4.0f) == ASTAR_OK);
  CHECK(astar_path_recost(g, NULL, p, n, 2, &c, &fb) == ASTAR_OK && cost_equal(c, 10.0));
  CHECK(astar_path_recost(g, NULL, p, n, 6, &c, &fb) == ASTAR_OK && cost_equal(c, 3.0));
  astar_grid_set_passable(g, 7, 3, false);
  CHECK(astar_path_recost(g, NULL, p, n, 2, &c, &fb) == ASTAR_STALE && fb == 6 && c == 0.0);
  CHECK(astar_path_recost(g, NULL, p, n, 7, &c, &fb) == ASTAR_STALE && fb == 7);
  CHECK(astar_path_recost(g, NULL, p, n, 8, &c, &fb) == ASTAR_OK && cost_equal(c, 1.0));
  /* A diagonal whose side cell is blocked under the corner rule. */
  astar_point d[2] = {{0, 0}, {1, 1}};
  astar_grid_set_passable(g, 1, 0, false);
  CHECK(astar_path_recost(g, NULL, d, 2, 0, &c, &fb) == ASTAR_STALE && fb == 0);
  astar_options o;
  astar_options_init(&o);
  o.corner = ASTAR_CORNER_ALWAYS;
  CHECK(astar_path_recost(g, &o, d, 2, 0, &c, &fb) == ASTAR_OK && cost_equal(c, sqrt(2.0)));
  CHECK(astar_path_recost(NULL, NULL, p, n, 0, &c, &fb) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_recost(g, NULL, p, n, n, &c, &fb) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_path_recost(g, NULL, p, n, 0, NULL, &fb) == ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_random);
  RUN(test_edges);
  RUN(test_no_alloc);
  RUN(test_recost);
  return check_summary();
}
