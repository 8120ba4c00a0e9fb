/*
** test_implicit.c -- implicit spaces (astar/implicit.h): the 8-puzzle, with
** every solution length checked against a breadth-first search over all
** 181,440 reachable boards; every engine method; a goal test instead of a
** goal state; a table that fills up answers ASTAR_CAPACITY; reservation
** arguments and allocation failure; no allocation while searching.
*/
#include <astar/astar.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

/* ---- the 8-puzzle: a board is 9 nibbles, tile of cell i at bits 4i ------- */

#define SOLVED UINT64_C(0x087654321) /* cells 0..7 hold 1..8, cell 8 the blank */

static int tile(uint64_t b, int i) {
  return (int)((b >> (4 * i)) & 15u);
}

static int blank(uint64_t b) {
  for (int i = 0; i < 9; i++)
    if (tile(b, i) == 0) return i;
  return -1;
}

static uint64_t swap(uint64_t b, int i, int j) {
  const uint64_t ti = (uint64_t)tile(b, i), tj = (uint64_t)tile(b, j);
  b &= ~((UINT64_C(15) << (4 * i)) | (UINT64_C(15) << (4 * j)));
  return b | ti << (4 * j) | tj << (4 * i);
}

/* Moves of the blank: up, right, down, left (fixed order). */
static size_t puzzle_succ(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap) {
  (void)ctx;
  const int z = blank(s), x = z % 3, y = z / 3;
  size_t n = 0;
  const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int d = 0; d < 4 && n < cap; d++) {
    const int nx = x + dx[d], ny = y + dy[d];
    if (nx < 0 || nx > 2 || ny < 0 || ny > 2) continue;
    arcs[n].state = swap(s, z, ny * 3 + nx);
    arcs[n].cost = 1.0;
    n++;
  }
  return n;
}

/* Manhattan distance of the tiles: admissible and consistent. */
static double puzzle_h(void *ctx, astar_state a, astar_state b) {
  (void)ctx;
  int where[16];
  for (int i = 0; i < 9; i++) where[tile(b, i)] = i;
  int d = 0;
  for (int i = 0; i < 9; i++) {
    const int t = tile(a, i);
    if (t == 0) continue;
    const int j = where[t];
    d += abs(i % 3 - j % 3) + abs(i / 3 - j / 3);
  }
  return d;
}

static bool puzzle_goal(void *ctx, astar_state s) {
  (void)ctx;
  return s == SOLVED;
}

/* BFS distances from SOLVED over all reachable boards, in a small open
** hash table of our own. */
#define TABLE (1u << 19)
static uint64_t bfs_key[TABLE];
static int8_t bfs_dist[TABLE];
static uint64_t queue_[181440];

static uint32_t slot_of(uint64_t k) {
  uint32_t i = (uint32_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 45) & (TABLE - 1);
  while (bfs_dist[i] >= 0 && bfs_key[i] != k) i = (i + 1) & (TABLE - 1);
  return i;
}

static void bfs_all(void) {
  memset(bfs_dist, -1, sizeof bfs_dist);
  size_t head = 0, tail = 0;
  uint32_t s = slot_of(SOLVED);
  bfs_key[s] = SOLVED;
  bfs_dist[s] = 0;
  queue_[tail++] = SOLVED;
  while (head < tail) {
    const uint64_t b = queue_[head++];
    const int d = bfs_dist[slot_of(b)];
    astar_state_arc arcs[4];
    const size_t n = puzzle_succ(NULL, b, arcs, 4);
    for (size_t i = 0; i < n; i++) {
      const uint32_t k = slot_of(arcs[i].state);
      if (bfs_dist[k] >= 0) continue;
      bfs_key[k] = arcs[i].state;
      bfs_dist[k] = (int8_t)(d + 1);
      queue_[tail++] = arcs[i].state;
    }
  }
}

static const astar_implicit_ops puzzle_ops = {puzzle_succ, puzzle_succ, puzzle_h, NULL};

