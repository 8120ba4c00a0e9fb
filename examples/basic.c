/*
** examples/basic.c -- the smallest complete libastar program: build a grid,
** wall part of it off, find a path and draw it.
**
**   cc basic.c $(pkg-config --cflags --libs astar) -o basic && ./basic
*/
#include <astar/astar.h>

#include <stdio.h>
#include <stdlib.h>

#define W 12
#define H 7

/* Print the grid with '#' for walls, '*' for the path, S and G at its ends. */
static void draw(const astar_grid *g, const astar_point *path, size_t n) {
  char cells[H][W + 1];
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) cells[y][x] = astar_grid_passable(g, x, y) ? '.' : '#';
    cells[y][W] = '\0';
  }
  for (size_t i = 0; i < n; i++) cells[path[i].y][path[i].x] = '*';
  if (n > 0) {
    cells[path[0].y][path[0].x] = 'S';
    cells[path[n - 1].y][path[n - 1].x] = 'G';
  }
  for (int y = 0; y < H; y++) printf("  %s\n", cells[y]);
}

int main(void) {
  astar_grid *grid = NULL;
  astar_workspace *ws = NULL;
  int exit_code = EXIT_FAILURE;

  astar_status st = astar_grid_new(&grid, W, H, NULL);
  if (st != ASTAR_OK) {
    fprintf(stderr, "astar_grid_new: %s\n", astar_strerror(st));
    return EXIT_FAILURE;
  }

  /* Two walls with a gap each, so the path has to weave: x = 3 is open only
  ** at the bottom, x = 8 only at the top. */
  for (int y = 0; y < H - 1; y++) astar_grid_set_passable(grid, 3, y, false);
  for (int y = 1; y < H; y++) astar_grid_set_passable(grid, 8, y, false);

  /* One workspace per thread; it is sized for the grid once and every search
  ** after that runs without allocating. */
  st = astar_workspace_new(&ws, grid, NULL);
  if (st != ASTAR_OK) {
    fprintf(stderr, "astar_workspace_new: %s\n", astar_strerror(st));
    goto done;
  }

  astar_options opt;
  astar_options_init(&opt); /* 8 moves, no corner cutting, diagonal cost sqrt(2) */

  astar_point start = {0, 0}, goal = {W - 1, H - 1};
  astar_point path[W * H]; /* a path never visits a cell twice */
  astar_result res;
  st = astar_find_path(ws, grid, &opt, start, goal, path, sizeof path / sizeof path[0], &res);
  switch (st) {
  case ASTAR_OK:
    printf("path from (%d,%d) to (%d,%d): %zu cells, cost %.3f, %llu nodes expanded\n",
           (int)start.x, (int)start.y, (int)goal.x, (int)goal.y, res.length, res.cost,
           (unsigned long long)res.stats.expanded);
    draw(grid, path, res.length);
    exit_code = EXIT_SUCCESS;
    break;
  case ASTAR_NO_PATH:
    printf("no path: the goal is walled off from the start\n");
    exit_code = EXIT_SUCCESS; /* a normal outcome, not an error */
    break;
  default: /* blocked endpoints, out of bounds, bad options, ... */
    fprintf(stderr, "astar_find_path: %s\n", astar_strerror(st));
    break;
  }

done:
  astar_workspace_free(ws);
  astar_grid_free(grid);
  return exit_code;
}
