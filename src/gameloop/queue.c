/*
** queue.c -- the path-request queue (astar/queue.h): many agents' searches
** spread over frames under an expansion budget (seed 000, "speed tips").
**
** Layout. astar_queue_new allocates the queue, a table of `capacity`
** request slots, a binary heap of the waiting slots' indices, the queue's
** own workspace and a path buffer of a cell's worth of points. cancel /
** poll / release only move indices around, so they never allocate; submit
** and update allocate only at a first use (a unit size, a method's
** scratch: astar/queue.h, "Allocation").
**
** Finders. Each slot holds the finder its request runs: its own, prepared
** in the slot at submission without allocating (astar__finder_init: the
** options validated there, once), or a pointer to the caller's. A unit
** bigger than one cell, or of a capability, searches the derived grid of a
** finder the queue keeps per (size, capability) (`units`), all sharing the
** queue's clearance; the slot's own finder is then a one-cell finder on
** that derived grid, which the refusals are asked about as the big unit
** (any-angle, smoothing). sync_units brings the clearance and the derived
** grids to the grid's version before any search reads them.
**
** Order. The heap is keyed (-priority, submission number): the top is the
** highest priority, the oldest among equals. Each slot stores its heap
** position, so cancelling a waiting request removes it in O(log n); submit
** and taking the next request are O(log n) too; poll and release are O(1).
** One request runs at a time on the workspace (a sliced search); it is not
** pre-empted when a more urgent request arrives, since the workspace holds
** one search and restarting would waste the work already done. A search
** whose grid -- or knowledge, as the search sees it -- changed is another
** matter: its work is already lost, so it goes back into the heap with its
** old key (or ends ASTAR_STALE once its restarts are used up). The sliced
** search itself tells (astar_finder_step returns ASTAR_STALE), so the
** queue has one policy for both. A caller's finder found stale at begin
** waits for the next update on the `deferred` list (the caller refreshes
** it between updates), counted as a restart.
**
** Budget. Work is charged as the finder reports it (astar_finder_step's
** *work): a sliced step is given what is left, a whole run may overshoot;
** the excess is `debt`, paid first from the next updates' budgets.
**
** Answers at submission. astar__search_settle decides, without touching
** the workspace, whether a request needs a search at all; if not it is done
** at once and waits in a doubly linked FIFO (O(1) removal when released)
** whose callbacks the next update fires first. Requests submitted from
** those callbacks have later submission numbers and wait for the update
** after, so a callback that keeps resubmitting cannot loop.
**
** Held path. Paths are finished into the queue's path buffer (or straight
** into a request's buffer bigger than it) and copied to the request's
** buffer when they fit; `held` names the request whose path is there (until
** the next begin), for astar_queue_path.
**
** Ids. id = generation << ibits | slot, where ibits is the number of bits
** that holds every slot index. A slot's generation (>= 1, so an id is
** never 0) is bumped each time the slot is released, and freed slots are
** reused oldest first (a FIFO free list), so an id comes back only after
** its slot has been reused 2^(32 - ibits) - 1 times: a released or never
** issued id reads as ASTAR_REQUEST_UNKNOWN.
*/
#include "core/internal.h"
#include "finder/finder.h"

#include <astar/knowledge.h>
#include <string.h>

#define NONE UINT32_MAX
/* At most 2^24 slots, which leaves at least 8 bits of generation. */
#define MAX_CAPACITY ((size_t)1 << 24)
/* Changed cells handed to astar_clearance_update_cells at a time. */
#define CHANGED_CHUNK 256u

typedef struct request {
  astar_finder own;        /* the finder the queue prepared for it (when f == &own) */
  const astar_finder *f;   /* the finder it runs: &own, or the caller's */
  int32_t unit;            /* index in `units` of its derived grid, or -1 (the grid) */
  bool settles;            /* own finder on the grid A*'s loop: answerable at submission */
  astar_point start, goal; /* endpoints */
  astar_point *path;       /* the caller's buffer */
  size_t cap;              /* its cells */
  void *user;              /* the caller's pointer */
  uint64_t seq;            /* submission number: ties among equal priorities */
  int priority;            /* higher first */
  uint64_t version;        /* grid version its outcome was computed on (its search began on) */
  uint64_t kversion;       /* knowledge version its outcome holds for (0 without knowledge) */
  uint32_t restarts;       /* restarts after grid, knowledge or finder changes */
  uint64_t work;           /* work charged to it */
  uint32_t gen;            /* generation, the high bits of the id */
  uint32_t link;           /* heap position while queued; next free slot while free */
  uint32_t wprev, wnext;   /* neighbours in the waiting or the deferred list */
  bool waiting;            /* answered at submission, callback not yet fired */
  bool deferred;           /* its finder was stale: waits for the next update */
  bool settled;            /* answered at submission (its path, if any, is the start) */
  bool copied;             /* astar_queue_path copied its path */
  astar_request_state state;
  astar_status status; /* outcome when done */
  astar_result result; /* its result */
} request;

/* A doubly linked FIFO of slots through request.wprev / wnext. */
typedef struct slot_list {
  uint32_t head, tail, n;
} slot_list;

