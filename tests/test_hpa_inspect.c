/*
** test_hpa_inspect.c -- the read-only inspection of HPA* (astar/hierarchy.h,
** "Inspection") against brute force on seeded random grids (sizes not
** multiples of the cluster size, 4 / 8 moves, every corner rule, terrain,
** 1..3 levels, ratios 2..3): cluster sides; every level's node list has the
** stats' count, the documented order (cluster row-major, then cell index),
** only passable cells next to a passable cell of another cluster of that
** level (a level-l+1 node is a level-l node), and astar_hpa_is_node agrees
** with the list on every cell; the crossings of found paths equal a direct
** scan, and without smoothing both cells of every top-level crossing are
** top-level nodes (the abstract path's transitions); the lists stay right
** after astar_hpa_update; buffer and argument statuses. These calls never
** allocate: nothing to fail.
*/
#include <astar/astar.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/randmap.h"

#define CAP 8192

static astar_point cells[CAP], pathbuf[CAP];
static uint32_t crossing[CAP];

static int32_t side_of(const astar_hpa_options *ho, int32_t level) {
  int32_t s = ho->cluster_size;
  for (int32_t l = 1; l < level; l++) s *= ho->ratio;
  return s;
}

static int64_t cluster_id(int32_t w, int32_t side, astar_point p) {
  const int32_t ncx = (w + side - 1) / side;
  return (int64_t)(p.y / side) * ncx + p.x / side;
}

/* Every node list of hpa against brute force; returns false on a failure. */
static void check_nodes(const astar_grid *g, const astar_options *o, const astar_hpa_options *ho,
                        const astar_hpa *hpa) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  astar_hpa_stats st;
  astar_hpa_get_stats(hpa, &st);
  CHECK_EQ(st.levels, ho->levels);
  CHECK_EQ(astar_hpa_cluster_size(hpa, 0), 0);
  CHECK_EQ(astar_hpa_cluster_size(hpa, st.levels + 1), 0);
  uint8_t *prev = NULL; /* node marks of the level below */
  for (int32_t level = 1; level <= st.levels; level++) {
    const int32_t side = side_of(ho, level);
    CHECK_EQ(astar_hpa_cluster_size(hpa, level), side);
    size_t n = 0;
    const astar_status st0 = astar_hpa_level_nodes(hpa, level, NULL, 0, &n);
    CHECK_EQ(st0, n ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK);
    CHECK_EQ(n, st.level[level - 1].nodes);
    if (n > CAP) break;
    if (n > 0) {
      size_t m = 12345;
      CHECK_EQ(astar_hpa_level_nodes(hpa, level, cells, n - 1, &m), ASTAR_BUFFER_TOO_SMALL);
      CHECK_EQ(m, n);
    }
    size_t len = 0;
    CHECK_EQ(astar_hpa_level_nodes(hpa, level, cells, CAP, &len), ASTAR_OK);
    CHECK_EQ(len, n);
    uint8_t *mark = calloc((size_t)w * (size_t)h, 1);
    CHECK(mark != NULL);
    if (!mark) break;
    for (size_t i = 0; i < n; i++) {
      const astar_point p = cells[i];
      CHECKF(p.x >= 0 && p.y >= 0 && p.x < w && p.y < h, "node %zu outside", i);
      if (!(p.x >= 0 && p.y >= 0 && p.x < w && p.y < h)) continue;
      CHECKF(!mark[(size_t)p.y * w + p.x], "node (%d,%d) twice", p.x, p.y);
      mark[(size_t)p.y * w + p.x] = 1;
      CHECK(astar_grid_passable(g, p.x, p.y));
      if (prev) CHECKF(prev[(size_t)p.y * w + p.x], "level %d node not below", level);
      if (i > 0) { /* cluster row-major, then cell index */
        const astar_point q = cells[i - 1];
        const int64_t cq = cluster_id(w, side, q), cp = cluster_id(w, side, p);
        CHECKF(cq < cp || (cq == cp && (int64_t)q.y * w + q.x < (int64_t)p.y * w + p.x),
               "order at %zu", i);
      }
      bool across = false; /* a passable neighbour in another cluster of this level */
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          if ((dx || dy) == 0 || (o->moves == 4 && dx && dy)) continue;
          const astar_point q = {p.x + dx, p.y + dy};
          if (q.x < 0 || q.y < 0 || q.x >= w || q.y >= h || !astar_grid_passable(g, q.x, q.y))
            continue;
          if (cluster_id(w, side, q) != cluster_id(w, side, p)) across = true;
        }
      CHECKF(across, "level %d node (%d,%d) has no neighbour across", level, p.x, p.y);
    }
    for (int32_t y = -1; y <= h; y++)
      for (int32_t x = -1; x <= w; x++) {
        const bool in = x >= 0 && y >= 0 && x < w && y < h && mark[(size_t)y * w + x];
        CHECKF(astar_hpa_is_node(hpa, level, (astar_point){x, y}) == in, "is_node (%d,%d) l%d", x,
               y, level);
      }
    free(prev);
    prev = mark;
  }
  free(prev);
}