static astar_workspace *new_ws(uint32_t states, unsigned what) {
  astar_grid *tiny;
  astar_workspace *ws = NULL;
  if (astar_grid_new(&tiny, 1, 1, NULL) != ASTAR_OK) return NULL;
  if (astar_workspace_new(&ws, tiny, NULL) != ASTAR_OK) ws = NULL;
  astar_grid_free(tiny);
  if (ws && astar_workspace_reserve_states(ws, states, 4, what) != ASTAR_OK) {
    astar_workspace_free(ws);
    ws = NULL;
  }
  return ws;
}

/* A scrambled board: a random walk of the blank. */
static uint64_t scramble(rng *r, int steps) {
  uint64_t b = SOLVED;
  for (int i = 0; i < steps; i++) {
    astar_state_arc arcs[4];
    const size_t n = puzzle_succ(NULL, b, arcs, 4);
    b = arcs[rng_range(r, 0, (int32_t)n - 1)].state;
  }
  return b;
}

/* Every solution is a legal sequence of moves of the BFS length. */
static void test_puzzle_optimal(void) {
  bfs_all();
  astar_workspace *ws = new_ws(181440, ASTAR_RESERVE_BACKWARD);
  CHECK(ws != NULL);
  if (!ws) return;
  const astar_implicit sp = {&puzzle_ops, NULL, 4, ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT};
  rng r;
  rng_seed(&r, 88);
  static astar_state path[4096];
  int solved = 0;
  for (int q = 0; q < 60; q++) {
    const uint64_t start = scramble(&r, rng_range(&r, 0, 200));
    const int want = bfs_dist[slot_of(start)];
    CHECK(want >= 0);
    for (int method = 0; method <= ASTAR_METHOD_BIDIRECTIONAL; method++) {
      astar_engine_options o;
      astar_engine_options_init(&o);
      o.method = (astar_method)method;
      astar_engine_result res;
      const astar_status st =
          astar_implicit_find_path(ws, &sp, &o, start, SOLVED, path, 4096, &res);
      CHECKF(st == ASTAR_OK, "board %d method %d: %s", q, method, astar_strerror(st));
      if (st != ASTAR_OK) continue;
      CHECK(path[0] == start && path[res.length - 1] == SOLVED && res.end_state == SOLVED);
      for (size_t i = 1; i < res.length; i++) {
        astar_state_arc arcs[4];
        const size_t n = puzzle_succ(NULL, path[i - 1], arcs, 4);
        bool legal = false;
        for (size_t k = 0; k < n; k++) legal |= arcs[k].state == path[i];
        CHECK(legal);
      }
      CHECK(res.cost == (double)(res.length - 1));
      if (method != ASTAR_METHOD_GREEDY)
        CHECKF(res.cost == want, "board %d method %s: %g moves, optimal %d", q,
               astar_method_name(o.method), res.cost, want);
      solved++;
    }
  }
  CHECK(solved == 60 * (ASTAR_METHOD_BIDIRECTIONAL + 1)); /* the others: test_variants.c */
  astar_workspace_free(ws);
}

