/*
** astar/replan.h -- units following paths on a changing map, and when they
** replan (Patel 5.1, "recalculating paths").
**
** An astar_follow is one unit's state, in caller storage: the path it
** follows, its position index on it, the steps walked since its last plan,
** whether a watch index reported its path changed, whether its last step
** was refused. A policy says when to replan; the unit replans by
** submitting a request to the path-request queue (astar/queue.h) and
** adopting the result when it is delivered, by a search on the spot, or by
** splicing its path (astar/splice.h).
**
** Reasons to replan, in the order astar_follow_due checks them (the first
** that holds is reported):
**   NO_PATH   the unit holds no path (a new order; its last plan failed and
**             the path was dropped);
**   BLOCKED   its last step was refused: the path ahead is stale (the
**             cell entered is blocked now, or the diagonal is cut);
**   CHANGED   ASTAR_REPLAN_ON_CHANGE and astar_follow_mark_changed was
**             called since the last plan -- the game calls it for the ids a
**             watch index's sync reports (astar/watch.h): Patel 5.3;
**   EVERY     ASTAR_REPLAN_ON_EVERY and `every` steps walked since the last
**             plan: the information is never older than N steps;
**   TURN      ASTAR_REPLAN_ON_TURN and the unit stands on a turn point of
**             its path (astar_path_turn_points: where the direction of the
**             path changes) -- the waypoints of Patel 5.1.
** NO_PATH and BLOCKED hold whatever the triggers (a unit cannot move
** otherwise); CHANGED, EVERY and TURN wait for min_steps steps since the
** last plan, which bounds how often one unit replans. At the goal nothing is
** due. A unit with a request pending in the queue is never due.
**
** Walking: astar_follow_step moves the unit one cell along its path if the
** step is legal on the grid now, otherwise refuses it (the unit stays, the
** step is counted as blocked). Adopting a queue result: the request was
** submitted from the cell the unit stood on; the unit kept walking its old
** path meanwhile, so the new path is taken up from the unit's current cell
** if that cell is on it (the first occurrence), else the result is dropped
** (counted in `dropped`), the old path kept, and the next due check decides
** again. A unit whose step was
** refused has not moved, so its result is always taken up.
**
** Nothing here allocates; the functions touch only the follower, and the
** queue / workspace / grid passed in.
*/
#ifndef ASTAR_REPLAN_H
#define ASTAR_REPLAN_H

#include "base.h"
#include "grid.h"
#include "queue.h"
#include "search.h"
#include "splice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Triggers of a policy (bits of astar_replan_policy.triggers). */
#define ASTAR_REPLAN_ON_EVERY 1u  /* every `every` steps */
#define ASTAR_REPLAN_ON_CHANGE 2u /* when marked changed (watch index) */
#define ASTAR_REPLAN_ON_TURN 4u   /* on reaching a turn point of the path */

/* When to replan. Zero-initialise and set what you need: zero triggers
** replan only when the unit has no path or its step was refused. */
typedef struct astar_replan_policy {
  unsigned triggers;  /* OR of ASTAR_REPLAN_ON_* bits */
  uint32_t every;     /* steps between plans with ASTAR_REPLAN_ON_EVERY, >= 1 */
  uint32_t min_steps; /* CHANGED, EVERY and TURN fire only after this many steps
                         since the last plan (0: at once) */
} astar_replan_policy;

/* Why a replan is due (astar_follow_due); see the top of this file. */
typedef enum astar_replan_reason {
  ASTAR_REPLAN_NONE = 0,    /* nothing due */
  ASTAR_REPLAN_NO_PATH,     /* no path held */
  ASTAR_REPLAN_BLOCKED,     /* the last step was refused */
  ASTAR_REPLAN_CHANGED,     /* the path was marked changed */
  ASTAR_REPLAN_EVERY,       /* `every` steps since the last plan */
  ASTAR_REPLAN_TURN,        /* on a turn point */
  ASTAR_REPLAN_REASON_COUNT /* number of reasons (not a reason) */
} astar_replan_reason;

/* One unit following a path. Set up with astar_follow_init; read the fields
** freely, change them only through the functions below. Retains: the two
** arrays given to astar_follow_init (`spare` is also the buffer of the
** request it submits: it must outlive that request too); a pending
** request is kept by id, not by pointer to the queue. The queue, workspace
** and grid of each call serve during that call only. Thread safety: one
** thread at a time. */
typedef struct astar_follow {
  astar_point *path;        /* caller storage [cap]: the path followed, path[pos] the
                               unit's cell (when len > 0) */
  astar_point *spare;       /* caller storage [cap]: where the next plan is written
                               (a pending request's buffer) */
  size_t cap;               /* cells in path and in spare each */
  size_t len;               /* cells of the path held; 0: none */
  size_t pos;               /* index of the unit's cell in path, < len */
  astar_point cell;         /* the unit's cell (also without a path) */
  astar_point goal;         /* where it is going */
  uint32_t since_plan;      /* steps walked since the path was adopted */
  bool changed;             /* marked changed since the path was adopted */
  bool blocked;             /* the last step was refused (cleared by a move or a plan) */
  bool pending;             /* a queue request is in flight (request) */
  astar_request_id request; /* the pending request, 0 when none */
  uint64_t replans;         /* plans adopted (queue, search or splice) */
  uint64_t blocked_steps;   /* steps refused: the path ahead was stale */
  uint64_t steps;           /* cells walked */
  uint64_t dropped;         /* queue results not adopted (the unit had left them) */
  double walked_cost;       /* cost of the steps walked (astar_path_cost's model) */
} astar_follow;

