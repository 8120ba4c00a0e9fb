/*
** test_variants.c -- the variants of Patel's section 4 in the search engine
** (astar/engine.h): IDA*, beam search, dynamic weighting, bandwidth search,
** front-to-front and retargeting bidirectional search. Each against a
** plain Dijkstra on seeded random directed graphs (zero-cost arcs, one-way
** arcs, unreachable parts, consistent and merely admissible heuristics),
** on random grids as spaces and on the 8-puzzle as an implicit space
** (against a breadth-first search over all its boards), each held to its
** guarantee: the optimal ones exact, the bounded ones within their bound,
** the ones that may fail (beam) counted, every path checked arc by arc.
** Bandwidth search with a heuristic made from the true distances plus
** noise inside its band; sliced == one-shot for every method; observer
** events against the statistics; options, capacity and faults; no
** allocation while searching.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define NMETHODS ASTAR_METHOD_ENGINE_COUNT
static const astar_method variants[] = {
    ASTAR_METHOD_IDA,       ASTAR_METHOD_BEAM,           ASTAR_METHOD_DYNAMIC,
    ASTAR_METHOD_BANDWIDTH, ASTAR_METHOD_FRONT_TO_FRONT, ASTAR_METHOD_RETARGETING};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* ---- a random directed graph (as in test_engine.c) ------------------------- */

#define MAXN 400
#define MAXDEG 6
#define MAXIN 64

typedef struct rgraph {
  uint32_t n;
  uint32_t deg[MAXN];
  astar_arc out[MAXN][MAXDEG];
  uint32_t indeg[MAXN];
  astar_arc in[MAXN][MAXIN];
  double x[MAXN], y[MAXN]; /* positions: Euclidean heuristic */
  double lam[MAXN];        /* per-node factor in [0, 1]: admissible, maybe inconsistent */
  double hscale;           /* 0 with free arcs */
  bool jittered;           /* lam[] not all 1: the heuristic may be inconsistent */
  bool blocked[MAXN];
  /* Bandwidth tests: h(v, goal) = table[v] when table_goal == goal. */
  const double *table;
  astar_node table_goal;
  int bad; /* 1: successors return an out-of-range node */
} rgraph;

static size_t rg_succ(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const rgraph *g = self;
  size_t n = g->deg[v] < cap ? g->deg[v] : cap;
  for (size_t i = 0; i < n; i++) arcs[i] = g->out[v][i];
  if (g->bad == 1 && n) arcs[0].node = g->n + 5;
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
  if (g->table) return b == g->table_goal ? g->table[a] : 0.0;
  const double dx = g->x[a] - g->x[b], dy = g->y[a] - g->y[b];
  return g->hscale * g->lam[a] * sqrt(dx * dx + dy * dy);
}

static bool rg_usable(const void *self, astar_node v) {
  const rgraph *g = self;
  return !g->blocked[v];
}

static const astar_space_ops rg_ops = {rg_succ, rg_pred, rg_h, rg_usable, NULL, NULL, 0};

/* Arc costs at least the Euclidean distance (or 0 for free arcs, then h =
** 0); with `jitter` each node's h is scaled by a factor in [0, 1]. */
static void rg_make(rgraph *g, rng *r, uint32_t n, bool free_arcs, bool jitter) {
  memset(g, 0, sizeof *g);
  g->n = n;
  for (uint32_t v = 0; v < n; v++) {
    g->x[v] = rng_unit(r) * 100.0;
    g->y[v] = rng_unit(r) * 100.0;
    g->blocked[v] = rng_range(r, 0, 19) == 0;
    g->lam[v] = jitter ? rng_unit(r) : 1.0;
  }
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t deg = (uint32_t)rng_range(r, 0, MAXDEG);
    for (uint32_t k = 0; k < deg; k++) {
      const astar_node u = (astar_node)rng_range(r, 0, (int32_t)n - 1);
      if (u == v || g->indeg[u] == MAXIN) continue;
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
  g->jittered = jitter;
}

static astar_space rg_space(const rgraph *g) {
  const bool consistent = g->hscale == 0.0 || !g->jittered;
  astar_space s = {&rg_ops, g, g->n, MAXIN,
                   ASTAR_SPACE_ADMISSIBLE | (consistent ? ASTAR_SPACE_CONSISTENT : 0u)};
  return s;
}

/* Dijkstra from s (forward) or to s (backward, over predecessors): every
** distance into dist[] (INFINITY: unreachable). */
static void rg_dijkstra_all(const rgraph *g, astar_node s, bool backward, double *dist) {
  static bool done[MAXN];
  for (uint32_t v = 0; v < g->n; v++) dist[v] = INFINITY, done[v] = false;
  dist[s] = 0;
  for (;;) {
    uint32_t u = MAXN;
    for (uint32_t v = 0; v < g->n; v++)
      if (!done[v] && dist[v] < INFINITY && (u == MAXN || dist[v] < dist[u])) u = v;
    if (u == MAXN) return;
    done[u] = true;
    const uint32_t deg = backward ? g->indeg[u] : g->deg[u];
    for (uint32_t i = 0; i < deg; i++) {
      const astar_arc *a = backward ? &g->in[u][i] : &g->out[u][i];
      if (dist[u] + a->cost < dist[a->node]) dist[a->node] = dist[u] + a->cost;
    }
  }
}

/* The optimal cost from s to t; -1 when unreachable. */
static double rg_dijkstra(const rgraph *g, astar_node s, astar_node t) {
  static double dist[MAXN];
  rg_dijkstra_all(g, s, false, dist);
  return dist[t] < INFINITY ? dist[t] : -1;
}

/* A walk of arcs from s to t whose costs add up to the claimed cost. */
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
  astar_grid *tiny;
  astar_workspace *ws = NULL;
  if (astar_grid_new(&tiny, 1, 1, NULL) != ASTAR_OK) return NULL;
  if (astar_workspace_new(&ws, tiny, NULL) != ASTAR_OK) ws = NULL;
  astar_grid_free(tiny);
  if (ws && astar_workspace_reserve_space(ws, s, ASTAR_RESERVE_FRONT_TO_FRONT) != ASTAR_OK) {
    astar_workspace_free(ws);
    ws = NULL;
  }
  return ws;
}

