/*
** hpa_build.c -- building and updating the HPA* hierarchy (astar/hierarchy.h):
** the entrances and transitions of the level-1 clusters, their exact
** in-cluster cost matrices (a Dijkstra over the cluster's cells from every
** node), the upper levels (a Dijkstra over the level below restricted to the
** cluster), and the incremental update that recomputes only the clusters an
** edit touches. A full build is the update of every cluster, so the two give
** the same bytes.
*/
#include "hierarchy/hpa.h"
#include "search/query.h"

#include <stdlib.h>
#include <string.h>

void *astar__hpa_alloc(astar_hpa *h, size_t n, size_t size) {
  size_t bytes;
  if (n == 0 || !astar__mul(n, size, &bytes)) return NULL;
  void *p = astar__malloc(&h->alloc, bytes);
  if (p) h->bytes += bytes;
  return p;
}

void astar__hpa_free(astar_hpa *h, void *p, size_t n, size_t size) {
  if (!p) return;
  astar__free(&h->alloc, p, n * size);
  h->bytes -= n * size;
}

void astar__hpa_cluster_clear(astar_hpa *h, hpa_cluster *c, bool level1) {
  const size_t n = c->n;
  astar__hpa_free(h, c->cell, n, sizeof *c->cell);
  astar__hpa_free(h, c->cost, n * n, sizeof *c->cost);
  astar__hpa_free(h, c->adj, c->nadj, sizeof *c->adj);
  if (level1 && c->xoff) {
    const size_t m = c->xoff[n];
    astar__hpa_free(h, c->xcell, m, sizeof *c->xcell);
    astar__hpa_free(h, c->xout, m, sizeof *c->xout);
    astar__hpa_free(h, c->xin, m, sizeof *c->xin);
    astar__hpa_free(h, c->xoff, n + 1, sizeof *c->xoff);
  }
  memset(c, 0, sizeof *c);
}

double astar__hpa_step(const astar_hpa *h, const astar_grid *g, int32_t ax, int32_t ay, int32_t bx,
                       int32_t by) {
  /* Direction of (dx, dy) + 1, indexed [dy + 1][dx + 1] (-1: no move). */
  static const int8_t dir_of[3][3] = {
      {ASTAR__NW, ASTAR__N, ASTAR__NE}, {ASTAR__W, -1, ASTAR__E}, {ASTAR__SW, ASTAR__S, ASTAR__SE}};
  const int d = dir_of[by - ay + 1][bx - ax + 1];
  /* The neighbour byte of a holds b's passability and the two corner cells
  ** of a diagonal; cells beyond the grid are the blocked border. */
  if (d < 0 || !(h->move[g->nb[astar__index(g, ax, ay)]] >> d & 1u)) return INFINITY;
  const double t = g->terrain ? (double)g->terrain[astar__index(g, bx, by)] : 1.0;
  return (d >= 4 ? h->dc : h->sc) * t;
}

uint64_t astar__hpa_rect_dijkstra(const astar_hpa *hp, const astar_grid *g, int32_t rx, int32_t ry,
                                  int32_t rw, int32_t rh, int32_t sx, int32_t sy, bool backward,
                                  double *dist, uint32_t *hbuf, // NOLINT: the heap writes it
                                  uint32_t *pos, uint32_t *par) {
  const uint32_t cells = (uint32_t)rw * (uint32_t)rh;
  for (uint32_t i = 0; i < cells; i++) {
    dist[i] = INFINITY;
    pos[i] = HPA_NONE;
  }
  hpa_heap q = {hbuf, pos, dist, 0};
  const uint32_t s = (uint32_t)(sy - ry) * (uint32_t)rw + (uint32_t)(sx - rx);
  dist[s] = 0;
  if (par) par[s] = HPA_NONE;
  astar__hpa_push(&q, s);
  uint64_t settled = 0;
  while (q.n) {
    const uint32_t u = astar__hpa_pop(&q);
    settled++;
    const int32_t ux = rx + (int32_t)(u % (uint32_t)rw), uy = ry + (int32_t)(u / (uint32_t)rw);
    for (int d = 0; d < 8; d++) {
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      if (vx < rx || vy < ry || vx >= rx + rw || vy >= ry + rh) continue;
      const double c = backward ? astar__hpa_step(hp, g, vx, vy, ux, uy)
                                : astar__hpa_step(hp, g, ux, uy, vx, vy);
      if (c == INFINITY) continue;
      const uint32_t v = (uint32_t)(vy - ry) * (uint32_t)rw + (uint32_t)(vx - rx);
      const double nd = dist[u] + c;
      if (nd < dist[v]) {
        dist[v] = nd;
        if (par) par[v] = u;
        astar__hpa_push(&q, v);
      }
    }
  }
  return settled;
}

uint64_t astar__hpa_grid_sum(const astar_grid *g) {
  uint64_t h =
      UINT64_C(0x9E3779B97F4A7C15) ^ ((uint64_t)(uint32_t)g->width << 32 | (uint32_t)g->height);
  for (int32_t y = 0; y < g->height; y++)
    for (int32_t x = 0; x < g->width; x++) {
      const uint32_t i = astar__index(g, x, y);
      uint32_t t = 0;
      if (g->terrain) memcpy(&t, &g->terrain[i], 4);
      const uint64_t w = (uint64_t)g->pass[i] << 32 | t;
      h = (h ^ w) * UINT64_C(0x100000001B3);
      h ^= h >> 29;
    }
  return h;
}

/* ---- level-1 transitions ------------------------------------------------------- */

typedef struct hpa_cross {
  uint32_t node, other; /* cell of the node in this cluster, cell across */
  double out, in;       /* move costs node -> other, other -> node */
} hpa_cross;

typedef struct build_ctx {
  astar_hpa *h;
  const astar_grid *g;
  hpa_cross *cr; /* [crcap] crossings of the cluster being built */
  size_t ncr, crcap;
  uint32_t entrances; /* entrances counted (east and south borders, a < b diagonals) */
  double *dist;       /* [side^2] and [abstract nodes] scratch */
  uint32_t *hbuf, *pos;
  size_t scratch; /* capacity of dist / hbuf / pos */
} build_ctx;

