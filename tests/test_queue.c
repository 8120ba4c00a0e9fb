/*
** test_queue.c -- the path-request queue (astar/queue.h): every request's
** outcome equals the one-shot astar_find_path whatever the frame budgets,
** each frame spends exactly its budget while work remains and never more,
** requests finish in (priority desc, submission asc) order, cancelling,
** capacity, id safety after release, allocation failures and no allocator
** calls outside astar_queue_new / astar_queue_free; fog-of-war knowledge
** changing under running requests follows the grid edits' restart / stale
** policy, so no delivered path crosses a wall known at delivery (issue 26).
*/
#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

#include <astar/islands.h>
#include <astar/knowledge.h>

#include <stdlib.h>
#include <string.h>

#define SIDE 60
#define CAP ((size_t)SIDE * SIDE)
#define MAXREQ 48

/* What one request expects and what the callback saw of it. */
typedef struct expect {
  astar_request_id id;
  int priority;
  astar_point start, goal;
  astar_options opt;
  size_t cap;
  astar_result result;
  astar_status status;
  int calls;              /* callback invocations for this request */
  astar_status cb_status; /* what the callback got */
  astar_status fetch_st;  /* astar_queue_path in the callback (recorder.fetch) */
  size_t cb_len;
  const astar_point *cb_path;
  void *cb_user;          /* the user pointer it got */
  astar_result cb_result; /* the result it got */
  size_t fetch_len;
} expect;

typedef struct recorder {
  expect *req;
  int n;
  astar_request_id order[4 * MAXREQ]; /* ids in completion order */
  int norder;
  int unknown_calls;  /* callbacks for ids not in req */
  astar_queue *fetch; /* when set: copy paths that did not fit into fetched[] */
} recorder;

static astar_point fetched[MAXREQ][CAP]; /* paths copied by the callback */

static void on_done(void *ctx, const astar_request_done *d) {
  recorder *rec = ctx;
  if (rec->norder < (int)(sizeof rec->order / sizeof rec->order[0]))
    rec->order[rec->norder++] = d->id;
  for (int i = 0; i < rec->n; i++)
    if (rec->req[i].id == d->id) {
      expect *e = &rec->req[i];
      e->calls++;
      e->cb_status = d->status;
      e->cb_len = d->len;
      e->cb_path = d->path;
      e->cb_user = d->user;
      e->cb_result = d->result;
      if (rec->fetch && d->status == ASTAR_BUFFER_TOO_SMALL && i < MAXREQ)
        e->fetch_st = astar_queue_path(rec->fetch, d->id, fetched[i], CAP, &e->fetch_len);
      return;
    }
  rec->unknown_calls++;
}

static int same_result(astar_status sa, const astar_result *a, const astar_point *pa,
                       astar_status sb, const astar_result *b, const astar_point *pb) {
  if (sa != sb || a->length != b->length || a->cost != b->cost) return 0;
  if (a->stats.expanded != b->stats.expanded || a->stats.generated != b->stats.generated ||
      a->stats.reopened != b->stats.reopened || a->stats.max_open != b->stats.max_open)
    return 0;
  if (a->end.x != b->end.x || a->end.y != b->end.y || a->cause != b->cause) return 0;
  if (a->retargeted != b->retargeted) return 0;
  if (sa == ASTAR_OK || sa == ASTAR_PARTIAL)
    for (size_t i = 0; i < a->length; i++)
      if (pa[i].x != pb[i].x || pa[i].y != pb[i].y) return 0;
  return 1;
}

static void random_opts(astar_options *o, rng *r) {
  astar_options_init(o);
  o->moves = rng_range(r, 0, 3) ? 8 : 4;
  o->corner = (astar_corner)rng_range(r, 0, 3);
  o->tie = (astar_tie)rng_range(r, 0, 2);
  o->open_set = (astar_open_set)rng_range(r, 0, 3);
  if (!rng_range(r, 0, 4)) o->weight = 1.5;
  if (!rng_range(r, 0, 6)) o->heuristic = ASTAR_H_ZERO;
  o->partial = !rng_range(r, 0, 4);
  if (!rng_range(r, 0, 5)) o->max_expansions = (uint64_t)rng_range(r, 1, 300);
}

/* An endpoint: usually a passable cell, sometimes any cell or one outside. */
static astar_point random_endpoint(const astar_grid *g, rng *r) {
  const int k = rng_range(r, 0, 19);
  if (k == 0) return (astar_point){-1, rng_range(r, 0, 3)};
  if (k == 1)
    return (astar_point){rng_range(r, 0, astar_grid_width(g) - 1),
                         rng_range(r, 0, astar_grid_height(g) - 1)};
  return randmap_passable_cell(g, r);
}

static astar_point bufs[MAXREQ][CAP]; /* the queue's requests' buffers */
static astar_point ref[CAP];          /* one-shot paths */

/* Run the queue until empty with random budgets, checking every frame.
** Returns the frames used; *expanded_total the expansions spent. */
static int drain(astar_queue *q, rng *r, uint64_t *expanded_total, int max_frames) {
  int frames = 0;
  *expanded_total = 0;
  while (astar_queue_pending(q) > 0 && frames < max_frames) {
    const uint64_t budget = (uint64_t)rng_range(r, 1, 500);
    astar_queue_frame f;
    CHECK(astar_queue_update(q, budget, &f) == ASTAR_OK);
    CHECKF(f.expanded <= budget, "frame %d: %llu > %llu", frames, (unsigned long long)f.expanded,
           (unsigned long long)budget);
    if (f.pending > 0 && !f.path_held)
      CHECKF(f.expanded == budget, "frame %d: %llu of %llu with %u pending", frames,
             (unsigned long long)f.expanded, (unsigned long long)budget, (unsigned)f.pending);
    CHECK_EQ(f.pending, astar_queue_pending(q));
    *expanded_total += f.expanded;
    frames++;
  }
  CHECK_EQ(astar_queue_pending(q), 0);
  return frames;
}

/* Many random requests on random maps, some arriving while others run:
** every outcome equals the one-shot search with the same options. */
static void test_matches_one_shot(void) {
  rng r;
  rng_seed(&r, 2024);
  static expect req[MAXREQ];
  int total = 0, too_small = 0, failed_begin = 0, found = 0, answered = 0, fetched_ok = 0;
  for (int m = 0; m < 40; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, SIDE, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_queue *q;
    CHECK(astar_queue_new(&q, g, MAXREQ, NULL) == ASTAR_OK);
    recorder rec = {req, 0, {0}, 0, 0, NULL};
    astar_queue_set_callback(q, on_done, &rec);
    if (m % 2) rec.fetch = q;
    astar_islands *isl; /* for the default moves and corner rule */
    CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK);

    const int n = rng_range(&r, 1, MAXREQ);
    const int upfront = rng_range(&r, 1, n);
    uint64_t spent = 0, expected_work = 0;
    for (int i = 0; i < n; i++) {
      expect *e = &req[i];
      memset(e, 0, sizeof *e);
      e->start = random_endpoint(g, &r);
      e->goal = random_endpoint(g, &r);
      random_opts(&e->opt, &r);
      if (e->opt.moves == 8 && e->opt.corner == ASTAR_CORNER_NO_CUT && rng_range(&r, 0, 2)) {
        e->opt.islands = isl;
        e->opt.retarget = !rng_range(&r, 0, 3);
      }
      if (!rng_range(&r, 0, 15)) e->goal = e->start;
      e->priority = rng_range(&r, -2, 2);
      e->cap = rng_range(&r, 0, 9) ? CAP : (size_t)rng_range(&r, 0, 8);
      e->status = astar_find_path(ws, g, &e->opt, e->start, e->goal, e->cap ? ref : NULL, e->cap,
                                  &e->result);
      expected_work += e->result.stats.expanded;
      too_small += e->status == ASTAR_BUFFER_TOO_SMALL;
      failed_begin += e->result.stats.expanded == 0 && e->status != ASTAR_OK;
      found += e->status == ASTAR_OK;
    }
    /* Submit the first `upfront`, then the rest one per frame. */
    for (int i = 0; i < n; i++) {
      expect *e = &req[i];
      if (i >= upfront) {
        const uint64_t budget = (uint64_t)rng_range(&r, 1, 500);
        astar_queue_frame f;
        CHECK(astar_queue_update(q, budget, &f) == ASTAR_OK);
        CHECK(f.expanded <= budget);
        if (f.pending > 0 && !f.path_held) CHECK(f.expanded == budget);
        spent += f.expanded;
      }
      memset(bufs[i], 0xff, sizeof bufs[i]);
      astar_request rq = {0};
      rq.start = e->start;
      rq.goal = e->goal;
      rq.opt = &e->opt;
      rq.priority = e->priority;
      rq.path = e->cap ? bufs[i] : NULL;
      rq.cap = e->cap;
      rq.user = e;
      CHECK(astar_queue_submit_request(q, &rq, &e->id) == ASTAR_OK);
      CHECK(e->id != 0);
      rec.n = i + 1;
      /* A request that needs no search is answered at once. */
      CHECK(astar_queue_poll(q, e->id, NULL, NULL) ==
            (e->result.stats.expanded == 0 ? ASTAR_REQUEST_DONE : ASTAR_REQUEST_QUEUED));
      answered += e->result.stats.expanded == 0;
    }
    uint64_t drained;
    drain(q, &r, &drained, 1000000);
    spent += drained;
    CHECK_EQ(spent, expected_work);
    CHECK_EQ(rec.norder, n);
    CHECK_EQ(rec.unknown_calls, 0);

    for (int i = 0; i < n; i++) {
      expect *e = &req[i];
      astar_status st = ASTAR_STATUS_COUNT;
      astar_result res;
      memset(&res, 0, sizeof res);
      CHECK(astar_queue_poll(q, e->id, &st, &res) == ASTAR_REQUEST_DONE);
      /* The reference path again (bufs[i] now holds the queue's). */
      astar_result again;
      const astar_status sa =
          astar_find_path(ws, g, &e->opt, e->start, e->goal, e->cap ? ref : NULL, e->cap, &again);
      CHECKF(same_result(sa, &again, ref, st, &res, bufs[i]),
             "map %d request %d: one-shot %d (len %zu), queue %d (len %zu)", m, i, (int)sa,
             again.length, (int)st, res.length);
      CHECK(same_result(e->status, &e->result, ref, sa, &again, ref));
      CHECK_EQ(e->calls, 1);
      CHECK_EQ(e->cb_status, st);
      CHECK_EQ(e->cb_len, (st == ASTAR_OK || st == ASTAR_PARTIAL) ? res.length : 0);
      CHECK(e->cb_path == (e->cap ? bufs[i] : NULL));
      CHECK(e->cb_user == e);
      CHECK(same_result(st, &res, bufs[i], e->cb_status, &e->cb_result, bufs[i]));
      if (st == ASTAR_BUFFER_TOO_SMALL && e->cap > 0) /* nothing written */
        CHECK(bufs[i][0].x == -1 && bufs[i][0].y == -1);
      if (st == ASTAR_BUFFER_TOO_SMALL && rec.fetch) {
        /* ... but the callback could copy it */
        CHECK(e->fetch_st == ASTAR_OK);
        CHECK_EQ(e->fetch_len, res.length);
        const astar_status sb =
            astar_find_path(ws, g, &e->opt, e->start, e->goal, ref, CAP, &again);
        CHECK(sb == ASTAR_OK || sb == ASTAR_PARTIAL);
        CHECK(same_result(sb, &again, ref, sb, &again, fetched[i]));
        fetched_ok++;
      }
      CHECK(astar_queue_release(q, e->id) == ASTAR_OK);
      CHECK(astar_queue_poll(q, e->id, NULL, NULL) == ASTAR_REQUEST_UNKNOWN);
    }
    total += n;
    astar_islands_free(isl);
    astar_queue_free(q);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(total > 500);
  CHECK(too_small > 0);
  CHECK(failed_begin > 0);
  CHECK(found > 200);
  CHECK(answered > 100);
  CHECK(fetched_ok > 5);
}

