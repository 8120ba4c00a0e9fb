/*
** heuristics/landmarks.c -- landmarks / differential heuristics (ALT) over
** any space (astar/landmarks.h): the choice of landmarks (farthest point,
** Goldberg & Harrelson's avoid), one Dijkstra per landmark and direction,
** the node-major single-precision table with its per-landmark slack, the
** wrapper space, the grid callback and the byte format.
**
** Table layout: row v (node v) holds stride floats: the K distances FROM
** the landmarks, then (with backward distances) the K distances TO them.
** Every value is the double distance rounded toward zero to a float, or
** +infinity when unreachable. slack[i] = 2^-22 x the largest finite value of
** landmark i (both directions): a stored value is at most one float ulp
** (<= 2^-23 x that largest value) below the double, and the double
** difference of two floats is exact or rounds by far less, so each term
** minus slack[i] stays below the double cost the searches add up.
**
** Build-time Dijkstra: an indexed binary heap of node ids keyed by (dist,
** id) -- ties by smaller id, so the settle order, the parents and hence the
** AVOID choice are the same on every platform.
*/
#include "core/bytes.h"
#include "core/idheap.h"
#include "core/internal.h"
#include "heuristics/lm_table.h"
#include "spaces/grid_space.h"

#include "astar/landmarks.h"

#include <math.h>
#include <string.h>

#define LM_NONE UINT32_MAX
#define LM_SLACK_SCALE (1.0 / 4194304.0) /* 2^-22 */

struct astar_landmarks {
  astar_allocator alloc;
  uint32_t n;                           /* nodes of the space */
  uint32_t k;                           /* landmarks, 1 .. ASTAR_LANDMARKS_MAX */
  uint32_t stride;                      /* floats a row: k, or 2k with backward distances */
  bool backward;                        /* rows hold distances TO the landmarks too */
  bool symmetric;                       /* FROM distances are used both ways */
  uint64_t arcs_sum;                    /* arcs_checksum() of the space built on */
  uint64_t space_version;               /* the space's version op when built or loaded (0
                                           without one) */
  astar_node node[ASTAR_LANDMARKS_MAX]; /* the landmarks in the order chosen */
  double slack[ASTAR_LANDMARKS_MAX];    /* e_L, >= 0, finite */
  double scale;                         /* 1 - delta (see set_scale), in (0, 1] */
  bool consistent;                      /* scale makes the bound consistent */
  float *tbl;                           /* [n * stride], row-major by node */
  size_t tbl_cap;                       /* bytes of the block tbl points to (a build that
                                           keeps fewer landmarks than wanted keeps it) */
  /* Grid tables only (grid != NULL). */
  const astar_grid *grid; /* identity of the grid; read for its version only */
  uint64_t version;       /* astar_grid_version() when built or loaded */
  astar_grid_space gs;    /* the grid as a space: its built-in heuristic */
  astar_options rules;    /* the movement rules it is for (moves, corner rule, costs; the
                             corner never with 4 moves), recorded in its files; moves 0
                             for a table of another space */
};

/* ---- options ------------------------------------------------------------------------- */

void astar_landmark_options_init(astar_landmark_options *opt) {
  if (!opt) return;
  memset(opt, 0, sizeof *opt);
  opt->count = 4;
  opt->choice = ASTAR_LANDMARKS_FARTHEST;
  opt->symmetric = false;
}

/* ---- the heuristic ----------------------------------------------------------------- */

/* The largest term between the rows of a and b: scale x (difference of two
** values) - slack, or 0. A term with an infinite value is inf or NaN:
** `t < HUGE_VAL` is false for both, so it adds nothing. */
static inline double lm_bound(const astar_landmarks *lm, astar_node a, astar_node b) {
  const float *ra = lm->tbl + (size_t)a * lm->stride;
  const float *rb = lm->tbl + (size_t)b * lm->stride;
  const uint32_t k = lm->k;
  const double *e = lm->slack, sc = lm->scale;
  double h = 0.0;
  for (uint32_t i = 0; i < k; i++) {
    const double t = sc * ((double)rb[i] - (double)ra[i]) - e[i];
    if (t > h && t < HUGE_VAL) h = t;
  }
  if (lm->symmetric) {
    for (uint32_t i = 0; i < k; i++) {
      const double t = sc * ((double)ra[i] - (double)rb[i]) - e[i];
      if (t > h && t < HUGE_VAL) h = t;
    }
  } else if (lm->backward) {
    for (uint32_t i = 0; i < k; i++) {
      const double t = sc * ((double)ra[k + i] - (double)rb[k + i]) - e[i];
      if (t > h && t < HUGE_VAL) h = t;
    }
  }
  return h;
}

double astar_landmarks_heuristic(const astar_landmarks *lm, astar_node a, astar_node b) {
  return lm_bound(lm, a, b);
}

/* ---- the wrapper space ------------------------------------------------------------- */

