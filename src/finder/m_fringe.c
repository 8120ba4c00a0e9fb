/*
** finder/m_fringe.c -- Fringe Search (Bjornsson, Enzenberger, Holte &
** Schaeffer 2005, "Fringe Search: Beating A* at Pathfinding on Game
** Maps"): IDA*'s f-threshold iterations over a list kept between them, so
** that no node is generated twice for the same g and nothing is sorted.
** Optimal with an admissible heuristic (the threshold never passes the
** optimal cost, and the goal is taken only at or under it). Over any space
** (astar_finder_new_space) and over the grid as a space (as the engine's
** methods see it, m_engine.c: the same arcs, costs and heuristic), with
** the grid space's inline arcs and heuristic (spaces/grid_space.h) there.
**
** The search. The fringe is one doubly linked list, first the start; a
** pass visits it from the front with threshold flimit (first h(start)):
** a node with f = g + h > flimit stays and lowers the next threshold fmin
** to its f; the goal with f <= flimit ends the search; any other node with
** f <= flimit is expanded -- its successors, each reached for the first
** time or with a lower g than before, are placed right after it (moved
** there when already in the list) in the order the space lists them, and
** it leaves the list. The pass goes on with the node after it: its
** children first. At the end of a pass flimit = fmin; an empty list: no
** path.
**
** Order and determinism. No ties to break: the visiting order is the
** list's, which depends only on the space's successor order, so the same
** space and ends give the same path and the same counts on every run and
** platform. options.tie has no meaning here (it must stay the default).
**
** Records. g and the parent are the workspace's node records (core/loop.h's
** reuse rule: a begin claims the workspace); the mark says "in the list"
** (ASTAR__OPEN) or "left it" (ASTAR__CLOSED). The list links and each
** node's h, computed once a search, are the method scratch (finder.h):
** 16 bytes a node, grown on first use, kept.
**
** Figures. stats.expanded counts expansions, stats.generated first
** reaches and lowered g (as A*'s pushes and decreases), stats.reopened
** nodes back in the list after they left it, stats.max_open the longest
** list; the work charged against a budget (res.work, astar_finder_step)
** is node visits -- a pass looks at every node in the list, expanded or
** not -- and res.iterations counts passes. max_expansions (ASTAR_LIMIT_
** REACHED) and stop_fn (ASTAR_STOPPED, polled every stop_interval
** expansions) are honoured; partial paths and observers are not.
*/
#include "engine/engine.h"
#include "finder/finder.h"
#include "spaces/grid_space.h"

/* One node's part of the scratch. */
typedef struct link {
  double h;            /* h(node, goal), computed when first reached */
  uint32_t prev, next; /* neighbours in the list, ASTAR__NONE at its ends */
} link;

/* The search's state: the head of the scratch, the links after it. */
typedef struct fringe {
  astar_node goal;    /* the goal node */
  uint32_t head;      /* first node of the list (ASTAR__NONE: empty) */
  uint32_t cur;       /* the next node to visit in this pass (ASTAR__NONE: pass over) */
  uint32_t len;       /* nodes in the list */
  double flimit;      /* this pass's threshold */
  double fmin;        /* least f above it seen in this pass (INFINITY: none) */
  uint64_t visits;    /* node visits so far (the work) */
  uint64_t passes;    /* passes begun */
  astar_stats stats;  /* running totals (core/loop.h counts them) */
  astar_node reached; /* the goal, once taken */
  uint16_t gen;       /* ws->gen of the search: the records are still ours */
  bool grid;          /* the space is the grid space: its inline arcs and h */
  int phase;          /* ASTAR__RUNNING or ASTAR__ENDED */
  astar_status outcome;
} fringe;

