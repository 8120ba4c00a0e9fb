/*
** mesh/io.c -- text formats of navigation meshes and polygon maps:
** Polyanya's mesh format (version 2 read and written, version 1 read and
** converted) and its polygon-map format (version 1, read and written),
** through memory only (astar/mesh.h, astar/navmesh_build.h).
**
** Both formats are whitespace-insensitive: a stream of tokens whose counts
** say how many follow. A fault names the token's line and column and the
** vertex or polygon it belongs to. Numbers are parsed in the C locale
** whatever the process's locale; coordinates are written with the
** shortest of %.15g, %.16g and %.17g that reads back to the same double.
*/
#include "astar/navmesh_build.h"
#include "mesh/mesh.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h> /* snprintf / vsnprintf: numbers and fault messages */
#include <stdlib.h>
#include <string.h>

/* ---- tokens ---------------------------------------------------------------- */

typedef struct lexer {
  const char *s;
  size_t len, pos;
  uint32_t line, col; /* of pos */
  /* The last token. */
  const char *tok;
  size_t tlen;
  uint32_t tline, tcol;
} lexer;

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Advance to the next token; false at the end of the text (tline / tcol
** then say where the text ends). */
static bool next(lexer *x) {
  while (x->pos < x->len && is_space(x->s[x->pos])) {
    if (x->s[x->pos] == '\n') {
      x->line++;
      x->col = 1;
    } else {
      x->col++;
    }
    x->pos++;
  }
  x->tline = x->line;
  x->tcol = x->col;
  x->tok = x->s + x->pos;
  x->tlen = 0;
  if (x->pos >= x->len) return false;
  while (x->pos < x->len && !is_space(x->s[x->pos])) {
    x->pos++;
    x->col++;
    x->tlen++;
  }
  return true;
}

/* The token quoted for a message (at most 24 bytes, unprintable bytes as
** \xNN). */
static const char *quote(char *buf, size_t cap, const char *s, size_t n) {
  size_t o = 0;
  buf[o++] = '\'';
  for (size_t i = 0; i < n; i++) {
    const unsigned char c = (unsigned char)s[i];
    if (o + 8 >= cap) {
      memcpy(buf + o, "...", 3);
      o += 3;
      break;
    }
    if (c >= 32 && c < 127) {
      buf[o++] = (char)c;
    } else {
      snprintf(buf + o, cap - o, "\\x%02X", c);
      o += 4;
    }
  }
  buf[o++] = '\'';
  buf[o] = 0;
  return buf;
}

/* A fault at the current token (or the text's end). */
static void fail_at(const lexer *x, astar_mesh_fault *f, astar_mesh_fault_kind kind,
                    int32_t polygon, int32_t vertex, const char *what, const char *fmt, ...) {
  if (!f) return;
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->polygon = polygon;
  f->vertex = vertex;
  f->other = -1;
  f->line = x->tline;
  f->column = x->tcol;
  const size_t cap = sizeof f->message;
  int w;
  if (what && f->line)
    w = snprintf(f->message, cap, "%s (line %lu, column %lu): ", what, (unsigned long)f->line,
                 (unsigned long)f->column);
  else if (what)
    w = snprintf(f->message, cap, "%s: ", what);
  else if (f->line)
    w = snprintf(f->message, cap, "line %lu, column %lu: ", (unsigned long)f->line,
                 (unsigned long)f->column);
  else
    w = snprintf(f->message, cap, "%s", "");
  size_t len = w > 0 ? (size_t)w : 0;
  if (len >= cap) len = cap - 1;
  va_list ap;
  va_start(ap, fmt);
  /* clang-tidy 14 reports ap uninitialised here when one run analyses this
  ** file twice (formats/text.c has the same note).
  ** NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
  vsnprintf(f->message + len, cap - len, fmt, ap);
  va_end(ap);
}

enum { NUM_OK, NUM_EOF, NUM_BAD, NUM_RANGE };

/* An integer token: [+-]?digits. NUM_RANGE beyond [lo, hi]. */
static int read_int(lexer *x, long long lo, long long hi, long long *out) {
  if (!next(x)) return NUM_EOF;
  size_t i = 0;
  bool neg = false;
  if (x->tok[0] == '-' || x->tok[0] == '+') neg = x->tok[i++] == '-';
  if (i == x->tlen) return NUM_BAD;
  long long v = 0;
  bool big = false;
  for (; i < x->tlen; i++) {
    const unsigned d = (unsigned)(unsigned char)x->tok[i] - '0';
    if (d > 9) return NUM_BAD;
    if (v > (LLONG_MAX - 9) / 10)
      big = true;
    else
      v = v * 10 + (long long)d;
  }
  if (neg) v = -v;
  *out = v;
  if (big || v < lo || v > hi) return NUM_RANGE;
  return NUM_OK;
}

/* A number token, [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?,
** read as strtod reads it in the C locale (correctly rounded). NUM_RANGE
** when it overflows to infinity. */
static int read_double(lexer *x, double *out) {
  if (!next(x)) return NUM_EOF;
  const char *s = x->tok;
  const size_t n = x->tlen;
  size_t i = 0, digits = 0;
  if (i < n && (s[i] == '+' || s[i] == '-')) i++;
  while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
  size_t dot = SIZE_MAX;
  if (i < n && s[i] == '.') {
    dot = i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
  }
  if (!digits) return NUM_BAD;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t ed = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, ed++;
    if (!ed) return NUM_BAD;
  }
  if (i != n) return NUM_BAD;
  char buf[400];
  if (n >= sizeof buf) return NUM_BAD;
  memcpy(buf, s, n);
  buf[n] = 0;
  /* strtod follows LC_NUMERIC: give it the locale's decimal point. */
  if (dot != SIZE_MAX) {
    const struct lconv *lc = localeconv();
    if (lc && lc->decimal_point && lc->decimal_point[0] && !lc->decimal_point[1])
      buf[dot] = lc->decimal_point[0];
  }
  char *end;
  const double v = strtod(buf, &end);
  if (end != buf + n) return NUM_BAD;
  *out = v;
  return isfinite(v) ? NUM_OK : NUM_RANGE;
}

