/*
** layers.h -- the inside of the per-player objects a search reads besides
** the grid: influence layers (layer.c) and fog-of-war knowledge
** (knowledge.c), and the inline helpers the search loop uses on them.
** Nothing here is public API.
**
** Both objects copy the grid's padded layout (internal.h): cell (x, y) lives
** at index (y + 1) * stride + (x + 1) behind a one-cell border. A search that
** has checked the dimensions match (astar__layer_fits, astar__knowledge_fits)
** indexes them with the very cell index it uses for the grid, with no
** translation and no bounds checks.
*/
#ifndef ASTAR_LAYERS_H
#define ASTAR_LAYERS_H

#include "core/internal.h"

/* An influence layer: an extra entry cost per cell (astar/grid.h). */
struct astar_layer {
  astar_allocator alloc; /* where the struct and v came from */
  int32_t width;         /* columns, 1 .. ASTAR_GRID_MAX_SIDE */
  int32_t height;        /* rows, 1 .. ASTAR_GRID_MAX_SIDE */
  int32_t stride;        /* width + 2: padded row length */
  uint32_t ncells;       /* stride * (height + 2): padded cell count */
  float *v;              /* [ncells] value of each cell: finite, in [0, FLT_MAX];
                            border always 0 */
};

/*
** What one player knows of a grid (astar/knowledge.h). state[] holds
** astar_cell_knowledge values. The border reads as ASTAR_CELL_BLOCKED, so
** the neighbour mask below never lets a move leave the grid, whatever the
** policy for unknown cells.
*/
struct astar_knowledge {
  astar_allocator alloc; /* where the struct and state came from */
  int32_t width;         /* columns: the width of the grid it was made for */
  int32_t height;        /* rows: the height of that grid */
  int32_t stride;        /* width + 2: padded row length */
  uint32_t ncells;       /* stride * (height + 2): padded cell count */
  uint8_t *state;        /* [ncells] an astar_cell_knowledge (0, 1 or 2) per cell;
                            border always ASTAR_CELL_BLOCKED */
  /* Change counters, each monotonic (astar_knowledge_version's contract),
  ** indexed by ASTAR__KC_*. VERSION moves with every change of a cell's
  ** state (+1 for clear); WALLS only when a cell becomes or stops being
  ** known blocked; OPENS only when a cell becomes or stops being known
  ** passable -- the changes one unknown-cell policy can see
  ** (astar__knowledge_seen_kind), so that a search is not declared stale
  ** by a reveal that changes nothing it reads. */
  uint64_t count[3];
  /* The change log: for each counter, a ring of the padded cells of its
  ** last ASTAR__KLOG changes. The change that moved count[c] from n to n + 1
  ** is log[c * ASTAR__KLOG + n % ASTAR__KLOG]. floor[c]: the log of c holds
  ** no change from before that value (a clear changes no one cell). A sliced
  ** search that recorded count[c] at begin reads from the log which cells
  ** changed since (astar__knowledge_logged), to go on when none is near what
  ** it has reached (astar_search_step). */
  uint32_t *log; /* [3 * ASTAR__KLOG] */
  uint64_t floor[3];
};

enum { ASTAR__KC_VERSION = 0, ASTAR__KC_WALLS = 1, ASTAR__KC_OPENS = 2 };
#define ASTAR__KLOG 4096u /* entries per counter's ring: a power of two */

/* True if `layer` has `g`'s dimensions, so padded indices are shared. */
ASTAR__INLINE bool astar__layer_fits(const astar_layer *layer, const astar_grid *g) {
  return layer->width == g->width && layer->height == g->height;
}

/* True if `k` has `g`'s dimensions, so padded indices are shared. */
ASTAR__INLINE bool astar__knowledge_fits(const astar_knowledge *k, const astar_grid *g) {
  return k->width == g->width && k->height == g->height;
}

