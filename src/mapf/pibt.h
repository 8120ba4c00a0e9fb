/*
** mapf/pibt.h -- PIBT's one-step configuration generator (pibt.c), shared by
** the PIBT solver and by LaCAM / LaCAM* (lacam.c), which use it to make the
** successors of a configuration under low-level constraints.
*/
#ifndef ASTAR_SRC_MAPF_PIBT_H
#define ASTAR_SRC_MAPF_PIBT_H

#include "mapf.h"

#define MAPF_NONE UINT32_MAX /* no agent / no cell */

/* The seeded generator of the MAPF solvers' random choices: splitmix64, so
** that a seed gives the same sequence on every platform. */
static inline uint64_t mapf_rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
/* Uniform in [0, 1) with 24 bits (exact in a float). */
static inline float mapf_rng_unit(uint64_t *s) {
  return (float)(mapf_rng_next(s) >> 40) * (1.0f / 16777216.0f);
}
/* Uniform in [0, n) (n >= 1; the tiny modulo bias does not matter here). */
static inline uint32_t mapf_rng_below(uint64_t *s, uint32_t n) {
  return (uint32_t)(mapf_rng_next(s) % n);
}

/* The map as an adjacency table: nb[4 * cell + k] for k < deg[cell] are the
** passable neighbours of `cell` in mapf_neighbour's order (N, E, S, W). */
typedef struct mapf_graph {
  uint32_t *nb;
  uint8_t *deg;
} mapf_graph;

/* One PIBT generator. occ_now / occ_next are all MAPF_NONE between calls
** (each call cleans up after itself), so a call costs O(agents), not
** O(cells). */
typedef struct mapf_pibt {
  mapf_ctx *c;
  uint32_t n;
  const uint32_t *goal;
  mapf_graph g;
  uint32_t *occ_now;  /* cells: the agent at the cell in Q_from */
  uint32_t *occ_next; /* cells: the agent that reserved the cell in Q_to */
  const uint32_t *from;
  uint32_t *to;
  uint64_t rng;
  bool swap;       /* the swap technique of LaCAM* (IJCAI 2023) */
  astar_status st; /* ASTAR_OK, or what a distance query failed with */
  uint64_t work;   /* agent decisions made (the unit of low-level work) */
} mapf_pibt;

/* Builds the adjacency table and the generator's arrays in scratch slots
** slot .. slot + 2 (three slots). Returns ASTAR_OK or the scratch's status. */
astar_status mapf_pibt_init(mapf_pibt *pb, mapf_ctx *c, unsigned slot, uint64_t seed);

/* One step: Q_to[i] == MAPF_NONE for the agents to plan, a cell (a
** neighbour of from[i] or from[i] itself) for the constrained ones. Agents
** are planned in `order` (all n agents, highest priority first). Returns
** true and a full, conflict-free Q_to when every agent of `order` got a cell
** without failing at the top level (fail_top: an agent whose own PIBT call
** fails -- it then stays -- makes the call fail when fail_top is true, as
** LaCAM needs; the PIBT solver lets it wait). False also when the
** constraints conflict, or pb->st != ASTAR_OK. */
bool mapf_pibt_step(mapf_pibt *pb, const uint32_t *from, uint32_t *to, const uint32_t *order,
                    bool fail_top);

/* Writes the paths of the configurations cfg[0 .. steps] (n cells each) to
** c->out, each trimmed at its agent's arrival; buf holds steps + 1 points.
** Returns ASTAR_OK or the solution's status. */
astar_status mapf_write_paths(mapf_ctx *c, const uint32_t *const *cfg, uint32_t steps,
                              astar_point *buf);

#endif /* ASTAR_SRC_MAPF_PIBT_H */
