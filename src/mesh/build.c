/*
** mesh/build.c -- the mesh builder (astar/navmesh_build.h): the base free
** space (a grid or a polygon map), the blocking rings (the radius's
** capsules, the added obstacles), the constrained Delaunay triangulation of
** their edges, each triangle classified free or blocked, the free ones
** merged into convex polygons, and local edits.
**
** Classification. No constraint crosses a triangle's interior and every
** boundary of the free space is a constraint, so a triangle is wholly free
** or wholly blocked: one interior point decides it. The point is the
** centroid, checked with exact orientation tests to lie strictly inside
** (a sliver whose rounded centroid falls outside tries other interior
** points, and failing those takes a neighbour's answer across an
** unconstrained edge). The point is free when the base free space holds
** it (grid: its cell is passable; polygon map: an odd number of polygon
** edges cross the ray to its right) and no blocking ring holds it.
**
** Radius. The capsule of a boundary edge is the convex hull of two copies
** of a regular ASTAR_NAVMESH_RADIUS_SIDES-gon circumscribing the disc of
** radius r (plus a few ulps, so rounding never lets the disc out), centred
** on the edge's ends. With r > 0 only the capsules' edges are constraints:
** the base boundary lies inside the capsules, so it never separates free
** from blocked space.
**
** Edits. Per triangle slot the builder keeps its status and its polygon
** (a list per polygon). An edit changes the triangulation only in the
** slots astar__cdt_touched reports, and the status only of triangles in
** the edit's box; the polygons holding such a triangle are "dirty": they
** are emptied and their free triangles, with the newly free ones, merged
** again into polygons that take the dirty slots first, then new slots.
** Every other polygon keeps its slot; those bordering the region get their
** neighbour links rewritten.
*/
#include "mesh/build.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "astar/grid.h"

/* ---- growable arrays ----------------------------------------------------- */

static bool grow(const astar_allocator *a, void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t nc = *cap ? *cap : 16;
  while (nc < need) nc *= 2;
  size_t bytes;
  if (!astar__mul(nc, elem, &bytes)) return false;
  void *np = astar__malloc(a, bytes);
  if (!np) return false;
  if (*cap) memcpy(np, *p, *cap * elem);
  memset((char *)np + *cap * elem, 0, (nc - *cap) * elem);
  astar__free(a, *p, *cap * elem);
  *p = np;
  *cap = nc;
  return true;
}

/* ---- rings: blocking polygons ----------------------------------------- */

typedef struct ring {
  uint32_t off, n;
  astar_vec2 min, max;
} ring;

typedef struct ringset {
  astar_vec2 *pt;
  size_t npt, pt_cap;
  ring *r;
  size_t nr, r_cap;
  /* bucket grid over the rings' boxes (built by ringset_index) */
  astar_vec2 bmin;
  double cell;
  int32_t bw, bh;
  uint32_t *boff; /* bw*bh + 1 */
  uint32_t *bring;
  size_t nbring;
  astar_vec2 min, max; /* union of the boxes */
} ringset;

static void ringset_free(const astar_allocator *a, ringset *s) {
  astar__free(a, s->pt, s->pt_cap * sizeof *s->pt);
  astar__free(a, s->r, s->r_cap * sizeof *s->r);
  if (s->boff) astar__free(a, s->boff, ((size_t)s->bw * (size_t)s->bh + 1) * sizeof *s->boff);
  astar__free(a, s->bring, s->nbring * sizeof *s->bring);
  memset(s, 0, sizeof *s);
}

static bool ringset_add(const astar_allocator *a, ringset *s, const astar_vec2 *p, size_t n) {
  if (!grow(a, (void **)&s->pt, &s->pt_cap, s->npt + n, sizeof *s->pt)) return false;
  if (!grow(a, (void **)&s->r, &s->r_cap, s->nr + 1, sizeof *s->r)) return false;
  ring *r = &s->r[s->nr];
  r->off = (uint32_t)s->npt;
  r->n = (uint32_t)n;
  r->min = r->max = p[0];
  for (size_t i = 0; i < n; i++) {
    s->pt[s->npt + i] = p[i];
    if (p[i].x < r->min.x) r->min.x = p[i].x;
    if (p[i].y < r->min.y) r->min.y = p[i].y;
    if (p[i].x > r->max.x) r->max.x = p[i].x;
    if (p[i].y > r->max.y) r->max.y = p[i].y;
  }
  if (s->nr == 0) {
    s->min = r->min;
    s->max = r->max;
  } else {
    if (r->min.x < s->min.x) s->min.x = r->min.x;
    if (r->min.y < s->min.y) s->min.y = r->min.y;
    if (r->max.x > s->max.x) s->max.x = r->max.x;
    if (r->max.y > s->max.y) s->max.y = r->max.y;
  }
  s->npt += n;
  s->nr++;
  return true;
}

static int32_t clampi(double v, int32_t hi) {
  if (!(v > 0)) return 0;
  if (v >= hi) return hi - 1;
  return (int32_t)v;
}

/* A uniform bucket grid of about one ring per bucket. */
static bool ringset_index(const astar_allocator *a, ringset *s) {
  if (s->nr == 0) return true;
  double w = s->max.x - s->min.x, h = s->max.y - s->min.y;
  double side = sqrt((double)s->nr);
  if (side < 1) side = 1;
  if (side > 2048) side = 2048;
  double ext = w > h ? w : h;
  s->cell = ext > 0 ? ext / side : 1;
  s->bmin = s->min;
  s->bw = (int32_t)(w / s->cell) + 1;
  s->bh = (int32_t)(h / s->cell) + 1;
  size_t nb = (size_t)s->bw * (size_t)s->bh;
  s->boff = astar__calloc(a, nb + 1, sizeof *s->boff);
  if (!s->boff) return false;
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < s->nr; i++) {
      const ring *r = &s->r[i];
      int32_t x0 = clampi((r->min.x - s->bmin.x) / s->cell, s->bw);
      int32_t x1 = clampi((r->max.x - s->bmin.x) / s->cell, s->bw);
      int32_t y0 = clampi((r->min.y - s->bmin.y) / s->cell, s->bh);
      int32_t y1 = clampi((r->max.y - s->bmin.y) / s->cell, s->bh);
      for (int32_t y = y0; y <= y1; y++) {
        for (int32_t x = x0; x <= x1; x++) {
          size_t b = (size_t)y * (size_t)s->bw + (size_t)x;
          if (pass == 0) {
            s->boff[b + 1]++;
            total++;
          } else {
            s->bring[s->boff[b]++] = (uint32_t)i;
          }
        }
      }
    }
    if (pass == 0) {
      for (size_t b = 0; b < nb; b++) s->boff[b + 1] += s->boff[b];
      s->nbring = total ? total : 1;
      s->bring = astar__calloc(a, s->nbring, sizeof *s->bring);
      if (!s->bring) return false;
    } else {
      for (size_t b = nb; b > 0; b--) s->boff[b] = s->boff[b - 1];
      s->boff[0] = 0;
    }
  }
  return true;
}

static bool ring_holds(const ringset *s, const ring *r, astar_vec2 p) {
  if (p.x < r->min.x || p.x > r->max.x || p.y < r->min.y || p.y > r->max.y) return false;
  return astar__point_in_ring(s->pt + r->off, r->n, p);
}

/* Does any ring hold p? (indexed or, without an index, every ring) */
static bool ringset_holds(const ringset *s, astar_vec2 p) {
  if (s->nr == 0) return false;
  if (p.x < s->min.x || p.x > s->max.x || p.y < s->min.y || p.y > s->max.y) return false;
  if (!s->boff) {
    for (size_t i = 0; i < s->nr; i++)
      if (ring_holds(s, &s->r[i], p)) return true;
    return false;
  }
  int32_t x = clampi((p.x - s->bmin.x) / s->cell, s->bw);
  int32_t y = clampi((p.y - s->bmin.y) / s->cell, s->bh);
  size_t b = (size_t)y * (size_t)s->bw + (size_t)x;
  for (uint32_t i = s->boff[b]; i < s->boff[b + 1]; i++)
    if (ring_holds(s, &s->r[s->bring[i]], p)) return true;
  return false;
}

/* The capsule of segment a-b: the convex hull of the regular polygon of
** radius R around a and around b (counter-clockwise, collinear points
** dropped). out has room for 2 * ASTAR_NAVMESH_RADIUS_SIDES points. */
static int pt_cmp(const void *pa, const void *pb) {
  const astar_vec2 *a = pa, *b = pb;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return (a->y > b->y) - (a->y < b->y);
}

static size_t hull(astar_vec2 *p, size_t n, astar_vec2 *out) {
  qsort(p, n, sizeof *p, pt_cmp);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || p[i].x != p[m - 1].x || p[i].y != p[m - 1].y) p[m++] = p[i];
  n = m;
  if (n < 3) {
    memcpy(out, p, n * sizeof *p);
    return n;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    while (k >= 2 && astar__orient2d(out[k - 2], out[k - 1], p[i]) <= 0) k--;
    out[k++] = p[i];
  }
  size_t lower = k + 1;
  for (size_t i = n - 1; i-- > 0;) {
    while (k >= lower && astar__orient2d(out[k - 2], out[k - 1], p[i]) <= 0) k--;
    out[k++] = p[i];
  }
  return k - 1;
}

