/*
** engine/search.c -- the search engine over a space (astar/engine.h): the
** workspace reservation, the options, the A* loop with its settings
** (Dijkstra, greedy best-first, weighted A*), the sliced begin / step /
** finish, partial paths, several goals, the observer and the path; the
** dispatch to the other methods (bidirectional.c and the variants of
** Patel's section 4: ida.c, beam.c, dynamic.c, bandwidth.c,
** front_to_front.c, retargeting.c). Dynamic weighting and bandwidth search
** are settings of the A* loop here: a weight that depends on g, and a
** drop rule on generated nodes.
**
** The loop asks the space for successors into the workspace's arc buffer
** and for heuristic values, and keeps everything else -- g, parents, the
** open list -- in the workspace's node records, indexed by node id. It
** checks what a space hands back (node ids in range, costs finite and
** >= 0): a faulty space ends the search with ASTAR_INVALID_ARGUMENT
** instead of corrupting memory.
*/
#include "core/counters.h"
#include "core/loop.h"
#include "core/workspace.h"
#include "engine/engine.h"
#include "spaces/grid_space.h"

#include <float.h>

static const char *const method_names[ASTAR_METHOD_ENGINE_COUNT] = {
    "astar", "dijkstra", "greedy",    "bidirectional",  "ida",
    "beam",  "dynamic",  "bandwidth", "front-to-front", "retargeting"};

const char *astar__engine_method_name(astar_method method) {
  return (unsigned)method < ASTAR_METHOD_ENGINE_COUNT ? method_names[method] : NULL;
}

void astar_engine_options_init(astar_engine_options *opt) {
  if (!opt) return;
  memset(opt, 0, sizeof *opt);
  opt->method = ASTAR_METHOD_ASTAR;
  opt->weight = 1.0;
  opt->tie = ASTAR_TIE_LARGER_G;
  opt->reopen = ASTAR_REOPEN_AUTO;
  opt->stop_interval = 256;
  opt->beam_width = 1024;
  opt->epsilon = 1.0;
  opt->band_e = 0.0;
  opt->band_d = 0.0;
  opt->ida_transpositions = true;
  opt->retarget_interval = 32;
}

static bool finite_nonneg(double v) {
  return isfinite(v) && v >= 0.0;
}

astar_status astar_engine_options_validate(const astar_engine_options *o) {
  ASTAR__COUNT_VALIDATION();
  if (!o) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->method >= ASTAR_METHOD_COUNT) return ASTAR_INVALID_ARGUMENT;
  if (!(o->weight >= 0.0 && o->weight <= ASTAR_OPTION_MAX)) return ASTAR_INVALID_ARGUMENT;
  if (o->tie != ASTAR_TIE_LARGER_G && o->tie != ASTAR_TIE_NEWEST) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->reopen > (unsigned)ASTAR_REOPEN_NEVER) return ASTAR_INVALID_ARGUMENT;
  if (o->stop_fn && o->stop_interval == 0) return ASTAR_INVALID_ARGUMENT;
  if (!finite_nonneg(o->epsilon) || !finite_nonneg(o->band_e) || !finite_nonneg(o->band_d))
    return ASTAR_INVALID_ARGUMENT;
  if (o->method == ASTAR_METHOD_BEAM && o->beam_width == 0) return ASTAR_INVALID_ARGUMENT;
  if (o->method == ASTAR_METHOD_RETARGETING && o->retarget_interval == 0)
    return ASTAR_INVALID_ARGUMENT;
  return ASTAR_OK;
}

astar_status astar_space_validate(const astar_space *s) {
  if (!s || !s->ops || !s->ops->successors || s->node_count == 0 || s->max_degree == 0)
    return ASTAR_INVALID_ARGUMENT;
  return ASTAR_OK;
}

/* ---- memory ------------------------------------------------------------------- */

