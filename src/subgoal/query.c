/*
** subgoal/query.c -- one search over a subgoal graph.
**
** 1. Start and goal joined by a free diagonal-first or straight-first
**    octile line: that line is the answer (its cost is the octile distance,
**    a lower bound of every path).
** 2. Otherwise the goal side: a Dijkstra search from the goal (or, when
**    it is no subgoal, from the subgoals direct-h-reachable from it) along
**    up arcs, not beyond the top: dg, the cost from each vertex it settles
**    down to the goal, and bpar, the next vertex on the way.
** 3. A* from the start (or the subgoals direct-h-reachable from it, as the
**    arcs of a temporary vertex) along up arcs and the arcs between top
**    vertices; from a vertex of the goal side, the goal at g + dg (a
**    contraction hierarchy's two upward searches, with A* over the top:
**    dg >= the octile distance keeps the heuristic consistent). Keys f,
**    then larger g, then smaller vertex number (start and goal, when
**    temporary, are n and n + 1). Costs are sums of octile distances on the
**    quantised move costs, exact, as the grid searches'.
** 4. The path: between consecutive vertices the diagonal-first line when
**    free, else the straight-first one (one of them is, for every arc).
**
** Scratch (astar__subgoal_scratch_bytes): a header, then per vertex (n + 2)
** g, f, dg, parent, bpar, heap position, state stamp, goal-side stamp, plus
** the open list (shared by both searches, one after the other), the path's
** vertex list and the two temporary arc lists. Stamps make a search start
** in O(1): a vertex's state belongs to this search only when its stamp says
** so; the counter is reset (and the stamps cleared) when it would wrap.
*/
#include "subgoal/sg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sg_scratch_head {
  uint32_t base; /* this search's stamps: base (open), base + 1 (closed) */
  uint32_t n;    /* the vertex count the arrays were laid out for */
} sg_scratch_head;

/* An open-list entry carries its keys, so that a comparison reads the
** entry, not the per-vertex arrays at two random places. The goal side
** uses the same order with g = 0: smaller dg, then smaller number. */
typedef struct sg_item {
  double f, g;
  uint32_t v;
} sg_item;

/* The arrays of the scratch for a graph of n subgoals. */
typedef struct sg_arrays {
  sg_scratch_head *head;
  double *g, *f, *dg;
  sg_item *heap;
  uint32_t *parent, *pos, *state, *gside, *stack, *slist, *glist, *bpar;
} sg_arrays;

static size_t layout(uint32_t n, void *base, sg_arrays *A) {
  const size_t nv = (size_t)n + 2;
  size_t off = 16; /* the head, 16-byte aligned */
  uint8_t *b = base;
#define SG_TAKE(field, type, count)                                                                \
  do {                                                                                             \
    if (A) A->field = (type *)(void *)(b + off);                                                   \
    off += ((count) * sizeof(type) + 15u) & ~(size_t)15u;                                          \
  } while (0)
  SG_TAKE(g, double, nv);
  SG_TAKE(f, double, nv);
  SG_TAKE(parent, uint32_t, nv);
  SG_TAKE(pos, uint32_t, nv);
  SG_TAKE(state, uint32_t, nv);
  SG_TAKE(gside, uint32_t, nv);
  SG_TAKE(heap, sg_item, nv);
  SG_TAKE(stack, uint32_t, nv);
  SG_TAKE(slist, uint32_t, nv);
  SG_TAKE(glist, uint32_t, nv);
  SG_TAKE(dg, double, nv);
  SG_TAKE(bpar, uint32_t, nv);
#undef SG_TAKE
  if (A) A->head = base;
  return off;
}

size_t astar__subgoal_scratch_bytes(const astar_subgoal *sg) {
  return sg ? layout(sg->n, NULL, NULL) : 0;
}

/* ---- the open list ----------------------------------------------------------------------- */

/* Is a before b. The forward search (fwd): smaller f, then larger g, then
** smaller number. The goal side: smaller dg (in f), then smaller number --
** its g is always 0, so the comparison skips it. fwd is a constant at every
** call, so each search gets its own comparison inlined. */
ASTAR__INLINE bool before(const sg_item *a, const sg_item *b, bool fwd) {
  if (!fwd) return a->f < b->f || (a->f == b->f && a->v < b->v);
  if (a->f != b->f) return a->f < b->f;
  if (a->g != b->g) return a->g > b->g;
  return a->v < b->v;
}

