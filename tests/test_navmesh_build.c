/*
** test_navmesh_build.c -- building navigation meshes (astar/navmesh_build.h,
** issue 30 item 2): grid maps under the corner rule, polygon maps under the
** even-odd rule, the merge into convex polygons, the agent radius, obstacles
** added and removed against a full rebuild, determinism, allocation
** failures. Every expectation is computed here independently of the
** builder: free cells, the even-odd area by vertical slabs, point-in-polygon
** by crossing counts, distances to the obstacle edges.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <astar/astar.h>
#include <astar/mesh.h>
#include <astar/navmesh_build.h>

#include "check.h"
#include "mesh/build.h"
#include "util/failalloc.h"
#include "util/randmap.h"

/* ---- mesh helpers ---------------------------------------------------------- */

static double poly_area(const astar_mesh *m, size_t i) {
  const int32_t *v;
  uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
  double s = 0;
  for (uint32_t k = 0; k < n; k++) {
    astar_vec2 a = astar_mesh_vertex(m, (size_t)v[k]),
               b = astar_mesh_vertex(m, (size_t)v[(k + 1) % n]);
    s += a.x * b.y - a.y * b.x;
  }
  return s / 2;
}

static double mesh_area(const astar_mesh *m) {
  double s = 0;
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++) s += poly_area(m, i);
  return s;
}

static size_t live_polygons(const astar_mesh *m) {
  size_t n = 0;
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++)
    if (astar_mesh_polygon(m, i, NULL, NULL)) n++;
  return n;
}

/* Every polygon convex and counter-clockwise (in doubles: the coordinates
** here are small, the turns far from zero or exactly zero). */
static int reflex_turns(const astar_mesh *m) {
  int bad = 0;
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++) {
    const int32_t *v;
    uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    for (uint32_t k = 0; k < n; k++) {
      astar_vec2 a = astar_mesh_vertex(m, (size_t)v[k]),
                 b = astar_mesh_vertex(m, (size_t)v[(k + 1) % n]),
                 c = astar_mesh_vertex(m, (size_t)v[(k + 2) % n]);
      double cr = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
      if (cr < -1e-12) bad++;
    }
  }
  return bad;
}

static void check_valid(const astar_mesh *m, const char *what) {
  astar_mesh_fault f;
  astar_status st = astar_mesh_validate(m, &f);
  CHECKF(st == ASTAR_OK, "%s: invalid mesh: %s", what, f.message);
  CHECKF(reflex_turns(m) == 0, "%s: a reflex turn", what);
  double a1 = mesh_area(m), a2 = astar_mesh_area(m);
  CHECKF(fabs(a1 - a2) <= 1e-9 * (1 + fabs(a1)), "%s: area %.17g != mesh_area %.17g", what, a1, a2);
}

static double seg_point_dist(astar_vec2 a, astar_vec2 b, astar_vec2 p) {
  double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  double x = a.x + t * dx - p.x, y = a.y + t * dy - p.y;
  return sqrt(x * x + y * y);
}

