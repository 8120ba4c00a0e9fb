/*
** examples/movingai.c -- run one query on a Moving AI benchmark map.
**
**   movingai MAP.map SX SY GX GY
**
** Loads the .map file (the library parses from memory; reading the file is
** the program's job), searches with the Moving AI rules (8 moves, diagonal
** cost sqrt(2), no corner cutting -- the library's defaults) and prints the
** path's length and cost, which can be compared with the optimal length in
** the map's .scen file.
*/
#include <astar/astar.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read a whole file into a malloc'ed buffer; NULL (errno set) on failure. */
static char *read_file(const char *name, size_t *len) {
  FILE *f = fopen(name, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf != NULL) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break; /* end of file or read error, told apart below */
    char *bigger = realloc(buf, cap * 2);
    if (bigger == NULL) {
      free(buf);
      buf = NULL;
    } else {
      buf = bigger;
      cap *= 2;
    }
  }
  if (buf != NULL && ferror(f)) {
    free(buf);
    buf = NULL;
    errno = EIO;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Parse a decimal int32 argument; false if it is not one. */
static bool parse_coord(const char *s, int32_t *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < INT32_MIN || v > INT32_MAX) return false;
  *out = (int32_t)v;
  return true;
}

int main(int argc, char **argv) {
  astar_point start, goal;
  if (argc != 6 || !parse_coord(argv[2], &start.x) || !parse_coord(argv[3], &start.y) ||
      !parse_coord(argv[4], &goal.x) || !parse_coord(argv[5], &goal.y)) {
    fprintf(stderr, "usage: %s MAP.map SX SY GX GY\n", argc > 0 ? argv[0] : "movingai");
    return 2;
  }

  size_t len;
  char *text = read_file(argv[1], &len);
  if (text == NULL) {
    fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
    return 1;
  }

  astar_grid *grid = NULL;
  astar_workspace *ws = NULL;
  astar_point *path = NULL;
  astar_parse_error perr;
  int exit_code = 1;

  astar_status st = astar_movingai_parse_map(&grid, text, len, NULL, &perr);
  free(text); /* the grid does not refer to the text */
  if (st == ASTAR_PARSE_ERROR) {
    fprintf(stderr, "%s:%d:%d: %s\n", argv[1], (int)perr.line, (int)perr.column, perr.message);
    goto done;
  } else if (st != ASTAR_OK) {
    fprintf(stderr, "%s: %s\n", argv[1], astar_strerror(st));
    goto done;
  }

  st = astar_workspace_new(&ws, grid, NULL);
  if (st != ASTAR_OK) {
    fprintf(stderr, "astar_workspace_new: %s\n", astar_strerror(st));
    goto done;
  }

  /* Room for any path: an optimal one never visits a cell twice. */
  size_t cap = (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid);
  path = malloc(cap * sizeof *path);
  if (path == NULL) {
    fprintf(stderr, "out of memory\n");
    goto done;
  }

  astar_result res;
  st = astar_find_path(ws, grid, NULL, start, goal, path, cap, &res);
  printf("map %s (%dx%d), (%d,%d) -> (%d,%d): %s\n", argv[1], (int)astar_grid_width(grid),
         (int)astar_grid_height(grid), (int)start.x, (int)start.y, (int)goal.x, (int)goal.y,
         astar_strerror(st));
  if (st == ASTAR_OK) {
    printf("cost %.8f, %zu cells, %llu expanded, %llu generated\n", res.cost, res.length,
           (unsigned long long)res.stats.expanded, (unsigned long long)res.stats.generated);
    exit_code = 0;
  } else if (st == ASTAR_NO_PATH) {
    exit_code = 0; /* an answer, not a failure */
  }

done:
  free(path);
  astar_workspace_free(ws);
  astar_grid_free(grid);
  return exit_code;
}
