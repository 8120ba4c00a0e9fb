/*
** astar/search.h -- A* search on an astar_grid.
**
** Two objects take part in a search:
**   - the grid (astar/grid.h): read-only during a search, shareable by threads;
**   - a workspace (astar_workspace): the per-thread scratch memory -- node
**     records, the open list and the last path. It is allocated once; a search
**     never allocates, and the cost of starting a search does not depend on
**     the size of the grid (generation stamps replace clearing).
**
** Movement model. From a cell, the straight moves go N, E, S, W (cost
** options.straight_cost) and, with options.moves == 8, the diagonal moves go
** NE, SE, SW, NW (cost options.diagonal_cost), subject to options.corner.
** Entering a cell multiplies the move cost by that cell's terrain cost. A
** move never enters a blocked cell or leaves the grid.
**
** Determinism and tie order. The open list is ordered by f = g + h, smallest
** first. Equal f values are ordered by options.tie:
**   ASTAR_TIE_LARGER_G  larger g first (deeper nodes; g compared after
**                       rounding to single precision);
**   ASTAR_TIE_NEWEST    the most recently pushed node first (LIFO);
**   ASTAR_TIE_CROSS     smaller |cross product| first -- the cell nearer the
**                       straight start-goal line (Patel, "Breaking ties");
** and whatever is still equal goes by cell index: smaller y first, then
** smaller x. A "push" is the moment a node enters or re-enters the open
** list, or has its g lowered there. Neighbours are generated in the fixed
** order N, E, S, W, NE, SE, SW, NW. All arithmetic is IEEE-754 double in a
** fixed order, so the same grid, options and endpoints give the same path on
** every run and platform (the library is built without fast-math or
** floating-point contraction).
**
** Exact ties. On a grid without terrain the search uses the two move costs
** rounded to multiples of a power of two, 2^(C + E - 52) for a grid of
** fewer than 2^C cells and costs below 2^E (relative change at most
** 2^(C - 53): 1e-11 on a 512 x 512 grid, 6e-8 on the largest; costs that
** are already multiples -- integers, halves -- are unchanged). Every g, h
** and f is then a sum computed exactly, so routes with the same numbers of
** straight and diagonal moves tie exactly and the tie order above decides
** as written even on the largest maps (an open 16384 x 2048 map: 16,384
** expansions corner to corner). astar_result.cost is the found path's cost
** with the options' own costs (a straight moves x straight_cost + b
** diagonal moves x diagonal_cost); event g and f values (astar_event) are the
** search's, on the rounded costs. With terrain the costs are used as given.
**
** Outcomes of astar_find_path (the returned status):
**   ASTAR_OK               a path was found; it is optimal when the heuristic
**                          is admissible and options.weight <= 1, otherwise at
**                          most `weight` times optimal for a consistent
**                          heuristic. start == goal is ASTAR_OK with a
**                          one-cell path, cost 0 and no expansions.
**   ASTAR_BUFFER_TOO_SMALL a path was found but needs more than `cap` cells:
**                          result->length says how many; nothing written.
**                          astar_workspace_path() can copy it afterwards.
**   ASTAR_NO_PATH          every cell reachable from the start was expanded.
**   ASTAR_LIMIT_REACHED    max_expansions expansions were done without
**                          reaching the goal (the search was cut short).
**   ASTAR_START_BLOCKED    the start cell is blocked (checked before the goal).
**   ASTAR_GOAL_BLOCKED     the goal cell is blocked.
**   ASTAR_OUT_OF_BOUNDS    start or goal lies outside the grid.
**   ASTAR_CAPACITY         the grid is larger than the workspace was sized for
**                          (see astar_workspace_reserve).
**   ASTAR_TURNS_NOT_RESERVED  options.turn_penalty > 0 but the workspace has
**                          no turn states (astar_workspace_reserve_turns).
**   ASTAR_MISMATCH         options.islands were built for other moves or
**                          another corner rule than the search's.
**   ASTAR_STALE            options.islands are out of date for the grid.
**   ASTAR_UNSUPPORTED      options.algorithm cannot honour the other options
**                          or the grid (see astar_algorithm).
**   ASTAR_INVALID_ARGUMENT a NULL workspace/grid, or a bad option value.
*/
#ifndef ASTAR_SEARCH_H
#define ASTAR_SEARCH_H