#define NSIDES ASTAR_NAVMESH_RADIUS_SIDES

static size_t capsule(astar_vec2 a, astar_vec2 b, double r, astar_vec2 *out) {
  astar_vec2 pts[2 * NSIDES];
  double big = fabs(a.x) + fabs(a.y) + fabs(b.x) + fabs(b.y) + r;
  /* Circumradius, plus enough ulps that the rounded vertices still hold
  ** the disc. */
  double R = r / cos(3.14159265358979323846 / NSIDES) + 64 * DBL_EPSILON * big;
  for (int k = 0; k < NSIDES; k++) {
    double t = 2 * 3.14159265358979323846 * (k + 0.5) / NSIDES;
    double cx = R * cos(t), cy = R * sin(t);
    pts[k] = (astar_vec2){a.x + cx, a.y + cy};
    pts[NSIDES + k] = (astar_vec2){b.x + cx, b.y + cy};
  }
  return hull(pts, (size_t)2 * NSIDES, out);
}

/* ---- the builder ---------------------------------------------------------- */

enum { BASE_GRID = 1, BASE_POLY = 2 };

/* Constraint segments as vertex pairs: v[2i], v[2i+1]; cap counts
** int32_t entries. */
typedef struct seglist {
  int32_t *v;
  size_t n, cap;
} seglist;

typedef struct obstacle {
  uint32_t id;
  ringset rings;       /* its body (ring 0) and, with a radius, its capsules */
  seglist seg;         /* CDT vertex pairs of its constraints */
  astar_vec2 min, max; /* box of the rings */
} obstacle;

struct astar_navmesh {
  astar_allocator alloc;
  astar_navmesh_options opt;
  int base;
  /* BASE_GRID: the passable cells. */
  int32_t gw, gh;
  uint8_t *cells;
  /* BASE_POLY: the polygon edges, indexed by horizontal slabs. */
  astar_vec2 *pe; /* edge i: pe[2i] -> pe[2i+1] */
  size_t npe;
  double slab_y0, slab_h;
  int32_t nslab;
  uint32_t *slab_off, *slab_edge;
  size_t nslab_edge;
  /* Base blocking rings (the radius's capsules). */
  ringset caps;
  /* Added obstacles. */
  obstacle *obs;
  size_t nobs, obs_cap;
  uint32_t next_id;
  /* The triangulation and the per-slot data. */
  astar__cdt *cdt;
  uint8_t *tfree;
  int32_t *tpoly, *tnext;
  uint32_t *tmark; /* epoch of the edit that last visited the slot */
  int32_t *tloc;   /* during a merge: the slot's local triangle, else -1 */
  size_t t_cap;
  uint32_t epoch;
  /* Slots the triangulation changed that the mesh does not reflect yet
  ** (kept across a failed edit); resync: every slot. */
  int32_t *pending;
  size_t npending, pending_cap;
  bool resync;
  int32_t *phead;
  size_t p_cap;
  int32_t *vmap; /* CDT vertex -> mesh vertex, -1 */
  size_t v_cap;
  astar_mesh *mesh;
  astar_navmesh_stats stats;
};

void astar_navmesh_options_init(astar_navmesh_options *o) {
  if (!o) return;
  o->radius = 0;
  o->merge = true;
}

static bool base_free(const astar_navmesh *nm, astar_vec2 p) {
  if (nm->base == BASE_GRID) {
    double fx = floor(p.x), fy = floor(p.y);
    if (fx < 0 || fy < 0 || fx >= nm->gw || fy >= nm->gh) return false;
    return nm->cells[(size_t)fy * (size_t)nm->gw + (size_t)fx] != 0;
  }
  if (nm->nslab == 0) return false;
  double fs = floor((p.y - nm->slab_y0) / nm->slab_h);
  if (!(fs >= 0) || fs >= nm->nslab) return false;
  size_t s = (size_t)fs;
  unsigned odd = 0;
  for (uint32_t i = nm->slab_off[s]; i < nm->slab_off[s + 1]; i++) {
    size_t e = nm->slab_edge[i];
    astar_vec2 a = nm->pe[2 * e], b = nm->pe[2 * e + 1];
    /* Half-open in y, so a vertex on the ray counts once. */
    if ((a.y > p.y) != (b.y > p.y)) {
      int o = astar__orient2d(a, b, p);
      if (b.y > a.y ? o > 0 : o < 0) odd ^= 1u; /* p left of the upward edge: ray crosses */
    }
  }
  return odd != 0;
}

static bool point_free(const astar_navmesh *nm, astar_vec2 p) {
  if (!base_free(nm, p)) return false;
  if (ringset_holds(&nm->caps, p)) return false;
  for (size_t i = 0; i < nm->nobs; i++) {
    const obstacle *o = &nm->obs[i];
    if (p.x < o->min.x || p.x > o->max.x || p.y < o->min.y || p.y > o->max.y) continue;
    if (ringset_holds(&o->rings, p)) return false;
  }
  return true;
}

/* 1 free, 0 blocked, 2 undecided (no interior point found). */
static int classify(const astar_navmesh *nm, const astar__cdt_tri *t) {
  if (t->v[0] < 3 || t->v[1] < 3 || t->v[2] < 3) return 0;
  astar_vec2 a = astar__cdt_vertex(nm->cdt, t->v[0]), b = astar__cdt_vertex(nm->cdt, t->v[1]),
             c = astar__cdt_vertex(nm->cdt, t->v[2]);
  static const double w[4][3] = {
      {1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.5, 0.25, 0.25}, {0.25, 0.5, 0.25}, {0.25, 0.25, 0.5}};
  for (int i = 0; i < 4; i++) {
    astar_vec2 p = {w[i][0] * a.x + w[i][1] * b.x + w[i][2] * c.x,
                    w[i][0] * a.y + w[i][1] * b.y + w[i][2] * c.y};
    if (i == 0) {
      p.x = (a.x + b.x + c.x) / 3;
      p.y = (a.y + b.y + c.y) / 3;
    }
    if (astar__orient2d(a, b, p) > 0 && astar__orient2d(b, c, p) > 0 &&
        astar__orient2d(c, a, p) > 0)
      return point_free(nm, p) ? 1 : 0;
  }
  return 2;
}

/* Settle undecided triangles from neighbours across unconstrained edges. */
static void settle(astar_navmesh *nm, const int32_t *list, size_t n) {
  astar__cdt_tri *tris = astar__cdt_tris(nm->cdt);
  for (int round = 0; round < 8; round++) {
    bool left = false;
    for (size_t i = 0; i < n; i++) {
      int32_t s = list[i];
      if (nm->tfree[s] != 2) continue;
      for (int k = 0; k < 3; k++) {
        int32_t u = tris[s].n[k];
        if (u >= 0 && tris[s].c[k] == 0 && nm->tfree[u] != 2) {
          nm->tfree[s] = nm->tfree[u];
          break;
        }
      }
      if (nm->tfree[s] == 2) left = true;
    }
    if (!left) return;
  }
  for (size_t i = 0; i < n; i++)
    if (nm->tfree[list[i]] == 2) nm->tfree[list[i]] = 0;
}

static bool ensure_slots(astar_navmesh *nm) {
  size_t n = astar__cdt_tri_slots(nm->cdt);
  if (n <= nm->t_cap) return true;
  size_t nc = nm->t_cap ? nm->t_cap : 64;
  while (nc < n) nc *= 2;
  const astar_allocator *a = &nm->alloc;
  uint8_t *f = astar__calloc(a, nc, 1);
  int32_t *p = astar__calloc(a, nc, sizeof *p), *x = astar__calloc(a, nc, sizeof *x);
  int32_t *l = astar__calloc(a, nc, sizeof *l);
  uint32_t *m = astar__calloc(a, nc, sizeof *m);
  if (!f || !p || !x || !l || !m) {
    astar__free(a, f, nc);
    astar__free(a, p, nc * sizeof *p);
    astar__free(a, x, nc * sizeof *x);
    astar__free(a, l, nc * sizeof *l);
    astar__free(a, m, nc * sizeof *m);
    return false;
  }
  size_t o = nm->t_cap;
  if (o) {
    memcpy(f, nm->tfree, o);
    memcpy(p, nm->tpoly, o * sizeof *p);
    memcpy(x, nm->tnext, o * sizeof *x);
    memcpy(l, nm->tloc, o * sizeof *l);
    memcpy(m, nm->tmark, o * sizeof *m);
  }
  for (size_t i = o; i < nc; i++) p[i] = x[i] = l[i] = -1;
  astar__free(a, nm->tfree, o);
  astar__free(a, nm->tpoly, o * sizeof *p);
  astar__free(a, nm->tnext, o * sizeof *x);
  astar__free(a, nm->tloc, o * sizeof *l);
  astar__free(a, nm->tmark, o * sizeof *m);
  nm->tfree = f;
  nm->tpoly = p;
  nm->tnext = x;
  nm->tloc = l;
  nm->tmark = m;
  nm->t_cap = nc;
  return true;
}

