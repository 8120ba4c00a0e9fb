/*
** finder/m_theta.c -- Theta* and Lazy Theta* (anyangle/theta.c), run whole:
** any-angle paths of bends between cell centres.
*/
#include "anyangle/checked.h"
#include "finder/finder.h"

static const char *unsupported(const astar__fcheck *c) {
  const astar_options *o = &c->cfg->options;
  if (astar_grid_has_terrain(c->grid))
    return "theta: the grid has terrain costs; any-angle segments cost their length (use astar, "
           "or astar with cfg.smooth)";
  if (o->heuristic != ASTAR_H_AUTO)
    return "theta: any-angle searches use the straight-line distance as their heuristic (leave "
           "options.heuristic at ASTAR_H_AUTO)";
  return astar__fgame_loop_refusal(o, ASTAR__FG_OBSERVER | ASTAR__FG_LIMIT);
}

static astar_status search(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                           const astar__out *out, astar_path_result *res,
                           astar_anyangle_method method) {
  astar_anyangle_result r;
  const astar_status st = astar__anyangle_find_path_checked(ws, f->grid, &f->opt, method, s->start,
                                                            s->goal, out->buf, out->cap, &r);
  astar__fres_clear(res, st);
  res->cost = r.cost;
  res->length = r.length;
  res->stats = r.stats;
  res->work = r.stats.expanded;
  res->sight_checks = r.sight_checks;
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) res->end = s->goal;
  return st;
}

static astar_status run_theta(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                              const astar__out *out, astar_path_result *res) {
  return search(f, ws, s, out, res, ASTAR_ANYANGLE_THETA);
}

static astar_status run_lazy(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                             const astar__out *out, astar_path_result *res) {
  return search(f, ws, s, out, res, ASTAR_ANYANGLE_LAZY_THETA);
}

static const astar__ops theta_ops = {ASTAR__OUT_CELLS, astar__freserve_grid, NULL, NULL, NULL,
                                     run_theta};
static const astar__ops lazy_ops = {ASTAR__OUT_CELLS, astar__freserve_grid, NULL, NULL, NULL,
                                    run_lazy};

const astar__method astar__m_theta = {
    {ASTAR_METHOD_THETA, "theta",
     "Theta*: any-angle, a node's parent taken from its parent when in sight",
     ASTAR_MF_GRID | ASTAR_MF_ANY_ANGLE, 0, 0, "node expansions"},
    unsupported,
    NULL,
    &theta_ops};

const astar__method astar__m_lazy_theta = {
    {ASTAR_METHOD_LAZY_THETA, "lazy-theta",
     "Lazy Theta*: Theta* testing lines of sight at expansion only",
     ASTAR_MF_GRID | ASTAR_MF_ANY_ANGLE, 0, 0, "node expansions"},
    unsupported,
    NULL,
    &lazy_ops};