/* A number written in the C locale: the shortest of %.15g .. %.17g that
** reads back to v. Returns its length (< 32). */
static size_t write_double(char *buf, double v) {
  v += 0.0; /* -0 as 0 (-0 + 0 is +0): the same point */
  const struct lconv *lc = localeconv();
  const char dp = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
  int n = 0;
  for (int prec = 15; prec <= 17; prec++) {
    n = snprintf(buf, 32, "%.*g", prec, v);
    if (prec == 17 || strtod(buf, NULL) == v) break;
  }
  if (dp != '.')
    for (int i = 0; i < n; i++)
      if (buf[i] == dp) buf[i] = '.';
  return (size_t)n;
}

/* ---- an output buffer that counts past its end ------------------------------- */

typedef struct obuf {
  char *buf;
  size_t cap, len;
} obuf;

static void put(obuf *o, const char *s, size_t n) {
  if (o->len < o->cap) {
    const size_t room = o->cap - o->len;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

static void put_int(obuf *o, long long v, char sep) {
  char b[32];
  const int n = snprintf(b, sizeof b, "%lld%c", v, sep);
  put(o, b, (size_t)n);
}

static void put_double(obuf *o, double v, char sep) {
  char b[40];
  size_t n = write_double(b, v);
  b[n++] = sep;
  put(o, b, n);
}

static astar_status finish_out(obuf *o, size_t *len) {
  if (len) *len = o->len;
  if (o->len + 1 > o->cap) {
    if (o->cap && o->buf) o->buf[0] = 0;
    return ASTAR_BUFFER_TOO_SMALL;
  }
  if (o->buf) o->buf[o->len] = 0;
  return ASTAR_OK;
}

/* ---- reading meshes ----------------------------------------------------------- */

/* Grow the line and column arrays *a and *b, both of *cap elements, to
** hold `need`: both or neither. */
static bool grow_lines(const astar_allocator *al, uint32_t **a, uint32_t **b, size_t *cap,
                       size_t need) {
  if (need <= *cap) return true;
  const size_t c = need > *cap * 2 + 16 ? need : *cap * 2 + 16;
  uint32_t *qa = astar__calloc(al, c, sizeof *qa), *qb = astar__calloc(al, c, sizeof *qb);
  if (!qa || !qb) {
    astar__free(al, qa, c * sizeof *qa);
    astar__free(al, qb, c * sizeof *qb);
    return false;
  }
  if (*cap) {
    memcpy(qa, *a, *cap * sizeof *qa);
    memcpy(qb, *b, *cap * sizeof *qb);
  }
  astar__free(al, *a, *cap * sizeof *qa);
  astar__free(al, *b, *cap * sizeof *qb);
  *a = qa;
  *b = qb;
  *cap = c;
  return true;
}

/* Report a number that did not read: syntax, range, or the text's end. */
static astar_status bad_number(const lexer *x, astar_mesh_fault *f, int r, int32_t polygon,
                               int32_t vertex, const char *what, const char *expected, long long lo,
                               long long hi) {
  char q[40];
  if (r == NUM_EOF) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, polygon, vertex, what,
            "the text ends where %s was expected", expected);
    return ASTAR_PARSE_ERROR;
  }
  if (r == NUM_BAD) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, polygon, vertex, what, "expected %s, found %s", expected,
            quote(q, sizeof q, x->tok, x->tlen));
    return ASTAR_PARSE_ERROR;
  }
  if (lo > hi) { /* a coordinate */
    fail_at(x, f, ASTAR_MESH_FAULT_RANGE, polygon, vertex, what, "%s %s is not finite", expected,
            quote(q, sizeof q, x->tok, x->tlen));
  } else {
    fail_at(x, f, ASTAR_MESH_FAULT_RANGE, polygon, vertex, what,
            "%s %s is out of range [%lld, %lld]", expected, quote(q, sizeof q, x->tok, x->tlen), lo,
            hi);
  }
  return ASTAR_PARSE_ERROR;
}

