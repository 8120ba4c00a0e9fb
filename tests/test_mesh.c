/*
** test_mesh.c -- navigation meshes (astar/mesh.h, astar/navmesh_build.h's
** polygon maps): the shared meshes of Polyanya (../shared/bench/navmesh)
** read, validate and survive a write / read round trip byte for byte;
** every fault kind planted in a small mesh is reported with its polygon,
** vertex, line and column; point location against a brute force on random
** points and on every vertex and edge; neighbours derived from shared
** edges; edits against a fresh build; allocation failures at every
** allocation without leaks; polygon maps read, refused and written.
*/
#include <astar/astar.h>
#include <astar/mesh.h>
#include <astar/navmesh_build.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mesh/mesh.h"
#include "util/failalloc.h"

#define NAVMESH_DIR "../../shared/bench/navmesh/meshes/"

static const char *const SHARED[] = {
    "arena.mesh",
    "arena-merged.mesh",
    "aurora.mesh",
    "aurora-merged.mesh",
    "tests/bad-ambig.mesh",
    "tests/bad-collinear.mesh",
    "tests/bad-collinear2-rot0.mesh",
    "tests/bad-collinear2-rot45.mesh",
    "tests/bad-collinear2-rot90.mesh",
    "tests/hard.mesh",
    "tests/square.mesh",
};
#define NSHARED (sizeof SHARED / sizeof *SHARED)

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) b[n] = 0;
  *len = (size_t)n;
  return b;
}

/* A random generator of the tests' own (splitmix64): the same points on
** every platform. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
static double rnd01(void) {
  return (double)(rnd() >> 11) / 9007199254740992.0;
}

/* Brute-force location: the smallest polygon whose closure holds p. */
static int32_t brute_locate(const astar_mesh *m, astar_vec2 p) {
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++)
    if (astar__mesh_poly_holds(m, i, p)) return (int32_t)i;
  return -1;
}

/* The place of p in polygon i, found the slow way. */
static astar_mesh_place brute_place(const astar_mesh *m, int32_t i, astar_vec2 p, int32_t *vertex,
                                    int32_t *other) {
  const int32_t *pv, *nb;
  const uint32_t n = astar_mesh_polygon(m, (size_t)i, &pv, &nb);
  *vertex = *other = -1;
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 v = astar_mesh_vertex(m, (size_t)pv[k]);
    if (v.x == p.x && v.y == p.y) {
      *vertex = pv[k];
      return ASTAR_MESH_ON_VERTEX;
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = astar_mesh_vertex(m, (size_t)pv[(k + n - 1) % n]);
    const astar_vec2 b = astar_mesh_vertex(m, (size_t)pv[k]);
    if (astar__orient2d(a, b, p) == 0 && p.x >= fmin(a.x, b.x) && p.x <= fmax(a.x, b.x) &&
        p.y >= fmin(a.y, b.y) && p.y <= fmax(a.y, b.y)) {
      *other = nb[k];
      return ASTAR_MESH_ON_EDGE;
    }
  }
  return ASTAR_MESH_INSIDE;
}

/* Locate p and compare with the brute force; returns 1 when they agree. */
static int check_locate(const astar_mesh *m, astar_vec2 p, const char *what) {
  astar_mesh_location loc;
  const int32_t got = astar_mesh_locate(m, p, &loc);
  const int32_t want = brute_locate(m, p);
  if (got != want || loc.polygon != want) {
    FAILF("%s: (%.17g, %.17g) located in %d, brute force %d", what, p.x, p.y, (int)got, (int)want);
    return 0;
  }
  if (want < 0) {
    if (loc.place != ASTAR_MESH_OUTSIDE || loc.vertex != -1 || loc.other != -1) {
      FAILF("%s: (%.17g, %.17g) outside but place %d", what, p.x, p.y, (int)loc.place);
      return 0;
    }
    return 1;
  }
  int32_t v, o;
  const astar_mesh_place place = brute_place(m, want, p, &v, &o);
  if (loc.place != place || loc.vertex != v || loc.other != o) {
    FAILF("%s: (%.17g, %.17g) in %d: place %d vertex %d other %d, want %d %d %d", what, p.x, p.y,
          (int)want, (int)loc.place, (int)loc.vertex, (int)loc.other, (int)place, (int)v, (int)o);
    return 0;
  }
  return 1;
}

/* Random points in the box, on vertices, on edges (midpoints of edges
** between grid points are exact), at random points of random edges. */
static void locate_sweep(const astar_mesh *m, size_t count, const char *what) {
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  const double w = hi.x - lo.x, h = hi.y - lo.y;
  for (size_t i = 0; i < count; i++) {
    astar_vec2 p = {lo.x - 0.1 * w + 1.2 * w * rnd01(), lo.y - 0.1 * h + 1.2 * h * rnd01()};
    check_locate(m, p, what);
  }
  const size_t nv = astar_mesh_vertex_count(m), np = astar_mesh_polygon_count(m);
  for (size_t i = 0; i < count && nv; i++) check_locate(m, astar_mesh_vertex(m, rnd() % nv), what);
  for (size_t i = 0; i < count && np; i++) {
    const int32_t *pv;
    const uint32_t n = astar_mesh_polygon(m, rnd() % np, &pv, NULL);
    if (!n) continue;
    const uint32_t k = (uint32_t)(rnd() % n);
    const astar_vec2 a = astar_mesh_vertex(m, (size_t)pv[k]);
    const astar_vec2 b = astar_mesh_vertex(m, (size_t)pv[(k + 1) % n]);
    check_locate(m, (astar_vec2){(a.x + b.x) / 2, (a.y + b.y) / 2}, what);
    const double t = rnd01();
    check_locate(m, (astar_vec2){a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}, what);
  }
}

/* The vertex lines' polygon lists of a mesh text (for comparison with the
** derived ones): lists[off[v] .. off[v] + n[v] - 1]. */
typedef struct file_lists {
  int32_t *list;
  size_t *off, *n;
} file_lists;

static int read_file_lists(const char *text, file_lists *fl, size_t *nv_out) {
  char *end;
  const char *p = text;
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  p += 4;              /* mesh */
  strtol(p, &end, 10); /* version */
  p = end;
  const long nv = strtol(p, &end, 10);
  p = end;
  strtol(p, &end, 10);
  p = end;
  fl->off = calloc((size_t)nv + 1, sizeof(size_t));
  fl->n = calloc((size_t)nv + 1, sizeof(size_t));
  size_t cap = 1024, used = 0;
  fl->list = malloc(sizeof(int32_t) * cap);
  for (long v = 0; v < nv; v++) {
    strtod(p, &end);
    p = end;
    strtod(p, &end);
    p = end;
    const long n = strtol(p, &end, 10);
    p = end;
    fl->off[v] = used;
    fl->n[v] = (size_t)n;
    for (long k = 0; k < n; k++) {
      if (used == cap) fl->list = realloc(fl->list, sizeof(int32_t) * (cap *= 2));
      fl->list[used++] = (int32_t)strtol(p, &end, 10);
      p = end;
    }
  }
  *nv_out = (size_t)nv;
  return 1;
}

