/*
** core/loop.h -- what every search loop shares (core/loop.c out of line):
** the tie order, the statistics, the events an observer sees, the path
** written from parent links, and the rule by which searches reuse the
** workspace's node records. The grid's searches (search/: A*, JPS, JPS+,
** turn penalties), the engine's methods (engine/) and Theta*
** (anyangle/theta.c) all go through it: a statistic counted on an event,
** a field of an event, a tie order or a path's layout is changed here,
** once. What is in a hot loop is inline and takes its mode as a constant,
** so an instance without an observer compiles exactly as its own code
** did.
*/
#ifndef ASTAR_CORE_LOOP_H
#define ASTAR_CORE_LOOP_H

#include "core/state.h"

#include <string.h>

/* ---- the tie order ------------------------------------------------------------------- */

/*
** Among open entries of equal f, the smaller 32-bit tie key comes first
** (core/heap.h), then the smaller node index: the orders of astar_tie
** (astar/search.h).
*/

/* ASTAR_TIE_LARGER_G: larger g first. g >= 0, so the bits of (float)g
** order like g; the single-precision rounding only merges near-equal g
** values, which then fall through to the node-index order. */
ASTAR__INLINE uint32_t astar__tie_larger_g(double g) {
  const float fg = (float)g;
  uint32_t bits;
  memcpy(&bits, &fg, sizeof bits);
  return ~bits;
}

/* ASTAR_TIE_NEWEST: the latest push first (seq: the push's number in the
** search). */
ASTAR__INLINE uint32_t astar__tie_newest(uint32_t seq) {
  return ~seq;
}

