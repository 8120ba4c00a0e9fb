/*
** formats/dimacs.c -- the DIMACS shortest-path formats of the 9th DIMACS
** Implementation Challenge (astar/graph.h): .gr arcs into a graph, .co
** coordinates and .p2p queries into caller buffers, parsed from memory
** with the line and column of every error.
**
** Every parser reads (text, len) and never past len. A line is split into
** at most MAXF fields (spaces and tabs); one more is "an extra field". The
** .gr and .p2p parsers validate the whole text before writing or
** allocating anything; the .gr parser then runs the same scan a second
** time filling a temporary edge array, and builds the graph from it.
*/
#include "core/internal.h"
#include "formats/text.h"

#include "astar/graph.h"

#include <math.h>
#include <stdio.h> /* vsnprintf, for error messages only */
#include <string.h>

#define MAXF 6 /* fields kept per line: the longest line ("p aux sp co N") has 5 */

/* ---- lines and fields ------------------------------------------------------------------ */

typedef struct cursor {
  const char *s; /* the text */
  size_t len;    /* its length */
  size_t pos;    /* offset of the next line */
  int32_t line;  /* 1-based number of the line last read, 0 before the first */
  size_t last;   /* length of the line last read */
} cursor;

/* One line split into fields. */
typedef struct fields {
  const char *s;    /* the line, without its terminator */
  size_t n;         /* its length */
  int32_t line;     /* its 1-based number */
  size_t at[MAXF];  /* offset of each field in s */
  size_t len[MAXF]; /* length of each field */
  int count;        /* fields kept, 0 .. MAXF */
  size_t extra;     /* offset of field MAXF + 1 when there is one, else SIZE_MAX */
} fields;

static bool blank(char c) {
  return c == ' ' || c == '\t';
}

/* The next line (LF, CRLF or CR ends it), split into fields. */
static bool next_line(cursor *c, fields *f) {
  if (c->pos >= c->len) return false;
  const char *p = c->s + c->pos, *end = c->s + c->len;
  while (p < end && *p != '\n' && *p != '\r') p++;
  f->s = c->s + c->pos;
  f->n = (size_t)(p - f->s);
  if (p < end) p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1;
  c->pos = (size_t)(p - c->s);
  if (c->line < INT32_MAX) c->line++;
  c->last = f->n;
  f->line = c->line;
  f->count = 0;
  f->extra = SIZE_MAX;
  for (size_t i = 0; i < f->n;) {
    while (i < f->n && blank(f->s[i])) i++;
    if (i == f->n) break;
    const size_t at = i;
    while (i < f->n && !blank(f->s[i])) i++;
    if (f->count == MAXF) {
      f->extra = at;
      break;
    }
    f->at[f->count] = at;
    f->len[f->count++] = i - at;
  }
  return true;
}

/* Where the text ends: after the last character of an unterminated last
** line, or column 1 of the line after a final line break. */
static void end_of_text(const cursor *c, int32_t *line, size_t *col) {
  if (c->len == 0) {
    *line = 1;
    *col = 1;
    return;
  }
  const char ch = c->s[c->len - 1];
  if (ch == '\n' || ch == '\r') {
    *line = c->line < INT32_MAX ? c->line + 1 : INT32_MAX;
    *col = 1;
  } else {
    *line = c->line;
    *col = c->last + 1;
  }
}

static bool field_is(const fields *f, int k, const char *word) {
  return f->len[k] == strlen(word) && memcmp(f->s + f->at[k], word, f->len[k]) == 0;
}

/* Comment ("c ...", or any line whose first field starts with c) or blank. */
static bool skip_line(const fields *f) {
  return f->count == 0 || f->s[f->at[0]] == 'c';
}

/* ---- numbers (no locale: '.' is the decimal point) ------------------------------------- */

enum { NUM_OK, NUM_BAD, NUM_NEGATIVE, NUM_RANGE };

