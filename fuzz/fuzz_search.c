/*
** fuzz/fuzz_search.c -- libFuzzer harness for the grid searches
** (astar/search.h, astar/jps_plus.h): a fuzzed map searched with fuzzed
** endpoints and options, every answer checked against the tests' plain
** Dijkstra (tests/util/dijkstra.c) and path validator (tests/util/validate.c).
**
** Input (binary header, then text):
**   byte 0   algorithm: A*, JPS or JPS+ (value % 3)
**   byte 1   moves: 8, or 4 when bit 0 is set; corner rule: bits 1..2
**   byte 2   heuristic (value % 6: AUTO, OCTILE, MANHATTAN, CHEBYSHEV,
**            EUCLIDEAN, ZERO)
**   byte 3   weight, from a table (1 half the time, else 0, 0.5, 1.25, 2,
**            5 or 1e9)
**   byte 4   straight and diagonal cost, from a table of pairs
**   byte 5   open list (value % 4)
**   byte 6   max_expansions: 0 below 200, else value - 199
**   byte 7   flags: 1 partial, 2 also run sliced (begin / step / finish)
**            and compare, 4 start and goal from the map's 'S' and 'G',
**            8 turn penalty 0.5 (A*), 16 terrain_scale 0.5, 32
**            heuristic_floor 1
**   bytes 8..11  start x, y and goal x, y: value % (side + 2) - 1, so one
**            step outside the grid is possible
**   byte 12  step budget of the sliced run (0: no budget)
**   byte 13  tie order (value % 3)
**   byte 14  reopen (value % 3)
**   byte 15  flags: 1 with islands (astar/islands.h) built for the
**            search's moves and corner rule, 2 also search for two goals
**            (astar_find_path_multi: the goal and its mirror image), 4
**            a random map instead of the text (below)
**   the rest the map text, read by astar_parse_map (ASCII or Moving AI)
** With flag 4 of byte 15 the map is drawn at random (tests/util/randmap.c):
** width and height 1 + text byte % 48, blocked with probability text byte
** % 50 percent, terrain costs in [0.5, 5] when the fourth byte is odd, the
** cells seeded by a hash of the input: map shapes the mutation of short texts
** reaches slowly, for the cost checks. Besides the header's query, the same
** start is searched towards 8 more passable goals picked by a hash of the
** input.
** The seeds (fuzz/make_seeds.c) are small real maps behind a header.
**
** Checks: the status agrees with astar_options_validate and with
** astar_unsupported_reason; a found path is a legal walk from start to
** goal whose step costs add up to the reported cost (under the exact cost
** model); with an admissible heuristic and the exact cost model, the cost
** is the reference Dijkstra's, times at most the effective weight (weight
** times heuristic_floor / smallest terrain when above 1) for the
** consistent heuristics; ASTAR_NO_PATH exactly when the reference finds
** none (no limit, no partial); the expansion limit is respected; a sliced
** run with any budget gives the one-shot status, cost, path and
** statistics; astar_path_cost agrees with the reported cost; islands say
** two cells are joined exactly when the reference finds a path; a search
** for two goals costs the cheaper goal's optimum. ASTAR_PARTIAL results are checked only as legal
*walks from
** the start (their cost is not compared: a known issue with reopening
** cut off mid-propagation is being fixed separately).
*/
#include "fuzz_common.h"
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_BYTES 16u
#define SEARCH_LIMIT ((size_t)256 << 20)
/* Larger maps are parsed but not searched (the reference is not fast). */
#define MAX_CELLS 20000u

/* Weight 1, the optimal case the reference checks exactly, half the time. */
static const double weights[] = {1, 1, 1, 1, 1, 1, 0, 0.5, 1.25, 2, 5, 1e9};
static const double costs[][2] = {{1, 1.4142135623730951},
                                  {1, 1},
                                  {1, 1.5},
                                  {1, 2},
                                  {1, 3},
                                  {2, 1},
                                  {0.5, 0.7},
                                  {3, 4},
                                  {1e9, 1e9},
                                  {1e-6, 1.5e-6}};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct query {
  astar_options opt;
  bool jps_plus;      /* search with a JPS+ table (opt.algorithm A*) */
  bool sliced;        /* also run begin / step / finish */
  uint8_t budget;     /* the sliced run's budget */
  astar_point s, t;   /* the endpoints */
  bool islands;       /* build islands for the search (opt.islands) */
  bool multi;         /* also search for two goals */
  bool exact_cost;    /* the reported cost is the sum of the grid's step costs */
  double bound;       /* cost <= bound x optimal; 0: no bound (inadmissible) */
  const double *dist; /* the reference's costs from s to every cell, or NULL */
} query;

