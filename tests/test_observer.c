/*
** test_observer.c -- the search observer sees every event: pushes +
** improvements + reopenings equal stats.generated, expansions + the goal
** equal stats.expanded, the goal event comes last and only when the goal is
** reached, f = g + h, parents are neighbours, expansions come in f order
** (consistent heuristic), and the path is identical with and without an
** observer. For JPS and JPS+ (nodes are jump points, ASTAR_EVENT_SCAN the
** cells a jump passed over): every expanded jump point was pushed first
** with the g it is expanded with, pushes come from the node being expanded
** and follow a scan of the same cell and cost, scanned cells lie on a
** straight or diagonal line from their parent with g = the parent's g plus
** the line's cost, the goal event's g is the result's cost, and every path
** cell was scanned or pushed.
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
        /* The goal's g is on the search's rounded costs, b.cost on the
        ** options' own (astar/search.h, "Exact ties"). */
        CHECKF(fabs(tl.last.g - b.cost) <= 1e-9 * b.cost, "goal g %.17g, cost %.17g", tl.last.g,
               b.cost);
      }
      CHECK(tl.bad_f == 0 && tl.bad_parent == 0);
      if (consistent && o.turn_penalty == 0) CHECK(tl.order == 0);
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(searches > 300 && found > 200);
}

/* ---- the jump searches ------------------------------------------------------ */

#define JMAX 72 /* map side: more than a 64-bit word of the JPS scans */

/* Consistency of one jump search's event stream, checked as it arrives. */
typedef struct jtally {
  const astar_grid *g;
  int32_t w;
  double sc, dc; /* straight and diagonal move costs */
  uint64_t n[6];
  uint64_t exp_seen;          /* EXPAND + GOAL so far, to check event.expanded */
  int state[JMAX * JMAX];     /* 0 unseen, 1 open, 2 closed */
  double node_g[JMAX * JMAX]; /* g of the last PUSH / IMPROVE */
  astar_point node_parent[JMAX * JMAX];
  unsigned char touched[JMAX * JMAX]; /* scanned or pushed */
  astar_point cur;                    /* node of the current group, (-1, -1) before the first */
  double cur_g;
  astar_event scans[JMAX * JMAX * 4]; /* SCAN events of the current group */
  size_t nscans;
  int events, bad; /* total events; first inconsistency (event number + 1) */
  const char *why;
  astar_event last;
} jtally;

static void jfail(jtally *t, const char *why) {
  if (!t->bad) {
    t->bad = t->events;
    t->why = why;
  }
}

/* g of a cell scanned earlier in this group, or the group's node: the
** parent of a scan. Returns -1 when the parent is neither. */
static double scan_parent_g(const jtally *t, astar_point p) {
  if (p.x == t->cur.x && p.y == t->cur.y) return t->cur_g;
  for (size_t k = t->nscans; k-- > 0;)
    if (t->scans[k].cell.x == p.x && t->scans[k].cell.y == p.y &&
        t->scans[k].parent.x == t->cur.x && t->scans[k].parent.y == t->cur.y)
      return t->scans[k].g;
  return -1;
}

