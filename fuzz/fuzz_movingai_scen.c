/*
** fuzz/fuzz_movingai_scen.c -- libFuzzer harness for the Moving AI
** scenario parser (astar_movingai_parse_scen, astar/format.h). The input is
** the text. Checks, besides what the sanitizers see: a failure leaves *out
** NULL, a well-formed error record and no memory held; a parsed scenario
** has version 1, queries whose map names are NUL-terminated strings, lines
** within the text in increasing order, cells inside the map size and a
** finite optimal length; and
** the parse fails cleanly (ASTAR_NO_MEMORY, nothing held) when any one of
** its allocations is refused.
*/
#include "fuzz_common.h"

#include <math.h>
#include <string.h>

/* Most bytes one parse may hold (a scenario is about its text's size). */
#define SCEN_LIMIT ((size_t)64 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, SCEN_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_scen *scen = (astar_scen *)&fa; /* not NULL: the parser must store NULL on failure */
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  const astar_status st = astar_movingai_parse_scen(&scen, text, size, &a, &err);
  fuzz_check_parse_error(st, &err, text, size, "movingai scen");
  if (st != ASTAR_OK) {
    FUZZ_CHECK(scen == NULL, "failed parse (%s) left a scenario", astar_strerror(st));
    fuzz_alloc_expect_empty(&fa, "failed parse");
    return 0;
  }
  FUZZ_CHECK(astar_scen_version(scen) == 1.0, "version %g", astar_scen_version(scen));
  const size_t n = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  FUZZ_CHECK(n == 0 || q != NULL, "%zu queries at NULL", n);
  int32_t last_line = 1; /* the version line */
  for (size_t i = 0; i < n; i++) {
    FUZZ_CHECK(q[i].map != NULL && strlen(q[i].map) <= size, "query %zu: map name", i);
    FUZZ_CHECK(q[i].line > last_line && (size_t)q[i].line <= size + 1,
               "query %zu: line %d after line %d", i, (int)q[i].line, (int)last_line);
    last_line = q[i].line;
    /* The parser accepts a map size of at least 1, cells inside it and a
    ** finite, non-negative optimal length. */
    const astar_scen_query *e = &q[i];
    FUZZ_CHECK(
        e->map_width >= 1 && e->map_height >= 1 && e->start.x >= 0 && e->start.y >= 0 &&
            e->goal.x >= 0 && e->goal.y >= 0 && e->start.x < e->map_width &&
            e->goal.x < e->map_width && e->start.y < e->map_height && e->goal.y < e->map_height,
        "query %zu (line %d): (%d,%d) -> (%d,%d) on %d x %d", i, (int)e->line, (int)e->start.x,
        (int)e->start.y, (int)e->goal.x, (int)e->goal.y, (int)e->map_width, (int)e->map_height);
    FUZZ_CHECK(isfinite(e->optimal_length) && e->optimal_length >= 0,
               "query %zu: optimal length %g", i, e->optimal_length);
  }
  astar_scen_free(scen);
  fuzz_alloc_expect_empty(&fa, "freed scenario");

  /* Refuse one of the parse's allocations: a clean ASTAR_NO_MEMORY. */
  if (fa.calls > 0) {
    fuzz_alloc fb;
    fuzz_alloc_init(&fb, SCEN_LIMIT);
    fb.fail_at = 1 + fuzz_hash(data, size) % fa.calls;
    const astar_allocator b = fuzz_allocator(&fb);
    astar_scen *s2 = (astar_scen *)&fb;
    const astar_status st2 = astar_movingai_parse_scen(&s2, text, size, &b, &err);
    FUZZ_CHECK(st2 == ASTAR_NO_MEMORY && s2 == NULL, "allocation %llu of %llu refused: %s",
               (unsigned long long)fb.fail_at, (unsigned long long)fa.calls, astar_strerror(st2));
    fuzz_alloc_expect_empty(&fb, "parse with a refused allocation");
  }
  return 0;
}