#include "base.h"
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Diagonal corner rule: when may a diagonal move pass the two cells that
** share a side with both its origin and its target ("side cells")? */
typedef enum astar_corner {
  ASTAR_CORNER_NO_CUT = 0, /* only if both side cells are passable (Moving AI; default) */
  ASTAR_CORNER_ALWAYS,     /* always (cutting corners and squeezing between allowed) */
  ASTAR_CORNER_ONE_SIDE,   /* if at most one side cell is blocked */
  ASTAR_CORNER_NEVER       /* never: no diagonal moves at all */
} astar_corner;

/* Heuristic h(cell). The built-in ones use straight_cost s and diagonal cost d
** and are multiplied by the grid's smallest terrain cost and by weight.
** dx, dy are the absolute coordinate differences to the goal. */
typedef enum astar_heuristic {
  ASTAR_H_AUTO = 0,  /* octile with diagonal moves, Manhattan without (default) */
  ASTAR_H_OCTILE,    /* s*max + (d-s)*min: exact on an open grid (for d < s: d*max;
                        for d > 2s: s*(dx+dy), so it never overestimates) */
  ASTAR_H_MANHATTAN, /* s*(dx+dy): exact for 4 moves; overestimates with diagonals */
  ASTAR_H_CHEBYSHEV, /* min(s,d)*max(dx,dy): admissible, weaker than octile */
  ASTAR_H_EUCLIDEAN, /* min(s,d/sqrt2)*sqrt(dx^2+dy^2): admissible, weaker */
  ASTAR_H_ZERO,      /* 0: Dijkstra's algorithm */
  ASTAR_H_CALLBACK   /* options.heuristic_fn (multiplied by weight only) */
} astar_heuristic;

/* Tie order among open nodes with equal f; see the top of this file. */
typedef enum astar_tie {
  ASTAR_TIE_LARGER_G = 0, /* default */
  ASTAR_TIE_NEWEST,
  ASTAR_TIE_CROSS
} astar_tie;

/* May a closed (already expanded) node be reopened when a cheaper path to it
** is found? Needed for optimality when the heuristic is not consistent. */
typedef enum astar_reopen {
  ASTAR_REOPEN_AUTO = 0, /* reopen iff the heuristic is not known consistent:
                            ASTAR_H_CALLBACK, or Manhattan with diagonal moves.
                            Weighted consistent heuristics do not reopen: the
                            weight bound holds without it. */
  ASTAR_REOPEN_ALWAYS,
  ASTAR_REOPEN_NEVER
} astar_reopen;

/* Search algorithm. Every algorithm returns a path of the same (optimal)
** cost as A* under the same options; the cells may differ where several
** optimal paths exist. */
typedef enum astar_algorithm {
  ASTAR_ALGO_ASTAR = 0, /* A* over the cells (default); supports every option */
  ASTAR_ALGO_JPS        /* Jump Point Search (Harabor & Grastien 2011, with the
                           block-based scanning of 2014): expands only jump
                           points. Needs moves == 8, ASTAR_CORNER_NO_CUT, a grid
                           without terrain layer, straight <= diagonal <
                           2 * straight, heuristic AUTO or OCTILE, and reopen
                           not ALWAYS, and none of the game-loop options
                           (partial, stop_fn, layers, knowledge, islands,
                           turn_penalty, terrain_scale != 1); otherwise
                           ASTAR_UNSUPPORTED. One-shot only (the sliced API
                           is A*'s). The observer is supported: it sees the
                           jump points and the cells each jump scanned. */
} astar_algorithm;

