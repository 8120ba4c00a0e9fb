/*
** test_polyanya.c -- Polyanya through the finder (astar_finder_new_mesh,
** method ASTAR_METHOD_POLYANYA) against:
**   (a) the exact visibility-graph shortest path of tests/mesh_ref.h, on
**       meshes of random grids (a unit square per free cell; rows merged
**       into rectangles with collinear vertices; squares cut into
**       triangles; triangles with jittered vertices), thousands of queries
**       between cell centres, vertices, edge points and arbitrary points:
**       the same length (1e-9 relative) and the same NO_PATH;
**   (b) Anya (astar/anya.h) on the same grids, cell centre to cell centre
**       -- the same corner rule: squares of diagonal free cells touch at a
**       point only, a pinch no path passes -- random grids and the small
**       Moving AI maps of tests/data/small;
**   (c) the degenerate test meshes of ../shared/bench/navmesh with their
**       scenarios (the -1 rows: see test_shared_degenerate);
**   (d) arena and aurora, triangles and merged: at most the grid optimum,
**       at least the straight line, the same on both meshes;
**   (e) every path lies in the mesh (walked exactly), its length is
**       res.cost; no allocation once warm; determinism; events; limits,
**       stop, small buffers and blocked ends.
** `test_polyanya --exhaustive` runs every query of (b)'s maps and (d)'s
** scenarios, and more random meshes (ctest label exhaustive).
*/
#include <astar/astar.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mesh_ref.h"
#include "util/failalloc.h"

static int exhaustive;

#define NAV "../../shared/bench/navmesh/"
#define MAXP 4096

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static int rndi(int n) {
  return (int)(rnd() % (uint64_t)n);
}

static int close_rel(double a, double b) {
  return fabs(a - b) <= 1e-9 * (1.0 + fabs(b));
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  b[*len] = 0;
  fclose(f);
  return b;
}

/* ---- meshes of grids ----------------------------------------------------- */

enum { V_SQUARES, V_RECTS, V_TRIS, V_JITTER, V_COUNT };
static const char *const VARIANT[V_COUNT] = {"squares", "rects", "triangles", "jittered"};

typedef struct gridmap {
  int w, h;
  char *free; /* w * h */
} gridmap;

static void gm_random(gridmap *g, int w, int h, int density) {
  g->w = w;
  g->h = h;
  g->free = malloc((size_t)w * (size_t)h);
  for (int i = 0; i < w * h; i++) g->free[i] = rndi(100) >= density;
}

/* A mesh of the free cells (NULL when there is none). */
static astar_mesh *gm_mesh(const gridmap *g, int variant) {
  const int W = g->w + 1;
  int32_t *id = malloc(sizeof(int32_t) * (size_t)(W * (g->h + 1)));
  for (int i = 0; i < W * (g->h + 1); i++) id[i] = -1;
  astar_vec2 *v = malloc(sizeof *v * (size_t)(W * (g->h + 1)));
  uint32_t *sizes = malloc(sizeof *sizes * (size_t)(2 * g->w * g->h + 1));
  int32_t *pv = malloc(sizeof *pv * (size_t)(2 * (g->w + 2) * g->h * 4 + 8));
  size_t nv = 0, np = 0, k = 0;
#define VID(X, Y)                                                                                  \
  (id[(Y)*W + (X)] >= 0 ? id[(Y)*W + (X)]                                                          \
                        : (v[nv] = (astar_vec2){(X), (Y)}, id[(Y)*W + (X)] = (int32_t)nv++))
  for (int y = 0; y < g->h; y++) {
    for (int x = 0; x < g->w; x++) {
      if (!g->free[y * g->w + x]) continue;
      if (variant == V_RECTS) {
        int e = x;
        while (e + 1 < g->w && g->free[y * g->w + e + 1]) e++;
        /* bottom edge left to right, top edge right to left: collinear vertices */
        size_t n = 0;
        for (int i = x; i <= e + 1; i++) pv[k + n++] = VID(i, y);
        for (int i = e + 1; i >= x; i--) pv[k + n++] = VID(i, y + 1);
        sizes[np++] = (uint32_t)n;
        k += n;
        x = e;
        continue;
      }
      const int32_t a = VID(x, y), b = VID(x + 1, y), c = VID(x + 1, y + 1), d = VID(x, y + 1);
      if (variant == V_SQUARES) {
        pv[k++] = a, pv[k++] = b, pv[k++] = c, pv[k++] = d;
        sizes[np++] = 4;
      } else if ((x + y) % 2) {
        pv[k++] = a, pv[k++] = b, pv[k++] = c, sizes[np++] = 3;
        pv[k++] = a, pv[k++] = c, pv[k++] = d, sizes[np++] = 3;
      } else {
        pv[k++] = a, pv[k++] = b, pv[k++] = d, sizes[np++] = 3;
        pv[k++] = b, pv[k++] = c, pv[k++] = d, sizes[np++] = 3;
      }
    }
  }
#undef VID
  if (variant == V_JITTER)
    for (size_t i = 0; i < nv; i++) {
      v[i].x += (rndi(7) - 3) / 32.0;
      v[i].y += (rndi(7) - 3) / 32.0;
    }
  astar_mesh *m = NULL;
  astar_mesh_fault fault;
  if (np && astar_mesh_from_polygons(&m, v, nv, sizes, pv, np, NULL, &fault) != ASTAR_OK) {
    FAILF("%s mesh of a %dx%d grid refused: %s", VARIANT[variant], g->w, g->h, fault.message);
    m = NULL;
  }
  free(id);
  free(v);
  free(sizes);
  free(pv);
  return m;
}

