/*
** astar.c -- A* over the cells, and astar_find_path, the entry point that
** dispatches to the chosen algorithm.
**
** The loop is written once (search_loop) and instantiated for the common
** configurations with constant arguments, so the compiler removes the
** branches on heuristic kind, terrain and tie mode from the hot path.
*/
#include "query.h"

enum { OS_HEAP4, OS_HEAP2, OS_BUCKET };

/* ---- the cold buckets of ASTAR_OPEN_BUCKET (see query.h) ------------------ */

ASTAR__INLINE uint64_t bucket_of(const astar__buckets *b, double f) {
  const double k = f * b->inv_width;
  return k < 9.0e18 ? (uint64_t)k : (uint64_t)9.0e18;
}

/* The heap entry of open node v, rebuilt from its g (as it was pushed). */
ASTAR__INLINE astar__hent entry_of(const astar_workspace *ws, const astar__query *q, int hk,
                                   int tie, uint32_t v) {
  const int32_t stride = q->grid->stride;
  const int32_t y = (int32_t)(v / (uint32_t)stride), x = (int32_t)v - y * stride;
  const double g = ws->node[v].g;
  return astar__entry(g + astar__h(q, hk, x, y), astar__tie_key(q, tie, g, x, y, ws->aux[v]), v);
}

/* Put open node v (key f, push number seq) into a cold list for bucket k. */
ASTAR__INLINE void cold_add(astar_workspace *ws, uint32_t v, uint64_t k, uint32_t seq) {
  astar__buckets *b = &ws->buckets;
  uint32_t *head;
  if (k - b->base < ASTAR__RING) {
    head = &b->head[k % ASTAR__RING];
    ws->mark[v] = (uint16_t)(ws->gen + ASTAR__COLD_RING);
    b->in_ring++;
  } else {
    head = &b->overflow;
    ws->mark[v] = (uint16_t)(ws->gen + ASTAR__COLD_OVER);
  }
  ws->node[v].pos = *head;
  *head = v;
  ws->aux[v] = seq;
  b->cold++;
}

/* Unlink cold node v whose key was f (its g not yet lowered). */
static void cold_remove(astar_workspace *ws, uint32_t v, double f) {
  astar__buckets *b = &ws->buckets;
  uint32_t *link;
  if (ws->mark[v] == ws->gen + ASTAR__COLD_RING) {
    link = &b->head[bucket_of(b, f) % ASTAR__RING];
    b->in_ring--;
  } else {
    link = &b->overflow;
  }
  while (*link != v) link = &ws->node[*link].pos;
  *link = ws->node[v].pos;
  b->cold--;
}

/* The hot heap and the slot are empty: make the next non-empty bucket hot.
** The caller guarantees b->cold > 0. */
static void advance(astar_workspace *ws, const astar__query *q, int hk, int tie) {
  astar__buckets *b = &ws->buckets;
  const uint16_t open = (uint16_t)(ws->gen + ASTAR__OPEN);
  if (!b->in_ring) {
    /* Only overflow left: jump to its lowest bucket and spread it out. */
    uint64_t lo = UINT64_MAX;
    for (uint32_t v = b->overflow; v != ASTAR__NONE; v = ws->node[v].pos) {
      const astar__hent e = entry_of(ws, q, hk, tie, v);
      double f;
      memcpy(&f, &e.f, sizeof f);
      const uint64_t kv = bucket_of(b, f);
      if (kv < lo) lo = kv;
    }
    b->base = lo;
    uint32_t v = b->overflow;
    b->overflow = ASTAR__NONE;
    b->cold = 0;
    while (v != ASTAR__NONE) {
      const uint32_t next = ws->node[v].pos;
      const astar__hent e = entry_of(ws, q, hk, tie, v);
      double f;
      memcpy(&f, &e.f, sizeof f);
      const uint64_t k = bucket_of(b, f);
      if (k <= b->base) {
        ws->mark[v] = open;
        astar__heap_push_k(&ws->open, ws->node, e, 4);
      } else {
        cold_add(ws, v, k, ws->aux[v]);
      }
      v = next;
    }
    if (ws->open.len) return;
  }
  /* The next non-empty ring list. */
  uint64_t k = b->base + 1;
  while (b->head[k % ASTAR__RING] == ASTAR__NONE) k++;
  b->base = k;
  uint32_t v = b->head[k % ASTAR__RING];
  b->head[k % ASTAR__RING] = ASTAR__NONE;
  while (v != ASTAR__NONE) {
    const uint32_t next = ws->node[v].pos;
    ws->mark[v] = open;
    astar__heap_push_k(&ws->open, ws->node, entry_of(ws, q, hk, tie, v), 4);
    b->in_ring--;
    b->cold--;
    v = next;
  }
}