static void jobserve(void *ctx, const astar_event *e) {
  jtally *t = ctx;
  t->events++;
  if ((unsigned)e->type > ASTAR_EVENT_SCAN) {
    jfail(t, "unknown event type");
    return;
  }
  t->n[e->type]++;
  if (t->n[ASTAR_EVENT_GOAL] && e->type != ASTAR_EVENT_GOAL) jfail(t, "event after the goal");
  if (fabs(e->f - (e->g + e->h)) > 1e-9 * (1 + e->f)) jfail(t, "f != g + h");
  if (e->direction != -1) jfail(t, "direction set");
  if (!astar_grid_passable(t->g, e->cell.x, e->cell.y)) jfail(t, "blocked cell");
  const int i = e->cell.y * t->w + e->cell.x;
  switch (e->type) {
  case ASTAR_EVENT_PUSH:
  case ASTAR_EVENT_IMPROVE: {
    const int first = t->events == 1;
    if (first ? e->parent.x != -1 || e->g != 0 || e->type != ASTAR_EVENT_PUSH
              : e->parent.x != t->cur.x || e->parent.y != t->cur.y)
      jfail(t, "push not from the node being expanded");
    if (e->type == ASTAR_EVENT_PUSH ? t->state[i] != 0 : t->state[i] != 1)
      jfail(t, "push of a seen node or improve of a node not open");
    if (e->type == ASTAR_EVENT_IMPROVE && !(e->g < t->node_g[i])) jfail(t, "improve not lower");
    if (!first) {
      /* The jump that found it scanned the cell at this very cost. */
      int found = 0;
      for (size_t k = 0; k < t->nscans && !found; k++)
        found = t->scans[k].cell.x == e->cell.x && t->scans[k].cell.y == e->cell.y &&
                fabs(t->scans[k].g - e->g) <= 1e-9 * (1 + e->g);
      if (!found) jfail(t, "pushed without a scan of the cell at that cost");
    }
    t->state[i] = 1;
    t->node_g[i] = e->g;
    t->node_parent[i] = e->parent;
    t->touched[i] = 1;
    break;
  }
  case ASTAR_EVENT_EXPAND:
  case ASTAR_EVENT_GOAL:
    if (t->events == 1) { /* start == goal: the goal event alone, nothing expanded */
      if (e->type != ASTAR_EVENT_GOAL || e->expanded != 0 || e->g != 0) jfail(t, "trivial search");
      break;
    }
    t->exp_seen++;
    if (e->expanded != t->exp_seen) jfail(t, "event.expanded");
    if (t->state[i] != 1) jfail(t, "expanded without being pushed (or twice)");
    if (e->g != t->node_g[i] || e->parent.x != t->node_parent[i].x ||
        e->parent.y != t->node_parent[i].y)
      jfail(t, "expanded with another g or parent than pushed");
    t->state[i] = 2;
    t->cur = e->cell;
    t->cur_g = e->g;
    t->nscans = 0;
    break;
  case ASTAR_EVENT_REOPEN:
    jfail(t, "a jump search reopened");
    break;
  case ASTAR_EVENT_SCAN: {
    const int dx = e->cell.x - e->parent.x, dy = e->cell.y - e->parent.y;
    const int ax = abs(dx), ay = abs(dy);
    if ((ax == 0 && ay == 0) || (ax != 0 && ay != 0 && ax != ay))
      jfail(t, "scanned cell not on a straight or diagonal line from its parent");
    const double pg = scan_parent_g(t, e->parent);
    const double line = ax == ay ? ax * t->dc : (ax + ay) * t->sc;
    if (pg < 0 || fabs(e->g - (pg + line)) > 1e-9 * (1 + e->g))
      jfail(t, "scan's g is not its parent's g plus the line's cost");
    if (t->nscans < sizeof t->scans / sizeof t->scans[0]) t->scans[t->nscans++] = *e;
    t->touched[i] = 1;
    break;
  }
  default: /* the engine's own events (DROP, ITERATION, MEET): refused above */
    break;
  }
  t->last = *e;
}

