/*
** test_web_finder.c -- the playground's searches go through the finder
** (web/bridge.c, selected_method / selected_finder; issue 26 item 3),
** compiled natively: on random maps, every selection the page offers on a
** square grid -- A*, JPS, JPS+, Theta*, Lazy Theta*, Anya, HPA*, A* with
** landmarks and each of the engine's methods -- gives through pg_run the
** status, cost, length and statistics of a finder the test prepares itself
** for the same method (astar_finder_new with its own precomputations), the
** optimal ones A*'s cost, and the recording run the same result; on hex
** grids the engine's methods equal a space finder over astar_hex_space.
** Also: the method list is the library's table (pg_method_*), the refusals
** are the finder's sentences (pg_unsupported_reason), and bidirectional
** search reports where its two searches met without recording events (the
** finder's astar_path_result.meet).
*/
#include "../web/bridge.c"

#include "check.h"

static uint32_t rng_state = 0x6a09e667u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state % n;
}

#define SQRT2 1.4142135623730951

/* The page's selections on a square grid: a PG_ALGO_* value and, for
** PG_ALGO_ENGINE, the engine's method. */
typedef struct selection {
  int32_t algorithm;
  astar_method method; /* what pg_method must say */
} selection;

static const selection selections[] = {
    {PG_ALGO_ASTAR, ASTAR_METHOD_ASTAR},
    {PG_ALGO_JPS, ASTAR_METHOD_JPS},
    {PG_ALGO_JPS_PLUS, ASTAR_METHOD_JPS_PLUS},
    {PG_ALGO_THETA, ASTAR_METHOD_THETA},
    {PG_ALGO_LAZY_THETA, ASTAR_METHOD_LAZY_THETA},
    {PG_ALGO_ANYA, ASTAR_METHOD_ANYA},
    {PG_ALGO_HPA, ASTAR_METHOD_HPA},
    {PG_ALGO_LANDMARKS, ASTAR_METHOD_ASTAR},
    {PG_ALGO_ENGINE, ASTAR_METHOD_DIJKSTRA},
    {PG_ALGO_ENGINE, ASTAR_METHOD_GREEDY},
    {PG_ALGO_ENGINE, ASTAR_METHOD_BIDIRECTIONAL},
    {PG_ALGO_ENGINE, ASTAR_METHOD_IDA},
    {PG_ALGO_ENGINE, ASTAR_METHOD_BEAM},
    {PG_ALGO_ENGINE, ASTAR_METHOD_DYNAMIC},
    {PG_ALGO_ENGINE, ASTAR_METHOD_BANDWIDTH},
    {PG_ALGO_ENGINE, ASTAR_METHOD_FRONT_TO_FRONT},
    {PG_ALGO_ENGINE, ASTAR_METHOD_RETARGETING},
};
#define NSEL (sizeof selections / sizeof selections[0])

/* The page's default options with `algorithm` and the engine's `method`. */
static void select_(pg_state *s, const selection *sel) {
  CHECK_EQ(pg_set_options(s, 8, 0, 1, SQRT2, 0, 1, 0, 0, sel->algorithm, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_set_engine(s, sel->algorithm == PG_ALGO_ENGINE ? (int32_t)sel->method : 0, 64, 0.5, 2,
                         1, 0),
           ASTAR_OK);
}

/* The same query through a finder the test prepares itself (its own
** precomputations), on the bridge's grid: status, result, path. */
static astar_status reference(pg_state *s, const selection *sel, astar_point a, astar_point b,
                              astar_path_result *res, astar_point *path, astar_vec2 *vec,
                              size_t cap) {
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = sel->method;
  cfg.engine.beam_width = 64;
  cfg.engine.epsilon = 0.5;
  cfg.engine.band_e = 2;
  cfg.engine.band_d = 1;
  astar_jps_plus *jpp = NULL;
  astar_hpa *hpa = NULL;
  astar_landmarks *lm = NULL;
  if (sel->algorithm == PG_ALGO_JPS_PLUS) CHECK_EQ(astar_jps_plus_new(&jpp, s->grid, NULL), 0);
  if (sel->algorithm == PG_ALGO_HPA)
    CHECK_EQ(astar_hpa_new(&hpa, s->grid, &cfg.options, &s->hopt, NULL), 0);
  if (sel->algorithm == PG_ALGO_LANDMARKS)
    CHECK_EQ(astar_landmarks_new_grid(&lm, s->grid, &cfg.options, &s->lmopt, NULL), 0);
  cfg.jps_plus = jpp;
  cfg.hpa = hpa;
  cfg.landmarks = lm;
  astar_finder *f = NULL;
  astar_status st = astar_finder_new(&f, s->grid, &cfg, NULL);
  CHECK_EQ(st, ASTAR_OK);
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_workspace_new_empty(&ws, NULL), ASTAR_OK);
  if (st == ASTAR_OK)
    st = sel->method == ASTAR_METHOD_ANYA ? astar_finder_find_vec(f, ws, a, b, vec, cap, res)
                                          : astar_finder_find(f, ws, a, b, path, cap, res);
  astar_workspace_free(ws);
  astar_finder_free(f);
  astar_jps_plus_free(jpp);
  astar_hpa_free(hpa);
  astar_landmarks_free(lm);
  return st;
}

