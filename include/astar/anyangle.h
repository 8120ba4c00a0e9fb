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
** Cost. A segment costs options.straight_cost x its weighted length: the
** sum, over the cells it crosses, of the length of the segment inside the
** cell times the cell's entry cost factor -- the factor the grid searches
** charge for entering it (astar/search.h): its terrain cost after
** terrain_scale, plus the weighted influence layers, times unknown_cost for a
** cell the player has not seen under ASTAR_UNKNOWN_COST. The two end cells
** count half (the segment runs from centre to centre); a grid point the
** segment passes through costs nothing. Without terrain, layers and priced
** unknown cells every factor is 1 and a segment costs straight_cost x its
** Euclidean length (as the waypoint graphs' edges do). A path costs the sum
** of its segments (astar_polyline_cost). diagonal_cost and turn_penalty play
** no part: with the Moving AI costs (1 and sqrt 2) and no terrain a grid
** path's cost is the cost of its polyline; with terrain the polyline counts
** each step half at the cell left and half at the cell entered, where the
** grid search charges the whole step at the cell entered, so the two differ
** by half the factor differences along the way (a path from a cost-9 cell to
** a cost-1 cell: 5 as a segment, 1 as a grid move). The any-angle SEARCHES
** (Theta*, Lazy Theta*, Anya) cost their segments by Euclidean length only:
** they refuse terrain, layers, knowledge and turn penalties
** (ASTAR_UNSUPPORTED); string pulling and astar_polyline_cost take them.
**
** Knowledge (fog of war). With options.knowledge, sight and cost are judged
** on the player's view, as the grid search plans: a known cell as recorded,
** an unknown cell passable unless options.unknown is ASTAR_UNKNOWN_BLOCKED,
** and the path's first cell always passable (the unit stands there). A path
** smoothed on a view may cross cells that are blocked in truth but unknown
** to the player -- as the grid path it came from may.
**
** What the methods guarantee (docs/paths.md measures them on the shared
** Moving AI maps):
**   astar_path_smooth      the grid path with every removable bend removed
**                          greedily; never more expensive than the grid
**                          path's polyline (equal to the grid path's cost
**                          with the Moving AI costs and no terrain);
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
** blocked. The grid's truth: opt->knowledge is not applied (astar_polyline_cost
** judges a player's view). Symmetric: (a, b) and (b, a) agree.
** O(|dx| + |dy|) cells read, no allocation; the grid is only read.
*/
ASTAR_API bool astar_line_of_sight(const astar_grid *grid, const astar_options *opt, astar_point a,
                                   astar_point b);

/*
** Smooth a grid path by string pulling: walk path[0 .. n-1] keeping an
** anchor (first the start); the cell after the current one replaces the
** current one as the end of the anchor's segment when the anchor sees it
** and -- with terrain, layers or priced unknown cells -- the segment from
** the anchor to it costs no more than the segment to the current cell plus
** the step on (up to a relative 1e-12, so that rounding never keeps a
** bend on a straight run); otherwise the current cell becomes a bend and
** the new anchor. The result -- path[0], the bends, path[n-1] -- goes to
** out[0 .. *len-1]. Consecutive points see each other under the corner rule
** of `opt` (NULL: the defaults), on the player's view with opt->knowledge
** (see "Knowledge" above). Its cost, astar_polyline_cost under the same
** options, is never more than the cost of the input's polyline (the input
** as segments between consecutive cells): without terrain, layers or
** priced unknown cells that is straight_cost x the Euclidean length, and
** every bend the anchor sees past is dropped; with them a straight line
** through expensive cells is refused and the bend kept. Layers and
** knowledge must have the grid's size. turn_penalty plays no part. The
** input need not be a grid path: any list of cells works, each kept point
** seeing the next (the input itself must be in sight step by step for the
** result to be legal: a cell path found by a search with the same options
** is). out may be path (in place): the pass reads ahead of what it writes.
** At most n - 1 sight tests, and with weights 2 (n - 1) segment costs, each
** O(segment length). Returns ASTAR_OK; ASTAR_BUFFER_TOO_SMALL (*len = the
** points needed, nothing written unless in place -- then path is unchanged
** too); ASTAR_OUT_OF_BOUNDS (a cell outside the grid);
** ASTAR_INVALID_ARGUMENT (grid or len NULL, path NULL with n > 0, out NULL
** with cap > 0, invalid options, a layer or knowledge of another size).
** n == 0 gives *len = 0. No allocation; the grid and the objects the
** options name are only read.
*/
ASTAR_API astar_status astar_path_smooth(const astar_grid *grid, const astar_options *opt,
                                         const astar_point *path, size_t n, astar_point *out,
                                         size_t cap, size_t *len);

/*
** Cost of the any-angle path pts[0 .. n-1] (cells whose centres are joined
** by straight segments: a smoothed path, Theta*'s, a waypoint graph's) on
** `grid` under `opt` (NULL: defaults), checking that every point lies
** inside the grid and sees the next (astar_line_of_sight under the corner
** rule of opt; on the player's view with opt->knowledge). On success *cost
** is straight_cost x the sum of the segments' weighted lengths ("Cost"
** above): straight_cost x astar_polyline_length without terrain, layers or
** priced unknown cells; 0 for n < 2. A grid path (consecutive cells
** neighbours) is checked as grid moves: neighbours see each other exactly
** when the move is legal. Returns ASTAR_OK, or ASTAR_INVALID_ARGUMENT (grid
** or cost NULL, pts NULL with n > 0, invalid options, a layer or knowledge
** of another size; a point outside the grid or not in sight of the one
** before: *bad_index, if not NULL, is its index, and *cost is 0). O(sum of
** the segments' lengths), no allocation.
*/
ASTAR_API astar_status astar_polyline_cost(const astar_grid *grid, const astar_options *opt,
                                           const astar_point *pts, size_t n, double *cost,
                                           size_t *bad_index);

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
