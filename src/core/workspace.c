/*
** core/workspace.c -- the per-thread search workspace: its node records,
** open list and move tables, allocated once and grown on request; the
** searches (grid searches in search/, the engine in engine/) keep their
** state in it and never allocate. It frees every block it holds.
*/
#include "core/workspace.h"

#include "core/loop.h"

#include <string.h>

static void build_move_tables(uint8_t moves[ASTAR__RULE_COUNT][256]) {
  for (int r = 0; r < ASTAR__RULE_COUNT; r++) astar__move_table(r, moves[r]);
}

/* ---- workspace ----------------------------------------------------------------- */

size_t astar__workspace_bytes_per_cell(void) {
  return sizeof(uint16_t) + sizeof(astar__node) + sizeof(astar__hent) + sizeof(uint32_t);
}

static void free_ws_arrays(astar_workspace *ws) {
  astar__free(&ws->alloc, ws->mark, (size_t)ws->capacity * sizeof(uint16_t));
  astar__free(&ws->alloc, ws->node, (size_t)ws->capacity * sizeof(astar__node));
  astar__free(&ws->alloc, ws->open.a, (size_t)ws->capacity * sizeof(astar__hent));
  astar__free(&ws->alloc, ws->aux, (size_t)ws->capacity * sizeof(uint32_t));
  ws->aux = NULL;
  ws->mark = NULL;
  ws->node = NULL;
  ws->open.a = NULL;
  ws->capacity = 0;
  ws->open.cap = 0;
}

/* Allocate arrays for n cells into ws (which has none); all or nothing. */
static astar_status alloc_ws_arrays(astar_workspace *ws, uint32_t n) {
  /* Marks start at 0 and the first search uses generation 4: zeroed memory
  ** means "not reached". */
  uint16_t *mark = astar__calloc(&ws->alloc, n, sizeof(uint16_t));
  astar__node *node = astar__calloc(&ws->alloc, n, sizeof(astar__node));
  astar__hent *heap = astar__calloc(&ws->alloc, n, sizeof(astar__hent));
  uint32_t *aux = astar__calloc(&ws->alloc, n, sizeof(uint32_t));
  if (!mark || !node || !heap || !aux) {
    astar__free(&ws->alloc, aux, (size_t)n * sizeof(uint32_t));
    astar__free(&ws->alloc, mark, (size_t)n * sizeof(uint16_t));
    astar__free(&ws->alloc, node, (size_t)n * sizeof(astar__node));
    astar__free(&ws->alloc, heap, (size_t)n * sizeof(astar__hent));
    return ASTAR_NO_MEMORY;
  }
  ws->mark = mark;
  ws->node = node;
  ws->open.a = heap;
  ws->aux = aux;
  ws->open.cap = n;
  ws->open.len = 0;
  ws->capacity = n;
  ws->gen = 0;
  ws->found = false;
  return ASTAR_OK;
}

/* A workspace with records for n nodes (0: none yet). */
static astar_status new_workspace(astar_workspace **out, uint32_t n, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_workspace *ws = astar__malloc(&a, sizeof *ws);
  if (!ws) return ASTAR_NO_MEMORY;
  memset(ws, 0, sizeof *ws);
  ws->alloc = a;
  build_move_tables(ws->moves);
  if (n && alloc_ws_arrays(ws, n) != ASTAR_OK) {
    astar__free(&a, ws, sizeof *ws);
    return ASTAR_NO_MEMORY;
  }
  *out = ws;
  return ASTAR_OK;
}

astar_status astar_workspace_new(astar_workspace **out, const astar_grid *grid,
                                 const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  return new_workspace(out, grid->ncells, alloc);
}

astar_status astar_workspace_new_empty(astar_workspace **out, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  return new_workspace(out, 0, alloc);
}

/* ---- blocks the upper layers keep in the workspace ------------------------------- */

void astar__free_turns(astar_workspace *ws) {
  astar__turns *t = &ws->turns;
  const size_t n = (size_t)t->capacity * ASTAR__TURN_STATES;
  astar__free(&ws->alloc, t->mark, n * sizeof *t->mark);
  astar__free(&ws->alloc, t->node, n * sizeof *t->node);
  astar__free(&ws->alloc, t->open.a, n * sizeof *t->open.a);
  memset(t, 0, sizeof *t);
}

