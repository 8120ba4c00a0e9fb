/*
** mesh/funnel.c -- A* over a navigation mesh's polygons, then the funnel
** algorithm over the corridor it found (mesh/funnel.h says the graph and
** the scratch; astar/finder.h the method's contract).
**
** The funnel. The corridor is a chain of convex polygons joined by
** portals (the shared edges), each seen with a left and a right end by a
** walker going from the start to the goal; the start and the goal are
** portals of one point. The funnel is the wedge from the apex (the start,
** then the last bend) between the rays to the tightest left and right ends
** seen since; a portal end that would cross the other side makes that
** side's end the next bend. Every decision is an exact orientation test on
** the coordinates as given (astar__orient2d), so each segment of the path
** passes through every portal it crosses and stays inside the corridor;
** bends are mesh vertices (portal ends). A portal with the apex at one end
** constrains nothing that follows (the path is on it already): the funnel
** starts afresh there.
*/
#include "mesh/funnel.h"

#include <math.h>
#include <string.h>

/* A node record. `stamp` == the header's gen: reached in this search
** (otherwise every other field is stale); then hpos >= 0 in the open list,
** CLOSED once expanded. */
typedef struct fnode {
  double g, f;
  int32_t parent; /* node it was reached from (-1 for the start) */
  int32_t from;   /* polygon it leaves (portal nodes), the goal's polygon (the goal) */
  int32_t hpos;   /* position in the heap, or CLOSED */
  uint32_t stamp;
} fnode;

#define CLOSED (-1)

/* The scratch: this header, then cap records, the heap (cap ids) and the
** corridor (cap portal ids). */
typedef struct fhead {
  size_t cap;      /* records the layout holds (node ids 0 .. cap-1) */
  uint32_t gen;    /* the current search's stamp */
  int32_t first;   /* the last path's first polygon (-1: no path) */
  size_t nchain;   /* portals of the last path's corridor */
  size_t heap_len; /* entries in the heap */
} fhead;

#define HEAD_BYTES ((sizeof(fhead) + 15u) & ~(size_t)15u)

static fnode *records(void *mem) {
  return (fnode *)((char *)mem + HEAD_BYTES);
}
static int32_t *heap_of(void *mem) {
  const fhead *h = mem;
  return (int32_t *)(records(mem) + h->cap);
}
static int32_t *chain_of(void *mem) {
  const fhead *h = mem;
  return heap_of(mem) + h->cap;
}

/* Node ids: portals are pool indices; the start and the goal follow. */
static size_t nodes_of(const astar_mesh *m) {
  return m->pool_len + 2;
}

size_t astar__funnel_scratch_bytes(const astar_mesh *m) {
  const size_t n = nodes_of(m);
  const size_t per = sizeof(fnode) + 2 * sizeof(int32_t);
  if (n > (SIZE_MAX - HEAD_BYTES) / per || n > (size_t)INT32_MAX) return SIZE_MAX;
  return HEAD_BYTES + n * per;
}

void astar__funnel_scratch_ready(void *mem, const astar_mesh *m, bool fresh) {
  fhead *h = mem;
  const size_t n = nodes_of(m);
  if (!fresh && h->cap >= n) return;
  h->cap = n;
  h->gen = 0;
  h->first = -1;
  h->nchain = 0;
  h->heap_len = 0;
  memset(records(mem), 0, n * sizeof(fnode));
}

/* ---- geometry ------------------------------------------------------------------- */

static bool same(astar_vec2 a, astar_vec2 b) {
  return a.x == b.x && a.y == b.y;
}

static double dist(astar_vec2 a, astar_vec2 b) {
  return hypot(a.x - b.x, a.y - b.y);
}

/* The ends of polygon p's edge k (from vertex k-1 to vertex k). The
** polygon lies to its left (counter-clockwise), so a walker leaving p
** across it has vertex k on the left and vertex k-1 on the right. */
static void edge_ends(const astar_mesh *m, int32_t p, uint32_t k, astar_vec2 *left,
                      astar_vec2 *right) {
  const int32_t *pv = m->pv + m->poff[p];
  *left = m->v[pv[k]];
  *right = m->v[pv[k ? k - 1 : m->pn[p] - 1]];
}