/* ---- the search --------------------------------------------------------- */

typedef struct finder_ws {
  astar_finder *f;
  astar_workspace *ws;
} finder_ws;

static astar_finder *pa_finder(const astar_mesh *m) {
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_POLYANYA;
  astar_finder *f = NULL;
  const astar_status st = astar_finder_new_mesh(&f, m, &cfg, NULL);
  CHECKF(st == ASTAR_OK, "astar_finder_new_mesh: %s", astar_strerror(st));
  return f;
}

/* Check a path exactly against the mesh: each segment walked, no pinch
** passed at a bend; its length. Returns 1 when it holds. */
static int path_in_mesh(const mref *r, const astar_vec2 *p, size_t n, double cost) {
  double sum = 0;
  int32_t arrive = -1; /* sector of arrival at p[i] when a vertex */
  for (size_t i = 0; i + 1 < n; i++) {
    const int32_t pv = mref_vertex_at(r, p[i]);
    int32_t last;
    if (!mref_walk(r, p[i], pv, i > 0 && pv >= 0 ? arrive : -1, p[i + 1], &last)) return 0;
    const int32_t qv = mref_vertex_at(r, p[i + 1]);
    arrive = qv >= 0 ? mref_sector(r, qv, last) : -1;
    sum += hypot(p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
  }
  return close_rel(sum, cost);
}

/* One query against the reference: status, length, path. */
static int check_query(const mref *r, astar_finder *f, astar_workspace *ws, astar_vec2 s,
                       astar_vec2 t, const char *what) {
  static astar_vec2 path[MAXP];
  astar_path_result res;
  const astar_status st = astar_finder_find_points(f, ws, s, t, path, MAXP, &res);
  const double ref = mref_shortest(r, s, t);
  if (ref == -2) {
    if (st != ASTAR_START_BLOCKED && st != ASTAR_GOAL_BLOCKED) {
      FAILF("%s: (%g,%g)->(%g,%g): status %s, an end is off the mesh", what, s.x, s.y, t.x, t.y,
            astar_strerror(st));
      return 0;
    }
    return 1;
  }
  if (ref < 0) {
    if (st != ASTAR_NO_PATH) {
      FAILF("%s: (%g,%g)->(%g,%g): status %s cost %.12f, reference: no path", what, s.x, s.y, t.x,
            t.y, astar_strerror(st), res.cost);
      return 0;
    }
    return 1;
  }
  if (st != ASTAR_OK || !close_rel(res.cost, ref)) {
    FAILF("%s: (%.17g,%.17g)->(%.17g,%.17g): status %s cost %.12f, reference %.12f", what, s.x, s.y,
          t.x, t.y, astar_strerror(st), res.cost, ref);
    return 0;
  }
  if (res.length < 1 || path[0].x != s.x || path[0].y != s.y || path[res.length - 1].x != t.x ||
      path[res.length - 1].y != t.y || !path_in_mesh(r, path, res.length, res.cost)) {
    FAILF("%s: (%g,%g)->(%g,%g): the path (%zu points) leaves the mesh or is not the cost", what,
          s.x, s.y, t.x, t.y, res.length);
    return 0;
  }
  return 1;
}

/* A random point of the grid's mesh area: a cell centre, a grid point, an
** edge point or any point (sixteenths). */
static astar_vec2 random_point(const gridmap *g) {
  switch (rndi(4)) {
  case 0:
    return (astar_vec2){rndi(g->w) + 0.5, rndi(g->h) + 0.5};
  case 1:
    return (astar_vec2){rndi(g->w + 1), rndi(g->h + 1)};
  case 2:
    return rndi(2) ? (astar_vec2){rndi(g->w + 1), rndi(g->h * 16 + 1) / 16.0}
                   : (astar_vec2){rndi(g->w * 16 + 1) / 16.0, rndi(g->h + 1)};
  default:
    return (astar_vec2){rndi(g->w * 64 + 1) / 64.0, rndi(g->h * 64 + 1) / 64.0};
  }
}

/* (a) against the reference. */
static void test_reference_random(void) {
  astar_workspace *ws = NULL;
  astar_workspace_new_empty(&ws, NULL);
  const int maps = exhaustive ? 400 : 40;
  long queries = 0, paths = 0;
  for (int i = 0; i < maps; i++) {
    gridmap g;
    gm_random(&g, 3 + rndi(12), 3 + rndi(12), rndi(45));
    for (int variant = 0; variant < V_COUNT; variant++) {
      astar_mesh *m = gm_mesh(&g, variant);
      if (!m) continue;
      mref r;
      mref_init(&r, m);
      astar_finder *f = pa_finder(m);
      char what[64];
      snprintf(what, sizeof what, "map %d %s %dx%d", i, VARIANT[variant], g.w, g.h);
      for (int k = 0; k < 25; k++) {
        astar_vec2 s = random_point(&g), t = random_point(&g);
        if (variant == V_JITTER) {
          /* ends inside free cells' centres or on vertices (the grid moved) */
          const int32_t a = (int32_t)rndi((int)astar_mesh_vertex_count(m));
          s = astar_mesh_vertex(m, (size_t)a);
          if (rndi(2)) t = astar_mesh_vertex(m, (size_t)rndi((int)astar_mesh_vertex_count(m)));
        }
        const int ok = check_query(&r, f, ws, s, t, what);
        queries++;
        paths += ok;
      }
      astar_finder_free(f);
      mref_free(&r);
      astar_mesh_free(m);
    }
    free(g.free);
  }
  printf("     %ld queries against the visibility graph\n", queries);
  astar_workspace_free(ws);
}

/* ---- (b) Anya ---------------------------------------------------------- */

static astar_grid *gm_grid(const gridmap *g) {
  astar_grid *grid = NULL;
  astar_grid_new(&grid, g->w, g->h, NULL);
  for (int y = 0; y < g->h; y++)
    for (int x = 0; x < g->w; x++) astar_grid_set_passable(grid, x, y, g->free[y * g->w + x]);
  return grid;
}

static astar_finder *anya_finder(const astar_grid *grid) {
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_ANYA;
  astar_finder *f = NULL;
  CHECK(astar_finder_new(&f, grid, &cfg, NULL) == ASTAR_OK);
  return f;
}

/* Compare Polyanya on the squares mesh with Anya on the grid for n queries
** (all pairs given, or random free cells when qs is NULL). */
static long compare_anya(const gridmap *g, const astar_point *qs, size_t n, const char *what) {
  astar_grid *grid = gm_grid(g);
  astar_mesh *m = gm_mesh(g, V_SQUARES);
  if (!m) {
    astar_grid_free(grid);
    return 0;
  }
  astar_finder *fa = anya_finder(grid), *fp = pa_finder(m);
  astar_workspace *ws = NULL;
  astar_workspace_new_empty(&ws, NULL);
  static astar_vec2 pa[MAXP], pp[MAXP];
  long done = 0;
  for (size_t i = 0; i < n; i++) {
    astar_point s, t;
    if (qs) {
      s = qs[2 * i], t = qs[2 * i + 1];
    } else {
      do s = (astar_point){rndi(g->w), rndi(g->h)};
      while (!g->free[s.y * g->w + s.x]);
      do t = (astar_point){rndi(g->w), rndi(g->h)};
      while (!g->free[t.y * g->w + t.x]);
    }
    astar_path_result ra, rp;
    const astar_status sa = astar_finder_find_vec(fa, ws, s, t, pa, MAXP, &ra);
    const astar_status sp =
        astar_finder_find_points(fp, ws, (astar_vec2){s.x + 0.5, s.y + 0.5},
                                 (astar_vec2){t.x + 0.5, t.y + 0.5}, pp, MAXP, &rp);
    done++;
    if (getenv("PA_DEBUG"))
      printf("%s (%d,%d)->(%d,%d): anya %llu polyanya exp %llu gen %llu\n", what, s.x, s.y, t.x,
             t.y, (unsigned long long)ra.stats.expanded, (unsigned long long)rp.stats.expanded,
             (unsigned long long)rp.stats.generated);
    if (sa != sp || (sa == ASTAR_OK && !close_rel(rp.cost, ra.length ? ra.cost : 0))) {
      FAILF("%s: (%d,%d)->(%d,%d): anya %s %.12f, polyanya %s %.12f", what, s.x, s.y, t.x, t.y,
            astar_strerror(sa), ra.cost, astar_strerror(sp), rp.cost);
    }
  }
  astar_workspace_free(ws);
  astar_finder_free(fa);
  astar_finder_free(fp);
  astar_mesh_free(m);
  astar_grid_free(grid);
  return done;
}

static void test_anya_random(void) {
  long n = 0;
  const int maps = exhaustive ? 2000 : 120;
  for (int i = 0; i < maps; i++) {
    gridmap g;
    gm_random(&g, 4 + rndi(40), 4 + rndi(40), rndi(50));
    char what[48];
    snprintf(what, sizeof what, "random grid %d", i);
    n += compare_anya(&g, NULL, 20, what);
    free(g.free);
  }
  printf("     %ld queries against Anya on random grids\n", n);
}

/* Grids full of pinches (diagonal free cells whose other two are blocked):
** a root reached on one side of a pinch says nothing of the other side, so
** the best g is kept per (vertex, sector). */
static void test_pinches(void) {
  long n = 0;
  const int maps = exhaustive ? 3000 : 300;
  for (int i = 0; i < maps; i++) {
    gridmap g;
    gm_random(&g, 4 + rndi(10), 4 + rndi(10), 40 + rndi(20));
    char what[48];
    snprintf(what, sizeof what, "pinch grid %d", i);
    n += compare_anya(&g, NULL, 20, what);
    free(g.free);
  }
  printf("     %ld queries against Anya on grids of pinches\n", n);
}

/* The Moving AI maps of tests/data/small (and, exhaustive, the shared ones). */
static void anya_map(const char *mappath, const char *scenpath, size_t every) {
  size_t len;
  char *text = read_file(mappath, &len);
  if (!text) {
    printf("     note: %s not found, skipped\n", mappath);
    return;
  }
  astar_grid *grid = NULL;
  CHECK(astar_movingai_parse_map(&grid, text, len, NULL, NULL) == ASTAR_OK);
  free(text);
  text = read_file(scenpath, &len);
  astar_scen *scen = NULL;
  CHECK(text && astar_movingai_parse_scen(&scen, text, len, NULL, NULL) == ASTAR_OK);
  free(text);
  if (!grid || !scen) return;
  gridmap g = {astar_grid_width(grid), astar_grid_height(grid), NULL};
  g.free = malloc((size_t)(g.w * g.h));
  for (int y = 0; y < g.h; y++)
    for (int x = 0; x < g.w; x++) g.free[y * g.w + x] = astar_grid_passable(grid, x, y);
  const size_t nq = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  astar_point *qs = malloc(sizeof *qs * 2 * (nq + 1));
  size_t n = 0;
  for (size_t i = 0; i < nq; i += every) {
    qs[2 * n] = q[i].start;
    qs[2 * n + 1] = q[i].goal;
    n++;
  }
  const long done = compare_anya(&g, qs, n, mappath);
  printf("     %ld queries of %s against Anya\n", done, mappath);
  free(qs);
  free(g.free);
  astar_scen_free(scen);
  astar_grid_free(grid);
}

static void test_anya_maps(void) {
  static const char *const SMALL[] = {"data/small/cave64.map", "data/small/maze64-1.map",
                                      "data/small/random64-25.map", "data/small/rooms64-8.map"};
  for (size_t i = 0; i < sizeof SMALL / sizeof *SMALL; i++) {
    char scen[128];
    snprintf(scen, sizeof scen, "%s.scen", SMALL[i]);
    anya_map(SMALL[i], scen, exhaustive ? 1 : 4);
  }
  if (exhaustive) {
    static const char *const SHARED[] = {"dao/arena.map",        "dao/den520d.map",
                                         "maze/maze512-1-0.map", "random/random512-10-0.map",
                                         "room/8room_000.map",   "street/Berlin_0_256.map"};
    for (size_t i = 0; i < sizeof SHARED / sizeof *SHARED; i++) {
      char map[256], scen[300];
      snprintf(map, sizeof map, "../../shared/bench/movingai/%s", SHARED[i]);
      snprintf(scen, sizeof scen, "%s.scen", map);
      anya_map(map, scen, 1);
    }
  }
}

/* ---- (c) the degenerate meshes ----------------------------------------- */

static astar_mesh *read_mesh(const char *path) {
  size_t len;
  char *text = read_file(path, &len);
  if (!text) return NULL;
  astar_mesh *m = NULL;
  astar_mesh_fault fault;
  const astar_status st = astar_mesh_read(&m, text, len, NULL, &fault);
  CHECKF(st == ASTAR_OK, "%s: %s", path, fault.message);
  free(text);
  return m;
}

typedef struct pscen {
  astar_vec2 s, t;
  double expect;
} pscen;

/* Polyanya's scenario files: "version 1" then lines of bucket, mesh, w, h,
** sx, sy, gx, gy, expected. Returns the count (at most cap). */
static size_t read_pscen(const char *path, pscen *out, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[512];
  size_t n = 0;
  while (fgets(line, sizeof line, f) && n < cap) {
    int b, w, h;
    char map[256];
    pscen p;
    if (sscanf(line, "%d %255s %d %d %lf %lf %lf %lf %lf", &b, map, &w, &h, &p.s.x, &p.s.y, &p.t.x,
               &p.t.y, &p.expect) == 9)
      out[n++] = p;
  }
  fclose(f);
  return n;
}

/*
** The test meshes. Their scenarios' last column is the length Polyanya's
** harness (scenariorunner) printed, rounded; -1 is what it prints when its
** search found no path (SearchInstance::get_cost of no final node). Every
** -1 row of bad-ambig.scen has an end ON the pinch vertex (1, 1): Polyanya
** locates such a point as "ambiguous corner", nudges it by 1e-7 toward
** +x +y -- into the obstacle there -- and gives up. In our model the pinch
** belongs to the closure of both squares touching it (astar/mesh.h): the
** point-to-itself query is the one-point path of length 0 and the two
** others the straight segment within one square, 0.01 sqrt 2. A path may
** still not pass through the pinch from one square to the other (row 1:
** around, length 2 + 2 * 0.99005...).
*/
static void test_shared_degenerate(void) {
  static const char *const NAMES[] = {"bad-ambig",
                                      "bad-collinear",
                                      "bad-collinear2-rot0",
                                      "bad-collinear2-rot45",
                                      "bad-collinear2-rot90",
                                      "square"};
  astar_workspace *ws = NULL;
  astar_workspace_new_empty(&ws, NULL);
  int seen = 0;
  for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++) {
    char mp[256], sp[256];
    snprintf(mp, sizeof mp, NAV "meshes/tests/%s.mesh", NAMES[i]);
    snprintf(sp, sizeof sp, NAV "scenarios/tests/%s.scen", NAMES[i]);
    astar_mesh *m = read_mesh(mp);
    if (!m) continue;
    seen++;
    pscen q[16];
    const size_t n = read_pscen(sp, q, 16);
    CHECK(n > 0);
    mref r;
    mref_init(&r, m);
    astar_finder *f = pa_finder(m);
    for (size_t k = 0; k < n; k++) {
      astar_vec2 path[64];
      astar_path_result res;
      const astar_status st = astar_finder_find_points(f, ws, q[k].s, q[k].t, path, 64, &res);
      double expect = q[k].expect;
      if (expect < 0) {
        /* the pinch rows: our model's answers (see above) */
        CHECK(strcmp(NAMES[i], "bad-ambig") == 0);
        expect = q[k].s.x == q[k].t.x && q[k].s.y == q[k].t.y ? 0 : 0.01 * sqrt(2.0);
        CHECKF(st == ASTAR_OK && close_rel(res.cost, expect), "%s row %zu: %s %.12f, expected %g",
               NAMES[i], k + 1, astar_strerror(st), res.cost, expect);
      } else {
        /* the harness's figure, rounded to the digits it gives */
        CHECKF(st == ASTAR_OK && fabs(res.cost - expect) <= 0.021 * (1 + expect),
               "%s row %zu: %s %.12f, expected %g", NAMES[i], k + 1, astar_strerror(st), res.cost,
               expect);
      }
      char what[64];
      snprintf(what, sizeof what, "%s row %zu", NAMES[i], k + 1);
      if (strstr(NAMES[i], "rot45") == NULL) check_query(&r, f, ws, q[k].s, q[k].t, what);
    }
    /* All pairs of vertices: against the reference; the mesh turned by 45
    ** degrees has rounded coordinates (its collinear vertices are so only
    ** within the mesh's 2^-40 tolerance, astar/mesh.h), so it is held to the
    ** unturned mesh's lengths instead (the same vertex numbering). */
    const size_t nv = astar_mesh_vertex_count(m);
    const int rot = strstr(NAMES[i], "-rot") != NULL;
    static double rot0[64 * 64];
    for (size_t a = 0; a < nv; a++)
      for (size_t b = 0; b < nv; b++) {
        const astar_vec2 pa = astar_mesh_vertex(m, a), pb = astar_mesh_vertex(m, b);
        if (strstr(NAMES[i], "rot45") == NULL) check_query(&r, f, ws, pa, pb, NAMES[i]);
        if (!rot || nv > 64) continue;
        astar_vec2 path[64];
        astar_path_result res;
        CHECK(astar_mesh_locate(m, pa, NULL) >= 0 && astar_mesh_locate(m, pb, NULL) >= 0);
        const astar_status st = astar_finder_find_points(f, ws, pa, pb, path, 64, &res);
        CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
        const double c = st == ASTAR_OK ? res.cost : -1;
        if (strstr(NAMES[i], "rot0"))
          rot0[a * 64 + b] = c;
        else
          CHECKF(close_rel(c, rot0[a * 64 + b]), "%s: vertices %zu -> %zu: %.12f, unturned %.12f",
                 NAMES[i], a, b, c, rot0[a * 64 + b]);
      }
    astar_finder_free(f);
    mref_free(&r);
    astar_mesh_free(m);
  }
  /* hard.mesh has no scenario: all pairs of its vertices */
  astar_mesh *m = read_mesh(NAV "meshes/tests/hard.mesh");
  if (m) {
    mref r;
    mref_init(&r, m);
    astar_finder *f = pa_finder(m);
    const size_t nv = astar_mesh_vertex_count(m);
    for (size_t a = 0; a < nv; a++)
      for (size_t b = 0; b < nv; b++)
        check_query(&r, f, ws, astar_mesh_vertex(m, a), astar_mesh_vertex(m, b), "hard");
    astar_finder_free(f);
    mref_free(&r);
    astar_mesh_free(m);
  }
  if (!seen) printf("     note: %s not found, skipped\n", NAV);
  astar_workspace_free(ws);
}

