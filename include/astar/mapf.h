/*
** astar/mapf.h -- multi-agent pathfinding (MAPF): many agents, each from
** its start to its goal, none colliding. Patel 5.4 ("predicting other
** units' motion") taken to its research form.
**
** The model (the Moving AI MAPF benchmark's, Stern et al. SoCS 2019):
**   - a 4-connected grid of passable cells (terrain costs and diagonal
**     moves do not apply); time is counted in integer steps;
**   - at every step each agent either waits or moves to one of its four
**     neighbours; every agent occupies exactly one cell at every time;
**   - vertex conflict: two agents in one cell at one time; swap (edge)
**     conflict: two agents exchange cells during one step. Both are
**     forbidden. Following (a enters the cell b leaves in the same step)
**     is allowed;
**   - once an agent has arrived it stays at its goal for ever (the last
**     cell of its path holds at every later time), so no agent may enter
**     that cell afterwards;
**   - an agent's cost is its arrival time: the smallest t such that it is
**     at its goal at t and at every later time (it may pass its goal
**     earlier and leave again). Sum of costs (SOC) = sum of the agents'
**     costs; makespan = the largest. The lower bound is the sum of each
**     agent's single-agent distance (4-connected BFS) to its goal.
**
** Cells are numbered y * width + x where a number is needed. Paths are
** timed: path[t] is the agent's cell at time t, path[0] its start; a path
** made by the solvers ends at the agent's arrival (length = cost + 1).
**
** Objects:
**   astar_mapf_problem  a map and N (start, goal) pairs; read-only once made.
**   astar_mapf_solution N timed paths; written by a solver or by the caller.
**   astar_mapf_solver   per-thread scratch of the solvers; grows to the
**                       largest problem solved and keeps its memory.
**
** Algorithms (astar_mapf_algo; one table names them, every caller -- the
** tool, Python, JavaScript -- reads it through astar_mapf_algo_from_name):
**   pibt         PIBT, priority inheritance with backtracking (Okumura et al.
**                2019/2022) with the swap technique of LaCAM*: one step for
**                all agents at a time until all are at their goals at once;
**                fast, incomplete, suboptimal. max_steps 0: max(1024,
**                width + height + agents); max_work counts agent decisions.
**   lacam        LaCAM (Okumura, AAAI 2023): a search over configurations
**                with PIBT generating successors, guided by spread-out
**                single-agent paths (lacam3's "scatter", at most half the
**                time limit); complete, suboptimal; stops at its first
**                solution. max_work counts high-level iterations, PIBT's
**                agent decisions and the expansions of the paths' A*.
**   lacam-star   LaCAM* (Okumura, IJCAI 2023): LaCAM that goes on after the
**                first solution, improving it until the limits run out or
**                the search space is exhausted (then optimal, proven by a
**                last exact search over the configurations explored), with
**                a refiner (large neighbourhood search: a few agents
**                replanned around the others) sharing the work; each
**                improvement is reported (astar_mapf_options.on_improve).
**   cbs          Conflict-Based Search (Sharon et al. 2015) with prioritised
**                conflicts, bypass and an admissible high-level heuristic:
**                optimal in sum of costs.
**   eecbs        Explicit Estimation CBS (Li, Ruml, Koenig 2021): bounded-
**                suboptimal, SOC <= w * optimal.
**   prioritized  prioritised planning: agents in order (index order; a
**                seeded shuffle when options.seed != 0), each a space-time
**                A* around the paths of the agents before it, which hold
**                their goals (the baseline); window W > 0 makes it
**                windowed cooperative A* (Silver's WHCA*: plans W steps
**                ahead, all agents follow W / 2 of them, then plan again).
**                Incomplete, suboptimal: an agent that finds no path within
**                the horizon (max_steps; 0: max(1024, longest single-agent
**                distance + width + height + agents)) ends the solve with
**                ASTAR_LIMIT_REACHED. Work: states expanded.
*/
#ifndef ASTAR_MAPF_H
#define ASTAR_MAPF_H