/* A decimal integer of digits only, saturating above 2^62. A '-' followed
** by digits is NUM_NEGATIVE. */
static int parse_uint(const char *s, size_t n, uint64_t *out) {
  size_t i = 0;
  const bool neg = n > 0 && s[0] == '-';
  if (neg || (n > 0 && s[0] == '+')) i = 1;
  if (i == n) return NUM_BAD;
  uint64_t v = 0;
  bool range = false;
  for (; i < n; i++) {
    const unsigned d = (unsigned)(unsigned char)s[i] - '0';
    if (d > 9) return NUM_BAD;
    if (v > (UINT64_C(1) << 62))
      range = true;
    else
      v = v * 10 + d;
  }
  if (neg && v != 0) return NUM_NEGATIVE;
  if (range) return NUM_RANGE;
  *out = v;
  return NUM_OK;
}

/*
** [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?, the whole
** field, as format.c reads decimal numbers: up to 19 significant digits;
** correctly rounded when they fit in 2^53 and the power of ten within
** 1e22 (always so for the challenge's integers). Overflow gives infinity.
*/
static bool parse_double(const char *s, size_t n, double *out) {
  static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  uint64_t m = 0;
  int sig = 0;
  long e10 = 0;
  bool neg = false, digits = false;
  size_t i = 0;
  if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
    digits = true;
    if (sig < 19) {
      m = m * 10 + (uint64_t)(s[i] - '0');
      if (m) sig++;
    } else {
      e10++;
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
  double r = (double)m;
  if (m == 0) {
    r = 0.0;
  } else if (m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
    r = e10 >= 0 ? r * pow10[e10] : r / pow10[-e10];
  } else {
    while (e10 > 22 && r < 1e300) r *= 1e22, e10 -= 22;
    while (e10 < -22 && r > 1e-300) r /= 1e22, e10 += 22;
    if (e10 > 22 || e10 < -22)
      r = e10 > 0 ? r * 1e300 : 0.0;
    else
      r = e10 >= 0 ? r * pow10[e10] : r / pow10[-e10];
  }
  *out = neg ? -r : r;
  return true;
}

/* ---- fields of one line ------------------------------------------------------------------ */

/* The line has at least `want` and at most `most` fields; names[k - first]
** says what field k is, for the messages. */
static astar_status arity(const fields *f, int want, int most, int first, const char *what,
                          const char *const *names, astar_parse_error *err) {
  if (f->count < want)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->n + 1, "%s: missing %s", what,
                             names[f->count - first]);
  const size_t extra = f->count > most ? f->at[most] : f->extra;
  if (extra != SIZE_MAX) {
    char q[40];
    size_t end = extra;
    while (end < f->n && !blank(f->s[end])) end++;
    return astar__parse_fail(
        err, ASTAR_PARSE_ERROR, f->line, extra + 1, "%s: unexpected field '%s' after %s", what,
        astar__quote(q, sizeof q, f->s + extra, end - extra), names[most - 1 - first]);
  }
  return ASTAR_OK;
}

/* Field k, a node id from 1 to n, as a 0-based node. */
static astar_status node_id(const fields *f, int k, uint32_t n, const char *what, const char *name,
                            astar_node *out, astar_parse_error *err) {
  char q[40];
  uint64_t v = 0;
  const int r = parse_uint(f->s + f->at[k], f->len[k], &v);
  if (r == NUM_BAD)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[k] + 1,
                             "%s: %s '%s' is not a node id", what, name,
                             astar__quote(q, sizeof q, f->s + f->at[k], f->len[k]));
  if (r != NUM_OK || v == 0 || v > n)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[k] + 1,
                             "%s: %s %s is out of range (node ids run from 1 to %u)", what, name,
                             astar__quote(q, sizeof q, f->s + f->at[k], f->len[k]), (unsigned)n);
  *out = (astar_node)(v - 1);
  return ASTAR_OK;
}

