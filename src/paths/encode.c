/*
** paths/encode.c -- the portable path encodings of astar/path.h (Patel
** 6.1-6.2): absolute positions, directions, turns, runs and the variable-
** length code, one encoder and one decoder over a bit stream packed least
** significant bit first. The byte format is specified in astar/path.h; this
** file follows it to the bit.
**
** Robustness: the decoder reads untrusted bytes. Every read is checked
** against the length (the bit reader fails instead of reading on), every
** count against the header's step count, and coordinates are carried in 64
** bits and checked against the int32 range, so no input makes it read or
** write out of bounds, loop without consuming input, or overflow.
*/
#include "core/bytes.h"
#include "core/internal.h"

#include "astar/path.h"

#define FORMAT_VERSION 1u /* high nibble of byte 0 */
#define FLAG_FOUR 1u      /* 2-bit direction alphabet */
#define FLAG_WIDE 2u      /* 32-bit POSITIONS coordinates */
#define RUN_MAX 256u      /* longest run of one RUNS entry (8-bit length - 1) */
#define VARINT_MAX 5u     /* bytes of a LEB128 value < 2^32 */

/* Direction of the unit step (dx, dy) by (dy + 1) * 3 + (dx + 1); -1 for
** (0, 0). Numbers as astar/path.h lists them. */
static const int8_t dir_of_step[9] = {7, 0, 4, 3, -1, 1, 6, 2, 5};
/* Position on the compass N NE E SE S SW W NW of each direction, and back:
** turns count along the compass. */
static const uint8_t compass_of[8] = {0, 2, 4, 6, 1, 3, 5, 7};
static const uint8_t dir_at_compass[8] = {0, 4, 1, 5, 2, 6, 3, 7};

static const char *const names[ASTAR_PATH_ENCODING_COUNT] = {"positions", "directions", "turns",
                                                             "runs", "variable"};

const char *astar_path_encoding_name(astar_path_encoding encoding) {
  return (unsigned)encoding < ASTAR_PATH_ENCODING_COUNT ? names[encoding] : NULL;
}

/* Direction of the step a -> b, or -1 when it is not a unit step. */
ASTAR__INLINE int step_dir(astar_point a, astar_point b) {
  const int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1) return -1;
  return dir_of_step[(dy + 1) * 3 + (dx + 1)];
}

/* The turn from direction a to direction b: quarters with the 4-direction
** alphabet (N E S W are already clockwise), else eighths on the compass. */
ASTAR__INLINE unsigned turn_of(int a, int b, bool four) {
  return four ? (unsigned)(b - a) & 3u : (unsigned)(compass_of[b] - compass_of[a]) & 7u;
}
ASTAR__INLINE int turned(int d, unsigned t, bool four) {
  return four ? (int)(((unsigned)d + t) & 3u) : dir_at_compass[(compass_of[d] + t) & 7u];
}

/* ---- bit writer ------------------------------------------------------------ */

/* Bits are queued in acc (fewer than 8 between calls) and leave as whole
** bytes; bytes beyond cap are counted but not stored. */
typedef struct bitw {
  uint8_t *buf;  /* output, may be NULL when cap is 0 */
  size_t cap;    /* bytes that may be stored */
  size_t pos;    /* bytes produced so far (may exceed cap) */
  uint64_t acc;  /* pending bits, the oldest in bit 0 */
  unsigned nacc; /* pending bit count, < 8 between calls */
} bitw;

/* Append the n <= 32 low bits of v, least significant first. */
ASTAR__INLINE void put(bitw *w, uint32_t v, unsigned n) {
  w->acc |= (uint64_t)v << w->nacc;
  w->nacc += n;
  while (w->nacc >= 8) {
    if (w->pos < w->cap) w->buf[w->pos] = (uint8_t)w->acc;
    w->pos++;
    w->acc >>= 8;
    w->nacc -= 8;
  }
}

ASTAR__INLINE void flush(bitw *w) {
  if (w->nacc) put(w, 0, 8 - w->nacc); /* zero padding to the byte */
}

