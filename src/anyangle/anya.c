/*
** anya.c -- Anya, the optimal any-angle search (astar/anya.h): search nodes
** are intervals of horizontal lattice lines with a root that sees all of
** them; the search is A* over those nodes with the root-level closed list.
**
** Lattice. Everything here is in doubled units: lattice point (X, Y) is
** (X/2, Y/2) in cell units, lattice cell (X, Y) is map cell (X/2, Y/2)
** (a quarter of it). Start and goal centres are lattice points (odd, odd);
** map grid points are (even, even); only those can be corners. W = 2w and
** H = 2h bound the lattice points. "Line Y" is the horizontal line through
** lattice points of row Y; "cell row Yc" the lattice cells between lines Yc
** and Yc + 1.
**
** Node kinds. A CONE node has its root off its line (ry != row): every
** point of [a, b] is seen from the root, and the search goes on away from
** the root, one line at a time (direction d = sign(row - ry)). A FLAT node
** has its root on its line, the interval on one side of it; it continues
** along the line.
**
** Successors of a cone node on line Y towards Y2 = Y + d, through cell row
** crow (between Y and Y2), behind it cell row brow:
**   - observable: for every run [c0, c1] of free cells of crow meeting
**     [a, b], the part of the cone through it, projected to Y2 and clipped
**     to [c0, c1] (root unchanged);
**   - ahead corners: a run end c0 in [a, b] with the root to its left
**     (the ray goes on to the right of c0) is a convex corner whose blocked
**     cell is ahead-left; the region between the ray and the vertical
**     through c0 is out of the root's sight: a cone [c0, proj(c0)] on Y2
**     rooted at c0. Mirrored for c1;
**   - behind corners: an interval end a that is a convex corner whose
**     blocked cell is behind-left, with the root not to its left: the
**     points left of the ray beyond line Y are out of sight -- a flat node
**     going left from a, and a cone on Y2 from the run's start to
**     proj(a), both rooted at a. Mirrored for b.
** Successors of a flat node going right whose far end e is a convex corner
** with the blocked cell behind it (up-left or down-left): a cone on the
** next line up (down) rooted at e over [e, end of the run]; and the flat
** node that goes on along the line from e with the same root. Flat nodes
** stop at such corners, at squeeze points and where the line cannot be
** followed any further (both cells beside it blocked).
** These are the turns a taut path can make: it bends only at a convex
** corner, around its blocked cell, between the incoming ray and the
** blocked cell's edge; each case above is one way for the blocked cell to
** lie relative to the incoming ray.
**
** Interval ends are doubles: projections of integer points through integer
** roots, so rationals with denominators below H. Only comparisons of an
** interval end with an integer matter (run ends, corners, the goal's x);
** distinct such values differ by more than 1/H > 1.5e-5, and EPS (1e-8)
** absorbs rounding.
*/
#include "core/internal.h"
#include "core/loop.h"

#include <math.h>
#include <string.h>

#define EPS 1e-8      /* lattice units: an interval end within EPS of an integer is it */
#define TIE_REL 1e-12 /* relative: root costs closer than this count as equal */
#define NO_PARENT UINT32_MAX

/* A search node; g and f in lattice units. */
typedef struct anya_node {
  double a, b;     /* the interval [a, b] on line `row`, a <= b */
  double g;        /* cost from the start to the root */
  double f;        /* g + the admissible estimate through the interval */
  int32_t row;     /* lattice line of the interval, 0 .. H */
  int32_t rx, ry;  /* root, lattice point */
  uint32_t parent; /* index of the node that generated it, or NO_PARENT */
} anya_node;       /* 48 bytes */

struct astar_anya_workspace {
  astar_allocator alloc;   /* every block below came from it */
  anya_node *nodes;        /* [cap] node pool, filled in generation order */
  struct anya_entry *heap; /* [cap] binary heap of nodes and their keys (open list) */
  uint32_t cap;            /* nodes a query may generate */
  double *best;            /* [points] best root cost per map grid point, valid if stamped */
  uint32_t *stamp;         /* [points] query generation that wrote best[i] */
  size_t points;           /* entries of best / stamp: (w+1)(h+1) of the largest grid reserved */
  uint32_t gen;            /* generation of the current query, never 0 after the first */
};

