/*
** astar/astar.h -- libastar, A* pathfinding on grids and on any graph.
** Include this one header: it includes every public header, in this order.
**
**   base.h      statuses, allocator, points, version; the conventions
**               every object follows (what it retains, thread safety)
**   grid.h      the map: passable / blocked cells, terrain costs,
**               change tracking; influence layers
**   search.h    workspaces, options, astar_find_path, sliced searches
**   format.h    Moving AI .map / .scen and plain ASCII maps, parsed from memory
**   jps_plus.h  JPS+: precomputed jump distances and the search that uses them
**   landmarks.h landmarks (ALT): an exact, consistent heuristic for any
**               space and for the grid's A*
**   knowledge.h fog of war: one player's view of a shared grid
**   islands.h   connected components: O(1) reachability
**   field.h     distance field to one goal, for groups of units
**   queue.h     path-request queue spread over frames under a budget
**   space.h     search spaces: what the engine searches (nodes, arcs, heuristic)
**   engine.h    one search engine over any space: A*, Dijkstra, greedy,
**               bidirectional, ...
**   grid_space.h  the square grid as a space
**   implicit.h  implicit spaces: the caller's 64-bit states, numbered on the fly
**   hex.h       hexagonal grids: coordinates, the grid as a space, ASCII hex maps
**   waypoints.h waypoint graphs: obstacle corners joined by lines of sight (any-angle)
**   anyangle.h  lines of sight, string pulling, Theta* and Lazy Theta*
**   anya.h      Anya: optimal any-angle paths (Euclidean shortest, centre to centre)
**   graph.h     static graphs in compressed (CSR) form; DIMACS .gr / .co / .p2p
**   batch.h     many queries on one shared grid, a worker thread per core
**   path.h      storing paths: compact encodings, turn points, paths held K
**               steps ahead, goal-first storage for splicing
**   clearance.h units bigger than one cell, terrain types some units may enter
**   waypoint_table.h  Patel 2.4.1: exact costs between waypoints (doors, a coarse
**               grid) as a heuristic for A*
**   hierarchy.h HPA*: hierarchical path-finding over cluster entrances, multi-level
**   watch.h     a watch index: which registered paths an edit of the grid breaks
**   splice.h    repairing a broken path by a local search (path splicing)
**   replan.h    units following paths on a changing map; when they replan
**   spacetime.h reservation table, cooperative A* (windowed), SIPP: units that
**               do not collide, moving obstacles
**   dstar.h     D* Lite and LPA*: incremental replanning after edits
**   cpd.h       compressed path database: the optimal first move from every
**               cell to every cell, paths without search
**   subgoal.h   subgoal graphs (simple, two-level, N-level): optimal paths
**               over a precomputed graph of obstacle corners
**   mesh.h      navigation meshes: convex polygons, Polyanya's mesh format,
**               validation, point location
**   navmesh_build.h  meshes built from polygon maps and grids (constrained
**               Delaunay, exact predicates), agent radius, obstacles added later
**   finder.h    one query, any method: a method prepared once (with its
**               precomputation), searched one-shot or sliced from any thread
**   mapf.h      multi-agent pathfinding: many agents, no collisions (PIBT,
**               LaCAM / LaCAM*, CBS / EECBS, prioritised planning), the validator
**
** Quick use:
**     astar_grid *g; astar_workspace *ws; astar_point path[256]; astar_result r;
**     astar_grid_new(&g, 64, 64, NULL);
**     astar_grid_set_passable(g, 10, 10, false);
**     astar_workspace_new(&ws, g, NULL);
**     if (astar_find_path(ws, g, NULL, (astar_point){0, 0}, (astar_point){63, 63},
**                         path, 256, &r) == ASTAR_OK) { ... r.length, r.cost ... }
**     astar_workspace_free(ws); astar_grid_free(g);
*/
#ifndef ASTAR_ASTAR_H
#define ASTAR_ASTAR_H

#include "base.h"
#include "grid.h"
#include "search.h"
#include "format.h"
#include "jps_plus.h"
#include "landmarks.h"
#include "knowledge.h"
#include "islands.h"
#include "field.h"
#include "queue.h"
#include "space.h"
#include "engine.h"
#include "grid_space.h"
#include "implicit.h"
#include "hex.h"
#include "waypoints.h"
#include "anyangle.h"
#include "anya.h"
#include "graph.h"
#include "batch.h"
#include "path.h"
#include "clearance.h"
#include "waypoint_table.h"
#include "hierarchy.h"
#include "watch.h"
#include "splice.h"
#include "replan.h"
#include "spacetime.h"
#include "dstar.h"
#include "cpd.h"
#include "subgoal.h"
#include "mesh.h"
#include "navmesh_build.h"
#include "finder.h"
#include "mapf.h"

#endif /* ASTAR_ASTAR_H */
