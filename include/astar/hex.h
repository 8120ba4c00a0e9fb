/*
** astar/hex.h -- hexagonal grids: a map of hexagons with passable and
** blocked cells and a per-cell terrain cost, its coordinates (offset, axial,
** cube), the map as a search space for the engine (astar/engine.h) and an
** ASCII hex map format. Part of libastar.
**
** Shapes. Hexagons are pointy-topped (rows of hexagons, every other row
** shoved half a cell sideways) or flat-topped (columns, every other column
** shoved half a cell down). The map is stored in offset coordinates, as
** Amit Patel's "Hexagonal Grids" names them:
**   pointy, ASTAR_HEX_ODD   "odd-r":  odd rows shoved right
**   pointy, ASTAR_HEX_EVEN  "even-r": even rows shoved right
**   flat,   ASTAR_HEX_ODD   "odd-q":  odd columns shoved down
**   flat,   ASTAR_HEX_EVEN  "even-q": even columns shoved down
** A cell is an astar_point (x the column, y the row, (0, 0) the top left),
** its node id y * width + x. Axial coordinates (q, r) and cube coordinates
** (q, r, s = -q - r) name the same cells in a frame where the six
** neighbours are always the same six steps; they may be negative.
**
** Directions. Direction d (0..5) is the axial step astar_hex_direction(d):
**   d:      0        1        2        3        4        5
**   step:  (+1, 0)  (+1,-1)  (0,-1)   (-1, 0)  (-1,+1)  (0,+1)
**   pointy: E       NE       NW       W        SW       SE
**   flat:   SE      NE       N        NW       SW       S
** counter-clockwise on the screen (y down); the opposite of d is (d + 3) % 6.
** The space lists successors in this order.
**
** Costs. Moving into a cell costs its terrain factor (1 unless set), so a
** path costs the sum of the terrain of every cell it enters. The space's
** heuristic is the hex distance times the smallest terrain factor of the
** map: admissible and consistent.
**
** Sharing. A hex grid is read-only during searches: any number of threads
** may search it at once (each with its own workspace); the set_* calls need
** exclusive access.
**
** Size limits: 1 <= width, height <= ASTAR_HEX_MAX_SIDE and
** width * height <= ASTAR_HEX_MAX_CELLS. Memory: 5 bytes a cell (with a
** one-cell border).
*/
#ifndef ASTAR_HEX_H
#define ASTAR_HEX_H

#include "base.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_HEX_MAX_SIDE 32768       /* largest width or height */
#define ASTAR_HEX_MAX_CELLS (1u << 28) /* largest width * height */
#define ASTAR_HEX_TERRAIN_MAX 1.0e9f   /* largest terrain factor accepted */

/* Which way the hexagons point. */
typedef enum astar_hex_orientation {
  ASTAR_HEX_POINTY = 0, /* a corner on top: rows of hexagons */
  ASTAR_HEX_FLAT        /* an edge on top: columns of hexagons */
} astar_hex_orientation;

/* Which rows (pointy) or columns (flat) are shoved by half a cell. */
typedef enum astar_hex_layout {
  ASTAR_HEX_ODD = 0, /* odd-r / odd-q */
  ASTAR_HEX_EVEN     /* even-r / even-q */
} astar_hex_layout;

/* Axial coordinates of a hexagon. */
typedef struct astar_hex_axial {
  int32_t q; /* column-like axis */
  int32_t r; /* row-like axis */
} astar_hex_axial;

/* Cube coordinates: q + r + s == 0. */
typedef struct astar_hex_cube {
  int32_t q, r, s;
} astar_hex_cube;

/*
** Coordinates. Pure functions of the shape (no grid needed); an
** orientation other than ASTAR_HEX_FLAT reads as pointy and a layout other
** than ASTAR_HEX_EVEN as odd. Exact while the results fit in int32 (any
** cell of a grid within the size limits, and far beyond); beyond that the
** values wrap (never undefined behaviour). No allocation.
*/

/* Offset cell (x column, y row) to axial, and back. */
ASTAR_API astar_hex_axial astar_hex_offset_to_axial(astar_hex_orientation orientation,
                                                    astar_hex_layout layout, astar_point cell);
ASTAR_API astar_point astar_hex_axial_to_offset(astar_hex_orientation orientation,
                                                astar_hex_layout layout, astar_hex_axial hex);

/* Axial to cube (s = -q - r), and back (s is ignored). */
ASTAR_API astar_hex_cube astar_hex_axial_to_cube(astar_hex_axial hex);
ASTAR_API astar_hex_axial astar_hex_cube_to_axial(astar_hex_cube cube);

