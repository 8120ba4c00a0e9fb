/*
** astar.c -- A* over the cells: the sliced search (begin / step / finish)
** and the one-shot entry points built on it (astar_find_path and friends),
** which also dispatch to the other algorithms.
**
** The loop is written once (search_loop) and instantiated for the common
** configurations with constant arguments, so the compiler removes the
** branches on heuristic kind, terrain, tie mode, open list and the general
** features (several goals, layers, fog of war, deadlines, partial paths)
** from the plain hot path.
*/
#include "core/loop.h"
#include "core/workspace.h"
#include "search/checked.h"
#include "search/general.h"
#include "search/options.h"
#include "search/jps.h"
#include "search/turns.h"

#include <astar/islands.h>
#include <astar/knowledge.h>

enum { OS_HEAP4, OS_HEAP2, OS_BUCKET };

/* ---- the cold buckets of ASTAR_OPEN_BUCKET (see query.h) ------------------ */

ASTAR__INLINE uint64_t bucket_of(const astar__buckets *b, double f) {
  const double k = f * b->inv_width;
  return k < 9.0e18 ? (uint64_t)k : (uint64_t)9.0e18;
}

/* The heap entry of open node v, rebuilt from its g (as it was pushed). */
ASTAR__INLINE astar__hent entry_of(const astar_workspace *ws, const astar__query *q, int hk,
                                   int tie, uint32_t v) {
  const int32_t stride = q->grid->stride;
  const int32_t y = (int32_t)(v / (uint32_t)stride), x = (int32_t)v - y * stride;
  const double g = ws->node[v].g;
  return astar__entry(g + astar__h(q, hk, x, y), astar__tie_key_q(q, tie, g, x, y, ws->aux[v]), v);
}

/* Put open node v (key f, push number seq) into a cold list for bucket k. */
ASTAR__INLINE void cold_add(astar_workspace *ws, uint32_t v, uint64_t k, uint32_t seq) {
  astar__buckets *b = &ws->buckets;
  uint32_t *head;
  if (k - b->base < ASTAR__RING) {
    head = &b->head[k % ASTAR__RING];
    ws->mark[v] = (uint16_t)(ws->gen + ASTAR__COLD_RING);
    b->in_ring++;
  } else {
    head = &b->overflow;
    ws->mark[v] = (uint16_t)(ws->gen + ASTAR__COLD_OVER);
  }
  ws->node[v].pos = *head;
  *head = v;
  ws->aux[v] = seq;
  b->cold++;
}

/* Unlink cold node v whose key was f (its g not yet lowered). */
static void cold_remove(astar_workspace *ws, uint32_t v, double f) {
  astar__buckets *b = &ws->buckets;
  uint32_t *link;
  if (ws->mark[v] == ws->gen + ASTAR__COLD_RING) {
    link = &b->head[bucket_of(b, f) % ASTAR__RING];
    b->in_ring--;
  } else {
    link = &b->overflow;
  }
  while (*link != v) link = &ws->node[*link].pos;
  *link = ws->node[v].pos;
  b->cold--;
}

/* The hot heap and the slot are empty: make the next non-empty bucket hot.
** The caller guarantees b->cold > 0. */
static void advance(astar_workspace *ws, const astar__query *q, int hk, int tie) {
  astar__buckets *b = &ws->buckets;
  const uint16_t open = (uint16_t)(ws->gen + ASTAR__OPEN);
  if (!b->in_ring) {
    /* Only overflow left: jump to its lowest bucket and spread it out. */
    uint64_t lo = UINT64_MAX;
    for (uint32_t v = b->overflow; v != ASTAR__NONE; v = ws->node[v].pos) {
      const astar__hent e = entry_of(ws, q, hk, tie, v);
      double f;
      memcpy(&f, &e.f, sizeof f);
      const uint64_t kv = bucket_of(b, f);
      if (kv < lo) lo = kv;
    }
    b->base = lo;
    uint32_t v = b->overflow;
    b->overflow = ASTAR__NONE;
    b->cold = 0;
    while (v != ASTAR__NONE) {
      const uint32_t next = ws->node[v].pos;
      const astar__hent e = entry_of(ws, q, hk, tie, v);
      double f;
      memcpy(&f, &e.f, sizeof f);
      const uint64_t k = bucket_of(b, f);
      if (k <= b->base) {
        ws->mark[v] = open;
        astar__heap_push_k(&ws->open, ws->node, e, 4);
      } else {
        cold_add(ws, v, k, ws->aux[v]);
      }
      v = next;
    }
    if (ws->open.len) return;
  }
  /* The next non-empty ring list. */
  uint64_t k = b->base + 1;
  while (b->head[k % ASTAR__RING] == ASTAR__NONE) k++;
  b->base = k;
  uint32_t v = b->head[k % ASTAR__RING];
  b->head[k % ASTAR__RING] = ASTAR__NONE;
  while (v != ASTAR__NONE) {
    const uint32_t next = ws->node[v].pos;
    ws->mark[v] = open;
    astar__heap_push_k(&ws->open, ws->node, entry_of(ws, q, hk, tie, v), 4);
    b->in_ring--;
    b->cold--;
    v = next;
  }
}

