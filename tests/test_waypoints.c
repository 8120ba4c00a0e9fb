/*
** test_waypoints.c -- waypoint graphs (astar/waypoints.h) against
** geometry re-derived here from scratch: line of sight as segment-square
** intersection with exact fractions (not the library's cell walk), the
** waypoints found grid point by grid point (not cell by cell), and plain
** Dijkstras over the resulting graphs. On hundreds of seeded random grids
** and every supported corner rule: the waypoints and edges are exactly
** those; every query's cost equals the independent visibility-graph
** Dijkstra, lies between the true any-angle optimum through all cell
** centres and the octile grid optimum, and exists exactly when a grid
** path does; every segment is in sight and the expanded walk is a legal
** grid path; all methods agree. Also: allocation failure at every
** allocation of the constructor, stale and mismatched grids, searching
** without allocating, arguments.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/sightref.h"
#include "util/validate.h"

#define MAXS 18                                               /* largest side of the random maps */
#define MAXC 324                                              /* MAXS * MAXS: most cells */
#define IX(i, j, n) ((size_t)(i) * (size_t)(n) + (size_t)(j)) /* row-major index */

/* ---- geometry, independently (tests/util/sightref.c) ------------------------- */

/* The waypoints, grid point by grid point: mark[y * width + x]. */
static void ref_waypoints(const astar_grid *g, astar_corner corner, bool side, bool *mark) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  memset(mark, 0, (size_t)w * (size_t)h);
  for (int32_t py = 0; py <= h; py++)
    for (int32_t px = 0; px <= w; px++) {
      /* The four cells around grid point (px, py), quadrant q = (qx, qy). */
      astar_point c[4];
      bool open[4];
      int blocked = 0, bq = -1;
      for (int q = 0; q < 4; q++) {
        c[q].x = (q & 1) ? px : px - 1;
        c[q].y = (q & 2) ? py : py - 1;
        open[q] = ref_open_at(g, c[q].x, c[q].y);
        if (!open[q]) blocked++, bq = q;
      }
#define MARK(q) (mark[(size_t)c[q].y * (size_t)w + (size_t)c[q].x] = true)
      if (blocked == 1) {
        MARK(3 - bq); /* diagonal to the blocked cell */
        if (side) {
          MARK(bq ^ 1);
          MARK(bq ^ 2);
        }
      } else if (corner == ASTAR_CORNER_ALWAYS && blocked == 2 && !open[0] && !open[3]) {
        MARK(1); /* squeezed between two diagonal blocked cells */
        MARK(2);
      } else if (corner == ASTAR_CORNER_ALWAYS && blocked == 2 && !open[1] && !open[2]) {
        MARK(0);
        MARK(3);
      }
#undef MARK
    }
}

/* ---- one map, one rule: everything against the references --------------------- */

typedef struct tally {
  long queries, paths, unreachable, below_full, strictly_below_grid;
  double ratio_sum; /* waypoint cost / octile optimum */
  double worst;     /* largest waypoint cost / any-angle optimum */
} tally;

static astar_workspace *ws_for(const astar_grid *g, const astar_waypoints *wp) {
  astar_workspace *ws = NULL;
  if (astar_workspace_new(&ws, g, NULL) != ASTAR_OK) return NULL;
  if (astar_waypoints_reserve(ws, wp, ASTAR_RESERVE_BACKWARD) != ASTAR_OK) {
    astar_workspace_free(ws);
    return NULL;
  }
  return ws;
}

