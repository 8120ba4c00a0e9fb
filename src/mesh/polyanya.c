/*
** mesh/polyanya.c -- Polyanya (Cui, Harabor, Grastien, IJCAI 2017): the
** Euclidean shortest path on a navigation mesh, searched over intervals of
** polygon edges seen from a root. Our own code; the model and its rules are
** in astar/mesh.h ("Polyanya"), the memory scheme in mesh/polyanya.h.
**
** Nodes. A CONE node is (root, cone, polygon P, entry edge of P): the root
** is the start or a mesh vertex; the cone is bounded by a right and a left
** line through the root, each given by two exact points (mesh vertices or
** the start) so that every side-of-line decision is an exact orientation
** test -- the interval's end points are only computed (in doubles) for the
** heuristic and the observer. The cone has positive width and the root is
** strictly behind the entry edge. A FAN node is (root, polygon P) with the
** root in P's closure: all of P is seen. Successors of a CONE node in P:
**   - observable: every far edge of P the closed cone meets in more than a
**     point (same root, same g);
**   - non-observable, right: when the right line passes through the entry
**     edge's right vertex rv, rv is a corner and the line continues into P,
**     the far edges (parts) right of the line with root rv, and a FAN node
**     for each polygon around rv from P clockwise to the first gap; the
**     left side mirrors it.
** A far edge met in one point only, and an edge seen edge-on from the root,
** give no successor: what lies beyond that point on the boundary line is
** in a neighbouring closed cone -- a sibling of the same root, or the cone
** of the corner that bounds the line, whose root lies on the same line and
** so gives the same g -- as in the paper's completeness argument.
**
** Root pruning (the paper's root-level pruning): the best g of every root
** is kept; a node whose root has since been reached with a g lower by more
** than a relative 1e-10 is dropped when generated and when popped. Roots
** are (vertex, sector): at an ambiguous vertex the polygons between two
** gaps are one sector, and a root in one sector says nothing about another
** (a path may turn at a pinch but not pass through it).
**
** The paper's other two prunings: no node goes into a dead end (a polygon
** of one neighbour) but the goal's, and an expansion that makes one node
** expands it at once, off the open list (see the search loop). With them
** the expansions match the authors' code's successor calls on aurora.
*/
#include "mesh/polyanya.h"

#include <math.h>
#include <string.h>

#include "mesh/mesh.h"

/* The exact orientation predicate (mesh/predicates.c), behind its first
** filter inlined: the determinant in doubles decides when it clears
** Shewchuk's error bound for it, (3 + 16 eps) eps (|l| + |r|). That bound
** holds while no product underflows; bound > 1e-200 makes the larger
** product normal, and the smaller one's absolute error (2^-1075 at most
** when subnormal) is far below the bound. Differences are exact when
** subnormal; an overflow gives inf or NaN, which never clears the bound. */
static inline int orient(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  const double l = (a.x - c.x) * (b.y - c.y), r = (a.y - c.y) * (b.x - c.x);
  const double det = l - r, bound = 3.3306690738754716e-16 * (fabs(l) + fabs(r));
  if (bound > 1e-200) {
    if (det > bound) return 1;
    if (-det > bound) return -1;
  }
  return astar__orient2d(a, b, c);
}

/* ---- the persistent part ----------------------------------------------- */

struct astar__polyanya {
  astar_allocator alloc;
  /* What the tables were made for: the vertex count and pinch_sig. */
  size_t nv;
  uint64_t sig;
  /* Root slots: vertex v owns base[v] .. base[v+1]-1 (one per sector). */
  uint32_t *base;
  size_t base_cap;
  double *best;    /* [slots] best g of the root this generation */
  uint32_t *stamp; /* [slots] generation of best */
  size_t slots, slot_cap;
  uint32_t gen;
  /* Side signs of one polygon's vertices (max_sides + 1). */
  int8_t *sr, *sl;
  size_t side_cap;
  /* Goal polygons of a query. */
  int32_t *goals;
  size_t goal_cap;
  size_t want; /* nodes to lend next */
};

typedef struct pa_node {
  double g, h, f;
  astar_vec2 r, l; /* interval ends, computed (FAN: the root) */
  uint32_t parent; /* pool index; UINT32_MAX for none */
  uint32_t slot;   /* root slot; UINT32_MAX for the start */
  int32_t root;    /* vertex, -1 the start */
  int32_t poly;
  int32_t rv, lv;         /* entry edge (CONE); -1 for a FAN */
  int32_t ar, br, al, bl; /* the lines: right through ar->br, left through al->bl */
  uint32_t tslot;         /* its slot in the expanded table (PA_NONE: not there) */
} pa_node;

/* An open-list entry: the keys beside the node's index, so that ordering
** the heap reads no node. */
typedef struct pa_entry {
  double f, g;
  uint32_t id;
} pa_entry;

#define PA_MIN_NODES 1024u
#define PA_NONE UINT32_MAX

size_t astar__polyanya_node_bytes(void) {
  /* node, heap entry, two table slots */
  return sizeof(pa_node) + sizeof(pa_entry) + 2 * sizeof(uint32_t);
}

size_t astar__polyanya_want_nodes(const astar__polyanya *p) {
  return p->want;
}

