/*
** hpa_query.c -- HPA* queries (astar/hierarchy.h): the query object that
** holds every buffer, joining start and goal to their top-level cluster, the
** top-level search through the general engine over an astar_space view of
** the abstract graph, the refinement of each abstract arc into cells, and
** the smoothing that keeps the path grid-legal.
*/
#include "hierarchy/hpa.h"

#include <string.h>

struct astar_hpa_query {
  astar_allocator alloc; /* where every block came from */
  size_t bytes;          /* bytes held, the workspace's included through astar_workspace_memory */
  astar_workspace *ws;   /* the engine's workspace, reserved for nodes + 2 */
  uint32_t cap_nodes;    /* abstract nodes the buffers hold (start and goal not counted) */
  uint32_t cap_degree;   /* max_degree the workspace was reserved for */
  size_t cap_rect;       /* cells of a top-level cluster the rectangle buffers hold */
  astar_node *apath;     /* [cap_nodes + 2] the abstract path */
  double *ds, *dg;       /* [cap_rect] start's forward, goal's backward costs */
  double *g, *f;         /* [cap_rect] refinement A*: cost so far, key */
  uint32_t *par, *hb, *pos; /* [cap_rect] parents, heap, heap positions */
  /* The query in progress (the space's view). */
  const astar_hpa *h;
  const astar_grid *grid;
  astar_point start, goal;
  uint32_t ks, kg;           /* top-level clusters of start and goal */
  int32_t sx0, sy0, sw, sh;  /* start's top cluster rectangle */
  int32_t gx0, gy0, gw, gh;  /* goal's */
  double direct;             /* start -> goal inside one top cluster, INFINITY if none */
  double hscale_s, hscale_d; /* octile step costs times the smallest terrain */
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
  qfree(q, q->ds, q->cap_rect, sizeof(double));
  qfree(q, q->dg, q->cap_rect, sizeof(double));
  qfree(q, q->g, q->cap_rect, sizeof(double));
  qfree(q, q->f, q->cap_rect, sizeof(double));
  qfree(q, q->par, q->cap_rect, sizeof(uint32_t));
  qfree(q, q->hb, q->cap_rect, sizeof(uint32_t));
  qfree(q, q->pos, q->cap_rect, sizeof(uint32_t));
  q->apath = NULL;
  q->ds = q->dg = q->g = q->f = NULL;
  q->par = q->hb = q->pos = NULL;
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
  const astar_point p = n == h->nnodes ? q->start : q->goal;
  return (uint32_t)p.y * (uint32_t)h->width + (uint32_t)p.x;
}

static double sp_heuristic(const void *self, astar_node a, astar_node b) {
  const astar_hpa_query *q = self;
  return octile(q, node_cell(q, a), node_cell(q, b));
}

static uint32_t top_cluster(const astar_hpa *h, uint32_t cell) {
  return astar__hpa_cluster_of(h, h->levels - 1, (int32_t)(cell % (uint32_t)h->width),
                               (int32_t)(cell / (uint32_t)h->width));
}

