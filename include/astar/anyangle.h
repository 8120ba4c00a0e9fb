/*
** astar/anyangle.h -- paths that are not bound to the eight grid
** directions: lines of sight, smoothing a grid path by string pulling
** (seed 000 section 6), and the any-angle searches Theta* and Lazy Theta*
** (Nash, Daniel, Koenig & Felner 2007; Nash, Koenig & Tovey 2010). The
** optimal any-angle search, Anya, is astar/anya.h. Part of libastar.
**
** Geometry. A cell (x, y) is the unit square [x, x+1] x [y, y+1]; these
** paths go from cell centre to cell centre along straight segments. Two
** cells SEE each other under a corner rule exactly as in astar/waypoints.h:
** the segment between their centres crosses the interior of passable cells
** only, and wherever it passes through a grid point (going from one cell to
** the diagonally opposite one) the two side cells satisfy the rule -- both
** passable (ASTAR_CORNER_NO_CUT: the closed segment touches no blocked
** square), at least one (ASTAR_CORNER_ONE_SIDE), anything
** (ASTAR_CORNER_ALWAYS), never (ASTAR_CORNER_NEVER, and every search with
** moves == 4: the segment may not pass through a grid point). Neighbouring
** cells see each other exactly when the grid move between them is legal,
** so the cells a segment crosses (astar_waypoints_expand) form a legal grid
** path under the same rule.
**
** Cost. A segment costs options.straight_cost x its Euclidean length (as
** the waypoint graphs' edges do); diagonal_cost plays no part. With the
** Moving AI costs (1 and sqrt 2) a grid path's cost is the Euclidean length
** of its polyline, so a path that replaces a stretch of it by a segment in
** sight is never more expensive (triangle inequality). Terrain, influence
** layers, knowledge and turn penalties would need a cost integrated along
** each segment: the searches here refuse them (ASTAR_UNSUPPORTED).
**
** What the methods guarantee (docs/paths.md measures them on the shared
** Moving AI maps):
**   astar_path_smooth      the grid path with every removable bend removed
**                          greedily; never more expensive than the grid path;
**   Theta*                 a path in sight segment by segment, not
**                          guaranteed shortest: on game maps 0.3-1.2% longer
**                          than the Euclidean shortest path, more among many
**                          small obstacles (7% on a random 512 x 512 map);
**   Lazy Theta*            the same kind of path with far fewer sight tests
**                          (one per expansion instead of one per generated
**                          neighbour);
**   Anya (astar/anya.h)    the true Euclidean shortest path, bending at
**                          obstacle corners: a lower bound for all of them.
*/
#ifndef ASTAR_ANYANGLE_H
#define ASTAR_ANYANGLE_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** Do the centres of cells a and b see each other on `grid` under the corner
** rule of `opt` (NULL: the defaults; moves == 4 counts as
** ASTAR_CORNER_NEVER)? False when either cell is outside the grid or
** blocked. Symmetric: (a, b) and (b, a) agree. O(|dx| + |dy|) cells read,
** no allocation; the grid is only read.
*/
ASTAR_API bool astar_line_of_sight(const astar_grid *grid, const astar_options *opt, astar_point a,
                                   astar_point b);

/*
** Smooth a grid path by string pulling: walk path[0 .. n-1] keeping an
** anchor (first the start); whenever the anchor does not see the cell
** after the current one, the current cell becomes a bend and the new
** anchor. The result -- path[0], the bends, path[n-1] -- goes to
** out[0 .. *len-1]; consecutive points see each other under the corner rule
** of `opt` (NULL: the defaults), and its cost (straight_cost x Euclidean
** length, astar_polyline_length) is never more than the Euclidean length of
** the input's polyline times straight_cost. The input need not be a grid
** path: any list of cells works, each kept point seeing the next (the input
** itself must be in sight step by step for the result to be legal: a
** cell path found by a search is). out may be path (in place): the pass
** reads ahead of what it writes. At most n - 1 sight tests.
** Returns ASTAR_OK; ASTAR_BUFFER_TOO_SMALL (*len = the points needed,
** nothing written unless in place -- then path is unchanged too);
** ASTAR_OUT_OF_BOUNDS (a cell outside the grid); ASTAR_INVALID_ARGUMENT
** (grid or len NULL, path NULL with n > 0, out NULL with cap > 0, invalid
** options). n == 0 gives *len = 0. No allocation.
*/
ASTAR_API astar_status astar_path_smooth(const astar_grid *grid, const astar_options *opt,
                                         const astar_point *path, size_t n, astar_point *out,
                                         size_t cap, size_t *len);