/* The derived vertex lists equal the file's up to a rotation (the file's
** start is arbitrary); flags match the gaps. Hand-made bad-ambig.mesh
** lists vertex 1's polygons clockwise ("2 1 -1": polygon 1 lies at
** angles 198-225 degrees around (3, 3), polygon 2 at 225-252): there only
** the same entries are asked for. */
static void check_vertex_lists(const astar_mesh *m, const char *text, const char *what) {
  const int any_order = strstr(what, "bad-ambig") != NULL;
  file_lists fl;
  size_t nv;
  read_file_lists(text, &fl, &nv);
  CHECK(nv == m->nv);
  size_t bad = 0;
  for (size_t v = 0; v < nv && v < m->nv; v++) {
    const int32_t *mine = m->vp + m->voff[v];
    const size_t n = m->vn[v];
    int ok = n == fl.n[v];
    if (ok) {
      ok = 0;
      for (size_t r = 0; r < n && !ok; r++) {
        size_t k = 0;
        /* (every entry of fl.list up to fl.off[v] + n was read from the text)
        ** NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
        while (k < n && mine[k] == fl.list[fl.off[v] + (k + r) % n]) k++;
        ok = k == n;
      }
      for (size_t k = 0; k < n && !ok && any_order; k++) { /* reversed */
        size_t j = 0;
        while (j < n && mine[j] == fl.list[fl.off[v] + (n + k - j) % n]) j++;
        ok = j == n;
      }
    }
    size_t gaps = 0;
    for (size_t k = 0; k < n; k++) gaps += mine[k] < 0;
    const unsigned want = (gaps ? ASTAR__V_CORNER : 0u) | (gaps > 1 ? ASTAR__V_AMBIG : 0u);
    if (m->vflags[v] != want) ok = 0;
    if (!ok && bad++ < 5) FAILF("%s: vertex %zu: derived list differs from the file's", what, v);
  }
  CHECKF(bad == 0, "%s: %zu vertex lists differ", what, bad);
  free(fl.list);
  free(fl.off);
  free(fl.n);
}

/* Every shared mesh reads, validates, writes back to a text that reads to
** the same mesh and writes the same text again; its locations agree with
** the brute force. */
static void test_shared_meshes(void) {
  for (size_t f = 0; f < NSHARED; f++) {
    char path[256];
    snprintf(path, sizeof path, "%s%s", NAVMESH_DIR, SHARED[f]);
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
      printf("note: %s not found, skipping\n", path);
      continue;
    }
    astar_mesh *m = NULL;
    astar_mesh_fault fault;
    const astar_status st = astar_mesh_read(&m, text, len, NULL, &fault);
    CHECKF(st == ASTAR_OK, "%s: %s: %s", SHARED[f], astar_strerror(st), fault.message);
    if (st != ASTAR_OK) {
      free(text);
      continue;
    }
    CHECK(fault.kind == ASTAR_MESH_FAULT_NONE && fault.message[0] == 0);
    CHECK(astar_mesh_validate(m, &fault) == ASTAR_OK);
    CHECK(astar_mesh_area(m) > 0);
    check_vertex_lists(m, text, SHARED[f]);
    size_t need = 0;
    CHECK(astar_mesh_write(m, NULL, 0, &need) == ASTAR_BUFFER_TOO_SMALL && need > 0);
    char *w1 = malloc(need + 1);
    size_t l1 = 0;
    CHECK(astar_mesh_write(m, w1, need, &l1) == ASTAR_BUFFER_TOO_SMALL);
    CHECK(astar_mesh_write(m, w1, need + 1, &l1) == ASTAR_OK && l1 == need && strlen(w1) == need);
    astar_mesh *m2 = NULL;
    CHECKF(astar_mesh_read(&m2, w1, l1, NULL, &fault) == ASTAR_OK, "%s: re-read: %s", SHARED[f],
           fault.message);
    if (m2) {
      char *w2 = malloc(need + 1);
      size_t l2 = 0;
      CHECK(astar_mesh_write(m2, w2, need + 1, &l2) == ASTAR_OK);
      CHECKF(l2 == l1 && memcmp(w1, w2, l1) == 0, "%s: the second write differs", SHARED[f]);
      CHECK(astar_mesh_vertex_count(m2) == astar_mesh_vertex_count(m));
      CHECK(astar_mesh_polygon_count(m2) == astar_mesh_polygon_count(m));
      for (size_t v = 0; v < astar_mesh_vertex_count(m); v++) {
        const astar_vec2 a = astar_mesh_vertex(m, v), b = astar_mesh_vertex(m2, v);
        if (a.x != b.x || a.y != b.y) FAILF("%s: vertex %zu moved", SHARED[f], v);
      }
      free(w2);
      astar_mesh_free(m2);
    }
    free(w1);
    locate_sweep(m, strstr(SHARED[f], "aurora") ? 100 : 1000, SHARED[f]);
    /* Every polygon holds its own vertices, also where rounded collinear
    ** vertices put a vertex a rounding step outside a neighbouring edge's
    ** line (bad-collinear2-rot45: vertex 9 was located nowhere). */
    for (size_t i = 0; i < astar_mesh_polygon_count(m); i++) {
      const int32_t *pv;
      const uint32_t n = astar_mesh_polygon(m, i, &pv, NULL);
      for (uint32_t k = 0; k < n; k++) {
        astar_mesh_location loc;
        const int32_t got = astar_mesh_locate(m, astar_mesh_vertex(m, (size_t)pv[k]), &loc);
        if (got < 0 || got > (int32_t)i || loc.place != ASTAR_MESH_ON_VERTEX || loc.vertex != pv[k])
          FAILF("%s: vertex %d of polygon %zu located in %d", SHARED[f], pv[k], i, got);
      }
    }
    astar_mesh_free(m);
    free(text);
  }
}

/* ---- faults ------------------------------------------------------------- */

/* Two triangles: the square [0, 2]^2 cut along (2, 0)-(0, 2). */
#define L1 "mesh\n"
#define L2 "2\n"
#define L3 "4 2\n"
#define L4 "0 0 2 0 -1\n"
#define L5 "2 0 3 0 1 -1\n"
#define L6 "2 2 2 1 -1\n"
#define L7 "0 2 3 -1 1 0\n"
#define L8 "3 0 1 3 -1 -1 1\n"
#define L9 "3 1 2 3 0 -1 -1\n"
#define GOOD L1 L2 L3 L4 L5 L6 L7 L8 L9

typedef struct fault_case {
  const char *name, *text;
  astar_status st;
  astar_mesh_fault_kind kind;
  int32_t polygon, vertex, other;
  uint32_t line, column;
} fault_case;