/* A count of the header (`what`: "the polygon count"; `unit`: "polygons")
** in 0 .. ASTAR_MESH_MAX_ELEMENTS: ASTAR_OK, ASTAR_PARSE_ERROR or
** ASTAR_TOO_LARGE, *f filled on failure. */
static astar_status read_count(lexer *x, astar_mesh_fault *f, const char *what, const char *unit,
                               long long *out) {
  const long long max = ASTAR_MESH_MAX_ELEMENTS;
  const int r = read_int(x, 0, LLONG_MAX, out);
  if (r != NUM_OK) return bad_number(x, f, r, -1, -1, NULL, what, 0, max);
  if (*out > max) {
    fail_at(x, f, ASTAR_MESH_FAULT_TOO_LARGE, -1, -1, NULL, "%lld %s: more than %lld", *out, unit,
            max);
    return ASTAR_TOO_LARGE;
  }
  return ASTAR_OK;
}

static astar_status parse_mesh(astar_mesh *m, lexer *x, astar_mesh_fault *f) {
  char q[40], what[48];
  long long version, nv, np;
  if (!next(x) || x->tlen != 4 || memcmp(x->tok, "mesh", 4) != 0) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, -1, -1, NULL, "expected the header 'mesh', found %s",
            x->tlen ? quote(q, sizeof q, x->tok, x->tlen) : "the end of the text");
    return ASTAR_PARSE_ERROR;
  }
  int r = read_int(x, 1, 2, &version);
  if (r != NUM_OK) {
    if (r == NUM_RANGE)
      fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, -1, -1, NULL, "version %s is not supported (1 or 2)",
              quote(q, sizeof q, x->tok, x->tlen));
    return r == NUM_RANGE ? ASTAR_PARSE_ERROR
                          : bad_number(x, f, r, -1, -1, NULL, "the version (1 or 2)", 1, 2);
  }
  astar_status cst = read_count(x, f, "the vertex count", "vertices", &nv);
  if (cst == ASTAR_OK) cst = read_count(x, f, "the polygon count", "polygons", &np);
  if (cst != ASTAR_OK) return cst;
  /* Arrays grow as the text delivers: a short text declaring 10^8
  ** vertices fails at its end, not in the allocator. */
  for (long long v = 0; v < nv; v++) {
    snprintf(what, sizeof what, "vertex %lld", v);
    astar_vec2 p;
    if (astar__mesh_alloc_arrays(m, (size_t)v + 1, 0, 0) != ASTAR_OK ||
        !grow_lines(&m->alloc, &m->vline, &m->vcol, &m->lines_v, (size_t)v + 1))
      return ASTAR_NO_MEMORY;
    r = read_double(x, &p.x);
    m->vline[v] = x->tline;
    m->vcol[v] = x->tcol;
    if (r != NUM_OK) return bad_number(x, f, r, -1, (int32_t)v, what, "the x coordinate", 1, 0);
    r = read_double(x, &p.y);
    if (r != NUM_OK) return bad_number(x, f, r, -1, (int32_t)v, what, "the y coordinate", 1, 0);
    m->v[v] = p;
    m->nv = (size_t)v + 1;
    long long n, pi;
    r = read_int(x, 0, LLONG_MAX, &n);
    if (r != NUM_OK)
      return bad_number(x, f, r, -1, (int32_t)v, what, "the number of polygons around it", 0,
                        LLONG_MAX);
    for (long long k = 0; k < n; k++) {
      r = read_int(x, -1, np - 1, &pi);
      if (r != NUM_OK)
        return bad_number(x, f, r, -1, (int32_t)v, what, "a polygon index", -1, np - 1);
    }
  }
  for (long long i = 0; i < np; i++) {
    snprintf(what, sizeof what, "polygon %lld", i);
    long long n, t;
    const size_t pool = m->pool_len;
    if (astar__mesh_alloc_arrays(m, (size_t)nv, (size_t)i + 1, 0) != ASTAR_OK ||
        !grow_lines(&m->alloc, &m->pline, &m->pcol, &m->lines_p, (size_t)i + 1))
      return ASTAR_NO_MEMORY;
    r = read_int(x, 0, LLONG_MAX, &n);
    m->pline[i] = x->tline;
    m->pcol[i] = x->tcol;
    if (r != NUM_OK)
      return bad_number(x, f, r, (int32_t)i, -1, what, "the vertex count", 3, ASTAR_MESH_MAX_SIDES);
    if (n > (long long)ASTAR_MESH_MAX_SIDES) {
      fail_at(x, f, ASTAR_MESH_FAULT_TOO_LARGE, (int32_t)i, -1, what, "%lld vertices: more than %u",
              n, (unsigned)ASTAR_MESH_MAX_SIDES);
      return ASTAR_TOO_LARGE;
    }
    if (n < 3) {
      fail_at(x, f, ASTAR_MESH_FAULT_DEGENERATE, (int32_t)i, -1, what,
              "%lld vertices: a polygon needs at least 3", n);
      return ASTAR_PARSE_ERROR;
    }
    const astar_status st =
        astar__mesh_alloc_arrays(m, (size_t)nv, (size_t)i + 1, pool + (size_t)n);
    if (st != ASTAR_OK) return st;
    m->poff[i] = (uint32_t)pool;
    m->pn[i] = (uint32_t)n;
    m->np = (size_t)i + 1;
    m->pool_len = pool + (size_t)n;
    for (long long k = 0; k < n; k++) m->pv[pool + k] = m->pnb[pool + k] = -1;
    for (long long k = 0; k < n; k++) {
      r = read_int(x, 0, nv - 1, &t);
      if (r != NUM_OK)
        return bad_number(x, f, r, (int32_t)i, -1, what, "a vertex index", 0, nv - 1);
      m->pv[pool + k] = (int32_t)t;
    }
    for (long long k = 0; k < n; k++) {
      r = read_int(x, -1, np - 1, &t);
      if (r != NUM_OK)
        return bad_number(x, f, r, (int32_t)i, -1, what, "a neighbour index", -1, np - 1);
      m->pnb[pool + k] = (int32_t)t;
    }
    if (version == 1) { /* v1: neighbour k across vertices k and k+1 */
      int32_t *nb = m->pnb + pool;
      const int32_t last = nb[n - 1];
      memmove(nb + 1, nb, (size_t)(n - 1) * sizeof *nb);
      nb[0] = last;
    }
  }
  if (next(x)) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, -1, -1, NULL,
            "unexpected %s after the last polygon (%lld vertices and %lld polygons declared)",
            quote(q, sizeof q, x->tok, x->tlen), nv, np);
    return ASTAR_PARSE_ERROR;
  }
  return ASTAR_OK;
}

