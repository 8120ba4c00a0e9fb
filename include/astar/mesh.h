/*
** astar/mesh.h -- navigation meshes: convex polygons covering the free
** space, read and written in Polyanya's mesh format (version 2), checked,
** and asked which polygon holds a point. Part of libastar.
**
** Building a mesh from a polygon map or a grid, agent radius and obstacles
** added and removed later are in astar/navmesh_build.h; the searches over a
** mesh (Polyanya, optimal; A* over the polygons with the funnel, Detour's
** kind of answer) go through the finder: astar_finder_new_mesh
** (astar/finder.h).
**
** Model. A mesh is V vertices (astar_vec2: any finite coordinates; meshes
** built from a grid use cell units, y down, cell (x, y) the square
** [x, x+1] x [y, y+1]) and P polygons. Polygon i lists n_i >= 3 vertex
** indices in counter-clockwise order -- orientation is by the sign of the
** cross product (b - a) x (c - a) > 0 in the coordinates as given, so with
** y down a counter-clockwise polygon looks clockwise on the screen -- and
** n_i neighbours: neighbour k is the polygon across the edge from vertex
** k-1 to vertex k (wrapping: the edge from vertex n_i - 1 to vertex 0 for
** k = 0), -1 where the edge borders an obstacle or the outside (the
** format's own convention). The free space is the union of the closed
** polygons.
**
** A VALID mesh (astar_mesh_validate; every constructor checks it):
**   - every index is in range, a polygon names no vertex twice;
**   - every polygon is convex and counter-clockwise: each turn
**     orient(v[k-1], v[k], v[k+1]) >= 0 (collinear vertices allowed, as
**     in Polyanya's meshes; a right turn whose sine is below 2^-40 -- a
**     collinear vertex whose coordinates were rounded, as in Polyanya's
**     meshes rotated by 45 degrees -- counts as collinear), it winds once
**     around and its area > 0;
**   - neighbour links are symmetric: when polygon i names j across edge
**     (a, b), polygon j has the edge (b, a) and names i across it;
**     conversely two polygons sharing an edge (a, b) / (b, a) name each
**     other;
**   - no two polygons overlap (their interiors are disjoint);
**   - every vertex lies on at least one polygon (unless the mesh was
**     edited, see "Polygon slots").
** Orientation and overlap use exact predicates: the verdict does not
** depend on rounding (but for the 2^-40 tolerance above).
**
** Point location (astar_mesh_locate) finds the polygon holding a point on
** a balanced index built with the mesh: a bounding-volume hierarchy of the
** polygons' boxes (binary, split at the median, so its depth is at most
** log2(P) + 1), searched in O(log P + k) time, k the number of polygon
** boxes holding the point (a handful on real meshes); no allocation per
** call. The answer is defined on edges and vertices: a point in the
** closed polygons of several polygons gets the one of the smallest index;
** astar_mesh_location says whether the point is inside, on an edge or on a
** vertex.
**
** Polygon slots. A mesh edited through a builder (astar/navmesh_build.h)
** keeps the indices of the polygons an edit did not touch; a polygon the
** edit removed and did not reuse is EMPTY (n = 0): no point is located in
** it, no polygon names it, searches never reach it. Such a mesh may also
** keep vertices no polygon uses any more (not a fault once edited:
** version > 0). astar_mesh_write compacts both away; a mesh read or made
** from polygons has none.
**
** Threads: a mesh is read-only once made; any number of threads may read,
** locate and search it at once. Only its builder changes it (then nothing
** else may use it during the edit). No global state; the library does no
** I/O: text comes in and goes out through memory.
*/
#ifndef ASTAR_MESH_H
#define ASTAR_MESH_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A navigation mesh. Retains: nothing (vertices and polygons are
** copied). Thread safety: read-only once made -- any number of threads
** may locate in it and search it at once; a builder's edits
** (astar/navmesh_build.h) are exclusive. Opaque. */
typedef struct astar_mesh astar_mesh;

