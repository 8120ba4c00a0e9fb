/*
** engine/front_to_front.c -- front-to-front bidirectional search (Patel
** 4.5; de Champeaux and Sint 1977): a forward search from the start and a
** backward one from the goal (over predecessors), where an open node is
** judged by the best pair it makes with the other frontier instead of by
** its estimate to the far end:
**     key(x) = g_f(x) + min over backward open y of  h(x, y) + g_b(y)
** for a forward node x, and g_b(y) + min over forward open x of the same
** for a backward node y. The least key over either list is the least
** g(start, x) + h(x, y) + g(y, goal) over all open pairs.
**
** Each step the side with fewer open nodes (forward on a tie) expands its
** node of least key; ties inside a side follow the engine's order. Closed
** nodes that get a lower g are reopened: expansions do not follow either
** side's own f order, so a closed node can still improve.
**
** Optimality. mu is the cost of the best start-goal path seen (updated, as
** in bidirectional.c, whenever a node reached by one side gets a lower g
** from the other). The search stops when mu <= the least key, and answers
** mu. Let P be an optimal path and suppose mu > C*. With reopening, the
** forward search holds an open node x of P with its optimal g whose
** predecessors on P all have theirs (take the last node of the longest
** prefix of P with optimal g: were it closed it would have given its
** successor on P its optimal g), and the backward search likewise an open
** node y of P whose suffix of P has optimal g_b. If y came no later than
** x on P, x would be reached by both searches with optimal g and mu would
** be C*; so x comes before y, and key(x) <= g*(x) + h(x, y) + g*_b(y) <=
** g*(x) + d(x, y) + g*_b(y) = C* for an admissible h. Hence the least key
** is <= C* while mu > C*: stopping at mu <= least key gives mu = C*. An
** empty list ends the search too (then mu is optimal, or no path exists).
**
** Keeping the keys. Each open node x of side s keeps pair_h[s][x], the
** least h + g over the partners seen, and pair[s][x], that partner. When a
** node v enters the open list of s or gets a lower g there, one pass over
** the other side's open list computes h for every pair (v, y): it gives v
** its own partner (a new or reopened v) and lowers the key of every y that
** v now pairs better with. A partner leaving its open list (expanded)
** leaves the keys that used it too low but still lower bounds: before a
** node of least key is trusted -- for the stopping test and for expansion
** -- a node whose partner is no longer open is refreshed with a full pass
** and sifted down, until the least node is exact. So the least key used is
** exact, and every other key is a lower bound.
**
** Cost: each generated node costs one heuristic call per node of the other
** open list, and each refresh as much: O(degree x frontier) a step where
** A* costs O(degree log frontier). For small frontiers, or spaces where an
** expansion costs more than that.
*/
#include "core/loop.h"
#include "core/workspace.h"
#include "engine/engine.h"

/* One side as the search sees it. */
typedef struct f2f_side {
  uint16_t *mark;
  astar__node *node;
  astar__heap *open;
  uint16_t gen;
  uint32_t *seq;
  double *pair_h; /* [node] least h + g over the partners seen */
  uint32_t *pair; /* [node] that partner */
} f2f_side;

static f2f_side side_of(astar_workspace *ws, int s) {
  astar__engine *e = &ws->eng;
  f2f_side v;
  if (s == 0) {
    v.mark = ws->mark;
    v.node = ws->node;
    v.open = &ws->open;
    v.gen = ws->gen;
    v.seq = &ws->seq;
  } else {
    v.mark = e->back.mark;
    v.node = e->back.node;
    v.open = &e->back.open;
    v.gen = e->back.gen;
    v.seq = &e->back.seq;
  }
  v.pair_h = e->pair_h[s];
  v.pair = e->pair[s];
  return v;
}

/* h between a node of side s and a node of the other side, in the
** direction of the path: forward node first. */
ASTAR__INLINE double pair_heuristic(const astar__engine *e, int s, astar_node mine,
                                    astar_node theirs) {
  const astar_space_ops *ops = e->space.ops;
  if (!ops->heuristic) return 0.0;
  const double h = s == 0 ? ops->heuristic(e->space.self, mine, theirs)
                          : ops->heuristic(e->space.self, theirs, mine);
  return h >= 0.0 ? h : 0.0; /* NaN and negative values read as 0 */
}

