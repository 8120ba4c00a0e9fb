/*
** alloc.c -- the allocator plumbing every object uses, and the default
** allocator (malloc / realloc / free).
*/
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

void astar__alloc_init(astar_allocator *dst, const astar_allocator *a) {
  if (a && a->fn) {
    *dst = *a;
  } else {
    dst->fn = default_alloc;
    dst->ud = NULL;
  }
}

void *astar__malloc(const astar_allocator *a, size_t n) {
  if (n == 0) return NULL;
  return a->fn(a->ud, NULL, 0, n);
}

void *astar__calloc(const astar_allocator *a, size_t n, size_t size) {
  size_t bytes;
  if (!astar__mul(n, size, &bytes) || bytes == 0) return NULL;
  void *p = a->fn(a->ud, NULL, 0, bytes);
  if (p) memset(p, 0, bytes);
  return p;
}

void astar__free(const astar_allocator *a, void *p, size_t size) {
  if (p) a->fn(a->ud, p, size, 0);
}

bool astar__mul(size_t a, size_t b, size_t *out) {
  if (b != 0 && a > SIZE_MAX / b) return false;
  *out = a * b;
  return true;
}
