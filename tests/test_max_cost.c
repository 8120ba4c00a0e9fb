/*
** test_max_cost.c -- options.max_cost (astar/search.h), the option added
** through the table of options (src/search/options.h) as the proof of
** "an option is its field, its row and the code that acts on it": on
** random maps (terrain or not, 4 or 8 moves) a path is found iff the
** reference Dijkstra distance is <= max_cost, one-shot, sliced and through
** the finder; the search does less work under a tight bound; values are
** validated; and every method that cannot honour it refuses it through
** the table, with no line of its own.
*/
#include <astar/astar.h>
#include <astar/finder.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})

/* max_cost around the distance d (d < 0: unreachable), never within a
** relative 1e-6 of it (the searches' costs on the quantum differ from the
** reference's in the last bits). */
static double pick_bound(rng *r, double d) {
  if (d <= 0.0) return rng_unit(r) * 50.0; /* unreachable, or start == goal */
  for (;;) {
    const double b = d * 2.0 * rng_unit(r);
    if (fabs(b - d) > 1e-6 * fmax(1.0, d)) return b;
  }
}

static void test_reference(void) {
  rng r;
  rng_seed(&r, 2606);
  uint64_t found = 0, cut = 0, queries = 0;
  for (int mapi = 0; mapi < 60; mapi++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 36, 1);
    spec.terrain = mapi % 2;
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK) continue;
    astar_options o;
    astar_options_init(&o);
    o.moves = (mapi / 2) % 2 ? 4 : 8;
    if (mapi % 6 == 1) o.open_set = ASTAR_OPEN_BUCKET;
    if (mapi % 6 == 3) o.open_set = ASTAR_OPEN_HEAP2;
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    const size_t cap = (size_t)spec.width * (size_t)spec.height + 1;
    astar_point *path = malloc(cap * sizeof *path);
    for (int q = 0; q < 30 && ws && path; q++) {
      const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      const double d = ref_dijkstra(g, &o, s, t);
      o.max_cost = pick_bound(&r, d);
      astar_result res, full;
      const astar_status st = astar_find_path(ws, g, &o, s, t, path, cap, &res);
      queries++;
      const bool within = d >= 0.0 && d <= o.max_cost;
      if (within != (st == ASTAR_OK)) {
        FAILF("map %d (%dx%d, terrain %d, %d moves) (%d,%d)->(%d,%d): distance %.17g, max_cost "
              "%.17g: %s",
              mapi, spec.width, spec.height, spec.terrain, o.moves, s.x, s.y, t.x, t.y, d,
              o.max_cost, astar_strerror(st));
        continue;
      }
      if (st == ASTAR_OK) {
        found++;
        CHECK(cost_equal(res.cost, d));
        char err[200];
        if (!validate_path(g, &o, s, t, path, res.length, res.cost, err, sizeof err))
          FAILF("map %d: %s", mapi, err);
        continue;
      }
      CHECK(st == ASTAR_NO_PATH && res.length == 0);
      /* Under the bound the search stops early: never more work than without. */
      const double bound = o.max_cost;
      o.max_cost = INFINITY;
      const astar_status st2 = astar_find_path(ws, g, &o, s, t, path, cap, &full);
      CHECK(res.stats.expanded <= full.stats.expanded);
      if (st2 == ASTAR_OK && res.stats.expanded < full.stats.expanded) cut++;
      /* The sliced search agrees. */
      o.max_cost = bound;
      CHECK(astar_search_begin(ws, g, &o, s, t) == ASTAR_OK);
      astar_status ss;
      do ss = astar_search_step(ws, 7, NULL);
      while (ss == ASTAR_IN_PROGRESS);
      astar_result sr;
      CHECK(astar_search_finish(ws, path, cap, &sr) == ASTAR_NO_PATH &&
            sr.stats.expanded == res.stats.expanded);
    }
    free(path);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  printf("%llu queries: %llu within max_cost, %llu cut short of a path beyond it\n",
         (unsigned long long)queries, (unsigned long long)found, (unsigned long long)cut);
  CHECK(found > 300 && cut > 300);
}

