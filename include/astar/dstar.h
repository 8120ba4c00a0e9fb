/*
** astar/dstar.h -- incremental planners for worlds that change: D* Lite
** and LPA* (Koenig & Likhachev 2002, the optimised D* Lite; Koenig,
** Likhachev & Furcy 2004, Lifelong Planning A*). Part of libastar.
**
** A planner keeps its search state between calls. After the map changes
** (cells blocked or freed, terrain raised or lowered, arc costs changed)
** and, for D* Lite, after the agent moved, the next plan repairs only the
** part of the search the change affects instead of searching again.
**
**   ASTAR_DSTAR_LITE  D* Lite: the search runs backward from the goal; the
**                     agent moves (astar_dstar_move) and the goal stays.
**                     A plan gives the path from the agent's cell to the
**                     goal. The key modifier km grows by h(last, new) at
**                     the first edit or plan after a move.
**   ASTAR_DSTAR_LPA   LPA*: the search runs forward from a fixed start to a
**                     fixed goal; repeated plans after cost changes.
**
** Two back ends, one algorithm:
**   - the square grid (astar_dstar_new_grid): the moves, corner rule, move
**     costs, terrain and heuristic of astar_options, exactly as
**     astar_find_path charges them, and optionally fog of war
**     (options.knowledge: the planner plans on what the player knows).
**     The planner keeps its own snapshot of the entry factor of every cell
**     it planned with (0 for a blocked cell), so that it knows each arc's
**     old cost when told which cells changed (astar_dstar_update_cells).
**   - any space with predecessors (astar_dstar_new_space; astar/space.h):
**     CSR graphs, hex grids, waypoint graphs, a program's own space. The
**     space is read at every plan; the caller reports each changed arc with
**     its old cost (astar_dstar_update_arcs).
**
** Use, D* Lite on a grid (one agent walking to a goal on a changing map):
**     astar_dstar_new_grid(&p, grid, &opt, ASTAR_DSTAR_LITE, agent, goal, NULL);
**     loop: astar_dstar_plan(p, &res);            -- ASTAR_OK: a path exists
**           astar_dstar_next(p, &step);           -- the agent's next cell
**           astar_dstar_move(p, step);            -- the agent moved there
**           (the world changes: astar_grid_set_passable / _set_terrain /
**            astar_knowledge_reveal_radius ...)
**           astar_dstar_update_cells(p, grid, changed, n);
**
** Correctness. After every plan the cost equals that of a fresh
** astar_find_path (or engine A*) on the map as the planner knows it, and
** the path is a legal path of that cost. The heuristic must be consistent:
** the grid's built-in heuristics except Manhattan with diagonal moves; a
** space's heuristic is used only when the space is flagged
** ASTAR_SPACE_CONSISTENT (otherwise h = 0). Arc costs must be > 0 (the
** grid's always are): as in the papers, a cycle of zero-cost arcs could
** keep stale values alive, each vertex on it supporting the next.
**
** Tie order (determinism). The priority queue orders vertices by the key
** [k1, k2] = [min(g, rhs) + h + km, min(g, rhs)] lexicographically, then by
** node id (grid: padded cell index, i.e. smaller y first, then smaller x).
** The path follows, from each cell, the neighbour minimising arc cost +
** g (D* Lite) or g + arc cost (LPA*, traced back from the goal); among
** equal values the first in the order N, E, S, W, NE, SE, SW, NW (grid) or
** in the order the space lists its arcs. All arithmetic is IEEE double in
** a fixed order: the same calls give the same paths on every platform.
**
** Memory. Everything is allocated at creation; plans, moves and edits never
** allocate. Per node: g and rhs (16 bytes), a queue position (4) and a
** queue slot (24) -- 44 bytes; the grid back end adds the snapshot (an
** 8-byte entry factor and a 1-byte neighbour mask): 53 bytes per cell of
** the grid padded by a one-cell border ((width+2) x (height+2) cells), and
** a 256-entry buffer for reading the grid's change log (6 KB). The space
** back end adds two arc buffers of max_degree arcs.
**
** Threads: a planner is used by one thread at a time. The grid, knowledge
** and space it reads must not change during a call.
*/
#ifndef ASTAR_DSTAR_H
#define ASTAR_DSTAR_H

