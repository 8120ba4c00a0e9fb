/*
** engine/engine.h -- the search engine's state inside a workspace and the
** pieces its methods share (the files of src/engine/). The engine knows spaces only
** through astar_space (astar/space.h); it never includes a space's header.
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
