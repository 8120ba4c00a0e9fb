/*
** test_format.c -- the text parsers (astar/format.h): Moving AI .map and
** .scen, plain ASCII maps and auto-detection. Covers every line-ending and
** layout quirk, every error path with its exact line and column, allocation
** failure injection, and a load of the real benchmark files.
*/
#include <astar/astar.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "util/failalloc.h"

/* ---- helpers ------------------------------------------------------------- */

/* Parsers get an exact-size heap copy, so reading past len shows up under
** AddressSanitizer / valgrind. */
static char *exact_copy(const char *s, size_t n) {
  char *p = malloc(n ? n : 1);
  if (n) memcpy(p, s, n);
  return p;
}

static astar_status map_n(astar_grid **g, const char *s, size_t n, astar_parse_error *e) {
  char *p = exact_copy(s, n);
  astar_status st = astar_movingai_parse_map(g, p, n, NULL, e);
  free(p);
  return st;
}

static astar_status map_s(astar_grid **g, const char *s, astar_parse_error *e) {
  return map_n(g, s, strlen(s), e);
}

static astar_status ascii_s(astar_grid **g, const char *s, astar_point *st, astar_point *go,
                            astar_parse_error *e) {
  size_t n = strlen(s);
  char *p = exact_copy(s, n);
  astar_status r = astar_ascii_parse_map(g, p, n, NULL, st, go, e);
  free(p);
  return r;
}

static astar_status any_s(astar_grid **g, const char *s, astar_point *st, astar_point *go,
                          astar_parse_error *e) {
  size_t n = strlen(s);
  char *p = exact_copy(s, n);
  astar_status r = astar_parse_map(g, p, n, NULL, st, go, e);
  free(p);
  return r;
}

static astar_status scen_s(astar_scen **sc, const char *s, astar_parse_error *e) {
  size_t n = strlen(s);
  char *p = exact_copy(s, n);
  astar_status r = astar_movingai_parse_scen(sc, p, n, NULL, e);
  free(p);
  return r;
}

/* Check a failed parse: status, position and a fragment of the message. */
static void expect_err(int at, const char *what, astar_status got, astar_status want,
                       const void *out, const astar_parse_error *e, int line, int col,
                       const char *frag) {
  CHECKF(got == want, "line %d (%s): status %s, expected %s", at, what, astar_strerror(got),
         astar_strerror(want));
  CHECKF(out == NULL, "line %d (%s): *out not NULL on failure", at, what);
  CHECKF(e->line == line && e->column == col,
         "line %d (%s): error at %d:%d, expected %d:%d (\"%s\")", at, what, (int)e->line,
         (int)e->column, line, col, e->message);
  CHECKF(strstr(e->message, frag) != NULL, "line %d (%s): message \"%s\" lacks \"%s\"", at, what,
         e->message, frag);
}

#define MAP_ERR(text, st, line, col, frag)                                                         \
  do {                                                                                             \
    astar_grid *g_ = (astar_grid *)1;                                                              \
    astar_parse_error e_;                                                                          \
    astar_status r_ = map_s(&g_, text, &e_);                                                       \
    expect_err(__LINE__, #text, r_, st, g_, &e_, line, col, frag);                                 \
    if (r_ == ASTAR_OK) astar_grid_free(g_);                                                       \
  } while (0)

#define ASCII_ERR(text, st, line, col, frag)                                                       \
  do {                                                                                             \
    astar_grid *g_ = (astar_grid *)1;                                                              \
    astar_parse_error e_;                                                                          \
    astar_status r_ = ascii_s(&g_, text, NULL, NULL, &e_);                                         \
    expect_err(__LINE__, #text, r_, st, g_, &e_, line, col, frag);                                 \
    if (r_ == ASTAR_OK) astar_grid_free(g_);                                                       \
  } while (0)

#define SCEN_ERR(text, line, col, frag)                                                            \
  do {                                                                                             \
    astar_scen *s_ = (astar_scen *)1;                                                              \
    astar_parse_error e_;                                                                          \
    astar_status r_ = scen_s(&s_, text, &e_);                                                      \
    expect_err(__LINE__, #text, r_, ASTAR_PARSE_ERROR, s_, &e_, line, col, frag);                  \
    if (r_ == ASTAR_OK) astar_scen_free(s_);                                                       \
  } while (0)

/* The grid as rows of '.' (passable) and '#' (blocked), joined by '\n'. */
static char *grid_picture(const astar_grid *g) {
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  char *p = malloc((size_t)(w + 1) * (size_t)h + 1), *o = p;
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) *o++ = astar_grid_passable(g, x, y) ? '.' : '#';
    *o++ = '\n';
  }
  *o = '\0';
  return p;
}

static void check_picture(int at, const astar_grid *g, const char *want) {
  char *p = grid_picture(g);
  CHECKF(strcmp(p, want) == 0, "line %d: grid\n%s expected\n%s", at, p, want);
  free(p);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (!f) return NULL;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      buf = realloc(buf, cap);
    }
    size_t k = fread(buf + n, 1, cap - n, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  *len = n;
  return buf;
}

static double now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- Moving AI maps ------------------------------------------------------ */

static void test_map_basic(void) {
  astar_grid *g = NULL;
  astar_parse_error e;
  const char *t = "type octile\nheight 3\nwidth 4\nmap\n.G.S\n@OTW\n..@.\n";
  CHECK(map_s(&g, t, &e) == ASTAR_OK);
  CHECK_EQ(astar_grid_width(g), 4);
  CHECK_EQ(astar_grid_height(g), 3);
  check_picture(__LINE__, g, "....\n####\n..#.\n");
  CHECK(!astar_grid_has_terrain(g));
  astar_grid_free(g);

  /* 1 x 1, no type line, no final newline. */
  CHECK(map_s(&g, "height 1\nwidth 1\nmap\n@", &e) == ASTAR_OK);
  check_picture(__LINE__, g, "#\n");
  astar_grid_free(g);
}

static void test_map_quirks(void) {
  static const char *const same[] = {
      /* LF, CRLF, CR only, mixed */
      "type octile\nheight 2\nwidth 3\nmap\n.@.\n@..\n",
      "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n@..\r\n",
      "type octile\rheight 2\rwidth 3\rmap\r.@.\r@..\r",
      "type octile\r\nheight 2\rwidth 3\nmap\r\n.@.\r@..\n",
      /* no final newline */
      "type octile\nheight 2\nwidth 3\nmap\n.@.\n@..",
      "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n@..",
      "type octile\rheight 2\rwidth 3\rmap\r.@.\r@..",
      /* header order, no type line, blank lines, tabs and extra spaces */
      "width 3\nheight 2\ntype octile\nmap\n.@.\n@..\n",
      "height 2\nwidth 3\nmap\n.@.\n@..\n",
      "\n\nwidth 3\n\n  height\t2  \ntype\toctile\nmap \t\n.@.\n@..\n",
      "width\t3\r\nheight\t\t2\r\nmap\r\n.@.\r\n@..\r\n",
      /* trailing empty and blank lines after the rows */
      "height 2\nwidth 3\nmap\n.@.\n@..\n\n\n",
      "height 2\nwidth 3\nmap\n.@.\n@..\r\n\r\n  \t\r\n",
      "height 2\nwidth 3\nmap\n.@.\n@..\r\r\r",
  };
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
    astar_grid *g = NULL;
    astar_parse_error e = {0, 0, ""};
    astar_status st = map_s(&g, same[i], &e);
    CHECKF(st == ASTAR_OK, "case %zu: %s at %d:%d: %s", i, astar_strerror(st), (int)e.line,
           (int)e.column, e.message);
    if (st != ASTAR_OK) continue;
    check_picture(__LINE__, g, ".#.\n#..\n");
    astar_grid_free(g);
  }

  /* Leading zeros in a dimension are still decimal. */
  astar_grid *g = NULL;
  CHECK(map_s(&g, "height 002\nwidth 010\nmap\n..........\n..........\n", NULL) == ASTAR_OK);
  CHECK_EQ(astar_grid_width(g), 10);
  astar_grid_free(g);
}

