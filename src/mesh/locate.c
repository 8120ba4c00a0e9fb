/*
** mesh/locate.c -- point location on a navigation mesh (astar/mesh.h) and
** the overlap check that uses the same structure.
**
** The index is a bounding-volume hierarchy over the non-empty polygons: a
** binary tree of boxes built top-down, each node's polygons split at the
** median of their box centres along the longer side of the centres' box,
** so the tree is balanced (depth <= log2(P / LEAF) + 1 whatever the
** geometry) and at most LEAF polygons sit in a leaf. A query descends
** into every child whose closed box holds the point: O(log P + k) where k
** is the number of polygon boxes holding it (a handful on real meshes: a
** point lies in the boxes of the polygons around it). Among the polygons
** whose closure holds the point (exact astar__orient2d tests), the one of
** the smallest index wins -- the defined answer on shared edges and
** vertices. A query uses a fixed-size stack: no allocation, no state.
*/
#include "mesh/mesh.h"

#include <string.h>

#define LEAF 4
#define MAX_DEPTH 64

typedef struct box {
  double x0, y0, x1, y1;
} box;

typedef struct item {
  box b;
  int32_t poly;
} item;

/* Inner node: children a and a + 1 (n == INNER); leaf: items[a .. a + n - 1]
** (a leaf emptied by edits has n == 0 and an inverted box). */
#define INNER UINT32_MAX
typedef struct node {
  box b;
  uint32_t a, n;
} node;

/* leaf_of values besides a leaf's node number. */
#define NOT_INDEXED UINT32_MAX
#define IN_EXTRA (UINT32_MAX - 1)

struct astar__mesh_index {
  node *nodes;
  item *items;
  uint32_t *parent; /* per node; the root's is 0 */
  size_t nnodes, node_cap, nitems;
  uint32_t depth;
  /* Edits (astar__mesh_index_update): per polygon slot, its leaf (or
  ** NOT_INDEXED / IN_EXTRA); polygons added since the build, searched
  ** one by one after the tree until there are too many, then rebuilt. */
  uint32_t *leaf_of;
  size_t slot_cap;
  item *extra;
  size_t nextra, extra_cap;
};

static box poly_box(const astar_mesh *m, size_t i) {
  const int32_t *pv = m->pv + m->poff[i];
  box b = {m->v[pv[0]].x, m->v[pv[0]].y, m->v[pv[0]].x, m->v[pv[0]].y};
  for (uint32_t k = 1; k < m->pn[i]; k++) {
    const astar_vec2 p = m->v[pv[k]];
    if (p.x < b.x0) b.x0 = p.x;
    if (p.x > b.x1) b.x1 = p.x;
    if (p.y < b.y0) b.y0 = p.y;
    if (p.y > b.y1) b.y1 = p.y;
  }
  return b;
}

static box merge(box a, box b) {
  if (b.x0 < a.x0) a.x0 = b.x0;
  if (b.y0 < a.y0) a.y0 = b.y0;
  if (b.x1 > a.x1) a.x1 = b.x1;
  if (b.y1 > a.y1) a.y1 = b.y1;
  return a;
}

/* The key an item is split by: twice its box centre on one axis (no
** rounding but the sum's). Ties by polygon index: a total order. */
static bool key_less(const item *a, const item *b, int axis) {
  const double ka = axis ? a->b.y0 + a->b.y1 : a->b.x0 + a->b.x1;
  const double kb = axis ? b->b.y0 + b->b.y1 : b->b.x0 + b->b.x1;
  if (ka != kb) return ka < kb;
  return a->poly < b->poly;
}

static void swap_items(item *a, item *b) {
  const item t = *a;
  *a = *b;
  *b = t;
}

/* Put the k-th smallest of it[0 .. n-1] (by key) at k, smaller ones
** before it, larger after (quickselect, median-of-three pivots). */
static void select_kth(item *it, size_t n, size_t k, int axis) {
  size_t lo = 0, hi = n - 1;
  while (hi > lo) {
    const size_t mid = lo + (hi - lo) / 2;
    if (key_less(&it[mid], &it[lo], axis)) swap_items(&it[mid], &it[lo]);
    if (key_less(&it[hi], &it[lo], axis)) swap_items(&it[hi], &it[lo]);
    if (key_less(&it[hi], &it[mid], axis)) swap_items(&it[hi], &it[mid]);
    /* pivot: the median, moved to hi - 1 .. use Lomuto on [lo, hi] */
    swap_items(&it[mid], &it[hi]);
    const item pivot = it[hi];
    size_t s = lo;
    for (size_t i = lo; i < hi; i++)
      if (key_less(&it[i], &pivot, axis)) swap_items(&it[i], &it[s++]);
    swap_items(&it[s], &it[hi]);
    if (s == k) return;
    if (k < s)
      hi = s - 1;
    else
      lo = s + 1;
  }
}

