/*
** astar/graph.h -- static directed graphs in compressed (CSR) form, built
** from an edge list, searched by the engine (astar/engine.h) as a space
** (astar/space.h); and the DIMACS shortest-path formats (9th DIMACS
** Implementation Challenge: .gr arcs, .co coordinates, .p2p queries),
** parsed from memory. Part of libastar.
**
** What it is for: navigation meshes' dual graphs, waypoint and road
** networks, adjacency tables ("countries"), any graph whose arcs are known
** in advance and do not change.
**
** The graph. Nodes are 0 .. node_count-1. Every node's arcs out
** (successors) and arcs in (predecessors) are stored contiguously, so a
** node's successors are one copy out of one array. Order, which is part of
** the engine's tie order: the arcs, numbered in input order (an undirected
** edge i gives arc from -> to, then arc to -> from), are listed
**   - out of a node in arc number order (a stable sort by tail), and
**   - into a node in arc number order (a stable sort by head).
** Self loops and parallel arcs are kept as given (the search ignores what
** cannot improve a path). The same edge list gives the same graph, hence
** the same paths, on every run and platform.
**
** Sharing. Between edits (astar_graph_set_coords, astar_graph_set_heuristic,
** astar_graph_set_arc_cost) a graph is read-only: any number of threads may
** search it at once, each with its own workspace
** (astar_workspace_reserve_space). Searching never allocates.
**
** Heuristic. A graph with node coordinates (2-D or 3-D) estimates the cost
** from a to b as scale * d(a, b), where d is a distance between their
** coordinates (Euclidean by default; octile, Manhattan or Chebyshev on
** request). With the automatic scale -- the largest one every arc allows,
** min over arcs (u, v) with d(u, v) > 0 of cost(u, v) / d(u, v) -- the
** heuristic never exceeds the cost of an arc, and since each d obeys the
** triangle inequality, it is consistent: A* is optimal and expands no node
** twice. A scale the caller gives is checked against that bound. An arc
** of cost 0 between distinct positions forces the scale to 0 (Dijkstra's
** behaviour): coordinates help only when costs grow with distance.
** For a deliberately inadmissible search, use the engine's weight.
*/
#ifndef ASTAR_GRAPH_H
#define ASTAR_GRAPH_H

#include "base.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One edge of the input list. */
typedef struct astar_graph_edge {
  astar_node from; /* tail, 0 .. node_count-1 */
  astar_node to;   /* head, 0 .. node_count-1 (from == to: a self loop) */
  double cost;     /* cost of the arc, in [0, ASTAR_GRAPH_MAX_COST] */
} astar_graph_edge;

/* A graph. Retains: nothing (edges and coordinates are copied). Spaces
** taken from it (astar_graph_space) refer to it. Thread safety: read-only
** between edits -- any number of threads may search it at once; the edits
** (set_coords, set_heuristic, set_arc_cost, widen_costs, track_changes)
** need exclusive access (see "Sharing" above). */
typedef struct astar_graph astar_graph; /* opaque */

/* Flags of astar_graph_new and astar_dimacs_parse_gr. */
#define ASTAR_GRAPH_UNDIRECTED                                                                     \
  1u /* every edge is two arcs: from -> to and to -> from.                                         \
        The predecessors of a node are then its successors                                         \
        (one list serves both: half the memory) */

/* Limits (ASTAR_TOO_LARGE beyond them). */
#define ASTAR_GRAPH_MAX_NODES (UINT32_C(1) << 31) /* nodes in a graph */
#define ASTAR_GRAPH_MAX_ARCS UINT32_MAX           /* arcs, both directions counted */
#define ASTAR_GRAPH_MAX_COST                                                                       \
  1.0e15 /* an arc's cost: a path of ASTAR_GRAPH_MAX_ARCS                                          \
            arcs still costs a finite sum */
/* Nodes a DIMACS .gr text may declare beyond the 2 M its M arcs can touch
** (astar_dimacs_parse_gr): a node costs memory the text does not hold. */
#define ASTAR_DIMACS_MAX_LONE_NODES (UINT32_C(1) << 20)

