/*
** cpd/build.c -- building the CPD's rows: one Dijkstra per source that
** finds, for every target, the SET of optimal first moves, then the fewest
** greedy runs over the targets in node order.
**
** Exact costs: a path of a straight and b diagonal steps costs a + b sqrt 2,
** and the search keeps the pair per cell, packed a << 32 | b. Two pairs of
** equal cost are equal (sqrt 2 is irrational), so "equal cost" is an exact
** integer comparison of the packed pairs. Ordering uses the key
** (double)a + (double)b * sqrt 2, a function of the pair only; two
** different pairs below 2^24 steps differ by at least 1 / (2 (a + b sqrt 2))
** > 2^-26, far above the key's rounding (about 2^-28 at 2^24), so comparing
** keys compares the exact costs. Both hold for every CPD: it has at most
** 2^24 nodes and a shortest path visits each once.
**
** Buckets instead of a heap: every move costs at least 1, so with buckets
** of width 1 (bucket k: keys in [k, k+1)) a node relaxes only into later
** buckets, at most floor(k + 1 + sqrt 2) = k + 2. Every node of bucket k is
** final when the bucket is reached and their order inside it does not
** matter; four buckets used as a ring suffice. A copy whose key no longer
** falls in its bucket is stale and skipped; a node queued twice in one
** bucket is expanded twice, which changes nothing the second time. The
** mask of a node is final when it is expanded too (all its optimal parents
** are in earlier buckets): mask(v) = union over optimal parents u of
** mask(u), mask(neighbour of the source) = that move.
**
** The search runs over the grid's padded cell indices: no neighbour table
** (a cell's legal moves are one byte, its neighbours fixed offsets), 18
** bytes a cell. The pass that makes the runs visits the nodes in node order
** and resets the cells it reads, so the next source starts clean.
**
** Jumps. The same sweep finds, for every target v and direction d, ray_d(v):
** the largest j such that the straight line s, s + d, ..., s + j d is an
** optimal path and s + j d lies on an optimal path from s to v (is v or an
** ancestor of v in the shortest-path DAG from s). So from s, walking any
** k <= ray_d(v) steps in d stays on an optimal path to v, and the walk may
** go on from s + k d. It is a max over v's optimal parents u of ray_d(u),
** plus one when u is the ray's own cell s + ray_d(u) d and the edge u -> v
** goes in d: final when v is expanded, like the mask. Kept per cell as
** eight 7-bit counts in one word (capped at 127: a lower bound stays
** exact), merged with a bytewise max.
**
** A run with move d then takes the largest jump cap such that, for every
** target v of the run, min(rule(v), cap) <= ray_d(v), rule being the
** geometric count of astar__cpd_rule (no bound when d leads away from v's
** octant): the cap only has to hold for the targets where the rule
** overshoots (an obstacle bends the path before the octile turn, or the
** path goes round one), so cap = the least ray_d(v) over those, no bound
** when there are none. Among the moves every target of a run shares, the run takes the
** one with the largest cap (ties: the lowest direction).
*/
#include "cpd/cpd.h"

#include "search/query.h"

#include <string.h>

#define CPD_RING 4
#define CPD_UNREACHED UINT64_MAX /* packed steps of a cell not reached (its key is huge) */
#define CPD_REPORT_EVERY 64u

#define RAY_HIGH 0x8080808080808080ull /* the spare top bit of each 7-bit ray count */
#define RAY_MAX 127u

typedef struct cpd_work {
  uint32_t ncells; /* padded cells of the grid */
  uint32_t n;      /* nodes */
  uint64_t *dist;  /* [ncells] a << 32 | b of the best path from the source, or UNREACHED */
  uint64_t *ray;   /* [ncells] ray_d (see above) in byte d, 0 when not reached */
  int16_t *px;     /* [n] column of each node */
  int16_t *py;     /* [n] row of each node */
  uint8_t *mask;   /* [ncells] optimal first moves from the source found so far */
  uint8_t *legal;  /* [ncells] legal moves of each cell (0 for a blocked one) */
  uint32_t
      *ring[CPD_RING];  /* buckets of cells, key floor k in ring[k % 4] (may hold stale copies) */
  size_t len[CPD_RING]; /* cells in each bucket */
  size_t cap[CPD_RING]; /* capacity of each bucket */
} cpd_work;