static bool ensure_vmap(astar_navmesh *nm) {
  size_t n = astar__cdt_vertex_count(nm->cdt), old = nm->v_cap;
  if (!grow(&nm->alloc, (void **)&nm->vmap, &nm->v_cap, n, sizeof(int32_t))) return false;
  for (size_t i = old; i < nm->v_cap; i++) nm->vmap[i] = -1;
  return true;
}

static bool ensure_polys(astar_navmesh *nm, size_t n) {
  size_t old = nm->p_cap;
  if (!grow(&nm->alloc, (void **)&nm->phead, &nm->p_cap, n, sizeof(int32_t))) return false;
  for (size_t i = old; i < nm->p_cap; i++) nm->phead[i] = -1;
  return true;
}

/* Insert a ring's edges as constraints (points first); records the vertex
** pairs in *seg (grown) when seg is given. */
static bool seg_reserve(astar_navmesh *nm, seglist *l) {
  return grow(&nm->alloc, (void **)&l->v, &l->cap, 2 * (l->n + 1), sizeof(int32_t));
}

static void seg_put(seglist *l, int32_t a, int32_t b) {
  l->v[2 * l->n] = a;
  l->v[2 * l->n + 1] = b;
  l->n++;
}

static astar_status insert_ring(astar_navmesh *nm, const astar_vec2 *p, size_t n, seglist *seg) {
  int32_t first = -1, prev = -1;
  for (size_t i = 0; i < n; i++) {
    int32_t id;
    astar_status st = astar__cdt_insert_point(nm->cdt, p[i], &id);
    if (st != ASTAR_OK) return st;
    if (i == 0) first = id;
    if (i > 0 && id != prev) {
      if (seg && !seg_reserve(nm, seg)) return ASTAR_NO_MEMORY;
      st = astar__cdt_insert_segment(nm->cdt, prev, id);
      if (st != ASTAR_OK) return st;
      if (seg) seg_put(seg, prev, id);
    }
    prev = id;
  }
  if (n > 2 && prev != first) {
    if (seg && !seg_reserve(nm, seg)) return ASTAR_NO_MEMORY;
    astar_status st = astar__cdt_insert_segment(nm->cdt, prev, first);
    if (st != ASTAR_OK) return st;
    if (seg) seg_put(seg, prev, first);
  }
  return ASTAR_OK;
}

/* Add the capsule of segment a-b to `set` (not yet to the triangulation:
** insert_capsules). */
static bool add_capsule(astar_navmesh *nm, ringset *set, astar_vec2 a, astar_vec2 b) {
  astar_vec2 cap[2 * NSIDES];
  size_t n = capsule(a, b, nm->opt.radius, cap);
  if (n < 3) return true;
  return ringset_add(&nm->alloc, set, cap, n);
}

/* Is p strictly inside the convex counter-clockwise ring r? */
static bool convex_strictly_holds(const ringset *s, const ring *r, astar_vec2 p) {
  if (p.x <= r->min.x || p.x >= r->max.x || p.y <= r->min.y || p.y >= r->max.y) return false;
  const astar_vec2 *q = s->pt + r->off;
  for (uint32_t i = 0; i < r->n; i++)
    if (astar__orient2d(q[i], q[(i + 1) % r->n], p) <= 0) return false;
  return true;
}

/* Does a convex ring of `s` (index >= first, not `self`) hold the segment
** a-b in its interior? (both ends strictly inside: a convex interior holds
** the segment between them) */
static bool seg_buried(const ringset *s, size_t first, size_t self, astar_vec2 a, astar_vec2 b) {
  if (s->boff) {
    int32_t x = clampi((a.x - s->bmin.x) / s->cell, s->bw);
    int32_t y = clampi((a.y - s->bmin.y) / s->cell, s->bh);
    size_t bk = (size_t)y * (size_t)s->bw + (size_t)x;
    for (uint32_t i = s->boff[bk]; i < s->boff[bk + 1]; i++) {
      uint32_t k = s->bring[i];
      if (k < first || k == self) continue;
      if (convex_strictly_holds(s, &s->r[k], a) && convex_strictly_holds(s, &s->r[k], b))
        return true;
    }
    return false;
  }
  for (size_t k = first; k < s->nr; k++)
    if (k != self && convex_strictly_holds(s, &s->r[k], a) && convex_strictly_holds(s, &s->r[k], b))
      return true;
  return false;
}

/* Is the segment a-b in the interior of the grid's blocked cells (every
** cell its slightly grown box meets is blocked or outside)? */
static bool seg_in_blocked_cells(const astar_navmesh *nm, astar_vec2 a, astar_vec2 b) {
  if (nm->base != BASE_GRID) return false;
  const double eps = 1e-9;
  /* Cells outside the grid are blocked: clamp the range to it. */
  double fx0 = fmax(floor(fmin(a.x, b.x) - eps), 0),
         fx1 = fmin(floor(fmax(a.x, b.x) + eps), nm->gw - 1);
  double fy0 = fmax(floor(fmin(a.y, b.y) - eps), 0),
         fy1 = fmin(floor(fmax(a.y, b.y) + eps), nm->gh - 1);
  if (fx0 > fx1 || fy0 > fy1) return true;
  int32_t x0 = (int32_t)fx0, x1 = (int32_t)fx1, y0 = (int32_t)fy0, y1 = (int32_t)fy1;
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++)
      if (nm->cells[(size_t)y * (size_t)nm->gw + (size_t)x]) return false;
  return true;
}

/* Insert the edges of rings [first, s->nr) of `s` as constraints, but not
** those buried in another convex ring of s (from `first`) or in blocked
** grid cells: the free space's boundary is made of the others, and a
** triangle crossing a buried edge is blocked on both sides, so the
** classification stays exact. The inserted pairs go to *seg when given. */
static astar_status insert_capsules(astar_navmesh *nm, const ringset *s, size_t first,
                                    seglist *seg) {
  /* The kept edges' ends, inserted at once in the triangulation's spatial
  ** order (short walks), then the edges. */
  const astar_allocator *al = &nm->alloc;
  size_t cap = s->npt ? 2 * s->npt : 1, n = 0;
  astar_vec2 *pts = astar__malloc(al, cap * sizeof *pts);
  int32_t *ids = astar__malloc(al, cap * sizeof *ids);
  astar_status st = ASTAR_NO_MEMORY;
  if (!pts || !ids) goto done;
  for (size_t k = first; k < s->nr; k++) {
    const ring *r = &s->r[k];
    const astar_vec2 *q = s->pt + r->off;
    for (uint32_t i = 0; i < r->n; i++) {
      astar_vec2 a = q[i], b = q[(i + 1) % r->n];
      if (seg_in_blocked_cells(nm, a, b) || seg_buried(s, first, k, a, b)) continue;
      pts[n++] = a;
      pts[n++] = b;
    }
  }
  st = astar__cdt_insert_points(nm->cdt, pts, n, ids);
  for (size_t i = 0; st == ASTAR_OK && i < n; i += 2) {
    if (ids[i] == ids[i + 1]) continue;
    if (seg && !seg_reserve(nm, seg)) {
      st = ASTAR_NO_MEMORY;
      break;
    }
    st = astar__cdt_insert_segment(nm->cdt, ids[i], ids[i + 1]);
    if (st == ASTAR_OK && seg) seg_put(seg, ids[i], ids[i + 1]);
  }
done:
  astar__free(al, pts, cap * sizeof *pts);
  astar__free(al, ids, cap * sizeof *ids);
  return st;
}

/* The triangulation's figures, counted when asked (an edit does not pay
** for a scan of every triangle). */
static void count_stats(const astar_navmesh *nm, astar_navmesh_stats *out) {
  size_t slots = astar__cdt_tri_slots(nm->cdt);
  const astar__cdt_tri *tris = astar__cdt_tris(nm->cdt);
  size_t nt = 0, nf = 0, nc = 0;
  for (size_t s = 0; s < slots; s++) {
    if (tris[s].v[0] < 0) continue;
    nt++;
    if (nm->tfree[s] == 1) nf++;
    for (int k = 0; k < 3; k++)
      if (tris[s].c[k] && (tris[s].n[k] < 0 || (size_t)tris[s].n[k] > s)) nc++;
  }
  out->constraints = nc;
  out->triangles = nt;
  out->free_triangles = nf;
  out->polygons = nm->mesh->live;
}