static void test_map_errors(void) {
  const astar_status P = ASTAR_PARSE_ERROR, L = ASTAR_TOO_LARGE;
  const char *hdr = "height 3\nwidth 4\nmap\n"; /* rows start on line 4 */
  char buf[256];

  /* header */
  MAP_ERR("", P, 1, 1, "missing 'map' line");
  MAP_ERR("\n\n", P, 3, 1, "missing 'map' line");
  MAP_ERR("type octile\nheight 2\nwidth 2\n", P, 4, 1, "missing 'map' line");
  MAP_ERR("type octile\nheight 2\nwidth 2", P, 3, 8, "missing 'map' line");
  MAP_ERR("type octile\r\nheight 2\r\nwidth 2\r\n", P, 4, 1, "missing 'map' line");
  MAP_ERR("type octile\nwidth 2\nmap\n..\n..\n", P, 3, 1, "missing 'height' line");
  MAP_ERR("height 2\n\nmap\n..\n..\n", P, 3, 1, "missing 'width' line");
  MAP_ERR("map\n", P, 1, 1, "missing 'height' line");
  MAP_ERR("height x\n", P, 1, 8, "height must be a positive integer, got 'x'");
  MAP_ERR("height -3\n", P, 1, 8, "positive integer, got '-3'");
  MAP_ERR("height +3\n", P, 1, 8, "positive integer, got '+3'");
  MAP_ERR("height 0\n", P, 1, 8, "positive integer, got '0'");
  MAP_ERR("height 2x\n", P, 1, 8, "positive integer, got '2x'");
  MAP_ERR("width 2.5\n", P, 1, 7, "width must be a positive integer, got '2.5'");
  MAP_ERR("height\n", P, 1, 7, "missing value after 'height'");
  MAP_ERR("height   \n", P, 1, 10, "missing value after 'height'");
  MAP_ERR("height 2 3\n", P, 1, 10, "unexpected text after the height");
  MAP_ERR("height 32769\n", L, 1, 8, "exceeds the limit of 32768");
  MAP_ERR("width 99999999999999999999999\n", L, 1, 7, "width 99999999999999999999999 exceeds");
  MAP_ERR("height 20000\nwidth 20000\nmap\n", L, 2, 1, "exceeds the limit of 268435456");
  MAP_ERR("width 16385\nheight 16384\nmap\n", L, 2, 1, "16385 x 16384 cells");
  MAP_ERR("height 2\nheight 2\n", P, 2, 1, "duplicate 'height' line (first on line 1)");
  MAP_ERR("width 2\ntype a\n width 2\n", P, 3, 2, "duplicate 'width' line");
  MAP_ERR("type a\ntype b\n", P, 2, 1, "duplicate 'type' line");
  MAP_ERR("type\n", P, 1, 5, "missing value after 'type'");
  MAP_ERR("type octile x\n", P, 1, 13, "unexpected text after the type");
  MAP_ERR("foo bar\n", P, 1, 1, "unknown header line 'foo'");
  MAP_ERR("height 1\n  Width 1\n", P, 2, 3, "unknown header line 'Width'");
  MAP_ERR("heightx 1\n", P, 1, 1, "unknown header line 'heightx'");
  MAP_ERR("height 1\nwidth 1\nmap x\n.\n", P, 3, 5, "unexpected text after 'map'");
  MAP_ERR("height 1\nwidth 1\n.\nmap\n.\n", P, 3, 1, "unknown header line '.'");

  /* rows */
  snprintf(buf, sizeof buf, "%s....\n...\n....\n", hdr);
  MAP_ERR(buf, P, 5, 4, "row 2 (y=1) has 3 cells, expected 4");
  snprintf(buf, sizeof buf, "%s....\n.....\n....\n", hdr);
  MAP_ERR(buf, P, 5, 5, "row 2 (y=1) has 5 cells, expected 4");
  snprintf(buf, sizeof buf, "%s....\n....\n.......\n", hdr);
  MAP_ERR(buf, P, 6, 5, "row 3 (y=2) has 7 cells, expected 4");
  snprintf(buf, sizeof buf, "%s\n....\n....\n", hdr);
  MAP_ERR(buf, P, 4, 1, "row 1 (y=0) has 0 cells, expected 4");
  snprintf(buf, sizeof buf, "%s....\n\n....\n", hdr);
  MAP_ERR(buf, P, 5, 1, "row 2 (y=1) has 0 cells");
  snprintf(buf, sizeof buf, "%s....\n.. .\n....\n", hdr);
  MAP_ERR(buf, P, 5, 3, "unknown cell character ' '");
  snprintf(buf, sizeof buf, "%s....\n..x.\n....\n", hdr);
  MAP_ERR(buf, P, 5, 3, "unknown cell character 'x'");
  snprintf(buf, sizeof buf, "%s....\n...\t\n....\n", hdr);
  MAP_ERR(buf, P, 5, 4, "unknown cell character '\\x09'");
  snprintf(buf, sizeof buf, "%s....\n....\n.#..\n", hdr);
  MAP_ERR(buf, P, 6, 2, "unknown cell character '#'");
  /* a character past the row's end: the length is the problem */
  snprintf(buf, sizeof buf, "%s....\n....x\n....\n", hdr);
  MAP_ERR(buf, P, 5, 5, "has 5 cells");
  /* a bad character before a short row's end is reported first */
  snprintf(buf, sizeof buf, "%s....\n.x\n....\n", hdr);
  MAP_ERR(buf, P, 5, 2, "unknown cell character 'x'");
  /* too few rows: where the next row was due */
  snprintf(buf, sizeof buf, "%s....\n....\n", hdr);
  MAP_ERR(buf, P, 6, 1, "map ends after 2 rows, expected 3");
  snprintf(buf, sizeof buf, "%s....\n....", hdr);
  MAP_ERR(buf, P, 5, 5, "map ends after 2 rows, expected 3");
  snprintf(buf, sizeof buf, "%s....\n....\n\n\n", hdr);
  MAP_ERR(buf, P, 6, 1, "map ends after 2 rows, expected 3");
  snprintf(buf, sizeof buf, "%s....\n....\r\n  \r\n", hdr);
  MAP_ERR(buf, P, 6, 1, "map ends after 2 rows, expected 3");
  MAP_ERR("height 3\nwidth 4\nmap\n", P, 4, 1, "map ends after 0 rows, expected 3");
  MAP_ERR("height 3\nwidth 4\nmap", P, 3, 4, "map ends after 0 rows, expected 3");
  /* too many rows */
  snprintf(buf, sizeof buf, "%s....\n....\n....\n....\n", hdr);
  MAP_ERR(buf, P, 7, 1, "unexpected text after the 3 map rows");
  snprintf(buf, sizeof buf, "%s....\n....\n....\n\n \t x\n", hdr);
  MAP_ERR(buf, P, 8, 4, "unexpected text after the 3 map rows");
  /* positions with other line endings */
  MAP_ERR("height 1\r\nwidth 4\r\nmap\r\n..x.\r\n", P, 4, 3, "unknown cell character 'x'");
  MAP_ERR("height 2\rwidth 4\rmap\r....\r.....\r", P, 5, 5, "row 2 (y=1) has 5 cells");
  MAP_ERR("height 2\r\nwidth 4\r\nmap\r\n....\r\n...\r\n", P, 5, 4, "has 3 cells");

  /* an embedded NUL is just an unknown character; text after len is never read */
  {
    astar_grid *g = (astar_grid *)1;
    astar_parse_error e;
    static const char t[] = "height 1\nwidth 3\nmap\n.\0.\n";
    CHECK(map_n(&g, t, sizeof t - 1, &e) == ASTAR_PARSE_ERROR);
    CHECK(g == NULL && e.line == 4 && e.column == 2);
    CHECK(strstr(e.message, "'\\x00'") != NULL);
    /* the same text cut short by len */
    CHECK(map_n(&g, "height 1\nwidth 3\nmap\n...@@@", 24, &e) == ASTAR_OK);
    check_picture(__LINE__, g, "...\n");
    astar_grid_free(g);
  }
}

