/*
** dstar.c -- D* Lite (optimised, Koenig & Likhachev 2002, fig. 4) and LPA*
** (Koenig, Likhachev & Furcy 2004) over two back ends: the square grid with
** its own snapshot of entry factors, and any space with predecessors
** (astar/dstar.h).
**
** One algorithm for both modes. The search has a root, whose rhs is 0, and
** a target, whose g the plan needs: D* Lite searches backward (root = goal,
** target = agent), LPA* forward (root = start, target = goal). For a vertex
** u, its "rhs side" lists the arcs rhs(u) is the minimum over (D* Lite: the
** successors, rhs(u) = min c(u,v) + g(v); LPA*: the predecessors, rhs(u) =
** min g(v) + c(v,u)), and its "propagation side" the vertices whose rhs
** reads g(u) (the other direction). The heuristic is always taken between a
** vertex and the target. Invariants between calls: rhs(root) = 0; for every
** other vertex rhs = the minimum over its rhs side of arc cost + g (with
** the costs the planner last saw); the queue holds exactly the vertices
** with g != rhs, keyed no higher than their current key (keys go stale
** only upward, by km, and are refreshed when popped).
**
** The generic functions are ASTAR__INLINE and take the back end and the
** direction as constants (`kind`); the four instantiations below
** specialise them, so the grid case reads its arrays directly.
*/
#include "core/internal.h"
#include "search/query.h"

#include <astar/dstar.h>
#include <astar/knowledge.h>

#include <math.h>
#include <string.h>

/* The back end and direction of an instantiation. */
enum { K_GRID_BWD = 0, K_GRID_FWD, K_SPACE_BWD, K_SPACE_FWD };
#define K_GRID(k) ((k) < K_SPACE_BWD)
#define K_BWD(k) ((k) == K_GRID_BWD || (k) == K_SPACE_BWD)

#define NOT_QUEUED UINT32_MAX
#define CHG_CAP 256 /* entries of the change-log read buffer */

/* A queue slot: the key and the vertex. */
typedef struct qent {
  double k1;  /* min(g, rhs) + h + km */
  double k2;  /* min(g, rhs) */
  uint32_t v; /* vertex */
} qent;

struct astar_dstar {
  astar_allocator alloc; /* where everything below came from */
  int mode;              /* astar_dstar_mode */
  bool is_grid;          /* grid back end (else space) */
  uint32_t n;            /* vertices: padded cells or space nodes */
  double *g;             /* [n] cost-to-go (D* Lite) / cost-from-start (LPA*) */
  double *rhs;           /* [n] one-step lookahead of g */
  uint32_t *pos;         /* [n] queue position, NOT_QUEUED when not queued */
  qent *q;               /* [n] binary heap, smallest key first */
  uint32_t qlen;         /* vertices queued */
  uint32_t start, goal;  /* current ends (D* Lite: start is the agent) */
  uint32_t root, target; /* see the top of this file */
  uint32_t last;         /* target when km was last raised */
  double km;             /* key modifier: sum of h(last, new) over agent moves */
  bool planned;          /* a plan ran and nothing changed since */
  astar_status plan_st;  /* its status */
  astar_dstar_stats total, last_stats, pending; /* counters; pending: edits since plan */

  /* grid back end */
  int32_t width, height, stride; /* grid size and padded row length */
  double inv_stride;             /* 1 / stride */
  double *factor;                /* [n] entry factor of each cell as planned; 0 blocked
                                    (the border too) */
  uint8_t *nb;                   /* [n] bit d: neighbour d has factor > 0 */
  uint8_t moves[256];            /* legal-move table of the corner rule */
  double cost[8];                /* move cost per direction */
  int32_t off[8];                /* index offset per direction */
  astar__query hq;               /* heuristic kind and coefficients only */
  double hfloor;                 /* entry factor the heuristic assumes as minimum */
  bool fixed_floor;              /* options.heuristic_floor > 0: never rescaled */
  astar_options opt;             /* the options (knowledge, unknown policy, heuristic) */
  int32_t tx, ty;                /* padded coordinates of the target */
  uint64_t seen_version;         /* grid version the snapshot was last synced to */
  astar_cell_change *chg;        /* [CHG_CAP] read buffer of astar_dstar_sync */

  /* space back end */
  astar_space space; /* the space (copied) */
  astar_arc *arcs_a; /* [max_degree] arcs of the vertex being processed */
  astar_arc *arcs_b; /* [max_degree] arcs of a vertex whose rhs is recomputed */
  bool space_h;      /* use the space's heuristic (consistent) */

  astar_dstar_observer obs; /* told of every vertex whose g or rhs changes, or NULL */
  void *obs_ctx;            /* its context */
};

static astar_point cell_of(const astar_dstar *p, uint32_t v);

/* Tell the observer that v's g or rhs changed (a cold call: rarely set). */
static void observe(const astar_dstar *p, uint32_t v) {
  p->obs(p->obs_ctx, cell_of(p, v), p->is_grid ? ASTAR_NODE_NONE : v);
}

/* ---- the queue ------------------------------------------------------------ */

ASTAR__INLINE bool qless(const qent *a, const qent *b) {
  if (a->k1 != b->k1) return a->k1 < b->k1;
  if (a->k2 != b->k2) return a->k2 < b->k2;
  return a->v < b->v;
}

ASTAR__INLINE bool kless(double a1, double a2, double b1, double b2) {
  return a1 < b1 || (a1 == b1 && a2 < b2);
}

/*
** The loop's stopping test: may the queue still hold a vertex whose key is
** below the target's? Keys equal in exact arithmetic differ in their last
** bits here (k1 sums g, h and km in different orders, and a stored key was
** computed for an earlier target), and the heap orders them exactly: a
** vertex tied with the target on k1 and lower on k2 -- an underconsistent
** vertex on the target's best path, whose repair the target needs -- can
** sit behind a vertex whose k1 is a few bits smaller than the target's and
** whose k2 is larger. So the loop goes on while the top's k1 is within a
** relative 1e-9 of the target's or below, whatever k2 says. That costs
** only the vertices tied on k1 with k2 at least the target's (none with a
** non-zero heuristic: such a vertex lies on the target's best path, where
** g is smaller); stopping early is what must not happen.
*/
ASTAR__INLINE bool k1_not_above(double a1, double b1) {
  const double m = fabs(a1) > fabs(b1) ? fabs(a1) : fabs(b1);
  return a1 <= b1 + 1e-9 * (m > 1.0 ? m : 1.0);
}