/* A goal test instead of a goal state; a table too small ends in
** ASTAR_CAPACITY with nothing written; the count of states used. */
static void test_goal_test_and_full_table(void) {
  const astar_implicit_ops ops = {puzzle_succ, NULL, puzzle_h, puzzle_goal};
  const astar_implicit sp = {&ops, NULL, 4, ASTAR_SPACE_CONSISTENT};
  astar_workspace *ws = new_ws(181440, 0);
  if (!ws) return;
  rng r;
  rng_seed(&r, 2);
  const uint64_t start = scramble(&r, 60);
  astar_state path[64];
  astar_engine_result res;
  CHECK(astar_implicit_find_path(ws, &sp, NULL, start, SOLVED, path, 64, &res) == ASTAR_OK);
  const double cost = res.cost;
  const uint32_t used = astar_implicit_states_used(ws);
  CHECK(used > 1);
  /* The goal state given is only the heuristic's target: the test decides. */
  CHECK(astar_implicit_find_path(ws, &sp, NULL, start, start, path, 64, &res) == ASTAR_OK);
  CHECK(res.end_state == SOLVED && res.cost == cost);
  astar_engine_options o;
  astar_engine_options_init(&o);
  o.method = ASTAR_METHOD_BIDIRECTIONAL;
  CHECK(astar_implicit_find_path(ws, &sp, &o, start, SOLVED, path, 64, &res) == ASTAR_UNSUPPORTED);
  astar_workspace_free(ws);

  /* Room for fewer states than the search meets. */
  ws = new_ws(used / 2, 0);
  if (!ws) return;
  memset(path, 0, sizeof path);
  CHECK(astar_implicit_find_path(ws, &sp, NULL, start, SOLVED, path, 64, &res) == ASTAR_CAPACITY);
  CHECK(res.length == 0 && path[0] == 0 && astar_implicit_states_used(ws) == used / 2);
  /* Room for exactly what it meets is enough. */
  CHECK(astar_workspace_reserve_states(ws, used, 4, 0) == ASTAR_OK);
  CHECK(astar_implicit_find_path(ws, &sp, NULL, start, SOLVED, path, 64, &res) == ASTAR_OK);
  CHECK(res.cost == cost);
  astar_workspace_free(ws);

  /* Arguments. */
  ws = new_ws(10, 0);
  if (!ws) return;
  CHECK(astar_workspace_reserve_states(ws, 0, 4, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_workspace_reserve_states(ws, 10, 0, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_workspace_reserve_states(ws, (1u << 30) + 1, 4, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_workspace_reserve_states(NULL, 10, 4, 0) == ASTAR_INVALID_ARGUMENT);
  const astar_implicit wide = {&ops, NULL, 99, 0};
  CHECK(astar_implicit_find_path(ws, &wide, NULL, start, SOLVED, path, 64, &res) == ASTAR_CAPACITY);
  CHECK(astar_implicit_find_path(ws, NULL, NULL, start, SOLVED, path, 64, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_implicit_find_path(ws, &sp, NULL, SOLVED, SOLVED, path, 64, &res) == ASTAR_OK);
  CHECK(res.length == 1 && path[0] == SOLVED && res.stats.expanded == 1); /* the test ran */
  astar_workspace_free(ws);
  astar_grid *tiny;
  CHECK(astar_grid_new(&tiny, 1, 1, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&ws, tiny, NULL) == ASTAR_OK);
  CHECK(astar_implicit_find_path(ws, &sp, NULL, start, SOLVED, path, 64, &res) == ASTAR_CAPACITY);
  astar_workspace_free(ws);
  astar_grid_free(tiny);
}

/* Allocation failure at every allocation of the reservation; searching
** makes no allocator call. */
static void test_failalloc(void) {
  const astar_implicit sp = {&puzzle_ops, NULL, 4, ASTAR_SPACE_CONSISTENT};
  astar_grid *tiny;
  CHECK(astar_grid_new(&tiny, 1, 1, NULL) == ASTAR_OK);
  int succeeded = 0;
  for (long k = 1; k < 40 && !succeeded; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, tiny, &a) == ASTAR_OK);
    if (!ws) break;
    failalloc_fail_in(&fa, k);
    const astar_status st = astar_workspace_reserve_states(ws, 5000, 4, ASTAR_RESERVE_BACKWARD);
    astar_state path[64];
    astar_engine_result res;
    if (st == ASTAR_OK) {
      succeeded = 1;
      const long calls = fa.calls;
      rng r;
      rng_seed(&r, 5);
      CHECK(astar_implicit_find_path(ws, &sp, NULL, scramble(&r, 14), SOLVED, path, 64, &res) ==
            ASTAR_OK);
      CHECK(fa.calls == calls);
    } else {
      CHECK(st == ASTAR_NO_MEMORY);
      CHECK(astar_implicit_find_path(ws, &sp, NULL, SOLVED, SOLVED, path, 64, &res) ==
            ASTAR_CAPACITY);
    }
    astar_workspace_free(ws);
    CHECKF(fa.blocks == 0 && fa.osize_mismatches == 0, "failure %ld: %ld blocks", k, fa.blocks);
  }
  CHECK(succeeded);
  astar_grid_free(tiny);
}

int main(void) {
  RUN(test_puzzle_optimal);
  RUN(test_goal_test_and_full_table);
  RUN(test_failalloc);
  return check_summary();
}
