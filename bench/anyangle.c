/*
** anyangle.c -- how long are the any-angle paths, and what do they cost to
** find? On every selected query of Moving AI scenario files: A* (the
** octile optimum, checked against the file), A* + string pulling
** (astar_path_smooth), Theta* and Lazy Theta* (astar/anyangle.h), and
** Anya (astar/anya.h), whose length is the Euclidean shortest path (ESP). Per
** family (the folder of the scenario) and per method: mean and max of
** cost / octile optimum and of cost / ESP, the queries whose path is longer than A*'s
** (never expected of smoothing and Theta*; Lazy Theta* may), mean
** expansions, mean sight checks, and microseconds per query (median of
** three timed passes over the family's queries, one method after another,
** after an untimed warm-up pass).
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/anyangle.c build/libastar.a -lm -lpthread -o build/anyangle
**   taskset -c 1 ./build/anyangle EVERY ../shared/bench/movingai/<family> ...
** Prints a markdown table (docs/paths.md has the figures).
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

enum { M_ASTAR, M_SMOOTH, M_THETA, M_LAZY, M_ANYA, NMETHODS };
static const char *const method_names[NMETHODS] = {"A* (octile)", "A* + smoothing", "Theta*",
                                                   "Lazy Theta*", "Anya (ESP)"};

static astar_anya_workspace *anya_ws; /* grown on demand: the pool doubled on ASTAR_CAPACITY */
static astar_vec2 anya_path[1 << 16];

typedef struct tally {
  size_t queries;
  double ratio_sum, ratio_max; /* cost / octile optimum */
  double esp_sum, esp_max;     /* cost / Euclidean shortest path (Anya) */
  size_t above;                /* cost above the optimum + 1e-9 relative */
  double expanded, sight;      /* sums */
  double us[3];                /* one per timed pass: microseconds over all queries */
} tally;

/* One method on one query: status, cost, expansions, sight checks. */
static astar_status run(int m, astar_workspace *ws, const astar_grid *g, astar_point s,
                        astar_point t, astar_point *path, size_t cap, double *cost,
                        uint64_t *expanded, uint64_t *sight) {
  astar_status st;
  *sight = 0;
  if (m == M_ANYA) {
    astar_anya_result r;
    for (;;) {
      st = astar_anya_find_path(anya_ws, g, s, t, anya_path, sizeof anya_path / sizeof *anya_path,
                                &r);
      if (st != ASTAR_CAPACITY) break;
      if (astar_anya_workspace_reserve(anya_ws, NULL, 2 * astar_anya_workspace_nodes(anya_ws)) !=
          ASTAR_OK)
        break;
    }
    *cost = r.cost;
    *expanded = r.stats.expanded;
    return st;
  }
  if (m == M_THETA || m == M_LAZY) {
    astar_anyangle_result r;
    st = astar_anyangle_find_path(ws, g, NULL,
                                  m == M_THETA ? ASTAR_ANYANGLE_THETA : ASTAR_ANYANGLE_LAZY_THETA,
                                  s, t, path, cap, &r);
    *cost = r.cost;
    *expanded = r.stats.expanded;
    *sight = r.sight_checks;
    return st;
  }
  astar_result r;
  st = astar_find_path(ws, g, NULL, s, t, path, cap, &r);
  *cost = r.cost;
  *expanded = r.stats.expanded;
  if (m == M_SMOOTH && st == ASTAR_OK) {
    size_t len = 0;
    st = astar_path_smooth(g, NULL, path, r.length, path, r.length, &len);
    *cost = astar_polyline_length(path, len);
    *sight = r.length > 1 ? r.length - 2 : 0;
  }
  return st;
}

