/*
** astar/navmesh_build.h -- building navigation meshes (astar/mesh.h) from
** polygon maps and grid maps: constrained Delaunay triangulation with exact
** predicates, triangles merged into convex polygons, an agent radius, and
** obstacles added and removed later with only the touched polygons rebuilt.
** Part of libastar.
**
** Free space.
**   - A polygon map (Polyanya's poly format, version 1) is a list of simple
**     polygons; the free space is their symmetric difference: a point is
**     free when an odd number of polygons hold it (the even-odd rule).
**     Typically one border polygon and obstacles inside it.
**   - A grid map (astar/grid.h): cell (x, y) is the square [x, x+1] x
**     [y, y+1] (y down); the free space is the union of the passable
**     cells' closed squares, with this CORNER RULE: where exactly two
**     diagonally opposite cells of a grid point are blocked, the free space
**     does not pass through the point (the two free cells touch there but
**     are not connected). This is Anya's rule (astar/anya.h) and the bound
**     of 8-connected paths under ASTAR_CORNER_NO_CUT, so on a mesh built
**     from a grid Polyanya's length equals Anya's between the same points.
**     Terrain costs are ignored (every passable cell is free).
**   - Obstacles added to a builder (astar_navmesh_add_obstacle) are simple
**     polygons; a point inside any of them is not free, whatever else holds
**     it.
**
** Pipeline. The boundaries of the free space (the polygon map's edges, the
** grid's obstacle outlines with collinear runs joined, the added obstacles'
** edges) are the constraints of a constrained Delaunay triangulation of
** their vertices: every constraint edge is an edge of the triangulation
** (split where constraints cross or touch; a vertex lying on a constraint
** splits it), every other edge is locally Delaunay. Orientation and
** in-circle tests are exact (adaptive-precision arithmetic), so collinear,
** duplicate and touching input is handled, never a crash. Triangles in free
** space are kept; with options.merge they are merged greedily into convex
** polygons (a shared edge is removed when both end turns stay convex, the
** longest shared edge first, ties by the smaller vertex indices: the same
** mesh on every platform). Everything is deterministic.
**
** Classification. No constraint crosses a triangle, so one interior point
** (checked with exact tests to lie strictly inside) tells whether it is
** free: its grid cell is passable / an odd number of polygon edges cross
** the ray to its right / no obstacle or capsule holds it.
**
** Agent radius (options.radius = r > 0). Each edge bounding the free space
** (grid outline segment, polygon-map edge, added obstacle edge) is grown
** into a blocked capsule -- the convex hull of two regular polygons of
** ASTAR_NAVMESH_RADIUS_SIDES sides circumscribing the disc of radius r
** (plus a few ulps, so rounding never lets the disc out), centred on the
** edge's ends -- so the mesh's free space is the free space minus the
** union of the capsules: everything closer than r to an obstacle and a
** little more (up to r / cos(pi / 16), 2% further, at the corners). The
** capsules' edges are the constraints (the original boundary lies inside
** them); an edge strictly inside another capsule of the same set, or in
** blocked grid cells, is left out: it separates blocked from blocked.
** Every path on such a mesh keeps at least r from every obstacle (the
** test checks every mesh edge's distance to every obstacle edge); paths
** are at most a few percent longer than the exact offset's.
**
** Incremental edits. A builder keeps the triangulation; adding or removing
** an obstacle (given in map coordinates; grown by the radius like the map's
** own) re-triangulates only the triangles whose region the obstacle
** touches and re-merges only the polygons made from them: the mesh's other
** polygons keep their indices (astar/mesh.h "Polygon slots"; vertices an
** obstacle covers stay, unused), the mesh's version goes up by one. Which
** triangles: those the triangulation changed, and those in the
** obstacle's box reachable from them (a region the obstacle covers
** entirely changes status without changing shape). The result has the
** same free space as a full rebuild with the same obstacles (the tests
** compare areas and point locations). Cost: in proportion to the region
** touched, plus the mesh's own update of its location index.
**
** Threads: a builder and its mesh belong to one thread during an edit;
** between edits the mesh may be searched by any number of threads. No
** global state, no I/O.
*/
#ifndef ASTAR_NAVMESH_BUILD_H
#define ASTAR_NAVMESH_BUILD_H

#include "base.h"
#include "grid.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sides of the polygon standing for the agent's disc. */
#define ASTAR_NAVMESH_RADIUS_SIDES 16

/* ---- Polygon maps ----------------------------------------------------- */

/* A polygon map: simple polygons whose symmetric difference is the free
** space. Retains: nothing (the points are copied). Thread safety:
** read-only once made -- any number of threads may read it at once. */
typedef struct astar_polymap astar_polymap;

