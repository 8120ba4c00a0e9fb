/* A path across a small grid through the installed libastar: the package's
** headers, library and link flags are usable. Exits 0 when they are. */
#include <astar/astar.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  astar_grid *g = NULL;
  astar_workspace *ws = NULL;
  astar_point path[16];
  astar_result r;
  astar_status st = astar_grid_new(&g, 4, 4, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&ws, g, NULL);
  if (st == ASTAR_OK)
    st = astar_find_path(ws, g, NULL, (astar_point){0, 0}, (astar_point){3, 3}, path, 16, &r);
  int ok = st == ASTAR_OK && r.length == 4 && strcmp(astar_version(), ASTAR_VERSION_STRING) == 0;
  printf("libastar %s: %s (%s, %zu cells)\n", astar_version(), ok ? "ok" : "FAILED",
         astar_strerror(st), st == ASTAR_OK ? r.length : 0);
  astar_workspace_free(ws);
  astar_grid_free(g);
  return ok ? 0 : 1;
}