static void q_place(astar_dstar *p, uint32_t i, qent e) {
  p->q[i] = e;
  p->pos[e.v] = i;
}

static void q_up(astar_dstar *p, uint32_t i, qent e) {
  while (i > 0) {
    const uint32_t parent = (i - 1) >> 1;
    if (!qless(&e, &p->q[parent])) break;
    q_place(p, i, p->q[parent]);
    i = parent;
  }
  q_place(p, i, e);
}

static void q_down(astar_dstar *p, uint32_t i, qent e) {
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= p->qlen) break;
    if (c + 1 < p->qlen && qless(&p->q[c + 1], &p->q[c])) c++;
    if (!qless(&p->q[c], &e)) break;
    q_place(p, i, p->q[c]);
    i = c;
  }
  q_place(p, i, e);
}

/* Insert v or change its key. */
static void q_set(astar_dstar *p, uint32_t v, double k1, double k2) {
  const qent e = {k1, k2, v};
  uint32_t i = p->pos[v];
  if (i == NOT_QUEUED) {
    q_up(p, p->qlen++, e);
  } else if (qless(&e, &p->q[i])) {
    q_up(p, i, e);
  } else {
    q_down(p, i, e);
  }
}

static void q_remove(astar_dstar *p, uint32_t v) {
  const uint32_t i = p->pos[v];
  if (i == NOT_QUEUED) return;
  p->pos[v] = NOT_QUEUED;
  const qent tail = p->q[--p->qlen];
  if (i == p->qlen) return;
  if (qless(&tail, &p->q[i]))
    q_up(p, i, tail);
  else
    q_down(p, i, tail);
}

/* ---- the back ends --------------------------------------------------------- */

/* Heuristic between vertex s and the target. */
ASTAR__INLINE double heur(const astar_dstar *p, int kind, uint32_t s) {
  if (K_GRID(kind)) {
    /* Row from a reciprocal multiply, corrected: cheaper than a division. */
    const int32_t stride = p->stride;
    int32_t y = (int32_t)((double)s * p->inv_stride);
    if (y * stride > (int32_t)s)
      y--;
    else if ((y + 1) * stride <= (int32_t)s)
      y++;
    return astar__h_at(&p->hq, p->hq.hkind, (int32_t)s - y * stride, y, p->tx, p->ty);
  }
  if (!p->space_h) return 0.0;
  const double h = K_BWD(kind) ? p->space.ops->heuristic(p->space.self, p->target, s)
                               : p->space.ops->heuristic(p->space.self, s, p->target);
  return isfinite(h) && h > 0.0 ? h : 0.0;
}

/*
** The arcs of u on its rhs side (rhs_side) or its propagation side, into
** arcs[] (grid: at most 8, in direction order), as (other vertex, cost of
** the arc between them in the search's direction). On the grid the arc
** u -> v in direction d costs cost[d] x factor[v], it is legal iff v -> u
** is (the corner rule is symmetric), so both sides list the same cells and
** differ only in which end's factor prices the arc: the neighbour's when
** the arc enters it (D* Lite's rhs side, LPA*'s propagation side), u's
** otherwise.
*/
ASTAR__INLINE size_t list_arcs(const astar_dstar *p, int kind, uint32_t u, bool rhs_side,
                               astar_arc *arcs) {
  if (K_GRID(kind)) {
    unsigned m = p->moves[p->nb[u]];
    size_t k = 0;
    const bool enter_nbr = K_BWD(kind) == rhs_side;
    const double fu = p->factor[u];
    while (m) {
      const int d = __builtin_ctz(m);
      m &= m - 1;
      const uint32_t v = (uint32_t)((int32_t)u + p->off[d]);
      arcs[k].node = v;
      arcs[k].cost = p->cost[d] * (enter_nbr ? p->factor[v] : fu);
      k++;
    }
    return k;
  }
  const bool succ = K_BWD(kind) == rhs_side;
  return succ ? p->space.ops->successors(p->space.self, u, arcs, p->space.max_degree)
              : p->space.ops->predecessors(p->space.self, u, arcs, p->space.max_degree);
}

/* rhs(u) from scratch: the minimum over its rhs side. */
ASTAR__INLINE double rhs_of(const astar_dstar *p, int kind, uint32_t u, astar_arc *buf) {
  if (u == p->root) return 0.0;
  const size_t k = list_arcs(p, kind, u, true, buf);
  double best = INFINITY;
  for (size_t i = 0; i < k; i++) {
    const double c = buf[i].cost + p->g[buf[i].node];
    if (c < best) best = c;
  }
  return best;
}

ASTAR__INLINE void update_vertex(astar_dstar *p, int kind, uint32_t u) {
  p->pending.updated++;
  if (p->obs) observe(p, u);
  if (p->g[u] != p->rhs[u]) {
    const double m = p->g[u] < p->rhs[u] ? p->g[u] : p->rhs[u];
    q_set(p, u, m + heur(p, kind, u) + p->km, m);
  } else if (p->pos[u] != NOT_QUEUED) {
    q_remove(p, u);
  }
}

/* One arc between u (the vertex whose rhs reads it) and v changed cost
** from c_old to c_new (either may be infinite): the optimised D* Lite's
** case analysis. */
ASTAR__INLINE void arc_changed(astar_dstar *p, int kind, uint32_t u, uint32_t v, double c_old,
                               double c_new, astar_arc *buf) {
  if (u == p->root || c_old == c_new) return;
  double r = p->rhs[u];
  if (c_old > c_new) {
    const double c = c_new + p->g[v];
    if (c < r) r = c;
  } else if (isfinite(p->g[v]) && r == c_old + p->g[v]) {
    /* (with g(v) infinite the arc supported nothing: rhs(u) stays) */
    r = rhs_of(p, kind, u, buf);
  }
  /* An unchanged rhs leaves u's queue membership as it was. */
  if (r != p->rhs[u]) {
    p->rhs[u] = r;
    update_vertex(p, kind, u);
  }
}