/*
** Read a polygon map in Polyanya's poly format, version 1 ("poly", 1, N,
** then N lines "M x1 y1 ... xM yM"; whitespace-insensitive). Each polygon
** needs M >= 3 finite points; a polygon that crosses itself is refused
** (fault kind DEGENERATE naming the polygon and its line). `fault` as in
** astar_mesh_read (its `polygon` is the map polygon). `alloc` may be NULL.
** Allocates. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL),
** ASTAR_PARSE_ERROR, ASTAR_TOO_LARGE or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_polymap_read(astar_polymap **out, const char *text, size_t len,
                                          const astar_allocator *alloc, astar_mesh_fault *fault);

/* Make a polygon map from `np` polygons given as in
** astar_mesh_from_polygons (sizes, then each polygon's points in
** `points`, one after another; either orientation). Copies; allocates.
** Statuses as astar_polymap_read with ASTAR_INVALID_ARGUMENT in place of
** ASTAR_PARSE_ERROR. */
ASTAR_API astar_status astar_polymap_new(astar_polymap **out, const astar_vec2 *points,
                                         const uint32_t *poly_sizes, size_t np,
                                         const astar_allocator *alloc, astar_mesh_fault *fault);

ASTAR_API void astar_polymap_free(astar_polymap *map);

/* Polygon i: returns its point count (0 when out of range) and points
** *points at them (owned by the map). */
ASTAR_API uint32_t astar_polymap_polygon(const astar_polymap *map, size_t i,
                                         const astar_vec2 **points);
ASTAR_API size_t astar_polymap_count(const astar_polymap *map);

/* Write a polygon map in format version 1 (as astar_mesh_write). */
ASTAR_API astar_status astar_polymap_write(const astar_polymap *map, char *buf, size_t cap,
                                           size_t *len);

/* ---- Building --------------------------------------------------------- */

/* How to build. Start from astar_navmesh_options_init. */
typedef struct astar_navmesh_options {
  double radius; /* agent radius, finite, in [0, 1e6] (default 0: the free space as is) */
  bool merge;    /* merge the triangles into convex polygons (default true) */
} astar_navmesh_options;

ASTAR_API void astar_navmesh_options_init(astar_navmesh_options *o);

/* What a build or an edit did (astar_navmesh_stats). */
typedef struct astar_navmesh_stats {
  size_t constraints;    /* constraint edges inserted (after splitting) */
  size_t triangles;      /* triangles of the triangulation (free and blocked) */
  size_t free_triangles; /* of them in free space */
  size_t polygons;       /* polygons of the mesh (non-empty slots) */
  size_t removed;        /* the last edit: polygons removed (0 for a build) */
  size_t added;          /* the last edit: polygons made */
  size_t memory;         /* bytes the builder holds (the mesh included) */
} astar_navmesh_stats;

/* A builder: the triangulation, the obstacles and the mesh made from them.
** Owns its mesh. Retains: nothing of the caller's (a grid or polygon map is
** read during the call only; its allocator is copied). Thread safety: one
** thread at a time edits it; between edits its mesh may be searched by any
** number of threads (see the top). */
typedef struct astar_navmesh astar_navmesh;

/*
** Build from a polygon map, or from a grid (the corner rule above).
** `o` may be NULL (defaults). Allocates. Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (a NULL, or an option out of range: radius not
** finite or outside [0, 1e6]), ASTAR_NO_PATH (nothing is free: no mesh
** can be made; *out NULL), ASTAR_TOO_LARGE or ASTAR_NO_MEMORY. On failure
** *out is NULL and nothing leaks.
*/
ASTAR_API astar_status astar_navmesh_from_polymap(astar_navmesh **out, const astar_polymap *map,
                                                  const astar_navmesh_options *o,
                                                  const astar_allocator *alloc);
ASTAR_API astar_status astar_navmesh_from_grid(astar_navmesh **out, const astar_grid *grid,
                                               const astar_navmesh_options *o,
                                               const astar_allocator *alloc);

ASTAR_API void astar_navmesh_free(astar_navmesh *nm);

/* The mesh (owned by the builder, changed in place by its edits). */
ASTAR_API const astar_mesh *astar_navmesh_mesh(const astar_navmesh *nm);

/* Figures of the build and of the last edit. Counts the triangulation's
** triangles and constraints when called: O(triangles). No allocation. */
ASTAR_API void astar_navmesh_stats_get(const astar_navmesh *nm, astar_navmesh_stats *out);

/*
** Add an obstacle: a simple polygon of n >= 3 points (either orientation)
** in map coordinates, grown by the builder's radius. *id (may be NULL) gets
** its handle for astar_navmesh_remove_obstacle (handles count up from 1,
** never reused). Rebuilds only the polygons it touches (see the top).
** Needs the mesh unused (no search in progress). Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (NULL, n < 3 or n > ASTAR_MESH_MAX_SIDES, a point
** not finite, two equal consecutive points, zero area, a polygon that
** crosses or touches itself), ASTAR_TOO_LARGE (2^32 - 1 handles used) or
** ASTAR_NO_MEMORY (the obstacle is not added; the mesh's free space is as
** before the call, though polygons around the obstacle may have been made
** again and the version bumped).
*/
ASTAR_API astar_status astar_navmesh_add_obstacle(astar_navmesh *nm, const astar_vec2 *points,
                                                  size_t n, uint32_t *id);

/* Remove the obstacle `id`: its region becomes free again (where nothing
** else blocks it), rebuilding only the polygons around it. Returns
** ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL, or no such obstacle) or
** ASTAR_NO_MEMORY (the obstacle stays; the free space is as before, as
** for astar_navmesh_add_obstacle). */
ASTAR_API astar_status astar_navmesh_remove_obstacle(astar_navmesh *nm, uint32_t id);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_NAVMESH_BUILD_H */
