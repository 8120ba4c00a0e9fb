/*
** test_watch.c -- the watch index (astar/watch.h) against a brute-force
** scan of every registered path: random maps, paths found by A* under every
** corner rule and 4 / 8 moves, random edit batches (blocking, opening,
** terrain), paths removed and replaced between batches; each id reported
** once; ASTAR_STALE with every path when the change ring cannot reach back;
** capacity limits; buffer too small consumes nothing; allocation failure.
*/
#include <astar/astar.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

#define MAXP 64
#define MAXLEN 4096

typedef struct wpath {
  bool live;
  astar_options opt;
  astar_point cell[MAXLEN];
  size_t len;
} wpath;

/* Does change c affect path p (the rules at the top of astar/watch.h)? */
static bool affects(const wpath *p, const astar_cell_change *c) {
  const bool sides = p->opt.corner == ASTAR_CORNER_NO_CUT || p->opt.corner == ASTAR_CORNER_ONE_SIDE;
  const bool blocked = c->was_passable && !c->passable;
  for (size_t i = 0; i < p->len; i++) {
    if (p->cell[i].x == c->x && p->cell[i].y == c->y &&
        (blocked || c->old_terrain != c->new_terrain))
      return true;
    if (i > 0 && sides && blocked) {
      const astar_point a = p->cell[i - 1], b = p->cell[i];
      if (a.x != b.x && a.y != b.y &&
          ((c->x == b.x && c->y == a.y) || (c->x == a.x && c->y == b.y)))
        return true;
    }
  }
  return false;
}

static void random_options(astar_options *o, rng *r) {
  astar_options_init(o);
  o->moves = rng_range(r, 0, 3) == 0 ? 4 : 8;
  o->corner = (astar_corner)rng_range(r, 0, 3);
}

/* A path from A* between two random cells, or false. */
static bool find(astar_workspace *ws, const astar_grid *g, wpath *p, rng *r) {
  const astar_point s = randmap_passable_cell(g, r), t = randmap_passable_cell(g, r);
  if (s.x < 0 || t.x < 0) return false;
  astar_result res;
  const astar_status st = astar_find_path(ws, g, &p->opt, s, t, p->cell, MAXLEN, &res);
  p->len = res.length;
  return st == ASTAR_OK;
}

static void test_against_scan(void) {
  rng r;
  rng_seed(&r, 3);
  static wpath paths[MAXP];
  astar_watch_id ids[MAXP];
  static astar_cell_change ch[4096];
  for (int round = 0; round < 25; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 48, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    CHECK(astar_grid_track_changes(g, 4096) == ASTAR_OK);
    astar_workspace *ws;
    CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
    astar_watch *w;
    CHECK(astar_watch_new(&w, g, MAXP, (size_t)MAXP * 3 * 200, NULL) == ASTAR_OK);
    memset(paths, 0, sizeof paths);
    for (int batch = 0; batch < 15; batch++) {
      /* Register, replace and remove some paths. */
      for (int k = 0; k < 8; k++) {
        wpath np;
        random_options(&np.opt, &r);
        if (!find(ws, g, &np, &r) || np.len > 200) continue;
        const int what = rng_range(&r, 0, 2);
        astar_watch_id id = (astar_watch_id)rng_range(&r, 0, MAXP - 1);
        if (what == 0 || !paths[id].live) {
          const astar_status st = astar_watch_add(w, &np.opt, np.cell, np.len, &id);
          if (st == ASTAR_CAPACITY) {
            CHECK(astar_watch_count(w) == MAXP);
            continue;
          }
          CHECK(st == ASTAR_OK && id < MAXP && !paths[id].live);
        } else if (what == 1) {
          CHECK(astar_watch_replace(w, id, &np.opt, np.cell, np.len) == ASTAR_OK);
        } else {
          CHECK(astar_watch_remove(w, id) == ASTAR_OK);
          CHECK(astar_watch_remove(w, id) == ASTAR_INVALID_ARGUMENT);
          paths[id].live = false;
          continue;
        }
        paths[id] = np;
        paths[id].live = true;
      }
      const uint64_t v0 = astar_grid_version(g);
      const int edits = rng_range(&r, 0, 30);
      for (int i = 0; i < edits; i++) {
        const int32_t x = rng_range(&r, 0, astar_grid_width(g) - 1);
        const int32_t y = rng_range(&r, 0, astar_grid_height(g) - 1);
        if (rng_range(&r, 0, 3) == 0)
          CHECK(astar_grid_set_terrain(g, x, y, (float)rng_range(&r, 1, 3)) == ASTAR_OK);
        else
          CHECK(astar_grid_set_passable(g, x, y, rng_range(&r, 0, 2) == 0) == ASTAR_OK);
      }
      size_t nch;
      CHECK(astar_grid_changes(g, v0, ch, 4096, &nch) == ASTAR_OK);
      bool want[MAXP] = {false};
      size_t nwant = 0;
      for (int p = 0; p < MAXP; p++) {
        if (!paths[p].live) continue;
        for (size_t i = 0; i < nch && !want[p]; i++) want[p] = affects(&paths[p], &ch[i]);
        nwant += want[p];
      }
      size_t len;
      if (nwant > 0) {
        CHECK(astar_watch_sync(w, g, ids, nwant - 1, &len) == ASTAR_BUFFER_TOO_SMALL);
        CHECK_EQ(len, nwant);
      }
      CHECK(astar_watch_sync(w, g, ids, MAXP, &len) == ASTAR_OK);
      CHECKF(len == nwant, "round %d batch %d: %zu reported, %zu affected", round, batch, len,
             nwant);
      bool seen[MAXP] = {false};
      for (size_t i = 0; i < len; i++) {
        CHECK(ids[i] < MAXP && want[ids[i]] && !seen[ids[i]]);
        if (ids[i] < MAXP) seen[ids[i]] = true;
      }
      CHECK(astar_watch_sync(w, g, ids, MAXP, &len) == ASTAR_OK && len == 0);
    }
    astar_watch_free(w);
    astar_workspace_free(ws);
    astar_grid_free(g);
  }
}