/* Field k, a finite number (>= 0 when nonneg). */
static astar_status number(const fields *f, int k, bool nonneg, const char *what, const char *name,
                           double *out, astar_parse_error *err) {
  char q[40];
  const char *s = f->s + f->at[k];
  if (!parse_double(s, f->len[k], out))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[k] + 1,
                             "%s: %s '%s' is not a number", what, name,
                             astar__quote(q, sizeof q, s, f->len[k]));
  if (!isfinite(*out))
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[k] + 1,
                             "%s: %s '%s' is out of range", what, name,
                             astar__quote(q, sizeof q, s, f->len[k]));
  if (nonneg && *out < 0.0)
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[k] + 1, "%s: %s %s is negative",
                             what, name, astar__quote(q, sizeof q, s, f->len[k]));
  *out += 0.0; /* -0 reads as +0 */
  return ASTAR_OK;
}

/*
** The problem line "p WORDS... NUMBERS...": `words` after the "p", then
** `nnums` integers into nums (a count above max[k]: ASTAR_TOO_LARGE).
** `form` is the whole line's pattern, for messages ("p sp N M").
*/
static astar_status problem(const fields *f, const char *const *words, int nwords,
                            const char *const *names, int nnums, const uint64_t *max,
                            const char *form, uint64_t *nums, astar_parse_error *err) {
  char q[40], what[48];
  snprintf(what, sizeof what, "problem line '%s'", form);
  for (int k = 1; k <= nwords; k++) {
    if (f->count <= k)
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->n + 1, "%s: missing '%s'", what,
                               words[k - 1]);
    if (!field_is(f, k, words[k - 1]))
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[k] + 1,
                               "%s: expected '%s', got '%s'", what, words[k - 1],
                               astar__quote(q, sizeof q, f->s + f->at[k], f->len[k]));
  }
  const int all = 1 + nwords + nnums;
  const astar_status st = arity(f, all, all, 1 + nwords, what, names, err);
  if (st != ASTAR_OK) return st;
  for (int k = 0; k < nnums; k++) {
    const int i = 1 + nwords + k;
    const int r = parse_uint(f->s + f->at[i], f->len[i], &nums[k]);
    if (r == NUM_BAD || r == NUM_NEGATIVE)
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[i] + 1,
                               "%s: %s must be a whole number >= 0, got '%s'", what, names[k],
                               astar__quote(q, sizeof q, f->s + f->at[i], f->len[i]));
    if (r == NUM_RANGE || nums[k] > max[k])
      return astar__parse_fail(err, ASTAR_TOO_LARGE, f->line, f->at[i] + 1,
                               "%s: %s %s exceeds the limit of %llu", what, names[k],
                               astar__quote(q, sizeof q, f->s + f->at[i], f->len[i]),
                               (unsigned long long)max[k]);
  }
  return ASTAR_OK;
}

/* A line of the wrong type for the format. */
static astar_status unknown_type(const fields *f, const char *ext, const char *types,
                                 astar_parse_error *err) {
  char q[40];
  return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[0] + 1,
                           "unknown line type '%s' (a %s file has %s lines)",
                           astar__quote(q, sizeof q, f->s + f->at[0], f->len[0]), ext, types);
}

static astar_status second_problem(const fields *f, int32_t first, astar_parse_error *err) {
  return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[0] + 1,
                           "a second problem line (the first is line %d)", (int)first);
}

static astar_status no_problem(const cursor *c, const char *form, astar_parse_error *err) {
  int32_t line;
  size_t col;
  end_of_text(c, &line, &col);
  return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col, "missing problem line '%s'", form);
}

static astar_status before_problem(const fields *f, const char *what, const char *form,
                                   astar_parse_error *err) {
  return astar__parse_fail(err, ASTAR_PARSE_ERROR, f->line, f->at[0] + 1,
                           "%s before the problem line '%s'", what, form);
}

/* ---- .gr ----------------------------------------------------------------------------------- */

