/*
** astar/spacetime.h -- searching in space and time: units that see each
** other coming (Patel 5.4). Three pieces:
**
**   - the reservation table: (cell, time step) -> agent, plus move
**     (edge) reservations, that units write their timed paths into so that
**     later units route around them;
**   - cooperative A* (Silver 2005, "Cooperative Pathfinding"): space-time A*
**     over (cell, time) that avoids reserved cells and swaps; full (up to a
**     horizon) or windowed (WHCA*: reservations are honoured for W steps,
**     the rest of the route is the distance ignoring others);
**   - SIPP (Phillips & Likhachev 2011, "Safe Interval Path Planning for
**     Dynamic Environments"): moving obstacles with known occupancy
**     intervals; A* over (cell, safe interval) with earliest arrival times.
**
** Time model. Time is counted in integer steps. Every move -- straight,
** diagonal, or waiting in place -- takes exactly one step, so a timed path
** has one cell per time step: path[k] is the unit's cell at time t0 + k,
** and path[k] == path[k + 1] is a wait. Moves follow options.moves and
** options.corner like astar_find_path's. What a step COSTS is separate
** from how long it takes: cooperative A* charges moves as astar_find_path
** does (straight_cost or diagonal_cost times the entered cell's terrain)
** and a wait astar_coop_query.wait_cost; SIPP minimises the arrival time.
**
** Conflicts. Two units conflict when they are in the same cell at the same
** time (vertex conflict), or when one moves u -> v while the other moves
** v -> u during the same step (swap / edge conflict). Two diagonal moves
** that cross inside a 2 x 2 square are not conflicts in this model.
**
** Objects: astar_reservations (a table; one writer at a time, any number
** of concurrent readers while nobody writes), astar_spacetime_workspace
** (per-thread scratch of the space-time searches, sized once), astar_sipp
** (the safe intervals of a grid and its moving obstacles; read-only once
** built). None allocates after creation.
*/
#ifndef ASTAR_SPACETIME_H
#define ASTAR_SPACETIME_H

#include "base.h"
#include "field.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_AGENT_NONE UINT32_MAX   /* "no agent": a free (cell, time) */
#define ASTAR_HOLD_FOREVER UINT32_MAX /* astar_reservations_reserve_path: keep the goal forever */
#define ASTAR_TIME_MAX (1u << 28)     /* largest time step accepted (t0 + horizon included) */

/* ---- the reservation table ----------------------------------------------------- */

/* A reservation table. Retains: nothing (paths are copied in). Thread
** safety: one writer at a time (reserve_path, release, clear) with no
** reader meanwhile; any number of readers at once (at, move, the
** cooperative searches) while nobody writes. */
typedef struct astar_reservations astar_reservations;

/*
** A table able to hold `capacity` reservations (1 .. 2^26): one per
** (cell, time) a path occupies, one per move between two different cells,
** one per goal held forever. Sized once: reserving never allocates; a full
** table refuses with ASTAR_CAPACITY. Memory: about 64 bytes a reservation
** (the hash is kept at most half full, plus a second array for
** astar_reservations_release), all written once here. Cells are points of any grid up to
** ASTAR_GRID_MAX_SIDE a side. Allocates.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out NULL, capacity 0 or too large)
** or ASTAR_NO_MEMORY (*out NULL, nothing leaked).
*/
ASTAR_API astar_status astar_reservations_new(astar_reservations **out, size_t capacity,
                                              const astar_allocator *alloc);
/* Release it. NULL is allowed. */
ASTAR_API void astar_reservations_free(astar_reservations *res);
/* Forget every reservation. O(1) (generation stamp), no allocation. */
ASTAR_API void astar_reservations_clear(astar_reservations *res);
/* Reservations held now, and the most it can hold. */
ASTAR_API size_t astar_reservations_count(const astar_reservations *res);
ASTAR_API size_t astar_reservations_capacity(const astar_reservations *res);
/* Bytes held from its allocator. */
ASTAR_API size_t astar_reservations_memory(const astar_reservations *res);

