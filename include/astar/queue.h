/*
** astar/queue.h -- a path-request queue that spreads searches over frames
** under a budget (seed 000, "speed tips"; Patel 3.4.2), for every method
** and every unit size (issue 26).
**
** Agents submit requests; every frame the game calls astar_queue_update
** with a budget of work. The queue works on its requests in a fixed, fair
** order -- higher priority first, then older (submission order) -- one at
** a time, moving to the next request as soon as one ends within the same
** update. A request's path goes into the caller's buffer given at
** submission; its outcome is identical to the one-shot search with the
** same finder (astar/finder.h): astar_finder_find, or for a request with
** A* options and no finder astar_find_path. Results are delivered by an
** optional callback during update, and can be polled. Cancelling is
** allowed at any time.
**
** Methods. Every request runs through a prepared finder (astar/finder.h):
**   - the caller's (astar_request.finder): any method on this queue's grid
**     -- A*, Dijkstra, JPS, JPS+, CPD, HPA*, A* with landmarks or a
**     waypoint table, Theta*, Lazy Theta*, the engine's methods over the
**     grid or a waypoint graph --, with whatever it was prepared from and
**     for whatever unit; it is not validated again (0 options validations
**     at submission). Anya is refused (ASTAR_UNSUPPORTED): its bends are on
**     grid corners (astar_vec2) and a request's buffer holds astar_point
**     cells -- use astar_finder_find_vec outside the queue. So are finders
**     of a space (ASTAR_UNSUPPORTED) and of another grid (ASTAR_MISMATCH);
**   - or one the queue prepares for the request from its fields: method
**     (default A*; options.algorithm ASTAR_ALGO_JPS with the default
**     method reads as JPS), options, unit size, capability and smoothing.
**     Its options are validated once, at submission. Methods that need a
**     precomputation (JPS+, CPD, HPA*, landmarks, a table, waypoints) need
**     the caller's finder. astar_queue_unsupported_reason says why a
**     request is refused.
** A method that resumes (ASTAR_MF_SLICED: A*, Dijkstra and the engine's
** methods) is sliced: each update runs it for what is left of the budget.
** Any other runs whole in one step when its turn comes and the frame has
** budget left, and is charged the work it did (astar_path_result.work):
**     A*, Dijkstra, Theta*, Lazy Theta*, the engine's  node expansions
**       (bidirectional ones: of both sides; IDA*: first visits a round)
**     JPS, JPS+                                      jump points expanded
**     CPD                                            cells of the path walked
**     HPA*             abstract nodes expanded plus the cells and nodes
**                      settled joining the ends and refining the path
** (astar_method_info.work says the same). The budget bound: an update
** starts no search work once the frame's budget is spent, and a sliced
** step of the grid's A* never exceeds what is left (an engine's step
** does about that: any excess is charged as below); a whole run started
** with any budget left may exceed it by at most that run's work minus one
** -- then it is the update's last work, so an update overshoots once at
** most --, and the excess is a debt paid from the budgets of the next
** updates before they do any work. So over any run of updates the work
** done is at most the sum of their budgets plus the debt left at the end,
** which is less than the largest whole run's work (astar_queue_frame.debt).
**
** Units. A request names its unit's size (1 .. the queue's largest unit
** size, astar_queue_set_units: default ASTAR_QUEUE_DEFAULT_MAX_UNIT) and
** capability (terrain types it may enter, astar/clearance.h; 0: every
** type). Units of every size and capability share one queue: the queue
** owns one clearance object and, per (size, capability) used, the
** derived grid the unit's anchor searches (a finder with unit_size and
** capability, astar/finder.h), all made on the first request of that size
** and capability -- never per request. Before every search it brings them
** up to the grid's edits: from the grid's change ring
** (astar_grid_track_changes; astar_clearance_update_cells, then
** astar_finder_refresh, around the changed cells only), or by a rebuild
** when the ring does not reach back (tracking off or overrun: O(cells) an
** edit batch). Turn tracking on when big units are used; the queue never
** edits the grid. A one-cell unit of every type searches the grid itself.
**
** Requests answered at submission. A request without a finder of the
** caller's whose method runs on the grid A*'s loop (A* or Dijkstra) and
** that needs no search -- its start or goal is blocked or outside the grid, its start
** is its goal, its options' islands say the goal is unreachable (or
** retarget it onto the start), or it cannot run at all (no turn states,
** stale or mismatched islands...) -- does not wait its turn: submitting
** answers it with exactly the one-shot outcome (path written to its
** buffer, poll says ASTAR_REQUEST_DONE at once) without disturbing the
** search in progress. Its callback never fires inside submit: it fires at
** the very start of the next astar_queue_update, before any search work
** and without using the budget, in submission order. Releasing the
** request before then drops its callback. (An observer in its options sees
** a trivial search's goal event inside submit: the search happens there.)
** Other requests (other methods, a caller's finder) wait their turn
** whatever they ask; their first step answers them as the one-shot search
** does, charged the work it did (none for such answers).
**
** Allocation. astar_queue_new allocates the queue, its request table of
** fixed capacity, its workspace (sized for its grid) and a path buffer of
** one point a cell. Afterwards: the clearance and a derived grid on the
** first request of each unit size and capability (astar_queue_submit*),
** and the workspace grows on the first search of a method that needs more
** than the grid A* (astar/finder.h, "Scratch": turn states, the engine's
** arcs, HPA*'s query...) -- at first use, never per request. Nothing else
** allocates.
**
** The grid changing while requests are pending -- the normal state of a
** game -- follows one policy, and so does the fog of war: a request's
** options.knowledge (astar/knowledge.h) changing while it is pending is
** treated exactly as a grid edit. Edit either between updates or from a
** request's callback, never from a callback called during a search
** (observer, stop or heuristic function):
**   - queued requests run on the grid and knowledge as they are when their
**     turn comes;
**   - a running request whose grid changed (astar_grid_version; for a big
**     unit or a capability, its derived grid: an edit that leaves the
**     unit's grid as it was does not disturb it), or whose knowledge
**     changed in a way its search can see (astar_knowledge_version says
**     which changes: with the default ASTAR_UNKNOWN_PASSABLE a cell
**     becoming or ceasing to be known blocked -- a revealed wall --, not
**     open ground revealed) and where its search has read it (the grid A*:
**     a changed cell next to a cell it has reached, or its goal; see
**     astar_search_step -- a wall revealed elsewhere leaves it running, and
**     its outcome then holds for the new knowledge; other methods with
**     knowledge and searches with several goals: any such change), is
**     restarted from scratch: it goes back to the
**     queue, keeping its place (priority, then submission order), so it
**     normally runs again at once on the new grid and knowledge;
**     frame->restarted counts it, the work already done is lost;
**   - a request whose finder is stale when its turn comes (the caller's
**     finder with attachments, after an edit: astar/finder.h,
**     "Staleness") waits for the next update, keeping its place, so that
**     the caller can bring the attachments up to date (astar_hpa_sync, ...)
**     and call astar_finder_refresh between updates; this counts as a
**     restart (frame->restarted);
**   - after astar_queue_set_restarts's number of restarts (default
**     ASTAR_QUEUE_DEFAULT_RESTARTS; grid, knowledge and finder changes
**     count alike) it ends with ASTAR_STALE instead, no path, so that a
**     grid edited or walls revealed every frame cannot hold the queue on
**     one long search; the callback may resubmit it;
**   - requests already done keep their outcome.
** Every outcome is computed on one version of the grid and one state of
** the knowledge, reported in astar_request_done.grid_version and
** .knowledge_version with the number of restarts: a delivered path is the
** one-shot answer on them, so it never crosses a wall (for a big unit: a
** cell its footprint may not cover) or a wall the player knew of at
** delivery. Options' islands (and other objects derived from the grid)
** must be brought up to date before the next update
** (astar_islands_update): a request that starts with stale islands ends
** with ASTAR_STALE, as astar_find_path does. Anything else the options
** point to (layers, callbacks) must stay valid and unchanged while the
** request is pending; the knowledge must stay valid, and may change only
** as said above.
*/
#ifndef ASTAR_QUEUE_H
#define ASTAR_QUEUE_H

