/*
** test_grid.c -- the grid API: construction limits, passability, terrain and
** its minimum tracking, clone independence, fill, counting, memory.
*/
#include <astar/astar.h>
#include <math.h>

#include "check.h"

static void test_new_free(void) {
  astar_grid *g = (astar_grid *)1;
  CHECK_EQ(astar_grid_new(&g, 5, 3, NULL), ASTAR_OK);
  CHECK(g != NULL);
  CHECK_EQ(astar_grid_width(g), 5);
  CHECK_EQ(astar_grid_height(g), 3);
  CHECK(!astar_grid_has_terrain(g));
  CHECK(astar_grid_min_terrain(g) == 1.0f);
  CHECK_EQ(astar_grid_count_passable(g), 15);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) {
      CHECK(astar_grid_passable(g, x, y));
      CHECK(astar_grid_terrain(g, x, y) == 1.0f);
    }
  astar_grid_free(g);
  astar_grid_free(NULL);
  CHECK_EQ(astar_grid_new(NULL, 5, 3, NULL), ASTAR_INVALID_ARGUMENT);
}

static void expect_too_large(int32_t w, int32_t h) {
  astar_grid *g = (astar_grid *)1;
  astar_status st = astar_grid_new(&g, w, h, NULL);
  CHECKF(st == ASTAR_TOO_LARGE, "%dx%d gave status %d", (int)w, (int)h, (int)st);
  CHECKF(g == NULL, "%dx%d left *out non-NULL", (int)w, (int)h);
  if (st == ASTAR_OK) astar_grid_free(g);
}

static void expect_invalid(int32_t w, int32_t h) {
  astar_grid *g = (astar_grid *)1;
  astar_status st = astar_grid_new(&g, w, h, NULL);
  CHECKF(st == ASTAR_INVALID_ARGUMENT, "%dx%d gave status %d", (int)w, (int)h, (int)st);
  CHECKF(g == NULL, "%dx%d left *out non-NULL", (int)w, (int)h);
  if (st == ASTAR_OK) astar_grid_free(g);
}

static void test_limits(void) {
  /* No cells is not "too large": a side below 1 is an invalid argument. */
  expect_invalid(0, 5);
  expect_invalid(5, 0);
  expect_invalid(0, 0);
  expect_invalid(-1, 5);
  expect_invalid(5, -1);
  expect_invalid(INT32_MIN, INT32_MIN);
  expect_too_large(0x7fffffff, 1);
  expect_too_large(ASTAR_GRID_MAX_SIDE + 1, 1);
  expect_too_large(1, ASTAR_GRID_MAX_SIDE + 1);
  expect_too_large(INT32_MAX, 1);
  /* Each side within its limit, but too many cells together. */
  expect_too_large(ASTAR_GRID_MAX_SIDE, ASTAR_GRID_MAX_SIDE);
  expect_too_large(16385, 16384);
  expect_too_large(ASTAR_GRID_MAX_SIDE, (int32_t)(ASTAR_GRID_MAX_CELLS / ASTAR_GRID_MAX_SIDE) + 1);

  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 1, 1, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_count_passable(g), 1);
  CHECK(astar_grid_contains(g, 0, 0));
  CHECK(!astar_grid_contains(g, 1, 0));
  astar_grid_free(g);
  /* The longest sides allowed. */
  CHECK_EQ(astar_grid_new(&g, ASTAR_GRID_MAX_SIDE, 1, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_count_passable(g), ASTAR_GRID_MAX_SIDE);
  astar_grid_free(g);
  CHECK_EQ(astar_grid_new(&g, 1, ASTAR_GRID_MAX_SIDE, NULL), ASTAR_OK);
  CHECK(astar_grid_passable(g, 0, ASTAR_GRID_MAX_SIDE - 1));
  CHECK(!astar_grid_passable(g, 0, ASTAR_GRID_MAX_SIDE));
  astar_grid_free(g);
}