astar_status astar_workspace_reserve_space(astar_workspace *ws, const astar_space *space,
                                           unsigned what) {
  if (!ws || astar_space_validate(space) != ASTAR_OK ||
      (what & ~(ASTAR_RESERVE_BACKWARD | ASTAR_RESERVE_FRONT_TO_FRONT)))
    return ASTAR_INVALID_ARGUMENT;
  if (what & ASTAR_RESERVE_FRONT_TO_FRONT) what |= ASTAR_RESERVE_BACKWARD;
  astar__engine *e = &ws->eng;
  const uint32_t n = space->node_count;
  /* Everything new is allocated before anything is replaced: a failure
  ** leaves the workspace as it was. */
  astar_arc *arcs = NULL;
  astar__side back;
  memset(&back, 0, sizeof back);
  double *pair_h[2] = {NULL, NULL};
  uint32_t *pair[2] = {NULL, NULL};
  const bool pairs = (what & ASTAR_RESERVE_FRONT_TO_FRONT) && n > e->pair_cap;
  if (space->max_degree > e->arcs_cap) {
    arcs = astar__calloc(&ws->alloc, space->max_degree, sizeof *arcs);
    if (!arcs) return ASTAR_NO_MEMORY;
  }
  if ((what & ASTAR_RESERVE_BACKWARD) && n > e->back.cap) {
    back.mark = astar__calloc(&ws->alloc, n, sizeof *back.mark);
    back.node = astar__calloc(&ws->alloc, n, sizeof *back.node);
    back.open.a = astar__calloc(&ws->alloc, n, sizeof *back.open.a);
    back.cap = back.open.cap = n;
  }
  bool ok = !(what & ASTAR_RESERVE_BACKWARD) || n <= e->back.cap ||
            (back.mark && back.node && back.open.a);
  for (int k = 0; k < 2 && pairs && ok; k++) {
    pair_h[k] = astar__calloc(&ws->alloc, n, sizeof *pair_h[k]);
    pair[k] = astar__calloc(&ws->alloc, n, sizeof *pair[k]);
    ok = pair_h[k] && pair[k];
  }
  if (!ok || astar__workspace_grow(ws, n) != ASTAR_OK) {
    for (int k = 0; k < 2; k++) {
      astar__free(&ws->alloc, pair_h[k], (size_t)n * sizeof *pair_h[k]);
      astar__free(&ws->alloc, pair[k], (size_t)n * sizeof *pair[k]);
    }
    astar__free_side(&ws->alloc, &back);
    astar__free(&ws->alloc, arcs, (size_t)space->max_degree * sizeof *arcs);
    return ASTAR_NO_MEMORY;
  }
  /* The engine's own blocks may change: its search and path end. */
  e->phase = ASTAR__IDLE;
  e->found = false;
  if (arcs) {
    astar__free_arcs(ws);
    e->arcs = arcs;
    e->arcs_cap = space->max_degree;
  }
  if (back.cap) {
    astar__free_side(&ws->alloc, &e->back);
    e->back = back;
  }
  if (pairs) {
    astar__free_pairs(ws);
    for (int k = 0; k < 2; k++) {
      e->pair_h[k] = pair_h[k];
      e->pair[k] = pair[k];
    }
    e->pair_cap = n;
  }
  return ASTAR_OK;
}

/* ---- heuristic and events ------------------------------------------------------- */

double astar__engine_h(const astar__engine *e, astar_node v) {
  const astar_space_ops *ops = e->space.ops;
  if (!ops->heuristic) return 0.0;
  if (!e->goals) return astar__sane_h(ops->heuristic(e->space.self, v, e->goal));
  double best = INFINITY;
  for (size_t i = 0; i < e->ngoals; i++) {
    const astar_node t = e->goals[i];
    if (t >= e->space.node_count || (ops->usable && !ops->usable(e->space.self, t))) continue;
    const double h = astar__sane_h(ops->heuristic(e->space.self, v, t));
    if (h < best) best = h;
  }
  return best;
}

double astar__engine_h_back(const astar__engine *e, astar_node v) {
  const astar_space_ops *ops = e->space.ops;
  return ops->heuristic ? astar__sane_h(ops->heuristic(e->space.self, e->start, v)) : 0.0;
}

