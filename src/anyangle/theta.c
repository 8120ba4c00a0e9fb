/*
** anyangle/theta.c -- Theta* and Lazy Theta* (astar/anyangle.h): A* over
** the cells whose parent links may skip any number of cells, the parent
** being any earlier node in sight.
**
** They use the grid searches' workspace as it is: node records (g, heap
** position, parent) indexed by padded cell, generation marks, the 4-ary
** open list with (f, tie << 32 | node) keys. A parent link here joins two
** cells in sight rather than neighbours, so the workspace's "last path" is
** cleared: astar_workspace_path could not walk it.
**
** Theta* (Nash et al. 2007): relaxing neighbour s of the expanded u, path 2
** goes straight from u's parent to s when that parent sees s, path 1 via u
** otherwise. Lazy Theta* (Nash, Koenig & Tovey 2010) takes path 2 without
** looking and checks the sight once, when s is expanded; if it fails, s's
** parent becomes its cheapest closed neighbour (ties: the first in the
** neighbour order), which exists because the node that generated s is one.
*/
#include "core/heap.h"
#include "anyangle/checked.h"
#include "core/loop.h"
#include "core/workspace.h"
#include "paths/sight.h"
#include "search/query.h"

#include "astar/anyangle.h"

#include <string.h>

/* A search's fixed inputs, resolved once. */
typedef struct theta {
  const astar_grid *grid;
  astar_workspace *ws;
  astar_corner corner;     /* the sight rule (astar__sight_corner) */
  const uint8_t *moves;    /* legal-move mask per neighbour byte (ws->moves[rule]) */
  double scale;            /* straight_cost: cost of one unit of length */
  double hw;               /* weight x straight_cost: the heuristic's factor */
  astar_tie tie;           /* tie order (CROSS runs as LARGER_G) */
  int32_t gx, gy;          /* goal cell */
  uint64_t limit;          /* max_expansions, 0: none */
  astar_observer_fn obs;   /* observer or NULL */
  void *obs_ctx;           /* its context */
  astar_anyangle_result r; /* statistics so far */
} theta;

ASTAR__INLINE astar_point cell_of(const theta *t, uint32_t p) {
  return astar__cell_of(p, t->grid->stride);
}

ASTAR__INLINE double h_of(const theta *t, astar_point c) {
  return t->hw * astar__centre_distance(c, (astar_point){t->gx, t->gy});
}

/* Heap entry of node p with cost g: f = g + h, then the tie key. */
ASTAR__INLINE astar__hent entry(const theta *t, uint32_t p, double g, double f) {
  return astar__entry(f, astar__tie_key(t->tie, g, t->ws->seq), p);
}

static void emit(const theta *t, astar_event_type type, uint32_t p, double g, double h) {
  astar__emit_cell(t->obs, t->obs_ctx, t->grid->stride, 1, type, p, t->ws->node[p].parent, g, h,
                   g + h, t->r.stats.expanded);
}

ASTAR__INLINE bool sight(theta *t, uint32_t a, uint32_t b) {
  t->r.sight_checks++;
  return astar__sees(t->grid, t->corner, cell_of(t, a), cell_of(t, b));
}

ASTAR__INLINE double dist(const theta *t, uint32_t a, uint32_t b) {
  return t->scale * astar__centre_distance(cell_of(t, a), cell_of(t, b));
}

/* Offer node s the parent `par` at cost g: push it, or lower it in the open
** list. Closed nodes are never touched (the caller skips them). */
static void offer(theta *t, uint32_t s, uint32_t par, double g) {
  astar_workspace *ws = t->ws;
  astar__node *n = &ws->node[s];
  const bool seen = ws->mark[s] == ws->gen;
  if (seen && !(g < n->g)) return;
  n->g = g;
  n->parent = par;
  const double h = h_of(t, cell_of(t, s));
  const astar__hent e = entry(t, s, g, g + h);
  /* Closed nodes never come here: PUSH or IMPROVE. */
  const astar_event_type what =
      astar__open_put(&ws->open, ws->node, ws->mark, ws->gen, ws->mark[s], s, e, &t->r.stats);
  astar__count_open(&t->r.stats, ws->open.len);
  ws->seq++;
  if (t->obs) emit(t, what, s, g, h);
}

