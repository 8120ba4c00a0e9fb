/*
** rts.c -- the RTS benchmark of issue 26 ("## Measure"): units of sizes 1-3
** ordered about a map with terrain and roads (or a Moving AI map), one
** player under fog of war, walls appearing every N frames, paths asked for
** through a request queue under a per-frame expansion budget.
**
**   build/bench/rts [options]       (bench/rts.sh runs the published table)
**   build/bench/rts --help          (every option)
**
** What it measures, per configuration: requests, answer latency in frames
** (submission -> delivery: mean, 95th percentile, share answered within 10
** frames), the wait for a usable path (a unit's first request -> the path
** it walks: resubmissions after stale paths and STALE outcomes included),
** arrivals, pathfinding milliseconds per frame (mean, 95th percentile: the
** planner's calls, upkeep of its grids included), expansions per frame,
** restarts, STALE outcomes, stale deliveries (a delivered path crossing a
** wall the unit's player knows of at delivery time: must be 0) and
** violations (a delivered path that is not a walk from the unit to its
** goal, or, with --verify, whose cost differs from the one-shot search's
** on the true map; must be 0).
**
** The world. Every unit repeatedly takes a random goal it can really
** reach (4-connected components of the cells its size fits in: the same
** reachability as 8 moves without corner cutting), asks for a path, waits
** standing until it is delivered, then walks it, one cell every
** --step-frames frames. A unit whose next step is blocked (its path is
** outdated), or whose remaining path crosses a wall its player has just
** learnt of, asks again from where it stands. Units are blind to each
** other (no collisions). Player 0 is under fog: its units plan on what it
** has seen (unknown cells passable) and reveal every cell within --sight of
** their footprint's centre as they walk. Player 1 sees the true map. Every
** --wall-every frames a wall segment of --wall-length cells appears on open
** cells no unit stands on.
**
** Planning policies (--policy, --method). A policy is everything between
** "unit u wants a path" and "here is u's path": a planner_ops table below.
** Today's API gives two (the queue runs only A*, and searches one grid, so
** units of several sizes need one derived grid (astar/clearance.h) and one
** queue per size, kept in step with the map by hand after every edit):
**   queue-astar       the fog player's knowledge (astar/knowledge.h),
**                     derived per size the same way, read by the searches
**                     while it changes (knowledge has no version: the
**                     queue cannot know, and delivers stale paths);
**   queue-astar-view  the fog player's map as grids of its own, edited on
**                     reveals (no stale path; searches restart instead).
** Both spend the per-frame budget oldest request first across their
** queues, in slices of QA_SLICE expansions: the closest a game gets by hand
** to one queue. Issue 26's queue gives the third:
**   queue             one queue for every unit, size and method: the
**                     truth's 1 x 1 units by --method (HPA*, JPS, A*), the
**                     rest by A* ("-lm": with landmarks of the wall-free
**                     map), the fog player's with its knowledge, which
**                     restarts what it disturbs (knowledge versions).
**
** Determinism. Every random choice comes from splitmix64 seeded by --seed;
** units act in index order. The same command prints the same figures on
** every run and machine except the milliseconds.
*/
#define _POSIX_C_SOURCE 199309L
#include <astar/astar.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define MAXK 3           /* largest unit side */
#define ROAD_COST 0.8f   /* the "0.8-cost road" */
#define MAX_TRIES 20     /* requests without a step between them before a unit gives up its goal */
#define IDLE_RETRY 32    /* frames an idle unit waits before looking for a goal again */
#define GOAL_DRAWS 10000 /* random cells tried when looking for a reachable goal */
#define QA_SLICE 256     /* queue-astar: expansions given to one queue at a time */
#define WITHIN_FRAMES 10 /* the target: answered within 10 frames */

/* ---- configuration ------------------------------------------------------ */

typedef struct config {
  const char *map;          /* "gen:W" / "gen:WxH" (generated) or a map file */
  uint64_t seed;            /* every random choice */
  int32_t units;            /* number of units */
  int32_t counts[MAXK + 1]; /* units of each size (from --mix or --sizes) */
  int32_t mix[MAXK + 1];    /* percent of each size (--mix) */
  bool counts_given;        /* --sizes given */
  int32_t fog_pct;          /* percent of the units owned by the fog player */
  bool fog_map_known;       /* --fog-start map: the fog player knows the initial map */
  int32_t sight;            /* reveal radius */
  int32_t frames;           /* frames simulated */
  uint64_t budget;          /* expansions a frame */
  int32_t wall_every;       /* frames between walls (0: none) */
  int32_t wall_len;         /* cells of a wall segment */
  int32_t step_frames;      /* frames a unit takes for one cell */
  uint32_t restarts;        /* astar_queue_set_restarts */
  const char *policy;       /* planning policy */
  const char *method;       /* search method */
  const char *label;        /* the map's name in the table (NULL: the map and its size) */
  const char *format;       /* row, header, text */
  bool verify;              /* compare each truth path's cost with a one-shot search */
  bool check;               /* exit 1 on violations or stale truth deliveries */
} config;

/* ---- random numbers: splitmix64 ----------------------------------------- */

