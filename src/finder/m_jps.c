/*
** finder/m_jps.c -- Jump Point Search (search/jps.c), run whole: JPS has no
** sliced search.
*/
#include "finder/finder.h"
#include "search/checked.h"

static const char *unsupported(const astar__fcheck *c) {
  astar_options o = c->cfg->options;
  o.algorithm = ASTAR_ALGO_JPS;
  return astar_unsupported_reason(&o, c->grid);
}

static void prepare(astar_finder *f) {
  f->opt.algorithm = ASTAR_ALGO_JPS;
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  astar_result r;
  const astar_status st =
      astar__find_path_checked(ws, f->grid, &f->opt, s->start, s->goal, out->buf, out->cap, &r);
  astar__fres_from_grid(res, &r, st);
  return st;
}

static const astar__ops ops = {ASTAR__OUT_CELLS, astar__freserve_grid, NULL, NULL, NULL, run};

const astar__method astar__m_jps = {
    {ASTAR_METHOD_JPS, "jps",
     "Jump Point Search: optimal on uniform-cost grids, expands only jump points",
     ASTAR_MF_OPTIMAL | ASTAR_MF_GRID, 0, 0, "jump points expanded"},
    unsupported,
    prepare,
    &ops};
