/*
** test_subgoal.c -- subgoal graphs (astar/subgoal.h) through the internal
** query (subgoal/subgoal.h): every answer against a plain reference
** Dijkstra and astar_find_path's cost (bit for bit), every path legal with
** its own length as cost; the edge cases; save / load / verify / stale;
** determinism; and the Moving AI scenarios' optimal lengths (a sample; every
** query with --exhaustive [MAP], MAP a part of the map paths to run,
** which `make test` does not run).
*/
#include "check.h"
#include "slurp.h"
#include "subgoal/sg.h" /* the layout, to damage a graph for verify */
#include "util/dijkstra.h"
#include "util/randmap.h"
#include "util/validate.h"

#include <astar/astar.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int exhaustive;
static const char *only; /* --exhaustive MAP: the maps whose path contains MAP */

/* A searcher: the graph, its scratch, a path buffer. */
typedef struct sgq {
  astar_subgoal *sg;
  void *scratch;
  size_t bytes;
  astar_point *path;
  size_t cap;
} sgq;

static int sgq_open(sgq *q, const astar_grid *g, const astar_options *opt, uint32_t levels) {
  memset(q, 0, sizeof *q);
  astar_subgoal_config cfg;
  astar_subgoal_config_init(&cfg);
  if (opt) cfg.options = *opt;
  cfg.levels = levels;
  const astar_status st = astar_subgoal_build(&q->sg, g, &cfg, NULL);
  CHECKF(st == ASTAR_OK, "build levels %u: %s", levels, astar_strerror(st));
  if (st != ASTAR_OK) return 0;
  q->bytes = astar__subgoal_scratch_bytes(q->sg);
  q->scratch = aligned_alloc(16, (q->bytes + 15) & ~(size_t)15);
  if (q->scratch) memset(q->scratch, 0, q->bytes);
  q->cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
  q->path = malloc(q->cap * sizeof *q->path);
  return q->scratch && q->path;
}

static void sgq_close(sgq *q) {
  astar_subgoal_free(q->sg);
  free(q->scratch);
  free(q->path);
}

static astar_status sgq_find(sgq *q, const astar_grid *g, astar_point s, astar_point t,
                             astar_result *res) {
  return astar__subgoal_find_path(q->sg, g, q->scratch, q->bytes, 0, s, t, q->path, q->cap, res);
}

/* ---- random grids against the references ------------------------------------------------ */

/* Every query from a few starts to every cell (or a sample), one level count. */
static void check_grid(const astar_grid *g, const astar_options *opt, uint32_t levels, rng *r,
                       int starts, const char *what) {
  sgq q;
  if (!sgq_open(&q, g, opt, levels)) {
    sgq_close(&q);
    return;
  }
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  double *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_point *apath = malloc(q.cap * sizeof *apath);
  for (int k = 0; k < starts && dist && ws && apath; k++) {
    const astar_point s = randmap_passable_cell(g, r);
    if (s.x < 0) break;
    ref_dijkstra_all(g, opt, s, dist);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        if (!astar_grid_passable(g, x, y)) continue;
        const astar_point t = {x, y};
        astar_result res;
        const astar_status st = sgq_find(&q, g, s, t, &res);
        const double want = dist[(size_t)y * (size_t)w + (size_t)x];
        if (!isfinite(want)) {
          if (st != ASTAR_NO_PATH)
            FAILF("%s L%u (%d,%d)->(%d,%d): %s, want no path", what, levels, s.x, s.y, x, y,
                  astar_strerror(st));
          continue;
        }
        if (st != ASTAR_OK) {
          FAILF("%s L%u (%d,%d)->(%d,%d): %s, want %.9g", what, levels, s.x, s.y, x, y,
                astar_strerror(st), want);
          continue;
        }
        char err[200];
        if (!cost_equal(res.cost, want))
          FAILF("%s L%u (%d,%d)->(%d,%d): cost %.12g, optimal %.12g", what, levels, s.x, s.y, x, y,
                res.cost, want);
        if (!validate_path(g, opt, s, t, q.path, res.length, res.cost, err, sizeof err))
          FAILF("%s L%u (%d,%d)->(%d,%d): bad path: %s", what, levels, s.x, s.y, x, y, err);
        astar_result ar;
        const astar_status ast = astar_find_path(ws, g, opt, s, t, apath, q.cap, &ar);
        if (ast != ASTAR_OK || memcmp(&ar.cost, &res.cost, sizeof ar.cost) != 0)
          FAILF("%s L%u (%d,%d)->(%d,%d): cost %.17g, astar_find_path %.17g", what, levels, s.x,
                s.y, x, y, res.cost, ar.cost);
      }
  }
  free(apath);
  astar_workspace_free(ws);
  free(dist);
  sgq_close(&q);
}