/* ---- (d) arena and aurora ----------------------------------------------- */

/* Mean expansions per query allowed on (triangles, merged) for the queries
** of bench_pair; 0: not checked. */
typedef struct work_cap {
  double tri, merged;
} work_cap;

static void bench_pair(const char *name, size_t every, work_cap cap) {
  char a[256], b[256], sp[256];
  snprintf(a, sizeof a, NAV "meshes/%s.mesh", name);
  snprintf(b, sizeof b, NAV "meshes/%s-merged.mesh", name);
  snprintf(sp, sizeof sp, NAV "scenarios/%s.scen", name);
  astar_mesh *m1 = read_mesh(a), *m2 = read_mesh(b);
  size_t len;
  char *text = read_file(sp, &len);
  astar_scen *scen = NULL;
  if (!m1 || !m2 || !text || astar_movingai_parse_scen(&scen, text, len, NULL, NULL) != ASTAR_OK) {
    printf("     note: %s meshes or scenario not found, skipped\n", name);
    free(text);
    astar_mesh_free(m1);
    astar_mesh_free(m2);
    return;
  }
  free(text);
  astar_finder *f1 = pa_finder(m1), *f2 = pa_finder(m2);
  astar_workspace *ws = NULL;
  astar_workspace_new_empty(&ws, NULL);
  const size_t nq = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  static astar_vec2 path[MAXP];
  size_t n = 0;
  double e1 = 0, e2 = 0;
  for (size_t i = 0; i < nq; i += every) {
    const astar_vec2 s = {q[i].start.x, q[i].start.y}, t = {q[i].goal.x, q[i].goal.y};
    astar_path_result r1, r2;
    const astar_status s1 = astar_finder_find_points(f1, ws, s, t, path, MAXP, &r1);
    const astar_status s2 = astar_finder_find_points(f2, ws, s, t, path, MAXP, &r2);
    const double line = hypot(t.x - s.x, t.y - s.y);
    n++;
    e1 += (double)r1.stats.expanded;
    e2 += (double)r2.stats.expanded;
    if (s1 != ASTAR_OK || s2 != ASTAR_OK || r1.cost > q[i].optimal_length + 1e-4 ||
        r1.cost < line - 1e-9 || !close_rel(r1.cost, r2.cost))
      FAILF("%s query %zu: %s %.12f / merged %s %.12f; grid %.5f, line %.12f", name, i,
            astar_strerror(s1), r1.cost, astar_strerror(s2), r2.cost, q[i].optimal_length, line);
  }
  printf("     %zu queries of %s (triangles and merged), %.1f / %.1f expansions a query\n", n, name,
         e1 / (double)n, e2 / (double)n);
  if (cap.tri > 0 && n)
    CHECKF(e1 / (double)n <= cap.tri && e2 / (double)n <= cap.merged,
           "%s: %.1f / %.1f expansions a query, more than %.0f / %.0f", name, e1 / (double)n,
           e2 / (double)n, cap.tri, cap.merged);
  astar_workspace_free(ws);
  astar_finder_free(f1);
  astar_finder_free(f2);
  astar_scen_free(scen);
  astar_mesh_free(m1);
  astar_mesh_free(m2);
}