ASTAR__INLINE void put_varint(bitw *w, uint32_t v) {
  while (v >= 0x80u) {
    put(w, (v & 0x7fu) | 0x80u, 8);
    v >>= 7;
  }
  put(w, v, 8);
}

static uint32_t zigzag(int32_t v) {
  return v >= 0 ? (uint32_t)v << 1 : (((uint32_t) - (v + 1)) << 1) | 1u;
}

/* Elias gamma of n >= 1, least significant bit first (astar/path.h). */
ASTAR__INLINE void put_gamma(bitw *w, uint32_t n) {
  unsigned b = 0;
  while ((n >> b) > 1u) b++;
  put(w, 0, b);
  put(w, 1, 1);
  put(w, n & ((UINT32_C(1) << b) - 1u), b);
}

/* Prefix words of the turns 1..7 (8 directions) and 1..3 (FOUR), as
** (value, bits) with the first bit of the word in bit 0. */
static const uint8_t turn_word8[8][2] = {{0, 0}, {0, 2},  {1, 3}, {3, 4},
                                         {7, 3}, {11, 4}, {5, 3}, {2, 2}};
static const uint8_t turn_word4[4][2] = {{0, 0}, {0, 1}, {3, 2}, {1, 2}};

ASTAR__INLINE void put_turn(bitw *w, unsigned t, bool four) {
  const uint8_t *word = four ? turn_word4[t] : turn_word8[t];
  put(w, word[0], word[1]);
}

/* Length of the run of steps in direction d starting with the step out of
** path[i] (i + 1 < n). */
ASTAR__INLINE size_t run_from(const astar_point *path, size_t n, size_t i, int d) {
  size_t k = i + 1;
  while (k + 1 < n && step_dir(path[k], path[k + 1]) == d) k++;
  return k - i;
}

astar_status astar_path_encode(const astar_point *path, size_t n, astar_path_encoding encoding,
                               void *buf, size_t cap, size_t *len) {
  if (!path || !len || n == 0 || (unsigned)encoding >= ASTAR_PATH_ENCODING_COUNT ||
      (cap > 0 && !buf))
    return ASTAR_INVALID_ARGUMENT;
  /* First pass: every step a unit step; the flags. */
  bool four = true, wide = false;
  for (size_t i = 1; i < n; i++) {
    const int d = step_dir(path[i - 1], path[i]);
    if (d < 0) return ASTAR_INVALID_ARGUMENT;
    if (d >= 4) four = false;
    if (path[i].x < 0 || path[i].x > 65535 || path[i].y < 0 || path[i].y > 65535) wide = true;
  }
  if ((uint64_t)(n - 1) > UINT32_MAX) return ASTAR_TOO_LARGE;
  const bool dirs = encoding != ASTAR_PATH_POSITIONS;
  four = four && dirs;
  wide = wide && !dirs;
  const unsigned D = four ? 2u : 3u;
  bitw w = {(uint8_t *)buf, cap, 0, 0, 0};
  put(&w, (FORMAT_VERSION << 4) | (unsigned)encoding, 8);
  put(&w, (four ? FLAG_FOUR : 0u) | (wide ? FLAG_WIDE : 0u), 8);
  put_varint(&w, zigzag(path[0].x));
  put_varint(&w, zigzag(path[0].y));
  put_varint(&w, (uint32_t)(n - 1));

  switch (encoding) {
  case ASTAR_PATH_POSITIONS: {
    /* The header ends on a byte boundary and every field is whole bytes:
    ** store them directly (little-endian), as the bit writer would. */
    const size_t field = wide ? 4u : 2u;
    for (size_t i = 1; i < n; i++, w.pos += 2 * field) {
      if (w.pos + 2 * field > cap) continue; /* only counted */
      uint8_t *b = w.buf + w.pos;
      const uint32_t x = (uint32_t)path[i].x, y = (uint32_t)path[i].y;
      for (size_t k = 0; k < field; k++) {
        b[k] = (uint8_t)(x >> (8 * k));
        b[field + k] = (uint8_t)(y >> (8 * k));
      }
    }
    break;
  }
  case ASTAR_PATH_DIRECTIONS:
    for (size_t i = 1; i < n; i++) put(&w, (uint32_t)step_dir(path[i - 1], path[i]), D);
    break;
  case ASTAR_PATH_TURNS: {
    int prev = -1;
    for (size_t i = 1; i < n; i++) {
      const int d = step_dir(path[i - 1], path[i]);
      put(&w, prev < 0 ? (uint32_t)d : turn_of(prev, d, four), D);
      prev = d;
    }
    break;
  }
  case ASTAR_PATH_RUNS:
    for (size_t i = 0; i + 1 < n;) {
      const int d = step_dir(path[i], path[i + 1]);
      size_t r = run_from(path, n, i, d);
      i += r;
      for (; r > RUN_MAX; r -= RUN_MAX) {
        put(&w, (uint32_t)d, D);
        put(&w, RUN_MAX - 1u, 8);
      }
      put(&w, (uint32_t)d, D);
      put(&w, (uint32_t)(r - 1), 8);
    }
    break;
  default: { /* ASTAR_PATH_VARIABLE */
    int prev = -1;
    for (size_t i = 0; i + 1 < n;) {
      const int d = step_dir(path[i], path[i + 1]);
      const size_t r = run_from(path, n, i, d);
      if (prev < 0)
        put(&w, (uint32_t)d, D);
      else
        put_turn(&w, turn_of(prev, d, four), four);
      put_gamma(&w, (uint32_t)r);
      prev = d;
      i += r;
    }
    break;
  }
  }
  flush(&w);
  *len = w.pos;
  return w.pos > cap ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK;
}