static void add_cross(build_ctx *b, int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  const astar_hpa *h = b->h;
  hpa_cross *c = &b->cr[b->ncr++];
  c->node = (uint32_t)ay * (uint32_t)h->width + (uint32_t)ax;
  c->other = (uint32_t)by * (uint32_t)h->width + (uint32_t)bx;
  c->out = astar__hpa_step(h, b->g, ax, ay, bx, by);
  c->in = astar__hpa_step(h, b->g, bx, by, ax, ay);
}

/*
** The straight entrances of one border: cells (x, y) on the near line and
** (x + ox, y + oy) across, along the line from t = lo to hi (a column when
** vertical). mine: 0 the near cells are this cluster's, 1 the far ones.
*/
static void border(build_ctx *b, bool vertical, int32_t fixed, int32_t lo, int32_t hi, int mine,
                   bool count) {
  const astar_grid *g = b->g;
  const int32_t wide = b->h->hopt.wide_entrance;
  int32_t t = lo;
  while (t <= hi) {
    int32_t ax = vertical ? fixed : t, ay = vertical ? t : fixed;
    int32_t bx = vertical ? fixed + 1 : t, by = vertical ? t : fixed + 1;
    if (!(g->pass[astar__index(g, ax, ay)] && g->pass[astar__index(g, bx, by)])) {
      t++;
      continue;
    }
    int32_t e = t;
    while (e + 1 <= hi) {
      const int32_t nx = vertical ? fixed : e + 1, ny = vertical ? e + 1 : fixed;
      const int32_t mx = vertical ? fixed + 1 : e + 1, my = vertical ? e + 1 : fixed + 1;
      if (!(g->pass[astar__index(g, nx, ny)] && g->pass[astar__index(g, mx, my)])) break;
      e++;
    }
    if (count) b->entrances++;
    int32_t picks[2], np = 0;
    if (e - t + 1 >= wide) {
      picks[np++] = t;
      if (e != t) picks[np++] = e;
    } else {
      picks[np++] = t + (e - t) / 2;
    }
    for (int i = 0; i < np; i++) {
      const int32_t p = picks[i];
      const int32_t px = vertical ? fixed : p, py = vertical ? p : fixed;
      const int32_t qx = vertical ? fixed + 1 : p, qy = vertical ? p : fixed + 1;
      if (mine == 0)
        add_cross(b, px, py, qx, qy);
      else
        add_cross(b, qx, qy, px, py);
    }
    t = e + 1;
  }
}

static int cmp_cross(const void *a, const void *b) {
  const hpa_cross *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return x->other < y->other ? -1 : x->other > y->other;
}

/* Compute level-1 cluster (cx, cy) into *out (empty on entry). */
static astar_status build_level1(build_ctx *b, int32_t cx, int32_t cy, hpa_cluster *out) {
  astar_hpa *h = b->h;
  const astar_grid *g = b->g;
  const int32_t s = h->lv[0].side;
  const int32_t x0 = cx * s, y0 = cy * s;
  const int32_t x1 = x0 + s < h->width ? x0 + s - 1 : h->width - 1;
  const int32_t y1 = y0 + s < h->height ? y0 + s - 1 : h->height - 1;
  b->ncr = 0;
  const uint32_t ent0 = b->entrances;
  if (x1 + 1 < h->width) border(b, true, x1, y0, y1, 0, true);
  if (x0 > 0) border(b, true, x0 - 1, y0, y1, 1, false);
  if (y1 + 1 < h->height) border(b, false, y1, x0, x1, 0, true);
  if (y0 > 0) border(b, false, y0 - 1, x0, x1, 1, false);
  if (h->corner == ASTAR_CORNER_ALWAYS && h->moves == 8) {
    /* Diagonal crossings with both side cells blocked: no straight pair next to them. */
    for (int32_t y = y0; y <= y1; y++)
      for (int32_t x = x0; x <= x1; x++) {
        if (x != x0 && x != x1 && y != y0 && y != y1) continue;
        if (!g->pass[astar__index(g, x, y)]) continue;
        for (int d = 4; d < 8; d++) {
          const int32_t nx = x + astar__dir_dx[d], ny = y + astar__dir_dy[d];
          if (nx >= x0 && nx <= x1 && ny >= y0 && ny <= y1) continue;
          if (nx < 0 || ny < 0 || nx >= h->width || ny >= h->height) continue;
          if (!g->pass[astar__index(g, nx, ny)]) continue;
          if (g->pass[astar__index(g, nx, y)] || g->pass[astar__index(g, x, ny)]) continue;
          add_cross(b, x, y, nx, ny);
          if (b->cr[b->ncr - 1].node < b->cr[b->ncr - 1].other) b->entrances++;
        }
      }
  }
  qsort(b->cr, b->ncr, sizeof *b->cr, cmp_cross);
  uint32_t n = 0;
  for (size_t i = 0; i < b->ncr; i++)
    if (i == 0 || b->cr[i].node != b->cr[i - 1].node) n++;
  memset(out, 0, sizeof *out);
  out->ent = b->entrances - ent0;
  if (n == 0) return ASTAR_OK;
  out->n = n;
  out->cell = astar__hpa_alloc(h, n, sizeof *out->cell);
  out->cost = astar__hpa_alloc(h, (size_t)n * n, sizeof *out->cost);
  out->xoff = astar__hpa_alloc(h, n + 1, sizeof *out->xoff);
  out->xcell = astar__hpa_alloc(h, b->ncr, sizeof *out->xcell);
  out->xout = astar__hpa_alloc(h, b->ncr, sizeof *out->xout);
  out->xin = astar__hpa_alloc(h, b->ncr, sizeof *out->xin);
  if (!out->cell || !out->cost || !out->xoff || !out->xcell || !out->xout || !out->xin) {
    /* Free piecewise: xoff may be missing, so clear by hand. */
    astar__hpa_free(h, out->cell, n, sizeof *out->cell);
    astar__hpa_free(h, out->cost, (size_t)n * n, sizeof *out->cost);
    astar__hpa_free(h, out->xoff, n + 1, sizeof *out->xoff);
    astar__hpa_free(h, out->xcell, b->ncr, sizeof *out->xcell);
    astar__hpa_free(h, out->xout, b->ncr, sizeof *out->xout);
    astar__hpa_free(h, out->xin, b->ncr, sizeof *out->xin);
    memset(out, 0, sizeof *out);
    return ASTAR_NO_MEMORY;
  }
  out->ent = b->entrances - ent0;
  uint32_t k = 0;
  for (size_t i = 0; i < b->ncr; i++) {
    if (i == 0 || b->cr[i].node != b->cr[i - 1].node) {
      out->cell[k] = b->cr[i].node;
      out->xoff[k++] = (uint32_t)i;
    }
    out->xcell[i] = b->cr[i].other;
    out->xout[i] = b->cr[i].out;
    out->xin[i] = b->cr[i].in;
  }
  out->xoff[n] = (uint32_t)b->ncr;
  const int32_t rw = x1 - x0 + 1, rh = y1 - y0 + 1;
  for (uint32_t i = 0; i < n; i++) {
    const int32_t sx = (int32_t)(out->cell[i] % (uint32_t)h->width);
    const int32_t sy = (int32_t)(out->cell[i] / (uint32_t)h->width);
    astar__hpa_rect_dijkstra(h, g, x0, y0, rw, rh, sx, sy, false, b->dist, b->hbuf, b->pos, NULL);
    for (uint32_t j = 0; j < n; j++) {
      const int32_t tx = (int32_t)(out->cell[j] % (uint32_t)h->width);
      const int32_t ty = (int32_t)(out->cell[j] / (uint32_t)h->width);
      out->cost[(size_t)i * n + j] = b->dist[(ty - y0) * rw + (tx - x0)];
    }
  }
  return ASTAR_OK;
}

