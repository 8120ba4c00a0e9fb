/*
** test_landmarks.c -- landmarks / ALT heuristics (astar/landmarks.h).
**
** Against brute force on small random instances of every space -- square
** grids (4 / 8 moves, every corner rule, with and without terrain, which
** makes costs direction-dependent), hex grids, directed CSR graphs with and
** without predecessors, a waypoint graph: the heuristic never exceeds the
** exact distance (a plain O(n^2) Dijkstra over the space, written here),
** is consistent up to the documented slack arc by arc, and A* with it (the
** engine over astar_landmarks_space, the grid's A* through the callback)
** returns the optimal cost with fewer expansions in aggregate than the
** space's own heuristic. Also: disconnected maps, the stale-grid guard,
** save / load (round trip, every truncation, random damage, wrong spaces),
** every allocation failing in turn, and the heuristic-floor case of
** astar/search.h (one road row of factor 0.5 on an open 256 x 256 map).
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/bytes.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

/* ---- brute force over a space ---------------------------------------------------- */

/* Distances from src to every node: O(n^2) Dijkstra, doubles summed from
** the source as the searches do. */
static void brute_dist(const astar_space *s, astar_node src, double *dist, char *done,
                       astar_arc *arcs) {
  const uint32_t n = s->node_count;
  for (uint32_t v = 0; v < n; v++) {
    dist[v] = INFINITY;
    done[v] = 0;
  }
  dist[src] = 0.0;
  for (;;) {
    uint32_t u = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++)
      if (!done[v] && dist[v] < INFINITY && (u == UINT32_MAX || dist[v] < dist[u])) u = v;
    if (u == UINT32_MAX) break;
    done[u] = 1;
    const size_t m = s->ops->successors(s->self, u, arcs, s->max_degree);
    for (size_t j = 0; j < m; j++)
      if (dist[u] + arcs[j].cost < dist[arcs[j].node]) dist[arcs[j].node] = dist[u] + arcs[j].cost;
  }
}

static bool is_usable(const astar_space *s, astar_node v) {
  return !s->ops->usable || s->ops->usable(s->self, v);
}

/* astar_landmarks_grid_heuristic behind another address: the grid's A*
** does not recognise it, so ASTAR_REOPEN_AUTO reopens as for any callback. */
static double forward_heuristic(void *ctx, astar_point cell, astar_point goal) {
  return astar_landmarks_grid_heuristic(ctx, cell, goal);
}

/* Totals over a test, for the aggregate expansion comparison. */
typedef struct tally {
  uint64_t base_exp, lm_exp, searches;
} tally;

