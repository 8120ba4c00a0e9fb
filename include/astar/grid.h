/*
** astar/grid.h -- the square-grid map: passable / blocked cells and an
** optional per-cell terrain cost.
**
** A grid is a shareable, read-mostly object: any number of threads may search
** the same grid at once (each with its own astar_workspace, see
** astar/search.h) as long as no thread modifies it meanwhile. Modifying calls
** (set_*, clear_*) need exclusive access.
**
** Size limits: 1 <= width, height <= ASTAR_GRID_MAX_SIDE and
** width * height <= ASTAR_GRID_MAX_CELLS. Memory: about 2.25 bytes per cell
** (a passability byte, a neighbour byte, and passability bits by row and by
** column for scanning searches), plus 4 bytes per cell once a terrain layer
** exists (astar_grid_memory()).
*/
#ifndef ASTAR_GRID_H
#define ASTAR_GRID_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_GRID_MAX_SIDE 32768       /* largest width or height */
#define ASTAR_GRID_MAX_CELLS (1u << 28) /* largest width * height (16384^2) */
#define ASTAR_TERRAIN_MAX 1.0e9f        /* largest terrain cost accepted */

/*
** The grid. Retains: nothing (its allocator only). Objects built from it
** may retain it: each says so. Thread safety: read-only during searches and
** every other call taking it as const -- any number of threads may read and
** search it at once; the modifying calls (set_*, fill, clear_terrain,
** track_changes) need exclusive access: no other thread may use it
** meanwhile.
*/
typedef struct astar_grid astar_grid;

/*
** Create a width x height grid with every cell passable and no terrain layer
** (every terrain cost 1). `alloc` may be NULL (malloc); it is copied, and the
** grid uses it for its whole life. Allocates.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out is NULL, or a side < 1),
** ASTAR_TOO_LARGE (a side or the cell count beyond the limits above) or
** ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_grid_new(astar_grid **out, int32_t width, int32_t height,
                                      const astar_allocator *alloc);

/* Release the grid and everything it owns. NULL is allowed. Workspaces used
** with it are independent objects and stay valid. */
ASTAR_API void astar_grid_free(astar_grid *grid);

/* Independent copy of `grid` (cells and terrain), using `alloc` (NULL: malloc)
** for the copy. Allocates. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT or
** ASTAR_NO_MEMORY. */
ASTAR_API astar_status astar_grid_clone(astar_grid **out, const astar_grid *grid,
                                        const astar_allocator *alloc);

ASTAR_API int32_t astar_grid_width(const astar_grid *grid);  /* columns */
ASTAR_API int32_t astar_grid_height(const astar_grid *grid); /* rows */

/* True if (x, y) lies inside the grid. */
ASTAR_API bool astar_grid_contains(const astar_grid *grid, int32_t x, int32_t y);

/* Passability of (x, y); cells outside the grid read as blocked. */
ASTAR_API bool astar_grid_passable(const astar_grid *grid, int32_t x, int32_t y);

/* Make (x, y) passable or blocked. O(1), no allocation.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (grid NULL) or ASTAR_OUT_OF_BOUNDS. */
ASTAR_API astar_status astar_grid_set_passable(astar_grid *grid, int32_t x, int32_t y,
                                               bool passable);

/* Set every cell passable (true) or blocked (false). O(cells), no allocation. */
ASTAR_API astar_status astar_grid_fill(astar_grid *grid, bool passable);

/*
** Terrain cost of entering (x, y): a move into the cell costs the move's cost
** (straight or diagonal, see astar_options) times this factor. The value must
** be finite and in (0, ASTAR_TERRAIN_MAX]. The first call that sets a value
** other than 1 allocates the terrain layer (4 bytes a cell) and may return
** ASTAR_NO_MEMORY; later calls do not allocate.
** Costs below 1 are allowed: the built-in heuristics are scaled by the
** smallest terrain cost on the grid (astar_grid_min_terrain), so they stay
** admissible. Keeping that minimum up to date is O(1), except that raising
** the last cell holding the minimum rescans the layer (O(cells)).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (grid NULL or bad cost),
** ASTAR_OUT_OF_BOUNDS or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_grid_set_terrain(astar_grid *grid, int32_t x, int32_t y, float cost);

/* Terrain cost of (x, y); 1 where no layer exists; 0 outside the grid. */
ASTAR_API float astar_grid_terrain(const astar_grid *grid, int32_t x, int32_t y);

/* True once a terrain layer exists (some cost was set to a value other than 1). */
ASTAR_API bool astar_grid_has_terrain(const astar_grid *grid);

/* Smallest terrain cost of any cell (1 without a layer). */
ASTAR_API float astar_grid_min_terrain(const astar_grid *grid);

/* Drop the terrain layer: every cost back to 1, its memory released. */
ASTAR_API void astar_grid_clear_terrain(astar_grid *grid);

