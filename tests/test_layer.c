/*
** test_layer.c -- influence layers: construction limits, set / get / fill,
** value validation, cones compared bit for bit with an independent
** whole-layer computation (clipping, centres outside, saturation), the
** untouched border, and out-of-memory behaviour.
*/
#include <astar/astar.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "gameloop/layers.h"

/* Every border value of the padded array is still 0. */
static bool border_zero(const astar_layer *l) {
  for (uint32_t i = 0; i < l->ncells; i++) {
    const int32_t px = (int32_t)(i % (uint32_t)l->stride), py = (int32_t)(i / (uint32_t)l->stride);
    const bool border = px == 0 || py == 0 || px == l->stride - 1 || py == l->height + 1;
    if (border && l->v[i] != 0.0f) return false;
  }
  return true;
}

static void test_new_free(void) {
  astar_layer *l = (astar_layer *)1;
  CHECK_EQ(astar_layer_new(&l, 7, 4, NULL), ASTAR_OK);
  CHECK(l != NULL);
  CHECK_EQ(astar_layer_width(l), 7);
  CHECK_EQ(astar_layer_height(l), 4);
  CHECK_EQ(l->stride, 9);
  CHECK_EQ(l->ncells, 9 * 6);
  for (int y = -1; y <= 4; y++)
    for (int x = -1; x <= 7; x++) CHECK(astar_layer_get(l, x, y) == 0.0f);
  CHECK(border_zero(l));
  astar_layer_free(l);
  astar_layer_free(NULL);
  CHECK_EQ(astar_layer_new(NULL, 7, 4, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_layer_width(NULL), 0);
  CHECK_EQ(astar_layer_height(NULL), 0);
  CHECK(astar_layer_get(NULL, 0, 0) == 0.0f);
  CHECK_EQ(astar_layer_set(NULL, 0, 0, 1.0f), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_layer_fill(NULL, 1.0f), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_layer_add_cone(NULL, 0, 0, 1.0f, 1.0f), ASTAR_INVALID_ARGUMENT);
}

static void expect_too_large(int32_t w, int32_t h) {
  astar_layer *l = (astar_layer *)1;
  astar_status st = astar_layer_new(&l, w, h, NULL);
  CHECKF(st == ASTAR_TOO_LARGE, "%dx%d gave status %d", (int)w, (int)h, (int)st);
  CHECKF(l == NULL, "%dx%d left *out non-NULL", (int)w, (int)h);
  if (st == ASTAR_OK) astar_layer_free(l);
}

static void test_limits(void) {
  expect_too_large(0, 5);
  expect_too_large(5, 0);
  expect_too_large(-1, 5);
  expect_too_large(INT32_MIN, INT32_MIN);
  expect_too_large(ASTAR_GRID_MAX_SIDE + 1, 1);
  expect_too_large(1, ASTAR_GRID_MAX_SIDE + 1);
  expect_too_large(INT32_MAX, 1);
  expect_too_large(ASTAR_GRID_MAX_SIDE, ASTAR_GRID_MAX_SIDE);
  expect_too_large(16385, 16384);

  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, 1, 1, NULL), ASTAR_OK);
  CHECK_EQ(astar_layer_set(l, 0, 0, 3.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 0, 0) == 3.0f);
  astar_layer_free(l);
  CHECK_EQ(astar_layer_new(&l, ASTAR_GRID_MAX_SIDE, 1, NULL), ASTAR_OK);
  CHECK_EQ(astar_layer_set(l, ASTAR_GRID_MAX_SIDE - 1, 0, 2.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, ASTAR_GRID_MAX_SIDE - 1, 0) == 2.0f);
  astar_layer_free(l);
}