/* ASTAR_TIE_CROSS: the node nearer the straight line from start (sx, sy)
** to goal (gx, gy) first -- |cross product| of node - goal and start -
** goal, saturated. */
ASTAR__INLINE uint32_t astar__tie_cross(int32_t x, int32_t y, int32_t sx, int32_t sy, int32_t gx,
                                        int32_t gy) {
  const int64_t dx1 = x - gx, dy1 = y - gy;
  const int64_t dx2 = sx - gx, dy2 = sy - gy;
  int64_t c = dx1 * dy2 - dx2 * dy1;
  if (c < 0) c = -c;
  return c > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* The tie key of a node with cost g pushed as push number seq, at (x, y)
** of a search from (sx, sy) to (gx, gy): the grid searches, which know
** every order. `tie` is a constant where the caller specialises. */
ASTAR__INLINE uint32_t astar__tie_key_at(int tie, double g, uint32_t seq, int32_t x, int32_t y,
                                         int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  if (tie == ASTAR_TIE_LARGER_G) return astar__tie_larger_g(g);
  if (tie == ASTAR_TIE_NEWEST) return astar__tie_newest(seq);
  return astar__tie_cross(x, y, sx, sy, gx, gy);
}

/* The same for searches whose nodes have no coordinates (the engine) or
** no fixed line (Theta*): larger g or newest; ASTAR_TIE_CROSS reads as
** larger g. */
ASTAR__INLINE uint32_t astar__tie_key(int tie, double g, uint32_t seq) {
  return tie == ASTAR_TIE_NEWEST ? astar__tie_newest(seq) : astar__tie_larger_g(g);
}

/* ---- statistics ------------------------------------------------------------------------ */

/*
** The running totals of a search (astar_stats), counted on the events of
** its loop and only here: a loop tells what happened to a node, these say
** what it counts. A loop may count into a copy of its totals (a local
** astar_stats the compiler keeps in registers) and store it back.
*/

/* A node was taken from the open list and expanded (EXPAND or GOAL). */
ASTAR__INLINE void astar__count_expand(astar_stats *s) {
  s->expanded++;
}
/* A node entered the open list for the first time (PUSH). */
ASTAR__INLINE void astar__count_push(astar_stats *s) {
  s->generated++;
}
/* A closed node went back to the open list (REOPEN). */
ASTAR__INLINE void astar__count_reopen(astar_stats *s) {
  s->generated++;
  s->reopened++;
}
/* An open node got a lower g (IMPROVE). */
ASTAR__INLINE void astar__count_improve(astar_stats *s) {
  s->generated++;
}
/* The open list holds n nodes now (after a push). */
ASTAR__INLINE void astar__count_open(astar_stats *s, uint64_t n) {
  if (n > s->max_open) s->max_open = n;
}
/* The first push of a search: its root, alone on the open list. */
ASTAR__INLINE void astar__count_root(astar_stats *s) {
  s->generated = 1;
  s->max_open = 1;
}

/* ---- open-list placement --------------------------------------------------------------- */

/*
** Put node v (mark mv, read before its record was updated) with entry en
** on an open list of records (mark, nd, open) of generation gen: pushed
** when not reached in this search (PUSH), pushed again when closed
** (REOPEN, the caller decided it may be reopened), lowered when open
** (IMPROVE). Counted in s; returns the event. The open list's size is the
** caller's to count (astar__count_open): some count two lists.
*/
ASTAR__INLINE astar_event_type astar__open_put(astar__heap *open, astar__node *nd, uint16_t *mark,
                                               uint16_t gen, uint16_t mv, uint32_t v,
                                               astar__hent en, astar_stats *s) {
  if ((uint16_t)(mv & ~3u) != gen) {
    mark[v] = gen;
    astar__heap_push(open, nd, en);
    astar__count_push(s);
    return ASTAR_EVENT_PUSH;
  }
  if (mv == (uint16_t)(gen + ASTAR__CLOSED)) {
    mark[v] = gen;
    astar__heap_push(open, nd, en);
    astar__count_reopen(s);
    return ASTAR_EVENT_REOPEN;
  }
  astar__heap_decrease(open, nd, nd[v].pos, en);
  astar__count_improve(s);
  return ASTAR_EVENT_IMPROVE;
}

/* ---- events ------------------------------------------------------------------------------ */

/*
** Report an event to an observer, the one place the events are built
** (cold: called only when a search is observed, from its observed loop
** instance). g, h and f are passed as the loop computed them, so the
** observer sees the loop's own numbers; expanded is the search's count
** so far.
*/

/* A grid search's event (astar_event of astar/search.h): node and parent
** (ASTAR__NO_PARENT for a root) are padded cell indices of a grid of row
** length `stride`, or with per > 1 (turn penalties: per 9) states
** cell * per + arrival direction, whose direction the event carries. */
void astar__emit_cell(astar_observer_fn fn, void *ctx, int32_t stride, uint32_t per,
                      astar_event_type type, uint32_t node, uint32_t parent, double g, double h,
                      double f, uint64_t expanded);

/* An engine search's event (astar_engine_event of astar/engine.h); parent
** ASTAR_NODE_NONE for a root; side 0 forward, 1 backward. */
void astar__emit_node(astar_engine_observer_fn fn, void *ctx, astar_event_type type,
                      astar_node node, astar_node parent, double g, double h, double f,
                      uint64_t expanded, int side);

/* ---- paths from parent links ------------------------------------------------------------- */

/* Nodes on the chain of parent links that ends at `end` (end and the root
** included). */
ASTAR__INLINE size_t astar__chain_length(const astar__node *nd, uint32_t end) {
  size_t n = 1;
  for (uint32_t s = end; nd[s].parent != ASTAR__NO_PARENT; s = nd[s].parent) n++;
  return n;
}

/* Write that chain, n = astar__chain_length(nd, end) nodes, into
** out[0 .. n-1], root first. */
ASTAR__INLINE void astar__chain_write(const astar__node *nd, uint32_t end, uint32_t *out,
                                      size_t n) {
  for (uint32_t s = end;; s = nd[s].parent) {
    out[--n] = s;
    if (nd[s].parent == ASTAR__NO_PARENT) break;
  }
}

/* Write the nodes the chain from `from` leads to, `from` excluded, in link
** order (the backward half of a bidirectional path, from the meeting node
** to the goal) into out[]; returns their number. */
ASTAR__INLINE size_t astar__chain_follow(const astar__node *nd, uint32_t from, uint32_t *out) {
  size_t n = 0;
  for (uint32_t s = from; nd[s].parent != ASTAR__NO_PARENT;) {
    s = nd[s].parent;
    out[n++] = s;
  }
  return n;
}

/* The cell of a padded cell index of row length stride. */
ASTAR__INLINE astar_point astar__cell_of(uint32_t p, int32_t stride) {
  return (astar_point){(int32_t)(p % (uint32_t)stride) - 1, (int32_t)(p / (uint32_t)stride) - 1};
}

/*
** Paths on the grid. A chain's nodes are padded cells of row length
** stride, or (per > 1) states cell * per + direction. A link of the grid
** searches joins two cells on a straight or diagonal line, or a diagonal
** run then a straight one (jump searches skip the cells between): it
** covers max(|dx|, |dy|) moves, and the path fills its cells in, the
** diagonal moves first. A link of an any-angle search (Theta*) joins
** cells in sight: the path is the linked cells (`fill` false).
*/

/* Cells of the grid path ending at `end`. */
ASTAR__INLINE size_t astar__chain_cells(const astar__node *nd, uint32_t end, int32_t stride,
                                        uint32_t per) {
  size_t n = 1;
  for (uint32_t s = end; nd[s].parent != ASTAR__NO_PARENT;) {
    const uint32_t v = s / per, p = nd[s].parent / per;
    const int32_t dx = (int32_t)(v % (uint32_t)stride) - (int32_t)(p % (uint32_t)stride);
    const int32_t dy = (int32_t)(v / (uint32_t)stride) - (int32_t)(p / (uint32_t)stride);
    const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    n += (size_t)(ax > ay ? ax : ay);
    s = nd[s].parent;
  }
  return n;
}

/*
** Write the cells of the grid path ending at `end` (len of them:
** astar__chain_cells, or astar__chain_length without `fill`) with index
** below `keep` into path[0 .. keep-1]: the walk goes from the end back, so
** a head of the path costs the walk of all of it. `all` (keep == len) and
** `fill` are constants at each call, so the whole-path writes carry no
** per-cell test. Each link is filled as two runs, the cells a step-by-step
** walk would visit: going back, the straight moves first, then the
** diagonal ones (JPS+ on an open map links cells hundreds apart, so the
** fill is most of its query).
*/
ASTAR__INLINE void astar__chain_write_cells(const astar__node *nd, uint32_t end, int32_t stride,
                                            uint32_t per, astar_point *path, size_t len,
                                            size_t keep, const bool all, const bool fill) {
  uint32_t s = end;
  size_t i = len;
  /* Unpadded coordinates throughout: the path's own. */
  int32_t x = (int32_t)(s / per % (uint32_t)stride) - 1,
          y = (int32_t)(s / per / (uint32_t)stride) - 1;
  --i;
  if (all || i < keep) path[i] = (astar_point){x, y};
  while (nd[s].parent != ASTAR__NO_PARENT) {
    const uint32_t p = nd[s].parent / per;
    if (!fill) {
      const astar_point c = astar__cell_of(p, stride);
      --i;
      if (all || i < keep) path[i] = c;
      s = nd[s].parent;
      continue;
    }
    const int32_t rx = (int32_t)(p % (uint32_t)stride) - 1 - x;
    const int32_t ry = (int32_t)(p / (uint32_t)stride) - 1 - y;
    const int32_t ax = rx < 0 ? -rx : rx, ay = ry < 0 ? -ry : ry;
    const int32_t ux = rx < 0 ? -1 : rx > 0, uy = ry < 0 ? -1 : ry > 0;
    /* Straight run along the longer axis, then the diagonal run. */
    const int32_t ndiag = ax < ay ? ax : ay, nstr = (ax > ay ? ax : ay) - ndiag;
    const int32_t sx = ax > ay ? ux : 0, sy = ay > ax ? uy : 0;
    for (int32_t k = 0; k < nstr; k++) {
      x += sx, y += sy, --i;
      if (all || i < keep) path[i] = (astar_point){x, y};
    }
    for (int32_t k = 0; k < ndiag; k++) {
      x += ux, y += uy, --i;
      if (all || i < keep) path[i] = (astar_point){x, y};
    }
    s = nd[s].parent;
  }
}

/* ---- the node records' reuse rule ----------------------------------------------------- */

/*
** One workspace, one search at a time: the grid searches, the engine and
** Theta* keep their nodes in the same records. So every search that
** begins on a workspace first claims it: whatever ran on it before is over
** (a sliced search in progress, grid or engine, is ended: its step and
** finish say ASTAR_INVALID_ARGUMENT) and every path the records held is
** forgotten (astar_workspace_path and astar_workspace_space_path say
** ASTAR_NO_PATH), since the new search is about to overwrite the records
** they live in. Growing the records claims the workspace too. No
** allocation.
*/
void astar__workspace_claim(astar_workspace *ws);

/* A new generation of the workspace's records (and of the turn states',
** which share its counter): every node reads "not reached", the open list
** is empty, the push count is 0. Marks are cleared when the 16-bit counter
** would wrap (once every 16383 generations: a negligible amortised cost).
** The caller has claimed ws; a new iteration of its own search (IDA*)
** needs no new claim. */
void astar__records_next(astar_workspace *ws);

/* The same for a set of records of its own (the backward half of the
** bidirectional searches). */
void astar__side_next(astar__side *s);

#endif /* ASTAR_CORE_LOOP_H */
