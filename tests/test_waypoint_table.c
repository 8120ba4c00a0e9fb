/*
** test_waypoint_table.c -- the precomputed waypoint table of Patel 2.4.1
** (astar/waypoint_table.h) against brute force: all-pairs costs from the
** reference Dijkstra (tests/util/dijkstra.c) on small random grids and
** room-and-door grids, with 4 and 8 moves, every corner rule, random move
** costs and terrain. Checked: every table entry and every nearest waypoint
** both ways; the BOUND form never above the true cost for every (cell,
** goal) pair (compared exactly, no tolerance) and A* with it optimal; the
** SEED form equal to the cost of its path through the two waypoints and
** A* with it legal; the doors of generated room maps found one per door;
** staleness; arguments; every allocation failing in turn.
*/
#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#include <math.h>
#include <stdlib.h>

#define MAXS 14 /* largest side of the random maps */

static uint64_t consistency_pairs, consistency_violations;

/* All-pairs costs: apsp[a * n + b], n = width * height, INFINITY where
** unreachable or blocked. */
static double *all_pairs(const astar_grid *g, const astar_options *o) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const size_t n = (size_t)w * (size_t)h;
  double *m = malloc(sizeof(double) * n * n);
  if (!m) return NULL;
  for (size_t a = 0; a < n; a++) {
    astar_point p = {(int32_t)(a % (size_t)w), (int32_t)(a / (size_t)w)};
    if (ref_dijkstra_all(g, o, p, m + a * n) == (size_t)-1) {
      free(m);
      return NULL;
    }
  }
  return m;
}

static void random_options(astar_options *o, rng *r) {
  astar_options_init(o);
  o->moves = rng_range(r, 0, 2) ? 8 : 4;
  o->corner = (astar_corner)rng_range(r, 0, 3);
  if (rng_range(r, 0, 2) == 0) {
    o->straight_cost = 0.5 + rng_unit(r) * 2.0;
    o->diagonal_cost = o->straight_cost * (0.6 + rng_unit(r) * 1.8);
  }
}

