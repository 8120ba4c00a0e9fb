/*
** test_islands.c -- islands (astar/islands.h) against a deliberately plain
** breadth-first flood on hundreds of seeded random maps for every moves /
** corner combination; reachability against astar_find_path; relabelling
** after edits (without allocating); the worst-case island counts; nearest
** cell against brute force; allocation failures; bad arguments.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})

static const int MOVES[2] = {4, 8};
static const astar_corner CORNERS[4] = {ASTAR_CORNER_NO_CUT, ASTAR_CORNER_ALWAYS,
                                        ASTAR_CORNER_ONE_SIDE, ASTAR_CORNER_NEVER};

static astar_options opts(int moves, astar_corner corner) {
  astar_options o;
  astar_options_init(&o);
  o.moves = moves;
  o.corner = corner;
  return o;
}

/*
** The reference: scan the cells in row-major order; every passable cell not
** yet labelled starts a new island, flooded breadth-first with moves checked
** by the tests' own validator. lab[y * w + x], 0 for blocked cells. Returns
** the number of islands.
*/
static uint32_t ref_label(const astar_grid *g, const astar_options *o, uint32_t *lab) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const size_t n = (size_t)w * (size_t)h;
  int32_t *queue = malloc(n * sizeof *queue);
  uint32_t count = 0;
  for (size_t i = 0; i < n; i++) lab[i] = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      if (!astar_grid_passable(g, x, y) || lab[(size_t)y * w + x]) continue;
      count++;
      size_t head = 0, tail = 0;
      lab[(size_t)y * w + x] = count;
      queue[tail++] = y * w + x;
      while (head < tail) {
        const int32_t c = queue[head++], cx = c % w, cy = c / w;
        for (int32_t dy = -1; dy <= 1; dy++)
          for (int32_t dx = -1; dx <= 1; dx++) {
            const int32_t nx = cx + dx, ny = cy + dy;
            if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            if (lab[(size_t)ny * w + nx]) continue;
            if (!validate_step(g, o, P(cx, cy), P(nx, ny), NULL, NULL, 0)) continue;
            lab[(size_t)ny * w + nx] = count;
            queue[tail++] = ny * w + nx;
          }
      }
    }
  free(queue);
  return count;
}

/* Compare islands with the reference labelling, ids, count and sizes. */
static int agree(const astar_islands *isl, const astar_grid *g, const astar_options *o,
                 const char *what, uint64_t seed) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  uint32_t *lab = calloc((size_t)w * h, sizeof *lab);
  const uint32_t count = ref_label(g, o, lab);
  int ok = 1;
  if (astar_islands_count(isl) != count) {
    FAILF("%s seed %llu moves %d corner %d: count %u, reference %u", what, (unsigned long long)seed,
          o->moves, (int)o->corner, astar_islands_count(isl), count);
    ok = 0;
  }
  size_t *sizes = calloc((size_t)count + 1, sizeof *sizes);
  for (int32_t y = 0; y < h && ok; y++)
    for (int32_t x = 0; x < w; x++) {
      const uint32_t want = lab[(size_t)y * w + x];
      sizes[want]++;
      if (astar_islands_id(isl, x, y) != want) {
        FAILF("%s seed %llu moves %d corner %d: id(%d,%d) = %u, reference %u", what,
              (unsigned long long)seed, o->moves, (int)o->corner, x, y, astar_islands_id(isl, x, y),
              want);
        ok = 0;
        break;
      }
    }
  for (uint32_t i = 1; i <= count && ok; i++)
    if (astar_islands_size(isl, i) != sizes[i]) {
      FAILF("%s seed %llu: size(%u) = %zu, reference %zu", what, (unsigned long long)seed, i,
            astar_islands_size(isl, i), sizes[i]);
      ok = 0;
    }
  free(sizes);
  free(lab);
  return ok;
}

