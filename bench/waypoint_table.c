/*
** waypoint_table.c -- the precomputed waypoint table of Patel 2.4.1
** (astar/waypoint_table.h) on Moving AI maps: per map, the waypoints chosen,
** the table's bytes and build time, then every N-th query of the map's
** scenario searched by A* with the octile heuristic, with the BOUND form,
** with the SEED form, and with the SEED form without reopening closed
** nodes (options.reopen NEVER: the fast use the seed intends): mean
** expansions (and BOUND's reopenings), microseconds per query (the median
** of three passes) and, for SEED, the mean and worst ratio of its cost to
** the optimal (octile A*'s) cost. Every table keeps the default K = 4
** nearest waypoints per cell (--nearest K to change it). BOUND's costs are checked equal
** to the optimal ones (a mismatch is printed and the exit status is 1).
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/waypoint_table.c build/libastar.a -lm -o build/waypoint_table
**   taskset -c 1 ./build/waypoint_table [--every N] [--gap W | --tile S] [--max M]
**       [--nearest K] MAP.scen ...
** (the map is the scenario's name without ".scen"). Prints one markdown
** table row per map.
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

typedef struct pass_out {
  double seconds;    /* median of three passes */
  double expanded;   /* mean expansions */
  double reopened;   /* mean reopenings */
  double ratio_sum;  /* SEED: sum of cost / optimal */
  double ratio_max;  /* SEED: worst cost / optimal */
  size_t mismatches; /* BOUND: costs differing from the optimal */
} pass_out;

/* Run the selected queries with `opt`; optimal[] NULL: fill it (octile A*). */
static void run(astar_workspace *ws, const astar_grid *g, const astar_options *opt,
                const astar_scen_query *q, const size_t *sel, size_t nsel, astar_point *path,
                size_t cap, double *optimal, bool fill, pass_out *out) {
  memset(out, 0, sizeof *out);
  out->ratio_max = 1.0;
  double t[3];
  for (int rep = 0; rep < 3; rep++) {
    const double t0 = bench_now();
    for (size_t k = 0; k < nsel; k++) {
      astar_result r;
      const astar_status st =
          astar_find_path(ws, g, opt, q[sel[k]].start, q[sel[k]].goal, path, cap, &r);
      if (rep) continue;
      out->expanded += (double)r.stats.expanded;
      out->reopened += (double)r.stats.reopened;
      if (st != ASTAR_OK) continue;
      if (fill) {
        optimal[k] = r.cost;
        continue;
      }
      const double ratio = optimal[k] > 0 ? r.cost / optimal[k] : 1.0;
      out->ratio_sum += ratio;
      if (ratio > out->ratio_max) out->ratio_max = ratio;
      if (fabs(r.cost - optimal[k]) > 1e-9 * (optimal[k] > 1 ? optimal[k] : 1)) out->mismatches++;
    }
    t[rep] = bench_now() - t0;
  }
  out->seconds = bench_median3(t[0], t[1], t[2]);
  out->expanded /= (double)(nsel ? nsel : 1);
  out->reopened /= (double)(nsel ? nsel : 1);
}

