/*
** fuzz/fuzz_hex_map.c -- libFuzzer harness for the ASCII hex map parser
** (astar_hex_parse_map, astar/hex.h), and for searches on what it parses.
** The input is the text. Checks, besides what the sanitizers see: a
** failure leaves *out NULL, a well-formed error record and no memory held;
** a parsed map is recognised by astar_hex_is_map, has its 'S' and 'G' on
** passable cells (or (-1, -1)) and terrain only from the digits 1..9, and
** prints back as a hex map that parses to the same map; an A* search of the
** map as a space (astar_hex_space, the engine) from S to G -- or between two
** cells picked by a hash of the input -- costs what a plain Dijkstra over
** the same space finds, on a path of real arcs; and the parse fails cleanly
** (ASTAR_NO_MEMORY, nothing held) when any one of its allocations is
** refused.
*/
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most bytes one parse or search may hold. */
#define HEX_LIMIT ((size_t)64 << 20)
/* Maps up to this many cells are searched (the reference is not fast). */
#define HEX_SEARCH_CELLS 20000u

/* The map as hex map text, every cell followed by a space; malloc'ed,
** length in *len. */
static char *print_map(const astar_hex_grid *g, astar_point s, astar_point t, size_t *len) {
  const int32_t w = astar_hex_grid_width(g), h = astar_hex_grid_height(g);
  const bool flat = astar_hex_grid_orientation(g) == ASTAR_HEX_FLAT;
  const bool even = astar_hex_grid_layout(g) == ASTAR_HEX_EVEN;
  const size_t cap = 32 + (size_t)h * (2 * (size_t)w + 1);
  char *text = malloc(cap);
  FUZZ_CHECK(text != NULL, "out of memory for a %dx%d text", (int)w, (int)h);
  size_t at = (size_t)snprintf(text, cap, "hex %s %s-%c\n", flat ? "flat" : "pointy",
                               even ? "even" : "odd", flat ? 'q' : 'r');
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      text[at++] = fuzz_cell_char(astar_hex_grid_passable(g, x, y), (astar_point){x, y}, s, t,
                                  astar_hex_grid_terrain(g, x, y));
      text[at++] = ' ';
    }
    text[at++] = '\n';
  }
  *len = at;
  return text;
}

static void expect_same_map(const astar_hex_grid *a, const astar_hex_grid *b) {
  const int32_t w = astar_hex_grid_width(a), h = astar_hex_grid_height(a);
  FUZZ_CHECK(w == astar_hex_grid_width(b) && h == astar_hex_grid_height(b) &&
                 astar_hex_grid_orientation(a) == astar_hex_grid_orientation(b) &&
                 astar_hex_grid_layout(a) == astar_hex_grid_layout(b),
             "printed and parsed again: another shape");
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      FUZZ_CHECK(astar_hex_grid_passable(a, x, y) == astar_hex_grid_passable(b, x, y) &&
                     astar_hex_grid_terrain(a, x, y) == astar_hex_grid_terrain(b, x, y),
                 "printed and parsed again: cell (%d,%d)", (int)x, (int)y);
}

/* A passable cell picked by `pick`, or (-1, -1) when none is. */
static astar_point pick_cell(const astar_hex_grid *g, uint64_t pick) {
  const int32_t w = astar_hex_grid_width(g), h = astar_hex_grid_height(g);
  const uint64_t n = (uint64_t)w * (uint64_t)h;
  for (uint64_t k = 0; k < n; k++) {
    const uint64_t i = (pick + k) % n;
    const astar_point p = {(int32_t)(i % (uint64_t)w), (int32_t)(i / (uint64_t)w)};
    if (astar_hex_grid_passable(g, p.x, p.y)) return p;
  }
  const astar_point none = {-1, -1};
  return none;
}