static void test_set_get(void) {
  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, 5, 3, NULL), ASTAR_OK);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) CHECK_EQ(astar_layer_set(l, x, y, (float)(y * 5 + x) * 0.25f), 0);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) CHECK(astar_layer_get(l, x, y) == (float)(y * 5 + x) * 0.25f);
  /* The padded layout the search relies on. */
  CHECK(l->v[(2 + 1) * l->stride + (4 + 1)] == 14 * 0.25f);
  CHECK(border_zero(l));

  const int32_t bad[][2] = {{-1, 0}, {0, -1}, {5, 0}, {0, 3}, {INT32_MIN, 0}, {0, INT32_MAX}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_EQ(astar_layer_set(l, bad[i][0], bad[i][1], 1.0f), ASTAR_OUT_OF_BOUNDS);
    CHECK(astar_layer_get(l, bad[i][0], bad[i][1]) == 0.0f);
  }
  CHECK(border_zero(l));

  /* Extremes of the valid range. */
  CHECK_EQ(astar_layer_set(l, 1, 1, FLT_MAX), ASTAR_OK);
  CHECK(astar_layer_get(l, 1, 1) == FLT_MAX);
  CHECK_EQ(astar_layer_set(l, 1, 1, FLT_TRUE_MIN), ASTAR_OK);
  CHECK(astar_layer_get(l, 1, 1) == FLT_TRUE_MIN);
  CHECK_EQ(astar_layer_set(l, 1, 1, -0.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 1, 1) == 0.0f && !signbit(astar_layer_get(l, 1, 1)));
  astar_layer_free(l);
}

static void test_invalid_values(void) {
  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, 4, 4, NULL), ASTAR_OK);
  CHECK_EQ(astar_layer_fill(l, 2.0f), ASTAR_OK);
  const float bad[] = {NAN, -NAN, INFINITY, -INFINITY, -1.0f, -FLT_TRUE_MIN, -FLT_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_EQ(astar_layer_set(l, 1, 1, bad[i]), ASTAR_INVALID_ARGUMENT);
    CHECK_EQ(astar_layer_set(l, 9, 9, bad[i]), ASTAR_INVALID_ARGUMENT); /* value checked first */
    CHECK_EQ(astar_layer_fill(l, bad[i]), ASTAR_INVALID_ARGUMENT);
    CHECK_EQ(astar_layer_add_cone(l, 1, 1, 3.0f, bad[i]), ASTAR_INVALID_ARGUMENT);
  }
  const float bad_radius[] = {0.0f, -0.0f, -1.0f, NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof bad_radius / sizeof bad_radius[0]; i++)
    CHECK_EQ(astar_layer_add_cone(l, 1, 1, bad_radius[i], 1.0f), ASTAR_INVALID_ARGUMENT);
  /* Nothing changed. */
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 4; x++) CHECK(astar_layer_get(l, x, y) == 2.0f);
  CHECK(border_zero(l));
  astar_layer_free(l);
}

static void test_fill(void) {
  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, 6, 5, NULL), ASTAR_OK);
  CHECK_EQ(astar_layer_fill(l, 1.5f), ASTAR_OK);
  for (int y = -1; y <= 5; y++)
    for (int x = -1; x <= 6; x++) {
      const bool in = x >= 0 && y >= 0 && x < 6 && y < 5;
      CHECK(astar_layer_get(l, x, y) == (in ? 1.5f : 0.0f));
    }
  CHECK(border_zero(l));
  CHECK_EQ(astar_layer_fill(l, 0.0f), ASTAR_OK);
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 6; x++) CHECK(astar_layer_get(l, x, y) == 0.0f);
  CHECK_EQ(astar_layer_fill(l, -0.0f), ASTAR_OK);
  CHECK(!signbit(astar_layer_get(l, 3, 3)));
  astar_layer_free(l);
}

/* ---- cones ------------------------------------------------------------------ */

/* The documented cone, computed independently over every cell of a
** w x h reference array (no clipping logic to get wrong). */
static void ref_cone(float *ref, int32_t w, int32_t h, int32_t cx, int32_t cy, float radius,
                     float value) {
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const double dx = (double)x - cx, dy = (double)y - cy;
      const double d = sqrt(dx * dx + dy * dy);
      if (d < (double)radius) {
        const float add = (float)((double)value * (1.0 - d / (double)radius));
        ref[y * w + x] = fminf(ref[y * w + x] + add, FLT_MAX);
      }
    }
}