/* ---- reading -------------------------------------------------------------- */

static astar_status read_varint(const uint8_t *p, size_t len, size_t *at, uint32_t *out) {
  uint32_t v = 0;
  for (unsigned k = 0; k < VARINT_MAX; k++) {
    if (*at >= len) return ASTAR_PARSE_ERROR;
    const uint8_t b = p[(*at)++];
    if (k == VARINT_MAX - 1 && b > 0x0fu) return ASTAR_PARSE_ERROR; /* beyond 32 bits */
    v |= (uint32_t)(b & 0x7fu) << (7 * k);
    if (!(b & 0x80u)) {
      if (k > 0 && b == 0) return ASTAR_PARSE_ERROR; /* superfluous 0 group */
      *out = v;
      return ASTAR_OK;
    }
  }
  return ASTAR_PARSE_ERROR;
}

static int32_t unzigzag(uint32_t u) {
  /* u >> 1 <= INT32_MAX, so both branches stay in range. */
  return (u & 1u) ? -(int32_t)(u >> 1) - 1 : (int32_t)(u >> 1);
}

astar_status astar_path_info_of(const void *buf, size_t len, astar_path_info *info) {
  if (!info || (len > 0 && !buf)) return ASTAR_INVALID_ARGUMENT;
  const uint8_t *p = (const uint8_t *)buf;
  if (len < 2 || (p[0] >> 4) != FORMAT_VERSION || (p[0] & 15u) >= ASTAR_PATH_ENCODING_COUNT ||
      (p[1] & ~(FLAG_FOUR | FLAG_WIDE)))
    return ASTAR_PARSE_ERROR;
  const astar_path_encoding enc = (astar_path_encoding)(p[0] & 15u);
  const bool four = p[1] & FLAG_FOUR, wide = p[1] & FLAG_WIDE;
  if (enc == ASTAR_PATH_POSITIONS ? four : wide) return ASTAR_PARSE_ERROR;
  size_t at = 2;
  uint32_t x, y, steps;
  if (read_varint(p, len, &at, &x) || read_varint(p, len, &at, &y) ||
      read_varint(p, len, &at, &steps))
    return ASTAR_PARSE_ERROR;
#if SIZE_MAX <= UINT32_MAX
  if (steps == UINT32_MAX) return ASTAR_PARSE_ERROR; /* cells would not fit a size_t */
#endif
  info->encoding = enc;
  info->start = (astar_point){unzigzag(x), unzigzag(y)};
  info->cells = (size_t)steps + 1;
  info->four = four;
  info->wide = wide;
  info->header_bytes = at;
  return ASTAR_OK;
}

