/*
** test_graph.c -- compressed static graphs and the DIMACS parsers
** (astar/graph.h): every engine method against a plain Dijkstra on
** hundreds of seeded random graphs (directed and undirected, with 2-D, 3-D
** or no coordinates and every heuristic distance, zero-cost arcs, self
** loops, parallel arcs, isolated nodes); the arc lists in their documented
** order, in-arcs equal to out-arcs reversed; the heuristic admissible and
** consistent at the automatic scale; Moving AI grids turned into graphs
** give the grid search's costs, and survive a DIMACS round trip; every
** DIMACS error kind with its exact line and column; allocation failure at
** every allocation; searching never allocates.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

/* ---- a random edge list and its plain reference ------------------------------- */

#define MAXN 300
#define MAXE ((size_t)6 * MAXN)

typedef struct rgraph {
  uint32_t n;               /* nodes */
  size_t m;                 /* edges */
  astar_graph_edge e[MAXE]; /* the edge list */
  bool undirected;          /* each edge both ways */
  int dims;                 /* 0, 2, 3 */
  double xyz[3 * MAXN];     /* coordinates */
  int head[MAXN];           /* adjacency of the reference: first arc of a node, -1: none */
  int next[2 * MAXE];       /* next arc of the same tail */
  astar_node to[2 * MAXE];  /* head of each arc */
  double cost[2 * MAXE];    /* cost of each arc */
} rgraph;

static void add_ref_arc(rgraph *g, int *k, astar_node from, astar_node to, double c) {
  g->to[*k] = to;
  g->cost[*k] = c;
  g->next[*k] = g->head[from];
  g->head[from] = (*k)++;
}

/* A random graph: n nodes, about deg arcs a node, a tenth of the nodes
** isolated, self loops, parallel arcs and (when zero) zero-cost arcs. Costs
** are multiples of 1/64 (exact sums in any order); with coordinates half
** the graphs have costs that grow with distance. */
static void rg_make(rgraph *g, rng *r, uint32_t n, bool zero) {
  memset(g->head, -1, sizeof g->head);
  g->n = n;
  g->m = 0;
  g->undirected = rng_range(r, 0, 3) == 0;
  g->dims = (int[]){0, 2, 2, 3}[rng_range(r, 0, 3)];
  /* Coordinates that are floats exactly (stored as floats) or not. */
  const bool float_xyz = rng_range(r, 0, 1);
  for (uint32_t v = 0; v < n * 3; v++)
    g->xyz[v] = float_xyz ? floor(rng_unit(r) * 800.0) / 8.0 : rng_unit(r) * 100.0;
  const bool metric = g->dims && rng_range(r, 0, 1);
  const bool fractions = !metric && rng_range(r, 0, 2) == 0;
  const size_t want = (size_t)rng_range(r, 0, (int32_t)(5 * n));
  bool isolated[MAXN];
  for (uint32_t v = 0; v < n; v++) isolated[v] = n > 2 && rng_range(r, 0, 9) == 0;
  while (g->m < want && g->m < MAXE) {
    astar_graph_edge e;
    e.from = (astar_node)rng_range(r, 0, (int32_t)n - 1);
    e.to = rng_range(r, 0, 29) == 0 ? e.from : (astar_node)rng_range(r, 0, (int32_t)n - 1);
    if (isolated[e.from] || isolated[e.to]) continue;
    if (metric) {
      const double *p = g->xyz + (size_t)g->dims * e.from, *q = g->xyz + (size_t)g->dims * e.to;
      double d = 0;
      for (int k = 0; k < g->dims; k++) d += (p[k] - q[k]) * (p[k] - q[k]);
      e.cost = ceil(sqrt(d) * (1.0 + rng_unit(r)) * 64.0) / 64.0;
    } else if (fractions) {
      e.cost = rng_range(r, 1, 5000) / 10.0; /* not floats: stored as doubles */
    } else {
      e.cost = rng_range(r, 1, 200) / 8.0; /* at most 256 distinct: a one-byte index */
    }
    if (zero && rng_range(r, 0, 9) == 0) e.cost = 0.0;
    g->e[g->m++] = e;
    if (g->m < MAXE && rng_range(r, 0, 19) == 0) { /* a parallel arc */
      e.cost += rng_range(r, -1, 3) / 4.0;
      if (e.cost < 0) e.cost = 0;
      g->e[g->m++] = e;
    }
  }
  int k = 0;
  for (size_t i = 0; i < g->m; i++) {
    add_ref_arc(g, &k, g->e[i].from, g->e[i].to, g->e[i].cost);
    if (g->undirected) add_ref_arc(g, &k, g->e[i].to, g->e[i].from, g->e[i].cost);
  }
}

/* Plain Dijkstra from s to every node (INFINITY: unreachable). */
static void rg_dijkstra(const rgraph *g, astar_node s, double *dist) {
  static bool done[MAXN];
  for (uint32_t v = 0; v < g->n; v++) dist[v] = INFINITY, done[v] = false;
  dist[s] = 0;
  for (;;) {
    uint32_t u = MAXN;
    for (uint32_t v = 0; v < g->n; v++)
      if (!done[v] && dist[v] < INFINITY && (u == MAXN || dist[v] < dist[u])) u = v;
    if (u == MAXN) return;
    done[u] = true;
    for (int a = g->head[u]; a >= 0; a = g->next[a])
      if (dist[u] + g->cost[a] < dist[g->to[a]]) dist[g->to[a]] = dist[u] + g->cost[a];
  }
}

/* A walk along arcs of the reference from s to t whose cheapest arcs add up
** to `claimed`. */
static bool rg_valid(const rgraph *g, const astar_node *p, size_t n, astar_node s, astar_node t,
                     double claimed) {
  if (n == 0 || p[0] != s || p[n - 1] != t) return false;
  double sum = 0;
  for (size_t i = 1; i < n; i++) {
    double best = INFINITY;
    for (int a = g->head[p[i - 1]]; a >= 0; a = g->next[a])
      if (g->to[a] == p[i] && g->cost[a] < best) best = g->cost[a];
    if (best == INFINITY) return false;
    sum += best;
  }
  return fabs(sum - claimed) <= 1e-9 * (1 + sum);
}

static astar_workspace *ws_for(const astar_space *s, const astar_allocator *a) {
  astar_workspace *ws = NULL;
  if (astar_workspace_new_empty(&ws, a) != ASTAR_OK) ws = NULL;
  if (ws && astar_workspace_reserve_space(ws, s, ASTAR_RESERVE_BACKWARD) != ASTAR_OK) {
    astar_workspace_free(ws);
    ws = NULL;
  }
  return ws;
}

static astar_graph_heuristic random_kind(rng *r, int dims) {
  for (;;) {
    const astar_graph_heuristic k = (astar_graph_heuristic)rng_range(r, 0, ASTAR_GRAPH_H_COUNT - 1);
    if (k != ASTAR_GRAPH_H_OCTILE || dims == 2) return k;
  }
}

/* Same arcs, field by field (astar_arc has padding). */
static bool same_arcs(const astar_arc *a, const astar_arc *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].node != b[i].node || a[i].cost != b[i].cost) return false;
  return true;
}

/* ---- every method against Dijkstra ---------------------------------------------- */

