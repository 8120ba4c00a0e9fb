/*
** engine/engine.h -- the search engine's state inside a workspace and the
** pieces its methods share (the files of src/engine/). The engine knows spaces only
** through astar_space (astar/space.h) -- with one exception, the grid-space
** fast path: A* and bidirectional search on the grid space call its inline
** arcs and heuristic (spaces/grid_space.h, astar__engine_grid_fast).
**
** Node records. The forward search uses the workspace's own arrays (mark,
** node, open: the ones grid searches use, so one workspace serves both);
** a bidirectional search adds a second set for its backward half. A mark
** holds the generation of the search plus a state, as in grid searches:
** gen + ASTAR__OPEN / ASTAR__CLOSED; anything else is "not reached".
*/
#ifndef ASTAR_ENGINE_ENGINE_H
#define ASTAR_ENGINE_ENGINE_H

#include "core/heap.h"
#include "astar/engine.h"

#include <float.h>
#include <string.h>

/* One direction of a search: its node records and open list. */
typedef struct astar__side {
  uint16_t *mark;    /* [cap] generation + state */
  astar__node *node; /* [cap] g, heap position, parent */
  astar__heap open;  /* open list, cap entries */
  uint16_t gen;      /* current generation (a multiple of 4) */
  uint32_t cap;      /* records allocated */
  uint32_t seq;      /* pushes in this search (tie key of ASTAR_TIE_NEWEST) */
  bool slot_unused;  /* (reserved) */
} astar__side;

struct astar__states; /* the state table of implicit spaces (spaces/implicit.c) */

/* Goal test on a node, for spaces whose goal is a predicate (implicit). */
typedef bool (*astar__goal_fn)(const void *self, astar_node node);

/* The engine's part of a workspace. */
typedef struct astar__engine {
  /* Reserved memory. */
  astar_arc *arcs;              /* [arcs_cap] successor / predecessor buffer */
  uint32_t arcs_cap;            /* its entries */
  astar__side back;             /* backward half of bidirectional searches (cap 0: none) */
  struct astar__states *states; /* implicit spaces' state table, or NULL */
  /* The search in progress or last run. */
  astar_space space;        /* what is searched */
  astar_engine_options opt; /* its options (validated) */
  astar_node start, goal;   /* endpoints (goal NONE with several goals) */
  const astar_node *goals;  /* several goals, or NULL */
  size_t ngoals;            /* their number */
  astar__goal_fn goal_fn;   /* goal test replacing goal and goals, or NULL */
  double weight;            /* multiplier of h (0: Dijkstra) */
  bool greedy;              /* f = h */
  bool reopen;              /* closed nodes may be reopened */
  int phase;                /* ASTAR__IDLE, ASTAR__RUNNING, ASTAR__ENDED */
  astar_status outcome;     /* when ENDED */
  astar_stats stats;        /* running totals */
  astar_node reached;       /* goal reached (OK) */
  astar_node best;          /* partial paths: best expanded node */
  double best_h, best_g;    /* its heuristic and g */
  /* Bidirectional searches. */
  astar_status fault; /* set by a space adapter that cannot go on (an implicit
                         space's full table); ASTAR_OK otherwise */
  double mu;          /* cost of the best meeting found (INFINITY: none) */
  astar_node meet;    /* where, or NONE */
  /* Settings of the variants, resolved at begin. */
  double band;         /* bandwidth: band_e + band_d; INFINITY for the other methods */
  double dyn_eps;      /* dynamic weighting: epsilon (0: off) */
  double dyn_inv_n;    /* and 1 / h(start) */
  uint64_t dropped;    /* beam, bandwidth: entries dropped */
  uint64_t iterations; /* IDA*: iterations; retargeting: legs */
  /* IDA* (ida.c): the current path is a stack in the open list's memory. */
  double ida_bound;   /* f bound of the iteration */
  double ida_next;    /* least f above it seen so far (INFINITY: none) */
  uint32_t ida_depth; /* frames on the stack */
  /* Retargeting (retargeting.c). */
  astar_node target[2]; /* the target of the forward (0) and backward (1) search */
  uint64_t leg_end;     /* expansion count at which the current leg ends */
  int leg_side;         /* the side searching in the current leg */
  /* Front-to-front (front_to_front.c): for each open node of side s, its
  ** best partner on the other side and the value of the pair. */
  double *pair_h[2]; /* [pair_cap] least h(x, y) + g(y) over the partners seen */
  uint32_t *pair[2]; /* [pair_cap] that partner */
  uint32_t pair_cap; /* entries allocated */
  /* The last path, for astar_workspace_space_path. */
  bool found;           /* the last search produced a path */
  astar_node last_end;  /* its last node */
  astar_node last_meet; /* bidirectional: the meeting node, or NONE */
  size_t last_len;      /* its nodes */
} astar__engine;