/*
** Check lm over space `s` (the base): admissibility for every pair from up
** to `nsrc` sources, consistency on every arc toward those goals, and that
** engine A* over the wrapper space finds optimal costs. Adds expansions to t.
*/
static void check_space(const char *what, const astar_space *s, const astar_landmarks *lm,
                        uint32_t nsrc, rng *r, tally *t) {
  const uint32_t n = s->node_count;
  double *dist = malloc(n * sizeof *dist);
  char *done = malloc(n);
  astar_arc *arcs = malloc(s->max_degree * sizeof *arcs);
  astar_node *path = malloc(n * sizeof *path);
  astar_workspace *ws = NULL;
  astar_space wrapped;
  astar_landmarks_space_holder holder;
  CHECK(astar_landmarks_space(&wrapped, &holder, s, lm) == ASTAR_OK);
  const bool consistent = astar_landmarks_consistent(lm);
  /* Grid and hex costs are >= 0.5 here: the scale is affordable, so the
  ** table must be consistent. Random graphs have arcs of any length (the
  ** cheapest near 0): there it may give consistency up. */
  if (!consistent && strcmp(what, "graph") != 0) FAILF("%s: table not consistent", what);
  CHECK(wrapped.flags ==
        (ASTAR_SPACE_ADMISSIBLE |
         (consistent && (s->flags & ASTAR_SPACE_CONSISTENT) ? ASTAR_SPACE_CONSISTENT : 0u)));
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  CHECK(astar_workspace_reserve_space(ws, s, 0) == ASTAR_OK);
  /* The largest exact distance bounds the slack: e_L <= 2^-22 x it. */
  for (uint32_t i = 0; i < nsrc; i++) {
    const astar_node a = (astar_node)rng_range(r, 0, (int32_t)n - 1);
    if (!is_usable(s, a)) continue;
    brute_dist(s, a, dist, done, arcs);
    double maxd = 0;
    for (uint32_t v = 0; v < n; v++)
      if (dist[v] < INFINITY && dist[v] > maxd) maxd = dist[v];
    for (astar_node b = 0; b < n; b++) {
      const double h = astar_landmarks_heuristic(lm, a, b);
      if (!(h >= 0 && h < INFINITY)) FAILF("%s: h(%u,%u) = %g not finite >= 0", what, a, b, h);
      if (dist[b] < INFINITY && h > dist[b])
        FAILF("%s: h(%u,%u) = %.17g > d = %.17g", what, a, b, h, dist[b]);
    }
    /* Consistency toward goal a on every arc u -> v from which a can be
    ** reached (from elsewhere no path to a passes, and the heuristic there,
    ** finite by contract, cannot be consistent with an infinite distance):
    ** h(u, a) <= c + h(v, a) + slack, the slack of a landmark being 2^-22 x
    ** its largest distance -- bounded generously by 2^-20 x the sum of all
    ** arc costs. reach[x]: a is reachable from x (fixpoint over the arcs). */
    for (uint32_t v = 0; v < n; v++) done[v] = v == a;
    for (bool grew = true; grew;) {
      grew = false;
      for (astar_node u = 0; u < n; u++) {
        if (done[u]) continue;
        const size_t m = s->ops->successors(s->self, u, arcs, s->max_degree);
        for (size_t j = 0; j < m && !done[u]; j++)
          if (done[arcs[j].node]) done[u] = grew = true;
      }
    }
    double total = 0;
    for (astar_node u = 0; u < n; u++) {
      const size_t m = s->ops->successors(s->self, u, arcs, s->max_degree);
      for (size_t j = 0; j < m; j++) total += arcs[j].cost;
    }
    /* A consistent table: only the arithmetic's last-place rounding. */
    const double tol = consistent ? 0x1p-40 * (1.0 + total) : total * 0x1p-20;
    for (astar_node u = 0; u < n; u++) {
      const size_t m = s->ops->successors(s->self, u, arcs, s->max_degree);
      const double hu = astar_landmarks_heuristic(lm, u, a);
      for (size_t j = 0; j < m; j++) {
        if (!done[arcs[j].node]) continue;
        const double hv = astar_landmarks_heuristic(lm, arcs[j].node, a);
        if (hu > arcs[j].cost + hv + tol)
          FAILF("%s: inconsistent arc %u->%u goal %u: %.17g > %.17g + %.17g", what, u, arcs[j].node,
                a, hu, arcs[j].cost, hv);
      }
    }
    /* A* from a to a few goals: optimal, and count expansions. */
    for (int q = 0; q < 4; q++) {
      const astar_node b = (astar_node)rng_range(r, 0, (int32_t)n - 1);
      if (!is_usable(s, b)) continue;
      astar_engine_result r1, r2;
      const astar_status s1 = astar_space_find_path(ws, &wrapped, NULL, a, b, path, n, &r1);
      const astar_status s2 = astar_space_find_path(ws, s, NULL, a, b, path, n, &r2);
      if (dist[b] == INFINITY) {
        if (s1 != ASTAR_NO_PATH) FAILF("%s: %u->%u unreachable but status %d", what, a, b, s1);
        continue;
      }
      if (s1 != ASTAR_OK || s2 != ASTAR_OK ||
          fabs(r1.cost - dist[b]) > 1e-9 * (dist[b] > 1 ? dist[b] : 1)) {
        FAILF("%s: A* %u->%u status %d cost %.17g, optimal %.17g", what, a, b, s1, r1.cost,
              dist[b]);
        continue;
      }
      t->lm_exp += r1.stats.expanded;
      t->base_exp += r2.stats.expanded;
      t->searches++;
    }
  }
  astar_workspace_free(ws);
  free(dist);
  free(done);
  free(arcs);
  free(path);
}

static const uint32_t ks[3] = {1, 4, 16};

/* ---- square grids ----------------------------------------------------------------- */

