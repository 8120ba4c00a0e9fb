/*
** astar/engine.h -- one search engine over any space (astar/space.h): A*
** and its settings (Dijkstra, greedy best-first, weighted A*) and the
** variants of Patel's section 4 (bidirectional, IDA*, beam, dynamic
** weighting, bandwidth), each written once for every space.
** Part of libastar.
**
** A search needs the space and a workspace (astar/search.h) reserved for
** it with astar_workspace_reserve_space; the same workspace also serves
** the grid's own searches. Searching never allocates.
**
** Determinism and tie order. The open list is ordered by f, smallest
** first; equal f by options.tie (ASTAR_TIE_LARGER_G: larger g first, g
** compared after rounding to single precision; ASTAR_TIE_NEWEST: the most
** recently pushed first), then by node id, smaller first. Successors are
** generated in the order the space lists them. The same space, options and
** endpoints give the same path on every run and platform.
**
** Outcomes (the returned status), as for the grid's astar_find_path:
**   ASTAR_OK               a path was found; its bound is the method's (see
**                          astar_method). start == goal: a one-node path.
**   ASTAR_BUFFER_TOO_SMALL a path was found but has more than `cap` nodes:
**                          result->length says how many; nothing written;
**                          astar_workspace_space_path copies it afterwards.
**   ASTAR_NO_PATH          the goal is not reachable (or, for a method that
**                          may miss paths -- beam, greedy with a limit --,
**                          was not reached: result.cause says which).
**   ASTAR_LIMIT_REACHED    max_expansions ran out first.
**   ASTAR_STOPPED          stop_fn asked to stop.
**   ASTAR_PARTIAL          (options.partial) no full path: the path to the
**                          expanded node with the smallest heuristic.
**   ASTAR_START_BLOCKED / ASTAR_GOAL_BLOCKED   the space says the start or
**                          goal is not usable (astar_space_ops.usable).
**   ASTAR_OUT_OF_BOUNDS    start or goal >= node_count.
**   ASTAR_CAPACITY         the workspace was not reserved for this space (or
**                          for backward searches: ASTAR_RESERVE_BACKWARD).
**   ASTAR_UNSUPPORTED      the method needs what the space lacks
**                          (predecessors for bidirectional searches).
**   ASTAR_INVALID_ARGUMENT NULL arguments, an invalid space or option.
*/
#ifndef ASTAR_ENGINE_H
#define ASTAR_ENGINE_H

#include "base.h"
#include "search.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The search method and the bound on its path's cost C against the
** optimum C* (for an admissible heuristic). */
typedef enum astar_method {
  ASTAR_METHOD_ASTAR = 0,     /* A*: f = g + weight * h. weight <= 1: C = C*;
                                 weight w > 1 (weighted A*): C <= w C* */
  ASTAR_METHOD_DIJKSTRA,      /* f = g (the heuristic is not called): C = C* */
  ASTAR_METHOD_GREEDY,        /* greedy best-first, f = h: fast, no bound */
  ASTAR_METHOD_BIDIRECTIONAL, /* A* from both ends, stopping when the best
                                 meeting cost is <= max of the two open lists'
                                 least f: C = C*. Needs predecessors */
  ASTAR_METHOD_COUNT          /* number of methods (not a method) */
} astar_method;

/* An event of a search over a space (options.observer), in order. */
typedef struct astar_engine_event {
  astar_event_type type; /* PUSH, EXPAND, IMPROVE, REOPEN, GOAL (astar/search.h) */
  astar_node node;       /* the node */
  astar_node parent;     /* its parent, ASTAR_NODE_NONE for a start */
  double g, h, f;        /* after the event; h as weighted for the search */
  uint64_t expanded;     /* expansions so far */
  int side;              /* 0 forward, 1 backward (bidirectional searches) */
} astar_engine_event;
/* A bidirectional search ends with one GOAL event naming the node where
** the two searches met, with g the cost of the whole path and h 0. */

/* Observer of a search over a space: called for every event. */
typedef void (*astar_engine_observer_fn)(void *ctx, const astar_engine_event *event);

/* Options of a search over a space. Start from astar_engine_options_init. */
typedef struct astar_engine_options {
  astar_method method;               /* default ASTAR_METHOD_ASTAR */
  double weight;                     /* heuristic multiplier for A*, finite, >= 0 (default 1) */
  astar_tie tie;                     /* ASTAR_TIE_LARGER_G (default) or ASTAR_TIE_NEWEST */
  astar_reopen reopen;               /* AUTO (default): reopen closed nodes unless the space
                                        says its heuristic is consistent */
  uint64_t max_expansions;           /* 0: no limit; else ASTAR_LIMIT_REACHED */
  bool partial;                      /* on NO_PATH / LIMIT_REACHED / STOPPED return the path to
                                        the expanded node nearest the goal by the heuristic,
                                        as ASTAR_PARTIAL (default false) */
  astar_stop_fn stop_fn;             /* polled every stop_interval expansions; NULL: never */
  void *stop_ctx;                    /* passed to stop_fn */
  uint32_t stop_interval;            /* >= 1 (default 256) */
  astar_engine_observer_fn observer; /* called for every event; NULL: none */
  void *observer_ctx;                /* passed to it */
} astar_engine_options;