/* Begin a search (what astar_space_search_begin does), with an optional
** goal test instead of the goal node (implicit spaces). */
astar_status astar__engine_begin(astar_workspace *ws, const astar_space *space,
                                 const astar_engine_options *opt, astar_node start, astar_node goal,
                                 const astar_node *goals, size_t ngoals, astar__goal_fn goal_fn);

/* astar_space_search_begin and astar_space_find_path for a caller that has
** validated `opt` (not NULL) already -- the finder (src/finder/) and HPA*'s
** query (its own settings): options validated once, not a query. The same
** statuses, path and result as the public calls. */
astar_status astar__space_search_begin_checked(astar_workspace *ws, const astar_space *space,
                                               const astar_engine_options *opt, astar_node start,
                                               astar_node goal);
astar_status astar__space_find_path_checked(astar_workspace *ws, const astar_space *space,
                                            const astar_engine_options *opt, astar_node start,
                                            astar_node goal, astar_node *path, size_t cap,
                                            astar_engine_result *result);

/* Hand every node of the last path found on ws (astar_workspace_space_path's:
** ws->eng.found must be true), with its index 0 .. last_len-1, to put --
** for a caller that turns nodes into something else on the way (the
** finder writes a grid's cells). No allocation. */
void astar__engine_path_each(const astar_workspace *ws,
                             void (*put)(void *ctx, size_t i, astar_node node), void *ctx);

/* Free the implicit state table (spaces/implicit.c). */
void astar__states_free(astar_workspace *ws);

/* Free the engine's memory (workspace.c calls it from astar_workspace_free). */
void astar__engine_free(astar_workspace *ws);

/* End any engine search on ws and forget its path (a grid search is about
** to overwrite the shared node records). */
void astar__engine_forget(astar_workspace *ws);

/* Heuristic from node v to the goal(s), unweighted, sanitised (NaN and
** negative values read as 0). */
double astar__engine_h(const astar__engine *e, astar_node v);

/* Backward heuristic: from the start to node v. */
double astar__engine_h_back(const astar__engine *e, astar_node v);

/* The bidirectional method (bidirectional.c): run until the search ends or
** `budget` expansions (0: none) were done; same statuses as the A* loop. */
astar_status astar__bidir_begin(astar_workspace *ws);
astar_status astar__bidir_run(astar_workspace *ws, uint64_t budget);

/* The variants, each in its file, with the same contract: begin after the
** common set-up of astar__engine_begin (records opened, start != goal
** checked by the caller except where said), run as the A* loop. */
astar_status astar__ida_begin(astar_workspace *ws);                     /* ida.c */
astar_status astar__ida_run(astar_workspace *ws, uint64_t budget);      /* ida.c */
void astar__beam_begin(astar_workspace *ws);                            /* beam.c */
astar_status astar__beam_run(astar_workspace *ws, uint64_t budget);     /* beam.c */
void astar__dynamic_begin(astar__engine *e);                            /* dynamic.c */
void astar__bandwidth_begin(astar__engine *e);                          /* bandwidth.c */
astar_status astar__f2f_begin(astar_workspace *ws);                     /* front_to_front.c */
astar_status astar__f2f_run(astar_workspace *ws, uint64_t budget);      /* front_to_front.c */
astar_status astar__retarget_begin(astar_workspace *ws);                /* retargeting.c */
astar_status astar__retarget_run(astar_workspace *ws, uint64_t budget); /* retargeting.c */

/* Open a new generation of the forward records, with an empty open list
** (marks cleared when the 16-bit counter would wrap; search.c). */
void astar__engine_open_forward(astar_workspace *ws);

/* Start a new generation of the backward records (bidirectional.c). */
void astar__engine_open_back(astar__engine *e);

/* Free the front-to-front partners (front_to_front.c). */
void astar__f2f_free(astar_workspace *ws);

/* Does the method search from both ends (meeting node, backward links)? */
ASTAR__INLINE bool astar__method_two_sided(astar_method m) {
  return m == ASTAR_METHOD_BIDIRECTIONAL || m == ASTAR_METHOD_FRONT_TO_FRONT ||
         m == ASTAR_METHOD_RETARGETING;
}