/* Paths between random cells: crossings against a direct scan. */
static void check_crossings(rng *r, const astar_grid *g, const astar_hpa_options *ho,
                            const astar_hpa *hpa) {
  const int32_t w = astar_grid_width(g);
  astar_hpa_query *q = NULL;
  CHECK_EQ(astar_hpa_query_new(&q, hpa, NULL), ASTAR_OK);
  if (!q) return;
  for (int k = 0; k < 6; k++) {
    const astar_point s = randmap_passable_cell(g, r), t = randmap_passable_cell(g, r);
    if (s.x < 0) break;
    astar_hpa_result res;
    if (astar_hpa_find_path(q, hpa, g, s, t, pathbuf, CAP, &res) != ASTAR_OK) continue;
    for (int32_t level = 1; level <= ho->levels; level++) {
      const int32_t side = side_of(ho, level);
      size_t want = 0;
      for (size_t i = 0; i + 1 < res.length; i++)
        if (cluster_id(w, side, pathbuf[i]) != cluster_id(w, side, pathbuf[i + 1])) want++;
      size_t n = 99;
      const astar_status st0 =
          astar_hpa_path_crossings(hpa, level, pathbuf, res.length, NULL, 0, &n);
      CHECK_EQ(st0, want ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK);
      CHECK_EQ(n, want);
      CHECK_EQ(astar_hpa_path_crossings(hpa, level, pathbuf, res.length, crossing, CAP, &n),
               ASTAR_OK);
      CHECK_EQ(n, want);
      size_t j = 0;
      for (size_t i = 0; i + 1 < res.length && j < n; i++)
        if (cluster_id(w, side, pathbuf[i]) != cluster_id(w, side, pathbuf[i + 1]))
          CHECK_EQ(crossing[j++], i);
      if (level == ho->levels && !ho->smooth)
        for (size_t c = 0; c < n; c++) {
          CHECK(astar_hpa_is_node(hpa, level, pathbuf[crossing[c]]));
          CHECK(astar_hpa_is_node(hpa, level, pathbuf[crossing[c] + 1]));
        }
    }
  }
  astar_hpa_query_free(q);
}

