/*
** coop.c -- cooperative A* (Silver 2005) over (cell, time) states
** (astar/spacetime.h): full, up to a horizon, or windowed (WHCA*).
**
** Every successor of (u, t) is at time t + 1: waiting in u, or a legal
** move to a neighbour v. A successor is dropped when another agent holds
** (v, t + 1) -- a reservation, or a goal held for ever -- or holds the
** reverse move v -> u at time t (a swap). The heuristic is the cost to
** the goal ignoring other agents: a distance field (astar/field.h, exact,
** consistent: Silver's "true distance" heuristic) or the octile /
** Manhattan distance scaled by the smallest terrain. Both are consistent
** for waits too (a wait costs >= 0 and keeps h), so no state is reopened.
**
** When does a search end? Full: popping the goal at a time t after which
** no other agent occupies the goal (computed once: the latest such time);
** states at t0 + horizon are not expanded (the horizon cut), which turns an
** exhausted open list into ASTAR_LIMIT_REACHED. Windowed: popping a state
** at time t0 + W (its f = cost so far + distance from there: the abstract
** rest of the route), or the goal when nobody else needs it up to t0 + W.
** Such end states are popped in f order, so the result minimises
** cost + remaining distance.
*/
#include "dynamic/spacetime.h"
#include "core/loop.h"
#include "search/query.h"

#include <math.h>
#include <string.h>

void astar_coop_query_init(astar_coop_query *q) {
  if (!q) return;
  memset(q, 0, sizeof *q);
  q->horizon = 1024;
  q->wait_cost = -1.0;
}

static void clear_result(astar_coop_result *r) {
  if (r) memset(r, 0, sizeof *r);
}

/* Options this search cannot honour. */
static bool unsupported(const astar_options *o) {
  return o->turn_penalty > 0.0 || (o->layers && o->nlayers > 0) || o->knowledge || o->islands ||
         o->terrain_scale != 1.0 || o->partial || o->stop_fn || o->observer ||
         o->algorithm != ASTAR_ALGO_ASTAR;
}

typedef struct coop_ctx {
  const astar_grid *g;
  const astar_field *field;
  astar_point goal;
  double ha, hb; /* built-in heuristic: ha * max + hb * min (see h_of) */
  bool diag;
} coop_ctx;

/* Distance from (x, y) to the goal ignoring other agents. */
static inline double h_of(const coop_ctx *c, int32_t x, int32_t y) {
  if (c->field) return astar_field_cost(c->field, x, y);
  const int32_t dx = x > c->goal.x ? x - c->goal.x : c->goal.x - x;
  const int32_t dy = y > c->goal.y ? y - c->goal.y : c->goal.y - y;
  const double mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
  return c->diag ? c->ha * mx + c->hb * mn : c->ha * (mx + mn);
}

/* ha, hb of the built-in distance: a lower bound of the cost on an open
** grid times the smallest terrain factor. Diagonal moves: with d >= s,
** s * (max - min) + min(d, 2s) * min; with d < s, d * max. */
static void setup_h(coop_ctx *c, const astar_options *o) {
  const double s = o->straight_cost, d = o->diagonal_cost;
  const double m = (double)c->g->min_terrain;
  c->diag = astar__diagonals_on(o);
  if (!c->diag) {
    c->ha = s * m;
    c->hb = 0.0;
  } else if (d >= s) {
    c->ha = s * m;
    c->hb = ((d < 2.0 * s ? d : 2.0 * s) - s) * m;
  } else {
    c->ha = d * m;
    c->hb = 0.0;
  }
}

/* Is the goal free of other agents at every time in [from, to]? */
static bool goal_free(const astar_reservations *res, uint32_t goal, uint32_t from, uint32_t to,
                      uint32_t me) {
  if (!res) return true;
  for (uint32_t t = from;; t++) {
    if (astar__rsv_vertex_other(res, goal, t, me) != ASTAR_AGENT_NONE) return false;
    if (t == to) return true;
  }
}