#include "base.h"
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_MAPF_MAX_AGENTS (1u << 20) /* most agents a problem may have */

/* ---- algorithms ------------------------------------------------------------------ */

typedef enum astar_mapf_algo {
  ASTAR_MAPF_PIBT = 0,
  ASTAR_MAPF_LACAM,
  ASTAR_MAPF_LACAM_STAR,
  ASTAR_MAPF_CBS,
  ASTAR_MAPF_EECBS,
  ASTAR_MAPF_PRIORITIZED,
  ASTAR_MAPF_ALGO_COUNT /* number of algorithms (not an algorithm) */
} astar_mapf_algo;

/* What an algorithm guarantees (astar_mapf_algo_info.flags). */
#define ASTAR_MAPF_OPTIMAL 1u  /* a solution it returns with stats.optimal has least SOC */
#define ASTAR_MAPF_BOUNDED 2u  /* SOC <= options.w x optimal */
#define ASTAR_MAPF_COMPLETE 4u /* given time, finds a solution when one exists
                                  and proves none exists otherwise */
#define ASTAR_MAPF_ANYTIME 8u  /* improves its solution until the limits run out */

typedef struct astar_mapf_algo_info {
  const char *name;    /* "pibt", "lacam", "lacam-star", "cbs", "eecbs", "prioritized" */
  const char *summary; /* one English line for help texts */
  unsigned flags;      /* ASTAR_MAPF_OPTIMAL | ... */
} astar_mapf_algo_info;

/* The row of `algo`, or NULL for a value outside the enum. Static storage. */
ASTAR_API const astar_mapf_algo_info *astar_mapf_algo_info_get(astar_mapf_algo algo);
/* The algorithm called `name` (exact, lower case). Returns ASTAR_OK or
** ASTAR_INVALID_ARGUMENT (NULL arguments, unknown name; *out untouched). */
ASTAR_API astar_status astar_mapf_algo_from_name(const char *name, astar_mapf_algo *out);

/* ---- the problem ------------------------------------------------------------------ */

/* A MAPF instance: the passable cells of a grid (copied) and N agents'
** starts and goals (copied). Retains: nothing. Thread safety: read-only
** once made -- any number of threads may solve or check it at once. */
typedef struct astar_mapf_problem astar_mapf_problem;

/*
** An instance of n agents (1 .. ASTAR_MAPF_MAX_AGENTS) on the passable cells
** of `grid` at the time of the call: agent i goes from starts[i] to
** goals[i]. Starts must be pairwise distinct, goals pairwise distinct (an
** agent's start may equal its own goal or another agent's goal).
** bad (may be NULL) receives the index of the first agent found at fault,
** or SIZE_MAX when the fault is not an agent's. Memory: one byte a cell
** plus 8 bytes an agent. Allocates.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (NULLs, n out of range, two
** starts or two goals equal: *bad = the later agent); ASTAR_OUT_OF_BOUNDS,
** ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED (*bad = the agent);
** ASTAR_NO_MEMORY. On failure *out is NULL and nothing leaks.
*/
ASTAR_API astar_status astar_mapf_problem_new(astar_mapf_problem **out, const astar_grid *grid,
                                              const astar_point *starts, const astar_point *goals,
                                              size_t n, size_t *bad, const astar_allocator *alloc);
/* Release it. NULL is allowed. */
ASTAR_API void astar_mapf_problem_free(astar_mapf_problem *p);
ASTAR_API size_t astar_mapf_problem_agents(const astar_mapf_problem *p);
ASTAR_API int32_t astar_mapf_problem_width(const astar_mapf_problem *p);
ASTAR_API int32_t astar_mapf_problem_height(const astar_mapf_problem *p);
/* Agent i's start / goal; (-1, -1) when i is out of range. */
ASTAR_API astar_point astar_mapf_problem_start(const astar_mapf_problem *p, size_t i);
ASTAR_API astar_point astar_mapf_problem_goal(const astar_mapf_problem *p, size_t i);
/* Whether (x, y) is inside and passable in the problem's copy of the map. */
ASTAR_API bool astar_mapf_problem_passable(const astar_mapf_problem *p, int32_t x, int32_t y);
/* Bytes held from its allocator. */
ASTAR_API size_t astar_mapf_problem_memory(const astar_mapf_problem *p);