astar_status astar_mesh_read(astar_mesh **out, const char *text, size_t len,
                             const astar_allocator *alloc, astar_mesh_fault *fault) {
  if (fault) {
    memset(fault, 0, sizeof *fault);
    fault->polygon = fault->vertex = fault->other = -1;
  }
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!text && len) return ASTAR_INVALID_ARGUMENT;
  if (!text) text = "";
  astar_mesh *m;
  astar_status st = astar__mesh_new(&m, alloc);
  if (st != ASTAR_OK) return st;
  lexer x = {text, len, 0, 1, 1, text, 0, 1, 1};
  st = parse_mesh(m, &x, fault);
  if (st == ASTAR_OK) {
    st = astar__mesh_finish(m, fault);
    if (st == ASTAR_INVALID_ARGUMENT) st = ASTAR_PARSE_ERROR;
  }
  if (st == ASTAR_NO_MEMORY && fault) {
    memset(fault, 0, sizeof *fault);
    fault->polygon = fault->vertex = fault->other = -1;
  }
  if (st != ASTAR_OK) {
    astar_mesh_free(m);
    return st;
  }
  astar__mesh_drop_lines(m);
  *out = m;
  return ASTAR_OK;
}

/* ---- writing meshes ------------------------------------------------------------ */

/* Numbers after dropping empty entries (polygon slots with no vertices,
** vertices on no polygon: a builder's mesh may have both): i - (empty
** entries before i), from per-block counts kept on the stack (no
** allocation): O(count / RANK_BLOCKS) a lookup. */
#define RANK_BLOCKS 2048
typedef struct ranker {
  const uint32_t *size; /* entry i is empty when size[i] == 0 */
  size_t block;         /* entries per block */
  uint32_t before[RANK_BLOCKS];
  size_t kept;   /* entries not empty */
  bool identity; /* none empty */
} ranker;

