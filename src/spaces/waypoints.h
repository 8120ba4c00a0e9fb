/*
** spaces/waypoints.h -- what the finder (src/finder/) asks of a waypoint
** graph (astar/waypoints.h) besides the public calls.
*/
#ifndef ASTAR_SPACES_WAYPOINTS_H
#define ASTAR_SPACES_WAYPOINTS_H

#include "astar/waypoints.h"

/* True when `wp` was built for the movement rules of `opt` (options valid):
** the same corner rule and straight cost, with diagonal moves (a graph is
** never built without them). */
bool astar__waypoints_rules_match(const astar_waypoints *wp, const astar_options *opt);

#endif /* ASTAR_SPACES_WAYPOINTS_H */