static uint64_t rnd_next(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (n > 0). */
static int32_t rnd_below(uint64_t *s, int32_t n) {
  return (int32_t)(((rnd_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in lo .. hi. */
static int32_t rnd_range(uint64_t *s, int32_t lo, int32_t hi) {
  return lo + rnd_below(s, hi - lo + 1);
}

/* ---- the world ----------------------------------------------------------- */

enum { U_NEED, U_PENDING, U_WALK, U_IDLE };

typedef struct unit {
  int32_t size;                 /* side of its square footprint, 1..MAXK */
  bool fog;                     /* owned by the fog player */
  int state;                    /* U_NEED, U_PENDING, U_WALK, U_IDLE */
  astar_point pos, goal;        /* anchors (top-left cell of the footprint) */
  astar_point *path;            /* its path buffer (the queue writes there) */
  size_t cap, len, next;        /* buffer cells, path cells, index of the next anchor */
  int32_t submit_frame;         /* frame of its pending request */
  uint64_t submit_seq;          /* order of its pending request among all submissions */
  int32_t idle_until;           /* U_IDLE: frame to look for a goal again */
  int32_t wait_since;           /* frame of its first request since it last had a path, or -1 */
  uint32_t tries;               /* requests for its goal since its last step */
  uint32_t arrivals;            /* goals reached */
  int32_t plan_prev, plan_next; /* the planner's list links (unit indices, -1: none) */
  int32_t plan_queue;           /* the planner's queue of its pending request */
} unit;

/* A growing list of frame counts. */
typedef struct frames_list {
  int32_t *v;
  size_t n, cap;
} frames_list;

static void frames_add(frames_list *l, int32_t frames) {
  if (l->n == l->cap) {
    const size_t cap = l->cap ? 2 * l->cap : 4096;
    int32_t *v = realloc(l->v, cap * sizeof *v);
    if (!v) return; /* a figure less: the report counts what it has */
    l->v = v, l->cap = cap;
  }
  l->v[l->n++] = frames;
}

typedef struct stats {
  uint64_t requests, delivered, paths, fog_paths, truth_paths;
  uint64_t stale_fog, stale_truth, stale_status, no_path, errors, violations, cost_mismatch;
  uint64_t restarts, arrivals, blocked_steps, replans_wall, replans_reveal, gave_up;
  uint64_t idle_no_goal;
  uint32_t max_restarts;
  double lat_sum_size[MAXK + 1]; /* latency sums and counts per unit size */
  uint64_t lat_n_size[MAXK + 1];
  frames_list latency; /* frames from submission to outcome, one per delivered request */
  frames_list wait;    /* frames a unit waited for a path it could use (first request of the
                          wait -> delivery of that path: stale paths, STALE outcomes and
                          resubmissions included), one per path used */
  double *ms;          /* pathfinding milliseconds, one per frame */
  uint64_t *expanded;  /* expansions, one per frame */
} stats;

typedef struct planner planner;
typedef struct planner_ops planner_ops;

typedef struct world {
  const config *cfg;
  astar_grid *grid; /* the true map */
  int32_t w, h;
  astar_clearance *clr;     /* the truth's clearance: walking, validation, goals */
  astar_knowledge *know;    /* the fog player's knowledge */
  astar_options opt;        /* the search rules: 8 moves, no corner cutting */
  bool used[MAXK + 1];      /* sizes some unit has */
  int32_t *label[MAXK + 1]; /* 4-connected components of the cells size k fits in */
  uint64_t label_version[MAXK + 1];
  int32_t *bfs;      /* scratch for labelling */
  uint8_t *occupied; /* scratch: cells under some unit */
  unit *units;
  int32_t nunits;
  uint64_t seq; /* submissions so far */
  int32_t frame;
  uint64_t rng;
  stats st;
  astar_point *changed; /* scratch: cells changed this frame */
  size_t nchanged, cap_changed;
  astar_workspace *verify_ws; /* --verify: one-shot searches */
  astar_grid *verify_grid;    /* --verify: derived grid scratch */
  const planner_ops *ops;
  planner *pl;
} world;

/* ---- planners ------------------------------------------------------------ */

typedef struct frame_work {
  uint64_t expanded;  /* expansions spent this frame (restarted work included) */
  uint32_t restarted; /* searches restarted this frame */
} frame_work;

/* A planning policy: how a unit's request becomes a delivered path. The
** planner calls world_deliver(w, u, status, len, restarts) for each
** request it ends, with the path in u->path[0 .. len-1] (u->path may be
** reallocated by the planner: the world never keeps a pointer into it
** while the request is pending). Every call is timed as pathfinding work. */
struct planner_ops {
  const char *policy;  /* --policy name */
  const char *methods; /* --method values it accepts, ", "-separated; the first is the default */
  const char *about;   /* one line for --help */
  /* Build the planner for w (the world's grid, clearance and knowledge are
  ** ready, units placed). Returns ASTAR_OK or an error status. */
  astar_status (*init)(planner **out, world *w, const char *method);
  /* Ask for a path for u from u->pos to u->goal. */
  astar_status (*submit)(planner *p, unit *u);
  /* Spend at most `budget` expansions; deliver what ends. */
  void (*update)(planner *p, uint64_t budget, frame_work *fw);
  /* The true grid changed: these cells were blocked or opened. */
  void (*edited)(planner *p, const astar_point *cells, size_t n);
  /* The fog player's knowledge changed at these cells. */
  void (*revealed)(planner *p, const astar_point *cells, size_t n);
  /* Requests still pending. */
  size_t (*pending)(const planner *p);
  void (*free)(planner *p);
};

static void world_deliver(world *w, unit *u, astar_status status, size_t len, uint32_t restarts);

/* Grow u's path buffer to at least n cells (never while its request is
** pending: the queue writes there). False when out of memory. */
static bool unit_reserve(unit *u, size_t n) {
  if (n <= u->cap) return true;
  astar_point *p = realloc(u->path, n * sizeof *p);
  if (!p) return false;
  u->path = p;
  u->cap = n;
  return true;
}

/* ---- policies "queue-astar" and "queue-astar-view": today's API ---------- */

/*
** One astar_queue per unit size, each on its own grid: the true grid for
** 1 x 1 units, a derived grid (astar_clearance_fill_grid) for 2 x 2 and
** 3 x 3, updated by hand after each edit from the game's own clearance
** object. The fog player, two ways:
**   queue-astar       its knowledge (options.knowledge) for 1 x 1 units, a
**                     derived knowledge per bigger size (an anchor is known
**                     blocked when a cell of its footprint is, known
**                     passable when all are), updated by hand after each
**                     reveal -- while requests that read it are running,
**                     which the queue's contract forbids and the game
**                     cannot avoid: the queue never learns of it (what the
**                     issue's game did);
**   queue-astar-view  its view as grids of its own: a copy of the map where
**                     the cells it knows blocked are blocked, its own
**                     clearance and derived grids, and its own queue per
**                     size; a reveal is an edit of those grids, so the
**                     queue restarts what was running (today's only way to
**                     deliver no stale path, at one more grid, clearance
**                     and queue per size).
*/
typedef struct qa_queue {
  astar_queue *q;
  int32_t head, tail; /* pending requests, oldest first (unit indices) */
  int32_t size;
  struct qa_planner *owner;
} qa_queue;

typedef struct qa_planner {
  world *w;
  bool view_grids;                   /* queue-astar-view */
  astar_clearance *clr;              /* the game's clearance (its own copy: not the harness's) */
  astar_grid *grid[MAXK + 1];        /* [1] the true grid, [2..] derived grids */
  astar_knowledge *kn[MAXK + 1];     /* queue-astar: [1] the fog player's, [2..] derived */
  astar_options opt_truth[MAXK + 1]; /* per size: full knowledge */
  astar_options opt_fog[MAXK + 1];   /* per size: the fog player's knowledge */
  qa_queue qs[MAXK + 1];             /* per size: every request (queue-astar), the truth's */
  /* queue-astar-view: the fog player's grids and queues. */
  astar_clearance *vclr;       /* clearance of vgrid[1] */
  astar_grid *vgrid[MAXK + 1]; /* [1] the map as the fog player knows it, [2..] derived */
  qa_queue vqs[MAXK + 1];      /* per size: the fog player's requests */
  astar_point *vcells;         /* scratch: view cells changed by a reveal */
  size_t cap_vcells;
} qa_planner;

/* The derived knowledge of a size x size anchor at (x, y) from the
** knowledge of its footprint's cells. */
static astar_cell_knowledge qa_derived_knowledge(const astar_knowledge *k, int32_t x, int32_t y,
                                                 int32_t size) {
  bool all_known = true;
  for (int32_t dy = 0; dy < size; dy++)
    for (int32_t dx = 0; dx < size; dx++) {
      const astar_cell_knowledge s = astar_knowledge_get(k, x + dx, y + dy);
      if (s == ASTAR_CELL_BLOCKED) return ASTAR_CELL_BLOCKED; /* outside reads blocked too */
      if (s == ASTAR_CELL_UNKNOWN) all_known = false;
    }
  return all_known ? ASTAR_CELL_PASSABLE : ASTAR_CELL_UNKNOWN;
}

static void qa_list_remove(qa_queue *qq, unit *units, int32_t i) {
  unit *u = &units[i];
  if (u->plan_prev >= 0)
    units[u->plan_prev].plan_next = u->plan_next;
  else
    qq->head = u->plan_next;
  if (u->plan_next >= 0)
    units[u->plan_next].plan_prev = u->plan_prev;
  else
    qq->tail = u->plan_prev;
  u->plan_prev = u->plan_next = -1;
}

static void qa_on_done(void *ctx, const astar_request_done *d) {
  qa_queue *qq = ctx;
  world *w = qq->owner->w;
  unit *u = d->user;
  astar_status st = d->status;
  size_t len = d->len;
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    /* The request has ended: its buffer may move now. */
    if (unit_reserve(u, d->result.length) &&
        astar_queue_path(qq->q, d->id, u->path, u->cap, &len) == ASTAR_OK)
      st = ASTAR_OK;
    else
      st = ASTAR_NO_MEMORY, len = 0;
  }
  astar_queue_release(qq->q, d->id);
  qa_list_remove(qq, w->units, (int32_t)(u - w->units));
  world_deliver(w, u, st, len, d->restarts);
}

static void qa_free(planner *p) {
  qa_planner *qa = (qa_planner *)p;
  if (!qa) return;
  for (int32_t k = 1; k <= MAXK; k++) {
    astar_queue_free(qa->qs[k].q);
    astar_queue_free(qa->vqs[k].q);
    astar_grid_free(qa->vgrid[k]);
    if (k > 1) {
      astar_grid_free(qa->grid[k]);
      astar_knowledge_free(qa->kn[k]);
    }
  }
  astar_clearance_free(qa->clr);
  astar_clearance_free(qa->vclr);
  free(qa->vcells);
  free(qa);
}

/* Set the derived grids out[2..MAXK] (those not NULL) after the cells of
** their base grid changed: an edit at c changes only the anchors whose
** footprint covers c. clr is current for the base grid. */
static void qa_follow(const astar_clearance *clr, astar_grid *const *out, const astar_point *cells,
                      size_t n) {
  for (int32_t k = 2; k <= MAXK; k++) {
    if (!out[k]) continue;
    for (size_t i = 0; i < n; i++)
      for (int32_t y = cells[i].y - k + 1; y <= cells[i].y; y++)
        for (int32_t x = cells[i].x - k + 1; x <= cells[i].x; x++)
          if (astar_grid_contains(out[k], x, y))
            astar_grid_set_passable(out[k], x, y,
                                    astar_clearance_fits(clr, x, y, k, ASTAR_CAPABILITY_ALL));
  }
}

static astar_status qa_queue_open(qa_planner *qa, qa_queue *qq, const astar_grid *g, int32_t k) {
  const astar_status st = astar_queue_new(&qq->q, g, (size_t)qa->w->nunits, NULL);
  if (st != ASTAR_OK) return st;
  astar_queue_set_callback(qq->q, qa_on_done, qq);
  astar_queue_set_restarts(qq->q, qa->w->cfg->restarts);
  qq->size = k;
  return ASTAR_OK;
}

/* queue-astar-view: the fog player's map (known blocked cells blocked, the
** rest as the truth's terrain), its clearance, derived grids and queues. */
static astar_status qa_init_view(qa_planner *qa) {
  const world *w = qa->w;
  astar_status st = astar_grid_clone(&qa->vgrid[1], w->grid, NULL);
  for (int32_t y = 0; st == ASTAR_OK && y < w->h; y++)
    for (int32_t x = 0; x < w->w; x++)
      astar_grid_set_passable(qa->vgrid[1], x, y,
                              astar_knowledge_get(w->know, x, y) != ASTAR_CELL_BLOCKED);
  if (st == ASTAR_OK) st = astar_clearance_new(&qa->vclr, qa->vgrid[1], NULL, NULL, 0, MAXK, NULL);
  for (int32_t k = 1; k <= MAXK && st == ASTAR_OK; k++) {
    if (!w->used[k]) continue;
    if (k > 1) {
      st = astar_grid_new(&qa->vgrid[k], w->w, w->h, NULL);
      if (st == ASTAR_OK)
        st = astar_clearance_fill_grid(qa->vclr, qa->vgrid[1], k, ASTAR_CAPABILITY_ALL,
                                       qa->vgrid[k]);
    }
    if (st == ASTAR_OK) st = qa_queue_open(qa, &qa->vqs[k], qa->vgrid[k], k);
  }
  return st;
}

static astar_status qa_start(planner **out, world *w, bool view_grids) {
  qa_planner *qa = calloc(1, sizeof *qa);
  if (!qa) return ASTAR_NO_MEMORY;
  qa->w = w;
  qa->view_grids = view_grids;
  astar_status st = astar_clearance_new(&qa->clr, w->grid, NULL, NULL, 0, MAXK, NULL);
  for (int32_t k = 1; k <= MAXK; k++) {
    qa->qs[k].head = qa->qs[k].tail = qa->vqs[k].head = qa->vqs[k].tail = -1;
    qa->qs[k].owner = qa->vqs[k].owner = qa;
  }
  for (int32_t k = 1; k <= MAXK && st == ASTAR_OK; k++) {
    if (!w->used[k]) continue;
    if (k == 1) {
      qa->grid[1] = w->grid;
      qa->kn[1] = w->know;
    } else {
      st = astar_grid_new(&qa->grid[k], w->w, w->h, NULL);
      if (st == ASTAR_OK)
        st = astar_clearance_fill_grid(qa->clr, w->grid, k, ASTAR_CAPABILITY_ALL, qa->grid[k]);
      if (st == ASTAR_OK && !view_grids) st = astar_knowledge_new(&qa->kn[k], w->grid, NULL);
      for (int32_t y = 0; st == ASTAR_OK && qa->kn[k] && y < w->h; y++)
        for (int32_t x = 0; x < w->w; x++)
          astar_knowledge_set(qa->kn[k], x, y, qa_derived_knowledge(w->know, x, y, k));
    }
    if (st == ASTAR_OK) st = qa_queue_open(qa, &qa->qs[k], qa->grid[k], k);
    if (st != ASTAR_OK) break;
    qa->opt_truth[k] = w->opt;
    qa->opt_fog[k] = w->opt;
    qa->opt_fog[k].knowledge = qa->kn[k];
    qa->opt_fog[k].unknown = ASTAR_UNKNOWN_PASSABLE;
  }
  if (st == ASTAR_OK && view_grids) st = qa_init_view(qa);
  if (st != ASTAR_OK) {
    qa_free((planner *)qa);
    return st;
  }
  *out = (planner *)qa;
  return ASTAR_OK;
}

static astar_status qa_init(planner **out, world *w, const char *method) {
  (void)method; /* "astar" only: checked by the caller against .methods */
  return qa_start(out, w, false);
}

static astar_status qa_init_view_policy(planner **out, world *w, const char *method) {
  (void)method;
  return qa_start(out, w, true);
}

static astar_status qa_submit(planner *p, unit *u) {
  qa_planner *qa = (qa_planner *)p;
  const bool own_view = u->fog && qa->view_grids;
  qa_queue *qq = own_view ? &qa->vqs[u->size] : &qa->qs[u->size];
  astar_request r = {0};
  r.start = u->pos;
  r.goal = u->goal;
  r.opt = u->fog && !own_view ? &qa->opt_fog[u->size] : &qa->opt_truth[u->size];
  r.path = u->path;
  r.cap = u->cap;
  r.user = u;
  astar_request_id id;
  const astar_status st = astar_queue_submit_request(qq->q, &r, &id);
  if (st != ASTAR_OK) return st;
  /* Submission order is the queue's order too (every priority is 0). */
  unit *units = qa->w->units;
  const int32_t i = (int32_t)(u - units);
  u->plan_prev = qq->tail;
  u->plan_next = -1;
  if (qq->tail >= 0)
    units[qq->tail].plan_next = i;
  else
    qq->head = i;
  qq->tail = i;
  return ASTAR_OK;
}

/* Oldest request first across the queues, QA_SLICE expansions at a time:
** a lone 2 x 2 unit is not starved by fifty 1 x 1 units, nor they by it. */
static void qa_update(planner *p, uint64_t budget, frame_work *fw) {
  qa_planner *qa = (qa_planner *)p;
  uint64_t left = budget;
  for (int guard = 0; left > 0 && guard < 1000000; guard++) {
    qa_queue *best = NULL;
    uint64_t best_seq = UINT64_MAX;
    for (int32_t j = 0; j < 2 * MAXK; j++) {
      qa_queue *qq = j < MAXK ? &qa->qs[j + 1] : &qa->vqs[j - MAXK + 1];
      if (!qq->q || qq->head < 0) continue; /* every pending request is on its queue's list */
      if (!best || qa->w->units[qq->head].submit_seq < best_seq)
        best = qq, best_seq = qa->w->units[qq->head].submit_seq;
    }
    if (!best) break;
    astar_queue_frame fr;
    const uint64_t slice = left < QA_SLICE ? left : QA_SLICE;
    if (astar_queue_update(best->q, slice, &fr) != ASTAR_OK) break;
    left -= fr.expanded < left ? fr.expanded : left;
    fw->expanded += fr.expanded;
    fw->restarted += fr.restarted;
  }
}

static void qa_edited(planner *p, const astar_point *cells, size_t n) {
  qa_planner *qa = (qa_planner *)p;
  astar_clearance_update_cells(qa->clr, qa->w->grid, cells, n);
  qa_follow(qa->clr, qa->grid, cells, n);
}

static void qa_revealed(planner *p, const astar_point *cells, size_t n) {
  qa_planner *qa = (qa_planner *)p;
  if (qa->view_grids) {
    /* The fog player's map: its cells follow the knowledge (blocked when
    ** known blocked), then its clearance and derived grids follow it. */
    size_t m = 0;
    if (qa->cap_vcells < n) {
      astar_point *c = realloc(qa->vcells, n * sizeof *c);
      if (!c) return; /* the view misses these cells; the stale count shows it */
      qa->vcells = c, qa->cap_vcells = n;
    }
    for (size_t i = 0; i < n; i++) {
      const bool open =
          astar_knowledge_get(qa->w->know, cells[i].x, cells[i].y) != ASTAR_CELL_BLOCKED;
      if (astar_grid_passable(qa->vgrid[1], cells[i].x, cells[i].y) == open) continue;
      astar_grid_set_passable(qa->vgrid[1], cells[i].x, cells[i].y, open);
      qa->vcells[m++] = cells[i];
    }
    if (m == 0) return;
    astar_clearance_update_cells(qa->vclr, qa->vgrid[1], qa->vcells, m);
    qa_follow(qa->vclr, qa->vgrid, qa->vcells, m);
    return;
  }
  for (int32_t k = 2; k <= MAXK; k++) {
    if (!qa->kn[k]) continue;
    for (size_t i = 0; i < n; i++)
      for (int32_t y = cells[i].y - k + 1; y <= cells[i].y; y++)
        for (int32_t x = cells[i].x - k + 1; x <= cells[i].x; x++)
          if (x >= 0 && y >= 0)
            astar_knowledge_set(qa->kn[k], x, y, qa_derived_knowledge(qa->kn[1], x, y, k));
  }
}

static size_t qa_pending(const planner *p) {
  const qa_planner *qa = (const qa_planner *)p;
  size_t n = 0;
  for (int32_t k = 1; k <= MAXK; k++) {
    if (qa->qs[k].q) n += astar_queue_pending(qa->qs[k].q);
    if (qa->vqs[k].q) n += astar_queue_pending(qa->vqs[k].q);
  }
  return n;
}

static const planner_ops queue_astar_ops = {
    "queue-astar",
    "astar",
    "today: the request queue (A* only), one queue and one derived grid per unit size",
    qa_init,
    qa_submit,
    qa_update,
    qa_edited,
    qa_revealed,
    qa_pending,
    qa_free};

static const planner_ops queue_astar_view_ops = {
    "queue-astar-view",
    "astar",
    "today, fog as grids: queue-astar, the fog player with a map, clearance, derived grids and "
    "queues of its own, edited on reveals (so its searches restart)",
    qa_init_view_policy,
    qa_submit,
    qa_update,
    qa_edited,
    qa_revealed,
    qa_pending,
    qa_free};

/* ---- policy "queue": one queue, every method, every unit size (issue 26) ---- */

/*
** One astar_queue for every unit of both players, on the true map. The
** queue keeps the clearance and the 2 x 2 and 3 x 3 derived grids itself,
** following the wall edits through the map's change ring: this policy
** never touches them. Per request:
**   - the truth's 1 x 1 units: --method's finder (hpa: HPA* with its
**     hierarchy, brought up to each wall by astar_hpa_sync and
**     astar_finder_refresh; jps: JPS, maps without terrain; astar: A*),
**     at priority 1 with hpa and jps: their whole runs are short, and go
**     before the long sliced searches queued earlier;
**   - the truth's bigger units: the queue's own A* (JPS with --method jps)
**     for the unit's size (astar_request.unit_size);
**   - the fog player's units: A* with its knowledge (options.knowledge):
**     the only method that honours fog (astar_finder_unsupported_reason:
**     "fog of war (options.knowledge) is the grid A*'s"). A search whose
**     knowledge changed as it can see restarts (knowledge versions), so no
**     path through a known wall is delivered. A bigger unit's knowledge is
**     read per anchor: the policy keeps one derived knowledge per size (an
**     anchor known blocked when a footprint cell is), as queue-astar does.
*/
typedef struct uq_planner {
  world *w;
  astar_queue *q;
  astar_method method;           /* for the truth's units */
  astar_hpa *hpa;                /* --method hpa */
  astar_grid *open;              /* "-lm": the map without its walls (terrain kept) */
  astar_landmarks *lm;           /* "-lm": landmarks of `open` */
  astar_finder *truth1;          /* the truth's 1 x 1 units' finder (NULL: the queue's own) */
  astar_knowledge *kn[MAXK + 1]; /* [1] the fog player's, [2..] derived per size */
  astar_options opt_truth;
  astar_options opt_fog[MAXK + 1];
} uq_planner;

static void uq_on_done(void *ctx, const astar_request_done *d) {
  uq_planner *uq = ctx;
  unit *u = d->user;
  astar_status st = d->status;
  size_t len = d->len;
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    if (unit_reserve(u, d->result.length) &&
        astar_queue_path(uq->q, d->id, u->path, u->cap, &len) == ASTAR_OK)
      st = ASTAR_OK;
    else
      st = ASTAR_NO_MEMORY, len = 0;
  }
  astar_queue_release(uq->q, d->id);
  world_deliver(uq->w, u, st, len, d->restarts);
}

static void uq_free(planner *p) {
  uq_planner *uq = (uq_planner *)p;
  if (!uq) return;
  astar_queue_free(uq->q);
  astar_finder_free(uq->truth1);
  astar_hpa_free(uq->hpa);
  astar_landmarks_free(uq->lm);
  astar_grid_free(uq->open);
  for (int32_t k = 2; k <= MAXK; k++) astar_knowledge_free(uq->kn[k]);
  free(uq);
}

static astar_status uq_init(planner **out, world *w, const char *method) {
  uq_planner *uq = calloc(1, sizeof *uq);
  if (!uq) return ASTAR_NO_MEMORY;
  uq->w = w;
  /* "METHOD-lm": the A* searches (the fog player's, bigger units') take a
  ** landmark heuristic built on the map without its walls: every view of
  ** the map (the truth, the fog player's, a big unit's derived grid) has
  ** at most its passable cells and at least its costs, so the bound is
  ** admissible for all of them and never goes stale as walls appear. */
  char name[32];
  snprintf(name, sizeof name, "%s", method);
  const size_t nl = strlen(name);
  const bool lm = nl > 3 && strcmp(name + nl - 3, "-lm") == 0;
  if (lm) name[nl - 3] = '\0';
  astar_status st = astar_method_from_name(name, &uq->method);
  /* The change ring the queue (and HPA*) follow the walls through: a
  ** wall is a few cells, and the queue reads it before the next search. */
  if (st == ASTAR_OK) st = astar_grid_track_changes(w->grid, 4096);
  if (st == ASTAR_OK) st = astar_queue_new(&uq->q, w->grid, (size_t)w->nunits, NULL);
  if (st == ASTAR_OK) {
    astar_queue_set_callback(uq->q, uq_on_done, uq);
    astar_queue_set_restarts(uq->q, w->cfg->restarts);
    st = astar_queue_set_units(uq->q, NULL, NULL, 0, MAXK);
  }
  if (st == ASTAR_OK && lm) {
    st = astar_grid_clone(&uq->open, w->grid, NULL);
    for (int32_t y = 0; st == ASTAR_OK && y < w->h; y++)
      for (int32_t x = 0; x < w->w; x++) astar_grid_set_passable(uq->open, x, y, true);
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.count = 8;
    if (st == ASTAR_OK) st = astar_landmarks_new_grid(&uq->lm, uq->open, &w->opt, &lo, NULL);
  }
  uq->opt_truth = w->opt;
  if (uq->lm) {
    uq->opt_truth.heuristic = ASTAR_H_CALLBACK;
    uq->opt_truth.heuristic_fn = astar_landmarks_grid_heuristic;
    uq->opt_truth.heuristic_ctx = uq->lm;
  }
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.options = w->opt;
  cfg.method = uq->method;
  if (st == ASTAR_OK && uq->method == ASTAR_METHOD_HPA) {
    astar_hpa_options ho;
    astar_hpa_options_init(&ho);
    st = astar_hpa_new(&uq->hpa, w->grid, &w->opt, &ho, NULL);
    cfg.hpa = uq->hpa;
  }
  if (st == ASTAR_OK && uq->method != ASTAR_METHOD_ASTAR) {
    const char *why = astar_finder_unsupported_reason(w->grid, NULL, &cfg);
    if (why) fprintf(stderr, "rts: --method %s: %s\n", method, why);
    st = astar_finder_new(&uq->truth1, w->grid, &cfg, NULL);
  }
  uq->kn[1] = w->know;
  for (int32_t k = 1; k <= MAXK && st == ASTAR_OK; k++) {
    if (!w->used[k]) continue;
    if (k > 1) {
      st = astar_knowledge_new(&uq->kn[k], w->grid, NULL);
      for (int32_t y = 0; st == ASTAR_OK && y < w->h; y++)
        for (int32_t x = 0; x < w->w; x++)
          astar_knowledge_set(uq->kn[k], x, y, qa_derived_knowledge(w->know, x, y, k));
    }
    uq->opt_fog[k] = uq->opt_truth;
    uq->opt_fog[k].knowledge = uq->kn[k];
    uq->opt_fog[k].unknown = ASTAR_UNKNOWN_PASSABLE;
  }
  if (st != ASTAR_OK) {
    uq_free((planner *)uq);
    return st;
  }
  *out = (planner *)uq;
  return ASTAR_OK;
}

static astar_status uq_submit(planner *p, unit *u) {
  uq_planner *uq = (uq_planner *)p;
  astar_request r = {0};
  r.start = u->pos;
  r.goal = u->goal;
  r.path = u->path;
  r.cap = u->cap;
  r.user = u;
  if (u->fog) {
    r.opt = &uq->opt_fog[u->size];
    r.unit_size = u->size;
  } else if (u->size == 1 && uq->truth1) {
    r.finder = uq->truth1;
    /* Cheap whole runs first: a short HPA* (JPS) request does not wait
    ** behind the long sliced A* searches queued before it. */
    r.priority = 1;
  } else {
    r.opt = &uq->opt_truth;
    r.unit_size = u->size;
    r.method =
        uq->method == ASTAR_METHOD_JPS && u->size > 1 ? ASTAR_METHOD_JPS : ASTAR_METHOD_ASTAR;
  }
  astar_request_id id;
  return astar_queue_submit_request(uq->q, &r, &id);
}

static void uq_update(planner *p, uint64_t budget, frame_work *fw) {
  uq_planner *uq = (uq_planner *)p;
  astar_queue_frame fr;
  if (astar_queue_update(uq->q, budget, &fr) != ASTAR_OK) return;
  fw->expanded += fr.expanded;
  fw->restarted += fr.restarted;
}

static void uq_edited(planner *p, const astar_point *cells, size_t n) {
  uq_planner *uq = (uq_planner *)p;
  (void)cells, (void)n; /* the queue reads the change ring itself */
  if (uq->hpa) {
    /* HPA*'s hierarchy follows through the ring too; then the finder. */
    (void)astar_hpa_sync(uq->hpa, uq->w->grid, NULL);
    (void)astar_finder_refresh(uq->truth1);
  }
}

static void uq_revealed(planner *p, const astar_point *cells, size_t n) {
  uq_planner *uq = (uq_planner *)p;
  for (int32_t k = 2; k <= MAXK; k++) {
    if (!uq->kn[k]) continue;
    for (size_t i = 0; i < n; i++)
      for (int32_t y = cells[i].y - k + 1; y <= cells[i].y; y++)
        for (int32_t x = cells[i].x - k + 1; x <= cells[i].x; x++)
          if (x >= 0 && y >= 0)
            astar_knowledge_set(uq->kn[k], x, y, qa_derived_knowledge(uq->kn[1], x, y, k));
  }
}

static size_t uq_pending(const planner *p) {
  return astar_queue_pending(((const uq_planner *)p)->q);
}

static const planner_ops queue_ops = {
    "queue",
    "hpa, hpa-lm, astar, astar-lm, jps",
    "issue 26: one queue for every unit size and method (the truth's 1 x 1 units by --method, "
    "the fog player's by A* with its knowledge)",
    uq_init,
    uq_submit,
    uq_update,
    uq_edited,
    uq_revealed,
    uq_pending,
    uq_free};

/* Every policy --policy accepts; the first is the default. */
static const planner_ops *const policies[] = {&queue_astar_ops, &queue_astar_view_ops, &queue_ops,
                                              NULL};

/* ---- maps ----------------------------------------------------------------- */

static void terrain_disc(astar_grid *g, int32_t cx, int32_t cy, int32_t r, float cost) {
  for (int32_t y = cy - r; y <= cy + r; y++)
    for (int32_t x = cx - r; x <= cx + r; x++)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r && astar_grid_contains(g, x, y))
        astar_grid_set_terrain(g, x, y, cost);
}

static void block_disc(astar_grid *g, int32_t cx, int32_t cy, int32_t r) {
  for (int32_t y = cy - r; y <= cy + r; y++)
    for (int32_t x = cx - r; x <= cx + r; x++)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r && astar_grid_contains(g, x, y))
        astar_grid_set_passable(g, x, y, false);
}

static void road_cell(astar_grid *g, int32_t x, int32_t y) {
  if (!astar_grid_contains(g, x, y)) return;
  astar_grid_set_passable(g, x, y, true);
  astar_grid_set_terrain(g, x, y, ROAD_COST);
}

/* A road two cells wide from a to b, a 4-connected staircase that drifts:
** each step goes along x with probability |dx| / (|dx| + |dy|). */
static void road(astar_grid *g, uint64_t *rng, astar_point a, astar_point b) {
  astar_point c = a;
  for (;;) {
    road_cell(g, c.x, c.y);
    road_cell(g, c.x + 1, c.y);
    road_cell(g, c.x, c.y + 1);
    const int32_t rx = b.x - c.x, ry = b.y - c.y;
    if (rx == 0 && ry == 0) break;
    const int32_t ax = rx < 0 ? -rx : rx, ay = ry < 0 ? -ry : ry;
    if (rnd_below(rng, ax + ay) < ax)
      c.x += rx > 0 ? 1 : -1;
    else
      c.y += ry > 0 ? 1 : -1;
  }
}

/*
** A generated RTS map of w x h: hills (1.5) and swamps (2.5) in blobs over
** about half the map, obstacles (buildings, rocks, lakes, cliff lines) on
** about an eighth, and roads of cost ROAD_COST between towns (each town
** joined to its nearest predecessor, plus a few extra links), cut through
** whatever lies in their way. Deterministic in the seed.
*/
static astar_status generate_map(astar_grid **out, int32_t w, int32_t h, uint64_t seed) {
  astar_grid *g;
  astar_status st = astar_grid_new(&g, w, h, NULL);
  if (st != ASTAR_OK) return st;
  uint64_t rng = seed ^ UINT64_C(0x5254534D4150); /* "RTSMAP" */
  const int64_t area = (int64_t)w * h;
  /* Feature sizes stay those of a 256 map; bigger maps get more of them. */
  for (int64_t i = 0; i < area / 1500; i++) { /* terrain blobs */
    const int32_t cx = rnd_below(&rng, w), cy = rnd_below(&rng, h);
    const float cost = rnd_below(&rng, 5) < 3 ? 1.5f : 2.5f;
    for (int j = 0; j < 3; j++)
      terrain_disc(g, cx + rnd_range(&rng, -10, 10), cy + rnd_range(&rng, -10, 10),
                   rnd_range(&rng, 4, 12), cost);
  }
  for (int64_t i = 0; i < area / 600; i++) { /* buildings and rocks */
    const int32_t x0 = rnd_below(&rng, w), y0 = rnd_below(&rng, h);
    const int32_t rw = rnd_range(&rng, 2, 9), rh = rnd_range(&rng, 2, 9);
    for (int32_t y = y0; y < y0 + rh && y < h; y++)
      for (int32_t x = x0; x < x0 + rw && x < w; x++) astar_grid_set_passable(g, x, y, false);
  }
  for (int64_t i = 0; i < area / 8000; i++) /* lakes */
    block_disc(g, rnd_below(&rng, w), rnd_below(&rng, h), rnd_range(&rng, 4, 11));
  for (int64_t i = 0; i < area / 2000; i++) { /* cliff lines: drifting walks */
    int32_t x = rnd_below(&rng, w), y = rnd_below(&rng, h);
    int32_t dx = rnd_range(&rng, -1, 1), dy = rnd_range(&rng, -1, 1);
    if (dx == 0 && dy == 0) dx = 1;
    for (int32_t n = rnd_range(&rng, 20, 80); n > 0 && astar_grid_contains(g, x, y); n--) {
      astar_grid_set_passable(g, x, y, false);
      if (rnd_below(&rng, 6) == 0) {
        dx = rnd_range(&rng, -1, 1), dy = rnd_range(&rng, -1, 1);
        if (dx == 0 && dy == 0) dy = 1;
      }
      x += dx, y += dy;
    }
  }
  const int32_t ntowns = (int32_t)(area / 8192 > 4 ? area / 8192 : 4);
  astar_point *towns = malloc((size_t)ntowns * sizeof *towns);
  if (!towns) {
    astar_grid_free(g);
    return ASTAR_NO_MEMORY;
  }
  for (int32_t i = 0; i < ntowns; i++) {
    towns[i].x = rnd_range(&rng, w / 16, w - 1 - w / 16);
    towns[i].y = rnd_range(&rng, h / 16, h - 1 - h / 16);
    if (i == 0) continue;
    int32_t best = 0;
    int64_t bd = INT64_MAX;
    for (int32_t j = 0; j < i; j++) {
      const int64_t ddx = towns[j].x - towns[i].x, ddy = towns[j].y - towns[i].y;
      if (ddx * ddx + ddy * ddy < bd) bd = ddx * ddx + ddy * ddy, best = j;
    }
    road(g, &rng, towns[best], towns[i]);
  }
  for (int32_t i = 0; i < ntowns / 4 + 1; i++)
    road(g, &rng, towns[rnd_below(&rng, ntowns)], towns[rnd_below(&rng, ntowns)]);
  free(towns);
  *out = g;
  return ASTAR_OK;
}

/* ---- reachability for goals ------------------------------------------------ */

static bool fits(const world *w, int32_t x, int32_t y, int32_t k) {
  return astar_clearance_fits(w->clr, x, y, k, ASTAR_CAPABILITY_ALL);
}

/* Label the 4-connected components of the cells size k fits in (4-connected
** is exactly what 8 moves without corner cutting reach). Harness work: not
** timed. */
static void relabel(world *w, int32_t k) {
  int32_t *lab = w->label[k];
  const int32_t n = w->w * w->h;
  for (int32_t i = 0; i < n; i++) lab[i] = -1;
  int32_t next = 0;
  for (int32_t s = 0; s < n; s++) {
    if (lab[s] >= 0 || !fits(w, s % w->w, s / w->w, k)) continue;
    int32_t head = 0, tail = 0;
    w->bfs[tail++] = s;
    lab[s] = next;
    while (head < tail) {
      const int32_t c = w->bfs[head++], cx = c % w->w, cy = c / w->w;
      static const int32_t nx[4] = {1, -1, 0, 0}, ny[4] = {0, 0, 1, -1};
      for (int d = 0; d < 4; d++) {
        const int32_t x = cx + nx[d], y = cy + ny[d];
        if (x < 0 || y < 0 || x >= w->w || y >= w->h) continue;
        const int32_t j = y * w->w + x;
        if (lab[j] < 0 && fits(w, x, y, k)) lab[j] = next, w->bfs[tail++] = j;
      }
    }
    next++;
  }
  w->label_version[k] = astar_grid_version(w->grid);
}

static int32_t label_at(world *w, int32_t k, astar_point p) {
  if (w->label_version[k] != astar_grid_version(w->grid)) relabel(w, k);
  return w->label[k][p.y * w->w + p.x];
}

/* A random goal u can really reach, other than where it stands; false when
** GOAL_DRAWS draws found none. */
static bool pick_goal(world *w, unit *u) {
  const int32_t here = label_at(w, u->size, u->pos);
  if (here < 0) return false;
  for (int i = 0; i < GOAL_DRAWS; i++) {
    const astar_point g = {rnd_below(&w->rng, w->w), rnd_below(&w->rng, w->h)};
    if ((g.x != u->pos.x || g.y != u->pos.y) && label_at(w, u->size, g) == here) {
      u->goal = g;
      u->tries = 0;
      return true;
    }
  }
  return false;
}

static void new_order(world *w, unit *u) {
  u->len = u->next = 0;
  u->wait_since = -1; /* a wait abandoned with its goal is not counted */
  if (pick_goal(w, u)) {
    u->state = U_NEED;
  } else {
    u->state = U_IDLE;
    u->idle_until = w->frame + IDLE_RETRY;
    w->st.idle_no_goal++;
  }
}

/* ---- the fog player's view ------------------------------------------------- */

/* Is the anchor (x, y) of a size k unit blocked as the fog player knows
** the map: some footprint cell outside the map or known blocked? */
static bool view_blocked(const world *w, int32_t x, int32_t y, int32_t k) {
  for (int32_t dy = 0; dy < k; dy++)
    for (int32_t dx = 0; dx < k; dx++)
      if (astar_knowledge_get(w->know, x + dx, y + dy) == ASTAR_CELL_BLOCKED) return true;
  return false;
}

/* Is the step p -> q (adjacent) of a size k unit open: on the truth, or in
** the fog player's view? Diagonal steps need both side anchors (no corner
** cutting: exact for big units, astar/clearance.h). */
static bool step_open(const world *w, bool view, int32_t k, astar_point p, astar_point q) {
  if (view) {
    if (view_blocked(w, q.x, q.y, k)) return false;
    if (p.x != q.x && p.y != q.y)
      return !view_blocked(w, q.x, p.y, k) && !view_blocked(w, p.x, q.y, k);
    return true;
  }
  if (!fits(w, q.x, q.y, k)) return false;
  if (p.x != q.x && p.y != q.y) return fits(w, q.x, p.y, k) && fits(w, p.x, q.y, k);
  return true;
}

/* Does u's path from its next step on stay open (truth or view)? */
static bool rest_open(const world *w, const unit *u, bool view) {
  for (size_t i = u->next; i < u->len; i++)
    if (!step_open(w, view, u->size, u->path[i - 1], u->path[i])) return false;
  return true;
}

/* Reveal what u sees from its footprint's centre; append the cells whose
** knowledge changed to w->changed. True when one became known blocked. */
static bool reveal_around(world *w, const unit *u) {
  const int32_t r = w->cfg->sight, cx = u->pos.x + u->size / 2, cy = u->pos.y + u->size / 2;
  bool blocked = false;
  for (int32_t y = cy - r; y <= cy + r; y++)
    for (int32_t x = cx - r; x <= cx + r; x++) {
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > r * r || !astar_grid_contains(w->grid, x, y))
        continue;
      const astar_cell_knowledge before = astar_knowledge_get(w->know, x, y);
      astar_knowledge_reveal(w->know, w->grid, x, y);
      const astar_cell_knowledge after = astar_knowledge_get(w->know, x, y);
      if (after == before) continue;
      if (after == ASTAR_CELL_BLOCKED) blocked = true;
      if (w->nchanged == w->cap_changed) {
        const size_t cap = w->cap_changed ? 2 * w->cap_changed : 1024;
        astar_point *c = realloc(w->changed, cap * sizeof *c);
        if (!c) continue; /* not recorded: the derived knowledge misses it (never seen) */
        w->changed = c, w->cap_changed = cap;
      }
      w->changed[w->nchanged++] = (astar_point){x, y};
    }
  return blocked;
}

