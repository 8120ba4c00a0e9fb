/*
** finder/m_cpd.c -- a compressed path database (src/cpd/): no search, the
** first move looked up cell by cell to the goal; run whole, its work the
** cells of the path walked.
*/
#include "cpd/cpd.h"
#include "finder/finder.h"

astar_status astar__cpd_check(const astar_cpd *cpd, const astar_grid *grid) {
  if (cpd->grid != grid || cpd->width != grid->width || cpd->height != grid->height)
    return ASTAR_MISMATCH;
  return cpd->version != grid->version ? ASTAR_STALE : ASTAR_OK;
}

static const char *unsupported(const astar__fcheck *c) {
  const char *why = astar_cpd_unsupported_reason(c->grid, &c->cfg->options);
  return why ? why : astar__fgame_loop_refusal(&c->cfg->options, 0);
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  (void)ws;
  size_t len = 0;
  double cost = 0.0;
  const astar_status st =
      astar_cpd_path(f->cfg.cpd, f->grid, s->start, s->goal, out->buf, out->cap, &len, &cost);
  astar__fres_clear(res, st);
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) {
    res->cost = cost;
    res->length = len;
    res->end = s->goal;
    res->work = len; /* cells looked up, one a step */
  }
  return st;
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  (void)f, (void)ws, (void)s;
  return ASTAR_OK; /* a lookup needs no workspace */
}

static const astar__ops ops = {ASTAR__OUT_CELLS, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_cpd = {
    {ASTAR_METHOD_CPD, "cpd",
     "compressed path database: optimal first moves looked up, no search (Moving AI rules)",
     ASTAR_MF_OPTIMAL | ASTAR_MF_GRID | ASTAR_MF_NEEDS_PREP, ASTAR_ATTACH_CPD, ASTAR_ATTACH_CPD,
     "cells of the path walked"},
    unsupported,
    NULL,
    &ops};
