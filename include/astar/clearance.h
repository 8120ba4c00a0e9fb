/*
** astar/clearance.h -- units bigger than one cell, and terrain types that
** only some units may enter (true clearance: Harabor & Botea 2008,
** "Hierarchical path planning for multi-size agents in heterogeneous
** environments").
**
** Terrain types. Besides the grid's passability, each cell may have a
** terrain TYPE (ground, swamp, water, trees, ...: a number 0..31, see
** astar_terrain_type). A unit's CAPABILITY is the set of types it may enter,
** a bitmask (bit t: type t). A cell is traversable for capability m when the
** grid says it is passable AND m contains its type: the grid's passability
** is what blocks every unit (walls, closed doors), the types what blocks
** some. Types live in a caller-given array, copied into the clearance object
** (so no existing object or API changes); astar_terrain_types_parse fills
** one from the text of a map. The Moving AI loader (astar/format.h) blocks
** the 'W' and 'T' cells in the grid, as the benchmark does; to let a unit
** enter them, open them with astar_terrain_open.
**
** Clearance. The clearance of cell (x, y) for capability m is the side of
** the largest square with (x, y) as its top-left corner whose cells are all
** traversable for m (0 when (x, y) itself is not), capped at the object's
** max_size (at most ASTAR_CLEARANCE_MAX = 255, so one byte a cell). A k x k
** unit is placed by its top-left cell, its ANCHOR; it fits at p when
** clearance(p) >= k.
**
** Searching for a k x k unit. The anchor moves like a one-cell unit on the
** DERIVED grid "the unit fits with its anchor here" (astar_clearance_fill_grid),
** so A*, JPS, JPS+ and the engine all apply unchanged, at their usual speed.
** This is exact for every move and corner rule: a straight move p -> q
** sweeps exactly footprint(p) u footprint(q), both of which fit. A diagonal
** move sweeps the (k+1) x (k+1) box around both footprints; the footprints
** cover all of it except two CORNER cells (for a move to the south-east, the
** box's top-right and bottom-left cells), and the side anchor p + (dx, 0)
** fits exactly when, besides, the corner cell at its end of the box is
** traversable (likewise p + (0, dy)). So the derived grid's corner rule
** reads, for the unit:
**   ASTAR_CORNER_NO_CUT     both corner cells traversable: the whole box is
**                           free (for k = 1 the usual rule);
**   ASTAR_CORNER_ONE_SIDE   at least one corner cell traversable;
**   ASTAR_CORNER_ALWAYS     the corner cells are ignored: the unit may cut
**                           them, as a one-cell unit cuts corners;
**   ASTAR_CORNER_NEVER, or moves == 4: straight moves only.
** astar_clearance_path_cost checks a path against these rules cell by cell.
** Paths, tie order and determinism are those of the search on the derived
** grid (astar/search.h); for k = 1 and a capability holding every type of
** the map, the derived grid is the grid and the search is the plain one.
** Any-angle methods (astar/anyangle.h, astar/waypoints.h) on a derived grid
** test lines of sight for a point anchor, so for k > 1 they let the unit
** clip obstacle corners by up to a cell: use grid moves for big units.
**
** Terrain costs of a big unit. Entering anchor q costs the move's cost times
** the LARGEST terrain factor of the cells under footprint(q): a unit is as
** slow as the worst ground it stands on (a sum would make big units pay k^2
** times; the maximum keeps a 1 x 1 unit's costs and keeps the heuristics
** admissible, since the derived grid's smallest factor is at least the
** grid's).
**
** Cost. Building: O(cells) per capability (one dynamic-programming pass from
** the bottom-right corner). Memory: 1 byte a cell for the types plus 1 byte
** a cell per capability (astar_clearance_memory). A derived grid is an
** ordinary astar_grid of the same size (about 2.25 bytes a cell, plus 4 with
** terrain). Threads: the object is read-only during fills, lookups and path
** checks; updates need exclusive access.
*/
#ifndef ASTAR_CLEARANCE_H
#define ASTAR_CLEARANCE_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_CLEARANCE_MAX 255    /* largest clearance stored (and largest unit side) */
#define ASTAR_CLEARANCE_MAX_CAPS 8 /* most capabilities one object is built for */
#define ASTAR_TERRAIN_TYPES 32     /* type numbers are 0 .. ASTAR_TERRAIN_TYPES - 1 */

/* The terrain types the map parsers know. Callers may use any number below
** ASTAR_TERRAIN_TYPES for their own types. */
typedef enum astar_terrain_type {
  ASTAR_TYPE_GROUND = 0, /* Moving AI '.' and 'G'; ASCII '.', ' ', digits, 'S', 'G' */
  ASTAR_TYPE_SWAMP = 1,  /* Moving AI 'S' (passable in the benchmark) */
  ASTAR_TYPE_WATER = 2,  /* 'W' (blocked in the benchmark's grid) */
  ASTAR_TYPE_TREES = 3,  /* 'T' (blocked in the benchmark's grid) */
  ASTAR_TYPE_WALL = 4    /* '@', 'O', '#': out of bounds, for no unit */
} astar_terrain_type;

