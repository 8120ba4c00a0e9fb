/*
** test_anya.c -- Anya (astar/anya.h) against the exhaustive Euclidean
** shortest-path reference of tests/util/esp_reference.c (corner visibility
** graph, exact segment tests, Dijkstra). On thousands of seeded random
** queries over random maps of many sizes and densities, 1 x N strips, open
** maps, mazes and maps full of diagonally touching obstacles: the same
** length (1e-9 relative) and the same NO_PATH; every returned path legal
** segment by segment (exactly), its vertices the start centre, convex
** corners, the goal centre, its length the reported one; never longer than
** the octile grid optimum under NO_CUT and ONE_SIDE (the library's A*) nor
** than Theta* and Lazy Theta* under those rules (astar/anyangle.h).
** Also: hand-made cases, arguments, small buffers, node capacity and its
** reservation, allocation failure at each allocation, no allocation while
** searching, determinism.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/dijkstra.h"
#include "util/esp_reference.h"
#include "util/failalloc.h"
#include "util/randmap.h"
#include "util/validate.h"

#define MAXV 4096 /* path buffer of the tests */

static int blocked_at(const astar_grid *g, int64_t x, int64_t y) {
  return !(astar_grid_contains(g, (int32_t)x, (int32_t)y) &&
           astar_grid_passable(g, (int32_t)x, (int32_t)y));
}

/* Check one Anya answer against the reference length `ref` (-1: none):
** status, length, and the path itself. Returns 1 when all hold. */
static int check_answer(const astar_grid *g, astar_workspace *aws, astar_point s, astar_point t,
                        astar_status st, const astar_vec2 *path, const astar_anya_result *res,
                        double ref, const char *what) {
  int ok = 1;
  if (ref < 0) {
    CHECKF(st == ASTAR_NO_PATH, "%s: (%d,%d)->(%d,%d): status %d, reference has no path", what, s.x,
           s.y, t.x, t.y, (int)st);
    CHECK(res->length == 0 && res->cost == 0.0);
    return st == ASTAR_NO_PATH;
  }
  CHECKF(st == ASTAR_OK, "%s: (%d,%d)->(%d,%d): status %d, reference %.12f", what, s.x, s.y, t.x,
         t.y, (int)st, ref);
  if (st != ASTAR_OK) return 0;
  ok &= cost_equal(res->cost, ref);
  CHECKF(cost_equal(res->cost, ref), "%s: (%d,%d)->(%d,%d): anya %.12f reference %.12f", what, s.x,
         s.y, t.x, t.y, res->cost, ref);
  /* the path: start centre, corners, goal centre; legal; its length */
  const size_t n = res->length;
  CHECK(n >= 1);
  if (n < 1) return 0;
  CHECK(path[0].x == s.x + 0.5 && path[0].y == s.y + 0.5);
  CHECK(path[n - 1].x == t.x + 0.5 && path[n - 1].y == t.y + 0.5);
  double sum = 0;
  for (size_t i = n - 1; i > 0; i--)
    sum += hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
  CHECKF(cost_equal(sum, res->cost), "%s: recomputed %.12f reported %.12f", what, sum, res->cost);
  for (size_t i = 0; i < n; i++) {
    const int64_t X = (int64_t)llround(2 * path[i].x), Y = (int64_t)llround(2 * path[i].y);
    CHECK((double)X == 2 * path[i].x && (double)Y == 2 * path[i].y);
    if (i > 0 && i + 1 < n) { /* a bend: a convex corner */
      const int64_t x = X / 2, y = Y / 2;
      CHECK(!(X & 1) && !(Y & 1));
      const int b = blocked_at(g, x - 1, y - 1) + blocked_at(g, x, y - 1) +
                    blocked_at(g, x - 1, y) + blocked_at(g, x, y);
      CHECKF(b == 1, "%s: bend (%g,%g) has %d blocked cells", what, path[i].x, path[i].y, b);
    }
    if (i > 0) {
      const int64_t PX = (int64_t)llround(2 * path[i - 1].x),
                    PY = (int64_t)llround(2 * path[i - 1].y);
      const int legal = esp_segment_legal(g, PX, PY, X, Y);
      ok &= legal;
      CHECKF(legal, "%s: (%d,%d)->(%d,%d): segment %zu (%g,%g)-(%g,%g) illegal", what, s.x, s.y,
             t.x, t.y, i, path[i - 1].x, path[i - 1].y, path[i].x, path[i].y);
    }
  }
  /* never longer than the octile optimum, NO_CUT and ONE_SIDE (the library's A*) */
  if (aws) {
    astar_options o;
    astar_options_init(&o);
    for (int rule = 0; rule < 2; rule++) {
      o.corner = rule ? ASTAR_CORNER_ONE_SIDE : ASTAR_CORNER_NO_CUT;
      astar_result r;
      const astar_status gs = astar_find_path(aws, g, &o, s, t, NULL, 0, &r);
      CHECK(gs == ASTAR_OK || gs == ASTAR_BUFFER_TOO_SMALL);
      CHECKF(res->cost <= r.cost * (1 + 1e-12) + 1e-12, "%s: anya %.12f > octile %.12f", what,
             res->cost, r.cost);
      /* and never longer than Theta* / Lazy Theta* (astar/anyangle.h) under the rule */
      for (int m = 0; m < 2; m++) {
        astar_anyangle_result ar;
        const astar_status ts = astar_anyangle_find_path(
            aws, g, &o, m ? ASTAR_ANYANGLE_LAZY_THETA : ASTAR_ANYANGLE_THETA, s, t, NULL, 0, &ar);
        CHECK(ts == ASTAR_OK || ts == ASTAR_BUFFER_TOO_SMALL);
        CHECKF(res->cost <= ar.cost * (1 + 1e-12) + 1e-12, "%s: anya %.12f > theta %.12f", what,
               res->cost, ar.cost);
      }
    }
  }
  return ok;
}

