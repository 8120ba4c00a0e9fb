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

#define MAXS 14                    /* largest side of the random maps */
#define MAXC ((size_t)MAXS * MAXS) /* most cells */

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

/* ---- smoothing with weights: terrain, layers, fog ------------------------------ */

/* A cell's entry cost factor as the grid search computes it (astar/search.h),
** re-derived from the public getters: the reference for weighted lengths. */
typedef struct factor_ctx {
  const astar_grid *g;
  const astar_options *o;
} factor_ctx;

static double ref_factor(void *ctx, int32_t x, int32_t y) {
  const factor_ctx *c = ctx;
  double f = 1.0 + c->o->terrain_scale * ((double)astar_grid_terrain(c->g, x, y) - 1.0);
  for (size_t i = 0; i < c->o->nlayers; i++)
    f += (double)c->o->layer_weights[i] * (double)astar_layer_get(c->o->layers[i], x, y);
  if (c->o->knowledge && c->o->unknown == ASTAR_UNKNOWN_COST &&
      astar_knowledge_get(c->o->knowledge, x, y) == ASTAR_CELL_UNKNOWN)
    f *= c->o->unknown_cost;
  return f;
}

/* straight_cost x the weighted length of the polyline through p[0 .. n-1],
** by segment-square clipping (util/sightref.c), not the library's walk. */
static double ref_polyline_cost(const astar_grid *g, const astar_options *o, const astar_point *p,
                                size_t n) {
  factor_ctx c = {g, o};
  double sum = 0.0;
  for (size_t i = 1; i < n; i++) sum += ref_weighted_length(p[i - 1], p[i], ref_factor, &c);
  return o->straight_cost * sum;
}

