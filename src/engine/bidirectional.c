/*
** engine/bidirectional.c -- bidirectional A* (Patel 4.5): a forward search
** from the start and a backward search from the goal, over the space's
** predecessors.
**
** Keys. With a consistent heuristic (ASTAR_SPACE_CONSISTENT) both sides
** order their open lists by g plus an average potential (Ikeda et al.
** 1994; Goldberg & Harrelson 2005): p(v) = (h(v, goal) - h(start, v)) / 2
** forward and -p(v) backward. Each p is consistent (the mean of two
** consistent functions, one negated), so neither side reopens, and the
** forward and backward keys of a node sum to gF + gB. Otherwise (an
** admissible heuristic, with reopening) the forward side keys on h(v,
** goal) and the backward side on h(start, y): plain A* f values. A key
** reads as 0 when rounding or a heuristic that breaks its promise makes it
** negative (the open list orders non-negative doubles).
**
** Optimality. mu is the cost of the best start-goal path seen so far: each
** time a node reached by one search gets a (better) g from the other, mu
** takes g_forward + g_backward if that is lower.
**  - Average potentials: the search stops when mu <= (least forward key) +
**    (least backward key). This is the stopping rule of bidirectional
**    Dijkstra on the reduced costs c(u, v) - p(u) + p(v) >= 0, under which
**    a path's reduced cost is its cost plus p(goal) - p(start) on either
**    side: while mu > C*, an optimal path has an open node on each side
**    with its optimal g, the forward one before the backward one along the
**    path, whose keys sum to at most C*. Each side only has to cover about
**    half of the path, where the max rule below makes one side cover it
**    all: on mazes, where h says little, that is half the expansions.
**  - Otherwise: when mu <= max(least f of the forward open list, least f
**    of the backward open list). While C* < mu each search holds an open
**    node on an optimal path with its optimal g (A* with a consistent
**    heuristic, or any admissible one with reopening), whose f is at most
**    C*: the rule cannot stop before mu == C* (Pohl 1971).
** An empty open list on either side means every path has been seen: mu is
** optimal, or there is none.
**
** Which side expands: the one with fewer open nodes (Pohl's cardinality
** rule, which keeps the two frontiers balanced), the forward side on a tie.
** Ties inside a side follow the engine's order (key, tie rule, node id),
** so the search is deterministic.
*/
#include "core/loop.h"
#include "core/workspace.h"
#include "engine/engine.h"
#include "spaces/grid_space.h"

#include <float.h>

/* One side of the search as the loop sees it. */
typedef struct side_view {
  uint16_t *mark;
  astar__node *node;
  astar__heap *open;
  uint16_t gen;
  uint32_t *seq;
} side_view;

static side_view forward(astar_workspace *ws) {
  side_view s = {ws->mark, ws->node, &ws->open, ws->gen, &ws->seq};
  return s;
}

static side_view backward(astar_workspace *ws) {
  astar__side *b = &ws->eng.back;
  side_view s = {b->mark, b->node, &b->open, b->gen, &b->seq};
  return s;
}

static double min_f(const astar__heap *h) {
  if (!h->len) return INFINITY;
  double f;
  memcpy(&f, &h->a[0].f, sizeof f);
  return f;
}

/* Is node v reached (open or closed) in the current search of side s? */
ASTAR__INLINE bool reached(const side_view *s, astar_node v) {
  return (uint16_t)(s->mark[v] & ~3u) == s->gen;
}

/* A key as the open list takes it: a non-negative double (NaN, -0 and
** negative values read as +0). */
ASTAR__INLINE double key_of(double k) {
  return k > 0.0 ? k : 0.0;
}

/* Push the root of one side, `h` its key beyond g. */
static void push_root(astar__engine *e, side_view *s, astar_node root, double h, int dir) {
  s->node[root].g = 0.0;
  s->node[root].parent = ASTAR__NO_PARENT;
  s->mark[root] = s->gen;
  astar__heap_push(s->open, s->node,
                   astar__entry(key_of(h), astar__tie_key(e->opt.tie, 0.0, (*s->seq)++), root));
  astar__count_push(&e->stats);
  if (e->opt.observer) astar__engine_emit(e, ASTAR_EVENT_PUSH, root, ASTAR_NODE_NONE, 0.0, h, dir);
}

/* Does the search key on average potentials (a consistent heuristic)? */
ASTAR__INLINE bool averaged(const astar__engine *e) {
  return (e->space.flags & ASTAR_SPACE_CONSISTENT) != 0;
}

/* The part of node v's key beyond g on side `dir` (0 forward, 1
** backward): the average potential p(v) = (h(v, goal) - h(start, v)) / 2
** forward and -p(v) backward (`avg`), else the side's own heuristic.
** `grid`: the grid space's inline heuristic, the same values as its
** callback. */
ASTAR__INLINE double side_h(const astar__engine *e, astar_node v, const int dir, const bool avg,
                            const bool grid) {
  const astar_grid_space *const gs = grid ? (const astar_grid_space *)e->space.self : NULL;
  const bool fwd = avg || !dir, back = avg || dir;
  const double hf = !fwd   ? 0.0
                    : grid ? astar__sane_h(astar__gs_h(gs, v, e->goal))
                           : astar__engine_h(e, v);
  const double hb = !back  ? 0.0
                    : grid ? astar__sane_h(astar__gs_h(gs, e->start, v))
                           : astar__engine_h_back(e, v);
  if (!avg) return dir ? hb : hf;
  const double p = 0.5 * (hf - hb);
  return dir ? -p : p;
}

