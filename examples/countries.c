/*
** examples/countries.c -- your own graph as a search space: a map of
** countries (seed 000 §7: pathfinding over an adjacency table rather than
** a grid), searched by the engine with A* and with bidirectional A*.
**
** A space is a few functions over node ids: the arcs out of a node (and,
** for bidirectional searches, into it) and a heuristic. Here the nodes are
** countries, an arc is a shared border costing the distance between the
** capitals, and the heuristic is the straight-line distance, which never
** overestimates (so A* is optimal).
**
**   cc countries.c $(pkg-config --cflags --libs astar) -lm -o countries && ./countries
*/
#include <astar/astar.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct country {
  const char *name;
  double x, y; /* the capital, in hundreds of kilometres */
} country;

static const country countries[] = {
    {"Portugal", 0.0, 4.0},    {"Spain", 2.0, 4.0},        {"France", 4.0, 7.0},
    {"Belgium", 5.0, 9.5},     {"Netherlands", 5.5, 10.5}, {"Germany", 8.0, 9.5},
    {"Switzerland", 6.0, 6.5}, {"Italy", 8.5, 4.5},        {"Austria", 10.0, 7.0},
    {"Czechia", 10.0, 8.5},    {"Poland", 13.0, 10.0},     {"Slovakia", 12.0, 7.5},
    {"Hungary", 12.5, 6.5},
};
enum { N = sizeof countries / sizeof countries[0] };

/* Shared borders, both ways. */
static const int borders[][2] = {
    {0, 1}, {1, 2},  {2, 3},  {2, 5},  {2, 6},  {2, 7},   {3, 4},   {3, 5},
    {4, 5}, {5, 6},  {5, 8},  {5, 9},  {5, 10}, {6, 7},   {6, 8},   {7, 8},
    {8, 9}, {8, 11}, {8, 12}, {9, 10}, {9, 11}, {10, 11}, {11, 12},
};
enum { NBORDERS = sizeof borders / sizeof borders[0] };

static double distance(int a, int b) {
  const double dx = countries[a].x - countries[b].x, dy = countries[a].y - countries[b].y;
  return sqrt(dx * dx + dy * dy);
}

/* The arcs of `node`, in the order of the border table (a fixed order: the
** engine's tie order builds on it). Borders go both ways, so predecessors
** are the same list. */
static size_t neighbours(const void *self, astar_node node, astar_arc *arcs, size_t cap) {
  (void)self;
  size_t n = 0;
  for (int i = 0; i < NBORDERS && n < cap; i++) {
    int other = -1;
    if (borders[i][0] == (int)node) other = borders[i][1];
    if (borders[i][1] == (int)node) other = borders[i][0];
    if (other < 0) continue;
    arcs[n].node = (astar_node)other;
    arcs[n].cost = distance((int)node, other);
    n++;
  }
  return n;
}

static double straight_line(const void *self, astar_node a, astar_node b) {
  (void)self;
  return distance((int)a, (int)b);
}

static const astar_space_ops ops = {neighbours, neighbours, straight_line, NULL, NULL, NULL, 0};

static int find(const char *name) {
  for (int i = 0; i < N; i++)
    if (strcmp(countries[i].name, name) == 0) return i;
  return -1;
}

int main(int argc, char **argv) {
  const int from = find(argc > 1 ? argv[1] : "Portugal");
  const int to = find(argc > 2 ? argv[2] : "Hungary");
  if (from < 0 || to < 0) {
    fprintf(stderr, "usage: countries [FROM TO] (names from the table, e.g. Spain Poland)\n");
    return 2;
  }
  const astar_space space = {&ops, NULL, N, 8, ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT};

  /* A workspace reserved for this space (with the backward records
  ** bidirectional searches need): allocated once, searches allocate nothing. */
  astar_workspace *ws = NULL;
  astar_status st = astar_workspace_new_empty(&ws, NULL);
  if (st == ASTAR_OK) st = astar_workspace_reserve_space(ws, &space, ASTAR_RESERVE_BACKWARD);
  if (st != ASTAR_OK) {
    fprintf(stderr, "set-up: %s\n", astar_strerror(st));
    astar_workspace_free(ws);
    return 1;
  }

  const astar_method methods[] = {ASTAR_METHOD_ASTAR, ASTAR_METHOD_BIDIRECTIONAL,
                                  ASTAR_METHOD_DIJKSTRA};
  int rc = 0;
  for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
    astar_engine_options opt;
    astar_engine_options_init(&opt);
    opt.method = methods[m];
    astar_node path[N];
    astar_engine_result res;
    st = astar_space_find_path(ws, &space, &opt, (astar_node)from, (astar_node)to, path, N, &res);
    printf("%-14s ", astar_method_name(opt.method));
    if (st != ASTAR_OK) {
      printf("%s\n", astar_strerror(st));
      rc = 1;
      continue;
    }
    for (size_t i = 0; i < res.length; i++)
      printf("%s%s", i ? " -> " : "", countries[path[i]].name);
    printf("  (%.0f km, %llu expanded)\n", res.cost * 100.0,
           (unsigned long long)res.stats.expanded);
  }
  astar_workspace_free(ws);
  return rc;
}
