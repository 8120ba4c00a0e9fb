/*
** hpa_query.c -- HPA* queries (astar/hierarchy.h): the query object that
** holds every buffer, joining start and goal to the graph level by level,
** the top-level search through the general engine over an astar_space view
** of the abstract graph, the level-by-level refinement of each abstract arc
** down to cells, and the smoothing that keeps the path grid-legal.
**
** Level by level (li = 0 .. levels-1 below, 0 = level 1). The level-li graph
** has the level-li nodes, the intra arcs of the level-li clusters and the
** crossings between different level-li clusters. A level-li cluster K
** (li >= 1) restricted to the level-(li-1) graph is a small "local" graph:
** the nodes of its ratio x ratio sub-clusters, numbered sub-cluster by
** sub-cluster (row-major), then by their index there (hq_ctx). Every search
** below level li = 0 runs on such a local graph, never on cells:
**  - joining: the start's costs to the level-0 nodes of its level-1 cluster
**    come from a Dijkstra over that cluster's cells; its costs to the nodes
**    of its level-li cluster (li >= 1) from a Dijkstra over the local graph
**    of that cluster seeded with its level-(li-1) costs; the same backward
**    for the goal. Parents are kept, so a join is refined by walking them.
**  - direct: when start and goal share the level-li cluster, the cheapest
**    start -> goal path inside it (level 0: the cell Dijkstra; above: the
**    forward join's Dijkstra with the goal's level-(li-1) costs as arcs into
**    the goal, or the direct path one level down).
**  - refinement: an intra arc of level li >= 1 is refined by an A* over the
**    local graph of its cluster into level-(li-1) arcs, recursively; a
**    level-0 intra arc by an A* over the cells of its level-1 cluster; a
**    crossing is one move.
** Every cost found is exact in the restricted graph it was searched in, so
** the refined path costs what the abstract path costs (up to rounding), and
** connectivity is kept: a cell path inside a cluster can always be rerouted
** through the sub-clusters' transitions (the argument of the build's upper
** levels).
*/
#include "engine/engine.h"
#include "hierarchy/hpa.h"

#include <string.h>

#define HQ_SEED UINT32_MAX        /* join parent: reached from the join one level down */
#define HQ_BELOW (UINT32_MAX - 1) /* direct parent: the direct path one level down */
#define HQ_MAXSUB 64              /* sub-clusters of a cluster: ratio^2, ratio <= 8 */

/* The local graph of one level-li cluster (li >= 1): the level-(li-1) nodes of its
** sub-clusters. */
typedef struct hq_ctx {
  uint32_t k;                  /* the level-li cluster */
  int32_t bx0, by0;            /* its first sub-cluster's column, row at level li-1 */
  int32_t bw, bh;              /* sub-clusters across, down (clipped at the grid's edge) */
  uint32_t off[HQ_MAXSUB + 1]; /* [bw * bh + 1] local index of each sub-cluster's first node */
} hq_ctx;

/* One endpoint's joins: index 0 the start (forward costs), 1 the goal (backward). */
typedef struct hq_side {
  astar_point p;                       /* the endpoint */
  int32_t rx, ry, rw, rh;              /* its level-1 cluster's rectangle */
  double *cd;                          /* [cap_rect] level-0 join: cell costs */
  uint32_t *cp;                        /* [cap_rect] cell parents (next cell toward the
                                          endpoint), HPA_NONE at the endpoint */
  hq_ctx ctx[ASTAR_HPA_MAX_LEVELS];    /* [li >= 1] its level-li cluster's local graph */
  double *d[ASTAR_HPA_MAX_LEVELS];     /* [li >= 1][cap_local] join costs, INFINITY: none */
  uint32_t *par[ASTAR_HPA_MAX_LEVELS]; /* [li >= 1][cap_local] local parent or HQ_SEED */
  uint32_t *gl[ASTAR_HPA_MAX_LEVELS];  /* [li >= 1][cap_local] node id of each local node */
} hq_side;

struct astar_hpa_query {
  astar_allocator alloc; /* where every block came from */
  size_t bytes;          /* bytes held, the workspace's included through astar_workspace_memory */
  astar_workspace *ws;   /* the engine's workspace, reserved for nodes + 2 */
  uint32_t cap_nodes;    /* abstract nodes the buffers hold (start and goal not counted) */
  uint32_t cap_degree;   /* max_degree the workspace was reserved for */
  size_t cap_rect;       /* cells of a level-1 cluster the cell buffers hold */
  size_t cap_local;      /* local nodes (hpa max_local) the level buffers hold, >= 1 */
  astar_node *apath;     /* [cap_nodes + 2] the abstract path */
  double *dblk;          /* every double buffer below, one block */
  uint32_t *ublk;        /* every uint32 buffer below, one block */
  size_t nd, nu;         /* sizes of dblk, ublk */
  double *g, *f;         /* [cap_rect] level-0 refinement A*: cost so far, key */
  uint32_t *par, *hb, *pos; /* [cap_rect] its parents; heap and positions (cell searches) */
  double *rd, *rf;          /* [cap_local] local searches: cost so far, key */
  uint32_t *rpar, *rhb, *rpos, *rgl;    /* [cap_local] parents, heap, positions, node ids */
  uint32_t *pbuf[ASTAR_HPA_MAX_LEVELS]; /* [li >= 1][cap_local + 2] a refined level-li arc */
  uint32_t *cbuf[ASTAR_HPA_MAX_LEVELS]; /* [li >= 1][cap_local + 2] a start join's chain */
  hq_side side[2];                      /* start, goal */
  /* The query in progress (the space's view). */
  const astar_hpa *h;
  const astar_grid *grid;
  int shared; /* lowest li whose cluster holds start and goal; levels if none */
  double direct[ASTAR_HPA_MAX_LEVELS]; /* [li] start -> goal inside their level-li cluster */
  uint32_t dpar[ASTAR_HPA_MAX_LEVELS]; /* [li >= 1] the goal's local parent or HQ_BELOW */
  uint32_t kg;                         /* top-level cluster of the goal */
  double hscale_s, hscale_d;           /* octile step costs times the smallest terrain */
  uint64_t exp_join, exp_refine;       /* expansions of the query in progress */
};