void astar_navmesh_free(astar_navmesh *nm) {
  if (!nm) return;
  const astar_allocator *a = &nm->alloc;
  astar__free(a, nm->cells, (size_t)nm->gw * (size_t)nm->gh);
  astar__free(a, nm->pe, 2 * nm->npe * sizeof *nm->pe);
  if (nm->slab_off) astar__free(a, nm->slab_off, ((size_t)nm->nslab + 1) * sizeof *nm->slab_off);
  astar__free(a, nm->slab_edge, nm->nslab_edge * sizeof *nm->slab_edge);
  ringset_free(a, &nm->caps);
  for (size_t i = 0; i < nm->nobs; i++) {
    ringset_free(a, &nm->obs[i].rings);
    astar__free(a, nm->obs[i].seg.v, nm->obs[i].seg.cap * sizeof(int32_t));
  }
  astar__free(a, nm->obs, nm->obs_cap * sizeof *nm->obs);
  if (nm->cdt) astar__cdt_free(nm->cdt);
  astar__free(a, nm->tfree, nm->t_cap);
  astar__free(a, nm->tpoly, nm->t_cap * sizeof *nm->tpoly);
  astar__free(a, nm->tnext, nm->t_cap * sizeof *nm->tnext);
  astar__free(a, nm->tloc, nm->t_cap * sizeof *nm->tloc);
  astar__free(a, nm->tmark, nm->t_cap * sizeof *nm->tmark);
  astar__free(a, nm->pending, nm->pending_cap * sizeof *nm->pending);
  astar__free(a, nm->phead, nm->p_cap * sizeof *nm->phead);
  astar__free(a, nm->vmap, nm->v_cap * sizeof *nm->vmap);
  if (nm->mesh) astar_mesh_free(nm->mesh);
  astar__free(a, nm, sizeof *nm);
}

