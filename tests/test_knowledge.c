/*
** test_knowledge.c -- fog-of-war knowledge: reveal (a snapshot of the grid),
** reveal_radius against a brute-force disc (changed counts, clipping,
** centres outside, extreme radii), set / get, the blocked border, clear,
** counting, grids of the wrong size, out-of-memory behaviour, and the
** search's inline helpers of src/layers.h against a brute-force neighbour
** mask on random maps for every unknown-cell policy.
*/
#include <astar/astar.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "gameloop/layers.h"

/* Every border byte of the padded array reads blocked. */
static bool border_blocked(const astar_knowledge *k) {
  for (uint32_t i = 0; i < k->ncells; i++) {
    const int32_t px = (int32_t)(i % (uint32_t)k->stride), py = (int32_t)(i / (uint32_t)k->stride);
    const bool border = px == 0 || py == 0 || px == k->stride - 1 || py == k->height + 1;
    if (border && k->state[i] != ASTAR_CELL_BLOCKED) return false;
  }
  return true;
}

static astar_cell_knowledge truth(const astar_grid *g, int32_t x, int32_t y) {
  return astar_grid_passable(g, x, y) ? ASTAR_CELL_PASSABLE : ASTAR_CELL_BLOCKED;
}

static void test_new_free(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 6, 4, NULL), ASTAR_OK);
  astar_knowledge *k = (astar_knowledge *)1;
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
  CHECK(k != NULL);
  CHECK_EQ(astar_knowledge_width(k), 6);
  CHECK_EQ(astar_knowledge_height(k), 4);
  CHECK_EQ(astar_knowledge_count_known(k), 0);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 6; x++) CHECK_EQ(astar_knowledge_get(k, x, y), ASTAR_CELL_UNKNOWN);
  CHECK(border_blocked(k));
  CHECK(astar__knowledge_fits(k, g));
  astar_knowledge_free(k);
  astar_knowledge_free(NULL);

  k = (astar_knowledge *)1;
  CHECK_EQ(astar_knowledge_new(&k, NULL, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(k == NULL);
  CHECK_EQ(astar_knowledge_new(NULL, g, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_width(NULL), 0);
  CHECK_EQ(astar_knowledge_height(NULL), 0);
  CHECK_EQ(astar_knowledge_count_known(NULL), 0);
  CHECK_EQ(astar_knowledge_get(NULL, 0, 0), ASTAR_CELL_BLOCKED);
  CHECK_EQ(astar_knowledge_reveal(NULL, g, 0, 0), ASTAR_INVALID_ARGUMENT);
  size_t changed = 99;
  CHECK_EQ(astar_knowledge_reveal_radius(NULL, g, 0, 0, 1, &changed), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(changed, 0);
  CHECK_EQ(astar_knowledge_set(NULL, 0, 0, ASTAR_CELL_PASSABLE), ASTAR_INVALID_ARGUMENT);
  astar_knowledge_clear(NULL);
  astar_grid_free(g);
}

static void test_reveal(void) {
  astar_grid *g = NULL;
  astar_knowledge *k = NULL;
  CHECK_EQ(astar_grid_new(&g, 5, 5, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 2, 2, false), ASTAR_OK);
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);

  CHECK_EQ(astar_knowledge_reveal(k, g, 2, 2), ASTAR_OK);
  CHECK_EQ(astar_knowledge_reveal(k, g, 1, 2), ASTAR_OK);
  CHECK_EQ(astar_knowledge_get(k, 2, 2), ASTAR_CELL_BLOCKED);
  CHECK_EQ(astar_knowledge_get(k, 1, 2), ASTAR_CELL_PASSABLE);
  CHECK_EQ(astar_knowledge_get(k, 3, 2), ASTAR_CELL_UNKNOWN);
  CHECK_EQ(astar_knowledge_count_known(k), 2);

  /* A snapshot: later changes of the grid are not seen until revealed again. */
  CHECK_EQ(astar_grid_set_passable(g, 2, 2, true), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 1, 2, false), ASTAR_OK);
  CHECK_EQ(astar_knowledge_get(k, 2, 2), ASTAR_CELL_BLOCKED);
  CHECK_EQ(astar_knowledge_get(k, 1, 2), ASTAR_CELL_PASSABLE);
  CHECK_EQ(astar_knowledge_reveal(k, g, 2, 2), ASTAR_OK);
  CHECK_EQ(astar_knowledge_reveal(k, g, 1, 2), ASTAR_OK);
  CHECK_EQ(astar_knowledge_get(k, 2, 2), ASTAR_CELL_PASSABLE);
  CHECK_EQ(astar_knowledge_get(k, 1, 2), ASTAR_CELL_BLOCKED);
  CHECK_EQ(astar_knowledge_count_known(k), 2);

  const int32_t bad[][2] = {{-1, 0}, {0, -1}, {5, 0}, {0, 5}, {INT32_MIN, INT32_MAX}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK_EQ(astar_knowledge_reveal(k, g, bad[i][0], bad[i][1]), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_knowledge_reveal(k, NULL, 0, 0), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_count_known(k), 2);
  CHECK(border_blocked(k));
  astar_knowledge_free(k);
  astar_grid_free(g);
}

static void test_mismatched_grid(void) {
  astar_grid *g = NULL, *other = NULL, *swapped = NULL;
  astar_knowledge *k = NULL;
  CHECK_EQ(astar_grid_new(&g, 10, 8, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&other, 10, 9, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&swapped, 8, 10, NULL), ASTAR_OK); /* same cell count */
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
  size_t changed = 99;
  CHECK_EQ(astar_knowledge_reveal(k, other, 0, 0), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_reveal(k, swapped, 0, 0), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_reveal_radius(k, other, 1, 1, 3, &changed), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(changed, 0);
  CHECK_EQ(astar_knowledge_reveal_radius(k, swapped, 1, 1, 3, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_count_known(k), 0);
  CHECK(!astar__knowledge_fits(k, other) && !astar__knowledge_fits(k, swapped));
  CHECK(astar__knowledge_fits(k, g));
  /* A different grid object of the same size is fine. */
  astar_grid *same = NULL;
  CHECK_EQ(astar_grid_new(&same, 10, 8, NULL), ASTAR_OK);
  CHECK_EQ(astar_knowledge_reveal(k, same, 3, 3), ASTAR_OK);
  astar_grid_free(same);
  astar_knowledge_free(k);
  astar_grid_free(g);
  astar_grid_free(other);
  astar_grid_free(swapped);
}

/* ---- reveal_radius ------------------------------------------------------------ */

/* Apply the documented disc to a plain w x h array of states; the number of
** cells that changed. Centres within +-2^20 keep the squares exact. */
static size_t ref_reveal(uint8_t *st, const astar_grid *g, int32_t cx, int32_t cy, int32_t r) {
  size_t n = 0;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const int64_t dx = (int64_t)x - cx, dy = (int64_t)y - cy;
      if (dx * dx + dy * dy <= (int64_t)r * r) {
        const uint8_t s = (uint8_t)truth(g, x, y);
        n += st[y * w + x] != s;
        st[y * w + x] = s;
      }
    }
  return n;
}

static bool same_states(const astar_knowledge *k, const uint8_t *st) {
  for (int32_t y = 0; y < k->height; y++)
    for (int32_t x = 0; x < k->width; x++)
      if (astar_knowledge_get(k, x, y) != st[y * k->width + x]) {
        fprintf(stderr, "  cell (%d,%d): %d, expected %d\n", (int)x, (int)y,
                (int)astar_knowledge_get(k, x, y), (int)st[y * k->width + x]);
        return false;
      }
  return border_blocked(k);
}

static void test_reveal_radius_basic(void) {
  astar_grid *g = NULL;
  astar_knowledge *k = NULL;
  CHECK_EQ(astar_grid_new(&g, 9, 9, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 4, 3, false), ASTAR_OK);
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
  size_t changed = 0;

  /* Radius 0: the centre only. */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, 0, &changed), ASTAR_OK);
  CHECK_EQ(changed, 1);
  CHECK_EQ(astar_knowledge_count_known(k), 1);
  /* Radius 1: the plus shape (diagonals are at sqrt 2). */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, 1, &changed), ASTAR_OK);
  CHECK_EQ(changed, 4);
  CHECK_EQ(astar_knowledge_get(k, 4, 3), ASTAR_CELL_BLOCKED);
  CHECK_EQ(astar_knowledge_get(k, 3, 3), ASTAR_CELL_UNKNOWN);
  /* Radius 2: 13 cells, 5 of them already known; the rim at distance 2 is in. */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, 2, &changed), ASTAR_OK);
  CHECK_EQ(changed, 8);
  CHECK_EQ(astar_knowledge_get(k, 4, 6), ASTAR_CELL_PASSABLE);
  CHECK_EQ(astar_knowledge_get(k, 6, 5), ASTAR_CELL_UNKNOWN); /* sqrt 5 > 2 */
  /* Revealing again changes nothing... */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, 2, &changed), ASTAR_OK);
  CHECK_EQ(changed, 0);
  /* ...until the grid changes inside the disc. */
  CHECK_EQ(astar_grid_set_passable(g, 4, 3, true), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 5, 5, false), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 0, 0, false), ASTAR_OK); /* outside the disc */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, 2, &changed), ASTAR_OK);
  CHECK_EQ(changed, 2);
  CHECK_EQ(astar_knowledge_get(k, 4, 3), ASTAR_CELL_PASSABLE);
  CHECK_EQ(astar_knowledge_get(k, 5, 5), ASTAR_CELL_BLOCKED);
  CHECK_EQ(astar_knowledge_get(k, 0, 0), ASTAR_CELL_UNKNOWN);
  /* A state set by hand that differs from the truth counts as a change. */
  CHECK_EQ(astar_knowledge_set(k, 4, 4, ASTAR_CELL_BLOCKED), ASTAR_OK);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, 0, NULL), ASTAR_OK);
  CHECK_EQ(astar_knowledge_get(k, 4, 4), ASTAR_CELL_PASSABLE);

  /* Bad radius: nothing touched, *changed is 0. */
  changed = 7;
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, -1, &changed), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(changed, 0);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, INT32_MIN, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_reveal_radius(k, NULL, 4, 4, 1, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_count_known(k), 13);

  /* The largest radius reveals everything, from any centre. */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 4, 4, INT32_MAX, &changed), ASTAR_OK);
  CHECK_EQ(changed, 81 - 13);
  CHECK_EQ(astar_knowledge_count_known(k), 81);
  CHECK_EQ(astar_knowledge_get(k, 0, 0), ASTAR_CELL_BLOCKED);
  CHECK(border_blocked(k));
  astar_knowledge_clear(k);
  /* A far corner is about 2^31 * sqrt 2 away: beyond even the largest radius. */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, INT32_MIN, INT32_MAX, INT32_MAX, &changed),
           ASTAR_OK);
  CHECK_EQ(changed, 0);
  /* One column short of reaching the grid, then exactly reaching (0, 4). */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, INT32_MIN, 4, INT32_MAX, &changed), ASTAR_OK);
  CHECK_EQ(changed, 0);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, INT32_MIN + 1, 4, INT32_MAX, &changed), ASTAR_OK);
  CHECK_EQ(changed, 1);
  CHECK_EQ(astar_knowledge_get(k, 0, 4), ASTAR_CELL_PASSABLE);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, -100, 4, INT32_MAX, &changed), ASTAR_OK);
  CHECK_EQ(changed, 80);
  CHECK_EQ(astar_knowledge_count_known(k), 81);
  astar_knowledge_clear(k);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, -3, 4, 4, &changed), ASTAR_OK);
  CHECK_EQ(changed, 6); /* (0, 2..6) and (1, 4) */
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, INT32_MAX, INT32_MIN, 5, &changed), ASTAR_OK);
  CHECK_EQ(changed, 0);
  CHECK(border_blocked(k));
  astar_knowledge_free(k);
  astar_grid_free(g);
}

