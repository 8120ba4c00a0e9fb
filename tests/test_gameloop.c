/*
** test_gameloop.c -- the game-loop features of the search: sliced search
** (any budget split gives the one-shot result), partial paths (they end at
** the best node), deadlines, several goals and goal regions (equal to the
** best single-goal search), influence layers and terrain scaling (checked
** by the reference Dijkstra on a grid with the costs baked in), fog of war
** and islands.
*/
#include "check.h"
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CAP ((size_t)80 * 80)

static int same_result(astar_status sa, const astar_result *a, const astar_point *pa,
                       astar_status sb, const astar_result *b, const astar_point *pb) {
  if (sa != sb || a->length != b->length || a->cost != b->cost) return 0;
  if (memcmp(&a->stats, &b->stats, sizeof a->stats) != 0) return 0;
  if (sa == ASTAR_OK || sa == ASTAR_PARTIAL)
    for (size_t i = 0; i < a->length; i++)
      if (pa[i].x != pb[i].x || pa[i].y != pb[i].y) return 0;
  return 1;
}

static void random_opts(astar_options *o, rng *r) {
  astar_options_init(o);
  o->moves = rng_range(r, 0, 3) ? 8 : 4;
  o->corner = (astar_corner)rng_range(r, 0, 3);
  o->tie = (astar_tie)rng_range(r, 0, 2);
  o->open_set = (astar_open_set)rng_range(r, 0, 3);
  if (!rng_range(r, 0, 4)) o->weight = 1.5;
}

