/*
** heuristics/waypoint_table.c -- the precomputed waypoint table of Patel
** section 2.4.1 (astar/waypoint_table.h): waypoints chosen at doors, on a
** coarse grid or by the caller; the exact waypoint-to-waypoint costs; each
** cell's nearest waypoint both ways; the SEED and BOUND heuristics.
**
** Every shortest-path computation is one plain Dijkstra over the padded
** grid (indexed binary heap keyed by (cost, padded index), so the settle
** order, and with it every tie between waypoints, is fixed). Moves are the
** search's own rule table (astar__move_allowed over the neighbour byte);
** a move's cost is its straight or diagonal cost times the entered cell's
** terrain factor, the order of operations of the searches. The reversed
** search (costs cell -> waypoint) walks the same moves backwards: moves are
** symmetric in legality, only the entered cell -- whose factor is charged --
** changes.
*/
#include "core/idheap.h"
#include "core/internal.h"
#include "search/query.h"

#include "astar/waypoint_table.h"

#include <math.h>
#include <string.h>

#define NONE16 UINT16_MAX         /* no waypoint (blocked, or none in the component) */
#define UNREACHED UINT32_MAX      /* Dijkstra: cell not reached yet */
#define SETTLED (UINT32_MAX - 1u) /* Dijkstra: cell's cost final */

struct astar_waypoint_table {
  astar_allocator alloc;  /* where every block below came from */
  const astar_grid *grid; /* the grid built from: its version is read by the heuristic */
  uint64_t version;       /* astar_grid_version() when built */
  int32_t width, height;  /* the grid's dimensions */
  int moves;              /* options.moves of the build */
  astar_corner corner;    /* options.corner of the build */
  double sc, dc;          /* straight and diagonal move costs of the build */
  double ha, hb;          /* base heuristic: (ha*(dx+dy) + hb*min(dx,dy)) x min terrain */
  astar_table_form form;  /* form of astar_waypoint_table_heuristic */
  uint32_t count;         /* waypoints, 0 .. ASTAR_TABLE_MAX_COUNT */
  astar_point *cells;     /* [count] waypoint cells */
  float *dist;            /* [count * count] D[i][j] at i*count+j, rounded down; INFINITY */
  uint32_t k;             /* nearest waypoints kept per cell, 1 .. ASTAR_TABLE_MAX_NEAREST */
  uint16_t *wfrom, *wto;  /* [width*height*k] cell c's k nearest waypoints by cost w -> c
                             (wfrom) and c -> w (wto) at c*k .. c*k+k-1, cheapest first
                             (ties: smaller number); NONE16 past the last reachable one */
  float *from, *to;       /* [width*height*k] those costs, rounded up; INFINITY with NONE16 */
  bool shared;            /* no terrain: costs are symmetric, wto/to alias wfrom/from */
  size_t bytes;           /* bytes held from alloc, the struct included */
};

/* ---- rounding outward ------------------------------------------------------------ */

/* x (>= 0, maybe infinite) as a float three steps below the nearest float
** (never below 0; 0 stays 0): a value never above x, whatever the
** summation order that produced x. */
static float round_down(double x) {
  if (isinf(x)) return INFINITY;
  if (x <= 0.0) return 0.0f;
  float f = (float)x;
  for (int k = 0; k < 3; k++) f = nextafterf(f, 0.0f);
  return f;
}

/* x (>= 0, finite) as a float three steps above the nearest float (0 stays 0). */
static float round_up(double x) {
  if (x <= 0.0) return 0.0f;
  float f = (float)x;
  for (int k = 0; k < 3; k++) f = nextafterf(f, INFINITY);
  return f;
}

/* ---- Dijkstra over the padded grid ------------------------------------------------ */

typedef struct dijkstra {
  const astar_grid *g;
  const astar_allocator *alloc;
  int rule;             /* ASTAR__RULE_* of the build */
  double mc[8];         /* move cost of each direction */
  int32_t off[8];       /* padded index step of each direction */
  uint8_t allowed[256]; /* bit d: move d allowed from a cell with this neighbour byte */
  double *d;            /* [ncells] cost so far */
  uint32_t *pos;        /* [ncells] heap position, UNREACHED or SETTLED */
  uint32_t *heap;       /* [ncells] padded indices */
  uint16_t *src;        /* [ncells] waypoint whose path reached the cell */
  uint16_t *wid;        /* [ncells] GIVEN: marks the cells already given (duplicates) */
} dijkstra;

