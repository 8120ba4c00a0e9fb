/*
** format.c -- text parsers: Moving AI .map / .scen and plain ASCII maps.
**
** Every parser works on (text, len) and never reads past len; the text need
** not be NUL-terminated. Map parsers make two passes: the first validates the
** whole text (so a tiny malformed input never triggers a huge allocation),
** the second builds the grid through the public grid API. The scenario parser
** also makes two passes so that the scen lives in one allocation: header,
** query array and a pool of map-name strings.
*/
#include "astar/format.h"
#include "formats/text.h"

#include <stdio.h> /* vsnprintf, for error messages only */
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
** Allocation through the caller's allocator (NULL fn: malloc/free).
*/

static void *fmt_alloc(const astar_allocator *a, size_t n) {
  if (a && a->fn) return a->fn(a->ud, NULL, 0, n);
  return malloc(n);
}

static void fmt_free(const astar_allocator *a, void *p, size_t n) {
  if (!p) return;
  if (a && a->fn)
    a->fn(a->ud, p, n, 0);
  else
    free(p);
}

/* ---------------------------------------------------------------------------
** Errors.
*/

static astar_status fmt_no_memory(astar_parse_error *err) {
  return astar__parse_fail(err, ASTAR_NO_MEMORY, 0, 0, "out of memory");
}

/* ---------------------------------------------------------------------------
** Lines and tokens.
*/

typedef struct fmt_cursor {
  const char *s;
  size_t len;
  size_t pos;   /* offset of the next line */
  int32_t line; /* 1-based number of the line last returned, 0 before the first */
  size_t last;  /* length of the line last returned */
} fmt_cursor;

static void fmt_init(fmt_cursor *c, const char *s, size_t len) {
  c->s = s;
  c->len = len;
  c->pos = 0;
  c->line = 0;
  c->last = 0;
}

/* The next line, without its terminator (LF, CRLF or CR). */
static bool fmt_next(fmt_cursor *c, const char **line, size_t *n) {
  const char *p, *end;
  if (c->pos >= c->len) return false;
  p = c->s + c->pos;
  end = c->s + c->len;
  while (p < end && *p != '\n' && *p != '\r') p++;
  *line = c->s + c->pos;
  *n = (size_t)(p - *line);
  if (p < end) p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1;
  c->pos = (size_t)(p - c->s);
  if (c->line < INT32_MAX) c->line++;
  c->last = *n;
  return true;
}

/* Where the input ends: after the last character of an unterminated last
** line, or column 1 of the line after a final newline. */
static void fmt_eof(const fmt_cursor *c, int32_t *line, size_t *col) {
  char ch;
  if (c->len == 0) {
    *line = 1;
    *col = 1;
    return;
  }
  ch = c->s[c->len - 1];
  if (ch == '\n' || ch == '\r') {
    *line = c->line < INT32_MAX ? c->line + 1 : INT32_MAX;
    *col = 1;
  } else {
    *line = c->line;
    *col = c->last + 1;
  }
}

static bool fmt_space(char ch) {
  return ch == ' ' || ch == '\t';
}

static bool fmt_blank(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!fmt_space(s[i])) return false;
  return true;
}

/* True when nothing but spaces, tabs and line breaks follows the cursor. */
static bool fmt_rest_blank(const fmt_cursor *c) {
  size_t i;
  for (i = c->pos; i < c->len; i++) {
    char ch = c->s[i];
    if (!fmt_space(ch) && ch != '\n' && ch != '\r') return false;
  }
  return true;
}

/* The next space/tab-separated token of s[0..n) at or after *i: its offset in
** *at and length in *tn. */
static bool fmt_token(const char *s, size_t n, size_t *i, size_t *at, size_t *tn) {
  size_t k = *i;
  while (k < n && fmt_space(s[k])) k++;
  if (k == n) {
    *i = k;
    return false;
  }
  *at = k;
  while (k < n && !fmt_space(s[k])) k++;
  *tn = k - *at;
  *i = k;
  return true;
}

static bool fmt_is(const char *s, size_t n, const char *word) {
  size_t wn = strlen(word);
  return n == wn && memcmp(s, word, n) == 0;
}

/* ---------------------------------------------------------------------------
** Numbers. No locale is consulted: '.' is always the decimal point.
*/

enum { NUM_OK, NUM_BAD, NUM_NEGATIVE, NUM_RANGE };