/*
** One scan of a .gr text: checks it and, when edges is not NULL, stores
** the arcs there (the text was checked before). *nodes and *arcs get the
** problem line's N and M.
*/
static astar_status scan_gr(const char *text, size_t len, bool undirected, astar_graph_edge *edges,
                            uint32_t *nodes, uint64_t *arcs, astar_parse_error *err) {
  static const char *const pwords[] = {"sp"};
  static const char *const pnames[] = {"N (nodes)", "M (arcs)"};
  static const char *const anames[] = {"'a'", "the tail U", "the head V", "the cost W"};
  const char *form = "p sp N M";
  const uint64_t max[2] = {ASTAR_GRAPH_MAX_NODES,
                           undirected ? ASTAR_GRAPH_MAX_ARCS / 2 : ASTAR_GRAPH_MAX_ARCS};
  cursor c = {text, len, 0, 0, 0};
  fields f;
  int32_t pline = 0;
  size_t pcol = 0; /* column of N on the problem line */
  uint64_t hdr[2] = {0, 0}, count = 0;
  astar_status st;
  while (next_line(&c, &f)) {
    if (skip_line(&f)) continue;
    if (field_is(&f, 0, "p")) {
      if (pline) return second_problem(&f, pline, err);
      if ((st = problem(&f, pwords, 1, pnames, 2, max, form, hdr, err)) != ASTAR_OK) return st;
      if (hdr[0] == 0)
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, f.line, f.at[2] + 1,
                                 "problem line '%s': a graph needs at least one node (N is 0)",
                                 form);
      pline = f.line;
      pcol = f.at[2] + 1;
    } else if (field_is(&f, 0, "a")) {
      if (!pline) return before_problem(&f, "an arc line", form, err);
      if (count == hdr[1])
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, f.line, f.at[0] + 1,
                                 "more arc lines than the %llu of the problem line (line %d)",
                                 (unsigned long long)hdr[1], (int)pline);
      astar_graph_edge e = {0, 0, 0.0};
      if ((st = arity(&f, 4, 4, 0, "arc", anames, err)) != ASTAR_OK ||
          (st = node_id(&f, 1, (uint32_t)hdr[0], "arc", "tail", &e.from, err)) != ASTAR_OK ||
          (st = node_id(&f, 2, (uint32_t)hdr[0], "arc", "head", &e.to, err)) != ASTAR_OK ||
          (st = number(&f, 3, true, "arc", "cost", &e.cost, err)) != ASTAR_OK)
        return st;
      if (e.cost > ASTAR_GRAPH_MAX_COST) {
        char q[40];
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, f.line, f.at[3] + 1,
                                 "arc: cost %s is above %g (ASTAR_GRAPH_MAX_COST)",
                                 astar__quote(q, sizeof q, f.s + f.at[3], f.len[3]),
                                 ASTAR_GRAPH_MAX_COST);
      }
      if (edges) edges[count] = e;
      count++;
    } else {
      return unknown_type(&f, ".gr", "c, p and a", err);
    }
  }
  if (!pline) return no_problem(&c, form, err);
  if (count != hdr[1]) {
    int32_t line;
    size_t col;
    end_of_text(&c, &line, &col);
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col,
                             "the problem line (line %d) announces %llu arcs, the file has %llu",
                             (int)pline, (unsigned long long)hdr[1], (unsigned long long)count);
  }
  /* The nodes cost memory (offsets, and every search's workspace) that the
  ** text does not hold: beyond the 2 M that arcs can touch, only
  ** ASTAR_DIMACS_MAX_LONE_NODES more. Checked before anything is allocated. */
  const uint64_t touchable = 2 * hdr[1] + ASTAR_DIMACS_MAX_LONE_NODES;
  if (hdr[0] > touchable)
    return astar__parse_fail(err, ASTAR_TOO_LARGE, pline, pcol,
                             "problem line '%s': N %llu exceeds 2 M + %u = %llu: more nodes than "
                             "the arcs can touch",
                             form, (unsigned long long)hdr[0],
                             (unsigned)ASTAR_DIMACS_MAX_LONE_NODES, (unsigned long long)touchable);
  *nodes = (uint32_t)hdr[0];
  *arcs = count;
  return ASTAR_OK;
}

