/*
** failalloc.c -- the failing, counting allocator of the out-of-memory tests.
*/
#include "util/failalloc.h"

#include <stdlib.h>
#include <string.h>

/* The header keeps the block size; its size is a multiple of max_align_t's
** alignment so that the pointer handed out stays suitably aligned. */
typedef union header {
  size_t size;
  max_align_t align;
} header;

void failalloc_init(failalloc *fa) {
  memset(fa, 0, sizeof *fa);
}

void failalloc_fail_in(failalloc *fa, long k) {
  fa->fail_at = fa->requests + k;
}

void *failalloc_fn(void *ud, void *ptr, size_t osize, size_t nsize) {
  failalloc *fa = ud;
  header *h = ptr ? (header *)ptr - 1 : NULL;
  fa->calls++;
  if (nsize == 0) {
    if (h) {
      if (h->size != osize) fa->osize_mismatches++;
      fa->blocks--;
      fa->bytes -= h->size;
      free(h);
    }
    return NULL;
  }
  fa->requests++;
  if (!h && osize != 0) fa->osize_mismatches++; /* documented: osize is 0 */
  if (fa->requests == fa->fail_at || (fa->fail_from > 0 && fa->requests >= fa->fail_from)) {
    fa->failures++;
    return NULL;
  }
  if (nsize > (size_t)-1 - sizeof(header)) return NULL;
  if (!h) {
    header *n = malloc(sizeof(header) + nsize);
    if (!n) return NULL;
    n->size = nsize;
    fa->blocks++;
    fa->bytes += nsize;
    if (fa->bytes > fa->peak_bytes) fa->peak_bytes = fa->bytes;
    return n + 1;
  }
  if (h->size != osize) fa->osize_mismatches++;
  size_t old = h->size;
  header *n = realloc(h, sizeof(header) + nsize);
  if (!n) return NULL;
  n->size = nsize;
  fa->bytes = fa->bytes - old + nsize;
  if (fa->bytes > fa->peak_bytes) fa->peak_bytes = fa->bytes;
  return n + 1;
}

astar_allocator failalloc_allocator(failalloc *fa) {
  astar_allocator a = {failalloc_fn, fa};
  return a;
}