/*
** Write agent's timed path: path[k] occupies its cell at time t0 + k, and
** every step between two different cells reserves that move (so nobody
** swaps through it). Then the last cell is kept: `hold` more steps
** (t0 + n .. t0 + n - 1 + hold), or for ever from t0 + n - 1 with
** ASTAR_HOLD_FOREVER. Consecutive cells must be neighbours or equal (the
** move rules are the search's business, not checked here). All or nothing:
** ASTAR_OK; ASTAR_CAPACITY (the new reservations do not fit; nothing
** written); ASTAR_INVALID_ARGUMENT (res or path NULL, n == 0, agent ==
** ASTAR_AGENT_NONE, a cell outside 0 .. ASTAR_GRID_MAX_SIDE-1, consecutive
** cells not adjacent, a time beyond ASTAR_TIME_MAX, or a (cell, time),
** move or held goal already reserved by another agent -- nothing written).
** Re-reserving what the same agent holds is allowed. No allocation.
*/
ASTAR_API astar_status astar_reservations_reserve_path(astar_reservations *res, uint32_t agent,
                                                       const astar_point *path, size_t n,
                                                       uint32_t t0, uint32_t hold);

/* The agent occupying `cell` at time t (a reservation or a goal held for
** ever from a time <= t), or ASTAR_AGENT_NONE. O(1), no allocation. */
ASTAR_API uint32_t astar_reservations_at(const astar_reservations *res, astar_point cell,
                                         uint32_t t);
/* The agent that moves from `from` at time t to the neighbouring cell `to`
** at t + 1, or ASTAR_AGENT_NONE. O(1), no allocation. */
ASTAR_API uint32_t astar_reservations_move(const astar_reservations *res, astar_point from,
                                           astar_point to, uint32_t t);

/*
** Drop the reservations of `agent` (ASTAR_AGENT_NONE: of every agent)
** whose time is < before (moves: whose start time is < before); goals held
** for ever go only with before == UINT32_MAX. Use it to replan one agent,
** or to forget the past in a long simulation. O(capacity), no allocation.
*/
ASTAR_API void astar_reservations_release(astar_reservations *res, uint32_t agent, uint32_t before);

/* ---- the space-time workspace -------------------------------------------------- */

/* A space-time workspace. Retains: nothing (a search reads its grid,
** table, field and query during the call only). Thread safety: one thread
** at a time (one search at a time); one workspace per searching thread. */
typedef struct astar_spacetime_workspace astar_spacetime_workspace;

/*
** Scratch memory for astar_coop_find_path and astar_sipp_find_path: room
** for `max_states` search states ((cell, time) or (cell, safe interval)
** pairs; 1 .. 2^28), about 56 bytes each, all written once here (so no
** search pays the first touch of a page). A search that needs more ends
** with ASTAR_CAPACITY. One search at a time; one workspace per thread.
** Allocates once; searches never allocate. ASTAR_OK, ASTAR_INVALID_ARGUMENT
** or ASTAR_NO_MEMORY (*out NULL, nothing leaked).
*/
ASTAR_API astar_status astar_spacetime_workspace_new(astar_spacetime_workspace **out,
                                                     size_t max_states,
                                                     const astar_allocator *alloc);
/* Release it. NULL is allowed. */
ASTAR_API void astar_spacetime_workspace_free(astar_spacetime_workspace *ws);
/* Bytes held from its allocator. */
ASTAR_API size_t astar_spacetime_workspace_memory(const astar_spacetime_workspace *ws);

/* ---- cooperative A* ------------------------------------------------------------ */

/* One agent's query. Start from astar_coop_query_init. */
typedef struct astar_coop_query {
  astar_point start;        /* cell at time t0 */
  astar_point goal;         /* destination */
  uint32_t agent;           /* its id: its own reservations never block it
                               (not ASTAR_AGENT_NONE) */
  uint32_t t0;              /* time step of the start (default 0) */
  uint32_t window;          /* W >= 1: windowed (WHCA*); 0: full search (default) */
  uint32_t horizon;         /* full search: states up to time t0 + horizon, >= 1
                               (default 1024); windowed: ignored */
  double wait_cost;         /* cost of waiting one step in place, in [0,
                               ASTAR_OPTION_MAX]; < 0: options.straight_cost
                               (default -1) */
  const astar_field *field; /* heuristic: cost to the goal ignoring other agents,
                               built with the same moves, corner rule, costs and
                               terrain (NULL: the octile / Manhattan distance
                               times the grid's smallest terrain) */
} astar_coop_query;