/* A w x h open grid with a wall leaving a gap, so searches take a while. */
static astar_grid *walled_grid(int32_t w, int32_t h) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, w, h, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < h - 2; y++) astar_grid_set_passable(g, w / 2, y, false);
  return g;
}

/* All submitted before the first update: completion order is priority
** descending, then submission order. */
static void test_fairness(void) {
  rng r;
  rng_seed(&r, 7);
  astar_grid *g = walled_grid(40, 30);
  static expect req[MAXREQ];
  for (int round = 0; round < 20; round++) {
    astar_queue *q;
    CHECK(astar_queue_new(&q, g, MAXREQ, NULL) == ASTAR_OK);
    recorder rec = {req, 0, {0}, 0, 0, NULL};
    astar_queue_set_callback(q, on_done, &rec);
    const int n = rng_range(&r, 1, MAXREQ);
    for (int i = 0; i < n; i++) {
      expect *e = &req[i];
      memset(e, 0, sizeof *e);
      e->priority = rng_range(&r, 0, 3);
      e->start = randmap_passable_cell(g, &r);
      e->goal = randmap_passable_cell(g, &r);
      CHECK(astar_queue_submit(q, NULL, e->start, e->goal, e->priority, bufs[i], CAP, &e->id) ==
            ASTAR_OK);
      rec.n = i + 1;
    }
    uint64_t spent;
    drain(q, &r, &spent, 100000);
    CHECK_EQ(rec.norder, n);
    /* Expected: first the requests answered at submission (start == goal)
    ** in submission order, then a stable sort of the others by priority. */
    int k = 0;
    for (int i = 0; i < n; i++)
      if (req[i].start.x == req[i].goal.x && req[i].start.y == req[i].goal.y) {
        CHECKF(k < rec.norder && rec.order[k] == req[i].id, "round %d: position %d", round, k);
        k++;
      }
    for (int p = 3; p >= 0; p--)
      for (int i = 0; i < n; i++)
        if (req[i].priority == p &&
            (req[i].start.x != req[i].goal.x || req[i].start.y != req[i].goal.y)) {
          CHECKF(k < rec.norder && rec.order[k] == req[i].id, "round %d: position %d", round, k);
          k++;
        }
    astar_queue_free(q);
  }
  astar_grid_free(g);
}

/* Cancel a queued and a running request: no callback, CANCELLED, and the
** rest finish exactly as one-shot searches. */
static void test_cancel(void) {
  astar_grid *g = walled_grid(50, 40);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 16, NULL) == ASTAR_OK);
  static expect req[8];
  recorder rec = {req, 8, {0}, 0, 0, NULL};
  astar_queue_set_callback(q, on_done, &rec);
  for (int i = 0; i < 8; i++) {
    memset(&req[i], 0, sizeof req[i]);
    req[i].start = (astar_point){i, 0};
    req[i].goal = (astar_point){49 - i, i};
    CHECK(astar_queue_submit(q, NULL, req[i].start, req[i].goal, 0, bufs[i], CAP, &req[i].id) ==
          ASTAR_OK);
  }
  /* Request 0 is running after a small frame. */
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 10, &f) == ASTAR_OK);
  CHECK_EQ(f.expanded, 10);
  CHECK_EQ(f.finished, 0);
  CHECK(astar_queue_poll(q, req[0].id, NULL, NULL) == ASTAR_REQUEST_RUNNING);
  CHECK(astar_queue_poll(q, req[1].id, NULL, NULL) == ASTAR_REQUEST_QUEUED);
  CHECK(astar_queue_release(q, req[0].id) == ASTAR_INVALID_ARGUMENT); /* still pending */
  CHECK(astar_queue_cancel(q, req[0].id) == ASTAR_OK);                /* running */
  CHECK(astar_queue_cancel(q, req[3].id) == ASTAR_OK);                /* queued */
  CHECK(astar_queue_cancel(q, req[7].id) == ASTAR_OK);                /* queued, last in heap */
  CHECK(astar_queue_cancel(q, req[3].id) == ASTAR_INVALID_ARGUMENT);  /* already cancelled */
  CHECK_EQ(astar_queue_pending(q), 5);
  astar_status st = ASTAR_STATUS_COUNT;
  CHECK(astar_queue_poll(q, req[0].id, &st, NULL) == ASTAR_REQUEST_CANCELLED);
  CHECK(st == ASTAR_STATUS_COUNT); /* no outcome for a cancelled request */
  rng r;
  rng_seed(&r, 3);
  uint64_t spent;
  drain(q, &r, &spent, 100000);
  uint64_t work = 0;
  for (int i = 0; i < 8; i++) {
    const bool cancelled = i == 0 || i == 3 || i == 7;
    CHECK_EQ(req[i].calls, cancelled ? 0 : 1);
    astar_result res;
    const astar_request_state s = astar_queue_poll(q, req[i].id, &st, &res);
    CHECK(s == (cancelled ? ASTAR_REQUEST_CANCELLED : ASTAR_REQUEST_DONE));
    if (cancelled) {
      CHECK(astar_queue_cancel(q, req[i].id) == ASTAR_INVALID_ARGUMENT);
    } else {
      astar_result a;
      const astar_status sa = astar_find_path(ws, g, NULL, req[i].start, req[i].goal, ref, CAP, &a);
      CHECK(sa == ASTAR_OK);
      CHECK(same_result(sa, &a, ref, st, &res, bufs[i]));
      CHECK(astar_queue_cancel(q, req[i].id) == ASTAR_INVALID_ARGUMENT); /* done */
      work += a.stats.expanded;
    }
    CHECK(astar_queue_release(q, req[i].id) == ASTAR_OK);
    CHECK(astar_queue_cancel(q, req[i].id) == ASTAR_INVALID_ARGUMENT); /* unknown */
  }
  CHECK_EQ(spent, work); /* the 10 expansions of the cancelled one came before */
  astar_queue_free(q);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Each request's user pointer comes back in the callback and from
** astar_queue_outcome, whatever the order the requests end in. */
typedef struct unit {
  int index;
  int calls;
  astar_request_id id;
  astar_status status;
  astar_point *path;
  size_t len;
} unit;

static void on_unit_done(void *ctx, const astar_request_done *d) {
  int *stray = ctx;
  unit *u = d->user;
  if (!u || u->id != d->id) {
    ++*stray;
    return;
  }
  u->calls++;
  u->status = d->status;
  u->path = (astar_point *)d->path;
  u->len = d->len;
}