struct astar_queue {
  astar_allocator alloc;
  const astar_grid *grid;
  astar_workspace *ws; /* where the running request searches */
  astar_point *buf;    /* the path buffer: grid->ncells points */
  size_t buf_cap;
  const astar_point *held_at; /* where the held path is (buf or the request's buffer) */
  uint64_t debt;              /* work done beyond the budgets, paid from the next ones */
  slot_list deferred;         /* queued requests whose finder was stale at begin */
  /* Units (astar_queue_set_units). */
  astar_clearance *clr;                            /* NULL until the first big unit */
  astar_capability caps[ASTAR_CLEARANCE_MAX_CAPS]; /* the clearance's capabilities */
  size_t ncaps;
  int32_t max_unit;         /* largest unit side */
  astar_finder **units;     /* [max_unit * ncaps]: (size - 1) * ncaps + cap */
  astar_point *changed;     /* [CHANGED_CHUNK] cells for the clearance */
  uint64_t synced;          /* grid version the units are at */
  astar_status sync_status; /* the last sync's failure, or ASTAR_OK */
  request *req;             /* [capacity] */
  uint32_t *heap;           /* [capacity] slots of the queued requests */
  uint32_t capacity;        /* slots */
  uint32_t nheap;           /* queued requests */
  uint32_t running;         /* slot of the running request, or NONE */
  uint32_t held;            /* slot of the request whose path the workspace holds, or NONE */
  uint32_t free_head;       /* oldest free slot, or NONE */
  uint32_t free_tail;       /* newest free slot, or NONE */
  slot_list wait;           /* requests answered at submission whose callback waits for
                               the next update */
  unsigned ibits;           /* low id bits holding the slot */
  uint32_t gen_max;         /* largest generation that fits the high bits */
  uint64_t next_seq;        /* submission counter */
  uint32_t max_restarts;    /* astar_queue_set_restarts */
  astar_request_done_fn fn;
  void *ctx;
  bool in_update; /* guards against update called from the callback */
};

/* ---- ids ------------------------------------------------------------------------ */

static astar_request_id make_id(const astar_queue *q, uint32_t slot) {
  return (astar_request_id)(q->req[slot].gen << q->ibits | slot);
}

/* The slot of a live (not free) request, or NONE. */
static uint32_t slot_of(const astar_queue *q, astar_request_id id) {
  if (!q || id == 0) return NONE;
  const uint32_t mask = (uint32_t)(((uint64_t)1 << q->ibits) - 1);
  const uint32_t slot = id & mask;
  const uint32_t gen = (uint32_t)((uint64_t)id >> q->ibits);
  if (slot >= q->capacity) return NONE;
  const request *r = &q->req[slot];
  if (r->state == ASTAR_REQUEST_UNKNOWN || r->gen != gen) return NONE;
  return slot;
}

/* ---- free list (FIFO, so that generations advance evenly) -------------------- */

static void free_push(astar_queue *q, uint32_t slot) {
  q->req[slot].link = NONE;
  if (q->free_tail == NONE)
    q->free_head = slot;
  else
    q->req[q->free_tail].link = slot;
  q->free_tail = slot;
}

static uint32_t free_pop(astar_queue *q) {
  const uint32_t slot = q->free_head;
  if (slot == NONE) return NONE;
  q->free_head = q->req[slot].link;
  if (q->free_head == NONE) q->free_tail = NONE;
  return slot;
}

/* ---- slot lists: answered at submission (delivered at the next update), and
** deferred (their finder was stale: run at the next update) --------------- */

static void list_push(astar_queue *q, slot_list *l, uint32_t slot) {
  request *r = &q->req[slot];
  r->wnext = NONE;
  r->wprev = l->tail;
  if (l->tail == NONE)
    l->head = slot;
  else
    q->req[l->tail].wnext = slot;
  l->tail = slot;
  l->n++;
}

static void list_remove(astar_queue *q, slot_list *l, uint32_t slot) {
  request *r = &q->req[slot];
  if (r->wprev == NONE)
    l->head = r->wnext;
  else
    q->req[r->wprev].wnext = r->wnext;
  if (r->wnext == NONE)
    l->tail = r->wprev;
  else
    q->req[r->wnext].wprev = r->wprev;
  l->n--;
}

static void wait_push(astar_queue *q, uint32_t slot) {
  q->req[slot].waiting = true;
  list_push(q, &q->wait, slot);
}

static void wait_remove(astar_queue *q, uint32_t slot) {
  q->req[slot].waiting = false;
  list_remove(q, &q->wait, slot);
}

/* ---- the heap of queued requests ----------------------------------------------- */

/* Does slot a run before slot b? */
static bool before(const astar_queue *q, uint32_t a, uint32_t b) {
  const request *ra = &q->req[a], *rb = &q->req[b];
  if (ra->priority != rb->priority) return ra->priority > rb->priority;
  return ra->seq < rb->seq;
}

static void heap_set(astar_queue *q, uint32_t pos, uint32_t slot) {
  q->heap[pos] = slot;
  q->req[slot].link = pos;
}

static void sift_up(astar_queue *q, uint32_t pos) {
  const uint32_t slot = q->heap[pos];
  while (pos > 0) {
    const uint32_t parent = (pos - 1) / 2;
    if (!before(q, slot, q->heap[parent])) break;
    heap_set(q, pos, q->heap[parent]);
    pos = parent;
  }
  heap_set(q, pos, slot);
}

