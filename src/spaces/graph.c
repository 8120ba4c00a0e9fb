/*
** spaces/graph.c -- static directed graphs in compressed sparse row (CSR)
** form (astar/graph.h): construction from an edge list, coordinates and
** the heuristic's admissible scale, and the graph as a search space.
**
** Layout. out_off[v] .. out_off[v+1]-1 index node v's arcs out: their
** heads in out_head[], their costs in out_cost. The arcs in are the same
** with the tail (in_off / in_head / in_cost); for an undirected graph they
** equal the arcs out, node by node and in the same order, so both names
** point at one set of arrays. Both lists are built by a counting sort of
** the arcs by tail (or head), stable, so the order is the input order
** within a node: no allocation beyond the result itself.
**
** Compactness is speed: a search touches a node's arcs and coordinates once
** per expansion, at scattered places, so the bytes it fetches from memory
** decide the time on graphs larger than the cache. Costs are stored in the
** smallest exact form -- a one-byte index into a table of at most 256
** distinct values (a grid's 1 and sqrt 2), else floats when every cost is
** a float exactly (integer costs below 2^24: the DIMACS road graphs), else
** doubles -- and coordinates as floats when every one is a float exactly
** (grid cells, integer positions). Either way the values handed to the
** engine are the exact doubles given: 5, 8 or 12 bytes an arc instead of
** an astar_arc's 16, 8 instead of 16 bytes a 2-D node.
**
** Heuristic. One function per distance kind, dimension count and
** coordinate type, chosen when the space is taken, so a heuristic call is
** two coordinate fetches and a few flops, without a switch.
*/
#include "core/internal.h"

#include "astar/graph.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define OCTILE_DIAG (1.41421356237309504880 - 1.0) /* sqrt 2 - 1, exact in a double */
#define DICT_MAX 256                               /* distinct costs of a one-byte index */
#define DICT_SLOTS 512                             /* hash slots while building it */

/* How the costs are stored. */
enum { COST_DICT, COST_FLOAT, COST_DOUBLE };

struct astar_graph {
  astar_allocator alloc; /* where every block below came from */
  uint32_t n;            /* nodes, 1 .. ASTAR_GRAPH_MAX_NODES */
  uint32_t m;            /* arcs, both directions of an undirected edge counted */
  uint32_t max_degree;   /* largest out- or in-degree, >= 1 (the space's max_degree) */
  unsigned flags;        /* ASTAR_GRAPH_* given at construction */
  int ckind;             /* COST_*: how out_cost / in_cost hold the costs */
  uint32_t *out_off;     /* [n + 1] arcs out of v: out_off[v] .. out_off[v+1]-1 */
  uint32_t *out_head;    /* [max(m, 1)] head of each arc out, grouped by tail */
  void *out_cost;        /* [max(m, 1)] its cost: uint8_t index into dict, float or double */
  uint32_t *in_off;      /* [n + 1] the same for arcs in (== out_off when undirected) */
  uint32_t *in_head;     /* [max(m, 1)] tail of each arc in, grouped by head */
  void *in_cost;         /* [max(m, 1)] its cost, as out_cost */
  double dict[DICT_MAX]; /* COST_DICT: the distinct costs, in order of first appearance */
  void *xyz;             /* [dims * n] coordinates (float when xyz_float, else double), or NULL */
  int dims;              /* 0 (no coordinates), 2 or 3 */
  bool xyz_float;        /* xyz holds floats (every coordinate is a float exactly) */
  int hkind;             /* astar_graph_heuristic in use (NONE without coordinates) */
  double hscale;         /* scale of the distance, 0 .. the admissible maximum */
  uint32_t ndict;        /* COST_DICT: entries of dict in use, <= DICT_MAX */
  uint64_t version;      /* +1 for every arc cost change (astar_graph_set_arc_cost) */
  astar_arc_change *log; /* [log_cap] ring: the change that made version v is log[v % log_cap] */
  size_t log_cap;        /* entries of log (0: changes not tracked) */
  uint64_t log_floor;    /* changes up to this version are not in the log */
};

/* ---- construction --------------------------------------------------------------- */

