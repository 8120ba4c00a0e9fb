/*
** test_alloc.c -- out-of-memory behaviour and allocator discipline: every
** constructor, failed at its 1st, 2nd, ... allocation, must report
** ASTAR_NO_MEMORY, leave *out NULL and leak nothing; sizes passed back to
** the allocator must match; searches must not call the allocator at all.
*/
#include <astar/astar.h>

#include "check.h"
#include "util/failalloc.h"

#define P(x, y) ((astar_point){(x), (y)})
#define MAX_STEPS 200

static const char MAP_TEXT[] = "type octile\r\n"
                               "height 4\r\n"
                               "width 6\r\n"
                               "map\r\n"
                               "..@...\r\n"
                               ".T..G.\r\n"
                               "...@@.\r\n"
                               "S.....";

static const char SCEN_TEXT[] = "version 1\n"
                                "0\tx.map\t6\t4\t0\t0\t5\t3\t6.41421356\n"
                                "1\tx.map\t6\t4\t0\t3\t5\t0\t5.82842712\n"
                                "\n"
                                "0\tx.map\t6\t4\t1\t0\t3\t0\t2.00000000\n";

static const char ASCII_TEXT[] = "; a test map\n"
                                 "S..#....\n"
                                 ".9.#.22.\n"
                                 "...#.1..\n"
                                 "......3G\n";

/* One constructor under test: build an object with allocator `a` into
** *obj, returning the status; free it again. */
typedef struct ctor {
  const char *name;
  astar_status (*make)(void **obj, const astar_allocator *a, void *arg);
  void (*destroy)(void *obj);
  void *arg;
} ctor;

static astar_status make_grid(void **obj, const astar_allocator *a, void *arg) {
  (void)arg;
  return astar_grid_new((astar_grid **)obj, 37, 23, a);
}

static astar_status make_clone(void **obj, const astar_allocator *a, void *arg) {
  return astar_grid_clone((astar_grid **)obj, arg, a);
}

static astar_status make_workspace(void **obj, const astar_allocator *a, void *arg) {
  return astar_workspace_new((astar_workspace **)obj, arg, a);
}

static astar_status make_empty_workspace(void **obj, const astar_allocator *a, void *arg) {
  (void)arg;
  return astar_workspace_new_empty((astar_workspace **)obj, a);
}

static astar_status make_map(void **obj, const astar_allocator *a, void *arg) {
  astar_parse_error err;
  (void)arg;
  astar_status st =
      astar_movingai_parse_map((astar_grid **)obj, MAP_TEXT, sizeof MAP_TEXT - 1, a, &err);
  if (st != ASTAR_OK) CHECKF(st == ASTAR_NO_MEMORY, "parse map: %d %s", (int)st, err.message);
  return st;
}

static astar_status make_scen(void **obj, const astar_allocator *a, void *arg) {
  astar_parse_error err;
  (void)arg;
  astar_status st =
      astar_movingai_parse_scen((astar_scen **)obj, SCEN_TEXT, sizeof SCEN_TEXT - 1, a, &err);
  if (st != ASTAR_OK) CHECKF(st == ASTAR_NO_MEMORY, "parse scen: %d %s", (int)st, err.message);
  return st;
}

static astar_status make_ascii(void **obj, const astar_allocator *a, void *arg) {
  astar_parse_error err;
  astar_point s, g;
  (void)arg;
  astar_status st =
      astar_ascii_parse_map((astar_grid **)obj, ASCII_TEXT, sizeof ASCII_TEXT - 1, a, &s, &g, &err);
  if (st != ASTAR_OK) CHECKF(st == ASTAR_NO_MEMORY, "parse ascii: %d %s", (int)st, err.message);
  return st;
}

static astar_status make_any(void **obj, const astar_allocator *a, void *arg) {
  astar_parse_error err;
  (void)arg;
  return astar_parse_map((astar_grid **)obj, MAP_TEXT, sizeof MAP_TEXT - 1, a, NULL, NULL, &err);
}

static void free_grid(void *p) {
  astar_grid_free(p);
}
static void free_ws(void *p) {
  astar_workspace_free(p);
}
static void free_scen(void *p) {
  astar_scen_free(p);
}