static void sift_down(astar_queue *q, uint32_t pos) {
  const uint32_t slot = q->heap[pos];
  for (;;) {
    uint32_t child = 2 * pos + 1;
    if (child >= q->nheap) break;
    if (child + 1 < q->nheap && before(q, q->heap[child + 1], q->heap[child])) child++;
    if (!before(q, q->heap[child], slot)) break;
    heap_set(q, pos, q->heap[child]);
    pos = child;
  }
  heap_set(q, pos, slot);
}

static void heap_push(astar_queue *q, uint32_t slot) {
  q->heap[q->nheap] = slot;
  sift_up(q, q->nheap++);
}

/* Remove the entry at heap position pos. */
static void heap_remove(astar_queue *q, uint32_t pos) {
  const uint32_t last = q->heap[--q->nheap];
  if (pos == q->nheap) return;
  heap_set(q, pos, last);
  if (pos > 0 && before(q, last, q->heap[(pos - 1) / 2]))
    sift_up(q, pos);
  else
    sift_down(q, pos);
}

/* ---- units: the clearance and the derived grids -------------------------------- */

/* Free the derived grids' finders and the clearance. */
static void units_drop(astar_queue *q) {
  if (q->units)
    for (size_t i = 0; i < (size_t)q->max_unit * q->ncaps; i++) astar_finder_free(q->units[i]);
  astar__free(&q->alloc, q->units, (size_t)q->max_unit * q->ncaps * sizeof(astar_finder *));
  astar__free(&q->alloc, q->changed, CHANGED_CHUNK * sizeof *q->changed);
  astar_clearance_free(q->clr);
  q->units = NULL;
  q->changed = NULL;
  q->clr = NULL;
  q->sync_status = ASTAR_OK;
}

/* Build the clearance (and the table of derived grids) for `types`, `caps`
** and `max_unit`; the queue's former units are dropped only on success. */
static astar_status units_build(astar_queue *q, const uint8_t *types, const astar_capability *caps,
                                size_t ncaps, int32_t max_unit) {
  astar_clearance *clr = NULL;
  astar_status st = astar_clearance_new(&clr, q->grid, types, caps, ncaps, max_unit, &q->alloc);
  if (st != ASTAR_OK) return st;
  const size_t n = (size_t)max_unit * ncaps;
  astar_finder **units = astar__calloc(&q->alloc, n, sizeof(astar_finder *));
  astar_point *changed = astar__malloc(&q->alloc, CHANGED_CHUNK * sizeof *changed);
  if (!units || !changed) {
    astar__free(&q->alloc, units, n * sizeof(astar_finder *));
    astar__free(&q->alloc, changed, CHANGED_CHUNK * sizeof *changed);
    astar_clearance_free(clr);
    return ASTAR_NO_MEMORY;
  }
  units_drop(q);
  q->clr = clr;
  q->units = units;
  q->changed = changed;
  q->ncaps = ncaps;
  memcpy(q->caps, caps, ncaps * sizeof *caps);
  q->max_unit = max_unit;
  q->synced = q->grid->version;
  return ASTAR_OK;
}

/* Bring the clearance and the derived grids to the grid's version: from
** the change ring when it reaches back, else by a rebuild. No allocation
** (but a derived grid's first terrain layer, astar_finder_refresh). */
static astar_status sync_units(astar_queue *q) {
  const astar_grid *g = q->grid;
  if (!q->clr || (g->version == q->synced && q->sync_status == ASTAR_OK)) return ASTAR_OK;
  astar_status st = ASTAR_OK;
  if (!astar_clearance_current(q->clr, g)) {
    if (astar__grid_log_covers(g, q->synced)) {
      /* The cells whose passability changed, a chunk at a time (each call
      ** propagates from what the grid is now, so chunks add up). */
      size_t n = 0;
      for (uint64_t v = q->synced + 1; v <= g->version && st == ASTAR_OK; v++) {
        const astar_cell_change *ch = astar__grid_change(g, v);
        if (ch->was_passable != ch->passable) q->changed[n++] = (astar_point){ch->x, ch->y};
        if (n == CHANGED_CHUNK || (v == g->version && n > 0)) {
          st = astar_clearance_update_cells(q->clr, g, q->changed, n);
          n = 0;
        }
      }
      if (st == ASTAR_OK && !astar_clearance_current(q->clr, g))
        st = astar_clearance_update_cells(q->clr, g, NULL, 0); /* terrain only: values hold */
    } else {
      st = astar_clearance_update(q->clr, g);
    }
  }
  /* Each derived grid follows, around the changed cells (astar_finder_refresh
  ** reads the ring too) or whole. */
  for (size_t i = 0; st == ASTAR_OK && i < (size_t)q->max_unit * q->ncaps; i++)
    if (q->units[i]) st = astar_finder_refresh(q->units[i]);
  q->sync_status = st;
  if (st == ASTAR_OK) q->synced = g->version;
  return st;
}

/* Index of capability `cap` (0: every type) among the clearance's, or -1. */
static int cap_index(const astar_queue *q, astar_capability cap) {
  if (cap == 0) cap = ASTAR_CAPABILITY_ALL;
  for (size_t i = 0; i < q->ncaps; i++)
    if (q->caps[i] == cap) return (int)i;
  return -1;
}

