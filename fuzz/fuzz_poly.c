/*
** fuzz/fuzz_poly.c -- libFuzzer harness for the polygon-map reader and
** writer (astar_polymap_read, astar_polymap_write, astar/navmesh_build.h).
** The input is the text.
**
** Checks, besides what the sanitizers see: a failure leaves *out NULL, no
** memory held and a fault whose message is a NUL-terminated sentence (not
** empty) and whose line lies within the text; a map read has polygons of
** at least 3 finite points; it writes to a text that reads back to the
** same points and writes the same bytes again; astar_polymap_new accepts
** the same polygons; and refusing one of the read's allocations fails it
** cleanly (ASTAR_NO_MEMORY, nothing held).
*/
#include "fuzz_common.h"

#include <astar/navmesh_build.h>
#include <math.h>
#include <string.h>

#define POLY_LIMIT ((size_t)64 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  const uint64_t hash = fuzz_hash(data, size);
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, POLY_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_polymap *p = (astar_polymap *)&fa;
  astar_mesh_fault f;
  memset(&f, 0x55, sizeof f);
  const astar_status st = astar_polymap_read(&p, text, size, &a, &f);
  FUZZ_CHECK(memchr(f.message, 0, sizeof f.message) != NULL, "message not terminated");
  if (st != ASTAR_OK) {
    FUZZ_CHECK(p == NULL, "failed read (%s) left a map", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed read");
    if (st == ASTAR_NO_MEMORY) return 0;
    FUZZ_CHECK(st == ASTAR_PARSE_ERROR || st == ASTAR_TOO_LARGE, "status %s", astar_strerror(st));
    FUZZ_CHECK(f.kind != ASTAR_MESH_FAULT_NONE && f.message[0] != 0, "no fault");
    uint32_t lines = 1;
    for (size_t i = 0; i < size; i++) lines += text[i] == '\n';
    FUZZ_CHECK(f.line >= 1 && f.line <= lines && f.column >= 1, "line %u column %u of %u lines",
               (unsigned)f.line, (unsigned)f.column, (unsigned)lines);
    return 0;
  }
  FUZZ_CHECK(f.kind == ASTAR_MESH_FAULT_NONE && f.message[0] == 0, "OK with a fault");
  const size_t n = astar_polymap_count(p);
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    const astar_vec2 *pts;
    const uint32_t m = astar_polymap_polygon(p, i, &pts);
    FUZZ_CHECK(m >= 3, "polygon %zu: %u points", i, (unsigned)m);
    for (uint32_t k = 0; k < m; k++)
      FUZZ_CHECK(isfinite(pts[k].x) && isfinite(pts[k].y), "polygon %zu point %u", i, (unsigned)k);
    total += m;
  }
  /* Write, read, write. */
  size_t need = 0;
  FUZZ_CHECK(astar_polymap_write(p, NULL, 0, &need) == ASTAR_BUFFER_TOO_SMALL, "empty buffer");
  char *w1 = malloc(need + 1), *w2 = malloc(need + 1);
  FUZZ_CHECK(w1 && w2, "out of memory");
  size_t l1 = 0, l2 = 0;
  FUZZ_CHECK(astar_polymap_write(p, w1, need + 1, &l1) == ASTAR_OK && l1 == need, "write");
  astar_polymap *q = NULL;
  FUZZ_CHECK(astar_polymap_read(&q, w1, l1, NULL, &f) == ASTAR_OK, "re-read: %s", f.message);
  FUZZ_CHECK(astar_polymap_write(q, w2, need + 1, &l2) == ASTAR_OK && l2 == l1 &&
                 memcmp(w1, w2, l1) == 0,
             "second write differs");
  astar_vec2 *all = malloc(sizeof *all * (total ? total : 1));
  uint32_t *sizes = malloc(sizeof *sizes * (n ? n : 1));
  FUZZ_CHECK(all && sizes, "out of memory");
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const astar_vec2 *pa, *pb;
    const uint32_t m = astar_polymap_polygon(p, i, &pa);
    FUZZ_CHECK(astar_polymap_polygon(q, i, &pb) == m, "polygon %zu size", i);
    for (uint32_t k = 0; k < m; k++)
      FUZZ_CHECK(pa[k].x == pb[k].x && pa[k].y == pb[k].y, "polygon %zu point %u moved", i,
                 (unsigned)k);
    memcpy(all + at, pa, m * sizeof *pa);
    sizes[i] = m;
    at += m;
  }
  astar_polymap *r = NULL;
  FUZZ_CHECK(astar_polymap_new(&r, all, sizes, n, NULL, &f) == ASTAR_OK, "new: %s", f.message);
  astar_polymap_free(r);
  astar_polymap_free(q);
  free(all);
  free(sizes);
  free(w1);
  free(w2);
  const uint64_t calls = fa.calls;
  astar_polymap_free(p);
  fuzz_alloc_expect_empty(&fa, "freed map");

  fuzz_alloc fb;
  fuzz_alloc_init(&fb, POLY_LIMIT);
  fb.fail_at = 1 + hash % (calls ? calls : 1);
  const astar_allocator b = fuzz_allocator(&fb);
  astar_polymap *p3 = (astar_polymap *)&fb;
  const astar_status st3 = astar_polymap_read(&p3, text, size, &b, &f);
  FUZZ_CHECK(st3 == ASTAR_NO_MEMORY && p3 == NULL, "allocation %llu of %llu refused: %s",
             (unsigned long long)fb.fail_at, (unsigned long long)calls, astar_strerror(st3));
  fuzz_alloc_expect_empty(&fb, "read with a refused allocation");
  return 0;
}