/*
** Set up `f` for a unit at `cell` going to `goal`, with two caller arrays of
** `cap` cells (>= 1 each, distinct, alive as long as f): no path held yet.
** ASTAR_OK or ASTAR_INVALID_ARGUMENT. No allocation.
*/
ASTAR_API astar_status astar_follow_init(astar_follow *f, astar_point *path, astar_point *spare,
                                         size_t cap, astar_point cell, astar_point goal);

/* Give the unit a new goal: its path is dropped (NO_PATH becomes due).
** A pending request stays pending: cancel it in the queue first if needed.
** ASTAR_OK or ASTAR_INVALID_ARGUMENT (f NULL). */
ASTAR_API astar_status astar_follow_set_goal(astar_follow *f, astar_point goal);

/* Take up path[0 .. n-1] (a plan made elsewhere): it must start at the
** unit's cell and end at its goal. Resets since_plan, changed and blocked;
** counts a replan. ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (n > cap; unchanged),
** ASTAR_INVALID_ARGUMENT (NULL, n == 0, wrong endpoints, a pending
** request). O(n), no allocation. */
ASTAR_API astar_status astar_follow_adopt_path(astar_follow *f, const astar_point *path, size_t n);

/* Mark the path changed (call it for the ids a watch sync reports). */
ASTAR_API void astar_follow_mark_changed(astar_follow *f);

/* True when the unit stands on its goal. */
ASTAR_API bool astar_follow_arrived(const astar_follow *f);

/* True when the unit holds a path and stands on one of its turn points
** other than the first and last cells (see the top of this file). */
ASTAR_API bool astar_follow_at_turn(const astar_follow *f);

/* Is a replan due under `policy` (NULL: no triggers)? The reason, or
** ASTAR_REPLAN_NONE. Pure; O(1). */
ASTAR_API astar_replan_reason astar_follow_due(const astar_follow *f,
                                               const astar_replan_policy *policy);

/*
** Walk one cell: if the unit holds a path, is not on its goal and the step
** path[pos] -> path[pos+1] is a legal move on `grid` now under `opt` (NULL:
** defaults), the unit moves (cell, pos, steps, since_plan, walked_cost
** updated, blocked cleared). Returns ASTAR_OK (moved, or already on the goal:
** nothing to do), ASTAR_STALE (the step is illegal: the unit stays,
** `blocked` set, blocked_steps counted), ASTAR_NO_PATH (no path held), or
** ASTAR_INVALID_ARGUMENT (f or grid NULL, bad options). No allocation.
*/
ASTAR_API astar_status astar_follow_step(astar_follow *f, const astar_grid *grid,
                                         const astar_options *opt);

/*
** If a replan is due under `policy`, submit a request from the unit's cell
** to its goal to `queue`, with `opt` (NULL: defaults), `priority` and
** `user` (handed back with the outcome), writing into f->spare. *reason
** (may be NULL) receives the reason (ASTAR_REPLAN_NONE: nothing submitted).
** Returns ASTAR_OK (submitted, or nothing due) or what
** astar_queue_submit_request returns (ASTAR_QUEUE_FULL, ...; nothing
** pending then). A request the queue answers at submission is pending
** until its result is adopted like any other. Never allocates.
*/
ASTAR_API astar_status astar_follow_submit(astar_follow *f, const astar_replan_policy *policy,
                                           astar_queue *queue, const astar_options *opt,
                                           int priority, void *user, astar_replan_reason *reason);

/*
** Take up the outcome `done` of the follower's pending request (from the
** queue's callback, or astar_queue_outcome). The request is no longer
** pending afterwards (release it in the queue). On ASTAR_OK with a path,
** the unit's current cell is looked up on the new path (see the top of this
** file): found, the path is adopted from there (a replan counted); not
** found, the result is dropped (`dropped` counted) and the old path kept.
** Any other status: the old path is kept (a stale one stays BLOCKED and is
** due again); ASTAR_NO_PATH, ASTAR_GOAL_BLOCKED and ASTAR_START_BLOCKED
** drop it (NO_PATH becomes due). Returns done->status, or
** ASTAR_INVALID_ARGUMENT (NULL, or not the pending request's outcome).
** O(path length), no allocation.
*/
ASTAR_API astar_status astar_follow_adopt(astar_follow *f, const astar_request_done *done);

/*
** Replan on the spot with one search from the unit's cell to its goal, on
** `ws` (reserved for `grid`) with `opt`; `result` may be NULL. On ASTAR_OK
** the path is adopted; otherwise the follower is unchanged except that
** ASTAR_NO_PATH, ASTAR_GOAL_BLOCKED and ASTAR_START_BLOCKED drop the path.
** Returns astar_find_path's status (ASTAR_BUFFER_TOO_SMALL when the path
** needs more than cap cells), or ASTAR_INVALID_ARGUMENT (NULL f, a request
** pending). No allocation.
*/
ASTAR_API astar_status astar_follow_plan(astar_follow *f, astar_workspace *ws,
                                         const astar_grid *grid, const astar_options *opt,
                                         astar_result *result);

/*
** Repair the path ahead by splicing (astar_path_splice with `sopt`, NULL:
** defaults) and adopt the result: since_plan, changed and blocked reset, a
** replan counted (also when the path was intact: the unit re-checked it).
** Without a path held, a plain search (astar_follow_plan). Returns
** astar_path_splice's status; on failure the follower is unchanged except
** that ASTAR_NO_PATH / ASTAR_GOAL_BLOCKED / ASTAR_START_BLOCKED drop the
** path. `rep` may be NULL. ASTAR_INVALID_ARGUMENT with a request pending.
** No allocation.
*/
ASTAR_API astar_status astar_follow_splice(astar_follow *f, astar_workspace *ws,
                                           const astar_grid *grid, const astar_options *opt,
                                           const astar_splice_options *sopt, astar_repair *rep);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_REPLAN_H */