/* Arcs: start -> its cluster's nodes (and the goal), node -> cluster nodes,
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
    const hpa_cluster *c = &L->cl[q->ks];
    for (uint32_t j = 0; j < c->n; j++) {
      const uint32_t cell = c->cell[j];
      const double d = q->ds[(int32_t)(cell / (uint32_t)h->width - (uint32_t)q->sy0) * q->sw +
                             (int32_t)(cell % (uint32_t)h->width) - q->sx0];
      if (d < INFINITY) arcs[n++] = (astar_arc){L->gid[L->goff[q->ks] + j], d};
    }
    if (q->direct < INFINITY) arcs[n++] = (astar_arc){G, q->direct};
    return n;
  }
  const uint32_t k = top_cluster(h, h->ncell[u]);
  const hpa_cluster *c = &L->cl[k];
  const uint32_t i = L->lidx[u];
  const double *row = c->cost + (size_t)i * c->n;
  for (uint32_t j = 0; j < c->n; j++)
    if (j != i && row[j] < INFINITY) arcs[n++] = (astar_arc){L->gid[L->goff[k] + j], row[j]};
  for (uint32_t a = h->xoff[u]; a < h->xoff[u + 1]; a++) {
    const uint32_t v = h->xto[a];
    if (v != HPA_NONE && h->xout[a] < INFINITY && top_cluster(h, h->ncell[v]) != k)
      arcs[n++] = (astar_arc){v, h->xout[a]};
  }
  if (k == q->kg) {
    const uint32_t cell = h->ncell[u];
    const double d = q->dg[(int32_t)(cell / (uint32_t)h->width - (uint32_t)q->gy0) * q->gw +
                           (int32_t)(cell % (uint32_t)h->width) - q->gx0];
    if (d < INFINITY) arcs[n++] = (astar_arc){G, d};
  }
  return n;
}

static bool sp_position(const void *self, astar_node n, double xyz[3]) {
  const astar_hpa_query *q = self;
  const uint32_t c = node_cell(q, n);
  xyz[0] = (double)(c % (uint32_t)q->h->width);
  xyz[1] = (double)(c / (uint32_t)q->h->width);
  xyz[2] = 0;
  return true;
}

static const astar_space_ops hpa_space_ops = {sp_successors, NULL, sp_heuristic, NULL, sp_position};

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

static size_t top_cells(const astar_hpa *h) {
  const size_t side = (size_t)h->lv[h->levels - 1].side;
  size_t w = side < (size_t)h->width ? side : (size_t)h->width;
  size_t hh = side < (size_t)h->height ? side : (size_t)h->height;
  return w * hh;
}

astar_status astar_hpa_query_reserve(astar_hpa_query *q, const astar_hpa *h) {
  if (!q || !h) return ASTAR_INVALID_ARGUMENT;
  const size_t cells = top_cells(h);
  if (h->nnodes > q->cap_nodes || h->max_degree + 1 > q->cap_degree || cells > q->cap_rect) {
    astar_hpa_query tmp = *q;
    tmp.cap_nodes = h->nnodes > q->cap_nodes ? h->nnodes + h->nnodes / 4 : q->cap_nodes;
    tmp.cap_degree = h->max_degree + 1 > q->cap_degree ? h->max_degree + 1 : q->cap_degree;
    tmp.cap_rect = cells > q->cap_rect ? cells : q->cap_rect;
    tmp.bytes = 0;
    tmp.apath = qalloc(&tmp, (size_t)tmp.cap_nodes + 2, sizeof *tmp.apath);
    tmp.ds = qalloc(&tmp, tmp.cap_rect, sizeof(double));
    tmp.dg = qalloc(&tmp, tmp.cap_rect, sizeof(double));
    tmp.g = qalloc(&tmp, tmp.cap_rect, sizeof(double));
    tmp.f = qalloc(&tmp, tmp.cap_rect, sizeof(double));
    tmp.par = qalloc(&tmp, tmp.cap_rect, sizeof(uint32_t));
    tmp.hb = qalloc(&tmp, tmp.cap_rect, sizeof(uint32_t));
    tmp.pos = qalloc(&tmp, tmp.cap_rect, sizeof(uint32_t));
    astar_status st = ASTAR_OK;
    if (!tmp.apath || !tmp.ds || !tmp.dg || !tmp.g || !tmp.f || !tmp.par || !tmp.hb || !tmp.pos)
      st = ASTAR_NO_MEMORY;
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

/* ---- the query ----------------------------------------------------------------- */

static void rect_of(const astar_hpa *h, uint32_t k, int32_t *x0, int32_t *y0, int32_t *w,
                    int32_t *hh) {
  const hpa_level *L = &h->lv[h->levels - 1];
  *x0 = (int32_t)(k % (uint32_t)L->ncx) * L->side;
  *y0 = (int32_t)(k / (uint32_t)L->ncx) * L->side;
  *w = *x0 + L->side <= h->width ? L->side : h->width - *x0;
  *hh = *y0 + L->side <= h->height ? L->side : h->height - *y0;
}