static void check_map(const astar_grid *g, astar_corner corner, unsigned flags, rng *r, tally *t,
                      int map_no) {
  static bool mark[MAXC];
  static astar_point cells[MAXC];  /* passable cells */
  static int corner_of[MAXC];      /* cell index -> waypoint id, or -1 */
  static double full[MAXC * MAXC]; /* all passable cells, in sight */
  static double wpm[(size_t)(MAXC + 2) * (MAXC + 2)];
  static int pred[MAXC + 2];
  static astar_point path[MAXC + 4], walk[8 * MAXC];
  static uint32_t nb[MAXC];
  astar_options opt;
  astar_options_init(&opt);
  opt.corner = corner;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  astar_waypoints *wp = NULL;
  astar_status st = astar_waypoints_new(&wp, g, &opt, flags, NULL);
  CHECKF(st == ASTAR_OK, "map %d: new %d", map_no, (int)st);
  if (st != ASTAR_OK) return;

  /* Waypoints: exactly the reference set, in row-major order. */
  const bool side = corner != ASTAR_CORNER_NO_CUT || (flags & ASTAR_WAYPOINTS_SIDE_CELLS);
  ref_waypoints(g, corner, side, mark);
  int nwp = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      corner_of[IX(y, x, w)] = -1;
      if (!mark[IX(y, x, w)] || !ref_open_at(g, x, y)) continue;
      const astar_point c = astar_waypoints_cell(wp, (uint32_t)nwp);
      CHECKF(c.x == x && c.y == y, "map %d: waypoint %d at (%d,%d), expected (%d,%d)", map_no, nwp,
             c.x, c.y, x, y);
      corner_of[IX(y, x, w)] = nwp++;
    }
  CHECKF(astar_waypoints_count(wp) == (uint32_t)nwp, "map %d: %u waypoints, expected %d", map_no,
         astar_waypoints_count(wp), nwp);
  if (astar_waypoints_count(wp) != (uint32_t)nwp) {
    astar_waypoints_free(wp);
    return;
  }

  /* Edges: exactly the pairs in sight, ascending; the matrix of the graph
  ** with two spare rows for a query's start and goal. */
  const int n = nwp + 2;
  size_t edges = 0;
  for (int i = 0; i < n * n; i++) wpm[i] = INFINITY;
  for (int i = 0; i < nwp; i++) {
    const astar_point ci = astar_waypoints_cell(wp, (uint32_t)i);
    const size_t deg = astar_waypoints_neighbors(wp, (uint32_t)i, nb, MAXC);
    size_t k = 0;
    for (int j = 0; j < nwp; j++) {
      const astar_point cj = astar_waypoints_cell(wp, (uint32_t)j);
      if (j == i || !ref_sight(g, corner, ci, cj)) continue;
      CHECKF(k < deg && nb[k] == (uint32_t)j, "map %d: edge %d-%d missing or out of order", map_no,
             i, j);
      k++;
      wpm[IX(i, j, n)] = opt.straight_cost * ref_euclid(ci, cj);
    }
    CHECKF(k == deg, "map %d: waypoint %d has %zu neighbours, expected %zu", map_no, i, deg, k);
    edges += deg;
  }
  CHECK(astar_waypoints_edge_count(wp) * 2 == edges);

  /* Every passable cell and everything it sees: the true any-angle graph. */
  int ncells = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (ref_open_at(g, x, y)) cells[ncells++] = (astar_point){x, y};
  for (int i = 0; i < ncells; i++) {
    full[IX(i, i, ncells)] = INFINITY;
    for (int j = i + 1; j < ncells; j++)
      full[IX(i, j, ncells)] = full[IX(j, i, ncells)] =
          ref_sight(g, corner, cells[i], cells[j]) ? ref_euclid(cells[i], cells[j]) : INFINITY;
  }

  astar_workspace *ws = ws_for(g, wp);
  CHECK(ws != NULL);
  if (!ws || ncells == 0) {
    astar_workspace_free(ws);
    astar_waypoints_free(wp);
    return;
  }
  for (int qn = 0; qn < 6; qn++) {
    const int si = rng_range(r, 0, ncells - 1), gi = rng_range(r, 0, ncells - 1);
    const astar_point s = cells[si], gl = cells[gi];
    const double grid_opt = ref_dijkstra(g, &opt, s, gl);
    const double any_opt = ref_dense_dijkstra(full, ncells, si, gi, pred);

    /* The independent waypoint graph with this start and goal inserted. */
    const int sn = corner_of[IX(s.y, s.x, w)] >= 0 ? corner_of[IX(s.y, s.x, w)] : nwp;
    int gn = corner_of[IX(gl.y, gl.x, w)] >= 0 ? corner_of[IX(gl.y, gl.x, w)] : nwp + 1;
    if (s.x == gl.x && s.y == gl.y) gn = sn;
    for (int i = 0; i < n; i++) {
      wpm[IX(i, nwp, n)] = wpm[IX(nwp, i, n)] = INFINITY;
      wpm[IX(i, nwp + 1, n)] = wpm[IX(nwp + 1, i, n)] = INFINITY;
    }
    for (int e = 0; e < 2; e++) {
      const int en = e ? nwp + 1 : nwp;
      const astar_point ec = e ? gl : s;
      for (int i = 0; i < nwp; i++) {
        const astar_point ci = astar_waypoints_cell(wp, (uint32_t)i);
        if (ref_sight(g, corner, ec, ci))
          wpm[IX(en, i, n)] = wpm[IX(i, en, n)] = opt.straight_cost * ref_euclid(ec, ci);
      }
    }
    if (ref_sight(g, corner, s, gl))
      wpm[IX(nwp, nwp + 1, n)] = wpm[IX(nwp + 1, nwp, n)] = opt.straight_cost * ref_euclid(s, gl);
    const double ref = ref_dense_dijkstra(wpm, n, sn, gn, pred);

    t->queries++;
    /* The methods up to bidirectional (the variants of Patel 4 after them
    ** are test_variants.c's). */
    for (int method = 0; method <= ASTAR_METHOD_BIDIRECTIONAL; method++) {
      if (method == ASTAR_METHOD_GREEDY) continue;
      astar_engine_options eo;
      astar_engine_options_init(&eo);
      eo.method = (astar_method)method;
      astar_engine_result res;
      st = astar_waypoints_find_path(ws, wp, g, &eo, s, gl, path, MAXC + 4, &res);
      /* (d) reachability is the grid's. */
      if (grid_opt < 0) {
        CHECKF(st == ASTAR_NO_PATH && ref < 0 && any_opt < 0,
               "map %d q %d: status %d, grid says unreachable", map_no, qn, (int)st);
        if (method == 0) t->unreachable++;
        continue;
      }
      CHECKF(st == ASTAR_OK, "map %d q %d (%d,%d)->(%d,%d) method %d: status %d", map_no, qn, s.x,
             s.y, gl.x, gl.y, method, (int)st);
      if (st != ASTAR_OK) continue;
      /* (a) the independent visibility-graph Dijkstra. */
      CHECKF(cost_equal(res.cost, ref), "map %d q %d method %d: cost %.12g, reference %.12g",
             map_no, qn, method, res.cost, ref);
      /* (b) never longer than the grid optimum, never shorter than the
      ** any-angle optimum through every centre. */
      CHECKF(res.cost <= grid_opt * (1 + 1e-12) + 1e-12,
             "map %d q %d: cost %.12g above the grid optimum %.12g", map_no, qn, res.cost,
             grid_opt);
      CHECKF(res.cost >= any_opt * (1 - 1e-12) - 1e-12,
             "map %d q %d: cost %.12g below the any-angle optimum %.12g", map_no, qn, res.cost,
             any_opt);
      /* (c) the path: start to goal, every segment in sight, costs adding up. */
      CHECK(res.length >= 1 && path[0].x == s.x && path[0].y == s.y &&
            path[res.length - 1].x == gl.x && path[res.length - 1].y == gl.y);
      double sum = 0;
      for (size_t i = 1; i < res.length; i++) {
        CHECKF(ref_sight(g, corner, path[i - 1], path[i]), "map %d q %d: segment %zu not in sight",
               map_no, qn, i);
        CHECK(astar_waypoints_visible(wp, g, path[i - 1], path[i]));
        sum += ref_euclid(path[i - 1], path[i]);
      }
      CHECK(cost_equal(sum, res.cost));
      size_t wl = 0;
      CHECK(astar_waypoints_expand(path, res.length, walk, sizeof walk / sizeof walk[0], &wl) ==
            ASTAR_OK);
      double wcost = 0;
      char err[160];
      CHECKF(validate_walk(g, &opt, walk, wl, &wcost, NULL, err, sizeof err),
             "map %d q %d: expanded walk: %s", map_no, qn, err);
      CHECK(wcost >= res.cost * (1 - 1e-12) && wcost >= grid_opt * (1 - 1e-12));
      if (method == 0) {
        t->paths++;
        t->below_full += res.cost > any_opt * (1 + 1e-12);
        if (any_opt > 0 && res.cost / any_opt > t->worst) t->worst = res.cost / any_opt;
        t->strictly_below_grid += res.cost < grid_opt * (1 - 1e-12);
        t->ratio_sum += grid_opt > 0 ? res.cost / grid_opt : 1.0;
      }
    }
  }
  astar_workspace_free(ws);
  astar_waypoints_free(wp);
}

