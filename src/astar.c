/*
** astar.c -- A* over the cells, and astar_find_path, the entry point that
** dispatches to the chosen algorithm.
**
** The loop is written once (search_loop) and instantiated for the common
** configurations with constant arguments, so the compiler removes the
** branches on heuristic kind, terrain and tie mode from the hot path.
*/
#include "query.h"

/*
** The A* loop. hk, terrain and tie are compile-time constants at the call
** sites below, so each instantiation carries only its own branches.
** Returns ASTAR_OK (goal popped), ASTAR_NO_PATH or ASTAR_LIMIT_REACHED.
*/
ASTAR__INLINE astar_status search_loop(astar_workspace *ws, astar__query *q, const int hk,
                                       const bool terrain, const int tie) {
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__heap *const open = &ws->open;
  const astar_grid *const grid = q->grid;
  const uint8_t *const nbs = grid->nb;
  const float *const ter = grid->terrain;
  const uint8_t *const moves = q->moves;
  const uint16_t gen = ws->gen, closed = (uint16_t)(ws->gen | 1u);
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
    if (!slot_full && !open->len) break;
    if (limit && expanded >= limit) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    uint32_t u;
    if (slot_full && (!open->len || astar__hless(&slot, &open->a[0]))) {
      u = ASTAR__HNODE(slot);
      slot_full = false;
    } else {
      u = ASTAR__HNODE(astar__heap_pop(open, nd));
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
      const bool seen = (mv | 1u) == closed;
      if (seen && !(ng < n->g)) continue;
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      const double h = astar__h(q, hk, vx, vy);
      n->g = ng;
      n->parent = u;
      const astar__hent e = astar__entry(ng + h, astar__tie_key(q, tie, ng, vx, vy, seq), v);
      seq++;
      generated++;
      if (mv == gen) {
        if (n->pos == ASTAR__IN_SLOT) {
          slot = e; /* only ever smaller: the slot stays below its old key */
          continue;
        }
        astar__heap_decrease(open, nd, n->pos, e);
        continue;
      }
      if (mv == closed) reopened++;
      mark[v] = gen;
      if (!open->len || astar__hless(&e, &open->a[0])) {
        if (slot_full) {
          if (astar__hless(&e, &slot)) {
            astar__heap_push(open, nd, slot);
            slot = e;
            n->pos = ASTAR__IN_SLOT;
          } else {
            astar__heap_push(open, nd, e);
          }
        } else {
          slot = e;
          slot_full = true;
          n->pos = ASTAR__IN_SLOT;
        }
      } else {
        astar__heap_push(open, nd, e);
      }
      const uint64_t nopen = open->len + slot_full;
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

static astar_status run_astar(astar_workspace *ws, astar__query *q) {
  const bool ter = q->grid->terrain != NULL;
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == ASTAR__HK_OCTILE)
    return ter ? search_loop(ws, q, ASTAR__HK_OCTILE, true, ASTAR_TIE_LARGER_G)
               : search_loop(ws, q, ASTAR__HK_OCTILE, false, ASTAR_TIE_LARGER_G);
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == ASTAR__HK_MANHATTAN)
    return ter ? search_loop(ws, q, ASTAR__HK_MANHATTAN, true, ASTAR_TIE_LARGER_G)
               : search_loop(ws, q, ASTAR__HK_MANHATTAN, false, ASTAR_TIE_LARGER_G);
  return search_loop(ws, q, q->hkind, ter, q->tie);
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
  if (!trivial) st = run_astar(ws, &q);
  return astar__end(&q, ws, st, path, cap, result);
}