astar_status astar_hpa_find_path(astar_hpa_query *q, const astar_hpa *h, const astar_grid *grid,
                                 astar_point start, astar_point goal, astar_point *path, size_t cap,
                                 astar_hpa_result *result) {
  astar_hpa_result dummy;
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
  if (h->nnodes > q->cap_nodes || h->max_degree + 1 > q->cap_degree || top_cells(h) > q->cap_rect)
    return ASTAR_CAPACITY;
  size_t len = 0;
  put(path, cap, &len, start.x, start.y);
  if (start.x == goal.x && start.y == goal.y) {
    r->length = 1;
    r->abstract_length = 1;
    return cap ? ASTAR_OK : ASTAR_BUFFER_TOO_SMALL;
  }
  q->h = h;
  q->grid = grid;
  q->start = start;
  q->goal = goal;
  q->hscale_s = h->sc * h->min_terrain;
  q->hscale_d =
      (h->moves == 8 && h->corner != ASTAR_CORNER_NEVER ? (h->dc < 2 * h->sc ? h->dc : 2 * h->sc)
                                                        : 2 * h->sc) *
      h->min_terrain;
  const uint32_t W = (uint32_t)h->width;
  const uint32_t sc = (uint32_t)start.y * W + (uint32_t)start.x;
  const uint32_t gc = (uint32_t)goal.y * W + (uint32_t)goal.x;
  q->ks = top_cluster(h, sc);
  q->kg = top_cluster(h, gc);
  rect_of(h, q->ks, &q->sx0, &q->sy0, &q->sw, &q->sh);
  rect_of(h, q->kg, &q->gx0, &q->gy0, &q->gw, &q->gh);
  r->expanded_insert += astar__hpa_rect_dijkstra(h, grid, q->sx0, q->sy0, q->sw, q->sh, start.x,
                                                 start.y, false, q->ds, q->hb, q->pos);
  r->expanded_insert += astar__hpa_rect_dijkstra(h, grid, q->gx0, q->gy0, q->gw, q->gh, goal.x,
                                                 goal.y, true, q->dg, q->hb, q->pos);
  q->direct = q->ks == q->kg ? q->ds[(goal.y - q->sy0) * q->sw + (goal.x - q->sx0)] : INFINITY;
  const astar_space space = make_space(q);
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  astar_engine_result er;
  const astar_node S = h->nnodes, G = h->nnodes + 1;
  astar_status st =
      astar_space_find_path(q->ws, &space, &eo, S, G, q->apath, (size_t)q->cap_nodes + 2, &er);
  r->expanded_top = er.stats.expanded;
  if (st != ASTAR_OK) return st == ASTAR_NO_PATH ? ASTAR_NO_PATH : st;
  r->abstract_cost = er.cost;
  r->abstract_length = (uint32_t)er.length;
  /* Refine every arc inside the top cluster holding it; a crossing is one move. */
  for (size_t i = 0; i + 1 < er.length; i++) {
    const astar_node u = q->apath[i], v = q->apath[i + 1];
    const uint32_t cu = node_cell(q, u), cv = node_cell(q, v);
    const uint32_t ku = top_cluster(h, cu), kv = top_cluster(h, cv);
    if (ku != kv) {
      put(path, cap, &len, (int32_t)(cv % W), (int32_t)(cv / W));
      continue;
    }
    if (cu == cv) continue; /* the start or goal is itself a node */
    int32_t x0, y0, w, hh;
    rect_of(h, ku, &x0, &y0, &w, &hh);
    if (!refine(q, x0, y0, w, hh, cu, cv, path, cap, &len, &r->expanded_refine))
      return ASTAR_NO_PATH; /* unreachable for a consistent graph */
  }
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
