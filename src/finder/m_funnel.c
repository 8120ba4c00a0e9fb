/*
** finder/m_funnel.c -- PLACEHOLDER on branch i30-core only: the row exists so
** the table compiles; the helper owning this method replaces this file.
** Never merged to main as is.
*/
#include "finder/finder.h"

static const char *unsupported(const astar__fcheck *c) {
  (void)c;
  return "funnel: not built yet";
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  (void)f, (void)ws, (void)s;
  return ASTAR_UNSUPPORTED;
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  (void)f, (void)ws, (void)s, (void)out;
  astar__fres_clear(res, ASTAR_UNSUPPORTED);
  return ASTAR_UNSUPPORTED;
}

static const astar__ops ops = {ASTAR__OUT_VEC, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_funnel = {
    {ASTAR_METHOD_FUNNEL, "funnel", "placeholder",
     ASTAR_MF_MESH | ASTAR_MF_ANY_ANGLE | ASTAR_MF_VEC, 0, 0, "search nodes expanded"},
    unsupported,
    NULL,
    &ops};