/*
** Check an edge list without building anything: every endpoint below
** node_count, every cost in [0, ASTAR_GRAPH_MAX_COST]. ASTAR_OK, or
** ASTAR_INVALID_ARGUMENT with *bad (may be NULL) the index of the first
** offending edge (edges may be NULL when nedges is 0). No allocation.
*/
ASTAR_API astar_status astar_graph_check_edges(uint32_t node_count, const astar_graph_edge *edges,
                                               size_t nedges, size_t *bad);

/*
** Build a graph of node_count nodes from edges[0 .. nedges-1] (copied; the
** caller keeps the array). flags: 0 (directed) or ASTAR_GRAPH_UNDIRECTED.
** alloc: NULL for malloc/realloc/free. Allocates the handle (about 2.2 KB)
** and six blocks -- offsets, heads and costs of the arcs out and of the
** arcs in; three when undirected, the two directions sharing them -- of 4
** bytes a node and 5, 8 or 12 bytes an arc: costs are kept in the smallest
** exact form (a one-byte index when there are at most 256 distinct costs,
** floats when every cost is a float exactly, else doubles); O(nodes + arcs)
** time. The graph starts without coordinates (no heuristic).
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (out NULL, node_count 0, edges
** NULL with nedges > 0, an unknown flag, an edge that fails
** astar_graph_check_edges -- which says which); ASTAR_TOO_LARGE (more than
** ASTAR_GRAPH_MAX_NODES nodes or ASTAR_GRAPH_MAX_ARCS arcs);
** ASTAR_NO_MEMORY. On failure *out is NULL and nothing is leaked.
*/
ASTAR_API astar_status astar_graph_new(astar_graph **out, uint32_t node_count,
                                       const astar_graph_edge *edges, size_t nedges, unsigned flags,
                                       const astar_allocator *alloc);

/* Release a graph and its coordinates. NULL is allowed. No space taken from
** it may be searched afterwards. */
ASTAR_API void astar_graph_free(astar_graph *g);

/* The distances a graph heuristic can use between node coordinates. */
typedef enum astar_graph_heuristic {
  ASTAR_GRAPH_H_NONE = 0,  /* no heuristic: h = 0 (A* behaves as Dijkstra) */
  ASTAR_GRAPH_H_EUCLIDEAN, /* sqrt(dx^2 + dy^2 [+ dz^2]) (the default with coordinates) */
  ASTAR_GRAPH_H_OCTILE,    /* 2-D only: max(dx, dy) + (sqrt 2 - 1) min(dx, dy), the
                              8-connected grid's distance */
  ASTAR_GRAPH_H_MANHATTAN, /* dx + dy [+ dz] */
  ASTAR_GRAPH_H_CHEBYSHEV, /* max(dx, dy [, dz]) */
  ASTAR_GRAPH_H_COUNT      /* number of kinds (not a kind) */
} astar_graph_heuristic;

/* Request the automatic heuristic scale (astar_graph_set_heuristic). */
#define ASTAR_GRAPH_SCALE_AUTO (-1.0)

/*
** Give every node a position: xyz[dims * v + k] is coordinate k of node v
** (dims 2: x, y; dims 3: x, y, z), every value finite. The array is copied
** -- allocating dims * 4 bytes a node when every coordinate is a float
** exactly (integer positions below 2^24 are), else dims * 8; the values
** read back are those given -- and replaces any earlier coordinates.
** The heuristic becomes Euclidean with the automatic scale (O(arcs)).
** dims 0 with xyz NULL removes the coordinates and the heuristic. Not while
** the graph is being searched: call it before sharing the graph, and take
** the space (astar_graph_space) afterwards.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (g NULL, dims not 0, 2 or 3, xyz
** NULL with dims > 0, a coordinate NaN or infinite); ASTAR_NO_MEMORY (the
** graph is unchanged).
*/
ASTAR_API astar_status astar_graph_set_coords(astar_graph *g, int dims, const double *xyz);

