/*
** astar/landmarks.h -- landmarks (differential heuristics, ALT: A*,
** Landmarks, Triangle inequality; Goldberg & Harrelson 2005; Patel's
** "precomputed heuristics") for every space, and for the grid's own A*.
** Part of libastar.
**
** A few nodes are chosen as landmarks L and the exact cost from every node
** to and from each of them is computed once (one Dijkstra a landmark and a
** direction). By the triangle inequality, for every pair a, b:
**     d(a, b) >= d(L, b) - d(L, a)     (distances FROM L)
**     d(a, b) >= d(a, L) - d(b, L)     (distances TO L)
** and the heuristic is the largest of these bounds over the landmarks. It
** is computed on the real costs, so unlike the grid's built-in heuristics
** it is not weakened by a few cheap cells (see "Terrain below 1 and the
** heuristic" in astar/search.h): an exact search with far fewer expansions.
**
** Admissible and consistent. The table holds single-precision values
** rounded down, and every landmark term has its slack e_L subtracted:
** e_L = 2^-22 x the largest finite distance of landmark L, more than the
** rounding of a stored value and of the arithmetic. Every term is therefore
** a proven lower bound of the double-precision optimal cost the searches
** compute: the heuristic is ADMISSIBLE (optimal paths). Rounding alone
** would leave it consistent only up to the slack; so each difference of
** stored values is also scaled by 1 - delta, delta = 2 max e_L / c_min
** (c_min the cheapest arc of the space; 2^-21 x the longest distance on a
** grid with unit steps), which makes every arc satisfy h(a) <= c(a, a') +
** h(a') -- CONSISTENT, so searches never reopen a node and expand as few
** as A* can. When c_min is 0 or delta would exceed 1/64 (then the bound
** would lose more than 1.6 %) the scale stays 1 and the heuristic is
** admissible only: the wrapper space then claims ASTAR_SPACE_ADMISSIBLE
** only and ASTAR_REOPEN_AUTO reopens closed nodes (astar_landmarks_consistent
** says which).
**
** Memory: 4 x K bytes a node when only distances FROM the landmarks are
** kept (symmetric spaces, or spaces without predecessors), 8 x K bytes
** with the distances TO them as well (the K values of a node are
** contiguous: a lookup touches one or two cache lines). Plus the object.
**
** Unreachable pairs. A node a landmark does not reach (or that does not
** reach it) has an infinite entry; a term with an infinite entry adds
** nothing (the bound it would give is infinite or meaningless). The
** heuristic is always finite and >= 0.
**
** The table belongs to the costs it was built on. Searching another space,
** other move rules or costs, or a grid that changed since, makes it a wrong
** heuristic -- possibly inadmissible (a cell opened makes some distances
** shorter). Grid tables remember the grid's version: see
** astar_landmarks_current and astar_landmarks_grid_heuristic.
**
** Threads: a built table is read-only; any number of searches may use it at
** once.
*/
#ifndef ASTAR_LANDMARKS_H
#define ASTAR_LANDMARKS_H

#include "base.h"
#include "grid.h"
#include "grid_space.h"
#include "search.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_LANDMARKS_MAX 64 /* most landmarks a table holds */

/* How the landmarks are chosen. Both are deterministic: the same space and
** options give the same landmarks on every platform. */
typedef enum astar_landmark_choice {
  ASTAR_LANDMARKS_FARTHEST = 0, /* farthest point: each new landmark is the node
                                   whose distance from the nearest chosen one
                                   is largest (default) */
  ASTAR_LANDMARKS_AVOID         /* Goldberg & Harrelson's "avoid": grow the
                                   shortest-path tree of a root node, weigh each
                                   node by how much the current landmarks
                                   underestimate its distance from the root,
                                   give a subtree holding a landmark weight 0,
                                   and descend from the root into the heaviest
                                   subtree down to a leaf: the new landmark */
} astar_landmark_choice;