#include "base.h"
#include "grid.h"
#include "search.h"
#include "graph.h"
#include "space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A planner. Retains: a grid planner, opt->knowledge when given (read at
** creation, restart, update_cells and sync; not the grid, which each of
** those calls names); a space planner, the space's ops table and `self`
** object (the astar_space is copied; both are read at every plan, move and
** update); the observer and its ctx while set. Each must outlive the
** planner. Thread safety: one thread at a time; the grid, knowledge and
** space it reads must not change during a call. */
typedef struct astar_dstar astar_dstar;

/* Which algorithm a planner runs. */
typedef enum astar_dstar_mode {
  ASTAR_DSTAR_LITE = 0, /* D* Lite: backward from the goal, the agent moves */
  ASTAR_DSTAR_LPA       /* LPA*: forward from a fixed start to a fixed goal */
} astar_dstar_mode;

/* Work counters of a planner (astar_dstar_stats). */
typedef struct astar_dstar_stats {
  uint64_t expanded; /* vertices taken from the queue and made consistent (their g
                        set to rhs, or raised to infinity): the counterpart of
                        A*'s expansions */
  uint64_t requeued; /* vertices taken from the queue only to be put back with a
                        larger key (km grew since they were queued) */
  uint64_t updated;  /* vertex updates (UpdateVertex): by plans and by edits */
  uint64_t plans;    /* astar_dstar_plan calls that ran the search */
} astar_dstar_stats;

/* What a plan produced besides its status. */
typedef struct astar_dstar_result {
  double cost;             /* cost of the path from start to goal; 0 when none */
  astar_dstar_stats stats; /* work of this plan (edits since the previous plan included) */
} astar_dstar_result;

/*
** A planner on `grid` from `start` to `goal` under `opt` (NULL: defaults).
** The grid is read now (its cells are copied into the planner's snapshot)
** and at every astar_dstar_update_cells; it is not retained.
** opt->knowledge, when given, is retained (it must outlive the planner):
** cells are seen as the player knows them (astar/knowledge.h; unknown cells
** as opt->unknown says) and their terrain as the grid says.
** Honoured options: moves, corner, straight_cost, diagonal_cost, heuristic
** (AUTO, OCTILE, MANHATTAN with 4 moves, CHEBYSHEV, EUCLIDEAN, ZERO; scaled
** by the smallest terrain cost of the grid, or by heuristic_floor when that
** is > 0), knowledge, unknown, unknown_cost. Ignored: tie (the planner has
** its own, above), reopen, open_set, observer. Anything else that changes
** costs or the search (weight != 1, ASTAR_H_CALLBACK, Manhattan with
** diagonal moves, algorithm JPS, terrain_scale != 1, layers, turn_penalty,
** islands, partial, stop_fn, max_expansions) gives ASTAR_UNSUPPORTED.
** Nothing is searched yet: astar_dstar_plan does that. start and goal need
** not be passable now (a plan reports it). Allocates (see Memory above).
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (out or grid NULL, mode unknown,
** invalid options, knowledge of another size); ASTAR_OUT_OF_BOUNDS (start or
** goal outside the grid); ASTAR_UNSUPPORTED; ASTAR_NO_MEMORY. On failure
** *out is NULL and nothing leaks.
*/
ASTAR_API astar_status astar_dstar_new_grid(astar_dstar **out, const astar_grid *grid,
                                            const astar_options *opt, astar_dstar_mode mode,
                                            astar_point start, astar_point goal,
                                            const astar_allocator *alloc);

/*
** A planner on `space` (copied; the object it refers to must outlive the
** planner) from node `start` to node `goal`. The space must list
** predecessors. Its heuristic is used when the space is flagged
** ASTAR_SPACE_CONSISTENT, else h = 0. Every arc cost must be > 0 (see
** Correctness above; not checked). Allocates.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (out NULL, an invalid space, a
** node >= node_count, mode unknown); ASTAR_UNSUPPORTED (no predecessors);
** ASTAR_NO_MEMORY. On failure *out is NULL and nothing leaks.
*/
ASTAR_API astar_status astar_dstar_new_space(astar_dstar **out, const astar_space *space,
                                             astar_dstar_mode mode, astar_node start,
                                             astar_node goal, const astar_allocator *alloc);

