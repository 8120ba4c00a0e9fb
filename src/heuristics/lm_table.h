/*
** heuristics/lm_table.h -- what the grid search needs to know of a landmark
** table (astar/landmarks.h) when its heuristic callback is
** astar_landmarks_grid_heuristic: whether the table may spare it reopening
** closed nodes.
*/
#ifndef ASTAR_HEURISTICS_LM_TABLE_H
#define ASTAR_HEURISTICS_LM_TABLE_H

#include "core/internal.h"

#include "astar/landmarks.h"

/* True when `ctx` is an astar_landmarks built for exactly `grid`, current
** (grid version unchanged) and consistent: the grid's A* then need not
** reopen nodes. */
bool astar__landmarks_grid_consistent(const void *ctx, const void *grid);

/* True when `lm` is a grid table built (or loaded) for the movement rules
** of `opt`: the same moves, straight cost and, with diagonal moves, corner
** rule and diagonal cost -- so that its distances are the search's. */
bool astar__landmarks_rules_match(const struct astar_landmarks *lm, const astar_options *opt);

#endif /* ASTAR_HEURISTICS_LM_TABLE_H */