/* ---- the guarantees ------------------------------------------------------------ */

/* What each method did over a test: queries with a path, exact answers,
** misses (beam), the worst cost ratio, drops. */
typedef struct tally {
  long paths[NMETHODS], exact[NMETHODS], missed[NMETHODS], unreachable[NMETHODS];
  double worst[NMETHODS];
  uint64_t dropped[NMETHODS], iterations[NMETHODS];
} tally;

static bool near(double a, double b) {
  return fabs(a - b) <= 1e-9 * (1 + fabs(b));
}

/* Hold one outcome to its method's promise: ref is the optimal cost (-1:
** unreachable), `valid` whether the path checked out. */
static void judge(tally *t, const astar_engine_options *o, astar_status st,
                  const astar_engine_result *res, double ref, bool valid, const char *where) {
  const astar_method m = o->method;
  const char *name = astar_method_name(m);
  t->dropped[m] += res->dropped;
  t->iterations[m] += res->iterations;
  if (ref < 0) {
    CHECKF(st == ASTAR_NO_PATH, "%s %s: status %d for no path", name, where, (int)st);
    t->unreachable[m]++;
    return;
  }
  if (m == ASTAR_METHOD_BEAM && st == ASTAR_NO_PATH) {
    /* Allowed only when the beam dropped something. */
    CHECKF(res->dropped > 0, "beam %s: no path, nothing dropped", where);
    t->missed[m]++;
    return;
  }
  CHECKF(st == ASTAR_OK, "%s %s: status %d (optimal %.9g)", name, where, (int)st, ref);
  if (st != ASTAR_OK) return;
  CHECKF(valid, "%s %s: invalid path", name, where);
  t->paths[m]++;
  CHECKF(res->cost >= ref - 1e-9 * (1 + ref), "%s %s: %.9g below the optimum %.9g", name, where,
         res->cost, ref);
  double bound = INFINITY;
  switch (m) {
  case ASTAR_METHOD_IDA:
  case ASTAR_METHOD_FRONT_TO_FRONT:
    bound = ref;
    break;
  case ASTAR_METHOD_BEAM:
    if (res->dropped == 0) bound = ref; /* it was A* */
    break;
  case ASTAR_METHOD_DYNAMIC: /* without reopening: consistent heuristics only */
    bound = (1 + (o->reopen == ASTAR_REOPEN_NEVER ? 2 : 1) * o->epsilon) * ref;
    break;
  case ASTAR_METHOD_BANDWIDTH:
    bound = ref + o->band_e;
    break;
  default:
    break;
  }
  CHECKF(res->cost <= bound + 1e-9 * (1 + bound), "%s %s: cost %.9g above its bound %.9g", name,
         where, res->cost, bound);
  if (near(res->cost, ref)) t->exact[m]++;
  const double ratio = ref > 0 ? res->cost / ref : 1.0;
  if (ratio > t->worst[m]) t->worst[m] = ratio;
}

/* Options for method m with settings drawn from r. */
static void variant_options(astar_engine_options *o, astar_method m, rng *r) {
  astar_engine_options_init(o);
  o->method = m;
  o->tie = rng_range(r, 0, 1) ? ASTAR_TIE_LARGER_G : ASTAR_TIE_NEWEST;
  static const uint32_t widths[] = {1, 2, 3, 5, 8, 16, 64, 1024};
  static const double eps[] = {0.25, 0.5, 1.0, 2.0, 4.0};
  o->beam_width = widths[rng_range(r, 0, 7)];
  o->epsilon = eps[rng_range(r, 0, 4)];
  o->band_e = 0.0; /* an admissible heuristic: within [h* - d, h*] for d large */
  o->band_d = 1e6;
  o->retarget_interval = (uint32_t)rng_range(r, 1, 40);
  o->ida_transpositions = true;
}

static void report(const char *what, const tally *t) {
  printf("  %s:\n", what);
  for (size_t i = 0; i < NVARIANTS; i++) {
    const astar_method m = variants[i];
    if (!t->paths[m] && !t->missed[m] && !t->unreachable[m]) continue;
    printf("    %-15s paths %5ld exact %5ld missed %4ld unreachable %4ld worst ratio %.4f "
           "dropped %llu iterations %llu\n",
           astar_method_name(m), t->paths[m], t->exact[m], t->missed[m], t->unreachable[m],
           t->worst[m], (unsigned long long)t->dropped[m], (unsigned long long)t->iterations[m]);
  }
}

/* ---- random graphs --------------------------------------------------------------- */