astar_status astar_dimacs_parse_gr(astar_graph **out, const char *text, size_t len, unsigned flags,
                                   const astar_allocator *alloc, astar_parse_error *err) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if ((!text && len > 0) || (flags & ~ASTAR_GRAPH_UNDIRECTED)) return ASTAR_INVALID_ARGUMENT;
  if (!text) text = "";
  const bool undirected = (flags & ASTAR_GRAPH_UNDIRECTED) != 0;
  uint32_t n = 0;
  uint64_t m = 0;
  astar_status st = scan_gr(text, len, undirected, NULL, &n, &m, err);
  if (st != ASTAR_OK) return st;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_graph_edge *edges = NULL;
  if (m > 0) {
    edges = astar__calloc(&a, (size_t)m, sizeof *edges);
    if (!edges) return astar__parse_fail(err, ASTAR_NO_MEMORY, 0, 0, "out of memory");
    scan_gr(text, len, undirected, edges, &n, &m, err); /* checked: cannot fail */
  }
  st = astar_graph_new(out, n, edges, (size_t)m, flags, &a);
  astar__free(&a, edges, (size_t)m * sizeof *edges);
  if (st == ASTAR_NO_MEMORY) return astar__parse_fail(err, st, 0, 0, "out of memory");
  if (st != ASTAR_OK) return astar__parse_fail(err, st, 0, 0, "%s", astar_strerror(st));
  return ASTAR_OK;
}

/* ---- .co ------------------------------------------------------------------------------------- */

astar_status astar_dimacs_parse_co(const char *text, size_t len, uint32_t node_count, double *xy,
                                   astar_parse_error *err) {
  static const char *const pwords[] = {"aux", "sp", "co"};
  static const char *const pnames[] = {"N (nodes)"};
  static const char *const vnames[] = {"'v'", "the node id", "the coordinate X",
                                       "the coordinate Y"};
  const char *form = "p aux sp co N";
  if ((!text && len > 0) || !xy || node_count == 0) return ASTAR_INVALID_ARGUMENT;
  if (!text) text = "";
  for (size_t i = 0; i < 2 * (size_t)node_count; i++) xy[i] = NAN; /* NaN: not given yet */
  const uint64_t max[1] = {ASTAR_GRAPH_MAX_NODES};
  cursor c = {text, len, 0, 0, 0};
  fields f;
  int32_t pline = 0;
  uint64_t hdr[1] = {0};
  astar_status st;
  while (next_line(&c, &f)) {
    if (skip_line(&f)) continue;
    if (field_is(&f, 0, "p")) {
      if (pline) return second_problem(&f, pline, err);
      if ((st = problem(&f, pwords, 3, pnames, 1, max, form, hdr, err)) != ASTAR_OK) return st;
      if (hdr[0] != node_count)
        return astar__parse_fail(
            err, ASTAR_PARSE_ERROR, f.line, f.at[4] + 1,
            "problem line '%s': coordinates for %llu nodes, but the graph has %u", form,
            (unsigned long long)hdr[0], (unsigned)node_count);
      pline = f.line;
    } else if (field_is(&f, 0, "v")) {
      if (!pline) return before_problem(&f, "a node line", form, err);
      astar_node v = 0;
      double x = 0.0, y = 0.0;
      if ((st = arity(&f, 4, 4, 0, "node", vnames, err)) != ASTAR_OK ||
          (st = node_id(&f, 1, node_count, "node", "id", &v, err)) != ASTAR_OK ||
          (st = number(&f, 2, false, "node", "X", &x, err)) != ASTAR_OK ||
          (st = number(&f, 3, false, "node", "Y", &y, err)) != ASTAR_OK)
        return st;
      if (!isnan(xy[2 * (size_t)v]))
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, f.line, f.at[1] + 1,
                                 "node: node %u has coordinates already", (unsigned)v + 1);
      xy[2 * (size_t)v] = x;
      xy[2 * (size_t)v + 1] = y;
    } else {
      return unknown_type(&f, ".co", "c, p and v", err);
    }
  }
  if (!pline) return no_problem(&c, form, err);
  for (uint32_t v = 0; v < node_count; v++)
    if (isnan(xy[2 * (size_t)v])) {
      int32_t line;
      size_t col;
      end_of_text(&c, &line, &col);
      return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col, "node %u has no coordinates",
                               (unsigned)v + 1);
    }
  return ASTAR_OK;
}