/* Set the f of the open entry of node x in side s to `f` (lower or higher)
** and restore the heap. */
static void rekey(const f2f_side *sd, astar_node x, double f) {
  const uint32_t i = sd->node[x].pos;
  astar__hent en = sd->open->a[i];
  const double old = astar__entry_f(en);
  memcpy(&en.f, &f, sizeof f);
  if (f < old)
    astar__heap_decrease(sd->open, sd->node, i, en);
  else
    astar__heap_down_k(sd->open, sd->node, i, en, 4);
}

/*
** Node v of side s has just got g: one pass over the other side's open
** list. Every open y of the other side that pairs better with v than with
** its partner takes v (its key falls). With `own`, v's partner is computed
** from scratch too (v is new or reopened). Ties: the lower value, then the
** first met in heap order.
*/
static void scan_other(const astar__engine *e, int s, const f2f_side *me, const f2f_side *other,
                       astar_node v, bool own) {
  const double gv = me->node[v].g;
  double best = INFINITY;
  uint32_t who = ASTAR_NODE_NONE;
  /* Lowering keys only moves entries toward the root, past entries already
  ** visited: walking the array in order visits every entry. */
  for (uint32_t i = 0; i < other->open->len; i++) {
    const astar_node y = ASTAR__HNODE(other->open->a[i]);
    const double h = pair_heuristic(e, s, v, y);
    if (own) {
      const double val = h + other->node[y].g;
      if (val < best) {
        best = val;
        who = y;
      }
    }
    const double val = h + gv;
    if (val < other->pair_h[y]) {
      other->pair_h[y] = val;
      other->pair[y] = v;
      rekey(other, y, other->node[y].g + val);
    }
  }
  if (own) {
    me->pair_h[v] = best;
    me->pair[v] = who;
  }
}

/* Make the top of side s exact: refresh nodes whose partner has left the
** other open list (the other list is not empty). */
static void freshen(const astar__engine *e, int s, const f2f_side *me, const f2f_side *other) {
  for (;;) {
    const astar_node x = ASTAR__HNODE(me->open->a[0]);
    const astar_node a = me->pair[x];
    if (a != ASTAR_NODE_NONE && other->mark[a] == other->gen) return; /* partner still open */
    double best = INFINITY;
    uint32_t who = ASTAR_NODE_NONE;
    for (uint32_t i = 0; i < other->open->len; i++) {
      const astar_node y = ASTAR__HNODE(other->open->a[i]);
      const double val = pair_heuristic(e, s, x, y) + other->node[y].g;
      if (val < best) {
        best = val;
        who = y;
      }
    }
    me->pair_h[x] = best;
    me->pair[x] = who;
    rekey(me, x, me->node[x].g + best);
  }
}

/* Put a root on its side's empty open list. */
static void push_root(astar__engine *e, const f2f_side *sd, astar_node root, astar_node partner,
                      double h, int s) {
  sd->node[root].g = 0.0;
  sd->node[root].parent = ASTAR__NO_PARENT;
  sd->mark[root] = sd->gen;
  sd->pair_h[root] = h;
  sd->pair[root] = partner;
  astar__heap_push(sd->open, sd->node,
                   astar__entry(h, astar__tie_key(e->opt.tie, 0.0, (*sd->seq)++), root));
  astar__count_push(&e->stats);
  if (e->opt.observer) astar__engine_emit(e, ASTAR_EVENT_PUSH, root, ASTAR_NODE_NONE, 0.0, h, s);
}

astar_status astar__f2f_begin(astar_workspace *ws) {
  astar__engine *e = &ws->eng;
  astar__side_next(&e->back);
  ws->seq = 0;
  const f2f_side f = side_of(ws, 0), k = side_of(ws, 1);
  const double h = pair_heuristic(e, 0, e->start, e->goal);
  push_root(e, &f, e->start, e->goal, h, 0);
  push_root(e, &k, e->goal, e->start, h, 1);
  astar__count_open(&e->stats, 2);
  return ASTAR_OK;
}