/* The derived grid's finder of units of side `size` and capability index
** `ci`, made on first use: its index in q->units (*out), or a failure. */
static astar_status unit_get(astar_queue *q, int32_t size, int ci, int32_t *out) {
  const int32_t u = (size - 1) * (int32_t)q->ncaps + ci;
  *out = u;
  if (q->units[u]) return ASTAR_OK;
  astar_status st = sync_units(q); /* the clearance must be current to fill from it */
  if (st != ASTAR_OK) return st;
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.unit_size = size;
  cfg.capability = q->caps[ci];
  cfg.clearance = q->clr;
  return astar_finder_new(&q->units[u], q->grid, &cfg, &q->alloc);
}

/* ---- life cycle ------------------------------------------------------------------ */

static void release_all(astar_queue *q, const astar_allocator *a) {
  units_drop(q);
  astar_workspace_free(q->ws);
  astar__free(a, q->buf, q->buf_cap * sizeof *q->buf);
  astar__free(a, q->req, (size_t)q->capacity * sizeof *q->req);
  astar__free(a, q->heap, (size_t)q->capacity * sizeof *q->heap);
  astar__free(a, q, sizeof *q);
}

astar_status astar_queue_new(astar_queue **out, const astar_grid *grid, size_t capacity,
                             const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || capacity == 0 || capacity > MAX_CAPACITY) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_queue *q = astar__calloc(&a, 1, sizeof *q);
  if (!q) return ASTAR_NO_MEMORY;
  q->alloc = a;
  q->grid = grid;
  q->capacity = (uint32_t)capacity;
  q->req = astar__calloc(&a, capacity, sizeof *q->req);
  q->heap = astar__calloc(&a, capacity, sizeof *q->heap);
  q->buf = astar__calloc(&a, grid->ncells, sizeof *q->buf);
  /* release_all needs the arrays' sizes: capacity and buf_cap. */
  q->buf_cap = q->buf ? grid->ncells : 0;
  astar_status st = (q->req && q->heap && q->buf) ? ASTAR_OK : ASTAR_NO_MEMORY;
  if (st == ASTAR_OK) st = astar_workspace_new(&q->ws, grid, &a);
  if (st == ASTAR_OK) {
    /* Grow the workspace now for the grid A*'s searches through a finder
    ** (its finder state and path scratch), so that requests with A*
    ** options never allocate: a search begun and cancelled. */
    astar_finder_config cfg;
    astar_finder_config_init(&cfg);
    astar_finder f;
    st = astar__finder_init(&f, grid, &cfg);
    if (st == ASTAR_OK) {
      const astar_status b =
          astar_finder_begin(&f, q->ws, (astar_point){0, 0}, (astar_point){0, 0});
      if (b == ASTAR_NO_MEMORY) st = b;
      astar_finder_cancel(q->ws);
    }
  }
  if (st != ASTAR_OK) {
    release_all(q, &a);
    return st;
  }
  while (q->ibits < 32 && ((uint64_t)1 << q->ibits) < capacity) q->ibits++;
  q->gen_max = (uint32_t)((uint64_t)UINT32_MAX >> q->ibits); /* ibits <= 24: capacity <= 2^24 */
  q->running = NONE;
  q->held = NONE;
  q->max_restarts = ASTAR_QUEUE_DEFAULT_RESTARTS;
  q->free_head = q->free_tail = NONE;
  q->wait.head = q->wait.tail = NONE;
  q->deferred.head = q->deferred.tail = NONE;
  q->max_unit = ASTAR_QUEUE_DEFAULT_MAX_UNIT;
  q->caps[0] = ASTAR_CAPABILITY_ALL;
  q->ncaps = 1;
  for (uint32_t i = 0; i < q->capacity; i++) {
    q->req[i].state = ASTAR_REQUEST_UNKNOWN;
    q->req[i].gen = 1;
    q->req[i].unit = -1;
    free_push(q, i);
  }
  *out = q;
  return ASTAR_OK;
}

void astar_queue_free(astar_queue *queue) {
  if (!queue) return;
  const astar_allocator a = queue->alloc;
  release_all(queue, &a);
}

void astar_queue_set_callback(astar_queue *queue, astar_request_done_fn fn, void *ctx) {
  if (!queue) return;
  queue->fn = fn;
  queue->ctx = ctx;
}

void astar_queue_set_restarts(astar_queue *queue, uint32_t max_restarts) {
  if (queue) queue->max_restarts = max_restarts;
}

astar_status astar_queue_set_units(astar_queue *queue, const uint8_t *types,
                                   const astar_capability *caps, size_t ncaps, int32_t max_size) {
  if (!queue || (!caps && ncaps > 0) || ncaps > ASTAR_CLEARANCE_MAX_CAPS || max_size < 1 ||
      max_size > ASTAR_CLEARANCE_MAX)
    return ASTAR_INVALID_ARGUMENT;
  /* Pending requests on derived grids would lose them. */
  for (uint32_t i = 0; i < queue->capacity; i++) {
    const request *r = &queue->req[i];
    if (r->unit >= 0 && (r->state == ASTAR_REQUEST_QUEUED || r->state == ASTAR_REQUEST_RUNNING))
      return ASTAR_INVALID_ARGUMENT;
  }
  astar_capability all[ASTAR_CLEARANCE_MAX_CAPS];
  size_t n = 0;
  bool has_all = false;
  for (size_t i = 0; i < ncaps; i++) {
    all[n++] = caps[i];
    has_all = has_all || caps[i] == ASTAR_CAPABILITY_ALL;
  }
  /* capability 0 means every type: keep it when there is room. */
  if (!has_all && n < ASTAR_CLEARANCE_MAX_CAPS) all[n++] = ASTAR_CAPABILITY_ALL;
  return units_build(queue, types, all, n, max_size);
}