/* Fail the 1st, 2nd, ... request until the constructor succeeds. */
static void sweep(const ctor *c) {
  int k, succeeded = 0;
  long needed = -1;
  for (k = 1; k <= MAX_STEPS && !succeeded; k++) {
    failalloc fa;
    failalloc_init(&fa);
    fa.fail_at = k;
    astar_allocator a = failalloc_allocator(&fa);
    void *obj = (void *)&fa; /* must be overwritten either way */
    astar_status st = c->make(&obj, &a, c->arg);
    if (st == ASTAR_OK) {
      CHECKF(fa.failures == 0, "%s: request %d refused, yet ASTAR_OK", c->name, k);
      CHECK(obj != NULL && obj != (void *)&fa);
      needed = fa.requests;
      c->destroy(obj);
      succeeded = 1;
    } else {
      CHECKF(st == ASTAR_NO_MEMORY, "%s: failing request %d gave status %d", c->name, k, (int)st);
      CHECKF(obj == NULL, "%s: failing request %d left *out set", c->name, k);
      CHECKF(fa.failures == 1, "%s: %ld failures (request %d armed)", c->name, fa.failures, k);
    }
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "%s: failing request %d leaks %ld blocks, %zu bytes",
           c->name, k, fa.blocks, fa.bytes);
    CHECKF(fa.osize_mismatches == 0, "%s (request %d): %ld wrong osize values", c->name, k,
           fa.osize_mismatches);
  }
  CHECKF(succeeded, "%s: never succeeded within %d requests", c->name, MAX_STEPS);
  /* Every request of the successful run was failed once on the way. */
  CHECKF(needed == k - 2, "%s: success made %ld requests after %d failing runs", c->name, needed,
         k - 2);
  CHECKF(needed >= 1, "%s: no allocation at all?", c->name);
}

static void test_constructors(void) {
  astar_grid *src = NULL;
  CHECK_EQ(astar_grid_new(&src, 19, 11, NULL), ASTAR_OK);
  astar_grid_set_passable(src, 3, 3, false);
  astar_grid_set_terrain(src, 4, 4, 2.5f); /* so the clone copies a layer too */
  const ctor cs[] = {
      {"astar_grid_new", make_grid, free_grid, NULL},
      {"astar_grid_clone", make_clone, free_grid, src},
      {"astar_workspace_new", make_workspace, free_ws, src},
      {"astar_workspace_new_empty", make_empty_workspace, free_ws, NULL},
      {"astar_movingai_parse_map", make_map, free_grid, NULL},
      {"astar_movingai_parse_scen", make_scen, free_scen, NULL},
      {"astar_ascii_parse_map", make_ascii, free_grid, NULL},
      {"astar_parse_map", make_any, free_grid, NULL},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) sweep(&cs[i]);
  astar_grid_free(src);
}

/* The clone of a grid without terrain allocates less; also swept. */
static void test_clone_plain(void) {
  astar_grid *src = NULL;
  CHECK_EQ(astar_grid_new(&src, 5, 5, NULL), ASTAR_OK);
  ctor c = {"astar_grid_clone (no terrain)", make_clone, free_grid, src};
  sweep(&c);
  astar_grid_free(src);
}

static void test_terrain_layer(void) {
  for (int k = 1; k <= MAX_STEPS; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    astar_grid *g = NULL;
    CHECK_EQ(astar_grid_new(&g, 30, 20, &a), ASTAR_OK);
    if (!g) return;
    CHECKF(astar_grid_memory(g) == fa.bytes, "grid_memory %zu, allocator holds %zu",
           astar_grid_memory(g), fa.bytes);
    size_t before = fa.bytes;
    failalloc_fail_in(&fa, k);
    astar_status st = astar_grid_set_terrain(g, 7, 8, 2.0f);
    if (st == ASTAR_OK) {
      CHECK(fa.failures == 0);
      CHECK(astar_grid_has_terrain(g));
      CHECK(astar_grid_terrain(g, 7, 8) == 2.0f);
      CHECKF(astar_grid_memory(g) == fa.bytes, "grid_memory %zu, allocator holds %zu",
             astar_grid_memory(g), fa.bytes);
      /* Later terrain changes do not allocate. */
      long calls = fa.calls;
      CHECK_EQ(astar_grid_set_terrain(g, 1, 1, 0.5f), ASTAR_OK);
      CHECK_EQ(astar_grid_set_terrain(g, 1, 1, 3.0f), ASTAR_OK); /* rescans */
      CHECK_EQ(fa.calls, calls);
      astar_grid_clear_terrain(g);
      CHECK_EQ(fa.bytes, before);
      CHECK_EQ(astar_grid_memory(g), fa.bytes);
      astar_grid_free(g);
      CHECK(fa.blocks == 0 && fa.bytes == 0);
      CHECK_EQ(fa.osize_mismatches, 0);
      CHECK(k >= 2);
      return;
    }
    CHECKF(st == ASTAR_NO_MEMORY, "request %d: status %d", k, (int)st);
    /* The grid is unchanged and usable. */
    CHECK(!astar_grid_has_terrain(g));
    CHECK(astar_grid_terrain(g, 7, 8) == 1.0f);
    CHECK(astar_grid_min_terrain(g) == 1.0f);
    CHECK_EQ(fa.bytes, before);
    CHECK_EQ(astar_grid_set_passable(g, 7, 8, false), ASTAR_OK);
    astar_grid_free(g);
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "request %d: leak of %ld blocks", k, fa.blocks);
    CHECK_EQ(fa.osize_mismatches, 0);
  }
  CHECKF(0, "set_terrain never succeeded");
}

