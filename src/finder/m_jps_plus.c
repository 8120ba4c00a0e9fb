/*
** finder/m_jps_plus.c -- JPS+ over an attached table (search/jps_plus.c),
** run whole. The table holds for every rule set JPS takes: JPS's rules are
** its rules.
*/
#include "finder/finder.h"
#include "search/checked.h"

static const char *unsupported(const astar__fcheck *c) {
  astar_options o = c->cfg->options;
  o.algorithm = ASTAR_ALGO_JPS;
  return astar_unsupported_reason(&o, c->grid);
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  astar_result r;
  const astar_status st = astar__jps_plus_find_path_checked(
      ws, f->cfg.jps_plus, f->grid, &f->opt, s->start, s->goal, out->buf, out->cap, &r);
  astar__fres_from_grid(res, &r, st);
  return st;
}

static const astar__ops ops = {ASTAR__OUT_CELLS, astar__freserve_grid, NULL, NULL, NULL, run};

const astar__method astar__m_jps_plus = {
    {ASTAR_METHOD_JPS_PLUS, "jps-plus",
     "JPS+: JPS over precomputed jump distances, the fastest optimal search on uniform grids",
     ASTAR_MF_OPTIMAL | ASTAR_MF_GRID | ASTAR_MF_NEEDS_PREP, ASTAR_ATTACH_JPS_PLUS,
     ASTAR_ATTACH_JPS_PLUS, "jump points expanded"},
    unsupported,
    NULL,
    &ops};
