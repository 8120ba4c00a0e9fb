/*
** test_field.c -- distance fields (astar/field.h): on seeded random maps for
** every movement rule, both cost pairs, terrain, terrain_scale and influence
** layers, the cost of every cell equals A*'s cost from it and a plain
** reference Dijkstra's, every field path is a legal walk whose cost is the
** field's, and next steps follow the documented tie order; then max_cost,
** stale grids, statistics, allocation failures and bad or unsupported
** arguments, and a real map.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})
#define MAXSIDE 24
#define MAXCELLS (MAXSIDE * MAXSIDE)

static const int MOVES[2] = {4, 8};
static const astar_corner CORNERS[4] = {ASTAR_CORNER_NO_CUT, ASTAR_CORNER_ALWAYS,
                                        ASTAR_CORNER_ONE_SIDE, ASTAR_CORNER_NEVER};
static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}; /* N E S W NE SE SW NW */
static const int DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

/* Entry factor of (x, y) under o, in the order field.h documents. */
static double factor(const astar_grid *g, const astar_options *o, int32_t x, int32_t y) {
  double f = 1.0;
  if (astar_grid_has_terrain(g)) {
    const double t = (double)astar_grid_terrain(g, x, y);
    f = o->terrain_scale == 1.0 ? t : 1.0 + o->terrain_scale * (t - 1.0);
  }
  for (size_t i = 0; i < o->nlayers; i++)
    f += (double)o->layer_weights[i] * (double)astar_layer_get(o->layers[i], x, y);
  return f;
}

/* Cost of the legal step a -> b (validate_step checks legality), or -1. */
static double step_cost(const astar_grid *g, const astar_options *o, astar_point a, astar_point b) {
  if (!validate_step(g, o, a, b, NULL, NULL, 0)) return -1.0;
  const double c = (a.x != b.x && a.y != b.y) ? o->diagonal_cost : o->straight_cost;
  return c * factor(g, o, b.x, b.y);
}

/* Reference: cost from every cell to `goal` by the plainest Dijkstra there
** is (linear scan for the minimum), dist[y * w + x]. */
static void ref_to_goal(const astar_grid *g, const astar_options *o, astar_point goal,
                        double *dist) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const int n = w * h;
  static unsigned char done[MAXCELLS];
  for (int i = 0; i < n; i++) {
    dist[i] = INFINITY;
    done[i] = 0;
  }
  dist[goal.y * w + goal.x] = 0.0;
  for (;;) {
    int best = -1;
    for (int i = 0; i < n; i++)
      if (!done[i] && dist[i] < INFINITY && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    const astar_point v = P(best % w, best / w);
    for (int d = 0; d < 8; d++) {
      const astar_point u = P(v.x + DX[d], v.y + DY[d]);
      if (u.x < 0 || u.y < 0 || u.x >= w || u.y >= h || done[u.y * w + u.x]) continue;
      const double c = step_cost(g, o, u, v); /* the unit moves u -> v */
      if (c < 0) continue;
      if (dist[best] + c < dist[u.y * w + u.x]) dist[u.y * w + u.x] = dist[best] + c;
    }
  }
}

typedef struct combo {
  int moves;
  astar_corner corner;
  double s, d;
  double scale;
  int layers; /* 0, 1 or 2 */
} combo;

static void describe(char *buf, size_t cap, uint64_t seed, const combo *c, astar_point goal) {
  snprintf(buf, cap, "seed %llu moves %d corner %d costs %g/%g scale %g layers %d goal (%d,%d)",
           (unsigned long long)seed, c->moves, (int)c->corner, c->s, c->d, c->scale, c->layers,
           goal.x, goal.y);
}

