/*
** test_open_sets.c -- every open-list structure (options.open_set) must pop
** nodes in the documented order, so all of them give the same status, the
** same path cell for cell and the same statistics, for every option mix:
** tie rules, terrain, weights, inconsistent heuristics with reopening,
** expansion limits. The bucket queue's ring and overflow are forced into use
** with small move costs on large maps.
*/
#include "check.h"
#include "util/randmap.h"
#include "util/validate.h"

#include <stdlib.h>

static const astar_open_set sets[] = {ASTAR_OPEN_HEAP4, ASTAR_OPEN_HEAP2, ASTAR_OPEN_BUCKET};
#define NSETS (sizeof sets / sizeof sets[0])

/* An admissible but inconsistent heuristic: octile on even columns, 0 elsewhere. */
static double patchy(void *ctx, astar_point c, astar_point g) {
  (void)ctx;
  if (c.x % 2) return 0.0;
  double dx = abs(c.x - g.x), dy = abs(c.y - g.y);
  double mn = dx < dy ? dx : dy, mx = dx < dy ? dy : dx;
  return mx + 0.41421356 * mn;
}

typedef struct outcome {
  astar_status st;
  astar_result r;
  astar_point *path;
} outcome;

static int same(const outcome *a, const outcome *b) {
  if (a->st != b->st || a->r.length != b->r.length || a->r.cost != b->r.cost) return 0;
  if (a->r.stats.expanded != b->r.stats.expanded || a->r.stats.generated != b->r.stats.generated ||
      a->r.stats.reopened != b->r.stats.reopened || a->r.stats.max_open != b->r.stats.max_open)
    return 0;
  if (a->st == ASTAR_OK)
    for (size_t i = 0; i < a->r.length; i++)
      if (a->path[i].x != b->path[i].x || a->path[i].y != b->path[i].y) return 0;
  return 1;
}

static void random_options(astar_options *o, rng *r) {
  astar_options_init(o);
  o->moves = rng_range(r, 0, 3) ? 8 : 4;
  o->corner = (astar_corner)rng_range(r, 0, 3);
  switch (rng_range(r, 0, 3)) {
  case 0:
    break;
  case 1:
    o->straight_cost = 10, o->diagonal_cost = 14;
    break;
  case 2:
    o->straight_cost = 0.25, o->diagonal_cost = 0.3;
    break; /* many buckets */
  default:
    o->straight_cost = 1, o->diagonal_cost = 1.2;
    break;
  }
  o->tie = (astar_tie)rng_range(r, 0, 2);
  switch (rng_range(r, 0, 5)) {
  case 0:
    o->weight = 1.7;
    break;
  case 1:
    o->heuristic = ASTAR_H_ZERO;
    break;
  case 2:
    o->heuristic = ASTAR_H_CALLBACK, o->heuristic_fn = patchy;
    break;
  case 3:
    o->heuristic = ASTAR_H_MANHATTAN;
    break; /* inconsistent with diagonals: reopens */
  default:
    break;
  }
  if (!rng_range(r, 0, 7)) o->max_expansions = (uint64_t)rng_range(r, 1, 200);
}

static void test_same_order_everywhere(void) {
  rng r;
  rng_seed(&r, 77);
  size_t cap = (size_t)200 * 200;
  outcome out[NSETS];
  for (size_t k = 0; k < NSETS; k++) out[k].path = malloc(cap * sizeof(astar_point));
  int runs = 0, reopened = 0, differ = 0;
  for (int m = 0; m < 120; m++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, m % 4 == 0 ? 200 : 48, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    for (int qn = 0; qn < 12; qn++) {
      astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
      if (s.x < 0) break;
      astar_options o;
      random_options(&o, &r);
      for (size_t k = 0; k < NSETS; k++) {
        o.open_set = sets[k];
        out[k].st = astar_find_path(ws, g, &o, s, t, out[k].path, cap, &out[k].r);
      }
      runs++;
      reopened += out[0].r.stats.reopened > 0;
      for (size_t k = 1; k < NSETS; k++) {
        if (!same(&out[0], &out[k])) {
          differ++;
          CHECKF(
              0,
              "map %d query %d: open set %d differs from heap4 (status %d/%d, expanded %llu/%llu)",
              m, qn, (int)sets[k], (int)out[0].st, (int)out[k].st,
              (unsigned long long)out[0].r.stats.expanded,
              (unsigned long long)out[k].r.stats.expanded);
        }
      }
      if (out[0].st == ASTAR_OK) {
        char err[200];
        CHECKF(validate_path(g, &o, s, t, out[0].path, out[0].r.length, out[0].r.cost, err,
                             sizeof err),
               "%s", err);
      }
    }
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
  printf("     %d queries x %zu open sets, %d with reopening, %d differences\n", runs, NSETS,
         reopened, differ);
  CHECK(runs > 1000);
  CHECK(reopened > 10);
  for (size_t k = 0; k < NSETS; k++) free(out[k].path);
}

/* Tiny move costs (bucket width 0.01) and cells with terrain 2000: a step
** into such a cell raises f by far more than the ring's 1024 buckets, so
** those nodes wait in the overflow list and come back when the ring is
** empty. Heap and buckets must still agree exactly. */
static void test_bucket_overflow(void) {
  rng r;
  rng_seed(&r, 5);
  astar_grid *g;
  CHECK(astar_grid_new(&g, 80, 80, NULL) == ASTAR_OK);
  for (int y = 0; y < 80; y++)
    for (int x = 0; x < 80; x++) {
      if (rng_range(&r, 0, 9) == 0) astar_grid_set_passable(g, x, y, false);
      if (rng_range(&r, 0, 3) == 0) astar_grid_set_terrain(g, x, y, 2000.0f);
    }
  for (int y = 0; y < 80; y++) astar_grid_set_terrain(g, 40, y, 2000.0f); /* a costly wall */
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  static astar_point pa[6400], pb[6400];
  int compared = 0;
  for (int i = 0; i < 40; i++) {
    astar_point s = randmap_passable_cell(g, &r), t = randmap_passable_cell(g, &r);
    astar_options o;
    astar_options_init(&o);
    o.straight_cost = 0.01;
    o.diagonal_cost = 0.0141;
    o.heuristic = i % 2 ? ASTAR_H_ZERO : ASTAR_H_AUTO;
    astar_result a, b;
    astar_status sa = astar_find_path(ws, g, &o, s, t, pa, 6400, &a);
    o.open_set = ASTAR_OPEN_BUCKET;
    astar_status sb = astar_find_path(ws, g, &o, s, t, pb, 6400, &b);
    CHECK(sa == sb);
    CHECK(a.cost == b.cost && a.length == b.length);
    CHECK(a.stats.expanded == b.stats.expanded && a.stats.max_open == b.stats.max_open);
    for (size_t k = 0; sa == ASTAR_OK && k < a.length; k++)
      CHECK(pa[k].x == pb[k].x && pa[k].y == pb[k].y);
    compared += sa == ASTAR_OK;
  }
  CHECK(compared > 20);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_same_order_everywhere);
  RUN(test_bucket_overflow);
  return check_summary();
}
