/*
** spaces/grid_space.c -- the square grid as a search space
** (astar/grid_space.h): node y * width + x, the moves, corner rule, move
** costs and terrain of a set of astar_options, and the grid's built-in
** heuristics. Predecessors are the successors with the cost of the
** reverse arc: every corner rule is symmetric (a diagonal's side cells are
** the same both ways), and a move costs the move's cost times the terrain
** of the cell it enters.
*/
#include "core/workspace.h"

#include "astar/grid_space.h"

/* The directions allowed from a cell whose neighbour byte is nb, as a
** mask: the four straight moves to passable cells, and the diagonals the
** rule allows given their side cells (N/E for NE, S/E for SE, S/W for SW,
** N/W for NW). */
ASTAR__INLINE unsigned legal(int rule, unsigned nb) {
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
ASTAR__INLINE uint32_t row(const astar_grid_space *gs, astar_node v) {
#if defined(__SIZEOF_INT128__)
  if (gs->width > 1) return (uint32_t)(((unsigned __int128)gs->wdiv * v) >> 64);
#endif
  return v / (uint32_t)gs->width;
}

/* Padded index of node v. */
ASTAR__INLINE uint32_t padded(const astar_grid_space *gs, astar_node v) {
  const uint32_t y = row(gs, v), x = v - y * (uint32_t)gs->width;
  return (y + 1) * (uint32_t)gs->grid->stride + x + 1;
}

/* Both directions: the arcs to (successors) or from (predecessors) the
** neighbours of v cost the move times the terrain of the cell entered --
** the neighbour for successors, v itself for predecessors. */
ASTAR__INLINE size_t arcs_of(const astar_grid_space *gs, astar_node v, astar_arc *arcs, size_t cap,
                             const bool incoming) {
  const astar_grid *g = gs->grid;
  const uint32_t p = padded(gs, v);
  if (!g->pass[p]) return 0;
  unsigned m = legal(gs->rule, g->nb[p]);
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

static size_t successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, false);
}

static size_t predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, true);
}

static double heuristic(const void *self, astar_node a, astar_node b) {
  const astar_grid_space *gs = self;
  const uint32_t w = (uint32_t)gs->width, ra = row(gs, a), rb = row(gs, b);
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

static bool usable(const void *self, astar_node v) {
  const astar_grid_space *gs = self;
  return gs->grid->pass[padded(gs, v)] != 0;
}

static bool position(const void *self, astar_node v, double xyz[3]) {
  const astar_grid_space *gs = self;
  const uint32_t y = row(gs, v);
  xyz[0] = (double)(v - y * (uint32_t)gs->width);
  xyz[1] = (double)y;
  xyz[2] = 0.0;
  return true;
}

static const astar_space_ops grid_ops = {successors, predecessors, heuristic, usable, position};

astar_status astar_grid_space_init(astar_space *out, astar_grid_space *holder,
                                   const astar_grid *grid, const astar_options *opt) {
  astar_options defaults;
  if (!out || !holder || !grid) return ASTAR_INVALID_ARGUMENT;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK || opt->heuristic == ASTAR_H_CALLBACK)
    return ASTAR_INVALID_ARGUMENT;
  memset(holder, 0, sizeof *holder);
  holder->grid = grid;
  holder->width = grid->width;
  holder->wdiv = UINT64_MAX / (uint64_t)grid->width + 1; /* width 1: unused */
  holder->rule = astar__rule_of(opt);
  for (int d = 0; d < 8; d++) holder->cost[d] = d < 4 ? opt->straight_cost : opt->diagonal_cost;
  /* The grid searches' heuristic, unweighted (the engine has its own
  ** weight): same kinds, same coefficients, so the same values. */
  astar_options unweighted = *opt;
  unweighted.weight = 1.0;
  unweighted.terrain_scale = 1.0; /* the space's costs are the exact terrain */
  unweighted.knowledge = NULL;
  astar__query q;
  memset(&q, 0, sizeof q);
  astar__setup_heuristic(&q, &unweighted, grid);
  holder->hkind = q.hkind;
  holder->ha = q.ha;
  holder->hb = q.hb;
  memset(out, 0, sizeof *out);
  out->ops = &grid_ops;
  out->self = holder;
  out->node_count = (uint32_t)grid->width * (uint32_t)grid->height;
  out->max_degree = 8;
  /* Octile, Chebyshev and Euclidean are consistent under every rule
  ** (scaled by the terrain floor); Manhattan only without diagonals. */
  const bool diag = astar__diagonals_on(opt);
  const bool floor_raised = opt->heuristic_floor > (double)grid->min_terrain;
  const bool consistent = (q.hkind != ASTAR__HK_MANHATTAN || !diag) && !floor_raised;
  out->flags = consistent ? ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT : 0;
  return ASTAR_OK;
}

astar_node astar_grid_space_node(const astar_grid_space *gs, astar_point cell) {
  return (astar_node)cell.y * (astar_node)gs->width + (astar_node)cell.x;
}

astar_point astar_grid_space_cell(const astar_grid_space *gs, astar_node node) {
  const astar_point p = {(int32_t)(node % (uint32_t)gs->width),
                         (int32_t)(node / (uint32_t)gs->width)};
  return p;
}
