/*
** mesh/mesh.h -- the navigation mesh's inside (astar/mesh.h): the arrays
** every mesh module reads, the edit interface the builder uses, the exact
** predicates and the constrained Delaunay triangulation.
**
** Layout. Vertices are an array of astar_vec2. Polygon i's vertex indices
** are pv[poff[i] .. poff[i] + pn[i] - 1] (counter-clockwise) and its
** neighbours pnb[same range] (neighbour k across the edge from vertex k-1
** to vertex k, -1 for none); pn[i] == 0 is an empty slot. The entries of
** different polygons need not be contiguous or in order: an edit writes a
** changed polygon's entries at the end of the pool and leaves a hole
** (astar__mesh_compact squeezes them out). Around vertex v: the polygons
** vp[voff[v] .. voff[v] + vn[v] - 1] in counter-clockwise order, -1 for
** each gap (obstacle or outside), as the file format lists them; vflags[v]
** says what Polyanya needs to know without walking them.
**
** Invariants outside an edit: the mesh is valid (astar/mesh.h), the vertex
** lists and flags match the polygons, the location index covers every
** non-empty polygon, `area` is the polygons' total.
*/
#ifndef ASTAR_MESH_MESH_H
#define ASTAR_MESH_MESH_H

#include "astar/mesh.h"
#include "core/internal.h"

/* vflags bits. */
#define ASTAR__V_CORNER 0x01u /* a gap (-1) among its polygons: an obstacle touches it */
#define ASTAR__V_AMBIG                                                                             \
  0x02u /* more than one gap: obstacles meet there (a pinch point; a                               \
           path may turn at it but not pass between the gaps) */

/* The point-location index (locate.c); opaque to the other modules. */
struct astar__mesh_index;

struct astar_mesh {
  astar_allocator alloc;
  /* Vertices. */
  size_t nv, v_cap;
  astar_vec2 *v;
  uint32_t *voff, *vn; /* per vertex: its polygon list in vp */
  int32_t *vp;
  size_t vp_len, vp_cap;
  uint8_t *vflags;
  /* Polygons. */
  size_t np, p_cap;
  uint32_t *poff, *pn; /* per polygon slot: its entries in pv / pnb */
  int32_t *pv, *pnb;
  size_t pool_len, pool_cap; /* entries of pv / pnb in use (holes included) */
  size_t live;               /* non-empty polygons */
  uint32_t max_sides;        /* largest pn */
  /* Derived. */
  double area;
  astar_vec2 min, max; /* bounding box of the vertices */
  uint64_t version;
  /* XOR over the pinch vertices (ASTAR__V_AMBIG) of a hash of (vertex,
  ** gaps around it): with the vertex count, all that Polyanya's root table
  ** depends on -- so a table kept in a workspace is known to fit whatever
  ** mesh (even a new one at a freed one's address) has the same pair. */
  uint64_t pinch_sig;
  struct astar__mesh_index *index;
  /* Read from text: the line of each vertex and polygon, for faults
  ** found after parsing (NULL otherwise; freed once validated). */
  uint32_t *vline, *pline;
  uint32_t *vcol, *pcol;   /* the columns where those lines' objects start */
  size_t lines_v, lines_p; /* their lengths */
  /* An edit in progress: the vertices whose polygon lists it changes
  ** (astar__mesh_set_polygon records them, astar__mesh_edited clears). */
  int32_t *dirty;
  size_t ndirty, dirty_cap;
};

/* Exact predicates (predicates.c): the sign of the determinant, computed
** with adaptive-precision arithmetic (Shewchuk's approach, our own code),
** so the answer is exact for any finite doubles. orient: > 0 when a, b, c
** turn counter-clockwise (c left of a->b), 0 when collinear. incircle: > 0
** when d lies inside the circle through a, b, c (a, b, c counter-
** clockwise), 0 on it. No allocation, no global state. */
int astar__orient2d(astar_vec2 a, astar_vec2 b, astar_vec2 c);
int astar__incircle(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d);

/* Is p on the closed segment a-b? Exact. */
static inline bool astar__on_segment(astar_vec2 a, astar_vec2 b, astar_vec2 p) {
  return astar__orient2d(a, b, p) == 0 && p.x >= (a.x < b.x ? a.x : b.x) &&
         p.x <= (a.x < b.x ? b.x : a.x) && p.y >= (a.y < b.y ? a.y : b.y) &&
         p.y <= (a.y < b.y ? b.y : a.y);
}

/* ---- mesh.c: construction, edits, derived data ------------------------ */

/* An empty mesh with `alloc` (NULL: malloc). */
astar_status astar__mesh_new(astar_mesh **out, const astar_allocator *alloc);