/* Random grids, centres (inside and outside) and radii against the brute
** force, revealing repeatedly on a changing grid. */
static void test_reveal_radius_random(void) {
  rng r;
  rng_seed(&r, 0xf06);
  for (int round = 0; round < 150; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 48, 0);
    astar_grid *g = NULL;
    astar_knowledge *k = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
    const int32_t w = spec.width, h = spec.height;
    uint8_t *st = calloc((size_t)w * (size_t)h, 1);
    for (int step = 0; step < 12; step++) {
      const int32_t cx = rng_range(&r, -8, w + 8), cy = rng_range(&r, -8, h + 8);
      const int32_t radius = rng_range(&r, 0, 20);
      size_t changed = 12345;
      CHECK_EQ(astar_knowledge_reveal_radius(k, g, cx, cy, radius, &changed), ASTAR_OK);
      const size_t expect = ref_reveal(st, g, cx, cy, radius);
      CHECKF(changed == expect, "round %d step %d: changed %zu, expected %zu", round, step, changed,
             expect);
      CHECKF(same_states(k, st), "round %d step %d", round, step);
      size_t known = 0;
      for (int32_t i = 0; i < w * h; i++) known += st[i] != ASTAR_CELL_UNKNOWN;
      CHECK_EQ(astar_knowledge_count_known(k), known);
      /* Flip a few cells of the truth. */
      for (int f = 0; f < 3; f++) {
        const int32_t x = rng_range(&r, 0, w - 1), y = rng_range(&r, 0, h - 1);
        CHECK_EQ(astar_grid_set_passable(g, x, y, !astar_grid_passable(g, x, y)), ASTAR_OK);
      }
    }
    free(st);
    astar_knowledge_free(k);
    astar_grid_free(g);
  }
}

