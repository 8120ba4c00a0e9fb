/*
** formats/hex_map.c -- the ASCII hex map format of astar/hex.h, parsed from
** memory. Two passes, as the other map parsers: the first validates the
** whole text and measures the map (so a small malformed text never causes a
** large allocation), the second builds the grid through the public hex
** grid API. The text is never read past len and need not end with a NUL.
*/
#include "astar/hex.h"
#include "formats/text.h"

#include <stdio.h> /* vsnprintf, for error messages only */
#include <string.h>

/* ---- lines and words ------------------------------------------------------------- */

typedef struct cursor {
  const char *s;
  size_t len;
  size_t pos;   /* offset of the next line */
  int32_t line; /* 1-based number of the line last returned, 0 before the first */
  size_t last;  /* length of the line last returned */
} cursor;

/* The next line without its terminator (LF, CRLF or CR). */
static bool next_line(cursor *c, const char **line, size_t *n) {
  if (c->pos >= c->len) return false;
  const char *p = c->s + c->pos, *end = c->s + c->len;
  while (p < end && *p != '\n' && *p != '\r') p++;
  *line = c->s + c->pos;
  *n = (size_t)(p - *line);
  if (p < end) p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1;
  c->pos = (size_t)(p - c->s);
  if (c->line < INT32_MAX) c->line++;
  c->last = *n;
  return true;
}

/* Where the text ends: after the last character of an unterminated last
** line, or column 1 of the line after a final line break. */
static void end_of_text(const cursor *c, int32_t *line, size_t *col) {
  if (c->len == 0) {
    *line = 1;
    *col = 1;
  } else if (c->s[c->len - 1] == '\n' || c->s[c->len - 1] == '\r') {
    *line = c->line < INT32_MAX ? c->line + 1 : INT32_MAX;
    *col = 1;
  } else {
    *line = c->line;
    *col = c->last + 1;
  }
}

static bool blank(char ch) {
  return ch == ' ' || ch == '\t';
}

/* Offset of the first non-blank character of s[0..n), n when none. */
static size_t skip_blanks(const char *s, size_t n, size_t i) {
  while (i < n && blank(s[i])) i++;
  return i;
}

/* Blank lines and ';' comments carry nothing. */
static bool ignorable(const char *s, size_t n) {
  const size_t i = skip_blanks(s, n, 0);
  return i == n || s[i] == ';';
}

/* The next blank-separated word of s[0..n) at or after *i. */
static bool word(const char *s, size_t n, size_t *i, size_t *at, size_t *wn) {
  size_t k = skip_blanks(s, n, *i);
  if (k == n) {
    *i = k;
    return false;
  }
  *at = k;
  while (k < n && !blank(s[k])) k++;
  *wn = k - *at;
  *i = k;
  return true;
}

static bool is_word(const char *s, size_t n, const char *w) {
  return n == strlen(w) && memcmp(s, w, n) == 0;
}

/* The next line that is neither blank nor a comment. */
static bool next_content(cursor *c, const char **line, size_t *n) {
  while (next_line(c, line, n))
    if (!ignorable(*line, *n)) return true;
  return false;
}

/* ---- the header ----------------------------------------------------------------- */

typedef struct shape {
  astar_hex_orientation orientation;
  astar_hex_layout layout;
} shape;

static const char *const layout_names[2][2] = {{"odd-r", "even-r"}, {"odd-q", "even-q"}};

