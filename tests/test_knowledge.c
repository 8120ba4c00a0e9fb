/*
** test_knowledge.c -- fog-of-war knowledge: reveal (a snapshot of the grid),
** reveal_radius against a brute-force disc (changed counts, clipping,
** centres outside, extreme radii), set / get, the blocked border, clear,
** counting, grids of the wrong size, out-of-memory behaviour, and the
** search's inline helpers of src/layers.h against a brute-force neighbour
** mask on random maps for every unknown-cell policy; the version
** (astar_knowledge_version and the per-policy counters a search records)
** against a shadow copy of the states; and the sliced search ending
** ASTAR_STALE when the knowledge it reads changes between steps (issue 26:
** walls revealed mid-search were delivered on the path).
*/
#include <astar/astar.h>
#include <stdlib.h>
#include <string.h>

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
  CHECKF(k == 4, "knowledge_new made %ld allocations, expected 3", k - 1);
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

/* ---- the version ---------------------------------------------------------------- */

/* Hand-made: what bumps the version, by how much, and what does not. */
static void test_version_basic(void) {
  astar_grid *g = NULL;
  astar_knowledge *k = NULL;
  CHECK_EQ(astar_grid_new(&g, 8, 6, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 3, 3, false), ASTAR_OK);
  CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
  CHECK_EQ(astar_knowledge_version(k), 0);
  CHECK_EQ(astar_knowledge_version(NULL), 0);
  astar_knowledge_clear(k); /* knows nothing: forgets nothing */
  CHECK_EQ(astar_knowledge_version(k), 0);
  CHECK_EQ(astar_knowledge_reveal(k, g, 1, 1), ASTAR_OK);
  CHECK_EQ(astar_knowledge_version(k), 1);
  CHECK_EQ(astar_knowledge_reveal(k, g, 1, 1), ASTAR_OK); /* seen again, the same */
  CHECK_EQ(astar_knowledge_version(k), 1);
  CHECK_EQ(astar_knowledge_reveal(k, g, 3, 3), ASTAR_OK); /* a wall */
  CHECK_EQ(astar_knowledge_version(k), 2);
  CHECK_EQ(astar_knowledge_set(k, 3, 3, ASTAR_CELL_BLOCKED), ASTAR_OK); /* already so */
  CHECK_EQ(astar_knowledge_version(k), 2);
  CHECK_EQ(astar_knowledge_set(k, 3, 3, ASTAR_CELL_UNKNOWN), ASTAR_OK); /* forgotten */
  CHECK_EQ(astar_knowledge_version(k), 3);
  /* The truth changed since the cell was seen: seeing it again is a change. */
  CHECK_EQ(astar_grid_set_passable(g, 1, 1, false), ASTAR_OK);
  CHECK_EQ(astar_knowledge_reveal(k, g, 1, 1), ASTAR_OK);
  CHECK_EQ(astar_knowledge_version(k), 4);
  /* reveal_radius: one per cell that changed, none for a repeat. */
  size_t changed = 0;
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 2, 2, 2, &changed), ASTAR_OK);
  CHECK(changed > 1);
  CHECK_EQ(astar_knowledge_version(k), 4 + changed);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 2, 2, 2, &changed), ASTAR_OK);
  CHECK_EQ(changed, 0);
  const uint64_t v = astar_knowledge_version(k);
  /* Failed calls change nothing. */
  CHECK_EQ(astar_knowledge_reveal(k, g, 8, 0), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_knowledge_set(k, -1, 0, ASTAR_CELL_BLOCKED), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(astar_knowledge_set(k, 0, 0, (astar_cell_knowledge)3), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_reveal_radius(k, g, 2, 2, -1, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_knowledge_version(k), v);
  /* Forgetting everything: one change; then nothing left to forget. */
  astar_knowledge_clear(k);
  CHECK_EQ(astar_knowledge_version(k), v + 1);
  astar_knowledge_clear(k);
  CHECK_EQ(astar_knowledge_version(k), v + 1);
  astar_knowledge_free(k);
  astar_grid_free(g);
}

/* What a search with each policy reads of a cell: the view that
** astar__knowledge_seen's counter must follow. */
static int view_of(uint8_t state, int policy) {
  if (policy == 0) return state == ASTAR_CELL_BLOCKED;  /* UNKNOWN_PASSABLE */
  if (policy == 1) return state == ASTAR_CELL_PASSABLE; /* UNKNOWN_BLOCKED */
  return state;                                         /* UNKNOWN_COST */
}

/* Random sequences of every mutation on random maps (whose truth also
** changes), against a shadow copy of the states: the version grows by the
** number of cells that changed (by one for a clear that forgets anything),
** and each policy's counter moves exactly when some cell's view under that
** policy changed. */
static void test_version_random(void) {
  const astar_unknown policies[] = {ASTAR_UNKNOWN_PASSABLE, ASTAR_UNKNOWN_BLOCKED,
                                    ASTAR_UNKNOWN_COST};
  rng r;
  rng_seed(&r, 0x5eed);
  long ops = 0, noops = 0, bad = 0;
  int moved[3] = {0, 0, 0}, still[3] = {0, 0, 0};
  for (int round = 0; round < 80; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 24, 0);
    astar_grid *g = NULL;
    astar_knowledge *k = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
    const int32_t w = spec.width, h = spec.height;
    uint8_t *before = malloc(k->ncells);
    CHECK(before != NULL);
    for (int op = 0; op < 60 && before; op++) {
      memcpy(before, k->state, k->ncells);
      const uint64_t v0 = astar_knowledge_version(k);
      uint64_t seen0[3];
      for (int p = 0; p < 3; p++) seen0[p] = astar__knowledge_seen(k, policies[p], 2.0);
      const int kind = rng_range(&r, 0, 19);
      const int32_t x = rng_range(&r, -1, w), y = rng_range(&r, -1, h);
      bool whole = false;
      if (kind < 6) {
        astar_knowledge_reveal(k, g, x, y);
      } else if (kind < 11) {
        astar_knowledge_reveal_radius(k, g, x, y, rng_range(&r, 0, 5), NULL);
      } else if (kind < 17) {
        astar_knowledge_set(k, x, y, (astar_cell_knowledge)rng_range(&r, 0, 2));
      } else if (kind < 18) {
        astar_knowledge_clear(k);
        whole = true;
      } else {
        /* The truth changes; the knowledge must not notice by itself. */
        if (astar_grid_contains(g, x, y))
          astar_grid_set_passable(g, x, y, !astar_grid_passable(g, x, y));
      }
      uint64_t cells = 0;
      bool view_changed[3] = {false, false, false};
      for (uint32_t i = 0; i < k->ncells; i++) {
        cells += before[i] != k->state[i];
        for (int p = 0; p < 3; p++)
          view_changed[p] |= view_of(before[i], p) != view_of(k->state[i], p);
      }
      const uint64_t want = whole ? (cells > 0) : cells;
      ops++;
      noops += cells == 0;
      const uint64_t expected = v0 + want;
      if (astar_knowledge_version(k) != expected) {
        if (bad++ < 5)
          fprintf(stderr, "  round %d op %d kind %d: version %llu, expected %llu\n", round, op,
                  kind, (unsigned long long)astar_knowledge_version(k),
                  (unsigned long long)expected);
      }
      for (int p = 0; p < 3; p++) {
        const bool m = astar__knowledge_seen(k, policies[p], 2.0) != seen0[p];
        if (m != view_changed[p] && bad++ < 5)
          fprintf(stderr, "  round %d op %d kind %d policy %d: counter %s, view %s\n", round, op,
                  kind, p, m ? "moved" : "still", view_changed[p] ? "changed" : "the same");
        (m ? moved : still)[p]++;
        CHECK(astar__knowledge_seen(k, policies[p], 2.0) >= seen0[p]); /* monotonic */
      }
    }
    free(before);
    astar_knowledge_free(k);
    astar_grid_free(g);
  }
  CHECKF(bad == 0, "%ld wrong counters in %ld operations", bad, ops);
  CHECK(noops > 100); /* the no-op cases were exercised */
  for (int p = 0; p < 3; p++) CHECK(moved[p] > 100 && still[p] > 100);
}