/* ---- Moving AI scenarios ------------------------------------------------- */

static void test_scen_basic(void) {
  astar_scen *sc = NULL;
  astar_parse_error e;
  const char *t = "version 1\n"
                  "0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
                  "3\tmaps/dao/arena.map\t49\t49\t10\t20\t30\t40\t13.4142\n"
                  "\n"
                  "7  other.map   49 49\t0   0 48\t48  2835.85000000  \n";
  CHECK(scen_s(&sc, t, &e) == ASTAR_OK);
  CHECK_EQ(astar_scen_count(sc), 3);
  CHECK(astar_scen_version(sc) == 1.0);
  const astar_scen_query *q = astar_scen_queries(sc);
  CHECK(q != NULL);
  if (q) {
    CHECK(q[0].bucket == 0 && strcmp(q[0].map, "maps/dao/arena.map") == 0);
    CHECK(q[0].map_width == 49 && q[0].map_height == 49);
    CHECK(q[0].start.x == 1 && q[0].start.y == 11 && q[0].goal.x == 1 && q[0].goal.y == 12);
    CHECK(q[0].optimal_length == 1.0);
    CHECK(q[1].bucket == 3 && q[1].start.x == 10 && q[1].start.y == 20);
    CHECK(q[1].goal.x == 30 && q[1].goal.y == 40 && q[1].optimal_length == 13.4142);
    CHECK(q[1].map == q[0].map); /* one copy of a repeated name */
    CHECK(q[2].bucket == 7 && strcmp(q[2].map, "other.map") == 0);
    CHECK(q[2].goal.x == 48 && q[2].goal.y == 48 && q[2].optimal_length == 2835.85);
    CHECK(q[0].line == 2 && q[1].line == 3 && q[2].line == 5); /* blank line 4 skipped */
  }
  astar_scen_free(sc);

  /* "version 1.0", CRLF, CR, no final newline, blank lines everywhere, and the
  ** names stay valid after the text is gone (scen_s frees its copy). */
  static const char *const texts[] = {
      "version 1.0\r\n0 a.map 4 4 0 0 3 3 4.24264069\r\n1 b.map 4 4 1 1 2 2 1.41421356",
      "\n  \nversion\t1\r\r0\ta.map\t4\t4\t0\t0\t3\t3\t4.24264069\r\r1\tb.map\t4\t4\t1\t1\t2\t2\t1."
      "41421356\r\r\n",
      "version 1.00\n\n\n0 a.map 4 4 0 0 3 3 4.24264069\n \t \n1 b.map 4 4 1 1 2 2 1.41421356\n\n",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    sc = NULL;
    astar_status st = scen_s(&sc, texts[i], &e);
    CHECKF(st == ASTAR_OK, "case %zu: %d:%d %s", i, (int)e.line, (int)e.column, e.message);
    if (st != ASTAR_OK) continue;
    q = astar_scen_queries(sc);
    CHECK_EQ(astar_scen_count(sc), 2);
    CHECK(astar_scen_version(sc) == 1.0);
    CHECK(strcmp(q[0].map, "a.map") == 0 && strcmp(q[1].map, "b.map") == 0);
    static const int32_t lines[3][2] = {{2, 3}, {5, 7}, {4, 6}};
    CHECKF(q[0].line == lines[i][0] && q[1].line == lines[i][1], "case %zu: lines %d, %d", i,
           (int)q[0].line, (int)q[1].line);
    CHECK(q[0].optimal_length == 4.24264069 && q[1].optimal_length == 1.41421356);
    CHECK(q[1].start.x == 1 && q[1].goal.y == 2);
    astar_scen_free(sc);
  }

  /* No queries at all is a valid, empty scenario. */
  CHECK(scen_s(&sc, "version 1", &e) == ASTAR_OK);
  CHECK_EQ(astar_scen_count(sc), 0);
  astar_scen_free(sc);

  /* NULL-tolerant accessors. */
  astar_scen_free(NULL);
  CHECK_EQ(astar_scen_count(NULL), 0);
  CHECK(astar_scen_queries(NULL) == NULL);
}

