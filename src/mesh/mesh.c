/*
** mesh/mesh.c -- the navigation mesh object (astar/mesh.h): its accessors,
** construction from arrays, edits and the data derived from the polygons
** (mesh/mesh.h says the layout and its invariants).
*/
#include "mesh/mesh.h"

#include <stdlib.h>
#include <string.h>

size_t astar_mesh_vertex_count(const astar_mesh *mesh) {
  return mesh ? mesh->nv : 0;
}

size_t astar_mesh_polygon_count(const astar_mesh *mesh) {
  return mesh ? mesh->np : 0;
}

astar_vec2 astar_mesh_vertex(const astar_mesh *mesh, size_t i) {
  if (!mesh || i >= mesh->nv) return (astar_vec2){0, 0};
  return mesh->v[i];
}

uint32_t astar_mesh_polygon(const astar_mesh *mesh, size_t i, const int32_t **vertices,
                            const int32_t **neighbours) {
  if (!mesh || i >= mesh->np || mesh->pn[i] == 0) {
    if (vertices) *vertices = NULL;
    if (neighbours) *neighbours = NULL;
    return 0;
  }
  if (vertices) *vertices = mesh->pv + mesh->poff[i];
  if (neighbours) *neighbours = mesh->pnb + mesh->poff[i];
  return mesh->pn[i];
}

void astar_mesh_bounds(const astar_mesh *mesh, astar_vec2 *min, astar_vec2 *max) {
  const astar_vec2 zero = {0, 0};
  if (min) *min = mesh ? mesh->min : zero;
  if (max) *max = mesh ? mesh->max : zero;
}

double astar_mesh_area(const astar_mesh *mesh) {
  return mesh ? mesh->area : 0.0;
}

uint64_t astar_mesh_version(const astar_mesh *mesh) {
  return mesh ? mesh->version : 0;
}

/* ---- storage ------------------------------------------------------------ */

/* Replace the n_old-element block *p (elements of `size` bytes) by one of
** n_new elements holding the first min(n_old, n_new) of them; zero the
** rest. *p is unchanged on failure. */
static bool resize(const astar_allocator *a, void **p, size_t n_old, size_t n_new, size_t size) {
  size_t bytes;
  if (!astar__mul(n_new, size, &bytes)) return false;
  void *q = astar__calloc(a, n_new, size);
  if (!q) return false;
  if (*p) memcpy(q, *p, (n_old < n_new ? n_old : n_new) * size);
  astar__free(a, *p, n_old * size);
  *p = q;
  return true;
}

/* Capacity of at least `need` (grown by half again, so appends are
** amortised O(1)). */
static size_t grown(size_t cap, size_t need) {
  size_t c = cap + cap / 2 + 8;
  return c > need ? c : need;
}

/* Make room for `need` vertices; all per-vertex arrays or none grow. */
static bool reserve_vertices(astar_mesh *m, size_t need) {
  if (need <= m->v_cap) return true;
  const size_t cap = grown(m->v_cap, need), old = m->v_cap;
  void *v = NULL, *voff = NULL, *vn = NULL, *vf = NULL;
  if (!resize(&m->alloc, &v, 0, cap, sizeof(astar_vec2)) ||
      !resize(&m->alloc, &voff, 0, cap, sizeof(uint32_t)) ||
      !resize(&m->alloc, &vn, 0, cap, sizeof(uint32_t)) || !resize(&m->alloc, &vf, 0, cap, 1)) {
    astar__free(&m->alloc, v, cap * sizeof(astar_vec2));
    astar__free(&m->alloc, voff, cap * sizeof(uint32_t));
    astar__free(&m->alloc, vn, cap * sizeof(uint32_t));
    astar__free(&m->alloc, vf, cap);
    return false;
  }
  if (old) {
    memcpy(v, m->v, old * sizeof(astar_vec2));
    memcpy(voff, m->voff, old * sizeof(uint32_t));
    memcpy(vn, m->vn, old * sizeof(uint32_t));
    memcpy(vf, m->vflags, old);
  }
  astar__free(&m->alloc, m->v, old * sizeof(astar_vec2));
  astar__free(&m->alloc, m->voff, old * sizeof(uint32_t));
  astar__free(&m->alloc, m->vn, old * sizeof(uint32_t));
  astar__free(&m->alloc, m->vflags, old);
  m->v = v;
  m->voff = voff;
  m->vn = vn;
  m->vflags = vf;
  m->v_cap = cap;
  return true;
}

