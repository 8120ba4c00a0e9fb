/*
** search.c -- A* on the grid: options, the workspace, the search loop and
** path reconstruction.
**
** The loop is written once (search_loop) and instantiated for the common
** configurations with constant arguments, so the compiler removes the
** branches on heuristic kind, terrain and tie mode from the hot path.
*/
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define SQRT2 1.41421356237309504880

/* Legal-move tables: rule x neighbour byte -> mask of allowed directions. */
enum { RULE_STRAIGHT = 0, RULE_NO_CUT, RULE_ALWAYS, RULE_ONE_SIDE, RULE_COUNT };

struct astar_workspace {
  astar_allocator alloc;          /* source of the arrays below */
  uint32_t capacity;              /* padded cells the arrays hold */
  uint16_t *mark;                 /* [capacity] gen: open, gen|1: closed, else unreached */
  astar__node *node;              /* [capacity] g, heap position, parent */
  astar__heap open;               /* open list, cap == capacity (a node is in it once) */
  uint16_t gen;                   /* even generation number of the current search */
  uint32_t seq;                   /* pushes so far in this search (tie key) */
  uint8_t moves[RULE_COUNT][256]; /* legal-move masks per rule */
  /* The last search, for astar_workspace_path. */
  bool found;          /* it produced a path */
  uint32_t last_goal;  /* padded index of its goal */
  int32_t last_stride; /* padded row length of its grid */
  size_t last_len;     /* cells in its path */
};

/* ---- options ------------------------------------------------------------ */

void astar_options_init(astar_options *opt) {
  if (!opt) return;
  memset(opt, 0, sizeof *opt);
  opt->moves = 8;
  opt->corner = ASTAR_CORNER_NO_CUT;
  opt->straight_cost = 1.0;
  opt->diagonal_cost = SQRT2;
  opt->heuristic = ASTAR_H_AUTO;
  opt->weight = 1.0;
  opt->tie = ASTAR_TIE_LARGER_G;
  opt->reopen = ASTAR_REOPEN_AUTO;
  opt->max_expansions = 0;
}

static bool cost_ok(double c) {
  return isfinite(c) && c > 0.0;
}

astar_status astar_options_validate(const astar_options *o) {
  if (!o) return ASTAR_INVALID_ARGUMENT;
  if (o->moves != 4 && o->moves != 8) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->corner > (unsigned)ASTAR_CORNER_NEVER) return ASTAR_INVALID_ARGUMENT;
  if (!cost_ok(o->straight_cost) || !cost_ok(o->diagonal_cost)) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->heuristic > (unsigned)ASTAR_H_CALLBACK) return ASTAR_INVALID_ARGUMENT;
  if (o->heuristic == ASTAR_H_CALLBACK && !o->heuristic_fn) return ASTAR_INVALID_ARGUMENT;
  if (!(isfinite(o->weight) && o->weight >= 0.0)) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->tie > (unsigned)ASTAR_TIE_CROSS) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->reopen > (unsigned)ASTAR_REOPEN_NEVER) return ASTAR_INVALID_ARGUMENT;
  return ASTAR_OK;
}

static bool diagonals_on(const astar_options *o) {
  return o->moves == 8 && o->corner != ASTAR_CORNER_NEVER;
}

static int rule_of(const astar_options *o) {
  if (!diagonals_on(o)) return RULE_STRAIGHT;
  switch (o->corner) {
  case ASTAR_CORNER_ALWAYS:
    return RULE_ALWAYS;
  case ASTAR_CORNER_ONE_SIDE:
    return RULE_ONE_SIDE;
  default:
    return RULE_NO_CUT;
  }
}

/* Is the move in direction d allowed from a cell with neighbour byte nb? */
static bool move_allowed(int rule, unsigned nb, int d) {
  if (!(nb & (1u << d))) return false;
  if (d < 4) return true;
  if (rule == RULE_STRAIGHT) return false;
  /* Side cells of each diagonal: NE: N,E  SE: S,E  SW: S,W  NW: N,W. */
  static const uint8_t side_a[4] = {ASTAR__N, ASTAR__S, ASTAR__S, ASTAR__N};
  static const uint8_t side_b[4] = {ASTAR__E, ASTAR__E, ASTAR__W, ASTAR__W};
  const unsigned open_sides = ((nb >> side_a[d - 4]) & 1u) + ((nb >> side_b[d - 4]) & 1u);
  switch (rule) {
  case RULE_NO_CUT:
    return open_sides == 2;
  case RULE_ONE_SIDE:
    return open_sides >= 1;
  default:
    return true;
  }
}