/* ---- upper levels -------------------------------------------------------------- */

/* Index of `cell` in the sorted list of c, or HPA_NONE. */
static uint32_t find_cell(const hpa_cluster *c, uint32_t cell) {
  uint32_t lo = 0, hi = c->n;
  while (lo < hi) {
    const uint32_t m = lo + (hi - lo) / 2;
    if (c->cell[m] < cell)
      lo = m + 1;
    else
      hi = m;
  }
  return lo < c->n && c->cell[lo] == cell ? lo : HPA_NONE;
}

/* Highest level (1-based) at which the clusters of cells p and q differ. */
static int cross_level(const astar_hpa *h, uint32_t p, uint32_t q) {
  const int32_t px = (int32_t)(p % (uint32_t)h->width), py = (int32_t)(p / (uint32_t)h->width);
  const int32_t qx = (int32_t)(q % (uint32_t)h->width), qy = (int32_t)(q / (uint32_t)h->width);
  int l = 0;
  while (l < h->levels &&
         astar__hpa_cluster_of(h, l, px, py) != astar__hpa_cluster_of(h, l, qx, qy))
    l++;
  return l;
}

/* Level (1-based count of levels it belongs to) of node i of level-1 cluster c. */
static int node_level(const astar_hpa *h, const hpa_cluster *c, uint32_t i) {
  int best = 1;
  for (uint32_t k = c->xoff[i]; k < c->xoff[i + 1]; k++) {
    const int l = cross_level(h, c->cell[i], c->xcell[k]);
    if (l > best) best = l;
  }
  return best;
}

/* The level-1 cluster holding cell p. */
static const hpa_cluster *cl1_of(const astar_hpa *h, uint32_t p) {
  const int32_t x = (int32_t)(p % (uint32_t)h->width), y = (int32_t)(p / (uint32_t)h->width);
  return &h->lv[0].cl[astar__hpa_cluster_of(h, 0, x, y)];
}

/* Local graph of a level-li cluster: the level-(li-1) nodes inside it. */
typedef struct local_node {
  uint32_t cell; /* its cell */
  uint32_t sub;  /* level-(li-1) cluster index */
  uint32_t idx;  /* index in that cluster */
} local_node;