static void test_grids(void) {
  rng r;
  rng_seed(&r, 13);
  tally t = {0, 0, 0};
  static const astar_corner corners[4] = {ASTAR_CORNER_NO_CUT, ASTAR_CORNER_ALWAYS,
                                          ASTAR_CORNER_ONE_SIDE, ASTAR_CORNER_NEVER};
  for (int iter = 0; iter < 32; iter++) {
    randmap_spec spec = {
        rng_range(&r, 8, 20), rng_range(&r, 8, 20), rng_unit(&r) * 0.35, iter & 1, 0.5, 4.0};
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK) {
      FAILF("randmap");
      continue;
    }
    astar_options o;
    astar_options_init(&o);
    o.moves = (iter >> 1) & 1 ? 4 : 8;
    o.corner = corners[(iter >> 2) & 3];
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.count = ks[iter % 3];
    lo.choice = (iter >> 3) & 1 ? ASTAR_LANDMARKS_AVOID : ASTAR_LANDMARKS_FARTHEST;
    astar_landmarks *lm = NULL;
    const astar_status st = astar_landmarks_new_grid(&lm, g, &o, &lo, NULL);
    if (astar_grid_count_passable(g) == 0) {
      CHECK(st == ASTAR_NO_PATH && lm == NULL);
      astar_grid_free(g);
      continue;
    }
    CHECK(st == ASTAR_OK);
    if (st != ASTAR_OK) {
      astar_grid_free(g);
      continue;
    }
    CHECK(astar_landmarks_count(lm) >= 1 && astar_landmarks_count(lm) <= lo.count);
    /* Terrain makes the costs direction-dependent: backward distances kept. */
    CHECK(astar_landmarks_has_backward(lm) == (spec.terrain != 0));
    CHECK(astar_landmarks_current(lm, g) == ASTAR_OK);
    astar_grid_space gsh;
    astar_space sp;
    CHECK(astar_grid_space_init(&sp, &gsh, g, &o) == ASTAR_OK);
    char what[64];
    snprintf(what, sizeof what, "grid iter %d", iter);
    check_space(what, &sp, lm, 12, &r, &t);

    /* The grid's own A* with the callback: optimal against the reference. */
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_options lo2 = o;
    lo2.heuristic = ASTAR_H_CALLBACK;
    lo2.heuristic_fn = astar_landmarks_grid_heuristic;
    lo2.heuristic_ctx = lm;
    for (int q = 0; q < 20; q++) {
      const astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
      const double ref = ref_dijkstra(g, &o, a, b);
      astar_result res;
      const astar_status s1 = astar_find_path(ws, g, &lo2, a, b, NULL, 0, &res);
      if (ref < 0) {
        CHECK(s1 == ASTAR_NO_PATH);
        continue;
      }
      if ((s1 != ASTAR_OK && s1 != ASTAR_BUFFER_TOO_SMALL) || fabs(res.cost - ref) > 1e-9 * ref)
        FAILF("%s: grid A* status %d cost %.17g ref %.17g", what, s1, res.cost, ref);
      /* A consistent table: AUTO never reopens. */
      if (res.stats.reopened != 0)
        FAILF("%s: %llu reopenings", what, (unsigned long long)res.stats.reopened);
      /* Sparing the reopenings changes no cost: the same table behind an
      ** unrecognised callback (reopening) finds the same optimum. */
      astar_options via = lo2;
      via.heuristic_fn = forward_heuristic;
      astar_result r2;
      const astar_status s2 = astar_find_path(ws, g, &via, a, b, NULL, 0, &r2);
      if (s2 != s1 || fabs(r2.cost - res.cost) > 1e-9 * ref)
        FAILF("%s: reopening search cost %.17g, landmark search %.17g", what, r2.cost, res.cost);
    }
    astar_workspace_free(ws);
    astar_landmarks_free(lm);
    astar_grid_free(g);
  }
  printf("  grids: %llu searches, expansions base %llu, landmarks %llu\n",
         (unsigned long long)t.searches, (unsigned long long)t.base_exp,
         (unsigned long long)t.lm_exp);
  CHECK(t.searches > 100);
  CHECK(t.lm_exp < t.base_exp);
}

/* ---- hex grids --------------------------------------------------------------------- */

static void test_hex(void) {
  rng r;
  rng_seed(&r, 7);
  tally t = {0, 0, 0};
  for (int iter = 0; iter < 8; iter++) {
    astar_hex_grid *h = NULL;
    CHECK(astar_hex_grid_new(&h, rng_range(&r, 6, 16), rng_range(&r, 6, 16), 0, 0, NULL) ==
          ASTAR_OK);
    if (!h) continue;
    for (int32_t y = 0; y < astar_hex_grid_height(h); y++)
      for (int32_t x = 0; x < astar_hex_grid_width(h); x++) {
        if (rng_unit(&r) < 0.25)
          astar_hex_grid_set_passable(h, x, y, false);
        else if (iter & 1)
          astar_hex_grid_set_terrain(h, x, y, (float)rng_range(&r, 2, 12) / 4);
      }
    astar_space sp;
    CHECK(astar_hex_space(h, &sp) == ASTAR_OK);
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.count = ks[iter % 3];
    lo.choice = iter & 2 ? ASTAR_LANDMARKS_AVOID : ASTAR_LANDMARKS_FARTHEST;
    astar_landmarks *lm = NULL;
    const astar_status st = astar_landmarks_new(&lm, &sp, &lo, NULL);
    CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
    if (lm) {
      check_space("hex", &sp, lm, 10, &r, &t);
      astar_landmarks_free(lm);
    }
    astar_hex_grid_free(h);
  }
  CHECK(t.lm_exp < t.base_exp);
}

/* ---- directed graphs --------------------------------------------------------------- */

/* A random directed graph on n nodes with coordinates (so the base space
** has a heuristic) when `coords`; arcs cost at least their length. */
static astar_graph *random_graph(rng *r, uint32_t n, size_t m, unsigned flags) {
  astar_graph_edge *e = malloc(m * sizeof *e);
  double *xy = malloc((size_t)2 * n * sizeof *xy);
  for (uint32_t v = 0; v < n; v++) {
    xy[(size_t)2 * v] = rng_range(r, 0, 100);
    xy[(size_t)2 * v + 1] = rng_range(r, 0, 100);
  }
  for (size_t i = 0; i < m; i++) {
    e[i].from = (astar_node)rng_range(r, 0, (int32_t)n - 1);
    e[i].to = (astar_node)rng_range(r, 0, (int32_t)n - 1);
    const double dx = xy[(size_t)2 * e[i].from] - xy[(size_t)2 * e[i].to],
                 dy = xy[(size_t)2 * e[i].from + 1] - xy[(size_t)2 * e[i].to + 1];
    e[i].cost = sqrt(dx * dx + dy * dy) * (1 + rng_unit(r));
  }
  astar_graph *g = NULL;
  if (astar_graph_new(&g, n, e, m, flags, NULL) == ASTAR_OK) astar_graph_set_coords(g, 2, xy);
  free(e);
  free(xy);
  return g;
}

/* A space without predecessors: the graph's, with predecessors removed. */
static astar_space_ops no_pred_ops;