static void test_random_graphs(void) {
  static rgraph g;
  static astar_node path[MAXN];
  static tally t;
  memset(&t, 0, sizeof t);
  rng r;
  rng_seed(&r, 4711);
  for (int m = 0; m < 300; m++) {
    const int kind = m % 3; /* 0 consistent, 1 free arcs (h = 0), 2 admissible only */
    rg_make(&g, &r, (uint32_t)rng_range(&r, 2, m % 5 == 0 ? MAXN : 120), kind == 1, kind == 2);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    CHECK(ws != NULL);
    if (!ws) return;
    for (int q = 0; q < 6; q++) {
      const astar_node s = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      const astar_node d = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      if (g.blocked[s] || g.blocked[d]) continue;
      const double ref = rg_dijkstra(&g, s, d);
      for (size_t i = 0; i < NVARIANTS; i++) {
        astar_engine_options o;
        variant_options(&o, variants[i], &r);
        /* IDA* on small graphs only: with real-valued costs it runs an
        ** iteration per distinct f below C* (thousands on 300 nodes);
        ** without transpositions its work grows with the number of paths:
        ** on 23 nodes with an admissible but inconsistent heuristic, 2.4e9
        ** expansions (86 s), hence at most 16 nodes then. */
        if (o.method == ASTAR_METHOD_IDA && g.n > 80) continue;
        if (o.method == ASTAR_METHOD_IDA && g.n <= 16) o.ida_transpositions = rng_range(&r, 0, 1);
        if (o.method == ASTAR_METHOD_DYNAMIC && (sp.flags & ASTAR_SPACE_CONSISTENT) &&
            rng_range(&r, 0, 1))
          o.reopen = ASTAR_REOPEN_NEVER; /* the looser bound */
        astar_engine_result res;
        const astar_status st = astar_space_find_path(ws, &sp, &o, s, d, path, MAXN, &res);
        char where[64];
        snprintf(where, sizeof where, "graph %d query %d", m, q);
        judge(&t, &o, st, &res, ref,
              st == ASTAR_OK && rg_valid(&g, path, res.length, s, d, res.cost), where);
        if (o.method == ASTAR_METHOD_BEAM)
          CHECKF(res.stats.max_open <= o.beam_width, "beam open list %llu > %u",
                 (unsigned long long)res.stats.max_open, o.beam_width);
        if (o.method == ASTAR_METHOD_IDA && st == ASTAR_OK) CHECK(s == d || res.iterations >= 1);
      }
    }
    astar_workspace_free(ws);
  }
  report("random graphs", &t);
  for (size_t i = 0; i < NVARIANTS; i++) CHECK(t.paths[variants[i]] > 500);
  CHECK(t.unreachable[ASTAR_METHOD_IDA] > 50 && t.unreachable[ASTAR_METHOD_RETARGETING] > 50);
  CHECK(t.missed[ASTAR_METHOD_BEAM] > 0 && t.dropped[ASTAR_METHOD_BEAM] > 0);
  CHECK(t.exact[ASTAR_METHOD_IDA] == t.paths[ASTAR_METHOD_IDA]);
  CHECK(t.exact[ASTAR_METHOD_FRONT_TO_FRONT] == t.paths[ASTAR_METHOD_FRONT_TO_FRONT]);
  CHECK(t.worst[ASTAR_METHOD_DYNAMIC] > 1.0); /* the weighting did something */
  CHECK(t.worst[ASTAR_METHOD_RETARGETING] > 1.0);
}

/* ---- bandwidth search with a heuristic inside its band --------------------------- */

/* h = the true distance to the goal plus noise in [-d, +e] (clamped at 0):
** the cost stays within C* + e and nodes outside the band are dropped. */
static void test_bandwidth_band(void) {
  static rgraph g;
  static astar_node path[MAXN];
  static double hstar[MAXN], table[MAXN];
  static tally t;
  memset(&t, 0, sizeof t);
  rng r;
  rng_seed(&r, 99);
  long queries = 0, pruned = 0, worse = 0;
  for (int m = 0; m < 150; m++) {
    rg_make(&g, &r, (uint32_t)rng_range(&r, 20, MAXN), m % 4 == 0, false);
    for (uint32_t v = 0; v < g.n; v++) g.blocked[v] = false;
    astar_space sp = rg_space(&g);
    sp.flags = 0; /* the noisy heuristic is neither admissible nor consistent */
    astar_workspace *ws = ws_for(&sp);
    if (!ws) return;
    for (int q = 0; q < 5; q++) {
      const astar_node s = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      const astar_node d = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      const double e = (double)rng_range(&r, 0, 40), dd = (double)rng_range(&r, 0, 40);
      rg_dijkstra_all(&g, d, true, hstar);
      for (uint32_t v = 0; v < g.n; v++) {
        const double noise = -dd + rng_unit(&r) * (e + dd);
        /* From a node that cannot reach the goal any value is in the band. */
        const double h = hstar[v] < INFINITY ? hstar[v] + noise : rng_unit(&r) * 200.0;
        table[v] = h > 0 ? h : 0;
      }
      g.table = table;
      g.table_goal = d;
      const double ref = hstar[s] < INFINITY ? hstar[s] : -1;
      astar_engine_options o;
      astar_engine_options_init(&o);
      o.method = ASTAR_METHOD_BANDWIDTH;
      o.band_e = e;
      o.band_d = dd;
      astar_engine_result res;
      const astar_status st = astar_space_find_path(ws, &sp, &o, s, d, path, MAXN, &res);
      judge(&t, &o, st, &res, ref, st == ASTAR_OK && rg_valid(&g, path, res.length, s, d, res.cost),
            "band");
      queries++;
      pruned += res.dropped > 0;
      worse += st == ASTAR_OK && res.cost > ref + 1e-9 * (1 + ref);
      /* With the band as wide as the heuristic's error and nothing to
      ** drop, the same bound. */
      g.table = NULL;
    }
    astar_workspace_free(ws);
  }
  report("bandwidth, heuristic inside the band", &t);
  printf("    %ld queries, %ld pruned something, %ld paths above the optimum\n", queries, pruned,
         worse);
  CHECK(pruned > queries / 4);
  CHECK(t.paths[ASTAR_METHOD_BANDWIDTH] > 300);
}