/* Fringe's options: the grid's (f->opt) as the engine's figures (f->eo,
** which a grid finder fills from them), or a space finder's cfg.engine. */
static const char *unsupported(const astar__fcheck *c) {
  if (c->grid) {
    const astar_options *o = &c->cfg->options;
    if (o->heuristic == ASTAR_H_CALLBACK)
      return "fringe: it searches the grid as a space, with the grid's own heuristics (not "
             "ASTAR_H_CALLBACK)";
    if (o->weight != 1.0) return "fringe: it is optimal: options.weight must be 1";
    if (o->tie != ASTAR_TIE_LARGER_G)
      return "fringe: it has no open list to order: its order is the fringe list's (leave "
             "options.tie at ASTAR_TIE_LARGER_G)";
    if (o->reopen == ASTAR_REOPEN_NEVER)
      return "fringe: a node reached again with a lower g always goes back into the fringe "
             "(no ASTAR_REOPEN_NEVER)";
    return astar__fgame_loop_refusal(o, ASTAR__FG_STOP | ASTAR__FG_LIMIT);
  }
  const astar_engine_options *e = &c->cfg->engine;
  if (e->weight != 1.0) return "fringe: it is optimal: engine.weight must be 1";
  if (e->tie != ASTAR_TIE_LARGER_G)
    return "fringe: its order is the fringe list's (leave engine.tie at ASTAR_TIE_LARGER_G)";
  if (e->reopen == ASTAR_REOPEN_NEVER)
    return "fringe: a node reached again with a lower g always goes back into the fringe (no "
           "ASTAR_REOPEN_NEVER)";
  if (e->partial) return "fringe: it gives no partial paths (engine.partial)";
  if (e->observer) return "fringe: it reports no search events (engine.observer)";
  return NULL;
}

/* The state and the links in the method scratch. */
static fringe *state(astar__fstate *s) {
  return s->mem;
}
static link *links(astar__fstate *s) {
  return (link *)((char *)s->mem + sizeof(fringe));
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  if (f->is_space) {
    s->espace = &f->space;
  } else {
    /* The grid as it is now (its terrain floor scales the heuristic). */
    const astar_status st = astar__grid_space_init_checked(&s->gspace, &s->gs, f->grid, &f->opt);
    if (st != ASTAR_OK) return st;
    s->espace = &s->gspace;
  }
  astar_status st = astar_workspace_reserve_space(ws, s->espace, 0);
  size_t bytes;
  if (st == ASTAR_OK && !astar__mul(s->espace->node_count, sizeof(link), &bytes))
    st = ASTAR_NO_MEMORY;
  void *mem;
  if (st == ASTAR_OK) st = astar__fscratch_method(ws, s, sizeof(fringe) + bytes, &mem);
  return st;
}

/* h(v) toward the goal: the grid space's inline function, or the space's. */
ASTAR__INLINE double h_of(const astar__engine *e, const fringe *fr, astar_node v, const bool grid) {
  if (grid) return astar__sane_h(astar__gs_h(e->space.self, v, fr->goal));
  return e->space.ops->heuristic
             ? astar__sane_h(e->space.ops->heuristic(e->space.self, v, fr->goal))
             : 0.0;
}

/* Unlink v from the list. */
ASTAR__INLINE void unlink_node(fringe *fr, link *L, uint32_t v) {
  const uint32_t p = L[v].prev, n = L[v].next;
  if (p != ASTAR__NONE)
    L[p].next = n;
  else
    fr->head = n;
  if (n != ASTAR__NONE) L[n].prev = p;
}

/* Link v right after u. */
ASTAR__INLINE void link_after(link *L, uint32_t u, uint32_t v) {
  const uint32_t n = L[u].next;
  L[v].prev = u;
  L[v].next = n;
  if (n != ASTAR__NONE) L[n].prev = v;
  L[u].next = v;
}