static void test_user_pointer(void) {
  astar_grid *g = walled_grid(30, 20);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 16, NULL) == ASTAR_OK);
  int stray = 0;
  astar_queue_set_callback(q, on_unit_done, &stray);
  static unit units[10];
  for (int i = 0; i < 10; i++) {
    memset(&units[i], 0, sizeof units[i]);
    units[i].index = i;
    astar_request rq = {0};
    rq.start = (astar_point){i, 0};
    rq.goal = (astar_point){29 - i, 19 - i % 5};
    rq.priority = i % 3; /* ends out of submission order */
    rq.path = bufs[i];
    rq.cap = CAP;
    rq.user = &units[i];
    CHECK(astar_queue_submit_request(q, &rq, &units[i].id) == ASTAR_OK);
    astar_request_done out;
    CHECK(astar_queue_outcome(q, units[i].id, &out) == ASTAR_REQUEST_QUEUED);
    CHECK(out.id == units[i].id && out.user == &units[i]);
    CHECK(out.status == ASTAR_IN_PROGRESS && out.path == NULL && out.len == 0);
  }
  /* A request submitted the short way has no user pointer. */
  astar_request_id plain;
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){29, 19}, -1, bufs[10], CAP,
                           &plain) == ASTAR_OK);
  astar_request_done out;
  CHECK(astar_queue_outcome(q, plain, &out) == ASTAR_REQUEST_QUEUED);
  CHECK(out.user == NULL);
  CHECK(astar_queue_cancel(q, units[4].id) == ASTAR_OK);
  CHECK(astar_queue_outcome(q, units[4].id, &out) == ASTAR_REQUEST_CANCELLED);
  CHECK(out.user == &units[4] && out.status == ASTAR_IN_PROGRESS);
  CHECK(astar_queue_update(q, 5, NULL) == ASTAR_OK);
  /* the highest priority, oldest first: unit 2 */
  CHECK(astar_queue_outcome(q, units[2].id, &out) == ASTAR_REQUEST_RUNNING);
  CHECK(out.user == &units[2]);
  while (astar_queue_pending(q) > 0) CHECK(astar_queue_update(q, 7, NULL) == ASTAR_OK);
  CHECK_EQ(stray, 1); /* the plain request: its callback had no user pointer */
  for (int i = 0; i < 10; i++) {
    CHECK_EQ(units[i].calls, i == 4 ? 0 : 1);
    if (i == 4) continue;
    CHECK(units[i].status == ASTAR_OK);
    CHECK(units[i].path == bufs[i] && units[i].len > 0);
    CHECK(astar_queue_outcome(q, units[i].id, &out) == ASTAR_REQUEST_DONE);
    CHECK(out.user == &units[i] && out.id == units[i].id && out.status == ASTAR_OK);
    CHECK(out.path == bufs[i] && out.len == units[i].len && out.result.length == out.len);
    CHECK(astar_queue_outcome(q, units[i].id, NULL) == ASTAR_REQUEST_DONE);
    CHECK(astar_queue_release(q, units[i].id) == ASTAR_OK);
    memset(&out, 0x5a, sizeof out);
    CHECK(astar_queue_outcome(q, units[i].id, &out) == ASTAR_REQUEST_UNKNOWN);
    CHECK(out.id == 0 && out.user == NULL && out.status == ASTAR_INVALID_ARGUMENT);
  }
  astar_request_id id = 5;
  CHECK(astar_queue_submit_request(q, NULL, &id) == ASTAR_INVALID_ARGUMENT && id == 0);
  astar_request rq = {0};
  rq.cap = 3; /* without a buffer */
  CHECK(astar_queue_submit_request(q, &rq, &id) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_submit_request(NULL, &rq, &id) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_outcome(NULL, plain, &out) == ASTAR_REQUEST_UNKNOWN);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* Observer that counts events (a trivial request's GOAL event). */
static void count_events(void *ctx, const astar_event *e) {
  (void)e;
  ++*(int *)ctx;
}

/* Requests that need no search -- an unreachable goal (islands), blocked
** or outside endpoints, start == goal, options the workspace cannot run --
** are answered inside astar_queue_submit: done and pollable at once, with
** the one-shot outcome, without disturbing the search in progress; their
** callbacks fire at the start of the next update, in submission order,
** before any search work and without using the budget. */
static void test_answered_at_submission(void) {
  /* Two rooms: x < 20 and x > 20, no gap. */
  astar_grid *g;
  CHECK(astar_grid_new(&g, 41, 30, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < 30; y++) astar_grid_set_passable(g, 20, y, false);
  astar_grid_set_passable(g, 5, 5, false);
  astar_islands *isl;
  CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 16, NULL) == ASTAR_OK);
  static expect req[12];
  recorder rec = {req, 0, {0}, 0, 0, NULL};
  astar_queue_set_callback(q, on_done, &rec);

  /* A long search, running. */
  expect *a = &req[rec.n++];
  memset(a, 0, sizeof *a);
  astar_options_init(&a->opt);
  a->opt.heuristic = ASTAR_H_ZERO;
  a->start = (astar_point){0, 0};
  a->goal = (astar_point){19, 29};
  CHECK(astar_queue_submit(q, &a->opt, a->start, a->goal, 0, bufs[0], CAP, &a->id) == ASTAR_OK);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 20, &f) == ASTAR_OK);
  CHECK(astar_queue_poll(q, a->id, NULL, NULL) == ASTAR_REQUEST_RUNNING);

  int events = 0;
  struct {
    astar_point s, t;
    int variant; /* 0 plain, 1 islands, 2 islands + partial, 3 turns, 4 cap 0, 5 observer,
                    6 islands + retarget */
    astar_status want;
  } cases[] = {
      {{1, 1}, {30, 3}, 1, ASTAR_NO_PATH},           /* another island */
      {{1, 1}, {30, 3}, 2, ASTAR_PARTIAL},           /* ... with partial: the start */
      {{5, 5}, {8, 8}, 0, ASTAR_START_BLOCKED},      /* blocked start */
      {{1, 1}, {20, 4}, 0, ASTAR_GOAL_BLOCKED},      /* blocked goal */
      {{1, 1}, {41, 4}, 0, ASTAR_OUT_OF_BOUNDS},     /* outside */
      {{7, 9}, {7, 9}, 0, ASTAR_OK},                 /* start == goal */
      {{7, 9}, {7, 9}, 4, ASTAR_BUFFER_TOO_SMALL},   /* ... with no buffer */
      {{7, 9}, {7, 9}, 5, ASTAR_OK},                 /* ... seen by an observer */
      {{1, 1}, {9, 9}, 3, ASTAR_TURNS_NOT_RESERVED}, /* turns without their states */
      {{3, 2}, {30, 2}, 6, ASTAR_OK},                /* retarget onto the start */
  };
  const int ncases = (int)(sizeof cases / sizeof cases[0]);
  for (int k = 0; k < ncases; k++) {
    expect *e = &req[rec.n];
    memset(e, 0, sizeof *e);
    astar_options_init(&e->opt);
    e->start = cases[k].s;
    e->goal = cases[k].t;
    e->cap = CAP;
    const int v = cases[k].variant;
    if (v == 1 || v == 2 || v == 6) e->opt.islands = isl;
    if (v == 2) e->opt.partial = true;
    if (v == 3) e->opt.turn_penalty = 1;
    if (v == 4) e->cap = 0;
    if (v == 5) e->opt.observer = count_events, e->opt.observer_ctx = &events;
    if (v == 6) {
      e->opt.retarget = true;
      e->start = (astar_point){19, 2}; /* the cell nearest (30, 2) on its island */
    }
    astar_point *buf = bufs[rec.n];
    memset(buf, 0xff, sizeof bufs[0]);
    CHECK(astar_queue_submit(q, &e->opt, e->start, e->goal, 0, e->cap ? buf : NULL, e->cap,
                             &e->id) == ASTAR_OK);
    rec.n++;
    /* Done at once, with the one-shot outcome. */
    astar_status st = ASTAR_STATUS_COUNT;
    astar_result res;
    CHECKF(astar_queue_poll(q, e->id, &st, &res) == ASTAR_REQUEST_DONE, "case %d", k);
    CHECKF(st == cases[k].want, "case %d: %s", k, astar_strerror(st));
    if (v == 5) CHECK_EQ(events, 1); /* the trivial search's GOAL event, in submit */
    static astar_point one[CAP];
    const int before = events;
    const astar_status so =
        astar_find_path(ws, g, &e->opt, e->start, e->goal, e->cap ? one : NULL, e->cap, &e->result);
    events = before;
    CHECKF(same_result(so, &e->result, one, st, &res, buf), "case %d: one-shot %s", k,
           astar_strerror(so));
    if (st == ASTAR_OK || st == ASTAR_PARTIAL)
      CHECK(buf[0].x == e->start.x && buf[0].y == e->start.y); /* written in submit */
    CHECK(astar_queue_poll(q, a->id, NULL, NULL) == ASTAR_REQUEST_RUNNING);
  }
  CHECK_EQ(rec.norder, 0);                      /* no callback from inside submit */
  CHECK_EQ(astar_queue_pending(q), 1 + ncases); /* waiting for delivery count as pending */
  /* Released before the next update: no callback. */
  CHECK(astar_queue_release(q, req[3].id) == ASTAR_OK);
  CHECK_EQ(astar_queue_pending(q), ncases);

  /* The next update delivers them first, at no cost: its whole budget goes
  ** to the running search. */
  CHECK(astar_queue_update(q, 1, &f) == ASTAR_OK);
  CHECK_EQ(f.expanded, 1);
  CHECK_EQ(f.finished, ncases - 1);
  CHECK_EQ(f.pending, 1);
  CHECK_EQ(rec.norder, ncases - 1);
  for (int i = 1, k = 0; i <= ncases; i++) {
    if (i == 3) continue;
    CHECKF(rec.order[k] == req[i].id, "delivery %d", k);
    k++;
    CHECK_EQ(req[i].calls, 1);
    CHECK_EQ(req[i].cb_status, cases[i - 1].want);
  }
  CHECK_EQ(req[3].calls, 0);
  /* The running search was not disturbed: the one-shot result. */
  rng r;
  rng_seed(&r, 5);
  uint64_t spent;
  drain(q, &r, &spent, 100000);
  astar_status st;
  astar_result res;
  CHECK(astar_queue_poll(q, a->id, &st, &res) == ASTAR_REQUEST_DONE);
  const astar_status sa = astar_find_path(ws, g, &a->opt, a->start, a->goal, ref, CAP, &a->result);
  CHECK(sa == ASTAR_OK);
  CHECK(same_result(sa, &a->result, ref, st, &res, bufs[0]));
  CHECK_EQ(spent + 21, a->result.stats.expanded);
  astar_queue_free(q);
  astar_workspace_free(ws);
  astar_islands_free(isl);
  astar_grid_free(g);
}

/* A request answered at submission from inside a callback is delivered at
** the next update, not the current one. */
typedef struct chain {
  astar_queue *q;
  int calls;
  astar_request_id last;
} chain;

static void on_done_chain(void *ctx, const astar_request_done *d) {
  chain *c = ctx;
  (void)d;
  c->calls++;
  CHECK(astar_queue_submit(c->q, NULL, (astar_point){2, 2}, (astar_point){2, 2}, 0, NULL, 0,
                           &c->last) == ASTAR_OK);
  CHECK(astar_queue_release(c->q, d->id) == ASTAR_OK);
}