/* ---- grids as spaces ---------------------------------------------------------------- */

static void test_grid_space(void) {
  rng r;
  rng_seed(&r, 2024);
  static astar_node path[32 * 32];
  static astar_point cells[32 * 32];
  static tally t;
  memset(&t, 0, sizeof t);
  for (int m = 0; m < 80; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, m % 4 == 0 ? 32 : 14, 1);
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
    CHECK(astar_workspace_reserve_space(ws, &sp, ASTAR_RESERVE_FRONT_TO_FRONT) == ASTAR_OK);
    const bool small = spec.width * spec.height <= 14 * 14;
    for (int q = 0; q < 5; q++) {
      const astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
      if (a.x < 0) break;
      const double ref = ref_dijkstra(g, &o, a, b);
      for (size_t i = 0; i < NVARIANTS; i++) {
        astar_engine_options eo;
        variant_options(&eo, variants[i], &r);
        /* IDA* on grids: one iteration per distinct f; small maps only. */
        if (eo.method == ASTAR_METHOD_IDA && !small) continue;
        if (eo.method == ASTAR_METHOD_DYNAMIC && rng_range(&r, 0, 1))
          eo.reopen = ASTAR_REOPEN_NEVER; /* the grid's heuristic is consistent */
        astar_engine_result res;
        const astar_status st =
            astar_space_find_path(ws, &sp, &eo, astar_grid_space_node(&holder, a),
                                  astar_grid_space_node(&holder, b), path, (size_t)32 * 32, &res);
        char err[200] = "";
        bool valid = false;
        if (st == ASTAR_OK) {
          for (size_t k = 0; k < res.length; k++)
            cells[k] = astar_grid_space_cell(&holder, path[k]);
          valid = validate_path(g, &o, a, b, cells, res.length, res.cost, err, sizeof err);
        }
        char where[256];
        snprintf(where, sizeof where, "grid map %d query %d %s", m, q, err);
        judge(&t, &eo, st, &res, ref, valid, where);
      }
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  report("grids as spaces", &t);
  for (size_t i = 0; i < NVARIANTS; i++) CHECK(t.paths[variants[i]] > 100);
  CHECK(t.exact[ASTAR_METHOD_IDA] == t.paths[ASTAR_METHOD_IDA]);
  CHECK(t.exact[ASTAR_METHOD_FRONT_TO_FRONT] == t.paths[ASTAR_METHOD_FRONT_TO_FRONT]);
}

/* ---- the 8-puzzle (implicit space) ----------------------------------------------- */

#define SOLVED UINT64_C(0x087654321) /* cells 0..7 hold 1..8, cell 8 the blank */

static int tile(uint64_t b, int i) {
  return (int)((b >> (4 * i)) & 15u);
}

static int blank(uint64_t b) {
  for (int i = 0; i < 9; i++)
    if (tile(b, i) == 0) return i;
  return -1;
}

static uint64_t swap(uint64_t b, int i, int j) {
  const uint64_t ti = (uint64_t)tile(b, i), tj = (uint64_t)tile(b, j);
  b &= ~((UINT64_C(15) << (4 * i)) | (UINT64_C(15) << (4 * j)));
  return b | ti << (4 * j) | tj << (4 * i);
}

static size_t puzzle_succ(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap) {
  (void)ctx;
  const int z = blank(s), x = z % 3, y = z / 3;
  size_t n = 0;
  const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int d = 0; d < 4 && n < cap; d++) {
    const int nx = x + dx[d], ny = y + dy[d];
    if (nx < 0 || nx > 2 || ny < 0 || ny > 2) continue;
    arcs[n].state = swap(s, z, ny * 3 + nx);
    arcs[n].cost = 1.0;
    n++;
  }
  return n;
}

/* Manhattan distance between two boards: admissible and consistent. */
static double puzzle_h(void *ctx, astar_state a, astar_state b) {
  (void)ctx;
  int where[16];
  for (int i = 0; i < 9; i++) where[tile(b, i)] = i;
  int d = 0;
  for (int i = 0; i < 9; i++) {
    const int t = tile(a, i);
    if (t == 0) continue;
    const int j = where[t];
    d += abs(i % 3 - j % 3) + abs(i / 3 - j / 3);
  }
  return d;
}

#define TABLE (1u << 19)
static uint64_t bfs_key[TABLE];
static int8_t bfs_dist[TABLE];
static uint64_t queue_[181440];

static uint32_t slot_of(uint64_t k) {
  uint32_t i = (uint32_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 45) & (TABLE - 1);
  while (bfs_dist[i] >= 0 && bfs_key[i] != k) i = (i + 1) & (TABLE - 1);
  return i;
}

static void bfs_all(void) {
  memset(bfs_dist, -1, sizeof bfs_dist);
  size_t head = 0, tail = 0;
  const uint32_t s = slot_of(SOLVED);
  bfs_key[s] = SOLVED;
  bfs_dist[s] = 0;
  queue_[tail++] = SOLVED;
  while (head < tail) {
    const uint64_t b = queue_[head++];
    const int d = bfs_dist[slot_of(b)];
    astar_state_arc arcs[4];
    const size_t n = puzzle_succ(NULL, b, arcs, 4);
    for (size_t i = 0; i < n; i++) {
      const uint32_t k = slot_of(arcs[i].state);
      if (bfs_dist[k] >= 0) continue;
      bfs_key[k] = arcs[i].state;
      bfs_dist[k] = (int8_t)(d + 1);
      queue_[tail++] = arcs[i].state;
    }
  }
}

