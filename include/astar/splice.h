/*
** astar/splice.h -- repairing a path the map has broken (Patel 5.2, "path
** splicing"), and re-costing a path whose cells changed.
**
** A unit walks a path computed on an older map. After edits, some step
** ahead of it may have become illegal: it enters a blocked cell, or it is a
** diagonal whose side cell is now blocked under the corner rule. Instead of
** a whole new search from the unit to the goal, astar_path_splice searches
** only around the damage:
**
**   1. find the first illegal step p[j] -> p[j+1] at or after the unit's
**      position `pos`;
**   2. local endpoints: a = p[max(pos, j - before)] and b = p[min(n-1,
**      j + 1 + after)], with b pushed further along the path while it is
**      blocked (the goal blocked: ASTAR_GOAL_BLOCKED);
**   3. a bounded A* from a to b (at most max_expansions expansions);
**   4. Patel's length check: the detour is accepted only if its cost is at
**      most `max_ratio` times the NOMINAL cost of the piece p[a .. b] it
**      replaces -- the sum over its steps of the move cost (straight or
**      diagonal) times the entered cell's terrain factor, blocked cells
**      counted with their terrain as if open (a non-unit step counts as the
**      octile distance);
**   5. the detour replaces p[a .. b]; the scan goes on from b for the next
**      illegal step (several separate breaks are repaired one by one).
**
** If any local search fails (no path within the bound) or any detour fails
** the length check, the whole repair falls back to ONE full search from
** p[pos] to the goal with the caller's options -- so a repaired path is
** never worse than what the local checks promise, and a goal that the local
** window cannot reach is still found.
**
** The promise (tests/test_splice.c checks it on random maps and edits):
** the returned path is legal from p[pos] to the goal and its cost is
**   - optimal for the current map when it came from the full search (an
**     admissible heuristic and weight <= 1, as astar_find_path);
**   - when spliced: if the old path was optimal on the old map and the
**     edits only blocked cells or raised terrain factors of cells OFF the
**     old path (so prefix and suffix costs are unchanged), at most
**     max_ratio x the optimum on the new map (for max_ratio >= 1): every
**     detour costs at most max_ratio x the piece it replaces, and the new
**     optimum is at least the old path's cost.
**
** The bound of a local search is its expansion count only (no window
** rectangle): a detour around a wall of length L needs about L^2
** expansions, so the automatic bound grows with the replaced piece (see
** astar_splice_options.max_expansions). Searches run on the caller's
** workspace; nothing here allocates.
**
** Cost model: the one of astar_path_cost (move cost x terrain factor of the
** entered cell). Options that change it -- turn_penalty > 0, influence
** layers, knowledge (fog of war), terrain_scale != 1 -- are
** ASTAR_UNSUPPORTED: a spliced path's pieces would be costed differently
** from the searches that made them.
*/
#ifndef ASTAR_SPLICE_H
#define ASTAR_SPLICE_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the local searches and the length check. Start from
** astar_splice_options_init(). */
typedef struct astar_splice_options {
  size_t before;           /* cells of the old path kept back before the break: the
                              local search starts `before` steps before it (clamped
                              to the unit's position); default 4 */
  size_t after;            /* cells after the break where the local search ends
                              (clamped to the goal); default 8 (Patel's M) */
  uint64_t max_expansions; /* expansions allowed to each local search; 0 (default):
                              automatic, 32 x (cells of the replaced piece)^2, at
                              least 256 */
  double max_ratio;        /* length check: a detour may cost at most max_ratio x the
                              nominal cost of the piece it replaces; finite, >= 0
                              (0 never accepts a detour: always the full search);
                              default 1.5 */
  uint32_t max_splices;    /* local repairs per call before falling back to the full
                              search; 0: no limit (default 0) */
  bool no_fallback;        /* true: when splicing fails return ASTAR_NO_PATH (kind
                              ASTAR_REPAIR_GAVE_UP) instead of running the full search;
                              default false */
} astar_splice_options;

/* Defaults: before 4, after 8, automatic expansions, max_ratio 1.5, no limit
** on the number of splices, fallback on. */
ASTAR_API void astar_splice_options_init(astar_splice_options *sopt);

/* What astar_path_splice did. */
typedef enum astar_repair_kind {
  ASTAR_REPAIR_INTACT = 0, /* every step ahead was still legal: the path was copied */
  ASTAR_REPAIR_SPLICED,    /* one or more local detours were spliced in */
  ASTAR_REPAIR_FULL,       /* a full search from the unit's cell to the goal was run
                              (a local search or the length check failed, or
                              max_splices ran out) */
  ASTAR_REPAIR_GAVE_UP,    /* no path: the full search failed (its status is
                              returned), or splicing failed with no_fallback */
  ASTAR_REPAIR_BLOCKED     /* nothing searched: the unit's cell or the goal is
                              blocked (ASTAR_START_BLOCKED / ASTAR_GOAL_BLOCKED) */
} astar_repair_kind;

