/*
** search/query.c -- the steps every grid search shares (A*, JPS, JPS+, the
** turn-penalty search): resolving the options into a query, opening a new
** generation of the workspace's records, events, and the end of a search --
** the path rebuilt from parent links (which may skip cells along straight
** and diagonal lines) into the caller's buffer, its cost checked link by
** link. Events, statistics, tie keys and the path's layout are core/loop.h's,
** shared with the engine and Theta*.
*/
#include "core/loop.h"
#include "core/workspace.h"
#include "search/general.h"

#include <float.h>
#include <math.h>

/* ---- begin / end ----------------------------------------------------------------- */

static astar_status check_endpoint(const astar_grid *g, astar_point p) {
  return astar_grid_contains(g, p.x, p.y) ? ASTAR_OK : ASTAR_OUT_OF_BOUNDS;
}

/*
** Exact uniform costs. The searches add move costs one at a time (g) and
** evaluate the heuristic in one go (h); in floating point the two roundings
** differ, so on a large map nodes of the same optimal tie front get f values
** a few ulps apart, the larger-g tie order stops steering, and A* fans out
** over the whole front (an open 16384 x 2048 map: 23.7 M expansions for a
** 16,384-cell path). So on a grid without terrain the two move costs are
** rounded to multiples of a power of two, the quantum 2^e with
** e = C + E - 52, where 2^C > cells (width x height) and 2^E > the larger
** cost. Every g (at most cells - 1 moves), every built-in h (at most
** width + height moves' worth, each term a cost times a count) and every
** g + h is then a multiple of the quantum below 2^53 quanta: a double holds
** it exactly, whatever the order of the additions, on every platform.
** Routes with the same numbers of straight and diagonal moves have
** bit-identical g; nodes of one optimal tie front have bit-identical f.
**
** The rounding moves a cost by at most half a quantum: relative 2^(C-53) at
** most (6e-8 on the largest grid, 1e-11 on 512 x 512), so two routes with
** different move counts keep their true order unless their costs differ by
** less than that; astar__end reports the path's cost with the caller's own
** costs (exact_cost). Costs already on the quantum (integers, halves, ...)
** are unchanged. A cost so small beside the other that rounding would move
** it by more than 2^-20 of itself, and terrain (whose float factors make
** sums inexact anyway), keep the costs as given.
*/
static double on_quantum(double c, double quantum) {
  const double n = floor(c / quantum + 0.5); /* c / quantum < 2^52: exact */
  return n * quantum == c || n >= 0x1p19 ? n * quantum : -1.0;
}

void astar__move_costs(const astar_grid *grid, const astar_options *opt, double cost[8]) {
  double s = opt->straight_cost, d = opt->diagonal_cost;
  int cexp, mexp;
  (void)frexp((double)grid->width * (double)grid->height, &cexp); /* cells < 2^cexp */
  (void)frexp(fmax(s, d), &mexp);                                 /* costs < 2^mexp */
  const double quantum = ldexp(1.0, cexp + mexp - 52);
  if (!grid->terrain && quantum >= DBL_MIN) {
    const double qs = on_quantum(s, quantum), qd = on_quantum(d, quantum);
    if (qs > 0.0 && qd > 0.0) s = qs, d = qd;
  }
  for (int i = 0; i < 8; i++) cost[i] = i < 4 ? s : d;
}

astar_status astar__prepare(astar__query *q, astar__features *fx, const astar_workspace *ws,
                            const astar_grid *grid, const astar_options *opt, astar_point start,
                            astar_point goal) {
  astar_status st;
  if (grid->ncells > ws->capacity) return ASTAR_CAPACITY;
  if ((st = check_endpoint(grid, start)) != ASTAR_OK) return st;
  if ((st = check_endpoint(grid, goal)) != ASTAR_OK) return st;
  if (!astar_grid_passable(grid, start.x, start.y)) return ASTAR_START_BLOCKED;
  if (!astar_grid_passable(grid, goal.x, goal.y)) return ASTAR_GOAL_BLOCKED;

  memset(q, 0, sizeof *q);
  memset(fx, 0, sizeof *fx);
  q->fx = fx;
  q->grid = grid;
  q->start = astar__index(grid, start.x, start.y);
  q->goal = astar__index(grid, goal.x, goal.y);
  q->sx = start.x + 1;
  q->sy = start.y + 1;
  q->gx = goal.x + 1;
  q->gy = goal.y + 1;
  q->tie = opt->tie;
  q->max_expansions = opt->max_expansions;
  q->moves = ws->moves[astar__rule_of(opt)];
  q->straight = opt->straight_cost;
  q->diagonal = opt->diagonal_cost;
  astar__move_costs(grid, opt, q->cost);
  for (int d = 0; d < 8; d++) q->off[d] = astar__dir_dy[d] * grid->stride + astar__dir_dx[d];
  astar__setup_heuristic(q, opt, grid);
  return ASTAR_OK;
}