/* Open-list data structure of the search. All of them pop nodes in exactly
** the documented tie order, so they give identical paths and statistics;
** they differ only in speed (docs/open-sets.md compares them). */
typedef enum astar_open_set {
  ASTAR_OPEN_AUTO = 0, /* the library's choice (currently ASTAR_OPEN_HEAP4) */
  ASTAR_OPEN_HEAP4,    /* 4-ary heap with position index (decrease-key) */
  ASTAR_OPEN_HEAP2,    /* binary heap with position index (decrease-key) */
  ASTAR_OPEN_BUCKET    /* buckets of f with a heap on the lowest bucket (HOT queue) */
} astar_open_set;

/* How a search with options.knowledge treats cells the player has not seen. */
typedef enum astar_unknown {
  ASTAR_UNKNOWN_PASSABLE = 0, /* assume passable (the seed's behaviour; default) */
  ASTAR_UNKNOWN_BLOCKED,      /* assume blocked */
  ASTAR_UNKNOWN_COST          /* passable, entry cost multiplied by options.unknown_cost */
} astar_unknown;

typedef struct astar_knowledge astar_knowledge; /* astar/knowledge.h */
typedef struct astar_islands astar_islands;     /* astar/islands.h */

/* ---- Seeing the search: the observer (options.observer) ---------------------
** An observer receives every event of a search as it happens, in order --
** what the tutorials draw: nodes entering the open list, being expanded,
** getting a cheaper g (re-parented), being reopened, and the goal being
** found. It costs nothing when not installed (the search runs a loop
** without the calls). The event is valid during the call only; the observer
** must not touch the workspace.
**
** Every search reports events in groups: the start's PUSH comes first; then
** each EXPAND is followed by the events it caused (PUSH, IMPROVE, REOPEN,
** SCAN) up to the next EXPAND, or GOAL, which ends the search. Supported by:
**   ASTAR_ALGO_ASTAR (any options, turn penalty included): nodes are cells
**     (with a turn penalty, cell and arrival direction);
**   ASTAR_ALGO_JPS and astar_jps_plus_find_path (astar/jps_plus.h): nodes
**     are jump points -- PUSH, IMPROVE, EXPAND, GOAL with their g and h,
**     never REOPEN; the parent of a jump point is the node whose expansion
**     reached it, possibly many cells away. Before a jump's successor is
**     offered, the cells the jump scanned (JPS) or looked up (JPS+) come
**     as ASTAR_EVENT_SCAN, each on a straight or diagonal line from its
**     parent -- the expanded node, or the diagonal cell a straight scan
**     branched from -- with g the cost along that line; a cell can be
**     scanned several times. */
typedef enum astar_event_type {
  ASTAR_EVENT_PUSH = 0, /* a node entered the open list for the first time */
  ASTAR_EVENT_EXPAND,   /* a node was taken from the open list and expanded */
  ASTAR_EVENT_IMPROVE,  /* an open node got a lower g and a new parent */
  ASTAR_EVENT_REOPEN,   /* a closed node got a lower g and went back to the open list */
  ASTAR_EVENT_GOAL,     /* the goal was taken from the open list: the search ends */
  ASTAR_EVENT_SCAN,     /* jump searches: a free cell a jump passed over (not a node:
                           it never enters the open list); parent = the jump's origin */
  /* Events of the engine's variants only (astar/engine.h); grid searches
  ** never report them. */
  ASTAR_EVENT_DROP,      /* beam and bandwidth searches: an entry left (or was kept
                            out of) the open list for good */
  ASTAR_EVENT_ITERATION, /* IDA*: a new iteration under a raised bound; retargeting:
                            a new leg toward a new target */
  ASTAR_EVENT_MEET       /* bidirectional searches: a cheaper meeting of the two
                            searches was found */
} astar_event_type;

