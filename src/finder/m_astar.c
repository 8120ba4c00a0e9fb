/*
** finder/m_astar.c -- A* and Dijkstra on the grid's own loop
** (search/astar.c): the resumable search of astar_search_begin / _step /
** _finish, entered without validating again (search/checked.h). A
** landmark table or a waypoint table attached becomes the options'
** heuristic callback, as a caller of astar_find_path would set it. Over a
** space or a waypoint graph the engine runs them (m_engine.c).
*/
#include "finder/finder.h"
#include "search/checked.h"

static const char *astar_unsupported(const astar__fcheck *c) {
  const astar_options *o = &c->cfg->options;
  if ((c->cfg->landmarks || c->cfg->table) && o->heuristic != ASTAR_H_AUTO)
    return "astar: the attached landmark or waypoint table is the heuristic (leave "
           "options.heuristic at ASTAR_H_AUTO)";
  if (c->cfg->landmarks && o->terrain_scale != 1.0)
    return "astar: a landmark table holds the exact terrain costs: it takes "
           "options.terrain_scale 1 only";
  return NULL;
}

static const char *dijkstra_unsupported(const astar__fcheck *c) {
  const astar_heuristic h = c->cfg->options.heuristic;
  if (h != ASTAR_H_AUTO && h != ASTAR_H_ZERO)
    return "dijkstra: it uses no heuristic (leave options.heuristic at ASTAR_H_AUTO, or use "
           "astar)";
  return NULL;
}

static void astar_prepare(astar_finder *f) {
  const void *ctx = NULL;
  if (f->cfg.landmarks) {
    f->opt.heuristic_fn = astar_landmarks_grid_heuristic;
    ctx = f->cfg.landmarks;
  } else if (f->cfg.table) {
    f->opt.heuristic_fn = astar_waypoint_table_heuristic;
    ctx = f->cfg.table;
  } else {
    return;
  }
  f->opt.heuristic = ASTAR_H_CALLBACK;
  memcpy(&f->opt.heuristic_ctx, &ctx, sizeof ctx); /* the callbacks only read the table */
}

static void dijkstra_prepare(astar_finder *f) {
  f->opt.heuristic = ASTAR_H_ZERO;
}

static astar_status begin(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  return astar__search_begin_checked(ws, f->grid, &f->opt, s->start, s->goal);
}

/* Is the search on ws still this one (no other search began there since)? */
static bool ours(const astar_finder *f, const astar_workspace *ws, const astar__fstate *s) {
  return ws->phase != ASTAR__IDLE && ws->q.grid == f->grid &&
         astar_grid_contains(f->grid, s->start.x, s->start.y) &&
         ws->q.start == astar__index(f->grid, s->start.x, s->start.y);
}

static astar_status step(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                         uint64_t budget, uint64_t *work) {
  if (!ours(f, ws, s)) return ASTAR_INVALID_ARGUMENT;
  return astar_search_step(ws, budget, work);
}

static astar_status finish(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                           const astar__out *out, astar_path_result *res) {
  (void)f, (void)s;
  astar_result r;
  const astar_status st = astar_search_finish(ws, out->buf, out->cap, &r);
  astar__fres_from_grid(res, &r, st);
  return st;
}

static const astar__ops ops = {ASTAR__OUT_CELLS, astar__freserve_grid, begin, step, finish, NULL};

const astar__method astar__m_astar = {
    {ASTAR_METHOD_ASTAR, "astar",
     "A*: optimal with an admissible heuristic; the grid's own loop, with every option",
     ASTAR_MF_OPTIMAL | ASTAR_MF_BOUNDED | ASTAR_MF_SLICED | ASTAR_MF_GRID | ASTAR_MF_SPACE |
         ASTAR_MF_TERRAIN,
     0, ASTAR_ATTACH_LANDMARKS | ASTAR_ATTACH_TABLE | ASTAR_ATTACH_WAYPOINTS, "node expansions"},
    astar_unsupported,
    astar_prepare,
    &ops};

const astar__method astar__m_dijkstra = {
    {ASTAR_METHOD_DIJKSTRA, "dijkstra", "Dijkstra: A* with the zero heuristic, optimal",
     ASTAR_MF_OPTIMAL | ASTAR_MF_SLICED | ASTAR_MF_GRID | ASTAR_MF_SPACE | ASTAR_MF_TERRAIN, 0,
     ASTAR_ATTACH_WAYPOINTS, "node expansions"},
    dijkstra_unsupported,
    dijkstra_prepare,
    &ops};