static astar_status header(const char *s, size_t n, int32_t line, shape *sh,
                           astar_parse_error *err) {
  char q[40];
  size_t i = 0, at = 0, wn = 0;
  word(s, n, &i, &at, &wn); /* the line is not blank */
  if (!is_word(s + at, wn, "hex"))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at + 1,
                             "expected the header 'hex pointy|flat [LAYOUT]', got '%s'",
                             astar__quote(q, sizeof q, s + at, wn));
  if (!word(s, n, &i, &at, &wn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, i + 1,
                             "missing orientation after 'hex' (pointy or flat)");
  if (is_word(s + at, wn, "pointy"))
    sh->orientation = ASTAR_HEX_POINTY;
  else if (is_word(s + at, wn, "flat"))
    sh->orientation = ASTAR_HEX_FLAT;
  else
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at + 1,
                             "unknown orientation '%s' (expected pointy or flat)",
                             astar__quote(q, sizeof q, s + at, wn));
  sh->layout = ASTAR_HEX_ODD;
  if (!word(s, n, &i, &at, &wn)) return ASTAR_OK;
  const int o = sh->orientation == ASTAR_HEX_FLAT, other = !o;
  const char *const *mine = layout_names[o];
  if (is_word(s + at, wn, mine[0])) {
    sh->layout = ASTAR_HEX_ODD;
  } else if (is_word(s + at, wn, mine[1])) {
    sh->layout = ASTAR_HEX_EVEN;
  } else if (is_word(s + at, wn, layout_names[other][0]) ||
             is_word(s + at, wn, layout_names[other][1])) {
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at + 1,
                             "layout %s is for %s maps; %s maps take %s or %s",
                             astar__quote(q, sizeof q, s + at, wn), o ? "pointy" : "flat",
                             o ? "flat" : "pointy", mine[0], mine[1]);
  } else {
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at + 1,
                             "unknown layout '%s' (expected %s or %s)",
                             astar__quote(q, sizeof q, s + at, wn), mine[0], mine[1]);
  }
  if (word(s, n, &i, &at, &wn))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, at + 1,
                             "unexpected text '%s' after the header",
                             astar__quote(q, sizeof q, s + at, wn));
  return ASTAR_OK;
}

/* ---- rows ------------------------------------------------------------------------- */

enum { CELL_BAD = 0, CELL_OPEN, CELL_WALL, CELL_START, CELL_GOAL, CELL_DIGIT };

static const unsigned char cells[256] = {
    ['.'] = CELL_OPEN,  ['#'] = CELL_WALL,  ['S'] = CELL_START, ['G'] = CELL_GOAL,
    ['1'] = CELL_DIGIT, ['2'] = CELL_DIGIT, ['3'] = CELL_DIGIT, ['4'] = CELL_DIGIT,
    ['5'] = CELL_DIGIT, ['6'] = CELL_DIGIT, ['7'] = CELL_DIGIT, ['8'] = CELL_DIGIT,
    ['9'] = CELL_DIGIT,
};

/* What the first pass learns. */
typedef struct survey {
  size_t width, height;
  astar_point start, goal;
  int32_t sline, gline; /* lines of 'S' and 'G', 0 when absent */
  size_t scol, gcol;    /* their columns */
} survey;

/* One row: its cells checked, counted against the width (the first row sets
** it), 'S' and 'G' recorded. */
static astar_status row(const char *s, size_t n, int32_t line, survey *sv, astar_parse_error *err) {
  const size_t first = skip_blanks(s, n, 0);
  if (sv->height == ASTAR_HEX_MAX_SIDE)
    return astar__parse_fail(err, ASTAR_TOO_LARGE, line, first + 1, "the map has more than %d rows",
                             ASTAR_HEX_MAX_SIDE);
  const size_t limit = sv->height ? sv->width : ASTAR_HEX_MAX_SIDE;
  size_t count = 0, extra = 0, end = 0;
  for (size_t i = first; i < n; i++) {
    const char ch = s[i];
    if (blank(ch)) continue;
    char q[16];
    const astar_point here = {(int32_t)count, (int32_t)sv->height};
    switch (cells[(unsigned char)ch]) {
    case CELL_BAD:
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, i + 1,
                               "unknown cell character '%s' (expected . # 1-9 S G)",
                               astar__quote(q, sizeof q, &ch, 1));
    case CELL_START:
      if (sv->sline)
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, i + 1,
                                 "second start 'S' (the first is at line %d, column %zu)",
                                 (int)sv->sline, sv->scol);
      sv->sline = line;
      sv->scol = i + 1;
      sv->start = here;
      break;
    case CELL_GOAL:
      if (sv->gline)
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, i + 1,
                                 "second goal 'G' (the first is at line %d, column %zu)",
                                 (int)sv->gline, sv->gcol);
      sv->gline = line;
      sv->gcol = i + 1;
      sv->goal = here;
      break;
    default:
      break;
    }
    if (count == limit) extra = i + 1;
    count++;
    end = i + 1;
  }
  if (sv->height == 0) {
    if (count > limit)
      return astar__parse_fail(err, ASTAR_TOO_LARGE, line, extra,
                               "the row has %zu cells, the limit is %d", count, ASTAR_HEX_MAX_SIDE);
    sv->width = count;
  } else if (count != sv->width) {
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, count > sv->width ? extra : end + 1,
                             "row %zu (y=%zu) has %zu cells, expected %zu", sv->height + 1,
                             sv->height, count, sv->width);
  }
  if ((uint64_t)(sv->height + 1) * sv->width > ASTAR_HEX_MAX_CELLS)
    return astar__parse_fail(err, ASTAR_TOO_LARGE, line, first + 1,
                             "the map has more than %u cells", (unsigned)ASTAR_HEX_MAX_CELLS);
  sv->height++;
  return ASTAR_OK;
}