static size_t first_bucket_cap(uint32_t n) {
  return (size_t)n / 4 + 64;
}

uint64_t astar__cpd_work_bytes(uint32_t n, uint32_t ncells) {
  return (uint64_t)ncells * (2 * sizeof(uint64_t) + 2) + (uint64_t)n * 2 * sizeof(int16_t) +
         (uint64_t)CPD_RING * first_bucket_cap(n) * sizeof(uint32_t);
}

static void work_free(cpd_work *w, const astar_allocator *a) {
  const size_t nc = w->ncells;
  astar__free(a, w->dist, nc * sizeof *w->dist);
  astar__free(a, w->ray, nc * sizeof *w->ray);
  astar__free(a, w->px, (size_t)w->n * sizeof *w->px);
  astar__free(a, w->py, (size_t)w->n * sizeof *w->py);
  astar__free(a, w->mask, nc);
  astar__free(a, w->legal, nc);
  for (int i = 0; i < CPD_RING; i++) astar__free(a, w->ring[i], w->cap[i] * sizeof(uint32_t));
}

static astar_status work_make(cpd_work *w, const astar__cpd_order *o, int stride,
                              const astar_allocator *a) {
  memset(w, 0, sizeof *w);
  const uint32_t nc = o->ncells;
  w->ncells = nc;
  w->n = o->n;
  w->dist = astar__malloc(a, (size_t)nc * sizeof *w->dist);
  w->ray = astar__malloc(a, (size_t)nc * sizeof *w->ray);
  w->px = o->n ? astar__malloc(a, (size_t)o->n * sizeof *w->px) : NULL;
  w->py = o->n ? astar__malloc(a, (size_t)o->n * sizeof *w->py) : NULL;
  w->mask = astar__malloc(a, nc);
  w->legal = astar__malloc(a, nc);
  bool ok = w->dist && w->ray && w->mask && w->legal && (!o->n || (w->px && w->py));
  for (int i = 0; i < CPD_RING && ok; i++) {
    w->cap[i] = first_bucket_cap(o->n);
    w->ring[i] = astar__malloc(a, w->cap[i] * sizeof(uint32_t));
    if (!w->ring[i]) {
      w->cap[i] = 0;
      ok = false;
    }
  }
  if (!ok) {
    work_free(w, a);
    return ASTAR_NO_MEMORY;
  }
  for (uint32_t c = 0; c < nc; c++) w->dist[c] = CPD_UNREACHED;
  memset(w->ray, 0, (size_t)nc * sizeof *w->ray);
  memset(w->mask, 0, nc);
  memset(w->legal, 0, nc);
  for (uint32_t v = 0; v < o->n; v++) {
    w->legal[o->cell_of[v]] = o->legal[v];
    w->px[v] = (int16_t)(o->cell_of[v] % (uint32_t)stride - 1);
    w->py[v] = (int16_t)(o->cell_of[v] / (uint32_t)stride - 1);
  }
  return ASTAR_OK;
}

/* Grow a uint32 array to hold at least `need` (1.5x steps). */
static bool grow(uint32_t **p, size_t *cap, size_t need, const astar_allocator *a) {
  if (need <= *cap) return true;
  size_t ncap = *cap + *cap / 2 + 16;
  if (ncap < need) ncap = need;
  size_t bytes;
  if (!astar__mul(ncap, sizeof(uint32_t), &bytes)) return false;
  uint32_t *q = astar__malloc(a, bytes);
  if (!q) return false;
  if (*cap) memcpy(q, *p, *cap * sizeof(uint32_t));
  astar__free(a, *p, *cap * sizeof(uint32_t));
  *p = q;
  *cap = ncap;
  return true;
}

static uint64_t ring_bytes(const cpd_work *w) {
  uint64_t b = 0;
  for (int i = 0; i < CPD_RING; i++) b += (uint64_t)w->cap[i] * sizeof(uint32_t);
  return b;
}

/* The key of packed steps: the one expression every comparison uses. */
ASTAR__INLINE double key_of(uint64_t steps) {
  return (double)(uint32_t)(steps >> 32) + (double)(uint32_t)steps * ASTAR__SQRT2;
}