/* Number of steps between two hexagons: (|dq| + |dr| + |ds|) / 2. Exact for
** every pair of int32 coordinates. */
ASTAR_API int64_t astar_hex_distance(astar_hex_axial a, astar_hex_axial b);

/* The axial step of direction d (the table at the top); d is taken modulo 6,
** so any int is a direction. */
ASTAR_API astar_hex_axial astar_hex_direction(int d);

/* The offset cell next to `cell` in direction d (modulo 6); it may lie
** outside any grid. */
ASTAR_API astar_point astar_hex_neighbor(astar_hex_orientation orientation, astar_hex_layout layout,
                                         astar_point cell, int d);

/*
** Centre of `cell` on a picture where hexagons have circumradius 1 (centre
** to corner) and neighbouring centres are sqrt(3) apart, into xy[0] (right)
** and xy[1] (down). The cells of a width x height map lie inside
** [0, sqrt(3) (width + 1/2)] x [0, 1.5 height + 1/2] (pointy) or
** [0, 1.5 width + 1/2] x [0, sqrt(3) (height + 1/2)] (flat). Corners, for
** drawing: centre + (cos a, sin a) for a = 30 + 60 k degrees (pointy) or
** 60 k degrees (flat), k = 0..5.
*/
ASTAR_API void astar_hex_center(astar_hex_orientation orientation, astar_hex_layout layout,
                                astar_point cell, double xy[2]);

/* ---- the grid ------------------------------------------------------------ */

/* A hex grid. Retains: nothing (its allocator only); spaces taken from it
** (astar_hex_space) refer to it. Thread safety: read-only during searches
** (any number of threads at once); the set_* calls need exclusive access
** (see "Sharing" above). */
typedef struct astar_hex_grid astar_hex_grid;

/*
** Create a width x height hex grid of the given shape, every cell passable
** with terrain 1. `alloc` may be NULL (malloc); it is copied and used for
** the grid's whole life. Allocates three blocks (about 5 bytes a cell).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out NULL, a side < 1, an
** unknown orientation or layout), ASTAR_TOO_LARGE (beyond the size limits)
** or ASTAR_NO_MEMORY; on failure *out is NULL (when out is not NULL) and
** nothing leaks.
*/
ASTAR_API astar_status astar_hex_grid_new(astar_hex_grid **out, int32_t width, int32_t height,
                                          astar_hex_orientation orientation,
                                          astar_hex_layout layout, const astar_allocator *alloc);

/* Release the grid. NULL is allowed. */
ASTAR_API void astar_hex_grid_free(astar_hex_grid *grid);

/* Size and shape (0 / ASTAR_HEX_POINTY / ASTAR_HEX_ODD for a NULL grid). */
ASTAR_API int32_t astar_hex_grid_width(const astar_hex_grid *grid);
ASTAR_API int32_t astar_hex_grid_height(const astar_hex_grid *grid);
ASTAR_API astar_hex_orientation astar_hex_grid_orientation(const astar_hex_grid *grid);
ASTAR_API astar_hex_layout astar_hex_grid_layout(const astar_hex_grid *grid);

/* True if (x, y) lies inside the grid (false for a NULL grid). */
ASTAR_API bool astar_hex_grid_contains(const astar_hex_grid *grid, int32_t x, int32_t y);

/* Passability of (x, y); cells outside read as blocked. */
ASTAR_API bool astar_hex_grid_passable(const astar_hex_grid *grid, int32_t x, int32_t y);

/* Make (x, y) passable or blocked. O(1), no allocation. Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (grid NULL) or ASTAR_OUT_OF_BOUNDS. */
ASTAR_API astar_status astar_hex_grid_set_passable(astar_hex_grid *grid, int32_t x, int32_t y,
                                                   bool passable);

/*
** Terrain factor of (x, y): entering the cell costs `cost`, finite and in
** (0, ASTAR_HEX_TERRAIN_MAX]. Blocked cells keep theirs for when they open.
** The smallest factor over all cells is kept up to date (the heuristic's
** scale): O(1), except that raising the last cell holding the minimum
** rescans the map (O(cells)). No allocation. Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (grid NULL, bad cost) or ASTAR_OUT_OF_BOUNDS.
*/
ASTAR_API astar_status astar_hex_grid_set_terrain(astar_hex_grid *grid, int32_t x, int32_t y,
                                                  float cost);