/* The point a portal node stands for: the middle of its edge. */
static astar_vec2 middle(astar_vec2 l, astar_vec2 r) {
  return (astar_vec2){0.5 * (l.x + r.x), 0.5 * (l.y + r.y)};
}

/* ---- the polygons holding a point ----------------------------------------------- */

/* Does polygon p hold the located point (its closure)? The location names
** the smallest-index polygon; on an edge the one across too, on a vertex
** every polygon around the vertex. */
static bool holds(const astar_mesh *m, const astar_mesh_location *l, int32_t p) {
  if (p == l->polygon) return true;
  if (l->place == ASTAR_MESH_ON_EDGE) return p == l->other;
  if (l->place == ASTAR_MESH_ON_VERTEX) {
    const int32_t *vp = m->vp + m->voff[l->vertex];
    for (uint32_t i = 0; i < m->vn[l->vertex]; i++)
      if (vp[i] == p) return true;
  }
  return false;
}

/* The polygons holding the located point, as slots 0 .. holder_slots - 1
** (holder_at: a polygon, or -1 for a slot to skip -- a gap around a
** vertex, the outside across a border edge). */
static uint32_t holder_slots(const astar_mesh *m, const astar_mesh_location *l) {
  if (l->place == ASTAR_MESH_ON_VERTEX) return m->vn[l->vertex];
  return l->place == ASTAR_MESH_ON_EDGE ? 2 : 1;
}

static int32_t holder_at(const astar_mesh *m, const astar_mesh_location *l, uint32_t i) {
  if (l->place == ASTAR_MESH_ON_VERTEX) return m->vp[m->voff[l->vertex] + i];
  return i ? l->other : l->polygon;
}

/* ---- the open list: a binary heap of node ids ----------------------------------- */

/* Is a before b? Smaller f, then larger g, then smaller id. */
static bool before(const fnode *rec, int32_t a, int32_t b) {
  if (rec[a].f != rec[b].f) return rec[a].f < rec[b].f;
  if (rec[a].g != rec[b].g) return rec[a].g > rec[b].g;
  return a < b;
}

/* Node x, whose key fell, moves up from position i. */
static void sift_up(fnode *rec, int32_t *heap, size_t i, int32_t x) {
  while (i > 0) {
    const size_t p = (i - 1) / 2;
    if (!before(rec, x, heap[p])) break;
    heap[i] = heap[p];
    rec[heap[i]].hpos = (int32_t)i;
    i = p;
  }
  heap[i] = x;
  rec[x].hpos = (int32_t)i;
}

static int32_t pop(fnode *rec, int32_t *heap, size_t *len) {
  const int32_t top = heap[0];
  const int32_t x = heap[--*len];
  const size_t n = *len;
  size_t i = 0;
  if (n) {
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(rec, heap[c + 1], heap[c])) c++;
      if (!before(rec, heap[c], x)) break;
      heap[i] = heap[c];
      rec[heap[i]].hpos = (int32_t)i;
      i = c;
    }
    heap[i] = x;
    rec[x].hpos = (int32_t)i;
  }
  rec[top].hpos = CLOSED;
  return top;
}

/* ---- the search ------------------------------------------------------------------ */

typedef struct search {
  const astar__funnel_query *q;
  const astar_mesh *m;
  fhead *h;
  fnode *rec;
  int32_t *heap;
  astar_stats st;
  int32_t start, goal; /* their node ids */
} search;

static void emit(const search *s, int type, int32_t polygon, astar_vec2 root, astar_vec2 left,
                 astar_vec2 right, double g, double f) {
  if (!s->q->observer) return;
  const astar_mesh_event e = {type, polygon, root, left, right, g, f - g, f, s->st.expanded};
  s->q->observer(s->q->observer_ctx, &e);
}