/* ---- what the general loop adds -------------------------------------------- */

/* Distance of padded (x, y) to the goal by the move rules (octile, or
** Manhattan without diagonals), the first criterion for partial paths; for
** a goal region, the heuristic. */
double astar__closeness(const astar__query *q, int32_t x, int32_t y) {
  if (q->fx->is_goal) return astar__h(q, q->hkind, x, y);
  const bool diag = (q->moves[0xff] & 0xf0u) != 0;
  double best = INFINITY;
  const size_t n = q->fx->goals ? q->fx->ngoals : 1;
  for (size_t i = 0; i < n; i++) {
    int32_t gx = q->gx, gy = q->gy;
    if (q->fx->goals) {
      if (!astar_grid_passable(q->grid, q->fx->goals[i].x, q->fx->goals[i].y)) continue;
      gx = q->fx->goals[i].x + 1;
      gy = q->fx->goals[i].y + 1;
    }
    const double dx = fabs((double)(x - gx)), dy = fabs((double)(y - gy));
    const double d =
        diag ? (dx > dy ? dx : dy) + (ASTAR__SQRT2 - 1.0) * (dx < dy ? dx : dy) : dx + dy;
    if (d < best) best = d;
  }
  return best;
}

/*
** The A* loop, run until the search ends or `budget` expansions (0: no
** budget) were done in this call (ASTAR_IN_PROGRESS); its state lives in
** the workspace between calls. hk, terrain, tie, os (open-list kind) and
** general are compile-time constants at the call sites below, so each
** instantiation carries only its own branches. Returns ASTAR_OK (a goal
** popped: ws->reached), ASTAR_NO_PATH, ASTAR_LIMIT_REACHED, ASTAR_STOPPED
** or ASTAR_IN_PROGRESS.
*/
ASTAR__INLINE astar_status search_loop(astar_workspace *ws, uint64_t budget, const int hk,
                                       const bool terrain, const int tie, const int os,
                                       const bool general) {
  const unsigned K = os == OS_HEAP2 ? 2 : 4;
  astar__query *const q = &ws->q;
  astar__node *const nd = ws->node;
  uint16_t *const mark = ws->mark;
  astar__heap *const open = &ws->open;
  astar__buckets *const bk = &ws->buckets;
  const astar_grid *const grid = q->grid;
  const uint8_t *const nbs = grid->nb;
  const float *const ter = grid->terrain;
  const uint8_t *const moves = q->moves;
  const uint16_t gen = ws->gen, closed = (uint16_t)(ws->gen + ASTAR__CLOSED);
  const uint32_t goal = q->goal;
  const int32_t stride = grid->stride;
  const double inv_stride = 1.0 / (double)stride;
  const bool reopen = q->reopen;
  const uint64_t limit = q->max_expansions;
  const uint64_t stop_at = budget ? q->stats.expanded + budget : UINT64_MAX;
  astar_stats stats = q->stats; /* a local copy: in registers */
  uint32_t seq = ws->seq;
  astar_status st = ASTAR_NO_PATH;

  /* The slot holds at most one open entry outside the heap: a successor
  ** that beats the heap's minimum when generated (typical when A* walks
  ** straight at the goal: f stays equal and g grows). Popping takes the
  ** smaller of slot and heap top, so the order is exactly the heap's; the
  ** slot only saves the push and the sift-down. */
  bool slot_full = ws->slot_full;
  astar__hent slot = ws->slot;
  for (;;) {
    if (!slot_full && !open->len) {
      if (os != OS_BUCKET || !bk->cold) break;
      advance(ws, q, hk, tie);
    }
    if (limit && stats.expanded >= limit) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    if (stats.expanded >= stop_at) {
      st = ASTAR_IN_PROGRESS;
      break;
    }
    if (general && q->fx->stop_fn && stats.expanded % q->fx->stop_interval == 0 && stats.expanded &&
        q->fx->stop_fn(q->fx->stop_ctx)) {
      st = ASTAR_STOPPED;
      break;
    }
    /* The next node comes from the one-entry slot when it beats the heap's top. */
    const bool from_slot = slot_full && (!open->len || astar__hless(&slot, &open->a[0]));
    /* options.max_cost: the least f on the open list (what is popped next)
    ** is beyond it, so is every path from here. */
    if (general && q->fx->opt.max_cost < INFINITY &&
        astar__entry_f(from_slot ? slot : open->a[0]) > q->fx->opt.max_cost) {
      st = ASTAR_NO_PATH;
      break;
    }
    uint32_t u;
    if (from_slot) {
      u = ASTAR__HNODE(slot);
      slot_full = false;
    } else {
      u = ASTAR__HNODE(astar__heap_pop_k(open, nd, K));
    }
    mark[u] = closed;
    astar__count_expand(&stats);
    const double gu = nd[u].g;
    if (general && q->fx->observer) q->stats.expanded = stats.expanded; /* for the events */
    /* Row from a reciprocal multiply, corrected: cheaper than a division. */
    int32_t uy = (int32_t)((double)u * inv_stride);
    if (uy * stride > (int32_t)u)
      uy--;
    else if ((uy + 1) * stride <= (int32_t)u)
      uy++;
    const int32_t ux = (int32_t)u - uy * stride;
    const bool at_goal = general ? astar__is_goal_node(q, u) : u == goal;
    if (general && q->fx->observer) {
      astar__emit(q, at_goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, u, nd[u].parent, gu,
                  gu + astar__h(q, hk, ux, uy), 1);
    }
    if (at_goal) {
      ws->reached = u;
      st = ASTAR_OK;
      break;
    }
    if (general && q->fx->partial) {
      const double d = astar__closeness(q, ux, uy);
      if (d < ws->best_d || (d == ws->best_d && gu < ws->best_g)) {
        ws->best = u;
        ws->best_d = d;
        ws->best_g = gu;
      }
    }
    unsigned m =
        moves[general && q->fx->knowledge
                  ? astar__knowledge_nb(q->fx->knowledge, grid, (astar_unknown)q->fx->unknown, u)
                  : nbs[u]];
    if (!reopen) {
      /* Drop closed neighbours without a branch each: on most maps the
      ** majority of neighbours are closed and the test is unpredictable. */
      const uint16_t *up = mark + u - (uint32_t)stride, *mid = mark + u,
                     *down = mark + u + (uint32_t)stride;
      const unsigned live =
          (unsigned)(up[0] != closed) << ASTAR__N | (unsigned)(mid[1] != closed) << ASTAR__E |
          (unsigned)(down[0] != closed) << ASTAR__S | (unsigned)(mid[-1] != closed) << ASTAR__W |
          (unsigned)(up[1] != closed) << ASTAR__NE | (unsigned)(down[1] != closed) << ASTAR__SE |
          (unsigned)(down[-1] != closed) << ASTAR__SW | (unsigned)(up[-1] != closed) << ASTAR__NW;
      m &= live;
    }
    while (m) {
      const int d = __builtin_ctz(m);
      m &= m - 1;
      const uint32_t v = (uint32_t)((int32_t)u + q->off[d]);
      const uint16_t mv = mark[v];
      const double ng = gu + (general   ? q->cost[d] * astar__entry_factor(q, v)
                              : terrain ? q->cost[d] * (double)ter[v]
                                        : q->cost[d]);
      astar__node *const n = &nd[v];
      const bool seen = (uint16_t)(mv & ~3u) == gen;
      if (seen && !(ng < n->g)) continue;
      const int32_t vx = ux + astar__dir_dx[d], vy = uy + astar__dir_dy[d];
      const double h = astar__h(q, hk, vx, vy);
      if (os == OS_BUCKET && seen && mv != gen && mv != closed) cold_remove(ws, v, n->g + h);
      n->g = ng;
      n->parent = u;
      const double f = ng + h;
      const astar__hent e = astar__entry(f, astar__tie_key_q(q, tie, ng, vx, vy, seq), v);
      if (general && q->fx->observer)
        astar__emit(q,
                    mv == closed ? ASTAR_EVENT_REOPEN
                    : seen       ? ASTAR_EVENT_IMPROVE
                                 : ASTAR_EVENT_PUSH,
                    v, u, ng, f, 1);
      if (mv == gen) {
        astar__count_improve(&stats);
        seq++;
        if (n->pos == ASTAR__IN_SLOT) {
          slot = e; /* only ever smaller: the slot stays below its old key */
          continue;
        }
        astar__heap_up_k(open, nd, n->pos, e, K);
        continue;
      }
      if (mv == closed)
        astar__count_reopen(&stats);
      else
        astar__count_push(&stats);
      if (os == OS_BUCKET) {
        const uint64_t k = bucket_of(bk, f);
        if (k > bk->base) {
          cold_add(ws, v, k, seq++);
          goto counted;
        }
      }
      seq++;
      mark[v] = gen;
      if (!open->len || astar__hless(&e, &open->a[0])) {
        if (slot_full) {
          if (astar__hless(&e, &slot)) {
            astar__heap_push_k(open, nd, slot, K);
            slot = e;
            n->pos = ASTAR__IN_SLOT;
          } else {
            astar__heap_push_k(open, nd, e, K);
          }
        } else {
          slot = e;
          slot_full = true;
          n->pos = ASTAR__IN_SLOT;
        }
      } else {
        astar__heap_push_k(open, nd, e, K);
      }
    counted:
      astar__count_open(&stats, open->len + slot_full + (os == OS_BUCKET ? bk->cold : 0));
    }
  }
  q->stats = stats;
  ws->seq = seq;
  ws->slot_full = slot_full;
  ws->slot = slot;
  return st;
}