/*
** Everything about one field: each cell's cost against A* and the
** reference, each path's legality and cost, and the tie order of the first
** step. Returns the number of cells with a path.
*/
static int check_field(const astar_grid *g, const astar_options *o, astar_point goal,
                       astar_workspace *ws, const char *what) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  static double ref[MAXCELLS];
  static astar_point path[MAXCELLS + 1], apath[MAXCELLS + 1];
  astar_field *f = NULL;
  astar_stats stats;
  const astar_status st = astar_field_new(&f, g, o, goal, 0.0, NULL, &stats);
  CHECKF(st == ASTAR_OK, "%s: %s", what, astar_strerror(st));
  if (!f) return 0;
  ref_to_goal(g, o, goal, ref);
  int reached = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const double fc = astar_field_cost(f, x, y), rc = ref[y * w + x];
      astar_result fr, ar;
      const astar_status fs = astar_field_path(f, g, P(x, y), path, MAXCELLS + 1, &fr);
      const astar_status as = astar_find_path(ws, g, o, P(x, y), goal, apath, MAXCELLS + 1, &ar);
      if (!astar_grid_passable(g, x, y)) {
        if (fc != INFINITY || fs != ASTAR_START_BLOCKED)
          FAILF("%s: blocked (%d,%d): cost %g, path %s", what, x, y, fc, astar_strerror(fs));
        continue;
      }
      if (as == ASTAR_NO_PATH) {
        if (fc != INFINITY || rc != INFINITY || fs != ASTAR_NO_PATH || fr.length != 0 ||
            fr.end.x != -1)
          FAILF("%s: (%d,%d) unreachable for A*: field cost %g, reference %g, path %s", what, x, y,
                fc, rc, astar_strerror(fs));
        continue;
      }
      if (as != ASTAR_OK) {
        FAILF("%s: A* from (%d,%d): %s", what, x, y, astar_strerror(as));
        continue;
      }
      reached++;
      if (!cost_equal(fc, ar.cost) || !cost_equal(fc, rc))
        FAILF("%s: (%d,%d) field cost %.17g, A* %.17g, reference %.17g", what, x, y, fc, ar.cost,
              rc);
      if (fs != ASTAR_OK) {
        FAILF("%s: field path from (%d,%d): %s", what, x, y, astar_strerror(fs));
        continue;
      }
      char err[200];
      size_t bad;
      if (!validate_walk(g, o, path, fr.length, NULL, &bad, err, sizeof err) || path[0].x != x ||
          path[0].y != y || path[fr.length - 1].x != goal.x || path[fr.length - 1].y != goal.y) {
        FAILF("%s: field path from (%d,%d) invalid: %s", what, x, y, err);
        continue;
      }
      /* Step costs summed in path order. */
      double sum = 0.0;
      for (size_t i = 1; i < fr.length; i++) sum += step_cost(g, o, path[i - 1], path[i]);
      if (!cost_equal(sum, fr.cost) || !cost_equal(fr.cost, fc))
        FAILF("%s: path from (%d,%d): result cost %.17g, recomputed %.17g, field %.17g", what, x, y,
              fr.cost, sum, fc);
      /* Without layers the result is that very sum, bit for bit. */
      if (o->nlayers == 0 && sum != fr.cost)
        FAILF("%s: path from (%d,%d): cost %.17g is not the in-order sum %.17g", what, x, y,
              fr.cost, sum);
      if (fr.end.x != goal.x || fr.end.y != goal.y || fr.cause != ASTAR_OK ||
          fr.stats.expanded != 0 || fr.stats.generated != 0)
        FAILF("%s: path from (%d,%d): bad result fields", what, x, y);
      /* Tie order: the first step is the lowest direction among the exact
      ** minima of step + cost(next), computed as the field does. */
      if (fr.length >= 2) {
        double best = INFINITY;
        int best_d = -1;
        for (int d = 0; d < 8; d++) {
          const astar_point v = P(x + DX[d], y + DY[d]);
          const double c = step_cost(g, o, P(x, y), v);
          if (c < 0) continue;
          const double ng = astar_field_cost(f, v.x, v.y) + c;
          if (ng < best) {
            best = ng;
            best_d = d;
          }
        }
        const int got_d = (path[1].x - x + 1) * 10 + (path[1].y - y + 1);
        const int want_d = best_d < 0 ? -1 : (DX[best_d] + 1) * 10 + (DY[best_d] + 1);
        if (best != fc || got_d != want_d)
          FAILF("%s: (%d,%d) first step to (%d,%d), expected direction %d (min %.17g, cost "
                "%.17g)",
                what, x, y, path[1].x, path[1].y, best_d, best, fc);
      }
    }
  /* Statistics: every reachable cell settled once (the goal too). */
  if (stats.expanded != (uint64_t)reached)
    FAILF("%s: expanded %llu, reachable %d", what, (unsigned long long)stats.expanded, reached);
  CHECK(stats.generated >= stats.expanded && stats.max_open >= 1 && stats.reopened == 0);
  astar_field_free(f);
  return reached;
}

