/*
** dist.c -- the lazy distance tables of a solve (mapf/mapf.h): per agent,
** a breadth-first search from its goal, started on the first question
** about that agent and resumed only as far as each question needs
** (lacam3 does the same). Its queue holds the frontier only (it grows
** in blocks and slides down when its head has passed the half) and is
** freed once the search has flooded the goal's component, leaving the
** table alone: 4 bytes a cell per agent asked about.
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>

typedef struct mapf_dist_agent {
  uint32_t *d;     /* cells entries; MAPF_DIST_INF = not reached (yet) */
  uint32_t *queue; /* the BFS's frontier queue[head .. tail); NULL when done */
  uint32_t head, tail, cap;
} mapf_dist_agent;

struct mapf_dist {
  uint32_t n, cells;
  mapf_dist_agent *a;
};

astar_status mapf_dist_new(mapf_ctx *c) {
  astar_status st = ASTAR_OK;
  mapf_dist *d = mapf_alloc(c, sizeof *d, &st);
  if (!d) return st;
  d->n = c->p->n;
  d->cells = c->p->cells;
  d->a = mapf_alloc(c, (size_t)d->n * sizeof *d->a, &st);
  if (!d->a) {
    mapf_free(c, d, sizeof *d);
    return st;
  }
  memset(d->a, 0, (size_t)d->n * sizeof *d->a);
  c->dist = d;
  return ASTAR_OK;
}

void mapf_dist_free(mapf_ctx *c) {
  mapf_dist *d = c->dist;
  if (!d) return;
  const size_t bytes = (size_t)d->cells * sizeof(uint32_t);
  for (uint32_t i = 0; i < d->n; i++) {
    if (d->a[i].d) mapf_free(c, d->a[i].d, bytes);
    if (d->a[i].queue) mapf_free(c, d->a[i].queue, (size_t)d->a[i].cap * sizeof(uint32_t));
  }
  mapf_free(c, d->a, (size_t)d->n * sizeof *d->a);
  mapf_free(c, d, sizeof *d);
  c->dist = NULL;
}

uint32_t mapf_dist_get(mapf_ctx *c, uint32_t agent, uint32_t cell, astar_status *st) {
  mapf_dist *dd = c->dist;
  mapf_dist_agent *a = &dd->a[agent];
  if (a->d && (a->d[cell] != MAPF_DIST_INF || !a->queue)) return a->d[cell];
  const size_t bytes = (size_t)dd->cells * sizeof(uint32_t);
  if (!a->d) {
    const uint32_t cap = dd->cells < 256 ? dd->cells : 256;
    uint32_t *d = mapf_alloc(c, bytes, st);
    uint32_t *q = d ? mapf_alloc(c, (size_t)cap * sizeof(uint32_t), st) : NULL;
    if (!q) {
      if (d) mapf_free(c, d, bytes);
      return MAPF_DIST_INF;
    }
    memset(d, 0xff, bytes); /* MAPF_DIST_INF everywhere */
    const uint32_t g = c->p->goal[agent];
    d[g] = 0;
    q[0] = g;
    a->d = d;
    a->queue = q;
    a->head = 0;
    a->tail = 1;
    a->cap = cap;
  }
  const astar_mapf_problem *p = c->p;
  uint32_t *d = a->d;
  /* a cell's distance is final when it is queued, so stop once `cell` is */
  while (d[cell] == MAPF_DIST_INF && a->head < a->tail) {
    if (a->cap - a->tail < 4) { /* room for the 4 neighbours */
      if (a->head >= a->cap / 2) {
        memmove(a->queue, a->queue + a->head, (size_t)(a->tail - a->head) * sizeof(uint32_t));
        a->tail -= a->head;
        a->head = 0;
      } else {
        const uint32_t cap = a->cap * 2 < dd->cells + 4 ? a->cap * 2 : dd->cells + 4;
        uint32_t *q = mapf_realloc(c, a->queue, (size_t)a->cap * sizeof(uint32_t),
                                   (size_t)cap * sizeof(uint32_t), st);
        if (!q) return MAPF_DIST_INF;
        a->queue = q;
        a->cap = cap;
      }
    }
    uint32_t *q = a->queue;
    const uint32_t u = q[a->head++];
    const uint32_t du = d[u] + 1;
    for (unsigned dir = 0; dir < 4; dir++) {
      const uint32_t v = mapf_neighbour(p, u, dir);
      if (v == UINT32_MAX || d[v] != MAPF_DIST_INF) continue;
      d[v] = du;
      q[a->tail++] = v;
    }
  }
  if (a->head == a->tail) { /* flooded: the queue is no longer needed */
    mapf_free(c, a->queue, (size_t)a->cap * sizeof(uint32_t));
    a->queue = NULL;
  }
  return d[cell];
}