/* ComputeShortestPath. */
ASTAR__INLINE void compute(astar_dstar *p, int kind, astar_arc *bufa, astar_arc *bufb) {
  const uint32_t t = p->target;
  uint64_t expanded = 0, requeued = 0;
  const double ht = heur(p, kind, t); /* the target does not move during the loop */
  for (;;) {
    if (!p->qlen) break;
    const double mt = p->g[t] < p->rhs[t] ? p->g[t] : p->rhs[t];
    const double kt1 = mt + ht + p->km; /* k2 plays no part: above */
    const qent top = p->q[0];
    if (!k1_not_above(top.k1, kt1) && !(p->rhs[t] > p->g[t])) break;
    const uint32_t u = top.v;
    const double m = p->g[u] < p->rhs[u] ? p->g[u] : p->rhs[u];
    const double k1 = m + heur(p, kind, u) + p->km;
    if (kless(top.k1, top.k2, k1, m)) {
      requeued++;
      q_set(p, u, k1, m);
      continue;
    }
    expanded++;
    if (p->obs) observe(p, u);
    const size_t k = list_arcs(p, kind, u, false, bufa);
    if (p->g[u] > p->rhs[u]) {
      const double gu = p->g[u] = p->rhs[u];
      q_remove(p, u);
      for (size_t i = 0; i < k; i++) {
        /* Only a lowered rhs changes s's state (the paper updates every s;
        ** an unchanged rhs leaves its queue membership as it was). */
        const uint32_t s = bufa[i].node;
        const double c = bufa[i].cost + gu;
        if (s != p->root && c < p->rhs[s]) {
          p->rhs[s] = c;
          update_vertex(p, kind, s);
        }
      }
    } else {
      const double g_old = p->g[u];
      p->g[u] = INFINITY;
      for (size_t i = 0; i < k; i++) {
        const uint32_t s = bufa[i].node;
        if (s != p->root && p->rhs[s] == bufa[i].cost + g_old) {
          const double r = rhs_of(p, kind, s, bufb);
          if (r != p->rhs[s]) {
            p->rhs[s] = r;
            update_vertex(p, kind, s);
          }
        }
      }
      update_vertex(p, kind, u); /* g(u) is now infinite */
    }
  }
  p->pending.expanded += expanded;
  p->pending.requeued += requeued;
}

static void compute_grid_bwd(astar_dstar *p) {
  astar_arc a[8], b[8];
  compute(p, K_GRID_BWD, a, b);
}
static void compute_grid_fwd(astar_dstar *p) {
  astar_arc a[8], b[8];
  compute(p, K_GRID_FWD, a, b);
}
static void compute_space_bwd(astar_dstar *p) {
  compute(p, K_SPACE_BWD, p->arcs_a, p->arcs_b);
}
static void compute_space_fwd(astar_dstar *p) {
  compute(p, K_SPACE_FWD, p->arcs_a, p->arcs_b);
}

static int kind_of(const astar_dstar *p) {
  const bool bwd = p->mode == ASTAR_DSTAR_LITE;
  return p->is_grid ? (bwd ? K_GRID_BWD : K_GRID_FWD) : (bwd ? K_SPACE_BWD : K_SPACE_FWD);
}

/* ---- state ----------------------------------------------------------------- */

static void set_target(astar_dstar *p, uint32_t t) {
  p->target = t;
  if (p->is_grid) {
    p->ty = (int32_t)(t / (uint32_t)p->stride);
    p->tx = (int32_t)(t - (uint32_t)p->ty * (uint32_t)p->stride);
  }
}

/* Initialize(): every g and rhs infinite, the root queued with rhs 0. */
static void reset(astar_dstar *p) {
  for (uint32_t i = 0; i < p->n; i++) {
    p->g[i] = p->rhs[i] = INFINITY;
    p->pos[i] = NOT_QUEUED;
  }
  p->qlen = 0;
  p->km = 0.0;
  p->last = p->target;
  p->rhs[p->root] = 0.0;
  update_vertex(p, kind_of(p), p->root);
}

/* Raise km for the agent's moves since the last raise (D* Lite): before
** any key is computed with the new target. */
static void sync_km(astar_dstar *p) {
  if (p->last == p->target) return;
  double h;
  if (p->is_grid) {
    const uint32_t s = (uint32_t)p->stride;
    const int32_t ly = (int32_t)(p->last / s), lx = (int32_t)(p->last - (uint32_t)ly * s);
    h = astar__h_at(&p->hq, p->hq.hkind, lx, ly, p->tx, p->ty);
  } else if (p->space_h) {
    h = p->space.ops->heuristic(p->space.self, p->last, p->target);
    if (!(isfinite(h) && h > 0.0)) h = 0.0;
  } else {
    h = 0.0;
  }
  p->km += h;
  p->last = p->target;
}

/* Every queued key recomputed with the current heuristic and target, km
** back to 0 (it only offsets every key alike), the heap rebuilt: for a
** space whose heuristic may have changed (astar_dstar_update_arcs). */
static void rekey(astar_dstar *p) {
  p->km = 0.0;
  p->last = p->target;
  const int kind = kind_of(p);
  for (uint32_t i = 0; i < p->qlen; i++) {
    const uint32_t v = p->q[i].v;
    const double m = p->g[v] < p->rhs[v] ? p->g[v] : p->rhs[v];
    p->q[i].k1 = m + (kind == K_SPACE_BWD ? heur(p, K_SPACE_BWD, v) : heur(p, K_SPACE_FWD, v));
    p->q[i].k2 = m;
  }
  for (uint32_t i = p->qlen / 2; i-- > 0;) q_down(p, i, p->q[i]);
}

