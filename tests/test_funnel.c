/*
** test_funnel.c -- A* over a navigation mesh's polygons with the funnel
** (ASTAR_METHOD_FUNNEL, issue 30 item 3) and the finder's mesh door.
**
**   grid meshes    one unit square per free cell of random grids: every
**                  path starts and ends at the query points, each segment
**                  lies inside the mesh (walked exactly, polygon by
**                  polygon), the cost is the sum of the segments, never
**                  below Anya's length between the same cell centres (the
**                  Euclidean shortest path under the same rule: no
**                  squeezing between diagonal obstacles), and the corridor
**                  is a chain of neighbours from the start's polygon to the
**                  goal's; reachability is Anya's
**   exact cases    an open rectangle (convex: the straight segment) and
**                  random tree mazes (one corridor only): equal to Anya
**   shared meshes  ../shared/bench/navmesh/meshes: arena, aurora (triangles
**                  and merged) and the degenerate test meshes with their
**                  scenarios: inside, sums, never below a visibility-graph
**                  shortest path (written here; arena and the small ones)
**                  or the straight line, never below the expected lengths
**   search         observer events against the stats, max_expansions,
**                  stop_fn, weight, blocked ends, no path, one point, one
**                  polygon, a buffer too small
**   framework      every refusal of astar_finder_mesh_unsupported_reason,
**                  the wrong calls, non-finite points, the sliced search
**                  equal to find_points, ASTAR_STALE across a mesh edit, no
**                  allocation after warm-up, determinism
*/
#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

#include <astar/astar.h>

#include "core/workspace.h"
#include "finder/finder.h"
#include "mesh/funnel.h"
#include "mesh/mesh.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define NAVMESH_DIR "../../shared/bench/navmesh/"

/* ---- a mesh as the tests see it: polygons around each vertex -------------------- */

typedef struct tmesh {
  const astar_mesh *m;
  size_t nv, np;
  uint32_t *voff, *vcount; /* vertex i's polygons: vpoly[voff[i] .. + vcount[i]] */
  int32_t *vpoly;
  bool rounded;   /* a polygon turns right within rounding (ASTAR__MESH_TURN_TOLERANCE):
                     the exact walk cannot judge segments there */
  int32_t *vcomp; /* parallel to vpoly: polygons around a vertex joined by edges at it share
                     a number; two numbers at one vertex make it a pinch, where obstacles
                     meet and no path may pass between them */
} tmesh;

static void tmesh_init(tmesh *t, const astar_mesh *m) {
  t->m = m;
  t->nv = astar_mesh_vertex_count(m);
  t->np = astar_mesh_polygon_count(m);
  t->voff = calloc(t->nv + 1, sizeof *t->voff);
  t->vcount = calloc(t->nv + 1, sizeof *t->vcount);
  size_t total = 0;
  for (size_t i = 0; i < t->np; i++) {
    const int32_t *vs;
    const uint32_t n = astar_mesh_polygon(m, i, &vs, NULL);
    for (uint32_t k = 0; k < n; k++) t->vcount[vs[k]]++;
    total += n;
  }
  t->vpoly = malloc((total + 1) * sizeof *t->vpoly);
  for (size_t v = 0, o = 0; v < t->nv; v++) {
    t->voff[v] = (uint32_t)o;
    o += t->vcount[v];
    t->vcount[v] = 0;
  }
  for (size_t i = 0; i < t->np; i++) {
    const int32_t *vs;
    const uint32_t n = astar_mesh_polygon(m, i, &vs, NULL);
    for (uint32_t k = 0; k < n; k++) t->vpoly[t->voff[vs[k]] + t->vcount[vs[k]]++] = (int32_t)i;
  }
  t->rounded = false;
  for (size_t i = 0; i < t->np; i++) {
    const int32_t *vs;
    const uint32_t n = astar_mesh_polygon(m, i, &vs, NULL);
    for (uint32_t k = 0; k < n; k++)
      if (astar__orient2d(astar_mesh_vertex(m, (size_t)vs[(k + n - 1) % n]),
                          astar_mesh_vertex(m, (size_t)vs[k]),
                          astar_mesh_vertex(m, (size_t)vs[(k + 1) % n])) < 0)
        t->rounded = true;
  }
  /* Components around each vertex: label propagation over the neighbour
  ** links across the edges at the vertex. */
  t->vcomp = malloc((total + 1) * sizeof *t->vcomp);
  for (size_t v = 0; v < t->nv; v++) {
    int32_t *c = t->vcomp + t->voff[v];
    const int32_t *ps = t->vpoly + t->voff[v];
    const uint32_t cnt = t->vcount[v];
    for (uint32_t j = 0; j < cnt; j++) c[j] = (int32_t)j;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t j = 0; j < cnt; j++) {
        const int32_t *vs, *nb;
        const uint32_t n = astar_mesh_polygon(m, (size_t)ps[j], &vs, &nb);
        for (uint32_t k = 0; k < n; k++) {
          if (nb[k] < 0 || (vs[k] != (int32_t)v && vs[k ? k - 1 : n - 1] != (int32_t)v)) continue;
          for (uint32_t o = 0; o < cnt; o++)
            if (ps[o] == nb[k] && c[o] != c[j]) {
              const int32_t lo = c[o] < c[j] ? c[o] : c[j];
              c[o] = c[j] = lo;
              changed = true;
            }
        }
      }
    }
  }
}

/* The component of polygon p around vertex v (-1: p is not around v). */
static int32_t comp_at(const tmesh *t, int32_t v, int32_t p) {
  for (uint32_t j = 0; j < t->vcount[v]; j++)
    if (t->vpoly[t->voff[v] + j] == p) return t->vcomp[t->voff[v] + j];
  return -1;
}

static void tmesh_free(tmesh *t) {
  free(t->voff);
  free(t->vcount);
  free(t->vpoly);
  free(t->vcomp);
}

static astar_vec2 vtx(const tmesh *t, int32_t v) {
  return astar_mesh_vertex(t->m, (size_t)v);
}

static int orient(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  return astar__orient2d(a, b, c);
}

/* Is p in the closed polygon i? (exact) */
static bool poly_holds(const tmesh *t, int32_t i, astar_vec2 p) {
  const int32_t *vs;
  const uint32_t n = astar_mesh_polygon(t->m, (size_t)i, &vs, NULL);
  if (!n) return false;
  /* Its vertices first: a mesh may have turns reflex within rounding
  ** (collinear vertices rotated, mesh/mesh.h: ASTAR__MESH_TURN_TOLERANCE),
  ** whose neighbours the half-planes below would miss by 1e-16. */
  for (uint32_t k = 0; k < n; k++)
    if (vtx(t, vs[k]).x == p.x && vtx(t, vs[k]).y == p.y) return true;
  for (uint32_t k = 0; k < n; k++)
    if (orient(vtx(t, vs[k ? k - 1 : n - 1]), vtx(t, vs[k]), p) < 0) return false;
  return true;
}

/* Polygon i (holding x) holds the start of the segment x -> q: every edge
** whose line passes through x has q on its inner side. */
static bool enters(const tmesh *t, int32_t i, astar_vec2 x, astar_vec2 q) {
  const int32_t *vs;
  const uint32_t n = astar_mesh_polygon(t->m, (size_t)i, &vs, NULL);
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = vtx(t, vs[k ? k - 1 : n - 1]), b = vtx(t, vs[k]);
    if (orient(a, b, x) == 0 && orient(a, b, q) < 0) return false;
  }
  return true;
}

/* Is a beyond b along d? (a and b on one line of direction d; exact) */
static bool beyond(astar_vec2 d, astar_vec2 a, astar_vec2 b) {
  if (d.x != 0.0) return d.x > 0 ? a.x > b.x : a.x < b.x;
  return d.y > 0 ? a.y > b.y : a.y < b.y;
}

/* Walk the segment p -> q from polygon i (holding its first part): the
** polygon holding q where the walk arrives, or -1 when the segment leaves
** the polygons or passes through a pinch (Anya's and Polyanya's rule; the
** funnel's corridor, joined by edges, never does either). Exact: every
** step is an orientation test on the coordinates as given. */
static int32_t walk(const tmesh *t, int32_t i, astar_vec2 p, astar_vec2 q) {
  const astar_vec2 d = {q.x - p.x, q.y - p.y};
  for (size_t steps = 0; steps < 4 * t->np + 16; steps++) {
    if (poly_holds(t, i, q)) return i;
    const int32_t *vs, *nb;
    const uint32_t n = astar_mesh_polygon(t->m, (size_t)i, &vs, &nb);
    int s[1024];
    if (n > 1024) return -1;
    for (uint32_t k = 0; k < n; k++) s[k] = orient(p, q, vtx(t, vs[k]));
    /* The line leaves a counter-clockwise polygon where its vertices go
    ** from the right of it to the left: across an edge ... */
    int32_t next = -2;
    for (uint32_t k = 0; k < n && next == -2; k++)
      if (s[k ? k - 1 : n - 1] < 0 && s[k] > 0) next = nb[k];
    if (next == -1) return -1;
    if (next >= 0) {
      i = next;
      continue;
    }
    /* ... or at a vertex on the line: the farthest along it. */
    int32_t best = -1;
    for (uint32_t k = 0; k < n; k++)
      if (s[k] == 0 && (best < 0 || beyond(d, vtx(t, vs[k]), vtx(t, best)))) best = vs[k];
    if (best < 0) return -1;
    const astar_vec2 x = vtx(t, best);
    /* Into a polygon around it on the same side of a pinch. */
    int32_t to = -1;
    const int32_t side = comp_at(t, best, i);
    for (uint32_t j = 0; j < t->vcount[best] && to < 0; j++) {
      const int32_t c = t->vpoly[t->voff[best] + j];
      if (c != i && t->vcomp[t->voff[best] + j] == side && enters(t, c, x, q)) to = c;
    }
    if (to < 0) return -1;
    i = to;
  }
  return -1;
}