static const astar_implicit_ops puzzle_ops = {puzzle_succ, puzzle_succ, puzzle_h, NULL};

static astar_workspace *puzzle_ws(uint32_t states) {
  astar_grid *tiny;
  astar_workspace *ws = NULL;
  if (astar_grid_new(&tiny, 1, 1, NULL) != ASTAR_OK) return NULL;
  if (astar_workspace_new(&ws, tiny, NULL) != ASTAR_OK) ws = NULL;
  astar_grid_free(tiny);
  if (ws &&
      astar_workspace_reserve_states(ws, states, 4, ASTAR_RESERVE_FRONT_TO_FRONT) != ASTAR_OK) {
    astar_workspace_free(ws);
    ws = NULL;
  }
  return ws;
}

static uint64_t scramble(rng *r, int steps) {
  uint64_t b = SOLVED;
  for (int i = 0; i < steps; i++) {
    astar_state_arc arcs[4];
    const size_t n = puzzle_succ(NULL, b, arcs, 4);
    b = arcs[rng_range(r, 0, (int32_t)n - 1)].state;
  }
  return b;
}

static bool legal_moves(const astar_state *path, size_t n, uint64_t start) {
  if (n == 0 || path[0] != start || path[n - 1] != SOLVED) return false;
  for (size_t i = 1; i < n; i++) {
    astar_state_arc arcs[4];
    const size_t k = puzzle_succ(NULL, path[i - 1], arcs, 4);
    bool legal = false;
    for (size_t j = 0; j < k; j++) legal |= arcs[j].state == path[i];
    if (!legal) return false;
  }
  return true;
}

static void test_puzzle(void) {
  bfs_all();
  astar_workspace *ws = puzzle_ws(181440);
  CHECK(ws != NULL);
  if (!ws) return;
  const astar_implicit sp = {&puzzle_ops, NULL, 4, ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT};
  rng r;
  rng_seed(&r, 808);
  static astar_state path[4096];
  static tally t;
  memset(&t, 0, sizeof t);
  for (int q = 0; q < 40; q++) {
    const uint64_t start = scramble(&r, rng_range(&r, 0, q < 30 ? 60 : 400));
    const int want = bfs_dist[slot_of(start)];
    for (size_t i = 0; i < NVARIANTS; i++) {
      astar_engine_options o;
      variant_options(&o, variants[i], &r);
      o.ida_transpositions = q % 2 == 0; /* plain IDA* is at home on puzzles */
      /* front-to-front pays a frontier per node: moderate depths only */
      if (o.method == ASTAR_METHOD_FRONT_TO_FRONT && want > 20) continue;
      astar_engine_result res;
      const astar_status st =
          astar_implicit_find_path(ws, &sp, &o, start, SOLVED, path, 4096, &res);
      char where[64];
      snprintf(where, sizeof where, "board %d (%d moves)", q, want);
      judge(&t, &o, st, &res, want,
            st == ASTAR_OK && legal_moves(path, res.length, start) &&
                res.cost == (double)(res.length - 1),
            where);
    }
  }
  report("8-puzzle", &t);
  CHECK(t.paths[ASTAR_METHOD_IDA] == 40 && t.exact[ASTAR_METHOD_IDA] == 40);
  CHECK(t.exact[ASTAR_METHOD_FRONT_TO_FRONT] == t.paths[ASTAR_METHOD_FRONT_TO_FRONT]);
  CHECK(t.paths[ASTAR_METHOD_FRONT_TO_FRONT] > 20);
  CHECK(t.paths[ASTAR_METHOD_RETARGETING] == 40 && t.paths[ASTAR_METHOD_DYNAMIC] == 40);
  astar_workspace_free(ws);

  /* A table too small for IDA*'s states: ASTAR_CAPACITY, nothing written. */
  ws = puzzle_ws(50);
  if (!ws) return;
  astar_engine_options o;
  astar_engine_options_init(&o);
  o.method = ASTAR_METHOD_IDA;
  astar_engine_result res;
  rng_seed(&r, 3);
  CHECK(astar_implicit_find_path(ws, &sp, &o, scramble(&r, 80), SOLVED, path, 4096, &res) ==
        ASTAR_CAPACITY);
  CHECK(res.length == 0);
  astar_workspace_free(ws);
}

/* ---- sliced == one-shot ----------------------------------------------------------- */