/*
** The A* loop. hk, terrain, tie and os (open-list kind) are compile-time
** constants at the call sites below, so each instantiation carries only its
** own branches. Returns ASTAR_OK (goal popped), ASTAR_NO_PATH or
** ASTAR_LIMIT_REACHED.
*/
ASTAR__INLINE astar_status search_loop(astar_workspace *ws, astar__query *q, const int hk,
                                       const bool terrain, const int tie, const int os) {
  const unsigned K = os == OS_HEAP2 ? 2 : 4;
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__heap *const open = &ws->open;
  astar__buckets *const bk = &ws->buckets;
  const astar_grid *const grid = q->grid;
  const uint8_t *const nbs = grid->nb;
  const float *const ter = grid->terrain;
  const uint8_t *const moves = q->moves;
  const uint16_t gen = ws->gen, closed = (uint16_t)(ws->gen + ASTAR__CLOSED);
  const uint32_t goal = q->goal;
  const int32_t stride = grid->stride;
  const double inv_stride = 1.0 / (double)stride;
  const bool reopen = q->reopen;
  const uint64_t limit = q->max_expansions;
  uint64_t expanded = q->stats.expanded, generated = q->stats.generated;
  uint64_t reopened = q->stats.reopened, max_open = q->stats.max_open;
  uint32_t seq = ws->seq;
  astar_status st = ASTAR_NO_PATH;

  /* The slot holds at most one open entry outside the heap: a successor
  ** that beats the heap's minimum when generated (typical when A* walks
  ** straight at the goal: f stays equal and g grows). Popping takes the
  ** smaller of slot and heap top, so the order is exactly the heap's; the
  ** slot only saves the push and the sift-down. */
  bool slot_full = false;
  astar__hent slot = {0, 0};
  for (;;) {
    if (!slot_full && !open->len) {
      if (os != OS_BUCKET || !bk->cold) break;
      advance(ws, q, hk, tie);
    }
    if (limit && expanded >= limit) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    uint32_t u;
    if (slot_full && (!open->len || astar__hless(&slot, &open->a[0]))) {
      u = ASTAR__HNODE(slot);
      slot_full = false;
    } else {
      u = ASTAR__HNODE(astar__heap_pop_k(open, nd, K));
    }
    mark[u] = closed;
    expanded++;
    if (u == goal) {
      st = ASTAR_OK;
      break;
    }
    const double gu = nd[u].g;
    /* Row from a reciprocal multiply, corrected: cheaper than a division. */
    int32_t uy = (int32_t)((double)u * inv_stride);
    if (uy * stride > (int32_t)u)
      uy--;
    else if ((uy + 1) * stride <= (int32_t)u)
      uy++;
    const int32_t ux = (int32_t)u - uy * stride;
    unsigned m = moves[nbs[u]];
    if (!reopen) {
      /* Drop closed neighbours without a branch each: on most maps the
      ** majority of neighbours are closed and the test is unpredictable. */
      unsigned live = 0;
      for (int d = 0; d < 8; d++) live |= (unsigned)(mark[(int32_t)u + q->off[d]] != closed) << d;
      m &= live;
    }
    while (m) {
      const int d = __builtin_ctz(m);
      m &= m - 1;
      const uint32_t v = (uint32_t)((int32_t)u + q->off[d]);
      const uint16_t mv = mark[v];
      const double ng = gu + (terrain ? q->cost[d] * (double)ter[v] : q->cost[d]);
      astar__node *const n = &nd[v];
      const bool seen = (uint16_t)(mv & ~3u) == gen;
      if (seen && !(ng < n->g)) continue;
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      const double h = astar__h(q, hk, vx, vy);
      if (os == OS_BUCKET && seen && mv != gen && mv != closed) cold_remove(ws, v, n->g + h);
      n->g = ng;
      n->parent = u;
      const double f = ng + h;
      const astar__hent e = astar__entry(f, astar__tie_key(q, tie, ng, vx, vy, seq), v);
      generated++;
      if (mv == gen) {
        seq++;
        if (n->pos == ASTAR__IN_SLOT) {
          slot = e; /* only ever smaller: the slot stays below its old key */
          continue;
        }
        astar__heap_up_k(open, nd, n->pos, e, K);
        continue;
      }
      if (mv == closed) reopened++;
      if (os == OS_BUCKET) {
        const uint64_t k = bucket_of(bk, f);
        if (k > bk->base) {
          cold_add(ws, v, k, seq++);
          goto counted;
        }
      }
      seq++;
      mark[v] = gen;
      if (!open->len || astar__hless(&e, &open->a[0])) {
        if (slot_full) {
          if (astar__hless(&e, &slot)) {
            astar__heap_push_k(open, nd, slot, K);
            slot = e;
            n->pos = ASTAR__IN_SLOT;
          } else {
            astar__heap_push_k(open, nd, e, K);
          }
        } else {
          slot = e;
          slot_full = true;
          n->pos = ASTAR__IN_SLOT;
        }
      } else {
        astar__heap_push_k(open, nd, e, K);
      }
    counted:;
      const uint64_t nopen = open->len + slot_full + (os == OS_BUCKET ? bk->cold : 0);
      if (nopen > max_open) max_open = nopen;
    }
  }
  q->stats.expanded = expanded;
  q->stats.generated = generated;
  q->stats.reopened = reopened;
  q->stats.max_open = max_open;
  ws->seq = seq;
  return st;
}