/* Build node `at` over items[first .. first + n - 1]. */
static void build(struct astar__mesh_index *x, uint32_t at, size_t first, size_t n,
                  uint32_t depth) {
  node *nd = &x->nodes[at];
  item *it = x->items + first;
  nd->b = it[0].b;
  for (size_t i = 1; i < n; i++) nd->b = merge(nd->b, it[i].b);
  if (depth + 1 > x->depth) x->depth = depth + 1;
  if (n <= LEAF) {
    nd->a = (uint32_t)first;
    nd->n = (uint32_t)n;
    for (size_t i = 0; i < n; i++) x->leaf_of[it[i].poly] = at;
    return;
  }
  /* Split at the median centre along the longer side of the centres' box. */
  double cx0 = it[0].b.x0 + it[0].b.x1, cx1 = cx0, cy0 = it[0].b.y0 + it[0].b.y1, cy1 = cy0;
  for (size_t i = 1; i < n; i++) {
    const double cx = it[i].b.x0 + it[i].b.x1, cy = it[i].b.y0 + it[i].b.y1;
    if (cx < cx0) cx0 = cx;
    if (cx > cx1) cx1 = cx;
    if (cy < cy0) cy0 = cy;
    if (cy > cy1) cy1 = cy;
  }
  const int axis = cy1 - cy0 > cx1 - cx0;
  const size_t half = n / 2;
  select_kth(it, n, half, axis);
  const uint32_t kids = (uint32_t)x->nnodes;
  x->nnodes += 2;
  x->parent[kids] = x->parent[kids + 1] = at;
  nd->a = kids;
  nd->n = INNER;
  build(x, kids, first, half, depth + 1);
  build(x, kids + 1, first + half, n - half, depth + 1);
}

static void index_free(const astar_mesh *m, struct astar__mesh_index *x);

void astar__mesh_index_free(astar_mesh *m) {
  index_free(m, m->index);
  m->index = NULL;
}

static void index_free(const astar_mesh *m, struct astar__mesh_index *x) {
  if (!x) return;
  astar__free(&m->alloc, x->nodes, x->node_cap * sizeof *x->nodes);
  astar__free(&m->alloc, x->parent, x->node_cap * sizeof *x->parent);
  astar__free(&m->alloc, x->items, x->nitems * sizeof *x->items);
  astar__free(&m->alloc, x->leaf_of, x->slot_cap * sizeof *x->leaf_of);
  astar__free(&m->alloc, x->extra, x->extra_cap * sizeof *x->extra);
  astar__free(&m->alloc, x, sizeof *x);
}

/* A new index over m's non-empty polygons as they are now. */
static astar_status index_make(const astar_mesh *m, struct astar__mesh_index **out) {
  *out = NULL;
  struct astar__mesh_index *x = astar__calloc(&m->alloc, 1, sizeof *x);
  if (!x) return ASTAR_NO_MEMORY;
  size_t live = 0;
  for (size_t i = 0; i < m->np; i++) live += m->pn[i] != 0;
  x->nitems = live;
  /* A binary tree with leaves of >= 1 item: fewer than 2 * live nodes. */
  x->node_cap = live ? 2 * live : 1;
  x->nodes = astar__calloc(&m->alloc, x->node_cap, sizeof *x->nodes);
  x->parent = astar__calloc(&m->alloc, x->node_cap, sizeof *x->parent);
  x->items = live ? astar__calloc(&m->alloc, live, sizeof *x->items) : NULL;
  x->slot_cap = m->np ? m->np : 1;
  x->leaf_of = astar__calloc(&m->alloc, x->slot_cap, sizeof *x->leaf_of);
  if (!x->nodes || !x->parent || (live && !x->items) || !x->leaf_of) {
    index_free(m, x);
    return ASTAR_NO_MEMORY;
  }
  for (size_t i = 0; i < x->slot_cap; i++) x->leaf_of[i] = NOT_INDEXED;
  size_t c = 0;
  for (size_t i = 0; i < m->np && live; i++) {
    if (!m->pn[i]) continue;
    x->items[c].b = poly_box(m, i);
    x->items[c].poly = (int32_t)i;
    c++;
  }
  x->nnodes = 1;
  if (live) build(x, 0, 0, live, 0);
  *out = x;
  return ASTAR_OK;
}

astar_status astar__mesh_index_build(astar_mesh *m) {
  struct astar__mesh_index *x;
  const astar_status st = index_make(m, &x);
  if (st != ASTAR_OK) return st;
  astar__mesh_index_free(m);
  m->index = x;
  return ASTAR_OK;
}

