/*
** heap.h -- the open list: a d-ary min-heap of (key, node) entries with an
** index array, so membership is O(1) and decrease-key O(log n) (Patel
** 3.3.11, the "hybrid" of an indexed array and a heap).
**
** An entry is two 64-bit words compared as one 128-bit unsigned number: f
** (the bit pattern of a non-negative double, which orders like the double)
** and t = tie << 32 | node. The caller chooses the 32-bit tie key to realise
** the documented tie order; the node index is unique among open entries, so
** no two entries compare equal and the order never depends on the heap's
** internal layout. Unsigned compares keep sift-down branch-free.
**
** The heap writes each entry's position into nd[node].pos whenever the entry
** moves; a popped node's position is left for the caller to overwrite.
*/
#ifndef ASTAR_HEAP_H
#define ASTAR_HEAP_H

#include "core/internal.h"

#include <string.h>

typedef struct astar__hent {
  uint64_t f; /* bits of the double f = g + h (>= 0): smaller first */
  uint64_t t; /* tie key << 32 | node index: smaller first */
} astar__hent;

#define ASTAR__HNODE(e) ((uint32_t)(e).t)

/* The entry for key f (>= 0), tie key and node. */
ASTAR__INLINE astar__hent astar__entry(double f, uint32_t tie, uint32_t node) {
  astar__hent e;
  memcpy(&e.f, &f, sizeof f);
  e.t = (uint64_t)tie << 32 | node;
  return e;
}

/* The f of an entry. */
ASTAR__INLINE double astar__entry_f(astar__hent e) {
  double f;
  memcpy(&f, &e.f, sizeof f);
  return f;
}

typedef struct astar__heap {
  astar__hent *a; /* [cap] entries; a[0] is the minimum */
  uint32_t len;   /* entries in use */
  uint32_t cap;   /* entries allocated */
} astar__heap;

#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
/* One 128-bit compare: a cmp/sbb pair, no branch. */
ASTAR__INLINE bool astar__hless(const astar__hent *x, const astar__hent *y) {
  const unsigned __int128 a = (unsigned __int128)x->f << 64 | x->t;
  const unsigned __int128 b = (unsigned __int128)y->f << 64 | y->t;
  return a < b;
}
#else
/* Two 64-bit compares, the same order. wasm32 takes this one too: its
** clang has __int128 but emulates the compare (measured ~5-10% slower A*
** in Node than this). */
ASTAR__INLINE bool astar__hless(const astar__hent *x, const astar__hent *y) {
  return (x->f < y->f) | ((x->f == y->f) & (x->t < y->t));
}
#endif

/*
** The operations take the arity K (2 or 4) as an argument; callers pass a
** constant, so each use compiles to a specialised heap. A 4-ary heap has
** half the levels of a binary one and its children share a cache line;
** docs/open-sets.md compares the two.
*/

/* Move entry `e` up from hole i; records positions in nd. */
ASTAR__INLINE void astar__heap_up_k(astar__heap *h, astar__node *nd, uint32_t i, astar__hent e,
                                    const unsigned K) {
  astar__hent *a = h->a;
  while (i > 0) {
    uint32_t p = (i - 1) / K;
    if (!astar__hless(&e, &a[p])) break;
    a[i] = a[p];
    nd[ASTAR__HNODE(a[i])].pos = i;
    i = p;
  }
  a[i] = e;
  nd[ASTAR__HNODE(e)].pos = i;
}

/* Move entry `e` down from hole i. */
ASTAR__INLINE void astar__heap_down_k(astar__heap *h, astar__node *nd, uint32_t i, astar__hent e,
                                      const unsigned K) {
  astar__hent *a = h->a;
  const uint32_t n = h->len;
  for (;;) {
    uint32_t c = K * i + 1;
    if (c >= n) break;
    uint32_t b = c;
    if (K == 2) {
      if (c + 1 < n) b = c + astar__hless(&a[c + 1], &a[c]);
    } else if (c + 3 < n) {
      const uint32_t b1 = c + astar__hless(&a[c + 1], &a[c]);
      const uint32_t b2 = c + 2 + astar__hless(&a[c + 3], &a[c + 2]);
      /* Arithmetic select: the winner of the final is unpredictable. */
      b = b1 ^ ((b1 ^ b2) & (0u - (uint32_t)astar__hless(&a[b2], &a[b1])));
    } else {
      for (uint32_t k = c + 1; k < n; k++) b = astar__hless(&a[k], &a[b]) ? k : b;
    }
    if (!astar__hless(&a[b], &e)) break;
    a[i] = a[b];
    nd[ASTAR__HNODE(a[i])].pos = i;
    i = b;
  }
  a[i] = e;
  nd[ASTAR__HNODE(e)].pos = i;
}

/* Add an entry; the caller guarantees len < cap. */
ASTAR__INLINE void astar__heap_push_k(astar__heap *h, astar__node *nd, astar__hent e,
                                      const unsigned K) {
  astar__heap_up_k(h, nd, h->len++, e, K);
}

/* Remove and return the minimum; the heap must not be empty. */
ASTAR__INLINE astar__hent astar__heap_pop_k(astar__heap *h, astar__node *nd, const unsigned K) {
  astar__hent top = h->a[0];
  astar__hent last = h->a[--h->len];
  if (h->len) astar__heap_down_k(h, nd, 0, last, K);
  return top;
}

/* The 4-ary heap, the default. */
ASTAR__INLINE void astar__heap_push(astar__heap *h, astar__node *nd, astar__hent e) {
  astar__heap_push_k(h, nd, e, 4);
}
ASTAR__INLINE astar__hent astar__heap_pop(astar__heap *h, astar__node *nd) {
  return astar__heap_pop_k(h, nd, 4);
}
/* Lower the key of the entry at position i (new key must not be larger). */
ASTAR__INLINE void astar__heap_decrease(astar__heap *h, astar__node *nd, uint32_t i,
                                        astar__hent e) {
  astar__heap_up_k(h, nd, i, e, 4);
}

#endif /* ASTAR_HEAP_H */