/* Reach node `id` with g (its point p, ends l / r, polygon it enters
** `into`, left from `from`): pushed when new, lowered when cheaper, else
** nothing. Closed nodes stay closed (weight <= 1: never cheaper). */
static void reach(search *s, int32_t id, int32_t parent, int32_t from, int32_t into, double g,
                  astar_vec2 p, astar_vec2 l, astar_vec2 r) {
  fnode *n = &s->rec[id];
  if (n->stamp == s->h->gen && (n->hpos == CLOSED || !(g < n->g))) return;
  const double hv = s->q->weight == 0.0 ? 0.0 : s->q->weight * dist(p, s->q->goal);
  const bool fresh = n->stamp != s->h->gen;
  n->stamp = s->h->gen;
  n->g = g;
  n->f = g + hv;
  n->parent = parent;
  n->from = from;
  if (fresh) {
    n->hpos = (int32_t)s->h->heap_len++;
    if (s->h->heap_len > s->st.max_open) s->st.max_open = s->h->heap_len;
  }
  sift_up(s->rec, s->heap, (size_t)n->hpos, id);
  s->st.generated++;
  emit(s, ASTAR_EVENT_PUSH, into, p, l, r, g, n->f);
}

/* The point node `id` stands for, and its ends. */
static astar_vec2 point_of(const search *s, int32_t id, astar_vec2 *l, astar_vec2 *r) {
  if (id == s->start || id == s->goal) {
    *l = *r = id == s->start ? s->q->start : s->q->goal;
    return *l;
  }
  const int32_t p = s->rec[id].from;
  edge_ends(s->m, p, (uint32_t)((size_t)id - s->m->poff[p]), l, r);
  return middle(*l, *r);
}

/* The portals out of polygon p from node u (at point pu, g gu), skipping
** the polygon u came from and the start's polygons. */
static void expand_polygon(search *s, int32_t u, int32_t p, int32_t came_from, astar_vec2 pu,
                           double gu, const astar_mesh_location *sl) {
  const astar_mesh *m = s->m;
  const int32_t *nb = m->pnb + m->poff[p];
  for (uint32_t k = 0; k < m->pn[p]; k++) {
    const int32_t to = nb[k];
    if (to < 0 || to == came_from || holds(m, sl, to)) continue;
    astar_vec2 l, r;
    edge_ends(m, p, k, &l, &r);
    const astar_vec2 mid = middle(l, r);
    reach(s, (int32_t)(m->poff[p] + k), u, p, to, gu + dist(pu, mid), mid, l, r);
  }
}

/* A*: the goal reached (ASTAR_OK) or why not. */
static astar_status astar_over_polygons(search *s, const astar_mesh_location *sl,
                                        const astar_mesh_location *gl) {
  const astar__funnel_query *q = s->q;
  const astar_mesh *m = s->m;
  reach(s, s->start, -1, sl->polygon, sl->polygon, 0.0, q->start, q->start, q->start);
  for (;;) {
    if (!s->h->heap_len) return ASTAR_NO_PATH;
    if (q->max_expansions && s->st.expanded >= q->max_expansions) return ASTAR_LIMIT_REACHED;
    if (q->stop_fn && s->st.expanded && s->st.expanded % q->stop_interval == 0 &&
        q->stop_fn(q->stop_ctx))
      return ASTAR_STOPPED;
    const int32_t u = pop(s->rec, s->heap, &s->h->heap_len);
    s->st.expanded++;
    const fnode nu = s->rec[u];
    astar_vec2 l, r;
    const astar_vec2 pu = point_of(s, u, &l, &r);
    if (u == s->goal) {
      emit(s, ASTAR_EVENT_GOAL, nu.from, pu, l, r, nu.g, nu.f);
      return ASTAR_OK;
    }
    if (u == s->start) {
      emit(s, ASTAR_EVENT_EXPAND, sl->polygon, pu, l, r, nu.g, nu.f);
      /* Out of every polygon holding the start. */
      for (uint32_t i = 0; i < holder_slots(m, sl); i++) {
        const int32_t p = holder_at(m, sl, i);
        if (p >= 0) expand_polygon(s, u, p, -1, pu, 0.0, sl);
      }
      continue;
    }
    const int32_t into = m->pnb[u];
    emit(s, ASTAR_EVENT_EXPAND, into, pu, l, r, nu.g, nu.f);
    if (holds(m, gl, into)) {
      reach(s, s->goal, u, into, into, nu.g + dist(pu, q->goal), q->goal, q->goal, q->goal);
      continue;
    }
    expand_polygon(s, u, into, nu.from, pu, nu.g, sl);
  }
}

