/*
** astar/anya.h -- Anya: optimal any-angle paths on the square grid (the
** Euclidean shortest path between two cell centres), after Harabor,
** Grastien, Oz and Aksakalli, "Optimal Any-Angle Pathfinding In Practice"
** (JAIR 56, 2016). Part of libastar.
**
** Geometry. Cell (x, y) is the unit square [x, x+1] x [y, y+1]; y grows
** down (row 0 at the top); cells outside the map are blocked. A path is a
** polyline from the start cell's centre to the goal cell's centre. It is
** LEGAL when it
**   - never enters the interior of a blocked cell (running along an edge
**     with a free cell on at least one side, and touching a blocked cell's
**     corner, are allowed; an edge between two blocked cells is not),
**   - never leaves the map rectangle, and
**   - never passes through a grid point whose four cells are exactly two
**     diagonal blocked ones (no squeezing between diagonal obstacles).
** These are the limits of the library's centre-to-centre lines of sight
** under ASTAR_CORNER_NO_CUT (astar/waypoints.h), so the path found here is
** the true Euclidean shortest path (ESP): no legal any-angle path is
** shorter. Every 8-connected grid path under ASTAR_CORNER_NO_CUT or
** ASTAR_CORNER_ONE_SIDE, drawn through the cells' centres, is a legal
** polyline (a ONE_SIDE diagonal step touches the blocked cell's corner,
** it never squeezes), so with diagonal_cost = sqrt(2) the ESP is never
** longer than either grid optimum.
** Terrain is ignored by the model: grids with a terrain layer are refused.
**
** The path bends only at grid points that are convex corners of obstacles
** (exactly one of their four cells blocked). Vertices are returned as
** astar_vec2 in cell units: corners have integer coordinates, the start and
** goal centres end in .5.
**
** How. Anya searches sets of points: a search node is an interval of a
** horizontal line together with a root point from which every point of the
** interval is visible; its f is g(root) plus the length of the shortest
** root -> interval -> goal route, the goal mirrored across the line when it
** lies on the root's side (admissible). Start and goal are cell centres, not
** grid points: the search runs on the doubled lattice (point (X, Y) is
** (X/2, Y/2) in cell units), whose grid lines are the map's grid lines and
** its cells' middle lines; lattice cell (X, Y) is map cell (X/2, Y/2). The
** map is read through that mapping and never copied or doubled in memory.
** Runs of free cells come from the grid's row bitsets: there is no
** precomputation and hence nothing to become stale. Interval ends are
** doubles, compared with grid coordinates to 1e-8 lattice units: rounding
** grows with the lines a cone crosses, far below that on maps of a few
** thousand cells a side (tested: small random maps exhaustively, Moving AI
** maps up to 1800 x 1912 against the octile bound).
**
** Pruning: the root-level closed list of Anya -- a node is discarded when
** its root was reached before at a cost no larger (1e-12 relative; safe:
** when another path reaches an optimal path's corner as cheaply, the
** optimal continuation is a taut turn for it too, or one of the two
** would not be shortest); intermediate nodes -- a cone whose
** only successor is its own next line -- are projected on at once, never
** put on the open list, and a cone leaving a map grid line goes straight
** to the next one (the middle line between holds no corner) unless the
** goal lies on it. Anya's cul-de-sac pruning is not done: it removed under
** 1% of the nodes on the random maps, where it should help most.
**
** Determinism and tie order: the open list pops the smallest f; among
** equal f the larger g(root); among those the node generated first.
** Successors are generated in a fixed order (run by run in increasing x:
** the part of the cone through it, then the turns at the run's ends; then
** the turns at the interval's ends, left first). Arithmetic is IEEE
** double in a fixed order of operations (sqrt, never hypot): the same
** query gives the same path on every platform.
**
** Memory and growth. A workspace holds a node pool of fixed capacity (48
** bytes a node, plus 24 for the open list) and a table of the best cost per
** grid point ((width+1) x (height+1) points, 12 bytes each). Both are
** reserved ahead (astar_anya_workspace_new / _reserve); a query never
** allocates. A query whose nodes do not fit returns ASTAR_CAPACITY with
** result->stats.generated = the capacity; reserve more (twice as many,
** say) and ask again. The number of nodes a query needs is not bounded by
** the map size in a useful way; thousands are typical on game maps
** (bench/anya_bench.c prints the most a family needed).
**
** Threads: the grid is only read; any number of threads may query the same
** grid at once, each with its own workspace, while no thread modifies it.
*/
#ifndef ASTAR_ANYA_H
#define ASTAR_ANYA_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An Anya workspace. Retains: nothing (the grid given to new / reserve
** only sizes it; a query reads its grid during the call only). Thread
** safety: one thread at a time; any number of workspaces may search one
** grid at once. */
typedef struct astar_anya_workspace astar_anya_workspace;