/* Bits are fetched a byte at a time into acc; at the end, what is left in
** acc is the padding (fewer than 8 bits). */
typedef struct bitr {
  const uint8_t *p; /* payload */
  size_t len;       /* its bytes */
  size_t at;        /* bytes fetched */
  uint64_t acc;     /* fetched, unread bits, the next in bit 0 */
  unsigned nacc;    /* their count, < 8 between calls */
} bitr;

/* Read n <= 32 bits into *v; false when the payload ends first. */
ASTAR__INLINE bool get(bitr *r, unsigned n, uint32_t *v) {
  while (r->nacc < n) {
    if (r->at == r->len) return false;
    r->acc |= (uint64_t)r->p[r->at++] << r->nacc;
    r->nacc += 8;
  }
  *v = (uint32_t)(r->acc & ((UINT64_C(1) << n) - 1u));
  r->acc >>= n;
  r->nacc -= n;
  return true;
}

ASTAR__INLINE bool get_gamma(bitr *r, uint32_t *n) {
  unsigned b = 0;
  uint32_t bit;
  for (;;) {
    if (!get(r, 1, &bit)) return false;
    if (bit) break;
    if (++b > 31) return false; /* beyond 32 bits */
  }
  uint32_t low;
  if (!get(r, b, &low)) return false;
  *n = (UINT32_C(1) << b) | low;
  return true;
}

ASTAR__INLINE bool get_turn(bitr *r, bool four, unsigned *t) {
  uint32_t a, b, c;
  if (!get(r, 1, &a)) return false;
  if (four) {
    if (!a) return *t = 1, true;
    if (!get(r, 1, &b)) return false;
    return *t = b ? 2 : 3, true;
  }
  if (!get(r, 1, &b)) return false;
  if (!a) return *t = b ? 7 : 1, true;
  if (!b) {
    if (!get(r, 1, &c)) return false;
    return *t = c ? 6 : 2, true;
  }
  if (!get(r, 1, &c)) return false;
  if (c) return *t = 4, true;
  if (!get(r, 1, &c)) return false;
  return *t = c ? 5 : 3, true;
}

/* Where the decoded cells go: out[0 .. ] when out is set (the caller made
** sure it has room for every cell), nowhere when only checking. */
typedef struct walk {
  astar_point *out; /* destination, or NULL */
  int64_t x, y;     /* current cell */
  size_t i;         /* cells produced so far */
} walk;

/* n steps in direction d; false when a coordinate leaves int32. */
ASTAR__INLINE bool advance(walk *w, int d, uint32_t n) {
  const int64_t dx = astar__dir_dx[d], dy = astar__dir_dy[d];
  const int64_t ex = w->x + dx * (int64_t)n, ey = w->y + dy * (int64_t)n;
  if (ex < INT32_MIN || ex > INT32_MAX || ey < INT32_MIN || ey > INT32_MAX) return false;
  if (w->out) {
    for (uint32_t k = 0; k < n; k++) {
      w->x += dx, w->y += dy;
      w->out[w->i++] = (astar_point){(int32_t)w->x, (int32_t)w->y};
    }
  } else {
    w->i += n;
  }
  w->x = ex, w->y = ey;
  return true;
}