static void test_scen_errors(void) {
  const char *v = "version 1\n";
  char buf[256];
#define LINE2(s) (snprintf(buf, sizeof buf, "%s%s", v, s), buf)

  /* the version line */
  SCEN_ERR("", 1, 1, "missing 'version' line");
  SCEN_ERR("\n \n", 3, 1, "missing 'version' line");
  SCEN_ERR("  \t", 1, 4, "missing 'version' line");
  SCEN_ERR("0 a.map 4 4 0 0 1 1 1\n", 1, 1, "expected 'version 1' as the first line, got '0'");
  SCEN_ERR("Version 1\n", 1, 1, "got 'Version'");
  SCEN_ERR("version\n", 1, 8, "missing version number");
  SCEN_ERR("version x\n", 1, 9, "unsupported scenario version 'x'");
  SCEN_ERR("version 2\n", 1, 9, "unsupported scenario version '2'");
  SCEN_ERR("version 1.5\n", 1, 9, "unsupported scenario version '1.5'");
  SCEN_ERR("version 1 1\n", 1, 11, "unexpected text after the version number");

  /* field count */
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1\n"), 2, 20,
           "line has 8 fields, expected 9 (missing optimal length)");
  SCEN_ERR(LINE2("0\ta.map\t4\t4\t0\t0\t1\t1\t\n"), 2, 20, "line has 8 fields");
  SCEN_ERR(LINE2("0\n"), 2, 2, "line has 1 fields, expected 9 (missing map name)");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 1.5 7\n"), 2, 25, "line has more than 9 fields");
  SCEN_ERR(LINE2("0 my map 4 4 0 0 1 1 1.5\n"), 2, 22, "more than 9 fields");
  /* integers */
  SCEN_ERR(LINE2("0 a.map 4 4 -1 0 1 1 1\n"), 2, 13, "start x is negative (-1)");
  SCEN_ERR(LINE2("0 a.map 4 4 0 -2 1 1 1\n"), 2, 15, "start y is negative");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 -1 1 1\n"), 2, 17, "goal x is negative");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 -1 1\n"), 2, 19, "goal y is negative");
  SCEN_ERR(LINE2("-1 a.map 4 4 0 0 1 1 1\n"), 2, 1, "bucket is negative");
  SCEN_ERR(LINE2("x a.map 4 4 0 0 1 1 1\n"), 2, 1, "bucket must be an integer, got 'x'");
  SCEN_ERR(LINE2("0 a.map 4.0 4 0 0 1 1 1\n"), 2, 9, "map width must be an integer, got '4.0'");
  SCEN_ERR(LINE2("0 a.map 4 0 0 0 1 1 1\n"), 2, 11, "map height must be at least 1");
  SCEN_ERR(LINE2("0 a.map 4 4 1x 0 1 1 1\n"), 2, 13, "start x must be an integer, got '1x'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 1\n1 a.map 4 4 0 - 1 1 1\n"), 3, 15, "got '-'");
  SCEN_ERR(LINE2("2147483648 a.map 4 4 0 0 1 1 1\n"), 2, 1, "bucket 2147483648 is out of range");
  SCEN_ERR(LINE2("2147483647 a.map 4 99999999999 0 0 1 1 1\n"), 2, 20,
           "map height 99999999999 is out of range");
  SCEN_ERR(LINE2("0 a.map 4 5 4 0 1 1 1\n"), 2, 13, "start x 4 lies outside the 4 x 5 map");
  SCEN_ERR(LINE2("0 a.map 4 5 0 5 1 1 1\n"), 2, 15, "start y 5 lies outside");
  SCEN_ERR(LINE2("0 a.map 4 5 0 0 9 1 1\n"), 2, 17, "goal x 9 lies outside");
  SCEN_ERR(LINE2("0 a.map 4 5 0 0 1 5 1\n"), 2, 19, "goal y 5 lies outside");
  /* the length */
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 abc\n"), 2, 21, "optimal length must be a number, got 'abc'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 1.2.3\n"), 2, 21, "got '1.2.3'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 1,5\n"), 2, 21, "got '1,5'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 .\n"), 2, 21, "got '.'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 1e\n"), 2, 21, "got '1e'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 e5\n"), 2, 21, "got 'e5'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 inf\n"), 2, 21, "got 'inf'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 nan\n"), 2, 21, "got 'nan'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 0x10\n"), 2, 21, "got '0x10'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 --1\n"), 2, 21, "got '--1'");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 -1.5\n"), 2, 21, "optimal length -1.5 is out of range");
  SCEN_ERR(LINE2("0 a.map 4 4 0 0 1 1 1e400\n"), 2, 21, "optimal length 1e400 is out of range");
  /* CRLF positions; a later line */
  SCEN_ERR("version 1\r\n0 a.map 4 4 0 0 1 1 1\r\n\r\n0 a.map 4 4 0 0 1 q 1\r\n", 4, 19,
           "goal y must be an integer, got 'q'");
  /* a second version line is a malformed query */
  SCEN_ERR("version 1\nversion 1\n", 2, 10, "line has 2 fields");
  /* a NUL inside the name would cut the C string short */
  {
    static const char t[] = "version 1\n0 a\0b 4 4 0 0 1 1 1\n";
    astar_scen *sc = (astar_scen *)1;
    astar_parse_error e;
    char *p = exact_copy(t, sizeof t - 1);
    CHECK(astar_movingai_parse_scen(&sc, p, sizeof t - 1, NULL, &e) == ASTAR_PARSE_ERROR);
    CHECK(sc == NULL && e.line == 2 && e.column == 3 && strstr(e.message, "NUL"));
    free(p);
  }
#undef LINE2
}

