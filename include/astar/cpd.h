/*
** astar/cpd.h -- a compressed path database (CPD): the optimal first move
** from every passable cell to every other, run-length compressed (Strasser,
** Botea & Harabor, "Compressing Optimal Paths with Run Length Encoding",
** JAIR 2015). A query runs no search: it looks up the first move, steps,
** and repeats until the goal -- a word per cell holds a row of up to three
** runs itself, and larger rows are cut by target ranges (about two runs
** each) so the lookup searches only the goal's range. A lookup's move is
** followed several steps at once where the table proves it optimal (each
** run carries a jump cap, see astar_cpd_lookups), so a path reads fewer
** rows than it has cells: on an open area two (straight, then diagonal).
**
** Nodes are the passable cells, numbered in depth-first preorder (from the
** passable cells in row-major order, neighbours in the direction order
** N E S W NE SE SW NW), so cells near each other get near numbers and the
** rows compress well. The row of a source s lists, for the targets in node
** order, runs (first target, move, jump cap): every target from a run's
** first one to the next run's first one is reached optimally by that first
** move. Each run takes 4 bytes. Building runs one Dijkstra per source:
** quadratic in the passable cells, 35 to 95 ns of CPU per node and source
** on one core (den520d, 28,178 cells: about 30 s of CPU; 240,000 cells:
** over an hour); split the sources into blocks (astar_cpd_block_build) to
** spread it over threads or machines, then join the blocks
** (astar_cpd_assemble): the result is byte-for-byte that of astar_cpd_build.
**
** Rules: the Moving AI grid -- 8 moves, no corner cutting
** (ASTAR_CORNER_NO_CUT), straight cost 1, diagonal cost sqrt 2 (the
** defaults of astar_options), no terrain layer. Costs are compared exactly
** (a path costs a + b sqrt 2 with integer step counts a and b), so the first
** moves are those of the truly optimal paths. Ties between optimal first
** moves go to the direction that keeps the run going with the longest
** jumps, then the lowest direction number.
**
** Like JPS+, a CPD is valid only while its grid does not change: a query on
** a changed grid returns ASTAR_STALE, on another grid object ASTAR_MISMATCH.
** Determinism: the same grid gives the same table and the same saved bytes
** on every platform, whatever the block split.
*/
#ifndef ASTAR_CPD_H
#define ASTAR_CPD_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A compressed path database. Retains: the address of the grid it was
** built or loaded for, as that grid's identity (compared with the grid
** each query names, never read through): free the CPD with its grid, since
** a new grid allocated at a freed one's address would pass the check.
** Thread safety: read-only once built -- any number of threads may query it
** at once (a query needs no workspace). */
typedef struct astar_cpd astar_cpd;

/* The rows of a range of sources, as bytes (astar_cpd_block_build).
** Retains: nothing (the grid and the progress callback are used during the
** build only). Thread safety: read-only once built; blocks of one grid may
** be built at once from several threads. */
typedef struct astar_cpd_block astar_cpd_block;

/*
** Progress of a build: called after every 64 sources and after the last,
** with `done` sources finished out of `total` (of this call: a block's
** count, or every passable cell). Return false to stop the build (it then
** returns ASTAR_STOPPED). Called from the thread running the build.
*/
typedef bool (*astar_cpd_progress_fn)(void *ud, uint32_t done, uint32_t total);

typedef struct astar_cpd_config {
  const astar_options *rules;     /* movement rules (NULL: the defaults); checked against the
                                     CPD's rules above, ASTAR_UNSUPPORTED when they differ */
  uint64_t memory_limit;          /* bytes the build may hold at once; 0: no limit */
  astar_cpd_progress_fn progress; /* NULL: no reports, never stopped */
  void *progress_ud;              /* handed back to progress unchanged */
} astar_cpd_config;

/* Defaults: default rules, no memory limit, no progress callback. */
ASTAR_API void astar_cpd_config_init(astar_cpd_config *cfg);

/*
** Why a CPD cannot be built for `grid` under `rules` (NULL: defaults), as
** one English sentence without a final period naming the offending option,
** or NULL when it can. Static storage, no allocation.
*/
ASTAR_API const char *astar_cpd_unsupported_reason(const astar_grid *grid,
                                                   const astar_options *rules);