/* ---- merging a set of free triangles into mesh polygons ------------------ */

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The triangles `R` (slots, ascending) as local arrays for astar__merge:
** tv from the triangulation, tn the local triangle across each edge (edge
** k runs from v[k] to v[k+1], opposite the CDT's v[k+2]). tloc[slot] is
** set to the local index (the caller resets it). */
static astar_status merge_slots(astar_navmesh *nm, const int32_t *R, size_t nr, int32_t **tv_out,
                                astar__merged *out) {
  const astar_allocator *a = &nm->alloc;
  const astar__cdt_tri *tris = astar__cdt_tris(nm->cdt);
  size_t n3;
  if (!astar__mul(nr ? nr : 1, 3 * sizeof(int32_t), &n3)) return ASTAR_TOO_LARGE;
  /* The merge sees local vertex ids: the used triangulation vertices in
  ** increasing order (so its ties fall as they would on the global ids),
  ** which keeps an edit's cost in proportion to its region. */
  int32_t *tv = astar__malloc(a, n3), *tn = astar__malloc(a, n3), *lv = astar__malloc(a, n3);
  int32_t *used = astar__malloc(a, n3);
  astar_vec2 *v = astar__malloc(a, (nr ? nr : 1) * 3 * sizeof *v);
  astar_status st = ASTAR_NO_MEMORY;
  if (!tv || !tn || !lv || !used || !v) goto done;
  for (size_t i = 0; i < nr; i++) nm->tloc[R[i]] = (int32_t)i;
  for (size_t i = 0; i < nr; i++) {
    const astar__cdt_tri *t = &tris[R[i]];
    for (int k = 0; k < 3; k++) {
      tv[3 * i + (size_t)k] = used[3 * i + (size_t)k] = t->v[k];
      int32_t u = t->n[(k + 2) % 3];
      tn[3 * i + (size_t)k] = u >= 0 ? nm->tloc[u] : -1;
    }
  }
  qsort(used, 3 * nr, sizeof *used, cmp_i32);
  size_t nu = 0;
  for (size_t i = 0; i < 3 * nr; i++)
    if (nu == 0 || used[nu - 1] != used[i]) used[nu++] = used[i];
  for (size_t i = 0; i < nu; i++) v[i] = astar__cdt_vertex(nm->cdt, used[i]);
  for (size_t i = 0; i < 3 * nr; i++) {
    const int32_t *f = bsearch(&tv[i], used, nu, sizeof *used, cmp_i32);
    lv[i] = (int32_t)(f - used);
  }
  st = astar__merge(a, v, lv, tn, nr, nm->opt.merge, out);
done:
  astar__free(a, tn, n3);
  astar__free(a, lv, n3);
  astar__free(a, used, n3);
  astar__free(a, v, (nr ? nr : 1) * 3 * sizeof *v);
  if (st == ASTAR_OK) {
    *tv_out = tv;
  } else {
    astar__free(a, tv, n3);
    for (size_t i = 0; i < nr; i++) nm->tloc[R[i]] = -1;
  }
  return st;
}

/* Classify every live slot and make the mesh from scratch. */
static astar_status build_full(astar_navmesh *nm) {
  const astar_allocator *a = &nm->alloc;
  if (!ensure_slots(nm) || !ensure_vmap(nm)) return ASTAR_NO_MEMORY;
  (void)astar__cdt_touched(nm->cdt, &(size_t){0});
  size_t slots = astar__cdt_tri_slots(nm->cdt);
  astar__cdt_tri *tris = astar__cdt_tris(nm->cdt);
  int32_t *R = astar__malloc(a, (slots ? slots : 1) * sizeof *R);
  if (!R) return ASTAR_NO_MEMORY;
  size_t nl = 0;
  for (size_t s = 0; s < slots; s++) {
    nm->tpoly[s] = nm->tnext[s] = -1;
    if (tris[s].v[0] < 0) {
      nm->tfree[s] = 0;
      continue;
    }
    nm->tfree[s] = (uint8_t)classify(nm, &tris[s]);
    R[nl++] = (int32_t)s;
  }
  settle(nm, R, nl);
  size_t nr = 0;
  for (size_t i = 0; i < nl; i++)
    if (nm->tfree[R[i]] == 1) R[nr++] = R[i];
  astar_status st;
  if (nr == 0) {
    st = ASTAR_NO_PATH;
    goto out;
  }
  astar__merged mg;
  int32_t *tv = NULL;
  st = merge_slots(nm, R, nr, &tv, &mg);
  if (st != ASTAR_OK) goto out;
  /* Mesh vertices: the used triangulation vertices in their order. */
  size_t nv = astar__cdt_vertex_count(nm->cdt), mv = 0;
  for (size_t i = 0; i < nr; i++)
    for (int k = 0; k < 3; k++) nm->vmap[tv[3 * i + (size_t)k]] = 0;
  astar_vec2 *verts = astar__malloc(a, nv * sizeof *verts);
  uint32_t *sizes = astar__malloc(a, (mg.np ? mg.np : 1) * sizeof *sizes);
  int32_t *pv = astar__malloc(a, mg.off_len * sizeof *pv);
  if (!verts || !sizes || !pv) {
    st = ASTAR_NO_MEMORY;
  } else {
    for (size_t i = 0; i < nv; i++) {
      if (nm->vmap[i] < 0) continue;
      nm->vmap[i] = (int32_t)mv;
      verts[mv++] = astar__cdt_vertex(nm->cdt, (int32_t)i);
    }
    for (size_t p = 0; p < mg.np; p++) {
      sizes[p] = mg.off[p + 1] - mg.off[p];
      for (uint32_t j = mg.off[p]; j < mg.off[p + 1]; j++) pv[j] = nm->vmap[tv[mg.side[j]]];
    }
    astar_mesh_fault fault;
    st = astar_mesh_from_polygons(&nm->mesh, verts, mv, sizes, pv, mg.np, a, &fault);
    /* The merged polygons are valid by construction; a refusal would be a
    ** bug here, reported as the only status that fits. */
    if (st == ASTAR_INVALID_ARGUMENT) st = ASTAR_NO_PATH;
  }
  if (st == ASTAR_OK && !ensure_polys(nm, mg.np)) st = ASTAR_NO_MEMORY;
  if (st == ASTAR_OK) {
    for (size_t i = nr; i-- > 0;) {
      int32_t s = R[i], p = mg.tri_poly[i];
      nm->tpoly[s] = p;
      nm->tnext[s] = nm->phead[p];
      nm->phead[p] = s;
    }
    nm->stats.added = mg.np;
  }
  for (size_t i = 0; i < nr; i++) nm->tloc[R[i]] = -1;
  astar__free(a, verts, nv * sizeof *verts);
  astar__free(a, sizes, (mg.np ? mg.np : 1) * sizeof *sizes);
  astar__free(a, pv, mg.off_len * sizeof *pv);
  astar__free(a, tv, (nr ? nr : 1) * 3 * sizeof(int32_t));
  astar__merge_free(a, &mg);
out:
  astar__free(a, R, (slots ? slots : 1) * sizeof *R);
  return st;
}

static astar_status check_options(const astar_navmesh_options *o) {
  if (!isfinite(o->radius) || o->radius < 0 || o->radius > 1e6) return ASTAR_INVALID_ARGUMENT;
  return ASTAR_OK;
}

static astar_status navmesh_new(astar_navmesh **out, const astar_navmesh_options *o,
                                const astar_allocator *alloc) {
  astar_allocator al;
  astar__alloc_init(&al, alloc);
  astar_navmesh *nm = astar__calloc(&al, 1, sizeof *nm);
  if (!nm) return ASTAR_NO_MEMORY;
  nm->alloc = al;
  if (o) {
    nm->opt = *o;
  } else {
    astar_navmesh_options_init(&nm->opt);
  }
  nm->next_id = 1;
  *out = nm;
  return ASTAR_OK;
}

/* Insert the obstacles of `src` (a full rebuild, astar__navmesh_rebuilt). */
static astar_status copy_obstacles(astar_navmesh *nm, const astar_navmesh *src) {
  const astar_allocator *a = &nm->alloc;
  for (size_t i = 0; i < src->nobs; i++) {
    const obstacle *so = &src->obs[i];
    if (!grow(a, (void **)&nm->obs, &nm->obs_cap, nm->nobs + 1, sizeof *nm->obs))
      return ASTAR_NO_MEMORY;
    obstacle *o = &nm->obs[nm->nobs++];
    memset(o, 0, sizeof *o);
    o->id = so->id;
    o->min = so->min;
    o->max = so->max;
    for (size_t r = 0; r < so->rings.nr; r++) {
      const ring *g = &so->rings.r[r];
      const astar_vec2 *p = so->rings.pt + g->off;
      if (!ringset_add(a, &o->rings, p, g->n)) return ASTAR_NO_MEMORY;
      /* The body is a constraint without a radius; with one, the capsules. */
      if (nm->opt.radius == 0) {
        astar_status st = insert_ring(nm, p, g->n, &o->seg);
        if (st != ASTAR_OK) return st;
      }
    }
    if (nm->opt.radius > 0) {
      astar_status st = insert_capsules(nm, &o->rings, 1, &o->seg);
      if (st != ASTAR_OK) return st;
    }
  }
  nm->next_id = src->next_id;
  return ASTAR_OK;
}

static astar_status finish_new(astar_navmesh **out, astar_navmesh *nm, astar_status st,
                               const astar_navmesh *src) {
  if (st == ASTAR_OK && src) st = copy_obstacles(nm, src);
  if (st == ASTAR_OK) st = build_full(nm);
  if (st != ASTAR_OK) {
    astar_navmesh_free(nm);
    *out = NULL;
    return st;
  }
  nm->stats.removed = 0;
  *out = nm;
  return ASTAR_OK;
}

static astar_status from_grid(astar_navmesh **out, const astar_grid *grid,
                              const astar_navmesh_options *o, const astar_allocator *alloc,
                              const astar_navmesh *src) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  if (o && check_options(o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (astar_grid_count_passable(grid) == 0) return ASTAR_NO_PATH;
  astar_navmesh *nm;
  astar_status st = navmesh_new(&nm, o, alloc);
  if (st != ASTAR_OK) return st;
  const astar_allocator *a = &nm->alloc;
  nm->base = BASE_GRID;
  int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  nm->cells = astar__malloc(a, (size_t)w * (size_t)h);
  if (!nm->cells) return finish_new(out, nm, ASTAR_NO_MEMORY, NULL);
  nm->gw = w;
  nm->gh = h;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      nm->cells[(size_t)y * (size_t)w + (size_t)x] = astar_grid_passable(grid, x, y) ? 1 : 0;
  int32_t *seg = NULL;
  size_t nseg = 0;
  st = astar__grid_outline(grid, a, &seg, &nseg);
  if (st != ASTAR_OK) return finish_new(out, nm, st, NULL);
  double r = nm->opt.radius, pad = 2 * r + 1;
  st = astar__cdt_new(&nm->cdt, (astar_vec2){-pad, -pad}, (astar_vec2){w + pad, h + pad}, a);
  if (st == ASTAR_OK && r == 0) {
    /* Points first (the walk locating each is short in this order), then
    ** the segments. */
    /* Points first, in the triangulation's spatial order (short walks),
    ** then the segments. */
    int32_t *ids = astar__malloc(a, (nseg ? nseg : 1) * 2 * sizeof *ids);
    astar_vec2 *pts = astar__malloc(a, (nseg ? nseg : 1) * 2 * sizeof *pts);
    if (!ids || !pts) st = ASTAR_NO_MEMORY;
    for (size_t i = 0; st == ASTAR_OK && i < 2 * nseg; i++)
      pts[i] = (astar_vec2){seg[2 * i], seg[2 * i + 1]};
    if (st == ASTAR_OK) st = astar__cdt_insert_points(nm->cdt, pts, 2 * nseg, ids);
    for (size_t i = 0; st == ASTAR_OK && i < nseg; i++)
      st = astar__cdt_insert_segment(nm->cdt, ids[2 * i], ids[2 * i + 1]);
    astar__free(a, ids, (nseg ? nseg : 1) * 2 * sizeof *ids);
    astar__free(a, pts, (nseg ? nseg : 1) * 2 * sizeof *pts);
  } else if (st == ASTAR_OK) {
    for (size_t i = 0; st == ASTAR_OK && i < nseg; i++) {
      astar_vec2 p = {seg[4 * i], seg[4 * i + 1]}, q = {seg[4 * i + 2], seg[4 * i + 3]};
      if (!add_capsule(nm, &nm->caps, p, q)) st = ASTAR_NO_MEMORY;
    }
    if (st == ASTAR_OK && !ringset_index(a, &nm->caps)) st = ASTAR_NO_MEMORY;
    if (st == ASTAR_OK) st = insert_capsules(nm, &nm->caps, 0, NULL);
  }
  astar__free(a, seg, nseg * 4 * sizeof *seg);
  return finish_new(out, nm, st, src);
}

static astar_status from_polymap(astar_navmesh **out, const astar_polymap *map,
                                 const astar_navmesh_options *o, const astar_allocator *alloc,
                                 const astar_navmesh *src) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!map) return ASTAR_INVALID_ARGUMENT;
  if (o && check_options(o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  astar_navmesh *nm;
  astar_status st = navmesh_new(&nm, o, alloc);
  if (st != ASTAR_OK) return st;
  const astar_allocator *a = &nm->alloc;
  nm->base = BASE_POLY;
  size_t np = astar_polymap_count(map), ne = 0;
  astar_vec2 lo = {0, 0}, hi = {0, 0};
  bool any = false;
  for (size_t i = 0; i < np; i++) {
    const astar_vec2 *p;
    uint32_t n = astar_polymap_polygon(map, i, &p);
    ne += n;
    for (uint32_t k = 0; k < n; k++) {
      if (!any || p[k].x < lo.x) lo.x = p[k].x;
      if (!any || p[k].y < lo.y) lo.y = p[k].y;
      if (!any || p[k].x > hi.x) hi.x = p[k].x;
      if (!any || p[k].y > hi.y) hi.y = p[k].y;
      any = true;
    }
  }
  if (ne == 0) return finish_new(out, nm, ASTAR_NO_PATH, NULL);
  nm->pe = astar__malloc(a, 2 * ne * sizeof *nm->pe);
  if (!nm->pe) return finish_new(out, nm, ASTAR_NO_MEMORY, NULL);
  nm->npe = ne;
  ne = 0;
  for (size_t i = 0; i < np; i++) {
    const astar_vec2 *p;
    uint32_t n = astar_polymap_polygon(map, i, &p);
    for (uint32_t k = 0; k < n; k++) {
      nm->pe[2 * ne] = p[k];
      nm->pe[2 * ne + 1] = p[(k + 1) % n];
      ne++;
    }
  }
  /* Horizontal slabs of about 4 edges each (an edge is listed in every
  ** slab its y-range meets). */
  size_t ns = ne / 4 + 1;
  if (ns > 65536) ns = 65536;
  nm->nslab = (int32_t)ns;
  nm->slab_y0 = lo.y;
  nm->slab_h = (hi.y - lo.y) / (double)ns;
  if (!(nm->slab_h > 0)) nm->slab_h = 1;
  nm->slab_off = astar__calloc(a, ns + 1, sizeof *nm->slab_off);
  if (!nm->slab_off) return finish_new(out, nm, ASTAR_NO_MEMORY, NULL);
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t e = 0; e < ne; e++) {
      double y0 = nm->pe[2 * e].y, y1 = nm->pe[2 * e + 1].y;
      if (y0 > y1) {
        double t = y0;
        y0 = y1;
        y1 = t;
      }
      int32_t s0 = clampi(floor((y0 - nm->slab_y0) / nm->slab_h), nm->nslab);
      int32_t s1 = clampi(floor((y1 - nm->slab_y0) / nm->slab_h), nm->nslab);
      for (int32_t s = s0; s <= s1; s++) {
        if (pass == 0) {
          nm->slab_off[s + 1]++;
          total++;
        } else {
          nm->slab_edge[nm->slab_off[s]++] = (uint32_t)e;
        }
      }
    }
    if (pass == 0) {
      for (size_t s = 0; s < ns; s++) nm->slab_off[s + 1] += nm->slab_off[s];
      nm->nslab_edge = total;
      nm->slab_edge = astar__calloc(a, total, sizeof *nm->slab_edge);
      if (!nm->slab_edge) return finish_new(out, nm, ASTAR_NO_MEMORY, NULL);
    } else {
      for (size_t s = ns; s > 0; s--) nm->slab_off[s] = nm->slab_off[s - 1];
      nm->slab_off[0] = 0;
    }
  }
  double r = nm->opt.radius, pad = 2 * r + 1 + (hi.x - lo.x + hi.y - lo.y) * 0.01;
  st = astar__cdt_new(&nm->cdt, (astar_vec2){lo.x - pad, lo.y - pad},
                      (astar_vec2){hi.x + pad, hi.y + pad}, a);
  for (size_t i = 0; st == ASTAR_OK && i < np; i++) {
    const astar_vec2 *p;
    uint32_t n = astar_polymap_polygon(map, i, &p);
    if (r == 0) {
      st = insert_ring(nm, p, n, NULL);
    } else {
      for (uint32_t k = 0; st == ASTAR_OK && k < n; k++)
        if (!add_capsule(nm, &nm->caps, p[k], p[(k + 1) % n])) st = ASTAR_NO_MEMORY;
    }
  }
  if (st == ASTAR_OK && r > 0 && !ringset_index(a, &nm->caps)) st = ASTAR_NO_MEMORY;
  if (st == ASTAR_OK && r > 0) st = insert_capsules(nm, &nm->caps, 0, NULL);
  return finish_new(out, nm, st, src);
}