static void test_answered_in_callback(void) {
  astar_grid *g = walled_grid(10, 10);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  chain c = {q, 0, 0};
  astar_queue_set_callback(q, on_done_chain, &c);
  astar_request_id id;
  CHECK(astar_queue_submit(q, NULL, (astar_point){1, 1}, (astar_point){1, 1}, 0, NULL, 0, &id) ==
        ASTAR_OK);
  for (int frame = 1; frame <= 5; frame++) {
    astar_queue_frame f;
    CHECK(astar_queue_update(q, 100, &f) == ASTAR_OK);
    CHECK_EQ(c.calls, frame); /* one a frame, never a loop */
    CHECK_EQ(f.finished, 1);
    CHECK_EQ(f.expanded, 0);
    CHECK_EQ(f.pending, 1);
    CHECK(astar_queue_poll(q, c.last, NULL, NULL) == ASTAR_REQUEST_DONE);
  }
  astar_queue_free(q);
  astar_grid_free(g);
}

/* ---- paths longer than the request's buffer ---------------------------------- */

static astar_point big[CAP]; /* where the tests fetch paths */

static int same_path(const astar_point *a, const astar_point *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].x != b[i].x || a[i].y != b[i].y) return 0;
  return 1;
}

/* The callback copies a path that did not fit with astar_queue_path; the
** update then goes on with the next request. */
typedef struct fetcher {
  astar_queue *q;
  int calls, fetched;
  size_t len;
  astar_status first, got;
} fetcher;

static void on_done_fetch(void *ctx, const astar_request_done *d) {
  fetcher *fe = ctx;
  fe->calls++;
  if (d->status != ASTAR_BUFFER_TOO_SMALL) return;
  CHECK(d->len == 0 && d->result.length > 3);
  size_t len = 99;
  fe->first = astar_queue_path(fe->q, d->id, big, 3, &len); /* still too small */
  CHECK_EQ(len, d->result.length);
  fe->got = astar_queue_path(fe->q, d->id, big, CAP, &fe->len);
  fe->fetched++;
}

static void test_path_in_callback(void) {
  astar_grid *g = walled_grid(40, 30);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  fetcher fe = {q, 0, 0, 0, ASTAR_OK, ASTAR_OK};
  astar_queue_set_callback(q, on_done_fetch, &fe);
  const astar_point s = {0, 0}, t = {39, 0};
  astar_request_id a, b;
  CHECK(astar_queue_submit(q, NULL, s, t, 0, bufs[0], 3, &a) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, t, s, 0, bufs[1], CAP, &b) == ASTAR_OK);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 100000, &f) == ASTAR_OK);
  CHECK_EQ(fe.calls, 2); /* both ended in one update */
  CHECK_EQ(f.finished, 2);
  CHECK(!f.path_held);
  CHECK_EQ(fe.fetched, 1);
  CHECK(fe.first == ASTAR_BUFFER_TOO_SMALL);
  CHECK(fe.got == ASTAR_OK);
  astar_result r1;
  CHECK(astar_find_path(ws, g, NULL, s, t, ref, CAP, &r1) == ASTAR_OK);
  CHECK_EQ(fe.len, r1.length);
  CHECK(same_path(big, ref, r1.length));
  /* Another search has run since: a's path is gone, b's is held. */
  size_t len = 0;
  CHECK(astar_queue_path(q, a, big, CAP, &len) == ASTAR_EXPIRED);
  CHECK_EQ(len, r1.length);
  astar_status st;
  CHECK(astar_queue_poll(q, a, &st, NULL) == ASTAR_REQUEST_DONE && st == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_queue_path(q, b, big, CAP, &len) == ASTAR_OK);
  CHECK(same_path(big, bufs[1], len));
  astar_queue_free(q);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Without a callback that copies it, a path that did not fit stops the
** update, so that it stays retrievable until the next update starts
** another search; astar_queue_path says when it is gone. */
static void test_path_polled(void) {
  astar_grid *g = walled_grid(40, 30);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
  const astar_point s = {0, 0}, t = {39, 0};
  astar_request_id a, b, c, none, triv;
  CHECK(astar_queue_submit(q, NULL, s, t, 0, bufs[0], 3, &a) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, t, s, 0, bufs[1], CAP, &b) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, s, (astar_point){39, 29}, 0, bufs[2], 2, &c) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, s, s, 0, NULL, 0, &triv) == ASTAR_OK); /* answered now */
  size_t len = 77;
  CHECK(astar_queue_path(q, a, big, CAP, &len) == ASTAR_IN_PROGRESS && len == 0);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 100000, &f) == ASTAR_OK);
  CHECK(f.path_held);
  CHECK_EQ(f.finished, 2); /* triv, then a: the update stopped there */
  CHECK(f.expanded < 100000);
  CHECK_EQ(f.pending, 2);
  CHECK(astar_queue_poll(q, b, NULL, NULL) == ASTAR_REQUEST_QUEUED);
  astar_result r1;
  CHECK(astar_find_path(ws, g, NULL, s, t, ref, CAP, &r1) == ASTAR_OK);
  CHECK(astar_queue_path(q, a, big, 3, &len) == ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(len, r1.length);
  CHECK(astar_queue_path(q, a, big, CAP, &len) == ASTAR_OK);
  CHECK_EQ(len, r1.length);
  CHECK(same_path(big, ref, len));
  CHECK(astar_queue_path(q, a, big, CAP, &len) == ASTAR_OK); /* as often as needed */
  /* A path answered at submission (the start alone) stays available. */
  CHECK(astar_queue_path(q, triv, big, CAP, &len) == ASTAR_OK);
  CHECK(len == 1 && big[0].x == s.x && big[0].y == s.y);
  /* The next update starts b: a's path is gone; c does not fit either. */
  CHECK(astar_queue_update(q, 100000, &f) == ASTAR_OK);
  CHECK(f.path_held);
  CHECK_EQ(f.finished, 2);
  CHECK_EQ(f.pending, 0);
  CHECK(astar_queue_path(q, a, big, CAP, &len) == ASTAR_EXPIRED);
  CHECK(astar_queue_path(q, b, big, CAP, &len) == ASTAR_EXPIRED);
  CHECK(astar_queue_path(q, c, big, 0, &len) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_queue_path(q, triv, big, CAP, &len) == ASTAR_OK && len == 1);
  /* No path at all: NO_PATH; released: unknown. */
  astar_grid_set_passable(g, 5, 5, false);
  CHECK(astar_queue_submit(q, NULL, s, (astar_point){5, 5}, 0, bufs[3], CAP, &none) == ASTAR_OK);
  CHECK(astar_queue_path(q, none, big, CAP, &len) == ASTAR_NO_PATH && len == 0);
  CHECK(astar_queue_release(q, c) == ASTAR_OK);
  CHECK(astar_queue_path(q, c, big, CAP, &len) == ASTAR_INVALID_ARGUMENT && len == 0);
  CHECK(astar_queue_path(q, triv, NULL, 4, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_path(q, triv, big, CAP, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_path(NULL, triv, big, CAP, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_cancel(q, a) == ASTAR_INVALID_ARGUMENT);
  astar_request_id d;
  CHECK(astar_queue_submit(q, NULL, s, t, 0, bufs[4], CAP, &d) == ASTAR_OK);
  CHECK(astar_queue_update(q, 3, &f) == ASTAR_OK);
  CHECK(astar_queue_cancel(q, d) == ASTAR_OK);
  CHECK(astar_queue_path(q, d, big, CAP, &len) == ASTAR_INVALID_ARGUMENT); /* cancelled */
  astar_queue_free(q);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* Releasing a held request in the callback lets the update go on. */
static void on_done_release(void *ctx, const astar_request_done *d) {
  astar_queue *q = ctx;
  CHECK(astar_queue_release(q, d->id) == ASTAR_OK);
}

static void test_path_released(void) {
  astar_grid *g = walled_grid(40, 30);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  astar_queue_set_callback(q, on_done_release, q);
  astar_request_id a, b;
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){39, 0}, 0, NULL, 0, &a) ==
        ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, (astar_point){39, 0}, (astar_point){0, 0}, 0, NULL, 0, &b) ==
        ASTAR_OK);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 100000, &f) == ASTAR_OK);
  CHECK_EQ(f.finished, 2);
  CHECK(!f.path_held);
  CHECK_EQ(f.pending, 0);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* ---- the grid changing while requests are pending ------------------------------ */

/* What the callback saw, by id. */
typedef struct seen_req {
  astar_request_id id;
  astar_status status;
  uint64_t version;
  uint64_t kversion;
  uint32_t restarts;
  astar_result result;
  int calls;
} seen_req;

typedef struct watcher {
  seen_req r[8];
  int n;
  astar_request_id order[8];
  int norder;
  astar_grid *edit_in_callback; /* when set: the first callback toggles a cell */
} watcher;

static void on_done_watch(void *ctx, const astar_request_done *d) {
  watcher *w = ctx;
  if (w->norder < 8) w->order[w->norder++] = d->id;
  for (int i = 0; i < w->n; i++)
    if (w->r[i].id == d->id) {
      w->r[i].calls++;
      w->r[i].status = d->status;
      w->r[i].version = d->grid_version;
      w->r[i].kversion = d->knowledge_version;
      w->r[i].restarts = d->restarts;
      w->r[i].result = d->result;
    }
  if (w->edit_in_callback) {
    astar_grid_set_passable(w->edit_in_callback, 0, 29, false);
    w->edit_in_callback = NULL;
  }
}

static astar_request_id watch_submit(astar_queue *q, watcher *w, astar_point s, astar_point t,
                                     int priority, int slot) {
  astar_options o;
  astar_options_init(&o);
  o.heuristic = ASTAR_H_ZERO; /* long searches: many frames */
  astar_request_id id;
  CHECK(astar_queue_submit(q, &o, s, t, priority, bufs[slot], CAP, &id) == ASTAR_OK);
  memset(&w->r[w->n], 0, sizeof w->r[0]);
  w->r[w->n++].id = id;
  return id;
}

