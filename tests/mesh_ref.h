/*
** mesh_ref.h -- the tests' exact reference for the Euclidean shortest path
** on a navigation mesh (astar/mesh.h): a visibility graph over the corner
** vertices (those on an edge bordering an obstacle) plus the start and the
** goal, each edge a segment walked through the polygons with exact
** orientation tests, and Dijkstra over it. Written for the tests, sharing
** nothing with the library's search (mesh/polyanya.c) but the exact
** orientation predicate and the mesh's public accessors.
**
** The model, as astar/mesh.h states it: the free space is the union of the
** closed polygons; a path passes from a polygon to the next across a
** shared edge, or through a vertex into a polygon of the same sector (the
** polygons around the vertex between two gaps), never between the gaps of
** a pinch point. So a corner vertex with several sectors is one graph node
** per sector: a path turning there stays in the sector it came from. A
** start or goal point on a pinch belongs to every sector.
**
** Walking segment p -> q: in polygon Y (whose closure holds the part of the
** segment just after the current point), q in Y's closure ends the walk;
** otherwise the segment leaves Y through the interior of an edge (the
** polygon across it, or blocked at a border) or through a vertex w (a
** polygon of Y's sector around w whose closed angle at w holds the
** direction, or blocked). O(V^2) walks for the graph, O(V) a query, V the
** corners: meant for meshes of a few hundred corners.
*/
#ifndef ASTAR_TEST_MESH_REF_H
#define ASTAR_TEST_MESH_REF_H

#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h" /* astar__orient2d: the exact predicate */

typedef struct mref {
  const astar_mesh *m;
  size_t nv, np;
  /* Polygons around each vertex (CSR) and the sector of each. */
  size_t *ioff;
  int32_t *ipoly, *isect;
  int32_t *nsect;
  /* Graph nodes: (corner vertex, sector); node_base[v] + sector, -1 when not a corner. */
  int32_t *node_base;
  int32_t *node_v;
  size_t nn;
  double *w; /* nn x nn: length of the visible edge, INFINITY when none */
} mref;

static int mref_orient(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  return astar__orient2d(a, b, c);
}

/* Is q in the closure of polygon y? */
static int mref_holds(const mref *r, int32_t y, astar_vec2 q) {
  const int32_t *V;
  const uint32_t n = astar_mesh_polygon(r->m, (size_t)y, &V, NULL);
  if (!n) return 0;
  for (uint32_t i = 0; i < n; i++)
    if (mref_orient(astar_mesh_vertex(r->m, (size_t)V[i]),
                    astar_mesh_vertex(r->m, (size_t)V[(i + 1) % n]), q) < 0)
      return 0;
  return 1;
}

/* Does closed polygon y hold the start of segment p -> q (p in its
** closure): every edge line through p has q on y's side or on it? */
static int mref_leads(const mref *r, int32_t y, astar_vec2 p, astar_vec2 q) {
  const int32_t *V;
  const uint32_t n = astar_mesh_polygon(r->m, (size_t)y, &V, NULL);
  for (uint32_t i = 0; i < n; i++) {
    const astar_vec2 a = astar_mesh_vertex(r->m, (size_t)V[i]);
    const astar_vec2 b = astar_mesh_vertex(r->m, (size_t)V[(i + 1) % n]);
    const int sp = mref_orient(a, b, p);
    if (sp < 0) return 0;
    if (sp == 0 && mref_orient(a, b, q) < 0) return 0;
  }
  return 1;
}

/* The sector of polygon y around vertex v (-1 when y is not around v). */
static int32_t mref_sector(const mref *r, int32_t v, int32_t y) {
  for (size_t i = r->ioff[v]; i < r->ioff[v + 1]; i++)
    if (r->ipoly[i] == y) return r->isect[i];
  return -1;
}

/* Along direction p -> q, is a further than b (a, b on the line)? */
static int mref_further(astar_vec2 p, astar_vec2 q, astar_vec2 a, astar_vec2 b) {
  const double dx = q.x - p.x, dy = q.y - p.y;
  if (fabs(dx) >= fabs(dy)) return dx > 0 ? a.x > b.x : a.x < b.x;
  return dy > 0 ? a.y > b.y : a.y < b.y;
}