/* Make room for `need` polygon slots. */
static bool reserve_polygons(astar_mesh *m, size_t need) {
  if (need <= m->p_cap) return true;
  const size_t cap = grown(m->p_cap, need), old = m->p_cap;
  void *poff = NULL, *pn = NULL;
  if (!resize(&m->alloc, &poff, 0, cap, sizeof(uint32_t)) ||
      !resize(&m->alloc, &pn, 0, cap, sizeof(uint32_t))) {
    astar__free(&m->alloc, poff, cap * sizeof(uint32_t));
    return false;
  }
  if (old) {
    memcpy(poff, m->poff, old * sizeof(uint32_t));
    memcpy(pn, m->pn, old * sizeof(uint32_t));
  }
  astar__free(&m->alloc, m->poff, old * sizeof(uint32_t));
  astar__free(&m->alloc, m->pn, old * sizeof(uint32_t));
  m->poff = poff;
  m->pn = pn;
  m->p_cap = cap;
  return true;
}

/* Make room for `need` entries in the polygon pool (pv and pnb). */
static bool reserve_pool(astar_mesh *m, size_t need) {
  if (need <= m->pool_cap) return true;
  if (need > UINT32_MAX) return false;
  size_t cap = grown(m->pool_cap, need);
  if (cap > UINT32_MAX) cap = UINT32_MAX;
  void *pv = NULL, *pnb = NULL;
  if (!resize(&m->alloc, &pv, 0, cap, sizeof(int32_t)) ||
      !resize(&m->alloc, &pnb, 0, cap, sizeof(int32_t))) {
    astar__free(&m->alloc, pv, cap * sizeof(int32_t));
    return false;
  }
  if (m->pool_cap) {
    memcpy(pv, m->pv, m->pool_cap * sizeof(int32_t));
    memcpy(pnb, m->pnb, m->pool_cap * sizeof(int32_t));
  }
  astar__free(&m->alloc, m->pv, m->pool_cap * sizeof(int32_t));
  astar__free(&m->alloc, m->pnb, m->pool_cap * sizeof(int32_t));
  m->pv = pv;
  m->pnb = pnb;
  m->pool_cap = cap;
  return true;
}

/* Make room for `need` entries of the vertices' polygon lists. */
static bool reserve_vp(astar_mesh *m, size_t need) {
  if (need <= m->vp_cap) return true;
  if (need > UINT32_MAX) return false;
  size_t cap = grown(m->vp_cap, need);
  if (cap > UINT32_MAX) cap = UINT32_MAX;
  void *vp = m->vp;
  if (!resize(&m->alloc, &vp, m->vp_cap, cap, sizeof(int32_t))) return false;
  m->vp = vp;
  m->vp_cap = cap;
  return true;
}

/* Make room for `need` dirty vertices (the vertices an edit touched). */
static bool reserve_dirty(astar_mesh *m, size_t need) {
  if (need <= m->dirty_cap) return true;
  const size_t cap = grown(m->dirty_cap, need);
  void *d = m->dirty;
  if (!resize(&m->alloc, &d, m->dirty_cap, cap, sizeof(int32_t))) return false;
  m->dirty = d;
  m->dirty_cap = cap;
  return true;
}

astar_status astar__mesh_new(astar_mesh **out, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_mesh *m = astar__calloc(&a, 1, sizeof *m);
  *out = m;
  if (!m) return ASTAR_NO_MEMORY;
  m->alloc = a;
  return ASTAR_OK;
}

void astar__mesh_drop_lines(astar_mesh *m) {
  astar__free(&m->alloc, m->vline, m->lines_v * sizeof(uint32_t));
  astar__free(&m->alloc, m->pline, m->lines_p * sizeof(uint32_t));
  astar__free(&m->alloc, m->vcol, m->lines_v * sizeof(uint32_t));
  astar__free(&m->alloc, m->pcol, m->lines_p * sizeof(uint32_t));
  m->vline = m->pline = m->vcol = m->pcol = NULL;
  m->lines_v = m->lines_p = 0;
}

void astar_mesh_free(astar_mesh *m) {
  if (!m) return;
  const astar_allocator a = m->alloc;
  astar__mesh_index_free(m);
  astar__mesh_drop_lines(m);
  astar__free(&a, m->v, m->v_cap * sizeof(astar_vec2));
  astar__free(&a, m->voff, m->v_cap * sizeof(uint32_t));
  astar__free(&a, m->vn, m->v_cap * sizeof(uint32_t));
  astar__free(&a, m->vflags, m->v_cap);
  astar__free(&a, m->vp, m->vp_cap * sizeof(int32_t));
  astar__free(&a, m->poff, m->p_cap * sizeof(uint32_t));
  astar__free(&a, m->pn, m->p_cap * sizeof(uint32_t));
  astar__free(&a, m->pv, m->pool_cap * sizeof(int32_t));
  astar__free(&a, m->pnb, m->pool_cap * sizeof(int32_t));
  astar__free(&a, m->dirty, m->dirty_cap * sizeof(int32_t));
  astar__free(&a, m, sizeof *m);
}

