/*
** turns.c -- A* with a turn penalty (seed 000, "smoothing": straighter paths
** by charging for every change of direction).
**
** The cost of a move then depends on the previous move, so a search over
** cells alone would not be optimal. This one runs over states (cell,
** arrival direction) -- nine per cell, the ninth for the start -- where the
** cost model is again a plain graph, so the usual A* guarantees hold: the
** path is optimal for move costs + terrain + layers + penalties. The
** heuristic stays the cell heuristic (admissible: penalties only add).
** The state arrays are reserved explicitly (astar_workspace_reserve_turns);
** searching never allocates. Open list: the 4-ary heap.
*/
#include "core/workspace.h"
#include "search/general.h"
#include "search/turns.h"

astar_status astar__turns_reserve(astar_workspace *ws, uint32_t cells) {
  if (cells <= ws->turns.capacity) return ASTAR_OK;
  size_t n;
  if (!astar__mul(cells, ASTAR__TURN_STATES, &n) || n > UINT32_MAX - 1) return ASTAR_TOO_LARGE;
  astar__turns t;
  memset(&t, 0, sizeof t);
  t.mark = astar__calloc(&ws->alloc, n, sizeof(uint16_t));
  t.node = astar__calloc(&ws->alloc, n, sizeof(astar__node));
  t.open.a = astar__calloc(&ws->alloc, n, sizeof(astar__hent));
  t.capacity = cells;
  t.open.cap = (uint32_t)n;
  if (!t.mark || !t.node || !t.open.a) {
    astar__free(&ws->alloc, t.mark, n * sizeof(uint16_t));
    astar__free(&ws->alloc, t.node, n * sizeof(astar__node));
    astar__free(&ws->alloc, t.open.a, n * sizeof(astar__hent));
    return ASTAR_NO_MEMORY;
  }
  astar__free_turns(ws);
  ws->turns = t;
  return ASTAR_OK;
}

astar_status astar_workspace_reserve_turns(astar_workspace *ws, const astar_grid *grid) {
  if (!ws || !grid) return ASTAR_INVALID_ARGUMENT;
  return astar__turns_reserve(ws, grid->ncells);
}

void astar__turns_open(astar_workspace *ws) {
  astar__query *q = &ws->q;
  astar__turns *t = &ws->turns;
  const uint32_t s = q->start * ASTAR__TURN_STATES + 8;
  t->open.len = 0;
  t->node[s].g = 0.0;
  t->node[s].parent = ASTAR__NO_PARENT;
  t->mark[s] = ws->gen;
  const double h0 = astar__h(q, q->hkind, q->sx, q->sy);
  astar__heap_push(&t->open, t->node,
                   astar__entry(h0, astar__tie_key_q(q, q->tie, 0.0, q->sx, q->sy, 0), s));
  ws->seq = 1;
  astar__count_root(&q->stats);
}

astar_status astar__turns_run(astar_workspace *ws, uint64_t budget) {
  astar__query *const q = &ws->q;
  astar__turns *const t = &ws->turns;
  astar__node *const nd = t->node;
  uint16_t *const mark = t->mark;
  astar__heap *const open = &t->open;
  const astar_grid *const grid = q->grid;
  const uint16_t gen = ws->gen, closed = (uint16_t)(gen + ASTAR__CLOSED);
  const uint32_t stride = (uint32_t)grid->stride;
  const uint64_t stop_at = budget ? q->stats.expanded + budget : UINT64_MAX;
  astar_stats *const stats = &q->stats;
  while (open->len) {
    if (q->max_expansions && stats->expanded >= q->max_expansions) return ASTAR_LIMIT_REACHED;
    if (stats->expanded >= stop_at) return ASTAR_IN_PROGRESS;
    if (q->fx->stop_fn && stats->expanded && stats->expanded % q->fx->stop_interval == 0 &&
        q->fx->stop_fn(q->fx->stop_ctx))
      return ASTAR_STOPPED;
    if (astar__entry_f(open->a[0]) > q->fx->opt.max_cost) return ASTAR_NO_PATH; /* max_cost */
    const uint32_t s = ASTAR__HNODE(astar__heap_pop(open, nd));
    mark[s] = closed;
    astar__count_expand(stats);
    const uint32_t u = s / ASTAR__TURN_STATES, du = s % ASTAR__TURN_STATES;
    const int32_t ux = (int32_t)(u % stride), uy = (int32_t)(u / stride);
    const double gu = nd[s].g;
    const bool at_goal = astar__is_goal_node(q, u);
    if (q->fx->observer)
      astar__emit(q, at_goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, s, nd[s].parent, gu,
                  gu + astar__h(q, q->hkind, ux, uy), ASTAR__TURN_STATES);
    if (at_goal) {
      ws->reached = s;
      return ASTAR_OK;
    }
    if (q->fx->partial) {
      const double d = astar__closeness(q, ux, uy);
      if (d < ws->best_d || (d == ws->best_d && gu < ws->best_g)) {
        ws->best = s;
        ws->best_d = d;
        ws->best_g = gu;
      }
    }
    unsigned m = q->moves[q->fx->knowledge ? astar__knowledge_nb(q->fx->knowledge, grid,
                                                                 (astar_unknown)q->fx->unknown, u)
                                           : grid->nb[u]];
    while (m) {
      const unsigned d = (unsigned)__builtin_ctz(m);
      m &= m - 1;
      const uint32_t v = (uint32_t)((int32_t)u + q->off[d]);
      const uint32_t sv = v * ASTAR__TURN_STATES + d;
      const uint16_t mv = mark[sv];
      if (mv == closed && !q->reopen) continue;
      double ng = gu + q->cost[d] * astar__entry_factor(q, v);
      if (du != 8 && du != d) ng += q->fx->turn_penalty;
      astar__node *const n = &nd[sv];
      const bool seen = (uint16_t)(mv & ~3u) == gen;
      if (seen && !(ng < n->g)) continue;
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      n->g = ng;
      n->parent = s;
      const astar__hent e = astar__entry(ng + astar__h(q, q->hkind, vx, vy),
                                         astar__tie_key_q(q, q->tie, ng, vx, vy, ws->seq++), sv);
      const astar_event_type what = astar__open_put(open, nd, mark, gen, mv, sv, e, stats);
      astar__count_open(stats, open->len);
      if (q->fx->observer) astar__emit(q, what, sv, s, ng, astar__entry_f(e), ASTAR__TURN_STATES);
    }
  }
  return ASTAR_NO_PATH;
}