static int32_t coord(uint8_t v, int32_t side) {
  return (int32_t)(v % (side + 2)) - 1;
}

/* Decode the header into q (grid needed for the coordinates). */
static void decode(fuzz_bytes *in, const astar_grid *g, astar_point ms, astar_point mt, query *q) {
  astar_options *o = &q->opt;
  astar_options_init(o);
  q->dist = NULL;
  const uint8_t algo = fuzz_u8(in) % 3, moves = fuzz_u8(in);
  o->algorithm = algo == 1 ? ASTAR_ALGO_JPS : ASTAR_ALGO_ASTAR;
  q->jps_plus = algo == 2;
  o->moves = moves & 1 ? 4 : 8;
  o->corner = (astar_corner)((moves >> 1) & 3);
  o->heuristic = (astar_heuristic)(fuzz_u8(in) % 6);
  o->weight = weights[fuzz_u8(in) % COUNT(weights)];
  const uint8_t c = fuzz_u8(in) % COUNT(costs);
  o->straight_cost = costs[c][0];
  o->diagonal_cost = costs[c][1];
  o->open_set = (astar_open_set)(fuzz_u8(in) % 4);
  const uint8_t limit = fuzz_u8(in);
  o->max_expansions = limit < 200 ? 0 : (uint64_t)(limit - 199);
  const uint8_t flags = fuzz_u8(in);
  o->partial = flags & 1;
  q->sliced = (flags & 2) && !q->jps_plus && o->algorithm == ASTAR_ALGO_ASTAR;
  if (flags & 8) o->turn_penalty = 0.5;
  if (flags & 16) o->terrain_scale = 0.5;
  if (flags & 32) o->heuristic_floor = 1;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  q->s.x = coord(fuzz_u8(in), w);
  q->s.y = coord(fuzz_u8(in), h);
  q->t.x = coord(fuzz_u8(in), w);
  q->t.y = coord(fuzz_u8(in), h);
  if ((flags & 4) && ms.x >= 0 && mt.x >= 0) {
    q->s = ms;
    q->t = mt;
  }
  q->budget = fuzz_u8(in);
  o->tie = (astar_tie)(fuzz_u8(in) % 3);
  o->reopen = (astar_reopen)(fuzz_u8(in) % 3);
  const uint8_t more = fuzz_u8(in);
  q->islands = more & 1;
  q->multi = more & 2;

  /* What the answer can be held to. */
  const bool terrain = astar_grid_has_terrain(g);
  q->exact_cost = o->turn_penalty == 0 && (o->terrain_scale == 1 || !terrain);
  const bool diagonals = o->moves == 8 && o->corner != ASTAR_CORNER_NEVER;
  const bool inadmissible = o->heuristic == ASTAR_H_MANHATTAN && diagonals;
  const double m = astar_grid_min_terrain(g);
  const double floor_factor = o->heuristic_floor > m ? o->heuristic_floor / m : 1;
  const double eff = o->weight * (o->heuristic == ASTAR_H_ZERO ? 1 : floor_factor);
  q->bound = inadmissible ? 0 : (eff > 1 ? eff : 1);
}

