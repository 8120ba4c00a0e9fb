/*
** spaces/grid_space.h -- the square grid as a space (astar/grid_space.h):
** its arcs and heuristic as inline functions. spaces/grid_space.c builds
** the space's callbacks from them; the engine (engine/search.c,
** engine/bidirectional.c) calls them directly when it searches a space whose
** ops declare ASTAR_ABILITY_GRID_SPACE (astar/space.h; engine/engine.h's
** astar__engine_grid_fast) -- the grid-space fast path: the same code, so
** the same arcs in the same order, the same costs and the same heuristic
** values bit for bit, without an indirect call per node and per arc.
**
** Arcs of this space need no checks: a move is listed only when it is legal
** (the target cell is passable, so inside the grid: the padding border is
** blocked), and a cost is a validated move cost (<= ASTAR_OPTION_MAX) times
** a validated terrain factor (<= ASTAR_TERRAIN_MAX): finite and > 0.
*/
#ifndef ASTAR_SPACES_GRID_SPACE_H
#define ASTAR_SPACES_GRID_SPACE_H

#include "search/query.h"

#include "astar/grid_space.h"

/* astar_grid_space_init for a caller that has validated `opt` (not NULL;
** out, holder and grid not NULL): the finder, which validates once when a
** query is prepared and derives the space again when the grid changes. */
astar_status astar__grid_space_init_checked(astar_space *out, astar_grid_space *holder,
                                            const astar_grid *grid, const astar_options *opt);

/* The directions allowed from a cell whose neighbour byte is nb, as a
** mask: the four straight moves to passable cells, and the diagonals the
** rule allows given their side cells (N/E for NE, S/E for SE, S/W for SW,
** N/W for NW). */
ASTAR__INLINE unsigned astar__gs_legal(int rule, unsigned nb) {
  const unsigned n = nb & 1u, e = (nb >> 1) & 1u, s = (nb >> 2) & 1u, w = (nb >> 3) & 1u;
  unsigned sides;
  switch (rule) {
  case ASTAR__RULE_STRAIGHT:
    return nb & 0xfu;
  case ASTAR__RULE_NO_CUT:
    sides = (n & e) | (s & e) << 1 | (s & w) << 2 | (n & w) << 3;
    break;
  case ASTAR__RULE_ONE_SIDE:
    sides = (n | e) | (s | e) << 1 | (s | w) << 2 | (n | w) << 3;
    break;
  default:
    sides = 0xfu;
    break;
  }
  return (nb & 0xfu) | (nb & (sides << 4));
}

/* Row of node v: v / width by a multiply (exact for every 32-bit v; Lemire,
** Kaser & Kurz 2019) -- a division would cost more than the rest of a
** heuristic call. */
ASTAR__INLINE uint32_t astar__gs_row(const astar_grid_space *gs, astar_node v) {
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
  if (gs->width > 1) return (uint32_t)(((unsigned __int128)gs->wdiv * v) >> 64);
#elif defined(__wasm__)
  /* wasm32 has no 64x64->128 multiply (clang calls __multi3): the same high
  ** word from two 64-bit products, wdiv = hi:lo. hi*v + (lo*v >> 32) is at
  ** most (2^32-1)^2 + 2^32-2 < 2^64, so nothing overflows and the row is
  ** the 128-bit formula's, bit for bit. */
  if (gs->width > 1) {
    const uint64_t hi = gs->wdiv >> 32, lo = gs->wdiv & 0xffffffffu;
    return (uint32_t)((hi * v + (lo * v >> 32)) >> 32);
  }
#endif
  return v / (uint32_t)gs->width;
}

/* Padded index of node v. */
ASTAR__INLINE uint32_t astar__gs_padded(const astar_grid_space *gs, astar_node v) {
  const uint32_t y = astar__gs_row(gs, v), x = v - y * (uint32_t)gs->width;
  return (y + 1) * (uint32_t)gs->grid->stride + x + 1;
}

/* Both directions: the arcs to (successors) or from (predecessors) the
** neighbours of v cost the move times the terrain of the cell entered --
** the neighbour for successors, v itself for predecessors. */
ASTAR__INLINE size_t astar__gs_arcs(const astar_grid_space *gs, astar_node v, astar_arc *arcs,
                                    size_t cap, const bool incoming) {
  const astar_grid *g = gs->grid;
  const uint32_t p = astar__gs_padded(gs, v);
  if (!g->pass[p]) return 0;
  unsigned m = astar__gs_legal(gs->rule, g->nb[p]);
  const int32_t w = gs->width;
  const float *ter = g->terrain;
  size_t n = 0;
  while (m && n < cap) {
    const int d = __builtin_ctz(m);
    m &= m - 1;
    const int32_t dv = astar__dir_dy[d] * w + astar__dir_dx[d];
    const astar_node u = (astar_node)((int32_t)v + dv);
    const uint32_t pu = (uint32_t)((int32_t)p + astar__dir_dy[d] * g->stride + astar__dir_dx[d]);
    double c = gs->cost[d];
    if (ter) c *= (double)ter[incoming ? p : pu];
    arcs[n].node = u;
    arcs[n].cost = c;
    n++;
  }
  return n;
}

/* The heuristic from a to b: the grid searches' own kinds and
** coefficients (finite, >= 0). */
ASTAR__INLINE double astar__gs_h(const astar_grid_space *gs, astar_node a, astar_node b) {
  const uint32_t w = (uint32_t)gs->width, ra = astar__gs_row(gs, a), rb = astar__gs_row(gs, b);
  const int32_t ax = (int32_t)(a - ra * w), ay = (int32_t)ra;
  const int32_t bx = (int32_t)(b - rb * w), by = (int32_t)rb;
  const int32_t ddx = ax > bx ? ax - bx : bx - ax, ddy = ay > by ? ay - by : by - ay;
  const double dx = (double)ddx, dy = (double)ddy;
  switch (gs->hkind) {
  case ASTAR__HK_OCTILE:
    return gs->ha * (dx + dy) + gs->hb * (double)(ddx < ddy ? ddx : ddy);
  case ASTAR__HK_MANHATTAN:
    return gs->ha * (dx + dy);
  case ASTAR__HK_CHEBYSHEV:
    return gs->ha * (double)(ddx > ddy ? ddx : ddy);
  case ASTAR__HK_EUCLIDEAN:
    return gs->ha * sqrt(dx * dx + dy * dy);
  default:
    return 0.0;
  }
}

#endif /* ASTAR_SPACES_GRID_SPACE_H */