size_t astar_mesh_memory(const astar_mesh *m) {
  if (!m) return 0;
  return sizeof *m + m->v_cap * (sizeof(astar_vec2) + 2 * sizeof(uint32_t) + 1) +
         m->vp_cap * sizeof(int32_t) + m->p_cap * 2 * sizeof(uint32_t) +
         m->pool_cap * 2 * sizeof(int32_t) + m->dirty_cap * sizeof(int32_t) +
         astar__mesh_index_memory(m);
}

/* ---- construction --------------------------------------------------------- */

astar_status astar__mesh_alloc_arrays(astar_mesh *m, size_t nv, size_t np, size_t entries) {
  if (nv > ASTAR_MESH_MAX_ELEMENTS || np > ASTAR_MESH_MAX_ELEMENTS || entries > UINT32_MAX)
    return ASTAR_TOO_LARGE;
  if (!reserve_vertices(m, nv) || !reserve_polygons(m, np) || !reserve_pool(m, entries))
    return ASTAR_NO_MEMORY;
  return ASTAR_OK;
}

static int edge_cmp(const void *pa, const void *pb) {
  const astar__mesh_edge *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  if (a->poly != b->poly) return a->poly < b->poly ? -1 : 1;
  return a->k < b->k ? -1 : a->k > b->k;
}

astar_status astar__mesh_edges(const astar_mesh *m, astar__mesh_edge **out, size_t *n) {
  size_t count = 0;
  for (size_t i = 0; i < m->np; i++) count += m->pn[i];
  *out = NULL;
  *n = 0;
  if (count == 0) return ASTAR_OK;
  astar__mesh_edge *e = astar__calloc(&m->alloc, count, sizeof *e);
  if (!e) return ASTAR_NO_MEMORY;
  size_t c = 0;
  for (size_t i = 0; i < m->np; i++) {
    const uint32_t pn = m->pn[i];
    const int32_t *pv = m->pv + m->poff[i];
    for (uint32_t k = 0; k < pn; k++) {
      const int32_t a = pv[k ? k - 1 : pn - 1], b = pv[k];
      e[c].lo = a < b ? a : b;
      e[c].hi = a < b ? b : a;
      e[c].from = a;
      e[c].poly = (int32_t)i;
      e[c].k = k;
      c++;
    }
  }
  qsort(e, count, sizeof *e, edge_cmp);
  *out = e;
  *n = count;
  return ASTAR_OK;
}

void astar__mesh_edges_free(const astar_mesh *m, astar__mesh_edge *e, size_t n) {
  astar__free(&m->alloc, e, n * sizeof *e);
}

/* Neighbours from shared edges: an edge held by exactly two polygons, in
** opposite directions, links them; any other edge gets -1 (validation
** then names the fault: an edge shared by more than two polygons is a
** NEIGHBOUR fault, one used twice in the same direction an OVERLAP). */
static astar_status derive_neighbours(astar_mesh *m) {
  for (size_t i = 0; i < m->pool_len; i++) m->pnb[i] = -1;
  astar__mesh_edge *e;
  size_t n;
  const astar_status st = astar__mesh_edges(m, &e, &n);
  if (st != ASTAR_OK) return st;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && e[j].lo == e[i].lo && e[j].hi == e[i].hi) j++;
    if (j - i == 2 && e[i].from != e[i + 1].from && e[i].lo != e[i].hi &&
        e[i].poly != e[i + 1].poly) {
      m->pnb[m->poff[e[i].poly] + e[i].k] = e[i + 1].poly;
      m->pnb[m->poff[e[i + 1].poly] + e[i + 1].k] = e[i].poly;
    }
    i = j;
  }
  astar__mesh_edges_free(m, e, n);
  return ASTAR_OK;
}

static void fault_clear(astar_mesh_fault *f) {
  if (!f) return;
  memset(f, 0, sizeof *f);
  f->kind = ASTAR_MESH_FAULT_NONE;
  f->polygon = f->vertex = f->other = -1;
}

