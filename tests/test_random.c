/*
** test_random.c -- A* against the reference Dijkstra on hundreds of seeded
** random maps, for every movement rule, cost pair, terrain on/off, built-in
** heuristic and tie order; bounded suboptimality for weighted and
** inadmissible heuristics; optimality with reopening for an inconsistent
** one; determinism; and the small Moving AI data set of tests/data/small.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#define P(x, y) ((astar_point){(x), (y)})
#define MAXSIDE 64
#define MAXCELLS ((size_t)MAXSIDE * MAXSIDE)

typedef struct costpair {
  double s, d;
} costpair;

static const costpair PAIRS[] = {{1.0, 1.4142135623730951}, {10.0, 14.0}, {1.0, 1.2}, {1.0, 3.0}};
#define NPAIRS (sizeof PAIRS / sizeof PAIRS[0])

static const char *const HNAME[] = {"AUTO",      "OCTILE", "MANHATTAN", "CHEBYSHEV",
                                    "EUCLIDEAN", "ZERO",   "CALLBACK"};

/* Describes the case under test for failure messages. */
typedef struct label {
  uint64_t seed;
  int map, terrain;
  astar_point s, t;
} label;

static void describe(char *buf, size_t cap, const label *lb, const astar_options *o) {
  snprintf(buf, cap,
           "seed %llu map %d terrain %d (%d,%d)->(%d,%d) moves %d corner %d costs %g/%g "
           "h %s w %g tie %d reopen %d",
           (unsigned long long)lb->seed, lb->map, lb->terrain, (int)lb->s.x, (int)lb->s.y,
           (int)lb->t.x, (int)lb->t.y, o->moves, (int)o->corner, o->straight_cost, o->diagonal_cost,
           (unsigned)o->heuristic < 7 ? HNAME[o->heuristic] : "?", o->weight, (int)o->tie,
           (int)o->reopen);
}

/* A lower bound of the true cost from a to b: the cheapest walk on an empty
** grid with every terrain at the grid's minimum. Our own formula, not the
** library's heuristic. */
typedef struct hctx {
  const astar_grid *g;
  const astar_options *o;
  double factor; /* multiplies the bound (inflated heuristic) */
} hctx;

static double open_bound(const hctx *c, astar_point a, astar_point b) {
  double dx = fabs((double)a.x - b.x), dy = fabs((double)a.y - b.y);
  double mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
  double s = c->o->straight_cost, d = c->o->diagonal_cost, v;
  int diag = c->o->moves == 8 && c->o->corner != ASTAR_CORNER_NEVER;
  if (!diag || d >= 2 * s)
    v = s * (dx + dy);
  else if (d >= s)
    v = d * mn + s * (mx - mn);
  else
    v = d * mx; /* cheap diagonals: zigzag all the way (lower bound) */
  return v * (double)astar_grid_min_terrain(c->g);
}

static double h_inflated(void *ctx, astar_point cell, astar_point goal) {
  const hctx *c = ctx;
  return c->factor * open_bound(c, cell, goal);
}

/* Admissible but not consistent: exact-ish on even columns, 0 on odd ones,
** so h drops sharply along some moves and closed nodes get cheaper paths. */
static double h_patchy(void *ctx, astar_point cell, astar_point goal) {
  const hctx *c = ctx;
  return (cell.x % 2 == 0) ? open_bound(c, cell, goal) : 0.0;
}

typedef struct counters {
  long searches, found, nopath, reopened_searches;
  uint64_t reopened;
} counters;