/* Expand the least node of side s. */
ASTAR__INLINE astar_status expand(astar__engine *e, int s, const f2f_side *me,
                                  const f2f_side *other, const bool observe) {
  const astar_node u = ASTAR__HNODE(astar__heap_pop(me->open, me->node));
  const uint16_t closed = (uint16_t)(me->gen + ASTAR__CLOSED);
  me->mark[u] = closed;
  astar__count_expand(&e->stats);
  const double gu = me->node[u].g;
  if (observe)
    astar__engine_emit(e, ASTAR_EVENT_EXPAND, u, me->node[u].parent, gu, me->pair_h[u], s);
  astar_status fault = ASTAR_OK;
  const size_t n = astar__engine_arcs(e, u, s != 0, &fault);
  if (n == (size_t)-1) return fault;
  for (size_t i = 0; i < n; i++) {
    /* The arc buffer is read again after the passes below, which do not
    ** call the space's successors. */
    const astar_node v = e->arcs[i].node;
    const double ng = gu + e->arcs[i].cost;
    const uint16_t mv = me->mark[v];
    const bool seen = (uint16_t)(mv & ~3u) == me->gen;
    if (seen && !(ng < me->node[v].g)) continue;
    if (mv == closed && !e->reopen) continue;
    me->node[v].g = ng;
    me->node[v].parent = u;
    astar_event_type type = ASTAR_EVENT_PUSH;
    if (seen && mv != closed) {
      /* Open: same partner, lower g. */
      rekey(me, v, ng + me->pair_h[v]);
      type = ASTAR_EVENT_IMPROVE;
      astar__count_improve(&e->stats);
      scan_other(e, s, me, other, v, false);
    } else {
      me->mark[v] = me->gen;
      if (mv == closed) {
        astar__count_reopen(&e->stats);
        type = ASTAR_EVENT_REOPEN;
      } else {
        astar__count_push(&e->stats);
      }
      scan_other(e, s, me, other, v, true);
      astar__heap_push(
          me->open, me->node,
          astar__entry(ng + me->pair_h[v], astar__tie_key(e->opt.tie, ng, (*me->seq)++), v));
    }
    if (observe) astar__engine_emit(e, type, v, u, ng, me->pair_h[v], s);
    if ((uint16_t)(other->mark[v] & ~3u) == other->gen) {
      const double through = ng + other->node[v].g;
      if (through < e->mu) {
        e->mu = through;
        e->meet = v;
        if (observe) astar__engine_emit(e, ASTAR_EVENT_MEET, v, u, through, 0.0, s);
      }
    }
  }
  astar__count_open(&e->stats, (uint64_t)me->open->len + other->open->len);
  return ASTAR_OK;
}

ASTAR__INLINE astar_status run(astar_workspace *ws, uint64_t budget, const bool observe) {
  astar__engine *e = &ws->eng;
  const f2f_side f = side_of(ws, 0), k = side_of(ws, 1);
  const uint64_t limit = e->opt.max_expansions;
  const uint64_t stop_at = budget ? e->stats.expanded + budget : UINT64_MAX;
  for (;;) {
    double least = INFINITY;
    if (f.open->len && k.open->len) {
      freshen(e, 0, &f, &k);
      least = astar__entry_f(f.open->a[0]);
    }
    if (e->mu <= least) {
      if (e->meet == ASTAR_NODE_NONE) return ASTAR_NO_PATH; /* a list ran empty */
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
    astar_status st;
    if (k.open->len < f.open->len) {
      freshen(e, 1, &k, &f);
      st = expand(e, 1, &k, &f, observe);
    } else {
      st = expand(e, 0, &f, &k, observe);
    }
    if (st != ASTAR_OK) return st;
  }
}

astar_status astar__f2f_run(astar_workspace *ws, uint64_t budget) {
  return ws->eng.opt.observer ? run(ws, budget, true) : run(ws, budget, false);
}