static void test_jump_search_events(void) {
  rng r;
  rng_seed(&r, 1207);
  static astar_point pa[JMAX * JMAX], pb[JMAX * JMAX];
  static jtally tl;
  int searches = 0, found = 0, scans = 0;
  for (int m = 0; m < 120; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, JMAX, 0);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    astar_jps_plus *pre;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    CHECK(astar_jps_plus_new(&pre, g, NULL) == ASTAR_OK);
    for (int i = 0; i < 8; i++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      if (i == 7) t = s; /* trivial: one GOAL event */
      const int plus = i & 1;
      astar_options o;
      astar_options_init(&o);
      o.algorithm = ASTAR_ALGO_JPS;
      o.tie = (astar_tie)rng_range(&r, 0, 2);
      if (!rng_range(&r, 0, 5)) o.diagonal_cost = 1.0; /* straight == diagonal */
      astar_result a, b;
      const size_t cap = (size_t)JMAX * JMAX;
      astar_status sa = plus ? astar_jps_plus_find_path(ws, pre, g, &o, s, t, pa, cap, &a)
                             : astar_find_path(ws, g, &o, s, t, pa, cap, &a);
      memset(&tl, 0, sizeof tl);
      tl.g = g;
      tl.w = astar_grid_width(g);
      tl.cur = (astar_point){-1, -1};
      tl.sc = o.straight_cost;
      tl.dc = o.diagonal_cost;
      o.observer = jobserve;
      o.observer_ctx = &tl;
      astar_status sb = plus ? astar_jps_plus_find_path(ws, pre, g, &o, s, t, pb, cap, &b)
                             : astar_find_path(ws, g, &o, s, t, pb, cap, &b);
      searches++;
      CHECK(sa == sb && a.cost == b.cost && a.length == b.length);
      CHECK(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
      for (size_t k = 0; sa == ASTAR_OK && k < a.length; k++)
        CHECK(pa[k].x == pb[k].x && pa[k].y == pb[k].y);
      CHECKF(!tl.bad, "%s, map %d query %d: event %d: %s", plus ? "JPS+" : "JPS", m, i, tl.bad,
             tl.why);
      CHECK(tl.n[ASTAR_EVENT_PUSH] + tl.n[ASTAR_EVENT_IMPROVE] == b.stats.generated);
      CHECK(tl.n[ASTAR_EVENT_EXPAND] + tl.n[ASTAR_EVENT_GOAL] == b.stats.expanded ||
            (s.x == t.x && s.y == t.y && tl.n[ASTAR_EVENT_GOAL] == 1 && tl.events == 1));
      CHECK(tl.n[ASTAR_EVENT_GOAL] == (sb == ASTAR_OK));
      scans += tl.n[ASTAR_EVENT_SCAN] > 0;
      if (sb == ASTAR_OK) {
        found++;
        CHECK(tl.last.type == ASTAR_EVENT_GOAL && tl.last.cell.x == t.x && tl.last.cell.y == t.y);
        /* The goal's g is on the search's rounded costs, b.cost on the
        ** options' own (astar/search.h, "Exact ties"). */
        CHECKF(fabs(tl.last.g - b.cost) <= 1e-9 * b.cost, "goal g %.17g, cost %.17g", tl.last.g,
               b.cost);
        /* Every cell of the path was scanned or pushed, so the events
        ** give each one a g and an h. */
        int all = 1;
        for (size_t k = 0; k < b.length; k++) all &= tl.touched[pb[k].y * tl.w + pb[k].x] || k == 0;
        CHECK(all);
      }
    }
    astar_jps_plus_free(pre);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  CHECK(searches > 600 && found > 300 && scans > 300);
}

/* Options a jump search cannot honour stay unsupported with an observer,
** and it reports nothing. */
static void test_unsupported_reports_nothing(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 8, 8, NULL) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  tally tl;
  memset(&tl, 0, sizeof tl);
  astar_options o;
  astar_options_init(&o);
  o.observer = observe;
  o.observer_ctx = &tl;
  o.algorithm = ASTAR_ALGO_JPS;
  o.moves = 4;
  astar_point p[64];
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 0}, (astar_point){7, 7}, p, 64, NULL) ==
        ASTAR_UNSUPPORTED);
  CHECK(tl.n[0] + tl.n[1] + tl.n[2] + tl.n[3] + tl.n[4] == 0);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_events_match_stats);
  RUN(test_jump_search_events);
  RUN(test_unsupported_reports_nothing);
  return check_summary();
}