/* A non-negative decimal integer made of digits only, at most `max`. A
** leading '-' followed by digits is reported as NUM_NEGATIVE. */
static int fmt_uint(const char *s, size_t n, int64_t max, int64_t *out) {
  int64_t v = 0;
  size_t i = 0;
  bool neg = false, range = false;
  if (n > 0 && s[0] == '-') {
    neg = true;
    i = 1;
  }
  if (i == n) return NUM_BAD;
  for (; i < n; i++) {
    unsigned d = (unsigned)(unsigned char)s[i] - '0';
    if (d > 9) return NUM_BAD;
    if (!range) {
      v = v * 10 + (int64_t)d;
      if (v > max) range = true;
    }
  }
  if (neg) return NUM_NEGATIVE;
  if (range) return NUM_RANGE;
  *out = v;
  return NUM_OK;
}

/*
** [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?, the whole token.
** Up to 19 significant digits are kept. When the digits fit in 2^53 and the
** power of ten is within 1e22 (always so for the benchmark files, whose
** lengths have at most 15 significant digits), the result is one correctly
** rounded IEEE operation on exact operands, hence the nearest double, equal
** to strtod's. Otherwise the result can be off by a few units in the last
** place, which no input of these formats needs.
*/
static bool fmt_double(const char *s, size_t n, double *out) {
  static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  uint64_t m = 0;
  int sig = 0;  /* significant digits kept in m */
  long e10 = 0; /* value = m * 10^e10 */
  bool neg = false, digits = false;
  size_t i = 0;
  double r;

  if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
    digits = true;
    if (sig < 19) {
      m = m * 10 + (uint64_t)(s[i] - '0');
      if (m) sig++;
    } else {
      e10++; /* digit dropped: past the 19 kept */
    }
  }
  if (i < n && s[i] == '.') {
    for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
      digits = true;
      if (sig < 19) {
        m = m * 10 + (uint64_t)(s[i] - '0');
        if (m) sig++;
        e10--;
      }
    }
  }
  if (!digits) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    long x = 0;
    bool xneg = false, xdigits = false;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) xneg = s[i++] == '-';
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
      xdigits = true;
      if (x < 100000) x = x * 10 + (s[i] - '0');
    }
    if (!xdigits) return false;
    e10 += xneg ? -x : x;
  }
  if (i != n) return false;

  if (m == 0) {
    r = 0.0;
  } else if (m <= ((uint64_t)1 << 53) && e10 >= -22 && e10 <= 22) {
    r = (double)m;
    r = e10 >= 0 ? r * pow10[e10] : r / pow10[-e10];
  } else {
    r = (double)m;
    while (e10 > 22 && r < 1e300) {
      r *= 1e22;
      e10 -= 22;
    }
    while (e10 < -22 && r > 1e-300) {
      r /= 1e22;
      e10 += 22;
    }
    if (e10 > 22 || e10 < -22)
      r = e10 > 0 ? r * 1e300 : 0.0; /* saturate: overflow to inf, underflow to 0 */
    else
      r = e10 >= 0 ? r * pow10[e10] : r / pow10[-e10];
  }
  *out = neg ? -r : r;
  return true;
}

/* ---------------------------------------------------------------------------
** Moving AI maps.
*/

enum { CELL_BAD = 0, CELL_OPEN, CELL_WALL, CELL_START, CELL_GOAL, CELL_DIGIT };

static const unsigned char mai_cells[256] = {
    ['.'] = CELL_OPEN, ['G'] = CELL_OPEN, ['S'] = CELL_OPEN, ['@'] = CELL_WALL,
    ['O'] = CELL_WALL, ['T'] = CELL_WALL, ['W'] = CELL_WALL,
};

static astar_status fmt_bad_cell(astar_parse_error *err, int32_t line, size_t col, char ch) {
  char q[16];
  return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col, "unknown cell character '%s'",
                           astar__quote(q, sizeof q, &ch, 1));
}

static astar_status fmt_row_length(astar_parse_error *err, int32_t line, int64_t row, size_t n,
                                   int64_t w) {
  /* Point at the first missing cell, or at the first cell too many. */
  size_t col = (int64_t)n < w ? n + 1 : (size_t)w + 1;
  return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col,
                           "row %lld (y=%lld) has %zu cells, expected %lld", (long long)row + 1,
                           (long long)row, n, (long long)w);
}