bool astar__polyanya_double_nodes(astar__polyanya *p) {
  if (p->want >= (size_t)1 << 30 || p->want > SIZE_MAX / 2 / astar__polyanya_node_bytes())
    return false;
  p->want *= 2;
  return true;
}

void astar__polyanya_free(astar__polyanya *p) {
  if (!p) return;
  const astar_allocator a = p->alloc;
  astar__free(&a, p->base, p->base_cap * sizeof *p->base);
  astar__free(&a, p->best, p->slot_cap * sizeof *p->best);
  astar__free(&a, p->stamp, p->slot_cap * sizeof *p->stamp);
  astar__free(&a, p->sr, p->side_cap);
  astar__free(&a, p->sl, p->side_cap);
  astar__free(&a, p->goals, p->goal_cap * sizeof *p->goals);
  astar__free(&a, p, sizeof *p);
}

size_t astar__polyanya_memory(const astar__polyanya *p) {
  if (!p) return 0;
  return sizeof *p + p->base_cap * sizeof *p->base +
         p->slot_cap * (sizeof *p->best + sizeof *p->stamp) + 2 * p->side_cap +
         p->goal_cap * sizeof *p->goals;
}

/* Grow an array to n elements of `size` bytes (contents kept). */
static bool grow(const astar_allocator *a, void **arr, size_t *cap, size_t n, size_t size) {
  if (n <= *cap) return true;
  size_t c = *cap ? *cap : 16;
  while (c < n) c *= 2;
  void *q = astar__malloc(a, c * size);
  if (!q) return false;
  if (*arr) {
    memcpy(q, *arr, *cap * size);
    astar__free(a, *arr, *cap * size);
  }
  *arr = q;
  *cap = c;
  return true;
}

/* Gaps (-1) around vertex v. */
static uint32_t gaps_of(const astar_mesh *m, size_t v) {
  uint32_t k = 0;
  const int32_t *vp = m->vp + m->voff[v];
  for (uint32_t i = 0; i < m->vn[v]; i++) k += vp[i] < 0;
  return k;
}

astar_status astar__polyanya_reserve(astar__polyanya **pp, const astar_mesh *m,
                                     const astar_allocator *alloc) {
  astar__polyanya *p = *pp;
  if (!p) {
    p = astar__malloc(alloc, sizeof *p);
    if (!p) return ASTAR_NO_MEMORY;
    memset(p, 0, sizeof *p);
    p->alloc = *alloc;
    p->want = PA_MIN_NODES;
    *pp = p;
  }
  const size_t sides = (size_t)m->max_sides + 2;
  if (sides > p->side_cap) {
    int8_t *r = astar__malloc(&p->alloc, sides), *l = astar__malloc(&p->alloc, sides);
    if (!r || !l) {
      astar__free(&p->alloc, r, sides);
      astar__free(&p->alloc, l, sides);
      return ASTAR_NO_MEMORY;
    }
    astar__free(&p->alloc, p->sr, p->side_cap);
    astar__free(&p->alloc, p->sl, p->side_cap);
    p->sr = r;
    p->sl = l;
    p->side_cap = sides;
  }
  /* The root table depends on the pinch vertices only (mesh/mesh.h,
  ** pinch_sig): the mesh's address and version could belong to another
  ** mesh made where a freed one was. */
  if (p->nv == m->nv && p->sig == m->pinch_sig && p->base) return ASTAR_OK;
  /* Root slots for this mesh. */
  size_t cap = p->base_cap;
  if (!grow(&p->alloc, (void **)&p->base, &cap, m->nv + 1, sizeof *p->base)) return ASTAR_NO_MEMORY;
  p->base_cap = cap;
  size_t slots = 0;
  for (size_t v = 0; v < m->nv; v++) {
    p->base[v] = (uint32_t)slots;
    uint32_t k = 1;
    if (m->vflags[v] & ASTAR__V_AMBIG) k = gaps_of(m, v);
    slots += k ? k : 1;
  }
  p->base[m->nv] = (uint32_t)slots;
  if (slots > p->slot_cap) {
    size_t c = p->slot_cap ? p->slot_cap : 16;
    while (c < slots) c *= 2;
    double *b = astar__malloc(&p->alloc, c * sizeof *b);
    uint32_t *s = astar__calloc(&p->alloc, c, sizeof *s);
    if (!b || !s) {
      astar__free(&p->alloc, b, c * sizeof *b);
      astar__free(&p->alloc, s, c * sizeof *s);
      return ASTAR_NO_MEMORY;
    }
    astar__free(&p->alloc, p->best, p->slot_cap * sizeof *p->best);
    astar__free(&p->alloc, p->stamp, p->slot_cap * sizeof *p->stamp);
    p->best = b;
    p->stamp = s;
    p->slot_cap = c;
    p->gen = 0;
  }
  p->slots = slots;
  p->sig = m->pinch_sig;
  p->nv = m->nv;
  return ASTAR_OK;
}

/* ---- one query ---------------------------------------------------------- */

typedef struct pa_query {
  astar__polyanya *p;
  const astar_mesh *m;
  const astar__pa_params *prm;
  astar_vec2 s, t;
  pa_node *nodes;
  pa_entry *heap;
  uint32_t nn, cap, hn;
  uint32_t *table; /* expanded nodes by signature (open addressing) */
  uint32_t tmask;
  const int32_t *goals;
  size_t ngoals;
  astar_stats stats;
  bool full; /* the pool ran out */
} pa_query;