/* ---- the parser ---------------------------------------------------------------------- */

/* Second pass: the cells of a valid text into the new grid. */
static astar_status fill(astar_hex_grid *g, cursor c) {
  const char *s;
  size_t n;
  int32_t y = 0;
  while (next_content(&c, &s, &n)) {
    int32_t x = 0;
    for (size_t i = 0; i < n; i++) {
      const unsigned char ch = (unsigned char)s[i];
      if (blank((char)ch)) continue;
      astar_status st = ASTAR_OK;
      if (cells[ch] == CELL_WALL)
        st = astar_hex_grid_set_passable(g, x, y, false);
      else if (cells[ch] == CELL_DIGIT && ch != '1')
        st = astar_hex_grid_set_terrain(g, x, y, (float)(ch - '0'));
      if (st != ASTAR_OK) return st;
      x++;
    }
    y++;
  }
  return ASTAR_OK;
}

astar_status astar_hex_parse_map(astar_hex_grid **out, const char *text, size_t len,
                                 const astar_allocator *alloc, astar_point *start,
                                 astar_point *goal, astar_parse_error *err) {
  const astar_point none = {-1, -1};
  if (start) *start = none;
  if (goal) *goal = none;
  if (out) *out = NULL;
  if (!out || (!text && len))
    return astar__parse_fail(err, ASTAR_INVALID_ARGUMENT, 0, 0, "%s is NULL", out ? "text" : "out");
  cursor c = {text, len, 0, 0, 0};
  const char *s;
  size_t n;
  int32_t line;
  size_t col;

  /* Pass 1: the header, then every row. */
  if (!next_content(&c, &s, &n)) {
    end_of_text(&c, &line, &col);
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col,
                             "missing the header 'hex pointy|flat [LAYOUT]'");
  }
  shape sh = {ASTAR_HEX_POINTY, ASTAR_HEX_ODD};
  astar_status st = header(s, n, c.line, &sh, err);
  if (st != ASTAR_OK) return st;
  const cursor rows = c;
  survey sv;
  memset(&sv, 0, sizeof sv);
  sv.start = sv.goal = none;
  while (next_content(&c, &s, &n))
    if ((st = row(s, n, c.line, &sv, err)) != ASTAR_OK) return st;
  if (sv.height == 0) {
    end_of_text(&c, &line, &col);
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col,
                             "the map has no rows after the header");
  }

  /* Pass 2: build. */
  astar_hex_grid *g;
  st = astar_hex_grid_new(&g, (int32_t)sv.width, (int32_t)sv.height, sh.orientation, sh.layout,
                          alloc);
  if (st == ASTAR_OK && (st = fill(g, rows)) != ASTAR_OK) astar_hex_grid_free(g);
  if (st != ASTAR_OK)
    return astar__parse_fail(err, st, 0, 0, "cannot create a %zu x %zu hex grid: %s", sv.width,
                             sv.height, st == ASTAR_NO_MEMORY ? "out of memory" : "invalid size");
  if (start) *start = sv.start;
  if (goal) *goal = sv.goal;
  *out = g;
  return ASTAR_OK;
}

bool astar_hex_is_map(const char *text, size_t len) {
  if (!text) return false;
  cursor c = {text, len, 0, 0, 0};
  const char *s;
  size_t n;
  if (!next_content(&c, &s, &n)) return false;
  size_t i = 0, at = 0, wn = 0;
  return word(s, n, &i, &at, &wn) && is_word(s + at, wn, "hex");
}
