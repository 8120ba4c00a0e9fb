/*
** astar/jps_plus.h -- JPS+: Jump Point Search over precomputed jump
** distances (Rabin 2015), the fastest optimal search of the library on
** uniform-cost grids.
**
** The precomputation is an explicit object built from one grid: for every
** passable cell and each of the 8 directions, how far a jump goes and
** whether it ends at a jump point or at a wall. It stays valid only while
** the grid does not change: the object records astar_grid_version() and a
** search on a changed grid returns ASTAR_STALE (rebuild it, or load it
** again); a search on another grid object returns ASTAR_MISMATCH.
**
** Rules: 8 moves, no corner cutting (ASTAR_CORNER_NO_CUT), no terrain layer,
** straight <= diagonal < 2 * straight -- as for ASTAR_ALGO_JPS.
*/
#ifndef ASTAR_JPS_PLUS_H
#define ASTAR_JPS_PLUS_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A JPS+ table. Retains: the address of the grid it was built or loaded
** for, as that grid's identity (compared with the grid each search names,
** never read through): free the table with its grid, since a new grid
** allocated at a freed one's address would pass the check. Thread safety:
** read-only once built -- any number of threads may search with it at
** once (each with its own workspace), while its grid does not change. */
typedef struct astar_jps_plus astar_jps_plus;

/*
** Precompute the jump distances of `grid` (O(cells) time). `alloc` may be
** NULL (malloc). Allocates about 16 bytes per cell (astar_jps_plus_memory).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT, ASTAR_UNSUPPORTED (the grid has
** a terrain layer) or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_jps_plus_new(astar_jps_plus **out, const astar_grid *grid,
                                          const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_jps_plus_free(astar_jps_plus *pre);

/* Bytes held from its allocator. */
ASTAR_API size_t astar_jps_plus_memory(const astar_jps_plus *pre);

/*
** Serialise into buf[0 .. *len-1] (a portable little-endian format with a
** header, the grid's dimensions and a checksum of its cells). With buf NULL
** or cap too small: ASTAR_BUFFER_TOO_SMALL and *len = the size needed.
** No allocation.
*/
ASTAR_API astar_status astar_jps_plus_save(const astar_jps_plus *pre, void *buf, size_t cap,
                                           size_t *len);

/*
** Rebuild a precomputation from bytes made by astar_jps_plus_save, for
** `grid`. Checks the format, the dimensions, the file checksum and the cell
** checksum against `grid`, and that every jump stays inside the grid:
** ASTAR_PARSE_ERROR for malformed, truncated or damaged bytes,
** ASTAR_MISMATCH when they belong to another grid (other size or other
** cells), ASTAR_INVALID_ARGUMENT for NULL arguments. Allocates.
**
** Trust: a search on any loaded table is memory-safe. The entries are not
** re-derived (that costs as much as astar_jps_plus_new, and loading is
** meant to be cheaper than building), so bytes crafted to pass both 64-bit
** checksums could give wrong paths; accidental damage cannot pass them.
** For files from untrusted sources, call astar_jps_plus_verify once.
*/
ASTAR_API astar_status astar_jps_plus_load(astar_jps_plus **out, const astar_grid *grid,
                                           const void *buf, size_t len,
                                           const astar_allocator *alloc);

/*
** Check every entry of `pre` against the rule that builds it from `grid`:
** ASTAR_OK when the table is exactly what astar_jps_plus_new would make,
** ASTAR_PARSE_ERROR when an entry differs (the bytes it was loaded from were
** wrong), ASTAR_MISMATCH / ASTAR_STALE as for a search, or
** ASTAR_INVALID_ARGUMENT. Costs about as much as building. No allocation.
*/
ASTAR_API astar_status astar_jps_plus_verify(const astar_jps_plus *pre, const astar_grid *grid);

/*
** Search like astar_find_path, using the precomputation. `opt` may be NULL;
** opt->algorithm and opt->open_set are ignored. Besides the outcomes of
** astar_find_path: ASTAR_UNSUPPORTED when the options break the rules above,
** ASTAR_MISMATCH when `grid` is not the grid object `pre` was built for,
** ASTAR_STALE when that grid changed since (astar_grid_version). Never
** allocates. stats.expanded counts jump points. opt->observer sees the
** jump points and the cells each looked-up jump covers (astar/search.h).
*/
ASTAR_API astar_status astar_jps_plus_find_path(astar_workspace *ws, const astar_jps_plus *pre,
                                                const astar_grid *grid, const astar_options *opt,
                                                astar_point start, astar_point goal,
                                                astar_point *path, size_t cap,
                                                astar_result *result);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_JPS_PLUS_H */