/* Sliced search with random budgets == one-shot, on random maps. */
static void test_sliced_equals_one_shot(void) {
  rng r;
  rng_seed(&r, 11);
  static astar_point pa[CAP], pb[CAP];
  int runs = 0, multi_step = 0;
  for (int m = 0; m < 60; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 80, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int i = 0; i < 10; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      random_opts(&o, &r);
      o.partial = rng_range(&r, 0, 1);
      if (!rng_range(&r, 0, 3)) o.max_expansions = (uint64_t)rng_range(&r, 1, 300);
      astar_result a, b;
      astar_status sa = astar_find_path(ws, g, &o, s, t, pa, CAP, &a);
      astar_status sb = astar_search_begin(ws, g, &o, s, t);
      CHECK(sb == ASTAR_OK);
      int steps = 0;
      uint64_t total = 0;
      for (;;) {
        uint64_t done;
        const uint64_t budget = (uint64_t)rng_range(&r, 1, 50);
        astar_status st = astar_search_step(ws, budget, &done);
        CHECK(done <= budget);
        total += done;
        steps++;
        if (st != ASTAR_IN_PROGRESS) break;
        CHECK(done == budget);
        CHECK(astar_search_finish(ws, pb, CAP, &b) == ASTAR_IN_PROGRESS);
      }
      sb = astar_search_finish(ws, pb, CAP, &b);
      multi_step += steps > 1;
      runs++;
      CHECK(total == b.stats.expanded);
      CHECKF(same_result(sa, &a, pa, sb, &b, pb), "map %d query %d: one-shot %d, sliced %d", m, i,
             (int)sa, (int)sb);
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(runs > 400 && multi_step > 100);
}

/* On the project's own Moving AI maps (and the shared ones when present:
** a few queries each), sliced == one-shot with random budgets. */
static void test_sliced_on_benchmark_maps(void) {
  const char *maps[] = {"data/small/maze64-1.map", "data/small/cave64.map",
                        "../../shared/bench/movingai/dao/den520d.map",
                        "../../shared/bench/movingai/maze/maze512-1-0.map"};
  rng r;
  rng_seed(&r, 3);
  int compared = 0;
  for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
    FILE *f = fopen(maps[k], "rb");
    if (!f) continue;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n);
    CHECK(fread(text, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    astar_grid *g;
    CHECK(astar_movingai_parse_map(&g, text, (size_t)n, NULL, NULL) == ASTAR_OK);
    free(text);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    size_t cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
    astar_point *pa = malloc(cap * sizeof *pa), *pb = malloc(cap * sizeof *pb);
    for (int i = 0; i < 8; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      astar_result a, b;
      astar_status sa = astar_find_path(ws, g, NULL, s, t, pa, cap, &a);
      CHECK(astar_search_begin(ws, g, NULL, s, t) == ASTAR_OK);
      while (astar_search_step(ws, (uint64_t)rng_range(&r, 1, 5000), NULL) == ASTAR_IN_PROGRESS) {
      }
      astar_status sb = astar_search_finish(ws, pb, cap, &b);
      CHECK(same_result(sa, &a, pa, sb, &b, pb));
      compared++;
    }
    free(pa);
    free(pb);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(compared >= 16);
}

/* A partial path ends at the best expanded node: after an exhausted
** search that is the reachable cell nearest the goal (octile), then the
** cheapest; checked against the reference Dijkstra's reachable set. */
static void test_partial_path_ends_at_best_node(void) {
  rng r;
  rng_seed(&r, 21);
  static astar_point path[CAP];
  static double dist[CAP];
  int checked = 0;
  for (int m = 0; m < 80 && checked < 150; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 60, 0);
    spec.density = 0.3 + 0.2 * rng_unit(&r);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    for (int i = 0; i < 10; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      astar_options_init(&o);
      o.partial = true;
      astar_result res;
      astar_status st = astar_find_path(ws, g, &o, s, t, path, CAP, &res);
      if (st == ASTAR_OK) {
        CHECK(res.cause == ASTAR_OK && res.end.x == t.x && res.end.y == t.y);
        continue;
      }
      CHECK(st == ASTAR_PARTIAL && res.cause == ASTAR_NO_PATH);
      ref_dijkstra_all(g, &o, s, dist);
      double best_d = INFINITY, best_g = INFINITY;
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
          const double c = dist[(size_t)y * (size_t)w + (size_t)x];
          if (!isfinite(c)) continue;
          const double dx = fabs((double)(x - t.x)), dy = fabs((double)(y - t.y));
          const double d = (dx > dy ? dx : dy) + (sqrt(2.0) - 1.0) * (dx < dy ? dx : dy);
          if (d < best_d || (d == best_d && c < best_g)) best_d = d, best_g = c;
        }
      const astar_point e = res.end;
      CHECK(e.x == path[res.length - 1].x && e.y == path[res.length - 1].y);
      const double dx = fabs((double)(e.x - t.x)), dy = fabs((double)(e.y - t.y));
      const double d = (dx > dy ? dx : dy) + (sqrt(2.0) - 1.0) * (dx < dy ? dx : dy);
      CHECKF(fabs(d - best_d) < 1e-9 && fabs(res.cost - best_g) < 1e-9 * (1 + best_g),
             "partial end (%d,%d) d=%g g=%g, best d=%g g=%g", e.x, e.y, d, res.cost, best_d,
             best_g);
      char err[200];
      CHECKF(validate_path(g, &o, s, e, path, res.length, res.cost, err, sizeof err), "%s", err);
      checked++;
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(checked >= 50);
}

/* Limits and deadlines with partial paths; never passed off as ASTAR_OK. */
static int polls;
static bool stop_after_three(void *ctx) {
  (void)ctx;
  return ++polls >= 3;
}

static void test_limit_and_deadline(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 200, 200, NULL) == ASTAR_OK);
  for (int y = 0; y < 199; y++) astar_grid_set_passable(g, 100, y, false);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  static astar_point path[200 * 200];
  astar_options o;
  astar_options_init(&o);
  o.max_expansions = 500;
  astar_result res;
  CHECK(astar_find_path(ws, g, &o, (astar_point){10, 10}, (astar_point){190, 10}, path, 40000,
                        &res) == ASTAR_LIMIT_REACHED);
  CHECK(res.stats.expanded == 500 && res.length == 0);
  o.partial = true;
  CHECK(astar_find_path(ws, g, &o, (astar_point){10, 10}, (astar_point){190, 10}, path, 40000,
                        &res) == ASTAR_PARTIAL);
  CHECK(res.cause == ASTAR_LIMIT_REACHED && res.length > 1);
  CHECK(res.end.x == path[res.length - 1].x && res.end.x <= 99); /* stopped before the wall */
  o.max_expansions = 0;
  o.stop_fn = stop_after_three;
  o.stop_interval = 100;
  polls = 0;
  CHECK(astar_find_path(ws, g, &o, (astar_point){10, 10}, (astar_point){190, 10}, path, 40000,
                        &res) == ASTAR_PARTIAL);
  CHECK(res.cause == ASTAR_STOPPED && res.stats.expanded == 300 && polls == 3);
  o.partial = false;
  polls = 0;
  CHECK(astar_find_path(ws, g, &o, (astar_point){10, 10}, (astar_point){190, 10}, path, 40000,
                        &res) == ASTAR_STOPPED);
  o.stop_interval = 0;
  CHECK(astar_find_path(ws, g, &o, (astar_point){10, 10}, (astar_point){190, 10}, path, 40000,
                        &res) == ASTAR_INVALID_ARGUMENT);
  /* a grid change between steps */
  o.stop_fn = NULL;
  o.stop_interval = 256;
  CHECK(astar_search_begin(ws, g, &o, (astar_point){10, 10}, (astar_point){190, 10}) == ASTAR_OK);
  CHECK(astar_search_step(ws, 10, NULL) == ASTAR_IN_PROGRESS);
  astar_grid_set_passable(g, 5, 5, false);
  CHECK(astar_search_step(ws, 10, NULL) == ASTAR_STALE);
  CHECK(astar_search_finish(ws, path, 40000, &res) == ASTAR_STALE);
  CHECK(astar_search_step(ws, 10, NULL) == ASTAR_INVALID_ARGUMENT); /* nothing begun */
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Several goals: the same cost as the cheapest single-goal search, the end
** is one of the goals; a region of the same cells gives the same cost. */
typedef struct goalset {
  const astar_point *p;
  size_t n;
} goalset;
static bool in_set(void *ctx, astar_point c) {
  const goalset *gs = ctx;
  for (size_t i = 0; i < gs->n; i++)
    if (gs->p[i].x == c.x && gs->p[i].y == c.y) return true;
  return false;
}

static void test_multi_goal_and_region(void) {
  rng r;
  rng_seed(&r, 31);
  static astar_point path[CAP];
  int compared = 0;
  for (int m = 0; m < 60; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 70, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int i = 0; i < 6; i++) {
      astar_point s = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_point goals[5];
      const size_t n = (size_t)rng_range(&r, 1, 5);
      for (size_t k = 0; k < n; k++) goals[k] = randmap_passable_cell(g, &r);
      astar_options o;
      random_opts(&o, &r);
      o.weight = 1;
      double best = INFINITY;
      for (size_t k = 0; k < n; k++) {
        astar_result one;
        if (astar_find_path(ws, g, &o, s, goals[k], NULL, 0, &one) == ASTAR_BUFFER_TOO_SMALL &&
            one.cost < best)
          best = one.cost;
        else if (s.x == goals[k].x && s.y == goals[k].y)
          best = 0;
      }
      astar_result res;
      astar_status st = astar_find_path_multi(ws, g, &o, s, goals, n, path, CAP, &res);
      if (!isfinite(best)) {
        CHECK(st == ASTAR_NO_PATH);
        continue;
      }
      CHECKF(st == ASTAR_OK && fabs(res.cost - best) <= 1e-9 * (1 + best),
             "multi: status %d cost %g, best single %g", (int)st, res.cost, best);
      CHECK(in_set(&(goalset){goals, n}, res.end));
      char err[200];
      CHECKF(validate_path(g, &o, s, res.end, path, res.length, res.cost, err, sizeof err), "%s",
             err);
      goalset gs = {goals, n};
      astar_result rr;
      CHECK(astar_find_path_region(ws, g, &o, s, in_set, &gs, path, CAP, &rr) == ASTAR_OK);
      CHECK(fabs(rr.cost - best) <= 1e-9 * (1 + best) && in_set(&gs, rr.end));
      compared++;
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(compared > 150);
  /* blocked goals are skipped; none usable: GOAL_BLOCKED */
  astar_grid *g;
  CHECK(astar_grid_new(&g, 10, 10, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 9, 9, false);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point gl[2] = {{9, 9}, {5, 0}};
  astar_result res;
  CHECK(astar_find_path_multi(ws, g, NULL, (astar_point){0, 0}, gl, 2, path, CAP, &res) ==
        ASTAR_OK);
  CHECK(res.end.x == 5 && res.end.y == 0 && res.cost == 5);
  CHECK(astar_find_path_multi(ws, g, NULL, (astar_point){0, 0}, gl, 1, path, CAP, &res) ==
        ASTAR_GOAL_BLOCKED);
  CHECK(astar_find_path_multi(ws, g, NULL, (astar_point){0, 0}, gl, 0, path, CAP, &res) ==
        ASTAR_INVALID_ARGUMENT);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Layers and terrain scaling against the reference Dijkstra on a grid whose
** terrain has the effective factors baked in. */
static void test_layers_and_scaling(void) {
  rng r;
  rng_seed(&r, 41);
  static astar_point path[CAP];
  int compared = 0;
  for (int m = 0; m < 60; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 50, 1);
    astar_grid *g, *baked;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    CHECK(astar_grid_clone(&baked, g, NULL) == ASTAR_OK);
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    astar_layer *l1, *l2;
    CHECK(astar_layer_new(&l1, w, h, NULL) == ASTAR_OK);
    CHECK(astar_layer_new(&l2, w, h, NULL) == ASTAR_OK);
    astar_layer_add_cone(l1, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1), 12.0f, 6.0f);
    for (int k = 0; k < w * h / 4; k++)
      astar_layer_set(l2, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1),
                      (float)rng_range(&r, 0, 8) * 0.25f);
    const astar_layer *layers[2] = {l1, l2};
    const float weights[2] = {0.5f, 2.0f};
    const double alpha = rng_range(&r, 0, 1) ? 1.0 : 0.25;
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        const double t = astar_grid_terrain(g, x, y);
        const double f = (1.0 + alpha * (t - 1.0)) + 0.5 * (double)astar_layer_get(l1, x, y) +
                         2.0 * (double)astar_layer_get(l2, x, y);
        astar_grid_set_terrain(baked, x, y, (float)f);
      }
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int i = 0; i < 6; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      random_opts(&o, &r);
      o.weight = 1;
      o.layers = layers;
      o.layer_weights = weights;
      o.nlayers = 2;
      o.terrain_scale = alpha;
      astar_result res;
      astar_status st = astar_find_path(ws, g, &o, s, t, path, CAP, &res);
      const double ref = ref_dijkstra(baked, &o, s, t);
      if (ref < 0) {
        CHECK(st == ASTAR_NO_PATH);
        continue;
      }
      /* baked factors were rounded to float: compare with a float-sized tolerance */
      CHECKF(st == ASTAR_OK && fabs(res.cost - ref) <= 1e-5 * (1 + ref),
             "layers: status %d cost %.9g, reference %.9g", (int)st, res.cost, ref);
      compared++;
    }
    astar_workspace_free(ws);
    astar_layer_free(l1);
    astar_layer_free(l2);
    astar_grid_free(baked);
    astar_grid_free(g);
  }
  CHECK(compared > 150);
}

