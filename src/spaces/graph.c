/*
** spaces/graph.c -- static directed graphs in compressed sparse row (CSR)
** form (astar/graph.h): construction from an edge list, coordinates and
** the heuristic's admissible scale, and the graph as a search space.
**
** Layout. out_off[v] .. out_off[v+1]-1 index node v's arcs out in out[],
** each an astar_arc {head, cost}: the space's successors() is one memcpy of
** that range into the engine's buffer. The arcs in are the same with the
** tail in arc.node (in_off / in); for an undirected graph they equal the
** arcs out, node by node and in the same order, so both names point at one
** pair of arrays. Both lists are built by a counting sort of the arcs by
** tail (or head), stable, so the order is the input order within a node:
** no allocation beyond the result itself.
**
** Heuristic. One function per distance kind and dimension count, chosen
** when the space is taken, so a heuristic call is two coordinate fetches
** and a few flops, without a switch.
*/
#include "../internal.h"

#include "astar/graph.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define OCTILE_DIAG (1.41421356237309504880 - 1.0) /* sqrt 2 - 1, exact in a double */

struct astar_graph {
  astar_allocator alloc; /* where every block below came from */
  uint32_t n;            /* nodes, 1 .. ASTAR_GRAPH_MAX_NODES */
  uint32_t m;            /* arcs, both directions of an undirected edge counted */
  uint32_t max_degree;   /* largest out- or in-degree, >= 1 (the space's max_degree) */
  unsigned flags;        /* ASTAR_GRAPH_* given at construction */
  uint32_t *out_off;     /* [n + 1] out[out_off[v] .. out_off[v+1]) are v's arcs out */
  astar_arc *out;        /* [max(m, 1)] arcs out, grouped by tail; .node = head */
  uint32_t *in_off;      /* [n + 1] the same for arcs in (== out_off when undirected) */
  astar_arc *in;         /* [max(m, 1)] arcs in, grouped by head; .node = tail (== out
                            when undirected) */
  double *xyz;           /* [dims * n] coordinates, or NULL */
  int dims;              /* 0 (no coordinates), 2 or 3 */
  int hkind;             /* astar_graph_heuristic in use (NONE without coordinates) */
  double hscale;         /* scale of the distance, 0 .. the admissible maximum */
};

/* ---- construction --------------------------------------------------------------- */

