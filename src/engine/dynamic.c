/*
** engine/dynamic.c -- dynamic weighting (Patel 4.3; Pohl 1973): A* with
** f(n) = g(n) + w(n) h(n), where the weight falls from 1 + epsilon at the
** start to 1 as the search goes deeper, so that early on it runs toward
** the goal like weighted A* and near the goal it weighs the true cost.
** Depth is measured in cost: d(n) = g(n), against the anticipated depth
** N = h(start), and
**     w(n) = 1 + epsilon max(0, 1 - d(n) / N)      (w = 1 when N = 0).
** The loop is the A* loop of search.c, with the weight of each generated
** node from astar__engine_w (engine.h); this file sets it up.
**
** The bound C <= (1 + epsilon) C* (h admissible, closed nodes reopened).
** Let P be an optimal path. Until the goal is expanded, some open node n
** of P has its optimal g(n) = g*(n): the start does, and a node of P closed
** with its optimal g generated its successor on P with the successor's
** optimal g, which then is open (or was reopened, since closed nodes that
** get a lower g are reopened). Its key, computed from that g, is
**     f(n) = g*(n) + w(n) h(n) <= g*(n) + (1 + epsilon) h*(n)
**          <= (1 + epsilon) (g*(n) + h*(n)) = (1 + epsilon) C*,
** since w <= 1 + epsilon and h <= h*. The goal t is expanded with the least
** key, so g(t) <= f(t) <= f(n) <= (1 + epsilon) C*. The depth rule only
** ever lowers the weight, which keeps the bound and brings the cost closer
** to C* on long paths. Without reopening (ASTAR_REOPEN_NEVER) the
** invariant, and the bound, can fail.
*/
#include "core/workspace.h"

void astar__dynamic_begin(astar__engine *e) {
  const double n = astar__engine_h(e, e->start);
  e->weight = 1.0;
  if (n > 0.0 && n <= DBL_MAX && e->opt.epsilon > 0.0) {
    e->dyn_eps = e->opt.epsilon;
    e->dyn_inv_n = 1.0 / n;
  }
}
