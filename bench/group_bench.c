/*
** group_bench.c -- pathfinding inside a game loop, measured: many units to
** one goal with a distance field (astar/field.h) against one A* search per
** unit, and an unreachable goal rejected by islands (astar/islands.h)
** against the full flood a plain search does to find out.
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/group_bench.c build/libastar.a -lm -o build/group_bench
**   ./build/group_bench [map ...]
** Without arguments it uses ../shared/bench/movingai/dao/den520d.map and
** maze/maze512-1-0.map. Times are the best of several repetitions.
*/
#define _POSIX_C_SOURCE 199309L
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#define UNITS 100
#define REPS 11

static uint64_t rng_state = 12345;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static astar_grid *load(const char *path) {
  size_t n = 0;
  char *text = bench_slurp(path, &n);
  astar_grid *g = NULL;
  astar_parse_error err;
  if (text && astar_movingai_parse_map(&g, text, n, NULL, &err) != ASTAR_OK) g = NULL;
  free(text);
  return g;
}

/* A random passable cell on island `id`. */
static astar_point cell_on(const astar_grid *g, const astar_islands *isl, uint32_t id) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (;;) {
    const astar_point p = {(int32_t)(rnd() % (uint64_t)w), (int32_t)(rnd() % (uint64_t)h)};
    if (astar_islands_id(isl, p.x, p.y) == id) return p;
  }
}

/* The island with the most cells. */
static uint32_t largest(const astar_islands *isl) {
  uint32_t best = 1;
  for (uint32_t i = 2; i <= astar_islands_count(isl); i++)
    if (astar_islands_size(isl, i) > astar_islands_size(isl, best)) best = i;
  return best;
}

static void group(const char *path, astar_grid *g) {
  astar_islands *isl = NULL;
  astar_workspace *ws = NULL;
  if (astar_islands_new(&isl, g, NULL, NULL) != ASTAR_OK ||
      astar_workspace_new(&ws, g, NULL) != ASTAR_OK) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  const size_t cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  astar_point *buf = malloc(cap * sizeof *buf);
  const uint32_t main_id = largest(isl);
  const astar_point goal = cell_on(g, isl, main_id);
  astar_point starts[UNITS];
  for (int i = 0; i < UNITS; i++) starts[i] = cell_on(g, isl, main_id);

  double t_field = INFINITY, t_build = INFINITY, t_search = INFINITY;
  double sum_field = 0, sum_search = 0, worst = 0;
  size_t mem = 0;
  uint64_t expanded_field = 0, expanded_search = 0;
  for (int rep = 0; rep < REPS; rep++) {
    astar_field *f = NULL;
    astar_stats st;
    const double t0 = bench_now();
    if (astar_field_new(&f, g, NULL, goal, 0.0, NULL, &st) != ASTAR_OK) exit(1);
    const double t1 = bench_now();
    sum_field = 0;
    for (int i = 0; i < UNITS; i++) {
      astar_result r;
      if (astar_field_path(f, g, starts[i], buf, cap, &r) != ASTAR_OK) exit(1);
      sum_field += r.cost;
    }
    const double t2 = bench_now();
    mem = astar_field_memory(f);
    expanded_field = st.expanded;
    astar_field_free(f);
    if (t2 - t0 < t_field) t_field = t2 - t0;
    if (t1 - t0 < t_build) t_build = t1 - t0;

    sum_search = 0;
    expanded_search = 0;
    const double t3 = bench_now();
    for (int i = 0; i < UNITS; i++) {
      astar_result r;
      if (astar_find_path(ws, g, NULL, starts[i], goal, buf, cap, &r) != ASTAR_OK) exit(1);
      sum_search += r.cost;
      expanded_search += r.stats.expanded;
    }
    const double t4 = bench_now();
    if (t4 - t3 < t_search) t_search = t4 - t3;
  }
  worst = fabs(sum_field - sum_search) / sum_search;
  printf("%s: %d units to one goal\n", path, UNITS);
  printf("  field build + %d paths  %9.3f ms  (build %.3f ms, %llu cells settled, %zu bytes)\n",
         UNITS, 1e3 * t_field, 1e3 * t_build, (unsigned long long)expanded_field, mem);
  printf("  %d A* searches          %9.3f ms  (%llu expansions)\n", UNITS, 1e3 * t_search,
         (unsigned long long)expanded_search);
  printf("  ratio A* / field        %9.2f x   (total costs agree to %.1e relative)\n",
         t_search / t_field, worst);
  free(buf);
  astar_workspace_free(ws);
  astar_islands_free(isl);
}