/*
** The lower bound: the sum over agents of the 4-connected distance from
** start to goal ignoring the other agents (one breadth-first search per
** agent, stopped at its goal). Allocates scratch of 5 bytes a cell, freed
** before it returns. Returns ASTAR_OK; ASTAR_NO_PATH (some agent cannot
** reach its goal: the instance has no solution; *agent, if not NULL, names
** the first); ASTAR_INVALID_ARGUMENT; ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_mapf_lower_bound(const astar_mapf_problem *p, uint64_t *out,
                                              size_t *agent, const astar_allocator *alloc);

/*
** A random instance by the benchmark's "random scenario" rule: n starts
** drawn uniformly without repetition from the largest 4-connected component
** of the passable cells of `grid` (ties: the component holding the smallest
** cell number), n goals likewise, independently; pairs are kept in drawing
** order. The generator is the library's seeded PRNG (splitmix64 seeding a
** xoshiro256**), so the same (grid, seed, n) gives the same instance on
** every platform (the exact procedure: src/mapf/random.c). Writes
** starts[0 .. n-1] and goals[0 .. n-1]. Allocates scratch (4 bytes and a
** bit a cell), freed before it returns.
** Returns ASTAR_OK; ASTAR_TOO_LARGE (n larger than the component);
** ASTAR_INVALID_ARGUMENT; ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_mapf_random_instance(const astar_grid *grid, uint64_t seed, size_t n,
                                                  astar_point *starts, astar_point *goals,
                                                  const astar_allocator *alloc);

/* ---- solutions --------------------------------------------------------------------- */

/* N timed paths. Retains: nothing (paths are copied in). Thread safety:
** one writer at a time; any number of readers while nobody writes. */
typedef struct astar_mapf_solution astar_mapf_solution;

/* An empty solution for `agents` agents (1 .. ASTAR_MAPF_MAX_AGENTS): every
** path has length 0. Allocates. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT,
** ASTAR_NO_MEMORY (*out NULL). */
ASTAR_API astar_status astar_mapf_solution_new(astar_mapf_solution **out, size_t agents,
                                               const astar_allocator *alloc);
ASTAR_API void astar_mapf_solution_free(astar_mapf_solution *s);
ASTAR_API size_t astar_mapf_solution_agents(const astar_mapf_solution *s);
/* Every path back to length 0 (keeps the memory). */
ASTAR_API void astar_mapf_solution_clear(astar_mapf_solution *s);
/*
** Agent `agent`'s path := path[0 .. len-1] (copied; len may be 0, path
** then may be NULL). Allocates when the solution's store must grow.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (agent out of range, NULL path
** with len > 0, len > 2^28), ASTAR_NO_MEMORY (the old path is kept).
*/
ASTAR_API astar_status astar_mapf_solution_set_path(astar_mapf_solution *s, size_t agent,
                                                    const astar_point *path, size_t len);
/* Agent `agent`'s path, without copying: *len cells (NULL when 0 or the
** agent is out of range). Valid until the solution is next written or freed. */
ASTAR_API const astar_point *astar_mapf_solution_path(const astar_mapf_solution *s, size_t agent,
                                                      size_t *len);
/* An agent's cost: the smallest t such that path[t .. len-1] all equal the
** last cell (0 for an empty path). */
ASTAR_API uint32_t astar_mapf_solution_cost(const astar_mapf_solution *s, size_t agent);
/* Sum of the agents' costs; the largest cost. */
ASTAR_API uint64_t astar_mapf_solution_sum_of_costs(const astar_mapf_solution *s);
ASTAR_API uint32_t astar_mapf_solution_makespan(const astar_mapf_solution *s);