static void test_sliced(void) {
  static rgraph g;
  static astar_node p1[MAXN], p2[MAXN];
  rng r;
  rng_seed(&r, 313);
  int compared = 0;
  for (int m = 0; m < 60; m++) {
    rg_make(&g, &r, 200, m % 3 == 1, m % 3 == 2);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    if (!ws) return;
    for (int q = 0; q < 4; q++) {
      const astar_node s = (astar_node)rng_range(&r, 0, 199), d = (astar_node)rng_range(&r, 0, 199);
      for (size_t i = 0; i < NVARIANTS; i++) {
        astar_engine_options o;
        variant_options(&o, variants[i], &r);
        o.partial = rng_range(&r, 0, 1);
        if (o.method == ASTAR_METHOD_IDA) o.max_expansions = 20000; /* many iterations */
        if (rng_range(&r, 0, 3) == 0) o.max_expansions = (uint64_t)rng_range(&r, 1, 30);
        astar_engine_result a, b;
        memset(&b, 0, sizeof b);
        const astar_status st1 = astar_space_find_path(ws, &sp, &o, s, d, p1, MAXN, &a);
        astar_status st = astar_space_search_begin(ws, &sp, &o, s, d);
        astar_status st2 = st;
        if (st == ASTAR_OK) {
          uint64_t got, total = 0;
          while ((st = astar_space_search_step(ws, (uint64_t)rng_range(&r, 1, 7), &got)) ==
                 ASTAR_IN_PROGRESS)
            total += got;
          total += got;
          st2 = astar_space_search_finish(ws, p2, MAXN, &b);
          CHECK(total == b.stats.expanded);
        }
        CHECKF(st1 == st2, "%s: sliced %d vs one-shot %d", astar_method_name(o.method), (int)st2,
               (int)st1);
        if (st1 != st2 || st == ASTAR_INVALID_ARGUMENT) continue;
        if (st2 == ASTAR_START_BLOCKED || st2 == ASTAR_GOAL_BLOCKED) continue;
        CHECK(a.cost == b.cost && a.length == b.length && a.cause == b.cause);
        CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
        CHECK(a.dropped == b.dropped && a.iterations == b.iterations && a.meet == b.meet);
        if (st1 == ASTAR_OK || st1 == ASTAR_PARTIAL)
          CHECK(memcmp(p1, p2, a.length * sizeof *p1) == 0);
        if (st1 == ASTAR_PARTIAL) {
          /* partial paths: the methods with one open list only */
          CHECK(o.method == ASTAR_METHOD_BEAM || o.method == ASTAR_METHOD_DYNAMIC ||
                o.method == ASTAR_METHOD_BANDWIDTH);
          CHECK(rg_valid(&g, p1, a.length, s, a.end, a.cost));
        }
        if (st1 == ASTAR_LIMIT_REACHED) CHECK(a.stats.expanded == o.max_expansions);
        compared++;
      }
    }
    astar_workspace_free(ws);
  }
  CHECK(compared > 1000);
}

/* ---- observer ------------------------------------------------------------------- */

typedef struct events {
  uint64_t n[16];
  double goal_g, meet_g;
  bool order_ok;
  uint8_t seen[MAXN];
} events;

static void count_event(void *ctx, const astar_engine_event *e) {
  events *t = ctx;
  if ((unsigned)e->type >= 16) {
    t->order_ok = false;
    return;
  }
  t->n[e->type]++;
  switch (e->type) {
  case ASTAR_EVENT_PUSH:
  case ASTAR_EVENT_IMPROVE:
  case ASTAR_EVENT_REOPEN:
    t->seen[e->node] |= (uint8_t)(1u << e->side);
    break;
  case ASTAR_EVENT_EXPAND:
    if (!(t->seen[e->node] & (1u << e->side))) t->order_ok = false;
    break;
  case ASTAR_EVENT_GOAL:
    t->goal_g = e->g;
    break;
  case ASTAR_EVENT_MEET:
    t->meet_g = e->g;
    break;
  case ASTAR_EVENT_SCAN:
    t->order_ok = false; /* a grid-only event */
    break;
  default:
    break;
  }
}

static void test_observer(void) {
  static rgraph g;
  static astar_node path[MAXN];
  static events t;
  rng r;
  rng_seed(&r, 31);
  int checked = 0;
  for (int m = 0; m < 60; m++) {
    rg_make(&g, &r, 60, false, m % 2 == 1);
    const astar_space sp = rg_space(&g);
    astar_workspace *ws = ws_for(&sp);
    if (!ws) return;
    for (size_t i = 0; i < NVARIANTS; i++) {
      const astar_node s = (astar_node)rng_range(&r, 0, 59), d = (astar_node)rng_range(&r, 0, 59);
      memset(&t, 0, sizeof t);
      t.order_ok = true;
      astar_engine_options o;
      variant_options(&o, variants[i], &r);
      o.observer = count_event;
      o.observer_ctx = &t;
      astar_engine_result res, plain;
      const astar_status st = astar_space_find_path(ws, &sp, &o, s, d, path, MAXN, &res);
      o.observer = NULL;
      const astar_status st2 = astar_space_find_path(ws, &sp, &o, s, d, path, MAXN, &plain);
      CHECK(st == st2 && res.stats.expanded == plain.stats.expanded && res.cost == plain.cost &&
            res.dropped == plain.dropped && res.iterations == plain.iterations);
      if (st != ASTAR_OK && st != ASTAR_NO_PATH) continue;
      if (s == d) continue;
      const astar_method me = o.method;
      const bool two = me == ASTAR_METHOD_FRONT_TO_FRONT || me == ASTAR_METHOD_RETARGETING;
      CHECKF(t.order_ok, "%s: event order", astar_method_name(me));
      CHECK(t.n[ASTAR_EVENT_GOAL] == (st == ASTAR_OK ? 1u : 0u));
      /* One-sided methods count the goal's expansion in GOAL. */
      CHECKF(t.n[ASTAR_EVENT_EXPAND] + (!two && st == ASTAR_OK) == res.stats.expanded,
             "%s: %llu expand events, %llu expanded", astar_method_name(me),
             (unsigned long long)t.n[ASTAR_EVENT_EXPAND], (unsigned long long)res.stats.expanded);
      CHECK(t.n[ASTAR_EVENT_PUSH] + t.n[ASTAR_EVENT_IMPROVE] + t.n[ASTAR_EVENT_REOPEN] ==
            res.stats.generated);
      CHECK(t.n[ASTAR_EVENT_REOPEN] == res.stats.reopened);
      CHECK(t.n[ASTAR_EVENT_DROP] == res.dropped);
      if (me == ASTAR_METHOD_IDA) CHECK(t.n[ASTAR_EVENT_ITERATION] + 1 == res.iterations);
      if (me == ASTAR_METHOD_RETARGETING) CHECK(t.n[ASTAR_EVENT_ITERATION] == res.iterations);
      if (me != ASTAR_METHOD_IDA && me != ASTAR_METHOD_RETARGETING)
        CHECK(t.n[ASTAR_EVENT_ITERATION] == 0);
      CHECK(two ? t.n[ASTAR_EVENT_MEET] >= (st == ASTAR_OK) : t.n[ASTAR_EVENT_MEET] == 0);
      if (st == ASTAR_OK) {
        if (res.stats.reopened == 0)
          CHECKF(near(t.goal_g, res.cost), "%s: goal g %.9g cost %.9g", astar_method_name(me),
                 t.goal_g, res.cost);
        if (two) CHECK(t.meet_g == t.goal_g);
        checked++;
      }
    }
    astar_workspace_free(ws);
  }
  CHECK(checked > 150);
}

