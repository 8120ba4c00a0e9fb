/*
** watch_bench.c -- the watch index (astar/watch.h) against scanning every
** path. Registers P paths (JPS between random passable cells of the map, at
** most 1,000 cells each) and then, for batches of B random cells blocked
** (and then reopened), times astar_watch_sync against a brute-force scan
** that checks every cell of every path (and its diagonals' side cells)
** against the batch -- both give the same set of paths (checked). Medians of
** 3 over 20 batches each.
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/watch_bench.c build/libastar.a -lm -o build/watch_bench
**   taskset -c 1 ./build/watch_bench MAP [PATHS]
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define MAXLEN 1000

static uint64_t seed = BENCH_SEED;
static astar_point random_open(const astar_grid *g) {
  return bench_random_open(&seed, g);
}

typedef struct all_paths {
  astar_point *cells; /* every path's cells, one after the other */
  size_t *start;      /* [n + 1] offsets into cells */
  size_t n;
} all_paths;

/* The scan: every path with a cell (or a diagonal's side cell) marked. */
static size_t scan(const all_paths *ap, const uint8_t *mark, int32_t w, uint8_t *hit) {
  size_t found = 0;
  for (size_t p = 0; p < ap->n; p++) {
    const astar_point *c = ap->cells + ap->start[p];
    const size_t len = ap->start[p + 1] - ap->start[p];
    bool h = false;
    for (size_t i = 0; i < len && !h; i++) {
      h = mark[(size_t)c[i].y * (size_t)w + (size_t)c[i].x];
      if (!h && i > 0 && c[i].x != c[i - 1].x && c[i].y != c[i - 1].y)
        h = mark[(size_t)c[i - 1].y * (size_t)w + (size_t)c[i].x] ||
            mark[(size_t)c[i].y * (size_t)w + (size_t)c[i - 1].x];
    }
    hit[p] = h;
    found += h;
  }
  return found;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: watch_bench MAP [PATHS]\n");
    return 2;
  }
  const size_t npaths = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 10000;
  astar_grid *g = bench_load_map(argv[1]);
  if (!g) return 1;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  astar_workspace *ws;
  astar_workspace_new(&ws, g, NULL);
  astar_options opt;
  astar_options_init(&opt);
  opt.algorithm = ASTAR_ALGO_JPS;
  all_paths ap = {malloc(npaths * MAXLEN * sizeof(astar_point)),
                  malloc((npaths + 1) * sizeof(size_t)), 0};
  ap.start[0] = 0;
  double t0 = bench_now();
  size_t cells = 0;
  while (ap.n < npaths) {
    astar_point *out = ap.cells + ap.start[ap.n];
    astar_result res;
    if (astar_find_path(ws, g, &opt, random_open(g), random_open(g), out, MAXLEN, &res) != ASTAR_OK)
      continue;
    cells += res.length;
    ap.start[ap.n + 1] = ap.start[ap.n] + res.length;
    ap.n++;
  }
  const double reg = bench_now() - t0;
  /* Entries: every cell plus two side cells a diagonal step. */
  size_t need = 0;
  for (size_t i = 0; i < ap.start[ap.n]; i++)
    need +=
        1 +
        (i > 0 && ap.cells[i].x != ap.cells[i - 1].x && ap.cells[i].y != ap.cells[i - 1].y ? 2 : 0);
  astar_watch *wi;
  if (astar_watch_new(&wi, g, (uint32_t)npaths, need, NULL) != ASTAR_OK) return 1;
  for (size_t p = 0; p < ap.n; p++) {
    astar_watch_id id;
    if (astar_watch_add(wi, &opt, ap.cells + ap.start[p], ap.start[p + 1] - ap.start[p], &id) !=
        ASTAR_OK)
      return 1;
  }
  printf("%s: %dx%d, %zu paths, %zu path cells (mean %.0f), %zu watched entries, index %.1f MB\n",
         argv[1], w, h, ap.n, cells, (double)cells / (double)ap.n, astar_watch_cells_used(wi),
         (double)astar_watch_memory(wi) / 1e6);
  /* Registering alone, timed again on a second index. */
  astar_watch *w2;
  astar_watch_new(&w2, g, (uint32_t)npaths, need, NULL);
  t0 = bench_now();
  for (size_t p = 0; p < ap.n; p++) {
    astar_watch_id id;
    astar_watch_add(w2, &opt, ap.cells + ap.start[p], ap.start[p + 1] - ap.start[p], &id);
  }
  printf("  registering all: %.2f ms (%.2f us a path); with the searches %.0f ms\n",
         (bench_now() - t0) * 1e3, (bench_now() - t0) * 1e6 / (double)ap.n, reg * 1e3);
  astar_watch_free(w2);
  astar_grid_track_changes(g, 1u << 16);
  uint8_t *mark = calloc((size_t)w * (size_t)h, 1), *hit = malloc(ap.n);
  astar_watch_id *ids = malloc(ap.n * sizeof *ids);
  astar_point *batch = malloc(4096 * sizeof *batch);
  printf("| cells a batch | paths hit (mean) | watch sync us | scan us | scan / watch |\n");
  printf("|---:|---:|---:|---:|---:|\n");
  const int sizes[] = {1, 16, 256, 4096};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    const int b = sizes[si];
    double tw[3], ts[3], hits = 0;
    for (int rep = 0; rep < 3; rep++) {
      double sw = 0, ss = 0;
      for (int k = 0; k < 20; k++) {
        for (int i = 0; i < b; i++) {
          batch[i] = random_open(g);
          astar_grid_set_passable(g, batch[i].x, batch[i].y, false);
          mark[(size_t)batch[i].y * (size_t)w + (size_t)batch[i].x] = 1;
        }
        size_t len;
        double t = bench_now();
        astar_watch_sync(wi, g, ids, ap.n, &len);
        sw += bench_now() - t;
        t = bench_now();
        const size_t found = scan(&ap, mark, w, hit);
        ss += bench_now() - t;
        if (found != len) {
          fprintf(stderr, "mismatch: watch %zu, scan %zu\n", len, found);
          return 1;
        }
        for (size_t i = 0; i < len; i++)
          if (!hit[ids[i]]) {
            fprintf(stderr, "mismatch: path %u not hit\n", ids[i]);
            return 1;
          }
        if (rep == 0) hits += (double)len;
        for (int i = 0; i < b; i++) {
          astar_grid_set_passable(g, batch[i].x, batch[i].y, true);
          mark[(size_t)batch[i].y * (size_t)w + (size_t)batch[i].x] = 0;
        }
        astar_watch_sync(wi, g, ids, ap.n, &len); /* reopening reports nothing */
        if (len != 0) return 1;
      }
      tw[rep] = sw / 20;
      ts[rep] = ss / 20;
    }
    const double mw = bench_median3(tw[0], tw[1], tw[2]), ms = bench_median3(ts[0], ts[1], ts[2]);
    printf("| %d | %.0f | %.2f | %.0f | %.0f |\n", b, hits / 20, mw * 1e6, ms * 1e6, ms / mw);
  }
  astar_watch_free(wi);
  astar_workspace_free(ws);
  astar_grid_free(g);
  free(ap.cells);
  free(ap.start);
  free(mark);
  free(hit);
  free(ids);
  free(batch);
  return 0;
}