static void test_graphs(void) {
  rng r;
  rng_seed(&r, 99);
  tally t = {0, 0, 0};
  for (int iter = 0; iter < 12; iter++) {
    const uint32_t n = (uint32_t)rng_range(&r, 20, 150);
    astar_graph *g = random_graph(&r, n, (size_t)n * 3, iter % 3 == 2 ? ASTAR_GRAPH_UNDIRECTED : 0);
    CHECK(g != NULL);
    if (!g) continue;
    astar_space sp;
    CHECK(astar_graph_space(g, &sp) == ASTAR_OK);
    if (iter & 1) { /* no predecessors: distances FROM the landmarks only */
      no_pred_ops = *sp.ops;
      no_pred_ops.predecessors = NULL;
      sp.ops = &no_pred_ops;
    }
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.count = ks[iter % 3];
    lo.choice = iter & 2 ? ASTAR_LANDMARKS_AVOID : ASTAR_LANDMARKS_FARTHEST;
    lo.symmetric = iter % 3 == 2 && (iter & 1) == 0;
    astar_landmarks *lm = NULL;
    CHECK(astar_landmarks_new(&lm, &sp, &lo, NULL) == ASTAR_OK);
    if (lm) {
      CHECK(astar_landmarks_has_backward(lm) == (!(iter & 1) && !lo.symmetric));
      check_space("graph", &sp, lm, 12, &r, &t);
      astar_landmarks_free(lm);
    }
    astar_graph_free(g);
  }
  CHECK(t.lm_exp < t.base_exp);
}

/* ---- a waypoint graph --------------------------------------------------------------- */

static void test_waypoints(void) {
  rng r;
  rng_seed(&r, 5);
  tally t = {0, 0, 0};
  for (int iter = 0; iter < 4; iter++) {
    randmap_spec spec = {24, 24, 0.25, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_waypoints *wp = NULL;
    CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
    const astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
    astar_waypoints_query q;
    astar_space sp;
    CHECK(astar_waypoints_query_init(&q, &sp, wp, g, a, b) == ASTAR_OK);
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.count = ks[iter % 3];
    astar_landmarks *lm = NULL;
    CHECK(astar_landmarks_new(&lm, &sp, &lo, NULL) == ASTAR_OK);
    if (lm) check_space("waypoints", &sp, lm, 10, &r, &t);
    astar_landmarks_free(lm);
    astar_waypoints_free(wp);
    astar_grid_free(g);
  }
  CHECK(t.lm_exp <= t.base_exp);
}

/* ---- disconnected maps, choice rules, staleness ------------------------------------- */

static void test_disconnected(void) {
  /* Two equal rooms split by a wall and a lone cell: both rooms get a
  ** landmark before either gets a second; the lone cell gets none. */
  static const char *rows[] = {
      "......#......", "......#......", "......#......", "......#......",
      "......#.....#", "######.######", "......#......",
  };
  astar_grid *g = randmap_from_rows(rows, 7, '#');
  CHECK(g != NULL);
  astar_landmark_options lo;
  astar_landmark_options_init(&lo);
  lo.count = 3;
  for (int c = 0; c < 2; c++) {
    lo.choice = c ? ASTAR_LANDMARKS_AVOID : ASTAR_LANDMARKS_FARTHEST;
    astar_landmarks *lm = NULL;
    CHECK(astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) == ASTAR_OK);
    if (!lm) continue;
    CHECK(astar_landmarks_count(lm) == 3);
    int left = 0, right = 0;
    for (uint32_t i = 0; i < 2; i++) {
      const astar_node v = astar_landmarks_node(lm, i);
      const int32_t x = (int32_t)(v % 13), y = (int32_t)(v / 13);
      CHECK(!(x == 6 && y == 5));
      if (x < 6 && y != 5) left++;
      if (x > 6 && y != 5) right++;
    }
    CHECK(left == 1 && right == 1);
    CHECK(astar_landmarks_node(lm, 3) == ASTAR_NODE_NONE);
    /* Across the wall: unreachable, the bound adds nothing but stays finite. */
    const double h = astar_landmarks_heuristic(lm, 0, 12);
    CHECK(h >= 0 && h < INFINITY);
    /* Stale: opening the wall makes the table wrong; the callback gives 0. */
    astar_grid *g2 = NULL;
    CHECK(astar_grid_clone(&g2, g, NULL) == ASTAR_OK);
    CHECK(astar_landmarks_current(lm, g2) == ASTAR_MISMATCH);
    astar_point a = {0, 0}, b = {12, 0};
    CHECK(astar_landmarks_grid_heuristic(lm, a, (astar_point){5, 4}) > 0);
    CHECK(astar_landmarks_grid_heuristic(lm, a, (astar_point){-1, -1}) == 0);
    astar_grid_set_passable(g, 6, 0, true);
    CHECK(astar_landmarks_current(lm, g) == ASTAR_STALE);
    CHECK(astar_landmarks_grid_heuristic(lm, a, b) == 0);
    astar_grid_set_passable(g, 6, 0, false);
    astar_grid_free(g2);
    astar_landmarks_free(lm);
  }
  astar_grid_free(g);
  /* Too few nodes for the landmarks wanted: fewer chosen, all distinct. */
  static const char *tiny[] = {"..."};
  g = randmap_from_rows(tiny, 1, '#');
  lo.count = 16;
  astar_landmarks *lm = NULL;
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) == ASTAR_OK);
  CHECK(astar_landmarks_count(lm) >= 1 && astar_landmarks_count(lm) <= 3);
  astar_landmarks_free(lm);
  astar_grid_free(g);
}