static size_t ws_successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const astar_landmarks_space_holder *h = self;
  return h->base.ops->successors(h->base.self, v, arcs, cap);
}
static size_t ws_predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  const astar_landmarks_space_holder *h = self;
  return h->base.ops->predecessors(h->base.self, v, arcs, cap);
}
static uint64_t version_of(const astar_space *sp) {
  return sp->ops->version ? sp->ops->version(sp->self) : 0;
}
static double ws_heuristic(const void *self, astar_node a, astar_node b) {
  const astar_landmarks_space_holder *h = self;
  double base = 0.0;
  if (h->base.ops->heuristic) {
    base = h->base.ops->heuristic(h->base.self, a, b);
    if (!(base >= 0.0 && base < HUGE_VAL)) base = 0.0;
  }
  /* A space edited since the build: the table's distances may overstate. */
  if (h->base.ops->version && version_of(&h->base) != h->lm->space_version) return base;
  const double l = lm_bound(h->lm, a, b);
  return l > base ? l : base;
}
static bool ws_usable(const void *self, astar_node v) {
  const astar_landmarks_space_holder *h = self;
  return h->base.ops->usable(h->base.self, v);
}
static bool ws_position(const void *self, astar_node v, double xyz[3]) {
  const astar_landmarks_space_holder *h = self;
  return h->base.ops->position(h->base.self, v, xyz);
}
static uint64_t ws_version(const void *self) {
  return version_of(&((const astar_landmarks_space_holder *)self)->base);
}

/* One ops table per combination of the optional functions the base has,
** so that the wrapper offers exactly what the base offers. Index: bit 0
** predecessors, bit 1 usable, bit 2 position. */
static const astar_space_ops ws_ops[8] = {
    {ws_successors, NULL, ws_heuristic, NULL, NULL, ws_version, 0},
    {ws_successors, ws_predecessors, ws_heuristic, NULL, NULL, ws_version, 0},
    {ws_successors, NULL, ws_heuristic, ws_usable, NULL, ws_version, 0},
    {ws_successors, ws_predecessors, ws_heuristic, ws_usable, NULL, ws_version, 0},
    {ws_successors, NULL, ws_heuristic, NULL, ws_position, ws_version, 0},
    {ws_successors, ws_predecessors, ws_heuristic, NULL, ws_position, ws_version, 0},
    {ws_successors, NULL, ws_heuristic, ws_usable, ws_position, ws_version, 0},
    {ws_successors, ws_predecessors, ws_heuristic, ws_usable, ws_position, ws_version, 0},
};

astar_status astar_landmarks_space(astar_space *out, astar_landmarks_space_holder *holder,
                                   const astar_space *base, const astar_landmarks *lm) {
  if (!out || !holder || !base || !lm) return ASTAR_INVALID_ARGUMENT;
  if (astar_space_validate(base) != ASTAR_OK || base->node_count != lm->n)
    return ASTAR_INVALID_ARGUMENT;
  holder->base = *base;
  holder->lm = lm;
  const unsigned which = (base->ops->predecessors ? 1u : 0u) | (base->ops->usable ? 2u : 0u) |
                         (base->ops->position ? 4u : 0u);
  memset(out, 0, sizeof *out);
  out->ops = &ws_ops[which];
  out->self = holder;
  out->node_count = base->node_count;
  out->max_degree = base->max_degree;
  /* The maximum of two consistent heuristics is consistent. */
  out->flags = ASTAR_SPACE_ADMISSIBLE;
  if (lm->consistent && (base->flags & ASTAR_SPACE_CONSISTENT))
    out->flags |= ASTAR_SPACE_CONSISTENT;
  return ASTAR_OK;
}

/* ---- the grid callback ------------------------------------------------------------- */

double astar_landmarks_grid_heuristic(void *ctx, astar_point cell, astar_point goal) {
  const astar_landmarks *lm = ctx;
  if (!lm) return 0.0; /* no table: the zero bound, as for a stale one */
  const astar_grid *g = lm->grid;
  if (!g || g->version != lm->version) return 0.0;
  const int32_t w = lm->gs.width, h = (int32_t)(lm->n / (uint32_t)w);
  if ((uint32_t)goal.x >= (uint32_t)w || (uint32_t)goal.y >= (uint32_t)h ||
      (uint32_t)cell.x >= (uint32_t)w || (uint32_t)cell.y >= (uint32_t)h)
    return 0.0;
  const astar_node a = (astar_node)cell.y * (astar_node)w + (astar_node)cell.x;
  const astar_node b = (astar_node)goal.y * (astar_node)w + (astar_node)goal.x;
  const double base = astar__gs_h(&lm->gs, a, b);
  const double l = lm_bound(lm, a, b);
  return l > base ? l : base;
}

bool astar__landmarks_grid_consistent(const void *ctx, const void *grid) {
  const astar_landmarks *lm = ctx;
  return lm && lm->grid && lm->grid == grid && lm->grid->version == lm->version && lm->consistent;
}

bool astar__landmarks_rules_match(const astar_landmarks *lm, const astar_options *opt) {
  const astar_options *r = &lm->rules;
  if (!r->moves || r->moves != opt->moves || r->straight_cost != opt->straight_cost) return false;
  if (opt->moves == 4) return true; /* no diagonal: the corner rule and its cost mean nothing */
  return r->corner == opt->corner && r->diagonal_cost == opt->diagonal_cost;
}

