/*
** test_dstar.c -- D* Lite and LPA* planners (astar/dstar.h) against fresh
** searches. After every edit batch of a random edit sequence (cells
** blocked and freed, terrain raised and lowered, below the heuristic's
** floor too) the planner's status equals astar_find_path's, its cost
** equals the fresh A* cost (1e-9 relative) and its path is a legal path of
** that cost (tests/util validator) -- on random maps with 4 and 8 moves,
** every corner rule and terrain; D* Lite with the agent walking along its
** path between edits, LPA* with fixed ends; goals cut off and reachable
** again; fog of war (a robot revealing the map as it walks). The space
** back end on a random digraph with arc costs that change (against a
** Dijkstra written here), on a hex grid with cell edits (against the
** engine's A*), and on a CSR graph with the agent moving. A Moving AI map
** (tests/data/small) with random edits. Allocation failure at every
** allocation, statuses and arguments.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#if defined(__SANITIZE_ADDRESS__)
#define SCALE 4 /* sanitizer builds: a quarter of the rounds */
#else
#define SCALE 1
#endif

#define MAXPATH 8192

static astar_point pathbuf[MAXPATH];

/* Brute-force check of the planner's invariants (src/dynamic/dstar.c). */
size_t astar__dstar_check(astar_dstar *p);

/* ---- grids -------------------------------------------------------------------- */

/* Plan, and compare with a fresh A* on `ref` under `ro` (the map as the
** planner knows it); the path is validated on `vg` under `vo`. Returns the
** plan's status. */
static astar_status check_plan(astar_dstar *p, astar_workspace *ws, const astar_grid *ref,
                               const astar_options *ro, const astar_grid *vg,
                               const astar_options *vo, const char *tag, long seed, int round) {
  astar_dstar_result r;
  size_t bad = astar__dstar_check(p);
  if (bad)
    FAILF("%s seed %ld round %d: %zu invariants broken before the plan", tag, seed, round, bad);
  const astar_status st = astar_dstar_plan(p, &r);
  bad = astar__dstar_check(p);
  if (bad)
    FAILF("%s seed %ld round %d: %zu invariants broken after the plan", tag, seed, round, bad);
  const astar_point s = astar_dstar_start(p), t = astar_dstar_goal(p);
  astar_result ar;
  astar_status ast = astar_find_path(ws, ref, ro, s, t, NULL, 0, &ar);
  if (ast == ASTAR_BUFFER_TOO_SMALL) ast = ASTAR_OK;
  if (st != ast) {
    FAILF("%s seed %ld round %d: status %d, A* %d", tag, seed, round, (int)st, (int)ast);
    return st;
  }
  if (st != ASTAR_OK) {
    size_t len = 0;
    if (astar_dstar_path(p, pathbuf, MAXPATH, &len) != st)
      FAILF("%s seed %ld round %d: path status differs from plan", tag, seed, round);
    return st;
  }
  if (!cost_equal(r.cost, ar.cost))
    FAILF("%s seed %ld round %d: cost %.17g, A* %.17g", tag, seed, round, r.cost, ar.cost);
  size_t len = 0;
  astar_status ps = astar_dstar_path(p, pathbuf, MAXPATH, &len);
  if (ps != ASTAR_OK) {
    FAILF("%s seed %ld round %d: path status %d", tag, seed, round, (int)ps);

    return st;
  }
  char err[200];
  if (!validate_path(vg, vo, s, t, pathbuf, len, r.cost, err, sizeof err))
    FAILF("%s seed %ld round %d: %s", tag, seed, round, err);
  /* Too small a buffer: the needed length, nothing written. */
  if (len > 1) {
    size_t need = 0;
    pathbuf[0].x = -7;
    if (astar_dstar_path(p, pathbuf, len - 1, &need) != ASTAR_BUFFER_TOO_SMALL || need != len ||
        pathbuf[0].x != -7)
      FAILF("%s seed %ld round %d: BUFFER_TOO_SMALL contract", tag, seed, round);
    /* restore the path for the caller */
    astar_dstar_path(p, pathbuf, MAXPATH, &len);
  }
  astar_point nx;
  if (astar_dstar_next(p, &nx) != ASTAR_OK ||
      (len > 1 ? (nx.x != pathbuf[1].x || nx.y != pathbuf[1].y) : (nx.x != s.x || nx.y != s.y)))
    FAILF("%s seed %ld round %d: next is not path[1]", tag, seed, round);
  return st;
}

/* Terrain cost in [lo, hi] rounded to 1/64 (exact in a float). */
static float rand_terrain(rng *r, double lo, double hi) {
  return (float)(floor((lo + (hi - lo) * rng_unit(r)) * 64.0) / 64.0);
}