/* Run one search and check it: status agrees with `want` (< 0: no path);
** the path is valid; its cost is within `bound` times optimal (1: exactly
** optimal up to 1e-9 relative). */
static void run_one(astar_workspace *ws, const astar_grid *g, const astar_options *o,
                    const label *lb, double want, double bound, counters *cn, astar_point *pathbuf,
                    astar_result *out) {
  astar_result r;
  char err[256], what[320];
  astar_status st = astar_find_path(ws, g, o, lb->s, lb->t, pathbuf, MAXCELLS, &r);
  cn->searches++;
  cn->reopened += r.stats.reopened;
  if (r.stats.reopened) cn->reopened_searches++;
  if (out) *out = r;
  if (want < 0) {
    if (st != ASTAR_NO_PATH) {
      describe(what, sizeof what, lb, o);
      FAILF("%s: status %d, reference says no path", what, (int)st);
    } else if (r.length != 0 || r.cost != 0) {
      describe(what, sizeof what, lb, o);
      FAILF("%s: NO_PATH with length %zu cost %g", what, r.length, r.cost);
    }
    cn->nopath++;
    return;
  }
  if (st != ASTAR_OK) {
    describe(what, sizeof what, lb, o);
    FAILF("%s: status %d, reference cost %.17g", what, (int)st, want);
    return;
  }
  cn->found++;
  if (!validate_path(g, o, lb->s, lb->t, pathbuf, r.length, r.cost, err, sizeof err)) {
    describe(what, sizeof what, lb, o);
    FAILF("%s: %s", what, err);
    return;
  }
  if (bound == 1.0) {
    if (!cost_equal(r.cost, want)) {
      describe(what, sizeof what, lb, o);
      FAILF("%s: cost %.17g, optimal %.17g", what, r.cost, want);
    }
  } else if (r.cost > bound * want * (1 + 1e-9) + 1e-12) {
    describe(what, sizeof what, lb, o);
    FAILF("%s: cost %.17g exceeds %g x optimal %.17g", what, r.cost, bound, want);
  }
}

static counters total;
static unsigned rot;             /* rotates the tie order of the secondary checks */
static uint64_t patchy_reopened; /* reopenings under the inconsistent heuristic */
static astar_point pathbuf[MAXCELLS], pathbuf2[MAXCELLS];
static double dist[MAXCELLS];