/* Node capacity of a workspace made with nodes == 0. */
#define ASTAR_ANYA_DEFAULT_NODES 65536u

/*
** Create an Anya workspace able to search `grid` (NULL: none yet; any grid
** then gives ASTAR_CAPACITY until astar_anya_workspace_reserve) with room
** for `nodes` search nodes (0: ASTAR_ANYA_DEFAULT_NODES). The grid is not
** retained. `alloc` may be NULL (malloc); it is copied and serves the
** workspace for its whole life. Allocates the node pool, the open list and
** the point table (see the top of this file).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out NULL), ASTAR_TOO_LARGE
** (nodes beyond UINT32_MAX - 1) or ASTAR_NO_MEMORY. On failure *out is NULL
** and nothing leaks.
*/
ASTAR_API astar_status astar_anya_workspace_new(astar_anya_workspace **out, const astar_grid *grid,
                                                size_t nodes, const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_anya_workspace_free(astar_anya_workspace *ws);

/*
** Grow `ws`, if needed, so that it can search `grid` (NULL: no change of the
** point table) with `nodes` search nodes (0: no change of the pool). Never
** shrinks. Allocates only when growing; on ASTAR_NO_MEMORY the workspace is
** unchanged and usable. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (ws NULL),
** ASTAR_TOO_LARGE (nodes beyond UINT32_MAX - 1) or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_anya_workspace_reserve(astar_anya_workspace *ws,
                                                    const astar_grid *grid, size_t nodes);

/* Search nodes a query on `ws` may generate (0 for NULL). */
ASTAR_API size_t astar_anya_workspace_nodes(const astar_anya_workspace *ws);

/* Bytes `ws` holds from its allocator (0 for NULL). */
ASTAR_API size_t astar_anya_workspace_memory(const astar_anya_workspace *ws);

/* What a query produced besides its status. */
typedef struct astar_anya_result {
  double cost;       /* Euclidean length of the path in cell units: its segments
                        summed from the goal back to the start; 0 when no path */
  size_t length;     /* points of the path, start and goal included (1 when
                        start == goal); 0 when there is no path */
  astar_stats stats; /* expanded: nodes expanded; generated: nodes pushed on the
                        open list; reopened: 0; max_open: largest open list */
} astar_anya_result;

/*
** The shortest legal path (see the top of this file) from the centre of
** cell `start` to the centre of cell `goal`. On ASTAR_OK path[0 ..
** length-1] holds its points: the start centre, the corners it bends
** at, the goal centre. `result` may be NULL; when given it is always filled
** (0s unless a path was found). Never allocates.
** Returns ASTAR_OK; ASTAR_NO_PATH; ASTAR_INVALID_ARGUMENT (ws or grid NULL,
** or path NULL with cap > 0); ASTAR_UNSUPPORTED (the grid has a terrain
** layer); ASTAR_OUT_OF_BOUNDS (start or goal outside the grid);
** ASTAR_START_BLOCKED / ASTAR_GOAL_BLOCKED; ASTAR_CAPACITY (ws not reserved
** for a grid this large, or the node pool ran out: result->stats.generated
** is then the pool's size); ASTAR_BUFFER_TOO_SMALL (a path was found but
** has more than cap points: result->length and result->cost describe it,
** nothing was written).
*/
ASTAR_API astar_status astar_anya_find_path(astar_anya_workspace *ws, const astar_grid *grid,
                                            astar_point start, astar_point goal, astar_vec2 *path,
                                            size_t cap, astar_anya_result *result);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_ANYA_H */