/* What a search over a space produced besides its status. */
typedef struct astar_engine_result {
  double cost;        /* path cost; 0 without a path */
  size_t length;      /* nodes on the path, both ends included; 0 without one */
  astar_stats stats;  /* expansions, pushes, reopenings, largest open list (both
                         directions added for bidirectional searches) */
  astar_node end;     /* last node of the path: the goal reached, or the best
                         node of a partial path; ASTAR_NODE_NONE without one */
  astar_status cause; /* with ASTAR_PARTIAL: why the goal was not reached;
                         otherwise the returned status */
  astar_node meet;    /* bidirectional: where the two searches met (else NONE) */
} astar_engine_result;

/* Defaults: A*, weight 1, larger-g ties, automatic reopening, no limit. */
ASTAR_API void astar_engine_options_init(astar_engine_options *opt);

/* ASTAR_OK or ASTAR_INVALID_ARGUMENT (a field out of range). */
ASTAR_API astar_status astar_engine_options_validate(const astar_engine_options *opt);

/* Name of a method ("astar", "dijkstra", "greedy", "bidirectional"), or
** NULL for an unknown value. Static storage. */
ASTAR_API const char *astar_method_name(astar_method method);

/* What astar_workspace_reserve_space reserves besides the forward search. */
#define ASTAR_RESERVE_BACKWARD 1u /* a second set of node records: bidirectional */

/*
** Make `ws` able to search `space`: node records for space->node_count
** nodes and a buffer of max_degree arcs; with ASTAR_RESERVE_BACKWARD in
** `what`, a second set for the backward half of bidirectional searches.
** Allocates only when growing (about 38 bytes a node, twice with
** ASTAR_RESERVE_BACKWARD); on ASTAR_NO_MEMORY the workspace is unchanged.
** A workspace made for a grid may be reserved for spaces and the other
** way round: it keeps the largest of everything it was asked for.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_workspace_reserve_space(astar_workspace *ws, const astar_space *space,
                                                     unsigned what);

/*
** Find a path from `start` to `goal` in `space` with the method and
** options of `opt` (NULL: defaults). On ASTAR_OK (and ASTAR_PARTIAL) the
** nodes, start first, go to path[0 .. length-1]; path may be NULL when cap
** is 0. `result` may be NULL; when given it is always filled. Never
** allocates. Outcomes: the top of this file.
*/
ASTAR_API astar_status astar_space_find_path(astar_workspace *ws, const astar_space *space,
                                             const astar_engine_options *opt, astar_node start,
                                             astar_node goal, astar_node *path, size_t cap,
                                             astar_engine_result *result);

/* As astar_space_find_path with several goals: the search ends at the first
** goal it expands (the cheapest under an admissible heuristic, which is the
** minimum of the heuristic over the goals: O(ngoals) a node). goals[] must
** stay valid during the search. Unusable goals are skipped; none left:
** ASTAR_GOAL_BLOCKED. Not for bidirectional searches (ASTAR_UNSUPPORTED). */
ASTAR_API astar_status astar_space_find_path_multi(astar_workspace *ws, const astar_space *space,
                                                   const astar_engine_options *opt,
                                                   astar_node start, const astar_node *goals,
                                                   size_t ngoals, astar_node *path, size_t cap,
                                                   astar_engine_result *result);

/*
** Sliced search over a space, as the grid's astar_search_begin / step /
** finish (astar/search.h): begin sets it up, each step expands at most
** `budget` nodes (0: no budget) and returns ASTAR_IN_PROGRESS until the
** search ends, finish hands out the path. The space and the goals must stay
** alive and unchanged until finish or cancel. Stepping to the end gives
** exactly the path and statistics of astar_space_find_path. No allocation.
** A grid search begun on the same workspace is cancelled, and the other way
** round.
*/
ASTAR_API astar_status astar_space_search_begin(astar_workspace *ws, const astar_space *space,
                                                const astar_engine_options *opt, astar_node start,
                                                astar_node goal);
ASTAR_API astar_status astar_space_search_begin_multi(astar_workspace *ws, const astar_space *space,
                                                      const astar_engine_options *opt,
                                                      astar_node start, const astar_node *goals,
                                                      size_t ngoals);
ASTAR_API astar_status astar_space_search_step(astar_workspace *ws, uint64_t budget,
                                               uint64_t *expanded);
ASTAR_API astar_status astar_space_search_finish(astar_workspace *ws, astar_node *path, size_t cap,
                                                 astar_engine_result *result);

/* Copy the path of the last search over a space on `ws` (as
** astar_workspace_path does for grid searches): ASTAR_OK,
** ASTAR_BUFFER_TOO_SMALL (*len = the length needed), ASTAR_NO_PATH or
** ASTAR_INVALID_ARGUMENT. No allocation. */
ASTAR_API astar_status astar_workspace_space_path(const astar_workspace *ws, astar_node *path,
                                                  size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_ENGINE_H */
