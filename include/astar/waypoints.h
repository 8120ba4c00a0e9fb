/*
** astar/waypoints.h -- waypoint graphs (seed 000 section 7): the visibility
** graph of a square grid's obstacle corners, searched by the engine
** (astar/engine.h) for any-angle paths. Part of libastar.
**
** Geometry. A cell (x, y) is the unit square [x, x+1] x [y, y+1]; paths go
** through cell centres. Two passable cells a and b SEE each other when the
** straight segment between their centres
**   - crosses the interior of passable cells only, and
**   - wherever it passes exactly through a grid point (a corner shared by
**     four cells) -- going from one cell to the diagonally opposite one --
**     the two other cells at that point ("side cells", as for a diagonal
**     move) satisfy the corner rule: both passable (ASTAR_CORNER_NO_CUT), at
**     least one passable (ASTAR_CORNER_ONE_SIDE), anything
**     (ASTAR_CORNER_ALWAYS).
** Under NO_CUT this is: the closed segment touches no blocked square, not
** even at a point. The segment never runs along a cell edge (centres are
** half-way between grid lines). Two neighbouring cells see each other
** exactly when the grid move between them is legal under the same corner
** rule, so the walk of cells a segment crosses is a legal grid path
** (astar_waypoints_expand). Cells outside the grid count as blocked.
**
** Waypoints ("corners"). Look at every grid point whose four cells hold
** exactly one blocked cell X -- a convex corner of an obstacle. Its
** waypoints are the passable cell diagonal to X (the classic corner) and,
** under ONE_SIDE and ALWAYS, also the two cells beside X, which a path
** cutting the corner passes through (with ASTAR_WAYPOINTS_SIDE_CELLS, also
** under NO_CUT). Under ALWAYS, a grid point whose four cells hold two
** diagonal blocked cells adds the two free cells, between which a path can
** squeeze. Waypoints are numbered 0 .. count-1 in row-major order of their
** cells; the EDGES join every pair of waypoints that see each other.
**
** Costs and what the path is. An edge costs opt->straight_cost x the
** Euclidean distance between the centres (diagonal_cost plays no part). A
** query inserts its start and goal (any passable cells) with edges to every
** waypoint they see, and to each other when they see each other; the path
** is the cheapest in that graph: start, waypoints, goal, every consecutive
** pair in sight. Its cost is never more than the optimal 8-connected grid
** path's cost under the same corner rule with diagonal_cost =
** sqrt(2) x straight_cost (the Moving AI optimum), and a path exists
** exactly when a grid path does -- checked, not proven: on 3,576 random
** queries (tests/test_waypoints.c) and 8,302 Moving AI ones. It is the
** classic any-angle visibility-graph path, about 4.5% cheaper than the
** grid optimum on game maps; but with bends restricted to waypoints it is
** not always the shortest any-angle path through cell centres, which may
** bend at a cell next to no obstacle where the centres line up better
** (equal in 89% of random small-map queries under NO_CUT, at worst 18%
** longer; 98% with ASTAR_WAYPOINTS_SIDE_CELLS; docs/spaces.md).
**
** Cost of building. Waypoints: O(cells). Edges: one line-of-sight test per
** pair of waypoints, O(count^2) tests of up to O(width + height) cells
** each, stopping at the first blocked cell: milliseconds for a thousand
** waypoints, seconds for ten thousand, a minute or more beyond 50,000
** (docs/spaces.md). A query tests sight from the start to every waypoint
** and from each expanded waypoint to the goal. Memory: 16 bytes a
** waypoint (its cell and its row offset) and 4 bytes a directed edge (each
** edge is stored both ways), astar_waypoints_memory.
**
** Staleness and sharing. The object records astar_grid_version(); a query
** on a changed grid returns ASTAR_STALE (build it again), on another grid
** object ASTAR_MISMATCH. The object is read-only after building: any number
** of threads may query it at once, each with its own workspace and its own
** astar_waypoints_query (caller storage holding the start and goal, so the
** shared object is never touched).
*/
#ifndef ASTAR_WAYPOINTS_H
#define ASTAR_WAYPOINTS_H