/* Wall in one cell of the largest island, then ask for a path to it. */
static void unreachable(const char *path, astar_grid *g) {
  astar_islands *isl = NULL;
  astar_workspace *ws = NULL;
  if (astar_islands_new(&isl, g, NULL, NULL) != ASTAR_OK ||
      astar_workspace_new(&ws, g, NULL) != ASTAR_OK)
    exit(1);
  const uint32_t main_id = largest(isl);
  /* Block every neighbour: the goal stays passable but becomes its own island. */
  const astar_point goal = cell_on(g, isl, main_id);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if ((dx || dy) && astar_grid_contains(g, goal.x + dx, goal.y + dy))
        astar_grid_set_passable(g, goal.x + dx, goal.y + dy, false);
  double t_islands = INFINITY;
  for (int rep = 0; rep < REPS; rep++) {
    const double t0 = bench_now();
    astar_islands_update(isl, g);
    const double t1 = bench_now();
    if (t1 - t0 < t_islands) t_islands = t1 - t0;
  }
  const astar_point start = cell_on(g, isl, largest(isl));

  astar_options plain, with;
  astar_options_init(&plain);
  astar_options_init(&with);
  with.islands = isl;
  double t_flood = INFINITY;
  astar_result r;
  astar_status st = ASTAR_OK;
  for (int rep = 0; rep < REPS; rep++) {
    const double t0 = bench_now();
    st = astar_find_path(ws, g, &plain, start, goal, NULL, 0, &r);
    const double t1 = bench_now();
    if (t1 - t0 < t_flood) t_flood = t1 - t0;
  }
  const uint64_t flood_expanded = r.stats.expanded;
  const astar_status st_flood = st;
  const int n = 100000;
  double t_reject = INFINITY;
  for (int rep = 0; rep < REPS; rep++) {
    const double t0 = bench_now();
    for (int i = 0; i < n; i++) st = astar_find_path(ws, g, &with, start, goal, NULL, 0, &r);
    const double t1 = bench_now();
    if ((t1 - t0) / n < t_reject) t_reject = (t1 - t0) / n;
  }
  printf("%s: unreachable goal (%d,%d) walled in, start (%d,%d)\n", path, goal.x, goal.y, start.x,
         start.y);
  printf("  full search             %9.3f ms  (%s, %llu expansions)\n", 1e3 * t_flood,
         astar_strerror(st_flood), (unsigned long long)flood_expanded);
  printf("  island-rejected query   %9.3f us  (%s, %llu expansions)\n", 1e6 * t_reject,
         astar_strerror(st), (unsigned long long)r.stats.expanded);
  printf("  ratio                   %9.0f x   (islands relabelled in %.3f ms, %u islands)\n",
         t_flood / t_reject, 1e3 * t_islands, astar_islands_count(isl));
  astar_workspace_free(ws);
  astar_islands_free(isl);
}

int main(int argc, char **argv) {
  static const char *defaults[] = {"../shared/bench/movingai/dao/den520d.map",
                                   "../shared/bench/movingai/maze/maze512-1-0.map"};
  const char *const *maps = argc > 1 ? (const char *const *)argv + 1 : defaults;
  const int nmaps = argc > 1 ? argc - 1 : 2;
  for (int i = 0; i < nmaps; i++) {
    astar_grid *g = load(maps[i]);
    if (!g) {
      fprintf(stderr, "cannot load %s\n", maps[i]);
      return 1;
    }
    group(maps[i], g);
    unreachable(maps[i], g);
    astar_grid_free(g);
  }
  return 0;
}
