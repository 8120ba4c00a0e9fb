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
**       puts(astar_finder_unsupported_reason(grid, NULL, &cfg));
**     astar_finder_find(f, ws, start, goal, path, cap, &res);  (any thread,
**                                                  its own workspace)
**
** Methods (astar_method, astar/engine.h; astar_method_info_of says what
** each one is and needs, astar_method_from_name reads its name):
**   on the square grid's own loops: A* (ASTAR_METHOD_ASTAR, with a
**   landmark or waypoint-table heuristic when one is attached), Dijkstra
**   (A* with the zero heuristic), JPS, JPS+ (needs cfg.jps_plus), CPD
**   (needs cfg.cpd), HPA* (needs cfg.hpa), Theta*, Lazy Theta*, Anya;
**   on the engine (astar/engine.h): over the grid as a space (the methods
**   the grid's loops do not have: greedy, bidirectional, IDA*, beam,
**   dynamic weighting, bandwidth, front-to-front, retargeting), over a
**   waypoint graph of the grid (cfg.waypoints: every engine method, A* and
**   Dijkstra included) or over any space (astar_finder_new_space);
**   on a navigation mesh (astar/mesh.h, astar_finder_new_mesh): Polyanya
**   (the Euclidean shortest path) and A* over the polygons with the funnel
**   (string pulling, Detour's kind of path).
**
** Options. A grid finder takes the grid's rules and the search's settings
** from cfg.options -- weight, tie, reopen, max_expansions, partial, stop_fn
** too when the engine runs the method -- and the engine's variants' own
** settings (beam width, epsilon, bands, IDA* transpositions, legs, the
** node observer) from cfg.engine. A space finder takes everything from
** cfg.engine. A method refuses, through astar_finder_unsupported_reason and
** ASTAR_UNSUPPORTED from astar_finder_new, every option that would change
** what its path must satisfy and that it cannot honour (terrain it ignores,
** layers, fog, a turn penalty, partial paths, an observer it cannot feed,
** an expansion limit it has no expansions for, ...); settings that only
** tune a search (weight, tie order, open list, heuristic) are ignored by the
** methods that have no such thing, as each method's line in the table says.
**
** Scratch. A search runs on an astar_workspace (astar/search.h), the one
** per-thread scratch object of every method: a workspace from
** astar_workspace_new_empty grows on the first search that needs more
** (node records, turn states, the engine's arcs, HPA*'s query, Anya's node
** pool, the finder's path scratch) and never allocates again for searches
** of the same finder or smaller ones -- except that Anya's node pool
** doubles whenever a query needs more nodes than any before (Anya's node
** count is not bounded by the map: astar/anya.h), and the path scratch
** grows for a path longer than any before where the grid gives no bound
** (Anya's bends in a sliced search; an HPA* path with more points than the
** grid has cells). A search that cannot grow the workspace returns
** ASTAR_NO_MEMORY and leaves it usable.
**
** Paths. A grid finder writes astar_point cells (astar_finder_find): every
** cell of the path for the grid methods; the bends for the any-angle ones
** (Theta*, Lazy Theta*, waypoint graphs, string pulling by cfg.smooth).
** Anya's bends are grid corners: astar_vec2 points (astar_finder_find_vec,
** which also gives every other grid finder's points as cell centres). A
** space finder writes astar_node ids (astar_finder_find_nodes). A call of
** the wrong kind for the finder (find on Anya, find_nodes on a grid
** finder, ...) is ASTAR_INVALID_ARGUMENT.
**
** Staleness. A finder with attachments (a precomputation, a waypoint graph,
** a unit's clearance) is valid while its grid -- and a space finder's
** space, through its version op -- is at the version it had when the
** finder was made or last refreshed (astar_grid_version); after an edit its
** searches return ASTAR_STALE until the attachments are brought up to date
** by their own functions (astar_hpa_sync, astar_clearance_update_cells, a
** new table, ...) and astar_finder_refresh is called. A finder without
** attachments follows the grid's edits by itself. A sliced search in
** progress ends with ASTAR_STALE when the grid (or the space) changes
** under it, whatever the finder.
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
#include "mesh.h"
#include "search.h"
#include "space.h"
#include "subgoal.h"
#include "waypoint_table.h"
#include "waypoints.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a method is (astar_method_info.flags). */
/* Exact with an admissible heuristic and weight <= 1. */
#define ASTAR_MF_OPTIMAL 0x0001u
/* Within a documented factor of optimal. */
#define ASTAR_MF_BOUNDED 0x0002u
/* Resumes across astar_finder_step calls. */
#define ASTAR_MF_SLICED 0x0004u
/* Searches a square grid (astar_finder_new). */
#define ASTAR_MF_GRID 0x0008u
/* The engine runs it: on any space (astar_finder_new_space), and on a grid
** as a space or a waypoint graph. */
#define ASTAR_MF_SPACE 0x0010u
/* Paths of straight segments, not grid moves. */
#define ASTAR_MF_ANY_ANGLE 0x0020u
/* Honours terrain costs (on a grid). */
#define ASTAR_MF_TERRAIN 0x0040u
/* Needs an attached precomputation (astar_method_info.needs). */
#define ASTAR_MF_NEEDS_PREP 0x0080u
/* Its path is astar_vec2 points (astar_finder_find_vec). */
#define ASTAR_MF_VEC 0x0100u
/* Searches a navigation mesh (astar_finder_new_mesh): points in, points out
** (astar_finder_find_points). */
#define ASTAR_MF_MESH 0x0200u

/* What a method can be prepared from: the attachments of astar_finder_config,
** as bits of astar_method_info.needs and .takes. */
#define ASTAR_ATTACH_JPS_PLUS 0x01u  /* cfg.jps_plus */
#define ASTAR_ATTACH_CPD 0x02u       /* cfg.cpd */
#define ASTAR_ATTACH_HPA 0x04u       /* cfg.hpa */
#define ASTAR_ATTACH_LANDMARKS 0x08u /* cfg.landmarks */
#define ASTAR_ATTACH_TABLE 0x10u     /* cfg.table */
#define ASTAR_ATTACH_WAYPOINTS 0x20u /* cfg.waypoints */
/* A subgoal graph: not a field of astar_finder_config (whose layout stays
** that of 0.1.0) but the argument of astar_finder_new_subgoal. */
#define ASTAR_ATTACH_SUBGOAL 0x40u

/* One row of the method table. Static storage. */
typedef struct astar_method_info {
  astar_method method; /* the row's method */
  const char *name;    /* "astar", "jps", "jps-plus", "cpd", "hpa", "theta", ...: the tool's
                          --algo names */
  const char *summary; /* one line for help texts */
  unsigned flags;      /* ASTAR_MF_* above */
  unsigned needs;      /* ASTAR_ATTACH_* it cannot run without */
  unsigned takes;      /* ASTAR_ATTACH_* it can be given (needs included) */
  const char *work;    /* what astar_finder_step charges against a budget for it, e.g.
                          "node expansions", "cells of the path walked" */
} astar_method_info;

/* The table row of `method`, NULL for a value that is no method. */
ASTAR_API const astar_method_info *astar_method_info_of(astar_method method);

/* The method called `name` (astar_method_info.name, or astar_method_name's
** "bidirectional", "front-to-front", "retargeting"; the tool's --algo
** values): ASTAR_OK, or ASTAR_INVALID_ARGUMENT (unknown or NULL: *out
** untouched). No allocation. */
ASTAR_API astar_status astar_method_from_name(const char *name, astar_method *out);

/* Everything a finder is prepared from. Start from astar_finder_config_init
** so that fields added later get their defaults. Pointers are attached, not
** copied: see "Retains" at astar_finder. */
typedef struct astar_finder_config {
  astar_method method;         /* default ASTAR_METHOD_ASTAR */
  astar_options options;       /* a grid finder's rules and settings (astar/search.h; see
                                  "Options" above); options.algorithm is ignored */
  astar_engine_options engine; /* the engine's settings: all of them for a space finder, the
                                  variants' own (beam width, epsilon, bands, IDA*
                                  transpositions, legs, observer) for a grid finder;
                                  engine.method is ignored -- `method` decides */
  /* Precomputations, each built for the grid the finder is made on (with
  ** the movement rules of `options`: ASTAR_MISMATCH otherwise). */
  const astar_jps_plus *jps_plus;    /* JPS+ */
  const astar_cpd *cpd;              /* CPD */
  const astar_hpa *hpa;              /* HPA* */
  const astar_landmarks *landmarks;  /* A* (grid loop or engine) and the engine's methods
                                        that use a heuristic: the landmark heuristic */
  const astar_waypoint_table *table; /* A* on the grid: the waypoint-table heuristic */
  const astar_waypoints *waypoints;  /* the engine's methods: search this waypoint graph of
                                        the grid instead of its cells (any-angle paths) */
  bool smooth;                       /* grid finders: string-pull the path (astar_path_smooth,
                                        terrain and fog honoured); not Anya, not big units */
  /* Units bigger than one cell (astar/clearance.h): the finder searches the
  ** unit's derived grid (astar_clearance_fill_grid), start and goal are the
  ** unit's anchor. Grid methods without precomputations only. */
  int32_t unit_size;                /* 1 .. astar_clearance_max_size (default 1) */
  astar_capability capability;      /* terrain types the unit may enter: one the clearance
                                       was built for; 0 (default): ASTAR_CAPABILITY_ALL */
  const astar_clearance *clearance; /* needed when unit_size > 1 or capability != 0; when
                                       given, the derived grid is searched */
} astar_finder_config;

/* Defaults: A*, astar_options_init, astar_engine_options_init, nothing
** attached, no smoothing, a one-cell unit of every capability. */
ASTAR_API void astar_finder_config_init(astar_finder_config *cfg);

/*
** Why `cfg` cannot be prepared on `grid` (or, with grid NULL, on `space`):
** NULL when it can, otherwise one English sentence without a final period
** naming the first option, attachment or map property the method cannot
** honour and what to do ("jps: the grid has terrain costs; JPS needs
** uniform costs (clear the terrain, or use astar)"). Static storage; no
** allocation. Does not validate option values and does not check that the
** attachments belong to the grid (astar_finder_new does both). grid and
** space both NULL, or cfg NULL: a sentence saying so.
*/
ASTAR_API const char *astar_finder_unsupported_reason(const astar_grid *grid,
                                                      const astar_space *space,
                                                      const astar_finder_config *cfg);

/* The same for `cfg` on `mesh` (astar_finder_new_mesh's refusals): NULL when
** it can be prepared, else the sentence. */
ASTAR_API const char *astar_finder_mesh_unsupported_reason(const astar_mesh *mesh,
                                                           const astar_finder_config *cfg);

/*
** A prepared query. Retains: the grid or the space it was made on (a
** space's ops and self), every attachment of its config and everything
** the options point to (layers, knowledge, islands, callbacks and their
** contexts): all must outlive it; the config itself is copied. A unit
** bigger than one cell gets a derived grid the finder owns. Thread safety:
** read-only after astar_finder_new / _refresh -- any number of threads may
** search with it at once, each with its own workspace; _refresh and _free
** need it unused (no search in progress on any workspace). Callbacks named
** by the options are called from the searching threads.
*/
typedef struct astar_finder astar_finder;

/*
** Prepare `cfg` for `grid`: every option validated and resolved once, the
** attachments checked against the grid and the rules (ASTAR_MISMATCH: built
** for another grid or other movement rules; ASTAR_STALE: the grid changed
** since they were built), a unit bigger than one cell given its derived
** grid (kept in the finder, refilled by astar_finder_refresh). `alloc` may
** be NULL (malloc). Allocates the finder (and a derived grid for big
** units). Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (a NULL, an option out
** of range, a layer or knowledge of another size, unit_size out of range,
** a capability the clearance was not built for), ASTAR_UNSUPPORTED
** (astar_finder_unsupported_reason says why), ASTAR_MISMATCH, ASTAR_STALE
** or ASTAR_NO_MEMORY; *out is NULL on failure and nothing leaks.
*/
ASTAR_API astar_status astar_finder_new(astar_finder **out, const astar_grid *grid,
                                        const astar_finder_config *cfg,
                                        const astar_allocator *alloc);

/* The same for any space: the engine's methods only (ASTAR_MF_SPACE);
** cfg.options is ignored; cfg.landmarks (built for this space) may be
** attached, nothing else. The space value is copied; what it points to is
** retained. Statuses as astar_finder_new (ASTAR_INVALID_ARGUMENT also for
** an invalid space). */
ASTAR_API astar_status astar_finder_new_space(astar_finder **out, const astar_space *space,
                                              const astar_finder_config *cfg,
                                              const astar_allocator *alloc);

/*
** The same for a navigation mesh (astar/mesh.h): the mesh methods only
** (ASTAR_MF_MESH: polyanya, funnel). A mesh finder takes from cfg the
** method, cfg.engine's max_expansions (ASTAR_LIMIT_REACHED), stop_fn /
** stop_ctx / stop_interval (ASTAR_STOPPED) and weight (f = g + weight * h;
** polyanya is optimal only with weight 1); its observer is set apart
** (astar_finder_set_mesh_observer). It refuses (ASTAR_UNSUPPORTED, with the reason) attachments,
*units,
** smoothing, partial paths and the engine's observer; cfg.options is
** ignored. The mesh is retained (it must outlive the finder) and the
** finder follows its edits by itself (astar/navmesh_build.h): a search
** after an edit sees the mesh as it is then; a sliced search in progress
** across an edit ends with ASTAR_STALE. Statuses as astar_finder_new.
*/
ASTAR_API astar_status astar_finder_new_mesh(astar_finder **out, const astar_mesh *mesh,
                                             const astar_finder_config *cfg,
                                             const astar_allocator *alloc);

/*
** The same on a subgoal graph (astar/subgoal.h): a finder of method
** ASTAR_METHOD_SUBGOAL ("subgoal") for `grid`, the grid `sg` was built or
** loaded for. cfg may be NULL (defaults); cfg->method is ignored (read as
** ASTAR_METHOD_SUBGOAL) and cfg->options must be the rules the graph was
** built with (moves, corner, costs: ASTAR_MISMATCH otherwise); the
** framework's options (max_expansions, stop, partial paths refused) apply.
** It refuses (ASTAR_UNSUPPORTED) other attachments, units bigger than one
** cell and smoothing. astar_finder_new with that method returns
** ASTAR_UNSUPPORTED ("subgoal: needs a subgoal graph (make the finder with
** astar_finder_new_subgoal)"). Retains `sg` and `grid` (both must outlive
** the finder). After an edit of the grid a search returns ASTAR_STALE until
** the graph is rebuilt and a new finder made (astar_finder_refresh does not
** rebuild it). Statuses as astar_finder_new.
*/
ASTAR_API astar_status astar_finder_new_subgoal(astar_finder **out, const astar_grid *grid,
                                                const astar_subgoal *sg,
                                                const astar_finder_config *cfg,
                                                const astar_allocator *alloc);

/*
** Why astar_finder_new_subgoal would refuse `cfg` (NULL: defaults; its
** method is read as ASTAR_METHOD_SUBGOAL) on `grid` with a graph: NULL when
** it would not, else one English sentence without a final period (the
** rules of astar_subgoal_unsupported_reason, the framework's refusals
** above). Looks at no graph: a graph for another grid or other rules is
** ASTAR_MISMATCH at astar_finder_new_subgoal, not a reason. Static storage;
** no allocation; thread-safe.
*/
ASTAR_API const char *astar_finder_subgoal_unsupported_reason(const astar_grid *grid,
                                                              const astar_finder_config *cfg);

/* The subgoal graph a subgoal finder searches; NULL for other finders. */
ASTAR_API const astar_subgoal *astar_finder_subgoal(const astar_finder *f);

/* The mesh a mesh finder searches; NULL for other finders. */
ASTAR_API const astar_mesh *astar_finder_mesh(const astar_finder *f);

/* A mesh finder's observer (astar/mesh.h, astar_mesh_event): `fn` (NULL:
** none) is called with `ctx` for every search node of every later search,
** from the searching thread -- for pictures. Set apart from
** astar_finder_config so that the config's layout stays that of 0.1.0.
** Needs the finder unused (like astar_finder_refresh). Returns ASTAR_OK,
** or ASTAR_INVALID_ARGUMENT (f NULL, or not a mesh finder). No allocation. */
ASTAR_API astar_status astar_finder_set_mesh_observer(astar_finder *f, astar_mesh_observer_fn fn,
                                                      void *ctx);

/*
** The funnel method (ASTAR_METHOD_FUNNEL, "funnel"): Detour's kind of
** path, fast and not optimal.
**   1. Start and goal are located (astar_mesh_locate). A point belongs to
**      every polygon whose closed area holds it (both sides of an edge, all
**      polygons around a vertex -- a vertex where obstacles meet too). In
**      no polygon: ASTAR_START_BLOCKED, then ASTAR_GOAL_BLOCKED. One
**      polygon holding both: the straight segment (start == goal: the one
**      point), no search -- no events, stats 0, res.abstract_length 1.
**   2. A* over the polygons. A node is a polygon entered through one of
**      its edges (a portal), and stands for the middle of that edge; the
**      start node stands for the start. Arcs lead out of a polygon through
**      its other portals (never back into the polygon just left, nor into
**      one holding the start); a polygon holding the goal leads to the
**      goal only. g is the length of the polyline start -> middles of the
**      portals crossed -> goal; h is the straight-line distance to the
**      goal (admissible and consistent for that g), f = g + weight * h
**      (cfg.engine.weight; 0 is Dijkstra). Ties: smaller f, then larger g,
**      then the edge stored first in the mesh (for a mesh as read or made,
**      by polygon, then edge): the same query on the same mesh gives the
**      same corridor everywhere. A node is expanded once
**      (no reopening: with weight <= 1 none is needed). Every polygon of
**      the corridor is different and each is the neighbour of the one
**      before; res.abstract_length counts them.
**   3. The funnel (simple stupid funnel) pulls the path taut inside the
**      corridor with exact orientation tests: the shortest path from start
**      to goal through the corridor's portals in order, bending only at
**      portal ends (mesh vertices); no bend where the path goes straight
**      on. res.cost is its length (the sum of its segments in order),
**      res.length its points. It never leaves the mesh and never passes
**      between obstacles that meet at a vertex. It is no shorter than
**      Polyanya's path and usually a little longer: the corridor whose
**      midpoint polyline is shortest need not hold the shortest path.
** Search events (astar_finder_set_mesh_observer): PUSH when a node enters the open list
** or gets a lower g in it (res.stats.generated counts them), EXPAND when
** one is taken out, GOAL (the last event) when the goal is; stats.expanded
** counts EXPAND and GOAL; event.polygon is the polygon the node entered
** (the start's: the smallest-index polygon holding it), root the point the
** node stands for, left / right the portal's ends as seen going in.
** cfg.engine.max_expansions: ASTAR_LIMIT_REACHED once that many nodes were
** expanded without taking out the goal; stop_fn is polled every
** stop_interval expansions (ASTAR_STOPPED). res.work = stats.expanded. The
** method runs whole (a sliced search does it in its first step). Its
** records (40 bytes per polygon edge) live in the workspace, grown
** on the first search of a mesh and kept: no allocation per query after
** that, and none clearing (a search stamps what it touches).
*/

/* Release the finder. NULL is allowed. */
ASTAR_API void astar_finder_free(astar_finder *f);

/* The config the finder was made from (its own copy). */
ASTAR_API const astar_finder_config *astar_finder_config_of(const astar_finder *f);

/* The grid the finder searches: the one it was made on, or a big unit's
** derived grid (where its paths are legal moves: astar_path_cost); NULL for
** a space finder. Owned by the finder or the caller as said above. */
ASTAR_API const astar_grid *astar_finder_grid(const astar_finder *f);

/*
** Bring the finder up to its grid's (or space's) current version after
** edits: the attachments are checked (each must have been brought up to
** date by its own functions first) and a big unit's derived grid is
** refilled -- only around the cells changed since, when the grid's change
** log reaches back (astar_grid_track_changes), otherwise whole. Returns
** ASTAR_OK, ASTAR_STALE (an attachment is out of date: the finder stays
** stale), ASTAR_INVALID_ARGUMENT (NULL) or ASTAR_NO_MEMORY (a derived grid
** that needs a terrain layer it could not get: the finder stays stale).
** No allocation otherwise. Needs the finder unused.
*/
ASTAR_API astar_status astar_finder_refresh(astar_finder *f);

/* Everything a search produced besides its path: the common part, and
** each method's own figures (0 where a method has none). */
typedef struct astar_path_result {
  astar_status status; /* what the call returned */
  astar_status cause;  /* ASTAR_PARTIAL: why the goal was not reached; else status */
  double cost;         /* cost of the path returned (after smoothing, of the smoothed
                          path); with ASTAR_BUFFER_TOO_SMALL that of the path not
                          written; 0 without a path */
  size_t length;       /* points of the path (cells, bends or nodes); with
                          ASTAR_BUFFER_TOO_SMALL the length needed */
  astar_stats stats;   /* expansions, pushes, reopenings, largest open list */
  uint64_t work;       /* what the method charges a budget for (astar_method_info.work) */
  astar_point end;     /* last cell of the path (grid); (-1, -1) without a path */
  astar_node end_node; /* last node of the path (space); ASTAR_NODE_NONE without one */
  bool retargeted;     /* options.retarget moved an unreachable goal to `end` */
  /* Method figures. */
  uint64_t dropped;           /* beam, bandwidth: entries dropped */
  uint64_t iterations;        /* IDA*: bounds tried; retargeting: legs */
  uint64_t sight_checks;      /* Theta*, Lazy Theta*: lines of sight tested */
  uint64_t abstract_expanded; /* HPA*: abstract nodes expanded (stats.expanded adds the
                                 cells and nodes settled joining and refining) */
  uint32_t abstract_length;   /* HPA*: nodes of the abstract path; funnel: polygons of the
                                 corridor A* found */
  double grid_cost;           /* with smoothing: the cost of the path before it */
  astar_node meet;            /* bidirectional methods (bidir, f2f, retarget): the node where
                                 the two searches met -- of the space searched (a grid
                                 finder's: astar_grid_space_node's id, y * width + x);
                                 ASTAR_NODE_NONE otherwise */
} astar_path_result;

/*
** One search from `start` to `goal` with the finder, on `ws` (this
** thread's workspace; grown if needed). The path goes to path[0 ..
** length-1] (path may be NULL when cap is 0). `res` may be NULL; when given
** it is always filled. Outcomes as the method's own call (astar_find_path
** and astar/search.h for the grid's loops; astar/engine.h for the engine;
** each method's header), and: ASTAR_STALE (the finder is behind its grid:
** astar_finder_refresh), ASTAR_NO_MEMORY (ws could not grow; it stays
** usable), ASTAR_INVALID_ARGUMENT (a NULL, or the wrong call for the
** finder: see "Paths"). A sliced search in progress on ws is cancelled.
** No allocation once ws has grown for the finder.
*/
ASTAR_API astar_status astar_finder_find(const astar_finder *f, astar_workspace *ws,
                                         astar_point start, astar_point goal, astar_point *path,
                                         size_t cap, astar_path_result *res);

/* The same with the points as astar_vec2 in cell units: Anya's bends on grid
** corners; every other grid finder's points as the centres of its cells
** (x + 0.5, y + 0.5). The conversion needs the workspace's path scratch
** (8 bytes a padded cell of the grid, grown on first use). */
ASTAR_API astar_status astar_finder_find_vec(const astar_finder *f, astar_workspace *ws,
                                             astar_point start, astar_point goal, astar_vec2 *path,
                                             size_t cap, astar_path_result *res);

/* A space finder's search: node ids. */
ASTAR_API astar_status astar_finder_find_nodes(const astar_finder *f, astar_workspace *ws,
                                               astar_node start, astar_node goal, astar_node *path,
                                               size_t cap, astar_path_result *res);

/*
** A mesh finder's search: from point `start` to point `goal` (mesh
** coordinates), the path's points -- start, every bend, goal -- to
** path[0 .. length-1]; res->cost is its Euclidean length. A start or goal
** in no polygon (astar_mesh_locate) is ASTAR_START_BLOCKED /
** ASTAR_GOAL_BLOCKED; start and goal in parts of the mesh not connected
** is ASTAR_NO_PATH; a coordinate not finite is ASTAR_INVALID_ARGUMENT.
** Start == goal gives the one-point path of cost 0. Other statuses as
** astar_finder_find; the other find calls on a mesh finder, and this one
** on another finder, are ASTAR_INVALID_ARGUMENT. No allocation once ws
** has grown for the mesh, except that a search needing more nodes than
** any before doubles the method's node pool (Polyanya's node count is not
** bounded by the mesh, like Anya's).
*/
ASTAR_API astar_status astar_finder_find_points(const astar_finder *f, astar_workspace *ws,
                                                astar_vec2 start, astar_vec2 goal, astar_vec2 *path,
                                                size_t cap, astar_path_result *res);

/*
** Sliced search (the game loop, the request queue). begin sets a search up
** on ws (growing ws if needed: the only call of the four that allocates);
** each step does at most about `budget` units of the method's work
** (astar_method_info.work; 0: no budget) and reports what it did in *work
** (may be NULL); finish writes the path. A method with ASTAR_MF_SLICED
** resumes where it stopped; any other runs whole inside the first step and
** reports all its work, so a caller charging budgets by *work still bounds
** its frames on average. Stepping to the end gives exactly
** astar_finder_find's status, path and result, whatever the budgets.
** begin (begin_nodes for a space finder) returns ASTAR_OK (ready to step)
** or the search's final outcome at once -- a stale finder, ASTAR_NO_MEMORY,
** and for a resumable method blocked or outside ends and the like (a whole
** method finds those in its first step); finish then gives that outcome
** again with res filled as find would; step returns ASTAR_IN_PROGRESS
** while the search goes on, else its outcome (ASTAR_OK when a path was
** found -- finish tells the final status -- or ASTAR_NO_PATH, ...;
** ASTAR_STALE when the grid or space changed since begin; ASTAR_INVALID_ARGUMENT
** without a search begun); finish (finish_vec, finish_nodes: the kinds of
** path as for find) returns ASTAR_IN_PROGRESS, touching nothing, before
** the end, else the outcome and the path exactly as find. The finder, its
** grid or space and ws are in use from begin to finish or cancel; another
** search on ws (a finder's or a direct one) cancels this one. Steps and
** finish never allocate, except that a whole method's path longer than
** the scratch begin reserved (HPA*'s, beyond the grid's cells; Anya's,
** beyond the most bends seen) grows it in the step.
*/
ASTAR_API astar_status astar_finder_begin(const astar_finder *f, astar_workspace *ws,
                                          astar_point start, astar_point goal);
ASTAR_API astar_status astar_finder_begin_nodes(const astar_finder *f, astar_workspace *ws,
                                                astar_node start, astar_node goal);
/* A mesh finder's begin (finish with astar_finder_finish_vec). */
ASTAR_API astar_status astar_finder_begin_points(const astar_finder *f, astar_workspace *ws,
                                                 astar_vec2 start, astar_vec2 goal);
ASTAR_API astar_status astar_finder_step(astar_workspace *ws, uint64_t budget, uint64_t *work);
ASTAR_API astar_status astar_finder_finish(astar_workspace *ws, astar_point *path, size_t cap,
                                           astar_path_result *res);
ASTAR_API astar_status astar_finder_finish_vec(astar_workspace *ws, astar_vec2 *path, size_t cap,
                                               astar_path_result *res);
ASTAR_API astar_status astar_finder_finish_nodes(astar_workspace *ws, astar_node *path, size_t cap,
                                                 astar_path_result *res);
/* Abandon the sliced search in progress on ws, if any. NULL is allowed. */
ASTAR_API void astar_finder_cancel(astar_workspace *ws);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_FINDER_H */
