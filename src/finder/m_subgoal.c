/*
** finder/m_subgoal.c -- PLACEHOLDER on the lead branch i31-core: the
** integration owner writes the row (A* over a subgoal graph, run whole).
*/
#include "finder/finder.h"

static const char *unsupported(const astar__fcheck *c) {
  (void)c;
  return "subgoal: needs a subgoal graph (make the finder with astar_finder_new_subgoal)";
}

const astar__method astar__m_subgoal = {
    {ASTAR_METHOD_SUBGOAL, "subgoal",
     "Subgoal graphs (N-level): A* over precomputed obstacle corners, optimal",
     ASTAR_MF_OPTIMAL | ASTAR_MF_GRID | ASTAR_MF_NEEDS_PREP, ASTAR_ATTACH_SUBGOAL,
     ASTAR_ATTACH_SUBGOAL, "subgoals expanded"},
    unsupported,
    NULL,
    NULL};
