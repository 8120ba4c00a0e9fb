/*
** fuzz/fuzz_ascii_map.c -- libFuzzer harness for the plain ASCII map parser
** (astar_ascii_parse_map) and the auto-detecting astar_parse_map
** (astar/format.h). The input is the text. Checks, besides what the
** sanitizers see: a failure leaves *out NULL, a well-formed error record and
** no memory held; a parsed grid has its 'S' and 'G' on passable cells (or
** (-1, -1)), terrain only from the digits 1..9, and prints back as an ASCII
** text that parses to the same grid and endpoints; astar_parse_map gives
** exactly what one of the two format parsers gives; and the parse fails
** cleanly (ASTAR_NO_MEMORY, nothing held) when any one of its allocations
** is refused.
*/
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

/* Most bytes one parse may hold (the grid of a text is about its size). */
#define MAP_LIMIT ((size_t)64 << 20)

/* The grid as an ASCII map ('#' blocked, '.' terrain 1, digits for the
** other terrains, 'S' and 'G' at the endpoints); malloc'ed, length in *len. */
static char *print_map(const astar_grid *g, astar_point s, astar_point t, size_t *len) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  char *text = malloc((size_t)h * ((size_t)w + 1));
  FUZZ_CHECK(text != NULL, "out of memory for a %dx%d text", (int)w, (int)h);
  size_t at = 0;
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      text[at++] = fuzz_cell_char(astar_grid_passable(g, x, y), (astar_point){x, y}, s, t,
                                  astar_grid_terrain(g, x, y));
    }
    text[at++] = '\n';
  }
  *len = at;
  return text;
}

/* The promises about a parsed grid and its endpoints. */
static void check_grid(const astar_grid *g, astar_point s, astar_point t) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      const float c = astar_grid_terrain(g, x, y);
      FUZZ_CHECK(c >= 1.0f && c <= 9.0f && c == (float)(int)c, "terrain %g at (%d,%d)", (double)c,
                 (int)x, (int)y);
    }
  }
  const astar_point none = {-1, -1};
  FUZZ_CHECK(fuzz_same_point(s, none) || astar_grid_passable(g, s.x, s.y), "start (%d,%d)",
             (int)s.x, (int)s.y);
  FUZZ_CHECK(fuzz_same_point(t, none) || astar_grid_passable(g, t.x, t.y), "goal (%d,%d)", (int)t.x,
             (int)t.y);
  FUZZ_CHECK(fuzz_same_point(s, none) || !fuzz_same_point(s, t), "start and goal on one cell");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, MAP_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_grid *g = (astar_grid *)&fa; /* not NULL: the parser must store NULL on failure */
  astar_point s = {7, 7}, t = {7, 7};
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  const astar_status st = astar_ascii_parse_map(&g, text, size, &a, &s, &t, &err);
  fuzz_check_parse_error(st, &err, text, size, "ascii map");
  if (st != ASTAR_OK) {
    FUZZ_CHECK(g == NULL, "failed parse (%s) left a grid", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed parse");
  } else {
    check_grid(g, s, t);
    size_t len;
    char *again = print_map(g, s, t, &len);
    astar_grid *g2 = NULL;
    astar_point s2, t2;
    FUZZ_CHECK(astar_ascii_parse_map(&g2, again, len, NULL, &s2, &t2, NULL) == ASTAR_OK,
               "the printed map does not parse");
    fuzz_expect_same_grid(g, g2, "printed and parsed again");
    FUZZ_CHECK(fuzz_same_point(s, s2) && fuzz_same_point(t, t2),
               "endpoints printed and parsed again");
    astar_grid_free(g2);
    free(again);
  }

  /* Auto-detection gives what the Moving AI or the ASCII parser gives. */
  astar_grid *ga = NULL, *gm = NULL;
  astar_point sa = {7, 7}, ta = {7, 7};
  const astar_status sta = astar_parse_map(&ga, text, size, NULL, &sa, &ta, NULL);
  const astar_status stm = astar_movingai_parse_map(&gm, text, size, NULL, NULL);
  const bool as_ascii =
      sta == st && (st != ASTAR_OK || (fuzz_same_point(s, sa) && fuzz_same_point(t, ta)));
  const bool as_movingai = sta == stm && (stm != ASTAR_OK || (sa.x == -1 && ta.x == -1));
  FUZZ_CHECK(as_ascii || as_movingai, "astar_parse_map: %s; ascii: %s; movingai: %s",
             astar_strerror(sta), astar_strerror(st), astar_strerror(stm));
  FUZZ_CHECK(st != ASTAR_OK || stm != ASTAR_OK, "a text valid in both formats");
  if (sta == ASTAR_OK) { /* a text is never both: only one parse succeeded */
    if (st == ASTAR_OK)
      fuzz_expect_same_grid(ga, g, "astar_parse_map as ascii");
    else
      fuzz_expect_same_grid(ga, gm, "astar_parse_map as movingai");
  }
  astar_grid_free(ga);
  astar_grid_free(gm);
  if (st != ASTAR_OK) return 0;
  astar_grid_free(g);
  fuzz_alloc_expect_empty(&fa, "freed grid");

  /* Refuse one of the parse's allocations: a clean ASTAR_NO_MEMORY. */
  if (fa.calls > 0) {
    fuzz_alloc fb;
    fuzz_alloc_init(&fb, MAP_LIMIT);
    fb.fail_at = 1 + fuzz_hash(data, size) % fa.calls;
    const astar_allocator b = fuzz_allocator(&fb);
    astar_grid *g4 = (astar_grid *)&fb;
    const astar_status st4 = astar_ascii_parse_map(&g4, text, size, &b, &s, &t, &err);
    FUZZ_CHECK(st4 == ASTAR_NO_MEMORY && g4 == NULL, "allocation %llu of %llu refused: %s",
               (unsigned long long)fb.fail_at, (unsigned long long)fa.calls, astar_strerror(st4));
    fuzz_alloc_expect_empty(&fb, "parse with a refused allocation");
  }
  return 0;
}