/* The result of astar_path_splice; always filled when given. */
typedef struct astar_repair {
  astar_repair_kind kind;   /* what happened */
  double cost;              /* cost of the returned path (astar_path_cost's model); 0
                               without a path */
  size_t length;            /* cells of the returned path, unit's cell and goal
                               included; the length needed on ASTAR_BUFFER_TOO_SMALL;
                               0 without a path */
  size_t first_break;       /* index in the old path of the first illegal step's origin
                               (the step p[i] -> p[i+1]); n - 1 when none */
  uint32_t splices;         /* detours spliced in (0 unless kind is SPLICED) */
  uint32_t local_searches;  /* local searches run, failed ones included */
  bool length_check_failed; /* a detour was found but failed the length check */
  uint64_t expanded;        /* expansions of every search of the call (local and full) */
  astar_status full_status; /* status of the full search when one ran, else ASTAR_OK */
} astar_repair;

/*
** Repair `path` (n >= 1 cells, start first, goal last) for a unit standing
** on path[pos], on the grid as it is now; the result -- from path[pos] to
** path[n-1] -- goes to buf[0 .. *len-1] (*len = rep->length). `path` and
** `buf` must not overlap. `opt` (NULL: defaults) are the searches' options
** (its max_expansions bounds the full search only; partial and retarget are
** ignored); `sopt` (NULL: defaults) the local bounds. `ws` must be reserved
** for `grid`; its last path is overwritten. `rep` may be NULL.
** Never allocates. Returns
**   ASTAR_OK                a path is in buf; rep->kind says how it was made;
**   ASTAR_BUFFER_TOO_SMALL  a path was found but needs *len > cap cells
**                           (buf[0 .. cap-1] may have been written); call
**                           again with more room (the searches re-run);
**   ASTAR_START_BLOCKED     path[pos] is blocked now (kind BLOCKED);
**   ASTAR_GOAL_BLOCKED      path[n-1] is blocked now (kind BLOCKED);
**   ASTAR_OUT_OF_BOUNDS     path[pos] or path[n-1] lies outside the grid;
**   ASTAR_NO_PATH           the full search found no path, or splicing
**                           failed with no_fallback (kind GAVE_UP);
**   ASTAR_LIMIT_REACHED     the full search ran out of opt->max_expansions;
**   ASTAR_UNSUPPORTED       opt has a turn penalty, layers, knowledge or
**                           terrain_scale != 1 (see the top of this file), or
**                           the full search cannot run with these options;
**   ASTAR_CAPACITY, ASTAR_STALE, ASTAR_MISMATCH  from the searches (workspace
**                           too small, stale or mismatched islands);
**   ASTAR_INVALID_ARGUMENT  NULL ws, grid, path or len; buf NULL with cap >
**                           0; n == 0; pos >= n; bad options (either set).
** *len is 0 on every status but ASTAR_OK and ASTAR_BUFFER_TOO_SMALL.
*/
ASTAR_API astar_status astar_path_splice(astar_workspace *ws, const astar_grid *grid,
                                         const astar_options *opt, const astar_splice_options *sopt,
                                         const astar_point *path, size_t n, size_t pos,
                                         astar_point *buf, size_t cap, size_t *len,
                                         astar_repair *rep);

/*
** Re-cost the part of `path` (n cells) ahead of a unit on path[pos]: the
** cost of path[pos .. n-1] on the grid as it is now -- after terrain edits
** say -- in astar_path_cost's model (turn penalty included). *first_break
** (may be NULL) receives the index i of the first step path[i] -> path[i+1]
** that is no longer a legal move (its target blocked or outside, not a unit
** step, a diagonal the corner rule now forbids), or n - 1 when there is
** none. A blocked path[pos] itself counts as a break at pos.
** Returns ASTAR_OK (the path ahead is legal, *cost its cost), ASTAR_STALE
** (it is broken at *first_break; *cost is 0) or ASTAR_INVALID_ARGUMENT
** (NULL grid, path or cost, n == 0, pos >= n, bad options). O(n - pos);
** no allocation.
*/
ASTAR_API astar_status astar_path_recost(const astar_grid *grid, const astar_options *opt,
                                         const astar_point *path, size_t n, size_t pos,
                                         double *cost, size_t *first_break);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_SPLICE_H */