/* The finder's A* and Dijkstra (the grid's own loop) honour it. */
static void test_finder(void) {
  rng r;
  rng_seed(&r, 31);
  randmap_spec spec = {40, 30, 0.25, 1, 0.5, 3.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  if (!g) return;
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  static astar_point path[(size_t)40 * 30];
  for (int mi = 0; mi < 2; mi++) {
    astar_finder_config c;
    astar_finder_config_init(&c);
    c.method = mi ? ASTAR_METHOD_DIJKSTRA : ASTAR_METHOD_ASTAR;
    for (int q = 0; q < 40; q++) {
      const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      const double d = ref_dijkstra(g, &c.options, s, t);
      c.options.max_cost = pick_bound(&r, d);
      astar_finder *f = NULL;
      CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
      astar_path_result res;
      const astar_status st = astar_finder_find(f, ws, s, t, path, (size_t)40 * 30, &res);
      CHECKF((st == ASTAR_OK) == (d >= 0.0 && d <= c.options.max_cost),
             "%s: distance %.17g, max_cost %.17g: %s", astar_method_name(c.method), d,
             c.options.max_cost, astar_strerror(st));
      astar_finder_free(f);
    }
  }
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Values: >= 0, INFINITY the default; NaN and negatives invalid. */
static void test_values(void) {
  astar_options o;
  astar_options_init(&o);
  CHECK(isinf(o.max_cost) && o.max_cost > 0.0);
  CHECK(astar_options_validate(&o) == ASTAR_OK);
  o.max_cost = 0.0;
  CHECK(astar_options_validate(&o) == ASTAR_OK);
  o.max_cost = -1.0;
  CHECK(astar_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  o.max_cost = NAN;
  CHECK(astar_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  /* 0: the start alone. */
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 8, 8, NULL) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point path[64];
  astar_result res;
  o.max_cost = 0.0;
  CHECK(astar_find_path(ws, g, &o, P(2, 2), P(2, 2), path, 64, &res) == ASTAR_OK);
  CHECK(astar_find_path(ws, g, &o, P(2, 2), P(3, 2), path, 64, &res) == ASTAR_NO_PATH);
  CHECK(res.stats.expanded == 0);
  o.max_cost = 1.0;
  CHECK(astar_find_path(ws, g, &o, P(2, 2), P(3, 2), path, 64, &res) == ASTAR_OK);
  /* With a turn penalty (its own loop): a straight line of 5 moves costs 5. */
  CHECK(astar_workspace_reserve_turns(ws, g) == ASTAR_OK);
  o.turn_penalty = 2.0;
  o.max_cost = 4.5;
  CHECK(astar_find_path(ws, g, &o, P(0, 0), P(5, 0), path, 64, &res) == ASTAR_NO_PATH);
  o.max_cost = 5.5;
  CHECK(astar_find_path(ws, g, &o, P(0, 0), P(5, 0), path, 64, &res) == ASTAR_OK);
  /* Partial paths come with it: the best node expanded before the bound
  ** ended the search (here none: f(start) = 7 > 2, so the start). */
  o.turn_penalty = 0.0;
  o.partial = true;
  o.max_cost = 2.0;
  CHECK(astar_find_path(ws, g, &o, P(0, 0), P(7, 0), path, 64, &res) == ASTAR_PARTIAL);
  CHECK(res.cause == ASTAR_NO_PATH && res.end.x == 0 && res.end.y == 0 && res.length == 1);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Every other method refuses it -- the same config without max_cost is
** accepted -- and JPS's own entry points too. */
static void test_refusals(void) {
  rng r;
  rng_seed(&r, 3);
  randmap_spec spec = {24, 20, 0.2, 0, 1.0, 1.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  if (!g) return;
  astar_jps_plus *jp = NULL;
  astar_cpd *cpd = NULL;
  astar_hpa *hpa = NULL;
  astar_options o;
  astar_options_init(&o);
  CHECK(astar_jps_plus_new(&jp, g, NULL) == ASTAR_OK);
  CHECK(astar_cpd_build(&cpd, g, NULL, NULL) == ASTAR_OK);
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  CHECK(astar_hpa_new(&hpa, g, &o, &ho, NULL) == ASTAR_OK);
  astar_subgoal *sg = NULL;
  CHECK(astar_subgoal_build(&sg, g, NULL, NULL) == ASTAR_OK);
  int refused = 0, meshes = 0;
  for (int mi = 0; mi < ASTAR_METHOD_COUNT; mi++) {
    const astar_method m = (astar_method)mi;
    const astar_method_info *info = astar_method_info_of(m);
    if (info->flags & ASTAR_MF_MESH) { /* a navigation mesh's: not on a grid at all */
      meshes++;
      continue;
    }
    astar_finder_config c;
    astar_finder_config_init(&c);
    c.method = m;
    if (info->needs & ASTAR_ATTACH_JPS_PLUS) c.jps_plus = jp;
    if (info->needs & ASTAR_ATTACH_CPD) c.cpd = cpd;
    if (info->needs & ASTAR_ATTACH_HPA) c.hpa = hpa;
    /* A subgoal graph is the argument of its finder's constructor. */
    const bool sgm = m == ASTAR_METHOD_SUBGOAL;
    CHECKF((sgm ? astar_finder_subgoal_unsupported_reason(g, &c)
                : astar_finder_unsupported_reason(g, NULL, &c)) == NULL,
           "%s", info->name);
    c.options.max_cost = 10.0;
    const char *why = sgm ? astar_finder_subgoal_unsupported_reason(g, &c)
                          : astar_finder_unsupported_reason(g, NULL, &c);
    const bool honours = m == ASTAR_METHOD_ASTAR || m == ASTAR_METHOD_DIJKSTRA;
    CHECKF(honours == (why == NULL), "%s: %s", info->name, why ? why : "accepted");
    astar_finder *f = NULL;
    CHECK((sgm ? astar_finder_new_subgoal(&f, g, sg, &c, NULL)
               : astar_finder_new(&f, g, &c, NULL)) == (honours ? ASTAR_OK : ASTAR_UNSUPPORTED));
    astar_finder_free(f);
    refused += why != NULL;
  }
  CHECK(refused == ASTAR_METHOD_COUNT - meshes - 2);
  /* The grid's own entry points for JPS. */
  o.max_cost = 10.0;
  o.algorithm = ASTAR_ALGO_JPS;
  CHECK(astar_unsupported_reason(&o, g) != NULL);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point path[600];
  astar_result res;
  const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
  CHECK(astar_find_path(ws, g, &o, s, t, path, 600, &res) == ASTAR_UNSUPPORTED);
  o.algorithm = ASTAR_ALGO_ASTAR;
  CHECK(astar_jps_plus_find_path(ws, jp, g, &o, s, t, path, 600, &res) == ASTAR_UNSUPPORTED);
  astar_workspace_free(ws);
  astar_jps_plus_free(jp);
  astar_cpd_free(cpd);
  astar_hpa_free(hpa);
  astar_subgoal_free(sg);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_values);
  RUN(test_reference);
  RUN(test_finder);
  RUN(test_refusals);
  return check_summary();
}
