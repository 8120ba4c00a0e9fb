/*
** test_queue_methods.c -- the request queue serves every method and every
** unit size (astar/queue.h; issue 26 part 2). Linked against the test build
** of the library (astar_counted: ASTAR_TEST_COUNTERS), which counts options
** validations.
**
**   every_method   every grid method (and A* with landmarks or a waypoint
**                  table, smoothing, the engine's methods over the grid),
**                  through a caller's finder and through the queue's own, on
**                  seeded random maps with and without terrain, under small
**                  budgets: status, cost, length and cells equal the one-shot
**                  astar_finder_find; each request is charged the work the
**                  one-shot search reports; Anya is refused with a reason
**   budget         whole runs are charged their work: the frames' work adds
**                  up to the requests', a frame in debt does no work, the
**                  debt stays below the largest run
**   validations    a queued request with options validates them exactly
**                  once (submission to delivery), a caller's finder never
**   sizes          units of sizes 1-3 and two capabilities in one queue equal
**                  a one-shot finder for that size and capability
**   edits          walls appearing mid-search with units of sizes 2 and 3
**                  (change ring on, and off): no delivered path crosses a
**                  cell blocked for its size at delivery, and each equals
**                  the one-shot search on the grid of that moment
**   stale_finder   a caller's HPA* finder made stale by an edit waits for the
**                  caller's refresh (then the path of the new grid), or ends
**                  ASTAR_STALE once its restarts are used up
**   smooth         smoothing per request honours terrain (a swamp) and fog
**                  (a wall the player believes in) where naive smoothing
**                  cuts through
*/
#include <astar/astar.h>
#include <astar/finder.h>
#include <astar/knowledge.h>
#include <astar/queue.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/randmap.h"

#ifndef ASTAR_TEST_COUNTERS
#error "test_queue_methods needs the test build of the library (astar_counted)"
#endif
uint64_t astar__test_validations(void);

#define P(x, y) ((astar_point){(x), (y)})

/* ---- a map and its precomputations --------------------------------------------- */

typedef struct kit {
  astar_grid *g;
  astar_options o;
  astar_workspace *ws;
  astar_jps_plus *jps_plus;
  astar_cpd *cpd;
  astar_hpa *hpa;
  astar_landmarks *landmarks;
  astar_waypoint_table *table;
  astar_subgoal *sg; /* refused with terrain */
} kit;

static void kit_free(kit *k) {
  astar_jps_plus_free(k->jps_plus);
  astar_cpd_free(k->cpd);
  astar_hpa_free(k->hpa);
  astar_landmarks_free(k->landmarks);
  astar_waypoint_table_free(k->table);
  astar_subgoal_free(k->sg);
  astar_workspace_free(k->ws);
  astar_grid_free(k->g);
  memset(k, 0, sizeof *k);
}

static void kit_init(kit *k, astar_grid *g) {
  memset(k, 0, sizeof *k);
  k->g = g;
  astar_options_init(&k->o);
  CHECK(astar_workspace_new(&k->ws, g, NULL) == ASTAR_OK);
  (void)astar_jps_plus_new(&k->jps_plus, g, NULL); /* refused with terrain */
  (void)astar_cpd_build(&k->cpd, g, NULL, NULL);
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  ho.cluster_size = 8;
  (void)astar_hpa_new(&k->hpa, g, &k->o, &ho, NULL);
  (void)astar_landmarks_new_grid(&k->landmarks, g, &k->o, NULL, NULL);
  (void)astar_waypoint_table_new(&k->table, g, &k->o, NULL, NULL);
  (void)astar_subgoal_build(&k->sg, g, NULL, NULL);
}

enum { V_PLAIN, V_LANDMARKS, V_TABLE, V_SMOOTH, V_COUNT };

