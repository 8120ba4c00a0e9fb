/*
** test_path.c -- storing paths (astar/path.h). Encodings: round trips of
** every encoding on thousands of seeded random unit-step paths (8- and
** 4-connected, long runs, every direction and turn, 1- and 2-cell paths,
** negative and wide coordinates); sizes against a size model re-derived
** here from the format text; exact bytes of hand-checked small cases
** (Patel's N6 W3 N5 W2 example); every truncation, trailing bytes, padding
** bits, random byte damage and crafted headers (huge step counts, runs
** leaving int32) give a status and never a bad read or write;
** BUFFER_TOO_SMALL semantics with guard cells. Turn points against the
** definition, their expansion back, in place. The K-step cursor against a
** full search and the reference Dijkstra on random maps: the walked path
** is legal and costs the optimum, the plan count is ceil(steps / K), and a
** blocked continuation keeps the unit in place. Goal-first storage against
** a plain array model under random steps and splices, with the cells
** beyond the splice untouched. Nothing in astar/path.h allocates: the
** failing allocator sees no request during any of it.
*/
#include <astar/astar.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define MAXN 3000 /* most cells of a random path */
#define GUARD 8   /* guard cells / bytes after an output */

static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}; /* N E S W NE SE SW NW */
static const int DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

static bool pt_eq(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

static bool paths_eq(const astar_point *a, const astar_point *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!pt_eq(a[i], b[i])) return false;
  return true;
}

/* A random unit-step path of n cells: runs of random length (sometimes
** hundreds) in random directions (4 or 8), from a random start (sometimes
** negative or beyond 16 bits). */
static void random_path(rng *r, astar_point *p, size_t n, int dirs) {
  const int32_t span = rng_range(r, 0, 3) == 0 ? 100000 : 1000;
  p[0] = (astar_point){rng_range(r, -span, span), rng_range(r, -span, span)};
  if (rng_range(r, 0, 2) == 0) p[0] = (astar_point){rng_range(r, 0, 60), rng_range(r, 0, 60)};
  size_t i = 1;
  int d = rng_range(r, 0, dirs - 1);
  while (i < n) {
    const int kind = rng_range(r, 0, 9);
    int32_t run = kind == 0 ? rng_range(r, 200, 700) : kind < 4 ? 1 : rng_range(r, 1, 12);
    int nd = rng_range(r, 0, dirs - 1);
    if (rng_range(r, 0, 3) == 0) nd = d; /* a run continued: split runs must merge */
    d = nd;
    for (; run > 0 && i < n; run--, i++)
      p[i] = (astar_point){p[i - 1].x + DX[d], p[i - 1].y + DY[d]};
  }
}

/* ---- the size model: the header and payload sizes from the format text ---- */