static void test_workspace_reserve(void) {
  astar_grid *small = NULL, *big = NULL;
  CHECK_EQ(astar_grid_new(&small, 10, 10, NULL), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&big, 50, 40, NULL), ASTAR_OK);
  astar_point path[128];
  astar_result r;
  for (int k = 1; k <= MAX_STEPS; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    astar_workspace *ws = NULL;
    CHECK_EQ(astar_workspace_new(&ws, small, &a), ASTAR_OK);
    if (!ws) break;
    CHECKF(astar_workspace_memory(ws) == fa.bytes, "workspace_memory %zu, allocator holds %zu",
           astar_workspace_memory(ws), fa.bytes);
    /* A search first, so that a failed growth must not lose its path. */
    CHECK_EQ(astar_find_path(ws, small, NULL, P(0, 0), P(9, 9), path, 128, &r), ASTAR_OK);
    size_t before = fa.bytes, mem = astar_workspace_memory(ws);
    failalloc_fail_in(&fa, k);
    astar_status st = astar_workspace_reserve(ws, big);
    if (st == ASTAR_OK) {
      CHECK(fa.failures == 0);
      CHECK(astar_workspace_memory(ws) > mem);
      CHECKF(astar_workspace_memory(ws) == fa.bytes, "workspace_memory %zu, allocator holds %zu",
             astar_workspace_memory(ws), fa.bytes);
      CHECK_EQ(astar_find_path(ws, big, NULL, P(0, 0), P(49, 39), path, 128, &r), ASTAR_OK);
      astar_workspace_free(ws);
      CHECK(fa.blocks == 0 && fa.bytes == 0);
      CHECK_EQ(fa.osize_mismatches, 0);
      CHECK(k >= 2);
      break;
    }
    CHECKF(st == ASTAR_NO_MEMORY, "request %d: status %d", k, (int)st);
    /* Unchanged and usable. */
    CHECK_EQ(fa.bytes, before);
    CHECK_EQ(astar_workspace_memory(ws), mem);
    size_t len = 0;
    CHECK_EQ(astar_workspace_path(ws, path, 128, &len), ASTAR_OK);
    CHECK_EQ(len, 10);
    CHECK_EQ(astar_find_path(ws, small, NULL, P(9, 0), P(0, 9), path, 128, &r), ASTAR_OK);
    CHECK_EQ(r.length, 10);
    CHECK_EQ(astar_find_path(ws, big, NULL, P(0, 0), P(49, 39), path, 128, &r), ASTAR_CAPACITY);
    astar_workspace_free(ws);
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "request %d: leak of %ld blocks", k, fa.blocks);
    CHECK_EQ(fa.osize_mismatches, 0);
    if (k == MAX_STEPS) CHECKF(0, "reserve never succeeded");
  }
  astar_grid_free(small);
  astar_grid_free(big);
}

