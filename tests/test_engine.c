/*
** test_engine.c -- the search engine over spaces (astar/engine.h,
** astar/space.h, astar/grid_space.h): every method against a plain
** Dijkstra on seeded random directed graphs (zero-cost arcs, one-way arcs,
** unreachable parts) and on random grids as spaces; every path checked arc
** by arc; sliced == one-shot for any budgets; partial paths, several goals,
** limits, deadlines, observer events; a faulty space is refused, never
** followed out of bounds; allocation failure in the reservation.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

/* ---- a random directed graph, as a user would write a space ----------------- */

#define MAXN 400
#define GRIDCAP ((size_t)64 * 64)
#define MAXDEG 6

/* The methods tested here; the variants of Patel 4 after them have
** test_variants.c. */
#define BASIC_METHODS (ASTAR_METHOD_BIDIRECTIONAL + 1)

typedef struct rgraph {
  uint32_t n;
  uint32_t deg[MAXN];
  astar_arc out[MAXN][MAXDEG];
  uint32_t indeg[MAXN];
  astar_arc in[MAXN][MAXN > 64 ? 64 : MAXN]; /* predecessors (capped fan-in) */
  double x[MAXN], y[MAXN];                   /* positions: Euclidean heuristic */
  double hscale;                             /* admissible scale of the distance */
  bool blocked[MAXN];
  int bad; /* 1: successors return an out-of-range node; 2: a NaN cost */
} rgraph;

static size_t rg_succ(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const rgraph *g = self;
  size_t n = g->deg[v] < cap ? g->deg[v] : cap;
  for (size_t i = 0; i < n; i++) arcs[i] = g->out[v][i];
  if (g->bad == 1 && n) arcs[0].node = g->n + 5;
  if (g->bad == 2 && n) arcs[0].cost = NAN;
  return n;
}

static size_t rg_pred(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const rgraph *g = self;
  size_t n = g->indeg[v] < cap ? g->indeg[v] : cap;
  for (size_t i = 0; i < n; i++) arcs[i] = g->in[v][i];
  return n;
}

static double rg_h(const void *self, astar_node a, astar_node b) {
  const rgraph *g = self;
  const double dx = g->x[a] - g->x[b], dy = g->y[a] - g->y[b];
  return g->hscale * sqrt(dx * dx + dy * dy);
}

static bool rg_usable(const void *self, astar_node v) {
  const rgraph *g = self;
  return !g->blocked[v];
}

static const astar_space_ops rg_ops = {rg_succ, rg_pred, rg_h, rg_usable, NULL, NULL, 0};

/* Arc costs are at least the Euclidean distance times a factor >= 1 (or 0
** for a few free arcs), so hscale = 1 is admissible and consistent unless
** free arcs exist (then hscale 0 keeps it consistent). */
static void rg_make(rgraph *g, rng *r, uint32_t n, bool free_arcs) {
  memset(g, 0, sizeof *g);
  g->n = n;
  for (uint32_t v = 0; v < n; v++) {
    g->x[v] = rng_unit(r) * 100.0;
    g->y[v] = rng_unit(r) * 100.0;
    g->blocked[v] = rng_range(r, 0, 19) == 0;
  }
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t deg = (uint32_t)rng_range(r, 0, MAXDEG);
    for (uint32_t k = 0; k < deg; k++) {
      const astar_node u = (astar_node)rng_range(r, 0, (int32_t)n - 1);
      if (u == v || g->indeg[u] == 64) continue;
      const double dx = g->x[v] - g->x[u], dy = g->y[v] - g->y[u];
      double c = sqrt(dx * dx + dy * dy) * (1.0 + rng_unit(r));
      if (free_arcs && rng_range(r, 0, 9) == 0) c = 0.0;
      c = floor(c * 64.0) / 64.0; /* exact sums in any order */
      const astar_arc a = {u, c};
      g->out[v][g->deg[v]++] = a;
      const astar_arc b = {v, c};
      g->in[u][g->indeg[u]++] = b;
    }
  }
  g->hscale = free_arcs ? 0.0 : 1.0;
}

static astar_space rg_space(const rgraph *g) {
  astar_space s = {&rg_ops, g, g->n, 64, ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT};
  return s;
}