/* One random edit sequence on one random map. */
static void grid_sequence(long seed, astar_dstar_mode mode) {
  rng r;
  rng_seed(&r, (uint64_t)seed * 7919u + (uint64_t)mode);
  randmap_spec spec;
  spec.width = rng_range(&r, 2, 28);
  spec.height = rng_range(&r, 2, 28);
  spec.density = 0.05 + 0.3 * rng_unit(&r);
  spec.terrain = rng_range(&r, 0, 1);
  spec.terrain_lo = 0.5;
  spec.terrain_hi = 5.0;
  astar_grid *g = NULL;
  if (randmap_make(&g, &spec, &r) != ASTAR_OK) {
    FAILF("map seed %ld", seed);
    return;
  }
  astar_options o;
  astar_options_init(&o);
  o.moves = rng_range(&r, 0, 1) ? 8 : 4;
  o.corner = (astar_corner)rng_range(&r, 0, 3);
  if (rng_range(&r, 0, 3) == 0) {
    o.straight_cost = 1.0 + rng_range(&r, 0, 4) * 0.25;
    o.diagonal_cost = 1.0 + rng_range(&r, 0, 8) * 0.25;
  }
  if (rng_range(&r, 0, 4) == 0) o.heuristic = o.moves == 8 ? ASTAR_H_CHEBYSHEV : ASTAR_H_ZERO;
  astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
  if (s.x < 0) {
    astar_grid_set_passable(g, 0, 0, true);
    s = t = (astar_point){0, 0};
  }
  astar_workspace *ws = NULL;
  astar_dstar *p = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_status cs = astar_dstar_new_grid(&p, g, &o, mode, s, t, NULL);
  if (cs != ASTAR_OK || !ws) {
    FAILF("seed %ld: new %d", seed, (int)cs);
    astar_workspace_free(ws);
    astar_grid_free(g);
    return;
  }
  const char *tag = mode == ASTAR_DSTAR_LITE ? "dstar-grid" : "lpa-grid";
  /* A third of the sequences report through the grid's change log
  ** (astar_dstar_sync): a small ring, so that batches overflow it now and
  ** then and the planner falls back to comparing its whole snapshot; a
  ** sixth sync without tracking at all (always the fallback). */
  const int via_sync = (int)(seed % 6);
  if (via_sync == 1) CHECK(astar_grid_track_changes(g, (size_t)rng_range(&r, 4, 24)) == ASTAR_OK);
  const int32_t w = spec.width, h = spec.height;
  for (int round = 0; round < 24; round++) {
    const astar_status st = check_plan(p, ws, g, &o, g, &o, tag, seed, round);
    /* D* Lite: the agent walks a few cells along its path. */
    if (mode == ASTAR_DSTAR_LITE && st == ASTAR_OK) {
      const int steps = rng_range(&r, 0, 3);
      for (int k = 0; k < steps; k++) {
        astar_point nx;
        if (astar_dstar_next(p, &nx) != ASTAR_OK) break;
        CHECK(astar_dstar_move(p, nx) == ASTAR_OK);
        /* A move along the path keeps the plan: its rest is a shortest
        ** path from the new cell (checked against A* from there). */
        size_t len = 0;
        double walked = 0.0, ref = 0.0;
        astar_result ar;
        char err[200];
        if (astar_dstar_path(p, pathbuf, MAXPATH, &len) != ASTAR_OK || pathbuf[0].x != nx.x ||
            pathbuf[0].y != nx.y ||
            !validate_walk(g, &o, pathbuf, len, &walked, NULL, err, sizeof err) ||
            astar_find_path(ws, g, &o, nx, t, NULL, 0, &ar) != ASTAR_BUFFER_TOO_SMALL ||
            !cost_equal(walked, (ref = ar.cost)))
          FAILF("%s seed %ld round %d: after a move: %.17g vs %.17g", tag, seed, round, walked,
                ref);
        if (rng_range(&r, 0, 1)) CHECK(astar_dstar_plan(p, NULL) == ASTAR_OK);
      }
    }
    /* An edit batch. */
    astar_point cells[12];
    const int n = rng_range(&r, 1, 10);
    for (int i = 0; i < n; i++) {
      astar_point c = {rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1)};
      if (rng_range(&r, 0, 9) == 0) c = astar_dstar_goal(p);
      const int op = rng_range(&r, 0, spec.terrain ? 3 : 1);
      if (op == 0) {
        astar_grid_set_passable(g, c.x, c.y, false);
      } else if (op == 1) {
        astar_grid_set_passable(g, c.x, c.y, true);
      } else {
        /* Up or down; now and then below the smallest terrain so far. */
        const float v =
            rng_range(&r, 0, 15) == 0 ? rand_terrain(&r, 0.125, 0.5) : rand_terrain(&r, 0.5, 5.0);
        astar_grid_set_terrain(g, c.x, c.y, v);
      }
      cells[i] = c;
    }
    cells[n] = cells[0]; /* a cell listed twice is harmless */
    if (via_sync <= 1)
      CHECK(astar_dstar_sync(p, g) == ASTAR_OK);
    else
      CHECK(astar_dstar_update_cells(p, g, cells, (size_t)n + 1) == ASTAR_OK);
    size_t len;
    if (via_sync > 1) CHECK(astar_dstar_path(p, pathbuf, MAXPATH, &len) == ASTAR_STALE);
  }
  check_plan(p, ws, g, &o, g, &o, tag, seed, 99);
  astar_dstar_stats tot, last;
  astar_dstar_stats_get(p, &tot, &last);
  CHECK(tot.plans >= last.plans && tot.expanded >= last.expanded);
  astar_dstar_free(p);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

static void test_grid_random_dstar(void) {
  for (long seed = 0; seed < 400 / SCALE; seed++) grid_sequence(seed, ASTAR_DSTAR_LITE);
}

static void test_grid_random_lpa(void) {
  for (long seed = 0; seed < 400 / SCALE; seed++) grid_sequence(seed, ASTAR_DSTAR_LPA);
}