static double cross3(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

static double seg_seg_dist(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  double o1 = cross3(a, b, c), o2 = cross3(a, b, d), o3 = cross3(c, d, a), o4 = cross3(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
    return 0;
  double m = seg_point_dist(a, b, c);
  m = fmin(m, seg_point_dist(a, b, d));
  m = fmin(m, seg_point_dist(c, d, a));
  return fmin(m, seg_point_dist(c, d, b));
}

/* Crossing-count point in polygon; *near set when p is within eps of an
** edge (the answer is then not to be trusted). */
static bool pip(const astar_vec2 *p, size_t n, astar_vec2 q, double eps, bool *near) {
  bool in = false;
  for (size_t i = 0; i < n; i++) {
    astar_vec2 a = p[i], b = p[(i + 1) % n];
    if (seg_point_dist(a, b, q) < eps) *near = true;
    if ((a.y > q.y) != (b.y > q.y)) {
      double x = a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (q.x < x) in = !in;
    }
  }
  return in;
}

/* ---- grids ---------------------------------------------------------------- */

static bool cell_free(const astar_grid *g, int32_t x, int32_t y) {
  return astar_grid_passable(g, x, y);
}

/* Unit edges between a free and a blocked cell (outside = blocked). */
static size_t grid_walls(const astar_grid *g, astar_vec2 *w) {
  int32_t W = astar_grid_width(g), H = astar_grid_height(g);
  size_t n = 0;
  for (int32_t y = 0; y <= H; y++)
    for (int32_t x = 0; x < W; x++)
      if (cell_free(g, x, y - 1) != cell_free(g, x, y)) {
        w[n++] = (astar_vec2){x, y};
        w[n++] = (astar_vec2){x + 1, y};
      }
  for (int32_t x = 0; x <= W; x++)
    for (int32_t y = 0; y < H; y++)
      if (cell_free(g, x - 1, y) != cell_free(g, x, y)) {
        w[n++] = (astar_vec2){x, y};
        w[n++] = (astar_vec2){x, y + 1};
      }
  return n / 2;
}

/* 4-connected components of the free cells (= 8-connected under no corner
** cutting); comp[y*W+x], -1 blocked. Returns the count. */
static int grid_components(const astar_grid *g, int *comp) {
  int32_t W = astar_grid_width(g), H = astar_grid_height(g);
  int *stack = calloc((size_t)W * (size_t)H, sizeof *stack);
  for (int i = 0; i < W * H; i++) comp[i] = -1;
  int nc = 0;
  for (int32_t s = 0; s < W * H; s++) {
    if (comp[s] >= 0 || !cell_free(g, s % W, s / W)) continue;
    int sp = 0;
    stack[sp++] = s;
    comp[s] = nc;
    while (sp) {
      int c = stack[--sp], x = c % W, y = c / W;
      static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
      for (int d = 0; d < 4; d++) {
        int nx = x + dx[d], ny = y + dy[d];
        if (nx < 0 || ny < 0 || nx >= W || ny >= H || !cell_free(g, nx, ny)) continue;
        if (comp[ny * W + nx] >= 0) continue;
        comp[ny * W + nx] = nc;
        stack[sp++] = ny * W + nx;
      }
    }
    nc++;
  }
  free(stack);
  return nc;
}

/* Components of the mesh's polygon graph. */
static int mesh_components(const astar_mesh *m, int *comp) {
  size_t np = astar_mesh_polygon_count(m);
  int *stack = calloc(np + 1, sizeof *stack);
  for (size_t i = 0; i < np; i++) comp[i] = -1;
  int nc = 0;
  for (size_t s = 0; s < np; s++) {
    if (comp[s] >= 0 || !astar_mesh_polygon(m, s, NULL, NULL)) continue;
    int sp = 0;
    stack[sp++] = (int)s;
    comp[s] = nc;
    while (sp) {
      int c = stack[--sp];
      const int32_t *nb;
      uint32_t n = astar_mesh_polygon(m, (size_t)c, NULL, &nb);
      for (uint32_t k = 0; k < n; k++)
        if (nb[k] >= 0 && comp[nb[k]] < 0) {
          comp[nb[k]] = nc;
          stack[sp++] = nb[k];
        }
    }
    nc++;
  }
  free(stack);
  return nc;
}

static bool poly_has_vertex_at(const astar_mesh *m, size_t i, astar_vec2 p) {
  const int32_t *v;
  uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
  for (uint32_t k = 0; k < n; k++) {
    astar_vec2 q = astar_mesh_vertex(m, (size_t)v[k]);
    if (q.x == p.x && q.y == p.y) return true;
  }
  return false;
}

/* Does closed polygon i hold p? (doubles; exact for grid coordinates) */
static bool poly_holds(const astar_mesh *m, size_t i, astar_vec2 p) {
  const int32_t *v;
  uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
  if (!n) return false;
  for (uint32_t k = 0; k < n; k++) {
    astar_vec2 a = astar_mesh_vertex(m, (size_t)v[k]),
               b = astar_mesh_vertex(m, (size_t)v[(k + 1) % n]);
    if (cross3(a, b, p) < 0) return false;
  }
  return true;
}

static void check_grid_mesh(const astar_grid *g, const astar_mesh *m, const char *what) {
  int32_t W = astar_grid_width(g), H = astar_grid_height(g);
  check_valid(m, what);
  double area = mesh_area(m);
  CHECKF(fabs(area - (double)astar_grid_count_passable(g)) < 1e-9, "%s: area %g, free cells %zu",
         what, area, astar_grid_count_passable(g));
  for (int32_t y = 0; y < H; y++)
    for (int32_t x = 0; x < W; x++) {
      int32_t p = astar_mesh_locate(m, (astar_vec2){x + 0.5, y + 0.5}, NULL);
      if (cell_free(g, x, y) != (p >= 0))
        FAILF("%s: cell (%d,%d) free %d located %d", what, x, y, cell_free(g, x, y), p);
    }
  /* Pinch points: a polygon holding one has it as a vertex. */
  size_t np = astar_mesh_polygon_count(m);
  for (int32_t y = 1; y < H; y++)
    for (int32_t x = 1; x < W; x++) {
      bool nw = cell_free(g, x - 1, y - 1), ne = cell_free(g, x, y - 1),
           sw = cell_free(g, x - 1, y), se = cell_free(g, x, y);
      if (!((nw && se && !ne && !sw) || (ne && sw && !nw && !se))) continue;
      astar_vec2 pt = {x, y};
      for (size_t i = 0; i < np; i++)
        if (poly_holds(m, i, pt) && !poly_has_vertex_at(m, i, pt))
          FAILF("%s: polygon %zu passes through the pinch point (%d,%d)", what, i, x, y);
    }
  /* Connectivity: the cells of one grid component are in one mesh
  ** component and vice versa. */
  int *gc = calloc((size_t)W * (size_t)H, sizeof *gc), *mc = calloc(np + 1, sizeof *mc);
  int ng = grid_components(g, gc), nmc = mesh_components(m, mc);
  CHECKF(ng == nmc, "%s: %d grid components, %d mesh components", what, ng, nmc);
  int *g2m = calloc((size_t)ng + 1, sizeof *g2m);
  for (int i = 0; i < ng; i++) g2m[i] = -1;
  for (int32_t c = 0; c < W * H; c++) {
    if (gc[c] < 0) continue;
    const int32_t cx = c % W, cy = c / W;
    int32_t p = astar_mesh_locate(m, (astar_vec2){cx + 0.5, cy + 0.5}, NULL);
    if (p < 0) continue;
    if (g2m[gc[c]] < 0) g2m[gc[c]] = mc[p];
    if (g2m[gc[c]] != mc[p]) FAILF("%s: grid component %d spans mesh components", what, gc[c]);
  }
  free(g2m);
  free(gc);
  free(mc);
}

static void test_grid_random(void) {
  rng r;
  rng_seed(&r, 30021);
  for (int it = 0; it < 160; it++) {
    randmap_spec sp = {rng_range(&r, 1, 24), rng_range(&r, 1, 24), rng_unit(&r) * 0.6, 0, 0, 0};
    astar_grid *g;
    CHECK(randmap_make(&g, &sp, &r) == ASTAR_OK);
    /* Checkerboard patches: many pinch points. */
    if (it % 3 == 0)
      for (int32_t y = 0; y < sp.height; y++)
        for (int32_t x = 0; x < sp.width; x++)
          if (rng_unit(&r) < 0.5) astar_grid_set_passable(g, x, y, ((x + y) & 1) == 0);
    astar_navmesh_options o;
    astar_navmesh_options_init(&o);
    o.merge = it % 5 != 4;
    astar_navmesh *nm = NULL;
    astar_status st = astar_navmesh_from_grid(&nm, g, &o, NULL);
    if (astar_grid_count_passable(g) == 0) {
      CHECK(st == ASTAR_NO_PATH && nm == NULL);
    } else {
      CHECKF(st == ASTAR_OK, "grid %d: status %d", it, st);
      if (st == ASTAR_OK) {
        char what[64];
        snprintf(what, sizeof what, "grid %d (%dx%d)", it, sp.width, sp.height);
        check_grid_mesh(g, astar_navmesh_mesh(nm), what);
        astar_navmesh_stats s;
        astar_navmesh_stats_get(nm, &s);
        CHECK(s.polygons == live_polygons(astar_navmesh_mesh(nm)));
        CHECK(s.free_triangles <= s.triangles && s.polygons <= s.free_triangles);
        if (!o.merge) CHECK(s.polygons == s.free_triangles);
        CHECK(s.memory > 0 && s.removed == 0);
      }
    }
    astar_navmesh_free(nm);
    astar_grid_free(g);
  }
}

/* A hand-made pinch: the two free cells touch at (1, 1) only. */
static void test_grid_pinch(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 2, 2, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 1, 0, false);
  astar_grid_set_passable(g, 0, 1, false);
  astar_navmesh *nm;
  CHECK(astar_navmesh_from_grid(&nm, g, NULL, NULL) == ASTAR_OK);
  const astar_mesh *m = astar_navmesh_mesh(nm);
  check_grid_mesh(g, m, "pinch");
  CHECK(live_polygons(m) == 2);
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++) {
    const int32_t *nb;
    uint32_t n = astar_mesh_polygon(m, i, NULL, &nb);
    for (uint32_t k = 0; k < n; k++) CHECK(nb[k] == -1);
  }
  astar_navmesh_free(nm);
  astar_grid_free(g);
}