/* The segment p -> q through the mesh: the polygon where it arrives at q,
** or -1 when it leaves the mesh. p is mesh vertex pv on the side `side`
** of it (a component: the previous segment arrived there), or pv < 0: p
** anywhere, starting from any polygon holding it. */
static int32_t segment_from(const tmesh *t, astar_vec2 p, astar_vec2 q, int32_t pv, int32_t side) {
  int32_t cand[256];
  size_t nc = 0;
  if (pv >= 0) {
    for (uint32_t j = 0; j < t->vcount[pv] && nc < 256; j++)
      if (t->vcomp[t->voff[pv] + j] == side) cand[nc++] = t->vpoly[t->voff[pv] + j];
  } else {
    astar_mesh_location loc;
    if (astar_mesh_locate(t->m, p, &loc) < 0) return -1;
    if (loc.place == ASTAR_MESH_ON_VERTEX) {
      for (uint32_t j = 0; j < t->vcount[loc.vertex] && nc < 256; j++)
        cand[nc++] = t->vpoly[t->voff[loc.vertex] + j];
    } else {
      cand[nc++] = loc.polygon;
      if (loc.place == ASTAR_MESH_ON_EDGE && loc.other >= 0) cand[nc++] = loc.other;
    }
  }
  for (size_t j = 0; j < nc; j++) {
    if (!poly_holds(t, cand[j], p) || !enters(t, cand[j], p, q)) continue;
    const int32_t end = walk(t, cand[j], p, q);
    if (end >= 0) return end;
  }
  return -1;
}

/* Does the segment p -> q lie inside the mesh (from any side of p)? */
static bool segment_inside(const tmesh *t, astar_vec2 p, astar_vec2 q) {
  return segment_from(t, p, q, -1, -1) >= 0;
}

/* The mesh vertex at p, or -1. */
static int32_t vertex_at(const tmesh *t, astar_vec2 p) {
  astar_mesh_location loc;
  astar_mesh_locate(t->m, p, &loc);
  return loc.place == ASTAR_MESH_ON_VERTEX ? loc.vertex : -1;
}

static double dist(astar_vec2 a, astar_vec2 b) {
  return hypot(a.x - b.x, a.y - b.y);
}

static bool close_to(double a, double b) {
  return fabs(a - b) <= 1e-9 * (1.0 + fabs(a) + fabs(b));
}

/* ---- checking one funnel path ----------------------------------------------------- */

static double sleeve_length(const tmesh *t, const int32_t *cor, size_t nc, astar_vec2 a,
                            astar_vec2 b);

/* The last search's corridor on ws (the method scratch). */
static size_t corridor_of(astar_workspace *ws, const astar_mesh *m, int32_t *out, size_t cap) {
  const astar__fstate *s = ws->ext[ASTAR__FINDER_SLOT].state;
  return astar__funnel_corridor(s->mem, m, out, cap);
}

/* Everything a found path must satisfy; returns its own check of the cost. */
static void check_path(const tmesh *t, astar_workspace *ws, astar_vec2 a, astar_vec2 b,
                       const astar_vec2 *path, const astar_path_result *res, const char *what) {
  if (res->length < 1 || !(path[0].x == a.x && path[0].y == a.y) ||
      !(path[res->length - 1].x == b.x && path[res->length - 1].y == b.y)) {
    FAILF("%s: the path does not run from (%g, %g) to (%g, %g)", what, a.x, a.y, b.x, b.y);
    return;
  }
  if (res->length == 1 && !(a.x == b.x && a.y == b.y)) FAILF("%s: one point for two", what);
  double sum = 0.0;
  for (size_t i = 0; i + 1 < res->length; i++) sum += dist(path[i], path[i + 1]);
  if (!close_to(sum, res->cost))
    FAILF("%s: cost %.17g but the segments sum to %.17g", what, res->cost, sum);
  if (t->rounded) return;     /* the rest needs exactly convex polygons */
  int32_t pv = -1, side = -1; /* the bend the segment starts at, and its side */
  for (size_t i = 0; i + 1 < res->length; i++) {
    const int32_t end = segment_from(t, path[i], path[i + 1], pv, side);
    if (end < 0) {
      FAILF("%s: segment %zu (%.17g, %.17g) -> (%.17g, %.17g) leaves the mesh", what, i, path[i].x,
            path[i].y, path[i + 1].x, path[i + 1].y);
      break;
    }
    if (i + 2 < res->length) {
      /* A bend is a mesh vertex (a portal's end); the next segment leaves
      ** it on the side this one arrived. */
      pv = vertex_at(t, path[i + 1]);
      if (pv < 0) {
        FAILF("%s: bend %zu (%g, %g) is no mesh vertex", what, i + 1, path[i + 1].x, path[i + 1].y);
        break;
      }
      side = comp_at(t, pv, end);
    }
  }
  /* The corridor: a chain of neighbours, start's polygon to goal's. */
  int32_t cor[4096];
  const size_t nc = corridor_of(ws, t->m, cor, 4096);
  if (nc != res->abstract_length || nc == 0 || nc > 4096) {
    FAILF("%s: corridor of %zu polygons, res.abstract_length %u", what, nc, res->abstract_length);
    return;
  }
  if (!poly_holds(t, cor[0], a)) FAILF("%s: the corridor's first polygon misses the start", what);
  if (!poly_holds(t, cor[nc - 1], b))
    FAILF("%s: the corridor's last polygon misses the goal", what);
  /* The funnel's path is the shortest inside its corridor. */
  if (nc <= 60) {
    const double ref = sleeve_length(t, cor, nc, a, b);
    if (!close_to(ref, res->cost))
      FAILF("%s: funnel %.17g, the shortest path in its corridor %.17g", what, res->cost, ref);
  }
  for (size_t i = 0; i + 1 < nc; i++) {
    const int32_t *nb;
    const uint32_t n = astar_mesh_polygon(t->m, (size_t)cor[i], NULL, &nb);
    bool linked = false;
    for (uint32_t k = 0; k < n; k++) linked |= nb[k] == cor[i + 1];
    if (!linked)
      FAILF("%s: corridor polygons %d and %d are no neighbours", what, cor[i], cor[i + 1]);
    for (size_t j = 0; j < i; j++)
      if (cor[j] == cor[i]) FAILF("%s: corridor visits polygon %d twice", what, cor[i]);
  }
}

/* ---- grid meshes ------------------------------------------------------------------ */

/* One unit square per free cell of g (counter-clockwise in the coordinates
** as given: (x, y), (x+1, y), (x+1, y+1), (x, y+1)); vertices at the
** corners used. *index_of gets each cell's polygon (-1 blocked). */
static astar_mesh *grid_mesh(const astar_grid *g, int32_t **index_of) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  int32_t *vid = malloc((size_t)(w + 1) * (size_t)(h + 1) * sizeof *vid);
  astar_vec2 *v = malloc((size_t)(w + 1) * (size_t)(h + 1) * sizeof *v);
  uint32_t *sizes = malloc((size_t)w * (size_t)h * sizeof *sizes + 1);
  int32_t *pv = malloc((size_t)w * (size_t)h * 4 * sizeof *pv + 1);
  int32_t *cell = malloc((size_t)w * (size_t)h * sizeof *cell);
  for (int32_t i = 0; i < (w + 1) * (h + 1); i++) vid[i] = -1;
  size_t nv = 0, np = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      cell[y * w + x] = -1;
      if (!astar_grid_passable(g, x, y)) continue;
      const int32_t cx[4] = {x, x + 1, x + 1, x}, cy[4] = {y, y, y + 1, y + 1};
      for (int k = 0; k < 4; k++) {
        int32_t *id = &vid[cy[k] * (w + 1) + cx[k]];
        if (*id < 0) {
          *id = (int32_t)nv;
          v[nv++] = (astar_vec2){cx[k], cy[k]};
        }
        pv[np * 4 + (size_t)k] = *id;
      }
      sizes[np] = 4;
      cell[y * w + x] = (int32_t)np++;
    }
  astar_mesh *m = NULL;
  astar_mesh_fault fault;
  const astar_status st = astar_mesh_from_polygons(&m, v, nv, sizes, pv, np, NULL, &fault);
  if (st != ASTAR_OK) fprintf(stderr, "grid mesh: %s\n", fault.message);
  free(vid);
  free(v);
  free(sizes);
  free(pv);
  if (index_of)
    *index_of = cell;
  else
    free(cell);
  return m;
}

static astar_finder *mesh_finder(const astar_mesh *m, astar_method method) {
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = method;
  astar_finder *f = NULL;
  const astar_status st = astar_finder_new_mesh(&f, m, &c, NULL);
  if (st != ASTAR_OK) fprintf(stderr, "astar_finder_new_mesh: %s\n", astar_strerror(st));
  return f;
}

static astar_finder *anya_finder(const astar_grid *g) {
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_ANYA;
  astar_finder *f = NULL;
  CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_OK);
  return f;
}

static astar_vec2 centre(astar_point p) {
  return (astar_vec2){p.x + 0.5, p.y + 0.5};
}

#define PATH_CAP 4096