/* ---- hand-made cases ---------------------------------------------------- */

static void test_hand(void) {
  astar_anya_workspace *ws = NULL;
  CHECK(astar_anya_workspace_new(&ws, NULL, 0, NULL) == ASTAR_OK);
  astar_vec2 path[64];
  astar_anya_result r;
  {
    /* open 5x3: a straight line */
    const char *rows[] = {".....", ".....", "....."};
    astar_grid *g = randmap_from_rows(rows, 3, '@');
    CHECK(astar_anya_find_path(ws, g, (astar_point){0, 0}, (astar_point){4, 2}, path, 64, &r) ==
          ASTAR_CAPACITY); /* not reserved for a grid yet */
    CHECK(astar_anya_workspace_reserve(ws, g, 0) == ASTAR_OK);
    CHECK(astar_anya_find_path(ws, g, (astar_point){0, 0}, (astar_point){4, 2}, path, 64, &r) ==
          ASTAR_OK);
    CHECK(r.length == 2 && cost_equal(r.cost, sqrt(20.0)));
    CHECK(astar_anya_find_path(ws, g, (astar_point){1, 1}, (astar_point){1, 1}, path, 64, &r) ==
          ASTAR_OK);
    CHECK(r.length == 1 && r.cost == 0.0 && path[0].x == 1.5 && path[0].y == 1.5);
    CHECK(astar_anya_find_path(ws, g, (astar_point){4, 1}, (astar_point){0, 1}, path, 64, &r) ==
          ASTAR_OK);
    CHECK(r.length == 2 && r.cost == 4.0);
    astar_grid_free(g);
  }
  {
    /* a wall with a gap: the path bends at the gap's corner (2, 1) */
    const char *rows[] = {"..@..", "..@..", "....."};
    astar_grid *g = randmap_from_rows(rows, 3, '@');
    CHECK(astar_anya_workspace_reserve(ws, g, 0) == ASTAR_OK);
    CHECK(astar_anya_find_path(ws, g, (astar_point){0, 0}, (astar_point){4, 0}, path, 64, &r) ==
          ASTAR_OK);
    CHECK(r.length == 4);
    CHECK(path[1].x == 2 && path[1].y == 2 && path[2].x == 3 && path[2].y == 2);
    CHECK(cost_equal(r.cost, 2 * hypot(1.5, 1.5) + 1));
    astar_grid_free(g);
  }
  {
    /* no squeezing between diagonal obstacles */
    const char *rows[] = {".@", "@."};
    astar_grid *g = randmap_from_rows(rows, 2, '@');
    CHECK(astar_anya_find_path(ws, g, (astar_point){0, 0}, (astar_point){1, 1}, path, 64, &r) ==
          ASTAR_NO_PATH);
    CHECK(r.length == 0 && r.cost == 0.0);
    astar_grid_free(g);
  }
  {
    /* touching a corner is allowed: around a single block */
    const char *rows[] = {"...", ".@.", "..."};
    astar_grid *g = randmap_from_rows(rows, 3, '@');
    CHECK(astar_anya_find_path(ws, g, (astar_point){0, 0}, (astar_point){2, 2}, path, 64, &r) ==
          ASTAR_OK);
    CHECK(r.length == 3 && cost_equal(r.cost, 2 * hypot(0.5, 1.5)));
    astar_grid_free(g);
  }
  astar_anya_workspace_free(ws);
}