/*
** Costs from the sources (waypoints first .. first+nsrc-1) to every cell
** (reverse: from every cell to the sources), the source of each cell's
** path in src (ties: the smaller waypoint number).
*/
static void run(dijkstra *k, const astar_waypoint_table *t, uint32_t first, uint32_t nsrc,
                bool reverse) {
  const astar_grid *g = k->g;
  const uint32_t nc = g->ncells;
  const float *ter = g->terrain;
  for (uint32_t i = 0; i < nc; i++) k->pos[i] = UNREACHED;
  astar__idheap q = {k->heap, k->pos, k->d, 0};
  for (uint32_t s = first; s < first + nsrc; s++) {
    const uint32_t c = astar__index(g, t->cells[s].x, t->cells[s].y);
    k->d[c] = 0.0;
    k->src[c] = (uint16_t)s;
    astar__idheap_insert(&q, c);
  }
  while (q.n > 0) {
    const uint32_t u = astar__idheap_pop(&q);
    k->pos[u] = SETTLED;
    const double du = k->d[u];
    const uint16_t su = k->src[u];
    const unsigned m = k->allowed[g->nb[u]];
    for (int dir = 0; dir < 8; dir++) {
      if (!(m >> dir & 1u)) continue;
      const uint32_t v = (uint32_t)((int32_t)u + k->off[dir]);
      if (k->pos[v] == SETTLED) continue;
      const uint32_t entered = reverse ? u : v;
      const double c = ter ? k->mc[dir] * (double)ter[entered] : k->mc[dir];
      const double nd = du + c;
      if (k->pos[v] == UNREACHED) {
        k->d[v] = nd;
        k->src[v] = su;
        astar__idheap_insert(&q, v);
      } else if (nd < k->d[v]) {
        k->d[v] = nd;
        k->src[v] = su;
        astar__idheap_up(&q, k->pos[v]);
      } else if (nd == k->d[v] && su < k->src[v]) {
        k->src[v] = su;
      }
    }
  }
}

/* ---- choosing the waypoints ------------------------------------------------------- */

/* Squared distance of (x, y) from (cx, cy), and the tie rule: is (x, y) a
** better pick than the best so far (bx, by) at squared distance *bd? */
static bool nearer(int32_t x, int32_t y, double cx, double cy, double *bd, int32_t bx, int32_t by) {
  const double ex = (double)x - cx, ey = (double)y - cy;
  const double dd = ex * ex + ey * ey;
  if (dd < *bd || (dd == *bd && (y < by || (y == by && x < bx)))) {
    *bd = dd;
    return true;
  }
  return false;
}

/* Waypoints of a coarse grid of side `tile`: the count (also when `out` is
** NULL), written to out[0 .. count-1] when given. */
static uint32_t pick_coarse(const astar_grid *g, int32_t tile, astar_point *out) {
  uint32_t n = 0;
  for (int32_t ty = 0; ty < g->height; ty += tile) {
    const int32_t y1 = ty + tile < g->height ? ty + tile : g->height;
    for (int32_t tx = 0; tx < g->width; tx += tile) {
      const int32_t x1 = tx + tile < g->width ? tx + tile : g->width;
      /* Centre of the tile clipped to the grid. */
      const double cx = (double)(tx + x1 - 1) / 2.0, cy = (double)(ty + y1 - 1) / 2.0;
      double bd = INFINITY;
      int32_t bx = -1, by = -1;
      for (int32_t y = ty; y < y1; y++)
        for (int32_t x = tx; x < x1; x++)
          if (g->pass[astar__index(g, x, y)] && nearer(x, y, cx, cy, &bd, bx, by)) {
            bx = x;
            by = y;
          }
      if (bx < 0) continue;
      if (out) out[n] = (astar_point){bx, by};
      n++;
    }
  }
  return n;
}