/* ---- the funnel ----------------------------------------------------------------- */

/* Portal i of the corridor: 0 the start, 1 .. n the chain's, n + 1 the goal. */
static void portal(const search *s, const int32_t *chain, size_t n, size_t i, astar_vec2 *l,
                   astar_vec2 *r) {
  if (i == 0) {
    *l = *r = s->q->start;
  } else if (i > n) {
    *l = *r = s->q->goal;
  } else {
    (void)point_of(s, chain[i - 1], l, r);
  }
}

/* The path as it is written: points go to path[0 .. cap-1] while they fit
** and are counted always; a point on the line of the last two, further
** along, replaces the last (no bend where the path goes straight on). The
** length is the sum of the segments in order. */
typedef struct writer {
  astar_vec2 *path;
  size_t cap, len;
  astar_vec2 prev, last; /* the last two points (len >= 2), the last (len == 1) */
  double done;           /* length up to prev */
} writer;

static int sgn(double x) {
  return (x > 0) - (x < 0);
}

static void put(writer *w, astar_vec2 p) {
  if (w->len >= 2 && astar__orient2d(w->prev, w->last, p) == 0 &&
      sgn(w->last.x - w->prev.x) == sgn(p.x - w->last.x) &&
      sgn(w->last.y - w->prev.y) == sgn(p.y - w->last.y)) {
    w->last = p; /* straight on: the last point moves */
    if (w->len - 1 < w->cap) w->path[w->len - 1] = p;
    return;
  }
  if (w->len >= 2) w->done += dist(w->prev, w->last);
  if (w->len >= 1) w->prev = w->last;
  w->last = p;
  if (w->len < w->cap) w->path[w->len] = p;
  w->len++;
}

/* A portal whose line passes through the apex: only the ray along the line
** reaches it, first at its nearer end, so it is that end alone (both ends
** set to it; returns 1). The apex inside it: returns -1 (the path is on it
** already). Otherwise 0, the portal as it is. Exact. */
static int collinear_portal(astar_vec2 apex, astar_vec2 *l, astar_vec2 *r) {
  if (same(*l, *r) || same(*l, apex) || same(*r, apex) || astar__orient2d(apex, *l, *r) != 0)
    return 0;
  /* Along the line: by x, or by y when it is vertical. */
  const bool by_x = l->x != r->x;
  const double a = by_x ? apex.x : apex.y, lc = by_x ? l->x : l->y, rc = by_x ? r->x : r->y;
  if ((lc < a) != (rc < a) && lc != a && rc != a) return -1;
  const bool left_nearer = lc > a ? lc < rc : lc > rc;
  if (left_nearer)
    *r = *l;
  else
    *l = *r;
  return 1;
}