/* ---- delivery and validation ------------------------------------------------ */

/* Is u->path[0 .. len-1] a walk from u->pos to u->goal of adjacent anchors
** inside the map? (The shape every delivered path must have, whatever the
** player knows.) */
static bool path_well_formed(const world *w, const unit *u, size_t len) {
  if (len == 0 || u->path[0].x != u->pos.x || u->path[0].y != u->pos.y ||
      u->path[len - 1].x != u->goal.x || u->path[len - 1].y != u->goal.y)
    return false;
  for (size_t i = 0; i < len; i++) {
    if (!astar_grid_contains(w->grid, u->path[i].x, u->path[i].y)) return false;
    if (i == 0) continue;
    const int32_t dx = u->path[i].x - u->path[i - 1].x, dy = u->path[i].y - u->path[i - 1].y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return false;
  }
  return true;
}

/* --verify: the cost of the one-shot search for u on the true map now. */
static double one_shot_cost(world *w, const unit *u) {
  astar_result res;
  size_t cap = (size_t)w->w * (size_t)w->h;
  astar_point *tmp = malloc(cap * sizeof *tmp);
  if (!tmp) return -1;
  const astar_status st =
      astar_clearance_find_path(w->verify_ws, w->clr, w->grid, w->verify_grid, &w->opt, u->size,
                                ASTAR_CAPABILITY_ALL, u->pos, u->goal, tmp, cap, &res);
  free(tmp);
  return st == ASTAR_OK ? res.cost : -1;
}