/* ---- random maps against the reference ---------------------------------- */

/* A maze on a (2k+1) grid: walls everywhere, passages carved by a seeded
** depth-first walk; then a few extra openings. */
static astar_grid *make_maze(int32_t w, int32_t h, rng *r) {
  astar_grid *g = NULL;
  if (astar_grid_new(&g, w, h, NULL) != ASTAR_OK) return NULL;
  astar_grid_fill(g, false);
  const int32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  int32_t *stack = malloc((size_t)cw * (size_t)ch * sizeof *stack);
  unsigned char *seen = calloc((size_t)cw * (size_t)ch, 1);
  int32_t top = 0;
  stack[top++] = 0;
  seen[0] = 1;
  astar_grid_set_passable(g, 0, 0, true);
  while (top > 0) {
    const int32_t c = stack[top - 1], cx = c % cw, cy = c / cw;
    int32_t nb[4], k = 0;
    const int32_t dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    for (int d = 0; d < 4; d++) {
      const int32_t nx = cx + dx[d], ny = cy + dy[d];
      if (nx >= 0 && ny >= 0 && nx < cw && ny < ch && !seen[ny * cw + nx] && 2 * nx < w &&
          2 * ny < h)
        nb[k++] = d;
    }
    if (k == 0) {
      top--;
      continue;
    }
    const int d = nb[rng_next(r) % (uint64_t)k];
    const int32_t nx = cx + dx[d], ny = cy + dy[d];
    seen[ny * cw + nx] = 1;
    astar_grid_set_passable(g, 2 * cx + dx[d], 2 * cy + dy[d], true);
    astar_grid_set_passable(g, 2 * nx, 2 * ny, true);
    stack[top++] = ny * cw + nx;
  }
  for (int i = 0; i < (w * h) / 12; i++)
    astar_grid_set_passable(g, rng_range(r, 0, w - 1), rng_range(r, 0, h - 1), true);
  free(stack);
  free(seen);
  return g;
}

/* Random blocks plus many diagonal pairs (squeeze points) and 2x2 touches. */
static astar_grid *make_diagonal(int32_t w, int32_t h, double density, rng *r) {
  astar_grid *g = NULL;
  randmap_spec spec = {w, h, density, 0, 0, 0};
  if (randmap_make(&g, &spec, r) != ASTAR_OK) return NULL;
  for (int i = 0; i < (w * h) / 6; i++) {
    const int32_t x = rng_range(r, 0, w - 1), y = rng_range(r, 0, h - 1);
    const int flip = (int)(rng_next(r) & 1);
    astar_grid_set_passable(g, x, y, false);
    if (x + 1 < w && y + 1 < h) {
      astar_grid_set_passable(g, x + 1, y + 1, flip);
      astar_grid_set_passable(g, x + 1, y, !flip);
      astar_grid_set_passable(g, x, y + 1, true);
    }
  }
  return g;
}