static void test_passable(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 4, 3, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 2, 1, false), ASTAR_OK);
  CHECK(!astar_grid_passable(g, 2, 1));
  CHECK(astar_grid_passable(g, 1, 2));
  CHECK(astar_grid_passable(g, 1, 1));
  CHECK(astar_grid_passable(g, 3, 1));
  CHECK_EQ(astar_grid_count_passable(g), 11);
  CHECK_EQ(astar_grid_set_passable(g, 2, 1, false), ASTAR_OK); /* idempotent */
  CHECK_EQ(astar_grid_count_passable(g), 11);
  CHECK_EQ(astar_grid_set_passable(g, 2, 1, true), ASTAR_OK);
  CHECK(astar_grid_passable(g, 2, 1));
  CHECK_EQ(astar_grid_count_passable(g), 12);
  /* Corners (edge-of-array indexing mistakes show here). */
  CHECK_EQ(astar_grid_set_passable(g, 0, 0, false), ASTAR_OK);
  CHECK_EQ(astar_grid_set_passable(g, 3, 2, false), ASTAR_OK);
  CHECK(!astar_grid_passable(g, 0, 0));
  CHECK(!astar_grid_passable(g, 3, 2));
  CHECK(astar_grid_passable(g, 3, 0));
  CHECK(astar_grid_passable(g, 0, 2));
  CHECK_EQ(astar_grid_count_passable(g), 10);

  /* Outside: reads are blocked, writes refused and harmless. */
  int32_t bad[][2] = {{-1, 0}, {0, -1},        {4, 0},         {0, 3},
                      {4, 3},  {INT32_MIN, 0}, {0, INT32_MAX}, {INT32_MAX, INT32_MAX}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(!astar_grid_contains(g, bad[i][0], bad[i][1]));
    CHECK(!astar_grid_passable(g, bad[i][0], bad[i][1]));
    CHECK_EQ(astar_grid_set_passable(g, bad[i][0], bad[i][1], false), ASTAR_OUT_OF_BOUNDS);
    CHECK_EQ(astar_grid_set_passable(g, bad[i][0], bad[i][1], true), ASTAR_OUT_OF_BOUNDS);
    CHECK(astar_grid_terrain(g, bad[i][0], bad[i][1]) == 0.0f);
    CHECK_EQ(astar_grid_set_terrain(g, bad[i][0], bad[i][1], 2.0f), ASTAR_OUT_OF_BOUNDS);
  }
  CHECK_EQ(astar_grid_count_passable(g), 10);
  CHECK(!astar_grid_has_terrain(g));
  CHECK_EQ(astar_grid_set_passable(NULL, 0, 0, true), ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g);
}

static void test_fill_count(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 7, 9, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_fill(g, false), ASTAR_OK);
  CHECK_EQ(astar_grid_count_passable(g), 0);
  for (int y = 0; y < 9; y++)
    for (int x = 0; x < 7; x++) CHECK(!astar_grid_passable(g, x, y));
  CHECK_EQ(astar_grid_set_passable(g, 6, 8, true), ASTAR_OK);
  CHECK_EQ(astar_grid_count_passable(g), 1);
  CHECK_EQ(astar_grid_fill(g, true), ASTAR_OK);
  CHECK_EQ(astar_grid_count_passable(g), 63);
  CHECK_EQ(astar_grid_fill(NULL, true), ASTAR_INVALID_ARGUMENT);
  /* Counting must not be fooled by sizes that are not a multiple of a word. */
  astar_grid_free(g);
  for (int32_t w = 1; w <= 70; w += 3) {
    CHECK_EQ(astar_grid_new(&g, w, 3, NULL), ASTAR_OK);
    size_t expect = (size_t)w * 3;
    for (int32_t x = 0; x < w; x += 2) {
      astar_grid_set_passable(g, x, 1, false);
      expect--;
    }
    CHECK_EQ(astar_grid_count_passable(g), expect);
    astar_grid_free(g);
  }
}