/* Lazy Theta*'s check at expansion: if s's assumed parent is out of sight,
** re-parent s to its cheapest closed neighbour. */
static void set_vertex(theta *t, uint32_t s) {
  astar_workspace *ws = t->ws;
  astar__node *n = &ws->node[s];
  if (n->parent == ASTAR__NO_PARENT || sight(t, n->parent, s)) return;
  const uint16_t closed = (uint16_t)(ws->gen + ASTAR__CLOSED);
  const int32_t stride = t->grid->stride;
  unsigned m = t->moves[t->grid->nb[s]];
  double best = 0.0;
  uint32_t arg = ASTAR__NO_PARENT;
  for (int d = 0; d < 8; d++) {
    if (!(m & (1u << d))) continue;
    const uint32_t v = (uint32_t)((int32_t)s + astar__dir_dy[d] * stride + astar__dir_dx[d]);
    if (ws->mark[v] != closed) continue;
    const double g = ws->node[v].g + dist(t, v, s);
    if (arg == ASTAR__NO_PARENT || g < best) {
      best = g;
      arg = v;
    }
  }
  /* The generating node is a closed neighbour in sight, so arg is set. */
  if (arg != ASTAR__NO_PARENT) {
    n->g = best;
    n->parent = arg;
  }
}

/* Check the options and endpoints; ASTAR_OK when the search can run. The
** option values themselves were validated by the caller. */
static astar_status check(const astar_workspace *ws, const astar_grid *grid, const astar_options *o,
                          astar_anyangle_method method, astar_point start, astar_point goal) {
  if (method != ASTAR_ANYANGLE_THETA && method != ASTAR_ANYANGLE_LAZY_THETA)
    return ASTAR_INVALID_ARGUMENT;
  if (grid->terrain || o->layers || o->nlayers || o->knowledge || o->islands ||
      o->turn_penalty > 0 || o->partial || o->stop_fn || o->terrain_scale != 1.0 ||
      o->heuristic != ASTAR_H_AUTO || o->algorithm != ASTAR_ALGO_ASTAR)
    return ASTAR_UNSUPPORTED;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (ws->capacity < grid->ncells) return ASTAR_CAPACITY;
  if (!grid->pass[astar__index(grid, start.x, start.y)]) return ASTAR_START_BLOCKED;
  if (!grid->pass[astar__index(grid, goal.x, goal.y)]) return ASTAR_GOAL_BLOCKED;
  return ASTAR_OK;
}