static void test_random_maps(void) {
  int maps = 0;
  for (uint64_t seed = 1; seed <= 400; seed++) {
    rng r;
    rng_seed(&r, seed * 7919);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 0);
    /* Dense maps make many small islands: the interesting case. */
    spec.density = 0.2 + 0.5 * rng_unit(&r);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    for (int mi = 0; mi < 2; mi++)
      for (int ci = 0; ci < 4; ci++) {
        const astar_options o = opts(MOVES[mi], CORNERS[ci]);
        astar_islands *isl = NULL;
        CHECK(astar_islands_new(&isl, g, &o, NULL) == ASTAR_OK);
        if (!isl) continue;
        CHECK(astar_islands_moves(isl) == o.moves);
        CHECK(astar_islands_corner(isl) == o.corner);
        CHECK(astar_islands_current(isl, g));
        agree(isl, g, &o, "random", seed);
        astar_islands_free(isl);
      }
    maps++;
    astar_grid_free(g);
  }
  CHECK(maps == 400);
}

/* reachable() says yes exactly when A* finds a path (blocked ends: no). */
static void test_reachable_vs_search(void) {
  astar_workspace *ws = NULL;
  int pairs = 0, yes = 0;
  for (uint64_t seed = 1; seed <= 120; seed++) {
    rng r;
    rng_seed(&r, seed * 104729);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 32, 0);
    spec.density = 0.15 + 0.45 * rng_unit(&r);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    if (!ws) CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_workspace_reserve(ws, g) == ASTAR_OK);
    for (int mi = 0; mi < 2; mi++)
      for (int ci = 0; ci < 4; ci++) {
        const astar_options o = opts(MOVES[mi], CORNERS[ci]);
        astar_islands *isl = NULL;
        CHECK(astar_islands_new(&isl, g, &o, NULL) == ASTAR_OK);
        if (!isl) continue;
        for (int k = 0; k < 20; k++) {
          /* Mostly passable ends, sometimes any cell. */
          astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
          if (k % 5 == 0)
            a = P(rng_range(&r, 0, spec.width - 1), rng_range(&r, 0, spec.height - 1));
          if (a.x < 0 || b.x < 0) continue;
          astar_result res;
          const astar_status st = astar_find_path(ws, g, &o, a, b, NULL, 0, &res);
          const bool found = st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL;
          const bool reach = astar_islands_reachable(isl, a, b);
          if (found != reach)
            FAILF("seed %llu moves %d corner %d (%d,%d)->(%d,%d): search %s, reachable %d",
                  (unsigned long long)seed, o.moves, (int)o.corner, a.x, a.y, b.x, b.y,
                  astar_strerror(st), (int)reach);
          CHECK(astar_islands_reachable(isl, b, a) == reach); /* symmetric */
          pairs++;
          yes += reach;
        }
        astar_islands_free(isl);
      }
    astar_grid_free(g);
  }
  astar_workspace_free(ws);
  CHECK(pairs > 10000);
  CHECK(yes > pairs / 10 && yes < pairs - pairs / 10); /* both outcomes well covered */
}

/* Edits, then update: current() tracks the grid's version and the labels
** match the reference again; update never allocates. */
static void test_update(void) {
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  for (uint64_t seed = 1; seed <= 60; seed++) {
    rng r;
    rng_seed(&r, seed * 31337);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 32, 0);
    spec.density = 0.35;
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    const astar_options o = opts(MOVES[seed % 2], CORNERS[(seed / 2) % 4]);
    astar_islands *isl = NULL;
    CHECK(astar_islands_new(&isl, g, &o, &al) == ASTAR_OK);
    if (!isl) {
      astar_grid_free(g);
      continue;
    }
    for (int round = 0; round < 6; round++) {
      const int edits = 1 + (int)(rng_next(&r) % 12);
      for (int e = 0; e < edits; e++) {
        const int32_t x = rng_range(&r, 0, spec.width - 1), y = rng_range(&r, 0, spec.height - 1);
        CHECK(astar_grid_set_passable(g, x, y, !astar_grid_passable(g, x, y)) == ASTAR_OK);
      }
      CHECK(!astar_islands_current(isl, g));
      const long before = fa.requests;
      CHECK(astar_islands_update(isl, g) == ASTAR_OK);
      CHECK(fa.requests == before);
      CHECK(astar_islands_current(isl, g));
      agree(isl, g, &o, "update", seed);
    }
    /* Everything blocked, then everything open. */
    CHECK(astar_grid_fill(g, false) == ASTAR_OK);
    CHECK(astar_islands_update(isl, g) == ASTAR_OK);
    CHECK(astar_islands_count(isl) == 0);
    CHECK(astar_grid_fill(g, true) == ASTAR_OK);
    CHECK(astar_islands_update(isl, g) == ASTAR_OK);
    CHECK(astar_islands_count(isl) == 1);
    CHECK(astar_islands_size(isl, 1) == (size_t)spec.width * spec.height);
    astar_islands_free(isl);
    astar_grid_free(g);
  }
  CHECK(fa.blocks == 0);
  CHECK(fa.osize_mismatches == 0);
}

