/*
** splice_bench.c -- path splicing (astar/splice.h) against replanning from
** scratch. For Q random pairs of a map: an optimal A* path, the unit placed
** at a random cell of its first half, and a wall of up to L cells
** (perpendicular to the path's step there) dropped across the path ahead
** of the unit, at least 2 cells ahead. Then the repair by
** astar_path_splice and a full A* from the unit to the goal are compared:
** how often the splice was kept (spliced / fell back to a full search),
** the repaired path's cost vs the optimum (mean and worst), expansions,
** and time (medians of 3 passes over all Q cases).
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/splice_bench.c build/libastar.a -lm -o build/splice_bench
**   taskset -c 1 ./build/splice_bench MAP [Q [RATIO [AFTER [L]]]]
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

static uint64_t seed = BENCH_SEED;
static uint32_t rnd(uint32_t n) {
  return bench_rnd(&seed, n);
}
static astar_point random_open(const astar_grid *g) {
  return bench_random_open(&seed, g);
}

typedef struct kase {
  astar_point *path; /* the old path */
  size_t n, pos;
  astar_point wall[64];
  int nwall;
} kase;

static void set_wall(astar_grid *g, const kase *k, bool blocked) {
  for (int i = 0; i < k->nwall; i++)
    astar_grid_set_passable(g, k->wall[i].x, k->wall[i].y, !blocked);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MAP [Q [RATIO [AFTER [L]]]]\n", argv[0]);
    return 2;
  }
  astar_grid *g = bench_load_map(argv[1]);
  if (!g) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const int q = argc > 2 ? atoi(argv[2]) : 200;
  astar_splice_options so;
  astar_splice_options_init(&so);
  if (argc > 3) so.max_ratio = atof(argv[3]);
  if (argc > 4) so.after = (size_t)atoi(argv[4]);
  const int wall_len = argc > 5 ? atoi(argv[5]) : 5;
  const size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  astar_workspace *ws = NULL;
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK) return 1;
  astar_point *tmp = malloc(cells * sizeof *tmp), *out = malloc(cells * sizeof *out);
  kase *ks = calloc((size_t)q, sizeof *ks);
  int nk = 0;
  astar_options opt;
  astar_options_init(&opt);
  /* Draw the cases. */
  while (nk < q) {
    const astar_point s = random_open(g), t = random_open(g);
    astar_result r;
    if (astar_find_path(ws, g, &opt, s, t, tmp, cells, &r) != ASTAR_OK || r.length < 20) continue;
    kase *k = &ks[nk];
    k->n = r.length;
    k->pos = rnd((uint32_t)(k->n / 2));
    const size_t at = k->pos + 2 + rnd((uint32_t)(k->n - k->pos - 4));
    const astar_point c = tmp[at], d = tmp[at + 1];
    /* Perpendicular to the step c -> d: (-dy, dx). */
    const int32_t px = -(d.y - c.y), py = d.x - c.x;
    for (int i = -wall_len / 2; i <= wall_len / 2 && k->nwall < 64; i++) {
      const astar_point w = {c.x + i * px, c.y + i * py};
      if (!astar_grid_passable(g, w.x, w.y)) continue;
      if ((w.x == tmp[k->n - 1].x && w.y == tmp[k->n - 1].y) ||
          (w.x == tmp[k->pos].x && w.y == tmp[k->pos].y))
        continue;
      k->wall[k->nwall++] = w;
    }
    if (k->nwall == 0) continue;
    k->path = malloc(k->n * sizeof *k->path);
    memcpy(k->path, tmp, k->n * sizeof *tmp);
    nk++;
  }
  /* Quality and expansions (one pass), time (medians of 3 passes). */
  uint64_t exp_splice = 0, exp_full = 0;
  int kinds[5] = {0}, nopath = 0, compared = 0;
  double ratio_sum = 0, ratio_max = 0, ratio_sum_spliced = 0;
  double t_splice[3], t_full[3];
  for (int pass = 0; pass < 3; pass++) {
    double ts = 0, tf = 0;
    for (int i = 0; i < nk; i++) {
      const kase *k = &ks[i];
      set_wall(g, k, true);
      size_t len = 0;
      astar_repair rep;
      double t0 = bench_now();
      const astar_status s1 =
          astar_path_splice(ws, g, &opt, &so, k->path, k->n, k->pos, out, cells, &len, &rep);
      ts += bench_now() - t0;
      astar_result r;
      t0 = bench_now();
      const astar_status s2 =
          astar_find_path(ws, g, &opt, k->path[k->pos], k->path[k->n - 1], tmp, cells, &r);
      tf += bench_now() - t0;
      set_wall(g, k, false);
      if (pass > 0) continue;
      exp_splice += rep.expanded;
      exp_full += r.stats.expanded;
      kinds[rep.kind]++;
      if (s1 != ASTAR_OK || s2 != ASTAR_OK) {
        nopath++;
        continue;
      }
      const double ratio = rep.cost / r.cost;
      compared++;
      ratio_sum += ratio;
      if (rep.kind == ASTAR_REPAIR_SPLICED) ratio_sum_spliced += ratio;
      if (ratio > ratio_max) ratio_max = ratio;
    }
    t_splice[pass] = ts;
    t_full[pass] = tf;
  }
  qsort(t_splice, 3, sizeof(double), cmp_double);
  qsort(t_full, 3, sizeof(double), cmp_double);
  const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
  printf("%s: %d cases, wall %d, ratio %.2f, before %zu, after %zu\n", name, nk, wall_len,
         so.max_ratio, so.before, so.after);
  printf("  outcome: %d intact, %d spliced, %d full search, %d no path\n", kinds[0], kinds[1],
         kinds[2], nopath);
  printf("  cost vs optimal: mean %.4f (spliced only %.4f), worst %.4f\n",
         compared ? ratio_sum / compared : 0.0, kinds[1] ? ratio_sum_spliced / kinds[1] : 0.0,
         ratio_max);
  printf("  expansions: splice %llu vs full %llu (%.3f)\n", (unsigned long long)exp_splice,
         (unsigned long long)exp_full, (double)exp_splice / (double)exp_full);
  printf("  time (median of 3): splice %.2f us/case vs full %.2f us/case (%.3f)\n",
         t_splice[1] / nk * 1e6, t_full[1] / nk * 1e6, t_splice[1] / t_full[1]);
  for (int i = 0; i < nk; i++) free(ks[i].path);
  free(ks);
  free(tmp);
  free(out);
  astar_workspace_free(ws);
  astar_grid_free(g);
  return 0;
}
