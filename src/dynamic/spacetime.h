/*
** dynamic/spacetime.h -- the layouts shared by the space-time searches
** (astar/spacetime.h): the reservation table's hash (reservations.c, read
** by coop.c for every generated state) and the space-time workspace
** (coop.c, sipp.c). Nothing here is public API.
*/
#ifndef ASTAR_DYNAMIC_SPACETIME_H
#define ASTAR_DYNAMIC_SPACETIME_H

#include "astar/spacetime.h"
#include "core/internal.h"

/* ---- the reservation table ---------------------------------------------------- */

/* Kinds of reservation: a (cell, time); a move leaving `cell` at time t in
** direction kind - ASTAR__RSV_MOVE (N, E, S, W, NE, SE, SW, NW); a goal held
** for ever from time t (one per cell, keyed without the time). */
enum { ASTAR__RSV_VERTEX = 0, ASTAR__RSV_MOVE = 1, ASTAR__RSV_HOLD = 9 };

/* One slot of the open-addressing hash. Live iff gen == the table's gen. */
typedef struct astar__rsv {
  uint32_t gen;   /* generation that wrote it; other values: empty */
  uint32_t cell;  /* packed cell: y << 15 | x (both < ASTAR_GRID_MAX_SIDE) */
  uint32_t t;     /* time step (HOLD: the first time held) */
  uint32_t agent; /* holder, never ASTAR_AGENT_NONE */
  uint32_t kind;  /* ASTAR__RSV_* */
} astar__rsv;

struct astar_reservations {
  astar_allocator alloc; /* source of the two arrays and of the table */
  size_t capacity;       /* reservations it may hold (<= half the slots) */
  size_t count;          /* live reservations */
  uint32_t nslots;       /* power of two, >= 2 * capacity */
  uint32_t shift;        /* 64 - log2(nslots): the hash's top bits pick the slot */
  uint32_t gen;          /* current generation, >= 1 */
  uint32_t max_t;        /* >= every live (cell, time) reservation's time (0 if none) */
  astar__rsv *slot;      /* [nslots] the hash */
  astar__rsv *spare;     /* [nslots] where astar_reservations_release rebuilds it */
};

ASTAR__INLINE uint32_t astar__rsv_pack(int32_t x, int32_t y) {
  return (uint32_t)y << 15 | (uint32_t)x;
}

ASTAR__INLINE uint32_t astar__rsv_hash(const astar_reservations *r, uint32_t cell, uint32_t kind,
                                       uint32_t t) {
  const uint64_t k = ((uint64_t)cell << 32 | (uint64_t)t) ^ ((uint64_t)kind << 28);
  return (uint32_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> r->shift);
}

/* The holder of (cell, kind, t), or ASTAR_AGENT_NONE; HOLD ignores t and
** reports its first time in *from. */
ASTAR__INLINE uint32_t astar__rsv_find(const astar_reservations *r, uint32_t cell, uint32_t kind,
                                       uint32_t t, uint32_t *from) {
  const uint32_t mask = r->nslots - 1;
  const uint32_t key_t = kind == ASTAR__RSV_HOLD ? 0 : t;
  for (uint32_t i = astar__rsv_hash(r, cell, kind, key_t);; i = (i + 1) & mask) {
    const astar__rsv *s = &r->slot[i];
    if (s->gen != r->gen) return ASTAR_AGENT_NONE;
    if (s->cell == cell && s->kind == kind && (kind == ASTAR__RSV_HOLD || s->t == t)) {
      if (from) *from = s->t;
      return s->agent;
    }
  }
}

/* The agent other than `me` occupying packed `cell` at time t, or
** ASTAR_AGENT_NONE. */
ASTAR__INLINE uint32_t astar__rsv_vertex_other(const astar_reservations *r, uint32_t cell,
                                               uint32_t t, uint32_t me) {
  uint32_t a = astar__rsv_find(r, cell, ASTAR__RSV_VERTEX, t, NULL);
  if (a != ASTAR_AGENT_NONE && a != me) return a;
  uint32_t from = 0;
  a = astar__rsv_find(r, cell, ASTAR__RSV_HOLD, 0, &from);
  if (a != ASTAR_AGENT_NONE && a != me && from <= t) return a;
  return ASTAR_AGENT_NONE;
}

/* ---- the space-time workspace -------------------------------------------------- */

/* A search state: (cell, time) for cooperative A*, (cell, safe interval)
** for SIPP -- `t` holds the time or the interval's number. */
typedef struct astar__stnode {
  double g;        /* cost from the start (SIPP: arrival time) */
  double f;        /* g + h: the open-list key */
  uint32_t cell;   /* padded cell index of the grid */
  uint32_t t;      /* time step, or safe-interval number */
  uint32_t parent; /* state it was reached from; ASTAR__NO_PARENT for the start */
  uint32_t pos;    /* heap position while open, else ASTAR__ST_FRESH / _CLOSED */
} astar__stnode;
#define ASTAR__ST_CLOSED UINT32_MAX      /* pos of an expanded state */
#define ASTAR__ST_FRESH (UINT32_MAX - 1) /* pos of a state never pushed */

struct astar_spacetime_workspace {
  astar_allocator alloc; /* source of the arrays below */
  uint32_t cap;          /* states a search may create */
  uint32_t nslots;       /* hash slots: power of two >= 2 * cap */
  uint32_t shift;        /* 64 - log2(nslots) */
  uint32_t gen;          /* generation of the current search (slot_gen == gen: used) */
  uint32_t *slot_gen;    /* [nslots] */
  uint32_t *slot_node;   /* [nslots] state number of a used slot */
  astar__stnode *node;   /* [cap] states of the current search, in creation order */
  uint32_t *heap;        /* [cap] open list: binary heap of state numbers */
  uint32_t nnodes;       /* states created by the current search */
  uint32_t nheap;        /* open states */
  int rule;              /* movement rule `moves` was built for; -1: none yet */
  uint8_t moves[256];    /* legal-move mask per neighbour byte under `rule` */
};

/* The legal-move table of `rule`, built on the first search that needs it. */
const uint8_t *astar__st_moves(astar_spacetime_workspace *ws, int rule);

/* Start a search: forget every state. O(1) except once in 2^32 searches. */
void astar__st_begin(astar_spacetime_workspace *ws);
/* The state (cell, t): its number, creating it (g = INFINITY, not open)
** when absent (*created set). ASTAR__NO_PARENT when the room is full. */
uint32_t astar__st_state(astar_spacetime_workspace *ws, uint32_t cell, uint32_t t, bool *created);
/* Open list: push a state not in it (ASTAR_EVENT_PUSH), or move one whose
** f fell (ASTAR_EVENT_IMPROVE); pop the least (f, then larger g, then
** smaller t, then smaller cell). */
astar_event_type astar__st_push_or_lower(astar_spacetime_workspace *ws, uint32_t id);
uint32_t astar__st_pop(astar_spacetime_workspace *ws);

#endif /* ASTAR_DYNAMIC_SPACETIME_H */