static void test_random_graphs(void) {
  static rgraph g;
  static double dist[MAXN];
  static astar_node path[MAXN];
  rng r;
  rng_seed(&r, 20240909);
  long compared = 0, unreachable = 0, with_h = 0;
  for (int gi = 0; gi < 400; gi++) {
    rg_make(&g, &r, (uint32_t)rng_range(&r, 1, MAXN), gi % 3 == 0);
    astar_graph *gr;
    astar_status st =
        astar_graph_new(&gr, g.n, g.e, g.m, g.undirected ? ASTAR_GRAPH_UNDIRECTED : 0, NULL);
    CHECKF(st == ASTAR_OK, "graph %d: status %d", gi, (int)st);
    if (st != ASTAR_OK) return;
    if (g.dims) {
      CHECK(astar_graph_set_coords(gr, g.dims, g.xyz) == ASTAR_OK);
      const astar_graph_heuristic kind = random_kind(&r, g.dims);
      CHECK(astar_graph_set_heuristic(gr, kind, ASTAR_GRAPH_SCALE_AUTO) == ASTAR_OK);
      const double most = astar_graph_heuristic_scale(gr);
      if (kind != ASTAR_GRAPH_H_NONE && rng_range(&r, 0, 3) == 0) /* a smaller scale */
        CHECK(astar_graph_set_heuristic(gr, kind, most * rng_unit(&r)) == ASTAR_OK);
      with_h += kind != ASTAR_GRAPH_H_NONE && most > 0;
    }
    astar_space sp;
    CHECK(astar_graph_space(gr, &sp) == ASTAR_OK);
    astar_workspace *ws = ws_for(&sp, NULL);
    CHECK(ws != NULL);
    if (!ws) return;
    for (int si = 0; si < 4; si++) {
      const astar_node s = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
      rg_dijkstra(&g, s, dist);
      /* The heuristic never overestimates (admissible). */
      if (sp.ops->heuristic)
        for (uint32_t t = 0; t < g.n; t++)
          CHECKF(sp.ops->heuristic(gr, s, t) <= dist[t] * (1 + 1e-12),
                 "graph %d: h(%u, %u) = %.17g > %.17g", gi, (unsigned)s, (unsigned)t,
                 sp.ops->heuristic(gr, s, t), dist[t]);
      for (int ti = 0; ti < 4; ti++) {
        const astar_node t = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
        const double ref = dist[t];
        /* The variants of Patel 4 are held to their guarantees in test_variants. */
        for (int method = 0; method <= ASTAR_METHOD_BIDIRECTIONAL; method++) {
          astar_engine_options o;
          astar_engine_options_init(&o);
          o.method = (astar_method)method;
          o.tie = rng_range(&r, 0, 1) ? ASTAR_TIE_LARGER_G : ASTAR_TIE_NEWEST;
          if (method == ASTAR_METHOD_ASTAR && rng_range(&r, 0, 2) == 0) o.weight = 1.5;
          astar_engine_result res;
          st = astar_space_find_path(ws, &sp, &o, s, t, path, MAXN, &res);
          if (ref == INFINITY) {
            CHECKF(st == ASTAR_NO_PATH, "graph %d method %d: status %d for no path", gi, method,
                   (int)st);
            unreachable += method == 0;
            continue;
          }
          CHECKF(st == ASTAR_OK, "graph %d method %d: status %d", gi, method, (int)st);
          if (st != ASTAR_OK) continue;
          CHECKF(rg_valid(&g, path, res.length, s, t, res.cost), "graph %d method %d: bad path", gi,
                 method);
          if (method != ASTAR_METHOD_GREEDY) {
            const double bound = o.weight > 1 ? o.weight * ref : ref;
            CHECKF(res.cost <= bound * (1 + 1e-9) + 1e-12 &&
                       (o.weight > 1 || fabs(res.cost - ref) <= 1e-9 * (1 + ref)),
                   "graph %d method %s: %.17g, optimal %.17g", gi, astar_method_name(o.method),
                   res.cost, ref);
          }
          /* Consistent: nothing reopened (the flags say so; AUTO trusts them). */
          CHECK(res.stats.reopened == 0);
          compared += method == 0;
        }
      }
    }
    astar_workspace_free(ws);
    astar_graph_free(gr);
  }
  CHECKF(compared > 3000 && unreachable > 300 && with_h > 100, "compared %ld unreachable %ld h %ld",
         compared, unreachable, with_h);
}

/* ---- structure -------------------------------------------------------------------- */

/* Out-arcs of every node are its arcs in arc order, in-arcs likewise with
** the tail; every arc appears once in each; undirected: in == out. */
static void test_structure(void) {
  static rgraph g;
  static astar_arc want[2 * MAXE];
  int kinds[3] = {0, 0, 0};
  rng r;
  rng_seed(&r, 5150);
  for (int gi = 0; gi < 200; gi++) {
    rg_make(&g, &r, (uint32_t)rng_range(&r, 1, 120), gi % 2 == 0);
    astar_graph *gr;
    const unsigned flags = g.undirected ? ASTAR_GRAPH_UNDIRECTED : 0;
    CHECK(astar_graph_new(&gr, g.n, g.e, g.m, flags, NULL) == ASTAR_OK);
    if (!gr) return;
    CHECK(astar_graph_node_count(gr) == g.n);
    CHECK(astar_graph_arc_count(gr) == g.m * (g.undirected ? 2 : 1));
    size_t total_out = 0, total_in = 0;
    uint32_t most = 0;
    for (astar_node v = 0; v < g.n; v++) {
      for (int incoming = 0; incoming < 2; incoming++) {
        size_t k = 0;
        for (size_t i = 0; i < g.m; i++) {
          const astar_graph_edge *e = &g.e[i];
          /* arc number order: from -> to, then (undirected) to -> from */
          const astar_node tail[2] = {e->from, e->to}, hd[2] = {e->to, e->from};
          for (int dir = 0; dir < (g.undirected ? 2 : 1); dir++) {
            if ((incoming ? hd[dir] : tail[dir]) != v) continue;
            want[k].node = incoming ? tail[dir] : hd[dir];
            want[k++].cost = e->cost;
          }
        }
        static astar_arc got[2 * MAXE];
        const size_t n = incoming ? astar_graph_in_arcs(gr, v, got, 2 * MAXE)
                                  : astar_graph_out_arcs(gr, v, got, 2 * MAXE);
        CHECK(n == (incoming ? astar_graph_in_arcs(gr, v, NULL, 0)
                             : astar_graph_out_arcs(gr, v, NULL, 0)));
        CHECKF(n == k, "graph %d node %u: %zu arcs, expected %zu", gi, (unsigned)v, n, k);
        for (size_t i = 0; i < n && i < k; i++)
          CHECK(got[i].node == want[i].node && got[i].cost == want[i].cost);
        if (incoming)
          total_in += n;
        else
          total_out += n;
        if (n > most) most = (uint32_t)n;
        /* the space lists the same arcs */
        astar_space sp;
        astar_arc buf[2 * MAXE];
        CHECK(astar_graph_space(gr, &sp) == ASTAR_OK);
        const size_t sn = incoming ? sp.ops->predecessors(gr, v, buf, sp.max_degree)
                                   : sp.ops->successors(gr, v, buf, sp.max_degree);
        CHECK(sn == n && same_arcs(buf, got, n));
      }
      if (g.undirected) {
        static astar_arc o[2 * MAXE], i[2 * MAXE];
        const size_t a = astar_graph_out_arcs(gr, v, o, 2 * MAXE);
        CHECK(a == astar_graph_in_arcs(gr, v, i, 2 * MAXE) && same_arcs(o, i, a));
      }
    }
    CHECK(total_out == astar_graph_arc_count(gr) && total_in == total_out);
    CHECK(astar_graph_max_degree(gr) == (most ? most : 1));
    CHECK(astar_graph_out_arcs(gr, g.n, want, 5) == 0 &&
          astar_graph_in_arcs(gr, g.n, want, 5) == 0);
    /* Memory: the handle plus offsets, heads and costs in their most compact
    ** exact form (one byte with at most 256 distinct costs, a float when all
    ** are floats, else a double), once when undirected. */
    static double distinct[257];
    size_t nd = 0;
    bool flt = true;
    for (size_t i = 0; i < g.m; i++) {
      size_t k = 0;
      while (k < nd && distinct[k] != g.e[i].cost) k++;
      if (k == nd && nd < 257) distinct[nd++] = g.e[i].cost;
      flt = flt && (double)(float)g.e[i].cost == g.e[i].cost;
    }
    const size_t arcs = astar_graph_arc_count(gr) ? astar_graph_arc_count(gr) : 1;
    const size_t per_arc = 4 + (nd <= 256 ? 1 : flt ? 4 : 8);
    const size_t arrays = (g.undirected ? 1 : 2) * ((g.n + 1) * sizeof(uint32_t) + arcs * per_arc);
    static size_t handle;
    if (!handle) handle = astar_graph_memory(gr) - arrays;
    CHECKF(astar_graph_memory(gr) == handle + arrays, "graph %d: %zu bytes, expected %zu + %zu", gi,
           astar_graph_memory(gr), handle, arrays);
    kinds[nd <= 256 ? 0 : flt ? 1 : 2]++;
    astar_graph_free(gr);
  }
  CHECKF(kinds[0] > 5 && kinds[1] > 5 && kinds[2] > 5, "cost storages %d %d %d", kinds[0], kinds[1],
         kinds[2]);
}