static void build_move_tables(uint8_t moves[RULE_COUNT][256]) {
  for (int r = 0; r < RULE_COUNT; r++)
    for (unsigned nb = 0; nb < 256; nb++) {
      uint8_t m = 0;
      for (int d = 0; d < 8; d++)
        if (move_allowed(r, nb, d)) m |= (uint8_t)(1u << d);
      moves[r][nb] = m;
    }
}

/* ---- workspace ------------------------------------------------------------ */

size_t astar__workspace_bytes_per_cell(void) {
  return sizeof(uint16_t) + sizeof(astar__node) + sizeof(astar__hent);
}

static void free_ws_arrays(astar_workspace *ws) {
  astar__free(&ws->alloc, ws->mark, (size_t)ws->capacity * sizeof(uint16_t));
  astar__free(&ws->alloc, ws->node, (size_t)ws->capacity * sizeof(astar__node));
  astar__free(&ws->alloc, ws->open.a, (size_t)ws->capacity * sizeof(astar__hent));
  ws->mark = NULL;
  ws->node = NULL;
  ws->open.a = NULL;
  ws->capacity = 0;
  ws->open.cap = 0;
}

/* Allocate arrays for n cells into ws (which has none); all or nothing. */
static astar_status alloc_ws_arrays(astar_workspace *ws, uint32_t n) {
  /* Marks start at 0 and the first search uses generation 2: zeroed memory
  ** means "not reached". */
  uint16_t *mark = astar__calloc(&ws->alloc, n, sizeof(uint16_t));
  astar__node *node = astar__calloc(&ws->alloc, n, sizeof(astar__node));
  astar__hent *heap = astar__calloc(&ws->alloc, n, sizeof(astar__hent));
  if (!mark || !node || !heap) {
    astar__free(&ws->alloc, mark, (size_t)n * sizeof(uint16_t));
    astar__free(&ws->alloc, node, (size_t)n * sizeof(astar__node));
    astar__free(&ws->alloc, heap, (size_t)n * sizeof(astar__hent));
    return ASTAR_NO_MEMORY;
  }
  ws->mark = mark;
  ws->node = node;
  ws->open.a = heap;
  ws->open.cap = n;
  ws->open.len = 0;
  ws->capacity = n;
  ws->gen = 0;
  ws->found = false;
  return ASTAR_OK;
}

astar_status astar_workspace_new(astar_workspace **out, const astar_grid *grid,
                                 const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_workspace *ws = astar__malloc(&a, sizeof *ws);
  if (!ws) return ASTAR_NO_MEMORY;
  memset(ws, 0, sizeof *ws);
  ws->alloc = a;
  build_move_tables(ws->moves);
  if (alloc_ws_arrays(ws, grid->ncells) != ASTAR_OK) {
    astar__free(&a, ws, sizeof *ws);
    return ASTAR_NO_MEMORY;
  }
  *out = ws;
  return ASTAR_OK;
}

void astar_workspace_free(astar_workspace *ws) {
  if (!ws) return;
  astar_allocator a = ws->alloc;
  free_ws_arrays(ws);
  astar__free(&a, ws, sizeof *ws);
}

astar_status astar_workspace_reserve(astar_workspace *ws, const astar_grid *grid) {
  if (!ws || !grid) return ASTAR_INVALID_ARGUMENT;
  if (grid->ncells <= ws->capacity) return ASTAR_OK;
  /* Allocate the new arrays before dropping the old ones, so that a failure
  ** leaves the workspace as it was. */
  astar_workspace tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.alloc = ws->alloc;
  if (alloc_ws_arrays(&tmp, grid->ncells) != ASTAR_OK) return ASTAR_NO_MEMORY;
  free_ws_arrays(ws);
  ws->mark = tmp.mark;
  ws->node = tmp.node;
  ws->open = tmp.open;
  ws->capacity = tmp.capacity;
  ws->gen = 0;
  ws->found = false;
  return ASTAR_OK;
}

size_t astar_workspace_memory(const astar_workspace *ws) {
  if (!ws) return 0;
  return sizeof *ws + (size_t)ws->capacity * astar__workspace_bytes_per_cell();
}