astar_status astar_coop_find_path(astar_spacetime_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, const astar_reservations *res,
                                  const astar_coop_query *q, astar_point *path, size_t cap,
                                  astar_coop_result *result) {
  clear_result(result);
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (!ws || !grid || !q || (cap > 0 && !path) || q->agent == ASTAR_AGENT_NONE)
    return ASTAR_INVALID_ARGUMENT;
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  const double wait = q->wait_cost < 0.0 ? opt->straight_cost : q->wait_cost;
  if (!(wait <= ASTAR_OPTION_MAX) || q->t0 > ASTAR_TIME_MAX) return ASTAR_INVALID_ARGUMENT;
  const bool windowed = q->window > 0;
  const uint32_t span = windowed ? q->window : q->horizon;
  if (span == 0 || span > ASTAR_TIME_MAX - q->t0) return ASTAR_INVALID_ARGUMENT;
  if (unsupported(opt)) return ASTAR_UNSUPPORTED;
  if (!astar_grid_contains(grid, q->start.x, q->start.y) ||
      !astar_grid_contains(grid, q->goal.x, q->goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (q->field) {
    const astar_point fg = astar_field_goal(q->field);
    if (fg.x != q->goal.x || fg.y != q->goal.y) return ASTAR_MISMATCH;
    const astar_status fs = astar_field_path(q->field, grid, fg, NULL, 0, NULL);
    if (fs == ASTAR_STALE) return ASTAR_STALE;
    if (fs == ASTAR_INVALID_ARGUMENT) return ASTAR_MISMATCH;
  }
  const uint32_t me = q->agent;
  const uint32_t start_key = astar__rsv_pack(q->start.x, q->start.y);
  const uint32_t goal_key = astar__rsv_pack(q->goal.x, q->goal.y);
  if (!astar_grid_passable(grid, q->start.x, q->start.y) ||
      (res && astar__rsv_vertex_other(res, start_key, q->t0, me) != ASTAR_AGENT_NONE))
    return ASTAR_START_BLOCKED;
  if (!astar_grid_passable(grid, q->goal.x, q->goal.y)) return ASTAR_GOAL_BLOCKED;

  const uint32_t t_end = q->t0 + span;
  /* Full search: the goal may be kept from any time after `settle` (the
  ** last time another agent is there); UINT32_MAX: never. */
  bool settle_any = true; /* no other agent ever on the goal from t0 on */
  uint32_t settle = 0;
  if (!windowed && res) {
    uint32_t from = 0;
    const uint32_t h = astar__rsv_find(res, goal_key, ASTAR__RSV_HOLD, 0, &from);
    if (h != ASTAR_AGENT_NONE && h != me) return ASTAR_GOAL_BLOCKED;
    for (uint32_t t = q->t0; t <= res->max_t; t++) {
      const uint32_t a = astar__rsv_find(res, goal_key, ASTAR__RSV_VERTEX, t, NULL);
      if (a != ASTAR_AGENT_NONE && a != me) {
        settle_any = false;
        settle = t;
      }
    }
  }

  coop_ctx c = {grid, q->field, q->goal, 0, 0, false};
  setup_h(&c, opt);
  const uint8_t *const allowed = astar__st_moves(ws, astar__rule_of(opt));
  int32_t off[8];
  double cost_d[8];
  for (int d = 0; d < 8; d++) {
    off[d] = astar__dir_dy[d] * grid->stride + astar__dir_dx[d];
    cost_d[d] = d < 4 ? opt->straight_cost : opt->diagonal_cost;
  }
  const float *const ter = grid->terrain;
  const uint32_t goal_idx = astar__index(grid, q->goal.x, q->goal.y);

  astar__st_begin(ws);
  astar_stats stats = {0};
  bool created;
  uint32_t s = astar__st_state(ws, astar__index(grid, q->start.x, q->start.y), q->t0, &created);
  const double hs = h_of(&c, q->start.x, q->start.y);
  if (hs == INFINITY) return ASTAR_NO_PATH;
  ws->node[s].g = 0.0;
  ws->node[s].f = hs;
  astar__st_push_or_lower(ws, s);
  astar__count_root(&stats);

  astar_status st = ASTAR_NO_PATH;
  bool cut = false;
  uint32_t found = ASTAR__NO_PARENT;
  while (ws->nheap > 0) {
    if (opt->max_expansions && stats.expanded >= opt->max_expansions) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    const uint32_t u = astar__st_pop(ws);
    astar__count_expand(&stats);
    const astar__stnode nu = ws->node[u];
    const int32_t ux = (int32_t)(nu.cell % (uint32_t)grid->stride) - 1;
    const int32_t uy = (int32_t)(nu.cell / (uint32_t)grid->stride) - 1;
    if (windowed) {
      if (nu.t == t_end || (nu.cell == goal_idx && goal_free(res, goal_key, nu.t, t_end, me))) {
        found = u;
        break;
      }
    } else {
      if (nu.cell == goal_idx && (settle_any || nu.t > settle)) {
        found = u;
        break;
      }
      if (nu.t == t_end) {
        cut = true;
        continue;
      }
    }
    const uint32_t t1 = nu.t + 1;
    const uint32_t ukey = astar__rsv_pack(ux, uy);
    const unsigned mask = allowed[grid->nb[nu.cell]];
    /* Wait first (k = -1), then the directions N, E, S, W, NE, SE, SW, NW. */
    for (int k = -1; k < 8; k++) {
      uint32_t v;
      int32_t vx, vy;
      double step;
      if (k < 0) {
        v = nu.cell;
        vx = ux;
        vy = uy;
        step = wait;
      } else {
        if (!(mask & (1u << k))) continue;
        v = (uint32_t)((int32_t)nu.cell + off[k]);
        vx = ux + astar__dir_dx[k];
        vy = uy + astar__dir_dy[k];
        step = cost_d[k] * (ter ? (double)ter[v] : 1.0);
      }
      const uint32_t vkey = k < 0 ? ukey : astar__rsv_pack(vx, vy);
      if (res) {
        if (astar__rsv_vertex_other(res, vkey, t1, me) != ASTAR_AGENT_NONE) continue;
        if (k >= 0) {
          const uint32_t back = (uint32_t)(ASTAR__RSV_MOVE + ASTAR__OPPOSITE(k));
          const uint32_t a = astar__rsv_find(res, vkey, back, nu.t, NULL);
          if (a != ASTAR_AGENT_NONE && a != me) continue;
        }
      }
      const double hv = h_of(&c, vx, vy);
      if (hv == INFINITY) continue;
      const double gv = nu.g + step;
      const uint32_t id = astar__st_state(ws, v, t1, &created);
      if (id == ASTAR__NO_PARENT) {
        st = ASTAR_CAPACITY;
        goto out;
      }
      astar__stnode *n = &ws->node[id];
      if (n->pos == ASTAR__ST_CLOSED || !(gv < n->g)) continue;
      n->g = gv;
      n->f = gv + hv;
      n->parent = u;
      if (astar__st_push_or_lower(ws, id) == ASTAR_EVENT_PUSH)
        astar__count_push(&stats);
      else
        astar__count_improve(&stats);
      astar__count_open(&stats, ws->nheap);
    }
  }
  if (found == ASTAR__NO_PARENT && st == ASTAR_NO_PATH && cut) st = ASTAR_LIMIT_REACHED;
out:
  if (result) result->stats = stats;
  if (found == ASTAR__NO_PARENT) return st;

  const astar__stnode *e = &ws->node[found];
  const size_t len = (size_t)(e->t - q->t0) + 1;
  if (result) {
    result->cost = e->g;
    result->estimate = e->f;
    result->length = len;
    result->at_goal = e->cell == goal_idx;
    result->arrival = e->t;
  }
  if (len > cap) return ASTAR_BUFFER_TOO_SMALL;
  size_t k = len;
  for (uint32_t id = found; id != ASTAR__NO_PARENT; id = ws->node[id].parent) {
    const uint32_t cell = ws->node[id].cell;
    path[--k] = (astar_point){(int32_t)(cell % (uint32_t)grid->stride) - 1,
                              (int32_t)(cell / (uint32_t)grid->stride) - 1};
  }
  return ASTAR_OK;
}