#include "base.h"
#include "engine.h"
#include "grid.h"
#include "search.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A waypoint graph. Retains: the address of the grid it was built for, as
** that grid's identity (compared by astar_waypoints_check and
** _query_init, never read through): free the graph with its grid, since a
** new grid allocated at a freed one's address would pass the check. Thread
** safety: read-only once built -- any number of threads may query it at
** once, each with its own workspace and astar_waypoints_query. */
typedef struct astar_waypoints astar_waypoints;

/* Flags of astar_waypoints_new. ASTAR_WAYPOINTS_SIDE_CELLS: under NO_CUT, also
** the two cells beside each corner's blocked cell (about 2.5x the
** waypoints and 5x the edges; paths closer to the any-angle optimum). */
#define ASTAR_WAYPOINTS_SIDE_CELLS 1u /* more waypoints under NO_CUT */

/*
** Build the waypoint graph of `grid` for the corner rule and straight cost
** of `opt` (NULL: the defaults; other fields are ignored). `flags`: 0 or
** ASTAR_WAYPOINTS_SIDE_CELLS. `alloc` may be NULL (malloc); it is copied
** and serves the object for its whole life. The grid is not retained
** beyond its identity (see the queries). Allocates the graph, and while
** building a list of the edges found (4 bytes each) that is released
** before returning.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out or grid NULL, invalid
** options, unknown flags), ASTAR_UNSUPPORTED (4 moves or
** ASTAR_CORNER_NEVER: there are no diagonal sightlines; or a terrain
** layer: segment costs would have to integrate terrain), ASTAR_TOO_LARGE
** (more than UINT32_MAX - 2 waypoints) or ASTAR_NO_MEMORY. On failure *out
** is NULL and nothing leaks.
*/
ASTAR_API astar_status astar_waypoints_new(astar_waypoints **out, const astar_grid *grid,
                                           const astar_options *opt, unsigned flags,
                                           const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_waypoints_free(astar_waypoints *wp);

/* Bytes held from its allocator. */
ASTAR_API size_t astar_waypoints_memory(const astar_waypoints *wp);

/* Number of waypoints (node ids 0 .. count-1 of every query space). */
ASTAR_API uint32_t astar_waypoints_count(const astar_waypoints *wp);

/* Number of edges (pairs of waypoints in sight of each other). */
ASTAR_API size_t astar_waypoints_edge_count(const astar_waypoints *wp);

/* Cell of waypoint i (i < count; otherwise (-1, -1)). */
ASTAR_API astar_point astar_waypoints_cell(const astar_waypoints *wp, uint32_t i);

/* The waypoints in sight of waypoint i, ascending: writes the first
** min(cap, degree) to out[] (out may be NULL when cap is 0) and returns
** the degree; 0 for i >= count. No allocation. */
ASTAR_API size_t astar_waypoints_neighbors(const astar_waypoints *wp, uint32_t i, uint32_t *out,
                                           size_t cap);

/* Can `grid` be searched with `wp`? ASTAR_OK, ASTAR_MISMATCH (another grid
** object, or other dimensions), ASTAR_STALE (the grid changed since
** building) or ASTAR_INVALID_ARGUMENT (NULL). */
ASTAR_API astar_status astar_waypoints_check(const astar_waypoints *wp, const astar_grid *grid);

/* Do cells a and b see each other on `grid` under wp's corner rule (the
** definition at the top of this file)? False when either is outside or
** blocked. O(|dx| + |dy|), no allocation. The grid need not be current
** (this reads it as it is now). */
ASTAR_API bool astar_waypoints_visible(const astar_waypoints *wp, const astar_grid *grid,
                                       astar_point a, astar_point b);

/*
** ---- Queries: a start and a goal inserted into the graph -------------------
**
** A query is an astar_space in caller storage: node ids 0 .. count-1 are
** the waypoints, `count` is the start and count + 1 the goal -- unless
** the start (goal) cell is itself a waypoint, which then serves as the
** start (goal) node, and start == goal cells give one node. Successors of
** a waypoint: the waypoints in sight (ascending), then the goal when in
** sight; of the start: the waypoints in sight, then the goal when in sight.
** Predecessors are the reverse arcs (so bidirectional searches work).
** In-sight tests against the start and goal run during the search -- one
** line of sight per expanded node, and one per waypoint when the start is
** expanded -- so the query needs no buffer. The heuristic is
** straight_cost x the Euclidean distance: admissible and consistent.
** node_count = count + 2, max_degree = count + 1: every query of one
** graph has the same sizes, so one reservation (astar_waypoints_reserve)
** serves them all.
** Retains: a query keeps the graph wp and the grid (read for lines of
** sight while the space is searched): both must outlive every use of the
** space.
** Thread safety: read-only during searches; give each thread its own.
*/
typedef struct astar_waypoints_query {
  const astar_waypoints *wp; /* the graph */
  const astar_grid *grid;    /* its grid, read for lines of sight to start and goal */
  astar_point start, goal;   /* the query's cells */
  astar_node start_node;     /* node id of the start: a waypoint's, or count */
  astar_node goal_node;      /* node id of the goal: a waypoint's, count + 1, or start_node */
  bool start_extra;          /* start_node is the extra id `count` */
  bool goal_extra;           /* goal_node is the extra id `count + 1` */
} astar_waypoints_query;

/*
** Fill `q` and `*space` for a search from `start` to `goal`. The space
** refers to q, wp and grid, which must outlive every use of it; the grid
** must not change meanwhile. No allocation.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL), ASTAR_MISMATCH /
** ASTAR_STALE (as astar_waypoints_check), ASTAR_OUT_OF_BOUNDS (start or
** goal outside), ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED.
*/
ASTAR_API astar_status astar_waypoints_query_init(astar_waypoints_query *q, astar_space *space,
                                                  const astar_waypoints *wp, const astar_grid *grid,
                                                  astar_point start, astar_point goal);

/* Cell of a node of the query space: a waypoint's cell, the start or the
** goal; (-1, -1) for an id beyond them. */
ASTAR_API astar_point astar_waypoints_query_cell(const astar_waypoints_query *q, astar_node node);

/*
** Make `ws` able to search every query space of `wp` (node_count count +
** 2, max_degree count + 1): astar_workspace_reserve_space with those
** sizes; `what` as there (ASTAR_RESERVE_BACKWARD for bidirectional
** searches). Allocates only when growing: about 38 bytes a node plus 16
** bytes a waypoint for the arc buffer. ASTAR_OK, ASTAR_INVALID_ARGUMENT or
** ASTAR_NO_MEMORY (the workspace unchanged).
*/
ASTAR_API astar_status astar_waypoints_reserve(astar_workspace *ws, const astar_waypoints *wp,
                                               unsigned what);

/*
** One query, start to finish: astar_waypoints_query_init, then
** astar_space_find_path with `opt` (NULL: A*; any method; the observer sees
** node ids of the query space), then the nodes turned into cells. On
** ASTAR_OK (and ASTAR_PARTIAL) path[0 .. result->length-1] holds the
** waypoints of the path -- the start, the corners it bends at, the goal --
** and result->cost its cost; astar_waypoints_expand turns them into the
** cells walked. `result` may be NULL; when given it is always filled (node
** ids in it are the query space's). ws must be reserved for wp
** (astar_waypoints_reserve; otherwise ASTAR_CAPACITY). Never allocates.
** Returns what astar_waypoints_query_init and astar_space_find_path return.
*/
ASTAR_API astar_status astar_waypoints_find_path(astar_workspace *ws, const astar_waypoints *wp,
                                                 const astar_grid *grid,
                                                 const astar_engine_options *opt, astar_point start,
                                                 astar_point goal, astar_point *path, size_t cap,
                                                 astar_engine_result *result);

/*
** The cells a walk along waypoints[0 .. n-1] passes through: for each
** segment, the cells whose interior its straight line crosses, in order,
** going diagonally where it passes through a grid point; each waypoint
** once. Between waypoints that see each other (as on a path of
** astar_waypoints_find_path) this is a legal 8-connected grid path under
** the corner rule of the waypoints (astar_path_cost accepts it); its
** grid cost is at least the waypoints' Euclidean cost. Pure geometry: no
** grid, no check. Writes cells[0 .. *len-1]; returns ASTAR_OK,
** ASTAR_BUFFER_TOO_SMALL (*len = the length needed, nothing written
** beyond cap) or ASTAR_INVALID_ARGUMENT (NULL len, or waypoints NULL with
** n > 0). n == 0 gives *len = 0. No allocation.
*/
ASTAR_API astar_status astar_waypoints_expand(const astar_point *waypoints, size_t n,
                                              astar_point *cells, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_WAYPOINTS_H */