#include "base.h"
#include "clearance.h"
#include "finder.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** The queue. Retains:
**   - the grid given to astar_queue_new: every submit, update and
**     astar_queue_reserve_turns reads it, so it must outlive the queue --
**     free the queue first (freeing the grid while a request is pending and
**     then updating is a use-after-free);
**   - each request's path buffer, its finder (the caller's) and whatever
**     its options point to (layers, knowledge, islands, heuristic / stop /
**     observer functions and their contexts), from submission until the
**     request ends or is cancelled (the options struct itself is copied);
**   - the callback and its ctx (astar_queue_set_callback) until replaced.
** Request user pointers are kept but never dereferenced.
** Owns: its workspace, the clearance and the per-size derived grids (see
** "Units" above).
** Thread safety: one thread at a time, every call included (poll and
** outcome too: they read what update writes); callbacks run on the thread
** calling astar_queue_update. Other threads may search the grid meanwhile,
** and with a caller's finder (finders are read-only); none may modify the
** grid, a pending request's knowledge or its finder during a call of the
** queue. Between updates the caller may refresh its finders
** (astar_finder_refresh): a search the queue has in progress on one sees
** the grid edit that made it stale and restarts.
*/
typedef struct astar_queue astar_queue;
typedef uint32_t astar_request_id; /* never 0 for a valid request */