/* The bytewise max of two words of 7-bit counts. */
ASTAR__INLINE uint64_t ray_max(uint64_t x, uint64_t y) {
  const uint64_t ge = (((x | RAY_HIGH) - y) & RAY_HIGH) >> 7; /* 1 where x >= y */
  const uint64_t keep = ge * 0xFFu;
  return (x & keep) | (y & ~keep);
}

/* Dijkstra from the source's cell sc: w->dist, w->mask (the optimal first
** moves from sc) and w->ray of every cell of its component. */
static astar_status sweep(cpd_work *w, int stride, uint32_t sc, const astar_allocator *a) {
  int32_t off[8];
  uint64_t inc[8];
  for (int d = 0; d < 8; d++) {
    off[d] = astar__dir_dy[d] * stride + astar__dir_dx[d];
    inc[d] = d < 4 ? (uint64_t)1 << 32 : 1u;
  }
  uint64_t *const dist = w->dist;
  uint64_t *const ray = w->ray;
  uint8_t *const mask = w->mask;
  const uint8_t *const legal = w->legal;
  dist[sc] = 0;
  ray[sc] = 0;
  w->ring[0][0] = sc;
  w->len[0] = 1;
  size_t pending = 1;
  for (uint32_t k = 0; pending; k++) {
    const int b = (int)(k % CPD_RING);
    /* Cells pushed meanwhile go to buckets k+1 and k+2: this one is fixed. */
    const uint32_t *bucket = w->ring[b];
    const size_t blen = w->len[b];
    pending -= blen;
    for (size_t i = 0; i < blen; i++) {
      const uint32_t u = bucket[i];
      const uint64_t du = dist[u];
      if ((uint32_t)key_of(du) != k) continue; /* stale copy */
      const unsigned um = mask[u];
      const uint64_t ru = ray[u];
      unsigned moves = legal[u];
      while (moves) {
        const int d = __builtin_ctz(moves);
        moves &= moves - 1;
        const uint32_t v = (uint32_t)((int32_t)u + off[d]);
        const uint64_t nd = du + inc[d], dv = dist[v];
        const uint8_t m = (uint8_t)(u == sc ? 1u << d : um);
        /* u is the ray's cell s + j d: v extends the ray. */
        const uint32_t j = (uint32_t)(ru >> (8 * d)) & RAY_MAX;
        const uint64_t rv = j < RAY_MAX && u == (uint32_t)((int32_t)sc + (int32_t)j * off[d])
                                ? ru + (1ull << (8 * d))
                                : ru;
        if (nd == dv) {
          mask[v] |= m;
          ray[v] = ray_max(ray[v], rv);
        } else {
          const double nk = key_of(nd);
          if (nk < key_of(dv)) {
            dist[v] = nd;
            mask[v] = m;
            ray[v] = rv;
            const int vb = (int)((uint32_t)nk % CPD_RING);
            if (w->len[vb] == w->cap[vb] && !grow(&w->ring[vb], &w->cap[vb], w->len[vb] + 1, a))
              return ASTAR_NO_MEMORY;
            w->ring[vb][w->len[vb]++] = v;
            pending++;
          }
        }
      }
    }
    w->len[b] = 0;
  }
  return ASTAR_OK;
}

/* Lower cap[d], for each move d of `moves`, to what target v (dx, dy from
** the source, ray counts rv) allows: where the rule overshoots ray_d(v),
** the cap may be at most ray_d(v) (>= 1: d is an optimal first move). */
ASTAR__INLINE void tighten(uint32_t cap[8], unsigned moves, uint64_t rv, int32_t dx, int32_t dy) {
  for (; moves; moves &= moves - 1) {
    const int d = __builtin_ctz(moves);
    const uint32_t j = (uint32_t)(rv >> (8 * d)) & RAY_MAX;
    if (astar__cpd_rule(dx, dy, d) > j && j < cap[d]) cap[d] = j ? j : 1u;
  }
}