/* The state of one query. */
typedef struct anya_query {
  astar_anya_workspace *ws; /* its pools */
  const astar_grid *g;      /* the map, read only */
  int32_t W, H;             /* lattice extents: 2 width, 2 height */
  int32_t tx, ty;           /* goal, lattice point */
  uint32_t n;               /* nodes generated so far */
  uint32_t hn;              /* open list size */
  bool full;                /* the pool ran out */
  astar_stats st;           /* counters reported */
} anya_query;

/* ---- the map through the lattice ---------------------------------------- */

/* Is lattice cell (X, Y) free? X in [-2, W+1], Y in [-2, H+1] (the padded
** border of the grid reads as blocked). */
ASTAR__INLINE bool lfree(const astar_grid *g, int32_t X, int32_t Y) {
  return g->pass[(uint32_t)((Y + 2) >> 1) * (uint32_t)g->stride + (uint32_t)((X + 2) >> 1)] != 0;
}

/* First padded column >= p whose cell is blocked (the border stops it). */
static uint32_t blocked_right(const uint64_t *row, uint32_t p) {
  uint64_t w;
  while ((w = ~astar__bits_at(row, p)) == 0) p += 64;
  return p + (uint32_t)__builtin_ctzll(w);
}

/* Last padded column <= p whose cell is blocked (column 0 is border). */
static uint32_t blocked_left(const uint64_t *row, uint32_t p) {
  for (;;) {
    const uint32_t lo = p >= 63 ? p - 63 : 0;
    uint64_t w = ~astar__bits_at(row, lo);
    const uint32_t n = p - lo + 1;
    if (n < 64) w &= ((uint64_t)1 << n) - 1;
    if (w) return lo + 63 - (uint32_t)__builtin_clzll(w);
    p = lo - 1;
  }
}

/* First padded column >= p whose cell is free, or `end` when none before. */
static uint32_t free_right(const uint64_t *row, uint32_t p, uint32_t end) {
  while (p < end) {
    const uint64_t w = astar__bits_at(row, p);
    if (w) return p + (uint32_t)__builtin_ctzll(w);
    p += 64;
  }
  return end;
}

/* The run of free lattice cells of cell row Yc (0 .. H-1) holding the free
** lattice cell X: cells c0 .. c1-1 (c0, c1 even). */
static void run_of(const astar_grid *g, int32_t Yc, int32_t X, int32_t *c0, int32_t *c1) {
  const uint64_t *row = astar__row(g, (uint32_t)(Yc >> 1) + 1);
  const uint32_t p = (uint32_t)(X >> 1) + 1;
  *c0 = 2 * (int32_t)blocked_left(row, p);
  *c1 = 2 * ((int32_t)blocked_right(row, p) - 1);
}

/* First free lattice cell >= X of cell row Yc, or W when none. */
static int32_t next_free(const anya_query *q, int32_t Yc, int32_t X) {
  const uint64_t *row = astar__row(q->g, (uint32_t)(Yc >> 1) + 1);
  const uint32_t end = (uint32_t)q->g->width + 1;
  const uint32_t p = free_right(row, (uint32_t)(X >> 1) + 1, end);
  if (p >= end) return q->W;
  const int32_t x = 2 * ((int32_t)p - 1);
  return x > X ? x : X;
}

/* Cells around lattice point (X, Y): bit 0 up-left, 1 up-right, 2
** down-left, 3 down-right; a bit set when that cell is blocked. */
static unsigned blocked_around(const astar_grid *g, int32_t X, int32_t Y) {
  return (lfree(g, X - 1, Y - 1) ? 0u : 1u) | (lfree(g, X, Y - 1) ? 0u : 2u) |
         (lfree(g, X - 1, Y) ? 0u : 4u) | (lfree(g, X, Y) ? 0u : 8u);
}

