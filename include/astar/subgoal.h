/*
** astar/subgoal.h -- subgoal graphs: optimal grid paths over a small
** precomputed graph of obstacle corners (Uras, Hernandez and Koenig, "Subgoal
** Graphs for Optimal Pathfinding in Eight-Neighbor Grids", ICAPS 2013; Uras
** and Koenig, "Identifying Hierarchies for Fast Optimal Search", AAAI 2014:
** the N-level subgoal graphs of the GPPC 2014).
**
** Model.
**   - A subgoal is a passable cell at the convex corner of an obstacle: a
**     diagonal neighbour d of it is blocked while the two cells beside both
**     (the straight neighbours towards d) are passable.
**   - Two cells are h-reachable when a path between them has the octile
**     distance as its cost; the graph's arcs join subgoals that are
**     h-reachable with no other subgoal on the way (direct-h-reachable), so
**     an arc's cost is the octile distance of its ends and a path between
**     consecutive subgoals needs no search: it is the diagonal-first octile
**     path when that is free, otherwise the straight-first one.
**   - Levels (the N-level construction): level 1 is the simple subgoal graph
**     (SSG). Each further round takes the subgoals still at the top (fewest
**     top neighbours first, no two neighbours in one round) and lowers every
**     one whose removal keeps the distances between its top neighbours -- by
**     another path of no greater cost among the top subgoals, or by a new arc
**     between two of them: a free octile line when they are h-reachable at
**     exactly that cost, else a shortcut over the lowered subgoal (its cost
**     the sum of the two arcs, its path theirs, unpacked by the query) --
**     unless that would add more new arcs than it has; a lowered subgoal
**     keeps its arcs to its neighbours then at the top. levels = 2 is the
**     two-level graph (TSG). A query connects start and goal to the
**     subgoals direct-h-reachable from them and searches the top graph plus
**     what start and goal reach by arcs going up a level (skipping vertices
**     whose label a higher neighbour beats: stall on demand); the path is
**     optimal at every level count.
**
** Rules: 8 moves, no corner cutting (ASTAR_CORNER_NO_CUT), no terrain layer,
** straight <= diagonal < 2 * straight -- as for JPS and JPS+ (the GPPC rules
** with the default costs 1 and sqrt 2).
**
** Searches run through the finder (astar/finder.h): astar_finder_new_subgoal
** makes a finder of method ASTAR_METHOD_SUBGOAL ("subgoal") on a graph; the
** request queue, the batch, the tool, Python and npm reach it that way.
**
** Tie order (the same path on every run and platform): A* over the graph takes
** the smallest f, then the larger g, then the smaller subgoal index
** (subgoals are numbered in row-major order of their cells); between
** consecutive subgoals the path is diagonal-first when free, else
** straight-first. Costs are the grid searches' exact costs ("Exact ties",
** astar/search.h), so the reported cost equals astar_find_path's.
*/
#ifndef ASTAR_SUBGOAL_H
#define ASTAR_SUBGOAL_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A subgoal graph of one grid. Retains: the address of the grid it was
** built or loaded for, as that grid's identity (never read through; free the
** graph with its grid), and the grid's version then: after any edit of the
** grid a search returns ASTAR_STALE (build or load it again). Thread safety:
** read-only once built -- any number of threads may search with it at once,
** each with its own workspace, while its grid does not change. */
typedef struct astar_subgoal astar_subgoal;

/* How to build one. */
typedef struct astar_subgoal_config {
  astar_options options; /* the movement rules the graph serves (moves, corner,
                            straight_cost, diagonal_cost; the rest is ignored);
                            default astar_options_init's: 8 moves, no corner
                            cutting, 1 and sqrt 2 */
  uint32_t levels;       /* 1: simple subgoal graph; 2: two-level; N >= 3: at most
                            N levels; 0 (default): N-level, rounds until one
                            lowers fewer than 1 % of the top subgoals (at most 64) */
} astar_subgoal_config;

/* Defaults as above. No allocation. */
ASTAR_API void astar_subgoal_config_init(astar_subgoal_config *cfg);

/*
** Why a subgoal graph cannot be built on `grid` with `opt` (grid may be NULL
** to check the rules only): NULL when it can, else one English sentence
** without a final period naming the rule broken and what to do. Static
** storage; no allocation.
*/
ASTAR_API const char *astar_subgoal_unsupported_reason(const astar_grid *grid,
                                                       const astar_options *opt);

/*
** Build the graph of `grid` (cfg NULL: defaults). O(cells) for level 1 plus a
** bounded search per pair of neighbours of each subgoal per further round;
** deterministic (the same bytes from astar_subgoal_save on every run and
** platform). `alloc` may be NULL (malloc); allocates the graph and, while
** building, scratch it frees before returning.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL out or grid, levels > 64,
** option values out of range), ASTAR_UNSUPPORTED (the rules above:
** astar_subgoal_unsupported_reason says which) or ASTAR_NO_MEMORY (nothing
** is left allocated).
*/
ASTAR_API astar_status astar_subgoal_build(astar_subgoal **out, const astar_grid *grid,
                                           const astar_subgoal_config *cfg,
                                           const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_subgoal_free(astar_subgoal *sg);

/* What was built. */
typedef struct astar_subgoal_info {
  uint32_t subgoals;     /* vertices (every level) */
  uint64_t arcs;         /* undirected arcs (every level) */
  uint32_t levels;       /* levels built (1: the simple graph) */
  uint32_t top_subgoals; /* subgoals at the top level */
  uint64_t top_arcs;     /* arcs between them */
  size_t bytes;          /* bytes held from its allocator */
} astar_subgoal_info;

/* Fill *info. ASTAR_INVALID_ARGUMENT for NULL arguments. No allocation. */
ASTAR_API astar_status astar_subgoal_get_info(const astar_subgoal *sg, astar_subgoal_info *info);

/*
** Serialise into buf[0 .. *len-1] (a portable little-endian format with a
** format version, the grid's dimensions, a checksum of its cells, the rules
** and a checksum of the whole). With buf NULL or cap too small:
** ASTAR_BUFFER_TOO_SMALL and *len = the size needed. No allocation.
*/
ASTAR_API astar_status astar_subgoal_save(const astar_subgoal *sg, void *buf, size_t cap,
                                          size_t *len);

/*
** Load what astar_subgoal_save wrote, for `grid`. Checks the format and its
** version, the dimensions, the checksums and that every index is in range:
** ASTAR_PARSE_ERROR for malformed, truncated or damaged bytes (or an unknown
** format version), ASTAR_MISMATCH when they belong to another grid,
** ASTAR_INVALID_ARGUMENT for NULL arguments, ASTAR_NO_MEMORY. Allocates.
** Trust: a search on any loaded graph is memory-safe; a graph crafted to pass
** the checksums can give wrong paths -- astar_subgoal_verify rebuilds and
** compares.
*/
ASTAR_API astar_status astar_subgoal_load(astar_subgoal **out, const astar_grid *grid,
                                          const void *buf, size_t len,
                                          const astar_allocator *alloc);

/*
** ASTAR_OK when `sg` is exactly what astar_subgoal_build makes from `grid`
** with its rules and level count; ASTAR_PARSE_ERROR when it differs;
** ASTAR_MISMATCH / ASTAR_STALE as for a search; ASTAR_INVALID_ARGUMENT;
** ASTAR_NO_MEMORY. Costs a build; allocates scratch it frees.
*/
ASTAR_API astar_status astar_subgoal_verify(const astar_subgoal *sg, const astar_grid *grid);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_SUBGOAL_H */