static void qfree(astar_hpa_query *q, void *p, size_t n, size_t size) {
  if (!p) return;
  astar__free(&q->alloc, p, n * size);
  q->bytes -= n * size;
}
static void *qalloc(astar_hpa_query *q, size_t n, size_t size) {
  size_t b;
  if (n == 0 || !astar__mul(n, size, &b)) return NULL;
  void *p = astar__malloc(&q->alloc, b);
  if (p) q->bytes += b;
  return p;
}

static void free_buffers(astar_hpa_query *q) {
  qfree(q, q->apath, (size_t)q->cap_nodes + 2, sizeof *q->apath);
  qfree(q, q->dblk, q->nd, sizeof(double));
  qfree(q, q->ublk, q->nu, sizeof(uint32_t));
  q->apath = NULL;
  q->dblk = NULL;
  q->ublk = NULL;
}

/* Block sizes for cap_rect R and cap_local M (every level's buffers carved from them). */
static void block_sizes(size_t R, size_t M, size_t *nd, size_t *nu) {
  const size_t lv = ASTAR_HPA_MAX_LEVELS;
  *nd = R * 4 + M * (2 * lv + 2);
  *nu = R * 5 + M * (4 * lv + 4) + (M + 2) * 2 * lv;
}

static void carve(astar_hpa_query *q) {
  const size_t R = q->cap_rect, M = q->cap_local;
  double *d = q->dblk;
  uint32_t *u = q->ublk;
  for (int s = 0; s < 2; s++) {
    q->side[s].cd = d;
    d += R;
    q->side[s].cp = u;
    u += R;
  }
  q->g = d;
  d += R;
  q->f = d;
  d += R;
  q->par = u;
  u += R;
  q->hb = u;
  u += R;
  q->pos = u;
  u += R;
  q->rd = d;
  d += M;
  q->rf = d;
  d += M;
  q->rpar = u;
  u += M;
  q->rhb = u;
  u += M;
  q->rpos = u;
  u += M;
  q->rgl = u;
  u += M;
  for (int l = 0; l < ASTAR_HPA_MAX_LEVELS; l++) {
    for (int s = 0; s < 2; s++) {
      q->side[s].d[l] = d;
      d += M;
      q->side[s].par[l] = u;
      u += M;
      q->side[s].gl[l] = u;
      u += M;
    }
    q->pbuf[l] = u;
    u += M + 2;
    q->cbuf[l] = u;
    u += M + 2;
  }
}

/* ---- local graphs ---------------------------------------------------------------- */

static inline uint32_t cell_cluster(const astar_hpa *h, int li, uint32_t cell) {
  return astar__hpa_cluster_of(h, li, (int32_t)(cell % (uint32_t)h->width),
                               (int32_t)(cell / (uint32_t)h->width));
}

/* The local graph of level-li cluster k (li >= 1); returns its node count. */
static uint32_t ctx_init(const astar_hpa *h, int li, uint32_t k, hq_ctx *x) {
  const hpa_level *L = &h->lv[li], *D = &h->lv[li - 1];
  const int32_t r = h->hopt.ratio;
  x->k = k;
  x->bx0 = (int32_t)(k % (uint32_t)L->ncx) * r;
  x->by0 = (int32_t)(k / (uint32_t)L->ncx) * r;
  x->bw = D->ncx - x->bx0 < r ? D->ncx - x->bx0 : r;
  x->bh = D->ncy - x->by0 < r ? D->ncy - x->by0 : r;
  uint32_t acc = 0, b = 0;
  for (int32_t by = 0; by < x->bh; by++)
    for (int32_t bx = 0; bx < x->bw; bx++, b++) {
      x->off[b] = acc;
      acc += D->cl[(x->by0 + by) * D->ncx + x->bx0 + bx].n;
    }
  x->off[b] = acc;
  return acc;
}

/* Node ids of the local nodes. */
static void ctx_fill(const astar_hpa *h, int li, const hq_ctx *x, uint32_t *gl) {
  const hpa_level *D = &h->lv[li - 1];
  uint32_t b = 0;
  for (int32_t by = 0; by < x->bh; by++)
    for (int32_t bx = 0; bx < x->bw; bx++, b++) {
      const uint32_t c = (uint32_t)((x->by0 + by) * D->ncx + x->bx0 + bx);
      memcpy(gl + x->off[b], D->gid + D->goff[c], D->cl[c].n * sizeof *gl);
    }
}

/* Local index of node g (a level-(li-1) node inside the cluster), given its
** level-(li-1) cluster c. */
static inline uint32_t ctx_local(const astar_hpa *h, int li, const hq_ctx *x, uint32_t c,
                                 uint32_t g) {
  const hpa_level *D = &h->lv[li - 1];
  const int32_t bx = (int32_t)(c % (uint32_t)D->ncx) - x->bx0;
  const int32_t by = (int32_t)(c / (uint32_t)D->ncx) - x->by0;
  return x->off[by * x->bw + bx] + D->lidx[g];
}

