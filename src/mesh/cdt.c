/*
** mesh/cdt.c -- the constrained Delaunay triangulation (mesh/mesh.h).
**
** Triangles. Records of three counter-clockwise vertices, the neighbour
** opposite each and the constraint count of the edge opposite each; a
** bounding triangle (vertices 0, 1, 2) holds every input point strictly
** inside, so every triangle has three neighbours except across the
** bounding triangle's own edges. vt[v] is one triangle holding vertex v
** (kept on every write), the start of the walk around v.
**
** Points. Located by a walk from the last triangle found (a visibility
** walk that tries the three edges from a pseudo-random first one, so it
** cannot cycle on the non-Delaunay triangles a constrained triangulation
** has); a point inside a triangle splits it in three, a point on an edge
** splits the two triangles beside it in four (a constrained edge stays
** constrained in both halves), then Lawson's flips restore the Delaunay
** property around it. Bulk insertion (astar__cdt_insert_points) sorts
** the points along a Hilbert curve first, so each walk is short.
**
** Segments. From a to b: around the current vertex find the triangle the
** segment leaves through. A vertex exactly on the segment ends a piece
** (the segment runs through it); a constrained edge crossed is split at
** the crossing point, rounded to a double (the one inexact step; the
** point is moved by a few ulps if needed so that the four triangles
** around it stay counter-clockwise), and the segment goes through it;
** otherwise the edges crossed by the piece are flipped away (Sloan's
** method: flip a crossed edge whose quadrilateral is strictly convex,
** keep the new edge in the queue while it still crosses) and the piece
** becomes an edge. Then the new edges are made Delaunay by flips that
** never cross a constraint.
**
** Chains. Every inserted segment keeps its vertex chain (a, ..., b: the
** vertices it runs through, including split points added later), as a
** linked list of chain nodes; each chain link (two consecutive nodes) is
** an "occurrence" of its edge, listed per edge in a hash map. An edge's
** constraint count equals its occurrences. So splitting a constrained
** edge splits every chain along it, and removing a segment takes one
** count off exactly the edges it runs along, then flips the edges falling
** to 0 back to Delaunay.
**
** All predicates are exact (predicates.c), so the structure is exactly a
** constrained Delaunay triangulation of its vertices (ties on cocircular
** points broken by the insertion history, deterministically).
*/
#include "mesh/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hash map: uint64 key -> int32 -------------------------------------
** Open addressing with linear probing, key 0 = empty (an edge key has a
** non-zero high vertex), deletion by shifting the cluster back. */
typedef struct hmap {
  uint64_t *key;
  int32_t *val;
  size_t cap, n; /* cap a power of two or 0 */
} hmap;

static inline size_t hslot(uint64_t k, size_t cap) {
  k ^= k >> 29;
  k *= 0xbf58476d1ce4e5b9ull;
  k ^= k >> 32;
  return (size_t)k & (cap - 1);
}

static inline uint64_t ekey(int32_t a, int32_t b) {
  uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
  return ((uint64_t)lo << 32) | hi;
}

static int32_t hmap_get(const hmap *m, uint64_t k) {
  if (!m->cap) return -1;
  for (size_t i = hslot(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->key[i] == k) return m->val[i];
    if (m->key[i] == 0) return -1;
  }
}

/* Room for `extra` more keys (load at most 1/2). */
static bool hmap_reserve(const astar_allocator *al, hmap *m, size_t extra) {
  if (2 * (m->n + extra) <= m->cap) return true;
  size_t nc = m->cap ? m->cap : 64;
  while (2 * (m->n + extra) > nc) nc *= 2;
  uint64_t *k = astar__calloc(al, nc, sizeof *k);
  int32_t *v = astar__calloc(al, nc, sizeof *v);
  if (!k || !v) {
    astar__free(al, k, nc * sizeof *k);
    astar__free(al, v, nc * sizeof *v);
    return false;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->key[i]) continue;
    size_t j = hslot(m->key[i], nc);
    while (k[j]) j = (j + 1) & (nc - 1);
    k[j] = m->key[i];
    v[j] = m->val[i];
  }
  astar__free(al, m->key, m->cap * sizeof *m->key);
  astar__free(al, m->val, m->cap * sizeof *m->val);
  m->key = k;
  m->val = v;
  m->cap = nc;
  return true;
}

/* Set k -> v (room reserved). */
static void hmap_put(hmap *m, uint64_t k, int32_t v) {
  size_t i = hslot(k, m->cap);
  while (m->key[i] && m->key[i] != k) i = (i + 1) & (m->cap - 1);
  if (!m->key[i]) m->n++;
  m->key[i] = k;
  m->val[i] = v;
}

static void hmap_del(hmap *m, uint64_t k) {
  if (!m->cap) return;
  size_t mask = m->cap - 1, i = hslot(k, m->cap);
  while (m->key[i] != k) {
    if (!m->key[i]) return;
    i = (i + 1) & mask;
  }
  /* Shift later members of the cluster back over the hole when their
  ** home slot does not lie cyclically in (hole, j]. */
  size_t j = i;
  for (;;) {
    j = (j + 1) & mask;
    if (!m->key[j]) break;
    size_t h = hslot(m->key[j], m->cap);
    bool stays = (i <= j) ? (i < h && h <= j) : (i < h || h <= j);
    if (stays) continue;
    m->key[i] = m->key[j];
    m->val[i] = m->val[j];
    i = j;
  }
  m->key[i] = 0;
  m->n--;
}

static void hmap_free(const astar_allocator *al, hmap *m) {
  astar__free(al, m->key, m->cap * sizeof *m->key);
  astar__free(al, m->val, m->cap * sizeof *m->val);
  memset(m, 0, sizeof *m);
}

/* ---- the object ---------------------------------------------------------- */

struct astar__cdt {
  astar_allocator al;
  /* vertices */
  astar_vec2 *v;
  int32_t *vt;
  size_t nv, v_cap, vt_cap;
  /* triangles */
  astar__cdt_tri *t;
  uint8_t *tin; /* in the touched list */
  size_t nt, t_cap, tin_cap;
  int32_t *touched;
  size_t ntouched, touched_cap;
  int32_t last; /* where the next walk starts */
  /* Jump grid: g x g cells over the box given to astar__cdt_new, each the
  ** last vertex inserted in it (-1 none); a walk starts at the vertex of
  ** the point's cell, so it is short in any insertion order. Rebuilt
  ** bigger as vertices come (about two per cell). Only an accelerator: if
  ** it cannot grow, the old one serves. */
  int32_t *grid;
  size_t g, grid_cap;
  astar_vec2 gmin;
  double gscale; /* cells per unit */
  double gside;  /* the grid's side in units */
  uint64_t rng;  /* the walk's choices (deterministic) */
  /* chains: nodes (vertex, next node, next occurrence of the same edge) */
  int32_t *cn_v, *cn_next, *cn_occ;
  size_t ncn, cn_cap[3];
  int32_t cn_free;
  /* segments: head node, next segment with the same end points */
  int32_t *sg_head, *sg_next;
  size_t nsg, sg_cap[2];
  int32_t sg_free;
  hmap occ; /* edge -> first chain node of an occurrence */
  hmap seg; /* end points -> first segment */
  /* work: a stack of ints (triangles, or vertex pairs) and a queue */
  int32_t *stk;
  size_t nstk, stk_cap;
  int32_t *q;
  size_t q_cap;
  int32_t *tgt; /* pending targets of a segment */
  size_t tgt_cap;
};