/* A wall with a door: the goal cut off, then reachable again, several times. */
static void test_cut_off(void) {
  for (int mode = 0; mode < 2; mode++) {
    astar_grid *g = NULL;
    CHECK(astar_grid_new(&g, 20, 12, NULL) == ASTAR_OK);
    for (int32_t y = 0; y < 12; y++) astar_grid_set_passable(g, 10, y, y == 5);
    astar_options o;
    astar_options_init(&o);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_dstar *p = NULL;
    CHECK(astar_dstar_new_grid(&p, g, &o, (astar_dstar_mode)mode, (astar_point){1, 1},
                               (astar_point){18, 10}, NULL) == ASTAR_OK);
    const astar_point door = {10, 5};
    for (int k = 0; k < 6; k++) {
      CHECK(check_plan(p, ws, g, &o, g, &o, "cut", k, 0) == (k & 1 ? ASTAR_NO_PATH : ASTAR_OK));
      astar_grid_set_passable(g, 10, 5, k & 1);
      CHECK(astar_dstar_update_cells(p, g, &door, 1) == ASTAR_OK);
    }
    /* The goal itself blocked, then freed. */
    astar_grid_set_passable(g, 18, 10, false);
    const astar_point gc = {18, 10};
    CHECK(astar_dstar_update_cells(p, g, &gc, 1) == ASTAR_OK);
    CHECK(check_plan(p, ws, g, &o, g, &o, "goal", 0, 0) == ASTAR_GOAL_BLOCKED);
    astar_grid_set_passable(g, 18, 10, true);
    CHECK(astar_dstar_update_cells(p, g, &gc, 1) == ASTAR_OK);
    CHECK(check_plan(p, ws, g, &o, g, &o, "goal", 1, 0) == ASTAR_OK);
    astar_dstar_free(p);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
}

/* The observer sees one call per vertex update and per expansion, in
** range; a repair touches the cells around the edit; none once removed. */
typedef struct obs_count {
  uint64_t calls, bad;
  bool near_door;
} obs_count;
static void count_obs(void *ctx, astar_point c, astar_node node) {
  obs_count *oc = ctx;
  oc->calls++;
  if (c.x < 0 || c.y < 0 || c.x >= 20 || c.y >= 12 || node != ASTAR_NODE_NONE) oc->bad++;
  if (abs(c.x - 10) <= 1 && abs(c.y - 5) <= 1) oc->near_door = true;
}

static void test_observer(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 20, 12, NULL) == ASTAR_OK);
  for (int32_t y = 0; y < 12; y++) astar_grid_set_passable(g, 10, y, y == 5);
  astar_dstar *p = NULL;
  CHECK(astar_dstar_new_grid(&p, g, NULL, ASTAR_DSTAR_LITE, (astar_point){1, 1},
                             (astar_point){18, 10}, NULL) == ASTAR_OK);
  obs_count oc = {0, 0, false};
  CHECK(astar_dstar_set_observer(p, count_obs, &oc) == ASTAR_OK);
  CHECK(astar_dstar_set_observer(NULL, count_obs, &oc) == ASTAR_INVALID_ARGUMENT);
  astar_dstar_result r;
  CHECK(astar_dstar_plan(p, &r) == ASTAR_OK);
  CHECK_EQ(oc.calls, r.stats.updated + r.stats.expanded);
  CHECK(oc.calls > 0 && oc.bad == 0);
  /* Close the door: the repair starts at the door. */
  oc = (obs_count){0, 0, false};
  astar_grid_set_passable(g, 10, 5, false);
  const astar_point door = {10, 5};
  CHECK(astar_dstar_update_cells(p, g, &door, 1) == ASTAR_OK);
  CHECK(astar_dstar_plan(p, &r) == ASTAR_NO_PATH);
  CHECK_EQ(oc.calls, r.stats.updated + r.stats.expanded);
  CHECK(oc.near_door && oc.bad == 0);
  /* Removed: no more calls. */
  CHECK(astar_dstar_set_observer(p, NULL, NULL) == ASTAR_OK);
  oc.calls = 0;
  astar_grid_set_passable(g, 10, 5, true);
  CHECK(astar_dstar_update_cells(p, g, &door, 1) == ASTAR_OK);
  CHECK(astar_dstar_plan(p, &r) == ASTAR_OK);
  CHECK(r.stats.expanded > 0 && oc.calls == 0);
  astar_dstar_free(p);
  astar_grid_free(g);
}

/* The map as a player with knowledge `k` sees it (unknown cells passable). */
static void view_grid(astar_grid *view, const astar_grid *g, const astar_knowledge *k) {
  for (int32_t y = 0; y < astar_grid_height(g); y++)
    for (int32_t x = 0; x < astar_grid_width(g); x++) {
      const astar_cell_knowledge s = astar_knowledge_get(k, x, y);
      astar_grid_set_passable(view, x, y, s == ASTAR_CELL_UNKNOWN || s == ASTAR_CELL_PASSABLE);
    }
}

/* Fog of war: a robot walks with D* Lite, revealing a radius each step;
** every plan equals A* with the same knowledge, and A* on the view. */
static void test_knowledge_robot(void) {
  for (long seed = 0; seed < 40 / SCALE; seed++) {
    rng r;
    rng_seed(&r, (uint64_t)seed + 500);
    randmap_spec spec = {rng_range(&r, 8, 30), rng_range(&r, 8, 30), 0.3 * rng_unit(&r), 0, 1, 1};
    astar_grid *g = NULL, *view = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    CHECK(astar_grid_clone(&view, g, NULL) == ASTAR_OK);
    astar_knowledge *k = NULL;
    CHECK(astar_knowledge_new(&k, g, NULL) == ASTAR_OK);
    astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    if (!g || !view || !k || s.x < 0) {
      astar_knowledge_free(k);
      astar_grid_free(view);
      astar_grid_free(g);
      continue;
    }
    astar_options o;
    astar_options_init(&o);
    o.moves = seed & 1 ? 8 : 4;
    o.corner = (astar_corner)(seed % 3);
    o.knowledge = k;
    astar_options vo = o;
    vo.knowledge = NULL;
    const int radius = rng_range(&r, 1, 4);
    astar_knowledge_reveal_radius(k, g, s.x, s.y, radius, NULL);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_dstar *p = NULL;
    CHECK(astar_dstar_new_grid(&p, g, &o, ASTAR_DSTAR_LITE, s, t, NULL) == ASTAR_OK);
    static astar_point seen[4096];
    for (int step = 0; step < 400 && p; step++) {
      view_grid(view, g, k);
      const astar_status st = check_plan(p, ws, g, &o, view, &vo, "robot", seed, step);
      if (st != ASTAR_OK) break;
      astar_point nx;
      CHECK(astar_dstar_next(p, &nx) == ASTAR_OK);
      if (nx.x == t.x && nx.y == t.y && astar_dstar_start(p).x == t.x &&
          astar_dstar_start(p).y == t.y)
        break;
      /* The robot steps only onto cells that are truly free (it would
      ** bump into the wall otherwise: reveal and replan). */
      if (astar_grid_passable(g, nx.x, nx.y)) CHECK(astar_dstar_move(p, nx) == ASTAR_OK);
      const astar_point at = astar_dstar_start(p);
      size_t ns = 0;
      for (int32_t y = at.y - radius - 1; y <= at.y + radius + 1; y++)
        for (int32_t x = at.x - radius - 1; x <= at.x + radius + 1; x++)
          if (astar_grid_contains(g, x, y) && astar_knowledge_get(k, x, y) == ASTAR_CELL_UNKNOWN)
            seen[ns++] = (astar_point){x, y};
      astar_knowledge_reveal(k, g, nx.x, nx.y);
      astar_knowledge_reveal_radius(k, g, at.x, at.y, radius, NULL);
      if (!astar_grid_passable(g, nx.x, nx.y)) seen[ns++] = nx;
      CHECK(astar_dstar_update_cells(p, g, seen, ns) == ASTAR_OK);
    }
    astar_dstar_free(p);
    astar_workspace_free(ws);
    astar_knowledge_free(k);
    astar_grid_free(view);
    astar_grid_free(g);
  }
}

