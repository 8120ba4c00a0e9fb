/*
** astar/engine.h -- one search engine over any space (astar/space.h): A*
** and its settings (Dijkstra, greedy best-first, weighted A*) and the
** variants of Patel's section 4 (bidirectional A*, front-to-front and
** retargeting bidirectional searches, IDA*, beam search, dynamic
** weighting, bandwidth search), each written once for every space.
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
** endpoints give the same path on every run and platform. (IDA* has no
** open list: it follows the successors depth first in the space's order.)
**
** Outcomes (the returned status), as for the grid's astar_find_path:
**   ASTAR_OK               a path was found; its bound is the method's (see
**                          astar_method). start == goal: a one-node path.
**   ASTAR_BUFFER_TOO_SMALL a path was found but has more than `cap` nodes:
**                          result->length says how many; nothing written;
**                          astar_workspace_space_path copies it afterwards.
**   ASTAR_NO_PATH          the goal is not reachable -- or, for a method
**                          that drops nodes (beam, bandwidth), was not
**                          reached: then result.dropped > 0. With
**                          result.dropped == 0 the answer is exact.
**   ASTAR_LIMIT_REACHED    max_expansions ran out first.
**   ASTAR_STOPPED          stop_fn asked to stop.
**   ASTAR_PARTIAL          (options.partial) no full path: the path to the
**                          expanded node with the smallest heuristic.
**   ASTAR_START_BLOCKED / ASTAR_GOAL_BLOCKED   the space says the start or
**                          goal is not usable (astar_space_ops.usable).
**   ASTAR_OUT_OF_BOUNDS    start or goal >= node_count.
**   ASTAR_CAPACITY         the workspace was not reserved for this space (or
**                          for what the method needs besides the forward
**                          search: see astar_workspace_reserve_space).
**   ASTAR_UNSUPPORTED      the method needs what the space lacks
**                          (predecessors for bidirectional searches), or
**                          what was asked is not the method's (several
**                          goals or a goal test for bidirectional ones), or
**                          it is one of the finder's own methods (JPS ..:
**                          the finder runs them, astar/finder.h).
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
** optimum C* (for an admissible heuristic unless said otherwise). Which
** methods need more than astar_workspace_reserve_space(ws, space, 0): see
** ASTAR_RESERVE_BACKWARD and ASTAR_RESERVE_FRONT_TO_FRONT. */
typedef enum astar_method {
  ASTAR_METHOD_ASTAR = 0,      /* A*: f = g + weight * h. weight <= 1: C = C*;
                                  weight w > 1 (weighted A*): C <= w C* */
  ASTAR_METHOD_DIJKSTRA,       /* f = g (the heuristic is not called): C = C* */
  ASTAR_METHOD_GREEDY,         /* greedy best-first, f = h: fast, no bound */
  ASTAR_METHOD_BIDIRECTIONAL,  /* A* from both ends: C = C*. Consistent space:
                                  keys g +- (h(v, goal) - h(start, v)) / 2,
                                  stopping when the best meeting cost is <= the
                                  sum of the two least keys; otherwise keys g +
                                  h, stopping at <= the larger least f. Needs
                                  predecessors */
  ASTAR_METHOD_IDA,            /* IDA* (Patel 4.2): depth-first iterations under
                                  an f bound, raised each time to the least f
                                  that exceeded it: C = C*. No open list: besides
                                  the node records, 16 bytes a node of the
                                  current path (held in the open list's memory).
                                  options.ida_transpositions cuts nodes met again
                                  in an iteration with no lower g; without it
                                  only cycles on the current path are cut and
                                  the work can grow with the number of paths.
                                  Each step of the path fetches the successors of
                                  its node again (at most degree + 1 times a
                                  visit). result.iterations counts the
                                  iterations. Real-valued costs (grids with
                                  diagonals) give one iteration per distinct f:
                                  IDA* suits unit costs (puzzles) */
  ASTAR_METHOD_BEAM,           /* beam search (4.1): A* (f = g + weight * h) whose
                                  open list never holds more than
                                  options.beam_width nodes; when full, the worst
                                  entry (largest f, the one A* would take last)
                                  is dropped. No bound, may miss a path:
                                  ASTAR_NO_PATH with result.dropped > 0. With
                                  result.dropped == 0 it was A*: C = C*. Needs
                                  ASTAR_RESERVE_BACKWARD (its worst-first heap) */
  ASTAR_METHOD_DYNAMIC,        /* dynamic weighting (4.3, Pohl 1973): f = g +
                                  (1 + epsilon min(1, h / h(start))) h, the
                                  weight falling from 1 + epsilon at the start to
                                  1 at the goal: C <= (1 + epsilon) C* (closed
                                  nodes reopened). With options.reopen
                                  ASTAR_REOPEN_NEVER and a consistent heuristic:
                                  C <= (1 + 2 epsilon) C*, and far fewer
                                  expansions. options.weight is not used */
  ASTAR_METHOD_BANDWIDTH,      /* bandwidth search (4.4, Harris 1974): for a
                                  heuristic within [h* - band_d, h* + band_e] of
                                  the true remaining cost h*, C <= C* + band_e,
                                  and a node generated with f > f(expanded node)
                                  + band_e + band_d is dropped (it cannot be on an
                                  optimal path with its optimal g). Reopens closed
                                  nodes (unless ASTAR_REOPEN_NEVER: no bound). A
                                  heuristic outside the band voids the bound and
                                  may lose the path (ASTAR_NO_PATH with
                                  result.dropped > 0). options.weight is not used */
  ASTAR_METHOD_FRONT_TO_FRONT, /* front-to-front bidirectional search (4.5): each
                                  open node x of one side is keyed by g(x) + the
                                  least h(x, y) + g(y) over the other side's open
                                  nodes y; the side with fewer open nodes expands
                                  its best; stops when the best meeting cost is <=
                                  the least key: C = C* (closed nodes reopened).
                                  Each generated node costs O(size of the other
                                  open list) heuristic calls, and a node whose
                                  partner left the other list costs as much again
                                  to refresh: for small frontiers or costly
                                  expansions. Needs predecessors and
                                  ASTAR_RESERVE_FRONT_TO_FRONT */
  ASTAR_METHOD_RETARGETING,    /* retargeting bidirectional search (4.5): legs of
                                  options.retarget_interval expansions, forward
                                  toward the best open node of the backward
                                  search, then backward toward the best open node
                                  of the forward search (best: least g + h to the
                                  far end), until one search reaches a node of the
                                  other. No bound; always finds a path when one
                                  exists (ASTAR_NO_PATH only when none does).
                                  result.iterations counts the legs. Needs
                                  predecessors and ASTAR_RESERVE_BACKWARD */
  /* The finder's own methods (the square grid's loops, and from Fringe
  ** on methods of the finder over the grid and any space), chosen with the
  ** others through the finder (astar/finder.h), never run by the engine:
  ** astar_space_find_path and its siblings refuse them with
  ** ASTAR_UNSUPPORTED (astar_finder_unsupported_reason says why). */
  ASTAR_METHOD_JPS,        /* Jump Point Search (astar/search.h, ASTAR_ALGO_JPS): C = C* */
  ASTAR_METHOD_JPS_PLUS,   /* JPS+ over a precomputed table (astar/jps_plus.h): C = C* */
  ASTAR_METHOD_CPD,        /* compressed path database: first moves looked up, no
                              search (astar/cpd.h): C = C* */
  ASTAR_METHOD_HPA,        /* HPA*, hierarchical (astar/hierarchy.h): near-optimal */
  ASTAR_METHOD_THETA,      /* Theta*, any-angle (astar/anyangle.h): no bound proven */
  ASTAR_METHOD_LAZY_THETA, /* Lazy Theta*, any-angle (astar/anyangle.h) */
  ASTAR_METHOD_ANYA,       /* Anya, the Euclidean shortest path (astar/anya.h) */
  ASTAR_METHOD_FRINGE,     /* Fringe Search, on the grid and any space (astar/finder.h): C = C* */
  ASTAR_METHOD_POLYANYA,   /* Polyanya on a navigation mesh: the Euclidean shortest path
                              (astar/finder.h, astar_finder_new_mesh): C = C* */
  ASTAR_METHOD_FUNNEL,     /* A* over a mesh's polygons, then the funnel (string pulling):
                              Detour's kind of path, no bound proven */
  ASTAR_METHOD_SUBGOAL,    /* A* over a subgoal graph (astar/subgoal.h,
                              astar_finder_new_subgoal): C = C* */
  ASTAR_METHOD_COUNT       /* number of methods (not a method) */
} astar_method;

