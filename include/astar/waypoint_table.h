/*
** astar/waypoint_table.h -- the precomputed waypoint table of Patel's
** section 2.4.1 ("precomputed exact heuristics"): the exact shortest-path
** cost between every pair of a few waypoints, and for every cell its nearest
** waypoint, turned into a heuristic for the grid's own A*
** (options.heuristic = ASTAR_H_CALLBACK). Part of libastar.
**
** Meant for grids with a few chokepoints -- rooms and doors, mazes with few
** corridors -- where the straight-line heuristics are poor because the
** path must detour through a door.
**
** Waypoints (astar_table_pick). Numbered 0 .. count-1.
**   GIVEN   the caller's cells (passable, in the grid, no duplicates), in
**           the caller's order.
**   DOORS   one waypoint per narrow gap. A passable cell is NARROW when its
**           maximal run of passable cells along a row, or along a column, is
**           at most `gap` cells long (the run ends at blocked cells or at the
**           grid's edge on both sides: a door in a wall, or a corridor at
**           most `gap` cells wide). A GAP is a 4-connected set of narrow
**           cells; its waypoint is the cell of the gap nearest to the gap's
**           centroid (squared Euclidean distance; ties: smaller y, then
**           smaller x). Waypoints are numbered in the row-major order of
**           each gap's first cell. When there are more gaps than
**           max_count, gaps i * n / max_count (i = 0 .. max_count-1) of the
**           n found are kept. On a maze of corridors at most `gap` wide
**           every cell is narrow and each connected maze is one gap: use
**           COARSE there.
**   COARSE  a coarse grid on top of the fine one (the seed's first bullet):
**           tiles of side `tile` from the top-left corner; in each, the
**           passable cell nearest the centre of the tile clipped to the
**           grid (squared Euclidean distance; ties: smaller y, then
**           smaller x); tiles without a passable cell have none. Row-major
**           tile order.
**   AUTO    DOORS; if the grid has no gap, COARSE, with the tile side
**           doubled until the count is at most max_count.
**
** What is built. Under the movement rules of the options given to the
** constructor -- moves, corner rule, straight and diagonal costs -- and the
** grid's terrain (entering a cell multiplies the move's cost by its
** factor, so costs depend on the direction of travel):
**   D[i][j]      cost of the cheapest path from waypoint i to waypoint j
**                (one Dijkstra per waypoint; +infinity when unreachable);
**   wfrom_r(n), from_r(n)  for r = 0 .. K-1 (K = wopt->nearest), the r-th
**                nearest waypoint w by the cost of w -> n, and that cost;
**   wto_r(n), to_r(n)      the same by the cost of n -> w (the Dijkstra of
**                each waypoint over the reversed moves; without terrain
**                the costs are symmetric and the two lists are one).
** Nearest means cheapest by the stored (rounded up) cost, ties to the
** smaller number, so the table is the same on every platform. A cell
** reached by fewer than K waypoints has that many entries.
** Costs are computed in double, then stored as floats rounded OUTWARD: D
** rounded down, from and to rounded up, each three float steps beyond the
** nearest float (a margin of over 2^-23 of the value). That margin covers
** the difference between two summation orders of the same path in double
** (at most (n - 1) x 2^-53 relative for n steps: below 2^-25 even for a
** path through all 2^28 cells of the largest grid) and the rounding of the
** heuristic's own two subtractions, so the BOUND form below stays below
** the cost a search computes. Other options of a search (terrain_scale,
** heuristic_floor, weight, layers, turn penalties, knowledge) play no part
** in the table.
**
** The two heuristics (astar_table_form), for a cell n and a goal g, over
** the K x K pairs (r, q) of n's and g's nearest waypoints -- K = 1 is the
** seed's formula, K > 1 its "better but more expensive" variant that
** evaluates "all pairs w1, w2 close to the node and the goal":
**   SEED   h(n) = min over (r, q) of to_r(n) + D[wto_r(n)][wfrom_q(g)] +
**          from_q(g): h'(n, w1) + distance(w1, w2) + h'(w2, goal) with
**          exact h'. It is the cost of a real path n -> w1 -> w2 -> g, so an
**          UPPER bound of the optimal cost: not admissible, and not
**          consistent. A* with it finds legal paths that may be longer than
**          optimal (docs/hierarchy.md measures how much, and its expansions).
**   BOUND  h(n) = max(base(n), max over (r, q) of D[wfrom_r(n)][wto_q(g)]
**          - from_r(n) - to_q(g)) where base is the octile distance
**          (Manhattan with 4 moves or without diagonals) times the grid's
**          smallest terrain factor -- the library's own default heuristic
**          -- times (1 - 2^-24), a margin against the rounding of a path's
**          sum of steps. By the triangle inequality D[w1][w2] <= d(w1, n) +
**          d(n, g) + d(g, w2), so every term is at most d(n, g):
**          ADMISSIBLE, and A* with it returns optimal paths. For one fixed
**          w1 the term is consistent, but n's set of nearest waypoints
**          changes between neighbouring cells, and there the bound can drop
**          by more than the move's cost: NOT consistent
**          (tests/test_waypoint_table.c counts violations). The search must
**          reopen closed nodes -- ASTAR_REOPEN_AUTO does for callback
**          heuristics -- and may expand more nodes than with octile; the
**          larger K, the rarer the changes (docs/hierarchy.md).
** Both fall back to base(n) where the table says nothing: n or g in a
** component without a waypoint, n and g in different components, g outside
** the grid (a goal region's (-1, -1)). BOUND stays admissible for searches
** whose costs are at least the table's: the same moves, corner rule and
** costs with terrain_scale 1, plus any layers or turn penalties (which only
** add). With other movement rules, a smaller terrain_scale or knowledge
** that opens unknown cells it is not: astar_waypoint_table_check tells.
**
** Staleness. The table records the grid it was built from and
** astar_grid_version(). It is never silently wrong: the heuristic reads the
** grid's version on every call and, once the grid has changed, returns
** base(n) computed from the grid's current smallest terrain factor
** (admissible, just no better than the default heuristic) until the table
** is built again. astar_waypoint_table_current / _check report it. The grid
** must therefore outlive every use of the table as a heuristic (freeing the
** table never touches the grid).
**
** Cost. Building: one Dijkstra over the grid's cells per waypoint (two
** with terrain), O(count x cells log cells) time; scratch memory of 20
** bytes a padded cell, released before returning. Kept: 4 bytes per table
** entry (count^2) plus 6 x K bytes a cell (12 x K with terrain):
** astar_waypoint_table_memory. A heuristic call is O(K^2) array reads, no
** allocation. Read-only after building: any number of threads may use
** one table at once.
*/
#ifndef ASTAR_WAYPOINT_TABLE_H
#define ASTAR_WAYPOINT_TABLE_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_TABLE_MAX_COUNT 8192 /* most waypoints a table holds (a 256 MiB table) */
#define ASTAR_TABLE_MAX_GAP 64     /* widest door DOORS looks for */
#define ASTAR_TABLE_MAX_NEAREST 4  /* most nearest waypoints kept per cell (K) */