astar_status astar_graph_check_edges(uint32_t node_count, const astar_graph_edge *edges,
                                     size_t nedges, size_t *bad) {
  if (nedges > 0 && !edges) return ASTAR_INVALID_ARGUMENT;
  for (size_t i = 0; i < nedges; i++) {
    const astar_graph_edge *e = &edges[i];
    if (e->from >= node_count || e->to >= node_count || !(e->cost >= 0.0 && e->cost <= DBL_MAX)) {
      if (bad) *bad = i;
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  return ASTAR_OK;
}

static size_t arc_block(uint32_t m) {
  return (size_t)(m ? m : 1) * sizeof(astar_arc);
}

static size_t off_block(uint32_t n) {
  return ((size_t)n + 1) * sizeof(uint32_t);
}

static void free_parts(astar_graph *g) {
  const astar_allocator *a = &g->alloc;
  const bool shared = g->in == g->out;
  astar__free(a, g->out_off, off_block(g->n));
  astar__free(a, g->out, arc_block(g->m));
  if (!shared) {
    astar__free(a, g->in_off, off_block(g->n));
    astar__free(a, g->in, arc_block(g->m));
  }
  astar__free(a, g->xyz, (size_t)g->dims * g->n * sizeof(double));
}

/*
** Counting sort of the arcs into off / arcs: by tail (incoming false; the
** entry holds the head) or by head (the entry holds the tail). Arc order
** is edge order, an undirected edge giving from -> to then to -> from.
** off must be zeroed. Returns the largest degree.
*/
static uint32_t fill_csr(uint32_t *off, astar_arc *arcs, uint32_t n, const astar_graph_edge *edges,
                         size_t nedges, bool undirected, bool incoming) {
  for (size_t i = 0; i < nedges; i++) {
    const astar_graph_edge *e = &edges[i];
    off[(incoming ? e->to : e->from) + 1]++;
    if (undirected) off[(incoming ? e->from : e->to) + 1]++;
  }
  uint32_t most = 0;
  for (uint32_t v = 0; v < n; v++) {
    if (off[v + 1] > most) most = off[v + 1];
    off[v + 1] += off[v];
  }
  /* off[v] is v's first slot; placing advances it to v's end. */
  for (size_t i = 0; i < nedges; i++) {
    const astar_graph_edge *e = &edges[i];
    const astar_node key = incoming ? e->to : e->from, other = incoming ? e->from : e->to;
    arcs[off[key]].node = other;
    arcs[off[key]++].cost = e->cost;
    if (undirected) {
      arcs[off[other]].node = key;
      arcs[off[other]++].cost = e->cost;
    }
  }
  for (uint32_t v = n; v > 0; v--) off[v] = off[v - 1];
  off[0] = 0;
  return most;
}

astar_status astar_graph_new(astar_graph **out, uint32_t node_count, const astar_graph_edge *edges,
                             size_t nedges, unsigned flags, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (node_count == 0 || (flags & ~ASTAR_GRAPH_UNDIRECTED) ||
      astar_graph_check_edges(node_count, edges, nedges, NULL) != ASTAR_OK)
    return ASTAR_INVALID_ARGUMENT;
  const bool undirected = (flags & ASTAR_GRAPH_UNDIRECTED) != 0;
  if (node_count > ASTAR_GRAPH_MAX_NODES || nedges > ASTAR_GRAPH_MAX_ARCS ||
      (undirected && nedges > ASTAR_GRAPH_MAX_ARCS / 2))
    return ASTAR_TOO_LARGE;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_graph *g = astar__malloc(&a, sizeof *g);
  if (!g) return ASTAR_NO_MEMORY;
  memset(g, 0, sizeof *g);
  g->alloc = a;
  g->n = node_count;
  g->m = (uint32_t)(undirected ? 2 * nedges : nedges);
  g->flags = flags;
  g->out_off = astar__calloc(&a, (size_t)node_count + 1, sizeof(uint32_t));
  g->out = astar__malloc(&a, arc_block(g->m));
  if (undirected) {
    g->in_off = g->out_off;
    g->in = g->out;
  } else {
    g->in_off = g->out_off ? astar__calloc(&a, (size_t)node_count + 1, sizeof(uint32_t)) : NULL;
    g->in = g->in_off ? astar__malloc(&a, arc_block(g->m)) : NULL;
  }
  if (!g->out_off || !g->out || !g->in_off || !g->in) {
    astar__free(&a, g->out_off, off_block(g->n));
    astar__free(&a, g->out, arc_block(g->m));
    if (!undirected) {
      astar__free(&a, g->in_off, off_block(g->n));
      astar__free(&a, g->in, arc_block(g->m));
    }
    astar__free(&a, g, sizeof *g);
    return ASTAR_NO_MEMORY;
  }
  uint32_t most = fill_csr(g->out_off, g->out, node_count, edges, nedges, undirected, false);
  if (!undirected) {
    const uint32_t in_most = fill_csr(g->in_off, g->in, node_count, edges, nedges, false, true);
    if (in_most > most) most = in_most;
  }
  g->max_degree = most ? most : 1;
  g->hkind = ASTAR_GRAPH_H_NONE;
  *out = g;
  return ASTAR_OK;
}

void astar_graph_free(astar_graph *g) {
  if (!g) return;
  const astar_allocator a = g->alloc;
  free_parts(g);
  astar__free(&a, g, sizeof *g);
}

/* ---- distances and the heuristic -------------------------------------------------- */

/* Distance of `kind` between two points of `dims` coordinates. kind and
** dims are constants at every call site but one (the scale). */
ASTAR__INLINE double distance(int kind, int dims, const double *p, const double *q) {
  const double dx = fabs(p[0] - q[0]), dy = fabs(p[1] - q[1]);
  const double dz = dims == 3 ? fabs(p[2] - q[2]) : 0.0;
  switch (kind) {
  case ASTAR_GRAPH_H_EUCLIDEAN:
    return sqrt(dx * dx + dy * dy + dz * dz);
  case ASTAR_GRAPH_H_OCTILE:
    return dx > dy ? dx + OCTILE_DIAG * dy : dy + OCTILE_DIAG * dx;
  case ASTAR_GRAPH_H_MANHATTAN:
    return dx + dy + dz;
  case ASTAR_GRAPH_H_CHEBYSHEV: {
    const double m = dx > dy ? dx : dy;
    return m > dz ? m : dz;
  }
  default:
    return 0.0;
  }
}

static double distance_any(int kind, int dims, const double *p, const double *q) {
  if (dims == 3) return distance(kind, 3, p, q);
  return distance(kind, 2, p, q);
}

/*
** The largest scale s with s * d(u, v) <= cost(u, v) for every arc (in
** floating point too: s is stepped down until every product fits), or 1
** when no arc joins two distinct positions (then any scale is admissible:
** nodes at different positions are not connected).
*/
static double max_scale(const astar_graph *g, int kind) {
  double s = INFINITY;
  for (uint32_t u = 0; u < g->n; u++) {
    const double *p = g->xyz + (size_t)g->dims * u;
    for (uint32_t i = g->out_off[u]; i < g->out_off[u + 1]; i++) {
      const double d = distance_any(kind, g->dims, p, g->xyz + (size_t)g->dims * g->out[i].node);
      if (d > 0.0 && g->out[i].cost / d < s) s = g->out[i].cost / d;
    }
  }
  if (s == INFINITY) return 1.0;
  for (uint32_t u = 0; u < g->n; u++) {
    const double *p = g->xyz + (size_t)g->dims * u;
    for (uint32_t i = g->out_off[u]; i < g->out_off[u + 1]; i++) {
      const double d = distance_any(kind, g->dims, p, g->xyz + (size_t)g->dims * g->out[i].node);
      while (s > 0.0 && s * d > g->out[i].cost) s = nextafter(s, 0.0);
    }
  }
  return s;
}

astar_status astar_graph_set_coords(astar_graph *g, int dims, const double *xyz) {
  if (!g || (dims != 0 && dims != 2 && dims != 3) || (dims > 0 && !xyz) || (dims == 0 && xyz))
    return ASTAR_INVALID_ARGUMENT;
  const size_t count = (size_t)dims * g->n;
  for (size_t i = 0; i < count; i++)
    if (!isfinite(xyz[i])) return ASTAR_INVALID_ARGUMENT;
  double *copy = NULL;
  if (dims > 0) {
    copy = astar__malloc(&g->alloc, count * sizeof *copy);
    if (!copy) return ASTAR_NO_MEMORY;
    memcpy(copy, xyz, count * sizeof *copy);
  }
  astar__free(&g->alloc, g->xyz, (size_t)g->dims * g->n * sizeof(double));
  g->xyz = copy;
  g->dims = dims;
  g->hkind = ASTAR_GRAPH_H_NONE;
  g->hscale = 0.0;
  if (dims > 0) {
    g->hkind = ASTAR_GRAPH_H_EUCLIDEAN;
    g->hscale = max_scale(g, ASTAR_GRAPH_H_EUCLIDEAN);
  }
  return ASTAR_OK;
}

astar_status astar_graph_set_heuristic(astar_graph *g, astar_graph_heuristic kind, double scale) {
  if (!g || (unsigned)kind >= ASTAR_GRAPH_H_COUNT) return ASTAR_INVALID_ARGUMENT;
  if (kind == ASTAR_GRAPH_H_NONE) {
    g->hkind = ASTAR_GRAPH_H_NONE;
    g->hscale = 0.0;
    return ASTAR_OK;
  }
  if (g->dims == 0 || (kind == ASTAR_GRAPH_H_OCTILE && g->dims != 2) || isnan(scale) ||
      scale == INFINITY)
    return ASTAR_INVALID_ARGUMENT;
  const double most = max_scale(g, kind);
  if (scale > most) return ASTAR_INVALID_ARGUMENT;
  g->hkind = kind;
  g->hscale = scale < 0.0 ? most : scale;
  return ASTAR_OK;
}

/* ---- the space ---------------------------------------------------------------------- */

ASTAR__INLINE size_t copy_arcs(const uint32_t *off, const astar_arc *src, astar_node v,
                               astar_arc *arcs, size_t cap) {
  const uint32_t b = off[v];
  size_t n = off[v + 1] - b;
  if (n > cap) n = cap;
  memcpy(arcs, src + b, n * sizeof *arcs);
  return n;
}

static size_t successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const astar_graph *g = self;
  return copy_arcs(g->out_off, g->out, v, arcs, cap);
}

static size_t predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const astar_graph *g = self;
  return copy_arcs(g->in_off, g->in, v, arcs, cap);
}