typedef struct astar_event {
  astar_event_type type; /* what happened */
  astar_point cell;      /* the node's cell */
  astar_point parent;    /* its parent's cell; (-1, -1) for the start */
  double g;              /* cost from the start (after the event), on the search's
                            rounded move costs (see "Exact ties" above) */
  double h;              /* heuristic value (as weighted for the search) */
  double f;              /* g + h, the open-list key */
  uint64_t expanded;     /* expansions so far (EXPAND / GOAL count themselves) */
  int direction;         /* turn-penalty searches: arrival direction 0..7 (N, E, S,
                            W, NE, SE, SW, NW), 8 at the start; otherwise -1 */
} astar_event;

typedef void (*astar_observer_fn)(void *ctx, const astar_event *event);

/* Deadline check for options.stop_fn: return true to stop the search. */
typedef bool (*astar_stop_fn)(void *ctx);

/* User heuristic: estimated cost from `cell` to `goal`. Must return a finite
** value >= 0 (others are treated as 0). Called once per generated node. */
typedef double (*astar_heuristic_fn)(void *ctx, astar_point cell, astar_point goal);

/* The largest move cost, weight, turn penalty, heuristic floor, unknown cost
** or layer weight accepted. With terrain at most ASTAR_TERRAIN_MAX, every
** cost and f the searches add up stays finite on the largest grid (about
** 1e9 * 1e9 * sqrt 2 a step, fewer than 2^32 steps). */
#define ASTAR_OPTION_MAX 1.0e9

/* Search options. Always start from astar_options_init() so that fields added
** in later versions get their defaults. */
/* NOLINTNEXTLINE(clang-analyzer-optin.performance.Padding): grouped by topic */
typedef struct astar_options {
  int moves;                       /* 4 or 8 (default 8) */
  astar_corner corner;             /* diagonal rule (default ASTAR_CORNER_NO_CUT) */
  double straight_cost;            /* cost of N/E/S/W moves: in (0, ASTAR_OPTION_MAX] (default 1) */
  double diagonal_cost;            /* cost of diagonal moves: in (0, ASTAR_OPTION_MAX]
                                      (default sqrt 2) */
  astar_heuristic heuristic;       /* default ASTAR_H_AUTO */
  astar_heuristic_fn heuristic_fn; /* used with ASTAR_H_CALLBACK, else ignored */
  void *heuristic_ctx;             /* passed to heuristic_fn */
  double weight;                   /* h multiplier: in [0, ASTAR_OPTION_MAX] (default 1) */
  astar_tie tie;                   /* default ASTAR_TIE_LARGER_G */
  astar_reopen reopen;             /* default ASTAR_REOPEN_AUTO */
  uint64_t max_expansions;         /* stop after this many expansions; 0 = no limit */
  astar_algorithm algorithm;       /* default ASTAR_ALGO_ASTAR */
  astar_open_set open_set;         /* default ASTAR_OPEN_AUTO */

  /* Budgets and partial paths (see "Game loop" below). */
  bool partial;           /* on NO_PATH, LIMIT_REACHED or STOPPED return the path to
                             the best node found, as ASTAR_PARTIAL (default false) */
  astar_stop_fn stop_fn;  /* polled every stop_interval expansions; NULL: never */
  void *stop_ctx;         /* passed to stop_fn */
  uint32_t stop_interval; /* expansions between polls, >= 1 (default 256) */

  /* Costs (see "Costs and optimality" below). */
  double terrain_scale;             /* alpha in [0, 1]: a terrain factor t counts as
                                       1 + alpha * (t - 1) (default 1: exact) */
  const astar_layer *const *layers; /* influence layers (NULL: none) */
  const float *layer_weights;       /* weight of each layer: in [0, ASTAR_OPTION_MAX] */
  size_t nlayers;                   /* number of layers */
  double turn_penalty;              /* added for every change of direction, in [0,
                                       ASTAR_OPTION_MAX] (default 0; > 0 needs
                                       astar_workspace_reserve_turns) */
  double heuristic_floor;           /* entry factor the built-in heuristics assume, in [0,
                                       ASTAR_OPTION_MAX]; 0 (default): the smallest any cell can have
                                       (admissible). See "Costs and optimality". */

  /* What the searcher knows (see astar/knowledge.h and astar/islands.h). */
  const astar_knowledge *knowledge; /* fog of war over the grid (NULL: full knowledge) */
  astar_unknown unknown;            /* treatment of unknown cells */
  double unknown_cost;              /* entry factor of unknown cells with ASTAR_UNKNOWN_COST,
                                       in (0, ASTAR_OPTION_MAX] (default 2) */
  const astar_islands *islands;     /* connected components of the grid (NULL: none) */
  bool retarget;                    /* with islands: replace an unreachable goal by the
                                       reachable cell nearest to it (default false) */

  /* Seeing the search. */
  astar_observer_fn observer; /* called for every search event (NULL: none) */
  void *observer_ctx;         /* passed to observer */

  /* Range queries. */
  double max_cost; /* >= 0 (NaN invalid), default INFINITY: none. The search ends with
                      ASTAR_NO_PATH as soon as no path of cost <= max_cost can exist -- the
                      least f on the open list exceeds it -- so a path is found iff one
                      costs <= max_cost, with an admissible heuristic (the defaults).
                      ASTAR_ALGO_ASTAR only (its general loop); other methods refuse it */
} astar_options;

