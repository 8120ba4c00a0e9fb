/*
** finder/m_anya.c -- Anya (anyangle/anya.c), run whole: the Euclidean
** shortest path, bending at obstacle corners (astar_vec2 points). Its
** workspace lives in the workspace's finder state, made on first use; its
** node pool doubles whenever a query needs more (a query's node count is
** not bounded by the map, astar/anya.h).
*/
#include "finder/finder.h"

static const char *unsupported(const astar__fcheck *c) {
  const astar_options *o = &c->cfg->options;
  if (astar_grid_has_terrain(c->grid))
    return "anya: the grid has terrain costs; any-angle segments cost their length (use astar)";
  if (o->moves != 8 || (o->corner != ASTAR_CORNER_NO_CUT && o->corner != ASTAR_CORNER_ONE_SIDE))
    return "anya: its paths never squeeze between diagonal obstacles, the bound of grid paths "
           "with 8 moves under ASTAR_CORNER_NO_CUT or ASTAR_CORNER_ONE_SIDE";
  if (o->weight != 1.0 || o->tie != ASTAR_TIE_LARGER_G ||
      o->diagonal_cost != o->straight_cost * 1.41421356237309504880)
    return "anya: it is optimal and exact: no weight, tie order or diagonal cost other than "
           "straight x sqrt 2";
  if (o->heuristic != ASTAR_H_AUTO)
    return "anya: it uses the straight-line distance as its heuristic (leave options.heuristic "
           "at ASTAR_H_AUTO)";
  return astar__fgame_loop_refusal(o, 0);
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  if (!s->anya) return astar_anya_workspace_new(&s->anya, f->grid, 0, &ws->alloc);
  return astar_anya_workspace_reserve(s->anya, f->grid, 0);
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  (void)ws;
  astar_anya_result r;
  astar_status st;
  for (;;) {
    st = astar_anya_find_path(s->anya, f->grid, s->start, s->goal, out->buf, out->cap, &r);
    const size_t nodes = astar_anya_workspace_nodes(s->anya);
    if (st != ASTAR_CAPACITY || r.stats.generated < nodes) break;
    /* The pool ran out: twice as many nodes, and the query again. */
    const astar_status g = nodes > SIZE_MAX / 2
                               ? ASTAR_TOO_LARGE
                               : astar_anya_workspace_reserve(s->anya, NULL, 2 * nodes);
    if (g != ASTAR_OK) {
      st = g == ASTAR_TOO_LARGE ? ASTAR_CAPACITY : g;
      break;
    }
  }
  astar__fres_clear(res, st);
  res->cost = f->opt.straight_cost * r.cost;
  res->length = r.length;
  res->stats = r.stats;
  res->work = r.stats.expanded;
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) res->end = s->goal;
  return st;
}

static const astar__ops ops = {ASTAR__OUT_VEC, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_anya = {
    {ASTAR_METHOD_ANYA, "anya",
     "Anya: the Euclidean shortest path, optimal any-angle (points on grid corners)",
     ASTAR_MF_OPTIMAL | ASTAR_MF_GRID | ASTAR_MF_ANY_ANGLE | ASTAR_MF_VEC, 0, 0,
     "search nodes (intervals) expanded"},
    unsupported,
    NULL,
    &ops};