/* The case: a 20 x 9 map with a cost-9 swamp (x 5..14, y 1..7)
** between S (0,4) and G (19,4). The grid optimum goes round it (11 + 8
** sqrt 2 = 22.31); the straight line S-G is 19 long but its cells cost 99.
** Smoothing must keep going round, and report what its path costs. */
static void test_smooth_swamp(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 20, 9, NULL) == ASTAR_OK);
  if (!g) return;
  for (int32_t y = 1; y <= 7; y++)
    for (int32_t x = 5; x <= 14; x++) CHECK(astar_grid_set_terrain(g, x, y, 9.0f) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  const astar_point s = {0, 4}, t = {19, 4};
  astar_point path[64], out[64];
  astar_result res;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_OK);
  CHECK(fabs(res.cost - (11.0 + 8.0 * sqrt(2.0))) < 1e-9);
  /* The grid path stays on cost-1 cells: its polyline costs what it does. */
  const double grid_poly = ref_polyline_cost(g, &o, path, res.length);
  CHECK(cost_equal(grid_poly, res.cost));
  size_t len = 0;
  CHECK(astar_path_smooth(g, &o, path, res.length, out, 64, &len) == ASTAR_OK);
  CHECK(len >= 3); /* it bends round the swamp */
  const double ref = ref_polyline_cost(g, &o, out, len);
  CHECKF(ref <= grid_poly + 1e-9, "smoothed %.9f, grid path %.9f (%zu points)", ref, grid_poly,
         len);
  CHECK(ref < grid_poly - 0.5); /* and still straightens the detour */
  double reported = -1;
  size_t bad = 99;
  CHECK(astar_polyline_cost(g, &o, out, len, &reported, &bad) == ASTAR_OK);
  CHECKF(cost_equal(reported, ref), "reported %.9f, recomputed %.9f", reported, ref);
  /* The straight line itself: 19 long, 99 by the grid's moves, and as a
  ** segment 0.5 + 4 + 10 x 9 + 4 + 0.5. */
  const astar_point line[2] = {s, t};
  CHECK(astar_polyline_cost(g, &o, line, 2, &reported, NULL) == ASTAR_OK);
  CHECK(fabs(reported - 99.0) < 1e-9);
  /* With terrain_scale 0 the swamp is ignored: the one segment. */
  o.terrain_scale = 0.0;
  CHECK(astar_path_smooth(g, &o, path, res.length, out, 64, &len) == ASTAR_OK);
  CHECK(len == 2);
  CHECK(astar_polyline_cost(g, &o, out, len, &reported, NULL) == ASTAR_OK);
  CHECK(reported == 19.0);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Random maps with patches of terrain (and sometimes an influence layer and
** terrain_scale 1/2) under every rule: the smoothed path keeps its ends, is
** in sight, costs (astar_polyline_cost, against the clipping reference) no
** more than the grid path's polyline, and in place gives the same points. */
static void test_smooth_terrain_random(void) {
  rng r;
  rng_seed(&r, 25);
  static astar_point path[MAXC], out[MAXC], plain[MAXC], inplace[MAXC];
  long smoothed = 0, refused = 0, cheaper = 0;
  for (int m = 0; m < 200; m++) {
    astar_grid *g = random_map(&r);
    CHECK(g != NULL);
    if (!g) break;
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if (rng_range(&r, 0, 9) < 4) /* multiples of 1/64: exact in a float */
          CHECK(astar_grid_set_terrain(g, x, y, (float)rng_range(&r, 32, 640) / 64.0f) == ASTAR_OK);
    astar_layer *layer = NULL;
    CHECK(astar_layer_new(&layer, w, h, NULL) == ASTAR_OK);
    for (int i = 0; i < 3; i++)
      CHECK(astar_layer_add_cone(layer, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1),
                                 (float)rng_range(&r, 1, 6),
                                 (float)rng_range(&r, 1, 8)) == ASTAR_OK);
    const astar_layer *layers[1] = {layer};
    const float weights[1] = {0.5f};
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int k = 0; k < 4; k++) {
      astar_options o;
      rule_options(&o, k);
      if (m % 3 == 1) o.terrain_scale = 0.5;
      if (m % 4 == 2) {
        o.layers = layers;
        o.layer_weights = weights;
        o.nlayers = 1;
      }
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
        const double grid_poly = ref_polyline_cost(g, &o, path, res.length);
        const double ref = ref_polyline_cost(g, &o, out, len);
        double reported = -1;
        CHECK(astar_polyline_cost(g, &o, out, len, &reported, NULL) == ASTAR_OK);
        if (!cost_equal(reported, ref))
          FAILF("map %d rule %d: reported %.12g, recomputed %.12g", m, k, reported, ref);
        if (ref > grid_poly * (1 + 1e-9))
          FAILF("map %d rule %d: smoothed %.12g above the grid path's %.12g", m, k, ref, grid_poly);
        smoothed++;
        cheaper += ref < grid_poly - 1e-9;
        /* Where weights kept a bend that sight alone would drop. */
        astar_options flat = o;
        flat.terrain_scale = 0.0;
        flat.nlayers = 0;
        size_t plen = 0;
        CHECK(astar_path_smooth(g, &flat, path, res.length, plain, MAXC, &plen) == ASTAR_OK);
        refused += plen < len;
        /* In place: the same points. */
        for (size_t i = 0; i < res.length; i++) inplace[i] = path[i];
        size_t il = 0;
        CHECK(astar_path_smooth(g, &o, inplace, res.length, inplace, res.length, &il) == ASTAR_OK);
        CHECK(il == len);
        for (size_t i = 0; i < len && i < il; i++)
          CHECK(inplace[i].x == out[i].x && inplace[i].y == out[i].y);
      }
    }
    astar_workspace_free(ws);
    astar_layer_free(layer);
    astar_grid_free(g);
  }
  printf("     %ld weighted paths smoothed: %ld cheaper than the grid path's polyline, %ld "
         "keeping bends that sight alone would drop\n",
         smoothed, cheaper, refused);
  CHECK(smoothed > 1000);
  CHECK(refused > smoothed / 20); /* the weights matter often */
  CHECK(cheaper > smoothed / 10); /* and smoothing still pays */
}

