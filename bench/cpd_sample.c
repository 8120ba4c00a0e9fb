/*
** cpd_sample.c -- what a full CPD build (astar/cpd.h) of a map would cost,
** measured on a sample of its sources: blocks of 16 sources at evenly spaced
** node numbers (astar_cpd_block_build, one thread), so that maps far too big
** to build whole still give their CPU time per source and their runs per row.
** Prints per map: passable cells n, sources sampled, CPU microseconds per
** source, that time over n log2 n (nanoseconds: the Dijkstra's growth, to
** scale to other sizes), runs per row, and the whole build's estimates: CPU
** hours on one core (n x time per source) and the file's bytes (56 + 4 n +
** 4 runs: the "ASTARCPD" layout of src/cpd/io.c). docs/scaling.md uses it.
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/cpd_sample.c build/libastar.a -lm -lpthread -o build/cpd_sample
**   taskset -c 1 ./build/cpd_sample SOURCES MAP [MAP ...]
** SOURCES: sources sampled per map (rounded up to blocks of 16; all of them
** when the map has fewer).
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#define SAMPLE_BLOCK 16u /* sources a sampled block: neighbours, like a real block */

/* CPU seconds of this process (the build is single-threaded here). */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SOURCES MAP [MAP ...]\n", argv[0]);
    return 2;
  }
  const long want = strtol(argv[1], NULL, 10);
  if (want < 1) {
    fprintf(stderr, "SOURCES: expected a positive count, got '%s'\n", argv[1]);
    return 2;
  }
  printf("%-32s %9s %7s %10s %12s %9s %10s %12s\n", "map", "n", "sampled", "us/source",
         "ns/(n lg n)", "runs/row", "CPU h", "file MB");
  int rc = 0;
  for (int a = 2; a < argc; a++) {
    astar_grid *grid = bench_load_map(argv[a]);
    uint32_t n = 0;
    if (!grid || astar_cpd_sources(grid, &n) != ASTAR_OK || n == 0) {
      fprintf(stderr, "%s: cannot read the map (or no passable cell)\n", argv[a]);
      astar_grid_free(grid);
      rc = 1;
      continue;
    }
    uint32_t blocks = (uint32_t)((want + SAMPLE_BLOCK - 1) / SAMPLE_BLOCK);
    if ((uint64_t)blocks * SAMPLE_BLOCK > n) blocks = (n + SAMPLE_BLOCK - 1) / SAMPLE_BLOCK;
    uint64_t sources = 0, runs = 0;
    double cpu = 0;
    astar_status st = ASTAR_OK;
    for (uint32_t b = 0; b < blocks && st == ASTAR_OK; b++) {
      /* Evenly spaced starts, each block inside [0, n). */
      uint32_t first = (uint32_t)((uint64_t)b * n / blocks);
      uint32_t count = n - first < SAMPLE_BLOCK ? n - first : SAMPLE_BLOCK;
      astar_cpd_block *blk = NULL;
      const double t0 = cpu_now();
      st = astar_cpd_block_build(&blk, grid, NULL, first, count, NULL);
      cpu += cpu_now() - t0;
      if (st == ASTAR_OK) {
        size_t len;
        astar_cpd_block_data(blk, &len);
        /* 56 header bytes, a u32 run count a row, 4 bytes a run. */
        runs += (len - 56 - 4 * (uint64_t)count) / 4;
        sources += count;
      }
      astar_cpd_block_free(blk);
    }
    if (st != ASTAR_OK) {
      fprintf(stderr, "%s: %s\n", argv[a], astar_strerror(st));
      astar_grid_free(grid);
      rc = 1;
      continue;
    }
    const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
    const double per = cpu / (double)sources, rows = (double)runs / (double)sources;
    printf("%-32s %9u %7llu %10.1f %12.3f %9.2f %10.3f %12.1f\n", name, n,
           (unsigned long long)sources, per * 1e6, per * 1e9 / ((double)n * log2((double)n)), rows,
           per * n / 3600.0, (56.0 + 4.0 * n + 4.0 * rows * n) / 1e6);
    astar_grid_free(grid);
  }
  return rc;
}
