/*
** test_coop.c -- the reservation table and cooperative A* (astar/spacetime.h).
** On seeded random maps with every movement rule, terrain and several
** agents planned one after another (each writing its path back): every
** path is a legal timed walk (moves by the corner rule, waits allowed); no
** two agents ever share a cell at the same time nor swap through each other
** (checked over all pairs and all time steps, holding goals for ever); each
** agent's cost equals a brute-force space-time Dijkstra's under the
** reservations of the earlier agents, for the full search and (cost + rest
** of the route) for the windowed one. Then the table's own contract (holds,
** conflicts, release, clear, full -> ASTAR_CAPACITY), statuses, and
** allocation failures.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})
#define MAXAG 6
#define MAXT 64 /* time steps the brute force and the conflict check look at */
#define MAXSIDE 9
#define MAXCELLS (MAXSIDE * MAXSIDE)

static const int MOVES[2] = {4, 8};
static const astar_corner CORNERS[4] = {ASTAR_CORNER_NO_CUT, ASTAR_CORNER_ALWAYS,
                                        ASTAR_CORNER_ONE_SIDE, ASTAR_CORNER_NEVER};

/* Is b one legal step (or a wait) from a? *cost gets the step's cost. */
static int step_ok(const astar_grid *g, const astar_options *o, astar_point a, astar_point b,
                   double wait, double *cost) {
  if (a.x == b.x && a.y == b.y) {
    *cost = wait;
    return astar_grid_passable(g, a.x, a.y);
  }
  return validate_step(g, o, a, b, cost, NULL, 0);
}

static int others(uint32_t a, uint32_t me) {
  return a != ASTAR_AGENT_NONE && a != me;
}

/* Reference: the least cost of a timed walk from s at time 0 that avoids
** the others' reservations (queried through the public API), over states
** (cell, t <= T). Full (window 0): ends at the goal at a time after which
** no other agent is there up to MAXT (and no hold); windowed: ends at time
** W, or at the goal free up to W, minimising cost + h(end). Plain Dijkstra
** with a linear scan (tiny maps). INFINITY when none. */
static double brute(const astar_grid *g, const astar_options *o, const astar_reservations *res,
                    uint32_t me, astar_point s, astar_point goal, double wait, uint32_t window,
                    uint32_t horizon, const astar_field *field) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  const uint32_t T = window ? window : horizon;
  static double dist[MAXCELLS * (MAXT + 1)];
  static unsigned char done[MAXCELLS * (MAXT + 1)];
  const int n = w * h * (int)(T + 1);
  for (int i = 0; i < n; i++) {
    dist[i] = INFINITY;
    done[i] = 0;
  }
  dist[s.y * w + s.x] = 0.0;
  double best = INFINITY;
  for (;;) {
    int u = -1;
    for (int i = 0; i < n; i++)
      if (!done[i] && dist[i] < INFINITY && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    const uint32_t t = (uint32_t)(u / (w * h));
    const astar_point p = P((u % (w * h)) % w, (u % (w * h)) / w);
    /* End state? */
    if (window) {
      int end = t == window;
      if (!end && p.x == goal.x && p.y == goal.y) {
        end = 1;
        for (uint32_t k = t; k <= window; k++)
          if (others(astar_reservations_at(res, goal, k), me)) end = 0;
      }
      if (end) {
        const double hv = astar_field_cost(field, p.x, p.y);
        if (dist[u] + hv < best) best = dist[u] + hv;
        continue;
      }
    } else if (p.x == goal.x && p.y == goal.y) {
      int end = 1;
      for (uint32_t k = t; k <= MAXT + 8; k++)
        if (others(astar_reservations_at(res, goal, k), me)) end = 0;
      if (end) return dist[u];
    }
    if (t == T) continue;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const astar_point q = P(p.x + dx, p.y + dy);
        double c;
        if (!astar_grid_contains(g, q.x, q.y) || !step_ok(g, o, p, q, wait, &c)) continue;
        if (others(astar_reservations_at(res, q, t + 1), me)) continue;
        if ((dx || dy) && others(astar_reservations_move(res, q, p, t), me)) continue;
        const int v = (int)(t + 1) * w * h + q.y * w + q.x;
        if (!done[v] && dist[u] + c < dist[v]) dist[v] = dist[u] + c;
      }
  }
  return best;
}