static bool position(const void *self, astar_node v, double xyz[3]) {
  const astar_graph *g = self;
  if (!g->xyz) return false;
  const double *p = g->xyz + (size_t)g->dims * v;
  xyz[0] = p[0];
  xyz[1] = p[1];
  xyz[2] = g->dims == 3 ? p[2] : 0.0;
  return true;
}

#define HEURISTIC(name, kind, dims)                                                                \
  static double name(const void *self, astar_node a, astar_node b) {                               \
    const astar_graph *g = self;                                                                   \
    return g->hscale * distance(kind, dims, g->xyz + (size_t)(dims)*a, g->xyz + (size_t)(dims)*b); \
  }
HEURISTIC(h_euclidean2, ASTAR_GRAPH_H_EUCLIDEAN, 2)
HEURISTIC(h_euclidean3, ASTAR_GRAPH_H_EUCLIDEAN, 3)
HEURISTIC(h_octile2, ASTAR_GRAPH_H_OCTILE, 2)
HEURISTIC(h_manhattan2, ASTAR_GRAPH_H_MANHATTAN, 2)
HEURISTIC(h_manhattan3, ASTAR_GRAPH_H_MANHATTAN, 3)
HEURISTIC(h_chebyshev2, ASTAR_GRAPH_H_CHEBYSHEV, 2)
HEURISTIC(h_chebyshev3, ASTAR_GRAPH_H_CHEBYSHEV, 3)