/* Plain Dijkstra over the graph: the ground truth. -1 when unreachable. */
static double rg_dijkstra(const rgraph *g, astar_node s, astar_node t) {
  static double dist[MAXN];
  static bool done[MAXN];
  for (uint32_t v = 0; v < g->n; v++) dist[v] = INFINITY, done[v] = false;
  dist[s] = 0;
  for (;;) {
    uint32_t u = MAXN;
    for (uint32_t v = 0; v < g->n; v++)
      if (!done[v] && dist[v] < INFINITY && (u == MAXN || dist[v] < dist[u])) u = v;
    if (u == MAXN) return -1;
    if (u == t) return dist[u];
    done[u] = true;
    for (uint32_t i = 0; i < g->deg[u]; i++) {
      const astar_arc *a = &g->out[u][i];
      if (dist[u] + a->cost < dist[a->node]) dist[a->node] = dist[u] + a->cost;
    }
  }
}

/* The path is a walk of arcs from start to goal whose costs add up to the
** claimed cost. */
static bool rg_valid(const rgraph *g, const astar_node *p, size_t n, astar_node s, astar_node t,
                     double claimed) {
  if (n == 0 || p[0] != s || p[n - 1] != t) return false;
  double sum = 0;
  for (size_t i = 1; i < n; i++) {
    double best = INFINITY;
    for (uint32_t k = 0; k < g->deg[p[i - 1]]; k++)
      if (g->out[p[i - 1]][k].node == p[i] && g->out[p[i - 1]][k].cost < best)
        best = g->out[p[i - 1]][k].cost;
    if (best == INFINITY) return false;
    sum += best;
  }
  return fabs(sum - claimed) <= 1e-9 * (1 + sum);
}

static astar_workspace *ws_for(const astar_space *s) {
  astar_workspace *ws = NULL;
  if (astar_workspace_new_empty(&ws, NULL) != ASTAR_OK) return NULL;
  /* An empty workspace searches nothing until reserved. */
  astar_node p[4];
  if (astar_space_find_path(ws, s, NULL, 0, 0, p, 4, NULL) != ASTAR_CAPACITY) {
    astar_workspace_free(ws);
    return NULL;
  }
  if (astar_workspace_reserve_space(ws, s, ASTAR_RESERVE_BACKWARD) != ASTAR_OK) {
    astar_workspace_free(ws);
    ws = NULL;
  }
  return ws;
}

/* Every method on random graphs: optimal ones equal Dijkstra, weighted
** within its bound, greedy a valid path whenever one exists. */
static void test_random_graphs(void) {
  static rgraph g;
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 9001);
  int compared = 0, unreachable = 0;
  for (int m = 0; m < 150; m++) {
    rg_make(&g, &r, (uint32_t)rng_range(&r, 2, MAXN), m % 3 == 0);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    CHECK(ws != NULL);
    if (!ws) return;
    for (int q = 0; q < 12; q++) {
      const astar_node s = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      const astar_node t = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      const double ref = (g.blocked[s] || g.blocked[t]) ? -2 : rg_dijkstra(&g, s, t);
      for (int method = 0; method < BASIC_METHODS; method++) {
        astar_engine_options o;
        astar_engine_options_init(&o);
        o.method = (astar_method)method;
        o.tie = rng_range(&r, 0, 1) ? ASTAR_TIE_LARGER_G : ASTAR_TIE_NEWEST;
        if (method == ASTAR_METHOD_ASTAR && rng_range(&r, 0, 2) == 0) o.weight = 1.5;
        astar_engine_result res;
        const astar_status st = astar_space_find_path(ws, &sp, &o, s, t, path, MAXN, &res);
        if (ref == -2) {
          CHECK(st == (g.blocked[s] ? ASTAR_START_BLOCKED : ASTAR_GOAL_BLOCKED));
          continue;
        }
        if (ref < 0) {
          CHECKF(st == ASTAR_NO_PATH, "method %d: status %d for no path", method, (int)st);
          unreachable += method == 0;
          continue;
        }
        CHECKF(st == ASTAR_OK, "method %d: status %d (map %d query %d)", method, (int)st, m, q);
        if (st != ASTAR_OK) continue;
        CHECKF(rg_valid(&g, path, res.length, s, t, res.cost), "method %d: invalid path", method);
        const double bound = method == ASTAR_METHOD_GREEDY ? INFINITY : o.weight * ref;
        CHECKF(res.cost <= bound * (1 + 1e-9) + 1e-9,
               "method %s: cost %.9g, optimal %.9g (map %d query %d)", astar_method_name(o.method),
               res.cost, ref, m, q);
        if (method != ASTAR_METHOD_GREEDY && o.weight == 1.0)
          CHECKF(fabs(res.cost - ref) <= 1e-9 * (1 + ref), "method %s: %.9g vs %.9g",
                 astar_method_name(o.method), res.cost, ref);
        CHECK(res.end == t && res.cause == ASTAR_OK);
        compared += method == 0;
      }
    }
    astar_workspace_free(ws);
  }
  CHECK(compared > 700 && unreachable > 50);
}