/* Set up the cold buckets: width = a quarter of the cheapest move times the
** terrain floor, so one bucket spans a fraction of a step of f; the start
** (already in the heap) defines the first hot bucket. */
static void buckets_begin(astar_workspace *ws, const astar__query *q) {
  astar__buckets *b = &ws->buckets;
  double w = q->cost[0];
  for (int d = 1; d < 8; d++)
    if (q->moves[0xff] & (1u << d) && q->cost[d] < w) w = q->cost[d];
  w *= (double)q->grid->min_terrain;
  b->inv_width = 4.0 / w; /* a quarter step: measured best (docs/open-sets.md) */
  for (uint32_t i = 0; i < ASTAR__RING; i++) b->head[i] = ASTAR__NONE;
  b->overflow = ASTAR__NONE;
  b->cold = b->in_ring = 0;
  double f0;
  memcpy(&f0, &ws->open.a[0].f, sizeof f0);
  b->base = bucket_of(b, f0);
}

/* Run the search in ws for `budget` expansions with the loop instance that
** fits its options. */
static astar_status run_astar(astar_workspace *ws, uint64_t budget, astar_open_set os) {
  const astar__query *q = &ws->q;
  const bool ter = q->grid->terrain != NULL;
  if (q->general) {
    if (os == ASTAR_OPEN_BUCKET)
      return search_loop(ws, budget, q->hkind, ter, q->tie, OS_BUCKET, true);
    if (os == ASTAR_OPEN_HEAP2)
      return search_loop(ws, budget, q->hkind, ter, q->tie, OS_HEAP2, true);
    return search_loop(ws, budget, q->hkind, ter, q->tie, OS_HEAP4, true);
  }
  if (os == ASTAR_OPEN_BUCKET)
    return search_loop(ws, budget, q->hkind, ter, q->tie, OS_BUCKET, false);
  if (os == ASTAR_OPEN_HEAP2)
    return search_loop(ws, budget, q->hkind, ter, q->tie, OS_HEAP2, false);
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == ASTAR__HK_OCTILE)
    return ter ? search_loop(ws, budget, ASTAR__HK_OCTILE, true, ASTAR_TIE_LARGER_G, OS_HEAP4,
                             false)
               : search_loop(ws, budget, ASTAR__HK_OCTILE, false, ASTAR_TIE_LARGER_G, OS_HEAP4,
                             false);
  if (q->tie == ASTAR_TIE_LARGER_G && q->hkind == ASTAR__HK_MANHATTAN)
    return ter ? search_loop(ws, budget, ASTAR__HK_MANHATTAN, true, ASTAR_TIE_LARGER_G, OS_HEAP4,
                             false)
               : search_loop(ws, budget, ASTAR__HK_MANHATTAN, false, ASTAR_TIE_LARGER_G, OS_HEAP4,
                             false);
  return search_loop(ws, budget, q->hkind, ter, q->tie, OS_HEAP4, false);
}