/* One table against brute force. */
static void check_table(const astar_grid *g, const astar_options *o,
                        const astar_waypoint_table_options *wo, const double *ap, rng *r,
                        astar_workspace *ws) {
  astar_waypoint_table *t = NULL;
  astar_status st = astar_waypoint_table_new(&t, g, o, wo, NULL);
  if (st != ASTAR_OK) {
    FAILF("build: %s", astar_strerror(st));
    return;
  }
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const size_t n = (size_t)w * (size_t)h;
  const uint32_t m = astar_waypoint_table_count(t);
  size_t *wc = malloc(sizeof(size_t) * (m ? m : 1));
  for (uint32_t i = 0; i < m; i++) {
    astar_point p = astar_waypoint_table_cell(t, i);
    CHECK(astar_grid_passable(g, p.x, p.y));
    wc[i] = (size_t)p.y * (size_t)w + (size_t)p.x;
  }
  /* D against the reference: never above it, within float rounding of it. */
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < m; j++) {
      const double d = astar_waypoint_table_distance(t, i, j), ref = ap[wc[i] * n + wc[j]];
      if (isinf(ref) != isinf(d) || (!isinf(ref) && (d > ref || d < ref * (1 - 1e-6) - 1e-9)))
        FAILF("D[%u][%u] = %.9g, reference %.9g", i, j, d, ref);
    }
  /* The K nearest waypoints both ways: the r-th cheapest (up to float
  ** rounding), each cost exact within rounding, every waypoint cheaper than
  ** the last listed one listed. */
  const uint32_t K = astar_waypoint_table_nearest_count(t);
  for (size_t c = 0; c < n; c++) {
    const astar_point p = {(int32_t)(c % (size_t)w), (int32_t)(c / (size_t)w)};
    for (int dir = 0; dir < 2; dir++) {
      /* dir 0: costs w -> c (from); dir 1: c -> w (to). */
      double sorted[MAXS * MAXS];
      uint32_t reach = 0;
      for (uint32_t i = 0; i < m; i++) {
        const double v = dir ? ap[c * n + wc[i]] : ap[wc[i] * n + c];
        if (isinf(v)) continue;
        uint32_t j = reach++;
        while (j > 0 && sorted[j - 1] > v) sorted[j] = sorted[j - 1], j--;
        sorted[j] = v;
      }
      bool used[MAXS * MAXS] = {false};
      for (uint32_t rk = 0; rk < K; rk++) {
        uint32_t wi = 0;
        double cost = 0;
        st = dir ? astar_waypoint_table_nearest(t, p, rk, NULL, NULL, &wi, &cost)
                 : astar_waypoint_table_nearest(t, p, rk, &wi, &cost, NULL, NULL);
        if (rk >= reach) {
          if (st != ASTAR_NO_PATH)
            FAILF("(%d,%d) rank %u: %s, expected none", p.x, p.y, rk, astar_strerror(st));
          continue;
        }
        if (st != ASTAR_OK || wi >= m || used[wi]) {
          FAILF("(%d,%d) rank %u dir %d: %s", p.x, p.y, rk, dir, astar_strerror(st));
          continue;
        }
        used[wi] = true;
        const double exact = dir ? ap[c * n + wc[wi]] : ap[wc[wi] * n + c];
        if (cost < exact || cost > exact * (1 + 1e-6) + 1e-9 ||
            !(fabs(exact - sorted[rk]) <= 1e-6 * sorted[rk] + 1e-9))
          FAILF("(%d,%d) rank %u dir %d: waypoint %u cost %.9g (exact %.9g), rank cost %.9g", p.x,
                p.y, rk, dir, wi, cost, exact, sorted[rk]);
      }
    }
    CHECK(astar_waypoint_table_nearest(t, p, K, NULL, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  }
  /* Every (cell, goal) pair: BOUND admissible (exactly), SEED the cheapest
  ** path through a pair of the listed waypoints; consistency of BOUND
  ** counted. */
  for (size_t a = 0; a < n; a++) {
    const astar_point pa = {(int32_t)(a % (size_t)w), (int32_t)(a / (size_t)w)};
    if (!astar_grid_passable(g, pa.x, pa.y)) continue;
    for (size_t b = 0; b < n; b++) {
      const astar_point pb = {(int32_t)(b % (size_t)w), (int32_t)(b / (size_t)w)};
      if (!astar_grid_passable(g, pb.x, pb.y)) continue;
      const double hb = astar_waypoint_table_value(t, ASTAR_TABLE_BOUND, pa, pb);
      const double hs = astar_waypoint_table_value(t, ASTAR_TABLE_SEED, pa, pb);
      const double truth = ap[a * n + b];
      if (!(hb >= 0 && isfinite(hb)) || (!isinf(truth) && hb > truth))
        FAILF("BOUND (%d,%d)->(%d,%d) = %.17g > %.17g", pa.x, pa.y, pb.x, pb.y, hb, truth);
      double through = INFINITY;
      uint32_t tw, fw;
      for (uint32_t rk = 0; rk < K; rk++)
        for (uint32_t q = 0; q < K; q++)
          if (astar_waypoint_table_nearest(t, pa, rk, NULL, NULL, &tw, NULL) == ASTAR_OK &&
              astar_waypoint_table_nearest(t, pb, q, &fw, NULL, NULL, NULL) == ASTAR_OK) {
            const double v = ap[a * n + wc[tw]] + ap[wc[tw] * n + wc[fw]] + ap[wc[fw] * n + b];
            if (v < through) through = v;
          }
      if (!isinf(truth) && !isinf(through) &&
          (fabs(hs - through) > 1e-5 * through + 1e-9 || hs < truth * (1 - 1e-6)))
        FAILF("SEED (%d,%d)->(%d,%d) = %.9g, path through waypoints %.9g, optimum %.9g", pa.x, pa.y,
              pb.x, pb.y, hs, through, truth);
      /* Consistency h(a) <= c(a, s) + h(s) over the legal moves a -> s. */
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          const astar_point s = {pa.x + dx, pa.y + dy};
          double c;
          if ((dx || dy) && validate_step(g, o, pa, s, &c, NULL, 0)) {
            consistency_pairs++;
            if (hb > c + astar_waypoint_table_value(t, ASTAR_TABLE_BOUND, s, pb) + 1e-9)
              consistency_violations++;
          }
        }
    }
  }
  /* A* with each form on random pairs. */
  for (int q = 0; q < 12; q++) {
    const astar_point s = randmap_passable_cell(g, r), e = randmap_passable_cell(g, r);
    if (s.x < 0) break;
    const double truth = ap[((size_t)s.y * w + s.x) * n + (size_t)e.y * w + e.x];
    for (int form = 0; form < 2; form++) {
      astar_waypoint_table_options wf = *wo;
      wf.form = (astar_table_form)form;
      astar_options so = *o;
      so.heuristic = ASTAR_H_CALLBACK;
      so.heuristic_fn = astar_waypoint_table_heuristic;
      /* The heuristic takes its form from the table: a SEED table for form 1. */
      astar_waypoint_table *tf = t;
      if (form == 1 && astar_waypoint_table_new(&tf, g, o, &wf, NULL) != ASTAR_OK) {
        FAILF("seed table");
        continue;
      }
      so.heuristic_ctx = tf;
      astar_point path[MAXS * MAXS];
      astar_result res;
      st = astar_find_path(ws, g, &so, s, e, path, (size_t)MAXS * MAXS, &res);
      char err[160];
      if (isinf(truth)) {
        if (st != ASTAR_NO_PATH) FAILF("form %d: %s, expected no path", form, astar_strerror(st));
      } else if (st != ASTAR_OK) {
        FAILF("form %d: %s", form, astar_strerror(st));
      } else if (!validate_path(g, o, s, e, path, res.length, res.cost, err, sizeof err)) {
        FAILF("form %d: illegal path: %s", form, err);
      } else if (form == 0 && !cost_equal(res.cost, truth)) {
        FAILF("BOUND A* cost %.12g, optimum %.12g", res.cost, truth);
      } else if (form == 1 && res.cost < truth * (1 - 1e-9)) {
        FAILF("SEED A* cost %.12g below the optimum %.12g", res.cost, truth);
      }
      if (tf != t) astar_waypoint_table_free(tf);
    }
  }
  free(wc);
  astar_waypoint_table_free(t);
}