/* A squeeze point: exactly two diagonal cells blocked. */
static bool squeeze(const astar_grid *g, int32_t X, int32_t Y) {
  const unsigned m = blocked_around(g, X, Y);
  return m == 9u || m == 6u;
}

/* The single blocked cell of a convex corner (1, 2, 4 or 8), or 0. */
static unsigned corner_of(const astar_grid *g, int32_t X, int32_t Y) {
  const unsigned m = blocked_around(g, X, Y);
  return (m == 1u || m == 2u || m == 4u || m == 8u) ? m : 0u;
}

ASTAR__INLINE double dist(double x0, double y0, double x1, double y1) {
  const double dx = x1 - x0, dy = y1 - y0;
  return sqrt(dx * dx + dy * dy);
}

/* x is within EPS of an integer: *out receives it. */
static bool integral(double x, int32_t *out) {
  const double r = floor(x + 0.5);
  if (fabs(x - r) >= EPS) return false;
  *out = (int32_t)r;
  return true;
}

/* ---- the open list ---------------------------------------------------------- */

/* An open-list entry carries its keys, so that sifting never reads the
** node pool. */
typedef struct anya_entry {
  double f;     /* the node's f */
  double g;     /* the node's g */
  uint32_t idx; /* the node */
} anya_entry;

/* Pop order: smaller f, then larger g, then generated first. */
ASTAR__INLINE bool before(const anya_entry *x, const anya_entry *y) {
  if (x->f != y->f) return x->f < y->f;
  if (x->g != y->g) return x->g > y->g;
  return x->idx < y->idx;
}

static void heap_push(anya_query *q, uint32_t idx) {
  anya_entry *h = q->ws->heap;
  const anya_entry e = {q->ws->nodes[idx].f, q->ws->nodes[idx].g, idx};
  uint32_t i = q->hn++;
  while (i > 0) {
    const uint32_t up = (i - 1) / 2;
    if (!before(&e, &h[up])) break;
    h[i] = h[up];
    i = up;
  }
  h[i] = e;
  astar__count_open(&q->st, q->hn);
}

static uint32_t heap_pop(anya_query *q) {
  anya_entry *h = q->ws->heap;
  const uint32_t top = h[0].idx, n = --q->hn;
  const anya_entry last = h[n];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(&h[c + 1], &h[c])) c++;
    if (!before(&h[c], &last)) break;
    h[i] = h[c];
    i = c;
  }
  if (n) h[i] = last;
  return top;
}

/* ---- nodes -------------------------------------------------------------------- */

/* Admissible estimate from root (rx, ry) through [a, b] on line Y to the
** goal: the goal mirrored to the far side of the line when it lies on the
** root's side; the straight line's crossing clamped to the interval. */
static double estimate(const anya_query *q, int32_t rx, int32_t ry, int32_t Y, double a, double b) {
  const double tx = q->tx;
  int32_t ty = q->ty;
  double p;
  if (ry == Y) {
    p = (double)rx < a ? a : ((double)rx > b ? b : (double)rx);
    return fabs(p - (double)rx) + dist(p, Y, tx, ty);
  }
  if ((int64_t)(ty - Y) * (int64_t)(ry - Y) > 0) ty = 2 * Y - ty;
  if (ty == Y)
    p = tx;
  else
    p = (double)rx + (tx - (double)rx) * (double)(Y - ry) / (double)(ty - ry);
  if (p < a) p = a;
  if (p > b) p = b;
  return dist(rx, ry, p, Y) + dist(p, Y, tx, ty);
}

/* Record a successor in the pool (commit puts it on the open list). */
static void push(anya_query *q, int32_t rx, int32_t ry, double g, int32_t Y, double a, double b,
                 uint32_t parent) {
  if (a > b) {
    if (a > b + EPS) return;
    b = a;
  }
  if (q->n >= q->ws->cap) {
    q->full = true;
    return;
  }
  const uint32_t idx = q->n++;
  anya_node *nd = &q->ws->nodes[idx];
  nd->a = a;
  nd->b = b;
  nd->g = g;
  nd->f = 0.0; /* set by commit: an intermediate node never needs it */
  nd->row = Y;
  nd->rx = rx;
  nd->ry = ry;
  nd->parent = parent;
}

