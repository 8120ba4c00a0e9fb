/*
** test_web_walk.c -- the playground's walk mode (web/bridge.c, pg_walk_*),
** compiled natively: a unit walks on random maps while random cells are
** blocked, freed and re-costed around it, with each replanner (D* Lite,
** repeated A*, path splicing). After every repair the planner's path must
** be a legal walk from the unit's cell to the goal, its cost the reference
** Dijkstra's on the edited map (splicing: no less), and the bridge's fresh
** A* must agree with the reference too.
** Every step the unit takes must be a legal move on the map of that moment.
** Also the bridge's refusals (hex mode, a bigger unit, an unknown kind) and
** argument checks.
*/
#include "../web/bridge.c"

#include "check.h"
#include "util/dijkstra.h"
#include "util/validate.h"

static uint32_t rng_state = 0x2545f491u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state % n;
}

/* The reference cost from a to b on the bridge's grid (INFINITY: none). */
static double reference(pg_state *s, astar_point a, astar_point b) {
  const double d = ref_dijkstra(s->grid, &s->walk->opt, a, b);
  return d < 0 ? INFINITY : d;
}

static int walks, repairs, moves;

/* One walk of `kind` on a random w x h map under the movement rule `rule`. */
static void one_walk(int32_t kind, int rule) {
  const int32_t w = 12 + (int32_t)rnd(20), h = 8 + (int32_t)rnd(14);
  pg_state *s = pg_new(w, h);
  CHECK(s != NULL);
  if (!s) return;
  static const int32_t moves8[][2] = {{8, 0}, {8, 1}, {8, 2}, {8, 3}, {4, 0}};
  CHECK_EQ(pg_set_options(s, moves8[rule][0], moves8[rule][1], 1, 1.4142135623730951, 0, 1, 0, 0, 0,
                          0, 0),
           ASTAR_OK);
  for (int32_t k = 0; k < w * h / 4; k++)
    pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h),
                rnd(3) ? 0 : 2 + (int32_t)rnd(7));
  const astar_point goal = {w - 1, h - 1};
  astar_point unit = {0, 0};
  pg_set_cell(s, 0, 0, 1);
  pg_set_cell(s, goal.x, goal.y, 1);
  CHECK_EQ(pg_walk_new(s, kind, 0, 0, goal.x, goal.y), ASTAR_OK);
  if (!s->walk) {
    pg_free(s);
    return;
  }
  walks++;
  for (int step = 0; step < 4 * (w + h); step++) {
    if (rnd(3) == 0) { /* an edit batch near or far */
      int32_t changed[8];
      int32_t n = 0;
      for (uint32_t k = 1 + rnd(8); k > 0; k--) {
        const int32_t x = (int32_t)rnd((uint32_t)w), y = (int32_t)rnd((uint32_t)h);
        if ((x == unit.x && y == unit.y) || (x == goal.x && y == goal.y)) continue;
        pg_set_cell(s, x, y, rnd(2) ? 0 : 1 + (int32_t)rnd(6));
        changed[n++] = y * w + x;
      }
      CHECK_EQ(pg_walk_changed(s, changed, n), ASTAR_OK);
    }
    const double before = pg_walk_stat(s, 3);
    const int st = pg_walk_plan(s);
    const double ref = reference(s, unit, goal);
    const int32_t len = pg_walk_path_length(s);
    const astar_point *p = pg_walk_path(s);
    if (pg_walk_stat(s, 3) != before) { /* a repair: its cost and the fresh A*'s */
      repairs++;
      const double cost = pg_walk_stat(s, 8), fresh = pg_walk_stat(s, 10);
      if (!(isinf(ref) ? isinf(fresh) : cost_equal(fresh, ref)))
        FAILF("kind %d: fresh A* %.17g, reference %.17g", kind, fresh, ref);
      const bool ok = isinf(ref)                 ? isinf(cost)
                      : kind == PG_REPLAN_SPLICE ? cost >= ref - 1e-9 * ref
                                                 : cost_equal(cost, ref);
      if (!ok) FAILF("kind %d: repair cost %.17g, reference %.17g", kind, cost, ref);
      char err[160];
      if (st == ASTAR_OK &&
          !validate_path(s->grid, &s->walk->opt, unit, goal, p, (size_t)len, cost, err, sizeof err))
        FAILF("kind %d: repaired path: %s", kind, err);
      /* The touched cells: in range, each once. */
      const int32_t nt = pg_walk_touched_count(s);
      const int32_t *t = pg_walk_touched(s);
      for (int32_t i = 0; i < nt; i++)
        if (t[i] < 0 || t[i] >= w * h || s->walk->stamp[t[i]] != s->walk->epoch)
          FAILF("kind %d: touched cell %d", kind, t[i]);
      if (kind == PG_REPLAN_ASTAR && st == ASTAR_OK && pg_walk_stat(s, 0) > 0 && nt == 0)
        FAILF("repeated A* searched but touched nothing");
    } else if (st == ASTAR_OK) {
      char err[160];
      if (!validate_walk(s->grid, &s->walk->opt, p, (size_t)len, NULL, NULL, err, sizeof err) ||
          p[0].x != unit.x || p[0].y != unit.y || p[len - 1].x != goal.x || p[len - 1].y != goal.y)
        FAILF("kind %d: path followed: %s", kind, err);
    }
    if (st != ASTAR_OK) {
      if (!isinf(ref)) FAILF("kind %d: status %d but the reference reaches G", kind, st);
      break;
    }
    if (len == 1) break; /* at the goal */
    char err[160];
    if (!validate_step(s->grid, &s->walk->opt, unit, p[1], NULL, err, sizeof err))
      FAILF("kind %d: step: %s", kind, err);
    unit = p[1];
    moves++;
    CHECK_EQ(pg_walk_move(s, unit.x, unit.y), ASTAR_OK);
  }
  pg_free(s);
}