/* ---- the validator ----------------------------------------------------------------- */

typedef enum astar_mapf_fault {
  ASTAR_MAPF_VALID = 0,        /* no fault: the solution is valid */
  ASTAR_MAPF_AGENT_COUNT,      /* the solution has another number of agents */
  ASTAR_MAPF_EMPTY_PATH,       /* an agent has no path */
  ASTAR_MAPF_WRONG_START,      /* path[0] is not the agent's start */
  ASTAR_MAPF_WRONG_GOAL,       /* the last cell is not the agent's goal */
  ASTAR_MAPF_OFF_MAP,          /* a cell outside the map or blocked */
  ASTAR_MAPF_ILLEGAL_MOVE,     /* a step that is neither a wait nor a 4-neighbour move */
  ASTAR_MAPF_VERTEX_CONFLICT,  /* two agents in one cell at one time */
  ASTAR_MAPF_SWAP_CONFLICT,    /* two agents exchange cells in one step */
  ASTAR_MAPF_GOAL_CONFLICT,    /* an agent enters the goal where another has
                                  arrived and stays (goal holding) */
  ASTAR_MAPF_FAULT_COUNT       /* number of kinds (not a kind) */
} astar_mapf_fault;

/* The verdict of astar_mapf_check: the first fault in time order (ties:
** smaller agent), or ASTAR_MAPF_VALID with the solution's figures. */
typedef struct astar_mapf_report {
  astar_mapf_fault fault; /* ASTAR_MAPF_VALID when the solution is valid */
  uint32_t agent;         /* the agent at fault (the later-numbered of a conflict's
                             two is `other`); UINT32_MAX when none */
  uint32_t other;         /* the second agent of a conflict; UINT32_MAX when none */
  uint32_t time;          /* the time step of the fault (a swap: the step's end) */
  astar_point cell;       /* the cell of the fault ((-1, -1) when none) */
  uint64_t sum_of_costs;  /* of the solution (also when it is invalid) */
  uint32_t makespan;
} astar_mapf_report;

/* One English phrase for a fault kind, e.g. "swap conflict"; "unknown
** fault" for a value outside the enum. Static storage. */
ASTAR_API const char *astar_mapf_fault_name(astar_mapf_fault fault);

/*
** Checks `s` against `p`: agent count, starts, goals, every cell on the map
** and passable, every step a wait or a 4-neighbour move, no vertex, swap or
** goal-holding conflict at any time (an agent whose path has ended holds its
** last cell for ever). Fills *report. Independent of the solvers (it shares
** no code with them). O(total path length) time; allocates scratch (4 bytes
** a cell plus 8 bytes an agent), freed before it returns.
** Returns ASTAR_OK when the check ran -- report->fault says whether the
** solution is valid -- ASTAR_INVALID_ARGUMENT (NULLs) or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_mapf_check(const astar_mapf_problem *p, const astar_mapf_solution *s,
                                        astar_mapf_report *report, const astar_allocator *alloc);

/* ---- solving --------------------------------------------------------------------------- */

/* Seconds on a monotonic clock; the solvers only take differences. */
typedef double (*astar_mapf_clock_fn)(void *ud);
/* Called by an anytime solver (lacam-star) for its first solution and each
** better one: sum of costs and seconds since the solve began. Must not call
** back into the solver. */
typedef void (*astar_mapf_improve_fn)(void *ud, uint64_t sum_of_costs, double seconds);