/* A set of terrain types: bit t set = type t may be entered. */
typedef uint32_t astar_capability;
/* The set {t}. UINT32_C(1) has astar_capability's type, so the macro needs
** no cast (a C cast would warn in C++ under -Wold-style-cast). */
#define ASTAR_CAPABILITY(t) (UINT32_C(1) << (t))
/* Ground and swamp: exactly the cells the Moving AI benchmark lets a unit enter. */
#define ASTAR_CAPABILITY_WALKER                                                                    \
  (ASTAR_CAPABILITY(ASTAR_TYPE_GROUND) | ASTAR_CAPABILITY(ASTAR_TYPE_SWAMP))
/* Every type: only the grid's passability counts. */
#define ASTAR_CAPABILITY_ALL UINT32_MAX

/*
** Fill types[y * width + x] with the terrain type of every cell of the map
** text `text` (len bytes), which must be the text `grid` was parsed from by
** astar_parse_map, astar_movingai_parse_map or astar_ascii_parse_map: it is
** not re-validated, only located (the Moving AI rows follow the "map" line;
** ASCII rows are the non-comment lines from the first non-empty one).
** Characters: see astar_terrain_type; any other character reads as
** ASTAR_TYPE_GROUND. No allocation.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (a NULL pointer); ASTAR_BUFFER_TOO_SMALL
** (cap < width * height: nothing written); ASTAR_MISMATCH (the text has fewer
** rows, or shorter rows, than the grid: not the grid's text).
*/
ASTAR_API astar_status astar_terrain_types_parse(const char *text, size_t len,
                                                 const astar_grid *grid, uint8_t *types,
                                                 size_t cap);

/*
** Make passable every cell of `grid` whose type (types[y * width + x],
** width * height entries) is in `capability` -- for example the 'W' cells a
** boat may enter, which the Moving AI loader blocked. Cells of other types
** are left as they are. Plain searches on the grid then see those cells as
** passable too. O(cells), no allocation.
** Returns ASTAR_OK or ASTAR_INVALID_ARGUMENT (grid or types NULL).
*/
ASTAR_API astar_status astar_terrain_open(astar_grid *grid, const uint8_t *types,
                                          astar_capability capability);

/* A clearance object. Retains: nothing (the types are copied, the grid is
** read during each call only and its version recorded). Thread safety:
** read-only during fills, lookups and path checks (any number of threads,
** each filling its own derived grid); astar_clearance_update,
** _update_cells and _set_type need exclusive access. */
typedef struct astar_clearance astar_clearance;