/* Derive the vertex lists, flags, area, bounds and the location index
** from the polygons (after construction or an edit), then validate
** (fault may be NULL). ASTAR_OK, ASTAR_INVALID_ARGUMENT (invalid: *fault)
** or ASTAR_NO_MEMORY. */
astar_status astar__mesh_finish(astar_mesh *m, astar_mesh_fault *fault);

/* Edits (the builder): append a vertex (its index in *id); write polygon
** `slot` (slot == np appends one) with n vertices and neighbours (n == 0
** empties it). The caller keeps neighbour links symmetric; after a batch
** of edits astar__mesh_edited brings the vertex lists, flags, area and
** index up to date for the vertices and polygons named in `touched`
** (polygon slots) and bumps the version. ASTAR_OK or ASTAR_NO_MEMORY
** (the mesh is then as before the failed call). */
astar_status astar__mesh_add_vertex(astar_mesh *m, astar_vec2 p, int32_t *id);
astar_status astar__mesh_set_polygon(astar_mesh *m, size_t slot, uint32_t n, const int32_t *verts,
                                     const int32_t *neighbours);
astar_status astar__mesh_edited(astar_mesh *m, const int32_t *touched, size_t ntouched);

/* Squeeze holes out of the pool (indices unchanged). */
void astar__mesh_compact(astar_mesh *m);

/* Is p in the closed polygon i? (exact; no index) */
bool astar__mesh_poly_holds(const astar_mesh *m, size_t i, astar_vec2 p);

/* Shared by mesh.c, io.c and validate.c. */
/* Room for nv vertices, np polygon slots and `entries` pool entries (the
** counts are set by the caller). ASTAR_TOO_LARGE beyond the limits. */
astar_status astar__mesh_alloc_arrays(astar_mesh *m, size_t nv, size_t np, size_t entries);
/* Release vline / pline. */
void astar__mesh_drop_lines(astar_mesh *m);
/* Polygon i's signed area (> 0 counter-clockwise; rounded). */
double astar__mesh_poly_area(const astar_mesh *m, size_t i);
/* Every directed polygon edge, sorted by (lo, hi, poly, k): edge k of
** `poly` runs from `from` to the polygon's vertex k. */
typedef struct astar__mesh_edge {
  int32_t lo, hi, from, poly;
  uint32_t k;
} astar__mesh_edge;
astar_status astar__mesh_edges(const astar_mesh *m, astar__mesh_edge **out, size_t *n);
void astar__mesh_edges_free(const astar_mesh *m, astar__mesh_edge *e, size_t n);

/* A right turn a -> b -> c whose sine is at most this (about 1e-12) counts
** as collinear in the convexity check (see astar/mesh.h: collinear
** vertices whose coordinates were rounded). */
#define ASTAR__MESH_TURN_TOLERANCE 0x1p-40

