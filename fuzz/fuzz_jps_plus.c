/*
** fuzz/fuzz_jps_plus.c -- libFuzzer harness for the JPS+ loader
** (astar_jps_plus_load, astar/jps_plus.h), the verifier and searches on
** loaded tables.
**
** Input (binary): a header, the grid, then the bytes to load.
**   byte 0      flags: 1 reseal the whole-file checksum after the edits
**               below, 2 stamp the grid's true cell checksum (bytes 24..31),
**               4 stamp the grid's width and height (bytes 12..19) -- so
**               that mutations get past the checks a random edit fails
**   bytes 1, 2  width and height: 1 + value % 40
**   bytes 3..6  a query: start x, y and goal x, y (modulo the size)
**   byte 7      the search options (a table of variants below)
**   then        the grid, one bit a cell, row-major, 1 = blocked
**   the rest    the bytes handed to astar_jps_plus_load
** The seeds (fuzz/make_seeds.c) are crops of real maps followed by what
** astar_jps_plus_save makes of them.
**
** Checks, besides what the sanitizers see: the load returns ASTAR_OK,
** ASTAR_PARSE_ERROR or ASTAR_MISMATCH, leaving NULL and nothing held on
** failure, and accepts the bytes astar_jps_plus_save makes; a loaded table
** is searched without harm whatever it holds (the trust model of the
** header); astar_jps_plus_verify accepts exactly the tables that save back
** to the bytes a fresh astar_jps_plus_new saves; on a verified table the
** search costs what the reference Dijkstra finds (within the weight's bound)
** and refuses exactly the options astar_unsupported_reason refuses; and
** refusing one of the load's allocations fails it cleanly.
*/
#include "fuzz_common.h"
#include "util/dijkstra.h"
#include "util/validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JPP_LIMIT ((size_t)64 << 20)
#define HEADER_BYTES 8u
#define MAX_SIDE 40

/* The whole-file checksum of the byte format, as src/search/jps_plus.c
** defines it (as tests/test_jps_plus.c re-derives it): a multiply-xorshift
** hash of bytes 0..31, then of the data from byte 40 on, 8 bytes a word,
** little-endian, stored at byte 32. */
static uint64_t rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static void wr64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
  return h ^ (h >> 29);
}

static void reseal(uint8_t *buf, size_t len) {
  uint64_t h = UINT64_C(0x243f6a8885a308d3);
  for (size_t i = 0; i < 32; i += 8) h = mix(h, rd64(buf + i));
  for (size_t i = 40; i + 8 <= len; i += 8) h = mix(h, rd64(buf + i));
  wr64(buf + 32, h);
}

/* The search options: variant v of a table of settings within and just
** outside JPS+'s rules. */
static void pick_options(astar_options *o, uint8_t v) {
  astar_options_init(o);
  switch (v % 12) {
  case 1:
    o->diagonal_cost = 1;
    break;
  case 2:
    o->diagonal_cost = 1.9;
    break;
  case 3:
    o->straight_cost = 2, o->diagonal_cost = 3;
    break;
  case 4:
    o->weight = 0;
    break;
  case 5:
    o->weight = 2;
    break;
  case 6:
    o->tie = ASTAR_TIE_NEWEST;
    break;
  case 7:
    o->tie = ASTAR_TIE_CROSS;
    break;
  case 8:
    o->diagonal_cost = 2;
    break; /* outside the rules */
  case 9:
    o->moves = 4;
    break; /* outside the rules */
  case 10:
    o->heuristic = ASTAR_H_ZERO;
    break;
  case 11:
    o->max_expansions = 1 + v / 12;
    break;
  default:
    break;
  }
}