/* Fill `opt` with the defaults: 8 moves, no corner cutting, costs 1 and
** sqrt(2), automatic heuristic, weight 1, larger-g ties, automatic reopening,
** no expansion limit, A* with the default open list -- the Moving AI
** benchmark rules. */
ASTAR_API void astar_options_init(astar_options *opt);

/* Check every field of `opt`: ASTAR_OK or ASTAR_INVALID_ARGUMENT. */
ASTAR_API astar_status astar_options_validate(const astar_options *opt);

/*
** Why opt->algorithm cannot run with these options on `grid` -- why a
** search would return ASTAR_UNSUPPORTED: NULL when it can, else one English
** sentence naming the first option or grid property the algorithm cannot
** honour and what to do, e.g. "the grid has terrain costs; JPS needs
** uniform costs (clear the terrain, or use A*)". JPS+ (astar/jps_plus.h)
** has JPS's rules: ask with opt->algorithm = ASTAR_ALGO_JPS. `opt` NULL
** means the defaults. Static storage; no allocation. Option values are not
** validated here (astar_options_validate does that).
*/
ASTAR_API const char *astar_unsupported_reason(const astar_options *opt, const astar_grid *grid);

/* Search statistics. */
typedef struct astar_stats {
  uint64_t expanded;  /* nodes taken from the open list and expanded */
  uint64_t generated; /* pushes: nodes entering the open list or lowered in it */
  uint64_t reopened;  /* closed nodes put back on the open list */
  uint64_t max_open;  /* largest size the open list reached */
} astar_stats;

/* What a search produced besides its status. */
typedef struct astar_result {
  double cost;        /* path cost (sum of step costs); 0 when there is no path */
  size_t length;      /* cells in the path, start and goal included; 0 if none */
  astar_stats stats;  /* work done by this search */
  astar_point end;    /* last cell of the path: the goal reached (for several goals,
                         which one), the retargeted goal, or the best node of a
                         partial path; (-1, -1) when there is no path */
  astar_status cause; /* with ASTAR_PARTIAL: why the goal was not reached
                         (ASTAR_NO_PATH, ASTAR_LIMIT_REACHED or ASTAR_STOPPED);
                         otherwise the returned status */
  bool retargeted;    /* options.retarget replaced an unreachable goal by `end`,
                         the reachable cell nearest to it; false otherwise */
} astar_result;

/*
** The workspace. Retains: nothing after a one-shot search returns (the grid
** given to astar_workspace_new / _reserve only sizes it). A sliced search
** (astar_search_begin*, astar_space_search_begin* of astar/engine.h)
** retains, from begin until its finish, cancel or the next begin, the grid
** or space searched and everything the options and the begin call name --
** layers, knowledge, islands, callbacks and their contexts, the goals
** array or goal test -- which must stay alive and unchanged meanwhile.
** Thread safety: one thread at a time (it is that thread's scratch memory);
** any number of workspaces may search one grid at once.
*/
typedef struct astar_workspace astar_workspace;