typedef struct astar_mapf_options {
  astar_mapf_algo algo;      /* default ASTAR_MAPF_LACAM_STAR */
  double w;                  /* eecbs: suboptimality bound, in [1, 1000]; (default 1.2;
                                ignored by the others) */
  double time_limit;         /* seconds, in [0, 1e6]; 0: none (default 0) */
  uint64_t max_work;         /* deterministic limit: the solver's unit of work --
                                high-level nodes plus low-level expansions (PIBT:
                                agent-steps); 0: none (default) */
  size_t max_memory;         /* bytes the solver may hold during a solve (its kept scratch,
                                the distance tables, every block of the algorithm);
                                0: none (default) */
  uint64_t seed;             /* randomised tie-breaking (pibt, lacam, lacam-star) and
                                orders (prioritized); default 0 */
  uint32_t max_steps;        /* pibt: most time steps; prioritized: the horizon;
                                0: automatic (default: width + height + agents,
                                at least 1024 ... as each solver documents);
                                in [0, 2^28] */
  uint32_t window;           /* prioritized: 0 full cooperative A* (default); W >= 1 WHCA*;
                                in [0, 2^28] */
  astar_mapf_clock_fn clock; /* NULL: the system's monotonic clock */
  void *clock_ud;
  astar_mapf_improve_fn on_improve; /* NULL: none */
  void *improve_ud;
} astar_mapf_options;

/* Defaults as above. */
ASTAR_API void astar_mapf_options_init(astar_mapf_options *o);

typedef struct astar_mapf_stats {
  bool solved;           /* a valid solution is in the output */
  bool optimal;          /* ... and it is proven optimal in SOC */
  uint64_t sum_of_costs; /* of the returned solution (0 when none) */
  uint32_t makespan;
  uint64_t lower_bound;  /* sum of single-agent distances */
  double bound;          /* proven: optimal SOC >= bound (CBS, EECBS: the high-level
                            minimum; others: lower_bound) */
  double time_first;     /* seconds to the first solution (-1: none) */
  double time_total;     /* seconds spent in the solve */
  uint32_t improvements; /* solutions found (anytime: 1 + improvements) */
  uint64_t high_level;   /* high-level nodes / configurations generated */
  uint64_t low_level;    /* low-level expansions (PIBT: agent-steps) */
  size_t peak_memory;    /* most bytes of scratch held during the solve */
} astar_mapf_stats;

/* Per-thread scratch. Retains: nothing between solves. Thread safety: one
** solve at a time per solver; use one solver per thread. */
typedef struct astar_mapf_solver astar_mapf_solver;

/* A solver with no scratch yet. Allocates a little. Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT or ASTAR_NO_MEMORY (*out NULL). */
ASTAR_API astar_status astar_mapf_solver_new(astar_mapf_solver **out,
                                             const astar_allocator *alloc);
ASTAR_API void astar_mapf_solver_free(astar_mapf_solver *s);
/* Bytes held from its allocator now. */
ASTAR_API size_t astar_mapf_solver_memory(const astar_mapf_solver *s);

/*
** Solves `p` with options `o` (NULL: defaults) into `out` (which must have
** p's number of agents; it is cleared first). The scratch grows during the
** solve's set-up and during the search in blocks (never per node expanded);
** it is kept for the next solve. Deterministic for the same inputs unless a
** time limit cuts the search (max_work is the deterministic limit).
** stats (may be NULL) is always filled.
** Returns ASTAR_OK (a solution is in `out`; with an anytime solver, the best
** found when the limits ran out); ASTAR_NO_PATH (proven unsolvable: an agent
** cannot reach its goal, or a complete solver exhausted its search);
** ASTAR_LIMIT_REACHED (time, work, memory or max_steps ran out before any
** solution); ASTAR_UNSUPPORTED (the algorithm cannot take this problem, e.g.
** more agents than it handles); ASTAR_INVALID_ARGUMENT (NULLs, option out
** of range -- the options are checked here, once, before anything else --
** or out's agent count differs); ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_mapf_solve(astar_mapf_solver *s, const astar_mapf_problem *p,
                                        const astar_mapf_options *o, astar_mapf_solution *out,
                                        astar_mapf_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_MAPF_H */
