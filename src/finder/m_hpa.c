/*
** finder/m_hpa.c -- HPA* over an attached hierarchy (src/hierarchy/), run
** whole; its query object lives in the workspace's finder state, made on
** first use and grown when a hierarchy needs more.
*/
#include "finder/finder.h"
#include "hierarchy/hpa.h"

astar_status astar__hpa_fits(const astar_hpa *h, const astar_grid *grid, const astar_options *o) {
  if (h->grid != grid || h->width != grid->width || h->height != grid->height)
    return ASTAR_MISMATCH;
  /* The abstract costs are those of the rules it was built for. */
  if (h->moves != o->moves || h->sc != o->straight_cost ||
      (o->moves == 8 && (h->corner != o->corner || h->dc != o->diagonal_cost)))
    return ASTAR_MISMATCH;
  return h->version != grid->version ? ASTAR_STALE : ASTAR_OK;
}

static const char *unsupported(const astar__fcheck *c) {
  const astar_options *o = &c->cfg->options;
  if (o->turn_penalty != 0.0 || o->terrain_scale != 1.0 || o->nlayers || o->knowledge)
    return "hpa: its abstract costs cannot hold a turn penalty, a terrain scale, layers or fog "
           "(use astar)";
  return astar__fgame_loop_refusal(o, 0);
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  if (!s->hpa) return astar_hpa_query_new(&s->hpa, f->cfg.hpa, &ws->alloc);
  return astar_hpa_query_reserve(s->hpa, f->cfg.hpa);
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  (void)ws;
  astar_hpa_result r;
  const astar_status st =
      astar_hpa_find_path(s->hpa, f->cfg.hpa, f->grid, s->start, s->goal, out->buf, out->cap, &r);
  astar__fres_clear(res, st);
  res->cost = r.cost;
  res->length = r.length;
  res->stats.expanded = r.expanded_top + r.expanded_insert + r.expanded_refine;
  res->work = res->stats.expanded;
  res->abstract_expanded = r.expanded_top;
  res->abstract_length = r.abstract_length;
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) res->end = s->goal;
  return st;
}

static const astar__ops ops = {ASTAR__OUT_CELLS, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_hpa = {
    {ASTAR_METHOD_HPA, "hpa",
     "HPA*: hierarchical search over cluster entrances, near-optimal (terrain included)",
     ASTAR_MF_GRID | ASTAR_MF_TERRAIN | ASTAR_MF_NEEDS_PREP, ASTAR_ATTACH_HPA, ASTAR_ATTACH_HPA,
     "abstract nodes expanded plus cells and nodes settled joining and refining"},
    unsupported,
    NULL,
    &ops};