/* ---- the search ------------------------------------------------------------ */

enum { HK_OCTILE, HK_MANHATTAN, HK_CHEBYSHEV, HK_EUCLIDEAN, HK_ZERO, HK_CALLBACK };

/* Everything a search needs, resolved once from the options. */
typedef struct query {
  const astar_grid *grid;
  uint32_t start, goal;   /* padded indices */
  int32_t sx, sy, gx, gy; /* padded coordinates of start and goal */
  int hkind;              /* HK_* */
  double ha, hb;          /* heuristic coefficients (see heuristic()) */
  astar_heuristic_fn hfn; /* HK_CALLBACK */
  void *hctx;
  int tie;                 /* astar_tie */
  bool reopen;             /* may closed nodes be reopened? */
  const uint8_t *moves;    /* legal-move table for the rule */
  double cost[8];          /* move cost per direction */
  int32_t off[8];          /* index offset per direction */
  uint64_t max_expansions; /* 0: none */
  astar_stats stats;
} query;

/* Heuristic at padded (x, y). Coefficients come from setup_heuristic. */
ASTAR__INLINE double heuristic(const query *q, int hk, int32_t x, int32_t y) {
  const int32_t ddx = x > q->gx ? x - q->gx : q->gx - x;
  const int32_t ddy = y > q->gy ? y - q->gy : q->gy - y;
  const double dx = (double)ddx, dy = (double)ddy;
  switch (hk) {
  case HK_OCTILE:
    return q->ha * (dx + dy) + q->hb * (double)(ddx < ddy ? ddx : ddy);
  case HK_MANHATTAN:
    return q->ha * (dx + dy);
  case HK_CHEBYSHEV:
    return q->ha * (double)(ddx > ddy ? ddx : ddy);
  case HK_EUCLIDEAN:
    return q->ha * sqrt(dx * dx + dy * dy);
  case HK_ZERO:
    return 0.0;
  default: {
    const astar_point c = {x - 1, y - 1}, g = {q->gx - 1, q->gy - 1};
    const double h = q->hfn(q->hctx, c, g);
    return (isfinite(h) && h > 0.0) ? q->ha * h : 0.0;
  }
  }
}

/* Resolve the heuristic into kind + coefficients: h = ha*(dx+dy) + hb*min
** for octile (which covers the d < s and d > 2s cases too), ha*... for the
** others; ha and hb already include weight and the terrain floor. */
static void setup_heuristic(query *q, const astar_options *o, const astar_grid *g) {
  const double s = o->straight_cost, d = o->diagonal_cost;
  const double scale = o->weight * (double)g->min_terrain;
  const bool diag = diagonals_on(o);
  int h = o->heuristic;
  if (h == ASTAR_H_AUTO) h = diag ? ASTAR_H_OCTILE : ASTAR_H_MANHATTAN;
  q->ha = q->hb = 0.0;
  switch (h) {
  case ASTAR_H_OCTILE:
    q->hkind = HK_OCTILE;
    if (!diag || d >= 2.0 * s) {
      q->ha = s * scale; /* diagonals never help: Manhattan */
    } else if (d >= s) {
      q->ha = s * scale; /* s*max + (d-s)*min == s*(dx+dy) + (d-2s)*min */
      q->hb = (d - 2.0 * s) * scale;
    } else {
      q->ha = d * scale; /* d*max == d*(dx+dy) - d*min */
      q->hb = -d * scale;
    }
    break;
  case ASTAR_H_MANHATTAN:
    q->hkind = HK_MANHATTAN;
    q->ha = s * scale;
    break;
  case ASTAR_H_CHEBYSHEV:
    q->hkind = HK_CHEBYSHEV;
    q->ha = (diag && d < s ? d : s) * scale;
    break;
  case ASTAR_H_EUCLIDEAN:
    q->hkind = HK_EUCLIDEAN;
    q->ha = (diag && d / SQRT2 < s ? d / SQRT2 : s) * scale;
    break;
  case ASTAR_H_ZERO:
    q->hkind = HK_ZERO;
    break;
  default:
    q->hkind = HK_CALLBACK;
    q->ha = o->weight;
    q->hfn = o->heuristic_fn;
    q->hctx = o->heuristic_ctx;
    break;
  }
  switch (o->reopen) {
  case ASTAR_REOPEN_ALWAYS:
    q->reopen = true;
    break;
  case ASTAR_REOPEN_NEVER:
    q->reopen = false;
    break;
  default:
    q->reopen = h == ASTAR_H_CALLBACK || (h == ASTAR_H_MANHATTAN && diag);
    break;
  }
}

