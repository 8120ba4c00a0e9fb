/*
** test_replan.c -- units following paths and their recompute policies
** (astar/replan.h). Each trigger fires exactly when it should: EVERY after
** N steps walked since the last plan, TURN exactly on the turn points
** astar_path_turn_points computes (checked on random paths of random
** maps), CHANGED after a mark, min_steps delaying all three, NO_PATH and
** BLOCKED whatever the triggers, nothing at the goal or with a request
** pending. Walking refuses an illegal step and counts it; adopting a queue
** result takes it up from the unit's current cell or drops it; planning and
** splicing on the spot adopt their path. Also arguments.
*/
#include <astar/astar.h>
#include <astar/replan.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/randmap.h"
#include "util/validate.h"

static astar_grid *open_grid(int32_t w, int32_t h) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, w, h, NULL) == ASTAR_OK);
  return g;
}

static void test_every_and_change(void) {
  astar_grid *g = open_grid(20, 5);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point a[64], b[64];
  astar_follow f;
  CHECK(astar_follow_init(&f, a, b, 64, (astar_point){0, 2}, (astar_point){19, 2}) == ASTAR_OK);
  astar_replan_policy pol = {0};
  pol.triggers = ASTAR_REPLAN_ON_EVERY;
  pol.every = 3;
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_NO_PATH);
  CHECK(astar_follow_due(&f, NULL) == ASTAR_REPLAN_NO_PATH);
  CHECK(astar_follow_step(&f, g, NULL) == ASTAR_NO_PATH);
  CHECK(astar_follow_plan(&f, ws, g, NULL, NULL) == ASTAR_OK);
  CHECK(f.len == 20 && f.pos == 0 && f.replans == 1);
  for (int k = 1; k <= 10; k++) {
    CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK);
    const astar_replan_reason want = (f.since_plan >= 3) ? ASTAR_REPLAN_EVERY : ASTAR_REPLAN_NONE;
    CHECK(astar_follow_due(&f, &pol) == want);
    if (want == ASTAR_REPLAN_EVERY) {
      CHECK(k % 3 == 0);
      CHECK(astar_follow_plan(&f, ws, g, NULL, NULL) == ASTAR_OK);
      CHECK(f.since_plan == 0 && f.pos == 0 && f.cell.x == k);
    }
  }
  CHECK(f.replans == 4 && f.steps == 10 && cost_equal(f.walked_cost, 10.0));
  /* CHANGED: only with the trigger, only after min_steps. */
  astar_follow_mark_changed(&f);
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_NONE);
  pol.triggers = ASTAR_REPLAN_ON_CHANGE;
  pol.min_steps = 2;
  CHECK(f.since_plan == 1); /* planned at step 9, one step since */
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_NONE);
  CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK);
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_CHANGED);
  /* CHANGED comes before EVERY. */
  pol.triggers |= ASTAR_REPLAN_ON_EVERY;
  pol.every = 1;
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_CHANGED);
  CHECK(astar_follow_plan(&f, ws, g, NULL, NULL) == ASTAR_OK);
  CHECK(!f.changed && astar_follow_due(&f, &pol) == ASTAR_REPLAN_NONE);

  /* BLOCKED whatever the triggers (none here), and the refused step. */
  CHECK(f.cell.x == 11);
  astar_grid_set_passable(g, 12, 2, false);
  CHECK(astar_follow_step(&f, g, NULL) == ASTAR_STALE);
  CHECK(f.cell.x == 11 && f.blocked && f.blocked_steps == 1);
  CHECK(astar_follow_due(&f, NULL) == ASTAR_REPLAN_BLOCKED);
  astar_repair rep;
  CHECK(astar_follow_splice(&f, ws, g, NULL, NULL, &rep) == ASTAR_OK);
  CHECK(rep.kind == ASTAR_REPAIR_SPLICED && !f.blocked && f.pos == 0);
  CHECK(astar_follow_due(&f, NULL) == ASTAR_REPLAN_NONE);
  while (!astar_follow_arrived(&f)) CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK);
  CHECK(f.cell.x == 19 && f.cell.y == 2);
  /* At the goal: nothing due, stepping does nothing. */
  astar_follow_mark_changed(&f);
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_NONE);
  CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK && f.cell.x == 19);
  /* A new goal drops the path. */
  CHECK(astar_follow_set_goal(&f, (astar_point){0, 0}) == ASTAR_OK);
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_NO_PATH);
  /* Goal blocked: the plan fails and the path stays dropped. */
  astar_grid_set_passable(g, 0, 0, false);
  CHECK(astar_follow_plan(&f, ws, g, NULL, NULL) == ASTAR_GOAL_BLOCKED);
  CHECK(f.len == 0 && astar_follow_due(&f, NULL) == ASTAR_REPLAN_NO_PATH);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