/* Number of passable cells. O(cells). */
ASTAR_API size_t astar_grid_count_passable(const astar_grid *grid);

/* A counter that every change of a cell's passability or terrain increases
** by exactly one (setting a cell to what it already is changes nothing);
** whole-grid operations (astar_grid_fill, astar_grid_clear_terrain)
** increase it by one too. A new grid starts at 0. Objects derived from a
** grid (precomputed data, planners, cached paths) record it to detect that
** they are stale. */
ASTAR_API uint64_t astar_grid_version(const astar_grid *grid);

/*
** Change tracking. With tracking on, the grid keeps its most recent
** changes in a ring of fixed capacity: one entry per cell change, in the
** order made. An edit batch is whatever changed between two versions a
** reader saw: a planner or a watch index remembers the version it last
** read and asks for the changes since. Cost: one entry written per change
** (no allocation once tracking is on); reading n changes is O(n).
*/
typedef struct astar_cell_change {
  uint64_t version;  /* the grid's version right after this change */
  int32_t x;         /* the cell's column */
  int32_t y;         /* the cell's row */
  float old_terrain; /* entry cost factor before the change (1 without a layer) */
  float new_terrain; /* entry cost factor after it */
  bool was_passable; /* passability before the change */
  bool passable;     /* passability after it */
} astar_cell_change;

/* Keep the last `capacity` cell changes from now on (0 turns tracking off
** and frees the ring). Changes made before the call are not in the log.
** Allocates the ring (sizeof(astar_cell_change) bytes an entry) from the
** grid's allocator; a new capacity replaces the ring and forgets its
** entries. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (grid NULL) or
** ASTAR_NO_MEMORY (tracking then unchanged). */
ASTAR_API astar_status astar_grid_track_changes(astar_grid *grid, size_t capacity);

/* Capacity of the change ring (0 when changes are not tracked). */
ASTAR_API size_t astar_grid_change_capacity(const astar_grid *grid);

/*
** The cell changes made after version `since`, oldest first, into
** buf[0 .. *len-1]; *len = astar_grid_version(grid) - since. The same cell
** may appear more than once (each entry is one change; the last one holds
** its current state). Never allocates.
** Returns ASTAR_OK; ASTAR_BUFFER_TOO_SMALL (*len = the number needed,
** nothing written); ASTAR_STALE when the log does not reach back to
** `since` -- tracking was off, the ring has overwritten them, or a
** whole-grid operation came after `since` -- so the reader must treat
** every cell as changed (rebuild); ASTAR_INVALID_ARGUMENT (grid or len
** NULL, buf NULL with cap > 0, or `since` beyond the current version).
*/
ASTAR_API astar_status astar_grid_changes(const astar_grid *grid, uint64_t since,
                                          astar_cell_change *buf, size_t cap, size_t *len);

/* Bytes the grid currently holds from its allocator. */
ASTAR_API size_t astar_grid_memory(const astar_grid *grid);

/*
** Influence layers (Patel; seed 000 "influence maps"): extra per-cell costs
** such as danger, kept apart from the grid so that each player, unit type or
** moment can have its own. A search given layers (astar_options.layers)
** charges, for entering cell v, move cost x (terrain(v) + sum of
** weight_i * layer_i(v)). Values are finite and >= 0, so the heuristics stay
** admissible. A layer has the dimensions of the grid it is used with.
** Retains: nothing. Thread safety: read-only during searches (any number of
** threads may search with it at once); astar_layer_set / _fill / _add_cone
** need exclusive access -- no search may read it meanwhile.
*/
typedef struct astar_layer astar_layer;

/* A width x height layer of zeros. Allocates 4 bytes a cell. */
ASTAR_API astar_status astar_layer_new(astar_layer **out, int32_t width, int32_t height,
                                       const astar_allocator *alloc);
/* Release it. NULL is allowed. */
ASTAR_API void astar_layer_free(astar_layer *layer);
/* Set one value (finite, >= 0): ASTAR_OK, ASTAR_INVALID_ARGUMENT, ASTAR_OUT_OF_BOUNDS. */
ASTAR_API astar_status astar_layer_set(astar_layer *layer, int32_t x, int32_t y, float value);
/* The value at (x, y); 0 outside. */
ASTAR_API float astar_layer_get(const astar_layer *layer, int32_t x, int32_t y);
/* Every value to `value` (finite, >= 0). */
ASTAR_API astar_status astar_layer_fill(astar_layer *layer, float value);
/* Add a cone of influence: value * (1 - d / radius) at Euclidean distance
** d < radius from (x, y), clipped to the layer (a unit's threat, say).
** value finite >= 0, radius > 0. No allocation. */
ASTAR_API astar_status astar_layer_add_cone(astar_layer *layer, int32_t x, int32_t y, float radius,
                                            float value);
ASTAR_API int32_t astar_layer_width(const astar_layer *layer);
ASTAR_API int32_t astar_layer_height(const astar_layer *layer);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_GRID_H */