static const fault_case FAULTS[] = {
    {"header", "mash\n2\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, -1, -1, -1, 1, 1},
    {"version", L1 "3\n4 2\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, -1, -1, -1, 2, 1},
    {"negative count", L1 L2 "-4 2\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_RANGE, -1, -1, -1, 3, 1},
    {"coordinate", L1 L2 L3 "0 x 2 0 -1\n" L5 L6 L7 L8 L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_SYNTAX, -1, 0, -1, 4, 3},
    {"infinite", L1 L2 L3 L4 "1e999 0 3 0 1 -1\n" L6 L7 L8 L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_RANGE, -1, 1, -1, 5, 1},
    {"vertex list", L1 L2 L3 L4 L5 "2 2 2 1 9\n" L7 L8 L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_RANGE, -1, 2, -1, 6, 9},
    {"vertex index", L1 L2 L3 L4 L5 L6 L7 "3 0 1 7 -1 -1 1\n" L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_RANGE, 0, -1, -1, 8, 7},
    {"neighbour index", GOOD "", ASTAR_OK, ASTAR_MESH_FAULT_NONE, -1, -1, -1, 0, 0},
    {"neighbour range", L1 L2 L3 L4 L5 L6 L7 L8 "3 1 2 3 0 -1 5\n", ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_RANGE, 1, -1, -1, 9, 14},
    {"too many", L1 L2 "200000000 2\n", ASTAR_TOO_LARGE, ASTAR_MESH_FAULT_TOO_LARGE, -1, -1, -1, 3,
     1},
    {"too many sides", L1 L2 L3 L4 L5 L6 L7 "70000 0 1\n", ASTAR_TOO_LARGE,
     ASTAR_MESH_FAULT_TOO_LARGE, 0, -1, -1, 8, 1},
    {"two vertices", L1 L2 L3 L4 L5 L6 L7 "2 0 1 -1 -1\n" L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_DEGENERATE, 0, -1, -1, 8, 1},
    {"vertex twice", L1 L2 L3 L4 L5 L6 L7 "3 0 1 1 -1 -1 1\n" L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_DEGENERATE, 0, 1, -1, 8, 1},
    {"zero area", L1 L2 "3 1\n0 0 1 0\n1 0 1 0\n2 0 1 0\n3 0 1 2 -1 -1 -1\n", ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_DEGENERATE, 0, -1, -1, 7, 1},
    {"reflex", L1 L2 "4 1\n0 0 1 0\n4 0 1 0\n1 1 1 0\n0 4 1 0\n  4 0 1 2 3 -1 -1 -1 -1\n",
     ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_NOT_CONVEX, 0, 2, -1, 8, 3},
    {"clockwise", L1 L2 L3 L4 L5 L6 L7 "3 3 1 0 1 -1 -1\n" L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_CLOCKWISE, 0, -1, -1, 8, 1},
    {"unnamed neighbour", L1 L2 L3 L4 L5 L6 L7 "3 0 1 3 -1 -1 -1\n" L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_NEIGHBOUR, 0, -1, 1, 8, 1},
    {"one-way neighbour", L1 L2 L3 L4 L5 L6 L7 L8 "3 1 2 3 -1 -1 -1\n", ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_NEIGHBOUR, 0, -1, 1, 8, 1},
    {"loose vertex", L1 L2 "5 2\n" L4 L5 L6 L7 "9 9 0\n" L8 L9, ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_LOOSE_VERTEX, -1, 4, -1, 8, 1},
    {"overlap",
     L1 L2 "6 2\n0 0 1 0\n4 0 1 0\n0 4 1 0\n1 1 1 1\n5 1 1 1\n1 5 1 1\n"
           "3 0 1 2 -1 -1 -1\n3 3 4 5 -1 -1 -1\n",
     ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_OVERLAP, 0, -1, 1, 10, 1},
    {"trailing", GOOD "  x\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, -1, -1, -1, 10, 3},
    {"cut short", L1 L2 L3 L4 L5 L6 L7 L8, ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, 1, -1, -1, 9,
     1},
};

static void test_faults(void) {
  for (size_t c = 0; c < sizeof FAULTS / sizeof *FAULTS; c++) {
    const fault_case *fc = &FAULTS[c];
    astar_mesh *m = (astar_mesh *)&c;
    astar_mesh_fault f;
    memset(&f, 0x55, sizeof f);
    const astar_status st = astar_mesh_read(&m, fc->text, strlen(fc->text), NULL, &f);
    CHECKF(st == fc->st, "%s: status %s (%s)", fc->name, astar_strerror(st), f.message);
    CHECKF(f.kind == fc->kind && f.polygon == fc->polygon && f.vertex == fc->vertex &&
               f.other == fc->other && f.line == fc->line && f.column == fc->column,
           "%s: kind %d polygon %d vertex %d other %d line %u column %u: %s", fc->name, (int)f.kind,
           (int)f.polygon, (int)f.vertex, (int)f.other, (unsigned)f.line, (unsigned)f.column,
           f.message);
    CHECK(memchr(f.message, 0, sizeof f.message) != NULL);
    if (getenv("MESH_SHOW")) printf("  %s: %s\n", fc->name, f.message);
    if (st == ASTAR_OK) {
      CHECK(m != NULL && f.message[0] == 0);
      astar_mesh_free(m);
      continue;
    }
    CHECK(m == NULL);
    /* The message names the polygon or vertex and the line. */
    char want[64];
    if (fc->polygon >= 0) {
      snprintf(want, sizeof want, "polygon %d (line %u", (int)fc->polygon, (unsigned)fc->line);
    } else if (fc->vertex >= 0) {
      snprintf(want, sizeof want, "vertex %d (line %u", (int)fc->vertex, (unsigned)fc->line);
    } else {
      snprintf(want, sizeof want, "line %u, column %u", (unsigned)fc->line, (unsigned)fc->column);
    }
    CHECKF(strstr(f.message, want) != NULL, "%s: message '%s' lacks '%s'", fc->name, f.message,
           want);
    CHECKF(f.message[strlen(f.message) - 1] != '.', "%s: message ends with a period", fc->name);
  }
}

/* Version 1: neighbour k across vertices k and k+1; read into the same
** mesh as its version-2 form. */
static void test_version1(void) {
  const char *v1 = L1 "1\n" L3 L4 L5 L6 L7 "3 0 1 3 -1 1 -1\n3 1 2 3 -1 -1 0\n";
  astar_mesh *a = NULL, *b = NULL;
  astar_mesh_fault f;
  CHECKF(astar_mesh_read(&a, v1, strlen(v1), NULL, &f) == ASTAR_OK, "%s", f.message);
  CHECK(astar_mesh_read(&b, GOOD, strlen(GOOD), NULL, NULL) == ASTAR_OK);
  if (a && b) {
    char ta[512], tb[512];
    CHECK(astar_mesh_write(a, ta, sizeof ta, NULL) == ASTAR_OK);
    CHECK(astar_mesh_write(b, tb, sizeof tb, NULL) == ASTAR_OK);
    CHECK(strcmp(ta, tb) == 0);
    CHECKF(strcmp(tb, "mesh\n2\n4 2\n0 0 2 0 -1\n2 0 3 1 0 -1\n2 2 2 1 -1\n0 2 3 0 1 -1\n"
                      "3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n") == 0,
           "written:\n%s", tb);
  }
  astar_mesh_free(a);
  astar_mesh_free(b);
}

/* ---- meshes from polygons, edits ------------------------------------------- */

/* A grid of unit squares, n wide and h high, square (x, y) at slot
** y * n + x when free (blocked[y * n + x] == 0); vertex (x, y) at
** y * (n + 1) + x. Only used vertices are kept (renumbered in order). */
typedef struct sq_grid {
  int n, h;
  astar_vec2 v[(16 + 1) * (16 + 1)];
  int32_t vid[(16 + 1) * (16 + 1)]; /* grid point -> vertex, -1 unused */
  size_t nv, np;
  uint32_t sizes[256];
  int32_t pv[1024];
  int32_t slot[256]; /* square -> polygon, -1 blocked */
} sq_grid;

static void make_grid(sq_grid *g, int n, int h, const uint8_t *blocked) {
  memset(g, 0, sizeof *g);
  g->n = n;
  g->h = h;
  for (int i = 0; i < (n + 1) * (h + 1); i++) g->vid[i] = -1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < n; x++)
      if (!blocked || !blocked[y * n + x]) {
        const int c[4] = {y * (n + 1) + x, y * (n + 1) + x + 1, (y + 1) * (n + 1) + x + 1,
                          (y + 1) * (n + 1) + x};
        for (int k = 0; k < 4; k++) g->vid[c[k]] = 1;
      }
  for (int y = 0; y <= h; y++)
    for (int x = 0; x <= n; x++)
      if (g->vid[y * (n + 1) + x] > 0) {
        g->vid[y * (n + 1) + x] = (int32_t)g->nv;
        g->v[g->nv++] = (astar_vec2){x, y};
      }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < n; x++) {
      g->slot[y * n + x] = -1;
      if (blocked && blocked[y * n + x]) continue;
      g->slot[y * n + x] = (int32_t)g->np;
      const int c[4] = {y * (n + 1) + x, y * (n + 1) + x + 1, (y + 1) * (n + 1) + x + 1,
                        (y + 1) * (n + 1) + x};
      for (int k = 0; k < 4; k++) g->pv[4 * g->np + (size_t)k] = g->vid[c[k]];
      g->sizes[g->np++] = 4;
    }
}

static int32_t square_at(const sq_grid *g, int x, int y) {
  if (x < 0 || y < 0 || x >= g->n || y >= g->h) return -1;
  return g->slot[y * g->n + x];
}

/* Random grids: neighbours are the squares across each side; a vertex
** where exactly two diagonal squares are free is AMBIG; locate agrees
** with the brute force. */
static void test_from_polygons(void) {
  for (int trial = 0; trial < 40; trial++) {
    const int n = 2 + (int)(rnd() % 14), h = 2 + (int)(rnd() % 14);
    uint8_t blocked[256];
    for (int i = 0; i < n * h; i++) blocked[i] = rnd() % 3 == 0;
    blocked[0] = 0;
    sq_grid g;
    make_grid(&g, n, h, blocked);
    astar_mesh *m = NULL;
    astar_mesh_fault f;
    const astar_status st = astar_mesh_from_polygons(&m, g.v, g.nv, g.sizes, g.pv, g.np, NULL, &f);
    CHECKF(st == ASTAR_OK, "trial %d: %s: %s", trial, astar_strerror(st), f.message);
    if (st != ASTAR_OK) continue;
    CHECK(f.kind == ASTAR_MESH_FAULT_NONE && f.line == 0);
    CHECK(astar_mesh_polygon_count(m) == g.np && astar_mesh_vertex_count(m) == g.nv);
    CHECK(astar_mesh_area(m) == (double)g.np);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < n; x++) {
        const int32_t s = square_at(&g, x, y);
        if (s < 0) continue;
        const int32_t *nb;
        CHECK(astar_mesh_polygon(m, (size_t)s, NULL, &nb) == 4);
        const int32_t want[4] = {square_at(&g, x - 1, y), square_at(&g, x, y - 1),
                                 square_at(&g, x + 1, y), square_at(&g, x, y + 1)};
        for (int k = 0; k < 4; k++)
          if (nb[k] != want[k])
            FAILF("trial %d: square (%d, %d) side %d: %d, want %d", trial, x, y, k, (int)nb[k],
                  (int)want[k]);
      }
    for (int y = 0; y <= h; y++)
      for (int x = 0; x <= n; x++) {
        const int32_t v = g.vid[y * (n + 1) + x];
        if (v < 0) continue;
        const int32_t a = square_at(&g, x - 1, y - 1), b = square_at(&g, x, y - 1);
        const int32_t c = square_at(&g, x - 1, y), d = square_at(&g, x, y);
        const int free_n = (a >= 0) + (b >= 0) + (c >= 0) + (d >= 0);
        const int diag = free_n == 2 && ((a >= 0 && d >= 0) || (b >= 0 && c >= 0));
        const unsigned want = (free_n < 4 ? ASTAR__V_CORNER : 0u) | (diag ? ASTAR__V_AMBIG : 0u);
        if (m->vflags[v] != want)
          FAILF("trial %d: vertex (%d, %d): flags %u, want %u", trial, x, y, (unsigned)m->vflags[v],
                want);
        if (m->vn[v] != (unsigned)free_n + (free_n < 4 ? 1u + (unsigned)diag : 0u))
          FAILF("trial %d: vertex (%d, %d): %u entries", trial, x, y, (unsigned)m->vn[v]);
      }
    locate_sweep(m, 200, "grid");
    astar_mesh_free(m);
  }
  /* An edge held by three polygons; an edge held twice in one direction. */
  const astar_vec2 v[5] = {{0, 0}, {1, 0}, {0, 1}, {0, -1}, {1, -1}};
  const uint32_t sz[3] = {3, 3, 3};
  const int32_t three[9] = {0, 1, 2, 1, 0, 3, 1, 0, 4};
  astar_mesh *m = (astar_mesh *)&sz;
  astar_mesh_fault f;
  CHECK(astar_mesh_from_polygons(&m, v, 5, sz, three, 3, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECKF(m == NULL && f.kind == ASTAR_MESH_FAULT_NEIGHBOUR && f.polygon == 0 && f.other == 1 &&
             f.line == 0 && strstr(f.message, "polygon 0: ") == f.message,
         "%d %d %d: %s", (int)f.kind, (int)f.polygon, (int)f.other, f.message);
  const astar_vec2 w[4] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  const int32_t same[6] = {0, 1, 2, 0, 1, 3};
  CHECK(astar_mesh_from_polygons(&m, w, 4, sz, same, 2, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECKF(f.kind == ASTAR_MESH_FAULT_OVERLAP && f.polygon == 0 && f.other == 1, "%s", f.message);
  const int32_t bad[3] = {0, 1, 9};
  CHECK(astar_mesh_from_polygons(&m, w, 4, sz, bad, 1, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(f.kind == ASTAR_MESH_FAULT_RANGE && f.polygon == 0);
  CHECK(astar_mesh_from_polygons(&m, NULL, 4, sz, same, 2, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_mesh_from_polygons(NULL, w, 4, sz, same, 2, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  const uint32_t big[1] = {70000};
  CHECK(astar_mesh_from_polygons(&m, w, 4, big, same, 1, NULL, &f) == ASTAR_TOO_LARGE);
  CHECK(f.kind == ASTAR_MESH_FAULT_TOO_LARGE && m == NULL);
  const uint32_t two[1] = {2};
  CHECK(astar_mesh_from_polygons(&m, w, 4, two, same, 1, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(f.kind == ASTAR_MESH_FAULT_DEGENERATE);
  const uint32_t zero[2] = {3, 0};
  CHECK(astar_mesh_from_polygons(&m, w, 4, zero, same, 2, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(f.kind == ASTAR_MESH_FAULT_DEGENERATE && f.polygon == 1 && m == NULL);
  /* An empty mesh is valid and locates nothing. */
  CHECK(astar_mesh_from_polygons(&m, NULL, 0, NULL, NULL, 0, NULL, &f) == ASTAR_OK);
  CHECK(astar_mesh_locate(m, (astar_vec2){0, 0}, NULL) == -1);
  astar_mesh_free(m);
}

/* Written text of a mesh (malloc'ed). */
static char *written(const astar_mesh *m) {
  size_t need = 0;
  astar_mesh_write(m, NULL, 0, &need);
  char *t = malloc(need + 1);
  CHECK(astar_mesh_write(m, t, need + 1, NULL) == ASTAR_OK);
  return t;
}

/* Set polygon `slot` of m to the square grid's polygon list entry
** (vertices from `pv`, neighbours from `nb`). */
static void edit_poly(astar_mesh *m, size_t slot, uint32_t n, const int32_t *pv,
                      const int32_t *nb) {
  CHECK(astar__mesh_set_polygon(m, slot, n, pv, nb) == ASTAR_OK);
}

/* Compare an edited mesh with a fresh build of the same polygons (slots in
** order, empty ones left out): the same text, the same locations. */
static void same_as_fresh(const astar_mesh *m, const char *what) {
  size_t np = 0, entries = 0;
  uint32_t sizes[64];
  int32_t pv[256];
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++) {
    const int32_t *v;
    const uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    if (!n) continue;
    sizes[np++] = n;
    memcpy(pv + entries, v, n * sizeof *v);
    entries += n;
  }
  astar_vec2 verts[64];
  for (size_t i = 0; i < astar_mesh_vertex_count(m); i++) verts[i] = astar_mesh_vertex(m, i);
  astar_mesh *fresh = NULL;
  astar_mesh_fault f;
  CHECKF(astar_mesh_from_polygons(&fresh, verts, astar_mesh_vertex_count(m), sizes, pv, np, NULL,
                                  &f) == ASTAR_OK,
         "%s: %s", what, f.message);
  if (!fresh) return;
  char *a = written(m), *b = written(fresh);
  CHECKF(strcmp(a, b) == 0, "%s: edited\n%s\nfresh\n%s", what, a, b);
  CHECKF(fabs(astar_mesh_area(m) - astar_mesh_area(fresh)) < 1e-12, "%s: area %g, fresh %g", what,
         astar_mesh_area(m), astar_mesh_area(fresh));
  CHECK(astar_mesh_validate(m, &f) == ASTAR_OK);
  for (int i = 0; i < 400; i++) {
    const astar_vec2 p = {-0.5 + 5 * rnd01(), -0.5 + 5 * rnd01()};
    const int32_t x = astar_mesh_locate(m, p, NULL), y = astar_mesh_locate(fresh, p, NULL);
    /* Slots map to fresh indices in order: same polygon, renumbered. */
    int32_t rank = -1;
    if (x >= 0) {
      rank = 0;
      for (int32_t j = 0; j < x; j++) rank += astar_mesh_polygon(m, (size_t)j, NULL, NULL) != 0;
    }
    if (rank != y)
      FAILF("%s: (%g, %g): edited %d (rank %d), fresh %d", what, p.x, p.y, (int)x, (int)rank,
            (int)y);
  }
  free(a);
  free(b);
  astar_mesh_free(fresh);
}

static void test_edits(void) {
  sq_grid g;
  make_grid(&g, 4, 4, NULL);
  astar_mesh *m = NULL;
  CHECK(astar_mesh_from_polygons(&m, g.v, g.nv, g.sizes, g.pv, g.np, NULL, NULL) == ASTAR_OK);
  if (!m) return;
  CHECK(astar_mesh_version(m) == 0);
  /* Split square (1, 1) (slot 5) along its diagonal into slot 5 and a new
  ** slot 16; squares 4 and 9 now border the new triangle. */
  const int32_t v00 = 6, v10 = 7, v11 = 12, v01 = 11; /* (1,1) (2,1) (2,2) (1,2) */
  const int32_t t1[3] = {v00, v10, v11}, n1[3] = {16, 1, 6};
  const int32_t t2[3] = {v00, v11, v01}, n2[3] = {4, 5, 9};
  edit_poly(m, 5, 3, t1, n1);
  edit_poly(m, 16, 3, t2, n2);
  const int32_t *pv4, *nb4, *pv9, *nb9;
  astar_mesh_polygon(m, 4, &pv4, &nb4);
  int32_t q4[4], r4[4], q9[4], r9[4];
  memcpy(q4, pv4, sizeof q4);
  memcpy(r4, nb4, sizeof r4);
  r4[2] = 16;
  astar_mesh_polygon(m, 9, &pv9, &nb9);
  memcpy(q9, pv9, sizeof q9);
  memcpy(r9, nb9, sizeof r9);
  r9[1] = 16;
  edit_poly(m, 4, 4, q4, r4);
  edit_poly(m, 9, 4, q9, r9);
  const int32_t touched1[4] = {5, 16, 4, 9};
  CHECK(astar__mesh_edited(m, touched1, 4) == ASTAR_OK);
  CHECK(astar_mesh_version(m) == 1);
  same_as_fresh(m, "split");
  /* Remove square (2, 2) (slot 10): an obstacle; its neighbours 6, 9, 11,
  ** 14 get -1 on that side. */
  edit_poly(m, 10, 0, NULL, NULL);
  const int32_t around[4] = {6, 9, 11, 14}, side[4] = {3, 2, 0, 1};
  for (int i = 0; i < 4; i++) {
    const int32_t *pv, *nb;
    const uint32_t n = astar_mesh_polygon(m, (size_t)around[i], &pv, &nb);
    int32_t q[4], r[4];
    memcpy(q, pv, n * sizeof *q);
    memcpy(r, nb, n * sizeof *r);
    r[side[i]] = -1;
    edit_poly(m, (size_t)around[i], n, q, r);
  }
  const int32_t touched2[5] = {10, 6, 9, 11, 14};
  CHECK(astar__mesh_edited(m, touched2, 5) == ASTAR_OK);
  CHECK(astar_mesh_version(m) == 2);
  CHECK(astar_mesh_polygon(m, 10, NULL, NULL) == 0);
  CHECK(astar_mesh_locate(m, (astar_vec2){2.5, 2.5}, NULL) == -1);
  CHECK(m->vflags[12] == ASTAR__V_CORNER); /* (2, 2): the hole's corner */
  same_as_fresh(m, "hole");
  /* Merge squares (0, 0) and (1, 0) into one rectangle in slot 0 (its box
  ** grows: the index must refit), slot 1 emptied; square 2 and triangle 5
  ** now border slot 0. */
  const int32_t rect[6] = {0, 1, 2, 7, 6, 5}, rnb[6] = {-1, -1, -1, 2, 5, 4};
  edit_poly(m, 0, 6, rect, rnb);
  edit_poly(m, 1, 0, NULL, NULL);
  {
    const int32_t *pv, *nb;
    int32_t q[4], r[4];
    uint32_t n = astar_mesh_polygon(m, 2, &pv, &nb);
    memcpy(q, pv, n * sizeof *q);
    memcpy(r, nb, n * sizeof *r);
    r[0] = 0;
    edit_poly(m, 2, n, q, r);
    n = astar_mesh_polygon(m, 5, &pv, &nb);
    memcpy(q, pv, n * sizeof *q);
    memcpy(r, nb, n * sizeof *r);
    r[1] = 0;
    edit_poly(m, 5, n, q, r);
  }
  const int32_t touched3[4] = {0, 1, 2, 5};
  CHECK(astar__mesh_edited(m, touched3, 4) == ASTAR_OK);
  CHECK(astar_mesh_locate(m, (astar_vec2){1.5, 0.5}, NULL) == 0);
  same_as_fresh(m, "merge");
  /* Squeezing the pool changes nothing visible. */
  char *before = written(m);
  const size_t mem = astar_mesh_memory(m);
  astar__mesh_compact(m);
  CHECK(astar_mesh_memory(m) <= mem);
  char *after = written(m);
  CHECK(strcmp(before, after) == 0);
  same_as_fresh(m, "compacted");
  /* A refused allocation leaves the mesh as it was. */
  failalloc fa;
  failalloc_init(&fa);
  astar_mesh *fm = NULL;
  astar_allocator a = failalloc_allocator(&fa);
  CHECK(astar_mesh_from_polygons(&fm, g.v, g.nv, g.sizes, g.pv, g.np, &a, NULL) == ASTAR_OK);
  if (fm) {
    char *t0 = written(fm);
    const int32_t big[8] = {0, 1, 2, 3, 4, 5, 6, 7}, nb[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    fa.fail_from = fa.requests + 1;
    CHECK(astar__mesh_set_polygon(fm, 16, 8, big, nb) == ASTAR_NO_MEMORY);
    CHECK(astar__mesh_set_polygon(fm, 3, 8, big, nb) == ASTAR_NO_MEMORY);
    fa.fail_from = 0;
    CHECK(astar_mesh_polygon_count(fm) == 16);
    char *t1s = written(fm);
    CHECK(strcmp(t0, t1s) == 0);
    free(t0);
    free(t1s);
    astar_mesh_free(fm);
  }
  CHECK(fa.blocks == 0 && fa.bytes == 0 && fa.osize_mismatches == 0);
  free(before);
  free(after);
  astar_mesh_free(m);
}

/* The location index follows edits: squares of a 16 x 16 grid replaced one
** by one by triangles far away (new vertices: the index must find them
** outside every box it had), by an empty slot, or by a bigger polygon;
** after each edit locate agrees with the brute force, past the point where
** the index rebuilds itself. */
static void test_index_edits(void) {
  static sq_grid g;
  make_grid(&g, 16, 16, NULL);
  astar_mesh *m = NULL;
  CHECK(astar_mesh_from_polygons(&m, g.v, g.nv, g.sizes, g.pv, g.np, NULL, NULL) == ASTAR_OK);
  if (!m) return;
  for (int e = 0; e < 120; e++) {
    const int x = e % 16, y = e / 16;
    const int32_t s = square_at(&g, x, y);
    /* Cut the square off its neighbours. */
    const int32_t adj[4] = {square_at(&g, x - 1, y), square_at(&g, x, y - 1),
                            square_at(&g, x + 1, y), square_at(&g, x, y + 1)};
    const int side[4] = {2, 3, 0, 1}; /* the neighbour's side facing the square */
    int32_t touched[6];
    size_t nt = 0;
    for (int k = 0; k < 4; k++) {
      const int32_t *pv, *nb;
      const uint32_t n = adj[k] >= 0 ? astar_mesh_polygon(m, (size_t)adj[k], &pv, &nb) : 0;
      if (n == 0) continue;
      int32_t q[4], r[4];
      memcpy(q, pv, n * sizeof *q);
      memcpy(r, nb, n * sizeof *r);
      r[side[k]] = -1;
      edit_poly(m, (size_t)adj[k], n, q, r);
      touched[nt++] = adj[k];
    }
    const int32_t none[4] = {-1, -1, -1, -1};
    if (e % 3 == 0) {
      edit_poly(m, (size_t)s, 0, NULL, NULL);
    } else {
      const double ox = 20 + 2 * (e % 10), oy = 20 + 2.0 * (e - e % 10) / 10,
                   w = e % 3 == 1 ? 1 : 1.5;
      int32_t t[3];
      CHECK(astar__mesh_add_vertex(m, (astar_vec2){ox, oy}, &t[0]) == ASTAR_OK);
      CHECK(astar__mesh_add_vertex(m, (astar_vec2){ox + w, oy}, &t[1]) == ASTAR_OK);
      CHECK(astar__mesh_add_vertex(m, (astar_vec2){ox, oy + w}, &t[2]) == ASTAR_OK);
      edit_poly(m, (size_t)s, 3, t, none);
    }
    touched[nt++] = s;
    CHECK(astar__mesh_edited(m, touched, nt) == ASTAR_OK);
    for (int k = 0; k < 40; k++)
      check_locate(m, (astar_vec2){-1 + 43 * rnd01(), -1 + 43 * rnd01()}, "index edits");
    const double ox = 20 + 2 * (e % 10), oy = 20 + 2.0 * (e - e % 10) / 10;
    check_locate(m, (astar_vec2){ox + 0.25, oy + 0.25}, "index edits: new triangle");
    check_locate(m, (astar_vec2){x + 0.5, y + 0.5}, "index edits: old square");
  }
  CHECK(astar_mesh_version(m) == 120);
  /* Vertices no polygon uses any more are not a fault of an edited mesh;
  ** the writer leaves them out with the empty slots, so the text reads
  ** back (to a mesh of fewer vertices and polygons) and writes the same. */
  astar_mesh_fault f;
  CHECKF(astar_mesh_validate(m, &f) == ASTAR_OK, "%s", f.message);
  size_t loose = 0, empty = 0;
  for (size_t v = 0; v < m->nv; v++) loose += m->vn[v] == 0;
  for (size_t i = 0; i < m->np; i++) empty += m->pn[i] == 0;
  CHECK(loose > 0 && empty > 0);
  char *t1 = written(m);
  astar_mesh *r = NULL;
  CHECKF(astar_mesh_read(&r, t1, strlen(t1), NULL, &f) == ASTAR_OK, "%s", f.message);
  if (r) {
    CHECK(astar_mesh_vertex_count(r) == m->nv - loose);
    CHECK(astar_mesh_polygon_count(r) == m->np - empty);
    char *t2 = written(r);
    CHECK(strcmp(t1, t2) == 0);
    free(t2);
    astar_mesh_free(r);
  }
  free(t1);
  astar_mesh_free(m);
}

/* astar_mesh_validate on meshes broken after they were made (through the
** internal arrays): it trusts none of the mesh's derived data. */
static void test_validate(void) {
  /* Two triangles far apart; the second moved onto the first: OVERLAP. */
  const astar_vec2 v[6] = {{0, 0}, {4, 0}, {0, 4}, {10, 10}, {14, 10}, {10, 14}};
  const uint32_t sz[2] = {3, 3};
  const int32_t pv[6] = {0, 1, 2, 3, 4, 5};
  astar_mesh *m = NULL;
  astar_mesh_fault f;
  CHECK(astar_mesh_from_polygons(&m, v, 6, sz, pv, 2, NULL, &f) == ASTAR_OK);
  if (!m) return;
  CHECK(astar_mesh_validate(m, &f) == ASTAR_OK && f.kind == ASTAR_MESH_FAULT_NONE);
  m->v[3] = (astar_vec2){1, 1};
  m->v[4] = (astar_vec2){5, 1};
  m->v[5] = (astar_vec2){1, 5};
  CHECK(astar_mesh_validate(m, &f) == ASTAR_INVALID_ARGUMENT);
  CHECKF(f.kind == ASTAR_MESH_FAULT_OVERLAP && f.polygon == 0 && f.other == 1 && f.line == 0,
         "%d: %s", (int)f.kind, f.message);
  /* Touching along an edge without sharing it: not an overlap. */
  m->v[3] = (astar_vec2){4, 0};
  m->v[4] = (astar_vec2){8, 0};
  m->v[5] = (astar_vec2){4, 4};
  CHECKF(astar_mesh_validate(m, &f) == ASTAR_OK, "%s", f.message);
  /* Reversed: CLOCKWISE; a neighbour named one way: NEIGHBOUR. */
  m->pv[m->poff[1] + 1] = 5;
  m->pv[m->poff[1] + 2] = 4;
  CHECK(astar_mesh_validate(m, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(f.kind == ASTAR_MESH_FAULT_CLOCKWISE && f.polygon == 1);
  m->pv[m->poff[1] + 1] = 4;
  m->pv[m->poff[1] + 2] = 5;
  m->pnb[m->poff[0]] = 1;
  CHECK(astar_mesh_validate(m, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(f.kind == ASTAR_MESH_FAULT_NEIGHBOUR && f.polygon == 0 && f.other == 1);
  m->pnb[m->poff[0]] = -1;
  m->v[2].x = NAN;
  CHECK(astar_mesh_validate(m, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(f.kind == ASTAR_MESH_FAULT_RANGE && f.vertex == 2 && f.polygon == -1);
  astar_mesh_free(m);
  /* A pentagram: every turn left, winding twice: NOT_CONVEX. */
  astar_vec2 star[5];
  for (int k = 0; k < 5; k++)
    star[k] = (astar_vec2){cos(2 * 3.141592653589793 * 2 * k / 5),
                           sin(2 * 3.141592653589793 * 2 * k / 5)};
  const uint32_t five = 5;
  const int32_t order[5] = {0, 1, 2, 3, 4};
  CHECK(astar_mesh_from_polygons(&m, star, 5, &five, order, 1, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECKF(f.kind == ASTAR_MESH_FAULT_NOT_CONVEX && f.polygon == 0, "%d: %s", (int)f.kind, f.message);
  /* A spike that goes back along its own edge: NOT_CONVEX at its tip. */
  const astar_vec2 sp[4] = {{0, 0}, {4, 0}, {2, 0}, {0, 4}};
  const uint32_t four = 4;
  const int32_t o4[4] = {0, 1, 2, 3};
  CHECK(astar_mesh_from_polygons(&m, sp, 4, &four, o4, 1, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECKF(f.kind == ASTAR_MESH_FAULT_NOT_CONVEX && f.vertex == 1, "%d: %s", (int)f.kind, f.message);
}

/* ---- allocation failures ------------------------------------------------------ */

typedef astar_status (*make_fn)(void **obj, const astar_allocator *a, const void *arg);
typedef void (*free_fn)(void *obj);

static astar_status make_read(void **obj, const astar_allocator *a, const void *arg) {
  const char *t = arg;
  return astar_mesh_read((astar_mesh **)obj, t, strlen(t), a, NULL);
}
static astar_status make_grid_mesh(void **obj, const astar_allocator *a, const void *arg) {
  const sq_grid *g = arg;
  return astar_mesh_from_polygons((astar_mesh **)obj, g->v, g->nv, g->sizes, g->pv, g->np, a, NULL);
}
static astar_status make_polymap(void **obj, const astar_allocator *a, const void *arg) {
  const char *t = arg;
  return astar_polymap_read((astar_polymap **)obj, t, strlen(t), a, NULL);
}
static void free_mesh(void *p) {
  astar_mesh_free(p);
}
static void free_polymap(void *p) {
  astar_polymap_free(p);
}

/* Refuse the 1st, 2nd, ... request until the constructor succeeds: each
** failure is ASTAR_NO_MEMORY with *out NULL and nothing held. */
static void sweep(const char *name, make_fn make, free_fn destroy, const void *arg) {
  int succeeded = 0;
  for (long k = 1; k < 10000 && !succeeded; k++) {
    failalloc fa;
    failalloc_init(&fa);
    fa.fail_at = k;
    const astar_allocator a = failalloc_allocator(&fa);
    void *obj = &fa;
    const astar_status st = make(&obj, &a, arg);
    if (st == ASTAR_OK) {
      CHECKF(fa.failures == 0, "%s: request %ld refused, yet ASTAR_OK", name, k);
      destroy(obj);
      succeeded = 1;
    } else {
      CHECKF(st == ASTAR_NO_MEMORY && obj == NULL, "%s: refusing request %ld: %s", name, k,
             astar_strerror(st));
    }
    CHECKF(fa.blocks == 0 && fa.bytes == 0, "%s: refusing request %ld leaks %ld blocks", name, k,
           fa.blocks);
    CHECKF(fa.osize_mismatches == 0, "%s: %ld wrong sizes", name, fa.osize_mismatches);
  }
  CHECKF(succeeded, "%s: never succeeded", name);
}

static void test_alloc_failures(void) {
  sweep("read", make_read, free_mesh, GOOD);
  size_t len;
  char *arena = slurp(NAVMESH_DIR "arena-merged.mesh", &len);
  if (arena) sweep("read arena-merged", make_read, free_mesh, arena);
  free(arena);
  static sq_grid g;
  uint8_t blocked[64] = {0};
  blocked[9] = blocked[18] = blocked[30] = 1;
  make_grid(&g, 8, 8, blocked);
  sweep("from_polygons", make_grid_mesh, free_mesh, &g);
  sweep("polymap", make_polymap, free_polymap,
        "poly\n1\n3\n4 0 0 10 0 10 10 0 10\n3 1 1 2 1 1 2\n4 5 5 6 5 6 6 5 6\n");
  /* Validation's temporary blocks. */
  astar_mesh *m = NULL;
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator a = failalloc_allocator(&fa);
  CHECK(astar_mesh_from_polygons(&m, g.v, g.nv, g.sizes, g.pv, g.np, &a, NULL) == ASTAR_OK);
  fa.fail_at = fa.requests + 1;
  astar_mesh_fault f;
  CHECK(astar_mesh_validate(m, &f) == ASTAR_NO_MEMORY);
  fa.fail_at = 0;
  CHECK(astar_mesh_validate(m, &f) == ASTAR_OK && f.kind == ASTAR_MESH_FAULT_NONE);
  astar_mesh_free(m);
  CHECK(fa.blocks == 0);
}

/* ---- polygon maps --------------------------------------------------------------- */

typedef struct poly_case {
  const char *name, *text;
  astar_status st;
  astar_mesh_fault_kind kind;
  int32_t polygon;
  uint32_t line, column;
} poly_case;

static const poly_case POLYS[] = {
    {"good", "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n3 1 1 2 1 1.5 2.5\n", ASTAR_OK,
     ASTAR_MESH_FAULT_NONE, -1, 0, 0},
    {"header", "pol\n1\n0\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, -1, 1, 1},
    {"version", "poly\n2\n0\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, -1, 2, 1},
    {"bow tie", "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n  4 1 1 3 3 3 1 1 3\n", ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_DEGENERATE, 1, 5, 3},
    {"touching", "poly 1 1\n5 0 0 4 0 2 2 4 4 2 0\n", ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_DEGENERATE, 0, 2, 1},
    {"backtrack", "poly 1 1\n4 0 0 4 0 2 0 2 2\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_DEGENERATE,
     0, 2, 1},
    {"duplicate point", "poly 1 1\n4 0 0 4 0 4 0 2 2\n", ASTAR_PARSE_ERROR,
     ASTAR_MESH_FAULT_DEGENERATE, 0, 2, 1},
    {"two points", "poly 1 1\n2 0 0 1 1\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_DEGENERATE, 0, 2,
     1},
    {"not a number", "poly 1 1\n3 0 0 1 z 1 1\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, 0, 2,
     9},
    {"infinite", "poly 1 1\n3 0 0 1e400 0 1 1\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_RANGE, 0, 2,
     7},
    {"too many", "poly 1 300000000\n", ASTAR_TOO_LARGE, ASTAR_MESH_FAULT_TOO_LARGE, -1, 1, 8},
    {"cut short", "poly 1 2\n3 0 0 1 0 1 1\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, 1, 3, 1},
    {"trailing", "poly 1 1\n3 0 0 1 0 1 1 7\n", ASTAR_PARSE_ERROR, ASTAR_MESH_FAULT_SYNTAX, -1, 2,
     15},
};

static void test_polymap(void) {
  for (size_t c = 0; c < sizeof POLYS / sizeof *POLYS; c++) {
    const poly_case *pc = &POLYS[c];
    astar_polymap *p = (astar_polymap *)&c;
    astar_mesh_fault f;
    memset(&f, 0x55, sizeof f);
    const astar_status st = astar_polymap_read(&p, pc->text, strlen(pc->text), NULL, &f);
    CHECKF(st == pc->st && f.kind == pc->kind && f.polygon == pc->polygon && f.line == pc->line &&
               f.column == pc->column,
           "%s: %s kind %d polygon %d line %u column %u: %s", pc->name, astar_strerror(st),
           (int)f.kind, (int)f.polygon, (unsigned)f.line, (unsigned)f.column, f.message);
    if (getenv("MESH_SHOW")) printf("  %s: %s\n", pc->name, f.message);
    if (st != ASTAR_OK) {
      CHECK(p == NULL);
      if (pc->polygon >= 0) {
        char want[48];
        snprintf(want, sizeof want, "polygon %d (line %u", (int)pc->polygon, (unsigned)pc->line);
        CHECKF(strstr(f.message, want) == f.message, "%s: '%s'", pc->name, f.message);
      }
      continue;
    }
    CHECK(astar_polymap_count(p) == 2);
    const astar_vec2 *pts;
    CHECK(astar_polymap_polygon(p, 1, &pts) == 3 && pts[2].x == 1.5 && pts[2].y == 2.5);
    CHECK(astar_polymap_polygon(p, 2, &pts) == 0 && pts == NULL);
    char buf[256];
    size_t len = 0;
    CHECK(astar_polymap_write(p, buf, 10, &len) == ASTAR_BUFFER_TOO_SMALL);
    CHECK(astar_polymap_write(p, buf, sizeof buf, &len) == ASTAR_OK && len == strlen(buf));
    CHECKF(strcmp(buf, "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n3 1 1 2 1 1.5 2.5\n") == 0, "%s", buf);
    astar_polymap_free(p);
  }
  /* Made from arrays; refused when one crosses itself. */
  const astar_vec2 pts[7] = {{0, 0}, {1, 0}, {0, 1}, {0, 0}, {2, 2}, {2, 0}, {0, 2}};
  const uint32_t sizes[2] = {3, 4};
  astar_polymap *p = NULL;
  astar_mesh_fault f;
  CHECK(astar_polymap_new(&p, pts, sizes, 1, NULL, &f) == ASTAR_OK && astar_polymap_count(p) == 1);
  astar_polymap_free(p);
  CHECK(astar_polymap_new(&p, pts, sizes, 2, NULL, &f) == ASTAR_INVALID_ARGUMENT && p == NULL);
  CHECKF(f.kind == ASTAR_MESH_FAULT_DEGENERATE && f.polygon == 1 && f.line == 0 &&
             strstr(f.message, "polygon 1: ") == f.message,
         "%s", f.message);
  CHECK(astar_polymap_new(&p, NULL, sizes, 2, NULL, &f) == ASTAR_INVALID_ARGUMENT);
  /* Random round trips: written coordinates read back to the same doubles. */
  for (int trial = 0; trial < 50; trial++) {
    astar_vec2 q[4];
    const double x = (rnd01() - 0.5) * pow(10, (double)(rnd() % 30) - 15);
    const double y = (rnd01() - 0.5) * 1e3, s = 1 + rnd01();
    q[0] = (astar_vec2){x, y};
    q[1] = (astar_vec2){x + s, y};
    q[2] = (astar_vec2){x + s, y + s};
    q[3] = (astar_vec2){x, y + s};
    const uint32_t four = 4;
    CHECK(astar_polymap_new(&p, q, &four, 1, NULL, NULL) == ASTAR_OK);
    char buf[512];
    CHECK(astar_polymap_write(p, buf, sizeof buf, NULL) == ASTAR_OK);
    astar_polymap *r = NULL;
    CHECK(astar_polymap_read(&r, buf, strlen(buf), NULL, &f) == ASTAR_OK);
    const astar_vec2 *rp;
    if (r && astar_polymap_polygon(r, 0, &rp) == 4)
      for (int k = 0; k < 4; k++)
        if (rp[k].x != q[k].x || rp[k].y != q[k].y)
          FAILF("point %d: %.17g != %.17g", k, rp[k].x, q[k].x);
    astar_polymap_free(r);
    astar_polymap_free(p);
  }
}

/* ---- arguments -------------------------------------------------------------------- */

static void test_arguments(void) {
  astar_mesh_fault f;
  astar_mesh *m = (astar_mesh *)&f;
  CHECK(astar_mesh_read(NULL, GOOD, strlen(GOOD), NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_mesh_read(&m, NULL, 5, NULL, &f) == ASTAR_INVALID_ARGUMENT && m == NULL);
  CHECK(astar_mesh_read(&m, "", 0, NULL, &f) == ASTAR_PARSE_ERROR && f.line == 1);
  CHECK(astar_mesh_validate(NULL, &f) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_mesh_write(NULL, NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_mesh_locate(NULL, (astar_vec2){0, 0}, NULL) == -1);
  CHECK(astar_mesh_vertex_count(NULL) == 0 && astar_mesh_polygon_count(NULL) == 0);
  CHECK(astar_mesh_memory(NULL) == 0);
  astar_mesh_free(NULL);
  astar_polymap_free(NULL);
  CHECK(astar_polymap_read(NULL, "poly 1 0", 8, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_polymap_write(NULL, NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_mesh_read(&m, GOOD, strlen(GOOD), NULL, NULL) == ASTAR_OK);
  if (!m) return;
  CHECK(astar_mesh_memory(m) > sizeof(astar_vec2) * 4);
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  CHECK(lo.x == 0 && lo.y == 0 && hi.x == 2 && hi.y == 2);
  CHECK(astar_mesh_area(m) == 4);
  CHECK(astar_mesh_polygon(m, 2, NULL, NULL) == 0);
  CHECK(astar_mesh_vertex(m, 9).x == 0);
  /* The tie rule: the shared diagonal goes to polygon 0; its ends too. */
  astar_mesh_location loc;
  CHECK(astar_mesh_locate(m, (astar_vec2){1, 1}, &loc) == 0 && loc.place == ASTAR_MESH_ON_EDGE &&
        loc.other == 1 && loc.vertex == -1);
  CHECK(astar_mesh_locate(m, (astar_vec2){2, 0}, &loc) == 0 && loc.place == ASTAR_MESH_ON_VERTEX &&
        loc.vertex == 1 && loc.other == -1);
  CHECK(astar_mesh_locate(m, (astar_vec2){2, 2}, &loc) == 1 && loc.place == ASTAR_MESH_ON_VERTEX &&
        loc.vertex == 2);
  CHECK(astar_mesh_locate(m, (astar_vec2){1.5, 1.5}, &loc) == 1 && loc.place == ASTAR_MESH_INSIDE);
  CHECK(astar_mesh_locate(m, (astar_vec2){2, 1}, &loc) == 1 && loc.place == ASTAR_MESH_ON_EDGE &&
        loc.other == -1);
  CHECK(astar_mesh_locate(m, (astar_vec2){3, 1}, &loc) == -1 && loc.place == ASTAR_MESH_OUTSIDE &&
        loc.polygon == -1);
  CHECK(astar_mesh_locate(m, (astar_vec2){NAN, 1}, &loc) == -1);
  astar_mesh_free(m);
}

int main(void) {
  RUN(test_shared_meshes);
  RUN(test_faults);
  RUN(test_version1);
  RUN(test_from_polygons);
  RUN(test_edits);
  RUN(test_index_edits);
  RUN(test_validate);
  RUN(test_alloc_failures);
  RUN(test_polymap);
  RUN(test_arguments);
  return check_summary();
}
