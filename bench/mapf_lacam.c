/*
** mapf_lacam.c -- quick figures for PIBT, LaCAM and LaCAM* (astar/mapf.h,
** issue 29 item 2): one instance, one algorithm, one line: solved, whether
** the validator accepts it, sum of costs over the lower bound, makespan,
** seconds to the first solution, seconds in all, improvements, nodes and
** peak scratch. The full benchmark against the peers is bench/mapf/.
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/mapf_lacam.c build/libastar.a -lm -lpthread -o build/mapf_lacam
**   ./build/mapf_lacam MAP.map (SCEN | gen:SEED) AGENTS ALGO SECONDS [SOLVER-SEED]
** SCEN: the first AGENTS lines of a Moving AI scenario; gen:SEED: a
** generated instance (astar_mapf_random_instance, the benchmark's random
** scenario rule, with that seed). With WRITE_SCEN=FILE in the environment
** the instance is also written there as a .scen (for lacam3 and others).
** Exit status: 0 solved and valid, 1 not solved or invalid, 2 bad usage.
*/
#define _POSIX_C_SOURCE 199309L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

static int usage(void) {
  fprintf(stderr, "usage: mapf_lacam MAP (SCEN | gen:SEED) AGENTS ALGO SECONDS [SEED]\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 6 || argc > 7) return usage();
  size_t len = 0;
  char *text = bench_slurp(argv[1], &len);
  astar_grid *g = NULL;
  if (!text || astar_movingai_parse_map(&g, text, len, NULL, NULL) != ASTAR_OK) {
    fprintf(stderr, "mapf_lacam: %s: cannot read the map\n", argv[1]);
    return 2;
  }
  free(text);
  const long agents = atol(argv[3]);
  if (agents < 1 || agents > 100000) return usage();
  const size_t n = (size_t)agents;
  astar_point *s = malloc(n * sizeof *s), *t = malloc(n * sizeof *t);
  if (!s || !t) return 2;
  if (strncmp(argv[2], "gen:", 4) == 0) {
    if (astar_mapf_random_instance(g, strtoull(argv[2] + 4, NULL, 10), n, s, t, NULL) != ASTAR_OK) {
      fprintf(stderr, "mapf_lacam: cannot generate %zu agents\n", n);
      free(s);
      free(t);
      return 2;
    }
  } else {
    astar_scen *sc = bench_load_scen(argv[2]);
    if (!sc || astar_scen_count(sc) < n) {
      fprintf(stderr, "mapf_lacam: %s: cannot read %zu agents\n", argv[2], n);
      free(s);
      free(t);
      return 2;
    }
    const astar_scen_query *q = astar_scen_queries(sc);
    for (size_t i = 0; i < n; i++) {
      s[i] = q[i].start;
      t[i] = q[i].goal;
    }
    astar_scen_free(sc);
  }
  const char *dump = getenv("WRITE_SCEN");
  if (dump) {
    FILE *f = fopen(dump, "w");
    if (!f) return 2;
    fprintf(f, "version 1\n");
    for (size_t i = 0; i < n; i++)
      fprintf(f, "0\tmap.map\t%d\t%d\t%d\t%d\t%d\t%d\t0\n", (int)astar_grid_width(g),
              (int)astar_grid_height(g), (int)s[i].x, (int)s[i].y, (int)t[i].x, (int)t[i].y);
    fclose(f);
  }
  astar_mapf_problem *p = NULL;
  if (astar_mapf_problem_new(&p, g, s, t, n, NULL, NULL) != ASTAR_OK) return 2;
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  if (astar_mapf_algo_from_name(argv[4], &o.algo) != ASTAR_OK) return usage();
  o.time_limit = atof(argv[5]);
  o.seed = argc > 6 ? strtoull(argv[6], NULL, 10) : 0;
  astar_mapf_solver *sv = NULL;
  astar_mapf_solution *out = NULL;
  if (astar_mapf_solver_new(&sv, NULL) != ASTAR_OK ||
      astar_mapf_solution_new(&out, n, NULL) != ASTAR_OK)
    return 2;
  astar_mapf_stats st;
  const astar_status r = astar_mapf_solve(sv, p, &o, out, &st);
  astar_mapf_report rep;
  rep.fault = ASTAR_MAPF_AGENT_COUNT;
  if (r == ASTAR_OK) astar_mapf_check(p, out, &rep, NULL);
  const bool valid = r == ASTAR_OK && rep.fault == ASTAR_MAPF_VALID;
  printf("%s agents=%zu status=[%s] valid=%d soc=%llu lb=%llu soc/lb=%.3f makespan=%u first=%.3f "
         "total=%.3f optimal=%d improvements=%u nodes=%llu peak_mb=%.0f\n",
         argv[4], n, astar_strerror(r), valid, (unsigned long long)st.sum_of_costs,
         (unsigned long long)st.lower_bound,
         st.lower_bound ? (double)st.sum_of_costs / (double)st.lower_bound : 0.0, st.makespan,
         st.time_first, st.time_total, st.optimal, st.improvements,
         (unsigned long long)st.high_level, (double)st.peak_memory / 1048576.0);
  if (r == ASTAR_OK && rep.fault != ASTAR_MAPF_VALID)
    printf("INVALID: %s, agent %u, time %u\n", astar_mapf_fault_name(rep.fault), rep.agent,
           rep.time);
  astar_mapf_solution_free(out);
  astar_mapf_solver_free(sv);
  astar_mapf_problem_free(p);
  astar_grid_free(g);
  free(s);
  free(t);
  return valid ? 0 : 1;
}