/*
** The gaps of the DOORS rule: narrow cells grouped 4-connected, one
** representative per gap written to reps[] (padded indices, in row-major
** order of each gap's first cell); returns the number of gaps. mark and
** queue are scratch arrays of ncells entries.
*/
static uint32_t find_gaps(const astar_grid *g, int32_t gap, uint8_t *mark, uint32_t *queue,
                          uint32_t *reps) {
  const uint32_t s = (uint32_t)g->stride;
  memset(mark, 0, g->ncells);
  /* mark bit 0: narrow. Runs along rows, then along columns. */
  for (int32_t y = 0; y < g->height; y++) {
    int32_t x = 0;
    while (x < g->width) {
      if (!g->pass[astar__index(g, x, y)]) {
        x++;
        continue;
      }
      int32_t e = x;
      while (e < g->width && g->pass[astar__index(g, e, y)]) e++;
      if (e - x <= gap)
        for (int32_t i = x; i < e; i++) mark[astar__index(g, i, y)] = 1;
      x = e;
    }
  }
  for (int32_t x = 0; x < g->width; x++) {
    int32_t y = 0;
    while (y < g->height) {
      if (!g->pass[astar__index(g, x, y)]) {
        y++;
        continue;
      }
      int32_t e = y;
      while (e < g->height && g->pass[astar__index(g, x, e)]) e++;
      if (e - y <= gap)
        for (int32_t i = y; i < e; i++) mark[astar__index(g, x, i)] = 1;
      y = e;
    }
  }
  /* mark 2: visited. Breadth-first over narrow cells; each gap is one
  ** contiguous stretch of the queue. */
  const int32_t step[4] = {-(int32_t)s, 1, (int32_t)s, -1};
  uint32_t ngaps = 0;
  for (int32_t y = 0; y < g->height; y++) {
    for (int32_t x = 0; x < g->width; x++) {
      const uint32_t c = astar__index(g, x, y);
      if (mark[c] != 1) continue;
      uint32_t head = 0, tail = 0;
      queue[tail++] = c;
      mark[c] = 2;
      double sx = 0.0, sy = 0.0;
      while (head < tail) {
        const uint32_t u = queue[head++];
        const uint32_t ux = u % s, uy = u / s;
        sx += (double)ux;
        sy += (double)uy;
        for (int k = 0; k < 4; k++) {
          const uint32_t v = (uint32_t)((int32_t)u + step[k]);
          if (mark[v] == 1) {
            mark[v] = 2;
            queue[tail++] = v;
          }
        }
      }
      /* Padded coordinates throughout: the offset does not change the pick. */
      const double cx = sx / (double)tail, cy = sy / (double)tail;
      double bd = INFINITY;
      int32_t bx = -1, by = -1;
      for (uint32_t i = 0; i < tail; i++) {
        const int32_t ux = (int32_t)(queue[i] % s), uy = (int32_t)(queue[i] / s);
        if (nearer(ux, uy, cx, cy, &bd, bx, by)) {
          bx = ux;
          by = uy;
        }
      }
      reps[ngaps++] = (uint32_t)by * s + (uint32_t)bx;
    }
  }
  return ngaps;
}

/* ---- building ------------------------------------------------------------------------ */

void astar_waypoint_table_options_init(astar_waypoint_table_options *wopt) {
  if (!wopt) return;
  memset(wopt, 0, sizeof *wopt);
  wopt->pick = ASTAR_TABLE_AUTO;
  wopt->form = ASTAR_TABLE_BOUND;
  wopt->gap = 2;
  wopt->tile = 16;
  wopt->max_count = 1024;
  wopt->nearest = 4;
}

static bool wopt_valid(const astar_waypoint_table_options *w) {
  if ((unsigned)w->pick > (unsigned)ASTAR_TABLE_GIVEN) return false;
  if ((unsigned)w->form > (unsigned)ASTAR_TABLE_SEED) return false;
  if (w->gap < 1 || w->gap > ASTAR_TABLE_MAX_GAP) return false;
  if (w->tile < 1 || w->tile > ASTAR_GRID_MAX_SIDE) return false;
  if (w->max_count < 1 || w->max_count > ASTAR_TABLE_MAX_COUNT) return false;
  if (w->nearest < 1 || w->nearest > ASTAR_TABLE_MAX_NEAREST) return false;
  if (w->pick == ASTAR_TABLE_GIVEN && (!w->cells || w->ncells == 0)) return false;
  return true;
}