/*
** Create a workspace big enough for `grid` and for any grid with no more
** cells ((width+2)*(height+2) counts). The grid is not retained. `alloc` may
** be NULL (malloc). Allocates about 38 bytes per cell (astar_workspace_memory).
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_workspace_new(astar_workspace **out, const astar_grid *grid,
                                           const astar_allocator *alloc);

/*
** A workspace holding nothing yet, to be reserved for what it will search:
** astar_workspace_reserve (a grid), astar_workspace_reserve_space (a space,
** astar/engine.h) or astar_workspace_reserve_states (implicit states,
** astar/implicit.h). A search on it before that returns ASTAR_CAPACITY.
** Allocates the workspace itself (a few kilobytes). ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (out NULL) or ASTAR_NO_MEMORY.
*/
ASTAR_API astar_status astar_workspace_new_empty(astar_workspace **out,
                                                 const astar_allocator *alloc);

/* Release the workspace. NULL is allowed. */
ASTAR_API void astar_workspace_free(astar_workspace *ws);

/* Grow the workspace, if needed, so that it can search `grid`. Allocates only
** when growing; on ASTAR_NO_MEMORY the workspace is unchanged and usable. */
ASTAR_API astar_status astar_workspace_reserve(astar_workspace *ws, const astar_grid *grid);

/* Bytes the workspace holds from its allocator. */
ASTAR_API size_t astar_workspace_memory(const astar_workspace *ws);

/*
** Find a path from `start` to `goal` on `grid`. `opt` may be NULL (defaults).
** On ASTAR_OK the path, start first and goal last, is written to path[0 ..
** length-1]; path may be NULL when cap is 0. `result` may be NULL; when given
** it is always filled (cost and length are 0 unless a path was found).
** Never allocates. See the top of this file for every outcome.
*/
ASTAR_API astar_status astar_find_path(astar_workspace *ws, const astar_grid *grid,
                                       const astar_options *opt, astar_point start,
                                       astar_point goal, astar_point *path, size_t cap,
                                       astar_result *result);

/*
** Copy the path found by the last astar_find_path on `ws` (status ASTAR_OK or
** ASTAR_BUFFER_TOO_SMALL) into path[0 .. *len-1]. *len receives the length.
** Returns ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (nothing written), ASTAR_NO_PATH
** (the last search found no path) or ASTAR_INVALID_ARGUMENT. No allocation.
*/
ASTAR_API astar_status astar_workspace_path(const astar_workspace *ws, astar_point *path,
                                            size_t cap, size_t *len);

/*
** Cost of `path` (n cells) on `grid` under `opt` (NULL: defaults), checking
** that every step is a legal move: in bounds, passable, adjacent, allowed by
** moves and the corner rule. On success *cost is the sum of step costs --
** the move's cost times the entered cell's terrain factor (terrain_scale,
** layers and knowledge are not applied) -- plus options.turn_penalty for
** every step whose direction differs from the step before it.
** Returns ASTAR_OK, or ASTAR_INVALID_ARGUMENT with *bad_index (if not NULL)
** set to the index of the first offending cell. No allocation.
*/
ASTAR_API astar_status astar_path_cost(const astar_grid *grid, const astar_options *opt,
                                       const astar_point *path, size_t n, double *cost,
                                       size_t *bad_index);

/* The starting value of astar_path_hash (the FNV-1a 64-bit offset basis). */
#define ASTAR_PATH_HASH_INIT UINT64_C(14695981039346656037)

/*
** Fold `path` (n cells; NULL when n is 0) into the 64-bit FNV-1a hash `h`:
** each cell's x then y as 4 little-endian bytes of their two's complement.
** Start from ASTAR_PATH_HASH_INIT; chaining calls hashes a sequence of
** paths. The same cells give the same value on every platform -- what the
** golden path hashes of the tests compare (tests/golden/). No allocation.
*/
ASTAR_API uint64_t astar_path_hash(const astar_point *path, size_t n, uint64_t h);

