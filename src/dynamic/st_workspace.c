/*
** st_workspace.c -- the space-time workspace (astar/spacetime.h): the
** states of one cooperative A* or SIPP search, found by key through an
** open-addressing hash, and their open list.
**
** A space-time search cannot index its states by cell (there are many per
** cell), so states are numbered in creation order and a hash maps
** (cell, time-or-interval) to the number. Slots carry the generation of
** the search that used them: starting a search clears nothing.
** Open-list order: smaller f, then larger g (deeper), then smaller t, then
** smaller cell index (row, then column) -- a total order on distinct
** states, so pops do not depend on the heap's layout.
*/
#include "dynamic/spacetime.h"
#include "search/query.h"

#include <math.h>
#include <string.h>

#define MAX_STATES ((size_t)1 << 28)

static void free_ws(astar_spacetime_workspace *ws) {
  const astar_allocator a = ws->alloc;
  astar__free(&a, ws->slot_gen, (size_t)ws->nslots * sizeof *ws->slot_gen);
  astar__free(&a, ws->slot_node, (size_t)ws->nslots * sizeof *ws->slot_node);
  astar__free(&a, ws->node, (size_t)ws->cap * sizeof *ws->node);
  astar__free(&a, ws->heap, (size_t)ws->cap * sizeof *ws->heap);
  astar__free(&a, ws, sizeof *ws);
}

astar_status astar_spacetime_workspace_new(astar_spacetime_workspace **out, size_t max_states,
                                           const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (max_states == 0 || max_states > MAX_STATES) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_spacetime_workspace *ws = astar__calloc(&a, 1, sizeof *ws);
  if (!ws) return ASTAR_NO_MEMORY;
  ws->alloc = a;
  ws->rule = -1;
  ws->cap = (uint32_t)max_states;
  uint32_t bits = 1;
  while (((size_t)1 << bits) < 2 * max_states) bits++;
  ws->nslots = (uint32_t)1 << bits;
  ws->shift = 64 - bits;
  /* Zeroed by hand, not calloc: the pages are touched now, so the first
  ** searches do not pay page faults for the hash's scattered slots. */
  ws->slot_gen = astar__malloc(&a, (size_t)ws->nslots * sizeof *ws->slot_gen);
  if (ws->slot_gen) memset(ws->slot_gen, 0, (size_t)ws->nslots * sizeof *ws->slot_gen);
  ws->slot_node =
      ws->slot_gen ? astar__malloc(&a, (size_t)ws->nslots * sizeof *ws->slot_node) : NULL;
  ws->node = ws->slot_node ? astar__malloc(&a, (size_t)ws->cap * sizeof *ws->node) : NULL;
  ws->heap = ws->node ? astar__malloc(&a, (size_t)ws->cap * sizeof *ws->heap) : NULL;
  if (!ws->heap) {
    free_ws(ws);
    return ASTAR_NO_MEMORY;
  }
  /* Commit the state arrays too: a search then never takes a page fault
  ** (on virtual machines a first touch costs tens of microseconds). */
  memset(ws->slot_node, 0, (size_t)ws->nslots * sizeof *ws->slot_node);
  memset(ws->node, 0, (size_t)ws->cap * sizeof *ws->node);
  memset(ws->heap, 0, (size_t)ws->cap * sizeof *ws->heap);
  *out = ws;
  return ASTAR_OK;
}

void astar_spacetime_workspace_free(astar_spacetime_workspace *ws) {
  if (ws) free_ws(ws);
}

size_t astar_spacetime_workspace_memory(const astar_spacetime_workspace *ws) {
  if (!ws) return 0;
  return sizeof *ws + (size_t)ws->nslots * 2 * sizeof(uint32_t) +
         (size_t)ws->cap * (sizeof(astar__stnode) + sizeof(uint32_t));
}

const uint8_t *astar__st_moves(astar_spacetime_workspace *ws, int rule) {
  if (ws->rule != rule) {
    astar__move_table(rule, ws->moves);
    ws->rule = rule;
  }
  return ws->moves;
}

void astar__st_begin(astar_spacetime_workspace *ws) {
  if (++ws->gen == 0) {
    memset(ws->slot_gen, 0, (size_t)ws->nslots * sizeof *ws->slot_gen);
    ws->gen = 1;
  }
  ws->nnodes = 0;
  ws->nheap = 0;
}

uint32_t astar__st_state(astar_spacetime_workspace *ws, uint32_t cell, uint32_t t, bool *created) {
  const uint32_t mask = ws->nslots - 1;
  const uint64_t k = (uint64_t)cell << 32 | (uint64_t)t;
  for (uint32_t i = (uint32_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> ws->shift);;
       i = (i + 1) & mask) {
    if (ws->slot_gen[i] != ws->gen) {
      if (ws->nnodes == ws->cap) return ASTAR__NO_PARENT;
      const uint32_t id = ws->nnodes++;
      ws->slot_gen[i] = ws->gen;
      ws->slot_node[i] = id;
      astar__stnode *n = &ws->node[id];
      n->g = INFINITY;
      n->f = INFINITY;
      n->cell = cell;
      n->t = t;
      n->parent = ASTAR__NO_PARENT;
      n->pos = ASTAR__ST_FRESH;
      *created = true;
      return id;
    }
    const astar__stnode *n = &ws->node[ws->slot_node[i]];
    if (n->cell == cell && n->t == t) {
      *created = false;
      return ws->slot_node[i];
    }
  }
}

static inline bool st_less(const astar__stnode *nodes, uint32_t a, uint32_t b) {
  const astar__stnode *x = &nodes[a], *y = &nodes[b];
  if (x->f != y->f) return x->f < y->f;
  if (x->g != y->g) return x->g > y->g;
  if (x->t != y->t) return x->t < y->t;
  return x->cell < y->cell;
}

static void sift_up(astar_spacetime_workspace *ws, uint32_t i) {
  uint32_t *const h = ws->heap;
  astar__stnode *const nodes = ws->node;
  const uint32_t id = h[i];
  while (i > 0) {
    const uint32_t p = (i - 1) / 2;
    if (!st_less(nodes, id, h[p])) break;
    h[i] = h[p];
    nodes[h[i]].pos = i;
    i = p;
  }
  h[i] = id;
  nodes[id].pos = i;
}

astar_event_type astar__st_push_or_lower(astar_spacetime_workspace *ws, uint32_t id) {
  astar__stnode *n = &ws->node[id];
  if (n->pos == ASTAR__ST_FRESH) {
    ws->heap[ws->nheap] = id;
    sift_up(ws, ws->nheap++);
    return ASTAR_EVENT_PUSH;
  }
  sift_up(ws, n->pos);
  return ASTAR_EVENT_IMPROVE;
}

uint32_t astar__st_pop(astar_spacetime_workspace *ws) {
  uint32_t *const h = ws->heap;
  astar__stnode *const nodes = ws->node;
  const uint32_t top = h[0];
  if (--ws->nheap > 0) {
    const uint32_t id = h[ws->nheap];
    const uint32_t n = ws->nheap;
    uint32_t i = 0;
    for (;;) {
      uint32_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && st_less(nodes, h[c + 1], h[c])) c++;
      if (!st_less(nodes, h[c], id)) break;
      h[i] = h[c];
      nodes[h[i]].pos = i;
      i = c;
    }
    h[i] = id;
    nodes[id].pos = i;
  }
  nodes[top].pos = ASTAR__ST_CLOSED;
  return top;
}
