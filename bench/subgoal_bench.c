/*
** subgoal_bench.c -- subgoal graphs (levels 1, 2 and N) against JPS+ on
** Moving AI maps: build time, bytes per cell, time and expansions per
** query (issue 31 item 2). Every answer is checked against the scenario's
** optimal length. Build (from the project root, after a Release build):
**   cc -O2 -Iinclude -Isrc bench/subgoal_bench.c build/libastar.a -lm -lpthread \
**      -o build/subgoal_bench
** Run, pinned, on a quiet core:
**   taskset -c 1 build/subgoal_bench [--rounds R] [--every K] [--only M]
**                                    [--levels L] MAP.map ...
** (the scenario is MAP.map.scen). Prints one line per method and map:
** build ms, bytes / cell, us / query (median of R rounds), expansions /
** query. Compare ratios measured in one sitting only.
*/
#define _POSIX_C_SOURCE 199309L
#include "bench_util.h"
#include "subgoal/subgoal.h"

#include <math.h>

static int cmp_d(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int rounds = 5, every = 1, ai = 1, only = -1, nlev = 0;
  for (; ai < argc && argv[ai][0] == '-'; ai += 2) {
    if (ai + 1 >= argc) return 2;
    if (!strcmp(argv[ai], "--rounds"))
      rounds = atoi(argv[ai + 1]);
    else if (!strcmp(argv[ai], "--every"))
      every = atoi(argv[ai + 1]);
    else if (!strcmp(argv[ai], "--levels"))
      nlev = atoi(argv[ai + 1]); /* levels of sg-N (0: as many as help) */
    else if (!strcmp(argv[ai], "--only"))
      only = atoi(argv[ai + 1]); /* time one method: 0..3 */
    else
      return 2;
  }
  if (rounds < 1 || rounds > 99 || every < 1 || nlev < 0 || nlev > 64) return 2;
  printf("%-22s %-8s %10s %9s %10s %10s %10s %6s\n", "map", "method", "build_ms", "B/cell",
         "us/query", "exp/query", "gen/query", "bad");
  for (; ai < argc; ai++) {
    astar_grid *g = bench_load_map(argv[ai]);
    char sp[1024];
    snprintf(sp, sizeof sp, "%s.scen", argv[ai]);
    astar_scen *sc = bench_load_scen(sp);
    if (!g || !sc) return 1;
    const char *name = strrchr(argv[ai], '/') ? strrchr(argv[ai], '/') + 1 : argv[ai];
    const size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
    astar_point *path = malloc((cells + 1) * sizeof *path);
    const astar_scen_query *qs = astar_scen_queries(sc);
    const size_t nq = astar_scen_count(sc);
    astar_workspace *ws = NULL;
    astar_workspace_new(&ws, g, NULL);
    /* method 0: JPS+; 1..3: subgoal levels 1, 2, 0. Built first, then
    ** timed in interleaved rounds (each round runs every method once), so
    ** that a loaded machine slows them alike. */
    const uint32_t lv[4] = {0, 1, 2, (uint32_t)nlev};
    static const char *const mname[4] = {"jps+", "sg-L1", "sg-L2", "sg-N"};
    astar_jps_plus *jp = NULL;
    astar_subgoal *sg[4] = {NULL, NULL, NULL, NULL};
    void *scratch[4] = {NULL, NULL, NULL, NULL};
    size_t sb[4] = {0, 0, 0, 0}, bytes[4];
    double build_ms[4], times[4][99];
    uint64_t exp[4], gen[4], bad[4], count[4];
    for (int m = 0; m < 4; m++) {
      double t0 = bench_now();
      if (m == 0) {
        if (astar_jps_plus_new(&jp, g, NULL) != ASTAR_OK) return 1;
        bytes[m] = astar_jps_plus_memory(jp);
      } else {
        astar_subgoal_config cfg;
        astar_subgoal_config_init(&cfg);
        cfg.levels = lv[m];
        if (only > 0 && m != only) continue;
        if (astar_subgoal_build(&sg[m], g, &cfg, NULL) != ASTAR_OK) return 1;
        astar_subgoal_info info;
        astar_subgoal_get_info(sg[m], &info);
        bytes[m] = info.bytes;
        fprintf(stderr, "%s levels %u: %u subgoals, %llu arcs, top %u / %llu arcs\n", name,
                info.levels, info.subgoals, (unsigned long long)info.arcs, info.top_subgoals,
                (unsigned long long)info.top_arcs);
        sb[m] = astar__subgoal_scratch_bytes(sg[m]);
        scratch[m] = aligned_alloc(16, (sb[m] + 15) & ~(size_t)15);
        memset(scratch[m], 0, sb[m]);
      }
      build_ms[m] = (bench_now() - t0) * 1e3;
    }
    for (int r = 0; r < rounds; r++)
      for (int m = 0; m < 4; m++) {
        if (only >= 0 && m != only) continue;
        exp[m] = gen[m] = bad[m] = count[m] = 0;
        const double t0 = bench_now();
        for (size_t i = 0; i < nq; i += (size_t)every) {
          astar_result res;
          astar_status st;
          if (m == 0)
            st = astar_jps_plus_find_path(ws, jp, g, NULL, qs[i].start, qs[i].goal, path, cells + 1,
                                          &res);
          else
            st = astar__subgoal_find_path(sg[m], g, scratch[m], sb[m], 0, qs[i].start, qs[i].goal,
                                          path, cells + 1, &res);
          count[m]++;
          exp[m] += res.stats.expanded;
          gen[m] += res.stats.generated;
          if (st != ASTAR_OK ||
              fabs(res.cost - qs[i].optimal_length) > 1e-5 * fmax(1.0, qs[i].optimal_length))
            bad[m]++;
        }
        times[m][r] = (bench_now() - t0) / (double)count[m] * 1e6;
      }
    for (int m = 0; m < 4; m++) {
      if (only >= 0 && m != only) {
        free(scratch[m]);
        astar_subgoal_free(sg[m]);
        continue;
      }
      qsort(times[m], (size_t)rounds, sizeof times[m][0], cmp_d);
      printf("%-22s %-8s %10.1f %9.2f %10.2f %10.1f %10.1f %6llu\n", name, mname[m], build_ms[m],
             (double)bytes[m] / (double)cells, times[m][rounds / 2],
             (double)exp[m] / (double)count[m], (double)gen[m] / (double)count[m],
             (unsigned long long)bad[m]);
      free(scratch[m]);
      astar_subgoal_free(sg[m]);
    }
    fflush(stdout);
    astar_jps_plus_free(jp);
    astar_workspace_free(ws);
    free(path);
    astar_scen_free(sc);
    astar_grid_free(g);
  }
  return 0;
}
