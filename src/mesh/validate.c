/*
** mesh/validate.c -- the checks of a navigation mesh (astar/mesh.h, "A
** VALID mesh"), in the order the fault record promises: ranges, then each
** polygon in index order (degenerate, convexity, orientation,
** neighbours), then loose vertices, then overlaps (in locate.c, which owns
** the boxes they are found with). Every geometric verdict is an exact
** predicate (astar__orient2d) or a comparison of coordinates.
*/
#include "mesh/mesh.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h> /* vsnprintf, for fault messages only */
#include <stdlib.h>
#include <string.h>

void astar__mesh_fault(const astar_mesh *m, astar_mesh_fault *f, astar_mesh_fault_kind kind,
                       int32_t polygon, int32_t vertex, int32_t other, const char *fmt, ...) {
  if (!f) return;
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->polygon = polygon;
  f->vertex = vertex;
  f->other = other;
  size_t len = 0;
  char *msg = f->message;
  const size_t cap = sizeof f->message;
  if (polygon >= 0) {
    if (m && m->pline && (size_t)polygon < m->lines_p) {
      f->line = m->pline[polygon];
      f->column = m->pcol[polygon];
    }
    len = (size_t)(f->line ? snprintf(msg, cap, "polygon %ld (line %lu): ", (long)polygon,
                                      (unsigned long)f->line)
                           : snprintf(msg, cap, "polygon %ld: ", (long)polygon));
  } else if (vertex >= 0) {
    if (m && m->vline && (size_t)vertex < m->lines_v) {
      f->line = m->vline[vertex];
      f->column = m->vcol[vertex];
    }
    len = (size_t)(f->line ? snprintf(msg, cap, "vertex %ld (line %lu): ", (long)vertex,
                                      (unsigned long)f->line)
                           : snprintf(msg, cap, "vertex %ld: ", (long)vertex));
  }
  if (len >= cap) len = cap - 1;
  va_list ap;
  va_start(ap, fmt);
  /* clang-tidy 14 reports ap uninitialised here when one run analyses this
  ** file twice (formats/text.c has the same note).
  ** NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
  vsnprintf(msg + len, cap - len, fmt, ap);
  va_end(ap);
}

astar_status astar__mesh_check_ranges(const astar_mesh *m, astar_mesh_fault *f) {
  for (size_t v = 0; v < m->nv; v++) {
    if (!isfinite(m->v[v].x) || !isfinite(m->v[v].y)) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_RANGE, -1, (int32_t)v, -1, "coordinate not finite");
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  for (size_t i = 0; i < m->np; i++) {
    const int32_t *pv = m->pv + m->poff[i], *nb = m->pnb + m->poff[i];
    for (uint32_t k = 0; k < m->pn[i]; k++) {
      if (pv[k] < 0 || (size_t)pv[k] >= m->nv) {
        astar__mesh_fault(m, f, ASTAR_MESH_FAULT_RANGE, (int32_t)i, -1, -1,
                          "vertex index %ld out of range [0, %zu)", (long)pv[k], m->nv);
        return ASTAR_INVALID_ARGUMENT;
      }
      if (nb[k] < -1 || (nb[k] >= 0 && (size_t)nb[k] >= m->np)) {
        astar__mesh_fault(m, f, ASTAR_MESH_FAULT_RANGE, (int32_t)i, -1, -1,
                          "neighbour index %ld out of range [-1, %zu)", (long)nb[k], m->np);
        return ASTAR_INVALID_ARGUMENT;
      }
    }
  }
  return ASTAR_OK;
}

/* The sign of x - y, exactly. */
static int sgn(double x, double y) {
  return (x > y) - (x < y);
}

/* Is the right turn a -> b -> c within rounding of straight? Polyanya's
** meshes rotated by 45 degrees have collinear vertices whose rounded
** coordinates turn right by about 1e-16 radians; such a turn counts as
** collinear (astar/mesh.h). The exact sign decides everything else. */
static bool straight_within_rounding(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  const double ux = b.x - a.x, uy = b.y - a.y, vx = c.x - b.x, vy = c.y - b.y;
  const double cross = ux * vy - uy * vx, dot = ux * vx + uy * vy;
  return dot > 0 && fabs(cross) <= ASTAR__MESH_TURN_TOLERANCE * hypot(ux, uy) * hypot(vx, vy);
}

/* Polygon i's shape: DEGENERATE, NOT_CONVEX, CLOCKWISE or NONE. `mark`
** has a byte per vertex, all 0 (left so). */
static astar_status check_shape(const astar_mesh *m, size_t i, uint8_t *mark, astar_mesh_fault *f) {
  const uint32_t n = m->pn[i];
  const int32_t *pv = m->pv + m->poff[i];
  const int32_t p = (int32_t)i;
  if (n < 3) {
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_DEGENERATE, p, -1, -1,
                      "%lu vertices: a polygon needs at least 3", (unsigned long)n);
    return ASTAR_INVALID_ARGUMENT;
  }
  int32_t twice = -1;
  for (uint32_t k = 0; k < n; k++) {
    if (mark[pv[k]] && twice < 0) twice = pv[k];
    mark[pv[k]] = 1;
  }
  for (uint32_t k = 0; k < n; k++) mark[pv[k]] = 0;
  if (twice >= 0) {
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_DEGENERATE, p, twice, -1, "vertex %ld is named twice",
                      (long)twice);
    return ASTAR_INVALID_ARGUMENT;
  }
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = m->v[pv[k]], b = m->v[pv[(k + 1) % n]];
    if (a.x == b.x && a.y == b.y) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_DEGENERATE, p, pv[(k + 1) % n], -1,
                        "vertices %ld and %ld are at the same point", (long)pv[k],
                        (long)pv[(k + 1) % n]);
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  /* Turns: positive, negative, and collinear ones that go back. */
  uint32_t pos = 0, neg = 0;
  int32_t first_pos = -1, first_neg = -1, back = -1;
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 a = m->v[pv[(k + n - 1) % n]], b = m->v[pv[k]], c = m->v[pv[(k + 1) % n]];
    int o = astar__orient2d(a, b, c);
    if (o < 0 && straight_within_rounding(a, b, c)) o = 0;
    if (o > 0) {
      if (!pos++) first_pos = pv[k];
    } else if (o < 0) {
      if (!neg++) first_neg = pv[k];
    } else if (back < 0 &&
               (sgn(b.x, a.x) * sgn(c.x, b.x) < 0 || sgn(b.y, a.y) * sgn(c.y, b.y) < 0)) {
      back = pv[k];
    }
  }
  if (pos == 0 && neg == 0) {
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_DEGENERATE, p, -1, -1,
                      "all its vertices are on one line: zero area");
    return ASTAR_INVALID_ARGUMENT;
  }
  if (back >= 0) {
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NOT_CONVEX, p, back, -1,
                      "the boundary turns back at vertex %ld: the polygon is not convex",
                      (long)back);
    return ASTAR_INVALID_ARGUMENT;
  }
  if (pos && neg) {
    const int32_t v = neg <= pos ? first_neg : first_pos;
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NOT_CONVEX, p, v, -1,
                      "turn at vertex %ld is reflex: the polygon is not convex", (long)v);
    return ASTAR_INVALID_ARGUMENT;
  }
  if (!pos) {
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_CLOCKWISE, p, -1, -1,
                      "its vertices run clockwise (by (b - a) x (c - a) < 0)");
    return ASTAR_INVALID_ARGUMENT;
  }
  /* All turns left: convex unless it winds around more than once, which
  ** shows as a fan triangle from vertex 0 turning right. */
  const astar_vec2 o = m->v[pv[0]];
  for (uint32_t k = 1; k + 1 < n; k++) {
    const astar_vec2 b = m->v[pv[k]], c = m->v[pv[k + 1]];
    const double cross = (b.x - o.x) * (c.y - o.y) - (b.y - o.y) * (c.x - o.x);
    if (astar__orient2d(o, b, c) < 0 &&
        !(fabs(cross) <=
          ASTAR__MESH_TURN_TOLERANCE * hypot(b.x - o.x, b.y - o.y) * hypot(c.x - o.x, c.y - o.y))) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NOT_CONVEX, p, pv[k + 1], -1,
                        "the boundary winds around more than once (at vertex %ld): the "
                        "polygon is not convex",
                        (long)pv[k + 1]);
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  return ASTAR_OK;
}