/* One "height N" / "width N" header value. */
static astar_status mai_dimension(const char *s, size_t n, size_t at, int32_t line, const char *key,
                                  int64_t *out, astar_parse_error *err) {
  char q[40];
  size_t i = at, vat, vn, xat, xn;
  int r;
  if (!fmt_token(s, n, &i, &vat, &vn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, i + 1, "missing value after '%s'", key);
  r = fmt_uint(s + vat, vn, ASTAR_GRID_MAX_SIDE, out);
  if (r == NUM_RANGE)
    return astar__parse_fail(err, ASTAR_TOO_LARGE, line, vat + 1, "%s %s exceeds the limit of %d",
                             key, astar__quote(q, sizeof q, s + vat, vn), ASTAR_GRID_MAX_SIDE);
  if (r != NUM_OK || *out == 0)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, vat + 1,
                             "%s must be a positive integer, got '%s'", key,
                             astar__quote(q, sizeof q, s + vat, vn));
  if (fmt_token(s, n, &i, &xat, &xn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, xat + 1, "unexpected text after the %s",
                             key);
  return ASTAR_OK;
}

astar_status astar_movingai_parse_map(astar_grid **out, const char *text, size_t len,
                                      const astar_allocator *alloc, astar_parse_error *err) {
  fmt_cursor c, rows;
  const char *s;
  size_t n, i, at, tn;
  int64_t w = -1, h = -1, y;
  int32_t type_line = 0, w_line = 0, h_line = 0, map_line = 0;
  astar_grid *g = NULL;
  astar_status st;
  char q[40];

  if (out) *out = NULL;
  if (!out || (!text && len))
    return astar__parse_fail(err, ASTAR_INVALID_ARGUMENT, 0, 0, "%s is NULL", out ? "text" : "out");
  fmt_init(&c, text, len);

  /* Header: type / height / width in any order, ended by "map". */
  while (!map_line && fmt_next(&c, &s, &n)) {
    i = 0;
    if (!fmt_token(s, n, &i, &at, &tn)) continue; /* blank line */
    if (fmt_is(s + at, tn, "height") || fmt_is(s + at, tn, "width")) {
      bool is_h = s[at] == 'h';
      int32_t *seen = is_h ? &h_line : &w_line;
      if (*seen)
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, at + 1,
                                 "duplicate '%s' line (first on line %d)",
                                 is_h ? "height" : "width", (int)*seen);
      st = mai_dimension(s, n, i, c.line, is_h ? "height" : "width", is_h ? &h : &w, err);
      if (st != ASTAR_OK) return st;
      *seen = c.line;
    } else if (fmt_is(s + at, tn, "type")) {
      size_t vat, vn;
      if (type_line)
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, at + 1,
                                 "duplicate 'type' line (first on line %d)", (int)type_line);
      if (!fmt_token(s, n, &i, &vat, &vn))
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, i + 1,
                                 "missing value after 'type'");
      if (fmt_token(s, n, &i, &vat, &vn))
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, vat + 1,
                                 "unexpected text after the type");
      type_line = c.line;
    } else if (fmt_is(s + at, tn, "map")) {
      if (fmt_token(s, n, &i, &at, &tn))
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, at + 1,
                                 "unexpected text after 'map'");
      map_line = c.line;
    } else {
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, at + 1,
                               "unknown header line '%s' (expected type, height, width or map)",
                               astar__quote(q, sizeof q, s + at, tn));
    }
  }
  if (!map_line) {
    int32_t line;
    size_t col;
    fmt_eof(&c, &line, &col);
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col, "missing 'map' line");
  }
  if (h < 0 || w < 0)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, map_line, 1, "missing '%s' line before 'map'",
                             h < 0 ? "height" : "width");
  if ((uint64_t)w * (uint64_t)h > ASTAR_GRID_MAX_CELLS) {
    int32_t later = w_line > h_line ? w_line : h_line;
    return astar__parse_fail(err, ASTAR_TOO_LARGE, later, 1,
                             "%lld x %lld cells exceeds the limit of %u", (long long)w,
                             (long long)h, (unsigned)ASTAR_GRID_MAX_CELLS);
  }

  /* Pass 1: validate the rows and what follows them. */
  rows = c;
  for (y = 0; y < h; y++) {
    bool more = fmt_next(&c, &s, &n);
    if (!more || (fmt_blank(s, n) && fmt_rest_blank(&c))) {
      /* Point where the missing row was due: the end of the input, or the
      ** first of the trailing blank lines. */
      int32_t line = c.line;
      size_t col = 1;
      if (!more) fmt_eof(&c, &line, &col);
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col,
                               "map ends after %lld rows, expected %lld", (long long)y,
                               (long long)h);
    }
    {
      size_t lim = (int64_t)n < w ? n : (size_t)w;
      for (i = 0; i < lim; i++)
        if (mai_cells[(unsigned char)s[i]] == CELL_BAD)
          return fmt_bad_cell(err, c.line, i + 1, s[i]);
    }
    if ((int64_t)n != w) return fmt_row_length(err, c.line, y, n, w);
  }
  while (fmt_next(&c, &s, &n)) {
    i = 0;
    if (fmt_token(s, n, &i, &at, &tn))
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, at + 1,
                               "unexpected text after the %lld map rows", (long long)h);
  }

  /* Pass 2: build the grid; every cell starts passable. */
  st = astar_grid_new(&g, (int32_t)w, (int32_t)h, alloc);
  if (st != ASTAR_OK) {
    if (st == ASTAR_NO_MEMORY) return fmt_no_memory(err);
    return astar__parse_fail(err, st, 0, 0, "cannot create a %lld x %lld grid", (long long)w,
                             (long long)h);
  }
  c = rows;
  for (y = 0; y < h; y++) {
    fmt_next(&c, &s, &n);
    for (i = 0; i < (size_t)w; i++) {
      if (mai_cells[(unsigned char)s[i]] == CELL_WALL) {
        st = astar_grid_set_passable(g, (int32_t)i, (int32_t)y, false);
        if (st != ASTAR_OK) {
          astar_grid_free(g);
          return astar__parse_fail(err, st, c.line, i + 1, "cannot set cell (%zu, %lld)", i,
                                   (long long)y);
        }
      }
    }
  }
  *out = g;
  return ASTAR_OK;
}