/* Every check for one (grid, movement rule, start): several goals. */
static void check_rule(astar_workspace *ws, astar_workspace *ws2, const astar_grid *g,
                       astar_options base, label lb, const astar_point *goals, int ngoals) {
  int32_t w = astar_grid_width(g);
  if (ref_dijkstra_all(g, &base, lb.s, dist) == (size_t)-1) {
    FAILF("reference Dijkstra out of memory");
    return;
  }
  for (int q = 0; q < ngoals; q++) {
    lb.t = goals[q];
    double want = dist[(size_t)lb.t.y * w + lb.t.x];
    if (isinf(want)) want = -1;
    hctx hc = {g, &base, 1.0};

    /* Admissible built-in heuristics x every tie order: optimal. */
    for (int hi = 0; hi <= ASTAR_H_ZERO; hi++) {
      if (hi == ASTAR_H_MANHATTAN && base.moves != 4) continue;
      for (int tie = 0; tie < 3; tie++) {
        astar_options o = base;
        o.heuristic = (astar_heuristic)hi;
        o.tie = (astar_tie)tie;
        run_one(ws, g, &o, &lb, want, 1.0, &total, pathbuf, NULL);
      }
    }

    /* The secondary checks below use one tie order each, rotating, to keep
    ** the run short; over the whole run every combination is exercised. */
    const astar_tie rt = (astar_tie)(rot++ % 3);

    /* Determinism: the same query again, on the same workspace after other
    ** searches and on a second workspace, gives the same path and stats. */
    {
      astar_options o = base;
      o.tie = rt;
      astar_result r1, r2, r3;
      run_one(ws, g, &o, &lb, want, 1.0, &total, pathbuf, &r1);
      run_one(ws2, g, &o, &lb, want, 1.0, &total, pathbuf2, &r2);
      if (want >= 0 && (r1.length != r2.length || r1.cost != r2.cost ||
                        memcmp(pathbuf, pathbuf2, r1.length * sizeof pathbuf[0]) != 0 ||
                        memcmp(&r1.stats, &r2.stats, sizeof r1.stats) != 0)) {
        char what[320];
        describe(what, sizeof what, &lb, &o);
        FAILF("%s: two workspaces disagree", what);
      }
      run_one(ws, g, &o, &lb, want, 1.0, &total, pathbuf, &r3);
      if (want >= 0 && (r1.length != r3.length ||
                        memcmp(pathbuf, pathbuf2, r1.length * sizeof pathbuf[0]) != 0)) {
        char what[320];
        describe(what, sizeof what, &lb, &o);
        FAILF("%s: repeated query differs", what);
      }
    }

    /* Weighted A*: within weight x optimal. */
    static const double weights[] = {1.5, 3.0};
    for (int wi = 0; wi < 2; wi++) {
      astar_options o = base;
      o.weight = weights[wi];
      o.tie = rt;
      run_one(ws, g, &o, &lb, want, weights[wi], &total, pathbuf, NULL);
      o.heuristic = (wi ^ (rt & 1)) ? ASTAR_H_CHEBYSHEV : ASTAR_H_EUCLIDEAN;
      run_one(ws, g, &o, &lb, want, weights[wi], &total, pathbuf, NULL);
    }

    /* Manhattan with diagonal moves overestimates by at most 2s / min(d, 2s)
    ** (AUTO reopens for it), so A* stays within that factor. */
    if (base.moves == 8) {
      astar_options o = base;
      o.heuristic = ASTAR_H_MANHATTAN;
      double f = 2 * o.straight_cost /
                 (o.diagonal_cost < 2 * o.straight_cost ? o.diagonal_cost : 2 * o.straight_cost);
      if (f < 1) f = 1;
      o.tie = rt;
      run_one(ws, g, &o, &lb, want, f, &total, pathbuf, NULL);
    }

    /* A user heuristic of 3 x a lower bound: within 3 x optimal. */
    {
      astar_options o = base;
      hctx c3 = {g, &base, 3.0};
      o.heuristic = ASTAR_H_CALLBACK;
      o.heuristic_fn = h_inflated;
      o.heuristic_ctx = &c3;
      o.tie = rt;
      run_one(ws, g, &o, &lb, want, 3.0, &total, pathbuf, NULL);
      /* The exact lower bound as a callback: admissible, so optimal. */
      o.heuristic_ctx = &hc;
      run_one(ws, g, &o, &lb, want, 1.0, &total, pathbuf, NULL);
    }

    /* Admissible but inconsistent: optimal when closed nodes may reopen
    ** (ALWAYS and AUTO, which reopens for callbacks); NEVER is only valid. */
    {
      astar_options o = base;
      o.heuristic = ASTAR_H_CALLBACK;
      o.heuristic_fn = h_patchy;
      o.heuristic_ctx = &hc;
      for (int tie = 0; tie < 3; tie++) {
        astar_result r;
        o.tie = (astar_tie)tie;
        o.reopen = ASTAR_REOPEN_ALWAYS;
        run_one(ws, g, &o, &lb, want, 1.0, &total, pathbuf, &r);
        patchy_reopened += r.stats.reopened;
      }
      o.tie = rt;
      o.reopen = ASTAR_REOPEN_AUTO;
      run_one(ws, g, &o, &lb, want, 1.0, &total, pathbuf, NULL);
      o.reopen = ASTAR_REOPEN_NEVER;
      run_one(ws, g, &o, &lb, want, 1e300, &total, pathbuf, NULL);
    }
  }
}