static void test_random_fields(void) {
  astar_workspace *ws = NULL;
  int fields = 0, cells = 0;
  astar_layer *layers[2] = {NULL, NULL};
  const float weights[2] = {0.75f, 2.0f};
  for (uint64_t seed = 1; seed <= 160; seed++) {
    rng r;
    rng_seed(&r, seed * 2654435761u);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, MAXSIDE, 1);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    if (!ws) CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_workspace_reserve(ws, g) == ASTAR_OK);
    for (int k = 0; k < 2; k++) {
      CHECK(astar_layer_new(&layers[k], spec.width, spec.height, NULL) == ASTAR_OK);
      for (int32_t y = 0; y < spec.height; y++)
        for (int32_t x = 0; x < spec.width; x++)
          if (rng_next(&r) % 3 == 0)
            astar_layer_set(layers[k], x, y, (float)(rng_range(&r, 0, 192) / 64.0));
    }
    for (int rep = 0; rep < 5; rep++) {
      combo c;
      c.moves = MOVES[rng_next(&r) % 2];
      c.corner = CORNERS[rng_next(&r) % 4];
      if (rng_next(&r) % 2) {
        c.s = 1.0;
        c.d = 1.4142135623730951;
      } else {
        c.s = 10.0;
        c.d = 14.0;
      }
      static const double SCALES[3] = {1.0, 0.5, 0.0};
      c.scale = SCALES[rng_next(&r) % 3];
      c.layers = rep == 4 ? 1 + (int)(rng_next(&r) % 2) : 0;
      astar_options o;
      astar_options_init(&o);
      o.moves = c.moves;
      o.corner = c.corner;
      o.straight_cost = c.s;
      o.diagonal_cost = c.d;
      o.terrain_scale = c.scale;
      o.layers = (const astar_layer *const *)layers;
      o.layer_weights = weights;
      o.nlayers = (size_t)c.layers;
      const astar_point goal = randmap_passable_cell(g, &r);
      if (goal.x < 0) continue;
      char what[200];
      describe(what, sizeof what, seed, &c, goal);
      cells += check_field(g, &o, goal, ws, what);
      fields++;
    }
    for (int k = 0; k < 2; k++) astar_layer_free(layers[k]);
    astar_grid_free(g);
  }
  astar_workspace_free(ws);
  CHECK(fields > 600);
  CHECK(cells > 50000);
}

