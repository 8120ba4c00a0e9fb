/*
** core/state.h -- the state every search keeps in the workspace, as types:
** the grid searches' resolved query and features, their cold buckets and
** turn states (whose code is in search/), and the engine's state over a
** space (whose code is in engine/). The workspace (core/workspace.h)
** holds one of each; the layers above give them their behaviour. Types
** only: nothing here calls into search/ or engine/, so core/ depends on
** nothing above it.
*/
#ifndef ASTAR_CORE_STATE_H
#define ASTAR_CORE_STATE_H

#include "core/heap.h"

#include "astar/engine.h"

/* ---- node records: states and phases ------------------------------------------------ */

/* Node states, added to the generation in a mark (core/internal.h: a mark
** is gen + state for a node reached in the current search, anything else
** "not reached"; gen is a multiple of 4). */
#define ASTAR__OPEN 0u      /* in the open list (heap or slot) */
#define ASTAR__CLOSED 1u    /* expanded */
#define ASTAR__COLD_RING 2u /* open, in a cold bucket of the ring (ASTAR_OPEN_BUCKET) */
#define ASTAR__COLD_OVER 3u /* open, in the overflow list (ASTAR_OPEN_BUCKET) */

/* Phases of a sliced search (grid or engine). */
enum { ASTAR__IDLE = 0, ASTAR__RUNNING, ASTAR__ENDED };

/* ---- the grid searches (search/) ----------------------------------------------------- */

/*
** The features of the general loop (astar.c's general instances, turns.c,
** the partial-path and observer code): several goals or a region, entry
** cost factors, fog of war, deadlines, partial paths, turn penalties,
** events. They live apart from the query, which the hot loops read, so
** that a plain search carries none of them.
*/
typedef struct astar__features {
  const astar_point *goals;         /* several goals (NULL: the one goal above) */
  size_t ngoals;                    /* their number */
  int base_hk;                      /* heuristic kind towards each goal (with goals) */
  astar_goal_fn is_goal;            /* goal region test (NULL: none) */
  void *goal_ctx;                   /* its context */
  double alpha;                     /* terrain_scale */
  const astar_layer *const *layers; /* influence layers */
  const float *layer_w;             /* their weights */
  size_t nlayers;                   /* their number */
  const astar_knowledge *knowledge; /* fog of war (NULL: none) */
  int unknown;                      /* astar_unknown */
  double unknown_cost;              /* factor for unknown cells (ASTAR_UNKNOWN_COST) */
  astar_stop_fn stop_fn;            /* deadline hook */
  void *stop_ctx;                   /* its context */
  uint32_t stop_interval;           /* expansions between polls */
  bool partial;                     /* keep the best node for a partial path */
  double turn_penalty;              /* > 0: search (cell, arrival) states (turns.c) */
  astar_observer_fn observer;       /* event hook (NULL: none) */
  void *observer_ctx;               /* its context */
  astar_options opt;                /* the options as given: the general loop reads the
                                       table's newer options (search/options.h) here */
} astar__features;

/* Everything a grid search needs, resolved once from the options
** (search/query.c). */
typedef struct astar__query {
  const astar_grid *grid;
  uint32_t start, goal;    /* padded indices */
  int32_t sx, sy, gx, gy;  /* padded coordinates of start and goal */
  int hkind;               /* ASTAR__HK_* (search/query.h) */
  double ha, hb;           /* heuristic coefficients (see astar__h) */
  astar_heuristic_fn hfn;  /* ASTAR__HK_CALLBACK */
  void *hctx;              /* its context */
  int tie;                 /* astar_tie */
  bool reopen;             /* may closed nodes be reopened? */
  const uint8_t *moves;    /* legal-move table for the rule */
  double cost[8];          /* move cost per direction, on the quantum (query.c) */
  double straight;         /* options.straight_cost as given (reported costs) */
  double diagonal;         /* options.diagonal_cost as given */
  int32_t off[8];          /* index offset per direction */
  uint64_t max_expansions; /* 0: none */
  astar_stats stats;       /* running totals */
  bool general;            /* run the general loop (a feature of fx is in use) */
  astar__features *fx;     /* the general loop's features (in the workspace, or the
                              caller's scratch for a search judged without running) */
} astar__query;

/*
** The cold part of the bucket open list (ASTAR_OPEN_BUCKET, a HOT queue:
** Cherkassky, Goldberg & Silverstein 1999; Patel 3.3.9). Bucket k holds the
** open nodes with floor(f / width) == k. The lowest bucket ("hot", number
** base) lives in the heap; every higher one is a singly linked list through
** node.pos, in a ring of ASTAR__RING lists, and nodes beyond the ring wait
** in an overflow list. Only the hot bucket is ordered, which is all popping
** needs; a cold node's key is recomputed from g when its bucket turns hot.
*/
#define ASTAR__RING 1024u
#define ASTAR__NONE UINT32_MAX
typedef struct astar__buckets {
  uint32_t head[ASTAR__RING]; /* first node of each ring list, or ASTAR__NONE */
  uint32_t overflow;          /* first node of the overflow list, or ASTAR__NONE */
  uint32_t cold;              /* nodes in the ring lists and the overflow list */
  uint32_t in_ring;           /* of which in the ring */
  uint64_t base;              /* bucket number of the hot bucket */
  double inv_width;           /* 1 / bucket width */
} astar__buckets;