/* ---- the sliced search --------------------------------------------------------- */

typedef struct goal_spec {
  astar_point goal;         /* the single goal (or the first valid of several) */
  const astar_point *goals; /* several goals, or NULL */
  size_t ngoals;
  astar_goal_fn is_goal; /* region test, or NULL */
  void *goal_ctx;
} goal_spec;

/* Is (x, y) a cell the search may end on, as the player sees it? */
static bool goal_usable(const astar_grid *g, const astar_options *o, astar_point p) {
  if (!astar_grid_contains(g, p.x, p.y)) return false;
  if (!o->knowledge) return astar_grid_passable(g, p.x, p.y);
  const astar_cell_knowledge k = astar_knowledge_get(o->knowledge, p.x, p.y);
  if (k == ASTAR_CELL_UNKNOWN) return o->unknown != ASTAR_UNKNOWN_BLOCKED;
  return k == ASTAR_CELL_PASSABLE;
}

/* What a search needs once its arguments are resolved. */
enum { BEGIN_SEARCH, BEGIN_TRIVIAL, BEGIN_UNREACHABLE };

/* Check the arguments of a search and resolve them into *q. Returns
** ASTAR_OK with *kind telling whether the search has anything to expand
** (BEGIN_SEARCH), starts on its goal (BEGIN_TRIVIAL) or has a goal the
** islands say is unreachable (BEGIN_UNREACHABLE); any other status is the
** search's final outcome. *retargeted says whether islands replaced the
** goal (options.retarget). `validated`: the caller has run
** astar_options_validate on opt (the finder, once for all its queries);
** otherwise it is run here -- the one validation of a query. Reads ws (its
** capacities and move tables) but changes nothing in it, so it can judge a
** search while another one is in progress on ws. */
static astar_status resolve(astar__query *q, astar__features *fx, const astar_workspace *ws,
                            const astar_grid *grid, const astar_options *opt, astar_point start,
                            goal_spec gs, int *kind, bool *retargeted, bool validated) {
  *retargeted = false;
  astar_status st = validated ? ASTAR_OK : astar_options_validate(opt);
  if (st != ASTAR_OK) return st;
  if (opt->algorithm != ASTAR_ALGO_ASTAR) return ASTAR_UNSUPPORTED;
  if (opt->turn_penalty > 0.0 && ws->turns.capacity < grid->ncells) return ASTAR_TURNS_NOT_RESERVED;
  for (size_t i = 0; i < opt->nlayers; i++)
    if (!astar__layer_fits(opt->layers[i], grid)) return ASTAR_INVALID_ARGUMENT;
  if (opt->knowledge && !astar__knowledge_fits(opt->knowledge, grid)) return ASTAR_INVALID_ARGUMENT;

  /* The goal the common preparation checks: for several goals the first
  ** usable one; for a region the start itself (never a blocked cell). */
  astar_point check_goal = gs.goal;
  if (gs.goals) {
    size_t i = 0;
    if (!gs.ngoals) return ASTAR_INVALID_ARGUMENT;
    while (i < gs.ngoals && !goal_usable(grid, opt, gs.goals[i])) i++;
    if (i == gs.ngoals) return ASTAR_GOAL_BLOCKED;
    check_goal = gs.goals[i];
  } else if (gs.is_goal) {
    check_goal = start;
  } else if (opt->knowledge && astar_grid_contains(grid, gs.goal.x, gs.goal.y) &&
             !goal_usable(grid, opt, gs.goal)) {
    return ASTAR_GOAL_BLOCKED;
  }
  /* With knowledge the goal's truth is unknown to the player: check only
  ** bounds and the start in the common preparation. */
  astar_options prep = *opt;
  if (opt->knowledge && astar_grid_contains(grid, check_goal.x, check_goal.y) &&
      !astar_grid_passable(grid, check_goal.x, check_goal.y)) {
    st = astar__prepare(q, fx, ws, grid, &prep, start, start);
    if (st == ASTAR_OK) {
      q->goal = astar__index(grid, check_goal.x, check_goal.y);
      q->gx = check_goal.x + 1;
      q->gy = check_goal.y + 1;
    }
  } else {
    st = astar__prepare(q, fx, ws, grid, &prep, start, check_goal);
  }
  if (st != ASTAR_OK) return st;

  /* Islands: an unreachable goal fails at once, or is retargeted. */
  bool unreachable = false;
  if (opt->islands && !gs.is_goal) {
    const astar_islands *isl = opt->islands;
    if (astar_islands_moves(isl) != opt->moves || astar_islands_corner(isl) != opt->corner)
      return ASTAR_MISMATCH;
    if (!astar_islands_current(isl, grid)) return ASTAR_STALE;
    if (gs.goals) {
      bool any = false;
      for (size_t i = 0; i < gs.ngoals && !any; i++)
        any = astar_islands_reachable(isl, start, gs.goals[i]);
      unreachable = !any;
    } else if (!astar_islands_reachable(isl, start, check_goal)) {
      if (opt->retarget && !gs.goals) {
        astar_point t;
        if (astar_islands_nearest(isl, astar_islands_id(isl, start.x, start.y), check_goal, &t) !=
            ASTAR_OK)
          return ASTAR_INVALID_ARGUMENT;
        q->goal = astar__index(grid, t.x, t.y);
        q->gx = t.x + 1;
        q->gy = t.y + 1;
        *retargeted = true;
      } else {
        unreachable = true;
      }
    }
  }

  q->fx->goals = gs.goals;
  q->fx->ngoals = gs.ngoals;
  q->fx->is_goal = gs.is_goal;
  q->fx->goal_ctx = gs.goal_ctx;
  if (gs.goals) {
    q->fx->base_hk = q->hkind;
    q->hkind = ASTAR__HK_MULTI;
  } else if (gs.is_goal && q->hkind != ASTAR__HK_CALLBACK) {
    q->hkind = ASTAR__HK_ZERO;
  }
  if (gs.is_goal) q->gx = q->gy = 0; /* the callback sees goal (-1, -1) */
  q->fx->alpha = opt->terrain_scale;
  q->fx->layers = opt->layers;
  q->fx->layer_w = opt->layer_weights;
  q->fx->nlayers = opt->nlayers;
  q->fx->knowledge = opt->knowledge;
  q->fx->unknown = opt->unknown;
  q->fx->unknown_cost = opt->unknown_cost;
  q->fx->stop_fn = opt->stop_fn;
  q->fx->stop_ctx = opt->stop_ctx;
  q->fx->stop_interval = opt->stop_interval ? opt->stop_interval : 1;
  q->fx->partial = opt->partial;
  q->fx->turn_penalty = opt->turn_penalty;
  q->fx->observer = opt->observer;
  q->fx->observer_ctx = opt->observer_ctx;
  q->fx->opt = *opt;
  q->general = gs.goals || gs.is_goal || astar__options_general(opt) ||
               (grid->terrain && opt->terrain_scale != 1.0);

  const bool trivial = gs.is_goal ? gs.is_goal(gs.goal_ctx, start)
                                  : !unreachable && astar__is_goal_node(q, q->start);
  *kind = trivial ? BEGIN_TRIVIAL : unreachable ? BEGIN_UNREACHABLE : BEGIN_SEARCH;
  return ASTAR_OK;
}