static void test_walks(void) {
  for (int32_t kind = 0; kind < PG_REPLAN_COUNT; kind++) {
    for (int round = 0; round < 40; round++) one_walk(kind, round % 5);
  }
  CHECK(walks > 0 && repairs > walks && moves > walks);
  printf("walks %d, repairs %d, moves %d (replanners 0x%x)\n", walks, repairs, moves,
         (unsigned)pg_walk_kinds());
}

static void test_refusals(void) {
  pg_state *s = pg_new(10, 6);
  CHECK(s != NULL);
  if (!s) return;
  CHECK_EQ(pg_walk_kinds(), (1 << PG_REPLAN_COUNT) - 1);
  CHECK_EQ(pg_walk_new(s, PG_REPLAN_COUNT, 0, 0, 9, 5), ASTAR_UNSUPPORTED);
  CHECK_EQ(pg_walk_new(s, PG_REPLAN_ASTAR, 0, 0, 10, 5), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(pg_walk_move(s, 1, 1), ASTAR_INVALID_ARGUMENT); /* no walk */
  CHECK_EQ(pg_walk_plan(s), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_walk_stat(s, 0), -1);
  CHECK_EQ(pg_walk_path_length(s), 0);
  CHECK_EQ(pg_set_unit(s, 2), ASTAR_OK);
  CHECK_EQ(pg_walk_new(s, PG_REPLAN_ASTAR, 0, 0, 9, 5), ASTAR_UNSUPPORTED);
  CHECK_EQ(pg_set_unit(s, 1), ASTAR_OK);
  CHECK_EQ(pg_set_geometry(s, PG_HEX, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_walk_new(s, PG_REPLAN_ASTAR, 0, 0, 9, 5), ASTAR_UNSUPPORTED);
  CHECK_EQ(pg_set_geometry(s, PG_SQUARE, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_walk_new(s, PG_REPLAN_ASTAR, 0, 0, 9, 5), ASTAR_OK);
  const int32_t bad[] = {3, 60};
  CHECK_EQ(pg_walk_changed(s, bad, 2), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(pg_walk_move(s, 10, 0), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(pg_walk_plan(s), ASTAR_OK);
  CHECK_EQ(pg_walk_path_length(s), 10); /* (0,0) .. (9,5): 9 moves */
  /* The goal walled in: no path, reported as such. */
  pg_set_cell(s, 8, 5, 0);
  pg_set_cell(s, 8, 4, 0);
  pg_set_cell(s, 9, 4, 0);
  const int32_t walled[] = {5 * 10 + 8, 4 * 10 + 8, 4 * 10 + 9};
  CHECK_EQ(pg_walk_changed(s, walled, 3), ASTAR_OK);
  CHECK_EQ(pg_walk_plan(s), ASTAR_NO_PATH);
  CHECK_EQ(pg_walk_path_length(s), 0);
  CHECK(isinf(pg_walk_stat(s, 8)) && isinf(pg_walk_stat(s, 10)));
  /* A new grid ends walk mode. */
  CHECK_EQ(pg_resize(s, 12, 7), ASTAR_OK);
  CHECK(s->walk == NULL);
  pg_walk_end(s); /* harmless when off */
  pg_free(s);
}

int main(void) {
  RUN(test_walks);
  RUN(test_refusals);
  return check_summary();
}