/* ---- validate.c: the checks of astar_mesh_validate in their order ------ */
/* Counts and indices in range, coordinates finite. */
astar_status astar__mesh_check_ranges(const astar_mesh *m, astar_mesh_fault *fault);
/* Ranges, then each polygon (degenerate, convex, orientation,
** neighbours), then loose vertices. */
astar_status astar__mesh_check_local(const astar_mesh *m, astar_mesh_fault *fault);
/* Overlaps, found with a temporary location index (locate.c). */
astar_status astar__mesh_check_overlaps(const astar_mesh *m, astar_mesh_fault *fault);
/* Fill *fault (may be NULL): kind, the elements, and the message
** "polygon P (line L): <fmt>" (or "vertex V ..."), the line from m's
** pline / vline when read from text. m may be NULL. */
void astar__mesh_fault(const astar_mesh *m, astar_mesh_fault *fault, astar_mesh_fault_kind kind,
                       int32_t polygon, int32_t vertex, int32_t other, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* ---- locate.c ---------------------------------------------------------- */
astar_status astar__mesh_index_build(astar_mesh *m);
astar_status astar__mesh_index_update(astar_mesh *m, const int32_t *touched, size_t n);
void astar__mesh_index_free(astar_mesh *m);
size_t astar__mesh_index_memory(const astar_mesh *m);

/* ---- cdt.c: constrained Delaunay triangulation -------------------------
** Incremental: points are inserted one by one (a walk from a nearby vertex
** -- a grid of recent vertices -- or the last triangle found locates each;
** a point equal to an existing one returns that vertex), constraint
** segments after them (edges crossing a segment are flipped away; a
** segment crossing another constraint is split at the crossing, whose
** point is rounded to a double -- the only inexact step, after which every
** test is exact again; a vertex on a segment splits it). A bounding
** triangle far outside the input holds everything; its three vertices are
** 0, 1, 2 and their triangles are never reported as inside the input.
** Triangles are records of three vertices (counter-clockwise), three
** neighbours (neighbour k opposite vertex k, -1 only on the bounding
** triangle's edges) and a constraint count per edge (how many input
** segments run along it), so removing one of two overlapping obstacles
** keeps the edge constrained. No triangle is ever deleted (splits and
** flips only): the slots grow by two per vertex, a free slot (v[0] == -1)
** does not occur at present. The result is exactly the constrained
** Delaunay triangulation of the vertices and segments (every
** unconstrained edge locally Delaunay, exact in-circle), cocircular ties
** broken by the insertion history. Deterministic; no global state; one
** object per thread.
*/
typedef struct astar__cdt astar__cdt;

typedef struct astar__cdt_tri {
  int32_t v[3];  /* vertices, counter-clockwise */
  int32_t n[3];  /* neighbour opposite v[k]; -1 none; a free slot has v[0] == -1 */
  uint16_t c[3]; /* constraint count of the edge opposite v[k] */
  uint32_t mark; /* the caller's: kept by a flip (each of the two triangles keeps its
                    slot's), copied to the triangles a split makes from a triangle */
} astar__cdt_tri;

/* A triangulation whose bounding triangle holds the box [min, max] well
** inside (any finite box; min <= max). ASTAR_OK, ASTAR_INVALID_ARGUMENT,
** ASTAR_NO_MEMORY. `alloc` as everywhere (NULL: malloc). */
astar_status astar__cdt_new(astar__cdt **out, astar_vec2 min, astar_vec2 max,
                            const astar_allocator *alloc);
void astar__cdt_free(astar__cdt *c); /* NULL allowed */
/* Insert a point: its vertex in *id. ASTAR_INVALID_ARGUMENT when p is not
** finite or not strictly inside the bounding triangle (the box given to
** astar__cdt_new always is), ASTAR_NO_MEMORY (nothing changed). */
astar_status astar__cdt_insert_point(astar__cdt *c, astar_vec2 p, int32_t *id);
/* Insert n points in a spatial (Hilbert curve) order, which keeps every
** walk short: the way to insert many points. ids[i] receives p[i]'s vertex.
** Stops at the first failure (the points before it stay inserted). */
astar_status astar__cdt_insert_points(astar__cdt *c, const astar_vec2 *p, size_t n, int32_t *ids);
/* Constrain the segment between vertices a and b (>= 3: not the bounding
** triangle's), inserting crossing points as said above, and add one to
** the count of every edge along it. The segment is remembered with its
** vertex chain (later splits included) for astar__cdt_remove_segment; the
** same segment twice counts twice. a == b: nothing (ASTAR_OK).
** ASTAR_INVALID_ARGUMENT (bad vertex), ASTAR_TOO_LARGE (a count would pass
** 65535), ASTAR_NO_MEMORY: then the segment is not inserted (the part
** made is taken off again; crossing points made stay; the triangulation
** is valid, perhaps not Delaunay where the failure struck). */
astar_status astar__cdt_insert_segment(astar__cdt *c, int32_t a, int32_t b);
/* Take one count off every edge along the segment a-b (inserted as a-b
** or b-a); edges whose count falls to 0 become unconstrained and the
** region is made Delaunay again by flips. Vertices stay.
** ASTAR_INVALID_ARGUMENT when no such segment is in, ASTAR_NO_MEMORY
** (nothing changed). */
astar_status astar__cdt_remove_segment(astar__cdt *c, int32_t a, int32_t b);
/* Access. */
size_t astar__cdt_vertex_count(const astar__cdt *c);
astar_vec2 astar__cdt_vertex(const astar__cdt *c, int32_t v);
size_t astar__cdt_tri_slots(const astar__cdt *c);
astar__cdt_tri *astar__cdt_tris(astar__cdt *c); /* valid until the next insertion */
/* Triangles created or changed (vertices, neighbour links, counts) since
** the last call (slots, each once): what an incremental edit must
** reclassify and re-merge. The list is cleared by the call; the pointer
** stays valid until the next edit. */
const int32_t *astar__cdt_touched(astar__cdt *c, size_t *n);
/* The triangle holding p (any one when on an edge or vertex), -1 outside
** the bounding triangle. No allocation; const (safe beside other reads). */
int32_t astar__cdt_locate(const astar__cdt *c, astar_vec2 p);
size_t astar__cdt_memory(const astar__cdt *c); /* bytes held */

#endif /* ASTAR_MESH_MESH_H */
