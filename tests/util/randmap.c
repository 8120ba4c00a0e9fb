/*
** randmap.c -- seeded random maps: splitmix64 PRNG, obstacles at a density,
** optional terrain costs (including costs below 1); maps drawn as rows.
*/
#include "util/randmap.h"

#include <math.h>
#include <string.h>

void rng_seed(rng *r, uint64_t seed) {
  r->state = seed;
}

/* splitmix64: a full-period 64-bit generator with good mixing, so even
** consecutive seeds give unrelated streams. */
uint64_t rng_next(rng *r) {
  uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int32_t rng_range(rng *r, int32_t lo, int32_t hi) {
  uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
  return (int32_t)((int64_t)lo + (int64_t)(rng_next(r) % span));
}

double rng_unit(rng *r) {
  return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

astar_status randmap_make(astar_grid **out, const randmap_spec *spec, rng *r) {
  astar_grid *g = NULL;
  astar_status st = astar_grid_new(&g, spec->width, spec->height, NULL);
  *out = NULL;
  if (st != ASTAR_OK) return st;
  for (int32_t y = 0; y < spec->height; y++) {
    for (int32_t x = 0; x < spec->width; x++) {
      if (rng_unit(r) < spec->density) {
        st = astar_grid_set_passable(g, x, y, false);
        if (st != ASTAR_OK) goto fail;
      }
      if (spec->terrain) {
        double c = spec->terrain_lo + rng_unit(r) * (spec->terrain_hi - spec->terrain_lo);
        c = floor(c * 64.0 + 0.5) / 64.0;
        if (c <= 0) c = 1.0 / 64.0;
        st = astar_grid_set_terrain(g, x, y, (float)c);
        if (st != ASTAR_OK) goto fail;
      }
    }
  }
  *out = g;
  return ASTAR_OK;
fail:
  astar_grid_free(g);
  return st;
}

astar_point randmap_passable_cell(const astar_grid *g, rng *r) {
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  /* Rejection sampling first (cheap on sparse maps), then a scan from a
  ** random offset so that nearly full maps still terminate. */
  for (int i = 0; i < 64; i++) {
    astar_point p = {rng_range(r, 0, w - 1), rng_range(r, 0, h - 1)};
    if (astar_grid_passable(g, p.x, p.y)) return p;
  }
  int64_t n = (int64_t)w * h, off = rng_range(r, 0, (int32_t)(n - 1));
  for (int64_t i = 0; i < n; i++) {
    int64_t k = (off + i) % n;
    astar_point p = {(int32_t)(k % w), (int32_t)(k / w)};
    if (astar_grid_passable(g, p.x, p.y)) return p;
  }
  return (astar_point){-1, -1};
}

void randmap_random_spec(randmap_spec *spec, rng *r, int32_t max_side, int allow_terrain) {
  /* Favour small and thin maps now and then: they hit the edge cases. */
  int32_t side_cap = (rng_next(r) % 4 == 0) ? (max_side < 6 ? max_side : 6) : max_side;
  spec->width = rng_range(r, 1, side_cap);
  spec->height = rng_range(r, 1, side_cap);
  if (rng_next(r) % 8 == 0) spec->width = 1;
  spec->density = rng_unit(r) * 0.45;
  spec->terrain = allow_terrain && (rng_next(r) & 1);
  spec->terrain_lo = 0.5;
  spec->terrain_hi = 5.0;
}

astar_grid *randmap_from_rows(const char *const *rows, int32_t h, char blocked) {
  const int32_t w = (int32_t)strlen(rows[0]);
  astar_grid *g = NULL;
  if (astar_grid_new(&g, w, h, NULL) != ASTAR_OK) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) astar_grid_set_passable(g, x, y, rows[y][x] != blocked);
  return g;
}