/* Put the nodes generated since `first` on the open list. */
static void commit(anya_query *q, uint32_t first) {
  anya_node *nodes = q->ws->nodes;
  for (uint32_t i = first; i < q->n; i++) {
    anya_node *nd = &nodes[i];
    nd->f = nd->g + estimate(q, nd->rx, nd->ry, nd->row, nd->a, nd->b);
    heap_push(q, i);
    astar__count_push(&q->st);
  }
}

/* Does node `nd` hold the goal? */
ASTAR__INLINE bool holds_goal(const anya_query *q, const anya_node *nd) {
  return nd->row == q->ty && nd->a <= q->tx + EPS && nd->b >= q->tx - EPS;
}

/* Index of map grid point (X/2, Y/2) in the cost table (X, Y even). */
ASTAR__INLINE size_t point_index(const anya_query *q, int32_t X, int32_t Y) {
  return (size_t)(Y >> 1) * (size_t)(q->g->width + 1) + (size_t)(X >> 1);
}

/* May corner (X, Y) become a root at cost g? Not when it was one before at
** a cost no larger (the root-level closed list); otherwise it is recorded. */
static bool claim(anya_query *q, int32_t X, int32_t Y, double g) {
  astar_anya_workspace *ws = q->ws;
  const size_t i = point_index(q, X, Y);
  if (ws->stamp[i] == ws->gen && g >= ws->best[i] - ws->best[i] * TIE_REL) return false;
  ws->stamp[i] = ws->gen;
  ws->best[i] = g;
  return true;
}

/* Is the node's root known at a smaller cost than the node carries? */
static bool stale(const anya_query *q, const anya_node *nd) {
  if ((nd->rx & 1) || (nd->ry & 1)) return false; /* the start */
  const size_t i = point_index(q, nd->rx, nd->ry);
  return q->ws->best[i] < nd->g - nd->g * TIE_REL;
}

/* Segment pattern of the map grid line y0 between grid points i and i+1:
** bit 0 the cell above is free, bit 1 the cell below (i in [-1, w]). */
ASTAR__INLINE unsigned seg(const astar_grid *g, int32_t y0, int32_t i) {
  const uint8_t *pass = g->pass;
  const uint32_t s = (uint32_t)g->stride, c = (uint32_t)(i + 1);
  return (pass[(uint32_t)y0 * s + c] ? 1u : 0u) | (pass[(uint32_t)(y0 + 1) * s + c] ? 2u : 0u);
}

/* Push the flat node that leaves lattice point (s, Y) in direction dir
** (+1 right, -1 left) with root (rx, ry) at cost g: it runs until the line
** cannot be followed, a squeeze point, or a corner where a turn is
** possible (the segment behind has a blocked side, the one ahead none). */
static void push_flat(anya_query *q, int32_t rx, int32_t ry, double g, int32_t Y, int32_t s,
                      int dir, uint32_t parent) {
  const astar_grid *gr = q->g;
  int32_t e;
  if (Y & 1) { /* a middle line: the cells beside it are one map cell */
    const int32_t X = dir > 0 ? s : s - 1;
    if (X < 0 || X >= q->W || !lfree(gr, X, Y)) return;
    int32_t c0, c1;
    run_of(gr, Y, X, &c0, &c1);
    e = dir > 0 ? c1 : c0;
  } else {
    const int32_t y0 = Y >> 1;
    int32_t i = s >> 1;            /* s is even: a map grid point */
    if (squeeze(gr, s, Y)) return; /* a flat node that ended at one goes no further */
    if (dir > 0) {
      if (seg(gr, y0, i) == 0) return;
      for (i++;; i++) {
        const unsigned prev = seg(gr, y0, i - 1), cur = seg(gr, y0, i);
        if (cur == 0 || (prev ^ cur) == 3u || (prev != 3u && cur == 3u)) break;
      }
    } else {
      if (seg(gr, y0, i - 1) == 0) return;
      for (i--;; i--) {
        const unsigned prev = seg(gr, y0, i), cur = seg(gr, y0, i - 1);
        if (cur == 0 || (prev ^ cur) == 3u || (prev != 3u && cur == 3u)) break;
      }
    }
    e = 2 * i;
  }
  if (e == s) return;
  if (dir > 0)
    push(q, rx, ry, g, Y, s, e, parent);
  else
    push(q, rx, ry, g, Y, e, s, parent);
}