#define NEXT(k) ((k) == 2 ? 0 : (k) + 1)
#define PREV(k) ((k) == 0 ? 2 : (k)-1)

/* Grow *p (elements of `elem` bytes, capacity *cap) to hold `need`. */
static bool grow(const astar_allocator *al, void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t nc = *cap ? *cap : 16;
  while (nc < need) {
    if (nc > SIZE_MAX / 2 / elem) return false;
    nc *= 2;
  }
  void *np = al->fn(al->ud, *p, *cap * elem, nc * elem);
  if (!np) return false;
  *p = np;
  *cap = nc;
  return true;
}

/* Arrays that go together are grown one by one, each with its own
** capacity, so a failure half-way leaves every array consistent (just some
** bigger than needed); the usable room is the smallest capacity. */
static bool grow_zero(const astar_allocator *al, void **p, size_t *cap, size_t need, size_t elem) {
  size_t old = *cap;
  if (!grow(al, p, cap, need, elem)) return false;
  memset((char *)*p + old * elem, 0, (*cap - old) * elem);
  return true;
}

static bool reserve_tris(astar__cdt *c, size_t need) {
  if (need > INT32_MAX) return false;
  return grow(&c->al, (void **)&c->t, &c->t_cap, need, sizeof *c->t) &&
         grow_zero(&c->al, (void **)&c->tin, &c->tin_cap, need, 1);
}

static bool reserve_verts(astar__cdt *c, size_t need) {
  if (need > INT32_MAX) return false;
  return grow(&c->al, (void **)&c->v, &c->v_cap, need, sizeof *c->v) &&
         grow(&c->al, (void **)&c->vt, &c->vt_cap, need, sizeof *c->vt);
}

static bool reserve_stk(astar__cdt *c, size_t need) {
  return grow(&c->al, (void **)&c->stk, &c->stk_cap, need, sizeof *c->stk);
}

static bool reserve_touched(astar__cdt *c, size_t extra) {
  return grow(&c->al, (void **)&c->touched, &c->touched_cap, c->ntouched + extra,
              sizeof *c->touched);
}

/* Chain nodes: `extra` more at the end. */
static bool reserve_nodes(astar__cdt *c, size_t extra) {
  size_t need = c->ncn + extra;
  if (need > INT32_MAX) return false;
  return grow(&c->al, (void **)&c->cn_v, &c->cn_cap[0], need, sizeof(int32_t)) &&
         grow(&c->al, (void **)&c->cn_next, &c->cn_cap[1], need, sizeof(int32_t)) &&
         grow(&c->al, (void **)&c->cn_occ, &c->cn_cap[2], need, sizeof(int32_t));
}

static bool reserve_segs(astar__cdt *c) {
  size_t need = c->nsg + 1;
  if (c->sg_free >= 0) return true;
  if (need > INT32_MAX) return false;
  return grow(&c->al, (void **)&c->sg_head, &c->sg_cap[0], need, sizeof(int32_t)) &&
         grow(&c->al, (void **)&c->sg_next, &c->sg_cap[1], need, sizeof(int32_t));
}

/* A chain node (room reserved): from the free list or the end. */
static int32_t node_new(astar__cdt *c, int32_t v) {
  int32_t n;
  if (c->cn_free >= 0) {
    n = c->cn_free;
    c->cn_free = c->cn_next[n];
  } else {
    n = (int32_t)c->ncn++;
  }
  c->cn_v[n] = v;
  c->cn_next[n] = -1;
  c->cn_occ[n] = -1;
  return n;
}

static void node_free(astar__cdt *c, int32_t n) {
  c->cn_v[n] = -1;
  c->cn_next[n] = c->cn_free;
  c->cn_free = n;
}

/* Nodes reserved counts the free list too. */
static size_t nodes_available(const astar__cdt *c) {
  if (c->cn_cap[1] < c->cn_cap[0] || c->cn_cap[2] < c->cn_cap[0]) return 0;
  size_t n = c->cn_cap[0] - c->ncn;
  for (int32_t f = c->cn_free; f >= 0 && n < 8; f = c->cn_next[f]) n++;
  return n;
}

/* The occurrence n (link n -> next[n]) joins / leaves its edge's list. */
static void occ_add(astar__cdt *c, int32_t n) {
  uint64_t k = ekey(c->cn_v[n], c->cn_v[c->cn_next[n]]);
  c->cn_occ[n] = hmap_get(&c->occ, k);
  hmap_put(&c->occ, k, n);
}

static void occ_remove(astar__cdt *c, int32_t n) {
  uint64_t k = ekey(c->cn_v[n], c->cn_v[c->cn_next[n]]);
  int32_t h = hmap_get(&c->occ, k);
  if (h == n) {
    if (c->cn_occ[n] >= 0)
      hmap_put(&c->occ, k, c->cn_occ[n]);
    else
      hmap_del(&c->occ, k);
    return;
  }
  while (h >= 0 && c->cn_occ[h] != n) h = c->cn_occ[h];
  if (h >= 0) c->cn_occ[h] = c->cn_occ[n];
}

/* ---- triangles ------------------------------------------------------------- */

static inline void touch(astar__cdt *c, int32_t t) {
  /* room is reserved before every change; the bound only guards it */
  if (!c->tin[t] && c->ntouched < c->touched_cap) {
    c->tin[t] = 1;
    c->touched[c->ntouched++] = t;
  }
}

/* Write triangle t (vt of its vertices follows). */
static void tri_set(astar__cdt *c, int32_t t, int32_t a, int32_t b, int32_t d, int32_t na,
                    int32_t nb, int32_t nd, uint16_t ca, uint16_t cb, uint16_t cd, uint32_t mark) {
  astar__cdt_tri *r = &c->t[t];
  r->v[0] = a;
  r->v[1] = b;
  r->v[2] = d;
  r->n[0] = na;
  r->n[1] = nb;
  r->n[2] = nd;
  r->c[0] = ca;
  r->c[1] = cb;
  r->c[2] = cd;
  r->mark = mark;
  c->vt[a] = c->vt[b] = c->vt[d] = t;
  touch(c, t);
}