/* Search from s to t with the engine's A* and compare with the reference. */
static void check_search(const astar_hex_grid *g, astar_point s, astar_point t) {
  astar_space space;
  FUZZ_CHECK(astar_hex_space(g, &space) == ASTAR_OK, "astar_hex_space");
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, HEX_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_workspace *ws = NULL;
  if (astar_workspace_new_empty(&ws, &a) != ASTAR_OK ||
      astar_workspace_reserve_space(ws, &space, 0) != ASTAR_OK) {
    astar_workspace_free(ws);
    fuzz_alloc_expect_empty(&fa, "failed workspace");
    return;
  }
  const astar_node sn = astar_hex_grid_node(g, s), tn = astar_hex_grid_node(g, t);
  astar_node *path = malloc(sizeof *path * space.node_count);
  FUZZ_CHECK(path != NULL, "out of memory for a path");
  astar_engine_result r;
  const astar_status st =
      astar_space_find_path(ws, &space, NULL, sn, tn, path, space.node_count, &r);
  const double ref = fuzz_space_dijkstra(&space, sn, tn);
  if (ref < 0) {
    FUZZ_CHECK(st == ASTAR_NO_PATH, "(%d,%d) -> (%d,%d): %s, the reference finds no path", (int)s.x,
               (int)s.y, (int)t.x, (int)t.y, astar_strerror(st));
  } else {
    FUZZ_CHECK(st == ASTAR_OK && fuzz_cost_equal(r.cost, ref),
               "(%d,%d) -> (%d,%d): %s cost %.17g, the reference %.17g", (int)s.x, (int)s.y,
               (int)t.x, (int)t.y, astar_strerror(st), r.cost, ref);
    FUZZ_CHECK(r.length >= 1 && path[0] == sn && path[r.length - 1] == tn, "path ends");
    /* Every step is an arc of the space; their costs add up to r.cost. */
    astar_arc arcs[6];
    double sum = 0;
    for (size_t i = 1; i < r.length; i++) {
      const size_t k = space.ops->successors(space.self, path[i - 1], arcs, 6);
      double best = -1;
      for (size_t j = 0; j < k; j++)
        if (arcs[j].node == path[i] && (best < 0 || arcs[j].cost < best)) best = arcs[j].cost;
      FUZZ_CHECK(best >= 0, "step %zu of the path is not an arc", i);
      sum += best;
    }
    FUZZ_CHECK(fuzz_cost_equal(sum, r.cost), "path sums to %.17g, reported %.17g", sum, r.cost);
  }
  free(path);
  astar_workspace_free(ws);
  fuzz_alloc_expect_empty(&fa, "freed workspace");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, HEX_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_hex_grid *g = (astar_hex_grid *)&fa; /* not NULL: must become NULL on failure */
  astar_point s = {7, 7}, t = {7, 7};
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  const astar_status st = astar_hex_parse_map(&g, text, size, &a, &s, &t, &err);
  fuzz_check_parse_error(st, &err, text, size, "hex map");
  if (st != ASTAR_OK) {
    FUZZ_CHECK(g == NULL, "failed parse (%s) left a map", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed parse");
    return 0;
  }
  FUZZ_CHECK(astar_hex_is_map(text, size), "a parsed map is not recognised as one");
  const astar_point none = {-1, -1};
  FUZZ_CHECK(fuzz_same_point(s, none) || astar_hex_grid_passable(g, s.x, s.y), "start");
  FUZZ_CHECK(fuzz_same_point(t, none) || astar_hex_grid_passable(g, t.x, t.y), "goal");
  const int32_t w = astar_hex_grid_width(g), h = astar_hex_grid_height(g);
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      const float c = astar_hex_grid_terrain(g, x, y);
      FUZZ_CHECK(c >= 1.0f && c <= 9.0f && c == (float)(int)c, "terrain %g at (%d,%d)", (double)c,
                 (int)x, (int)y);
    }
  }

  size_t len;
  char *again = print_map(g, s, t, &len);
  astar_hex_grid *g2 = NULL;
  astar_point s2, t2;
  FUZZ_CHECK(astar_hex_parse_map(&g2, again, len, NULL, &s2, &t2, NULL) == ASTAR_OK,
             "the printed map does not parse");
  expect_same_map(g, g2);
  FUZZ_CHECK(fuzz_same_point(s, s2) && fuzz_same_point(t, t2),
             "endpoints printed and parsed again");
  astar_hex_grid_free(g2);
  free(again);

  if ((uint64_t)w * (uint64_t)h <= HEX_SEARCH_CELLS) {
    const uint64_t hash = fuzz_hash(data, size);
    const astar_point from = s.x >= 0 ? s : pick_cell(g, hash);
    const astar_point to = t.x >= 0 ? t : pick_cell(g, hash >> 32);
    if (from.x >= 0 && to.x >= 0) check_search(g, from, to);
  }
  astar_hex_grid_free(g);
  fuzz_alloc_expect_empty(&fa, "freed map");

  /* Refuse one of the parse's allocations: a clean ASTAR_NO_MEMORY. */
  if (fa.calls > 0) {
    fuzz_alloc fb;
    fuzz_alloc_init(&fb, HEX_LIMIT);
    fb.fail_at = 1 + fuzz_hash(data, size) % fa.calls;
    const astar_allocator b = fuzz_allocator(&fb);
    astar_hex_grid *g4 = (astar_hex_grid *)&fb;
    const astar_status st4 = astar_hex_parse_map(&g4, text, size, &b, &s, &t, &err);
    FUZZ_CHECK(st4 == ASTAR_NO_MEMORY && g4 == NULL, "allocation %llu of %llu refused: %s",
               (unsigned long long)fb.fail_at, (unsigned long long)fa.calls, astar_strerror(st4));
    fuzz_alloc_expect_empty(&fb, "parse with a refused allocation");
  }
  return 0;
}
