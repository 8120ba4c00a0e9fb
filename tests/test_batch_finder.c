/*
** test_batch_finder.c -- astar/batch.h through the finder (issue 26 part 3):
** every method, on several threads. Linked against the test build of the
** library (astar_counted: ASTAR_TEST_COUNTERS), which counts options
** validations.
**
**   every_method   for every astar_method on seeded random maps (uniform
**                  costs, and terrain for the methods that take it), with
**                  what it needs attached: every slot of astar_batch_find
**                  (1, 2 and 5 threads, with path slots and without) equals
**                  a one-shot astar_finder_find of that query -- status,
**                  cost, length, expansions, cells; Anya through
**                  astar_batch_find_vec; the engine's methods over a space
**                  through astar_batch_find_nodes
**   no slots       HPA* (which costs only the path it writes) gives its
**                  costs in a batch without path slots
**   statuses       bad arguments, a space finder given to the grid call,
**                  Anya with cell slots, short slots, a stale finder
**   validations    options validations: astar_batch_find_paths makes one
**                  for the whole batch (it made 2n + 1), a finder's batch
**                  none (the finder made its own when it was made)
**
** The counter is per thread: the validation test runs the batch on one
** worker, the calling thread, where every validation is seen.
*/
#include <astar/astar.h>
#include <astar/batch.h>
#include <astar/finder.h>
#include <astar/grid_space.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/randmap.h"

#ifndef ASTAR_TEST_COUNTERS
#error "test_batch_finder needs the test build of the library (astar_counted)"
#endif
uint64_t astar__test_validations(void);

#define NQ 40

/* What a map's methods may be prepared from. */
typedef struct prep {
  astar_jps_plus *jps_plus;
  astar_cpd *cpd;
  astar_hpa *hpa;
  astar_subgoal *sg; /* NULL with terrain */
} prep;

static void prep_make(prep *p, const astar_grid *g, const astar_options *o) {
  memset(p, 0, sizeof *p);
  (void)astar_jps_plus_new(&p->jps_plus, g, NULL);
  (void)astar_cpd_build(&p->cpd, g, NULL, NULL);
  (void)astar_hpa_new(&p->hpa, g, o, NULL, NULL);
  (void)astar_subgoal_build(&p->sg, g, NULL, NULL);
}

static void prep_free(prep *p) {
  astar_jps_plus_free(p->jps_plus);
  astar_cpd_free(p->cpd);
  astar_hpa_free(p->hpa);
  astar_subgoal_free(p->sg);
}

static void queries_for(const astar_grid *g, rng *r, astar_query *q, size_t n) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (size_t i = 0; i < n; i++) {
    if (i % 13 == 5) { /* now and then an end outside or blocked */
      q[i].start = (astar_point){rng_range(r, -1, w), rng_range(r, 0, h - 1)};
      q[i].goal = (astar_point){rng_range(r, 0, w - 1), rng_range(r, 0, h - 1)};
    } else {
      q[i].start = randmap_passable_cell(g, r);
      q[i].goal = randmap_passable_cell(g, r);
    }
  }
}

static bool same_result(const astar_path_result *a, const astar_path_result *b) {
  return a->status == b->status && a->cost == b->cost && a->length == b->length &&
         a->stats.expanded == b->stats.expanded && a->stats.generated == b->stats.generated &&
         a->work == b->work && a->end.x == b->end.x && a->end.y == b->end.y;
}