/* Search with `pre`; when the table is verified, compare with the reference. */
static void check_search(const astar_jps_plus *pre, const astar_grid *g, bool verified,
                         const astar_options *o, astar_point s, astar_point t) {
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, JPP_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_workspace *ws = NULL;
  if (astar_workspace_new(&ws, g, &a) != ASTAR_OK) {
    fuzz_alloc_expect_empty(&fa, "failed workspace");
    return;
  }
  const size_t cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
  astar_point *path = malloc(sizeof *path * cap);
  FUZZ_CHECK(path != NULL, "out of memory for a path");
  astar_result r;
  const astar_status st = astar_jps_plus_find_path(ws, pre, g, o, s, t, path, cap, &r);
  astar_options as_jps = *o;
  as_jps.algorithm = ASTAR_ALGO_JPS;
  const char *why = astar_unsupported_reason(&as_jps, g);
  if (verified) {
    FUZZ_CHECK((st == ASTAR_UNSUPPORTED) == (why != NULL), "%s; reason: %s", astar_strerror(st),
               why ? why : "none");
    const double ref = ref_dijkstra(g, o, s, t);
    const bool cut = o->max_expansions > 0 && st == ASTAR_LIMIT_REACHED;
    if (why == NULL && !cut && astar_grid_passable(g, s.x, s.y) &&
        astar_grid_passable(g, t.x, t.y)) {
      if (ref < 0) {
        FUZZ_CHECK(st == ASTAR_NO_PATH, "(%d,%d) -> (%d,%d): %s, the reference finds no path",
                   (int)s.x, (int)s.y, (int)t.x, (int)t.y, astar_strerror(st));
      } else {
        FUZZ_CHECK(st == ASTAR_OK, "(%d,%d) -> (%d,%d): %s, the reference costs %.17g", (int)s.x,
                   (int)s.y, (int)t.x, (int)t.y, astar_strerror(st), ref);
        char err[160];
        FUZZ_CHECK(validate_path(g, o, s, t, path, r.length, r.cost, err, sizeof err), "%s", err);
        const double bound = o->weight > 1 ? o->weight : 1;
        FUZZ_CHECK(r.cost >= ref * (1 - 1e-9) && r.cost <= bound * ref * (1 + 1e-9),
                   "(%d,%d) -> (%d,%d): cost %.17g, the reference %.17g (bound x%g)", (int)s.x,
                   (int)s.y, (int)t.x, (int)t.y, r.cost, ref, bound);
      }
    }
  }
  free(path);
  astar_workspace_free(ws);
  fuzz_alloc_expect_empty(&fa, "freed workspace");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_bytes in = {data, size};
  const uint8_t flags = fuzz_u8(&in);
  const int32_t w = 1 + fuzz_u8(&in) % MAX_SIDE, h = 1 + fuzz_u8(&in) % MAX_SIDE;
  const astar_point s = {fuzz_u8(&in) % w, fuzz_u8(&in) % h};
  const astar_point t = {fuzz_u8(&in) % w, fuzz_u8(&in) % h};
  astar_options opt;
  pick_options(&opt, fuzz_u8(&in));
  astar_grid *g = NULL;
  FUZZ_CHECK(astar_grid_new(&g, w, h, NULL) == ASTAR_OK, "grid %dx%d", (int)w, (int)h);
  uint8_t bits = 0;
  for (int32_t i = 0; i < w * h; i++) {
    if (i % 8 == 0) bits = fuzz_u8(&in);
    if ((bits >> (i % 8)) & 1) astar_grid_set_passable(g, i % w, i / w, false);
  }

  /* What a fresh precomputation saves. */
  astar_jps_plus *built = NULL;
  FUZZ_CHECK(astar_jps_plus_new(&built, g, NULL) == ASTAR_OK, "astar_jps_plus_new");
  size_t good_len = 0;
  FUZZ_CHECK(astar_jps_plus_save(built, NULL, 0, &good_len) == ASTAR_BUFFER_TOO_SMALL, "size");
  uint8_t *good = malloc(good_len + 1);
  FUZZ_CHECK(good && astar_jps_plus_save(built, good, good_len, &good_len) == ASTAR_OK, "save");

  /* The bytes to load, with the stamps the flags ask for. */
  const size_t len = in.n;
  uint8_t *buf = malloc(len ? len : 1);
  FUZZ_CHECK(buf != NULL, "out of memory");
  if (len) memcpy(buf, in.p, len);
  if ((flags & 4) && len >= 20) memcpy(buf + 12, good + 12, 8);
  if ((flags & 2) && len >= 32) memcpy(buf + 24, good + 24, 8);
  if ((flags & 1) && len >= 40) reseal(buf, len);

  fuzz_alloc fa;
  fuzz_alloc_init(&fa, JPP_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_jps_plus *pre = (astar_jps_plus *)&fa; /* not NULL: must become NULL on failure */
  const astar_status st = astar_jps_plus_load(&pre, g, buf, len, &a);
  bool checked = false; /* a verified table was searched and checked */
  const bool genuine = len == good_len && memcmp(buf, good, len) == 0;
  FUZZ_CHECK(st == ASTAR_OK || st == ASTAR_PARSE_ERROR || st == ASTAR_MISMATCH, "load: %s",
             astar_strerror(st));
  FUZZ_CHECK(!genuine || st == ASTAR_OK, "the saved bytes do not load: %s", astar_strerror(st));
  if (st != ASTAR_OK) {
    FUZZ_CHECK(pre == NULL, "failed load (%s) left a table", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed load");
  } else {
    const astar_status v = astar_jps_plus_verify(pre, g);
    FUZZ_CHECK(v == ASTAR_OK || v == ASTAR_PARSE_ERROR, "verify: %s", astar_strerror(v));
    /* Verified exactly when it is the fresh table: it saves back to the same bytes. */
    uint8_t *back = malloc(good_len + 1);
    size_t back_len = 0;
    FUZZ_CHECK(back && astar_jps_plus_save(pre, back, good_len, &back_len) == ASTAR_OK &&
                   back_len == good_len,
               "a loaded table does not save");
    const bool same = memcmp(back, good, good_len) == 0;
    FUZZ_CHECK((v == ASTAR_OK) == same, "verify says %s of a table that is %s the fresh one",
               astar_strerror(v), same ? "" : "not");
    FUZZ_CHECK(!genuine || v == ASTAR_OK, "the saved bytes do not verify");
    free(back);
    check_search(pre, g, v == ASTAR_OK, &opt, s, t);
    checked = v == ASTAR_OK;
    astar_jps_plus_free(pre);
    fuzz_alloc_expect_empty(&fa, "freed table");

    /* Refuse one of the load's allocations: a clean ASTAR_NO_MEMORY. */
    fuzz_alloc fb;
    fuzz_alloc_init(&fb, JPP_LIMIT);
    fb.fail_at = 1 + fuzz_hash(data, size) % (fa.calls ? fa.calls : 1);
    const astar_allocator b = fuzz_allocator(&fb);
    astar_jps_plus *p2 = (astar_jps_plus *)&fb;
    const astar_status st2 = astar_jps_plus_load(&p2, g, buf, len, &b);
    FUZZ_CHECK(st2 == ASTAR_NO_MEMORY && p2 == NULL, "allocation %llu of %llu refused: %s",
               (unsigned long long)fb.fail_at, (unsigned long long)fa.calls, astar_strerror(st2));
    fuzz_alloc_expect_empty(&fb, "load with a refused allocation");
  }
  /* The fresh table itself, searched and checked like a verified one
  ** (when the loaded table was not that already). */
  if (!checked) check_search(built, g, true, &opt, s, t);
  free(buf);
  free(good);
  astar_jps_plus_free(built);
  astar_grid_free(g);
  return 0;
}