ASTAR__INLINE void heap_up(const sg_arrays *A, uint32_t i, sg_item it, bool fwd) {
  sg_item *const h = A->heap;
  while (i > 0) {
    const uint32_t p = (i - 1) / 2;
    if (!before(&it, &h[p], fwd)) break;
    h[i] = h[p];
    A->pos[h[i].v] = i;
    i = p;
  }
  h[i] = it;
  A->pos[it.v] = i;
}

ASTAR__INLINE uint32_t heap_pop(const sg_arrays *A, uint32_t *len, bool fwd) {
  sg_item *const h = A->heap;
  const uint32_t top = h[0].v, n = --*len;
  const sg_item last = h[n];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(&h[c + 1], &h[c], fwd)) c++;
    if (!before(&h[c], &last, fwd)) break;
    h[i] = h[c];
    A->pos[h[i].v] = i;
    i = c;
  }
  if (n) {
    h[i] = last;
    A->pos[last.v] = i;
  }
  return top;
}

/* ---- stall on demand ------------------------------------------------------------------- */

/* Does an up neighbour w of v (a higher vertex) already hold a label d[w]
** with d[w] + c(w, v) < dv? Then dv is longer than v's distance from the
** search's root, every label v would give is longer than its target's too
** (the optimal path does not come through v at dv), and expanding v is
** wasted: the upward searches of a contraction hierarchy skip it ("stall
** on demand"). Only strictly shorter labels stall, so no vertex on an
** optimal up-down path is skipped and the path found is the same. Top
** vertices never stall in the forward A* (their arcs go both ways, so the
** closer neighbour would have been expanded first): callers skip them. */
ASTAR__INLINE bool stalled(const astar_subgoal *sg, const sg_arrays *A, const double *d,
                           const uint32_t *stamp, uint32_t open, uint32_t closed, uint32_t v,
                           double dv) {
  (void)A;
  const uint32_t *const adj = sg->adj;
  const double *const acost = sg->acost;
  for (uint32_t i = sg->first[v], e = sg->first[v] + sg->nup[v]; i < e; i++) {
    const uint32_t w = adj[i], s = stamp[w];
    if ((s == open || s == closed) && d[w] + acost[i] < dv) return true;
  }
  return false;
}

/* ---- paths ------------------------------------------------------------------------------------
 */

static uint32_t cell_of(int32_t x, int32_t y, int32_t stride) {
  return (uint32_t)(y * stride + x);
}

/* Write the cells of the line from a to b (padded xy), a excluded, into
** out[0 .. steps-1]; diagonal moves first or last as the free one needs.
** Counts its straight and diagonal moves. */
static void write_line(const astar_grid *grid, uint32_t a, uint32_t b, int df, astar_point *out,
                       uint64_t *ns, uint64_t *nd) {
  const int32_t ax = (int32_t)(a & 0xffffu), ay = (int32_t)(a >> 16);
  const int32_t bx = (int32_t)(b & 0xffffu), by = (int32_t)(b >> 16);
  const int32_t dx = bx - ax, dy = by - ay;
  const int32_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  const int32_t k = adx < ady ? adx : ady, r = (adx < ady ? ady : adx) - k;
  const int32_t sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
  const int32_t tx = adx > ady ? sx : 0, ty = adx > ady ? 0 : sy; /* the straight step */
  const bool diag_first = df >= 0 ? df != 0
                                  : astar__sg_path_free(grid, cell_of(ax, ay, grid->stride),
                                                        cell_of(bx, by, grid->stride), true);
  int32_t x = ax, y = ay, i = 0;
  for (int phase = 0; phase < 2; phase++) {
    if ((phase == 0) == diag_first)
      for (int32_t j = 0; j < k; j++) {
        x += sx, y += sy;
        out[i++] = (astar_point){x - 1, y - 1};
      }
    else
      for (int32_t j = 0; j < r; j++) {
        x += tx, y += ty;
        out[i++] = (astar_point){x - 1, y - 1};
      }
  }
  *ns += (uint64_t)r;
  *nd += (uint64_t)k;
}

static uint32_t steps_of(uint32_t a, uint32_t b) {
  const int32_t dx = (int32_t)(a & 0xffffu) - (int32_t)(b & 0xffffu);
  const int32_t dy = (int32_t)(a >> 16) - (int32_t)(b >> 16);
  const int32_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  return (uint32_t)(adx > ady ? adx : ady);
}

/* The cost reported for a path of ns straight and nd diagonal moves whose
** search cost is g: as the grid searches report it (search/query.c). */
static double reported_cost(const astar_subgoal *sg, double g, uint64_t ns, uint64_t nd) {
  const double s = sg->cs, d = sg->cd;
  if (s == d) return g;
  const double n = (double)(ns + nd), b = (g - n * s) / (d - s);
  if (!(b >= 0.0 && b <= n && b == floor(b))) return g;
  return (n - b) * sg->straight + b * sg->diagonal;
}