/*
** A grid planner for a new query on `grid` (the planner's size), with the
** same options and knowledge: the snapshot is read again, the ends are
** set, the search state is dropped (the next plan is a full search). What
** a game does to give a unit new orders without a new planner. O(cells),
** no allocation. Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (planner or grid
** NULL); ASTAR_MISMATCH (a space planner, or a grid of another size);
** ASTAR_OUT_OF_BOUNDS (start or goal outside the grid; nothing changed).
*/
ASTAR_API astar_status astar_dstar_restart(astar_dstar *planner, const astar_grid *grid,
                                           astar_point start, astar_point goal);

/* Release the planner. NULL is allowed. */
ASTAR_API void astar_dstar_free(astar_dstar *planner);

/*
** Tell a grid planner that cells[0 .. n-1] may have changed on `grid` (a
** grid of the planner's size; usually the one it was made from):
** passability, terrain, or with options.knowledge the player's knowledge of
** them. Listing an unchanged cell, or a cell twice, is harmless. Each
** changed cell's arcs (in, out, and the diagonals it is a side cell of) are
** re-priced against the snapshot and repaired as the optimised D* Lite does
** (the c_old case analysis); the snapshot then holds the new value. If a
** cell's new entry factor is below the floor the heuristic was scaled by
** (a terrain cost lower than any the grid had, with heuristic_floor 0), the
** heuristic is rescaled and the planner starts over (the next plan is a
** full search). O(n) plus the repair; no allocation. All cells are checked
** before any is applied.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (planner or grid NULL, cells NULL
** with n > 0); ASTAR_MISMATCH (a space planner, or a grid of another size);
** ASTAR_OUT_OF_BOUNDS (a cell outside the grid; nothing applied).
*/
ASTAR_API astar_status astar_dstar_update_cells(astar_dstar *planner, const astar_grid *grid,
                                                const astar_point *cells, size_t n);

/*
** Tell a space planner that the arcs changes[0 .. n-1] changed: the
** records astar_graph_changes gives (astar/graph.h), or a program's own
** list. Only from and to are read: the space must already list the new
** costs (a removed arc: not listed; a new arc: listed), and the vertex
** whose rhs the arc feeds (D* Lite: from; LPA*: to) gets its rhs again from
** the space -- O(degree) an arc, and right whatever the old costs were
** (with parallel arcs the reported old cost need not be the one the
** planner used; the grid back end, which keeps its own snapshot, runs the
** optimised c_old case analysis instead). An arc listed twice, or
** unchanged, is harmless. Because an edit may lower the space's heuristic
** (astar_graph_set_arc_cost lowers its scale), every queued vertex is
** re-keyed with the current heuristic: O(queued vertices). No
** allocation.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (planner NULL, changes NULL with
** n > 0, a node >= node_count; nothing applied); ASTAR_MISMATCH (a grid
** planner).
*/
ASTAR_API astar_status astar_dstar_update_arcs(astar_dstar *planner,
                                               const astar_arc_change *changes, size_t n);

/*
** Bring a grid planner up to date with `grid` (a grid of the planner's
** size, usually the one it was made from) through the grid's change log
** (astar_grid_track_changes, astar_grid_changes): the cells changed since
** the version the planner last read (at creation or at the previous sync)
** are applied as astar_dstar_update_cells would. When the log cannot say
** (tracking off, the ring overwritten, a whole-grid operation, or more
** changes than the planner's 256-entry read buffer holds), every cell of
** the snapshot is compared with the grid instead (O(cells)) and the cells
** that differ are applied -- the repair stays incremental either way.
** Knowledge changes are not in the grid's log: report them with
** astar_dstar_update_cells (astar_knowledge_version, or reveal_radius's
** `changed`, tells whether there is anything to report). No allocation.
** Returns ASTAR_OK; ASTAR_INVALID_ARGUMENT (planner or grid NULL);
** ASTAR_MISMATCH (a space planner, or a grid of another size).
*/
ASTAR_API astar_status astar_dstar_sync(astar_dstar *planner, const astar_grid *grid);

/*
** D* Lite: the agent is now at `cell` (grid planners; any cell of the grid,
** usually the next cell of the path). The search state stays; km is raised
** at the next edit or plan. A move to the next cell of the last plan's
** path (astar_dstar_next) with no edit since that plan keeps the plan:
** path and next answer from the new cell without planning again (D* Lite's
** main loop plans only after edits); any other move makes them answer
** ASTAR_STALE until the next plan. O(degree), no allocation. Returns ASTAR_OK;
** ASTAR_INVALID_ARGUMENT (planner NULL); ASTAR_OUT_OF_BOUNDS;
** ASTAR_MISMATCH (a space planner); ASTAR_UNSUPPORTED (an LPA* planner: its
** ends are fixed).
*/
ASTAR_API astar_status astar_dstar_move(astar_dstar *planner, astar_point cell);