/* options.heuristic_floor: the bound cost <= (f / m) x optimal (m the
** smallest terrain factor) against the reference Dijkstra on random maps
** with terrain below 1, every path legal; and the speed-up it is for: one
** cheap road row on an open map. */
static void test_heuristic_floor(void) {
  rng r;
  rng_seed(&r, 77);
  static astar_point path[CAP];
  int compared = 0, faster = 0;
  for (int m = 0; m < 80; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 0);
    spec.terrain = 1;
    spec.terrain_lo = 0.25;
    spec.terrain_hi = 4.0;
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    const double mn = (double)astar_grid_min_terrain(g);
    for (int i = 0; i < 8; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      random_opts(&o, &r);
      o.weight = 1;
      o.heuristic_floor = rng_range(&r, 0, 1) ? 1.0 : 2.5;
      astar_result res;
      const astar_status st = astar_find_path(ws, g, &o, s, t, path, CAP, &res);
      const double ref = ref_dijkstra(g, &o, s, t);
      if (ref < 0) {
        CHECK(st == ASTAR_NO_PATH);
        continue;
      }
      const double bound = (o.heuristic_floor > mn ? o.heuristic_floor / mn : 1.0) * ref;
      double cost = -1.0;
      CHECK(st == ASTAR_OK && astar_path_cost(g, &o, path, res.length, &cost, NULL) == ASTAR_OK);
      CHECKF(res.cost <= bound * (1 + 1e-9) + 1e-9 && fabs(cost - res.cost) <= 1e-9 * (1 + cost),
             "floor %g (min %g): cost %.9g, optimal %.9g", o.heuristic_floor, mn, res.cost, ref);
      compared++;
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(compared > 300);

  /* One road row of 0.5 across a 128 x 128 open map. */
  astar_grid *g;
  CHECK(astar_grid_new(&g, 128, 128, NULL) == ASTAR_OK);
  for (int32_t x = 0; x < 128; x++) astar_grid_set_terrain(g, x, 64, 0.5f);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  for (int i = 0; i < 20; i++) {
    const astar_point s = {rng_range(&r, 0, 127), rng_range(&r, 0, 40)};
    const astar_point t = {rng_range(&r, 0, 127), rng_range(&r, 0, 40)};
    astar_options o;
    astar_options_init(&o);
    astar_result exact, quick;
    CHECK(astar_find_path(ws, g, &o, s, t, path, CAP, &exact) == ASTAR_OK);
    o.heuristic_floor = 1.0;
    CHECK(astar_find_path(ws, g, &o, s, t, path, CAP, &quick) == ASTAR_OK);
    CHECK(quick.cost <= 2.0 * exact.cost + 1e-9);
    faster += quick.stats.expanded * 2 < exact.stats.expanded;
  }
  CHECKF(faster >= 15, "the floor made %d of 20 searches at least 2x cheaper", faster);
  astar_workspace_free(ws);
  astar_grid_free(g);
  CHECK(astar_options_validate(&(astar_options){.moves = 8,
                                                .straight_cost = 1,
                                                .diagonal_cost = 1,
                                                .weight = 1,
                                                .heuristic_floor = -1}) == ASTAR_INVALID_ARGUMENT);
}

/* Fog of war on hand-made maps: the planned route follows what the player
** knows, per policy. */
static void test_fog_of_war(void) {
  /* A wall with one gap, far from the straight line. */
  const char *text = "S.........\n"
                     "..........\n"
                     "#########.\n"
                     "..........\n"
                     ".........G\n";
  astar_grid *g;
  astar_point s, t;
  CHECK(astar_ascii_parse_map(&g, text, strlen(text), NULL, &s, &t, NULL) == ASTAR_OK);
  astar_knowledge *k;
  CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point path[64];
  astar_options o;
  astar_options_init(&o);
  o.knowledge = k;
  astar_result res, truth;
  /* nothing known, unknown = passable: straight through the (unseen) wall */
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_OK);
  CHECK(astar_find_path(ws, g, NULL, s, t, path, 64, &truth) == ASTAR_OK);
  CHECK(res.cost < truth.cost);
  /* unknown = blocked: no path at all */
  o.unknown = ASTAR_UNKNOWN_BLOCKED;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_GOAL_BLOCKED);
  /* everything revealed: the true route, for every policy */
  CHECK(astar_knowledge_reveal_radius(k, g, 5, 2, 20, NULL) == ASTAR_OK);
  for (int p = 0; p < 3; p++) {
    o.unknown = (astar_unknown)p;
    CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_OK);
    CHECK(res.cost == truth.cost && res.length == truth.length);
  }
  /* the wall seen, the far side unknown and costly: cost counts it */
  astar_knowledge_clear(k);
  for (int x = 0; x < 10; x++)
    for (int y = 0; y < 3; y++) astar_knowledge_reveal(k, g, x, y);
  o.unknown = ASTAR_UNKNOWN_COST;
  o.unknown_cost = 3;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_OK);
  CHECK(path[3].x == 9 || path[2].x == 9 || res.length > 9); /* goes round by the gap */
  for (size_t i = 0; i < res.length; i++) CHECK(astar_grid_passable(g, path[i].x, path[i].y));
  /* a knowledge of another size is refused */
  astar_grid *other;
  CHECK(astar_grid_new(&other, 4, 4, NULL) == ASTAR_OK);
  astar_knowledge *k2;
  CHECK(astar_knowledge_new(&k2, other, NULL) == ASTAR_OK);
  o.knowledge = k2;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_INVALID_ARGUMENT);
  astar_knowledge_free(k2);
  astar_grid_free(other);
  astar_workspace_free(ws);
  astar_knowledge_free(k);
  astar_grid_free(g);
}