static void test_random(void) {
  rng r;
  rng_seed(&r, 1313);
  astar_workspace *ws = NULL;
  astar_grid *big = NULL;
  CHECK(astar_grid_new(&big, MAXS, MAXS, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&ws, big, NULL) == ASTAR_OK);
  for (int it = 0; it < 200; it++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, MAXS, 1);
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK) {
      FAILF("map");
      continue;
    }
    astar_options o;
    random_options(&o, &r);
    double *ap = all_pairs(g, &o);
    CHECK(ap != NULL);
    astar_waypoint_table_options wo;
    astar_waypoint_table_options_init(&wo);
    wo.pick = (astar_table_pick)(it % 4);
    wo.gap = rng_range(&r, 1, 3);
    wo.tile = rng_range(&r, 1, 6);
    astar_point given[6];
    if (wo.pick == ASTAR_TABLE_GIVEN) {
      size_t k = 0;
      for (int tries = 0; tries < 6; tries++) {
        astar_point p = randmap_passable_cell(g, &r);
        bool dup = p.x < 0;
        for (size_t i = 0; i < k; i++) dup |= given[i].x == p.x && given[i].y == p.y;
        if (!dup) given[k++] = p;
      }
      if (k == 0) wo.pick = ASTAR_TABLE_COARSE;
      wo.cells = given;
      wo.ncells = k;
    }
    if (wo.pick == ASTAR_TABLE_DOORS && rng_range(&r, 0, 1)) wo.max_count = 3; /* thinning */
    wo.nearest = (uint32_t)rng_range(&r, 1, ASTAR_TABLE_MAX_NEAREST);
    if (ap) check_table(g, &o, &wo, ap, &r, ws);
    free(ap);
    astar_grid_free(g);
  }
  astar_workspace_free(ws);
  astar_grid_free(big);
  printf("     BOUND consistency: %llu violations in %llu (cell, move, goal) triples\n",
         (unsigned long long)consistency_violations, (unsigned long long)consistency_pairs);
}