static void touch(astar_dstar *p) {
  p->planned = false;
}

/* ---- the grid's snapshot ----------------------------------------------------- */

/* Entry factor of padded cell i = (x, y) as the planner sees it now. */
static double view_factor(const astar_dstar *p, const astar_grid *g, int32_t x, int32_t y) {
  const uint32_t i = astar__index(g, x, y);
  bool pass, unknown = false;
  if (p->opt.knowledge) {
    const astar_cell_knowledge k = astar_knowledge_get(p->opt.knowledge, x, y);
    unknown = k == ASTAR_CELL_UNKNOWN;
    pass = unknown ? p->opt.unknown != ASTAR_UNKNOWN_BLOCKED : k == ASTAR_CELL_PASSABLE;
  } else {
    pass = g->pass[i] != 0;
  }
  if (!pass) return 0.0;
  double f = g->terrain ? (double)g->terrain[i] : 1.0;
  if (unknown && p->opt.unknown == ASTAR_UNKNOWN_COST) f *= p->opt.unknown_cost;
  return f;
}

/* The neighbour mask of padded cell i: 0 for a blocked cell (border
** included, so a border cell never reads beyond the array), so that no arc
** leaves or enters a blocked cell. */
static uint8_t nb_of(const astar_dstar *p, uint32_t i) {
  uint8_t m = 0;
  if (!(p->factor[i] > 0.0)) return 0;
  for (int d = 0; d < 8; d++)
    if (p->factor[(uint32_t)((int32_t)i + p->off[d])] > 0.0) m |= (uint8_t)(1u << d);
  return m;
}

/* Cost of the arc u -> u + off[d] under the snapshot; infinite if illegal. */
static double grid_arc(const astar_dstar *p, uint32_t u, int d) {
  if (!(p->moves[p->nb[u]] & (1u << d))) return INFINITY;
  return p->cost[d] * p->factor[(uint32_t)((int32_t)u + p->off[d])];
}

/* Heuristic coefficients from the options and the grid's terrain floor. */
static void setup_h(astar_dstar *p, const astar_grid *g) {
  memcpy(p->hq.cost, p->cost, sizeof p->cost);
  astar__setup_heuristic(&p->hq, &p->opt, g);
  const astar_options *o = &p->opt;
  double fl = (double)g->min_terrain;
  if (o->knowledge && o->unknown == ASTAR_UNKNOWN_COST && o->unknown_cost < 1.0)
    fl *= o->unknown_cost;
  p->fixed_floor = o->heuristic_floor > 0.0;
  p->hfloor = p->fixed_floor ? o->heuristic_floor : fl;
}

/* ---- construction ------------------------------------------------------------ */

static size_t bytes_of(const astar_dstar *p) {
  size_t b = sizeof *p + (size_t)p->n * (2 * sizeof(double) + sizeof(uint32_t) + sizeof(qent));
  if (p->is_grid) b += (size_t)p->n * (sizeof(double) + 1) + CHG_CAP * sizeof(astar_cell_change);
  if (!p->is_grid) b += 2 * (size_t)p->space.max_degree * sizeof(astar_arc);
  return b;
}

void astar_dstar_free(astar_dstar *p) {
  if (!p) return;
  const astar_allocator a = p->alloc;
  const size_t n = p->n;
  astar__free(&a, p->g, n * sizeof(double));
  astar__free(&a, p->rhs, n * sizeof(double));
  astar__free(&a, p->pos, n * sizeof(uint32_t));
  astar__free(&a, p->q, n * sizeof(qent));
  astar__free(&a, p->factor, n * sizeof(double));
  astar__free(&a, p->nb, n);
  astar__free(&a, p->chg, CHG_CAP * sizeof(astar_cell_change));
  astar__free(&a, p->arcs_a, (size_t)p->space.max_degree * sizeof(astar_arc));
  astar__free(&a, p->arcs_b, (size_t)p->space.max_degree * sizeof(astar_arc));
  astar__free(&a, p, sizeof *p);
}

/* The struct and the per-vertex arrays common to both back ends. */
static astar_status alloc_common(astar_dstar **out, uint32_t n, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_dstar *p = astar__calloc(&a, 1, sizeof *p);
  if (!p) return ASTAR_NO_MEMORY;
  p->alloc = a;
  p->n = n;
  p->g = astar__malloc(&a, (size_t)n * sizeof(double));
  p->rhs = p->g ? astar__malloc(&a, (size_t)n * sizeof(double)) : NULL;
  p->pos = p->rhs ? astar__malloc(&a, (size_t)n * sizeof(uint32_t)) : NULL;
  p->q = p->pos ? astar__malloc(&a, (size_t)n * sizeof(qent)) : NULL;
  if (!p->q) {
    astar_dstar_free(p);
    return ASTAR_NO_MEMORY;
  }
  *out = p;
  return ASTAR_OK;
}

/* Snapshot `grid`, set the ends and start the search over. */
static void load_grid(astar_dstar *p, const astar_grid *grid, astar_point start, astar_point goal) {
  setup_h(p, grid);
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++)
      p->factor[astar__index(grid, x, y)] = view_factor(p, grid, x, y);
  memset(p->nb, 0, p->n);
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++) {
      const uint32_t i = astar__index(grid, x, y);
      p->nb[i] = nb_of(p, i);
    }
  p->seen_version = astar_grid_version(grid);
  p->start = astar__index(grid, start.x, start.y);
  p->goal = astar__index(grid, goal.x, goal.y);
  const bool bwd = p->mode == ASTAR_DSTAR_LITE;
  p->root = bwd ? p->goal : p->start;
  set_target(p, bwd ? p->start : p->goal);
  reset(p);
  p->pending.updated = 0;
  p->planned = false;
}

/* Options the planner cannot honour. */
static bool options_supported(const astar_options *o) {
  const bool diag = astar__diagonals_on(o);
  if (o->weight != 1.0 || o->heuristic == ASTAR_H_CALLBACK) return false;
  if (o->heuristic == ASTAR_H_MANHATTAN && diag) return false;
  if (o->algorithm != ASTAR_ALGO_ASTAR || o->terrain_scale != 1.0 || o->nlayers ||
      o->turn_penalty != 0.0 || o->islands || o->partial || o->stop_fn || o->max_expansions)
    return false;
  return true;
}