static void test_arena_aurora(void) {
  bench_pair("arena", 1, (work_cap){0, 0});
  /* The work: the authors' C++ Polyanya makes 9610 / 2388 successor calls
  ** a query on (triangles / merged) over all 2990 aurora queries, 9234 /
  ** 2293 over every 20th; we make as many (dead ends skipped, a lone
  ** successor expanded at once); a tenth more is allowed. */
  bench_pair("aurora", exhaustive ? 1 : 20,
             exhaustive ? (work_cap){10571, 2627} : (work_cap){10158, 2522});
}

/* ---- (e) allocation, determinism, events, limits ------------------------ */

typedef struct evcount {
  long push, expand, goal, bad;
} evcount;

static void on_event(void *ctx, const astar_mesh_event *e) {
  evcount *c = ctx;
  if (e->type == ASTAR_EVENT_PUSH) c->push++;
  if (e->type == ASTAR_EVENT_EXPAND) c->expand++;
  if (e->type == ASTAR_EVENT_GOAL) c->goal++;
  if (!(e->f >= e->g) || fabs(e->f - (e->g + e->h)) > 1e-9 * (1 + e->f) || e->polygon < 0) c->bad++;
}

static bool stop_now(void *ctx) {
  (void)ctx;
  return 1;
}

static void test_alloc_determinism_events(void) {
  gridmap g;
  gm_random(&g, 40, 40, 30);
  astar_mesh *m = gm_mesh(&g, V_TRIS);
  if (!m) return;
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, &al) == ASTAR_OK);
  astar_finder *f = pa_finder(m);
  static astar_vec2 p1[MAXP], p2[MAXP];
  astar_vec2 qs[400];
  for (int i = 0; i < 400; i++) qs[i] = random_point(&g);
  /* warm up: every query once */
  for (int i = 0; i < 400; i += 2)
    astar_finder_find_points(f, ws, qs[i], qs[i + 1], p1, MAXP, NULL);
  const long before = fa.requests;
  for (int i = 0; i < 400; i += 2) {
    astar_path_result r1, r2;
    const astar_status a = astar_finder_find_points(f, ws, qs[i], qs[i + 1], p1, MAXP, &r1);
    const astar_status b = astar_finder_find_points(f, ws, qs[i], qs[i + 1], p2, MAXP, &r2);
    CHECK(a == b && r1.cost == r2.cost && r1.length == r2.length &&
          r1.stats.expanded == r2.stats.expanded && r1.stats.generated == r2.stats.generated);
    CHECK(memcmp(p1, p2, r1.length * sizeof *p1) == 0);
    CHECK(r1.work == r1.stats.expanded);
  }
  CHECKF(fa.requests == before, "%ld allocations after warm-up", fa.requests - before);
  /* events */
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_POLYANYA;
  evcount c = {0, 0, 0, 0};
  astar_finder *fo = NULL;
  CHECK(astar_finder_new_mesh(&fo, m, &cfg, NULL) == ASTAR_OK);
  CHECK(astar_finder_set_mesh_observer(fo, on_event, &c) == ASTAR_OK);
  for (int i = 0; i < 40; i += 2) {
    memset(&c, 0, sizeof c);
    astar_path_result r;
    const astar_status st = astar_finder_find_points(fo, ws, qs[i], qs[i + 1], p1, MAXP, &r);
    CHECK(c.push == (long)r.stats.generated && c.expand == (long)r.stats.expanded);
    CHECK(c.goal == (st == ASTAR_OK) && c.bad == 0);
  }
  /* limits and stop */
  astar_finder_free(fo);
  cfg.engine.max_expansions = 3;
  CHECK(astar_finder_new_mesh(&fo, m, &cfg, NULL) == ASTAR_OK);
  int limited = 0;
  for (int i = 0; i < 400; i += 2) {
    astar_path_result r;
    const astar_status st = astar_finder_find_points(fo, ws, qs[i], qs[i + 1], p1, MAXP, &r);
    CHECK(st == ASTAR_OK || st == ASTAR_LIMIT_REACHED || st == ASTAR_NO_PATH ||
          st == ASTAR_START_BLOCKED || st == ASTAR_GOAL_BLOCKED);
    if (st == ASTAR_LIMIT_REACHED) CHECK(r.stats.expanded == 3);
    limited += st == ASTAR_LIMIT_REACHED;
  }
  CHECK(limited > 0);
  astar_finder_free(fo);
  cfg.engine.max_expansions = 0;
  cfg.engine.stop_fn = stop_now;
  cfg.engine.stop_interval = 1;
  CHECK(astar_finder_new_mesh(&fo, m, &cfg, NULL) == ASTAR_OK);
  int stopped = 0;
  for (int i = 0; i < 400; i += 2) {
    astar_path_result r;
    stopped += astar_finder_find_points(fo, ws, qs[i], qs[i + 1], p1, MAXP, &r) == ASTAR_STOPPED;
  }
  CHECK(stopped > 0);
  astar_finder_free(fo);
  /* small buffers, ends off the mesh, start == goal */
  for (int i = 0; i < 400; i += 2) {
    astar_path_result r, r0;
    if (astar_finder_find_points(f, ws, qs[i], qs[i + 1], p1, MAXP, &r) != ASTAR_OK || r.length < 2)
      continue;
    CHECK(astar_finder_find_points(f, ws, qs[i], qs[i + 1], p2, r.length - 1, &r0) ==
          ASTAR_BUFFER_TOO_SMALL);
    CHECK(r0.length == r.length && r0.cost == r.cost);
    CHECK(astar_finder_find_points(f, ws, qs[i], qs[i + 1], NULL, 0, &r0) ==
          ASTAR_BUFFER_TOO_SMALL);
    astar_vec2 one[1];
    CHECK(astar_finder_find_points(f, ws, qs[i], qs[i], one, 1, &r0) == ASTAR_OK);
    CHECK(r0.length == 1 && r0.cost == 0 && one[0].x == qs[i].x && one[0].y == qs[i].y);
    break;
  }
  astar_path_result r;
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){-5, -5}, qs[1], p1, MAXP, &r) ==
        ASTAR_START_BLOCKED);
  CHECK(astar_finder_find_points(f, ws, qs[1], (astar_vec2){-5, -5}, p1, MAXP, &r) ==
        ASTAR_GOAL_BLOCKED);
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){NAN, 0}, qs[1], p1, MAXP, &r) ==
        ASTAR_INVALID_ARGUMENT);
  /* the sliced door gives the same */
  for (int i = 0; i < 40; i += 2) {
    astar_path_result ra, rb;
    const astar_status a = astar_finder_find_points(f, ws, qs[i], qs[i + 1], p1, MAXP, &ra);
    CHECK(astar_finder_begin_points(f, ws, qs[i], qs[i + 1]) == ASTAR_OK);
    astar_status st;
    while ((st = astar_finder_step(ws, 5, NULL)) == ASTAR_IN_PROGRESS) {
    }
    const astar_status b = astar_finder_finish_vec(ws, p2, MAXP, &rb);
    CHECK(a == b && ra.cost == rb.cost && ra.length == rb.length);
  }
  astar_finder_free(f);
  astar_workspace_free(ws);
  CHECK(fa.blocks == 0);
  astar_mesh_free(m);
  free(g.free);
}