/* Set up the cold buckets: width = a quarter of the cheapest move times the
** terrain floor, so one bucket spans a fraction of a step of f; the start
** (already in the heap) defines the first hot bucket. */
static void buckets_begin(astar_workspace *ws, const astar__query *q) {
  astar__buckets *b = &ws->buckets;
  double w = q->cost[0];
  for (int d = 1; d < 8; d++)
    if (q->moves[0xff] & (1u << d) && q->cost[d] < w) w = q->cost[d];
  w *= (double)q->grid->min_terrain;
  b->inv_width = 4.0 / w; /* a quarter step: measured best (docs/open-sets.md) */
  for (uint32_t i = 0; i < ASTAR__RING; i++) b->head[i] = ASTAR__NONE;
  b->overflow = ASTAR__NONE;
  b->cold = b->in_ring = 0;
  double f0;
  memcpy(&f0, &ws->open.a[0].f, sizeof f0);
  b->base = bucket_of(b, f0);
}

static astar_status run_astar(astar_workspace *ws, astar__query *q, astar_open_set os) {
  const bool ter = q->grid->terrain != NULL;
  if (os == ASTAR_OPEN_BUCKET) {
    buckets_begin(ws, q);
    return search_loop(ws, q, q->hkind, ter, q->tie, OS_BUCKET);
  }
  if (os == ASTAR_OPEN_HEAP2) return search_loop(ws, q, q->hkind, ter, q->tie, OS_HEAP2);
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == ASTAR__HK_OCTILE)
    return ter ? search_loop(ws, q, ASTAR__HK_OCTILE, true, ASTAR_TIE_LARGER_G, OS_HEAP4)
               : search_loop(ws, q, ASTAR__HK_OCTILE, false, ASTAR_TIE_LARGER_G, OS_HEAP4);
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == ASTAR__HK_MANHATTAN)
    return ter ? search_loop(ws, q, ASTAR__HK_MANHATTAN, true, ASTAR_TIE_LARGER_G, OS_HEAP4)
               : search_loop(ws, q, ASTAR__HK_MANHATTAN, false, ASTAR_TIE_LARGER_G, OS_HEAP4);
  return search_loop(ws, q, q->hkind, ter, q->tie, OS_HEAP4);
}

astar_status astar_find_path(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                             astar_point start, astar_point goal, astar_point *path, size_t cap,
                             astar_result *result) {
  astar_options defaults;
  if (result) memset(result, 0, sizeof *result);
  if (!ws || !grid || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  ws->found = false;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (opt->algorithm == ASTAR_ALGO_JPS)
    return astar__jps_find_path(ws, grid, opt, start, goal, path, cap, result);
  astar__query q;
  bool trivial;
  astar_status st = astar__begin(&q, ws, grid, opt, start, goal, &trivial);
  if (st != ASTAR_OK) return st;
  if (!trivial) st = run_astar(ws, &q, opt->open_set);
  return astar__end(&q, ws, st, path, cap, result);
}
