/*
** esp_reference.h -- the Euclidean shortest path between cell centres under
** the geometry of astar/anya.h, computed the slow, obvious way for the
** tests: a visibility graph over the start and goal centres and every
** convex obstacle corner (a grid point with exactly one blocked cell among
** its four, cells outside the map blocked), edges where the straight
** segment is legal (exact integer arithmetic), and Dijkstra.
** Points are given in doubled units ("lattice"): (X, Y) is (X/2, Y/2) in
** cell units, so corners are (even, even) and centres (odd, odd).
*/
#ifndef ASTAR_TEST_ESP_REFERENCE_H
#define ASTAR_TEST_ESP_REFERENCE_H
#include <astar/astar.h>

/* Is the closed segment between lattice points (px, py) and (qx, qy) a legal
** path: it never enters a blocked cell's interior, never runs along an
** edge between two blocked cells (or outside the map), and never passes
** through a grid point with no free cell or whose four cells are exactly
** two diagonal blocked ones? Exact: every point where the segment meets a
** grid line, and every piece between two such points, is checked with
** integers. Coordinates up to a few thousand. */
int esp_segment_legal(const astar_grid *g, int64_t px, int64_t py, int64_t qx, int64_t qy);

/* The visibility graph of the corners of one grid (built once, queried
** many times); malloc'd; NULL when out of memory. The grid must not change
** while it is used. */
typedef struct esp_graph esp_graph;
esp_graph *esp_graph_new(const astar_grid *g);
void esp_graph_free(esp_graph *eg);
/* Number of corners (vertices besides start and goal). */
size_t esp_graph_corners(const esp_graph *eg);
/* Length in cell units of the shortest legal path between the centres of
** s and t, or -1 when there is none (or s or t is outside or blocked). */
double esp_graph_query(const esp_graph *eg, astar_point s, astar_point t);
#endif