/* Where a request stands (astar_queue_poll). */
typedef enum astar_request_state {
  ASTAR_REQUEST_UNKNOWN = 0, /* no such id (never submitted, or released) */
  ASTAR_REQUEST_QUEUED,      /* waiting its turn */
  ASTAR_REQUEST_RUNNING,     /* its search is in progress */
  ASTAR_REQUEST_DONE,        /* ended: see the status */
  ASTAR_REQUEST_CANCELLED    /* cancelled before it ended */
} astar_request_state;

/* A path request (astar_queue_submit_request). Zero-initialise it
** (astar_request r = {0};) and set what you need: zero is the default of
** every field, including those later versions may add. */
typedef struct astar_request {
  astar_point start;        /* where the unit stands (a big unit: its anchor, the
                               top-left cell of its footprint) */
  astar_point goal;         /* where it wants to go (likewise) */
  const astar_options *opt; /* search options (NULL: defaults), copied at submission;
                               NULL with a finder (the finder's options rule) */
  int priority;             /* higher runs first (default 0) */
  astar_point *path;        /* the caller's buffer for the path (NULL when cap is 0);
                               it must stay valid until the request ends or is cancelled */
  size_t cap;               /* cells in path */
  void *user;               /* the caller's pointer (the unit, its order...), handed
                               back with the outcome; never dereferenced by the queue */
  /* A prepared finder (astar/finder.h) made on this queue's grid: the
  ** request runs it (its method, options, attachments, unit and smoothing)
  ** and the fields below stay 0. Retained until the request ends. */
  const astar_finder *finder;
  /* Without a finder, what the queue prepares for the request: */
  astar_method method;         /* default ASTAR_METHOD_ASTAR; methods needing an attachment
                                  need a finder */
  int32_t unit_size;           /* 0 or 1: one cell; up to the queue's largest unit size */
  astar_capability capability; /* terrain types the unit may enter (astar_queue_set_units);
                                  0: every type */
  bool smooth;                 /* string-pull the path (cfg.smooth of astar/finder.h: terrain
                                  and fog honoured; one-cell units only) */
} astar_request;