static inline astar_vec2 pt(const pa_query *q, int32_t id) {
  return id < 0 ? q->s : q->m->v[id];
}

static inline double dist(astar_vec2 a, astar_vec2 b) {
  const double dx = a.x - b.x, dy = a.y - b.y;
  return sqrt(dx * dx + dy * dy);
}

/* Where the line through a, b crosses the segment c-d (computed). */
static astar_vec2 cross_at(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  const double ex = b.x - a.x, ey = b.y - a.y;
  const double oc = ex * (c.y - a.y) - ey * (c.x - a.x);
  const double od = ex * (d.y - a.y) - ey * (d.x - a.x);
  const double den = oc - od;
  double t = den != 0.0 ? oc / den : 0.0;
  if (!(t >= 0.0)) t = 0.0;
  if (t > 1.0) t = 1.0;
  return (astar_vec2){c.x + t * (d.x - c.x), c.y + t * (d.y - c.y)};
}

/* The root slot of vertex v seen from polygon `poly` (its sector). */
static uint32_t slot_of(const pa_query *q, int32_t v, int32_t poly) {
  const astar__polyanya *p = q->p;
  const uint32_t b = p->base[v], k = p->base[v + 1] - b;
  if (k <= 1) return b;
  const astar_mesh *m = q->m;
  const int32_t *vp = m->vp + m->voff[v];
  uint32_t gaps = 0;
  for (uint32_t i = 0; i < m->vn[v]; i++) {
    if (vp[i] < 0)
      gaps++;
    else if (vp[i] == poly)
      return b + gaps % k;
  }
  return b;
}

static inline double tol(double g) {
  return 1e-10 * (1.0 + g);
}

/* Is the root's g beaten (by more than the tolerance)? */
static inline bool beaten(const pa_query *q, uint32_t slot, double g) {
  const astar__polyanya *p = q->p;
  return slot != PA_NONE && p->stamp[slot] == p->gen && p->best[slot] + tol(p->best[slot]) < g;
}

static bool is_goal_poly(const pa_query *q, int32_t poly) {
  for (size_t i = 0; i < q->ngoals; i++)
    if (q->goals[i] == poly) return true;
  return false;
}

/*
** The expanded table: one expansion per distinct node. Ties of g are
** common (a grid's symmetric detours) and a turn reached twice with the
** same g would make its successors twice, and theirs twice again; a node
** equal to one expanded before -- same root (and sector), polygon, entry
** edge and lines, g not lower -- is dropped when popped. The table lives in
** the lent memory and is never cleared: a slot counts only when it names a
** node of this query that names the slot back.
*/
static uint32_t signature(const pa_node *n) {
  const uint32_t w[8] = {n->slot,         (uint32_t)n->root, (uint32_t)n->poly, (uint32_t)n->rv,
                         (uint32_t)n->lv, (uint32_t)n->ar,   (uint32_t)n->br,   (uint32_t)n->al};
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint32_t)n->bl;
  for (int i = 0; i < 8; i++) {
    h ^= w[i];
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return (uint32_t)h;
}

static bool same_node(const pa_node *a, const pa_node *b) {
  return a->slot == b->slot && a->root == b->root && a->poly == b->poly && a->rv == b->rv &&
         a->lv == b->lv && a->ar == b->ar && a->br == b->br && a->al == b->al && a->bl == b->bl;
}

/* Was a node equal to node `id` expanded with a g not higher? If not,
** record `id` as expanded. */
static bool seen(pa_query *q, uint32_t id) {
  pa_node *n = &q->nodes[id];
  for (uint32_t h = signature(n) & q->tmask;; h = (h + 1) & q->tmask) {
    const uint32_t o = q->table[h];
    if (o >= q->nn || q->nodes[o].tslot != h) {
      q->table[h] = id;
      n->tslot = h;
      return false;
    }
    if (same_node(&q->nodes[o], n) && q->nodes[o].g <= n->g + tol(n->g)) return true;
  }
}

/* The heuristic of node n: the length of the shortest way from its root
** through its interval to the goal, the goal mirrored across the entry
** edge's line when it is on the root's side. The root is strictly left of
** the entry edge rv -> lv (it sees the edge from the polygon it expands,
** which is on that side, and never edge-on). */
static double heuristic(const pa_query *q, const pa_node *n) {
  const astar_vec2 r = pt(q, n->root);
  astar_vec2 t = q->t;
  if (n->rv < 0) return dist(r, t);
  const astar_vec2 a = q->m->v[n->rv], b = q->m->v[n->lv];
  if (orient(a, b, t) > 0) {
    const double ex = b.x - a.x, ey = b.y - a.y;
    const double len2 = ex * ex + ey * ey;
    const double u = ((t.x - a.x) * ex + (t.y - a.y) * ey) / len2;
    const astar_vec2 foot = {a.x + u * ex, a.y + u * ey};
    t = (astar_vec2){2 * foot.x - t.x, 2 * foot.y - t.y};
  }
  const astar_vec2 R = n->r, L = n->l;
  const double cr = (R.x - r.x) * (t.y - r.y) - (R.y - r.y) * (t.x - r.x);
  if (cr < 0) return dist(r, R) + dist(R, t);
  const double cl = (L.x - r.x) * (t.y - r.y) - (L.y - r.y) * (t.x - r.x);
  if (cl > 0) return dist(r, L) + dist(L, t);
  return dist(r, t);
}