/* 32-bit tie key of a node at padded (x, y) with cost g; smaller first. */
ASTAR__INLINE uint32_t tie_key(const query *q, int tie, double g, int32_t x, int32_t y,
                               uint32_t seq) {
  if (tie == ASTAR_TIE_LARGER_G) {
    /* Larger g first. g >= 0, so the bits of (float)g order like g; the
    ** single-precision rounding only merges near-equal g values, which then
    ** fall through to the node-index order. */
    const float fg = (float)g;
    uint32_t bits;
    memcpy(&bits, &fg, sizeof bits);
    return ~bits;
  }
  if (tie == ASTAR_TIE_NEWEST) return ~seq;
  const int64_t dx1 = x - q->gx, dy1 = y - q->gy;
  const int64_t dx2 = q->sx - q->gx, dy2 = q->sy - q->gy;
  int64_t c = dx1 * dy2 - dx2 * dy1;
  if (c < 0) c = -c;
  return c > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

ASTAR__INLINE astar__hent make_entry(double f, uint32_t tie, uint32_t node) {
  astar__hent e;
  memcpy(&e.f, &f, sizeof f);
  e.t = (uint64_t)tie << 32 | node;
  return e;
}

/*
** The A* loop. hk, terrain and tie are compile-time constants at the call
** sites below, so each instantiation carries only its own branches.
** Returns ASTAR_OK (goal popped), ASTAR_NO_PATH or ASTAR_LIMIT_REACHED.
*/
ASTAR__INLINE astar_status search_loop(astar_workspace *ws, query *q, const int hk,
                                       const bool terrain, const int tie) {
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__heap *const open = &ws->open;
  const astar_grid *const grid = q->grid;
  const uint8_t *const nbs = grid->nb;
  const float *const ter = grid->terrain;
  const uint8_t *const moves = q->moves;
  const uint16_t gen = ws->gen, closed = (uint16_t)(ws->gen | 1u);
  const uint32_t goal = q->goal;
  const int32_t stride = grid->stride;
  const double inv_stride = 1.0 / (double)stride;
  const bool reopen = q->reopen;
  const uint64_t limit = q->max_expansions;
  uint64_t expanded = q->stats.expanded, generated = q->stats.generated;
  uint64_t reopened = q->stats.reopened, max_open = q->stats.max_open;
  uint32_t seq = ws->seq;
  astar_status st = ASTAR_NO_PATH;

  /* The slot holds at most one open entry outside the heap: a successor
  ** that beats the heap's minimum when generated (typical when A* walks
  ** straight at the goal: f stays equal and g grows). Popping takes the
  ** smaller of slot and heap top, so the order is exactly the heap's; the
  ** slot only saves the push and the sift-down. */
  bool slot_full = false;
  astar__hent slot = {0, 0};
  for (;;) {
    if (!slot_full && !open->len) break;
    if (limit && expanded >= limit) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    uint32_t u;
    if (slot_full && (!open->len || astar__hless(&slot, &open->a[0]))) {
      u = ASTAR__HNODE(slot);
      slot_full = false;
    } else {
      u = ASTAR__HNODE(astar__heap_pop(open, nd));
    }
    mark[u] = closed;
    expanded++;
    if (u == goal) {
      st = ASTAR_OK;
      break;
    }
    const double gu = nd[u].g;
    /* Row from a reciprocal multiply, corrected: cheaper than a division. */
    int32_t uy = (int32_t)((double)u * inv_stride);
    if (uy * stride > (int32_t)u)
      uy--;
    else if ((uy + 1) * stride <= (int32_t)u)
      uy++;
    const int32_t ux = (int32_t)u - uy * stride;
    unsigned m = moves[nbs[u]];
    if (!reopen) {
      /* Drop closed neighbours without a branch each: on most maps the
      ** majority of neighbours are closed and the test is unpredictable. */
      unsigned live = 0;
      for (int d = 0; d < 8; d++) live |= (unsigned)(mark[(int32_t)u + q->off[d]] != closed) << d;
      m &= live;
    }
    while (m) {
      const int d = __builtin_ctz(m);
      m &= m - 1;
      const uint32_t v = (uint32_t)((int32_t)u + q->off[d]);
      const uint16_t mv = mark[v];
      const double ng = gu + (terrain ? q->cost[d] * (double)ter[v] : q->cost[d]);
      astar__node *const n = &nd[v];
      const bool seen = (mv | 1u) == closed;
      if (seen && !(ng < n->g)) continue;
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      const double h = heuristic(q, hk, vx, vy);
      n->g = ng;
      n->parent = u;
      const astar__hent e = make_entry(ng + h, tie_key(q, tie, ng, vx, vy, seq), v);
      seq++;
      generated++;
      if (mv == gen) {
        if (n->pos == ASTAR__IN_SLOT) {
          slot = e; /* only ever smaller: the slot stays below its old key */
          continue;
        }
        astar__heap_decrease(open, nd, n->pos, e);
        continue;
      }
      if (mv == closed) reopened++;
      mark[v] = gen;
      if (!open->len || astar__hless(&e, &open->a[0])) {
        if (slot_full) {
          if (astar__hless(&e, &slot)) {
            astar__heap_push(open, nd, slot);
            slot = e;
            n->pos = ASTAR__IN_SLOT;
          } else {
            astar__heap_push(open, nd, e);
          }
        } else {
          slot = e;
          slot_full = true;
          n->pos = ASTAR__IN_SLOT;
        }
      } else {
        astar__heap_push(open, nd, e);
      }
      const uint64_t nopen = open->len + slot_full;
      if (nopen > max_open) max_open = nopen;
    }
  }
  q->stats.expanded = expanded;
  q->stats.generated = generated;
  q->stats.reopened = reopened;
  q->stats.max_open = max_open;
  ws->seq = seq;
  return st;
}

static astar_status run_search(astar_workspace *ws, query *q) {
  const bool ter = q->grid->terrain != NULL;
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == HK_OCTILE)
    return ter ? search_loop(ws, q, HK_OCTILE, true, ASTAR_TIE_LARGER_G)
               : search_loop(ws, q, HK_OCTILE, false, ASTAR_TIE_LARGER_G);
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == HK_MANHATTAN)
    return ter ? search_loop(ws, q, HK_MANHATTAN, true, ASTAR_TIE_LARGER_G)
               : search_loop(ws, q, HK_MANHATTAN, false, ASTAR_TIE_LARGER_G);
  return search_loop(ws, q, q->hkind, ter, q->tie);
}

