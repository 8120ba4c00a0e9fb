/*
** test_finder.c -- one query, any method (astar/finder.h, issue 26 part 1).
** Linked against the test build of the library (astar_counted:
** ASTAR_TEST_COUNTERS), which counts options validations.
**
**   table          every method has its row, names read back, the engine
**                  refuses the grid's methods
**   direct         for every method (and A* with landmarks, with a waypoint
**                  table, every engine method over a waypoint graph), on
**                  seeded random maps with and without terrain and on Moving
**                  AI maps: the finder's status, cost, length and cells equal
**                  the method's own call; the optimal ones equal a reference
**                  Dijkstra (Anya: the reference Euclidean shortest path)
**   sliced         begin / step with budgets 1, 7, 1000 / finish gives find's
**                  status, result and path; the work reported adds up
**   unsupported    refused combinations: ASTAR_UNSUPPORTED with a reason,
**                  no finder, no work
**   stale          an edit makes a finder with attachments stale; its
**                  attachments brought up to date and a refresh, it is
**                  current again and equals a fresh one
**   units          big units equal astar_clearance_find_path, and follow
**                  edits through refresh (around the changed cells or whole)
**   growth         a workspace from astar_workspace_new_empty grows on the
**                  first search of each method and never after
**   threads        threads sharing a finder, each with its own workspace
**   validations    at most one options validation a query by every direct
**                  entry point, none by a finder's searches
**   memory         allocation failures in astar_finder_new and in a
**                  workspace's first-use growth: ASTAR_NO_MEMORY, no leak,
**                  the workspace still usable
*/
#include <astar/astar.h>
#include <astar/finder.h>

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/esp_reference.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#ifndef ASTAR_TEST_COUNTERS
#error "test_finder needs the test build of the library (astar_counted)"
#endif
uint64_t astar__test_validations(void);

#define P(x, y) ((astar_point){(x), (y)})

/* ---- a map and everything its methods are prepared from -------------------------- */

typedef struct kit {
  astar_grid *g;
  astar_options o; /* the rules everything was built for */
  astar_workspace *ws;
  astar_jps_plus *jps_plus;
  astar_cpd *cpd;
  astar_hpa *hpa;
  astar_hpa_query *hpa_q;
  astar_landmarks *landmarks;
  astar_waypoint_table *table;
  astar_waypoints *waypoints;
  astar_subgoal *sg; /* NULL where the grid is refused (terrain) */
  astar_anya_workspace *anya;
  esp_graph *esp;
  size_t cap; /* cells + 1: room for any path */
  astar_point *a, *b;
  astar_vec2 *va, *vb;
  astar_node *nodes;
} kit;

/* Variants of a method's config. */
enum { V_PLAIN, V_LANDMARKS, V_TABLE, V_WAYPOINTS, V_SMOOTH, V_COUNT };
static const char *const vname[V_COUNT] = {"plain", "landmarks", "table", "waypoints", "smooth"};

static void kit_free(kit *k) {
  astar_jps_plus_free(k->jps_plus);
  astar_cpd_free(k->cpd);
  astar_hpa_query_free(k->hpa_q);
  astar_hpa_free(k->hpa);
  astar_landmarks_free(k->landmarks);
  astar_waypoint_table_free(k->table);
  astar_waypoints_free(k->waypoints);
  astar_subgoal_free(k->sg);
  astar_anya_workspace_free(k->anya);
  esp_graph_free(k->esp);
  astar_workspace_free(k->ws);
  astar_grid_free(k->g);
  free(k->a);
  free(k->b);
  free(k->va);
  free(k->vb);
  free(k->nodes);
  memset(k, 0, sizeof *k);
}

/* Build what the grid takes (each precomputation only where it applies:
** a refused build leaves its pointer NULL). `cpd`, `wp`: build those too
** (quadratic builds: small maps only). Takes the grid. */
static int kit_init(kit *k, astar_grid *g, bool cpd, bool wp) {
  memset(k, 0, sizeof *k);
  k->g = g;
  astar_options_init(&k->o);
  k->cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
  k->a = malloc(k->cap * sizeof *k->a);
  k->b = malloc(k->cap * sizeof *k->b);
  k->va = malloc(k->cap * sizeof *k->va);
  k->vb = malloc(k->cap * sizeof *k->vb);
  k->nodes = malloc(k->cap * sizeof *k->nodes);
  if (!k->a || !k->b || !k->va || !k->vb || !k->nodes ||
      astar_workspace_new(&k->ws, g, NULL) != ASTAR_OK) {
    CHECK(0);
    kit_free(k); /* the grid too */
    return 0;
  }
  (void)astar_jps_plus_new(&k->jps_plus, g, NULL);
  if (cpd) (void)astar_cpd_build(&k->cpd, g, NULL, NULL);
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  ho.cluster_size = 8;
  if (astar_hpa_new(&k->hpa, g, &k->o, &ho, NULL) == ASTAR_OK)
    CHECK(astar_hpa_query_new(&k->hpa_q, k->hpa, NULL) == ASTAR_OK);
  CHECK(astar_landmarks_new_grid(&k->landmarks, g, &k->o, NULL, NULL) == ASTAR_OK ||
        astar_grid_count_passable(g) == 0);
  CHECK(astar_waypoint_table_new(&k->table, g, &k->o, NULL, NULL) == ASTAR_OK);
  if (wp) (void)astar_waypoints_new(&k->waypoints, g, &k->o, 0, NULL);
  (void)astar_subgoal_build(&k->sg, g, NULL, NULL);
  if (!astar_grid_has_terrain(g)) {
    CHECK(astar_anya_workspace_new(&k->anya, g, 1u << 20, NULL) == ASTAR_OK);
    /* The reference's visibility graph is quadratic in the corners. */
    if (astar_grid_width(g) * astar_grid_height(g) <= 2500) k->esp = esp_graph_new(g);
  }
  return 1;
}

/* The config of method m in variant v on k; false when the variant does
** not apply to the method. */
static bool config_for(astar_finder_config *c, const kit *k, astar_method m, int v) {
  const astar_method_info *info = astar_method_info_of(m);
  astar_finder_config_init(c);
  c->method = m;
  c->options = k->o;
  c->engine.beam_width = 16; /* small enough to drop nodes on these maps */
  c->engine.epsilon = 0.5;
  c->engine.band_e = 0.5;
  c->engine.band_d = 2.0;
  if (info->needs & ASTAR_ATTACH_JPS_PLUS) c->jps_plus = k->jps_plus;
  if (info->needs & ASTAR_ATTACH_CPD) c->cpd = k->cpd;
  if (info->needs & ASTAR_ATTACH_HPA) c->hpa = k->hpa;
  switch (v) {
  case V_LANDMARKS:
    if (!(info->takes & ASTAR_ATTACH_LANDMARKS) || !k->landmarks) return false;
    c->landmarks = k->landmarks;
    return true;
  case V_TABLE:
    if (!(info->takes & ASTAR_ATTACH_TABLE) || !k->table) return false;
    c->table = k->table;
    return true;
  case V_WAYPOINTS:
    if (!(info->takes & ASTAR_ATTACH_WAYPOINTS) || !k->waypoints) return false;
    c->waypoints = k->waypoints;
    return true;
  case V_SMOOTH:
    if (info->flags & ASTAR_MF_VEC) return false;
    c->smooth = true;
    return true;
  default:
    return true;
  }
}

/* A finder of config c on k's grid g: a subgoal finder on k's graph for
** method subgoal (astar_finder_new refuses it), else astar_finder_new. */
static astar_status new_finder(astar_finder **f, const kit *k, const astar_grid *g,
                               const astar_finder_config *c) {
  if (c->method == ASTAR_METHOD_SUBGOAL && k->sg)
    return astar_finder_new_subgoal(f, g, k->sg, c, NULL);
  return astar_finder_new(f, g, c, NULL);
}

/* Why new_finder refuses c. */
static const char *finder_reason(const kit *k, const astar_grid *g, const astar_finder_config *c) {
  if (c->method == ASTAR_METHOD_SUBGOAL && k->sg)
    return astar_finder_subgoal_unsupported_reason(g, c);
  return astar_finder_unsupported_reason(g, NULL, c);
}

/* What astar_workspace_reserve_space reserves for m besides the forward search. */
static unsigned reservation(astar_method m) {
  if (m == ASTAR_METHOD_FRONT_TO_FRONT) return ASTAR_RESERVE_FRONT_TO_FRONT;
  if (m == ASTAR_METHOD_BIDIRECTIONAL || m == ASTAR_METHOD_RETARGETING || m == ASTAR_METHOD_BEAM)
    return ASTAR_RESERVE_BACKWARD;
  return 0;
}

static bool has_path(astar_status st) {
  return st == ASTAR_OK || st == ASTAR_PARTIAL;
}

/* What a direct call gave. */
typedef struct outcome {
  astar_status st;
  double cost;
  size_t len;
} outcome;