/* The first entry of the sorted edge table with (lo, hi), or n. */
static size_t edge_find(const astar__mesh_edge *e, size_t n, int32_t lo, int32_t hi) {
  size_t a = 0, b = n;
  while (a < b) {
    const size_t c = a + (b - a) / 2;
    if (e[c].lo < lo || (e[c].lo == lo && e[c].hi < hi))
      a = c + 1;
    else
      b = c;
  }
  return a;
}

/* Polygon i's neighbour links: each names a polygon holding the reversed
** edge and naming i back; each reversed edge held by another polygon is
** named. */
static astar_status check_links(const astar_mesh *m, size_t i, const astar__mesh_edge *e, size_t ne,
                                astar_mesh_fault *f) {
  const uint32_t n = m->pn[i];
  const int32_t *pv = m->pv + m->poff[i], *nb = m->pnb + m->poff[i];
  const int32_t p = (int32_t)i;
  for (uint32_t k = 0; k < n; k++) {
    const int32_t a = pv[k ? k - 1 : n - 1], b = pv[k], j = nb[k];
    const int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    if (j == p) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NEIGHBOUR, p, -1, j,
                        "names itself as neighbour across edge %ld-%ld", (long)a, (long)b);
      return ASTAR_INVALID_ARGUMENT;
    }
    bool named_found = j < 0;
    int32_t unnamed = -1;
    for (size_t x = edge_find(e, ne, lo, hi); x < ne && e[x].lo == lo && e[x].hi == hi; x++) {
      if (e[x].poly == p || e[x].from != b) continue; /* only the reversed edge (b, a) */
      if (e[x].poly == j) {
        const int32_t back = m->pnb[m->poff[j] + e[x].k];
        if (back != p) {
          astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NEIGHBOUR, p, -1, j,
                            "names polygon %ld across edge %ld-%ld, which names %ld there, not "
                            "%ld",
                            (long)j, (long)a, (long)b, (long)back, (long)p);
          return ASTAR_INVALID_ARGUMENT;
        }
        named_found = true;
      } else if (unnamed < 0) {
        unnamed = e[x].poly;
      }
    }
    if (!named_found) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NEIGHBOUR, p, -1, j,
                        "names polygon %ld across edge %ld-%ld, which does not have that edge",
                        (long)j, (long)a, (long)b);
      return ASTAR_INVALID_ARGUMENT;
    }
    if (unnamed >= 0) {
      astar__mesh_fault(m, f, ASTAR_MESH_FAULT_NEIGHBOUR, p, -1, unnamed,
                        "shares edge %ld-%ld with polygon %ld but does not name it as neighbour",
                        (long)a, (long)b, (long)unnamed);
      return ASTAR_INVALID_ARGUMENT;
    }
  }
  return ASTAR_OK;
}