/* Fog of war against the reference: unknown-passable equals a plain search
** on a grid where every unknown cell is made passable. */
static void test_fog_against_reference(void) {
  rng r;
  rng_seed(&r, 51);
  static astar_point path[CAP];
  int compared = 0;
  for (int m = 0; m < 50; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 50, 0);
    astar_grid *g, *view;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    CHECK(astar_grid_clone(&view, g, NULL) == ASTAR_OK);
    astar_knowledge *k;
    CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    for (int i = 0; i < 4; i++)
      astar_knowledge_reveal_radius(k, g, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1),
                                    rng_range(&r, 1, 10), NULL);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if (astar_knowledge_get(k, x, y) == ASTAR_CELL_UNKNOWN)
          astar_grid_set_passable(view, x, y, true);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int i = 0; i < 6; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      random_opts(&o, &r);
      o.weight = 1;
      o.knowledge = k;
      astar_result res;
      astar_status st = astar_find_path(ws, g, &o, s, t, path, CAP, &res);
      const double ref = ref_dijkstra(view, &o, s, t);
      if (ref < 0) {
        CHECK(st == ASTAR_NO_PATH);
        continue;
      }
      CHECKF(st == ASTAR_OK && fabs(res.cost - ref) <= 1e-9 * (1 + ref), "fog: %d %g vs %g",
             (int)st, res.cost, ref);
      char err[200];
      CHECKF(validate_path(view, &o, s, t, path, res.length, res.cost, err, sizeof err), "%s", err);
      compared++;
    }
    astar_workspace_free(ws);
    astar_knowledge_free(k);
    astar_grid_free(view);
    astar_grid_free(g);
  }
  CHECK(compared > 150);
}