/*
** A rooms map: rw x rh rooms of inner side `room`, one-cell walls, and a
** door of width 1 or 2 in every wall between two neighbouring rooms, away
** from the wall's ends. Door cells are recorded in doors[] (the first cell
** of each door; its second cell follows along the wall).
*/
typedef struct door {
  astar_point a, b; /* its cells (b == a for width 1) */
} door;

static astar_grid *rooms(rng *r, int rw, int rh, int room, door *doors, int *ndoors) {
  const int32_t w = rw * (room + 1) + 1, h = rh * (room + 1) + 1;
  astar_grid *g = NULL;
  if (astar_grid_new(&g, w, h, NULL) != ASTAR_OK) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (x % (room + 1) == 0 || y % (room + 1) == 0) astar_grid_set_passable(g, x, y, false);
  *ndoors = 0;
  for (int ry = 0; ry < rh; ry++)
    for (int rx = 0; rx < rw; rx++) {
      const int32_t x0 = rx * (room + 1), y0 = ry * (room + 1);
      if (rx + 1 < rw) { /* east wall: a vertical wall at x0 + room + 1 */
        const int32_t y = y0 + 1 + rng_range(r, 1, room - 3);
        const int width = rng_range(r, 1, 2);
        door d = {{x0 + room + 1, y}, {x0 + room + 1, y + width - 1}};
        astar_grid_set_passable(g, d.a.x, d.a.y, true);
        astar_grid_set_passable(g, d.b.x, d.b.y, true);
        doors[(*ndoors)++] = d;
      }
      if (ry + 1 < rh) { /* south wall */
        const int32_t x = x0 + 1 + rng_range(r, 1, room - 3);
        const int width = rng_range(r, 1, 2);
        door d = {{x, y0 + room + 1}, {x + width - 1, y0 + room + 1}};
        astar_grid_set_passable(g, d.a.x, d.a.y, true);
        astar_grid_set_passable(g, d.b.x, d.b.y, true);
        doors[(*ndoors)++] = d;
      }
    }
  return g;
}

static void test_doors(void) {
  rng r;
  rng_seed(&r, 4242);
  for (int it = 0; it < 20; it++) {
    door doors[64];
    int nd = 0;
    const int rw = rng_range(&r, 1, 4), rh = rng_range(&r, 1, 4), room = rng_range(&r, 5, 9);
    astar_grid *g = rooms(&r, rw, rh, room, doors, &nd);
    CHECK(g != NULL);
    if (!g) continue;
    astar_waypoint_table_options wo;
    astar_waypoint_table_options_init(&wo); /* AUTO, gap 2 */
    astar_waypoint_table *t = NULL;
    CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_OK);
    const uint32_t m = astar_waypoint_table_count(t);
    if (nd == 0) {
      /* One room: no door, so the coarse grid. */
      CHECK(m >= 1);
    } else {
      CHECKF(m == (uint32_t)nd, "%u waypoints for %d doors", m, nd);
      for (int k = 0; k < nd; k++) {
        int hits = 0;
        for (uint32_t i = 0; i < m; i++) {
          astar_point p = astar_waypoint_table_cell(t, i);
          hits += (p.x == doors[k].a.x && p.y == doors[k].a.y) ||
                  (p.x == doors[k].b.x && p.y == doors[k].b.y);
        }
        CHECKF(hits == 1, "door (%d,%d) has %d waypoints", doors[k].a.x, doors[k].a.y, hits);
      }
    }
    astar_options o;
    astar_options_init(&o);
    const astar_point s = {1, 1}, e = {astar_grid_width(g) - 2, astar_grid_height(g) - 2};
    CHECK(astar_waypoint_table_value(NULL, ASTAR_TABLE_BOUND, s, e) == 0.0);
    const double hb = astar_waypoint_table_value(t, ASTAR_TABLE_BOUND, s, e);
    CHECK(hb <= ref_dijkstra(g, &o, s, e));
    astar_waypoint_table_free(t);
    astar_grid_free(g);
  }
}