static void world_deliver(world *w, unit *u, astar_status status, size_t len, uint32_t restarts) {
  stats *s = &w->st;
  s->delivered++;
  frames_add(&s->latency, w->frame - u->submit_frame);
  s->lat_sum_size[u->size] += w->frame - u->submit_frame;
  s->lat_n_size[u->size]++;
  if (restarts > s->max_restarts) s->max_restarts = restarts;
  u->state = U_NEED; /* unless a usable path is delivered */
  switch (status) {
  case ASTAR_OK: {
    s->paths++;
    if (u->fog)
      s->fog_paths++;
    else
      s->truth_paths++;
    if (!path_well_formed(w, u, len)) {
      s->violations++;
      break;
    }
    u->len = len;
    u->next = 1;
    bool stale;
    if (u->fog) {
      stale = !rest_open(w, u, true);
    } else {
      /* The library's own checker on the true map. */
      double cost;
      stale = astar_clearance_path_cost(w->clr, w->grid, &w->opt, u->size, ASTAR_CAPABILITY_ALL,
                                        u->path, len, &cost, NULL) != ASTAR_OK;
      if (!stale && w->cfg->verify) {
        const double best = one_shot_cost(w, u);
        if (best < 0 || fabs(best - cost) > 1e-9 * (1.0 + best)) s->cost_mismatch++;
      }
    }
    if (stale) {
      /* The game notices and asks again (a game that did not would walk
      ** into the wall and ask then). */
      if (u->fog)
        s->stale_fog++;
      else
        s->stale_truth++;
      u->len = u->next = 0;
      break;
    }
    frames_add(&s->wait, w->frame - u->wait_since);
    u->wait_since = -1;
    if (len == 1) { /* already there */
      s->arrivals++;
      u->arrivals++;
      new_order(w, u);
    } else {
      u->state = U_WALK;
    }
    break;
  }
  case ASTAR_NO_PATH:
  case ASTAR_GOAL_BLOCKED: /* the goal became a wall, or is walled in as the player sees it */
    s->no_path++;
    new_order(w, u);
    break;
  case ASTAR_STALE: /* restarted too often: ask again */
    s->stale_status++;
    break;
  default:
    s->errors++;
    new_order(w, u);
    break;
  }
}