/* ---- options, capacity, faults ------------------------------------------------------ */

static void test_options_and_faults(void) {
  static rgraph g;
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 3);
  rg_make(&g, &r, 100, false, false);
  for (uint32_t v = 0; v < g.n; v++) g.blocked[v] = false;
  const astar_space sp = rg_space(&g);
  astar_workspace *ws = ws_for(&sp);
  if (!ws) return;
  astar_engine_options o;
  astar_engine_result res;

  /* Defaults and their checks. */
  astar_engine_options_init(&o);
  CHECK(o.beam_width == 1024 && o.epsilon == 1.0 && o.band_e == 0 && o.band_d == 0 &&
        o.ida_transpositions && o.retarget_interval == 32);
  o.method = ASTAR_METHOD_BEAM;
  o.beam_width = 0;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_space_find_path(ws, &sp, &o, 1, 2, path, MAXN, &res) == ASTAR_INVALID_ARGUMENT);
  o.method = ASTAR_METHOD_ASTAR; /* only beam search reads the width */
  CHECK(astar_engine_options_validate(&o) == ASTAR_OK);
  astar_engine_options_init(&o);
  o.method = ASTAR_METHOD_RETARGETING;
  o.retarget_interval = 0;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  astar_engine_options_init(&o);
  o.epsilon = -1;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  o.epsilon = INFINITY;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  astar_engine_options_init(&o);
  o.band_e = NAN;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);
  o.band_e = 1;
  o.band_d = -0.5;
  CHECK(astar_engine_options_validate(&o) == ASTAR_INVALID_ARGUMENT);

  /* Names. */
  static const char *const names[] = {"ida",       "beam",           "dynamic",
                                      "bandwidth", "front-to-front", "retargeting"};
  for (size_t i = 0; i < NVARIANTS; i++)
    CHECK(strcmp(astar_method_name(variants[i]), names[i]) == 0);
  CHECK(astar_method_name(ASTAR_METHOD_COUNT) == NULL);
  /* The grid's own methods are valid values the engine refuses. */
  for (int m = ASTAR_METHOD_ENGINE_COUNT; m < ASTAR_METHOD_COUNT; m++) {
    astar_engine_options_init(&o);
    o.method = (astar_method)m;
    CHECK(astar_method_name(o.method) != NULL);
    CHECK(astar_engine_options_validate(&o) == ASTAR_OK);
    CHECK(astar_space_find_path(ws, &sp, &o, 1, 2, path, MAXN, &res) == ASTAR_UNSUPPORTED);
    CHECK(res.length == 0 && res.stats.expanded == 0 && res.cause == ASTAR_UNSUPPORTED);
    CHECK(astar_space_search_begin(ws, &sp, &o, 1, 2) == ASTAR_UNSUPPORTED);
  }

  /* start == goal: one node, nothing expanded, for every method. */
  for (int m = 0; m < ASTAR_METHOD_ENGINE_COUNT; m++) {
    astar_engine_options_init(&o);
    o.method = (astar_method)m;
    CHECK(astar_space_find_path(ws, &sp, &o, 7, 7, path, MAXN, &res) == ASTAR_OK);
    CHECK(res.length == 1 && path[0] == 7 && res.cost == 0 && res.stats.expanded == 0);
  }

  /* A faulty space is refused by every method. */
  astar_node s = 0;
  while (g.deg[s] == 0) s++;
  g.bad = 1;
  for (size_t i = 0; i < NVARIANTS; i++) {
    astar_engine_options_init(&o);
    o.method = variants[i];
    CHECKF(astar_space_find_path(ws, &sp, &o, s, (s + 1) % g.n, path, MAXN, &res) ==
               ASTAR_INVALID_ARGUMENT,
           "%s on a faulty space", astar_method_name(o.method));
  }
  g.bad = 0;

  /* The bidirectional ones: no several goals, no space without
  ** predecessors. */
  const astar_node goals[2] = {3, 4};
  astar_space_ops nopred = rg_ops;
  nopred.predecessors = NULL;
  astar_space sp2 = sp;
  sp2.ops = &nopred;
  for (int m = ASTAR_METHOD_FRONT_TO_FRONT; m <= ASTAR_METHOD_RETARGETING; m++) {
    astar_engine_options_init(&o);
    o.method = (astar_method)m;
    CHECK(astar_space_find_path_multi(ws, &sp, &o, 1, goals, 2, path, MAXN, &res) ==
          ASTAR_UNSUPPORTED);
    CHECK(astar_space_find_path(ws, &sp2, &o, 1, 2, path, MAXN, &res) == ASTAR_UNSUPPORTED);
  }
  /* The one-sided ones take several goals: the cheapest (IDA*). */
  astar_engine_options_init(&o);
  o.method = ASTAR_METHOD_IDA;
  const double d3 = rg_dijkstra(&g, s, 3), d4 = rg_dijkstra(&g, s, 4);
  const astar_status ms = astar_space_find_path_multi(ws, &sp, &o, s, goals, 2, path, MAXN, &res);
  if (d3 < 0 && d4 < 0) {
    CHECK(ms == ASTAR_NO_PATH);
  } else {
    const double best = d3 < 0 ? d4 : d4 < 0 ? d3 : fmin(d3, d4);
    CHECK(ms == ASTAR_OK && near(res.cost, best));
  }

  /* Capacity: beam and retargeting need the backward records, front-to-
  ** front its partners too. */
  astar_grid *tiny;
  astar_workspace *small;
  CHECK(astar_grid_new(&tiny, 2, 2, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&small, tiny, NULL) == ASTAR_OK);
  CHECK(astar_workspace_reserve_space(small, &sp, 0) == ASTAR_OK);
  const astar_method need_back[] = {ASTAR_METHOD_BEAM, ASTAR_METHOD_RETARGETING,
                                    ASTAR_METHOD_FRONT_TO_FRONT};
  for (int i = 0; i < 3; i++) {
    astar_engine_options_init(&o);
    o.method = need_back[i];
    CHECK(astar_space_find_path(small, &sp, &o, 1, 2, path, MAXN, &res) == ASTAR_CAPACITY);
  }
  for (int m = ASTAR_METHOD_IDA; m < ASTAR_METHOD_ENGINE_COUNT; m++) {
    astar_engine_options_init(&o);
    o.method = (astar_method)m;
    const astar_status st = astar_space_find_path(small, &sp, &o, 1, 2, path, MAXN, &res);
    if (m == ASTAR_METHOD_IDA || m == ASTAR_METHOD_DYNAMIC || m == ASTAR_METHOD_BANDWIDTH)
      CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
  }
  CHECK(astar_workspace_reserve_space(small, &sp, ASTAR_RESERVE_BACKWARD) == ASTAR_OK);
  o.method = ASTAR_METHOD_FRONT_TO_FRONT;
  CHECK(astar_space_find_path(small, &sp, &o, 1, 2, path, MAXN, &res) == ASTAR_CAPACITY);
  o.method = ASTAR_METHOD_BEAM;
  CHECK(astar_space_find_path(small, &sp, &o, 1, 2, path, MAXN, &res) != ASTAR_CAPACITY);
  const size_t before = astar_workspace_memory(small);
  CHECK(astar_workspace_reserve_space(small, &sp, ASTAR_RESERVE_FRONT_TO_FRONT) == ASTAR_OK);
  CHECK(astar_workspace_memory(small) > before);
  o.method = ASTAR_METHOD_FRONT_TO_FRONT;
  CHECK(astar_space_find_path(small, &sp, &o, 1, 2, path, MAXN, &res) != ASTAR_CAPACITY);
  CHECK(astar_workspace_reserve_space(small, &sp, 4) == ASTAR_INVALID_ARGUMENT);
  astar_workspace_free(small);
  astar_grid_free(tiny);
  astar_workspace_free(ws);
}