/*
** Compute level-li (0-based, >= 1) cluster (cx, cy) into *out (empty on
** entry) from level li-1. ln / adjacency scratch come from b (allocated
** here per cluster: build time only).
*/
static astar_status build_upper(build_ctx *b, int li, int32_t cx, int32_t cy, hpa_cluster *out) {
  astar_hpa *h = b->h;
  const hpa_level *L = &h->lv[li], *D = &h->lv[li - 1];
  const int32_t r = h->hopt.ratio;
  memset(out, 0, sizeof *out);
  /* The sub-clusters, their nodes in order. */
  size_t m = 0;
  for (int32_t sy = cy * r; sy < cy * r + r && sy < D->ncy; sy++)
    for (int32_t sx = cx * r; sx < cx * r + r && sx < D->ncx; sx++) m += D->cl[sy * D->ncx + sx].n;
  (void)L;
  if (m == 0) return ASTAR_OK;
  local_node *ln = astar__hpa_alloc(h, m, sizeof *ln);
  uint32_t *aoff = astar__hpa_alloc(h, m + 1, sizeof *aoff);
  if (!ln || !aoff) {
    astar__hpa_free(h, ln, m, sizeof *ln);
    astar__hpa_free(h, aoff, m + 1, sizeof *aoff);
    return ASTAR_NO_MEMORY;
  }
  size_t k = 0;
  for (int32_t sy = cy * r; sy < cy * r + r && sy < D->ncy; sy++)
    for (int32_t sx = cx * r; sx < cx * r + r && sx < D->ncx; sx++) {
      const uint32_t si = (uint32_t)(sy * D->ncx + sx);
      for (uint32_t i = 0; i < D->cl[si].n; i++) ln[k++] = (local_node){D->cl[si].cell[i], si, i};
    }
  /* Crossing arcs inside the cluster between different sub-clusters. */
  size_t na = 0;
  for (int pass = 0; pass < 2; pass++) {
    na = 0;
    for (size_t i = 0; i < m; i++) {
      if (pass) aoff[i] = (uint32_t)na;
      const hpa_cluster *c1 = cl1_of(h, ln[i].cell);
      const uint32_t i1 = find_cell(c1, ln[i].cell);
      for (uint32_t x = c1->xoff[i1]; x < c1->xoff[i1 + 1]; x++) {
        const uint32_t q = c1->xcell[x];
        const int32_t qx = (int32_t)(q % (uint32_t)h->width),
                      qy = (int32_t)(q / (uint32_t)h->width);
        if (astar__hpa_cluster_of(h, li, qx, qy) != (uint32_t)(cy * L->ncx + cx)) continue;
        if (cross_level(h, ln[i].cell, q) < li) continue; /* same level-(li-1) cluster */
        if (pass) {
          /* The target's local id: its sub-cluster's block, then its index. */
          const uint32_t qs = astar__hpa_cluster_of(h, li - 1, qx, qy);
          const uint32_t qi = find_cell(&D->cl[qs], q);
          size_t lo = 0;
          while (ln[lo].sub != qs) lo++;
          b->hbuf[na] = (uint32_t)(lo + qi);
          b->dist[na] = c1->xout[x];
        }
        na++;
      }
    }
    if (!pass && (na > b->scratch || m > b->scratch)) {
      /* cannot happen: scratch holds a top cluster's cells, more than its arcs */
      astar__hpa_free(h, ln, m, sizeof *ln);
      astar__hpa_free(h, aoff, m + 1, sizeof *aoff);
      return ASTAR_NO_MEMORY;
    }
  }
  aoff[m] = (uint32_t)na;
  uint32_t *ato = astar__hpa_alloc(h, na ? na : 1, sizeof *ato);
  double *acost = astar__hpa_alloc(h, na ? na : 1, sizeof *acost);
  double *dist = astar__hpa_alloc(h, m, sizeof *dist);
  uint32_t *hb = astar__hpa_alloc(h, m, sizeof *hb);
  uint32_t *pos = astar__hpa_alloc(h, m, sizeof *pos);
  /* This level's nodes: the local nodes that belong to level li. */
  uint32_t n = 0;
  for (size_t i = 0; i < m; i++) {
    const hpa_cluster *c1 = cl1_of(h, ln[i].cell);
    if (node_level(h, c1, find_cell(c1, ln[i].cell)) > li) n++;
  }
  if (n) {
    out->cell = astar__hpa_alloc(h, n, sizeof *out->cell);
    out->cost = astar__hpa_alloc(h, (size_t)n * n, sizeof *out->cost);
  }
  astar_status st = ASTAR_OK;
  if (!ato || !acost || !dist || !hb || !pos || (n && (!out->cell || !out->cost))) {
    st = ASTAR_NO_MEMORY;
    astar__hpa_free(h, out->cell, n, sizeof *out->cell);
    astar__hpa_free(h, out->cost, (size_t)n * n, sizeof *out->cost);
    out->cell = NULL;
    out->cost = NULL;
    n = 0;
  } else if (n) {
    memcpy(ato, b->hbuf, na * sizeof *ato);
    memcpy(acost, b->dist, na * sizeof *acost);
    /* The nodes sorted by cell (local order is by sub-cluster). */
    uint32_t *sel = b->hbuf; /* reuse: local ids of the level's nodes */
    uint32_t c = 0;
    for (size_t i = 0; i < m; i++) {
      const hpa_cluster *c1 = cl1_of(h, ln[i].cell);
      if (node_level(h, c1, find_cell(c1, ln[i].cell)) > li) sel[c++] = (uint32_t)i;
    }
    for (uint32_t i = 1; i < n; i++) /* insertion sort by cell: n is small */
      for (uint32_t j = i; j > 0 && ln[sel[j]].cell < ln[sel[j - 1]].cell; j--) {
        const uint32_t t = sel[j];
        sel[j] = sel[j - 1];
        sel[j - 1] = t;
      }
    for (uint32_t i = 0; i < n; i++) out->cell[i] = ln[sel[i]].cell;
    for (uint32_t i = 0; i < n; i++) {
      for (size_t v = 0; v < m; v++) {
        dist[v] = INFINITY;
        pos[v] = HPA_NONE;
      }
      hpa_heap q = {hb, pos, dist, 0};
      dist[sel[i]] = 0;
      astar__hpa_push(&q, sel[i]);
      while (q.n) {
        const uint32_t u = astar__hpa_pop(&q);
        const hpa_cluster *sc = &D->cl[ln[u].sub];
        const uint32_t base = (uint32_t)(u - ln[u].idx);
        for (uint32_t j = 0; j < sc->n; j++) {
          const double nd = dist[u] + sc->cost[(size_t)ln[u].idx * sc->n + j];
          if (nd < dist[base + j]) {
            dist[base + j] = nd;
            astar__hpa_push(&q, base + j);
          }
        }
        for (uint32_t a = aoff[u]; a < aoff[u + 1]; a++) {
          const double nd = dist[u] + acost[a];
          if (nd < dist[ato[a]]) {
            dist[ato[a]] = nd;
            astar__hpa_push(&q, ato[a]);
          }
        }
      }
      for (uint32_t j = 0; j < n; j++) out->cost[(size_t)i * n + j] = dist[sel[j]];
    }
  }
  out->n = n;
  astar__hpa_free(h, ln, m, sizeof *ln);
  astar__hpa_free(h, aoff, m + 1, sizeof *aoff);
  astar__hpa_free(h, ato, na ? na : 1, sizeof *ato);
  astar__hpa_free(h, acost, na ? na : 1, sizeof *acost);
  astar__hpa_free(h, dist, m, sizeof *dist);
  astar__hpa_free(h, hb, m, sizeof *hb);
  astar__hpa_free(h, pos, m, sizeof *pos);
  return st;
}

/* ---- assembling the flat arrays ------------------------------------------------ */

/* Is the arc i -> j implied by a detour through another node k (both parts positive and
** strictly cheaper, so removing every such arc keeps every distance: by induction on the
** cost, the detour's parts are kept or implied in turn)? */
static bool implied(const hpa_cluster *c, uint32_t i, uint32_t j) {
  const uint32_t n = c->n;
  const double cij = c->cost[(size_t)i * n + j];
  for (uint32_t k = 0; k < n; k++) {
    if (k == i || k == j) continue;
    const double a = c->cost[(size_t)i * n + k], b = c->cost[(size_t)k * n + j];
    if (a > 0 && b > 0 && a < cij && b < cij && a + b <= cij) return true;
  }
  return false;
}

