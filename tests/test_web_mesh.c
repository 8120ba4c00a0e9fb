/*
** test_web_mesh.c -- the playground's mesh mode (web/bridge.c, pg_mesh_*),
** compiled natively: the navigation mesh of random grid maps and queries
** over it. Checked here, by rules written in this file: the polygons the
** page outlines are convex, counter-clockwise and cover exactly the free
** cells (their shoelace areas add up to the free cells' count); Polyanya's
** length equals Anya's on the grid for every query (both the Euclidean
** shortest path under Anya's corner rule), and both paths start and end at
** the cells' centres, add up to their cost and never cross a blocked cell's
** interior (sampled); the funnel's path is never shorter than Polyanya's;
** with a radius the path keeps that far from every blocked cell. Also the
** refusals (hex mode, radius out of range, nothing free) and that an edit
** of the grid rebuilds the mesh.
*/
#include "../web/bridge.c"

#include "check.h"

static uint32_t rng_state = 0x2545f491u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state % n;
}

static bool cell_free(pg_state *s, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < pg_width(s) && y < pg_height(s) &&
         astar_grid_passable(s->grid, x, y);
}

/* Is point (x, y) in the closure of a free cell? (a path may run along a
** wall and touch a blocked corner, never enter a blocked cell) */
static bool point_free(pg_state *s, double x, double y) {
  const double e = 1e-9;
  for (int dx = -1; dx <= 1; dx += 2)
    for (int dy = -1; dy <= 1; dy += 2)
      if (cell_free(s, (int32_t)floor(x + dx * e), (int32_t)floor(y + dy * e))) return true;
  return false;
}

/* Distance from (x, y) to the nearest blocked cell or the map's outside. */
static double clearance_at(pg_state *s, double x, double y) {
  double best = HUGE_VAL;
  const int32_t w = pg_width(s), h = pg_height(s);
  for (int32_t cy = -1; cy <= h; cy++)
    for (int32_t cx = -1; cx <= w; cx++) {
      if (cell_free(s, cx, cy)) continue;
      const double dx = fmax(fmax(cx - x, 0), x - (cx + 1));
      const double dy = fmax(fmax(cy - y, 0), y - (cy + 1));
      best = fmin(best, hypot(dx, dy));
    }
  return best;
}

/* The path `which`: starts and ends at the centres, its length its cost,
** every sampled point free (and r from the walls). */
static double check_path(pg_state *s, int32_t which, astar_point a, astar_point b, double r) {
  const int32_t n = pg_mesh_path_length(s, which);
  const astar_vec2 *p = pg_mesh_path(s, which);
  CHECK(n >= 1);
  if (n < 1) return 0;
  CHECK(p[0].x == a.x + 0.5 && p[0].y == a.y + 0.5);
  CHECK(p[n - 1].x == b.x + 0.5 && p[n - 1].y == b.y + 0.5);
  double len = 0;
  for (int32_t i = 1; i < n; i++) {
    len += hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
    for (int k = 0; k <= 16; k++) {
      const double t = k / 16.0;
      const double x = p[i - 1].x + (p[i].x - p[i - 1].x) * t;
      const double y = p[i - 1].y + (p[i].y - p[i - 1].y) * t;
      CHECKF(point_free(s, x, y), "path %d passes (%g, %g)\n", which, x, y);
      if (r > 0) CHECKF(clearance_at(s, x, y) >= r - 1e-9, "(%g, %g) near a wall\n", x, y);
    }
  }
  CHECKF(fabs(len - pg_mesh_stat(s, which, 1)) < 1e-9 * fmax(1, len), "length %.12g cost %.12g\n",
         len, pg_mesh_stat(s, which, 1));
  return len;
}

/* The outlined polygons: convex, counter-clockwise, their areas adding up
** to the free cells'. */
static void check_polygons(pg_state *s, double want_area) {
  const int32_t np = pg_mesh_polygon_count(s);
  const double *v = pg_mesh_vertices(s);
  const int32_t *off = pg_mesh_offsets(s), *ix = pg_mesh_indices(s);
  CHECK(np > 0 && v && off && ix);
  double area = 0;
  for (int32_t i = 0; i < np; i++) {
    const int32_t n = off[i + 1] - off[i];
    CHECK(n >= 3);
    double a = 0;
    for (int32_t k = 0; k < n; k++) {
      const int32_t p = ix[off[i] + k], q = ix[off[i] + (k + 1) % n], r = ix[off[i] + (k + 2) % n];
      CHECK(p >= 0 && p < pg_mesh_vertex_count(s));
      a += v[2 * p] * v[2 * q + 1] - v[2 * q] * v[2 * p + 1];
      const double turn = (v[2 * q] - v[2 * p]) * (v[2 * r + 1] - v[2 * p + 1]) -
                          (v[2 * q + 1] - v[2 * p + 1]) * (v[2 * r] - v[2 * p]);
      CHECK(turn >= 0); /* convex, counter-clockwise (collinear allowed) */
    }
    CHECK(a > 0);
    area += a / 2;
  }
  CHECKF(fabs(area - want_area) < 1e-6, "area %g, free %g\n", area, want_area);
  CHECK(fabs(pg_mesh_stat(s, -1, 2) - want_area) < 1e-6);
}

static int compared, funnel_longer;

