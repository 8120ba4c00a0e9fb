/*
** failalloc.h -- a counting allocator (astar_alloc_fn, lua_Alloc style) that
** can be told to fail its Nth request, for out-of-memory tests. It also
** keeps a hidden size header on every block to catch a wrong `osize` from
** the library, and counts outstanding blocks and bytes to catch leaks.
*/
#ifndef ASTAR_TEST_FAILALLOC_H
#define ASTAR_TEST_FAILALLOC_H

#include <astar/astar.h>

typedef struct failalloc {
  long fail_at;          /* fail the request with this 1-based number; 0 = never */
  long fail_from;        /* when > 0, also fail every request from this number on */
  long requests;         /* allocation/resize requests so far (frees not counted) */
  long calls;            /* every call, frees included */
  long failures;         /* requests refused */
  long blocks;           /* blocks currently allocated */
  size_t bytes;          /* bytes currently allocated (as requested) */
  size_t peak_bytes;     /* high-water mark of bytes */
  long osize_mismatches; /* frees/resizes whose osize differed from the block's size */
} failalloc;

/* Reset all counters; no failure armed. */
void failalloc_init(failalloc *fa);

/* Arm a failure of the request numbered requests + k (k >= 1), i.e. the
** k-th request from now. */
void failalloc_fail_in(failalloc *fa, long k);

/* The allocator function; pass a failalloc* as ud. */
void *failalloc_fn(void *ud, void *ptr, size_t osize, size_t nsize);

/* An astar_allocator bound to `fa`. */
astar_allocator failalloc_allocator(failalloc *fa);

#endif