/* Euclidean length of the polyline through the centres of pts[0 .. n-1]
** (0 for n < 2; pts may be NULL then). No allocation. */
ASTAR_API double astar_polyline_length(const astar_point *pts, size_t n);

/* Any-angle search methods. */
typedef enum astar_anyangle_method {
  ASTAR_ANYANGLE_THETA = 0, /* Theta*: on generating a neighbour s of u, s takes u's
                               parent as its parent when that parent sees s */
  ASTAR_ANYANGLE_LAZY_THETA /* Lazy Theta*: assume the sight, check it when s is
                               expanded, and fall back to s's best closed neighbour */
} astar_anyangle_method;

/* What an any-angle search produced besides its status. */
typedef struct astar_anyangle_result {
  double cost;           /* straight_cost x Euclidean length; 0 without a path */
  size_t length;         /* points in the path (start, bends, goal); 0 if none */
  astar_stats stats;     /* expanded, generated (pushes), max_open; reopened is 0 */
  uint64_t sight_checks; /* lines of sight tested (each O(segment length)) */
} astar_anyangle_result;

/*
** Theta* or Lazy Theta* from the centre of `start` to the centre of `goal`
** on `grid`, with the workspace of the grid searches (astar/search.h;
** reserved for the grid: no allocation). Nodes are cells; from a cell the
** neighbours are the legal grid moves under opt->moves and opt->corner,
** generated in the order N, E, S, W, NE, SE, SW, NW. g is the cost of the
** path of segments found so far, h = weight x straight_cost x the
** Euclidean distance to the goal (admissible and consistent for weight
** <= 1), f = g + h; ties go by opt->tie as for A* (ASTAR_TIE_CROSS as
** ASTAR_TIE_LARGER_G), then by cell index (smaller y, then smaller x).
** Closed nodes are never reopened. Options used: moves, corner,
** straight_cost, weight, tie, max_expansions, observer (events PUSH,
** EXPAND, IMPROVE, GOAL; `parent` is the node's any-angle parent, possibly
** far away). Any of terrain on the grid, layers, knowledge, islands,
** turn_penalty, partial, stop_fn, terrain_scale != 1, a heuristic other
** than AUTO, or algorithm JPS: ASTAR_UNSUPPORTED.
**
** On ASTAR_OK path[0 .. length-1] holds start, the cells where the path
** bends, and goal; consecutive points see each other (astar_line_of_sight),
** and astar_waypoints_expand lists the cells walked. start == goal gives a
** one-point path. `result` may be NULL; when given it is always filled.
** Returns ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (result->length says how many
** points; nothing written), ASTAR_NO_PATH, ASTAR_LIMIT_REACHED,
** ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED, ASTAR_OUT_OF_BOUNDS,
** ASTAR_CAPACITY (ws not reserved for the grid), ASTAR_UNSUPPORTED,
** ASTAR_INVALID_ARGUMENT (NULL ws or grid, invalid options, unknown method,
** path NULL with cap > 0). Never allocates. The workspace's last path
** (astar_workspace_path) is cleared.
*/
ASTAR_API astar_status astar_anyangle_find_path(astar_workspace *ws, const astar_grid *grid,
                                                const astar_options *opt,
                                                astar_anyangle_method method, astar_point start,
                                                astar_point goal, astar_point *path, size_t cap,
                                                astar_anyangle_result *result);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_ANYANGLE_H */