/* Searches, path copies and path costs never call the allocator. */
static void test_search_does_not_allocate(void) {
  failalloc fg, fw;
  failalloc_init(&fg);
  failalloc_init(&fw);
  astar_allocator ag = failalloc_allocator(&fg), aw = failalloc_allocator(&fw);
  astar_grid *g = NULL, *small = NULL;
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_grid_new(&g, 64, 48, &ag), ASTAR_OK);
  CHECK_EQ(astar_grid_new(&small, 5, 5, &ag), ASTAR_OK);
  for (int y = 5; y < 40; y++) astar_grid_set_passable(g, 30, y, false);
  astar_grid_set_terrain(g, 10, 10, 0.5f);
  astar_grid_set_terrain(g, 11, 10, 4.0f);
  CHECK_EQ(astar_workspace_new(&ws, small, &aw), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve(ws, g), ASTAR_OK);
  long gcalls = fg.calls, wcalls = fw.calls;
  /* From now on every request would fail: a search that allocates shows
  ** up either as a call count or as a failure. */
  fg.fail_from = fg.requests + 1;
  fw.fail_from = fw.requests + 1;

  astar_point path[64 * 48];
  astar_result r;
  size_t len;
  double cost;
  astar_options o;
  for (int i = 0; i < 50; i++) {
    astar_options_init(&o);
    o.moves = (i & 1) ? 8 : 4;
    o.corner = (astar_corner)(i % 4);
    o.tie = (astar_tie)(i % 3);
    o.heuristic = (astar_heuristic)(i % 6);
    o.reopen = (astar_reopen)(i % 3);
    o.weight = 1.0 + (i % 5) * 0.5;
    astar_point s = P(i % 30, (i * 7) % 48), t = P(63 - i % 20, (i * 11) % 48);
    astar_status st = astar_find_path(ws, g, &o, s, t, path, (size_t)64 * 48, &r);
    CHECKF(st == ASTAR_OK || st == ASTAR_NO_PATH, "query %d: status %d", i, (int)st);
    if (st == ASTAR_OK) {
      CHECK_EQ(astar_path_cost(g, &o, path, r.length, &cost, NULL), ASTAR_OK);
      CHECK_EQ(astar_workspace_path(ws, path, (size_t)64 * 48, &len), ASTAR_OK);
    }
  }
  astar_options_init(&o);
  o.max_expansions = 5;
  CHECK_EQ(astar_find_path(ws, g, &o, P(0, 0), P(63, 47), path, (size_t)64 * 48, &r),
           ASTAR_LIMIT_REACHED);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(0, 0), P(63, 47), NULL, 0, &r), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(astar_find_path(ws, g, NULL, P(30, 5), P(63, 47), path, 10, &r), ASTAR_START_BLOCKED);
  CHECK_EQ(astar_find_path(ws, small, NULL, P(0, 0), P(4, 4), path, 10, &r), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve(ws, small), ASTAR_OK); /* already big enough */
  CHECK_EQ(astar_workspace_reserve(ws, g), ASTAR_OK);
  CHECKF(fg.calls == gcalls, "grid allocator called %ld times", fg.calls - gcalls);
  CHECKF(fw.calls == wcalls, "workspace allocator called %ld times", fw.calls - wcalls);
  fg.fail_from = fw.fail_from = 0;

  astar_workspace_free(ws);
  astar_grid_free(g);
  astar_grid_free(small);
  CHECK(fg.blocks == 0 && fg.bytes == 0);
  CHECK(fw.blocks == 0 && fw.bytes == 0);
  CHECK_EQ(fg.osize_mismatches, 0);
  CHECK_EQ(fw.osize_mismatches, 0);
}

/* The scenario parser gave the right queries with a counting allocator. */
static void test_parsed_content(void) {
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator a = failalloc_allocator(&fa);
  astar_scen *sc = NULL;
  astar_parse_error err;
  CHECK_EQ(astar_movingai_parse_scen(&sc, SCEN_TEXT, sizeof SCEN_TEXT - 1, &a, &err), ASTAR_OK);
  if (sc) {
    CHECK_EQ(astar_scen_count(sc), 3);
    const astar_scen_query *q = astar_scen_queries(sc);
    CHECK(q[1].start.x == 0 && q[1].start.y == 3 && q[1].goal.x == 5 && q[1].goal.y == 0);
    CHECK(strcmp(q[2].map, "x.map") == 0);
  }
  astar_scen_free(sc);
  astar_grid *g = NULL;
  CHECK_EQ(astar_movingai_parse_map(&g, MAP_TEXT, sizeof MAP_TEXT - 1, &a, &err), ASTAR_OK);
  if (g) CHECK_EQ(astar_grid_memory(g), fa.bytes);
  astar_grid_free(g);
  CHECK(fa.blocks == 0 && fa.bytes == 0);
  CHECK_EQ(fa.osize_mismatches, 0);
}

int main(void) {
  RUN(test_constructors);
  RUN(test_clone_plain);
  RUN(test_terrain_layer);
  RUN(test_workspace_reserve);
  RUN(test_search_does_not_allocate);
  RUN(test_parsed_content);
  return check_summary();
}