/* ---- polygon maps ------------------------------------------------------------ */

typedef struct pmap {
  astar_vec2 pt[512];
  uint32_t size[64];
  size_t np, npt;
} pmap;

static void pm_add(pmap *m, const astar_vec2 *p, uint32_t n) {
  memcpy(m->pt + m->npt, p, n * sizeof *p);
  m->size[m->np++] = n;
  m->npt += n;
}

/* Even-odd area by vertical slabs: between consecutive event x's no two
** edges cross, so the edges over a slab are ordered by their middle y and
** alternate between entering and leaving the free space. */
static double evenodd_area(const pmap *m) {
  size_t ne = m->npt;
  astar_vec2 *ea = calloc(ne, sizeof *ea), *eb = calloc(ne, sizeof *eb);
  size_t k = 0, off = 0;
  for (size_t i = 0; i < m->np; i++) {
    for (uint32_t j = 0; j < m->size[i]; j++) {
      ea[k] = m->pt[off + j];
      eb[k] = m->pt[off + (j + 1) % m->size[i]];
      k++;
    }
    off += m->size[i];
  }
  size_t cap = ne + ne * ne, nx = 0;
  double *xs = calloc(cap, sizeof *xs);
  for (size_t i = 0; i < ne; i++) xs[nx++] = ea[i].x;
  for (size_t i = 0; i < ne; i++)
    for (size_t j = i + 1; j < ne; j++) {
      double d =
          (eb[i].x - ea[i].x) * (eb[j].y - ea[j].y) - (eb[i].y - ea[i].y) * (eb[j].x - ea[j].x);
      if (d == 0) continue;
      double t =
          ((ea[j].x - ea[i].x) * (eb[j].y - ea[j].y) - (ea[j].y - ea[i].y) * (eb[j].x - ea[j].x)) /
          d;
      double u =
          ((ea[j].x - ea[i].x) * (eb[i].y - ea[i].y) - (ea[j].y - ea[i].y) * (eb[i].x - ea[i].x)) /
          d;
      if (t > 0 && t < 1 && u > 0 && u < 1) xs[nx++] = ea[i].x + t * (eb[i].x - ea[i].x);
    }
  for (size_t i = 1; i < nx; i++)
    for (size_t j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
      double t = xs[j];
      xs[j] = xs[j - 1];
      xs[j - 1] = t;
    }
  double area = 0;
  double *ys = calloc(ne * 3, sizeof *ys);
  for (size_t i = 0; i + 1 < nx; i++) {
    double x0 = xs[i], x1 = xs[i + 1];
    if (x1 - x0 < 1e-12) continue;
    double xm = (x0 + x1) / 2;
    size_t n = 0;
    for (size_t e = 0; e < ne; e++) {
      double lo = fmin(ea[e].x, eb[e].x), hi = fmax(ea[e].x, eb[e].x);
      if (lo > x0 || hi < x1 || lo == hi) continue;
      double s = (eb[e].y - ea[e].y) / (eb[e].x - ea[e].x);
      ys[3 * n] = ea[e].y + (xm - ea[e].x) * s;
      ys[3 * n + 1] = ea[e].y + (x0 - ea[e].x) * s;
      ys[3 * n + 2] = ea[e].y + (x1 - ea[e].x) * s;
      n++;
    }
    for (size_t a = 1; a < n; a++)
      for (size_t b = a; b > 0 && ys[3 * (b - 1)] > ys[3 * b]; b--)
        for (int c = 0; c < 3; c++) {
          double t = ys[3 * b + c];
          ys[3 * b + c] = ys[3 * (b - 1) + c];
          ys[3 * (b - 1) + c] = t;
        }
    for (size_t a = 0; a + 1 < n; a += 2)
      area += ((ys[3 * (a + 1) + 1] - ys[3 * a + 1]) + (ys[3 * (a + 1) + 2] - ys[3 * a + 2])) / 2 *
              (x1 - x0);
  }
  free(ys);
  free(xs);
  free(ea);
  free(eb);
  return area;
}

static bool pm_free(const pmap *m, astar_vec2 q, bool *near) {
  bool in = false;
  size_t off = 0;
  for (size_t i = 0; i < m->np; i++) {
    if (pip(m->pt + off, m->size[i], q, 1e-7, near)) in = !in;
    off += m->size[i];
  }
  return in;
}