/* What is wrong with a mesh (astar_mesh_fault.kind). */
typedef enum astar_mesh_fault_kind {
  ASTAR_MESH_FAULT_NONE = 0,     /* valid */
  ASTAR_MESH_FAULT_SYNTAX,       /* the text does not follow the format (line, column) */
  ASTAR_MESH_FAULT_RANGE,        /* a count or index out of range, or a coordinate not
                                    finite */
  ASTAR_MESH_FAULT_DEGENERATE,   /* a polygon of fewer than 3 vertices, a vertex named
                                    twice, or zero area */
  ASTAR_MESH_FAULT_NOT_CONVEX,   /* a reflex turn at `vertex` */
  ASTAR_MESH_FAULT_CLOCKWISE,    /* the polygon's vertices run clockwise */
  ASTAR_MESH_FAULT_NEIGHBOUR,    /* a neighbour link not returned, or not on a shared edge
                                    (`other` is the polygon at the other end) */
  ASTAR_MESH_FAULT_OVERLAP,      /* `polygon` and `other` overlap */
  ASTAR_MESH_FAULT_LOOSE_VERTEX, /* `vertex` lies on no polygon */
  ASTAR_MESH_FAULT_TOO_LARGE     /* more than ASTAR_MESH_MAX_ELEMENTS vertices or polygons,
                                    or a polygon of more than ASTAR_MESH_MAX_SIDES */
} astar_mesh_fault_kind;

/* Limits: vertices and polygons each, and vertices of one polygon. */
#define ASTAR_MESH_MAX_ELEMENTS 100000000u
#define ASTAR_MESH_MAX_SIDES 65535u

/* The first fault found, in a fixed order (syntax, ranges, each polygon in
** index order: degenerate, convexity, orientation, neighbours; then loose
** vertices; then overlaps, the pair of smallest indices). */
typedef struct astar_mesh_fault {
  astar_mesh_fault_kind kind;
  int32_t polygon;   /* the polygon at fault, -1 when none */
  int32_t vertex;    /* the vertex (mesh index) at fault, -1 when none */
  int32_t other;     /* the other polygon (NEIGHBOUR, OVERLAP), -1 when none */
  uint32_t line;     /* text only: 1-based line of the fault (for a geometric fault, the
                        polygon's or vertex's line); 0 when not from text */
  uint32_t column;   /* text only: 1-based column, 0 when not from text */
  char message[200]; /* one English sentence without a final period naming the polygon,
                        vertex and line, e.g. "polygon 12 (line 40): turn at vertex 7 is
                        reflex: the polygon is not convex"; "" when valid */
} astar_mesh_fault;

/*
** Read a mesh from `len` bytes of text in Polyanya's mesh format, version
** 2 ("mesh", 2, V P, V vertex lines, P polygon lines; whitespace-
** insensitive) -- version 1 (neighbour k across vertices k and k+1) is
** read too and converted. The vertex lines' polygon lists are read and
** checked for range but not kept: they are derived from the polygons.
** Then the mesh is validated (above). `fault` may be NULL; when given it
** is filled whatever the outcome (kind NONE on success). `alloc` may be
** NULL (malloc); it is copied and serves the mesh for its whole life.
** Allocates the mesh and its location index. Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (out or text NULL), ASTAR_PARSE_ERROR (malformed
** or invalid: *fault says where and what), ASTAR_TOO_LARGE (beyond the
** limits) or ASTAR_NO_MEMORY. On failure *out is NULL and nothing leaks.
*/
ASTAR_API astar_status astar_mesh_read(astar_mesh **out, const char *text, size_t len,
                                       const astar_allocator *alloc, astar_mesh_fault *fault);

/*
** Make a mesh from polygons: `vertices[0 .. nv-1]`, and `np` polygons
** whose vertex indices are listed one after another in `poly_vertices`,
** polygon i having `poly_sizes[i]` of them, counter-clockwise. Neighbour
** links are derived from shared edges (an edge (a, b) of one polygon and
** (b, a) of another); an edge used by more than two polygons, or twice in
** the same direction, is a NEIGHBOUR or OVERLAP fault. Validated as
** astar_mesh_read; `fault` as there (line and column 0). Copies
** everything; allocates. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (a NULL
** with a count > 0, or an invalid mesh: *fault says why), ASTAR_TOO_LARGE
** or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_mesh_from_polygons(astar_mesh **out, const astar_vec2 *vertices,
                                                size_t nv, const uint32_t *poly_sizes,
                                                const int32_t *poly_vertices, size_t np,
                                                const astar_allocator *alloc,
                                                astar_mesh_fault *fault);

/* Release a mesh made by astar_mesh_read or astar_mesh_from_polygons (a
** builder's mesh is released with its builder). NULL is allowed. */
ASTAR_API void astar_mesh_free(astar_mesh *mesh);

/*
** Write `mesh` in format version 2 into buf[0 .. cap-1] with a final NUL;
** *len (may be NULL) gets the text's length without the NUL. Empty polygon
** slots, and vertices on no polygon (a builder's mesh may keep some), are
** left out and the remaining ones renumbered in order;
** coordinates are written with the shortest decimal form that reads back
** to the same double ("%.17g" at most), so read(write(m)) is the same
** mesh. Vertex lines list the polygons around the vertex counter-
** clockwise, -1 for each gap. Returns ASTAR_OK, ASTAR_BUFFER_TOO_SMALL
** (nothing useful written; *len is the length needed) or
** ASTAR_INVALID_ARGUMENT (mesh NULL, or buf NULL with cap > 0). No
** allocation.
*/
ASTAR_API astar_status astar_mesh_write(const astar_mesh *mesh, char *buf, size_t cap, size_t *len);