static void test_random_maps(void) {
  const int nmaps = 200, ngoals = 2;
  astar_grid *big = NULL;
  astar_workspace *ws = NULL, *ws2 = NULL;
  CHECK_EQ(astar_grid_new(&big, MAXSIDE, MAXSIDE, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&ws, big, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&ws2, big, NULL), ASTAR_OK);
  astar_grid_free(big);
  memset(&total, 0, sizeof total);
  for (int m = 0; m < nmaps; m++) {
    uint64_t seed = 1000 + (uint64_t)m;
    rng rr;
    rng_seed(&rr, seed);
    randmap_spec sp;
    randmap_random_spec(&sp, &rr, MAXSIDE, 1);
    if (m % 10 == 0) sp.width = sp.height = MAXSIDE;
    sp.terrain = 1;
    astar_grid *gt = NULL, *g0 = NULL;
    if (randmap_make(&gt, &sp, &rr) != ASTAR_OK || astar_grid_clone(&g0, gt, NULL) != ASTAR_OK) {
      FAILF("seed %llu: map construction failed", (unsigned long long)seed);
      astar_grid_free(gt);
      continue;
    }
    astar_grid_clear_terrain(g0);
    for (int terr = 0; terr < 2; terr++) {
      const astar_grid *g = terr ? gt : g0;
      label lb = {seed, m, terr, randmap_passable_cell(g, &rr), P(0, 0)};
      if (lb.s.x < 0) continue; /* nothing passable */
      astar_point goals[3];
      for (int q = 0; q < ngoals; q++) goals[q] = randmap_passable_cell(g, &rr);
      if (m % 7 == 0) goals[0] = lb.s; /* start == goal now and then */
      for (int moves = 4; moves <= 8; moves += 4) {
        for (int corner = 0; corner < 4; corner++) {
          for (size_t pi = 0; pi < NPAIRS; pi++) {
            astar_options o;
            astar_options_init(&o);
            o.moves = moves;
            o.corner = (astar_corner)corner;
            o.straight_cost = PAIRS[pi].s;
            o.diagonal_cost = PAIRS[pi].d;
            check_rule(ws, ws2, g, o, lb, goals, ngoals);
          }
        }
      }
    }
    astar_grid_free(gt);
    astar_grid_free(g0);
  }
  printf("     %ld searches: %ld found, %ld no path; %ld searches reopened %llu nodes "
         "(%llu under the inconsistent heuristic)\n",
         total.searches, total.found, total.nopath, total.reopened_searches,
         (unsigned long long)total.reopened, (unsigned long long)patchy_reopened);
  CHECK(total.found > total.nopath); /* both outcomes represented */
  CHECK(total.nopath > 0);
  CHECKF(patchy_reopened > 0, "the inconsistent heuristic never made a node reopen");
  astar_workspace_free(ws);
  astar_workspace_free(ws2);
}

/* Diagonal moves cheaper than straight ones are legal options. The
** heuristics documented as admissible must then still give optimal paths. */
static void check_cheap_diagonal(const astar_heuristic *hs, int nh) {
  static const costpair cheap[] = {{1.0, 0.75}, {10.0, 7.0}};
  astar_grid *big = NULL;
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_grid_new(&big, MAXSIDE, MAXSIDE, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&ws, big, NULL), ASTAR_OK);
  astar_grid_free(big);
  counters cn = {0};
  for (int m = 0; m < 40; m++) {
    uint64_t seed = 9000 + (uint64_t)m;
    rng rr;
    rng_seed(&rr, seed);
    randmap_spec sp;
    randmap_random_spec(&sp, &rr, 40, 1);
    astar_grid *g = NULL;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    label lb = {seed, m, sp.terrain, randmap_passable_cell(g, &rr), P(0, 0)};
    if (lb.s.x >= 0) {
      for (int q = 0; q < 3; q++) {
        lb.t = randmap_passable_cell(g, &rr);
        for (int corner = 0; corner < 4; corner++)
          for (int pi = 0; pi < 2; pi++)
            for (int hi = 0; hi < nh; hi++)
              for (int tie = 0; tie < 3; tie++) {
                astar_options o;
                astar_options_init(&o);
                o.corner = (astar_corner)corner;
                o.straight_cost = cheap[pi].s;
                o.diagonal_cost = cheap[pi].d;
                o.heuristic = hs[hi];
                o.tie = (astar_tie)tie;
                run_one(ws, g, &o, &lb, ref_dijkstra(g, &o, lb.s, lb.t), 1.0, &cn, pathbuf, NULL);
              }
      }
    }
    astar_grid_free(g);
  }
  astar_workspace_free(ws);
}