/* The engine's methods are 0 .. ASTAR_METHOD_ENGINE_COUNT - 1 (A* ..
** retargeting); the grid's own follow. */
#define ASTAR_METHOD_ENGINE_COUNT ASTAR_METHOD_JPS

/* An event of a search over a space (options.observer), in order. */
typedef struct astar_engine_event {
  astar_event_type type; /* PUSH, EXPAND, IMPROVE, REOPEN, GOAL, DROP, ITERATION,
                            MEET (astar/search.h) */
  astar_node node;       /* the node */
  astar_node parent;     /* its parent, ASTAR_NODE_NONE for a start */
  double g, h, f;        /* after the event; h as weighted for the search */
  uint64_t expanded;     /* expansions so far */
  int side;              /* 0 forward, 1 backward (bidirectional searches) */
} astar_engine_event;
/* A bidirectional search ends with one GOAL event naming the node where
** the two searches met, with g the cost of the whole path and h 0; before
** it, a MEET event (g the whole path's cost, h 0, side the search that
** generated the node) each time a cheaper meeting is found. BEAM and
** BANDWIDTH report every node they drop (DROP: node, parent, g and h of
** the dropped entry). IDA* reports ITERATION (node the start, g 0, h and f
** the new bound) when it raises its bound; RETARGETING reports ITERATION
** when a leg begins (node the leg's target, side the side that searches,
** g 0, h and f its heuristic from the side's root). In IDA* an EXPAND is
** the first visit of a node in an iteration and PUSH a node placed on the
** current path; it has no IMPROVE or REOPEN. The h of an event is the
** part of the node's key beyond g: for FRONT_TO_FRONT the least h(x, y) +
** g(y) over its partners, for RETARGETING the heuristic toward the side's
** current target. FRONT_TO_FRONT lowers the keys of the other side's open
** nodes without events. */