static inline uint32_t ctx_local_of(const astar_hpa *h, int li, const hq_ctx *x, uint32_t g) {
  return ctx_local(h, li, x, cell_cluster(h, li - 1, h->ncell[g]), g);
}

/* ---- the space view ------------------------------------------------------------ */

static double octile(const astar_hpa_query *q, uint32_t a, uint32_t b) {
  const uint32_t w = (uint32_t)q->h->width;
  int32_t dx = (int32_t)(a % w) - (int32_t)(b % w), dy = (int32_t)(a / w) - (int32_t)(b / w);
  dx = dx < 0 ? -dx : dx;
  dy = dy < 0 ? -dy : dy;
  const int32_t mn = dx < dy ? dx : dy, mx = dx < dy ? dy : dx;
  return q->hscale_s * (double)(mx - mn) + q->hscale_d * (double)mn;
}

static uint32_t node_cell(const astar_hpa_query *q, astar_node n) {
  const astar_hpa *h = q->h;
  if (n < h->nnodes) return h->ncell[n];
  const astar_point p = q->side[n == h->nnodes ? 0 : 1].p;
  return (uint32_t)p.y * (uint32_t)h->width + (uint32_t)p.x;
}

/* Join cost of node g (a level-li node in the side's level-li cluster): the
** start's cost to reach it (side 0) or its cost to reach the goal (side 1). */
static double join_value(const astar_hpa_query *q, int s, int li, uint32_t g) {
  const astar_hpa *h = q->h;
  const hq_side *sd = &q->side[s];
  if (li == 0) {
    const uint32_t cell = h->ncell[g], W = (uint32_t)h->width;
    return sd->cd[(int32_t)(cell / W - (uint32_t)sd->ry) * sd->rw + (int32_t)(cell % W) - sd->rx];
  }
  return sd->d[li][ctx_local_of(h, li, &sd->ctx[li], g)];
}

static double sp_heuristic(const void *self, astar_node a, astar_node b) {
  const astar_hpa_query *q = self;
  return octile(q, node_cell(q, a), node_cell(q, b));
}

/* Arcs: start -> its top cluster's nodes (and the goal), node -> cluster nodes,
** crossings to other top clusters, and the goal when in the goal's cluster. */
static size_t sp_successors(const void *self, astar_node u, astar_arc *arcs, size_t cap) {
  const astar_hpa_query *q = self;
  const astar_hpa *h = q->h;
  const int top = h->levels - 1;
  const hpa_level *L = &h->lv[top];
  const uint32_t S = h->nnodes, G = h->nnodes + 1;
  size_t n = 0;
  (void)cap;
  if (u == G) return 0;
  if (u == S) {
    const uint32_t ks = top == 0 ? cell_cluster(h, 0, node_cell(q, S)) : q->side[0].ctx[top].k;
    const hpa_cluster *c = &L->cl[ks];
    for (uint32_t j = 0; j < c->n; j++) {
      const uint32_t id = L->gid[L->goff[ks] + j];
      const double d = join_value(q, 0, top, id);
      if (d < INFINITY) arcs[n++] = (astar_arc){id, d};
    }
    if (q->direct[top] < INFINITY) arcs[n++] = (astar_arc){G, q->direct[top]};
    return n;
  }
  const uint32_t k = cell_cluster(h, top, h->ncell[u]);
  const hpa_cluster *c = &L->cl[k];
  const uint32_t i = L->lidx[u];
  const double *row = c->cost + (size_t)i * c->n;
  const uint32_t *tgt = c->adj + c->n + 1;
  for (uint32_t a = c->adj[i]; a < c->adj[i + 1]; a++) {
    const uint32_t j = tgt[a];
    arcs[n++] = (astar_arc){L->gid[L->goff[k] + j], row[j]};
  }
  for (uint32_t a = h->xoff[u]; a < h->xoff[u + 1]; a++) {
    const uint32_t v = h->xto[a];
    if (v != HPA_NONE && h->xout[a] < INFINITY && cell_cluster(h, top, h->ncell[v]) != k)
      arcs[n++] = (astar_arc){v, h->xout[a]};
  }
  if (k == q->kg) {
    const double d = join_value(q, 1, top, u);
    if (d < INFINITY) arcs[n++] = (astar_arc){G, d};
  }
  return n;
}

static bool sp_position(const void *self, astar_node n, double xyz[3]) {
  const astar_hpa_query *q = self;
  const uint32_t c = node_cell(q, n);
  const uint32_t col = c % (uint32_t)q->h->width, row = c / (uint32_t)q->h->width;
  xyz[0] = (double)col;
  xyz[1] = (double)row;
  xyz[2] = 0;
  return true;
}

static const astar_space_ops hpa_space_ops = {sp_successors, NULL, sp_heuristic, NULL, sp_position,
                                              NULL,          0};

static astar_space make_space(const astar_hpa_query *q) {
  astar_space s;
  s.ops = &hpa_space_ops;
  s.self = q;
  s.node_count = q->h->nnodes + 2;
  s.max_degree = q->h->max_degree + 1;
  s.flags = ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT;
  return s;
}

/* ---- query object -------------------------------------------------------------- */

/* Cells of a level-1 cluster (the cell searches' size). */
static size_t rect_cells(const astar_hpa *h) {
  const size_t side = (size_t)h->lv[0].side;
  size_t w = side < (size_t)h->width ? side : (size_t)h->width;
  size_t hh = side < (size_t)h->height ? side : (size_t)h->height;
  return w * hh;
}

static size_t local_cells(const astar_hpa *h) {
  return h->max_local ? h->max_local : 1;
}

