/*
** astar/hierarchy.h -- HPA*: hierarchical path-finding over an abstract graph
** of cluster entrances (Botea, Mueller & Schaeffer 2004, "Near optimal
** hierarchical path-finding"; seed 000 section 3, "two tiers"). Part of
** libastar.
**
** Build. The grid is cut into square clusters of cluster_size cells (the
** last row / column of clusters may be narrower). Where two neighbouring
** clusters touch, an entrance is a maximal run of cell pairs facing each
** other across the border with both cells passable. Each entrance gives
** transitions: a run shorter than wide_entrance cells one pair in its
** middle (the lower / left middle cell for even lengths), a longer run two
** pairs, at its two ends. With ASTAR_CORNER_ALWAYS a diagonal move can cross
** a border with both side cells blocked; every such move is a transition
** pair too (with the other corner rules a straight pair always exists next
** to a diagonal crossing, so connectivity is kept). The transition cells are
** the nodes of the abstract graph. Arcs: between the two cells of a pair the
** cost of that one move (each direction, terrain included), and between two
** nodes of a cluster the EXACT cost of the cheapest path staying inside the
** cluster under the search's moves, corner rule, costs and terrain
** (Dijkstra from every node). With terrain the graph is directed.
**
** Levels (hopt->levels, 1 = classic HPA*). A level l+1 cluster groups
** ratio x ratio clusters of level l. Its nodes are the level-1 nodes whose
** border pair crosses a level l+1 cluster border; its intra arcs are the
** exact costs in the level-l graph restricted to the cluster. A query
** searches the top level; the levels below only join and refine.
**
** Query, level by level. Start and goal are joined to the nodes of their
** level-1 cluster by a Dijkstra over its cells (forward from the start,
** backward to the goal), then to the nodes of their level-l+1 cluster by a
** Dijkstra over the level-l graph restricted to that cluster (never over
** cells), up to the top level; when both lie in one cluster, the cheapest
** path between them inside it (found the same way, level by level) is an arc
** too. The top level is searched with the general engine (astar/engine.h)
** over an astar_space view of the graph (an intra arc implied by a cheaper
** two-arc detour inside the cluster is skipped: distances are unchanged),
** heuristic the octile (4 moves: Manhattan) distance times the smallest
** terrain cost. Each abstract arc is refined one level at a time: a level-l
** intra arc by an A* over the level-(l-1) graph restricted to its cluster, a
** level-1 intra arc by an A* over the cells of its level-1 cluster, a
** crossing is one move; joins are refined along the parents their Dijkstras
** kept. The cell path is smoothed (hopt->smooth: a stretch of at most
** cluster_size steps is replaced by a straight or diagonal line of legal
** moves when that is strictly cheaper). Searches below the top level thus
** never cover more than one level-1 cluster of cells or one cluster's
** sub-cluster nodes, which is what makes extra levels pay off on big maps.
**
** What is guaranteed. A path is found exactly when one exists (the abstract
** graph keeps the connectivity of the grid), every path is made of legal
** moves, and its cost (the sum of its steps, equal to astar_path_cost) is
** >= the optimum and <= the abstract path's cost. HPA* is not optimal: on
** the 83,006 Moving AI queries (cluster 16, one level, smoothing on) the
** cost is 1.0072 x the optimum on average and 1.903 x at worst (short
** queries that must detour through a transition; docs/hierarchy.md). No
** tighter bound holds in general.
**
** Determinism. Nodes are numbered by level-1 cluster (row-major), then by
** cell index (y * width + x) inside the cluster; every Dijkstra / A* orders
** equal keys by the smaller index (over a restricted graph: sub-cluster
** row-major, then the node's index in it); the engine's tie order is
** ASTAR_TIE_LARGER_G, then node id. Same grid, options and endpoints: the
** same path on every run and platform.
**
** Memory and allocation. astar_hpa_new and astar_hpa_update allocate (the
** graph: astar_hpa_memory); a query object is allocated once
** (astar_hpa_query_new) and a search never allocates. The hpa object is
** read-only during searches: several threads may search one object at once,
** each with its own query object.
*/
#ifndef ASTAR_HIERARCHY_H
#define ASTAR_HIERARCHY_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_HPA_MAX_LEVELS 4     /* most levels */
#define ASTAR_HPA_MIN_CLUSTER 4    /* smallest cluster_size */
#define ASTAR_HPA_MAX_CLUSTER 64   /* largest cluster_size */
#define ASTAR_HPA_MAX_TOP_SIDE 512 /* cluster_size * ratio^(levels-1) at most */