void astar_waypoint_table_free(astar_waypoint_table *t) {
  if (!t) return;
  const astar_allocator a = t->alloc;
  const size_t cells = (size_t)t->width * (size_t)t->height * t->k;
  astar__free(&a, t->cells, sizeof(astar_point) * t->count);
  astar__free(&a, t->dist, sizeof(float) * t->count * t->count);
  astar__free(&a, t->wfrom, sizeof(uint16_t) * cells);
  astar__free(&a, t->from, sizeof(float) * cells);
  if (!t->shared) {
    astar__free(&a, t->wto, sizeof(uint16_t) * cells);
    astar__free(&a, t->to, sizeof(float) * cells);
  }
  astar__free(&a, t, sizeof *t);
}

/* The scratch arrays of a build (all of ncells entries). */
static void scratch_free(dijkstra *k, uint32_t nc) {
  astar__free(k->alloc, k->d, sizeof(double) * nc);
  astar__free(k->alloc, k->pos, sizeof(uint32_t) * nc);
  astar__free(k->alloc, k->heap, sizeof(uint32_t) * nc);
  astar__free(k->alloc, k->src, sizeof(uint16_t) * nc);
  astar__free(k->alloc, k->wid, sizeof(uint16_t) * nc);
}

/* Choose the waypoints into t->cells / t->count. k's arrays serve as
** scratch (pos as the gap queue, heap as the gap list, src as the narrow
** marks, wid as the duplicate check). */
static astar_status pick(astar_waypoint_table *t, const astar_grid *g,
                         const astar_waypoint_table_options *w, dijkstra *k) {
  uint32_t n = 0;
  astar_table_pick how = w->pick;
  int32_t tile = w->tile;
  if (how == ASTAR_TABLE_GIVEN) {
    if (w->ncells > w->max_count) return ASTAR_TOO_LARGE;
    for (uint32_t c = 0; c < g->ncells; c++) k->wid[c] = NONE16;
    for (size_t i = 0; i < w->ncells; i++) {
      const astar_point p = w->cells[i];
      if (!astar_grid_contains(g, p.x, p.y)) return ASTAR_OUT_OF_BOUNDS;
      const uint32_t c = astar__index(g, p.x, p.y);
      if (!g->pass[c] || k->wid[c] != NONE16) return ASTAR_INVALID_ARGUMENT;
      k->wid[c] = 0;
    }
    n = (uint32_t)w->ncells;
  } else if (how != ASTAR_TABLE_COARSE) {
    n = find_gaps(g, w->gap, (uint8_t *)k->src, k->pos, k->heap);
    if (n == 0 && how == ASTAR_TABLE_AUTO) how = ASTAR_TABLE_COARSE;
  }
  if (how == ASTAR_TABLE_COARSE) {
    n = pick_coarse(g, tile, NULL);
    if (w->pick == ASTAR_TABLE_AUTO)
      while (n > w->max_count) {
        tile = tile > ASTAR_GRID_MAX_SIDE / 2 ? ASTAR_GRID_MAX_SIDE : tile * 2;
        n = pick_coarse(g, tile, NULL);
      }
    if (n > w->max_count) return ASTAR_TOO_LARGE;
  }
  const uint32_t keep = n > w->max_count ? w->max_count : n; /* DOORS thinning */
  if (keep == 0) return ASTAR_OK;
  t->cells = astar__malloc(&t->alloc, sizeof(astar_point) * keep);
  if (!t->cells) return ASTAR_NO_MEMORY;
  t->count = keep;
  t->bytes += sizeof(astar_point) * keep;
  if (how == ASTAR_TABLE_GIVEN) {
    memcpy(t->cells, w->cells, sizeof(astar_point) * keep);
  } else if (how == ASTAR_TABLE_COARSE) {
    pick_coarse(g, tile, t->cells);
  } else {
    const uint32_t s = (uint32_t)g->stride;
    for (uint32_t i = 0; i < keep; i++) {
      const uint32_t c = k->heap[(uint64_t)i * n / keep];
      t->cells[i] = (astar_point){(int32_t)(c % s) - 1, (int32_t)(c / s) - 1};
    }
  }
  return ASTAR_OK;
}