/*
** Choose the heuristic of a graph with coordinates: the distance `kind`
** times `scale`. scale ASTAR_GRAPH_SCALE_AUTO (any negative value): the
** largest admissible scale for that distance (see the top of this file);
** otherwise a finite scale from 0 up to that largest one. O(arcs), no
** allocation; not while the graph is being searched (take the space again
** afterwards). ASTAR_GRAPH_H_NONE is always accepted (scale ignored).
** Returns ASTAR_OK, or ASTAR_INVALID_ARGUMENT (g NULL, unknown kind, no
** coordinates, OCTILE with 3-D coordinates, scale NaN, infinite or above
** the largest admissible one -- the heuristic is then unchanged).
*/
ASTAR_API astar_status astar_graph_set_heuristic(astar_graph *g, astar_graph_heuristic kind,
                                                 double scale);

/*
** The graph as a space for the engine (astar/engine.h), in *out (a plain
** value; it refers to g, which must outlive its use). Successors and
** predecessors in the order described at the top of this file; the
** heuristic chosen by the last set_coords / set_heuristic call (none:
** heuristic NULL), flagged admissible and consistent; every node usable;
** position() gives the coordinates (z 0 in 2-D). max_degree is the largest
** out- or in-degree (at least 1). No allocation. ASTAR_OK or
** ASTAR_INVALID_ARGUMENT (NULL arguments).
*/
ASTAR_API astar_status astar_graph_space(const astar_graph *g, astar_space *out);

/* ---- edits and change tracking ------------------------------------------ */

/*
** Arc costs may change (a road closed, a bridge out: Patel 5). Each change
** advances the graph's version (astar_graph_version, the space's version
** op) by one; with tracking on, the graph keeps the most recent changes in
** a ring, as astar/grid.h does for cells. Objects derived from the graph
** compare versions: landmark tables fall back to the plain heuristic and
** report ASTAR_STALE; planners (astar/dstar.h) take the changes in.
** Edits are writes: not while another thread searches the graph.
*/
typedef struct astar_arc_change {
  uint64_t version; /* the graph's version right after this change */
  astar_node from;  /* the arc's tail */
  astar_node to;    /* the arc's head */
  double old_cost;  /* its cost before */
  double new_cost;  /* its cost after */
} astar_arc_change;

/*
** Set the cost of the arc from -> to (every parallel arc from -> to; in an
** undirected graph the edge, both directions). O(degree of from and of
** to), no allocation. The heuristic stays admissible and consistent: when
** the new cost is below scale x distance(from, to), the scale comes down
** to cost / distance (for every later search; a planner keyed on the old
** heuristic must be rebuilt -- compare astar_graph_heuristic_scale).
** The cost must fit the graph's cost storage (see astar_graph_new): a
** dictionary of at most 256 distinct costs, or floats; call
** astar_graph_widen_costs once first to allow any double.
** Returns ASTAR_OK (setting the cost it already has changes nothing, not
** the version either); ASTAR_INVALID_ARGUMENT (g NULL, a node out of range,
** cost NaN, negative or above ASTAR_GRAPH_MAX_COST); ASTAR_OUT_OF_BOUNDS
** (no arc from -> to); ASTAR_UNSUPPORTED (the storage cannot hold the cost
** exactly; nothing changed).
*/
ASTAR_API astar_status astar_graph_set_arc_cost(astar_graph *g, astar_node from, astar_node to,
                                                double cost);

/* Store the costs as doubles (8 bytes an arc), so that every cost can be
** set. Allocates (the old storage is freed); the values are unchanged.
** Spaces taken before must be taken again (astar_graph_space), as after
** astar_graph_set_heuristic. ASTAR_OK (also when already doubles),
** ASTAR_INVALID_ARGUMENT (g NULL), ASTAR_NO_MEMORY (unchanged). */
ASTAR_API astar_status astar_graph_widen_costs(astar_graph *g);

/* The number of arc cost changes so far (0 for a new graph, or NULL). */
ASTAR_API uint64_t astar_graph_version(const astar_graph *g);

/* Keep the last `capacity` arc changes from now on (0: stop, free the
** ring). Allocates sizeof(astar_arc_change) bytes an entry. ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (g NULL), ASTAR_NO_MEMORY (unchanged). */
ASTAR_API astar_status astar_graph_track_changes(astar_graph *g, size_t capacity);

