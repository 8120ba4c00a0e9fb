/*
** engine/beam.c -- beam search (Patel 4.1): A* whose open list never holds
** more than options.beam_width nodes. When a node is to enter a full list,
** the worst entry -- the largest (f, tie key, node), the one A* would take
** last -- leaves it for good, or the newcomer stays out if it is no better.
** Either is a drop (result.dropped, ASTAR_EVENT_DROP). A dropped node is
** forgotten (mark gen + DROPPED): met again, it is new. Without a drop the
** search is exactly A* (same order, same path). With drops there is no
** bound, and the goal may be missed: ASTAR_NO_PATH with result.dropped > 0
** says "not found within the beam", with result.dropped == 0 "unreachable".
**
** The double-ended priority queue is a pair of heaps over the same
** entries: the engine's min-heap (ws->open, positions in the node records)
** gives the best, a binary max-heap gives the worst. The max-heap lives in
** the backward records' open-list array (ASTAR_RESERVE_BACKWARD) with its
** positions in ws->aux; each of push, decrease-key and drop costs
** O(log width) in both.
*/
#include "core/workspace.h"
#include "engine/engine.h"

#define DROPPED 2u /* mark state of a dropped node: gen + DROPPED */

/* ---- the worst-first heap: binary, largest entry at the root -------------- */

typedef struct worst_heap {
  astar__hent *a; /* entries */
  uint32_t *pos;  /* [node] position of the node's entry */
  uint32_t *len;  /* entries in use */
} worst_heap;

/* Is x worse (taken later by A*) than y? */
ASTAR__INLINE bool worse(const astar__hent *x, const astar__hent *y) {
  return astar__hless(y, x);
}

static void worst_up(const worst_heap *w, uint32_t i, astar__hent en) {
  while (i > 0) {
    const uint32_t p = (i - 1) / 2;
    if (!worse(&en, &w->a[p])) break;
    w->a[i] = w->a[p];
    w->pos[ASTAR__HNODE(w->a[i])] = i;
    i = p;
  }
  w->a[i] = en;
  w->pos[ASTAR__HNODE(en)] = i;
}

static void worst_down(const worst_heap *w, uint32_t i, astar__hent en) {
  const uint32_t n = *w->len;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && worse(&w->a[c + 1], &w->a[c])) c++;
    if (!worse(&w->a[c], &en)) break;
    w->a[i] = w->a[c];
    w->pos[ASTAR__HNODE(w->a[i])] = i;
    i = c;
  }
  w->a[i] = en;
  w->pos[ASTAR__HNODE(en)] = i;
}

/* Remove the entry at position i. */
static void worst_remove(const worst_heap *w, uint32_t i) {
  const astar__hent last = w->a[--*w->len];
  if (i == *w->len) return;
  if (worse(&last, &w->a[i]))
    worst_up(w, i, last);
  else
    worst_down(w, i, last);
}

/* Remove the entry at position i of the engine's min-heap. */
static void best_remove(astar__heap *h, astar__node *nd, uint32_t i) {
  const astar__hent last = h->a[--h->len];
  if (i == h->len) return;
  if (astar__hless(&last, &h->a[i]))
    astar__heap_up_k(h, nd, i, last, 4);
  else
    astar__heap_down_k(h, nd, i, last, 4);
}

/* The worst-first heap of ws (its length is the backward side's). */
static worst_heap worst_of(astar_workspace *ws) {
  worst_heap w = {ws->eng.back.open.a, ws->aux, &ws->eng.back.open.len};
  return w;
}

void astar__beam_begin(astar_workspace *ws) {
  /* The start, already in the min-heap, enters the max-heap too. */
  const worst_heap w = worst_of(ws);
  *w.len = 1;
  worst_up(&w, 0, ws->open.a[0]);
}

/* ---- the loop: search.c's A* loop with the two heaps ------------------------- */

