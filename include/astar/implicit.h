/*
** astar/implicit.h -- searching implicit graphs: spaces whose states are
** too many to number in advance (sliding puzzles, planning, games), given
** as callbacks over the caller's own 64-bit state encoding. Part of
** libastar.
**
** The caller encodes a state in 64 bits (a 15-puzzle board fits in 64; for
** larger states, an index into the caller's own table) and supplies its
** successors with their costs and a heuristic. The engine (astar/engine.h)
** numbers the states it meets in a hash table held by the workspace --
** fixed capacity, reserved once with astar_workspace_reserve_states, no
** allocation while searching -- and when the table is full the search ends
** with ASTAR_CAPACITY rather than growing. Every method of the engine works
** here (bidirectional searches need predecessors). IDA* too numbers every
** state it meets: the table must hold all the distinct states of its
** iterations, so its small memory shows on numbered spaces only.
**
** The callbacks follow the contract of astar/space.h: successors in a fixed
** order, costs finite and >= 0, no allocation, never failing; `ctx` is
** passed back unchanged. A search calls them from the searching thread
** only.
*/
#ifndef ASTAR_IMPLICIT_H
#define ASTAR_IMPLICIT_H

#include "base.h"
#include "engine.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t astar_state; /* a state, in the caller's encoding */

/* An arc to (successors) or from (predecessors) another state. */
typedef struct astar_state_arc {
  astar_state state; /* the state at the other end */
  double cost;       /* cost of the arc, finite, >= 0 */
} astar_state_arc;

/* The callbacks of an implicit space. */
typedef struct astar_implicit_ops {
  /* Arcs out of s into arcs[0 .. n-1]; returns n <= cap. Required. */
  size_t (*successors)(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap);
  /* Arcs into s (for bidirectional searches); NULL: none. */
  size_t (*predecessors)(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap);
  /* Estimated cost from a to b; NULL: 0. */
  double (*heuristic)(void *ctx, astar_state a, astar_state b);
  /* Goal test; NULL: the state equal to the goal given to the search. With
  ** a goal test the heuristic is still called towards that goal state. */
  bool (*is_goal)(void *ctx, astar_state s);
} astar_implicit_ops;

/* An implicit space: its callbacks, their context, its largest degree and
** the flags of astar/space.h (ASTAR_SPACE_ADMISSIBLE, _CONSISTENT).
** Retains: `ops` and `ctx`, which must outlive every search of it (a
** sliced search from begin to finish). Thread safety: the callbacks are
** called from the searching thread only; several threads may search one
** implicit space at once (each with its own workspace) only if its
** callbacks may run concurrently on `ctx`. */
typedef struct astar_implicit {
  const astar_implicit_ops *ops; /* the callbacks */
  void *ctx;                     /* handed to every callback */
  uint32_t max_degree;           /* most arcs one callback writes, >= 1 */
  unsigned flags;                /* ASTAR_SPACE_* */
} astar_implicit;

/*
** Make `ws` able to search implicit spaces meeting up to `max_states`
** distinct states per search, with up to `max_degree` arcs a state (what:
** 0, or ASTAR_RESERVE_BACKWARD / ASTAR_RESERVE_FRONT_TO_FRONT for the
** methods that need them: astar/engine.h). Allocates, once, about 38
** bytes (node records) + 24 bytes (hash table) per state, twice the
** records with ASTAR_RESERVE_BACKWARD, 24 more with
** ASTAR_RESERVE_FRONT_TO_FRONT; on ASTAR_NO_MEMORY the
** workspace is unchanged. ASTAR_OK, ASTAR_INVALID_ARGUMENT (max_states 0
** or above 2^30, max_degree 0), ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_workspace_reserve_states(astar_workspace *ws, uint32_t max_states,
                                                      uint32_t max_degree, unsigned what);

/*
** Find a path of states from `start` to `goal` (or to a state passing
** ops->is_goal) with the engine's method and options (NULL: defaults).
** The states, start first, go to path[0 .. length-1]. result (may be NULL)
** as for astar_space_find_path; result->end_state holds the last state.
** Besides the outcomes of astar_space_find_path: ASTAR_CAPACITY when the
** search met more states than reserved (the table is full; nothing is
** written), or when space->max_degree exceeds the reservation. Never
** allocates.
*/
ASTAR_API astar_status astar_implicit_find_path(astar_workspace *ws, const astar_implicit *space,
                                                const astar_engine_options *opt, astar_state start,
                                                astar_state goal, astar_state *path, size_t cap,
                                                astar_engine_result *result);

/* States met by the last implicit search on ws (how full the table got). */
ASTAR_API uint32_t astar_implicit_states_used(const astar_workspace *ws);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_IMPLICIT_H */