static void test_cheap_diagonal_weak_heuristics(void) {
  static const astar_heuristic hs[] = {ASTAR_H_CHEBYSHEV, ASTAR_H_EUCLIDEAN, ASTAR_H_ZERO};
  check_cheap_diagonal(hs, 3);
}

/* Separate, because the octile formula as written in search.h,
** s*max + (min(d,2s) - s)*min, would overestimate when d < s (dx=2, dy=0
** gives 2s but two diagonals cost 2d): AUTO must stay admissible then. */
static void test_cheap_diagonal_octile(void) {
  static const astar_heuristic hs[] = {ASTAR_H_AUTO, ASTAR_H_OCTILE};
  check_cheap_diagonal(hs, 2);
}

/* ---- the documented expansion order ----------------------------------- */

/*
** A literal, slow transcription of the search described at the top of
** astar/search.h: open list scanned linearly for the smallest f, equal f
** broken by the documented tie order ("then newest push first" included),
** neighbours in the order N, E, S, W, NE, SE, SW, NW, a push whenever a node
** enters, re-enters or is lowered in the open list, parents changed only on
** a strictly smaller g, the goal recognised when it is taken from the open
** list. With integer costs every f is exact, so the library must make the
** very same choices: same path, same statistics.
*/
enum { UNSEEN = 0, OPEN, CLOSED };
typedef struct refnode {
  double g, f;
  int state;
  int32_t parent;
  uint64_t seq;  /* push number: larger is newer */
  int64_t cross; /* |cross product| for ASTAR_TIE_CROSS */
} refnode;

static refnode refn[MAXCELLS];

/* The documented order (search.h): f, then the tie key -- larger g compared
** in single precision / newest push / smaller |cross| -- then the cell
** earlier in row-major order (a and b point into one row-major array). */
static int ref_before(const refnode *a, const refnode *b, astar_tie tie) {
  if (a->f != b->f) return a->f < b->f;
  if (tie == ASTAR_TIE_LARGER_G && (float)a->g != (float)b->g) return (float)a->g > (float)b->g;
  if (tie == ASTAR_TIE_NEWEST) return a->seq > b->seq;
  if (tie == ASTAR_TIE_CROSS && a->cross != b->cross) return a->cross < b->cross;
  return a < b;
}

typedef struct refh {
  const astar_grid *g;
  const astar_options *o;
} refh;

/* The built-in heuristics for integer costs and d >= s, from the header's
** own definitions (octile: s*max + (min(d,2s) - s)*min), times the minimum
** terrain and the weight; the callback times the weight only. */
static double ref_h(const refh *rh, astar_point c, astar_point t) {
  const astar_options *o = rh->o;
  double dx = fabs((double)c.x - t.x), dy = fabs((double)c.y - t.y);
  double mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
  double s = o->straight_cost, d = o->diagonal_cost, v = 0;
  int diag = o->moves == 8 && o->corner != ASTAR_CORNER_NEVER;
  astar_heuristic h = o->heuristic;
  if (h == ASTAR_H_AUTO) h = diag ? ASTAR_H_OCTILE : ASTAR_H_MANHATTAN;
  switch (h) {
  case ASTAR_H_OCTILE:
    v = diag ? s * mx + ((d < 2 * s ? d : 2 * s) - s) * mn : s * (dx + dy);
    break;
  case ASTAR_H_MANHATTAN:
    v = s * (dx + dy);
    break;
  case ASTAR_H_CHEBYSHEV:
    v = (diag && d < s ? d : s) * mx;
    break;
  case ASTAR_H_CALLBACK:
    return o->weight * o->heuristic_fn(o->heuristic_ctx, c, t);
  default:
    v = 0;
    break;
  }
  return v * (double)astar_grid_min_terrain(rh->g) * o->weight;
}