/* The search proper: ASTAR_OK with the goal closed, or NO_PATH / LIMIT_REACHED. */
static astar_status run(theta *t, astar_anyangle_method method, uint32_t s0, uint32_t goal) {
  astar_workspace *ws = t->ws;
  const uint16_t closed = (uint16_t)(ws->gen + ASTAR__CLOSED);
  const int32_t stride = t->grid->stride;
  astar__node *nd = ws->node;
  nd[s0].g = 0.0;
  nd[s0].parent = ASTAR__NO_PARENT;
  ws->mark[s0] = ws->gen;
  const double h0 = h_of(t, cell_of(t, s0));
  astar__heap_push(&ws->open, nd, entry(t, s0, 0.0, h0));
  ws->seq = 1;
  astar__count_root(&t->r.stats);
  if (t->obs) emit(t, ASTAR_EVENT_PUSH, s0, 0.0, h0);
  while (ws->open.len) {
    if (t->limit && t->r.stats.expanded >= t->limit) return ASTAR_LIMIT_REACHED;
    const uint32_t u = ASTAR__HNODE(astar__heap_pop(&ws->open, nd));
    ws->mark[u] = closed;
    if (method == ASTAR_ANYANGLE_LAZY_THETA) set_vertex(t, u);
    astar__count_expand(&t->r.stats);
    if (u == goal) {
      if (t->obs) emit(t, ASTAR_EVENT_GOAL, u, nd[u].g, 0.0);
      return ASTAR_OK;
    }
    if (t->obs) emit(t, ASTAR_EVENT_EXPAND, u, nd[u].g, h_of(t, cell_of(t, u)));
    const uint32_t pu = nd[u].parent;
    const unsigned m = t->moves[t->grid->nb[u]];
    for (int d = 0; d < 8; d++) {
      if (!(m & (1u << d))) continue;
      const uint32_t s = (uint32_t)((int32_t)u + astar__dir_dy[d] * stride + astar__dir_dx[d]);
      if (ws->mark[s] == closed) continue;
      if (pu != ASTAR__NO_PARENT && (method == ASTAR_ANYANGLE_LAZY_THETA || sight(t, pu, s)))
        offer(t, s, pu, nd[pu].g + dist(t, pu, s)); /* path 2: straight from u's parent */
      else
        offer(t, s, u, nd[u].g + dist(t, u, s)); /* path 1: through u */
    }
  }
  return ASTAR_NO_PATH;
}

astar_status astar_anyangle_find_path(astar_workspace *ws, const astar_grid *grid,
                                      const astar_options *opt, astar_anyangle_method method,
                                      astar_point start, astar_point goal, astar_point *path,
                                      size_t cap, astar_anyangle_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!ws || !grid || (!path && cap)) return ASTAR_INVALID_ARGUMENT;
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults); /* valid by construction */
    opt = &defaults;
  } else if (astar_options_validate(opt) != ASTAR_OK) { /* the one validation of the query */
    return ASTAR_INVALID_ARGUMENT;
  }
  return astar__anyangle_find_path_checked(ws, grid, opt, method, start, goal, path, cap, result);
}

astar_status astar__anyangle_find_path_checked(astar_workspace *ws, const astar_grid *grid,
                                               const astar_options *opt,
                                               astar_anyangle_method method, astar_point start,
                                               astar_point goal, astar_point *path, size_t cap,
                                               astar_anyangle_result *result) {
  theta t;
  memset(&t, 0, sizeof t);
  if (result) *result = t.r;
  const astar_options o = *opt;
  astar_status st = check(ws, grid, &o, method, start, goal);
  if (st != ASTAR_OK) return st;

  /* Whatever ran on ws before is over: its records are about to change. */
  astar__workspace_claim(ws);
  astar__records_next(ws);

  t.grid = grid;
  t.ws = ws;
  t.corner = astar__sight_corner(&o);
  t.moves = ws->moves[astar__rule_of(&o)];
  t.scale = o.straight_cost;
  t.hw = o.weight * o.straight_cost;
  t.tie = o.tie == ASTAR_TIE_NEWEST ? ASTAR_TIE_NEWEST : ASTAR_TIE_LARGER_G;
  t.gx = goal.x;
  t.gy = goal.y;
  t.limit = o.max_expansions;
  t.obs = o.observer;
  t.obs_ctx = o.observer_ctx;

  const uint32_t s0 = astar__index(grid, start.x, start.y), g0 = astar__index(grid, goal.x, goal.y);
  st = run(&t, method, s0, g0);
  if (st == ASTAR_OK) {
    /* The linked cells, in sight of each other: no cells filled in. */
    const size_t n = astar__chain_length(ws->node, g0);
    t.r.length = n;
    t.r.cost = ws->node[g0].g;
    if (n > cap)
      st = ASTAR_BUFFER_TOO_SMALL;
    else
      astar__chain_write_cells(ws->node, g0, grid->stride, 1, path, n, n, true, false);
  }
  if (result) *result = t.r;
  return st;
}