/* Islands: an unreachable goal costs no expansion; retarget goes to the
** nearest reachable cell. */
static void test_islands_in_search(void) {
  const char *text = "S....#....\n"
                     ".....#....\n"
                     ".....#..G.\n"
                     ".....#....\n";
  astar_grid *g;
  astar_point s, t;
  CHECK(astar_ascii_parse_map(&g, text, strlen(text), NULL, &s, &t, NULL) == ASTAR_OK);
  astar_islands *isl;
  CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point path[64];
  astar_options o;
  astar_options_init(&o);
  astar_result res;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_NO_PATH);
  CHECK(res.stats.expanded == 20); /* the whole left side flooded */
  o.islands = isl;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_NO_PATH);
  CHECK(res.stats.expanded == 0 && !res.retargeted);
  o.retarget = true;
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_OK);
  CHECK(res.end.x == 4 && res.end.y == 2); /* nearest reachable cell to (8,2) */
  CHECK(res.retargeted);                   /* and the result says so */
  /* A reachable goal with retarget on: not retargeted. */
  CHECK(astar_find_path(ws, g, &o, s, (astar_point){4, 2}, path, 64, &res) == ASTAR_OK);
  CHECK(!res.retargeted && res.end.x == 4 && res.end.y == 2);
  /* The sliced search reports it too. */
  CHECK(astar_search_begin(ws, g, &o, s, t) == ASTAR_OK);
  CHECK(astar_search_step(ws, 0, NULL) == ASTAR_OK);
  CHECK(astar_search_finish(ws, path, 64, &res) == ASTAR_OK && res.retargeted);
  o.retarget = false;
  o.moves = 4; /* islands built for other moves */
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_MISMATCH);
  o.moves = 8;
  astar_grid_set_passable(g, 5, 3, true); /* open the wall: islands stale */
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_STALE);
  CHECK(astar_islands_update(isl, g) == ASTAR_OK);
  CHECK(astar_find_path(ws, g, &o, s, t, path, 64, &res) == ASTAR_OK);
  astar_workspace_free(ws);
  astar_islands_free(isl);
  astar_grid_free(g);
}