/* ---- walls ------------------------------------------------------------------ */

/* A wall segment of up to wall_len cells from a random open cell, along a
** random axis, on cells open and under no unit. Appends them to
** w->changed (emptied first); returns how many. */
static size_t place_wall(world *w) {
  const int32_t n = w->w * w->h;
  memset(w->occupied, 0, (size_t)n);
  for (int32_t i = 0; i < w->nunits; i++) {
    const unit *u = &w->units[i];
    for (int32_t dy = 0; dy < u->size; dy++)
      for (int32_t dx = 0; dx < u->size; dx++)
        if (astar_grid_contains(w->grid, u->pos.x + dx, u->pos.y + dy))
          w->occupied[(u->pos.y + dy) * w->w + u->pos.x + dx] = 1;
  }
  w->nchanged = 0;
  astar_point p;
  int tries = 0;
  do p = (astar_point){rnd_below(&w->rng, w->w), rnd_below(&w->rng, w->h)};
  while (!astar_grid_passable(w->grid, p.x, p.y) && ++tries < 1000);
  const bool horizontal = rnd_below(&w->rng, 2) == 0;
  for (int32_t i = 0; i < w->cfg->wall_len; i++) {
    const int32_t x = p.x + (horizontal ? i : 0), y = p.y + (horizontal ? 0 : i);
    if (!astar_grid_passable(w->grid, x, y) || w->occupied[y * w->w + x]) continue;
    if (w->nchanged == w->cap_changed) break; /* cap_changed >= wall_len (main) */
    astar_grid_set_passable(w->grid, x, y, false);
    w->changed[w->nchanged++] = (astar_point){x, y};
  }
  return w->nchanged;
}

