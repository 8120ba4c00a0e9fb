/*
** astar/finder.h -- one way to ask for a path: a method chosen in one
** place, prepared once, used by every caller.
**
** A finder is a prepared query (SQLite's prepared statement, Detour's
** navmesh query): the method, the map it searches (a grid or a space), the
** options, and whatever the method was prepared from (a JPS+ table, a CPD,
** an HPA* hierarchy, landmarks, a waypoint table or graph), checked once
** by astar_finder_new. Every search afterwards -- one-shot, sliced, from
** the request queue, from a batch, from the tool or a binding -- goes
** through it and is never validated again:
**
**     astar_finder_config cfg;
**     astar_finder_config_init(&cfg);
**     cfg.method = ASTAR_METHOD_JPS_PLUS;
**     cfg.jps_plus = table;                      (attached, not copied)
**     astar_finder *f;
**     if (astar_finder_new(&f, grid, &cfg, NULL) == ASTAR_UNSUPPORTED)
**       puts(astar_finder_unsupported_reason(grid, &cfg));
**     astar_finder_find(f, ws, start, goal, path, cap, &res);  (any thread,
**                                                  its own workspace)
**
** Methods (astar_method; astar_method_info says what each one is and
** needs, astar_method_from_name reads its name):
**   on the square grid's own loops: A* (ASTAR_METHOD_ASTAR, with a
**   landmark or waypoint-table heuristic when one is attached), JPS, JPS+
**   (needs cfg.jps_plus), CPD (needs cfg.cpd), HPA* (needs cfg.hpa),
**   Theta*, Lazy Theta*, Anya;
**   on the engine (astar/engine.h), over the grid as a space, over a
**   waypoint graph (cfg.waypoints) or over any space (astar_finder_new_space):
**   A*, Dijkstra, greedy, bidirectional, IDA*, beam, dynamic weighting,
**   bandwidth, front-to-front, retargeting.
**
** Scratch. A search runs on an astar_workspace (astar/search.h), the one
** per-thread scratch object of every method: a workspace from
** astar_workspace_new_empty grows on the first search that needs more
** (node records, turn states, HPA*'s and Anya's query state) and never
** allocates again for searches of the same finder or smaller ones. A
** search that cannot grow it returns ASTAR_NO_MEMORY and leaves it usable.
**
** Paths. A grid finder writes astar_point cells (astar_finder_find):
** every cell of the path for the grid methods; the bends for the any-angle
** ones (Theta*, Lazy Theta*, waypoint graphs, string pulling by
** cfg.smooth); Anya's bends are grid corners (astar_finder_find_vec).
** A space finder writes astar_node ids (astar_finder_find_nodes).
**
** Staleness. A finder is valid while its grid and attachments are at the
** version they had when it was made (astar_grid_version); after an edit,
** searches return ASTAR_STALE until the attachments are brought up to date
** (their own _update / _sync functions) and astar_finder_refresh is called.
** A finder without attachments follows the grid's edits by itself.
*/
#ifndef ASTAR_FINDER_H
#define ASTAR_FINDER_H

#include "anya.h"
#include "base.h"
#include "clearance.h"
#include "cpd.h"
#include "engine.h"
#include "grid.h"
#include "hierarchy.h"
#include "jps_plus.h"
#include "landmarks.h"
#include "search.h"
#include "space.h"
#include "waypoint_table.h"
#include "waypoints.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a method is and needs (astar_method_info). */
#define ASTAR_MF_OPTIMAL 0x0001u   /* exact with an admissible heuristic, weight <= 1 */
#define ASTAR_MF_BOUNDED 0x0002u   /* within a documented factor of optimal */
#define ASTAR_MF_SLICED 0x0004u    /* resumes across astar_finder_step calls */
#define ASTAR_MF_GRID 0x0008u      /* searches a square grid */
#define ASTAR_MF_SPACE 0x0010u     /* searches any space (astar_finder_new_space) */
#define ASTAR_MF_ANY_ANGLE 0x0020u /* paths of straight segments, not grid moves */
#define ASTAR_MF_TERRAIN 0x0040u   /* honours terrain costs */
#define ASTAR_MF_NEEDS_PREP 0x0080u /* needs an attached precomputation */

/* One row of the method table. Static storage. */
typedef struct astar_method_info {
  astar_method method;  /* the row's method */
  const char *name;     /* "astar", "jps", "jps-plus", "cpd", "hpa", "theta", ... */
  const char *summary;  /* one line for help texts */
  unsigned flags;       /* ASTAR_MF_* above */
  const char *work;     /* what astar_finder_step charges against a budget for it,
                           e.g. "node expansions", "cells of the path walked" */
} astar_method_info;