/* How the waypoints are chosen; see the top of this file. */
typedef enum astar_table_pick {
  ASTAR_TABLE_AUTO = 0, /* doors, else a coarse grid (default) */
  ASTAR_TABLE_DOORS,    /* one per narrow gap at most `gap` cells wide */
  ASTAR_TABLE_COARSE,   /* one per tile of side `tile` */
  ASTAR_TABLE_GIVEN     /* the caller's cells */
} astar_table_pick;

/* Which heuristic astar_waypoint_table_heuristic computes. */
typedef enum astar_table_form {
  ASTAR_TABLE_BOUND = 0, /* admissible lower bound: optimal paths (default) */
  ASTAR_TABLE_SEED       /* the seed's formula: an upper bound, fast, not optimal */
} astar_table_form;

/* Options of the constructor. Start from astar_waypoint_table_options_init. */
typedef struct astar_waypoint_table_options {
  astar_table_pick pick;    /* waypoint choice (default ASTAR_TABLE_AUTO) */
  astar_table_form form;    /* heuristic of astar_waypoint_table_heuristic (default BOUND) */
  int32_t gap;              /* DOORS / AUTO: widest gap, 1 .. ASTAR_TABLE_MAX_GAP (default 2) */
  int32_t tile;             /* COARSE / AUTO fallback: tile side in cells, 1 ..
                               ASTAR_GRID_MAX_SIDE (default 16) */
  uint32_t max_count;       /* most waypoints, 1 .. ASTAR_TABLE_MAX_COUNT (default 1024);
                               DOORS thins to it, COARSE / GIVEN beyond it fail */
  const astar_point *cells; /* GIVEN: the waypoint cells (read during the call only) */
  size_t ncells;            /* GIVEN: entries of cells, 1 .. max_count */
  uint32_t nearest;         /* K: nearest waypoints per cell, 1 .. ASTAR_TABLE_MAX_NEAREST
                               (default 4; 1: the seed's formula exactly) */
} astar_waypoint_table_options;

/* A waypoint table. Retains: the grid it was built for -- every heuristic
** call (astar_waypoint_table_value / _heuristic) reads its version and
** smallest terrain factor -- so the grid must outlive the table's use.
** Thread safety: read-only once built -- any number of searches may use it
** at once. */
typedef struct astar_waypoint_table astar_waypoint_table;

/* Fill `wopt` with the defaults above. */
ASTAR_API void astar_waypoint_table_options_init(astar_waypoint_table_options *wopt);