astar_status astar__bidir_begin(astar_workspace *ws) {
  astar__engine *e = &ws->eng;
  astar__side_next(&e->back);
  ws->seq = 0;
  side_view f = forward(ws), k = backward(ws);
  const bool avg = averaged(e);
  push_root(e, &f, e->start, side_h(e, e->start, 0, avg, false), 0);
  push_root(e, &k, e->goal, side_h(e, e->goal, 1, avg, false), 1);
  astar__count_open(&e->stats, 2);
  return ASTAR_OK;
}

/* Expand the top node of side `s` (dir 0 forward, 1 backward); `o` is the
** other side. Returns ASTAR_OK to go on, or the space's failure
** (astar__engine_arcs). `avg`: keys on average potentials (side_h).
** `grid`: the grid-space fast path (no observer; spaces/grid_space.h), the
** space's inline arcs and heuristic instead of its callbacks -- the same
** values in the same order. */
ASTAR__INLINE astar_status expand(astar__engine *e, side_view *s, const side_view *o, const int dir,
                                  const bool observe, const bool avg, const bool grid) {
  const astar_grid_space *const gs = grid ? (const astar_grid_space *)e->space.self : NULL;
  const astar_node u = ASTAR__HNODE(astar__heap_pop(s->open, s->node));
  const uint16_t closed = (uint16_t)(s->gen + ASTAR__CLOSED);
  s->mark[u] = closed;
  astar__count_expand(&e->stats);
  const double gu = s->node[u].g;
  if (observe) {
    const double hu = side_h(e, u, dir, avg, false);
    astar__engine_emit(e, ASTAR_EVENT_EXPAND, u, s->node[u].parent, gu, hu, dir);
  }
  size_t n;
  if (grid) {
    n = astar__gs_arcs(gs, u, e->arcs, e->arcs_cap, dir != 0);
  } else {
    astar_status fault = ASTAR_OK;
    n = astar__engine_arcs(e, u, dir != 0, &fault);
    if (n == (size_t)-1) return fault;
  }
  for (size_t i = 0; i < n; i++) {
    const astar_arc *a = &e->arcs[i];
    const astar_node v = a->node;
    const double ng = gu + a->cost;
    const uint16_t mv = s->mark[v];
    const bool seen = (uint16_t)(mv & ~3u) == s->gen;
    if (seen && !(ng < s->node[v].g)) continue;
    if (mv == closed && !e->reopen) continue;
    const double h = side_h(e, v, dir, avg, grid);
    s->node[v].g = ng;
    s->node[v].parent = u;
    const astar__hent en =
        astar__entry(key_of(ng + h), astar__tie_key(e->opt.tie, ng, (*s->seq)++), v);
    const astar_event_type type =
        astar__open_put(s->open, s->node, s->mark, s->gen, mv, v, en, &e->stats);
    if (observe) astar__engine_emit(e, type, v, u, ng, h, dir);
    /* A path through v: the best seen is kept. */
    if (reached(o, v)) {
      const double through = ng + o->node[v].g;
      if (through < e->mu) {
        e->mu = through;
        e->meet = v;
        if (observe) astar__engine_emit(e, ASTAR_EVENT_MEET, v, u, through, 0.0, dir);
      }
    }
  }
  astar__count_open(&e->stats, (uint64_t)s->open->len + o->open->len);
  return ASTAR_OK;
}

ASTAR__INLINE astar_status run(astar_workspace *ws, uint64_t budget, const bool observe,
                               const bool avg, const bool grid) {
  astar__engine *e = &ws->eng;
  side_view f = forward(ws), k = backward(ws);
  const uint64_t limit = e->opt.max_expansions;
  const uint64_t stop_at = budget ? e->stats.expanded + budget : UINT64_MAX;
  for (;;) {
    const double ff = min_f(f.open), fk = min_f(k.open);
    if (e->mu <= (avg ? ff + fk : ff > fk ? ff : fk)) {
      if (e->meet == ASTAR_NODE_NONE) return ASTAR_NO_PATH; /* both infinite */
      if (observe) {
        const astar_node m = e->meet;
        astar__engine_emit(e, ASTAR_EVENT_GOAL, m, ws->node[m].parent, e->mu, 0.0, 0);
      }
      return ASTAR_OK;
    }
    if (limit && e->stats.expanded >= limit) return ASTAR_LIMIT_REACHED;
    if (e->stats.expanded >= stop_at) return ASTAR_IN_PROGRESS;
    if (e->opt.stop_fn && e->stats.expanded && e->stats.expanded % e->opt.stop_interval == 0 &&
        e->opt.stop_fn(e->opt.stop_ctx))
      return ASTAR_STOPPED;
    /* Both lists are non-empty here (an empty one has f = infinity). */
    const astar_status st = k.open->len < f.open->len ? expand(e, &k, &f, 1, observe, avg, grid)
                                                      : expand(e, &f, &k, 0, observe, avg, grid);
    if (st != ASTAR_OK) return st;
  }
}

astar_status astar__bidir_run(astar_workspace *ws, uint64_t budget) {
  const astar__engine *e = &ws->eng;
  if (averaged(e)) {
    if (e->opt.observer) return run(ws, budget, true, true, false);
    return astar__engine_grid_fast(e) ? run(ws, budget, false, true, true)
                                      : run(ws, budget, false, true, false);
  }
  if (e->opt.observer) return run(ws, budget, true, false, false);
  return astar__engine_grid_fast(e) ? run(ws, budget, false, false, true)
                                    : run(ws, budget, false, false, false);
}