static void test_terrain(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 3, 3, NULL), ASTAR_OK);
  size_t bare = astar_grid_memory(g);
  CHECK(bare > 0);
  /* Setting 1 without a layer does not create one. */
  CHECK_EQ(astar_grid_set_terrain(g, 1, 1, 1.0f), ASTAR_OK);
  CHECK(!astar_grid_has_terrain(g));
  CHECK_EQ(astar_grid_memory(g), bare);

  CHECK_EQ(astar_grid_set_terrain(g, 1, 1, 3.5f), ASTAR_OK);
  CHECK(astar_grid_has_terrain(g));
  CHECK(astar_grid_terrain(g, 1, 1) == 3.5f);
  CHECK(astar_grid_terrain(g, 0, 0) == 1.0f);
  CHECK(astar_grid_min_terrain(g) == 1.0f);
  CHECK(astar_grid_memory(g) >= bare + (size_t)9 * 4);
  /* Terrain and passability are independent. */
  CHECK(astar_grid_passable(g, 1, 1));
  CHECK_EQ(astar_grid_set_passable(g, 1, 1, false), ASTAR_OK);
  CHECK(astar_grid_terrain(g, 1, 1) == 3.5f);
  CHECK_EQ(astar_grid_set_passable(g, 1, 1, true), ASTAR_OK);

  /* Minimum tracking: lower, lower again, raise the holder (rescan). */
  CHECK_EQ(astar_grid_set_terrain(g, 0, 1, 0.5f), ASTAR_OK);
  CHECK(astar_grid_min_terrain(g) == 0.5f);
  CHECK_EQ(astar_grid_set_terrain(g, 2, 2, 0.25f), ASTAR_OK);
  CHECK(astar_grid_min_terrain(g) == 0.25f);
  CHECK_EQ(astar_grid_set_terrain(g, 2, 0, 0.25f), ASTAR_OK); /* two cells hold the minimum */
  CHECK_EQ(astar_grid_set_terrain(g, 2, 2, 4.0f), ASTAR_OK);
  CHECKF(astar_grid_min_terrain(g) == 0.25f, "min %g after raising one of two minima",
         (double)astar_grid_min_terrain(g));
  CHECK_EQ(astar_grid_set_terrain(g, 2, 0, 7.0f), ASTAR_OK);
  CHECKF(astar_grid_min_terrain(g) == 0.5f, "min %g after raising the last 0.25",
         (double)astar_grid_min_terrain(g));
  CHECK_EQ(astar_grid_set_terrain(g, 0, 1, 2.0f), ASTAR_OK);
  CHECKF(astar_grid_min_terrain(g) == 1.0f, "min %g after raising the 0.5",
         (double)astar_grid_min_terrain(g));
  /* Every cell above 1: the minimum leaves 1 behind. */
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++) CHECK_EQ(astar_grid_set_terrain(g, x, y, 2.0f + x + y), ASTAR_OK);
  CHECKF(astar_grid_min_terrain(g) == 2.0f, "min %g with all costs >= 2",
         (double)astar_grid_min_terrain(g));
  CHECK_EQ(astar_grid_set_terrain(g, 0, 0, 9.0f), ASTAR_OK);
  CHECKF(astar_grid_min_terrain(g) == 3.0f, "min %g", (double)astar_grid_min_terrain(g));
  CHECK(astar_grid_terrain(g, 2, 2) == 6.0f);
  /* Blocked cells still count for the minimum (the heuristic only needs a
  ** lower bound, so this is about the documented value, not safety). */
  CHECK_EQ(astar_grid_set_terrain(g, 1, 0, ASTAR_TERRAIN_MAX), ASTAR_OK);
  CHECK(astar_grid_terrain(g, 1, 0) == ASTAR_TERRAIN_MAX);

  /* Invalid costs are refused and change nothing. */
  float badv[] = {0.0f, -0.0f, -1.0f, NAN, INFINITY, -INFINITY, ASTAR_TERRAIN_MAX * 2.0f};
  for (size_t i = 0; i < sizeof badv / sizeof badv[0]; i++) {
    CHECKF(astar_grid_set_terrain(g, 2, 2, badv[i]) == ASTAR_INVALID_ARGUMENT, "cost %g",
           (double)badv[i]);
    CHECK(astar_grid_terrain(g, 2, 2) == 6.0f);
  }
  CHECK_EQ(astar_grid_set_terrain(NULL, 0, 0, 2.0f), ASTAR_INVALID_ARGUMENT);
  CHECK(astar_grid_min_terrain(g) == 3.0f);

  /* Tiny positive costs are fine. */
  CHECK_EQ(astar_grid_set_terrain(g, 2, 2, 1e-6f), ASTAR_OK);
  CHECK(astar_grid_min_terrain(g) == 1e-6f);

  astar_grid_clear_terrain(g);
  CHECK(!astar_grid_has_terrain(g));
  CHECK(astar_grid_min_terrain(g) == 1.0f);
  CHECK(astar_grid_terrain(g, 2, 2) == 1.0f);
  CHECK_EQ(astar_grid_memory(g), bare);
  /* A layer can be created again after clearing. */
  CHECK_EQ(astar_grid_set_terrain(g, 0, 0, 0.75f), ASTAR_OK);
  CHECK(astar_grid_min_terrain(g) == 0.75f);
  CHECK(astar_grid_terrain(g, 1, 1) == 1.0f);
  astar_grid_free(g);

  /* Invalid cost on a grid without a layer: no layer appears. */
  CHECK_EQ(astar_grid_new(&g, 2, 2, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_set_terrain(g, 0, 0, NAN), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_grid_set_terrain(g, 0, 0, 0.0f), ASTAR_INVALID_ARGUMENT);
  CHECK(!astar_grid_has_terrain(g));
  astar_grid_free(g);
}