astar_status astar_hpa_query_reserve(astar_hpa_query *q, const astar_hpa *h) {
  if (!q || !h) return ASTAR_INVALID_ARGUMENT;
  const size_t cells = rect_cells(h), loc = local_cells(h);
  if (h->nnodes > q->cap_nodes || h->max_degree + 1 > q->cap_degree || cells > q->cap_rect ||
      loc > q->cap_local) {
    astar_hpa_query tmp = *q;
    tmp.cap_nodes = h->nnodes > q->cap_nodes ? h->nnodes + h->nnodes / 4 : q->cap_nodes;
    tmp.cap_degree = h->max_degree + 1 > q->cap_degree ? h->max_degree + 1 : q->cap_degree;
    tmp.cap_rect = cells > q->cap_rect ? cells : q->cap_rect;
    tmp.cap_local = loc > q->cap_local ? loc : q->cap_local;
    tmp.bytes = 0;
    block_sizes(tmp.cap_rect, tmp.cap_local, &tmp.nd, &tmp.nu);
    tmp.apath = qalloc(&tmp, (size_t)tmp.cap_nodes + 2, sizeof *tmp.apath);
    tmp.dblk = qalloc(&tmp, tmp.nd, sizeof(double));
    tmp.ublk = qalloc(&tmp, tmp.nu, sizeof(uint32_t));
    astar_status st = ASTAR_OK;
    if (!tmp.apath || !tmp.dblk || !tmp.ublk) st = ASTAR_NO_MEMORY;
    if (st == ASTAR_OK) {
      /* The engine's records for nodes + 2, arcs for the largest degree. */
      astar_space s;
      s.ops = &hpa_space_ops;
      s.self = q;
      s.node_count = tmp.cap_nodes + 2;
      s.max_degree = tmp.cap_degree;
      s.flags = 0;
      st = astar_workspace_reserve_space(q->ws, &s, 0);
    }
    if (st != ASTAR_OK) {
      free_buffers(&tmp);
      return st;
    }
    const size_t keep = tmp.bytes;
    free_buffers(q);
    tmp.bytes = q->bytes + keep;
    *q = tmp;
    carve(q);
  }
  return ASTAR_OK;
}

astar_status astar_hpa_query_new(astar_hpa_query **out, const astar_hpa *h,
                                 const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!h) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_hpa_query *q = astar__calloc(&a, 1, sizeof *q);
  if (!q) return ASTAR_NO_MEMORY;
  q->alloc = a;
  q->bytes = sizeof *q;
  astar_status st = astar_workspace_new_empty(&q->ws, &q->alloc);
  if (st == ASTAR_OK) st = astar_hpa_query_reserve(q, h);
  if (st != ASTAR_OK) {
    astar_hpa_query_free(q);
    return st;
  }
  *out = q;
  return ASTAR_OK;
}

void astar_hpa_query_free(astar_hpa_query *q) {
  if (!q) return;
  free_buffers(q);
  astar_workspace_free(q->ws);
  astar_allocator a = q->alloc;
  astar__free(&a, q, sizeof *q);
}

size_t astar_hpa_query_memory(const astar_hpa_query *q) {
  return q ? q->bytes + astar_workspace_memory(q->ws) : 0;
}

/* ---- refinement and smoothing -------------------------------------------------- */

/* Append cell (x, y) to the path (written while it fits). */
static inline void put(astar_point *path, size_t cap, size_t *len, int32_t x, int32_t y) {
  if (*len < cap) path[*len] = (astar_point){x, y};
  (*len)++;
}

/*
** A* over the rectangle from a to b (cells); appends the cells after a.
** Returns false when b is not reached (cannot happen for a graph arc).
*/
static bool refine(astar_hpa_query *q, int32_t rx, int32_t ry, int32_t rw, int32_t rh, uint32_t a,
                   uint32_t b, astar_point *path, size_t cap, size_t *len, uint64_t *expanded) {
  const astar_hpa *h = q->h;
  const uint32_t W = (uint32_t)h->width;
  const int32_t ax = (int32_t)(a % W), ay = (int32_t)(a / W);
  const int32_t bx = (int32_t)(b % W), by = (int32_t)(b / W);
  const uint32_t cells = (uint32_t)rw * (uint32_t)rh;
  for (uint32_t i = 0; i < cells; i++) {
    q->g[i] = INFINITY;
    q->pos[i] = HPA_NONE;
  }
  hpa_heap hp = {q->hb, q->pos, q->f, 0};
  const uint32_t s = (uint32_t)(ay - ry) * (uint32_t)rw + (uint32_t)(ax - rx);
  const uint32_t t = (uint32_t)(by - ry) * (uint32_t)rw + (uint32_t)(bx - rx);
  q->g[s] = 0;
  q->f[s] = octile(q, a, b);
  q->par[s] = HPA_NONE;
  astar__hpa_push(&hp, s);
  bool found = false;
  while (hp.n) {
    const uint32_t u = astar__hpa_pop(&hp);
    (*expanded)++;
    if (u == t) {
      found = true;
      break;
    }
    const int32_t ux = rx + (int32_t)(u % (uint32_t)rw), uy = ry + (int32_t)(u / (uint32_t)rw);
    for (int d = 0; d < 8; d++) {
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      if (vx < rx || vy < ry || vx >= rx + rw || vy >= ry + rh) continue;
      const double c = astar__hpa_step(h, q->grid, ux, uy, vx, vy);
      if (c == INFINITY) continue;
      const uint32_t v = (uint32_t)(vy - ry) * (uint32_t)rw + (uint32_t)(vx - rx);
      const double ng = q->g[u] + c;
      if (ng < q->g[v]) {
        q->g[v] = ng;
        q->f[v] = ng + octile(q, (uint32_t)vy * W + (uint32_t)vx, b);
        q->par[v] = u;
        astar__hpa_push(&hp, v);
      }
    }
  }
  if (!found) return false;
  size_t n = 0;
  for (uint32_t v = t; v != s; v = q->par[v]) n++;
  size_t i = *len + n;
  for (uint32_t v = t; v != s; v = q->par[v]) {
    i--;
    if (i < cap)
      path[i] = (astar_point){rx + (int32_t)(v % (uint32_t)rw), ry + (int32_t)(v / (uint32_t)rw)};
  }
  *len += n;
  return true;
}