/* ---- sliced searches see the knowledge change -------------------------------------- */

static astar_point path_a[4096], path_b[4096];

/* The sliced result equals the one-shot one (status, path, cost, statistics). */
static bool same_search(astar_status sa, const astar_result *a, const astar_point *pa,
                        astar_status sb, const astar_result *b, const astar_point *pb) {
  if (sa != sb || a->length != b->length || a->cost != b->cost || a->cause != b->cause)
    return false;
  if (a->stats.expanded != b->stats.expanded || a->stats.generated != b->stats.generated)
    return false;
  for (size_t i = 0; i < a->length && (sa == ASTAR_OK || sa == ASTAR_PARTIAL); i++)
    if (pa[i].x != pb[i].x || pa[i].y != pb[i].y) return false;
  return true;
}

/* A 30 x 20 map walled at x = 15 but for the two bottom rows; the player
** knows nothing yet. A search from (2, 2) to (28, 2) is begun and stepped a
** little (5 expansions: it has reached no further than (5, 5)); then one
** change is made and the next step must say ASTAR_STALE exactly when the
** change is one the search sees (its policy's counter) and has read (a cell
** within one of a cell it reached, or its goal) -- and otherwise finish with
** the one-shot answer on the knowledge as it now is. A change far from what
** the search reached leaves it running (issue 26: a wall revealed anywhere
** restarted every fog search); one next to it ends it. */
static void test_sliced_stale(void) {
  typedef struct change {
    const char *what;
    int op; /* 0 reveal (x, y), 1 set (x, y) to state, 2 clear, 3 nothing */
    int32_t x, y;
    astar_cell_knowledge state;
    bool stale[4]; /* expected, per policy: PASSABLE, BLOCKED, COST 2, COST 1 */
  } change;
  const change changes[] = {
      {"a wall revealed far away", 0, 15, 10, 0, {false, false, false, false}},
      {"a wall set next to the start", 1, 3, 3, ASTAR_CELL_BLOCKED, {true, false, true, true}},
      {"a wall set on the goal", 1, 28, 2, ASTAR_CELL_BLOCKED, {true, true, true, true}},
      {"open ground revealed far away", 0, 5, 10, 0, {false, false, false, false}},
      {"a cell next to the start forgotten",
       1,
       1,
       2,
       ASTAR_CELL_UNKNOWN,
       {false, true, true, false}},
      {"a known cell seen again", 0, 2, 3, 0, {false, false, false, false}},
      {"a cell set blocked far away", 1, 9, 2, ASTAR_CELL_BLOCKED, {false, false, false, false}},
      {"a known cell forgotten", 1, 2, 3, ASTAR_CELL_UNKNOWN, {false, true, true, false}},
      {"a known cell set as it is", 1, 2, 3, ASTAR_CELL_PASSABLE, {false, false, false, false}},
      {"everything forgotten", 2, 0, 0, 0, {false, true, true, false}},
      {"nothing", 3, 0, 0, 0, {false, false, false, false}},
  };
  const astar_unknown pol[4] = {ASTAR_UNKNOWN_PASSABLE, ASTAR_UNKNOWN_BLOCKED, ASTAR_UNKNOWN_COST,
                                ASTAR_UNKNOWN_COST};
  const double ucost[4] = {2.0, 2.0, 2.0, 1.0};
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 30, 20, NULL), ASTAR_OK);
  for (int32_t y = 0; y < 18; y++) astar_grid_set_passable(g, 15, y, false);
  astar_workspace *ws = NULL, *ws1 = NULL;
  CHECK_EQ(astar_workspace_new(&ws, g, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&ws1, g, NULL), ASTAR_OK);
  const astar_point s = {2, 2}, t = {28, 2};
  int stale_seen = 0, finished = 0;
  for (size_t c = 0; c < sizeof changes / sizeof changes[0]; c++)
    for (int p = 0; p < 4; p++) {
      astar_knowledge *k = NULL;
      CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
      /* The player knows the start's surroundings; under ASTAR_UNKNOWN_BLOCKED it
       * must also know a way, or there is nothing to search: down column 2,
       * along the bottom row, up column 28. */
      astar_knowledge_reveal_radius(k, g, s.x, s.y, 1, NULL);
      if (pol[p] == ASTAR_UNKNOWN_BLOCKED)
        for (int32_t i = 0; i < 30; i++) {
          astar_knowledge_reveal(k, g, i, 19);
          if (i < 20) astar_knowledge_reveal(k, g, 2, i);
          if (i < 20) astar_knowledge_reveal(k, g, 28, i);
        }
      astar_options o;
      astar_options_init(&o);
      o.knowledge = k;
      o.unknown = pol[p];
      o.unknown_cost = ucost[p];
      o.heuristic = ASTAR_H_ZERO; /* a long search: many steps */
      CHECK_EQ(astar_search_begin(ws, g, &o, s, t), ASTAR_OK);
      uint64_t n = 0;
      CHECK_EQ(astar_search_step(ws, 5, &n), ASTAR_IN_PROGRESS);
      CHECK_EQ(n, 5);
      const change *ch = &changes[c];
      if (ch->op == 0) CHECK_EQ(astar_knowledge_reveal(k, g, ch->x, ch->y), ASTAR_OK);
      if (ch->op == 1) CHECK_EQ(astar_knowledge_set(k, ch->x, ch->y, ch->state), ASTAR_OK);
      if (ch->op == 2) astar_knowledge_clear(k);
      const astar_status st = astar_search_step(ws, 0, &n);
      astar_result res, one;
      const astar_status fst = astar_search_finish(ws, path_a, 4096, &res);
      if (ch->stale[p]) {
        CHECKF(st == ASTAR_STALE, "%s, policy %d: step %s", ch->what, p, astar_strerror(st));
        CHECK_EQ(n, 0); /* nothing expanded on what is no longer true */
        CHECK(fst == ASTAR_STALE && res.length == 0 && res.cause == ASTAR_STALE);
        stale_seen++;
      } else {
        CHECKF(st == ASTAR_OK, "%s, policy %d: step %s", ch->what, p, astar_strerror(st));
        /* The change was invisible to the search: its answer is the one-shot
         * answer on the knowledge as it is now. */
        const astar_status ost = astar_find_path(ws1, g, &o, s, t, path_b, 4096, &one);
        CHECKF(same_search(fst, &res, path_a, ost, &one, path_b), "%s, policy %d", ch->what, p);
        finished++;
      }
      astar_knowledge_free(k);
    }
  CHECK(stale_seen > 5 && finished > 5);
  astar_workspace_free(ws1);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* One round of test_sliced_random: 0 when no search was left running before