/* A border rectangle and holes: lattice rectangles (touching each other
** and the border, sharing edges, overlapping), triangles, a rectangle with
** collinear extra vertices. */
static void random_pmap(rng *r, pmap *m, int W, int H) {
  memset(m, 0, sizeof *m);
  astar_vec2 border[4] = {{0, 0}, {W, 0}, {W, H}, {0, H}};
  pm_add(m, border, 4);
  int holes = rng_range(r, 0, 10);
  for (int h = 0; h < holes; h++) {
    int kind = rng_range(r, 0, 2);
    if (kind == 0) {
      int x0 = rng_range(r, 0, W - 1), y0 = rng_range(r, 0, H - 1);
      int x1 = rng_range(r, x0 + 1, W), y1 = rng_range(r, y0 + 1, H);
      astar_vec2 p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
      if (rng_unit(r) < 0.5) { /* clockwise */
        astar_vec2 t = p[1];
        p[1] = p[3];
        p[3] = t;
      }
      pm_add(m, p, 4);
    } else if (kind == 1) {
      astar_vec2 p[3];
      double cr;
      do {
        for (int i = 0; i < 3; i++) p[i] = (astar_vec2){rng_range(r, 0, W), rng_range(r, 0, H)};
        cr = cross3(p[0], p[1], p[2]);
      } while (cr == 0);
      pm_add(m, p, 3);
    } else {
      int x0 = rng_range(r, 0, W - 2), y0 = rng_range(r, 0, H - 2);
      int x1 = rng_range(r, x0 + 2, W), y1 = rng_range(r, y0 + 2, H);
      astar_vec2 p[6] = {{x0, y0}, {(x0 + x1) / 2.0, y0}, {x1, y0}, {x1, y1},
                         {x0, y1}, {x0, (y0 + y1) / 2.0}};
      pm_add(m, p, 6);
    }
  }
}

static astar_polymap *to_polymap(const pmap *m) {
  astar_polymap *pm = NULL;
  astar_mesh_fault f;
  astar_status st = astar_polymap_new(&pm, m->pt, m->size, m->np, NULL, &f);
  CHECKF(st == ASTAR_OK, "polymap_new: %d %s", st, f.message);
  return pm;
}

static void test_polymap_random(void) {
  rng r;
  rng_seed(&r, 30022);
  for (int it = 0; it < 120; it++) {
    int W = rng_range(&r, 2, 16), H = rng_range(&r, 2, 16);
    pmap m;
    random_pmap(&r, &m, W, H);
    astar_polymap *pm = to_polymap(&m);
    if (!pm) continue;
    astar_navmesh *nm = NULL;
    double want = evenodd_area(&m);
    astar_navmesh_options o;
    astar_navmesh_options_init(&o);
    o.merge = it % 4 != 3;
    astar_status st = astar_navmesh_from_polymap(&nm, pm, &o, NULL);
    if (want < 1e-9) {
      CHECKF(st == ASTAR_NO_PATH, "polymap %d: nothing free, status %d", it, st);
    } else {
      CHECKF(st == ASTAR_OK, "polymap %d: status %d (even-odd area %g, %zu polygons)", it, st, want,
             m.np);
    }
    if (st == ASTAR_OK) {
      const astar_mesh *mesh = astar_navmesh_mesh(nm);
      char what[64];
      snprintf(what, sizeof what, "polymap %d", it);
      check_valid(mesh, what);
      double got = mesh_area(mesh);
      CHECKF(fabs(got - want) < 1e-7, "%s: area %.12g, even-odd %.12g", what, got, want);
      for (int s = 0; s < 400; s++) {
        astar_vec2 q = {rng_unit(&r) * W, rng_unit(&r) * H};
        bool near = false, fr = pm_free(&m, q, &near);
        if (near) continue;
        int32_t p = astar_mesh_locate(mesh, q, NULL);
        if ((p >= 0) != fr) FAILF("%s: (%g,%g) free %d located %d", what, q.x, q.y, fr, p);
      }
    }
    astar_navmesh_free(nm);
    astar_polymap_free(pm);
  }
}

/* ---- merging: Polyanya's meshes --------------------------------------------- */

/* Merge the triangles of a mesh file with astar__merge; the polygons must
** be convex, cover the triangles' area, and be no more than Polyanya's
** own merged mesh has. */
static void merge_file(const char *path, size_t theirs) {
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("skipped: %s not found\n", path);
    return;
  }
  char word[16];
  int ver, nv, np;
  CHECK(fscanf(f, "%15s %d %d %d", word, &ver, &nv, &np) == 4);
  astar_vec2 *v = calloc((size_t)nv, sizeof *v);
  for (int i = 0; i < nv; i++) {
    int k, x;
    CHECK(fscanf(f, "%lf %lf %d", &v[i].x, &v[i].y, &k) == 3);
    for (int j = 0; j < k; j++) CHECK(fscanf(f, "%d", &x) == 1);
  }
  int32_t *tv = calloc(3 * (size_t)np, sizeof *tv), *tn = calloc(3 * (size_t)np, sizeof *tn);
  double tri_area = 0;
  for (int i = 0; i < np; i++) {
    int k, nb[3];
    CHECK(fscanf(f, "%d", &k) == 1 && k == 3);
    for (int j = 0; j < 3; j++) CHECK(fscanf(f, "%d", &tv[3 * i + j]) == 1);
    for (int j = 0; j < 3; j++) CHECK(fscanf(f, "%d", &nb[j]) == 1);
    /* v2: neighbour k across vertices k-1, k; here edge k runs k -> k+1. */
    for (int j = 0; j < 3; j++) tn[3 * i + j] = nb[(j + 1) % 3];
    tri_area +=
        cross3(v[tv[3 * (size_t)i]], v[tv[3 * (size_t)i + 1]], v[tv[3 * (size_t)i + 2]]) / 2;
  }
  fclose(f);
  astar_allocator al;
  astar__alloc_init(&al, NULL);
  astar__merged mg;
  CHECK(astar__merge(&al, v, tv, tn, (size_t)np, true, &mg) == ASTAR_OK);
  double area = 0;
  int reflex = 0;
  for (size_t p = 0; p < mg.np; p++) {
    uint32_t n = mg.off[p + 1] - mg.off[p];
    const uint32_t *s = mg.side + mg.off[p];
    for (uint32_t i = 0; i < n; i++) {
      astar_vec2 a = v[tv[s[i]]], b = v[tv[s[(i + 1) % n]]], c = v[tv[s[(i + 2) % n]]];
      if (cross3(a, b, c) < 0) reflex++;
      area += (a.x * b.y - a.y * b.x) / 2;
    }
  }
  for (int i = 0; i < np; i++) CHECK(mg.tri_poly[i] >= 0 && (size_t)mg.tri_poly[i] < mg.np);
  CHECK(reflex == 0);
  CHECKF(fabs(area - tri_area) < 1e-6, "%s: area %g vs %g", path, area, tri_area);
  CHECKF(mg.np <= theirs, "%s: %zu polygons, Polyanya's merge %zu", path, mg.np, theirs);
  printf("%s: %d triangles -> %zu polygons (Polyanya's merged mesh: %zu)\n", path, np, mg.np,
         theirs);
  astar__merge_free(&al, &mg);
  free(v);
  free(tv);
  free(tn);
}