/*
** Walk p -> q from polygon y0 (whose closure holds the segment's start).
** Returns 1 when the segment lies in the free space, and then the last
** polygon in *last.
*/
static int mref_walk_from(const mref *r, int32_t y0, astar_vec2 p, astar_vec2 q, int32_t *last) {
  int32_t y = y0;
  for (size_t guard = 0; guard < 4 * r->np + 16; guard++) {
    if (mref_holds(r, y, q)) {
      *last = y;
      return 1;
    }
    const int32_t *V, *N;
    const uint32_t n = astar_mesh_polygon(r->m, (size_t)y, &V, &N);
    int exit_edge = -1, exit_vertex = -1;
    for (uint32_t i = 0; i < n; i++) {
      const astar_vec2 a = astar_mesh_vertex(r->m, (size_t)V[i]);
      const astar_vec2 b = astar_mesh_vertex(r->m, (size_t)V[(i + 1) % n]);
      const int sa = mref_orient(p, q, a), sb = mref_orient(p, q, b);
      if (sa < 0 && sb > 0) exit_edge = (int)i;
      if (sa == 0 && (exit_vertex < 0 ||
                      mref_further(p, q, a, astar_mesh_vertex(r->m, (size_t)V[exit_vertex]))))
        exit_vertex = (int)i;
    }
    if (exit_edge >= 0) {
      const int32_t nb = N[(exit_edge + 1) % n];
      if (nb < 0) return 0;
      y = nb;
      continue;
    }
    if (exit_vertex < 0) return 0; /* cannot happen on a valid mesh */
    const int32_t w = V[exit_vertex];
    const astar_vec2 pw = astar_mesh_vertex(r->m, (size_t)w);
    const int32_t sec = mref_sector(r, w, y);
    int32_t next = -1;
    for (size_t i = r->ioff[w]; i < r->ioff[w + 1] && next < 0; i++)
      if (r->ipoly[i] != y && r->isect[i] == sec && mref_leads(r, r->ipoly[i], pw, q))
        next = r->ipoly[i];
    if (next < 0) return 0;
    y = next;
  }
  return 0;
}

/* Walk from point p (vertex pv >= 0 in sector psec >= 0, or any sector with
** -1; or a point, pv == -1) to q: 1 when visible, *last the last polygon. */
static int mref_walk(const mref *r, astar_vec2 p, int32_t pv, int32_t psec, astar_vec2 q,
                     int32_t *last) {
  if (pv >= 0) {
    for (size_t i = r->ioff[pv]; i < r->ioff[pv + 1]; i++)
      if ((psec < 0 || r->isect[i] == psec) && mref_leads(r, r->ipoly[i], p, q))
        return mref_walk_from(r, r->ipoly[i], p, q, last);
    return 0;
  }
  for (size_t y = 0; y < r->np; y++)
    if (mref_holds(r, (int32_t)y, p) && mref_leads(r, (int32_t)y, p, q))
      return mref_walk_from(r, (int32_t)y, p, q, last);
  return 0;
}

static void mref_free(mref *r) {
  free(r->ioff);
  free(r->ipoly);
  free(r->isect);
  free(r->nsect);
  free(r->node_base);
  free(r->node_v);
  free(r->w);
  memset(r, 0, sizeof *r);
}

/* Build the reference for mesh m (the corner graph: O(V^2) walks). */
static int mref_init(mref *r, const astar_mesh *m) {
  memset(r, 0, sizeof *r);
  r->m = m;
  r->nv = astar_mesh_vertex_count(m);
  r->np = astar_mesh_polygon_count(m);
  r->ioff = calloc(r->nv + 1, sizeof *r->ioff);
  r->nsect = calloc(r->nv, sizeof *r->nsect);
  r->node_base = malloc(r->nv * sizeof *r->node_base);
  char *corner = calloc(r->nv, 1);
  for (size_t y = 0; y < r->np; y++) {
    const int32_t *V, *N;
    const uint32_t n = astar_mesh_polygon(m, y, &V, &N);
    for (uint32_t i = 0; i < n; i++) {
      r->ioff[V[i] + 1]++;
      if (N[i] < 0) corner[V[i]] = corner[V[(i + n - 1) % n]] = 1;
    }
  }
  for (size_t v = 0; v < r->nv; v++) r->ioff[v + 1] += r->ioff[v];
  const size_t tot = r->ioff[r->nv];
  r->ipoly = malloc((tot + 1) * sizeof *r->ipoly);
  r->isect = malloc((tot + 1) * sizeof *r->isect);
  size_t *fill = calloc(r->nv, sizeof *fill);
  for (size_t y = 0; y < r->np; y++) {
    const int32_t *V;
    const uint32_t n = astar_mesh_polygon(m, y, &V, NULL);
    for (uint32_t i = 0; i < n; i++) {
      r->ipoly[r->ioff[V[i]] + fill[V[i]]] = (int32_t)y;
      r->isect[r->ioff[V[i]] + fill[V[i]]++] = -1;
    }
  }
  free(fill);
  /* Sectors: polygons around v joined through the edges incident to v. */
  for (size_t v = 0; v < r->nv; v++) {
    int32_t s = 0;
    for (size_t i = r->ioff[v]; i < r->ioff[v + 1]; i++) {
      if (r->isect[i] >= 0) continue;
      /* flood from ipoly[i] */
      r->isect[i] = s;
      int changed = 1;
      while (changed) {
        changed = 0;
        for (size_t j = r->ioff[v]; j < r->ioff[v + 1]; j++) {
          if (r->isect[j] != s) continue;
          const int32_t *V, *N;
          const uint32_t n = astar_mesh_polygon(m, (size_t)r->ipoly[j], &V, &N);
          for (uint32_t k = 0; k < n; k++) {
            if (V[k] != (int32_t)v) continue;
            const int32_t nbs[2] = {N[k], N[(k + 1) % n]};
            for (int t = 0; t < 2; t++)
              for (size_t l = r->ioff[v]; l < r->ioff[v + 1]; l++)
                if (nbs[t] >= 0 && r->ipoly[l] == nbs[t] && r->isect[l] < 0) {
                  r->isect[l] = s;
                  changed = 1;
                }
          }
        }
      }
      s++;
    }
    r->nsect[v] = s;
  }
  /* Nodes. */
  size_t nn = 0;
  for (size_t v = 0; v < r->nv; v++) {
    r->node_base[v] = corner[v] ? (int32_t)nn : -1;
    if (corner[v]) nn += (size_t)r->nsect[v];
  }
  free(corner);
  r->nn = nn;
  r->node_v = malloc((nn + 1) * sizeof *r->node_v);
  for (size_t v = 0; v < r->nv; v++)
    if (r->node_base[v] >= 0)
      for (int32_t s = 0; s < r->nsect[v]; s++) r->node_v[r->node_base[v] + s] = (int32_t)v;
  r->w = malloc((nn * nn + 1) * sizeof *r->w);
  for (size_t a = 0; a < nn; a++) {
    const int32_t va = r->node_v[a];
    const int32_t sa = (int32_t)a - r->node_base[va];
    const astar_vec2 pa = astar_mesh_vertex(m, (size_t)va);
    for (size_t b = 0; b < nn; b++) r->w[a * nn + b] = INFINITY;
    for (size_t v = 0; v < r->nv; v++) {
      if (r->node_base[v] < 0 || (int32_t)v == va) continue;
      const astar_vec2 pv = astar_mesh_vertex(m, v);
      int32_t last;
      if (!mref_walk(r, pa, va, sa, pv, &last)) continue;
      const int32_t sb = mref_sector(r, (int32_t)v, last);
      r->w[a * nn + (size_t)(r->node_base[v] + sb)] = hypot(pv.x - pa.x, pv.y - pa.y);
    }
  }
  return 1;
}