/*
** ---- Game loop: sliced search, budgets, partial paths ----------------------
**
** A search can run a slice at a time (Detour's "sliced" queries): begin sets
** it up, each step expands at most `budget` nodes, finish hands out the
** path. The workspace holds the search between calls; the grid, and any
** layers / knowledge / islands / callbacks / goal array named by the
** options, must stay alive until finish or cancel, and unchanged -- except
** the grid and the knowledge, which may change between two steps: the next
** step then returns ASTAR_STALE, never a path planned on what is no longer
** true. For the knowledge, only a change the search can see
** (astar_knowledge_version) and has read: a changed cell that is the goal
** or lies within one cell of a cell the search has reached. A change it
** has not read leaves the grid A* running (a single goal, no turn penalty,
** no retargeting, and at most 4,096 such changes since begin and no clear:
** otherwise ASTAR_STALE as for any change): the search so far is exactly
** the one begun on the new knowledge, and its answer is the one-shot answer
** on the knowledge as it is when it ends. Checked between slices only, when
** the knowledge changed: nine mark reads a changed cell. Stepping to the end
** gives exactly the path and statistics of astar_find_path, whatever the
** budgets.
**
** options.max_expansions bounds the whole search (ASTAR_LIMIT_REACHED);
** options.stop_fn is a deadline hook (ASTAR_STOPPED). With options.partial,
** a search that ends without reaching the goal -- no path, limit, stopped --
** finishes with ASTAR_PARTIAL and the path to the best node expanded:
** the one closest to the goal by the move rules' distance (octile, or
** Manhattan with 4 moves; for several goals the nearest), then cheapest,
** then earliest expanded. result.cause says why. A partial path is never
** reported as ASTAR_OK.
*/

/* Set up a search on ws (cancelling any search in progress). Returns
** ASTAR_OK when the search is ready to step, or its final outcome at once
** (ASTAR_START_BLOCKED, ASTAR_OUT_OF_BOUNDS, ASTAR_UNSUPPORTED, ...; with
** islands, ASTAR_NO_PATH for an unreachable goal). No allocation. */
ASTAR_API astar_status astar_search_begin(astar_workspace *ws, const astar_grid *grid,
                                          const astar_options *opt, astar_point start,
                                          astar_point goal);

/* As astar_search_begin, with several goals: the search ends at the first
** goal it reaches (the cheapest one, under an admissible heuristic); the
** built-in heuristic is the minimum over the goals (O(ngoals) per node, so
** meant for tens of goals, not thousands). goals[] must stay valid until
** finish. Blocked or outside goals are skipped; none left: ASTAR_GOAL_BLOCKED. */
ASTAR_API astar_status astar_search_begin_multi(astar_workspace *ws, const astar_grid *grid,
                                                const astar_options *opt, astar_point start,
                                                const astar_point *goals, size_t ngoals);

/* Goal test for a goal region: true when `cell` is a goal. */
typedef bool (*astar_goal_fn)(void *ctx, astar_point cell);

/* As astar_search_begin, the goal being any cell for which is_goal returns
** true. The heuristic is options.heuristic_fn with ASTAR_H_CALLBACK (called
** with goal (-1, -1)), otherwise zero (Dijkstra). */
ASTAR_API astar_status astar_search_begin_region(astar_workspace *ws, const astar_grid *grid,
                                                 const astar_options *opt, astar_point start,
                                                 astar_goal_fn is_goal, void *goal_ctx);

/* Expand up to `budget` nodes (0: no budget). *expanded (may be NULL)
** receives the number expanded by this call. Returns ASTAR_IN_PROGRESS when
** the budget ran out first, otherwise the search's outcome (ASTAR_OK, goal
** reached; ASTAR_NO_PATH; ASTAR_LIMIT_REACHED; ASTAR_STOPPED; ASTAR_STALE,
** the grid or options.knowledge changed since begin -- checked before any
** expansion, finish then gives no path; ASTAR_INVALID_ARGUMENT if no search
** was begun). No allocation. */
ASTAR_API astar_status astar_search_step(astar_workspace *ws, uint64_t budget, uint64_t *expanded);

