/*
** finder/m_engine.c -- the engine's methods (src/engine/) through the
** finder: over the grid as a space (derived again at each search, so that
** it follows the grid's edits), over a waypoint graph of the grid with the
** query's ends inserted (cfg.waypoints), or over the caller's space; with
** a landmark wrapper when cfg.landmarks is attached. Every method resumes
** across steps (the engine's sliced search). The views live in the
** workspace's finder state, so a search allocates nothing once the
** workspace has grown for the space.
*/
#include "engine/engine.h"
#include "finder/finder.h"
#include "spaces/grid_space.h"

/* Methods that keep no single open list: no partial paths. */
static bool no_partial(astar_method m) {
  return astar__method_two_sided(m) || m == ASTAR_METHOD_IDA;
}

const char *astar__engine_unsupported(const astar__fcheck *c) {
  const astar_finder_config *cfg = c->cfg;
  if (!c->grid) {
    if (cfg->engine.partial && no_partial(cfg->method))
      return "this method gives no partial paths (engine.partial: the engine's methods with one "
             "open list)";
    return NULL;
  }
  const astar_options *o = &cfg->options;
  if (cfg->waypoints) {
    if (astar_grid_has_terrain(c->grid))
      return "the grid has terrain costs; a waypoint graph costs straight-line distance (detach "
             "cfg.waypoints)";
    if (o->moves != 8 || o->corner == ASTAR_CORNER_NEVER)
      return "a waypoint graph joins cells in sight along any angle: it needs diagonal moves";
    if (o->heuristic != ASTAR_H_AUTO)
      return "a waypoint graph's heuristic is the straight-line distance (leave "
             "options.heuristic at ASTAR_H_AUTO)";
  } else if (o->heuristic == ASTAR_H_CALLBACK) {
    return "the engine's methods take the grid space's own heuristics, not ASTAR_H_CALLBACK "
           "(for landmarks attach cfg.landmarks)";
  }
  if (o->tie == ASTAR_TIE_CROSS)
    return "the engine breaks ties by larger g or newest, then node id (no ASTAR_TIE_CROSS)";
  if (o->observer)
    return "the engine reports node events: set cfg.engine.observer, not options.observer";
  if (o->partial && no_partial(cfg->method))
    return "this method gives no partial paths (options.partial: astar, and the engine's methods "
           "with one open list)";
  return astar__fgame_loop_refusal(o, ASTAR__FG_PARTIAL | ASTAR__FG_STOP | ASTAR__FG_LIMIT);
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  const astar_space *base = &f->space;
  if (!f->is_space) {
    if (f->cfg.waypoints) return astar_waypoints_reserve(ws, f->cfg.waypoints, f->reserve);
    /* The grid as it is now: its costs' quantum and heuristic scale follow
    ** the terrain. */
    const astar_status st = astar__grid_space_init_checked(&s->gspace, &s->gs, f->grid, &f->opt);
    if (st != ASTAR_OK) return st;
    base = &s->gspace;
  }
  s->espace = base;
  if (f->cfg.landmarks) {
    const astar_status st = astar_landmarks_space(&s->lmspace, &s->lmh, base, f->cfg.landmarks);
    if (st != ASTAR_OK) return st == ASTAR_INVALID_ARGUMENT ? ASTAR_MISMATCH : st;
    s->espace = &s->lmspace;
  }
  return astar_workspace_reserve_space(ws, s->espace, f->reserve);
}

static astar_status begin(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  if (!f->is_space) {
    if (f->cfg.waypoints) {
      const astar_status st = astar_waypoints_query_init(&s->wq, &s->wspace, f->cfg.waypoints,
                                                         f->grid, s->start, s->goal);
      if (st != ASTAR_OK) return st;
      s->espace = &s->wspace;
      s->nstart = s->wq.start_node;
      s->ngoal = s->wq.goal_node;
    } else {
      if (!astar_grid_contains(f->grid, s->start.x, s->start.y) ||
          !astar_grid_contains(f->grid, s->goal.x, s->goal.y))
        return ASTAR_OUT_OF_BOUNDS;
      s->nstart = astar_grid_space_node(&s->gs, s->start);
      s->ngoal = astar_grid_space_node(&s->gs, s->goal);
    }
  }
  return astar__space_search_begin_checked(ws, s->espace, &f->eo, s->nstart, s->ngoal);
}

/* Is the engine's search on ws still this one? */
static bool ours(const astar_workspace *ws, const astar__fstate *s) {
  return ws->eng.phase != ASTAR__IDLE && ws->eng.space.self == s->espace->self &&
         ws->eng.start == s->nstart;
}