static void test_random_grids(void) {
  rng r;
  rng_seed(&r, 31);
  static const int32_t sizes[][2] = {{1, 17},  {23, 1},  {2, 9},  {8, 8},
                                     {20, 15}, {33, 29}, {48, 40}};
  static const double dens[] = {0.0, 0.1, 0.25, 0.4};
  static const uint32_t levels[] = {1, 2, 3, 0};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (size_t di = 0; di < sizeof dens / sizeof dens[0]; di++) {
      randmap_spec spec = {sizes[si][0], sizes[si][1], dens[di], 0, 1.0, 1.0};
      for (int rep = 0; rep < 2; rep++) {
        astar_grid *g = NULL;
        if (randmap_make(&g, &spec, &r) != ASTAR_OK) continue;
        char what[64];
        snprintf(what, sizeof what, "%dx%d d%.2f #%d", spec.width, spec.height, spec.density, rep);
        for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++)
          check_grid(g, NULL, levels[li], &r, 3, what);
        astar_grid_free(g);
      }
    }
}

/* Other move costs: integer, halves, straight == diagonal. */
static void test_costs(void) {
  rng r;
  rng_seed(&r, 7);
  static const double costs[][2] = {{1.0, 1.5}, {2.0, 3.0}, {1.0, 1.0}, {3.0, 4.0}, {1.0, 1.99}};
  for (size_t ci = 0; ci < sizeof costs / sizeof costs[0]; ci++) {
    astar_options opt;
    astar_options_init(&opt);
    opt.straight_cost = costs[ci][0];
    opt.diagonal_cost = costs[ci][1];
    for (int rep = 0; rep < 4; rep++) {
      randmap_spec spec = {30, 26, rep % 2 ? 0.3 : 0.15, 0, 1.0, 1.0};
      astar_grid *g = NULL;
      if (randmap_make(&g, &spec, &r) != ASTAR_OK) continue;
      char what[64];
      snprintf(what, sizeof what, "costs %g/%g #%d", costs[ci][0], costs[ci][1], rep);
      check_grid(g, &opt, 1, &r, 2, what);
      check_grid(g, &opt, 0, &r, 2, what);
      astar_grid_free(g);
    }
  }
}

/* Rooms and corridors: many subgoals joined by few routes, where levels matter. */
static void test_rooms(void) {
  rng r;
  rng_seed(&r, 99);
  for (int rep = 0; rep < 4; rep++) {
    astar_grid *g = NULL;
    CHECK(astar_grid_new(&g, 61, 47, NULL) == ASTAR_OK);
    if (!g) return;
    for (int32_t y = 0; y < 47; y++)
      for (int32_t x = 0; x < 61; x++) {
        const bool wall = (x % 10 == 0 || y % 9 == 0) && rng_range(&r, 0, 99) >= 12;
        const bool speck = rng_range(&r, 0, 99) < 4;
        astar_grid_set_passable(g, x, y, !(wall || speck));
      }
    for (uint32_t lv = 0; lv <= 4; lv++) check_grid(g, NULL, lv, &r, 4, "rooms");
    astar_grid_free(g);
  }
}

/* ---- edge cases -------------------------------------------------------------------------------
 */

