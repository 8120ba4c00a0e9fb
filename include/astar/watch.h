/*
** astar/watch.h -- watching the map for changes (Patel 5.3): which of many
** registered paths an edit batch affects.
**
** A game with thousands of units following paths cannot re-check every
** path after every edit. A watch index keeps, for every cell, the paths
** that depend on it -- the cells a path walks through, and the side cells
** of its diagonal steps under the corner rule it was planned with -- and
** reads the grid's change log (astar_grid_track_changes). A sync then costs
** O(changed cells + entries on them), not O(all paths): a path is reported
** when, since the last sync,
**   - a cell of the path was blocked (the path is broken) or its terrain
**     changed (the path's cost is different), or
**   - a side cell of one of its diagonal steps became blocked while the
**     path's corner rule needs that side passable (ASTAR_CORNER_NO_CUT,
**     and ASTAR_CORNER_ONE_SIDE, where a report means "one side closed":
**     the step is illegal only if the other side is closed too).
** A cell that opens up never breaks a path (a shorter one may exist: that
** is the recompute policy's business, not the watch's).
**
** Memory, fixed at creation: 4 bytes a cell, 20 bytes a watched cell
** (max_cells: the path cells plus up to two side cells a diagonal step),
** 16 bytes a path slot. Adding, removing and syncing never allocate. Not
** thread-safe: one owner (the game loop) updates it.
*/
#ifndef ASTAR_WATCH_H
#define ASTAR_WATCH_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A watch index. Retains: the grid given to astar_watch_new (its address
** is compared with the grid each sync names): it must outlive the index,
** as a new grid allocated at a freed one's address would pass as it; the
** paths are copied in. Thread safety: none -- one thread at a time (the
** game loop owns it); a sync reads the grid, which no thread may modify
** meanwhile. */
typedef struct astar_watch astar_watch; /* opaque */
typedef uint32_t astar_watch_id;        /* a registered path, 0 .. max_paths-1 */

/*
** A watch index over `grid` (remembered; it must outlive the index) for up
** to max_paths paths (1 .. 2^30) holding up to max_cells watched cells in
** all (>= 1). Starts at the grid's current version. Allocates (see the top
** of this file). The grid needs change tracking on for syncs to be
** incremental (otherwise every sync reports every path, ASTAR_STALE).
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (out or grid NULL, a limit out of
** range); ASTAR_NO_MEMORY. On failure *out is NULL.
*/
ASTAR_API astar_status astar_watch_new(astar_watch **out, const astar_grid *grid,
                                       uint32_t max_paths, size_t max_cells,
                                       const astar_allocator *alloc);

/* Release the index. NULL is allowed. */
ASTAR_API void astar_watch_free(astar_watch *w);

/*
** Register path[0 .. len-1] (len >= 1, cells inside the grid, consecutive
** cells neighbours or equal) as planned with `opt` (NULL: the defaults; its
** moves and corner rule decide which side cells are watched). *id gets the
** most recently freed id, else the lowest never used (deterministic). O(len),
** no allocation.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (NULL w, path or id, len 0, bad
** options, a step that is not a move); ASTAR_OUT_OF_BOUNDS (a cell outside
** the grid); ASTAR_CAPACITY (no free path slot, or not enough free cell
** entries: nothing registered).
*/
ASTAR_API astar_status astar_watch_add(astar_watch *w, const astar_options *opt,
                                       const astar_point *path, size_t len, astar_watch_id *id);

/* Unregister a path; its id becomes free. O(its watched cells).
** ASTAR_OK, ASTAR_INVALID_ARGUMENT (w NULL, id not registered). */
ASTAR_API astar_status astar_watch_remove(astar_watch *w, astar_watch_id id);

/* Replace path `id` by a new one (after a replan), keeping its id. On any
** error the old path stays registered. Statuses as astar_watch_add. */
ASTAR_API astar_status astar_watch_replace(astar_watch *w, astar_watch_id id,
                                           const astar_options *opt, const astar_point *path,
                                           size_t len);

/*
** The paths affected by the grid's changes since the last sync (or the
** creation), each id once, in the order their first affecting change was
** made (paths hit by the same change: the latest registered first), into
** ids[0 .. *len-1]; the index then moves to the grid's current
** version. A buffer of max_paths ids always suffices. No allocation.
** Returns ASTAR_OK; ASTAR_STALE (the grid's change log does not reach back
** -- tracking off, ring overwritten, a whole-grid operation: ids holds
** every registered path, in id order, and the index moves on);
** ASTAR_BUFFER_TOO_SMALL (*len = the number needed; nothing consumed);
** ASTAR_MISMATCH (not the grid the index was made for);
** ASTAR_INVALID_ARGUMENT (NULL w, grid or len, ids NULL with cap > 0).
*/
ASTAR_API astar_status astar_watch_sync(astar_watch *w, const astar_grid *grid, astar_watch_id *ids,
                                        size_t cap, size_t *len);

/* Registered paths now. */
ASTAR_API uint32_t astar_watch_count(const astar_watch *w);

/* Watched cell entries in use now (of max_cells). */
ASTAR_API size_t astar_watch_cells_used(const astar_watch *w);

/* Bytes the index holds from its allocator. */
ASTAR_API size_t astar_watch_memory(const astar_watch *w);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_WATCH_H */