/* Set the cells where keep(x, y) holds passable, the rest blocked. */
static astar_grid *pattern(int32_t w, int32_t h, int kind) {
  astar_grid *g = NULL;
  if (astar_grid_new(&g, w, h, NULL) != ASTAR_OK) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const bool open = kind == 0 ? ((x + y) % 2 == 0) : (x % 2 == 0 && y % 2 == 0);
      astar_grid_set_passable(g, x, y, open);
    }
  return g;
}

/* The worst cases the size table is allocated for: a checkerboard gives
** ceil(cells / 2) islands when diagonals need a side cell (or are off), and
** isolated cells on even coordinates ceil(w/2) * ceil(h/2) when diagonals
** are always allowed. Then edits push the count to the bound via update. */
static void test_worst_case(void) {
  static const int32_t dims[][2] = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {5, 5}, {6, 9}, {33, 17}};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    const int32_t w = dims[i][0], h = dims[i][1];
    const uint32_t half = (uint32_t)((w * h + 1) / 2);
    const uint32_t quarter = (uint32_t)(((w + 1) / 2) * ((h + 1) / 2));
    astar_grid *cb = pattern(w, h, 0), *iso = pattern(w, h, 1);
    CHECK(cb && iso);
    if (!cb || !iso) continue;
    for (int mi = 0; mi < 2; mi++)
      for (int ci = 0; ci < 4; ci++) {
        const astar_options o = opts(MOVES[mi], CORNERS[ci]);
        const bool always = o.moves == 8 && o.corner == ASTAR_CORNER_ALWAYS;
        astar_islands *isl = NULL;
        CHECK(astar_islands_new(&isl, cb, &o, NULL) == ASTAR_OK);
        if (!isl) continue;
        CHECKF(
            astar_islands_count(isl) == (always ? (w * h > 1 && w > 1 && h > 1 ? 1u : half) : half),
            "%dx%d moves %d corner %d: %u", w, h, o.moves, (int)o.corner, astar_islands_count(isl));
        agree(isl, cb, &o, "checkerboard", 0);
        /* Relabel the other pattern in the same object. */
        CHECK(astar_islands_update(isl, iso) == ASTAR_OK);
        CHECK(astar_islands_count(isl) == quarter);
        agree(isl, iso, &o, "isolated", 0);
        astar_islands_free(isl);
      }
    astar_grid_free(cb);
    astar_grid_free(iso);
  }
}

/* Brute force: the cell of island id nearest to t, octile then row-major. */
static astar_point brute_nearest(const astar_islands *isl, int32_t w, int32_t h, uint32_t id,
                                 astar_point t) {
  astar_point best = {-1, -1};
  long double bd = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      if (astar_islands_id(isl, x, y) != id) continue;
      const long double dx = fabsl((long double)x - t.x), dy = fabsl((long double)y - t.y);
      const long double d = (dx > dy ? dx : dy) + (sqrtl(2.0L) - 1.0L) * (dx < dy ? dx : dy);
      if (best.x < 0 || d < bd) { /* scan order is row-major: keep the first */
        bd = d;
        best = P(x, y);
      }
    }
  return best;
}