static void test_merge_polyanya(void) {
  merge_file("../../shared/bench/navmesh/meshes/arena.mesh", 55);
  merge_file("../../shared/bench/navmesh/meshes/aurora.mesh", 19244);
}

/* ---- radius ---------------------------------------------------------------------- */

static void check_clearance(const astar_mesh *m, const astar_vec2 *walls, size_t nw, double rad,
                            const char *what) {
  size_t np = astar_mesh_polygon_count(m);
  double worst = INFINITY;
  for (size_t i = 0; i < np; i++) {
    const int32_t *v;
    uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    for (uint32_t k = 0; k < n; k++) {
      astar_vec2 a = astar_mesh_vertex(m, (size_t)v[k]),
                 b = astar_mesh_vertex(m, (size_t)v[(k + 1) % n]);
      for (size_t w = 0; w < nw; w++)
        worst = fmin(worst, seg_seg_dist(a, b, walls[2 * w], walls[2 * w + 1]));
    }
  }
  CHECKF(worst >= rad * (1 - 1e-12) - 1e-12, "%s: an edge %.17g from an obstacle, radius %g", what,
         worst, rad);
}

static void test_radius(void) {
  rng r;
  rng_seed(&r, 30023);
  const double radii[] = {0.25, 0.5, 0.9, 1.7};
  for (int it = 0; it < 40; it++) {
    randmap_spec sp = {rng_range(&r, 4, 16), rng_range(&r, 4, 16), rng_unit(&r) * 0.3, 0, 0, 0};
    astar_grid *g;
    CHECK(randmap_make(&g, &sp, &r) == ASTAR_OK);
    astar_navmesh_options o;
    astar_navmesh_options_init(&o);
    o.radius = radii[it % 4];
    astar_navmesh *nm = NULL;
    astar_status st = astar_navmesh_from_grid(&nm, g, &o, NULL);
    CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
    astar_vec2 *walls = calloc(4 * (size_t)(sp.width + 1) * (size_t)(sp.height + 1), sizeof *walls);
    size_t nw = grid_walls(g, walls);
    char what[64];
    snprintf(what, sizeof what, "radius grid %d r=%g", it, o.radius);
    if (st == ASTAR_OK) {
      const astar_mesh *m = astar_navmesh_mesh(nm);
      check_valid(m, what);
      check_clearance(m, walls, nw, o.radius, what);
    }
    /* Not too much taken: a free point farther than the 16-gon's
    ** circumradius from every wall is in the mesh. */
    double R = o.radius / cos(3.14159265358979323846 / 16) * (1 + 1e-9) + 1e-9;
    int missing = 0, checked = 0;
    for (int s = 0; s < 300; s++) {
      astar_vec2 q = {rng_unit(&r) * sp.width, rng_unit(&r) * sp.height};
      if (!cell_free(g, (int32_t)q.x, (int32_t)q.y)) continue;
      double d = INFINITY;
      for (size_t w = 0; w < nw; w++)
        d = fmin(d, seg_point_dist(walls[2 * w], walls[2 * w + 1], q));
      if (d <= R) continue;
      checked++;
      if (!nm || astar_mesh_locate(astar_navmesh_mesh(nm), q, NULL) < 0) missing++;
    }
    CHECKF(missing == 0, "%s: %d of %d clear points not in the mesh", what, missing, checked);
    free(walls);
    astar_navmesh_free(nm);
    astar_grid_free(g);
  }
  /* Polygon maps. */
  for (int it = 0; it < 30; it++) {
    pmap m;
    random_pmap(&r, &m, rng_range(&r, 6, 14), rng_range(&r, 6, 14));
    astar_polymap *pm = to_polymap(&m);
    if (!pm) continue;
    astar_navmesh_options o;
    astar_navmesh_options_init(&o);
    o.radius = radii[it % 4] / 2;
    astar_navmesh *nm = NULL;
    astar_status st = astar_navmesh_from_polymap(&nm, pm, &o, NULL);
    CHECK(st == ASTAR_OK || st == ASTAR_NO_PATH);
    if (st == ASTAR_OK) {
      astar_vec2 *walls = calloc(2 * m.npt, sizeof *walls);
      size_t off = 0, nw = 0;
      for (size_t i = 0; i < m.np; i++) {
        for (uint32_t j = 0; j < m.size[i]; j++) {
          walls[2 * nw] = m.pt[off + j];
          walls[2 * nw + 1] = m.pt[off + (j + 1) % m.size[i]];
          nw++;
        }
        off += m.size[i];
      }
      char what[64];
      snprintf(what, sizeof what, "radius polymap %d r=%g", it, o.radius);
      check_valid(astar_navmesh_mesh(nm), what);
      check_clearance(astar_navmesh_mesh(nm), walls, nw, o.radius, what);
      /* Every mesh point is free in the map. */
      const astar_mesh *mesh = astar_navmesh_mesh(nm);
      for (size_t i = 0; i < astar_mesh_vertex_count(mesh); i++) {
        bool near = false;
        if (!pm_free(&m, astar_mesh_vertex(mesh, i), &near) && !near)
          FAILF("%s: vertex %zu in an obstacle", what, i);
      }
      free(walls);
    }
    astar_navmesh_free(nm);
    astar_polymap_free(pm);
  }
}

/* ---- obstacles: incremental vs full rebuild ------------------------------------- */

typedef struct snap {
  size_t np;
  uint32_t *n;
  astar_vec2 *v; /* per slot, up to 64 points */
} snap;

