/*
** fuzz/fuzz_mesh.c -- libFuzzer harness for the navigation-mesh reader
** (astar_mesh_read, astar/mesh.h), the validator, the writer and point
** location. The input is the text.
**
** Checks, besides what the sanitizers see: a failure leaves *out NULL, no
** memory held and a fault whose kind fits the status, whose message is a
** NUL-terminated sentence (not empty) and whose line lies within the text;
** a mesh read is valid (astar_mesh_validate), writes to a text that reads
** back and writes the same bytes again, with the same vertices; on small
** meshes astar_mesh_locate agrees with a brute force over the polygons on
** points derived from the input (vertices, edge midpoints, box points);
** and refusing one of the read's allocations fails it cleanly
** (ASTAR_NO_MEMORY, nothing held).
*/
#include "fuzz_common.h"

#include <astar/mesh.h>
#include <string.h>

/* The library's own closed-polygon test (src/mesh/mesh.h), exact. */
bool astar__mesh_poly_holds(const astar_mesh *m, size_t i, astar_vec2 p);

/* Most bytes one read may hold (a mesh is about its text's size; the
** index and vertex lists a few times that). */
#define MESH_LIMIT ((size_t)64 << 20)
/* Meshes up to this many polygons get the brute-force location check. */
#define BRUTE_POLYGONS 2000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t text_lines(const char *t, size_t n) {
  uint32_t lines = 1;
  for (size_t i = 0; i < n; i++) lines += t[i] == '\n';
  return lines;
}

static void check_fault(astar_status st, const astar_mesh_fault *f, const char *text, size_t n) {
  FUZZ_CHECK(memchr(f->message, 0, sizeof f->message) != NULL, "message not terminated");
  if (st == ASTAR_OK) {
    FUZZ_CHECK(f->kind == ASTAR_MESH_FAULT_NONE && f->message[0] == 0, "OK with a fault");
    return;
  }
  if (st == ASTAR_NO_MEMORY) return;
  FUZZ_CHECK(st == ASTAR_PARSE_ERROR || st == ASTAR_TOO_LARGE, "status %s", astar_strerror(st));
  FUZZ_CHECK(f->kind != ASTAR_MESH_FAULT_NONE && f->message[0] != 0, "%s without a fault",
             astar_strerror(st));
  FUZZ_CHECK((st == ASTAR_TOO_LARGE) == (f->kind == ASTAR_MESH_FAULT_TOO_LARGE), "%s: kind %d",
             astar_strerror(st), (int)f->kind);
  FUZZ_CHECK(f->line >= 1 && f->line <= text_lines(text, n), "line %u of %u", (unsigned)f->line,
             (unsigned)text_lines(text, n));
  FUZZ_CHECK(f->column >= 1, "column %u", (unsigned)f->column);
  const size_t len = strlen(f->message);
  FUZZ_CHECK(f->message[len - 1] != '.', "message ends with a period: %s", f->message);
}

static void check_locate(const astar_mesh *m, astar_vec2 p) {
  astar_mesh_location loc;
  const int32_t got = astar_mesh_locate(m, p, &loc);
  int32_t want = -1;
  for (size_t i = 0; i < astar_mesh_polygon_count(m) && want < 0; i++)
    if (astar__mesh_poly_holds(m, i, p)) want = (int32_t)i;
  FUZZ_CHECK(got == want && loc.polygon == want, "(%.17g, %.17g): located %d, brute force %d", p.x,
             p.y, (int)got, (int)want);
  FUZZ_CHECK((want < 0) == (loc.place == ASTAR_MESH_OUTSIDE), "place %d", (int)loc.place);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  const uint64_t hash = fuzz_hash(data, size);
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, MESH_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_mesh *m = (astar_mesh *)&fa; /* not NULL: the reader must store NULL on failure */
  astar_mesh_fault f;
  memset(&f, 0x55, sizeof f);
  const astar_status st = astar_mesh_read(&m, text, size, &a, &f);
  const uint64_t calls = fa.calls; /* the read's requests (validate adds its own) */
  check_fault(st, &f, text, size);
  if (st != ASTAR_OK) {
    FUZZ_CHECK(m == NULL, "failed read (%s) left a mesh", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed read");
    return 0;
  }
  FUZZ_CHECK(astar_mesh_validate(m, &f) == ASTAR_OK, "read an invalid mesh: %s", f.message);

  /* Write, read, write: the same bytes, the same vertices. */
  size_t need = 0;
  FUZZ_CHECK(astar_mesh_write(m, NULL, 0, &need) == ASTAR_BUFFER_TOO_SMALL, "empty buffer");
  char *w1 = malloc(need + 1), *w2 = malloc(need + 1);
  FUZZ_CHECK(w1 && w2, "out of memory");
  size_t l1 = 0, l2 = 0;
  FUZZ_CHECK(astar_mesh_write(m, w1, need + 1, &l1) == ASTAR_OK && l1 == need, "write");
  astar_mesh *m2 = NULL;
  FUZZ_CHECK(astar_mesh_read(&m2, w1, l1, NULL, &f) == ASTAR_OK, "re-read: %s\n%s", f.message, w1);
  FUZZ_CHECK(astar_mesh_write(m2, w2, need + 1, &l2) == ASTAR_OK && l2 == l1 &&
                 memcmp(w1, w2, l1) == 0,
             "second write differs");
  for (size_t v = 0; v < astar_mesh_vertex_count(m); v++) {
    const astar_vec2 p = astar_mesh_vertex(m, v), q = astar_mesh_vertex(m2, v);
    FUZZ_CHECK(p.x == q.x && p.y == q.y, "vertex %zu moved", v);
  }
  astar_mesh_free(m2);
  free(w1);
  free(w2);

  /* Location against the brute force. */
  const size_t np = astar_mesh_polygon_count(m), nv = astar_mesh_vertex_count(m);
  if (np <= BRUTE_POLYGONS && nv) {
    astar_vec2 lo, hi;
    astar_mesh_bounds(m, &lo, &hi);
    uint64_t h = hash;
    for (int i = 0; i < 16; i++) {
      h = h * 6364136223846793005u + 1442695040888963407u;
      const astar_vec2 a0 = astar_mesh_vertex(m, (size_t)(h >> 33) % nv);
      const astar_vec2 b0 = astar_mesh_vertex(m, (size_t)(h >> 13) % nv);
      check_locate(m, a0);
      check_locate(m, (astar_vec2){(a0.x + b0.x) / 2, (a0.y + b0.y) / 2});
      const double t = (double)(h >> 40) / 16777216.0;
      check_locate(m, (astar_vec2){lo.x + t * (hi.x - lo.x), hi.y - t * (hi.y - lo.y)});
    }
  }
  astar_mesh_free(m);
  fuzz_alloc_expect_empty(&fa, "freed mesh");

  /* Refuse one of the read's allocations: a clean ASTAR_NO_MEMORY. */
  fuzz_alloc fb;
  fuzz_alloc_init(&fb, MESH_LIMIT);
  fb.fail_at = 1 + hash % (calls ? calls : 1);
  const astar_allocator b = fuzz_allocator(&fb);
  astar_mesh *m3 = (astar_mesh *)&fb;
  const astar_status st3 = astar_mesh_read(&m3, text, size, &b, &f);
  FUZZ_CHECK(st3 == ASTAR_NO_MEMORY && m3 == NULL, "allocation %llu of %llu refused: %s",
             (unsigned long long)fb.fail_at, (unsigned long long)calls, astar_strerror(st3));
  fuzz_alloc_expect_empty(&fb, "read with a refused allocation");
  return 0;
}