/* Method m, variant v on k; false when it does not apply. */
static bool config_for(astar_finder_config *c, const kit *k, astar_method m, int v) {
  const astar_method_info *info = astar_method_info_of(m);
  if (!info) return false;
  astar_finder_config_init(c);
  c->method = m;
  c->options = k->o;
  c->engine.beam_width = 16;
  c->engine.epsilon = 0.5;
  c->engine.band_e = 0.5;
  c->engine.band_d = 2.0;
  if (info->needs & ASTAR_ATTACH_JPS_PLUS) c->jps_plus = k->jps_plus;
  if (info->needs & ASTAR_ATTACH_CPD) c->cpd = k->cpd;
  if (info->needs & ASTAR_ATTACH_HPA) c->hpa = k->hpa;
  if ((info->needs & ASTAR_ATTACH_JPS_PLUS && !k->jps_plus) ||
      (info->needs & ASTAR_ATTACH_CPD && !k->cpd) || (info->needs & ASTAR_ATTACH_HPA && !k->hpa) ||
      (info->needs & ASTAR_ATTACH_SUBGOAL && !k->sg))
    return false;
  switch (v) {
  case V_LANDMARKS:
    if (!(info->takes & ASTAR_ATTACH_LANDMARKS) || !k->landmarks) return false;
    c->landmarks = k->landmarks;
    return true;
  case V_TABLE:
    if (!(info->takes & ASTAR_ATTACH_TABLE) || !k->table) return false;
    c->table = k->table;
    return true;
  case V_SMOOTH:
    if (info->flags & ASTAR_MF_VEC) return false;
    c->smooth = true;
    return true;
  default:
    return true;
  }
}

static bool method_fits(astar_method m, const astar_grid *g) {
  const int32_t cells = astar_grid_width(g) * astar_grid_height(g);
  if (m == ASTAR_METHOD_IDA) return cells <= 150;
  if (m == ASTAR_METHOD_FRONT_TO_FRONT) return cells <= 6000;
  return true;
}

/* ---- running a queue to the end ------------------------------------------------ */

#define NQ 8

typedef struct batch {
  astar_point s[NQ], t[NQ];
  astar_point *buf[NQ];
  size_t cap;
  astar_request_id id[NQ];
} batch;

/* Update until nothing is pending (a bound on frames: no hang). Returns the
** work of every frame added up. */
static uint64_t drain(astar_queue *q, uint64_t budget) {
  uint64_t total = 0;
  for (int frames = 0; astar_queue_pending(q) > 0 && frames < 1000000; frames++) {
    astar_queue_frame f;
    CHECK(astar_queue_update(q, budget, &f) == ASTAR_OK);
    total += f.expanded;
  }
  CHECK(astar_queue_pending(q) == 0);
  return total;
}

/* The queue's outcome of b->id[i] against the one-shot search of `f`. */
static void compare_one(astar_queue *q, const batch *b, int i, const astar_finder *f,
                        astar_workspace *ws, astar_point *scratch, const char *what) {
  astar_request_done d;
  CHECK(astar_queue_outcome(q, b->id[i], &d) == ASTAR_REQUEST_DONE);
  astar_path_result res;
  const astar_status st = astar_finder_find(f, ws, b->s[i], b->t[i], scratch, b->cap, &res);
  if (d.status != st || d.result.length != res.length || d.result.cost != res.cost ||
      d.restarts != 0 || d.work != res.work) {
    FAILF("%s: (%d,%d)->(%d,%d): queue %s len %zu cost %.9g work %llu, one-shot %s len %zu "
          "cost %.9g work %llu",
          what, b->s[i].x, b->s[i].y, b->t[i].x, b->t[i].y, astar_strerror(d.status),
          d.result.length, d.result.cost, (unsigned long long)d.work, astar_strerror(st),
          res.length, res.cost, (unsigned long long)res.work);
    return;
  }
  if ((st == ASTAR_OK || st == ASTAR_PARTIAL) &&
      memcmp(scratch, b->buf[i], res.length * sizeof *scratch) != 0)
    FAILF("%s: (%d,%d)->(%d,%d): same length, other cells", what, b->s[i].x, b->s[i].y, b->t[i].x,
          b->t[i].y);
}

static uint64_t with_path[ASTAR_METHOD_COUNT][2];

