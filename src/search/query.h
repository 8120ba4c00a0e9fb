/*
** search/query.h -- what every grid search shares: the per-search "query"
** resolved from the options (heuristic, costs, tie order), the features of
** the general loop kept apart from it, the state types a workspace holds
** for grid searches (buckets, turn states), and the begin / end steps
** around an algorithm's main loop (search/query.c).
*/
#ifndef ASTAR_QUERY_H
#define ASTAR_QUERY_H

#include "core/heap.h"
#include "core/internal.h"

#include <math.h>
#include <string.h>

#define ASTAR__SQRT2 1.41421356237309504880

/* Legal-move rules: the index of a table mapping a neighbour byte to the
** mask of allowed directions. */
enum {
  ASTAR__RULE_STRAIGHT = 0,
  ASTAR__RULE_NO_CUT,
  ASTAR__RULE_ALWAYS,
  ASTAR__RULE_ONE_SIDE,
  ASTAR__RULE_COUNT
};

/* Can the jump searches (JPS, JPS+) honour these options on this grid?
** The uniform-cost model they are built for (8 moves, no corner cutting, no
** terrain, straight <= diagonal < 2 * straight, octile heuristic, no forced
** reopening) and none of the general A* loop's features except the
** observer, which they report to from a loop instance of their own. */
bool astar__jump_rules_ok(const astar_options *o, const astar_grid *g);

/* ---- the query -------------------------------------------------------------- */

enum {
  ASTAR__HK_OCTILE,
  ASTAR__HK_MANHATTAN,
  ASTAR__HK_CHEBYSHEV,
  ASTAR__HK_EUCLIDEAN,
  ASTAR__HK_ZERO,
  ASTAR__HK_CALLBACK,
  ASTAR__HK_MULTI /* minimum over q->fx->goals of q->fx->base_hk */
};

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
} astar__features;