/*
** The player's counterpart of grid->nb[u]: bit d is set when the neighbour
** of padded cell u in direction d (N, E, S, W, NE, SE, SW, NW; internal.h)
** is passable as the player sees it -- a known cell by its recorded state,
** an unknown cell passable unless `policy` is ASTAR_UNKNOWN_BLOCKED
** (ASTAR_UNKNOWN_COST prices unknown cells, it does not block them). The
** grid's own truth is deliberately not consulted: the player plans on what
** it has seen. `k` must fit `g` (only g->stride is read, the same as
** k->stride, and the search already holds it); u must be an interior cell.
**
** Branch-free SWAR: the eight neighbour states go into the eight bytes of
** one word, byte d for direction d. With states 0 (unknown), 1 (passable)
** and 2 (blocked), a byte's bit 0 says "known passable" and (s | s >> 1)
** bit 0 says "known at all"; the shifted-in bit 7 is masked away. The
** multiply then gathers bit 0 of byte d into bit d of the top byte (the
** partial products never overlap, so nothing carries). Measured 15-35%
** faster than eight per-byte variable shifts (gcc and clang -O3, x86-64).
*/
ASTAR__INLINE uint8_t astar__knowledge_nb(const astar_knowledge *k, const astar_grid *g,
                                          astar_unknown policy, uint32_t u) {
  const size_t s = (size_t)(uint32_t)g->stride;
  const uint8_t *up = k->state + u - s, *mid = k->state + u, *down = k->state + u + s;
  const uint64_t w = (uint64_t)up[0] << (8 * ASTAR__N) | (uint64_t)mid[1] << (8 * ASTAR__E) |
                     (uint64_t)down[0] << (8 * ASTAR__S) | (uint64_t)mid[-1] << (8 * ASTAR__W) |
                     (uint64_t)up[1] << (8 * ASTAR__NE) | (uint64_t)down[1] << (8 * ASTAR__SE) |
                     (uint64_t)down[-1] << (8 * ASTAR__SW) | (uint64_t)up[-1] << (8 * ASTAR__NW);
  const uint64_t lsb = 0x0101010101010101u; /* bit 0 of every byte */
  const uint64_t unknown_ok =
      0 - (uint64_t)(policy != ASTAR_UNKNOWN_BLOCKED); /* all ones or all zeros */
  const uint64_t pass = (w & lsb) | (unknown_ok & ~(w | w >> 1) & lsb);
  return (uint8_t)((pass * 0x0102040810204080u) >> 56);
}

/*
** The counter of `k` that moves whenever what a search with unknown-cell
** `policy` (and options.unknown_cost `unknown_cost`) reads of k changes --
** the neighbour masks of astar__knowledge_nb, the goal test and the unknown
** cells' price -- and that a search records at begin to tell it has gone
** stale:
**   ASTAR_UNKNOWN_PASSABLE  a cell is passable unless known blocked: only
**                           changes into or out of "blocked" matter (walls);
**   ASTAR_UNKNOWN_BLOCKED   a cell is passable only when known passable:
**                           changes into or out of "passable" (opens);
**   ASTAR_UNKNOWN_COST      every change (version), the price of an unknown
**                           cell differing from a known one's -- unless the
**                           factor is 1, when it reads as PASSABLE.
** Revealing open ground under the default policy -- what a unit exploring
** does every frame -- thus leaves running searches alone: their answer is
** the same on the new knowledge.
*/
ASTAR__INLINE int astar__knowledge_seen_kind(astar_unknown policy, double unknown_cost) {
  if (policy == ASTAR_UNKNOWN_BLOCKED) return ASTAR__KC_OPENS;
  if (policy == ASTAR_UNKNOWN_COST && unknown_cost != 1.0) return ASTAR__KC_VERSION;
  return ASTAR__KC_WALLS;
}

ASTAR__INLINE uint64_t astar__knowledge_seen(const astar_knowledge *k, astar_unknown policy,
                                             double unknown_cost) {
  return k->count[astar__knowledge_seen_kind(policy, unknown_cost)];
}

/* True when the log of counter `kind` holds every change from counter value
** `from` to now, i.e. the cells log[kind * ASTAR__KLOG + n % ASTAR__KLOG]
** for from <= n < k->count[kind]. */
ASTAR__INLINE bool astar__knowledge_logged(const astar_knowledge *k, int kind, uint64_t from) {
  return from >= k->floor[kind] && k->count[kind] - from <= ASTAR__KLOG;
}

/* True if the player has never seen padded cell v (border cells read as
** known blocked). With ASTAR_UNKNOWN_COST the search multiplies the cost of
** entering such a cell by options.unknown_cost. */
ASTAR__INLINE bool astar__knowledge_unknown(const astar_knowledge *k, uint32_t v) {
  return k->state[v] == ASTAR_CELL_UNKNOWN;
}

#endif /* ASTAR_LAYERS_H */