/* ---------------------------------------------------------------------------
** Moving AI scenarios.
*/

struct astar_scen {
  astar_allocator alloc;
  size_t bytes; /* size of this single allocation */
  size_t count;
  double version;
  astar_scen_query *queries;
};

enum { SCEN_FIELDS = 9 };

static const char *const scen_field_names[SCEN_FIELDS] = {
    "bucket",  "map name", "map width", "map height",    "start x",
    "start y", "goal x",   "goal y",    "optimal length"};

/* One query line into *q; the map name is returned as (*name, *name_n)
** pointing into the text (empty when the line is malformed). */
static astar_status scen_line(const char *s, size_t n, int32_t line, astar_scen_query *q,
                              const char **name, size_t *name_n, astar_parse_error *err) {
  size_t at[SCEN_FIELDS], tn[SCEN_FIELDS], i = 0, xat, xn, k;
  int64_t v[SCEN_FIELDS] = {0};
  char qb[40];
  int nf;

  *name = s;
  *name_n = 0;

  for (nf = 0; nf < SCEN_FIELDS; nf++)
    if (!fmt_token(s, n, &i, &at[nf], &tn[nf])) break;
  if (nf < SCEN_FIELDS)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[nf - 1] + tn[nf - 1] + 1,
                             "line has %d fields, expected %d (missing %s)", nf, SCEN_FIELDS,
                             scen_field_names[nf]);
  if (fmt_token(s, n, &i, &xat, &xn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, xat + 1, "line has more than %d fields",
                             SCEN_FIELDS);

  for (k = 0; k < SCEN_FIELDS - 1; k++) {
    int r;
    if (k == 1) continue; /* the map name */
    r = fmt_uint(s + at[k], tn[k], INT32_MAX, &v[k]);
    if (r == NUM_NEGATIVE)
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[k] + 1, "%s is negative (%s)",
                               scen_field_names[k], astar__quote(qb, sizeof qb, s + at[k], tn[k]));
    if (r == NUM_RANGE)
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[k] + 1, "%s %s is out of range",
                               scen_field_names[k], astar__quote(qb, sizeof qb, s + at[k], tn[k]));
    if (r != NUM_OK)
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[k] + 1,
                               "%s must be an integer, got '%s'", scen_field_names[k],
                               astar__quote(qb, sizeof qb, s + at[k], tn[k]));
    if ((k == 2 || k == 3) && v[k] == 0)
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[k] + 1, "%s must be at least 1",
                               scen_field_names[k]);
    if (k >= 4 && v[k] >= v[k % 2 ? 3 : 2])
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[k] + 1,
                               "%s %lld lies outside the %lld x %lld map", scen_field_names[k],
                               (long long)v[k], (long long)v[2], (long long)v[3]);
  }
  if (memchr(s + at[1], '\0', tn[1]))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[1] + 1,
                             "map name contains a NUL byte");
  if (!fmt_double(s + at[8], tn[8], &q->optimal_length))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[8] + 1,
                             "optimal length must be a number, got '%s'",
                             astar__quote(qb, sizeof qb, s + at[8], tn[8]));
  if (q->optimal_length < 0 || q->optimal_length > 1e300)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at[8] + 1,
                             "optimal length %s is out of range",
                             astar__quote(qb, sizeof qb, s + at[8], tn[8]));
  q->bucket = (int32_t)v[0];
  q->map = NULL;
  q->map_width = (int32_t)v[2];
  q->map_height = (int32_t)v[3];
  q->start.x = (int32_t)v[4];
  q->start.y = (int32_t)v[5];
  q->goal.x = (int32_t)v[6];
  q->goal.y = (int32_t)v[7];
  *name = s + at[1];
  *name_n = tn[1];
  return ASTAR_OK;
}