static void snap_take(const astar_mesh *m, snap *s) {
  s->np = astar_mesh_polygon_count(m);
  s->n = calloc(s->np + 1, sizeof *s->n);
  s->v = calloc((s->np + 1) * 64, sizeof *s->v);
  for (size_t i = 0; i < s->np; i++) {
    const int32_t *v;
    s->n[i] = astar_mesh_polygon(m, i, &v, NULL);
    for (uint32_t k = 0; k < s->n[i] && k < 64; k++)
      s->v[i * 64 + k] = astar_mesh_vertex(m, (size_t)v[k]);
  }
}

static size_t snap_changed(const astar_mesh *m, const snap *s) {
  size_t np = astar_mesh_polygon_count(m), changed = 0;
  for (size_t i = 0; i < np; i++) {
    const int32_t *v;
    uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    bool same = i < s->np && n == s->n[i];
    for (uint32_t k = 0; same && k < n && k < 64; k++) {
      astar_vec2 p = astar_mesh_vertex(m, (size_t)v[k]);
      same = p.x == s->v[i * 64 + k].x && p.y == s->v[i * 64 + k].y;
    }
    if (!same) changed++;
  }
  return changed;
}

static void snap_free(snap *s) {
  free(s->n);
  free(s->v);
}

static void random_obstacle(rng *r, double W, double H, astar_vec2 *p, size_t *n) {
  double cx = rng_unit(r) * W, cy = rng_unit(r) * H, rad = 0.5 + rng_unit(r) * 3;
  *n = (size_t)rng_range(r, 3, 9);
  for (size_t k = 0; k < *n; k++) {
    double t = 2 * 3.14159265358979323846 * ((double)k + 0.3 * rng_unit(r)) / (double)*n;
    double rr = rad * (k % 2 ? 0.45 + 0.5 * rng_unit(r) : 1.0);
    p[k] = (astar_vec2){cx + rr * cos(t), cy + rr * sin(t)};
  }
}