/* The same for space planners: node < node_count (else
** ASTAR_INVALID_ARGUMENT); ASTAR_MISMATCH on a grid planner. */
ASTAR_API astar_status astar_dstar_move_node(astar_dstar *planner, astar_node node);

/*
** Plan: repair the search after the edits and moves since the last plan
** (the first plan is a full search). `result` may be NULL; when given it is
** always filled. No allocation.
** Returns ASTAR_OK (a path exists; result->cost is its cost);
** ASTAR_NO_PATH (the goal cannot be reached on the map as known);
** ASTAR_START_BLOCKED / ASTAR_GOAL_BLOCKED (the start -- for D* Lite the
** agent's cell -- or the goal is blocked as the planner sees it; nothing is
** searched, the pending edits stay queued); ASTAR_INVALID_ARGUMENT (planner
** NULL).
*/
ASTAR_API astar_status astar_dstar_plan(astar_dstar *planner, astar_dstar_result *result);

/*
** The path of the last plan, start first (for D* Lite: the agent's cell
** first, the goal last), into buf[0 .. *len-1]; buf may be NULL when cap is
** 0. *len receives the path's length in cells in every case where a path
** exists. No allocation; O(length x degree).
** Returns ASTAR_OK; ASTAR_BUFFER_TOO_SMALL (nothing written, *len the
** needed length); the last plan's status when it found no path
** (ASTAR_NO_PATH, ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED); ASTAR_STALE (no
** plan yet, or an edit or move since the last plan: plan again);
** ASTAR_MISMATCH (cells asked of a space planner or nodes of a grid
** planner); ASTAR_INVALID_ARGUMENT (planner or len NULL, buf NULL with cap
** > 0).
*/
ASTAR_API astar_status astar_dstar_path(const astar_dstar *planner, astar_point *buf, size_t cap,
                                        size_t *len);
ASTAR_API astar_status astar_dstar_path_nodes(const astar_dstar *planner, astar_node *buf,
                                              size_t cap, size_t *len);

/*
** The cell after the start on the last plan's path (the agent's next step;
** the start itself when it is the goal): what a simulation moves the agent
** to, one cell a step. O(degree) for D* Lite, O(length x degree) for LPA*.
** Statuses as astar_dstar_path (never ASTAR_BUFFER_TOO_SMALL).
*/
ASTAR_API astar_status astar_dstar_next(const astar_dstar *planner, astar_point *next);
ASTAR_API astar_status astar_dstar_next_node(const astar_dstar *planner, astar_node *next);

/* Work counters since creation (total) and of the last plan (last, the
** edits before it included); either may be NULL. */
ASTAR_API void astar_dstar_stats_get(const astar_dstar *planner, astar_dstar_stats *total,
                                     astar_dstar_stats *last);

/* The planner's start (for D* Lite the agent's current cell) and goal, as
** cells (grid planners; (-1, -1) for a space planner or NULL). */
ASTAR_API astar_point astar_dstar_start(const astar_dstar *planner);
ASTAR_API astar_point astar_dstar_goal(const astar_dstar *planner);

/*
** What a repair touches, for pictures and teaching (the playground's walk
** mode shows it): fn is called for every vertex update whose rhs changed
** (by edits and by plans) and for every expansion, with the vertex as a
** cell (grid planners; node ASTAR_NODE_NONE) or as a node (space planners;
** cell (-1, -1)). A vertex may be reported more than once. Called during
** astar_dstar_update_cells / _update_arcs / _sync / _move / _plan; it must
** not call the planner. fn NULL removes it. Costs one test a vertex update
** when unset. ASTAR_OK or ASTAR_INVALID_ARGUMENT (planner NULL).
*/
typedef void (*astar_dstar_observer)(void *ctx, astar_point cell, astar_node node);
ASTAR_API astar_status astar_dstar_set_observer(astar_dstar *planner, astar_dstar_observer fn,
                                                void *ctx);

/* Bytes the planner holds from its allocator. */
ASTAR_API size_t astar_dstar_memory(const astar_dstar *planner);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_DSTAR_H */
