/*
** algos.c -- the table of search algorithms selectable with --algo. Adding
** one (say jump point search) is one line here once the library has it.
*/
#include <string.h>

#include "cli.h"

static const cli_algo algos[] = {
    {"astar", "A* with a binary heap (astar_find_path)", astar_find_path},
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
