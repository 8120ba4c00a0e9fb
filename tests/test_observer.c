/*
** test_observer.c -- the search observer sees every event: pushes +
** improvements + reopenings equal stats.generated, expansions + the goal
** equal stats.expanded, the goal event comes last and only when the goal is
** reached, f = g + h, parents are neighbours, expansions come in f order
** (consistent heuristic), and the path is identical with and without an
** observer.
*/
#include "check.h"
#include "util/randmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct tally {
  uint64_t n[5];
  int goal_last; /* the goal event was the last one */
  int bad_parent, bad_f, order;
  double last_f;
  astar_event last;
} tally;

static void observe(void *ctx, const astar_event *e) {
  tally *t = ctx;
  t->n[e->type]++;
  if (t->n[ASTAR_EVENT_GOAL]) t->goal_last = e->type == ASTAR_EVENT_GOAL;
  if (fabs(e->f - (e->g + e->h)) > 1e-9 * (1 + e->f)) t->bad_f++;
  if (e->parent.x >= 0 && (abs(e->parent.x - e->cell.x) > 1 || abs(e->parent.y - e->cell.y) > 1))
    t->bad_parent++;
  if (e->type == ASTAR_EVENT_EXPAND || e->type == ASTAR_EVENT_GOAL) {
    if (e->f < t->last_f - 1e-9) t->order++;
    t->last_f = e->f;
  }
  t->last = *e;
}

static void test_events_match_stats(void) {
  rng r;
  rng_seed(&r, 71);
  static astar_point pa[64 * 64], pb[64 * 64];
  int searches = 0, found = 0;
  for (int m = 0; m < 80; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 64, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_workspace_reserve_turns(ws, g) == ASTAR_OK);
    for (int i = 0; i < 6; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      astar_options_init(&o);
      o.moves = rng_range(&r, 0, 3) ? 8 : 4;
      o.tie = (astar_tie)rng_range(&r, 0, 2);
      if (!rng_range(&r, 0, 4)) o.turn_penalty = 0.7;
      const int consistent = rng_range(&r, 0, 3) != 0;
      if (!consistent) o.heuristic = ASTAR_H_MANHATTAN; /* reopens with diagonals */
      astar_result a, b;
      astar_status sa = astar_find_path(ws, g, &o, s, t, pa, (size_t)64 * 64, &a);
      tally tl;
      memset(&tl, 0, sizeof tl);
      o.observer = observe;
      o.observer_ctx = &tl;
      astar_status sb = astar_find_path(ws, g, &o, s, t, pb, (size_t)64 * 64, &b);
      searches++;
      CHECK(sa == sb && a.cost == b.cost && a.length == b.length);
      CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
      for (size_t k = 0; sa == ASTAR_OK && k < a.length; k++)
        CHECK(pa[k].x == pb[k].x && pa[k].y == pb[k].y);
      CHECKF(tl.n[ASTAR_EVENT_PUSH] + tl.n[ASTAR_EVENT_IMPROVE] + tl.n[ASTAR_EVENT_REOPEN] ==
                 b.stats.generated,
             "push %llu improve %llu reopen %llu, generated %llu", (unsigned long long)tl.n[0],
             (unsigned long long)tl.n[2], (unsigned long long)tl.n[3],
             (unsigned long long)b.stats.generated);
      CHECK(tl.n[ASTAR_EVENT_EXPAND] + tl.n[ASTAR_EVENT_GOAL] == b.stats.expanded ||
            (s.x == t.x && s.y == t.y));
      CHECK(tl.n[ASTAR_EVENT_REOPEN] == b.stats.reopened);
      CHECK(tl.n[ASTAR_EVENT_GOAL] == (sb == ASTAR_OK));
      if (sb == ASTAR_OK) {
        found++;
        CHECK(tl.goal_last && tl.last.cell.x == t.x && tl.last.cell.y == t.y);
        CHECK(tl.last.g == b.cost);
      }
      CHECK(tl.bad_f == 0 && tl.bad_parent == 0);
      if (consistent && o.turn_penalty == 0) CHECK(tl.order == 0);
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(searches > 300 && found > 200);
}

static void test_unsupported_elsewhere(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 8, 8, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  tally tl;
  astar_options o;
  astar_options_init(&o);
  o.observer = observe;
  o.observer_ctx = &tl;
  o.algorithm = ASTAR_ALGO_JPS;
  astar_point p[64];
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 0}, (astar_point){7, 7}, p, 64, NULL) ==
        ASTAR_UNSUPPORTED);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_events_match_stats);
  RUN(test_unsupported_elsewhere);
  return check_summary();
}