static void test_arguments(void) {
  astar_landmarks *lm = (astar_landmarks *)&lm;
  astar_landmark_options lo;
  astar_landmark_options_init(&lo);
  CHECK(lo.count == 4 && lo.choice == ASTAR_LANDMARKS_FARTHEST && !lo.symmetric);
  CHECK(astar_landmarks_new(NULL, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_landmarks_new(&lm, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT && lm == NULL);
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 5, 5, NULL) == ASTAR_OK);
  lo.count = 0;
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) == ASTAR_INVALID_ARGUMENT);
  lo.count = ASTAR_LANDMARKS_MAX + 1;
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) == ASTAR_INVALID_ARGUMENT);
  lo.count = 4;
  lo.choice = (astar_landmark_choice)7;
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options o;
  astar_options_init(&o);
  o.terrain_scale = 0.5;
  CHECK(astar_landmarks_new_grid(&lm, g, &o, NULL, NULL) == ASTAR_UNSUPPORTED && lm == NULL);
  astar_grid_fill(g, false);
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, NULL, NULL) == ASTAR_NO_PATH && lm == NULL);
  astar_landmarks_free(NULL);
  CHECK(astar_landmarks_memory(NULL) == 0 && astar_landmarks_count(NULL) == 0);
  CHECK(astar_landmarks_node(NULL, 0) == ASTAR_NODE_NONE);
  astar_grid_free(g);
}

/* The grid callback without a table (ctx NULL, e.g. a table that failed to
** build): the zero bound, never a read through the NULL pointer -- and a
** search with it is Dijkstra, still optimal. */
static void test_null_context(void) {
  CHECK(astar_landmarks_grid_heuristic(NULL, (astar_point){0, 0}, (astar_point){3, 2}) == 0.0);
  CHECK(astar_landmarks_grid_heuristic(NULL, (astar_point){-1, 7}, (astar_point){-1, -1}) == 0.0);
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 6, 5, NULL) == ASTAR_OK);
  if (!g) return;
  for (int32_t y = 0; y < 4; y++) astar_grid_set_passable(g, 3, y, false);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  astar_result plain, callback;
  astar_point path[30];
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 0}, (astar_point){5, 0}, path, 30, &plain) ==
        ASTAR_OK);
  o.heuristic = ASTAR_H_CALLBACK;
  o.heuristic_fn = astar_landmarks_grid_heuristic;
  o.heuristic_ctx = NULL;
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 0}, (astar_point){5, 0}, path, 30, &callback) ==
        ASTAR_OK);
  CHECK(cost_equal(callback.cost, plain.cost));
  CHECK(callback.stats.expanded >= plain.stats.expanded);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* ---- save / load ------------------------------------------------------------------- */

