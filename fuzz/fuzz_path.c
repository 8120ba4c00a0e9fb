/*
** fuzz/fuzz_path.c -- libFuzzer harness for the path decoder of
** astar/path.h (astar_path_decode, astar_path_info_of): the input is the
** bytes to decode, as they would come from a save file or the network.
**
** Checks, besides what the sanitizers see: the decoder returns ASTAR_OK,
** ASTAR_PARSE_ERROR or ASTAR_BUFFER_TOO_SMALL (more cells than the 64 K
** cells given, the header's count reported) and never writes beyond the
** buffer (guard cells); the header reader agrees with the decoder; a
** decoded path is a unit-step path that every encoding carries back
** unchanged, its own encoding included, and whose turn points expand back
** to it. The seeds (fuzz/corpus/path/) are encodings of real paths.
*/
#include "fuzz_common.h"

#include <string.h>

#define CELLS (64u << 10) /* decode buffer: beyond this, BUFFER_TOO_SMALL */
#define GUARD 4u

static astar_point cells[CELLS + GUARD], again[CELLS], points[CELLS];
static uint8_t bytes[CELLS * 8u + 64u];

static bool same(const astar_point *a, const astar_point *b, size_t n) {
  return memcmp(a, b, n * sizeof *a) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (unsigned g = 0; g < GUARD; g++) cells[CELLS + g] = (astar_point){-3, -3};
  size_t n = 0;
  const astar_status st = astar_path_decode(data, size, cells, CELLS, &n);
  FUZZ_CHECK(st == ASTAR_OK || st == ASTAR_PARSE_ERROR || st == ASTAR_BUFFER_TOO_SMALL, "status %d",
             (int)st);
  for (unsigned g = 0; g < GUARD; g++) FUZZ_CHECK(cells[CELLS + g].x == -3, "guard %u", g);
  astar_path_info info;
  const astar_status hs = astar_path_info_of(data, size, &info);
  if (st != ASTAR_PARSE_ERROR || hs == ASTAR_OK) FUZZ_CHECK(hs == ASTAR_OK, "header %d", (int)hs);
  if (st == ASTAR_BUFFER_TOO_SMALL) FUZZ_CHECK(n > CELLS && n == info.cells, "n %zu", n);
  if (st != ASTAR_OK) return 0;
  FUZZ_CHECK(n == info.cells && n >= 1, "n %zu vs header %zu", n, info.cells);
  FUZZ_CHECK(cells[0].x == info.start.x && cells[0].y == info.start.y, "start");
  for (size_t i = 1; i < n; i++) {
    const int64_t dx = (int64_t)cells[i].x - cells[i - 1].x;
    const int64_t dy = (int64_t)cells[i].y - cells[i - 1].y;
    FUZZ_CHECK(dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx || dy), "step %zu", i);
  }
  for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) {
    size_t len = 0, m = 0;
    FUZZ_CHECK(astar_path_encode(cells, n, (astar_path_encoding)e, bytes, sizeof bytes, &len) ==
                   ASTAR_OK,
               "encode %d", e);
    FUZZ_CHECK(astar_path_decode(bytes, len, again, CELLS, &m) == ASTAR_OK && m == n &&
                   same(again, cells, n),
               "round trip %d", e);
  }
  size_t m = 0, k = 0;
  FUZZ_CHECK(astar_path_turn_points(cells, n, again, CELLS, &m) == ASTAR_OK, "turn points");
  memcpy(points, again, m * sizeof *again);
  FUZZ_CHECK(astar_path_expand_turn_points(points, m, again, CELLS, &k) == ASTAR_OK && k == n &&
                 same(again, cells, n),
             "turn points back");
  return 0;
}