static void ranker_init(ranker *r, const uint32_t *size, size_t count) {
  r->size = size;
  r->block = count / RANK_BLOCKS + 1;
  uint32_t empty = 0;
  for (size_t b = 0; b < RANK_BLOCKS; b++) {
    r->before[b] = empty;
    const size_t end = (b + 1) * r->block < count ? (b + 1) * r->block : count;
    for (size_t i = b * r->block; i < end; i++) empty += size[i] == 0;
  }
  r->kept = count - empty;
  r->identity = empty == 0;
}

static long long rank_of(const ranker *r, int32_t i) {
  if (i < 0 || r->identity) return i;
  const size_t b = (size_t)i / r->block;
  size_t empty = r->before[b];
  for (size_t j = b * r->block; j < (size_t)i; j++) empty += r->size[j] == 0;
  return (long long)i - (long long)empty;
}

/* buf is written through an obuf: not const whatever clang-tidy infers. */
astar_status astar_mesh_write(const astar_mesh *m,
                              char *buf, /* NOLINT(readability-non-const-parameter) */
                              size_t cap, size_t *len) {
  if (len) *len = 0;
  if (!m || (!buf && cap)) return ASTAR_INVALID_ARGUMENT;
  ranker pr, vr; /* 8 KB each, on the stack: no allocation */
  ranker_init(&pr, m->pn, m->np);
  ranker_init(&vr, m->vn, m->nv);
  obuf o = {buf, cap, 0};
  put(&o, "mesh\n2\n", 7);
  put_int(&o, (long long)vr.kept, ' ');
  put_int(&o, (long long)pr.kept, '\n');
  for (size_t v = 0; v < m->nv; v++) {
    if (!m->vn[v]) continue;
    put_double(&o, m->v[v].x, ' ');
    put_double(&o, m->v[v].y, ' ');
    const int32_t *vp = m->vp + m->voff[v];
    put_int(&o, (long long)m->vn[v], ' ');
    for (uint32_t k = 0; k < m->vn[v]; k++)
      put_int(&o, rank_of(&pr, vp[k]), k + 1 < m->vn[v] ? ' ' : '\n');
  }
  for (size_t i = 0; i < m->np; i++) {
    const uint32_t n = m->pn[i];
    if (!n) continue;
    const int32_t *pv = m->pv + m->poff[i], *nb = m->pnb + m->poff[i];
    put_int(&o, n, ' ');
    for (uint32_t k = 0; k < n; k++) put_int(&o, rank_of(&vr, pv[k]), ' ');
    for (uint32_t k = 0; k < n; k++) put_int(&o, rank_of(&pr, nb[k]), k + 1 < n ? ' ' : '\n');
  }
  return finish_out(&o, len);
}

/* ---- polygon maps ------------------------------------------------------------------ */

struct astar_polymap {
  astar_allocator alloc;
  size_t np, np_cap;
  uint32_t *off, *n; /* polygon i: pts[off[i] .. off[i] + n[i] - 1] */
  astar_vec2 *pts;
  size_t npts, pts_cap;
};

void astar_polymap_free(astar_polymap *map) {
  if (!map) return;
  const astar_allocator a = map->alloc;
  astar__free(&a, map->off, map->np_cap * sizeof(uint32_t));
  astar__free(&a, map->n, map->np_cap * sizeof(uint32_t));
  astar__free(&a, map->pts, map->pts_cap * sizeof(astar_vec2));
  astar__free(&a, map, sizeof *map);
}

size_t astar_polymap_count(const astar_polymap *map) {
  return map ? map->np : 0;
}

uint32_t astar_polymap_polygon(const astar_polymap *map, size_t i, const astar_vec2 **points) {
  if (!map || i >= map->np) {
    if (points) *points = NULL;
    return 0;
  }
  if (points) *points = map->pts + map->off[i];
  return map->n[i];
}

