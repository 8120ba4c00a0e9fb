/*
** core/workspace.h -- the per-thread search workspace (astar_workspace of
** astar/search.h): node records and open list shared by every search, the
** state of the grid searches and of the engine over spaces (their types in
** core/state.h, their code in search/ and engine/). One workspace serves
** all of them, one search at a time; each search opens a new generation of
** the records, under the reuse rule of core/loop.h. The workspace owns
** every block of memory in it and frees it; the layers that use a block
** lay it out and grow it.
*/
#ifndef ASTAR_CORE_WORKSPACE_H
#define ASTAR_CORE_WORKSPACE_H

#include "core/state.h"

/* State an upper layer keeps in the workspace (the finder's per-method
** query state, src/finder/): made by that layer on first use from the
** workspace's allocator, released with the workspace through the layer's
** own function. core/ never looks inside; slot numbers are the layers'. */
#define ASTAR__WS_SLOTS 2
typedef struct astar__ws_slot {
  void *state;                                       /* NULL: nothing yet */
  void (*release)(astar_workspace *ws, void *state); /* frees state and what it holds */
  size_t (*memory)(const void *state);               /* bytes it holds */
} astar__ws_slot;

struct astar_workspace {
  astar_allocator alloc;                 /* source of the arrays below */
  uint32_t capacity;                     /* padded cells the arrays hold */
  uint16_t *mark;                        /* [capacity] gen + ASTAR__OPEN/CLOSED/COLD*, else
                                            unreached (gen is a multiple of 4) */
  astar__node *node;                     /* [capacity] g, heap position, parent */
  astar__heap open;                      /* open list, cap == capacity (a node is in it once) */
  uint16_t gen;                          /* generation of the current search, a multiple of 4 */
  uint32_t *aux;                         /* [capacity] push number of nodes in cold buckets */
  astar__buckets buckets;                /* cold part of ASTAR_OPEN_BUCKET */
  astar__turns turns;                    /* turn-penalty states (astar_workspace_reserve_turns) */
  uint32_t seq;                          /* pushes so far in this search (tie key) */
  uint8_t moves[ASTAR__RULE_COUNT][256]; /* legal-move masks per rule */
  /* The sliced search (astar_search_*): the A* in progress or last run. */
  astar__query q;          /* its resolved options and running statistics */
  astar__features fx;      /* the general loop's features (q.fx points here) */
  int phase;               /* ASTAR__IDLE, ASTAR__RUNNING or ASTAR__ENDED */
  astar_status outcome;    /* when ENDED: ASTAR_OK, NO_PATH, LIMIT_REACHED, STOPPED, STALE */
  bool slot_full;          /* the slot (see astar.c) holds an entry */
  astar__hent slot;        /* the open entry kept outside the heap */
  uint64_t version;        /* astar_grid_version of q.grid at begin */
  uint64_t kversion;       /* with options.knowledge: astar__knowledge_seen of it at begin */
  uint32_t reached;        /* padded index of the goal reached, when outcome is OK */
  astar_open_set open_set; /* open list of the search */
  bool retargeted;         /* options.retarget replaced the goal of this search */
  uint32_t best;           /* partial paths: best node expanded so far */
  double best_d, best_g;   /* its distance to the goal and its g */
  /* The last search, for astar_workspace_path. */
  bool found;                    /* it produced a path */
  uint32_t last_goal;            /* node of its goal (a cell, or a turn state: see last_per) */
  const astar__node *last_nodes; /* the node records its parent links live in */
  uint32_t last_per;             /* nodes per cell: 1, or 9 for turn states (cell * 9 + arrival) */
  int32_t last_stride;           /* padded row length of its grid */
  size_t last_len;               /* cells in its path (parent links may skip cells: see
                                    astar__path_length) */
  astar__engine eng;             /* searches over spaces (src/engine/) */
  astar__ws_slot ext[ASTAR__WS_SLOTS]; /* upper layers' state (see astar__ws_slot) */
};

/* Grow the workspace's node arrays to n records (all or nothing). Growing
** replaces the records: every search on ws ends and its path is forgotten. */
astar_status astar__workspace_grow(astar_workspace *ws, uint32_t n);

/* Free one block of what the upper layers keep in the workspace, leaving
** it empty (a reserve replacing it, or astar_workspace_free): the turn
** states (search/turns.c), a set of records (the engine's backward side),
** the engine's arc buffer, the front-to-front partners, the implicit state
** table (ws->eng.states, one block of ws->eng.states_bytes). */
void astar__free_turns(astar_workspace *ws);
void astar__free_side(const astar_allocator *a, astar__side *s);
void astar__free_arcs(astar_workspace *ws);
void astar__free_pairs(astar_workspace *ws);
void astar__free_states(astar_workspace *ws);

#endif /* ASTAR_CORE_WORKSPACE_H */