astar_status astar_dstar_new_grid(astar_dstar **out, const astar_grid *grid,
                                  const astar_options *opt, astar_dstar_mode mode,
                                  astar_point start, astar_point goal,
                                  const astar_allocator *alloc) {
  if (out) *out = NULL;
  if (!out || !grid || (unsigned)mode > (unsigned)ASTAR_DSTAR_LPA) return ASTAR_INVALID_ARGUMENT;
  astar_options o;
  if (opt)
    o = *opt;
  else
    astar_options_init(&o);
  if (astar_options_validate(&o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (o.knowledge && (astar_knowledge_width(o.knowledge) != grid->width ||
                      astar_knowledge_height(o.knowledge) != grid->height))
    return ASTAR_INVALID_ARGUMENT;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (!options_supported(&o)) return ASTAR_UNSUPPORTED;
  astar_dstar *p;
  astar_status st = alloc_common(&p, grid->ncells, alloc);
  if (st != ASTAR_OK) return st;
  p->is_grid = true;
  p->factor = astar__calloc(&p->alloc, p->n, sizeof(double));
  p->nb = p->factor ? astar__malloc(&p->alloc, p->n) : NULL;
  p->chg = p->nb ? astar__malloc(&p->alloc, CHG_CAP * sizeof(astar_cell_change)) : NULL;
  if (!p->chg) {
    astar_dstar_free(p);
    return ASTAR_NO_MEMORY;
  }
  p->mode = (int)mode;
  p->opt = o;
  p->width = grid->width;
  p->height = grid->height;
  p->stride = grid->stride;
  p->inv_stride = 1.0 / (double)grid->stride;
  astar__move_table(astar__rule_of(&o), p->moves);
  astar__move_costs(grid, &o, p->cost); /* A*'s costs: the same sums, the same answers */
  for (int d = 0; d < 8; d++) p->off[d] = astar__dir_dx[d] + astar__dir_dy[d] * p->stride;
  load_grid(p, grid, start, goal);
  *out = p;
  return ASTAR_OK;
}

astar_status astar_dstar_restart(astar_dstar *p, const astar_grid *grid, astar_point start,
                                 astar_point goal) {
  if (!p || !grid) return ASTAR_INVALID_ARGUMENT;
  if (!p->is_grid || grid->width != p->width || grid->height != p->height) return ASTAR_MISMATCH;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  load_grid(p, grid, start, goal);
  return ASTAR_OK;
}

astar_status astar_dstar_new_space(astar_dstar **out, const astar_space *space,
                                   astar_dstar_mode mode, astar_node start, astar_node goal,
                                   const astar_allocator *alloc) {
  if (out) *out = NULL;
  if (!out || !space || astar_space_validate(space) != ASTAR_OK ||
      (unsigned)mode > (unsigned)ASTAR_DSTAR_LPA || start >= space->node_count ||
      goal >= space->node_count)
    return ASTAR_INVALID_ARGUMENT;
  if (!space->ops->predecessors) return ASTAR_UNSUPPORTED;
  astar_dstar *p;
  astar_status st = alloc_common(&p, space->node_count, alloc);
  if (st != ASTAR_OK) return st;
  p->space = *space;
  p->arcs_a = astar__malloc(&p->alloc, (size_t)space->max_degree * sizeof(astar_arc));
  p->arcs_b =
      p->arcs_a ? astar__malloc(&p->alloc, (size_t)space->max_degree * sizeof(astar_arc)) : NULL;
  if (!p->arcs_b) {
    astar_dstar_free(p);
    return ASTAR_NO_MEMORY;
  }
  p->mode = (int)mode;
  p->space_h = space->ops->heuristic && (space->flags & ASTAR_SPACE_CONSISTENT);
  p->start = start;
  p->goal = goal;
  const bool bwd = mode == ASTAR_DSTAR_LITE;
  p->root = bwd ? goal : start;
  set_target(p, bwd ? start : goal);
  reset(p);
  p->pending.updated = 0;
  *out = p;
  return ASTAR_OK;
}

/* ---- edits ------------------------------------------------------------------- */

/* One changed cell: the arcs among the 3x3 block around it (every arc whose
** cost reads the cell: into it, out of it, and the diagonals it is a side
** cell of) re-priced before and after the snapshot takes the new value. */
ASTAR__INLINE void grid_cell_changed(astar_dstar *p, int kind, uint32_t c, double f_new) {
  struct {
    uint32_t u;
    int d;
    double c_old;
  } arcs[72];
  int na = 0;
  const int32_t s = p->stride;
  for (int by = -1; by <= 1; by++)
    for (int bx = -1; bx <= 1; bx++) {
      const uint32_t u = (uint32_t)((int32_t)c + by * s + bx);
      for (int d = 0; d < 8; d++) {
        const int vx = bx + astar__dir_dx[d], vy = by + astar__dir_dy[d];
        if (vx < -1 || vx > 1 || vy < -1 || vy > 1) continue;
        arcs[na].u = u;
        arcs[na].d = d;
        arcs[na].c_old = grid_arc(p, u, d);
        na++;
      }
    }
  p->factor[c] = f_new;
  p->nb[c] = nb_of(p, c);
  for (int d = 0; d < 8; d++) {
    const uint32_t v = (uint32_t)((int32_t)c + p->off[d]);
    p->nb[v] = nb_of(p, v);
  }
  astar_arc buf[8];
  for (int i = 0; i < na; i++) {
    const uint32_t u = arcs[i].u, v = (uint32_t)((int32_t)u + p->off[arcs[i].d]);
    const double c_new = grid_arc(p, u, arcs[i].d);
    if (c_new == arcs[i].c_old) continue;
    /* The arc u -> v: D* Lite's rhs(u) reads it, LPA*'s rhs(v). */
    if (K_BWD(kind))
      arc_changed(p, kind, u, v, arcs[i].c_old, c_new, buf);
    else
      arc_changed(p, kind, v, u, arcs[i].c_old, c_new, buf);
  }
}

static void cell_changed_bwd(astar_dstar *p, uint32_t c, double f) {
  grid_cell_changed(p, K_GRID_BWD, c, f);
}
static void cell_changed_fwd(astar_dstar *p, uint32_t c, double f) {
  grid_cell_changed(p, K_GRID_FWD, c, f);
}

/* Would entry factor f make the heuristic overestimate? */
static bool below_floor(const astar_dstar *p, double f) {
  return f > 0.0 && f < p->hfloor && !p->fixed_floor;
}

/* Apply cell (x, y) of `grid` to the snapshot and repair (km already
** synced); a no-op when the cell's view did not change. */
static void apply_cell(astar_dstar *p, const astar_grid *grid, int32_t x, int32_t y) {
  const uint32_t c = astar__index(grid, x, y);
  const double f = view_factor(p, grid, x, y);
  if (f == p->factor[c]) return;
  if (p->mode == ASTAR_DSTAR_LITE)
    cell_changed_bwd(p, c, f);
  else
    cell_changed_fwd(p, c, f);
}

/* A factor below the heuristic's floor: take every cell in, rescale the
** heuristic from the grid and start the search over. */
static void rescale(astar_dstar *p, const astar_grid *grid) {
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++)
      p->factor[astar__index(grid, x, y)] = view_factor(p, grid, x, y);
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++) {
      const uint32_t i = astar__index(grid, x, y);
      p->nb[i] = nb_of(p, i);
    }
  setup_h(p, grid);
  reset(p);
}