astar_status astar_navmesh_from_grid(astar_navmesh **out, const astar_grid *grid,
                                     const astar_navmesh_options *o, const astar_allocator *alloc) {
  return from_grid(out, grid, o, alloc, NULL);
}

astar_status astar_navmesh_from_polymap(astar_navmesh **out, const astar_polymap *map,
                                        const astar_navmesh_options *o,
                                        const astar_allocator *alloc) {
  return from_polymap(out, map, o, alloc, NULL);
}

astar_status astar__navmesh_rebuilt(astar_navmesh **out, const astar_navmesh *src,
                                    const astar_grid *grid, const astar_polymap *map) {
  if (!out || !src || (!grid == !map)) return ASTAR_INVALID_ARGUMENT;
  return grid ? from_grid(out, grid, &src->opt, &src->alloc, src)
              : from_polymap(out, map, &src->opt, &src->alloc, src);
}

const astar_mesh *astar_navmesh_mesh(const astar_navmesh *nm) {
  return nm ? nm->mesh : NULL;
}

static size_t ringset_memory(const ringset *s) {
  return s->pt_cap * sizeof *s->pt + s->r_cap * sizeof *s->r +
         (s->boff ? ((size_t)s->bw * (size_t)s->bh + 1) * sizeof *s->boff : 0) +
         s->nbring * sizeof *s->bring;
}

void astar_navmesh_stats_get(const astar_navmesh *nm, astar_navmesh_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!nm) return;
  *out = nm->stats;
  /* The triangulation is not changed by counting (the accessor has no
  ** const form). */
  count_stats(nm, out);
  size_t m = sizeof *nm + (size_t)nm->gw * (size_t)nm->gh + 2 * nm->npe * sizeof *nm->pe +
             (nm->slab_off ? ((size_t)nm->nslab + 1) * sizeof *nm->slab_off : 0) +
             nm->nslab_edge * sizeof *nm->slab_edge + ringset_memory(&nm->caps) +
             nm->obs_cap * sizeof *nm->obs + nm->t_cap * (1 + 4 * sizeof(int32_t)) +
             nm->p_cap * sizeof *nm->phead + nm->v_cap * sizeof *nm->vmap +
             nm->pending_cap * sizeof *nm->pending;
  for (size_t i = 0; i < nm->nobs; i++)
    m += ringset_memory(&nm->obs[i].rings) + nm->obs[i].seg.cap * sizeof(int32_t);
  if (nm->cdt) m += astar__cdt_memory(nm->cdt);
  if (nm->mesh) m += astar_mesh_memory(nm->mesh);
  out->memory = m;
}

/* ---- edits ----------------------------------------------------------------- */

static bool box_overlap(astar_vec2 amin, astar_vec2 amax, astar_vec2 bmin, astar_vec2 bmax) {
  return !(amax.x < bmin.x || bmax.x < amin.x || amax.y < bmin.y || bmax.y < amin.y);
}

static void tri_box(const astar_navmesh *nm, const astar__cdt_tri *t, astar_vec2 *mn,
                    astar_vec2 *mx) {
  *mn = *mx = astar__cdt_vertex(nm->cdt, t->v[0]);
  for (int k = 1; k < 3; k++) {
    astar_vec2 p = astar__cdt_vertex(nm->cdt, t->v[k]);
    if (p.x < mn->x) mn->x = p.x;
    if (p.y < mn->y) mn->y = p.y;
    if (p.x > mx->x) mx->x = p.x;
    if (p.y > mx->y) mx->y = p.y;
  }
}

/* Take the triangulation's changes into `pending` (kept until the mesh
** reflects them, so a failed edit loses nothing). */
static bool take_touched(astar_navmesh *nm) {
  size_t n;
  const int32_t *t = astar__cdt_touched(nm->cdt, &n);
  if (nm->resync) return true;
  if (!grow(&nm->alloc, (void **)&nm->pending, &nm->pending_cap, nm->npending + n,
            sizeof *nm->pending)) {
    nm->resync = true; /* the list is lost: the next update visits every slot */
    return false;
  }
  memcpy(nm->pending + nm->npending, t, n * sizeof *t);
  nm->npending += n;
  return true;
}

/* An int32 list with its capacity, freed at the end of an update. */
typedef struct ilist {
  int32_t *v;
  size_t n, cap;
} ilist;

