/*
** mapf/pibt.h -- PIBT's one-step configuration generator (pibt.c), shared by
** the PIBT solver and by LaCAM / LaCAM* (lacam.c), which use it to make the
** successors of a configuration under low-level constraints.
*/
#ifndef ASTAR_SRC_MAPF_PIBT_H
#define ASTAR_SRC_MAPF_PIBT_H

#include "mapf.h"

#define MAPF_NONE UINT32_MAX /* no agent / no cell */

/* Uniform in [0, 1) with 24 bits (exact in a float), from the library's
** seeded generator (mapf.h). */
static inline float mapf_rng_unit(mapf_rng *r) {
  return (float)(mapf_rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

/* The map as an adjacency table: nb[4 * cell + k] for k < deg[cell] are the
** passable neighbours of `cell` in mapf_neighbour's order (N, E, S, W). */
typedef struct mapf_graph {
  uint32_t *nb;
  uint8_t *deg;
} mapf_graph;

/* Scatter (scatter.c): the next cell of each agent's spread-out path. */
typedef struct mapf_scatter {
  uint64_t *keys; /* (agent << 32 | cell), UINT64_MAX: empty */
  uint32_t *vals; /* the next cell */
  uint32_t mask;
  uint64_t work; /* A* expansions it took */
} mapf_scatter;

/* Builds it in scratch slots 8 .. 15 (rounds of single-agent A* around
** the others' paths while the collisions drop; stops early, keeping what
** it has, when the limits run out). Returns ASTAR_OK or a scratch status. */
astar_status mapf_scatter_build(mapf_scatter *out, mapf_ctx *c, const mapf_graph *g, uint64_t seed);
/* Agent's next cell after `cell` on its path, or MAPF_NONE. */
uint32_t mapf_scatter_next(const mapf_scatter *sc, uint32_t agent, uint32_t cell);

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
  mapf_rng rng;
  bool swap;              /* the swap technique of LaCAM* (IJCAI 2023) */
  const mapf_scatter *sc; /* NULL, or the cell each agent tries first */
  astar_status st;        /* ASTAR_OK, or what a distance query failed with */
  uint64_t work;          /* agent decisions made (the unit of low-level work) */
  uint32_t depth;         /* of the priority-inheritance recursion */
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

/* The refiner of LaCAM* (lns.c): a solution as per-agent paths, improved a
** few agents at a time by space-time A* around the others. */
typedef struct mapf_lns {
  mapf_ctx *c;
  uint32_t n;
  const mapf_graph *g;
  mapf_rng rng;
  astar_status st;
  bool loaded;
  uint64_t soc;           /* of the paths held */
  uint32_t *off, *len;    /* n: agent i's path = pool[off .. off + len) (len = cost + 1) */
  uint32_t *order;        /* n: a shuffled order; groups are consecutive runs of it */
  uint32_t *out_of_table; /* n: 1 while the agent's path is out of the table */
  uint32_t *holder;       /* cells: the agent whose goal it is, or MAPF_NONE */
  uint32_t next, group;   /* the next group's start in order, the group size */
  uint32_t *pool;
  size_t pool_n, pool_cap;
  uint64_t *keys; /* the (time, cell) -> agent table */
  uint32_t *vals;
  uint32_t mask, used;
  uint32_t horizon; /* the longest path's cost */
  /* the space-time A* */
  void *nodes, *open;
  uint32_t nodes_n, open_n;
  uint64_t *seen;
  size_t seen_cap;
  uint32_t *tmp_path;
  uint32_t arrive_after;    /* the agent planned cannot arrive at or before this time */
  uint64_t work, work_base; /* expansions; work_base: the caller's work before */
} mapf_lns;

/* Slots 0 .. 7 (free during a LaCAM solve). Returns ASTAR_OK or the
** scratch's status. */
astar_status mapf_lns_init(mapf_lns *r, mapf_ctx *c, const mapf_graph *g, uint64_t seed);
/* Takes the solution cfg rows[0 .. steps] (trimmed at arrivals). False on
** a scratch failure (r->st). */
bool mapf_lns_load(mapf_lns *r, const uint32_t *const *rows, uint32_t steps);
/* One group replanned: 1 when the SOC dropped, 0 when not, -1 on a scratch
** failure (r->st); stops early (0) when the limits run out. */
int mapf_lns_step(mapf_lns *r);
/* The paths to c->out; buf holds the longest path. */
astar_status mapf_lns_write(mapf_lns *r, astar_point *buf);

/* A priority and its agent, for mapf_sort_order. */
typedef struct mapf_order_key {
  float pri;
  uint32_t agent;
} mapf_order_key;

/* Sorts k[0 .. n) by priority, highest first, equal priorities by agent
** number (a total order); in place, no allocation. Shared by PIBT and LaCAM. */
void mapf_sort_order(mapf_order_key *k, uint32_t n);

#endif /* ASTAR_SRC_MAPF_PIBT_H */