void astar__cpd_rows_free(astar__cpd_rows *r, uint32_t count, const astar_allocator *a) {
  astar__free(a, r->counts, (size_t)count * sizeof *r->counts);
  astar__free(a, r->runs, r->runs_cap * sizeof *r->runs);
  memset(r, 0, sizeof *r);
}

astar_status astar__cpd_rows_build(astar__cpd_rows *r, const astar__cpd_order *o,
                                   const astar_grid *g, const astar_cpd_config *cfg, uint32_t first,
                                   uint32_t count, uint64_t fixed, const astar_allocator *a) {
  memset(r, 0, sizeof *r);
  if (count == 0) return ASTAR_OK;
  r->counts = astar__malloc(a, (size_t)count * sizeof *r->counts);
  if (!r->counts) return ASTAR_NO_MEMORY;
  cpd_work w;
  astar_status st = work_make(&w, o, g->stride, a);
  if (st != ASTAR_OK) {
    astar__cpd_rows_free(r, count, a);
    return st;
  }
  const uint64_t limit = cfg ? cfg->memory_limit : 0;
  fixed += (uint64_t)count * sizeof *r->counts + astar__cpd_work_bytes(o->n, o->ncells) -
           (uint64_t)CPD_RING * first_bucket_cap(o->n) * sizeof(uint32_t);
  for (uint32_t i = 0; i < count && st == ASTAR_OK; i++) {
    const uint32_t s = first + i;
    st = sweep(&w, g->stride, o->cell_of[s], a);
    if (st != ASTAR_OK) break;
    /* Greedy runs over the targets v in node order: keep the intersection
    ** of their move sets while it is not empty; a target without a set (the
    ** source, other components) fits any run. cap[d]: the jump cap move d
    ** would allow the targets so far (see the top). The run's move is the
    ** direction left with the largest cap, the lowest on ties. Every cell
    ** read is reset for the next source. */
    const uint64_t before = r->nruns;
    const int32_t sx = w.px[s], sy = w.py[s];
    uint32_t cap[8];
    for (int d = 0; d < 8; d++) cap[d] = ASTAR__CPD_UNBOUNDED;
    unsigned cur = 0xFFu;
    uint32_t start = 0;
    bool open = false;
    for (uint32_t v = 0; v <= o->n; v++) {
      unsigned m = 0xFFu;
      uint64_t rv = 0;
      if (v < o->n) {
        const uint32_t c = o->cell_of[v];
        m = w.mask[c];
        rv = w.ray[c];
        w.mask[c] = 0;
        w.ray[c] = 0;
        w.dist[c] = CPD_UNREACHED;
        if (m == 0) continue;
        if (cur & m) {
          cur &= m;
          open = true;
          tighten(cap, cur, rv, w.px[v] - sx, w.py[v] - sy);
          continue;
        }
      }
      if (!open) break; /* v == n, a row without any target */
      if (r->nruns == r->runs_cap) {
        if (!grow(&r->runs, &r->runs_cap, r->nruns + 1, a)) {
          st = ASTAR_NO_MEMORY;
          break;
        }
        if (limit && fixed + ring_bytes(&w) + r->runs_cap * sizeof *r->runs > limit) {
          st = ASTAR_TOO_LARGE;
          break;
        }
      }
      int best = __builtin_ctz(cur);
      for (unsigned rest = cur & (cur - 1); rest; rest &= rest - 1) {
        const int d = __builtin_ctz(rest);
        if (cap[d] > cap[best]) best = d;
      }
      r->runs[r->nruns++] = ASTAR__CPD_RUN(start, astar__cpd_code(cap[best]), best);
      if (v == o->n) break;
      start = v;
      cur = m;
      for (int d = 0; d < 8; d++) cap[d] = ASTAR__CPD_UNBOUNDED;
      tighten(cap, cur, rv, w.px[v] - sx, w.py[v] - sy);
    }
    if (st != ASTAR_OK) break;
    r->counts[i] = (uint32_t)(r->nruns - before);
    if (cfg && cfg->progress && ((i + 1) % CPD_REPORT_EVERY == 0 || i + 1 == count) &&
        !cfg->progress(cfg->progress_ud, i + 1, count))
      st = ASTAR_STOPPED;
  }
  work_free(&w, a);
  if (st != ASTAR_OK) astar__cpd_rows_free(r, count, a);
  return st;
}