static astar_status begin(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  const astar_space *sp = s->espace;
  astar_node start = s->nstart, goal = s->ngoal;
  if (!f->is_space) {
    if (!astar_grid_contains(f->grid, s->start.x, s->start.y) ||
        !astar_grid_contains(f->grid, s->goal.x, s->goal.y))
      return ASTAR_OUT_OF_BOUNDS;
    start = astar_grid_space_node(&s->gs, s->start);
    goal = astar_grid_space_node(&s->gs, s->goal);
  }
  if (start >= sp->node_count || goal >= sp->node_count) return ASTAR_OUT_OF_BOUNDS;
  if (sp->ops->usable && !sp->ops->usable(sp->self, start)) return ASTAR_START_BLOCKED;
  if (sp->ops->usable && !sp->ops->usable(sp->self, goal)) return ASTAR_GOAL_BLOCKED;
  astar__workspace_claim(ws); /* whatever ran on ws before is over */
  astar__records_next(ws);
  astar__engine *e = &ws->eng;
  e->space = *sp; /* the arcs' source (astar__engine_arcs); the engine's search stays idle */
  e->fault = ASTAR_OK;
  fringe *fr = state(s);
  link *L = links(s);
  memset(fr, 0, sizeof *fr);
  fr->goal = goal;
  fr->grid = (sp->ops->abilities & ASTAR_ABILITY_GRID_SPACE) != 0;
  fr->reached = ASTAR_NODE_NONE;
  fr->gen = ws->gen;
  ws->node[start].g = 0.0;
  ws->node[start].parent = ASTAR__NO_PARENT;
  ws->mark[start] = (uint16_t)(ws->gen + ASTAR__OPEN);
  L[start].h = fr->grid ? h_of(e, fr, start, true) : h_of(e, fr, start, false);
  L[start].prev = L[start].next = ASTAR__NONE;
  fr->head = fr->cur = start;
  fr->len = 1;
  fr->flimit = L[start].h;
  fr->fmin = INFINITY;
  fr->passes = 1;
  astar__count_root(&fr->stats);
  fr->phase = ASTAR__RUNNING;
  if (start == goal) { /* one node, nothing expanded: as every search */
    fr->reached = start;
    fr->phase = ASTAR__ENDED;
    fr->outcome = ASTAR_OK;
  }
  return ASTAR_OK;
}

/*
** Passes until the search ends or `budget` visits (0: none) were made in
** this call (ASTAR_IN_PROGRESS). `grid` is a constant at the call sites:
** the grid space's arcs and heuristic inline, or the space's callbacks
** with their arcs checked (astar__engine_arcs).
*/
ASTAR__INLINE astar_status loop(const astar_finder *f, astar_workspace *ws, fringe *fr, link *L,
                                uint64_t budget, const bool grid) {
  astar__engine *const e = &ws->eng;
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  const uint16_t gen = ws->gen, open = (uint16_t)(gen + ASTAR__OPEN),
                 closed = (uint16_t)(gen + ASTAR__CLOSED);
  const astar_arc *const arcs = e->arcs;
  const astar_grid_space *const gs = grid ? (const astar_grid_space *)e->space.self : NULL;
  const uint64_t limit = f->eo.max_expansions;
  const astar_stop_fn stop_fn = f->eo.stop_fn;
  const uint32_t stop_interval = f->eo.stop_interval ? f->eo.stop_interval : 1;
  const uint64_t stop_at = budget ? fr->visits + budget : UINT64_MAX;
  for (;;) {
    if (fr->cur == ASTAR__NONE) { /* the pass is over */
      if (fr->head == ASTAR__NONE) return ASTAR_NO_PATH;
      fr->flimit = fr->fmin;
      fr->fmin = INFINITY;
      fr->cur = fr->head;
      fr->passes++;
    }
    if (fr->visits >= stop_at) return ASTAR_IN_PROGRESS;
    const uint32_t u = fr->cur;
    fr->visits++;
    const double gu = nd[u].g, fu = gu + L[u].h;
    if (fu > fr->flimit) {
      if (fu < fr->fmin) fr->fmin = fu;
      fr->cur = L[u].next;
      continue;
    }
    if (u == fr->goal) {
      fr->reached = u;
      return ASTAR_OK;
    }
    if (limit && fr->stats.expanded >= limit) return ASTAR_LIMIT_REACHED;
    if (stop_fn && fr->stats.expanded && fr->stats.expanded % stop_interval == 0 &&
        stop_fn(f->eo.stop_ctx))
      return ASTAR_STOPPED;
    astar__count_expand(&fr->stats);
    size_t n;
    if (grid) {
      n = astar__gs_arcs(gs, u, e->arcs, e->arcs_cap, false);
    } else {
      astar_status fault = ASTAR_OK;
      n = astar__engine_arcs(e, u, false, &fault);
      if (n == (size_t)-1) return fault;
    }
    /* Children right after u in the space's order: placed last to first. */
    for (size_t i = n; i-- > 0;) {
      const astar_node v = arcs[i].node;
      const double ng = gu + arcs[i].cost;
      const uint16_t mv = mark[v];
      const bool seen = (uint16_t)(mv & ~3u) == gen;
      if (seen && !(ng < nd[v].g)) continue;
      if (!seen) {
        L[v].h = h_of(e, fr, v, grid);
        astar__count_push(&fr->stats);
        fr->len++;
      } else if (mv == open) {
        unlink_node(fr, L, v);
        astar__count_improve(&fr->stats);
      } else {
        astar__count_reopen(&fr->stats);
        fr->len++;
      }
      nd[v].g = ng;
      nd[v].parent = u;
      mark[v] = open;
      link_after(L, u, v);
    }
    fr->cur = L[u].next;
    unlink_node(fr, L, u);
    mark[u] = closed;
    fr->len--;
    astar__count_open(&fr->stats, fr->len);
  }
}

