/*
** mapf/mapf.h -- what the multi-agent solvers share (astar/mapf.h): the
** problem's layout, the solve context handed to every algorithm, the lazy
** distance tables, the limits, the scratch arena.
**
** One table (solve.c) holds a row per astar_mapf_algo: its name, summary,
** flags and entry function. astar_mapf_solve checks the options once,
** builds the context and calls the row's function; adding an algorithm is
** its file, its enum value and its row.
*/
#ifndef ASTAR_SRC_MAPF_H
#define ASTAR_SRC_MAPF_H

#include "astar/mapf.h"

/* The problem: cells numbered y * w + x; passable[c] is 0 or 1. */
struct astar_mapf_problem {
  astar_allocator alloc;
  int32_t w, h;
  uint32_t cells;    /* w * h */
  uint32_t n;        /* agents */
  uint8_t *passable; /* cells bytes */
  uint32_t *start;   /* n cell numbers */
  uint32_t *goal;    /* n cell numbers */
  size_t memory;
};

/* Distances to each agent's goal (4-connected, ignoring agents), filled
** lazily: an agent's table is allocated and its BFS (from the goal) run
** on first use, lacam3-style, so solvers that only ask about a few cells
** of a few agents do not pay for N full tables. MAPF_DIST_INF: unreachable. */
#define MAPF_DIST_INF UINT32_MAX
typedef struct mapf_dist mapf_dist;

/* The context of one solve: what every algorithm reads and writes. */
typedef struct mapf_ctx {
  const astar_mapf_problem *p;
  const astar_mapf_options *o; /* checked */
  astar_mapf_solver *solver;   /* its scratch (see the arena below) */
  astar_mapf_solution *out;    /* cleared; the algorithm writes the paths */
  astar_mapf_stats *stats;     /* zeroed, lower_bound filled; the algorithm fills
                                  high_level, low_level, optimal, bound, improvements;
                                  solve.c fills the rest from `out` */
  mapf_dist *dist;             /* distances to goals */
  double t_begin;              /* clock at the solve's start */
  uint32_t tick;               /* calls since the clock was last read */
  bool out_of_time;            /* the time limit was seen run out (latched) */
  bool over_memory;            /* an allocation was refused for options.max_memory */
} mapf_ctx;

/* Distance from `cell` to agent a's goal; MAPF_DIST_INF when unreachable.
** May run the agent's BFS (allocating its table) on first use, and goes
** on with it just as far as `cell` needs (the search is resumable): returns
** MAPF_DIST_INF and sets *st (ASTAR_NO_MEMORY, or ASTAR_LIMIT_REACHED over
** options.max_memory) when that fails; *st is untouched otherwise. Memory:
** 4 bytes a cell per agent asked about (its queue holds the frontier only). */
uint32_t mapf_dist_get(mapf_ctx *c, uint32_t agent, uint32_t cell, astar_status *st);

/* The limits. Call once per unit of work (a node, an expansion, an
** agent-step) with the work done so far; reads the clock every 1024 calls
** (and on the first). Returns true when the time limit has run out (then
** for ever), when work_done >= options.max_work (> 0), or when the scratch
** held exceeds options.max_memory (> 0). */
bool mapf_out_of_limits(mapf_ctx *c, uint64_t work_done);
/* Seconds since the solve began. */
double mapf_elapsed(mapf_ctx *c);

/* A solution found: the caller has written `out`; records time_first,
** improvements, calls options.on_improve. */
void mapf_report_solution(mapf_ctx *c);

/* Scratch from the solver, kept between solves: a named slot per algorithm
** so the memory grows to the largest problem and is reused. `bytes` is
** the size wanted; the slot grows (old contents kept) when smaller.
** Counts toward stats.peak_memory and options.max_memory (ASTAR_LIMIT_REACHED
** when over). Returns NULL with *st set on failure. */
void *mapf_scratch(mapf_ctx *c, unsigned slot, size_t bytes, astar_status *st);
#define MAPF_SCRATCH_SLOTS 32

/* A block for this solve only, from the solver's allocator, counted like
** the slots (peak_memory, max_memory: *st = ASTAR_LIMIT_REACHED when over,
** ASTAR_NO_MEMORY when the allocator fails; NULL then). Give it back with
** mapf_free (same size) before the entry function returns. bytes > 0. */
void *mapf_alloc(mapf_ctx *c, size_t bytes, astar_status *st);
/* Resize such a block (contents kept up to the smaller size); NULL with
** *st set on failure, the old block then kept. */
void *mapf_realloc(mapf_ctx *c, void *p, size_t old_bytes, size_t new_bytes, astar_status *st);
void mapf_free(mapf_ctx *c, void *p, size_t bytes);
/* An allocator for library objects an algorithm makes during the solve
** (a grid, a reservation table, ...): the solver's, counted and capped the
** same way; a refusal for max_memory sets c->over_memory (the object then
** reports ASTAR_NO_MEMORY: read it as ASTAR_LIMIT_REACHED). Free those
** objects before the entry function returns. */
astar_allocator mapf_allocator(mapf_ctx *c);

/* The distance tables' life (solve.c): made empty before the entry
** function is called, freed after it returns. */
astar_status mapf_dist_new(mapf_ctx *c);
void mapf_dist_free(mapf_ctx *c);

/* The 4 moves in the order every solver generates them: N, E, S, W; the
** neighbour of `cell` in direction d, or UINT32_MAX off the map / blocked. */
uint32_t mapf_neighbour(const astar_mapf_problem *p, uint32_t cell, unsigned d);

/* The library's seeded generator (random.c): xoshiro256** whose state is
** the first four outputs of splitmix64 from `seed` -- the same stream on
** every platform. below(r, range): uniform in [0, range), range >= 1,
** without modulo bias (draws under 2^64 mod range are rejected). */
typedef struct mapf_rng {
  uint64_t s[4];
} mapf_rng;
void mapf_rng_seed(mapf_rng *r, uint64_t seed);
uint64_t mapf_rng_next(mapf_rng *r);
uint64_t mapf_rng_below(mapf_rng *r, uint64_t range);

/* Entry points of the algorithms (one file each). */
astar_status mapf_pibt_solve(mapf_ctx *c);
astar_status mapf_lacam_solve(mapf_ctx *c); /* lacam and lacam-star (o->algo says) */
astar_status mapf_cbs_solve(mapf_ctx *c);   /* cbs and eecbs (o->algo says) */
astar_status mapf_prioritized_solve(mapf_ctx *c);

#endif /* ASTAR_SRC_MAPF_H */
