/*
** mesh/funnel.h -- Detour's kind of mesh search (ASTAR_METHOD_FUNNEL): A*
** over the polygon graph finds a corridor, the funnel algorithm (string
** pulling) the shortest path inside it. astar/finder.h documents the
** method; this is the interface finder/m_funnel.c calls.
**
** The A*'s graph. A node is a polygon entered through one of its edges: the
** directed portal from polygon S across its edge k into the neighbour
** there, identified by the pool index of that edge, poff[S] + k (mesh/
** mesh.h), so the node ids need no table. It stands for the middle of the
** edge. Two more nodes: the start (the start point, in every polygon whose
** closure holds it) and the goal. Arcs: from the start to every portal out
** of a start polygon into a polygon that does not hold the start; from a
** portal into polygon N to every portal out of N except back into the
** polygon it came from and into start polygons; from a portal into a
** polygon holding the goal, to the goal only. An arc costs the Euclidean
** distance between the points the nodes stand for, so g is the length of
** the polyline start -> middles of the portals -> goal, and h (the
** straight-line distance to the goal) is consistent: with weight <= 1
** every node is expanded once and A* finds the corridor whose midpoint
** polyline is shortest. Ties: smaller f, then larger g, then smaller node
** id (the goal's is the largest): deterministic.
**
** The scratch. Node records, the open list and the corridor live in the
** finder's method scratch (astar__fscratch_method_tagged): laid out once
** for the mesh's pool, stamped with a search generation so that a search
** touches only the records it reaches -- nothing is cleared or allocated
** per search. The corridor of the last search stays there for tests
** (astar__funnel_corridor).
*/
#ifndef ASTAR_MESH_FUNNEL_H
#define ASTAR_MESH_FUNNEL_H

#include "astar/finder.h"
#include "mesh/mesh.h"

/* One search. */
typedef struct astar__funnel_query {
  const astar_mesh *mesh;
  astar_vec2 start, goal;          /* finite (the finder checked) */
  double weight;                   /* f = g + weight * h, finite, >= 0 */
  uint64_t max_expansions;         /* 0: no limit; else ASTAR_LIMIT_REACHED */
  astar_stop_fn stop_fn;           /* polled every stop_interval expansions; NULL: never */
  void *stop_ctx;                  /* passed to it */
  uint32_t stop_interval;          /* >= 1 when stop_fn is set */
  astar_mesh_observer_fn observer; /* NULL: none */
  void *observer_ctx;              /* passed to it */
} astar__funnel_query;

/* What it produced besides the path. */
typedef struct astar__funnel_result {
  double cost;       /* the path's Euclidean length (0 without a path) */
  size_t length;     /* its points (with ASTAR_BUFFER_TOO_SMALL: needed) */
  uint32_t corridor; /* polygons of the corridor (0 without a path) */
  astar_stats stats; /* expansions (the goal's included), pushes and lowerings, 0
                        reopenings, the largest open list */
} astar__funnel_result;

/* Bytes of scratch a search on `m` needs as the mesh is now; SIZE_MAX when
** it does not fit in a size_t. */
size_t astar__funnel_scratch_bytes(const astar_mesh *m);

/* Make `mem` (astar__funnel_scratch_bytes(m) bytes at least) ready for a
** search on m: `fresh` says its contents are not what a previous call left
** (new, or used by another method since); the records are then cleared, as
** when the mesh's pool grew beyond the layout. No allocation. */
void astar__funnel_scratch_ready(void *mem, const astar_mesh *m, bool fresh);

/*
** The search (see the top of this file), its path -- start, bends, goal --
** to path[0 .. cap-1]. Returns ASTAR_OK, ASTAR_START_BLOCKED /
** ASTAR_GOAL_BLOCKED (a point in no polygon), ASTAR_NO_PATH,
** ASTAR_LIMIT_REACHED, ASTAR_STOPPED or ASTAR_BUFFER_TOO_SMALL (r says the
** length and cost of the path not written). r is always filled. `mem` was
** made ready for q->mesh. No allocation.
*/
astar_status astar__funnel_find(const astar__funnel_query *q, void *mem, astar_vec2 *path,
                                size_t cap, astar__funnel_result *r);

/* The corridor of the last search on `mem` that found a path: its polygons
** in order, the start's first, to out[0 .. cap-1]; returns their count
** (written or not; 0 when the last search found none). For tests. */
size_t astar__funnel_corridor(const void *mem, const astar_mesh *m, int32_t *out, size_t cap);

#endif /* ASTAR_MESH_FUNNEL_H */