/* ---- the report ------------------------------------------------------------- */

static int cmp_i32(const void *a, const void *b) {
  const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}
static int cmp_dbl(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The 95th percentile of sorted v[0 .. n-1] (nearest rank). */
#define P95_INDEX(n) ((n) == 0 ? 0 : (size_t)ceil(0.95 * (double)(n)) - 1)

static const char header_line[] =
    "| map | units (1/2/3) | fog | budget | policy | method | requests | latency mean | p95 | "
    "<=10 f | open | path wait mean | p95 | arrivals | units arrived | ms/frame mean | p95 | "
    "expansions/frame | restarts | STALE | stale fog | stale truth | violations |\n"
    "|---|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    "---:|---:|---:|---:|\n";

/* Sort l; its mean, 95th percentile and largest value into *mean, *p95, *max
** (0 when empty). */
static void frames_summary(frames_list *l, double *mean, int32_t *p95, int32_t *max) {
  qsort(l->v, l->n, sizeof *l->v, cmp_i32);
  double sum = 0;
  for (size_t i = 0; i < l->n; i++) sum += l->v[i];
  *mean = l->n ? sum / (double)l->n : 0;
  *p95 = l->n ? l->v[P95_INDEX(l->n)] : 0;
  *max = l->n ? l->v[l->n - 1] : 0;
}

static void report(world *w, size_t open, double wall_s) {
  const config *c = w->cfg;
  stats *s = &w->st;
  double lat_mean, wait_mean;
  int32_t lat_p95, lat_max, wait_p95, wait_max;
  frames_summary(&s->latency, &lat_mean, &lat_p95, &lat_max);
  frames_summary(&s->wait, &wait_mean, &wait_p95, &wait_max);
  size_t within = 0;
  for (size_t i = 0; i < s->latency.n; i++) within += s->latency.v[i] <= WITHIN_FRAMES;
  /* Requests still open at the end count as not answered within the target. */
  const size_t asked = s->latency.n + open;
  const double within_pct = asked ? 100.0 * (double)within / (double)asked : 0;
  double ms_sum = 0, exp_sum = 0;
  for (int32_t f = 0; f < c->frames; f++) ms_sum += s->ms[f], exp_sum += (double)s->expanded[f];
  qsort(s->ms, (size_t)c->frames, sizeof *s->ms, cmp_dbl);
  const double ms_mean = ms_sum / c->frames, ms_p95 = s->ms[P95_INDEX((size_t)c->frames)];
  int32_t units_arrived = 0, fog_units = 0;
  for (int32_t i = 0; i < w->nunits; i++) {
    units_arrived += w->units[i].arrivals > 0;
    fog_units += w->units[i].fog;
  }
  const uint64_t violations = s->violations + s->cost_mismatch;
  if (strcmp(c->format, "text") == 0) {
    printf("map %s (%dx%d), %d frames, seed %" PRIu64 ", policy %s, method %s\n", c->map, w->w,
           w->h, c->frames, c->seed, c->policy, c->method);
    printf("units: %d (sizes 1/2/3: %d/%d/%d), %d under fog (sight %d), one cell every %d "
           "frame(s)\n",
           w->nunits, c->counts[1], c->counts[2], c->counts[3], fog_units, c->sight,
           c->step_frames);
    printf("budget: %" PRIu64 " expansions a frame; walls: %d cells every %d frames\n", c->budget,
           c->wall_len, c->wall_every);
    printf("requests: %" PRIu64 " submitted, %" PRIu64 " delivered, %zu still open at the end\n",
           s->requests, s->delivered, open);
    printf("latency (frames): mean %.1f, p95 %d, max %d of the delivered; %.1f%% of the requests "
           "answered within %d frames\n",
           lat_mean, lat_p95, lat_max, within_pct, WITHIN_FRAMES);
    printf("wait for a usable path (frames): mean %.1f, p95 %d, max %d over %zu paths used\n",
           wait_mean, wait_p95, wait_max, s->wait.n);
    printf("latency by unit size (mean frames):");
    for (int32_t k = 1; k <= MAXK; k++)
      if (s->lat_n_size[k])
        printf(" %dx%d %.1f (%" PRIu64 ")", k, k, s->lat_sum_size[k] / (double)s->lat_n_size[k],
               s->lat_n_size[k]);
    printf("\n");
    printf("outcomes: %" PRIu64 " paths (%" PRIu64 " fog, %" PRIu64 " truth), %" PRIu64
           " no path / goal blocked, %" PRIu64 " STALE (restart limit), %" PRIu64 " errors\n",
           s->paths, s->fog_paths, s->truth_paths, s->no_path, s->stale_status, s->errors);
    printf("stale deliveries: %" PRIu64 " fog (through a known wall), %" PRIu64
           " truth (through a wall)\n",
           s->stale_fog, s->stale_truth);
    printf("violations: %" PRIu64 " malformed paths, %" PRIu64 " cost mismatches%s\n",
           s->violations, s->cost_mismatch, c->verify ? "" : " (--verify not given)");
    printf("restarts: %" PRIu64 " (most for one request: %u)\n", s->restarts, s->max_restarts);
    printf("arrivals: %" PRIu64 " (units that arrived at least once: %d of %d); steps into a wall: "
           "%" PRIu64 "; replans: %" PRIu64 " after walls, %" PRIu64 " after reveals; goals given "
           "up: %" PRIu64 "\n",
           s->arrivals, units_arrived, w->nunits, s->blocked_steps, s->replans_wall,
           s->replans_reveal, s->gave_up);
    printf("work: %.0f expansions a frame (mean); pathfinding %.3f ms a frame (mean), %.3f "
           "(p95); run %.2f s\n",
           exp_sum / c->frames, ms_mean, ms_p95, wall_s);
    return;
  }
  if (strcmp(c->format, "header") == 0) fputs(header_line, stdout);
  if (c->label)
    printf("| %s", c->label);
  else
    printf("| %s %dx%d", c->map, w->w, w->h);
  printf(" | %d (%d/%d/%d) | %d | %" PRIu64 " | %s | %s | %" PRIu64
         " | %.1f | %d | %.0f%% | %zu | %.1f | %d | %" PRIu64
         " | %d/%d | %.3f | %.3f | %.0f | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64
         " | %" PRIu64 " |\n",
         w->nunits, c->counts[1], c->counts[2], c->counts[3], fog_units, c->budget, c->policy,
         c->method, s->requests, lat_mean, lat_p95, within_pct, open, wait_mean, wait_p95,
         s->arrivals, units_arrived, w->nunits, ms_mean, ms_p95, exp_sum / c->frames, s->restarts,
         s->stale_status, s->stale_fog, s->stale_truth, violations);
}

/* ---- options ------------------------------------------------------------------ */

static void usage(FILE *f) {
  fprintf(f, "usage: rts [options]\n"
             "The RTS benchmark of issue 26 (bench/rts.c): units of sizes 1-3 on a map with\n"
             "terrain and roads, one player under fog, walls appearing, paths through a\n"
             "request queue with a per-frame expansion budget. Same seed, same figures\n"
             "(milliseconds aside).\n"
             "  --map M           gen:N or gen:WxH (a generated map with hills, swamps,\n"
             "                    obstacles and roads of cost 0.8; N 16..4096) or a map file\n"
             "                    (Moving AI or ASCII; no terrain). Default gen:256\n"
             "  --label NAME      the map's name in the report (default: --map)\n"
             "  --seed S          random seed (default 1)\n"
             "  --units N         units, 1..100000 (default 50)\n"
             "  --mix A,B,C       percent of sizes 1, 2, 3 (default 80,15,5)\n"
             "  --sizes A,B,C     exactly A units of size 1, B of size 2, C of size 3\n"
             "                    (overrides --units and --mix)\n"
             "  --fog P           percent of the units owned by the fog player, 0..100\n"
             "                    (default 50; they take every other index)\n"
             "  --fog-start S     shroud (the fog player knows nothing: default) or map\n"
             "                    (it knows the initial map; only new walls are hidden)\n"
             "  --sight R         reveal radius of the fog player's units, 1..64 (default 8)\n"
             "  --frames F        frames simulated, 1..1000000 (default 600)\n"
             "  --budget B        expansions a frame, 1..10^9 (default 2000)\n"
             "  --wall-every N    a wall appears every N frames, 0 (never)..1000000 (default 20)\n"
             "  --wall-length L   cells of a wall, 1..64 (default 8)\n"
             "  --step-frames K   frames a unit takes per cell, 1..1000 (default 1)\n"
             "  --restarts R      astar_queue_set_restarts, 0..1000000 (default 3)\n"
             "  --policy P        planning policy (default queue-astar):\n");
  for (int i = 0; policies[i]; i++)
    fprintf(f, "                      %s: %s (methods: %s)\n", policies[i]->policy,
            policies[i]->about, policies[i]->methods);
  fprintf(f, "  --method M        search method, among the policy's (default its first)\n"
             "  --verify          compare each delivered path of a unit that sees the true\n"
             "                    map with the one-shot search's cost (slow: small runs)\n"
             "  --check           exit 1 on a violation or a stale delivery to a unit\n"
             "                    that sees the true map\n"
             "  --format F        row (a markdown table row: default), header (the\n"
             "                    table's header, then the row) or text\n");
}

static bool parse_i64(const char *name, const char *s, int64_t lo, int64_t hi, int64_t *out) {
  char *end;
  errno = 0;
  const long long v = s ? strtoll(s, &end, 10) : 0;
  if (!s || errno || end == s || *end || v < lo || v > hi) {
    fprintf(stderr, "rts: %s: expected an integer in %" PRId64 "..%" PRId64 ", got '%s'\n", name,
            lo, hi, s ? s : "");
    return false;
  }
  *out = v;
  return true;
}

/* "A,B,C" into v[1..3], each in lo..hi. */
static bool parse_triple(const char *name, const char *s, int32_t lo, int32_t hi, int32_t *v) {
  int a, b, c, n = 0;
  if (!s || sscanf(s, "%d,%d,%d%n", &a, &b, &c, &n) != 3 || s[n] || a < lo || a > hi || b < lo ||
      b > hi || c < lo || c > hi) {
    fprintf(stderr, "rts: %s: expected three integers A,B,C in %d..%d, got '%s'\n", name, lo, hi,
            s ? s : "");
    return false;
  }
  v[1] = a, v[2] = b, v[3] = c;
  return true;
}

/* 0: parsed; 1: --help printed; 2: usage error (message printed). */
static int parse_args(int argc, char **argv, config *c) {
  *c = (config){.map = "gen:256",
                .seed = 1,
                .units = 50,
                .mix = {0, 80, 15, 5},
                .fog_pct = 50,
                .sight = 8,
                .frames = 600,
                .budget = 2000,
                .wall_every = 20,
                .wall_len = 8,
                .step_frames = 1,
                .restarts = ASTAR_QUEUE_DEFAULT_RESTARTS,
                .policy = "queue-astar",
                .method = NULL,
                .label = NULL,
                .format = "row"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int64_t n = 0;
    bool ok = true, takes = true;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 1;
    } else if (strcmp(a, "--verify") == 0) {
      c->verify = true, takes = false;
    } else if (strcmp(a, "--check") == 0) {
      c->check = true, takes = false;
    } else if (!v) {
      fprintf(stderr, "rts: %s: missing value (or unknown option; --help lists them)\n", a);
      return 2;
    } else if (strcmp(a, "--map") == 0) {
      c->map = v;
    } else if (strcmp(a, "--label") == 0) {
      c->label = v;
    } else if (strcmp(a, "--seed") == 0) {
      ok = parse_i64(a, v, 0, INT64_MAX, &n), c->seed = (uint64_t)n;
    } else if (strcmp(a, "--units") == 0) {
      ok = parse_i64(a, v, 1, 100000, &n), c->units = (int32_t)n;
    } else if (strcmp(a, "--mix") == 0) {
      ok = parse_triple(a, v, 0, 100, c->mix);
      if (ok && c->mix[1] + c->mix[2] + c->mix[3] != 100) {
        fprintf(stderr, "rts: --mix: the three percentages must add up to 100, got '%s'\n", v);
        ok = false;
      }
    } else if (strcmp(a, "--sizes") == 0) {
      ok = parse_triple(a, v, 0, 100000, c->counts), c->counts_given = true;
      if (ok && c->counts[1] + c->counts[2] + c->counts[3] == 0) {
        fprintf(stderr, "rts: --sizes: at least one unit, got '%s'\n", v);
        ok = false;
      }
    } else if (strcmp(a, "--fog") == 0) {
      ok = parse_i64(a, v, 0, 100, &n), c->fog_pct = (int32_t)n;
    } else if (strcmp(a, "--fog-start") == 0) {
      if (strcmp(v, "map") == 0)
        c->fog_map_known = true;
      else if (strcmp(v, "shroud") == 0)
        c->fog_map_known = false;
      else
        fprintf(stderr, "rts: --fog-start: expected shroud or map, got '%s'\n", v), ok = false;
    } else if (strcmp(a, "--sight") == 0) {
      ok = parse_i64(a, v, 1, 64, &n), c->sight = (int32_t)n;
    } else if (strcmp(a, "--frames") == 0) {
      ok = parse_i64(a, v, 1, 1000000, &n), c->frames = (int32_t)n;
    } else if (strcmp(a, "--budget") == 0) {
      ok = parse_i64(a, v, 1, 1000000000, &n), c->budget = (uint64_t)n;
    } else if (strcmp(a, "--wall-every") == 0) {
      ok = parse_i64(a, v, 0, 1000000, &n), c->wall_every = (int32_t)n;
    } else if (strcmp(a, "--wall-length") == 0) {
      ok = parse_i64(a, v, 1, 64, &n), c->wall_len = (int32_t)n;
    } else if (strcmp(a, "--step-frames") == 0) {
      ok = parse_i64(a, v, 1, 1000, &n), c->step_frames = (int32_t)n;
    } else if (strcmp(a, "--restarts") == 0) {
      ok = parse_i64(a, v, 0, 1000000, &n), c->restarts = (uint32_t)n;
    } else if (strcmp(a, "--policy") == 0) {
      c->policy = v;
    } else if (strcmp(a, "--method") == 0) {
      c->method = v;
    } else if (strcmp(a, "--format") == 0) {
      c->format = v;
      if (strcmp(v, "row") != 0 && strcmp(v, "header") != 0 && strcmp(v, "text") != 0) {
        fprintf(stderr, "rts: --format: expected row, header or text, got '%s'\n", v);
        ok = false;
      }
    } else {
      fprintf(stderr, "rts: unknown option '%s' (--help lists them)\n", a);
      return 2;
    }
    if (!ok) return 2;
    if (takes) i++;
  }
  if (!c->counts_given) {
    /* Sizes 2 and 3 by rounding their shares; the rest are 1 x 1. */
    c->counts[3] = (int32_t)((int64_t)c->units * c->mix[3] / 100);
    c->counts[2] = (int32_t)((int64_t)c->units * c->mix[2] / 100);
    c->counts[1] = c->units - c->counts[2] - c->counts[3];
  }
  c->units = c->counts[1] + c->counts[2] + c->counts[3];
  return 0;
}