/* Defaults: t0 0, full search, horizon 1024, wait = straight cost, no field,
** agent 0, start and goal (0, 0). */
ASTAR_API void astar_coop_query_init(astar_coop_query *q);

typedef struct astar_coop_result {
  double cost;       /* cost of the returned steps: moves (move cost x terrain)
                        plus waits; 0 without a path */
  double estimate;   /* cost + the field / heuristic distance from the last cell
                        to the goal (= cost when the path reaches the goal) */
  size_t length;     /* cells in the timed path (time steps + 1); 0 without one */
  bool at_goal;      /* the path ends at the goal (a windowed path may end short) */
  uint32_t arrival;  /* time step of the path's last cell (t0 + length - 1) */
  astar_stats stats; /* expanded / generated states, largest open list */
} astar_coop_result;

/*
** Cooperative A*: the cheapest timed path from q->start at time q->t0
** that meets no other agent's reservation in `res` (res may be NULL: no
** other agents): it never enters a (cell, time) another agent holds, nor
** makes the reverse of another agent's move in the same step.
**
** Full search (window 0): the path ends at the goal at a time from which
** no other agent ever occupies the goal again (no reservation of it at a
** later time, no goal held for ever there), so the agent may stay: write
** it back with hold ASTAR_HOLD_FOREVER. It is optimal -- least cost under
** the costs above -- among paths whose states stay within t0 + horizon.
** Windowed (window W): reservations are looked at up to time t0 + W; the
** path ends either at the goal, at a time from which the goal is free up
** to t0 + W, or at time t0 + W, and minimises its cost plus the field
** (heuristic) distance from its last cell -- Silver's WHCA*: follow it for
** about W / 2 steps, then replan.
**
** Supported options: moves, corner, straight_cost, diagonal_cost, terrain
** (exact), max_expansions; the heuristic, weight, tie, reopen and
** open_set fields are ignored (see below). Anything else set (turn_penalty,
** layers, knowledge, islands, terrain_scale != 1, partial, stop_fn,
** observer, algorithm other than A*) is ASTAR_UNSUPPORTED.
** Tie order among equal f: larger g first, then smaller time, then smaller
** y, then smaller x; successors are generated wait first, then N, E, S, W,
** NE, SE, SW, NW. Deterministic on every platform.
**
** The path (timed, start first) goes into path[0 .. result->length - 1].
** Returns ASTAR_OK; ASTAR_BUFFER_TOO_SMALL (result->length says how many
** cells; nothing written); ASTAR_NO_PATH (every reachable state was
** expanded and no horizon cut any: the goal cannot be reached, or is held
** for ever by another agent); ASTAR_LIMIT_REACHED (max_expansions ran out,
** or -- full search -- no path within the horizon); ASTAR_CAPACITY (the
** workspace's state room ran out); ASTAR_START_BLOCKED (start blocked, or
** another agent holds it at t0); ASTAR_GOAL_BLOCKED (goal blocked, or held
** for ever by another agent: full search only); ASTAR_OUT_OF_BOUNDS;
** ASTAR_MISMATCH (the field's goal is not q->goal); ASTAR_STALE (the field
** was built on another version of the grid); ASTAR_UNSUPPORTED;
** ASTAR_INVALID_ARGUMENT (NULL ws / grid / q, bad options or query values,
** times beyond ASTAR_TIME_MAX). result (may be NULL) is always filled.
** No allocation.
*/
ASTAR_API astar_status astar_coop_find_path(astar_spacetime_workspace *ws, const astar_grid *grid,
                                            const astar_options *opt, const astar_reservations *res,
                                            const astar_coop_query *q, astar_point *path,
                                            size_t cap, astar_coop_result *result);