/* The "version N" line into *version; the cursor is left just after it. */
static astar_status scen_version(fmt_cursor *c, double *version, astar_parse_error *err) {
  const char *s;
  size_t n, i, at, tn;
  char q[40];
  *version = 0.0; /* defined on the error paths too */
  for (;;) {
    if (!fmt_next(c, &s, &n)) {
      int32_t line;
      size_t col;
      fmt_eof(c, &line, &col);
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col, "missing 'version' line");
    }
    i = 0;
    if (fmt_token(s, n, &i, &at, &tn)) break;
  }
  if (!fmt_is(s + at, tn, "version"))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, c->line, at + 1,
                             "expected 'version 1' as the first line, got '%s'",
                             astar__quote(q, sizeof q, s + at, tn));
  if (!fmt_token(s, n, &i, &at, &tn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, c->line, i + 1, "missing version number");
  if (!fmt_double(s + at, tn, version) || *version != 1.0)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, c->line, at + 1,
                             "unsupported scenario version '%s' (expected 1 or 1.0)",
                             astar__quote(q, sizeof q, s + at, tn));
  if (fmt_token(s, n, &i, &at, &tn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, c->line, at + 1,
                             "unexpected text after the version number");
  return ASTAR_OK;
}

astar_status astar_movingai_parse_scen(astar_scen **out, const char *text, size_t len,
                                       const astar_allocator *alloc, astar_parse_error *err) {
  fmt_cursor c, body;
  const char *s, *name, *prev = NULL;
  size_t n, name_n, prev_n = 0, count = 0, pool = 0, head, total;
  double version;
  astar_scen_query q, *qs;
  astar_scen *scen;
  char *names;
  astar_status st;

  if (out) *out = NULL;
  if (!out || (!text && len))
    return astar__parse_fail(err, ASTAR_INVALID_ARGUMENT, 0, 0, "%s is NULL", out ? "text" : "out");
  fmt_init(&c, text, len);
  st = scen_version(&c, &version, err);
  if (st != ASTAR_OK) return st;

  /* Pass 1: validate, count the queries and the distinct consecutive map
  ** names (every benchmark file repeats one name, so they share a string). */
  body = c;
  while (fmt_next(&c, &s, &n)) {
    if (fmt_blank(s, n)) continue;
    st = scen_line(s, n, c.line, &q, &name, &name_n, err);
    if (st != ASTAR_OK) return st;
    count++;
    if (!prev || prev_n != name_n || memcmp(prev, name, name_n) != 0) pool += name_n + 1;
    prev = name;
    prev_n = name_n;
  }

  head = (sizeof(astar_scen) + _Alignof(astar_scen_query) - 1) / _Alignof(astar_scen_query) *
         _Alignof(astar_scen_query);
  if (count > (SIZE_MAX - head - pool) / sizeof(astar_scen_query))
    return astar__parse_fail(err, ASTAR_TOO_LARGE, 0, 0, "too many queries");
  total = head + count * sizeof(astar_scen_query) + pool;
  scen = fmt_alloc(alloc, total);
  if (!scen) return fmt_no_memory(err);
  scen->alloc.fn = alloc ? alloc->fn : NULL;
  scen->alloc.ud = alloc ? alloc->ud : NULL;
  scen->bytes = total;
  scen->count = count;
  scen->version = version;
  scen->queries = qs = (astar_scen_query *)((char *)scen + head);
  names = (char *)(qs + count);

  /* Pass 2: fill in; the text is known to be valid. */
  c = body;
  prev = NULL;
  count = 0;
  while (fmt_next(&c, &s, &n)) {
    if (fmt_blank(s, n)) continue;
    scen_line(s, n, c.line, &qs[count], &name, &name_n, NULL);
    qs[count].line = c.line;
    if (!prev || prev_n != name_n || memcmp(prev, name, name_n) != 0) {
      memcpy(names, name, name_n);
      names[name_n] = '\0';
      qs[count].map = names;
      names += name_n + 1;
    } else {
      qs[count].map = qs[count - 1].map;
    }
    prev = name;
    prev_n = name_n;
    count++;
  }
  *out = scen;
  return ASTAR_OK;
}

