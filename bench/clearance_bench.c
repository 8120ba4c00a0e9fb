/*
** clearance_bench.c -- units bigger than one cell on Moving AI maps
** (astar/clearance.h): for sizes k = 1..4 and two capabilities (ground
** only, and ground + trees), the share of the benchmark queries still
** solvable, the path cost against the 1 x 1 cost, microseconds per query
** with A* and JPS on the derived grid, and the cost of the clearance itself
** (build time, bytes per cell) and of filling a derived grid.
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/clearance_bench.c build/libastar.a -lm -o build/clearance_bench
**   taskset -c 1 ./build/clearance_bench MAP [EVERY]   (MAP.scen next to MAP)
** Every EVERY-th query (default 20). Times are medians of 3 repetitions.
*/
#define _POSIX_C_SOURCE 199309L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#define REPS 3
#define MAXK 4

/* Seconds for searching every query of qs on g with algo, median of REPS;
** costs[i] (when not NULL) gets each cost, -1 without a path. */
static double run_queries(astar_workspace *ws, const astar_grid *g, astar_algorithm algo,
                          const astar_scen_query *qs, size_t nq, double *costs,
                          double *mean_expanded) {
  uint64_t expanded = 0;
  astar_options o;
  astar_options_init(&o);
  o.algorithm = algo;
  double t[REPS];
  static astar_point path[1 << 20];
  for (int r = 0; r < REPS; r++) {
    const double t0 = bench_now();
    for (size_t i = 0; i < nq; i++) {
      astar_result res;
      const astar_status st =
          astar_find_path(ws, g, &o, qs[i].start, qs[i].goal, path, 1 << 20, &res);
      if (costs && r == 0) costs[i] = st == ASTAR_OK ? res.cost : -1;
      if (r == 0) expanded += res.stats.expanded;
    }
    t[r] = bench_now() - t0;
  }
  *mean_expanded = (double)expanded / (double)nq;
  return bench_median3(t[0], t[1], t[2]);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MAP [EVERY]\n", argv[0]);
    return 2;
  }
  const size_t every = argc > 2 ? (size_t)atol(argv[2]) : 20;
  size_t len, slen;
  char scen_path[4096];
  snprintf(scen_path, sizeof scen_path, "%s.scen", argv[1]);
  char *text = bench_slurp(argv[1], &len), *stext = bench_slurp(scen_path, &slen);
  astar_grid *g = NULL;
  astar_scen *scen = NULL;
  if (!text || !stext || astar_movingai_parse_map(&g, text, len, NULL, NULL) != ASTAR_OK ||
      astar_movingai_parse_scen(&scen, stext, slen, NULL, NULL) != ASTAR_OK) {
    fprintf(stderr, "cannot read %s or %s\n", argv[1], scen_path);
    return 1;
  }
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  uint8_t *types = malloc((size_t)w * (size_t)h);
  astar_terrain_types_parse(text, len, g, types, (size_t)w * (size_t)h);
  /* Trees opened in the grid; the walker's capability still excludes them. */
  astar_terrain_open(g, types, ASTAR_CAPABILITY(ASTAR_TYPE_TREES));

  const size_t all = astar_scen_count(scen);
  astar_scen_query *qs = malloc(all * sizeof *qs);
  size_t nq = 0;
  for (size_t i = 0; i < all; i += every) qs[nq++] = astar_scen_queries(scen)[i];

  const astar_capability caps[2] = {ASTAR_CAPABILITY_WALKER,
                                    ASTAR_CAPABILITY_WALKER | ASTAR_CAPABILITY(ASTAR_TYPE_TREES)};
  const char *cap_names[2] = {"ground", "ground+trees"};
  double tb[REPS];
  astar_clearance *c = NULL;
  for (int r = 0; r < REPS; r++) {
    astar_clearance_free(c);
    const double t0 = bench_now();
    astar_clearance_new(&c, g, types, caps, 2, ASTAR_CLEARANCE_MAX, NULL);
    tb[r] = bench_now() - t0;
  }
  printf("%s: %d x %d, %zu queries (every %zu-th)\n", argv[1], (int)w, (int)h, nq, every);
  printf("clearance build (2 capabilities, max %d): %.2f ms, %.2f bytes/cell\n",
         ASTAR_CLEARANCE_MAX, 1e3 * bench_median3(tb[0], tb[1], tb[2]),
         (double)astar_clearance_memory(c) / ((double)w * (double)h));

  /* Incremental updates: one cell blocked then reopened, 100 times, for
  ** the largest cap and for a cap of 8 (units up to 8 x 8). */
  for (int pass = 0; pass < 2; pass++) {
    astar_clearance *cu = NULL;
    const int32_t cap = pass ? 8 : ASTAR_CLEARANCE_MAX;
    astar_clearance_new(&cu, g, types, caps, 2, cap, NULL);
    double tu[REPS];
    for (int r = 0; r < REPS; r++) {
      uint64_t x = 88172645463325252u;
      int edits = 0;
      const double t0 = bench_now();
      while (edits < 100) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const astar_point p = {(int32_t)(x % (uint64_t)w), (int32_t)((x >> 32) % (uint64_t)h)};
        if (!astar_grid_passable(g, p.x, p.y)) continue;
        astar_grid_set_passable(g, p.x, p.y, false);
        astar_clearance_update_cells(cu, g, &p, 1);
        astar_grid_set_passable(g, p.x, p.y, true);
        astar_clearance_update_cells(cu, g, &p, 1);
        edits++;
      }
      tu[r] = (bench_now() - t0) / 200.0;
    }
    printf("update of one cell (max %d): %.1f us\n", (int)cap,
           1e6 * bench_median3(tu[0], tu[1], tu[2]));
    astar_clearance_free(cu);
  }

  /* The edits above left the grid as it was, but its version moved on. */
  astar_clearance_update(c, g);

  astar_grid *d = NULL;
  astar_workspace *ws = NULL;
  astar_grid_new(&d, w, h, NULL);
  astar_workspace_new(&ws, g, NULL);
  double *cost1 = malloc(nq * sizeof *cost1), *cost = malloc(nq * sizeof *cost),
         *costj = malloc(nq * sizeof *costj);
  printf("%-13s %2s %8s %9s %9s %9s %9s %8s %8s %8s\n", "capability", "k", "fill ms", "solvable",
         "cost/1x1", "A* us/q", "JPS us/q", "A* exp", "JPS exp", "JPS=A*");
  for (int ci = 0; ci < 2; ci++) {
    for (int32_t k = 1; k <= MAXK; k++) {
      double tf[REPS];
      for (int r = 0; r < REPS; r++) {
        const double t0 = bench_now();
        const astar_status st = astar_clearance_fill_grid(c, g, k, caps[ci], d);
        if (st != ASTAR_OK) {
          fprintf(stderr, "fill: %s\n", astar_strerror(st));
          return 1;
        }
        tf[r] = bench_now() - t0;
      }
      double ea, ej;
      const double ta = run_queries(ws, d, ASTAR_ALGO_ASTAR, qs, nq, k == 1 ? cost1 : cost, &ea);
      const double tj = run_queries(ws, d, ASTAR_ALGO_JPS, qs, nq, costj, &ej);
      const double *ck = k == 1 ? cost1 : cost;
      size_t solved = 0, both = 0, same = 0;
      double ratio = 0;
      for (size_t i = 0; i < nq; i++) {
        if (ck[i] >= 0) solved++;
        if (ck[i] >= 0 && cost1[i] > 0) {
          both++;
          ratio += ck[i] / cost1[i];
        }
        const double diff = costj[i] - ck[i];
        if ((ck[i] < 0 && costj[i] < 0) ||
            (diff < 1e-9 * ck[i] + 1e-9 && diff > -1e-9 * ck[i] - 1e-9))
          same++;
      }
      printf("%-13s %2d %8.2f %8.1f%% %9.4f %9.1f %9.1f %8.0f %8.0f %4zu/%zu\n", cap_names[ci],
             (int)k, 1e3 * bench_median3(tf[0], tf[1], tf[2]), 100.0 * (double)solved / (double)nq,
             both ? ratio / (double)both : 0.0, 1e6 * ta / (double)nq, 1e6 * tj / (double)nq, ea,
             ej, same, nq);
    }
  }
  free(cost1);
  free(cost);
  free(costj);
  astar_workspace_free(ws);
  astar_grid_free(d);
  astar_clearance_free(c);
  free(qs);
  free(types);
  astar_scen_free(scen);
  astar_grid_free(g);
  free(text);
  free(stext);
  return 0;
}