static void test_coarse_and_given(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 8, 6, NULL) == ASTAR_OK);
  astar_waypoint_table_options wo;
  astar_waypoint_table_options_init(&wo);
  wo.pick = ASTAR_TABLE_COARSE;
  wo.tile = 4;
  astar_waypoint_table *t = NULL;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_OK);
  /* Tiles [0,4)x[0,4): centre (1.5, 1.5), four cells tie: smaller y, x.
  ** Tiles clipped to the grid: [0,4)x[4,6) has centre (1.5, 4.5). */
  CHECK_EQ(astar_waypoint_table_count(t), 4);
  const astar_point want[4] = {{1, 1}, {5, 1}, {1, 4}, {5, 4}};
  for (uint32_t i = 0; i < 4; i++) {
    astar_point p = astar_waypoint_table_cell(t, i);
    CHECKF(p.x == want[i].x && p.y == want[i].y, "waypoint %u at (%d,%d)", i, p.x, p.y);
  }
  CHECK(astar_waypoint_table_cell(t, 4).x == -1);
  CHECK(isnan(astar_waypoint_table_distance(t, 0, 4)));
  CHECK(astar_waypoint_table_distance(t, 0, 3) > 0);
  astar_waypoint_table_free(t);
  /* Too many tiles for max_count: COARSE fails, AUTO on an open grid
  ** (no doors) doubles the tile. */
  wo.tile = 1;
  wo.max_count = 10;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_TOO_LARGE);
  CHECK(t == NULL);
  wo.pick = ASTAR_TABLE_AUTO;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_OK);
  CHECK(astar_waypoint_table_count(t) <= 10 && astar_waypoint_table_count(t) >= 1);
  astar_waypoint_table_free(t);
  /* GIVEN: bad cells. */
  astar_point cells[3] = {{0, 0}, {7, 5}, {0, 0}};
  wo.pick = ASTAR_TABLE_GIVEN;
  wo.max_count = 1024;
  wo.cells = cells;
  wo.ncells = 3;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_INVALID_ARGUMENT); /* dup */
  cells[2] = (astar_point){8, 0};
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_OUT_OF_BOUNDS);
  cells[2] = (astar_point){3, 3};
  astar_grid_set_passable(g, 3, 3, false);
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_INVALID_ARGUMENT); /* blocked */
  wo.max_count = 2;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_TOO_LARGE);
  wo.max_count = 1024;
  cells[2] = (astar_point){4, 4};
  CHECK(astar_waypoint_table_new(&t, g, NULL, &wo, NULL) == ASTAR_OK);
  CHECK_EQ(astar_waypoint_table_count(t), 3);
  CHECK(astar_waypoint_table_cell(t, 1).x == 7);
  astar_waypoint_table_free(t);
  astar_grid_free(g);
}