static bool same_point(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

static bool inside(const astar_grid *g, astar_point p) {
  return astar_grid_contains(g, p.x, p.y);
}

/* Run the query; check everything the header promises. */
static void run(const astar_grid *g, astar_workspace *ws, const astar_jps_plus *pre, const query *q,
                astar_point *path, size_t cap) {
  const astar_options *o = &q->opt;
  astar_result r;
  memset(&r, 0x55, sizeof r);
  const astar_status st = q->jps_plus
                              ? astar_jps_plus_find_path(ws, pre, g, o, q->s, q->t, path, cap, &r)
                              : astar_find_path(ws, g, o, q->s, q->t, path, cap, &r);
  FUZZ_CHECK(st != ASTAR_BUFFER_TOO_SMALL, "a path longer than %zu cells", cap);
  FUZZ_CHECK(r.cause == st || st == ASTAR_PARTIAL, "result.cause %s, status %s",
             astar_strerror(r.cause), astar_strerror(st));

  /* Options and algorithm rules first. */
  const bool valid = astar_options_validate(o) == ASTAR_OK;
  if (!valid) {
    FUZZ_CHECK(st == ASTAR_INVALID_ARGUMENT, "invalid options searched: %s", astar_strerror(st));
    return;
  }
  astar_options rules = *o;
  if (q->jps_plus) rules.algorithm = ASTAR_ALGO_JPS;
  const char *why = astar_unsupported_reason(&rules, g);
  if (!inside(g, q->s) || !inside(g, q->t)) {
    FUZZ_CHECK(st == ASTAR_OUT_OF_BOUNDS || st == ASTAR_UNSUPPORTED, "outside: %s",
               astar_strerror(st));
    return;
  }
  /* The order of the rule check and the endpoint checks is not documented. */
  FUZZ_CHECK(st != ASTAR_UNSUPPORTED || why, "unsupported without a reason");
  if (why) {
    FUZZ_CHECK(st == ASTAR_UNSUPPORTED || st == ASTAR_START_BLOCKED || st == ASTAR_GOAL_BLOCKED,
               "status %s, reason %s", astar_strerror(st), why);
    return;
  }
  if (st == ASTAR_TURNS_NOT_RESERVED) return; /* the harness reserves turns only for A* */
  if (!astar_grid_passable(g, q->s.x, q->s.y)) {
    FUZZ_CHECK(st == ASTAR_START_BLOCKED, "blocked start: %s", astar_strerror(st));
    return;
  }
  if (!astar_grid_passable(g, q->t.x, q->t.y)) {
    FUZZ_CHECK(st == ASTAR_GOAL_BLOCKED, "blocked goal: %s", astar_strerror(st));
    return;
  }
  FUZZ_CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH || st == ASTAR_LIMIT_REACHED ||
                 st == ASTAR_PARTIAL,
             "status %s", astar_strerror(st));
  if (o->max_expansions > 0)
    FUZZ_CHECK(r.stats.expanded <= o->max_expansions, "%llu expansions, limit %llu",
               (unsigned long long)r.stats.expanded, (unsigned long long)o->max_expansions);
  else
    FUZZ_CHECK(st != ASTAR_LIMIT_REACHED && r.cause != ASTAR_LIMIT_REACHED, "limit without one");
  FUZZ_CHECK(!o->partial || (st != ASTAR_NO_PATH && st != ASTAR_LIMIT_REACHED),
             "partial search ended %s", astar_strerror(st));
  FUZZ_CHECK(o->partial || st != ASTAR_PARTIAL, "a partial path without options.partial");

  if (st == ASTAR_OK || st == ASTAR_PARTIAL) {
    char err[200];
    FUZZ_CHECK(r.length >= 1 && r.length <= cap, "length %zu", r.length);
    FUZZ_CHECK(same_point(path[0], q->s), "the path does not start at the start");
    double walked = 0;
    size_t bad = 0;
    FUZZ_CHECK(validate_walk(g, o, path, r.length, &walked, &bad, err, sizeof err), "%s path: %s",
               astar_strerror(st), err);
    FUZZ_CHECK(same_point(r.end, path[r.length - 1]), "result.end");
    if (st == ASTAR_PARTIAL) return; /* cost not compared: see the top of this file */
    FUZZ_CHECK(same_point(path[r.length - 1], q->t), "the path does not end at the goal");
    if (q->exact_cost) {
      FUZZ_CHECK(validate_path(g, o, q->s, q->t, path, r.length, r.cost, err, sizeof err), "%s",
                 err);
      double c = -1;
      FUZZ_CHECK(astar_path_cost(g, o, path, r.length, &c, NULL) == ASTAR_OK &&
                     fuzz_cost_equal(c, r.cost),
                 "astar_path_cost %.17g, reported %.17g", c, r.cost);
    }
  }
  if (!q->exact_cost) return;
  /* Against the reference: reachability always, the cost when bounded. */
  double ref = -1;
  if (q->dist) {
    const double d = q->dist[(size_t)q->t.y * (size_t)astar_grid_width(g) + (size_t)q->t.x];
    ref = isinf(d) ? -1 : d;
  } else {
    ref = ref_dijkstra(g, o, q->s, q->t);
  }
  if (o->islands)
    FUZZ_CHECK(astar_islands_reachable(o->islands, q->s, q->t) == (ref >= 0),
               "islands say %s, the reference costs %.17g",
               astar_islands_reachable(o->islands, q->s, q->t) ? "joined" : "apart", ref);
  if (st == ASTAR_NO_PATH || (st == ASTAR_PARTIAL && r.cause == ASTAR_NO_PATH))
    FUZZ_CHECK(ref < 0, "no path, the reference costs %.17g", ref);
  if (st == ASTAR_OK) {
    FUZZ_CHECK(ref >= 0, "a path of cost %.17g, the reference finds none", r.cost);
    FUZZ_CHECK(r.cost >= ref * (1 - 1e-9), "cost %.17g below the optimum %.17g", r.cost, ref);
    if (q->bound > 0)
      FUZZ_CHECK(r.cost <= q->bound * ref * (1 + 1e-9), "cost %.17g, optimum %.17g, bound x%g",
                 r.cost, ref, q->bound);
  }
}

