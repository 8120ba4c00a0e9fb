/*
** astar/space.h -- search spaces: what the search engine (astar/engine.h)
** searches. Part of libastar.
**
** A space is a directed graph the engine asks questions of; it never sees
** how the graph is stored. Nodes are 32-bit ids 0 .. node_count-1. A space
** answers, for a node:
**   - its successors with the cost of each arc, written into a buffer the
**     engine owns (no allocation per expansion);
**   - optionally its predecessors (arcs into it), for backward and
**     bidirectional searches;
**   - a heuristic: an estimate of the cost from one node to another;
**   - optionally whether it may be a start or goal, and its position (for
**     pictures).
** The library's spaces -- the square grid as a graph (astar/grid_space.h), hex grids
** (astar/hex.h), compressed static graphs and DIMACS files (astar/graph.h),
** waypoint graphs (astar/waypoints.h) -- fill an astar_space with their
** functions; a program can fill one for its own graph the same way. For
** implicit graphs too large to number (puzzles, planning), see
** astar/implicit.h.
**
** Contract of a space, which every search relies on:
**   - successors(n) writes at most max_degree arcs, in a fixed order (the
**     engine generates them in that order: it is part of the tie order, so
**     the same space gives the same path on every run); costs are finite
**     and >= 0; it never fails and never allocates.
**   - predecessors(n), when given, lists exactly the arcs (m -> n) that
**     successors(m) lists, with the same costs.
**   - heuristic(a, b) is finite and >= 0. It is admissible when it never
**     exceeds the cheapest cost from a to b (then A* is optimal) and
**     consistent when h(a, b) <= cost(a -> c) + h(c, b) for every arc
**     (then no node is expanded twice); the space says which in its flags.
**   - A space is read-only during searches: several threads may search one
**     space at once, each with its own workspace.
*/
#ifndef ASTAR_SPACE_H
#define ASTAR_SPACE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t astar_node; /* a node id, 0 .. node_count-1 */
/* "No node": the largest astar_node, written without a cast (a C cast
** would warn in C++ under -Wold-style-cast). */
#define ASTAR_NODE_NONE UINT32_MAX

/* One arc of a successor or predecessor list. */
typedef struct astar_arc {
  astar_node node; /* the node at the other end */
  double cost;     /* cost of the arc, finite, >= 0 */
} astar_arc;

/* The functions of a space; `self` is astar_space.self. */
typedef struct astar_space_ops {
  /* Arcs out of `node` into arcs[0 .. n-1]; returns n <= cap. Required. */
  size_t (*successors)(const void *self, astar_node node, astar_arc *arcs, size_t cap);
  /* Arcs into `node` (arc.node is the tail, arc.cost the arc's cost);
  ** NULL when the space cannot list them (no backward searches). */
  size_t (*predecessors)(const void *self, astar_node node, astar_arc *arcs, size_t cap);
  /* Estimated cost from a to b; NULL means 0 (Dijkstra). */
  double (*heuristic)(const void *self, astar_node a, astar_node b);
  /* May `node` be a start or a goal (a passable cell, ...)? NULL: all may. */
  bool (*usable)(const void *self, astar_node node);
  /* Position of `node` for pictures and traces: xyz[0..2] (z 0 in 2-D).
  ** NULL: none. Returns false when the node has none. */
  bool (*position)(const void *self, astar_node node, double xyz[3]);
  /* A counter that grows whenever an arc cost (or a node's usability)
  ** changes, so that objects derived from the space (landmark tables,
  ** planners) can tell they are stale. NULL: the space never changes. */
  uint64_t (*version)(const void *self);
  /* What these functions promise beyond the contract above, ASTAR_ABILITY_*
  ** bits, which the engine relies on to skip work. 0 -- ops initialised
  ** with fewer fields, or zeroed -- promises nothing: the engine checks
  ** every arc and calls every function. Properties of the functions,
  ** whatever space value they serve; what depends on the value (the
  ** heuristic's admissibility and consistency) is in astar_space.flags,
  ** and whether backward searches can run is whether predecessors is set. */
  unsigned abilities;
} astar_space_ops;

/*
** Abilities of a space's functions (astar_space_ops.abilities). Declare
** only what holds by construction: a space that claims one it does not
** have makes the engine read out of bounds or follow arcs it does not
** have.
**   ASTAR_ABILITY_CHECKED_ARCS: successors and predecessors never write
**     more than cap arcs, each to a node below node_count with a finite
**     cost >= 0 (a graph validated when built, astar/graph.h): the engine
**     does not check them. Without it the engine checks every arc and
**     ends the search with ASTAR_INVALID_ARGUMENT at a faulty one.
**   ASTAR_ABILITY_GRID_SPACE: self is an astar_grid_space
**     (astar/grid_space.h), and successors, predecessors and heuristic
**     give exactly what that grid space's own functions give: the engine
**     computes them inline from the grid instead of calling them -- its
**     grid-space fast path (A* and bidirectional search, one goal, no
**     observer), the same arcs, order and values without a call per node
**     and per arc. Implies ASTAR_ABILITY_CHECKED_ARCS. The ops of
**     astar_grid_space_init declare both; a wrapper around them declares
**     them only if it changes none of the three.
*/
#define ASTAR_ABILITY_CHECKED_ARCS 1u
#define ASTAR_ABILITY_GRID_SPACE 2u

/* Flags of a space (astar_space.flags). */
#define ASTAR_SPACE_ADMISSIBLE 1u /* heuristic never overestimates */
#define ASTAR_SPACE_CONSISTENT 2u /* heuristic consistent (implies admissible) */

/* A space: its functions, their context and its size. A plain value: copy
** it freely; it does not own `self`. Retains: `ops` and `self`, which must
** outlive every use of the value and of its copies (a search, a planner or
** a landmark wrapper holding one). Thread safety: that of the space it
** describes -- read-only during searches (see the contract above). */
typedef struct astar_space {
  const astar_space_ops *ops; /* the functions */
  const void *self;           /* the space object handed to every function */
  uint32_t node_count;        /* node ids are 0 .. node_count-1, >= 1 */
  uint32_t max_degree;        /* most arcs one successors / predecessors call writes */
  unsigned flags;             /* ASTAR_SPACE_* */
} astar_space;

/* Check that `space` is usable by the engine: ops and successors set,
** node_count >= 1, max_degree >= 1. ASTAR_OK or ASTAR_INVALID_ARGUMENT. */
ASTAR_API astar_status astar_space_validate(const astar_space *space);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_SPACE_H */