/* ---- expansion ------------------------------------------------------------------ */

static void expand_flat(anya_query *q, uint32_t idx) {
  const anya_node nd = q->ws->nodes[idx];
  const astar_grid *gr = q->g;
  const int dir = nd.a >= (double)nd.rx ? 1 : -1;
  int32_t e;
  if (!integral(dir > 0 ? nd.b : nd.a, &e)) return;
  const int32_t Y = nd.row;
  const unsigned m = corner_of(gr, e, Y);
  /* the blocked cell behind e, above (turn up) or below (turn down) */
  const unsigned up_behind = dir > 0 ? 1u : 2u, down_behind = dir > 0 ? 4u : 8u;
  if (m == up_behind || m == down_behind) {
    const double g2 = nd.g + fabs((double)(e - nd.rx));
    if (claim(q, e, Y, g2)) {
      const int32_t d = m == up_behind ? -1 : 1, crow = d < 0 ? Y - 1 : Y;
      const int32_t Y2 = Y + d == q->ty ? Y + d : Y + 2 * d; /* as in expand_cone */
      int32_t c0, c1;
      run_of(gr, crow, dir > 0 ? e : e - 1, &c0, &c1);
      if (dir > 0)
        push(q, e, Y, g2, Y2, e, c1, idx);
      else
        push(q, e, Y, g2, Y2, c0, e, idx);
    }
  }
  push_flat(q, nd.rx, nd.ry, nd.g, Y, e, dir, idx);
}