/* The query again towards EXTRA_GOALS more goals picked by `pick` (passable
** cells), checked like the first against one run of the reference from the
** start: the cost checks are what finds wrong answers, and a map is cheap
** to search again. */
#define EXTRA_GOALS 8
static void run_more(const astar_grid *g, astar_workspace *ws, const astar_jps_plus *pre,
                     const query *q, astar_point *path, size_t cap, uint64_t pick) {
  if (!inside(g, q->s) || !astar_grid_passable(g, q->s.x, q->s.y) || !q->exact_cost) return;
  const int32_t w = astar_grid_width(g);
  const size_t cells = (size_t)w * (size_t)astar_grid_height(g);
  double *dist = malloc(sizeof *dist * cells);
  FUZZ_CHECK(dist != NULL, "out of memory for %zu cells", cells);
  FUZZ_CHECK(ref_dijkstra_all(g, &q->opt, q->s, dist) != (size_t)-1, "reference out of memory");
  query more = *q;
  more.dist = dist;
  for (int k = 0; k < EXTRA_GOALS; k++) {
    pick = pick * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    size_t i = (size_t)(pick >> 33) % cells;
    for (size_t n = 0;
         n < cells && !astar_grid_passable(g, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w));
         n++)
      i = (i + 1) % cells;
    more.t.x = (int32_t)(i % (size_t)w);
    more.t.y = (int32_t)(i / (size_t)w);
    run(g, ws, pre, &more, path, cap);
  }
  free(dist);
}

/* Two goals, t and its mirror image: the cheaper one's optimum (under the
** exact cost model and an admissible, unweighted heuristic). */
static void run_multi(const astar_grid *g, astar_workspace *ws, const query *q, astar_point *path,
                      size_t cap) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  if (!inside(g, q->s) || !inside(g, q->t) || !astar_grid_passable(g, q->s.x, q->s.y)) return;
  const astar_point goals[2] = {q->t, {w - 1 - q->t.x, h - 1 - q->t.y}};
  astar_result r;
  const astar_status st = astar_find_path_multi(ws, g, &q->opt, q->s, goals, 2, path, cap, &r);
  if (st != ASTAR_OK || !q->exact_cost || q->bound != 1) return;
  double best = -1;
  for (int i = 0; i < 2; i++) {
    const double d = ref_dijkstra(g, &q->opt, q->s, goals[i]);
    if (d >= 0 && (best < 0 || d < best)) best = d;
  }
  FUZZ_CHECK(fuzz_cost_equal(r.cost, best), "two goals: cost %.17g, the nearer one's %.17g", r.cost,
             best);
  FUZZ_CHECK(same_point(r.end, goals[0]) || same_point(r.end, goals[1]), "ends at no goal");
  char err[200];
  FUZZ_CHECK(validate_path(g, &q->opt, q->s, r.end, path, r.length, r.cost, err, sizeof err),
             "two goals: %s", err);
}