/* The observer's first event: the start's push, or for a trivial search
** (start is the goal: nothing generated, nothing expanded) only the goal
** event. */
static void emit_first(const astar__query *q, bool trivial) {
  const bool turns = q->fx->turn_penalty > 0.0;
  const uint32_t start_node = turns ? q->start * ASTAR__TURN_STATES + 8 : q->start;
  const double h0 = astar__h(q, q->hkind, q->sx, q->sy);
  astar__emit(q, trivial ? ASTAR_EVENT_GOAL : ASTAR_EVENT_PUSH, start_node, ASTAR__NO_PARENT, 0.0,
              h0, turns ? ASTAR__TURN_STATES : 1);
}

static astar_status begin(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                          astar_point start, goal_spec gs, bool validated) {
  astar_options defaults;
  if (!ws || !grid) return ASTAR_INVALID_ARGUMENT;
  astar__workspace_claim(ws); /* the next begin ends any search on ws */
  ws->retargeted = false;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  astar__query *q = &ws->q;
  int kind;
  bool retargeted;
  const astar_status st =
      resolve(q, &ws->fx, ws, grid, opt, start, gs, &kind, &retargeted, validated);
  if (st != ASTAR_OK) return st;
  ws->retargeted = retargeted;
  const bool trivial = kind == BEGIN_TRIVIAL, unreachable = kind == BEGIN_UNREACHABLE;
  const bool turns = q->fx->turn_penalty > 0.0;
  astar__open(q, ws, !trivial && !unreachable && !turns);
  if (turns) {
    if (!trivial && !unreachable) {
      astar__turns_open(ws);
    } else {
      astar__node *s0 = &ws->turns.node[q->start * ASTAR__TURN_STATES + 8];
      s0->g = 0.0;
      s0->parent = ASTAR__NO_PARENT;
    }
  }
  const uint32_t start_node = turns ? q->start * ASTAR__TURN_STATES + 8 : q->start;
  ws->slot_full = false;
  ws->version = grid->version;
  ws->kversion =
      opt->knowledge ? astar__knowledge_seen(opt->knowledge, opt->unknown, opt->unknown_cost) : 0;
  ws->best = start_node;
  ws->best_d = astar__closeness(q, q->sx, q->sy);
  ws->best_g = 0.0;
  ws->open_set = opt->open_set;
  if (opt->open_set == ASTAR_OPEN_BUCKET && !trivial && !unreachable && !turns)
    buckets_begin(ws, q);
  if (q->fx->observer && !unreachable) emit_first(q, trivial);
  if (trivial || unreachable) {
    ws->phase = ASTAR__ENDED;
    ws->outcome = trivial ? ASTAR_OK : ASTAR_NO_PATH;
    ws->reached = start_node;
  } else {
    ws->phase = ASTAR__RUNNING;
  }
  return ASTAR_OK;
}

