/*
** cpd/query.c -- answering a query from the CPD: find the goal's node in
** the current cell's row by a branchless binary search over the runs'
** first targets, take that run's move, repeat until the goal; on a big
** table the rows of the cell's neighbours are prefetched meanwhile. No
** search, no workspace, no allocation; the object is only read, so queries
** may run in parallel.
**
** Every run's move is legal from its source (checked when built, and when
** loaded), so the walk stays on passable cells of one component. A loaded
** table that passed the checksum but was crafted could still cycle: a walk
** longer than the node count cannot be a shortest path and ends with
** ASTAR_PARSE_ERROR.
*/
#include "cpd/cpd.h"

#include "search/query.h"

/* Runs (4 bytes each) above which a table is taken as far bigger than the
** caches and the walk prefetches (1 MiB of runs: measured on den312d, 0.2
** MB, prefetching costs 25%; on den520d, 7 MB, it saves 40%). */
#define CPD_PREFETCH_RUNS (1u << 18)

/* The node of p, or the status saying why it has none. */
static astar_status locate(const astar_cpd *cpd, astar_point p, astar_status blocked,
                           uint32_t *node) {
  if (p.x < 0 || p.y < 0 || p.x >= cpd->width || p.y >= cpd->height) return ASTAR_OUT_OF_BOUNDS;
  const uint32_t cell = (uint32_t)(p.y + 1) * (uint32_t)cpd->stride + (uint32_t)(p.x + 1);
  *node = cpd->order.node_of[cell];
  return *node == ASTAR__CPD_NONE ? blocked : ASTAR_OK;
}

/* Common checks of both queries; *s and *t the endpoints' nodes. */
static astar_status endpoints(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                              astar_point goal, uint32_t *s, uint32_t *t) {
  if (cpd->grid != grid || cpd->width != grid->width || cpd->height != grid->height)
    return ASTAR_MISMATCH;
  if (cpd->version != grid->version) return ASTAR_STALE;
  astar_status st = locate(cpd, start, ASTAR_START_BLOCKED, s);
  if (st == ASTAR_OK) st = locate(cpd, goal, ASTAR_GOAL_BLOCKED, t);
  if (st == ASTAR_OK && cpd->order.comp[*s] != cpd->order.comp[*t]) st = ASTAR_NO_PATH;
  return st;
}

/* The move of the last run in row u whose first target is <= t (run 0
** starts at 0): a branchless binary search over the packed runs, compared
** with t's largest packed value, so its time does not depend on the data.
** Sets *bad for an empty row. */
ASTAR__INLINE int first_move(const astar_cpd *cpd, uint32_t u, uint32_t t, bool *bad) {
  const uint32_t *base = cpd->runs + cpd->row[u];
  size_t cnt = (size_t)(cpd->row[u + 1] - cpd->row[u]);
  if (cnt == 0) {
    *bad = true;
    return 0;
  }
  const uint32_t key = ASTAR__CPD_RUN(t, 7u);
  while (cnt > 1) {
    const size_t half = cnt / 2;
    base = base[half] <= key ? base + half : base;
    cnt -= half;
  }
  return (int)ASTAR__CPD_MOVE(*base);
}

/* Walk from s to t, writing cells 1 .. into path[] while they fit cap.
** *a, *b: straight and diagonal steps. */
static astar_status walk(const astar_cpd *cpd, uint32_t s, uint32_t t, astar_point *path,
                         size_t cap, size_t *a, size_t *b) {
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = astar__dir_dy[d] * cpd->stride + astar__dir_dx[d];
  const uint32_t *const node_of = cpd->order.node_of;
  const uint8_t *const legal = cpd->order.legal;
  const bool far = cpd->row[cpd->order.n] > CPD_PREFETCH_RUNS;
  size_t na = 0, nb = 0;
  uint32_t u = s, cell = cpd->order.cell_of[s];
  /* The cell's coordinates follow the moves (no division a step). */
  int32_t x = (int32_t)(cell % (uint32_t)cpd->stride) - 1;
  int32_t y = (int32_t)(cell / (uint32_t)cpd->stride) - 1;
  bool bad = false;
  while (u != t) {
    if (na + nb >= cpd->order.n) return ASTAR_PARSE_ERROR;
    /* The next node is one of u's neighbours: on a table far bigger than
    ** the caches, start loading their rows' first search steps while u's
    ** row is searched (a path's rows are scattered over the table). On a
    ** small table that only costs time. */
    if (far)
      for (unsigned m = legal[u]; m; m &= m - 1) {
        const uint32_t v = node_of[(uint32_t)((int32_t)cell + off[__builtin_ctz(m)])];
        const uint64_t r0 = cpd->row[v], c = cpd->row[v + 1] - r0;
        __builtin_prefetch(cpd->runs + r0 + c / 2);
        __builtin_prefetch(cpd->runs + r0 + c / 4);
        __builtin_prefetch(cpd->runs + r0 + c - c / 4);
      }
    const int d = first_move(cpd, u, t, &bad);
    if (bad) return ASTAR_PARSE_ERROR;
    cell = (uint32_t)((int32_t)cell + off[d]);
    u = node_of[cell];
    x += astar__dir_dx[d];
    y += astar__dir_dy[d];
    if (d < 4)
      na++;
    else
      nb++;
    if (path && na + nb < cap) {
      path[na + nb].x = x;
      path[na + nb].y = y;
    }
  }
  *a = na;
  *b = nb;
  return ASTAR_OK;
}

astar_status astar_cpd_path(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                            astar_point goal, astar_point *path, size_t cap, size_t *len,
                            double *cost) {
  if (!len) return ASTAR_INVALID_ARGUMENT;
  *len = 0;
  if (cost) *cost = 0.0;
  if (!cpd || !grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t s, t;
  astar_status st = endpoints(cpd, grid, start, goal, &s, &t);
  if (st != ASTAR_OK) return st;
  if (path && cap > 0) path[0] = start;
  size_t a, b;
  st = walk(cpd, s, t, path, cap, &a, &b);
  if (st != ASTAR_OK) return st;
  *len = a + b + 1;
  if (cost) *cost = (double)a + (double)b * ASTAR__SQRT2;
  return !path || cap < *len ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK;
}

astar_status astar_cpd_distance(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                                astar_point goal, double *cost, size_t *steps) {
  if (cost) *cost = 0.0;
  if (steps) *steps = 0;
  if (!cpd || !grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t s, t;
  astar_status st = endpoints(cpd, grid, start, goal, &s, &t);
  if (st != ASTAR_OK) return st;
  size_t a, b;
  st = walk(cpd, s, t, NULL, 0, &a, &b);
  if (st != ASTAR_OK) return st;
  if (steps) *steps = a + b;
  if (cost) *cost = (double)a + (double)b * ASTAR__SQRT2;
  return ASTAR_OK;
}
