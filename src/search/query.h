/*
** search/query.h -- what every grid search shares: the per-search "query"
** resolved from the options (heuristic, costs, tie order; its type and the
** general loop's features, buckets and turn states the workspace holds are
** in core/state.h), and the begin / end steps around an algorithm's main
** loop (search/query.c).
*/
#ifndef ASTAR_QUERY_H
#define ASTAR_QUERY_H

#include "core/loop.h"
#include "core/state.h"

#include <math.h>
#include <string.h>

#define ASTAR__SQRT2 1.41421356237309504880

/* Can the jump searches (JPS, JPS+) honour these options on this grid?
** The uniform-cost model they are built for (8 moves, no corner cutting, no
** terrain, straight <= diagonal < 2 * straight, octile heuristic, no forced
** reopening) and none of the general A* loop's features except the
** observer, which they report to from a loop instance of their own. */
bool astar__jump_rules_ok(const astar_options *o, const astar_grid *g);

/* ---- the query -------------------------------------------------------------- */

enum {
  ASTAR__HK_OCTILE,
  ASTAR__HK_MANHATTAN,
  ASTAR__HK_CHEBYSHEV,
  ASTAR__HK_EUCLIDEAN,
  ASTAR__HK_ZERO,
  ASTAR__HK_CALLBACK,
  ASTAR__HK_MULTI /* minimum over q->fx->goals of q->fx->base_hk */
};

/* ---- options (options.c) --------------------------------------------------- */

/* Diagonal moves possible under these options? */
bool astar__diagonals_on(const astar_options *o);
/* The ASTAR__RULE_* of these options. */
int astar__rule_of(const astar_options *o);

/* ---- heuristic and keys ---------------------------------------------------------- */

/* Minimum over q->fx->goals of the base heuristic (search/query.c). */
double astar__h_multi(const astar__query *q, int32_t x, int32_t y);

/* Heuristic at padded (x, y) towards padded goal (gx, gy) for a base kind
** hk (not ASTAR__HK_MULTI); hk is a constant where the caller specialises. */
ASTAR__INLINE double astar__h_at(const astar__query *q, int hk, int32_t x, int32_t y, int32_t gx,
                                 int32_t gy) {
  const int32_t ddx = x > gx ? x - gx : gx - x;
  const int32_t ddy = y > gy ? y - gy : gy - y;
  const double dx = (double)ddx, dy = (double)ddy;
  switch (hk) {
  case ASTAR__HK_OCTILE:
    return q->ha * (dx + dy) + q->hb * (double)(ddx < ddy ? ddx : ddy);
  case ASTAR__HK_MANHATTAN:
    return q->ha * (dx + dy);
  case ASTAR__HK_CHEBYSHEV:
    return q->ha * (double)(ddx > ddy ? ddx : ddy);
  case ASTAR__HK_EUCLIDEAN:
    return q->ha * sqrt(dx * dx + dy * dy);
  case ASTAR__HK_ZERO:
    return 0.0;
  default: {
    const astar_point c = {x - 1, y - 1}, g = {gx - 1, gy - 1};
    const double h = q->hfn(q->hctx, c, g);
    return (isfinite(h) && h > 0.0) ? q->ha * h : 0.0;
  }
  }
}

/* Heuristic at padded (x, y); hk is q->hkind (a constant where the caller
** specialises on it). */
ASTAR__INLINE double astar__h(const astar__query *q, int hk, int32_t x, int32_t y) {
  if (hk == ASTAR__HK_MULTI) return astar__h_multi(q, x, y);
  return astar__h_at(q, hk, x, y, q->gx, q->gy);
}

/* Tie key of a node at padded (x, y) with cost g pushed as push number
** seq, in the query's tie order (core/loop.h). */
ASTAR__INLINE uint32_t astar__tie_key_q(const astar__query *q, int tie, double g, int32_t x,
                                        int32_t y, uint32_t seq) {
  return astar__tie_key_at(tie, g, seq, x, y, q->sx, q->sy, q->gx, q->gy);
}

/* Fill the heuristic and reopening fields of q from the options. */
void astar__setup_heuristic(astar__query *q, const astar_options *o, const astar_grid *g);

/* ---- begin / end (search/query.c) ------------------------------------------------ */

/* The move cost per direction (straight N E S W, then diagonals) for opt
** on grid: the options' costs rounded to a power-of-two quantum, so that
** uniform-cost sums are exact (query.c says why). Every grid search and the
** grid as a space use these. */
void astar__move_costs(const astar_grid *grid, const astar_options *opt, double cost[8]);

/* The two halves of astar__begin: resolve the options -- which the caller
** validated (astar_options_validate), once a query -- into *q (no
** workspace change), then open a new generation and, if push_start, push
** the start. */
astar_status astar__prepare(astar__query *q, astar__features *fx, const astar_workspace *ws,
                            const astar_grid *grid, const astar_options *opt, astar_point start,
                            astar_point goal);
void astar__open(astar__query *q, astar_workspace *ws, bool push_start);

/*
** Start a search: check the endpoints, resolve `opt` (validated by the
** caller) into *q, open a new generation in ws and push the start. Returns ASTAR_OK
** to go on; any other status is the search's final outcome (blocked
** endpoints, bad arguments, ...). start == goal leaves the open list empty
** and sets *trivial.
*/
astar_status astar__begin(astar__query *q, astar_workspace *ws, const astar_grid *grid,
                          const astar_options *opt, astar_point start, astar_point goal,
                          bool *trivial);

/*
** Finish a search whose main loop returned `st`: record the path for
** astar_workspace_path, fill *result (may be NULL) and copy the path into
** (path, cap). Parent links may skip cells along a straight or diagonal
** line (jump searches): the path is filled in cell by cell, diagonal moves
** first. Returns the search's final status.
*/
astar_status astar__end(astar__query *q, astar_workspace *ws, astar_status st, astar_point *path,
                        size_t cap, astar_result *result);

/* ---- algorithms ------------------------------------------------------------------ */

/* Report an event on node `node` (a cell, or a turn state when per == 9)
** to q->fx->observer (search/query.c). */
void astar__emit(const astar__query *q, astar_event_type type, uint32_t node, uint32_t parent,
                 double g, double f, uint32_t per);

/* The jump searches (jps.c, jps_plus.c) with options.observer: take the
** observer into q and report the start's push -- or, for a trivial search
** (start == goal), only the goal event -- as astar.c does (search/query.c). */
void astar__observe_start(astar__query *q, const astar_options *opt, bool trivial);
/* Report ASTAR_EVENT_SCAN for the n cells of a jump from padded cell
** `origin` in direction (dx, dy), each step costing `step`: cell k (1..n)
** has parent `origin` and g = g0 + k * step (search/query.c). */
void astar__emit_scan(const astar__query *q, uint32_t origin, int dx, int dy, int32_t n, double g0,
                      double step);

/* Partial paths: distance of padded (x, y) to the goal(s) by the move rules
** (astar.c). */
double astar__closeness(const astar__query *q, int32_t x, int32_t y);

#endif /* ASTAR_QUERY_H */