/*
** Compute the clearance of every cell of `grid` for each capability in
** caps[0 .. ncaps-1] (distinct masks, 1 <= ncaps <= ASTAR_CLEARANCE_MAX_CAPS),
** capped at max_size (1 .. ASTAR_CLEARANCE_MAX; a smaller cap makes
** astar_clearance_update_cells cheaper). `types` (width * height entries,
** row-major, each < ASTAR_TERRAIN_TYPES) is copied; NULL means every cell is
** ASTAR_TYPE_GROUND. caps NULL with ncaps 0 means one capability,
** ASTAR_CAPABILITY_ALL. The grid is not retained; its version is recorded.
** `alloc` may be NULL (malloc). Allocates (1 + ncaps) bytes a padded cell.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out or grid NULL, ncaps or
** max_size out of range, a repeated capability, a type >= ASTAR_TERRAIN_TYPES)
** or ASTAR_NO_MEMORY. On failure *out is NULL.
*/
ASTAR_API astar_status astar_clearance_new(astar_clearance **out, const astar_grid *grid,
                                           const uint8_t *types, const astar_capability *caps,
                                           size_t ncaps, int32_t max_size,
                                           const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_clearance_free(astar_clearance *c);

/* True when `grid` has the object's dimensions and has not changed since the
** clearance was (re)built. */
ASTAR_API bool astar_clearance_current(const astar_clearance *c, const astar_grid *grid);

/*
** Rebuild everything after the grid changed: O(cells * ncaps), no
** allocation. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL) or
** ASTAR_MISMATCH (another size of grid).
*/
ASTAR_API astar_status astar_clearance_update(astar_clearance *c, const astar_grid *grid);

/*
** Incremental update: `cells` (n of them) must list every cell whose
** passability changed since the clearance was last current (a cell may
** repeat). From each, the change is followed up and left through the values
** it changes, and no further: a cell costs about the number of values that
** change (at most max_size^2 per capability; one edit on 256- to 512-wide
** Moving AI maps, two capabilities: ~1 us with max_size 8, 6-33 us with 255,
** against 1.4-10 ms for a rebuild). More than width * height
** / 16 cells: one full rebuild instead.
** Listing too few cells leaves wrong values that astar_clearance_current
** cannot detect. No allocation. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT
** (NULL, or cells NULL with n > 0), ASTAR_MISMATCH (another size of grid) or
** ASTAR_OUT_OF_BOUNDS (a cell outside the grid; nothing changed).
*/
ASTAR_API astar_status astar_clearance_update_cells(astar_clearance *c, const astar_grid *grid,
                                                    const astar_point *cells, size_t n);

/*
** Change the terrain type of (x, y) and update the clearance around it (as
** astar_clearance_update_cells for one cell). The clearance must be current
** for `grid`. No allocation. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL,
** or type >= ASTAR_TERRAIN_TYPES), ASTAR_MISMATCH, ASTAR_STALE (the grid
** changed: update first; nothing changed) or ASTAR_OUT_OF_BOUNDS.
*/
ASTAR_API astar_status astar_clearance_set_type(astar_clearance *c, const astar_grid *grid,
                                                int32_t x, int32_t y, uint8_t type);

/* Terrain type of (x, y); 0 outside the grid or for c NULL. O(1). */
ASTAR_API uint8_t astar_clearance_type(const astar_clearance *c, int32_t x, int32_t y);

/* Clearance of (x, y) for `capability` (one of the masks the object was
** built for): 0 .. max_size, 0 outside the grid; -1 when c is NULL or the
** capability was not built. O(ncaps). */
ASTAR_API int32_t astar_clearance_at(const astar_clearance *c, int32_t x, int32_t y,
                                     astar_capability capability);

/* Does a size x size unit of `capability` fit with its anchor at (x, y)?
** False also for an unknown capability or size out of 1 .. max_size. */
ASTAR_API bool astar_clearance_fits(const astar_clearance *c, int32_t x, int32_t y, int32_t size,
                                    astar_capability capability);

/* The max_size the object was built with (0 for NULL). */
ASTAR_API int32_t astar_clearance_max_size(const astar_clearance *c);

/* Bytes the object holds from its allocator. */
ASTAR_API size_t astar_clearance_memory(const astar_clearance *c);

/*
** Write into `out` (an existing grid of the same size as `grid`; not `grid`
** itself) the derived grid of a size x size unit of `capability`: cell p
** passable when the unit fits with its anchor at p; when `grid` has a
** terrain layer, the factor of p is the largest factor of the footprint's
** cells inside the grid (see the top of this file), else `out` gets no
** terrain layer. Any search of astar/search.h, astar/jps_plus.h or the
** engine on `out` then finds paths of the unit's anchor. O(cells * size)
** (terrain) or O(cells). `out`'s version increases, so objects built on it
** (islands, JPS+ tables) must be rebuilt. Allocates only `out`'s terrain
** layer, from out's allocator, when `grid` has one and `out` has not.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (a NULL, out == grid, size out of
** 1 .. max_size, a capability not built), ASTAR_MISMATCH (grid or out of
** another size than the object), ASTAR_STALE (the clearance is not current
** for grid) or ASTAR_NO_MEMORY (out is then all blocked).
*/
ASTAR_API astar_status astar_clearance_fill_grid(const astar_clearance *c, const astar_grid *grid,
                                                 int32_t size, astar_capability capability,
                                                 astar_grid *out);

/*
** One search for a size x size unit of `capability`: astar_clearance_fill_grid
** into `scratch`, then astar_find_path(ws, scratch, opt, start, goal, path,
** cap, result) -- so opt->algorithm may be A* or JPS (JPS when the grid has
** no terrain, as always). start and goal are anchors; the path is the
** anchor's. Filling costs O(cells) a call: for many queries of one unit
** type, fill a derived grid once and search it directly. opt->islands and
** JPS+ tables would have to be built on the derived grid: leave them out.
** No allocation except as in astar_clearance_fill_grid.
** Returns what astar_clearance_fill_grid returns when that fails, otherwise
** what astar_find_path returns (ASTAR_START_BLOCKED / ASTAR_GOAL_BLOCKED:
** the unit does not fit there).
*/
ASTAR_API astar_status astar_clearance_find_path(astar_workspace *ws, const astar_clearance *c,
                                                 const astar_grid *grid, astar_grid *scratch,
                                                 const astar_options *opt, int32_t size,
                                                 astar_capability capability, astar_point start,
                                                 astar_point goal, astar_point *path, size_t cap,
                                                 astar_result *result);

/*
** Check that the anchor path path[0 .. n-1] is a legal walk of a size x size
** unit of `capability` on `grid` under opt's moves and corner rule (opt NULL:
** defaults): at every step the whole footprint is traversable, consecutive
** anchors are adjacent, and a diagonal step's corner cells obey the corner
** rule (see the top of this file). On success *cost (if not NULL) is the sum
** of the step costs -- the move's cost times the footprint's largest terrain
** factor -- plus opt->turn_penalty per change of direction, equal to
** astar_path_cost on the derived grid. No allocation.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (NULL pointers, n == 0, a bad
** size or capability, or a bad path: then *bad_index, if not NULL, is the
** index of the first offending anchor); ASTAR_MISMATCH (another size of
** grid); ASTAR_STALE (the clearance is not current for grid).
*/
ASTAR_API astar_status astar_clearance_path_cost(const astar_clearance *c, const astar_grid *grid,
                                                 const astar_options *opt, int32_t size,
                                                 astar_capability capability,
                                                 const astar_point *path, size_t n, double *cost,
                                                 size_t *bad_index);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_CLEARANCE_H */