static void test_random(void) {
  static const struct {
    astar_corner corner;
    unsigned flags;
    const char *name;
  } rules[] = {{ASTAR_CORNER_NO_CUT, 0, "no-cut"},
               {ASTAR_CORNER_NO_CUT, ASTAR_WAYPOINTS_SIDE_CELLS, "no-cut+side"},
               {ASTAR_CORNER_ONE_SIDE, 0, "one-side"},
               {ASTAR_CORNER_ALWAYS, 0, "always"}};
  for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
    rng r;
    rng_seed(&r, 7000 + k);
    tally t;
    memset(&t, 0, sizeof t);
    for (int m = 0; m < 150; m++) {
      randmap_spec spec;
      randmap_random_spec(&spec, &r, MAXS, 0);
      astar_grid *g = NULL;
      CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
      if (!g) continue;
      check_map(g, rules[k].corner, rules[k].flags, &r, &t, m);
      astar_grid_free(g);
    }
    printf("     %-12s %ld queries: %ld paths (%ld shorter than the grid optimum, mean ratio "
           "%.4f), %ld unreachable; %ld longer than the any-angle optimum (at most x%.4f)\n",
           rules[k].name, t.queries, t.paths, t.strictly_below_grid,
           t.paths ? t.ratio_sum / (double)t.paths : 0.0, t.unreachable, t.below_full, t.worst);
    CHECK(t.paths > 300 && t.unreachable > 10 && t.strictly_below_grid > 50);
  }
}

