/*
** core/idheap.h -- an indexed binary min-heap of 32-bit ids keyed by an
** array of doubles the caller owns: the priority queue of the library's
** build-time Dijkstras (landmark tables, waypoint tables, HPA* clusters).
** Equal keys pop the smaller id first, so a settle order -- and everything
** derived from it -- is the same on every platform. The searches' open
** list is core/heap.h (keys computed once, 128-bit entries); this one
** reads key[id] on every comparison, which suits a Dijkstra whose key is
** the distance array itself.
**
** The caller owns h (room for every id that can be in the heap at once)
** and pos (one entry per id). pos[id] is the id's position while it is in
** the heap; the heap never reads pos of an id outside it, so the caller
** may keep its own markers there (unreached, settled) for those.
*/
#ifndef ASTAR_CORE_IDHEAP_H
#define ASTAR_CORE_IDHEAP_H

#include "core/internal.h"

typedef struct astar__idheap {
  uint32_t *h;       /* [capacity] ids; h[0] the least */
  uint32_t *pos;     /* [ids] position in h of each id in the heap */
  const double *key; /* [ids] key of each id; lowered only through astar__idheap_up */
  uint32_t n;        /* ids in the heap */
} astar__idheap;

ASTAR__INLINE bool astar__idheap_less(const astar__idheap *q, uint32_t a, uint32_t b) {
  const double ka = q->key[a], kb = q->key[b];
  return ka < kb || (ka == kb && a < b);
}

/* Move the id at position i up to its place (after its key was lowered). */
ASTAR__INLINE void astar__idheap_up(astar__idheap *q, uint32_t i) {
  const uint32_t id = q->h[i];
  while (i > 0) {
    const uint32_t p = (i - 1) / 2;
    if (!astar__idheap_less(q, id, q->h[p])) break;
    q->h[i] = q->h[p];
    q->pos[q->h[i]] = i;
    i = p;
  }
  q->h[i] = id;
  q->pos[id] = i;
}

/* Add an id that is not in the heap. */
ASTAR__INLINE void astar__idheap_insert(astar__idheap *q, uint32_t id) {
  q->h[q->n] = id;
  astar__idheap_up(q, q->n++);
}

/* Remove and return the least id (n > 0); its pos entry is left for the
** caller to overwrite. */
ASTAR__INLINE uint32_t astar__idheap_pop(astar__idheap *q) {
  const uint32_t top = q->h[0];
  if (--q->n > 0) {
    const uint32_t id = q->h[q->n];
    uint32_t i = 0;
    for (;;) {
      uint32_t c = 2 * i + 1;
      if (c >= q->n) break;
      if (c + 1 < q->n && astar__idheap_less(q, q->h[c + 1], q->h[c])) c++;
      if (!astar__idheap_less(q, q->h[c], id)) break;
      q->h[i] = q->h[c];
      q->pos[q->h[i]] = i;
      i = c;
    }
    q->h[i] = id;
    q->pos[id] = i;
  }
  return top;
}

#endif /* ASTAR_CORE_IDHEAP_H */