/* Queries between random free cells of g: funnel against Anya. `exact`:
** the lengths must be equal (one corridor only, or a convex region). */
static void grid_queries(const astar_grid *g, rng *r, int queries, bool exact, const char *what) {
  astar_mesh *m = grid_mesh(g, NULL);
  CHECK(m != NULL);
  if (!m) return;
  tmesh t;
  tmesh_init(&t, m);
  astar_finder *fun = mesh_finder(m, ASTAR_METHOD_FUNNEL), *anya = anya_finder(g);
  astar_workspace *ws = NULL, *wa = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new_empty(&wa, NULL) == ASTAR_OK);
  static astar_vec2 path[PATH_CAP], apath[PATH_CAP];
  for (int q = 0; q < queries; q++) {
    const astar_point s = randmap_passable_cell(g, r), e = randmap_passable_cell(g, r);
    if (s.x < 0) break;
    astar_path_result res, ares;
    const astar_status st =
        astar_finder_find_points(fun, ws, centre(s), centre(e), path, PATH_CAP, &res);
    const astar_status as = astar_finder_find_vec(anya, wa, s, e, apath, PATH_CAP, &ares);
    char label[160];
    snprintf(label, sizeof label, "%s query %d (%d,%d)->(%d,%d)", what, q, s.x, s.y, e.x, e.y);
    if ((st == ASTAR_OK) != (as == ASTAR_OK) || (st != ASTAR_OK && st != ASTAR_NO_PATH)) {
      FAILF("%s: funnel %s, anya %s", label, astar_strerror(st), astar_strerror(as));
      continue;
    }
    if (st != ASTAR_OK) continue;
    check_path(&t, ws, centre(s), centre(e), path, &res, label);
    if (res.cost < ares.cost * (1 - 1e-12) - 1e-12)
      FAILF("%s: funnel %.17g shorter than anya %.17g", label, res.cost, ares.cost);
    if (exact && !close_to(res.cost, ares.cost)) {
      FAILF("%s: funnel %.17g, anya %.17g on a single corridor", label, res.cost, ares.cost);
      if (getenv("FUNNEL_DEBUG")) {
        for (size_t i = 0; i < res.length; i++) fprintf(stderr, " (%g,%g)", path[i].x, path[i].y);
        fprintf(stderr, "\n anya:");
        for (size_t i = 0; i < ares.length; i++)
          fprintf(stderr, " (%g,%g)", apath[i].x, apath[i].y);
        fprintf(stderr, "\n");
        for (int32_t y = 0; y < astar_grid_height(g); y++) {
          for (int32_t x = 0; x < astar_grid_width(g); x++)
            fputc(astar_grid_passable(g, x, y) ? '.' : '#', stderr);
          fputc('\n', stderr);
        }
      }
    }
  }
  astar_workspace_free(ws);
  astar_workspace_free(wa);
  astar_finder_free(fun);
  astar_finder_free(anya);
  tmesh_free(&t);
  astar_mesh_free(m);
}

static void test_random_grids(void) {
  rng r;
  rng_seed(&r, 3001);
  for (int i = 0; i < 60; i++) {
    randmap_spec spec = {
        rng_range(&r, 2, 28), rng_range(&r, 2, 28), 0.05 + 0.35 * rng_unit(&r), 0, 0, 0};
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK || randmap_passable_cell(g, &r).x < 0) {
      astar_grid_free(g);
      continue;
    }
    char what[64];
    snprintf(what, sizeof what, "random grid %d (%dx%d)", i, spec.width, spec.height);
    grid_queries(g, &r, 40, false, what);
    astar_grid_free(g);
  }
}

/* An open rectangle: convex, but A* over the midpoints of the unit squares'
** edges finds a staircase corridor the straight segment need not fit in:
** the funnel gives the shortest path inside it (check_path), near the
** straight one. */
static void test_open_rectangle(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 17, 11, NULL) == ASTAR_OK);
  rng r;
  rng_seed(&r, 3002);
  grid_queries(g, &r, 100, false, "open rectangle");
  /* And the path is one segment. */
  astar_mesh *m = grid_mesh(g, NULL);
  astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_vec2 path[8];
  astar_path_result res;
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){0.25, 0.5}, (astar_vec2){16.5, 10.75}, path, 8,
                                 &res) == ASTAR_OK);
  CHECKF(res.cost < 1.02 * hypot(16.25, 10.25), "%.17g", res.cost);
  CHECK(res.abstract_length >= 27); /* at least the cells a monotone staircase crosses */
  /* Along one row the corridor holds the straight segment: one segment. */
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){0.25, 3.5}, (astar_vec2){16.5, 3.25}, path, 8,
                                 &res) == ASTAR_OK);
  CHECK(res.length == 2 && res.cost == hypot(16.25, 0.25));
  astar_workspace_free(ws);
  astar_finder_free(f);
  astar_mesh_free(m);
  astar_grid_free(g);
}

/* Random tree mazes: a cell joins when exactly one of its four neighbours
** is free already, so the polygons' adjacency is a tree and every query
** has one corridor: the funnel's path is the shortest. */
static void test_tree_mazes(void) {
  rng r;
  rng_seed(&r, 3003);
  for (int i = 0; i < 30; i++) {
    const int32_t w = rng_range(&r, 3, 30), h = rng_range(&r, 3, 30);
    astar_grid *g = NULL;
    CHECK(astar_grid_new(&g, w, h, NULL) == ASTAR_OK);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) astar_grid_set_passable(g, x, y, false);
    astar_grid_set_passable(g, rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1), true);
    for (int tries = 0; tries < 40 * w * h; tries++) {
      const int32_t x = rng_range(&r, 0, w - 1), y = rng_range(&r, 0, h - 1);
      if (astar_grid_passable(g, x, y)) continue;
      int free_nb = 0;
      const int32_t dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
      for (int k = 0; k < 4; k++) {
        const int32_t nx = x + dx[k], ny = y + dy[k];
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && astar_grid_passable(g, nx, ny)) free_nb++;
      }
      if (free_nb == 1) astar_grid_set_passable(g, x, y, true);
    }
    char what[64];
    snprintf(what, sizeof what, "tree maze %d (%dx%d)", i, w, h);
    grid_queries(g, &r, 40, true, what);
    astar_grid_free(g);
  }
}

/* ---- shared meshes ------------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  const long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  *len = fread(buf, 1, (size_t)n, fp);
  buf[*len] = 0;
  fclose(fp);
  return buf;
}

/* Is the shared data beside the repository? (Without it, as in a bare
** checkout, the tests on it are skipped with a note, as test_mesh does.) */
static bool have_shared(const char *test) {
  FILE *fp = fopen(NAVMESH_DIR "README.md", "r");
  if (fp) {
    fclose(fp);
    return true;
  }
  printf("note: %s not found, skipping %s\n", NAVMESH_DIR, test);
  return false;
}

static astar_mesh *read_mesh(const char *name) {
  char path[256];
  snprintf(path, sizeof path, NAVMESH_DIR "meshes/%s", name);
  size_t len;
  char *text = slurp(path, &len);
  if (!text) {
    FAILF("cannot read %s", path);
    return NULL;
  }
  astar_mesh *m = NULL;
  astar_mesh_fault fault;
  const astar_status st = astar_mesh_read(&m, text, len, NULL, &fault);
  if (st != ASTAR_OK) FAILF("%s: %s", path, fault.message);
  free(text);
  return m;
}

/* A visibility-graph shortest path (the reference): Dijkstra over the
** start, the goal and the sides of the mesh's vertices (a vertex where
** obstacles meet has a side between each two of them), an arc wherever
** the segment lies inside the mesh (segment_from: it leaves its vertex on
** its side and arrives on a side of the other). The arcs between vertices
** are walked once per mesh. No path the funnel may give is shorter: each
** of its segments is such an arc. */
typedef struct vgraph {
  const tmesh *t;
  size_t nn;     /* nodes: (vertex, side) */
  int32_t *vert; /* [nn] the node's vertex */
  int32_t *side; /* [nn] its side (a component at the vertex) */
  int32_t *node; /* [entries of vpoly] the node of each entry's side */
  int32_t *arc;  /* [nn * nv] the node reached walking to vertex b, -1 none */
  double *d;     /* [nn + 2] */
  uint8_t *done; /* [nn + 2] */
} vgraph;

static void vgraph_init(vgraph *g, const tmesh *t) {
  g->t = t;
  const size_t entries = t->nv ? t->voff[t->nv - 1] + t->vcount[t->nv - 1] : 0;
  g->node = malloc((entries + 1) * sizeof *g->node);
  g->vert = malloc((entries + 1) * sizeof *g->vert);
  g->side = malloc((entries + 1) * sizeof *g->side);
  g->nn = 0;
  for (size_t v = 0; v < t->nv; v++)
    for (uint32_t j = 0; j < t->vcount[v]; j++)
      if (t->vcomp[t->voff[v] + j] == (int32_t)j) {
        g->vert[g->nn] = (int32_t)v;
        g->side[g->nn] = (int32_t)j;
        g->nn++;
      }
  for (size_t v = 0; v < t->nv; v++)
    for (uint32_t j = 0; j < t->vcount[v]; j++) {
      const int32_t c = t->vcomp[t->voff[v] + j];
      for (size_t n = 0; n < g->nn; n++)
        if (g->vert[n] == (int32_t)v && g->side[n] == c) g->node[t->voff[v] + j] = (int32_t)n;
    }
  g->arc = malloc(g->nn * t->nv * sizeof *g->arc + 1);
  for (size_t n = 0; n < g->nn; n++)
    for (size_t b = 0; b < t->nv; b++) {
      int32_t to = -1;
      if ((int32_t)b != g->vert[n]) {
        const int32_t end =
            segment_from(t, vtx(t, g->vert[n]), vtx(t, (int32_t)b), g->vert[n], g->side[n]);
        /* (arriving in a polygon without b: at a copy of b, not b) */
        const int32_t c = end >= 0 ? comp_at(t, (int32_t)b, end) : -1;
        if (c >= 0) to = g->node[t->voff[b] + (uint32_t)c];
      }
      g->arc[n * t->nv + b] = to;
    }
  g->d = malloc((g->nn + 2) * sizeof *g->d);
  g->done = malloc(g->nn + 2);
}

static void vgraph_free(vgraph *g) {
  free(g->node);
  free(g->vert);
  free(g->side);
  free(g->arc);
  free(g->d);
  free(g->done);
}

