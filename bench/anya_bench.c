/*
** anya_bench.c -- Anya (astar/anya.h) on the Moving AI families: for every
** N-th query of every map, the length of the optimal any-angle path over
** the scenario's optimal octile (8-connected, no corner cutting) length,
** mean and max; microseconds per query and expansions, beside the
** library's A* (astar_find_path, default options) on the same queries.
** The octile optimum is the A* cost, checked against the scenario's
** length (which is rounded: relative 1e-5); every Anya length is checked
** to be <= it + 1e-6. A violation is printed and makes the exit status 1.
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/anya_bench.c build/libastar.a -lm -o build/anya_bench
**   taskset -c 1 ./build/anya_bench [--every N] [family-folder ...]
** Without folders it runs every family under ../shared/bench/movingai.
** Each query runs three times per method; its time is the median of the
** three.
*/
#define _POSIX_C_SOURCE 199309L
#define _DEFAULT_SOURCE
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#define REPS 3

typedef struct family_stats {
  long queries;               /* queries run */
  long ratio_n;               /* queries with a positive optimum (in the ratio) */
  double ratio_sum;           /* sum of anya / octile */
  double ratio_max;           /* largest anya / octile */
  double ratio_min;           /* smallest anya / octile */
  double anya_us, astar_us;   /* sums of median times, microseconds */
  double anya_exp, astar_exp; /* sums of expansions */
  double anya_gen;            /* sum of nodes generated */
  uint64_t most_nodes;        /* largest node count of one query */
  long violations;            /* anya > optimum + 1e-6, or A* != optimum, or a failure */
} family_stats;

static void run_map(const char *mapfile, const char *scenfile, long every, astar_anya_workspace *aw,
                    family_stats *fs) {
  size_t mlen, slen;
  char *mt = bench_slurp(mapfile, &mlen), *stext = bench_slurp(scenfile, &slen);
  astar_grid *g = NULL;
  astar_scen *sc = NULL;
  astar_parse_error err;
  if (!mt || !stext || astar_movingai_parse_map(&g, mt, mlen, NULL, &err) != ASTAR_OK ||
      astar_movingai_parse_scen(&sc, stext, slen, NULL, &err) != ASTAR_OK) {
    fprintf(stderr, "cannot load %s / %s\n", mapfile, scenfile);
    fs->violations++;
    goto done;
  }
  astar_workspace *ws = NULL;
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK ||
      astar_anya_workspace_reserve(aw, g, 0) != ASTAR_OK) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  const astar_scen_query *qs = astar_scen_queries(sc);
  const size_t n = astar_scen_count(sc);
  const size_t cap = 1u << 20;
  astar_vec2 *vp = malloc(cap * sizeof *vp);
  astar_point *cp = malloc(cap * sizeof *cp);
  for (size_t i = 0; i < n; i += (size_t)every) {
    const astar_scen_query *q = &qs[i];
    double ta[REPS], tb[REPS];
    astar_anya_result ar;
    astar_result r;
    astar_status as = ASTAR_OK, gs = ASTAR_OK;
    for (int k = 0; k < REPS; k++) {
      double t0 = bench_now();
      as = astar_anya_find_path(aw, g, q->start, q->goal, vp, cap, &ar);
      while (as == ASTAR_CAPACITY) { /* grow the pool (twice as large) and ask again */
        if (astar_anya_workspace_reserve(aw, NULL, 2 * astar_anya_workspace_nodes(aw)) !=
            ASTAR_OK) {
          fprintf(stderr, "out of memory\n");
          exit(2);
        }
        t0 = bench_now();
        as = astar_anya_find_path(aw, g, q->start, q->goal, vp, cap, &ar);
      }
      ta[k] = bench_now() - t0;
      t0 = bench_now();
      gs = astar_find_path(ws, g, NULL, q->start, q->goal, cp, cap, &r);
      tb[k] = bench_now() - t0;
    }
    fs->queries++;
    fs->anya_us += 1e6 * bench_median3(ta[0], ta[1], ta[2]);
    fs->astar_us += 1e6 * bench_median3(tb[0], tb[1], tb[2]);
    fs->anya_exp += (double)ar.stats.expanded;
    fs->anya_gen += (double)ar.stats.generated;
    fs->astar_exp += (double)r.stats.expanded;
    if (ar.stats.generated > fs->most_nodes) fs->most_nodes = ar.stats.generated;
    /* the octile optimum: the A* cost, which must match the file's (rounded) length */
    const double opt = r.cost, file = q->optimal_length;
    if (as != ASTAR_OK || gs != ASTAR_OK || ar.cost > opt + 1e-6 ||
        fabs(opt - file) > 1e-5 * (file > 1 ? file : 1)) {
      fprintf(stderr, "%s line %d: anya %d %.9f, A* %d %.9f, file %.9f\n", scenfile, q->line,
              (int)as, ar.cost, (int)gs, r.cost, file);
      fs->violations++;
      continue;
    }
    if (opt > 0) {
      const double ratio = ar.cost / opt;
      fs->ratio_n++;
      fs->ratio_sum += ratio;
      if (ratio > fs->ratio_max) fs->ratio_max = ratio;
      if (fs->ratio_n == 1 || ratio < fs->ratio_min) fs->ratio_min = ratio;
    }
  }
  free(vp);
  free(cp);
  astar_workspace_free(ws);
