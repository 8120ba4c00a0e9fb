/*
** mesh/build.h -- the mesh builder's inside (astar/navmesh_build.h): grid
** outlines, point classification, the merge of triangles into convex
** polygons. Shared by build.c, outline.c and merge.c (and the tests).
*/
#ifndef ASTAR_MESH_BUILD_H
#define ASTAR_MESH_BUILD_H

#include "astar/navmesh_build.h"
#include "mesh/mesh.h"

/* ---- outline.c --------------------------------------------------------
** The boundary of a grid's free space as axis-parallel segments between
** grid points: every unit edge between a free and a blocked cell (cells
** outside the grid are blocked), consecutive collinear unit edges joined
** into one segment. Under the corner rule the free space is not connected
** through a grid point whose two diagonal cells are blocked: both unit
** edges at such a pinch point on each line are boundary edges, so the
** triangulation has a vertex there and no triangle crosses it. Segment k
** is (seg[4k], seg[4k+1]) - (seg[4k+2], seg[4k+3]). */
astar_status astar__grid_outline(const astar_grid *g, const astar_allocator *a, int32_t **seg,
                                 size_t *nseg);

/* ---- merge.c ----------------------------------------------------------
** Merge a set of triangles into convex polygons (Hertel-Mehlhorn): the
** shared edges are visited longest first (ties: smaller vertex ids first)
** and removed when both end turns of the merged polygon stay convex
** (collinear allowed). Input: `nt` triangles, tv[3t + k] their vertex ids
** counter-clockwise, tn[3t + k] the triangle of the set across the edge
** from tv[3t + k] to tv[3t + (k + 1) % 3] (-1: none in the set); v the
** coordinates by vertex id. Output (allocated with `a`, freed with
** astar__merge_free): np polygons, polygon p's sides in
** side[off[p] .. off[p+1]-1]; each side is a half-edge 3t + k of a
** triangle (the polygon's vertex is tv[side], counter-clockwise), so the
** caller finds what lies across it; tri_poly[t] the polygon of triangle t.
** Polygons are numbered in the order of their first triangle with a side
** left; each starts at its lowest half-edge. merge == false gives the
** triangles as they are. Deterministic. */
typedef struct astar__merged {
  size_t np;
  uint32_t *off;     /* np + 1 */
  uint32_t *side;    /* off[np] */
  int32_t *tri_poly; /* nt */
  size_t nt;
  size_t off_len; /* allocated length of side */
} astar__merged;

astar_status astar__merge(const astar_allocator *a, const astar_vec2 *v, const int32_t *tv,
                          const int32_t *tn, size_t nt, bool merge, astar__merged *out);
void astar__merge_free(const astar_allocator *a, astar__merged *m);

/* Exact point in simple polygon (closed ring of n points): the winding
** number is not zero. Points on the boundary may go either way. */
bool astar__point_in_ring(const astar_vec2 *ring, size_t n, astar_vec2 p);

/* ---- build.c ----------------------------------------------------------
** A full rebuild, for the tests: a new builder from `grid` or `map` (the
** base `src` was made from) with src's options and allocator and all its
** obstacles inserted before the one classification and merge (no edits). */
astar_status astar__navmesh_rebuilt(astar_navmesh **out, const astar_navmesh *src,
                                    const astar_grid *grid, const astar_polymap *map);

#endif /* ASTAR_MESH_BUILD_H */