/* Reference for turn penalties: plain Dijkstra over (cell, arrival) states
** with O(states^2) selection. Returns the optimal cost or -1. */
static double ref_turns(const astar_grid *g, const astar_options *o, astar_point s, astar_point t) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const size_t n = (size_t)w * (size_t)h * 9;
  double *dist = malloc(n * sizeof *dist);
  char *done = calloc(n, 1);
  static const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  for (size_t i = 0; i < n; i++) dist[i] = INFINITY;
  dist[((size_t)s.y * (size_t)w + (size_t)s.x) * 9 + 8] = 0;
  double best = -1;
  for (;;) {
    size_t u = n;
    for (size_t i = 0; i < n; i++)
      if (!done[i] && isfinite(dist[i]) && (u == n || dist[i] < dist[u])) u = i;
    if (u == n) break;
    done[u] = 1;
    const size_t cell = u / 9, du = u % 9;
    const astar_point a = {(int32_t)(cell % (size_t)w), (int32_t)(cell / (size_t)w)};
    if (a.x == t.x && a.y == t.y) {
      best = dist[u];
      break;
    }
    for (int d = 0; d < 8; d++) {
      const astar_point b = {a.x + dx[d], a.y + dy[d]};
      double c;
      if (!validate_step(g, o, a, b, &c, NULL, 0)) continue;
      if (du != 8 && du != (size_t)d) c += o->turn_penalty;
      const size_t v = ((size_t)b.y * (size_t)w + (size_t)b.x) * 9 + (size_t)d;
      if (dist[u] + c < dist[v]) dist[v] = dist[u] + c;
    }
  }
  free(dist);
  free(done);
  return best;
}

