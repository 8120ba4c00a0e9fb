/*
** mesh/merge.c -- triangles merged into convex polygons (Hertel-Mehlhorn,
** mesh/build.h). Each triangle side is a half-edge 3t + k; a merge removes
** a shared edge's two half-edges and splices the two rings of half-edges
** into one, so a polygon is always a ring of the original triangle sides.
** A merge only widens the angles at the merged polygon's vertices, so an
** edge refused once stays refused: one pass over the edges in order is the
** whole algorithm.
*/
#include "mesh/build.h"

#include <stdlib.h>
#include <string.h>

typedef struct merge_edge {
  double len2;    /* squared length */
  int32_t lo, hi; /* vertex ids, lo < hi */
  int32_t h;      /* the half-edge of the smaller triangle */
} merge_edge;

static int edge_cmp(const void *pa, const void *pb) {
  const merge_edge *a = pa, *b = pb;
  if (a->len2 != b->len2) return a->len2 > b->len2 ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  return (a->h > b->h) - (a->h < b->h);
}

/* Is the turn a -> b -> c convex: left, or straight on (collinear and
** going forward; going back is a slit: the two polygons also share the
** edge beyond b, and merging would make a vertex appear twice). */
static bool convex_turn(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  int o = astar__orient2d(a, b, c);
  if (o != 0) return o > 0;
  /* Collinear: forward when b - a and c - b point the same way (exact:
  ** the coordinates' signs of the differences compare, no rounding). */
  double dx1 = b.x - a.x, dy1 = b.y - a.y, dx2 = c.x - b.x, dy2 = c.y - b.y;
  return (dx1 > 0 && dx2 > 0) || (dx1 < 0 && dx2 < 0) || (dy1 > 0 && dy2 > 0) ||
         (dy1 < 0 && dy2 < 0);
}