static size_t varint_bytes(uint32_t v) {
  size_t b = 1;
  while (v >= 128) v >>= 7, b++;
  return b;
}
static uint32_t zz(int32_t v) {
  return v >= 0 ? 2u * (uint32_t)v : 2u * (uint32_t)(-(int64_t)v) - 1u;
}
static int dir_index(astar_point a, astar_point b) {
  for (int d = 0; d < 8; d++)
    if (b.x - a.x == DX[d] && b.y - a.y == DY[d]) return d;
  return -1;
}
static unsigned gamma_bits(size_t n) {
  unsigned b = 0;
  while ((n >> b) > 1) b++;
  return 2 * b + 1;
}
/* Compass eighths between directions, as the format defines turns. */
static int compass(int d) {
  static const int c[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  return c[d];
}

static size_t model_bits(const astar_point *p, size_t n, astar_path_encoding e, size_t *header) {
  bool four = true, wide = false;
  for (size_t i = 1; i < n; i++) {
    if (dir_index(p[i - 1], p[i]) >= 4) four = false;
    if (p[i].x < 0 || p[i].x > 65535 || p[i].y < 0 || p[i].y > 65535) wide = true;
  }
  *header =
      2 + varint_bytes(zz(p[0].x)) + varint_bytes(zz(p[0].y)) + varint_bytes((uint32_t)(n - 1));
  const size_t D = four ? 2 : 3, steps = n - 1;
  size_t bits = 0;
  switch (e) {
  case ASTAR_PATH_POSITIONS:
    bits = steps * (wide ? 64 : 32);
    break;
  case ASTAR_PATH_DIRECTIONS:
  case ASTAR_PATH_TURNS:
    bits = steps * D;
    break;
  default: {
    int prev = -1;
    for (size_t i = 0; i + 1 < n;) {
      const int d = dir_index(p[i], p[i + 1]);
      size_t k = i + 1;
      while (k + 1 < n && dir_index(p[k], p[k + 1]) == d) k++;
      const size_t run = k - i;
      if (e == ASTAR_PATH_RUNS) {
        bits += ((run + 255) / 256) * (D + 8);
      } else {
        if (prev < 0) {
          bits += D;
        } else if (four) {
          bits += ((d - prev) & 3) == 1 ? 1 : 2;
        } else {
          const int t = (compass(d) - compass(prev)) & 7;
          bits += (t == 1 || t == 7) ? 2 : (t == 3 || t == 5) ? 4 : 3;
        }
        bits += gamma_bits(run);
      }
      prev = d;
      i = k;
    }
  }
  }
  return bits;
}

static size_t model_size(const astar_point *p, size_t n, astar_path_encoding e) {
  size_t header;
  const size_t bits = model_bits(p, n, e, &header);
  return header + (bits + 7) / 8;
}

/* ---- encodings ---------------------------------------------------------------- */

static astar_point path_a[MAXN], cells_b[MAXN + GUARD];
static uint8_t bytes[MAXN * 8 + 64];

/* Encode, check size against the model, decode, compare; the too-small
** paths of both directions. */
static void round_trip(const astar_point *p, size_t n, astar_path_encoding e) {
  size_t len = 0, m = 0;
  CHECK_EQ(astar_path_encode(p, n, e, NULL, 0, &len), ASTAR_BUFFER_TOO_SMALL);
  CHECKF(len == model_size(p, n, e), "enc %d n %zu: %zu vs model %zu", (int)e, n, len,
         model_size(p, n, e));
  memset(bytes, 0xAB, len + GUARD);
  size_t len2 = 0;
  /* One byte short: nothing beyond cap is touched. */
  CHECK_EQ(astar_path_encode(p, n, e, bytes, len - 1, &len2), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(len2, len);
  CHECK(bytes[len - 1] == 0xAB);
  CHECK_EQ(astar_path_encode(p, n, e, bytes, len, &len2), ASTAR_OK);
  CHECK_EQ(len2, len);
  for (int g = 0; g < GUARD; g++) CHECK(bytes[len + (size_t)g] == 0xAB);
  astar_path_info info;
  CHECK_EQ(astar_path_info_of(bytes, len, &info), ASTAR_OK);
  CHECK_EQ(info.cells, n);
  CHECK((int)info.encoding == (int)e);
  CHECK(pt_eq(info.start, p[0]));
  for (size_t g = 0; g < n + GUARD; g++) cells_b[g] = (astar_point){-7, -7};
  /* Too small: well-formed bytes give the length, nothing written. */
  CHECK_EQ(astar_path_decode(bytes, len, cells_b, n - 1, &m), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(m, n);
  CHECK(cells_b[0].x == -7);
  CHECK_EQ(astar_path_decode(bytes, len, cells_b, n, &m), ASTAR_OK);
  CHECK_EQ(m, n);
  CHECKF(paths_eq(p, cells_b, n), "enc %d n %zu: decoded path differs", (int)e, n);
  CHECK(cells_b[n].x == -7);
}

static void test_round_trips(void) {
  rng r;
  rng_seed(&r, 11);
  for (int it = 0; it < 1500; it++) {
    const int dirs = (it & 1) ? 8 : 4;
    size_t n = it < 40 ? (size_t)(it % 4 + 1) : (size_t)rng_range(&r, 1, it % 10 == 0 ? MAXN : 80);
    random_path(&r, path_a, n, dirs);
    for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++)
      round_trip(path_a, n, (astar_path_encoding)e);
  }
  /* Every direction followed by every direction (every turn), both alphabets. */
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < 8; b++) {
      astar_point p[4] = {{5, 5}};
      const int d[3] = {a, b, a};
      for (int i = 1; i < 4; i++)
        p[i] = (astar_point){p[i - 1].x + DX[d[i - 1]], p[i - 1].y + DY[d[i - 1]]};
      for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) round_trip(p, 4, (astar_path_encoding)e);
    }
  /* A straight run of 70000 steps (beyond 16 bits; RUNS splits it) and
  ** coordinates at the ends of int32. */
  static astar_point longp[70001];
  longp[0] = (astar_point){-5, 0};
  for (size_t i = 1; i < 70001; i++) longp[i] = (astar_point){longp[i - 1].x + 1, 0};
  size_t len;
  CHECK_EQ(astar_path_encode(longp, 70001, ASTAR_PATH_VARIABLE, NULL, 0, &len),
           ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(len, 2 + 1 + 1 + 3 + (3 + 33 + 7) / 8); /* gamma(70000) = 33 bits */
  static uint8_t big[70001 * 8 + 32];
  static astar_point back[70001];
  for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) {
    size_t m;
    CHECK_EQ(astar_path_encode(longp, 70001, (astar_path_encoding)e, big, sizeof big, &len),
             ASTAR_OK);
    CHECK_EQ(len, model_size(longp, 70001, (astar_path_encoding)e));
    CHECK_EQ(astar_path_decode(big, len, back, 70001, &m), ASTAR_OK);
    CHECK(m == 70001 && paths_eq(back, longp, m));
  }
  astar_point edge[3] = {
      {INT32_MAX - 1, INT32_MIN}, {INT32_MAX, INT32_MIN + 1}, {INT32_MAX, INT32_MIN}};
  for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) round_trip(edge, 3, (astar_path_encoding)e);
}