/* Lengths parse exactly like strtod in the C locale, for every form the
** writers produce; checked on fixed cases and on random values. */
static void test_scen_numbers(void) {
  static const char *const good[] = {
      "0",
      "1",
      "123.456",
      "0.1",
      "3.41421",
      "2835.85",
      "1.41421356237",
      "4847.00000000",
      "00012.5000",
      ".5",
      "5.",
      "+2",
      "1e3",
      "1.5E-2",
      "2.5e+1",
      "0.000000001",
      "123456789012345678",
      "1234567890.123456789",
      "9007199254740993",
      "179769313486231570000000000000000000000000000000000000000000000000000000000000000000",
      "1e-320",
      "0e999999",
  };
  char text[8192];
  size_t n = (size_t)snprintf(text, sizeof text, "version 1\n");
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    n += (size_t)snprintf(text + n, sizeof text - n, "0 m 4 4 0 0 1 1 %s\n", good[i]);
  astar_scen *sc = NULL;
  astar_parse_error e;
  CHECK(scen_s(&sc, text, &e) == ASTAR_OK);
  if (sc) {
    const astar_scen_query *q = astar_scen_queries(sc);
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
      double want = strtod(good[i], NULL);
      double rel = (q[i].optimal_length - want) / (want ? want : 1);
      /* exact within the fast path (<= 15 digits, |exp| <= 22), else within 1e-15 */
      if (i < 17)
        CHECKF(q[i].optimal_length == want, "%s: %.17g != %.17g", good[i], q[i].optimal_length,
               want);
      else
        CHECKF(rel < 1e-15 && rel > -1e-15, "%s: %.17g vs %.17g", good[i], q[i].optimal_length,
               want);
    }
    astar_scen_free(sc);
  }

  /* Random values printed the way the benchmark writers print them. */
  uint64_t r = 0x9e3779b97f4a7c15u;
  char *big = malloc(1 << 20);
  size_t bn = (size_t)snprintf(big, 1 << 20, "version 1\n");
  enum { N = 20000 };
  static char vals[N][40];
  for (int i = 0; i < N; i++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    double v = (double)(r >> 11) / 9007199254740992.0 * 5000.0;
    switch (i % 4) {
    case 0:
      snprintf(vals[i], sizeof vals[i], "%.6g", v);
      break;
    case 1:
      snprintf(vals[i], sizeof vals[i], "%.8f", v);
      break;
    case 2:
      snprintf(vals[i], sizeof vals[i], "%.11f", v);
      break;
    default:
      snprintf(vals[i], sizeof vals[i], "%d", (int)(r % 100000));
      break;
    }
    bn += (size_t)snprintf(big + bn, (1 << 20) - bn, "%d\tm\t9\t9\t1\t2\t3\t4\t%s\n", i, vals[i]);
  }
  sc = NULL;
  CHECK(astar_movingai_parse_scen(&sc, big, bn, NULL, &e) == ASTAR_OK);
  if (sc) {
    const astar_scen_query *q = astar_scen_queries(sc);
    int bad = 0;
    CHECK_EQ(astar_scen_count(sc), N);
    for (int i = 0; i < N; i++)
      if (q[i].optimal_length != strtod(vals[i], NULL) || q[i].bucket != i) bad++;
    CHECK_EQ(bad, 0);
    astar_scen_free(sc);
  }
  free(big);
}

/* ---- ASCII maps ---------------------------------------------------------- */

static void test_ascii_basic(void) {
  astar_grid *g = NULL;
  astar_point s, go;
  astar_parse_error e;
  const char *t = "; a comment\n"
                  "S..#\n"
                  "; another one, inside the map\n"
                  ".19@\n"
                  " TOW\n"
                  "..2G\n";
  CHECK(ascii_s(&g, t, &s, &go, &e) == ASTAR_OK);
  CHECK_EQ(astar_grid_width(g), 4);
  CHECK_EQ(astar_grid_height(g), 4);
  check_picture(__LINE__, g, "...#\n...#\n.###\n....\n");
  CHECK(s.x == 0 && s.y == 0 && go.x == 3 && go.y == 3);
  CHECK(astar_grid_has_terrain(g));
  CHECK(astar_grid_terrain(g, 1, 1) == 1.0f && astar_grid_terrain(g, 2, 1) == 9.0f);
  CHECK(astar_grid_terrain(g, 2, 3) == 2.0f && astar_grid_terrain(g, 0, 0) == 1.0f);
  astar_grid_free(g);

  /* every digit */
  CHECK(ascii_s(&g, "123456789\n", NULL, NULL, &e) == ASTAR_OK);
  for (int x = 0; x < 9; x++) CHECK(astar_grid_terrain(g, x, 0) == (float)(x + 1));
  astar_grid_free(g);

  /* no S / G: (-1, -1); no digits other than 1: no terrain layer */
  s.x = s.y = go.x = go.y = 7;
  CHECK(ascii_s(&g, "..1\n#..\n", &s, &go, &e) == ASTAR_OK);
  CHECK(s.x == -1 && s.y == -1 && go.x == -1 && go.y == -1);
  CHECK(!astar_grid_has_terrain(g));
  check_picture(__LINE__, g, "...\n#..\n");
  astar_grid_free(g);

  /* line endings, leading empty lines, trailing empty lines and comments, a
  ** row of spaces (passable), no final newline */
  static const char *const same[] = {
      "..#\n   \n.G.\n",           "..#\r\n   \r\n.G.\r\n",
      "..#\r   \r.G.\r",           "..#\n   \n.G.",
      "\n\n..#\n   \n.G.\n\n\n",   ";c\n\n;c\n..#\n;\n   \n.G.\n\n;trailing\n\n",
      "..#\r\n   \r\n.G.\r\n\r\n",
  };
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
    g = NULL;
    astar_status st = ascii_s(&g, same[i], &s, &go, &e);
    CHECKF(st == ASTAR_OK, "case %zu: %d:%d %s", i, (int)e.line, (int)e.column, e.message);
    if (st != ASTAR_OK) continue;
    check_picture(__LINE__, g, "..#\n...\n...\n");
    CHECK(go.x == 1 && go.y == 2 && s.x == -1);
    astar_grid_free(g);
  }
}