/* Layer equals the reference everywhere (bit for bit), border still 0. */
static bool same(const astar_layer *l, const float *ref) {
  for (int32_t y = 0; y < l->height; y++)
    for (int32_t x = 0; x < l->width; x++)
      if (astar_layer_get(l, x, y) != ref[y * l->width + x]) {
        fprintf(stderr, "  cell (%d,%d): %.9g, expected %.9g\n", (int)x, (int)y,
                (double)astar_layer_get(l, x, y), (double)ref[y * l->width + x]);
        return false;
      }
  return border_zero(l);
}

static void test_cone_values(void) {
  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, 9, 9, NULL), ASTAR_OK);
  CHECK_EQ(astar_layer_add_cone(l, 4, 4, 2.0f, 4.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 4, 4) == 4.0f); /* d = 0 */
  CHECK(astar_layer_get(l, 5, 4) == 2.0f); /* d = 1 */
  CHECK(astar_layer_get(l, 4, 3) == 2.0f);
  CHECK(astar_layer_get(l, 5, 5) == (float)(4.0 * (1.0 - sqrt(2.0) / 2.0))); /* d = sqrt 2 */
  CHECK(astar_layer_get(l, 6, 4) == 0.0f); /* d = radius: excluded */
  CHECK(astar_layer_get(l, 6, 5) == 0.0f);
  /* Cones add up. */
  CHECK_EQ(astar_layer_add_cone(l, 4, 4, 2.0f, 4.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 4, 4) == 8.0f);
  CHECK(astar_layer_get(l, 3, 4) == 4.0f);
  /* A radius of 1 or less touches only the centre. */
  CHECK_EQ(astar_layer_fill(l, 0.0f), ASTAR_OK);
  CHECK_EQ(astar_layer_add_cone(l, 0, 0, 1.0f, 3.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 0, 0) == 3.0f);
  CHECK(astar_layer_get(l, 1, 0) == 0.0f && astar_layer_get(l, 0, 1) == 0.0f);
  CHECK_EQ(astar_layer_add_cone(l, 8, 8, 0.25f, 3.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 8, 8) == 3.0f);
  /* value 0 is a no-op. */
  CHECK_EQ(astar_layer_add_cone(l, 4, 4, 5.0f, 0.0f), ASTAR_OK);
  CHECK(astar_layer_get(l, 4, 4) == 0.0f);
  CHECK(border_zero(l));
  astar_layer_free(l);
}

static void test_cone_clipping(void) {
  const int32_t w = 13, h = 7;
  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, w, h, NULL), ASTAR_OK);
  float *ref = calloc((size_t)w * (size_t)h, sizeof(float));
  /* Centres at corners, on edges, outside (near and far), radii fractional,
   * small and larger than the layer. */
  const struct {
    int32_t x, y;
    float r, v;
  } cones[] = {
      {0, 0, 3.5f, 2.0f},
      {12, 6, 4.0f, 1.0f},
      {6, 3, 100.0f, 0.5f},
      {-2, 3, 4.25f, 8.0f},
      {15, -3, 5.0f, 3.0f},
      {6, 20, 14.5f, 1.25f},
      {-1000000, 2, 1000005.0f, 7.0f},
      {3, INT32_MAX, 2.0f, 1.0f},
      {INT32_MIN, INT32_MIN, FLT_MAX, 1.0f},
      {5, 5, 1e-30f, 2.0f},
      {7, 1, 2.999f, 1e-3f},
      {INT32_MAX, 0, 1e10f, 4.0f},
  };
  for (size_t i = 0; i < sizeof cones / sizeof cones[0]; i++) {
    CHECK_EQ(astar_layer_add_cone(l, cones[i].x, cones[i].y, cones[i].r, cones[i].v), ASTAR_OK);
    ref_cone(ref, w, h, cones[i].x, cones[i].y, cones[i].r, cones[i].v);
    CHECKF(same(l, ref), "after cone %zu", i);
  }
  free(ref);
  astar_layer_free(l);
}

