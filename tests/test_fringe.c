/*
** test_fringe.c -- Fringe Search through the finder (ASTAR_METHOD_FRINGE,
** src/finder/m_fringe.c): optimal costs against A* and a reference
** Dijkstra on random grids (terrain or not, 4 or 8 moves) and against the
** scenarios' optimal lengths on Moving AI maps (ASTAR_MOVINGAI_DIR); over
** a space of its own with an admissible but inconsistent heuristic;
** determinism, the grid and the grid as a space giving the same path; its
** refusals, max_expansions and stop_fn; and no allocation per query after
** the workspace's first use.
*/
#include <astar/astar.h>
#include <astar/finder.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "slurp.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})
#define SAME_CELLS ((size_t)48 * 40) /* test_same_as_space's map */
#define NA_CELLS ((size_t)64 * 64)   /* test_no_allocation's map */

static astar_finder *fringe_on(const astar_grid *g, const astar_options *o) {
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  if (o) c.options = *o;
  astar_finder *f = NULL;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  return f;
}

/* ---- random grids ------------------------------------------------------------------- */

static void test_random_grids(void) {
  rng r;
  rng_seed(&r, 2605);
  uint64_t compared = 0, found = 0;
  for (int mapi = 0; mapi < 48; mapi++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 1);
    spec.terrain = mapi % 2; /* half with terrain */
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK) continue;
    astar_options o;
    astar_options_init(&o);
    o.moves = (mapi / 2) % 2 ? 4 : 8;
    if (mapi % 8 == 5) o.corner = ASTAR_CORNER_ALWAYS;
    astar_finder *f = fringe_on(g, &o);
    astar_workspace *ws = NULL, *ws2 = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_workspace_new_empty(&ws2, NULL) == ASTAR_OK);
    const size_t cap = (size_t)spec.width * (size_t)spec.height + 1;
    astar_point *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
    for (int q = 0; q < 25 && f && a && b; q++) {
      const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_result ar;
      const astar_status sa = astar_find_path(ws, g, &o, s, t, a, cap, &ar);
      astar_path_result fr;
      const astar_status sf = astar_finder_find(f, ws2, s, t, b, cap, &fr);
      compared++;
      if (sa != sf) {
        FAILF("map %d (%dx%d, terrain %d, %d moves) (%d,%d)->(%d,%d): A* %s, fringe %s", mapi,
              spec.width, spec.height, spec.terrain, o.moves, s.x, s.y, t.x, t.y,
              astar_strerror(sa), astar_strerror(sf));
        continue;
      }
      if (sf != ASTAR_OK) continue;
      found++;
      const double ref = ref_dijkstra(g, &o, s, t);
      if (!cost_equal(fr.cost, ar.cost) || !cost_equal(fr.cost, ref))
        FAILF("map %d (%d,%d)->(%d,%d): fringe %.17g, A* %.17g, Dijkstra %.17g", mapi, s.x, s.y,
              t.x, t.y, fr.cost, ar.cost, ref);
      char err[200];
      if (!validate_path(g, &o, s, t, b, fr.length, fr.cost, err, sizeof err))
        FAILF("map %d: %s", mapi, err);
      CHECK(fr.work >= fr.stats.expanded && fr.iterations >= 1);
      CHECK(fr.end.x == t.x && fr.end.y == t.y);
    }
    free(a);
    free(b);
    astar_finder_free(f);
    astar_workspace_free(ws);
    astar_workspace_free(ws2);
    astar_grid_free(g);
  }
  printf("random grids: %llu queries, %llu with a path\n", (unsigned long long)compared,
         (unsigned long long)found);
  CHECK(found > 500);
}

/* ---- Moving AI maps ---------------------------------------------------------------------- */

