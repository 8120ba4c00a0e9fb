/*
** cpd_walk.c -- what a compressed path database query (astar/cpd.h) costs:
** per full path, per first-move lookup, and per cell of memory. Loads a map,
** a scenario (use a subset: bench/cpd.sh makes 300-query ones) and a CPD
** file of `astar precompute MAP --method cpd`, checks every answer against
** the scenario's optimal length (within 1e-3 plus 1e-5 of it: scenarios
** round long lengths), then times the queries (astar_cpd_path
** into a buffer, ROUNDS rounds, the median). Prints: queries, cells a path
** (steps + 1), lookups a path (astar_cpd_lookups: rows read), µs a path, ns
** a lookup (the path's time over its lookups), bytes in memory and in the
** file per passable cell, runs per row, answers off the optimum.
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/cpd_walk.c build/libastar.a -lm -lpthread -o build/cpd_walk
**   taskset -c 1 ./build/cpd_walk MAP SCEN CPD [ROUNDS]
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s MAP SCEN CPD [ROUNDS]\n", argv[0]);
    return 2;
  }
  const long rounds = argc > 4 ? strtol(argv[4], NULL, 10) : 5;
  if (rounds < 1 || rounds > 1000) {
    fprintf(stderr, "ROUNDS: expected 1 to 1000, got '%s'\n", argv[4]);
    return 2;
  }
  astar_grid *grid = bench_load_map(argv[1]);
  astar_scen *scen = bench_load_scen(argv[2]);
  size_t flen = 0;
  char *file = bench_slurp(argv[3], &flen);
  if (!grid || !scen || !file) {
    fprintf(stderr, "cannot read %s\n", !grid ? argv[1] : !scen ? argv[2] : argv[3]);
    return 1;
  }
  astar_cpd *cpd = NULL;
  astar_status st = astar_cpd_load(&cpd, grid, file, flen, NULL);
  if (st != ASTAR_OK) {
    fprintf(stderr, "%s: %s\n", argv[3], astar_strerror(st));
    return 1;
  }
  const size_t nq = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  const size_t cap = (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid) + 1;
  astar_point *path = malloc(cap * sizeof *path);
  double *times = malloc((size_t)rounds * sizeof *times);
  if (!path || !times) return 1;
  uint64_t cells = 0, lookups = 0;
  size_t bad = 0;
  for (size_t i = 0; i < nq; i++) {
    size_t len = 0, steps = 0, looked = 0;
    double cost = 0;
    st = astar_cpd_path(cpd, grid, q[i].start, q[i].goal, path, cap, &len, &cost);
    if (st != ASTAR_OK || fabs(cost - q[i].optimal_length) > 1e-3 + 1e-5 * q[i].optimal_length ||
        astar_cpd_lookups(cpd, grid, q[i].start, q[i].goal, &steps, &looked) != ASTAR_OK ||
        steps + 1 != len) {
      if (bad++ < 5)
        fprintf(stderr, "line %d (%d,%d)->(%d,%d): %s, cost %.6f, scen %.6f\n", (int)q[i].line,
                q[i].start.x, q[i].start.y, q[i].goal.x, q[i].goal.y, astar_strerror(st), cost,
                q[i].optimal_length);
      continue;
    }
    cells += len;
    lookups += looked;
  }
  double sink = 0;
  for (long r = 0; r < rounds; r++) {
    const double t0 = bench_now();
    for (size_t i = 0; i < nq; i++) {
      size_t len = 0;
      double cost = 0;
      astar_cpd_path(cpd, grid, q[i].start, q[i].goal, path, cap, &len, &cost);
      sink += cost;
    }
    times[r] = bench_now() - t0;
  }
  qsort(times, (size_t)rounds, sizeof *times, cmp_double);
  const double per = times[rounds / 2] / (double)nq;
  const uint32_t n = astar_cpd_nodes(cpd);
  const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
  printf("%-20s %7s %9s %9s %9s %9s %10s %10s %9s %4s\n", "map", "queries", "cells/q", "lookups/q",
         "us/path", "ns/lookup", "mem B/cell", "file B/cell", "runs/row", "bad");
  printf("%-20s %7zu %9.1f %9.1f %9.3f %9.2f %10.1f %10.1f %9.2f %4zu\n", name, nq,
         (double)cells / (double)nq, (double)lookups / (double)nq, per * 1e6,
         lookups ? times[rounds / 2] * 1e9 / (double)lookups : 0.0,
         (double)astar_cpd_bytes(cpd) / n, (double)flen / n, (double)astar_cpd_runs(cpd) / n, bad);
  if (sink < 0) puts("");
  astar_cpd_free(cpd);
  free(file);
  free(path);
  free(times);
  astar_scen_free(scen);
  astar_grid_free(grid);
  return bad ? 1 : 0;
}