astar_status astar__mesh_check_local(const astar_mesh *m, astar_mesh_fault *f) {
  if (m->nv > ASTAR_MESH_MAX_ELEMENTS || m->np > ASTAR_MESH_MAX_ELEMENTS) {
    astar__mesh_fault(m, f, ASTAR_MESH_FAULT_TOO_LARGE, -1, -1, -1,
                      "%zu vertices and %zu polygons: more than %lu", m->nv, m->np,
                      (unsigned long)ASTAR_MESH_MAX_ELEMENTS);
    return ASTAR_INVALID_ARGUMENT;
  }
  astar_status st = astar__mesh_check_ranges(m, f);
  if (st != ASTAR_OK) return st;
  uint8_t *mark = m->nv ? astar__calloc(&m->alloc, m->nv, 1) : NULL;
  if (m->nv && !mark) return ASTAR_NO_MEMORY;
  astar__mesh_edge *e = NULL;
  size_t ne = 0;
  st = astar__mesh_edges(m, &e, &ne);
  for (size_t i = 0; st == ASTAR_OK && i < m->np; i++) {
    if (!m->pn[i]) continue;
    st = check_shape(m, i, mark, f);
    if (st == ASTAR_OK) st = check_links(m, i, e, ne, f);
  }
  if (st == ASTAR_OK && m->version == 0) {
    /* Loose vertices: on no polygon (an edited mesh may keep some). */
    for (size_t i = 0; i < m->np; i++)
      for (uint32_t k = 0; k < m->pn[i]; k++) mark[m->pv[m->poff[i] + k]] = 1;
    for (size_t v = 0; v < m->nv; v++) {
      if (!mark[v]) {
        astar__mesh_fault(m, f, ASTAR_MESH_FAULT_LOOSE_VERTEX, -1, (int32_t)v, -1,
                          "lies on no polygon");
        st = ASTAR_INVALID_ARGUMENT;
        break;
      }
    }
  }
  astar__mesh_edges_free(m, e, ne);
  astar__free(&m->alloc, mark, m->nv);
  return st;
}

astar_status astar_mesh_validate(const astar_mesh *mesh, astar_mesh_fault *fault) {
  if (fault) {
    memset(fault, 0, sizeof *fault);
    fault->polygon = fault->vertex = fault->other = -1;
  }
  if (!mesh) return ASTAR_INVALID_ARGUMENT;
  astar_status st = astar__mesh_check_local(mesh, fault);
  if (st == ASTAR_OK) st = astar__mesh_check_overlaps(mesh, fault);
  return st;
}