static void test_nearest(void) {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 150; seed++) {
    rng r;
    rng_seed(&r, seed * 65537);
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 40, 0);
    spec.density = 0.3 + 0.4 * rng_unit(&r);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    const astar_options o = opts(MOVES[seed % 2], CORNERS[(seed / 2) % 4]);
    astar_islands *isl = NULL;
    CHECK(astar_islands_new(&isl, g, &o, NULL) == ASTAR_OK);
    const uint32_t n = astar_islands_count(isl);
    for (int k = 0; k < 30 && n; k++) {
      const uint32_t id = 1 + (uint32_t)(rng_next(&r) % n);
      /* Targets inside the grid and a little (sometimes far) outside it. */
      astar_point t = P(rng_range(&r, -3, spec.width + 2), rng_range(&r, -3, spec.height + 2));
      if (k == 0) t = P(-100000, 50);
      if (k == 1) t = P(spec.width / 2, spec.height + 1000000);
      astar_point got = {-7, -7};
      CHECK(astar_islands_nearest(isl, id, t, &got) == ASTAR_OK);
      const astar_point want = brute_nearest(isl, spec.width, spec.height, id, t);
      if (got.x != want.x || got.y != want.y)
        FAILF("seed %llu island %u target (%d,%d): got (%d,%d), want (%d,%d)",
              (unsigned long long)seed, id, t.x, t.y, got.x, got.y, want.x, want.y);
      checked++;
    }
    /* The nearest cell of a cell's own island is the cell itself. */
    const astar_point p = randmap_passable_cell(g, &r);
    if (p.x >= 0) {
      astar_point got;
      CHECK(astar_islands_nearest(isl, astar_islands_id(isl, p.x, p.y), p, &got) == ASTAR_OK);
      CHECK(got.x == p.x && got.y == p.y);
    }
    astar_islands_free(isl);
    astar_grid_free(g);
  }
  CHECK(checked > 2000);
}

/* A hand-made case: two rooms; ids in row-major order of first cells. */
static void test_small_example(void) {
  /* 0123456
  ** ..#....   island 1: the left room, island 2: the right room
  ** ..#.#..   (3,1) joins the right room; (5,1)-(6,2) too
  ** ###.#..
  ** #.#....   (1,3) alone: island 3 */
  static const char *rows[] = {"..#....", "..#.#..", "###.#..", "#.#...."};
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 7, 4, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < 4; y++)
    for (int32_t x = 0; x < 7; x++) astar_grid_set_passable(g, x, y, rows[y][x] == '.');
  astar_islands *isl = NULL;
  CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK); /* defaults: 8 moves, no cut */
  CHECK(astar_islands_count(isl) == 3);
  CHECK(astar_islands_id(isl, 0, 0) == 1 && astar_islands_id(isl, 1, 1) == 1);
  CHECK(astar_islands_id(isl, 3, 0) == 2 && astar_islands_id(isl, 6, 3) == 2);
  CHECK(astar_islands_id(isl, 1, 3) == 3);
  CHECK(astar_islands_id(isl, 2, 0) == 0); /* blocked */
  CHECK(astar_islands_size(isl, 1) == 4 && astar_islands_size(isl, 3) == 1);
  CHECK(astar_islands_size(isl, 2) == 14);
  CHECK(astar_islands_reachable(isl, P(3, 3), P(6, 0)));
  CHECK(!astar_islands_reachable(isl, P(0, 0), P(6, 0)));
  CHECK(astar_islands_reachable(isl, P(1, 3), P(1, 3)));
  CHECK(!astar_islands_reachable(isl, P(2, 0), P(2, 0))); /* blocked */
  astar_point q;
  CHECK(astar_islands_nearest(isl, 1, P(6, 3), &q) == ASTAR_OK);
  CHECK(q.x == 1 && q.y == 1);
  CHECK(astar_islands_nearest(isl, 2, P(0, 3), &q) == ASTAR_OK);
  CHECK(q.x == 3 && q.y == 3); /* 3 straight steps; (3,2) is 3 + (sqrt2 - 1) away */
  astar_islands_free(isl);
  /* With corners always cut, (1,3) still stays apart: its diagonals are blocked. */
  astar_options o = opts(8, ASTAR_CORNER_ALWAYS);
  CHECK(astar_islands_new(&isl, g, &o, NULL) == ASTAR_OK);
  CHECK(astar_islands_count(isl) == 3);
  astar_islands_free(isl);
  astar_grid_free(g);
}