/* ---- requests -------------------------------------------------------------------- */

/* Anya's bends are astar_vec2 points: no astar_point buffer holds them. */
static const char *const anya_refusal =
    "anya: its bends lie on grid corners (astar_vec2) and a queued request's buffer holds "
    "astar_point cells (use astar_finder_find_vec outside the queue, or another method)";

/*
** What a request asks for, checked: its finder (the caller's in *fp, or
** the config of the queue's own in *cfg) and, for the queue's own, its
** unit (*size and *ci, the capability's index; *big when it searches a
** derived grid). A refusal's sentence goes to *why (static storage).
** ASTAR_OK or the submission's failure. Changes nothing.
*/
static astar_status examine(const astar_queue *q, const astar_request *req, const astar_finder **fp,
                            astar_finder_config *cfg, int32_t *size, int *ci, bool *big,
                            const char **why) {
  *fp = NULL;
  *why = NULL;
  *big = false;
  if (req->finder) {
    const astar_finder *f = req->finder;
    if (req->opt || req->method != ASTAR_METHOD_ASTAR || req->unit_size > 1 || req->unit_size < 0 ||
        req->capability || req->smooth)
      return ASTAR_INVALID_ARGUMENT;
    if (f->is_space) {
      *why = "a finder of a space writes node ids: the queue serves grid finders";
      return ASTAR_UNSUPPORTED;
    }
    if (f->base != q->grid) {
      *why = "the finder was made on another grid than the queue's (astar_finder_new on the "
             "queue's grid)";
      return ASTAR_MISMATCH;
    }
    if (astar__fnative(f) == ASTAR__OUT_VEC) {
      *why = anya_refusal;
      return ASTAR_UNSUPPORTED;
    }
    *fp = f;
    return ASTAR_OK;
  }
  astar_finder_config_init(cfg);
  if (req->opt) cfg->options = *req->opt;
  if (cfg->options.algorithm != ASTAR_ALGO_ASTAR && cfg->options.algorithm != ASTAR_ALGO_JPS)
    return ASTAR_INVALID_ARGUMENT;
  cfg->method = req->method;
  /* The options' algorithm names a method the way the queue was asked
  ** before finders: JPS, when no method is named. */
  if (cfg->method == ASTAR_METHOD_ASTAR && cfg->options.algorithm == ASTAR_ALGO_JPS)
    cfg->method = ASTAR_METHOD_JPS;
  cfg->options.algorithm = ASTAR_ALGO_ASTAR;
  cfg->smooth = req->smooth;
  *size = req->unit_size > 1 ? req->unit_size : 1;
  if (req->unit_size < 0 || *size > q->max_unit) return ASTAR_INVALID_ARGUMENT;
  *ci = cap_index(q, req->capability);
  if (req->capability && *ci < 0) return ASTAR_INVALID_ARGUMENT;
  const astar_method_info *mi = astar_method_info_of(cfg->method);
  if (mi && (mi->flags & ASTAR_MF_VEC)) {
    *why = anya_refusal;
    return ASTAR_UNSUPPORTED;
  }
  *big = *size > 1 || (req->capability && q->caps[*ci] != ASTAR_CAPABILITY_ALL);
  if (!*big) {
    *why = astar_finder_unsupported_reason(q->grid, NULL, cfg);
    return *why ? ASTAR_UNSUPPORTED : ASTAR_OK;
  }
  if (*ci < 0) return ASTAR_INVALID_ARGUMENT; /* capability 0 was not kept */
  /* Refusals as the big unit's own finder would have them (the
  ** clearance is only tested for NULL there: any object of the type). */
  astar_finder_config as_unit = *cfg;
  as_unit.unit_size = *size;
  as_unit.capability = q->caps[*ci];
  static const char dummy_clearance; /* never read */
  as_unit.clearance = q->clr ? q->clr : (const astar_clearance *)(const void *)&dummy_clearance;
  *why = astar_finder_unsupported_reason(q->grid, NULL, &as_unit);
  return *why ? ASTAR_UNSUPPORTED : ASTAR_OK;
}

/* The derived grid of a big unit, made on first use: its index in
** q->units, brought up to the grid. */
static astar_status unit_ready(astar_queue *q, int32_t size, int ci, int32_t *unit) {
  astar_status st = ASTAR_OK;
  if (!q->clr) st = units_build(q, NULL, q->caps, q->ncaps, q->max_unit);
  if (st == ASTAR_OK) st = unit_get(q, size, ci, unit);
  if (st == ASTAR_OK) st = sync_units(q);
  return st;
}

const char *astar_queue_unsupported_reason(const astar_queue *queue, const astar_request *req) {
  if (!queue || !req) return "no queue or no request";
  const astar_finder *f;
  astar_finder_config cfg;
  int32_t size;
  int ci;
  bool big;
  const char *why = NULL;
  (void)examine(queue, req, &f, &cfg, &size, &ci, &big, &why);
  return why;
}