/* The one-shot search of watch_submit's requests on the grid as it is now. */
static astar_status one_shot_now(const astar_grid *g, astar_point s, astar_point t,
                                 astar_result *res) {
  memset(res, 0, sizeof *res);
  astar_workspace *ws;
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK) return ASTAR_NO_MEMORY;
  astar_options o;
  astar_options_init(&o);
  o.heuristic = ASTAR_H_ZERO;
  const astar_status st = astar_find_path(ws, g, &o, s, t, ref, CAP, res);
  astar_workspace_free(ws);
  return st;
}

/* Default policy: a running search whose grid changed restarts from scratch
** on the new grid (reported in the frame and the outcome); queued requests
** run on the grid as it is when their turn comes; every result is the
** one-shot result on the version it reports. */
static void test_grid_change_restarts(void) {
  astar_grid *g = walled_grid(40, 30);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
  static watcher w;
  memset(&w, 0, sizeof w);
  astar_queue_set_callback(q, on_done_watch, &w);
  const astar_point s0 = {0, 0}, t0 = {39, 29}, s1 = {39, 0}, t1 = {0, 29};
  const astar_request_id a = watch_submit(q, &w, s0, t0, 0, 0);
  const astar_request_id b = watch_submit(q, &w, s1, t1, 0, 1);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 50, &f) == ASTAR_OK);
  CHECK(astar_queue_poll(q, a, NULL, NULL) == ASTAR_REQUEST_RUNNING);
  CHECK(astar_queue_poll(q, b, NULL, NULL) == ASTAR_REQUEST_QUEUED);
  const uint64_t v0 = astar_grid_version(g);
  /* The gap in the wall moves: a's search so far is worthless. */
  astar_grid_set_passable(g, 20, 28, false);
  astar_grid_set_passable(g, 20, 0, true);
  const uint64_t v1 = astar_grid_version(g);
  CHECK(v1 != v0);
  CHECK(astar_queue_update(q, 50, &f) == ASTAR_OK);
  CHECK_EQ(f.restarted, 1);
  CHECK_EQ(f.expanded, 50); /* the whole budget went to the new search */
  CHECK(astar_queue_poll(q, a, NULL, NULL) == ASTAR_REQUEST_RUNNING);
  astar_request_done out;
  CHECK(astar_queue_outcome(q, a, &out) == ASTAR_REQUEST_RUNNING);
  CHECK_EQ(out.restarts, 1);
  rng r;
  rng_seed(&r, 11);
  uint64_t spent;
  drain(q, &r, &spent, 100000);
  CHECK_EQ(w.r[0].calls, 1);
  CHECK_EQ(w.r[1].calls, 1);
  astar_result ra, rb;
  memset(&ra, 0, sizeof ra);
  memset(&rb, 0, sizeof rb);
  CHECK(one_shot_now(g, s0, t0, &ra) == ASTAR_OK);
  CHECK(w.r[0].status == ASTAR_OK && w.r[0].version == v1 && w.r[0].restarts == 1);
  CHECK(same_result(ASTAR_OK, &ra, ref, w.r[0].status, &w.r[0].result, bufs[0]));
  CHECK(one_shot_now(g, s1, t1, &rb) == ASTAR_OK);
  CHECK(w.r[1].status == ASTAR_OK && w.r[1].version == v1 && w.r[1].restarts == 0);
  CHECK(same_result(ASTAR_OK, &rb, ref, w.r[1].status, &w.r[1].result, bufs[1]));
  /* Work: 50 wasted on the first try, then both searches exactly. */
  CHECK_EQ(50 + 50 + spent, 50 + ra.stats.expanded + rb.stats.expanded);
  /* A done request keeps its outcome when the grid changes later. */
  astar_grid_set_passable(g, 10, 10, false);
  CHECK(astar_queue_outcome(q, a, &out) == ASTAR_REQUEST_DONE);
  CHECK(out.status == ASTAR_OK && out.grid_version == v1 && out.restarts == 1);
  CHECK(out.grid_version != astar_grid_version(g)); /* the caller can see it is outdated */
  astar_queue_free(q);
  astar_grid_free(g);
}

/* A restarted request keeps its place: a more urgent request that arrived
** meanwhile goes first. Edits from a callback, between two searches, need
** no restart. */
static void test_grid_change_order(void) {
  astar_grid *g = walled_grid(40, 30);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
  static watcher w;
  memset(&w, 0, sizeof w);
  astar_queue_set_callback(q, on_done_watch, &w);
  const astar_request_id a = watch_submit(q, &w, (astar_point){0, 0}, (astar_point){39, 29}, 0, 0);
  const astar_request_id b = watch_submit(q, &w, (astar_point){1, 0}, (astar_point){38, 29}, 0, 1);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 30, &f) == ASTAR_OK);
  const astar_request_id h = watch_submit(q, &w, (astar_point){2, 0}, (astar_point){2, 3}, 5, 2);
  astar_grid_set_passable(g, 30, 5, false);
  w.edit_in_callback = g; /* h's callback closes (0, 29) before a restarts */
  rng r;
  rng_seed(&r, 12);
  uint64_t spent;
  drain(q, &r, &spent, 100000);
  CHECK_EQ(w.norder, 3);
  CHECK(w.order[0] == h && w.order[1] == a && w.order[2] == b);
  CHECK_EQ(w.r[0].restarts, 1);
  CHECK_EQ(w.r[1].restarts, 0);
  CHECK_EQ(w.r[2].restarts, 0);
  CHECK(w.r[0].version == astar_grid_version(g) && w.r[1].version == astar_grid_version(g));
  CHECK(w.r[2].version < w.r[0].version);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* With no restarts (or after the allowed ones) the running request ends
** with ASTAR_STALE, no path, reporting the version it searched; the rest of
** the budget goes to the next request. */
static void test_grid_change_stale(void) {
  astar_grid *g = walled_grid(40, 30);
  for (uint32_t allowed = 0; allowed <= 2; allowed++) {
    astar_queue *q;
    CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
    astar_queue_set_restarts(q, allowed);
    static watcher w;
    memset(&w, 0, sizeof w);
    astar_queue_set_callback(q, on_done_watch, &w);
    const astar_point s0 = {0, 0}, t0 = {39, 29}, s1 = {1, 1}, t1 = {5, 5};
    const astar_request_id a = watch_submit(q, &w, s0, t0, 0, 0);
    watch_submit(q, &w, s1, t1, 0, 1);
    astar_queue_frame f;
    uint32_t restarted = 0;
    uint64_t searched = 0;
    for (uint32_t k = 0; k <= allowed; k++) {
      CHECK(astar_queue_update(q, 40, &f) == ASTAR_OK);
      CHECK_EQ(f.finished, 0);
      restarted += f.restarted;
      searched = astar_grid_version(g);
      /* an edit between every two updates */
      astar_grid_set_passable(g, 39, 10, !astar_grid_passable(g, 39, 10));
    }
    CHECK_EQ(restarted, allowed);
    CHECK(astar_queue_update(q, 1000, &f) == ASTAR_OK);
    CHECK_EQ(f.restarted, 0);
    CHECK_EQ(f.finished, 2); /* a (stale), then b in the same update */
    CHECK(w.order[0] == a);
    CHECK(w.r[0].status == ASTAR_STALE);
    CHECK_EQ(w.r[0].restarts, allowed);
    CHECK_EQ(w.r[0].version, searched);
    CHECK(w.r[0].result.length == 0 && w.r[0].result.cause == ASTAR_STALE);
    CHECK(w.r[0].result.end.x == -1);
    size_t len;
    CHECK(astar_queue_path(q, a, big, CAP, &len) == ASTAR_NO_PATH);
    astar_result rb;
    CHECK(w.r[1].status == ASTAR_OK && w.r[1].version == astar_grid_version(g));
    CHECK(one_shot_now(g, s1, t1, &rb) == ASTAR_OK);
    CHECK(same_result(ASTAR_OK, &rb, ref, w.r[1].status, &w.r[1].result, bufs[1]));
    astar_queue_free(q);
  }
  astar_grid_free(g);
}

/* Requests answered at submission report the version they were answered
** on, even when the grid changes before their callback. */
static void test_grid_change_answered(void) {
  astar_grid *g = walled_grid(10, 10);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  static watcher w;
  memset(&w, 0, sizeof w);
  astar_queue_set_callback(q, on_done_watch, &w);
  astar_grid_set_passable(g, 3, 3, false);
  const uint64_t v = astar_grid_version(g);
  const astar_request_id a = watch_submit(q, &w, (astar_point){0, 0}, (astar_point){3, 3}, 0, 0);
  astar_request_done out;
  CHECK(astar_queue_outcome(q, a, &out) == ASTAR_REQUEST_DONE);
  CHECK(out.status == ASTAR_GOAL_BLOCKED && out.grid_version == v && out.restarts == 0);
  astar_grid_set_passable(g, 3, 3, true);
  CHECK(astar_queue_update(q, 10, NULL) == ASTAR_OK);
  CHECK(w.r[0].calls == 1 && w.r[0].status == ASTAR_GOAL_BLOCKED && w.r[0].version == v);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* ---- fog of war: the knowledge changes under running requests --------------- */

/* watch_submit with fog: the player's knowledge k under `policy`. */
static astar_request_id fog_submit(astar_queue *q, watcher *w, astar_knowledge *k,
                                   astar_unknown policy, astar_point s, astar_point t, int slot) {
  astar_options o;
  astar_options_init(&o);
  o.heuristic = ASTAR_H_ZERO; /* long searches: many frames */
  o.knowledge = k;
  o.unknown = policy;
  astar_request_id id;
  CHECK(astar_queue_submit(q, &o, s, t, 0, bufs[slot], CAP, &id) == ASTAR_OK);
  memset(&w->r[w->n], 0, sizeof w->r[0]);
  w->r[w->n++].id = id;
  return id;
}

/* The one-shot search of fog_submit's requests on the grid and knowledge
** as they are now. */
static astar_status fog_one_shot(const astar_grid *g, astar_knowledge *k, astar_unknown policy,
                                 astar_point s, astar_point t, astar_result *res) {
  memset(res, 0, sizeof *res);
  astar_workspace *ws;
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK) return ASTAR_NO_MEMORY;
  astar_options o;
  astar_options_init(&o);
  o.heuristic = ASTAR_H_ZERO;
  o.knowledge = k;
  o.unknown = policy;
  const astar_status st = astar_find_path(ws, g, &o, s, t, ref, CAP, res);
  astar_workspace_free(ws);
  return st;
}