/* How a request ended, as the callback receives it (astar_queue_outcome
** gives the same). */
typedef struct astar_request_done {
  astar_request_id id;     /* the request */
  void *user;              /* its astar_request.user (NULL from astar_queue_submit) */
  astar_status status;     /* what astar_find_path returns for the same search (see
                              astar/search.h); ASTAR_IN_PROGRESS while not done */
  const astar_point *path; /* the request's buffer (NULL when its cap is 0) */
  size_t len;              /* cells of the path written there: result.length for
                              ASTAR_OK and ASTAR_PARTIAL, otherwise 0 */
  astar_result result;     /* the search's result (length, cost, statistics, end) */
  uint64_t grid_version;   /* astar_grid_version() of the grid the outcome was
                              computed on (for ASTAR_STALE: the one its last
                              search began on; for a big unit or a capability,
                              the last version its derived grid was brought to
                              while it stayed as the search saw it); compare with
                              the grid's current version to see whether the
                              outcome is outdated */
  /* astar_knowledge_version() of options.knowledge the outcome holds for (0
  ** without knowledge): the version when the request ended -- no change
  ** since its search began was one it could see and had read, so the
  ** outcome is the one-shot answer on that version -- or, for ASTAR_STALE,
  ** when its last search began; compare it with the knowledge's current
  ** version as grid_version. */
  uint64_t knowledge_version;
  uint32_t restarts; /* times its search restarted because the grid or its knowledge changed,
                        or waited for its stale finder */
  uint64_t work;     /* the work its searches were charged, restarted ones included (the
                        method's unit: see "Methods" at the top of this file) */
} astar_request_done;

/* Called from astar_queue_update when a request's result is delivered
** (see the top of this file for when). `done` is valid during the call
** only. The callback may submit, cancel, release, poll and copy paths (its
** own request included) and edit the grid; astar_queue_update from inside
** it returns ASTAR_INVALID_ARGUMENT. */
typedef void (*astar_request_done_fn)(void *ctx, const astar_request_done *done);

/* A queue for `grid` (retained: it must outlive the queue, see above)
** holding at most `capacity` requests at once (queued, running or done but
** not yet released). Allocates (see "Allocation" at the top of this file). */
ASTAR_API astar_status astar_queue_new(astar_queue **out, const astar_grid *grid, size_t capacity,
                                       const astar_allocator *alloc);
/* Release it (pending requests are dropped without callbacks). NULL allowed. */
ASTAR_API void astar_queue_free(astar_queue *queue);

/* Deliver results to fn(ctx, ...) from now on (NULL: none). */
ASTAR_API void astar_queue_set_callback(astar_queue *queue, astar_request_done_fn fn, void *ctx);

/* Submit a request; *id receives its id (0 on failure). req->opt is
** copied; req->path and req->finder must stay valid until the request
** ends. The path goes to req->path[0 .. req->cap-1] (ASTAR_BUFFER_TOO_SMALL
** when it does not fit): cells, or the bends of an any-angle or smoothed
** path. A request that needs no search may be done when this returns (see
** the top of this file); no callback fires from inside it. Without a
** finder the request's finder is prepared here: its options are validated
** once (and never again); with one nothing is validated. Returns ASTAR_OK,
** ASTAR_QUEUE_FULL (no free table entry: release finished requests),
** ASTAR_INVALID_ARGUMENT (NULL queue, req or id, a buffer missing for
** cap > 0, bad options, a unit size beyond the queue's largest, a
** capability not given to astar_queue_set_units, a finder with opt,
** method, unit_size, capability or smooth set), ASTAR_UNSUPPORTED (the
** method cannot honour the request: astar_queue_unsupported_reason),
** ASTAR_MISMATCH (a finder made on another grid), ASTAR_NO_MEMORY (the
** first request of a unit size or capability could not get its derived
** grid). Allocates only for the first request of a unit size and
** capability. */
ASTAR_API astar_status astar_queue_submit_request(astar_queue *queue, const astar_request *req,
                                                  astar_request_id *id);