astar_status astar_queue_submit_request(astar_queue *queue, const astar_request *req,
                                        astar_request_id *id) {
  if (id) *id = 0;
  if (!queue || !req || !id || (req->cap > 0 && !req->path)) return ASTAR_INVALID_ARGUMENT;
  const astar_finder *theirs;
  astar_finder_config cfg;
  int32_t size = 1, unit = -1;
  int ci = -1;
  bool big;
  const char *why;
  astar_status st = examine(queue, req, &theirs, &cfg, &size, &ci, &big, &why);
  if (st == ASTAR_OK && big) st = unit_ready(queue, size, ci, &unit);
  if (st != ASTAR_OK) return st;
  /* The queue's own finder is prepared first, so that a bad option is
  ** refused before a slot is taken: its options' one validation. */
  astar_finder own;
  if (!theirs) {
    const astar_grid *g = unit >= 0 ? astar_finder_grid(queue->units[unit]) : queue->grid;
    st = astar__finder_init(&own, g, &cfg);
    if (st != ASTAR_OK) return st;
  }
  const uint32_t slot = free_pop(queue);
  if (slot == NONE) return ASTAR_QUEUE_FULL;
  request *r = &queue->req[slot];
  if (theirs) {
    r->f = theirs;
    r->settles = false;
  } else {
    r->own = own;
    r->f = &r->own;
    r->settles = !own.engine &&
                 (own.cfg.method == ASTAR_METHOD_ASTAR || own.cfg.method == ASTAR_METHOD_DIJKSTRA);
  }
  r->unit = unit;
  r->start = req->start;
  r->goal = req->goal;
  r->path = req->path;
  r->cap = req->cap;
  r->user = req->user;
  r->seq = queue->next_seq++;
  r->priority = req->priority;
  r->waiting = false;
  r->deferred = false;
  r->copied = false;
  r->restarts = 0;
  r->work = 0;
  r->version = astar_grid_version(queue->grid);
  r->kversion = astar_knowledge_version(r->f->opt.knowledge);
  *id = make_id(queue, slot);
  /* A request that needs no search is answered now, without touching the
  ** search in progress; its callback waits for the next update. */
  if (r->settles && astar__search_settle(queue->ws, r->f->grid, &r->f->opt, r->start, r->goal,
                                         r->path, r->cap, &r->result, &r->status, true)) {
    r->state = ASTAR_REQUEST_DONE;
    r->settled = true;
    wait_push(queue, slot);
    return ASTAR_OK;
  }
  r->settled = false;
  r->state = ASTAR_REQUEST_QUEUED;
  r->status = ASTAR_IN_PROGRESS;
  memset(&r->result, 0, sizeof r->result);
  heap_push(queue, slot);
  return ASTAR_OK;
}

astar_status astar_queue_submit(astar_queue *queue, const astar_options *opt, astar_point start,
                                astar_point goal, int priority, astar_point *path, size_t cap,
                                astar_request_id *id) {
  astar_request req = {0};
  req.start = start;
  req.goal = goal;
  req.opt = opt;
  req.priority = priority;
  req.path = path;
  req.cap = cap;
  return astar_queue_submit_request(queue, &req, id);
}

astar_status astar_queue_cancel(astar_queue *queue, astar_request_id id) {
  const uint32_t slot = slot_of(queue, id);
  if (slot == NONE) return ASTAR_INVALID_ARGUMENT;
  request *r = &queue->req[slot];
  if (r->state == ASTAR_REQUEST_QUEUED && r->deferred) {
    list_remove(queue, &queue->deferred, slot);
    r->deferred = false;
  } else if (r->state == ASTAR_REQUEST_QUEUED) {
    heap_remove(queue, r->link);
  } else if (r->state == ASTAR_REQUEST_RUNNING) {
    astar_finder_cancel(queue->ws);
    queue->running = NONE;
  } else {
    return ASTAR_INVALID_ARGUMENT;
  }
  r->state = ASTAR_REQUEST_CANCELLED;
  return ASTAR_OK;
}

/* What the callback receives for the request in `slot`. */
static void describe(const astar_queue *q, uint32_t slot, astar_request_done *d) {
  const request *r = &q->req[slot];
  memset(d, 0, sizeof *d);
  d->id = make_id(q, slot);
  d->user = r->user;
  d->status = ASTAR_IN_PROGRESS;
  d->restarts = r->restarts;
  d->work = r->work;
  if (r->state != ASTAR_REQUEST_DONE) return;
  d->grid_version = r->version;
  d->knowledge_version = r->kversion;
  d->status = r->status;
  d->path = r->path;
  d->len = (r->status == ASTAR_OK || r->status == ASTAR_PARTIAL) ? r->result.length : 0;
  d->result = r->result;
}

/* Tell the callback how the request in `slot` ended. */
static void deliver(astar_queue *q, uint32_t slot) {
  if (!q->fn) return;
  /* A copy: the callback may release the request (or submit another into
  ** its slot) while it looks at it. */
  astar_request_done d;
  describe(q, slot, &d);
  q->fn(q->ctx, &d);
}

/* The finder's result as the queue's (astar_result, status st). */
static void result_of(astar_result *out, const astar_path_result *pr) {
  memset(out, 0, sizeof *out);
  out->cost = pr->cost;
  out->length = pr->length;
  out->stats = pr->stats;
  out->end = pr->end;
  out->cause = pr->cause;
  out->retargeted = pr->retargeted;
}