/* A sample of each scenario's queries against its optimal lengths. */
static void test_movingai(void) {
  const char *dir = getenv("ASTAR_MOVINGAI_DIR");
  if (!dir || strlen(dir) > 400) {
    printf("movingai: ASTAR_MOVINGAI_DIR not set, skipped\n");
    return;
  }
  static const char *const maps[] = {"dao/den312d.map", "dao/arena.map", "street/Berlin_0_256.map",
                                     "room/32room_000.map", "maze/maze512-1-0.map"};
  uint64_t compared = 0;
  for (size_t mi = 0; mi < sizeof maps / sizeof maps[0]; mi++) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, maps[mi]);
    size_t n = 0;
    char *text = test_slurp(path, &n);
    if (!text) {
      printf("movingai: %s missing, skipped\n", path);
      continue;
    }
    astar_grid *g = NULL;
    CHECKF(astar_movingai_parse_map(&g, text, n, NULL, NULL) == ASTAR_OK, "%s", path);
    free(text);
    snprintf(path, sizeof path, "%s/%s.scen", dir, maps[mi]);
    text = test_slurp(path, &n);
    astar_scen *sc = NULL;
    CHECKF(text && astar_movingai_parse_scen(&sc, text, n, NULL, NULL) == ASTAR_OK, "%s", path);
    free(text);
    if (!g || !sc) {
      astar_grid_free(g);
      astar_scen_free(sc);
      continue;
    }
    astar_finder *f = fringe_on(g, NULL);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    const size_t cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
    astar_point *path_buf = malloc(cap * sizeof *path_buf);
    const size_t total = astar_scen_count(sc), want = mi == 4 ? 6 : 24;
    for (size_t i = total / (2 * want); i < total && f && path_buf; i += total / want + 1) {
      const astar_scen_query *q = &astar_scen_queries(sc)[i];
      astar_path_result res;
      const astar_status st = astar_finder_find(f, ws, q->start, q->goal, path_buf, cap, &res);
      compared++;
      if (st != ASTAR_OK ||
          fabs(res.cost - q->optimal_length) > 1e-5 * fmax(1.0, q->optimal_length))
        FAILF("%s line %d: fringe %s cost %.9g, optimal %.9g", maps[mi], q->line,
              astar_strerror(st), res.cost, q->optimal_length);
    }
    free(path_buf);
    astar_workspace_free(ws);
    astar_finder_free(f);
    astar_scen_free(sc);
    astar_grid_free(g);
  }
  printf("movingai: %llu scenario queries\n", (unsigned long long)compared);
}

/* ---- a space of its own ------------------------------------------------------------------ */

/* A random directed graph with an admissible heuristic that is not
** consistent: h(a, b) is 0.9 of the true cost for odd a + b, 0 otherwise
** (the true costs to the query's goal, computed by the test). */
#define GN 300
#define GDEG 4
typedef struct graph {
  astar_node to[GN][GDEG];
  double cost[GN][GDEG];
  double dist[GN]; /* cost from each node to `goal` (INFINITY: none) */
  astar_node goal;
} graph;

static size_t g_succ(const void *self, astar_node n, astar_arc *arcs, size_t cap) {
  const graph *gr = self;
  size_t k = 0;
  for (size_t i = 0; i < GDEG && k < cap; i++)
    arcs[k++] = (astar_arc){gr->to[n][i], gr->cost[n][i]};
  return k;
}

static double g_h(const void *self, astar_node a, astar_node b) {
  const graph *gr = self;
  if (b != gr->goal || !isfinite(gr->dist[a])) return 0.0;
  return (a + b) % 2 ? 0.9 * gr->dist[a] : 0.0;
}

/* dist[] to gr->goal, by a plain quadratic Dijkstra over the reversed arcs. */
static void g_dist(graph *gr) {
  bool done[GN] = {false};
  for (int i = 0; i < GN; i++) gr->dist[i] = INFINITY;
  gr->dist[gr->goal] = 0.0;
  for (;;) {
    int v = -1;
    for (int i = 0; i < GN; i++)
      if (!done[i] && isfinite(gr->dist[i]) && (v < 0 || gr->dist[i] < gr->dist[v])) v = i;
    if (v < 0) break;
    done[v] = true;
    for (int u = 0; u < GN; u++)
      for (int k = 0; k < GDEG; k++)
        if (gr->to[u][k] == (astar_node)v && gr->dist[v] + gr->cost[u][k] < gr->dist[u])
          gr->dist[u] = gr->dist[v] + gr->cost[u][k];
  }
}

static const astar_space_ops graph_ops = {g_succ, NULL, g_h, NULL, NULL, NULL, 0};