/* ---- set / get / clear / count ------------------------------------------------ */

static void test_set_get_clear(void) {
  astar_grid *g = NULL;
  astar_knowledge *k = NULL;
  CHECK_EQ(astar_grid_new(&g, 4, 3, NULL), ASTAR_OK);
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
  const astar_cell_knowledge states[] = {ASTAR_CELL_UNKNOWN, ASTAR_CELL_PASSABLE,
                                         ASTAR_CELL_BLOCKED};
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 4; x++) CHECK_EQ(astar_knowledge_set(k, x, y, states[(x + y) % 3]), 0);
  size_t known = 0;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 4; x++) {
      CHECK_EQ(astar_knowledge_get(k, x, y), states[(x + y) % 3]);
      known += (x + y) % 3 != 0;
    }
  CHECK_EQ(astar_knowledge_count_known(k), known);
  /* The padded layout the search relies on. */
  CHECK_EQ(k->state[(2 + 1) * k->stride + (3 + 1)], states[5 % 3]);

  CHECK_EQ(astar_knowledge_set(k, 0, 0, (astar_cell_knowledge)3), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_set(k, 0, 0, (astar_cell_knowledge)-1), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_set(k, 0, 0, (astar_cell_knowledge)255), ASTAR_INVALID_ARGUMENT);
  const int32_t bad[][2] = {{-1, 0}, {0, -1}, {4, 0}, {0, 3}, {INT32_MAX, INT32_MIN}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_EQ(astar_knowledge_set(k, bad[i][0], bad[i][1], ASTAR_CELL_PASSABLE),
             ASTAR_OUT_OF_BOUNDS);
    CHECK_EQ(astar_knowledge_get(k, bad[i][0], bad[i][1]), ASTAR_CELL_BLOCKED);
  }
  CHECK_EQ(astar_knowledge_count_known(k), known);
  CHECK(border_blocked(k));

  astar_knowledge_clear(k);
  CHECK_EQ(astar_knowledge_count_known(k), 0);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 4; x++) CHECK_EQ(astar_knowledge_get(k, x, y), ASTAR_CELL_UNKNOWN);
  CHECK(border_blocked(k));
  astar_knowledge_free(k);
  astar_grid_free(g);
}