/* Moving AI maps (tests/data/small, and two of the shared benchmark's when
** ASTAR_MOVINGAI_DIR says where it is): a few queries, each with random
** edit batches around its path. */
static void test_movingai(void) {
  static char shared[2][512];
  const char *dir = getenv("ASTAR_MOVINGAI_DIR");
  const char *maps[4] = {"data/small/cave64.map", "data/small/rooms64-8.map", NULL, NULL};
  if (dir && strlen(dir) < 400) {
    snprintf(shared[0], sizeof shared[0], "%s/dao/den312d.map", dir);
    snprintf(shared[1], sizeof shared[1], "%s/street/Berlin_0_256.map", dir);
    maps[2] = shared[0];
    maps[3] = shared[1];
  }
  for (int mi = 0; mi < 4 && maps[mi]; mi++) {
    FILE *fp = fopen(maps[mi], "rb");
    CHECKF(fp != NULL, "%s", maps[mi]);
    if (!fp) continue;
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text, fp);
    fclose(fp);
    astar_grid *g = NULL;
    CHECK(astar_movingai_parse_map(&g, text, n, NULL, NULL) == ASTAR_OK);
    if (!g) continue;
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    rng r;
    rng_seed(&r, 77 + (uint64_t)mi);
    astar_dstar *planners[2] = {NULL, NULL}; /* one a mode, restarted for later queries */
    for (int qn = 0; qn < 4; qn++) {
      const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      astar_options o;
      astar_options_init(&o);
      const astar_dstar_mode mode = (astar_dstar_mode)(qn & 1);
      astar_dstar *p = planners[qn & 1];
      if (p)
        CHECK(astar_dstar_restart(p, g, s, t) == ASTAR_OK);
      else
        CHECK(astar_dstar_new_grid(&planners[qn & 1], g, &o, mode, s, t, NULL) == ASTAR_OK);
      p = planners[qn & 1];
      if (!p) continue;
      for (int round = 0; round < 12; round++) {
        const astar_status st = check_plan(p, ws, g, &o, g, &o, maps[mi], qn, round);
        /* Edits on and around the path, so that they matter. */
        astar_point cells[8];
        size_t len = 0;
        if (st == ASTAR_OK) astar_dstar_path(p, pathbuf, MAXPATH, &len);
        for (int i = 0; i < 8; i++) {
          astar_point c;
          if (len > 2 && i < 5) {
            c = pathbuf[rng_range(&r, 1, (int32_t)len - 2)];
            c.x += rng_range(&r, -1, 1);
            c.y += rng_range(&r, -1, 1);
            if (!astar_grid_contains(g, c.x, c.y)) c = s;
          } else {
            c = (astar_point){rng_range(&r, 0, astar_grid_width(g) - 1),
                              rng_range(&r, 0, astar_grid_height(g) - 1)};
          }
          if ((c.x == s.x && c.y == s.y) || (c.x == t.x && c.y == t.y)) {
            cells[i] = c;
            continue;
          }
          astar_grid_set_passable(g, c.x, c.y, rng_range(&r, 0, 2) == 0);
          cells[i] = c;
        }
        CHECK(astar_dstar_update_cells(p, g, cells, 8) == ASTAR_OK);
        if (mode == ASTAR_DSTAR_LITE && st == ASTAR_OK) {
          astar_dstar_plan(p, NULL);
          astar_point nx;
          if (astar_dstar_next(p, &nx) == ASTAR_OK) astar_dstar_move(p, nx);
        }
      }
    }
    astar_dstar_free(planners[0]);
    astar_dstar_free(planners[1]);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
}

/* ---- spaces ------------------------------------------------------------------- */

/* A random digraph as a callback space: cost[a][b] (INFINITY: no arc). */
#define GN 40
#define ZC 1 /* smallest cost, in halves: D* Lite needs positive arc costs */
typedef struct dgraph {
  double cost[GN][GN];
  uint32_t n;
} dgraph;

static size_t dg_succ(const void *self, astar_node u, astar_arc *arcs, size_t cap) {
  const dgraph *d = self;
  size_t k = 0;
  for (uint32_t v = 0; v < d->n && k < cap; v++)
    if (isfinite(d->cost[u][v])) arcs[k++] = (astar_arc){v, d->cost[u][v]};
  return k;
}

static size_t dg_pred(const void *self, astar_node u, astar_arc *arcs, size_t cap) {
  const dgraph *d = self;
  size_t k = 0;
  for (uint32_t v = 0; v < d->n && k < cap; v++)
    if (isfinite(d->cost[v][u])) arcs[k++] = (astar_arc){v, d->cost[v][u]};
  return k;
}

static const astar_space_ops dg_ops = {dg_succ, dg_pred, NULL, NULL, NULL, NULL, 0};

/* Plain O(n^2) Dijkstra from s to t; INFINITY when unreachable. */
static double dg_dijkstra(const dgraph *d, uint32_t s, uint32_t t) {
  double dist[GN];
  bool done[GN] = {false};
  for (uint32_t i = 0; i < d->n; i++) dist[i] = INFINITY;
  dist[s] = 0.0;
  for (;;) {
    uint32_t u = GN;
    for (uint32_t i = 0; i < d->n; i++)
      if (!done[i] && isfinite(dist[i]) && (u == GN || dist[i] < dist[u])) u = i;
    if (u == GN) break;
    done[u] = true;
    for (uint32_t v = 0; v < d->n; v++)
      if (dist[u] + d->cost[u][v] < dist[v]) dist[v] = dist[u] + d->cost[u][v];
  }
  return dist[t];
}

/* Check a node path on the digraph: arcs exist, ends right, cost summed. */
static bool dg_walk(const dgraph *d, const astar_node *path, size_t n, uint32_t s, uint32_t t,
                    double *cost) {
  if (!n || path[0] != s || path[n - 1] != t) return false;
  double c = 0.0;
  for (size_t i = 1; i < n; i++) {
    if (!isfinite(d->cost[path[i - 1]][path[i]])) return false;
    c += d->cost[path[i - 1]][path[i]];
  }
  *cost = c;
  return true;
}