static void test_space(void) {
  rng r;
  rng_seed(&r, 77);
  static graph gr;
  for (int i = 0; i < GN; i++)
    for (int k = 0; k < GDEG; k++) {
      gr.to[i][k] = (astar_node)rng_range(&r, 0, GN - 1);
      gr.cost[i][k] = 1.0 + (double)rng_range(&r, 0, 40) / 8.0;
    }
  const astar_space sp = {&graph_ops, &gr, GN, GDEG, ASTAR_SPACE_ADMISSIBLE};
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  astar_finder *f = NULL;
  CHECK(astar_finder_unsupported_reason(NULL, &sp, &c) == NULL);
  CHECK(astar_finder_new_space(&f, &sp, &c, NULL) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_node path[GN];
  int found = 0, reopened = 0;
  for (int q = 0; q < 120 && f; q++) {
    const astar_node s = (astar_node)rng_range(&r, 0, GN - 1);
    gr.goal = (astar_node)rng_range(&r, 0, GN - 1);
    g_dist(&gr);
    astar_path_result res;
    const astar_status st = astar_finder_find_nodes(f, ws, s, gr.goal, path, GN, &res);
    if (!isfinite(gr.dist[s])) {
      CHECKF(st == ASTAR_NO_PATH, "query %d: %s, no path expected", q, astar_strerror(st));
      continue;
    }
    found++;
    reopened += res.stats.reopened > 0;
    CHECKF(st == ASTAR_OK && fabs(res.cost - gr.dist[s]) <= 1e-9 * fmax(1.0, gr.dist[s]),
           "query %d: %s cost %.17g, optimal %.17g", q, astar_strerror(st), res.cost, gr.dist[s]);
    if (st != ASTAR_OK) continue;
    /* The path is a chain of arcs from s to the goal costing res.cost. */
    CHECK(path[0] == s && path[res.length - 1] == gr.goal && res.end_node == gr.goal);
    double sum = 0.0;
    for (size_t i = 1; i < res.length; i++) {
      double best = INFINITY;
      for (int k = 0; k < GDEG; k++)
        if (gr.to[path[i - 1]][k] == path[i] && gr.cost[path[i - 1]][k] < best)
          best = gr.cost[path[i - 1]][k];
      CHECK(isfinite(best));
      sum += best;
    }
    CHECK(fabs(sum - res.cost) <= 1e-9 * fmax(1.0, sum));
  }
  printf("space: %d paths, %d with nodes back in the fringe\n", found, reopened);
  CHECK(found > 50);
  /* A node out of range; cells on a space finder. */
  astar_path_result res;
  CHECK(astar_finder_find_nodes(f, ws, GN, 0, path, GN, &res) == ASTAR_OUT_OF_BOUNDS);
  astar_point cells[4];
  CHECK(astar_finder_find(f, ws, P(0, 0), P(1, 0), cells, 4, &res) == ASTAR_INVALID_ARGUMENT);
  astar_finder_free(f);
  astar_workspace_free(ws);
}

/* The grid finder and a finder over the grid as a space: the same nodes,
** counts and cost; a second run the same again (determinism). */
static void test_same_as_space(void) {
  rng r;
  rng_seed(&r, 11);
  randmap_spec spec = {48, 40, 0.3, 1, 0.5, 4.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  if (!g) return;
  astar_grid_space holder;
  astar_space sp;
  CHECK(astar_grid_space_init(&sp, &holder, g, NULL) == ASTAR_OK);
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  astar_finder *fg = NULL, *fs = NULL;
  CHECK(astar_finder_new(&fg, g, &c, NULL) == ASTAR_OK);
  CHECK(astar_finder_new_space(&fs, &sp, &c, NULL) == ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  static astar_point cells[SAME_CELLS], cells2[SAME_CELLS];
  static astar_node nodes[SAME_CELLS];
  for (int q = 0; q < 40 && fg && fs; q++) {
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_path_result a, a2, b;
    const astar_status sa = astar_finder_find(fg, ws, s, t, cells, SAME_CELLS, &a);
    const astar_status sa2 = astar_finder_find(fg, ws, s, t, cells2, SAME_CELLS, &a2);
    const astar_status sb =
        astar_finder_find_nodes(fs, ws, astar_grid_space_node(&holder, s),
                                astar_grid_space_node(&holder, t), nodes, SAME_CELLS, &b);
    CHECK(sa == sb && sa == sa2);
    CHECK(a.cost == b.cost && a.length == b.length && a.work == b.work &&
          a.stats.expanded == b.stats.expanded && a.stats.generated == b.stats.generated &&
          a.iterations == b.iterations);
    CHECK(a.cost == a2.cost && a.length == a2.length && a.work == a2.work &&
          a.stats.expanded == a2.stats.expanded);
    if (sa != ASTAR_OK) continue;
    CHECK(memcmp(cells, cells2, a.length * sizeof *cells) == 0);
    for (size_t i = 0; i < a.length; i++) {
      const astar_point p = astar_grid_space_cell(&holder, nodes[i]);
      CHECK(p.x == cells[i].x && p.y == cells[i].y);
    }
  }
  astar_finder_free(fg);
  astar_finder_free(fs);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* ---- refusals, limits, memory ------------------------------------------------------------- */

static bool stop_now(void *ctx) {
  (void)ctx;
  return true;
}
static void observe(void *ctx, const astar_event *e) {
  (void)ctx, (void)e;
}

static void test_refusals(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 30, 20, NULL) == ASTAR_OK);
  if (!g) return;
  astar_landmarks *lm = NULL;
  astar_options o0;
  astar_options_init(&o0);
  CHECK(astar_landmarks_new_grid(&lm, g, &o0, NULL, NULL) == ASTAR_OK);
  for (int k = 0; k < 7; k++) {
    astar_finder_config c;
    astar_finder_config_init(&c);
    c.method = ASTAR_METHOD_FRINGE;
    switch (k) {
    case 0:
      c.options.weight = 2.0;
      break;
    case 1:
      c.options.tie = ASTAR_TIE_NEWEST;
      break;
    case 2:
      c.options.partial = true;
      break;
    case 3:
      c.options.observer = observe;
      break;
    case 4:
      c.options.reopen = ASTAR_REOPEN_NEVER;
      break;
    case 5:
      c.options.turn_penalty = 1.0;
      break;
    default:
      c.landmarks = lm;
      break;
    }
    const char *why = astar_finder_unsupported_reason(g, NULL, &c);
    CHECKF(why != NULL, "case %d accepted", k);
    astar_finder *f = NULL;
    CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_UNSUPPORTED && !f);
  }
  /* A space finder's engine options. */
  astar_grid_space holder;
  astar_space sp;
  CHECK(astar_grid_space_init(&sp, &holder, g, NULL) == ASTAR_OK);
  for (int k = 0; k < 3; k++) {
    astar_finder_config c;
    astar_finder_config_init(&c);
    c.method = ASTAR_METHOD_FRINGE;
    if (k == 0) c.engine.partial = true;
    if (k == 1) c.engine.weight = 1.5;
    if (k == 2) c.engine.tie = ASTAR_TIE_NEWEST;
    CHECKF(astar_finder_unsupported_reason(NULL, &sp, &c) != NULL, "space case %d accepted", k);
    astar_finder *f = NULL;
    CHECK(astar_finder_new_space(&f, &sp, &c, NULL) == ASTAR_UNSUPPORTED && !f);
  }
  /* Invalid engine options on a space: invalid, not unsupported. */
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  c.engine.stop_fn = stop_now;
  c.engine.stop_interval = 0;
  astar_finder *f = NULL;
  CHECK(astar_finder_new_space(&f, &sp, &c, NULL) == ASTAR_INVALID_ARGUMENT && !f);

  /* max_expansions and stop_fn are honoured. */
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_point path[64];
  astar_path_result res;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  c.options.max_expansions = 5;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  CHECK(astar_finder_find(f, ws, P(0, 0), P(29, 19), path, 64, &res) == ASTAR_LIMIT_REACHED);
  CHECK(res.stats.expanded == 5 && res.length == 0);
  astar_finder_free(f);
  c.options.max_expansions = 0;
  c.options.stop_fn = stop_now;
  c.options.stop_interval = 3;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  CHECK(astar_finder_find(f, ws, P(0, 0), P(29, 19), path, 64, &res) == ASTAR_STOPPED);
  CHECK(res.stats.expanded == 3);
  astar_finder_free(f);
  /* Ends: outside, blocked. */
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  CHECK(astar_grid_set_passable(g, 3, 3, false) == ASTAR_OK);
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  CHECK(astar_finder_find(f, ws, P(-1, 0), P(2, 2), path, 64, &res) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_finder_find(f, ws, P(3, 3), P(2, 2), path, 64, &res) == ASTAR_START_BLOCKED);
  CHECK(astar_finder_find(f, ws, P(2, 2), P(3, 3), path, 64, &res) == ASTAR_GOAL_BLOCKED);
  CHECK(astar_finder_find(f, ws, P(2, 2), P(2, 2), path, 64, &res) == ASTAR_OK);
  CHECK(res.length == 1 && res.cost == 0.0 && res.stats.expanded == 0);
  CHECK(astar_finder_find(f, ws, P(0, 0), P(29, 19), path, 2, &res) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length == 30);
  astar_finder_free(f);
  astar_workspace_free(ws);
  astar_landmarks_free(lm);
  astar_grid_free(g);
}

/* After the workspace's first query, no query allocates: one-shot, sliced,
** another size of query, and a space finder of no more nodes. */
static void test_no_allocation(void) {
  rng r;
  rng_seed(&r, 5);
  randmap_spec spec = {64, 64, 0.25, 1, 0.5, 3.0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  if (!g) return;
  astar_finder *f = fringe_on(g, NULL);
  astar_grid_space holder;
  astar_space sp;
  CHECK(astar_grid_space_init(&sp, &holder, g, NULL) == ASTAR_OK);
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FRINGE;
  astar_finder *fs = NULL;
  CHECK(astar_finder_new_space(&fs, &sp, &c, NULL) == ASTAR_OK);
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator a = failalloc_allocator(&fa);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, &a) == ASTAR_OK);
  static astar_point path[NA_CELLS];
  static astar_node nodes[NA_CELLS];
  astar_path_result res;
  const astar_point s0 = randmap_passable_cell(g, &r), t0 = randmap_passable_cell(g, &r);
  (void)astar_finder_find(f, ws, s0, t0, path, NA_CELLS, &res);
  const long after_first = fa.requests;
  /* A space of the same size, and the first sliced search (whose begin
  ** grows the finder's path scratch, for every method), use what is there. */
  (void)astar_finder_find_nodes(fs, ws, astar_grid_space_node(&holder, t0),
                                astar_grid_space_node(&holder, s0), nodes, NA_CELLS, &res);
  CHECK(fa.requests == after_first);
  if (astar_finder_begin(f, ws, s0, t0) == ASTAR_OK)
    while (astar_finder_step(ws, 0, NULL) == ASTAR_IN_PROGRESS) {
    }
  (void)astar_finder_finish(ws, path, NA_CELLS, &res);
  const long warm = fa.requests;
  CHECK(after_first > 0);
  int found = 0;
  for (int q = 0; q < 30 && f && fs; q++) {
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    found += astar_finder_find(f, ws, s, t, path, NA_CELLS, &res) == ASTAR_OK;
    (void)astar_finder_find_nodes(fs, ws, astar_grid_space_node(&holder, s),
                                  astar_grid_space_node(&holder, t), nodes, NA_CELLS, &res);
    astar_status st = astar_finder_begin(f, ws, s, t);
    if (st == ASTAR_OK) do
        st = astar_finder_step(ws, 50, NULL);
      while (st == ASTAR_IN_PROGRESS);
    (void)astar_finder_finish(ws, path, NA_CELLS, &res);
  }
  CHECKF(fa.requests == warm, "%ld allocations after the first queries", fa.requests - warm);
  CHECK(found > 10);
  astar_workspace_free(ws);
  CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  /* Every allocation of the first query failing in turn: NO_MEMORY, then
  ** the same query succeeds on the same workspace. */
  for (long n = 1; n <= after_first + 1; n++) {
    failalloc_init(&fa);
    CHECK(astar_workspace_new_empty(&ws, &a) == ASTAR_OK);
    failalloc_fail_in(&fa, n);
    const astar_status st = astar_finder_find(f, ws, s0, t0, path, NA_CELLS, &res);
    CHECK(st == ASTAR_OK || st == ASTAR_NO_MEMORY || st == ASTAR_NO_PATH);
    fa.fail_at = 0;
    const astar_status again = astar_finder_find(f, ws, s0, t0, path, NA_CELLS, &res);
    CHECK(again != ASTAR_NO_MEMORY);
    astar_workspace_free(ws);
    CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  }
  astar_finder_free(f);
  astar_finder_free(fs);
  astar_grid_free(g);
}

static void test_table(void) {
  const astar_method_info *info = astar_method_info_of(ASTAR_METHOD_FRINGE);
  CHECK(info && strcmp(info->name, "fringe") == 0 && info->method == ASTAR_METHOD_FRINGE);
  CHECK(info && (info->flags & ASTAR_MF_OPTIMAL) && (info->flags & ASTAR_MF_SPACE) &&
        (info->flags & ASTAR_MF_SLICED));
  astar_method m = ASTAR_METHOD_ASTAR;
  CHECK(astar_method_from_name("fringe", &m) == ASTAR_OK && m == ASTAR_METHOD_FRINGE);
  CHECK(astar_method_name(ASTAR_METHOD_FRINGE) && strcmp(astar_method_name(m), "fringe") == 0);
}

int main(void) {
  RUN(test_table);
  RUN(test_random_grids);
  RUN(test_movingai);
  RUN(test_space);
  RUN(test_same_as_space);
  RUN(test_refusals);
  RUN(test_no_allocation);
  return check_summary();
}