static bool polymap_reserve(astar_polymap *p, size_t np, size_t npts) {
  if (np > p->np_cap) {
    const size_t c = np > p->np_cap * 2 + 8 ? np : p->np_cap * 2 + 8;
    uint32_t *off = astar__calloc(&p->alloc, c, sizeof *off);
    uint32_t *n = astar__calloc(&p->alloc, c, sizeof *n);
    if (!off || !n) {
      astar__free(&p->alloc, off, c * sizeof *off);
      astar__free(&p->alloc, n, c * sizeof *n);
      return false;
    }
    if (p->np_cap) {
      memcpy(off, p->off, p->np_cap * sizeof *off);
      memcpy(n, p->n, p->np_cap * sizeof *n);
    }
    astar__free(&p->alloc, p->off, p->np_cap * sizeof *off);
    astar__free(&p->alloc, p->n, p->np_cap * sizeof *n);
    p->off = off;
    p->n = n;
    p->np_cap = c;
  }
  if (npts > p->pts_cap) {
    const size_t c = npts > p->pts_cap * 2 + 16 ? npts : p->pts_cap * 2 + 16;
    astar_vec2 *q = astar__calloc(&p->alloc, c, sizeof *q);
    if (!q) return false;
    if (p->pts_cap) memcpy(q, p->pts, p->pts_cap * sizeof *q);
    astar__free(&p->alloc, p->pts, p->pts_cap * sizeof *q);
    p->pts = q;
    p->pts_cap = c;
  }
  return true;
}

/* The sign of x - y, exactly. */
static int sgn(double x, double y) {
  return (x > y) - (x < y);
}

/* Is p (collinear with a and b) on the closed segment ab? */
static bool on_segment(astar_vec2 a, astar_vec2 b, astar_vec2 p) {
  return p.x >= (a.x < b.x ? a.x : b.x) && p.x <= (a.x < b.x ? b.x : a.x) &&
         p.y >= (a.y < b.y ? a.y : b.y) && p.y <= (a.y < b.y ? b.y : a.y);
}

/* Do closed segments ab and cd share a point? (exact) */
static bool segments_meet(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  const int o1 = astar__orient2d(a, b, c), o2 = astar__orient2d(a, b, d);
  const int o3 = astar__orient2d(c, d, a), o4 = astar__orient2d(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 == 0 && on_segment(a, b, c)) return true;
  if (o2 == 0 && on_segment(a, b, d)) return true;
  if (o3 == 0 && on_segment(c, d, a)) return true;
  if (o4 == 0 && on_segment(c, d, b)) return true;
  return false;
}

/* Is polygon i simple? Otherwise fault DEGENERATE naming two edges.
** Edges are swept in order of their left ends; an edge is compared with
** the earlier ones whose x range still reaches it. */
typedef struct seg {
  double x0, x1;
  uint32_t k;
} seg;

static int seg_cmp(const void *pa, const void *pb) {
  const seg *a = pa, *b = pb;
  if (a->x0 != b->x0) return a->x0 < b->x0 ? -1 : 1;
  return a->k < b->k ? -1 : a->k > b->k;
}

static astar_status check_simple(const astar_polymap *p, size_t i, astar_mesh_fault *f,
                                 uint32_t line, uint32_t col) {
  const uint32_t n = p->n[i];
  const astar_vec2 *v = p->pts + p->off[i];
  char what[48];
  snprintf(what, sizeof what, "polygon %zu", i);
  lexer at = {0};
  at.tline = line;
  at.tcol = col;
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = v[k], b = v[(k + 1) % n];
    if (a.x == b.x && a.y == b.y) {
      fail_at(&at, f, ASTAR_MESH_FAULT_DEGENERATE, (int32_t)i, (int32_t)((k + 1) % n), what,
              "points %lu and %lu coincide", (unsigned long)k, (unsigned long)((k + 1) % n));
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  seg *s = astar__calloc(&p->alloc, n, sizeof *s);
  if (!s) return ASTAR_NO_MEMORY;
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = v[k], b = v[(k + 1) % n];
    s[k].x0 = a.x < b.x ? a.x : b.x;
    s[k].x1 = a.x < b.x ? b.x : a.x;
    s[k].k = k;
  }
  qsort(s, n, sizeof *s, seg_cmp);
  astar_status st = ASTAR_OK;
  uint32_t e1 = 0, e2 = 0;
  for (uint32_t x = 0; x < n && st == ASTAR_OK; x++) {
    for (uint32_t y = x + 1; y < n && s[y].x0 <= s[x].x1; y++) {
      uint32_t k = s[x].k, j = s[y].k;
      if (k > j) {
        const uint32_t t = k;
        k = j;
        j = t;
      }
      const astar_vec2 a = v[k], b = v[(k + 1) % n], c = v[j], d = v[(j + 1) % n];
      bool bad;
      if (j == k + 1 || (k == 0 && j == n - 1)) {
        /* Adjacent: they share one point; bad when they overlap along a
        ** line (the boundary turns back). Triangles' edges share points
        ** with both others: only the collinear overlap matters. */
        const astar_vec2 shared = j == k + 1 ? b : a;
        const astar_vec2 p1 = j == k + 1 ? a : b, p2 = j == k + 1 ? d : c;
        bad = astar__orient2d(p1, shared, p2) == 0 &&
              (sgn(p1.x, shared.x) * sgn(p2.x, shared.x) > 0 ||
               sgn(p1.y, shared.y) * sgn(p2.y, shared.y) > 0);
      } else {
        bad = segments_meet(a, b, c, d);
      }
      if (bad) {
        e1 = k;
        e2 = j;
        st = ASTAR_INVALID_ARGUMENT;
        break;
      }
    }
  }
  astar__free(&p->alloc, s, n * sizeof *s);
  if (st == ASTAR_INVALID_ARGUMENT) {
    fail_at(&at, f, ASTAR_MESH_FAULT_DEGENERATE, (int32_t)i, (int32_t)e1, what,
            "its edges %lu-%lu and %lu-%lu meet: the polygon is not simple", (unsigned long)e1,
            (unsigned long)((e1 + 1) % n), (unsigned long)e2, (unsigned long)((e2 + 1) % n));
  }
  return st;
}