** the change, 1 when it went stale, 2 when it finished as the one-shot. */
static int sliced_round(astar_workspace *ws, astar_workspace *ws1, const astar_grid *g,
                        astar_knowledge *k, const astar_options *o, rng *r, int round) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const astar_point s = randmap_passable_cell(g, r), t = randmap_passable_cell(g, r);
  if (s.x < 0 || astar_search_begin(ws, g, o, s, t) != ASTAR_OK) return 0;
  uint64_t n;
  astar_status st = astar_search_step(ws, (uint64_t)rng_range(r, 1, 40), &n);
  if (st != ASTAR_IN_PROGRESS) {
    astar_search_cancel(ws);
    return 0;
  }
  const int kind = rng_range(r, 0, 9);
  const int32_t x = rng_range(r, 0, w - 1), y = rng_range(r, 0, h - 1);
  if (kind < 4)
    astar_knowledge_reveal_radius(k, g, x, y, rng_range(r, 0, 6), NULL);
  else if (kind < 7)
    astar_knowledge_reveal(k, g, x, y);
  else if (kind < 9)
    astar_knowledge_set(k, x, y, (astar_cell_knowledge)rng_range(r, 0, 2));
  else
    astar_knowledge_clear(k);
  while ((st = astar_search_step(ws, (uint64_t)rng_range(r, 1, 40), &n)) == ASTAR_IN_PROGRESS) {
  }
  astar_result res, one;
  const astar_status fst = astar_search_finish(ws, path_a, 4096, &res);
  if (st == ASTAR_STALE) {
    CHECK(fst == ASTAR_STALE && res.length == 0);
    return 1;
  }
  const astar_status ost = astar_find_path(ws1, g, o, s, t, path_b, 4096, &one);
  if (!same_search(fst, &res, path_a, ost, &one, path_b))
    FAILF("round %d: sliced %s (%zu cells, cost %g), one-shot %s (%zu cells, cost %g)", round,
          astar_strerror(fst), res.length, res.cost, astar_strerror(ost), one.length, one.cost);
  return 2;
}