/*
** The method's own call for config c on k, as a caller without the finder
** writes it: the path into path (cells) or vpath (Anya). cap: capacity.
*/
static outcome direct(kit *k, const astar_finder_config *c, astar_point s, astar_point t,
                      astar_point *path, astar_vec2 *vpath, size_t cap) {
  outcome out = {ASTAR_OK, 0.0, 0};
  astar_options o = c->options;
  astar_result r;
  astar_engine_options eo = c->engine;
  /* Fringe Search has no call of its own: the engine's A* is its reference
  ** (same status and cost; another optimal path may be taken). */
  eo.method = c->method == ASTAR_METHOD_FRINGE ? ASTAR_METHOD_ASTAR : c->method;
  /* Nor has a subgoal graph: the grid's A* is its reference (same status
  ** and cost, which the contract makes A*'s to the bit). */
  if (c->method == ASTAR_METHOD_SUBGOAL) {
    out.st = astar_find_path(k->ws, k->g, &o, s, t, path, cap, &r);
    out.cost = r.cost;
    out.len = r.length;
    return out;
  }
  eo.weight = o.weight;
  eo.tie = o.tie;
  eo.reopen = o.reopen;
  eo.max_expansions = o.max_expansions;
  eo.partial = o.partial;
  astar_engine_result er;
  const astar_method m = c->method;
  if (c->smooth) {
    /* The grid path whole, then string-pulled as the tool's --smooth does. */
    astar_finder_config raw = *c;
    raw.smooth = false;
    out = direct(k, &raw, s, t, path, vpath, k->cap);
    if (!has_path(out.st)) return out;
    size_t m2 = 0;
    CHECK(astar_path_smooth(k->g, &o, path, out.len, path, out.len, &m2) == ASTAR_OK);
    CHECK(astar_polyline_cost(k->g, &o, path, m2, &out.cost, NULL) == ASTAR_OK);
    out.len = m2;
    if (m2 > cap) out.st = ASTAR_BUFFER_TOO_SMALL;
    return out;
  }
  if (c->waypoints) {
    CHECK(astar_waypoints_reserve(k->ws, c->waypoints, reservation(m)) == ASTAR_OK);
    out.st = astar_waypoints_find_path(k->ws, c->waypoints, k->g, &eo, s, t, path, cap, &er);
    out.cost = er.cost;
    out.len = er.length;
    return out;
  }
  switch (m) {
  case ASTAR_METHOD_ASTAR:
  case ASTAR_METHOD_DIJKSTRA:
  case ASTAR_METHOD_JPS:
    if (m == ASTAR_METHOD_DIJKSTRA) o.heuristic = ASTAR_H_ZERO;
    if (m == ASTAR_METHOD_JPS) o.algorithm = ASTAR_ALGO_JPS;
    if (c->landmarks) {
      o.heuristic = ASTAR_H_CALLBACK;
      o.heuristic_fn = astar_landmarks_grid_heuristic;
      o.heuristic_ctx = (void *)c->landmarks;
    } else if (c->table) {
      o.heuristic = ASTAR_H_CALLBACK;
      o.heuristic_fn = astar_waypoint_table_heuristic;
      o.heuristic_ctx = (void *)c->table;
    }
    out.st = astar_find_path(k->ws, k->g, &o, s, t, path, cap, &r);
    out.cost = r.cost;
    out.len = r.length;
    return out;
  case ASTAR_METHOD_JPS_PLUS:
    out.st = astar_jps_plus_find_path(k->ws, c->jps_plus, k->g, &o, s, t, path, cap, &r);
    out.cost = r.cost;
    out.len = r.length;
    return out;
  case ASTAR_METHOD_CPD:
    out.st = astar_cpd_path(c->cpd, k->g, s, t, path, cap, &out.len, &out.cost);
    if (out.st != ASTAR_OK && out.st != ASTAR_BUFFER_TOO_SMALL) out.cost = 0, out.len = 0;
    return out;
  case ASTAR_METHOD_HPA: {
    astar_hpa_result hr;
    out.st = astar_hpa_find_path(k->hpa_q, c->hpa, k->g, s, t, path, cap, &hr);
    out.cost = hr.cost;
    out.len = hr.length;
    return out;
  }
  case ASTAR_METHOD_THETA:
  case ASTAR_METHOD_LAZY_THETA: {
    astar_anyangle_result ar;
    out.st = astar_anyangle_find_path(
        k->ws, k->g, &o, m == ASTAR_METHOD_THETA ? ASTAR_ANYANGLE_THETA : ASTAR_ANYANGLE_LAZY_THETA,
        s, t, path, cap, &ar);
    out.cost = ar.cost;
    out.len = ar.length;
    return out;
  }
  case ASTAR_METHOD_ANYA: {
    astar_anya_result ar;
    out.st = astar_anya_find_path(k->anya, k->g, s, t, vpath, cap, &ar);
    out.cost = o.straight_cost * ar.cost;
    out.len = ar.length;
    return out;
  }
  default:
    break;
  }
  /* The engine on the grid as a space (with a landmark wrapper). */
  astar_grid_space holder;
  astar_space sp, lsp;
  astar_landmarks_space_holder lh;
  CHECK(astar_grid_space_init(&sp, &holder, k->g, &o) == ASTAR_OK);
  const astar_space *space = &sp;
  if (c->landmarks) {
    CHECK(astar_landmarks_space(&lsp, &lh, &sp, c->landmarks) == ASTAR_OK);
    space = &lsp;
  }
  CHECK(astar_workspace_reserve_space(k->ws, space, reservation(m)) == ASTAR_OK);
  if (!astar_grid_contains(k->g, s.x, s.y) || !astar_grid_contains(k->g, t.x, t.y)) {
    out.st = ASTAR_OUT_OF_BOUNDS;
    return out;
  }
  out.st = astar_space_find_path(k->ws, space, &eo, astar_grid_space_node(&holder, s),
                                 astar_grid_space_node(&holder, t), k->nodes, cap, &er);
  out.cost = er.cost;
  out.len = er.length;
  if (out.st == ASTAR_OK || out.st == ASTAR_PARTIAL)
    for (size_t i = 0; i < er.length; i++) path[i] = astar_grid_space_cell(&holder, k->nodes[i]);
  return out;
}

/* IDA* and front-to-front are for small maps (their work grows fast with
** real-valued costs and wide frontiers). */
static bool method_fits(astar_method m, const astar_grid *g) {
  const int32_t cells = astar_grid_width(g) * astar_grid_height(g);
  if (m == ASTAR_METHOD_IDA) return cells <= 150;
  if (m == ASTAR_METHOD_FRONT_TO_FRONT) return cells <= 6000;
  return true;
}

static uint64_t checked_queries;
static uint64_t with_path[ASTAR_METHOD_COUNT][V_COUNT]; /* compared queries that found a path */

/* One query: the finder against the direct call (and the references). */
static void compare_query(kit *k, const astar_finder *f, const astar_finder_config *c,
                          astar_workspace *fws, astar_point s, astar_point t, size_t cap,
                          const char *where, int v) {
  const astar_method_info *info = astar_method_info_of(c->method);
  const bool vec = (info->flags & ASTAR_MF_VEC) != 0;
  const outcome d = direct(k, c, s, t, k->a, k->va, cap);
  astar_path_result res;
  const astar_status st = vec ? astar_finder_find_vec(f, fws, s, t, k->vb, cap, &res)
                              : astar_finder_find(f, fws, s, t, k->b, cap, &res);
  checked_queries++;
  /* Fringe against A*: an optimal path of its own, perhaps with another
  ** number of cells (terrain), so perhaps fitting where A*'s did not. */
  const bool own = c->method == ASTAR_METHOD_FRINGE || c->method == ASTAR_METHOD_SUBGOAL;
  const bool exact = c->method == ASTAR_METHOD_SUBGOAL; /* A*'s cost to the bit */
  const bool fits_either = own && (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) &&
                           (d.st == ASTAR_OK || d.st == ASTAR_BUFFER_TOO_SMALL) &&
                           (st == ASTAR_OK) == (res.length <= cap);
  if ((st != d.st && !fits_either) || res.status != st || (res.length != d.len && !own) ||
      (has_path(st) &&
       (own && !exact ? !c->smooth && !cost_equal(res.cost, d.cost) : res.cost != d.cost))) {
    FAILF("%s %s/%s (%d,%d)->(%d,%d) cap %zu: finder %s cost %.17g len %zu; direct %s cost "
          "%.17g len %zu",
          where, info->name, vname[v], s.x, s.y, t.x, t.y, cap, astar_strerror(st), res.cost,
          res.length, astar_strerror(d.st), d.cost, d.len);
    return;
  }
  if (!has_path(st)) return;
  with_path[c->method][v]++;
  if (!own && (vec ? memcmp(k->va, k->vb, d.len * sizeof *k->va) != 0
                   : memcmp(k->a, k->b, d.len * sizeof *k->a) != 0))
    FAILF("%s %s/%s (%d,%d)->(%d,%d): the paths differ", where, info->name, vname[v], s.x, s.y, t.x,
          t.y);
  if (!vec && (res.end.x != k->b[res.length - 1].x || res.end.y != k->b[res.length - 1].y))
    FAILF("%s %s: end is not the last cell", where, info->name);
  /* The references: grid-optimal methods give the optimal cost, Anya the
  ** Euclidean shortest path. */
  if (st != ASTAR_OK) return;
  if (own && c->smooth && !cost_equal(res.grid_cost, ref_dijkstra(k->g, &c->options, s, t)))
    FAILF("%s fringe/smooth (%d,%d)->(%d,%d): grid cost %.17g is not optimal", where, s.x, s.y, t.x,
          t.y, res.grid_cost);
  if ((info->flags & ASTAR_MF_OPTIMAL) && !(info->flags & ASTAR_MF_ANY_ANGLE) && v != V_WAYPOINTS &&
      v != V_SMOOTH) {
    const double ref = ref_dijkstra(k->g, &c->options, s, t);
    if (!cost_equal(ref, res.cost))
      FAILF("%s %s/%s (%d,%d)->(%d,%d): cost %.17g, optimal %.17g", where, info->name, vname[v],
            s.x, s.y, t.x, t.y, res.cost, ref);
    char err[200];
    if (!validate_path(k->g, &c->options, s, t, k->b, res.length, res.cost, err, sizeof err))
      FAILF("%s %s: %s", where, info->name, err);
  }
  if (c->method == ASTAR_METHOD_ANYA && k->esp) {
    const double ref = esp_graph_query(k->esp, s, t);
    if (!(fabs(ref - res.cost) <= 1e-9 * fmax(1.0, ref)))
      FAILF("%s anya (%d,%d)->(%d,%d): %.17g, the shortest %.17g", where, s.x, s.y, t.x, t.y,
            res.cost, ref);
  }
}

