/*
** bench_util.h -- the helpers every benchmark program of bench/ needs:
** a monotonic clock, reading a whole file, loading a map or a scenario
** file, the median of three timings and a sorted listing of a folder.
** Header-only (static functions), because each program is built by one cc
** command (see its header comment); include it
** after defining _POSIX_C_SOURCE >= 199309L (clock_gettime). Benchmarks
** only: they print and exit; the library never does.
*/
#ifndef ASTAR_BENCH_UTIL_H
#define ASTAR_BENCH_UTIL_H

#include <astar/astar.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock (only differences mean something). */
static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The whole file at `path`, NUL-terminated (the caller frees it), its length
** (without the NUL) in *len; NULL, *len untouched, if it cannot be read. */
static inline char *bench_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) buf[n] = '\0', *len = (size_t)n;
  return buf;
}

/* The map (Moving AI or ASCII) at `path`; NULL if it cannot be read or
** parsed. The caller frees it with astar_grid_free. */
static inline astar_grid *bench_load_map(const char *path) {
  size_t len = 0;
  char *text = bench_slurp(path, &len);
  astar_grid *g = NULL;
  if (text && astar_parse_map(&g, text, len, NULL, NULL, NULL, NULL) != ASTAR_OK) g = NULL;
  free(text);
  return g;
}

/* The Moving AI scenario file at `path`; NULL if it cannot be read or
** parsed. The caller frees it with astar_scen_free. */
static inline astar_scen *bench_load_scen(const char *path) {
  size_t len = 0;
  char *text = bench_slurp(path, &len);
  astar_scen *sc = NULL;
  if (text && astar_movingai_parse_scen(&sc, text, len, NULL, NULL) != ASTAR_OK) sc = NULL;
  free(text);
  return sc;
}

/* A xorshift generator: the benchmarks' random choices, the same on every
** machine for a given state (start it at BENCH_SEED for the published runs). */
#define BENCH_SEED UINT64_C(88172645463325252)
static inline uint32_t bench_rnd(uint64_t *state, uint32_t n) {
  *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
  return (uint32_t)(*state % n);
}

/* A uniformly drawn passable cell of g (which has one). */
static inline astar_point bench_random_open(uint64_t *state, const astar_grid *g) {
  for (;;) {
    const astar_point p = {(int32_t)bench_rnd(state, (uint32_t)astar_grid_width(g)),
                           (int32_t)bench_rnd(state, (uint32_t)astar_grid_height(g))};
    if (astar_grid_passable(g, p.x, p.y)) return p;
  }
}

/* The median of three timings (the usual "run three times" figure). */
static inline double bench_median3(double a, double b, double c) {
  if (a > b) {
    const double t = a;
    a = b;
    b = t;
  }
  if (b > c) b = c;
  return a > b ? a : b;
}

/* qsort comparator of C strings (char *), byte order: the same order on
** every machine, unlike readdir's. */
static inline int bench_cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder `dir` that end with `suffix` ("" for any) and do not
** start with '.', sorted by bench_cmp_str, at most `max` of them, into
** names[] (each malloc'ed: the caller frees them) and their count into *n.
** False (and *n = 0) if the folder cannot be opened. */
static inline bool bench_list_dir(const char *dir, const char *suffix, char **names, size_t max,
                                  size_t *n) {
  DIR *d = opendir(dir);
  *n = 0;
  if (!d) return false;
  const size_t s = strlen(suffix);
  for (struct dirent *e; *n < max && (e = readdir(d)) != NULL;) {
    const size_t l = strlen(e->d_name);
    if (e->d_name[0] == '.' || l < s || strcmp(e->d_name + l - s, suffix) != 0) continue;
    char *copy = malloc(l + 1);
    if (!copy) break;
    memcpy(copy, e->d_name, l + 1);
    names[(*n)++] = copy;
  }
  closedir(d);
  qsort(names, *n, sizeof *names, bench_cmp_str);
  return true;
}

#endif