/* The state space of searches with a turn penalty: state = cell * 9 +
** arrival direction (0..7, or 8 for the start), each with its own record
** (search/turns.c). Their marks share the workspace's generation. */
#define ASTAR__TURN_STATES 9u
typedef struct astar__turns {
  uint32_t capacity; /* cells covered (0: not reserved); states = 9 x capacity */
  uint16_t *mark;    /* [9 * capacity] like astar_workspace.mark */
  astar__node *node; /* [9 * capacity] like astar_workspace.node */
  astar__heap open;  /* open list of states, cap 9 * capacity */
} astar__turns;

/* ---- the engine over spaces (engine/) ------------------------------------------------ */

/* One direction of a search: its node records and open list. */
typedef struct astar__side {
  uint16_t *mark;    /* [cap] generation + state */
  astar__node *node; /* [cap] g, heap position, parent */
  astar__heap open;  /* open list, cap entries */
  uint16_t gen;      /* current generation (a multiple of 4) */
  uint32_t cap;      /* records allocated */
  uint32_t seq;      /* pushes in this search (tie key of ASTAR_TIE_NEWEST) */
  bool slot_unused;  /* (reserved) */
} astar__side;

struct astar__states; /* the state table of implicit spaces (spaces/implicit.c) */

/* Goal test on a node, for spaces whose goal is a predicate (implicit). */
typedef bool (*astar__goal_fn)(const void *self, astar_node node);

/* The engine's part of a workspace (engine/engine.h). */
typedef struct astar__engine {
  /* Reserved memory. */
  astar_arc *arcs;              /* [arcs_cap] successor / predecessor buffer */
  uint32_t arcs_cap;            /* its entries */
  astar__side back;             /* backward half of bidirectional searches (cap 0: none) */
  struct astar__states *states; /* implicit spaces' state table (one block of states_bytes
                                   bytes, laid out by spaces/implicit.c), or NULL */
  size_t states_bytes;          /* its size */
  /* The search in progress or last run. */
  astar_space space;        /* what is searched */
  astar_engine_options opt; /* its options (validated) */
  astar_node start, goal;   /* endpoints (goal NONE with several goals) */
  const astar_node *goals;  /* several goals, or NULL */
  size_t ngoals;            /* their number */
  astar__goal_fn goal_fn;   /* goal test replacing goal and goals, or NULL */
  double weight;            /* multiplier of h (0: Dijkstra) */
  bool greedy;              /* f = h */
  bool reopen;              /* closed nodes may be reopened */
  int phase;                /* ASTAR__IDLE, ASTAR__RUNNING, ASTAR__ENDED */
  astar_status outcome;     /* when ENDED */
  astar_stats stats;        /* running totals */
  astar_node reached;       /* goal reached (OK) */
  astar_node best;          /* partial paths: best expanded node */
  double best_h, best_g;    /* its heuristic and g */
  /* Bidirectional searches. */
  astar_status fault; /* set by a space adapter that cannot go on (an implicit
                         space's full table); ASTAR_OK otherwise */
  double mu;          /* cost of the best meeting found (INFINITY: none) */
  astar_node meet;    /* where, or NONE */
  /* Settings of the variants, resolved at begin. */
  double band;         /* bandwidth: band_e + band_d; INFINITY for the other methods */
  double dyn_eps;      /* dynamic weighting: epsilon (0: off) */
  double dyn_inv_n;    /* and 1 / h(start) */
  uint64_t dropped;    /* beam, bandwidth: entries dropped */
  uint64_t iterations; /* IDA*: iterations; retargeting: legs */
  /* IDA* (ida.c): the current path is a stack in the open list's memory. */
  double ida_bound;   /* f bound of the iteration */
  double ida_next;    /* least f above it seen so far (INFINITY: none) */
  uint32_t ida_depth; /* frames on the stack */
  /* Retargeting (retargeting.c). */
  astar_node target[2]; /* the target of the forward (0) and backward (1) search */
  uint64_t leg_end;     /* expansion count at which the current leg ends */
  int leg_side;         /* the side searching in the current leg */
  /* Front-to-front (front_to_front.c): for each open node of side s, its
  ** best partner on the other side and the value of the pair. */
  double *pair_h[2]; /* [pair_cap] least h(x, y) + g(y) over the partners seen */
  uint32_t *pair[2]; /* [pair_cap] that partner */
  uint32_t pair_cap; /* entries allocated */
  /* The last path, for astar_workspace_space_path. */
  bool found;           /* the last search produced a path */
  astar_node last_end;  /* its last node */
  astar_node last_meet; /* bidirectional: the meeting node, or NONE */
  size_t last_len;      /* its nodes */
} astar__engine;

#endif /* ASTAR_CORE_STATE_H */