/* Everything a search needs, resolved once from the options. */
typedef struct astar__query {
  const astar_grid *grid;
  uint32_t start, goal;    /* padded indices */
  int32_t sx, sy, gx, gy;  /* padded coordinates of start and goal */
  int hkind;               /* ASTAR__HK_* */
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

/* Phases of the sliced search. */
enum { ASTAR__IDLE = 0, ASTAR__RUNNING, ASTAR__ENDED };

/* Node states, added to the generation in mark[]. */
#define ASTAR__OPEN 0u      /* in the open list (heap or slot) */
#define ASTAR__CLOSED 1u    /* expanded */
#define ASTAR__COLD_RING 2u /* open, in a cold bucket of the ring (ASTAR_OPEN_BUCKET) */
#define ASTAR__COLD_OVER 3u /* open, in the overflow list (ASTAR_OPEN_BUCKET) */

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
** arrival direction (0..7, or 8 for the start), each with its own record. */
#define ASTAR__TURN_STATES 9u
typedef struct astar__turns {
  uint32_t capacity; /* cells covered (0: not reserved); states = 9 x capacity */
  uint16_t *mark;    /* [9 * capacity] like astar_workspace.mark */
  astar__node *node; /* [9 * capacity] like astar_workspace.node */
  astar__heap open;  /* open list of states, cap 9 * capacity */
} astar__turns;

/* ---- options (options.c) --------------------------------------------------- */

/* Diagonal moves possible under these options? */
bool astar__diagonals_on(const astar_options *o);
/* The ASTAR__RULE_* of these options. */
int astar__rule_of(const astar_options *o);
/* Is the move in direction d allowed under `rule` from a cell whose
** neighbour byte is nb? */
bool astar__move_allowed(int rule, unsigned nb, int d);
/* table[nb] = the directions (bit d) allowed under `rule` from a cell whose
** neighbour byte is nb: what a search looks up instead of the rule. */
void astar__move_table(int rule, uint8_t table[256]);

/* ---- heuristic and keys ---------------------------------------------------------- */

/* Minimum over q->fx->goals of the base heuristic (search/query.c). */
double astar__h_multi(const astar__query *q, int32_t x, int32_t y);

/* Heuristic at padded (x, y) towards padded goal (gx, gy) for a base kind
** hk (not ASTAR__HK_MULTI); hk is a constant where the caller specialises. */
ASTAR__INLINE double astar__h_at(const astar__query *q, int hk, int32_t x, int32_t y, int32_t gx,
                                 int32_t gy) {
  const int32_t ddx = x > gx ? x - gx : gx - x;
  const int32_t ddy = y > gy ? y - gy : gy - y;
  const double dx = (double)ddx, dy = (double)ddy;
  switch (hk) {
  case ASTAR__HK_OCTILE:
    return q->ha * (dx + dy) + q->hb * (double)(ddx < ddy ? ddx : ddy);
  case ASTAR__HK_MANHATTAN:
    return q->ha * (dx + dy);
  case ASTAR__HK_CHEBYSHEV:
    return q->ha * (double)(ddx > ddy ? ddx : ddy);
  case ASTAR__HK_EUCLIDEAN:
    return q->ha * sqrt(dx * dx + dy * dy);
  case ASTAR__HK_ZERO:
    return 0.0;
  default: {
    const astar_point c = {x - 1, y - 1}, g = {gx - 1, gy - 1};
    const double h = q->hfn(q->hctx, c, g);
    return (isfinite(h) && h > 0.0) ? q->ha * h : 0.0;
  }
  }
}

/* Heuristic at padded (x, y); hk is q->hkind (a constant where the caller
** specialises on it). */
ASTAR__INLINE double astar__h(const astar__query *q, int hk, int32_t x, int32_t y) {
  if (hk == ASTAR__HK_MULTI) return astar__h_multi(q, x, y);
  return astar__h_at(q, hk, x, y, q->gx, q->gy);
}

/* 32-bit tie key of a node at padded (x, y) with cost g pushed as push
** number seq; smaller first (the order documented in search.h). */
ASTAR__INLINE uint32_t astar__tie_key(const astar__query *q, int tie, double g, int32_t x,
                                      int32_t y, uint32_t seq) {
  if (tie == ASTAR_TIE_LARGER_G) {
    /* Larger g first. g >= 0, so the bits of (float)g order like g; the
    ** single-precision rounding only merges near-equal g values, which then
    ** fall through to the node-index order. */
    const float fg = (float)g;
    uint32_t bits;
    memcpy(&bits, &fg, sizeof bits);
    return ~bits;
  }
  if (tie == ASTAR_TIE_NEWEST) return ~seq;
  const int64_t dx1 = x - q->gx, dy1 = y - q->gy;
  const int64_t dx2 = q->sx - q->gx, dy2 = q->sy - q->gy;
  int64_t c = dx1 * dy2 - dx2 * dy1;
  if (c < 0) c = -c;
  return c > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* Heap entry for f, tie key and node. */
ASTAR__INLINE astar__hent astar__entry(double f, uint32_t tie, uint32_t node) {
  astar__hent e;
  memcpy(&e.f, &f, sizeof f);
  e.t = (uint64_t)tie << 32 | node;
  return e;
}

/* Fill the heuristic and reopening fields of q from the options. */
void astar__setup_heuristic(astar__query *q, const astar_options *o, const astar_grid *g);

/* ---- begin / end (search/query.c) ------------------------------------------------ */

/* The move cost per direction (straight N E S W, then diagonals) for opt
** on grid: the options' costs rounded to a power-of-two quantum, so that
** uniform-cost sums are exact (query.c says why). Every grid search and the
** grid as a space use these. */
void astar__move_costs(const astar_grid *grid, const astar_options *opt, double cost[8]);

/* The two halves of astar__begin: resolve the options -- which the caller
** validated (astar_options_validate), once a query -- into *q (no
** workspace change), then open a new generation and, if push_start, push
** the start. */
astar_status astar__prepare(astar__query *q, astar__features *fx, const astar_workspace *ws,
                            const astar_grid *grid, const astar_options *opt, astar_point start,
                            astar_point goal);
void astar__open(astar__query *q, astar_workspace *ws, bool push_start);

/*
** Start a search: check the endpoints, resolve `opt` (validated by the
** caller) into *q, open a new generation in ws and push the start. Returns ASTAR_OK
** to go on; any other status is the search's final outcome (blocked
** endpoints, bad arguments, ...). start == goal leaves the open list empty
** and sets *trivial.
*/
astar_status astar__begin(astar__query *q, astar_workspace *ws, const astar_grid *grid,
                          const astar_options *opt, astar_point start, astar_point goal,
                          bool *trivial);

/*
** Finish a search whose main loop returned `st`: record the path for
** astar_workspace_path, fill *result (may be NULL) and copy the path into
** (path, cap). Parent links may skip cells along a straight or diagonal
** line (jump searches): the path is filled in cell by cell, diagonal moves
** first. Returns the search's final status.
*/
astar_status astar__end(astar__query *q, astar_workspace *ws, astar_status st, astar_point *path,
                        size_t cap, astar_result *result);

/* ---- algorithms ------------------------------------------------------------------ */

/* Report an event on node `node` (a cell, or a turn state when per == 9)
** to q->fx->observer (search/query.c). */
void astar__emit(const astar__query *q, astar_event_type type, uint32_t node, uint32_t parent,
                 double g, double f, uint32_t per);

/* The jump searches (jps.c, jps_plus.c) with options.observer: take the
** observer into q and report the start's push -- or, for a trivial search
** (start == goal), only the goal event -- as astar.c does (search/query.c). */
void astar__observe_start(astar__query *q, const astar_options *opt, bool trivial);
/* Report ASTAR_EVENT_SCAN for the n cells of a jump from padded cell
** `origin` in direction (dx, dy), each step costing `step`: cell k (1..n)
** has parent `origin` and g = g0 + k * step (search/query.c). */
void astar__emit_scan(const astar__query *q, uint32_t origin, int dx, int dy, int32_t n, double g0,
                      double step);

/* Partial paths: distance of padded (x, y) to the goal(s) by the move rules
** (astar.c). */
double astar__closeness(const astar__query *q, int32_t x, int32_t y);

#endif /* ASTAR_QUERY_H */