/* In neighbour u, the link that pointed to `from` now points to `to` (a
** change the touched list reports). */
static void relink(astar__cdt *c, int32_t u, int32_t from, int32_t to) {
  if (u < 0) return;
  astar__cdt_tri *r = &c->t[u];
  for (int k = 0; k < 3; k++)
    if (r->n[k] == from) {
      r->n[k] = to;
      touch(c, u);
      return;
    }
}

static inline int vidx(const astar__cdt_tri *r, int32_t v) {
  return r->v[0] == v ? 0 : r->v[1] == v ? 1 : r->v[2] == v ? 2 : -1;
}

/* Flip the edge opposite vertex k of t (p = v[k], a, b; neighbour u = (d,
** b, a)): t becomes (p, a, d), u becomes (p, d, b). *tu receives u. */
static void flip(astar__cdt *c, int32_t t, int k, int32_t *tu) {
  astar__cdt_tri T = c->t[t];
  int32_t u = T.n[k];
  astar__cdt_tri U = c->t[u];
  int32_t p = T.v[k], a = T.v[NEXT(k)], b = T.v[PREV(k)];
  int j = 0;
  while (U.n[j] != t) j++;
  int32_t d = U.v[j];
  int32_t nbp = T.n[NEXT(k)], npa = T.n[PREV(k)];
  uint16_t cbp = T.c[NEXT(k)], cpa = T.c[PREV(k)];
  int32_t nad = U.n[NEXT(j)], ndb = U.n[PREV(j)];
  uint16_t cad = U.c[NEXT(j)], cdb = U.c[PREV(j)];
  /* in u = (d, b, a) with d at j: opposite b (NEXT(j)) is edge a-d, opposite a is d-b */
  tri_set(c, t, p, a, d, nad, u, npa, cad, 0, cpa, T.mark);
  tri_set(c, u, p, d, b, ndb, nbp, t, cdb, cbp, 0, U.mark);
  relink(c, nad, u, t);
  relink(c, nbp, t, u);
  *tu = u;
}

/* ---- predicates on vertices ---------------------------------------------- */

static inline int orient(const astar__cdt *c, int32_t a, int32_t b, int32_t d) {
  return astar__orient2d(c->v[a], c->v[b], c->v[d]);
}

/* Is the edge opposite vertex k of t locally Delaunay (or not flippable)? */
static bool needs_flip(const astar__cdt *c, int32_t t, int k) {
  const astar__cdt_tri *r = &c->t[t];
  int32_t u = r->n[k];
  if (u < 0 || r->c[k]) return false;
  const astar__cdt_tri *s = &c->t[u];
  int j = 0;
  while (s->n[j] != t) j++;
  return astar__incircle(c->v[r->v[0]], c->v[r->v[1]], c->v[r->v[2]], c->v[s->v[j]]) > 0;
}

/* ---- point location ------------------------------------------------------- */

static size_t cell_of(const astar__cdt *c, astar_vec2 p) {
  double fx = (p.x - c->gmin.x) * c->gscale, fy = (p.y - c->gmin.y) * c->gscale;
  double top = (double)(c->g - 1);
  size_t ix = fx > 0 ? (fx < top ? (size_t)fx : c->g - 1) : 0;
  size_t iy = fy > 0 ? (fy < top ? (size_t)fy : c->g - 1) : 0;
  return iy * c->g + ix;
}

static void grid_note(astar__cdt *c, int32_t v) {
  if (c->g) c->grid[cell_of(c, c->v[v])] = v;
}

/* Grow the grid when vertices outnumber twice its cells. */
static void grid_grow(astar__cdt *c, double side) {
  if (c->nv < 2 * c->g * c->g && c->g) return;
  size_t g = c->g ? c->g : 4;
  while (2 * g * g <= c->nv) g *= 2;
  size_t cap = 0;
  int32_t *ng = NULL;
  if (g > 65536 || !grow(&c->al, (void **)&ng, &cap, g * g, sizeof *ng)) return;
  astar__free(&c->al, c->grid, c->grid_cap * sizeof *c->grid);
  c->grid = ng;
  c->grid_cap = cap;
  c->g = g;
  c->gscale = (double)g / side;
  for (size_t i = 0; i < g * g; i++) ng[i] = -1;
  for (size_t v = 3; v < c->nv; v++) grid_note(c, (int32_t)v);
}

/* Where a walk to p starts: the triangle of a vertex in p's cell or the
** nearest non-empty cell around it (a few rings), else the last triangle
** found. */
static int32_t walk_start(const astar__cdt *c, astar_vec2 p) {
  if (c->g) {
    size_t cell = cell_of(c, p);
    long g = (long)c->g, cx = (long)(cell % c->g), cy = (long)(cell / c->g);
    for (long ring = 0; ring <= 3; ring++)
      for (long y = cy - ring; y <= cy + ring; y++) {
        if (y < 0 || y >= g) continue;
        long step = (y == cy - ring || y == cy + ring) ? 1 : 2 * ring;
        for (long x = cx - ring; x <= cx + ring; x += step ? step : 1) {
          if (x < 0 || x >= g) continue;
          int32_t v = c->grid[(size_t)y * c->g + (size_t)x];
          if (v >= 0 && c->vt[v] >= 0) return c->vt[v];
        }
      }
  }
  return c->last >= 0 ? c->last : 0;
}