static void expand_cone(anya_query *q, const anya_node *cur, uint32_t idx) {
  const anya_node nd = *cur;
  const astar_grid *gr = q->g;
  const int32_t Y = nd.row, d = Y > nd.ry ? 1 : -1;
  /* from a map grid line, straight on to the next one: the middle line
  ** between holds no corner, and its runs are the same map row's -- unless
  ** the goal lies on it */
  const int32_t Y2 = (Y & 1) == 0 && Y + d != q->ty ? Y + 2 * d : Y + d;
  const int32_t crow = d < 0 ? Y - 1 : Y, brow = d < 0 ? Y : Y - 1;
  const double rx = nd.rx, ry = nd.ry;
  const double k = (double)(Y2 - nd.ry) / (double)(Y - nd.ry);
  const bool ahead = Y2 >= 0 && Y2 <= q->H;
#define PROJ(x) (rx + ((x)-rx) * k)
  if (ahead) {
    int32_t X = (int32_t)ceil(nd.a - EPS) - 1;
    if (X < 0) X = 0;
    while (X < q->W && (double)X <= nd.b + EPS) {
      if (!lfree(gr, X, crow)) {
        X = next_free(q, crow, X);
        continue;
      }
      int32_t c0, c1;
      run_of(gr, crow, X, &c0, &c1);
      const double lo = nd.a > c0 ? nd.a : c0, hi = nd.b < c1 ? nd.b : c1;
      int32_t p;
      /* a run the cone only touches at a squeeze point is not entered */
      if (lo <= hi + EPS && !(hi - lo < EPS && integral(lo, &p) && squeeze(gr, p, Y))) {
        double pa = PROJ(lo), pb = PROJ(hi);
        if (pa < c0) pa = c0;
        if (pb > c1) pb = c1;
        if (pa <= pb + EPS) push(q, nd.rx, nd.ry, nd.g, Y2, pa, pb, idx);
        /* ahead corners: the run's ends seen from the root, the ray passing them */
        if ((double)c0 >= nd.a - EPS && (double)c0 <= nd.b + EPS && rx < c0 &&
            corner_of(gr, c0, Y) == (d < 0 ? 1u : 4u)) {
          double pc = PROJ((double)c0);
          if (pc > c1) pc = c1;
          const double g2 = nd.g + dist(rx, ry, c0, Y);
          if (pc > c0 + EPS && claim(q, c0, Y, g2)) push(q, c0, Y, g2, Y2, c0, pc, idx);
        }
        if ((double)c1 >= nd.a - EPS && (double)c1 <= nd.b + EPS && rx > c1 &&
            corner_of(gr, c1, Y) == (d < 0 ? 2u : 8u)) {
          double pc = PROJ((double)c1);
          if (pc < c0) pc = c0;
          const double g2 = nd.g + dist(rx, ry, c1, Y);
          if (pc < c1 - EPS && claim(q, c1, Y, g2)) push(q, c1, Y, g2, Y2, pc, c1, idx);
        }
      }
      X = c1 + 1;
    }
  }
  /* behind corners at the interval's ends */
  int32_t A;
  if (integral(nd.a, &A) && (double)A <= rx && corner_of(gr, A, Y) == (brow < Y ? 1u : 4u)) {
    const double g2 = nd.g + dist(rx, ry, A, Y);
    if (claim(q, A, Y, g2)) {
      push_flat(q, A, Y, g2, Y, A, -1, idx);
      if (ahead) {
        int32_t c0, c1;
        run_of(gr, crow, A - 1, &c0, &c1);
        double hi = PROJ((double)A);
        if (hi > c1) hi = c1;
        push(q, A, Y, g2, Y2, c0, hi, idx);
      }
    }
  }
  int32_t B;
  if (integral(nd.b, &B) && (double)B >= rx && corner_of(gr, B, Y) == (brow < Y ? 2u : 8u)) {
    const double g2 = nd.g + dist(rx, ry, B, Y);
    if (claim(q, B, Y, g2)) {
      push_flat(q, B, Y, g2, Y, B, 1, idx);
      if (ahead) {
        int32_t c0, c1;
        run_of(gr, crow, B, &c0, &c1);
        double lo = PROJ((double)B);
        if (lo < c0) lo = c0;
        push(q, B, Y, g2, Y2, lo, c1, idx);
      }
    }
  }
#undef PROJ
}

/* Expand cone node `idx`; while the only successor is the next step of the
** same cone (Anya's intermediate nodes: same root, no corner met, not the
** goal), expand that at once instead of putting it on the open list. */
static void expand_cone_chain(anya_query *q, uint32_t idx) {
  anya_node cur = q->ws->nodes[idx];
  const uint32_t first = q->n;
  for (;;) {
    expand_cone(q, &cur, idx);
    if (q->n - first != 1 || q->full) return;
    const anya_node *s = &q->ws->nodes[first];
    if (s->rx != cur.rx || s->ry != cur.ry || holds_goal(q, s)) return;
    cur = *s;
    q->n--;
  }
}

/* The start: flat both ways along its middle line, cones up and down
** through the halves of its cell. */
static void expand_start(anya_query *q, int32_t sx, int32_t sy) {
  int32_t c0, c1;
  push_flat(q, sx, sy, 0.0, sy, sx, 1, NO_PARENT);
  push_flat(q, sx, sy, 0.0, sy, sx, -1, NO_PARENT);
  run_of(q->g, sy - 1, sx, &c0, &c1);
  push(q, sx, sy, 0.0, sy - 1, c0, c1, NO_PARENT);
  run_of(q->g, sy, sx, &c0, &c1);
  push(q, sx, sy, 0.0, sy + 1, c0, c1, NO_PARENT);
}

/* ---- the workspace ---------------------------------------------------------------- */