static int queries, found, recorded;

static void one_map(void) {
  const int32_t w = 8 + (int32_t)rnd(30), h = 6 + (int32_t)rnd(20);
  pg_state *s = pg_new(w, h);
  CHECK(s != NULL);
  if (!s) return;
  for (int32_t k = 0; k < w * h / 4; k++)
    pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h), 0);
  const astar_point a = {(int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h)};
  const astar_point b = {(int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h)};
  pg_set_cell(s, a.x, a.y, 1);
  pg_set_cell(s, b.x, b.y, 1);
  const size_t cap = (size_t)w * (size_t)h + 1;
  astar_point *path = malloc(cap * sizeof *path);
  astar_vec2 *vec = malloc(cap * sizeof *vec);
  CHECK(path && vec);
  /* A*'s cost, for the optimal methods. */
  astar_result ar;
  astar_options o;
  astar_options_init(&o);
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_workspace_new_empty(&ws, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_reserve(ws, s->grid), ASTAR_OK);
  const astar_status ast = astar_find_path(ws, s->grid, &o, a, b, path, cap, &ar);
  astar_workspace_free(ws);
  for (size_t i = 0; i < NSEL && path && vec; i++) {
    const selection *sel = &selections[i];
    select_(s, sel);
    CHECK_EQ(pg_method(s), (int32_t)sel->method);
    CHECKF(pg_unsupported_reason(s) == NULL, "%s", pg_unsupported_reason(s));
    astar_path_result res;
    const astar_status want = reference(s, sel, a, b, &res, path, vec, cap);
    for (int record = 0; record < 2; record++) {
      const int st = pg_run(s, a.x, a.y, b.x, b.y, (record ? PG_RUN_RECORD : 0) | PG_RUN_ONCE);
      queries++;
      CHECKF(st == (int)want, "selection %zu record %d: %d, the finder %d", i, record, st,
             (int)want);
      if (st != ASTAR_OK || want != ASTAR_OK) continue;
      found++;
      CHECKF(pg_cost(s) == res.cost, "selection %zu: cost %.17g, the finder %.17g", i, pg_cost(s),
             res.cost);
      CHECK_EQ(pg_path_length(s), (int32_t)res.length);
      CHECK_EQ((uint64_t)pg_stat(s, 0), res.stats.expanded);
      CHECK_EQ((uint64_t)pg_stat(s, 7), res.iterations);
      CHECK_EQ((uint64_t)pg_stat(s, 8), res.dropped);
      if (sel->method == ASTAR_METHOD_ANYA) {
        CHECK_EQ(pg_best_length(s), (int32_t)res.length);
        for (size_t k = 0; k < res.length && (int32_t)k < pg_best_length(s); k++)
          CHECK(pg_best_line(s)[k].x == vec[k].x && pg_best_line(s)[k].y == vec[k].y);
      } else {
        for (size_t k = 0; k < res.length; k++)
          CHECK(pg_path(s)[k].x == path[k].x && pg_path(s)[k].y == path[k].y);
      }
      const astar_method_info *mi = astar_method_info_of(sel->method);
      if ((mi->flags & ASTAR_MF_OPTIMAL) && !(mi->flags & ASTAR_MF_ANY_ANGLE)) {
        CHECK_EQ(ast, ASTAR_OK);
        CHECKF(fabs(pg_cost(s) - ar.cost) <= 1e-9 * ar.cost, "selection %zu: %.17g vs A* %.17g", i,
               pg_cost(s), ar.cost);
      }
      /* Every method but Anya and HPA* reports its nodes. */
      if (record && sel->method != ASTAR_METHOD_ANYA && sel->method != ASTAR_METHOD_HPA) {
        CHECKF(pg_event_count(s) > 0, "selection %zu recorded no events", i);
        recorded++;
      }
    }
  }
  free(path);
  free(vec);
  pg_free(s);
}