static astar_status step(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                         uint64_t budget, uint64_t *work) {
  (void)f;
  if (!ours(ws, s)) return ASTAR_INVALID_ARGUMENT;
  return astar_space_search_step(ws, budget, work);
}

/* The cell of a node of the searched space. */
static astar_point cell_of(const astar_finder *f, const astar__fstate *s, astar_node n) {
  return f->cfg.waypoints ? astar_waypoints_query_cell(&s->wq, n)
                          : astar_grid_space_cell(&s->gs, n);
}

typedef struct put_ctx {
  const astar_finder *f;
  const astar__fstate *s;
  astar_point *cells;
} put_ctx;

static void put_cell(void *ctx, size_t i, astar_node n) {
  const put_ctx *p = ctx;
  p->cells[i] = cell_of(p->f, p->s, n);
}

static astar_status finish(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                           const astar__out *out, astar_path_result *res) {
  astar_engine_result er;
  astar_status st;
  if (out->kind == ASTAR__OUT_NODES) {
    st = astar_space_search_finish(ws, out->buf, out->cap, &er);
  } else {
    /* Nodes become cells on the way out of the records. */
    st = astar_space_search_finish(ws, NULL, 0, &er);
    if (st == ASTAR_BUFFER_TOO_SMALL && er.length > 0 && er.length <= out->cap) {
      const put_ctx p = {f, s, out->buf};
      astar__engine_path_each(ws, put_cell, (void *)&p);
      st = er.cause == ASTAR_OK ? ASTAR_OK : ASTAR_PARTIAL;
    }
  }
  astar__fres_clear(res, st);
  res->cause = er.cause;
  res->cost = er.cost;
  res->length = er.length;
  res->stats = er.stats;
  res->work = er.stats.expanded;
  res->dropped = er.dropped;
  res->iterations = er.iterations;
  res->meet = er.meet;
  res->end_node = er.end;
  if (!f->is_space && er.end != ASTAR_NODE_NONE) res->end = cell_of(f, s, er.end);
  return st;
}

const astar__ops astar__engine_ops = {ASTAR__OUT_CELLS, reserve, begin, step, finish, NULL};

#define ENGINE_FLAGS (ASTAR_MF_SLICED | ASTAR_MF_GRID | ASTAR_MF_SPACE | ASTAR_MF_TERRAIN)
#define ENGINE_TAKES (ASTAR_ATTACH_LANDMARKS | ASTAR_ATTACH_WAYPOINTS)

const astar__method astar__m_greedy = {
    {ASTAR_METHOD_GREEDY, "greedy", "greedy best-first search, f = h: fast, no bound (the engine)",
     ENGINE_FLAGS, 0, ENGINE_TAKES, "node expansions"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_bidirectional = {
    {ASTAR_METHOD_BIDIRECTIONAL, "bidir", "bidirectional A*, optimal (the engine)",
     ENGINE_FLAGS | ASTAR_MF_OPTIMAL, 0, ENGINE_TAKES, "node expansions (both sides)"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_ida = {
    {ASTAR_METHOD_IDA, "ida", "IDA*, optimal, memory linear in the depth (the engine; small maps)",
     ENGINE_FLAGS | ASTAR_MF_OPTIMAL, 0, ENGINE_TAKES, "first visits of a node in an iteration"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_beam = {
    {ASTAR_METHOD_BEAM, "beam",
     "beam search, open list capped at engine.beam_width (the engine; may miss paths)",
     ENGINE_FLAGS, 0, ENGINE_TAKES, "node expansions"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_dynamic = {
    {ASTAR_METHOD_DYNAMIC, "dynamic",
     "dynamic weighting, cost <= (1 + engine.epsilon) x optimal (the engine)",
     ENGINE_FLAGS | ASTAR_MF_BOUNDED, 0, ENGINE_TAKES, "node expansions"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_bandwidth = {
    {ASTAR_METHOD_BANDWIDTH, "bandwidth",
     "bandwidth search, cost <= optimal + engine.band_e (the engine)",
     ENGINE_FLAGS | ASTAR_MF_BOUNDED, 0, ENGINE_TAKES, "node expansions"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_f2f = {
    {ASTAR_METHOD_FRONT_TO_FRONT, "f2f",
     "front-to-front bidirectional search, optimal (the engine; small frontiers)",
     ENGINE_FLAGS | ASTAR_MF_OPTIMAL, 0, ENGINE_TAKES, "node expansions (both sides)"},
    astar__engine_unsupported,
    NULL,
    NULL};

const astar__method astar__m_retargeting = {
    {ASTAR_METHOD_RETARGETING, "retarget",
     "retargeting bidirectional search, no bound (the engine)", ENGINE_FLAGS, 0, ENGINE_TAKES,
     "node expansions (both sides)"},
    astar__engine_unsupported,
    NULL,
    NULL};