static void test_space_digraph(void) {
  static dgraph d;
  static astar_node np[4 * GN];
  for (long seed = 0; seed < 300 / SCALE; seed++) {
    rng r;
    rng_seed(&r, (uint64_t)seed + 9000);
    d.n = (uint32_t)rng_range(&r, 2, GN);
    const double density = 0.05 + 0.25 * rng_unit(&r);
    for (uint32_t a = 0; a < d.n; a++)
      for (uint32_t b = 0; b < d.n; b++)
        d.cost[a][b] = rng_unit(&r) < density ? rng_range(&r, ZC, 20) * 0.5 : INFINITY;
    const astar_space sp = {&dg_ops, &d, d.n, d.n, 0};
    const astar_dstar_mode mode = (astar_dstar_mode)(seed & 1);
    uint32_t s = (uint32_t)rng_range(&r, 0, (int32_t)d.n - 1);
    const uint32_t t = (uint32_t)rng_range(&r, 0, (int32_t)d.n - 1);
    astar_dstar *p = NULL;
    CHECK(astar_dstar_new_space(&p, &sp, mode, s, t, NULL) == ASTAR_OK);
    if (!p) continue;
    for (int round = 0; round < 30; round++) {
      astar_dstar_result res;
      const astar_status st = astar_dstar_plan(p, &res);
      const double ref = dg_dijkstra(&d, s, t);
      if ((st == ASTAR_OK) != isfinite(ref)) {
        FAILF("digraph seed %ld round %d: status %d, reference %g", seed, round, (int)st, ref);
      } else if (st == ASTAR_OK) {
        size_t len = 0;
        double c = 0.0;
        if (!cost_equal(res.cost, ref))
          FAILF("digraph seed %ld round %d: cost %.17g, reference %.17g", seed, round, res.cost,
                ref);
        if (astar_dstar_path_nodes(p, np, (size_t)4 * GN, &len) != ASTAR_OK ||
            !dg_walk(&d, np, len, s, t, &c) || !cost_equal(c, ref))
          FAILF("digraph seed %ld round %d: bad path", seed, round);
        astar_node nx;
        CHECK(astar_dstar_next_node(p, &nx) == ASTAR_OK && (len > 1 ? nx == np[1] : nx == s));
        if (mode == ASTAR_DSTAR_LITE && len > 1 && rng_range(&r, 0, 1)) {
          s = nx;
          CHECK(astar_dstar_move_node(p, s) == ASTAR_OK);
        }
      }
      astar_arc_change ch[8];
      const int n = rng_range(&r, 1, 8);
      for (int i = 0; i < n; i++) {
        const uint32_t a = (uint32_t)rng_range(&r, 0, (int32_t)d.n - 1);
        const uint32_t b = (uint32_t)rng_range(&r, 0, (int32_t)d.n - 1);
        ch[i] = (astar_arc_change){0, a, b, d.cost[a][b], 0.0};
        const int op = rng_range(&r, 0, 2);
        d.cost[a][b] = op == 0 ? INFINITY : rng_range(&r, ZC, 20) * 0.5;
        /* the same arc twice in a batch: the second old cost is the first's new */
        if (i + 1 < n && rng_range(&r, 0, 5) == 0) {
          ch[++i] = (astar_arc_change){0, a, b, d.cost[a][b], 0.0};
          d.cost[a][b] = rng_range(&r, ZC, 20) * 0.5;
        }
      }
      CHECK(astar_dstar_update_arcs(p, ch, (size_t)n) == ASTAR_OK);
    }
    astar_dstar_free(p);
  }
}

/* Collect the arcs out of nodes[0 .. n-1] of `sp`: (from, to, cost). */
typedef struct arcrec {
  astar_node from, to;
  double cost;
} arcrec;

static size_t collect_arcs(const astar_space *sp, const astar_node *nodes, size_t n, arcrec *out) {
  astar_arc buf[16];
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const size_t m = sp->ops->successors(sp->self, nodes[i], buf, 16);
    for (size_t j = 0; j < m; j++) out[k++] = (arcrec){nodes[i], buf[j].node, buf[j].cost};
  }
  return k;
}