static void test_hand_checked(void) {
  /* Patel 6.2.2: N 6, W 3, N 5, W 2 from (10, 20): 16 steps, 4-connected. */
  astar_point p[17] = {{10, 20}};
  const int dirs[4] = {0, 3, 0, 3}, runs[4] = {6, 3, 5, 2};
  size_t k = 1;
  for (int s = 0; s < 4; s++)
    for (int j = 0; j < runs[s]; j++, k++)
      p[k] = (astar_point){p[k - 1].x + DX[dirs[s]], p[k - 1].y + DY[dirs[s]]};
  CHECK_EQ(k, 17);
  /* Header: 2 + 1 (zigzag 20) + 1 (zigzag 40) + 1 (16 steps) = 5 bytes. */
  const size_t want[5] = {5 + 64, 5 + 4, 5 + 4, 5 + 5, 5 + 3};
  for (int e = 0; e < 5; e++) {
    size_t len;
    CHECK_EQ(astar_path_encode(p, 17, (astar_path_encoding)e, bytes, sizeof bytes, &len), ASTAR_OK);
    CHECKF(len == want[e], "encoding %d: %zu bytes", e, len);
  }
  /* (0,0) E (1,0) S (1,1): straight only, FOUR. */
  const astar_point q[3] = {{0, 0}, {1, 0}, {1, 1}};
  size_t len;
  CHECK_EQ(astar_path_encode(q, 3, ASTAR_PATH_DIRECTIONS, bytes, sizeof bytes, &len), ASTAR_OK);
  const uint8_t want_dir[6] = {0x11, 0x01, 0x00, 0x00, 0x02, 0x09}; /* E=01, S=10 */
  CHECK(len == 6 && !memcmp(bytes, want_dir, 6));
  CHECK_EQ(astar_path_encode(q, 3, ASTAR_PATH_VARIABLE, bytes, sizeof bytes, &len), ASTAR_OK);
  /* E (2 bits 01), gamma(1) "1", turn +1 "0", gamma(1) "1": 1 | 1<<2 | 1<<4. */
  const uint8_t want_var[6] = {0x14, 0x01, 0x00, 0x00, 0x02, 0x15};
  CHECK(len == 6 && !memcmp(bytes, want_var, 6));
  CHECK_EQ(astar_path_encode(q, 3, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len), ASTAR_OK);
  /* (E, 0) then (S, 0): 01 00000000 10 00000000 = 20 bits. */
  const uint8_t want_runs[8] = {0x13, 0x01, 0x00, 0x00, 0x02, 0x01, 0x08, 0x00};
  CHECK(len == 8 && !memcmp(bytes, want_runs, 8));
  /* (-1, 5) NE to (0, 4): 3-bit alphabet, zigzag -1 = 1, 5 = 10. */
  const astar_point d[2] = {{-1, 5}, {0, 4}};
  CHECK_EQ(astar_path_encode(d, 2, ASTAR_PATH_TURNS, bytes, sizeof bytes, &len), ASTAR_OK);
  const uint8_t want_turn[6] = {0x12, 0x00, 0x01, 0x0a, 0x01, 0x04};
  CHECK(len == 6 && !memcmp(bytes, want_turn, 6));
  CHECK_EQ(astar_path_encode(d, 2, ASTAR_PATH_POSITIONS, bytes, sizeof bytes, &len), ASTAR_OK);
  const uint8_t want_pos[9] = {0x10, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x00, 0x04, 0x00};
  CHECK(len == 9 && !memcmp(bytes, want_pos, 9));
  /* One cell: header only. */
  CHECK_EQ(astar_path_encode(d, 1, ASTAR_PATH_VARIABLE, bytes, sizeof bytes, &len), ASTAR_OK);
  CHECK_EQ(len, 5);
  CHECK_EQ(strcmp(astar_path_encoding_name(ASTAR_PATH_VARIABLE), "variable"), 0);
  CHECK(astar_path_encoding_name(ASTAR_PATH_ENCODING_COUNT) == NULL);
}