/* Same grid, options and goal: the same paths, every time. */
static void test_deterministic(void) {
  rng r;
  rng_seed(&r, 4242);
  randmap_spec spec = {40, 30, 0.1, 0, 1, 1};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  const astar_point goal = randmap_passable_cell(g, &r);
  astar_field *a = NULL, *b = NULL;
  CHECK(astar_field_new(&a, g, NULL, goal, 0.0, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_new(&b, g, NULL, goal, 0.0, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_goal(a).x == goal.x && astar_field_goal(a).y == goal.y);
  static astar_point pa[1300], pb[1300];
  for (int k = 0; k < 200; k++) {
    const astar_point s = randmap_passable_cell(g, &r);
    astar_result ra, rb;
    const astar_status sa = astar_field_path(a, g, s, pa, 1300, &ra);
    const astar_status sb = astar_field_path(b, g, s, pb, 1300, &rb);
    CHECK(sa == sb && ra.length == rb.length && ra.cost == rb.cost);
    if (sa == ASTAR_OK) CHECK(memcmp(pa, pb, ra.length * sizeof *pa) == 0);
  }
  astar_field_free(a);
  astar_field_free(b);
  astar_grid_free(g);
}

/* An open 5x5 grid, goal in a corner: the documented tie order picks the
** lowest direction (N before E ... ) among equally cheap next steps. */
static void test_tie_order(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 5, 5, NULL) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  o.moves = 4;
  astar_field *f = NULL;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_OK);
  astar_point p[16];
  astar_result res;
  /* From (2,2) to (0,0) with 4 moves: N (0) beats W (3), so all the Ns come
  ** first: (2,2) (2,1) (2,0) (1,0) (0,0). */
  CHECK(astar_field_path(f, g, P(2, 2), p, 16, &res) == ASTAR_OK);
  CHECK(res.length == 5 && res.cost == 4.0);
  CHECK(p[1].x == 2 && p[1].y == 1 && p[2].x == 2 && p[2].y == 0 && p[3].x == 1 && p[3].y == 0);
  astar_field_free(f);
  /* 8 moves with costs 10/14 (exact sums), goal (4,0) from (0,2): E (1)
  ** and NE (4) are both optimal first steps, and E wins; at (2,2) only NE
  ** is optimal. */
  o.moves = 8;
  o.straight_cost = 10.0;
  o.diagonal_cost = 14.0;
  CHECK(astar_field_new(&f, g, &o, P(4, 0), 0.0, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_path(f, g, P(0, 2), p, 16, &res) == ASTAR_OK);
  CHECK(res.length == 5);
  CHECK(p[1].x == 1 && p[1].y == 2); /* E first, then E, then the two NEs */
  CHECK(p[2].x == 2 && p[2].y == 2 && p[3].x == 3 && p[3].y == 1);
  astar_field_free(f);
  astar_grid_free(g);
}

static void test_max_cost(void) {
  for (uint64_t seed = 1; seed <= 40; seed++) {
    rng r;
    rng_seed(&r, seed * 977);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 1);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    const astar_point goal = randmap_passable_cell(g, &r);
    if (goal.x < 0) {
      astar_grid_free(g);
      continue;
    }
    astar_field *full = NULL, *part = NULL;
    astar_stats sf, sp;
    CHECK(astar_field_new(&full, g, NULL, goal, 0.0, NULL, &sf) == ASTAR_OK);
    /* A bound equal to some cell's cost: that cell must stay in. */
    const astar_point some = randmap_passable_cell(g, &r);
    double bound = astar_field_cost(full, some.x, some.y);
    if (!(bound > 0.0) || bound == INFINITY) bound = 3.0;
    CHECK(astar_field_new(&part, g, NULL, goal, bound, NULL, &sp) == ASTAR_OK);
    CHECK(sp.expanded <= sf.expanded);
    uint64_t inside = 0;
    static astar_point pa[1700], pb[1700];
    for (int32_t y = 0; y < spec.height; y++)
      for (int32_t x = 0; x < spec.width; x++) {
        const double cf = astar_field_cost(full, x, y), cp = astar_field_cost(part, x, y);
        astar_result ra, rb;
        const astar_status sa = astar_field_path(full, g, P(x, y), pa, 1700, &ra);
        const astar_status sb = astar_field_path(part, g, P(x, y), pb, 1700, &rb);
        if (cf <= bound) {
          inside++;
          if (cp != cf || sb != ASTAR_OK || ra.length != rb.length ||
              memcmp(pa, pb, ra.length * sizeof *pa) != 0)
            FAILF("seed %llu (%d,%d): bounded %g vs %g", (unsigned long long)seed, x, y, cp, cf);
        } else {
          if (cp != INFINITY || (sb != ASTAR_NO_PATH && sb != ASTAR_START_BLOCKED))
            FAILF("seed %llu (%d,%d): beyond the bound %g: cost %g, %s", (unsigned long long)seed,
                  x, y, bound, cp, astar_strerror(sb));
          (void)sa;
        }
      }
    CHECK(sp.expanded == inside);
    astar_field_free(full);
    astar_field_free(part);
    astar_grid_free(g);
  }
}