/* Polygon i's points were stored: check them (finite, enough, simple). */
static astar_status polymap_check(const astar_polymap *p, size_t i, astar_mesh_fault *f,
                                  uint32_t line, uint32_t col) {
  char what[48];
  snprintf(what, sizeof what, "polygon %zu", i);
  lexer at = {0};
  at.tline = line;
  at.tcol = col;
  if (p->n[i] < 3) {
    fail_at(&at, f, ASTAR_MESH_FAULT_DEGENERATE, (int32_t)i, -1, what,
            "%lu points: a polygon needs at least 3", (unsigned long)p->n[i]);
    return ASTAR_INVALID_ARGUMENT;
  }
  const astar_vec2 *v = p->pts + p->off[i];
  for (uint32_t k = 0; k < p->n[i]; k++) {
    if (!isfinite(v[k].x) || !isfinite(v[k].y)) {
      fail_at(&at, f, ASTAR_MESH_FAULT_RANGE, (int32_t)i, (int32_t)k, what,
              "point %lu is not finite", (unsigned long)k);
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  return check_simple(p, i, f, line, col);
}

static astar_status polymap_alloc(astar_polymap **out, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_polymap *p = astar__calloc(&a, 1, sizeof *p);
  *out = p;
  if (!p) return ASTAR_NO_MEMORY;
  p->alloc = a;
  return ASTAR_OK;
}

static void clear_fault(astar_mesh_fault *f) {
  if (!f) return;
  memset(f, 0, sizeof *f);
  f->polygon = f->vertex = f->other = -1;
}

static astar_status parse_polymap(astar_polymap *p, lexer *x, astar_mesh_fault *f) {
  char q[40], what[48];
  long long version, np;
  if (!next(x) || x->tlen != 4 || memcmp(x->tok, "poly", 4) != 0) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, -1, -1, NULL, "expected the header 'poly', found %s",
            x->tlen ? quote(q, sizeof q, x->tok, x->tlen) : "the end of the text");
    return ASTAR_PARSE_ERROR;
  }
  int r = read_int(x, 1, 1, &version);
  if (r == NUM_RANGE) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, -1, -1, NULL, "version %s is not supported (1)",
            quote(q, sizeof q, x->tok, x->tlen));
    return ASTAR_PARSE_ERROR;
  }
  if (r != NUM_OK) return bad_number(x, f, r, -1, -1, NULL, "the version (1)", 1, 1);
  const long long max = ASTAR_MESH_MAX_ELEMENTS;
  const astar_status cst = read_count(x, f, "the polygon count", "polygons", &np);
  if (cst != ASTAR_OK) return cst;
  for (long long i = 0; i < np; i++) {
    snprintf(what, sizeof what, "polygon %lld", i);
    long long n;
    r = read_int(x, 0, LLONG_MAX, &n);
    const uint32_t line = x->tline, col = x->tcol;
    if (r != NUM_OK) return bad_number(x, f, r, (int32_t)i, -1, what, "the point count", 3, max);
    if (n < 3) {
      fail_at(x, f, ASTAR_MESH_FAULT_DEGENERATE, (int32_t)i, -1, what,
              "%lld points: a polygon needs at least 3", n);
      return ASTAR_PARSE_ERROR;
    }
    if (n > max || p->npts + (size_t)n > (size_t)max) {
      fail_at(x, f, ASTAR_MESH_FAULT_TOO_LARGE, (int32_t)i, -1, what,
              "%lld points: more than %lld in all", n, max);
      return ASTAR_TOO_LARGE;
    }
    if (!polymap_reserve(p, (size_t)i + 1, 0)) return ASTAR_NO_MEMORY;
    p->off[i] = (uint32_t)p->npts;
    p->n[i] = 0;
    p->np = (size_t)i + 1;
    for (long long k = 0; k < n; k++) {
      astar_vec2 v;
      /* Grow as the points come: a short text cannot make a huge block. */
      if (!polymap_reserve(p, (size_t)i + 1, p->npts + 1)) return ASTAR_NO_MEMORY;
      r = read_double(x, &v.x);
      if (r == NUM_OK) r = read_double(x, &v.y);
      if (r != NUM_OK) {
        r = bad_number(x, f, r, (int32_t)i, (int32_t)k, what, "a coordinate", 1, 0);
        return (astar_status)r;
      }
      p->pts[p->npts++] = v;
      p->n[i]++;
    }
    astar_status st = polymap_check(p, (size_t)i, f, line, col);
    if (st != ASTAR_OK) return st == ASTAR_INVALID_ARGUMENT ? ASTAR_PARSE_ERROR : st;
  }
  if (next(x)) {
    fail_at(x, f, ASTAR_MESH_FAULT_SYNTAX, -1, -1, NULL,
            "unexpected %s after the last polygon (%lld polygons declared)",
            quote(q, sizeof q, x->tok, x->tlen), np);
    return ASTAR_PARSE_ERROR;
  }
  return ASTAR_OK;
}