/* Finish the running request's search (ended or refused at begin), record
** its outcome and tell the callback. Returns its status. */
static astar_status complete(astar_queue *q, uint32_t slot) {
  request *r = &q->req[slot];
  /* Into the queue's buffer -- or the request's, when bigger -- so that a
  ** path that does not fit the request's buffer can still be copied. */
  astar_point *dst = r->cap > q->buf_cap ? r->path : q->buf;
  const size_t dcap = r->cap > q->buf_cap ? r->cap : q->buf_cap;
  astar_path_result pr;
  astar_status st = astar_finder_finish(q->ws, dst, dcap, &pr);
  q->held = NONE;
  if (st == ASTAR_OK || st == ASTAR_PARTIAL) {
    q->held = slot; /* astar_queue_path can copy it, from the callback on */
    q->held_at = dst;
    if (pr.length > r->cap)
      st = ASTAR_BUFFER_TOO_SMALL;
    else if (dst != r->path && pr.length)
      memcpy(r->path, dst, pr.length * sizeof *dst);
  }
  r->state = ASTAR_REQUEST_DONE;
  r->status = st;
  result_of(&r->result, &pr);
  q->running = NONE;
  deliver(q, slot);
  return st;
}

/* Does the request in `slot` end with a path (in its buffer or not)? */
static bool has_path(const request *r) {
  return r->state == ASTAR_REQUEST_DONE && r->result.length > 0 &&
         (r->status == ASTAR_OK || r->status == ASTAR_PARTIAL ||
          r->status == ASTAR_BUFFER_TOO_SMALL);
}

/* Put a request whose search cannot go on back in the queue (the grid or
** its knowledge changed: at once; its finder is stale: at the next update),
** or end it ASTAR_STALE when its restarts are used up. True when requeued. */
static bool restart(astar_queue *q, uint32_t slot, bool next_update) {
  request *r = &q->req[slot];
  if (r->restarts >= q->max_restarts) return false;
  astar_finder_cancel(q->ws);
  q->running = NONE;
  r->restarts++;
  r->state = ASTAR_REQUEST_QUEUED;
  if (next_update) {
    r->deferred = true;
    list_push(q, &q->deferred, slot);
  } else {
    heap_push(q, slot);
  }
  return true;
}

/* Charge `work` to the frame: from what is left, the excess to the debt. */
static void charge(astar_queue *q, uint64_t *left, uint64_t work) {
  if (work > *left) {
    q->debt += work - *left;
    *left = 0;
  } else {
    *left -= work;
  }
}

astar_status astar_queue_update(astar_queue *queue, uint64_t budget, astar_queue_frame *frame) {
  if (frame) memset(frame, 0, sizeof *frame);
  if (!queue || budget == 0 || queue->in_update) return ASTAR_INVALID_ARGUMENT;
  queue->in_update = true;
  /* The debt of former updates first. */
  uint64_t left = budget;
  const uint64_t paid = queue->debt < left ? queue->debt : left;
  queue->debt -= paid;
  left -= paid;
  const uint64_t start_left = left, start_debt = queue->debt;
  uint32_t finished = 0, restarted = 0;
  bool held = false;
  /* First the requests answered at submission before this update, oldest
  ** first; those the callbacks submit now wait for the next update. */
  const uint64_t submitted = queue->next_seq;
  while (queue->wait.head != NONE && queue->req[queue->wait.head].seq < submitted) {
    const uint32_t slot = queue->wait.head;
    wait_remove(queue, slot);
    deliver(queue, slot);
    finished++;
  }
  /* Requests whose finder was stale last time: their turn again. */
  while (queue->deferred.head != NONE) {
    const uint32_t slot = queue->deferred.head;
    list_remove(queue, &queue->deferred, slot);
    queue->req[slot].deferred = false;
    heap_push(queue, slot);
  }
  while (left > 0) {
    /* The derived grids follow the grid's edits (made between updates or by
    ** a callback) before any search reads them: a search on one that
    ** changed sees it in its next step. */
    const astar_status sync = sync_units(queue);
    if (queue->running == NONE) {
      if (queue->nheap == 0) break;
      const uint32_t slot = queue->heap[0];
      heap_remove(queue, 0);
      request *r = &queue->req[slot];
      r->state = ASTAR_REQUEST_RUNNING;
      queue->running = slot;
      queue->held = NONE; /* the next path goes where the last one is */
      r->version = astar_grid_version(queue->grid);
      r->kversion = astar_knowledge_version(r->f->opt.knowledge);
      if (r->unit >= 0 && sync != ASTAR_OK) {
        /* Its derived grid could not follow the edits: nothing to search. */
        astar_finder_cancel(queue->ws);
        astar__result_clear(&r->result, sync);
        r->state = ASTAR_REQUEST_DONE;
        r->status = sync;
        queue->running = NONE;
        deliver(queue, slot);
        finished++;
        continue;
      }
      const astar_status st = astar_finder_begin(r->f, queue->ws, r->start, r->goal);
      if (st == ASTAR_STALE && restart(queue, slot, true)) {
        restarted++; /* the caller's finder is behind the grid: next update */
        continue;
      }
      if (st != ASTAR_OK) {
        complete(queue, slot); /* what the one-shot search reports for it */
        finished++;
        continue;
      }
    }
    const uint32_t slot = queue->running;
    request *r = &queue->req[slot];
    uint64_t done = 0;
    const astar_status st = astar_finder_step(queue->ws, left, &done);
    charge(queue, &left, done);
    r->work += done;
    if (st == ASTAR_IN_PROGRESS) {
      if (done == 0) break; /* cannot happen with budget > 0; never spin */
      continue;
    }
    if (st == ASTAR_STALE && restart(queue, slot, false)) {
      /* The grid or the knowledge changed under the search: back to the
      ** queue, in its place, to start again on them as they are now. */
      restarted++;
      continue;
    }
    /* Not stale: what the search read of the knowledge is what it read at
    ** begin, so the outcome holds for the knowledge as it is now, however
    ** many changes it could not see were made meanwhile. (A stale outcome
    ** keeps the version its search began on, as it keeps the grid's.) */
    if (st != ASTAR_STALE) r->kversion = astar_knowledge_version(r->f->opt.knowledge);
    /* Likewise a derived grid that did not change holds for the grid's
    ** version it was last brought to: edits away from the unit's cells
    ** leave its outcome current. */
    if (st != ASTAR_STALE && r->unit >= 0 && queue->sync_status == ASTAR_OK)
      r->version = queue->synced;
    const astar_status fst = complete(queue, slot);
    finished++;
    /* A path that did not fit and that nobody copied (or released) in the
    ** callback: keep it until the next update rather than lose it. */
    if (queue->held == slot && fst == ASTAR_BUFFER_TOO_SMALL && !r->copied &&
        r->result.length > 0) {
      held = true;
      break;
    }
  }
  queue->in_update = false;
  if (frame) {
    frame->expanded = start_left - left + (queue->debt - start_debt);
    frame->finished = finished;
    frame->pending = (uint32_t)astar_queue_pending(queue);
    frame->restarted = restarted;
    frame->path_held = held;
    frame->debt = queue->debt;
  }
  return ASTAR_OK;
}