/* The reference length from s to e; INFINITY without a path. */
static double vgraph_length(vgraph *g, astar_vec2 s, astar_vec2 e) {
  const tmesh *t = g->t;
  const size_t nn = g->nn, nv = t->nv, S = nn, E = nn + 1;
  if (segment_inside(t, s, e)) return dist(s, e);
  for (size_t v = 0; v < nn + 2; v++) {
    g->d[v] = INFINITY;
    g->done[v] = 0;
  }
  /* From the start (from any side of it). */
  for (size_t b = 0; b < nv; b++) {
    const int32_t end = segment_from(t, s, vtx(t, (int32_t)b), -1, -1);
    const int32_t c = end >= 0 ? comp_at(t, (int32_t)b, end) : -1;
    if (c < 0) continue;
    const int32_t n = g->node[t->voff[b] + (uint32_t)c];
    const double nd = dist(s, vtx(t, (int32_t)b));
    if (nd < g->d[n]) g->d[n] = nd;
  }
  g->done[S] = 1;
  for (;;) {
    size_t u = SIZE_MAX;
    for (size_t v = 0; v < nn + 2; v++)
      if (!g->done[v] && isfinite(g->d[v]) && (u == SIZE_MAX || g->d[v] < g->d[u])) u = v;
    if (u == SIZE_MAX || u == E) break;
    g->done[u] = 1;
    const astar_vec2 pu = vtx(t, g->vert[u]);
    for (size_t b = 0; b < nv; b++) {
      const int32_t n = g->arc[u * nv + b];
      if (n < 0 || g->done[n]) continue;
      const double nd = g->d[u] + dist(pu, vtx(t, (int32_t)b));
      if (nd < g->d[n]) g->d[n] = nd;
    }
    if (segment_from(t, pu, e, g->vert[u], g->side[u]) >= 0) {
      const double nd = g->d[u] + dist(pu, e);
      if (nd < g->d[E]) g->d[E] = nd;
    }
  }
  return g->d[E];
}

/* The shortest path from a to b inside a corridor (the reference for the
** funnel): a mesh of the corridor's polygons alone, consecutive ones
** sharing their portal and nothing else (each polygon's other vertices
** are copies of its own), searched by the visibility graph. */
static double sleeve_length(const tmesh *t, const int32_t *cor, size_t nc, astar_vec2 a,
                            astar_vec2 b) {
  size_t total = 0;
  for (size_t i = 0; i < nc; i++) total += astar_mesh_polygon(t->m, (size_t)cor[i], NULL, NULL);
  astar_vec2 *v = malloc(total * sizeof *v);
  int32_t *pv = malloc(total * sizeof *pv), *prev_ids = NULL, *ids = NULL;
  uint32_t *sizes = malloc(nc * sizeof *sizes);
  size_t nv = 0, o = 0;
  const int32_t *prev_vs = NULL;
  uint32_t prev_n = 0;
  for (size_t i = 0; i < nc; i++) {
    const int32_t *vs;
    const uint32_t n = astar_mesh_polygon(t->m, (size_t)cor[i], &vs, NULL);
    ids = malloc(n * sizeof *ids);
    for (uint32_t k = 0; k < n; k++) {
      ids[k] = -1;
      /* The portal with the previous polygon: its two vertices, shared. */
      for (uint32_t j = 0; j < prev_n && i > 0; j++) {
        if (prev_vs[j] != vs[k]) continue;
        const int32_t *nb;
        (void)astar_mesh_polygon(t->m, (size_t)cor[i - 1], NULL, &nb);
        /* vs[k] is an end of the edge to cor[i] in cor[i-1]: edge j or j+1. */
        if (nb[j] == cor[i] || nb[(j + 1) % prev_n] == cor[i]) ids[k] = prev_ids[j];
      }
      if (ids[k] < 0) {
        ids[k] = (int32_t)nv;
        v[nv++] = vtx(t, vs[k]);
      }
      pv[o++] = ids[k];
    }
    sizes[i] = n;
    free(prev_ids);
    prev_ids = ids;
    prev_vs = vs;
    prev_n = n;
  }
  free(prev_ids);
  astar_mesh *m = NULL;
  astar_mesh_fault fault;
  double len = NAN;
  if (astar_mesh_from_polygons(&m, v, nv, sizes, pv, nc, NULL, &fault) == ASTAR_OK) {
    tmesh st;
    tmesh_init(&st, m);
    vgraph g;
    vgraph_init(&g, &st);
    len = vgraph_length(&g, a, b);
    vgraph_free(&g);
    tmesh_free(&st);
    astar_mesh_free(m);
  } else {
    fprintf(stderr, "sleeve: %s\n", fault.message);
  }
  free(v);
  free(pv);
  free(sizes);
  return len;
}

/* One query on a shared mesh: the path's checks, and never below `lower`. */
static void shared_query(const tmesh *t, const astar_finder *f, astar_workspace *ws, astar_vec2 a,
                         astar_vec2 b, double lower, const char *what) {
  static astar_vec2 path[PATH_CAP];
  astar_path_result res;
  const astar_status st = astar_finder_find_points(f, ws, a, b, path, PATH_CAP, &res);
  if (!isfinite(lower) || (t->rounded && st == ASTAR_NO_PATH)) {
    /* No reference path (or, on a rounded mesh, only the straight line). */
    if (st != ASTAR_NO_PATH) FAILF("%s: %s where the reference has none", what, astar_strerror(st));
    return;
  }
  if (st != ASTAR_OK) {
    FAILF("%s: %s where the reference has %.17g", what, astar_strerror(st), lower);
    return;
  }
  check_path(t, ws, a, b, path, &res, what);
  if (res.cost < lower * (1 - 1e-12) - 1e-12)
    FAILF("%s: funnel %.17g below the reference %.17g", what, res.cost, lower);
}

/* A Moving AI scenario file's queries (start and goal cell coordinates
** taken as points), every `every`-th one. */
static int scen_queries(const char *name, int every, double (*q)[5], int cap) {
  char path[256];
  snprintf(path, sizeof path, NAVMESH_DIR "scenarios/%s", name);
  FILE *fp = fopen(path, "r");
  if (!fp) {
    FAILF("cannot read %s", path);
    return 0;
  }
  char line[512];
  int n = 0, i = 0;
  while (fgets(line, sizeof line, fp) && n < cap) {
    int bucket, w, h;
    char map[256];
    double sx, sy, gx, gy, opt;
    if (sscanf(line, "%d %255s %d %d %lf %lf %lf %lf %lf", &bucket, map, &w, &h, &sx, &sy, &gx, &gy,
               &opt) != 9)
      continue;
    if (i++ % every) continue;
    q[n][0] = sx, q[n][1] = sy, q[n][2] = gx, q[n][3] = gy, q[n][4] = opt;
    n++;
  }
  fclose(fp);
  return n;
}

static void test_arena(void) {
  if (!have_shared("test_arena")) return;
  static double q[4096][5];
  const int nq = scen_queries("arena.scen", 1, q, 4096);
  CHECK(nq > 50);
  const char *const names[] = {"arena.mesh", "arena-merged.mesh"};
  for (int k = 0; k < 2; k++) {
    astar_mesh *m = read_mesh(names[k]);
    if (!m) continue;
    tmesh t;
    tmesh_init(&t, m);
    vgraph vg;
    vgraph_init(&vg, &t);
    astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    int paths = 0;
    for (int i = 0; i < nq; i++) {
      const astar_vec2 a = {q[i][0], q[i][1]}, b = {q[i][2], q[i][3]};
      if (astar_mesh_locate(m, a, NULL) < 0 || astar_mesh_locate(m, b, NULL) < 0) continue;
      char what[96];
      snprintf(what, sizeof what, "%s query %d", names[k], i);
      const double ref = vgraph_length(&vg, a, b);
      paths += isfinite(ref);
      shared_query(&t, f, ws, a, b, ref, what);
    }
    CHECK(paths > 50);
    astar_workspace_free(ws);
    astar_finder_free(f);
    vgraph_free(&vg);
    tmesh_free(&t);
    astar_mesh_free(m);
  }
}

static void test_aurora(void) {
  if (!have_shared("test_aurora")) return;
  static double q[4096][5];
  const int nq = scen_queries("aurora.scen", 25, q, 4096);
  CHECK(nq > 60);
  const char *const names[] = {"aurora.mesh", "aurora-merged.mesh"};
  for (int k = 0; k < 2; k++) {
    astar_mesh *m = read_mesh(names[k]);
    if (!m) continue;
    tmesh t;
    tmesh_init(&t, m);
    astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    int found = 0;
    for (int i = 0; i < nq; i++) {
      const astar_vec2 a = {q[i][0], q[i][1]}, b = {q[i][2], q[i][3]};
      if (astar_mesh_locate(m, a, NULL) < 0 || astar_mesh_locate(m, b, NULL) < 0) continue;
      char what[96];
      snprintf(what, sizeof what, "%s query %d", names[k], i);
      /* The straight line is the bound here (a visibility graph of 35,000
      ** vertices is too slow for the quick suite). */
      static astar_vec2 path[PATH_CAP];
      astar_path_result res;
      const astar_status st = astar_finder_find_points(f, ws, a, b, path, PATH_CAP, &res);
      if (st == ASTAR_NO_PATH) continue;
      found++;
      shared_query(&t, f, ws, a, b, dist(a, b), what);
    }
    CHECK(found > 60);
    astar_workspace_free(ws);
    astar_finder_free(f);
    tmesh_free(&t);
    astar_mesh_free(m);
  }
}

/* The bound a funnel path is checked against: the visibility graph's
** length, or on a mesh with turns reflex within rounding (where the exact
** walk cannot judge) the straight line. */
static double reference(const tmesh *t, vgraph *vg, astar_vec2 a, astar_vec2 b) {
  return t->rounded ? dist(a, b) : vgraph_length(vg, a, b);
}