/* Release the node-indexed arrays derived from the clusters (node cells,
** levels, arcs, and each level's cluster-to-node index): assemble makes
** them anew after every build or update. */
static void free_derived(astar_hpa *h) {
  const size_t o1 = h->nnodes ? h->nnodes : 1;
  const size_t ox = h->xoff ? h->xoff[h->nnodes] : 0;
  astar__hpa_free(h, h->ncell, o1, sizeof *h->ncell);
  astar__hpa_free(h, h->nlevel, o1, sizeof *h->nlevel);
  astar__hpa_free(h, h->xto, ox ? ox : 1, sizeof *h->xto);
  astar__hpa_free(h, h->xout, ox ? ox : 1, sizeof *h->xout);
  astar__hpa_free(h, h->xin, ox ? ox : 1, sizeof *h->xin);
  astar__hpa_free(h, h->xoff, h->nnodes + 1, sizeof *h->xoff);
  for (int l = 0; l < h->levels; l++) {
    hpa_level *L = &h->lv[l];
    const uint32_t nc = (uint32_t)(L->ncx * L->ncy);
    if (L->goff) astar__hpa_free(h, L->gid, L->goff[nc] ? L->goff[nc] : 1, sizeof *L->gid);
    astar__hpa_free(h, L->goff, nc + 1, sizeof *L->goff);
    astar__hpa_free(h, L->lidx, o1, sizeof *L->lidx);
  }
}

/* The pruned intra arcs of cluster c (adj); ASTAR_NO_MEMORY leaves it without. */
static astar_status derive_adj(astar_hpa *h, hpa_cluster *c) {
  const uint32_t n = c->n;
  size_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < n; j++)
      if (j != i && c->cost[(size_t)i * n + j] < INFINITY && !implied(c, i, j)) m++;
  uint32_t *adj = astar__hpa_alloc(h, n + 1 + m, sizeof *adj);
  if (!adj) return ASTAR_NO_MEMORY;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    adj[i] = k;
    for (uint32_t j = 0; j < n; j++)
      if (j != i && c->cost[(size_t)i * n + j] < INFINITY && !implied(c, i, j))
        adj[n + 1 + k++] = j;
  }
  adj[n] = k;
  c->adj = adj;
  c->nadj = (uint32_t)(n + 1 + m);
  return ASTAR_OK;
}