/* Every method and variant on k: `nq` random queries (and some of the
** edge cases), or the scenario's queries when given. */
static void compare_all(kit *k, const char *where, uint64_t seed, int nq,
                        const astar_scen_query *scen, size_t nscen) {
  rng r;
  rng_seed(&r, seed);
  astar_workspace *fws = NULL;
  CHECK(astar_workspace_new_empty(&fws, NULL) == ASTAR_OK);
  for (int mi = 0; mi < ASTAR_METHOD_COUNT; mi++) {
    const astar_method m = (astar_method)mi;
    if (!method_fits(m, k->g)) continue;
    for (int v = 0; v < V_COUNT; v++) {
      astar_finder_config c;
      if (!config_for(&c, k, m, v)) continue;
      const char *why = finder_reason(k, k->g, &c);
      astar_finder *f = NULL;
      const astar_status st = new_finder(&f, k, k->g, &c);
      if (why) {
        CHECKF(st == ASTAR_UNSUPPORTED && !f, "%s %s/%s: %s but %s", where,
               astar_method_info_of(m)->name, vname[v], why, astar_strerror(st));
        continue;
      }
      CHECKF(st == ASTAR_OK, "%s %s/%s: %s", where, astar_method_info_of(m)->name, vname[v],
             astar_strerror(st));
      if (!f) continue;
      const size_t n = scen ? nscen : (size_t)nq;
      for (size_t q = 0; q < n; q++) {
        astar_point s, t;
        size_t cap = k->cap;
        if (scen) {
          s = scen[q].start;
          t = scen[q].goal;
        } else {
          s = randmap_passable_cell(k->g, &r);
          t = randmap_passable_cell(k->g, &r);
          if (q % 7 == 3)
            t = P(rng_range(&r, 0, astar_grid_width(k->g) - 1),
                  rng_range(&r, 0, astar_grid_height(k->g) - 1));
          if (q % 11 == 5) s = P(-1, 0);
          if (q % 13 == 6) t = s;
          if (q % 5 == 2) cap = (size_t)rng_range(&r, 0, 3); /* too small, mostly */
        }
        if (s.x < -1) continue; /* no passable cell */
        compare_query(k, f, &c, fws, s, t, cap, where, v);
      }
      astar_finder_free(f);
    }
  }
  astar_workspace_free(fws);
}

/* ---- the table ------------------------------------------------------------------------ */

static void test_table(void) {
  for (int i = 0; i < ASTAR_METHOD_COUNT; i++) {
    const astar_method m = (astar_method)i;
    const astar_method_info *info = astar_method_info_of(m);
    CHECKF(info && info->method == m, "row %d", i);
    if (!info) continue;
    CHECK(info->name && info->summary && info->work && info->name[0] && info->summary[0]);
    CHECK((info->needs & ~info->takes) == 0);
    CHECK(((info->flags & ASTAR_MF_NEEDS_PREP) != 0) == (info->needs != 0));
    astar_method back = ASTAR_METHOD_COUNT;
    CHECK(astar_method_from_name(info->name, &back) == ASTAR_OK && back == m);
    back = ASTAR_METHOD_COUNT;
    CHECK(astar_method_from_name(astar_method_name(m), &back) == ASTAR_OK && back == m);
    for (int j = 0; j < i; j++)
      CHECK(strcmp(astar_method_info_of((astar_method)j)->name, info->name) != 0);
  }
  CHECK(astar_method_info_of(ASTAR_METHOD_COUNT) == NULL);
  CHECK(astar_method_info_of((astar_method)-1) == NULL);
  /* The tool's --algo names (astar solve --help). */
  static const char *const tool[] = {"astar",      "jps",      "jps-plus", "dijkstra", "greedy",
                                     "bidir",      "ida",      "beam",     "dynamic",  "bandwidth",
                                     "f2f",        "retarget", "hpa",      "cpd",      "theta",
                                     "lazy-theta", "anya"};
  for (size_t i = 0; i < sizeof tool / sizeof tool[0]; i++) {
    astar_method m;
    CHECKF(astar_method_from_name(tool[i], &m) == ASTAR_OK, "%s", tool[i]);
  }
  astar_method m = ASTAR_METHOD_BEAM;
  CHECK(astar_method_from_name("nonsense", &m) == ASTAR_INVALID_ARGUMENT && m == ASTAR_METHOD_BEAM);
  CHECK(astar_method_from_name(NULL, &m) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_method_info_of(ASTAR_METHOD_JPS_PLUS)->needs == ASTAR_ATTACH_JPS_PLUS);
  CHECK(astar_method_info_of(ASTAR_METHOD_GREEDY)->flags & ASTAR_MF_SLICED);
  CHECK(!(astar_method_info_of(ASTAR_METHOD_JPS)->flags & ASTAR_MF_SLICED));
}

/* ---- every method against its own call -------------------------------------------------- */

static void test_random_maps(void) {
  rng r;
  rng_seed(&r, 2601);
  for (int mapi = 0; mapi < 14; mapi++) {
    randmap_spec spec;
    spec.width = rng_range(&r, 6, mapi < 4 ? 14 : 40);
    spec.height = rng_range(&r, 6, mapi < 4 ? 14 : 40);
    spec.density = 0.05 * rng_range(&r, 0, 7);
    spec.terrain = mapi % 3 == 2;
    spec.terrain_lo = 0.5;
    spec.terrain_hi = 4.0;
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    kit k;
    if (!g || !kit_init(&k, g, true, true)) continue;
    char where[64];
    snprintf(where, sizeof where, "random map %d (%dx%d%s)", mapi, spec.width, spec.height,
             spec.terrain ? ", terrain" : "");
    compare_all(&k, where, 100 + (uint64_t)mapi, 25, NULL, 0);
    /* Other rules: 4 moves, corners cut, other costs (the precomputations
    ** built for the defaults are refused with ASTAR_MISMATCH). */
    if (mapi % 4 == 1) {
      kit_free(&k);
      astar_grid *g2 = NULL;
      CHECK(randmap_make(&g2, &spec, &r) == ASTAR_OK);
      if (!g2 || !kit_init(&k, g2, false, false)) continue;
      k.o.moves = 4;
      astar_finder_config c;
      config_for(&c, &k, ASTAR_METHOD_HPA, V_PLAIN);
      astar_finder *f = NULL;
      CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_MISMATCH && !f);
      config_for(&c, &k, ASTAR_METHOD_ASTAR, V_LANDMARKS);
      CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_MISMATCH && !f);
      astar_hpa_query_free(k.hpa_q);
      astar_hpa_free(k.hpa);
      astar_landmarks_free(k.landmarks);
      astar_waypoint_table_free(k.table);
      k.hpa = NULL, k.hpa_q = NULL, k.landmarks = NULL, k.table = NULL;
      CHECK(astar_hpa_new(&k.hpa, k.g, &k.o, NULL, NULL) == ASTAR_OK);
      CHECK(astar_hpa_query_new(&k.hpa_q, k.hpa, NULL) == ASTAR_OK);
      CHECK(astar_landmarks_new_grid(&k.landmarks, k.g, &k.o, NULL, NULL) == ASTAR_OK);
      CHECK(astar_waypoint_table_new(&k.table, k.g, &k.o, NULL, NULL) == ASTAR_OK);
      snprintf(where, sizeof where, "random map %d, 4 moves", mapi);
      compare_all(&k, where, 200 + (uint64_t)mapi, 20, NULL, 0);
    }
    kit_free(&k);
  }
}

/* Read a whole file into a static buffer; its length, or 0. */
static size_t slurp(const char *path, char *buf, size_t cap) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  const size_t n = fread(buf, 1, cap, fp);
  fclose(fp);
  return n;
}

/* Moving AI maps: the small ones of tests/data and, when the shared
** benchmark is there (ASTAR_MOVINGAI_DIR), a sample of dao/den312d's and
** street/Berlin_0_256's queries. */
static void test_movingai(void) {
  static char shared[2][512];
  const char *dir = getenv("ASTAR_MOVINGAI_DIR");
  const char *maps[6] = {"data/small/cave64.map",
                         "data/small/maze64-1.map",
                         "data/small/random64-25.map",
                         "data/small/rooms64-8.map",
                         NULL,
                         NULL};
  if (dir && strlen(dir) < 400) {
    snprintf(shared[0], sizeof shared[0], "%s/dao/den312d.map", dir);
    snprintf(shared[1], sizeof shared[1], "%s/street/Berlin_0_256.map", dir);
    maps[4] = shared[0];
    maps[5] = shared[1];
  }
  static char text[1 << 21];
  for (int mi = 0; mi < 6 && maps[mi]; mi++) {
    size_t n = slurp(maps[mi], text, sizeof text);
    CHECKF(n > 0, "%s", maps[mi]);
    astar_grid *g = NULL;
    if (!n || astar_movingai_parse_map(&g, text, n, NULL, NULL) != ASTAR_OK) {
      CHECK(0);
      continue;
    }
    char scenpath[600];
    snprintf(scenpath, sizeof scenpath, "%s.scen", maps[mi]);
    n = slurp(scenpath, text, sizeof text);
    astar_scen *sc = NULL;
    CHECK(n > 0 && astar_movingai_parse_scen(&sc, text, n, NULL, NULL) == ASTAR_OK);
    kit k;
    const bool small = astar_grid_count_passable(g) <= 3000;
    if (!kit_init(&k, g, small, mi != 2 && mi < 5)) {
      astar_scen_free(sc);
      continue;
    }
    if (sc) {
      /* A sample spread over the buckets. */
      astar_scen_query pick[16];
      const size_t total = astar_scen_count(sc), want = mi >= 4 ? 16 : 8;
      size_t np = 0;
      for (size_t i = 0; i < total && np < want; i += total / want + 1)
        pick[np++] = astar_scen_queries(sc)[i];
      compare_all(&k, maps[mi], 0, 0, pick, np);
    }
    astar_scen_free(sc);
    kit_free(&k);
  }
}

/* ---- sliced searches ---------------------------------------------------------------------- */

static bool same_result(const astar_path_result *a, const astar_path_result *b) {
  return a->status == b->status && a->cause == b->cause && a->cost == b->cost &&
         a->length == b->length && a->stats.expanded == b->stats.expanded &&
         a->stats.generated == b->stats.generated && a->work == b->work && a->end.x == b->end.x &&
         a->end.y == b->end.y && a->end_node == b->end_node && a->dropped == b->dropped &&
         a->iterations == b->iterations && a->grid_cost == b->grid_cost &&
         a->sight_checks == b->sight_checks;
}