/* Position of an agent at time t: its path, then its goal for ever. */
static astar_point at_time(const astar_point *p, size_t n, uint32_t t) {
  return t < n ? p[t] : p[n - 1];
}

/* Random scenarios: agents planned in order (full search or windowed),
** each checked against the brute force; then all pairs for conflicts. */
static void run_scenarios(uint32_t window, int rounds, uint64_t seed) {
  rng r;
  rng_seed(&r, seed);
  astar_reservations *res = NULL;
  astar_spacetime_workspace *ws = NULL;
  CHECK(astar_reservations_new(&res, 4096, NULL) == ASTAR_OK);
  CHECK(astar_spacetime_workspace_new(&ws, 1 << 16, NULL) == ASTAR_OK);
  if (!res || !ws) return;
  int planned = 0, compared = 0, failed_both = 0;
  for (int round = 0; round < rounds; round++) {
    randmap_spec spec = {rng_range(&r, 3, MAXSIDE),
                         rng_range(&r, 3, MAXSIDE),
                         rng_unit(&r) * 0.3,
                         rng_range(&r, 0, 2) == 0,
                         0.5,
                         3.0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_options_init(&o);
    o.moves = MOVES[rng_range(&r, 0, 1)];
    o.corner = CORNERS[rng_range(&r, 0, 3)];
    if (rng_range(&r, 0, 3) == 0) o.diagonal_cost = 1.0;
    const double wait = rng_range(&r, 0, 2) == 0 ? 0.5 : 1.0;
    const int nag = rng_range(&r, 2, MAXAG);
    astar_point start[MAXAG], goal[MAXAG];
    int ok = 1;
    /* Distinct starts, distinct goals. */
    for (int i = 0; i < nag && ok; i++) {
      int tries = 0;
      for (;;) {
        start[i] = randmap_passable_cell(g, &r);
        goal[i] = randmap_passable_cell(g, &r);
        int clash = start[i].x < 0;
        for (int j = 0; j < i && !clash; j++)
          clash = (start[j].x == start[i].x && start[j].y == start[i].y) ||
                  (goal[j].x == goal[i].x && goal[j].y == goal[i].y);
        if (!clash) break;
        if (++tries > 50) {
          ok = 0;
          break;
        }
      }
    }
    if (!ok) {
      astar_grid_free(g);
      continue;
    }
    astar_reservations_clear(res);
    static astar_point paths[MAXAG][MAXT + 1];
    size_t len[MAXAG] = {0};
    const uint32_t horizon = 3 * (uint32_t)(spec.width + spec.height) < MAXT
                                 ? 3 * (uint32_t)(spec.width + spec.height)
                                 : MAXT;
    for (int i = 0; i < nag; i++) {
      astar_field *f = NULL;
      const astar_status fs = astar_field_new(&f, g, &o, goal[i], 0.0, NULL, NULL);
      CHECK(fs == ASTAR_OK);
      astar_coop_query q;
      astar_coop_query_init(&q);
      q.start = start[i];
      q.goal = goal[i];
      q.agent = (uint32_t)i + 1;
      q.window = window;
      q.horizon = horizon;
      q.wait_cost = wait;
      q.field = (window || rng_range(&r, 0, 1)) ? f : NULL;
      astar_coop_result cr;
      const astar_status st = astar_coop_find_path(ws, g, &o, res, &q, paths[i], MAXT + 1, &cr);
      const double ref = brute(g, &o, res, q.agent, start[i], goal[i], wait, window, horizon, f);
      planned++;
      if (st == ASTAR_OK) {
        compared++;
        CHECKF(cost_equal(window ? cr.estimate : cr.cost, ref),
               "seed %llu round %d agent %d: cost %.6f (estimate %.6f), brute %.6f",
               (unsigned long long)seed, round, i, cr.cost, cr.estimate, ref);
        /* The walk: start at 0, legal steps, the claimed cost. */
        CHECK(cr.length >= 1 && paths[i][0].x == start[i].x && paths[i][0].y == start[i].y);
        double sum = 0.0;
        for (size_t k = 1; k < cr.length; k++) {
          double c = 0.0;
          if (!step_ok(g, &o, paths[i][k - 1], paths[i][k], wait, &c))
            FAILF("round %d agent %d: illegal step %zu", round, i, k);
          sum += c;
        }
        CHECK(cost_equal(sum, cr.cost));
        CHECK(cr.arrival == cr.length - 1);
        if (!window) CHECK(cr.at_goal);
        if (cr.at_goal)
          CHECK(paths[i][cr.length - 1].x == goal[i].x && paths[i][cr.length - 1].y == goal[i].y);
        len[i] = cr.length;
        CHECK(astar_reservations_reserve_path(res, q.agent, paths[i], cr.length, 0,
                                              window ? window + 1 - (uint32_t)cr.length
                                                     : ASTAR_HOLD_FOREVER) == ASTAR_OK);
      } else {
        CHECKF(st == ASTAR_LIMIT_REACHED || st == ASTAR_NO_PATH || st == ASTAR_GOAL_BLOCKED ||
                   st == ASTAR_START_BLOCKED,
               "status %s", astar_strerror(st));
        CHECKF(ref == INFINITY, "round %d agent %d: %s but brute finds %.6f", round, i,
               astar_strerror(st), ref);
        failed_both++;
      }
      astar_field_free(f);
    }
    /* Conflicts, over all pairs and time steps (goals held: full search
    ** for ever, windowed to the window's end). */
    const uint32_t tmax = window ? window : MAXT;
    for (int i = 0; i < nag; i++)
      for (int j = i + 1; j < nag; j++) {
        if (!len[i] || !len[j]) continue;
        for (uint32_t t = 0; t <= tmax; t++) {
          const astar_point a = at_time(paths[i], len[i], t), b = at_time(paths[j], len[j], t);
          if (a.x == b.x && a.y == b.y)
            FAILF("round %d: agents %d and %d both in (%d,%d) at %u", round, i, j, a.x, a.y, t);
          const astar_point a1 = at_time(paths[i], len[i], t + 1),
                            b1 = at_time(paths[j], len[j], t + 1);
          if (t < tmax && a.x == b1.x && a.y == b1.y && b.x == a1.x && b.y == a1.y &&
              !(a.x == a1.x && a.y == a1.y))
            FAILF("round %d: agents %d and %d swap at %u", round, i, j, t);
        }
      }
    astar_grid_free(g);
  }
  printf("     window %u: %d agents planned, %d compared, %d without a path (both)\n", window,
         planned, compared, failed_both);
  CHECK(compared > planned / 2);
  astar_spacetime_workspace_free(ws);
  astar_reservations_free(res);
}

static void test_full_random(void) {
  run_scenarios(0, 150, 11);
}

static void test_windowed_random(void) {
  run_scenarios(4, 100, 12);
  run_scenarios(8, 100, 13);
}

/* The table's contract on hand-made paths. */
static void test_table(void) {
  astar_reservations *res = NULL;
  CHECK(astar_reservations_new(&res, 0, NULL) == ASTAR_INVALID_ARGUMENT && res == NULL);
  CHECK(astar_reservations_new(&res, 16, NULL) == ASTAR_OK);
  if (!res) return;
  CHECK(astar_reservations_capacity(res) == 16 && astar_reservations_count(res) == 0);
  const astar_point a[3] = {P(0, 0), P(1, 0), P(1, 1)};
  /* 3 cells + 2 moves + a goal held for ever. */
  CHECK(astar_reservations_reserve_path(res, 7, a, 3, 5, ASTAR_HOLD_FOREVER) == ASTAR_OK);
  CHECK(astar_reservations_count(res) == 6);
  CHECK(astar_reservations_at(res, P(0, 0), 5) == 7);
  CHECK(astar_reservations_at(res, P(0, 0), 6) == ASTAR_AGENT_NONE);
  CHECK(astar_reservations_at(res, P(1, 0), 6) == 7);
  CHECK(astar_reservations_at(res, P(1, 1), 7) == 7);
  CHECK(astar_reservations_at(res, P(1, 1), 1000000) == 7); /* held */
  CHECK(astar_reservations_at(res, P(1, 1), 6) == ASTAR_AGENT_NONE);
  CHECK(astar_reservations_move(res, P(0, 0), P(1, 0), 5) == 7);
  CHECK(astar_reservations_move(res, P(1, 0), P(0, 0), 5) == ASTAR_AGENT_NONE);
  CHECK(astar_reservations_move(res, P(0, 0), P(1, 0), 6) == ASTAR_AGENT_NONE);
  /* Conflicts: nothing written. */
  const astar_point b[2] = {P(2, 0), P(1, 0)};
  CHECK(astar_reservations_reserve_path(res, 8, b, 2, 5, 0) == ASTAR_INVALID_ARGUMENT);
  const astar_point c[2] = {P(1, 2), P(1, 1)}; /* into a held goal */
  CHECK(astar_reservations_reserve_path(res, 8, c, 2, 50, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_reservations_count(res) == 6);
  /* The same agent may rewrite its own. */
  CHECK(astar_reservations_reserve_path(res, 7, a, 3, 5, ASTAR_HOLD_FOREVER) == ASTAR_OK);
  CHECK(astar_reservations_count(res) == 6);
  /* Hold k steps. */
  const astar_point d[1] = {P(5, 5)};
  CHECK(astar_reservations_reserve_path(res, 9, d, 1, 0, 3) == ASTAR_OK);
  CHECK(astar_reservations_count(res) == 10);
  CHECK(astar_reservations_at(res, P(5, 5), 3) == 9);
  CHECK(astar_reservations_at(res, P(5, 5), 4) == ASTAR_AGENT_NONE);
  /* A goal held for ever must not be entered later by others, and one
  ** cannot hold for ever a cell others use later. */
  const astar_point e[2] = {P(5, 4), P(5, 5)};
  CHECK(astar_reservations_reserve_path(res, 10, e, 2, 0, ASTAR_HOLD_FOREVER) ==
        ASTAR_INVALID_ARGUMENT);
  /* Bad arguments. */
  const astar_point far[2] = {P(0, 0), P(2, 0)};
  CHECK(astar_reservations_reserve_path(res, 11, far, 2, 0, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_reservations_reserve_path(res, ASTAR_AGENT_NONE, a, 3, 0, 0) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_reservations_reserve_path(res, 11, a, 0, 0, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_reservations_reserve_path(NULL, 11, a, 3, 0, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_reservations_reserve_path(res, 11, a, 3, ASTAR_TIME_MAX, 0) ==
        ASTAR_INVALID_ARGUMENT);
  /* Full: 10 of 16 used; 4 cells + 3 moves = 7 do not fit, nothing written. */
  const astar_point f[4] = {P(3, 3), P(4, 3), P(4, 4), P(3, 4)};
  CHECK(astar_reservations_reserve_path(res, 12, f, 4, 0, 0) == ASTAR_CAPACITY);
  CHECK(astar_reservations_count(res) == 10);
  CHECK(astar_reservations_at(res, P(3, 3), 0) == ASTAR_AGENT_NONE);
  CHECK(astar_reservations_reserve_path(res, 12, f, 3, 0, 0) == ASTAR_OK); /* 5 fit */
  CHECK(astar_reservations_count(res) == 15);
  /* Release: agent 9's, then everything of agent 7 before time 6. */
  astar_reservations_release(res, 9, UINT32_MAX);
  CHECK(astar_reservations_count(res) == 11);
  CHECK(astar_reservations_at(res, P(5, 5), 0) == ASTAR_AGENT_NONE);
  astar_reservations_release(res, 7, 6);
  CHECK(astar_reservations_at(res, P(0, 0), 5) == ASTAR_AGENT_NONE);
  CHECK(astar_reservations_move(res, P(0, 0), P(1, 0), 5) == ASTAR_AGENT_NONE);
  CHECK(astar_reservations_at(res, P(1, 0), 6) == 7);
  CHECK(astar_reservations_at(res, P(1, 1), 99) == 7);
  CHECK(astar_reservations_at(res, P(3, 3), 0) == 12);
  CHECK(astar_reservations_count(res) == 9);
  astar_reservations_release(res, ASTAR_AGENT_NONE, 100); /* holds stay */
  CHECK(astar_reservations_count(res) == 1);
  CHECK(astar_reservations_at(res, P(1, 1), 99) == 7);
  astar_reservations_clear(res);
  CHECK(astar_reservations_count(res) == 0);
  CHECK(astar_reservations_at(res, P(1, 1), 99) == ASTAR_AGENT_NONE);
  /* Many clears and releases keep it consistent. */
  for (int k = 0; k < 1000; k++) {
    const astar_point p1[2] = {P(k % 7, 0), P(k % 7, 1)};
    CHECK(astar_reservations_reserve_path(res, 1, p1, 2, (uint32_t)k, 0) == ASTAR_OK);
    if (k % 3 == 0) astar_reservations_release(res, 1, (uint32_t)k);
    if (k % 5 == 0) astar_reservations_clear(res);
  }
  CHECK(astar_reservations_count(res) <= 16);
  CHECK(astar_reservations_memory(res) > 0 && astar_reservations_memory(NULL) == 0);
  astar_reservations_free(res);
  astar_reservations_free(NULL);
}

/* Statuses of the search. */
static void test_statuses(void) {
  static const char *const rows[] = {
      "......",
      ".####.",
      "......",
  };
  astar_grid *g = randmap_from_rows(rows, 3, '#');
  CHECK(g != NULL);
  if (!g) return;
  astar_spacetime_workspace *ws = NULL;
  astar_reservations *res = NULL;
  CHECK(astar_spacetime_workspace_new(&ws, 4096, NULL) == ASTAR_OK);
  CHECK(astar_reservations_new(&res, 256, NULL) == ASTAR_OK);
  astar_coop_query q;
  astar_coop_query_init(&q);
  q.start = P(0, 0);
  q.goal = P(5, 0);
  q.agent = 1;
  astar_point path[64];
  astar_coop_result cr;
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_OK);
  CHECK(cr.length == 6 && cr.cost == 5.0 && cr.at_goal && cr.stats.expanded > 0);
  /* Too small a buffer: the length is reported. */
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 3, &cr) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(cr.length == 6);
  /* Agent 2 comes the other way along the top row: it must not swap with 1. */
  CHECK(astar_reservations_reserve_path(res, 1, path, 6, 0, ASTAR_HOLD_FOREVER) == ASTAR_OK);
  q.agent = 2;
  q.start = P(4, 0);
  q.goal = P(0, 0);
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_OK);
  for (size_t k = 0; k + 1 < cr.length; k++)
    CHECK(astar_reservations_move(res, path[k + 1], path[k], (uint32_t)k) == ASTAR_AGENT_NONE);
  /* Its goal is agent 1's goal, held for ever. */
  q.goal = P(5, 0);
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_GOAL_BLOCKED);
  /* Starting where agent 1 is at t0. */
  q.goal = P(0, 2);
  q.start = P(1, 0);
  q.t0 = 1;
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_START_BLOCKED);
  q.t0 = 0;
  /* Horizon too short: limit; a wall: no path. */
  q.start = P(0, 2);
  q.goal = P(5, 2);
  q.horizon = 3;
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_LIMIT_REACHED);
  q.horizon = 1024;
  astar_options o;
  astar_options_init(&o);
  o.max_expansions = 2;
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_LIMIT_REACHED);
  CHECK(cr.stats.expanded == 2);
  o.max_expansions = 0;
  /* Workspace room. */
  astar_spacetime_workspace *tiny = NULL;
  CHECK(astar_spacetime_workspace_new(&tiny, 3, NULL) == ASTAR_OK);
  CHECK(astar_coop_find_path(tiny, g, &o, res, &q, path, 64, &cr) == ASTAR_CAPACITY);
  astar_spacetime_workspace_free(tiny);
  /* Blocked, outside, unsupported, bad values, field mismatch. */
  q.goal = P(2, 1);
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_GOAL_BLOCKED);
  q.goal = P(6, 1);
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 64, &cr) == ASTAR_OUT_OF_BOUNDS);
  q.goal = P(5, 2);
  o.turn_penalty = 1.0;
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_UNSUPPORTED);
  o.turn_penalty = 0.0;
  q.wait_cost = NAN;
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_INVALID_ARGUMENT);
  q.wait_cost = -1.0;
  q.horizon = 0;
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_INVALID_ARGUMENT);
  q.horizon = 1024;
  q.agent = ASTAR_AGENT_NONE;
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_INVALID_ARGUMENT);
  q.agent = 3;
  CHECK(astar_coop_find_path(NULL, g, &o, res, &q, path, 64, &cr) == ASTAR_INVALID_ARGUMENT);
  astar_field *f = NULL;
  CHECK(astar_field_new(&f, g, NULL, P(0, 2), 0.0, NULL, NULL) == ASTAR_OK);
  q.field = f;
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_MISMATCH);
  q.goal = P(0, 2);
  q.start = P(5, 2);
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 3, 1, true) == ASTAR_OK);
  CHECK(astar_coop_find_path(ws, g, &o, res, &q, path, 64, &cr) == ASTAR_STALE);
  astar_field_free(f);
  /* No reservations at all (res NULL): a plain A* in time. */
  q.field = NULL;
  CHECK(astar_coop_find_path(ws, g, &o, NULL, &q, path, 64, &cr) == ASTAR_OK);
  CHECK(cr.cost == 5.0);
  CHECK(astar_spacetime_workspace_memory(ws) > 0 && astar_spacetime_workspace_memory(NULL) == 0);
  astar_spacetime_workspace_free(ws);
  astar_reservations_free(res);
  astar_grid_free(g);
}

