/*
** queue.c -- the path-request queue (astar/queue.h): many agents' searches
** spread over frames under an expansion budget (seed 000, "speed tips").
**
** Layout. Everything is allocated by astar_queue_new: the queue, a table of
** `capacity` request slots, a binary heap of the waiting slots' indices and
** the queue's own workspace. submit / cancel / update / poll / release only
** move indices around, so they never allocate.
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
** search itself tells (astar_search_step returns ASTAR_STALE), so the
** queue has one policy for both.
**
** Answers at submission. astar__search_settle decides, without touching
** the workspace, whether a request needs a search at all; if not it is done
** at once and waits in a doubly linked FIFO (O(1) removal when released)
** whose callbacks the next update fires first. Requests submitted from
** those callbacks have later submission numbers and wait for the update
** after, so a callback that keeps resubmitting cannot loop.
**
** Held path. The workspace keeps the last search's path until the next
** begin; `held` names the request it belongs to, for astar_queue_path.
**
** Ids. id = generation << ibits | slot, where ibits is the number of bits
** that holds every slot index. A slot's generation (>= 1, so an id is
** never 0) is bumped each time the slot is released, and freed slots are
** reused oldest first (a FIFO free list), so an id comes back only after
** its slot has been reused 2^(32 - ibits) - 1 times: a released or never
** issued id reads as ASTAR_REQUEST_UNKNOWN.
*/
#include "core/internal.h"

#include <astar/knowledge.h>
#include <string.h>

#define NONE UINT32_MAX
/* At most 2^24 slots, which leaves at least 8 bits of generation. */
#define MAX_CAPACITY ((size_t)1 << 24)

typedef struct request {
  astar_options opt;       /* copied at submission */
  astar_point start, goal; /* endpoints */
  astar_point *path;       /* the caller's buffer */
  size_t cap;              /* its cells */
  void *user;              /* the caller's pointer */
  uint64_t seq;            /* submission number: ties among equal priorities */
  int priority;            /* higher first */
  uint64_t version;        /* grid version its outcome was computed on (its search began on) */
  uint64_t kversion;       /* knowledge version its outcome holds for (0 without knowledge) */
  uint32_t restarts;       /* restarts after grid or knowledge changes */
  uint32_t gen;            /* generation, the high bits of the id */
  uint32_t link;           /* heap position while queued; next free slot while free */
  uint32_t wprev, wnext;   /* neighbours in the waiting list (see struct astar_queue) */
  bool waiting;            /* answered at submission, callback not yet fired */
  bool settled;            /* answered at submission (its path, if any, is the start) */
  bool copied;             /* astar_queue_path copied its path */
  astar_request_state state;
  astar_status status; /* outcome when done */
  astar_result result; /* its result */
} request;