astar_status astar_mesh_from_polygons(astar_mesh **out, const astar_vec2 *vertices, size_t nv,
                                      const uint32_t *poly_sizes, const int32_t *poly_vertices,
                                      size_t np, const astar_allocator *alloc,
                                      astar_mesh_fault *fault) {
  fault_clear(fault);
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if ((nv && !vertices) || (np && !poly_sizes)) return ASTAR_INVALID_ARGUMENT;
  if (nv > ASTAR_MESH_MAX_ELEMENTS || np > ASTAR_MESH_MAX_ELEMENTS) {
    astar__mesh_fault(NULL, fault, ASTAR_MESH_FAULT_TOO_LARGE, -1, -1, -1,
                      "%zu vertices and %zu polygons: more than %u", nv, np,
                      (unsigned)ASTAR_MESH_MAX_ELEMENTS);
    return ASTAR_TOO_LARGE;
  }
  size_t entries = 0;
  for (size_t i = 0; i < np; i++) {
    if (poly_sizes[i] > ASTAR_MESH_MAX_SIDES) {
      astar__mesh_fault(NULL, fault, ASTAR_MESH_FAULT_TOO_LARGE, (int32_t)i, -1, -1,
                        "%u vertices: more than %u", (unsigned)poly_sizes[i],
                        (unsigned)ASTAR_MESH_MAX_SIDES);
      return ASTAR_TOO_LARGE;
    }
    if (poly_sizes[i] < 3) { /* 0 too: only a builder's mesh has empty slots */
      astar__mesh_fault(NULL, fault, ASTAR_MESH_FAULT_DEGENERATE, (int32_t)i, -1, -1,
                        "%u vertices: a polygon needs at least 3", (unsigned)poly_sizes[i]);
      return ASTAR_INVALID_ARGUMENT;
    }
    entries += poly_sizes[i];
    if (entries > UINT32_MAX) return ASTAR_TOO_LARGE; /* checked as it grows: no wrap */
  }
  if (entries && !poly_vertices) return ASTAR_INVALID_ARGUMENT;
  astar_mesh *m;
  astar_status st = astar__mesh_new(&m, alloc);
  if (st != ASTAR_OK) return st;
  st = astar__mesh_alloc_arrays(m, nv, np, entries);
  if (st == ASTAR_OK) {
    if (nv) memcpy(m->v, vertices, nv * sizeof *vertices);
    m->nv = nv;
    m->np = np;
    size_t off = 0;
    for (size_t i = 0; i < np; i++) {
      m->poff[i] = (uint32_t)off;
      m->pn[i] = poly_sizes[i];
      off += poly_sizes[i];
    }
    if (entries) memcpy(m->pv, poly_vertices, entries * sizeof(int32_t));
    m->pool_len = entries;
    /* Neighbours need every index in range: the range check first. */
    st = astar__mesh_check_ranges(m, fault);
    if (st == ASTAR_OK) st = derive_neighbours(m);
    if (st == ASTAR_OK) st = astar__mesh_finish(m, fault);
  }
  if (st != ASTAR_OK) {
    astar_mesh_free(m);
    return st;
  }
  *out = m;
  return ASTAR_OK;
}

/* ---- the data derived from the polygons ------------------------------------ */

/* Which side of v the point b lies on, for ordering directions around v
** by angle: 0 for directions in [0, pi) (counter-clockwise from +x), 1
** for [pi, 2 pi). Exact (comparisons only). */
static int half(astar_vec2 v, astar_vec2 b) {
  return b.y < v.y || (b.y == v.y && b.x < v.x);
}

/* Does direction v->b come before v->c counter-clockwise from +x? */
static bool angle_before(astar_vec2 v, astar_vec2 b, astar_vec2 c) {
  const int hb = half(v, b), hc = half(v, c);
  if (hb != hc) return hb < hc;
  return astar__orient2d(v, b, c) > 0;
}

/* One polygon at a vertex: the polygon, its vertex there, and the chain
** links found while ordering them. */
typedef struct incid {
  int32_t poly;
  uint32_t k;    /* position of the vertex in the polygon */
  int32_t next;  /* the incidence counter-clockwise after this one, -1 none */
  int32_t start; /* nothing clockwise before it: a chain starts here */
} incid;