int main(int argc, char **argv) {
  size_t every = 1;
  astar_waypoint_table_options wo;
  astar_waypoint_table_options_init(&wo);
  int status = 0;
  printf("| map | waypoints | table bytes | build ms | queries | octile exp | octile us | "
         "BOUND exp (reopened) | BOUND us | SEED exp | SEED us | SEED cost/opt mean / max | "
         "SEED no-reopen exp | us | cost/opt mean / max |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--every") == 0 && i + 1 < argc) {
      every = (size_t)atol(argv[++i]);
      if (every == 0) every = 1;
      continue;
    }
    if (strcmp(argv[i], "--gap") == 0 && i + 1 < argc) {
      wo.pick = ASTAR_TABLE_DOORS;
      wo.gap = atoi(argv[++i]);
      continue;
    }
    if (strcmp(argv[i], "--tile") == 0 && i + 1 < argc) {
      wo.pick = ASTAR_TABLE_COARSE;
      wo.tile = atoi(argv[++i]);
      continue;
    }
    if (strcmp(argv[i], "--nearest") == 0 && i + 1 < argc) {
      wo.nearest = (uint32_t)atol(argv[++i]);
      continue;
    }
    if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
      wo.max_count = (uint32_t)atol(argv[++i]);
      continue;
    }
    const char *scen_path = argv[i];
    char map_path[4096];
    snprintf(map_path, sizeof map_path, "%.*s", (int)(strlen(scen_path) - 5), scen_path);
    astar_grid *g = bench_load_map(map_path);
    astar_scen *scen = bench_load_scen(scen_path);
    if (!g || !scen) {
      fprintf(stderr, "%s: cannot load\n", scen_path);
      status = 1;
      astar_scen_free(scen);
      astar_grid_free(g);
      continue;
    }
    const astar_scen_query *q = astar_scen_queries(scen);
    const size_t count = astar_scen_count(scen);
    size_t *sel = malloc((count + 1) * sizeof *sel), nsel = 0;
    for (size_t k = 0; k < count; k += every) sel[nsel++] = k;
    double *optimal = calloc(nsel + 1, sizeof *optimal);
    const size_t cap = astar_grid_count_passable(g) + 1;
    astar_point *path = malloc(cap * sizeof *path);
    astar_workspace *ws = NULL;
    astar_workspace_new(&ws, g, NULL);

    astar_options o;
    astar_options_init(&o);
    astar_waypoint_table *tb = NULL, *ts = NULL;
    const double t0 = bench_now();
    astar_status st = astar_waypoint_table_new(&tb, g, &o, &wo, NULL);
    const double build = bench_now() - t0;
    astar_waypoint_table_options ws_opt = wo;
    ws_opt.form = ASTAR_TABLE_SEED;
    if (st == ASTAR_OK) st = astar_waypoint_table_new(&ts, g, &o, &ws_opt, NULL);
    if (st != ASTAR_OK) {
      fprintf(stderr, "%s: table: %s\n", map_path, astar_strerror(st));
      status = 1;
    } else {
      pass_out po, pb, ps;
      run(ws, g, &o, q, sel, nsel, path, cap, optimal, true, &po);
      astar_options ob = o;
      ob.heuristic = ASTAR_H_CALLBACK;
      ob.heuristic_fn = astar_waypoint_table_heuristic;
      ob.heuristic_ctx = tb;
      run(ws, g, &ob, q, sel, nsel, path, cap, optimal, false, &pb);
      astar_options os = ob;
      os.heuristic_ctx = ts;
      run(ws, g, &os, q, sel, nsel, path, cap, optimal, false, &ps);
      pass_out pn;
      astar_options on = os;
      on.reopen = ASTAR_REOPEN_NEVER;
      run(ws, g, &on, q, sel, nsel, path, cap, optimal, false, &pn);
      if (pb.mismatches) {
        fprintf(stderr, "%s: BOUND: %zu costs differ from the optimal\n", map_path, pb.mismatches);
        status = 1;
      }
      const char *base = strrchr(map_path, '/');
      const double nq = (double)nsel;
      printf("| %s | %u | %zu | %.1f | %zu | %.1f | %.1f | %.1f (%.1f) | %.1f | %.1f | %.1f | "
             "%.4f / %.4f | %.1f | %.1f | %.4f / %.4f |\n",
             base ? base + 1 : map_path, astar_waypoint_table_count(tb),
             astar_waypoint_table_memory(tb), build * 1e3, nsel, po.expanded, po.seconds * 1e6 / nq,
             pb.expanded, pb.reopened, pb.seconds * 1e6 / nq, ps.expanded, ps.seconds * 1e6 / nq,
             ps.ratio_sum / nq, ps.ratio_max, pn.expanded, pn.seconds * 1e6 / nq, pn.ratio_sum / nq,
             pn.ratio_max);
      fflush(stdout);
    }
    astar_waypoint_table_free(tb);
    astar_waypoint_table_free(ts);
    astar_workspace_free(ws);
    free(path);
    free(optimal);
    free(sel);
    astar_scen_free(scen);
    astar_grid_free(g);
  }
  return status;
}