static void test_ascii_errors(void) {
  const astar_status P = ASTAR_PARSE_ERROR, L = ASTAR_TOO_LARGE;
  ASCII_ERR("", P, 1, 1, "the map has no rows");
  ASCII_ERR("\n\n", P, 3, 1, "the map has no rows");
  ASCII_ERR("; only a comment", P, 1, 17, "the map has no rows");
  ASCII_ERR("...\n.x.\n", P, 2, 2, "unknown cell character 'x'");
  ASCII_ERR("...\n..\t\n", P, 2, 3, "unknown cell character '\\x09'");
  ASCII_ERR("...\n.0.\n", P, 2, 2, "unknown cell character '0'");
  ASCII_ERR("...\n..\n...\n", P, 2, 3, "row 2 (y=1) has 2 cells, expected 3");
  ASCII_ERR("...\n....\n", P, 2, 4, "row 2 (y=1) has 4 cells, expected 3");
  ASCII_ERR(";c\n...\n;c\n...\n.. \n....\n", P, 6, 4, "row 4 (y=3) has 4 cells");
  ASCII_ERR("...\n\n...\n", P, 2, 1, "row 2 (y=1) has 0 cells, expected 3");
  ASCII_ERR("...\r\n\r\n;c\r\n...\r\n", P, 2, 1, "row 2 (y=1) has 0 cells");
  ASCII_ERR("S..\n..S\n", P, 2, 3, "second start 'S' (the first is at line 1, column 1)");
  ASCII_ERR(".G.\n;\nG..\n", P, 3, 1, "second goal 'G' (the first is at line 1, column 2)");
  ASCII_ERR(" ;.\n", P, 1, 2, "unknown cell character ';'");
  {
    /* 32769 cells wide */
    char *t = malloc(32771);
    memset(t, '.', 32769);
    t[32769] = '\n';
    t[32770] = '\0';
    ASCII_ERR(t, L, 1, 32769, "32769 cells wide"); /* the first cell too many */
    free(t);
  }
  {
    /* 32769 rows of one cell */
    size_t h = 32769;
    char *t = malloc(2 * h);
    for (size_t y = 0; y < h; y++) t[2 * y] = '.', t[2 * y + 1] = '\n';
    astar_grid *g = (astar_grid *)1;
    astar_parse_error e;
    CHECK(astar_ascii_parse_map(&g, t, 2 * h, NULL, NULL, NULL, &e) == ASTAR_TOO_LARGE);
    CHECK(g == NULL && e.line == 32769 && e.column == 1 && strstr(e.message, "32768 rows"));
    /* one row fewer is fine */
    CHECK(astar_ascii_parse_map(&g, t, 2 * (h - 1), NULL, NULL, NULL, &e) == ASTAR_OK);
    CHECK(astar_grid_height(g) == 32768);
    astar_grid_free(g);
    free(t);
  }
}

/* ---- auto-detection and arguments ---------------------------------------- */

static void test_detect(void) {
  astar_grid *g = NULL;
  astar_point s = {5, 5}, go = {5, 5};
  astar_parse_error e;
  static const char *const mai[] = {
      "type octile\nheight 1\nwidth 2\nmap\n.@\n",
      "height 1\nwidth 2\nmap\n.@\n",
      "\n  \nwidth 2\nheight 1\nmap\n.@\n",
      "\r\n\t type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n.@",
  };
  for (size_t i = 0; i < sizeof mai / sizeof mai[0]; i++) {
    s.x = go.x = 5;
    astar_status st = any_s(&g, mai[i], &s, &go, &e);
    CHECKF(st == ASTAR_OK, "case %zu: %s", i, e.message);
    if (st != ASTAR_OK) continue;
    check_picture(__LINE__, g, ".#\n");
    CHECK(s.x == -1 && s.y == -1 && go.x == -1 && go.y == -1);
    astar_grid_free(g);
  }
  /* ASCII, including one whose first line is blank spaces (a passable row) */
  CHECK(any_s(&g, "S.#\n.G.\n", &s, &go, &e) == ASTAR_OK);
  check_picture(__LINE__, g, "..#\n...\n");
  CHECK(s.x == 0 && s.y == 0 && go.x == 1 && go.y == 1);
  astar_grid_free(g);
  CHECK(any_s(&g, "; type octile\n.G\n", &s, &go, &e) == ASTAR_OK);
  CHECK(s.x == -1 && go.x == 1 && astar_grid_height(g) == 1);
  astar_grid_free(g);
  CHECK(any_s(&g, "  \n#.\n", NULL, NULL, &e) == ASTAR_OK);
  check_picture(__LINE__, g, "..\n#.\n");
  astar_grid_free(g);
  /* errors come from the chosen parser */
  g = (astar_grid *)1;
  CHECK(any_s(&g, "height 1\nwidth 2\nmap\n.x\n", NULL, NULL, &e) == ASTAR_PARSE_ERROR);
  CHECK(g == NULL && e.line == 4 && e.column == 2);
  g = (astar_grid *)1;
  CHECK(any_s(&g, "..\n.x\n", NULL, NULL, &e) == ASTAR_PARSE_ERROR);
  CHECK(g == NULL && e.line == 2 && e.column == 2);
  g = (astar_grid *)1;
  CHECK(any_s(&g, "", NULL, NULL, &e) == ASTAR_PARSE_ERROR);
  CHECK(g == NULL && e.line == 1 && e.column == 1);
}