/* An HPA* hierarchy. Retains: the grid it was built or loaded for --
** searches, updates and syncs compare it with the grid they are given, and
** astar_hpa_save reads its cells -- so the grid must outlive the object.
** Thread safety: read-only during searches and the inspection calls (any
** number of threads, each with its own query object); astar_hpa_update and
** _sync need exclusive access. */
typedef struct astar_hpa astar_hpa;

/* A query object: one thread's buffers for astar_hpa_find_path. Retains:
** nothing between calls (the hierarchy and grid named by a search are read
** during that call only). Thread safety: one thread at a time. */
typedef struct astar_hpa_query astar_hpa_query;

/* Build settings; start from astar_hpa_options_init. */
typedef struct astar_hpa_options {
  int32_t cluster_size;  /* side of a level-1 cluster in cells, ASTAR_HPA_MIN_CLUSTER ..
                            ASTAR_HPA_MAX_CLUSTER (default 16) */
  int32_t levels;        /* 1 .. ASTAR_HPA_MAX_LEVELS (default 1: classic HPA*) */
  int32_t ratio;         /* level l+1 cluster = ratio x ratio level-l clusters, 2 .. 8
                            (default 2); cluster_size * ratio^(levels-1) <=
                            ASTAR_HPA_MAX_TOP_SIDE */
  int32_t wide_entrance; /* runs of >= this many pairs get two transitions (at their ends),
                            shorter runs one (middle); 1 .. ASTAR_HPA_MAX_CLUSTER + 1
                            (default 6, Botea's choice) */
  bool smooth;           /* queries smooth the refined path (default true) */
} astar_hpa_options;

/* Per-level counts (astar_hpa_stats). */
typedef struct astar_hpa_level_stats {
  uint32_t clusters;     /* clusters of this level */
  uint32_t nodes;        /* abstract nodes of this level (transition cells) */
  uint64_t arcs;         /* directed arcs among them (intra with finite cost + crossings) */
  uint32_t cluster_side; /* cluster side in cells */
} astar_hpa_level_stats;

typedef struct astar_hpa_stats {
  int32_t levels;                                    /* levels built */
  astar_hpa_level_stats level[ASTAR_HPA_MAX_LEVELS]; /* [0] = level 1 */
  uint32_t entrances; /* level-1 entrances (runs and diagonal crossings) */
  uint64_t rebuilt;   /* level-1 clusters recomputed by the last build or update */
  size_t memory;      /* bytes held (astar_hpa_memory) */
} astar_hpa_stats;

/* What a query did besides its path. */
typedef struct astar_hpa_result {
  double cost;              /* exact cost of the returned path (sum of its steps); 0 if none */
  size_t length;            /* cells of the path, start and goal included; with
                               ASTAR_BUFFER_TOO_SMALL a capacity that suffices */
  double abstract_cost;     /* cost of the abstract path (>= cost before smoothing) */
  uint64_t expanded_top;    /* abstract nodes expanded by the engine */
  uint64_t expanded_insert; /* cells and lower-level nodes settled joining start and goal
                               to the graph (level by level) */
  uint64_t expanded_refine; /* cells and lower-level nodes expanded refining the arcs */
  uint32_t abstract_length; /* nodes of the abstract path, start and goal included */
} astar_hpa_result;

/* Defaults: cluster 16, 1 level, ratio 2, wide entrance 6, smoothing on. */
ASTAR_API void astar_hpa_options_init(astar_hpa_options *hopt);

/*
** Build the hierarchy of `grid` for the movement rules of `opt` (NULL:
** defaults; moves, corner, straight_cost, diagonal_cost and the grid's
** terrain are used) and `hopt` (NULL: defaults). `alloc` may be NULL
** (malloc). Allocates (astar_hpa_memory). The grid is not retained but
** must outlive the object (searches and updates check its identity).
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (out or grid NULL, an option out
** of range); ASTAR_UNSUPPORTED (opt has turn_penalty > 0, layers,
** knowledge or terrain_scale != 1, which the abstract costs cannot hold);
** ASTAR_NO_MEMORY (*out = NULL, nothing leaks).
*/
ASTAR_API astar_status astar_hpa_new(astar_hpa **out, const astar_grid *grid,
                                     const astar_options *opt, const astar_hpa_options *hopt,
                                     const astar_allocator *alloc);

/* Release it. NULL is allowed. */
ASTAR_API void astar_hpa_free(astar_hpa *hpa);

/* Bytes held from its allocator. */
ASTAR_API size_t astar_hpa_memory(const astar_hpa *hpa);

/* Counts per level, memory, clusters rebuilt last. hpa or stats NULL: nothing. */
ASTAR_API void astar_hpa_get_stats(const astar_hpa *hpa, astar_hpa_stats *stats);