void astar__open(astar__query *q, astar_workspace *ws, bool push_start) {
  astar__workspace_claim(ws); /* the node records are about to change */
  astar__records_next(ws);
  astar__node *s = &ws->node[q->start];
  s->g = 0.0;
  s->parent = ASTAR__NO_PARENT;
  ws->mark[q->start] = ws->gen;
  if (!push_start) return;
  const double h0 = astar__h(q, q->hkind, q->sx, q->sy);
  astar__heap_push(&ws->open, ws->node,
                   astar__entry(h0, astar__tie_key_q(q, q->tie, 0.0, q->sx, q->sy, 0), q->start));
  ws->seq = 1;
  astar__count_root(&q->stats);
}

astar_status astar__begin(astar__query *q, astar_workspace *ws, const astar_grid *grid,
                          const astar_options *opt, astar_point start, astar_point goal,
                          bool *trivial) {
  *trivial = false;
  const astar_status st = astar__prepare(q, &ws->fx, ws, grid, opt, start, goal);
  if (st != ASTAR_OK) return st;
  *trivial = q->start == q->goal; /* documented: one cell, cost 0, nothing expanded */
  astar__open(q, ws, !*trivial);
  return ASTAR_OK;
}

double astar__h_multi(const astar__query *q, int32_t x, int32_t y) {
  double best = INFINITY;
  for (size_t i = 0; i < q->fx->ngoals; i++) {
    const astar_point g = q->fx->goals[i];
    if (!astar_grid_passable(q->grid, g.x, g.y)) continue; /* skipped goals */
    const double h = astar__h_at(q, q->fx->base_hk, x, y, g.x + 1, g.y + 1);
    if (h < best) best = h;
  }
  return best;
}

void astar__emit(const astar__query *q, astar_event_type type, uint32_t node, uint32_t parent,
                 double g, double f, uint32_t per) {
  astar__emit_cell(q->fx->observer, q->fx->observer_ctx, q->grid->stride, per, type, node, parent,
                   g, f - g, f, q->stats.expanded);
}

void astar__observe_start(astar__query *q, const astar_options *opt, bool trivial) {
  q->fx->observer = opt->observer;
  q->fx->observer_ctx = opt->observer_ctx;
  const double h0 = astar__h(q, q->hkind, q->sx, q->sy);
  astar__emit(q, trivial ? ASTAR_EVENT_GOAL : ASTAR_EVENT_PUSH, q->start, ASTAR__NO_PARENT, 0.0, h0,
              1);
}

void astar__emit_scan(const astar__query *q, uint32_t origin, int dx, int dy, int32_t n, double g0,
                      double step) {
  const int32_t stride = q->grid->stride;
  const int32_t oy = (int32_t)(origin / (uint32_t)stride), ox = (int32_t)origin - oy * stride;
  for (int32_t k = 1; k <= n; k++) {
    const int32_t x = ox + k * dx, y = oy + k * dy;
    const double g = g0 + (double)k * step;
    astar__emit(q, ASTAR_EVENT_SCAN, (uint32_t)(y * stride + x), origin, g,
                g + astar__h(q, q->hkind, x, y), 1);
  }
}

/* One cell back from (x, y) towards its parent (px, py) on the route
** between linked cells -- diagonal first, then straight, going forwards, so
** straight first, then diagonal, going back. Returns the direction of the
** forward move into the cell left. */
static unsigned step_back(int32_t *x, int32_t *y, int32_t px, int32_t py) {
  const int32_t rx = px - *x, ry = py - *y;
  const int32_t arx = rx < 0 ? -rx : rx, ary = ry < 0 ? -ry : ry;
  const int32_t sx = arx >= ary ? (rx < 0 ? -1 : 1) : 0;
  const int32_t sy = ary >= arx ? (ry < 0 ? -1 : 1) : 0;
  *x += sx, *y += sy;
  unsigned d = 0; /* the forward move is (-sx, -sy) */
  while (d < 7 && (astar__dir_dx[d] != -sx || astar__dir_dy[d] != -sy)) d++;
  return d;
}

/* Write the last path's cells with index below `keep` (core/loop.h). */
ASTAR__INLINE void write_path(const astar_workspace *ws, astar_point *path, size_t len, size_t keep,
                              const bool all) {
  astar__chain_write_cells(ws->last_nodes, ws->last_goal, ws->last_stride, ws->last_per, path, len,
                           keep, all, true);
}