#define HPA_SMOOTH_MAX ASTAR_HPA_MAX_CLUSTER

/*
** Botea's smoothing, kept grid-legal: from each cell look up to `win` cells
** ahead (farthest first) for one on a straight or diagonal line whose walk
** is legal and strictly cheaper than the stretch; replace the stretch by it.
** Each of the 8 lines is walked once per cell, only as far as a candidate
** needs. In place (a line never has more cells than the stretch it
** replaces).
*/
static size_t smooth(const astar_hpa_query *q, astar_point *p, size_t n, int32_t win) {
  const astar_hpa *h = q->h;
  double cum[HPA_SMOOTH_MAX + 1];
  double rc[9][HPA_SMOOTH_MAX + 1]; /* cost of t steps along direction slot d */
  int32_t need[9], reach[9];
  /* Step costs into the cells i+1 .. `filled` of the original path, by index
  ** modulo the ring size: cells at or after i are never overwritten. */
  double ring[HPA_SMOOTH_MAX + 1];
  const size_t R = HPA_SMOOTH_MAX + 1;
  size_t filled = 0;
  size_t out = 0, i = 0;
  while (i + 1 < n) {
    const size_t kmax = n - 1 - i < (size_t)win ? n - 1 - i : (size_t)win;
    if (filled < i) filled = i;
    for (; filled < i + kmax; filled++)
      ring[(filled + 1) % R] =
          astar__hpa_step(h, q->grid, p[filled].x, p[filled].y, p[filled + 1].x, p[filled + 1].y);
    cum[0] = 0;
    for (size_t k = 1; k <= kmax; k++) cum[k] = cum[k - 1] + ring[(i + k) % R];
    for (int d = 0; d < 9; d++) need[d] = reach[d] = 0;
    size_t best = 0;
    for (size_t k = 2; k <= kmax; k++) {
      const int32_t dx = p[i + k].x - p[i].x, dy = p[i + k].y - p[i].y;
      const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
      if (!(dx == 0 || dy == 0 || ax == ay)) continue;
      const int32_t t = ax > ay ? ax : ay;
      if (t == 0) { /* a loop back to the same cell */
        best = k;
        continue;
      }
      const double lb = (dx && dy ? h->dc : h->sc) * (double)t * h->min_terrain;
      const int d = ((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1;
      if (lb < cum[k] && t > need[d]) need[d] = t;
    }
    for (int d = 0; d < 9; d++) {
      if (!need[d]) continue;
      const int32_t sx = d % 3 - 1, sy = d / 3 - 1;
      int32_t x = p[i].x, y = p[i].y, t = 0;
      rc[d][0] = 0;
      while (t < need[d]) {
        const double c = astar__hpa_step(h, q->grid, x, y, x + sx, y + sy);
        if (c == INFINITY) break;
        rc[d][t + 1] = rc[d][t] + c;
        t++;
        x += sx;
        y += sy;
      }
      reach[d] = t;
    }
    for (size_t k = kmax; k > best && k >= 2; k--) {
      const int32_t dx = p[i + k].x - p[i].x, dy = p[i + k].y - p[i].y;
      const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
      if (!(dx == 0 || dy == 0 || ax == ay) || (ax | ay) == 0) continue;
      const int32_t t = ax > ay ? ax : ay;
      const int d = ((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1;
      if (t <= reach[d] && rc[d][t] < cum[k]) {
        best = k;
        break;
      }
    }
    if (best) {
      const int32_t dx = p[i + best].x - p[i].x, dy = p[i + best].y - p[i].y;
      const int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
      const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
      const int32_t steps = ax > ay ? ax : ay;
      const astar_point from = p[i];
      for (int32_t s = 1; s < steps; s++)
        p[out + (size_t)s] = (astar_point){from.x + s * sx, from.y + s * sy};
      out += (size_t)steps;
      i += best;
    } else {
      out++;
      i++;
    }
    p[out] = p[i];
  }
  return out + 1;
}

/* ---- joining start and goal ------------------------------------------------------ */

/*
** Dijkstra over the cells of the side's level-1 cluster from its endpoint
** (the goal's backward), parents kept: cp[v] is the next cell toward the
** endpoint. Ties: smaller cost, then smaller rectangle index.
*/
static void cell_join(astar_hpa_query *q, int s) {
  hq_side *sd = &q->side[s];
  q->exp_join += astar__hpa_rect_dijkstra(q->h, q->grid, sd->rx, sd->ry, sd->rw, sd->rh, sd->p.x,
                                          sd->p.y, s == 1, sd->cd, q->hb, q->pos, sd->cp);
}

/*
** Search the local graph x of a level-li cluster (li >= 1): the arcs of the
** level-(li-1) graph between its nodes, reversed when backward. The caller
** has seeded dist / key / par and the heap. target HPA_NONE: a full
** Dijkstra (key == dist); else an A* toward node cell tcell that stops when
** the target is settled. With direct (forward joins only) every settled
** node of the goal's level-(li-1) cluster offers an arc into the goal.
*/
static void local_search(astar_hpa_query *q, int li, const hq_ctx *x, bool backward, double *dist,
                         double *key, uint32_t *par, const uint32_t *gl, hpa_heap *hp,
                         uint32_t target, uint32_t tcell, bool direct, uint64_t *expanded) {
  const astar_hpa *h = q->h;
  const hpa_level *D = &h->lv[li - 1];
  const uint32_t gk = direct ? cell_cluster(h, li - 1, node_cell(q, h->nnodes + 1)) : 0;
  while (hp->n) {
    const uint32_t u = astar__hpa_pop(hp);
    (*expanded)++;
    if (u == target) return;
    const uint32_t g = gl[u];
    const uint32_t c = cell_cluster(h, li - 1, h->ncell[g]);
    if (direct && c == gk) {
      const double jg = join_value(q, 1, li - 1, g);
      if (dist[u] + jg < q->direct[li]) {
        q->direct[li] = dist[u] + jg;
        q->dpar[li] = u;
      }
    }
    const hpa_cluster *cl = &D->cl[c];
    const uint32_t i = D->lidx[g], n = cl->n;
    const uint32_t base = ctx_local(h, li, x, c, g) - i;
    for (uint32_t j = 0; j < n; j++) {
      const double w = backward ? cl->cost[(size_t)j * n + i] : cl->cost[(size_t)i * n + j];
      if (j == i || w == INFINITY) continue;
      const uint32_t v = base + j;
      const double nd = dist[u] + w;
      if (nd < dist[v]) {
        dist[v] = nd;
        par[v] = u;
        if (key != dist) key[v] = nd + octile(q, h->ncell[gl[v]], tcell);
        astar__hpa_push(hp, v);
      }
    }
    for (uint32_t a = h->xoff[g]; a < h->xoff[g + 1]; a++) {
      const uint32_t vg = h->xto[a];
      if (vg == HPA_NONE) continue;
      const double w = backward ? h->xin[a] : h->xout[a];
      if (w == INFINITY) continue;
      const uint32_t vc = cell_cluster(h, li - 1, h->ncell[vg]);
      if (vc == c || cell_cluster(h, li, h->ncell[vg]) != x->k) continue;
      const uint32_t v = ctx_local(h, li, x, vc, vg);
      const double nd = dist[u] + w;
      if (nd < dist[v]) {
        dist[v] = nd;
        par[v] = u;
        if (key != dist) key[v] = nd + octile(q, h->ncell[vg], tcell);
        astar__hpa_push(hp, v);
      }
    }
  }
}

/* The side's level-li join (li >= 1), seeded with its level-(li-1) join. */
static void level_join(astar_hpa_query *q, int s, int li) {
  const astar_hpa *h = q->h;
  hq_side *sd = &q->side[s];
  const uint32_t cell = node_cell(q, h->nnodes + (uint32_t)s);
  hq_ctx *x = &sd->ctx[li];
  const uint32_t m = ctx_init(h, li, cell_cluster(h, li, cell), x);
  ctx_fill(h, li, x, sd->gl[li]);
  double *dist = sd->d[li];
  for (uint32_t i = 0; i < m; i++) {
    dist[i] = INFINITY;
    q->rpos[i] = HPA_NONE;
  }
  hpa_heap hp = {q->rhb, q->rpos, dist, 0};
  const hpa_level *D = &h->lv[li - 1];
  const uint32_t c = cell_cluster(h, li - 1, cell);
  for (uint32_t j = 0; j < D->cl[c].n; j++) {
    const uint32_t g = D->gid[D->goff[c] + j];
    const double v = join_value(q, s, li - 1, g);
    if (v == INFINITY) continue;
    const uint32_t loc = ctx_local(h, li, x, c, g);
    dist[loc] = v;
    sd->par[li][loc] = HQ_SEED;
    astar__hpa_push(&hp, loc);
  }
  const bool direct = s == 0 && li >= q->shared;
  if (direct) {
    q->direct[li] = li - 1 >= q->shared ? q->direct[li - 1] : INFINITY;
    q->dpar[li] = HQ_BELOW;
  }
  local_search(q, li, x, s == 1, dist, dist, sd->par[li], sd->gl[li], &hp, HPA_NONE, 0, direct,
               &q->exp_join);
}

/* ---- refinement, level by level ---------------------------------------------------- */

static void rect_of_level1(const astar_hpa *h, uint32_t k, int32_t *x0, int32_t *y0, int32_t *w,
                           int32_t *hh) {
  const hpa_level *L = &h->lv[0];
  *x0 = (int32_t)(k % (uint32_t)L->ncx) * L->side;
  *y0 = (int32_t)(k / (uint32_t)L->ncx) * L->side;
  *w = *x0 + L->side <= h->width ? L->side : h->width - *x0;
  *hh = *y0 + L->side <= h->height ? L->side : h->height - *y0;
}

typedef struct hq_out {
  astar_point *path; /* the caller's buffer */
  size_t cap, len;   /* its capacity, cells appended (also past cap) */
} hq_out;

/* Append the cells after u of the level-li arc u -> v. false: not refined
** (cannot happen for a consistent graph). */
static bool emit_arc(astar_hpa_query *q, int li, uint32_t u, uint32_t v, hq_out *o) {
  const astar_hpa *h = q->h;
  const uint32_t W = (uint32_t)h->width;
  const uint32_t cu = h->ncell[u], cv = h->ncell[v];
  const uint32_t k = cell_cluster(h, li, cu);
  if (k != cell_cluster(h, li, cv)) {
    put(o->path, o->cap, &o->len, (int32_t)(cv % W), (int32_t)(cv / W));
    return true;
  }
  if (cu == cv) return true;
  if (li == 0) {
    int32_t x0, y0, w, hh;
    rect_of_level1(h, k, &x0, &y0, &w, &hh);
    return refine(q, x0, y0, w, hh, cu, cv, o->path, o->cap, &o->len, &q->exp_refine);
  }
  hq_ctx x;
  const uint32_t m = ctx_init(h, li, k, &x);
  ctx_fill(h, li, &x, q->rgl);
  for (uint32_t i = 0; i < m; i++) {
    q->rd[i] = INFINITY;
    q->rpos[i] = HPA_NONE;
  }
  hpa_heap hp = {q->rhb, q->rpos, q->rf, 0};
  const uint32_t s = ctx_local_of(h, li, &x, u), t = ctx_local_of(h, li, &x, v);
  q->rd[s] = 0;
  q->rf[s] = octile(q, cu, cv);
  q->rpar[s] = HPA_NONE;
  astar__hpa_push(&hp, s);
  local_search(q, li, &x, false, q->rd, q->rf, q->rpar, q->rgl, &hp, t, cv, false, &q->exp_refine);
  if (q->rd[t] == INFINITY) return false;
  /* The level-(li-1) nodes of the path, into this level's buffer (the deeper
  ** refinements reuse the search buffers). */
  uint32_t n = 0;
  for (uint32_t a = t; a != HPA_NONE; a = q->rpar[a]) n++;
  uint32_t *pb = q->pbuf[li];
  uint32_t i = n;
  for (uint32_t a = t; a != HPA_NONE; a = q->rpar[a]) pb[--i] = q->rgl[a];
  for (i = 0; i + 1 < n; i++)
    if (!emit_arc(q, li - 1, pb[i], pb[i + 1], o)) return false;
  return true;
}

/* Append the cells after the start of the start's join path to `cell` (level 0). */
static void cell_chain_start(astar_hpa_query *q, uint32_t cell, hq_out *o) {
  const hq_side *sd = &q->side[0];
  const uint32_t W = (uint32_t)q->h->width;
  const uint32_t rw = (uint32_t)sd->rw;
  const uint32_t t = (cell / W - (uint32_t)sd->ry) * rw + cell % W - (uint32_t)sd->rx;
  size_t n = 0;
  for (uint32_t v = t; sd->cp[v] != HPA_NONE; v = sd->cp[v]) n++;
  size_t i = o->len + n;
  for (uint32_t v = t; sd->cp[v] != HPA_NONE; v = sd->cp[v]) {
    i--;
    if (i < o->cap)
      o->path[i] = (astar_point){sd->rx + (int32_t)(v % rw), sd->ry + (int32_t)(v / rw)};
  }
  o->len += n;
}

/* Append the cells after `cell` of its join path to the goal (level 0). */
static void cell_chain_goal(astar_hpa_query *q, uint32_t cell, hq_out *o) {
  const hq_side *sd = &q->side[1];
  const uint32_t W = (uint32_t)q->h->width;
  const uint32_t rw = (uint32_t)sd->rw;
  uint32_t v = (cell / W - (uint32_t)sd->ry) * rw + cell % W - (uint32_t)sd->rx;
  while (sd->cp[v] != HPA_NONE) {
    v = sd->cp[v];
    put(o->path, o->cap, &o->len, sd->rx + (int32_t)(v % rw), sd->ry + (int32_t)(v / rw));
  }
}

/* The start's level-li join path to node g (a node of its level-li local graph). */
static bool emit_join_start(astar_hpa_query *q, int li, uint32_t g, hq_out *o) {
  if (li == 0) {
    cell_chain_start(q, q->h->ncell[g], o);
    return true;
  }
  const hq_side *sd = &q->side[0];
  uint32_t *cb = q->cbuf[li];
  uint32_t n = 0;
  uint32_t a = ctx_local_of(q->h, li, &sd->ctx[li], g);
  for (;;) {
    cb[n++] = sd->gl[li][a];
    if (sd->par[li][a] == HQ_SEED) break;
    a = sd->par[li][a];
  }
  if (!emit_join_start(q, li - 1, cb[n - 1], o)) return false;
  for (uint32_t i = n - 1; i > 0; i--)
    if (!emit_arc(q, li - 1, cb[i], cb[i - 1], o)) return false;
  return true;
}

/* The goal's level-li join path from node g. */
static bool emit_join_goal(astar_hpa_query *q, int li, uint32_t g, hq_out *o) {
  if (li == 0) {
    cell_chain_goal(q, q->h->ncell[g], o);
    return true;
  }
  const hq_side *sd = &q->side[1];
  uint32_t a = ctx_local_of(q->h, li, &sd->ctx[li], g);
  while (sd->par[li][a] != HQ_SEED) {
    const uint32_t b = sd->par[li][a];
    if (!emit_arc(q, li - 1, sd->gl[li][a], sd->gl[li][b], o)) return false;
    a = b;
  }
  return emit_join_goal(q, li - 1, sd->gl[li][a], o);
}

/* The direct start -> goal path inside their level-li cluster. */
static bool emit_direct(astar_hpa_query *q, int li, hq_out *o) {
  if (li == 0) {
    cell_chain_start(q, node_cell(q, q->h->nnodes + 1), o);
    return true;
  }
  if (q->dpar[li] == HQ_BELOW) return emit_direct(q, li - 1, o);
  const uint32_t g = q->side[0].gl[li][q->dpar[li]];
  return emit_join_start(q, li, g, o) && emit_join_goal(q, li - 1, g, o);
}

/* ---- the query ----------------------------------------------------------------- */

astar_status astar_hpa_find_path(astar_hpa_query *q, const astar_hpa *h, const astar_grid *grid,
                                 astar_point start, astar_point goal, astar_point *path, size_t cap,
                                 astar_hpa_result *result) {
  astar_hpa_result dummy = {0};
  astar_hpa_result *r = result ? result : &dummy;
  memset(r, 0, sizeof *r);
  if (!q || !h || !grid || (!path && cap)) return ASTAR_INVALID_ARGUMENT;
  if (grid != h->grid || grid->width != h->width || grid->height != h->height)
    return h->grid == NULL ? ASTAR_STALE : ASTAR_MISMATCH;
  if (astar_grid_version(grid) != h->version) return ASTAR_STALE;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (!astar_grid_passable(grid, start.x, start.y)) return ASTAR_START_BLOCKED;
  if (!astar_grid_passable(grid, goal.x, goal.y)) return ASTAR_GOAL_BLOCKED;
  if (h->nnodes > q->cap_nodes || h->max_degree + 1 > q->cap_degree ||
      rect_cells(h) > q->cap_rect || local_cells(h) > q->cap_local)
    return ASTAR_CAPACITY;
  hq_out o = {path, cap, 0};
  put(path, cap, &o.len, start.x, start.y);
  if (start.x == goal.x && start.y == goal.y) {
    r->length = 1;
    r->abstract_length = 1;
    return cap ? ASTAR_OK : ASTAR_BUFFER_TOO_SMALL;
  }
  q->h = h;
  q->grid = grid;
  q->side[0].p = start;
  q->side[1].p = goal;
  q->exp_join = q->exp_refine = 0;
  q->hscale_s = h->sc * h->min_terrain;
  q->hscale_d =
      (h->moves == 8 && h->corner != ASTAR_CORNER_NEVER ? (h->dc < 2 * h->sc ? h->dc : 2 * h->sc)
                                                        : 2 * h->sc) *
      h->min_terrain;
  const uint32_t W = (uint32_t)h->width;
  const uint32_t sc = (uint32_t)start.y * W + (uint32_t)start.x;
  const uint32_t gc = (uint32_t)goal.y * W + (uint32_t)goal.x;
  const int top = h->levels - 1;
  q->kg = cell_cluster(h, top, gc);
  q->shared = h->levels;
  for (int li = 0; li < ASTAR_HPA_MAX_LEVELS; li++) {
    q->direct[li] = INFINITY; /* no direct path below the shared level */
    q->dpar[li] = HQ_BELOW;
  }
  for (int li = top; li >= 0 && cell_cluster(h, li, sc) == cell_cluster(h, li, gc); li--)
    q->shared = li;
  for (int s = 0; s < 2; s++) {
    hq_side *sd = &q->side[s];
    rect_of_level1(h, cell_cluster(h, 0, s ? gc : sc), &sd->rx, &sd->ry, &sd->rw, &sd->rh);
  }
  /* The goal's joins first: the start's direct search at level li uses the goal's li-1. */
  cell_join(q, 1);
  for (int li = 1; li <= top; li++) level_join(q, 1, li);
  cell_join(q, 0);
  q->direct[0] =
      q->shared == 0
          ? q->side[0].cd[(goal.y - q->side[0].ry) * q->side[0].rw + goal.x - q->side[0].rx]
          : INFINITY;
  for (int li = 1; li <= top; li++) level_join(q, 0, li);
  r->expanded_insert = q->exp_join;
  const astar_space space = make_space(q);
  astar_engine_options eo;
  astar_engine_options_init(&eo); /* the defaults: valid, not validated again */
  astar_engine_result er;
  const astar_node S = h->nnodes, G = h->nnodes + 1;
  astar_status st = astar__space_find_path_checked(q->ws, &space, &eo, S, G, q->apath,
                                                   (size_t)q->cap_nodes + 2, &er);
  r->expanded_top = er.stats.expanded;
  if (st != ASTAR_OK) return st == ASTAR_NO_PATH ? ASTAR_NO_PATH : st;
  r->abstract_cost = er.cost;
  r->abstract_length = (uint32_t)er.length;
  /* Refine every abstract arc level by level; a crossing is one move. */
  bool ok = true;
  for (size_t i = 0; ok && i + 1 < er.length; i++) {
    const astar_node u = q->apath[i], v = q->apath[i + 1];
    if (u == S && v == G)
      ok = emit_direct(q, top, &o);
    else if (u == S)
      ok = emit_join_start(q, top, v, &o);
    else if (v == G)
      ok = emit_join_goal(q, top, u, &o);
    else
      ok = emit_arc(q, top, u, v, &o);
  }
  r->expanded_refine = q->exp_refine;
  if (!ok) return ASTAR_NO_PATH; /* unreachable for a consistent graph */
  size_t len = o.len;
  if (len > cap) {
    r->length = len;
    return ASTAR_BUFFER_TOO_SMALL;
  }
  if (h->hopt.smooth) len = smooth(q, path, len, h->hopt.cluster_size);
  double cost = 0;
  for (size_t i = 0; i + 1 < len; i++)
    cost += astar__hpa_step(h, grid, path[i].x, path[i].y, path[i + 1].x, path[i + 1].y);
  r->cost = cost;
  r->length = len;
  return ASTAR_OK;
}