static void test_random_maps(void) {
  rng r;
  rng_seed(&r, 0x13c0ffee);
  for (int iter = 0; iter < 60; iter++) {
    randmap_spec sp = {rng_range(&r, 1, 70),
                       rng_range(&r, 1, 70),
                       rng_unit(&r) * 0.35,
                       rng_range(&r, 0, 2) == 0,
                       0.5,
                       4.0};
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &sp, &r), ASTAR_OK);
    if (!g) continue;
    astar_options o;
    astar_hpa_options ho;
    astar_options_init(&o);
    astar_hpa_options_init(&ho);
    o.moves = rng_range(&r, 0, 3) == 0 ? 4 : 8;
    o.corner = (astar_corner)rng_range(&r, 0, 3);
    ho.cluster_size = rng_range(&r, 4, 12);
    ho.levels = rng_range(&r, 1, 3);
    ho.ratio = rng_range(&r, 2, 3);
    ho.wide_entrance = rng_range(&r, 1, 8);
    ho.smooth = rng_range(&r, 0, 1) != 0;
    astar_hpa *hpa = NULL;
    CHECK_EQ(astar_hpa_new(&hpa, g, &o, &ho, NULL), ASTAR_OK);
    if (hpa) {
      check_nodes(g, &o, &ho, hpa);
      check_crossings(&r, g, &ho, hpa);
      /* An edit, then the incremental update: the lists follow. */
      const astar_point c = randmap_passable_cell(g, &r);
      if (c.x >= 0) {
        CHECK_EQ(astar_grid_set_passable(g, c.x, c.y, false), ASTAR_OK);
        uint64_t rebuilt = 0;
        CHECK_EQ(astar_hpa_update(hpa, g, c.x, c.y, c.x, c.y, &rebuilt), ASTAR_OK);
        CHECK(rebuilt >= 1);
        CHECK(!astar_hpa_is_node(hpa, 1, c));
        check_nodes(g, &o, &ho, hpa);
        check_crossings(&r, g, &ho, hpa);
      }
    }
    astar_hpa_free(hpa);
    astar_grid_free(g);
  }
}

static void test_statuses(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 20, 10, NULL), ASTAR_OK);
  astar_hpa_options ho;
  astar_hpa_options_init(&ho);
  ho.cluster_size = 8;
  astar_hpa *hpa = NULL;
  CHECK_EQ(astar_hpa_new(&hpa, g, NULL, &ho, NULL), ASTAR_OK);
  size_t n = 0;
  CHECK_EQ(astar_hpa_level_nodes(NULL, 1, cells, CAP, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_level_nodes(hpa, 1, cells, CAP, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_level_nodes(hpa, 0, cells, CAP, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_level_nodes(hpa, 2, cells, CAP, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_level_nodes(hpa, 1, cells, CAP, &n), ASTAR_OK);
  /* 3 x 2 clusters, every border one open run of 8 or 2 / 4 cells: two or
  ** one transition pairs each. */
  CHECK(n > 0);
  CHECK_EQ(astar_hpa_cluster_size(NULL, 1), 0);
  CHECK_EQ(astar_hpa_cluster_size(hpa, 1), 8);
  CHECK(!astar_hpa_is_node(NULL, 1, cells[0]));
  CHECK(astar_hpa_is_node(hpa, 1, cells[0]));
  CHECK(!astar_hpa_is_node(hpa, 2, cells[0]));
  const astar_point p[2] = {{7, 0}, {8, 0}};
  CHECK_EQ(astar_hpa_path_crossings(hpa, 1, NULL, 2, crossing, CAP, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_path_crossings(hpa, 1, p, 2, crossing, CAP, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_path_crossings(hpa, 3, p, 2, crossing, CAP, &n), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_hpa_path_crossings(hpa, 1, NULL, 0, NULL, 0, &n), ASTAR_OK);
  CHECK_EQ(n, 0);
  CHECK_EQ(astar_hpa_path_crossings(hpa, 1, p, 1, NULL, 0, &n), ASTAR_OK);
  CHECK_EQ(n, 0);
  CHECK_EQ(astar_hpa_path_crossings(hpa, 1, p, 2, NULL, 0, &n), ASTAR_BUFFER_TOO_SMALL);
  CHECK_EQ(n, 1);
  CHECK_EQ(astar_hpa_path_crossings(hpa, 1, p, 2, crossing, 1, &n), ASTAR_OK);
  CHECK_EQ(crossing[0], 0);
  astar_hpa_free(hpa);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_statuses);
  RUN(test_random_maps);
  return check_summary();
}