/* Base heuristic coefficients of astar__setup_heuristic at scale 1: octile
** with diagonals, Manhattan without. */
static void base_coefficients(astar_waypoint_table *t, const astar_options *o) {
  const double s = o->straight_cost, d = o->diagonal_cost;
  t->ha = s;
  t->hb = 0.0;
  if (!astar__diagonals_on(o) || d >= 2.0 * s) return;
  if (d >= s) {
    t->hb = d - 2.0 * s;
  } else {
    t->ha = d;
    t->hb = -d;
  }
}

/* Insert waypoint i at cost c (exact) into the k-list (w, cost) of one cell,
** kept cheapest first. Waypoints arrive in increasing number, so a strict
** comparison leaves ties to the smaller number. */
static void insert_nearest(uint16_t *w, float *cost, uint32_t k, uint16_t i, double c) {
  const float f = round_up(c);
  uint32_t r = k;
  while (r > 0 && (w[r - 1] == NONE16 || cost[r - 1] > f)) r--;
  if (r == k) return;
  for (uint32_t j = k - 1; j > r; j--) {
    w[j] = w[j - 1];
    cost[j] = cost[j - 1];
  }
  w[r] = i;
  cost[r] = f;
}

static astar_status build(astar_waypoint_table *t, const astar_grid *g, dijkstra *k) {
  const size_t n = (size_t)g->width * (size_t)g->height * t->k;
  const uint32_t m = t->count;
  if (m > 0) {
    t->dist = astar__malloc(&t->alloc, sizeof(float) * m * m);
    if (!t->dist) return ASTAR_NO_MEMORY;
    t->bytes += sizeof(float) * m * m;
  }
  t->shared = g->terrain == NULL;
  t->wfrom = astar__malloc(&t->alloc, sizeof(uint16_t) * n);
  t->from = astar__malloc(&t->alloc, sizeof(float) * n);
  if (!t->wfrom || !t->from) return ASTAR_NO_MEMORY;
  t->bytes += (sizeof(uint16_t) + sizeof(float)) * n;
  if (t->shared) {
    t->wto = t->wfrom;
    t->to = t->from;
  } else {
    t->wto = astar__malloc(&t->alloc, sizeof(uint16_t) * n);
    t->to = astar__malloc(&t->alloc, sizeof(float) * n);
    if (!t->wto || !t->to) return ASTAR_NO_MEMORY;
    t->bytes += (sizeof(uint16_t) + sizeof(float)) * n;
  }
  for (size_t i = 0; i < n; i++) {
    t->wfrom[i] = t->wto[i] = NONE16;
    t->from[i] = t->to[i] = INFINITY;
  }

  /* One search per waypoint (and one over the reversed moves when terrain
  ** makes costs direction dependent): its row of D, and its place in
  ** every cell's k-lists. Without terrain a cost and its reverse are the
  ** same sums in the same order, so one search serves both lists. */
  for (uint32_t i = 0; i < m; i++) {
    for (int pass = 0; pass < (t->shared ? 1 : 2); pass++) {
      run(k, t, i, 1, pass == 1);
      if (pass == 0)
        for (uint32_t j = 0; j < m; j++) {
          const uint32_t c = astar__index(g, t->cells[j].x, t->cells[j].y);
          t->dist[(size_t)i * m + j] = k->pos[c] == SETTLED ? round_down(k->d[c]) : INFINITY;
        }
      uint16_t *w = pass ? t->wto : t->wfrom;
      float *cost = pass ? t->to : t->from;
      for (int32_t y = 0; y < g->height; y++) {
        const uint32_t row = astar__index(g, 0, y);
        for (int32_t x = 0; x < g->width; x++) {
          if (k->pos[row + (uint32_t)x] != SETTLED) continue;
          const size_t at = ((size_t)y * (size_t)g->width + (size_t)x) * t->k;
          insert_nearest(w + at, cost + at, t->k, (uint16_t)i, k->d[row + (uint32_t)x]);
        }
      }
    }
  }
  return ASTAR_OK;
}