bool astar__search_settle(const astar_workspace *ws, const astar_grid *grid,
                          const astar_options *opt, astar_point start, astar_point goal,
                          astar_point *path, size_t cap, astar_result *result, astar_status *status,
                          bool validated) {
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  astar__query q;
  astar__features fx; /* scratch: the workspace is not touched */
  int kind = BEGIN_SEARCH;
  bool retargeted = false;
  const goal_spec gs = {goal, NULL, 0, NULL, NULL};
  const astar_status st =
      (ws && grid && (cap == 0 || path))
          ? resolve(&q, &fx, ws, grid, opt, start, gs, &kind, &retargeted, validated)
          : ASTAR_INVALID_ARGUMENT;
  if (st == ASTAR_OK && kind == BEGIN_SEARCH) return false;
  /* What astar_find_path reports: see run_to_end and astar_search_finish. */
  astar__result_clear(result, st);
  *status = st;
  if (st != ASTAR_OK) return true;
  const bool trivial = kind == BEGIN_TRIVIAL;
  if (q.fx->observer && trivial) emit_first(&q, true);
  result->cause = trivial ? ASTAR_OK : ASTAR_NO_PATH;
  result->retargeted = retargeted;
  if (!trivial && !q.fx->partial) {
    *status = ASTAR_NO_PATH;
    return true;
  }
  /* The path is the start alone: it is the goal, or the best node of a
  ** partial path when nothing was expanded. */
  result->length = 1;
  result->end = start;
  if (cap < 1) {
    *status = ASTAR_BUFFER_TOO_SMALL;
  } else {
    path[0] = start;
    *status = trivial ? ASTAR_OK : ASTAR_PARTIAL;
  }
  return true;
}