static void test_every_selection_through_the_finder(void) {
  for (int m = 0; m < 40; m++) one_map();
  printf("  %d runs, %d with a path equal to the finder's, %d recorded\n", queries, found,
         recorded);
  CHECK(found > queries / 2);
}

static void test_the_method_table(void) {
  CHECK_EQ(pg_method_count(), ASTAR_METHOD_COUNT);
  for (int32_t i = 0; i < pg_method_count(); i++) {
    const astar_method_info *mi = astar_method_info_of((astar_method)i);
    CHECK(mi != NULL && pg_method_name(i) != NULL);
    if (!mi || !pg_method_name(i)) continue;
    CHECK(strcmp(pg_method_name(i), mi->name) == 0);
    CHECK(strcmp(pg_method_summary(i), mi->summary) == 0);
    CHECK(strcmp(pg_method_work(i), mi->work) == 0);
    CHECK_EQ(pg_method_flags(i), (int32_t)mi->flags);
  }
  CHECK(pg_method_name(-1) == NULL && pg_method_name(ASTAR_METHOD_COUNT) == NULL);
  CHECK_EQ(pg_method_flags(ASTAR_METHOD_COUNT), 0);
  pg_state *s = pg_new(6, 4);
  CHECK_EQ(pg_set_options(s, 8, 0, 1, SQRT2, 0, 1, 0, 0, PG_ALGO_DSTAR, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_method(s), -1); /* an incremental planner, not a method of the table */
  pg_free(s);
}

/* The page's refusals are the finder's sentences. */
static void test_refusals_are_the_finders(void) {
  pg_state *s = pg_new(12, 8);
  pg_set_cell(s, 3, 3, 5); /* terrain */
  const selection jps = {PG_ALGO_JPS, ASTAR_METHOD_JPS};
  select_(s, &jps);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_JPS;
  const char *lib = astar_finder_unsupported_reason(s->grid, NULL, &cfg);
  CHECK(lib != NULL && pg_unsupported_reason(s) != NULL);
  if (lib && pg_unsupported_reason(s)) CHECK(strcmp(lib, pg_unsupported_reason(s)) == 0);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_UNSUPPORTED);
  /* JPS+ before its table exists: the same reason as once it does. */
  const selection jpp = {PG_ALGO_JPS_PLUS, ASTAR_METHOD_JPS_PLUS};
  select_(s, &jpp);
  CHECK(s->jpp == NULL && pg_unsupported_reason(s) != NULL);
  if (pg_unsupported_reason(s)) CHECK(strstr(pg_unsupported_reason(s), "terrain") != NULL);
  pg_set_cell(s, 3, 3, 1);
  CHECK(pg_unsupported_reason(s) == NULL);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_OK);
  /* The engine's methods: a cross-product tie order, a turn penalty. */
  const selection bidir = {PG_ALGO_ENGINE, ASTAR_METHOD_BIDIRECTIONAL};
  select_(s, &bidir);
  CHECK_EQ(pg_set_options(s, 8, 0, 1, SQRT2, 0, 1, ASTAR_TIE_CROSS, 0, PG_ALGO_ENGINE, 0, 0),
           ASTAR_OK);
  CHECK(pg_unsupported_reason(s) != NULL && strstr(pg_unsupported_reason(s), "ties") != NULL);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_UNSUPPORTED);
  CHECK_EQ(pg_set_options(s, 8, 0, 1, SQRT2, 0, 1, 0, 0, PG_ALGO_ENGINE, 0, 1.0), ASTAR_OK);
  CHECK(pg_unsupported_reason(s) != NULL &&
        strstr(pg_unsupported_reason(s), "turn penalty") != NULL);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_UNSUPPORTED);
  /* Anya under move costs that are not Euclidean: the finder's refusal. */
  CHECK_EQ(pg_set_options(s, 8, 0, 10, 14, 0, 1, 0, 0, PG_ALGO_ANYA, 0, 0), ASTAR_OK);
  CHECK(pg_unsupported_reason(s) != NULL && strstr(pg_unsupported_reason(s), "anya") != NULL);
  pg_free(s);
}