/* Terrain factor of (x, y); 0 outside the grid. */
ASTAR_API float astar_hex_grid_terrain(const astar_hex_grid *grid, int32_t x, int32_t y);

/* Smallest terrain factor of any cell (0 for a NULL grid). */
ASTAR_API float astar_hex_grid_min_terrain(const astar_hex_grid *grid);

/* Number of passable cells. O(cells). */
ASTAR_API size_t astar_hex_grid_count_passable(const astar_hex_grid *grid);

/* A counter that every change of passability or terrain increases (setting
** a cell to what it was does not): objects derived from a grid record it to
** notice that they are stale. 0 for a NULL grid. */
ASTAR_API uint64_t astar_hex_grid_version(const astar_hex_grid *grid);

/* Node id of (x, y) -- y * width + x -- or ASTAR_NODE_NONE outside. */
ASTAR_API astar_node astar_hex_grid_node(const astar_hex_grid *grid, astar_point cell);

/* Cell of a node id, or (-1, -1) for an id >= width * height. */
ASTAR_API astar_point astar_hex_grid_cell(const astar_hex_grid *grid, astar_node node);

/* ---- the grid as a search space ------------------------------------------ */

/*
** Fill *out with the grid as a space (astar/space.h) for the engine
** (astar/engine.h): node ids as astar_hex_grid_node; successors of a
** passable cell are its passable neighbours in direction order 0..5, each
** arc costing the terrain of the cell entered; predecessors the same arcs
** reversed; blocked cells have no arcs and are not usable as start or goal;
** heuristic hex distance x astar_hex_grid_min_terrain (flags ADMISSIBLE |
** CONSISTENT); position astar_hex_center (z 0); max_degree 6.
** *out refers to `grid`, which must outlive its use and stay unchanged while
** it is searched. No allocation. Returns ASTAR_OK or ASTAR_INVALID_ARGUMENT
** (a NULL argument).
*/
ASTAR_API astar_status astar_hex_space(const astar_hex_grid *grid, astar_space *out);

/* ---- the ASCII hex map format -------------------------------------------- */

/*
** Parse an ASCII hex map from memory into a new grid (allocated with
** `alloc`, NULL: malloc). The format:
**
**     ; a pointy-topped map, odd rows shoved right
**     hex pointy odd-r
**     . . # . G
**      . 3 # . .
**     S . . 2 .
**
** - The first line that is neither blank nor a comment is the header:
**   `hex pointy|flat [LAYOUT]`, LAYOUT odd-r or even-r for pointy maps,
**   odd-q or even-q for flat ones (default odd-r / odd-q).
** - Then one line per row, top first. Spaces and tabs are ignored (between
**   cells, and to indent the shoved rows so the text looks like the map);
**   every other character is a cell: '.' passable, '#' blocked, '1'..'9'
**   passable with that terrain factor, 'S' the start and 'G' the goal
**   (passable; at most one each). Every row has the same number of cells.
** - Blank lines and lines whose first non-blank character is ';' are
**   ignored anywhere. Line endings LF, CRLF or CR; the last newline is
**   optional. Keywords are case-sensitive.
** `start` and `goal` (either may be NULL) receive the 'S' and 'G' cells, or
** (-1, -1) when absent. The text need not be NUL-terminated.
**
** On failure *out is NULL, nothing leaks and *err (when not NULL) names the
** 1-based line and byte column and says what is wrong: ASTAR_PARSE_ERROR
** (no header, a bad keyword, orientation or layout, a layout of the other
** orientation, text after the header, no rows, an unknown cell character,
** a row with too few or too many cells -- the column of the first missing
** or first extra cell --, a second 'S' or 'G'), ASTAR_TOO_LARGE (a row
** wider than ASTAR_HEX_MAX_SIDE, more rows than that, or more than
** ASTAR_HEX_MAX_CELLS cells), ASTAR_NO_MEMORY (line 0) or
** ASTAR_INVALID_ARGUMENT (out NULL, or text NULL with len > 0; line 0).
** The text is validated before anything is allocated.
*/
ASTAR_API astar_status astar_hex_parse_map(astar_hex_grid **out, const char *text, size_t len,
                                           const astar_allocator *alloc, astar_point *start,
                                           astar_point *goal, astar_parse_error *err);

/* True if `text` looks like a hex map: its first line that is neither blank
** nor a comment starts with the word "hex". For tools that take several map
** formats. No allocation. */
ASTAR_API bool astar_hex_is_map(const char *text, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_HEX_H */