/* A wall revealed under a running request next to what its search has
** reached restarts it exactly as a grid edit does (frame, outcome, work
** lost); open ground revealed does not under the default policy -- the
** search reads nothing of it -- but does under ASTAR_UNKNOWN_BLOCKED, where
** it opens a way. A change far from what the search has reached (after 50
** expansions from (0, 0) with the zero heuristic: nothing beyond x + y = 9)
** restarts nothing: the search goes on and is valid for the new knowledge
** (issue 26). Every outcome is the one-shot answer on the knowledge version
** it reports, which is the knowledge's at delivery. */
static void test_fog_restarts(void) {
  astar_grid *g = walled_grid(40, 30); /* wall at x = 20, gap in rows 28-29 */
  const astar_point s0 = {0, 0}, t0 = {39, 0};
  for (int policy = 0; policy < 2; policy++) {
    const astar_unknown pol = policy ? ASTAR_UNKNOWN_BLOCKED : ASTAR_UNKNOWN_PASSABLE;
    for (int c = 0; c < 4; c++) {
      const bool wall = c & 1, near = c < 2;
      astar_knowledge *k;
      CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
      /* Under ASTAR_UNKNOWN_BLOCKED the player must know a way: it knows
       * all but the cells revealed below. */
      if (pol == ASTAR_UNKNOWN_BLOCKED) {
        astar_knowledge_reveal_radius(k, g, 0, 0, 100, NULL);
        astar_knowledge_set(k, 20, 5, ASTAR_CELL_UNKNOWN);
        astar_knowledge_set(k, 10, 5, ASTAR_CELL_UNKNOWN);
        astar_knowledge_set(k, 2, 2, ASTAR_CELL_UNKNOWN);
      }
      astar_queue *q;
      CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
      static watcher w;
      memset(&w, 0, sizeof w);
      astar_queue_set_callback(q, on_done_watch, &w);
      const astar_request_id a = fog_submit(q, &w, k, pol, s0, t0, 0);
      astar_queue_frame f;
      CHECK(astar_queue_update(q, 50, &f) == ASTAR_OK);
      CHECK(astar_queue_poll(q, a, NULL, NULL) == ASTAR_REQUEST_RUNNING);
      const uint64_t k0 = astar_knowledge_version(k);
      if (wall && near)
        CHECK(astar_knowledge_set(k, 3, 3, ASTAR_CELL_BLOCKED) == ASTAR_OK); /* a wall */
      else if (near)
        CHECK(astar_knowledge_reveal(k, g, 2, 2) == ASTAR_OK); /* open ground */
      else if (wall)
        CHECK(astar_knowledge_reveal(k, g, 20, 5) == ASTAR_OK); /* a wall */
      else
        CHECK(astar_knowledge_reveal(k, g, 10, 5) == ASTAR_OK); /* open ground */
      const uint64_t k1 = astar_knowledge_version(k);
      CHECK(k1 != k0);
      /* Seen by the search: a wall under the default policy, open ground
       * under ASTAR_UNKNOWN_BLOCKED (and (3, 3), known passable there, made
       * a wall); read by it only when near. */
      const uint32_t want = (uint32_t)(near && (wall || pol == ASTAR_UNKNOWN_BLOCKED));
      CHECK(astar_queue_update(q, 50, &f) == ASTAR_OK);
      CHECKF(f.restarted == want, "policy %d case %d: %u restarts", policy, c,
             (unsigned)f.restarted);
      CHECK_EQ(f.expanded, 50);
      astar_request_done out;
      CHECK(astar_queue_outcome(q, a, &out) == ASTAR_REQUEST_RUNNING);
      CHECK_EQ(out.restarts, want);
      rng r;
      rng_seed(&r, 21);
      uint64_t spent;
      drain(q, &r, &spent, 100000);
      CHECK_EQ(w.r[0].calls, 1);
      astar_result ra;
      CHECK(fog_one_shot(g, k, pol, s0, t0, &ra) == ASTAR_OK);
      CHECK(w.r[0].status == ASTAR_OK && w.r[0].restarts == want);
      CHECK_EQ(w.r[0].kversion, k1);
      CHECK_EQ(w.r[0].version, astar_grid_version(g));
      CHECK(same_result(ASTAR_OK, &ra, ref, w.r[0].status, &w.r[0].result, bufs[0]));
      /* Work: the first try lost when restarted, then the search exactly. */
      CHECK_EQ(100 + spent, (want ? 50 : 0) + ra.stats.expanded);
      /* A done request keeps its outcome; its version tells it is outdated. */
      CHECK(astar_knowledge_set(k, 30, 3, ASTAR_CELL_BLOCKED) == ASTAR_OK);
      CHECK(astar_queue_outcome(q, a, &out) == ASTAR_REQUEST_DONE);
      CHECK(out.knowledge_version == k1 && out.knowledge_version != astar_knowledge_version(k));
      astar_queue_free(q);
      astar_knowledge_free(k);
    }
  }
  astar_grid_free(g);
}

/* Walls revealed between every two updates: after the allowed restarts the
** request ends ASTAR_STALE, no path, reporting the knowledge version its
** last search began on; the next request gets the rest of the budget. A
** request without knowledge is not disturbed by them. */
static void test_fog_stale(void) {
  astar_grid *g = walled_grid(40, 30);
  for (uint32_t allowed = 0; allowed <= 2; allowed++) {
    astar_knowledge *k;
    CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
    astar_queue *q;
    CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
    astar_queue_set_restarts(q, allowed);
    static watcher w;
    memset(&w, 0, sizeof w);
    astar_queue_set_callback(q, on_done_watch, &w);
    const astar_point s0 = {0, 0}, t0 = {39, 29}, s1 = {1, 1}, t1 = {5, 5};
    const astar_request_id a = fog_submit(q, &w, k, ASTAR_UNKNOWN_PASSABLE, s0, t0, 0);
    watch_submit(q, &w, s1, t1, 0, 1); /* no knowledge */
    astar_queue_frame f;
    uint32_t restarted = 0;
    uint64_t searched = 0;
    for (uint32_t i = 0; i <= allowed; i++) {
      CHECK(astar_queue_update(q, 40, &f) == ASTAR_OK);
      CHECK_EQ(f.finished, 0);
      restarted += f.restarted;
      searched = astar_knowledge_version(k);
      /* A wall each time, next to the start: every search has reached it. */
      CHECK(astar_knowledge_set(k, 1, 1 + (int32_t)i, ASTAR_CELL_BLOCKED) == ASTAR_OK);
    }
    CHECK_EQ(restarted, allowed);
    CHECK(astar_queue_update(q, 1000, &f) == ASTAR_OK);
    CHECK_EQ(f.restarted, 0);
    CHECK_EQ(f.finished, 2); /* a (stale), then b in the same update */
    CHECK(w.order[0] == a);
    CHECK(w.r[0].status == ASTAR_STALE);
    CHECK_EQ(w.r[0].restarts, allowed);
    CHECK_EQ(w.r[0].kversion, searched);
    CHECK(searched != astar_knowledge_version(k));
    CHECK(w.r[0].result.length == 0 && w.r[0].result.cause == ASTAR_STALE);
    CHECK(w.r[1].status == ASTAR_OK && w.r[1].restarts == 0 && w.r[1].kversion == 0);
    astar_queue_free(q);
    astar_knowledge_free(k);
  }
  astar_grid_free(g);
}

/*
** The game (issue 26): units on a walled random map plan through
** the fog under a small budget while their sight reveals walls between
** every two updates; each delivered order gets a new one. Every delivered
** path must be legal on the knowledge at delivery -- no cell of it known
** blocked -- and be the one-shot answer on that knowledge; the restarts the
** frames count are those the outcomes report. Before the knowledge had a
** version, paths planned through a wall revealed mid-search were delivered.
*/
#define FOG_UNITS 24

typedef struct fog_game {
  astar_queue *q;
  astar_grid *g;
  astar_knowledge *k;
  astar_workspace *ws; /* for the one-shot answers */
  rng r;
  astar_request_id id[FOG_UNITS];
  astar_point start[FOG_UNITS], goal[FOG_UNITS];
  int delivered, paths, stale, illegal, checked, differ;
  uint64_t restarts; /* as the outcomes report them */
} fog_game;

static void fog_options(const fog_game *fg, int u, astar_options *o) {
  astar_options_init(o);
  o->knowledge = fg->k;
  o->partial = u % 4 == 3; /* some units take the best partial path */
}

/* Give unit `u`, standing at `at`, a new order. */
static void fog_order(fog_game *fg, int u, astar_point at) {
  astar_options o;
  fog_options(fg, u, &o);
  fg->start[u] = at;
  fg->goal[u] = randmap_passable_cell(fg->g, &fg->r);
  CHECK(astar_queue_submit(fg->q, &o, at, fg->goal[u], 0, bufs[u], CAP, &fg->id[u]) == ASTAR_OK);
}

