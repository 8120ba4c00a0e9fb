/*
** fuzz/fuzz_movingai_map.c -- libFuzzer harness for the Moving AI .map
** parser (astar_movingai_parse_map, astar/format.h). The input is the text.
** Checks, besides what the sanitizers see: a failure leaves *out NULL,
** a well-formed error record and no memory held; a parsed grid holds no
** terrain layer, prints back as a Moving AI text that parses to the same
** grid, and is what the auto-detecting astar_parse_map gives; and the
** parse fails cleanly (ASTAR_NO_MEMORY, nothing held) when any one of its
** allocations is refused.
*/
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most bytes one parse may hold (the grid of a text is about its size). */
#define MAP_LIMIT ((size_t)64 << 20)

/* The grid as a Moving AI text ('.' passable, '@' blocked); malloc'ed, its
** length in *len. */
static char *print_map(const astar_grid *g, size_t *len) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const size_t cap = 64 + (size_t)h * ((size_t)w + 1);
  char *text = malloc(cap);
  FUZZ_CHECK(text != NULL, "out of memory for a %dx%d text", (int)w, (int)h);
  int n = snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", (int)h, (int)w);
  size_t at = (size_t)n;
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) text[at++] = astar_grid_passable(g, x, y) ? '.' : '@';
    text[at++] = '\n';
  }
  *len = at;
  return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, MAP_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_grid *g = (astar_grid *)&fa; /* not NULL: the parser must store NULL on failure */
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  const astar_status st = astar_movingai_parse_map(&g, text, size, &a, &err);
  fuzz_check_parse_error(st, &err, text, size, "movingai map");
  if (st != ASTAR_OK) {
    FUZZ_CHECK(g == NULL, "failed parse (%s) left a grid", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed parse");
    return 0;
  }
  FUZZ_CHECK(!astar_grid_has_terrain(g), "a Moving AI map has no terrain");
  FUZZ_CHECK(astar_grid_count_passable(g) <=
                 (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g),
             "more passable cells than cells");

  /* Printed back and parsed again: the same grid. */
  size_t len;
  char *again = print_map(g, &len);
  astar_grid *g2 = NULL;
  FUZZ_CHECK(astar_movingai_parse_map(&g2, again, len, NULL, NULL) == ASTAR_OK,
             "the printed map does not parse");
  fuzz_expect_same_grid(g, g2, "printed and parsed again");
  astar_grid_free(g2);
  free(again);

  /* Auto-detection: a Moving AI text is read as one. */
  astar_point s = {7, 7}, t = {7, 7};
  astar_grid *g3 = NULL;
  FUZZ_CHECK(astar_parse_map(&g3, text, size, NULL, &s, &t, NULL) == ASTAR_OK,
             "astar_parse_map refuses a valid Moving AI map");
  fuzz_expect_same_grid(g, g3, "astar_parse_map");
  FUZZ_CHECK(s.x == -1 && s.y == -1 && t.x == -1 && t.y == -1, "Moving AI start/goal not (-1,-1)");
  astar_grid_free(g3);

  astar_grid_free(g);
  fuzz_alloc_expect_empty(&fa, "freed grid");

  /* Refuse one of the parse's allocations: a clean ASTAR_NO_MEMORY. */
  if (fa.calls > 0) {
    fuzz_alloc fb;
    fuzz_alloc_init(&fb, MAP_LIMIT);
    fb.fail_at = 1 + fuzz_hash(data, size) % fa.calls;
    const astar_allocator b = fuzz_allocator(&fb);
    astar_grid *g4 = (astar_grid *)&fb;
    const astar_status st4 = astar_movingai_parse_map(&g4, text, size, &b, &err);
    FUZZ_CHECK(st4 == ASTAR_NO_MEMORY && g4 == NULL, "allocation %llu of %llu refused: %s",
               (unsigned long long)fb.fail_at, (unsigned long long)fa.calls, astar_strerror(st4));
    fuzz_alloc_expect_empty(&fb, "parse with a refused allocation");
  }
  return 0;
}