astar_status astar_search_begin(astar_workspace *ws, const astar_grid *grid,
                                const astar_options *opt, astar_point start, astar_point goal) {
  const goal_spec gs = {goal, NULL, 0, NULL, NULL};
  return begin(ws, grid, opt, start, gs, false);
}

astar_status astar__search_begin_checked(astar_workspace *ws, const astar_grid *grid,
                                         const astar_options *opt, astar_point start,
                                         astar_point goal) {
  const goal_spec gs = {goal, NULL, 0, NULL, NULL};
  return begin(ws, grid, opt, start, gs, true);
}

astar_status astar_search_begin_multi(astar_workspace *ws, const astar_grid *grid,
                                      const astar_options *opt, astar_point start,
                                      const astar_point *goals, size_t ngoals) {
  if (!goals) return ASTAR_INVALID_ARGUMENT;
  const goal_spec gs = {start, goals, ngoals, NULL, NULL};
  return begin(ws, grid, opt, start, gs, false);
}

astar_status astar_search_begin_region(astar_workspace *ws, const astar_grid *grid,
                                       const astar_options *opt, astar_point start,
                                       astar_goal_fn is_goal, void *goal_ctx) {
  if (!is_goal) return ASTAR_INVALID_ARGUMENT;
  const goal_spec gs = {start, NULL, 0, is_goal, goal_ctx};
  return begin(ws, grid, opt, start, gs, false);
}

/*
** Called when the knowledge counter a running search follows moved since
** begin: true if no change since concerns what the search has read, and
** then it records the counter as now and goes on.
**
** Why that is exact. The search reads the knowledge only (a) at begin, on
** its goal (goal_usable), and (b) when it expands a cell u: the states of
** u's eight neighbours (astar__knowledge_nb, whose mask also decides the
** diagonal moves the corner rule allows) and, under ASTAR_UNKNOWN_COST,
** whether a neighbour it enters is unknown. Every expanded cell carries a
** mark of the current generation, so a changed cell c was read only if c is
** the goal or a cell of c's 3x3 block is marked -- marked cells being a
** superset of the expanded ones, the test is conservative. If no changed
** cell was read, every read so far gives on the new knowledge what it gave
** on the old, so a search begun on the new knowledge would have made the
** same decisions up to here (ties break the same way): going on gives its
** answer. Several goals, a goal region, a retargeted goal (begin read the
** one asked for) and turn penalties (other node layout) are not examined: they keep the restart. So
*is a change the log
** no longer holds (more than ASTAR__KLOG since, or a clear). Cost: nine
** mark reads a change, paid only between slices when the counter moved.
*/
static bool knowledge_unread(astar_workspace *ws) {
  const astar__features *fx = ws->q.fx;
  const astar_knowledge *k = fx->knowledge;
  if (fx->goals || fx->is_goal || fx->turn_penalty > 0.0 || ws->retargeted) return false;
  const int kind = astar__knowledge_seen_kind((astar_unknown)fx->unknown, fx->unknown_cost);
  if (!astar__knowledge_logged(k, kind, ws->kversion)) return false;
  const uint32_t s = (uint32_t)ws->q.grid->stride, goal = ws->q.goal;
  const uint16_t gen = ws->gen;
  const uint32_t *log = k->log + (size_t)kind * ASTAR__KLOG;
  for (uint64_t n = ws->kversion; n != k->count[kind]; n++) {
    const uint32_t c = log[n & (ASTAR__KLOG - 1)]; /* an interior cell: c - s - 1 >= 0 */
    if (c == goal) return false;
    for (uint32_t row = c - s - 1; row <= c + s - 1; row += s)
      for (uint32_t v = row; v < row + 3; v++)
        if ((uint16_t)(ws->mark[v] & ~3u) == gen) return false;
  }
  ws->kversion = k->count[kind];
  return true;
}

astar_status astar_search_step(astar_workspace *ws, uint64_t budget, uint64_t *expanded) {
  if (expanded) *expanded = 0;
  if (!ws || ws->phase == ASTAR__IDLE) return ASTAR_INVALID_ARGUMENT;
  if (ws->phase == ASTAR__ENDED) return ws->outcome;
  /* Between two steps the grid, or what the player knows of it, changed:
  ** the search so far may be wrong, never hand it out. */
  const astar__features *fx = ws->q.fx;
  if (ws->q.grid->version != ws->version ||
      (fx->knowledge &&
       astar__knowledge_seen(fx->knowledge, (astar_unknown)fx->unknown, fx->unknown_cost) !=
           ws->kversion &&
       !knowledge_unread(ws))) {
    ws->phase = ASTAR__ENDED;
    ws->outcome = ASTAR_STALE;
    return ASTAR_STALE;
  }
  const uint64_t before = ws->q.stats.expanded;
  const astar_status st = ws->q.fx->turn_penalty > 0.0 ? astar__turns_run(ws, budget)
                                                       : run_astar(ws, budget, ws->open_set);
  if (expanded) *expanded = ws->q.stats.expanded - before;
  if (st == ASTAR_IN_PROGRESS) return st;
  ws->phase = ASTAR__ENDED;
  ws->outcome = st;
  return st;
}