/* Where bidirectional search met, from the finder's result: set without
** recording, a cell of the path. */
static void test_meeting_node(void) {
  pg_state *s = pg_new(20, 9);
  for (int32_t y = 0; y < 7; y++) pg_set_cell(s, 10, y, 0);
  const selection bidir = {PG_ALGO_ENGINE, ASTAR_METHOD_BIDIRECTIONAL};
  select_(s, &bidir);
  CHECK_EQ(pg_run(s, 0, 0, 19, 0, PG_RUN_ONCE), ASTAR_OK);
  const int32_t meet = pg_meet(s);
  CHECK(meet >= 0);
  bool on_path = false;
  for (int32_t i = 0; i < pg_path_length(s); i++)
    on_path |= pg_path(s)[i].y * 20 + pg_path(s)[i].x == meet;
  CHECK(on_path);
  const selection astar = {PG_ALGO_ASTAR, ASTAR_METHOD_ASTAR};
  select_(s, &astar);
  CHECK_EQ(pg_run(s, 0, 0, 19, 0, PG_RUN_ONCE), ASTAR_OK);
  CHECK_EQ(pg_meet(s), -1); /* ASTAR_NODE_NONE as int32 */
  pg_free(s);
}

/* Hex grids: the engine's methods through a space finder. */
static void test_hex(void) {
  for (int m = 0; m < 10; m++) {
    const int32_t w = 6 + (int32_t)rnd(14), h = 5 + (int32_t)rnd(10);
    pg_state *s = pg_new(w, h);
    CHECK_EQ(pg_set_geometry(s, PG_HEX, 0, 0), ASTAR_OK);
    for (int32_t k = 0; k < w * h / 5; k++)
      pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h),
                  rnd(2) ? 0 : 1 + (int32_t)rnd(5));
    pg_set_cell(s, 0, 0, 1);
    pg_set_cell(s, w - 1, h - 1, 1);
    for (int32_t method = 0; method < ASTAR_METHOD_ENGINE_COUNT; method++) {
      CHECK_EQ(pg_set_options(s, 8, 0, 1, SQRT2, 0, 1, 0, 0, PG_ALGO_ASTAR, 0, 0), ASTAR_OK);
      CHECK_EQ(pg_set_engine(s, method, 64, 0.5, 2, 1, 0), ASTAR_OK);
      CHECK_EQ(pg_method(s), method);
      const int st = pg_run(s, 0, 0, w - 1, h - 1, PG_RUN_RECORD | PG_RUN_ONCE);
      astar_finder_config cfg;
      astar_finder_config_init(&cfg);
      cfg.method = (astar_method)method;
      cfg.engine.method = (astar_method)method;
      cfg.engine.beam_width = 64;
      cfg.engine.epsilon = 0.5;
      cfg.engine.band_e = 2;
      cfg.engine.band_d = 1;
      astar_space sp;
      CHECK_EQ(astar_hex_space(s->hex, &sp), ASTAR_OK);
      astar_finder *f = NULL;
      CHECK_EQ(astar_finder_new_space(&f, &sp, &cfg, NULL), ASTAR_OK);
      astar_workspace *ws = NULL;
      CHECK_EQ(astar_workspace_new_empty(&ws, NULL), ASTAR_OK);
      astar_node nodes[1024];
      astar_path_result res;
      const astar_status want =
          astar_finder_find_nodes(f, ws, 0, (astar_node)((h - 1) * w + (w - 1)), nodes, 1024, &res);
      CHECKF(st == (int)want, "hex method %d: %d, the finder %d", method, st, (int)want);
      if (st == ASTAR_OK && want == ASTAR_OK) {
        CHECK(pg_cost(s) == res.cost);
        CHECK_EQ(pg_path_length(s), (int32_t)res.length);
        CHECK_EQ((uint64_t)pg_stat(s, 0), res.stats.expanded);
      }
      astar_workspace_free(ws);
      astar_finder_free(f);
    }
    pg_free(s);
  }
}

int main(void) {
  RUN(test_the_method_table);
  RUN(test_every_selection_through_the_finder);
  RUN(test_refusals_are_the_finders);
  RUN(test_meeting_node);
  RUN(test_hex);
  return check_summary();
}