static void observe(const pa_query *q, const pa_node *n, int type) {
  if (!q->prm->observer) return;
  astar_mesh_event e;
  e.type = type;
  e.polygon = n->poly;
  e.root = pt(q, n->root);
  e.left = n->l;
  e.right = n->r;
  e.g = n->g;
  e.h = n->h;
  e.f = n->f;
  e.expanded = q->stats.expanded;
  q->prm->observer(q->prm->observer_ctx, &e);
}

/* Heap order: smaller f, then larger g (deeper), then earlier generated. */
static inline bool before(const pa_entry *x, const pa_entry *y) {
  if (x->f != y->f) return x->f < y->f;
  if (x->g != y->g) return x->g > y->g;
  return x->id < y->id;
}

static void heap_push(pa_query *q, uint32_t id) {
  const pa_entry e = {q->nodes[id].f, q->nodes[id].g, id};
  uint32_t i = q->hn++;
  while (i > 0) {
    const uint32_t up = (i - 1) / 2;
    if (!before(&e, &q->heap[up])) break;
    q->heap[i] = q->heap[up];
    i = up;
  }
  q->heap[i] = e;
  if (q->hn > q->stats.max_open) q->stats.max_open = q->hn;
}

static uint32_t heap_pop(pa_query *q) {
  const uint32_t top = q->heap[0].id;
  const pa_entry last = q->heap[--q->hn];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= q->hn) break;
    if (c + 1 < q->hn && before(&q->heap[c + 1], &q->heap[c])) c++;
    if (!before(&q->heap[c], &last)) break;
    q->heap[i] = q->heap[c];
    i = c;
  }
  if (q->hn) q->heap[i] = last;
  return top;
}

/* Is polygon y a dead end (at most one neighbour)? A path that enters one
** leaves it the way it came, so is never shortest unless it ends there.
** Asked per node rather than tabled: a table kept across queries could not
** tell a freed mesh from a new one made at the same address. */
static bool dead_end(const astar_mesh *m, int32_t y) {
  const int32_t *N = m->pnb + m->poff[y];
  uint32_t k = 0;
  for (uint32_t i = 0, n = m->pn[y]; i < n; i++)
    if (N[i] >= 0 && ++k > 1) return false;
  return true;
}

/* Generate a node (its fields set but g's pruning, h, f): pruned by its
** root, or stored in the pool. The search loop then puts the nodes one
** expansion stored on the open list, or expands a lone one at once. */
static void push(pa_query *q, const pa_node *proto) {
  if (q->full) return;
  if (proto->parent != PA_NONE && dead_end(q->m, proto->poly) && !is_goal_poly(q, proto->poly))
    return;
  if (proto->slot != PA_NONE) {
    astar__polyanya *p = q->p;
    if (beaten(q, proto->slot, proto->g)) return;
    if (p->stamp[proto->slot] != p->gen || proto->g < p->best[proto->slot]) {
      p->stamp[proto->slot] = p->gen;
      p->best[proto->slot] = proto->g;
    }
  }
  if (q->nn == q->cap) {
    q->full = true;
    return;
  }
  pa_node *n = &q->nodes[q->nn];
  *n = *proto;
  n->tslot = PA_NONE;
  n->h = heuristic(q, n);
  n->f = n->g + q->prm->weight * n->h;
  q->nn++;
  q->stats.generated++;
  observe(q, n, ASTAR_EVENT_PUSH);
}

/* A record for the path only (never pushed): root `root` reached from
** `parent`, the parent of nodes a turn at a further vertex makes directly.
** PA_NONE when the pool is full. */
static uint32_t ghost(pa_query *q, uint32_t parent, int32_t root, uint32_t slot, double g) {
  if (q->nn == q->cap) {
    q->full = true;
    return PA_NONE;
  }
  pa_node *n = &q->nodes[q->nn];
  memset(n, 0, sizeof *n);
  n->g = g;
  n->f = g;
  n->parent = parent;
  n->slot = slot;
  n->root = root;
  n->poly = -1;
  n->rv = n->lv = -1;
  n->tslot = PA_NONE;
  return q->nn++;
}

/* A CONE node's fields. */
static void cone(pa_node *n, uint32_t parent, int32_t root, uint32_t slot, double g, int32_t poly,
                 int32_t rv, int32_t lv, int32_t ar, int32_t br, int32_t al, int32_t bl,
                 astar_vec2 r, astar_vec2 l) {
  n->g = g;
  n->parent = parent;
  n->slot = slot;
  n->root = root;
  n->poly = poly;
  n->rv = rv;
  n->lv = lv;
  n->ar = ar;
  n->br = br;
  n->al = al;
  n->bl = bl;
  n->r = r;
  n->l = l;
}

static void edge_on_turns(pa_query *q, uint32_t parent, int32_t root, astar_vec2 rp, double g,
                          int32_t y, uint32_t i);