typedef struct tally {
  long queries, paths, none, bends;
} tally;

static void run_map(const astar_grid *g, astar_anya_workspace *ws, astar_workspace *aws, rng *r,
                    int nq, tally *tl, const char *what) {
  esp_graph *eg = esp_graph_new(g);
  CHECK(eg != NULL);
  if (!eg) return;
  static astar_vec2 path[MAXV];
  CHECK(astar_anya_workspace_reserve(ws, g, 0) == ASTAR_OK);
  CHECK(astar_workspace_reserve(aws, g) == ASTAR_OK);
  astar_options o;
  astar_options_init(&o);
  for (int i = 0; i < nq; i++) {
    const astar_point s = randmap_passable_cell(g, r), t = randmap_passable_cell(g, r);
    if (s.x < 0) break;
    const double ref = esp_graph_query(eg, s, t);
    astar_anya_result res;
    const astar_status st = astar_anya_find_path(ws, g, s, t, path, MAXV, &res);
    tl->queries++;
    if (!check_answer(g, aws, s, t, st, path, &res, ref, what)) {
      fprintf(stderr, "  map %dx%d\n", astar_grid_width(g), astar_grid_height(g));
      for (int32_t y = 0; y < astar_grid_height(g); y++) {
        fputs("  ", stderr);
        for (int32_t x = 0; x < astar_grid_width(g); x++)
          fputc(x == s.x && y == s.y           ? 'S'
                : x == t.x && y == t.y         ? 'T'
                : astar_grid_passable(g, x, y) ? '.'
                                               : '@',
                stderr);
        fputc('\n', stderr);
      }
      continue;
    }
    /* connectivity: the ESP exists exactly when an 8-connected NO_CUT path does */
    const double grid = ref_dijkstra(g, &o, s, t);
    CHECK((grid < 0) == (ref < 0));
    if (st == ASTAR_OK) {
      tl->paths++;
      tl->bends += (long)res.length - 2;
    } else {
      tl->none++;
    }
  }
  esp_graph_free(eg);
}