/* Every method through the queue equals the one-shot finder. */
static void test_every_method(void) {
  rng r;
  rng_seed(&r, 2611);
  for (int round = 0; round < 10; round++) {
    randmap_spec spec = {
        rng_range(&r, 20, 36), rng_range(&r, 20, 36), 0.2 + 0.02 * round, round % 2, 0.5, 4.0};
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    kit k;
    kit_init(&k, g);
    const size_t cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
    astar_point *scratch = malloc(cap * sizeof *scratch);
    batch b;
    b.cap = cap;
    for (int i = 0; i < NQ; i++) b.buf[i] = malloc(cap * sizeof *b.buf[i]);
    for (int m = 0; m < ASTAR_METHOD_COUNT; m++) {
      if (!method_fits((astar_method)m, g)) continue;
      for (int v = 0; v < V_COUNT; v++) {
        astar_finder_config c;
        if (!config_for(&c, &k, (astar_method)m, v)) continue;
        astar_finder *f = NULL, *fown = NULL;
        /* A subgoal graph is the argument of its finder's constructor (the
        ** queue's own finder, from a request's fields, has none: refused). */
        const astar_status fst = m == ASTAR_METHOD_SUBGOAL
                                     ? astar_finder_new_subgoal(&f, g, k.sg, &c, NULL)
                                     : astar_finder_new(&f, g, &c, NULL);
        if (fst != ASTAR_OK) continue;
        /* What the queue prepares from a request's fields: the engine's
        ** variants with their default settings. */
        astar_finder_config cown = c;
        astar_engine_options_init(&cown.engine);
        (void)astar_finder_new(&fown, g, &cown, NULL);
        const bool vec = (astar_method_info_of((astar_method)m)->flags & ASTAR_MF_VEC) != 0;
        /* Twice: the caller's finder, then (no attachment) the queue's own. */
        for (int own = 0; own < 2; own++) {
          if (own && (c.jps_plus || c.cpd || c.hpa || c.landmarks || c.table || !fown)) continue;
          astar_queue *q;
          CHECK(astar_queue_new(&q, g, NQ, NULL) == ASTAR_OK);
          for (int i = 0; i < NQ; i++) {
            b.s[i] = randmap_passable_cell(g, &r);
            b.t[i] = i == 0 ? P(-1, 3) : randmap_passable_cell(g, &r);
            astar_request req = {0};
            req.start = b.s[i];
            req.goal = b.t[i];
            req.path = b.buf[i];
            req.cap = cap;
            if (own) {
              req.method = (astar_method)m;
              req.opt = &c.options;
              req.smooth = c.smooth;
            } else {
              req.finder = f;
            }
            const astar_status st = astar_queue_submit_request(q, &req, &b.id[i]);
            if (vec) {
              CHECK(st == ASTAR_UNSUPPORTED && astar_queue_unsupported_reason(q, &req));
              b.id[i] = 0;
            } else {
              CHECKF(st == ASTAR_OK, "%s: %s", astar_method_info_of((astar_method)m)->name,
                     astar_strerror(st));
            }
          }
          drain(q, (uint64_t)rng_range(&r, 1, 60));
          char what[64];
          snprintf(what, sizeof what, "%s/%d%s", astar_method_info_of((astar_method)m)->name, v,
                   own ? " (queue's finder)" : "");
          for (int i = 0; i < NQ && !vec; i++) {
            compare_one(q, &b, i, own ? fown : f, k.ws, scratch, what);
            astar_status st;
            if (astar_queue_poll(q, b.id[i], &st, NULL) == ASTAR_REQUEST_DONE && st == ASTAR_OK)
              with_path[m][own]++;
          }
          astar_queue_free(q);
        }
        astar_finder_free(f);
        astar_finder_free(fown);
      }
    }
    /* The options' algorithm JPS asks for JPS, as before finders. */
    if (!astar_grid_has_terrain(g)) {
      astar_finder_config c;
      astar_finder_config_init(&c);
      c.method = ASTAR_METHOD_JPS;
      astar_finder *f;
      CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
      astar_queue *q;
      CHECK(astar_queue_new(&q, g, NQ, NULL) == ASTAR_OK);
      astar_options o;
      astar_options_init(&o);
      o.algorithm = ASTAR_ALGO_JPS;
      for (int i = 0; i < NQ; i++) {
        b.s[i] = randmap_passable_cell(g, &r);
        b.t[i] = randmap_passable_cell(g, &r);
        CHECK(astar_queue_submit(q, &o, b.s[i], b.t[i], 0, b.buf[i], cap, &b.id[i]) == ASTAR_OK);
      }
      drain(q, 5);
      for (int i = 0; i < NQ; i++) compare_one(q, &b, i, f, k.ws, scratch, "options' JPS");
      astar_queue_free(q);
      astar_finder_free(f);
    }
    for (int i = 0; i < NQ; i++) free(b.buf[i]);
    free(scratch);
    kit_free(&k);
  }
  /* Every method but Anya (refused) delivered paths both ways (those that
  ** need an attachment: through the caller's finder). */
  for (int m = 0; m < ASTAR_METHOD_COUNT; m++) {
    const astar_method_info *info = astar_method_info_of((astar_method)m);
    /* (IDA* is for maps of at most 150 cells: method_fits.) */
    if (!info || (info->flags & ASTAR_MF_VEC) || m == ASTAR_METHOD_IDA) continue;
    CHECKF(with_path[m][0] > 0, "%s: no path through the caller's finder", info->name);
    if (!info->needs) CHECKF(with_path[m][1] > 0, "%s: no path through the queue's", info->name);
  }
}

/* ---- the budget: whole runs are charged their work ----------------------------- */