static astar_status ref_astar(const astar_grid *g, const astar_options *o, astar_point s,
                              astar_point t, astar_point *path, size_t *len, astar_stats *st) {
  static const int dxs[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dys[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  int32_t w = astar_grid_width(g), hh = astar_grid_height(g);
  size_t cells = (size_t)w * hh;
  refh rh = {g, o};
  int diag = o->moves == 8 && o->corner != ASTAR_CORNER_NEVER;
  astar_heuristic hk = o->heuristic;
  if (hk == ASTAR_H_AUTO) hk = diag ? ASTAR_H_OCTILE : ASTAR_H_MANHATTAN;
  int reopen = o->reopen == ASTAR_REOPEN_ALWAYS ||
               (o->reopen == ASTAR_REOPEN_AUTO &&
                (hk == ASTAR_H_CALLBACK || (hk == ASTAR_H_MANHATTAN && diag)));
  memset(refn, 0, sizeof refn[0] * cells);
  memset(st, 0, sizeof *st);
  uint64_t seq = 0, nopen = 0;
  size_t si = (size_t)s.y * w + s.x, gi = (size_t)t.y * w + t.x;
  int64_t sdx = (int64_t)s.x - t.x, sdy = (int64_t)s.y - t.y;
  if (si == gi) { /* documented: a one-cell path with no expansions */
    path[0] = s;
    *len = 1;
    return ASTAR_OK;
  }
  refn[si] = (refnode){0, ref_h(&rh, s, t), OPEN, -1, seq++, 0};
  st->generated = 1;
  st->max_open = nopen = 1;
  for (;;) {
    size_t best = cells;
    for (size_t i = 0; i < cells; i++)
      if (refn[i].state == OPEN && (best == cells || ref_before(&refn[i], &refn[best], o->tie)))
        best = i;
    if (best == cells) return ASTAR_NO_PATH;
    refn[best].state = CLOSED;
    nopen--;
    st->expanded++;
    if (best == gi) break;
    astar_point u = P((int32_t)(best % w), (int32_t)(best / w));
    for (int d = 0; d < 8; d++) {
      astar_point v = P(u.x + dxs[d], u.y + dys[d]);
      double c;
      if (!validate_step(g, o, u, v, &c, NULL, 0)) continue;
      size_t vi = (size_t)v.y * w + v.x;
      refnode *n = &refn[vi];
      double ng = refn[best].g + c;
      if (n->state == CLOSED && !reopen) continue;
      if (n->state != UNSEEN && !(ng < n->g)) continue;
      if (n->state == CLOSED) st->reopened++;
      if (n->state != OPEN) nopen++;
      int64_t dx1 = (int64_t)v.x - t.x, dy1 = (int64_t)v.y - t.y, cr = dx1 * sdy - sdx * dy1;
      *n = (refnode){ng, ng + ref_h(&rh, v, t), OPEN, (int32_t)best, seq++, cr < 0 ? -cr : cr};
      st->generated++;
      if (nopen > st->max_open) st->max_open = nopen;
    }
  }
  size_t n = 0;
  for (int32_t v = (int32_t)gi; v >= 0; v = refn[v].parent) n++;
  *len = n;
  for (int32_t v = (int32_t)gi; v >= 0; v = refn[v].parent) path[--n] = P(v % w, v / w);
  return ASTAR_OK;
}

/* Integer, admissible, inconsistent: Chebyshev distance on even columns. */
static double h_int_patchy(void *ctx, astar_point c, astar_point t) {
  const astar_options *o = ctx;
  double dx = fabs((double)c.x - t.x), dy = fabs((double)c.y - t.y);
  double step = o->diagonal_cost < o->straight_cost ? o->diagonal_cost : o->straight_cost;
  return (c.x % 2 == 0) ? step * (dx > dy ? dx : dy) : 0.0;
}

static void test_documented_tie_order(void) {
  static const costpair ipairs[] = {{10, 14}, {2, 3}, {1, 5}};
  astar_grid *big = NULL;
  astar_workspace *ws = NULL;
  CHECK_EQ(astar_grid_new(&big, 40, 40, NULL), ASTAR_OK);
  CHECK_EQ(astar_workspace_new(&ws, big, NULL), ASTAR_OK);
  astar_grid_free(big);
  static astar_point want[MAXCELLS];
  long compared = 0;
  int fails[3] = {0, 0, 0};
  for (int m = 0; m < 60; m++) {
    uint64_t seed = 5000 + (uint64_t)m;
    rng rr;
    rng_seed(&rr, seed);
    randmap_spec sp;
    randmap_random_spec(&sp, &rr, 40, 0);
    if (m % 4 == 0) sp.density = 0; /* open fields: ties everywhere */
    astar_grid *g = NULL;
    if (randmap_make(&g, &sp, &rr) != ASTAR_OK) continue;
    if (m % 3 == 1) /* integer terrain 1..4 */
      for (int32_t y = 0; y < sp.height; y++)
        for (int32_t x = 0; x < sp.width; x++)
          astar_grid_set_terrain(g, x, y, (float)rng_range(&rr, 1, 4));
    for (int q = 0; q < 4; q++) {
      astar_point s = randmap_passable_cell(g, &rr), t = randmap_passable_cell(g, &rr);
      if (s.x < 0) break;
      astar_options o;
      astar_options_init(&o);
      o.moves = (q & 1) ? 8 : 4;
      o.corner = (astar_corner)rng_range(&rr, 0, 3);
      const costpair *cp = &ipairs[rng_range(&rr, 0, 2)];
      o.straight_cost = o.moves == 4 ? 1 : cp->s;
      o.diagonal_cost = cp->d;
      static const astar_heuristic hs[] = {ASTAR_H_AUTO,      ASTAR_H_OCTILE, ASTAR_H_MANHATTAN,
                                           ASTAR_H_CHEBYSHEV, ASTAR_H_ZERO,   ASTAR_H_CALLBACK};
      for (size_t hi = 0; hi < sizeof hs / sizeof hs[0]; hi++) {
        o.heuristic = hs[hi];
        o.heuristic_fn = h_int_patchy;
        o.heuristic_ctx = &o;
        o.weight = (hi + (size_t)m) % 3 == 0 ? 2.0 : 1.0;
        for (int tie = 0; tie < 3; tie++) {
          o.tie = (astar_tie)tie;
          astar_result r;
          astar_stats rs;
          size_t rlen = 0;
          astar_status rst = ref_astar(g, &o, s, t, want, &rlen, &rs);
          astar_status lst = astar_find_path(ws, g, &o, s, t, pathbuf, MAXCELLS, &r);
          compared++;
          int same = rst == lst && memcmp(&rs, &r.stats, sizeof rs) == 0 &&
                     (lst != ASTAR_OK ||
                      (rlen == r.length && memcmp(want, pathbuf, rlen * sizeof want[0]) == 0));
          if (!same && fails[tie]++ < 2) {
            label lb = {seed, m, m % 3 == 1, s, t};
            char what[320];
            size_t k = 0;
            while (k < rlen && k < r.length && want[k].x == pathbuf[k].x &&
                   want[k].y == pathbuf[k].y)
              k++;
            describe(what, sizeof what, &lb, &o);
            FAILF("%s: documented order: status %d, %zu cells, expanded %llu generated %llu "
                  "reopened %llu max_open %llu; library: status %d, %zu cells, expanded %llu "
                  "generated %llu reopened %llu max_open %llu; paths first differ at cell %zu: "
                  "(%d,%d) vs (%d,%d)",
                  what, (int)rst, rlen, (unsigned long long)rs.expanded,
                  (unsigned long long)rs.generated, (unsigned long long)rs.reopened,
                  (unsigned long long)rs.max_open, (int)lst, r.length,
                  (unsigned long long)r.stats.expanded, (unsigned long long)r.stats.generated,
                  (unsigned long long)r.stats.reopened, (unsigned long long)r.stats.max_open, k,
                  k < rlen ? (int)want[k].x : -1, k < rlen ? (int)want[k].y : -1,
                  k < r.length ? (int)pathbuf[k].x : -1, k < r.length ? (int)pathbuf[k].y : -1);
          } else if (!same) {
            check__failed_checks++;
            check__current_failed = 1;
          }
        }
      }
    }
    astar_grid_free(g);
  }
  printf("     %ld searches compared; mismatches by tie order: LARGER_G %d, NEWEST %d, "
         "CROSS %d\n",
         compared, fails[0], fails[1], fails[2]);
  astar_workspace_free(ws);
}

/* ---- the small Moving AI data set (tests/data/small) ------------------- */

/* Our own minimal reader, so that this check does not depend on the
** library's parsers: "type/height/width" header, "map", then the rows. */
static astar_grid *read_movingai_map(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char line[4096];
  int w = -1, h = -1;
  astar_grid *g = NULL;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "height %d", &h) == 1 || sscanf(line, "width %d", &w) == 1) continue;
    if (strncmp(line, "map", 3) == 0) break;
  }
  if (w > 0 && h > 0 && astar_grid_new(&g, w, h, NULL) == ASTAR_OK) {
    for (int y = 0; y < h; y++) {
      if (!fgets(line, sizeof line, f)) {
        astar_grid_free(g);
        g = NULL;
        break;
      }
      for (int x = 0; x < w; x++) {
        char c = line[x];
        if (c != '.' && c != 'G' && c != 'S') astar_grid_set_passable(g, x, y, false);
      }
    }
  }
  fclose(f);
  return g;
}