/*
** Build the table for `grid` under the movement rules of `opt` (NULL: the
** defaults of astar_options_init; only moves, corner, straight_cost and
** diagonal_cost are used) with the waypoints `wopt` asks for (NULL: the
** defaults). `alloc` may be NULL (malloc); it is copied. The grid is not
** copied: it must outlive the table's use as a heuristic (see Staleness).
** Allocates; on failure *out is NULL and nothing leaks.
** Returns ASTAR_OK;
**   ASTAR_INVALID_ARGUMENT  out or grid NULL, opt invalid
**                           (astar_options_validate), a wopt field out of
**                           range, GIVEN with cells NULL or ncells 0, a
**                           blocked cell or a duplicate cell;
**   ASTAR_OUT_OF_BOUNDS     a GIVEN cell outside the grid;
**   ASTAR_TOO_LARGE         COARSE gives, or GIVEN has, more than max_count
**                           waypoints;
**   ASTAR_NO_MEMORY.
** A grid without any passable cell gives a table of 0 waypoints (the
** heuristic is then base(n) everywhere).
*/
ASTAR_API astar_status astar_waypoint_table_new(astar_waypoint_table **out, const astar_grid *grid,
                                                const astar_options *opt,
                                                const astar_waypoint_table_options *wopt,
                                                const astar_allocator *alloc);

/* Release the table. NULL is allowed. */
ASTAR_API void astar_waypoint_table_free(astar_waypoint_table *t);

/* Bytes the table holds from its allocator. 0 for NULL. */
ASTAR_API size_t astar_waypoint_table_memory(const astar_waypoint_table *t);

/* Number of waypoints (0 for NULL). */
ASTAR_API uint32_t astar_waypoint_table_count(const astar_waypoint_table *t);

/* Cell of waypoint i; (-1, -1) when t is NULL or i >= count. */
ASTAR_API astar_point astar_waypoint_table_cell(const astar_waypoint_table *t, uint32_t i);

/* D[i][j], the cheapest cost from waypoint i to waypoint j as stored
** (rounded down, see above); INFINITY when unreachable; NAN when t is NULL
** or an index is out of range. */
ASTAR_API double astar_waypoint_table_distance(const astar_waypoint_table *t, uint32_t i,
                                               uint32_t j);

/*
** The rank-th nearest waypoints of `cell` (rank 0: the nearest): *from_w /
** *from_cost the waypoint w by the cost of w -> cell and that cost (rounded
** up), *to_w / *to_cost the one by the cost of cell -> w. Any pointer may
** be NULL. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (t NULL, or rank >=
** K), ASTAR_OUT_OF_BOUNDS, or ASTAR_NO_PATH (the cell is blocked, or fewer
** than rank + 1 waypoints share its component; nothing written). No
** allocation.
*/
ASTAR_API astar_status astar_waypoint_table_nearest(const astar_waypoint_table *t, astar_point cell,
                                                    uint32_t rank, uint32_t *from_w,
                                                    double *from_cost, uint32_t *to_w,
                                                    double *to_cost);

/* K, the nearest waypoints kept per cell (wopt->nearest); 0 for NULL. */
ASTAR_API uint32_t astar_waypoint_table_nearest_count(const astar_waypoint_table *t);

/* The heuristic `form` from `cell` to `goal` (see the top of this file).
** Never negative, always finite; 0 when t is NULL. No allocation. */
ASTAR_API double astar_waypoint_table_value(const astar_waypoint_table *t, astar_table_form form,
                                            astar_point cell, astar_point goal);

/* astar_heuristic_fn for options.heuristic_fn with ASTAR_H_CALLBACK:
** astar_waypoint_table_value with the table's form; ctx is the table. */
ASTAR_API double astar_waypoint_table_heuristic(void *ctx, astar_point cell, astar_point goal);

/* The form the table was built with (wopt->form). */
ASTAR_API astar_table_form astar_waypoint_table_form(const astar_waypoint_table *t);

/* True when t was built from `grid` (the same object) and the grid has not
** changed since (astar_grid_version). */
ASTAR_API bool astar_waypoint_table_current(const astar_waypoint_table *t, const astar_grid *grid);

/*
** Can a search on `grid` with options `opt` (NULL: defaults) use t's BOUND
** form and stay optimal? ASTAR_OK; ASTAR_INVALID_ARGUMENT (t or grid NULL);
** ASTAR_STALE (the grid changed since building: the heuristic falls back to
** base(n)); ASTAR_MISMATCH (another grid object, or other moves, corner
** rule or move costs, or terrain_scale below 1, or knowledge with unknown
** cells passable: the bound may overestimate). No allocation.
*/
ASTAR_API astar_status astar_waypoint_table_check(const astar_waypoint_table *t,
                                                  const astar_grid *grid, const astar_options *opt);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_WAYPOINT_TABLE_H */