/* The changes made after version `since`, oldest first, into
** buf[0 .. *len-1], *len = version - since. No allocation. ASTAR_OK;
** ASTAR_BUFFER_TOO_SMALL (*len = the number needed); ASTAR_STALE (the log
** does not reach back to `since`: treat every arc as changed);
** ASTAR_INVALID_ARGUMENT (NULL g or len, buf NULL with cap > 0, `since`
** beyond the version). */
ASTAR_API astar_status astar_graph_changes(const astar_graph *g, uint64_t since,
                                           astar_arc_change *buf, size_t cap, size_t *len);

/* ---- accessors (no allocation; g NULL reads as 0 / none) ---------------- */

/* Number of nodes (>= 1); 0 for NULL. */
ASTAR_API uint32_t astar_graph_node_count(const astar_graph *g);

/* Number of arcs, both directions of an undirected edge counted; 0 for NULL. */
ASTAR_API size_t astar_graph_arc_count(const astar_graph *g);

/* Copy the arcs out of node v (arc.node the head) or into v (arc.node the
** tail), in the graph's order, into arcs[0 .. min(degree, cap) - 1]
** (arcs may be NULL when cap is 0). Returns the degree: call with cap 0 to
** learn it. 0 for g NULL or v >= node_count. */
ASTAR_API size_t astar_graph_out_arcs(const astar_graph *g, astar_node v, astar_arc *arcs,
                                      size_t cap);
ASTAR_API size_t astar_graph_in_arcs(const astar_graph *g, astar_node v, astar_arc *arcs,
                                     size_t cap);

/* Largest number of arcs out of or into one node. */
ASTAR_API uint32_t astar_graph_max_degree(const astar_graph *g);

/* Dimensions of the coordinates: 0 (none), 2 or 3. */
ASTAR_API int astar_graph_dims(const astar_graph *g);

/* Node v's coordinates (as given to set_coords) into xyz[0 .. dims-1].
** False, nothing written, without coordinates or for v out of range. */
ASTAR_API bool astar_graph_coords(const astar_graph *g, astar_node v, double *xyz);

/* The heuristic in use and its scale (0 with ASTAR_GRAPH_H_NONE). */
ASTAR_API astar_graph_heuristic astar_graph_heuristic_kind(const astar_graph *g);
ASTAR_API double astar_graph_heuristic_scale(const astar_graph *g);

/* Bytes held by the graph (handle, arcs, offsets, coordinates). */
ASTAR_API size_t astar_graph_memory(const astar_graph *g);

/* ---- DIMACS shortest-path files, parsed from memory -------------------------
**
** The formats of the 9th DIMACS Implementation Challenge (Shortest Paths),
** http://www.diag.uniroma1.it/challenge9/format.shtml. Node ids in the files
** are 1-based; the library's are the file's minus one. Lines are separated
** by LF, CRLF or CR (the last may lack one); fields by spaces or tabs;
** blank lines and comment lines ("c ...") may appear anywhere; every other
** line starts with its one-letter type followed by a space or tab. The
** text need not be NUL-terminated. On a parse error *err (when not NULL)
** gets the 1-based line and column (bytes) of the offending field -- or of
** the end of the text for something missing -- and a message; nothing is
** allocated or leaked.
**
**   .gr   p sp N M     the problem line, once, before any arc: N nodes, M arcs
**         a U V W      an arc from U to V of cost W; exactly M of them
**   .co   p aux sp co N   once, before any node
**         v ID X Y     coordinates of node ID; every node exactly once
**   .p2p  p aux sp p2p K   once, before any query
**         q S T [C]    a query from S to T; exactly K of them. C, an
**                      expected cost, is this library's extension (the
**                      challenge's files have none)
**
** Numbers: ids and counts are decimal integers; costs and coordinates are
** decimal numbers ([+-]digits[.digits][e[+-]digits], '.' whatever the
** locale). The challenge's files have integer costs and coordinates (road
** graphs: distances or travel times, and longitude / latitude in
** millionths of a degree); fractions are accepted. Costs must be >= 0.
*/