static void test_budget(void) {
  rng r;
  rng_seed(&r, 77);
  randmap_spec spec = {64, 64, 0.25, 0, 1, 1};
  astar_grid *g;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_JPS; /* runs whole: work = jump points expanded */
  astar_finder *f;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  astar_queue *q;
  enum { N = 40 };
  CHECK(astar_queue_new(&q, g, N, NULL) == ASTAR_OK);
  static astar_point bufs[N][64 * 64];
  astar_request_id ids[N];
  for (int i = 0; i < N; i++) {
    astar_request req = {0};
    req.start = randmap_passable_cell(g, &r);
    req.goal = randmap_passable_cell(g, &r);
    req.finder = f;
    req.path = bufs[i];
    req.cap = (size_t)64 * 64;
    CHECK(astar_queue_submit_request(q, &req, &ids[i]) == ASTAR_OK);
  }
  const uint64_t budget = 10;
  uint64_t total = 0, debt = 0, largest = 0, frames = 0, idle = 0;
  while (astar_queue_pending(q) > 0 && frames < 100000) {
    astar_queue_frame fr;
    CHECK(astar_queue_update(q, budget, &fr) == ASTAR_OK);
    /* A frame that starts in debt of a whole budget does no work. */
    if (debt >= budget) {
      CHECK(fr.expanded == 0 && fr.debt == debt - budget);
      idle++;
    } else {
      /* What it could spend is budget - debt; one whole run may overshoot. */
      CHECK(fr.debt == 0 || fr.expanded > budget - debt);
    }
    total += fr.expanded;
    debt = fr.debt;
    frames++;
  }
  uint64_t charged = 0;
  for (int i = 0; i < N; i++) {
    astar_request_done d;
    CHECK(astar_queue_outcome(q, ids[i], &d) == ASTAR_REQUEST_DONE);
    charged += d.work;
    if (d.work > largest) largest = d.work;
  }
  CHECK_EQ(total, charged); /* every unit of work was charged to a frame */
  CHECK(debt < largest);    /* what remains owed is below one run */
  CHECK(total <= frames * budget + debt);
  CHECK(idle > 0); /* the runs overshot, and frames paid for it */
  CHECK(largest > budget);
  astar_queue_free(q);
  astar_finder_free(f);
  astar_grid_free(g);
}

/* ---- validations ---------------------------------------------------------------- */