/* Long sight lines (runs of cells over several 64-bit words, lines of
** every slope) on large sparse maps: astar_waypoints_visible against the
** reference on random pairs, and the whole graph on one map. */
static void test_long_sightlines(void) {
  rng r;
  rng_seed(&r, 4242);
  long seen = 0, pairs = 0;
  for (int m = 0; m < 12; m++) {
    /* Few scattered obstacles and a few long walls with gaps. */
    const int32_t side = m == 0 ? 90 : 230;
    randmap_spec spec = {
        rng_range(&r, 60, side), rng_range(&r, 60, side), 0.001 + 0.004 * rng_unit(&r), 0, 0, 0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (!g) continue;
    for (int k = 0; k < 3; k++) {
      const bool across = rng_range(&r, 0, 1);
      const int32_t at = rng_range(&r, 0, (across ? spec.height : spec.width) - 1);
      for (int32_t i = 0; i < (across ? spec.width : spec.height); i++)
        if (rng_range(&r, 0, 9) != 0)
          astar_grid_set_passable(g, across ? i : at, across ? at : i, false);
    }
    for (astar_corner c = ASTAR_CORNER_NO_CUT; c <= ASTAR_CORNER_ONE_SIDE; c++) {
      astar_options o;
      astar_options_init(&o);
      o.corner = c;
      astar_waypoints *wp = NULL;
      CHECK(astar_waypoints_new(&wp, g, &o, 0, NULL) == ASTAR_OK);
      for (int i = 0; i < 1500; i++) {
        astar_point a = randmap_passable_cell(g, &r), b = randmap_passable_cell(g, &r);
        if (i % 3 == 0)
          b.y = a.y + (b.x - a.x) * (i % 2 ? 1 : -1) / (1 + i % 4); /* lattice lines */
        if (!astar_grid_contains(g, b.x, b.y)) continue;
        const bool want = ref_sight(g, c, a, b);
        CHECKF(astar_waypoints_visible(wp, g, a, b) == want &&
                   astar_waypoints_visible(wp, g, b, a) == want,
               "map %d rule %d: (%d,%d)-(%d,%d) should be %d", m, (int)c, a.x, a.y, b.x, b.y,
               (int)want);
        seen += want;
        pairs++;
      }
      if (m == 0) {
        /* Every edge of the graph, both ways. */
        const uint32_t n = astar_waypoints_count(wp);
        size_t edges = 0;
        for (uint32_t i = 0; i < n; i++)
          for (uint32_t j = i + 1; j < n; j++)
            edges += ref_sight(g, c, astar_waypoints_cell(wp, i), astar_waypoints_cell(wp, j));
        CHECKF(edges == astar_waypoints_edge_count(wp), "rule %d: %zu edges, expected %zu", (int)c,
               astar_waypoints_edge_count(wp), edges);
      }
      astar_waypoints_free(wp);
    }
    astar_grid_free(g);
  }
  CHECK(seen > pairs / 4 && seen < pairs);
}

/* A known answer: around one block, through its corner cells. */
static void test_known(void) {
  static const char *const rows[] = {
      "..........", /* */
      "..........", /* */
      "....##....", /* */
      "....##....", /* */
      "..........",
  };
  astar_grid *g = randmap_from_rows(rows, 5, '#');
  astar_waypoints *wp = NULL;
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  /* The four classic corners of the block. */
  CHECK(astar_waypoints_count(wp) == 4);
  const astar_point c0 = astar_waypoints_cell(wp, 0), c3 = astar_waypoints_cell(wp, 3);
  CHECK(c0.x == 3 && c0.y == 1 && c3.x == 6 && c3.y == 4);
  CHECK(astar_waypoints_cell(wp, 4).x == -1);
  /* Each sees the two on its sides of the block; the diagonals cross it. */
  CHECK(astar_waypoints_edge_count(wp) == 4);
  uint32_t nb[4];
  CHECK(astar_waypoints_neighbors(wp, 0, nb, 4) == 2 && nb[0] == 1 && nb[1] == 2);
  CHECK(astar_waypoints_neighbors(wp, 9, nb, 4) == 0);
  astar_workspace *ws = ws_for(g, wp);
  astar_point path[8], cells[32];
  astar_engine_result res;
  /* (0,3) -> (9,3): the straight line crosses the block; one bend at a
  ** lower corner, (3,4) or (6,4), passes it without touching it (the
  ** segment from (3,4) to (9,3) is at y 4.08 > 4 where it leaves the block's
  ** column range). */
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, (astar_point){0, 3}, (astar_point){9, 3}, path,
                                  8, &res) == ASTAR_OK);
  CHECK(res.length == 3 && path[1].y == 4 && (path[1].x == 3 || path[1].x == 6));
  const double want = sqrt(10.0) + sqrt(37.0);
  CHECKF(cost_equal(res.cost, want), "%.12g vs %.12g", res.cost, want);
  size_t n = 0;
  CHECK(astar_waypoints_expand(path, res.length, cells, 32, &n) == ASTAR_OK);
  double wc;
  char err[120];
  CHECKF(validate_walk(g, NULL, cells, n, &wc, NULL, err, sizeof err), "%s", err);
  /* Too small a buffer: the length needed, nothing written. */
  size_t n2 = 0;
  cells[0].x = -7;
  CHECK(astar_waypoints_expand(path, res.length, cells, n - 1, &n2) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(n2 == n && cells[0].x == -7);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, (astar_point){0, 3}, (astar_point){9, 3}, path,
                                  2, &res) == ASTAR_BUFFER_TOO_SMALL &&
        res.length == 3);
  /* A start in plain sight of the goal: two waypoints, the straight line. */
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, (astar_point){0, 0}, (astar_point){9, 1}, path,
                                  8, &res) == ASTAR_OK);
  CHECK(res.length == 2 && cost_equal(res.cost, sqrt(82.0)));
  /* start == goal: one node, cost 0; on a waypoint too. */
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, (astar_point){1, 1}, (astar_point){1, 1}, path,
                                  8, &res) == ASTAR_OK);
  CHECK(res.length == 1 && res.cost == 0.0 && path[0].x == 1);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, c0, c0, path, 8, &res) == ASTAR_OK &&
        res.length == 1);
  /* Start and goal on waypoints: the graph alone. */
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, c0, c3, path, 8, &res) == ASTAR_OK);
  CHECK(res.length == 3 && cost_equal(res.cost, 3.0 + 3.0));
  /* A query's space: the node ids and cells. */
  astar_waypoints_query q;
  astar_space sp;
  CHECK(astar_waypoints_query_init(&q, &sp, wp, g, (astar_point){0, 3}, c3) == ASTAR_OK);
  CHECK(q.start_node == 4 && q.start_extra && q.goal_node == 3 && !q.goal_extra);
  CHECK(sp.node_count == 6 && sp.max_degree == 5);
  CHECK(astar_waypoints_query_cell(&q, 4).x == 0 && astar_waypoints_query_cell(&q, 5).x == 6);
  CHECK(astar_waypoints_query_cell(&q, 6).x == -1);
  /* Straight cost scales every cost. */
  astar_options o;
  astar_options_init(&o);
  o.straight_cost = 10;
  o.diagonal_cost = 14;
  astar_waypoints *wp10 = NULL;
  CHECK(astar_waypoints_new(&wp10, g, &o, 0, NULL) == ASTAR_OK);
  CHECK(astar_waypoints_find_path(ws, wp10, g, NULL, (astar_point){0, 3}, (astar_point){9, 3}, path,
                                  8, &res) == ASTAR_OK);
  CHECKF(cost_equal(res.cost, 10 * want), "%.12g vs %.12g (length %zu)", res.cost, 10 * want,
         res.length);
  astar_waypoints_free(wp10);
  astar_workspace_free(ws);
  astar_waypoints_free(wp);
  astar_grid_free(g);
}