/* Allocation failures, the 1st, 2nd, ... request in turn; no allocation
** in reserving or searching. */
static void test_alloc_failure(void) {
  failalloc fa;
  astar_allocator al = failalloc_allocator(&fa);
  failalloc_init(&fa);
  astar_reservations *res = NULL;
  CHECK(astar_reservations_new(&res, 100, &al) == ASTAR_OK);
  long needed = fa.requests;
  CHECK(astar_reservations_memory(res) == fa.bytes + 0 || astar_reservations_memory(res) > 0);
  astar_reservations_free(res);
  CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  for (long k = 1; k <= needed; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    res = (astar_reservations *)&fa;
    CHECK(astar_reservations_new(&res, 100, &al) == ASTAR_NO_MEMORY && res == NULL);
    CHECKF(fa.blocks == 0, "leak after failing request %ld", k);
  }
  failalloc_init(&fa);
  astar_spacetime_workspace *ws = NULL;
  CHECK(astar_spacetime_workspace_new(&ws, 1000, &al) == ASTAR_OK);
  needed = fa.requests;
  CHECK(needed >= 2);
  /* Searching and reserving allocate nothing. */
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 8, 8, NULL) == ASTAR_OK);
  CHECK(astar_reservations_new(&res, 100, &al) == ASTAR_OK);
  const long before = fa.requests;
  astar_coop_query q;
  astar_coop_query_init(&q);
  q.goal = P(7, 7);
  q.agent = 1;
  astar_point path[32];
  astar_coop_result cr;
  CHECK(astar_coop_find_path(ws, g, NULL, res, &q, path, 32, &cr) == ASTAR_OK);
  CHECK(astar_reservations_reserve_path(res, 1, path, cr.length, 0, ASTAR_HOLD_FOREVER) ==
        ASTAR_OK);
  astar_reservations_release(res, 1, 3);
  CHECK(fa.requests == before);
  astar_reservations_free(res);
  astar_spacetime_workspace_free(ws);
  astar_grid_free(g);
  CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  for (long k = 1; k <= needed; k++) {
    failalloc_init(&fa);
    failalloc_fail_in(&fa, k);
    ws = (astar_spacetime_workspace *)&fa;
    CHECK(astar_spacetime_workspace_new(&ws, 1000, &al) == ASTAR_NO_MEMORY && ws == NULL);
    CHECKF(fa.blocks == 0, "leak after failing request %ld", k);
  }
  CHECK(astar_spacetime_workspace_new(&ws, 0, NULL) == ASTAR_INVALID_ARGUMENT && ws == NULL);
}

int main(void) {
  RUN(test_table);
  RUN(test_statuses);
  RUN(test_full_random);
  RUN(test_windowed_random);
  RUN(test_alloc_failure);
  return check_summary();
}