/* The successors of a FAN node: every edge of its polygon not seen
** edge-on from the root (those through the root included). */
static void expand_fan(pa_query *q, uint32_t id) {
  const pa_node n = q->nodes[id];
  const astar_mesh *m = q->m;
  const uint32_t off = m->poff[n.poly], k = m->pn[n.poly];
  const int32_t *V = m->pv + off, *N = m->pnb + off;
  const astar_vec2 rp = pt(q, n.root);
  for (uint32_t i = 0; i < k; i++) {
    const uint32_t j = i + 1 == k ? 0 : i + 1;
    const int32_t nb = N[j];
    if (nb < 0) continue;
    const astar_vec2 a = m->v[V[i]], b = m->v[V[j]];
    if (orient(a, b, rp) == 0) {
      edge_on_turns(q, id, n.root, rp, n.g, n.poly, i);
      continue;
    }
    pa_node c;
    cone(&c, id, n.root, n.slot, n.g, nb, V[i], V[j], n.root, V[i], n.root, V[j], a, b);
    push(q, &c);
  }
}

/* A FAN node of root `root` (vertex) into polygon `poly`. */
static void fan(pa_query *q, uint32_t parent, int32_t root, uint32_t slot, double g, int32_t poly) {
  pa_node c;
  const astar_vec2 rp = pt(q, root);
  cone(&c, parent, root, slot, g, poly, -1, -1, -1, -1, -1, -1, rp, rp);
  push(q, &c);
}

/* Index of vertex v in polygon poly (its count when absent). */
static uint32_t index_in(const astar_mesh *m, int32_t poly, int32_t v) {
  const uint32_t off = m->poff[poly], k = m->pn[poly];
  const int32_t *V = m->pv + off;
  uint32_t i = 0;
  while (i < k && V[i] != v) i++;
  return i;
}

/* FAN nodes of root v for the polygons around v from `from` onwards,
** clockwise (`cw`) or counter-clockwise, up to the first gap. */
static void fan_walk(pa_query *q, uint32_t parent, int32_t v, uint32_t slot, double g, int32_t from,
                     int32_t first, bool cw) {
  const astar_mesh *m = q->m;
  int32_t y = first;
  uint32_t guard = m->vn[v] + 1;
  while (y >= 0 && y != from && guard--) {
    fan(q, parent, v, slot, g, y);
    const uint32_t k = m->pn[y];
    const uint32_t i = index_in(m, y, v);
    if (i == k) break;
    const int32_t *N = m->pnb + m->poff[y];
    y = cw ? N[i + 1 == k ? 0 : i + 1] : N[i];
  }
}

/*
** Is a turn at v, arriving along the line a -> b (through v), taut on the
** side the walk from polygon y0 around v goes (clockwise: the right)? Only
** when the first gap the walk meets begins within half a turn of the way
** on, strictly on that side of the line: the obstacle must lie inside the
** bend. A turn the other way round the obstacle, or with no obstacle, is
** never part of a shortest path (a shortcut passes by the vertex).
*/
static bool taut(const pa_query *q, int32_t v, int32_t y0, bool cw, astar_vec2 a, astar_vec2 b) {
  const astar_mesh *m = q->m;
  int32_t y = y0;
  for (uint32_t guard = m->vn[v] + 1; guard--;) {
    const uint32_t k = m->pn[y];
    const uint32_t i = index_in(m, y, v);
    if (i == k) return false;
    const int32_t *V = m->pv + m->poff[y], *N = m->pnb + m->poff[y];
    const uint32_t nx = i + 1 == k ? 0 : i + 1, pv = i == 0 ? k - 1 : i - 1;
    const int32_t next = cw ? N[nx] : N[i];
    if (next < 0) {
      const int o = orient(a, b, m->v[cw ? V[nx] : V[pv]]);
      return cw ? o < 0 : o > 0;
    }
    y = next;
    if (y == y0) return false;
  }
  return false;
}

/* Edge V[i] -> V[i+1] of polygon y is seen edge-on from root `root` (point
** rp, g) and does not hold it: both its ends are seen along the line, and
** the polygon across it is reached by turning at them -- at a corner end, a
** FAN node for each polygon around it from the one across onwards (away
** from y) to the first gap. */
static void edge_on_turns(pa_query *q, uint32_t parent, int32_t root, astar_vec2 rp, double g,
                          int32_t y, uint32_t i) {
  const astar_mesh *m = q->m;
  const uint32_t off = m->poff[y], k = m->pn[y];
  const int32_t *V = m->pv + off, *N = m->pnb + off;
  const uint32_t j = i + 1 == k ? 0 : i + 1;
  const int32_t nb = N[j];
  if (nb < 0) return;
  const int32_t ends[2] = {V[i], V[j]};
  const astar_vec2 pa = m->v[ends[0]], pb = m->v[ends[1]];
  /* the root on the segment (an end, or the start on the edge): the
  ** polygon across is the root's own */
  if (root == ends[0] || root == ends[1]) return;
  const bool xs = pa.x != pb.x;
  const double lo = xs ? fmin(pa.x, pb.x) : fmin(pa.y, pb.y);
  const double hi = xs ? fmax(pa.x, pb.x) : fmax(pa.y, pb.y);
  const double at = xs ? rp.x : rp.y;
  if (at >= lo && at <= hi) return;
  for (int e = 0; e < 2; e++) {
    const int32_t v = ends[e];
    if (!(m->vflags[v] & ASTAR__V_CORNER)) continue;
    if (!taut(q, v, y, e == 0, rp, m->v[v])) continue;
    const double gv = g + dist(rp, m->v[v]);
    const uint32_t slot = slot_of(q, v, y);
    if (beaten(q, slot, gv)) continue;
    fan_walk(q, parent, v, slot, gv, y, nb, e == 0);
  }
}