/* ---- the public builders ------------------------------------------------- */

astar_status astar__cpd_precheck(const astar_grid *g, const astar_cpd_config *cfg, uint32_t *n,
                                 uint32_t count, bool table) {
  if (astar__cpd_rule_broken(g, cfg ? cfg->rules : NULL)) return ASTAR_UNSUPPORTED;
  *n = astar__cpd_count(g);
  if (*n > ASTAR__CPD_MAX_NODES) return ASTAR_TOO_LARGE;
  if (count == UINT32_MAX) count = *n;
  /* The order, the work, a run count and at least one run a source. */
  const uint64_t est =
      astar__cpd_order_bytes(*n, g->ncells) + astar__cpd_work_bytes(*n, g->ncells) +
      (uint64_t)count * 2 * sizeof(uint32_t) +
      (table ? ((uint64_t)*n + 1) * sizeof(uint64_t) + astar__cpd_index_bytes(g->ncells) : 0);
  if (cfg && cfg->memory_limit && est > cfg->memory_limit) return ASTAR_TOO_LARGE;
  return ASTAR_OK;
}

astar_status astar_cpd_build(astar_cpd **out, const astar_grid *grid, const astar_cpd_config *cfg,
                             const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t n;
  astar_status st = astar__cpd_precheck(grid, cfg, &n, UINT32_MAX, true);
  if (st != ASTAR_OK) return st;
  astar_cpd *cpd;
  st = astar__cpd_alloc(&cpd, grid, astar__grid_cells_checksum(grid), 0, alloc);
  if (st != ASTAR_OK) return st;
  const astar_allocator a = cpd->alloc;
  astar__cpd_rows rows;
  st = astar__cpd_rows_build(&rows, &cpd->order, grid, cfg, 0, n,
                             sizeof *cpd + astar__cpd_order_bytes(n, grid->ncells) +
                                 ((uint64_t)n + 1) * sizeof *cpd->row +
                                 astar__cpd_index_bytes(grid->ncells),
                             &a);
  if (st != ASTAR_OK) {
    astar_cpd_free(cpd);
    return st;
  }
  uint64_t at = 0;
  for (uint32_t s = 0; s < n; s++) {
    cpd->row[s] = at;
    at += rows.counts[s];
  }
  cpd->row[n] = at;
  cpd->runs = rows.runs;
  cpd->runs_cap = rows.runs_cap;
  astar__free(&a, rows.counts, (size_t)n * sizeof *rows.counts);
  st = astar__cpd_index(cpd);
  if (st != ASTAR_OK) {
    astar_cpd_free(cpd);
    return st;
  }
  *out = cpd;
  return ASTAR_OK;
}

void astar_cpd_free(astar_cpd *cpd) {
  if (!cpd) return;
  const astar_allocator a = cpd->alloc;
  astar__free(&a, cpd->runs, cpd->runs_cap * sizeof *cpd->runs);
  astar__free(&a, cpd->row, ((size_t)cpd->order.n + 1) * sizeof *cpd->row);
  astar__free(&a, cpd->cell_row, astar__cpd_index_bytes(cpd->order.ncells));
  astar__free(&a, cpd->bucket, astar__cpd_bucket_bytes(cpd));
  astar__cpd_order_free(&cpd->order, &a);
  astar__free(&a, cpd, sizeof *cpd);
}

size_t astar_cpd_bytes(const astar_cpd *cpd) {
  if (!cpd) return 0;
  return sizeof *cpd + astar__cpd_order_bytes(cpd->order.n, cpd->order.ncells) +
         ((size_t)cpd->order.n + 1) * sizeof *cpd->row + cpd->runs_cap * sizeof *cpd->runs +
         (cpd->cell_row ? astar__cpd_index_bytes(cpd->order.ncells) : 0) +
         astar__cpd_bucket_bytes(cpd);
}

uint32_t astar_cpd_nodes(const astar_cpd *cpd) {
  return cpd ? cpd->order.n : 0;
}

uint64_t astar_cpd_runs(const astar_cpd *cpd) {
  return cpd && cpd->row ? cpd->row[cpd->order.n] : 0;
}