/* Order the polygons around vertex v counter-clockwise into out[] with a
** -1 after each chain that ends at a gap; returns the list's length
** (<= 2 * n) and the number of gaps in *gaps. Polygon p's neighbour across
** the edge (previous vertex, v) is the next one counter-clockwise; a
** chain starts at a polygon whose edge (v, next vertex) has no neighbour
** in the list. Chains are ordered by the angle of that edge. Bounded:
** every incidence is emitted once, whatever the links say. */
static size_t order_vertex(const astar_mesh *m, int32_t v, incid *in, size_t n, int32_t *out,
                           uint32_t *gaps) {
  for (size_t i = 0; i < n; i++) {
    in[i].next = -1;
    in[i].start = 1;
  }
  for (size_t i = 0; i < n; i++) {
    const int32_t q = m->pnb[m->poff[in[i].poly] + in[i].k];
    if (q < 0) continue;
    for (size_t j = 0; j < n; j++) {
      if (in[j].poly == q && j != i) {
        in[i].next = (int32_t)j;
        in[j].start = 0;
        break;
      }
    }
  }
  /* Sort the chain starts by angle (insertion sort: few of them). */
  const astar_vec2 pv = m->v[v];
  size_t len = 0;
  uint32_t g = 0;
  size_t nstarts = 0;
  int32_t *starts = out + 2 * n; /* out has room for 3n: the starts in the last third */
  for (size_t i = 0; i < n; i++) {
    if (!in[i].start) continue;
    /* Insert start i among the sorted starts. */
    const uint32_t pn = m->pn[in[i].poly];
    const astar_vec2 bi = m->v[m->pv[m->poff[in[i].poly] + (in[i].k + 1) % pn]];
    size_t j = nstarts;
    while (j > 0) {
      const incid *o = &in[starts[j - 1]];
      const astar_vec2 bo = m->v[m->pv[m->poff[o->poly] + (o->k + 1) % m->pn[o->poly]]];
      if (!angle_before(pv, bi, bo)) break;
      starts[j] = starts[j - 1];
      j--;
    }
    starts[j] = (int32_t)i;
    nstarts++;
  }
  /* Emit: chains from the sorted starts, then any cycle left (an interior
  ** vertex: one cycle, started at its smallest polygon). `seen` reuses
  ** the start field: 2 once emitted. */
  for (size_t s = 0; s < nstarts; s++) {
    for (int32_t i = starts[s]; i >= 0 && in[i].start != 2; i = in[i].next) {
      in[i].start = 2;
      out[len++] = in[i].poly;
    }
    out[len++] = -1;
    g++;
  }
  for (;;) {
    int32_t best = -1;
    for (size_t i = 0; i < n; i++)
      if (in[i].start != 2 && (best < 0 || in[i].poly < in[best].poly)) best = (int32_t)i;
    if (best < 0) break;
    for (int32_t i = best; i >= 0 && in[i].start != 2; i = in[i].next) {
      in[i].start = 2;
      out[len++] = in[i].poly;
    }
  }
  *gaps = g;
  return len;
}

/* Polygon p's position of vertex v, or -1. */
static int32_t position(const astar_mesh *m, size_t p, int32_t v) {
  const int32_t *pv = m->pv + m->poff[p];
  for (uint32_t k = 0; k < m->pn[p]; k++)
    if (pv[k] == v) return (int32_t)k;
  return -1;
}

/* Scratch for ordering one vertex's polygons. */
typedef struct scratch {
  incid *in;
  int32_t *out;
  size_t cap;
} scratch;

static bool scratch_reserve(astar_mesh *m, scratch *s, size_t n) {
  if (n <= s->cap) return true;
  const size_t cap = grown(s->cap, n);
  void *in = s->in, *out = s->out;
  if (!resize(&m->alloc, &in, s->cap, cap, sizeof(incid))) return false;
  s->in = in;
  if (!resize(&m->alloc, &out, 3 * s->cap, 3 * cap, sizeof(int32_t))) {
    /* keep the sizes consistent: shrink `in` back is not needed, record
    ** its new capacity by growing `out` later; free both now */
    astar__free(&m->alloc, s->in, cap * sizeof(incid));
    astar__free(&m->alloc, s->out, 3 * s->cap * sizeof(int32_t));
    s->in = NULL;
    s->out = NULL;
    s->cap = 0;
    return false;
  }
  s->out = out;
  s->cap = cap;
  return true;
}

static void scratch_free(astar_mesh *m, scratch *s) {
  astar__free(&m->alloc, s->in, s->cap * sizeof(incid));
  astar__free(&m->alloc, s->out, 3 * s->cap * sizeof(int32_t));
}

/* A pinch vertex's part of pinch_sig (splitmix64 of the pair). */
static uint64_t pinch_part(int32_t v, uint32_t gaps) {
  uint64_t z = ((uint64_t)(uint32_t)v << 32 | gaps) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Write vertex v's ordered list at the end of vp and set its flags (its
** old list, if it was a pinch, still read at voff / vn for pinch_sig). */
static void store_vertex(astar_mesh *m, int32_t v, const int32_t *list, size_t len, uint32_t gaps) {
  if (m->vflags[v] & ASTAR__V_AMBIG) {
    uint32_t old = 0;
    for (uint32_t i = 0; i < m->vn[v]; i++) old += m->vp[m->voff[v] + i] < 0;
    m->pinch_sig ^= pinch_part(v, old);
  }
  if (gaps > 1) m->pinch_sig ^= pinch_part(v, gaps);
  m->voff[v] = (uint32_t)m->vp_len;
  m->vn[v] = (uint32_t)len;
  memcpy(m->vp + m->vp_len, list, len * sizeof *list);
  m->vp_len += len;
  m->vflags[v] = (uint8_t)((gaps ? ASTAR__V_CORNER : 0) | (gaps > 1 ? ASTAR__V_AMBIG : 0));
}