/*
** Cost of the last path. Normally the goal's g. But after a closed node was
** reopened and lowered, the nodes generated from it keep the g of its old
** route until they are expanded again; a path through them -- a partial
** path, or the goal reached before they were -- follows the new, cheaper
** links, and the goal's g overstates it. So each link's g is checked
** against its parent's g plus the link's steps (the route between linked
** cells is diagonal first, then straight, as the path is drawn:
** astar__chain_write_cells); when one
** is stale the cost is the sum of the steps, walked from the goal back.
** Equality up to 1e-9 relative: a rounding difference is not staleness.
*/
static double chain_cost(const astar__query *q, const astar_workspace *ws) {
  const int32_t stride = ws->last_stride;
  const astar__node *nd = ws->last_nodes;
  const uint32_t per = ws->last_per;
  double cost = 0.0;
  bool stale = false;
  uint32_t s = ws->last_goal;
  int32_t x = (int32_t)(s / per % (uint32_t)stride), y = (int32_t)(s / per / (uint32_t)stride);
  while (nd[s].parent != ASTAR__NO_PARENT) {
    const uint32_t ps = nd[s].parent, p = ps / per;
    const int32_t px = (int32_t)(p % (uint32_t)stride), py = (int32_t)(p / (uint32_t)stride);
    double link = 0.0;
    /* Turn states: the state's direction is the move into it, 8 at the start. */
    if (per > 1 && ps % per != 8 && ps % per != s % per) link += q->fx->turn_penalty;
    while (x != px || y != py) {
      const uint32_t cell = (uint32_t)(y * stride + x);
      link += q->cost[step_back(&x, &y, px, py)] * astar__entry_factor(q, cell);
    }
    const double want = nd[ps].g + link;
    if (fabs(nd[s].g - want) > 1e-9 * fmax(1.0, fabs(want))) stale = true;
    cost += link;
    s = ps;
  }
  return stale ? cost : nd[ws->last_goal].g;
}

/*
** The cost of a path of `moves` moves whose cost in the search's terms is g,
** with the caller's own move costs. On the quantum g = a s' + b d' exactly
** for a path of a straight and b diagonal moves, so b = (g - moves s') /
** (d' - s') is an exact division of exact values, and the cost is a s + b d.
** When b is not a whole number in [0, moves] (terrain, layers, turn
** penalties) g stays; when it is one by coincidence, a s + b d is still
** within the rounding of g (a s' + b d' = g), so nothing is ever worse than g.
*/
static double exact_cost(const astar__query *q, double g, size_t moves) {
  const double s = q->cost[ASTAR__N], d = q->cost[ASTAR__NE];
  if (s == d) return g;
  const double n = (double)moves, b = (g - n * s) / (d - s);
  if (!(b >= 0.0 && b <= n && b == floor(b))) return g;
  return (n - b) * q->straight + b * q->diagonal;
}

astar_status astar__end(astar__query *q, astar_workspace *ws, astar_status st, astar_point *path,
                        size_t cap, astar_result *result) {
  if (result) result->stats = q->stats;
  if (st != ASTAR_OK) return st;
  ws->found = true;
  ws->last_goal = q->goal;
  ws->last_stride = q->grid->stride;
  ws->last_nodes = q->fx->turn_penalty > 0.0 ? ws->turns.node : ws->node;
  ws->last_per = q->fx->turn_penalty > 0.0 ? ASTAR__TURN_STATES : 1;
  ws->last_len = astar__chain_cells(ws->last_nodes, ws->last_goal, ws->last_stride, ws->last_per);
  if (result) {
    /* Without reopening every node's g is the cost of its parent chain. */
    const double g = q->stats.reopened ? chain_cost(q, ws) : ws->last_nodes[q->goal].g;
    result->cost = exact_cost(q, g, ws->last_len - 1);
    result->length = ws->last_len;
  }
  if (ws->last_len > cap) return ASTAR_BUFFER_TOO_SMALL;
  write_path(ws, path, ws->last_len, ws->last_len, true);
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
  write_path(ws, path, ws->last_len, ws->last_len, true);
  return ASTAR_OK;
}

/* astar/path.h: the first cells of the last path, for a holder that keeps
** only K steps of it (Patel 6.4). */
astar_status astar_workspace_path_head(const astar_workspace *ws, astar_point *path, size_t cap,
                                       size_t *copied, size_t *total) {
  if (!ws || !copied || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  if (!ws->found) {
    *copied = 0;
    if (total) *total = 0;
    return ASTAR_NO_PATH;
  }
  const size_t keep = ws->last_len < cap ? ws->last_len : cap;
  if (keep) write_path(ws, path, ws->last_len, keep, false);
  *copied = keep;
  if (total) *total = ws->last_len;
  return ASTAR_OK;
}