/*
** Parse a .gr text into a new graph (astar_graph_new with `flags` on the
** arcs in file order, ids minus one). Two passes: the whole text is
** checked before anything is allocated (so a short malformed text never
** causes a large allocation); then a temporary edge array (16 bytes an
** arc, freed before returning) and the graph. Errors (ASTAR_PARSE_ERROR
** unless said): no problem line; a second one; a problem line that is not
** "p sp N M" (wrong words, missing, extra or bad numbers, N of 0); an arc
** before it; an arc line with a missing, extra or bad field; a node id of
** 0 or above N; a cost negative, not a number or above
** ASTAR_GRAPH_MAX_COST; more arcs than M (at the
** first extra) or fewer (at the end); an unknown line type. N above
** ASTAR_GRAPH_MAX_NODES, M above ASTAR_GRAPH_MAX_ARCS (or twice M when
** undirected): ASTAR_TOO_LARGE at the number. N above 2 M +
** ASTAR_DIMACS_MAX_LONE_NODES (more nodes than the arcs can touch, plus
** that many alone: "p sp 2147483647 0" would cost gigabytes for a few
** bytes of text): ASTAR_TOO_LARGE at N, once the arcs are counted, before
** anything is allocated. Also ASTAR_INVALID_ARGUMENT
** (out NULL, text NULL with len > 0, an unknown flag) and ASTAR_NO_MEMORY
** (line 0). On failure *out is NULL.
*/
ASTAR_API astar_status astar_dimacs_parse_gr(astar_graph **out, const char *text, size_t len,
                                             unsigned flags, const astar_allocator *alloc,
                                             astar_parse_error *err);

/*
** Parse a .co text for a graph of node_count nodes into the caller's
** xy[2 * node_count] (xy[2 * v], xy[2 * v + 1]: x and y of node v, the
** file's node v + 1), ready for astar_graph_set_coords(g, 2, xy). No
** allocation; xy is written even when parsing fails (its content is then
** unspecified). Errors (ASTAR_PARSE_ERROR): no problem line; a second one;
** a problem line that is not "p aux sp co N"; N different from node_count
** (at N); a node line before the problem line; a node line with a missing,
** extra or bad field; an id of 0 or above N; an id given twice (at the
** second); a node without coordinates (at the end of the text, naming the
** first such node); an unknown line type. Also ASTAR_INVALID_ARGUMENT
** (xy NULL, node_count 0, text NULL with len > 0).
*/
ASTAR_API astar_status astar_dimacs_parse_co(const char *text, size_t len, uint32_t node_count,
                                             double *xy, astar_parse_error *err);

/* One query of a .p2p file. */
typedef struct astar_dimacs_query {
  astar_node source; /* the file's S minus one */
  astar_node target; /* the file's T minus one */
  double cost;       /* the optional expected cost C, or -1 when absent */
  int32_t line;      /* 1-based line of the query in the text (for messages) */
} astar_dimacs_query;

/*
** Parse a .p2p text (queries between nodes of a graph of node_count nodes)
** into queries[0 .. cap-1], *count (not NULL) receiving the number of
** queries in the text (the problem line's K). The whole text is checked
** first; when it is valid and K > cap, nothing is written and the result
** is ASTAR_BUFFER_TOO_SMALL (call again with cap >= *count; queries may be
** NULL when cap is 0). No allocation. Errors (ASTAR_PARSE_ERROR, *count
** 0): no problem line; a second one; a problem line that is not
** "p aux sp p2p K"; a query before it; a query line with a missing, extra
** or bad field; an id of 0 or above node_count; a negative cost; more
** queries than K (at the first extra) or fewer (at the end); an unknown
** line type. Also ASTAR_INVALID_ARGUMENT (count NULL, node_count 0, text
** NULL with len > 0, queries NULL with cap > 0).
*/
ASTAR_API astar_status astar_dimacs_parse_p2p(const char *text, size_t len, uint32_t node_count,
                                              astar_dimacs_query *queries, size_t cap,
                                              size_t *count, astar_parse_error *err);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_GRAPH_H */