static void one_map(int32_t w, int32_t h, int density) {
  pg_state *s = pg_new(w, h);
  CHECK(s != NULL);
  for (int32_t i = 0; i < w * h * density / 100; i++)
    pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h), 0);
  const double free_cells = (double)astar_grid_count_passable(s->grid);
  CHECK_EQ(pg_mesh_build(s, 0, 1), ASTAR_OK);
  check_polygons(s, free_cells);
  for (int q = 0; q < 30; q++) {
    const astar_point a = {(int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h)};
    const astar_point b = {(int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h)};
    const int st = pg_mesh_run(s, a.x, a.y, b.x, b.y);
    const int anya = (int)pg_mesh_stat(s, PG_MESH_ANYA, 0);
    if (!cell_free(s, a.x, a.y)) {
      CHECK_EQ(st, ASTAR_START_BLOCKED);
      continue;
    }
    if (!cell_free(s, b.x, b.y)) {
      CHECK_EQ(st, ASTAR_GOAL_BLOCKED);
      continue;
    }
    CHECKF(st == anya, "polyanya %d, anya %d\n", st, anya);
    CHECK_EQ((int)pg_mesh_stat(s, PG_MESH_FUNNEL, 0), st);
    if (st != ASTAR_OK) continue;
    const double lp = check_path(s, PG_MESH_POLYANYA, a, b, 0);
    const double la = check_path(s, PG_MESH_ANYA, a, b, 0);
    const double lf = check_path(s, PG_MESH_FUNNEL, a, b, 0);
    CHECKF(fabs(lp - la) < 1e-9 * fmax(1, la), "(%d,%d)->(%d,%d): polyanya %.12g anya %.12g\n", a.x,
           a.y, b.x, b.y, lp, la);
    CHECK(lf >= lp - 1e-9);
    CHECK(pg_mesh_stat(s, PG_MESH_FUNNEL, 5) >= 1);
    funnel_longer += lf > lp + 1e-9;
    compared++;
  }
  pg_free(s);
}

static void test_random_maps(void) {
  for (int k = 0; k < 12; k++)
    one_map(12 + (int32_t)rnd(30), 10 + (int32_t)rnd(30), 10 + (int)rnd(25));
  CHECK(compared > 150);
  printf("mesh: %d queries, Polyanya = Anya on all; the funnel longer on %d\n", compared,
         funnel_longer);
}

static void test_radius_and_edits(void) {
  pg_state *s = pg_new(10, 8);
  for (int32_t y = 2; y < 6; y++)
    for (int32_t x = 4; x < 6; x++) pg_set_cell(s, x, y, 0);
  CHECK_EQ(pg_mesh_build(s, 0.3, 1), ASTAR_OK);
  CHECK(pg_mesh_stat(s, -1, 2) < 72);
  CHECK_EQ(pg_mesh_run(s, 0, 4, 9, 4), ASTAR_OK);
  const astar_point a = {0, 4}, b = {9, 4};
  const double lr = check_path(s, PG_MESH_POLYANYA, a, b, 0.3);
  CHECK(lr > pg_mesh_stat(s, PG_MESH_ANYA, 1)); /* keeping 0.3 away costs length */
  /* Same settings: the mesh is kept; an edit rebuilds it. */
  const pg_mesh *before = s->mesh;
  CHECK_EQ(pg_mesh_build(s, 0.3, 1), ASTAR_OK);
  CHECK(s->mesh == before);
  CHECK_EQ(pg_mesh_build(s, 0, 1), ASTAR_OK);
  const double area = pg_mesh_stat(s, -1, 2);
  CHECK(fabs(area - 72) < 1e-9);
  pg_set_cell(s, 0, 0, 0);
  CHECK_EQ(pg_mesh_run(s, 0, 4, 9, 4), ASTAR_OK);
  CHECK(fabs(pg_mesh_stat(s, -1, 2) - 71) < 1e-9);
  /* Triangles: the same free space, more polygons. */
  const int32_t merged = pg_mesh_polygon_count(s);
  CHECK_EQ(pg_mesh_build(s, 0, 0), ASTAR_OK);
  CHECK(pg_mesh_polygon_count(s) >= merged);
  check_polygons(s, 71);
  pg_free(s);
}

static void test_refusals(void) {
  pg_state *s = pg_new(6, 4);
  CHECK_EQ(pg_mesh_stat(s, -1, 0), -1);
  CHECK(pg_mesh_vertices(s) == NULL && pg_mesh_polygon_count(s) == 0);
  CHECK_EQ(pg_mesh_run(s, 0, 0, 1, 1), ASTAR_INVALID_ARGUMENT); /* no mesh built */
  CHECK_EQ(pg_mesh_build(s, -1, 1), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mesh_build(s, NAN, 1), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mesh_build(s, 0, 1), ASTAR_OK);
  CHECK_EQ(pg_mesh_run(s, -1, 0, 1, 1), ASTAR_START_BLOCKED);
  CHECK_EQ(pg_set_geometry(s, PG_HEX, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_mesh_build(s, 0, 1), ASTAR_UNSUPPORTED);
  CHECK(s->mesh == NULL);
  CHECK_EQ(pg_set_geometry(s, PG_SQUARE, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_mesh_build(s, 0, 1), ASTAR_OK);
  CHECK_EQ(pg_resize(s, 8, 8), ASTAR_OK); /* a new grid ends mesh mode */
  CHECK(s->mesh == NULL);
  for (int32_t y = 0; y < 8; y++)
    for (int32_t x = 0; x < 8; x++) pg_set_cell(s, x, y, 0);
  CHECK_EQ(pg_mesh_build(s, 0, 1), ASTAR_NO_PATH); /* nothing free */
  pg_mesh_end(s);                                  /* harmless when off */
  pg_free(s);
}

int main(void) {
  RUN(test_refusals);
  RUN(test_radius_and_edits);
  RUN(test_random_maps);
  return check_summary();
}