/* One batch of `f` on `threads` workers against one-shot searches. vec:
** the paths as vectors (astar_batch_find_vec). */
static void compare(const astar_finder *f, const astar_query *q, size_t n, unsigned threads,
                    size_t stride, bool vec, const char *what) {
  const astar_grid *g = astar_finder_grid(f);
  astar_batch *b = NULL;
  astar_workspace *ws = NULL;
  astar_path_result *res = calloc(n, sizeof *res);
  astar_point *paths = calloc(n * (stride ? stride : 1), sizeof *paths);
  astar_vec2 *vpaths = calloc(n * (stride ? stride : 1), sizeof *vpaths);
  /* The one-shot reference writes its path whatever the batch keeps: a
  ** batch without slots must still give every method's full result (HPA*
  ** costs only the path it writes). */
  const size_t rcap =
      stride ? stride : (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
  astar_point *ref = calloc(rcap, sizeof *ref);
  astar_vec2 *vref = calloc(rcap, sizeof *vref);
  CHECK_EQ(astar_batch_new(&b, g, threads, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new_empty(&ws, NULL), ASTAR_OK);
  if (!b || !ws || !res || !paths || !vpaths || !ref || !vref) goto done;
  unsigned used = 0;
  const astar_status st =
      vec ? astar_batch_find_vec(b, f, q, n, res, stride ? vpaths : NULL, stride, &used)
          : astar_batch_find(b, f, q, n, res, stride ? paths : NULL, stride, &used);
  CHECKF(st == ASTAR_OK, "%s: %s", what, astar_strerror(st));
  CHECK_EQ(used, threads < n ? threads : n);
  /* Anya's one-shot searches give vectors whatever the batch call. */
  const astar_method_info *info = astar_method_info_of(astar_finder_config_of(f)->method);
  const bool ref_vec = vec || (info->flags & ASTAR_MF_VEC);
  int bad = 0;
  for (size_t i = 0; st == ASTAR_OK && i < n && bad < 3; i++) {
    astar_path_result want;
    astar_status ws_st =
        ref_vec ? astar_finder_find_vec(f, ws, q[i].start, q[i].goal, vref, rcap, &want)
                : astar_finder_find(f, ws, q[i].start, q[i].goal, ref, rcap, &want);
    if (ws_st == ASTAR_BUFFER_TOO_SMALL && stride == 0) want.status = ASTAR_OK;
    bool same = same_result(&res[i], &want);
    if (same && stride && (want.status == ASTAR_OK || want.status == ASTAR_PARTIAL))
      for (size_t k = 0; k < want.length; k++)
        same = same &&
               (vec ? vpaths[i * stride + k].x == vref[k].x && vpaths[i * stride + k].y == vref[k].y
                    : paths[i * stride + k].x == ref[k].x && paths[i * stride + k].y == ref[k].y);
    if (!same) {
      bad++;
      FAILF("%s, %u threads, stride %zu, query %zu (%d,%d)->(%d,%d): batch %s cost %.17g len %zu "
            "exp %llu, one-shot %s cost %.17g len %zu exp %llu",
            what, threads, stride, i, q[i].start.x, q[i].start.y, q[i].goal.x, q[i].goal.y,
            astar_strerror(res[i].status), res[i].cost, res[i].length,
            (unsigned long long)res[i].stats.expanded, astar_strerror(want.status), want.cost,
            want.length, (unsigned long long)want.stats.expanded);
    }
  }
done:
  astar_workspace_free(ws);
  astar_batch_free(b);
  free(vref), free(ref), free(vpaths), free(paths), free(res);
}

/* Every method on a few maps: the batch equals one-shot finder searches. */
static void test_every_method(void) {
  rng r;
  rng_seed(&r, 2026);
  int ran[ASTAR_METHOD_COUNT] = {0};
  for (int map = 0; map < 4; map++) {
    /* Maps 0, 1: uniform costs (every method); 2, 3: terrain. IDA* runs
    ** on the small uniform one only (its work grows fast with real-valued
    ** costs: 20 s on the small terrain map). */
    const bool small = map % 2 == 0;
    randmap_spec spec = {small ? 12 : 28, small ? 10 : 18, 0.25, map >= 2, 0.4, 3.0};
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_options_init(&o);
    prep p;
    prep_make(&p, g, &o);
    astar_query q[NQ];
    queries_for(g, &r, q, NQ);
    const size_t cells = (size_t)spec.width * (size_t)spec.height;
    for (int m = 0; m < ASTAR_METHOD_COUNT; m++) {
      const astar_method_info *info = astar_method_info_of((astar_method)m);
      if (!info || !(info->flags & ASTAR_MF_GRID)) continue;
      if (m == ASTAR_METHOD_IDA && map != 0) continue;
      astar_finder_config cfg;
      astar_finder_config_init(&cfg);
      cfg.method = (astar_method)m;
      cfg.options = o;
      if (info->needs & ASTAR_ATTACH_JPS_PLUS) cfg.jps_plus = p.jps_plus;
      if (info->needs & ASTAR_ATTACH_CPD) cfg.cpd = p.cpd;
      if (info->needs & ASTAR_ATTACH_HPA) cfg.hpa = p.hpa;
      /* A subgoal graph is the argument of its finder's constructor. */
      const bool sg = m == ASTAR_METHOD_SUBGOAL && p.sg;
      if (sg ? astar_finder_subgoal_unsupported_reason(g, &cfg)
             : astar_finder_unsupported_reason(g, NULL, &cfg))
        continue; /* terrain for JPS, ... */
      astar_finder *f = NULL;
      const astar_status fs = sg ? astar_finder_new_subgoal(&f, g, p.sg, &cfg, NULL)
                                 : astar_finder_new(&f, g, &cfg, NULL);
      CHECKF(fs == ASTAR_OK, "%s on map %d: %s", info->name, map, astar_strerror(fs));
      if (!f) continue;
      ran[m]++;
      const bool vec = (info->flags & ASTAR_MF_VEC) != 0;
      static const unsigned threads[] = {1, 2, 5};
      for (int t = 0; t < 3; t++) {
        compare(f, q, NQ, threads[t], t == 1 ? 0 : cells + 1, vec, info->name);
        if (vec)
          compare(f, q, NQ, threads[t], 0, false, info->name); /* costs only, cell call */
        else if (t == 2)
          compare(f, q, NQ, threads[t], cells + 1, true, info->name); /* centres */
      }
      astar_finder_free(f);
    }
    prep_free(&p);
    astar_grid_free(g);
  }
  for (int m = 0; m < ASTAR_METHOD_COUNT; m++) {
    const astar_method_info *info = astar_method_info_of((astar_method)m);
    if (info && (info->flags & ASTAR_MF_GRID))
      CHECKF(ran[m] >= (m == ASTAR_METHOD_IDA ? 1 : 2), "%s ran on %d maps only", info->name,
             ran[m]);
  }
}

/* The engine's methods over a space (the grid as a space): node batches
** equal one-shot astar_finder_find_nodes. */
static void test_space_methods(void) {
  rng r;
  rng_seed(&r, 99);
  randmap_spec spec = {12, 10, 0.25, 0, 0.0, 1.0}; /* small, uniform: IDA* too */
  astar_grid *g = NULL;
  CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
  if (!g) return;
  astar_options o;
  astar_options_init(&o);
  astar_grid_space holder;
  astar_space sp;
  CHECK_EQ(astar_grid_space_init(&sp, &holder, g, &o), ASTAR_OK);
  astar_node_query q[NQ];
  for (size_t i = 0; i < NQ; i++) {
    q[i].start = astar_grid_space_node(&holder, randmap_passable_cell(g, &r));
    q[i].goal = astar_grid_space_node(&holder, randmap_passable_cell(g, &r));
  }
  const size_t cap = (size_t)spec.width * (size_t)spec.height + 1;
  astar_path_result res[NQ];
  astar_node *paths = calloc(NQ * cap, sizeof *paths), *ref = calloc(cap, sizeof *ref);
  astar_batch *b = NULL;
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_batch_new(&b, g, 3, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new_empty(&ws, NULL), ASTAR_OK);
  int ran = 0;
  for (int m = 0; paths && ref && b && ws && m < ASTAR_METHOD_COUNT; m++) {
    const astar_method_info *info = astar_method_info_of((astar_method)m);
    if (!info || !(info->flags & ASTAR_MF_SPACE)) continue;
    astar_finder_config cfg;
    astar_finder_config_init(&cfg);
    cfg.method = (astar_method)m;
    astar_finder *f = NULL;
    if (astar_finder_new_space(&f, &sp, &cfg, NULL) != ASTAR_OK) {
      FAILF("%s: no space finder", info->name);
      continue;
    }
    ran++;
    CHECK_EQ(astar_batch_find_nodes(b, f, q, NQ, res, paths, cap, NULL), ASTAR_OK);
    for (size_t i = 0; i < NQ; i++) {
      astar_path_result want;
      (void)astar_finder_find_nodes(f, ws, q[i].start, q[i].goal, ref, cap, &want);
      bool same = same_result(&res[i], &want);
      for (size_t k = 0; same && want.status == ASTAR_OK && k < want.length; k++)
        same = paths[i * cap + k] == ref[k];
      if (!same)
        FAILF("%s over a space, query %zu: batch %s %.17g, one-shot %s %.17g", info->name, i,
              astar_strerror(res[i].status), res[i].cost, astar_strerror(want.status), want.cost);
    }
    /* A space finder on the grid calls, a grid finder on the node call. */
    astar_query gq = {{0, 0}, {1, 1}};
    CHECK_EQ(astar_batch_find(b, f, &gq, 1, res, NULL, 0, NULL), ASTAR_INVALID_ARGUMENT);
    CHECK_EQ(astar_batch_find_vec(b, f, &gq, 1, res, NULL, 0, NULL), ASTAR_INVALID_ARGUMENT);
    astar_finder_free(f);
  }
  CHECK(ran >= 8);
  astar_workspace_free(ws);
  astar_batch_free(b);
  free(ref), free(paths);
  astar_grid_free(g);
}

/* HPA* costs only the path it writes: a batch without path slots still
** gives its costs (the batch writes each path to a buffer of its own). */
static void test_costs_without_slots(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 40, 30, NULL), ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  astar_hpa *hpa = NULL;
  CHECK_EQ(astar_hpa_new(&hpa, g, &o, NULL, NULL), ASTAR_OK);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_HPA;
  cfg.hpa = hpa;
  astar_finder *f = NULL;
  CHECK_EQ(astar_finder_new(&f, g, &cfg, NULL), ASTAR_OK);
  astar_batch *b = NULL;
  CHECK_EQ(astar_batch_new(&b, g, 2, NULL), ASTAR_OK);
  if (f && b) {
    const astar_query q[2] = {{{0, 0}, {39, 0}}, {{0, 0}, {0, 29}}};
    astar_path_result res[2];
    CHECK_EQ(astar_batch_find(b, f, q, 2, res, NULL, 0, NULL), ASTAR_OK);
    CHECK(res[0].status == ASTAR_OK && res[0].cost == 39.0 && res[0].length == 40);
    CHECK(res[1].status == ASTAR_OK && res[1].cost == 29.0 && res[1].length == 30);
  }
  astar_batch_free(b);
  astar_finder_free(f);
  astar_hpa_free(hpa);
  astar_grid_free(g);
}

/* Bad arguments, Anya's points in cell slots, short slots, staleness. */
static void test_statuses(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 16, 8, NULL), ASTAR_OK);
  astar_batch *b = NULL;
  CHECK_EQ(astar_batch_new(&b, g, 2, NULL), ASTAR_OK);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  astar_finder *f = NULL, *anya = NULL, *jp = NULL;
  CHECK_EQ(astar_finder_new(&f, g, &cfg, NULL), ASTAR_OK);
  cfg.method = ASTAR_METHOD_ANYA;
  CHECK_EQ(astar_finder_new(&anya, g, &cfg, NULL), ASTAR_OK);
  astar_jps_plus *pre = NULL;
  CHECK_EQ(astar_jps_plus_new(&pre, g, NULL), ASTAR_OK);
  cfg.method = ASTAR_METHOD_JPS_PLUS;
  cfg.jps_plus = pre;
  CHECK_EQ(astar_finder_new(&jp, g, &cfg, NULL), ASTAR_OK);
  if (!g || !b || !f || !anya || !jp) goto done;
  const astar_query q[3] = {{{0, 0}, {15, 0}}, {{0, 0}, {3, 0}}, {{2, 2}, {2, 2}}};
  astar_path_result res[3];
  astar_point paths[3 * 8];
  unsigned used = 99;
  CHECK_EQ(astar_batch_find(b, f, q, 3, res, paths, 8, &used), ASTAR_OK);
  CHECK_EQ(used, 2);
  CHECK_EQ(res[0].status, ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(res[0].length, 16);
  CHECK(res[1].status == ASTAR_OK && res[1].length == 4 && paths[11].x == 3);
  CHECK(res[2].status == ASTAR_OK && paths[16].x == 2 && paths[16].y == 2);
  CHECK_EQ(astar_batch_find(b, f, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK(res[0].status == ASTAR_OK && res[0].cost == 15.0);
  /* Anya: no cells (vectors only), costs without slots. */
  CHECK_EQ(astar_batch_find(b, anya, q, 3, res, paths, 8, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find(b, anya, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK(res[0].status == ASTAR_OK && res[0].cost == 15.0 && res[0].length == 2);
  astar_vec2 v[3 * 4];
  CHECK_EQ(astar_batch_find_vec(b, anya, q, 3, res, v, 4, NULL), ASTAR_OK);
  CHECK(res[0].status == ASTAR_OK && v[1].x == 15.5);
  /* Bad arguments; nothing written. */
  CHECK_EQ(astar_batch_find(NULL, f, q, 3, res, NULL, 0, &used), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(used, 0);
  CHECK_EQ(astar_batch_find(b, NULL, q, 3, res, NULL, 0, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find(b, f, NULL, 3, res, NULL, 0, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find(b, f, q, 3, NULL, NULL, 0, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find(b, f, q, 3, res, NULL, 4, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find(b, f, q, SIZE_MAX / 2, res, paths, 4, NULL), ASTAR_INVALID_ARGUMENT);
  const astar_node_query nq = {0, 1};
  CHECK_EQ(astar_batch_find_nodes(b, f, &nq, 1, res, NULL, 0, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_batch_find(b, f, q, 0, res, NULL, 0, &used), ASTAR_OK);
  CHECK_EQ(used, 0);
  /* An edit: the JPS+ finder is stale in every slot, the plain one follows. */
  CHECK_EQ(astar_grid_set_passable(g, 8, 4, false), ASTAR_OK);
  CHECK_EQ(astar_batch_find(b, jp, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK(res[0].status == ASTAR_STALE && res[1].status == ASTAR_STALE &&
        res[2].status == ASTAR_STALE);
  CHECK_EQ(astar_batch_find(b, f, q, 3, res, NULL, 0, NULL), ASTAR_OK);
  CHECK(res[0].status == ASTAR_OK && res[0].cost == 15.0);
done:
  astar_finder_free(jp);
  astar_finder_free(anya);
  astar_finder_free(f);
  astar_jps_plus_free(pre);
  astar_batch_free(b);
  astar_grid_free(g);
}

/* Options validations a batch makes, seen on the calling thread (one
** worker): one for the whole of astar_batch_find_paths, whatever n; none for
** a finder's batch; the finder validated when it was made. */
static void test_validations(void) {
  rng r;
  rng_seed(&r, 7);
  randmap_spec spec = {32, 24, 0.2, 0, 0.0, 1.0};
  astar_grid *g = NULL;
  CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
  astar_batch *b = NULL;
  CHECK_EQ(astar_batch_new(&b, g, 1, NULL), ASTAR_OK);
  astar_jps_plus *pre = NULL;
  CHECK_EQ(astar_jps_plus_new(&pre, g, NULL), ASTAR_OK);
  if (!g || !b || !pre) goto done;
  astar_query q[NQ];
  queries_for(g, &r, q, NQ);
  astar_batch_result old[NQ];
  astar_path_result res[NQ];
  astar_options o;
  astar_options_init(&o);
  for (int kind = 0; kind < 3; kind++) { /* A*, JPS, JPS+ */
    o.algorithm = kind == 1 ? ASTAR_ALGO_JPS : ASTAR_ALGO_ASTAR;
    const uint64_t before = astar__test_validations();
    CHECK_EQ(astar_batch_find_paths(b, g, kind == 2 ? pre : NULL, &o, q, NQ, old, NULL, 0, NULL),
             ASTAR_OK);
    const uint64_t made = astar__test_validations() - before;
    CHECKF(made == 1, "astar_batch_find_paths (%s), %d queries: %llu validations",
           kind == 0   ? "A*"
           : kind == 1 ? "JPS"
                       : "JPS+",
           NQ, (unsigned long long)made);
  }
  /* Invalid options: refused by that one validation, as before. */
  o.moves = 5;
  CHECK_EQ(astar_batch_find_paths(b, g, NULL, &o, q, NQ, old, NULL, 0, NULL),
           ASTAR_INVALID_ARGUMENT);
  for (int m = 0; m < ASTAR_METHOD_COUNT; m++) {
    const astar_method_info *info = astar_method_info_of((astar_method)m);
    if (!info || !(info->flags & ASTAR_MF_GRID) || info->needs) continue;
    astar_finder_config cfg;
    astar_finder_config_init(&cfg);
    cfg.method = (astar_method)m;
    astar_finder *f = NULL;
    uint64_t before = astar__test_validations();
    if (astar_finder_new(&f, g, &cfg, NULL) != ASTAR_OK) {
      FAILF("%s: no finder", info->name);
      continue;
    }
    const uint64_t made = astar__test_validations() - before;
    CHECKF(made >= 1 && made <= 2, "%s: %llu validations to make", info->name,
           (unsigned long long)made);
    before = astar__test_validations();
    CHECK_EQ(astar_batch_find(b, f, q, NQ, res, NULL, 0, NULL), ASTAR_OK);
    CHECKF(astar__test_validations() == before, "%s: %llu validations in a batch of %d", info->name,
           (unsigned long long)(astar__test_validations() - before), NQ);
    astar_finder_free(f);
  }
done:
  astar_jps_plus_free(pre);
  astar_batch_free(b);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_every_method);
  RUN(test_space_methods);
  RUN(test_costs_without_slots);
  RUN(test_statuses);
  RUN(test_validations);
  return check_summary();
}