static void on_fog_done(void *ctx, const astar_request_done *d) {
  fog_game *fg = ctx;
  int u = 0;
  while (u < FOG_UNITS && fg->id[u] != d->id) u++;
  if (u == FOG_UNITS) {
    FAILF("a callback for an unknown request %u", (unsigned)d->id);
    return;
  }
  fg->delivered++;
  fg->restarts += d->restarts;
  fg->stale += d->status == ASTAR_STALE;
  fg->paths += d->len > 0;
  for (size_t i = 0; i < d->len; i++)
    if (astar_knowledge_get(fg->k, d->path[i].x, d->path[i].y) == ASTAR_CELL_BLOCKED) {
      if (fg->illegal++ < 3)
        fprintf(stderr, "  request %u: path cell %zu (%d, %d) of %zu is a known wall\n",
                (unsigned)d->id, i, (int)d->path[i].x, (int)d->path[i].y, d->len);
      break;
    }
  /* An outcome reporting the knowledge as it is now is the one-shot answer
  ** on it (answers at submission may report an older one). */
  if (d->status != ASTAR_STALE && d->knowledge_version == astar_knowledge_version(fg->k)) {
    astar_options o;
    fog_options(fg, u, &o);
    astar_result one;
    const astar_status ost =
        astar_find_path(fg->ws, fg->g, &o, fg->start[u], fg->goal[u], ref, CAP, &one);
    fg->checked++;
    fg->differ += !same_result(ost, &one, ref, d->status, &d->result, d->path);
  }
  /* The unit walks its path (teleports to its end) and gets a new order. */
  const astar_point at = d->len ? d->path[d->len - 1] : fg->start[u];
  CHECK(astar_queue_release(fg->q, d->id) == ASTAR_OK);
  fog_order(fg, u, at);
}

static void test_fog_game(void) {
  static fog_game fg;
  memset(&fg, 0, sizeof fg);
  rng_seed(&fg.r, 26);
  const randmap_spec spec = {SIDE, SIDE, 0.3, 0, 0.0, 0.0};
  CHECK(randmap_make(&fg.g, &spec, &fg.r) == ASTAR_OK);
  CHECK(astar_knowledge_new(&fg.k, fg.g, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&fg.ws, fg.g, NULL) == ASTAR_OK);
  CHECK(astar_queue_new(&fg.q, fg.g, FOG_UNITS, NULL) == ASTAR_OK);
  astar_queue_set_callback(fg.q, on_fog_done, &fg);
  for (int u = 0; u < FOG_UNITS; u++) {
    const astar_point at = randmap_passable_cell(fg.g, &fg.r);
    astar_knowledge_reveal_radius(fg.k, fg.g, at.x, at.y, 3, NULL);
    fog_order(&fg, u, at);
  }
  uint64_t restarted = 0;
  int frames = 0;
  while (fg.delivered < 400 && frames < 20000) {
    astar_queue_frame f;
    CHECK(astar_queue_update(fg.q, 100, &f) == ASTAR_OK);
    restarted += f.restarted;
    frames++;
    /* The units' sight: a few discs revealed between every two updates,
     * somewhere between a unit and its goal -- where its path will go. */
    for (int i = 0; i < 3; i++) {
      const int u = rng_range(&fg.r, 0, FOG_UNITS - 1);
      const double a = rng_unit(&fg.r);
      const astar_point p = {fg.start[u].x + (int32_t)(a * (fg.goal[u].x - fg.start[u].x)),
                             fg.start[u].y + (int32_t)(a * (fg.goal[u].y - fg.start[u].y))};
      astar_knowledge_reveal_radius(fg.k, fg.g, p.x, p.y, 3, NULL);
    }
  }
  CHECKF(fg.illegal == 0, "%d of %d delivered paths cross a known wall", fg.illegal, fg.paths);
  CHECKF(fg.differ == 0, "%d of %d outcomes differ from the one-shot answer", fg.differ,
         fg.checked);
  /* Restarts: the frames count those the outcomes report, and they happen. */
  uint64_t pending = 0;
  for (int u = 0; u < FOG_UNITS; u++) {
    astar_request_done out;
    const astar_request_state st = astar_queue_outcome(fg.q, fg.id[u], &out);
    if (st == ASTAR_REQUEST_RUNNING || st == ASTAR_REQUEST_QUEUED) pending += out.restarts;
  }
  CHECK_EQ(restarted, fg.restarts + pending);
  CHECKF(fg.delivered >= 400 && fg.paths > 200 && fg.checked > 200 && fg.restarts > 20,
         "%d delivered, %d paths, %d checked, %llu restarts, %d stale in %d frames", fg.delivered,
         fg.paths, fg.checked, (unsigned long long)fg.restarts, fg.stale, frames);
  astar_queue_free(fg.q);
  astar_workspace_free(fg.ws);
  astar_knowledge_free(fg.k);
  astar_grid_free(fg.g);
}

/* Cancelling from inside the callback, submitting from it and a nested
** update (refused). */
typedef struct reentry {
  astar_queue *q;
  astar_request_id victim, extra;
  astar_status nested;
  int calls;
} reentry;

static void on_done_reenter(void *ctx, const astar_request_done *d) {
  reentry *re = ctx;
  if (re->calls++ == 0) {
    re->nested = astar_queue_update(re->q, 100, NULL);
    astar_queue_cancel(re->q, re->victim);
    CHECK(astar_queue_release(re->q, d->id) == ASTAR_OK); /* release itself */
    CHECK(astar_queue_submit(re->q, NULL, (astar_point){0, 0}, (astar_point){3, 3}, 0, NULL, 0,
                             &re->extra) == ASTAR_OK);
  }
}

static void test_callback_reentry(void) {
  astar_grid *g = walled_grid(20, 20);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 2, NULL) == ASTAR_OK);
  reentry re = {q, 0, 0, ASTAR_OK, 0};
  astar_queue_set_callback(q, on_done_reenter, &re);
  astar_request_id a, b;
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){1, 1}, 0, NULL, 0, &a) ==
        ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){19, 0}, 0, NULL, 0, &b) ==
        ASTAR_OK);
  re.victim = b;
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 1000, &f) == ASTAR_OK);
  CHECK(re.nested == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_poll(q, a, NULL, NULL) == ASTAR_REQUEST_UNKNOWN);
  CHECK(astar_queue_poll(q, b, NULL, NULL) == ASTAR_REQUEST_CANCELLED);
  astar_status st;
  CHECK(astar_queue_poll(q, re.extra, &st, NULL) == ASTAR_REQUEST_DONE);
  CHECK(st == ASTAR_BUFFER_TOO_SMALL); /* cap 0 */
  CHECK_EQ(re.calls, 2);
  CHECK_EQ(f.finished, 2);
  CHECK_EQ(f.pending, 0);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* A full table refuses with ASTAR_QUEUE_FULL until an entry is released. */
static void test_capacity(void) {
  astar_grid *g = walled_grid(10, 10);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 3, NULL) == ASTAR_OK);
  astar_request_id id[4];
  for (int i = 0; i < 3; i++)
    CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){9, 0}, 0, bufs[i], CAP,
                             &id[i]) == ASTAR_OK);
  id[3] = 123;
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){9, 0}, 0, bufs[3], CAP,
                           &id[3]) == ASTAR_QUEUE_FULL);
  CHECK_EQ(id[3], 0);
  rng r;
  rng_seed(&r, 1);
  uint64_t spent;
  drain(q, &r, &spent, 10000);
  /* Done but not released: still full. */
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){9, 0}, 0, bufs[3], CAP,
                           &id[3]) == ASTAR_QUEUE_FULL);
  CHECK(astar_queue_release(q, id[1]) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, (astar_point){9, 0}, 0, bufs[3], CAP,
                           &id[3]) == ASTAR_OK);
  CHECK(id[3] != id[1]);
  astar_queue_free(q); /* with a pending request: dropped */
  astar_grid_free(g);
}

/* Released and never issued ids are unknown; an old id never sees the
** request that reuses its slot. */
static void test_id_reuse(void) {
  astar_grid *g = walled_grid(12, 12);
  for (size_t capacity = 1; capacity <= 5; capacity += 2) {
    astar_queue *q;
    CHECK(astar_queue_new(&q, g, capacity, NULL) == ASTAR_OK);
    CHECK(astar_queue_poll(q, 0, NULL, NULL) == ASTAR_REQUEST_UNKNOWN);
    for (astar_request_id x = 1; x < 64; x++)
      CHECK(astar_queue_poll(q, x, NULL, NULL) == ASTAR_REQUEST_UNKNOWN);
    CHECK(astar_queue_poll(q, UINT32_MAX, NULL, NULL) == ASTAR_REQUEST_UNKNOWN);
    static astar_request_id seen[3000];
    int nseen = 0;
    for (int i = 0; i < 1000; i++) {
      astar_request_id id;
      const astar_point goal = {i % 12, 11};
      CHECK(astar_queue_submit(q, NULL, (astar_point){0, 0}, goal, 0, bufs[0], CAP, &id) ==
            ASTAR_OK);
      CHECK(id != 0);
      for (int k = nseen - 1; k >= 0 && k >= nseen - 50; k--) CHECK(seen[k] != id);
      if (nseen > 0) {
        /* The previous id (released) stays unknown, even though its slot
        ** may hold the new request. */
        const astar_request_id old = seen[nseen - 1];
        astar_status st = ASTAR_STATUS_COUNT;
        CHECK(astar_queue_poll(q, old, &st, NULL) == ASTAR_REQUEST_UNKNOWN);
        CHECK(st == ASTAR_STATUS_COUNT);
        CHECK(astar_queue_cancel(q, old) == ASTAR_INVALID_ARGUMENT);
        CHECK(astar_queue_release(q, old) == ASTAR_INVALID_ARGUMENT);
      }
      seen[nseen++] = id;
      CHECK(astar_queue_update(q, 10000, NULL) == ASTAR_OK);
      astar_status st;
      astar_result res;
      CHECK(astar_queue_poll(q, id, &st, &res) == ASTAR_REQUEST_DONE);
      CHECK(st == ASTAR_OK);
      CHECK(res.end.x == goal.x && res.end.y == goal.y);
      CHECK(astar_queue_release(q, id) == ASTAR_OK);
      CHECK(astar_queue_release(q, id) == ASTAR_INVALID_ARGUMENT);
    }
    /* All 1000 ids distinct. */
    int dup = 0;
    for (int i = 0; i < nseen; i++)
      for (int j = i + 1; j < nseen; j++) dup += seen[i] == seen[j];
    CHECK_EQ(dup, 0);
    astar_queue_free(q);
  }
  astar_grid_free(g);
}