static void expand_cone(pa_query *q, uint32_t id) {
  const pa_node n = q->nodes[id];
  const astar_mesh *m = q->m;
  astar__polyanya *p = q->p;
  const uint32_t off = m->poff[n.poly], k = m->pn[n.poly];
  const int32_t *V = m->pv + off, *N = m->pnb + off;
  const uint32_t i0 = index_in(m, n.poly, n.rv);
  if (i0 == k) return;
  const uint32_t mm = k - 1; /* c_0 = rv .. c_mm = lv */
#define C(j) V[(i0 + (j)) % k]
#define NB(j) N[(i0 + (j) + 1) % k] /* across c_j -> c_j+1 */
  const astar_vec2 ar = pt(q, n.ar), br = pt(q, n.br), al = pt(q, n.al), bl = pt(q, n.bl);
  int8_t *sr = p->sr, *sl = p->sl;
  /* The entry edge's ends are known but where a line may pass through
  ** them: the cone crosses the entry edge in an interval of positive
  ** width, so lv is strictly left of the right line and rv strictly right
  ** of the left one; a line drawn through the root and that end passes
  ** through it. */
  sr[0] = n.ar == n.root && n.br == n.rv ? 0 : (int8_t)orient(ar, br, m->v[n.rv]);
  sl[0] = -1;
  /* Both lines pass through the root and the cone opens beyond the entry
  ** edge, where a point on or right of the right line is strictly right of
  ** the left one, and a point on or left of the left line strictly left of
  ** the right one: one test decides a vertex outside the cone. Which line
  ** to ask first is guessed from the vertex before (the chain runs from
  ** right to left); the guess only saves work, never decides. */
  bool right_first = true;
  for (uint32_t j = 1, i = i0 + 1 == k ? 0 : i0 + 1; j < mm; j++, i = i + 1 == k ? 0 : i + 1) {
    const astar_vec2 c = m->v[V[i]];
    if (right_first) {
      sr[j] = (int8_t)orient(ar, br, c);
      sl[j] = sr[j] <= 0 ? -1 : (int8_t)orient(al, bl, c);
    } else {
      sl[j] = (int8_t)orient(al, bl, c);
      sr[j] = sl[j] >= 0 ? 1 : (int8_t)orient(ar, br, c);
    }
    right_first = sr[j] <= 0;
  }
  sr[mm] = 1;
  sl[mm] = n.al == n.root && n.bl == n.lv ? 0 : (int8_t)orient(al, bl, m->v[n.lv]);
  const astar_vec2 rp = pt(q, n.root);
  /* Observable successors; an edge along a boundary line is seen edge-on:
  ** what lies across it is reached by turning at its ends. */
  for (uint32_t j = 0; j < mm; j++) {
    if ((sr[j] == 0 && sr[j + 1] == 0) || (sl[j] == 0 && sl[j + 1] == 0)) {
      edge_on_turns(q, id, n.root, rp, n.g, n.poly, (i0 + j) % k);
      continue;
    }
    if (sr[j + 1] <= 0 || sl[j] >= 0) continue;
    const int32_t nb = NB(j);
    if (nb < 0) continue;
    const int32_t a = C(j), b = C(j + 1);
    const astar_vec2 pa = m->v[a], pb = m->v[b];
    pa_node c;
    int32_t rar, rbr, ral, rbl;
    astar_vec2 R, L;
    if (sr[j] >= 0) {
      rar = n.root, rbr = a, R = pa;
    } else {
      rar = n.ar, rbr = n.br, R = cross_at(ar, br, pa, pb);
    }
    if (sl[j + 1] <= 0) {
      ral = n.root, rbl = b, L = pb;
    } else {
      ral = n.al, rbl = n.bl, L = cross_at(al, bl, pa, pb);
    }
    cone(&c, id, n.root, n.slot, n.g, nb, a, b, rar, rbr, ral, rbl, R, L);
    push(q, &c);
  }
  /* Non-observable on the right: turning at rv. */
  if (sr[0] == 0 && (m->vflags[n.rv] & ASTAR__V_CORNER) && sr[1] <= 0 &&
      taut(q, n.rv, n.poly, true, ar, br)) {
    const int32_t v = n.rv;
    const astar_vec2 pv = m->v[v];
    const double g = n.g + dist(rp, pv);
    const uint32_t slot = slot_of(q, v, n.poly);
    if (!beaten(q, slot, g)) {
      for (uint32_t j = 1; j < mm && sr[j] < 0; j++) {
        const int32_t nb = NB(j);
        if (nb < 0) continue;
        const int32_t a = C(j), b = C(j + 1);
        const astar_vec2 pa = m->v[a], pb = m->v[b];
        if (orient(pv, pa, pb) == 0) {
          const uint32_t gh = ghost(q, id, v, slot, g);
          if (gh != PA_NONE) edge_on_turns(q, gh, v, pv, g, n.poly, (i0 + j) % k);
          continue;
        }
        pa_node c;
        if (sr[j + 1] <= 0)
          cone(&c, id, v, slot, g, nb, a, b, v, a, v, b, pa, pb);
        else
          cone(&c, id, v, slot, g, nb, a, b, v, a, n.ar, n.br, pa, cross_at(ar, br, pa, pb));
        push(q, &c);
      }
      fan_walk(q, id, v, slot, g, n.poly, NB(0), true);
    }
  }
  /* Non-observable on the left: turning at lv. */
  if (sl[mm] == 0 && (m->vflags[n.lv] & ASTAR__V_CORNER) && sl[mm - 1] >= 0 &&
      taut(q, n.lv, n.poly, false, al, bl)) {
    const int32_t v = n.lv;
    const astar_vec2 pv = m->v[v];
    const double g = n.g + dist(rp, pv);
    const uint32_t slot = slot_of(q, v, n.poly);
    if (!beaten(q, slot, g)) {
      for (uint32_t j = mm - 1; j-- > 0 && sl[j + 1] > 0;) {
        const int32_t nb = NB(j);
        if (nb < 0) continue;
        const int32_t a = C(j), b = C(j + 1);
        const astar_vec2 pa = m->v[a], pb = m->v[b];
        if (orient(pv, pa, pb) == 0) {
          const uint32_t gh = ghost(q, id, v, slot, g);
          if (gh != PA_NONE) edge_on_turns(q, gh, v, pv, g, n.poly, (i0 + j) % k);
          continue;
        }
        pa_node c;
        if (sl[j] >= 0)
          cone(&c, id, v, slot, g, nb, a, b, v, a, v, b, pa, pb);
        else
          cone(&c, id, v, slot, g, nb, a, b, n.al, n.bl, v, b, cross_at(al, bl, pa, pb), pb);
        push(q, &c);
      }
      fan_walk(q, id, v, slot, g, n.poly, NB(mm - 1), false);
    }
  }
#undef C
#undef NB
}