/* ---- main ------------------------------------------------------------------------ */

static astar_status load_map(const config *c, astar_grid **out) {
  if (strncmp(c->map, "gen:", 4) == 0) {
    int wd, ht, n = 0;
    if (sscanf(c->map + 4, "%dx%d%n", &wd, &ht, &n) == 2 && !c->map[4 + n]) {
    } else if (sscanf(c->map + 4, "%d%n", &wd, &n) == 1 && !c->map[4 + n]) {
      ht = wd;
    } else {
      wd = ht = 0;
    }
    if (wd < 16 || ht < 16 || wd > 4096 || ht > 4096) {
      fprintf(stderr, "rts: --map: expected gen:N or gen:WxH with sides in 16..4096, got '%s'\n",
              c->map);
      return ASTAR_INVALID_ARGUMENT;
    }
    return generate_map(out, wd, ht, c->seed);
  }
  *out = bench_load_map(c->map);
  if (!*out) {
    fprintf(stderr, "rts: --map: cannot read or parse '%s'\n", c->map);
    return ASTAR_INVALID_ARGUMENT;
  }
  return ASTAR_OK;
}

static void world_free(world *w) {
  if (w->ops && w->pl) w->ops->free(w->pl);
  for (int32_t i = 0; w->units && i < w->nunits; i++) free(w->units[i].path);
  free(w->units);
  for (int32_t k = 1; k <= MAXK; k++) free(w->label[k]);
  free(w->bfs);
  free(w->occupied);
  free(w->changed);
  free(w->st.latency.v);
  free(w->st.wait.v);
  free(w->st.ms);
  free(w->st.expanded);
  astar_workspace_free(w->verify_ws);
  astar_grid_free(w->verify_grid);
  astar_knowledge_free(w->know);
  astar_clearance_free(w->clr);
  astar_grid_free(w->grid);
}