/* ---- allocation ----------------------------------------------------------------- */

static void test_alloc_failure(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 31, 19, NULL), ASTAR_OK);
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator a = failalloc_allocator(&fa);
  long k;
  for (k = 1; k < 20; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    astar_knowledge *kn = (astar_knowledge *)1;
    astar_status st = astar_knowledge_new(&kn, g, &a);
    if (st == ASTAR_OK) {
      CHECK(fa.failures == 0);
      CHECK_EQ(astar_knowledge_reveal_radius(kn, g, 10, 10, 6, NULL), ASTAR_OK);
      astar_knowledge_clear(kn);
      CHECK(fa.requests == k - 1); /* no allocation after construction */
      astar_knowledge_free(kn);
      CHECK_EQ(fa.blocks, 0);
      CHECK_EQ(fa.bytes, 0);
      break;
    }
    CHECKF(st == ASTAR_NO_MEMORY, "failing request %ld gave %d", k, (int)st);
    CHECKF(kn == NULL, "failing request %ld left *out set", k);
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "failing request %ld leaked %ld blocks", k, fa.blocks);
  }
  CHECKF(k == 3, "knowledge_new made %ld allocations, expected 2", k - 1);
  CHECK_EQ(fa.osize_mismatches, 0);
  astar_grid_free(g);
}