static bool ipush(const astar_allocator *a, ilist *l, int32_t x) {
  if (!grow(a, (void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) return false;
  l->v[l->n++] = x;
  return true;
}

static void ifree(const astar_allocator *a, ilist *l) {
  astar__free(a, l->v, l->cap * sizeof *l->v);
  memset(l, 0, sizeof *l);
}

/* Bring the mesh up to date with the triangulation: the pending slots and
** every triangle in the box (bmin, bmax) reachable from them are
** reclassified, the polygons holding a changed one are merged again. */
static astar_status update(astar_navmesh *nm, astar_vec2 bmin, astar_vec2 bmax) {
  const astar_allocator *a = &nm->alloc;
  if (!ensure_slots(nm) || !ensure_vmap(nm)) return ASTAR_NO_MEMORY;
  astar__cdt_tri *tris = astar__cdt_tris(nm->cdt);
  size_t slots = astar__cdt_tri_slots(nm->cdt);
  astar_mesh *m = nm->mesh;
  astar_status st = ASTAR_NO_MEMORY;
  ilist S = {0}, D = {0}, R = {0}, Q = {0}, touched = {0}, assign = {0};
  uint8_t *oldf = NULL;
  int32_t *oldp = NULL, *tv = NULL, *newslot = NULL;
  astar__merged mg = {0};
  bool merged = false;
  if (++nm->epoch == 0) {
    memset(nm->tmark, 0, nm->t_cap * sizeof *nm->tmark);
    nm->epoch = 1;
  }
  const uint32_t ep = nm->epoch;
  /* 1. S: the pending slots (the first npend), then the box's triangles
  ** reachable from them. */
  size_t npend = 0;
  if (nm->resync) {
    for (size_t s = 0; s < slots; s++) {
      nm->tmark[s] = ep;
      if (!ipush(a, &S, (int32_t)s)) goto done;
    }
    npend = S.n;
  } else {
    for (size_t i = 0; i < nm->npending; i++) {
      int32_t s = nm->pending[i];
      if (s < 0 || (size_t)s >= slots || nm->tmark[s] == ep) continue;
      nm->tmark[s] = ep;
      if (!ipush(a, &S, s)) goto done;
    }
    npend = S.n;
    for (size_t i = 0; i < S.n; i++) {
      const astar__cdt_tri *t = &tris[S.v[i]];
      if (t->v[0] < 0) continue;
      for (int k = 0; k < 3; k++) {
        int32_t u = t->n[k];
        if (u < 0 || nm->tmark[u] == ep || tris[u].v[0] < 0) continue;
        astar_vec2 mn, mx;
        tri_box(nm, &tris[u], &mn, &mx);
        if (!box_overlap(mn, mx, bmin, bmax)) continue;
        nm->tmark[u] = ep;
        if (!ipush(a, &S, u)) goto done;
      }
    }
  }
  /* 2. New statuses; D: the polygons of the slots that changed. The old
  ** status and polygon are kept to restore on failure. */
  oldf = astar__malloc(a, S.n ? S.n : 1);
  oldp = astar__malloc(a, (S.n ? S.n : 1) * sizeof *oldp);
  if (!oldf || !oldp) goto done;
  for (size_t i = 0; i < S.n; i++) {
    int32_t s = S.v[i];
    oldf[i] = nm->tfree[s];
    oldp[i] = nm->tpoly[s];
    nm->tfree[s] = tris[s].v[0] < 0 ? 0 : (uint8_t)classify(nm, &tris[s]);
  }
  settle(nm, S.v, S.n);
  for (size_t i = 0; i < S.n; i++) {
    int32_t s = S.v[i];
    /* Pending slots may hold another triangle now; the others in the box
    ** keep theirs and matter only when their status changed. */
    bool changed = i < npend || nm->tfree[s] != oldf[i];
    if (changed && oldp[i] >= 0 && !ipush(a, &D, oldp[i])) goto done;
  }
  if (nm->resync) {
    /* After a half-written edit the mesh may hold polygons no triangle
    ** records: every slot is rewritten. */
    for (size_t i = 0; i < astar_mesh_polygon_count(m); i++)
      if (astar_mesh_polygon(m, i, NULL, NULL) && !ipush(a, &D, (int32_t)i)) goto done;
  }
  if (D.n) {
    if (D.n) qsort(D.v, D.n, sizeof *D.v, cmp_i32);
    size_t k = 0;
    for (size_t i = 0; i < D.n; i++)
      if (k == 0 || D.v[k - 1] != D.v[i]) D.v[k++] = D.v[i];
    D.n = k;
  }
  /* 3. R: the free triangles to merge: those in S, and the others of the
  ** dirty polygons (untouched, so still free). */
  for (size_t i = 0; i < S.n; i++) {
    int32_t s = S.v[i];
    if (tris[s].v[0] < 0 || nm->tfree[s] != 1) continue;
    /* Newly free, or of a dirty polygon; a free triangle of a kept
    ** polygon stays there. */
    if (oldp[i] >= 0 && (!D.n || !bsearch(&oldp[i], D.v, D.n, sizeof *D.v, cmp_i32))) continue;
    if (!ipush(a, &R, s)) goto done;
  }
  for (size_t i = 0; i < D.n; i++) {
    for (int32_t s = nm->phead[D.v[i]]; s >= 0; s = nm->tnext[s]) {
      if (nm->tmark[s] == ep || tris[s].v[0] < 0 || nm->tpoly[s] != D.v[i]) continue;
      if (!ipush(a, &R, s)) goto done;
    }
  }
  if (R.n) qsort(R.v, R.n, sizeof *R.v, cmp_i32);
  /* 4. Merge. */
  st = merge_slots(nm, R.v, R.n, &tv, &mg);
  if (st != ASTAR_OK) goto done;
  merged = true;
  st = ASTAR_NO_MEMORY;
  /* 5. Slots for the new polygons: the dirty ones first, then new. */
  newslot = astar__malloc(a, (mg.np ? mg.np : 1) * sizeof *newslot);
  if (!newslot) goto done;
  {
    size_t np0 = astar_mesh_polygon_count(m);
    for (size_t p = 0; p < mg.np; p++) newslot[p] = p < D.n ? D.v[p] : (int32_t)(np0 + (p - D.n));
    if (!ensure_polys(nm, np0 + (mg.np > D.n ? mg.np - D.n : 0))) goto done;
  }
  /* Kept polygons next to the region: the old neighbours of the dirty
  ** polygons, and those across the new polygons' sides. */
  for (size_t i = 0; i < D.n; i++) {
    const int32_t *nb;
    uint32_t n = astar_mesh_polygon(m, (size_t)D.v[i], NULL, &nb);
    for (uint32_t k = 0; k < n; k++)
      if (nb[k] >= 0 && (!D.n || !bsearch(&nb[k], D.v, D.n, sizeof *D.v, cmp_i32)) &&
          !ipush(a, &Q, nb[k]))
        goto done;
  }
  /* 6. Mesh vertices for the triangulation vertices new to the mesh. */
  for (size_t i = 0; i < 3 * R.n; i++) {
    int32_t cv = tv[i];
    if (nm->vmap[cv] >= 0) continue;
    int32_t id;
    if (astar__mesh_add_vertex(m, astar__cdt_vertex(nm->cdt, cv), &id) != ASTAR_OK) goto done;
    nm->vmap[cv] = id;
  }
  /* 7. Write the polygons: empty the dirty slots no new polygon takes,
  ** then the new polygons with their links, then fix the kept ones. */
  {
    int32_t vbuf_n = 0;
    (void)vbuf_n;
    for (size_t i = mg.np; i < D.n; i++)
      if (astar__mesh_set_polygon(m, (size_t)D.v[i], 0, NULL, NULL) != ASTAR_OK) goto fail_mesh;
    uint32_t maxn = 3;
    for (size_t p = 0; p < mg.np; p++)
      if (mg.off[p + 1] - mg.off[p] > maxn) maxn = mg.off[p + 1] - mg.off[p];
    int32_t *pv = astar__malloc(a, 2 * (size_t)maxn * sizeof *pv);
    if (!pv) goto fail_mesh;
    int32_t *pn = pv + maxn;
    for (size_t p = 0; R.n && p < mg.np; p++) { /* (no polygon without a triangle) */
      uint32_t n = mg.off[p + 1] - mg.off[p];
      for (uint32_t j = 0; j < n; j++) {
        uint32_t h = mg.side[mg.off[p] + j];
        uint32_t lt = h / 3, k = h % 3;
        pv[j] = nm->vmap[tv[h]];
        /* Mesh neighbour j is across the edge from vertex j-1 to j: the
        ** side before this one. */
        uint32_t hp = mg.side[mg.off[p] + (j + n - 1) % n];
        uint32_t plt = hp / 3, pk = hp % 3;
        int32_t s = R.v[plt], u = tris[s].n[(pk + 2) % 3];
        int32_t nb = -1;
        if (u >= 0 && nm->tloc[u] >= 0) {
          nb = newslot[mg.tri_poly[nm->tloc[u]]];
        } else if (u >= 0 && nm->tfree[u] == 1 && nm->tpoly[u] >= 0) {
          nb = nm->tpoly[u];
          /* Q's side from our vertex j to vertex j-1 now faces us. */
          if (!ipush(a, &Q, nb) || !ipush(a, &assign, nb) || !ipush(a, &assign, nm->vmap[tv[h]]) ||
              !ipush(a, &assign, nm->vmap[tv[hp]]) || !ipush(a, &assign, newslot[p])) {
            astar__free(a, pv, 2 * (size_t)maxn * sizeof *pv);
            goto fail_mesh;
          }
        }
        pn[j] = nb;
        (void)lt;
        (void)k;
      }
      if (astar__mesh_set_polygon(m, (size_t)newslot[p], n, pv, pn) != ASTAR_OK ||
          !ipush(a, &touched, newslot[p])) {
        astar__free(a, pv, 2 * (size_t)maxn * sizeof *pv);
        goto fail_mesh;
      }
    }
    astar__free(a, pv, 2 * (size_t)maxn * sizeof *pv);
    if (Q.n) qsort(Q.v, Q.n, sizeof *Q.v, cmp_i32);
    for (size_t i = 0; i < Q.n; i++) {
      int32_t q = Q.v[i];
      if (i > 0 && Q.v[i - 1] == q) continue;
      const int32_t *qv, *qn;
      uint32_t n = astar_mesh_polygon(m, (size_t)q, &qv, &qn);
      int32_t *buf = astar__malloc(a, 2 * (size_t)(n ? n : 1) * sizeof *buf);
      if (!buf) goto fail_mesh;
      for (uint32_t k = 0; k < n; k++) {
        buf[k] = qv[k];
        int32_t nb = qn[k];
        buf[n + k] = nb >= 0 && D.n && bsearch(&nb, D.v, D.n, sizeof *D.v, cmp_i32) ? -1 : nb;
      }
      for (size_t j = 0; j + 3 < assign.n; j += 4) {
        if (assign.v[j] != q) continue;
        for (uint32_t k = 0; k < n; k++)
          if (buf[(k + n - 1) % n] == assign.v[j + 1] && buf[k] == assign.v[j + 2])
            buf[n + k] = assign.v[j + 3];
      }
      st = astar__mesh_set_polygon(m, (size_t)q, n, buf, buf + n);
      astar__free(a, buf, 2 * (size_t)(n ? n : 1) * sizeof *buf);
      if (st != ASTAR_OK || !ipush(a, &touched, q)) goto fail_mesh;
    }
    for (size_t i = 0; i < D.n; i++)
      if (!ipush(a, &touched, D.v[i])) goto fail_mesh;
    if (astar__mesh_edited(m, touched.v, touched.n) != ASTAR_OK) goto fail_mesh;
  }
  /* 8. The per-slot records. */
  for (size_t i = 0; i < D.n; i++) {
    int32_t s = nm->phead[D.v[i]];
    while (s >= 0) {
      int32_t nx = nm->tnext[s];
      if (nm->tpoly[s] == D.v[i]) nm->tpoly[s] = -1;
      nm->tnext[s] = -1;
      s = nx;
    }
    nm->phead[D.v[i]] = -1;
  }
  for (size_t i = 0; i < S.n; i++) {
    /* A kept polygon's triangle stays on its list. */
    if (oldp[i] >= 0 && (!D.n || !bsearch(&oldp[i], D.v, D.n, sizeof *D.v, cmp_i32))) continue;
    nm->tpoly[S.v[i]] = -1;
    nm->tnext[S.v[i]] = -1;
  }
  for (size_t i = 0; i < mg.np; i++) nm->phead[newslot[i]] = -1;
  for (size_t i = R.n; i-- > 0;) {
    int32_t s = R.v[i], p = newslot[mg.tri_poly[i]];
    nm->tpoly[s] = p;
    nm->tnext[s] = nm->phead[p];
    nm->phead[p] = s;
  }
  nm->stats.removed = D.n;
  nm->stats.added = mg.np;
  nm->npending = 0;
  nm->resync = false;
  st = ASTAR_OK;
  goto done;
fail_mesh:
  /* The mesh may be half-written: resynchronise everything next time. */
  nm->resync = true;
  st = ASTAR_NO_MEMORY;
done:
  if (st != ASTAR_OK && oldf) {
    for (size_t i = 0; i < S.n; i++) nm->tfree[S.v[i]] = oldf[i];
  }
  if (merged || tv) {
    for (size_t i = 0; i < R.n; i++) nm->tloc[R.v[i]] = -1;
  }
  astar__free(a, oldf, S.n ? S.n : 1);
  astar__free(a, oldp, (S.n ? S.n : 1) * sizeof *oldp);
  if (tv) astar__free(a, tv, (R.n ? R.n : 1) * 3 * sizeof(int32_t));
  astar__free(a, newslot, (mg.np ? mg.np : 1) * sizeof *newslot);
  if (merged) astar__merge_free(a, &mg);
  ifree(a, &S);
  ifree(a, &D);
  ifree(a, &R);
  ifree(a, &Q);
  ifree(a, &touched);
  ifree(a, &assign);
  return st;
}

/* Do segments p0-p1 and q0-q1 meet? (exact; touching counts) */
static bool on_seg(astar_vec2 a, astar_vec2 b, astar_vec2 p) {
  return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y &&
         p.y <= fmax(a.y, b.y);
}

static bool seg_meet(astar_vec2 p0, astar_vec2 p1, astar_vec2 q0, astar_vec2 q1) {
  int o1 = astar__orient2d(p0, p1, q0), o2 = astar__orient2d(p0, p1, q1);
  int o3 = astar__orient2d(q0, q1, p0), o4 = astar__orient2d(q0, q1, p1);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 == 0 && on_seg(p0, p1, q0)) return true;
  if (o2 == 0 && on_seg(p0, p1, q1)) return true;
  if (o3 == 0 && on_seg(q0, q1, p0)) return true;
  if (o4 == 0 && on_seg(q0, q1, p1)) return true;
  return false;
}

/* A simple polygon: finite points, no two non-adjacent edges meet,
** adjacent edges meet only at their shared point, some area. */
static bool simple_polygon(const astar_vec2 *p, size_t n) {
  double area = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(p[i].x) || !isfinite(p[i].y)) return false;
    const astar_vec2 a = p[i], b = p[(i + 1) % n];
    if (a.x == b.x && a.y == b.y) return false;
    area += a.x * b.y - a.y * b.x;
  }
  if (area == 0) return false;
  for (size_t i = 0; i < n; i++) {
    astar_vec2 a = p[i], b = p[(i + 1) % n];
    for (size_t j = i + 1; j < n; j++) {
      astar_vec2 c = p[j], d = p[(j + 1) % n];
      if (j == i + 1 || (i == 0 && j == n - 1)) {
        /* Adjacent: sharing one point; only folding back on itself is a
        ** meeting beyond it. */
        astar_vec2 shared = j == i + 1 ? b : a, other1 = j == i + 1 ? a : b,
                   other2 = j == i + 1 ? d : c;
        if (astar__orient2d(other1, shared, other2) == 0 &&
            (other2.x - shared.x) * (other1.x - shared.x) +
                    (other2.y - shared.y) * (other1.y - shared.y) >
                0)
          return false;
        if (n == 3) continue;
        continue;
      }
      if (seg_meet(a, b, c, d)) return false;
    }
  }
  return true;
}