/* The start's nodes: FAN nodes into every polygon holding it. */
static void start_nodes(pa_query *q, const astar_mesh_location *loc) {
  const astar_mesh *m = q->m;
  if (loc->place == ASTAR_MESH_ON_VERTEX) {
    const int32_t *vp = m->vp + m->voff[loc->vertex];
    for (uint32_t i = 0; i < m->vn[loc->vertex]; i++)
      if (vp[i] >= 0) fan(q, PA_NONE, -1, PA_NONE, 0.0, vp[i]);
    return;
  }
  fan(q, PA_NONE, -1, PA_NONE, 0.0, loc->polygon);
  if (loc->place == ASTAR_MESH_ON_EDGE && loc->other >= 0)
    fan(q, PA_NONE, -1, PA_NONE, 0.0, loc->other);
}

/* The goal's polygons (every polygon whose closure holds it) into p->goals. */
static size_t goal_polys(astar__polyanya *p, const astar_mesh *m, const astar_mesh_location *loc) {
  size_t n = 0;
  if (loc->place == ASTAR_MESH_ON_VERTEX) {
    const int32_t *vp = m->vp + m->voff[loc->vertex];
    for (uint32_t i = 0; i < m->vn[loc->vertex]; i++)
      if (vp[i] >= 0) p->goals[n++] = vp[i];
    return n;
  }
  p->goals[n++] = loc->polygon;
  if (loc->place == ASTAR_MESH_ON_EDGE && loc->other >= 0) p->goals[n++] = loc->other;
  return n;
}

/* Write the path ending at goal node `id` (start, roots, the bend on the
** interval when the goal is outside the cone, goal); its length in *cost
** and its points in *len. ASTAR_OK or ASTAR_BUFFER_TOO_SMALL. */
static astar_status write_path(const pa_query *q, uint32_t id, astar_vec2 *path, size_t cap,
                               double *cost, size_t *len) {
  const pa_node *n = &q->nodes[id];
  /* The bend: the goal right of the right line or left of the left one. */
  bool bend = false;
  astar_vec2 b = q->t;
  if (n->rv >= 0) {
    const astar_mesh *m = q->m;
    if (orient(pt(q, n->ar), pt(q, n->br), q->t) < 0) {
      bend = true;
      b = orient(pt(q, n->ar), pt(q, n->br), m->v[n->rv]) == 0 ? m->v[n->rv] : n->r;
    } else if (orient(pt(q, n->al), pt(q, n->bl), q->t) > 0) {
      bend = true;
      b = orient(pt(q, n->al), pt(q, n->bl), m->v[n->lv]) == 0 ? m->v[n->lv] : n->l;
    }
  }
  /* Count: goal, bend, each root change. */
  for (int pass = 0; pass < 2; pass++) {
    size_t k = 0;
    double sum = 0;
    astar_vec2 last = q->t;
    size_t total = pass ? *len : 0;
#define EMIT(P)                                                                                    \
  do {                                                                                             \
    const astar_vec2 P_ = (P);                                                                     \
    if (k == 0 || P_.x != last.x || P_.y != last.y) {                                              \
      if (k) sum += dist(last, P_);                                                                \
      if (pass && total - 1 - k < cap) path[total - 1 - k] = P_;                                   \
      last = P_;                                                                                   \
      k++;                                                                                         \
    }                                                                                              \
  } while (0)
    EMIT(q->t);
    if (bend) EMIT(b);
    int32_t prev = -2;
    for (uint32_t i = id; i != PA_NONE; i = q->nodes[i].parent) {
      if (q->nodes[i].root != prev) {
        prev = q->nodes[i].root;
        EMIT(pt(q, prev));
      }
    }
#undef EMIT
    *len = k;
    *cost = sum;
    if (k > cap) return ASTAR_BUFFER_TOO_SMALL;
  }
  return ASTAR_OK;
}