/* Place the units (each on a random cell of the largest component its size
** fits in), give them goals, and reveal what the fog player's units see. */
static bool place_units(world *w) {
  const config *c = w->cfg;
  int32_t i = 0;
  for (int32_t k = 1; k <= MAXK; k++) {
    if (!c->counts[k]) continue;
    relabel(w, k);
    /* The largest component. */
    const int32_t n = w->w * w->h;
    int32_t *count = calloc((size_t)n, sizeof *count);
    if (!count) return false;
    int32_t best = -1;
    for (int32_t j = 0; j < n; j++)
      if (w->label[k][j] >= 0 && ++count[w->label[k][j]] > (best < 0 ? 0 : count[best]))
        best = w->label[k][j];
    free(count);
    if (best < 0) {
      fprintf(stderr, "rts: no cell of the map fits a %dx%d unit\n", k, k);
      return false;
    }
    for (int32_t m = 0; m < c->counts[k]; m++, i++) {
      unit *u = &w->units[i];
      u->size = k;
      u->plan_prev = u->plan_next = -1;
      do u->pos = (astar_point){rnd_below(&w->rng, w->w), rnd_below(&w->rng, w->h)};
      while (w->label[k][u->pos.y * w->w + u->pos.x] != best);
      if (!unit_reserve(u, 4 * (size_t)(w->w + w->h))) return false;
    }
  }
  /* Fog owners: every other index up to the share (sizes are mixed in by a
  ** shuffle of the owners, so that both players get big units). */
  int32_t nfog = (int32_t)((int64_t)w->nunits * c->fog_pct / 100);
  for (int32_t j = 0; j < w->nunits; j++) w->units[j].fog = false;
  for (int32_t j = 0; j < w->nunits && nfog > 0; j += 2, nfog--) w->units[j].fog = true;
  for (int32_t j = 1; j < w->nunits && nfog > 0; j += 2, nfog--) w->units[j].fog = true;
  for (int32_t j = 0; j < w->nunits; j++) new_order(w, &w->units[j]);
  return true;
}

int main(int argc, char **argv) {
  config cfg;
  const int pa = parse_args(argc, argv, &cfg);
  if (pa) return pa == 1 ? 0 : 2;
  const planner_ops *ops = NULL;
  for (int i = 0; policies[i]; i++)
    if (strcmp(policies[i]->policy, cfg.policy) == 0) ops = policies[i];
  if (!ops) {
    fprintf(stderr, "rts: --policy: unknown policy '%s' (--help lists them)\n", cfg.policy);
    return 2;
  }
  if (!cfg.method) {
    static char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(ops->methods, ","), ops->methods);
    cfg.method = first;
  } else {
    /* One of the policy's ", "-separated methods. */
    const size_t ml = strlen(cfg.method);
    const char *m = ops->methods;
    bool found = false;
    while (*m && !found) {
      const size_t l = strcspn(m, ",");
      found = l == ml && strncmp(m, cfg.method, l) == 0;
      m += l;
      while (*m == ',' || *m == ' ') m++;
    }
    if (!found) {
      fprintf(stderr, "rts: --method: policy %s runs %s, not '%s'\n", ops->policy, ops->methods,
              cfg.method);
      return 2;
    }
  }

  world w = {0};
  w.cfg = &cfg;
  w.rng = cfg.seed ^ UINT64_C(0x554E495453); /* "UNITS" */
  int rc = 1;
  astar_options_init(&w.opt);
  if (load_map(&cfg, &w.grid) != ASTAR_OK) return 2;
  w.w = astar_grid_width(w.grid);
  w.h = astar_grid_height(w.grid);
  const size_t ncells = (size_t)w.w * (size_t)w.h;
  w.nunits = cfg.units;
  for (int32_t k = 1; k <= MAXK; k++) w.used[k] = cfg.counts[k] > 0;
  w.units = calloc((size_t)w.nunits, sizeof *w.units);
  w.bfs = malloc(ncells * sizeof *w.bfs);
  w.occupied = malloc(ncells);
  w.cap_changed = 4096;
  w.changed = malloc(w.cap_changed * sizeof *w.changed);
  w.st.ms = calloc((size_t)cfg.frames, sizeof *w.st.ms);
  w.st.expanded = calloc((size_t)cfg.frames, sizeof *w.st.expanded);
  bool ok = w.units && w.bfs && w.occupied && w.changed && w.st.ms && w.st.expanded;
  for (int32_t k = 1; ok && k <= MAXK; k++)
    if (w.used[k]) ok = (w.label[k] = malloc(ncells * sizeof *w.label[k])) != NULL;
  ok = ok && astar_clearance_new(&w.clr, w.grid, NULL, NULL, 0, MAXK, NULL) == ASTAR_OK &&
       astar_knowledge_new(&w.know, w.grid, NULL) == ASTAR_OK;
  if (ok && cfg.verify)
    ok = astar_workspace_new(&w.verify_ws, w.grid, NULL) == ASTAR_OK &&
         astar_grid_new(&w.verify_grid, w.w, w.h, NULL) == ASTAR_OK;
  if (ok && cfg.fog_map_known)
    for (int32_t y = 0; y < w.h; y++)
      for (int32_t x = 0; x < w.w; x++) astar_knowledge_reveal(w.know, w.grid, x, y);
  ok = ok && place_units(&w);
  if (!ok) {
    fprintf(stderr, "rts: out of memory, or no room for the units\n");
    goto done;
  }
  /* What the fog player's units see where they start. */
  for (int32_t i = 0; i < w.nunits; i++)
    if (w.units[i].fog) reveal_around(&w, &w.units[i]);
  w.nchanged = 0;
  w.ops = ops;
  const astar_status pst = ops->init(&w.pl, &w, cfg.method);
  if (pst != ASTAR_OK) {
    fprintf(stderr, "rts: policy %s could not start: %s\n", ops->policy, astar_strerror(pst));
    goto done;
  }

  const double run_start = bench_now();
  for (w.frame = 0; w.frame < cfg.frames; w.frame++) {
    double pf = 0; /* pathfinding seconds this frame */
    double t0;
    /* 1. A wall appears: the map changes under everyone. */
    if (cfg.wall_every && w.frame > 0 && w.frame % cfg.wall_every == 0 && place_wall(&w) > 0) {
      astar_clearance_update_cells(w.clr, w.grid, w.changed, w.nchanged);
      t0 = bench_now();
      ops->edited(w.pl, w.changed, w.nchanged);
      pf += bench_now() - t0;
      /* Units that see the truth replan when their path crosses the wall. */
      for (int32_t i = 0; i < w.nunits; i++) {
        unit *u = &w.units[i];
        if (!u->fog && u->state == U_WALK && !rest_open(&w, u, false)) {
          u->state = U_NEED, u->len = u->next = 0;
          w.st.replans_wall++;
        }
      }
    }
    /* 2. Units walk; the fog player's units look around. */
    w.nchanged = 0;
    bool seen_wall = false;
    for (int32_t i = 0; i < w.nunits; i++) {
      unit *u = &w.units[i];
      if (u->state == U_IDLE && w.frame >= u->idle_until) new_order(&w, u);
      if (u->state != U_WALK || (w.frame + i) % cfg.step_frames != 0) continue;
      const astar_point q = u->path[u->next];
      if (!step_open(&w, false, u->size, u->pos, q)) {
        w.st.blocked_steps++; /* its path was outdated: ask again from here */
        u->state = U_NEED, u->len = u->next = 0;
        continue;
      }
      u->pos = q;
      u->next++;
      u->tries = 0; /* progress: its requests were not in vain */
      if (u->next == u->len) {
        w.st.arrivals++;
        u->arrivals++;
        new_order(&w, u);
      }
    }
    /* Sight is continuous: a unit standing still sees a wall rise too. */
    for (int32_t i = 0; i < w.nunits; i++)
      if (w.units[i].fog) seen_wall |= reveal_around(&w, &w.units[i]);
    if (w.nchanged) {
      t0 = bench_now();
      ops->revealed(w.pl, w.changed, w.nchanged);
      pf += bench_now() - t0;
    }
    /* The fog player's units replan when their path crosses a wall just seen. */
    if (seen_wall)
      for (int32_t i = 0; i < w.nunits; i++) {
        unit *u = &w.units[i];
        if (u->fog && u->state == U_WALK && !rest_open(&w, u, true)) {
          u->state = U_NEED, u->len = u->next = 0;
          w.st.replans_reveal++;
        }
      }
    /* 3. Requests. */
    for (int32_t i = 0; i < w.nunits; i++) {
      unit *u = &w.units[i];
      if (u->state != U_NEED) continue;
      if (u->tries >= MAX_TRIES) {
        w.st.gave_up++;
        new_order(&w, u);
        if (u->state != U_NEED) continue;
      }
      u->tries++;
      u->submit_frame = w.frame;
      if (u->wait_since < 0) u->wait_since = w.frame;
      u->submit_seq = w.seq++;
      u->state = U_PENDING;
      t0 = bench_now();
      const astar_status st = ops->submit(w.pl, u);
      pf += bench_now() - t0;
      if (st != ASTAR_OK) {
        w.st.errors++;
        u->state = U_NEED;
        continue;
      }
      w.st.requests++;
    }
    /* 4. The planner's frame. */
    frame_work fw = {0};
    t0 = bench_now();
    ops->update(w.pl, cfg.budget, &fw);
    pf += bench_now() - t0;
    w.st.restarts += fw.restarted;
    w.st.expanded[w.frame] = fw.expanded;
    w.st.ms[w.frame] = 1e3 * pf;
  }
  const double run_s = bench_now() - run_start;
  report(&w, ops->pending(w.pl), run_s);
  rc = 0;
  if (cfg.check && (w.st.violations || w.st.cost_mismatch || w.st.stale_truth || w.st.errors)) {
    fprintf(stderr,
            "rts: --check: %" PRIu64 " malformed paths, %" PRIu64 " cost mismatches, %" PRIu64
            " stale deliveries to units seeing the truth, "
            "%" PRIu64 " errors\n",
            w.st.violations, w.st.cost_mismatch, w.st.stale_truth, w.st.errors);
    rc = 1;
  }
done:
  world_free(&w);
  return rc;
}