/*
** After the caller changed passability or terrain of cells inside the
** rectangle x0..x1, y0..y1 (inclusive, any order, clipped to the grid),
** recompute the level-1 clusters within one cell of it (their borders with
** the neighbours included) and the upper-level clusters above them; the
** result equals a fresh astar_hpa_new (astar_hpa_save gives the same bytes).
** Every edit since the last build/update must lie in the rectangle.
** *rebuilt (may be NULL) receives the number of level-1 clusters recomputed.
** Time: the touched clusters' Dijkstras plus O(abstract nodes) to renumber.
** Allocates (the new cluster data and graph arrays). Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (NULL), ASTAR_MISMATCH (another grid object or
** size), ASTAR_NO_MEMORY (nothing leaks; some clusters may be recomputed and
** others not, so searches return ASTAR_STALE until an update of the same
** rectangle succeeds).
*/
ASTAR_API astar_status astar_hpa_update(astar_hpa *hpa, const astar_grid *grid, int32_t x0,
                                        int32_t y0, int32_t x1, int32_t y1, uint64_t *rebuilt);

/*
** astar_hpa_update driven by the grid's change log (astar_grid_track_changes):
** recompute the level-1 clusters within one cell of every cell changed since
** the last build, load or update, and the clusters above them -- scattered
** edits cost only their clusters, not their bounding rectangle. When the
** log does not reach back (tracking off, ring overwritten, a whole-grid
** operation, or a failed earlier update), every cluster is recomputed: the
** result always equals a fresh astar_hpa_new. *rebuilt (may be NULL): the
** level-1 clusters recomputed. Allocates like astar_hpa_update.
** Returns ASTAR_OK (also when nothing changed); ASTAR_MISMATCH (another
** grid); ASTAR_NO_MEMORY (then stale until a later update succeeds);
** ASTAR_INVALID_ARGUMENT (NULL hpa or grid).
*/
ASTAR_API astar_status astar_hpa_sync(astar_hpa *hpa, const astar_grid *grid, uint64_t *rebuilt);

/*
** Serialise into buf[0 .. *len-1]: a portable little-endian format (magic
** "ASTARHPA", format version 1, the settings, the movement rules it was
** built for -- moves, corner rule, straight and diagonal cost --, a checksum
** of the grid's cells and terrain, the clusters of every level, a checksum
** of the file). buf NULL or cap too small: ASTAR_BUFFER_TOO_SMALL with *len
** the size needed. ASTAR_INVALID_ARGUMENT for NULL hpa / len. No allocation.
*/
ASTAR_API astar_status astar_hpa_save(const astar_hpa *hpa, void *buf, size_t cap, size_t *len);

/*
** Rebuild an object from bytes of astar_hpa_save, for `grid` (which must
** have the cells and terrain it was built from) and the movement rules of
** `opt` (NULL: the defaults), which must be those it was built for:
** opt->moves, the corner rule (none with 4 moves), straight_cost and, with 8
** moves, diagonal_cost, bit for bit -- the abstract costs are theirs, and a
** search (astar_hpa_find_path) follows them, so a file built for other rules
** would return paths of other moves than the caller's. Every count, index
** and cost is checked: ASTAR_PARSE_ERROR for malformed, truncated or damaged
** bytes (never a crash); ASTAR_MISMATCH for another grid (size, cells or
** terrain) or other movement rules (astar_hpa_file_options tells which);
** ASTAR_UNSUPPORTED for options a build refuses (astar_hpa_new);
** ASTAR_INVALID_ARGUMENT for NULL or invalid options; ASTAR_NO_MEMORY.
** Costs are not re-derived (a build does that). Allocates. On failure
** *out = NULL.
*/
ASTAR_API astar_status astar_hpa_load(astar_hpa **out, const astar_grid *grid,
                                      const astar_options *opt, const void *buf, size_t len,
                                      const astar_allocator *alloc);

/*
** The settings and movement rules recorded in bytes of astar_hpa_save,
** without building anything (to say why astar_hpa_load refused them, or to
** load with the rules they hold): *opt (may be NULL) gets the defaults with
** the file's moves, corner rule, straight and diagonal cost; *hopt (may be
** NULL) the file's settings. Returns ASTAR_OK; ASTAR_PARSE_ERROR (not such
** bytes: magic, version, file checksum, a setting out of range);
** ASTAR_INVALID_ARGUMENT (buf NULL). O(len) for the checksum, no allocation.
*/
ASTAR_API astar_status astar_hpa_file_options(const void *buf, size_t len, astar_options *opt,
                                              astar_hpa_options *hopt);