/* All queries of one scenario file, every `every`-th, into the tallies. */
static int one_file(const char *scen_path, size_t every, tally *t) {
  size_t len = 0;
  char *text = bench_slurp(scen_path, &len);
  astar_scen *scen = NULL;
  astar_parse_error err;
  if (!text || astar_movingai_parse_scen(&scen, text, len, NULL, &err) != ASTAR_OK) {
    fprintf(stderr, "%s: cannot read\n", scen_path);
    free(text);
    return 0;
  }
  free(text);
  char map_path[4096];
  snprintf(map_path, sizeof map_path, "%.*s", (int)(strlen(scen_path) - 5), scen_path);
  char *mtext = bench_slurp(map_path, &len);
  astar_grid *g = NULL;
  if (!mtext || astar_movingai_parse_map(&g, mtext, len, NULL, &err) != ASTAR_OK) {
    fprintf(stderr, "%s: cannot read\n", map_path);
    free(mtext);
    astar_scen_free(scen);
    return 0;
  }
  free(mtext);
  astar_workspace *ws = NULL;
  const size_t cap = astar_grid_count_passable(g) + 1;
  astar_point *path = malloc(cap * sizeof *path);
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK || !path) abort();
  const astar_scen_query *q = astar_scen_queries(scen);
  const size_t n = astar_scen_count(scen);
  double *grid_cost = calloc(n ? n : 1, sizeof *grid_cost); /* A*'s exact cost per query */
  double *esp = calloc(n ? n : 1, sizeof *esp);             /* Anya's */
  if (!grid_cost || !esp) abort();
  if (astar_anya_workspace_reserve(anya_ws, g, 0) != ASTAR_OK) abort();
  for (size_t i = 0; i < n; i += every) {
    double c;
    uint64_t ex, sg;
    if (run(M_ANYA, ws, g, q[i].start, q[i].goal, path, cap, &c, &ex, &sg) == ASTAR_OK) esp[i] = c;
  }
  for (int m = 0; m < NMETHODS; m++) {
    double cost;
    uint64_t ex, sight;
    for (size_t i = 0; i < n; i += every) /* warm-up and the statistics */ {
      const astar_status st = run(m, ws, g, q[i].start, q[i].goal, path, cap, &cost, &ex, &sight);
      const double opt = q[i].optimal_length;
      if (st != ASTAR_OK || (m == M_ASTAR && fabs(cost - opt) > 1e-5 * opt)) {
        fprintf(stderr, "%s:%d: %s: status %d cost %.9f optimal %.9f\n", scen_path, q[i].line,
                method_names[m], (int)st, cost, opt);
        continue;
      }
      const double ratio = opt > 0 ? cost / opt : 1.0;
      if (m == M_ASTAR) grid_cost[i] = cost;
      const double over_esp = esp[i] > 0 ? cost / esp[i] : 1.0;
      t[m].esp_sum += over_esp;
      if (over_esp > t[m].esp_max) t[m].esp_max = over_esp;
      t[m].queries++;
      t[m].ratio_sum += ratio;
      if (ratio > t[m].ratio_max) t[m].ratio_max = ratio;
      t[m].above += cost > grid_cost[i] * (1 + 1e-9);
      t[m].expanded += (double)ex;
      t[m].sight += (double)sight;
    }
    for (int pass = 0; pass < 3; pass++) {
      const double t0 = bench_now();
      for (size_t i = 0; i < n; i += every)
        (void)run(m, ws, g, q[i].start, q[i].goal, path, cap, &cost, &ex, &sight);
      t[m].us[pass] += (bench_now() - t0) * 1e6;
    }
  }
  free(grid_cost);
  free(esp);
  free(path);
  astar_workspace_free(ws);
  astar_grid_free(g);
  astar_scen_free(scen);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: anyangle EVERY DIR...\n");
    return 2;
  }
  const size_t every = (size_t)strtoul(argv[1], NULL, 10);
  if (every == 0) return 2;
  if (astar_anya_workspace_new(&anya_ws, NULL, 0, NULL) != ASTAR_OK) return 1;
  printf("| family | method | queries | / octile optimum, mean | max | longer than A* | / ESP, "
         "mean | max | mean expanded | mean sight checks | µs/query |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int a = 2; a < argc; a++) {
    char *names[512];
    size_t nn = 0;
    if (!bench_list_dir(argv[a], ".map.scen", names, 512, &nn)) {
      fprintf(stderr, "%s: not a directory\n", argv[a]);
      continue;
    }
    tally t[NMETHODS];
    memset(t, 0, sizeof t);
    for (size_t i = 0; i < nn; i++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[a], names[i]);
      one_file(path, every, t);
      free(names[i]);
    }
    const char *family = strrchr(argv[a], '/');
    family = family && family[1] ? family + 1 : argv[a];
    for (int m = 0; m < NMETHODS; m++) {
      const double q = t[m].queries ? (double)t[m].queries : 1.0;
      printf("| %s | %s | %zu | %.4f | %.4f | %zu | %.4f | %.4f | %.0f | %.0f | %.1f |\n", family,
             method_names[m], t[m].queries, t[m].ratio_sum / q, t[m].ratio_max, t[m].above,
             t[m].esp_sum / q, t[m].esp_max, t[m].expanded / q, t[m].sight / q,
             bench_median3(t[m].us[0], t[m].us[1], t[m].us[2]) / q);
    }
    fflush(stdout);
  }
  return 0;
}