astar_status astar_dstar_update_cells(astar_dstar *p, const astar_grid *grid,
                                      const astar_point *cells, size_t n) {
  if (!p || !grid || (!cells && n)) return ASTAR_INVALID_ARGUMENT;
  if (!p->is_grid || grid->width != p->width || grid->height != p->height) return ASTAR_MISMATCH;
  bool low = false;
  for (size_t i = 0; i < n; i++) {
    if (!astar_grid_contains(grid, cells[i].x, cells[i].y)) return ASTAR_OUT_OF_BOUNDS;
    low = low || below_floor(p, view_factor(p, grid, cells[i].x, cells[i].y));
  }
  if (!n) return ASTAR_OK;
  touch(p);
  if (low) {
    rescale(p, grid);
    return ASTAR_OK;
  }
  sync_km(p);
  for (size_t i = 0; i < n; i++) apply_cell(p, grid, cells[i].x, cells[i].y);
  return ASTAR_OK;
}

astar_status astar_dstar_sync(astar_dstar *p, const astar_grid *grid) {
  if (!p || !grid) return ASTAR_INVALID_ARGUMENT;
  if (!p->is_grid || grid->width != p->width || grid->height != p->height) return ASTAR_MISMATCH;
  const uint64_t now = astar_grid_version(grid);
  if (now == p->seen_version) return ASTAR_OK;
  size_t len = 0;
  const astar_status st = p->seen_version < now
                              ? astar_grid_changes(grid, p->seen_version, p->chg, CHG_CAP, &len)
                              : ASTAR_STALE;
  touch(p);
  p->seen_version = now;
  if (st == ASTAR_OK) {
    bool low = false;
    for (size_t i = 0; i < len; i++)
      low = low || below_floor(p, view_factor(p, grid, p->chg[i].x, p->chg[i].y));
    if (low) {
      rescale(p, grid);
      return ASTAR_OK;
    }
    sync_km(p);
    for (size_t i = 0; i < len; i++) apply_cell(p, grid, p->chg[i].x, p->chg[i].y);
    return ASTAR_OK;
  }
  /* The log cannot say: compare the whole snapshot. */
  bool low = false;
  for (int32_t y = 0; y < grid->height && !low; y++)
    for (int32_t x = 0; x < grid->width; x++) {
      const double f = view_factor(p, grid, x, y);
      if (f != p->factor[astar__index(grid, x, y)] && below_floor(p, f)) low = true;
    }
  if (low) {
    rescale(p, grid);
    return ASTAR_OK;
  }
  sync_km(p);
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++) apply_cell(p, grid, x, y);
  return ASTAR_OK;
}

astar_status astar_dstar_update_arcs(astar_dstar *p, const astar_arc_change *changes, size_t n) {
  if (!p || (!changes && n)) return ASTAR_INVALID_ARGUMENT;
  if (p->is_grid) return ASTAR_MISMATCH;
  for (size_t i = 0; i < n; i++)
    if (changes[i].from >= p->n || changes[i].to >= p->n) return ASTAR_INVALID_ARGUMENT;
  if (!n) return ASTAR_OK;
  touch(p);
  rekey(p);
  /* The vertex whose rhs reads the arc gets its rhs from scratch: the
  ** reported old cost is not trusted, because with parallel arcs it need
  ** not be the cheapest of them -- the one the planner's rhs was based on
  ** (the grid back end, which keeps its own snapshot, uses the optimised
  ** case analysis instead). O(degree) per arc. */
  const bool bwd = kind_of(p) == K_SPACE_BWD;
  for (size_t i = 0; i < n; i++) {
    const astar_node u = bwd ? changes[i].from : changes[i].to;
    if (u == p->root) continue;
    p->rhs[u] = bwd ? rhs_of(p, K_SPACE_BWD, u, p->arcs_b) : rhs_of(p, K_SPACE_FWD, u, p->arcs_b);
    if (bwd)
      update_vertex(p, K_SPACE_BWD, u);
    else
      update_vertex(p, K_SPACE_FWD, u);
  }
  return ASTAR_OK;
}

static uint32_t step_from(const astar_dstar *p, uint32_t u, astar_arc *buf);