/*
** A query object for `hpa` (Detour's per-thread query): every buffer a
** search needs, sized once. Allocates about 42 bytes per abstract node
** (the engine's records, the abstract path) plus 52 per cell of a level-1
** cluster (the cell joins and refinement) plus about 192 per node of the
** largest restricted graph (the level-(l-1) nodes of one level-l cluster:
** the joins and refinements above level 1). ASTAR_OK, ASTAR_INVALID_ARGUMENT,
** ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_hpa_query_new(astar_hpa_query **out, const astar_hpa *hpa,
                                           const astar_allocator *alloc);

/* Grow q for `hpa` (after an update added nodes, or for another object).
** Allocates only when growing; on ASTAR_NO_MEMORY q is unchanged. */
ASTAR_API astar_status astar_hpa_query_reserve(astar_hpa_query *q, const astar_hpa *hpa);

/* Release it. NULL is allowed. */
ASTAR_API void astar_hpa_query_free(astar_hpa_query *q);

/* Bytes held from its allocator. */
ASTAR_API size_t astar_hpa_query_memory(const astar_hpa_query *q);

/*
** Find a path from start to goal. The cells, start first, go to
** path[0 .. length-1] (path may be NULL when cap is 0); `result` may be NULL.
** Never allocates. Returns ASTAR_OK; ASTAR_NO_PATH; ASTAR_OUT_OF_BOUNDS,
** ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED (checked in that order);
** ASTAR_BUFFER_TOO_SMALL (nothing usable written; result->length is a
** capacity that suffices); ASTAR_STALE (the grid changed since the build,
** load or last update: astar_grid_version); ASTAR_MISMATCH (another grid);
** ASTAR_CAPACITY (q was sized for a smaller graph: astar_hpa_query_reserve);
** ASTAR_INVALID_ARGUMENT (NULL q, hpa or grid). start == goal: one cell.
*/
ASTAR_API astar_status astar_hpa_find_path(astar_hpa_query *q, const astar_hpa *hpa,
                                           const astar_grid *grid, astar_point start,
                                           astar_point goal, astar_point *path, size_t cap,
                                           astar_hpa_result *result);

/* ---- Inspection (read-only; src/hierarchy/hpa_inspect.c) --------------------------
** What a viewer needs to draw the hierarchy: the cluster grid of each level,
** the abstract nodes (transition cells) and where a path crosses cluster
** borders. Levels are numbered 1 .. astar_hpa_get_stats().levels (1 = the
** finest). None of these allocate; all may run while other threads search.
*/

/*
** Side in cells of the clusters of `level` (cluster_size * ratio^(level-1));
** the clusters of a level tile the grid row-major from (0, 0), the last
** row / column possibly narrower. 0 for NULL hpa or a level outside
** 1 .. levels.
*/
ASTAR_API int32_t astar_hpa_cluster_size(const astar_hpa *hpa, int32_t level);

/*
** The abstract nodes of `level` (transition cells; a level-l+1 node is also
** a level-l node) into cells[0 .. *len-1], in the library's node order:
** cluster by cluster (row-major), inside a cluster by cell index
** (y * width + x). *len = astar_hpa_get_stats().level[level-1].nodes.
** Returns ASTAR_OK (also with cells NULL when the level has no node);
** ASTAR_BUFFER_TOO_SMALL (cells NULL or cap < the count: nothing written,
** *len = the count); ASTAR_INVALID_ARGUMENT (hpa or len
** NULL, level outside 1 .. levels). No allocation; O(nodes + clusters).
*/
ASTAR_API astar_status astar_hpa_level_nodes(const astar_hpa *hpa, int32_t level,
                                             astar_point *cells, size_t cap, size_t *len);

/*
** Whether `cell` is an abstract node of `level`. false for NULL hpa, a level
** outside 1 .. levels or a cell outside the grid. O(log nodes of its
** cluster).
*/
ASTAR_API bool astar_hpa_is_node(const astar_hpa *hpa, int32_t level, astar_point cell);

/*
** Where `path` (length cells, e.g. from astar_hpa_find_path) crosses the
** cluster borders of `level`: every i (0 <= i < length - 1, increasing) with
** path[i] and path[i+1] in different clusters of that level goes to
** index[0 .. *count-1]. For the top level and a query without smoothing
** these are exactly the transitions of the abstract path (its crossing
** arcs: both cells are top-level nodes); smoothing may move a crossing off
** a node. Cells outside the grid count as their clamped cluster.
** Returns ASTAR_OK (also with index NULL when there is no crossing);
** ASTAR_BUFFER_TOO_SMALL (index NULL or cap too small: nothing written,
** *count = the number needed); ASTAR_INVALID_ARGUMENT (hpa
** or count NULL, path NULL with length > 0, level outside 1 .. levels).
** No allocation; O(length).
*/
ASTAR_API astar_status astar_hpa_path_crossings(const astar_hpa *hpa, int32_t level,
                                                const astar_point *path, size_t length,
                                                uint32_t *index, size_t cap, size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_HIERARCHY_H */