double astar__mesh_poly_area(const astar_mesh *m, size_t i) {
  const uint32_t n = m->pn[i];
  const int32_t *pv = m->pv + m->poff[i];
  if (n < 3) return 0;
  /* Relative to the first vertex: less cancellation far from the origin. */
  const astar_vec2 o = m->v[pv[0]];
  double s = 0;
  for (uint32_t k = 1; k + 1 < n; k++) {
    const astar_vec2 a = m->v[pv[k]], b = m->v[pv[k + 1]];
    s += (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  }
  return s / 2;
}

/* Every vertex's list from scratch (vertex lists in order of vertices). */
static astar_status derive_vertices(astar_mesh *m) {
  /* Count incidences per vertex (vn), then fill them grouped (voff). */
  size_t total = 0;
  for (size_t v = 0; v < m->nv; v++) m->vn[v] = 0;
  for (size_t i = 0; i < m->np; i++) {
    const int32_t *pv = m->pv + m->poff[i];
    for (uint32_t k = 0; k < m->pn[i]; k++) m->vn[pv[k]]++;
    total += m->pn[i];
  }
  /* Each vertex's list has at most twice its incidences (a gap after each). */
  if (!reserve_vp(m, 2 * total)) return ASTAR_NO_MEMORY;
  size_t maxdeg = 0, off = 0;
  for (size_t v = 0; v < m->nv; v++) {
    m->voff[v] = (uint32_t)off;
    off += m->vn[v];
    if (m->vn[v] > maxdeg) maxdeg = m->vn[v];
    m->vn[v] = 0;
  }
  /* Incidences as (poly, k) packed in a temporary array by vertex. */
  incid *all = total ? astar__calloc(&m->alloc, total, sizeof *all) : NULL;
  if (total && !all) return ASTAR_NO_MEMORY;
  for (size_t i = 0; i < m->np; i++) {
    const int32_t *pv = m->pv + m->poff[i];
    for (uint32_t k = 0; k < m->pn[i]; k++) {
      incid *d = &all[m->voff[pv[k]] + m->vn[pv[k]]++];
      d->poly = (int32_t)i;
      d->k = k;
    }
  }
  scratch s = {0};
  if (!scratch_reserve(m, &s, maxdeg ? maxdeg : 1)) {
    astar__free(&m->alloc, all, total * sizeof *all);
    return ASTAR_NO_MEMORY;
  }
  m->vp_len = 0;
  m->pinch_sig = 0;
  if (m->nv) memset(m->vflags, 0, m->nv); /* every list is made anew */
  uint32_t *starts = m->voff;             /* reused: voff[v] is rewritten after v is read */
  for (size_t v = 0; v < m->nv; v++) {
    uint32_t gaps;
    const size_t n = m->vn[v];
    if (n && all) memcpy(s.in, all + starts[v], n * sizeof *all);
    const size_t len = order_vertex(m, (int32_t)v, s.in, n, s.out, &gaps);
    store_vertex(m, (int32_t)v, s.out, len, gaps);
  }
  scratch_free(m, &s);
  astar__free(&m->alloc, all, total * sizeof *all);
  return ASTAR_OK;
}

/* Area, bounds, largest polygon, live count. */
static void derive_totals(astar_mesh *m) {
  m->area = 0;
  m->live = 0;
  m->max_sides = 0;
  for (size_t i = 0; i < m->np; i++) {
    if (!m->pn[i]) continue;
    m->live++;
    if (m->pn[i] > m->max_sides) m->max_sides = m->pn[i];
    m->area += astar__mesh_poly_area(m, i);
  }
  m->min = m->max = (astar_vec2){0, 0};
  for (size_t v = 0; v < m->nv; v++) {
    const astar_vec2 p = m->v[v];
    if (v == 0 || p.x < m->min.x) m->min.x = p.x;
    if (v == 0 || p.y < m->min.y) m->min.y = p.y;
    if (v == 0 || p.x > m->max.x) m->max.x = p.x;
    if (v == 0 || p.y > m->max.y) m->max.y = p.y;
  }
}

astar_status astar__mesh_finish(astar_mesh *m, astar_mesh_fault *fault) {
  fault_clear(fault);
  /* The checks first: they make the vertex lists well-defined. */
  astar_status st = astar__mesh_check_local(m, fault);
  if (st != ASTAR_OK) return st;
  st = astar__mesh_check_overlaps(m, fault);
  if (st != ASTAR_OK) return st;
  derive_totals(m);
  st = astar__mesh_index_build(m);
  if (st != ASTAR_OK) return st;
  return derive_vertices(m);
}

/* ---- edits ------------------------------------------------------------------ */

astar_status astar__mesh_add_vertex(astar_mesh *m, astar_vec2 p, int32_t *id) {
  if (m->nv >= ASTAR_MESH_MAX_ELEMENTS) return ASTAR_TOO_LARGE;
  if (!reserve_vertices(m, m->nv + 1)) return ASTAR_NO_MEMORY;
  const size_t v = m->nv++;
  m->v[v] = p;
  m->voff[v] = 0;
  m->vn[v] = 0;
  m->vflags[v] = 0;
  if (v == 0 || p.x < m->min.x) m->min.x = p.x;
  if (v == 0 || p.y < m->min.y) m->min.y = p.y;
  if (v == 0 || p.x > m->max.x) m->max.x = p.x;
  if (v == 0 || p.y > m->max.y) m->max.y = p.y;
  if (id) *id = (int32_t)v;
  return ASTAR_OK;
}

astar_status astar__mesh_set_polygon(astar_mesh *m, size_t slot, uint32_t n, const int32_t *verts,
                                     const int32_t *neighbours) {
  if (slot > m->np) return ASTAR_INVALID_ARGUMENT;
  const uint32_t old_n = slot < m->np ? m->pn[slot] : 0;
  /* Reserve everything first: a failure leaves the mesh as it was. */
  if (slot == m->np && !reserve_polygons(m, m->np + 1)) return ASTAR_NO_MEMORY;
  if (n > old_n && !reserve_pool(m, m->pool_len + n)) return ASTAR_NO_MEMORY;
  if (!reserve_dirty(m, m->ndirty + old_n + n)) return ASTAR_NO_MEMORY;
  if (slot == m->np) {
    m->np++;
    m->pn[slot] = 0;
    m->poff[slot] = (uint32_t)m->pool_len;
  }
  /* The old and the new vertices' lists change. */
  for (uint32_t k = 0; k < old_n; k++) m->dirty[m->ndirty++] = m->pv[m->poff[slot] + k];
  for (uint32_t k = 0; k < n; k++) m->dirty[m->ndirty++] = verts[k];
  if (old_n) {
    m->area -= astar__mesh_poly_area(m, slot);
    m->live--;
  }
  if (n > old_n) {
    m->poff[slot] = (uint32_t)m->pool_len;
    m->pool_len += n;
  }
  m->pn[slot] = n;
  if (n) {
    memcpy(m->pv + m->poff[slot], verts, n * sizeof *verts);
    for (uint32_t k = 0; k < n; k++) m->pnb[m->poff[slot] + k] = neighbours ? neighbours[k] : -1;
    m->area += astar__mesh_poly_area(m, slot);
    m->live++;
    if (n > m->max_sides) m->max_sides = n;
  }
  return ASTAR_OK;
}

static int int32_cmp(const void *pa, const void *pb) {
  const int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return a < b ? -1 : a > b;
}

astar_status astar__mesh_edited(astar_mesh *m, const int32_t *touched, size_t ntouched) {
  /* The dirty vertices, each once. */
  if (m->ndirty) qsort(m->dirty, m->ndirty, sizeof *m->dirty, int32_cmp);
  size_t nd = 0;
  for (size_t i = 0; i < m->ndirty; i++)
    if (nd == 0 || m->dirty[nd - 1] != m->dirty[i]) m->dirty[nd++] = m->dirty[i];
  m->ndirty = nd;
  /* The touched slots sorted, to tell a polygon the edit rewrote from
  ** one it left alone. */
  int32_t *t = ntouched ? astar__calloc(&m->alloc, ntouched, sizeof *t) : NULL;
  if (ntouched && !t) return ASTAR_NO_MEMORY;
  if (ntouched) {
    memcpy(t, touched, ntouched * sizeof *t);
    qsort(t, ntouched, sizeof *t, int32_cmp);
  }
  /* Room: each dirty vertex's list is at most 2 * (old list + touched
  ** polygons holding it). */
  size_t need = 0, maxdeg = 1;
  for (size_t i = 0; i < nd; i++) {
    size_t deg = m->vn[m->dirty[i]];
    for (size_t j = 0; j < ntouched; j++)
      if ((size_t)t[j] < m->np && m->pn[t[j]] && position(m, (size_t)t[j], m->dirty[i]) >= 0) deg++;
    need += 2 * deg;
    if (deg > maxdeg) maxdeg = deg;
  }
  scratch s = {0};
  if (!reserve_vp(m, m->vp_len + need) || !scratch_reserve(m, &s, maxdeg)) {
    astar__free(&m->alloc, t, ntouched * sizeof *t);
    return ASTAR_NO_MEMORY;
  }
  for (size_t i = 0; i < nd && s.in && s.out; i++) {
    const int32_t v = m->dirty[i];
    size_t n = 0;
    /* Untouched polygons of the old list still hold v. */
    const int32_t *old = m->vp + m->voff[v];
    for (uint32_t j = 0; j < m->vn[v]; j++) {
      const int32_t p = old[j];
      if (p < 0 || (t && bsearch(&p, t, ntouched, sizeof *t, int32_cmp))) continue;
      const int32_t k = position(m, (size_t)p, v);
      if (k < 0) continue;
      s.in[n].poly = p;
      s.in[n].k = (uint32_t)k;
      n++;
    }
    for (size_t j = 0; j < ntouched; j++) {
      if (j && t[j] == t[j - 1]) continue;
      if ((size_t)t[j] >= m->np || !m->pn[t[j]]) continue;
      const int32_t k = position(m, (size_t)t[j], v);
      if (k < 0) continue;
      s.in[n].poly = t[j];
      s.in[n].k = (uint32_t)k;
      n++;
    }
    uint32_t gaps;
    const size_t len = order_vertex(m, v, s.in, n, s.out, &gaps);
    store_vertex(m, v, s.out, len, gaps);
  }
  scratch_free(m, &s);
  astar__free(&m->alloc, t, ntouched * sizeof *t);
  m->ndirty = 0;
  const astar_status st = astar__mesh_index_update(m, touched, ntouched);
  m->version++;
  return st;
}

void astar__mesh_compact(astar_mesh *m) {
  /* Copy into exact-size blocks in slot (vertex) order; when the
  ** allocator refuses, the mesh keeps its holes (still valid). */
  size_t used = 0;
  for (size_t i = 0; i < m->np; i++) used += m->pn[i];
  if (used < m->pool_len && used) {
    int32_t *pv = astar__calloc(&m->alloc, used, sizeof *pv);
    int32_t *pnb = astar__calloc(&m->alloc, used, sizeof *pnb);
    if (pv && pnb) {
      size_t out = 0;
      for (size_t i = 0; i < m->np; i++) {
        memcpy(pv + out, m->pv + m->poff[i], m->pn[i] * sizeof *pv);
        memcpy(pnb + out, m->pnb + m->poff[i], m->pn[i] * sizeof *pnb);
        m->poff[i] = (uint32_t)out;
        out += m->pn[i];
      }
      astar__free(&m->alloc, m->pv, m->pool_cap * sizeof(int32_t));
      astar__free(&m->alloc, m->pnb, m->pool_cap * sizeof(int32_t));
      m->pv = pv;
      m->pnb = pnb;
      m->pool_cap = m->pool_len = used;
    } else {
      astar__free(&m->alloc, pv, used * sizeof *pv);
      astar__free(&m->alloc, pnb, used * sizeof *pnb);
    }
  }
  size_t vused = 0;
  for (size_t v = 0; v < m->nv; v++) vused += m->vn[v];
  if (vused < m->vp_len && vused) {
    int32_t *vp = astar__calloc(&m->alloc, vused, sizeof *vp);
    if (vp) {
      size_t out = 0;
      for (size_t v = 0; v < m->nv; v++) {
        memcpy(vp + out, m->vp + m->voff[v], m->vn[v] * sizeof *vp);
        m->voff[v] = (uint32_t)out;
        out += m->vn[v];
      }
      astar__free(&m->alloc, m->vp, m->vp_cap * sizeof(int32_t));
      m->vp = vp;
      m->vp_cap = m->vp_len = vused;
    }
  }
}

bool astar__mesh_poly_holds(const astar_mesh *m, size_t i, astar_vec2 p) {
  if (i >= m->np || m->pn[i] == 0) return false;
  const uint32_t n = m->pn[i];
  const int32_t *pv = m->pv + m->poff[i];
  uint32_t k = 0;
  for (; k < n; k++) {
    const astar_vec2 a = m->v[pv[k ? k - 1 : n - 1]], b = m->v[pv[k]];
    if (astar__orient2d(a, b, p) < 0) break;
  }
  if (k == n) return true;
  /* Outside an edge's line. A polygon whose collinear vertices were
  ** rounded (the turn tolerance of astar/mesh.h) can put its own boundary
  ** a rounding step outside a neighbouring edge's line: a point exactly on
  ** the boundary is still in the closed polygon. */
  for (k = 0; k < n; k++) {
    const astar_vec2 a = m->v[pv[k ? k - 1 : n - 1]], b = m->v[pv[k]];
    if (astar__on_segment(a, b, p)) return true;
  }
  return false;
}
