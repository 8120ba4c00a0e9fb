/*
** algos.c -- the table of search algorithms selectable with --algo. Adding
** one (say jump point search) is one line here once the library has it.
*/
#include <string.h>

#include "cli.h"

/* Jump Point Search: astar_find_path with options.algorithm set. */
static astar_status find_jps(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                             astar_point start, astar_point goal, astar_point *path, size_t cap,
                             astar_result *result) {
  astar_options o = *opt;
  o.algorithm = ASTAR_ALGO_JPS;
  return astar_find_path(ws, grid, &o, start, goal, path, cap, result);
}

static const cli_algo algos[] = {
    {"astar", "A* over the cells (astar_find_path)", astar_find_path},
    {"jps", "Jump Point Search, online (options.algorithm = ASTAR_ALGO_JPS)", find_jps},
};

#define NALGOS (sizeof algos / sizeof algos[0])

void cli_algo_list(char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < NALGOS && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "|" : "", algos[i].name);
}

const cli_algo *cli_find_algo(const char *name) {
  for (size_t i = 0; i < NALGOS; i++)
    if (strcmp(algos[i].name, name) == 0) return &algos[i];
  char list[256];
  cli_algo_list(list, sizeof list);
  cli_error("--algo: expected one of %s, got '%s'", list, name);
  return NULL;
}