/* Every allocation of astar_queue_new failing in turn: NO_MEMORY, *out
** NULL, nothing leaked. */
static void test_alloc_failure(void) {
  astar_grid *g = walled_grid(30, 20);
  failalloc fa;
  int succeeded = 0;
  for (long k = 1; k < 50 && !succeeded; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    astar_allocator a = failalloc_allocator(&fa);
    astar_queue *q = (astar_queue *)&fa;
    const astar_status st = astar_queue_new(&q, g, 10, &a);
    if (st == ASTAR_OK) {
      CHECK(fa.failures == 0);
      succeeded = 1;
      astar_queue_free(q);
    } else {
      CHECK(st == ASTAR_NO_MEMORY);
      CHECK(q == NULL);
      CHECK_EQ(fa.failures, 1);
    }
    CHECK_EQ(fa.blocks, 0);
    CHECK_EQ(fa.bytes, 0);
    CHECK_EQ(fa.osize_mismatches, 0);
  }
  CHECK(succeeded);
  astar_grid_free(g);
}

/* No allocator call between astar_queue_new and astar_queue_free. */
static void test_no_allocation(void) {
  rng r;
  rng_seed(&r, 99);
  randmap_spec spec = {SIDE, SIDE, 0.3, 1, 0.5, 5.0};
  astar_grid *g;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator a = failalloc_allocator(&fa);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, MAXREQ, &a) == ASTAR_OK);
  const long calls = fa.calls;
  CHECK(calls > 0);
  astar_request_id ids[MAXREQ];
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < MAXREQ; i++) {
      astar_options o;
      random_opts(&o, &r);
      CHECK(astar_queue_submit(q, &o, randmap_passable_cell(g, &r), randmap_passable_cell(g, &r),
                               rng_range(&r, 0, 5), bufs[i], CAP, &ids[i]) == ASTAR_OK);
    }
    astar_queue_cancel(q, ids[5]); /* (unless answered at submission) */
    astar_grid_set_passable(g, 0, 0, !astar_grid_passable(g, 0, 0));
    astar_queue_update(q, 50, NULL);
    astar_grid_set_passable(g, 0, 0, !astar_grid_passable(g, 0, 0)); /* restarts */
    uint64_t spent;
    drain(q, &r, &spent, 1000000);
    for (int i = 0; i < MAXREQ; i++) {
      astar_status st;
      astar_result res;
      CHECK(astar_queue_poll(q, ids[i], &st, &res) != ASTAR_REQUEST_UNKNOWN);
      astar_request_done out;
      CHECK(astar_queue_outcome(q, ids[i], &out) != ASTAR_REQUEST_UNKNOWN);
      size_t len;
      astar_queue_path(q, ids[i], big, CAP, &len);
      CHECK(astar_queue_release(q, ids[i]) == ASTAR_OK);
    }
  }
  CHECK_EQ(fa.calls, calls);
  astar_queue_free(q);
  CHECK_EQ(fa.blocks, 0);
  CHECK_EQ(fa.osize_mismatches, 0);
  astar_grid_free(g);
}

/* Bad arguments and degenerate cases. */
static void test_arguments(void) {
  astar_grid *g = walled_grid(8, 8);
  astar_queue *q = (astar_queue *)g;
  CHECK(astar_queue_new(NULL, g, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_new(&q, NULL, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(q == NULL);
  CHECK(astar_queue_new(&q, g, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  astar_request_id id = 77;
  const astar_point s = {0, 0}, t = {7, 7};
  CHECK(astar_queue_submit(NULL, NULL, s, t, 0, bufs[0], CAP, &id) == ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(id, 0);
  CHECK(astar_queue_submit(q, NULL, s, t, 0, bufs[0], CAP, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_submit(q, NULL, s, t, 0, NULL, 5, &id) == ASTAR_INVALID_ARGUMENT);
  astar_options o;
  astar_options_init(&o);
  o.weight = -1;
  CHECK(astar_queue_submit(q, &o, s, t, 0, bufs[0], CAP, &id) == ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_queue_pending(q), 0);
  CHECK(astar_queue_update(q, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_update(NULL, 10, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_queue_frame f;
  CHECK(astar_queue_update(q, 10, &f) == ASTAR_OK); /* nothing to do */
  CHECK(f.expanded == 0 && f.finished == 0 && f.pending == 0);

  /* Requests that cannot start end at once, without expansions, all in
  ** one update; start == goal too. */
  astar_request_id b[4];
  CHECK(astar_queue_submit(q, NULL, (astar_point){4, 0}, t, 0, bufs[0], CAP, &b[0]) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, s, (astar_point){8, 0}, 0, bufs[1], CAP, &b[1]) == ASTAR_OK);
  CHECK(astar_queue_submit(q, NULL, s, s, 0, bufs[2], CAP, &b[2]) == ASTAR_OK);
  o.weight = 1;
  /* Methods the queue cannot serve are refused at once, with a reason:
  ** Anya (astar_vec2 bends), and a method needing a precomputation
  ** without the caller's finder. */
  astar_request rq = {0};
  rq.start = s;
  rq.goal = t;
  rq.path = bufs[3];
  rq.cap = CAP;
  rq.method = ASTAR_METHOD_ANYA;
  CHECK(astar_queue_submit_request(q, &rq, &b[3]) == ASTAR_UNSUPPORTED && b[3] == 0);
  CHECK(astar_queue_unsupported_reason(q, &rq) != NULL);
  rq.method = ASTAR_METHOD_JPS_PLUS;
  CHECK(astar_queue_submit_request(q, &rq, &b[3]) == ASTAR_UNSUPPORTED);
  CHECK(astar_queue_unsupported_reason(q, &rq) != NULL);
  rq.method = ASTAR_METHOD_JPS;
  CHECK(astar_queue_unsupported_reason(q, &rq) == NULL);
  o.algorithm = (astar_algorithm)7; /* no such algorithm */
  CHECK(astar_queue_submit(q, &o, s, t, 0, bufs[3], CAP, &b[3]) == ASTAR_INVALID_ARGUMENT);
  o.algorithm = ASTAR_ALGO_ASTAR;
  o.moves = 4;
  o.turn_penalty = 1; /* needs a turn reservation the queue's workspace lacks */
  CHECK(astar_queue_submit(q, &o, s, t, 0, bufs[3], CAP, &b[3]) == ASTAR_OK);
  o.turn_penalty = 0;
  CHECK(astar_queue_update(q, 1, &f) == ASTAR_OK);
  CHECK(f.expanded == 0 && f.finished == 4 && f.pending == 0);
  astar_status st;
  astar_result res;
  CHECK(astar_queue_poll(q, b[0], &st, &res) == ASTAR_REQUEST_DONE);
  CHECK(st == ASTAR_START_BLOCKED && res.cause == ASTAR_START_BLOCKED && res.end.x == -1);
  CHECK(astar_queue_poll(q, b[1], &st, &res) == ASTAR_REQUEST_DONE);
  CHECK(st == ASTAR_OUT_OF_BOUNDS && res.length == 0);
  CHECK(astar_queue_poll(q, b[2], &st, &res) == ASTAR_REQUEST_DONE);
  CHECK(st == ASTAR_OK && res.length == 1 && res.cost == 0 && res.stats.expanded == 0);
  CHECK(bufs[2][0].x == 0 && bufs[2][0].y == 0);
  CHECK(astar_queue_poll(q, b[3], &st, &res) == ASTAR_REQUEST_DONE);
  CHECK(st == ASTAR_TURNS_NOT_RESERVED);
  /* with the turn states reserved the same request runs */
  CHECK(astar_queue_reserve_turns(q) == ASTAR_OK);
  for (int k = 0; k < 4; k++) astar_queue_release(q, b[k]);
  o.turn_penalty = 1;
  astar_request_id tid;
  CHECK(astar_queue_submit(q, &o, s, t, 0, bufs[3], CAP, &tid) == ASTAR_OK);
  o.turn_penalty = 0;
  while (astar_queue_pending(q)) CHECK(astar_queue_update(q, 100, &f) == ASTAR_OK);
  CHECK(astar_queue_poll(q, tid, &st, &res) == ASTAR_REQUEST_DONE);
  CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
  CHECK(astar_queue_release(q, tid) == ASTAR_OK);
  CHECK(astar_queue_poll(NULL, b[3], &st, &res) == ASTAR_REQUEST_UNKNOWN);
  CHECK(astar_queue_release(NULL, b[3]) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_queue_cancel(NULL, b[3]) == ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_queue_pending(NULL), 0);
  astar_queue_set_callback(NULL, NULL, NULL);
  astar_queue_free(q);
  astar_queue_free(NULL);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_matches_one_shot);
  RUN(test_fairness);
  RUN(test_cancel);
  RUN(test_user_pointer);
  RUN(test_answered_at_submission);
  RUN(test_answered_in_callback);
  RUN(test_path_in_callback);
  RUN(test_path_polled);
  RUN(test_path_released);
  RUN(test_grid_change_restarts);
  RUN(test_grid_change_order);
  RUN(test_grid_change_stale);
  RUN(test_grid_change_answered);
  RUN(test_fog_restarts);
  RUN(test_fog_stale);
  RUN(test_fog_game);
  RUN(test_callback_reentry);
  RUN(test_capacity);
  RUN(test_id_reuse);
  RUN(test_alloc_failure);
  RUN(test_no_allocation);
  RUN(test_arguments);
  return check_summary();
}