static inline uint32_t rng_step(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

/* Walk from t to a triangle holding p (closed); -1 when p is outside the
** bounding triangle. */
static int32_t walk(const astar__cdt *c, int32_t t, astar_vec2 p, uint64_t *rs) {
  size_t guard = 4 * c->nt + 16;
  while (guard--) {
    const astar__cdt_tri *r = &c->t[t];
    int k0 = (int)(rng_step(rs) % 3), k = k0, moved = 0;
    for (int i = 0; i < 3; i++, k = NEXT(k)) {
      if (astar__orient2d(c->v[r->v[NEXT(k)]], c->v[r->v[PREV(k)]], p) < 0) {
        t = r->n[k];
        if (t < 0) return -1;
        moved = 1;
        break;
      }
    }
    if (!moved) return t;
  }
  /* Not reached in practice (the walk terminates with probability 1);
  ** fall back on a scan. */
  for (size_t i = 0; i < c->nt; i++) {
    const astar__cdt_tri *r = &c->t[i];
    if (r->v[0] < 0) continue;
    if (astar__orient2d(c->v[r->v[0]], c->v[r->v[1]], p) >= 0 &&
        astar__orient2d(c->v[r->v[1]], c->v[r->v[2]], p) >= 0 &&
        astar__orient2d(c->v[r->v[2]], c->v[r->v[0]], p) >= 0)
      return (int32_t)i;
  }
  return -1;
}

int32_t astar__cdt_locate(const astar__cdt *c, astar_vec2 p) {
  if (!c || !isfinite(p.x) || !isfinite(p.y)) return -1;
  uint64_t rs = c->rng;
  return walk(c, walk_start(c, p), p, &rs);
}

/* ---- construction ---------------------------------------------------------- */

astar_status astar__cdt_new(astar__cdt **out, astar_vec2 min, astar_vec2 max,
                            const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!isfinite(min.x) || !isfinite(min.y) || !isfinite(max.x) || !isfinite(max.y) ||
      min.x > max.x || min.y > max.y)
    return ASTAR_INVALID_ARGUMENT;
  astar_allocator al;
  astar__alloc_init(&al, alloc);
  astar__cdt *c = astar__calloc(&al, 1, sizeof *c);
  if (!c) return ASTAR_NO_MEMORY;
  c->al = al;
  c->last = 0;
  c->rng = 0x9e3779b97f4a7c15ull;
  c->cn_free = -1;
  c->sg_free = -1;
  if (!reserve_verts(c, 64) || !reserve_tris(c, 128) || !reserve_touched(c, 64) ||
      !reserve_stk(c, 64)) {
    astar__cdt_free(c);
    return ASTAR_NO_MEMORY;
  }
  /* The bounding triangle: the box [min, max] (widened to a square of
  ** side d >= 1) lies well inside it. Its size only affects speed (the
  ** predicates are exact at any size). */
  double w = max.x - min.x, h = max.y - min.y;
  double d = w > h ? w : h;
  if (!(d >= 1.0)) d = 1.0;
  if (d > 1e300) return astar__cdt_free(c), ASTAR_INVALID_ARGUMENT;
  double cx = min.x + 0.5 * w, cy = min.y + 0.5 * h;
  c->gmin = (astar_vec2){cx - 0.5 * d, cy - 0.5 * d};
  c->gside = d;
  c->v[0] = (astar_vec2){cx - 20 * d, cy - 10 * d};
  c->v[1] = (astar_vec2){cx + 20 * d, cy - 10 * d};
  c->v[2] = (astar_vec2){cx, cy + 20 * d};
  c->nv = 3;
  c->nt = 1;
  tri_set(c, 0, 0, 1, 2, -1, -1, -1, 0, 0, 0, 0);
  *out = c;
  return ASTAR_OK;
}

void astar__cdt_free(astar__cdt *c) {
  if (!c) return;
  const astar_allocator al = c->al;
  astar__free(&al, c->v, c->v_cap * sizeof *c->v);
  astar__free(&al, c->vt, c->vt_cap * sizeof *c->vt);
  astar__free(&al, c->t, c->t_cap * sizeof *c->t);
  astar__free(&al, c->tin, c->tin_cap);
  astar__free(&al, c->touched, c->touched_cap * sizeof *c->touched);
  astar__free(&al, c->cn_v, c->cn_cap[0] * sizeof(int32_t));
  astar__free(&al, c->cn_next, c->cn_cap[1] * sizeof(int32_t));
  astar__free(&al, c->cn_occ, c->cn_cap[2] * sizeof(int32_t));
  astar__free(&al, c->sg_head, c->sg_cap[0] * sizeof(int32_t));
  astar__free(&al, c->sg_next, c->sg_cap[1] * sizeof(int32_t));
  hmap_free(&al, &c->occ);
  hmap_free(&al, &c->seg);
  astar__free(&al, c->stk, c->stk_cap * sizeof *c->stk);
  astar__free(&al, c->q, c->q_cap * sizeof *c->q);
  astar__free(&al, c->tgt, c->tgt_cap * sizeof *c->tgt);
  astar__free(&al, c->grid, c->grid_cap * sizeof *c->grid);
  astar__free(&al, c, sizeof *c);
}

/* ---- insertion ------------------------------------------------------------- */

/* Lawson: the triangles on the stack hold vertex p; flip the edge opposite
** p while it is not locally Delaunay (room on the stack: the caller
** reserved two entries per flip the stack may see... grown here). */
static astar_status legalize_point(astar__cdt *c, int32_t p) {
  while (c->nstk) {
    int32_t t = c->stk[--c->nstk];
    int k = vidx(&c->t[t], p);
    if (k < 0 || !needs_flip(c, t, k)) continue;
    if (!reserve_stk(c, c->nstk + 2) || !reserve_touched(c, 4)) return ASTAR_NO_MEMORY;
    int32_t u;
    flip(c, t, k, &u);
    c->stk[c->nstk++] = t;
    c->stk[c->nstk++] = u;
  }
  return ASTAR_OK;
}

/* Split every chain along edge a-b at vertex p (room reserved). */
static void chains_split(astar__cdt *c, int32_t a, int32_t b, int32_t p) {
  uint64_t k = ekey(a, b);
  int32_t n = hmap_get(&c->occ, k);
  hmap_del(&c->occ, k);
  while (n >= 0) {
    int32_t nx = c->cn_occ[n];
    int32_t m = c->cn_next[n];
    int32_t x = node_new(c, p);
    c->cn_next[x] = m;
    c->cn_next[n] = x;
    occ_add(c, n);
    occ_add(c, x);
    n = nx;
  }
}

/* Room for splitting an edge of count cnt: nodes, map keys, triangles. */
static bool reserve_split(astar__cdt *c, uint16_t cnt) {
  if (!reserve_tris(c, c->nt + 2) || !reserve_touched(c, 6) || !reserve_stk(c, c->nstk + 4))
    return false;
  if (cnt) {
    if (nodes_available(c) < cnt && !reserve_nodes(c, cnt)) return false;
    if (!hmap_reserve(&c->al, &c->occ, 2)) return false;
  }
  return true;
}

/* Put vertex p (already stored) into triangle t's interior. */
static void split_tri(astar__cdt *c, int32_t t, int32_t p) {
  astar__cdt_tri T = c->t[t];
  int32_t t1 = (int32_t)c->nt++, t2 = (int32_t)c->nt++;
  tri_set(c, t, p, T.v[1], T.v[2], T.n[0], t1, t2, T.c[0], 0, 0, T.mark);
  tri_set(c, t1, p, T.v[2], T.v[0], T.n[1], t2, t, T.c[1], 0, 0, T.mark);
  tri_set(c, t2, p, T.v[0], T.v[1], T.n[2], t, t1, T.c[2], 0, 0, T.mark);
  relink(c, T.n[1], t, t1);
  relink(c, T.n[2], t, t2);
  c->stk[c->nstk++] = t;
  c->stk[c->nstk++] = t1;
  c->stk[c->nstk++] = t2;
}