static void test_validations(void) {
  rng r;
  rng_seed(&r, 5);
  randmap_spec spec = {32, 32, 0.2, 1, 0.5, 3};
  astar_grid *g;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  static astar_point buf[32 * 32];
  astar_options o;
  astar_options_init(&o);
  o.weight = 1.2;
  for (int i = 0; i < 5; i++) {
    astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    if (i == 4) s = t; /* answered at submission */
    uint64_t v0 = astar__test_validations();
    astar_request_id id;
    CHECK(astar_queue_submit(q, &o, s, t, 0, buf, (size_t)32 * 32, &id) == ASTAR_OK);
    drain(q, 7);
    CHECKF(astar__test_validations() - v0 == 1, "options: %llu validations",
           (unsigned long long)(astar__test_validations() - v0));
    CHECK(astar_queue_release(q, id) == ASTAR_OK);
  }
  /* Through a caller's finder: none at submission, none in the updates. */
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.options = o;
  astar_finder *f;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  for (int i = 0; i < 3; i++) {
    astar_request req = {0};
    req.start = randmap_passable_cell(g, &r);
    req.goal = randmap_passable_cell(g, &r);
    req.finder = f;
    req.path = buf;
    req.cap = (size_t)32 * 32;
    const uint64_t v0 = astar__test_validations();
    astar_request_id id;
    CHECK(astar_queue_submit_request(q, &req, &id) == ASTAR_OK);
    CHECK_EQ(astar__test_validations() - v0, 0);
    drain(q, 7);
    CHECK_EQ(astar__test_validations() - v0, 0);
    CHECK(astar_queue_release(q, id) == ASTAR_OK);
  }
  astar_finder_free(f);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* ---- units of several sizes and capabilities ----------------------------------- */

/* A random map with terrain types: swamp blobs (type 1) and ground. */
static astar_grid *typed_map(rng *r, int32_t w, int32_t h, bool terrain, uint8_t *types) {
  randmap_spec spec = {w, h, 0.12, terrain, 0.5, 3.0};
  astar_grid *g;
  CHECK(randmap_make(&g, &spec, r) == ASTAR_OK);
  memset(types, ASTAR_TYPE_GROUND, (size_t)w * (size_t)h);
  for (int blob = 0; blob < 6; blob++) {
    const int32_t cx = rng_range(r, 0, w - 1), cy = rng_range(r, 0, h - 1);
    for (int32_t y = cy - 3; y <= cy + 3; y++)
      for (int32_t x = cx - 3; x <= cx + 3; x++)
        if (x >= 0 && y >= 0 && x < w && y < h) types[y * w + x] = ASTAR_TYPE_SWAMP;
  }
  return g;
}

/* A random cell where a unit of `size` and `cap` (0: all) fits (mostly). */
static astar_point fitting_cell(const astar_grid *g, const astar_clearance *clr, rng *r,
                                int32_t size, astar_capability cap) {
  astar_point p = randmap_passable_cell(g, r);
  for (int tries = 0; tries < 200; tries++) {
    if (astar_clearance_fits(clr, p.x, p.y, size, cap ? cap : ASTAR_CAPABILITY_ALL)) break;
    p = randmap_passable_cell(g, r);
  }
  return p;
}

static const astar_capability ground_only = ASTAR_CAPABILITY(ASTAR_TYPE_GROUND);

static void test_sizes(void) {
  rng r;
  rng_seed(&r, 31);
  enum { W = 40, H = 36, N = 24 };
  static uint8_t types[W * H];
  for (int round = 0; round < 6; round++) {
    astar_grid *g = typed_map(&r, W, H, round % 2, types);
    const astar_capability caps[2] = {ASTAR_CAPABILITY_ALL, ground_only};
    astar_clearance *clr;
    CHECK(astar_clearance_new(&clr, g, types, caps, 2, 3, NULL) == ASTAR_OK);
    astar_queue *q;
    CHECK(astar_queue_new(&q, g, N, NULL) == ASTAR_OK);
    CHECK(astar_queue_set_units(q, types, caps, 2, 3) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    static astar_point bufs[N][W * H], scratch[W * H];
    astar_request req[N];
    astar_request_id ids[N];
    for (int i = 0; i < N; i++) {
      memset(&req[i], 0, sizeof req[i]);
      req[i].unit_size = rng_range(&r, 1, 3);
      req[i].capability = rng_range(&r, 0, 1) ? ground_only : 0;
      req[i].start = fitting_cell(g, clr, &r, req[i].unit_size, req[i].capability);
      req[i].goal = fitting_cell(g, clr, &r, req[i].unit_size, req[i].capability);
      req[i].method = (round % 2 == 0 && i % 3 == 0) ? ASTAR_METHOD_JPS : ASTAR_METHOD_ASTAR;
      req[i].path = bufs[i];
      req[i].cap = (size_t)W * H;
      req[i].priority = rng_range(&r, 0, 2);
      CHECK(astar_queue_submit_request(q, &req[i], &ids[i]) == ASTAR_OK);
    }
    drain(q, 23);
    int found = 0;
    for (int i = 0; i < N; i++) {
      astar_finder_config c;
      astar_finder_config_init(&c);
      c.method = req[i].method;
      c.unit_size = req[i].unit_size;
      c.capability = req[i].capability;
      c.clearance = clr;
      astar_finder *f;
      CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
      batch b;
      b.s[0] = req[i].start;
      b.t[0] = req[i].goal;
      b.buf[0] = bufs[i];
      b.cap = (size_t)W * H;
      b.id[0] = ids[i];
      compare_one(q, &b, 0, f, ws, scratch, "sizes");
      astar_status st;
      astar_queue_poll(q, ids[i], &st, NULL);
      found += st == ASTAR_OK;
      astar_finder_free(f);
    }
    CHECK(found > N / 4);
    /* Out of range: a size beyond the queue's largest, an unknown capability. */
    astar_request bad = req[0];
    astar_request_id id;
    bad.unit_size = 4;
    CHECK(astar_queue_submit_request(q, &bad, &id) == ASTAR_INVALID_ARGUMENT);
    bad.unit_size = 2;
    bad.capability = ASTAR_CAPABILITY(ASTAR_TYPE_WATER);
    CHECK(astar_queue_submit_request(q, &bad, &id) == ASTAR_INVALID_ARGUMENT);
    /* Any-angle and smoothing are for one-cell units. */
    bad.capability = 0;
    bad.smooth = true;
    CHECK(astar_queue_submit_request(q, &bad, &id) == ASTAR_UNSUPPORTED);
    bad.smooth = false;
    bad.method = ASTAR_METHOD_THETA;
    CHECK(astar_queue_submit_request(q, &bad, &id) == ASTAR_UNSUPPORTED);
    CHECK(astar_queue_unsupported_reason(q, &bad) != NULL);
    astar_workspace_free(ws);
    astar_queue_free(q);
    astar_clearance_free(clr);
    astar_grid_free(g);
  }
}

/* ---- edits while units of sizes 2 and 3 wait and search ---------------------- */

typedef struct edit_game {
  astar_grid *g;
  astar_clearance *clr; /* the test's own, current at every delivery */
  astar_workspace *ws;
  astar_point scratch[48 * 48];
  int delivered, with_path, restarted;
  const astar_request *req; /* by user pointer index */
} edit_game;

static void on_edit_done(void *ctx, const astar_request_done *d) {
  edit_game *e = ctx;
  const astar_request *rq = d->user;
  e->delivered++;
  e->restarted += d->restarts > 0;
  if (d->status != ASTAR_OK) return;
  /* Searched on the grid as it is (answers at submission excepted: start
  ** == goal, on the grid of then). */
  CHECK(d->len == 1 || d->grid_version == astar_grid_version(e->g));
  e->with_path++;
  /* Legal for the unit on the grid as it is now, and the one-shot answer. */
  astar_options o;
  astar_options_init(&o);
  double cost = -1;
  size_t bad = 0;
  const astar_status st = astar_clearance_path_cost(
      e->clr, e->g, &o, rq->unit_size, ASTAR_CAPABILITY_ALL, d->path, d->len, &cost, &bad);
  CHECKF(st == ASTAR_OK, "size %d: %s at %zu", rq->unit_size, astar_strerror(st), bad);
  CHECK(fabs(cost - d->result.cost) < 1e-9);
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.unit_size = rq->unit_size;
  c.clearance = e->clr;
  astar_finder *f;
  CHECK(astar_finder_new(&f, e->g, &c, NULL) == ASTAR_OK);
  astar_path_result res;
  CHECK(astar_finder_find(f, e->ws, rq->start, rq->goal, e->scratch, (size_t)48 * 48, &res) ==
        ASTAR_OK);
  CHECK(res.cost == d->result.cost && res.length == d->len &&
        memcmp(e->scratch, d->path, d->len * sizeof *d->path) == 0);
  astar_finder_free(f);
}

static void edits_round(uint64_t seed, bool track) {
  rng r;
  rng_seed(&r, seed);
  enum { W = 48, H = 48, N = 16 };
  randmap_spec spec = {W, H, 0.08, (int)(seed % 2), 0.5, 3.0};
  edit_game e;
  memset(&e, 0, sizeof e);
  CHECK(randmap_make(&e.g, &spec, &r) == ASTAR_OK);
  if (track) CHECK(astar_grid_track_changes(e.g, 64) == ASTAR_OK);
  CHECK(astar_clearance_new(&e.clr, e.g, NULL, NULL, 0, 3, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&e.ws, e.g, NULL) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, e.g, N, NULL) == ASTAR_OK);
  astar_queue_set_callback(q, on_edit_done, &e);
  astar_queue_set_restarts(q, UINT32_MAX);
  static astar_point bufs[N][W * H];
  static astar_request req[N];
  for (int i = 0; i < N; i++) {
    memset(&req[i], 0, sizeof req[i]);
    req[i].unit_size = 2 + i % 2;
    req[i].start = fitting_cell(e.g, e.clr, &r, req[i].unit_size, 0);
    req[i].goal = fitting_cell(e.g, e.clr, &r, req[i].unit_size, 0);
    req[i].path = bufs[i];
    req[i].cap = (size_t)W * H;
    req[i].user = &req[i];
    astar_request_id id;
    CHECK(astar_queue_submit_request(q, &req[i], &id) == ASTAR_OK);
  }
  for (int frame = 0; astar_queue_pending(q) > 0 && frame < 20000; frame++) {
    /* A wall segment every third frame (at first). */
    if (frame % 3 == 0 && frame < 120) {
      const int32_t x = rng_range(&r, 0, W - 1), y = rng_range(&r, 0, H - 1);
      const bool horiz = rng_range(&r, 0, 1);
      for (int j = 0; j < 6; j++)
        (void)astar_grid_set_passable(e.g, horiz ? x + j : x, horiz ? y : y + j,
                                      rng_range(&r, 0, 4) != 0 ? false : true);
      CHECK(astar_clearance_update(e.clr, e.g) == ASTAR_OK);
    }
    CHECK(astar_queue_update(q, 40, NULL) == ASTAR_OK);
  }
  CHECK(astar_queue_pending(q) == 0);
  CHECK(e.delivered == N);
  CHECK(e.with_path > 0);
  CHECK(e.restarted > 0); /* edits did fall mid-search */
  astar_queue_free(q);
  astar_workspace_free(e.ws);
  astar_clearance_free(e.clr);
  astar_grid_free(e.g);
}

static void test_edits(void) {
  for (uint64_t seed = 1; seed <= 6; seed++) {
    edits_round(seed, true);
    edits_round(seed, false); /* no change ring: rebuilds */
  }
}

/* ---- a caller's finder made stale by an edit ------------------------------------ */

static void test_stale_finder(void) {
  rng r;
  rng_seed(&r, 9);
  randmap_spec spec = {40, 40, 0.15, 1, 0.5, 2.0};
  astar_grid *g;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  CHECK(astar_grid_track_changes(g, 256) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  ho.cluster_size = 8;
  astar_hpa *hpa;
  CHECK(astar_hpa_new(&hpa, g, &o, &ho, NULL) == ASTAR_OK);
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_HPA;
  c.hpa = hpa;
  astar_finder *f;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  static astar_point buf[40 * 40], one[40 * 40];
  astar_request req = {0};
  req.start = randmap_passable_cell(g, &r);
  req.goal = randmap_passable_cell(g, &r);
  req.finder = f;
  req.path = buf;
  req.cap = (size_t)40 * 40;
  astar_request_id id;
  CHECK(astar_queue_submit_request(q, &req, &id) == ASTAR_OK);
  /* An edit the caller has not yet followed: the request waits. */
  astar_point cell = randmap_passable_cell(g, &r);
  while (cell.x == req.start.x && cell.y == req.start.y) cell = randmap_passable_cell(g, &r);
  CHECK(astar_grid_set_passable(g, cell.x, cell.y, false) == ASTAR_OK);
  astar_queue_frame fr;
  CHECK(astar_queue_update(q, 1000, &fr) == ASTAR_OK);
  CHECK(fr.restarted == 1 && fr.finished == 0 && fr.pending == 1 && fr.expanded == 0);
  CHECK(astar_queue_poll(q, id, NULL, NULL) == ASTAR_REQUEST_QUEUED);
  /* The caller follows: HPA* synced, the finder refreshed; then the path
  ** of the new grid. */
  CHECK(astar_hpa_sync(hpa, g, NULL) == ASTAR_OK);
  CHECK(astar_finder_refresh(f) == ASTAR_OK);
  CHECK(astar_queue_update(q, 1000, &fr) == ASTAR_OK);
  CHECK(fr.finished == 1 && fr.pending == 0);
  astar_request_done d;
  CHECK(astar_queue_outcome(q, id, &d) == ASTAR_REQUEST_DONE);
  astar_path_result res;
  const astar_status st = astar_finder_find(f, ws, req.start, req.goal, one, (size_t)40 * 40, &res);
  CHECK(d.status == st && d.result.cost == res.cost && d.len == (st == ASTAR_OK ? res.length : 0));
  CHECK(d.restarts == 1 && d.grid_version == astar_grid_version(g));
  CHECK(astar_queue_release(q, id) == ASTAR_OK);
  /* Restarts used up: ASTAR_STALE, no path. */
  astar_queue_set_restarts(q, 0);
  CHECK(astar_queue_submit_request(q, &req, &id) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, cell.x, cell.y, true) == ASTAR_OK);
  CHECK(astar_queue_update(q, 1000, &fr) == ASTAR_OK);
  CHECK(astar_queue_outcome(q, id, &d) == ASTAR_REQUEST_DONE);
  CHECK(d.status == ASTAR_STALE && d.len == 0);
  astar_queue_free(q);
  astar_workspace_free(ws);
  astar_finder_free(f);
  astar_hpa_free(hpa);
  astar_grid_free(g);
}

/* ---- smoothing honours terrain and fog ---------------------------------------- */

/* Does the segment a -> b pass through a cell for which bad(x, y) holds?
** (Every cell the segment's supercover touches, by fine sampling.) */
static bool segment_touches(astar_point a, astar_point b,
                            bool (*bad)(const void *, int32_t, int32_t), const void *ctx) {
  const int steps = 400;
  for (int i = 0; i <= steps; i++) {
    const double t = (double)i / steps;
    const double x = a.x + 0.5 + t * (b.x - a.x), y = a.y + 0.5 + t * (b.y - a.y);
    if (bad(ctx, (int32_t)floor(x), (int32_t)floor(y))) return true;
  }
  return false;
}

static bool is_swamp(const void *ctx, int32_t x, int32_t y) {
  return astar_grid_terrain(ctx, x, y) > 1.0f;
}

static bool known_blocked(const void *ctx, int32_t x, int32_t y) {
  return astar_knowledge_get(ctx, x, y) == ASTAR_CELL_BLOCKED;
}

static bool path_touches(const astar_point *p, size_t n,
                         bool (*bad)(const void *, int32_t, int32_t), const void *ctx) {
  for (size_t i = 0; i + 1 < n; i++)
    if (segment_touches(p[i], p[i + 1], bad, ctx)) return true;
  return false;
}

static void test_smooth(void) {
  enum { W = 24, H = 12 };
  astar_grid *g;
  CHECK(astar_grid_new(&g, W, H, NULL) == ASTAR_OK);
  /* A swamp (cost 20) across the straight line, open ground around. */
  for (int32_t y = 0; y < 8; y++)
    for (int32_t x = 9; x < 14; x++) CHECK(astar_grid_set_terrain(g, x, y, 20.0f) == ASTAR_OK);
  astar_queue *q;
  CHECK(astar_queue_new(&q, g, 4, NULL) == ASTAR_OK);
  static astar_point buf[W * H], naive[W * H];
  astar_request req = {0};
  req.start = P(2, 3);
  req.goal = P(21, 3);
  req.smooth = true;
  req.path = buf;
  req.cap = (size_t)W * H;
  astar_request_id id;
  CHECK(astar_queue_submit_request(q, &req, &id) == ASTAR_OK);
  drain(q, 50);
  astar_request_done d;
  CHECK(astar_queue_outcome(q, id, &d) == ASTAR_REQUEST_DONE && d.status == ASTAR_OK);
  CHECK(d.len >= 3 && !path_touches(d.path, d.len, is_swamp, g));
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.smooth = true;
  astar_finder *f;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_path_result res;
  CHECK(astar_finder_find(f, ws, req.start, req.goal, naive, (size_t)W * H, &res) == ASTAR_OK);
  CHECK(res.cost == d.result.cost && res.length == d.len &&
        memcmp(naive, d.path, d.len * sizeof *naive) == 0);
  astar_finder_free(f);
  /* Naive smoothing -- lines of sight alone, terrain ignored -- cuts
  ** straight through the swamp. */
  astar_grid *flat;
  CHECK(astar_grid_new(&flat, W, H, NULL) == ASTAR_OK);
  size_t n = 0;
  astar_result gr;
  CHECK(astar_find_path(ws, g, NULL, req.start, req.goal, naive, (size_t)W * H, &gr) == ASTAR_OK);
  CHECK(astar_path_smooth(flat, NULL, naive, gr.length, naive, gr.length, &n) == ASTAR_OK);
  CHECK(path_touches(naive, n, is_swamp, g));
  CHECK(astar_queue_release(q, id) == ASTAR_OK);

  /* Fog: the player believes in a wall (seen blocked, since opened) across
  ** the straight line; the true grid is open there. */
  astar_grid *open;
  CHECK(astar_grid_new(&open, W, H, NULL) == ASTAR_OK);
  astar_knowledge *k;
  CHECK(astar_knowledge_new(&k, open, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < 9; y++)
    CHECK(astar_knowledge_set(k, 12, y, ASTAR_CELL_BLOCKED) == ASTAR_OK);
  astar_queue *q2;
  CHECK(astar_queue_new(&q2, open, 4, NULL) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  o.knowledge = k;
  req.opt = &o;
  CHECK(astar_queue_submit_request(q2, &req, &id) == ASTAR_OK);
  drain(q2, 50);
  CHECK(astar_queue_outcome(q2, id, &d) == ASTAR_REQUEST_DONE && d.status == ASTAR_OK);
  CHECK(d.len >= 3 && !path_touches(d.path, d.len, known_blocked, k));
  CHECK(astar_find_path(ws, open, &o, req.start, req.goal, naive, (size_t)W * H, &gr) == ASTAR_OK);
  CHECK(astar_path_smooth(open, NULL, naive, gr.length, naive, gr.length, &n) == ASTAR_OK);
  CHECK(path_touches(naive, n, known_blocked, k)); /* the true map's lines of sight */
  astar_queue_free(q2);
  astar_knowledge_free(k);
  astar_grid_free(open);
  astar_grid_free(flat);
  astar_workspace_free(ws);
  astar_queue_free(q);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_every_method);
  RUN(test_budget);
  RUN(test_validations);
  RUN(test_sizes);
  RUN(test_edits);
  RUN(test_stale_finder);
  RUN(test_smooth);
  return check_summary();
}