/*
** The number of sources (passable cells) of `grid` into *count: the sources
** that blocks split, numbered 0 .. *count-1 in node order. O(cells), no
** allocation. ASTAR_OK or ASTAR_INVALID_ARGUMENT.
*/
ASTAR_API astar_status astar_cpd_sources(const astar_grid *grid, uint32_t *count);

/*
** Build the CPD of `grid`. `cfg` may be NULL (defaults), `alloc` NULL
** (malloc). Allocates the node tables (about 12 bytes per cell plus 16 per
** passable cell), the runs, the query's target ranges (2 bytes per passable
** cell and range: about half a run each, at most 65 a cell, none below 4
** runs a row; not in the memory_limit estimate, which is made before the
** runs exist), and while building about 10 bytes per cell
** (per padded cell, passable or not) plus the search's buckets. Returns
** ASTAR_OK; ASTAR_INVALID_ARGUMENT (NULL out or grid);
** ASTAR_UNSUPPORTED (see astar_cpd_unsupported_reason); ASTAR_TOO_LARGE
** when cfg->memory_limit is set and the memory needed exceeds it -- checked
** against an estimate before anything is allocated (the tables, the build
** workspace and one run a source), then again as the runs grow; more than
** 2^24 passable cells are always ASTAR_TOO_LARGE; ASTAR_STOPPED when
** cfg->progress returned false; ASTAR_NO_MEMORY. On failure *out = NULL and
** nothing is held.
*/
ASTAR_API astar_status astar_cpd_build(astar_cpd **out, const astar_grid *grid,
                                       const astar_cpd_config *cfg, const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_cpd_free(astar_cpd *cpd);

/* Bytes held from its allocator (0 for NULL). */
ASTAR_API size_t astar_cpd_bytes(const astar_cpd *cpd);

/* Its passable cells (nodes) and its runs in all rows (0 for NULL). */
ASTAR_API uint32_t astar_cpd_nodes(const astar_cpd *cpd);
ASTAR_API uint64_t astar_cpd_runs(const astar_cpd *cpd);

/*
** Serialise into buf[0 .. *len-1]: a portable little-endian format (magic
** "ASTARCPD", format version 2, the grid's dimensions and a checksum of its
** cells, the node and run counts, a checksum of the file, then every row's
** run count and the runs). With buf NULL or cap too small:
** ASTAR_BUFFER_TOO_SMALL and *len = the size needed. ASTAR_INVALID_ARGUMENT
** for NULL cpd or len. No allocation.
*/
ASTAR_API astar_status astar_cpd_save(const astar_cpd *cpd, void *buf, size_t cap, size_t *len);

/*
** Rebuild a CPD from bytes of astar_cpd_save, for `grid` (node numbers are
** derived from the grid again, in O(cells)). Format 1 (libastar 0.1, before
** the jump caps) still loads: its walk reads one row a step, as it did.
** ASTAR_PARSE_ERROR for malformed, truncated or damaged bytes (magic,
** version other than 1 or 2, sizes, the file checksum, and every run:
** starts increasing from 0, inside the node range, a legal move from its
** source); ASTAR_MISMATCH when the bytes belong to another grid (other
** dimensions or cells); ASTAR_UNSUPPORTED for a grid with terrain;
** ASTAR_INVALID_ARGUMENT for NULL arguments; ASTAR_NO_MEMORY. Allocates.
** A query on any loaded table is memory-safe and ends; a table crafted to
** pass the checksum can still give non-optimal paths, or ASTAR_PARSE_ERROR
** from a query that would loop or whose jump would meet a wall.
*/
ASTAR_API astar_status astar_cpd_load(astar_cpd **out, const astar_grid *grid, const void *buf,
                                      size_t len, const astar_allocator *alloc);

/*
** The optimal path from `start` to `goal`, both included, into
** path[0 .. *len-1], and its cost into *cost (may be NULL): straight steps
** + diagonal steps * sqrt 2, summed once at the end. Returns ASTAR_OK;
** ASTAR_BUFFER_TOO_SMALL (path NULL or cap too small: *len = cells needed,
** *cost set, path untouched beyond cap); ASTAR_NO_PATH (other component:
** *len = 0, *cost = 0); ASTAR_OUT_OF_BOUNDS, ASTAR_START_BLOCKED,
** ASTAR_GOAL_BLOCKED; ASTAR_MISMATCH (`grid` is not the grid object the
** CPD was built or loaded for); ASTAR_STALE (that grid changed since);
** ASTAR_PARSE_ERROR (a damaged loaded table made the walk loop);
** ASTAR_INVALID_ARGUMENT (NULL cpd, grid or len). start == goal gives a
** one-cell path. Reads `grid` (the steps of a jump are checked against its
** cells). No allocation, no workspace: safe from several threads at once.
*/
ASTAR_API astar_status astar_cpd_path(const astar_cpd *cpd, const astar_grid *grid,
                                      astar_point start, astar_point goal, astar_point *path,
                                      size_t cap, size_t *len, double *cost);

/*
** Like astar_cpd_path without the cells: *cost (may be NULL) and *steps
** (moves, may be NULL) of the optimal path. Same statuses but never
** ASTAR_BUFFER_TOO_SMALL. No allocation.
*/
ASTAR_API astar_status astar_cpd_distance(const astar_cpd *cpd, const astar_grid *grid,
                                          astar_point start, astar_point goal, double *cost,
                                          size_t *steps);

/*
** Like astar_cpd_distance, for measuring the walk: *steps (may be NULL) of
** the optimal path and *lookups (may be NULL), the rows it read -- one a
** step without jumps, fewer when a lookup's move is followed several steps
** at once (see the jumps above). Same statuses as astar_cpd_distance. No
** allocation.
*/
ASTAR_API astar_status astar_cpd_lookups(const astar_cpd *cpd, const astar_grid *grid,
                                         astar_point start, astar_point goal, size_t *steps,
                                         size_t *lookups);

/* ---- building in blocks (threads, machines) ------------------------------ */

/*
** Build the rows of sources first .. first+count-1 (node numbers, see
** astar_cpd_sources) as a block: its bytes (astar_cpd_block_data) are what
** astar_cpd_assemble takes, so they can be sent between processes. `cfg`
** and `alloc` as for astar_cpd_build (progress counts this block's
** sources; the memory limit applies to this call). count == 0 is allowed.
** Returns the statuses of astar_cpd_build, and ASTAR_OUT_OF_BOUNDS when
** first + count exceeds the number of sources. Several blocks of one grid
** may be built at once from different threads (the grid is only read).
*/
ASTAR_API astar_status astar_cpd_block_build(astar_cpd_block **out, const astar_grid *grid,
                                             const astar_cpd_config *cfg, uint32_t first,
                                             uint32_t count, const astar_allocator *alloc);

/*
** The block's bytes (portable, little-endian, magic "ASTARCPB": the grid's
** fingerprint, first, count, the rows' run counts and runs, a checksum),
** valid until astar_cpd_block_free; *len receives their length. NULL block:
** NULL and *len = 0. No allocation.
*/
ASTAR_API const void *astar_cpd_block_data(const astar_cpd_block *block, size_t *len);

/* Release it. NULL is allowed. */
ASTAR_API void astar_cpd_block_free(astar_cpd_block *block);

/*
** Join blocks (bytes of astar_cpd_block_data, nblocks of them, data[i] of
** lens[i] bytes, in any order) into the CPD of `grid`. The blocks must
** cover every source exactly once. ASTAR_PARSE_ERROR for malformed or
** damaged block bytes, or blocks that overlap or leave sources out;
** ASTAR_MISMATCH for a block of another grid; ASTAR_UNSUPPORTED (terrain);
** ASTAR_INVALID_ARGUMENT for NULL arguments; ASTAR_NO_MEMORY. Allocates.
** The result equals astar_cpd_build's, byte for byte once saved.
*/
ASTAR_API astar_status astar_cpd_assemble(astar_cpd **out, const astar_grid *grid,
                                          const void *const *data, const size_t *lens,
                                          size_t nblocks, const astar_allocator *alloc);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_CPD_H */