static int32_t as_int32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* Decode the payload after the header described by `info`; out NULL: check
** only. */
static astar_status decode_payload(const astar_path_info *info, const uint8_t *payload, size_t plen,
                                   astar_point *out) {
  bitr r = {payload, plen, 0, 0, 0};
  walk w = {out, info->start.x, info->start.y, 0};
  if (out) out[w.i] = info->start;
  w.i = 1;
  const uint32_t steps = (uint32_t)(info->cells - 1);
  const bool four = info->four;
  const unsigned D = four ? 2u : 3u;
  uint32_t v, u;
  switch (info->encoding) {
  case ASTAR_PATH_POSITIONS: {
    /* Byte-aligned fields: read as little-endian bytes, not bit by bit. */
    const size_t field = info->wide ? 4u : 2u;
    if (plen / (2 * field) < steps || plen != (size_t)steps * 2 * field) return ASTAR_PARSE_ERROR;
    for (uint32_t s = 0; s < steps; s++) {
      const uint8_t *b = payload + (size_t)s * 2 * field;
      int64_t x, y;
      if (info->wide) {
        x = as_int32(astar__get_le32(b));
        y = as_int32(astar__get_le32(b + 4));
      } else {
        x = (int64_t)(b[0] | (uint32_t)b[1] << 8);
        y = (int64_t)(b[2] | (uint32_t)b[3] << 8);
      }
      const int64_t dx = x - w.x, dy = y - w.y;
      if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return ASTAR_PARSE_ERROR;
      if (out) out[w.i] = (astar_point){(int32_t)x, (int32_t)y};
      w.i++, w.x = x, w.y = y;
    }
    return ASTAR_OK;
  }
  case ASTAR_PATH_DIRECTIONS:
    for (uint32_t s = 0; s < steps; s++)
      if (!get(&r, D, &v) || !advance(&w, (int)v, 1)) return ASTAR_PARSE_ERROR;
    break;
  case ASTAR_PATH_TURNS: {
    int d = -1;
    for (uint32_t s = 0; s < steps; s++) {
      if (!get(&r, D, &v)) return ASTAR_PARSE_ERROR;
      d = d < 0 ? (int)v : turned(d, v, four);
      if (!advance(&w, d, 1)) return ASTAR_PARSE_ERROR;
    }
    break;
  }
  case ASTAR_PATH_RUNS:
    for (uint32_t done = 0; done < steps;) {
      if (!get(&r, D, &v) || !get(&r, 8, &u)) return ASTAR_PARSE_ERROR;
      if (u + 1u > steps - done || !advance(&w, (int)v, u + 1u)) return ASTAR_PARSE_ERROR;
      done += u + 1u;
    }
    break;
  default: { /* ASTAR_PATH_VARIABLE */
    int d = -1;
    for (uint32_t done = 0; done < steps;) {
      unsigned t;
      if (d < 0) {
        if (!get(&r, D, &v)) return ASTAR_PARSE_ERROR;
        d = (int)v;
      } else {
        if (!get_turn(&r, four, &t)) return ASTAR_PARSE_ERROR;
        d = turned(d, t, four);
      }
      if (!get_gamma(&r, &u) || u > steps - done || !advance(&w, d, u)) return ASTAR_PARSE_ERROR;
      done += u;
    }
    break;
  }
  }
  /* Nothing after the last byte; its padding bits 0. */
  return r.at == r.len && r.acc == 0 ? ASTAR_OK : ASTAR_PARSE_ERROR;
}

astar_status astar_path_decode(const void *buf, size_t len, astar_point *cells, size_t cap,
                               size_t *n) {
  if (!n || (len > 0 && !buf) || (cap > 0 && !cells)) return ASTAR_INVALID_ARGUMENT;
  astar_path_info info;
  astar_status st = astar_path_info_of(buf, len, &info);
  if (st != ASTAR_OK) return st;
  *n = info.cells;
  const uint8_t *p = (const uint8_t *)buf;
  const bool fits = info.cells <= cap;
  st = decode_payload(&info, p + info.header_bytes, len - info.header_bytes, fits ? cells : NULL);
  if (st != ASTAR_OK) return st;
  return fits ? ASTAR_OK : ASTAR_BUFFER_TOO_SMALL;
}