ASTAR__INLINE astar_status run(astar_workspace *ws, uint64_t budget, const bool observe) {
  astar__engine *const e = &ws->eng;
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__heap *const open = &ws->open;
  const worst_heap w = worst_of(ws);
  const uint16_t gen = ws->gen, closed = (uint16_t)(gen + ASTAR__CLOSED);
  const uint16_t dropped = (uint16_t)(gen + DROPPED);
  const double weight = e->weight;
  const bool reopen = e->reopen, partial = e->opt.partial;
  const uint32_t width = e->opt.beam_width;
  const int tie = e->opt.tie;
  const uint64_t limit = e->opt.max_expansions;
  const uint64_t stop_at = budget ? e->stats.expanded + budget : UINT64_MAX;
  for (;;) {
    if (!open->len) return ASTAR_NO_PATH;
    if (limit && e->stats.expanded >= limit) return ASTAR_LIMIT_REACHED;
    if (e->stats.expanded >= stop_at) return ASTAR_IN_PROGRESS;
    if (e->opt.stop_fn && e->stats.expanded && e->stats.expanded % e->opt.stop_interval == 0 &&
        e->opt.stop_fn(e->opt.stop_ctx))
      return ASTAR_STOPPED;
    const astar_node u = ASTAR__HNODE(astar__heap_pop(open, nd));
    worst_remove(&w, w.pos[u]);
    mark[u] = closed;
    astar__count_expand(&e->stats);
    const double gu = nd[u].g;
    const bool goal = astar__engine_is_goal(e, u);
    if (observe || partial) {
      const double hu = astar__engine_h(e, u);
      if (observe)
        astar__engine_emit(e, goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, u, nd[u].parent, gu,
                           hu * weight, 0);
      if (partial && (hu < e->best_h || (hu == e->best_h && gu < e->best_g))) {
        e->best = u;
        e->best_h = hu;
        e->best_g = gu;
      }
    }
    if (goal) {
      e->reached = u;
      return ASTAR_OK;
    }
    astar_status fault = ASTAR_OK;
    const size_t n = astar__engine_arcs(e, u, false, &fault);
    if (n == (size_t)-1) return fault;
    for (size_t i = 0; i < n; i++) {
      const astar_arc *const a = &e->arcs[i];
      const astar_node v = a->node;
      const double ng = gu + a->cost;
      const uint16_t mv = mark[v];
      const bool seen = (uint16_t)(mv & ~3u) == gen && mv != dropped;
      if (seen && !(ng < nd[v].g)) continue;
      if (mv == closed && !reopen) continue;
      const double h = weight == 0.0 ? 0.0 : astar__engine_h(e, v) * weight;
      const astar__hent en = astar__entry(ng + h, astar__tie_key(tie, ng, ws->seq++), v);
      if (mv == gen) {
        /* Open: a better entry, in both heaps (for the max-heap a smaller
        ** key moves toward the leaves). */
        nd[v].g = ng;
        nd[v].parent = u;
        astar__heap_decrease(open, nd, nd[v].pos, en);
        worst_down(&w, w.pos[v], en);
        astar__count_improve(&e->stats);
        if (observe) astar__engine_emit(e, ASTAR_EVENT_IMPROVE, v, u, ng, h, 0);
        continue;
      }
      if (open->len >= width) {
        const astar__hent top = w.a[0];
        if (!worse(&top, &en)) {
          /* No better than the worst: stays out. */
          e->dropped++;
          if (observe) astar__engine_emit(e, ASTAR_EVENT_DROP, v, u, ng, h, 0);
          continue;
        }
        const astar_node x = ASTAR__HNODE(top);
        worst_remove(&w, 0);
        best_remove(open, nd, nd[x].pos);
        mark[x] = dropped;
        e->dropped++;
        if (observe)
          astar__engine_emit(e, ASTAR_EVENT_DROP, x, nd[x].parent, nd[x].g,
                             astar__entry_f(top) - nd[x].g, 0);
      }
      nd[v].g = ng;
      nd[v].parent = u;
      mark[v] = gen;
      astar__heap_push(open, nd, en);
      worst_up(&w, (*w.len)++, en);
      if (mv == closed)
        astar__count_reopen(&e->stats);
      else
        astar__count_push(&e->stats);
      astar__count_open(&e->stats, open->len);
      if (observe)
        astar__engine_emit(e, mv == closed ? ASTAR_EVENT_REOPEN : ASTAR_EVENT_PUSH, v, u, ng, h, 0);
    }
  }
}

astar_status astar__beam_run(astar_workspace *ws, uint64_t budget) {
  return ws->eng.opt.observer ? run(ws, budget, true) : run(ws, budget, false);
}