static void test_random(void) {
  rng r;
  rng_seed(&r, 20261124);
  astar_anya_workspace *ws = NULL;
  astar_workspace *aws = NULL;
  CHECK(astar_anya_workspace_new(&ws, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new_empty(&aws, NULL) == ASTAR_OK);
  tally tl = {0, 0, 0, 0};
  /* random maps, several sizes and densities, thin strips */
  for (int m = 0; m < 400; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 16, 0);
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    run_map(g, ws, aws, &r, 12, &tl, "random");
    astar_grid_free(g);
  }
  /* 1 x N and N x 1, open maps, mazes, diagonal touching */
  for (int m = 0; m < 40; m++) {
    const int32_t n = rng_range(&r, 1, 30);
    randmap_spec spec = {m & 1 ? 1 : n, m & 1 ? n : 1, rng_unit(&r) * 0.3, 0, 0, 0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    run_map(g, ws, aws, &r, 8, &tl, "strip");
    astar_grid_free(g);
  }
  for (int m = 0; m < 40; m++) {
    randmap_spec spec = {rng_range(&r, 1, 24), rng_range(&r, 1, 24), 0.0, 0, 0, 0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    if (m & 1) /* a few blocks in an open field */
      for (int i = 0; i < 3; i++)
        astar_grid_set_passable(g, rng_range(&r, 0, spec.width - 1),
                                rng_range(&r, 0, spec.height - 1), false);
    run_map(g, ws, aws, &r, 10, &tl, "open");
    astar_grid_free(g);
  }
  for (int m = 0; m < 60; m++) {
    astar_grid *g = make_maze(rng_range(&r, 3, 21), rng_range(&r, 3, 21), &r);
    CHECK(g != NULL);
    run_map(g, ws, aws, &r, 12, &tl, "maze");
    astar_grid_free(g);
  }
  for (int m = 0; m < 150; m++) {
    astar_grid *g =
        make_diagonal(rng_range(&r, 2, 16), rng_range(&r, 2, 16), rng_unit(&r) * 0.3, &r);
    CHECK(g != NULL);
    run_map(g, ws, aws, &r, 12, &tl, "diagonal");
    astar_grid_free(g);
  }
  printf("     %ld queries: %ld paths (%ld bends), %ld without\n", tl.queries, tl.paths, tl.bends,
         tl.none);
  CHECK(tl.queries > 5000 && tl.paths > 3000 && tl.none > 200 && tl.bends > 2000);
  astar_anya_workspace_free(ws);
  astar_workspace_free(aws);
}

/* A larger map: Anya against the reference on longer queries. */
static void test_larger(void) {
  rng r;
  rng_seed(&r, 4242);
  astar_anya_workspace *ws = NULL;
  astar_workspace *aws = NULL;
  CHECK(astar_anya_workspace_new(&ws, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new_empty(&aws, NULL) == ASTAR_OK);
  tally tl = {0, 0, 0, 0};
  for (int m = 0; m < 6; m++) {
    randmap_spec spec = {40, 40, 0.05 + 0.05 * m, 0, 0, 0};
    astar_grid *g = NULL;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    run_map(g, ws, aws, &r, 30, &tl, "larger");
    astar_grid_free(g);
  }
  CHECK(tl.paths > 100);
  astar_anya_workspace_free(ws);
  astar_workspace_free(aws);
}

/* ---- arguments, buffers, capacity ------------------------------------------- */

static void test_arguments(void) {
  const char *rows[] = {"....", ".@@.", "....", "@..."};
  astar_grid *g = randmap_from_rows(rows, 4, '@');
  astar_anya_workspace *ws = NULL;
  CHECK(astar_anya_workspace_new(NULL, g, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  ws = (astar_anya_workspace *)&ws;
  CHECK(astar_anya_workspace_new(&ws, g, (size_t)UINT32_MAX, NULL) == ASTAR_TOO_LARGE);
  CHECK(ws == NULL);
  CHECK(astar_anya_workspace_new(&ws, g, 0, NULL) == ASTAR_OK);
  CHECK(astar_anya_workspace_nodes(ws) == ASTAR_ANYA_DEFAULT_NODES);
  CHECK(astar_anya_workspace_memory(ws) > 0 && astar_anya_workspace_memory(NULL) == 0);
  CHECK(astar_anya_workspace_nodes(NULL) == 0);
  CHECK(astar_anya_workspace_reserve(NULL, g, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anya_workspace_reserve(ws, g, (size_t)UINT32_MAX) == ASTAR_TOO_LARGE);
  astar_vec2 path[8];
  astar_anya_result r;
  const astar_point a = {0, 0}, b = {3, 2};
  CHECK(astar_anya_find_path(NULL, g, a, b, path, 8, &r) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anya_find_path(ws, NULL, a, b, path, 8, &r) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anya_find_path(ws, g, a, b, NULL, 8, &r) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_anya_find_path(ws, g, (astar_point){-1, 0}, b, path, 8, &r) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_anya_find_path(ws, g, a, (astar_point){4, 0}, path, 8, &r) == ASTAR_OUT_OF_BOUNDS);
  CHECK(astar_anya_find_path(ws, g, (astar_point){1, 1}, b, path, 8, &r) == ASTAR_START_BLOCKED);
  CHECK(astar_anya_find_path(ws, g, a, (astar_point){0, 3}, path, 8, &r) == ASTAR_GOAL_BLOCKED);
  CHECK(r.length == 0 && r.cost == 0.0 && r.stats.expanded == 0);
  /* small buffers: the needed count reported, nothing written */
  CHECK(astar_anya_find_path(ws, g, a, b, path, 8, &r) == ASTAR_OK);
  const size_t need = r.length;
  const double len = r.cost;
  CHECK(need == 3);
  astar_vec2 small[2] = {{-7, -7}, {-7, -7}};
  CHECK(astar_anya_find_path(ws, g, a, b, small, need - 1, &r) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(r.length == need && r.cost == len && small[0].x == -7 && small[1].x == -7);
  CHECK(astar_anya_find_path(ws, g, a, b, NULL, 0, &r) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(r.length == need);
  CHECK(astar_anya_find_path(ws, g, a, a, NULL, 0, &r) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(r.length == 1);
  CHECK(astar_anya_find_path(ws, g, a, b, path, 8, NULL) == ASTAR_OK); /* result optional */
  /* terrain is not part of the model */
  astar_grid *t = NULL;
  CHECK(astar_grid_clone(&t, g, NULL) == ASTAR_OK);
  CHECK(astar_grid_set_terrain(t, 2, 2, 3.0f) == ASTAR_OK);
  CHECK(astar_anya_find_path(ws, t, a, b, path, 8, &r) == ASTAR_UNSUPPORTED);
  astar_grid_free(t);
  /* a grid larger than reserved */
  astar_grid *big = NULL;
  CHECK(astar_grid_new(&big, 9, 9, NULL) == ASTAR_OK);
  CHECK(astar_anya_find_path(ws, big, a, b, path, 8, &r) == ASTAR_CAPACITY);
  CHECK(astar_anya_workspace_reserve(ws, big, 0) == ASTAR_OK);
  CHECK(astar_anya_find_path(ws, big, a, b, path, 8, &r) == ASTAR_OK);
  astar_grid_free(big);
  astar_anya_workspace_free(ws);
  astar_anya_workspace_free(NULL);
  astar_grid_free(g);
}

/* The node pool: a query that needs more nodes than reserved says so, and
** succeeds once the pool is grown; growing never loses the grid table. */
static void test_capacity(void) {
  rng r;
  rng_seed(&r, 99);
  astar_grid *g = make_maze(31, 31, &r);
  astar_anya_workspace *big = NULL, *ws = NULL;
  CHECK(astar_anya_workspace_new(&big, g, 0, NULL) == ASTAR_OK);
  astar_vec2 path[MAXV];
  astar_anya_result ref, res;
  const astar_point s = {0, 0}, t = {30, 30};
  CHECK(astar_anya_find_path(big, g, s, t, path, MAXV, &ref) == ASTAR_OK);
  CHECK(ref.stats.generated > 8);
  CHECK(astar_anya_workspace_new(&ws, g, 4, NULL) == ASTAR_OK);
  CHECK(astar_anya_workspace_nodes(ws) == 4);
  CHECK(astar_anya_find_path(ws, g, s, t, path, MAXV, &res) == ASTAR_CAPACITY);
  CHECK(res.stats.generated == 4 && res.length == 0);
  size_t cap = 4;
  astar_status st;
  while ((st = astar_anya_find_path(ws, g, s, t, path, MAXV, &res)) == ASTAR_CAPACITY) {
    cap *= 2;
    CHECK(astar_anya_workspace_reserve(ws, NULL, cap) == ASTAR_OK);
  }
  CHECK(st == ASTAR_OK && res.cost == ref.cost && res.length == ref.length);
  CHECK(cap >= ref.stats.generated / 2);
  astar_anya_workspace_free(ws);
  astar_anya_workspace_free(big);
  astar_grid_free(g);
}

/* Allocation failure at each allocation of the constructor and of the
** reservation; searching never allocates. */
static void test_failalloc(void) {
  rng r;
  rng_seed(&r, 5);
  randmap_spec spec = {30, 30, 0.2, 0, 0, 0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  int made = 0;
  long failures = 0;
  for (long k = 1; k < 20 && !made; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator a = failalloc_allocator(&fa);
    failalloc_fail_in(&fa, k);
    astar_anya_workspace *ws = (astar_anya_workspace *)&fa;
    const astar_status st = astar_anya_workspace_new(&ws, g, 1000, &a);
    if (st == ASTAR_OK) {
      made = 1;
      CHECK(astar_anya_workspace_memory(ws) == fa.bytes);
      /* searching allocates nothing */
      const long calls = fa.calls;
      astar_vec2 path[MAXV];
      for (int i = 0; i < 50; i++) {
        const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
        astar_anya_result res;
        const astar_status qs = astar_anya_find_path(ws, g, s, t, path, MAXV, &res);
        CHECK(qs == ASTAR_OK || qs == ASTAR_NO_PATH);
      }
      CHECK(fa.calls == calls);
      /* the reservation, failing at each of its allocations */
      astar_grid *big = NULL;
      CHECK(astar_grid_new(&big, 60, 60, NULL) == ASTAR_OK);
      int grown = 0;
      for (long j = 1; j < 10 && !grown; j++) {
        const size_t before = astar_anya_workspace_memory(ws);
        failalloc_fail_in(&fa, j);
        const astar_status rs = astar_anya_workspace_reserve(ws, big, 5000);
        if (rs == ASTAR_OK) {
          grown = 1;
          CHECK(astar_anya_workspace_nodes(ws) == 5000);
        } else {
          CHECKF(rs == ASTAR_NO_MEMORY, "reserve failure %ld: %d", j, (int)rs);
          /* still usable: the old grid still searchable */
          CHECK(astar_anya_workspace_memory(ws) >= before);
          astar_anya_result res;
          const astar_status qs = astar_anya_find_path(ws, g, (astar_point){0, 0},
                                                       (astar_point){0, 0}, path, MAXV, &res);
          CHECK(qs == ASTAR_OK || qs == ASTAR_START_BLOCKED);
        }
        fa.fail_at = 0;
      }
      CHECK(grown);
      astar_grid_free(big);
      astar_anya_workspace_free(ws);
    } else {
      CHECKF(st == ASTAR_NO_MEMORY && ws == NULL, "failure %ld: %d", k, (int)st);
      failures++;
    }
    CHECKF(fa.blocks == 0 && fa.osize_mismatches == 0, "failure %ld: %ld blocks left", k,
           fa.blocks);
  }
  CHECK(made && failures >= 3);
  astar_grid_free(g);
}

/* The same query gives the same path, also after other queries. */
static void test_determinism(void) {
  rng r;
  rng_seed(&r, 31337);
  randmap_spec spec = {48, 48, 0.25, 0, 0, 0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_anya_workspace *ws = NULL;
  CHECK(astar_anya_workspace_new(&ws, g, 0, NULL) == ASTAR_OK);
  static astar_vec2 p1[MAXV], p2[MAXV];
  for (int i = 0; i < 30; i++) {
    const astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_anya_result a, b;
    const astar_status s1 = astar_anya_find_path(ws, g, s, t, p1, MAXV, &a);
    const astar_point u = randmap_passable_cell(g, &r);
    (void)astar_anya_find_path(ws, g, u, s, p2, MAXV, &b);
    const astar_status s2 = astar_anya_find_path(ws, g, s, t, p2, MAXV, &b);
    CHECK(s1 == s2 && a.length == b.length && a.cost == b.cost);
    CHECK(a.stats.expanded == b.stats.expanded && a.stats.generated == b.stats.generated);
    if (s1 == ASTAR_OK) CHECK(memcmp(p1, p2, a.length * sizeof *p1) == 0);
  }
  astar_anya_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_hand);
  RUN(test_arguments);
  RUN(test_capacity);
  RUN(test_failalloc);
  RUN(test_determinism);
  RUN(test_larger);
  RUN(test_random);
  return check_summary();
}
