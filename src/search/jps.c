/*
** jps.c -- Jump Point Search (Harabor & Grastien, AAAI 2011) for the
** no-corner-cutting movement model, with the block-based scanning and the
** pruning of intermediate diagonal jump points of "Improving Jump Point
** Search" (ICAPS 2014). Online: nothing is precomputed beyond the grid's
** row and column bitsets.
**
** Pruning rules (a diagonal move needs both side cells free; the costs obey
** straight <= diagonal < 2 * straight). Travelling east into cell x from
** its west neighbour p:
**   - E(x) is the natural successor;
**   - N(x) is forced iff it is free and NW(x) is blocked. With NW(x) free,
**     p reaches N(x) by one diagonal move, cheaper than through x, and
**     NE(x) by p -> N(x) -> NE(x), as cheap as through x and diagonal
**     first (the canonical order of the symmetric paths). A forced N(x)
**     makes NE(x) a successor too. S(x) and SE(x) likewise;
**   - W, NW, SW are reached from p at least as cheaply.
** Travelling diagonally (NE) into x from p, both side cells W(x) and S(x)
** are free (the move needed them), so NW(x) and SE(x) are reached from p by
** two straight moves, no dearer than two diagonals: a diagonal move has no
** forced neighbours, only the natural N, E and NE.
**
** So the only jump points are cells with a forced neighbour along a straight
** line, and the goal. A diagonal jump is not stopped where one of its two
** straight scans finds a jump point: the point found is generated directly
** with the diagonal's origin as parent (the 2014 paper's intermediate
** pruning), and the diagonal goes on. A successor is therefore reached from
** its parent by a straight run, a diagonal run, or a diagonal run then a
** straight run -- the shape astar__end fills in, diagonal moves first -- and
** every move of it is legal: the diagonal steps were checked one by one and
** the straight run stops before the first blocked cell.
**
** Block scans. A straight scan reads the passability bits of its own line
** and of the two lines beside it, a block of positions at once (rows from
** rbits for east/west, columns from cbits for north/south), and finds the
** first "event" with one count-trailing/leading-zeros: a blocked cell on the
** line (the scan fails) or a cell where a line beside turns from blocked to
** free (a forced neighbour: a jump point). No branch per cell. The goal is
** matched afterwards by comparing coordinates with the event's position.
**
** Seeing the search. With options.observer the search runs a separate
** instantiation of the loop (obs == true, a compile-time constant like
** tie), so the plain loops are compiled exactly as without it. It reports
** the jump points as nodes -- PUSH, IMPROVE, EXPAND, GOAL with their g and
** h -- and, before a jump's successor is offered, every cell the jump
** scanned as ASTAR_EVENT_SCAN: the free cells of a straight scan up to its
** event (the jump point included, the blocked cell not), with the scan's
** origin as parent (the expanded node, or the diagonal cell a diagonal
** jump branched from), and each diagonal step with the expanded node as
** parent.
**
** Status order here: an invalid option value gives ASTAR_INVALID_ARGUMENT
** (astar_find_path validates the options, once, before calling here);
** then options or a grid JPS cannot honour give ASTAR_UNSUPPORTED (before
** any endpoint is looked at, so a caller can fall back to A* on that status
** alone); then astar__begin's own checks (capacity, bounds, blocked start,
** blocked goal) in its order. (astar_find_path refuses the game-loop options
** with ASTAR_UNSUPPORTED before calling here.)
*/
#include "core/workspace.h"
#include "search/jps.h"
#include "search/query.h"

/* ---- block scans ------------------------------------------------------------------ */

/*
** scan_up: scan line l0 from position p (excluded) towards larger positions;
** lm and lp are the lines beside it. Returns the first event's position;
** *jump says whether it is a jump point (a free cell with a forced
** neighbour) rather than a blocked cell. scan_down: the same towards smaller
** positions. Every line ends in a blocked border cell, so a scan always
** stops. A block holds the previous cell too, to see a blocked-to-free turn
** beside the line at the block's first cell.
*/