astar_status astar__hpa_assemble(astar_hpa *h) {
  {
    /* Top-level pruned arcs of the clusters that lack them (new, updated or loaded). */
    hpa_level *T = &h->lv[h->levels - 1];
    const uint32_t nt = (uint32_t)(T->ncx * T->ncy);
    for (uint32_t c = 0; c < nt; c++)
      if (T->cl[c].n && !T->cl[c].adj && derive_adj(h, &T->cl[c]) != ASTAR_OK)
        return ASTAR_NO_MEMORY;
  }
  const hpa_level *L1 = &h->lv[0];
  const uint32_t nc1 = (uint32_t)(L1->ncx * L1->ncy);
  size_t N = 0, X = 0;
  for (uint32_t c = 0; c < nc1; c++) {
    N += L1->cl[c].n;
    if (L1->cl[c].n) X += L1->cl[c].xoff[L1->cl[c].n];
  }
  if (N >= UINT32_MAX - 2) return ASTAR_NO_MEMORY;
  const size_t n1 = N ? N : 1;
  uint32_t *ncell = astar__hpa_alloc(h, n1, sizeof *ncell);
  uint8_t *nlevel = astar__hpa_alloc(h, n1, sizeof *nlevel);
  uint32_t *xoff = astar__hpa_alloc(h, N + 1, sizeof *xoff);
  uint32_t *xto = astar__hpa_alloc(h, X ? X : 1, sizeof *xto);
  double *xout = astar__hpa_alloc(h, X ? X : 1, sizeof *xout);
  double *xin = astar__hpa_alloc(h, X ? X : 1, sizeof *xin);
  uint32_t *gid[ASTAR_HPA_MAX_LEVELS] = {0}, *goff[ASTAR_HPA_MAX_LEVELS] = {0},
           *lidx[ASTAR_HPA_MAX_LEVELS] = {0};
  size_t gn[ASTAR_HPA_MAX_LEVELS] = {0};
  bool ok = ncell && nlevel && xoff && xto && xout && xin;
  for (int l = 0; l < h->levels && ok; l++) {
    const uint32_t nc = (uint32_t)(h->lv[l].ncx * h->lv[l].ncy);
    for (uint32_t c = 0; c < nc; c++) gn[l] += h->lv[l].cl[c].n;
    gid[l] = astar__hpa_alloc(h, gn[l] ? gn[l] : 1, sizeof *gid[l]);
    goff[l] = astar__hpa_alloc(h, nc + 1, sizeof *goff[l]);
    lidx[l] = astar__hpa_alloc(h, n1, sizeof *lidx[l]);
    ok = gid[l] && goff[l] && lidx[l];
  }
  if (!ok) {
    astar__hpa_free(h, ncell, n1, sizeof *ncell);
    astar__hpa_free(h, nlevel, n1, sizeof *nlevel);
    astar__hpa_free(h, xoff, N + 1, sizeof *xoff);
    astar__hpa_free(h, xto, X ? X : 1, sizeof *xto);
    astar__hpa_free(h, xout, X ? X : 1, sizeof *xout);
    astar__hpa_free(h, xin, X ? X : 1, sizeof *xin);
    for (int l = 0; l < h->levels; l++) {
      const uint32_t nc = (uint32_t)(h->lv[l].ncx * h->lv[l].ncy);
      astar__hpa_free(h, gid[l], gn[l] ? gn[l] : 1, sizeof *gid[l]);
      astar__hpa_free(h, goff[l], nc + 1, sizeof *goff[l]);
      astar__hpa_free(h, lidx[l], n1, sizeof *lidx[l]);
    }
    return ASTAR_NO_MEMORY;
  }
  free_derived(h);
  h->nnodes = (uint32_t)N;
  h->ncell = ncell;
  h->nlevel = nlevel;
  h->xoff = xoff;
  h->xto = xto;
  h->xout = xout;
  h->xin = xin;
  uint32_t id = 0, x = 0;
  h->entrances = 0;
  for (uint32_t c = 0; c < nc1; c++) {
    const hpa_cluster *cl = &L1->cl[c];
    h->entrances += cl->ent;
    for (uint32_t i = 0; i < cl->n; i++, id++) {
      ncell[id] = cl->cell[i];
      nlevel[id] = (uint8_t)node_level(h, cl, i);
      xoff[id] = x;
      for (uint32_t k = cl->xoff[i]; k < cl->xoff[i + 1]; k++, x++) {
        xout[x] = cl->xout[k];
        xin[x] = cl->xin[k];
        xto[x] = cl->xcell[k]; /* a cell for now: ids once every cluster has its base */
      }
    }
  }
  xoff[N] = x;
  /* Node id of a cell: its level-1 cluster's base plus its index there. */
  uint32_t *base = goff[0];
  {
    uint32_t acc = 0;
    for (uint32_t c = 0; c < nc1; c++) {
      base[c] = acc;
      acc += L1->cl[c].n;
    }
    base[nc1] = acc;
  }
  for (uint32_t k = 0; k < x; k++) {
    const uint32_t q = xto[k];
    const int32_t qx = (int32_t)(q % (uint32_t)h->width), qy = (int32_t)(q / (uint32_t)h->width);
    const uint32_t c = astar__hpa_cluster_of(h, 0, qx, qy);
    const uint32_t i = find_cell(&L1->cl[c], q);
    xto[k] = i == HPA_NONE ? HPA_NONE : base[c] + i; /* HPA_NONE: only after bad loads */
  }
  uint32_t maxdeg = 1;
  for (int l = 0; l < h->levels; l++) {
    hpa_level *L = &h->lv[l];
    const uint32_t nc = (uint32_t)(L->ncx * L->ncy);
    for (size_t i = 0; i < n1; i++) lidx[l][i] = HPA_NONE;
    uint32_t k = 0;
    L->arcs = 0;
    for (uint32_t c = 0; c < nc; c++) {
      const hpa_cluster *cl = &L->cl[c];
      goff[l][c] = k;
      for (uint32_t i = 0; i < cl->n; i++) {
        const uint32_t p = cl->cell[i];
        const int32_t px = (int32_t)(p % (uint32_t)h->width),
                      py = (int32_t)(p / (uint32_t)h->width);
        const uint32_t c1 = astar__hpa_cluster_of(h, 0, px, py);
        const uint32_t j = find_cell(&L1->cl[c1], p);
        const uint32_t nid = j == HPA_NONE ? HPA_NONE : base[c1] + j;
        gid[l][k++] = nid;
        if (nid != HPA_NONE) lidx[l][nid] = i;
        for (uint32_t t = 0; t < cl->n; t++)
          if (t != i && cl->cost[(size_t)i * cl->n + t] < INFINITY) L->arcs++;
      }
      if (l == h->levels - 1 && cl->n + 1 > maxdeg) maxdeg = cl->n + 1;
    }
    goff[l][nc] = k;
    L->nodes = k;
    for (uint32_t v = 0; v < N; v++) {
      if (lidx[l][v] == HPA_NONE) continue;
      uint32_t deg = 0;
      for (uint32_t a = xoff[v]; a < xoff[v + 1]; a++)
        if (xto[a] != HPA_NONE && cross_level(h, ncell[v], ncell[xto[a]]) > l) deg++;
      L->arcs += deg;
      if (l == h->levels - 1) {
        const int32_t px = (int32_t)(ncell[v] % (uint32_t)h->width);
        const int32_t py = (int32_t)(ncell[v] / (uint32_t)h->width);
        const uint32_t n = L->cl[astar__hpa_cluster_of(h, l, px, py)].n;
        if (n + deg + 1 > maxdeg) maxdeg = n + deg + 1;
      }
    }
    L->gid = gid[l];
    L->goff = goff[l];
    L->lidx = lidx[l];
  }
  h->max_degree = maxdeg;
  /* The largest restricted graph a query searches: the level-(l-1) nodes of one level-l
  ** cluster (its ratio x ratio sub-clusters, clipped at the grid's edge). */
  uint32_t maxloc = 0;
  for (int l = 1; l < h->levels; l++) {
    const hpa_level *L = &h->lv[l], *D = &h->lv[l - 1];
    const int32_t r = h->hopt.ratio;
    for (int32_t cy = 0; cy < L->ncy; cy++)
      for (int32_t cx = 0; cx < L->ncx; cx++) {
        uint32_t m = 0;
        for (int32_t sy = cy * r; sy < cy * r + r && sy < D->ncy; sy++)
          for (int32_t sx = cx * r; sx < cx * r + r && sx < D->ncx; sx++)
            m += D->cl[sy * D->ncx + sx].n;
        if (m > maxloc) maxloc = m;
      }
  }
  h->max_local = maxloc;
  return ASTAR_OK;
}

/* ---- object, build, update ----------------------------------------------------- */

void astar_hpa_options_init(astar_hpa_options *hopt) {
  if (!hopt) return;
  hopt->cluster_size = 16;
  hopt->levels = 1;
  hopt->ratio = 2;
  hopt->wide_entrance = 6;
  hopt->smooth = true;
}