/* Check a mesh again (the constructors already did): ASTAR_OK, or
** ASTAR_INVALID_ARGUMENT with *fault (may be NULL) saying why. Meshes
** from the library are always valid; this is for tests and tools. No
** allocation besides a temporary index freed before returning; may return
** ASTAR_NO_MEMORY. */
ASTAR_API astar_status astar_mesh_validate(const astar_mesh *mesh, astar_mesh_fault *fault);

/* Counts: vertices, and polygon slots (empty ones included). */
ASTAR_API size_t astar_mesh_vertex_count(const astar_mesh *mesh);
ASTAR_API size_t astar_mesh_polygon_count(const astar_mesh *mesh);

/* Vertex i ((0, 0) when out of range). */
ASTAR_API astar_vec2 astar_mesh_vertex(const astar_mesh *mesh, size_t i);

/* Polygon i: returns its vertex count n (0 for an empty slot or i out of
** range) and points *vertices and *neighbours (either may be NULL) at its
** n vertex indices and n neighbours, owned by the mesh and valid until it
** is freed or edited. */
ASTAR_API uint32_t astar_mesh_polygon(const astar_mesh *mesh, size_t i, const int32_t **vertices,
                                      const int32_t **neighbours);

/* The smallest box holding every vertex: min and max corners. */
ASTAR_API void astar_mesh_bounds(const astar_mesh *mesh, astar_vec2 *min, astar_vec2 *max);

/* Total area of the polygons. */
ASTAR_API double astar_mesh_area(const astar_mesh *mesh);

/* Bytes the mesh holds (vertices, polygons, adjacency, location index). */
ASTAR_API size_t astar_mesh_memory(const astar_mesh *mesh);

/* Edit count: 0 when made, +1 for each edit by its builder. A finder on
** the mesh follows edits by itself (astar/finder.h); a sliced search in
** progress ends with ASTAR_STALE. */
ASTAR_API uint64_t astar_mesh_version(const astar_mesh *mesh);

/* ---- Seeing a mesh search (astar_finder_set_mesh_observer) ----------
** The mesh methods report their search nodes as they go, for pictures:
** PUSH when a node enters the open list, EXPAND when it is taken out,
** GOAL when the goal is taken out (the last event). Events are valid
** during the call only. */
typedef struct astar_mesh_event {
  int type;               /* ASTAR_EVENT_PUSH, _EXPAND or _GOAL (astar_event_type,
                             astar/search.h) */
  int32_t polygon;        /* the polygon the node looks into (Polyanya: the one beyond its
                             interval; the funnel's A*: the node's polygon) */
  astar_vec2 root;        /* Polyanya: the node's root; A*: the point the node stands for
                             (the start, or the middle of the edge it entered by) */
  astar_vec2 left, right; /* Polyanya: the interval's ends; A*: the ends of the edge it
                             entered by (both the start for the start's node) */
  double g, h, f;         /* g of the root (A*: of the point), h its estimate, f = g + h */
  uint64_t expanded;      /* expansions so far */
} astar_mesh_event;

typedef void (*astar_mesh_observer_fn)(void *ctx, const astar_mesh_event *event);

/* Where a point is (astar_mesh_locate). */
typedef enum astar_mesh_place {
  ASTAR_MESH_OUTSIDE = 0, /* in no polygon (an obstacle, or off the mesh) */
  ASTAR_MESH_INSIDE,      /* in the interior of `polygon` */
  ASTAR_MESH_ON_EDGE,     /* on an edge of `polygon` (not at a vertex): `other` is the
                             polygon across it, -1 at a border */
  ASTAR_MESH_ON_VERTEX    /* on vertex `vertex` of `polygon` */
} astar_mesh_place;

typedef struct astar_mesh_location {
  astar_mesh_place place;
  int32_t polygon; /* the smallest-index polygon whose closure holds the point; -1 outside */
  int32_t other;   /* ON_EDGE: the polygon across the edge (-1 at a border); else -1 */
  int32_t vertex;  /* ON_VERTEX: the vertex; else -1 */
} astar_mesh_location;