/* ---- the heuristic --------------------------------------------------------------------- */

static void test_heuristic(void) {
  static rgraph g;
  rng r;
  rng_seed(&r, 77);
  for (int gi = 0; gi < 150; gi++) {
    rg_make(&g, &r, (uint32_t)rng_range(&r, 2, 150), gi % 4 == 0);
    if (!g.dims) g.dims = 2;
    astar_graph *gr;
    CHECK(astar_graph_new(&gr, g.n, g.e, g.m, g.undirected ? ASTAR_GRAPH_UNDIRECTED : 0, NULL) ==
          ASTAR_OK);
    if (!gr) return;
    CHECK(astar_graph_heuristic_kind(gr) == ASTAR_GRAPH_H_NONE);
    CHECK(astar_graph_set_heuristic(gr, ASTAR_GRAPH_H_EUCLIDEAN, ASTAR_GRAPH_SCALE_AUTO) ==
          ASTAR_INVALID_ARGUMENT); /* no coordinates */
    CHECK(astar_graph_set_coords(gr, g.dims, g.xyz) == ASTAR_OK);
    CHECK(astar_graph_dims(gr) == g.dims);
    for (astar_node v = 0; v < g.n; v++) {
      double xyz[3] = {-1, -1, -1};
      const double *want = g.xyz + (size_t)g.dims * v;
      CHECK(astar_graph_coords(gr, v, xyz) && xyz[0] == want[0] &&
            xyz[g.dims - 1] == want[g.dims - 1]);
    }
    CHECK(astar_graph_heuristic_kind(gr) == ASTAR_GRAPH_H_EUCLIDEAN);
    for (int kind = 1; kind < ASTAR_GRAPH_H_COUNT; kind++) {
      const astar_status st =
          astar_graph_set_heuristic(gr, (astar_graph_heuristic)kind, ASTAR_GRAPH_SCALE_AUTO);
      if (kind == ASTAR_GRAPH_H_OCTILE && g.dims == 3) {
        CHECK(st == ASTAR_INVALID_ARGUMENT);
        continue;
      }
      CHECK(st == ASTAR_OK);
      const double s = astar_graph_heuristic_scale(gr);
      CHECK(s >= 0 && isfinite(s));
      /* The largest scale: a bit more is refused, the scale itself and less
      ** accepted; the heuristic of each arc at most its cost (consistent). */
      if (s > 0) {
        CHECK(astar_graph_set_heuristic(gr, (astar_graph_heuristic)kind, s * (1 + 1e-9)) ==
              ASTAR_INVALID_ARGUMENT);
        CHECK(astar_graph_heuristic_scale(gr) == s); /* unchanged */
      }
      CHECK(astar_graph_set_heuristic(gr, (astar_graph_heuristic)kind, s) == ASTAR_OK);
      CHECK(astar_graph_set_heuristic(gr, (astar_graph_heuristic)kind, s / 2) == ASTAR_OK);
      CHECK(astar_graph_heuristic_scale(gr) == s / 2);
      CHECK(astar_graph_set_heuristic(gr, (astar_graph_heuristic)kind, s) == ASTAR_OK);
      astar_space sp;
      CHECK(astar_graph_space(gr, &sp) == ASTAR_OK);
      CHECK(sp.flags == (ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT));
      for (size_t i = 0; i < g.m; i++) {
        const astar_graph_edge *e = &g.e[i];
        CHECK(sp.ops->heuristic(gr, e->from, e->to) <= e->cost);
        CHECK(sp.ops->heuristic(gr, e->to, e->from) <= e->cost || !g.undirected ||
              sp.ops->heuristic(gr, e->to, e->from) <= e->cost);
        /* consistency towards a random goal */
        const astar_node t = (astar_node)rng_range(&r, 0, (int32_t)g.n - 1);
        CHECK(sp.ops->heuristic(gr, e->from, t) <=
              e->cost + sp.ops->heuristic(gr, e->to, t) + 1e-9);
      }
      double xyz[3];
      CHECK(sp.ops->position(gr, 1, xyz) && xyz[0] == g.xyz[g.dims] &&
            xyz[2] == (g.dims == 3 ? g.xyz[g.dims + 2] : 0.0));
    }
    CHECK(astar_graph_set_heuristic(gr, ASTAR_GRAPH_H_EUCLIDEAN, NAN) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_graph_set_heuristic(gr, ASTAR_GRAPH_H_EUCLIDEAN, INFINITY) ==
          ASTAR_INVALID_ARGUMENT);
    CHECK(astar_graph_set_heuristic(gr, ASTAR_GRAPH_H_COUNT, 1) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_graph_set_heuristic(gr, ASTAR_GRAPH_H_NONE, 5) == ASTAR_OK);
    CHECK(astar_graph_heuristic_scale(gr) == 0);
    astar_space sp;
    CHECK(astar_graph_space(gr, &sp) == ASTAR_OK && sp.ops->heuristic == NULL);
    /* Removing the coordinates; bad coordinates. */
    CHECK(astar_graph_set_coords(gr, 0, NULL) == ASTAR_OK);
    CHECK(astar_graph_dims(gr) == 0 && !astar_graph_coords(gr, 0, (double[3]){0}));
    CHECK(astar_graph_space(gr, &sp) == ASTAR_OK && !sp.ops->position(gr, 0, (double[3]){0}));
    g.xyz[0] = NAN;
    CHECK(astar_graph_set_coords(gr, 2, g.xyz) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_graph_set_coords(gr, 4, g.xyz) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_graph_set_coords(gr, 2, NULL) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_graph_set_coords(gr, 0, g.xyz) == ASTAR_INVALID_ARGUMENT);
    astar_graph_free(gr);
  }
  /* No arc joins two positions: scale 1. An arc of cost 0 between two
  ** positions: scale 0. */
  const astar_graph_edge loops[2] = {{0, 0, 3}, {1, 2, 4}};
  const double same[6] = {0, 0, 5, 5, 5, 5};
  astar_graph *gr;
  CHECK(astar_graph_new(&gr, 3, loops, 2, 0, NULL) == ASTAR_OK);
  CHECK(astar_graph_set_coords(gr, 2, same) == ASTAR_OK && astar_graph_heuristic_scale(gr) == 1);
  astar_graph_free(gr);
  const astar_graph_edge free_arc[1] = {{0, 1, 0}};
  CHECK(astar_graph_new(&gr, 3, free_arc, 1, 0, NULL) == ASTAR_OK);
  CHECK(astar_graph_set_coords(gr, 2, same) == ASTAR_OK && astar_graph_heuristic_scale(gr) == 0);
  astar_graph_free(gr);
}