static void grown_box(const astar_navmesh *nm, const obstacle *o, astar_vec2 *mn, astar_vec2 *mx) {
  (void)nm;
  *mn = o->min;
  *mx = o->max;
}

astar_status astar_navmesh_add_obstacle(astar_navmesh *nm, const astar_vec2 *points, size_t n,
                                        uint32_t *id) {
  if (!nm || !points || n < 3 || n > ASTAR_MESH_MAX_SIDES) return ASTAR_INVALID_ARGUMENT;
  if (!simple_polygon(points, n)) return ASTAR_INVALID_ARGUMENT;
  if (nm->next_id == UINT32_MAX) return ASTAR_TOO_LARGE;
  const astar_allocator *a = &nm->alloc;
  if (!grow(a, (void **)&nm->obs, &nm->obs_cap, nm->nobs + 1, sizeof *nm->obs))
    return ASTAR_NO_MEMORY;
  obstacle o;
  memset(&o, 0, sizeof o);
  astar_status st = ASTAR_NO_MEMORY;
  if (!ringset_add(a, &o.rings, points, n)) goto fail;
  if (nm->opt.radius == 0) {
    st = insert_ring(nm, points, n, &o.seg);
  } else {
    st = ASTAR_OK;
    for (size_t k = 0; st == ASTAR_OK && k < n; k++)
      if (!add_capsule(nm, &o.rings, points[k], points[(k + 1) % n])) st = ASTAR_NO_MEMORY;
    if (st == ASTAR_OK) st = insert_capsules(nm, &o.rings, 1, &o.seg);
  }
  o.min = o.rings.min;
  o.max = o.rings.max;
  if (st != ASTAR_OK) goto undo;
  o.id = nm->next_id;
  nm->obs[nm->nobs++] = o;
  if (!take_touched(nm)) {
    nm->nobs--;
    st = ASTAR_NO_MEMORY;
    goto undo;
  }
  astar_vec2 mn, mx;
  grown_box(nm, &o, &mn, &mx);
  st = update(nm, mn, mx);
  if (st != ASTAR_OK) {
    nm->nobs--;
    goto undo;
  }
  nm->next_id++;
  if (id) *id = o.id;
  return ASTAR_OK;
undo:
  /* Take the constraints out again; the free space is then as before and
  ** the triangulation's changes stay pending for the next update. */
  for (size_t i = 0; i < o.seg.n; i++)
    (void)astar__cdt_remove_segment(nm->cdt, o.seg.v[2 * i], o.seg.v[2 * i + 1]);
  (void)take_touched(nm);
  {
    astar_vec2 bmn, bmx;
    grown_box(nm, &o, &bmn, &bmx);
    (void)update(nm, bmn, bmx);
  }
fail:
  ringset_free(a, &o.rings);
  astar__free(a, o.seg.v, o.seg.cap * sizeof(int32_t));
  return st == ASTAR_OK ? ASTAR_NO_MEMORY : st;
}

astar_status astar_navmesh_remove_obstacle(astar_navmesh *nm, uint32_t id) {
  if (!nm) return ASTAR_INVALID_ARGUMENT;
  size_t i = 0;
  while (i < nm->nobs && nm->obs[i].id != id) i++;
  if (i == nm->nobs) return ASTAR_INVALID_ARGUMENT;
  obstacle o = nm->obs[i];
  memmove(nm->obs + i, nm->obs + i + 1, (nm->nobs - i - 1) * sizeof *nm->obs);
  nm->nobs--;
  astar_status st = ASTAR_OK;
  size_t done_seg = 0;
  while (done_seg < o.seg.n) {
    st = astar__cdt_remove_segment(nm->cdt, o.seg.v[2 * done_seg], o.seg.v[2 * done_seg + 1]);
    if (st != ASTAR_OK) break;
    done_seg++;
  }
  astar_vec2 mn, mx;
  grown_box(nm, &o, &mn, &mx);
  if (st == ASTAR_OK && take_touched(nm))
    st = update(nm, mn, mx);
  else
    st = ASTAR_NO_MEMORY;
  if (st != ASTAR_OK) {
    /* Put it back: the constraints taken out so far go in again. */
    for (size_t k = 0; k < done_seg; k++)
      (void)astar__cdt_insert_segment(nm->cdt, o.seg.v[2 * k], o.seg.v[2 * k + 1]);
    memmove(nm->obs + i + 1, nm->obs + i, (nm->nobs - i) * sizeof *nm->obs);
    nm->obs[i] = o;
    nm->nobs++;
    (void)take_touched(nm);
    (void)update(nm, mn, mx);
    return ASTAR_NO_MEMORY;
  }
  ringset_free(&nm->alloc, &o.rings);
  astar__free(&nm->alloc, o.seg.v, o.seg.cap * sizeof(int32_t));
  return ASTAR_OK;
}