/* The vertex at point p, or -1. */
static int32_t mref_vertex_at(const mref *r, astar_vec2 p) {
  for (size_t v = 0; v < r->nv; v++) {
    const astar_vec2 q = astar_mesh_vertex(r->m, v);
    if (q.x == p.x && q.y == p.y) return (int32_t)v;
  }
  return -1;
}

/* The shortest path length from s to t; -1 when t cannot be reached, -2
** when s or t is in no polygon. */
static double mref_shortest(const mref *r, astar_vec2 s, astar_vec2 t) {
  int in_s = 0, in_t = 0;
  for (size_t y = 0; y < r->np; y++) {
    in_s |= mref_holds(r, (int32_t)y, s);
    in_t |= mref_holds(r, (int32_t)y, t);
  }
  if (!in_s || !in_t) return -2;
  if (s.x == t.x && s.y == t.y) return 0;
  const int32_t sv = mref_vertex_at(r, s), tv = mref_vertex_at(r, t);
  const size_t nn = r->nn;
  double *d = malloc((nn + 1) * sizeof *d);
  char *done = calloc(nn + 1, 1);
  int32_t last;
  double best = INFINITY;
  if (mref_walk(r, s, sv, -1, t, &last)) best = hypot(t.x - s.x, t.y - s.y);
  for (size_t a = 0; a < nn; a++) {
    d[a] = INFINITY;
    const int32_t v = r->node_v[a];
    const astar_vec2 pv = astar_mesh_vertex(r->m, (size_t)v);
    if (mref_walk(r, s, sv, -1, pv, &last) &&
        r->node_base[v] + mref_sector(r, v, last) == (int32_t)a)
      d[a] = hypot(pv.x - s.x, pv.y - s.y);
  }
  for (;;) {
    size_t u = nn;
    for (size_t a = 0; a < nn; a++)
      if (!done[a] && d[a] < INFINITY && (u == nn || d[a] < d[u])) u = a;
    if (u == nn || d[u] >= best) break;
    done[u] = 1;
    const int32_t vu = r->node_v[u];
    const astar_vec2 pu = astar_mesh_vertex(r->m, (size_t)vu);
    if (mref_walk(r, pu, vu, (int32_t)u - r->node_base[vu], t, &last)) {
      const double c = d[u] + hypot(t.x - pu.x, t.y - pu.y);
      if (c < best) best = c;
    }
    for (size_t b = 0; b < nn; b++) {
      const double e = r->w[u * nn + b];
      if (e < INFINITY && !done[b] && d[u] + e < d[b]) d[b] = d[u] + e;
    }
  }
  (void)tv;
  free(d);
  free(done);
  return best < INFINITY ? best : -1;
}

#endif /* ASTAR_TEST_MESH_REF_H */
