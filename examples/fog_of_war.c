/*
** examples/fog_of_war.c -- a unit walks to its goal through fog of war
** (seed 000, "unexplored areas"): it plans on what it has seen, treating
** unknown cells as passable, walks its path one cell at a time revealing
** what lies within its sight, and replans whenever a newly seen wall blocks
** the path it is following. Prints every step and every replan.
**
**   ./fog_of_war            the built-in map
**   ./fog_of_war SIGHT      another sight radius (default 2)
*/
#include <astar/astar.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The real map: the unit starts at S and wants to reach G, but does not
** know about any wall yet. The straight route is walled off; the way round
** is by the bottom. */
static const char *const map_text = "....................\n"
                                    "..S.......#.........\n"
                                    "..........#.........\n"
                                    "..........#......G..\n"
                                    "..........#.........\n"
                                    "..........#.........\n"
                                    "..........#.........\n"
                                    "....................\n";

#define MAXP 512

/* Does the rest of the path (from index i) cross a cell now known blocked? */
static int path_blocked(const astar_knowledge *k, const astar_point *path, size_t i, size_t n) {
  for (; i < n; i++)
    if (astar_knowledge_get(k, path[i].x, path[i].y) == ASTAR_CELL_BLOCKED) return 1;
  return 0;
}

static void draw(const astar_grid *g, const astar_knowledge *k, astar_point unit, astar_point goal,
                 const astar_point *path, size_t from, size_t n) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++) {
    printf("  ");
    for (int32_t x = 0; x < w; x++) {
      char c = '?'; /* unknown */
      astar_cell_knowledge s = astar_knowledge_get(k, x, y);
      if (s == ASTAR_CELL_BLOCKED) c = '#';
      if (s == ASTAR_CELL_PASSABLE) c = '.';
      for (size_t i = from; i < n; i++)
        if (path[i].x == x && path[i].y == y) c = '*';
      if (x == goal.x && y == goal.y) c = 'G';
      if (x == unit.x && y == unit.y) c = '@';
      putchar(c);
    }
    putchar('\n');
  }
}

int main(int argc, char **argv) {
  int sight = argc > 1 ? atoi(argv[1]) : 2;
  if (sight < 1) sight = 1;
  astar_grid *grid = NULL;
  astar_knowledge *seen = NULL;
  astar_workspace *ws = NULL;
  astar_point unit, goal, path[MAXP];
  astar_parse_error err;
  if (astar_ascii_parse_map(&grid, map_text, strlen(map_text), NULL, &unit, &goal, &err) !=
          ASTAR_OK ||
      astar_knowledge_new(&seen, grid, NULL) != ASTAR_OK ||
      astar_workspace_new(&ws, grid, NULL) != ASTAR_OK) {
    fprintf(stderr, "set-up failed\n");
    return EXIT_FAILURE;
  }
  astar_options opt;
  astar_options_init(&opt);
  opt.knowledge = seen;                 /* plan on what the unit has seen ...   */
  opt.unknown = ASTAR_UNKNOWN_PASSABLE; /* ... assuming the unknown is open   */

  astar_knowledge_reveal_radius(seen, grid, unit.x, unit.y, sight, NULL);
  size_t n = 0, at = 0;
  int steps = 0, replans = 0, plans = 0;
  double walked = 0.0;
  for (;;) {
    if (n == 0 || path_blocked(seen, path, at, n)) {
      astar_result r;
      astar_status st = astar_find_path(ws, grid, &opt, unit, goal, path, MAXP, &r);
      if (st != ASTAR_OK) {
        printf("no way to the goal as far as the unit knows: %s\n", astar_strerror(st));
        break;
      }
      if (plans++) replans++;
      n = r.length;
      at = 0;
      printf("%s at (%d,%d): %zu cells, believed cost %.2f, %llu expanded\n",
             plans == 1 ? "plan" : "replan", (int)unit.x, (int)unit.y, n, r.cost,
             (unsigned long long)r.stats.expanded);
      draw(grid, seen, unit, goal, path, at, n);
    }
    if (unit.x == goal.x && unit.y == goal.y) break;
    const astar_point next = path[at + 1];
    double step_cost;
    const astar_point step[2] = {unit, next};
    astar_path_cost(grid, NULL, step, 2, &step_cost, NULL); /* the real cost of the move */
    walked += step_cost;
    unit = next;
    at++;
    steps++;
    size_t changed;
    astar_knowledge_reveal_radius(seen, grid, unit.x, unit.y, sight, &changed);
    printf("step %2d: (%d,%d)%s\n", steps, (int)unit.x, (int)unit.y,
           changed ? "  (sees new cells)" : "");
  }
  astar_result best;
  astar_find_path(ws, grid, NULL, (astar_point){2, 1}, goal, NULL, 0, &best);
  printf("arrived after %d steps, cost %.2f, %d replans; with full knowledge: cost %.2f\n", steps,
         walked, replans, best.cost);
  astar_workspace_free(ws);
  astar_knowledge_free(seen);
  astar_grid_free(grid);
  return EXIT_SUCCESS;
}