/* One table per heuristic: [kind][dims == 3]. */
static const astar_space_ops graph_ops[ASTAR_GRAPH_H_COUNT][2] = {
    {{successors, predecessors, NULL, NULL, position},
     {successors, predecessors, NULL, NULL, position}},
    {{successors, predecessors, h_euclidean2, NULL, position},
     {successors, predecessors, h_euclidean3, NULL, position}},
    {{successors, predecessors, h_octile2, NULL, position},
     {successors, predecessors, NULL, NULL, position}}, /* octile: 2-D only */
    {{successors, predecessors, h_manhattan2, NULL, position},
     {successors, predecessors, h_manhattan3, NULL, position}},
    {{successors, predecessors, h_chebyshev2, NULL, position},
     {successors, predecessors, h_chebyshev3, NULL, position}},
};

astar_status astar_graph_space(const astar_graph *g, astar_space *out) {
  if (!g || !out) return ASTAR_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  out->ops = &graph_ops[g->hkind][g->dims == 3];
  out->self = g;
  out->node_count = g->n;
  out->max_degree = g->max_degree;
  /* The automatic scale (or a smaller one) times a metric is consistent
  ** (the top of astar/graph.h); h = 0 trivially so. */
  out->flags = ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT;
  return ASTAR_OK;
}

/* ---- accessors ------------------------------------------------------------------------ */

uint32_t astar_graph_node_count(const astar_graph *g) {
  return g ? g->n : 0;
}

size_t astar_graph_arc_count(const astar_graph *g) {
  return g ? g->m : 0;
}

static const astar_arc *arcs_of(const uint32_t *off, const astar_arc *arcs, const astar_graph *g,
                                astar_node v, size_t *n) {
  if (v >= g->n) {
    *n = 0;
    return NULL;
  }
  *n = off[v + 1] - off[v];
  return arcs + off[v];
}

const astar_arc *astar_graph_out_arcs(const astar_graph *g, astar_node v, size_t *n) {
  return arcs_of(g->out_off, g->out, g, v, n);
}

const astar_arc *astar_graph_in_arcs(const astar_graph *g, astar_node v, size_t *n) {
  return arcs_of(g->in_off, g->in, g, v, n);
}

uint32_t astar_graph_max_degree(const astar_graph *g) {
  return g->max_degree;
}

int astar_graph_dims(const astar_graph *g) {
  return g->dims;
}

const double *astar_graph_coords(const astar_graph *g) {
  return g->xyz;
}

astar_graph_heuristic astar_graph_heuristic_kind(const astar_graph *g) {
  return (astar_graph_heuristic)g->hkind;
}

double astar_graph_heuristic_scale(const astar_graph *g) {
  return g->hscale;
}

size_t astar_graph_memory(const astar_graph *g) {
  if (!g) return 0;
  size_t bytes = sizeof *g + off_block(g->n) + arc_block(g->m);
  if (g->in != g->out) bytes += off_block(g->n) + arc_block(g->m);
  return bytes + (size_t)g->dims * g->n * sizeof(double);
}