/* Observer of a search over a space: called for every event. */
typedef void (*astar_engine_observer_fn)(void *ctx, const astar_engine_event *event);

/* Options of a search over a space. Start from astar_engine_options_init. */
typedef struct astar_engine_options {
  astar_method method;               /* default ASTAR_METHOD_ASTAR */
  double weight;                     /* heuristic multiplier for A*: in [0, ASTAR_OPTION_MAX]
                                        (default 1) */
  astar_tie tie;                     /* ASTAR_TIE_LARGER_G (default) or ASTAR_TIE_NEWEST */
  astar_reopen reopen;               /* AUTO (default): reopen closed nodes unless the space
                                        says its heuristic is consistent */
  uint64_t max_expansions;           /* 0: no limit; else ASTAR_LIMIT_REACHED */
  bool partial;                      /* on NO_PATH / LIMIT_REACHED / STOPPED return the path to
                                        the expanded node nearest the goal by the heuristic,
                                        as ASTAR_PARTIAL (default false). The methods with
                                        one open list only (A*, Dijkstra, greedy, beam,
                                        dynamic, bandwidth); the others ignore it */
  astar_stop_fn stop_fn;             /* polled every stop_interval expansions; NULL: never */
  void *stop_ctx;                    /* passed to stop_fn */
  uint32_t stop_interval;            /* >= 1 (default 256) */
  astar_engine_observer_fn observer; /* called for every event; NULL: none */
  void *observer_ctx;                /* passed to it */
  /* Settings of the variants (used by their method only). */
  uint32_t beam_width;        /* BEAM: most nodes in the open list, >= 1 (default 1024) */
  double epsilon;             /* DYNAMIC: weight 1 + epsilon at the start, finite, >= 0
                                 (default 1) */
  double band_e;              /* BANDWIDTH: most the heuristic overestimates, finite, >= 0
                                 (default 0) */
  double band_d;              /* BANDWIDTH: most it underestimates, finite, >= 0 (default 0) */
  bool ida_transpositions;    /* IDA*: cut a node met again in the same iteration with no
                                 lower g (default true) */
  uint32_t retarget_interval; /* RETARGETING: expansions a leg, >= 1 (default 32) */
} astar_engine_options;