/* The table row of `method`, NULL for a value that is no method. */
ASTAR_API const astar_method_info *astar_method_info_of(astar_method method);

/* The method called `name` (astar_method_info.name; also the tool's
** --algo values): ASTAR_OK, or ASTAR_INVALID_ARGUMENT (unknown: *out
** untouched). */
ASTAR_API astar_status astar_method_from_name(const char *name, astar_method *out);

/* Everything a finder is prepared from. Start from astar_finder_config_init
** so that fields added later get their defaults. Pointers are attached, not
** copied: see "Retains" at astar_finder. */
typedef struct astar_finder_config {
  astar_method method;        /* default ASTAR_METHOD_ASTAR */
  astar_options options;      /* the grid's rules and the search's settings
                                 (astar/search.h); options.algorithm is ignored */
  astar_engine_options engine; /* the engine's settings (beam width, epsilon, bands,
                                  IDA* transpositions, legs); engine.method is
                                  ignored -- `method` decides */
  /* Precomputations, each for the grid the finder is made on. */
  const astar_jps_plus *jps_plus;     /* JPS+ */
  const astar_cpd *cpd;               /* CPD */
  const astar_hpa *hpa;               /* HPA* */
  const astar_landmarks *landmarks;   /* A* (grid or space): the landmark heuristic */
  const astar_waypoint_table *table;  /* A* on the grid: the waypoint-table heuristic */
  const astar_waypoints *waypoints;   /* engine methods: search this waypoint graph
                                         of the grid instead of its cells */
  bool smooth;                        /* grid methods: string-pull the path
                                         (astar_path_smooth: terrain and fog honoured) */
  /* Units bigger than one cell (astar/clearance.h): size 1 is a cell. */
  int32_t unit_size;                  /* 1 .. clearance max size (default 1) */
  astar_capability capability;        /* terrain types the unit may enter */
  const astar_clearance *clearance;   /* needed when unit_size > 1 or capability != 0 */
} astar_finder_config;

/* Defaults: A*, astar_options_init, astar_engine_options_init, nothing
** attached, no smoothing, a one-cell unit. */
ASTAR_API void astar_finder_config_init(astar_finder_config *cfg);

/*
** Why `cfg` cannot be prepared on `grid` (or, with grid NULL and space not
** NULL, on `space`): NULL when it can, otherwise one English sentence
** naming the first option, attachment or map property the method cannot
** honour and what to do ("jps: the grid has terrain costs; JPS needs
** uniform costs (clear the terrain, or use astar)"). Static storage or a
** sentence of the method's own; no allocation. Does not validate option
** values (astar_finder_new does).
*/
ASTAR_API const char *astar_finder_unsupported_reason(const astar_grid *grid,
                                                      const astar_space *space,
                                                      const astar_finder_config *cfg);

/*
** A prepared query. Retains: the grid or space it was made on, every
** attachment of its config and everything the options point to (layers,
** knowledge, islands, callbacks and their contexts): all must outlive it;
** the config itself is copied. Thread safety: read-only after
** astar_finder_new / _refresh -- any number of threads may search with it
** at once, each with its own workspace; _refresh and _free need it
** unused. Callbacks named by the options are called from those threads.
*/
typedef struct astar_finder astar_finder;

/*
** Prepare `cfg` for `grid`: every option validated and resolved once,
** the attachments checked against the grid and the rules (ASTAR_MISMATCH,
** ASTAR_STALE), a unit bigger than one cell given its derived grid (kept in
** the finder and kept current by astar_finder_refresh). Allocates the
** finder (and a derived grid for big units). Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (a NULL, an option out of range),
** ASTAR_UNSUPPORTED (astar_finder_unsupported_reason says why),
** ASTAR_MISMATCH, ASTAR_STALE or ASTAR_NO_MEMORY; *out is NULL on failure.
*/
ASTAR_API astar_status astar_finder_new(astar_finder **out, const astar_grid *grid,
                                        const astar_finder_config *cfg,
                                        const astar_allocator *alloc);

/* The same for any space: the engine's methods only (cfg.options' grid
** rules are ignored; cfg.landmarks may be attached). */
ASTAR_API astar_status astar_finder_new_space(astar_finder **out, const astar_space *space,
                                              const astar_finder_config *cfg,
                                              const astar_allocator *alloc);

/* Release the finder. NULL is allowed. */
ASTAR_API void astar_finder_free(astar_finder *f);

/* The config the finder was made from (its own copy). */
ASTAR_API const astar_finder_config *astar_finder_config_of(const astar_finder *f);