/* Turn penalties: optimal over (cell, direction) states, never without a
** reservation, and straighter paths. */
static void test_turn_penalty(void) {
  rng r;
  rng_seed(&r, 61);
  static astar_point path[CAP];
  int compared = 0;
  for (int m = 0; m < 40; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 14, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_options o;
    random_opts(&o, &r);
    o.weight = 1;
    o.turn_penalty = rng_range(&r, 0, 1) ? 0.5 : 3.0;
    astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_result res;
    if (s.x < 0) goto next;
    CHECK(astar_find_path(ws, g, &o, s, t, path, CAP, &res) == ASTAR_TURNS_NOT_RESERVED);
    const size_t before = astar_workspace_memory(ws);
    CHECK(astar_workspace_reserve_turns(ws, g) == ASTAR_OK);
    /* The figure of the header: 9 x 34 bytes per padded cell. */
    CHECK_EQ(astar_workspace_memory(ws) - before,
             (size_t)306 * (size_t)(astar_grid_width(g) + 2) * (size_t)(astar_grid_height(g) + 2));
    for (int i = 0; i < 5; i++) {
      s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      astar_status st = astar_find_path(ws, g, &o, s, t, path, CAP, &res);
      const double ref = ref_turns(g, &o, s, t);
      if (ref < 0) {
        CHECK(st == ASTAR_NO_PATH);
        continue;
      }
      CHECKF(st == ASTAR_OK && fabs(res.cost - ref) <= 1e-9 * (1 + ref), "turns: %d %g vs %g",
             (int)st, res.cost, ref);
      /* the path's own cost: steps + one penalty per change of direction */
      double c = 0;
      int last = -1;
      for (size_t k = 1; k < res.length; k++) {
        double sc;
        CHECK(validate_step(g, &o, path[k - 1], path[k], &sc, NULL, 0));
        const int d = (path[k].x - path[k - 1].x + 1) * 3 + (path[k].y - path[k - 1].y + 1);
        if (last >= 0 && d != last) sc += o.turn_penalty;
        last = d;
        c += sc;
      }
      CHECK(fabs(c - res.cost) <= 1e-9 * (1 + c));
      CHECK(res.end.x == t.x && res.end.y == t.y);
      compared++;
    }
  next:
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(compared > 100);
  /* straighter: on an open field the penalised path turns once */
  astar_grid *g;
  CHECK(astar_grid_new(&g, 30, 30, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  CHECK(astar_workspace_reserve_turns(ws, g) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  o.tie = ASTAR_TIE_CROSS; /* without penalty: a staircase near the line */
  astar_result res;
  int turns_plain = 0, turns_pen = 0;
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 0}, (astar_point){29, 11}, path, CAP, &res) ==
        ASTAR_OK);
  for (size_t k = 2; k < res.length; k++)
    turns_plain += (path[k].x - path[k - 1].x != path[k - 1].x - path[k - 2].x) ||
                   (path[k].y - path[k - 1].y != path[k - 1].y - path[k - 2].y);
  o.turn_penalty = 1.0;
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 0}, (astar_point){29, 11}, path, CAP, &res) ==
        ASTAR_OK);
  for (size_t k = 2; k < res.length; k++)
    turns_pen += (path[k].x - path[k - 1].x != path[k - 1].x - path[k - 2].x) ||
                 (path[k].y - path[k - 1].y != path[k - 1].y - path[k - 2].y);
  CHECKF(turns_pen == 1 && turns_plain > 1, "turns: plain %d, penalised %d", turns_plain,
         turns_pen);
  /* sliced turn search == one-shot */
  CHECK(astar_search_begin(ws, g, &o, (astar_point){0, 0}, (astar_point){29, 11}) == ASTAR_OK);
  while (astar_search_step(ws, 7, NULL) == ASTAR_IN_PROGRESS) {
  }
  astar_result r2;
  CHECK(astar_search_finish(ws, path, CAP, &r2) == ASTAR_OK);
  CHECK(r2.cost == res.cost && r2.stats.expanded == res.stats.expanded);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_sliced_equals_one_shot);
  RUN(test_sliced_on_benchmark_maps);
  RUN(test_partial_path_ends_at_best_node);
  RUN(test_limit_and_deadline);
  RUN(test_multi_goal_and_region);
  RUN(test_layers_and_scaling);
  RUN(test_heuristic_floor);
  RUN(test_fog_of_war);
  RUN(test_fog_against_reference);
  RUN(test_islands_in_search);
  RUN(test_turn_penalty);
  return check_summary();
}