/* TURN fires exactly on the interior turn points of the path. */
static void test_turns(void) {
  rng r;
  rng_seed(&r, 77);
  astar_point *a = malloc(1024 * sizeof *a), *b = malloc(1024 * sizeof *b);
  astar_point tp[1024];
  int turns_seen = 0;
  for (int round = 0; round < 200; round++) {
    randmap_spec spec = {24, 24, 0.25, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_follow f;
    CHECK(astar_follow_init(&f, a, b, 1024, s, t) == ASTAR_OK);
    if (astar_follow_plan(&f, ws, g, NULL, NULL) != ASTAR_OK) {
      astar_workspace_free(ws);
      astar_grid_free(g);
      continue;
    }
    size_t m = 0;
    CHECK(astar_path_turn_points(f.path, f.len, tp, 1024, &m) == ASTAR_OK);
    astar_replan_policy pol = {ASTAR_REPLAN_ON_TURN, 0, 0};
    size_t next = 1; /* next interior turn point */
    while (!astar_follow_arrived(&f)) {
      CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK);
      const bool is_turn = next + 1 < m && tp[next].x == f.cell.x && tp[next].y == f.cell.y;
      const astar_replan_reason due = astar_follow_due(&f, &pol);
      CHECKF(due == (is_turn ? ASTAR_REPLAN_TURN : ASTAR_REPLAN_NONE), "round %d pos %zu", round,
             f.pos);
      if (is_turn) next++, turns_seen++;
    }
    CHECK(next + 1 == m || m == 1);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(turns_seen > 100);
  free(a);
  free(b);
}

typedef struct box {
  astar_follow *f;
  int calls;
  astar_status last;
} box;

static void on_done(void *ctx, const astar_request_done *d) {
  box *bx = ctx;
  bx->calls++;
  bx->last = astar_follow_adopt(bx->f, d);
}

static void test_queue(void) {
  astar_grid *g = open_grid(20, 8);
  astar_queue *q = NULL;
  CHECK(astar_queue_new(&q, g, 8, NULL) == ASTAR_OK);
  astar_point a[64], b[64];
  astar_follow f;
  CHECK(astar_follow_init(&f, a, b, 64, (astar_point){0, 0}, (astar_point){19, 0}) == ASTAR_OK);
  box bx = {&f, 0, ASTAR_OK};
  astar_queue_set_callback(q, on_done, &bx);
  astar_replan_policy pol = {ASTAR_REPLAN_ON_EVERY, 4, 0};
  astar_replan_reason why;
  CHECK(astar_follow_submit(&f, &pol, q, NULL, 0, NULL, &why) == ASTAR_OK);
  CHECK(why == ASTAR_REPLAN_NO_PATH && f.pending && f.request != 0);
  /* Pending: nothing due, no second request, no plan on the spot. */
  CHECK(astar_follow_due(&f, &pol) == ASTAR_REPLAN_NONE);
  CHECK(astar_follow_submit(&f, &pol, q, NULL, 0, NULL, &why) == ASTAR_OK);
  CHECK(why == ASTAR_REPLAN_NONE);
  CHECK(astar_follow_plan(&f, NULL, g, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  const astar_request_id id = f.request;
  CHECK(astar_queue_update(q, 1000, NULL) == ASTAR_OK);
  CHECK(bx.calls == 1 && bx.last == ASTAR_OK && !f.pending && f.len == 20 && f.replans == 1);
  CHECK(astar_queue_release(q, id) == ASTAR_OK);
  /* Walk 4 steps: EVERY is due; submit, walk 2 more before the update:
  ** the result is taken up from the unit's cell (index 2). */
  for (int k = 0; k < 4; k++) CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK);
  CHECK(astar_follow_submit(&f, &pol, q, NULL, 0, NULL, &why) == ASTAR_OK);
  CHECK(why == ASTAR_REPLAN_EVERY);
  for (int k = 0; k < 2; k++) CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK);
  const astar_request_id id2 = f.request;
  CHECK(astar_queue_update(q, 1000, NULL) == ASTAR_OK);
  CHECK(bx.calls == 2 && f.replans == 2 && f.pos == 2 && f.cell.x == 6 && f.since_plan == 0);
  CHECK(f.path[f.pos].x == 6 && f.path[f.len - 1].x == 19);
  CHECK(astar_queue_release(q, id2) == ASTAR_OK);
  /* Dropped: the unit's old path detours south; the new plan goes
  ** straight east, and the unit has left it. */
  astar_point zig[32];
  size_t n = 0;
  zig[n++] = f.cell;
  zig[n++] = (astar_point){7, 1};
  zig[n++] = (astar_point){8, 2};
  for (int32_t x = 9; x <= 19; x++) zig[n++] = (astar_point){x, x < 19 ? 2 : 1};
  zig[n - 1] = (astar_point){19, 1};
  zig[n++] = (astar_point){19, 0};
  CHECK(astar_follow_adopt_path(&f, zig, n) == ASTAR_OK);
  pol.every = 1;
  CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK); /* to (7,1) */
  CHECK(astar_follow_submit(&f, &pol, q, NULL, 0, NULL, &why) == ASTAR_OK);
  CHECK(why == ASTAR_REPLAN_EVERY);
  CHECK(astar_follow_step(&f, g, NULL) == ASTAR_OK); /* to (8,2): off the new plan */
  const uint64_t plans = f.replans;
  CHECK(astar_queue_update(q, 1000, NULL) == ASTAR_OK);
  CHECK(f.dropped == 1 && f.replans == plans && f.cell.x == 8 && f.cell.y == 2 && !f.pending);
  /* Adopting a stranger's outcome is refused. */
  astar_request_done fake = {0};
  fake.id = 12345;
  CHECK(astar_follow_adopt(&f, &fake) == ASTAR_INVALID_ARGUMENT);
  /* Bad arguments. */
  CHECK(astar_follow_init(&f, a, a, 64, f.cell, f.goal) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_follow_init(NULL, a, b, 64, f.cell, f.goal) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_follow_init(&f, a, b, 0, f.cell, f.goal) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_follow_submit(&f, &pol, NULL, NULL, 0, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_follow_step(NULL, g, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_follow_due(NULL, &pol) == ASTAR_REPLAN_NONE);
  astar_queue_free(q);
  astar_grid_free(g);
}

/* ON_CHANGE through a watch index (Patel 5.3): units whose paths a watch
** sync reports are due, exactly those whose path ahead a blocked cell
** broke are among them, and units far from the edits are not. */
static void test_watch_change(void) {
  rng r;
  rng_seed(&r, 4242);
  enum { UNITS = 12, CAP = 256 };
  astar_point store[UNITS][2][CAP];
  for (int round = 0; round < 40; round++) {
    randmap_spec spec = {30, 30, 0.15, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    CHECK(astar_grid_track_changes(g, 64) == ASTAR_OK);
    astar_workspace *ws = NULL;
    astar_watch *w = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_watch_new(&w, g, UNITS, (size_t)UNITS * CAP * 3, NULL) == ASTAR_OK);
    astar_follow f[UNITS];
    astar_watch_id wid[UNITS];
    bool has[UNITS];
    const astar_replan_policy pol = {ASTAR_REPLAN_ON_CHANGE, 0, 0};
    for (int u = 0; u < UNITS; u++) {
      const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      CHECK(astar_follow_init(&f[u], store[u][0], store[u][1], CAP, s, t) == ASTAR_OK);
      has[u] = astar_follow_plan(&f[u], ws, g, NULL, NULL) == ASTAR_OK;
      if (has[u]) CHECK(astar_watch_add(w, NULL, f[u].path, f[u].len, &wid[u]) == ASTAR_OK);
    }
    for (int e = 0; e < 3; e++) {
      const astar_point c = randmap_passable_cell(g, &r);
      if (c.x >= 0) astar_grid_set_passable(g, c.x, c.y, false);
    }
    astar_watch_id ids[UNITS];
    size_t n = 0;
    CHECK(astar_watch_sync(w, g, ids, UNITS, &n) == ASTAR_OK);
    for (size_t k = 0; k < n; k++)
      for (int u = 0; u < UNITS; u++)
        if (has[u] && wid[u] == ids[k]) astar_follow_mark_changed(&f[u]);
    for (int u = 0; u < UNITS; u++) {
      if (!has[u] || astar_follow_arrived(&f[u])) continue;
      double c = 0;
      size_t fb = 0;
      const bool broken =
          astar_path_recost(g, NULL, f[u].path, f[u].len, f[u].pos, &c, &fb) == ASTAR_STALE;
      const astar_replan_reason due = astar_follow_due(&f[u], &pol);
      if (broken) CHECKF(due == ASTAR_REPLAN_CHANGED, "round %d unit %d", round, u);
      if (due == ASTAR_REPLAN_CHANGED) {
        /* The repair by splicing clears the mark and leaves a legal path. */
        const astar_status st = astar_follow_splice(&f[u], ws, g, NULL, NULL, NULL);
        if (st == ASTAR_OK) {
          CHECK(!f[u].changed);
          CHECK(astar_path_recost(g, NULL, f[u].path, f[u].len, 0, &c, &fb) == ASTAR_OK);
          CHECK(astar_watch_replace(w, wid[u], NULL, f[u].path, f[u].len) == ASTAR_OK);
        }
      } else {
        CHECK(due == ASTAR_REPLAN_NONE);
      }
    }
    astar_watch_free(w);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
}

int main(void) {
  RUN(test_watch_change);
  RUN(test_every_and_change);
  RUN(test_turns);
  RUN(test_queue);
  return check_summary();
}