astar_status astar__hpa_create(astar_hpa **out, const astar_grid *grid, const astar_options *opt,
                               const astar_hpa_options *hopt, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_options o;
  astar_options_init(&o);
  if (opt) {
    if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
    o = *opt;
  }
  if (o.turn_penalty > 0 || o.layers || o.nlayers || o.knowledge || o.terrain_scale != 1.0)
    return ASTAR_UNSUPPORTED;
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  if (hopt) ho = *hopt;
  if (ho.cluster_size < ASTAR_HPA_MIN_CLUSTER || ho.cluster_size > ASTAR_HPA_MAX_CLUSTER ||
      ho.levels < 1 || ho.levels > ASTAR_HPA_MAX_LEVELS || ho.ratio < 2 || ho.ratio > 8 ||
      ho.wide_entrance < 1 || ho.wide_entrance > ASTAR_HPA_MAX_CLUSTER + 1)
    return ASTAR_INVALID_ARGUMENT;
  int64_t top = ho.cluster_size;
  for (int l = 1; l < ho.levels; l++) top *= ho.ratio;
  if (top > ASTAR_HPA_MAX_TOP_SIDE) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_hpa *h = astar__calloc(&a, 1, sizeof *h);
  if (!h) return ASTAR_NO_MEMORY;
  h->alloc = a;
  h->bytes = sizeof *h;
  h->grid = grid;
  h->version = astar_grid_version(grid);
  h->width = grid->width;
  h->height = grid->height;
  h->moves = o.moves;
  h->corner = o.moves == 4 ? ASTAR_CORNER_NEVER : o.corner;
  h->sc = o.straight_cost;
  h->dc = o.diagonal_cost;
  astar__move_table(astar__rule_of(&o), h->move);
  h->min_terrain = grid->min_terrain;
  h->hopt = ho;
  h->levels = ho.levels;
  int32_t side = ho.cluster_size;
  for (int l = 0; l < h->levels; l++) {
    hpa_level *L = &h->lv[l];
    L->side = side;
    L->ncx = (h->width + side - 1) / side;
    L->ncy = (h->height + side - 1) / side;
    L->cl = astar__hpa_alloc(h, (size_t)L->ncx * (size_t)L->ncy, sizeof *L->cl);
    if (!L->cl) {
      astar_hpa_free(h);
      return ASTAR_NO_MEMORY;
    }
    memset(L->cl, 0, (size_t)L->ncx * (size_t)L->ncy * sizeof *L->cl);
    side *= ho.ratio;
  }
  *out = h;
  return ASTAR_OK;
}

void astar_hpa_free(astar_hpa *h) {
  if (!h) return;
  free_derived(h);
  for (int l = 0; l < h->levels; l++) {
    hpa_level *L = &h->lv[l];
    if (!L->cl) continue;
    const uint32_t nc = (uint32_t)(L->ncx * L->ncy);
    for (uint32_t c = 0; c < nc; c++) astar__hpa_cluster_clear(h, &L->cl[c], l == 0);
    astar__hpa_free(h, L->cl, nc, sizeof *L->cl);
  }
  astar_allocator a = h->alloc;
  astar__free(&a, h, sizeof *h);
}

size_t astar_hpa_memory(const astar_hpa *h) {
  return h ? h->bytes : 0;
}

void astar_hpa_get_stats(const astar_hpa *h, astar_hpa_stats *s) {
  if (!h || !s) return;
  memset(s, 0, sizeof *s);
  s->levels = h->levels;
  for (int l = 0; l < h->levels; l++) {
    s->level[l].clusters = (uint32_t)(h->lv[l].ncx * h->lv[l].ncy);
    s->level[l].nodes = h->lv[l].nodes;
    s->level[l].arcs = h->lv[l].arcs;
    s->level[l].cluster_side = (uint32_t)h->lv[l].side;
  }
  s->entrances = h->entrances;
  s->rebuilt = h->rebuilt;
  s->memory = h->bytes;
}

/*
** Recompute the level-1 clusters cx0..cx1 x cy0..cy1 and every upper
** cluster above them, then reassemble. On ASTAR_NO_MEMORY some clusters may
** be recomputed and others not: the object is marked stale (version 0 with
** grid NULL is never current) until the same update succeeds.
*/
/*
** Recompute the level-1 clusters flagged in dirty[] (row-major, level 1's
** ncx * ncy) and every upper-level cluster above one of them, then the
** flat arrays. On failure the object is left stale (ASTAR_STALE for
** queries) until an update succeeds.
*/
static astar_status rebuild_marked(astar_hpa *h, const astar_grid *g, const uint8_t *dirty) {
  build_ctx b = {0};
  b.h = h;
  b.g = g;
  const int32_t s = h->lv[0].side;
  const int32_t top = h->lv[h->levels - 1].side;
  b.crcap = (size_t)40 * (size_t)s + 8;
  b.scratch = (size_t)top * (size_t)top * 2 + 64;
  b.cr = astar__hpa_alloc(h, b.crcap, sizeof *b.cr);
  b.dist = astar__hpa_alloc(h, b.scratch, sizeof *b.dist);
  b.hbuf = astar__hpa_alloc(h, b.scratch, sizeof *b.hbuf);
  b.pos = astar__hpa_alloc(h, b.scratch, sizeof *b.pos);
  const size_t n1 = (size_t)h->lv[0].ncx * (size_t)h->lv[0].ncy;
  uint8_t *up = astar__hpa_alloc(h, n1, 1); /* the level above's flags, reused per level */
  astar_status st = ASTAR_OK;
  const astar_grid *keep_grid = h->grid;
  h->version = 0;
  h->grid = NULL; /* stale until finished */
  if (!b.cr || !b.dist || !b.hbuf || !b.pos || !up) st = ASTAR_NO_MEMORY;
  uint64_t count = 0;
  const hpa_level *L1 = &h->lv[0];
  for (int32_t cy = 0; cy < L1->ncy && st == ASTAR_OK; cy++)
    for (int32_t cx = 0; cx < L1->ncx && st == ASTAR_OK; cx++) {
      if (!dirty[cy * L1->ncx + cx]) continue;
      hpa_cluster nc;
      st = build_level1(&b, cx, cy, &nc);
      if (st != ASTAR_OK) break;
      hpa_cluster *old = &h->lv[0].cl[cy * L1->ncx + cx];
      astar__hpa_cluster_clear(h, old, true);
      *old = nc;
      count++;
    }
  const uint8_t *below = dirty;
  for (int l = 1; l < h->levels && st == ASTAR_OK; l++) {
    const hpa_level *B = &h->lv[l - 1], *L = &h->lv[l];
    const int32_t r = h->hopt.ratio;
    /* up[] may alias below[] (level >= 2): each parent reads children with
    ** indices >= its own, written later in row-major order. */
    for (int32_t cy = 0; cy < L->ncy; cy++)
      for (int32_t cx = 0; cx < L->ncx; cx++) {
        uint8_t any = 0;
        for (int32_t y = cy * r; y < (cy + 1) * r && y < B->ncy && !any; y++)
          for (int32_t x = cx * r; x < (cx + 1) * r && x < B->ncx && !any; x++)
            any = below[y * B->ncx + x];
        up[cy * L->ncx + cx] = any;
      }
    below = up;
    for (int32_t cy = 0; cy < L->ncy && st == ASTAR_OK; cy++)
      for (int32_t cx = 0; cx < L->ncx && st == ASTAR_OK; cx++) {
        if (!up[cy * L->ncx + cx]) continue;
        hpa_cluster nc;
        st = build_upper(&b, l, cx, cy, &nc);
        if (st != ASTAR_OK) break;
        hpa_cluster *old = &h->lv[l].cl[cy * L->ncx + cx];
        astar__hpa_cluster_clear(h, old, false);
        *old = nc;
      }
  }
  if (st == ASTAR_OK) st = astar__hpa_assemble(h);
  astar__hpa_free(h, b.cr, b.crcap, sizeof *b.cr);
  astar__hpa_free(h, b.dist, b.scratch, sizeof *b.dist);
  astar__hpa_free(h, b.hbuf, b.scratch, sizeof *b.hbuf);
  astar__hpa_free(h, b.pos, b.scratch, sizeof *b.pos);
  astar__hpa_free(h, up, n1, 1);
  if (st == ASTAR_OK) {
    h->grid = keep_grid ? keep_grid : g;
    h->version = astar_grid_version(g);
    h->min_terrain = g->min_terrain;
    h->rebuilt = count;
  } else {
    h->grid = keep_grid;
    h->version = UINT64_MAX; /* never a grid's version in practice: stale */
  }
  return st;
}

