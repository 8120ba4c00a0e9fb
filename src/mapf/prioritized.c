/*
** prioritized.c -- prioritised planning, the MAPF baseline (astar/mapf.h,
** "prioritized"): agents one after the other, each a space-time A* around
** the timed paths of the agents before it, which hold their goals for ever.
** Incomplete (an agent may find every way closed by the earlier ones) and
** suboptimal; fast on sparse instances.
**
** It is the library's cooperative A* (astar/spacetime.h) on a grid built
** from the problem: each agent's path goes into a reservation table with
** ASTAR_HOLD_FOREVER, the next searches around it; Silver's true-distance
** heuristic is a distance field per agent. Those objects allocate through
** mapf_allocator, so they count towards peak_memory and max_memory.
**
** Order: agent index order; options.seed != 0 shuffles it (Fisher-Yates on
** the library's generator). Horizon: options.max_steps, or automatically
** max(1024, longest single-agent distance + width + height + agents).
** Limits: the work (expansions) caps each search; the clock and the
** memory are looked at between agents. An agent that finds no path
** within the horizon ends the solve with ASTAR_LIMIT_REACHED (not a proof
** that the instance has no solution). window > 0 (WHCA*) is not
** implemented: ASTAR_UNSUPPORTED.
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>

typedef struct prio {
  mapf_ctx *c;
  astar_allocator alloc;
  astar_grid *grid;
  astar_reservations *res;
  astar_spacetime_workspace *ws;
  size_t ws_states;
  uint32_t *order;
  astar_point *path;
  size_t path_cap;
} prio;

static astar_status as_limit(const mapf_ctx *c, astar_status st) {
  return (st == ASTAR_NO_MEMORY && c->over_memory) ? ASTAR_LIMIT_REACHED : st;
}

static astar_point pt(const astar_mapf_problem *p, uint32_t cell) {
  return (astar_point){(int32_t)(cell % (uint32_t)p->w), (int32_t)(cell / (uint32_t)p->w)};
}

/* A table of `capacity` holding the paths of order[0 .. done-1]. */
static astar_status rebuild_reservations(prio *s, size_t capacity, uint32_t done) {
  astar_reservations_free(s->res);
  s->res = NULL;
  astar_status st = astar_reservations_new(&s->res, capacity, &s->alloc);
  if (st != ASTAR_OK) return as_limit(s->c, st);
  for (uint32_t k = 0; k < done; k++) {
    size_t len;
    const astar_point *path = astar_mapf_solution_path(s->c->out, s->order[k], &len);
    st = astar_reservations_reserve_path(s->res, s->order[k], path, len, 0, ASTAR_HOLD_FOREVER);
    if (st != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

static astar_status grow_workspace(prio *s, size_t states) {
  astar_spacetime_workspace_free(s->ws);
  s->ws = NULL;
  astar_status st = astar_spacetime_workspace_new(&s->ws, states, &s->alloc);
  s->ws_states = st == ASTAR_OK ? states : 0;
  return as_limit(s->c, st);
}

static astar_status plan(prio *s) {
  mapf_ctx *c = s->c;
  const astar_mapf_problem *p = c->p;
  const astar_mapf_options *o = c->o;
  astar_status st;

  /* the grid of the problem */
  if ((st = astar_grid_new(&s->grid, p->w, p->h, &s->alloc)) != ASTAR_OK) return as_limit(c, st);
  for (uint32_t cell = 0; cell < p->cells; cell++)
    if (!p->passable[cell])
      astar_grid_set_passable(s->grid, (int32_t)(cell % (uint32_t)p->w),
                              (int32_t)(cell / (uint32_t)p->w), false);

  /* the order, the horizon, the sizes */
  s->order = mapf_alloc(c, (size_t)p->n * sizeof(uint32_t), &st);
  if (!s->order) return st;
  for (uint32_t i = 0; i < p->n; i++) s->order[i] = i;
  if (o->seed != 0) {
    mapf_rng r;
    mapf_rng_seed(&r, o->seed);
    for (uint32_t i = p->n - 1; i > 0; i--) {
      const uint32_t j = (uint32_t)mapf_rng_below(&r, (uint64_t)i + 1);
      const uint32_t t = s->order[i];
      s->order[i] = s->order[j];
      s->order[j] = t;
    }
  }
  uint64_t longest = 0;
  for (uint32_t i = 0; i < p->n; i++) {
    const uint32_t d = mapf_dist_get(c, i, p->start[i], &st); /* known: solve.c asked */
    if (d > longest) longest = d;
  }
  uint64_t horizon = longest + (uint64_t)p->w + (uint64_t)p->h + p->n;
  if (horizon < 1024) horizon = 1024;
  if (o->max_steps) horizon = o->max_steps;
  if (horizon > ASTAR_TIME_MAX) horizon = ASTAR_TIME_MAX;
  s->path_cap = (size_t)horizon + 1;
  s->path = mapf_alloc(c, s->path_cap * sizeof(astar_point), &st);
  if (!s->path) return st;
  /* a path's cells, its moves and its held goal; about twice the lower bound */
  size_t cap = (size_t)(2 * (c->stats->lower_bound + p->n) + p->n + 64);
  if (cap > ((size_t)1 << 26)) cap = (size_t)1 << 26;
  if ((st = rebuild_reservations(s, cap, 0)) != ASTAR_OK) return st;
  size_t states = (size_t)p->cells * 4 < 4096 ? 4096 : (size_t)p->cells * 4;
  if ((st = grow_workspace(s, states)) != ASTAR_OK) return st;

  astar_options opt;
  astar_options_init(&opt);
  opt.moves = 4;
  uint64_t work = 0;
  for (uint32_t k = 0; k < p->n; k++) {
    if (mapf_out_of_limits(c, work)) return ASTAR_LIMIT_REACHED;
    const uint32_t a = s->order[k];
    astar_field *field = NULL;
    astar_stats fs;
    st = astar_field_new(&field, s->grid, &opt, pt(p, p->goal[a]), 0, &s->alloc, &fs);
    if (st != ASTAR_OK) return as_limit(c, st);
    astar_coop_query q;
    astar_coop_query_init(&q);
    q.start = pt(p, p->start[a]);
    q.goal = pt(p, p->goal[a]);
    q.agent = a;
    q.horizon = (uint32_t)horizon;
    q.field = field;
    astar_coop_result r;
    for (;;) {
      if (o->max_work && work >= o->max_work) {
        st = ASTAR_LIMIT_REACHED;
        break;
      }
      opt.max_expansions = o->max_work ? o->max_work - work : 0;
      st = astar_coop_find_path(s->ws, s->grid, &opt, s->res, &q, s->path, s->path_cap, &r);
      work += r.stats.expanded;
      if (st != ASTAR_CAPACITY || s->ws_states >= ((size_t)1 << 28)) break;
      const size_t more = s->ws_states * 2 < ((size_t)1 << 28) ? s->ws_states * 2 : (size_t)1 << 28;
      if ((st = grow_workspace(s, more)) != ASTAR_OK) break;
    }
    astar_field_free(field);
    c->stats->low_level = work;
    c->stats->high_level = k + 1;
    if (st != ASTAR_OK) {
      /* no way round the earlier agents within the horizon or the work */
      if (st == ASTAR_NO_PATH || st == ASTAR_LIMIT_REACHED || st == ASTAR_CAPACITY ||
          st == ASTAR_GOAL_BLOCKED || st == ASTAR_START_BLOCKED)
        return ASTAR_LIMIT_REACHED;
      return st;
    }
    /* the path ends at the arrival: no waiting at the goal at its end */
    size_t len = r.length;
    while (len > 1 && s->path[len - 2].x == s->path[len - 1].x &&
           s->path[len - 2].y == s->path[len - 1].y)
      len--;
    if ((st = astar_mapf_solution_set_path(c->out, a, s->path, len)) != ASTAR_OK) return st;
    st = astar_reservations_reserve_path(s->res, a, s->path, len, 0, ASTAR_HOLD_FOREVER);
    while (st == ASTAR_CAPACITY) {
      const size_t have = astar_reservations_capacity(s->res);
      if (have >= ((size_t)1 << 26)) return ASTAR_LIMIT_REACHED;
      const size_t more = have * 2 < ((size_t)1 << 26) ? have * 2 : (size_t)1 << 26;
      if ((st = rebuild_reservations(s, more, k)) != ASTAR_OK) return st;
      st = astar_reservations_reserve_path(s->res, a, s->path, len, 0, ASTAR_HOLD_FOREVER);
    }
    if (st != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

astar_status mapf_prioritized_solve(mapf_ctx *c) {
  if (c->o->window > 0) return ASTAR_UNSUPPORTED;
  prio s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.alloc = mapf_allocator(c);
  astar_status st = plan(&s);
  astar_spacetime_workspace_free(s.ws);
  astar_reservations_free(s.res);
  astar_grid_free(s.grid);
  if (s.order) mapf_free(c, s.order, (size_t)c->p->n * sizeof(uint32_t));
  if (s.path) mapf_free(c, s.path, s.path_cap * sizeof(astar_point));
  if (st == ASTAR_OK) mapf_report_solution(c);
  return st;
}