/* D* Lite's main loop moves the agent along argmin c + g between plans:
** a move to the path's next cell, with nothing edited since the plan,
** keeps the plan (its suffix is a shortest path from the new cell). Any
** other move needs a plan. */
static astar_status move_to(astar_dstar *p, uint32_t v) {
  if (p->mode != ASTAR_DSTAR_LITE) return ASTAR_UNSUPPORTED;
  if (v == p->start) return ASTAR_OK;
  astar_arc gb[8];
  const bool along = p->planned && p->plan_st == ASTAR_OK && p->start != p->goal &&
                     step_from(p, p->start, p->is_grid ? gb : p->arcs_b) == v;
  if (!along) touch(p);
  p->start = v;
  set_target(p, v);
  return ASTAR_OK;
}

astar_status astar_dstar_move(astar_dstar *p, astar_point cell) {
  if (!p) return ASTAR_INVALID_ARGUMENT;
  if (!p->is_grid) return ASTAR_MISMATCH;
  if (cell.x < 0 || cell.y < 0 || cell.x >= p->width || cell.y >= p->height)
    return ASTAR_OUT_OF_BOUNDS;
  return move_to(p, (uint32_t)(cell.y + 1) * (uint32_t)p->stride + (uint32_t)(cell.x + 1));
}

astar_status astar_dstar_move_node(astar_dstar *p, astar_node node) {
  if (!p) return ASTAR_INVALID_ARGUMENT;
  if (p->is_grid) return ASTAR_MISMATCH;
  if (node >= p->n) return ASTAR_INVALID_ARGUMENT;
  return move_to(p, node);
}

/* ---- plans and paths ------------------------------------------------------------ */

static bool usable(const astar_dstar *p, uint32_t v) {
  if (p->is_grid) return p->factor[v] > 0.0;
  return !p->space.ops->usable || p->space.ops->usable(p->space.self, v);
}

static void stats_add(astar_dstar_stats *a, const astar_dstar_stats *b) {
  a->expanded += b->expanded;
  a->requeued += b->requeued;
  a->updated += b->updated;
  a->plans += b->plans;
}

astar_status astar_dstar_plan(astar_dstar *p, astar_dstar_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!p) return ASTAR_INVALID_ARGUMENT;
  astar_status st;
  if (!usable(p, p->start)) {
    st = ASTAR_START_BLOCKED;
  } else if (!usable(p, p->goal)) {
    st = ASTAR_GOAL_BLOCKED;
  } else {
    sync_km(p);
    switch (kind_of(p)) {
    case K_GRID_BWD:
      compute_grid_bwd(p);
      break;
    case K_GRID_FWD:
      compute_grid_fwd(p);
      break;
    case K_SPACE_BWD:
      compute_space_bwd(p);
      break;
    default:
      compute_space_fwd(p);
      break;
    }
    p->pending.plans++;
    st = isfinite(p->rhs[p->target]) ? ASTAR_OK : ASTAR_NO_PATH;
  }
  p->last_stats = p->pending;
  stats_add(&p->total, &p->pending);
  memset(&p->pending, 0, sizeof p->pending);
  p->planned = true;
  p->plan_st = st;
  if (result) {
    result->cost = st == ASTAR_OK ? p->rhs[p->target] : 0.0;
    result->stats = p->last_stats;
  }
  return st;
}

/* The neighbour the path goes to from u: argmin over u's rhs side of arc
** cost + g, the first minimum in list order; NOT_QUEUED if none is finite. */
static uint32_t step_from(const astar_dstar *p, uint32_t u, astar_arc *buf) {
  size_t k;
  switch (kind_of(p)) {
  case K_GRID_BWD:
    k = list_arcs(p, K_GRID_BWD, u, true, buf);
    break;
  case K_GRID_FWD:
    k = list_arcs(p, K_GRID_FWD, u, true, buf);
    break;
  case K_SPACE_BWD:
    k = list_arcs(p, K_SPACE_BWD, u, true, buf);
    break;
  default:
    k = list_arcs(p, K_SPACE_FWD, u, true, buf);
    break;
  }
  double best = INFINITY;
  uint32_t arg = NOT_QUEUED;
  for (size_t i = 0; i < k; i++) {
    const double c = buf[i].cost + p->g[buf[i].node];
    if (c < best) {
      best = c;
      arg = buf[i].node;
    }
  }
  return arg;
}

static astar_status path_ready(const astar_dstar *p) {
  if (!p->planned) return ASTAR_STALE;
  return p->plan_st;
}

/*
** Walk the path from the target to the root, calling emit(k, v) for the
** k-th vertex (0 = the target) when write is set; returns the length, or
** 0 if the walk breaks (no finite step, or longer than the vertex count).
** The space's arcs go to a buffer of its own: `p` is const here, and the
** planner's buffers may not be touched by readers (a const planner).
*/
typedef struct walk_out {
  astar_point *cells; /* grid output, or NULL */
  astar_node *nodes;  /* space output, or NULL */
  size_t cap;         /* room in the output */
  bool reverse;       /* write vertex k at len-1-k (LPA*: the walk starts at the goal) */
  size_t len;         /* the length, known before writing when reverse */
} walk_out;

static void put(const astar_dstar *p, walk_out *w, size_t k, uint32_t v) {
  const size_t at = w->reverse ? w->len - 1 - k : k;
  if (at >= w->cap) return;
  if (w->cells) {
    const uint32_t s = (uint32_t)p->stride;
    w->cells[at].y = (int32_t)(v / s) - 1;
    w->cells[at].x = (int32_t)(v % s) - 1;
  } else if (w->nodes) {
    w->nodes[at] = v;
  }
}

static size_t walk(const astar_dstar *p, walk_out *w, astar_arc *buf) {
  uint32_t v = p->target;
  size_t k = 0;
  for (;;) {
    if (w) put(p, w, k, v);
    k++;
    if (v == p->root) return k;
    if (k > p->n) return 0;
    v = step_from(p, v, buf);
    if (v == NOT_QUEUED) return 0;
  }
}

/* The space's arc buffer for a const reader: the planner's second buffer
** is free outside edits and plans. */
static astar_arc *reader_buf(const astar_dstar *p, astar_arc *grid_buf) {
  return p->is_grid ? grid_buf : p->arcs_b;
}