static void sliced_one(kit *k, const astar_finder *f, astar_workspace *ws, astar_point s,
                       astar_point t, const char *name) {
  const bool vec =
      (astar_method_info_of(astar_finder_config_of(f)->method)->flags & ASTAR_MF_VEC) != 0;
  astar_path_result one;
  const astar_status st1 = vec ? astar_finder_find_vec(f, ws, s, t, k->va, k->cap, &one)
                               : astar_finder_find(f, ws, s, t, k->a, k->cap, &one);
  static const uint64_t budgets[3] = {1, 7, 1000};
  for (int b = 0; b < 3; b++) {
    astar_status st = astar_finder_begin(f, ws, s, t);
    uint64_t sum = 0, steps = 0;
    while (st == ASTAR_OK || st == ASTAR_IN_PROGRESS) {
      uint64_t w = 0;
      st = astar_finder_step(ws, budgets[b], &w);
      sum += w;
      if (++steps > 10000000) break;
      if (st == ASTAR_IN_PROGRESS) {
        CHECKF(w <= budgets[b], "%s: step did %llu, budget %llu", name, (unsigned long long)w,
               (unsigned long long)budgets[b]);
        astar_path_result early;
        CHECK((vec ? astar_finder_finish_vec(ws, k->vb, k->cap, &early)
                   : astar_finder_finish(ws, k->b, k->cap, &early)) == ASTAR_IN_PROGRESS);
      } else {
        break;
      }
    }
    astar_path_result sl;
    const astar_status st2 = vec ? astar_finder_finish_vec(ws, k->vb, k->cap, &sl)
                                 : astar_finder_finish(ws, k->b, k->cap, &sl);
    if (st2 != st1 || !same_result(&one, &sl)) {
      FAILF("%s budget %llu (%d,%d)->(%d,%d): sliced %s cost %.17g len %zu exp %llu; one-shot %s "
            "cost %.17g len %zu exp %llu",
            name, (unsigned long long)budgets[b], s.x, s.y, t.x, t.y, astar_strerror(st2), sl.cost,
            sl.length, (unsigned long long)sl.stats.expanded, astar_strerror(st1), one.cost,
            one.length, (unsigned long long)one.stats.expanded);
      continue;
    }
    if (has_path(st1) && (vec ? memcmp(k->va, k->vb, sl.length * sizeof *k->va)
                              : memcmp(k->a, k->b, sl.length * sizeof *k->a)) != 0)
      FAILF("%s budget %llu: the paths differ", name, (unsigned long long)budgets[b]);
    if (st1 != ASTAR_OUT_OF_BOUNDS && st1 != ASTAR_START_BLOCKED && st1 != ASTAR_GOAL_BLOCKED)
      CHECKF(sum == one.work, "%s budget %llu: steps did %llu, the search %llu", name,
             (unsigned long long)budgets[b], (unsigned long long)sum, (unsigned long long)one.work);
  }
}