static void test_alloc_failure(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 20, 13, NULL) == ASTAR_OK);
  for (int32_t x = 0; x < 20; x++) astar_grid_set_passable(g, x, 6, false);
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator al = failalloc_allocator(&fa);
  astar_islands *isl = NULL;
  CHECK(astar_islands_new(&isl, g, NULL, &al) == ASTAR_OK);
  const long needed = fa.requests;
  CHECK(needed >= 1);
  CHECK(astar_islands_count(isl) == 2);
  astar_islands_free(isl);
  CHECK(fa.blocks == 0);
  for (long k = 1; k <= needed; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    isl = (astar_islands *)&fa; /* must be overwritten with NULL */
    CHECK(astar_islands_new(&isl, g, NULL, &al) == ASTAR_NO_MEMORY);
    CHECK(isl == NULL);
    CHECKF(fa.blocks == 0, "leak after failing request %ld", k);
    CHECK(fa.osize_mismatches == 0);
  }
  astar_grid_free(g);
}

static void test_bad_arguments(void) {
  astar_grid *g = NULL, *other = NULL;
  CHECK(astar_grid_new(&g, 5, 4, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&other, 4, 5, NULL) == ASTAR_OK);
  astar_islands *isl = (astar_islands *)g;
  CHECK(astar_islands_new(NULL, g, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_new(&isl, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(isl == NULL);
  astar_options o = opts(6, ASTAR_CORNER_NO_CUT);
  CHECK(astar_islands_new(&isl, g, &o, NULL) == ASTAR_INVALID_ARGUMENT);
  o = opts(8, (astar_corner)9);
  CHECK(astar_islands_new(&isl, g, &o, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK);
  CHECK(astar_islands_count(isl) == 1);
  CHECK(astar_islands_id(isl, -1, 0) == 0 && astar_islands_id(isl, 5, 0) == 0);
  CHECK(astar_islands_id(isl, 0, 4) == 0 && astar_islands_id(isl, 4, 3) == 1);
  CHECK(astar_islands_size(isl, 0) == 0 && astar_islands_size(isl, 2) == 0);
  CHECK(astar_islands_size(isl, 1) == 20);
  CHECK(!astar_islands_reachable(isl, P(-1, 0), P(0, 0)));
  CHECK(!astar_islands_reachable(isl, P(0, 0), P(0, 99)));
  astar_point q;
  CHECK(astar_islands_nearest(isl, 0, P(0, 0), &q) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_nearest(isl, 2, P(0, 0), &q) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_nearest(isl, 1, P(0, 0), NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_nearest(NULL, 1, P(0, 0), &q) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_update(isl, other) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_update(isl, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_islands_update(NULL, g) == ASTAR_INVALID_ARGUMENT);
  CHECK(!astar_islands_current(isl, other));
  CHECK(!astar_islands_current(isl, NULL));
  CHECK(!astar_islands_current(NULL, g));
  CHECK(astar_islands_current(isl, g));
  /* A change that restores the cell still makes the islands stale. */
  CHECK(astar_grid_set_passable(g, 2, 2, false) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 2, 2, true) == ASTAR_OK);
  CHECK(!astar_islands_current(isl, g));
  /* Terrain changes bump the version too: islands do not depend on them,
  ** but they cannot tell, so they report stale. */
  CHECK(astar_islands_update(isl, g) == ASTAR_OK);
  CHECK(astar_grid_set_terrain(g, 1, 1, 3.0f) == ASTAR_OK);
  CHECK(!astar_islands_current(isl, g));
  CHECK(astar_islands_count(NULL) == 0 && astar_islands_id(NULL, 0, 0) == 0);
  CHECK(astar_islands_size(NULL, 1) == 0);
  astar_islands_free(isl);
  astar_islands_free(NULL);
  astar_grid_free(g);
  astar_grid_free(other);
}

int main(void) {
  RUN(test_small_example);
  RUN(test_random_maps);
  RUN(test_reachable_vs_search);
  RUN(test_update);
  RUN(test_worst_case);
  RUN(test_nearest);
  RUN(test_alloc_failure);
  RUN(test_bad_arguments);
  return check_summary();
}