/* Mark the level-1 clusters cx0..cx1 x cy0..cy1 and rebuild them. */
static astar_status rebuild(astar_hpa *h, const astar_grid *g, int32_t cx0, int32_t cy0,
                            int32_t cx1, int32_t cy1) {
  const hpa_level *L1 = &h->lv[0];
  const size_t n1 = (size_t)L1->ncx * (size_t)L1->ncy;
  uint8_t *dirty = astar__hpa_alloc(h, n1, 1);
  if (!dirty) {
    h->version = UINT64_MAX;
    return ASTAR_NO_MEMORY;
  }
  memset(dirty, 0, n1);
  for (int32_t cy = cy0; cy <= cy1; cy++)
    for (int32_t cx = cx0; cx <= cx1; cx++) dirty[cy * L1->ncx + cx] = 1;
  const astar_status st = rebuild_marked(h, g, dirty);
  astar__hpa_free(h, dirty, n1, 1);
  return st;
}

astar_status astar_hpa_new(astar_hpa **out, const astar_grid *grid, const astar_options *opt,
                           const astar_hpa_options *hopt, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  astar_hpa *h;
  astar_status st = astar__hpa_create(&h, grid, opt, hopt, alloc);
  if (st != ASTAR_OK) return st;
  st = rebuild(h, grid, 0, 0, h->lv[0].ncx - 1, h->lv[0].ncy - 1);
  if (st != ASTAR_OK) {
    astar_hpa_free(h);
    return st;
  }
  *out = h;
  return ASTAR_OK;
}

astar_status astar_hpa_update(astar_hpa *h, const astar_grid *grid, int32_t x0, int32_t y0,
                              int32_t x1, int32_t y1, uint64_t *rebuilt) {
  if (rebuilt) *rebuilt = 0;
  if (!h || !grid) return ASTAR_INVALID_ARGUMENT;
  if (grid != h->grid || grid->width != h->width || grid->height != h->height)
    return ASTAR_MISMATCH;
  if (x0 > x1) {
    const int32_t t = x0;
    x0 = x1;
    x1 = t;
  }
  if (y0 > y1) {
    const int32_t t = y0;
    y0 = y1;
    y1 = t;
  }
  /* One cell around the edit: the borders it shares with the neighbours. */
  x0 = x0 - 1 < 0 ? 0 : x0 - 1;
  y0 = y0 - 1 < 0 ? 0 : y0 - 1;
  x1 = x1 + 1 >= h->width ? h->width - 1 : x1 + 1;
  y1 = y1 + 1 >= h->height ? h->height - 1 : y1 + 1;
  if (x0 > x1 || y0 > y1) return ASTAR_OK; /* entirely outside */
  const int32_t s = h->lv[0].side;
  const astar_status st = rebuild(h, grid, x0 / s, y0 / s, x1 / s, y1 / s);
  if (st == ASTAR_OK && rebuilt) *rebuilt = h->rebuilt;
  return st;
}

astar_status astar_hpa_sync(astar_hpa *h, const astar_grid *grid, uint64_t *rebuilt) {
  if (rebuilt) *rebuilt = 0;
  if (!h || !grid) return ASTAR_INVALID_ARGUMENT;
  if (grid != h->grid || grid->width != h->width || grid->height != h->height)
    return ASTAR_MISMATCH;
  const uint64_t since = h->version;
  if (since == grid->version) return ASTAR_OK;
  const hpa_level *L1 = &h->lv[0];
  const size_t n1 = (size_t)L1->ncx * (size_t)L1->ncy;
  uint8_t *dirty = astar__hpa_alloc(h, n1, 1);
  if (!dirty) return ASTAR_NO_MEMORY;
  /* Without the changes (a failed update left version UINT64_MAX, the ring
  ** does not reach back): every cluster. */
  const bool known = since < grid->version && astar__grid_log_covers(grid, since);
  memset(dirty, known ? 0 : 1, n1);
  const int32_t s = L1->side;
  for (uint64_t v = since + 1; known && v <= grid->version; v++) {
    const astar_cell_change *c = astar__grid_change(grid, v);
    /* The clusters within one cell: those whose borders the cell touches. */
    const int32_t x0 = c->x > 0 ? c->x - 1 : 0, y0 = c->y > 0 ? c->y - 1 : 0;
    const int32_t x1 = c->x + 1 < h->width ? c->x + 1 : c->x;
    const int32_t y1 = c->y + 1 < h->height ? c->y + 1 : c->y;
    for (int32_t cy = y0 / s; cy <= y1 / s; cy++)
      for (int32_t cx = x0 / s; cx <= x1 / s; cx++) dirty[cy * L1->ncx + cx] = 1;
  }
  const astar_status st = rebuild_marked(h, grid, dirty);
  astar__hpa_free(h, dirty, n1, 1);
  if (st == ASTAR_OK && rebuilt) *rebuilt = h->rebuilt;
  return st;
}