static void test_edges(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 12, 9, NULL) == ASTAR_OK);
  if (!g) return;
  /* Open grid: no subgoals at all, every query a straight or octile line. */
  sgq q;
  if (sgq_open(&q, g, NULL, 0)) {
    astar_subgoal_info info;
    CHECK(astar_subgoal_get_info(q.sg, &info) == ASTAR_OK);
    CHECK_EQ(info.subgoals, 0);
    CHECK_EQ(info.arcs, 0);
    astar_result res;
    CHECK(sgq_find(&q, g, (astar_point){0, 0}, (astar_point){11, 8}, &res) == ASTAR_OK);
    CHECK_EQ(res.length, 12);
    CHECK(sgq_find(&q, g, (astar_point){3, 3}, (astar_point){3, 3}, &res) == ASTAR_OK);
    CHECK_EQ(res.length, 1);
    CHECK(res.cost == 0.0);
    CHECK(q.path[0].x == 3 && q.path[0].y == 3);
    CHECK(sgq_find(&q, g, (astar_point){-1, 0}, (astar_point){3, 3}, &res) == ASTAR_OUT_OF_BOUNDS);
    CHECK(sgq_find(&q, g, (astar_point){0, 0}, (astar_point){12, 3}, &res) == ASTAR_OUT_OF_BOUNDS);
    CHECK(res.end.x == -1);
    /* A short buffer: the length, nothing written. */
    q.path[0] = (astar_point){77, 77};
    CHECK(astar__subgoal_find_path(q.sg, g, q.scratch, q.bytes, 0, (astar_point){0, 0},
                                   (astar_point){5, 0}, q.path, 3, &res) == ASTAR_BUFFER_TOO_SMALL);
    CHECK_EQ(res.length, 6);
    CHECK(res.cost == 5.0);
    CHECK(q.path[0].x == 77);
  }
  sgq_close(&q);
  /* Blocked endpoints; a wall with a gap (subgoals at the gap). */
  for (int32_t y = 0; y < 9; y++)
    if (y != 4) astar_grid_set_passable(g, 6, y, false);
  if (sgq_open(&q, g, NULL, 0)) {
    astar_result res;
    CHECK(sgq_find(&q, g, (astar_point){6, 0}, (astar_point){0, 0}, &res) == ASTAR_START_BLOCKED);
    CHECK(sgq_find(&q, g, (astar_point){0, 0}, (astar_point){6, 8}, &res) == ASTAR_GOAL_BLOCKED);
    CHECK(sgq_find(&q, g, (astar_point){0, 0}, (astar_point){11, 0}, &res) == ASTAR_OK);
    CHECK(res.stats.expanded > 0);
    /* A limit of one expansion stops a search that needs more. */
    CHECK(astar__subgoal_find_path(q.sg, g, q.scratch, q.bytes, 1, (astar_point){0, 0},
                                   (astar_point){11, 0}, q.path, q.cap,
                                   &res) == ASTAR_LIMIT_REACHED);
    /* Too little scratch. */
    CHECK(astar__subgoal_find_path(q.sg, g, q.scratch, q.bytes - 1, 0, (astar_point){0, 0},
                                   (astar_point){11, 0}, q.path, q.cap,
                                   &res) == ASTAR_INVALID_ARGUMENT);
  }
  sgq_close(&q);
  /* Closed gap: no path, either way. */
  astar_grid_set_passable(g, 6, 4, false);
  if (sgq_open(&q, g, NULL, 2)) {
    astar_result res;
    CHECK(sgq_find(&q, g, (astar_point){0, 0}, (astar_point){11, 8}, &res) == ASTAR_NO_PATH);
    CHECK(sgq_find(&q, g, (astar_point){11, 8}, (astar_point){0, 0}, &res) == ASTAR_NO_PATH);
  }
  sgq_close(&q);
  /* All blocked. */
  astar_grid_fill(g, false);
  if (sgq_open(&q, g, NULL, 0)) {
    astar_result res;
    CHECK(sgq_find(&q, g, (astar_point){1, 1}, (astar_point){2, 2}, &res) == ASTAR_START_BLOCKED);
  }
  sgq_close(&q);
  /* Unsupported rules and bad arguments. */
  astar_subgoal_config cfg;
  astar_subgoal_config_init(&cfg);
  astar_subgoal *sg = (astar_subgoal *)&cfg;
  cfg.options.moves = 4;
  CHECK(astar_subgoal_build(&sg, g, &cfg, NULL) == ASTAR_UNSUPPORTED && sg == NULL);
  CHECK(astar_subgoal_unsupported_reason(g, &cfg.options) != NULL);
  astar_subgoal_config_init(&cfg);
  cfg.options.corner = ASTAR_CORNER_ALWAYS;
  CHECK(astar_subgoal_build(&sg, g, &cfg, NULL) == ASTAR_UNSUPPORTED);
  astar_subgoal_config_init(&cfg);
  cfg.options.diagonal_cost = 2.0;
  CHECK(astar_subgoal_build(&sg, g, &cfg, NULL) == ASTAR_UNSUPPORTED);
  astar_subgoal_config_init(&cfg);
  cfg.levels = 65;
  CHECK(astar_subgoal_build(&sg, g, &cfg, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_subgoal_build(NULL, g, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_subgoal_build(&sg, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_subgoal_unsupported_reason(g, NULL) == NULL);
  astar_grid_free(g);
}

/* ---- save, load, verify, stale ----------------------------------------------------------- */

static void test_io(void) {
  rng r;
  rng_seed(&r, 5);
  randmap_spec spec = {57, 43, 0.3, 0, 1.0, 1.0};
  astar_grid *g = NULL, *other = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  CHECK(randmap_make(&other, &spec, &r) == ASTAR_OK);
  if (!g || !other) return;
  for (uint32_t lv = 0; lv <= 2; lv++) {
    astar_subgoal_config cfg;
    astar_subgoal_config_init(&cfg);
    cfg.levels = lv;
    astar_subgoal *a = NULL, *b = NULL, *c = NULL;
    CHECK(astar_subgoal_build(&a, g, &cfg, NULL) == ASTAR_OK);
    CHECK(astar_subgoal_build(&b, g, &cfg, NULL) == ASTAR_OK);
    if (!a || !b) return;
    size_t la = 0, lb = 0;
    CHECK(astar_subgoal_save(a, NULL, 0, &la) == ASTAR_BUFFER_TOO_SMALL);
    uint8_t *ba = malloc(la), *bb = malloc(la + 8);
    CHECK(astar_subgoal_save(a, ba, la, &la) == ASTAR_OK);
    CHECK(astar_subgoal_save(b, bb, la + 8, &lb) == ASTAR_OK);
    CHECK(la == lb && memcmp(ba, bb, la) == 0); /* deterministic */
    CHECK(astar_subgoal_load(&c, g, ba, la, NULL) == ASTAR_OK);
    if (c) {
      CHECK(astar_subgoal_save(c, bb, la + 8, &lb) == ASTAR_OK);
      CHECK(la == lb && memcmp(ba, bb, la) == 0); /* round trip */
      CHECK(astar_subgoal_verify(c, g) == ASTAR_OK);
      check_grid(g, NULL, lv, &r, 1, "loaded");
    }
    astar_subgoal_free(c);
    c = NULL;
    /* Truncated, damaged: a parse error wherever it is. */
    CHECK(astar_subgoal_load(&c, g, ba, la - 1, NULL) == ASTAR_PARSE_ERROR && !c);
    CHECK(astar_subgoal_load(&c, g, ba, 10, NULL) == ASTAR_PARSE_ERROR);
    for (size_t i = 0; i < la; i += 1 + la / 97) {
      ba[i] ^= 0x10;
      const astar_status st = astar_subgoal_load(&c, g, ba, la, NULL);
      if (st != ASTAR_PARSE_ERROR) FAILF("damaged byte %zu: %s", i, astar_strerror(st));
      astar_subgoal_free(c);
      c = NULL;
      ba[i] ^= 0x10;
    }
    /* Another grid of the same size. */
    CHECK(astar_subgoal_load(&c, other, ba, la, NULL) == ASTAR_MISMATCH);
    astar_options opt;
    astar_options_init(&opt);
    CHECK(astar__subgoal_fits(a, g, &opt) == ASTAR_OK);
    CHECK(astar__subgoal_fits(a, other, &opt) == ASTAR_MISMATCH);
    CHECK(astar_subgoal_verify(a, other) == ASTAR_MISMATCH);
    opt.diagonal_cost = 1.5;
    CHECK(astar__subgoal_fits(a, g, &opt) == ASTAR_MISMATCH);
    /* A graph that differs from the build: verify says so. */
    if (a->m > 0 && lv != 1) {
      uint32_t *adj = b->adj;
      const uint32_t keep = adj[0];
      adj[0] = adj[0] ? adj[0] - 1 : 1;
      CHECK(astar_subgoal_verify(b, g) == ASTAR_PARSE_ERROR);
      adj[0] = keep;
      CHECK(astar_subgoal_verify(b, g) == ASTAR_OK);
    }
    astar_subgoal_free(a);
    astar_subgoal_free(b);
    free(ba);
    free(bb);
  }
  /* Stale after an edit. */
  astar_subgoal *s = NULL;
  CHECK(astar_subgoal_build(&s, g, NULL, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 3, 3, !astar_grid_passable(g, 3, 3));
  CHECK(astar__subgoal_fits(s, g, NULL) == ASTAR_STALE);
  CHECK(astar_subgoal_verify(s, g) == ASTAR_STALE);
  astar_subgoal_free(s);
  astar_grid_free(g);
  astar_grid_free(other);
}

/* ---- Moving AI ----------------------------------------------------------------------------- */

static void run_map(const char *dir, const char *name, size_t want) {
  char path[700];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  size_t n = 0;
  char *text = test_slurp(path, &n);
  if (!text) {
    printf("movingai: %s missing, skipped\n", path);
    return;
  }
  astar_grid *g = NULL;
  CHECKF(astar_movingai_parse_map(&g, text, n, NULL, NULL) == ASTAR_OK, "%s", path);
  free(text);
  snprintf(path, sizeof path, "%s/%s.scen", dir, name);
  text = test_slurp(path, &n);
  astar_scen *sc = NULL;
  CHECKF(text && astar_movingai_parse_scen(&sc, text, n, NULL, NULL) == ASTAR_OK, "%s", path);
  free(text);
  for (uint32_t lv = 0; lv <= 1 && g && sc; lv++) {
    sgq q;
    if (sgq_open(&q, g, NULL, lv)) {
      const size_t total = astar_scen_count(sc);
      const size_t step = want && total > want ? total / want : 1;
      for (size_t i = 0; i < total; i += step) {
        const astar_scen_query *sq = &astar_scen_queries(sc)[i];
        astar_result res;
        const astar_status st = sgq_find(&q, g, sq->start, sq->goal, &res);
        char err[200];
        if (st != ASTAR_OK ||
            fabs(res.cost - sq->optimal_length) > 1e-5 * fmax(1.0, sq->optimal_length))
          FAILF("%s L%u line %d: %s cost %.9g, optimal %.9g", name, lv, sq->line,
                astar_strerror(st), res.cost, sq->optimal_length);
        else if (!validate_path(g, NULL, sq->start, sq->goal, q.path, res.length, res.cost, err,
                                sizeof err))
          FAILF("%s L%u line %d: bad path: %s", name, lv, sq->line, err);
      }
    }
    sgq_close(&q);
  }
  astar_scen_free(sc);
  astar_grid_free(g);
}

static void test_movingai(void) {
  const char *dir = getenv("ASTAR_MOVINGAI_DIR");
  if (!dir || strlen(dir) > 400) {
    printf("movingai: ASTAR_MOVINGAI_DIR not set, skipped\n");
    return;
  }
  static const char *const maps[] = {"dao/arena.map",
                                     "dao/arena2.map",
                                     "dao/brc202d.map",
                                     "dao/den312d.map",
                                     "dao/den520d.map",
                                     "dao/hrt201n.map",
                                     "dao/lak303d.map",
                                     "dao/orz100d.map",
                                     "dao/ost003d.map",
                                     "dao/orz900d.map",
                                     "bg512/AR0011SR.map",
                                     "bg512/AR0044SR.map",
                                     "bg512/AR0700SR.map",
                                     "sc1/AcrosstheCape.map",
                                     "sc1/CatwalkAlley.map",
                                     "sc1/GreenerPastures.map",
                                     "sc1/Expedition.map",
                                     "maze/maze512-1-0.map",
                                     "maze/maze512-8-0.map",
                                     "maze/maze512-32-0.map",
                                     "random/random512-10-0.map",
                                     "random/random512-25-0.map",
                                     "random/random512-40-0.map",
                                     "room/8room_000.map",
                                     "room/32room_000.map",
                                     "room/64room_000.map",
                                     "street/Berlin_0_256.map",
                                     "street/Berlin_0_512.map",
                                     "street/Berlin_0_1024.map",
                                     "street/Boston_0_1024.map",
                                     "iron/scene_mp_2p_01.map"};
  static const char *const quick[] = {"dao/den312d.map",         "dao/arena.map",
                                      "room/32room_000.map",     "maze/maze512-1-0.map",
                                      "street/Berlin_0_256.map", "random/random512-40-0.map"};
  if (exhaustive)
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
      if (only && !strstr(maps[i], only)) continue;
      run_map(dir, maps[i], 0);
    }
  else
    for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++) run_map(dir, quick[i], 200);
}

int main(int argc, char **argv) {
  exhaustive = argc > 1 && strcmp(argv[1], "--exhaustive") == 0;
  only = exhaustive && argc > 2 ? argv[2] : NULL;
  if (!exhaustive) {
    RUN(test_edges);
    RUN(test_random_grids);
    RUN(test_costs);
    RUN(test_rooms);
    RUN(test_io);
  }
  RUN(test_movingai);
  return check_summary();
}