/* ---- SIPP: safe intervals -------------------------------------------------------- */

/* A moving obstacle occupies `cell` at every time step t_from .. t_to
** (inclusive; t_to may be ASTAR_TIME_MAX: from then on). A trajectory is
** one occupancy per cell it visits. */
typedef struct astar_occupancy {
  astar_point cell; /* occupied cell (inside the grid) */
  uint32_t t_from;  /* first occupied time step */
  uint32_t t_to;    /* last occupied time step, >= t_from, <= ASTAR_TIME_MAX */
} astar_occupancy;

/* The safe intervals of a grid. Retains: nothing (the occupancies are
** merged into its own intervals, the grid's version is recorded and each
** search names the grid again). Thread safety: read-only once built -- any
** number of threads may search it at once, each with its own space-time
** workspace. */
typedef struct astar_sipp astar_sipp;

/*
** The safe intervals of `grid` given the obstacles occ[0 .. n-1] (occ may
** be NULL when n is 0): per cell, the maximal time ranges no obstacle
** occupies (overlapping occupancies merge). Records astar_grid_version.
** Memory: 4 bytes a padded cell plus 8 bytes per safe interval. Allocates.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULLs, t_to < t_from, times
** beyond ASTAR_TIME_MAX), ASTAR_OUT_OF_BOUNDS (an occupied cell outside
** the grid), ASTAR_TOO_LARGE (more than 2^28 intervals) or
** ASTAR_NO_MEMORY (*out NULL, nothing leaked).
*/
ASTAR_API astar_status astar_sipp_new(astar_sipp **out, const astar_grid *grid,
                                      const astar_occupancy *occ, size_t n,
                                      const astar_allocator *alloc);
/* Release it. NULL is allowed. */
ASTAR_API void astar_sipp_free(astar_sipp *sipp);
/* Number of safe intervals (every cell has at least one unless occupied for ever). */
ASTAR_API size_t astar_sipp_intervals(const astar_sipp *sipp);
/* Bytes held from its allocator. */
ASTAR_API size_t astar_sipp_memory(const astar_sipp *sipp);

/*
** The earliest-arriving timed path from `start` at time t0 to `goal`
** (path[k] = cell at t0 + k) that never shares a (cell, time) with an
** obstacle; waiting is allowed anywhere safe. With hold_goal the path
** must end in the goal's last safe interval (one that never ends), so the
** unit can stay; otherwise any safe arrival counts. Every move takes one
** step whatever its cost (terrain and move costs do not apply); moves
** follow options.moves and options.corner; other options but
** max_expansions are ignored. Optimal in arrival time (A* over
** (cell, safe interval) states, heuristic: Chebyshev / Manhattan steps).
** Obstacles are occupancies: a swap with an obstacle (it moves v -> u while
** the unit moves u -> v) is not detected.
** Tie order among equal f: larger g (later arrival), then smaller y,
** smaller x, earlier interval.
** Returns ASTAR_OK; ASTAR_BUFFER_TOO_SMALL (result->length says how many
** cells; nothing written); ASTAR_NO_PATH; ASTAR_LIMIT_REACHED
** (max_expansions); ASTAR_CAPACITY (workspace state room);
** ASTAR_START_BLOCKED (blocked or occupied at t0); ASTAR_GOAL_BLOCKED
** (blocked, or with hold_goal occupied for ever); ASTAR_OUT_OF_BOUNDS;
** ASTAR_STALE (grid changed since astar_sipp_new); ASTAR_MISMATCH (another
** grid's size); ASTAR_INVALID_ARGUMENT. result (may be NULL) is always
** filled: cost = arrival - t0 (steps), estimate = cost, arrival, at_goal.
** No allocation.
*/
ASTAR_API astar_status astar_sipp_find_path(astar_spacetime_workspace *ws, const astar_sipp *sipp,
                                            const astar_grid *grid, const astar_options *opt,
                                            astar_point start, astar_point goal, uint32_t t0,
                                            bool hold_goal, astar_point *path, size_t cap,
                                            astar_coop_result *result);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_SPACETIME_H */