static astar_status grow_nodes(astar_anya_workspace *ws, size_t nodes) {
  if (nodes <= ws->cap) return ASTAR_OK;
  if (nodes > UINT32_MAX - 1) return ASTAR_TOO_LARGE;
  anya_node *pool = astar__calloc(&ws->alloc, nodes, sizeof *pool);
  struct anya_entry *heap = pool ? astar__calloc(&ws->alloc, nodes, sizeof *heap) : NULL;
  if (!heap) {
    astar__free(&ws->alloc, pool, nodes * sizeof *pool);
    return ASTAR_NO_MEMORY;
  }
  astar__free(&ws->alloc, ws->nodes, (size_t)ws->cap * sizeof *ws->nodes);
  astar__free(&ws->alloc, ws->heap, (size_t)ws->cap * sizeof *ws->heap);
  ws->nodes = pool;
  ws->heap = heap;
  ws->cap = (uint32_t)nodes;
  return ASTAR_OK;
}

static astar_status grow_points(astar_anya_workspace *ws, const astar_grid *grid) {
  if (!grid) return ASTAR_OK;
  const size_t points = (size_t)(grid->width + 1) * (size_t)(grid->height + 1);
  if (points <= ws->points) return ASTAR_OK;
  double *best = astar__calloc(&ws->alloc, points, sizeof *best);
  uint32_t *stamp = best ? astar__calloc(&ws->alloc, points, sizeof *stamp) : NULL;
  if (!stamp) {
    astar__free(&ws->alloc, best, points * sizeof *best);
    return ASTAR_NO_MEMORY;
  }
  astar__free(&ws->alloc, ws->best, ws->points * sizeof *ws->best);
  astar__free(&ws->alloc, ws->stamp, ws->points * sizeof *ws->stamp);
  ws->best = best;
  ws->stamp = stamp;
  ws->points = points;
  ws->gen = 0; /* fresh zeroed stamps */
  return ASTAR_OK;
}

astar_status astar_anya_workspace_new(astar_anya_workspace **out, const astar_grid *grid,
                                      size_t nodes, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (nodes == 0) nodes = ASTAR_ANYA_DEFAULT_NODES;
  if (nodes > UINT32_MAX - 1) return ASTAR_TOO_LARGE;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_anya_workspace *ws = astar__calloc(&a, 1, sizeof *ws);
  if (!ws) return ASTAR_NO_MEMORY;
  ws->alloc = a;
  astar_status st = grow_nodes(ws, nodes);
  if (st == ASTAR_OK) st = grow_points(ws, grid);
  if (st != ASTAR_OK) {
    astar_anya_workspace_free(ws);
    return st;
  }
  *out = ws;
  return ASTAR_OK;
}

void astar_anya_workspace_free(astar_anya_workspace *ws) {
  if (!ws) return;
  const astar_allocator a = ws->alloc;
  astar__free(&a, ws->nodes, (size_t)ws->cap * sizeof *ws->nodes);
  astar__free(&a, ws->heap, (size_t)ws->cap * sizeof *ws->heap);
  astar__free(&a, ws->best, ws->points * sizeof *ws->best);
  astar__free(&a, ws->stamp, ws->points * sizeof *ws->stamp);
  astar__free(&a, ws, sizeof *ws);
}

astar_status astar_anya_workspace_reserve(astar_anya_workspace *ws, const astar_grid *grid,
                                          size_t nodes) {
  if (!ws) return ASTAR_INVALID_ARGUMENT;
  if (nodes > UINT32_MAX - 1) return ASTAR_TOO_LARGE;
  /* points first: a failure after it leaves a larger, still consistent workspace */
  astar_status st = grow_points(ws, grid);
  if (st == ASTAR_OK) st = grow_nodes(ws, nodes);
  return st;
}

size_t astar_anya_workspace_nodes(const astar_anya_workspace *ws) {
  return ws ? ws->cap : 0;
}

size_t astar_anya_workspace_memory(const astar_anya_workspace *ws) {
  if (!ws) return 0;
  return sizeof *ws + (size_t)ws->cap * (sizeof *ws->nodes + sizeof *ws->heap) +
         ws->points * (sizeof *ws->best + sizeof *ws->stamp);
}