/* Put vertex p onto the edge opposite vertex k of t (both sides exist). */
static void split_edge(astar__cdt *c, int32_t t, int k, int32_t p) {
  astar__cdt_tri T = c->t[t];
  int32_t u = T.n[k];
  astar__cdt_tri U = c->t[u];
  int j = 0;
  while (U.n[j] != t) j++;
  int32_t r = T.v[k], a = T.v[NEXT(k)], b = T.v[PREV(k)], s = U.v[j];
  int32_t nbr = T.n[NEXT(k)], nra = T.n[PREV(k)];
  uint16_t cbr = T.c[NEXT(k)], cra = T.c[PREV(k)], cab = T.c[k];
  int32_t nas = U.n[NEXT(j)], nsb = U.n[PREV(j)];
  uint16_t cas = U.c[NEXT(j)], csb = U.c[PREV(j)];
  int32_t t1 = (int32_t)c->nt++, u1 = (int32_t)c->nt++;
  tri_set(c, t, r, a, p, u, t1, nra, cab, 0, cra, T.mark);
  tri_set(c, t1, r, p, b, u1, nbr, t, cab, cbr, 0, T.mark);
  tri_set(c, u, s, p, a, t, nas, u1, cab, cas, 0, U.mark);
  tri_set(c, u1, s, b, p, t1, u, nsb, cab, 0, csb, U.mark);
  relink(c, nbr, t, t1);
  relink(c, nsb, u, u1);
  if (cab) chains_split(c, a, b, p);
  c->stk[c->nstk++] = t;
  c->stk[c->nstk++] = t1;
  c->stk[c->nstk++] = u;
  c->stk[c->nstk++] = u1;
}

static int32_t vertex_add(astar__cdt *c, astar_vec2 p) {
  int32_t id = (int32_t)c->nv++;
  c->v[id] = p;
  c->vt[id] = -1;
  grid_note(c, id);
  grid_grow(c, c->gside);
  return id;
}

astar_status astar__cdt_insert_point(astar__cdt *c, astar_vec2 p, int32_t *id) {
  if (!c || !id || !isfinite(p.x) || !isfinite(p.y)) return ASTAR_INVALID_ARGUMENT;
  *id = -1;
  int32_t t = walk(c, walk_start(c, p), p, &c->rng);
  if (t < 0) return ASTAR_INVALID_ARGUMENT;
  c->last = t;
  const astar__cdt_tri *r = &c->t[t];
  for (int k = 0; k < 3; k++) {
    astar_vec2 q = c->v[r->v[k]];
    if (q.x == p.x && q.y == p.y) {
      if (r->v[k] < 3) return ASTAR_INVALID_ARGUMENT;
      *id = r->v[k];
      return ASTAR_OK;
    }
  }
  int on = -1;
  for (int k = 0; k < 3; k++)
    if (astar__orient2d(c->v[r->v[NEXT(k)]], c->v[r->v[PREV(k)]], p) == 0) on = k;
  if (on >= 0 && r->n[on] < 0) return ASTAR_INVALID_ARGUMENT; /* on the bounding triangle */
  if (!reserve_verts(c, c->nv + 1) || !reserve_split(c, on >= 0 ? r->c[on] : 0))
    return ASTAR_NO_MEMORY;
  int32_t v = vertex_add(c, p);
  c->nstk = 0;
  if (on >= 0)
    split_edge(c, t, on, v);
  else
    split_tri(c, t, v);
  *id = v;
  return legalize_point(c, v);
}

/* ---- bulk insertion in Hilbert order ---------------------------------------- */

static uint64_t hilbert(uint32_t x, uint32_t y) {
  uint64_t d = 0;
  for (uint32_t s = 1u << 15; s > 0; s >>= 1) {
    uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
    d += (uint64_t)s * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - (x & (s - 1));
        y = s - 1 - (y & (s - 1));
      }
      uint32_t tmp = x;
      x = y;
      y = tmp;
    }
  }
  return d;
}

typedef struct {
  uint64_t key;
  size_t i;
} hkey;

static int hkey_cmp(const void *a, const void *b) {
  const hkey *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

astar_status astar__cdt_insert_points(astar__cdt *c, const astar_vec2 *p, size_t n, int32_t *ids) {
  if (!c || (n && (!p || !ids))) return ASTAR_INVALID_ARGUMENT;
  if (n == 0) return ASTAR_OK;
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    ids[i] = -1;
    if (!isfinite(p[i].x) || !isfinite(p[i].y)) return ASTAR_INVALID_ARGUMENT;
    x0 = fmin(x0, p[i].x);
    x1 = fmax(x1, p[i].x);
    y0 = fmin(y0, p[i].y);
    y1 = fmax(y1, p[i].y);
  }
  if (n > SIZE_MAX / sizeof(hkey)) return ASTAR_NO_MEMORY;
  hkey *h = astar__malloc(&c->al, n * sizeof *h);
  if (!h) return ASTAR_NO_MEMORY;
  double sx = x1 > x0 ? 65535.0 / (x1 - x0) : 0, sy = y1 > y0 ? 65535.0 / (y1 - y0) : 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t hx = (uint32_t)((p[i].x - x0) * sx), hy = (uint32_t)((p[i].y - y0) * sy);
    h[i].key = hilbert(hx > 65535 ? 65535 : hx, hy > 65535 ? 65535 : hy);
    h[i].i = i;
  }
  qsort(h, n, sizeof *h, hkey_cmp);
  astar_status st = ASTAR_OK;
  for (size_t i = 0; i < n && st == ASTAR_OK; i++)
    st = astar__cdt_insert_point(c, p[h[i].i], &ids[h[i].i]);
  astar__free(&c->al, h, n * sizeof *h);
  return st;
}

/* ---- edges by vertices ---------------------------------------------------- */

/* The triangle t and index k (edge a-b opposite t.v[k], t holding a) of
** edge a-b; false when there is none. */
static bool find_edge(const astar__cdt *c, int32_t a, int32_t b, int32_t *tt, int *kk) {
  int32_t t0 = c->vt[a];
  if (t0 < 0) return false;
  for (int dir = 0; dir < 2; dir++) {
    int32_t t = t0;
    size_t guard = c->nt + 1;
    do {
      const astar__cdt_tri *r = &c->t[t];
      int i = vidx(r, a);
      if (r->v[NEXT(i)] == b) {
        *tt = t;
        *kk = PREV(i);
        return true;
      }
      if (r->v[PREV(i)] == b) {
        *tt = t;
        *kk = NEXT(i);
        return true;
      }
      /* counter-clockwise around a: across edge a-v[PREV(i)] (opposite
      ** v[NEXT(i)]); clockwise: across a-v[NEXT(i)] */
      t = dir == 0 ? r->n[NEXT(i)] : r->n[PREV(i)];
    } while (t >= 0 && t != t0 && guard--);
    if (t >= 0) break; /* went all the way round */
  }
  return false;
}