/* The cells of the arc from vertex a to b (padded xy axy, bxy; a vertex
** >= sg->n is the temporary start or goal, joined by a free line) with
** its shortcuts unpacked, each free line diagonal-first when free, else
** straight-first: written from out[*at] on while they fit in cap (and
** counted past it), advancing *at. Counts the straight and diagonal
** moves. A shortcut is over a vertex lower than both its ends, so the
** pending right halves are at most one per level. */
static void unpack(const astar_subgoal *sg, const astar_grid *grid, uint32_t a, uint32_t b,
                   uint32_t axy, uint32_t bxy, astar_point *out, size_t cap, size_t *at,
                   uint64_t *ns, uint64_t *nd) {
  /* The segment a..b, arc entry i seen from a when !flip, from b when flip. */
  struct seg {
    uint32_t b, i;
    bool flip;
  } pend[2 * SG_MAX_LEVELS + 4];
  uint32_t np = 0, i = SG_NONE;
  bool flip = false;
  if (a < sg->n && b < sg->n) {
    i = astar__sg_arc(sg, a, b);
    flip = i != SG_NONE && !(i >= sg->first[a] && i < sg->first[a + 1]);
  }
  for (;;) {
    const uint32_t mid = i == SG_NONE ? SG_NONE : sg->amid[i];
    if (mid < SG_DIAG && np < sizeof pend / sizeof pend[0]) {
      const uint32_t i2 = astar__sg_arc(sg, mid, b), i1 = astar__sg_arc(sg, mid, a);
      pend[np++] = (struct seg){b, i2, false}; /* mid..b, seen from mid */
      b = mid;
      bxy = sg->xy[mid];
      i = i1; /* a..mid, seen from mid */
      flip = true;
      continue;
    }
    const uint32_t code = flip ? sg_flip(mid) : mid;
    const int df = i == SG_NONE ? -1 : code != SG_STRAIGHT;
    const uint32_t steps = steps_of(axy, bxy);
    if (out && *at + steps <= cap) {
      write_line(grid, axy, bxy, df, out + *at, ns, nd);
    } else {
      const int32_t dx = abs((int32_t)(axy & 0xffffu) - (int32_t)(bxy & 0xffffu));
      const int32_t dy = abs((int32_t)(axy >> 16) - (int32_t)(bxy >> 16));
      *nd += (uint64_t)(dx < dy ? dx : dy);
      *ns += (uint64_t)(dx < dy ? dy - dx : dx - dy);
    }
    *at += steps;
    if (!np) return;
    np--;
    a = b;
    axy = bxy;
    b = pend[np].b;
    bxy = sg->xy[b];
    i = pend[np].i;
    flip = pend[np].flip;
  }
}

/* ---- the search -------------------------------------------------------------------------------
 */

static astar_status check_point(const astar_grid *g, astar_point p) {
  return (p.x < 0 || p.y < 0 || p.x >= g->width || p.y >= g->height) ? ASTAR_OUT_OF_BOUNDS
                                                                     : ASTAR_OK;
}

