/*
** randmap.h -- seeded, platform-independent random maps for the tests.
** The generator is our own splitmix64 (never rand()), so a seed names the
** same map on every machine and a failing case can be replayed from its seed.
** Also the small hand-drawn maps of the known-answer tests.
*/
#ifndef ASTAR_TEST_RANDMAP_H
#define ASTAR_TEST_RANDMAP_H

#include <astar/astar.h>

typedef struct rng {
  uint64_t state;
} rng;

void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* Uniform integer in [lo, hi] (inclusive); lo <= hi. */
int32_t rng_range(rng *r, int32_t lo, int32_t hi);
/* Uniform double in [0, 1). */
double rng_unit(rng *r);

/* How to draw a map. Terrain costs, when enabled, are drawn uniformly from
** [terrain_lo, terrain_hi] and rounded to a multiple of 1/64 so that they are
** exact in a float (the tests compare sums, not float conversions). */
typedef struct randmap_spec {
  int32_t width, height;
  double density;    /* probability that a cell is blocked */
  int terrain;       /* nonzero: give every cell a random terrain cost */
  double terrain_lo; /* e.g. 0.5 */
  double terrain_hi; /* e.g. 5.0 */
} randmap_spec;

/* Build a map from `spec` using `r`. Returns ASTAR_OK or the failing status
** of the grid API (the grid is then freed and *out is NULL). */
astar_status randmap_make(astar_grid **out, const randmap_spec *spec, rng *r);

/* A random passable cell of `g`, or (-1, -1) when it has none. */
astar_point randmap_passable_cell(const astar_grid *g, rng *r);

/* A random spec: sides in [1, max_side], density in [0, 0.45], terrain on
** with probability 1/2 when `allow_terrain`, costs in [0.5, 5]. */
void randmap_random_spec(randmap_spec *spec, rng *r, int32_t max_side, int allow_terrain);

/* A hand-drawn map: h rows of equal length (the width), `blocked` (e.g. '#')
** a blocked cell, any other character an open one. NULL when the grid cannot
** be made. */
astar_grid *randmap_from_rows(const char *const *rows, int32_t h, char blocked);

#endif