/*
** Bring the finder up to its grid's current version after edits: the
** derived grid of a big unit is refilled for the changed cells; attached
** precomputations are checked (they must have been updated by their own
** functions first). ASTAR_OK, ASTAR_STALE (an attachment is out of date)
** or ASTAR_NO_MEMORY. No allocation otherwise.
*/
ASTAR_API astar_status astar_finder_refresh(astar_finder *f);

/* Everything a search produced besides its path: the common part, and
** each method's own figures (0 where a method has none). */
typedef struct astar_path_result {
  astar_status status; /* what the call returned */
  astar_status cause;  /* ASTAR_PARTIAL: why the goal was not reached; else status */
  double cost;         /* cost of the path returned (after smoothing, of the
                          smoothed path); 0 without a path */
  size_t length;       /* points of the path (cells, bends or nodes); with
                          ASTAR_BUFFER_TOO_SMALL the length needed */
  astar_stats stats;   /* expansions, pushes, reopenings, largest open list */
  uint64_t work;       /* what the method charges a budget for (astar_method_info.work) */
  astar_point end;     /* last cell reached (grid); (-1, -1) without a path */
  astar_node end_node; /* last node reached (space); ASTAR_NODE_NONE without one */
  bool retargeted;     /* options.retarget moved an unreachable goal to `end` */
  /* Method figures. */
  uint64_t scanned;         /* JPS, JPS+: cells the jumps passed over */
  uint64_t dropped;         /* beam, bandwidth: entries dropped */
  uint64_t iterations;      /* IDA*: bounds tried; retargeting: legs */
  uint64_t sight_checks;    /* Theta*, Lazy Theta*, smoothing: lines of sight tested */
  uint64_t abstract_expanded; /* HPA*: abstract nodes expanded */
  uint32_t abstract_length;   /* HPA*: nodes of the abstract path */
  double grid_cost;         /* with smoothing or any-angle: the grid path's cost */
} astar_path_result;

/*
** One search from `start` to `goal` with the finder, on `ws` (this
** thread's workspace; grown if needed). The path goes to path[0 ..
** length-1] (path may be NULL when cap is 0). `res` may be NULL; when given
** it is always filled. Outcomes as astar_find_path's (astar/search.h),
** plus ASTAR_STALE (the finder is behind its grid: astar_finder_refresh)
** and ASTAR_NO_MEMORY (ws could not grow; it stays usable). No allocation
** once ws has grown for the finder.
*/
ASTAR_API astar_status astar_finder_find(const astar_finder *f, astar_workspace *ws,
                                         astar_point start, astar_point goal, astar_point *path,
                                         size_t cap, astar_path_result *res);

/* Anya's path: points on grid corners (astar/anya.h). Other any-angle
** methods give their bends as cell centres. */
ASTAR_API astar_status astar_finder_find_vec(const astar_finder *f, astar_workspace *ws,
                                             astar_point start, astar_point goal,
                                             astar_vec2 *path, size_t cap,
                                             astar_path_result *res);

/* A space finder's search: node ids. */
ASTAR_API astar_status astar_finder_find_nodes(const astar_finder *f, astar_workspace *ws,
                                               astar_node start, astar_node goal,
                                               astar_node *path, size_t cap,
                                               astar_path_result *res);

/*
** Sliced search (the game loop, the request queue). begin sets a search up
** on ws; each step does at most about `budget` units of the method's work
** (astar_method_info.work) and reports what it did in *work; finish writes
** the path. A method with ASTAR_MF_SLICED resumes where it stopped; any
** other runs whole inside the first step and reports all its work, so a
** caller charging budgets by *work still bounds its frames on average.
** Stepping to the end gives exactly astar_finder_find's path and result.
** begin returns ASTAR_OK (ready), or the final outcome at once (blocked or
** outside ends, start == goal, unreachable by islands); step returns
** ASTAR_IN_PROGRESS or the outcome; finish returns ASTAR_IN_PROGRESS,
** touching nothing, before the end. The finder and ws are in use from begin
** to finish or cancel. No allocation after begin.
*/
ASTAR_API astar_status astar_finder_begin(const astar_finder *f, astar_workspace *ws,
                                          astar_point start, astar_point goal);
ASTAR_API astar_status astar_finder_step(astar_workspace *ws, uint64_t budget, uint64_t *work);
ASTAR_API astar_status astar_finder_finish(astar_workspace *ws, astar_point *path, size_t cap,
                                           astar_path_result *res);
ASTAR_API void astar_finder_cancel(astar_workspace *ws);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_FINDER_H */