astar_status astar__subgoal_find_path(const astar_subgoal *sg, const astar_grid *grid,
                                      void *scratch, size_t scratch_bytes, uint64_t max_expansions,
                                      astar_point start, astar_point goal, astar_point *path,
                                      size_t cap, astar_result *res) {
  astar_result dummy;
  if (!res) res = &dummy;
  memset(res, 0, sizeof *res);
  res->end = (astar_point){-1, -1};
  astar_status st;
  if (!sg || !grid || (cap > 0 && !path)) {
    st = ASTAR_INVALID_ARGUMENT;
    goto done;
  }
  if ((st = check_point(grid, start)) != ASTAR_OK || (st = check_point(grid, goal)) != ASTAR_OK)
    goto done;
  const int32_t stride = grid->stride;
  const uint32_t sc = cell_of(start.x + 1, start.y + 1, stride);
  const uint32_t gc = cell_of(goal.x + 1, goal.y + 1, stride);
  if (!grid->pass[sc]) {
    st = ASTAR_START_BLOCKED;
    goto done;
  }
  if (!grid->pass[gc]) {
    st = ASTAR_GOAL_BLOCKED;
    goto done;
  }
  const uint32_t sxy = sg_pack(start.x + 1, start.y + 1), gxy = sg_pack(goal.x + 1, goal.y + 1);
  if (sc == gc || astar__sg_path_free(grid, sc, gc, true) ||
      astar__sg_path_free(grid, sc, gc, false)) {
    /* The octile line: no search. */
    const size_t len = (size_t)steps_of(sxy, gxy) + 1;
    uint64_t ns = 0, nd = 0;
    res->length = len;
    if (len <= cap) {
      path[0] = start;
      write_line(grid, sxy, gxy, -1, path + 1, &ns, &nd);
    } else {
      const int32_t dx = abs(goal.x - start.x), dy = abs(goal.y - start.y);
      nd = (uint64_t)(dx < dy ? dx : dy);
      ns = (uint64_t)(dx < dy ? dy : dx) - nd;
    }
    res->cost = reported_cost(sg, sg_octile(sg, sxy, gxy), ns, nd);
    res->end = goal;
    st = len <= cap ? ASTAR_OK : ASTAR_BUFFER_TOO_SMALL;
    goto done;
  }
  if (!scratch || scratch_bytes < astar__subgoal_scratch_bytes(sg)) {
    st = ASTAR_INVALID_ARGUMENT;
    goto done;
  }
  const uint32_t n = sg->n;
  sg_arrays A;
  layout(n, scratch, &A);
  sg_scratch_head *head = A.head;
  if (head->n != n || head->base > UINT32_MAX - 4u || head->base == 0) {
    /* Fresh (zeroed) scratch, or laid out for another graph, or the stamps
    ** are about to wrap: clear them. */
    memset(A.state, 0, ((size_t)n + 2) * sizeof *A.state);
    memset(A.gside, 0, ((size_t)n + 2) * sizeof *A.gside);
    head->n = n;
    head->base = 0;
  }
  head->base += 2;
  const uint32_t open = head->base, closed = open + 1;
  /* gside: open = goal side, closed = goal side and next to the goal. */
  const uint32_t *const first = sg->first, *const nup = sg->nup, *const adj = sg->adj;
  const uint32_t *const xy = sg->xy;
  const double *const acost = sg->acost;
  const uint8_t *const level = sg->level;
  const uint8_t top = (uint8_t)sg->nlevels;

  /* 2. The goal side: Dijkstra from the goal over up arcs (not beyond
  ** the top), giving every vertex it settles dg, its distance to the goal
  ** going down, and bpar, the next vertex towards the goal. */
  const bool goal_sg = sg_is_subgoal(sg, gc);
  const uint32_t G = goal_sg ? sg_id(sg, gc) : n + 1;
  uint32_t hlen = 0;
  if (goal_sg) {
    A.dg[G] = 0.0;
    A.bpar[G] = SG_NONE;
    A.gside[G] = open;
    heap_up(&A, hlen++, (sg_item){0.0, 0.0, G}, false);
  } else {
    A.dg[G] = 0.0;
    A.bpar[G] = SG_NONE;
    A.gside[G] = closed;
    const uint32_t k = astar__sg_scan(sg, grid, gc, A.glist);
    for (uint32_t i = 0; i < k; i++) {
      const uint32_t w = A.glist[i];
      A.dg[w] = sg_octile(sg, xy[w], gxy);
      A.bpar[w] = G;
      A.gside[w] = open;
      heap_up(&A, hlen++, (sg_item){A.dg[w], 0.0, w}, false);
    }
  }
  res->stats.generated = hlen;
  while (hlen) {
    const uint32_t v = heap_pop(&A, &hlen, false);
    A.gside[v] = closed;
    res->stats.expanded++;
    if (level[v] == top) continue; /* the forward search crosses the top */
    const double dv = A.dg[v];
    if (stalled(sg, &A, A.dg, A.gside, open, closed, v, dv)) continue;
    for (uint32_t i = first[v], e = first[v] + nup[v]; i < e; i++) {
      const uint32_t w = adj[i];
      const uint32_t gs = A.gside[w];
      if (gs == closed) continue;
      const double nd = dv + acost[i];
      if (gs == open) {
        if (!(nd < A.dg[w])) continue;
        A.dg[w] = nd;
        A.bpar[w] = v;
        heap_up(&A, A.pos[w], (sg_item){nd, 0.0, w}, false);
      } else {
        A.dg[w] = nd;
        A.bpar[w] = v;
        A.gside[w] = open;
        heap_up(&A, hlen++, (sg_item){A.dg[w], 0.0, w}, false);
        res->stats.generated++;
      }
    }
  }

  /* 3. A* from the start over up arcs (and arcs between top vertices);
  ** from a vertex of the goal side, the goal at g + dg. */
  const bool start_sg = sg_is_subgoal(sg, sc);
  const uint32_t S = start_sg ? sg_id(sg, sc) : n;
  uint32_t ks = 0;
  if (!start_sg) ks = astar__sg_scan(sg, grid, sc, A.slist);
  uint32_t via = SG_NONE; /* the goal's parent when reached through dg */
  A.g[S] = 0.0;
  A.f[S] = sg_octile(sg, sxy, gxy);
  A.parent[S] = SG_NONE;
  A.state[S] = open;
  heap_up(&A, hlen++, (sg_item){A.f[S], 0.0, S}, true);
  res->stats.generated++;
  if (!res->stats.max_open) res->stats.max_open = 1;
  st = ASTAR_NO_PATH;
#define SG_XY(v) ((v) < n ? xy[v] : (v) == n ? sxy : gxy)
#define SG_OFFER(w, ng, virt)                                                                      \
  do {                                                                                             \
    const uint32_t w_ = (w);                                                                       \
    const uint32_t s_ = A.state[w_];                                                               \
    if (s_ == closed) break; /* before the cost: most arcs end at closed vertices */               \
    const double ng_ = (ng);                                                                       \
    if (s_ == open && !(ng_ < A.g[w_])) break;                                                     \
    A.g[w_] = ng_;                                                                                 \
    A.f[w_] = ng_ + sg_octile(sg, SG_XY(w_), gxy);                                                 \
    A.parent[w_] = u;                                                                              \
    if (w_ == G) via = (virt) ? u : SG_NONE;                                                       \
    res->stats.generated++;                                                                        \
    if (s_ == open) {                                                                              \
      heap_up(&A, A.pos[w_], (sg_item){A.f[w_], ng_, w_}, true);                                   \
    } else {                                                                                       \
      A.state[w_] = open;                                                                          \
      heap_up(&A, hlen++, (sg_item){A.f[w_], ng_, w_}, true);                                      \
      if (hlen > res->stats.max_open) res->stats.max_open = hlen;                                  \
    }                                                                                              \
  } while (0)
  while (hlen) {
    if (max_expansions && res->stats.expanded >= max_expansions) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    const uint32_t u = heap_pop(&A, &hlen, true);
    A.state[u] = closed;
    res->stats.expanded++;
    if (u == G) {
      st = ASTAR_OK;
      break;
    }
    const double gu = A.g[u];
    if (u < n && level[u] != top && stalled(sg, &A, A.g, A.state, open, closed, u, gu)) continue;
    if (A.gside[u] == closed) SG_OFFER(G, gu + A.dg[u], true);
    if (u == n) {
      for (uint32_t i = 0; i < ks; i++) {
        const uint32_t w = A.slist[i];
        SG_OFFER(w, gu + sg_octile(sg, sxy, xy[w]), false);
      }
      continue;
    }
    for (uint32_t i = first[u], e = first[u] + nup[u]; i < e; i++) {
      const uint32_t w = adj[i];
      SG_OFFER(w, gu + acost[i], false);
    }
  }
#undef SG_OFFER
  if (st != ASTAR_OK) goto done;

  /* 4. The vertices of the path: the forward chain to the meeting vertex,
  ** then the goal side's chain from it (at most n + 2 vertices: a path
  ** through a vertex twice would have a cheaper shortcut). */
  uint32_t nv = 0;
  const uint32_t meet = via != SG_NONE ? via : G;
  for (uint32_t v = meet; v != SG_NONE && nv < n + 2; v = A.parent[v]) A.stack[nv++] = v;
  for (uint32_t i = 0, j = nv - 1; i < j; i++, j--) {
    const uint32_t t = A.stack[i];
    A.stack[i] = A.stack[j];
    A.stack[j] = t;
  }
  if (via != SG_NONE)
    for (uint32_t v = A.bpar[meet]; v != SG_NONE && nv < n + 2; v = A.bpar[v]) A.stack[nv++] = v;
  size_t at = 1;
  uint64_t ns = 0, nd = 0;
  if (cap > 0) path[0] = start;
  for (uint32_t i = 1; i < nv; i++)
    unpack(sg, grid, A.stack[i - 1], A.stack[i], SG_XY(A.stack[i - 1]), SG_XY(A.stack[i]), path,
           cap, &at, &ns, &nd);
  res->length = at;
  if (at > cap) st = ASTAR_BUFFER_TOO_SMALL;
#undef SG_XY
  res->cost = reported_cost(sg, A.g[G], ns, nd);
  res->end = goal;
done:
  res->cause = st;
  return st;
}