/* String-pull the corridor of n portals; the path to path[0 .. cap-1],
** its point count and length to *len and *cost. */
static void pull(const search *s, const int32_t *chain, size_t n, astar_vec2 *path, size_t cap,
                 size_t *len, double *cost) {
  astar_vec2 apex = s->q->start, left = apex, right = apex;
  size_t li = 0, ri = 0;
  bool fan = true; /* every portal since the apex's has had the apex as an end */
  writer w = {path, cap, 0, apex, apex, 0.0};
  put(&w, apex);
  for (size_t i = 1; i <= n + 1; i++) {
    astar_vec2 pl, pr;
    portal(s, chain, n, i, &pl, &pr);
    const int on_line = collinear_portal(apex, &pl, &pr);
    if (on_line < 0 || same(pl, apex) || same(pr, apex)) {
      if (fan) {
        /* The path is on this portal already (the portals since the apex's
        ** fan out around it): what came before no longer constrains it. */
        left = right = apex;
        li = ri = i;
        continue;
      }
      /* Back at the apex's point after leaving it: another side of it (a
      ** pinch, say) in the corridor, not where the path is. The tests
      ** below make the other end a bend. */
    } else {
      fan = false;
    }
    astar_vec2 bend;
    size_t bi;
    /* The right side: tighten unless it crosses the left. */
    if (same(right, apex) || astar__orient2d(apex, right, pr) >= 0) {
      if (same(left, apex) || astar__orient2d(apex, left, pr) < 0) {
        right = pr;
        ri = i;
      } else {
        bend = left;
        bi = li;
        goto bent;
      }
    }
    /* The left side, the same mirrored. */
    if (same(left, apex) || astar__orient2d(apex, left, pl) <= 0) {
      if (same(right, apex) || astar__orient2d(apex, right, pl) > 0) {
        left = pl;
        li = i;
      } else {
        bend = right;
        bi = ri;
        goto bent;
      }
    }
    continue;
  bent:
    put(&w, bend);
    apex = left = right = bend;
    fan = true;
    li = ri = i = bi; /* the loop goes on from the portal after the bend's */
  }
  if (!same(w.last, s->q->goal)) put(&w, s->q->goal);
  *len = w.len;
  *cost = w.len >= 2 ? w.done + dist(w.prev, w.last) : 0.0;
}

astar_status astar__funnel_find(const astar__funnel_query *q, void *mem, astar_vec2 *path,
                                size_t cap, astar__funnel_result *r) {
  const astar_mesh *m = q->mesh;
  fhead *h = mem;
  memset(r, 0, sizeof *r);
  h->first = -1;
  h->nchain = 0;
  astar_mesh_location sl, gl;
  if (astar_mesh_locate(m, q->start, &sl) < 0) return ASTAR_START_BLOCKED;
  if (astar_mesh_locate(m, q->goal, &gl) < 0) return ASTAR_GOAL_BLOCKED;
  search s = {q, m, h, records(mem), heap_of(mem), {0, 0, 0, 0}, 0, 0};
  s.start = (int32_t)m->pool_len;
  s.goal = s.start + 1;
  size_t n = 0;
  int32_t *chain = chain_of(mem);
  /* One polygon holding both: the straight segment, no search. */
  int32_t common = -1;
  for (uint32_t i = 0; i < holder_slots(m, &sl) && common < 0; i++) {
    const int32_t p = holder_at(m, &sl, i);
    if (p >= 0 && holds(m, &gl, p)) common = p;
  }
  if (common >= 0) {
    h->first = common;
  } else {
    if (++h->gen == 0) { /* wrapped: every stamp could look current */
      memset(s.rec, 0, h->cap * sizeof(fnode));
      h->gen = 1;
    }
    h->heap_len = 0;
    const astar_status st = astar_over_polygons(&s, &sl, &gl);
    r->stats = s.st;
    if (st != ASTAR_OK) return st;
    /* The corridor: the goal's parents back to the start. */
    for (int32_t u = s.rec[s.goal].parent; u != s.start; u = s.rec[u].parent) n++;
    size_t i = n;
    for (int32_t u = s.rec[s.goal].parent; u != s.start; u = s.rec[u].parent) chain[--i] = u;
    h->first = s.rec[chain[0]].from;
  }
  h->nchain = n;
  r->corridor = (uint32_t)(n + 1);
  pull(&s, chain, n, path, cap, &r->length, &r->cost);
  return r->length > cap ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK;
}

size_t astar__funnel_corridor(const void *mem, const astar_mesh *m, int32_t *out, size_t cap) {
  const fhead *h = mem;
  if (h->first < 0) return 0;
  const int32_t *chain =
      (const int32_t *)((const char *)mem + HEAD_BYTES + h->cap * sizeof(fnode)) + h->cap;
  const size_t n = h->nchain + 1;
  for (size_t i = 0; i < n && i < cap; i++) out[i] = i ? m->pnb[chain[i - 1]] : h->first;
  return n;
}
