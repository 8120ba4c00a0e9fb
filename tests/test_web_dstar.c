/*
** test_web_dstar.c -- D* Lite as one of the playground's algorithms
** (web/bridge.c, PG_ALGO_DSTAR; issue 25 item 28), compiled natively: on
** random maps with walls and terrain, under every movement rule and for
** units of one and two cells, pg_run with D* Lite must find the cost A*
** finds on the same map (both optimal), its path must be a legal walk from
** S to G of that cost, its recorded events must name each cell it reached
** once, and it must be timed over repeated runs like the other searches.
** Also: the options D* Lite cannot honour are refused with a reason, and a
** blocked goal or a walled-in one is reported as A* reports it.
*/
#include "../web/bridge.c"

#include "check.h"
#include "util/validate.h"

static uint32_t rng_state = 0x9e3779b9u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state % n;
}

static int runs, found;

/* One query on a random w x h map under movement rule `rule`, unit `unit`,
** walls and terrain. */
static void one_query(int rule, int32_t unit) {
  const int32_t w = 10 + (int32_t)rnd(24), h = 6 + (int32_t)rnd(16);
  pg_state *s = pg_new(w, h);
  CHECK(s != NULL);
  if (!s) return;
  static const int32_t rules[][2] = {{8, 0}, {8, 1}, {8, 2}, {8, 3}, {4, 0}};
  for (int32_t k = 0; k < w * h / 4; k++)
    pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h),
                rnd(3) ? 0 : 2 + (int32_t)rnd(7));
  const int32_t sx = (int32_t)rnd((uint32_t)w), sy = (int32_t)rnd((uint32_t)h);
  const int32_t gx = (int32_t)rnd((uint32_t)w), gy = (int32_t)rnd((uint32_t)h);
  pg_set_cell(s, sx, sy, 1);
  pg_set_cell(s, gx, gy, 1);
  CHECK_EQ(pg_set_unit(s, unit), ASTAR_OK);
  /* A* first: the reference. */
  CHECK_EQ(pg_set_options(s, rules[rule][0], rules[rule][1], 1, 1.4142135623730951, 0, 1, 0, 0,
                          PG_ALGO_ASTAR, 0, 0),
           ASTAR_OK);
  const int ast = pg_run(s, sx, sy, gx, gy, 2); /* PG_RUN_ONCE */
  const double acost = pg_cost(s);
  CHECK_EQ(pg_set_options(s, rules[rule][0], rules[rule][1], 1, 1.4142135623730951, 0, 1, 0, 0,
                          PG_ALGO_DSTAR, 0, 0),
           ASTAR_OK);
  CHECK(pg_unsupported_reason(s) == NULL);
  /* Recorded; every tenth query also timed over repeated runs (the
  ** planner restarted, not made again, between them). */
  const int st = pg_run(s, sx, sy, gx, gy, runs % 10 ? 1 | 2 : 1); /* PG_RUN_RECORD, _ONCE */
  runs++;
  if (st != ast) FAILF("rule %d unit %d: D* Lite status %d, A* %d", rule, unit, st, ast);
  CHECK(pg_stat(s, 5) >= 1); /* timed runs */
  if (st == ASTAR_OK && ast == ASTAR_OK) {
    found++;
    if (!cost_equal(pg_cost(s), acost))
      FAILF("rule %d unit %d: D* Lite cost %.17g, A* %.17g", rule, unit, pg_cost(s), acost);
    char err[160];
    const astar_point start = {sx, sy}, goal = {gx, gy};
    if (!validate_path(search_grid(s), &s->opt, start, goal, pg_path(s), (size_t)pg_path_length(s),
                       pg_cost(s), err, sizeof err))
      FAILF("rule %d unit %d: D* Lite path: %s", rule, unit, err);
    CHECK(pg_stat(s, 0) > 0); /* expanded */
  }
  /* The events: each cell reached once, every one inside the grid. */
  const int32_t n = pg_event_count(s);
  const pg_event *ev = pg_events(s);
  uint8_t *seen = calloc((size_t)w * (size_t)h, 1);
  CHECK(seen != NULL);
  if (seen) {
    for (int32_t k = 0; k < n; k++) {
      if (ev[k].type != PG_EVENT_REACHED || ev[k].cell < 0 || ev[k].cell >= w * h ||
          seen[ev[k].cell]++)
        FAILF("rule %d unit %d: event %d: type %d cell %d", rule, unit, k, ev[k].type, ev[k].cell);
    }
    if (st == ASTAR_OK && !seen[gy * w + gx]) FAILF("the goal is not among the cells reached");
    free(seen);
  }
  pg_free(s);
}

static void test_queries(void) {
  for (int round = 0; round < 150; round++) one_query(round % 5, round % 3 == 2 ? 2 : 1);
  CHECK(found > runs / 4);
  printf("D* Lite: %d queries, %d with a path\n", runs, found);
}

static void test_refusals(void) {
  pg_state *s = pg_new(12, 8);
  CHECK(s != NULL);
  if (!s) return;
  /* A turn penalty, and Manhattan with diagonal moves: refused, with a reason. */
  CHECK_EQ(pg_set_options(s, 8, 0, 1, 1.4142135623730951, 0, 1, 0, 0, PG_ALGO_DSTAR, 0, 2),
           ASTAR_OK);
  CHECK(pg_unsupported_reason(s) != NULL && strstr(pg_unsupported_reason(s), "turn penalty"));
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_UNSUPPORTED);
  CHECK_EQ(pg_set_options(s, 8, 0, 1, 1.4142135623730951, ASTAR_H_MANHATTAN, 1, 0, 0, PG_ALGO_DSTAR,
                          0, 0),
           ASTAR_OK);
  CHECK(pg_unsupported_reason(s) != NULL && strstr(pg_unsupported_reason(s), "consistent"));
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_UNSUPPORTED);
  /* Manhattan with 4 moves is consistent. */
  CHECK_EQ(pg_set_options(s, 4, 0, 1, 1.4142135623730951, ASTAR_H_MANHATTAN, 1, 0, 0, PG_ALGO_DSTAR,
                          0, 0),
           ASTAR_OK);
  CHECK(pg_unsupported_reason(s) == NULL);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_OK);
  CHECK(cost_equal(pg_cost(s), 18));
  /* The goal blocked, then walled in but free. */
  pg_set_cell(s, 11, 7, 0);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_GOAL_BLOCKED);
  pg_set_cell(s, 11, 7, 1);
  pg_set_cell(s, 10, 7, 0);
  pg_set_cell(s, 11, 6, 0);
  CHECK_EQ(pg_run(s, 0, 0, 11, 7, 1), ASTAR_NO_PATH);
  CHECK_EQ(pg_path_length(s), 0);
  /* Algorithm numbers past D* Lite are refused. */
  CHECK_EQ(pg_set_options(s, 8, 0, 1, 1.4142135623730951, 0, 1, 0, 0, PG_ALGO_DSTAR + 1, 0, 0),
           ASTAR_INVALID_ARGUMENT);
  /* A new grid drops the planner made on the old one. */
  CHECK(s->dl != NULL);
  CHECK_EQ(pg_resize(s, 9, 9), ASTAR_OK);
  CHECK(s->dl == NULL);
  pg_free(s);
}

int main(void) {
  RUN(test_queries);
  RUN(test_refusals);
  return check_summary();
}
