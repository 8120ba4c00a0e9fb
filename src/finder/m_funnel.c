/*
** finder/m_funnel.c -- A* over a navigation mesh's polygons with the funnel
** (mesh/funnel.c), run whole: Detour's kind of path, string-pulled through
** the corridor A* found. Its records live in the method scratch, laid out
** for the mesh's pool on first use and kept (astar__fscratch_method_tagged),
** so a search allocates nothing once the workspace has grown for the mesh.
*/
#include "finder/finder.h"
#include "mesh/funnel.h"

/* The tag of the scratch's layout: this row's address. */
extern const astar__method astar__m_funnel;

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  const size_t bytes = astar__funnel_scratch_bytes(f->mesh);
  if (bytes == SIZE_MAX) return ASTAR_TOO_LARGE;
  void *mem;
  bool fresh;
  const astar_status st =
      astar__fscratch_method_tagged(ws, s, bytes, &astar__m_funnel, &mem, &fresh);
  if (st == ASTAR_OK) astar__funnel_scratch_ready(mem, f->mesh, fresh);
  return st;
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  (void)ws;
  const astar_engine_options *eo = &f->eo;
  const astar__funnel_query q = {
      f->mesh,     s->pstart,    s->pgoal,          eo->weight,       eo->max_expansions,
      eo->stop_fn, eo->stop_ctx, eo->stop_interval, f->mesh_observer, f->mesh_observer_ctx};
  astar__funnel_result r;
  const astar_status st = astar__funnel_find(&q, s->mem, out->buf, out->cap, &r);
  astar__fres_clear(res, st);
  res->cost = r.cost;
  res->length = r.length;
  res->abstract_length = r.corridor;
  res->stats = r.stats;
  res->work = r.stats.expanded;
  return st;
}

static const astar__ops ops = {ASTAR__OUT_VEC, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_funnel = {
    {ASTAR_METHOD_FUNNEL, "funnel",
     "A* over a navigation mesh's polygons, then the funnel: Detour's string-pulled path "
     "(not optimal)",
     ASTAR_MF_MESH | ASTAR_MF_ANY_ANGLE | ASTAR_MF_VEC, 0, 0, "search nodes (portals) expanded"},
    NULL,
    NULL,
    &ops};