/* ---- arguments ---------------------------------------------------------------------- */

static void test_arguments(void) {
  const astar_graph_edge e[3] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 3}};
  astar_graph_edge bad[3] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 3}};
  astar_graph *g = (astar_graph *)&e; /* overwritten with NULL on failure */
  size_t at = 99;
  CHECK(astar_graph_check_edges(3, e, 3, &at) == ASTAR_OK && at == 99);
  CHECK(astar_graph_check_edges(3, NULL, 0, &at) == ASTAR_OK);
  CHECK(astar_graph_check_edges(3, NULL, 1, &at) == ASTAR_INVALID_ARGUMENT);
  bad[1].to = 3;
  CHECK(astar_graph_check_edges(3, bad, 3, &at) == ASTAR_INVALID_ARGUMENT && at == 1);
  CHECK(astar_graph_new(&g, 3, bad, 3, 0, NULL) == ASTAR_INVALID_ARGUMENT && g == NULL);
  bad[1].to = 2;
  bad[2].cost = -1;
  CHECK(astar_graph_check_edges(3, bad, 3, &at) == ASTAR_INVALID_ARGUMENT && at == 2);
  bad[2].cost = NAN;
  CHECK(astar_graph_check_edges(3, bad, 3, &at) == ASTAR_INVALID_ARGUMENT && at == 2);
  bad[2].cost = INFINITY;
  CHECK(astar_graph_check_edges(3, bad, 3, &at) == ASTAR_INVALID_ARGUMENT && at == 2);
  /* Finite but so large that a path's sum could overflow to infinity. */
  bad[2].cost = 1e300;
  CHECK(astar_graph_check_edges(3, bad, 3, &at) == ASTAR_INVALID_ARGUMENT && at == 2);
  bad[2].cost = ASTAR_GRAPH_MAX_COST;
  CHECK(astar_graph_check_edges(3, bad, 3, &at) == ASTAR_OK);
  bad[2].cost = INFINITY;
  bad[0].from = 7;
  CHECK(astar_graph_check_edges(3, bad, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_new(NULL, 3, e, 3, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_new(&g, 0, NULL, 0, 0, NULL) == ASTAR_INVALID_ARGUMENT && g == NULL);
  CHECK(astar_graph_new(&g, 3, e, 3, 2, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_new(&g, 3, NULL, 3, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_new(&g, ASTAR_GRAPH_MAX_NODES + 1, NULL, 0, 0, NULL) == ASTAR_TOO_LARGE);
  CHECK(g == NULL);
  /* A graph without arcs: one node, max degree 1, a one-node path. */
  CHECK(astar_graph_new(&g, 1, NULL, 0, 0, NULL) == ASTAR_OK);
  astar_space sp;
  CHECK(astar_graph_space(g, &sp) == ASTAR_OK && sp.max_degree == 1 && sp.node_count == 1);
  CHECK(astar_graph_space(NULL, &sp) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_space(g, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_workspace *ws = ws_for(&sp, NULL);
  astar_node path[2];
  astar_engine_result res;
  CHECK(ws && astar_space_find_path(ws, &sp, NULL, 0, 0, path, 2, &res) == ASTAR_OK &&
        res.length == 1);
  CHECK(astar_space_find_path(ws, &sp, NULL, 0, 1, path, 2, &res) == ASTAR_OUT_OF_BOUNDS);
  astar_workspace_free(ws);
  astar_graph_free(g);
  /* Values no float holds: stored as doubles, read back exactly. */
  const astar_graph_edge huge[2] = {{0, 1, ASTAR_GRAPH_MAX_COST}, {1, 2, 3}};
  const double far[6] = {0, 0, 1e300, 0, -1e300, 1};
  CHECK(astar_graph_new(&g, 3, huge, 2, 0, NULL) == ASTAR_OK);
  CHECK(astar_graph_set_coords(g, 2, far) == ASTAR_OK);
  astar_arc arc;
  double xy[2];
  CHECK(astar_graph_out_arcs(g, 0, &arc, 1) == 1 && arc.cost == ASTAR_GRAPH_MAX_COST);
  CHECK(astar_graph_coords(g, 2, xy) && xy[0] == -1e300 && xy[1] == 1);
  astar_graph_free(g);
  astar_graph_free(NULL);
  CHECK(astar_graph_node_count(NULL) == 0 && astar_graph_arc_count(NULL) == 0);
  CHECK(astar_graph_memory(NULL) == 0);
  CHECK(astar_graph_set_coords(NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_set_heuristic(NULL, ASTAR_GRAPH_H_NONE, 0) == ASTAR_INVALID_ARGUMENT);
}

/* ---- Moving AI grids as graphs ----------------------------------------------------------- */

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      char *nb = realloc(buf, cap);
      if (!nb) break;
      buf = nb;
    }
    const size_t k = fread(buf + n, 1, cap - n, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* The grid's passable cells as nodes in row-major order, 8-connected
** without corner cutting, costs 1 and sqrt 2, arcs in the grid's direction
** order (N E S W NE SE SW NW), coordinates (x, y). */
typedef struct grid_graph {
  int32_t *id;             /* [w * h] node of each cell, -1 when blocked */
  astar_graph_edge *edges; /* the arcs */
  size_t m;                /* their number */
  double *xy;              /* [2 * n] coordinates */
  uint32_t n;              /* nodes */
} grid_graph;

static bool open_cell(const astar_grid *g, int32_t x, int32_t y) {
  return astar_grid_contains(g, x, y) && astar_grid_passable(g, x, y);
}

static void grid_to_graph(const astar_grid *g, grid_graph *out) {
  static const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  out->id = malloc((size_t)w * h * sizeof *out->id);
  out->edges = malloc((size_t)w * h * 8 * sizeof *out->edges);
  out->xy = malloc((size_t)w * h * 2 * sizeof *out->xy);
  out->n = 0;
  out->m = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      out->id[y * w + x] = open_cell(g, x, y) ? (int32_t)out->n : -1;
      if (out->id[y * w + x] >= 0) {
        out->xy[2 * (size_t)out->n] = x;
        out->xy[2 * (size_t)out->n + 1] = y;
        out->n++;
      }
    }
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      if (out->id[y * w + x] < 0) continue;
      for (int d = 0; d < 8; d++) {
        const int32_t nx = x + dx[d], ny = y + dy[d];
        if (!open_cell(g, nx, ny)) continue;
        if (d >= 4 && (!open_cell(g, nx, y) || !open_cell(g, x, ny))) continue;
        astar_graph_edge e = {(astar_node)out->id[y * w + x], (astar_node)out->id[ny * w + nx],
                              d >= 4 ? 1.41421356237309504880 : 1.0};
        out->edges[out->m++] = e;
      }
    }
}

static void grid_graph_free(grid_graph *gg) {
  free(gg->id);
  free(gg->edges);
  free(gg->xy);
}

/* DIMACS text of a grid graph: .gr with exact costs, .co with the cells. */
static char *write_gr(const grid_graph *gg, size_t *len) {
  size_t cap = 64 + gg->m * 64, n = 0;
  char *s = malloc(cap);
  n += (size_t)snprintf(s + n, cap - n, "c grid\np sp %u %zu\n", (unsigned)gg->n, gg->m);
  for (size_t i = 0; i < gg->m; i++)
    n += (size_t)snprintf(s + n, cap - n, "a %u %u %.17g\n", (unsigned)gg->edges[i].from + 1,
                          (unsigned)gg->edges[i].to + 1, gg->edges[i].cost);
  *len = n;
  return s;
}

static char *write_co(const grid_graph *gg, size_t *len) {
  size_t cap = 64 + (size_t)gg->n * 48, n = 0;
  char *s = malloc(cap);
  n += (size_t)snprintf(s + n, cap - n, "p aux sp co %u\r\n", (unsigned)gg->n);
  for (uint32_t v = 0; v < gg->n; v++)
    n += (size_t)snprintf(s + n, cap - n, "v %u %.0f %.0f\r\n", (unsigned)v + 1,
                          gg->xy[2 * (size_t)v], gg->xy[2 * (size_t)v + 1]);
  *len = n - 2; /* no final line break */
  return s;
}

static void test_grid_round_trip(void) {
  static const char *const maps[] = {"data/small/cave64.map", "data/small/maze64-1.map",
                                     "data/small/random64-25.map"};
  long compared = 0, astar_runs = 0, same_expansions = 0;
  for (size_t mi = 0; mi < sizeof maps / sizeof *maps; mi++) {
    size_t len = 0, slen = 0;
    char *text = read_file(maps[mi], &len);
    char scen_path[128];
    snprintf(scen_path, sizeof scen_path, "%s.scen", maps[mi]);
    char *stext = read_file(scen_path, &slen);
    CHECK(text && stext);
    if (!text || !stext) return;
    astar_grid *grid;
    astar_scen *scen;
    CHECK(astar_movingai_parse_map(&grid, text, len, NULL, NULL) == ASTAR_OK);
    CHECK(astar_movingai_parse_scen(&scen, stext, slen, NULL, NULL) == ASTAR_OK);
    grid_graph gg;
    grid_to_graph(grid, &gg);
    astar_graph *g, *parsed;
    CHECK(astar_graph_new(&g, gg.n, gg.edges, gg.m, 0, NULL) == ASTAR_OK);
    CHECK(astar_graph_set_coords(g, 2, gg.xy) == ASTAR_OK);
    CHECK(astar_graph_set_heuristic(g, ASTAR_GRAPH_H_OCTILE, ASTAR_GRAPH_SCALE_AUTO) == ASTAR_OK);
    CHECKF(astar_graph_heuristic_scale(g) == 1.0, "octile scale %.17g",
           astar_graph_heuristic_scale(g)); /* exactly: costs are 1 and sqrt 2 */
    CHECK(astar_graph_set_heuristic(g, ASTAR_GRAPH_H_EUCLIDEAN, ASTAR_GRAPH_SCALE_AUTO) ==
          ASTAR_OK);
    CHECK(astar_graph_heuristic_scale(g) == 1.0);
    CHECK(astar_graph_set_heuristic(g, ASTAR_GRAPH_H_OCTILE, ASTAR_GRAPH_SCALE_AUTO) == ASTAR_OK);

    /* DIMACS round trip: the same arcs, the same coordinates. */
    size_t glen, clen;
    char *gr = write_gr(&gg, &glen), *co = write_co(&gg, &clen);
    astar_parse_error err;
    CHECKF(astar_dimacs_parse_gr(&parsed, gr, glen, 0, NULL, &err) == ASTAR_OK, "%d:%d: %s",
           err.line, err.column, err.message);
    double *xy = malloc((2 * (size_t)gg.n + 1) * sizeof *xy);
    CHECKF(astar_dimacs_parse_co(co, clen, gg.n, xy, &err) == ASTAR_OK, "%d:%d: %s", err.line,
           err.column, err.message);
    CHECK(memcmp(xy, gg.xy, 2 * (size_t)gg.n * sizeof *xy) == 0);
    CHECK(parsed && astar_graph_node_count(parsed) == gg.n);
    for (astar_node v = 0; parsed && v < gg.n; v++) {
      astar_arc x[8], y[8];
      const size_t a = astar_graph_out_arcs(g, v, x, 8);
      CHECK(a == astar_graph_out_arcs(parsed, v, y, 8) && same_arcs(x, y, a));
    }
    astar_graph_free(parsed);
    free(xy);
    free(gr);
    free(co);

    /* The grid's A* and the graph's A* (octile both) agree on every query. */
    astar_space sp;
    CHECK(astar_graph_space(g, &sp) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, grid, NULL) == ASTAR_OK);
    CHECK(astar_workspace_reserve_space(ws, &sp, ASTAR_RESERVE_BACKWARD) == ASTAR_OK);
    const int32_t w = astar_grid_width(grid);
    astar_node *path = malloc(((size_t)gg.n + 1) * sizeof *path);
    astar_point *cells = malloc(((size_t)gg.n + 1) * sizeof *cells);
    const astar_scen_query *q = astar_scen_queries(scen);
    for (size_t i = 0; i < astar_scen_count(scen); i++) {
      astar_result gres;
      const astar_status gst =
          astar_find_path(ws, grid, NULL, q[i].start, q[i].goal, cells, gg.n, &gres);
      const astar_node s = (astar_node)gg.id[q[i].start.y * w + q[i].start.x];
      const astar_node t = (astar_node)gg.id[q[i].goal.y * w + q[i].goal.x];
      for (int method = 0; method <= ASTAR_METHOD_BIDIRECTIONAL; method++) {
        if (method == ASTAR_METHOD_GREEDY) continue;
        astar_engine_options o;
        astar_engine_options_init(&o);
        o.method = (astar_method)method;
        astar_engine_result res;
        const astar_status st = astar_space_find_path(ws, &sp, &o, s, t, path, gg.n, &res);
        CHECK(st == gst);
        CHECKF(fabs(res.cost - q[i].optimal_length) <= 1e-5 * q[i].optimal_length,
               "%s query %zu method %d: %.9g, optimal %.9g", maps[mi], i, method, res.cost,
               q[i].optimal_length);
        CHECK(fabs(res.cost - gres.cost) <= 1e-9 * (1 + gres.cost));
        if (method == ASTAR_METHOD_ASTAR) {
          /* Same heuristic, successor order and node order, so the same
          ** search up to ties: the grid's costs are exact sums (query.c's
          ** quantum), the graph's sums of 1 and sqrt 2 are rounded, so its
          ** equal-f nodes can miss the larger-g order and expand more --
          ** never fewer (checked), and the same on most queries. */
          astar_runs++;
          same_expansions += res.stats.expanded == gres.stats.expanded;
          CHECKF(res.stats.expanded >= gres.stats.expanded, "%s query %zu: graph %llu < grid %llu",
                 maps[mi], i, (unsigned long long)res.stats.expanded,
                 (unsigned long long)gres.stats.expanded);
        }
        compared++;
      }
    }
    free(path);
    free(cells);
    astar_workspace_free(ws);
    astar_graph_free(g);
    grid_graph_free(&gg);
    astar_scen_free(scen);
    astar_grid_free(grid);
    free(text);
    free(stext);
  }
  CHECK(compared > 300);
  CHECKF(same_expansions * 4 >= astar_runs * 3,
         "A* expanded as the grid's A* in %ld of %ld queries", same_expansions, astar_runs);
}

/* ---- DIMACS files ---------------------------------------------------------------------- */

static void test_dimacs_samples(void) {
  size_t len = 0;
  char *text = read_file("data/dimacs/tiny.gr", &len);
  CHECK(text != NULL);
  if (!text) return;
  astar_graph *g;
  astar_parse_error err;
  CHECK(astar_dimacs_parse_gr(&g, text, len, 0, NULL, &err) == ASTAR_OK);
  free(text);
  if (!g) return;
  CHECK(astar_graph_node_count(g) == 6 && astar_graph_arc_count(g) == 9);
  double xy[12] = {0};
  text = read_file("data/dimacs/tiny.co", &len);
  CHECK(text && astar_dimacs_parse_co(text, len, 6, xy, &err) == ASTAR_OK);
  CHECK(xy[2] == 5 && xy[3] == -4);
  free(text);
  CHECK(astar_graph_set_coords(g, 2, xy) == ASTAR_OK);
  text = read_file("data/dimacs/tiny.p2p", &len);
  astar_dimacs_query q[3];
  size_t nq;
  CHECK(text && astar_dimacs_parse_p2p(text, len, 6, q, 1, &nq, &err) == ASTAR_BUFFER_TOO_SMALL &&
        nq == 3);
  CHECK(astar_dimacs_parse_p2p(text, len, 6, NULL, 0, &nq, &err) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_dimacs_parse_p2p(text, len, 6, q, 3, &nq, &err) == ASTAR_OK && nq == 3);
  CHECK(q[0].source == 0 && q[0].target == 4 && q[0].cost == 20 && q[0].line == 3);
  CHECK(q[2].cost == -1 && q[2].line == 5);
  free(text);
  astar_space sp;
  CHECK(astar_graph_space(g, &sp) == ASTAR_OK);
  astar_workspace *ws = ws_for(&sp, NULL);
  astar_node path[6] = {0};
  astar_engine_result res;
  memset(&res, 0, sizeof res);
  CHECK(ws &&
        astar_space_find_path(ws, &sp, NULL, q[0].source, q[0].target, path, 6, &res) == ASTAR_OK);
  CHECK(res.cost == 20 && res.length == 4 && path[1] == 2 && path[2] == 5);
  CHECK(astar_space_find_path(ws, &sp, NULL, q[1].source, q[1].target, path, 6, &res) == ASTAR_OK &&
        res.cost == 12);
  CHECK(astar_space_find_path(ws, &sp, NULL, q[2].source, q[2].target, path, 6, &res) ==
        ASTAR_NO_PATH);
  astar_workspace_free(ws);
  astar_graph_free(g);

  /* The sample with an error, and an undirected reading of a small text. */
  text = read_file("data/dimacs/bad_arc.gr", &len);
  CHECK(text && astar_dimacs_parse_gr(&g, text, len, 0, NULL, &err) == ASTAR_PARSE_ERROR &&
        g == NULL && err.line == 5 && err.column == 5);
  free(text);
  /* Nodes alone up to the limit are fine (a converted map's walled-in
  ** cells): 2 M + ASTAR_DIMACS_MAX_LONE_NODES. */
  const char *lone = "p sp 1048578 1\na 1 2 3\n";
  CHECK(astar_dimacs_parse_gr(&g, lone, strlen(lone), 0, NULL, &err) == ASTAR_OK &&
        astar_graph_node_count(g) == 2 + ASTAR_DIMACS_MAX_LONE_NODES);
  astar_graph_free(g);
  const char *und = "p sp 3 2\na 1 2 1.5\na 2 3 2.25\n";
  CHECK(astar_dimacs_parse_gr(&g, und, strlen(und), ASTAR_GRAPH_UNDIRECTED, NULL, &err) ==
        ASTAR_OK);
  astar_arc a[4];
  const size_t n = astar_graph_out_arcs(g, 1, a, 4);
  CHECK(n == 2 && a[0].node == 0 && a[0].cost == 1.5 && a[1].node == 2 && a[1].cost == 2.25);
  astar_graph_free(g);
}

typedef struct bad_case {
  const char *text;    /* the input */
  const char *words;   /* expected in the message */
  int kind;            /* 0 .gr, 1 .co (3 nodes), 2 .p2p (3 nodes) */
  astar_status status; /* expected status */
  int line, column;    /* expected position */
} bad_case;

static const bad_case bad_cases[] = {
    /* .gr */
    {"", "missing problem line", 0, ASTAR_PARSE_ERROR, 1, 1},
    {"c only a comment\n", "missing problem line", 0, ASTAR_PARSE_ERROR, 2, 1},
    {"c x\nc y", "missing problem line", 0, ASTAR_PARSE_ERROR, 2, 4},
    {"a 1 2 3\np sp 2 1\n", "before the problem line", 0, ASTAR_PARSE_ERROR, 1, 1},
    {"p sp 2 0\np sp 2 0\n", "second problem line", 0, ASTAR_PARSE_ERROR, 2, 1},
    {"p xx 2 0\n", "expected 'sp'", 0, ASTAR_PARSE_ERROR, 1, 3},
    {"p\n", "missing 'sp'", 0, ASTAR_PARSE_ERROR, 1, 2},
    {"p sp 2\n", "missing M (arcs)", 0, ASTAR_PARSE_ERROR, 1, 7},
    {"p sp\n", "missing N (nodes)", 0, ASTAR_PARSE_ERROR, 1, 5},
    {"p sp 2 0 9\n", "unexpected field '9'", 0, ASTAR_PARSE_ERROR, 1, 10},
    {"p sp two 0\n", "whole number", 0, ASTAR_PARSE_ERROR, 1, 6},
    {"p sp 2 -1\n", "whole number", 0, ASTAR_PARSE_ERROR, 1, 8},
    {"p sp 0 0\n", "at least one node", 0, ASTAR_PARSE_ERROR, 1, 6},
    {"p sp 2147483649 0\n", "exceeds the limit", 0, ASTAR_TOO_LARGE, 1, 6},
    {"p sp 2 99999999999999999999999\n", "exceeds the limit", 0, ASTAR_TOO_LARGE, 1, 8},
    {"p sp 2 1\na 1 2\n", "missing the cost W", 0, ASTAR_PARSE_ERROR, 2, 6},
    {"p sp 2 1\na\n", "missing the tail U", 0, ASTAR_PARSE_ERROR, 2, 2},
    {"p sp 2 1\na 1 2 3 4\n", "unexpected field '4' after the cost", 0, ASTAR_PARSE_ERROR, 2, 9},
    {"p sp 2 1\na 1 2 3 4 5 6 7\n", "unexpected field", 0, ASTAR_PARSE_ERROR, 2, 9},
    {"p sp 2 1\na x 2 3\n", "tail 'x' is not a node id", 0, ASTAR_PARSE_ERROR, 2, 3},
    {"p sp 2 1\na 1 0 3\n", "head 0 is out of range", 0, ASTAR_PARSE_ERROR, 2, 5},
    {"p sp 2 1\na 1 3 3\n", "head 3 is out of range", 0, ASTAR_PARSE_ERROR, 2, 5},
    {"p sp 2 1\na -1 2 3\n", "tail -1 is out of range", 0, ASTAR_PARSE_ERROR, 2, 3},
    {"p sp 2 1\na 1 2 -3\n", "cost -3 is negative", 0, ASTAR_PARSE_ERROR, 2, 7},
    {"p sp 2 1\na 1 2 x\n", "cost 'x' is not a number", 0, ASTAR_PARSE_ERROR, 2, 7},
    {"p sp 2 1\na 1 2 1e999\n", "out of range", 0, ASTAR_PARSE_ERROR, 2, 7},
    {"p sp 2 1\na 1 2 1e300\n", "cost 1e300 is above 1e+15", 0, ASTAR_PARSE_ERROR, 2, 7},
    {"p sp 2 1\na 1 2 nan\n", "not a number", 0, ASTAR_PARSE_ERROR, 2, 7},
    {"p sp 2 1\na 1 2 3\na 2 1 3\n", "more arc lines", 0, ASTAR_PARSE_ERROR, 3, 1},
    {"p sp 2 2\na 1 2 3\n", "announces 2 arcs, the file has 1", 0, ASTAR_PARSE_ERROR, 3, 1},
    {"p sp 2 2\r\na 1 2 3", "announces 2 arcs", 0, ASTAR_PARSE_ERROR, 2, 8},
    {"p sp 2 0\nx 1 2\n", "unknown line type 'x'", 0, ASTAR_PARSE_ERROR, 2, 1},
    {"p sp 2 0\n  e 1\n", "unknown line type 'e'", 0, ASTAR_PARSE_ERROR, 2, 3},
    {"p sp 2 1\n\ta\t1\t2\t\x01\n", "'\\x01' is not a number", 0, ASTAR_PARSE_ERROR, 2, 8},
    /* More nodes than the arcs can touch plus ASTAR_DIMACS_MAX_LONE_NODES
    ** (issue 25 item 8: 17 bytes of text took 4.5 GB). */
    {"p sp 100000000 0\n",
     "N 100000000 exceeds 2 M + 1048576 = 1048576: more nodes than the arcs can touch", 0,
     ASTAR_TOO_LARGE, 1, 6},
    {"p sp 2147483647 0", "N 2147483647 exceeds", 0, ASTAR_TOO_LARGE, 1, 6},
    {"c\n  p  sp 1048579 1\na 1 2 3\n", "N 1048579 exceeds 2 M + 1048576 = 1048578", 0,
     ASTAR_TOO_LARGE, 2, 9},
    /* .co, for 3 nodes */
    {"", "missing problem line 'p aux sp co N'", 1, ASTAR_PARSE_ERROR, 1, 1},
    {"v 1 0 0\n", "before the problem line", 1, ASTAR_PARSE_ERROR, 1, 1},
    {"p aux sp co 3\np aux sp co 3\n", "second problem line", 1, ASTAR_PARSE_ERROR, 2, 1},
    {"p aux sp gr 3\n", "expected 'co'", 1, ASTAR_PARSE_ERROR, 1, 10},
    {"p sp co 3\n", "expected 'aux'", 1, ASTAR_PARSE_ERROR, 1, 3},
    {"p aux sp co 4\n", "the graph has 3", 1, ASTAR_PARSE_ERROR, 1, 13},
    {"p aux sp co\n", "missing N", 1, ASTAR_PARSE_ERROR, 1, 12},
    {"p aux sp co 3\nv 1 0\n", "missing the coordinate Y", 1, ASTAR_PARSE_ERROR, 2, 6},
    {"p aux sp co 3\nv 1 0 0 0\n", "unexpected field", 1, ASTAR_PARSE_ERROR, 2, 9},
    {"p aux sp co 3\nv 0 0 0\n", "id 0 is out of range", 1, ASTAR_PARSE_ERROR, 2, 3},
    {"p aux sp co 3\nv 4 0 0\n", "id 4 is out of range", 1, ASTAR_PARSE_ERROR, 2, 3},
    {"p aux sp co 3\nv 1 1,5 0\n", "X '1,5' is not a number", 1, ASTAR_PARSE_ERROR, 2, 5},
    {"p aux sp co 3\nv 1 0 -\n", "Y '-' is not a number", 1, ASTAR_PARSE_ERROR, 2, 7},
    {"p aux sp co 3\nv 2 0 0\nv 2 1 1\n", "node 2 has coordinates", 1, ASTAR_PARSE_ERROR, 3, 3},
    {"p aux sp co 3\nv 1 0 0\nv 3 0 0\n", "node 2 has no coordinates", 1, ASTAR_PARSE_ERROR, 4, 1},
    {"p aux sp co 3\nq 1 0 0\n", "unknown line type 'q'", 1, ASTAR_PARSE_ERROR, 2, 1},
    /* .p2p, for 3 nodes */
    {"q 1 2\n", "before the problem line", 2, ASTAR_PARSE_ERROR, 1, 1},
    {"c\n", "missing problem line 'p aux sp p2p K'", 2, ASTAR_PARSE_ERROR, 2, 1},
    {"p aux sp p2p 1\np aux sp p2p 1\n", "second problem line", 2, ASTAR_PARSE_ERROR, 2, 1},
    {"p aux sp ss 1\n", "expected 'p2p'", 2, ASTAR_PARSE_ERROR, 1, 10},
    {"p aux sp p2p 1\nq 1\n", "missing the target T", 2, ASTAR_PARSE_ERROR, 2, 4},
    {"p aux sp p2p 1\nq 1 2 3 4\n", "unexpected field '4' after the cost", 2, ASTAR_PARSE_ERROR, 2,
     9},
    {"p aux sp p2p 1\nq 1 5\n", "target 5 is out of range", 2, ASTAR_PARSE_ERROR, 2, 5},
    {"p aux sp p2p 1\nq 1 2 -1\n", "cost -1 is negative", 2, ASTAR_PARSE_ERROR, 2, 7},
    {"p aux sp p2p 1\nq 1 2\nq 2 1\n", "more query lines", 2, ASTAR_PARSE_ERROR, 3, 1},
    {"p aux sp p2p 2\nq 1 2\n", "announces 2 queries", 2, ASTAR_PARSE_ERROR, 3, 1},
    {"p aux sp p2p 1\nz\n", "unknown line type 'z'", 2, ASTAR_PARSE_ERROR, 2, 1},
};

static void test_dimacs_errors(void) {
  for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
    const bad_case *c = &bad_cases[i];
    astar_parse_error err;
    memset(&err, 0, sizeof err);
    astar_status st;
    if (c->kind == 0) {
      astar_graph *g = (astar_graph *)&err;
      st = astar_dimacs_parse_gr(&g, c->text, strlen(c->text), 0, NULL, &err);
      CHECK(g == NULL);
    } else if (c->kind == 1) {
      double xy[6];
      st = astar_dimacs_parse_co(c->text, strlen(c->text), 3, xy, &err);
    } else {
      astar_dimacs_query q[4];
      size_t n = 99;
      st = astar_dimacs_parse_p2p(c->text, strlen(c->text), 3, q, 4, &n, &err);
      CHECK(n == 0);
    }
    CHECKF(st == c->status && err.line == c->line && err.column == c->column &&
               strstr(err.message, c->words) != NULL,
           "case %zu: status %d at %d:%d '%s', expected %d at %d:%d '%s'", i, (int)st, err.line,
           err.column, err.message, (int)c->status, c->line, c->column, c->words);
  }
  /* Accepted oddities: comments and blank lines anywhere, CR line ends,
  ** tabs, no final newline, decimal costs, exponents, a sign. */
  const char *ok = "c head\r\rp\tsp 3 3\r\n\r\nc mid\na 1 2 +1.5\na 2 3 2e1\n  a 3 1 .25";
  astar_graph *g;
  astar_parse_error err;
  CHECK(astar_dimacs_parse_gr(&g, ok, strlen(ok), 0, NULL, &err) == ASTAR_OK);
  astar_arc a[4];
  CHECK(astar_graph_out_arcs(g, 1, a, 4) == 1 && a[0].node == 2 && a[0].cost == 20);
  CHECK(astar_graph_out_arcs(g, 2, a, 4) == 1 && a[0].node == 0 && a[0].cost == 0.25);
  CHECK(astar_graph_out_arcs(g, 2, NULL, 0) == 1 && astar_graph_in_arcs(g, 0, NULL, 0) == 1);
  astar_graph_free(g);
  /* Arguments. */
  double xy[6];
  size_t count;
  CHECK(astar_dimacs_parse_gr(NULL, ok, 3, 0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_gr(&g, NULL, 3, 0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_gr(&g, ok, strlen(ok), 4, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_gr(&g, NULL, 0, 0, NULL, &err) == ASTAR_PARSE_ERROR); /* empty */
  CHECK(astar_dimacs_parse_co(ok, 3, 0, xy, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_co(ok, 3, 3, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_co(NULL, 3, 3, xy, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_p2p(ok, 3, 3, NULL, 0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_p2p(ok, 3, 3, NULL, 2, &count, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dimacs_parse_p2p(ok, 3, 0, NULL, 0, &count, NULL) == ASTAR_INVALID_ARGUMENT);
  /* No error record: the status alone. */
  CHECK(astar_dimacs_parse_gr(&g, "p sp 1 1\n", 9, 0, NULL, NULL) == ASTAR_PARSE_ERROR);
  /* Too many arcs for an undirected graph. */
  const char *big = "p sp 2 2147483648\n";
  CHECK(astar_dimacs_parse_gr(&g, big, strlen(big), ASTAR_GRAPH_UNDIRECTED, NULL, &err) ==
            ASTAR_TOO_LARGE &&
        err.line == 1 && err.column == 8);
}

/* ---- allocation ------------------------------------------------------------------------- */

/* Fail the 1st, 2nd, ... allocation of astar_graph_new (directed and
** undirected), astar_graph_set_coords and astar_dimacs_parse_gr: each
** failure is ASTAR_NO_MEMORY, leaks nothing, and leaves an existing graph
** as it was. A search on a graph never calls the allocator. */
static void test_failalloc(void) {
  static rgraph g;
  rng r;
  rng_seed(&r, 99);
  rg_make(&g, &r, 200, false);
  g.dims = 2;
  for (int undirected = 0; undirected < 2; undirected++) {
    int ok = 0;
    for (long k = 1; k < 20 && !ok; k++) {
      failalloc fa;
      failalloc_init(&fa);
      failalloc_fail_in(&fa, k);
      const astar_allocator a = failalloc_allocator(&fa);
      astar_graph *gr = (astar_graph *)&fa;
      const astar_status st = astar_graph_new(&gr, g.n, g.e, g.m, undirected ? 1u : 0u, &a);
      if (st == ASTAR_OK) {
        ok = 1;
        CHECK(fa.failures == 0);
        astar_graph_free(gr);
      } else {
        CHECKF(st == ASTAR_NO_MEMORY && gr == NULL, "failure %ld: status %d", k, (int)st);
      }
      CHECKF(fa.blocks == 0 && fa.osize_mismatches == 0, "failure %ld: %ld blocks", k, fa.blocks);
    }
    CHECK(ok);
  }
  /* set_coords: the graph keeps its old coordinates. */
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator a = failalloc_allocator(&fa);
  astar_graph *gr;
  CHECK(astar_graph_new(&gr, g.n, g.e, g.m, 0, &a) == ASTAR_OK);
  CHECK(astar_graph_set_coords(gr, 2, g.xyz) == ASTAR_OK);
  const double scale = astar_graph_heuristic_scale(gr);
  const size_t mem = astar_graph_memory(gr);
  failalloc_fail_in(&fa, 1);
  CHECK(astar_graph_set_coords(gr, 3, g.xyz) == ASTAR_NO_MEMORY);
  CHECK(astar_graph_dims(gr) == 2 && astar_graph_heuristic_scale(gr) == scale &&
        astar_graph_memory(gr) == mem);
  /* Searching never allocates (the workspace on the same allocator). */
  astar_space sp;
  CHECK(astar_graph_space(gr, &sp) == ASTAR_OK);
  astar_workspace *ws = ws_for(&sp, &a);
  CHECK(ws != NULL);
  const long calls = fa.calls;
  static astar_node path[MAXN];
  for (int q = 0; ws && q < 50; q++) {
    astar_engine_options o;
    astar_engine_options_init(&o);
    o.method = (astar_method)(q % ASTAR_METHOD_ENGINE_COUNT);
    o.max_expansions = 100000; /* IDA* may take exponentially many on random costs */
    astar_engine_result res;
    (void)astar_space_find_path(ws, &sp, &o, (astar_node)rng_range(&r, 0, 199),
                                (astar_node)rng_range(&r, 0, 199), path, MAXN, &res);
  }
  CHECK(fa.calls == calls);
  astar_workspace_free(ws);
  astar_graph_free(gr);
  CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);

  /* The parser: its temporary edge array and the graph's blocks. */
  const char *text = "p sp 4 5\na 1 2 1\na 2 3 1\na 3 4 1\na 4 1 1\na 1 3 2\n";
  int ok = 0;
  for (long k = 1; k < 20 && !ok; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    const astar_allocator fa_alloc = failalloc_allocator(&fa);
    astar_parse_error err;
    astar_graph *pg = (astar_graph *)&fa;
    const astar_status st = astar_dimacs_parse_gr(&pg, text, strlen(text), 0, &fa_alloc, &err);
    if (st == ASTAR_OK) {
      ok = 1;
      CHECK(astar_graph_arc_count(pg) == 5);
      astar_graph_free(pg);
    } else {
      CHECKF(st == ASTAR_NO_MEMORY && pg == NULL && err.line == 0, "failure %ld: %d", k, (int)st);
    }
    CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  }
  CHECK(ok);
}

int main(void) {
  RUN(test_random_graphs);
  RUN(test_structure);
  RUN(test_heuristic);
  RUN(test_arguments);
  RUN(test_grid_round_trip);
  RUN(test_dimacs_samples);
  RUN(test_dimacs_errors);
  RUN(test_failalloc);
  return check_summary();
}