/* ---- the search's inline helpers (src/layers.h) ------------------------------------- */

/* Direction steps in the documented order N, E, S, W, NE, SE, SW, NW
** (y grows downwards), written out here rather than taken from the library. */
static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

static bool player_passable(const astar_knowledge *k, int32_t x, int32_t y, astar_unknown pol) {
  const astar_cell_knowledge s = astar_knowledge_get(k, x, y); /* outside: blocked */
  return s == ASTAR_CELL_PASSABLE || (s == ASTAR_CELL_UNKNOWN && pol != ASTAR_UNKNOWN_BLOCKED);
}

static uint8_t brute_mask(const astar_knowledge *k, int32_t x, int32_t y, astar_unknown pol) {
  uint8_t m = 0;
  for (int d = 0; d < 8; d++)
    if (player_passable(k, x + DX[d], y + DY[d], pol)) m |= (uint8_t)(1u << d);
  return m;
}

static void test_helpers_random(void) {
  const astar_unknown policies[] = {ASTAR_UNKNOWN_PASSABLE, ASTAR_UNKNOWN_BLOCKED,
                                    ASTAR_UNKNOWN_COST};
  rng r;
  rng_seed(&r, 0xbeef);
  long mismatches = 0, cells = 0;
  for (int round = 0; round < 120; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 0);
    astar_grid *g = NULL;
    astar_knowledge *k = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
    const int32_t w = spec.width, h = spec.height;
    /* A mix of revealed discs, single reveals and hand-set (possibly false)
     * states, so every state appears next to every other. */
    const int mode = round % 4;
    if (mode >= 1)
      for (int i = 0; i < 4; i++)
        astar_knowledge_reveal_radius(k, g, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1),
                                      rng_range(&r, 0, 8), NULL);
    if (mode >= 2)
      for (int i = 0; i < w * h / 3; i++)
        astar_knowledge_set(k, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1),
                            (astar_cell_knowledge)rng_range(&r, 0, 2));
    if (mode == 3 && round % 8 == 3)
      astar_knowledge_reveal_radius(k, g, 0, 0, INT32_MAX, NULL); /* everything known */
    for (size_t p = 0; p < 3; p++)
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
          const uint32_t u = astar__index(g, x, y);
          const uint8_t got = astar__knowledge_nb(k, g, policies[p], u);
          const uint8_t want = brute_mask(k, x, y, policies[p]);
          cells++;
          if (got != want) {
            if (mismatches++ < 5)
              fprintf(stderr, "  round %d policy %d (%d,%d): mask %02x, expected %02x\n", round,
                      (int)policies[p], (int)x, (int)y, got, want);
          }
        }
    /* Everything known from the current grid: the player's mask is the
     * grid's own neighbour byte, under every policy. */
    if (mode == 3 && round % 8 == 3)
      for (size_t p = 0; p < 3; p++)
        for (int32_t y = 0; y < h; y++)
          for (int32_t x = 0; x < w; x++) {
            const uint32_t u = astar__index(g, x, y);
            CHECK_EQ(astar__knowledge_nb(k, g, policies[p], u), g->nb[u]);
          }
    /* The unknown test, interior and border. */
    for (uint32_t v = 0; v < k->ncells; v++) {
      const int32_t x = (int32_t)(v % (uint32_t)k->stride) - 1;
      const int32_t y = (int32_t)(v / (uint32_t)k->stride) - 1;
      CHECK(astar__knowledge_unknown(k, v) == (astar_knowledge_get(k, x, y) == ASTAR_CELL_UNKNOWN));
    }
    astar_knowledge_free(k);
    astar_grid_free(g);
  }
  CHECKF(mismatches == 0, "%ld of %ld masks differ", mismatches, cells);
}