static void test_encode_arguments(void) {
  const astar_point jump[2] = {{0, 0}, {2, 0}}, same[2] = {{3, 3}, {3, 3}};
  size_t len;
  CHECK_EQ(astar_path_encode(jump, 2, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_encode(same, 2, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_encode(jump, 0, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_encode(NULL, 1, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_encode(jump, 1, ASTAR_PATH_ENCODING_COUNT, bytes, sizeof bytes, &len),
           ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_encode(jump, 1, ASTAR_PATH_RUNS, bytes, sizeof bytes, NULL),
           ASTAR_INVALID_ARGUMENT);
  const astar_point over[2] = {{INT32_MAX, 0}, {INT32_MIN, 0}}; /* not a unit step */
  CHECK_EQ(astar_path_encode(over, 2, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len),
           ASTAR_INVALID_ARGUMENT);
  size_t m;
  CHECK_EQ(astar_path_decode(NULL, 3, cells_b, 4, &m), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_decode(bytes, 3, NULL, 4, &m), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_decode(bytes, 3, cells_b, 4, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_decode(NULL, 0, NULL, 0, &m), ASTAR_PARSE_ERROR);
}

/* Decode damaged bytes: a status, and with OK a unit-step path of the
** header's length. */
static void damaged_ok(const uint8_t *b, size_t len) {
  size_t m = 0;
  const astar_status st = astar_path_decode(b, len, cells_b, MAXN, &m);
  CHECKF(st == ASTAR_OK || st == ASTAR_PARSE_ERROR || st == ASTAR_BUFFER_TOO_SMALL, "status %d",
         st);
  if (st == ASTAR_OK) {
    for (size_t i = 1; i < m; i++) CHECK(dir_index(cells_b[i - 1], cells_b[i]) >= 0);
  }
}

static void test_damaged(void) {
  rng r;
  rng_seed(&r, 12);
  static uint8_t copy[MAXN * 8 + 64];
  for (int it = 0; it < 300; it++) {
    const size_t n = (size_t)rng_range(&r, 1, 200);
    random_path(&r, path_a, n, (it & 1) ? 8 : 4);
    for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) {
      size_t len, m;
      CHECK_EQ(astar_path_encode(path_a, n, (astar_path_encoding)e, bytes, sizeof bytes, &len),
               ASTAR_OK);
      /* Every truncation fails, whatever the cap. */
      for (size_t t = 0; t < len; t++) {
        CHECKF(astar_path_decode(bytes, t, cells_b, MAXN, &m) == ASTAR_PARSE_ERROR,
               "enc %d trunc %zu/%zu", e, t, len);
        CHECK(astar_path_decode(bytes, t, NULL, 0, &m) == ASTAR_PARSE_ERROR);
      }
      /* A byte more fails. */
      memcpy(copy, bytes, len);
      copy[len] = 0;
      CHECK_EQ(astar_path_decode(copy, len + 1, cells_b, MAXN, &m), ASTAR_PARSE_ERROR);
      /* A padding bit set fails (when the payload has padding). */
      size_t header;
      const size_t bits = model_bits(path_a, n, (astar_path_encoding)e, &header);
      if (bits % 8) {
        copy[len - 1] = (uint8_t)(bytes[len - 1] | 0x80);
        CHECK_EQ(astar_path_decode(copy, len, cells_b, MAXN, &m), ASTAR_PARSE_ERROR);
      }
      /* Random damage: one to three bytes changed. */
      for (int k = 0; k < 20; k++) {
        memcpy(copy, bytes, len);
        const int changes = rng_range(&r, 1, 3);
        for (int c = 0; c < changes; c++)
          copy[rng_range(&r, 0, (int32_t)len - 1)] = (uint8_t)rng_range(&r, 0, 255);
        damaged_ok(copy, len);
      }
    }
  }
  /* Headers: bad version, encoding, flags; FOUR with positions, WIDE with
  ** directions; overlong and oversized varints. */
  const uint8_t bad[][8] = {{0x21, 0, 0, 0, 0},
                            {0x15, 0, 0, 0, 0},
                            {0x11, 4, 0, 0, 0},
                            {0x10, 1, 0, 0, 0},
                            {0x11, 2, 0, 0, 0},
                            {0x11, 0, 0x80, 0, 0, 0},
                            {0x11, 0, 0xff, 0xff, 0xff, 0xff, 0x1f, 0}};
  const size_t bad_len[] = {5, 5, 5, 5, 5, 6, 8};
  for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++) {
    size_t m;
    astar_path_info info;
    CHECKF(astar_path_info_of(bad[i], bad_len[i], &info) == ASTAR_PARSE_ERROR, "header %zu", i);
    CHECK_EQ(astar_path_decode(bad[i], bad_len[i], cells_b, MAXN, &m), ASTAR_PARSE_ERROR);
  }
  /* VARIABLE, start x = INT32_MIN (zigzag 0xffffffff), 2^31 steps east in
  ** one gamma run: well-formed, ends at x = 0. Checking it costs O(bytes):
  ** BUFFER_TOO_SMALL with the length at once. From x = 1 the run leaves
  ** int32: PARSE_ERROR. */
  uint8_t huge[32] = {0x14, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x80, 0x80, 0x80, 0x80, 0x08};
  /* payload: E (3 bits 001), 31 zeros, a one, 31 zero bits: 66 bits = 9 bytes. */
  size_t hl = 13;
  memset(huge + hl, 0, 9);
  huge[hl] = 0x01;     /* bits 0-2: E */
  huge[hl + 4] = 0x04; /* bit 34 (3 + 31): the one */
  hl += 9;
  size_t m = 0;
  CHECK_EQ(astar_path_decode(huge, hl, cells_b, MAXN, &m), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(m, (size_t)1 + ((size_t)1 << 31));
  /* x = 1 (zigzag 2): the same run ends beyond INT32_MAX. */
  uint8_t off[32] = {0x14, 0x00, 0x02, 0x00, 0x80, 0x80, 0x80, 0x80, 0x08};
  memcpy(off + 9, huge + 13, 9);
  CHECK_EQ(astar_path_decode(off, 18, cells_b, MAXN, &m), ASTAR_PARSE_ERROR);
  /* RUNS whose run overshoots the step count. */
  const astar_point two[3] = {{0, 0}, {1, 0}, {2, 0}};
  size_t len;
  CHECK_EQ(astar_path_encode(two, 3, ASTAR_PATH_RUNS, bytes, sizeof bytes, &len), ASTAR_OK);
  bytes[4] = 1; /* claim 1 step; the run says 2 */
  CHECK_EQ(astar_path_decode(bytes, len, cells_b, MAXN, &m), ASTAR_PARSE_ERROR);
  /* POSITIONS whose step is not a unit step. */
  CHECK_EQ(astar_path_encode(two, 3, ASTAR_PATH_POSITIONS, bytes, sizeof bytes, &len), ASTAR_OK);
  bytes[len - 4] = 9; /* last x */
  CHECK_EQ(astar_path_decode(bytes, len, cells_b, MAXN, &m), ASTAR_PARSE_ERROR);
}

/* ---- turn points ----------------------------------------------------------- */

static void test_turn_points(void) {
  rng r;
  rng_seed(&r, 13);
  static astar_point tp[MAXN + GUARD], inplace[MAXN];
  for (int it = 0; it < 1500; it++) {
    const size_t n = it < 8 ? (size_t)(it % 4 + 1) : (size_t)rng_range(&r, 1, it % 10 ? 100 : MAXN);
    random_path(&r, path_a, n, (it & 1) ? 8 : 4);
    /* The definition: first, last, and every cell whose two steps differ. */
    size_t want = 0;
    for (size_t i = 0; i < n; i++) {
      const bool turn = i == 0 || i == n - 1 ||
                        dir_index(path_a[i - 1], path_a[i]) != dir_index(path_a[i], path_a[i + 1]);
      if (turn) cells_b[want++] = path_a[i];
    }
    size_t m = 0, k = 0;
    if (want > 1) {
      CHECK_EQ(astar_path_turn_points(path_a, n, tp, want - 1, &m), ASTAR_BUFFER_TOO_SMALL);
      CHECK_EQ(m, want);
    }
    for (size_t g = 0; g < want + GUARD; g++) tp[g] = (astar_point){-9, -9};
    CHECK_EQ(astar_path_turn_points(path_a, n, tp, want, &m), ASTAR_OK);
    CHECK(m == want && paths_eq(tp, cells_b, m) && tp[m].x == -9);
    /* In place. */
    memcpy(inplace, path_a, n * sizeof *inplace);
    CHECK_EQ(astar_path_turn_points(inplace, n, inplace, n, &k), ASTAR_OK);
    CHECK(k == want && paths_eq(inplace, cells_b, k));
    /* Back to the path, exactly. */
    size_t back = 0;
    if (n > 1) {
      CHECK_EQ(astar_path_expand_turn_points(tp, m, cells_b, n - 1, &back), ASTAR_BUFFER_TOO_SMALL);
      CHECK_EQ(back, n);
    }
    CHECK_EQ(astar_path_expand_turn_points(tp, m, cells_b, n, &back), ASTAR_OK);
    CHECK(back == n && paths_eq(cells_b, path_a, n));
  }
  const astar_point bent[3] = {{0, 0}, {2, 1}, {3, 3}}, dup[2] = {{1, 1}, {1, 1}};
  const astar_point col[3] = {{0, 0}, {2, 2}, {5, 5}};
  size_t n;
  CHECK_EQ(astar_path_expand_turn_points(bent, 3, cells_b, MAXN, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_expand_turn_points(dup, 2, cells_b, MAXN, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_expand_turn_points(col, 3, cells_b, MAXN, &n),
           ASTAR_OK); /* collinear: fine */
  CHECK_EQ(n, 6);
  CHECK_EQ(astar_path_turn_points(bent, 3, cells_b, MAXN, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_turn_points(bent, 0, cells_b, MAXN, &n), ASTAR_INVALID_ARGUMENT);
}

/* ---- the K-step cursor ----------------------------------------------------------- */

static void test_cursor(void) {
  rng r;
  rng_seed(&r, 14);
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  static astar_point full[4096], walked[8192], store[64 + GUARD];
  size_t trials = 0, identical = 0;
  for (int it = 0; it < 400; it++) {
    randmap_spec spec = {rng_range(&r, 2, 40), rng_range(&r, 2, 40), rng_unit(&r) * 0.35, 0, 1, 1};
    astar_grid *g = NULL;
    astar_workspace *ws = NULL;
    if (astar_grid_new(&g, spec.width, spec.height, &al) != ASTAR_OK) continue;
    for (int32_t y = 0; y < spec.height; y++)
      for (int32_t x = 0; x < spec.width; x++)
        if (rng_unit(&r) < spec.density) (void)astar_grid_set_passable(g, x, y, false);
    CHECK_EQ(astar_workspace_new(&ws, g, &al), ASTAR_OK);
    astar_options opt;
    astar_options_init(&opt);
    if (it % 3 == 1) opt.moves = 4;
    if (it % 3 == 2) opt.algorithm = ASTAR_ALGO_JPS;
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    if (s.x < 0) goto next;
    const double best = ref_dijkstra(g, &opt, s, t);
    astar_result res;
    const astar_status fst = astar_find_path(ws, g, &opt, s, t, full, 4096, &res);
    const size_t K = (size_t)rng_range(&r, 1, 7);
    for (size_t i = 0; i < K + 1 + GUARD; i++) store[i] = (astar_point){-5, -5};
    astar_path_cursor c;
    CHECK_EQ(astar_path_cursor_init(&c, store, K + 1), ASTAR_OK);
    const long before = fa.requests;
    const astar_status pst = astar_path_cursor_plan(&c, ws, g, &opt, s, t);
    CHECK_EQ(pst, fst);
    if (pst != ASTAR_OK) {
      CHECK(best < 0);
      CHECK(astar_path_cursor_done(&c));
      goto next;
    }
    CHECK_EQ(c.total, res.length);
    CHECK(paths_eq(store, full, c.count));
    size_t n = 1;
    walked[0] = s;
    while (!astar_path_cursor_done(&c)) {
      astar_point cell;
      CHECK_EQ(astar_path_cursor_next(&c, ws, g, &opt, &cell), ASTAR_OK);
      walked[n++] = cell;
      if (n > 8000) break;
    }
    CHECK_EQ(fa.requests, before); /* the cursor never allocates */
    for (size_t i = K + 1; i < K + 1 + GUARD; i++) CHECK(store[i].x == -5);
    char err[160];
    double cost = 0;
    CHECKF(validate_walk(g, &opt, walked, n, &cost, NULL, err, sizeof err), "%s", err);
    CHECK(pt_eq(walked[n - 1], t));
    CHECKF(cost_equal(cost, best), "walked %.9g vs optimal %.9g (K %zu)", cost, best, K);
    const size_t steps = n - 1;
    CHECK_EQ(c.plans, steps == 0 ? 1 : (steps + K - 1) / K);
    CHECK_EQ(astar_path_cursor_next(&c, ws, g, &opt, &walked[0]), ASTAR_INVALID_ARGUMENT);
    trials++;
    if (n == res.length && paths_eq(walked, full, n)) identical++;
    /* The workspace's head copy agrees with the full path for every cap. */
    CHECK_EQ(astar_find_path(ws, g, &opt, s, t, NULL, 0, &res),
             res.length ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK);
    for (size_t cap = 0; cap <= res.length + 1; cap += 1 + cap / 4) {
      size_t copied, total;
      CHECK_EQ(astar_workspace_path_head(ws, walked, cap, &copied, &total), ASTAR_OK);
      CHECK(copied == (cap < total ? cap : total) && total == res.length);
      CHECK(paths_eq(walked, full, copied));
    }
    /* A wall across the rest of the way: the continuation fails, the unit
    ** stays, and a later call tries again. */
    if (res.length > K + 2) {
      CHECK_EQ(astar_path_cursor_plan(&c, ws, g, &opt, s, t), ASTAR_OK);
      astar_point cell = s;
      for (size_t i = 0; i < K; i++)
        CHECK_EQ(astar_path_cursor_next(&c, ws, g, &opt, &cell), ASTAR_OK);
      CHECK_EQ(astar_grid_set_passable(g, t.x, t.y, false), ASTAR_OK);
      astar_point again = cell;
      CHECK_EQ(astar_path_cursor_next(&c, ws, g, &opt, &again), ASTAR_GOAL_BLOCKED);
      CHECK(pt_eq(again, cell) && !astar_path_cursor_done(&c));
      CHECK(c.count == 1 && pt_eq(c.cells[0], cell));
      CHECK_EQ(astar_grid_set_passable(g, t.x, t.y, true), ASTAR_OK);
      CHECK_EQ(astar_path_cursor_next(&c, ws, g, &opt, &again), ASTAR_OK);
      CHECK(dir_index(cell, again) >= 0);
    }
  next:
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK_EQ(fa.blocks, 0);
  CHECK(trials > 200);
  printf("     cursor: %zu walks, %zu cell for cell equal to the full search's path\n", trials,
         identical);
  astar_path_cursor c;
  CHECK_EQ(astar_path_cursor_init(&c, store, 1), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_cursor_init(&c, NULL, 4), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_cursor_init(&c, store, 3), ASTAR_OK);
  CHECK(astar_path_cursor_done(&c));
  const astar_point p3[3] = {{0, 0}, {1, 1}, {2, 2}};
  CHECK_EQ(astar_path_cursor_hold(&c, p3, 3), ASTAR_OK);
  astar_point cell;
  CHECK_EQ(astar_path_cursor_next(&c, NULL, NULL, NULL, &cell), ASTAR_OK);
  CHECK_EQ(astar_path_cursor_next(&c, NULL, NULL, NULL, &cell), ASTAR_OK);
  CHECK(pt_eq(cell, p3[2]) && astar_path_cursor_done(&c));
}

/* ---- goal-first storage ----------------------------------------------------------- */

static void test_stack(void) {
  rng r;
  rng_seed(&r, 15);
  static astar_point store[600], model[1200], seg[300], out[600];
  for (int it = 0; it < 300; it++) {
    const size_t cap = (size_t)rng_range(&r, 1, 500);
    astar_path_stack s;
    CHECK_EQ(astar_path_stack_init(&s, store, cap), ASTAR_OK);
    size_t n = (size_t)rng_range(&r, 1, 550);
    random_path(&r, model, n, 8);
    const astar_status st = astar_path_stack_set(&s, model, n);
    CHECK_EQ(st, n > cap ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK);
    if (st != ASTAR_OK) continue;
    for (int op = 0; op < 200 && n > 0; op++) {
      if (rng_range(&r, 0, 2) == 0) { /* a step */
        astar_point cell;
        const astar_status ss = astar_path_stack_step(&s, &cell);
        if (n < 2) {
          CHECK_EQ(ss, ASTAR_INVALID_ARGUMENT);
          continue;
        }
        CHECK_EQ(ss, ASTAR_OK);
        memmove(model, model + 1, (n - 1) * sizeof *model);
        n--;
        CHECK(pt_eq(cell, model[0]));
      } else { /* a splice: p[0] .. p[m-1] by a random walk between them */
        const size_t m = (size_t)rng_range(&r, 1, (int32_t)n);
        size_t k = 1;
        seg[0] = model[0];
        /* Wander a little, then walk straight to p[m-1]. */
        const int wander = rng_range(&r, 0, 6);
        for (int w = 0; w < wander; w++) {
          const int d = rng_range(&r, 0, 7);
          seg[k] = (astar_point){seg[k - 1].x + DX[d], seg[k - 1].y + DY[d]}, k++;
        }
        while (!pt_eq(seg[k - 1], model[m - 1]) && k < 299) {
          const int sx = (model[m - 1].x > seg[k - 1].x) - (model[m - 1].x < seg[k - 1].x);
          const int sy = (model[m - 1].y > seg[k - 1].y) - (model[m - 1].y < seg[k - 1].y);
          seg[k] = (astar_point){seg[k - 1].x + sx, seg[k - 1].y + sy}, k++;
        }
        if (!pt_eq(seg[k - 1], model[m - 1])) continue;
        const size_t keep = n - m;
        astar_point below[600];
        memcpy(below, store, keep * sizeof *below);
        const astar_status ss = astar_path_stack_splice(&s, m, seg, k);
        if (keep + k > cap) {
          CHECK_EQ(ss, ASTAR_BUFFER_TOO_SMALL);
          CHECK_EQ(s.count, n);
          continue;
        }
        CHECK_EQ(ss, ASTAR_OK);
        CHECK(paths_eq(store, below, keep)); /* beyond the splice: untouched */
        memmove(model + k, model + m, keep * sizeof *model);
        memcpy(model, seg, k * sizeof *model);
        n = keep + k;
      }
      size_t got;
      CHECK_EQ(astar_path_stack_copy(&s, out, cap, &got), ASTAR_OK);
      CHECK(got == n && paths_eq(out, model, n));
      astar_point top;
      CHECK_EQ(astar_path_stack_peek(&s, n - 1, &top), ASTAR_OK);
      CHECK(pt_eq(top, model[n - 1]));
    }
  }
  astar_path_stack s;
  const astar_point p[3] = {{0, 0}, {1, 0}, {2, 0}}, wrong[2] = {{0, 0}, {1, 1}};
  CHECK_EQ(astar_path_stack_init(&s, store, 0), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_stack_init(&s, store, 3), ASTAR_OK);
  CHECK_EQ(astar_path_stack_set(&s, p, 3), ASTAR_OK);
  CHECK_EQ(astar_path_stack_splice(&s, 2, wrong, 2), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_stack_splice(&s, 4, p, 3), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_path_stack_splice(&s, 0, p, 1), ASTAR_INVALID_ARGUMENT);
  size_t got;
  CHECK_EQ(astar_path_stack_copy(&s, out, 2, &got), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(got, 3);
  astar_point cell;
  CHECK_EQ(astar_path_stack_peek(&s, 3, &cell), ASTAR_INVALID_ARGUMENT);
}

int main(void) {
  RUN(test_round_trips);
  RUN(test_hand_checked);
  RUN(test_encode_arguments);
  RUN(test_damaged);
  RUN(test_turn_points);
  RUN(test_cursor);
  RUN(test_stack);
  return check_summary();
}