/* Why astar_queue_submit_request refuses `req` with ASTAR_UNSUPPORTED or
** ASTAR_MISMATCH: one English sentence without a final period (static
** storage), or NULL when it does not (option values are not checked: a
** bad value is ASTAR_INVALID_ARGUMENT). The same sentences as
** astar_finder_unsupported_reason, plus the queue's own (Anya, a space
** finder, a finder of another grid). No allocation. */
ASTAR_API const char *astar_queue_unsupported_reason(const astar_queue *queue,
                                                     const astar_request *req);

/* The largest unit side a queue takes by default (astar_queue_set_units). */
#define ASTAR_QUEUE_DEFAULT_MAX_UNIT 4

/*
** Units of several sizes and terrain capabilities (astar/clearance.h): the
** terrain type of every cell (types[y * width + x], width * height
** entries, copied; NULL: every cell ASTAR_TYPE_GROUND), the capabilities
** requests may name (caps[0 .. ncaps-1], distinct, 1 <= ncaps <=
** ASTAR_CLEARANCE_MAX_CAPS; NULL with 0: ASTAR_CAPABILITY_ALL only, what
** request.capability 0 means) and the largest unit side (1 ..
** ASTAR_CLEARANCE_MAX; the clearance's update costs up to max_size^2 a
** changed cell). Without this call a queue takes sizes up to
** ASTAR_QUEUE_DEFAULT_MAX_UNIT and capability 0 only. Builds the clearance
** now (allocates: 1 + ncaps bytes a cell) and drops the derived grids made
** so far (remade on first use). Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT
** (NULL queue, values out of range, or a request of a big unit or a
** capability is pending: call it before submitting them), ASTAR_NO_MEMORY
** (the queue keeps its former units).
*/
ASTAR_API astar_status astar_queue_set_units(astar_queue *queue, const uint8_t *types,
                                             const astar_capability *caps, size_t ncaps,
                                             int32_t max_size);

/* astar_queue_submit_request with the fields as arguments and no user
** pointer: A* (options.algorithm JPS: JPS) for a one-cell unit. */
ASTAR_API astar_status astar_queue_submit(astar_queue *queue, const astar_options *opt,
                                          astar_point start, astar_point goal, int priority,
                                          astar_point *path, size_t cap, astar_request_id *id);

/* Let the queue run requests with options.turn_penalty > 0 without a
** finder of the caller's (without this they are answered at submission
** with ASTAR_TURNS_NOT_RESERVED; a caller's finder reserves them on first
** use, astar/finder.h): reserves
** the turn states of its workspace (astar_workspace_reserve_turns).
** Allocates; ASTAR_OK, ASTAR_INVALID_ARGUMENT (NULL queue) or
** ASTAR_NO_MEMORY. */
ASTAR_API astar_status astar_queue_reserve_turns(astar_queue *queue);

/* How many times a running request whose grid or knowledge changed is
** restarted from scratch before it ends with ASTAR_STALE (see the top of
** this file). */
#define ASTAR_QUEUE_DEFAULT_RESTARTS 3u

/* Set that number for every request from now on: 0 makes a grid change
** (or a knowledge change its search sees) end the running request with
** ASTAR_STALE at once; UINT32_MAX restarts it
** for ever (a grid edited every frame can then hold the queue on one long
** search). A NULL queue is ignored. */
ASTAR_API void astar_queue_set_restarts(astar_queue *queue, uint32_t max_restarts);

/* Cancel a queued or running request (no callback). ASTAR_OK, or
** ASTAR_INVALID_ARGUMENT when it is unknown or already done (answered at
** submission included: release it to drop its callback). */
ASTAR_API astar_status astar_queue_cancel(astar_queue *queue, astar_request_id id);

/* Work for this frame. */
typedef struct astar_queue_frame {
  uint64_t expanded;  /* work done (the methods' units: node expansions for A*), work
                         lost to restarts included: <= budget unless a whole run
                         overshot (see "Methods" at the top of this file) */
  uint32_t finished;  /* results delivered: requests answered at submission
                         since the last update, then those that ended now */
  uint32_t pending;   /* astar_queue_pending afterwards */
  uint32_t restarted; /* searches restarted because the grid or their knowledge
                         changed */
  bool path_held;     /* the update stopped early to keep a path that did not fit
                         its buffer and was not copied (astar_queue_path) */
  uint64_t debt;      /* work done beyond the budgets so far, to be paid from the next
                         updates' budgets (0 unless a whole run overshot) */
} astar_queue_frame;

