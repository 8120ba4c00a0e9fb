/*
** test_finder.c -- one query, any method (astar/finder.h, issue 26 part 1).
** Linked against the test build of the library (astar_counted:
** ASTAR_TEST_COUNTERS), which counts options validations.
**
**   validations   a single query validates its options at most once, by
**                 every direct entry point of the grid and the engine.
*/
#include <astar/astar.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#ifndef ASTAR_TEST_COUNTERS
#error "test_finder needs the test build of the library (astar_counted)"
#endif
uint64_t astar__test_validations(void);

#define P(x, y) ((astar_point){(x), (y)})

static astar_point pathbuf[1 << 16];

/* An open 32 x 32 map with a wall and a gap: every method finds a path. */
static astar_grid *wall_map(void) {
  astar_grid *g = NULL;
  if (astar_grid_new(&g, 32, 32, NULL) != ASTAR_OK) return NULL;
  for (int32_t y = 0; y < 28; y++) astar_grid_set_passable(g, 16, y, false);
  return g;
}

/* Options validations a single query makes through each direct entry point
** (issue 26: at most one; the grid's A*, JPS and JPS+ made two before). */
static void test_direct_validations(void) {
  astar_grid *g = wall_map();
  astar_workspace *ws = NULL;
  CHECK(g && astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  if (!g || !ws) return;
  astar_options o;
  astar_options_init(&o);
  const astar_point s = P(2, 3), t = P(29, 4);
  astar_result r;
  uint64_t before = astar__test_validations();
  CHECK(astar_find_path(ws, g, &o, s, t, pathbuf, 4096, &r) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "A*: %llu validations",
         (unsigned long long)(astar__test_validations() - before));

  o.algorithm = ASTAR_ALGO_JPS;
  before = astar__test_validations();
  CHECK(astar_find_path(ws, g, &o, s, t, pathbuf, 4096, &r) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "JPS: %llu validations",
         (unsigned long long)(astar__test_validations() - before));
  o.algorithm = ASTAR_ALGO_ASTAR;

  astar_jps_plus *jp = NULL;
  CHECK(astar_jps_plus_new(&jp, g, NULL) == ASTAR_OK);
  before = astar__test_validations();
  CHECK(astar_jps_plus_find_path(ws, jp, g, &o, s, t, pathbuf, 4096, &r) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "JPS+: %llu validations",
         (unsigned long long)(astar__test_validations() - before));
  astar_jps_plus_free(jp);

  astar_anyangle_result ar;
  before = astar__test_validations();
  CHECK(astar_anyangle_find_path(ws, g, &o, ASTAR_ANYANGLE_THETA, s, t, pathbuf, 4096, &ar) ==
        ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "Theta*: %llu validations",
         (unsigned long long)(astar__test_validations() - before));

  astar_grid_space holder;
  astar_space sp;
  CHECK(astar_grid_space_init(&sp, &holder, g, &o) == ASTAR_OK);
  CHECK(astar_workspace_reserve_space(ws, &sp, 0) == ASTAR_OK);
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  astar_engine_result er;
  static astar_node nodes[4096];
  before = astar__test_validations();
  CHECK(astar_space_find_path(ws, &sp, &eo, astar_grid_space_node(&holder, s),
                              astar_grid_space_node(&holder, t), nodes, 4096, &er) == ASTAR_OK);
  CHECKF(astar__test_validations() - before <= 1, "engine: %llu validations",
         (unsigned long long)(astar__test_validations() - before));

  astar_hpa *hpa = NULL;
  astar_hpa_query *hq = NULL;
  CHECK(astar_hpa_new(&hpa, g, &o, NULL, NULL) == ASTAR_OK);
  CHECK(astar_hpa_query_new(&hq, hpa, NULL) == ASTAR_OK);
  astar_hpa_result hr;
  before = astar__test_validations();
  CHECK(astar_hpa_find_path(hq, hpa, g, s, t, pathbuf, 4096, &hr) == ASTAR_OK);
  CHECKF(astar__test_validations() - before == 0, "HPA*: %llu validations",
         (unsigned long long)(astar__test_validations() - before));
  astar_hpa_query_free(hq);
  astar_hpa_free(hpa);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_direct_validations);
  return check_summary();
}
