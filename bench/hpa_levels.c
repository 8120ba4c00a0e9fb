/*
** hpa_levels.c -- HPA* (astar/hierarchy.h) with 1, 2, 3 levels on the same
** queries: build time, bytes per cell, the query object's bytes, time per
** query (median of 3 passes), the mean expansions of each phase (top-level
** search, joining start and goal, refinement) and the cost against the
** scenario's optimal length (mean and largest ratio).
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/hpa_levels.c build/libastar.a -lm -o build/hpa_levels
**   taskset -c 1 ./build/hpa_levels EVERY MAP SCEN [MAP SCEN ...]
** EVERY K: every K-th query of the scenario (0, K, 2K, ...). HPA_LEVELS=L in
** the environment: only L levels.
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

typedef struct query {
  astar_point s, g; /* endpoints */
  double opt;       /* the scenario's optimal length */
} query;

/* The scenario's queries, every `every`-th; returns the count (0 on error). */
static size_t read_scen(const char *path, int every, query *out, size_t cap) {
  astar_scen *sc = bench_load_scen(path);
  if (!sc) return 0;
  const astar_scen_query *q = astar_scen_queries(sc);
  size_t n = 0;
  for (size_t k = 0; k < astar_scen_count(sc) && n < cap; k += (size_t)every)
    out[n++] = (query){q[k].start, q[k].goal, q[k].optimal_length};
  astar_scen_free(sc);
  return n;
}

int main(int argc, char **argv) {
  if (argc < 4 || (argc - 2) % 2) {
    fprintf(stderr, "usage: %s EVERY MAP SCEN [MAP SCEN ...]\n", argv[0]);
    return 2;
  }
  const int every = atoi(argv[1]);
  if (every < 1) return 2;
  enum { QCAP = 1 << 16, PCAP = 1 << 22 };
  query *qs = malloc(QCAP * sizeof *qs);
  astar_point *path = malloc(PCAP * sizeof *path);
  if (!qs || !path) return 1;
  printf("| map | levels | queries | build ms | bytes/cell | query bytes | µs/query | top exp "
         "| join exp | refine exp | cost/opt mean | cost/opt max |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int a = 2; a + 1 < argc; a += 2) {
    astar_grid *g = bench_load_map(argv[a]);
    if (!g) {
      fprintf(stderr, "%s: cannot read the map\n", argv[a]);
      return 1;
    }
    const size_t nq = read_scen(argv[a + 1], every, qs, QCAP);
    if (!nq) {
      fprintf(stderr, "%s: no queries\n", argv[a + 1]);
      return 1;
    }
    const char *only = getenv("HPA_LEVELS"); /* e.g. "3": that level count only */
    for (int levels = 1; levels <= 3; levels++) {
      if (only && atoi(only) != levels) continue;
      astar_hpa_options ho;
      astar_hpa_options_init(&ho);
      ho.levels = levels;
      double tb[3];
      astar_hpa *h = NULL;
      for (int r = 0; r < 3; r++) {
        astar_hpa_free(h);
        h = NULL;
        const double t0 = bench_now();
        if (astar_hpa_new(&h, g, NULL, &ho, NULL) != ASTAR_OK) return 1;
        tb[r] = bench_now() - t0;
      }
      astar_hpa_query *q = NULL;
      if (astar_hpa_query_new(&q, h, NULL) != ASTAR_OK) return 1;
      double tq[3], et = 0, ej = 0, er = 0, rsum = 0, rmax = 0;
      for (int r = 0; r < 3; r++) {
        const double t0 = bench_now();
        for (size_t i = 0; i < nq; i++) {
          astar_hpa_result res;
          const astar_status st = astar_hpa_find_path(q, h, g, qs[i].s, qs[i].g, path, PCAP, &res);
          if (st != ASTAR_OK) {
            fprintf(stderr, "%s: query %zu: status %d\n", argv[a + 1], i, (int)st);
            return 1;
          }
          if (r == 0) {
            et += (double)res.expanded_top;
            ej += (double)res.expanded_insert;
            er += (double)res.expanded_refine;
            const double ratio = qs[i].opt > 0 ? res.cost / qs[i].opt : 1.0;
            rsum += ratio;
            if (ratio > rmax) rmax = ratio;
          }
        }
        tq[r] = bench_now() - t0;
      }
      const double cells = (double)astar_grid_width(g) * astar_grid_height(g);
      const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
      const double dn = (double)nq;
      printf("| %s | %d | %zu | %.0f | %.2f | %zu | %.1f | %.0f | %.0f | %.0f | %.5f | %.5f |\n",
             name, levels, nq, bench_median3(tb[0], tb[1], tb[2]) * 1e3,
             (double)astar_hpa_memory(h) / cells, astar_hpa_query_memory(q),
             bench_median3(tq[0], tq[1], tq[2]) / dn * 1e6, et / dn, ej / dn, er / dn, rsum / dn,
             rmax);
      fflush(stdout);
      astar_hpa_query_free(q);
      astar_hpa_free(h);
    }
    astar_grid_free(g);
  }
  free(qs);
  free(path);
  return 0;
}