static void test_save_load(void) {
  rng r;
  rng_seed(&r, 3);
  randmap_spec spec = {17, 13, 0.25, 1, 0.5, 3.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_landmark_options lo;
  astar_landmark_options_init(&lo);
  lo.count = 5;
  astar_landmarks *lm = NULL;
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) == ASTAR_OK);
  if (!lm) return;
  size_t len = 0;
  CHECK(astar_landmarks_save(lm, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL);
  const uint32_t n = 17 * 13, k = astar_landmarks_count(lm);
  CHECK(len == 72 + 12 * k + 8 * (size_t)k * n);
  unsigned char *buf = malloc(len), *bad = malloc(len);
  CHECK(astar_landmarks_save(lm, buf, len - 1, &len) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_landmarks_save(lm, buf, len, &len) == ASTAR_OK);
  astar_landmarks *lm2 = NULL;
  CHECK(astar_landmarks_load_grid(&lm2, g, NULL, buf, len, NULL) == ASTAR_OK);
  if (lm2) {
    CHECK(astar_landmarks_count(lm2) == k);
    CHECK(astar_landmarks_memory(lm2) == astar_landmarks_memory(lm));
    CHECK(astar_landmarks_current(lm2, g) == ASTAR_OK);
    for (uint32_t i = 0; i < k; i++)
      CHECK(astar_landmarks_node(lm2, i) == astar_landmarks_node(lm, i));
    for (astar_node a = 0; a < n; a += 7)
      for (astar_node b = 0; b < n; b++)
        if (astar_landmarks_heuristic(lm, a, b) != astar_landmarks_heuristic(lm2, a, b))
          FAILF("loaded table differs at %u %u", a, b);
    size_t len2 = 0;
    unsigned char *buf2 = malloc(len);
    CHECK(astar_landmarks_save(lm2, buf2, len, &len2) == ASTAR_OK && len2 == len);
    CHECK(memcmp(buf, buf2, len) == 0);
    free(buf2);
    astar_landmarks_free(lm2);
  }
  /* Every truncation. */
  for (size_t cut = 0; cut < len; cut++) {
    lm2 = (astar_landmarks *)&lm2;
    if (astar_landmarks_load_grid(&lm2, g, NULL, buf, cut, NULL) != ASTAR_PARSE_ERROR ||
        lm2 != NULL)
      FAILF("truncation at %zu accepted", cut);
  }
  /* Random damage: one to three bytes changed. */
  for (int i = 0; i < 400; i++) {
    memcpy(bad, buf, len);
    const int hits = rng_range(&r, 1, 3);
    for (int j = 0; j < hits; j++)
      bad[rng_range(&r, 0, (int32_t)len - 1)] ^= (unsigned char)rng_range(&r, 1, 255);
    if (memcmp(bad, buf, len) == 0) continue;
    lm2 = NULL;
    const astar_status st = astar_landmarks_load_grid(&lm2, g, NULL, bad, len, NULL);
    if (st != ASTAR_PARSE_ERROR || lm2) FAILF("damage %d accepted: %d", i, st);
    astar_landmarks_free(lm2);
  }
  /* Another space: other node count; same size, other costs. */
  astar_grid *g2 = NULL;
  CHECK(astar_grid_new(&g2, 13, 17, NULL) == ASTAR_OK);
  CHECK(astar_landmarks_load_grid(&lm2, g2, NULL, buf, len, NULL) == ASTAR_MISMATCH && !lm2);
  astar_grid_free(g2);
  CHECK(astar_grid_new(&g2, 3, 3, NULL) == ASTAR_OK);
  CHECK(astar_landmarks_load_grid(&lm2, g2, NULL, buf, len, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g2);
  astar_options o;
  astar_options_init(&o);
  o.moves = 4;
  CHECK(astar_landmarks_load_grid(&lm2, g, &o, buf, len, NULL) == ASTAR_MISMATCH && !lm2);
  /* Allocation failures while loading. */
  for (long k2 = 1; k2 < 10; k2++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator al = failalloc_allocator(&fa);
    failalloc_fail_in(&fa, k2);
    const astar_status st = astar_landmarks_load_grid(&lm2, g, NULL, buf, len, &al);
    if (st == ASTAR_OK) {
      astar_landmarks_free(lm2);
      CHECK(fa.blocks == 0);
      break;
    }
    CHECK(st == ASTAR_NO_MEMORY && lm2 == NULL && fa.blocks == 0);
  }
  free(buf);
  free(bad);
  astar_landmarks_free(lm);
  astar_grid_free(g);
}

/* ---- the movement rules a file records ------------------------------------------ */

/* The file checksum of the format (astar_landmarks_save): every 32-bit word
** but bytes 32 .. 39, folded in order, stored at byte 32. */
static void reseal(unsigned char *buf, size_t len) {
  uint64_t h = ASTAR__HASH_INIT;
  for (size_t i = 0; i + 4 <= len; i += 4)
    if (i != 32 && i != 36) h = astar__hash_word(h, astar__get_le32(buf + i));
  astar__put_le64(buf + 32, h);
}

static bool same_bits(double a, double b) {
  uint64_t x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  return x == y;
}

/* A grid table's file records the moves, corner rule and costs it was
** built for: astar_landmarks_file_options reads them back, a load under
** them succeeds (the same bytes saved again), a load under the defaults is
** ASTAR_MISMATCH (the file built for the defaults likewise under them).
** Format 1 (before the rules were recorded) still loads and records none;
** rules out of range are a parse error; a space's table records none. */
static void test_file_rules(void) {
  rng r;
  rng_seed(&r, 5);
  randmap_spec spec = {19, 15, 0.3, 0, 1.0, 1.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  if (!g) return;
  astar_options def;
  astar_options_init(&def);
  struct {
    int moves;
    astar_corner corner;
    double s, d; /* d 0: the default */
  } rules[] = {{4, ASTAR_CORNER_NO_CUT, 1, 1.5}, {8, ASTAR_CORNER_ALWAYS, 1, 0},
               {8, ASTAR_CORNER_ONE_SIDE, 1, 0}, {8, ASTAR_CORNER_NEVER, 1, 0},
               {8, ASTAR_CORNER_NO_CUT, 10, 14}, {8, ASTAR_CORNER_NO_CUT, 1, 1.5}};
  unsigned char *defbuf = NULL;
  size_t deflen = 0;
  for (size_t i = 0; i <= sizeof rules / sizeof rules[0]; i++) {
    astar_options o = def; /* the last round: the defaults */
    if (i < sizeof rules / sizeof rules[0]) {
      o.moves = rules[i].moves;
      o.corner = rules[i].corner;
      o.straight_cost = rules[i].s;
      if (rules[i].d) o.diagonal_cost = rules[i].d;
    }
    astar_landmarks *lm = NULL, *lm2 = NULL;
    CHECK(astar_landmarks_new_grid(&lm, g, &o, NULL, NULL) == ASTAR_OK);
    if (!lm) continue;
    size_t len = 0;
    CHECK(astar_landmarks_save(lm, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL);
    unsigned char *buf = malloc(len), *again = malloc(len);
    CHECK(astar_landmarks_save(lm, buf, len, &len) == ASTAR_OK);
    astar_options f;
    memset(&f, 0xff, sizeof f);
    CHECK(astar_landmarks_file_options(buf, len, &f) == ASTAR_OK);
    if (f.moves != o.moves || f.corner != (o.moves == 4 ? ASTAR_CORNER_NEVER : o.corner) ||
        !same_bits(f.straight_cost, o.straight_cost) ||
        !same_bits(f.diagonal_cost, o.diagonal_cost) || f.weight != 1.0)
      FAILF("rules %zu: read back %d moves, corner %d, costs %g/%g", i, f.moves, (int)f.corner,
            f.straight_cost, f.diagonal_cost);
    CHECK(astar_landmarks_file_options(buf, len, NULL) == ASTAR_OK);
    CHECK(astar_landmarks_load_grid(&lm2, g, &o, buf, len, NULL) == ASTAR_OK);
    size_t len2 = 0;
    if (lm2) {
      CHECK(astar_landmarks_save(lm2, again, len, &len2) == ASTAR_OK && len2 == len &&
            memcmp(buf, again, len) == 0);
      astar_landmarks_free(lm2);
      lm2 = NULL;
    }
    if (i < sizeof rules / sizeof rules[0]) {
      /* Other rules than the file's, both ways round. */
      CHECK(astar_landmarks_load_grid(&lm2, g, &def, buf, len, NULL) == ASTAR_MISMATCH && !lm2);
      CHECK(astar_landmarks_load_grid(&lm2, g, NULL, buf, len, NULL) == ASTAR_MISMATCH && !lm2);
      if (defbuf)
        CHECK(astar_landmarks_load_grid(&lm2, g, &o, defbuf, deflen, NULL) == ASTAR_MISMATCH &&
              !lm2);
    } else {
      defbuf = malloc(len);
      if (defbuf) memcpy(defbuf, buf, deflen = len);
    }
    free(again);
    free(buf);
    astar_landmarks_free(lm);
  }
  /* The defaults' file against every other rule set. */
  for (size_t i = 0; defbuf && i < sizeof rules / sizeof rules[0]; i++) {
    astar_options o = def;
    o.moves = rules[i].moves;
    o.corner = rules[i].corner;
    o.straight_cost = rules[i].s;
    if (rules[i].d) o.diagonal_cost = rules[i].d;
    astar_landmarks *lm2 = NULL;
    CHECK(astar_landmarks_load_grid(&lm2, g, &o, defbuf, deflen, NULL) == ASTAR_MISMATCH && !lm2);
  }

  if (defbuf) {
    /* Rules out of range, the checksum made right: a parse error. */
    const struct {
      size_t at;
      uint32_t word;
    } bad[] = {{48, 5}, {48, 0}, {52, 9}, {48, 4} /* 4 moves with corner no-cut */};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      unsigned char *b = malloc(deflen);
      memcpy(b, defbuf, deflen);
      astar__put_le32(b + bad[i].at, bad[i].word);
      reseal(b, deflen);
      astar_landmarks *lm2 = NULL;
      astar_options f;
      if (astar_landmarks_file_options(b, deflen, &f) != ASTAR_PARSE_ERROR)
        FAILF("bad rules %zu read", i);
      if (astar_landmarks_load_grid(&lm2, g, NULL, b, deflen, NULL) != ASTAR_PARSE_ERROR || lm2)
        FAILF("bad rules %zu loaded", i);
      free(b);
    }
    unsigned char *b = malloc(deflen);
    memcpy(b, defbuf, deflen);
    astar__put_le64(b + 56, 0); /* straight cost 0 */
    reseal(b, deflen);
    CHECK(astar_landmarks_file_options(b, deflen, NULL) == ASTAR_PARSE_ERROR);

    /* Format 1: the same without bytes 48 .. 71. */
    const size_t len1 = deflen - 24;
    memcpy(b, defbuf, 48);
    memcpy(b + 48, defbuf + 72, deflen - 72);
    astar__put_le32(b + 8, 1);
    reseal(b, len1);
    astar_landmarks *lm1 = NULL, *lm2 = NULL;
    CHECK(astar_landmarks_file_options(b, len1, NULL) == ASTAR_UNSUPPORTED);
    CHECK(astar_landmarks_load_grid(&lm1, g, NULL, b, len1, NULL) == ASTAR_OK);
    CHECK(astar_landmarks_load_grid(&lm2, g, NULL, defbuf, deflen, NULL) == ASTAR_OK);
    if (lm1 && lm2) {
      const astar_node n = 19 * 15;
      for (astar_node a = 0; a < n; a += 3)
        for (astar_node c = 0; c < n; c++)
          if (astar_landmarks_heuristic(lm1, a, c) != astar_landmarks_heuristic(lm2, a, c))
            FAILF("format 1 table differs at %u %u", a, c);
      /* Saved again, it is format 2 with the rules it was loaded for. */
      size_t len2 = 0;
      unsigned char *b2 = malloc(deflen);
      CHECK(astar_landmarks_save(lm1, b2, deflen, &len2) == ASTAR_OK && len2 == deflen &&
            memcmp(b2, defbuf, deflen) == 0);
      free(b2);
    }
    astar_landmarks_free(lm1);
    astar_landmarks_free(lm2);
    lm1 = NULL;
    astar_options o4 = def;
    o4.moves = 4;
    CHECK(astar_landmarks_load_grid(&lm1, g, &o4, b, len1, NULL) == ASTAR_MISMATCH && !lm1);
    /* A format 2 file marked format 1 has the wrong size. */
    memcpy(b, defbuf, deflen);
    astar__put_le32(b + 8, 1);
    reseal(b, deflen);
    CHECK(astar_landmarks_load_grid(&lm1, g, NULL, b, deflen, NULL) == ASTAR_PARSE_ERROR && !lm1);
    CHECK(astar_landmarks_file_options(b, deflen, NULL) == ASTAR_PARSE_ERROR);
    free(b);
  }
  CHECK(astar_landmarks_file_options(NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_landmarks_file_options("ASTARLMK", 8, NULL) == ASTAR_PARSE_ERROR);

  /* A table of a space (not through the grid's functions) records no rules. */
  astar_space sp;
  astar_grid_space gs;
  CHECK(astar_grid_space_init(&sp, &gs, g, NULL) == ASTAR_OK);
  astar_landmarks *lm = NULL;
  CHECK(astar_landmarks_new(&lm, &sp, NULL, NULL) == ASTAR_OK);
  size_t len = 0;
  if (lm) {
    CHECK(astar_landmarks_save(lm, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL);
    unsigned char *buf = malloc(len);
    CHECK(astar_landmarks_save(lm, buf, len, &len) == ASTAR_OK);
    CHECK(astar_landmarks_file_options(buf, len, NULL) == ASTAR_UNSUPPORTED);
    astar_landmarks *lm2 = NULL;
    CHECK(astar_landmarks_load(&lm2, &sp, buf, len, NULL) == ASTAR_OK);
    astar_landmarks_free(lm2);
    free(buf);
    astar_landmarks_free(lm);
  }
  free(defbuf);
  astar_grid_free(g);
}

/* ---- allocation failures ------------------------------------------------------------ */

static void test_alloc_failures(void) {
  rng r;
  rng_seed(&r, 11);
  randmap_spec spec = {12, 10, 0.2, 1, 0.5, 2};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  for (int c = 0; c < 2; c++) {
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.choice = c ? ASTAR_LANDMARKS_AVOID : ASTAR_LANDMARKS_FARTHEST;
    bool done = false;
    for (long k = 1; k < 40 && !done; k++) {
      failalloc fa;
      failalloc_init(&fa);
      astar_allocator al = failalloc_allocator(&fa);
      failalloc_fail_in(&fa, k);
      astar_landmarks *lm = (astar_landmarks *)&lm;
      const astar_status st = astar_landmarks_new_grid(&lm, g, NULL, &lo, &al);
      if (st == ASTAR_OK) {
        CHECK(k > 2);
        CHECK(astar_landmarks_memory(lm) > 0);
        astar_landmarks_free(lm);
        done = true;
      } else {
        CHECK(st == ASTAR_NO_MEMORY && lm == NULL);
      }
      CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
    }
    CHECK(done);
  }
  astar_grid_free(g);
}

/* ---- the heuristic floor case (astar/search.h) --------------------------------------- */

static void test_floor(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 256, 256, NULL) == ASTAR_OK);
  for (int32_t x = 0; x < 256; x++) astar_grid_set_terrain(g, x, 128, 0.5f);
  astar_options o;
  astar_options_init(&o);
  astar_landmark_options lo;
  astar_landmark_options_init(&lo);
  lo.count = 8;
  astar_landmarks *lm = NULL;
  CHECK(astar_landmarks_new_grid(&lm, g, &o, &lo, NULL) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_options ol = o;
  ol.heuristic = ASTAR_H_CALLBACK;
  ol.heuristic_fn = astar_landmarks_grid_heuristic;
  ol.heuristic_ctx = lm;
  rng r;
  rng_seed(&r, 2024);
  uint64_t e_oct = 0, e_lm = 0;
  for (int q = 0; q < 10; q++) {
    const astar_point a = {rng_range(&r, 0, 255), rng_range(&r, 0, 255)};
    const astar_point b = {rng_range(&r, 0, 255), rng_range(&r, 0, 255)};
    astar_result r1, r2;
    CHECK(astar_find_path(ws, g, &o, a, b, NULL, 0, &r1) == ASTAR_BUFFER_TOO_SMALL || a.x == b.x);
    CHECK(astar_find_path(ws, g, &ol, a, b, NULL, 0, &r2) == ASTAR_BUFFER_TOO_SMALL || a.x == b.x);
    if (fabs(r1.cost - r2.cost) > 1e-9 * r1.cost) FAILF("floor: %.17g vs %.17g", r1.cost, r2.cost);
    e_oct += r1.stats.expanded;
    e_lm += r2.stats.expanded;
  }
  printf("  floor: 10 searches, expansions octile x min terrain %llu, landmarks K=8 %llu\n",
         (unsigned long long)e_oct, (unsigned long long)e_lm);
  CHECK(e_lm * 2 < e_oct);
  astar_workspace_free(ws);
  astar_landmarks_free(lm);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_arguments);
  RUN(test_null_context);
  RUN(test_grids);
  RUN(test_hex);
  RUN(test_graphs);
  RUN(test_waypoints);
  RUN(test_disconnected);
  RUN(test_save_load);
  RUN(test_file_rules);
  RUN(test_alloc_failures);
  RUN(test_floor);
  return check_summary();
}