static astar_status step(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                         uint64_t budget, uint64_t *work) {
  fringe *fr = state(s);
  /* Another search on ws since begin (core/loop.h): its records are gone. */
  if (fr->phase == ASTAR__IDLE || ws->gen != fr->gen) return ASTAR_INVALID_ARGUMENT;
  if (fr->phase == ASTAR__ENDED) {
    *work = 0;
    return fr->outcome;
  }
  const uint64_t before = fr->visits;
  const astar_status st =
      fr->grid ? loop(f, ws, fr, links(s), budget, true) : loop(f, ws, fr, links(s), budget, false);
  *work = fr->visits - before;
  if (st != ASTAR_IN_PROGRESS) {
    fr->phase = ASTAR__ENDED;
    fr->outcome = st;
  }
  return st;
}

/* Write the path ending at `end` (len nodes) into out: nodes, or the
** cells of the grid space's nodes. */
static void write_path(const astar_workspace *ws, const astar__fstate *s, const astar__out *out,
                       astar_node end, size_t len) {
  size_t i = len;
  for (uint32_t v = end;; v = ws->node[v].parent) {
    --i;
    if (out->kind == ASTAR__OUT_NODES)
      ((astar_node *)out->buf)[i] = v;
    else
      ((astar_point *)out->buf)[i] = astar_grid_space_cell(&s->gs, v);
    if (ws->node[v].parent == ASTAR__NO_PARENT) break;
  }
}

static astar_status finish(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                           const astar__out *out, astar_path_result *res) {
  fringe *fr = state(s);
  astar_status st = fr->outcome;
  astar__fres_clear(res, st);
  res->stats = fr->stats;
  res->work = fr->visits;
  res->iterations = fr->passes;
  fr->phase = ASTAR__IDLE;
  if (st != ASTAR_OK) return st;
  const astar_node end = fr->reached;
  const size_t len = astar__chain_length(ws->node, end);
  res->cost = ws->node[end].g;
  res->length = len;
  res->end_node = end;
  if (!f->is_space) res->end = astar_grid_space_cell(&s->gs, end);
  if (len > out->cap) {
    res->status = ASTAR_BUFFER_TOO_SMALL;
    return ASTAR_BUFFER_TOO_SMALL;
  }
  write_path(ws, s, out, end, len);
  return ASTAR_OK;
}

static const astar__ops ops = {ASTAR__OUT_CELLS, reserve, begin, step, finish, NULL};

const astar__method astar__m_fringe = {
    {ASTAR_METHOD_FRINGE, "fringe",
     "Fringe Search: IDA*'s thresholds over a kept list, no sorting; optimal (grid or any space)",
     ASTAR_MF_OPTIMAL | ASTAR_MF_SLICED | ASTAR_MF_GRID | ASTAR_MF_SPACE | ASTAR_MF_TERRAIN, 0, 0,
     "node visits (expanded or passed over in a pass)"},
    unsupported,
    NULL,
    &ops};