/* Allocation failure at every allocation of the front-to-front
** reservation: NO_MEMORY, the workspace unchanged; no allocator call while
** any method searches. */
static void test_failalloc(void) {
  static rgraph g;
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 8);
  rg_make(&g, &r, 300, false, false);
  const astar_space sp = rg_space(&g);
  astar_grid *tiny;
  CHECK(astar_grid_new(&tiny, 1, 1, NULL) == ASTAR_OK);
  int succeeded = 0;
  for (long k = 1; k < 60 && !succeeded; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, tiny, &a) == ASTAR_OK);
    if (!ws) break;
    const size_t before = astar_workspace_memory(ws);
    failalloc_fail_in(&fa, k);
    const astar_status st = astar_workspace_reserve_space(ws, &sp, ASTAR_RESERVE_FRONT_TO_FRONT);
    if (st == ASTAR_OK) {
      succeeded = 1;
      const long calls = fa.calls;
      for (int m = 0; m < ASTAR_METHOD_ENGINE_COUNT; m++) {
        astar_engine_options o;
        astar_engine_options_init(&o);
        o.method = (astar_method)m;
        for (astar_node t = 2; t < 40; t += 7) {
          astar_engine_result res;
          (void)astar_space_find_path(ws, &sp, &o, 1, t, path, MAXN, &res);
        }
      }
      CHECK(fa.calls == calls); /* searching never allocates */
    } else {
      CHECKF(st == ASTAR_NO_MEMORY, "failure %ld: %d", k, (int)st);
      CHECK(astar_workspace_memory(ws) == before);
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
  RUN(test_bandwidth_band);
  RUN(test_grid_space);
  RUN(test_puzzle);
  RUN(test_sliced);
  RUN(test_observer);
  RUN(test_options_and_faults);
  RUN(test_failalloc);
  return check_summary();
}