astar_status astar_polymap_read(astar_polymap **out, const char *text, size_t len,
                                const astar_allocator *alloc, astar_mesh_fault *fault) {
  clear_fault(fault);
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!text && len) return ASTAR_INVALID_ARGUMENT;
  if (!text) text = "";
  astar_polymap *p;
  astar_status st = polymap_alloc(&p, alloc);
  if (st != ASTAR_OK) return st;
  lexer x = {text, len, 0, 1, 1, text, 0, 1, 1};
  st = parse_polymap(p, &x, fault);
  if (st != ASTAR_OK) {
    if (st == ASTAR_NO_MEMORY) clear_fault(fault);
    astar_polymap_free(p);
    return st;
  }
  *out = p;
  return ASTAR_OK;
}

astar_status astar_polymap_new(astar_polymap **out, const astar_vec2 *points,
                               const uint32_t *poly_sizes, size_t np, const astar_allocator *alloc,
                               astar_mesh_fault *fault) {
  clear_fault(fault);
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (np && !poly_sizes) return ASTAR_INVALID_ARGUMENT;
  if (np > ASTAR_MESH_MAX_ELEMENTS) return ASTAR_TOO_LARGE;
  size_t total = 0;
  for (size_t i = 0; i < np; i++) {
    total += poly_sizes[i];
    if (total > ASTAR_MESH_MAX_ELEMENTS) return ASTAR_TOO_LARGE;
  }
  if (total && !points) return ASTAR_INVALID_ARGUMENT;
  astar_polymap *p;
  astar_status st = polymap_alloc(&p, alloc);
  if (st == ASTAR_OK && !polymap_reserve(p, np, total)) st = ASTAR_NO_MEMORY;
  if (st == ASTAR_OK) {
    if (total) memcpy(p->pts, points, total * sizeof *points);
    p->npts = total;
    p->np = np;
    size_t off = 0;
    for (size_t i = 0; i < np; i++) {
      p->off[i] = (uint32_t)off;
      p->n[i] = poly_sizes[i];
      off += poly_sizes[i];
    }
    for (size_t i = 0; i < np && st == ASTAR_OK; i++) st = polymap_check(p, i, fault, 0, 0);
  }
  if (st != ASTAR_OK) {
    if (st == ASTAR_NO_MEMORY) clear_fault(fault);
    astar_polymap_free(p);
    return st;
  }
  *out = p;
  return ASTAR_OK;
}

astar_status astar_polymap_write(const astar_polymap *map,
                                 char *buf, /* NOLINT(readability-non-const-parameter) */
                                 size_t cap, size_t *len) {
  if (len) *len = 0;
  if (!map || (!buf && cap)) return ASTAR_INVALID_ARGUMENT;
  obuf o = {buf, cap, 0};
  put(&o, "poly\n1\n", 7);
  put_int(&o, (long long)map->np, '\n');
  for (size_t i = 0; i < map->np; i++) {
    const astar_vec2 *v = map->pts + map->off[i];
    put_int(&o, map->n[i], ' ');
    for (uint32_t k = 0; k < map->n[i]; k++) {
      put_double(&o, v[k].x, ' ');
      put_double(&o, v[k].y, k + 1 < map->n[i] ? ' ' : '\n');
    }
  }
  return finish_out(&o, len);
}