/* The sliced run (begin / step with a budget / finish) gives the one-shot answer. */
static void run_sliced(const astar_grid *g, astar_workspace *ws, const query *q, astar_point *path,
                       astar_point *path2, size_t cap) {
  astar_result r1, r2;
  const astar_status s1 = astar_find_path(ws, g, &q->opt, q->s, q->t, path, cap, &r1);
  astar_status s2 = astar_search_begin(ws, g, &q->opt, q->s, q->t);
  if (s2 == ASTAR_OK) {
    uint64_t steps = 0;
    do {
      s2 = astar_search_step(ws, q->budget, NULL);
      FUZZ_CHECK(++steps <= (uint64_t)cap * 16 + 16, "the sliced run does not end");
    } while (s2 == ASTAR_IN_PROGRESS);
    s2 = astar_search_finish(ws, path2, cap, &r2);
  } else {
    memset(&r2, 0, sizeof r2);
    r2.cause = s2;
  }
  FUZZ_CHECK(s1 == s2, "one-shot %s, sliced %s", astar_strerror(s1), astar_strerror(s2));
  if (s1 != ASTAR_OK && s1 != ASTAR_PARTIAL) return;
  FUZZ_CHECK(r1.cost == r2.cost && r1.length == r2.length, "cost %.17g / %.17g, length %zu / %zu",
             r1.cost, r2.cost, r1.length, r2.length);
  FUZZ_CHECK(memcmp(path, path2, sizeof *path * r1.length) == 0, "other cells");
  FUZZ_CHECK(memcmp(&r1.stats, &r2.stats, sizeof r1.stats) == 0, "other statistics");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < HEADER_BYTES) return 0;
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, SEARCH_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_grid *g = NULL;
  astar_point ms = {-1, -1}, mt = {-1, -1};
  if (data[15] & 4) { /* a random map: see the top of this file */
    fuzz_bytes t = {data + HEADER_BYTES, size - HEADER_BYTES};
    randmap_spec spec = {1 + fuzz_u8(&t) % 48, 1 + fuzz_u8(&t) % 48, 0, 0, 0.5, 5};
    spec.density = (double)(fuzz_u8(&t) % 50) / 100;
    spec.terrain = fuzz_u8(&t) & 1;
    rng r;
    rng_seed(&r, fuzz_hash(data, size));
    if (randmap_make(&g, &spec, &r) != ASTAR_OK) return 0;
  } else if (astar_parse_map(&g, (const char *)data + HEADER_BYTES, size - HEADER_BYTES, &a, &ms,
                             &mt, NULL) != ASTAR_OK) {
    fuzz_alloc_expect_empty(&fa, "failed parse");
    return 0;
  }
  const size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  if (cells > MAX_CELLS) {
    astar_grid_free(g);
    return 0;
  }
  fuzz_bytes in = {data, HEADER_BYTES};
  query q;
  decode(&in, g, ms, mt, &q);

  astar_workspace *ws = NULL;
  astar_jps_plus *pre = NULL;
  astar_islands *isl = NULL;
  if (q.islands && astar_islands_new(&isl, g, &q.opt, &a) == ASTAR_OK) q.opt.islands = isl;
  const size_t cap = 9 * cells + 2;
  astar_point *path = malloc(sizeof *path * cap), *path2 = malloc(sizeof *path2 * cap);
  FUZZ_CHECK(path && path2, "out of memory for paths");
  if (astar_workspace_new(&ws, g, &a) == ASTAR_OK &&
      (q.opt.turn_penalty == 0 || astar_workspace_reserve_turns(ws, g) == ASTAR_OK)) {
    const astar_status pst = q.jps_plus ? astar_jps_plus_new(&pre, g, &a) : ASTAR_OK;
    FUZZ_CHECK(pst == ASTAR_OK || (pst == ASTAR_UNSUPPORTED && astar_grid_has_terrain(g)),
               "astar_jps_plus_new: %s", astar_strerror(pst));
    if (!q.jps_plus || pre) {
      run(g, ws, pre, &q, path, cap);
      run_more(g, ws, pre, &q, path, cap, fuzz_hash(data, size));
      if (q.sliced) run_sliced(g, ws, &q, path, path2, cap);
      if (q.multi && !q.jps_plus) run_multi(g, ws, &q, path, cap);
    }
  }
  free(path);
  free(path2);
  astar_jps_plus_free(pre);
  astar_islands_free(isl);
  astar_workspace_free(ws);
  astar_grid_free(g);
  fuzz_alloc_expect_empty(&fa, "freed grid, workspace and table");
  return 0;
}