astar_status astar_search_finish(astar_workspace *ws, astar_point *path, size_t cap,
                                 astar_result *result) {
  if (!ws || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  if (ws->phase == ASTAR__RUNNING) return ASTAR_IN_PROGRESS;
  if (ws->phase != ASTAR__ENDED) return ASTAR_INVALID_ARGUMENT;
  astar__query *q = &ws->q;
  ws->phase = ASTAR__IDLE;
  if (result) memset(result, 0, sizeof *result);
  const astar_status outcome = ws->outcome;
  astar_status st = outcome;
  bool partial = false;
  if (outcome == ASTAR_OK) {
    q->goal = ws->reached;
  } else if (q->fx->partial && (outcome == ASTAR_NO_PATH || outcome == ASTAR_LIMIT_REACHED ||
                                outcome == ASTAR_STOPPED)) {
    q->goal = ws->best;
    st = ASTAR_OK;
    partial = true;
  }
  st = astar__end(q, ws, st, path, cap, result);
  if (result) {
    result->cause = outcome;
    result->retargeted = ws->retargeted;
    result->end = (astar_point){-1, -1};
    if (ws->found) {
      const uint32_t stride = (uint32_t)q->grid->stride;
      const uint32_t cell = q->fx->turn_penalty > 0.0 ? q->goal / ASTAR__TURN_STATES : q->goal;
      result->end = (astar_point){(int32_t)(cell % stride) - 1, (int32_t)(cell / stride) - 1};
    }
  }
  if (partial && st == ASTAR_OK) return ASTAR_PARTIAL;
  return st;
}

void astar_search_cancel(astar_workspace *ws) {
  if (ws) ws->phase = ASTAR__IDLE;
}

/* ---- one-shot searches ------------------------------------------------------------ */

void astar__result_clear(astar_result *result, astar_status cause) {
  if (!result) return;
  memset(result, 0, sizeof *result);
  result->end = (astar_point){-1, -1};
  result->cause = cause;
}

static astar_status run_to_end(astar_workspace *ws, astar_status st, astar_point *path, size_t cap,
                               astar_result *result) {
  if (st != ASTAR_OK) {
    astar__result_clear(result, st);
    return st;
  }
  astar_search_step(ws, 0, NULL);
  return astar_search_finish(ws, path, cap, result);
}

astar_status astar__find_path_checked(astar_workspace *ws, const astar_grid *grid,
                                      const astar_options *opt, astar_point start, astar_point goal,
                                      astar_point *path, size_t cap, astar_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (opt->algorithm == ASTAR_ALGO_JPS) {
    astar__workspace_claim(ws);
    const astar_status st = astar__jps_find_path(ws, grid, opt, start, goal, path, cap, result);
    if (result) {
      result->cause = st;
      result->end = ws->found ? goal : (astar_point){-1, -1};
    }
    return st;
  }
  return run_to_end(ws, astar__search_begin_checked(ws, grid, opt, start, goal), path, cap, result);
}

astar_status astar_find_path(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                             astar_point start, astar_point goal, astar_point *path, size_t cap,
                             astar_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!ws || !grid || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults); /* valid by construction: not validated */
    opt = &defaults;
  } else {
    const astar_status st = astar_options_validate(opt); /* the one validation of the query */
    if (st != ASTAR_OK) {
      astar__workspace_claim(ws); /* as a search that began: the last one is over */
      astar__result_clear(result, st);
      return st;
    }
  }
  return astar__find_path_checked(ws, grid, opt, start, goal, path, cap, result);
}

astar_status astar_find_path_multi(astar_workspace *ws, const astar_grid *grid,
                                   const astar_options *opt, astar_point start,
                                   const astar_point *goals, size_t ngoals, astar_point *path,
                                   size_t cap, astar_result *result) {
  if (cap > 0 && !path) return ASTAR_INVALID_ARGUMENT;
  return run_to_end(ws, astar_search_begin_multi(ws, grid, opt, start, goals, ngoals), path, cap,
                    result);
}

astar_status astar_find_path_region(astar_workspace *ws, const astar_grid *grid,
                                    const astar_options *opt, astar_point start,
                                    astar_goal_fn is_goal, void *goal_ctx, astar_point *path,
                                    size_t cap, astar_result *result) {
  if (cap > 0 && !path) return ASTAR_INVALID_ARGUMENT;
  return run_to_end(ws, astar_search_begin_region(ws, grid, opt, start, is_goal, goal_ctx), path,
                    cap, result);
}