/* Options of the build. Start from astar_landmark_options_init(). */
typedef struct astar_landmark_options {
  uint32_t count;               /* landmarks wanted, 1 .. ASTAR_LANDMARKS_MAX (default 4) */
  astar_landmark_choice choice; /* how they are chosen (default FARTHEST) */
  bool symmetric;               /* the caller promises cost(a -> b) == cost(b -> a) for
                                   every arc: only distances FROM the landmarks are
                                   stored (half the memory) and used both ways.
                                   A false promise makes the heuristic inadmissible.
                                   Default false */
} astar_landmark_options;

/* Fill `opt` with the defaults: 4 landmarks, FARTHEST, not symmetric. */
ASTAR_API void astar_landmark_options_init(astar_landmark_options *opt);

/* A landmark table. Retains: a table of a space (astar_landmarks_new /
** _load), nothing -- the space is read while it is built or loaded, and
** astar_landmarks_space_current is given it again; a grid table
** (astar_landmarks_new_grid / _load_grid), the grid: its version is read by
** every astar_landmarks_grid_heuristic call and by the grid search's
** reopening rule, so the grid must outlive the table's use. Thread safety:
** read-only once built -- any number of searches may use it at once. */
typedef struct astar_landmarks astar_landmarks;

/*
** Choose landmarks on `space` and compute their distance tables. `opt` may
** be NULL (defaults); `alloc` may be NULL (malloc).
**
** Choice rules. Landmarks are usable nodes (astar_space_ops.usable). The
** space is first cut into regions: repeatedly, the smallest-id usable node
** not yet reached and every node its forward search reaches for the first
** time (the connected components of an undirected space). The first
** landmark is the node of the largest region farthest from that region's
** first node (ties: smaller id). A node no chosen landmark reaches counts as
** infinitely far, so every region gets a landmark before any region gets a
** second one -- largest region first -- except regions with fewer than 2
** nodes or fewer than 1/64 of the largest region's nodes, which get none
** (their searches use the space's own heuristic: still exact). Fewer than
** opt->count landmarks are chosen when no node remains that would add a
** new one (astar_landmarks_count). AVOID picks its roots with a fixed
** pseudo-random sequence over the candidate nodes.
**
** Distances TO the landmarks are computed when the space has predecessors
** and opt->symmetric is false; otherwise only FROM.
**
** Cost: one Dijkstra over the space for the regions and one (or two) per
** landmark, and with AVOID one more per landmark; temporary memory about
** 32 bytes a node. Allocates the table (astar_landmarks_memory).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL out or space, an invalid
** space, count outside 1 .. ASTAR_LANDMARKS_MAX, an unknown choice),
** ASTAR_NO_PATH (the space has no usable node) or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_landmarks_new(astar_landmarks **out, const astar_space *space,
                                           const astar_landmark_options *opt,
                                           const astar_allocator *alloc);

/*
** The same over `grid` seen as a space (astar_grid_space_init) with the
** moves, corner rule, move costs and terrain of `opt` (NULL: defaults),
** for astar_landmarks_grid_heuristic. Symmetric automatically when the
** grid has no terrain layer (opt->symmetric is ignored: terrain makes a move
** cost the factor of the cell entered, so costs differ by direction). The
** table remembers `grid`, its version (astar_grid_version) and the
** built-in heuristic of `opt`. Returns as astar_landmarks_new, and
** ASTAR_UNSUPPORTED when opt->terrain_scale != 1 or opt->heuristic is
** ASTAR_H_CALLBACK (the table is built on the exact terrain).
*/
ASTAR_API astar_status astar_landmarks_new_grid(astar_landmarks **out, const astar_grid *grid,
                                                const astar_options *opt,
                                                const astar_landmark_options *lmopt,
                                                const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_landmarks_free(astar_landmarks *lm);

/* Bytes held from its allocator (the table: 4 or 8 x count bytes a node). */
ASTAR_API size_t astar_landmarks_memory(const astar_landmarks *lm);

/* Landmarks in the table (1 .. ASTAR_LANDMARKS_MAX); 0 for NULL. */
ASTAR_API uint32_t astar_landmarks_count(const astar_landmarks *lm);

/* The i-th landmark's node, in the order chosen; ASTAR_NODE_NONE when i >=
** count or lm is NULL. On a grid table node = y * width + x. */
ASTAR_API astar_node astar_landmarks_node(const astar_landmarks *lm, uint32_t i);

/* True when the table stores distances TO the landmarks as well. */
ASTAR_API bool astar_landmarks_has_backward(const astar_landmarks *lm);

/* True when the bound is consistent (see the top of this file: the space's
** cheapest arc is > 0 and the scale 1 - delta loses at most 1/64); false
** for NULL. */
ASTAR_API bool astar_landmarks_consistent(const astar_landmarks *lm);

/*
** Lower bound of the cost from a to b (a, b < the space's node_count): the
** largest landmark term, >= 0, finite. The space's own heuristic is not
** included (astar_landmarks_space adds it). No checks, no allocation.
*/
ASTAR_API double astar_landmarks_heuristic(const astar_landmarks *lm, astar_node a, astar_node b);

/*
** A space that searches `base` with the landmarks: successors,
** predecessors, usable, position and version are base's; the heuristic is
** the larger of base's (0 when it has none) and astar_landmarks_heuristic
** -- base's alone once base's version differs from the table's (an edit
** since the build: astar_landmarks_space_current).
** Flags: ASTAR_SPACE_ADMISSIBLE (see the top of this file). `holder` is
** caller storage that, with *base and *lm, must outlive every use of *out.
** No allocation. Returns ASTAR_OK, or ASTAR_INVALID_ARGUMENT (NULL
** arguments, an invalid base, or a table for another node count).
** Retains: the holder keeps a copy of *base, hence base's ops table and
** `self` object, and the table lm -- all must outlive every use of *out.
** Thread safety: read-only during searches (any number of threads at
** once, as base allows).
*/
typedef struct astar_landmarks_space_holder {
  astar_space base;          /* copy of the searched space */
  const astar_landmarks *lm; /* the table */
} astar_landmarks_space_holder;

ASTAR_API astar_status astar_landmarks_space(astar_space *out, astar_landmarks_space_holder *holder,
                                             const astar_space *base, const astar_landmarks *lm);

/*
** Heuristic for the grid's own searches: set opt.heuristic =
** ASTAR_H_CALLBACK, opt.heuristic_fn = astar_landmarks_grid_heuristic,
** opt.heuristic_ctx = (void *)lm, where lm comes from
** astar_landmarks_new_grid with the same moves, corner and costs as the
** search (terrain_scale 1). Returns the larger of the built-in heuristic
** of the build options (octile or Manhattan scaled by the smallest
** terrain) and the landmark bound. The grid's A* recognises this function:
** with a consistent table built for the grid searched
** (astar_landmarks_consistent, astar_landmarks_current) ASTAR_REOPEN_AUTO
** then never reopens, as for the built-in heuristics; otherwise it
** reopens (leave opt.reopen at AUTO; NEVER with an inconsistent table may
** lose optimality by the slack). Influence
** layers and turn penalties only add cost: still admissible and
** consistent. With knowledge (fog of war) unknown cells can be cheaper
** than in the table: not admissible.
**
** Safety: when the grid changed since the build (astar_grid_version, one
** load a call) the function returns 0 -- a correct but slow Dijkstra --
** instead of a stale bound; rebuild the table (astar_landmarks_current
** tells). Goal (-1, -1) (astar_search_begin_region), a cell outside the
** table's grid, a table built for a space (not a grid) and ctx NULL also
** give 0. Otherwise `ctx` must be a table of this library.
*/
ASTAR_API double astar_landmarks_grid_heuristic(void *ctx, astar_point cell, astar_point goal);

/*
** Whether a table built (or loaded) for a space is up to date: ASTAR_OK,
** ASTAR_STALE (the space's version op reports a change since -- an edited
** graph, astar_graph_set_arc_cost; the wrapper of astar_landmarks_space
** then gives base's heuristic alone, never a stale bound),
** ASTAR_MISMATCH (another node count), ASTAR_INVALID_ARGUMENT (NULL or an
** invalid space). A space without a version op never goes stale. O(1).
*/
ASTAR_API astar_status astar_landmarks_space_current(const astar_landmarks *lm,
                                                     const astar_space *space);

/*
** Whether a grid table is up to date for `grid`: ASTAR_OK, ASTAR_MISMATCH
** (built for another grid object, or not a grid table), ASTAR_STALE (the
** grid changed since it was built or loaded), ASTAR_INVALID_ARGUMENT (NULL).
*/
ASTAR_API astar_status astar_landmarks_current(const astar_landmarks *lm, const astar_grid *grid);

/*
** Serialise into buf[0 .. *len-1]: a portable little-endian format with a
** magic, a version (2), the node count, the landmarks, their slacks, the
** table (IEEE single precision), a checksum of the space's arcs it was
** built on, for a grid table the movement rules it was built for (moves,
** corner rule, straight and diagonal cost: astar_landmarks_file_options)
** and a checksum of the whole file. With buf NULL or cap too small:
** ASTAR_BUFFER_TOO_SMALL and *len = the size needed (72 + 12 K + 4 K n,
** twice that last term with distances TO the landmarks). ASTAR_OK, or
** ASTAR_INVALID_ARGUMENT (NULL lm or len). No allocation.
*/
ASTAR_API astar_status astar_landmarks_save(const astar_landmarks *lm, void *buf, size_t cap,
                                            size_t *len);

/*
** Rebuild a table from bytes made by astar_landmarks_save, for `space`
** (the one it was built on). Reads format 2 and format 1 (written before
** the rules were recorded: 24 bytes shorter). Checks the format, the file checksum, every
** landmark id and table value (>= 0 or infinite, 0 at the landmark
** itself): ASTAR_PARSE_ERROR for malformed, truncated or damaged bytes;
** ASTAR_INVALID_ARGUMENT for NULL arguments or a node count other than
** space->node_count; ASTAR_MISMATCH when the space's arcs are not those
** the table was built on (checksum of every arc: O(arcs)). Allocates.
** Trust: as for astar_jps_plus_load, the distances are not re-derived:
** bytes crafted to pass the checksums could make the heuristic wrong (never
** unsafe in memory).
*/
ASTAR_API astar_status astar_landmarks_load(astar_landmarks **out, const astar_space *space,
                                            const void *buf, size_t len,
                                            const astar_allocator *alloc);

/* astar_landmarks_load for a table saved from astar_landmarks_new_grid:
** `grid` and `opt` (NULL: defaults) as given to the build -- they make the
** space whose arcs are checked, so a table is refused with ASTAR_MISMATCH
** for other moves, corner rule or move costs than it was built for (unless
** they give this grid the very same arcs: then the table is exact for them
** too) and for other cells or terrain (astar_landmarks_file_options tells
** which). Also ASTAR_UNSUPPORTED as for astar_landmarks_new_grid. */
ASTAR_API astar_status astar_landmarks_load_grid(astar_landmarks **out, const astar_grid *grid,
                                                 const astar_options *opt, const void *buf,
                                                 size_t len, const astar_allocator *alloc);

/*
** The movement rules recorded in bytes of astar_landmarks_save (a grid
** table's), without building anything -- to say why
** astar_landmarks_load_grid refused them, or to load with the rules they
** hold: *opt (may be NULL) gets the defaults with the file's moves, corner
** rule (ASTAR_CORNER_NEVER with 4 moves), straight and diagonal cost.
** Returns ASTAR_OK; ASTAR_UNSUPPORTED when the bytes record no rules (a
** table of another space, or format 1); ASTAR_PARSE_ERROR (not such bytes:
** magic, version, size, file checksum, rules out of range);
** ASTAR_INVALID_ARGUMENT (buf NULL). O(len) for the checksum, no allocation.
*/
ASTAR_API astar_status astar_landmarks_file_options(const void *buf, size_t len,
                                                    astar_options *opt);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_LANDMARKS_H */