static int32_t uf_find(int32_t *parent, int32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

void astar__merge_free(const astar_allocator *a, astar__merged *m) {
  if (!m) return;
  astar__free(a, m->off, (m->np + 1) * sizeof *m->off);
  astar__free(a, m->side, (m->off_len) * sizeof *m->side);
  astar__free(a, m->tri_poly, m->nt * sizeof *m->tri_poly);
  memset(m, 0, sizeof *m);
}

astar_status astar__merge(const astar_allocator *a, const astar_vec2 *v, const int32_t *tv,
                          const int32_t *tn, size_t nt, bool merge, astar__merged *out) {
  memset(out, 0, sizeof *out);
  if (nt > (size_t)INT32_MAX / 3) return ASTAR_TOO_LARGE;
  size_t nh = 3 * nt;
  astar_status st = ASTAR_NO_MEMORY;
  int32_t *twin = astar__calloc(a, nh ? nh : 1, sizeof *twin);
  int32_t *next = astar__calloc(a, nh ? nh : 1, sizeof *next);
  int32_t *prev = astar__calloc(a, nh ? nh : 1, sizeof *prev);
  uint8_t *dead = astar__calloc(a, nh ? nh : 1, 1);
  int32_t *parent = astar__calloc(a, nt ? nt : 1, sizeof *parent);
  uint32_t *sides = astar__calloc(a, nt ? nt : 1, sizeof *sides);
  int32_t *poly_of_root = astar__calloc(a, nt ? nt : 1, sizeof *poly_of_root);
  merge_edge *edges = astar__calloc(a, nh ? nh : 1, sizeof *edges);
  size_t ne = 0;
  if (!twin || !next || !prev || !dead || !parent || !sides || !poly_of_root || !edges) goto done;
  for (size_t t = 0; t < nt; t++) {
    parent[t] = (int32_t)t;
    sides[t] = 3;
    poly_of_root[t] = -1;
    for (int k = 0; k < 3; k++) {
      size_t h = 3 * t + (size_t)k;
      next[h] = (int32_t)(3 * t + (size_t)((k + 1) % 3));
      prev[h] = (int32_t)(3 * t + (size_t)((k + 2) % 3));
      twin[h] = -1;
      int32_t u = tn[h];
      if (u < 0) continue;
      int32_t from = tv[h], to = tv[3 * t + (size_t)((k + 1) % 3)];
      for (int j = 0; j < 3; j++) {
        size_t g = 3 * (size_t)u + (size_t)j;
        if (tv[g] == to && tv[3 * (size_t)u + (size_t)((j + 1) % 3)] == from) twin[h] = (int32_t)g;
      }
      if (twin[h] >= 0 && (size_t)u > t) {
        astar_vec2 p = v[from], q = v[to];
        double dx = p.x - q.x, dy = p.y - q.y;
        edges[ne].len2 = dx * dx + dy * dy;
        edges[ne].lo = from < to ? from : to;
        edges[ne].hi = from < to ? to : from;
        edges[ne].h = (int32_t)h;
        ne++;
      }
    }
  }
  if (merge) {
    qsort(edges, ne, sizeof *edges, edge_cmp);
    for (size_t i = 0; i < ne; i++) {
      int32_t h = edges[i].h, t = twin[h];
      int32_t ph = uf_find(parent, h / 3), pt = uf_find(parent, t / 3);
      if (ph == pt) continue; /* cannot happen in a planar subdivision; be safe */
      if ((size_t)sides[ph] + sides[pt] - 2 > ASTAR_MESH_MAX_SIDES) continue;
      /* h runs u -> v in P, t runs v -> u in Q. */
      int32_t u = tv[h], w = tv[t];
      int32_t before_u = tv[prev[h]], after_u = tv[next[next[t]]];
      int32_t before_w = tv[prev[t]], after_w = tv[next[next[h]]];
      if (!convex_turn(v[before_u], v[u], v[after_u])) continue;
      if (!convex_turn(v[before_w], v[w], v[after_w])) continue;
      int32_t ph_prev = prev[h], ph_next = next[h], pt_prev = prev[t], pt_next = next[t];
      next[ph_prev] = pt_next;
      prev[pt_next] = ph_prev;
      next[pt_prev] = ph_next;
      prev[ph_next] = pt_prev;
      dead[h] = dead[t] = 1;
      uint32_t ns = sides[ph] + sides[pt] - 2;
      if (ph < pt) {
        parent[pt] = ph;
        sides[ph] = ns;
      } else {
        parent[ph] = pt;
        sides[pt] = ns;
      }
    }
  }
  /* Count polygons and sides, then emit. */
  size_t np = 0, ns = 0;
  for (size_t t = 0; t < nt; t++) {
    if (parent[t] == (int32_t)t) {
      np++;
      ns += sides[t];
    }
  }
  out->off = astar__calloc(a, np + 1, sizeof *out->off);
  out->side = astar__calloc(a, ns ? ns : 1, sizeof *out->side);
  out->tri_poly = astar__calloc(a, nt ? nt : 1, sizeof *out->tri_poly);
  out->np = np;
  out->nt = nt;
  out->off_len = ns ? ns : 1;
  if (!out->off || !out->side || !out->tri_poly) {
    astar__merge_free(a, out);
    goto done;
  }
  {
    size_t p = 0, w = 0;
    for (size_t t = 0; t < nt; t++) {
      for (int k = 0; k < 3; k++) {
        size_t h0 = 3 * t + (size_t)k;
        if (dead[h0]) continue;
        int32_t root = uf_find(parent, (int32_t)t);
        if (poly_of_root[root] >= 0) continue;
        poly_of_root[root] = (int32_t)p;
        out->off[p] = (uint32_t)w;
        int32_t h = (int32_t)h0;
        do {
          out->side[w++] = (uint32_t)h;
          h = next[h];
        } while (h != (int32_t)h0 && w <= ns);
        p++;
      }
    }
    out->off[p] = (uint32_t)w;
    for (size_t t = 0; t < nt; t++) out->tri_poly[t] = poly_of_root[uf_find(parent, (int32_t)t)];
  }
  st = ASTAR_OK;
done:
  astar__free(a, twin, (nh ? nh : 1) * sizeof *twin);
  astar__free(a, next, (nh ? nh : 1) * sizeof *next);
  astar__free(a, prev, (nh ? nh : 1) * sizeof *prev);
  astar__free(a, dead, nh ? nh : 1);
  astar__free(a, parent, (nt ? nt : 1) * sizeof *parent);
  astar__free(a, sides, (nt ? nt : 1) * sizeof *sides);
  astar__free(a, poly_of_root, (nt ? nt : 1) * sizeof *poly_of_root);
  astar__free(a, edges, (nh ? nh : 1) * sizeof *edges);
  return st;
}

bool astar__point_in_ring(const astar_vec2 *ring, size_t n, astar_vec2 p) {
  int wn = 0;
  for (size_t i = 0; i < n; i++) {
    astar_vec2 s = ring[i], e = ring[(i + 1) % n];
    if (s.y <= p.y) {
      if (e.y > p.y && astar__orient2d(s, e, p) > 0) wn++;
    } else if (e.y <= p.y && astar__orient2d(s, e, p) < 0) {
      wn--;
    }
  }
  return wn != 0;
}