astar_request_state astar_queue_poll(const astar_queue *queue, astar_request_id id,
                                     astar_status *status, astar_result *result) {
  const uint32_t slot = slot_of(queue, id);
  if (slot == NONE) return ASTAR_REQUEST_UNKNOWN;
  const request *r = &queue->req[slot];
  /* Outcomes exist only for done requests; otherwise *status and *result
  ** are left as they were. */
  if (r->state == ASTAR_REQUEST_DONE) {
    if (status) *status = r->status;
    if (result) *result = r->result;
  }
  return r->state;
}

astar_request_state astar_queue_outcome(const astar_queue *queue, astar_request_id id,
                                        astar_request_done *out) {
  const uint32_t slot = slot_of(queue, id);
  if (slot == NONE) {
    if (out) {
      memset(out, 0, sizeof *out);
      out->status = ASTAR_INVALID_ARGUMENT;
    }
    return ASTAR_REQUEST_UNKNOWN;
  }
  if (out) describe(queue, slot, out);
  return queue->req[slot].state;
}

astar_status astar_queue_path(astar_queue *queue, astar_request_id id, astar_point *path,
                              size_t cap, size_t *len) {
  if (len) *len = 0;
  const uint32_t slot = slot_of(queue, id);
  if (slot == NONE || !len || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  request *r = &queue->req[slot];
  if (r->state == ASTAR_REQUEST_QUEUED || r->state == ASTAR_REQUEST_RUNNING)
    return ASTAR_IN_PROGRESS;
  if (r->state != ASTAR_REQUEST_DONE) return ASTAR_INVALID_ARGUMENT; /* cancelled */
  if (!has_path(r)) return ASTAR_NO_PATH;
  *len = r->result.length;
  if (r->settled) {
    /* Answered at submission: the path is the start alone. */
    if (cap < 1) return ASTAR_BUFFER_TOO_SMALL;
    path[0] = r->start;
  } else {
    if (queue->held != slot) return ASTAR_EXPIRED;
    if (cap < *len) return ASTAR_BUFFER_TOO_SMALL;
    memmove(path, queue->held_at, *len * sizeof *path);
  }
  r->copied = true;
  return ASTAR_OK;
}

astar_status astar_queue_release(astar_queue *queue, astar_request_id id) {
  const uint32_t slot = slot_of(queue, id);
  if (slot == NONE) return ASTAR_INVALID_ARGUMENT;
  request *r = &queue->req[slot];
  if (r->state != ASTAR_REQUEST_DONE && r->state != ASTAR_REQUEST_CANCELLED)
    return ASTAR_INVALID_ARGUMENT; /* still pending: cancel it first */
  /* Answered at submission and not yet delivered: its callback will not fire. */
  if (r->waiting) wait_remove(queue, slot);
  if (queue->held == slot) queue->held = NONE;
  r->state = ASTAR_REQUEST_UNKNOWN;
  r->gen = r->gen >= queue->gen_max ? 1 : r->gen + 1;
  r->path = NULL;
  r->user = NULL;
  r->f = NULL;
  r->unit = -1;
  free_push(queue, slot);
  return ASTAR_OK;
}

size_t astar_queue_pending(const astar_queue *queue) {
  if (!queue) return 0;
  return (size_t)queue->nheap + (queue->running != NONE) + queue->wait.n + queue->deferred.n;
}

astar_status astar_queue_reserve_turns(astar_queue *queue) {
  if (!queue) return ASTAR_INVALID_ARGUMENT;
  return astar_workspace_reserve_turns(queue->ws, queue->grid);
}
