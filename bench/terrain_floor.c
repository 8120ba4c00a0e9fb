/*
** terrain_floor.c -- what one cheap road does to A*'s heuristic, and what
** options.heuristic_floor buys back (astar/search.h, "Costs and
** optimality"). On each map: 50 seeded queries without the road, with one
** road row of terrain 0.5 across the middle (the heuristic then assumes 0.5
** everywhere), and with the road and heuristic_floor = 1 (weighted A* by
** 2: cost at most 2 x optimal), and with the road and a landmark heuristic
** (astar/landmarks.h, K = 8, built on the road map's real costs: exact).
** Prints expansions and the cost ratios.
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/terrain_floor.c build/libastar.a -lm -o build/terrain_floor
**   ./build/terrain_floor [map ...]
** Without arguments: a 256 x 256 open map and ../shared/bench/movingai/dao/den520d.map.
*/
#define _POSIX_C_SOURCE 200809L

#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define QUERIES 50

static uint64_t rng_state = 2026;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33) % n;
}

static astar_point passable(const astar_grid *g) {
  for (;;) {
    astar_point p = {(int32_t)rnd((uint32_t)astar_grid_width(g)),
                     (int32_t)rnd((uint32_t)astar_grid_height(g))};
    if (astar_grid_passable(g, p.x, p.y)) return p;
  }
}

static void run(const char *label, astar_grid *g) {
  astar_workspace *ws;
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK) return;
  astar_point s[QUERIES], t[QUERIES];
  for (int i = 0; i < QUERIES; i++) s[i] = passable(g), t[i] = passable(g);
  const size_t cap = astar_grid_count_passable(g) + 1;
  astar_point *path = malloc(cap * sizeof *path);
  uint64_t exp[4] = {0, 0, 0, 0};
  double worst = 1.0, sum = 0.0, lm_worst = 0.0;
  int n = 0;
  astar_landmarks *lm = NULL;
  for (int phase = 0; phase < 4; phase++) {
    if (phase == 1)
      for (int32_t x = 0; x < astar_grid_width(g); x++)
        astar_grid_set_terrain(g, x, astar_grid_height(g) / 2, 0.5f);
    for (int i = 0; i < QUERIES; i++) {
      astar_options o;
      astar_options_init(&o);
      astar_result r, exact;
      if (phase >= 2 && astar_find_path(ws, g, NULL, s[i], t[i], path, cap, &exact) != ASTAR_OK)
        continue;
      if (phase == 2) o.heuristic_floor = 1.0;
      if (phase == 3) {
        if (!lm) {
          astar_landmark_options lo;
          astar_landmark_options_init(&lo);
          lo.count = 8;
          if (astar_landmarks_new_grid(&lm, g, NULL, &lo, NULL) != ASTAR_OK) break;
        }
        o.heuristic = ASTAR_H_CALLBACK;
        o.heuristic_fn = astar_landmarks_grid_heuristic;
        o.heuristic_ctx = lm;
      }
      if (astar_find_path(ws, g, &o, s[i], t[i], path, cap, &r) != ASTAR_OK) continue;
      exp[phase] += r.stats.expanded;
      if (phase == 3 && exact.cost > 0) {
        const double err = r.cost / exact.cost - 1.0;
        lm_worst = err > lm_worst ? err : lm_worst;
      }
      if (phase == 2 && exact.cost > 0) {
        const double ratio = r.cost / exact.cost;
        worst = ratio > worst ? ratio : worst;
        sum += ratio;
        n++;
      }
    }
  }
  printf("| %s | %llu | %llu | %llu | %.4f | %.4f | %llu | %.1e |\n", label,
         (unsigned long long)exp[0], (unsigned long long)exp[1], (unsigned long long)exp[2],
         n ? sum / n : 1.0, worst, (unsigned long long)exp[3], lm_worst);
  astar_landmarks_free(lm);
  free(path);
  astar_workspace_free(ws);
}

int main(int argc, char **argv) {
  printf("| map | expanded, no road | one 0.5 road row | road, heuristic_floor 1 | cost ratio "
         "mean | cost ratio max | road, 8 landmarks | its largest cost error |\n"
         "|---|---:|---:|---:|---:|---:|---:|---:|\n");
  if (argc < 2) {
    astar_grid *g;
    if (astar_grid_new(&g, 256, 256, NULL) == ASTAR_OK) {
      run("open 256 x 256", g);
      astar_grid_free(g);
    }
    g = bench_load_map("../shared/bench/movingai/dao/den520d.map");
    if (g) run("den520d", g);
    astar_grid_free(g);
  }
  for (int i = 1; i < argc; i++) {
    astar_grid *g = bench_load_map(argv[i]);
    if (!g) {
      fprintf(stderr, "%s: cannot load\n", argv[i]);
      return 1;
    }
    run(argv[i], g);
    astar_grid_free(g);
  }
  return 0;
}