static void test_sliced(void) {
  rng r;
  rng_seed(&r, 2602);
  for (int mapi = 0; mapi < 4; mapi++) {
    randmap_spec spec = {rng_range(&r, 10, 18), rng_range(&r, 10, 18), 0.2, mapi == 3, 0.5, 3.0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    kit k;
    if (!g || !kit_init(&k, g, true, true)) continue;
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    for (int mi = 0; mi < ASTAR_METHOD_COUNT; mi++) {
      /* The methods from Fringe on draw their queries from streams of their
      ** own, so that a new method changes no other's queries (IDA* takes
      ** 10^8 expansions on some of the unreachable goals of these maps). */
      rng own;
      rng_seed(&own, 7000 + 100 * (uint64_t)mapi + (uint64_t)mi);
      rng *qs = mi < ASTAR_METHOD_FRINGE ? &r : &own;
      for (int v = 0; v < V_COUNT; v++) {
        astar_finder_config c;
        if (!config_for(&c, &k, (astar_method)mi, v)) continue;
        astar_finder *f = NULL;
        if (new_finder(&f, &k, k.g, &c) != ASTAR_OK) continue;
        char name[80];
        snprintf(name, sizeof name, "map %d %s/%s%s", mapi,
                 astar_method_info_of((astar_method)mi)->name, vname[v],
                 c.smooth ? " smoothed" : "");
        for (int q = 0; q < 4; q++) {
          astar_point s = randmap_passable_cell(k.g, qs), t = randmap_passable_cell(k.g, qs);
          if (q == 2) s = P(-1, 0); /* outside: begin or the first step says so */
          if (q == 3) t = P(0, 0);  /* blocked, maybe */
          sliced_one(&k, f, ws, s, t, name);
        }
        astar_finder_free(f);
      }
    }
    /* A space finder, sliced: nodes. */
    astar_grid_space holder;
    astar_space sp;
    CHECK(astar_grid_space_init(&sp, &holder, k.g, NULL) == ASTAR_OK);
    astar_finder_config c;
    astar_finder_config_init(&c);
    c.method = ASTAR_METHOD_BIDIRECTIONAL;
    astar_finder *f = NULL;
    CHECK(astar_finder_new_space(&f, &sp, &c, NULL) == ASTAR_OK);
    const astar_point s = randmap_passable_cell(k.g, &r), t = randmap_passable_cell(k.g, &r);
    const astar_node ns = astar_grid_space_node(&holder, s), nt = astar_grid_space_node(&holder, t);
    astar_path_result one, sl;
    const astar_status st1 = astar_finder_find_nodes(f, ws, ns, nt, k.nodes, k.cap, &one);
    CHECK(astar_finder_begin(f, ws, s, t) == ASTAR_INVALID_ARGUMENT); /* nodes, not cells */
    astar_status st = astar_finder_begin_nodes(f, ws, ns, nt);
    while (st == ASTAR_OK || st == ASTAR_IN_PROGRESS) {
      st = astar_finder_step(ws, 3, NULL);
      if (st != ASTAR_IN_PROGRESS) break;
    }
    static astar_node nodes2[4096];
    CHECK(astar_finder_finish_nodes(ws, nodes2, 4096, &sl) == st1 && same_result(&one, &sl));
    CHECK(!has_path(st1) || memcmp(k.nodes, nodes2, one.length * sizeof *nodes2) == 0);
    CHECK(astar_finder_step(ws, 1, NULL) == ASTAR_INVALID_ARGUMENT); /* nothing begun */
    CHECK(astar_finder_finish(ws, k.b, k.cap, &sl) == ASTAR_INVALID_ARGUMENT);
    astar_finder_cancel(ws);
    astar_finder_cancel(NULL);
    astar_finder_free(f);
    astar_workspace_free(ws);
    kit_free(&k);
  }
}

/* ---- refusals ----------------------------------------------------------------------------------
 */

static void expect_refused(const astar_grid *g, const astar_space *sp, const astar_finder_config *c,
                           const char *what) {
  const char *why = astar_finder_unsupported_reason(g, sp, c);
  astar_finder *f = (astar_finder *)1;
  const astar_status st =
      g ? astar_finder_new(&f, g, c, NULL) : astar_finder_new_space(&f, sp, c, NULL);
  CHECKF(why != NULL && st == ASTAR_UNSUPPORTED && f == NULL, "%s: %s, reason %s", what,
         astar_strerror(st), why ? why : "(none)");
}

static void test_unsupported(void) {
  astar_grid *g = NULL, *tg = NULL;
  CHECK(astar_grid_new(&g, 20, 20, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&tg, 20, 20, NULL) == ASTAR_OK);
  CHECK(astar_grid_set_terrain(tg, 3, 3, 2.0f) == ASTAR_OK);
  kit k;
  astar_grid *g2 = NULL;
  CHECK(astar_grid_clone(&g2, g, NULL) == ASTAR_OK);
  if (!g || !tg || !g2 || !kit_init(&k, g2, true, true)) return;
  astar_layer *layer = NULL;
  CHECK(astar_layer_new(&layer, 20, 20, NULL) == ASTAR_OK);
  const astar_layer *layers[1] = {layer};
  const float lw[1] = {1.0f};
  astar_finder_config c;
  const uint64_t v0 = astar__test_validations();

  /* Terrain: JPS, JPS+, CPD, Theta*, Lazy Theta*, Anya, waypoints. */
  const astar_method uniform[] = {ASTAR_METHOD_JPS, ASTAR_METHOD_THETA, ASTAR_METHOD_LAZY_THETA,
                                  ASTAR_METHOD_ANYA};
  for (size_t i = 0; i < sizeof uniform / sizeof uniform[0]; i++) {
    astar_finder_config_init(&c);
    c.method = uniform[i];
    expect_refused(tg, NULL, &c, "terrain");
  }
  /* Game-loop options the other methods cannot honour. */
  for (int mi = 0; mi < ASTAR_METHOD_COUNT; mi++) {
    for (int opt = 0; opt < 5; opt++) {
      if (mi == ASTAR_METHOD_ASTAR || mi == ASTAR_METHOD_DIJKSTRA) break;
      config_for(&c, &k, (astar_method)mi, V_PLAIN);
      switch (opt) {
      case 0:
        c.options.layers = layers;
        c.options.layer_weights = lw;
        c.options.nlayers = 1;
        break;
      case 1:
        c.options.turn_penalty = 1.0;
        break;
      case 2:
        c.options.terrain_scale = 0.5;
        break;
      case 3:
        c.options.partial = true;
        if (mi == ASTAR_METHOD_GREEDY || mi == ASTAR_METHOD_BEAM || mi == ASTAR_METHOD_DYNAMIC ||
            mi == ASTAR_METHOD_BANDWIDTH)
          continue; /* theirs */
        break;
      default:
        c.options.heuristic = ASTAR_H_CALLBACK;
        c.options.heuristic_fn = astar_landmarks_grid_heuristic;
        if (mi == ASTAR_METHOD_CPD || mi == ASTAR_METHOD_HPA || mi == ASTAR_METHOD_JPS_PLUS ||
            mi == ASTAR_METHOD_JPS)
          continue; /* heuristic settings are ignored / JPS's own rule */
        break;
      }
      char what[80];
      snprintf(what, sizeof what, "%s option %d", astar_method_info_of((astar_method)mi)->name,
               opt);
      expect_refused(k.g, NULL, &c, what);
    }
  }
  /* Attachments: missing, unused, two heuristics, big units with them. */
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_JPS_PLUS;
  expect_refused(k.g, NULL, &c, "jps-plus without its table");
  c.method = ASTAR_METHOD_JPS;
  c.cpd = k.cpd;
  expect_refused(k.g, NULL, &c, "jps with a cpd");
  astar_finder_config_init(&c);
  c.landmarks = k.landmarks;
  c.table = k.table;
  expect_refused(k.g, NULL, &c, "two heuristics");
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_DIJKSTRA;
  c.landmarks = k.landmarks;
  expect_refused(k.g, NULL, &c, "dijkstra with landmarks");
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_GREEDY;
  c.table = k.table;
  expect_refused(k.g, NULL, &c, "the engine with a table");
  astar_finder_config_init(&c);
  c.unit_size = 2;
  expect_refused(k.g, NULL, &c, "a big unit without clearance");
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_ANYA;
  c.smooth = true;
  expect_refused(k.g, NULL, &c, "anya smoothed");
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_GREEDY;
  c.options.observer = (astar_observer_fn)1;
  expect_refused(k.g, NULL, &c, "the engine with the grid's observer");
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_IDA;
  c.options.partial = true;
  expect_refused(k.g, NULL, &c, "ida partial");
  /* Spaces: the grid's methods and the grid's attachments are refused. */
  astar_grid_space holder;
  astar_space sp;
  CHECK(astar_grid_space_init(&sp, &holder, k.g, NULL) == ASTAR_OK);
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_JPS;
  expect_refused(NULL, &sp, &c, "jps on a space");
  c.method = ASTAR_METHOD_ASTAR;
  c.smooth = true;
  expect_refused(NULL, &sp, &c, "smoothing a space");
  c.smooth = false;
  c.table = k.table;
  expect_refused(NULL, &sp, &c, "a table on a space");
  /* Refusals are decided before any option is validated again or any
  ** search runs: no validation, and ASTAR_UNSUPPORTED leaves no finder. */
  CHECK(astar__test_validations() - v0 >= 1);
  /* Bad values: ASTAR_INVALID_ARGUMENT. */
  astar_finder *f = NULL;
  astar_finder_config_init(&c);
  c.options.moves = 5;
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  astar_finder_config_init(&c);
  c.method = (astar_method)99;
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  CHECK(astar_finder_unsupported_reason(k.g, NULL, &c) != NULL);
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_BEAM;
  c.engine.beam_width = 0;
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  astar_finder_config_init(&c);
  c.unit_size = 0;
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  CHECK(astar_finder_new(&f, NULL, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  CHECK(astar_finder_new(&f, k.g, NULL, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  CHECK(astar_finder_new(NULL, k.g, &c, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_unsupported_reason(NULL, NULL, &c) != NULL);
  CHECK(astar_finder_unsupported_reason(k.g, NULL, NULL) != NULL);
  /* A layer of another size. */
  astar_finder_config_init(&c);
  astar_layer *small = NULL;
  CHECK(astar_layer_new(&small, 5, 5, NULL) == ASTAR_OK);
  const astar_layer *sl[1] = {small};
  c.options.layers = sl;
  c.options.layer_weights = lw;
  c.options.nlayers = 1;
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  astar_layer_free(small);
  /* Precomputations of another grid: ASTAR_MISMATCH. */
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_JPS_PLUS;
  c.jps_plus = k.jps_plus;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_MISMATCH && !f);
  c.method = ASTAR_METHOD_CPD;
  c.jps_plus = NULL;
  c.cpd = k.cpd;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_MISMATCH && !f);
  /* Wrong calls for the finder's kind. */
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_ANYA;
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_OK);
  astar_path_result res;
  CHECK(astar_finder_find(f, k.ws, P(0, 0), P(5, 5), k.a, k.cap, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(res.status == ASTAR_INVALID_ARGUMENT && res.length == 0);
  CHECK(astar_finder_find_nodes(f, k.ws, 0, 5, k.nodes, k.cap, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_vec(f, k.ws, P(0, 0), P(5, 5), k.va, k.cap, &res) == ASTAR_OK);
  astar_finder_free(f);
  CHECK(astar_finder_find(NULL, k.ws, P(0, 0), P(5, 5), k.a, k.cap, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  astar_finder_free(NULL);
  CHECK(astar_finder_refresh(NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_config_of(NULL) == NULL && astar_finder_grid(NULL) == NULL);
  astar_layer_free(layer);
  kit_free(&k);
  astar_grid_free(g);
  astar_grid_free(tg);
}

/* ---- staleness and refresh ---------------------------------------------------------------- */

static void test_stale(void) {
  rng r;
  rng_seed(&r, 2603);
  randmap_spec spec = {48, 40, 0.2, 1, 0.5, 3.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  kit k;
  if (!g || !kit_init(&k, g, false, false)) return;
  CHECK(astar_grid_track_changes(k.g, 64) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_finder_config ch, cl, cp;
  config_for(&ch, &k, ASTAR_METHOD_HPA, V_PLAIN);
  config_for(&cl, &k, ASTAR_METHOD_ASTAR, V_LANDMARKS);
  config_for(&cp, &k, ASTAR_METHOD_ASTAR, V_PLAIN);
  astar_finder *fh = NULL, *fl = NULL, *fp = NULL;
  CHECK(astar_finder_new(&fh, k.g, &ch, NULL) == ASTAR_OK);
  CHECK(astar_finder_new(&fl, k.g, &cl, NULL) == ASTAR_OK);
  CHECK(astar_finder_new(&fp, k.g, &cp, NULL) == ASTAR_OK);
  astar_point s = randmap_passable_cell(k.g, &r), t = randmap_passable_cell(k.g, &r);
  astar_path_result res;
  CHECK(astar_finder_find(fh, ws, s, t, k.b, k.cap, &res) == ASTAR_OK);
  /* A sliced search when the map changes under it: stale. */
  CHECK(astar_finder_begin(fp, ws, s, t) == ASTAR_OK);
  for (int i = 0; i < 3; i++) {
    const astar_point c = randmap_passable_cell(k.g, &r);
    if ((c.x == s.x && c.y == s.y) || (c.x == t.x && c.y == t.y)) continue;
    CHECK(astar_grid_set_passable(k.g, c.x, c.y, false) == ASTAR_OK);
  }
  CHECK(astar_grid_set_terrain(k.g, 0, 0, 7.0f) == ASTAR_OK);
  CHECK(astar_finder_step(ws, 0, NULL) == ASTAR_STALE);
  CHECK(astar_finder_finish(ws, k.b, k.cap, &res) == ASTAR_STALE && res.length == 0);
  /* The attachments are behind: stale until brought up to date. */
  CHECK(astar_finder_find(fh, ws, s, t, k.b, k.cap, &res) == ASTAR_STALE);
  CHECK(res.status == ASTAR_STALE && res.length == 0 && res.work == 0);
  CHECK(astar_finder_begin(fh, ws, s, t) == ASTAR_STALE);
  CHECK(astar_finder_find(fl, ws, s, t, k.b, k.cap, &res) == ASTAR_STALE);
  CHECK(astar_finder_refresh(fh) == ASTAR_STALE);
  CHECK(astar_finder_refresh(fl) == ASTAR_STALE); /* landmarks cannot be updated: remade */
  /* Without attachments the finder follows the grid. */
  CHECK(astar_finder_find(fp, ws, s, t, k.b, k.cap, &res) ==
        astar_find_path(k.ws, k.g, &k.o, s, t, k.a, k.cap, NULL));
  CHECK(astar_hpa_sync(k.hpa, k.g, NULL) == ASTAR_OK);
  CHECK(astar_hpa_query_reserve(k.hpa_q, k.hpa) == ASTAR_OK);
  CHECK(astar_finder_refresh(fh) == ASTAR_OK);
  for (int q = 0; q < 10; q++) {
    s = randmap_passable_cell(k.g, &r), t = randmap_passable_cell(k.g, &r);
    compare_query(&k, fh, &ch, ws, s, t, k.cap, "refreshed", V_PLAIN);
  }
  astar_finder_free(fh);
  astar_finder_free(fl);
  astar_finder_free(fp);
  astar_workspace_free(ws);
  kit_free(&k);
}

/* ---- units bigger than one cell ----------------------------------------------------------- */

/* The derived grid of the finder equals a fresh fill. */
static bool same_grid(const astar_grid *a, const astar_grid *b) {
  for (int32_t y = 0; y < astar_grid_height(a); y++)
    for (int32_t x = 0; x < astar_grid_width(a); x++)
      if (astar_grid_passable(a, x, y) != astar_grid_passable(b, x, y) ||
          astar_grid_terrain(a, x, y) != astar_grid_terrain(b, x, y))
        return false;
  return astar_grid_min_terrain(a) == astar_grid_min_terrain(b);
}

static void test_units(void) {
  rng r;
  rng_seed(&r, 2604);
  for (int mapi = 0; mapi < 6; mapi++) {
    randmap_spec spec = {rng_range(&r, 20, 50), rng_range(&r, 20, 50), 0.12, mapi % 2, 0.5, 3.0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    uint8_t *types = calloc((size_t)w * (size_t)h, 1);
    for (int32_t i = 0; types && i < w * h; i++) types[i] = (uint8_t)(rng_range(&r, 0, 9) == 0);
    const astar_capability caps[2] = {ASTAR_CAPABILITY_ALL, ASTAR_CAPABILITY(ASTAR_TYPE_GROUND)};
    astar_clearance *cl = NULL;
    CHECK(astar_clearance_new(&cl, g, types, caps, 2, 8, NULL) == ASTAR_OK);
    CHECK(astar_grid_track_changes(g, mapi == 5 ? 2 : 256) == ASTAR_OK);
    astar_grid *scratch = NULL, *fresh = NULL;
    CHECK(astar_grid_new(&scratch, w, h, NULL) == ASTAR_OK);
    CHECK(astar_grid_new(&fresh, w, h, NULL) == ASTAR_OK);
    astar_workspace *ws = NULL, *fws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_workspace_new_empty(&fws, NULL) == ASTAR_OK);
    static astar_point pa[4096], pb[4096];
    for (int size = 1; size <= 3 && cl && ws && fws; size++) {
      for (int ci = 0; ci < 2; ci++) {
        const astar_method methods[2] = {ASTAR_METHOD_ASTAR, ASTAR_METHOD_JPS};
        for (int mi = 0; mi < 2; mi++) {
          astar_finder_config c;
          astar_finder_config_init(&c);
          c.method = methods[mi];
          c.unit_size = size;
          c.capability = ci ? caps[1] : 0;
          c.clearance = cl;
          astar_finder *f = NULL;
          const astar_status fst = astar_finder_new(&f, g, &c, NULL);
          if (astar_grid_has_terrain(g) && mi == 1) {
            CHECK(fst == ASTAR_UNSUPPORTED && !f);
            continue;
          }
          CHECK(fst == ASTAR_OK);
          if (!f) continue;
          astar_options o;
          astar_options_init(&o);
          if (mi == 1) o.algorithm = ASTAR_ALGO_JPS;
          for (int round = 0; round < 3; round++) {
            CHECK(astar_clearance_fill_grid(cl, g, size, ci ? caps[1] : ASTAR_CAPABILITY_ALL,
                                            fresh) == ASTAR_OK);
            CHECKF(same_grid(astar_finder_grid(f), fresh), "map %d size %d cap %d round %d", mapi,
                   size, ci, round);
            for (int q = 0; q < 12; q++) {
              const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
              astar_result dr;
              astar_path_result fr;
              const astar_status d = astar_clearance_find_path(ws, cl, g, scratch, &o, size,
                                                               ci ? caps[1] : ASTAR_CAPABILITY_ALL,
                                                               s, t, pa, 4096, &dr);
              const astar_status fs = astar_finder_find(f, fws, s, t, pb, 4096, &fr);
              if (d != fs || fr.cost != dr.cost || fr.length != dr.length ||
                  (d == ASTAR_OK && memcmp(pa, pb, dr.length * sizeof *pa) != 0))
                FAILF("unit map %d size %d cap %d %s round %d: finder %s %.17g, direct %s %.17g",
                      mapi, size, ci, astar_method_info_of(methods[mi])->name, round,
                      astar_strerror(fs), fr.cost, astar_strerror(d), dr.cost);
              if (d == ASTAR_OK) {
                double pc;
                CHECK(astar_clearance_path_cost(cl, g, &o, size,
                                                ci ? caps[1] : ASTAR_CAPABILITY_ALL, pb, fr.length,
                                                &pc, NULL) == ASTAR_OK);
                CHECK(cost_equal(pc, fr.cost));
              }
            }
            /* Edits: stale until the clearance is updated and the finder refreshed. */
            astar_point cells[6];
            for (int i = 0; i < 6; i++) {
              cells[i] = P(rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1));
              CHECK(astar_grid_set_passable(g, cells[i].x, cells[i].y, rng_range(&r, 0, 3) == 0) ==
                    ASTAR_OK);
              if (astar_grid_has_terrain(g))
                CHECK(astar_grid_set_terrain(g, cells[i].x, cells[i].y,
                                             (float)rng_range(&r, 1, 12) / 4.0f) == ASTAR_OK);
            }
            astar_path_result fr;
            const astar_point s = randmap_passable_cell(g, &r);
            if (astar_grid_version(g) != 0)
              CHECK(astar_finder_find(f, fws, s, s, pb, 4096, &fr) == ASTAR_STALE);
            CHECK(astar_finder_refresh(f) == ASTAR_STALE);
            CHECK(astar_clearance_update_cells(cl, g, cells, 6) == ASTAR_OK);
            if (round == 1)
              CHECK(astar_clearance_set_type(cl, g, cells[0].x, cells[0].y, 1) == ASTAR_OK);
            CHECK(astar_finder_refresh(f) == ASTAR_OK);
          }
          astar_finder_free(f);
        }
      }
    }
    astar_workspace_free(ws);
    astar_workspace_free(fws);
    astar_grid_free(scratch);
    astar_grid_free(fresh);
    astar_clearance_free(cl);
    free(types);
    astar_grid_free(g);
  }
}

/* ---- the workspace grows once -----------------------------------------------------------------
 */

static void test_growth(void) {
  rng r;
  rng_seed(&r, 2605);
  randmap_spec spec = {30, 26, 0.15, 0, 1, 1};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  kit k;
  if (!g || !kit_init(&k, g, true, true)) return;
  for (int mi = 0; mi < ASTAR_METHOD_COUNT; mi++) {
    for (int v = 0; v < V_COUNT; v++) {
      for (int smooth = 0; smooth < 2; smooth++) {
        astar_finder_config c;
        if (!config_for(&c, &k, (astar_method)mi, v) || !method_fits((astar_method)mi, k.g))
          continue;
        c.smooth = smooth;
        astar_finder *f = NULL;
        if (new_finder(&f, &k, k.g, &c) != ASTAR_OK) continue;
        failalloc fa;
        failalloc_init(&fa);
        const astar_allocator a = failalloc_allocator(&fa);
        astar_workspace *ws = NULL;
        CHECK(astar_workspace_new_empty(&ws, &a) == ASTAR_OK);
        const bool vec = (astar_method_info_of((astar_method)mi)->flags & ASTAR_MF_VEC) != 0;
        long after_first = 0;
        for (int q = 0; q < 12; q++) {
          const astar_point s = randmap_passable_cell(k.g, &r), t = randmap_passable_cell(k.g, &r);
          astar_path_result res;
          const astar_status st = vec ? astar_finder_find_vec(f, ws, s, t, k.va, k.cap, &res)
                                      : astar_finder_find(f, ws, s, t, k.a, k.cap, &res);
          CHECK(st != ASTAR_NO_MEMORY && st != ASTAR_CAPACITY);
          /* sliced too: begin grows what finish needs */
          if (astar_finder_begin(f, ws, s, t) == ASTAR_OK)
            while (astar_finder_step(ws, 5, NULL) == ASTAR_IN_PROGRESS) {
            }
          (void)(vec ? astar_finder_finish_vec(ws, k.va, k.cap, &res)
                     : astar_finder_finish(ws, k.a, k.cap, &res));
          if (q == 0) {
            CHECKF(fa.requests > 0, "%s: nothing grown",
                   astar_method_info_of((astar_method)mi)->name);
            after_first = fa.requests;
          }
        }
        CHECKF(fa.requests == after_first, "%s/%s%s: %ld allocations after the first search",
               astar_method_info_of((astar_method)mi)->name, vname[v], smooth ? " smoothed" : "",
               fa.requests - after_first);
        CHECK(astar_workspace_memory(ws) > 0);
        astar_workspace_free(ws);
        CHECK(fa.blocks == 0 && fa.bytes == 0 && fa.osize_mismatches == 0);
        astar_finder_free(f);
      }
    }
  }
  kit_free(&k);
}

/* ---- threads
 * ------------------------------------------------------------------------------------- */

typedef struct job {
  const astar_finder *f;
  const astar_grid *g;
  uint64_t seed;
  uint64_t hash;
  int failures;
} job;

static void *worker(void *arg) {
  job *j = arg;
  astar_workspace *ws = NULL;
  if (astar_workspace_new_empty(&ws, NULL) != ASTAR_OK) {
    j->failures++;
    return NULL;
  }
  static _Thread_local astar_point path[8192];
  rng r;
  rng_seed(&r, j->seed);
  j->hash = ASTAR_PATH_HASH_INIT;
  for (int q = 0; q < 60; q++) {
    const astar_point s = randmap_passable_cell(j->g, &r), t = randmap_passable_cell(j->g, &r);
    astar_path_result res;
    astar_status st;
    if (q % 2) {
      st = astar_finder_find(j->f, ws, s, t, path, 8192, &res);
    } else {
      st = astar_finder_begin(j->f, ws, s, t);
      while (st == ASTAR_OK || st == ASTAR_IN_PROGRESS) {
        st = astar_finder_step(ws, 50, NULL);
        if (st != ASTAR_IN_PROGRESS) break;
      }
      st = astar_finder_finish(ws, path, 8192, &res);
    }
    const astar_point code = {(int32_t)st, (int32_t)res.stats.expanded};
    j->hash = astar_path_hash(&code, 1, j->hash);
    if (st == ASTAR_OK) j->hash = astar_path_hash(path, res.length, j->hash);
  }
  astar_workspace_free(ws);
  return NULL;
}

static void test_threads(void) {
  rng r;
  rng_seed(&r, 2606);
  randmap_spec spec = {80, 70, 0.25, 0, 1, 1};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  kit k;
  if (!g || !kit_init(&k, g, false, false)) return;
  const astar_method methods[5] = {ASTAR_METHOD_ASTAR, ASTAR_METHOD_JPS_PLUS, ASTAR_METHOD_HPA,
                                   ASTAR_METHOD_BIDIRECTIONAL, ASTAR_METHOD_SUBGOAL};
  for (int mi = 0; mi < 5; mi++) {
    astar_finder_config c;
    config_for(&c, &k, methods[mi], V_PLAIN);
    c.smooth = mi == 2;
    astar_finder *f = NULL;
    CHECK(new_finder(&f, &k, k.g, &c) == ASTAR_OK);
    if (!f) continue;
    /* One thread alone first: the expected hash of each seed. */
    job solo[4], jobs[4];
    for (int i = 0; i < 4; i++) {
      solo[i] = (job){f, k.g, 300 + (uint64_t)i, 0, 0};
      worker(&solo[i]);
      jobs[i] = (job){f, k.g, 300 + (uint64_t)i, 0, 0};
    }
    pthread_t th[4];
    for (int i = 0; i < 4; i++) CHECK(pthread_create(&th[i], NULL, worker, &jobs[i]) == 0);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++)
      CHECKF(jobs[i].hash == solo[i].hash && !jobs[i].failures, "%s thread %d",
             astar_method_info_of(methods[mi])->name, i);
    astar_finder_free(f);
  }
  kit_free(&k);
}

/* ---- validations
 * --------------------------------------------------------------------------------- */

/* An open 32 x 32 map with a wall and a gap: every method finds a path. */
static astar_grid *wall_map(void) {
  astar_grid *g = NULL;
  if (astar_grid_new(&g, 32, 32, NULL) != ASTAR_OK) return NULL;
  for (int32_t y = 0; y < 28; y++) astar_grid_set_passable(g, 16, y, false);
  return g;
}

/* Options validations a single query makes through each direct entry point
** (issue 26: at most one; the grid's A*, JPS and JPS+ made two before). */
static void test_direct_validations(void) {
  astar_grid *g = wall_map();
  astar_workspace *ws = NULL;
  CHECK(g && astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  if (!g || !ws) return;
  static astar_point pathbuf[4096];
  astar_options o;
  astar_options_init(&o);
  const astar_point s = P(2, 3), t = P(29, 4);
  astar_result r;
  uint64_t before = astar__test_validations();
  CHECK(astar_find_path(ws, g, &o, s, t, pathbuf, 4096, &r) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "A*: %llu validations",
         (unsigned long long)(astar__test_validations() - before));

  o.algorithm = ASTAR_ALGO_JPS;
  before = astar__test_validations();
  CHECK(astar_find_path(ws, g, &o, s, t, pathbuf, 4096, &r) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "JPS: %llu validations",
         (unsigned long long)(astar__test_validations() - before));
  o.algorithm = ASTAR_ALGO_ASTAR;

  astar_jps_plus *jp = NULL;
  CHECK(astar_jps_plus_new(&jp, g, NULL) == ASTAR_OK);
  before = astar__test_validations();
  CHECK(astar_jps_plus_find_path(ws, jp, g, &o, s, t, pathbuf, 4096, &r) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "JPS+: %llu validations",
         (unsigned long long)(astar__test_validations() - before));
  astar_jps_plus_free(jp);

  astar_anyangle_result ar;
  before = astar__test_validations();
  CHECK(astar_anyangle_find_path(ws, g, &o, ASTAR_ANYANGLE_THETA, s, t, pathbuf, 4096, &ar) ==
        ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "Theta*: %llu validations",
         (unsigned long long)(astar__test_validations() - before));

  astar_grid_space holder;
  astar_space sp;
  CHECK(astar_grid_space_init(&sp, &holder, g, &o) == ASTAR_OK);
  CHECK(astar_workspace_reserve_space(ws, &sp, 0) == ASTAR_OK);
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  astar_engine_result er;
  static astar_node nodes[4096];
  before = astar__test_validations();
  CHECK(astar_space_find_path(ws, &sp, &eo, astar_grid_space_node(&holder, s),
                              astar_grid_space_node(&holder, t), nodes, 4096, &er) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "engine: %llu validations",
         (unsigned long long)(astar__test_validations() - before));

  astar_hpa *hpa = NULL;
  astar_hpa_query *hq = NULL;
  CHECK(astar_hpa_new(&hpa, g, &o, NULL, NULL) == ASTAR_OK);
  CHECK(astar_hpa_query_new(&hq, hpa, NULL) == ASTAR_OK);
  astar_hpa_result hr;
  before = astar__test_validations();
  CHECK(astar_hpa_find_path(hq, hpa, g, s, t, pathbuf, 4096, &hr) == ASTAR_OK);
  CHECKF(astar__test_validations() - before == 0, "HPA*: %llu validations",
         (unsigned long long)(astar__test_validations() - before));
  astar_hpa_query_free(hq);
  astar_hpa_free(hpa);

  /* Invalid options: the statuses and results of before (one validation
  ** up front reports them as the searches did). */
  astar_jps_plus *jp2 = NULL;
  CHECK(astar_jps_plus_new(&jp2, g, NULL) == ASTAR_OK);
  for (int a = 0; a < 3; a++) {
    astar_options_init(&o);
    o.moves = 3;
    o.algorithm = a == 1 ? ASTAR_ALGO_JPS : ASTAR_ALGO_ASTAR;
    memset(&r, 0x55, sizeof r);
    const astar_status st = a == 2
                                ? astar_jps_plus_find_path(ws, jp2, g, &o, s, t, pathbuf, 4096, &r)
                                : astar_find_path(ws, g, &o, s, t, pathbuf, 4096, &r);
    CHECK(st == ASTAR_INVALID_ARGUMENT && r.cause == ASTAR_INVALID_ARGUMENT && r.length == 0 &&
          r.end.x == -1 && r.end.y == -1 && r.cost == 0);
    size_t len;
    CHECK(astar_workspace_path(ws, pathbuf, 4096, &len) == ASTAR_NO_PATH);
  }
  astar_jps_plus_free(jp2);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* A finder validates when it is made, and never in a search. */
static void test_finder_validations(void) {
  astar_grid *g = wall_map();
  kit k;
  if (!g || !kit_init(&k, g, true, true)) return;
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  for (int mi = 0; mi < ASTAR_METHOD_COUNT; mi++) {
    for (int v = 0; v < V_COUNT; v++) {
      for (int smooth = 0; smooth < 2; smooth++) {
        astar_finder_config c;
        if (!config_for(&c, &k, (astar_method)mi, v) || !method_fits((astar_method)mi, k.g))
          continue;
        c.smooth = smooth;
        uint64_t before = astar__test_validations();
        astar_finder *f = NULL;
        if (new_finder(&f, &k, k.g, &c) != ASTAR_OK) continue;
        const uint64_t made = astar__test_validations() - before;
        CHECKF(made >= 1 && made <= 2, "%s: %llu validations to make",
               astar_method_info_of((astar_method)mi)->name, (unsigned long long)made);
        const bool vec = (astar_method_info_of((astar_method)mi)->flags & ASTAR_MF_VEC) != 0;
        const astar_point s = P(2, 3), t = P(29, 4);
        astar_path_result res;
        before = astar__test_validations();
        for (int q = 0; q < 3; q++) {
          const astar_status st = vec ? astar_finder_find_vec(f, ws, s, t, k.va, k.cap, &res)
                                      : astar_finder_find(f, ws, s, t, k.a, k.cap, &res);
          CHECKF(st == ASTAR_OK || st == ASTAR_NO_PATH, "%s/%s: %s",
                 astar_method_info_of((astar_method)mi)->name, vname[v], astar_strerror(st));
          CHECK(astar_finder_begin(f, ws, s, t) == ASTAR_OK);
          while (astar_finder_step(ws, 10, NULL) == ASTAR_IN_PROGRESS) {
          }
          CHECK((vec ? astar_finder_finish_vec(ws, k.va, k.cap, &res)
                     : astar_finder_finish(ws, k.a, k.cap, &res)) == st);
        }
        CHECKF(astar__test_validations() == before, "%s/%s%s: %llu validations in 6 searches",
               astar_method_info_of((astar_method)mi)->name, vname[v], smooth ? " smoothed" : "",
               (unsigned long long)(astar__test_validations() - before));
        astar_finder_free(f);
      }
    }
  }
  astar_workspace_free(ws);
  kit_free(&k);
}

/* ---- allocation failures
 * ------------------------------------------------------------------------- */

static void test_memory(void) {
  astar_grid *g = wall_map();
  kit k;
  if (!g || !kit_init(&k, g, false, false)) return;
  const astar_point s = P(2, 3), t = P(29, 4);
  /* astar_finder_new: every allocation failing in turn. */
  astar_clearance *cl = NULL;
  CHECK(astar_clearance_new(&cl, k.g, NULL, NULL, 0, 4, NULL) == ASTAR_OK);
  for (int kind = 0; kind < 2; kind++) {
    astar_finder_config c;
    astar_finder_config_init(&c);
    if (kind) {
      c.unit_size = 2;
      c.clearance = cl;
    }
    bool made = false;
    for (long n = 1; n < 50 && !made; n++) {
      failalloc fa;
      failalloc_init(&fa);
      failalloc_fail_in(&fa, n);
      const astar_allocator a = failalloc_allocator(&fa);
      astar_finder *f = NULL;
      const astar_status st = astar_finder_new(&f, k.g, &c, &a);
      if (st == ASTAR_OK) {
        made = true;
        astar_finder_free(f);
      } else {
        CHECK(st == ASTAR_NO_MEMORY && !f);
      }
      CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
    }
    CHECK(made);
  }
  /* A workspace's first-use growth, for methods with state of their own. */
  const astar_method methods[] = {ASTAR_METHOD_ASTAR, ASTAR_METHOD_HPA,
                                  ASTAR_METHOD_ANYA,  ASTAR_METHOD_BIDIRECTIONAL,
                                  ASTAR_METHOD_THETA, ASTAR_METHOD_SUBGOAL};
  for (size_t mi = 0; mi < sizeof methods / sizeof methods[0]; mi++) {
    astar_finder_config c;
    config_for(&c, &k, methods[mi], V_PLAIN);
    c.smooth = methods[mi] == ASTAR_METHOD_THETA;
    astar_finder *f = NULL;
    CHECK(new_finder(&f, &k, k.g, &c) == ASTAR_OK);
    const bool vec = methods[mi] == ASTAR_METHOD_ANYA;
    bool grown = false;
    for (long n = 1; n < 60 && f && !grown; n++) {
      failalloc fa;
      failalloc_init(&fa);
      const astar_allocator a = failalloc_allocator(&fa);
      astar_workspace *ws = NULL;
      CHECK(astar_workspace_new_empty(&ws, &a) == ASTAR_OK);
      failalloc_fail_in(&fa, n);
      astar_path_result res;
      astar_status st = vec ? astar_finder_find_vec(f, ws, s, t, k.va, k.cap, &res)
                            : astar_finder_find(f, ws, s, t, k.a, k.cap, &res);
      if (st == ASTAR_OK) {
        grown = true;
      } else {
        CHECKF(st == ASTAR_NO_MEMORY, "%s: %s", astar_method_info_of(methods[mi])->name,
               astar_strerror(st));
        /* still usable: the same search without failures */
        fa.fail_at = 0;
        st = vec ? astar_finder_find_vec(f, ws, s, t, k.va, k.cap, &res)
                 : astar_finder_find(f, ws, s, t, k.a, k.cap, &res);
        CHECK(st == ASTAR_OK);
      }
      astar_workspace_free(ws);
      CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
    }
    CHECK(grown);
    astar_finder_free(f);
  }
  astar_clearance_free(cl);
  kit_free(&k);
}

/* ---- subgoal finders ---------------------------------------------------------------------- */

/* astar_finder_new_subgoal: what it refuses and why, graphs of other grids
** and rules, staleness, the expansion limit. */
static void test_subgoal(void) {
  rng r;
  rng_seed(&r, 2607);
  randmap_spec spec = {40, 34, 0.2, 0, 1, 1};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  kit k;
  if (!g || !kit_init(&k, g, false, false)) return;
  CHECK(k.sg != NULL);
  if (!k.sg) {
    kit_free(&k);
    return;
  }
  CHECK(astar_grid_track_changes(k.g, 16) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_finder_config c;
  astar_finder *f = (astar_finder *)1;

  /* astar_finder_new has no graph to search. */
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_SUBGOAL;
  const char *why = astar_finder_unsupported_reason(k.g, NULL, &c);
  CHECK(why && strstr(why, "astar_finder_new_subgoal"));
  CHECK(astar_finder_new(&f, k.g, &c, NULL) == ASTAR_UNSUPPORTED && !f);

  /* cfg NULL, or another method named: a subgoal finder all the same. */
  CHECK(astar_finder_subgoal_unsupported_reason(k.g, NULL) == NULL);
  CHECK(astar_finder_new_subgoal(&f, k.g, k.sg, NULL, NULL) == ASTAR_OK && f);
  CHECK(astar_finder_subgoal(f) == k.sg && astar_finder_grid(f) == k.g);
  CHECK(astar_finder_config_of(f)->method == ASTAR_METHOD_SUBGOAL);
  astar_finder_free(f);
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_JPS;
  CHECK(astar_finder_new_subgoal(&f, k.g, k.sg, &c, NULL) == ASTAR_OK && f);
  CHECK(astar_finder_config_of(f)->method == ASTAR_METHOD_SUBGOAL);
  astar_finder_free(f);
  CHECK(astar_finder_subgoal(NULL) == NULL);

  /* Refusals, each with its reason and no finder. */
  astar_clearance *cl = NULL;
  CHECK(astar_clearance_new(&cl, k.g, NULL, NULL, 0, 4, NULL) == ASTAR_OK);
  for (int i = 0; i < 9; i++) {
    astar_finder_config_init(&c);
    switch (i) {
    case 0:
      c.smooth = true;
      break;
    case 1:
      c.jps_plus = k.jps_plus;
      break;
    case 2:
      c.landmarks = k.landmarks;
      break;
    case 3:
      c.unit_size = 2;
      c.clearance = cl;
      break;
    case 4:
      c.clearance = cl;
      break;
    case 5:
      c.options.partial = true;
      break;
    case 6:
      c.options.turn_penalty = 1.0;
      break;
    case 7:
      c.options.observer = (astar_observer_fn)1;
      break;
    default:
      c.options.corner = ASTAR_CORNER_ALWAYS; /* the graph's rules exclude it */
      break;
    }
    why = astar_finder_subgoal_unsupported_reason(k.g, &c);
    f = (astar_finder *)1;
    const astar_status st = astar_finder_new_subgoal(&f, k.g, k.sg, &c, NULL);
    CHECKF(why && st == ASTAR_UNSUPPORTED && !f, "refusal %d: %s, reason %s", i, astar_strerror(st),
           why ? why : "(none)");
  }
  astar_clearance_free(cl);
  /* Terrain: the graph's rules. */
  astar_grid *tg = NULL;
  CHECK(astar_grid_clone(&tg, k.g, NULL) == ASTAR_OK);
  CHECK(tg && astar_grid_set_terrain(tg, 1, 1, 2.0f) == ASTAR_OK);
  CHECK(astar_finder_subgoal_unsupported_reason(tg, NULL) != NULL);
  /* Bad arguments. */
  CHECK(astar_finder_new_subgoal(&f, NULL, k.sg, NULL, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  CHECK(astar_finder_new_subgoal(&f, k.g, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT && !f);
  CHECK(astar_finder_new_subgoal(NULL, k.g, k.sg, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_subgoal_unsupported_reason(NULL, NULL) != NULL);
  astar_finder_config_init(&c);
  c.options.moves = 5;
  CHECK(astar_finder_new_subgoal(&f, k.g, k.sg, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);

  /* A graph of another grid (the same cells: a clone), other costs: mismatch. */
  astar_grid *same = NULL;
  CHECK(astar_grid_clone(&same, k.g, NULL) == ASTAR_OK);
  CHECK(same && astar_finder_new_subgoal(&f, same, k.sg, NULL, NULL) == ASTAR_MISMATCH && !f);
  astar_finder_config_init(&c);
  c.options.diagonal_cost = 1.5;
  CHECK(astar_finder_new_subgoal(&f, k.g, k.sg, &c, NULL) == ASTAR_MISMATCH && !f);

  /* The expansion limit: the graph's vertices expanded. */
  astar_point s = P(0, 0), t = P(0, 0);
  astar_path_result res, lim;
  astar_finder *fl = NULL, *fp = NULL;
  CHECK(astar_finder_new_subgoal(&fp, k.g, k.sg, NULL, NULL) == ASTAR_OK);
  for (int q = 0; q < 200 && fp; q++) {
    s = randmap_passable_cell(k.g, &r), t = randmap_passable_cell(k.g, &r);
    if (astar_finder_find(fp, ws, s, t, k.a, k.cap, &res) == ASTAR_OK && res.stats.expanded > 3)
      break;
  }
  CHECK(res.status == ASTAR_OK && res.stats.expanded > 3);
  astar_finder_config_init(&c);
  c.options.max_expansions = 2;
  CHECK(astar_finder_new_subgoal(&fl, k.g, k.sg, &c, NULL) == ASTAR_OK);
  if (fl) CHECK(astar_finder_find(fl, ws, s, t, k.a, k.cap, &lim) == ASTAR_LIMIT_REACHED);
  c.options.max_expansions = res.stats.expanded;
  astar_finder_free(fl);
  fl = NULL;
  CHECK(astar_finder_new_subgoal(&fl, k.g, k.sg, &c, NULL) == ASTAR_OK);
  if (fl) CHECK(astar_finder_find(fl, ws, s, t, k.a, k.cap, &lim) == ASTAR_OK);
  CHECK(lim.cost == res.cost && lim.length == res.length);
  /* A short buffer: the length all the same. */
  CHECK(astar_finder_find(fp, ws, s, t, k.a, 1, &lim) == ASTAR_BUFFER_TOO_SMALL &&
        lim.length == res.length);

  /* An edit: stale (search, sliced search, refresh) until a new graph. */
  astar_point c0 = P(-1, -1);
  for (int i = 0; i < 100; i++) {
    const astar_point cc = randmap_passable_cell(k.g, &r);
    if ((cc.x != s.x || cc.y != s.y) && (cc.x != t.x || cc.y != t.y)) {
      c0 = cc;
      break;
    }
  }
  CHECK(c0.x >= 0 && astar_grid_set_passable(k.g, c0.x, c0.y, false) == ASTAR_OK);
  CHECK(astar_finder_find(fp, ws, s, t, k.a, k.cap, &res) == ASTAR_STALE && res.length == 0);
  CHECK(astar_finder_begin(fp, ws, s, t) == ASTAR_STALE);
  CHECK(astar_finder_finish(ws, k.a, k.cap, &res) == ASTAR_STALE);
  CHECK(astar_finder_refresh(fp) == ASTAR_STALE);
  CHECK(astar_finder_new_subgoal(&f, k.g, k.sg, NULL, NULL) == ASTAR_STALE && !f);
  astar_subgoal_free(k.sg);
  k.sg = NULL;
  CHECK(astar_subgoal_build(&k.sg, k.g, NULL, NULL) == ASTAR_OK);
  astar_finder_free(fp);
  fp = NULL;
  CHECK(astar_finder_new_subgoal(&fp, k.g, k.sg, NULL, NULL) == ASTAR_OK);
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_SUBGOAL;
  for (int q = 0; q < 30 && fp; q++) {
    s = randmap_passable_cell(k.g, &r), t = randmap_passable_cell(k.g, &r);
    compare_query(&k, fp, &c, ws, s, t, k.cap, "subgoal rebuilt", V_PLAIN);
  }
  astar_finder_free(fp);
  astar_finder_free(fl);
  astar_grid_free(same);
  astar_grid_free(tg);
  astar_workspace_free(ws);
  kit_free(&k);
}

int main(void) {
  RUN(test_table);
  RUN(test_direct_validations);
  RUN(test_finder_validations);
  RUN(test_random_maps);
  RUN(test_movingai);
  RUN(test_sliced);
  RUN(test_unsupported);
  RUN(test_stale);
  RUN(test_units);
  RUN(test_growth);
  RUN(test_threads);
  RUN(test_memory);
  RUN(test_subgoal);
  printf("%llu queries compared; with a path, per method and variant:\n",
         (unsigned long long)checked_queries);
  for (int m = 0; m < ASTAR_METHOD_COUNT; m++) {
    printf("  %-12s", astar_method_info_of((astar_method)m)->name);
    for (int v = 0; v < V_COUNT; v++)
      printf(" %s %llu", vname[v], (unsigned long long)with_path[m][v]);
    putchar('\n');
  }
  return check_summary();
}