/* Trailing / leading zeros of a non-zero word. */
#if defined(__GNUC__)
#define ASTAR__CTZ64(v) ((uint32_t)__builtin_ctzll(v))
#define ASTAR__CLZ64(v) ((uint32_t)__builtin_clzll(v))
#else
ASTAR__INLINE uint32_t astar__ctz64(uint64_t v) {
  uint32_t n = 0;
  while (!(v & 1)) v >>= 1, n++;
  return n;
}
ASTAR__INLINE uint32_t astar__clz64(uint64_t v) {
  uint32_t n = 0;
  while (!(v >> 63)) v <<= 1, n++;
  return n;
}
#define ASTAR__CTZ64(v) astar__ctz64(v)
#define ASTAR__CLZ64(v) astar__clz64(v)
#endif

/* Event bits of a block: blocked on the line (c), or free beside it (m, n)
** where the cell before, in scan order, is blocked: the bit below when
** scanning up, the bit above when scanning down. */
ASTAR__INLINE uint64_t events_up(uint64_t m, uint64_t c, uint64_t n) {
  return (m & ~(m << 1)) | (n & ~(n << 1)) | ~c;
}
ASTAR__INLINE uint64_t events_down(uint64_t m, uint64_t c, uint64_t n) {
  return (m & ~(m >> 1)) | (n & ~(n >> 1)) | ~c;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                        \
    !defined(ASTAR_JPS_WORD_SCANS)

/* Little-endian: a line's bit i is bit i % 8 of byte i / 8, so one unaligned
** 8-byte load at any byte gives 57 or more consecutive positions. The event
** mask is computed on the loaded words as they are and shifted once. A
** block covers the previous cell plus 56 cells. */
ASTAR__INLINE uint64_t load64(const uint64_t *line, int32_t byte) {
  uint64_t v;
  memcpy(&v, (const unsigned char *)line + byte, sizeof v);
  return v;
}

ASTAR__INLINE int32_t scan_up(const uint64_t *lm, const uint64_t *l0, const uint64_t *lp,
                              uint32_t p, bool *jump) {
  /* Bytes p/8 .. p/8+7 stay inside the line: it has a spare word past the
  ** border cell, and p never passes the border. */
  for (;;) {
    const int32_t o = (int32_t)(p >> 3);
    const uint32_t r = p & 7; /* bit of position p in the loaded word */
    const uint64_t c = load64(l0, o), m = load64(lm, o), n = load64(lp, o);
    const uint64_t ev = (events_up(m, c, n) >> r) & 0x01fffffffffffffeull;
    if (ev) {
      const uint32_t e = ASTAR__CTZ64(ev);
      *jump = (c >> (e + r)) & 1;
      return (int32_t)(p + e);
    }
    p += 56;
  }
}

ASTAR__INLINE int32_t scan_down(const uint64_t *lm, const uint64_t *l0, const uint64_t *lp,
                                uint32_t p, bool *jump) {
  for (;;) {
    /* The 8 bytes ending at p's byte; near the start of the line, the first
    ** 8 bytes (never before the line: row 0 and column 0 lead their arrays). */
    int32_t o = (int32_t)(p >> 3) - 7;
    o &= ~(o >> 31);
    const uint32_t r = p - 8 * (uint32_t)o; /* bit of position p: 56..63, or p itself */
    const uint64_t c = load64(l0, o), m = load64(lm, o), n = load64(lp, o);
    /* Shifted so that p is bit 63; cells p-1 .. p-56 are bits 62 .. 7 (zeros
    ** shifted in below position 0 are no events; position 0 is the border). */
    const uint64_t ev = (events_down(m, c, n) << (63 - r)) & 0x7fffffffffffff80ull;
    if (ev) {
      const uint32_t back = ASTAR__CLZ64(ev); /* p - event */
      *jump = (c >> (r - back)) & 1;
      return (int32_t)(p - back);
    }
    p -= 56;
  }
}

#else

/* Portable (and with -DASTAR_JPS_WORD_SCANS, to test it): whole 64-bit
** words, two per line and block; a block covers the previous cell plus 63. */

/* 64 bits of a line from word w, bit b upwards: bit i is position 64w+b+i.
** The spare zero word at the end of every line keeps w + 1 in bounds. */
ASTAR__INLINE uint64_t bits_up(const uint64_t *line, uint32_t w, uint32_t b) {
  return line[w] >> b | (line[w + 1] << 1) << (63 - b);
}

/* 64 bits of a line ending at position 64w+b: bit 63 is that position, bit
** i is position 64w+b-63+i. For w == 0 the bits below position 0 are junk;
** position 0 is the blocked border, so a downward scan stops there first. */
ASTAR__INLINE uint64_t bits_down(const uint64_t *line, uint32_t w, uint32_t b) {
  return line[w] << (63 - b) | (line[w - (w != 0)] >> 1) >> b;
}

ASTAR__INLINE int32_t scan_up(const uint64_t *lm, const uint64_t *l0, const uint64_t *lp,
                              uint32_t p, bool *jump) {
  for (;;) {
    const uint32_t w = p >> 6, b = p & 63;
    const uint64_t c = bits_up(l0, w, b), m = bits_up(lm, w, b), n = bits_up(lp, w, b);
    const uint64_t ev = events_up(m, c, n) & ~(uint64_t)1;
    if (ev) {
      const uint32_t e = ASTAR__CTZ64(ev);
      *jump = (c >> e) & 1;
      return (int32_t)(p + e);
    }
    p += 63;
  }
}

ASTAR__INLINE int32_t scan_down(const uint64_t *lm, const uint64_t *l0, const uint64_t *lp,
                                uint32_t p, bool *jump) {
  for (;;) {
    const uint32_t w = p >> 6, b = p & 63;
    const uint64_t c = bits_down(l0, w, b), m = bits_down(lm, w, b), n = bits_down(lp, w, b);
    const uint64_t ev = events_down(m, c, n) & (~(uint64_t)0 >> 1);
    if (ev) {
      const uint32_t e = 63u - ASTAR__CLZ64(ev);
      *jump = (c >> e) & 1;
      return (int32_t)p - 63 + (int32_t)e;
    }
    p -= 63;
  }
}

#endif

/* ---- the search ---------------------------------------------------------------------- */

/* Search state shared by the main loop, the scans and offer(). */
typedef struct jps_ctx {
  astar__query *q;
  astar__node *nd;
  uint16_t *mark;
  astar__heap *open;
  const uint64_t *rbits, *cbits;
  uint32_t rwords, cwords;
  int32_t stride;
  int32_t gx, gy; /* padded goal */
  double sc, dc;  /* straight and diagonal move costs */
  uint16_t opened, closed;
  uint32_t seq;
  astar_stats stats; /* the search's running totals (core/loop.h) */
  /* The slot holds at most one open entry outside the heap (as in astar.c):
  ** a successor that beats the heap's minimum. JPS mostly expands such a
  ** successor next (f stays equal along a free line), and the slot then
  ** saves its push and pop. Popping takes the smaller of slot and heap top,
  ** so the order is exactly the heap's. */
  bool slot_full;
  astar__hent slot;
} jps_ctx;

#ifndef ASTAR__NOINLINE
#if defined(__GNUC__)
#define ASTAR__NOINLINE __attribute__((noinline))
#else
#define ASTAR__NOINLINE
#endif
#endif

/* Offer cell (x, y) at cost ng with parent `parent`: push, lower or ignore
** (with obs, reported as ASTAR_EVENT_PUSH or ASTAR_EVENT_IMPROVE). */
ASTAR__INLINE void offer_body(jps_ctx *c, const int tie, const bool obs, int32_t x, int32_t y,
                              double ng, uint32_t parent) {
  const uint32_t v = (uint32_t)(y * c->stride + x);
  const uint16_t mv = c->mark[v];
  /* Closed nodes are never reopened: the octile heuristic is consistent on
  ** jump edges too (their cost is the octile distance), and a weighted
  ** search keeps its bound without reopening, as in A*. */
  if (mv == c->closed) return;
  astar__node *const n = &c->nd[v];
  const bool is_open = mv == c->opened;
  if (is_open && !(ng < n->g)) return;
  n->g = ng;
  n->parent = parent;
  const double f = ng + astar__h(c->q, ASTAR__HK_OCTILE, x, y);
  const astar__hent e = astar__entry(f, astar__tie_key_q(c->q, tie, ng, x, y, c->seq), v);
  c->seq++;
  if (obs) astar__emit(c->q, is_open ? ASTAR_EVENT_IMPROVE : ASTAR_EVENT_PUSH, v, parent, ng, f, 1);
  if (is_open) {
    astar__count_improve(&c->stats);
    if (n->pos == ASTAR__IN_SLOT)
      c->slot = e; /* only ever smaller: the slot stays below its old key */
    else
      astar__heap_decrease(c->open, c->nd, n->pos, e);
    return;
  }
  c->mark[v] = c->opened;
  astar__count_push(&c->stats);
  if (!c->open->len || astar__hless(&e, &c->open->a[0])) {
    if (!c->slot_full) {
      c->slot = e;
      c->slot_full = true;
      n->pos = ASTAR__IN_SLOT;
    } else if (astar__hless(&e, &c->slot)) {
      astar__heap_push(c->open, c->nd, c->slot);
      c->slot = e;
      n->pos = ASTAR__IN_SLOT;
    } else {
      astar__heap_push(c->open, c->nd, e);
    }
  } else {
    astar__heap_push(c->open, c->nd, e);
  }
  astar__count_open(&c->stats, c->open->len + c->slot_full);
}

/* One out-of-line copy per tie mode: a successor is rare next to the scans,
** and a dozen inlined copies of the heap code would crowd the scans out of
** the instruction cache. */
static ASTAR__NOINLINE void offer_lg(jps_ctx *c, int32_t x, int32_t y, double ng, uint32_t p) {
  offer_body(c, ASTAR_TIE_LARGER_G, false, x, y, ng, p);
}
static ASTAR__NOINLINE void offer_new(jps_ctx *c, int32_t x, int32_t y, double ng, uint32_t p) {
  offer_body(c, ASTAR_TIE_NEWEST, false, x, y, ng, p);
}
static ASTAR__NOINLINE void offer_cross(jps_ctx *c, int32_t x, int32_t y, double ng, uint32_t p) {
  offer_body(c, ASTAR_TIE_CROSS, false, x, y, ng, p);
}
/* The observed search's copy: the tie mode is read at run time there. */
static ASTAR__NOINLINE void offer_obs(jps_ctx *c, int32_t x, int32_t y, double ng, uint32_t p) {
  if (c->q->tie == ASTAR_TIE_LARGER_G)
    offer_body(c, ASTAR_TIE_LARGER_G, true, x, y, ng, p);
  else if (c->q->tie == ASTAR_TIE_NEWEST)
    offer_body(c, ASTAR_TIE_NEWEST, true, x, y, ng, p);
  else
    offer_body(c, ASTAR_TIE_CROSS, true, x, y, ng, p);
}
ASTAR__INLINE void offer(jps_ctx *c, const int tie, const bool obs, int32_t x, int32_t y, double ng,
                         uint32_t parent) {
  if (obs)
    offer_obs(c, x, y, ng, parent);
  else if (tie == ASTAR_TIE_LARGER_G)
    offer_lg(c, x, y, ng, parent);
  else if (tie == ASTAR_TIE_NEWEST)
    offer_new(c, x, y, ng, parent);
  else
    offer_cross(c, x, y, ng, parent);
}

/* Straight jump along row y from (x, y), east (dir > 0) or west; g0 is the
** cost at (x, y). With obs, the free cells scanned are reported first. */
ASTAR__INLINE void jump_h(jps_ctx *c, const int tie, const bool obs, const int dir, int32_t x,
                          int32_t y, double g0, uint32_t parent) {
  const uint64_t *r0 = c->rbits + (size_t)y * c->rwords;
  bool jp;
  int32_t e = dir > 0 ? scan_up(r0 - c->rwords, r0, r0 + c->rwords, (uint32_t)x, &jp)
                      : scan_down(r0 - c->rwords, r0, r0 + c->rwords, (uint32_t)x, &jp);
  /* The goal on the scanned stretch, the event included, comes first. */
  if (y == c->gy && (dir > 0 ? (uint32_t)(c->gx - x - 1) < (uint32_t)(e - x)
                             : (uint32_t)(x - c->gx - 1) < (uint32_t)(x - e))) {
    e = c->gx;
    jp = true;
  }
  if (obs)
    astar__emit_scan(c->q, (uint32_t)(y * c->stride + x), dir, 0,
                     (dir > 0 ? e - x : x - e) - (jp ? 0 : 1), g0, c->sc);
  if (jp) offer(c, tie, obs, e, y, g0 + (double)(dir > 0 ? e - x : x - e) * c->sc, parent);
}

/* Straight jump along column x from (x, y), south (dir > 0) or north. */
ASTAR__INLINE void jump_v(jps_ctx *c, const int tie, const bool obs, const int dir, int32_t x,
                          int32_t y, double g0, uint32_t parent) {
  const uint64_t *c0 = c->cbits + (size_t)x * c->cwords;
  bool jp;
  int32_t e = dir > 0 ? scan_up(c0 - c->cwords, c0, c0 + c->cwords, (uint32_t)y, &jp)
                      : scan_down(c0 - c->cwords, c0, c0 + c->cwords, (uint32_t)y, &jp);
  if (x == c->gx && (dir > 0 ? (uint32_t)(c->gy - y - 1) < (uint32_t)(e - y)
                             : (uint32_t)(y - c->gy - 1) < (uint32_t)(y - e))) {
    e = c->gy;
    jp = true;
  }
  if (obs)
    astar__emit_scan(c->q, (uint32_t)(y * c->stride + x), 0, dir,
                     (dir > 0 ? e - y : y - e) - (jp ? 0 : 1), g0, c->sc);
  if (jp) offer(c, tie, obs, x, e, g0 + (double)(dir > 0 ? e - y : y - e) * c->sc, parent);
}

/* Diagonal jump from u = (x, y) (cost gu) in direction (dx, dy): at every
** step, the two straight scans along the diagonal's components. Stops where
** the next diagonal move is illegal, or at the goal. */
ASTAR__INLINE void jump_d(jps_ctx *c, const int tie, const bool obs, const uint8_t *nbs,
                          const int dx, const int dy, int32_t x, int32_t y, uint32_t u, double gu) {
  const int dd = dx > 0 ? (dy < 0 ? ASTAR__NE : ASTAR__SE) : (dy < 0 ? ASTAR__NW : ASTAR__SW);
  const unsigned need =
      1u << dd | 1u << (dx > 0 ? ASTAR__E : ASTAR__W) | 1u << (dy > 0 ? ASTAR__S : ASTAR__N);
  const int32_t off = dy * c->stride + dx;
  const uint32_t goal = c->q->goal;
  uint32_t v = u;
  double k = 0.0;
  while ((nbs[v] & need) == need) {
    v = (uint32_t)((int32_t)v + off);
    x += dx;
    y += dy;
    k += 1.0;
    const double g = gu + k * c->dc;
    if (obs)
      astar__emit(c->q, ASTAR_EVENT_SCAN, v, u, g, g + astar__h(c->q, ASTAR__HK_OCTILE, x, y), 1);
    if (v == goal) {
      offer(c, tie, obs, x, y, g, u);
      return;
    }
    jump_h(c, tie, obs, dx, x, y, g, u);
    jump_v(c, tie, obs, dy, x, y, g, u);
  }
}

/* For straight arrival directions N, E, S, W: the two perpendicular
** directions, the diagonal cell behind each (blocked makes it forced) and
** the mask of the side and the diagonal turning towards it. */
static const uint8_t side_dir[4][2] = {
    {ASTAR__W, ASTAR__E}, {ASTAR__N, ASTAR__S}, {ASTAR__W, ASTAR__E}, {ASTAR__N, ASTAR__S}};
static const uint8_t behind_dir[4][2] = {
    {ASTAR__SW, ASTAR__SE}, {ASTAR__NW, ASTAR__SW}, {ASTAR__NW, ASTAR__NE}, {ASTAR__NE, ASTAR__SE}};
#define B(d) (1u << (d))
static const uint8_t forced_mask[4][2] = {{B(ASTAR__W) | B(ASTAR__NW), B(ASTAR__E) | B(ASTAR__NE)},
                                          {B(ASTAR__N) | B(ASTAR__NE), B(ASTAR__S) | B(ASTAR__SE)},
                                          {B(ASTAR__W) | B(ASTAR__SW), B(ASTAR__E) | B(ASTAR__SE)},
                                          {B(ASTAR__N) | B(ASTAR__NW), B(ASTAR__S) | B(ASTAR__SW)}};
/* Straight direction by [horizontal][positive step]. */
static const uint8_t straight_dir[2][2] = {{ASTAR__N, ASTAR__S}, {ASTAR__W, ASTAR__E}};
/* Each diagonal NE, SE, SW, NW with its straight components. */
static const uint8_t diag_mask[4] = {
    B(ASTAR__NE) | B(ASTAR__N) | B(ASTAR__E), B(ASTAR__SE) | B(ASTAR__S) | B(ASTAR__E),
    B(ASTAR__SW) | B(ASTAR__S) | B(ASTAR__W), B(ASTAR__NW) | B(ASTAR__N) | B(ASTAR__W)};
#undef B

/* Directions to search from u, given the parent: every legal move from the
** start, else the natural and forced directions of the arrival direction.
** Branch-free in the common case: which sides are forced is unpredictable. */
ASTAR__INLINE unsigned successor_dirs(const astar__query *q, unsigned nbu, int32_t ux, int32_t uy,
                                      uint32_t parent, int32_t stride) {
  if (parent == ASTAR__NO_PARENT) return q->moves[nbu];
  const int32_t py = (int32_t)(parent / (uint32_t)stride);
  const int32_t px = (int32_t)parent - py * stride;
  const int32_t dx = ux - px, dy = uy - py;
  const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  if (ASTAR__UNLIKELY(ax == ay)) { /* a diagonal arrival (only ever the goal) */
    const int d = dx > 0 ? (dy < 0 ? 0 : 1) : (dy < 0 ? 3 : 2);
    return diag_mask[d] & q->moves[nbu];
  }
  const unsigned horiz = ax > ay;
  const unsigned pos = ((unsigned)(dx > 0) & horiz) | ((unsigned)(dy > 0) & (horiz ^ 1u));
  const int d = straight_dir[horiz][pos];
  const unsigned f0 = (nbu >> side_dir[d][0]) & ~(nbu >> behind_dir[d][0]) & 1u;
  const unsigned f1 = (nbu >> side_dir[d][1]) & ~(nbu >> behind_dir[d][1]) & 1u;
  const unsigned dirs = 1u << d | ((0u - f0) & forced_mask[d][0]) | ((0u - f1) & forced_mask[d][1]);
  return dirs & q->moves[nbu];
}

/* The first move of the octile route by (sign dx + 1, sign dy + 1): the
** diagonal towards the goal's octant, or the straight move to it. */
static const uint8_t route_first[3][3] = {{ASTAR__NW, ASTAR__W, ASTAR__SW},
                                          {ASTAR__N, ASTAR__N, ASTAR__S},
                                          {ASTAR__NE, ASTAR__E, ASTAR__SE}};

/*
** The goal test at the start's expansion (Warthog's jps2, `jump_target`): when the first
** move of the octile route from u to the goal -- diagonal steps, then a
** straight run -- is among u's successor directions, every move of the
** route is legal and no jump point lies on its straight run before the
** goal, the goal is generated from u (g(u) plus the octile distance, so its
** f is u's: no path is cheaper) and u's scans are skipped. The scans in
** that direction would have generated the goal from u in the same way, with
** the same g: the goal's parent link -- the path -- is the one the scans
** give, and only expansions of nodes tied with the goal are saved. On an
** open map this replaces the start's eight scans (a straight scan per
** diagonal step) with one walk. Returns whether the goal was generated.
** Out of line, with the tie mode read at run time: it runs once a query.
*/
static ASTAR__NOINLINE bool goal_direct(jps_ctx *c, const int tie, const bool obs,
                                        const uint8_t *nbs, unsigned dirs, int32_t ux, int32_t uy,
                                        uint32_t u, double gu) {
  const int32_t rx = c->gx - ux, ry = c->gy - uy;
  const int32_t sx = (rx > 0) - (rx < 0), sy = (ry > 0) - (ry < 0);
  const int first = route_first[sx + 1][sy + 1];
  if (!((dirs >> first) & 1u)) return false;
  const int32_t ax = rx < 0 ? -rx : rx, ay = ry < 0 ? -ry : ry;
  const int32_t k = ax < ay ? ax : ay;
  const int32_t tx = ux + k * sx, ty = uy + k * sy; /* where the straight run starts */
  /* The straight run first (one block scan, the cheaper test): the very
  ** scan jump_h / jump_v makes from there, and its test of the goal. A jump
  ** point before the goal fails the test: the search then reaches the goal
  ** through it, and through ties maybe by other cells -- the paths stay
  ** exactly those of the scans. */
  bool jp;
  if (ax > ay) {
    const uint64_t *r0 = c->rbits + (size_t)ty * c->rwords;
    const int32_t e = sx > 0 ? scan_up(r0 - c->rwords, r0, r0 + c->rwords, (uint32_t)tx, &jp)
                             : scan_down(r0 - c->rwords, r0, r0 + c->rwords, (uint32_t)tx, &jp);
    if (!(sx > 0 ? (uint32_t)(c->gx - tx - 1) < (uint32_t)(e - tx)
                 : (uint32_t)(tx - c->gx - 1) < (uint32_t)(tx - e)))
      return false;
  } else if (ay > ax) {
    const uint64_t *c0 = c->cbits + (size_t)tx * c->cwords;
    const int32_t e = sy > 0 ? scan_up(c0 - c->cwords, c0, c0 + c->cwords, (uint32_t)ty, &jp)
                             : scan_down(c0 - c->cwords, c0, c0 + c->cwords, (uint32_t)ty, &jp);
    if (!(sy > 0 ? (uint32_t)(c->gy - ty - 1) < (uint32_t)(e - ty)
                 : (uint32_t)(ty - c->gy - 1) < (uint32_t)(ty - e)))
      return false;
  }
  if (k) { /* diagonal steps: target and both side cells free (the move's bits) */
    const unsigned need =
        1u << first | 1u << (sx > 0 ? ASTAR__E : ASTAR__W) | 1u << (sy > 0 ? ASTAR__S : ASTAR__N);
    const int32_t off = sy * c->stride + sx;
    uint32_t v = u;
    for (int32_t i = 0; i < k; i++, v = (uint32_t)((int32_t)v + off))
      if ((nbs[v] & need) != need) return false;
  }
  const double gt = gu + (double)k * c->dc;
  const int32_t m = ax > ay ? ax - ay : ay - ax;
  if (obs) {
    for (int32_t i = 1; i <= k; i++) {
      const int32_t x = ux + i * sx, y = uy + i * sy;
      const double g = gu + (double)i * c->dc;
      astar__emit(c->q, ASTAR_EVENT_SCAN, (uint32_t)(y * c->stride + x), u, g,
                  g + astar__h(c->q, ASTAR__HK_OCTILE, x, y), 1);
    }
    if (m)
      astar__emit_scan(c->q, (uint32_t)(ty * c->stride + tx), ax > ay ? sx : 0, ax > ay ? 0 : sy, m,
                       gt, c->sc);
  }
  offer(c, tie, obs, c->gx, c->gy, gt + (double)m * c->sc, u);
  return true;
}

/* The main loop; tie and obs (report events to q->fx->observer) are constants
** at each call site. Returns ASTAR_OK (goal popped), ASTAR_NO_PATH or
** ASTAR_LIMIT_REACHED. */
ASTAR__INLINE astar_status jps_loop(astar_workspace *ws, astar__query *q, const int tie,
                                    const bool obs) {
  const astar_grid *const grid = q->grid;
  jps_ctx c;
  c.q = q;
  c.nd = ws->node;
  c.mark = ws->mark;
  c.open = &ws->open;
  c.rbits = grid->rbits;
  c.cbits = grid->cbits;
  c.rwords = grid->rwords;
  c.cwords = grid->cwords;
  c.stride = grid->stride;
  c.gx = q->gx;
  c.gy = q->gy;
  c.sc = q->cost[ASTAR__E];
  c.dc = q->cost[ASTAR__NE];
  c.opened = (uint16_t)(ws->gen + ASTAR__OPEN);
  c.closed = (uint16_t)(ws->gen + ASTAR__CLOSED);
  c.slot_full = false;
  c.slot.f = c.slot.t = 0;
  c.seq = ws->seq;
  c.stats = q->stats;
  const uint8_t *const nbs = grid->nb;
  const uint32_t goal = q->goal;
  const int32_t stride = grid->stride;
  const uint64_t limit = q->max_expansions;
  astar_status st = ASTAR_NO_PATH;

  for (;;) {
    if (!c.slot_full && !c.open->len) break;
    if (limit && c.stats.expanded >= limit) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    uint32_t u;
    if (c.slot_full && (!c.open->len || astar__hless(&c.slot, &c.open->a[0]))) {
      u = ASTAR__HNODE(c.slot);
      c.slot_full = false;
    } else {
      u = ASTAR__HNODE(astar__heap_pop(c.open, c.nd));
    }
    c.mark[u] = c.closed;
    astar__count_expand(&c.stats);
    if (obs) {
      const uint32_t ey = u / (uint32_t)stride, ex = u - ey * (uint32_t)stride;
      const double eg = c.nd[u].g;
      q->stats.expanded = c.stats.expanded; /* for the events */
      astar__emit(q, u == goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, u, c.nd[u].parent, eg,
                  eg + astar__h(q, ASTAR__HK_OCTILE, (int32_t)ex, (int32_t)ey), 1);
    }
    if (u == goal) {
      st = ASTAR_OK;
      break;
    }
    const double gu = c.nd[u].g;
    const int32_t uy = (int32_t)(u / (uint32_t)stride);
    const int32_t ux = (int32_t)u - uy * stride;
    const unsigned nbu = nbs[u];
    const unsigned dirs = successor_dirs(q, nbu, ux, uy, c.nd[u].parent, stride);
    /* At the start only: once a query, where on an open map the eight
    ** scans are most of the work. At every node the failed tests cost more
    ** than they saved (callgrind: +1.0 % on maze512-1-0, +1.7 % on
    ** 32room_000, +1.9 % on Expedition; -8 % on Berlin_0_1024). */
    if (c.nd[u].parent == ASTAR__NO_PARENT && goal_direct(&c, tie, obs, nbs, dirs, ux, uy, u, gu))
      continue;
    if (dirs & 1u << ASTAR__N) jump_v(&c, tie, obs, -1, ux, uy, gu, u);
    if (dirs & 1u << ASTAR__E) jump_h(&c, tie, obs, 1, ux, uy, gu, u);
    if (dirs & 1u << ASTAR__S) jump_v(&c, tie, obs, 1, ux, uy, gu, u);
    if (dirs & 1u << ASTAR__W) jump_h(&c, tie, obs, -1, ux, uy, gu, u);
    if (dirs & 1u << ASTAR__NE) jump_d(&c, tie, obs, nbs, 1, -1, ux, uy, u, gu);
    if (dirs & 1u << ASTAR__SE) jump_d(&c, tie, obs, nbs, 1, 1, ux, uy, u, gu);
    if (dirs & 1u << ASTAR__SW) jump_d(&c, tie, obs, nbs, -1, 1, ux, uy, u, gu);
    if (dirs & 1u << ASTAR__NW) jump_d(&c, tie, obs, nbs, -1, -1, ux, uy, u, gu);
  }
  q->stats = c.stats;
  ws->seq = c.seq;
  return st;
}

astar_status astar__jps_find_path(astar_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  astar_point *path, size_t cap, astar_result *result) {
  if (!astar__jump_rules_ok(opt, grid)) return ASTAR_UNSUPPORTED;
  astar__query q;
  bool trivial;
  astar_status st = astar__begin(&q, ws, grid, opt, start, goal, &trivial);
  if (st != ASTAR_OK) return st;
  if (opt->observer) {
    /* One instance with the events, apart from the plain ones. */
    astar__observe_start(&q, opt, trivial);
    if (!trivial) st = jps_loop(ws, &q, q.tie, true);
  } else if (!trivial) {
    switch (q.tie) {
    case ASTAR_TIE_LARGER_G:
      st = jps_loop(ws, &q, ASTAR_TIE_LARGER_G, false);
      break;
    case ASTAR_TIE_NEWEST:
      st = jps_loop(ws, &q, ASTAR_TIE_NEWEST, false);
      break;
    default:
      st = jps_loop(ws, &q, ASTAR_TIE_CROSS, false);
      break;
    }
  }
  return astar__end(&q, ws, st, path, cap, result);
}
