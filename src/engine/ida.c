/*
** engine/ida.c -- iterative deepening A* (Patel 4.2; Korf 1985): depth
** first searches from the start, each one following only nodes with
** f = g + h <= a bound; the first bound is h(start), each next one the
** least f that exceeded the last. With an admissible heuristic the first
** goal met has the optimal cost: every bound is at most C* (the first node
** of an optimal path cut off by a bound had f <= C*), and a goal met under
** bound B has g <= B.
**
** No open list and no recursion: the current path is an explicit stack of
** frames in the open list's memory (one 16-byte heap entry a frame: the
** bits of g, and the index of the next successor to try << 32 | node), so
** the memory proper to IDA* is linear in the depth. A frame does not keep
** its successors: coming back to a node, the search fetches them again
** from the space (astar__engine_arcs) and goes on from the saved index --
** at most degree + 1 fetches a visit instead of degree arcs a level.
**
** Cut-offs. A node on the current path has mark gen + ASTAR__OPEN, a node
** left behind gen + ASTAR__CLOSED (its g stays in its record); each
** iteration is a new generation. A successor already on the path closes a
** cycle and is never followed. With options.ida_transpositions, a
** successor met before in this iteration with a g no higher than the new
** one is not followed either: its subtree under the same bound, with at
** least as much left of the bound, was or is being searched (Reinefeld and
** Marsland's transposition cut-off, with the node records as the table);
** this subsumes the cycle check and keeps each iteration to the nodes
** under the bound and their arcs on graphs with many paths.
**
** Counting: an expansion is the first visit of a node on the path in an
** iteration (where the goal test happens, so the goal counts as expanded,
** as in A*); generated counts the nodes placed on the path; max_open the
** deepest path; result.iterations the iterations. The search is sliced at
** expansions like every method.
*/
#include "core/loop.h"
#include "core/workspace.h"
#include "engine/engine.h"

/* A frame of the stack: node, g, next successor index. */
ASTAR__INLINE astar__hent frame(astar_node node, double g, uint32_t next) {
  astar__hent f;
  memcpy(&f.f, &g, sizeof g);
  f.t = (uint64_t)next << 32 | node;
  return f;
}

/* Put the start on an empty path. */
static void push_start(astar_workspace *ws) {
  astar__engine *e = &ws->eng;
  const astar_node s = e->start;
  ws->node[s].g = 0.0;
  ws->node[s].parent = ASTAR__NO_PARENT;
  ws->mark[s] = ws->gen;
  ws->open.a[0] = frame(s, 0.0, 0);
  e->ida_depth = 1;
  astar__count_push(&e->stats);
  astar__count_open(&e->stats, 1);
  if (e->opt.observer)
    astar__engine_emit(e, ASTAR_EVENT_PUSH, s, ASTAR_NODE_NONE, 0.0, e->ida_bound, 0);
}

astar_status astar__ida_begin(astar_workspace *ws) {
  astar__engine *e = &ws->eng;
  e->ida_bound = astar__engine_h(e, e->start);
  e->ida_next = INFINITY;
  e->iterations = 1;
  push_start(ws);
  return ASTAR_OK;
}

ASTAR__INLINE astar_status run(astar_workspace *ws, uint64_t budget, const bool observe) {
  astar__engine *const e = &ws->eng;
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__hent *const stack = ws->open.a;
  const bool tt = e->opt.ida_transpositions;
  const uint64_t limit = e->opt.max_expansions;
  const uint64_t stop_at = budget ? e->stats.expanded + budget : UINT64_MAX;
  for (;;) {
    if (e->ida_depth == 0) {
      /* The iteration is over without the goal: raise the bound. */
      if (e->ida_next == INFINITY) return ASTAR_NO_PATH;
      e->ida_bound = e->ida_next;
      e->ida_next = INFINITY;
      e->iterations++;
      astar__records_next(ws);
      if (observe)
        astar__engine_emit(e, ASTAR_EVENT_ITERATION, e->start, ASTAR_NODE_NONE, 0.0, e->ida_bound,
                           0);
      push_start(ws);
    }
    const uint16_t gen = ws->gen, closed = (uint16_t)(gen + ASTAR__CLOSED);
    const double bound = e->ida_bound;
    astar__hent *const top = &stack[e->ida_depth - 1];
    const astar_node u = ASTAR__HNODE(*top);
    const uint32_t k = (uint32_t)(top->t >> 32);
    const double gu = astar__entry_f(*top);
    if (k == 0) {
      /* First visit of u in this iteration: an expansion. */
      if (limit && e->stats.expanded >= limit) return ASTAR_LIMIT_REACHED;
      if (e->stats.expanded >= stop_at) return ASTAR_IN_PROGRESS;
      if (e->opt.stop_fn && e->stats.expanded && e->stats.expanded % e->opt.stop_interval == 0 &&
          e->opt.stop_fn(e->opt.stop_ctx))
        return ASTAR_STOPPED;
      astar__count_expand(&e->stats);
      const bool goal = astar__engine_is_goal(e, u);
      if (observe)
        astar__engine_emit(e, goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, u, nd[u].parent, gu,
                           astar__engine_h(e, u), 0);
      if (goal) {
        e->reached = u;
        return ASTAR_OK;
      }
    }
    astar_status fault = ASTAR_OK;
    const size_t n = astar__engine_arcs(e, u, false, &fault);
    if (n == (size_t)-1) return fault;
    size_t i = k;
    astar_node v = ASTAR_NODE_NONE;
    double ng = 0.0, h = 0.0;
    for (; i < n; i++) {
      v = e->arcs[i].node;
      ng = gu + e->arcs[i].cost;
      const uint16_t mv = mark[v];
      if (tt ? (uint16_t)(mv & ~3u) == gen && !(ng < nd[v].g) : mv == gen) continue;
      h = astar__engine_h(e, v);
      const double f = ng + h;
      if (f <= bound) break;
      if (f < e->ida_next) e->ida_next = f;
    }
    if (i < n) {
      /* Down to v; u goes on after it with its next successor. */
      top->t = (uint64_t)(i + 1) << 32 | u;
      nd[v].g = ng;
      nd[v].parent = u;
      mark[v] = gen;
      stack[e->ida_depth++] = frame(v, ng, 0);
      astar__count_push(&e->stats);
      astar__count_open(&e->stats, e->ida_depth);
      if (observe) astar__engine_emit(e, ASTAR_EVENT_PUSH, v, u, ng, h, 0);
    } else {
      /* u is done: back to its parent. */
      mark[u] = closed;
      e->ida_depth--;
    }
  }
}

astar_status astar__ida_run(astar_workspace *ws, uint64_t budget) {
  return ws->eng.opt.observer ? run(ws, budget, true) : run(ws, budget, false);
}