void astar__free_side(const astar_allocator *a, astar__side *s) {
  astar__free(a, s->mark, (size_t)s->cap * sizeof *s->mark);
  astar__free(a, s->node, (size_t)s->cap * sizeof *s->node);
  astar__free(a, s->open.a, (size_t)s->cap * sizeof *s->open.a);
  memset(s, 0, sizeof *s);
}

void astar__free_arcs(astar_workspace *ws) {
  astar__engine *e = &ws->eng;
  astar__free(&ws->alloc, e->arcs, (size_t)e->arcs_cap * sizeof *e->arcs);
  e->arcs = NULL;
  e->arcs_cap = 0;
}

void astar__free_pairs(astar_workspace *ws) {
  astar__engine *e = &ws->eng;
  for (int k = 0; k < 2; k++) {
    astar__free(&ws->alloc, e->pair_h[k], (size_t)e->pair_cap * sizeof *e->pair_h[k]);
    astar__free(&ws->alloc, e->pair[k], (size_t)e->pair_cap * sizeof *e->pair[k]);
    e->pair_h[k] = NULL;
    e->pair[k] = NULL;
  }
  e->pair_cap = 0;
}

void astar__free_states(astar_workspace *ws) {
  astar__free(&ws->alloc, ws->eng.states, ws->eng.states_bytes);
  ws->eng.states = NULL;
  ws->eng.states_bytes = 0;
}

void astar_workspace_free(astar_workspace *ws) {
  if (!ws) return;
  astar_allocator a = ws->alloc;
  for (int i = 0; i < ASTAR__WS_SLOTS; i++)
    if (ws->ext[i].state) ws->ext[i].release(ws, ws->ext[i].state);
  free_ws_arrays(ws);
  astar__free_turns(ws);
  astar__free_arcs(ws);
  astar__free_side(&ws->alloc, &ws->eng.back);
  astar__free_pairs(ws);
  astar__free_states(ws);
  astar__free(&a, ws, sizeof *ws);
}

astar_status astar_workspace_reserve(astar_workspace *ws, const astar_grid *grid) {
  if (!ws || !grid) return ASTAR_INVALID_ARGUMENT;
  return astar__workspace_grow(ws, grid->ncells);
}

astar_status astar__workspace_grow(astar_workspace *ws, uint32_t n) {
  if (n <= ws->capacity) return ASTAR_OK;
  /* Allocate the new arrays before dropping the old ones, so that a failure
  ** leaves the workspace as it was. */
  astar_workspace tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.alloc = ws->alloc;
  if (alloc_ws_arrays(&tmp, n) != ASTAR_OK) return ASTAR_NO_MEMORY;
  astar__workspace_claim(ws);
  free_ws_arrays(ws);
  ws->mark = tmp.mark;
  ws->node = tmp.node;
  ws->open = tmp.open;
  ws->aux = tmp.aux;
  ws->capacity = tmp.capacity;
  /* The generation goes on (the new marks are 0: "not reached" for every
  ** generation from 4 on): the turn states' marks share it and were not
  ** replaced. */
  return ASTAR_OK;
}

size_t astar_workspace_memory(const astar_workspace *ws) {
  if (!ws) return 0;
  size_t slots = 0;
  for (int i = 0; i < ASTAR__WS_SLOTS; i++)
    if (ws->ext[i].state) slots += ws->ext[i].memory(ws->ext[i].state);
  return sizeof *ws + slots + (size_t)ws->capacity * astar__workspace_bytes_per_cell() +
         (size_t)ws->turns.capacity * ASTAR__TURN_STATES *
             (sizeof(uint16_t) + sizeof(astar__node) + sizeof(astar__hent)) +
         (size_t)ws->eng.arcs_cap * sizeof(astar_arc) +
         (size_t)ws->eng.back.cap * (sizeof(uint16_t) + sizeof(astar__node) + sizeof(astar__hent)) +
         (size_t)ws->eng.pair_cap * 2 * (sizeof(double) + sizeof(uint32_t));
}