/* Recompute the boxes from leaf `at` up to the root. An empty leaf's box
** is inverted: it holds no point. */
static void refit(struct astar__mesh_index *x, uint32_t at) {
  node *nd = &x->nodes[at];
  box b = {1, 1, -1, -1};
  for (uint32_t i = 0; i < nd->n; i++) b = i ? merge(b, x->items[nd->a + i].b) : x->items[nd->a].b;
  nd->b = b;
  while (at != 0) {
    at = x->parent[at];
    nd = &x->nodes[at];
    const node *l = &x->nodes[nd->a], *r = &x->nodes[nd->a + 1];
    const bool le = l->b.x0 > l->b.x1, re = r->b.x0 > r->b.x1;
    nd->b = le ? r->b : re ? l->b : merge(l->b, r->b);
  }
}

astar_status astar__mesh_index_update(astar_mesh *m, const int32_t *touched, size_t n) {
  struct astar__mesh_index *x = m->index;
  if (!x) return astar__mesh_index_build(m);
  /* Room first (a failure leaves the index as it was, and valid). */
  if (m->np > x->slot_cap) {
    const size_t cap = m->np + m->np / 2 + 8;
    uint32_t *l = astar__calloc(&m->alloc, cap, sizeof *l);
    if (!l) return ASTAR_NO_MEMORY;
    memcpy(l, x->leaf_of, x->slot_cap * sizeof *l);
    for (size_t i = x->slot_cap; i < cap; i++) l[i] = NOT_INDEXED;
    astar__free(&m->alloc, x->leaf_of, x->slot_cap * sizeof *l);
    x->leaf_of = l;
    x->slot_cap = cap;
  }
  if (x->nextra + n > x->extra_cap) {
    const size_t cap = x->nextra + n + x->extra_cap / 2 + 8;
    item *e = astar__calloc(&m->alloc, cap, sizeof *e);
    if (!e) return ASTAR_NO_MEMORY;
    if (x->nextra) memcpy(e, x->extra, x->nextra * sizeof *e);
    astar__free(&m->alloc, x->extra, x->extra_cap * sizeof *e);
    x->extra = e;
    x->extra_cap = cap;
  }
  for (size_t t = 0; t < n; t++) {
    const int32_t s = touched[t];
    if (s < 0 || (size_t)s >= m->np) continue;
    const uint32_t where = x->leaf_of[s];
    if (where == IN_EXTRA) {
      size_t i = 0;
      while (x->extra[i].poly != s) i++;
      if (m->pn[s]) {
        x->extra[i].b = poly_box(m, (size_t)s);
      } else {
        x->extra[i] = x->extra[--x->nextra];
        x->leaf_of[s] = NOT_INDEXED;
      }
    } else if (where != NOT_INDEXED) {
      node *nd = &x->nodes[where];
      uint32_t i = 0;
      while (x->items[nd->a + i].poly != s) i++;
      if (m->pn[s]) {
        x->items[nd->a + i].b = poly_box(m, (size_t)s);
      } else {
        x->items[nd->a + i] = x->items[nd->a + nd->n - 1];
        nd->n--;
        x->leaf_of[s] = NOT_INDEXED;
      }
      refit(x, where);
    } else if (m->pn[s]) {
      x->extra[x->nextra].b = poly_box(m, (size_t)s);
      x->extra[x->nextra].poly = s;
      x->nextra++;
      x->leaf_of[s] = IN_EXTRA;
    }
  }
  /* Too many outside the tree: rebuild (amortised over as many edits). */
  if (x->nextra > 32 + x->nitems / 8) return astar__mesh_index_build(m);
  return ASTAR_OK;
}

size_t astar__mesh_index_memory(const astar_mesh *m) {
  const struct astar__mesh_index *x = m->index;
  if (!x) return 0;
  return sizeof *x + x->node_cap * (sizeof *x->nodes + sizeof *x->parent) +
         x->nitems * sizeof *x->items + x->slot_cap * sizeof *x->leaf_of +
         x->extra_cap * sizeof *x->extra;
}

static bool box_holds(const box *b, astar_vec2 p) {
  return p.x >= b->x0 && p.x <= b->x1 && p.y >= b->y0 && p.y <= b->y1;
}