/* The degenerate meshes: the scenario's expected length is the optimum
** (-1: Polyanya finds no path -- the funnel may, through a point where
** obstacles meet, which the expected answer forbids), and the
** visibility-graph bound. */
static void test_degenerate_meshes(void) {
  if (!have_shared("test_degenerate_meshes")) return;
  const char *const names[] = {"square",
                               "bad-ambig",
                               "bad-collinear",
                               "bad-collinear2-rot0",
                               "bad-collinear2-rot45",
                               "bad-collinear2-rot90",
                               "hard"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    char file[128];
    snprintf(file, sizeof file, "tests/%s.mesh", names[k]);
    astar_mesh *m = read_mesh(file);
    if (!m) continue;
    tmesh t;
    tmesh_init(&t, m);
    vgraph vg;
    vgraph_init(&vg, &t);
    astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    /* The scenario's queries, then random points of the bounding box. */
    static double q[256][5];
    char scen[128];
    snprintf(scen, sizeof scen, "tests/%s.scen", names[k]);
    FILE *probe = fopen(NAVMESH_DIR "scenarios/tests/hard.scen", "r");
    const bool has_scen = strcmp(names[k], "hard") != 0 || probe;
    if (probe) fclose(probe);
    const int nq = has_scen ? scen_queries(scen, 1, q, 256) : 0;
    for (int i = 0; i < nq; i++) {
      const astar_vec2 a = {q[i][0], q[i][1]}, b = {q[i][2], q[i][3]};
      char what[96];
      snprintf(what, sizeof what, "%s scenario %d", names[k], i);
      if (astar_mesh_locate(m, a, NULL) < 0 || astar_mesh_locate(m, b, NULL) < 0) continue;
      shared_query(&t, f, ws, a, b, reference(&t, &vg, a, b), what);
      /* The expected optimum (-1: none, see above), as the file gives it:
      ** rounded (bad-ambig's 4 is 3.98...). */
      static astar_vec2 path[PATH_CAP];
      astar_path_result res;
      if (q[i][4] >= 0 &&
          (astar_finder_find_points(f, ws, a, b, path, PATH_CAP, &res) != ASTAR_OK ||
           res.cost < q[i][4] * (1 - 1e-2)))
        FAILF("%s: funnel %.17g, the optimum %.17g", what, res.cost, q[i][4]);
    }
    rng r;
    rng_seed(&r, 3004 + k);
    astar_vec2 lo, hi;
    astar_mesh_bounds(m, &lo, &hi);
    int tried = 0;
    for (int i = 0; i < 4000 && tried < 150; i++) {
      const astar_vec2 a = {lo.x + (hi.x - lo.x) * rng_unit(&r),
                            lo.y + (hi.y - lo.y) * rng_unit(&r)};
      const astar_vec2 b = {lo.x + (hi.x - lo.x) * rng_unit(&r),
                            lo.y + (hi.y - lo.y) * rng_unit(&r)};
      if (astar_mesh_locate(m, a, NULL) < 0 || astar_mesh_locate(m, b, NULL) < 0) continue;
      tried++;
      char what[96];
      snprintf(what, sizeof what, "%s random %d", names[k], i);
      shared_query(&t, f, ws, a, b, reference(&t, &vg, a, b), what);
    }
    /* And between vertices: every path bending at the ends of portals. */
    for (size_t a = 0; a < t.nv; a += 1 + t.nv / 12)
      for (size_t b = 0; b < t.nv; b += 1 + t.nv / 12) {
        char what[96];
        snprintf(what, sizeof what, "%s vertices %zu -> %zu", names[k], a, b);
        shared_query(&t, f, ws, vtx(&t, (int32_t)a), vtx(&t, (int32_t)b),
                     reference(&t, &vg, vtx(&t, (int32_t)a), vtx(&t, (int32_t)b)), what);
      }
    astar_workspace_free(ws);
    astar_finder_free(f);
    vgraph_free(&vg);
    tmesh_free(&t);
    astar_mesh_free(m);
  }
}

/* ---- the search's own behaviour ----------------------------------------------------- */

static const char *const maze_rows[] = {
    "..........", ".########.", ".#......#.", ".#.####.#.", ".#.#..#.#.",
    "...#..#...", "####..####", "..........", ".########.", "#..#...#.#",
};

/* A small maze's unit-square mesh (and its grid). */
static astar_mesh *maze_mesh(astar_grid **grid) {
  astar_grid *g = randmap_from_rows(maze_rows, 10, '#');
  astar_mesh *m = grid_mesh(g, NULL);
  if (grid)
    *grid = g;
  else
    astar_grid_free(g);
  return m;
}

typedef struct events {
  int n, push, expand, goal, bad;
  int first_push;           /* PUSH events of nodes not seen before */
  double weight;            /* 0: not checked; else h must be weight x the straight line */
  astar_vec2 goal_point;    /* (with weight) */
  astar_vec2 seen[4096][2]; /* roots and left ends pushed so far (first_push) */
  int nseen;
  uint64_t last_expanded;
  astar_mesh_event last;
  const astar_mesh *m;
} events;

static void on_event(void *ctx, const astar_mesh_event *e) {
  events *ev = ctx;
  ev->n++;
  if (ev->goal) ev->bad++; /* GOAL is the last event */
  if (e->type == ASTAR_EVENT_PUSH)
    ev->push++;
  else if (e->type == ASTAR_EVENT_EXPAND)
    ev->expand++;
  else if (e->type == ASTAR_EVENT_GOAL)
    ev->goal++;
  else
    ev->bad++;
  if (e->polygon < 0 || (size_t)e->polygon >= astar_mesh_polygon_count(ev->m)) ev->bad++;
  if (!close_to(e->f, e->g + e->h) || e->h < 0 || e->g < 0) ev->bad++;
  if (e->expanded < ev->last_expanded) ev->bad++;
  if (ev->weight > 0 && !close_to(e->h, ev->weight * dist(e->root, ev->goal_point))) ev->bad++;
  /* A portal node stands for the middle of its edge. */
  if (!(e->left.x == e->right.x && e->left.y == e->right.y) &&
      !(e->root.x == 0.5 * (e->left.x + e->right.x) && e->root.y == 0.5 * (e->left.y + e->right.y)))
    ev->bad++;
  ev->last_expanded = e->expanded;
  ev->last = *e;
}

static astar_finder *funnel_with(const astar_mesh *m, const astar_finder_config *base) {
  astar_finder_config c = *base;
  c.method = ASTAR_METHOD_FUNNEL;
  astar_finder *f = NULL;
  const astar_status st = astar_finder_new_mesh(&f, m, &c, NULL);
  CHECKF(st == ASTAR_OK, "%s", astar_strerror(st));
  return f;
}

static bool stop_at_first(void *ctx) {
  int *calls = ctx;
  ++*calls;
  return true;
}

static bool never_stop(void *ctx) {
  int *calls = ctx;
  ++*calls;
  return false;
}

/* The A*'s answer, by brute force: Dijkstra over the directed portals (a
** polygon left through one of its edges), the start and the goal, g along
** the middles of the portals (astar/finder.h, the funnel method). The
** shortest g from a to b, INFINITY when none. */
static double midpoint_optimum(const tmesh *t, astar_vec2 a, astar_vec2 b) {
  astar_mesh_location la, lb;
  if (astar_mesh_locate(t->m, a, &la) < 0 || astar_mesh_locate(t->m, b, &lb) < 0) return NAN;
  /* Nodes: (polygon, edge) pairs numbered in order, then the goal. */
  size_t n = 0;
  size_t *first = malloc((t->np + 1) * sizeof *first);
  for (size_t i = 0; i < t->np; i++) {
    first[i] = n;
    n += astar_mesh_polygon(t->m, i, NULL, NULL);
  }
  first[t->np] = n;
  const size_t goal = n;
  double *d = malloc((n + 1) * sizeof *d);
  uint8_t *done = calloc(n + 1, 1);
  for (size_t i = 0; i <= n; i++) d[i] = INFINITY;
  bool *holds_a = calloc(t->np, 1), *holds_b = calloc(t->np, 1);
  for (size_t i = 0; i < t->np; i++) {
    holds_a[i] = poly_holds(t, (int32_t)i, a);
    holds_b[i] = poly_holds(t, (int32_t)i, b);
  }
  double result = INFINITY;
  for (size_t i = 0; i < t->np; i++)
    if (holds_a[i] && holds_b[i]) result = dist(a, b);
/* Leaving polygon p through edge k from point x with g. */
#define RELAX(p, pt, g0)                                                                           \
  do {                                                                                             \
    const int32_t *vs_, *nb_;                                                                      \
    const uint32_t n_ = astar_mesh_polygon(t->m, (size_t)(p), &vs_, &nb_);                         \
    for (uint32_t k_ = 0; k_ < n_; k_++) {                                                         \
      if (nb_[k_] < 0 || holds_a[nb_[k_]]) continue;                                               \
      const astar_vec2 l_ = vtx(t, vs_[k_]), r_ = vtx(t, vs_[k_ ? k_ - 1 : n_ - 1]);               \
      const astar_vec2 m_ = {0.5 * (l_.x + r_.x), 0.5 * (l_.y + r_.y)};                            \
      const double nd_ = (g0) + dist((pt), m_);                                                    \
      if (nd_ < d[first[p] + k_]) d[first[p] + k_] = nd_;                                          \
    }                                                                                              \
  } while (0)
  if (isinf(result)) {
    for (size_t i = 0; i < t->np; i++)
      if (holds_a[i]) RELAX(i, a, 0.0);
    for (;;) {
      size_t u = SIZE_MAX;
      for (size_t v = 0; v <= n; v++)
        if (!done[v] && isfinite(d[v]) && (u == SIZE_MAX || d[v] < d[u])) u = v;
      if (u == SIZE_MAX) break;
      if (u == goal) {
        result = d[u];
        break;
      }
      done[u] = 1;
      size_t p = 0;
      while (first[p + 1] <= u) p++;
      const int32_t *vs, *nb;
      const uint32_t pn = astar_mesh_polygon(t->m, p, &vs, &nb);
      const uint32_t k = (uint32_t)(u - first[p]);
      const astar_vec2 l = vtx(t, vs[k]), r = vtx(t, vs[k ? k - 1 : pn - 1]);
      const astar_vec2 mid = {0.5 * (l.x + r.x), 0.5 * (l.y + r.y)};
      const int32_t into = nb[k];
      if (holds_b[into]) {
        if (d[u] + dist(mid, b) < d[goal]) d[goal] = d[u] + dist(mid, b);
        continue;
      }
      RELAX(into, mid, d[u]);
    }
  }
#undef RELAX
  free(first);
  free(d);
  free(done);
  free(holds_a);
  free(holds_b);
  return result;
}