/* A hex grid with cells blocked, freed and re-priced; the changed arcs
** (before / after diff around each edited cell) go to update_arcs. */
static void test_space_hex(void) {
  static astar_node np[MAXPATH];
  for (long seed = 0; seed < 40 / SCALE; seed++) {
    rng r;
    rng_seed(&r, (uint64_t)seed + 31337);
    const int32_t w = rng_range(&r, 3, 20), h = rng_range(&r, 3, 20);
    astar_hex_grid *hg = NULL;
    CHECK(astar_hex_grid_new(&hg, w, h, (astar_hex_orientation)(seed & 1),
                             (astar_hex_layout)((seed >> 1) & 1), NULL) == ASTAR_OK);
    if (!hg) continue;
    for (int i = 0; i < w * h / 4; i++)
      astar_hex_grid_set_passable(hg, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1), false);
    astar_space sp;
    CHECK(astar_hex_space(hg, &sp) == ASTAR_OK);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    CHECK(astar_workspace_reserve_space(ws, &sp, 0) == ASTAR_OK);
    astar_point sc = {rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1)};
    const astar_point tc = {rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1)};
    astar_hex_grid_set_passable(hg, sc.x, sc.y, true);
    astar_hex_grid_set_passable(hg, tc.x, tc.y, true);
    astar_node s = astar_hex_grid_node(hg, sc);
    const astar_node t = astar_hex_grid_node(hg, tc);
    const astar_dstar_mode mode = (astar_dstar_mode)((seed >> 2) & 1);
    astar_dstar *p = NULL;
    CHECK(astar_dstar_new_space(&p, &sp, mode, s, t, NULL) == ASTAR_OK);
    for (int round = 0; round < 20 && p; round++) {
      astar_dstar_result res;
      const astar_status st = astar_dstar_plan(p, &res);
      astar_engine_result er;
      astar_status est = astar_space_find_path(ws, &sp, NULL, s, t, NULL, 0, &er);
      if (est == ASTAR_BUFFER_TOO_SMALL) est = ASTAR_OK;
      if (st != est) {
        FAILF("hex seed %ld round %d: status %d, engine %d", seed, round, (int)st, (int)est);
      } else if (st == ASTAR_OK) {
        if (!cost_equal(res.cost, er.cost))
          FAILF("hex seed %ld round %d: cost %.17g, engine %.17g", seed, round, res.cost, er.cost);
        size_t len = 0;
        CHECK(astar_dstar_path_nodes(p, np, MAXPATH, &len) == ASTAR_OK);
        double c = 0.0;
        bool ok = len >= 1 && np[0] == s && np[len - 1] == t;
        astar_arc buf[16];
        for (size_t i = 1; ok && i < len; i++) {
          const size_t m = sp.ops->successors(sp.self, np[i - 1], buf, 16);
          size_t j = 0;
          while (j < m && buf[j].node != np[i]) j++;
          ok = j < m;
          if (ok) c += buf[j].cost;
        }
        if (!ok || !cost_equal(c, er.cost)) FAILF("hex seed %ld round %d: bad path", seed, round);
        if (mode == ASTAR_DSTAR_LITE && len > 1) {
          s = np[1];
          CHECK(astar_dstar_move_node(p, s) == ASTAR_OK);
        }
      }
      /* Edit a few cells; diff the arcs around each. */
      static arcrec before[256], after[256];
      static astar_arc_change ch[512];
      size_t nch = 0;
      for (int e = 0; e < 3; e++) {
        const astar_point c = {rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1)};
        const astar_node cn = astar_hex_grid_node(hg, c);
        if (cn == s || cn == t) continue;
        astar_node around[16];
        size_t na = 0;
        around[na++] = cn;
        for (int d = 0; d < 6; d++) {
          const astar_point q =
              astar_hex_neighbor(astar_hex_grid_orientation(hg), astar_hex_grid_layout(hg), c, d);
          if (astar_hex_grid_contains(hg, q.x, q.y)) around[na++] = astar_hex_grid_node(hg, q);
        }
        const size_t nb = collect_arcs(&sp, around, na, before);
        if (rng_range(&r, 0, 1))
          astar_hex_grid_set_passable(hg, c.x, c.y, !astar_hex_grid_passable(hg, c.x, c.y));
        else
          astar_hex_grid_set_terrain(hg, c.x, c.y, rand_terrain(&r, 1.0, 4.0));
        const size_t nf = collect_arcs(&sp, around, na, after);
        for (size_t i = 0; i < nb; i++)
          ch[nch++] = (astar_arc_change){0, before[i].from, before[i].to, before[i].cost, 0.0};
        for (size_t i = 0; i < nf; i++) {
          bool was = false;
          for (size_t j = 0; j < nb && !was; j++)
            was = before[j].from == after[i].from && before[j].to == after[i].to;
          if (!was) ch[nch++] = (astar_arc_change){0, after[i].from, after[i].to, INFINITY, 0.0};
        }
        /* one batch per cell: the next cell's "before" is this one's after */
        CHECK(astar_dstar_update_arcs(p, ch, nch) == ASTAR_OK);
        nch = 0;
      }
    }
    astar_dstar_free(p);
    astar_workspace_free(ws);
    astar_hex_grid_free(hg);
  }
}

/* A CSR graph (astar/graph.h) with coordinates and parallel arcs: D* Lite
** walking to the goal while arc costs change (astar_graph_set_arc_cost, some below the
** heuristic's scale, which then comes down), the changes read from the
** graph's log (astar_graph_changes) into astar_dstar_update_arcs; LPA*
** with fixed ends and the same edits. Every plan as cheap as the engine's
** A* on the edited graph. */
static void test_space_csr(void) {
  static astar_arc_change log[64];
  for (long seed = 0; seed < 40 / SCALE; seed++) {
    rng r;
    rng_seed(&r, (uint64_t)seed + 4242);
    const uint32_t n = (uint32_t)rng_range(&r, 10, 200);
    static astar_graph_edge edges[2000];
    static double xy[400];
    size_t ne = 0;
    for (size_t i = 0; i < n; i++) {
      xy[2 * i] = rng_range(&r, 0, 100);
      xy[2 * i + 1] = rng_range(&r, 0, 100);
    }
    for (uint32_t i = 0; i < n && ne + 6 < 2000; i++)
      for (int k = 0; k < 5; k++) {
        const uint32_t j = (uint32_t)rng_range(&r, 0, (int32_t)n - 1);
        const double dx = xy[2 * (size_t)i] - xy[2 * (size_t)j],
                     dy = xy[2 * (size_t)i + 1] - xy[2 * (size_t)j + 1];
        /* positive costs: D* Lite's precondition */
        edges[ne++] =
            (astar_graph_edge){i, j, 0.01 + sqrt(dx * dx + dy * dy) * (1.0 + rng_unit(&r))};
      }
    for (int mode = 0; mode < 2; mode++) {
      astar_graph *gr = NULL;
      CHECK(astar_graph_new(&gr, n, edges, ne, 0, NULL) == ASTAR_OK);
      if (!gr) continue;
      CHECK(astar_graph_set_coords(gr, 2, xy) == ASTAR_OK);
      CHECK(astar_graph_widen_costs(gr) == ASTAR_OK);
      CHECK(astar_graph_track_changes(gr, 64) == ASTAR_OK);
      astar_space sp;
      CHECK(astar_graph_space(gr, &sp) == ASTAR_OK);
      astar_workspace *ws = NULL;
      CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
      CHECK(astar_workspace_reserve_space(ws, &sp, 0) == ASTAR_OK);
      const astar_node t = n - 1;
      astar_dstar *p = NULL;
      CHECK(astar_dstar_new_space(&p, &sp, (astar_dstar_mode)mode, 0, t, NULL) == ASTAR_OK);
      astar_node cur = 0;
      for (int step = 0; step < 200 && p; step++) {
        astar_dstar_result res;
        const astar_status st = astar_dstar_plan(p, &res);
        astar_engine_result er;
        astar_status est = astar_space_find_path(ws, &sp, NULL, cur, t, NULL, 0, &er);
        if (est == ASTAR_BUFFER_TOO_SMALL) est = ASTAR_OK;
        if (st != est)
          FAILF("csr seed %ld step %d: status %d, engine %d", seed, step, (int)st, (int)est);
        if (st == ASTAR_OK && est == ASTAR_OK && !cost_equal(res.cost, er.cost))
          FAILF("csr seed %ld step %d: cost %.17g, engine %.17g", seed, step, res.cost, er.cost);
        if (mode == ASTAR_DSTAR_LITE && st == ASTAR_OK) {
          if (cur == t) break;
          CHECK(astar_dstar_next_node(p, &cur) == ASTAR_OK);
          CHECK(astar_dstar_move_node(p, cur) == ASTAR_OK);
        }
        /* Edit a few arcs; the planner reads them from the graph's log. */
        const uint64_t since = astar_graph_version(gr);
        const int k = rng_range(&r, 0, 4);
        for (int e = 0; e < k; e++) {
          const astar_graph_edge *ed = &edges[rng_range(&r, 0, (int32_t)ne - 1)];
          const double f = rng_range(&r, 0, 5) == 0 ? 0.3 : 0.5 + 2.0 * rng_unit(&r);
          CHECK(astar_graph_set_arc_cost(gr, ed->from, ed->to, 0.01 + ed->cost * f) == ASTAR_OK);
        }
        size_t len = 0;
        CHECK(astar_graph_changes(gr, since, log, 64, &len) == ASTAR_OK);
        CHECK(astar_dstar_update_arcs(p, log, len) == ASTAR_OK);
      }
      astar_dstar_free(p);
      astar_workspace_free(ws);
      astar_graph_free(gr);
    }
  }
}