/* What a search over a space produced besides its status. */
typedef struct astar_engine_result {
  double cost;         /* path cost; 0 without a path */
  size_t length;       /* nodes on the path, both ends included; 0 without one */
  astar_stats stats;   /* expansions, pushes, reopenings, largest open list (both
                          directions added for bidirectional searches) */
  astar_node end;      /* last node of the path: the goal reached, or the best
                          node of a partial path; ASTAR_NODE_NONE without one */
  astar_status cause;  /* with ASTAR_PARTIAL: why the goal was not reached;
                          otherwise the returned status */
  astar_node meet;     /* bidirectional: where the two searches met (else NONE) */
  uint64_t end_state;  /* implicit searches (astar/implicit.h): the state of end */
  uint64_t dropped;    /* BEAM, BANDWIDTH: entries dropped (evicted from the full open
                          list, or not let in); 0 for the other methods */
  uint64_t iterations; /* IDA*: iterations (bounds tried); RETARGETING: legs run;
                          0 for the other methods */
} astar_engine_result;

/* Defaults: A*, weight 1, larger-g ties, automatic reopening, no limit;
** beam width 1024, epsilon 1, band 0 / 0, IDA* transpositions on, legs of
** 32 expansions. */
ASTAR_API void astar_engine_options_init(astar_engine_options *opt);

/* ASTAR_OK or ASTAR_INVALID_ARGUMENT (a field out of range; beam_width and
** retarget_interval are checked only for their method). A grid method in
** opt->method is a valid value: searches refuse it (ASTAR_UNSUPPORTED). */
ASTAR_API astar_status astar_engine_options_validate(const astar_engine_options *opt);

/* Name of a method ("astar", "dijkstra", "greedy", "bidirectional", "ida",
** "beam", "dynamic", "bandwidth", "front-to-front", "retargeting", "jps",
** "jps-plus", "cpd", "hpa", "theta", "lazy-theta", "anya"), or NULL for an
** unknown value. Static storage. The finder's table (astar_method_info)
** names the three long ones as the tool's --algo does: "bidir", "f2f",
** "retarget"; astar_method_from_name reads both. */
ASTAR_API const char *astar_method_name(astar_method method);

/* What astar_workspace_reserve_space reserves besides the forward search. */
#define ASTAR_RESERVE_BACKWARD                                                                     \
  1u /* a second set of node records: BIDIRECTIONAL,                                               \
        RETARGETING; BEAM's worst-first heap */
#define ASTAR_RESERVE_FRONT_TO_FRONT                                                               \
  2u /* FRONT_TO_FRONT: the backward records                                                       \
        and each node's best partner on the other                                                  \
        side (24 bytes a node more) */

/*
** Make `ws` able to search `space`: node records for space->node_count
** nodes and a buffer of max_degree arcs; with ASTAR_RESERVE_BACKWARD in
** `what`, a second set for the backward half of bidirectional searches;
** with ASTAR_RESERVE_FRONT_TO_FRONT, that and the partners of
** front-to-front search. Allocates only when growing (about 38 bytes a
** node, twice with ASTAR_RESERVE_BACKWARD, 24 more with
** ASTAR_RESERVE_FRONT_TO_FRONT); on ASTAR_NO_MEMORY the workspace is
** unchanged.
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
** ASTAR_GOAL_BLOCKED. Not for the bidirectional methods (BIDIRECTIONAL,
** FRONT_TO_FRONT, RETARGETING: ASTAR_UNSUPPORTED). */
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
** exactly the path and statistics of astar_space_find_path, for every
** method (the budget counts expansions; IDA* counts first visits of a node
** in an iteration). No allocation.
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