struct astar_queue {
  astar_allocator alloc;
  const astar_grid *grid;
  astar_workspace *ws;   /* where the running request searches */
  request *req;          /* [capacity] */
  uint32_t *heap;        /* [capacity] slots of the queued requests */
  uint32_t capacity;     /* slots */
  uint32_t nheap;        /* queued requests */
  uint32_t running;      /* slot of the running request, or NONE */
  uint32_t held;         /* slot of the request whose path the workspace holds, or NONE */
  uint32_t free_head;    /* oldest free slot, or NONE */
  uint32_t free_tail;    /* newest free slot, or NONE */
  uint32_t wait_head;    /* requests answered at submission whose callback waits for */
  uint32_t wait_tail;    /* the next update: a doubly linked FIFO, or NONE */
  uint32_t nwait;        /* their number */
  unsigned ibits;        /* low id bits holding the slot */
  uint32_t gen_max;      /* largest generation that fits the high bits */
  uint64_t next_seq;     /* submission counter */
  uint32_t max_restarts; /* astar_queue_set_restarts */
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

/* ---- the waiting list: answered at submission, delivered at the next update ---- */

static void wait_push(astar_queue *q, uint32_t slot) {
  request *r = &q->req[slot];
  r->waiting = true;
  r->wnext = NONE;
  r->wprev = q->wait_tail;
  if (q->wait_tail == NONE)
    q->wait_head = slot;
  else
    q->req[q->wait_tail].wnext = slot;
  q->wait_tail = slot;
  q->nwait++;
}

static void wait_remove(astar_queue *q, uint32_t slot) {
  request *r = &q->req[slot];
  if (r->wprev == NONE)
    q->wait_head = r->wnext;
  else
    q->req[r->wprev].wnext = r->wnext;
  if (r->wnext == NONE)
    q->wait_tail = r->wprev;
  else
    q->req[r->wnext].wprev = r->wprev;
  r->waiting = false;
  q->nwait--;
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

/* ---- life cycle ------------------------------------------------------------------ */

static void release_all(astar_queue *q, const astar_allocator *a) {
  astar_workspace_free(q->ws);
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
  astar_status st = (q->req && q->heap) ? ASTAR_OK : ASTAR_NO_MEMORY;
  if (st == ASTAR_OK) st = astar_workspace_new(&q->ws, grid, &a);
  if (st != ASTAR_OK) {
    /* release_all needs the arrays' sizes: capacity, which is set. */
    release_all(q, &a);
    return st;
  }
  while (q->ibits < 32 && ((uint64_t)1 << q->ibits) < capacity) q->ibits++;
  q->gen_max = (uint32_t)((uint64_t)UINT32_MAX >> q->ibits); /* ibits <= 24: capacity <= 2^24 */
  q->running = NONE;
  q->held = NONE;
  q->max_restarts = ASTAR_QUEUE_DEFAULT_RESTARTS;
  q->free_head = q->free_tail = NONE;
  q->wait_head = q->wait_tail = NONE;
  for (uint32_t i = 0; i < q->capacity; i++) {
    q->req[i].state = ASTAR_REQUEST_UNKNOWN;
    q->req[i].gen = 1;
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

/* ---- requests -------------------------------------------------------------------- */

astar_status astar_queue_submit_request(astar_queue *queue, const astar_request *req,
                                        astar_request_id *id) {
  if (id) *id = 0;
  if (!queue || !req || !id || (req->cap > 0 && !req->path)) return ASTAR_INVALID_ARGUMENT;
  astar_options o;
  if (req->opt)
    o = *req->opt;
  else
    astar_options_init(&o);
  /* A bad option would fail the search at once anyway; refusing it here
  ** keeps a slot free and tells the caller immediately. */
  if (astar_options_validate(&o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (o.algorithm != ASTAR_ALGO_ASTAR) return ASTAR_UNSUPPORTED; /* sliced search is A*'s */
  const uint32_t slot = free_pop(queue);
  if (slot == NONE) return ASTAR_QUEUE_FULL;
  request *r = &queue->req[slot];
  r->opt = o;
  r->start = req->start;
  r->goal = req->goal;
  r->path = req->path;
  r->cap = req->cap;
  r->user = req->user;
  r->seq = queue->next_seq++;
  r->priority = req->priority;
  r->waiting = false;
  r->copied = false;
  r->restarts = 0;
  r->version = astar_grid_version(queue->grid);
  r->kversion = astar_knowledge_version(o.knowledge);
  *id = make_id(queue, slot);
  /* A request that needs no search is answered now, without touching the
  ** search in progress; its callback waits for the next update. */
  if (astar__search_settle(queue->ws, queue->grid, &r->opt, r->start, r->goal, r->path, r->cap,
                           &r->result, &r->status)) {
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
  if (r->state == ASTAR_REQUEST_QUEUED) {
    heap_remove(queue, r->link);
  } else if (r->state == ASTAR_REQUEST_RUNNING) {
    astar_search_cancel(queue->ws);
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

/* Record the outcome of the running request and tell the callback. */
static void complete(astar_queue *q, uint32_t slot, astar_status st, const astar_result *res) {
  request *r = &q->req[slot];
  r->state = ASTAR_REQUEST_DONE;
  r->status = st;
  r->result = *res;
  q->running = NONE;
  deliver(q, slot);
}

/* Does the request in `slot` end with a path (in its buffer or not)? */
static bool has_path(const request *r) {
  return r->state == ASTAR_REQUEST_DONE && r->result.length > 0 &&
         (r->status == ASTAR_OK || r->status == ASTAR_PARTIAL ||
          r->status == ASTAR_BUFFER_TOO_SMALL);
}

astar_status astar_queue_update(astar_queue *queue, uint64_t budget, astar_queue_frame *frame) {
  if (frame) memset(frame, 0, sizeof *frame);
  if (!queue || budget == 0 || queue->in_update) return ASTAR_INVALID_ARGUMENT;
  queue->in_update = true;
  uint64_t left = budget;
  uint32_t finished = 0, restarted = 0;
  bool held = false;
  /* First the requests answered at submission before this update, oldest
  ** first; those the callbacks submit now wait for the next update. */
  const uint64_t submitted = queue->next_seq;
  while (queue->wait_head != NONE && queue->req[queue->wait_head].seq < submitted) {
    const uint32_t slot = queue->wait_head;
    wait_remove(queue, slot);
    deliver(queue, slot);
    finished++;
  }
  while (left > 0) {
    if (queue->running == NONE) {
      if (queue->nheap == 0) break;
      const uint32_t slot = queue->heap[0];
      heap_remove(queue, 0);
      request *r = &queue->req[slot];
      r->state = ASTAR_REQUEST_RUNNING;
      queue->running = slot;
      queue->held = NONE; /* the workspace is about to forget the last path */
      r->version = astar_grid_version(queue->grid);
      r->kversion = astar_knowledge_version(r->opt.knowledge);
      const astar_status st =
          astar_search_begin(queue->ws, queue->grid, &r->opt, r->start, r->goal);
      if (st != ASTAR_OK) {
        /* What astar_find_path reports for a search that cannot start. */
        astar_result res;
        astar__result_clear(&res, st);
        complete(queue, slot, st, &res);
        finished++;
        continue;
      }
    }
    uint64_t done = 0;
    const astar_status st = astar_search_step(queue->ws, left, &done);
    left -= done < left ? done : left;
    if (st == ASTAR_IN_PROGRESS) {
      if (done == 0) break; /* cannot happen with budget > 0; never spin */
      continue;
    }
    const uint32_t slot = queue->running;
    request *r = &queue->req[slot];
    if (st == ASTAR_STALE && r->restarts < queue->max_restarts) {
      /* The grid or the knowledge changed under the search: back to the
      ** queue, in its place, to start again on them as they are now. */
      astar_search_cancel(queue->ws);
      queue->running = NONE;
      r->restarts++;
      r->state = ASTAR_REQUEST_QUEUED;
      heap_push(queue, slot);
      restarted++;
      continue;
    }
    /* Not stale: what the search read of the knowledge is what it read at
    ** begin, so the outcome holds for the knowledge as it is now, however
    ** many changes it could not see were made meanwhile. (A stale outcome
    ** keeps the version its search began on, as it keeps the grid's.) */
    if (st != ASTAR_STALE) r->kversion = astar_knowledge_version(r->opt.knowledge);
    astar_result res;
    const astar_status fst = astar_search_finish(queue->ws, r->path, r->cap, &res);
    queue->held = slot; /* astar_queue_path can copy it, from the callback on */
    complete(queue, slot, fst, &res);
    finished++;
    /* A path that did not fit and that nobody copied (or released) in the
    ** callback: keep it until the next update rather than lose it. */
    if (queue->held == slot && fst == ASTAR_BUFFER_TOO_SMALL && !r->copied && res.length > 0) {
      held = true;
      break;
    }
  }
  queue->in_update = false;
  if (frame) {
    frame->expanded = budget - left;
    frame->finished = finished;
    frame->pending = (uint32_t)astar_queue_pending(queue);
    frame->restarted = restarted;
    frame->path_held = held;
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
    size_t n = 0;
    if (astar_workspace_path(queue->ws, path, cap, &n) != ASTAR_OK || n != *len)
      return ASTAR_EXPIRED; /* cannot happen: the workspace holds this path */
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
  free_push(queue, slot);
  return ASTAR_OK;
}

size_t astar_queue_pending(const astar_queue *queue) {
  if (!queue) return 0;
  return (size_t)queue->nheap + (queue->running != NONE) + queue->nwait;
}

astar_status astar_queue_reserve_turns(astar_queue *queue) {
  if (!queue) return ASTAR_INVALID_ARGUMENT;
  return astar_workspace_reserve_turns(queue->ws, queue->grid);
}
