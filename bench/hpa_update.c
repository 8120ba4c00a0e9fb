/*
** hpa_update.c -- HPA* (astar/hierarchy.h): full build against incremental
** update. For each map and level count: the build time and the memory per
** cell, then the time of astar_hpa_update after toggling one cell and after
** blocking an 8 x 8 square (each undone and updated back), medians of 3 over
** 20 random places each, and the clusters each update recomputed.
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/hpa_update.c build/libastar.a -lm -o build/hpa_update
**   taskset -c 1 ./build/hpa_update MAP [MAP...]
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

/* Mean seconds of one update over `n` random edits of side `side` (each made,
** updated, undone, updated); *clusters the mean clusters recomputed. */
static double edits(astar_grid *g, astar_hpa *h, int32_t side, int n, double *clusters) {
  const int32_t w = astar_grid_width(g), hh = astar_grid_height(g);
  double total = 0, cl = 0;
  bool old[64 * 64];
  for (int k = 0; k < n; k++) {
    const int32_t x0 = (int32_t)rnd((uint32_t)(w - side)), y0 = (int32_t)rnd((uint32_t)(hh - side));
    for (int pass = 0; pass < 2; pass++) {
      for (int32_t y = 0; y < side; y++)
        for (int32_t x = 0; x < side; x++) {
          if (pass == 0) old[y * side + x] = astar_grid_passable(g, x0 + x, y0 + y);
          astar_grid_set_passable(g, x0 + x, y0 + y,
                                  pass ? old[y * side + x] : (side == 1 ? !old[0] : false));
        }
      uint64_t rebuilt = 0;
      const double t0 = bench_now();
      if (astar_hpa_update(h, g, x0, y0, x0 + side - 1, y0 + side - 1, &rebuilt) != ASTAR_OK) {
        fprintf(stderr, "update failed\n");
        exit(1);
      }
      total += bench_now() - t0;
      cl += (double)rebuilt;
    }
  }
  *clusters = cl / (2.0 * n);
  return total / (2.0 * n);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MAP [MAP...]\n", argv[0]);
    return 2;
  }
  printf("| map | size | levels | top nodes | top arcs | build ms | bytes/cell | update 1 cell "
         "µs | clusters | update 8x8 µs | clusters | full build / 1-cell update |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int a = 1; a < argc; a++) {
    astar_grid *g = bench_load_map(argv[a]);
    if (!g) {
      fprintf(stderr, "%s: cannot read the map\n", argv[a]);
      return 1;
    }
    for (int levels = 1; levels <= 3; levels++) {
      astar_hpa_options ho;
      astar_hpa_options_init(&ho);
      ho.levels = levels;
      double tb[3];
      astar_hpa *h = NULL;
      for (int r = 0; r < 3; r++) {
        astar_hpa_free(h);
        const double t0 = bench_now();
        if (astar_hpa_new(&h, g, NULL, &ho, NULL) != ASTAR_OK) return 1;
        tb[r] = bench_now() - t0;
      }
      double u1[3], u8[3], c1 = 0, c8 = 0;
      for (int r = 0; r < 3; r++) {
        u1[r] = edits(g, h, 1, 20, &c1);
        u8[r] = edits(g, h, 8, 20, &c8);
      }
      const double build = bench_median3(tb[0], tb[1], tb[2]);
      const double up1 = bench_median3(u1[0], u1[1], u1[2]);
      const double up8 = bench_median3(u8[0], u8[1], u8[2]);
      const double cells = (double)astar_grid_width(g) * astar_grid_height(g);
      const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
      astar_hpa_stats st;
      astar_hpa_get_stats(h, &st);
      printf("| %s | %dx%d | %d | %u | %llu | %.1f | %.2f | %.0f | %.1f | %.0f | %.1f | %.0f |\n",
             name, astar_grid_width(g), astar_grid_height(g), levels, st.level[levels - 1].nodes,
             (unsigned long long)st.level[levels - 1].arcs, build * 1e3,
             (double)astar_hpa_memory(h) / cells, up1 * 1e6, c1, up8 * 1e6, c8, build / up1);
      astar_hpa_free(h);
    }
    astar_grid_free(g);
  }
  return 0;
}