/* End the search: write its path and result exactly as astar_find_path
** would (with options.partial, a path to the best node: ASTAR_PARTIAL).
** Returns ASTAR_IN_PROGRESS, touching nothing, if the search has not ended.
** The path stays available through astar_workspace_path. No allocation. */
ASTAR_API astar_status astar_search_finish(astar_workspace *ws, astar_point *path, size_t cap,
                                           astar_result *result);

/* Abandon the search in progress (if any). */
ASTAR_API void astar_search_cancel(astar_workspace *ws);

/* One-shot searches for several goals or a goal region (begin, step to the
** end, finish). */
ASTAR_API astar_status astar_find_path_multi(astar_workspace *ws, const astar_grid *grid,
                                             const astar_options *opt, astar_point start,
                                             const astar_point *goals, size_t ngoals,
                                             astar_point *path, size_t cap, astar_result *result);
ASTAR_API astar_status astar_find_path_region(astar_workspace *ws, const astar_grid *grid,
                                              const astar_options *opt, astar_point start,
                                              astar_goal_fn is_goal, void *goal_ctx,
                                              astar_point *path, size_t cap, astar_result *result);

/*
** Make `ws` able to search `grid` with options.turn_penalty > 0: such a
** search runs over (cell, arrival direction) states, nine per cell, and
** needs 9 x 34 = 306 bytes more per padded cell ((width + 2) x (height + 2)
** cells; astar_workspace_memory reports the total). Allocates once; searches after it
** do not. ASTAR_OK or ASTAR_NO_MEMORY (the workspace unchanged).
*/
ASTAR_API astar_status astar_workspace_reserve_turns(astar_workspace *ws, const astar_grid *grid);

/*
** ---- Costs and optimality ----------------------------------------------------
**
** The path is optimal (least total cost under the options' cost model) when
** the heuristic is admissible -- every built-in one except Manhattan with
** diagonal moves -- and weight <= 1; terrain factors, influence layers and
** turn penalties are part of the cost model and keep it optimal. Choices
** that trade the exact cost for speed, each measured against the exact
** model:
**   weight w > 1         cost <= w x optimal (weighted A*);
**   terrain_scale < 1    optimal for the scaled terrain only; against the
**                        real terrain the path can be much worse (it is a
**                        quick first draft: refine with terrain_scale 1);
**   ASTAR_H_MANHATTAN with diagonals, or an inadmissible callback: no bound.
**
** Terrain below 1 and the heuristic. To stay admissible the built-in
** heuristics assume every step is as cheap as the cheapest cell on the grid
** (astar_grid_min_terrain, after terrain_scale). One cheap road on a map of
** factor-1 cells therefore weakens the heuristic everywhere: one road row
** of 0.5 across an open 256 x 256 map took 50 searches from 82,863 to
** 900,667 expansions (11x; den520d: 3x). Two ways out:
**   heuristic_floor f    the heuristics assume factor f instead: with m the
**                        smallest factor, f > m is weighted A* by f / m
**                        (cost <= (f / m) x optimal, the bound of `weight`).
**                        Same 50 searches with f = 1: 23,158 expansions, cost
**                        1.06 x optimal on average, 1.84 x at worst (den520d:
**                        1.0002 / 1.0027); bench/terrain_floor.c;
**   landmarks            an admissible and consistent heuristic computed on
**                        the real costs (astar/landmarks.h): exact. Same
**                        road map, 10 searches: 164,530 expansions with the
**                        floor-scaled octile, 37,247 with 8 landmarks
**                        (tests/test_landmarks.c, docs/hierarchy.md).
**
** With knowledge, "optimal" is relative to what the player knows, with
** unknown cells treated as options.unknown says.
*/

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_SEARCH_H */