/* Stale and mismatched grids; what cannot be built; bad arguments. */
static void test_stale_and_arguments(void) {
  rng r;
  rng_seed(&r, 31);
  randmap_spec spec = {12, 12, 0.25, 0, 0, 0};
  astar_grid *g = NULL, *other = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_grid_set_passable(g, 0, 0, true);
  astar_grid_set_passable(g, 11, 11, true);
  CHECK(astar_grid_clone(&other, g, NULL) == ASTAR_OK);
  astar_waypoints *wp = NULL;
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  astar_workspace *ws = ws_for(g, wp);
  astar_point path[200];
  astar_engine_result res;
  const astar_point s = {0, 0}, t = {11, 11};
  astar_status st = astar_waypoints_find_path(ws, wp, g, NULL, s, t, path, 200, &res);
  CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
  CHECK(astar_waypoints_check(wp, g) == ASTAR_OK);
  CHECK(astar_waypoints_check(wp, other) == ASTAR_MISMATCH);
  CHECK(astar_waypoints_find_path(ws, wp, other, NULL, s, t, path, 200, &res) == ASTAR_MISMATCH);
  CHECK(res.cause == ASTAR_MISMATCH && res.length == 0 && res.end == ASTAR_NODE_NONE);
  /* Any edit makes it stale, for queries and checks alike. */
  astar_grid_set_passable(g, 5, 5, !astar_grid_passable(g, 5, 5));
  CHECK(astar_waypoints_check(wp, g) == ASTAR_STALE);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, s, t, path, 200, &res) == ASTAR_STALE);
  astar_waypoints_query q;
  astar_space sp;
  CHECK(astar_waypoints_query_init(&q, &sp, wp, g, s, t) == ASTAR_STALE);
  /* Rebuilt: current again. */
  astar_waypoints_free(wp);
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_waypoints_check(wp, g) == ASTAR_OK);
  CHECK(astar_waypoints_reserve(ws, wp, 0) == ASTAR_OK);
  /* Endpoints. */
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, (astar_point){-1, 0}, t, path, 200, &res) ==
        ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, s, (astar_point){12, 0}, path, 200, &res) ==
        ASTAR_OUT_OF_BOUNDS);
  astar_grid_free(other);
  CHECK(astar_grid_clone(&other, g, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 0, 0, false);
  astar_waypoints_free(wp);
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, s, t, path, 200, &res) == ASTAR_START_BLOCKED);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, t, s, path, 200, &res) == ASTAR_GOAL_BLOCKED);
  CHECK(!astar_waypoints_visible(wp, g, s, t) && !astar_waypoints_visible(wp, g, t, s));
  CHECK(!astar_waypoints_visible(wp, g, (astar_point){-1, 0}, t));
  /* Not reserved: the engine's ASTAR_CAPACITY. */
  astar_workspace *small = NULL;
  astar_grid *one = NULL;
  CHECK(astar_grid_new(&one, 1, 1, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new(&small, one, NULL) == ASTAR_OK);
  if (astar_waypoints_count(wp) > 0)
    CHECK(astar_waypoints_find_path(small, wp, g, NULL, t, (astar_point){11, 10}, path, 200,
                                    &res) == ASTAR_CAPACITY);
  /* Arguments. */
  astar_waypoints *bad = (astar_waypoints *)&r;
  CHECK(astar_waypoints_new(NULL, g, NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_new(&bad, NULL, NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT && !bad);
  CHECK(astar_waypoints_new(&bad, g, NULL, 4u, NULL) == ASTAR_INVALID_ARGUMENT && !bad);
  astar_options o;
  astar_options_init(&o);
  o.straight_cost = -1;
  CHECK(astar_waypoints_new(&bad, g, &o, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_options_init(&o);
  o.moves = 4;
  CHECK(astar_waypoints_new(&bad, g, &o, 0, NULL) == ASTAR_UNSUPPORTED && !bad);
  astar_options_init(&o);
  o.corner = ASTAR_CORNER_NEVER;
  CHECK(astar_waypoints_new(&bad, g, &o, 0, NULL) == ASTAR_UNSUPPORTED);
  CHECK(astar_grid_set_terrain(other, 1, 1, 2.0f) == ASTAR_OK);
  CHECK(astar_waypoints_new(&bad, other, NULL, 0, NULL) == ASTAR_UNSUPPORTED && !bad);
  CHECK(astar_waypoints_find_path(NULL, wp, g, NULL, s, t, path, 200, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_find_path(ws, NULL, g, NULL, s, t, path, 200, &res) ==
        ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, t, t, NULL, 5, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, t, t, NULL, 0, NULL) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(astar_waypoints_query_init(NULL, &sp, wp, g, s, t) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_reserve(NULL, wp, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_reserve(ws, wp, 99u) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_check(NULL, g) == ASTAR_INVALID_ARGUMENT);
  size_t len = 9;
  CHECK(astar_waypoints_expand(NULL, 0, NULL, 0, &len) == ASTAR_OK && len == 0);
  CHECK(astar_waypoints_expand(NULL, 2, NULL, 0, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_expand(path, 1, NULL, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_waypoints_count(NULL) == 0 && astar_waypoints_edge_count(NULL) == 0 &&
        astar_waypoints_memory(NULL) == 0);
  astar_waypoints_free(NULL);
  astar_workspace_free(small);
  astar_grid_free(one);
  astar_grid_free(other);
  astar_workspace_free(ws);
  astar_waypoints_free(wp);
  astar_grid_free(g);
}

/* A grid with no waypoints at all (open, or all blocked): queries still
** answer by direct sight. */
static void test_no_waypoints(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 7, 5, NULL) == ASTAR_OK);
  astar_waypoints *wp = NULL;
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_waypoints_count(wp) == 0 && astar_waypoints_edge_count(wp) == 0);
  CHECK(astar_waypoints_memory(wp) > 0);
  astar_workspace *ws = ws_for(g, wp);
  astar_point path[4];
  astar_engine_result res;
  CHECK(astar_waypoints_find_path(ws, wp, g, NULL, (astar_point){0, 0}, (astar_point){6, 4}, path,
                                  4, &res) == ASTAR_OK);
  CHECK(res.length == 2 && cost_equal(res.cost, sqrt(36.0 + 16.0)));
  astar_workspace_free(ws);
  astar_waypoints_free(wp);
  CHECK(astar_grid_fill(g, false) == ASTAR_OK);
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_waypoints_count(wp) == 0);
  astar_waypoints_free(wp);
  astar_grid_free(g);
}

/* Allocation failure at every allocation of the constructor: NO_MEMORY,
** *out NULL, nothing leaked; then the reservation; searching allocates
** nothing. */
static void test_failalloc(void) {
  rng r;
  rng_seed(&r, 77);
  /* Dense enough that the edge list grows several times. */
  randmap_spec spec = {40, 40, 0.08, 0, 0, 0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  for (int rule = 0; rule < 2; rule++) {
    o.corner = rule ? ASTAR_CORNER_ALWAYS : ASTAR_CORNER_NO_CUT;
    int succeeded = 0;
    long failures = 0;
    for (long k = 1; k < 200 && !succeeded; k++) {
      failalloc fa;
      failalloc_init(&fa);
      astar_allocator a = failalloc_allocator(&fa);
      failalloc_fail_in(&fa, k);
      astar_waypoints *wp = (astar_waypoints *)&fa;
      const astar_status st = astar_waypoints_new(&wp, g, &o, 0, &a);
      if (st == ASTAR_OK) {
        succeeded = 1;
        CHECK(fa.failures == 0);
        CHECK(astar_waypoints_memory(wp) == fa.bytes); /* exactly what it holds */
        CHECK(astar_waypoints_edge_count(wp) > 4 * (size_t)astar_waypoints_count(wp));
        astar_waypoints_free(wp);
      } else {
        CHECKF(st == ASTAR_NO_MEMORY && wp == NULL, "failure %ld: %d", k, (int)st);
        failures++;
      }
      CHECKF(fa.blocks == 0 && fa.osize_mismatches == 0, "failure %ld: %ld blocks left", k,
             fa.blocks);
    }
    CHECK(succeeded && failures >= 5); /* the graph's blocks and the growing list */
  }
  /* The reservation, failing at each of its allocations. */
  astar_waypoints *wp = NULL;
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  astar_grid *one = NULL;
  CHECK(astar_grid_new(&one, 1, 1, NULL) == ASTAR_OK);
  int reserved = 0;
  for (long k = 1; k < 40 && !reserved; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new(&ws, one, &a) == ASTAR_OK);
    if (!ws) break;
    const size_t before = astar_workspace_memory(ws);
    failalloc_fail_in(&fa, k);
    const astar_status st = astar_waypoints_reserve(ws, wp, ASTAR_RESERVE_BACKWARD);
    if (st == ASTAR_OK) {
      reserved = 1;
      /* Searching never allocates, with any method. */
      astar_point path[400];
      const long calls = fa.calls;
      for (int m = 0; m < ASTAR_METHOD_ENGINE_COUNT; m++) {
        astar_engine_options eo;
        astar_engine_options_init(&eo);
        eo.method = (astar_method)m;
        for (int i = 0; i < 20; i++) {
          const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
          (void)astar_waypoints_find_path(ws, wp, g, &eo, s, t, path, 400, NULL);
        }
      }
      CHECK(fa.calls == calls);
    } else {
      CHECKF(st == ASTAR_NO_MEMORY, "failure %ld: %d", k, (int)st);
      CHECK(astar_workspace_memory(ws) == before);
    }
    astar_workspace_free(ws);
    CHECK(fa.blocks == 0 && fa.osize_mismatches == 0);
  }
  CHECK(reserved);
  astar_grid_free(one);
  astar_waypoints_free(wp);
  astar_grid_free(g);
}

/* One graph shared by several queries at once (thread-shareable: nothing
** in it changes): interleaved sliced searches of two query spaces on two
** workspaces give the one-shot answers. */
static void test_interleaved_queries(void) {
  rng r;
  rng_seed(&r, 5);
  randmap_spec spec = {30, 30, 0.2, 0, 0, 0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_waypoints *wp = NULL;
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  astar_workspace *w1 = ws_for(g, wp), *w2 = ws_for(g, wp);
  for (int i = 0; i < 30; i++) {
    const astar_point s1 = randmap_passable_cell(g, &r), t1 = randmap_passable_cell(g, &r);
    const astar_point s2 = randmap_passable_cell(g, &r), t2 = randmap_passable_cell(g, &r);
    astar_waypoints_query q1, q2;
    astar_space sp1, sp2;
    CHECK(astar_waypoints_query_init(&q1, &sp1, wp, g, s1, t1) == ASTAR_OK);
    CHECK(astar_waypoints_query_init(&q2, &sp2, wp, g, s2, t2) == ASTAR_OK);
    CHECK(astar_space_search_begin(w1, &sp1, NULL, q1.start_node, q1.goal_node) == ASTAR_OK);
    CHECK(astar_space_search_begin(w2, &sp2, NULL, q2.start_node, q2.goal_node) == ASTAR_OK);
    astar_status a = ASTAR_IN_PROGRESS, b = ASTAR_IN_PROGRESS;
    while (a == ASTAR_IN_PROGRESS || b == ASTAR_IN_PROGRESS) {
      if (a == ASTAR_IN_PROGRESS) a = astar_space_search_step(w1, 3, NULL);
      if (b == ASTAR_IN_PROGRESS) b = astar_space_search_step(w2, 2, NULL);
    }
    astar_engine_result r1, r2, o1, o2;
    astar_node n1[1000];
    astar_point p[1000];
    CHECK(astar_space_search_finish(w1, n1, 1000, &r1) == a);
    CHECK(astar_space_search_finish(w2, n1, 1000, &r2) == b);
    CHECK(astar_waypoints_find_path(w1, wp, g, NULL, s1, t1, p, 1000, &o1) == a);
    CHECK(astar_waypoints_find_path(w2, wp, g, NULL, s2, t2, p, 1000, &o2) == b);
    CHECK(r1.cost == o1.cost && r2.cost == o2.cost && r1.length == o1.length);
  }
  astar_workspace_free(w1);
  astar_workspace_free(w2);
  astar_waypoints_free(wp);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_known);
  RUN(test_random);
  RUN(test_long_sightlines);
  RUN(test_no_waypoints);
  RUN(test_stale_and_arguments);
  RUN(test_interleaved_queries);
  RUN(test_failalloc);
  return check_summary();
}
