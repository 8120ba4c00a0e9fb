/*
** mesh/polyanya.h -- Polyanya's search (mesh/polyanya.c): the Euclidean
** shortest path between two points of a navigation mesh (Cui, Harabor,
** Grastien, IJCAI 2017). The method's contract is in astar/mesh.h
** ("Polyanya"); the finder method (finder/m_polyanya.c) calls these.
**
** Memory. The search keeps, across queries, a table of the best g of each
** root (a vertex, and for an ambiguous vertex each of its sectors) with a
** generation stamp, so that a query clears nothing; the table is sized for
** the mesh as it is at reserve time. The nodes and the open list of one
** query live in memory the caller lends (`mem`, `bytes`): a query that
** needs more nodes than fit ends with ASTAR_CAPACITY, and the caller lends
** twice as much and asks again.
*/
#ifndef ASTAR_MESH_POLYANYA_H
#define ASTAR_MESH_POLYANYA_H

#include "astar/mesh.h"
#include "astar/search.h"
#include "core/internal.h"

typedef struct astar__polyanya astar__polyanya;

/* What a search takes besides its ends. */
typedef struct astar__pa_params {
  double weight;           /* f = g + weight * h (1: optimal) */
  uint64_t max_expansions; /* 0: no limit */
  astar_stop_fn stop_fn;   /* polled every stop_interval expansions */
  void *stop_ctx;
  uint32_t stop_interval; /* >= 1 */
  astar_mesh_observer_fn observer;
  void *observer_ctx;
} astar__pa_params;

/* What a search gives besides its path. */
typedef struct astar__pa_result {
  double cost;       /* Euclidean length of the path (0 without one) */
  size_t length;     /* points of the path (needed, with ASTAR_BUFFER_TOO_SMALL) */
  astar_stats stats; /* expanded, generated (pushes), max_open */
} astar__pa_result;

/* Make (*p NULL) or grow *p for searches on `mesh` as it is now. Allocates
** only when the mesh grew or changed since. ASTAR_OK or ASTAR_NO_MEMORY. */
astar_status astar__polyanya_reserve(astar__polyanya **p, const astar_mesh *mesh,
                                     const astar_allocator *alloc);
void astar__polyanya_free(astar__polyanya *p);
size_t astar__polyanya_memory(const astar__polyanya *p);

/* Bytes of lent memory per node (node record and open-list slot). */
size_t astar__polyanya_node_bytes(void);

/* Nodes the last searches asked for: the lent memory to offer next. */
size_t astar__polyanya_want_nodes(const astar__polyanya *p);
/* Ask for twice as many (after ASTAR_CAPACITY); false when it cannot. */
bool astar__polyanya_double_nodes(astar__polyanya *p);

/*
** One search on `mesh` (reserved for by astar__polyanya_reserve) from
** `start` to `goal`, with the nodes in mem[0 .. bytes-1] (aligned for
** doubles). The path (start, bends, goal) to path[0 .. cap-1]. Returns
** ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (res->length says how many), ASTAR_NO_PATH,
** ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED, ASTAR_LIMIT_REACHED,
** ASTAR_STOPPED or ASTAR_CAPACITY (more nodes needed). No allocation.
*/
astar_status astar__polyanya_search(astar__polyanya *p, const astar_mesh *mesh, void *mem,
                                    size_t bytes, astar_vec2 start, astar_vec2 goal,
                                    const astar__pa_params *prm, astar_vec2 *path, size_t cap,
                                    astar__pa_result *res);

#endif /* ASTAR_MESH_POLYANYA_H */
