/*
** random.c -- random MAPF instances by the benchmark's "random scenario"
** rule (astar_mapf_random_instance): starts and goals drawn uniformly
** without repetition from the largest 4-connected component.
**
** The exact procedure, so that a seed names the same instance everywhere:
**   1. components are found in increasing order of their smallest cell
**      number; the largest wins, the first found on a tie;
**   2. its cells are listed in increasing cell number (m of them);
**   3. the generator is xoshiro256** whose four words are the first four
**      outputs of splitmix64 started at `seed`;
**   4. starts: a partial Fisher-Yates shuffle of the list -- for k = 0 ..
**      n-1, j = k + uniform(m - k), swap list[k] and list[j], starts[k] =
**      list[k]; uniform(r) rejects draws x < 2^64 mod r and returns x mod r;
**   5. the list is rebuilt in increasing order and goals are drawn the same
**      way, continuing the same generator.
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

uint64_t mapf_rng_next(mapf_rng *r) {
  const uint64_t result = rotl(r->s[1] * 5, 7) * 9;
  const uint64_t t = r->s[1] << 17;
  r->s[2] ^= r->s[0];
  r->s[3] ^= r->s[1];
  r->s[1] ^= r->s[2];
  r->s[0] ^= r->s[3];
  r->s[2] ^= t;
  r->s[3] = rotl(r->s[3], 45);
  return result;
}

void mapf_rng_seed(mapf_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

uint64_t mapf_rng_below(mapf_rng *r, uint64_t range) {
  if (range <= 1) return 0;
  const uint64_t threshold = (0 - range) % range; /* 2^64 mod range */
  for (;;) {
    const uint64_t x = mapf_rng_next(r);
    if (x >= threshold) return x % range;
  }
}

#define BIT_GET(b, i) (((b)[(i) >> 3] >> ((i)&7u)) & 1u)
#define BIT_SET(b, i) ((b)[(i) >> 3] |= (uint8_t)(1u << ((i)&7u)))

/* Breadth-first flood of the component of `from` (passable, unmarked):
** marks it in `seen` and appends its cells to queue[0 ..); returns its size. */
static size_t flood(const astar_grid *g, int32_t w, int32_t h, uint32_t from, uint8_t *seen,
                    uint32_t *queue) {
  size_t head = 0, tail = 0;
  queue[tail++] = from;
  BIT_SET(seen, from);
  while (head < tail) {
    const uint32_t u = queue[head++];
    const int32_t x = (int32_t)(u % (uint32_t)w), y = (int32_t)(u / (uint32_t)w);
    static const int8_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; d++) {
      const int32_t nx = x + dx[d], ny = y + dy[d];
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || !astar_grid_passable(g, nx, ny)) continue;
      const uint32_t v = (uint32_t)ny * (uint32_t)w + (uint32_t)nx;
      if (BIT_GET(seen, v)) continue;
      BIT_SET(seen, v);
      queue[tail++] = v;
    }
  }
  return tail;
}

/* The largest component's cells in increasing order into list[0 .. m). */
static size_t sorted_component(const uint8_t *seen, uint32_t cells, uint32_t *list) {
  size_t m = 0;
  for (uint32_t c = 0; c < cells; c++)
    if (BIT_GET(seen, c)) list[m++] = c;
  return m;
}

static void draw(mapf_rng *r, uint32_t *list, size_t m, size_t n, astar_point *out, int32_t w) {
  for (size_t k = 0; k < n; k++) {
    const size_t j = k + (size_t)mapf_rng_below(r, (uint64_t)(m - k));
    const uint32_t t = list[k];
    list[k] = list[j];
    list[j] = t;
    out[k] = (astar_point){(int32_t)(list[k] % (uint32_t)w), (int32_t)(list[k] / (uint32_t)w)};
  }
}

astar_status astar_mapf_random_instance(const astar_grid *grid, uint64_t seed, size_t n,
                                        astar_point *starts, astar_point *goals,
                                        const astar_allocator *alloc) {
  if (!grid || !starts || !goals || n == 0) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const uint32_t cells = (uint32_t)w * (uint32_t)h;
  const size_t bits = ((size_t)cells + 7) / 8;
  uint8_t *seen = astar__calloc(&a, bits, 1);
  uint32_t *list = astar__malloc(&a, (size_t)cells * sizeof(uint32_t));
  if (!seen || !list) {
    astar__free(&a, seen, bits);
    astar__free(&a, list, (size_t)cells * sizeof(uint32_t));
    return ASTAR_NO_MEMORY;
  }
  /* 1. the largest component: the first of the largest size */
  size_t best = 0;
  uint32_t best_cell = 0;
  for (uint32_t c = 0; c < cells; c++) {
    const int32_t x = (int32_t)(c % (uint32_t)w), y = (int32_t)(c / (uint32_t)w);
    if (BIT_GET(seen, c) || !astar_grid_passable(grid, x, y)) continue;
    const size_t size = flood(grid, w, h, c, seen, list);
    if (size > best) {
      best = size;
      best_cell = c;
    }
  }
  astar_status st = ASTAR_OK;
  if (n > best) {
    st = ASTAR_TOO_LARGE;
  } else {
    memset(seen, 0, bits);
    flood(grid, w, h, best_cell, seen, list);
    mapf_rng r;
    mapf_rng_seed(&r, seed);
    size_t m = sorted_component(seen, cells, list);
    draw(&r, list, m, n, starts, w);
    m = sorted_component(seen, cells, list);
    draw(&r, list, m, n, goals, w);
  }
  astar__free(&a, seen, bits);
  astar__free(&a, list, (size_t)cells * sizeof(uint32_t));
  return st;
}