/* ---- allocation, statuses, arguments --------------------------------------------- */

static void test_alloc_failure(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 9, 7, NULL) == ASTAR_OK);
  static dgraph d;
  d.n = 5;
  for (uint32_t a = 0; a < 5; a++)
    for (uint32_t b = 0; b < 5; b++) d.cost[a][b] = a + 1 == b ? 1.0 : INFINITY;
  const astar_space sp = {&dg_ops, &d, 5, 5, 0};
  for (int which = 0; which < 2; which++) {
    bool done = false;
    for (long k = 1; k < 50 && !done; k++) {
      failalloc fa;
      failalloc_init(&fa);
      failalloc_fail_in(&fa, k);
      const astar_allocator al = failalloc_allocator(&fa);
      astar_dstar *p = (astar_dstar *)&fa; /* must be cleared on failure */
      const astar_status st =
          which == 0 ? astar_dstar_new_grid(&p, g, NULL, ASTAR_DSTAR_LITE, (astar_point){0, 0},
                                            (astar_point){8, 6}, &al)
                     : astar_dstar_new_space(&p, &sp, ASTAR_DSTAR_LPA, 0, 4, &al);
      if (st == ASTAR_OK) {
        done = true;
        CHECK(fa.failures == 0);
        /* plans, edits and moves never allocate */
        const long before = fa.requests;
        CHECK(astar_dstar_plan(p, NULL) == ASTAR_OK);
        if (which == 0) {
          const astar_point c = {4, 3};
          astar_grid_set_passable(g, 4, 3, false);
          CHECK(astar_dstar_update_cells(p, g, &c, 1) == ASTAR_OK);
          CHECK(astar_dstar_move(p, (astar_point){1, 1}) == ASTAR_OK);
          CHECK(astar_dstar_plan(p, NULL) == ASTAR_OK);
          astar_grid_set_passable(g, 4, 3, true);
        }
        CHECK(fa.requests == before);
        CHECK(astar_dstar_memory(p) > 0);
        astar_dstar_free(p);
      } else {
        CHECKF(st == ASTAR_NO_MEMORY, "request %ld: status %d", k, (int)st);
        CHECK(p == NULL);
      }
      CHECKF(fa.blocks == 0, "leak after failing request %ld", k);
      CHECK(fa.osize_mismatches == 0);
    }
    CHECK(done);
  }
  astar_grid_free(g);
}