int32_t astar_mesh_locate(const astar_mesh *m, astar_vec2 p, astar_mesh_location *loc) {
  if (loc) *loc = (astar_mesh_location){ASTAR_MESH_OUTSIDE, -1, -1, -1};
  if (!m || !m->index || p.x != p.x || p.y != p.y) return -1;
  const struct astar__mesh_index *x = m->index;
  uint32_t stack[MAX_DEPTH * 2];
  size_t top = 0;
  if (x->nitems) stack[top++] = 0;
  int32_t best = -1;
  while (top) {
    const node *nd = &x->nodes[stack[--top]];
    if (!box_holds(&nd->b, p)) continue;
    if (nd->n != INNER) {
      for (uint32_t i = 0; i < nd->n; i++) {
        const item *it = &x->items[nd->a + i];
        if ((best < 0 || it->poly < best) && box_holds(&it->b, p) &&
            astar__mesh_poly_holds(m, (size_t)it->poly, p))
          best = it->poly;
      }
    } else {
      stack[top++] = nd->a;
      stack[top++] = nd->a + 1;
    }
  }
  for (size_t i = 0; i < x->nextra; i++) {
    const item *it = &x->extra[i];
    if ((best < 0 || it->poly < best) && box_holds(&it->b, p) &&
        astar__mesh_poly_holds(m, (size_t)it->poly, p))
      best = it->poly;
  }
  if (best < 0 || !loc) return best;
  loc->polygon = best;
  loc->place = ASTAR_MESH_INSIDE;
  const uint32_t n = m->pn[best];
  const int32_t *pv = m->pv + m->poff[best], *nb = m->pnb + m->poff[best];
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 v = m->v[pv[k]];
    if (v.x == p.x && v.y == p.y) {
      loc->place = ASTAR_MESH_ON_VERTEX;
      loc->vertex = pv[k];
      return best;
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = m->v[pv[k ? k - 1 : n - 1]], b = m->v[pv[k]];
    if (astar__on_segment(a, b, p)) {
      loc->place = ASTAR_MESH_ON_EDGE;
      loc->other = nb[k];
      return best;
    }
  }
  return best;
}

/* Do the interiors of convex counter-clockwise polygons i and j meet?
** Not when the line of an edge of one has the other wholly on its right
** or on it: for two convex polygons a separating line can always be taken
** through an edge of one of them (an edge of their Minkowski difference). */
static bool separated_by(const astar_mesh *m, size_t i, size_t j) {
  const uint32_t ni = m->pn[i], nj = m->pn[j];
  const int32_t *pi = m->pv + m->poff[i], *pj = m->pv + m->poff[j];
  for (uint32_t k = 0; k < ni; k++) {
    const astar_vec2 a = m->v[pi[k ? k - 1 : ni - 1]], b = m->v[pi[k]];
    uint32_t q = 0;
    while (q < nj && astar__orient2d(a, b, m->v[pj[q]]) <= 0) q++;
    if (q == nj) return true;
  }
  return false;
}

static bool interiors_meet(const astar_mesh *m, size_t i, size_t j) {
  return !separated_by(m, i, j) && !separated_by(m, j, i);
}

astar_status astar__mesh_check_overlaps(const astar_mesh *m, astar_mesh_fault *f) {
  /* A temporary index of the polygons as they are: the check trusts no
  ** derived data of the mesh. */
  struct astar__mesh_index *x;
  const astar_status st = index_make(m, &x);
  if (st != ASTAR_OK) return st;
  astar_mesh_fault_kind found = ASTAR_MESH_FAULT_NONE;
  for (size_t i = 0; i < m->np && x->nitems; i++) {
    if (!m->pn[i]) continue;
    const box bi = poly_box(m, i);
    uint32_t stack[MAX_DEPTH * 2];
    size_t top = 0;
    stack[top++] = 0;
    int32_t other = -1;
    while (top) {
      const node *nd = &x->nodes[stack[--top]];
      /* Interiors can meet only where the boxes' interiors do. */
      if (!(nd->b.x0 < bi.x1 && bi.x0 < nd->b.x1 && nd->b.y0 < bi.y1 && bi.y0 < nd->b.y1)) continue;
      if (nd->n != INNER) {
        for (uint32_t q = 0; q < nd->n; q++) {
          const item *it = &x->items[nd->a + q];
          if ((size_t)it->poly <= i || (other >= 0 && it->poly > other)) continue;
          const box *b = &it->b;
          if (b->x0 < bi.x1 && bi.x0 < b->x1 && b->y0 < bi.y1 && bi.y0 < b->y1 &&
              interiors_meet(m, i, (size_t)it->poly))
            other = it->poly;
        }
      } else {
        stack[top++] = nd->a;
        stack[top++] = nd->a + 1;
      }
    }
    if (other >= 0) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_OVERLAP, (int32_t)i, -1, other,
                        "overlaps polygon %ld", (long)other);
      found = ASTAR_MESH_FAULT_OVERLAP;
      break;
    }
  }
  index_free(m, x);
  return found == ASTAR_MESH_FAULT_NONE ? ASTAR_OK : ASTAR_INVALID_ARGUMENT;
}