/* Which polygon holds `p` (see "Point location" at the top): returns the
** polygon (-1 when outside or a NULL mesh) and fills *loc (may be NULL).
** Exact: decided with exact predicates on the coordinates as given. No
** allocation; thread-safe on a mesh not being edited. */
ASTAR_API int32_t astar_mesh_locate(const astar_mesh *mesh, astar_vec2 p, astar_mesh_location *loc);

/* ---- Polyanya (astar_finder_new_mesh, ASTAR_METHOD_POLYANYA) -----------
** The Euclidean shortest path between two points of the mesh (Cui,
** Harabor, Grastien, IJCAI 2017), through the finder: astar_finder_new_mesh
** with cfg.method = ASTAR_METHOD_POLYANYA, then astar_finder_find_points (or
** begin_points / step / finish_vec: it runs whole in the first step).
**
** The path. Points: the start, every bend, the goal; every bend is a
** corner vertex (one with a gap among its polygons); res.cost is the
** path's Euclidean length, res.length its point count. It lies in the free space as the model above
*defines it --
** the union of the closed polygons -- and passes from polygon to polygon
** across shared edges or through a vertex into a polygon of the same
** sector (the polygons around the vertex between two gaps): never between
** the gaps of a pinch (valid meshes may have them: two obstacles, or two
** free squares, touching at a point). So on a mesh of one
** unit square per free grid cell it is Anya's path between the same points
** (astar/anya.h: squares of diagonal free cells touch only at a point, and
** no path squeezes through it). A start or goal ON a pinch belongs to
** every polygon around it (the point is in their closures): from there a
** path may leave into any sector. Polyanya's own code cannot locate such a
** point and reports no path (its test scenarios' -1 rows); we follow the
** model instead.
**
** Ends. Located with astar_mesh_locate: in no polygon, ASTAR_START_BLOCKED
** / ASTAR_GOAL_BLOCKED; start == goal, the one-point path of cost 0; on an
** edge or a vertex, the search starts in (the goal counts in) every
** polygon whose closure holds it.
**
** Search. Nodes are (root, interval of a polygon edge, the polygon beyond):
** the root the start or a corner vertex, the interval what of the edge is
** seen from the root, given by two exact lines through the root (every
** side-of-line decision uses exact orientation, astar/mesh.h; interval end
** points are computed in doubles only for h and the observer); observable
** successors keep the root, non-observable ones turn at a corner end of
** the interval (only where the turn can be taut: the obstacle inside the
** bend), and edges seen edge-on along a boundary line are crossed by
** turning at their corner ends. f = g + weight * h, h the interval
** heuristic (the goal mirrored across the edge's line when on the root's
** side; exact lower bound). Root-level pruning: the best g of every root
** (vertex, and sector at a pinch) is kept; a node whose root was since
** reached with a g lower by more than 1e-10 relative is dropped, and a
** node equal to one expanded before (same root, polygon, edge and lines, g
** not lower) is not expanded again. Dead ends: no node goes into a
** polygon of at most one neighbour unless the goal is in it (a path
** entering one leaves the way it came). Intermediate nodes: when an
** expansion makes exactly one node (outside the goal's polygons), that
** node is expanded at once without entering the open list (the paper's
** intermediate pruning: corridors cost no heap operations). The search
** ends when a node into a polygon holding the goal is popped.
**
** Ties (deterministic): smaller f first, then larger g, then the node
** generated first. The same mesh and query give the same path, node counts
** and events on every platform with IEEE doubles.
**
** Config honoured: cfg.engine.weight (1: optimal; w > 1: no bound
** claimed), max_expansions (ASTAR_LIMIT_REACHED), stop_fn / stop_ctx /
** stop_interval (ASTAR_STOPPED; polled between pops, once at least
** stop_interval expansions passed since the last poll), the observer
** (astar_finder_set_mesh_observer): PUSH for every node made (an
** intermediate one too), EXPAND for every node expanded (intermediate ones
** too), GOAL once (the
** node whose polygon holds the goal) with polygon (the one beyond the
** interval), root, left / right (the interval's ends; both the root for a
** node whose root lies in the polygon's closure), g, h (unweighted) and f.
** res.stats: expanded (every expansion, intermediate ones included: the
** authors' code calls them successor calls), generated (nodes made, as
** the PUSH events), max_open; res.work = expanded.
**
** Memory: the nodes, open list and expanded table live in the finder's
** method scratch of the workspace (about 140 bytes a node; 1024 nodes at
** first, doubled -- and the query run again -- whenever a query needs
** more); the best g of every root in the workspace's finder state (16
** bytes a vertex, resized when the mesh changes). No allocation per query
** once warm. Thread safety: as every finder (one workspace per thread).
*/

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_MESH_H */
