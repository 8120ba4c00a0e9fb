/*
** engine/engine.h -- the pieces the search engine's methods share (the
** files of src/engine/); its state in the workspace, astar__engine, is a
** type of core/state.h. The engine knows spaces only
** through astar_space (astar/space.h) and learns what a space can do from
** its ops' abilities -- the grid-space fast path among them: A* and
** bidirectional search on a space whose ops declare
** ASTAR_ABILITY_GRID_SPACE call the grid space's inline arcs and heuristic
** (spaces/grid_space.h, astar__engine_grid_fast).
**
** Node records. The forward search uses the workspace's own arrays (mark,
** node, open: the ones grid searches use, so one workspace serves both);
** a bidirectional search adds a second set for its backward half. A mark
** holds the generation of the search plus a state, as in grid searches:
** gen + ASTAR__OPEN / ASTAR__CLOSED; anything else is "not reached".
*/
#ifndef ASTAR_ENGINE_ENGINE_H
#define ASTAR_ENGINE_ENGINE_H

#include "core/loop.h"
#include "core/state.h"

#include "astar/engine.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The engine's own name of one of its methods (astar_method_name, which
** the finder defines, names the others from the method table); NULL for
** any other value. */
const char *astar__engine_method_name(astar_method method);

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

/* A heuristic value as the engine uses it: NaN and negative values read
** as 0. */
ASTAR__INLINE double astar__sane_h(double h) {
  return h >= 0.0 ? h : 0.0;
}

/* Does the search take the grid-space fast path (spaces/grid_space.h)? A
** space whose ops say they are the grid space's
** (ASTAR_ABILITY_GRID_SPACE), searched for one goal node. */
ASTAR__INLINE bool astar__engine_grid_fast(const astar__engine *e) {
  return (e->space.ops->abilities & ASTAR_ABILITY_GRID_SPACE) && !e->goals && !e->goal_fn;
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

/*
** The arcs out of node u (into u when `backward`), from the space into
** e->arcs: their number, or (size_t)-1 with *st set when the space failed:
** too many arcs, a node out of range or a cost NaN, negative or infinite
** (ASTAR_INVALID_ARGUMENT -- a faulty space is never followed out of
** bounds; not checked when the ops promise checked arcs), or a fault an
** adapter reported in e->fault (an implicit space's full table:
** ASTAR_CAPACITY). Every method expands through it.
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
  if (ops->abilities & (ASTAR_ABILITY_CHECKED_ARCS | ASTAR_ABILITY_GRID_SPACE)) return n;
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

/* Report an event to the observer (the caller checked there is one):
** f = h for greedy search, g + h otherwise (core/loop.h builds it). */
void astar__engine_emit(const astar__engine *e, astar_event_type type, astar_node node,
                        astar_node parent, double g, double h, int side);

#endif /* ASTAR_ENGINE_ENGINE_H */