/* The search itself on random grid meshes: the goal's g (its GOAL event)
** is the midpoint polyline of the corridor returned and the brute-force
** optimum of the A*'s graph; the observer's counts are the stats; h is
** weight times the straight line. */
static void test_search_graph(void) {
  rng r;
  rng_seed(&r, 3007);
  int compared = 0, lowered = 0;
  for (int map = 0; map < 12; map++) {
    randmap_spec spec = {rng_range(&r, 5, 18), rng_range(&r, 5, 18), 0.3, 0, 0, 0};
    astar_grid *g = NULL;
    if (randmap_make(&g, &spec, &r) != ASTAR_OK || randmap_passable_cell(g, &r).x < 0) {
      astar_grid_free(g);
      continue;
    }
    astar_mesh *m = grid_mesh(g, NULL);
    tmesh t;
    tmesh_init(&t, m);
    astar_workspace *ws = NULL;
    CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
    for (int q = 0; q < 20; q++) {
      const astar_point sc = randmap_passable_cell(g, &r), ec = randmap_passable_cell(g, &r);
      /* Cell centres, and now and then a corner of the goal's cell. */
      const astar_vec2 a = centre(sc),
                       b = q % 3 ? centre(ec)
                                 : (astar_vec2){ec.x + (q & 1), ec.y + (q & 4 ? 1 : 0)};
      const double w = q % 4 == 1 ? 2.0 : 1.0;
      astar_finder_config c;
      astar_finder_config_init(&c);
      events ev = {0};
      ev.m = m;
      ev.weight = w;
      ev.goal_point = b;
      c.engine.weight = w;
      astar_finder *f = funnel_with(m, &c);
      CHECK(astar_finder_set_mesh_observer(f, on_event, &ev) == ASTAR_OK);
      static astar_vec2 path[PATH_CAP];
      astar_path_result res;
      const astar_status st = astar_finder_find_points(f, ws, a, b, path, PATH_CAP, &res);
      astar_finder_free(f);
      if (st != ASTAR_OK || res.stats.expanded == 0) continue;
      char what[96];
      snprintf(what, sizeof what, "map %d query %d", map, q);
      check_path(&t, ws, a, b, path, &res, what);
      CHECKF(ev.bad == 0 && ev.goal == 1, "%s: %d bad events", what, ev.bad);
      CHECK_EQ((uint64_t)ev.push, res.stats.generated);
      CHECK_EQ((uint64_t)(ev.expand + ev.goal), res.stats.expanded);
      lowered += res.stats.generated > (uint64_t)ev.first_push;
      /* The goal's g is the midpoint polyline of the corridor. */
      int32_t cor[4096];
      const size_t nc = corridor_of(ws, m, cor, 4096);
      double g_mid = 0.0;
      astar_vec2 at = a;
      for (size_t i = 0; i + 1 < nc; i++) {
        const int32_t *vs, *nb;
        const uint32_t pn = astar_mesh_polygon(m, (size_t)cor[i], &vs, &nb);
        for (uint32_t k = 0; k < pn; k++)
          if (nb[k] == cor[i + 1]) {
            const astar_vec2 l = vtx(&t, vs[k]), rr = vtx(&t, vs[k ? k - 1 : pn - 1]);
            const astar_vec2 mid = {0.5 * (l.x + rr.x), 0.5 * (l.y + rr.y)};
            g_mid += dist(at, mid);
            at = mid;
            break;
          }
      }
      g_mid += dist(at, b);
      CHECKF(close_to(ev.last.g, g_mid), "%s: goal g %.17g, the corridor's midpoints %.17g", what,
             ev.last.g, g_mid);
      if (w == 1.0) {
        const double opt = midpoint_optimum(&t, a, b);
        CHECKF(close_to(ev.last.g, opt), "%s: goal g %.17g, the optimum %.17g", what, ev.last.g,
               opt);
        compared++;
      }
    }
    astar_workspace_free(ws);
    tmesh_free(&t);
    astar_mesh_free(m);
    astar_grid_free(g);
  }
  CHECK(compared > 50);
  CHECK(lowered > 0); /* some searches lowered an open node (a PUSH again) */
}

static void test_search(void) {
  astar_mesh *m = maze_mesh(NULL);
  tmesh t;
  tmesh_init(&t, m);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_vec2 path[256];
  astar_path_result res;
  const astar_vec2 a = {4.5, 4.5}, b = {0.25, 9.75 - 2.0}; /* inside the spiral, lower left */

  /* The observer sees every push and expansion, the goal last. */
  astar_finder_config c;
  astar_finder_config_init(&c);
  events ev = {0};
  ev.m = m;
  astar_finder *f = funnel_with(m, &c);
  CHECK(astar_finder_set_mesh_observer(f, on_event, &ev) == ASTAR_OK);
  CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_OK);
  check_path(&t, ws, a, b, path, &res, "maze");
  CHECK(ev.bad == 0);
  CHECK(ev.goal == 1);
  CHECK_EQ((uint64_t)ev.push, res.stats.generated);
  CHECK_EQ((uint64_t)(ev.expand + ev.goal), res.stats.expanded);
  CHECK(ev.last.type == ASTAR_EVENT_GOAL && ev.last.root.x == b.x && ev.last.root.y == b.y);
  CHECK(res.work == res.stats.expanded && res.stats.max_open >= 1 && res.stats.reopened == 0);
  CHECK(res.abstract_length >= 4);
  const astar_path_result full = res;
  astar_finder_free(f);

  /* max_expansions: one short is ASTAR_LIMIT_REACHED, exactly enough finds it. */
  astar_finder_config_init(&c);
  c.engine.max_expansions = full.stats.expanded;
  f = funnel_with(m, &c);
  CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_OK);
  CHECK(res.cost == full.cost);
  astar_finder_free(f);
  c.engine.max_expansions = full.stats.expanded - 1;
  f = funnel_with(m, &c);
  CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_LIMIT_REACHED);
  CHECK(res.status == ASTAR_LIMIT_REACHED && res.length == 0 && res.cost == 0);
  CHECK_EQ(res.stats.expanded, full.stats.expanded - 1);
  astar_finder_free(f);

  /* stop_fn: polled every stop_interval expansions. */
  astar_finder_config_init(&c);
  int calls = 0;
  c.engine.stop_fn = stop_at_first;
  c.engine.stop_ctx = &calls;
  c.engine.stop_interval = 3;
  f = funnel_with(m, &c);
  CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_STOPPED);
  CHECK(calls == 1 && res.stats.expanded == 3);
  astar_finder_free(f);
  calls = 0;
  c.engine.stop_fn = never_stop;
  c.engine.stop_interval = 1;
  f = funnel_with(m, &c);
  CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_OK);
  CHECK(res.cost == full.cost);
  CHECK_EQ((uint64_t)calls, full.stats.expanded - 1);
  astar_finder_free(f);

  /* weight: 0 is Dijkstra (no fewer expansions), 4 is greedier; both give
  ** paths inside the mesh. */
  const double weights[] = {0.0, 4.0};
  for (int i = 0; i < 2; i++) {
    astar_finder_config_init(&c);
    c.engine.weight = weights[i];
    f = funnel_with(m, &c);
    CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_OK);
    check_path(&t, ws, a, b, path, &res, i ? "weight 4" : "weight 0");
    if (i == 0) CHECK(res.stats.expanded >= full.stats.expanded);
    if (i == 1) CHECK(res.stats.expanded <= full.stats.expanded);
    astar_finder_free(f);
  }

  astar_finder_config_init(&c);
  f = funnel_with(m, &c);
  /* Blocked ends: the start is looked at first. */
  const astar_vec2 wall = {1.5, 1.5}, off = {-3, 2};
  CHECK(astar_finder_find_points(f, ws, wall, b, path, 256, &res) == ASTAR_START_BLOCKED);
  CHECK(res.status == ASTAR_START_BLOCKED && res.length == 0);
  CHECK(astar_finder_find_points(f, ws, a, off, path, 256, &res) == ASTAR_GOAL_BLOCKED);
  CHECK(astar_finder_find_points(f, ws, off, wall, path, 256, &res) == ASTAR_START_BLOCKED);
  /* No path: the pocket at the bottom left is cut off. */
  CHECK(astar_finder_find_points(f, ws, a, (astar_vec2){1.5, 9.5}, path, 256, &res) ==
        ASTAR_NO_PATH);
  CHECK(res.length == 0 && res.abstract_length == 0 && res.stats.expanded > 0);
  /* One point; one polygon: the segment, no search. */
  CHECK(astar_finder_find_points(f, ws, a, a, path, 256, &res) == ASTAR_OK);
  CHECK(res.length == 1 && res.cost == 0 && res.abstract_length == 1 && path[0].x == a.x);
  CHECK(astar_finder_find_points(f, ws, a, (astar_vec2){4.0, 4.75}, path, 256, &res) == ASTAR_OK);
  CHECK(res.length == 2 && res.cost == hypot(0.5, 0.25) && res.abstract_length == 1);
  CHECK(res.stats.expanded == 0);
  /* Two cells sharing an edge; a corner shared by four cells. */
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){4.5, 4.5}, (astar_vec2){5.5, 5.5}, path, 256,
                                 &res) == ASTAR_OK);
  CHECK(res.length == 2 && res.cost == hypot(1, 1));
  check_path(&t, ws, (astar_vec2){4.5, 4.5}, (astar_vec2){5.5, 5.5}, path, &res, "corner");
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){5, 5}, (astar_vec2){9.5, 8.5}, path, 256,
                                 &res) == ASTAR_OK);
  check_path(&t, ws, (astar_vec2){5, 5}, (astar_vec2){9.5, 8.5}, path, &res, "from a vertex");
  CHECK(astar_finder_find_points(f, ws, (astar_vec2){5, 5}, (astar_vec2){0.5, 0.5}, path, 256,
                                 &res) == ASTAR_NO_PATH);
  /* A goal on a vertex is in every polygon around it: the corridor ends in
  ** the first one reached (here the cell above the start's), not in the
  ** smallest-index one; the same for a start on a vertex. */
  {
    astar_grid *open = NULL;
    CHECK(astar_grid_new(&open, 3, 3, NULL) == ASTAR_OK);
    astar_mesh *om = grid_mesh(open, NULL);
    astar_finder *of = mesh_finder(om, ASTAR_METHOD_FUNNEL);
    CHECK(astar_finder_find_points(of, ws, (astar_vec2){0.5, 2.5}, (astar_vec2){1, 1}, path, 256,
                                   &res) == ASTAR_OK);
    CHECK(res.abstract_length == 2 && res.length == 2);
    CHECK(astar_finder_find_points(of, ws, (astar_vec2){1, 1}, (astar_vec2){1.5, 1.5}, path, 256,
                                   &res) == ASTAR_OK);
    CHECK(res.abstract_length == 1 && res.length == 2 && res.stats.expanded == 0);
    CHECK(astar_finder_find_points(of, ws, (astar_vec2){1, 1}, (astar_vec2){2.5, 0.5}, path, 256,
                                   &res) == ASTAR_OK);
    CHECK(res.abstract_length == 2 && res.length == 2);
    astar_finder_free(of);
    astar_mesh_free(om);
    astar_grid_free(open);
  }
  /* A buffer too small: the length needed and the cost, nothing beyond cap. */
  CHECK(astar_finder_find_points(f, ws, a, b, path, 256, &res) == ASTAR_OK);
  const size_t len = res.length;
  CHECK(len >= 3);
  astar_vec2 small[3] = {{-7, -7}, {-7, -7}, {-7, -7}};
  CHECK(astar_finder_find_points(f, ws, a, b, small, 2, &res) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length == len && res.cost == full.cost && small[2].x == -7);
  CHECK(astar_finder_find_points(f, ws, a, b, NULL, 0, &res) == ASTAR_BUFFER_TOO_SMALL);
  CHECK(res.length == len);
  astar_finder_free(f);
  astar_workspace_free(ws);
  tmesh_free(&t);
  astar_mesh_free(m);
}