static void test_stale_and_limits(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 10, 10, NULL) == ASTAR_OK);
  astar_watch *w;
  CHECK(astar_watch_new(&w, g, 2, 12, NULL) == ASTAR_OK);
  const astar_point diag[] = {{0, 0}, {1, 1}, {2, 2}}; /* 3 cells + 4 side cells */
  const astar_point row[] = {{0, 5}, {1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}};
  astar_watch_id a, b, c;
  CHECK(astar_watch_add(w, NULL, diag, 3, &a) == ASTAR_OK);
  CHECK_EQ(astar_watch_cells_used(w), 7);
  CHECK(astar_watch_add(w, NULL, row, 6, &b) == ASTAR_CAPACITY); /* 13 > 12 cells */
  CHECK(astar_watch_add(w, NULL, row, 5, &b) == ASTAR_OK);
  CHECK(astar_watch_add(w, NULL, row, 1, &c) == ASTAR_CAPACITY); /* no slot */
  /* Bad paths. */
  const astar_point jump[] = {{0, 0}, {2, 0}};
  const astar_point out[] = {{0, 0}, {-1, 0}};
  CHECK(astar_watch_replace(w, a, NULL, jump, 2) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_watch_replace(w, a, NULL, out, 2) == ASTAR_OUT_OF_BOUNDS);
  astar_options four;
  astar_options_init(&four);
  four.moves = 4;
  CHECK(astar_watch_replace(w, a, &four, diag, 3) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_watch_replace(w, a, NULL, diag, 0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_watch_replace(w, 7, NULL, diag, 3) == ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_watch_count(w), 2);
  /* Untracked grid: every change batch reports every path, stale. */
  astar_watch_id ids[4];
  size_t len;
  CHECK(astar_grid_set_passable(g, 9, 9, false) == ASTAR_OK);
  CHECK(astar_watch_sync(w, g, ids, 1, &len) == ASTAR_BUFFER_TOO_SMALL && len == 2);
  CHECK(astar_watch_sync(w, g, ids, 4, &len) == ASTAR_STALE && len == 2);
  CHECK(ids[0] == 0 && ids[1] == 1);
  CHECK(astar_watch_sync(w, g, ids, 4, &len) == ASTAR_OK && len == 0);
  /* Tracked: a side cell blocked reports the diagonal path only; opened, nothing. */
  CHECK(astar_grid_track_changes(g, 16) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 1, 0, false) == ASTAR_OK);
  CHECK(astar_watch_sync(w, g, ids, 4, &len) == ASTAR_OK && len == 1 && ids[0] == a);
  CHECK(astar_grid_set_passable(g, 1, 0, true) == ASTAR_OK);
  CHECK(astar_watch_sync(w, g, ids, 4, &len) == ASTAR_OK && len == 0);
  /* Terrain on a path cell: its cost changed. */
  CHECK(astar_grid_set_terrain(g, 3, 5, 2.0f) == ASTAR_OK);
  CHECK(astar_watch_sync(w, g, ids, 4, &len) == ASTAR_OK && len == 1 && ids[0] == b);
  /* After removal nothing reports it; its id comes back first. */
  CHECK(astar_watch_remove(w, b) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 3, 5, false) == ASTAR_OK);
  CHECK(astar_watch_sync(w, g, ids, 4, &len) == ASTAR_OK && len == 0);
  CHECK(astar_watch_add(w, NULL, row, 2, &c) == ASTAR_OK && c == b);
  /* Another grid. */
  astar_grid *h;
  CHECK(astar_grid_new(&h, 10, 10, NULL) == ASTAR_OK);
  CHECK(astar_watch_sync(w, h, ids, 4, &len) == ASTAR_MISMATCH);
  CHECK(astar_watch_sync(NULL, g, ids, 4, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_watch_sync(w, g, NULL, 4, &len) == ASTAR_INVALID_ARGUMENT);
  astar_grid_free(h);
  astar_watch_free(w);
  CHECK(astar_watch_new(&w, g, 0, 4, NULL) == ASTAR_INVALID_ARGUMENT && w == NULL);
  CHECK(astar_watch_new(&w, NULL, 4, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_watch_new(&w, g, 4, 0, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_watch_free(NULL);
  astar_grid_free(g);
}

static void test_alloc_failure(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 20, 20, NULL) == ASTAR_OK);
  for (long k = 1;; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator al = failalloc_allocator(&fa);
    failalloc_fail_in(&fa, k);
    astar_watch *w = (astar_watch *)&fa;
    const astar_status st = astar_watch_new(&w, g, 8, 64, &al);
    if (st == ASTAR_OK) {
      CHECK(astar_watch_memory(w) > 0);
      astar_watch_free(w);
      CHECK_EQ(fa.blocks, 0);
      CHECK(k > 3);
      break;
    }
    CHECK(st == ASTAR_NO_MEMORY && w == NULL);
    CHECK_EQ(fa.blocks, 0);
  }
  astar_grid_free(g);
}

int main(void) {
  RUN(test_against_scan);
  RUN(test_stale_and_limits);
  RUN(test_alloc_failure);
  return check_summary();
}