astar_status astar_waypoint_table_new(astar_waypoint_table **out, const astar_grid *grid,
                                      const astar_options *opt,
                                      const astar_waypoint_table_options *wopt,
                                      const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_options dopt;
  if (!opt) {
    astar_options_init(&dopt);
    opt = &dopt;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  astar_waypoint_table_options dw;
  if (!wopt) {
    astar_waypoint_table_options_init(&dw);
    wopt = &dw;
  }
  if (!wopt_valid(wopt)) return ASTAR_INVALID_ARGUMENT;

  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_waypoint_table *t = astar__calloc(&a, 1, sizeof *t);
  if (!t) return ASTAR_NO_MEMORY;
  t->alloc = a;
  t->bytes = sizeof *t;
  t->grid = grid;
  t->version = grid->version;
  t->width = grid->width;
  t->height = grid->height;
  t->moves = opt->moves;
  t->corner = opt->corner;
  t->sc = opt->straight_cost;
  t->dc = opt->diagonal_cost;
  t->form = wopt->form;
  t->k = wopt->nearest;
  base_coefficients(t, opt);

  dijkstra k;
  memset(&k, 0, sizeof k);
  k.g = grid;
  k.alloc = &t->alloc;
  k.rule = astar__rule_of(opt);
  for (int d = 0; d < 8; d++) {
    k.mc[d] = d < 4 ? opt->straight_cost : opt->diagonal_cost;
    k.off[d] = astar__dir_dy[d] * grid->stride + astar__dir_dx[d];
  }
  astar__move_table(k.rule, k.allowed);
  const uint32_t nc = grid->ncells;
  k.d = astar__malloc(&t->alloc, sizeof(double) * nc);
  k.pos = astar__malloc(&t->alloc, sizeof(uint32_t) * nc);
  k.heap = astar__malloc(&t->alloc, sizeof(uint32_t) * nc);
  k.src = astar__malloc(&t->alloc, sizeof(uint16_t) * nc);
  k.wid = astar__malloc(&t->alloc, sizeof(uint16_t) * nc);
  astar_status st = ASTAR_NO_MEMORY;
  if (k.d && k.pos && k.heap && k.src && k.wid) {
    st = pick(t, grid, wopt, &k);
    if (st == ASTAR_OK) st = build(t, grid, &k);
  }
  scratch_free(&k, nc);
  if (st != ASTAR_OK) {
    astar_waypoint_table_free(t);
    return st;
  }
  *out = t;
  return ASTAR_OK;
}

/* ---- queries ------------------------------------------------------------------------- */

size_t astar_waypoint_table_memory(const astar_waypoint_table *t) {
  return t ? t->bytes : 0;
}

uint32_t astar_waypoint_table_count(const astar_waypoint_table *t) {
  return t ? t->count : 0;
}

astar_point astar_waypoint_table_cell(const astar_waypoint_table *t, uint32_t i) {
  if (!t || i >= t->count) return (astar_point){-1, -1};
  return t->cells[i];
}

double astar_waypoint_table_distance(const astar_waypoint_table *t, uint32_t i, uint32_t j) {
  if (!t || i >= t->count || j >= t->count) return NAN;
  return (double)t->dist[(size_t)i * t->count + j];
}

astar_status astar_waypoint_table_nearest(const astar_waypoint_table *t, astar_point cell,
                                          uint32_t rank, uint32_t *from_w, double *from_cost,
                                          uint32_t *to_w, double *to_cost) {
  if (!t || rank >= t->k) return ASTAR_INVALID_ARGUMENT;
  if (cell.x < 0 || cell.y < 0 || cell.x >= t->width || cell.y >= t->height)
    return ASTAR_OUT_OF_BOUNDS;
  const size_t i = ((size_t)cell.y * (size_t)t->width + (size_t)cell.x) * t->k + rank;
  if (t->wfrom[i] == NONE16 || t->wto[i] == NONE16) return ASTAR_NO_PATH;
  if (from_w) *from_w = t->wfrom[i];
  if (from_cost) *from_cost = (double)t->from[i];
  if (to_w) *to_w = t->wto[i];
  if (to_cost) *to_cost = (double)t->to[i];
  return ASTAR_OK;
}

uint32_t astar_waypoint_table_nearest_count(const astar_waypoint_table *t) {
  return t ? t->k : 0;
}

astar_table_form astar_waypoint_table_form(const astar_waypoint_table *t) {
  return t ? t->form : ASTAR_TABLE_BOUND;
}

double astar_waypoint_table_value(const astar_waypoint_table *t, astar_table_form form,
                                  astar_point cell, astar_point goal) {
  if (!t) return 0.0;
  const int32_t w = t->width, h = t->height;
  if (cell.x < 0 || cell.y < 0 || cell.x >= w || cell.y >= h || goal.x < 0 || goal.y < 0 ||
      goal.x >= w || goal.y >= h)
    return 0.0; /* a goal region's (-1, -1), or a call outside the grid */
  const int32_t ddx = cell.x > goal.x ? cell.x - goal.x : goal.x - cell.x;
  const int32_t ddy = cell.y > goal.y ? cell.y - goal.y : goal.y - cell.y;
  /* The library's default heuristic, lowered by 2^-24 of itself: the
  ** formula rounds differently from a path's sum of steps, and without the
  ** margin it can exceed the sum by an ulp. */
  const double base =
      (t->ha * ((double)ddx + (double)ddy) + t->hb * (double)(ddx < ddy ? ddx : ddy)) *
      (double)t->grid->min_terrain * (1.0 - 0x1p-24);
  if (t->grid->version != t->version) return base; /* stale: never wrong, only weaker */
  const uint32_t k = t->k, m = t->count;
  const size_t ci = ((size_t)cell.y * (size_t)w + (size_t)cell.x) * k;
  const size_t gi = ((size_t)goal.y * (size_t)w + (size_t)goal.x) * k;
  if (form == ASTAR_TABLE_SEED) {
    /* The cheapest path n -> w1 -> w2 -> g over the k x k pairs. */
    double best = INFINITY;
    for (uint32_t r = 0; r < k && t->wto[ci + r] != NONE16; r++)
      for (uint32_t q = 0; q < k && t->wfrom[gi + q] != NONE16; q++) {
        const float dab = t->dist[(size_t)t->wto[ci + r] * m + t->wfrom[gi + q]];
        const double v = ((double)t->to[ci + r] + (double)dab) + (double)t->from[gi + q];
        if (v < best) best = v; /* an infinite D (other component) never wins */
      }
    return isinf(best) ? base : best;
  }
  /* The largest triangle bound over the k x k pairs. */
  double best = base;
  for (uint32_t r = 0; r < k && t->wfrom[ci + r] != NONE16; r++)
    for (uint32_t q = 0; q < k && t->wto[gi + q] != NONE16; q++) {
      const float dab = t->dist[(size_t)t->wfrom[ci + r] * m + t->wto[gi + q]];
      if (isinf(dab)) continue; /* other component: no path anyway */
      const double v = ((double)dab - (double)t->from[ci + r]) - (double)t->to[gi + q];
      if (v > best) best = v;
    }
  return best;
}

double astar_waypoint_table_heuristic(void *ctx, astar_point cell, astar_point goal) {
  const astar_waypoint_table *t = ctx;
  return astar_waypoint_table_value(t, t ? t->form : ASTAR_TABLE_BOUND, cell, goal);
}

bool astar_waypoint_table_current(const astar_waypoint_table *t, const astar_grid *grid) {
  return t && grid && t->grid == grid && grid->version == t->version;
}

astar_status astar_waypoint_table_check(const astar_waypoint_table *t, const astar_grid *grid,
                                        const astar_options *opt) {
  if (!t || !grid) return ASTAR_INVALID_ARGUMENT;
  astar_options dopt;
  if (!opt) {
    astar_options_init(&dopt);
    opt = &dopt;
  }
  if (t->grid != grid) return ASTAR_MISMATCH;
  if (grid->version != t->version) return ASTAR_STALE;
  astar_options built;
  astar_options_init(&built);
  built.moves = t->moves;
  built.corner = t->corner;
  const bool diag = astar__diagonals_on(opt);
  if (diag != astar__diagonals_on(&built) || opt->straight_cost != t->sc ||
      (diag && (opt->diagonal_cost != t->dc || astar__rule_of(opt) != astar__rule_of(&built))))
    return ASTAR_MISMATCH;
  if (opt->terrain_scale < 1.0) return ASTAR_MISMATCH;
  if (opt->knowledge && opt->unknown != ASTAR_UNKNOWN_BLOCKED) return ASTAR_MISMATCH;
  return ASTAR_OK;
}