/* ---- the finder's mesh door ----------------------------------------------------------- */

static void expect_mesh_refused(const astar_mesh *m, const astar_finder_config *c,
                                const char *what) {
  const char *why = astar_finder_mesh_unsupported_reason(m, c);
  CHECKF(why != NULL, "%s accepted", what);
  astar_finder *f = (astar_finder *)1;
  const astar_status st = astar_finder_new_mesh(&f, m, c, NULL);
  CHECKF(st == ASTAR_UNSUPPORTED && f == NULL, "%s: %s", what, astar_strerror(st));
}

static void ignore_engine_event(void *ctx, const astar_engine_event *e) {
  (void)ctx, (void)e;
}

static void test_refusals(void) {
  astar_grid *g = NULL;
  astar_mesh *m = maze_mesh(&g);
  static int dummy;
  astar_finder_config c;
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FUNNEL;
  CHECK(astar_finder_mesh_unsupported_reason(m, &c) == NULL);
  /* What a mesh finder takes: the limit, stop_fn, weight. */
  c.engine.max_expansions = 5;
  c.engine.stop_fn = never_stop;
  c.engine.weight = 2;
  CHECK(astar_finder_mesh_unsupported_reason(m, &c) == NULL);
  /* Attachments, units, smoothing, partial paths, the engine's observer. */
  const astar_finder_config base = c;
  c.jps_plus = (const astar_jps_plus *)&dummy;
  expect_mesh_refused(m, &c, "jps_plus");
  c = base;
  c.cpd = (const astar_cpd *)&dummy;
  expect_mesh_refused(m, &c, "cpd");
  c = base;
  c.hpa = (const astar_hpa *)&dummy;
  expect_mesh_refused(m, &c, "hpa");
  c = base;
  c.landmarks = (const astar_landmarks *)&dummy;
  expect_mesh_refused(m, &c, "landmarks");
  c = base;
  c.table = (const astar_waypoint_table *)&dummy;
  expect_mesh_refused(m, &c, "table");
  c = base;
  c.waypoints = (const astar_waypoints *)&dummy;
  expect_mesh_refused(m, &c, "waypoints");
  c = base;
  c.unit_size = 2;
  expect_mesh_refused(m, &c, "unit_size");
  c = base;
  c.capability = 1;
  expect_mesh_refused(m, &c, "capability");
  c = base;
  c.clearance = (const astar_clearance *)&dummy;
  expect_mesh_refused(m, &c, "clearance");
  c = base;
  c.smooth = true;
  expect_mesh_refused(m, &c, "smooth");
  c = base;
  c.engine.partial = true;
  expect_mesh_refused(m, &c, "partial");
  c = base;
  c.engine.observer = ignore_engine_event;
  expect_mesh_refused(m, &c, "engine observer");
  /* Every method of the table: the mesh ones on a mesh only. */
  for (int i = 0; i < ASTAR_METHOD_COUNT; i++) {
    const astar_method_info *info = astar_method_info_of((astar_method)i);
    astar_finder_config_init(&c);
    c.method = (astar_method)i;
    const bool mesh = (info->flags & ASTAR_MF_MESH) != 0;
    if (!mesh) expect_mesh_refused(m, &c, info->name);
    if (mesh) {
      CHECKF(astar_finder_unsupported_reason(g, NULL, &c) != NULL, "%s on a grid", info->name);
      astar_finder *f = (astar_finder *)1;
      CHECK(astar_finder_new(&f, g, &c, NULL) == ASTAR_UNSUPPORTED && f == NULL);
      astar_grid_space holder;
      astar_space sp;
      CHECK(astar_grid_space_init(&sp, &holder, g, NULL) == ASTAR_OK);
      CHECKF(astar_finder_unsupported_reason(NULL, &sp, &c) != NULL, "%s on a space", info->name);
      f = (astar_finder *)1;
      CHECK(astar_finder_new_space(&f, &sp, &c, NULL) == ASTAR_UNSUPPORTED && f == NULL);
    }
  }
  /* The mesh observer on a grid finder, or no finder. */
  {
    astar_finder_config_init(&c);
    astar_finder *gf = NULL;
    CHECK(astar_finder_new(&gf, g, &c, NULL) == ASTAR_OK);
    CHECK(astar_finder_set_mesh_observer(gf, on_event, NULL) == ASTAR_INVALID_ARGUMENT);
    CHECK(astar_finder_set_mesh_observer(NULL, on_event, NULL) == ASTAR_INVALID_ARGUMENT);
    astar_finder_free(gf);
  }
  /* No mesh, no config; bad values. */
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FUNNEL;
  CHECK(astar_finder_mesh_unsupported_reason(NULL, &c) != NULL);
  CHECK(astar_finder_mesh_unsupported_reason(m, NULL) != NULL);
  astar_finder *f = (astar_finder *)1;
  CHECK(astar_finder_new_mesh(&f, NULL, &c, NULL) == ASTAR_INVALID_ARGUMENT && f == NULL);
  CHECK(astar_finder_new_mesh(NULL, m, &c, NULL) == ASTAR_INVALID_ARGUMENT);
  f = (astar_finder *)1;
  CHECK(astar_finder_new_mesh(&f, m, NULL, NULL) == ASTAR_INVALID_ARGUMENT && f == NULL);
  c.engine.weight = -1;
  CHECK(astar_finder_new_mesh(&f, m, &c, NULL) == ASTAR_INVALID_ARGUMENT && f == NULL);
  c.engine.weight = NAN;
  CHECK(astar_finder_new_mesh(&f, m, &c, NULL) == ASTAR_INVALID_ARGUMENT && f == NULL);
  astar_finder_config_init(&c);
  c.method = ASTAR_METHOD_FUNNEL;
  c.engine.stop_fn = never_stop;
  c.engine.stop_interval = 0;
  CHECK(astar_finder_new_mesh(&f, m, &c, NULL) == ASTAR_INVALID_ARGUMENT && f == NULL);
  astar_mesh_free(m);
  astar_grid_free(g);
}