void astar_scen_free(astar_scen *scen) {
  if (scen) {
    astar_allocator a = scen->alloc;
    fmt_free(&a, scen, scen->bytes);
  }
}

size_t astar_scen_count(const astar_scen *scen) {
  return scen ? scen->count : 0;
}

const astar_scen_query *astar_scen_queries(const astar_scen *scen) {
  return scen ? scen->queries : NULL;
}

double astar_scen_version(const astar_scen *scen) {
  return scen ? scen->version : 0.0;
}

/* ---------------------------------------------------------------------------
** Plain ASCII maps.
*/

static const unsigned char ascii_cells[256] = {
    ['.'] = CELL_OPEN,  [' '] = CELL_OPEN,  ['#'] = CELL_WALL,  ['@'] = CELL_WALL,
    ['T'] = CELL_WALL,  ['O'] = CELL_WALL,  ['W'] = CELL_WALL,  ['S'] = CELL_START,
    ['G'] = CELL_GOAL,  ['1'] = CELL_DIGIT, ['2'] = CELL_DIGIT, ['3'] = CELL_DIGIT,
    ['4'] = CELL_DIGIT, ['5'] = CELL_DIGIT, ['6'] = CELL_DIGIT, ['7'] = CELL_DIGIT,
    ['8'] = CELL_DIGIT, ['9'] = CELL_DIGIT,
};

/* True when only empty lines and comments follow the cursor. */
static bool ascii_rest_empty(fmt_cursor c) {
  const char *s;
  size_t n;
  while (fmt_next(&c, &s, &n))
    if (n > 0 && s[0] != ';') return false;
  return true;
}

