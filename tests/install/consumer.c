/*
** tests/install/consumer.c -- a program built against an installed libastar
** (headers, library and CMake package from the install prefix, nothing from
** the source tree). Exits 0 when the library it linked works.
*/
#include <astar/astar.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  int failed = 0;
  if (strcmp(astar_version(), ASTAR_VERSION_STRING) != 0) {
    fprintf(stderr, "header says %s, library says %s\n", ASTAR_VERSION_STRING, astar_version());
    failed++;
  }

  astar_grid *g = NULL;
  astar_workspace *ws = NULL;
  astar_point path[64];
  astar_result r;
  /* Around the wall at x = 4 through its gap at the bottom: 5 diagonal and
  ** 11 straight moves. */
  const double expected = 11.0 + 5.0 * 1.4142135623730951;
  astar_status st = astar_grid_new(&g, 8, 8, NULL);
  if (st == ASTAR_OK) {
    for (int y = 0; y < 7; y++) astar_grid_set_passable(g, 4, y, false);
    st = astar_workspace_new(&ws, g, NULL);
  }
  if (st == ASTAR_OK)
    st = astar_find_path(ws, g, NULL, (astar_point){0, 0}, (astar_point){7, 0}, path, 64, &r);
  if (st != ASTAR_OK) {
    fprintf(stderr, "search failed: %s\n", astar_strerror(st));
    failed++;
  } else if (r.length < 2 || path[0].x != 0 || path[r.length - 1].x != 7 ||
             r.cost < expected - 1e-9 || r.cost > expected + 1e-9) {
    fprintf(stderr, "bad path: %zu cells, cost %.6f (expected %.6f)\n", r.length, r.cost, expected);
    failed++;
  } else {
    printf("astar %s: path of %zu cells, cost %.4f\n", astar_version(), r.length, r.cost);
  }
  astar_workspace_free(ws);
  astar_grid_free(g);
  return failed ? 1 : 0;
}
