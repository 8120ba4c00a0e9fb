/*
** examples/navmesh.c -- a navigation mesh from a grid, the optimal path over
** it (Polyanya) and Detour's kind of path (A* over the polygons + funnel),
** then a crate dropped on the map and the path found again.
**
**   navmesh              (a built-in 16 x 9 map)
**
** Every call's contract is in astar/mesh.h, astar/navmesh_build.h and
** astar/finder.h.
*/
#include <astar/astar.h>
#include <stdio.h>
#include <string.h>

static const char *const MAP[] = {
    "................", "................", "....#######.....",
    "..........#.....", "..........#.....", "....#######.....",
    "................", "................", "................",
};

/* One search with `f`, printed. */
static int show(const char *what, const astar_finder *f, astar_workspace *ws, astar_vec2 s,
                astar_vec2 g) {
  astar_vec2 path[64];
  astar_path_result res;
  const astar_status st = astar_finder_find_points(f, ws, s, g, path, 64, &res);
  if (st != ASTAR_OK) {
    printf("%s: %s\n", what, astar_strerror(st));
    return 1;
  }
  printf("%-9s length %.4f, %zu points:", what, res.cost, res.length);
  for (size_t i = 0; i < res.length; i++) printf(" (%.2f, %.2f)", path[i].x, path[i].y);
  printf("\n");
  return 0;
}

int main(void) {
  const int w = (int)strlen(MAP[0]), h = (int)(sizeof MAP / sizeof MAP[0]);
  astar_grid *grid = NULL;
  if (astar_grid_new(&grid, w, h, NULL) != ASTAR_OK) return 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) astar_grid_set_passable(grid, x, y, MAP[y][x] == '.');

  /* The mesh: the free cells' squares (Anya's corner rule), triangulated
  ** and merged into convex polygons. A radius would keep paths away from
  ** the walls (o.radius). */
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  astar_navmesh *nm = NULL;
  astar_status st = astar_navmesh_from_grid(&nm, grid, &o, NULL);
  if (st != ASTAR_OK) {
    printf("build: %s\n", astar_strerror(st));
    return 1;
  }
  const astar_mesh *mesh = astar_navmesh_mesh(nm);
  printf("mesh: %zu polygons, %zu vertices, area %.0f\n", astar_mesh_polygon_count(mesh),
         astar_mesh_vertex_count(mesh), astar_mesh_area(mesh));

  /* Two finders on the one mesh, one workspace for this thread. */
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_POLYANYA;
  astar_finder *optimal = NULL, *funnel = NULL;
  astar_workspace *ws = NULL;
  if (astar_finder_new_mesh(&optimal, mesh, &cfg, NULL) != ASTAR_OK) return 1;
  cfg.method = ASTAR_METHOD_FUNNEL;
  if (astar_finder_new_mesh(&funnel, mesh, &cfg, NULL) != ASTAR_OK) return 1;
  if (astar_workspace_new_empty(&ws, NULL) != ASTAR_OK) return 1;

  const astar_vec2 s = {6.5, 3.5}, g = {14.5, 4.5};
  int bad = show("polyanya", optimal, ws, s, g) | show("funnel", funnel, ws, s, g);

  /* A crate under the wall's corner closes the way below: only the
  ** polygons it touches are rebuilt, the finders follow the edit by
  ** themselves, and the path now goes over the wall. */
  const astar_vec2 crate[] = {{3, 6}, {5, 6}, {5, 9}, {3, 9}};
  uint32_t id = 0;
  if (astar_navmesh_add_obstacle(nm, crate, 4, &id) != ASTAR_OK) return 1;
  printf("crate added (mesh version %llu)\n", (unsigned long long)astar_mesh_version(mesh));
  bad |= show("polyanya", optimal, ws, s, g);
  astar_navmesh_remove_obstacle(nm, id);

  astar_workspace_free(ws);
  astar_finder_free(funnel);
  astar_finder_free(optimal);
  astar_navmesh_free(nm);
  astar_grid_free(grid);
  return bad;
}