static void test_small_movingai_data(void) {
  static const char *const names[] = {"random64-25", "maze64-1", "rooms64-8", "cave64"};
  astar_workspace *ws = NULL;
  int checked = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char mp[256], sp[256];
    snprintf(mp, sizeof mp, "data/small/%s.map", names[i]);
    snprintf(sp, sizeof sp, "data/small/%s.map.scen", names[i]);
    astar_grid *g = read_movingai_map(mp);
    FILE *f = fopen(sp, "rb");
    CHECKF(g && f, "cannot read %s / %s (run from tests/)", mp, sp);
    if (!g || !f) {
      astar_grid_free(g);
      if (f) fclose(f);
      continue;
    }
    if (!ws) CHECK_EQ(astar_workspace_new(&ws, g, NULL), ASTAR_OK);
    CHECK_EQ(astar_workspace_reserve(ws, g), ASTAR_OK);
    char line[512], mapname[256];
    int bucket, mw, mh, sx, sy, gx, gy;
    double len;
    while (fgets(line, sizeof line, f)) {
      if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, mapname, &mw, &mh, &sx, &sy, &gx,
                 &gy, &len) != 9)
        continue;
      double ref = ref_dijkstra(g, NULL, P(sx, sy), P(gx, gy));
      CHECKF(fabs(ref - len) < 1e-7, "%s (%d,%d)->(%d,%d): reference %.9f, file %.9f", names[i], sx,
             sy, gx, gy, ref, len);
      astar_result r;
      char err[256];
      astar_status st = astar_find_path(ws, g, NULL, P(sx, sy), P(gx, gy), pathbuf, MAXCELLS, &r);
      CHECKF(st == ASTAR_OK, "%s (%d,%d)->(%d,%d): status %d", names[i], sx, sy, gx, gy, (int)st);
      if (st == ASTAR_OK) {
        CHECKF(fabs(r.cost - len) < 1e-7, "%s (%d,%d)->(%d,%d): cost %.9f, file %.9f", names[i], sx,
               sy, gx, gy, r.cost, len);
        CHECKF(validate_path(g, NULL, P(sx, sy), P(gx, gy), pathbuf, r.length, r.cost, err,
                             sizeof err),
               "%s: %s", names[i], err);
      }
      checked++;
    }
    fclose(f);
    astar_grid_free(g);
  }
  astar_workspace_free(ws);
  CHECKF(checked >= 100, "only %d queries checked", checked);
}

int main(void) {
  RUN(test_small_movingai_data);
  RUN(test_random_maps);
  RUN(test_documented_tie_order);
  RUN(test_cheap_diagonal_weak_heuristics);
  RUN(test_cheap_diagonal_octile);
  return check_summary();
}