/* Change the count of the edge opposite k of t on both sides. */
static void count_add(astar__cdt *c, int32_t t, int k, int delta) {
  astar__cdt_tri *r = &c->t[t];
  r->c[k] = (uint16_t)(r->c[k] + delta);
  touch(c, t);
  int32_t u = r->n[k];
  if (u >= 0) {
    astar__cdt_tri *s = &c->t[u];
    for (int j = 0; j < 3; j++)
      if (s->n[j] == t) s->c[j] = (uint16_t)(s->c[j] + delta);
    touch(c, u);
  }
}

/* General Lawson: the stack holds vertex pairs of edges to check; flip
** those not locally Delaunay and check the four around. */
static astar_status legalize_edges(astar__cdt *c) {
  while (c->nstk >= 2) {
    int32_t a = c->stk[c->nstk - 2], b = c->stk[c->nstk - 1];
    c->nstk -= 2;
    int32_t t;
    int k;
    if (!find_edge(c, a, b, &t, &k) || !needs_flip(c, t, k)) continue;
    if (!reserve_stk(c, c->nstk + 8) || !reserve_touched(c, 4)) return ASTAR_NO_MEMORY;
    int32_t u;
    int32_t p = c->t[t].v[k];
    flip(c, t, k, &u);
    /* t = (p, a', d), u = (p, d, b'): the outer edges */
    const astar__cdt_tri *r = &c->t[t], *s = &c->t[u];
    int32_t e[8] = {r->v[0], r->v[1], r->v[1], r->v[2], s->v[1], s->v[2], s->v[2], s->v[0]};
    (void)p;
    memcpy(c->stk + c->nstk, e, sizeof e);
    c->nstk += 8;
  }
  return ASTAR_OK;
}

/* After a split at a rounded crossing point: the triangles on the stack
** hold the new vertex, which is not exactly on the split edge, so the
** edges to it need not be Delaunay either (a point exactly on the line
** would make them so): check all their edges. */
static astar_status legalize_around(astar__cdt *c) {
  size_t n = c->nstk;
  int32_t tris[4];
  if (n > 4) n = 4; /* split_edge pushes its four triangles */
  memcpy(tris, c->stk, n * sizeof *tris);
  if (!reserve_stk(c, 6 * n)) return ASTAR_NO_MEMORY;
  c->nstk = 0;
  for (size_t i = 0; i < n; i++) {
    const astar__cdt_tri *r = &c->t[tris[i]];
    for (int k = 0; k < 3; k++) {
      c->stk[c->nstk++] = r->v[NEXT(k)];
      c->stk[c->nstk++] = r->v[PREV(k)];
    }
  }
  return legalize_edges(c);
}

/* ---- segments -------------------------------------------------------------- */

static inline int sgn(double x) {
  return (x > 0) - (x < 0);
}

/* Is w on the ray from a through b (a, b, w collinear)? */
static inline bool same_dir(astar_vec2 a, astar_vec2 b, astar_vec2 w) {
  return sgn(w.x - a.x) == sgn(b.x - a.x) && sgn(w.y - a.y) == sgn(b.y - a.y);
}

/* How the piece from vertex a towards b leaves a. */
enum { LEAVE_VERTEX, LEAVE_EDGE, LEAVE_FAIL };

/* Around a, the triangle whose wedge holds the direction to b: either an
** edge a-w along it (*w) or a triangle *t whose edge opposite a (index *k)
** the piece crosses. */
static int leave(const astar__cdt *c, int32_t a, int32_t b, int32_t *w, int32_t *tt, int *kk) {
  int32_t t0 = c->vt[a], t = t0;
  size_t guard = c->nt + 1;
  astar_vec2 A = c->v[a], B = c->v[b];
  do {
    const astar__cdt_tri *r = &c->t[t];
    int i = vidx(r, a);
    int32_t p = r->v[NEXT(i)], q = r->v[PREV(i)];
    int o1 = astar__orient2d(A, c->v[p], B), o2 = astar__orient2d(A, c->v[q], B);
    if (o1 == 0 && same_dir(A, B, c->v[p])) {
      *w = p;
      return LEAVE_VERTEX;
    }
    if (o2 == 0 && same_dir(A, B, c->v[q])) {
      *w = q;
      return LEAVE_VERTEX;
    }
    if (o1 > 0 && o2 < 0) {
      *tt = t;
      *kk = i;
      return LEAVE_EDGE;
    }
    t = r->n[NEXT(i)]; /* counter-clockwise around a */
  } while (t >= 0 && t != t0 && guard--);
  return LEAVE_FAIL;
}

/* The crossing of segment a-b with edge p-q (which it properly crosses),
** rounded; then moved by a few ulps, if needed, until splitting the edge
** opposite k of t there keeps the four triangles counter-clockwise.
** False when no such point is near. */
static bool crossing_point(const astar__cdt *c, int32_t a, int32_t b, int32_t t, int k,
                           astar_vec2 *out) {
  const astar__cdt_tri *r = &c->t[t];
  int32_t rv = r->v[k], pa = r->v[NEXT(k)], pb = r->v[PREV(k)];
  const astar__cdt_tri *s = &c->t[r->n[k]];
  int j = 0;
  while (s->n[j] != t) j++;
  int32_t sv = s->v[j];
  astar_vec2 A = c->v[a], B = c->v[b], P = c->v[pa], Q = c->v[pb];
  double dx = B.x - A.x, dy = B.y - A.y, ex = Q.x - P.x, ey = Q.y - P.y;
  double den = dx * ey - dy * ex;
  double num = (P.x - A.x) * dy - (P.y - A.y) * dx; /* cross(P - A, B - A) */
  double tq = den != 0 ? num / den : 0.5;
  if (!(tq > 0)) tq = 0;
  if (!(tq < 1)) tq = 1;
  astar_vec2 x0 = {P.x + tq * ex, P.y + tq * ey};
  astar_vec2 R = c->v[rv], S = c->v[sv];
  /* the spiral of nearby doubles, nearest first */
  for (int ring = 0; ring <= 4; ring++) {
    for (int ix = -ring; ix <= ring; ix++)
      for (int iy = -ring; iy <= ring; iy++) {
        if (ix != -ring && ix != ring && iy != -ring && iy != ring) continue;
        astar_vec2 x = x0;
        for (int m = 0; m < (ix < 0 ? -ix : ix); m++)
          x.x = nextafter(x.x, ix < 0 ? -INFINITY : INFINITY);
        for (int m = 0; m < (iy < 0 ? -iy : iy); m++)
          x.y = nextafter(x.y, iy < 0 ? -INFINITY : INFINITY);
        if (astar__orient2d(R, P, x) > 0 && astar__orient2d(R, x, Q) > 0 &&
            astar__orient2d(S, x, P) > 0 && astar__orient2d(S, Q, x) > 0) {
          *out = x;
          return true;
        }
      }
  }
  return false;
}