astar_status astar_graph_check_edges(uint32_t node_count, const astar_graph_edge *edges,
                                     size_t nedges, size_t *bad) {
  if (nedges > 0 && !edges) return ASTAR_INVALID_ARGUMENT;
  for (size_t i = 0; i < nedges; i++) {
    const astar_graph_edge *e = &edges[i];
    if (e->from >= node_count || e->to >= node_count ||
        !(e->cost >= 0.0 && e->cost <= ASTAR_GRAPH_MAX_COST)) {
      if (bad) *bad = i;
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  return ASTAR_OK;
}

static size_t cost_size(int ckind) {
  return ckind == COST_DICT    ? sizeof(uint8_t)
         : ckind == COST_FLOAT ? sizeof(float)
                               : sizeof(double);
}

static size_t off_block(uint32_t n) {
  return ((size_t)n + 1) * sizeof(uint32_t);
}

static size_t head_block(uint32_t m) {
  return (size_t)(m ? m : 1) * sizeof(uint32_t);
}

static size_t cost_block(uint32_t m, int ckind) {
  return (size_t)(m ? m : 1) * cost_size(ckind);
}

static size_t xyz_block(const astar_graph *g) {
  return (size_t)g->dims * g->n * (g->xyz_float ? sizeof(float) : sizeof(double));
}

/* Free the arc arrays (each once: undirected graphs share them). */
static void free_arcs(astar_graph *g) {
  const astar_allocator *a = &g->alloc;
  if (g->in_off != g->out_off) astar__free(a, g->in_off, off_block(g->n));
  if (g->in_head != g->out_head) astar__free(a, g->in_head, head_block(g->m));
  if (g->in_cost != g->out_cost) astar__free(a, g->in_cost, cost_block(g->m, g->ckind));
  astar__free(a, g->out_off, off_block(g->n));
  astar__free(a, g->out_head, head_block(g->m));
  astar__free(a, g->out_cost, cost_block(g->m, g->ckind));
}

/* The bits of a cost, -0 read as +0 (the same value, one dictionary entry). */
static uint64_t cost_bits(double c) {
  uint64_t b;
  c += 0.0; /* -0 + 0 = +0 */
  memcpy(&b, &c, sizeof b);
  return b;
}

/* The cost dictionary under construction: open addressing over DICT_SLOTS
** slots, each 0 (empty) or 1 + the index of its cost in g->dict. */
typedef struct dict_build {
  uint16_t slot[DICT_SLOTS]; /* 0 empty, else dictionary index + 1 */
  uint32_t count;            /* distinct costs so far, <= DICT_MAX */
} dict_build;

/* The dictionary index of cost c, added when new; -1 when the dictionary
** is full. */
static int dict_index(astar_graph *g, dict_build *d, double c) {
  const uint64_t b = cost_bits(c);
  uint32_t i = (uint32_t)((b * UINT64_C(0x9e3779b97f4a7c15)) >> 55) & (DICT_SLOTS - 1);
  for (;; i = (i + 1) & (DICT_SLOTS - 1)) {
    if (!d->slot[i]) {
      if (d->count == DICT_MAX) return -1;
      g->dict[d->count] = c + 0.0;
      d->slot[i] = (uint16_t)++d->count;
      return (int)d->count - 1;
    }
    if (cost_bits(g->dict[d->slot[i] - 1]) == b) return d->slot[i] - 1;
  }
}

/* Is v a float exactly? (Out of the float range, the conversion itself
** would be undefined: checked first.) */
static bool is_float(double v) {
  return fabs(v) <= FLT_MAX && (double)(float)v == v;
}

/* The most compact exact storage of the costs (filling the dictionary
** when it is COST_DICT). */
static int choose_costs(astar_graph *g, dict_build *d, const astar_graph_edge *edges,
                        size_t nedges) {
  bool dict = true, flt = true;
  for (size_t i = 0; i < nedges && (dict || flt); i++) {
    const double c = edges[i].cost;
    if (dict && dict_index(g, d, c) < 0) dict = false;
    if (flt && !is_float(c)) flt = false;
  }
  return dict ? COST_DICT : flt ? COST_FLOAT : COST_DOUBLE;
}

ASTAR__INLINE void put_cost(astar_graph *g, dict_build *d, void *costs, uint32_t at, double c) {
  switch (g->ckind) {
  case COST_DICT:
    ((uint8_t *)costs)[at] = (uint8_t)dict_index(g, d, c); /* present: never -1 */
    break;
  case COST_FLOAT:
    ((float *)costs)[at] = (float)c;
    break;
  default:
    ((double *)costs)[at] = c;
    break;
  }
}

/*
** Counting sort of the arcs into off / head / costs: by tail (incoming
** false; head[] holds the head) or by head (head[] holds the tail). Arc
** order is edge order, an undirected edge giving from -> to then to ->
** from. off must be zeroed. Returns the largest degree.
*/
static uint32_t fill_csr(astar_graph *g, dict_build *d, uint32_t *off, uint32_t *head, void *costs,
                         const astar_graph_edge *edges, size_t nedges, bool undirected,
                         bool incoming) {
  const uint32_t n = g->n;
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
    head[off[key]] = other;
    put_cost(g, d, costs, off[key]++, e->cost);
    if (undirected) {
      head[off[other]] = key;
      put_cost(g, d, costs, off[other]++, e->cost);
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
  dict_build d;
  memset(&d, 0, sizeof d);
  g->ckind = choose_costs(g, &d, edges, nedges);
  g->ndict = g->ckind == COST_DICT ? d.count : 0;
  g->out_off = astar__calloc(&a, (size_t)node_count + 1, sizeof(uint32_t));
  g->out_head = astar__malloc(&a, head_block(g->m));
  g->out_cost = astar__malloc(&a, cost_block(g->m, g->ckind));
  if (undirected) {
    g->in_off = g->out_off;
    g->in_head = g->out_head;
    g->in_cost = g->out_cost;
  } else {
    g->in_off = astar__calloc(&a, (size_t)node_count + 1, sizeof(uint32_t));
    g->in_head = astar__malloc(&a, head_block(g->m));
    g->in_cost = astar__malloc(&a, cost_block(g->m, g->ckind));
  }
  if (!g->out_off || !g->out_head || !g->out_cost || !g->in_off || !g->in_head || !g->in_cost) {
    free_arcs(g);
    astar__free(&a, g, sizeof *g);
    return ASTAR_NO_MEMORY;
  }
  uint32_t most =
      fill_csr(g, &d, g->out_off, g->out_head, g->out_cost, edges, nedges, undirected, false);
  if (!undirected) {
    const uint32_t in_most =
        fill_csr(g, &d, g->in_off, g->in_head, g->in_cost, edges, nedges, false, true);
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
  free_arcs(g);
  astar__free(&a, g->xyz, xyz_block(g));
  astar__free(&a, g->log, g->log_cap * sizeof *g->log);
  astar__free(&a, g, sizeof *g);
}

/* ---- reading arcs and coordinates ------------------------------------------------ */

/* Cost of arc i of the arrays `costs`. */
ASTAR__INLINE double cost_at(const astar_graph *g, const void *costs, uint32_t i) {
  switch (g->ckind) {
  case COST_DICT:
    return g->dict[((const uint8_t *)costs)[i]];
  case COST_FLOAT:
    return (double)((const float *)costs)[i];
  default:
    return ((const double *)costs)[i];
  }
}

/* A node has a few arcs: the copy loops must stay plain loops. Left to
** themselves, compilers vectorise them, unroll them and split them in two,
** and the set-up of that machinery costs more than the copy (65
** instructions a node instead of 16 + 9 an arc, measured). */
#if defined(__clang__)
#define COPY_ATTR
#define PLAIN_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) distribute(disable)")
#elif defined(__GNUC__)
#define COPY_ATTR __attribute__((optimize("no-tree-vectorize", "no-tree-loop-distribution")))
#define PLAIN_LOOP
#else
#define COPY_ATTR
#define PLAIN_LOOP
#endif

/* Node v's arcs from one side's arrays into arcs[0 .. min(degree, cap)-1];
** returns that number. ckind is a constant in the space's functions (one
** per storage: no switch left), g->ckind in the accessors. */
COPY_ATTR ASTAR__INLINE size_t copy_arcs(const astar_graph *g, const int ckind, const uint32_t *off,
                                         const uint32_t *head, const void *costs, astar_node v,
                                         astar_arc *restrict arcs, size_t cap) {
  const uint32_t b = off[v];
  size_t n = off[v + 1] - b;
  if (n > cap) n = cap;
  const uint32_t *restrict h = head + b;
  switch (ckind) {
  case COST_DICT: {
    const uint8_t *restrict c = (const uint8_t *)costs + b;
    const double *restrict dict = g->dict;
    PLAIN_LOOP
    for (size_t i = 0; i < n; i++) {
      arcs[i].node = h[i];
      arcs[i].cost = dict[c[i]];
    }
    break;
  }
  case COST_FLOAT: {
    const float *restrict c = (const float *)costs + b;
    PLAIN_LOOP
    for (size_t i = 0; i < n; i++) {
      arcs[i].node = h[i];
      arcs[i].cost = (double)c[i];
    }
    break;
  }
  default: {
    const double *restrict c = (const double *)costs + b;
    PLAIN_LOOP
    for (size_t i = 0; i < n; i++) {
      arcs[i].node = h[i];
      arcs[i].cost = c[i];
    }
    break;
  }
  }
  return n;
}

/* Coordinate k of node v. */
static double coord(const astar_graph *g, astar_node v, int k) {
  const size_t i = (size_t)g->dims * v + (size_t)k;
  return g->xyz_float ? (double)((const float *)g->xyz)[i] : ((const double *)g->xyz)[i];
}

/* ---- distances and the heuristic -------------------------------------------------- */

/* Distance of `kind` between two points of `dims` coordinates. kind and
** dims are constants at every call site but the scale's. */
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

/* Distance of `kind` between nodes u and v (set-up only). */
static double node_distance(const astar_graph *g, int kind, astar_node u, astar_node v) {
  double p[3] = {0, 0, 0}, q[3] = {0, 0, 0};
  for (int k = 0; k < g->dims; k++) {
    p[k] = coord(g, u, k);
    q[k] = coord(g, v, k);
  }
  return g->dims == 3 ? distance(kind, 3, p, q) : distance(kind, 2, p, q);
}

/*
** The largest scale s with s * d(u, v) <= cost(u, v) for every arc (in
** floating point too: s is stepped down until every product fits), or 1
** when no arc joins two distinct positions (then any scale is admissible:
** nodes at different positions are not connected).
*/
static double max_scale(const astar_graph *g, int kind) {
  double s = INFINITY;
  for (int pass = 0; pass < 2; pass++)
    for (astar_node u = 0; u < g->n; u++)
      for (uint32_t i = g->out_off[u]; i < g->out_off[u + 1]; i++) {
        const double d = node_distance(g, kind, u, g->out_head[i]);
        const double c = cost_at(g, g->out_cost, i);
        if (pass == 0 && d > 0.0 && c / d < s) s = c / d;
        if (pass == 1)
          while (s > 0.0 && s * d > c) s = nextafter(s, 0.0);
      }
  return s == INFINITY ? 1.0 : s;
}

astar_status astar_graph_set_coords(astar_graph *g, int dims, const double *xyz) {
  if (!g || (dims != 0 && dims != 2 && dims != 3) || (dims > 0 && !xyz) || (dims == 0 && xyz))
    return ASTAR_INVALID_ARGUMENT;
  const size_t count = (size_t)dims * g->n;
  bool flt = true;
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(xyz[i])) return ASTAR_INVALID_ARGUMENT;
    flt = flt && is_float(xyz[i]);
  }
  void *copy = NULL;
  if (dims > 0) {
    copy = astar__malloc(&g->alloc, count * (flt ? sizeof(float) : sizeof(double)));
    if (!copy) return ASTAR_NO_MEMORY;
    for (size_t i = 0; i < count; i++) {
      if (flt)
        ((float *)copy)[i] = (float)xyz[i];
      else
        ((double *)copy)[i] = xyz[i];
    }
  }
  astar__free(&g->alloc, g->xyz, xyz_block(g));
  g->xyz = copy;
  g->dims = dims;
  g->xyz_float = flt && dims > 0;
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

/* ---- edits ---------------------------------------------------------------------------- */

/* Where cost c goes in the current storage: *code is the dictionary index
** (COST_DICT, appended when new and there is room). False when the storage
** cannot hold c exactly. */
static bool storable(astar_graph *g, double c, uint32_t *code) {
  switch (g->ckind) {
  case COST_DICT:
    for (uint32_t i = 0; i < g->ndict; i++)
      if (cost_bits(g->dict[i]) == cost_bits(c)) {
        *code = i;
        return true;
      }
    if (g->ndict == DICT_MAX) return false;
    *code = g->ndict; /* appended by the caller once the edit is certain */
    return true;
  case COST_FLOAT:
    return is_float(c);
  default:
    return true;
  }
}

static void store_cost(astar_graph *g, void *costs, uint32_t i, double c, uint32_t code) {
  switch (g->ckind) {
  case COST_DICT:
    ((uint8_t *)costs)[i] = (uint8_t)code;
    break;
  case COST_FLOAT:
    ((float *)costs)[i] = (float)c;
    break;
  default:
    ((double *)costs)[i] = c;
    break;
  }
}

/* Set every arc tail -> head listed under `tail` in (off, head, costs);
** returns how many; *old is the first one's cost before. */
static uint32_t set_in_list(astar_graph *g, const uint32_t *off, const uint32_t *head, void *costs,
                            astar_node tail, astar_node other, double c, uint32_t code,
                            double *old) {
  uint32_t n = 0;
  for (uint32_t i = off[tail]; i < off[tail + 1]; i++)
    if (head[i] == other) {
      if (n++ == 0) *old = cost_at(g, costs, i);
      store_cost(g, costs, i, c, code);
    }
  return n;
}

astar_status astar_graph_set_arc_cost(astar_graph *g, astar_node from, astar_node to, double cost) {
  if (!g || from >= g->n || to >= g->n || !(cost >= 0.0 && cost <= ASTAR_GRAPH_MAX_COST))
    return ASTAR_INVALID_ARGUMENT;
  cost += 0.0; /* -0 stored as +0 */
  bool found = false;
  for (uint32_t i = g->out_off[from]; i < g->out_off[from + 1] && !found; i++)
    found = g->out_head[i] == to;
  if (!found) return ASTAR_OUT_OF_BOUNDS;
  uint32_t code = 0;
  if (!storable(g, cost, &code)) return ASTAR_UNSUPPORTED;
  if (g->ckind == COST_DICT && code == g->ndict) g->dict[g->ndict++] = cost;
  double old = 0.0, unused = 0.0;
  const bool undirected = (g->flags & ASTAR_GRAPH_UNDIRECTED) != 0;
  set_in_list(g, g->out_off, g->out_head, g->out_cost, from, to, cost, code, &old);
  /* The same arc seen from its head: the in lists, or for an undirected
  ** graph the reverse arc (the one edge both ways). */
  if (undirected)
    set_in_list(g, g->out_off, g->out_head, g->out_cost, to, from, cost, code, &unused);
  else
    set_in_list(g, g->in_off, g->in_head, g->in_cost, to, from, cost, code, &unused);
  if (old == cost) return ASTAR_OK;
  /* Keep the heuristic admissible (and consistent): the scale may have to
  ** come down to this arc's cost over its length. */
  if (g->hkind != ASTAR_GRAPH_H_NONE) {
    const double d = node_distance(g, g->hkind, from, to);
    while (g->hscale > 0.0 && g->hscale * d > cost) {
      const double s = cost / d;
      g->hscale = s < g->hscale ? s : nextafter(g->hscale, 0.0);
    }
  }
  g->version++;
  if (!g->log_cap) {
    g->log_floor = g->version;
    return ASTAR_OK;
  }
  astar_arc_change *c = &g->log[g->version % g->log_cap];
  c->version = g->version;
  c->from = from;
  c->to = to;
  c->old_cost = old;
  c->new_cost = cost;
  return ASTAR_OK;
}

astar_status astar_graph_widen_costs(astar_graph *g) {
  if (!g) return ASTAR_INVALID_ARGUMENT;
  if (g->ckind == COST_DOUBLE) return ASTAR_OK;
  const bool shared = g->in_cost == g->out_cost;
  double *out = astar__malloc(&g->alloc, cost_block(g->m, COST_DOUBLE));
  double *in = shared ? out : astar__malloc(&g->alloc, cost_block(g->m, COST_DOUBLE));
  if (!out || !in) {
    astar__free(&g->alloc, out, cost_block(g->m, COST_DOUBLE));
    if (!shared) astar__free(&g->alloc, in, cost_block(g->m, COST_DOUBLE));
    return ASTAR_NO_MEMORY;
  }
  for (uint32_t i = 0; i < g->m; i++) {
    out[i] = cost_at(g, g->out_cost, i);
    if (!shared) in[i] = cost_at(g, g->in_cost, i);
  }
  if (!shared) astar__free(&g->alloc, g->in_cost, cost_block(g->m, g->ckind));
  astar__free(&g->alloc, g->out_cost, cost_block(g->m, g->ckind));
  g->out_cost = out;
  g->in_cost = in;
  g->ckind = COST_DOUBLE;
  g->ndict = 0;
  return ASTAR_OK;
}

uint64_t astar_graph_version(const astar_graph *g) {
  return g ? g->version : 0;
}

astar_status astar_graph_track_changes(astar_graph *g, size_t capacity) {
  if (!g) return ASTAR_INVALID_ARGUMENT;
  astar_arc_change *ring = NULL;
  if (capacity > 0) {
    if (capacity > SIZE_MAX / sizeof *ring) return ASTAR_NO_MEMORY;
    ring = astar__malloc(&g->alloc, capacity * sizeof *ring);
    if (!ring) return ASTAR_NO_MEMORY;
  }
  astar__free(&g->alloc, g->log, g->log_cap * sizeof *g->log);
  g->log = ring;
  g->log_cap = capacity;
  g->log_floor = g->version;
  return ASTAR_OK;
}

astar_status astar_graph_changes(const astar_graph *g, uint64_t since, astar_arc_change *buf,
                                 size_t cap, size_t *len) {
  if (!g || !len || (!buf && cap > 0) || since > g->version) return ASTAR_INVALID_ARGUMENT;
  const uint64_t n = g->version - since;
  if (n > 0 && (since < g->log_floor || n > g->log_cap || !g->log)) return ASTAR_STALE;
  *len = (size_t)n;
  if (n == 0) return ASTAR_OK;
  if (n > cap) return ASTAR_BUFFER_TOO_SMALL;
  for (uint64_t i = 0; i < n; i++) buf[i] = g->log[(since + 1 + i) % g->log_cap];
  return ASTAR_OK;
}

static uint64_t space_version(const void *self) {
  return ((const astar_graph *)self)->version;
}

/* ---- the space ---------------------------------------------------------------------- */

/* successors and predecessors, one pair per cost storage. */
#define ARC_FUNCTIONS(ckind, sfx)                                                                  \
  COPY_ATTR static size_t successors##sfx(const void *self, astar_node v, astar_arc *arcs,         \
                                          size_t cap) {                                            \
    const astar_graph *g = self;                                                                   \
    return copy_arcs(g, ckind, g->out_off, g->out_head, g->out_cost, v, arcs, cap);                \
  }                                                                                                \
  COPY_ATTR static size_t predecessors##sfx(const void *self, astar_node v, astar_arc *arcs,       \
                                            size_t cap) {                                          \
    const astar_graph *g = self;                                                                   \
    return copy_arcs(g, ckind, g->in_off, g->in_head, g->in_cost, v, arcs, cap);                   \
  }
ARC_FUNCTIONS(COST_DICT, _dict)
ARC_FUNCTIONS(COST_FLOAT, _float)
ARC_FUNCTIONS(COST_DOUBLE, _double)

static bool position(const void *self, astar_node v, double xyz[3]) {
  const astar_graph *g = self;
  if (!g->xyz) return false;
  xyz[0] = coord(g, v, 0);
  xyz[1] = coord(g, v, 1);
  xyz[2] = g->dims == 3 ? coord(g, v, 2) : 0.0;
  return true;
}

/* The heuristic functions: distance `kind` in `dims` dimensions over
** coordinates of type T (converted exactly to double). */
#define HEURISTIC(name, kind, dims, T)                                                             \
  static double name(const void *self, astar_node a, astar_node b) {                               \
    const astar_graph *g = self;                                                                   \
    const T *pa = (const T *)g->xyz + (size_t)(dims)*a,                                            \
            *pb = (const T *)g->xyz + (size_t)(dims)*b;                                            \
    const double p[3] = {(double)pa[0], (double)pa[1], (dims) == 3 ? (double)pa[(dims)-1] : 0.0};  \
    const double q[3] = {(double)pb[0], (double)pb[1], (dims) == 3 ? (double)pb[(dims)-1] : 0.0};  \
    return g->hscale * distance(kind, dims, p, q);                                                 \
  }
#define HEURISTICS(T, sfx)                                                                         \
  HEURISTIC(h_euclidean2##sfx, ASTAR_GRAPH_H_EUCLIDEAN, 2, T)                                      \
  HEURISTIC(h_euclidean3##sfx, ASTAR_GRAPH_H_EUCLIDEAN, 3, T)                                      \
  HEURISTIC(h_octile2##sfx, ASTAR_GRAPH_H_OCTILE, 2, T)                                            \
  HEURISTIC(h_manhattan2##sfx, ASTAR_GRAPH_H_MANHATTAN, 2, T)                                      \
  HEURISTIC(h_manhattan3##sfx, ASTAR_GRAPH_H_MANHATTAN, 3, T)                                      \
  HEURISTIC(h_chebyshev2##sfx, ASTAR_GRAPH_H_CHEBYSHEV, 2, T)                                      \
  HEURISTIC(h_chebyshev3##sfx, ASTAR_GRAPH_H_CHEBYSHEV, 3, T)
HEURISTICS(float, _f)
HEURISTICS(double, _d)

/* The arcs were checked when the graph was built (astar_graph_check_edges,
** astar_graph_set_arc_cost) and copy_arcs writes at most cap of them. */
#define OPS(arcs, h)                                                                               \
  {                                                                                                \
    successors##arcs, predecessors##arcs, h, NULL, position, space_version,                        \
        ASTAR_ABILITY_CHECKED_ARCS                                                                 \
  }
#define OPS_BY_KIND(arcs, xyz)                                                                     \
  {                                                                                                \
    {OPS(arcs, NULL), OPS(arcs, NULL)},                                                            \
        {OPS(arcs, h_euclidean2##xyz), OPS(arcs, h_euclidean3##xyz)},                              \
        {OPS(arcs, h_octile2##xyz), OPS(arcs, NULL)}, /* octile: 2-D only */                       \
        {OPS(arcs, h_manhattan2##xyz), OPS(arcs, h_manhattan3##xyz)}, {                            \
      OPS(arcs, h_chebyshev2##xyz), OPS(arcs, h_chebyshev3##xyz)                                   \
    }                                                                                              \
  }
#define OPS_BY_COORDS(arcs)                                                                        \
  { OPS_BY_KIND(arcs, _d), OPS_BY_KIND(arcs, _f) }

/* One table per storage and heuristic: [cost storage][coordinates are
** floats][heuristic kind][dims == 3]. */
static const astar_space_ops graph_ops[3][2][ASTAR_GRAPH_H_COUNT][2] = {
    OPS_BY_COORDS(_dict), OPS_BY_COORDS(_float), OPS_BY_COORDS(_double)};

astar_status astar_graph_space(const astar_graph *g, astar_space *out) {
  if (!g || !out) return ASTAR_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  out->ops = &graph_ops[g->ckind][g->xyz_float][g->hkind][g->dims == 3];
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

size_t astar_graph_out_arcs(const astar_graph *g, astar_node v, astar_arc *arcs, size_t cap) {
  if (!g || v >= g->n || (cap > 0 && !arcs)) return 0;
  copy_arcs(g, g->ckind, g->out_off, g->out_head, g->out_cost, v, arcs, cap);
  return g->out_off[v + 1] - g->out_off[v];
}

size_t astar_graph_in_arcs(const astar_graph *g, astar_node v, astar_arc *arcs, size_t cap) {
  if (!g || v >= g->n || (cap > 0 && !arcs)) return 0;
  copy_arcs(g, g->ckind, g->in_off, g->in_head, g->in_cost, v, arcs, cap);
  return g->in_off[v + 1] - g->in_off[v];
}

uint32_t astar_graph_max_degree(const astar_graph *g) {
  return g ? g->max_degree : 0;
}

int astar_graph_dims(const astar_graph *g) {
  return g ? g->dims : 0;
}

bool astar_graph_coords(const astar_graph *g, astar_node v, double *xyz) {
  if (!g || !g->xyz || v >= g->n || !xyz) return false;
  for (int k = 0; k < g->dims; k++) xyz[k] = coord(g, v, k);
  return true;
}

astar_graph_heuristic astar_graph_heuristic_kind(const astar_graph *g) {
  return g ? (astar_graph_heuristic)g->hkind : ASTAR_GRAPH_H_NONE;
}

double astar_graph_heuristic_scale(const astar_graph *g) {
  return g ? g->hscale : 0.0;
}

size_t astar_graph_memory(const astar_graph *g) {
  if (!g) return 0;
  size_t bytes = sizeof *g + off_block(g->n) + head_block(g->m) + cost_block(g->m, g->ckind);
  if (g->in_head != g->out_head)
    bytes += off_block(g->n) + head_block(g->m) + cost_block(g->m, g->ckind);
  return bytes + xyz_block(g);
}