/* Deliver the results of the requests answered at submission since the
** last update (callbacks, no budget used), pay the debt of former updates
** from `budget` (> 0), then spend what is left on the queued and running
** requests in order: sliced steps up to what is left, whole runs while
** anything is left (the last may overshoot: see "Methods" at the top of
** this file). The whole budget is spent unless no search work is left, or
** a path that did not fit its buffer is held (frame->path_held: see
** astar_queue_path). Derived grids are brought up to the grid's edits
** before each search step. frame (may be NULL) receives what was done.
** ASTAR_OK, or ASTAR_INVALID_ARGUMENT (NULL queue, budget 0, or called from
** a callback). Allocates only as said under "Allocation". */
ASTAR_API astar_status astar_queue_update(astar_queue *queue, uint64_t budget,
                                          astar_queue_frame *frame);

/* State of request `id`; for a done request, *status and *result (either
** may be NULL) receive its outcome, otherwise they are left as they were. */
ASTAR_API astar_request_state astar_queue_poll(const astar_queue *queue, astar_request_id id,
                                               astar_status *status, astar_result *result);

/* State of request `id` and, in *out (may be NULL), what is known of it:
** for a done request exactly what the callback received; for a queued,
** running or cancelled one its id and user pointer, status
** ASTAR_IN_PROGRESS and nothing else; for an unknown id all zero with
** status ASTAR_INVALID_ARGUMENT. No allocation. */
ASTAR_API astar_request_state astar_queue_outcome(const astar_queue *queue, astar_request_id id,
                                                  astar_request_done *out);

/*
** Copy the path of done request `id` into path[0 .. *len-1], whatever its
** buffer's size: the way to get a path longer than the request's buffer
** (status ASTAR_BUFFER_TOO_SMALL, result.length cells). *len receives the
** path's length (0 when it has none). Returns
**   ASTAR_OK                copied;
**   ASTAR_BUFFER_TOO_SMALL  cap < *len: nothing written, call again with more;
**   ASTAR_NO_PATH           the request ended without a path;
**   ASTAR_EXPIRED           the queue no longer holds the path (nothing written);
**   ASTAR_IN_PROGRESS       the request is queued or running;
**   ASTAR_INVALID_ARGUMENT  NULL queue or len, cap > 0 without path, an unknown
**                           or cancelled request.
** The queue holds a request's path in its workspace from the moment it
** ends until the queue starts another search, so:
**   - inside the request's callback it is always available;
**   - a path that did not fit its buffer and was not copied by the end of
**     the callback (or without a callback) stops the update there, budget
**     left unspent, so it stays available until the next astar_queue_update
**     starts a search: a polling game gets it between updates;
**   - a path answered at submission (one cell) stays available until the
**     request is released;
**   - otherwise it expires when the next search starts, possibly later in
**     the same update (the request's own buffer keeps a path that fit).
** Releasing the request in its callback also lets the update go on. May be
** called from the callback. No allocation.
*/
ASTAR_API astar_status astar_queue_path(astar_queue *queue, astar_request_id id, astar_point *path,
                                        size_t cap, size_t *len);

/* Forget a done or cancelled request, freeing its table entry; its id
** becomes unknown. A request answered at submission and not yet delivered
** gets no callback. ASTAR_OK, or ASTAR_INVALID_ARGUMENT (unknown, or still
** queued or running: cancel it first). */
ASTAR_API astar_status astar_queue_release(astar_queue *queue, astar_request_id id);

/* Requests queued or running, plus those answered at submission whose
** callback waits for the next update: while it is not 0 an update has
** something to do. */
ASTAR_API size_t astar_queue_pending(const astar_queue *queue);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_QUEUE_H */