astar_status astar_landmarks_space_current(const astar_landmarks *lm, const astar_space *space) {
  if (!lm || !space || astar_space_validate(space) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (space->node_count != lm->n) return ASTAR_MISMATCH;
  return version_of(space) == lm->space_version ? ASTAR_OK : ASTAR_STALE;
}

astar_status astar_landmarks_current(const astar_landmarks *lm, const astar_grid *grid) {
  if (!lm || !grid) return ASTAR_INVALID_ARGUMENT;
  if (lm->grid != grid) return ASTAR_MISMATCH;
  return grid->version == lm->version ? ASTAR_OK : ASTAR_STALE;
}

/* ---- queries on the object ------------------------------------------------------- */

void astar_landmarks_free(astar_landmarks *lm) {
  if (!lm) return;
  const astar_allocator a = lm->alloc;
  astar__free(&a, lm->tbl, lm->tbl_cap);
  astar__free(&a, lm, sizeof *lm);
}

size_t astar_landmarks_memory(const astar_landmarks *lm) {
  return lm ? sizeof *lm + lm->tbl_cap : 0;
}

uint32_t astar_landmarks_count(const astar_landmarks *lm) {
  return lm ? lm->k : 0;
}

astar_node astar_landmarks_node(const astar_landmarks *lm, uint32_t i) {
  return lm && i < lm->k ? lm->node[i] : ASTAR_NODE_NONE;
}

bool astar_landmarks_has_backward(const astar_landmarks *lm) {
  return lm && lm->backward;
}

bool astar_landmarks_consistent(const astar_landmarks *lm) {
  return lm && lm->consistent;
}

/* ---- build: Dijkstra ---------------------------------------------------------------- */

/* Scratch of the build; every array has n entries unless said otherwise. */
typedef struct lm_build {
  astar_allocator alloc;
  const astar_space *space;
  uint32_t n;
  double *dist;     /* distance of the current search */
  uint32_t *parent; /* parent in its shortest-path tree, LM_NONE at the root */
  uint32_t *order;  /* nodes in settle order [0 .. settled-1] */
  uint32_t *heap;   /* binary heap of node ids */
  uint32_t *pos;    /* heap position, LM_NONE when not in it; reused as scratch */
  double *mind;     /* least distance FROM a chosen landmark (inf: none reaches) */
  uint32_t *region; /* region of each node (LM_NONE: unusable) */
  double *rdist;    /* distance from the region's first node */
  uint32_t *rsize;  /* [regions] nodes of each region */
  double *weight;   /* AVOID: subtree weights */
  astar_arc *arcs;  /* [max_degree] */
  uint32_t settled;
} lm_build;

/* Dijkstra from `root` over successors (backward false) or predecessors.
** With `stop` (may be NULL) a node whose stop entry is not LM_NONE is
** settled but not expanded (the region sweep). Fills dist, parent, order. */
static void dijkstra(lm_build *b, uint32_t root, bool backward, const uint32_t *stop) {
  const astar_space *s = b->space;
  for (uint32_t v = 0; v < b->n; v++) {
    b->dist[v] = HUGE_VAL;
    b->pos[v] = LM_NONE;
    b->parent[v] = LM_NONE;
  }
  astar__idheap q = {b->heap, b->pos, b->dist, 0};
  b->settled = 0;
  b->dist[root] = 0.0;
  astar__idheap_insert(&q, root);
  while (q.n) {
    const uint32_t u = astar__idheap_pop(&q);
    b->pos[u] = LM_NONE;
    b->order[b->settled++] = u;
    if (stop && stop[u] != LM_NONE) continue;
    const size_t m = backward ? s->ops->predecessors(s->self, u, b->arcs, s->max_degree)
                              : s->ops->successors(s->self, u, b->arcs, s->max_degree);
    const double du = b->dist[u];
    for (size_t j = 0; j < m; j++) {
      const uint32_t v = b->arcs[j].node;
      if (v >= b->n) continue; /* a broken space: ignore the arc rather than crash */
      const double nd = du + b->arcs[j].cost;
      if (!(nd < b->dist[v])) continue;
      if (b->dist[v] == HUGE_VAL) {
        b->dist[v] = nd;
        b->parent[v] = u;
        astar__idheap_insert(&q, v);
      } else if (b->pos[v] != LM_NONE) {
        b->dist[v] = nd;
        b->parent[v] = u;
        astar__idheap_up(&q, b->pos[v]);
      }
    }
  }
}

static bool usable(const astar_space *s, uint32_t v) {
  return !s->ops->usable || s->ops->usable(s->self, v);
}

/* Round toward zero to a float (values are >= 0 or +inf). */
static float round_down(double d) {
  float f = (float)d;
  if ((double)f > d) f = nextafterf(f, 0.0f);
  return f;
}

/* Store the current search's distances in column col of the table; returns
** the largest finite one. */
static double store_column(astar_landmarks *lm, const lm_build *b, uint32_t col) {
  double mx = 0.0;
  for (uint32_t v = 0; v < b->n; v++) {
    const double d = b->dist[v];
    lm->tbl[(size_t)v * lm->stride + col] = d == HUGE_VAL ? (float)HUGE_VAL : round_down(d);
    if (d != HUGE_VAL && d > mx) mx = d;
  }
  return mx;
}

/* ---- build: choice of landmarks ---------------------------------------------------- */

/* Cut the usable nodes into regions (see the header). Returns the region
** count; rsize must hold n entries. */
static uint32_t find_regions(lm_build *b) {
  const astar_space *s = b->space;
  uint32_t nreg = 0;
  for (uint32_t v = 0; v < b->n; v++) b->region[v] = LM_NONE;
  for (uint32_t r = 0; r < b->n; r++) {
    if (b->region[r] != LM_NONE || !usable(s, r)) continue;
    dijkstra(b, r, false, b->region);
    uint32_t size = 0;
    for (uint32_t i = 0; i < b->settled; i++) {
      const uint32_t v = b->order[i];
      if (b->region[v] != LM_NONE) continue;
      b->region[v] = nreg;
      b->rdist[v] = b->dist[v];
      size++;
    }
    b->rsize[nreg++] = size;
  }
  /* Unusable nodes reached by a sweep are not candidates. */
  for (uint32_t v = 0; v < b->n; v++)
    if (b->region[v] != LM_NONE && !usable(s, v)) b->region[v] = LM_NONE;
  return nreg;
}

/* Is candidate v (mind dv) better than the best so far (mind dw, node w)?
** Larger least distance first; among nodes no landmark reaches, the larger
** region, then the farther from its first node; then the smaller id. */
static bool better(const lm_build *b, uint32_t v, uint32_t w) {
  if (w == LM_NONE) return true;
  const double dv = b->mind[v], dw = b->mind[w];
  if (dv != dw) return dv > dw;
  if (dv == HUGE_VAL) {
    const uint32_t sv = b->rsize[b->region[v]], sw = b->rsize[b->region[w]];
    if (sv != sw) return sv > sw;
    if (b->rdist[v] != b->rdist[w]) return b->rdist[v] > b->rdist[w];
  }
  return v < w;
}

/* Lower bound of d(r, v) from the landmarks stored so far (floats, no slack:
** it only steers the AVOID choice). */
static double partial_bound(const astar_landmarks *lm, uint32_t nk, uint32_t r, uint32_t v) {
  const float *ra = lm->tbl + (size_t)r * lm->stride, *rv = lm->tbl + (size_t)v * lm->stride;
  double h = 0.0;
  for (uint32_t i = 0; i < nk; i++) {
    double t = (double)rv[i] - (double)ra[i];
    if (t > h && t < HUGE_VAL) h = t;
    if (lm->symmetric)
      t = (double)ra[i] - (double)rv[i];
    else if (lm->backward)
      t = (double)ra[lm->k + i] - (double)rv[lm->k + i];
    else
      continue;
    if (t > h && t < HUGE_VAL) h = t;
  }
  return h;
}

/* Goldberg & Harrelson's avoid: see astar/landmarks.h. Returns the new
** landmark, or LM_NONE when the tree gives none (then farthest is used). */
static uint32_t choose_avoid(lm_build *b, astar_landmarks *lm, uint32_t nk, uint32_t ncand,
                             const uint32_t *is_lm) {
  /* Root: a fixed pseudo-random candidate (64-bit LCG, Knuth's MMIX). */
  uint64_t x = UINT64_C(0x9e3779b97f4a7c15) * (nk + 1);
  x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
  uint64_t pick = (x >> 33) % ncand, seen = 0;
  uint32_t r = LM_NONE;
  for (uint32_t v = 0; v < b->n && r == LM_NONE; v++)
    if (b->region[v] != LM_NONE && b->rsize[b->region[v]] != 0 && seen++ == pick) r = v;
  if (r == LM_NONE) return LM_NONE;
  dijkstra(b, r, false, NULL);
  double *w = b->weight;
  uint32_t *best = b->pos; /* scratch: heaviest child */
  for (uint32_t v = 0; v < b->n; v++) {
    best[v] = LM_NONE;
    w[v] = 0.0;
  }
  for (uint32_t i = 0; i < b->settled; i++) {
    const uint32_t v = b->order[i];
    const double d = b->dist[v] - partial_bound(lm, nk, r, v);
    w[v] = d > 0.0 ? d : 0.0;
  }
  /* Children settle after their parents: sum subtrees in reverse order. A
  ** landmark's subtree weighs nothing: is_lm marks it and its ancestors
  ** inherit the mark through `blocked` below (-1 weight). */
  for (uint32_t i = b->settled; i-- > 0;) {
    const uint32_t v = b->order[i];
    if (is_lm[v] != LM_NONE) w[v] = -1.0;
    const uint32_t p = b->parent[v];
    if (p == LM_NONE) continue;
    if (w[v] < 0.0) {
      w[p] = -1.0;
      continue;
    }
    if (w[p] >= 0.0) w[p] += w[v];
  }
  for (uint32_t i = b->settled; i-- > 0;) {
    const uint32_t v = b->order[i], p = b->parent[v];
    if (p == LM_NONE || !(w[v] > 0.0)) continue;
    if (best[p] == LM_NONE || w[v] > w[best[p]] || (w[v] == w[best[p]] && v < best[p])) best[p] = v;
  }
  if (!(w[r] > 0.0) && best[r] == LM_NONE) return LM_NONE;
  uint32_t v = r;
  while (best[v] != LM_NONE) v = best[v];
  const uint32_t reg = b->region[v];
  if (reg == LM_NONE || is_lm[v] != LM_NONE || b->rsize[reg] == 0) return LM_NONE;
  return v;
}

/* Fill lm (allocated, k = wanted) by choosing and measuring the landmarks. */
static void build(astar_landmarks *lm, lm_build *b, astar_landmark_choice choice, uint32_t *is_lm) {
  const uint32_t nreg = find_regions(b);
  uint32_t largest = 0;
  for (uint32_t i = 0; i < nreg; i++)
    if (b->rsize[i] > largest) largest = b->rsize[i];
  /* Regions too small for a landmark: size 0 marks them (not candidates);
  ** when every region is a lone node, the largest (first) still gets one. */
  uint32_t bigi = 0;
  for (uint32_t i = 0; i < nreg; i++)
    if (b->rsize[i] == largest) {
      bigi = i;
      break;
    }
  for (uint32_t i = 0; i < nreg; i++)
    if (b->rsize[i] < 2 || (uint64_t)b->rsize[i] * 64 < largest) b->rsize[i] = 0;
  if (b->rsize[bigi] == 0) b->rsize[bigi] = largest;
  uint32_t ncand = 0;
  for (uint32_t v = 0; v < b->n; v++) ncand += b->region[v] != LM_NONE && b->rsize[b->region[v]];
  for (uint32_t v = 0; v < b->n; v++) {
    b->mind[v] = HUGE_VAL;
    is_lm[v] = LM_NONE;
  }
  const uint32_t want = lm->k;
  uint32_t nk = 0;
  while (nk < want) {
    uint32_t best = LM_NONE;
    for (uint32_t v = 0; v < b->n; v++)
      if (b->region[v] != LM_NONE && b->rsize[b->region[v]] != 0 && better(b, v, best)) best = v;
    if (best == LM_NONE) break;
    if (choice == ASTAR_LANDMARKS_AVOID && b->mind[best] != HUGE_VAL) {
      const uint32_t a = choose_avoid(b, lm, nk, ncand, is_lm);
      if (a != LM_NONE) best = a;
    }
    if (is_lm[best] != LM_NONE || b->mind[best] == 0.0) break; /* nothing new left */
    is_lm[best] = nk;
    lm->node[nk] = best;
    dijkstra(b, best, false, NULL);
    double mx = store_column(lm, b, nk);
    for (uint32_t v = 0; v < b->n; v++)
      if (b->dist[v] < b->mind[v]) b->mind[v] = b->dist[v];
    if (lm->backward) {
      dijkstra(b, best, true, NULL);
      const double m2 = store_column(lm, b, want + nk);
      if (m2 > mx) mx = m2;
    }
    lm->slack[nk] = mx * LM_SLACK_SCALE;
    nk++;
  }
  /* Fewer than wanted: close the gaps of the rows (backward columns move). */
  if (nk < want) {
    const uint32_t ns = lm->backward ? 2 * nk : nk;
    for (uint32_t v = 0; v < b->n; v++) {
      const float *src = lm->tbl + (size_t)v * lm->stride;
      float *dst = lm->tbl + (size_t)v * ns;
      float row[2 * ASTAR_LANDMARKS_MAX];
      memcpy(row, src, nk * sizeof(float));
      if (lm->backward) memcpy(row + nk, src + want, nk * sizeof(float));
      memmove(dst, row, ns * sizeof(float));
    }
    lm->k = nk;
    lm->stride = ns;
  }
}

/* ---- checksum of the space's arcs ------------------------------------------------ */

/* Every node's successors (count, then each head and cost bits) and
** usability: two spaces with the same checksum have the same costs. */
static uint64_t arcs_checksum(const astar_space *s, astar_arc *arcs, double *cmin) {
  uint64_t h = astar__hash_word(ASTAR__HASH_INIT, s->node_count);
  double least = HUGE_VAL;
  for (uint32_t v = 0; v < s->node_count; v++) {
    const size_t m = s->ops->successors(s->self, v, arcs, s->max_degree);
    h = astar__hash_word(h, (uint64_t)m << 1 | (usable(s, v) ? 1u : 0u));
    for (size_t j = 0; j < m; j++) {
      uint64_t c;
      memcpy(&c, &arcs[j].cost, sizeof c);
      h = astar__hash_word(astar__hash_word(h, arcs[j].node), c);
      if (arcs[j].cost < least) least = arcs[j].cost;
    }
  }
  *cmin = least;
  return h;
}

/*
** Consistency. A stored value is at most u = 2^-23 x its landmark's largest
** value below the double distance (and the Dijkstra's own rounding is far
** smaller), so for an arc a -> c of cost c_ac the difference of two stored
** values exceeds the true difference, at most c_ac, by less than u <= e_max
** (the largest slack). Scaled by 1 - delta with delta = 2 e_max / c_min
** (c_min the cheapest arc of the space) it is at most c_ac:
** (1 - delta)(c_ac + u) <= c_ac whenever delta >= u / c_min. The terms, the
** zero and the base heuristic are then each consistent, and so is their
** maximum. Admissibility needs only the slack. When c_min is 0 or delta would
** exceed 1/64 (the bound would lose more than 1.6 %), scale stays 1 and the
** bound is admissible only.
*/
static void set_scale(astar_landmarks *lm, double cmin) {
  double emax = 0.0;
  for (uint32_t i = 0; i < lm->k; i++)
    if (lm->slack[i] > emax) emax = lm->slack[i];
  const double delta = cmin > 0.0 && cmin < HUGE_VAL ? 2.0 * emax / cmin : HUGE_VAL;
  lm->consistent = delta <= 1.0 / 64.0;
  lm->scale = lm->consistent ? 1.0 - delta : 1.0;
}

/* ---- new / free ----------------------------------------------------------------------- */

/* Allocate the object and its table for k landmarks over `space`. */
static astar_status alloc_lm(astar_landmarks **out, const astar_space *space, uint32_t k,
                             bool backward, bool symmetric, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_landmarks *lm = astar__malloc(&a, sizeof *lm);
  if (!lm) return ASTAR_NO_MEMORY;
  memset(lm, 0, sizeof *lm);
  lm->alloc = a;
  lm->n = space->node_count;
  lm->k = k;
  lm->backward = backward;
  lm->symmetric = symmetric && !backward;
  lm->stride = backward ? 2 * k : k;
  size_t bytes;
  lm->tbl = astar__mul(lm->n, (size_t)lm->stride * sizeof(float), &bytes) ? astar__malloc(&a, bytes)
                                                                          : NULL;
  if (!lm->tbl) {
    astar__free(&a, lm, sizeof *lm);
    return ASTAR_NO_MEMORY;
  }
  lm->tbl_cap = bytes;
  *out = lm;
  return ASTAR_OK;
}

static void free_build(lm_build *b, uint32_t *is_lm) {
  const astar_allocator *a = &b->alloc;
  const size_t n = b->n;
  astar__free(a, b->dist, n * sizeof(double));
  astar__free(a, b->parent, n * sizeof(uint32_t));
  astar__free(a, b->order, n * sizeof(uint32_t));
  astar__free(a, b->heap, n * sizeof(uint32_t));
  astar__free(a, b->pos, n * sizeof(uint32_t));
  astar__free(a, b->mind, n * sizeof(double));
  astar__free(a, b->region, n * sizeof(uint32_t));
  astar__free(a, b->rdist, n * sizeof(double));
  astar__free(a, b->rsize, n * sizeof(uint32_t));
  astar__free(a, b->weight, n * sizeof(double));
  astar__free(a, is_lm, n * sizeof(uint32_t));
  astar__free(a, b->arcs, (size_t)b->space->max_degree * sizeof(astar_arc));
}

static astar_status validate_lmopt(const astar_landmark_options *o) {
  if (o->count < 1 || o->count > ASTAR_LANDMARKS_MAX) return ASTAR_INVALID_ARGUMENT;
  if (o->choice != ASTAR_LANDMARKS_FARTHEST && o->choice != ASTAR_LANDMARKS_AVOID)
    return ASTAR_INVALID_ARGUMENT;
  return ASTAR_OK;
}

astar_status astar_landmarks_new(astar_landmarks **out, const astar_space *space,
                                 const astar_landmark_options *opt, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  astar_landmark_options defaults;
  if (!opt) {
    astar_landmark_options_init(&defaults);
    opt = &defaults;
  }
  if (!space || astar_space_validate(space) != ASTAR_OK || validate_lmopt(opt) != ASTAR_OK)
    return ASTAR_INVALID_ARGUMENT;
  bool any = false;
  for (uint32_t v = 0; v < space->node_count && !any; v++) any = usable(space, v);
  if (!any) return ASTAR_NO_PATH;
  const bool backward = space->ops->predecessors != NULL && !opt->symmetric;
  astar_landmarks *lm;
  astar_status st = alloc_lm(&lm, space, opt->count, backward, opt->symmetric, alloc);
  if (st != ASTAR_OK) return st;

  lm_build b;
  memset(&b, 0, sizeof b);
  b.alloc = lm->alloc;
  b.space = space;
  b.n = space->node_count;
  const astar_allocator *a = &b.alloc;
  const size_t n = b.n;
  b.dist = astar__calloc(a, n, sizeof(double));
  b.parent = astar__calloc(a, n, sizeof(uint32_t));
  b.order = astar__calloc(a, n, sizeof(uint32_t));
  b.heap = astar__calloc(a, n, sizeof(uint32_t));
  b.pos = astar__calloc(a, n, sizeof(uint32_t));
  b.mind = astar__calloc(a, n, sizeof(double));
  b.region = astar__calloc(a, n, sizeof(uint32_t));
  b.rdist = astar__calloc(a, n, sizeof(double));
  b.rsize = astar__calloc(a, n, sizeof(uint32_t));
  b.weight = opt->choice == ASTAR_LANDMARKS_AVOID ? astar__calloc(a, n, sizeof(double)) : NULL;
  uint32_t *is_lm = astar__calloc(a, n, sizeof(uint32_t));
  b.arcs = astar__calloc(a, space->max_degree, sizeof(astar_arc));
  if (!b.dist || !b.parent || !b.order || !b.heap || !b.pos || !b.mind || !b.region || !b.rdist ||
      !b.rsize || (opt->choice == ASTAR_LANDMARKS_AVOID && !b.weight) || !is_lm || !b.arcs) {
    free_build(&b, is_lm);
    astar_landmarks_free(lm);
    return ASTAR_NO_MEMORY;
  }
  build(lm, &b, opt->choice, is_lm);
  double cmin;
  lm->arcs_sum = arcs_checksum(space, b.arcs, &cmin);
  lm->space_version = version_of(space);
  set_scale(lm, cmin);
  free_build(&b, is_lm);
  *out = lm;
  return ASTAR_OK;
}

/* The grid space of a grid table: the search options with the heuristic
** floor cleared (the base heuristic must stay admissible). */
static astar_status grid_space(astar_space *sp, astar_grid_space *gs, const astar_grid *grid,
                               const astar_options *opt) {
  astar_options o;
  if (opt)
    o = *opt;
  else
    astar_options_init(&o);
  if (astar_options_validate(&o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (o.terrain_scale != 1.0 || o.heuristic == ASTAR_H_CALLBACK) return ASTAR_UNSUPPORTED;
  o.heuristic_floor = 0.0;
  o.weight = 1.0;
  return astar_grid_space_init(sp, gs, grid, &o);
}

/* The movement rules of a grid table, as its files record them: the
** corner rule is never with 4 moves (it means nothing there), whatever the
** caller's options hold. */
static void record_rules(astar_landmarks *lm, const astar_options *opt) {
  astar_options o;
  astar_options_init(&o);
  if (opt) {
    o.moves = opt->moves;
    o.corner = opt->corner;
    o.straight_cost = opt->straight_cost;
    o.diagonal_cost = opt->diagonal_cost;
  }
  if (o.moves == 4) o.corner = ASTAR_CORNER_NEVER;
  lm->rules = o;
}

astar_status astar_landmarks_new_grid(astar_landmarks **out, const astar_grid *grid,
                                      const astar_options *opt, const astar_landmark_options *lmopt,
                                      const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_space sp;
  astar_grid_space gs;
  astar_status st = grid_space(&sp, &gs, grid, opt);
  if (st != ASTAR_OK) return st;
  astar_landmark_options lo;
  if (lmopt)
    lo = *lmopt;
  else
    astar_landmark_options_init(&lo);
  lo.symmetric = grid->terrain == NULL;
  st = astar_landmarks_new(out, &sp, &lo, alloc);
  if (st != ASTAR_OK) return st;
  (*out)->grid = grid;
  (*out)->version = grid->version;
  (*out)->gs = gs;
  record_rules(*out, opt);
  return ASTAR_OK;
}

/* ---- the byte format ----------------------------------------------------------------- */

/* All integers little-endian:
**   0  magic "ASTARLMK"                 8 bytes
**   8  format version (2)               u32
**  12  node count n                     u32
**  16  landmarks K (1 .. 64)            u32
**  20  flags: 1 backward, 2 symmetric   u32 (not both)
**  24  checksum of the space's arcs     u64 (arcs_checksum)
**  32  checksum of the file             u64 (every u32 word but these 8 bytes)
**  40  zero                             u64
**  48  the movement rules of a grid table (all zero for another space's):
**      moves (4 or 8)                   u32
**  52  corner rule (never with 4 moves) u32
**  56  straight cost                    u64 (IEEE double bits)
**  64  diagonal cost                    u64 (IEEE double bits)
**  72  landmark nodes                   K x u32
**      slacks                           K x u64 (IEEE double bits)
**      table, node by node              n x S x u32 (IEEE single bits), S = K or 2K
** Format 1 is format 2 without bytes 48 .. 71: it is still read (its tables
** record no rules; the arcs' checksum refuses other rules all the same). */
static const uint8_t lm_magic[8] = {'A', 'S', 'T', 'A', 'R', 'L', 'M', 'K'}; /* no NUL */
#define LM_FORMAT 2u
#define LM_HEADER 72u
#define LM_HEADER_1 48u /* format 1 */

static uint64_t saved_size(uint64_t header, uint64_t n, uint64_t k, uint64_t stride) {
  return header + 12 * k + 4 * stride * n;
}

static uint64_t file_checksum(const uint8_t *buf, size_t len) {
  uint64_t h = ASTAR__HASH_INIT;
  for (size_t i = 0; i + 4 <= len; i += 4)
    if (i != 32 && i != 36) h = astar__hash_word(h, astar__get_le32(buf + i));
  return h;
}

astar_status astar_landmarks_save(const astar_landmarks *lm, void *buf, size_t cap, size_t *len) {
  if (!lm || !len) return ASTAR_INVALID_ARGUMENT;
  const size_t need = (size_t)saved_size(LM_HEADER, lm->n, lm->k, lm->stride);
  *len = need;
  if (!buf || cap < need) return ASTAR_BUFFER_TOO_SMALL;
  uint8_t *p = buf;
  memcpy(p, lm_magic, sizeof lm_magic);
  astar__put_le32(p + 8, LM_FORMAT);
  astar__put_le32(p + 12, lm->n);
  astar__put_le32(p + 16, lm->k);
  astar__put_le32(p + 20, (lm->backward ? 1u : 0u) | (lm->symmetric ? 2u : 0u));
  astar__put_le64(p + 24, lm->arcs_sum);
  astar__put_le64(p + 32, 0);
  astar__put_le64(p + 40, 0);
  const bool grid = lm->rules.moves != 0;
  astar__put_le32(p + 48, grid ? (uint32_t)lm->rules.moves : 0u);
  astar__put_le32(p + 52, grid ? (uint32_t)lm->rules.corner : 0u);
  astar__put_le64(p + 56, grid ? astar__f64_bits(lm->rules.straight_cost) : 0u);
  astar__put_le64(p + 64, grid ? astar__f64_bits(lm->rules.diagonal_cost) : 0u);
  uint8_t *q = p + LM_HEADER;
  for (uint32_t i = 0; i < lm->k; i++, q += 4) astar__put_le32(q, lm->node[i]);
  for (uint32_t i = 0; i < lm->k; i++, q += 8) astar__put_le64(q, astar__f64_bits(lm->slack[i]));
  const size_t cells = (size_t)lm->n * lm->stride;
  for (size_t i = 0; i < cells; i++, q += 4) {
    uint32_t bits;
    memcpy(&bits, &lm->tbl[i], sizeof bits);
    astar__put_le32(q, bits);
  }
  astar__put_le64(p + 32, file_checksum(p, need));
  return ASTAR_OK;
}

/* The header of bytes of astar_landmarks_save: its fields into *h, the
** rules (when recorded) into *rules. ASTAR_PARSE_ERROR unless the magic,
** the format, the counts, the size, the file checksum and the rules hold. */
typedef struct lm_header {
  uint32_t n, k, stride, size; /* size: bytes of the header */
  bool backward, symmetric;
  bool has_rules;
} lm_header;

static astar_status read_header(const uint8_t *p, size_t len, lm_header *h, astar_options *rules) {
  if (len < LM_HEADER_1 || memcmp(p, lm_magic, sizeof lm_magic) != 0) return ASTAR_PARSE_ERROR;
  const uint32_t format = astar__get_le32(p + 8), flags = astar__get_le32(p + 20);
  h->n = astar__get_le32(p + 12);
  h->k = astar__get_le32(p + 16);
  if ((format != 1 && format != LM_FORMAT) || h->k < 1 || h->k > ASTAR_LANDMARKS_MAX || flags > 2 ||
      astar__get_le64(p + 40) != 0 || h->n < 1)
    return ASTAR_PARSE_ERROR;
  h->size = format == 1 ? LM_HEADER_1 : LM_HEADER;
  h->backward = flags & 1u;
  h->symmetric = (flags & 2u) != 0;
  h->stride = h->backward ? 2 * h->k : h->k;
  if ((uint64_t)len != saved_size(h->size, h->n, h->k, h->stride)) return ASTAR_PARSE_ERROR;
  if (astar__get_le64(p + 32) != file_checksum(p, len)) return ASTAR_PARSE_ERROR;
  h->has_rules = false;
  astar_options_init(rules);
  if (format == 1) return ASTAR_OK;
  const uint32_t moves = astar__get_le32(p + 48), corner = astar__get_le32(p + 52);
  const uint64_t straight = astar__get_le64(p + 56), diagonal = astar__get_le64(p + 64);
  if (moves == 0) /* another space's table: nothing recorded */
    return corner == 0 && straight == 0 && diagonal == 0 ? ASTAR_OK : ASTAR_PARSE_ERROR;
  if ((moves != 4 && moves != 8) || corner > (uint32_t)ASTAR_CORNER_NEVER ||
      (moves == 4 && corner != (uint32_t)ASTAR_CORNER_NEVER))
    return ASTAR_PARSE_ERROR;
  rules->moves = (int)moves;
  rules->corner = (astar_corner)corner;
  rules->straight_cost = astar__bits_f64(straight);
  rules->diagonal_cost = astar__bits_f64(diagonal);
  if (astar_options_validate(rules) != ASTAR_OK) return ASTAR_PARSE_ERROR;
  h->has_rules = true;
  return ASTAR_OK;
}

astar_status astar_landmarks_file_options(const void *buf, size_t len, astar_options *opt) {
  if (!buf) return ASTAR_INVALID_ARGUMENT;
  lm_header h;
  astar_options rules;
  const astar_status st = read_header(buf, len, &h, &rules);
  if (st != ASTAR_OK) return st;
  if (!h.has_rules) return ASTAR_UNSUPPORTED;
  if (opt) *opt = rules;
  return ASTAR_OK;
}

astar_status astar_landmarks_load(astar_landmarks **out, const astar_space *space, const void *buf,
                                  size_t len, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!space || (!buf && len > 0) || astar_space_validate(space) != ASTAR_OK)
    return ASTAR_INVALID_ARGUMENT;
  const uint8_t *p = buf;
  lm_header h;
  astar_options rules;
  if (read_header(p, len, &h, &rules) != ASTAR_OK) return ASTAR_PARSE_ERROR;
  const uint32_t n = h.n, k = h.k, stride = h.stride;
  const uint8_t *nodes = p + h.size, *slacks = nodes + 4 * (size_t)k;
  const uint8_t *data = slacks + 8 * (size_t)k;
  for (uint32_t i = 0; i < k; i++) {
    const double e = astar__bits_f64(astar__get_le64(slacks + 8 * (size_t)i));
    if (astar__get_le32(nodes + 4 * (size_t)i) >= n || !(e >= 0.0 && e < HUGE_VAL))
      return ASTAR_PARSE_ERROR;
  }
  for (size_t i = 0; i < (size_t)n * stride; i++) {
    const uint32_t bits = astar__get_le32(data + 4 * i);
    float f;
    memcpy(&f, &bits, sizeof f);
    if (!(f >= 0.0f)) return ASTAR_PARSE_ERROR; /* negative or NaN */
  }
  for (uint32_t i = 0; i < k; i++) {
    const size_t row = (size_t)astar__get_le32(nodes + 4 * (size_t)i) * stride;
    if (astar__get_le32(data + 4 * (row + i)) != 0 ||
        (h.backward && astar__get_le32(data + 4 * (row + k + i)) != 0))
      return ASTAR_PARSE_ERROR;
  }
  if (n != space->node_count) return ASTAR_INVALID_ARGUMENT;

  astar_landmarks *lm;
  astar_status st = alloc_lm(&lm, space, k, h.backward, h.symmetric, alloc);
  if (st != ASTAR_OK) return st;
  astar_arc *arcs = astar__calloc(&lm->alloc, space->max_degree, sizeof(astar_arc));
  if (!arcs) {
    astar_landmarks_free(lm);
    return ASTAR_NO_MEMORY;
  }
  double cmin;
  const uint64_t sum = arcs_checksum(space, arcs, &cmin);
  astar__free(&lm->alloc, arcs, (size_t)space->max_degree * sizeof(astar_arc));
  if (sum != astar__get_le64(p + 24)) {
    astar_landmarks_free(lm);
    return ASTAR_MISMATCH;
  }
  lm->arcs_sum = sum;
  lm->space_version = version_of(space);
  for (uint32_t i = 0; i < k; i++) {
    lm->node[i] = astar__get_le32(nodes + 4 * (size_t)i);
    lm->slack[i] = astar__bits_f64(astar__get_le64(slacks + 8 * (size_t)i));
  }
  set_scale(lm, cmin);
  for (size_t i = 0; i < (size_t)n * stride; i++) {
    const uint32_t bits = astar__get_le32(data + 4 * i);
    memcpy(&lm->tbl[i], &bits, sizeof bits);
  }
  *out = lm;
  return ASTAR_OK;
}

astar_status astar_landmarks_load_grid(astar_landmarks **out, const astar_grid *grid,
                                       const astar_options *opt, const void *buf, size_t len,
                                       const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_space sp;
  astar_grid_space gs;
  astar_status st = grid_space(&sp, &gs, grid, opt);
  if (st != ASTAR_OK) return st;
  st = astar_landmarks_load(out, &sp, buf, len, alloc);
  if (st != ASTAR_OK) return st;
  (*out)->grid = grid;
  (*out)->version = grid->version;
  (*out)->gs = gs;
  record_rules(*out, opt);
  return ASTAR_OK;
}