/* The builder's mesh and a full rebuild's: same area, same answer on
** random points. */
static void compare_rebuild(astar_navmesh *nm, const astar_grid *g, const astar_polymap *pm, rng *r,
                            double W, double H, const char *what) {
  astar_navmesh *full = NULL;
  astar_status st = astar__navmesh_rebuilt(&full, nm, g, pm);
  const astar_mesh *a = astar_navmesh_mesh(nm);
  check_valid(a, what);
  if (st == ASTAR_NO_PATH) {
    CHECKF(live_polygons(a) == 0, "%s: rebuild has nothing free", what);
    return;
  }
  CHECKF(st == ASTAR_OK, "%s: rebuild status %d", what, st);
  if (st != ASTAR_OK) return;
  /* The edited mesh written (empty slots and unused vertices left out) and
  ** read back. */
  size_t len = 0;
  CHECK(astar_mesh_write(a, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL);
  char *text = malloc(len + 1);
  CHECK(astar_mesh_write(a, text, len + 1, NULL) == ASTAR_OK);
  astar_mesh *back = NULL;
  astar_mesh_fault f;
  CHECKF(astar_mesh_read(&back, text, len, NULL, &f) == ASTAR_OK, "%s: written mesh: %s", what,
         f.message);
  if (back) {
    CHECK(astar_mesh_polygon_count(back) == live_polygons(a));
    CHECK(fabs(mesh_area(back) - mesh_area(a)) <= 1e-9 * (1 + mesh_area(a)));
  }
  astar_mesh_free(back);
  free(text);
  const astar_mesh *b = astar_navmesh_mesh(full);
  double aa = mesh_area(a), ab = mesh_area(b);
  CHECKF(fabs(aa - ab) <= 1e-9 * (1 + ab), "%s: area %.17g, rebuild %.17g", what, aa, ab);
  for (int s = 0; s < 1000; s++) {
    astar_vec2 q = {rng_unit(r) * W, rng_unit(r) * H};
    bool ia = astar_mesh_locate(a, q, NULL) >= 0, ib = astar_mesh_locate(b, q, NULL) >= 0;
    if (ia != ib)
      FAILF("%s: (%.17g, %.17g) in the mesh %d, in the rebuild %d", what, q.x, q.y, ia, ib);
  }
  astar_navmesh_free(full);
}

static void incremental_run(uint64_t seed, double radius, bool poly) {
  rng r;
  rng_seed(&r, seed);
  const int W = 40, H = 32;
  astar_grid *g = NULL;
  astar_polymap *pm = NULL;
  pmap m;
  if (poly) {
    random_pmap(&r, &m, W, H);
    pm = to_polymap(&m);
    if (!pm) return;
  } else {
    randmap_spec sp = {W, H, 0.2, 0, 0, 0};
    CHECK(randmap_make(&g, &sp, &r) == ASTAR_OK);
  }
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = radius;
  astar_navmesh *nm = NULL;
  astar_status st = poly ? astar_navmesh_from_polymap(&nm, pm, &o, NULL)
                         : astar_navmesh_from_grid(&nm, g, &o, NULL);
  CHECK(st == ASTAR_OK);
  if (st != ASTAR_OK) goto out;
  const astar_mesh *mesh = astar_navmesh_mesh(nm);
  double area0 = mesh_area(mesh);
  uint32_t ids[16];
  astar_vec2 obs[16][9];
  size_t obn[16];
  size_t changed_sum = 0, total_sum = 0;
  for (int i = 0; i < 10; i++) {
    random_obstacle(&r, W, H, obs[i], &obn[i]);
    snap s;
    snap_take(mesh, &s);
    uint64_t ver = astar_mesh_version(mesh);
    st = astar_navmesh_add_obstacle(nm, obs[i], obn[i], &ids[i]);
    CHECKF(st == ASTAR_OK, "add obstacle %d: %d", i, st);
    CHECK(astar_mesh_version(mesh) == ver + 1);
    astar_navmesh_stats stats;
    astar_navmesh_stats_get(nm, &stats);
    size_t changed = snap_changed(mesh, &s);
    CHECKF(changed <= stats.removed + stats.added,
           "obstacle %d: %zu slots changed, stats say %zu removed %zu added", i, changed,
           stats.removed, stats.added);
    changed_sum += stats.removed + stats.added;
    total_sum += stats.polygons;
    snap_free(&s);
    char what[96];
    snprintf(what, sizeof what, "seed %llu r=%g %s: after adding %d", (unsigned long long)seed,
             radius, poly ? "polymap" : "grid", i);
    compare_rebuild(nm, g, pm, &r, W, H, what);
    /* Independent: without a radius a point is free when the map frees it
    ** and no obstacle holds it. */
    if (radius == 0) {
      for (int q = 0; q < 500; q++) {
        astar_vec2 p = {rng_unit(&r) * W, rng_unit(&r) * H};
        bool near = false, fr;
        if (poly) {
          fr = pm_free(&m, p, &near);
        } else {
          fr = cell_free(g, (int32_t)p.x, (int32_t)p.y);
        }
        for (int k = 0; k <= i; k++)
          if (pip(obs[k], obn[k], p, 1e-7, &near)) fr = false;
        if (near) continue;
        if ((astar_mesh_locate(mesh, p, NULL) >= 0) != fr)
          FAILF("%s: (%g,%g) free %d", what, p.x, p.y, fr);
      }
    }
  }
  /* Small edits: on average an edit rewrites a small share of the mesh. */
  CHECKF(changed_sum * 3 < total_sum, "polygons rewritten %zu of %zu", changed_sum, total_sum);
  printf("seed %llu r=%g %s: polygons rewritten per edit %.1f of %.1f\n", (unsigned long long)seed,
         radius, poly ? "polymap" : "grid", changed_sum / 10.0, total_sum / 10.0);
  /* Remove them in another order. */
  for (int i = 0; i < 10; i++) {
    int k = (i * 7) % 10;
    CHECK(astar_navmesh_remove_obstacle(nm, ids[k]) == ASTAR_OK);
    CHECK(astar_navmesh_remove_obstacle(nm, ids[k]) == ASTAR_INVALID_ARGUMENT);
    char what[96];
    snprintf(what, sizeof what, "seed %llu r=%g: after removing %d", (unsigned long long)seed,
             radius, k);
    compare_rebuild(nm, g, pm, &r, W, H, what);
  }
  CHECKF(fabs(mesh_area(mesh) - area0) < 1e-9 * (1 + area0), "area %.17g back to %.17g",
         mesh_area(mesh), area0);
out:
  astar_navmesh_free(nm);
  astar_grid_free(g);
  astar_polymap_free(pm);
}

static void test_incremental(void) {
  incremental_run(1, 0, false);
  incremental_run(2, 0, true);
  incremental_run(3, 0.4, false);
  incremental_run(4, 0.3, true);
}

/* ---- determinism ---------------------------------------------------------------- */

static bool same_mesh(const astar_mesh *a, const astar_mesh *b) {
  if (astar_mesh_vertex_count(a) != astar_mesh_vertex_count(b)) return false;
  if (astar_mesh_polygon_count(a) != astar_mesh_polygon_count(b)) return false;
  for (size_t i = 0; i < astar_mesh_vertex_count(a); i++) {
    astar_vec2 p = astar_mesh_vertex(a, i), q = astar_mesh_vertex(b, i);
    if (p.x != q.x || p.y != q.y) return false;
  }
  for (size_t i = 0; i < astar_mesh_polygon_count(a); i++) {
    const int32_t *va, *vb, *na, *nb;
    uint32_t n = astar_mesh_polygon(a, i, &va, &na);
    if (astar_mesh_polygon(b, i, &vb, &nb) != n) return false;
    if (n && (memcmp(va, vb, n * sizeof *va) != 0 || memcmp(na, nb, n * sizeof *na) != 0))
      return false;
  }
  return true;
}

static void test_determinism(void) {
  rng r;
  rng_seed(&r, 30024);
  randmap_spec sp = {30, 20, 0.3, 0, 0, 0};
  astar_grid *g;
  CHECK(randmap_make(&g, &sp, &r) == ASTAR_OK);
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = 0.35;
  astar_navmesh *a, *b;
  CHECK(astar_navmesh_from_grid(&a, g, &o, NULL) == ASTAR_OK);
  CHECK(astar_navmesh_from_grid(&b, g, &o, NULL) == ASTAR_OK);
  CHECK(same_mesh(astar_navmesh_mesh(a), astar_navmesh_mesh(b)));
  astar_vec2 p[9];
  size_t n;
  random_obstacle(&r, 30, 20, p, &n);
  CHECK(astar_navmesh_add_obstacle(a, p, n, NULL) == ASTAR_OK);
  CHECK(astar_navmesh_add_obstacle(b, p, n, NULL) == ASTAR_OK);
  CHECK(same_mesh(astar_navmesh_mesh(a), astar_navmesh_mesh(b)));
  astar_navmesh_free(a);
  astar_navmesh_free(b);
  astar_grid_free(g);
}

/* ---- arguments --------------------------------------------------------------------- */

static void test_arguments(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 4, 4, NULL) == ASTAR_OK);
  astar_navmesh *nm = (astar_navmesh *)1;
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  CHECK(o.radius == 0 && o.merge);
  CHECK(astar_navmesh_from_grid(NULL, g, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_navmesh_from_grid(&nm, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT && !nm);
  const double bad[] = {-1, NAN, INFINITY, 2e6};
  for (int i = 0; i < 4; i++) {
    o.radius = bad[i];
    CHECK(astar_navmesh_from_grid(&nm, g, &o, NULL) == ASTAR_INVALID_ARGUMENT && !nm);
  }
  CHECK(astar_navmesh_from_polymap(&nm, NULL, NULL, NULL) == ASTAR_INVALID_ARGUMENT);
  astar_grid_fill(g, false);
  CHECK(astar_navmesh_from_grid(&nm, g, NULL, NULL) == ASTAR_NO_PATH && !nm);
  astar_grid_fill(g, true);
  o.radius = 3; /* the whole 4x4 map within 3 of a wall: nothing free */
  CHECK(astar_navmesh_from_grid(&nm, g, &o, NULL) == ASTAR_NO_PATH && !nm);
  CHECK(astar_navmesh_from_grid(&nm, g, NULL, NULL) == ASTAR_OK);
  CHECK(live_polygons(astar_navmesh_mesh(nm)) == 1);
  astar_vec2 bow[4] = {{1, 1}, {3, 3}, {3, 1}, {1, 3}}; /* crosses itself */
  astar_vec2 flat[3] = {{1, 1}, {2, 2}, {3, 3}};
  astar_vec2 nanp[3] = {{1, 1}, {NAN, 2}, {3, 1}};
  astar_vec2 ok[3] = {{1, 1}, {3, 1}, {2, 3}};
  CHECK(astar_navmesh_add_obstacle(nm, bow, 4, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_navmesh_add_obstacle(nm, flat, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_navmesh_add_obstacle(nm, nanp, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_navmesh_add_obstacle(nm, ok, 2, NULL) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_navmesh_add_obstacle(NULL, ok, 3, NULL) == ASTAR_INVALID_ARGUMENT);
  uint32_t id1 = 0, id2 = 0;
  CHECK(astar_navmesh_add_obstacle(nm, ok, 3, &id1) == ASTAR_OK && id1 == 1);
  CHECK(astar_navmesh_add_obstacle(nm, ok, 3, &id2) == ASTAR_OK && id2 == 2);
  CHECK(fabs(mesh_area(astar_navmesh_mesh(nm)) - 14) < 1e-12);
  CHECK(astar_navmesh_remove_obstacle(nm, id1) == ASTAR_OK);
  CHECK(fabs(mesh_area(astar_navmesh_mesh(nm)) - 14) < 1e-12); /* the twin still blocks */
  CHECK(astar_navmesh_remove_obstacle(nm, id2) == ASTAR_OK);
  CHECK(fabs(mesh_area(astar_navmesh_mesh(nm)) - 16) < 1e-12);
  CHECK(astar_navmesh_remove_obstacle(nm, 77) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_navmesh_remove_obstacle(NULL, 1) == ASTAR_INVALID_ARGUMENT);
  uint32_t id3 = 0;
  CHECK(astar_navmesh_add_obstacle(nm, ok, 3, &id3) == ASTAR_OK && id3 == 3); /* never reused */
  check_valid(astar_navmesh_mesh(nm), "arguments");
  astar_navmesh_free(nm);
  astar_navmesh_free(NULL);
  astar_navmesh_stats s;
  astar_navmesh_stats_get(NULL, &s);
  CHECK(s.polygons == 0);
  CHECK(astar_navmesh_mesh(NULL) == NULL);
  astar_grid_free(g);
}

/* ---- allocation failures ------------------------------------------------------------- */

static void test_alloc_failures(void) {
  rng r;
  rng_seed(&r, 30025);
  randmap_spec sp = {10, 8, 0.25, 0, 0, 0};
  astar_grid *g;
  CHECK(randmap_make(&g, &sp, &r) == ASTAR_OK);
  for (int radius = 0; radius < 2; radius++) {
    astar_navmesh_options o;
    astar_navmesh_options_init(&o);
    o.radius = radius ? 0.3 : 0;
    bool done = false;
    for (long k = 1; !done && k < 100000; k++) {
      failalloc fa;
      failalloc_init(&fa);
      failalloc_fail_in(&fa, k);
      astar_allocator al = failalloc_allocator(&fa);
      astar_navmesh *nm = NULL;
      astar_status st = astar_navmesh_from_grid(&nm, g, &o, &al);
      if (st == ASTAR_OK) {
        done = fa.failures == 0;
        astar_navmesh_free(nm);
      } else {
        CHECKF(st == ASTAR_NO_MEMORY && nm == NULL, "failure %ld: status %d", k, st);
      }
      CHECKF(fa.bytes == 0 && fa.blocks == 0, "failure %ld: %zu bytes leaked", k, fa.bytes);
      CHECK(fa.osize_mismatches == 0);
    }
    CHECK(done);
  }
  /* Edits: a failed edit leaves the free space as it was. */
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator al = failalloc_allocator(&fa);
  astar_navmesh *nm;
  CHECK(astar_navmesh_from_grid(&nm, g, NULL, &al) == ASTAR_OK);
  const astar_mesh *m = astar_navmesh_mesh(nm);
  astar_vec2 p[9];
  size_t n;
  random_obstacle(&r, 10, 8, p, &n);
  int failures = 0;
  for (long k = 1; k < 100000; k++) {
    double before = mesh_area(m);
    failalloc_fail_in(&fa, k);
    uint32_t id;
    astar_status st = astar_navmesh_add_obstacle(nm, p, n, &id);
    fa.fail_at = 0;
    if (st == ASTAR_OK) {
      check_valid(m, "after failures");
      compare_rebuild(nm, g, NULL, &r, 10, 8, "added after failures");
      /* Removal failing at each request in turn: the obstacle stays. */
      int rfail = 0;
      for (long j = 1; j < 100000; j++) {
        double with = mesh_area(m);
        failalloc_fail_in(&fa, j);
        st = astar_navmesh_remove_obstacle(nm, id);
        fa.fail_at = 0;
        if (st == ASTAR_OK) break;
        rfail++;
        CHECKF(st == ASTAR_NO_MEMORY, "removal failure %ld: status %d", j, st);
        CHECKF(fabs(mesh_area(m) - with) < 1e-9, "removal failure %ld: area %g, was %g", j,
               mesh_area(m), with);
      }
      CHECK(rfail > 0);
      break;
    }
    failures++;
    CHECKF(st == ASTAR_NO_MEMORY, "edit failure %ld: status %d", k, st);
    CHECKF(fabs(mesh_area(m) - before) < 1e-9, "edit failure %ld: area %g, was %g", k, mesh_area(m),
           before);
  }
  CHECK(failures > 0);
  check_valid(m, "failed edits");
  compare_rebuild(nm, g, NULL, &r, 10, 8, "failed edits");
  astar_navmesh_free(nm);
  CHECKF(fa.bytes == 0 && fa.blocks == 0, "edits: %zu bytes leaked", fa.bytes);
  CHECK(fa.osize_mismatches == 0);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_merge_polyanya);
  RUN(test_grid_pinch);
  RUN(test_arguments);
  RUN(test_grid_random);
  RUN(test_polymap_random);
  RUN(test_radius);
  RUN(test_incremental);
  RUN(test_determinism);
  RUN(test_alloc_failures);
  return check_summary();
}