/* Fog of war: random knowledge (states set at random, true or not), every
** unknown-cell policy. The smoothed path is in sight on the player's view
** (a grid made of it, the start open), costs what the reference says and
** no more than the grid path's polyline. */
static void test_smooth_knowledge_random(void) {
  rng r;
  rng_seed(&r, 26);
  static astar_point path[MAXC], out[MAXC];
  long smoothed = 0, through_unknown = 0;
  for (int m = 0; m < 200; m++) {
    astar_grid *g = random_map(&r);
    CHECK(g != NULL);
    if (!g) break;
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    if (m % 2)
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
          if (rng_range(&r, 0, 3) == 0)
            CHECK(astar_grid_set_terrain(g, x, y, (float)rng_range(&r, 32, 640) / 64.0f) ==
                  ASTAR_OK);
    astar_knowledge *k = NULL;
    CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_grid *view = NULL;
    CHECK(astar_grid_new(&view, w, h, NULL) == ASTAR_OK);
    for (int rule = 0; rule < 4; rule++) {
      astar_options o;
      rule_options(&o, rule);
      o.knowledge = k;
      o.unknown = (astar_unknown)rng_range(&r, 0, 2);
      o.unknown_cost = rng_range(&r, 0, 1) ? 2.0 : 0.5;
      for (int q = 0; q < 10; q++) {
        astar_knowledge_clear(k);
        for (int32_t y = 0; y < h; y++)
          for (int32_t x = 0; x < w; x++) {
            const int32_t pick = rng_range(&r, 0, 5);
            if (pick < 3) /* unknown */
              continue;
            if (pick < 5)
              CHECK(astar_knowledge_reveal(k, g, x, y) == ASTAR_OK);
            else
              CHECK(astar_knowledge_set(k, x, y, (astar_cell_knowledge)rng_range(&r, 1, 2)) ==
                    ASTAR_OK);
          }
        const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
        if (s.x < 0) continue;
        astar_result res;
        if (astar_find_path(ws, g, &o, s, t, path, MAXC, &res) != ASTAR_OK) continue;
        for (int32_t y = 0; y < h; y++)
          for (int32_t x = 0; x < w; x++) {
            const astar_cell_knowledge c = astar_knowledge_get(k, x, y);
            const bool open = c == ASTAR_CELL_PASSABLE ||
                              (c == ASTAR_CELL_UNKNOWN && o.unknown != ASTAR_UNKNOWN_BLOCKED);
            astar_grid_set_passable(view, x, y, open || (x == s.x && y == s.y));
          }
        size_t len = 0;
        CHECK(astar_path_smooth(g, &o, path, res.length, out, MAXC, &len) == ASTAR_OK);
        CHECK(out[0].x == s.x && out[0].y == s.y);
        CHECK(out[len - 1].x == t.x && out[len - 1].y == t.y);
        for (size_t i = 1; i < len; i++)
          if (!ref_sight(view, o.corner, out[i - 1], out[i]))
            FAILF("map %d rule %d: segment %zu (%d,%d)-(%d,%d) not in sight on the view", m, rule,
                  i, out[i - 1].x, out[i - 1].y, out[i].x, out[i].y);
        const double grid_poly = ref_polyline_cost(g, &o, path, res.length);
        const double ref = ref_polyline_cost(g, &o, out, len);
        double reported = -1;
        CHECK(astar_polyline_cost(g, &o, out, len, &reported, NULL) == ASTAR_OK);
        if (!cost_equal(reported, ref))
          FAILF("map %d rule %d: reported %.12g, recomputed %.12g", m, rule, reported, ref);
        if (ref > grid_poly * (1 + 1e-9))
          FAILF("map %d rule %d: smoothed %.12g above the grid path's %.12g", m, rule, ref,
                grid_poly);
        smoothed++;
        for (size_t i = 0; i < res.length; i++)
          through_unknown += !astar_grid_passable(g, path[i].x, path[i].y);
      }
    }
    astar_grid_free(view);
    astar_workspace_free(ws);
    astar_knowledge_free(k);
    astar_grid_free(g);
  }
  CHECK(smoothed > 1000);
  CHECK(through_unknown > 0); /* paths do cross cells blocked in truth */
}

