/*
** spaces/grid_space.c -- the square grid as a search space
** (astar/grid_space.h): node y * width + x, the moves, corner rule, move
** costs and terrain of a set of astar_options, and the grid's built-in
** heuristics. Predecessors are the successors with the cost of the
** reverse arc: every corner rule is symmetric (a diagonal's side cells are
** the same both ways), and a move costs the move's cost times the terrain
** of the cell it enters. The arcs and the heuristic are inline functions
** in spaces/grid_space.h, which the engine's grid-space fast path calls
** directly.
*/
#include "spaces/grid_space.h"

#include "core/workspace.h"

#include "astar/grid_space.h"

static size_t successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return astar__gs_arcs(self, v, arcs, cap, false);
}

static size_t predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return astar__gs_arcs(self, v, arcs, cap, true);
}

static double heuristic(const void *self, astar_node a, astar_node b) {
  return astar__gs_h(self, a, b);
}

static bool usable(const void *self, astar_node v) {
  const astar_grid_space *gs = self;
  return gs->grid->pass[astar__gs_padded(gs, v)] != 0;
}

static bool position(const void *self, astar_node v, double xyz[3]) {
  const astar_grid_space *gs = self;
  const uint32_t y = astar__gs_row(gs, v);
  xyz[0] = (double)(v - y * (uint32_t)gs->width);
  xyz[1] = (double)y;
  xyz[2] = 0.0;
  return true;
}

static uint64_t version(const void *self) {
  return ((const astar_grid_space *)self)->grid->version;
}

/* The engine computes successors, predecessors and heuristic inline from
** the grid when the ops declare it (ASTAR_ABILITY_GRID_SPACE:
** spaces/grid_space.h); the arcs need no check (the top of that file). */
static const astar_space_ops grid_space_ops = {successors,
                                               predecessors,
                                               heuristic,
                                               usable,
                                               position,
                                               version,
                                               ASTAR_ABILITY_GRID_SPACE |
                                                   ASTAR_ABILITY_CHECKED_ARCS};

astar_status astar_grid_space_init(astar_space *out, astar_grid_space *holder,
                                   const astar_grid *grid, const astar_options *opt) {
  astar_options defaults;
  if (!out || !holder || !grid) return ASTAR_INVALID_ARGUMENT;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  return astar__grid_space_init_checked(out, holder, grid, opt);
}

astar_status astar__grid_space_init_checked(astar_space *out, astar_grid_space *holder,
                                            const astar_grid *grid, const astar_options *opt) {
  if (opt->heuristic == ASTAR_H_CALLBACK) return ASTAR_INVALID_ARGUMENT;
  memset(holder, 0, sizeof *holder);
  holder->grid = grid;
  holder->width = grid->width;
  holder->wdiv = UINT64_MAX / (uint64_t)grid->width + 1; /* width 1: unused */
  holder->rule = astar__rule_of(opt);
  astar__move_costs(grid, opt, holder->cost); /* the grid searches' costs: same sums, same ties */
  /* The grid searches' heuristic, unweighted (the engine has its own
  ** weight): same kinds, same coefficients, so the same values. */
  astar_options unweighted = *opt;
  unweighted.weight = 1.0;
  unweighted.terrain_scale = 1.0; /* the space's costs are the exact terrain */
  unweighted.knowledge = NULL;
  astar__query q;
  memset(&q, 0, sizeof q);
  memcpy(q.cost, holder->cost, sizeof q.cost);
  astar__setup_heuristic(&q, &unweighted, grid);
  holder->hkind = q.hkind;
  holder->ha = q.ha;
  holder->hb = q.hb;
  memset(out, 0, sizeof *out);
  out->ops = &grid_space_ops;
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