void astar__engine_emit(const astar__engine *e, astar_event_type type, astar_node node,
                        astar_node parent, double g, double h, int side) {
  astar__emit_node(e->opt.observer, e->opt.observer_ctx, type, node, parent, g, h,
                   e->greedy ? h : g + h, e->stats.expanded, side);
}

/* ---- the A* loop -------------------------------------------------------------------- */

/*
** A*, Dijkstra, greedy, weighted A*, dynamic weighting (the weight of h
** depends on h: astar__engine_w, dynamic.c) and bandwidth search (a node
** generated with f above the expanded node's f + e->band is dropped:
** bandwidth.c), until the search ends or `budget` expansions (0: none)
** were done in this call. `observe` and `variant` (dynamic weighting or
** bandwidth search) are constants at the call sites, so the loop without
** an observer has no calls to it and plain A* pays nothing for the
** variants. `grid` (the grid-space fast path, spaces/grid_space.h: a grid
** space, one goal node, no observer, no variant) takes the arcs and the
** heuristic from the grid space's inline functions instead of its
** callbacks: the same values in the same order, so the same search.
*/
ASTAR__INLINE astar_status loop(astar_workspace *ws, uint64_t budget, const bool observe,
                                const bool variant, const bool grid) {
  astar__engine *const e = &ws->eng;
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__heap *const open = &ws->open;
  astar_arc *const arcs = e->arcs;
  const uint16_t gen = ws->gen, closed = (uint16_t)(gen + ASTAR__CLOSED);
  const double weight = e->weight, band = variant ? e->band : INFINITY;
  const bool dynamic = variant && e->dyn_eps != 0.0;
  const bool greedy = e->greedy, reopen = e->reopen, partial = e->opt.partial;
  const int tie = e->opt.tie;
  const uint64_t limit = e->opt.max_expansions;
  const uint64_t stop_at = budget ? e->stats.expanded + budget : UINT64_MAX;
  const astar_grid_space *const gs = grid ? (const astar_grid_space *)e->space.self : NULL;
  const astar_node goal_node = e->goal;
  for (;;) {
    if (!open->len) return ASTAR_NO_PATH;
    if (limit && e->stats.expanded >= limit) return ASTAR_LIMIT_REACHED;
    if (e->stats.expanded >= stop_at) return ASTAR_IN_PROGRESS;
    if (e->opt.stop_fn && e->stats.expanded && e->stats.expanded % e->opt.stop_interval == 0 &&
        e->opt.stop_fn(e->opt.stop_ctx))
      return ASTAR_STOPPED;
    const astar__hent top = astar__heap_pop(open, nd);
    const astar_node u = ASTAR__HNODE(top);
    mark[u] = closed;
    astar__count_expand(&e->stats);
    const double gu = nd[u].g;
    const double limit_f = variant ? astar__entry_f(top) + band : INFINITY; /* bandwidth */
    const bool goal = grid ? u == goal_node : astar__engine_is_goal(e, u);
    if (observe || partial) {
      const double hu = astar__engine_h(e, u);
      if (observe)
        astar__engine_emit(e, goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, u, nd[u].parent, gu,
                           hu * astar__engine_w(e, hu), 0);
      /* Best node for a partial path: smallest h, then smallest g, then
      ** the earliest expanded. */
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
    size_t n;
    if (grid) {
      n = astar__gs_arcs(gs, u, arcs, e->arcs_cap, false);
    } else {
      astar_status fault = ASTAR_OK;
      n = astar__engine_arcs(e, u, false, &fault);
      if (n == (size_t)-1) return fault;
    }
    for (size_t i = 0; i < n; i++) {
      const astar_arc *const a = &arcs[i];
      const astar_node v = a->node;
      const double ng = gu + a->cost;
      const uint16_t mv = mark[v];
      const bool seen = (uint16_t)(mv & ~3u) == gen;
      if (seen && !(ng < nd[v].g)) continue;
      if (mv == closed && !reopen) continue;
      double h = 0.0;
      if (weight != 0.0) {
        const double hv =
            grid ? astar__sane_h(astar__gs_h(gs, v, goal_node)) : astar__engine_h(e, v);
        h = hv * (dynamic ? astar__engine_w(e, hv) : weight);
      }
      const double f = greedy ? h : ng + h;
      if (variant && f > limit_f) { /* bandwidth: outside the band, not on an optimal path */
        e->dropped++;
        if (observe) astar__engine_emit(e, ASTAR_EVENT_DROP, v, u, ng, h, 0);
        continue;
      }
      nd[v].g = ng;
      nd[v].parent = u;
      const astar__hent en = astar__entry(f, astar__tie_key(tie, ng, ws->seq++), v);
      const astar_event_type type = astar__open_put(open, nd, mark, gen, mv, v, en, &e->stats);
      astar__count_open(&e->stats, open->len);
      if (observe) astar__engine_emit(e, type, v, u, ng, h, 0);
    }
  }
}

static astar_status run_loop(astar_workspace *ws, uint64_t budget) {
  const astar__engine *e = &ws->eng;
  const astar_method m = e->opt.method;
  if (m == ASTAR_METHOD_DYNAMIC || m == ASTAR_METHOD_BANDWIDTH)
    return e->opt.observer ? loop(ws, budget, true, true, false)
                           : loop(ws, budget, false, true, false);
  if (e->opt.observer) return loop(ws, budget, true, false, false);
  return astar__engine_grid_fast(e) ? loop(ws, budget, false, false, true)
                                    : loop(ws, budget, false, false, false);
}

/* ---- begin / step / finish ---------------------------------------------------------- */

/* astar__engine_begin; `validated`: the caller has validated opt (not NULL). */
static astar_status engine_begin(astar_workspace *ws, const astar_space *space,
                                 const astar_engine_options *opt, astar_node start, astar_node goal,
                                 const astar_node *goals, size_t ngoals, astar__goal_fn goal_fn,
                                 bool validated) {
  if (!ws) return ASTAR_INVALID_ARGUMENT;
  astar__workspace_claim(ws); /* whatever ran on ws before is over */
  astar__engine *e = &ws->eng;
  astar_engine_options defaults;
  if (!opt) {
    astar_engine_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_space_validate(space) != ASTAR_OK ||
      (!validated && astar_engine_options_validate(opt) != ASTAR_OK))
    return ASTAR_INVALID_ARGUMENT;
  const astar_method method = opt->method;
  /* The grid's own methods are the finder's (astar/finder.h), not ours. */
  if ((unsigned)method >= ASTAR_METHOD_ENGINE_COUNT) return ASTAR_UNSUPPORTED;
  const bool bidir = astar__method_two_sided(method);
  if (bidir && (goals || goal_fn)) return ASTAR_UNSUPPORTED;
  if (bidir && !space->ops->predecessors) return ASTAR_UNSUPPORTED;
  /* Beam search keeps its worst-first heap in the backward records. */
  const bool needs_back = bidir || method == ASTAR_METHOD_BEAM;
  if (space->node_count > ws->capacity || space->max_degree > e->arcs_cap ||
      (needs_back && space->node_count > e->back.cap) ||
      (method == ASTAR_METHOD_FRONT_TO_FRONT && space->node_count > e->pair_cap))
    return ASTAR_CAPACITY;
  const astar_space_ops *ops = space->ops;
  if (start >= space->node_count) return ASTAR_OUT_OF_BOUNDS;
  if (ops->usable && !ops->usable(space->self, start)) return ASTAR_START_BLOCKED;
  if (goals) {
    bool any = false;
    for (size_t i = 0; i < ngoals; i++)
      any |= goals[i] < space->node_count && (!ops->usable || ops->usable(space->self, goals[i]));
    if (!any) return ASTAR_GOAL_BLOCKED;
  } else {
    if (goal >= space->node_count) return ASTAR_OUT_OF_BOUNDS;
    if (ops->usable && !ops->usable(space->self, goal)) return ASTAR_GOAL_BLOCKED;
  }

  e->space = *space;
  e->opt = *opt;
  e->start = start;
  e->goal = goals ? ASTAR_NODE_NONE : goal;
  e->goals = goals;
  e->ngoals = goals ? ngoals : 0;
  e->goal_fn = goal_fn;
  e->greedy = method == ASTAR_METHOD_GREEDY;
  /* The weight of h: the option for A* and beam search, 0 for Dijkstra, 1
  ** for every other method (dynamic weighting's own: dynamic.c). */
  e->weight = method == ASTAR_METHOD_DIJKSTRA                               ? 0.0
              : method == ASTAR_METHOD_ASTAR || method == ASTAR_METHOD_BEAM ? opt->weight
                                                                            : 1.0;
  const bool consistent = (space->flags & ASTAR_SPACE_CONSISTENT) != 0;
  /* A consistent heuristic, even weighted, never needs reopening for the
  ** method's bound; otherwise reopen so that an admissible one stays
  ** optimal. Dijkstra and greedy: reopening cannot change their outcome's
  ** guarantee, so only when asked. */
  switch (opt->reopen) {
  case ASTAR_REOPEN_ALWAYS:
    e->reopen = true;
    break;
  case ASTAR_REOPEN_NEVER:
    e->reopen = false;
    break;
  default:
    e->reopen = !consistent && e->weight > 0.0 && !e->greedy;
    /* Dynamic weighting and bandwidth search need reopening for their
    ** bounds whatever the heuristic (dynamic weighting keeps a looser one
    ** without: dynamic.c); front-to-front search expands out of f order;
    ** retargeting has no bound to keep. */
    if (method == ASTAR_METHOD_DYNAMIC || method == ASTAR_METHOD_BANDWIDTH ||
        method == ASTAR_METHOD_FRONT_TO_FRONT)
      e->reopen = true;
    if (method == ASTAR_METHOD_RETARGETING) e->reopen = false;
    break;
  }
  memset(&e->stats, 0, sizeof e->stats);
  e->fault = ASTAR_OK;
  e->reached = e->meet = ASTAR_NODE_NONE;
  e->best = start;
  e->best_h = INFINITY;
  e->best_g = INFINITY;
  e->mu = INFINITY;
  e->band = INFINITY;
  e->dyn_eps = 0.0;
  e->dyn_inv_n = 0.0;
  e->dropped = e->iterations = 0;
  e->phase = ASTAR__RUNNING;

  astar__records_next(ws);
  astar__node *s = &ws->node[start];
  s->g = 0.0;
  s->parent = ASTAR__NO_PARENT;
  ws->mark[start] = ws->gen;
  const bool trivial = !goals && !goal_fn && start == goal;
  if (trivial) {
    /* One node, cost 0, nothing expanded: as the grid searches. */
    e->reached = start;
    e->phase = ASTAR__ENDED;
    e->outcome = ASTAR_OK;
    return ASTAR_OK;
  }
  switch (method) {
  case ASTAR_METHOD_BIDIRECTIONAL:
    return astar__bidir_begin(ws);
  case ASTAR_METHOD_FRONT_TO_FRONT:
    return astar__f2f_begin(ws);
  case ASTAR_METHOD_RETARGETING:
    return astar__retarget_begin(ws);
  case ASTAR_METHOD_IDA:
    return astar__ida_begin(ws);
  case ASTAR_METHOD_DYNAMIC:
    astar__dynamic_begin(e);
    break;
  case ASTAR_METHOD_BANDWIDTH:
    astar__bandwidth_begin(e);
    break;
  default:
    break;
  }
  const double hs = e->weight == 0.0 ? 0.0 : astar__engine_h(e, start);
  const double h0 = hs * astar__engine_w(e, hs);
  astar__heap_push(&ws->open, ws->node, astar__entry(h0, astar__tie_key(opt->tie, 0.0, 0), start));
  ws->seq = 1;
  astar__count_root(&e->stats);
  if (opt->observer) astar__engine_emit(e, ASTAR_EVENT_PUSH, start, ASTAR_NODE_NONE, 0.0, h0, 0);
  if (method == ASTAR_METHOD_BEAM) astar__beam_begin(ws);
  return ASTAR_OK;
}

astar_status astar__engine_begin(astar_workspace *ws, const astar_space *space,
                                 const astar_engine_options *opt, astar_node start, astar_node goal,
                                 const astar_node *goals, size_t ngoals, astar__goal_fn goal_fn) {
  return engine_begin(ws, space, opt, start, goal, goals, ngoals, goal_fn, false);
}

astar_status astar_space_search_begin(astar_workspace *ws, const astar_space *space,
                                      const astar_engine_options *opt, astar_node start,
                                      astar_node goal) {
  return astar__engine_begin(ws, space, opt, start, goal, NULL, 0, NULL);
}

astar_status astar__space_search_begin_checked(astar_workspace *ws, const astar_space *space,
                                               const astar_engine_options *opt, astar_node start,
                                               astar_node goal) {
  return engine_begin(ws, space, opt, start, goal, NULL, 0, NULL, true);
}

astar_status astar_space_search_begin_multi(astar_workspace *ws, const astar_space *space,
                                            const astar_engine_options *opt, astar_node start,
                                            const astar_node *goals, size_t ngoals) {
  if (!goals || ngoals == 0) return ASTAR_INVALID_ARGUMENT;
  return astar__engine_begin(ws, space, opt, start, ASTAR_NODE_NONE, goals, ngoals, NULL);
}

astar_status astar_space_search_step(astar_workspace *ws, uint64_t budget, uint64_t *expanded) {
  if (expanded) *expanded = 0;
  if (!ws || ws->eng.phase == ASTAR__IDLE) return ASTAR_INVALID_ARGUMENT;
  astar__engine *e = &ws->eng;
  if (e->phase == ASTAR__ENDED) return e->outcome;
  const uint64_t before = e->stats.expanded;
  astar_status st = ASTAR_INVALID_ARGUMENT; /* every case sets it */
  switch (e->opt.method) {
  case ASTAR_METHOD_BIDIRECTIONAL:
    st = astar__bidir_run(ws, budget);
    break;
  case ASTAR_METHOD_FRONT_TO_FRONT:
    st = astar__f2f_run(ws, budget);
    break;
  case ASTAR_METHOD_RETARGETING:
    st = astar__retarget_run(ws, budget);
    break;
  case ASTAR_METHOD_IDA:
    st = astar__ida_run(ws, budget);
    break;
  case ASTAR_METHOD_BEAM:
    st = astar__beam_run(ws, budget);
    break;
  default:
    st = run_loop(ws, budget);
    break;
  }
  if (expanded) *expanded = e->stats.expanded - before;
  if (st == ASTAR_IN_PROGRESS) return st;
  e->phase = ASTAR__ENDED;
  e->outcome = st;
  return st;
}

/* Nodes on the path ending at `end` (forward parent links), and for a
** bidirectional search the backward links from the meeting node on. */
static size_t path_length(const astar_workspace *ws) {
  const astar__engine *e = &ws->eng;
  if (e->last_meet == ASTAR_NODE_NONE) return astar__chain_length(ws->node, e->last_end);
  return astar__chain_length(ws->node, e->last_meet) +
         astar__chain_length(e->back.node, e->last_meet) - 1;
}

/* Cost of the arc a -> b (the cheapest such arc), or NaN when the space
** no longer lists it (a fault). */
static double arc_cost(astar_workspace *ws, astar_node a, astar_node b) {
  astar__engine *e = &ws->eng;
  astar_status st;
  const size_t n = astar__engine_arcs(e, a, false, &st);
  double best = NAN;
  for (size_t i = 0; i < n && n != (size_t)-1; i++)
    if (e->arcs[i].node == b && !(e->arcs[i].cost >= best)) best = e->arcs[i].cost;
  return best;
}

/*
** The cost of the last path summed arc by arc. Needed after reopenings: a
** node reopened with a lower g and a new parent may lie on the goal's
** chain of parent links with its descendants' g still counted from the old
** one (only an admissible A* always re-expands it first), so the links
** describe a path cheaper than the goal's g. Returns `claimed` when the
** space cannot confirm an arc.
*/
static double chain_cost(astar_workspace *ws, double claimed) {
  const astar__engine *e = &ws->eng;
  double sum = 0.0;
  const uint32_t from = e->last_meet != ASTAR_NODE_NONE ? e->last_meet : e->last_end;
  for (uint32_t s = from; ws->node[s].parent != ASTAR__NO_PARENT; s = ws->node[s].parent)
    sum += arc_cost(ws, ws->node[s].parent, s);
  if (e->last_meet != ASTAR_NODE_NONE)
    for (uint32_t s = e->last_meet; e->back.node[s].parent != ASTAR__NO_PARENT;
         s = e->back.node[s].parent)
      sum += arc_cost(ws, s, e->back.node[s].parent);
  return sum >= 0.0 ? sum : claimed; /* NaN: a fault */
}

/* Hand every node of the last path (len of them), with its index, to
** put(ctx, i, node); `store` (a constant where inlined) writes them into
** the node array ctx instead, without the call. */
ASTAR__INLINE void walk_path(const astar_workspace *ws, size_t len, const bool store,
                             void (*put)(void *ctx, size_t i, astar_node node), void *ctx) {
  const astar__engine *e = &ws->eng;
  astar_node *path = store ? (astar_node *)ctx : NULL;
#define ASTAR__PUT(i, s) (store ? (void)(path[i] = (s)) : put(ctx, (i), (s)))
  size_t i = 0;
  if (e->last_meet != ASTAR_NODE_NONE) {
    /* start .. meet from the forward links (written backwards), then the
    ** backward links from meet to the goal. */
    size_t k = 0;
    for (uint32_t s = e->last_meet;; s = ws->node[s].parent) {
      k++;
      if (ws->node[s].parent == ASTAR__NO_PARENT) break;
    }
    i = k;
    for (uint32_t s = e->last_meet;; s = ws->node[s].parent) {
      --i;
      ASTAR__PUT(i, s);
      if (ws->node[s].parent == ASTAR__NO_PARENT) break;
    }
    i = k;
    for (uint32_t s = e->last_meet; e->back.node[s].parent != ASTAR__NO_PARENT;) {
      s = e->back.node[s].parent;
      ASTAR__PUT(i, s);
      i++;
    }
    return;
  }
  i = len;
  for (uint32_t s = e->last_end;; s = ws->node[s].parent) {
    --i;
    ASTAR__PUT(i, s);
    if (ws->node[s].parent == ASTAR__NO_PARENT) break;
  }
#undef ASTAR__PUT
}

static void write_path(const astar_workspace *ws, astar_node *path, size_t len) {
  walk_path(ws, len, true, NULL, path);
}

void astar__engine_path_each(const astar_workspace *ws,
                             void (*put)(void *ctx, size_t i, astar_node node), void *ctx) {
  walk_path(ws, ws->eng.last_len, false, put, ctx);
}

astar_status astar_space_search_finish(astar_workspace *ws, astar_node *path, size_t cap,
                                       astar_engine_result *result) {
  if (!ws || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  astar__engine *e = &ws->eng;
  if (e->phase == ASTAR__RUNNING) return ASTAR_IN_PROGRESS;
  if (e->phase != ASTAR__ENDED) return ASTAR_INVALID_ARGUMENT;
  e->phase = ASTAR__IDLE;
  if (result) {
    memset(result, 0, sizeof *result);
    result->end = result->meet = ASTAR_NODE_NONE;
    result->stats = e->stats;
    result->cause = e->outcome;
    result->dropped = e->dropped;
    result->iterations = e->iterations;
  }
  astar_status st = e->outcome;
  bool partial = false;
  astar_node end = e->reached;
  astar_node meet = ASTAR_NODE_NONE;
  const bool one_list = !astar__method_two_sided(e->opt.method) &&
                        e->opt.method != ASTAR_METHOD_IDA; /* partial paths */
  if (st == ASTAR_OK && astar__method_two_sided(e->opt.method) && e->meet != ASTAR_NODE_NONE) {
    meet = e->meet;
    end = e->goal;
  } else if (st != ASTAR_OK && e->opt.partial &&
             (st == ASTAR_NO_PATH || st == ASTAR_LIMIT_REACHED || st == ASTAR_STOPPED) &&
             one_list) {
    end = e->best;
    partial = true;
    st = ASTAR_OK;
  }
  if (st != ASTAR_OK) return st;
  e->found = true;
  e->last_end = end;
  e->last_meet = meet;
  e->last_len = path_length(ws);
  if (result) {
    result->end = end;
    result->meet = meet;
    result->length = e->last_len;
    result->cost = meet != ASTAR_NODE_NONE ? e->mu : ws->node[end].g;
    if (e->stats.reopened) result->cost = chain_cost(ws, result->cost);
  }
  if (e->last_len > cap) return ASTAR_BUFFER_TOO_SMALL;
  write_path(ws, path, e->last_len);
  return partial ? ASTAR_PARTIAL : ASTAR_OK;
}

astar_status astar_workspace_space_path(const astar_workspace *ws, astar_node *path, size_t cap,
                                        size_t *len) {
  if (!ws || !len || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  if (!ws->eng.found) {
    *len = 0;
    return ASTAR_NO_PATH;
  }
  *len = ws->eng.last_len;
  if (ws->eng.last_len > cap) return ASTAR_BUFFER_TOO_SMALL;
  write_path(ws, path, ws->eng.last_len);
  return ASTAR_OK;
}

/* ---- one-shot searches ----------------------------------------------------------------- */

static astar_status to_end(astar_workspace *ws, astar_status st, astar_node *path, size_t cap,
                           astar_engine_result *result) {
  if (st != ASTAR_OK) {
    if (result) {
      memset(result, 0, sizeof *result);
      result->end = result->meet = ASTAR_NODE_NONE;
      result->cause = st;
    }
    return st;
  }
  astar_space_search_step(ws, 0, NULL);
  return astar_space_search_finish(ws, path, cap, result);
}

astar_status astar_space_find_path(astar_workspace *ws, const astar_space *space,
                                   const astar_engine_options *opt, astar_node start,
                                   astar_node goal, astar_node *path, size_t cap,
                                   astar_engine_result *result) {
  if (cap > 0 && !path) return to_end(ws, ASTAR_INVALID_ARGUMENT, path, cap, result);
  return to_end(ws, astar_space_search_begin(ws, space, opt, start, goal), path, cap, result);
}

astar_status astar__space_find_path_checked(astar_workspace *ws, const astar_space *space,
                                            const astar_engine_options *opt, astar_node start,
                                            astar_node goal, astar_node *path, size_t cap,
                                            astar_engine_result *result) {
  if (cap > 0 && !path) return to_end(ws, ASTAR_INVALID_ARGUMENT, path, cap, result);
  return to_end(ws, astar__space_search_begin_checked(ws, space, opt, start, goal), path, cap,
                result);
}

astar_status astar_space_find_path_multi(astar_workspace *ws, const astar_space *space,
                                         const astar_engine_options *opt, astar_node start,
                                         const astar_node *goals, size_t ngoals, astar_node *path,
                                         size_t cap, astar_engine_result *result) {
  if (cap > 0 && !path) return to_end(ws, ASTAR_INVALID_ARGUMENT, path, cap, result);
  return to_end(ws, astar_space_search_begin_multi(ws, space, opt, start, goals, ngoals), path, cap,
                result);
}