astar_status astar_ascii_parse_map(astar_grid **out, const char *text, size_t len,
                                   const astar_allocator *alloc, astar_point *start,
                                   astar_point *goal, astar_parse_error *err) {
  fmt_cursor c, first;
  const char *s;
  size_t n, x, w = 0;
  int64_t h = 0, y;
  int32_t sline = 0, gline = 0;
  size_t scol = 0, gcol = 0;
  astar_point sp = {-1, -1}, gp = {-1, -1};
  astar_grid *g = NULL;
  astar_status st;

  if (start) *start = sp;
  if (goal) *goal = gp;
  if (out) *out = NULL;
  if (!out || (!text && len))
    return astar__parse_fail(err, ASTAR_INVALID_ARGUMENT, 0, 0, "%s is NULL", out ? "text" : "out");
  fmt_init(&c, text, len);

  /* Pass 1: skip leading empty lines and comments, then validate rows. */
  for (;;) {
    first = c;
    if (!fmt_next(&c, &s, &n)) {
      int32_t line;
      size_t col;
      fmt_eof(&c, &line, &col);
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col, "the map has no rows");
    }
    if (n > 0 && s[0] != ';') break;
  }
  w = n;
  if (w > ASTAR_GRID_MAX_SIDE)
    return astar__parse_fail(err, ASTAR_TOO_LARGE, c.line, ASTAR_GRID_MAX_SIDE + 1,
                             "row is %zu cells wide, the limit is %d", w, ASTAR_GRID_MAX_SIDE);
  for (;;) {
    size_t lim = n < w ? n : w;
    if (h >= ASTAR_GRID_MAX_SIDE)
      return astar__parse_fail(err, ASTAR_TOO_LARGE, c.line, 1, "map has more than %d rows",
                               ASTAR_GRID_MAX_SIDE);
    if ((uint64_t)(h + 1) * w > ASTAR_GRID_MAX_CELLS)
      return astar__parse_fail(err, ASTAR_TOO_LARGE, c.line, 1,
                               "map has more than %u cells (%zu a row, %lld rows so far)",
                               (unsigned)ASTAR_GRID_MAX_CELLS, w, (long long)h);
    for (x = 0; x < lim; x++) {
      switch (ascii_cells[(unsigned char)s[x]]) {
      case CELL_BAD:
        return fmt_bad_cell(err, c.line, x + 1, s[x]);
      case CELL_START:
        if (sline)
          return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, x + 1,
                                   "second start 'S' (the first is at line %d, column %zu)",
                                   (int)sline, scol);
        sline = c.line;
        scol = x + 1;
        sp.x = (int32_t)x;
        sp.y = (int32_t)h;
        break;
      case CELL_GOAL:
        if (gline)
          return astar__parse_fail(err, ASTAR_PARSE_ERROR, c.line, x + 1,
                                   "second goal 'G' (the first is at line %d, column %zu)",
                                   (int)gline, gcol);
        gline = c.line;
        gcol = x + 1;
        gp.x = (int32_t)x;
        gp.y = (int32_t)h;
        break;
      default:
        break;
      }
    }
    if (n != w) return fmt_row_length(err, c.line, h, n, (int64_t)w);
    h++;
    /* Next row: comments are skipped; an empty line ends the map if only
    ** empty lines and comments follow, and is a too-short row otherwise. */
    do {
      if (!fmt_next(&c, &s, &n)) goto rows_done;
    } while (n > 0 && s[0] == ';');
    if (n == 0 && ascii_rest_empty(c)) goto rows_done;
  }
rows_done:

  /* Pass 2: build the grid. */
  st = astar_grid_new(&g, (int32_t)w, (int32_t)h, alloc);
  if (st != ASTAR_OK) {
    if (st == ASTAR_NO_MEMORY) return fmt_no_memory(err);
    return astar__parse_fail(err, st, 0, 0, "cannot create a %zu x %lld grid", w, (long long)h);
  }
  c = first;
  for (y = 0; y < h; y++) {
    do fmt_next(&c, &s, &n);
    while (n == 0 || s[0] == ';');
    for (x = 0; x < w; x++) {
      unsigned char ch = (unsigned char)s[x];
      unsigned cls = ascii_cells[ch];
      st = ASTAR_OK;
      if (cls == CELL_WALL)
        st = astar_grid_set_passable(g, (int32_t)x, (int32_t)y, false);
      else if (cls == CELL_DIGIT && ch != '1')
        st = astar_grid_set_terrain(g, (int32_t)x, (int32_t)y, (float)(ch - '0'));
      if (st != ASTAR_OK) {
        astar_grid_free(g);
        if (st == ASTAR_NO_MEMORY) return fmt_no_memory(err);
        return astar__parse_fail(err, st, c.line, x + 1, "cannot set cell (%zu, %lld)", x,
                                 (long long)y);
      }
    }
  }
  if (start) *start = sp;
  if (goal) *goal = gp;
  *out = g;
  return ASTAR_OK;
}

/* ---------------------------------------------------------------------------
** Either format.
*/

static bool fmt_prefix(const char *s, size_t n, const char *word) {
  size_t wn = strlen(word);
  return n >= wn && memcmp(s, word, wn) == 0;
}

astar_status astar_parse_map(astar_grid **out, const char *text, size_t len,
                             const astar_allocator *alloc, astar_point *start, astar_point *goal,
                             astar_parse_error *err) {
  fmt_cursor c;
  const char *s;
  size_t n;

  if (text || !len) {
    fmt_init(&c, text, len);
    while (fmt_next(&c, &s, &n)) {
      size_t i = 0;
      while (i < n && fmt_space(s[i])) i++;
      if (i == n) continue;
      s += i;
      n -= i;
      if (fmt_prefix(s, n, "type") || fmt_prefix(s, n, "height") || fmt_prefix(s, n, "width")) {
        astar_point none = {-1, -1};
        if (start) *start = none;
        if (goal) *goal = none;
        return astar_movingai_parse_map(out, text, len, alloc, err);
      }
      break;
    }
  }
  return astar_ascii_parse_map(out, text, len, alloc, start, goal, err);
}
