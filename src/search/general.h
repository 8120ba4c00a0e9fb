/*
** general.h -- per-node helpers of the general search loops (astar.c's
** general instances and turns.c): the goal test for one goal, several goals
** or a goal region, and the entry cost factor with terrain scaling,
** influence layers and unknown cells.
*/
#ifndef ASTAR_GENERAL_H
#define ASTAR_GENERAL_H

#include "gameloop/layers.h"
#include "search/query.h"

/* Is padded cell u a goal of the search? */
ASTAR__INLINE bool astar__is_goal_node(const astar__query *q, uint32_t u) {
  if (q->fx->is_goal) {
    const uint32_t stride = (uint32_t)q->grid->stride;
    const astar_point c = {(int32_t)(u % stride) - 1, (int32_t)(u / stride) - 1};
    return q->fx->is_goal(q->fx->goal_ctx, c);
  }
  if (q->fx->goals) {
    for (size_t i = 0; i < q->fx->ngoals; i++)
      if (astar__index(q->grid, q->fx->goals[i].x, q->fx->goals[i].y) == u &&
          astar_grid_passable(q->grid, q->fx->goals[i].x, q->fx->goals[i].y))
        return true;
    return false;
  }
  return u == q->goal;
}

/* Entry cost factor of padded cell v: terrain after terrain_scale, plus the
** weighted layers, times unknown_cost for an unknown cell under
** ASTAR_UNKNOWN_COST. paths/sight.c (view_factor) prices the cells an
** any-angle segment crosses the same way: change both together. */
ASTAR__INLINE double astar__entry_factor(const astar__query *q, uint32_t v) {
  const float *ter = q->grid->terrain;
  double f = ter ? 1.0 + q->fx->alpha * ((double)ter[v] - 1.0) : 1.0;
  for (size_t i = 0; i < q->fx->nlayers; i++)
    f += (double)q->fx->layer_w[i] * (double)q->fx->layers[i]->v[v];
  if (q->fx->knowledge && q->fx->unknown == ASTAR_UNKNOWN_COST &&
      astar__knowledge_unknown(q->fx->knowledge, v))
    f *= q->fx->unknown_cost;
  return f;
}

#endif /* ASTAR_GENERAL_H */