/* Random searches on random maps and knowledge, random budgets, a random
** change of the knowledge between two steps: a step after it says
** ASTAR_STALE, or the search finishes with exactly the one-shot answer on
** the knowledge as it then is -- never a path planned on what changed. */
static void test_sliced_random(void) {
  const astar_unknown policies[] = {ASTAR_UNKNOWN_PASSABLE, ASTAR_UNKNOWN_BLOCKED,
                                    ASTAR_UNKNOWN_COST};
  rng r;
  rng_seed(&r, 0xf06);
  int count[3] = {0, 0, 0};
  for (int round = 0; round < 400; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 1);
    astar_grid *g = NULL;
    astar_knowledge *k = NULL;
    astar_workspace *ws = NULL, *ws1 = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    CHECK_EQ(astar_knowledge_new(&k, g, NULL), ASTAR_OK);
    CHECK_EQ(astar_workspace_new(&ws, g, NULL), ASTAR_OK);
    CHECK_EQ(astar_workspace_new(&ws1, g, NULL), ASTAR_OK);
    for (int i = 0; i < 3; i++)
      astar_knowledge_reveal_radius(k, g, rng_range(&r, 0, spec.width - 1),
                                    rng_range(&r, 0, spec.height - 1), rng_range(&r, 0, 10), NULL);
    astar_options o;
    astar_options_init(&o);
    o.knowledge = k;
    o.unknown = policies[round % 3];
    o.unknown_cost = round % 6 == 2 ? 1.0 : 3.0;
    o.moves = rng_range(&r, 0, 1) ? 8 : 4;
    o.partial = rng_range(&r, 0, 3) == 0;
    count[sliced_round(ws, ws1, g, k, &o, &r, round)]++;
    astar_workspace_free(ws1);
    astar_workspace_free(ws);
    astar_knowledge_free(k);
    astar_grid_free(g);
  }
  CHECKF(count[1] > 20 && count[2] > 20, "%d stale, %d finished", count[1], count[2]);
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
  RUN(test_version_basic);
  RUN(test_version_random);
  RUN(test_sliced_stale);
  RUN(test_sliced_random);
  return check_summary();
}