/* Start a segment record a -> b; its head node in *head. */
static astar_status seg_begin(astar__cdt *c, int32_t a, int32_t b, int32_t *sid) {
  if (!reserve_segs(c) || (nodes_available(c) < 1 && !reserve_nodes(c, 1)) ||
      !hmap_reserve(&c->al, &c->seg, 1))
    return ASTAR_NO_MEMORY;
  int32_t s;
  if (c->sg_free >= 0) {
    s = c->sg_free;
    c->sg_free = c->sg_next[s];
  } else {
    s = (int32_t)c->nsg++;
  }
  c->sg_head[s] = node_new(c, a);
  uint64_t k = ekey(a, b);
  c->sg_next[s] = hmap_get(&c->seg, k);
  hmap_put(&c->seg, k, s);
  *sid = s;
  return ASTAR_OK;
}

/* Make the existing edge cur-w a link of the chain ending in node *tail. */
static astar_status seg_link(astar__cdt *c, int32_t *tail, int32_t cur, int32_t w) {
  int32_t t;
  int k;
  if (!find_edge(c, cur, w, &t, &k)) return ASTAR_INVALID_ARGUMENT; /* not reached */
  if (c->t[t].c[k] == UINT16_MAX) return ASTAR_TOO_LARGE;
  if ((nodes_available(c) < 1 && !reserve_nodes(c, 1)) || !hmap_reserve(&c->al, &c->occ, 1) ||
      !reserve_touched(c, 2))
    return ASTAR_NO_MEMORY;
  int32_t n = node_new(c, w);
  c->cn_next[*tail] = n;
  occ_add(c, *tail);
  *tail = n;
  count_add(c, t, k, 1);
  return ASTAR_OK;
}

/* Flip away the edges crossed by the piece cur-w (listed as vertex pairs
** in c->q[0 .. 2 nq)), then make the new edges Delaunay. */
static astar_status clear_piece(astar__cdt *c, int32_t cur, int32_t w, size_t nq) {
  size_t head = 0, tail = 2 * nq;
  astar_vec2 A = c->v[cur], B = c->v[w];
  c->nstk = 0;
  size_t guard = 0, limit = 64 * nq * nq + 1024;
  while (head < tail) {
    if (++guard > limit) return ASTAR_INVALID_ARGUMENT; /* cannot happen: exact predicates */
    int32_t a = c->q[head % c->q_cap], b = c->q[(head + 1) % c->q_cap];
    head += 2;
    int32_t t;
    int k;
    if (!find_edge(c, a, b, &t, &k)) continue;
    const astar__cdt_tri *r = &c->t[t];
    int32_t p = r->v[k];
    const astar__cdt_tri *s = &c->t[r->n[k]];
    int j = 0;
    while (s->n[j] != t) j++;
    int32_t d = s->v[j];
    /* convex: p-d separates a and b strictly */
    int oa = orient(c, p, d, a), ob = orient(c, p, d, b);
    if (!(oa != 0 && ob != 0 && oa != ob)) {
      c->q[tail % c->q_cap] = a;
      c->q[(tail + 1) % c->q_cap] = b;
      tail += 2;
      continue;
    }
    if (!reserve_touched(c, 4)) return ASTAR_NO_MEMORY;
    int32_t u;
    flip(c, t, k, &u);
    bool crosses = p != cur && p != w && d != cur && d != w &&
                   astar__orient2d(A, B, c->v[p]) * astar__orient2d(A, B, c->v[d]) < 0;
    if (crosses) {
      c->q[tail % c->q_cap] = p;
      c->q[(tail + 1) % c->q_cap] = d;
      tail += 2;
    } else {
      if (!reserve_stk(c, c->nstk + 2)) return ASTAR_NO_MEMORY;
      c->stk[c->nstk++] = p;
      c->stk[c->nstk++] = d;
    }
  }
  return ASTAR_OK;
}

static astar_status reserve_q(astar__cdt *c, size_t pairs) {
  /* the queue is circular over q_cap entries: it never holds more pairs
  ** than the piece crossed at first (each flip replaces one) */
  size_t need = 2 * pairs + 2;
  if (need <= c->q_cap) return ASTAR_OK;
  size_t cap = c->q_cap;
  if (!grow(&c->al, (void **)&c->q, &cap, need, sizeof *c->q)) return ASTAR_NO_MEMORY;
  c->q_cap = cap;
  return ASTAR_OK;
}

static void seg_drop(astar__cdt *c, int32_t s, uint64_t key);

/* The work of astar__cdt_insert_segment on the started segment sid. */
static astar_status insert_segment_run(astar__cdt *c, int32_t a, int32_t b, int32_t sid) {
  astar_status st;
  int32_t tail = c->sg_head[sid];
  if (!grow(&c->al, (void **)&c->tgt, &c->tgt_cap, 8, sizeof *c->tgt)) return ASTAR_NO_MEMORY;
  size_t ntgt = 0;
  c->tgt[ntgt++] = b;
  int32_t cur = a;
  size_t guard = 0;
  while (ntgt) {
    int32_t goal = c->tgt[ntgt - 1];
    if (cur == goal) {
      ntgt--;
      continue;
    }
    if (++guard > 16 * c->nv + 1024) return ASTAR_INVALID_ARGUMENT; /* not reached */
    int32_t w, t;
    int k;
    int how = leave(c, cur, goal, &w, &t, &k);
    if (how == LEAVE_FAIL) return ASTAR_INVALID_ARGUMENT; /* not reached */
    if (how == LEAVE_VERTEX) {
      st = seg_link(c, &tail, cur, w);
      if (st != ASTAR_OK) return st;
      cur = w;
      continue;
    }
    /* Walk the crossed edges until a vertex on the segment, the goal or a
    ** constrained edge. */
    size_t nq = 0;
    int32_t stop = -1;
    for (;;) {
      const astar__cdt_tri *r = &c->t[t];
      int32_t p = r->v[NEXT(k)], q = r->v[PREV(k)]; /* p right of cur->goal, q left */
      if (r->c[k]) break;                           /* constrained: split it below */
      st = reserve_q(c, nq + 1);
      if (st != ASTAR_OK) return st;
      c->q[2 * nq] = p;
      c->q[2 * nq + 1] = q;
      nq++;
      int32_t u = r->n[k];
      const astar__cdt_tri *s = &c->t[u];
      int j = 0;
      while (s->n[j] != t) j++;
      int32_t o = s->v[j];
      if (o == goal) {
        stop = goal;
        break;
      }
      int oo = orient(c, cur, goal, o);
      if (oo == 0) {
        stop = o;
        break;
      }
      /* u = (o, q, p): leave through o-p (opposite q) when o is left */
      t = u;
      k = oo > 0 ? NEXT(j) : PREV(j);
    }
    if (stop < 0) {
      /* a constrained edge (opposite k of t) crosses: split it */
      astar_vec2 x;
      const astar__cdt_tri *r = &c->t[t];
      int32_t p = r->v[NEXT(k)], q = r->v[PREV(k)];
      int32_t via;
      if (crossing_point(c, cur, goal, t, k, &x)) {
        if (!reserve_verts(c, c->nv + 1) || !reserve_split(c, r->c[k])) return ASTAR_NO_MEMORY;
        via = vertex_add(c, x);
        c->nstk = 0;
        split_edge(c, t, k, via);
        st = legalize_around(c);
        if (st != ASTAR_OK) return st;
      } else {
        /* no representable point splits it cleanly: bend through the
        ** nearer end of the crossed edge */
        astar_vec2 G = c->v[goal], C = c->v[cur], P = c->v[p], Q = c->v[q];
        double dp = fabs((P.x - C.x) * (G.y - C.y) - (P.y - C.y) * (G.x - C.x));
        double dq = fabs((Q.x - C.x) * (G.y - C.y) - (Q.y - C.y) * (G.x - C.x));
        via = dp <= dq ? p : q;
      }
      if (!grow(&c->al, (void **)&c->tgt, &c->tgt_cap, ntgt + 1, sizeof *c->tgt))
        return ASTAR_NO_MEMORY;
      c->tgt[ntgt++] = via;
      continue;
    }
    st = clear_piece(c, cur, stop, nq);
    if (st != ASTAR_OK) return st;
    st = seg_link(c, &tail, cur, stop);
    if (st != ASTAR_OK) return st;
    st = legalize_edges(c);
    if (st != ASTAR_OK) return st;
    cur = stop;
  }
  return ASTAR_OK;
}

