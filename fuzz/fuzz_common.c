/*
** fuzz/fuzz_common.c -- the helpers every harness of fuzz/ links: the
** checking allocator, the byte reader, the parse-error checks and the
** reference Dijkstra (fuzz_common.h says what each promises).
*/
#include "fuzz_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void fuzz_fail(const char *file, int line, const char *expr, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d: check failed: %s: ", file, line, expr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* ---- the checking allocator ------------------------------------------------ */

/* The header in front of every block: its size, padded to malloc's alignment. */
#define FUZZ_HEADER 16u

static void *fuzz_alloc_fn(void *ud, void *ptr, size_t osize, size_t nsize) {
  fuzz_alloc *fa = ud;
  unsigned char *block = ptr ? (unsigned char *)ptr - FUZZ_HEADER : NULL;
  if (block) {
    size_t held;
    memcpy(&held, block, sizeof held);
    FUZZ_CHECK(held == osize, "block of %zu bytes handed back as %zu", held, osize);
  } else {
    FUZZ_CHECK(osize == 0, "new block with osize %zu", osize);
  }
  if (nsize == 0) {
    if (block) {
      fa->live -= osize;
      free(block);
    }
    return NULL;
  }
  fa->calls++;
  const size_t others = fa->live - (block ? osize : 0);
  if (fa->calls == fa->fail_at || nsize > fa->limit - others || nsize > SIZE_MAX - FUZZ_HEADER) {
    fa->refused = true;
    return NULL;
  }
  unsigned char *grown = realloc(block, FUZZ_HEADER + nsize);
  if (!grown) {
    fa->refused = true;
    return NULL;
  }
  memcpy(grown, &nsize, sizeof nsize);
  fa->live = others + nsize;
  return grown + FUZZ_HEADER;
}

void fuzz_alloc_init(fuzz_alloc *fa, size_t limit) {
  memset(fa, 0, sizeof *fa);
  fa->limit = limit;
}

astar_allocator fuzz_allocator(fuzz_alloc *fa) {
  const astar_allocator a = {fuzz_alloc_fn, fa};
  return a;
}

void fuzz_alloc_expect_empty(const fuzz_alloc *fa, const char *what) {
  FUZZ_CHECK(fa->live == 0, "%s: %zu bytes still held", what, fa->live);
}

/* ---- fuzzed bytes ------------------------------------------------------------ */

uint8_t fuzz_u8(fuzz_bytes *b) {
  if (b->n == 0) return 0;
  const uint8_t v = *b->p;
  b->p++;
  b->n--;
  return v;
}

uint16_t fuzz_u16(fuzz_bytes *b) {
  const uint16_t lo = fuzz_u8(b);
  return (uint16_t)(lo | (uint16_t)fuzz_u8(b) << 8);
}

uint64_t fuzz_hash(const uint8_t *data, size_t size) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * UINT64_C(0x100000001b3);
  return h;
}

/* ---- parser results ------------------------------------------------------------ */

/* Lines of a text as the parsers count them: LF, CRLF and CR each end one. */
static size_t count_lines(const char *text, size_t len) {
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'))) lines++;
  }
  return lines;
}

void fuzz_check_parse_error(astar_status st, const astar_parse_error *err, const char *text,
                            size_t len, const char *what) {
  if (st == ASTAR_OK) return;
  FUZZ_CHECK(st == ASTAR_PARSE_ERROR || st == ASTAR_NO_MEMORY || st == ASTAR_TOO_LARGE,
             "%s: status %s", what, astar_strerror(st));
  FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL, "%s: message not terminated",
             what);
  if (st == ASTAR_PARSE_ERROR) FUZZ_CHECK(err->message[0] != '\0', "%s: empty message", what);
  FUZZ_CHECK(err->line >= 0 && err->column >= 0, "%s: line %d column %d", what, (int)err->line,
             (int)err->column);
  FUZZ_CHECK((size_t)err->line <= count_lines(text, len) + 1, "%s: line %d of a %zu-line text",
             what, (int)err->line, count_lines(text, len));
}