astar_status astar__polyanya_search(astar__polyanya *p, const astar_mesh *m, void *mem,
                                    size_t bytes, astar_vec2 start, astar_vec2 goal,
                                    const astar__pa_params *prm, astar_vec2 *path, size_t cap,
                                    astar__pa_result *res) {
  memset(res, 0, sizeof *res);
  astar_mesh_location ls, lt;
  if (astar_mesh_locate(m, start, &ls) < 0) return ASTAR_START_BLOCKED;
  if (astar_mesh_locate(m, goal, &lt) < 0) return ASTAR_GOAL_BLOCKED;
  if (start.x == goal.x && start.y == goal.y) {
    res->length = 1;
    if (cap < 1) return ASTAR_BUFFER_TOO_SMALL;
    path[0] = start;
    return ASTAR_OK;
  }
  const size_t per = astar__polyanya_node_bytes();
  size_t cap_nodes = bytes / per;
  if (cap_nodes > (1u << 30)) cap_nodes = 1u << 30;
  /* goals: at most the polygons around a vertex */
  const size_t ng = lt.place == ASTAR_MESH_ON_VERTEX ? m->vn[lt.vertex] : 2;
  size_t gc = p->goal_cap;
  if (!grow(&p->alloc, (void **)&p->goals, &gc, ng, sizeof *p->goals)) return ASTAR_NO_MEMORY;
  p->goal_cap = gc;
  pa_query q;
  memset(&q, 0, sizeof q);
  q.p = p;
  q.m = m;
  q.prm = prm;
  q.s = start;
  q.t = goal;
  q.nodes = mem;
  q.cap = (uint32_t)cap_nodes;
  q.heap = (pa_entry *)(q.nodes + cap_nodes);
  q.table = (uint32_t *)(q.heap + cap_nodes);
  uint32_t tcap = 1;
  while (tcap <= cap_nodes) tcap *= 2; /* > cap_nodes, <= 2 cap_nodes: never full */
  q.tmask = tcap - 1;
  q.goals = p->goals;
  q.ngoals = goal_polys(p, m, &lt);
  if (++p->gen == 0) {
    memset(p->stamp, 0, p->slot_cap * sizeof *p->stamp);
    p->gen = 1;
  }
  start_nodes(&q, &ls);
  for (uint32_t i = 0; i < q.nn; i++) heap_push(&q, i);
  astar_status st = ASTAR_NO_PATH;
  uint64_t next_stop = prm->stop_interval;
  while (q.hn > 0 && !q.full) {
    uint32_t id = heap_pop(&q);
    const pa_node *n = &q.nodes[id];
    if (beaten(&q, n->slot, n->g) || seen(&q, id)) continue;
    if (is_goal_poly(&q, n->poly)) {
      observe(&q, n, ASTAR_EVENT_GOAL);
      st = write_path(&q, id, path, cap, &res->cost, &res->length);
      res->stats = q.stats;
      return st;
    }
    if (prm->max_expansions && q.stats.expanded >= prm->max_expansions) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    if (prm->stop_fn && q.stats.expanded >= next_stop) {
      next_stop = q.stats.expanded + prm->stop_interval;
      if (prm->stop_fn(prm->stop_ctx)) {
        st = ASTAR_STOPPED;
        break;
      }
    }
    /* Expand; while an expansion makes exactly one node (a corridor: the
    ** paper's intermediate pruning), expand that one at once, off the open
    ** list -- its f is not below its parent's (the heuristic is
    ** consistent), so it would be the next one popped among equals. A
    ** chain node of the same root as its parent takes its parent's pool
    ** slot (its parent is neither on the open list nor in the expanded
    ** table, and nothing else names it), so a corridor costs no memory. */
    for (bool chained = false;; chained = true) {
      q.stats.expanded++;
      observe(&q, &q.nodes[id], ASTAR_EVENT_EXPAND);
      const uint32_t first = q.nn;
      if (q.nodes[id].rv < 0)
        expand_fan(&q, id);
      else
        expand_cone(&q, id);
      if (q.full) break;
      uint32_t one = PA_NONE, made = 0;
      for (uint32_t i = first; i < q.nn; i++)
        if (q.nodes[i].poly >= 0) made++, one = i; /* ghosts (poly -1) are path records */
      if (made != 1 || is_goal_poly(&q, q.nodes[one].poly) ||
          (prm->max_expansions && q.stats.expanded >= prm->max_expansions)) {
        for (uint32_t i = first; i < q.nn; i++)
          if (q.nodes[i].poly >= 0) heap_push(&q, i);
        break;
      }
      if (chained && q.nodes[one].parent == id && q.nodes[one].root == q.nodes[id].root) {
        const uint32_t up = q.nodes[id].parent;
        q.nodes[id] = q.nodes[one];
        q.nodes[id].parent = up;
        q.nn = first;
      } else {
        id = one;
      }
    }
  }
  if (q.full) st = ASTAR_CAPACITY;
  res->stats = q.stats;
  return st;
}