astar_status astar__cdt_insert_segment(astar__cdt *c, int32_t a, int32_t b) {
  if (!c || a < 3 || b < 3 || (size_t)a >= c->nv || (size_t)b >= c->nv)
    return ASTAR_INVALID_ARGUMENT;
  if (a == b) return ASTAR_OK;
  int32_t sid;
  astar_status st = seg_begin(c, a, b, &sid);
  if (st != ASTAR_OK) return st;
  st = insert_segment_run(c, a, b, sid);
  if (st != ASTAR_OK) {
    /* Not inserted: take the part made off again. Split points stay;
    ** flips back to Delaunay as far as the stack's room allows. */
    c->nstk = 0;
    seg_drop(c, sid, ekey(a, b));
    (void)legalize_edges(c);
  }
  return st;
}

/* Drop segment s (its key `key`): unlink it, take one count off every
** edge of its chain and free the chain. Edges falling to 0 go on the
** stack while it has room (the caller legalizes them). No allocation. */
static void seg_drop(astar__cdt *c, int32_t s, uint64_t key) {
  int32_t prev = -1, x = hmap_get(&c->seg, key);
  while (x >= 0 && x != s) {
    prev = x;
    x = c->sg_next[x];
  }
  int32_t n = c->sg_head[s];
  while (n >= 0) {
    int32_t m = c->cn_next[n];
    if (m >= 0) {
      int32_t u = c->cn_v[n], w = c->cn_v[m];
      occ_remove(c, n);
      int32_t t;
      int k;
      if (find_edge(c, u, w, &t, &k)) {
        count_add(c, t, k, -1);
        if (c->t[t].c[k] == 0 && c->nstk + 2 <= c->stk_cap) {
          c->stk[c->nstk++] = u;
          c->stk[c->nstk++] = w;
        }
      }
    }
    node_free(c, n);
    n = m;
  }
  if (x == s) {
    if (prev >= 0)
      c->sg_next[prev] = c->sg_next[s];
    else if (c->sg_next[s] >= 0)
      hmap_put(&c->seg, key, c->sg_next[s]);
    else
      hmap_del(&c->seg, key);
  }
  c->sg_next[s] = c->sg_free;
  c->sg_free = s;
}

astar_status astar__cdt_remove_segment(astar__cdt *c, int32_t a, int32_t b) {
  if (!c || a < 0 || b < 0 || (size_t)a >= c->nv || (size_t)b >= c->nv)
    return ASTAR_INVALID_ARGUMENT;
  uint64_t key = ekey(a, b);
  int32_t s = hmap_get(&c->seg, key);
  while (s >= 0) {
    int32_t h = c->sg_head[s], n = h;
    while (c->cn_next[n] >= 0) n = c->cn_next[n];
    int32_t e0 = c->cn_v[h], e1 = c->cn_v[n];
    if ((e0 == a && e1 == b) || (e0 == b && e1 == a)) break;
    s = c->sg_next[s];
  }
  if (s < 0) return ASTAR_INVALID_ARGUMENT; /* no such segment */
  size_t len = 0;
  for (int32_t n = c->sg_head[s]; n >= 0; n = c->cn_next[n]) len++;
  c->nstk = 0;
  if (!reserve_stk(c, 2 * len + 8) || !reserve_touched(c, 2 * len)) return ASTAR_NO_MEMORY;
  seg_drop(c, s, key);
  return legalize_edges(c);
}

/* ---- access ---------------------------------------------------------------- */

size_t astar__cdt_vertex_count(const astar__cdt *c) {
  return c ? c->nv : 0;
}

astar_vec2 astar__cdt_vertex(const astar__cdt *c, int32_t v) {
  if (!c || v < 0 || (size_t)v >= c->nv) return (astar_vec2){0, 0};
  return c->v[v];
}

size_t astar__cdt_tri_slots(const astar__cdt *c) {
  return c ? c->nt : 0;
}

astar__cdt_tri *astar__cdt_tris(astar__cdt *c) {
  return c ? c->t : NULL;
}

const int32_t *astar__cdt_touched(astar__cdt *c, size_t *n) {
  if (!c) {
    if (n) *n = 0;
    return NULL;
  }
  /* the list stays readable until the next edit; clear the flags now */
  for (size_t i = 0; i < c->ntouched; i++) c->tin[c->touched[i]] = 0;
  if (n) *n = c->ntouched;
  c->ntouched = 0;
  return c->touched;
}

size_t astar__cdt_memory(const astar__cdt *c) {
  if (!c) return 0;
  return sizeof *c + c->v_cap * sizeof *c->v + c->vt_cap * sizeof *c->vt + c->t_cap * sizeof *c->t +
         c->tin_cap + c->touched_cap * sizeof *c->touched +
         (c->cn_cap[0] + c->cn_cap[1] + c->cn_cap[2] + c->sg_cap[0] + c->sg_cap[1]) *
             sizeof(int32_t) +
         c->occ.cap * (sizeof(uint64_t) + sizeof(int32_t)) +
         c->seg.cap * (sizeof(uint64_t) + sizeof(int32_t)) + c->stk_cap * sizeof *c->stk +
         c->q_cap * sizeof *c->q + c->tgt_cap * sizeof *c->tgt + c->grid_cap * sizeof *c->grid;
}