done:
  astar_scen_free(sc);
  astar_grid_free(g);
  free(mt);
  free(stext);
}

static int run_family(const char *dir, long every, astar_anya_workspace *aw) {
  char *names[256];
  size_t nn = 0;
  if (!bench_list_dir(dir, ".map", names, 256, &nn)) {
    fprintf(stderr, "cannot open %s\n", dir);
    return 1;
  }
  family_stats fs;
  memset(&fs, 0, sizeof fs);
  for (size_t i = 0; i < nn; i++) {
    char mp[4096], sp[4096];
    snprintf(mp, sizeof mp, "%s/%s", dir, names[i]);
    snprintf(sp, sizeof sp, "%s/%s.scen", dir, names[i]);
    run_map(mp, sp, every, aw, &fs);
    free(names[i]);
  }
  const char *fam = strrchr(dir, '/');
  fam = fam && fam[1] ? fam + 1 : dir;
  const double q = fs.queries ? (double)fs.queries : 1;
  printf("%-8s %6ld  %.4f  %.4f  %.4f  %9.1f  %9.1f  %6.2f  %9.0f  %9.0f  %8llu  %ld\n", fam,
         fs.queries, fs.ratio_n ? fs.ratio_sum / (double)fs.ratio_n : 0, fs.ratio_min, fs.ratio_max,
         fs.anya_us / q, fs.astar_us / q, fs.astar_us / (fs.anya_us > 0 ? fs.anya_us : 1),
         fs.anya_exp / q, fs.astar_exp / q, (unsigned long long)fs.most_nodes, fs.violations);
  fflush(stdout);
  return fs.violations ? 1 : 0;
}

int main(int argc, char **argv) {
  long every = 1;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--every") == 0) {
    every = atol(argv[2]);
    if (every < 1) {
      fprintf(stderr, "anya_bench: --every wants an integer >= 1, got '%s'\n", argv[2]);
      return 2;
    }
    first = 3;
  }
  astar_anya_workspace *aw = NULL;
  if (astar_anya_workspace_new(&aw, NULL, 1u << 16, NULL) != ASTAR_OK) return 2;
  printf("family   queries  mean    min     max     anya_us    astar_us   A*/anya  anya_exp   "
         "astar_exp  most_nodes  violations\n");
  int bad = 0;
  if (first < argc) {
    for (int i = first; i < argc; i++) bad |= run_family(argv[i], every, aw);
  } else {
    static const char *fams[] = {"bg512", "dao", "iron", "maze", "random", "room", "sc1", "street"};
    for (size_t i = 0; i < sizeof fams / sizeof *fams; i++) {
      char dir[256];
      snprintf(dir, sizeof dir, "../shared/bench/movingai/%s", fams[i]);
      bad |= run_family(dir, every, aw);
    }
  }
  astar_anya_workspace_free(aw);
  return bad;
}