/* ---- .p2p ------------------------------------------------------------------------------------ */

static astar_status scan_p2p(const char *text, size_t len, uint32_t node_count,
                             astar_dimacs_query *queries, uint64_t *total, astar_parse_error *err) {
  static const char *const pwords[] = {"aux", "sp", "p2p"};
  static const char *const pnames[] = {"K (queries)"};
  static const char *const qnames[] = {"'q'", "the source S", "the target T", "the cost C"};
  const char *form = "p aux sp p2p K";
  const uint64_t max[1] = {UINT64_C(1) << 62};
  cursor c = {text, len, 0, 0, 0};
  fields f;
  int32_t pline = 0;
  uint64_t hdr[1] = {0}, count = 0;
  astar_status st;
  while (next_line(&c, &f)) {
    if (skip_line(&f)) continue;
    if (field_is(&f, 0, "p")) {
      if (pline) return second_problem(&f, pline, err);
      if ((st = problem(&f, pwords, 3, pnames, 1, max, form, hdr, err)) != ASTAR_OK) return st;
      pline = f.line;
    } else if (field_is(&f, 0, "q")) {
      if (!pline) return before_problem(&f, "a query line", form, err);
      if (count == hdr[0])
        return astar__parse_fail(err, ASTAR_PARSE_ERROR, f.line, f.at[0] + 1,
                                 "more query lines than the %llu of the problem line (line %d)",
                                 (unsigned long long)hdr[0], (int)pline);
      astar_dimacs_query q = {0, 0, -1.0, f.line};
      if ((st = arity(&f, 3, 4, 0, "query", qnames, err)) != ASTAR_OK ||
          (st = node_id(&f, 1, node_count, "query", "source", &q.source, err)) != ASTAR_OK ||
          (st = node_id(&f, 2, node_count, "query", "target", &q.target, err)) != ASTAR_OK ||
          (f.count == 4 && (st = number(&f, 3, true, "query", "cost", &q.cost, err)) != ASTAR_OK))
        return st;
      if (queries) queries[count] = q;
      count++;
    } else {
      return unknown_type(&f, ".p2p", "c, p and q", err);
    }
  }
  if (!pline) return no_problem(&c, form, err);
  if (count != hdr[0]) {
    int32_t line;
    size_t col;
    end_of_text(&c, &line, &col);
    return astar__parse_fail(err, ASTAR_PARSE_ERROR, line, col,
                             "the problem line (line %d) announces %llu queries, the file has %llu",
                             (int)pline, (unsigned long long)hdr[0], (unsigned long long)count);
  }
  *total = count;
  return ASTAR_OK;
}

astar_status astar_dimacs_parse_p2p(const char *text, size_t len, uint32_t node_count,
                                    astar_dimacs_query *queries, size_t cap, size_t *count,
                                    astar_parse_error *err) {
  if (!count) return ASTAR_INVALID_ARGUMENT;
  *count = 0;
  if ((!text && len > 0) || node_count == 0 || (cap > 0 && !queries)) return ASTAR_INVALID_ARGUMENT;
  if (!text) text = "";
  uint64_t total = 0;
  const astar_status st = scan_p2p(text, len, node_count, NULL, &total, err);
  if (st != ASTAR_OK) return st;
  *count = (size_t)total;
  if (total > cap) return ASTAR_BUFFER_TOO_SMALL;
  scan_p2p(text, len, node_count, queries, &total, err); /* checked: cannot fail */
  return ASTAR_OK;
}