static void test_arguments(void) {
  astar_grid *g = (astar_grid *)1;
  astar_scen *sc = (astar_scen *)1;
  astar_parse_error e;
  CHECK(astar_movingai_parse_map(NULL, "x", 1, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  CHECK(e.line == 0);
  CHECK(astar_movingai_parse_map(&g, NULL, 5, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  CHECK(g == NULL);
  g = (astar_grid *)1;
  CHECK(astar_movingai_parse_map(&g, NULL, 0, NULL, &e) == ASTAR_PARSE_ERROR);
  CHECK(g == NULL);
  CHECK(astar_movingai_parse_scen(NULL, "x", 1, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_movingai_parse_scen(&sc, NULL, 3, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  CHECK(sc == NULL);
  CHECK(astar_ascii_parse_map(NULL, "x", 1, NULL, NULL, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_parse_map(NULL, "x", 1, NULL, NULL, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  g = (astar_grid *)1;
  CHECK(astar_parse_map(&g, NULL, 1, NULL, NULL, NULL, &e) == ASTAR_INVALID_ARGUMENT);
  CHECK(g == NULL);
  /* err may be NULL */
  g = (astar_grid *)1;
  CHECK(astar_movingai_parse_map(&g, "bad", 3, NULL, NULL) == ASTAR_PARSE_ERROR);
  CHECK(g == NULL);
  CHECK(astar_movingai_parse_scen(&sc, "bad", 3, NULL, NULL) == ASTAR_PARSE_ERROR);
  CHECK(astar_ascii_parse_map(&g, "x", 1, NULL, NULL, NULL, NULL) == ASTAR_PARSE_ERROR);
  CHECK(astar_movingai_parse_map(&g, "height 1\nwidth 1\nmap\n.", 22, NULL, NULL) == ASTAR_OK);
  astar_grid_free(g);
}

/* ---- allocation failures ------------------------------------------------- */

enum { P_MAP, P_SCEN, P_ASCII, P_ANY };

static astar_status run_parser(int which, const char *t, const astar_allocator *a, void **out,
                               astar_parse_error *e) {
  size_t n = strlen(t);
  astar_point s, g;
  switch (which) {
  case P_MAP:
    return astar_movingai_parse_map((astar_grid **)out, t, n, a, e);
  case P_SCEN:
    return astar_movingai_parse_scen((astar_scen **)out, t, n, a, e);
  case P_ASCII:
    return astar_ascii_parse_map((astar_grid **)out, t, n, a, &s, &g, e);
  default:
    return astar_parse_map((astar_grid **)out, t, n, a, &s, &g, e);
  }
}

static void release(int which, void *p) {
  if (which == P_SCEN)
    astar_scen_free(p);
  else
    astar_grid_free(p);
}

static void oom_case(int which, const char *t) {
  int nomem = 0;
  for (long k = 1; k < 100; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    failalloc_fail_in(&fa, k);
    void *out = (void *)1;
    astar_parse_error e;
    astar_status st = run_parser(which, t, &a, &out, &e);
    if (st == ASTAR_OK) {
      CHECKF(fa.failures == 0, "parser %d: OK although request %ld failed", which, k);
      CHECK(out != NULL && fa.blocks > 0);
      release(which, out);
      CHECKF(fa.blocks == 0 && fa.bytes == 0, "parser %d: %ld blocks left", which, fa.blocks);
      CHECK(fa.osize_mismatches == 0);
      CHECKF(nomem > 0, "parser %d never saw an allocation fail", which);
      return;
    }
    nomem++;
    CHECKF(st == ASTAR_NO_MEMORY, "parser %d, failing request %ld: %s", which, k,
           astar_strerror(st));
    CHECK(out == NULL);
    CHECK(e.line == 0 && e.column == 0 && strstr(e.message, "memory"));
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "parser %d, failing request %ld: %ld blocks leaked",
           which, k, fa.blocks);
    CHECK(fa.osize_mismatches == 0);
  }
  CHECKF(0, "parser %d still failing after 100 requests", which);
}

static void test_alloc_failures(void) {
  oom_case(P_MAP, "type octile\nheight 3\nwidth 3\nmap\n.@.\n...\nT..\n");
  oom_case(P_SCEN, "version 1\n0 a.map 3 3 0 0 1 1 1\n0 b.map 3 3 0 0 2 2 2.8\n");
  oom_case(P_ASCII, "S.#\n.5.\n9.G\n"); /* terrain digits allocate a layer */
  oom_case(P_ASCII, "S.#\n...\n..G\n");
  oom_case(P_ANY, "height 1\nwidth 2\nmap\n.@\n");
  oom_case(P_ANY, "..\n23\n");

  /* The default allocator and the counted one agree on the result. */
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator a = failalloc_allocator(&fa);
  astar_scen *sc = NULL;
  CHECK(astar_movingai_parse_scen(&sc, "version 1\n0 a 3 3 0 0 1 1 1\n", 27, &a, NULL) == ASTAR_OK);
  CHECK(fa.blocks == 1 && astar_scen_count(sc) == 1);
  astar_scen_free(sc);
  CHECK(fa.blocks == 0 && fa.bytes == 0 && fa.osize_mismatches == 0);
}

/* ---- files ---------------------------------------------------------------- */

/* Small hand-written files in tests/data/parse. */
static void test_data_files(void) {
  size_t n;
  char *t;
  astar_grid *g = NULL;
  astar_point s, go;
  astar_parse_error e;

  t = read_file("data/parse/terrain.txt", &n);
  CHECK(t != NULL);
  if (t) {
    CHECK(astar_parse_map(&g, t, n, NULL, &s, &go, &e) == ASTAR_OK);
    CHECK_EQ(astar_grid_width(g), 12);
    CHECK_EQ(astar_grid_height(g), 6);
    CHECK(s.x == 1 && s.y == 1 && go.x == 10 && go.y == 4);
    CHECK(astar_grid_terrain(g, 4, 2) == 5.0f && !astar_grid_passable(g, 0, 0));
    astar_grid_free(g);
    free(t);
  }
  t = read_file("data/parse/header_order.map", &n);
  CHECK(t != NULL);
  if (t) {
    CHECK(astar_parse_map(&g, t, n, NULL, &s, &go, &e) == ASTAR_OK);
    CHECK(astar_grid_width(g) == 6 && astar_grid_height(g) == 3 && s.x == -1);
    CHECK_EQ(astar_grid_count_passable(g), 12);
    astar_grid_free(g);
    free(t);
  }
  t = read_file("data/parse/spaces.map.scen", &n);
  CHECK(t != NULL);
  if (t) {
    astar_scen *sc = NULL;
    CHECK(astar_movingai_parse_scen(&sc, t, n, NULL, &e) == ASTAR_OK);
    CHECK_EQ(astar_scen_count(sc), 3);
    if (astar_scen_count(sc) == 3) {
      const astar_scen_query *q = astar_scen_queries(sc);
      CHECK(strcmp(q[2].map, "header_order.map") == 0 && q[2].optimal_length == 2.41421356);
    }
    astar_scen_free(sc);
    free(t);
  }
  t = read_file("data/parse/bad_row.map", &n);
  CHECK(t != NULL);
  if (t) {
    g = (astar_grid *)1;
    CHECK(astar_movingai_parse_map(&g, t, n, NULL, &e) == ASTAR_PARSE_ERROR);
    CHECK(g == NULL && e.line == 6 && e.column == 5);
    free(t);
  }
}

typedef struct bench_file {
  const char *map;
  int32_t w, h;
  size_t passable, queries;
  double max_len; /* rounded to 2 decimals in the README */
} bench_file;

/* The per-file table of shared/bench/movingai/README.md. */
static const bench_file bench_files[] = {
    {"dao/arena.map", 49, 49, 2054, 160, 62.15},
    {"dao/arena2.map", 281, 209, 24311, 929, 371.75},
    {"dao/brc202d.map", 530, 481, 43151, 2519, 1007.22},
    {"dao/den312d.map", 65, 81, 2445, 320, 127.87},
    {"dao/den520d.map", 256, 257, 28178, 888, 355.53},
    {"dao/hrt201n.map", 294, 305, 23652, 1210, 484.00},
    {"dao/lak303d.map", 194, 194, 14784, 1060, 423.27},
    {"dao/orz100d.map", 412, 395, 99626, 2419, 971.82},
    {"dao/ost003d.map", 194, 194, 13214, 846, 337.95},
    {"dao/orz900d.map", 1491, 656, 96603, 7015, 2835.85},
    {"bg512/AR0011SR.map", 512, 512, 120458, 2180, 871.18},
    {"bg512/AR0044SR.map", 512, 512, 231469, 1670, 667.50},
    {"bg512/AR0700SR.map", 512, 512, 131852, 1930, 771.36},
    {"sc1/AcrosstheCape.map", 768, 768, 392287, 2940, 1179.80},
    {"sc1/CatwalkAlley.map", 512, 512, 225934, 2640, 1058.67},
    {"sc1/GreenerPastures.map", 768, 512, 296248, 2590, 1039.79},
    {"sc1/Expedition.map", 1024, 1024, 640043, 3190, 1278.99},
    {"maze/maze512-1-0.map", 512, 512, 131071, 12120, 4847.00},
    {"maze/maze512-8-0.map", 512, 512, 232931, 6470, 2587.85},
    {"maze/maze512-32-0.map", 512, 512, 253840, 6170, 2466.39},
    {"random/random512-10-0.map", 512, 512, 235900, 1670, 671.74},
    {"random/random512-25-0.map", 512, 512, 195313, 100, 743.52},
    {"random/random512-40-0.map", 512, 512, 104950, 3060, 1227.97},
    {"room/8room_000.map", 512, 512, 206642, 2140, 855.93},
    {"room/32room_000.map", 512, 512, 240671, 2130, 851.78},
    {"room/64room_000.map", 512, 512, 246178, 2150, 859.83},
    {"street/Berlin_0_256.map", 256, 256, 48147, 930, 371.63},
    {"street/Berlin_0_512.map", 512, 512, 196667, 1870, 746.80},
    {"street/Berlin_0_1024.map", 1024, 1024, 794748, 3850, 1539.80},
    {"street/Boston_0_1024.map", 1024, 1024, 796896, 3840, 1534.81},
    {"iron/scene_mp_2p_01.map", 1800, 1912, 2217759, 2000, 2654.06},
};

#define BENCH_DIR "../../shared/bench/movingai/"

/* Each query's length equals strtod of the line's last field. */
static int scen_lengths_mismatch(const char *t, size_t n, const astar_scen_query *q, size_t count) {
  size_t i = 0, k = 0;
  int bad = 0;
  char field[64];
  while (i < n && t[i] != '\n') i++; /* the version line */
  while (i < n && k < count) {
    size_t a = ++i, b;
    while (i < n && t[i] != '\n') i++;
    b = i;
    while (b > a && (t[b - 1] == '\r' || t[b - 1] == ' ' || t[b - 1] == '\t')) b--;
    if (b == a) continue;
    size_t f = b;
    while (f > a && t[f - 1] != '\t' && t[f - 1] != ' ') f--;
    if (b - f >= sizeof field) return -1;
    memcpy(field, t + f, b - f);
    field[b - f] = '\0';
    if (strtod(field, NULL) != q[k].optimal_length) bad++;
    k++;
  }
  return k == count ? bad : -1;
}

static void test_movingai_files(void) {
  size_t n;
  char path[256];
  char *probe = read_file(BENCH_DIR "dao/arena.map", &n);
  if (!probe) {
    printf("note: %s not found, skipping the benchmark-file test\n", BENCH_DIR);
    return;
  }
  free(probe);
  for (size_t i = 0; i < sizeof bench_files / sizeof bench_files[0]; i++) {
    const bench_file *b = &bench_files[i];
    astar_grid *g = NULL;
    astar_scen *sc = NULL;
    astar_parse_error e = {0, 0, ""};
    double t0, t1, t2, t3;

    snprintf(path, sizeof path, BENCH_DIR "%s", b->map);
    char *mt = read_file(path, &n);
    CHECKF(mt != NULL, "cannot read %s", path);
    if (!mt) continue;
    t0 = now_ms();
    astar_status st = astar_movingai_parse_map(&g, mt, n, NULL, &e);
    t1 = now_ms();
    CHECKF(st == ASTAR_OK, "%s: %s at %d:%d: %s", b->map, astar_strerror(st), (int)e.line,
           (int)e.column, e.message);
    free(mt);
    if (st != ASTAR_OK) continue;
    CHECKF(astar_grid_width(g) == b->w && astar_grid_height(g) == b->h, "%s: %dx%d", b->map,
           (int)astar_grid_width(g), (int)astar_grid_height(g));
    CHECKF(astar_grid_count_passable(g) == b->passable, "%s: %zu passable, expected %zu", b->map,
           astar_grid_count_passable(g), b->passable);

    snprintf(path, sizeof path, BENCH_DIR "%s.scen", b->map);
    char *st_text = read_file(path, &n);
    CHECKF(st_text != NULL, "cannot read %s", path);
    if (!st_text) {
      astar_grid_free(g);
      continue;
    }
    t2 = now_ms();
    st = astar_movingai_parse_scen(&sc, st_text, n, NULL, &e);
    t3 = now_ms();
    CHECKF(st == ASTAR_OK, "%s.scen: %s at %d:%d: %s", b->map, astar_strerror(st), (int)e.line,
           (int)e.column, e.message);
    if (st == ASTAR_OK) {
      const astar_scen_query *q = astar_scen_queries(sc);
      size_t count = astar_scen_count(sc), bad = 0;
      double mx = 0;
      CHECKF(count == b->queries, "%s.scen: %zu queries, expected %zu", b->map, count, b->queries);
      CHECK(astar_scen_version(sc) == 1.0);
      for (size_t k = 0; k < count; k++) {
        if (q[k].map_width != b->w || q[k].map_height != b->h) bad++;
        if (!astar_grid_passable(g, q[k].start.x, q[k].start.y)) bad++;
        if (!astar_grid_passable(g, q[k].goal.x, q[k].goal.y)) bad++;
        if (q[k].map != q[0].map ||
            !strstr(b->map, strrchr(q[k].map, '/') ? strrchr(q[k].map, '/') + 1 : q[k].map))
          bad++;
        if (q[k].optimal_length > mx) mx = q[k].optimal_length;
      }
      CHECKF(bad == 0, "%s.scen: %zu inconsistent queries", b->map, bad);
      CHECKF(mx > b->max_len - 0.0051 && mx < b->max_len + 0.0051, "%s.scen: max length %.4f",
             b->map, mx);
      CHECKF(scen_lengths_mismatch(st_text, n, q, count) == 0,
             "%s.scen: lengths differ from strtod", b->map);
      astar_scen_free(sc);
    }
    if (strstr(b->map, "iron") || strstr(b->map, "orz900d"))
      printf("     %s: map %.2f ms, scen (%zu queries) %.2f ms\n", b->map, t1 - t0, b->queries,
             t3 - t2);
    free(st_text);
    astar_grid_free(g);
  }
}

int main(void) {
  RUN(test_map_basic);
  RUN(test_map_quirks);
  RUN(test_map_errors);
  RUN(test_scen_basic);
  RUN(test_scen_errors);
  RUN(test_scen_numbers);
  RUN(test_ascii_basic);
  RUN(test_ascii_errors);
  RUN(test_detect);
  RUN(test_arguments);
  RUN(test_alloc_failures);
  RUN(test_data_files);
  RUN(test_movingai_files);
  return check_summary();
}