/* NOLINTNEXTLINE(readability-non-const-parameter): written through walk_out */
static astar_status path_out(const astar_dstar *p, astar_point *cells, astar_node *nodes,
                             size_t cap, size_t *len) {
  astar_status st = path_ready(p);
  if (st != ASTAR_OK) return st;
  astar_arc gb[8];
  astar_arc *buf = reader_buf(p, gb);
  walk_out w = {cells, nodes, cap, p->mode == ASTAR_DSTAR_LPA, 0};
  size_t n = walk(p, NULL, buf);
  if (!n) return ASTAR_NO_PATH;
  *len = n;
  if (n > cap) return ASTAR_BUFFER_TOO_SMALL;
  w.len = n;
  walk(p, &w, buf);
  return ASTAR_OK;
}

astar_status astar_dstar_path(const astar_dstar *p, astar_point *buf, size_t cap, size_t *len) {
  if (!p || !len || (!buf && cap)) return ASTAR_INVALID_ARGUMENT;
  if (!p->is_grid) return ASTAR_MISMATCH;
  return path_out(p, buf, NULL, cap, len);
}

astar_status astar_dstar_path_nodes(const astar_dstar *p, astar_node *buf, size_t cap,
                                    size_t *len) {
  if (!p || !len || (!buf && cap)) return ASTAR_INVALID_ARGUMENT;
  if (p->is_grid) return ASTAR_MISMATCH;
  return path_out(p, NULL, buf, cap, len);
}

/* The second vertex of the path from the start (the start itself at the goal). */
static astar_status next_of(const astar_dstar *p, uint32_t *next) {
  astar_status st = path_ready(p);
  if (st != ASTAR_OK) return st;
  astar_arc gb[8];
  astar_arc *buf = reader_buf(p, gb);
  if (p->start == p->goal) {
    *next = p->start;
    return ASTAR_OK;
  }
  if (p->mode == ASTAR_DSTAR_LITE) {
    const uint32_t v = step_from(p, p->start, buf);
    if (v == NOT_QUEUED) return ASTAR_NO_PATH;
    *next = v;
    return ASTAR_OK;
  }
  /* LPA*: the walk from the goal; the vertex before the start. */
  uint32_t v = p->target, prev = v;
  for (size_t k = 0; v != p->root; k++) {
    if (k > p->n) return ASTAR_NO_PATH;
    prev = v;
    v = step_from(p, v, buf);
    if (v == NOT_QUEUED) return ASTAR_NO_PATH;
  }
  *next = prev;
  return ASTAR_OK;
}

astar_status astar_dstar_next(const astar_dstar *p, astar_point *next) {
  if (!p || !next) return ASTAR_INVALID_ARGUMENT;
  if (!p->is_grid) return ASTAR_MISMATCH;
  uint32_t v;
  astar_status st = next_of(p, &v);
  if (st != ASTAR_OK) return st;
  const uint32_t s = (uint32_t)p->stride;
  next->x = (int32_t)(v % s) - 1;
  next->y = (int32_t)(v / s) - 1;
  return ASTAR_OK;
}

astar_status astar_dstar_next_node(const astar_dstar *p, astar_node *next) {
  if (!p || !next) return ASTAR_INVALID_ARGUMENT;
  if (p->is_grid) return ASTAR_MISMATCH;
  return next_of(p, next);
}

void astar_dstar_stats_get(const astar_dstar *p, astar_dstar_stats *total,
                           astar_dstar_stats *last) {
  if (total) {
    if (p)
      *total = p->total;
    else
      memset(total, 0, sizeof *total);
  }
  if (last) {
    if (p)
      *last = p->last_stats;
    else
      memset(last, 0, sizeof *last);
  }
}

static astar_point cell_of(const astar_dstar *p, uint32_t v) {
  astar_point c = {-1, -1};
  if (p && p->is_grid) {
    const uint32_t s = (uint32_t)p->stride;
    c.x = (int32_t)(v % s) - 1;
    c.y = (int32_t)(v / s) - 1;
  }
  return c;
}

astar_point astar_dstar_start(const astar_dstar *p) {
  return cell_of(p, p ? p->start : 0);
}

astar_point astar_dstar_goal(const astar_dstar *p) {
  return cell_of(p, p ? p->goal : 0);
}

astar_status astar_dstar_set_observer(astar_dstar *p, astar_dstar_observer fn, void *ctx) {
  if (!p) return ASTAR_INVALID_ARGUMENT;
  p->obs = fn;
  p->obs_ctx = fn ? ctx : NULL;
  return ASTAR_OK;
}

size_t astar_dstar_memory(const astar_dstar *p) {
  return p ? bytes_of(p) : 0;
}

/* The invariants of the top of this file, checked by brute force (the
** tests call it; internal): the number of vertices breaking one -- rhs
** not the minimum over its rhs side, or queued iff g != rhs not holding. */
size_t astar__dstar_check(astar_dstar *p);
size_t astar__dstar_check(astar_dstar *p) {
  size_t bad = 0;
  astar_arc gb[8];
  for (uint32_t u = 0; u < p->n; u++) {
    if (p->is_grid && !(p->factor[u] > 0.0) && p->rhs[u] == INFINITY && p->g[u] == INFINITY)
      continue;
    astar_arc *buf = p->is_grid ? gb : p->arcs_b;
    double r;
    switch (kind_of(p)) {
    case K_GRID_BWD:
      r = rhs_of(p, K_GRID_BWD, u, buf);
      break;
    case K_GRID_FWD:
      r = rhs_of(p, K_GRID_FWD, u, buf);
      break;
    case K_SPACE_BWD:
      r = rhs_of(p, K_SPACE_BWD, u, buf);
      break;
    default:
      r = rhs_of(p, K_SPACE_FWD, u, buf);
      break;
    }
    if (r != p->rhs[u]) bad++;
    if ((p->g[u] != p->rhs[u]) != (p->pos[u] != NOT_QUEUED)) bad++;
  }
  return bad;
}