/* ---- the query ---------------------------------------------------------------------- */

/* Write the path ending at node `idx` (whose interval holds the goal). */
static astar_status finish(const anya_query *q, uint32_t idx, astar_vec2 *path, size_t cap,
                           astar_anya_result *res) {
  const anya_node *nodes = q->ws->nodes;
  /* vertices from the goal back: the goal, then each root once */
  size_t n = 1;
  double length = 0.0;
  int32_t px = q->tx, py = q->ty;
  for (uint32_t i = idx; i != NO_PARENT; i = nodes[i].parent) {
    if (nodes[i].rx != px || nodes[i].ry != py) {
      length += 0.5 * dist(px, py, nodes[i].rx, nodes[i].ry);
      px = nodes[i].rx;
      py = nodes[i].ry;
      n++;
    }
  }
  if (res) {
    res->cost = length;
    res->length = n;
  }
  if (n > cap) return ASTAR_BUFFER_TOO_SMALL;
  size_t k = n - 1;
  path[k] = (astar_vec2){0.5 * q->tx, 0.5 * q->ty};
  px = q->tx;
  py = q->ty;
  for (uint32_t i = idx; i != NO_PARENT; i = nodes[i].parent) {
    if (nodes[i].rx != px || nodes[i].ry != py) {
      px = nodes[i].rx;
      py = nodes[i].ry;
      path[--k] = (astar_vec2){0.5 * px, 0.5 * py};
    }
  }
  return ASTAR_OK;
}

astar_status astar_anya_find_path(astar_anya_workspace *ws, const astar_grid *grid,
                                  astar_point start, astar_point goal, astar_vec2 *path, size_t cap,
                                  astar_anya_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!ws || !grid || (!path && cap > 0)) return ASTAR_INVALID_ARGUMENT;
  if (grid->terrain) return ASTAR_UNSUPPORTED;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (!astar_grid_passable(grid, start.x, start.y)) return ASTAR_START_BLOCKED;
  if (!astar_grid_passable(grid, goal.x, goal.y)) return ASTAR_GOAL_BLOCKED;
  if ((size_t)(grid->width + 1) * (size_t)(grid->height + 1) > ws->points) return ASTAR_CAPACITY;
  if (start.x == goal.x && start.y == goal.y) {
    if (result) result->length = 1;
    if (cap < 1) return ASTAR_BUFFER_TOO_SMALL;
    path[0] = (astar_vec2){start.x + 0.5, start.y + 0.5};
    return ASTAR_OK;
  }
  if (++ws->gen == 0) { /* wrapped: forget every stamp */
    memset(ws->stamp, 0, ws->points * sizeof *ws->stamp);
    ws->gen = 1;
  }
  anya_query q;
  memset(&q, 0, sizeof q);
  q.ws = ws;
  q.g = grid;
  q.W = 2 * grid->width;
  q.H = 2 * grid->height;
  q.tx = 2 * goal.x + 1;
  q.ty = 2 * goal.y + 1;
  expand_start(&q, 2 * start.x + 1, 2 * start.y + 1);
  commit(&q, 0);
  astar_status st = ASTAR_NO_PATH;
  while (q.hn > 0 && !q.full) {
    const uint32_t idx = heap_pop(&q);
    const anya_node *nd = &ws->nodes[idx];
    if (stale(&q, nd)) continue;
    astar__count_expand(&q.st);
    if (holds_goal(&q, nd)) {
      st = finish(&q, idx, path, cap, result);
      break;
    }
    const uint32_t first = q.n;
    if (nd->ry == nd->row)
      expand_flat(&q, idx);
    else
      expand_cone_chain(&q, idx);
    commit(&q, first);
  }
  if (q.full && st == ASTAR_NO_PATH) st = ASTAR_CAPACITY;
  if (result) {
    result->stats = q.st;
    if (st == ASTAR_CAPACITY) result->stats.generated = ws->cap;
    if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) {
      result->cost = 0.0;
      result->length = 0;
    }
  }
  return st;
}