/* Count the cells of the path ending at the last goal. */
static size_t path_length(const astar_workspace *ws) {
  size_t n = 1;
  for (uint32_t v = ws->last_goal; ws->node[v].parent != ASTAR__NO_PARENT; v = ws->node[v].parent)
    n++;
  return n;
}

static void write_path(const astar_workspace *ws, astar_point *path, size_t len) {
  uint32_t v = ws->last_goal;
  const uint32_t stride = (uint32_t)ws->last_stride;
  for (size_t i = len; i-- > 0;) {
    path[i].x = (int32_t)(v % stride) - 1;
    path[i].y = (int32_t)(v / stride) - 1;
    v = ws->node[v].parent;
  }
}

static astar_status check_endpoint(const astar_grid *g, astar_point p) {
  return astar_grid_contains(g, p.x, p.y) ? ASTAR_OK : ASTAR_OUT_OF_BOUNDS;
}

astar_status astar_find_path(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                             astar_point start, astar_point goal, astar_point *path, size_t cap,
                             astar_result *result) {
  astar_options defaults;
  if (result) memset(result, 0, sizeof *result);
  if (!ws || !grid || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  ws->found = false;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  astar_status st = astar_options_validate(opt);
  if (st != ASTAR_OK) return st;
  if (grid->ncells > ws->capacity) return ASTAR_CAPACITY;
  if ((st = check_endpoint(grid, start)) != ASTAR_OK) return st;
  if ((st = check_endpoint(grid, goal)) != ASTAR_OK) return st;
  if (!astar_grid_passable(grid, start.x, start.y)) return ASTAR_START_BLOCKED;
  if (!astar_grid_passable(grid, goal.x, goal.y)) return ASTAR_GOAL_BLOCKED;

  query q;
  memset(&q, 0, sizeof q);
  q.grid = grid;
  q.start = astar__index(grid, start.x, start.y);
  q.goal = astar__index(grid, goal.x, goal.y);
  q.sx = start.x + 1;
  q.sy = start.y + 1;
  q.gx = goal.x + 1;
  q.gy = goal.y + 1;
  q.tie = opt->tie;
  q.max_expansions = opt->max_expansions;
  q.moves = ws->moves[rule_of(opt)];
  for (int d = 0; d < 8; d++) {
    q.cost[d] = d < 4 ? opt->straight_cost : opt->diagonal_cost;
    q.off[d] = astar__dir_dy[d] * grid->stride + astar__dir_dx[d];
  }
  setup_heuristic(&q, opt, grid);

  /* New generation; when the 16-bit counter wraps, clear the marks (once
  ** every 32767 searches, so the amortised cost is negligible). */
  ws->gen = (uint16_t)(ws->gen + 2u);
  if (ws->gen == 0) {
    memset(ws->mark, 0, (size_t)ws->capacity * sizeof(uint16_t));
    ws->gen = 2;
  }
  ws->seq = 0;
  ws->open.len = 0;

  astar__node *s = &ws->node[q.start];
  s->g = 0.0;
  s->parent = ASTAR__NO_PARENT;
  ws->mark[q.start] = ws->gen;
  const double h0 = heuristic(&q, q.hkind, q.sx, q.sy);
  astar__heap_push(&ws->open, ws->node,
                   make_entry(h0, tie_key(&q, q.tie, 0.0, q.sx, q.sy, 0), q.start));
  ws->seq = 1;
  q.stats.generated = 1;
  q.stats.max_open = 1;

  if (q.start == q.goal) {
    /* Trivial path: nothing is expanded (documented outcome). */
    q.stats.generated = 0;
    q.stats.max_open = 0;
    ws->open.len = 0;
    st = ASTAR_OK;
  } else {
    st = run_search(ws, &q);
  }
  if (result) result->stats = q.stats;
  if (st != ASTAR_OK) return st;

  ws->found = true;
  ws->last_goal = q.goal;
  ws->last_stride = grid->stride;
  ws->last_len = path_length(ws);
  if (result) {
    result->cost = ws->node[q.goal].g;
    result->length = ws->last_len;
  }
  if (ws->last_len > cap) return ASTAR_BUFFER_TOO_SMALL;
  write_path(ws, path, ws->last_len);
  return ASTAR_OK;
}

astar_status astar_workspace_path(const astar_workspace *ws, astar_point *path, size_t cap,
                                  size_t *len) {
  if (!ws || !len || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  if (!ws->found) {
    *len = 0;
    return ASTAR_NO_PATH;
  }
  *len = ws->last_len;
  if (ws->last_len > cap) return ASTAR_BUFFER_TOO_SMALL;
  write_path(ws, path, ws->last_len);
  return ASTAR_OK;
}

/* ---- path checking ---------------------------------------------------------- */

astar_status astar_path_cost(const astar_grid *grid, const astar_options *opt,
                             const astar_point *path, size_t n, double *cost, size_t *bad_index) {
  astar_options defaults;
  if (bad_index) *bad_index = 0;
  if (!grid || !cost || (n > 0 && !path) || n == 0) return ASTAR_INVALID_ARGUMENT;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  const int rule = rule_of(opt);
  double total = 0.0;
  for (size_t i = 0; i < n; i++) {
    const astar_point p = path[i];
    if (!astar_grid_passable(grid, p.x, p.y)) goto bad;
    if (i == 0) continue;
    const astar_point a = path[i - 1];
    const int dx = p.x - a.x, dy = p.y - a.y;
    int d = -1;
    for (int k = 0; k < 8; k++)
      if (astar__dir_dx[k] == dx && astar__dir_dy[k] == dy) d = k;
    if (d < 0) goto bad;
    const unsigned nb = grid->nb[astar__index(grid, a.x, a.y)];
    if (!move_allowed(rule, nb, d)) goto bad;
    const double c = d < 4 ? opt->straight_cost : opt->diagonal_cost;
    total += grid->terrain ? c * (double)grid->terrain[astar__index(grid, p.x, p.y)] : c;
    continue;
  bad:
    if (bad_index) *bad_index = i;
    return ASTAR_INVALID_ARGUMENT;
  }
  *cost = total;
  return ASTAR_OK;
}