/* The rescan path on a larger layer: a minimum that moves around. */
static void test_terrain_min_rescan(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 50, 40, NULL), ASTAR_OK);
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 50; x++) astar_grid_set_terrain(g, x, y, 5.0f + (float)((x * 7 + y) % 11));
  CHECK(astar_grid_min_terrain(g) == 5.0f);
  /* Raise every cell holding 5 but the last one found: min stays 5. */
  int holders = 0;
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 50; x++)
      if (astar_grid_terrain(g, x, y) == 5.0f) holders++;
  int raised = 0;
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 50; x++)
      if (astar_grid_terrain(g, x, y) == 5.0f && ++raised < holders) {
        astar_grid_set_terrain(g, x, y, 100.0f);
        CHECK(astar_grid_min_terrain(g) == 5.0f);
      }
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 50; x++)
      if (astar_grid_terrain(g, x, y) == 5.0f) astar_grid_set_terrain(g, x, y, 100.0f);
  CHECKF(astar_grid_min_terrain(g) == 6.0f, "min %g", (double)astar_grid_min_terrain(g));
  astar_grid_free(g);
}

static void test_clone(void) {
  astar_grid *g = NULL, *c = NULL;
  CHECK_EQ(astar_grid_new(&g, 6, 4, NULL), ASTAR_OK);
  astar_grid_set_passable(g, 1, 1, false);
  astar_grid_set_passable(g, 5, 3, false);
  astar_grid_set_terrain(g, 2, 2, 0.5f);
  astar_grid_set_terrain(g, 3, 0, 8.0f);
  CHECK_EQ(astar_grid_clone(&c, g, NULL), ASTAR_OK);
  CHECK(c != NULL && c != g);
  CHECK_EQ(astar_grid_width(c), 6);
  CHECK_EQ(astar_grid_height(c), 4);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 6; x++) {
      CHECK(astar_grid_passable(c, x, y) == astar_grid_passable(g, x, y));
      CHECK(astar_grid_terrain(c, x, y) == astar_grid_terrain(g, x, y));
    }
  CHECK(astar_grid_has_terrain(c));
  CHECK(astar_grid_min_terrain(c) == 0.5f);
  CHECK_EQ(astar_grid_count_passable(c), 22);
  CHECK_EQ(astar_grid_memory(c), astar_grid_memory(g));

  /* Changing one does not change the other, in either direction. */
  astar_grid_set_passable(c, 0, 0, false);
  astar_grid_set_terrain(c, 2, 2, 3.0f);
  CHECK(astar_grid_passable(g, 0, 0));
  CHECK(astar_grid_terrain(g, 2, 2) == 0.5f);
  CHECK(astar_grid_min_terrain(g) == 0.5f);
  astar_grid_set_passable(g, 1, 1, true);
  astar_grid_clear_terrain(g);
  CHECK(!astar_grid_passable(c, 1, 1));
  CHECK(astar_grid_has_terrain(c));
  CHECK(astar_grid_terrain(c, 3, 0) == 8.0f);
  astar_grid_free(g);
  /* The clone outlives its source. */
  CHECK_EQ(astar_grid_count_passable(c), 21);
  astar_grid_free(c);

  /* Clone of a grid without terrain has none. */
  CHECK_EQ(astar_grid_new(&g, 3, 3, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_clone(&c, g, NULL), ASTAR_OK);
  CHECK(!astar_grid_has_terrain(c));
  astar_grid_free(c);
  c = (astar_grid *)1;
  CHECK_EQ(astar_grid_clone(&c, NULL, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(c == NULL);
  CHECK_EQ(astar_grid_clone(NULL, g, NULL), ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g);
}

static void test_memory(void) {
  astar_grid *small = NULL, *big = NULL;
  CHECK_EQ(astar_grid_new(&small, 10, 10, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&big, 1000, 1000, NULL), ASTAR_OK);
  CHECK(astar_grid_memory(small) > 0);
  CHECK(astar_grid_memory(big) > astar_grid_memory(small));
  /* "about 2 bytes per cell" */
  CHECKF(astar_grid_memory(big) <= (size_t)4 * 1000 * 1000, "%zu bytes", astar_grid_memory(big));
  size_t before = astar_grid_memory(big);
  astar_grid_set_terrain(big, 0, 0, 2.0f);
  CHECK(astar_grid_memory(big) >= before + (size_t)4 * 1000 * 1000);
  astar_grid_free(small);
  astar_grid_free(big);
}

int main(void) {
  RUN(test_new_free);
  RUN(test_limits);
  RUN(test_passable);
  RUN(test_fill_count);
  RUN(test_terrain);
  RUN(test_terrain_min_rescan);
  RUN(test_clone);
  RUN(test_memory);
  return check_summary();
}