/* Hand-made case: a 3x3 grid, centre cell, each policy. */
static void test_helpers_small(void) {
  astar_grid *g = NULL;
  astar_knowledge *k = NULL;
  CHECK_EQ(astar_grid_new(&g, 3, 3, NULL), ASTAR_OK);
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
  const uint32_t c = astar__index(g, 1, 1);
  CHECK_EQ(astar__knowledge_nb(k, g, ASTAR_UNKNOWN_PASSABLE, c), 0xff);
  CHECK_EQ(astar__knowledge_nb(k, g, ASTAR_UNKNOWN_COST, c), 0xff);
  CHECK_EQ(astar__knowledge_nb(k, g, ASTAR_UNKNOWN_BLOCKED, c), 0x00);
  CHECK_EQ(astar_knowledge_set(k, 1, 0, ASTAR_CELL_PASSABLE), ASTAR_OK); /* N */
  CHECK_EQ(astar_knowledge_set(k, 2, 2, ASTAR_CELL_PASSABLE), ASTAR_OK); /* SE */
  CHECK_EQ(astar_knowledge_set(k, 0, 1, ASTAR_CELL_BLOCKED), ASTAR_OK);  /* W */
  CHECK_EQ(astar__knowledge_nb(k, g, ASTAR_UNKNOWN_BLOCKED, c), (1 << 0) | (1 << 5));
  CHECK_EQ(astar__knowledge_nb(k, g, ASTAR_UNKNOWN_PASSABLE, c), 0xff & ~(1 << 3));
  /* A corner cell: the border blocks five directions whatever the policy. */
  const uint32_t corner = astar__index(g, 0, 0);
  CHECK_EQ(astar__knowledge_nb(k, g, ASTAR_UNKNOWN_PASSABLE, corner),
           (1 << 1) | (1 << 5)); /* E known passable, SE unknown, S set blocked */
  CHECK(astar__knowledge_unknown(k, c));
  CHECK(!astar__knowledge_unknown(k, astar__index(g, 1, 0)));
  CHECK(!astar__knowledge_unknown(k, 0)); /* border */
  astar_knowledge_free(k);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_new_free);
  RUN(test_reveal);
  RUN(test_mismatched_grid);
  RUN(test_reveal_radius_basic);
  RUN(test_reveal_radius_random);
  RUN(test_set_get_clear);
  RUN(test_alloc_failure);
  RUN(test_helpers_small);
  RUN(test_helpers_random);
  return check_summary();
}