static void test_cone_saturates(void) {
  astar_layer *l = NULL;
  CHECK_EQ(astar_layer_new(&l, 3, 3, NULL), ASTAR_OK);
  CHECK_EQ(astar_layer_set(l, 1, 1, FLT_MAX), ASTAR_OK);
  CHECK_EQ(astar_layer_add_cone(l, 1, 1, 2.0f, FLT_MAX), ASTAR_OK);
  CHECK(astar_layer_get(l, 1, 1) == FLT_MAX);
  CHECK_EQ(astar_layer_add_cone(l, 1, 1, 2.0f, FLT_MAX), ASTAR_OK);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++) CHECK(isfinite(astar_layer_get(l, x, y)));
  CHECK(astar_layer_get(l, 0, 1) == FLT_MAX); /* two halves of FLT_MAX */
  CHECK(border_zero(l));
  astar_layer_free(l);
}

/* Random layers and cones against the whole-layer reference. */
static void test_cone_random(void) {
  rng r;
  rng_seed(&r, 0x1a7e5);
  for (int round = 0; round < 200; round++) {
    const int32_t w = rng_range(&r, 1, 40), h = rng_range(&r, 1, 40);
    astar_layer *l = NULL;
    CHECK_EQ(astar_layer_new(&l, w, h, NULL), ASTAR_OK);
    float *ref = calloc((size_t)w * (size_t)h, sizeof(float));
    const int ncones = rng_range(&r, 1, 6);
    for (int c = 0; c < ncones; c++) {
      const int32_t cx = rng_range(&r, -10, w + 10), cy = rng_range(&r, -10, h + 10);
      const float radius = (float)(rng_unit(&r) * 30.0 + 1e-3);
      const float value = (float)(rng_unit(&r) * 10.0);
      CHECK_EQ(astar_layer_add_cone(l, cx, cy, radius, value), ASTAR_OK);
      ref_cone(ref, w, h, cx, cy, radius, value);
    }
    CHECKF(same(l, ref), "round %d (%dx%d)", round, (int)w, (int)h);
    free(ref);
    astar_layer_free(l);
  }
}

/* ---- allocation ----------------------------------------------------------------- */

static void test_alloc_failure(void) {
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator a = failalloc_allocator(&fa);
  long k;
  for (k = 1; k < 20; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    astar_layer *l = (astar_layer *)1;
    astar_status st = astar_layer_new(&l, 33, 17, &a);
    if (st == ASTAR_OK) {
      CHECK(fa.failures == 0);
      CHECK(astar_layer_add_cone(l, 5, 5, 9.0f, 1.0f) == ASTAR_OK);
      CHECK(astar_layer_fill(l, 1.0f) == ASTAR_OK);
      CHECK(fa.requests == k - 1); /* no allocation after construction */
      astar_layer_free(l);
      CHECK_EQ(fa.blocks, 0);
      CHECK_EQ(fa.bytes, 0);
      break;
    }
    CHECKF(st == ASTAR_NO_MEMORY, "failing request %ld gave %d", k, (int)st);
    CHECKF(l == NULL, "failing request %ld left *out set", k);
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "failing request %ld leaked %ld blocks", k, fa.blocks);
  }
  CHECKF(k == 3, "layer_new made %ld allocations, expected 2", k - 1);
  CHECK_EQ(fa.osize_mismatches, 0);
}

int main(void) {
  RUN(test_new_free);
  RUN(test_limits);
  RUN(test_set_get);
  RUN(test_invalid_values);
  RUN(test_fill);
  RUN(test_cone_values);
  RUN(test_cone_clipping);
  RUN(test_cone_saturates);
  RUN(test_cone_random);
  RUN(test_alloc_failure);
  return check_summary();
}