static void test_stale_and_paths(void) {
  astar_grid *g = NULL, *other = NULL;
  CHECK(astar_grid_new(&g, 10, 8, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&other, 8, 10, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 5, 5, false);
  astar_field *f = NULL;
  CHECK(astar_field_new(&f, g, NULL, P(9, 7), 0.0, NULL, NULL) == ASTAR_OK);
  astar_point p[32];
  astar_result res;
  /* The goal itself: one cell, cost 0. */
  CHECK(astar_field_path(f, g, P(9, 7), p, 32, &res) == ASTAR_OK);
  CHECK(res.length == 1 && res.cost == 0.0 && p[0].x == 9 && p[0].y == 7);
  /* Buffer too small: the length is reported, nothing written. */
  p[0] = P(-5, -5);
  CHECK(astar_field_path(f, g, P(0, 0), p, 3, &res) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length == 10 && p[0].x == -5);
  CHECK(astar_field_path(f, g, P(0, 0), NULL, 0, &res) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length == 10);
  CHECK(astar_field_path(f, g, P(0, 0), NULL, 5, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_field_path(f, g, P(0, 0), p, 32, NULL) == ASTAR_OK);
  CHECK(astar_field_path(f, g, P(10, 0), p, 32, &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(res.length == 0 && res.cost == 0.0 && res.end.x == -1);
  CHECK(astar_field_path(f, g, P(0, -1), p, 32, &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_field_path(f, g, P(5, 5), p, 32, &res) == ASTAR_START_BLOCKED);
  CHECK(astar_field_path(f, other, P(0, 0), p, 32, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_field_path(NULL, g, P(0, 0), p, 32, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_field_path(f, NULL, P(0, 0), p, 32, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_field_cost(f, -1, 0) == INFINITY && astar_field_cost(f, 10, 0) == INFINITY);
  CHECK(astar_field_cost(f, 5, 5) == INFINITY);
  CHECK(astar_field_cost(NULL, 0, 0) == INFINITY);
  CHECK(astar_field_cost(f, 9, 7) == 0.0);
  /* Wall the goal in: unreachable cells. */
  astar_field_free(f);
  for (int32_t y = 0; y < 8; y++) astar_grid_set_passable(g, 3, y, false);
  CHECK(astar_field_new(&f, g, NULL, P(9, 7), 0.0, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_path(f, g, P(0, 0), p, 32, &res) == ASTAR_NO_PATH);
  CHECK(res.length == 0 && res.cause == ASTAR_NO_PATH && res.end.x == -1);
  CHECK(astar_field_cost(f, 0, 0) == INFINITY);
  /* The grid changes: stale, costs still readable; terrain counts too. */
  CHECK(astar_grid_set_passable(g, 0, 0, false) == ASTAR_OK);
  CHECK(astar_field_path(f, g, P(4, 4), p, 32, &res) == ASTAR_STALE);
  CHECK(res.length == 0 && res.cause == ASTAR_STALE);
  CHECK(astar_field_cost(f, 4, 4) < INFINITY);
  astar_field_free(f);
  CHECK(astar_field_new(&f, g, NULL, P(9, 7), 0.0, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_path(f, g, P(4, 4), p, 32, &res) == ASTAR_OK);
  CHECK(astar_grid_set_terrain(g, 6, 6, 2.0f) == ASTAR_OK);
  CHECK(astar_field_path(f, g, P(4, 4), p, 32, &res) == ASTAR_STALE);
  astar_field_free(f);
  astar_field_free(NULL);
  astar_grid_free(g);
  astar_grid_free(other);
}

static void test_bad_and_unsupported(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 6, 6, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 2, 2, false);
  astar_field *f = (astar_field *)g;
  astar_stats st = {1, 1, 1, 1};
  CHECK(astar_field_new(NULL, g, NULL, P(0, 0), 0.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_field_new(&f, NULL, NULL, P(0, 0), 0.0, NULL, &st) == ASTAR_INVALID_ARGUMENT);
  CHECK(f == NULL && st.expanded == 0 && st.generated == 0);
  CHECK(astar_field_new(&f, g, NULL, P(6, 0), 0.0, NULL, NULL) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_field_new(&f, g, NULL, P(0, -1), 0.0, NULL, NULL) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_field_new(&f, g, NULL, P(2, 2), 0.0, NULL, NULL) == ASTAR_GOAL_BLOCKED);
  CHECK(astar_field_new(&f, g, NULL, P(0, 0), -1.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_field_new(&f, g, NULL, P(0, 0), NAN, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(f == NULL);
  CHECK(astar_field_new(&f, g, NULL, P(0, 0), INFINITY, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_cost(f, 5, 5) < INFINITY);
  astar_field_free(f);
  astar_options o;
  astar_options_init(&o);
  o.moves = 5;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options_init(&o);
  o.straight_cost = 0.0;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options_init(&o);
  o.turn_penalty = 0.5;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  astar_knowledge *k = NULL;
  CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
  o.knowledge = k;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_UNSUPPORTED);
  CHECK(f == NULL);
  astar_knowledge_free(k);
  /* A layer of another size. */
  astar_layer *l = NULL;
  CHECK(astar_layer_new(&l, 7, 6, NULL) == ASTAR_OK);
  const float wt = 1.0f;
  astar_options_init(&o);
  o.layers = (const astar_layer *const *)&l;
  o.layer_weights = &wt;
  o.nlayers = 1;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_layer_free(l);
  /* Options that do not apply to a field are accepted and ignored. */
  astar_options_init(&o);
  o.heuristic = ASTAR_H_MANHATTAN;
  o.weight = 3.0;
  o.tie = ASTAR_TIE_NEWEST;
  o.max_expansions = 2;
  CHECK(astar_field_new(&f, g, &o, P(0, 0), 0.0, NULL, NULL) == ASTAR_OK);
  CHECK(astar_field_cost(f, 1, 1) == 1.4142135623730951);
  CHECK(astar_field_cost(f, 5, 0) == 5.0);
  astar_field_free(f);
  /* 1x1 grid. */
  astar_grid *one = NULL;
  CHECK(astar_grid_new(&one, 1, 1, NULL) == ASTAR_OK);
  CHECK(astar_field_new(&f, one, NULL, P(0, 0), 0.0, NULL, &st) == ASTAR_OK);
  CHECK(st.expanded == 1 && st.generated == 1 && st.max_open == 1);
  astar_point p;
  astar_result res;
  CHECK(astar_field_path(f, one, P(0, 0), &p, 1, &res) == ASTAR_OK);
  CHECK(res.length == 1 && p.x == 0 && p.y == 0);
  astar_field_free(f);
  astar_grid_free(one);
  astar_grid_free(g);
}

static void test_alloc_failure(void) {
  rng r;
  rng_seed(&r, 99);
  randmap_spec spec = {30, 20, 0.25, 1, 0.5, 4.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  const astar_point goal = randmap_passable_cell(g, &r);
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator al = failalloc_allocator(&fa);
  astar_field *f = NULL;
  CHECK(astar_field_new(&f, g, NULL, goal, 0.0, &al, NULL) == ASTAR_OK);
  const long needed = fa.requests;
  CHECK(needed >= 2);
  /* The temporary heap and index are gone: only the field is held, and
  ** astar_field_memory says how much. */
  CHECK(fa.blocks == 3);
  CHECK(astar_field_memory(f) == fa.bytes);
  CHECK(astar_field_memory(f) >= (size_t)32 * 22 * 9);
  CHECK(astar_field_memory(NULL) == 0);
  const long before = fa.requests;
  astar_point p[700];
  astar_result res;
  for (int k = 0; k < 50; k++)
    astar_field_path(f, g, randmap_passable_cell(g, &r), p, 700, &res); /* no allocation */
  CHECK(fa.requests == before);
  astar_field_free(f);
  CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  for (long k = 1; k <= needed; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    f = (astar_field *)&fa;
    CHECK(astar_field_new(&f, g, NULL, goal, 0.0, &al, NULL) == ASTAR_NO_MEMORY);
    CHECK(f == NULL);
    CHECKF(fa.blocks == 0, "leak after failing request %ld", k);
    CHECK(fa.osize_mismatches == 0);
  }
  astar_grid_free(g);
}

/* A real map: one field, paths from 200 starts, each as cheap as A*'s. */
static void test_real_map(void) {
  FILE *fp = fopen("data/small/cave64.map", "rb");
  CHECK(fp != NULL);
  if (!fp) return;
  static char text[1 << 16];
  const size_t n = fread(text, 1, sizeof text, fp);
  fclose(fp);
  astar_grid *g = NULL;
  CHECK(astar_movingai_parse_map(&g, text, n, NULL, NULL) == ASTAR_OK);
  if (!g) return;
  rng r;
  rng_seed(&r, 7);
  const astar_point goal = randmap_passable_cell(g, &r);
  astar_field *f = NULL;
  CHECK(astar_field_new(&f, g, NULL, goal, 0.0, NULL, NULL) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  static astar_point p[4096];
  int ok = 0;
  for (int k = 0; k < 200; k++) {
    const astar_point s = randmap_passable_cell(g, &r);
    astar_result fr, ar;
    const astar_status fs = astar_field_path(f, g, s, p, 4096, &fr);
    const astar_status as = astar_find_path(ws, g, NULL, s, goal, NULL, 0, &ar);
    if (as == ASTAR_NO_PATH) {
      CHECK(fs == ASTAR_NO_PATH);
      continue;
    }
    CHECK(fs == ASTAR_OK);
    char err[200];
    CHECKF(validate_path(g, NULL, s, goal, p, fr.length, fr.cost, err, sizeof err), "%s", err);
    CHECKF(cost_equal(fr.cost, ar.cost), "(%d,%d): field %.17g, A* %.17g", s.x, s.y, fr.cost,
           ar.cost);
    ok++;
  }
  CHECK(ok > 100);
  astar_workspace_free(ws);
  astar_field_free(f);
  astar_grid_free(g);
}

/* Several goals (astar_field_new_goals): each cell's cost is the least of
** the one-goal fields' costs, its path a legal walk of that cost ending at
** a goal (result.end), and astar_field_export copies exactly what
** astar_field_cost and the paths' first steps say. */
static void test_goals_and_export(void) {
  int checked = 0;
  static double cost[MAXCELLS];
  static uint8_t next[MAXCELLS];
  static astar_point path[MAXCELLS + 1];
  for (uint64_t seed = 1; seed <= 120; seed++) {
    rng r;
    rng_seed(&r, seed * 40503u + 7u);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, MAXSIDE, 1);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_options_init(&o);
    o.moves = MOVES[rng_next(&r) % 2];
    o.corner = CORNERS[rng_next(&r) % 4];
    astar_point goals[4];
    const size_t ngoals = 1 + (size_t)(rng_next(&r) % 4);
    for (size_t i = 0; i < ngoals; i++) goals[i] = randmap_passable_cell(g, &r);
    if (goals[0].x < 0) {
      astar_grid_free(g);
      continue;
    }
    astar_field *multi = NULL, *one[4] = {NULL, NULL, NULL, NULL};
    CHECK(astar_field_new_goals(&multi, g, &o, goals, ngoals, 0.0, NULL, NULL) == ASTAR_OK);
    for (size_t i = 0; i < ngoals; i++)
      CHECK(astar_field_new(&one[i], g, &o, goals[i], 0.0, NULL, NULL) == ASTAR_OK);
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    CHECK(astar_field_export(multi, cost, next, (size_t)(w * h) - 1) == ASTAR_BUFFER_TOO_SMALL);
    CHECK(astar_field_export(multi, cost, next, (size_t)(w * h)) == ASTAR_OK);
    CHECK(astar_field_goal(multi).x == goals[0].x && astar_field_goal(multi).y == goals[0].y);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        double best = INFINITY;
        for (size_t i = 0; i < ngoals; i++) {
          const double c = astar_field_cost(one[i], x, y);
          if (c < best) best = c;
        }
        const double fc = astar_field_cost(multi, x, y);
        if (!(fc == best || cost_equal(fc, best)) || cost[y * w + x] != fc)
          FAILF("seed %llu (%d,%d): goals field %.17g, nearest goal %.17g, export %.17g",
                (unsigned long long)seed, x, y, fc, best, cost[y * w + x]);
        astar_result res;
        const astar_status st = astar_field_path(multi, g, P(x, y), path, MAXCELLS + 1, &res);
        if (st != ASTAR_OK) {
          if (next[y * w + x] != ASTAR_FIELD_NO_STEP) FAILF("(%d,%d): a step without a path", x, y);
          continue;
        }
        char err[200];
        size_t bad;
        int at_goal = 0;
        for (size_t i = 0; i < ngoals; i++)
          at_goal |= res.end.x == goals[i].x && res.end.y == goals[i].y;
        if (!validate_walk(g, &o, path, res.length, NULL, &bad, err, sizeof err) || !at_goal ||
            path[res.length - 1].x != res.end.x || path[res.length - 1].y != res.end.y ||
            !cost_equal(res.cost, fc))
          FAILF("seed %llu: path from (%d,%d) to (%d,%d): %s", (unsigned long long)seed, x, y,
                res.end.x, res.end.y, err);
        const unsigned d = next[y * w + x];
        if (res.length == 1 ? d != ASTAR_FIELD_NO_STEP
                            : d > 7 || path[1].x != x + DX[d] || path[1].y != y + DY[d])
          FAILF("seed %llu (%d,%d): exported step %u", (unsigned long long)seed, x, y, d);
        checked++;
      }
    CHECK(astar_field_export(multi, NULL, next, (size_t)(w * h)) == ASTAR_OK);
    CHECK(astar_field_export(multi, NULL, NULL, (size_t)(w * h)) == ASTAR_INVALID_ARGUMENT);
    astar_field_free(multi);
    for (size_t i = 0; i < ngoals; i++) astar_field_free(one[i]);
    astar_field *f = NULL;
    CHECK(astar_field_new_goals(&f, g, &o, goals, 0, 0.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_field_new_goals(&f, g, &o, NULL, 1, 0.0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
    goals[ngoals - 1] = P(w, 0);
    CHECK(astar_field_new_goals(&f, g, &o, goals, ngoals, 0.0, NULL, NULL) == ASTAR_OUT_OF_BOUNDS);
    CHECK(f == NULL);
    astar_grid_free(g);
  }
  CHECK(checked > 5000);
  CHECK(astar_field_export(NULL, cost, next, 1) == ASTAR_INVALID_ARGUMENT);
}

int main(void) {
  RUN(test_tie_order);
  RUN(test_random_fields);
  RUN(test_deterministic);
  RUN(test_max_cost);
  RUN(test_stale_and_paths);
  RUN(test_bad_and_unsupported);
  RUN(test_alloc_failure);
  RUN(test_real_map);
  RUN(test_goals_and_export);
  return check_summary();
}