/* The weight of h at a node with heuristic value h (unweighted):
** options.weight, or for dynamic weighting 1 + epsilon min(1, h /
** h(start)) (dynamic.c). */
ASTAR__INLINE double astar__engine_w(const astar__engine *e, double h) {
  if (e->dyn_eps == 0.0) return e->weight;
  const double left = h * e->dyn_inv_n;
  return 1.0 + e->dyn_eps * (left < 1.0 ? left : 1.0);
}

/* The ops of every space astar_grid_space_init builds (spaces/grid_space.c):
** the engine recognises the grid space by them (astar__engine_grid_fast). */
extern const astar_space_ops astar__grid_space_ops;

/* A heuristic value as the engine uses it: NaN and negative values read
** as 0. */
ASTAR__INLINE double astar__sane_h(double h) {
  return h >= 0.0 ? h : 0.0;
}

/* Does the search take the grid-space fast path (spaces/grid_space.h)? A
** space astar_grid_space_init built, searched for one goal node. */
ASTAR__INLINE bool astar__engine_grid_fast(const astar__engine *e) {
  return e->space.ops == &astar__grid_space_ops && !e->goals && !e->goal_fn;
}

/* Is u a goal of the search (the goal node, one of the usable goals, or
** the goal test's choice)? */
ASTAR__INLINE bool astar__engine_is_goal(const astar__engine *e, astar_node u) {
  if (e->goal_fn) return e->goal_fn(e->space.self, u);
  if (!e->goals) return u == e->goal;
  for (size_t i = 0; i < e->ngoals; i++)
    if (e->goals[i] == u) /* a goal the space does not let us use is skipped */
      return !e->space.ops->usable || e->space.ops->usable(e->space.self, u);
  return false;
}

/* The f of a heap entry. */
ASTAR__INLINE double astar__entry_f(astar__hent en) {
  double f;
  memcpy(&f, &en.f, sizeof f);
  return f;
}

/* Heap entry for f, tie key and node (as the grid searches build them). */
ASTAR__INLINE astar__hent astar__engine_entry(double f, uint32_t tie, astar_node node) {
  astar__hent en;
  memcpy(&en.f, &f, sizeof f);
  en.t = (uint64_t)tie << 32 | node;
  return en;
}

/* Tie key of a node with cost g pushed as push number seq. */
ASTAR__INLINE uint32_t astar__engine_tie(int tie, double g, uint32_t seq) {
  if (tie == ASTAR_TIE_NEWEST) return ~seq;
  const float fg = (float)g;
  uint32_t bits;
  memcpy(&bits, &fg, sizeof bits);
  return ~bits;
}

/*
** The arcs out of node u (into u when `backward`), from the space into
** e->arcs: their number, or (size_t)-1 with *st set when the space failed:
** too many arcs, a node out of range or a cost NaN, negative or infinite
** (ASTAR_INVALID_ARGUMENT -- a faulty space is never followed out of
** bounds), or a fault an adapter reported in e->fault (an implicit space's
** full table: ASTAR_CAPACITY). Every method expands through it.
*/
ASTAR__INLINE size_t astar__engine_arcs(astar__engine *e, astar_node u, const bool backward,
                                        astar_status *st) {
  const astar_space_ops *ops = e->space.ops;
  const size_t n = backward ? ops->predecessors(e->space.self, u, e->arcs, e->arcs_cap)
                            : ops->successors(e->space.self, u, e->arcs, e->arcs_cap);
  if (ASTAR__UNLIKELY(e->fault != ASTAR_OK)) {
    *st = e->fault;
    return (size_t)-1;
  }
  bool bad = n > e->arcs_cap;
  for (size_t i = 0; i < n && !bad; i++)
    bad = e->arcs[i].node >= e->space.node_count ||
          !(e->arcs[i].cost >= 0.0 && e->arcs[i].cost <= DBL_MAX);
  if (ASTAR__UNLIKELY(bad)) {
    *st = ASTAR_INVALID_ARGUMENT;
    return (size_t)-1;
  }
  return n;
}

/* Report an event to the observer (the caller checked there is one). */
void astar__engine_emit(const astar__engine *e, astar_event_type type, astar_node node,
                        astar_node parent, double g, double h, int side);

#endif /* ASTAR_ENGINE_ENGINE_H */
