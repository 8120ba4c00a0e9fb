/*
** finder/m_polyanya.c -- Polyanya (mesh/polyanya.c), run whole: the
** Euclidean shortest path between two points of a navigation mesh. Its
** root table lives in the workspace's finder state (made on first use,
** resized when the mesh changes); its nodes and open list in the method
** scratch, doubled (and the query run again) whenever a query needs more
** -- a query's node count is not bounded by the mesh, as for Anya.
*/
#include "finder/finder.h"
#include "mesh/polyanya.h"

#include <string.h>

extern const astar__method astar__m_polyanya;

static const char *unsupported(const astar__fcheck *c) {
  (void)c;
  return NULL;
}

/* The scratch for the nodes the search wants. Cleared when it is new to
** Polyanya (grown, or last laid out by another method): the expanded
** table is an open-addressing table whose stale entries are told apart
** by the nodes they name, so it never needs clearing between queries --
** but it must never be read before it was first written. */
static astar_status scratch(astar_workspace *ws, astar__fstate *s, void **mem, size_t *bytes) {
  *bytes = astar__polyanya_want_nodes(s->polyanya) * astar__polyanya_node_bytes();
  bool fresh = false;
  const astar_status st =
      astar__fscratch_method_tagged(ws, s, *bytes, &astar__m_polyanya, mem, &fresh);
  if (st == ASTAR_OK && fresh) memset(*mem, 0, *bytes);
  return st;
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  const astar_status st = astar__polyanya_reserve(&s->polyanya, f->mesh, &ws->alloc);
  if (st != ASTAR_OK) return st;
  void *mem;
  size_t bytes;
  return scratch(ws, s, &mem, &bytes);
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  const astar_engine_options *eo = &f->cfg.engine;
  const astar__pa_params prm = {eo->weight,
                                eo->max_expansions,
                                eo->stop_fn,
                                eo->stop_ctx,
                                eo->stop_interval ? eo->stop_interval : 1,
                                f->mesh_observer,
                                f->mesh_observer_ctx};
  astar__pa_result r;
  astar_status st;
  for (;;) {
    void *mem;
    size_t bytes;
    st = scratch(ws, s, &mem, &bytes);
    if (st != ASTAR_OK) {
      memset(&r, 0, sizeof r);
      break;
    }
    st = astar__polyanya_search(s->polyanya, f->mesh, mem, bytes, s->pstart, s->pgoal, &prm,
                                out->buf, out->cap, &r);
    if (st != ASTAR_CAPACITY) break;
    if (!astar__polyanya_double_nodes(s->polyanya)) break;
  }
  astar__fres_clear(res, st);
  res->cost = r.cost;
  res->length = r.length;
  res->stats = r.stats;
  res->work = r.stats.expanded;
  return st;
}

static const astar__ops ops = {ASTAR__OUT_VEC, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_polyanya = {
    {ASTAR_METHOD_POLYANYA, "polyanya",
     "Polyanya: the Euclidean shortest path on a navigation mesh (optimal, any angle)",
     ASTAR_MF_OPTIMAL | ASTAR_MF_MESH | ASTAR_MF_ANY_ANGLE | ASTAR_MF_VEC, 0, 0,
     "search nodes expanded"},
    unsupported,
    NULL,
    &ops};