/* ---- grids ------------------------------------------------------------------- */

void fuzz_expect_same_grid(const astar_grid *a, const astar_grid *b, const char *what) {
  const int32_t w = astar_grid_width(a), h = astar_grid_height(a);
  FUZZ_CHECK(w == astar_grid_width(b) && h == astar_grid_height(b), "%s: %dx%d against %dx%d", what,
             (int)w, (int)h, (int)astar_grid_width(b), (int)astar_grid_height(b));
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      FUZZ_CHECK(astar_grid_passable(a, x, y) == astar_grid_passable(b, x, y),
                 "%s: passability of (%d,%d)", what, (int)x, (int)y);
      FUZZ_CHECK(astar_grid_terrain(a, x, y) == astar_grid_terrain(b, x, y),
                 "%s: terrain of (%d,%d): %g against %g", what, (int)x, (int)y,
                 (double)astar_grid_terrain(a, x, y), (double)astar_grid_terrain(b, x, y));
    }
  }
}

/* ---- reference shortest paths ------------------------------------------------- */

typedef struct heap_entry {
  double d;
  astar_node v;
} heap_entry;

double fuzz_space_dijkstra(const astar_space *space, astar_node s, astar_node t) {
  const uint32_t n = space->node_count;
  if (s >= n || t >= n) return -1;
  double *dist = malloc(sizeof *dist * n);
  astar_arc *arcs = malloc(sizeof *arcs * (space->max_degree ? space->max_degree : 1));
  size_t cap = 64, size = 0;
  heap_entry *heap = malloc(sizeof *heap * cap);
  FUZZ_CHECK(dist && arcs && heap, "out of memory for %u nodes", (unsigned)n);
  for (uint32_t i = 0; i < n; i++) dist[i] = INFINITY;
  dist[s] = 0;
  heap[size++] = (heap_entry){0, s};
  while (size > 0) {
    const heap_entry top = heap[0];
    const heap_entry last = heap[--size];
    size_t i = 0;
    for (;;) { /* sift `last` down from the root */
      size_t c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && heap[c + 1].d < heap[c].d) c++;
      if (heap[c].d >= last.d) break;
      heap[i] = heap[c];
      i = c;
    }
    if (size > 0) heap[i] = last;
    if (top.d > dist[top.v]) continue; /* a stale entry */
    if (top.v == t) break;
    const size_t k = space->ops->successors(space->self, top.v, arcs, space->max_degree);
    for (size_t a = 0; a < k; a++) {
      const double nd = top.d + arcs[a].cost;
      if (!(nd < dist[arcs[a].node])) continue;
      dist[arcs[a].node] = nd;
      if (size == cap) {
        cap *= 2;
        heap_entry *grown = realloc(heap, sizeof *heap * cap);
        FUZZ_CHECK(grown != NULL, "out of memory for the heap (%zu)", cap);
        heap = grown;
      }
      size_t j = size++;
      while (j > 0 && heap[(j - 1) / 2].d > nd) { /* sift up */
        heap[j] = heap[(j - 1) / 2];
        j = (j - 1) / 2;
      }
      heap[j] = (heap_entry){nd, arcs[a].node};
    }
  }
  const double d = dist[t];
  free(dist);
  free(arcs);
  free(heap);
  return isinf(d) ? -1 : d;
}

bool fuzz_cost_equal(double a, double b) {
  const double m = fmax(fmax(fabs(a), fabs(b)), 1e-300);
  return fabs(a - b) <= 1e-9 * m;
}

bool fuzz_same_point(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

char fuzz_cell_char(bool passable, astar_point p, astar_point s, astar_point t, float terrain) {
  if (!passable) return '#';
  if (fuzz_same_point(p, s)) return 'S';
  if (fuzz_same_point(p, t)) return 'G';
  if (terrain != 1.0f) return (char)('0' + (int)terrain);
  return '.';
}