static void test_arguments(void) {
  astar_grid *g = NULL, *other = NULL;
  CHECK(astar_grid_new(&g, 6, 5, NULL) == ASTAR_OK);
  CHECK(astar_grid_new(&other, 5, 6, NULL) == ASTAR_OK);
  astar_dstar *p = NULL;
  const astar_point a = {0, 0}, b = {5, 4}, out = {6, 0};
  CHECK(astar_dstar_new_grid(NULL, g, NULL, ASTAR_DSTAR_LITE, a, b, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_new_grid(&p, NULL, NULL, ASTAR_DSTAR_LITE, a, b, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_new_grid(&p, g, NULL, (astar_dstar_mode)7, a, b, NULL) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_new_grid(&p, g, NULL, ASTAR_DSTAR_LITE, a, out, NULL) == ASTAR_OUT_OF_BOUNDS);
  astar_options o;
  astar_options_init(&o);
  o.moves = 5;
  CHECK(astar_dstar_new_grid(&p, g, &o, ASTAR_DSTAR_LITE, a, b, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options_init(&o);
  o.weight = 2.0;
  CHECK(astar_dstar_new_grid(&p, g, &o, ASTAR_DSTAR_LITE, a, b, NULL) == ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  o.heuristic = ASTAR_H_MANHATTAN; /* with diagonals: inadmissible */
  CHECK(astar_dstar_new_grid(&p, g, &o, ASTAR_DSTAR_LITE, a, b, NULL) == ASTAR_UNSUPPORTED);
  astar_options_init(&o);
  o.turn_penalty = 1.0;
  CHECK(astar_dstar_new_grid(&p, g, &o, ASTAR_DSTAR_LITE, a, b, NULL) == ASTAR_UNSUPPORTED);
  CHECK(p == NULL);

  CHECK(astar_dstar_new_grid(&p, g, NULL, ASTAR_DSTAR_LITE, a, b, NULL) == ASTAR_OK);
  size_t len = 0;
  astar_point nx;
  CHECK(astar_dstar_path(p, pathbuf, MAXPATH, &len) == ASTAR_STALE);
  CHECK(astar_dstar_next(p, &nx) == ASTAR_STALE);
  CHECK(astar_dstar_plan(p, NULL) == ASTAR_OK);
  CHECK(astar_dstar_path(p, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL && len == 6);
  CHECK(astar_dstar_path(p, NULL, 3, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_path(p, pathbuf, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_node nn;
  CHECK(astar_dstar_path_nodes(p, &nn, 1, &len) == ASTAR_MISMATCH);
  CHECK(astar_dstar_next_node(p, &nn) == ASTAR_MISMATCH);
  CHECK(astar_dstar_move_node(p, 0) == ASTAR_MISMATCH);
  CHECK(astar_dstar_update_arcs(p, NULL, 0) == ASTAR_MISMATCH);
  CHECK(astar_dstar_update_cells(p, other, &a, 1) == ASTAR_MISMATCH);
  CHECK(astar_dstar_update_cells(p, g, NULL, 1) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_update_cells(p, g, &out, 1) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_dstar_sync(p, other) == ASTAR_MISMATCH);
  CHECK(astar_dstar_sync(NULL, g) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_sync(p, g) == ASTAR_OK); /* nothing changed: the path stays */
  CHECK(astar_dstar_path(p, pathbuf, MAXPATH, &len) == ASTAR_OK);
  CHECK(astar_dstar_move(p, out) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_dstar_restart(p, g, a, out) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_dstar_restart(p, other, a, b) == ASTAR_MISMATCH);
  CHECK(astar_dstar_restart(NULL, g, a, b) == ASTAR_INVALID_ARGUMENT);
  /* the agent's cell blocked: START_BLOCKED, and recovered after */
  astar_grid_set_passable(g, 0, 0, false);
  CHECK(astar_dstar_update_cells(p, g, &a, 1) == ASTAR_OK);
  CHECK(astar_dstar_plan(p, NULL) == ASTAR_START_BLOCKED);
  CHECK(astar_dstar_path(p, pathbuf, MAXPATH, &len) == ASTAR_START_BLOCKED);
  astar_grid_set_passable(g, 0, 0, true);
  CHECK(astar_dstar_update_cells(p, g, &a, 1) == ASTAR_OK);
  astar_dstar_result res;
  CHECK(astar_dstar_plan(p, &res) == ASTAR_OK && res.cost > 0.0);
  /* a move off the path: plan again */
  CHECK(astar_dstar_move(p, (astar_point){0, 4}) == ASTAR_OK);
  CHECK(astar_dstar_path(p, pathbuf, MAXPATH, &len) == ASTAR_STALE);
  CHECK(astar_dstar_plan(p, &res) == ASTAR_OK && res.cost > 0.0);
  /* at the goal: a one-cell path of cost 0 */
  CHECK(astar_dstar_move(p, b) == ASTAR_OK);
  CHECK(astar_dstar_plan(p, &res) == ASTAR_OK && res.cost == 0.0);
  CHECK(astar_dstar_path(p, pathbuf, MAXPATH, &len) == ASTAR_OK && len == 1);
  CHECK(astar_dstar_next(p, &nx) == ASTAR_OK && nx.x == b.x && nx.y == b.y);
  astar_dstar_free(p);

  CHECK(astar_dstar_new_grid(&p, g, NULL, ASTAR_DSTAR_LPA, a, b, NULL) == ASTAR_OK);
  CHECK(astar_dstar_move(p, b) == ASTAR_UNSUPPORTED);
  astar_dstar_free(p);
  astar_dstar_free(NULL);
  CHECK(astar_dstar_plan(NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_memory(NULL) == 0);

  static dgraph d;
  d.n = 3;
  for (uint32_t i = 0; i < 3; i++)
    for (uint32_t j = 0; j < 3; j++) d.cost[i][j] = INFINITY;
  astar_space sp = {&dg_ops, &d, 3, 3, 0};
  CHECK(astar_dstar_new_space(&p, &sp, ASTAR_DSTAR_LITE, 0, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  static const astar_space_ops nopred = {dg_succ, NULL, NULL, NULL, NULL, NULL, 0};
  astar_space sp2 = {&nopred, &d, 3, 3, 0};
  CHECK(astar_dstar_new_space(&p, &sp2, ASTAR_DSTAR_LITE, 0, 2, NULL) == ASTAR_UNSUPPORTED);
  CHECK(astar_dstar_new_space(&p, &sp, ASTAR_DSTAR_LITE, 0, 2, NULL) == ASTAR_OK);
  CHECK(astar_dstar_plan(p, NULL) == ASTAR_NO_PATH);
  CHECK(astar_dstar_path_nodes(p, &nn, 1, &len) == ASTAR_NO_PATH);
  const astar_arc_change bad = {0, 0, 9, 1.0, 1.0};
  CHECK(astar_dstar_update_arcs(p, &bad, 1) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_update_arcs(p, NULL, 1) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_dstar_update_cells(p, g, &a, 1) == ASTAR_MISMATCH);
  CHECK(astar_dstar_sync(p, g) == ASTAR_MISMATCH);
  CHECK(astar_dstar_restart(p, g, a, a) == ASTAR_MISMATCH);
  CHECK(astar_dstar_move(p, a) == ASTAR_MISMATCH);
  d.cost[0][1] = 2.0;
  d.cost[1][2] = 3.0;
  const astar_arc_change ch[2] = {{0, 0, 1, INFINITY, 2.0}, {0, 1, 2, INFINITY, 3.0}};
  CHECK(astar_dstar_update_arcs(p, ch, 2) == ASTAR_OK);
  astar_dstar_result rr;
  CHECK(astar_dstar_plan(p, &rr) == ASTAR_OK && rr.cost == 5.0);
  astar_node three[3];
  CHECK(astar_dstar_path_nodes(p, three, 3, &len) == ASTAR_OK && len == 3 && three[1] == 1);
  CHECK(astar_dstar_start(p).x == -1);
  astar_dstar_free(p);
  astar_grid_free(other);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_arguments);
  RUN(test_alloc_failure);
  RUN(test_cut_off);
  RUN(test_observer);
  RUN(test_grid_random_dstar);
  RUN(test_grid_random_lpa);
  RUN(test_knowledge_robot);
  RUN(test_movingai);
  RUN(test_space_digraph);
  RUN(test_space_hex);
  RUN(test_space_csr);
  return check_summary();
}