static void test_wrong_calls(void) {
  astar_grid *g = NULL;
  astar_mesh *m = maze_mesh(&g);
  astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL), *gf = anya_finder(g);
  CHECK(astar_finder_mesh(f) == m && astar_finder_mesh(gf) == NULL);
  CHECK(astar_finder_grid(f) == NULL);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_point cells[64];
  astar_vec2 vec[64];
  astar_node nodes[64];
  astar_path_result res;
  const astar_point p0 = {0, 0}, p1 = {9, 0};
  const astar_vec2 a = {0.5, 0.5}, b = {9.5, 0.5};
  CHECK(astar_finder_find(f, ws, p0, p1, cells, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(res.status == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_vec(f, ws, p0, p1, vec, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_nodes(f, ws, 0, 9, nodes, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_begin(f, ws, p0, p1) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_begin_nodes(f, ws, 0, 9) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_points(gf, ws, a, b, vec, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_begin_points(gf, ws, a, b) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_points(NULL, ws, a, b, vec, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_points(f, NULL, a, b, vec, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_find_points(f, ws, a, b, NULL, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_begin_points(NULL, ws, a, b) == ASTAR_INVALID_ARGUMENT);
  /* Not finite: every coordinate, NaN and infinities. */
  const double bad[] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 3; k++)
    for (int c = 0; c < 4; c++) {
      astar_vec2 s = a, e = b;
      double *slot = c == 0 ? &s.x : c == 1 ? &s.y : c == 2 ? &e.x : &e.y;
      *slot = bad[k];
      CHECK(astar_finder_find_points(f, ws, s, e, vec, 64, &res) == ASTAR_INVALID_ARGUMENT);
      CHECK(res.status == ASTAR_INVALID_ARGUMENT && res.length == 0);
      CHECK(astar_finder_begin_points(f, ws, s, e) == ASTAR_INVALID_ARGUMENT);
    }
  /* A sliced search finishes with finish_vec only. */
  CHECK(astar_finder_begin_points(f, ws, a, b) == ASTAR_OK);
  CHECK(astar_finder_finish_vec(ws, vec, 64, &res) == ASTAR_IN_PROGRESS);
  CHECK(astar_finder_step(ws, 0, NULL) == ASTAR_OK);
  CHECK(astar_finder_finish(ws, cells, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_finish_nodes(ws, nodes, 64, &res) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_finder_finish_vec(ws, vec, 64, &res) == ASTAR_OK);
  CHECK(res.length >= 2 && vec[0].x == a.x && vec[res.length - 1].x == b.x);
  astar_workspace_free(ws);
  astar_finder_free(f);
  astar_finder_free(gf);
  astar_mesh_free(m);
  astar_grid_free(g);
}

/* Everything two results must share to be the same search. */
static bool same_result(const astar_path_result *x, const astar_path_result *y) {
  return x->status == y->status && x->cost == y->cost && x->length == y->length &&
         x->abstract_length == y->abstract_length && x->stats.expanded == y->stats.expanded &&
         x->stats.generated == y->stats.generated && x->stats.max_open == y->stats.max_open &&
         x->work == y->work;
}

/* Random query points of a mesh's bounding box (some outside it). */
static astar_vec2 random_point(const astar_mesh *m, rng *r) {
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  return (astar_vec2){lo.x - 0.5 + (hi.x - lo.x + 1) * rng_unit(r),
                      lo.y - 0.5 + (hi.y - lo.y + 1) * rng_unit(r)};
}

static void test_sliced(void) {
  astar_mesh *m = maze_mesh(NULL);
  astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL);
  astar_workspace *ws = NULL, *wt = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  CHECK(astar_workspace_new_empty(&wt, NULL) == ASTAR_OK);
  rng r;
  rng_seed(&r, 3005);
  for (int q = 0; q < 300; q++) {
    const astar_vec2 a = random_point(m, &r), b = random_point(m, &r);
    astar_vec2 p1[64], p2[64];
    astar_path_result r1, r2;
    const size_t cap = q % 7 == 0 ? 2 : 64; /* now and then too small */
    const astar_status s1 = astar_finder_find_points(f, ws, a, b, p1, cap, &r1);
    const astar_status b0 = astar_finder_begin_points(f, wt, a, b);
    CHECK(b0 == ASTAR_OK); /* a whole method tells everything in its step */
    astar_status s;
    uint64_t work = 0, total = 0;
    int steps = 0;
    while ((s = astar_finder_step(wt, 1, &work)) == ASTAR_IN_PROGRESS && steps < 100000) {
      total += work;
      steps++;
    }
    total += work;
    const astar_status s2 = astar_finder_finish_vec(wt, p2, cap, &r2);
    if (s2 != s1 || !same_result(&r1, &r2) || total != r1.work)
      FAILF("query %d: find %s, sliced %s (step %s)", q, astar_strerror(s1), astar_strerror(s2),
            astar_strerror(s));
    else if (s1 == ASTAR_OK && memcmp(p1, p2, r1.length * sizeof *p1) != 0)
      FAILF("query %d: the sliced path differs", q);
  }
  astar_workspace_free(ws);
  astar_workspace_free(wt);
  astar_finder_free(f);
  astar_mesh_free(m);
}

/* A sliced search across an edit of the mesh ends with ASTAR_STALE; the
** finder itself follows the mesh. */
static void test_stale(void) {
  astar_mesh *m = maze_mesh(NULL);
  astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL);
  astar_workspace *ws = NULL;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  const astar_vec2 a = {4.5, 4.5}, b = {0.5, 7.5};
  astar_vec2 path[64];
  astar_path_result res;
  const uint64_t v0 = astar_mesh_version(m);
  CHECK(astar_finder_begin_points(f, ws, a, b) == ASTAR_OK);
  /* An edit that changes nothing but is one: the version moves. */
  CHECK(astar__mesh_edited(m, NULL, 0) == ASTAR_OK);
  CHECK(astar_mesh_version(m) == v0 + 1);
  CHECK(astar_finder_step(ws, 0, NULL) == ASTAR_STALE);
  CHECK(astar_finder_finish_vec(ws, path, 64, &res) == ASTAR_STALE);
  CHECK(res.status == ASTAR_STALE && res.length == 0);
  /* And a new search runs on the mesh as it is now. */
  CHECK(astar_finder_find_points(f, ws, a, b, path, 64, &res) == ASTAR_OK);
  CHECK(astar_finder_begin_points(f, ws, a, b) == ASTAR_OK);
  CHECK(astar_finder_step(ws, 0, NULL) == ASTAR_OK);
  CHECK(astar_finder_finish_vec(ws, path, 64, &res) == ASTAR_OK);
  astar_workspace_free(ws);
  astar_finder_free(f);
  astar_mesh_free(m);
}

/* No allocation after warm-up; the same answers on every workspace, after
** any other searches, and after another method scribbled over the scratch. */
static void test_warm_and_deterministic(void) {
  rng r;
  rng_seed(&r, 3006);
  randmap_spec spec = {40, 30, 0.3, 0, 0, 0};
  astar_grid *g = NULL;
  CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
  astar_mesh *m = grid_mesh(g, NULL), *maze = maze_mesh(NULL);
  astar_finder *f = mesh_finder(m, ASTAR_METHOD_FUNNEL),
               *fm = mesh_finder(maze, ASTAR_METHOD_FUNNEL);
  failalloc fa;
  failalloc_init(&fa);
  const astar_allocator al = failalloc_allocator(&fa);
  astar_workspace *ws = NULL, *fresh = NULL;
  CHECK(astar_workspace_new_empty(&ws, &al) == ASTAR_OK);
  static astar_vec2 p1[PATH_CAP], p2[PATH_CAP];
  astar_path_result r1, r2;
  /* Warm up: one search, one sliced search, one on the other mesh. */
  astar_finder_find_points(f, ws, (astar_vec2){0.5, 0.5}, (astar_vec2){39.5, 29.5}, p1, PATH_CAP,
                           &r1);
  astar_finder_begin_points(f, ws, (astar_vec2){0.5, 0.5}, (astar_vec2){39.5, 29.5});
  astar_finder_step(ws, 0, NULL);
  astar_finder_finish_vec(ws, p1, PATH_CAP, &r1);
  astar_finder_find_points(fm, ws, (astar_vec2){0.5, 0.5}, (astar_vec2){9.5, 9.5}, p1, PATH_CAP,
                           &r1);
  const long warm = fa.requests;
  int found = 0;
  for (int q = 0; q < 400; q++) {
    const astar_finder *which = q % 5 == 4 ? fm : f;
    const astar_mesh *wm = which == f ? m : maze;
    const astar_vec2 a = random_point(wm, &r), b = random_point(wm, &r);
    const astar_status s1 = astar_finder_find_points(which, ws, a, b, p1, PATH_CAP, &r1);
    if (q % 3 == 0) {
      astar_finder_begin_points(which, ws, a, b);
      astar_finder_step(ws, 0, NULL);
      astar_finder_finish_vec(ws, p1, PATH_CAP, &r1);
    }
    found += s1 == ASTAR_OK;
    /* A workspace of its own gives the same. */
    CHECK(astar_workspace_new_empty(&fresh, NULL) == ASTAR_OK);
    const astar_status s2 = astar_finder_find_points(which, fresh, a, b, p2, PATH_CAP, &r2);
    astar_workspace_free(fresh);
    if (s1 != s2 || !same_result(&r1, &r2) ||
        (s1 == ASTAR_OK && memcmp(p1, p2, r1.length * sizeof *p1) != 0))
      FAILF("query %d: not deterministic (%s, %s)", q, astar_strerror(s1), astar_strerror(s2));
    if (q % 50 == 25) {
      /* Another method's use of the method scratch (astar__fscratch_method),
      ** leaving garbage: the next funnel search must not trust it. */
      astar__fstate *st = ws->ext[ASTAR__FINDER_SLOT].state;
      void *mem;
      CHECK(astar__fscratch_method(ws, st, st->mem_bytes, &mem) == ASTAR_OK);
      memset(mem, 0x5b, st->mem_bytes);
    }
  }
  CHECK(found > 100);
  CHECKF(fa.requests == warm, "%ld allocations after warm-up", fa.requests - warm);
  astar_workspace_free(ws);
  CHECK(fa.blocks == 0);
  astar_finder_free(f);
  astar_finder_free(fm);
  astar_mesh_free(m);
  astar_mesh_free(maze);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_search);
  RUN(test_search_graph);
  RUN(test_refusals);
  RUN(test_wrong_calls);
  RUN(test_sliced);
  RUN(test_stale);
  RUN(test_warm_and_deterministic);
  RUN(test_open_rectangle);
  RUN(test_tree_mazes);
  RUN(test_random_grids);
  RUN(test_degenerate_meshes);
  RUN(test_arena);
  RUN(test_aurora);
  return check_summary();
}