/* astar_polyline_cost: statuses, the index of the first bad point, and the
** uniform case equal to straight_cost x astar_polyline_length. */
static void test_polyline_cost_arguments(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 6, 4, NULL) == ASTAR_OK);
  if (!g) return;
  astar_grid_set_passable(g, 2, 1, false);
  astar_point p[4] = {{0, 0}, {5, 0}, {5, 3}, {0, 3}};
  double c = -1;
  size_t bad = 99;
  CHECK(astar_polyline_cost(NULL, NULL, p, 4, &c, &bad) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_polyline_cost(g, NULL, p, 4, NULL, &bad) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_polyline_cost(g, NULL, NULL, 4, &c, &bad) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_polyline_cost(g, NULL, NULL, 0, &c, NULL) == ASTAR_OK && c == 0.0);
  CHECK(astar_polyline_cost(g, NULL, p, 1, &c, NULL) == ASTAR_OK && c == 0.0);
  astar_options o;
  astar_options_init(&o);
  o.straight_cost = 3.0;
  CHECK(astar_polyline_cost(g, &o, p, 4, &c, &bad) == ASTAR_OK);
  CHECK(c == 3.0 * astar_polyline_length(p, 4));
  o.straight_cost = -1.0;
  CHECK(astar_polyline_cost(g, &o, p, 4, &c, &bad) == ASTAR_INVALID_ARGUMENT);
  p[2].x = 6; /* outside */
  CHECK(astar_polyline_cost(g, NULL, p, 4, &c, &bad) == ASTAR_INVALID_ARGUMENT && bad == 2);
  CHECK(c == 0.0);
  p[2] = (astar_point){0, 2}; /* (5,0) -> (0,2) passes (2,1) */
  CHECK(astar_polyline_cost(g, NULL, p, 4, &c, &bad) == ASTAR_INVALID_ARGUMENT && bad == 2);
  /* A layer of another size. */
  astar_layer *small = NULL;
  CHECK(astar_layer_new(&small, 3, 3, NULL) == ASTAR_OK);
  const astar_layer *layers[1] = {small};
  const float weights[1] = {1.0f};
  astar_options_init(&o);
  o.layers = layers;
  o.layer_weights = weights;
  o.nlayers = 1;
  p[2] = (astar_point){5, 3};
  CHECK(astar_polyline_cost(g, &o, p, 4, &c, &bad) == ASTAR_INVALID_ARGUMENT);
  size_t len = 0;
  astar_point out[4];
  CHECK(astar_path_smooth(g, &o, p, 4, out, 4, &len) == ASTAR_INVALID_ARGUMENT);
  astar_layer_free(small);
  /* Knowledge: the start stands on a cell the player thinks blocked. */
  astar_knowledge *k = NULL;
  CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
  CHECK(astar_knowledge_set(k, 0, 0, ASTAR_CELL_BLOCKED) == ASTAR_OK);
  astar_options_init(&o);
  o.knowledge = k;
  const astar_point q[2] = {{0, 0}, {1, 0}};
  CHECK(astar_polyline_cost(g, &o, q, 2, &c, &bad) == ASTAR_OK && c == 1.0);
  const astar_point back[2] = {{1, 0}, {0, 0}};
  CHECK(astar_polyline_cost(g, &o, back, 2, &c, &bad) == ASTAR_INVALID_ARGUMENT && bad == 1);
  /* The truly blocked (2,1) unknown: in sight for the player; priced at 2. */
  const astar_point across[2] = {{1, 1}, {3, 1}};
  CHECK(astar_polyline_cost(g, &o, across, 2, &c, &bad) == ASTAR_OK && c == 2.0);
  o.unknown = ASTAR_UNKNOWN_COST;
  o.unknown_cost = 3.0;
  CHECK(astar_polyline_cost(g, &o, across, 2, &c, &bad) == ASTAR_OK && c == 6.0);
  o.unknown = ASTAR_UNKNOWN_BLOCKED;
  CHECK(astar_polyline_cost(g, &o, across, 2, &c, &bad) == ASTAR_INVALID_ARGUMENT && bad == 1);
  astar_knowledge_free(k);
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
  RUN(test_smooth_swamp);
  RUN(test_smooth_terrain_random);
  RUN(test_smooth_knowledge_random);
  RUN(test_polyline_cost_arguments);
  RUN(test_theta_random);
  RUN(test_theta_known);
  RUN(test_theta_statuses);
  return check_summary();
}