/* The grid as a space: every method against the grid reference Dijkstra
** for every movement rule and terrain; bidirectional and A* equal to the
** grid's own A*; paths validated by the grid validator. */
static void test_grid_space(void) {
  rng r;
  rng_seed(&r, 4242);
  static astar_node path[64 * 64];
  static astar_point cells[64 * 64], gpath[64 * 64];
  int compared = 0;
  for (int m = 0; m < 120; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_options o;
    astar_options_init(&o);
    o.moves = rng_range(&r, 0, 3) ? 8 : 4;
    o.corner = (astar_corner)rng_range(&r, 0, 3);
    if (rng_range(&r, 0, 2) == 0) o.straight_cost = 10, o.diagonal_cost = 14;
    astar_grid_space holder;
    astar_space sp;
    CHECK(astar_grid_space_init(&sp, &holder, g, &o) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_workspace_reserve_space(ws, &sp, ASTAR_RESERVE_BACKWARD) == ASTAR_OK);
    for (int q = 0; q < 6; q++) {
      const astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
      if (a.x < 0) break;
      const double ref = ref_dijkstra(g, &o, a, b);
      astar_result gr;
      const astar_status gst = astar_find_path(ws, g, &o, a, b, gpath, GRIDCAP, &gr);
      for (int method = 0; method < BASIC_METHODS; method++) {
        astar_engine_options eo;
        astar_engine_options_init(&eo);
        eo.method = (astar_method)method;
        astar_engine_result res;
        const astar_status st =
            astar_space_find_path(ws, &sp, &eo, astar_grid_space_node(&holder, a),
                                  astar_grid_space_node(&holder, b), path, GRIDCAP, &res);
        if (ref < 0) {
          CHECK(st == ASTAR_NO_PATH && gst == ASTAR_NO_PATH);
          continue;
        }
        CHECKF(st == ASTAR_OK, "grid map %d method %d: status %d", m, method, (int)st);
        if (st != ASTAR_OK) continue;
        for (size_t i = 0; i < res.length; i++) cells[i] = astar_grid_space_cell(&holder, path[i]);
        char err[200];
        CHECKF(validate_path(g, &o, a, b, cells, res.length, res.cost, err, sizeof err),
               "method %d: %s", method, err);
        if (method != ASTAR_METHOD_GREEDY) {
          CHECKF(fabs(res.cost - ref) <= 1e-9 * (1 + ref), "grid method %s: %.9g vs %.9g",
                 astar_method_name(eo.method), res.cost, ref);
          compared++;
        }
        if (method == ASTAR_METHOD_ASTAR && gst == ASTAR_OK) {
          /* Same heuristic, same tie order: the same expansions as the
          ** grid's own A* (whose node order is its padded index, which
          ** orders like the node id). */
          CHECKF(res.stats.expanded == gr.stats.expanded, "expanded %llu vs grid %llu",
                 (unsigned long long)res.stats.expanded, (unsigned long long)gr.stats.expanded);
        }
      }
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(compared > 1000);
}

/* ---- abilities: the engine learns what a space can do from its ops ---------- */

/* A program's wrapper around the grid space's functions: the grid space's
** own self, its own ops that call the grid's and count the arc calls. */
static const astar_space_ops *wrapped;
static unsigned long wrap_arc_calls;
static size_t wrap_succ(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  wrap_arc_calls++;
  return wrapped->successors(self, v, arcs, cap);
}
static size_t wrap_pred(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  wrap_arc_calls++;
  return wrapped->predecessors(self, v, arcs, cap);
}
static double wrap_h(const void *self, astar_node a, astar_node b) {
  return wrapped->heuristic(self, a, b);
}
static bool wrap_usable(const void *self, astar_node v) {
  return wrapped->usable(self, v);
}

/* The grid space declares its abilities; a wrapper with ops of its own
** (another address) that declares none gets the checked slow path, one
** that declares the grid space's gets the fast path (no arc call): the
** engine decides from the abilities, not from the ops' address. All three
** find the same path with the same expansions, A* and bidirectional. A
** graph's ops declare checked arcs. */
static void test_space_abilities(void) {
  rng r;
  rng_seed(&r, 8080);
  randmap_spec spec = {48, 40, 0.3, 0, 0, 0};
  astar_grid *g;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_grid_space holder;
  astar_space grid_sp;
  CHECK(astar_grid_space_init(&grid_sp, &holder, g, NULL) == ASTAR_OK);
  CHECK(grid_sp.ops->abilities == (ASTAR_ABILITY_GRID_SPACE | ASTAR_ABILITY_CHECKED_ARCS));
  wrapped = grid_sp.ops;
  const astar_space_ops plain = {wrap_succ, wrap_pred, wrap_h, wrap_usable, NULL, NULL, 0};
  astar_space_ops claimed = plain;
  claimed.abilities = ASTAR_ABILITY_GRID_SPACE | ASTAR_ABILITY_CHECKED_ARCS;
  astar_space plain_sp = grid_sp, claimed_sp = grid_sp;
  plain_sp.ops = &plain;
  claimed_sp.ops = &claimed;
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  CHECK(astar_workspace_reserve_space(ws, &grid_sp, ASTAR_RESERVE_BACKWARD) == ASTAR_OK);
  static astar_node p0[GRIDCAP], p1[GRIDCAP], p2[GRIDCAP];
  int found = 0;
  for (int q = 0; q < 20; q++) {
    const astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
    const astar_node s = astar_grid_space_node(&holder, a), t = astar_grid_space_node(&holder, b);
    for (int m = 0; m < 2; m++) {
      astar_engine_options eo;
      astar_engine_options_init(&eo);
      eo.method = m ? ASTAR_METHOD_BIDIRECTIONAL : ASTAR_METHOD_ASTAR;
      astar_engine_result r0, r1, r2;
      const astar_status s0 = astar_space_find_path(ws, &grid_sp, &eo, s, t, p0, GRIDCAP, &r0);
      wrap_arc_calls = 0;
      const astar_status s1 = astar_space_find_path(ws, &plain_sp, &eo, s, t, p1, GRIDCAP, &r1);
      const unsigned long plain_calls = wrap_arc_calls;
      wrap_arc_calls = 0;
      const astar_status s2 = astar_space_find_path(ws, &claimed_sp, &eo, s, t, p2, GRIDCAP, &r2);
      CHECKF(s0 == s1 && s0 == s2, "query %d method %d: status %d, %d, %d", q, m, (int)s0, (int)s1,
             (int)s2);
      CHECKF(r0.stats.expanded == 0 || plain_calls > 0,
             "query %d method %d: a wrapper without abilities took the fast path", q, m);
      CHECKF(wrap_arc_calls == 0,
             "query %d method %d: a wrapper with the grid space's abilities called its arcs "
             "%lu times (the slow path)",
             q, m, wrap_arc_calls);
      if (s0 != ASTAR_OK || s1 != ASTAR_OK || s2 != ASTAR_OK) continue;
      found++;
      CHECK(r0.length == r1.length && r0.length == r2.length);
      CHECK(r0.cost == r1.cost && r0.cost == r2.cost);
      CHECK(memcmp(&r0.stats, &r1.stats, sizeof r0.stats) == 0);
      CHECK(memcmp(&r0.stats, &r2.stats, sizeof r0.stats) == 0);
      CHECK(memcmp(p0, p1, r0.length * sizeof p0[0]) == 0);
      CHECK(memcmp(p0, p2, r0.length * sizeof p0[0]) == 0);
    }
  }
  CHECK(found > 20);
  astar_workspace_free(ws);
  astar_grid_free(g);
  const astar_graph_edge edges[] = {{0, 1, 1.0}, {1, 2, 2.0}};
  astar_graph *gr;
  astar_space gsp;
  CHECK(astar_graph_new(&gr, 3, edges, 2, 0, NULL) == ASTAR_OK);
  CHECK(astar_graph_space(gr, &gsp) == ASTAR_OK);
  CHECK(gsp.ops->abilities == ASTAR_ABILITY_CHECKED_ARCS);
  astar_graph_free(gr);
}

/* Sliced search with random budgets equals the one-shot search, bit for
** bit, for every method; partial paths, limits and deadlines. */
static int stop_calls;
static bool stop_after_3(void *ctx) {
  (void)ctx;
  return ++stop_calls >= 3;
}

static void test_sliced_partial_limits(void) {
  static rgraph g;
  static astar_node p1[MAXN], p2[MAXN];
  rng r;
  rng_seed(&r, 77);
  for (int m = 0; m < 60; m++) {
    rg_make(&g, &r, 300, false);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    if (!ws) return;
    for (int q = 0; q < 6; q++) {
      const astar_node s = (astar_node)rng_range(&r, 0, 299), t = (astar_node)rng_range(&r, 0, 299);
      astar_engine_options o;
      astar_engine_options_init(&o);
      o.method = (astar_method)rng_range(&r, 0, BASIC_METHODS - 1);
      astar_engine_result a, b;
      const astar_status st1 = astar_space_find_path(ws, &sp, &o, s, t, p1, MAXN, &a);
      astar_status st = astar_space_search_begin(ws, &sp, &o, s, t);
      astar_status st2 = st;
      if (st == ASTAR_OK) {
        uint64_t got;
        while (astar_space_search_step(ws, (uint64_t)rng_range(&r, 1, 7), &got) ==
               ASTAR_IN_PROGRESS) {
        }
        st2 = astar_space_search_finish(ws, p2, MAXN, &b);
      } else {
        memset(&b, 0, sizeof b);
      }
      CHECKF(st1 == st2, "sliced %d vs one-shot %d", (int)st2, (int)st1);
      if (st1 == ASTAR_OK && st2 == ASTAR_OK) {
        CHECK(a.length == b.length && a.cost == b.cost);
        CHECK(a.stats.expanded == b.stats.expanded && a.stats.generated == b.stats.generated);
        CHECK(memcmp(p1, p2, a.length * sizeof *p1) == 0);
      }
      /* Partial: with a limit of 3 expansions the path ends at the expanded
      ** node nearest the goal by h. */
      o.method = ASTAR_METHOD_ASTAR;
      o.max_expansions = 3;
      o.partial = true;
      const astar_status sp3 = astar_space_find_path(ws, &sp, &o, s, t, p1, MAXN, &a);
      if (sp3 == ASTAR_PARTIAL) {
        CHECKF((a.cause == ASTAR_LIMIT_REACHED && a.stats.expanded == 3) ||
                   (a.cause == ASTAR_NO_PATH && a.stats.expanded <= 3),
               "cause %d expanded %llu", (int)a.cause, (unsigned long long)a.stats.expanded);
        CHECK(p1[0] == s && p1[a.length - 1] == a.end &&
              rg_valid(&g, p1, a.length, s, a.end, a.cost));
      } else {
        CHECK(sp3 == ASTAR_OK || sp3 == ASTAR_START_BLOCKED || sp3 == ASTAR_GOAL_BLOCKED ||
              (sp3 == ASTAR_PARTIAL));
      }
      o.partial = false;
      const astar_status lim = astar_space_find_path(ws, &sp, &o, s, t, p1, MAXN, &a);
      CHECK(lim == ASTAR_OK || lim == ASTAR_LIMIT_REACHED || lim == ASTAR_NO_PATH ||
            lim == ASTAR_START_BLOCKED || lim == ASTAR_GOAL_BLOCKED);
      if (lim == ASTAR_LIMIT_REACHED) CHECK(a.stats.expanded == 3 && a.length == 0);
      o.max_expansions = 0;
      o.stop_fn = stop_after_3;
      o.stop_interval = 1;
      stop_calls = 0;
      const astar_status sst = astar_space_find_path(ws, &sp, &o, s, t, p1, MAXN, &a);
      if (sst == ASTAR_STOPPED) CHECK(stop_calls == 3 && a.stats.expanded == 3);
    }
    astar_workspace_free(ws);
  }
}

/* Several goals: the cost is the least over the goals (admissible h). */
static void test_multi_goal(void) {
  static rgraph g;
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 5);
  int compared = 0;
  for (int m = 0; m < 60; m++) {
    rg_make(&g, &r, 250, m % 2 == 0);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    if (!ws) return;
    for (int q = 0; q < 5; q++) {
      astar_node goals[4];
      const astar_node s = (astar_node)rng_range(&r, 0, 249);
      double best = -1;
      for (int k = 0; k < 4; k++) {
        goals[k] = (astar_node)rng_range(&r, 0, 249);
        const double d = g.blocked[goals[k]] || g.blocked[s] ? -1 : rg_dijkstra(&g, s, goals[k]);
        if (d >= 0 && (best < 0 || d < best)) best = d;
      }
      astar_engine_result res;
      const astar_status st =
          astar_space_find_path_multi(ws, &sp, NULL, s, goals, 4, path, MAXN, &res);
      if (g.blocked[s]) {
        CHECK(st == ASTAR_START_BLOCKED);
        continue;
      }
      if (best < 0) {
        CHECK(st == ASTAR_NO_PATH || st == ASTAR_GOAL_BLOCKED);
        continue;
      }
      CHECKF(st == ASTAR_OK && fabs(res.cost - best) <= 1e-9 * (1 + best), "multi: %d %.9g %.9g",
             (int)st, res.cost, best);
      compared++;
      astar_engine_options o;
      astar_engine_options_init(&o);
      o.method = ASTAR_METHOD_BIDIRECTIONAL;
      CHECK(astar_space_find_path_multi(ws, &sp, &o, s, goals, 4, path, MAXN, &res) ==
            ASTAR_UNSUPPORTED);
    }
    astar_workspace_free(ws);
  }
  CHECK(compared > 100);
}

/* Observer: events in order, every expanded node pushed before, the goal
** event's g equal to the result cost; counts equal the statistics. */
typedef struct tally {
  uint64_t push, expand, improve, reopen, goal;
  double goal_g;
  bool order_ok;
  uint8_t seen[MAXN];
} tally;

static void count_event(void *ctx, const astar_engine_event *e) {
  tally *t = ctx;
  switch (e->type) {
  case ASTAR_EVENT_PUSH:
    t->push++;
    t->seen[e->node] |= (uint8_t)(1u << e->side);
    break;
  case ASTAR_EVENT_IMPROVE:
    t->improve++;
    break;
  case ASTAR_EVENT_REOPEN:
    t->reopen++;
    break;
  case ASTAR_EVENT_EXPAND:
    t->expand++;
    if (!(t->seen[e->node] & (1u << e->side))) t->order_ok = false;
    break;
  case ASTAR_EVENT_GOAL:
    t->goal++;
    t->goal_g = e->g; /* bidirectional: the cost of the path through the meeting node */
    break;
  case ASTAR_EVENT_MEET: /* bidirectional: a cheaper meeting */
    break;
  default:
    t->order_ok = false;
  }
}

static void test_observer(void) {
  static rgraph g;
  static astar_node path[MAXN];
  static tally t;
  rng r;
  rng_seed(&r, 31);
  int checked = 0;
  for (int m = 0; m < 40; m++) {
    rg_make(&g, &r, 200, false);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    if (!ws) return;
    for (int method = 0; method < BASIC_METHODS; method++) {
      const astar_node s = (astar_node)rng_range(&r, 0, 199), d = (astar_node)rng_range(&r, 0, 199);
      memset(&t, 0, sizeof t);
      t.order_ok = true;
      astar_engine_options o;
      astar_engine_options_init(&o);
      o.method = (astar_method)method;
      o.observer = count_event;
      o.observer_ctx = &t;
      astar_engine_result res, plain;
      const astar_status st = astar_space_find_path(ws, &sp, &o, s, d, path, MAXN, &res);
      o.observer = NULL;
      const astar_status st2 = astar_space_find_path(ws, &sp, &o, s, d, path, MAXN, &plain);
      CHECK(st == st2);
      if (st != ASTAR_OK || s == d) continue;
      CHECK(t.order_ok && t.goal == 1);
      CHECKF(fabs(t.goal_g - res.cost) <= 1e-9 * (1 + res.cost), "goal g %.9g cost %.9g", t.goal_g,
             res.cost);
      CHECK(t.expand + (method == ASTAR_METHOD_BIDIRECTIONAL ? 0 : 1) == res.stats.expanded);
      CHECK(t.push + t.improve + t.reopen == res.stats.generated);
      CHECK(res.stats.expanded == plain.stats.expanded && res.cost == plain.cost);
      checked++;
    }
    astar_workspace_free(ws);
  }
  CHECK(checked > 60);
}

/* A faulty space ends the search with ASTAR_INVALID_ARGUMENT; argument
** checks; capacity; a space without predecessors. */
static void test_faults_and_arguments(void) {
  static rgraph g;
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 3);
  rg_make(&g, &r, 100, false);
  for (uint32_t v = 0; v < g.n; v++) g.blocked[v] = false;
  astar_space sp = rg_space(&g);
  astar_workspace *ws = ws_for(&sp);
  if (!ws) return;
  astar_engine_result res;
  /* find a start with successors */
  astar_node s = 0;
  while (g.deg[s] == 0) s++;
  g.bad = 1;
  CHECK(astar_space_find_path(ws, &sp, NULL, s, (s + 1) % g.n, path, MAXN, &res) ==
        ASTAR_INVALID_ARGUMENT);
  g.bad = 2;
  CHECK(astar_space_find_path(ws, &sp, NULL, s, (s + 1) % g.n, path, MAXN, &res) ==
        ASTAR_INVALID_ARGUMENT);
  g.bad = 0;
  CHECK(astar_space_find_path(ws, &sp, NULL, 100, 1, path, MAXN, &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_space_find_path(ws, &sp, NULL, 1, 100, path, MAXN, &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(res.end == ASTAR_NODE_NONE && res.length == 0);
  CHECK(astar_space_find_path(NULL, &sp, NULL, 1, 2, path, MAXN, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_space_find_path(ws, NULL, NULL, 1, 2, path, MAXN, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_space_find_path(ws, &sp, NULL, 1, 2, NULL, 5, &res) == ASTAR_INVALID_ARGUMENT);
  astar_engine_options o;
  astar_engine_options_init(&o);
  o.tie = ASTAR_TIE_CROSS;
  CHECK(astar_space_find_path(ws, &sp, &o, 1, 2, path, MAXN, &res) == ASTAR_INVALID_ARGUMENT);
  astar_engine_options_init(&o);
  o.weight = -1;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  /* start == goal: one node, nothing expanded, for every method */
  for (int method = 0; method < BASIC_METHODS; method++) {
    astar_engine_options_init(&o);
    o.method = (astar_method)method;
    CHECK(astar_space_find_path(ws, &sp, &o, 7, 7, path, MAXN, &res) == ASTAR_OK);
    CHECK(res.length == 1 && path[0] == 7 && res.cost == 0 && res.stats.expanded == 0);
  }
  /* A small buffer: the length, then the copy. */
  astar_node far = ASTAR_NODE_NONE;
  for (astar_node t = 0; t < g.n && far == ASTAR_NODE_NONE; t++)
    if (rg_dijkstra(&g, s, t) > 0 && t != s) {
      CHECK(astar_space_find_path(ws, &sp, NULL, s, t, path, MAXN, &res) == ASTAR_OK);
      if (res.length > 2) far = t;
    }
  if (far != ASTAR_NODE_NONE) {
    CHECK(astar_space_find_path(ws, &sp, NULL, s, far, path, 1, &res) == ASTAR_BUFFER_TOO_SMALL);
    size_t len = 0;
    CHECK(astar_workspace_space_path(ws, path, MAXN, &len) == ASTAR_OK && len == res.length);
    CHECK(path[0] == s && path[len - 1] == far);
    /* a grid search on the same workspace forgets it */
    astar_grid *tiny;
    CHECK(astar_grid_new(&tiny, 3, 3, NULL) == ASTAR_OK);
    astar_point cells[9];
    astar_result gr;
    CHECK(astar_find_path(ws, tiny, NULL, (astar_point){0, 0}, (astar_point){2, 2}, cells, 9,
                          &gr) == ASTAR_OK);
    CHECK(astar_workspace_space_path(ws, path, MAXN, &len) == ASTAR_NO_PATH);
    astar_grid_free(tiny);
  }
  /* Not reserved: capacity. No predecessors: bidirectional unsupported. */
  astar_grid *tiny;
  astar_workspace *small;
  CHECK(astar_grid_new(&tiny, 2, 2, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&small, tiny, NULL) == ASTAR_OK);
  CHECK(astar_space_find_path(small, &sp, NULL, 1, 2, path, MAXN, &res) == ASTAR_CAPACITY);
  CHECK(astar_workspace_reserve_space(small, &sp, 0) == ASTAR_OK);
  o.method = ASTAR_METHOD_BIDIRECTIONAL;
  o.weight = 1;
  CHECK(astar_space_find_path(small, &sp, &o, 1, 2, path, MAXN, &res) == ASTAR_CAPACITY);
  astar_space_ops nopred = rg_ops;
  nopred.predecessors = NULL;
  astar_space sp2 = sp;
  sp2.ops = &nopred;
  CHECK(astar_space_find_path(ws, &sp2, &o, 1, 2, path, MAXN, &res) == ASTAR_UNSUPPORTED);
  astar_space bad = sp;
  bad.node_count = 0;
  CHECK(astar_space_validate(&bad) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_workspace_reserve_space(small, &bad, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_workspace_reserve_space(small, &sp, 99) == ASTAR_INVALID_ARGUMENT);
  astar_workspace_free(small);
  astar_grid_free(tiny);
  astar_workspace_free(ws);
  CHECK(strcmp(astar_method_name(ASTAR_METHOD_BIDIRECTIONAL), "bidirectional") == 0);
  CHECK(astar_method_name(ASTAR_METHOD_COUNT) == NULL);
}

/* Allocation failure at every allocation of the reservation: NO_MEMORY,
** the workspace unchanged and usable, nothing leaked. */
static void test_failalloc(void) {
  static rgraph g;
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 8);
  rg_make(&g, &r, 300, false);
  const astar_space sp = rg_space(&g);
  astar_grid *tiny;
  CHECK(astar_grid_new(&tiny, 1, 1, NULL) == ASTAR_OK);
  int succeeded = 0;
  for (long k = 1; k < 40 && !succeeded; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, tiny, &a) == ASTAR_OK);
    if (!ws) break;
    const size_t before = astar_workspace_memory(ws);
    failalloc_fail_in(&fa, k);
    const astar_status st = astar_workspace_reserve_space(ws, &sp, ASTAR_RESERVE_BACKWARD);
    if (st == ASTAR_OK) {
      succeeded = 1;
      astar_engine_options o;
      astar_engine_options_init(&o);
      o.method = ASTAR_METHOD_BIDIRECTIONAL;
      const long calls = fa.calls;
      astar_engine_result res;
      (void)astar_space_find_path(ws, &sp, &o, 1, 2, path, MAXN, &res);
      CHECK(fa.calls == calls); /* searching never allocates */
    } else {
      CHECKF(st == ASTAR_NO_MEMORY, "failure %ld: %d", k, (int)st);
      CHECK(astar_workspace_memory(ws) == before);
      CHECK(astar_space_find_path(ws, &sp, NULL, 1, 2, path, MAXN, NULL) == ASTAR_CAPACITY);
    }
    astar_workspace_free(ws);
    CHECKF(fa.blocks == 0 && fa.osize_mismatches == 0, "failure %ld: %ld blocks left", k,
           fa.blocks);
  }
  CHECK(succeeded);
  astar_grid_free(tiny);
}

int main(void) {
  RUN(test_random_graphs);
  RUN(test_grid_space);
  RUN(test_space_abilities);
  RUN(test_sliced_partial_limits);
  RUN(test_multi_goal);
  RUN(test_observer);
  RUN(test_faults_and_arguments);
  RUN(test_failalloc);
  return check_summary();
}