static void test_stale_and_arguments(void) {
  astar_grid *g = NULL, *other = NULL;
  CHECK(astar_grid_new(&g, 12, 12, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&other, 12, 12, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < 11; y++) astar_grid_set_passable(g, 6, y, false); /* a wall */
  astar_waypoint_table *t = (astar_waypoint_table *)g;
  astar_waypoint_table_options wo;
  astar_waypoint_table_options_init(&wo);
  CHECK(astar_waypoint_table_new(NULL, g, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoint_table_new(&t, NULL, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(t == NULL);
  const int bad_gap[2] = {0, ASTAR_TABLE_MAX_GAP + 1};
  for (int k = 0; k < 2; k++) {
    astar_waypoint_table_options b = wo;
    b.gap = bad_gap[k];
    CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  }
  astar_waypoint_table_options b = wo;
  b.tile = 0;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  b = wo;
  b.max_count = ASTAR_TABLE_MAX_COUNT + 1;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  b = wo;
  b.pick = ASTAR_TABLE_GIVEN; /* cells NULL */
  CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  b = wo;
  b.nearest = 0;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  b.nearest = ASTAR_TABLE_MAX_NEAREST + 1;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  b = wo;
  b.form = (astar_table_form)7;
  CHECK(astar_waypoint_table_new(&t, g, NULL, &b, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options o;
  astar_options_init(&o);
  o.moves = 5;
  CHECK(astar_waypoint_table_new(&t, g, &o, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(t == NULL);

  astar_options_init(&o);
  CHECK(astar_waypoint_table_new(&t, g, &o, &wo, NULL) == ASTAR_OK);
  CHECK(astar_waypoint_table_count(t) == 1); /* the one-cell gap at (6, 11) */
  CHECK(astar_waypoint_table_cell(t, 0).x == 6 && astar_waypoint_table_cell(t, 0).y == 11);
  CHECK(astar_waypoint_table_current(t, g));
  CHECK(!astar_waypoint_table_current(t, other));
  CHECK(astar_waypoint_table_check(t, g, NULL) == ASTAR_OK);
  CHECK(astar_waypoint_table_check(t, other, NULL) == ASTAR_MISMATCH);
  CHECK(astar_waypoint_table_check(NULL, g, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options o4 = o;
  o4.moves = 4;
  CHECK(astar_waypoint_table_check(t, g, &o4) == ASTAR_MISMATCH);
  o4 = o;
  o4.corner = ASTAR_CORNER_ALWAYS;
  CHECK(astar_waypoint_table_check(t, g, &o4) == ASTAR_MISMATCH);
  o4 = o;
  o4.terrain_scale = 0.5;
  CHECK(astar_waypoint_table_check(t, g, &o4) == ASTAR_MISMATCH);
  CHECK(astar_waypoint_table_form(t) == ASTAR_TABLE_BOUND);
  CHECK(astar_waypoint_table_memory(t) > 0 && astar_waypoint_table_memory(NULL) == 0);
  CHECK(astar_waypoint_table_nearest(t, (astar_point){6, 0}, 0, NULL, NULL, NULL, NULL) ==
        ASTAR_NO_PATH);
  CHECK(astar_waypoint_table_nearest(t, (astar_point){0, 0}, 1, NULL, NULL, NULL, NULL) ==
        ASTAR_NO_PATH); /* one waypoint only */
  CHECK(astar_waypoint_table_nearest(t, (astar_point){12, 0}, 0, NULL, NULL, NULL, NULL) ==
        ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_waypoint_table_nearest(NULL, (astar_point){0, 0}, 0, NULL, NULL, NULL, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoint_table_nearest_count(t) == 4 &&
        astar_waypoint_table_nearest_count(NULL) == 0);

  CHECK(astar_waypoint_table_value(t, ASTAR_TABLE_BOUND, (astar_point){0, 0},
                                   (astar_point){-1, -1}) == 0.0);
  astar_waypoint_table_free(t);

  /* Waypoints on both sides of the wall: the bound sees the detour from
  ** (5,0) to (7,0) under the wall (24 moves), octile says 2. */
  const astar_point s = {5, 0}, e = {7, 0}, both[2] = {{5, 0}, {7, 0}};
  wo.pick = ASTAR_TABLE_GIVEN;
  wo.cells = both;
  wo.ncells = 2;
  CHECK(astar_waypoint_table_new(&t, g, &o, &wo, NULL) == ASTAR_OK);
  const double truth = ref_dijkstra(g, &o, s, e);
  const double hb = astar_waypoint_table_heuristic(t, s, e);
  CHECKF(hb > truth * (1 - 1e-6) && hb <= truth, "h %.9g, truth %.9g", hb, truth);
  CHECK(astar_waypoint_table_value(t, ASTAR_TABLE_SEED, s, e) >= truth * (1 - 1e-6));
  /* Stale: octile again, never the old bound. */
  CHECK(astar_grid_set_passable(g, 6, 0, true) == ASTAR_OK);
  CHECK(!astar_waypoint_table_current(t, g));
  CHECK(astar_waypoint_table_check(t, g, NULL) == ASTAR_STALE);
  const double oct = 2.0 * (1.0 - 0x1p-24); /* octile, lowered by its margin */
  CHECK(astar_waypoint_table_heuristic(t, s, e) == oct);
  CHECK(astar_waypoint_table_value(t, ASTAR_TABLE_SEED, s, e) == oct);
  astar_waypoint_table_free(t);
  astar_waypoint_table_free(NULL);

  /* No passable cell: 0 waypoints, the base heuristic everywhere. */
  CHECK(astar_grid_fill(other, false) == ASTAR_OK);
  CHECK(astar_waypoint_table_new(&t, other, NULL, NULL, NULL) == ASTAR_OK);
  CHECK(astar_waypoint_table_count(t) == 0);
  CHECK(fabs(astar_waypoint_table_value(t, ASTAR_TABLE_SEED, (astar_point){0, 0},
                                        (astar_point){3, 4}) -
             (4 + 3 * (sqrt(2.0) - 1))) < 1e-6);
  astar_waypoint_table_free(t);
  astar_grid_free(g);
  astar_grid_free(other);
}

static void test_failalloc(void) {
  rng r;
  rng_seed(&r, 99);
  door doors[64];
  int nd;
  astar_grid *g = rooms(&r, 3, 2, 6, doors, &nd);
  CHECK(g != NULL);
  astar_grid_set_terrain(g, 2, 2, 3.0f);
  const astar_table_pick picks[3] = {ASTAR_TABLE_DOORS, ASTAR_TABLE_COARSE, ASTAR_TABLE_GIVEN};
  const astar_point cells[2] = {{1, 1}, {9, 3}};
  for (int p = 0; p < 3; p++) {
    astar_waypoint_table_options wo;
    astar_waypoint_table_options_init(&wo);
    wo.pick = picks[p];
    wo.cells = cells;
    wo.ncells = 2;
    int succeeded = 0;
    for (long k = 1; k < 40 && !succeeded; k++) {
      failalloc fa;
      failalloc_init(&fa);
      astar_allocator a = failalloc_allocator(&fa);
      failalloc_fail_in(&fa, k);
      astar_waypoint_table *t = (astar_waypoint_table *)&fa;
      const astar_status st = astar_waypoint_table_new(&t, g, NULL, &wo, &a);
      if (st == ASTAR_OK) {
        succeeded = 1;
        CHECK(fa.failures == 0);
        CHECK(astar_waypoint_table_memory(t) == fa.bytes);
        astar_waypoint_table_free(t);
      } else {
        CHECK(st == ASTAR_NO_MEMORY);
        CHECK(t == NULL);
      }
      CHECK(fa.blocks == 0);
      CHECK(fa.osize_mismatches == 0);
    }
    CHECK(succeeded);
  }
  astar_grid_free(g);
}

int main(void) {
  RUN(test_random);
  RUN(test_doors);
  RUN(test_coarse_and_given);
  RUN(test_stale_and_arguments);
  RUN(test_failalloc);
  return check_summary();
}