/* The node pool doubles when a query needs more (from the first size). */
static void test_pool_growth(void) {
  gridmap g;
  gm_random(&g, 120, 120, 35);
  astar_mesh *m = gm_mesh(&g, V_SQUARES);
  if (!m) return;
  mref r;
  astar_workspace *ws = NULL;
  astar_workspace_new_empty(&ws, NULL);
  astar_finder *f = pa_finder(m);
  astar_finder *fa;
  astar_grid *grid = gm_grid(&g);
  fa = anya_finder(grid);
  static astar_vec2 p[MAXP];
  int grew = 0;
  for (int i = 0; i < 30; i++) {
    astar_point s, t;
    do s = (astar_point){rndi(g.w), rndi(g.h)};
    while (!g.free[s.y * g.w + s.x]);
    do t = (astar_point){rndi(g.w), rndi(g.h)};
    while (!g.free[t.y * g.w + t.x]);
    astar_path_result rp, ra;
    const astar_status sp =
        astar_finder_find_points(f, ws, (astar_vec2){s.x + 0.5, s.y + 0.5},
                                 (astar_vec2){t.x + 0.5, t.y + 0.5}, p, MAXP, &rp);
    const astar_status sa = astar_finder_find_vec(fa, ws, s, t, p, MAXP, &ra);
    CHECK(sp == sa && (sp != ASTAR_OK || close_rel(rp.cost, ra.cost)));
    grew |= rp.stats.generated > 1024;
  }
  CHECK(grew);
  (void)r;
  astar_grid_free(grid);
  astar_finder_free(fa);
  astar_finder_free(f);
  astar_workspace_free(ws);
  astar_mesh_free(m);
  free(g.free);
}

static const char *only; /* run the tests whose name holds this (argument) */
#define RUN_SOME(fn)                                                                               \
  do {                                                                                             \
    if (!only || strstr(#fn, only)) RUN(fn);                                                       \
  } while (0)

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--exhaustive") == 0)
      exhaustive = 1;
    else
      only = argv[i];
  }
  RUN_SOME(test_shared_degenerate);
  RUN_SOME(test_reference_random);
  RUN_SOME(test_anya_random);
  RUN_SOME(test_pinches);
  RUN_SOME(test_anya_maps);
  RUN_SOME(test_arena_aurora);
  RUN_SOME(test_alloc_determinism_events);
  RUN_SOME(test_pool_growth);
  return check_summary();
}
